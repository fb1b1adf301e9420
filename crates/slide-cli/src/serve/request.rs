//! The JSON bodies of the requests of `slide serve` (`POST /api/solve`, `POST /api/analyse`), read into boards and
//! move sequences with errors ([`RequestError`]) that name what is wrong. Pure: no I/O, so the server and the fuzzer
//! (`fuzz/fuzz_targets/api_body.rs`) run the very same code.
//!
//! ```
//! use slide_cli::serve::request::parse_solve;
//! let r = parse_solve(br#"{"board": "4 1 2/5 0 3", "moves": true}"#).unwrap();
//! assert_eq!(r.board.to_string(), "[[4,1,2],[5,0,3]]");
//! assert!(r.moves && r.goal.is_none());
//! let e = parse_solve(br#"{"board": [[1,2],[3,0.5]]}"#).unwrap_err();
//! assert_eq!(e.to_string(), "board: row 2, column 2: 0.5 is not a whole number");
//! ```

use std::fmt;

use serde_json::{Map, Value};
use slide::notation::{self, Written};
use slide::{Board, Cell, Metric, Pattern, Shape, Tile};

/// Why a request body was refused (a 400 reply, whose message is this error's text).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestError {
    /// The body is empty or only white space; `example` is a body that would do.
    EmptyBody {
        /// A good body, for the message.
        example: &'static str,
    },
    /// The body is not JSON.
    NotJson {
        /// The JSON reader's words.
        reason: String,
    },
    /// The body is JSON but not an object.
    NotAnObject {
        /// A good body, for the message.
        example: &'static str,
        /// What the body is (shortened).
        found: String,
    },
    /// The request has no `"board"`.
    NoBoard,
    /// An analysis request has no `"moves"`.
    NoMoves,
    /// `"moves"` is an empty string or array.
    EmptyMoves,
    /// A field holds a value of the wrong kind: `{field} must be {expected}, not {found}`.
    WrongType {
        /// The field as the message names it (`"moves"`, `board`, …).
        field: &'static str,
        /// What it must be.
        expected: &'static str,
        /// What it is (shortened).
        found: String,
    },
    /// `"metric"` names no metric.
    UnknownMetric {
        /// The name given (shortened).
        name: String,
    },
    /// The library refused a field's value (a board, a shape, moves written in a notation).
    Invalid {
        /// The field as the message names it (`board`, `goal`, `"shape"`, `"moves"`).
        field: &'static str,
        /// The library's error.
        error: slide::Error,
    },
    /// An array of moves longer than [`notation::MAX_MOVES`].
    TooManyMoves,
    /// An item of an array of moves that is a whole number too large to be a tile.
    TileTooLarge {
        /// The item's place, from 1.
        item: usize,
        /// The number as written.
        number: String,
    },
    /// An item of an array of moves that is not a tile number.
    NotATile {
        /// The item's place, from 1.
        item: usize,
        /// What it is (shortened).
        found: String,
    },
    /// A value the library's options refuse (`"timeout"`), with the library's sentence.
    Option(slide::OptionError),
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::EmptyBody { example } => {
                write!(f, "empty request body: expected JSON such as {example}")
            }
            RequestError::NotJson { reason } => {
                write!(f, "the request body is not valid JSON: {reason}")
            }
            RequestError::NotAnObject { example, found } => write!(
                f,
                "the request body must be a JSON object such as {example}, not {found}"
            ),
            RequestError::NoBoard => f.write_str(
                "the request needs a \"board\", for example {\"board\": \"1 2 3/4 0 5\"}",
            ),
            RequestError::NoMoves => f.write_str(
                "the request needs \"moves\": a string such as \"RDL2U\" or \"5 4 1 2 3\", or an array of tile numbers such as [5, 4, 1, 2, 3]",
            ),
            RequestError::EmptyMoves => f.write_str("\"moves\" is empty: no moves given"),
            RequestError::WrongType {
                field,
                expected,
                found,
            } => write!(f, "{field} must be {expected}, not {found}"),
            RequestError::UnknownMetric { name } => write!(
                f,
                "\"metric\": unknown metric {name:?}: expected \"stm\" or \"mtm\""
            ),
            RequestError::Invalid { field, error } => {
                write!(f, "{field}: {}", crate::explain::explain_http(error))
            }
            RequestError::TooManyMoves => write!(
                f,
                "\"moves\": move sequence too long: more than {} moves",
                notation::MAX_MOVES
            ),
            RequestError::TileTooLarge { item, number } => {
                write!(f, "\"moves\": item {item}: {number} is too large to be a tile")
            }
            RequestError::NotATile { item, found } => write!(
                f,
                "\"moves\": item {item}: {found} is not a tile number (a whole number from 1 up)"
            ),
            RequestError::Option(e) => f.write_str(&crate::explain::fielded(e)),
        }
    }
}

