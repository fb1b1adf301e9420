//! Boards, goals and shapes from Python values (lists of rows, strings, NumPy arrays), checked, with messages that name the board and the cell.

use super::*;
use pyo3::types::PyFloat;
use slide::{ParseError, SolveError};
use slide::{Cell, CellProblem};

/// A prefix for messages about one of several boards (empty for a single one).
pub(crate) fn at(context: &str, what: &str) -> String {
    if context.is_empty() {
        what.to_string()
    } else {
        format!("{context}: {what}")
    }
}

/// One tile value: a Python int or NumPy integer (not a bool, not a float).
pub(crate) fn tile_value(v: &Bound<'_, PyAny>, row: usize, col: usize, context: &str) -> PyResult<i64> {
    if v.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(at(
            context,
            &format!("board values must be integers, not bool (row {row}, column {col})"),
        )));
    }
    match v.extract::<i64>() {
        Ok(x) => Ok(x),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(v.py()) => {
            let text = v.str().map(|s| s.to_string()).unwrap_or_default();
            let shown: String = text.chars().take(24).collect();
            Err(BoardError::new_err(at(
                context,
                &format!("value {shown} out of range (row {row}, column {col})"),
            )))
        }
        Err(_) => Err(PyTypeError::new_err(at(
            context,
            &format!(
                "board values must be integers, not {} (row {row}, column {col})",
                type_name(v)
            ),
        ))),
    }
}

/// A sequence's items when it is a list or tuple.
pub(crate) fn items<'py>(obj: &Bound<'py, PyAny>) -> Option<Vec<Bound<'py, PyAny>>> {
    if let Ok(l) = obj.downcast::<PyList>() {
        Some(l.iter().collect())
    } else if let Ok(t) = obj.downcast::<PyTuple>() {
        Some(t.iter().collect())
    } else {
        None
    }
}

/// Reads a board: a list (or tuple) of rows of integers, a flat list of a square number of integers, a string in
/// any format the CLI reads, or a NumPy integer array of one or two dimensions.
pub(crate) fn board_from(obj: &Bound<'_, PyAny>, context: &str) -> PyResult<Board> {
    if let Ok(s) = obj.downcast::<PyString>() {
        let text = s.to_cow()?;
        return Board::parse(&text).map_err(|e| lib_err(e, context));
    }
    if let Ok(arr) = obj.downcast::<PyUntypedArray>() {
        let kind = arr.dtype().kind();
        if kind != b'i' && kind != b'u' {
            return Err(PyTypeError::new_err(at(
                context,
                &format!(
                    "a board array must have an integer dtype, not {}",
                    arr.dtype().str()?
                ),
            )));
        }
        if arr.ndim() != 1 && arr.ndim() != 2 {
            return Err(BoardError::new_err(at(
                context,
                &format!(
                    "a board array must have 1 or 2 dimensions, not {} (shape {:?})",
                    arr.ndim(),
                    arr.shape()
                ),
            )));
        }
        if arr.len() > MAX_CELLS {
            return Err(lib_err(
                Error::Parse(ParseError::TooLarge {
                    cells: arr.len() as u128,
                    max: MAX_CELLS,
                }),
                context,
            ));
        }
        let list = obj.call_method0("tolist")?;
        return board_from(&list, context);
    }
    let Some(rows) = items(obj) else {
        return Err(PyTypeError::new_err(at(
            context,
            &format!(
                "a board must be a list of rows, a string or a NumPy array, not {}",
                type_name(obj)
            ),
        )));
    };
    // Rows or a flat list: the values become cells, and the library's one builder from values decides (the same
    // errors, naming row and column, as the server's).
    let too_large = |cells: usize| {
        lib_err(
            Error::Parse(ParseError::TooLarge {
                cells: cells as u128,
                max: MAX_CELLS,
            }),
            context,
        )
    };
    if rows.len() > MAX_CELLS {
        return Err(too_large(rows.len()));
    }
    let mut count = 0usize;
    let mut cells = Vec::with_capacity(rows.len());
    for row in &rows {
        cells.push(py_cell(row, true, &mut count)?);
        if count > MAX_CELLS {
            return Err(too_large(count));
        }
    }
    Board::from_cells(&cells, None).map_err(|e| cells_err(e, context))
}

