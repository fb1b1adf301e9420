//! The JSON bodies of the requests of `slide serve` (`POST /api/solve`, `POST /api/analyse`), read into boards and
//! move sequences with errors that name what is wrong. Pure: no I/O, so the server and the fuzzer run the very same
//! code.
//!
//! ```
//! let r = slide::request::parse_solve(br#"{"board": "4 1 2/5 0 3", "moves": true}"#).unwrap();
//! assert_eq!(r.board.to_string(), "[[4,1,2],[5,0,3]]");
//! assert!(r.moves && r.goal.is_none());
//! assert!(slide::request::parse_solve(br#"{"board": [[1,2],[3,0.5]]}"#).unwrap_err().contains("not a whole number"));
//! ```

use serde_json::{Map, Value};

use crate::board::notation::{self, Written};
use crate::board::{Board, Shape, Tile};
use crate::metric::Metric;

/// A solve request: the board, an optional goal of the same shape, whether the moves are wanted, and the metric.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveRequest {
    /// The board to solve.
    pub board: Board,
    /// The goal, when not the default one.
    pub goal: Option<Board>,
    /// Whether the answer should carry the moves.
    pub moves: bool,
    /// How moves are counted (`"metric": "stm"`, the default, or `"mtm"`).
    pub metric: Metric,
    /// A time budget asked for, in seconds (`"timeout"`: a number above 0; the server caps it).
    pub timeout: Option<f64>,
}

/// Reads `{"board": …, "goal"?: …, "shape"?: "RxC", "moves"?: bool, "metric"?: "stm" | "mtm", "timeout"?: seconds}`;
/// a board is a string
/// in any format [`Board::parse`] reads, or an array of rows of whole numbers. The error says what is wrong, for a
/// 400 reply.
///
/// ```
/// use slide::{request::parse_solve, Metric};
/// assert_eq!(parse_solve(br#"{"board": "4 1 2/5 0 3", "metric": "mtm"}"#).unwrap().metric, Metric::Mtm);
/// assert!(parse_solve(br#"{"board": "4 1 2/5 0 3", "metric": "htm"}"#).unwrap_err().contains(r#"unknown metric "htm": expected "stm" or "mtm""#));
/// assert!(parse_solve(br#"{"board": "4 1 2/5 0 3", "metric": 2}"#).unwrap_err().contains("\"metric\" must be"));
/// assert_eq!(parse_solve(br#"{"board": "4 1 2/5 0 3", "timeout": 20}"#).unwrap().timeout, Some(20.0));
/// assert!(parse_solve(br#"{"board": "4 1 2/5 0 3", "timeout": -1}"#).unwrap_err().contains("above 0"));
/// ```
pub fn parse_solve(body: &[u8]) -> Result<SolveRequest, String> {
    let obj = object(
        body,
        "{\"board\": \"1 2 3/4 0 5\", \"moves\": true}",
        "{\"board\": [[1,2,3],[4,0,5]]}",
    )?;
    let (board, goal) = board_and_goal(&obj)?;
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
    let metric = match obj.get("metric") {
        None | Some(Value::Null) => Metric::Stm,
        Some(Value::String(m)) => m.parse::<Metric>().map_err(|_| {
            format!(
                "\"metric\": unknown metric {:?}: expected \"stm\" or \"mtm\"",
                shorten(m, 20)
            )
        })?,
        Some(other) => {
            return Err(format!(
                "\"metric\" must be \"stm\" or \"mtm\", not {}",
                shorten(&other.to_string(), 40)
            ))
        }
    };
    let timeout = match obj.get("timeout") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_f64() {
            Some(t) if t.is_finite() && t > 0.0 => Some(t),
            _ => {
                return Err(format!(
                    "\"timeout\" must be a number of seconds above 0, not {}",
                    shorten(&n.to_string(), 40)
                ))
            }
        },
        Some(other) => {
            return Err(format!(
                "\"timeout\" must be a number of seconds above 0, not {}",
                shorten(&other.to_string(), 40)
            ))
        }
    };
    Ok(SolveRequest {
        board,
        goal,
        moves,
        metric,
        timeout,
    })
}

/// An analysis request: the board, an optional goal of the same shape, and the moves as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalyseRequest {
    /// The board the moves start from.
    pub board: Board,
    /// The goal, when not the default one.
    pub goal: Option<Board>,
    /// The moves, as read by [`notation::read`] (not yet checked against the board).
    pub moves: Written,
}