impl std::error::Error for RequestError {}

/// A value of the wrong kind in `field`, quoted in the message.
fn wrong_type(field: &'static str, expected: &'static str, found: &Value) -> RequestError {
    RequestError::WrongType {
        field,
        expected,
        found: shorten(&found.to_string(), 40),
    }
}

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
/// use slide::Metric;
/// use slide_cli::serve::request::parse_solve;
/// assert_eq!(parse_solve(br#"{"board": "4 1 2/5 0 3", "metric": "mtm"}"#).unwrap().metric, Metric::Mtm);
/// assert!(parse_solve(br#"{"board": "4 1 2/5 0 3", "metric": "htm"}"#).unwrap_err().to_string().contains(r#"unknown metric "htm": expected "stm" or "mtm""#));
/// assert!(parse_solve(br#"{"board": "4 1 2/5 0 3", "metric": 2}"#).unwrap_err().to_string().contains("\"metric\" must be"));
/// assert_eq!(parse_solve(br#"{"board": "4 1 2/5 0 3", "timeout": 20}"#).unwrap().timeout, Some(20.0));
/// assert_eq!(
///     parse_solve(br#"{"board": "4 1 2/5 0 3", "timeout": -1}"#).unwrap_err().to_string(),
///     "\"timeout\": -1 is not a positive number of seconds (more than 0, at most 1000000000)"
/// );
/// ```
pub fn parse_solve(body: &[u8]) -> Result<SolveRequest, RequestError> {
    let obj = object(
        body,
        "{\"board\": \"1 2 3/4 0 5\", \"moves\": true}",
        "{\"board\": [[1,2,3],[4,0,5]]}",
    )?;
    let (board, goal) = board_and_goal(&obj)?;
    let moves = match obj.get("moves") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(wrong_type("\"moves\"", "true or false", other)),
    };
    let metric = metric_field(&obj)?;
    let timeout = match obj.get("timeout") {
        None | Some(Value::Null) => None,
        // The library's range and sentence (`slide::SolveOptions::check_timeout_secs`).
        Some(Value::Number(n)) => {
            let t = n.as_f64().unwrap_or(f64::NAN);
            slide::SolveOptions::check_timeout_secs(t).map_err(RequestError::Option)?;
            Some(t)
        }
        Some(other) => {
            return Err(wrong_type(
                "\"timeout\"",
                "a number of seconds above 0",
                other,
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

/// The `"metric"` of a request: `"stm"` (the default) or `"mtm"`, any case.
fn metric_field(obj: &Map<String, Value>) -> Result<Metric, RequestError> {
    match obj.get("metric") {
        None | Some(Value::Null) => Ok(Metric::Stm),
        Some(Value::String(m)) => m
            .parse::<Metric>()
            .map_err(|_| RequestError::UnknownMetric {
                name: shorten(m, 20),
            }),
        Some(other) => Err(wrong_type("\"metric\"", "\"stm\" or \"mtm\"", other)),
    }
}

/// An analysis request: the board, an optional goal of the same shape (a board or a partial goal), the moves as
/// written and the metric.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalyseRequest {
    /// The board the moves start from.
    pub board: Board,
    /// The goal, when not the default one: a board, or a pattern whose `x` cells take any tile.
    pub goal: Option<Pattern>,
    /// The moves, as read by [`notation::read`] (not yet checked against the board).
    pub moves: Written,
    /// How the analysis counts (`"metric": "stm"`, the default, or `"mtm"`: distances after each push).
    pub metric: Metric,
}

/// Reads `{"board": …, "moves": M, "goal"?: …, "shape"?: "RxC", "blank"?: bool, "metric"?: "stm" | "mtm"}`
/// (`POST /api/analyse`): boards as in [`parse_solve`], the goal also a partial goal ([`goal_from_value`]); `moves` a string in any notation [`notation::read`] reads (tile numbers, or letters long or
/// short, any case, spaces allowed; `"blank": true` reads letters as the blank's directions) or an array of tile
/// numbers. The moves are read, not played: whether each is legal on the board is for [`Written::apply`] to say.
///
/// ```
/// use slide_cli::serve::request::parse_analyse;
/// let r = parse_analyse(br#"{"board": "4 1 2/5 0 3", "moves": "r d l2 u"}"#).unwrap();
/// assert_eq!(r.moves.resolve(&r.board).unwrap().apply(&r.board).unwrap(), slide::Board::goal(r.board.shape()));
/// let r = parse_analyse(br#"{"board": "4 1 2/5 0 3", "moves": [5, 4, 1, 2, 3]}"#).unwrap();
/// assert_eq!(r.moves, slide::notation::Written::Tiles(vec![5, 4, 1, 2, 3]));
/// assert!(parse_analyse(br#"{"board": "4 1 2/5 0 3", "moves": "RX"}"#).unwrap_err().to_string().contains("unknown letter 'X' at column 2"));
/// ```
pub fn parse_analyse(body: &[u8]) -> Result<AnalyseRequest, RequestError> {
    let obj = object(
        body,
        "{\"board\": \"4 1 2/5 0 3\", \"moves\": \"RDL2U\"}",
        "{\"board\": [[4,1,2],[5,0,3]], \"moves\": \"RDL2U\"}",
    )?;
    let board = board_of(&obj)?;
    let goal = match obj.get("goal") {
        None | Some(Value::Null) => None,
        Some(g) => Some(goal_from_value(g, board.shape())?),
    };
    let blank = match obj.get("blank") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(wrong_type("\"blank\"", "true or false", other)),
    };
    let moves =
        match obj.get("moves") {
            None | Some(Value::Null) => return Err(RequestError::NoMoves),
            Some(Value::String(text)) => {
                if text.trim().is_empty() {
                    return Err(RequestError::EmptyMoves);
                }
                notation::read(text, blank).map_err(|error| RequestError::Invalid {
                    field: "\"moves\"",
                    error,
                })?
            }
            Some(Value::Array(items)) => {
                if items.is_empty() {
                    return Err(RequestError::EmptyMoves);
                }
                if items.len() > notation::MAX_MOVES {
                    return Err(RequestError::TooManyMoves);
                }
                let mut tiles = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    match item.as_u64().map(Tile::try_from) {
                        Some(Ok(t)) => tiles.push(t),
                        Some(Err(_)) => {
                            return Err(RequestError::TileTooLarge {
                                item: i + 1,
                                number: item.to_string(),
                            })
                        }
                        None => {
                            return Err(RequestError::NotATile {
                                item: i + 1,
                                found: shorten(&item.to_string(), 40),
                            })
                        }
                    }
                }
                Written::Tiles(tiles)
            }
            Some(other) => return Err(wrong_type(
                "\"moves\"",
                "a string such as \"RDL2U\" or an array of tile numbers such as [5, 4, 1, 2, 3]",
                other,
            )),
        };
    let metric = metric_field(&obj)?;
    Ok(AnalyseRequest {
        board,
        goal,
        moves,
        metric,
    })
}

/// The body as a JSON object; `example` and `object_example` show a good body in the errors.
fn object(
    body: &[u8],
    example: &'static str,
    object_example: &'static str,
) -> Result<Map<String, Value>, RequestError> {
    let v: Value = serde_json::from_slice(body).map_err(|e| {
        if body.iter().all(u8::is_ascii_whitespace) {
            RequestError::EmptyBody { example }
        } else {
            RequestError::NotJson {
                reason: e.to_string(),
            }
        }
    })?;
    match v {
        Value::Object(obj) => Ok(obj),
        v => Err(RequestError::NotAnObject {
            example: object_example,
            found: shorten(&v.to_string(), 40),
        }),
    }
}

/// The `"board"` of a request (with its `"shape"`, for flat lists) and its `"goal"`, when one is given.
fn board_and_goal(obj: &Map<String, Value>) -> Result<(Board, Option<Board>), RequestError> {
    let board = board_of(obj)?;
    let goal = match obj.get("goal") {
        None | Some(Value::Null) => None,
        Some(g) => Some(board_from_value(g, Some(board.shape()), "goal")?),
    };
    Ok((board, goal))
}

/// A goal of a board of `shape` from a JSON value: a board as [`board_from_value`] reads it, or a partial goal,
/// a pattern whose `x` cells take any tile, as a string (`"1 2 3/x x x"`) or as rows or a flat list of numbers
/// and `"x"` strings (`[[1,2,3],["x","x","x"]]`). When it is neither, the board's error.
///
/// ```
/// use slide_cli::serve::request::goal_from_value;
/// let shape = "2x3".parse().unwrap();
/// let rows = serde_json::json!([[1, 2, 3], ["x", "x", "x"]]);
/// assert_eq!(goal_from_value(&rows, shape).unwrap().to_string(), "1 2 3/x x x");
/// let text = serde_json::json!("1 x x/x x 0");
/// assert_eq!(goal_from_value(&text, shape).unwrap().blank(), Some(5));
/// ```
pub fn goal_from_value(v: &Value, shape: Shape) -> Result<Pattern, RequestError> {
    let board_error = match board_from_value(v, Some(shape), "goal") {
        Ok(b) => return Ok(Pattern::from_board(&b)),
        Err(e) => e,
    };
    let text = match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => pattern_text(items),
        _ => None,
    };
    text.and_then(|t| Pattern::parse_with_shape(&t, Some(shape)).ok())
        .ok_or(board_error)
}