/// A Python value as a cell for [`Board::from_cells`]; `row` at the top level, where a list is a row. `count`
/// counts the values read (the caller stops past [`MAX_CELLS`]).
fn py_cell(v: &Bound<'_, PyAny>, row: bool, count: &mut usize) -> PyResult<Cell> {
    *count = count.saturating_add(1);
    if v.is_instance_of::<PyBool>() {
        return Ok(Cell::Other("a boolean".into()));
    }
    if v.is_none() {
        return Ok(Cell::Other("null".into()));
    }
    match v.extract::<i64>() {
        Ok(x) => return Ok(Cell::Whole(x)),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(v.py()) => {
            return Ok(Cell::TooLarge)
        }
        Err(_) => {}
    }
    if v.is_instance_of::<PyFloat>() {
        return Ok(Cell::Fraction(v.str()?.to_string()));
    }
    if v.is_instance_of::<PyString>() {
        return Ok(Cell::Other("a string".into()));
    }
    let list = match items(v) {
        Some(list) => Some(list),
        None if v.downcast::<PyUntypedArray>().is_ok() => items(&v.call_method0("tolist")?),
        None => None,
    };
    match list {
        Some(list) if row => {
            *count = count.saturating_sub(1);
            let mut out = Vec::with_capacity(list.len().min(MAX_CELLS));
            for c in &list {
                out.push(py_cell(c, false, count)?);
                if *count > MAX_CELLS {
                    break;
                }
            }
            Ok(Cell::List(out))
        }
        Some(_) => Ok(Cell::List(Vec::new())),
        None => Ok(Cell::Other(format!("a {}", type_name(v)))),
    }
}

/// The library's error about a board given as values: a value of the wrong kind (not a whole number, a row that is
/// not a list) raises `TypeError`, the rest `BoardError`; the message is the library's.
fn cells_err(e: Error, context: &str) -> PyErr {
    match &e {
        Error::Parse(ParseError::BadCell {
            problem: CellProblem::NotANumber(_) | CellProblem::NotWhole(_),
            ..
        })
        | Error::Parse(ParseError::RowNotAList { .. }) => PyTypeError::new_err(at(context, &e.to_string())),
        _ => lib_err(e, context),
    }
}

/// The goal board for `board`: the default one, or `goal` read like a board and checked to have the same shape.
/// A partial goal (a pattern with `x`) is refused with a message saying where it is taken.
pub(crate) fn goal_for(board: &Board, goal: Option<&Bound<'_, PyAny>>, context: &str) -> PyResult<Board> {
    match goal_target(board, goal, context)? {
        Target::Board(g) => Ok(g),
        Target::Pattern(p) => Err(BoardError::new_err(at(
            context,
            &format!(
                "goal {p}: a partial goal (a pattern with x) is answered by slide.solve, slide.solve_many and \
                 slide.solve_stages, not here"
            ),
        ))),
    }
}

/// The goal for `board` as a pattern: the default board, a goal board, or a partial goal (a pattern with `x`, or
/// `None`, for any tile), read as [`goal_target`] reads it.
pub(crate) fn goal_pattern(board: &Board, goal: Option<&Bound<'_, PyAny>>, context: &str) -> PyResult<Pattern> {
    Ok(match goal_target(board, goal, context)? {
        Target::Board(g) => Pattern::from_board(&g),
        Target::Pattern(p) => p,
    })
}

/// A goal: a board, or a pattern whose `x` cells take any tile (a partial goal).
#[derive(Clone)]
pub(crate) enum Target {
    /// A goal board.
    Board(Board),
    /// A partial goal: at least two cells free (a pattern with one `x` is a board).
    Pattern(Pattern),
}

impl Target {
    /// The goal as a `Solution` keeps it: JSON rows for a board, `1 2 3/x x x/x x x` for a pattern.
    pub(crate) fn text(&self) -> String {
        match self {
            Target::Board(b) => b.to_string(),
            Target::Pattern(p) => p.to_string(),
        }
    }
}

/// True when `obj` is a list (or tuple) of values, or of rows of values, holding `None` or a string: a pattern.
pub(crate) fn holds_any(obj: &Bound<'_, PyAny>) -> bool {
    let wild = |v: &Bound<'_, PyAny>| v.is_none() || v.is_instance_of::<PyString>();
    items(obj).is_some_and(|rows| {
        rows.iter()
            .any(|r| wild(r) || items(r).is_some_and(|vals| vals.iter().any(wild)))
    })
}

