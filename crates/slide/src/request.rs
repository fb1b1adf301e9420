//! The JSON body of a solve request (`POST /api/solve` of `slide serve`), read into boards with errors that name
//! what is wrong. Pure: no I/O, so the server and the fuzzer run the very same code.
//!
//! ```
//! let r = slide::request::parse_solve(br#"{"board": "4 1 2/5 0 3", "moves": true}"#).unwrap();
//! assert_eq!(r.board.to_string(), "[[4,1,2],[5,0,3]]");
//! assert!(r.moves && r.goal.is_none());
//! assert!(slide::request::parse_solve(br#"{"board": [[1,2],[3,0.5]]}"#).unwrap_err().contains("not a whole number"));
//! ```

use serde_json::Value;

use crate::board::{Board, Shape};

/// A solve request: the board, an optional goal of the same shape, and whether the moves are wanted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveRequest {
    /// The board to solve.
    pub board: Board,
    /// The goal, when not the default one.
    pub goal: Option<Board>,
    /// Whether the answer should carry the moves.
    pub moves: bool,
}

/// Reads `{"board": …, "goal"?: …, "shape"?: "RxC", "moves"?: bool}`; a board is a string in any format
/// [`Board::parse`] reads, or an array of rows of whole numbers. The error says what is wrong, for a 400 reply.
pub fn parse_solve(body: &[u8]) -> Result<SolveRequest, String> {
    let v: Value = serde_json::from_slice(body).map_err(|e| {
        if body.iter().all(u8::is_ascii_whitespace) {
            "empty request body: expected JSON such as {\"board\": \"1 2 3/4 0 5\", \"moves\": true}".to_string()
        } else {
            format!("the request body is not valid JSON: {e}")
        }
    })?;
    let Value::Object(obj) = v else {
        return Err(format!(
            "the request body must be a JSON object such as {{\"board\": [[1,2,3],[4,0,5]]}}, not {}",
            shorten(&v.to_string(), 40)
        ));
    };
    let shape = match obj.get("shape") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.parse::<Shape>().map_err(|e| format!("\"shape\": {e}"))?),
        Some(other) => {
            return Err(format!(
                "\"shape\" must be a string such as \"3x4\", not {}",
                shorten(&other.to_string(), 40)
            ))
        }
    };
    let board = match obj.get("board") {
        None | Some(Value::Null) => {
            return Err(
                "the request needs a \"board\", for example {\"board\": \"1 2 3/4 0 5\"}".into(),
            )
        }
        Some(b) => board_from_value(b, shape, "board")?,
    };
    let goal = match obj.get("goal") {
        None | Some(Value::Null) => None,
        Some(g) => Some(board_from_value(g, Some(board.shape()), "goal")?),
    };
    let moves = match obj.get("moves") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(format!(
                "\"moves\" must be true or false, not {}",
                shorten(&other.to_string(), 40)
            ))
        }
    };
    Ok(SolveRequest { board, goal, moves })
}

/// A board from a JSON string (any format `slide solve` reads) or an array of rows of whole numbers.
pub fn board_from_value(v: &Value, shape: Option<Shape>, what: &str) -> Result<Board, String> {
    let rows = match v {
        Value::String(s) => {
            return Board::parse_with_shape(s, shape).map_err(|e| format!("{what}: {e}"))
        }
        Value::Array(rows) => rows,
        other => {
            return Err(format!(
                "{what} must be a string such as \"1 2 3/4 0 5\" or an array of rows such as [[1,2,3],[4,0,5]], not {}",
                shorten(&other.to_string(), 40)
            ))
        }
    };
    let mut out: Vec<Vec<i64>> = Vec::with_capacity(rows.len());
    for (r, row) in rows.iter().enumerate() {
        let Value::Array(cells) = row else {
            return Err(format!(
                "{what}: row {} is not an array of numbers: {}",
                r + 1,
                shorten(&row.to_string(), 40)
            ));
        };
        let mut vals = Vec::with_capacity(cells.len());
        for (c, cell) in cells.iter().enumerate() {
            let at = || format!("{what}: row {}, column {}", r + 1, c + 1);
            let n = match cell {
                Value::Number(n) => n,
                other => {
                    return Err(format!(
                        "{}: {} is not a number",
                        at(),
                        shorten(&other.to_string(), 40)
                    ))
                }
            };
            if let Some(u) = n.as_u64() {
                match i64::try_from(u) {
                    Ok(i) => vals.push(i),
                    Err(_) => return Err(format!("{}: {u} is too large to be a tile", at())),
                }
            } else if let Some(i) = n.as_i64() {
                return Err(format!(
                    "{}: {i} is negative: tiles are whole numbers from 0 (the blank) up",
                    at()
                ));
            } else if n
                .as_f64()
                .is_some_and(|f| f.fract() == 0.0 && f.abs() >= 1e15)
            {
                // A whole number beyond 64 bits, which JSON parsing turned into a float.
                return Err(format!("{}: {n} is too large to be a tile", at()));
            } else {
                return Err(format!("{}: {n} is not a whole number", at()));
            }
        }
        out.push(vals);
    }
    let board = Board::from_rows(&out).map_err(|e| format!("{what}: {e}"))?;
    if let Some(s) = shape {
        if s != board.shape() {
            return Err(format!(
                "{what}: its rows make a {} board, but the shape is {s}",
                board.shape()
            ));
        }
    }
    Ok(board)
}

/// At most `max` characters of `s`, with an ellipsis when cut (for quoting input in error messages).
pub fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push('…');
        t
    }
}
