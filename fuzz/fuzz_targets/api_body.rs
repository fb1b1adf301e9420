//! Arbitrary bytes as the JSON body of `POST /api/solve`.
//!
//! The server's own body parsing (`parse_solve` and `board_from_value` in crates/slide-cli/src/serve.rs) lives in
//! the binary crate, where a fuzz target cannot reach it. This target replays the same path with what the library
//! offers: `serde_json::from_slice::<Value>` (as the server does), then a board from a JSON string (any text format,
//! through `Board::parse_with_shape`) or from an array of rows of whole numbers (through `Board::from_rows`), an
//! optional `"shape"` string (`Shape::from_str`), an optional `"goal"` of the board's shape, an optional `"moves"`.
//!
//! Properties: nothing panics (deep nesting, huge numbers, floats, odd Unicode, duplicate keys); an accepted board
//! and goal are permutations of their shape that print and parse back to themselves; boards of at most 9 cells are
//! answered by the solver (complete tables, in memory) consistently with the parity test, and a solution replays
//! from the board to the goal.

#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use slide::{Board, CacheDir, NoProgress, Shape, Solver};

fn solver() -> &'static Solver {
    static S: OnceLock<Solver> = OnceLock::new();
    S.get_or_init(|| Solver::with_options(CacheDir::None, Arc::new(NoProgress)))
}

struct Request {
    board: Board,
    goal: Option<Board>,
    moves: bool,
}

fn board_from(v: &Value, shape: Option<Shape>) -> Result<Board, String> {
    match v {
        Value::String(s) => Board::parse_with_shape(s, shape).map_err(|e| e.to_string()),
        Value::Array(rows) => {
            let mut out: Vec<Vec<i64>> = Vec::with_capacity(rows.len().min(4096));
            for row in rows {
                let Value::Array(cells) = row else {
                    return Err("a row is not an array".into());
                };
                let mut r = Vec::with_capacity(cells.len().min(4096));
                for c in cells {
                    // Whole numbers that fit i64 only; floats, strings, negatives beyond i64 are refused.
                    let n = c.as_i64().ok_or("not a whole number")?;
                    r.push(n);
                }
                out.push(r);
            }
            let b = Board::from_rows(&out).map_err(|e| e.to_string())?;
            if shape.is_some_and(|s| s != b.shape()) {
                return Err("shape mismatch".into());
            }
            Ok(b)
        }
        _ => Err("not a board".into()),
    }
}

fn parse(body: &[u8]) -> Result<Request, String> {
    let v: Value = serde_json::from_slice(body).map_err(|e| e.to_string())?;
    let Value::Object(obj) = v else {
        return Err("not an object".into());
    };
    let shape = match obj.get("shape") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.parse::<Shape>().map_err(|e| e.to_string())?),
        Some(_) => return Err("bad shape".into()),
    };
    let board = match obj.get("board") {
        None | Some(Value::Null) => return Err("no board".into()),
        Some(b) => board_from(b, shape)?,
    };
    let goal = match obj.get("goal") {
        None | Some(Value::Null) => None,
        Some(g) => Some(board_from(g, Some(board.shape()))?),
    };
    let moves = match obj.get("moves") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err("bad moves".into()),
    };
    Ok(Request { board, goal, moves })
}

fn check_board(b: &Board) {
    let n = b.shape().cells();
    assert!((2..=slide::MAX_CELLS).contains(&n));
    let mut seen = vec![false; n];
    for &t in b.tiles() {
        assert!((t as usize) < n && !std::mem::replace(&mut seen[t as usize], true));
    }
    assert_eq!(b.tiles()[b.blank()], 0);
    let text = b.to_string();
    assert_eq!(Board::parse(&text).as_ref(), Ok(b), "{text}");
}

fuzz_target!(|data: &[u8]| {
    let Ok(req) = parse(data) else {
        return;
    };
    check_board(&req.board);
    let goal = match req.goal {
        Some(g) => {
            check_board(&g);
            assert_eq!(g.shape(), req.board.shape());
            g
        }
        None => Board::goal(req.board.shape()),
    };
    let board = req.board;
    let solvable = board.is_solvable(&goal).expect("same shape");
    if board.shape().cells() > 9 {
        return;
    }
    let d = solver()
        .distance(&board, &goal)
        .expect("a table answers every board of at most 9 cells");
    assert_eq!(d >= 0, solvable, "{board} -> {goal}");
    if req.moves {
        let s = solver().solve(&board, &goal).expect("solve");
        assert_eq!(s.distance(), d);
        assert_eq!(s.is_solvable(), solvable);
        if let Some(m) = &s.moves {
            let mut b = board.clone();
            for &t in m {
                b.apply(t)
                    .unwrap_or_else(|e| panic!("{board}: move {t}: {e}"));
            }
            assert_eq!(b, goal);
        }
    }
});