/// A pattern given as a list of rows (or a flat list) of integers, `None` and `"x"`, written as text for the
/// library's reader (which checks it).
pub(crate) fn pattern_text(obj: &Bound<'_, PyAny>, context: &str) -> PyResult<String> {
    let cell = |v: &Bound<'_, PyAny>, r: usize, c: usize| -> PyResult<String> {
        if v.is_none() {
            return Ok("x".into());
        }
        if let Ok(s) = v.downcast::<PyString>() {
            let text = s.to_cow()?;
            if text.trim().eq_ignore_ascii_case("x") {
                return Ok("x".into());
            }
            let shown: String = text.chars().take(24).collect();
            return Err(BoardError::new_err(at(
                context,
                &format!(
                    "{shown:?} is not a tile: a goal's cells are integers, or None or \"x\" for any tile (row {r}, column {c})"
                ),
            )));
        }
        tile_value(v, r, c, context).map(|t| t.to_string())
    };
    let rows = items(obj).unwrap_or_default();
    if rows.len() > MAX_CELLS {
        return Err(lib_err(
            Error::Parse(ParseError::TooLarge {
                cells: rows.len() as u128,
                max: MAX_CELLS,
            }),
            context,
        ));
    }
    let mut out = Vec::with_capacity(rows.len());
    let mut cells = 0usize;
    for (r, row) in rows.iter().enumerate() {
        match items(row) {
            Some(vals) => {
                cells = cells.saturating_add(vals.len());
                if cells > MAX_CELLS {
                    return Err(lib_err(
                        Error::Parse(ParseError::TooLarge {
                            cells: cells as u128,
                            max: MAX_CELLS,
                        }),
                        context,
                    ));
                }
                let vals = vals
                    .iter()
                    .enumerate()
                    .map(|(c, v)| cell(v, r + 1, c + 1))
                    .collect::<PyResult<Vec<_>>>()?;
                out.push(vals.join(" "));
            }
            // A flat list: its values separated by spaces.
            None => out.push(cell(row, 1, r + 1)?),
        }
    }
    let flat = rows.first().is_some_and(|r| items(r).is_none());
    Ok(out.join(if flat { " " } else { "/" }))
}

/// The goal for `board`: the default board, a goal board, or a pattern with `x` (or `None`) for any tile; given as
/// `goal` is (a string in any board format, rows, a flat list, a NumPy array) and checked to have the board's
/// shape. A pattern that leaves no choice (one `x` at most) is its board.
pub(crate) fn goal_target(board: &Board, goal: Option<&Bound<'_, PyAny>>, context: &str) -> PyResult<Target> {
    let Some(g) = goal.filter(|g| !g.is_none()) else {
        return Ok(Target::Board(Board::goal(board.shape())));
    };
    let ctx = if context.is_empty() {
        "goal".to_string()
    } else {
        format!("{context} goal")
    };
    // Text (given, or written from rows with free cells) goes through the library's pattern reader.
    let text = if let Ok(s) = g.downcast::<PyString>() {
        Some(s.to_cow()?.into_owned())
    } else if holds_any(g) {
        Some(pattern_text(g, &ctx)?)
    } else {
        None
    };
    let target = match text {
        Some(text) => {
            // The board's shape reads flat lists; rows that disagree with it are read as they are (and refused
            // below as a shape mismatch).
            let p = Pattern::parse_with_shape(&text, Some(board.shape()))
                .or_else(|_| Pattern::parse(&text))
                .map_err(|e| lib_err(e, &ctx))?;
            match p.board() {
                Some(b) => Target::Board(b),
                None => Target::Pattern(p),
            }
        }
        None => Target::Board(board_from(g, &ctx)?),
    };
    let shape = match &target {
        Target::Board(b) => b.shape(),
        Target::Pattern(p) => p.shape(),
    };
    if shape != board.shape() {
        return Err(lib_err(
            Error::Solve(SolveError::ShapeMismatch {
                board: board.shape(),
                goal: shape,
            }),
            context,
        ));
    }
    Ok(target)
}

/// A shape: `"RxC"` or a pair `(R, C)`.
pub(crate) fn shape_from(obj: &Bound<'_, PyAny>) -> PyResult<Shape> {
    if let Ok(s) = obj.downcast::<PyString>() {
        return s.to_cow()?.parse::<Shape>().map_err(|e| lib_err(e, ""));
    }
    if let Some(v) = items(obj) {
        if v.len() == 2 && !v.iter().any(|x| x.is_instance_of::<PyBool>()) {
            if let (Ok(r), Ok(c)) = (v[0].extract::<usize>(), v[1].extract::<usize>()) {
                return Shape::new(r, c).map_err(|e| lib_err(e, ""));
            }
        }
    }
    Err(PyTypeError::new_err(format!(
        "a shape must be a string such as \"3x3\" or a pair of non-negative integers (rows, cols), not {}",
        type_name(obj)
    )))
}