/// The text of rows (or a flat list) of whole numbers and `"x"` strings, as [`Pattern::parse_with_shape`] reads
/// it; `None` for anything else.
fn pattern_text(items: &[Value]) -> Option<String> {
    let word = |v: &Value| match v {
        Value::Number(n) => n.as_u64().map(|n| n.to_string()),
        Value::String(s) if s.eq_ignore_ascii_case("x") => Some("x".to_string()),
        _ => None,
    };
    let line = |vals: &[Value]| {
        vals.iter()
            .map(word)
            .collect::<Option<Vec<_>>>()
            .map(|w| w.join(" "))
    };
    if items.iter().all(Value::is_array) {
        items
            .iter()
            .map(|r| line(r.as_array()?))
            .collect::<Option<Vec<_>>>()
            .map(|rows| rows.join("/"))
    } else {
        line(items)
    }
}

/// The `"board"` of a request, with its `"shape"` for flat lists.
fn board_of(obj: &Map<String, Value>) -> Result<Board, RequestError> {
    let shape = match obj.get("shape") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => {
            Some(s.parse::<Shape>().map_err(|error| RequestError::Invalid {
                field: "\"shape\"",
                error,
            })?)
        }
        Some(other) => return Err(wrong_type("\"shape\"", "a string such as \"3x4\"", other)),
    };
    let board = match obj.get("board") {
        None | Some(Value::Null) => return Err(RequestError::NoBoard),
        Some(b) => board_from_value(b, shape, "board")?,
    };
    Ok(board)
}