/// Reads `{"board": …, "moves": M, "goal"?: …, "shape"?: "RxC", "blank"?: bool}` (`POST /api/analyse`): boards as
/// in [`parse_solve`]; `moves` a string in any notation [`notation::read`] reads (tile numbers, or letters long or
/// short, any case, spaces allowed; `"blank": true` reads letters as the blank's directions) or an array of tile
/// numbers. The moves are read, not played: whether each is legal on the board is for [`Written::apply`] to say.
///
/// ```
/// use slide::request::parse_analyse;
/// let r = parse_analyse(br#"{"board": "4 1 2/5 0 3", "moves": "r d l2 u"}"#).unwrap();
/// assert_eq!(r.moves.resolve(&r.board).unwrap().apply(&r.board).unwrap(), slide::Board::goal(r.board.shape()));
/// let r = parse_analyse(br#"{"board": "4 1 2/5 0 3", "moves": [5, 4, 1, 2, 3]}"#).unwrap();
/// assert_eq!(r.moves, slide::notation::Written::Tiles(vec![5, 4, 1, 2, 3]));
/// assert!(parse_analyse(br#"{"board": "4 1 2/5 0 3", "moves": "RX"}"#).unwrap_err().contains("unknown letter 'X' at column 2"));
/// ```
pub fn parse_analyse(body: &[u8]) -> Result<AnalyseRequest, String> {
    let obj = object(
        body,
        "{\"board\": \"4 1 2/5 0 3\", \"moves\": \"RDL2U\"}",
        "{\"board\": [[4,1,2],[5,0,3]], \"moves\": \"RDL2U\"}",
    )?;
    let (board, goal) = board_and_goal(&obj)?;
    let blank = match obj.get("blank") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(format!(
                "\"blank\" must be true or false, not {}",
                shorten(&other.to_string(), 40)
            ))
        }
    };
    let moves = match obj.get("moves") {
        None | Some(Value::Null) => {
            return Err(
                "the request needs \"moves\": a string such as \"RDL2U\" or \"5 4 1 2 3\", or an array of tile numbers such as [5, 4, 1, 2, 3]".into(),
            )
        }
        Some(Value::String(text)) => {
            if text.trim().is_empty() {
                return Err("\"moves\" is empty: no moves given".into());
            }
            notation::read(text, blank).map_err(|e| format!("\"moves\": {e}"))?
        }
        Some(Value::Array(items)) => {
            if items.is_empty() {
                return Err("\"moves\" is empty: no moves given".into());
            }
            if items.len() > notation::MAX_MOVES {
                return Err(format!(
                    "\"moves\": move sequence too long: more than {} moves",
                    notation::MAX_MOVES
                ));
            }
            let mut tiles = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                match item.as_u64().map(Tile::try_from) {
                    Some(Ok(t)) => tiles.push(t),
                    Some(Err(_)) => {
                        return Err(format!(
                            "\"moves\": item {}: {item} is too large to be a tile",
                            i + 1
                        ))
                    }
                    None => {
                        return Err(format!(
                            "\"moves\": item {}: {} is not a tile number (a whole number from 1 up)",
                            i + 1,
                            shorten(&item.to_string(), 40)
                        ))
                    }
                }
            }
            Written::Tiles(tiles)
        }
        Some(other) => {
            return Err(format!(
                "\"moves\" must be a string such as \"RDL2U\" or an array of tile numbers such as [5, 4, 1, 2, 3], not {}",
                shorten(&other.to_string(), 40)
            ))
        }
    };
    Ok(AnalyseRequest { board, goal, moves })
}

/// The body as a JSON object; `example` and `object_example` show a good body in the errors.
fn object(body: &[u8], example: &str, object_example: &str) -> Result<Map<String, Value>, String> {
    let v: Value = serde_json::from_slice(body).map_err(|e| {
        if body.iter().all(u8::is_ascii_whitespace) {
            format!("empty request body: expected JSON such as {example}")
        } else {
            format!("the request body is not valid JSON: {e}")
        }
    })?;
    match v {
        Value::Object(obj) => Ok(obj),
        v => Err(format!(
            "the request body must be a JSON object such as {object_example}, not {}",
            shorten(&v.to_string(), 40)
        )),
    }
}

/// The `"board"` of a request (with its `"shape"`, for flat lists) and its `"goal"`, when one is given.
fn board_and_goal(obj: &Map<String, Value>) -> Result<(Board, Option<Board>), String> {
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
    Ok((board, goal))
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
