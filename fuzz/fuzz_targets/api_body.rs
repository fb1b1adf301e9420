//! Arbitrary bytes as the JSON body of `POST /api/solve`.
//!
//! It runs the server's own body parsing, `slide_cli::serve::request::parse_solve` (a JSON string in any text format,
//! or an array of rows of whole numbers; an optional `"shape"`, `"goal"` and `"moves"`).
//!
//! Properties: nothing panics (deep nesting, huge numbers, floats, odd Unicode, duplicate keys); an accepted board
//! and goal are permutations of their shape that print and parse back to themselves; boards of at most 9 cells are
//! answered by the solver (complete tables, in memory) consistently with the parity test, and a solution replays
//! from the board to the goal.

#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use slide::{Board, CacheDir, Solver};

fn solver() -> &'static Solver {
    static S: OnceLock<Solver> = OnceLock::new();
    S.get_or_init(|| Solver::builder().cache_dir(CacheDir::None).build())
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
    let req = match slide_cli::serve::request::parse_solve(data) {
        Ok(req) => req,
        Err(e) => {
            // The message is written out, as the server does for its 400 reply.
            let _ = e.to_string();
            return;
        }
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
        assert_eq!(s.distance(), u64::try_from(d).ok());
        assert_eq!(s.is_solvable(), solvable);
        if let Some(m) = s.moves() {
            let mut b = board.clone();
            for &t in m {
                b.apply(t)
                    .unwrap_or_else(|e| panic!("{board}: move {t}: {e}"));
            }
            assert_eq!(b, goal);
        }
    }
});