/// A board from a JSON string (any format `slide solve` reads) or an array of rows of whole numbers or a flat list
/// (built by [`Board::from_cells`], the library's one builder from values); `what` (`board` or `goal`) names it in
/// the errors.
///
/// ```
/// use slide_cli::serve::request::board_from_value;
/// let rows = serde_json::json!([[1, 2, 3], [4, 0, 5]]);
/// assert_eq!(board_from_value(&rows, None, "board").unwrap().to_string(), "[[1,2,3],[4,0,5]]");
/// ```
pub fn board_from_value(
    v: &Value,
    shape: Option<Shape>,
    what: &'static str,
) -> Result<Board, RequestError> {
    let invalid = |error| RequestError::Invalid { field: what, error };
    let rows =
        match v {
            Value::String(s) => return Board::parse_with_shape(s, shape).map_err(invalid),
            Value::Array(rows) => rows,
            other => return Err(wrong_type(
                what,
                "a string such as \"1 2 3/4 0 5\" or an array of rows such as [[1,2,3],[4,0,5]]",
                other,
            )),
        };
    let cells: Vec<Cell> = rows.iter().map(|v| cell(v, true)).collect();
    Board::from_cells(&cells, shape).map_err(invalid)
}

/// A JSON value as a cell of a board for [`Board::from_cells`] (which decides what is wrong with it); `row` at the
/// top level, where an array is a row.
fn cell(v: &Value, row: bool) -> Cell {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Cell::Whole(i)
            } else if n.as_u64().is_some()
                || n.as_f64()
                    .is_some_and(|f| f.fract() == 0.0 && f.abs() >= 1e15)
            {
                // Beyond 64 bits (JSON parsing turns the larger whole numbers into floats).
                Cell::TooLarge
            } else {
                Cell::Fraction(n.to_string())
            }
        }
        Value::Array(items) if row => Cell::List(items.iter().map(|c| cell(c, false)).collect()),
        Value::Array(_) => Cell::List(Vec::new()),
        Value::String(_) => Cell::Other("a string".into()),
        Value::Bool(_) => Cell::Other("a boolean".into()),
        Value::Null => Cell::Other("null".into()),
        Value::Object(_) => Cell::Other("an object".into()),
    }
}

/// At most `max` characters of `s`, with an ellipsis when cut (for quoting input in error messages).
pub(super) fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_from_json_values() {
        let v: serde_json::Value = serde_json::from_str("[[1,2,3],[4,0,5]]").unwrap();
        assert_eq!(
            board_from_value(&v, None, "board").unwrap().to_string(),
            "[[1,2,3],[4,0,5]]"
        );
        let bad = |s: &str| {
            board_from_value(&serde_json::from_str(s).unwrap(), None, "board")
                .unwrap_err()
                .to_string()
        };
        assert!(
            bad("[[1,2,3],[4,0.5,5]]").contains("0.5 is not a whole number"),
            "{}",
            bad("[[1,2,3],[4,0.5,5]]")
        );
        assert!(bad("[[1,2,3],[4,-1,0]]").contains("value -1 out of range"));
        assert!(bad("[[1,2,3],[4,\"x\",5]]").contains("row 2, column 2: a string is not a number"));
        assert!(bad("[[1,2,3],[4,0]]").contains("ragged"));
        assert!(bad("[[1,2,3],[4,4,0]]").contains("duplicate value 4"));
        assert!(bad("[[1,2,3],5]").contains("row 2 is not a list of numbers but a number"));
        assert!(bad("7").contains("must be a string"));
    }
}
