//! Python bindings of the slide library (the extension module `slide._slide`, re-exported by the `slide` package):
//! boards in as lists, strings or NumPy arrays; answers out as `Solution` objects or NumPy arrays.
//!
//! Nothing a caller passes may crash the interpreter: every input is checked here or by the library, whose errors
//! become `slide.BoardError` (a `ValueError`) with the library's message; values of the wrong type raise
//! `TypeError`. Work that can take long runs with the GIL released, on a thread of its own, while the calling thread
//! watches for Ctrl-C (`KeyboardInterrupt`) and stops the searches through their cancel flag.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use numpy::{
    Element, PyArray1, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyList, PyString, PyTuple};
use rayon::prelude::*;
use slide::engine::frame::Frame;
use slide::notation::{self, Written};
use slide::Scrambler;
use slide::SolveOptions;
use slide::{
    Board, Error, Metric, Moves, Notation, Pattern, Shape, Solution, Solver, Tile, MAX_CELLS,
};

mod split;

// Module `slide`, where the class is found: pickling (Ray sends exceptions between processes) names it by module.
create_exception!(
    slide,
    BoardError,
    PyValueError,
    "A board, goal or request that slide cannot take; the message names what is wrong."
);

// Raised when a limit (timeout, max_nodes) stops a search before it proves what `analyse` or `hint` was asked.
create_exception!(
    slide,
    LimitReached,
    PyRuntimeError,
    "A limit (timeout or max_nodes) stopped a search before it proved what was asked (analyse, hint); the message \
     says what and the lower bound proven."
);

/// Whether the package's solver maps cached table files rather than reading them (set before its first use).
static MAP_FILES: AtomicBool = AtomicBool::new(false);

/// The package's solver: `$SLIDE_CACHE_DIR`, else the platform's cache directory; table files mapped when `SLIDE_MAP_FILES=1` or
/// `_map_files(True)` asked for it before the first use.
fn solver() -> &'static Solver {
    static SOLVER: std::sync::OnceLock<Solver> = std::sync::OnceLock::new();
    SOLVER.get_or_init(|| {
        let env = std::env::var("SLIDE_MAP_FILES").is_ok_and(|v| v == "1");
        let on = env || MAP_FILES.load(Ordering::Relaxed);
        MAP_FILES.store(on, Ordering::Relaxed);
        // The library reads no environment variable: the package, a face, does.
        let dir = std::env::var_os("SLIDE_CACHE_DIR")
            .filter(|d| !d.is_empty())
            .map_or(slide::CacheDir::Default, |d| slide::CacheDir::At(d.into()));
        // Mapped, every database file is: the workers of a node (slide.ray) share one copy, even of the 5 × 5
        // default's 3.9 GB of blank-bit tables that a lone process reads into its own memory.
        let s = Solver::with_options(dir, std::sync::Arc::new(slide::NoProgress)).map_files(on);
        if on {
            s.read_in_above(None)
        } else {
            s
        }
    })
}

/// Asks this process to map cached table files into memory read-only rather than read them, so that the
/// processes of a machine share one copy (slide.ray's workers do). Takes effect only before the first solve;
/// returns whether the files are mapped.
#[pyfunction]
fn _map_files(on: bool) -> bool {
    MAP_FILES.store(on, Ordering::Relaxed);
    solver();
    MAP_FILES.load(Ordering::Relaxed)
}

/// The library's error as a Python exception, with `context` (for example `boards[3]`) in front when given.
/// A limit that stopped a search is `slide.LimitReached`; everything else `slide.BoardError`.
fn lib_err(e: Error, context: &str) -> PyErr {
    let text = if context.is_empty() {
        e.to_string()
    } else {
        format!("{context}: {e}")
    };
    match e {
        Error::LimitReached { .. } => LimitReached::new_err(text),
        _ => BoardError::new_err(text),
    }
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A prefix for messages about one of several boards (empty for a single one).
fn at(context: &str, what: &str) -> String {
    if context.is_empty() {
        what.to_string()
    } else {
        format!("{context}: {what}")
    }
}

/// One tile value: a Python int or NumPy integer (not a bool, not a float).
fn tile_value(v: &Bound<'_, PyAny>, row: usize, col: usize, context: &str) -> PyResult<i64> {
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
fn items<'py>(obj: &Bound<'py, PyAny>) -> Option<Vec<Bound<'py, PyAny>>> {
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
fn board_from(obj: &Bound<'_, PyAny>, context: &str) -> PyResult<Board> {
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
                Error::TooLarge {
                    cells: arr.len() as u128,
                    max: MAX_CELLS,
                },
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
    if rows.is_empty() {
        return Err(lib_err(Error::Empty, context));
    }
    let flat = items(&rows[0]).is_none() && rows[0].downcast::<PyUntypedArray>().is_err();
    if flat {
        // A flat list: a square number of values makes a square board.
        if rows.len() > MAX_CELLS {
            return Err(lib_err(
                Error::TooLarge {
                    cells: rows.len() as u128,
                    max: MAX_CELLS,
                },
                context,
            ));
        }
        let mut values = Vec::with_capacity(rows.len());
        for (i, v) in rows.iter().enumerate() {
            values.push(tile_value(v, 1, i + 1, context)?);
        }
        let side = (values.len() as f64).sqrt().round() as usize;
        if side * side != values.len() || side < 2 {
            return Err(lib_err(
                Error::UnknownShape {
                    found: values.len(),
                },
                context,
            ));
        }
        let rows: Vec<Vec<i64>> = values.chunks(side).map(<[i64]>::to_vec).collect();
        return Board::from_rows(&rows).map_err(|e| lib_err(e, context));
    }
    let mut out: Vec<Vec<i64>> = Vec::with_capacity(rows.len());
    let mut cells = 0usize;
    for (r, row) in rows.iter().enumerate() {
        let vals = match items(row) {
            Some(v) => v,
            None if row.downcast::<PyUntypedArray>().is_ok() => {
                items(&row.call_method0("tolist")?).unwrap_or_default()
            }
            None => {
                return Err(PyTypeError::new_err(at(
                    context,
                    &format!(
                        "row {} must be a list of integers, not {}",
                        r + 1,
                        type_name(row)
                    ),
                )))
            }
        };
        cells = cells.saturating_add(vals.len());
        if cells > MAX_CELLS || rows.len().saturating_mul(vals.len()) > MAX_CELLS {
            return Err(lib_err(
                Error::TooLarge {
                    cells: (rows.len() as u128) * (vals.len().max(1) as u128),
                    max: MAX_CELLS,
                },
                context,
            ));
        }
        let mut vs = Vec::with_capacity(vals.len());
        for (c, v) in vals.iter().enumerate() {
            vs.push(tile_value(v, r + 1, c + 1, context)?);
        }
        out.push(vs);
    }
    Board::from_rows(&out).map_err(|e| lib_err(e, context))
}

/// The goal board for `board`: the default one, or `goal` read like a board and checked to have the same shape.
/// A partial goal (a pattern with `x`) is refused with a message saying where it is taken.
fn goal_for(board: &Board, goal: Option<&Bound<'_, PyAny>>, context: &str) -> PyResult<Board> {
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

/// A goal: a board, or a pattern whose `x` cells take any tile (a partial goal).
#[derive(Clone)]
enum Target {
    /// A goal board.
    Board(Board),
    /// A partial goal: at least two cells free (a pattern with one `x` is a board).
    Pattern(Pattern),
}

impl Target {
    /// The goal as a `Solution` keeps it: JSON rows for a board, `1 2 3/x x x/x x x` for a pattern.
    fn text(&self) -> String {
        match self {
            Target::Board(b) => b.to_string(),
            Target::Pattern(p) => p.to_string(),
        }
    }
}

/// True when `obj` is a list (or tuple) of values, or of rows of values, holding `None` or a string: a pattern.
fn holds_any(obj: &Bound<'_, PyAny>) -> bool {
    let wild = |v: &Bound<'_, PyAny>| v.is_none() || v.is_instance_of::<PyString>();
    items(obj).is_some_and(|rows| {
        rows.iter()
            .any(|r| wild(r) || items(r).is_some_and(|vals| vals.iter().any(wild)))
    })
}

/// A pattern given as a list of rows (or a flat list) of integers, `None` and `"x"`, written as text for the
/// library's reader (which checks it).
fn pattern_text(obj: &Bound<'_, PyAny>, context: &str) -> PyResult<String> {
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
            Error::TooLarge {
                cells: rows.len() as u128,
                max: MAX_CELLS,
            },
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
                        Error::TooLarge {
                            cells: cells as u128,
                            max: MAX_CELLS,
                        },
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
fn goal_target(board: &Board, goal: Option<&Bound<'_, PyAny>>, context: &str) -> PyResult<Target> {
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
            Error::ShapeMismatch {
                board: board.shape(),
                goal: shape,
            },
            context,
        ));
    }
    Ok(target)
}

/// A shape: `"RxC"` or a pair `(R, C)`.
fn shape_from(obj: &Bound<'_, PyAny>) -> PyResult<Shape> {
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

/// Runs `work` on a thread of its own with the GIL released; the calling thread checks for Ctrl-C every 50 ms and,
/// on one, sets `cancel`, waits for the work to stop and raises `KeyboardInterrupt`.
fn interruptible<T: Send>(
    py: Python<'_>,
    cancel: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    interruptible_until(py, cancel, None, work)
}

/// [`interruptible`], and also asks `stop` (a Python callable, called with the GIL held) every 100 ms whether to
/// stop: when it answers true or raises, `cancel` is set and the work's own answer (stopped or cancelled) is
/// returned. slide.ray's tasks stop this way when the driver no longer needs them: cooperative, so the driver never
/// has to cancel a Ray task (a `ray.cancel` that races with the task's completion can crash the driver).
fn interruptible_until<T: Send>(
    py: Python<'_>,
    cancel: &AtomicBool,
    stop: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let mut ticks = 0u32;
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel();
        s.spawn(move || {
            let _ = tx.send(catch_unwind(AssertUnwindSafe(work)));
        });
        let mut rx = rx;
        loop {
            let (back, got) = py.allow_threads(move || {
                let got = rx.recv_timeout(Duration::from_millis(50));
                (rx, got)
            });
            rx = back;
            match got {
                Ok(Ok(v)) => return Ok(v),
                Ok(Err(_)) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "slide: internal error while solving (please report it)",
                    ))
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        cancel.store(true, Ordering::Relaxed);
                        let _ = py.allow_threads(move || rx.recv().is_ok());
                        return Err(e);
                    }
                    ticks += 1;
                    if let Some(stop) = stop.filter(|_| ticks % 2 == 0) {
                        let asked = stop.call0().and_then(|v| v.is_truthy()).unwrap_or(true);
                        if asked {
                            cancel.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
        }
    })
}

/// What `solve` and `solve_many` were asked, checked once.
#[derive(Clone)]
struct Ask {
    metric: Metric,
    moves: bool,
    timeout: Option<Duration>,
    max_nodes: Option<u64>,
    within: Option<f64>,
}

/// The metric named `metric`: `"stm"` or `"mtm"` (any case).
fn metric_from(metric: &str) -> PyResult<Metric> {
    metric.parse::<Metric>().map_err(|_| {
        let shown: String = metric.chars().take(24).collect();
        PyValueError::new_err(format!(
            "unknown metric {shown:?}: use \"stm\" (single-tile moves) or \"mtm\" (multi-tile moves)"
        ))
    })
}

impl Ask {
    fn new(
        metric: &str,
        moves: bool,
        timeout: Option<f64>,
        max_nodes: Option<i128>,
        within: Option<f64>,
    ) -> PyResult<Ask> {
        let metric = metric_from(metric)?;
        let timeout = match timeout {
            None => None,
            Some(t) if t.is_finite() && (0.0..1e12).contains(&t) => {
                Some(Duration::from_secs_f64(t))
            }
            Some(t) => {
                return Err(PyValueError::new_err(format!(
                    "timeout must be a number of seconds, at least 0, not {t}"
                )))
            }
        };
        let max_nodes = match max_nodes {
            None => None,
            Some(n) if (0..=u64::MAX as i128).contains(&n) => Some(n as u64),
            Some(n) => {
                return Err(PyValueError::new_err(format!(
                    "max_nodes must be a non-negative integer, not {n}"
                )))
            }
        };
        if let Some(w) = within {
            if !(w.is_finite() && w >= 1.0) {
                return Err(PyValueError::new_err(format!(
                    "within must be a number at least 1, not {w}"
                )));
            }
        }
        Ok(Ask {
            metric,
            moves,
            timeout,
            max_nodes,
            within: within.filter(|&w| w > 1.0),
        })
    }

    fn options(&self, cancel: &Arc<AtomicBool>, parallel: bool) -> SolveOptions {
        SolveOptions {
            metric: self.metric,
            max_nodes: self.max_nodes,
            timeout: self.timeout,
            cancel: Some(cancel.clone()),
            weight: self.within,
            parallel,
            ..Default::default()
        }
    }

    /// True when a table lookup answers at once (no search, no long build).
    fn quick(&self, board: &Board) -> bool {
        board.shape().cells() <= 10 && self.within.is_none()
    }
}

/// The answer to one board.
///
/// `distance` is the least number of moves in `metric` (-1 when the goal cannot be reached, None when a limit
/// stopped the search: `lower_bound` then says how many moves it takes at least); `moves` lists the tiles that
/// slide into the blank, in order (None when not asked for or none exist), single-tile moves in either metric: in
/// MTM `distance` counts their maximal runs of one direction (the pushes).
#[pyclass(module = "slide", name = "Solution", frozen)]
#[derive(Clone)]
struct PySolution {
    /// Least number of moves (in `metric`); -1 when unsolvable; None when the search was cut short.
    #[pyo3(get)]
    distance: Option<i64>,
    /// How moves are counted: `"stm"` (single-tile moves) or `"mtm"` (multi-tile moves: pushes).
    #[pyo3(get)]
    metric: String,
    /// The tiles moved, in order (None when unsolvable, cut short, or `moves=False`).
    #[pyo3(get)]
    moves: Option<Vec<Tile>>,
    /// True when the answer is proven (least moves, or proven unreachable).
    #[pyo3(get)]
    optimal: bool,
    /// A proven lower bound on the least number of moves (equal to it when optimal).
    #[pyo3(get)]
    lower_bound: u64,
    /// Search nodes generated (0 for table lookups).
    #[pyo3(get)]
    nodes: u64,
    /// Seconds spent on this board.
    #[pyo3(get)]
    seconds: f64,
    /// For `within=W`: the moves are at most W times the least number.
    #[pyo3(get)]
    within: Option<f64>,
    /// Why the goal cannot be reached, when it cannot.
    #[pyo3(get)]
    unsolvable_reason: Option<String>,
    /// The board as JSON rows, the goal as JSON rows or a pattern (`1 2 3/x x x/x x x`): for `notation` and
    /// pickling.
    board: String,
    goal: String,
}

impl PySolution {
    fn new(s: Solution, board: &Board, goal: String, keep_moves: bool, seconds: f64) -> Self {
        let stopped = s.moves.is_none() && !s.is_unsolvable();
        PySolution {
            distance: if stopped {
                None
            } else if s.is_unsolvable() {
                Some(-1)
            } else {
                s.length().map(|l| l as i64)
            },
            metric: s.metric.name().into(),
            moves: if keep_moves { s.moves } else { None },
            optimal: s.optimal,
            lower_bound: s.lower_bound,
            nodes: s.nodes,
            seconds,
            within: s.within,
            unsolvable_reason: s.unsolvable_reason,
            board: board.to_string(),
            goal,
        }
    }

    fn distance_only(d: i64, metric: Metric, board: &Board, goal: &Board, seconds: f64) -> Self {
        let unsolvable_reason = if d < 0 {
            board.unsolvable_reason(goal).ok().flatten()
        } else {
            None
        };
        PySolution {
            distance: Some(d),
            metric: metric.name().into(),
            moves: None,
            optimal: true,
            lower_bound: d.max(0) as u64,
            nodes: 0,
            seconds,
            within: None,
            unsolvable_reason,
            board: board.to_string(),
            goal: goal.to_string(),
        }
    }
}

#[pymethods]
impl PySolution {
    /// The moves written in a notation: `"tiles"` (tile numbers separated by spaces), `"long"` (each tile's
    /// direction, `U D L R`), `"short"` (the same with runs collapsed: `R3` is one multi-tile move) or `"blank"` (the
    /// blank's directions, as `slide solve --directions` prints them).
    fn notation(&self, name: &str) -> PyResult<String> {
        let Some(moves) = &self.moves else {
            return Err(PyValueError::new_err(if self.distance == Some(-1) {
                "no moves: the goal cannot be reached".to_string()
            } else if self.distance.is_none() {
                "no moves: the search was stopped by a limit before it found a solution".to_string()
            } else {
                "no moves kept: solve with moves=True".to_string()
            }));
        };
        let Ok(notation) = name.parse::<Notation>() else {
            let shown: String = name.chars().take(24).collect();
            return Err(PyValueError::new_err(format!(
                "notation {shown:?} is not available in this version of slide (available: \"tiles\", \"long\", \
                 \"short\", \"blank\")"
            )));
        };
        let board = Board::parse(&self.board).map_err(|e| lib_err(e, ""))?;
        Moves::from_tiles(&board, moves)
            .and_then(|m| m.format(notation, Some(&board)))
            .map_err(|e| lib_err(e, ""))
    }

    /// The board that was solved, as a list of rows.
    #[getter]
    fn board(&self) -> PyResult<Vec<Vec<Tile>>> {
        Ok(Board::parse(&self.board)
            .map_err(|e| lib_err(e, ""))?
            .rows())
    }

    /// The goal, as a list of rows (`None` on the free cells of a partial goal).
    #[getter]
    fn goal(&self) -> PyResult<Vec<Vec<Option<Tile>>>> {
        let p = Pattern::parse(&self.goal).map_err(|e| lib_err(e, ""))?;
        Ok(p.cells()
            .chunks(p.shape().cols())
            .map(<[Option<Tile>]>::to_vec)
            .collect())
    }

    fn __repr__(&self) -> String {
        let d = match self.distance {
            Some(d) => d.to_string(),
            None => format!(">={}", self.lower_bound),
        };
        let metric = if self.metric == "stm" {
            String::new()
        } else {
            format!(", metric='{}'", self.metric)
        };
        format!(
            "Solution(distance={d}{metric}, optimal={}, moves={}, nodes={}, seconds={:.6})",
            if self.optimal { "True" } else { "False" },
            match &self.moves {
                Some(m) => format!("{m:?}"),
                None => "None".into(),
            },
            self.nodes,
            self.seconds
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.downcast::<PySolution>().is_ok_and(|o| {
            let o = o.get();
            (
                &o.distance,
                &o.metric,
                &o.moves,
                o.optimal,
                o.lower_bound,
                &o.board,
                &o.goal,
            ) == (
                &self.distance,
                &self.metric,
                &self.moves,
                self.optimal,
                self.lower_bound,
                &self.board,
                &self.goal,
            )
        })
    }

    /// Pickling (Ray sends solutions between processes).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(PyObject, PyObject)> {
        let py = slf.py();
        let s = slf.get();
        let restore = py.get_type::<PySolution>().getattr("_restore")?;
        let state = (
            s.distance,
            s.moves.clone(),
            s.optimal,
            s.lower_bound,
            s.nodes,
            s.seconds,
            s.within,
            s.unsolvable_reason.clone(),
            s.board.clone(),
            s.goal.clone(),
            s.metric.clone(),
        );
        Ok((
            restore.unbind(),
            (state,).into_pyobject(py)?.into_any().unbind(),
        ))
    }

    #[staticmethod]
    #[allow(clippy::type_complexity)]
    fn _restore(
        state: (
            Option<i64>,
            Option<Vec<Tile>>,
            bool,
            u64,
            u64,
            f64,
            Option<f64>,
            Option<String>,
            String,
            String,
            Option<String>,
        ),
    ) -> PyResult<Self> {
        let (
            distance,
            moves,
            optimal,
            lower_bound,
            nodes,
            seconds,
            within,
            unsolvable_reason,
            board,
            goal,
            metric,
        ) = state;
        Board::parse(&board).map_err(|e| lib_err(e, "board"))?;
        Pattern::parse(&goal).map_err(|e| lib_err(e, "goal"))?;
        let metric = metric_from(metric.as_deref().unwrap_or("stm"))?;
        Ok(PySolution {
            distance,
            metric: metric.name().into(),
            moves,
            optimal,
            lower_bound,
            nodes,
            seconds,
            within,
            unsolvable_reason,
            board,
            goal,
        })
    }
}

/// Solves one board towards a goal board or a partial goal (no GIL held).
fn solve_one(
    board: &Board,
    target: &Target,
    ask: &Ask,
    cancel: &Arc<AtomicBool>,
    parallel: bool,
) -> Result<PySolution, Error> {
    let t0 = Instant::now();
    let solver = solver();
    let opts = ask.options(cancel, parallel);
    let s = match target {
        Target::Board(goal) => {
            if !ask.moves && ask.within.is_none() && board.shape().cells() <= 12 {
                let d = solver.distance_in(board, goal, ask.metric)?;
                return Ok(PySolution::distance_only(
                    d,
                    ask.metric,
                    board,
                    goal,
                    t0.elapsed().as_secs_f64(),
                ));
            }
            solver.solve_with(board, goal, &opts)?
        }
        Target::Pattern(p) => solver.solve_pattern(board, p, &opts)?,
    };
    Ok(PySolution::new(
        s,
        board,
        target.text(),
        ask.moves,
        t0.elapsed().as_secs_f64(),
    ))
}

/// The least number of moves that solves a board (goal: tiles in order, blank last), or -1 when it cannot be solved:
/// the LeetCode "sliding puzzle" with its signature, for every shape of at most 12 cells (larger boards are
/// searched optimally, which can take long).
#[pyfunction]
fn sliding_puzzle(py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<i64> {
    let b = board_from(board, "")?;
    let goal = Board::goal(b.shape());
    if b.shape().cells() <= 10 {
        return solver().distance(&b, &goal).map_err(|e| lib_err(e, ""));
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let ask = Ask::new("stm", false, None, None, None)?;
    let goal = Target::Board(goal);
    let s = interruptible(py, &cancel, || solve_one(&b, &goal, &ask, &cancel, true))?
        .map_err(|e| lib_err(e, ""))?;
    Ok(s.distance.unwrap_or(-1))
}

/// Solves one board towards `goal` (default: tiles in order, blank last), or towards a partial goal: a pattern with
/// `x` (or `None` in rows) for any tile, answered with the least moves to any matching board.
///
/// `metric`: `"stm"` (single-tile moves) or `"mtm"` (multi-tile moves: a push of 1..k tiles of the blank's row or
/// column counts one; boards of at most 12 cells, lines, and 4x4, 3x5, 5x3 and two-row boards by IDA* over pushes).
/// In MTM `distance` counts pushes and `moves` stay single tiles. `timeout` (seconds) and `max_nodes` bound a
/// search; `within=W` asks for a solution at most W times the optimum (STM, goal boards).
#[pyfunction]
#[pyo3(signature = (board, goal=None, *, metric="stm", moves=true, timeout=None, max_nodes=None, within=None))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    metric: &str,
    moves: bool,
    timeout: Option<f64>,
    max_nodes: Option<i128>,
    within: Option<f64>,
) -> PyResult<PySolution> {
    let ask = Ask::new(metric, moves, timeout, max_nodes, within)?;
    let b = board_from(board, "")?;
    let g = goal_target(&b, goal, "")?;
    let cancel = Arc::new(AtomicBool::new(false));
    let r = if ask.quick(&b) && matches!(g, Target::Board(_)) {
        solve_one(&b, &g, &ask, &cancel, false)
    } else {
        interruptible(py, &cancel, || solve_one(&b, &g, &ask, &cancel, true))?
    };
    r.map_err(|e| lib_err(e, ""))
}

/// A rayon pool of `threads` threads, or None for the global pool.
fn pool(threads: Option<i64>) -> PyResult<Option<rayon::ThreadPool>> {
    match threads {
        None => Ok(None),
        Some(n) if (1..=4096).contains(&n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n as usize)
            .build()
            .map(Some)
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start {n} threads: {e}"))),
        Some(n) => Err(PyValueError::new_err(format!(
            "threads must be between 1 and 4096, not {n}"
        ))),
    }
}

/// Solves many boards in parallel; the answers come back in input order. Options as `solve` (a partial goal,
/// `metric="mtm"`), limits for each board.
///
/// `_stop` is slide.ray's: a callable asked every 100 ms whether to stop. Once it answers true (or raises), the
/// boards not answered yet come back stopped: the caller (slide.ray's task) knows it asked and returns no answer.
#[pyfunction]
#[pyo3(signature = (boards, goal=None, *, threads=None, metric="stm", moves=true, timeout=None, max_nodes=None, within=None, _stop=None))]
#[allow(clippy::too_many_arguments)]
fn solve_many(
    py: Python<'_>,
    boards: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    threads: Option<i64>,
    metric: &str,
    moves: bool,
    timeout: Option<f64>,
    max_nodes: Option<i128>,
    within: Option<f64>,
    _stop: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<PySolution>> {
    let ask = Ask::new(metric, moves, timeout, max_nodes, within)?;
    if boards.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "boards must be a list of boards, not a single string (use solve for one board)",
        ));
    }
    let iter = boards.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "boards must be an iterable of boards, not {}",
            type_name(boards)
        ))
    })?;
    let mut jobs: Vec<(Board, Target)> = Vec::new();
    for (i, b) in iter.enumerate() {
        let ctx = format!("boards[{i}]");
        let board = board_from(&b?, &ctx)?;
        let g = goal_target(&board, goal, &ctx)?;
        jobs.push((board, g));
    }
    let pool = pool(threads)?;
    let width = pool
        .as_ref()
        .map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
    // Few boards: each search is shared among the threads instead (the same lengths, sooner).
    let parallel = jobs.len() < 64.min(4 * width).max(2) && width > 1;
    let cancel = Arc::new(AtomicBool::new(false));
    let work = || -> Vec<Result<PySolution, Error>> {
        jobs.par_iter()
            .map(|(b, g)| solve_one(b, g, &ask, &cancel, parallel))
            .collect()
    };
    let results = interruptible_until(py, &cancel, _stop, || match &pool {
        Some(p) => p.install(work),
        None => work(),
    })?;
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.map_err(|e| lib_err(e, &format!("boards[{i}]"))))
        .collect()
}

/// An integer value of a NumPy array element.
trait Value: Element + Copy + Send + Sync {
    fn value(self) -> i64;
}

macro_rules! value {
    ($($t:ty),*) => {$(
        impl Value for $t {
            #[inline(always)]
            fn value(self) -> i64 {
                i64::try_from(self).unwrap_or(i64::MAX)
            }
        }
    )*};
}
value!(i8, u8, i16, u16, i32, u32, i64, u64);

/// Maps user tiles and cells to the canonical frame of a table.
struct Lookup {
    n: usize,
    metric: Metric,
    to_canon: Vec<u8>,
    cell_map: Vec<u8>,
    table: Option<Arc<slide::engine::table::CompleteTable>>,
}

impl Lookup {
    fn new(shape: Shape, goal: &Board, metric: Metric) -> Result<Lookup, Error> {
        let n = shape.cells();
        let table_shape = !shape.is_line() && n <= slide::engine::table::MAX_TABLE_CELLS;
        if !table_shape {
            return Ok(Lookup {
                n,
                metric,
                to_canon: vec![],
                cell_map: vec![],
                table: None,
            });
        }
        let frame = Frame::new(goal);
        let table = solver()
            .table_in(frame.shape(), frame.blank_goal(), metric)?
            .clone();
        let mut to_canon = vec![0u8; n];
        for c in 0..n {
            to_canon[frame.tile(c as Tile) as usize] = c as u8;
        }
        let cell_map = (0..n).map(|c| frame.cell(c) as u8).collect();
        Ok(Lookup {
            n,
            metric,
            to_canon,
            cell_map,
            table: Some(table),
        })
    }

    /// The distance of one board given as row-major values; `Err(())` when the values are not a board.
    #[inline]
    fn distance<T: Value>(&self, vals: impl Iterator<Item = T>, goal: &Board) -> Result<i32, ()> {
        let Some(table) = &self.table else {
            let tiles = vals
                .map(|v| u32::try_from(v.value()).map_err(|_| ()))
                .collect::<Result<Vec<_>, ()>>()?;
            let b = Board::new(goal.shape(), tiles).map_err(|_| ())?;
            return solver()
                .distance_in(&b, goal, self.metric)
                .map(|d| d as i32)
                .map_err(|_| ());
        };
        let n = self.n;
        let mut pos = [0u8; slide::engine::table::MAX_TABLE_CELLS];
        let mut seen = 0u32;
        let mut count = 0;
        for (cell, v) in vals.enumerate() {
            let v = v.value();
            if v < 0 || v >= n as i64 || seen & (1 << v) != 0 {
                return Err(());
            }
            seen |= 1 << v;
            pos[self.to_canon[v as usize] as usize] = self.cell_map[cell];
            count += 1;
        }
        if count != n {
            return Err(());
        }
        Ok(table.distance(&pos[..n]).map_or(-1, |d| d as i32))
    }
}

fn distances_typed<'py, T: Value>(
    py: Python<'py>,
    arr: &Bound<'py, PyAny>,
    shape: Shape,
    goal: &Board,
    metric: Metric,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let arr = arr.downcast::<PyArrayDyn<T>>()?.readonly();
    let view = arr.as_array();
    let count = view.shape()[0];
    let n = shape.cells();
    let cancel = AtomicBool::new(false);
    let result: Result<Vec<i32>, (usize, Option<Error>)> = interruptible(py, &cancel, || {
        let lookup = Lookup::new(shape, goal, metric).map_err(|e| (usize::MAX, Some(e)))?;
        let mut out = vec![0i32; count];
        let bad = if let Some(flat) = view.as_slice() {
            out.par_chunks_mut(4096)
                .enumerate()
                .map(|(k, chunk)| {
                    let base = k * 4096;
                    for (j, o) in chunk.iter_mut().enumerate() {
                        let i = base + j;
                        match lookup.distance(flat[i * n..(i + 1) * n].iter().copied(), goal) {
                            Ok(d) => *o = d,
                            Err(()) => return Some(i),
                        }
                    }
                    None
                })
                .reduce(|| None, |a, b| a.or(b).map(|x| a.map_or(x, |y| y.min(x))))
        } else {
            let boards = view.outer_iter().collect::<Vec<_>>();
            out.par_iter_mut()
                .zip(boards.par_iter())
                .enumerate()
                .map(
                    |(i, (o, b))| match lookup.distance(b.iter().copied(), goal) {
                        Ok(d) => {
                            *o = d;
                            None
                        }
                        Err(()) => Some(i),
                    },
                )
                .reduce(|| None, |a, b| a.or(b).map(|x| a.map_or(x, |y| y.min(x))))
        };
        match bad {
            Some(i) => Err((i, None)),
            None => Ok(out),
        }
    })?;
    match result {
        Ok(out) => Ok(PyArray1::from_vec(py, out)),
        Err((_, Some(e))) => Err(lib_err(e, "")),
        Err((i, None)) => {
            // Say what is wrong with the first bad board, in the library's words.
            let row = view.outer_iter().nth(i).expect("the bad board's index");
            let values: Vec<i64> = row.iter().map(|v| v.value()).collect();
            let rows: Vec<Vec<i64>> = values.chunks(shape.cols()).map(<[i64]>::to_vec).collect();
            let msg = match Board::from_rows(&rows) {
                Err(e) => e.to_string(),
                Ok(b) => match solver().distance_in(&b, goal, metric) {
                    Err(e) => e.to_string(),
                    Ok(_) => "not a board".into(),
                },
            };
            Err(BoardError::new_err(format!(
                "board {i} of the array: {msg}"
            )))
        }
    }
}

/// The least number of moves (in `metric`: `"stm"` or `"mtm"`) of every board of an integer NumPy array of shape
/// (N, R, C), or (N, R·C) with `shape` given: an int32 array of N distances (-1 where the goal cannot be reached).
#[pyfunction]
#[pyo3(signature = (array, shape=None, goal=None, *, metric="stm"))]
fn distances<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    shape: Option<&Bound<'py, PyAny>>,
    goal: Option<&Bound<'py, PyAny>>,
    metric: &str,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let metric = metric_from(metric)?;
    let Ok(arr) = array.downcast::<PyUntypedArray>() else {
        return Err(PyTypeError::new_err(format!(
            "distances takes a NumPy integer array of shape (N, R, C) or (N, R*C), not {} \
             (use numpy.asarray, or solve_many for lists)",
            type_name(array)
        )));
    };
    let kind = arr.dtype().kind();
    if kind != b'i' && kind != b'u' {
        return Err(PyTypeError::new_err(format!(
            "distances needs an integer array, not one of dtype {}",
            arr.dtype().str()?
        )));
    }
    let dims = arr.shape().to_vec();
    let given = shape.map(shape_from).transpose()?;
    let shape = match (dims.len(), given) {
        (3, g) => {
            let s = Shape::new(dims[1], dims[2]).map_err(|e| lib_err(e, "array"))?;
            if let Some(g) = g {
                if g != s {
                    return Err(BoardError::new_err(format!(
                        "the array holds boards of shape {s}, not the shape {g} asked for"
                    )));
                }
            }
            s
        }
        (2, Some(g)) => {
            if g.cells() != dims[1] {
                return Err(BoardError::new_err(format!(
                    "shape {g} needs {} numbers per board, the array has {}",
                    g.cells(),
                    dims[1]
                )));
            }
            g
        }
        (2, None) => {
            let side = (dims[1] as f64).sqrt().round() as usize;
            if side * side != dims[1] || side < 2 {
                return Err(BoardError::new_err(format!(
                    "cannot tell the shape of boards of {} numbers: give shape=\"RxC\" or an array of shape (N, R, C)",
                    dims[1]
                )));
            }
            Shape::new(side, side).map_err(|e| lib_err(e, ""))?
        }
        (d, _) => {
            return Err(BoardError::new_err(format!(
                "distances needs an array of shape (N, R, C) or (N, R*C), not one with {d} dimensions {dims:?}"
            )))
        }
    };
    if shape.cells() > slide::engine::table::MAX_TABLE_CELLS && !shape.is_line() {
        return Err(BoardError::new_err(format!(
            "distances answers boards of at most {} cells (and single rows or columns) from complete tables; \
             {shape} has {}: use solve_many",
            slide::engine::table::MAX_TABLE_CELLS,
            shape.cells()
        )));
    }
    let goal = goal_for(&Board::goal(shape), goal, "")?;
    macro_rules! go {
        ($($t:ty),*) => {$(
            if array.downcast::<PyArrayDyn<$t>>().is_ok() {
                return distances_typed::<$t>(py, array, shape, &goal, metric);
            }
        )*};
    }
    go!(i64, i32, i16, i8, u8, u16, u32, u64);
    Err(PyTypeError::new_err(format!(
        "distances cannot read an array of dtype {} (a non-native byte order?): use array.astype(numpy.int64)",
        arr.dtype().str()?
    )))
}

/// Uniformly random solvable boards of a shape (or random walks of `walk` moves from the goal), reproducible with
/// `seed`: one board (a list of rows) when `count` is None, else a list of `count` boards.
#[pyfunction]
#[pyo3(signature = (shape, count=None, *, seed=None, walk=None, goal=None))]
fn scramble(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    count: Option<i64>,
    seed: Option<u64>,
    walk: Option<u64>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let shape = shape_from(shape)?;
    let g = goal_for(&Board::goal(shape), goal, "")?;
    let n = match count {
        None => 1,
        Some(c) if (0..=10_000_000).contains(&c) => c as usize,
        Some(c) => {
            return Err(PyValueError::new_err(format!(
                "count must be between 0 and 10000000, not {c}"
            )))
        }
    };
    if shape.cells().saturating_mul(n.max(1)) > 100_000_000 {
        return Err(PyValueError::new_err(format!(
            "{n} boards of shape {shape} are too many to return at once"
        )));
    }
    let mut s = match seed {
        Some(seed) => Scrambler::new(seed),
        None => Scrambler::from_entropy(),
    };
    let mut one = || match walk {
        Some(w) => s.walk(&g, w),
        None => s.uniform(&g),
    };
    if count.is_none() {
        return Ok(one().rows().into_pyobject(py)?.into_any().unbind());
    }
    let boards: Vec<Vec<Vec<Tile>>> = (0..n).map(|_| one().rows()).collect();
    Ok(boards.into_pyobject(py)?.into_any().unbind())
}

/// Moves read from `moves` and checked against `board` (every move legal): a string in any notation the library
/// reads (tile numbers `"5 4 1"`, tile letters long or short `"RRU"`, `"R2U"`, or the blank's letters with
/// `blank`), or a list of tile numbers. A bad move is named as it was written (`moves: move 3 'U': …`,
/// `moves[2]: …`).
fn moves_from(board: &Board, moves: &Bound<'_, PyAny>, blank: bool) -> PyResult<Moves> {
    if let Ok(s) = moves.downcast::<PyString>() {
        let text = s.to_cow()?;
        let written: Written = notation::read(&text, blank).map_err(|e| lib_err(e, "moves"))?;
        // Checks every move, naming a bad one as it was written.
        written.apply(board).map_err(|e| lib_err(e, "moves"))?;
        return written.resolve(board).map_err(|e| lib_err(e, "moves"));
    }
    let iter = moves.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "moves must be a string in a move notation or a list of tile numbers, not {}",
            type_name(moves)
        ))
    })?;
    let mut b = board.clone();
    let mut tiles = Vec::new();
    for (i, t) in iter.enumerate() {
        if i == notation::MAX_MOVES {
            return Err(lib_err(
                Error::TooManyMoves {
                    max: notation::MAX_MOVES,
                },
                "moves",
            ));
        }
        let t = tile_value(&t?, 1, i + 1, "")?;
        let tile = u32::try_from(t)
            .map_err(|_| BoardError::new_err(format!("moves[{i}]: no tile {t} on the board")))?;
        b.apply(tile)
            .map_err(|e| lib_err(e, &format!("moves[{i}]")))?;
        tiles.push(tile);
    }
    Moves::from_tiles(board, &tiles).map_err(|e| lib_err(e, "moves"))
}

/// The board after the moves, as a list of rows: a list of tile numbers (each sliding into the blank) or a string
/// in any notation the library reads (tile numbers, tile letters long or short, the blank's letters with `blank`).
#[pyfunction]
#[pyo3(signature = (board, moves, blank=false))]
fn apply(
    board: &Bound<'_, PyAny>,
    moves: &Bound<'_, PyAny>,
    blank: bool,
) -> PyResult<Vec<Vec<Tile>>> {
    let b = board_from(board, "")?;
    let m = moves_from(&b, moves, blank)?;
    Ok(m.apply(&b).map_err(|e| lib_err(e, "moves"))?.rows())
}

/// A move sequence played from `board` judged move by move (the library's `Solver::analyse`, the object of
/// `slide analyse --json`): a dict with `solves`, `length` (single-tile moves), `mtm_length` (multi-tile moves),
/// `optimal` (the least number of single-tile moves from the board, -1 when unsolvable), `over` (moves over it when
/// the sequence solves, else None), `distances` (after each move) and `mistakes` (1-based indices of the moves
/// after which the board was not closer). Exact from the tables up to 12 cells; above, by IDA* under `timeout`
/// and `max_nodes` (each search), which raise `LimitReached` when they stop one.
#[pyfunction]
#[pyo3(signature = (board, moves, goal=None, blank=false, *, timeout=None, max_nodes=None))]
#[allow(clippy::too_many_arguments)]
fn analyse<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    moves: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    blank: bool,
    timeout: Option<f64>,
    max_nodes: Option<i128>,
) -> PyResult<Bound<'py, PyDict>> {
    let ask = Ask::new("stm", true, timeout, max_nodes, None)?;
    let b = board_from(board, "")?;
    let g = goal_for(&b, goal, "")?;
    let m = moves_from(&b, moves, blank)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let opts = ask.options(&cancel, true);
    let a = interruptible(py, &cancel, || solver().analyse(&b, &g, &m, &opts))?
        .map_err(|e| lib_err(e, ""))?;
    let d = PyDict::new(py);
    d.set_item("solves", a.solves)?;
    d.set_item("length", a.length)?;
    d.set_item("mtm_length", a.mtm_length)?;
    d.set_item("optimal", a.optimal)?;
    d.set_item("over", a.over)?;
    d.set_item("distances", a.distances)?;
    d.set_item("mistakes", a.mistakes)?;
    Ok(d)
}

/// `(distance, tiles)`: the least number of moves from `board` to the goal in `metric` (0 on it, -1 when it
/// cannot be reached) and every tile whose move starts a shortest solution, ascending (the library's
/// `Solver::hint`); in `metric="mtm"` a move is a push, named by the tile farthest from the blank that it slides.
/// Exact from the tables up to 12 cells; above, by IDA* under `timeout` and `max_nodes` (each search), which
/// raise `LimitReached` when they stop one.
#[pyfunction]
#[pyo3(signature = (board, goal=None, *, metric="stm", timeout=None, max_nodes=None))]
fn hint(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    metric: &str,
    timeout: Option<f64>,
    max_nodes: Option<i128>,
) -> PyResult<(i64, Vec<Tile>)> {
    let ask = Ask::new(metric, true, timeout, max_nodes, None)?;
    let b = board_from(board, "")?;
    let g = goal_for(&b, goal, "")?;
    let cancel = Arc::new(AtomicBool::new(false));
    let opts = ask.options(&cancel, true);
    let h =
        interruptible(py, &cancel, || solver().hint(&b, &g, &opts))?.map_err(|e| lib_err(e, ""))?;
    Ok((h.distance, h.tiles))
}

/// A picture of `board` as bytes, drawn by the library's `slide::render`: `format="svg"` (UTF-8 text) or `"png"`;
/// with `moves` (a string in any notation, or a list of tile numbers; `blank` reads letters as the blank's) or
/// `solve=True` (slide's solution: optimal up to 25 cells, fast mode above), an animation: `"gif"`, or `"svg"` (animated with SMIL). `size` is the longer
/// side in pixels (16 to 4096), `scheme` "plain" or "fringe" (tiles coloured by the row or column they are solved
/// with), `theme` "light" or "dark", `tps` tiles per second (0.1 to 50), `inbetweens` sliding frames per move in a
/// GIF (0 to 10). GIFs are refused over 10^8 pixels in all (frames times picture); the message names the limit.
#[pyfunction]
#[pyo3(signature = (board, moves=None, goal=None, *, format="svg", solve=false, blank=false, size=400, scheme="plain", theme="light", tps=8.0, inbetweens=3))]
#[allow(clippy::too_many_arguments)]
fn render<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    moves: Option<&Bound<'py, PyAny>>,
    goal: Option<&Bound<'py, PyAny>>,
    format: &str,
    solve: bool,
    blank: bool,
    size: i64,
    scheme: &str,
    theme: &str,
    tps: f64,
    inbetweens: i64,
) -> PyResult<Bound<'py, PyBytes>> {
    use slide::render::{Animation, Style};
    let b = board_from(board, "")?;
    let g = goal_for(&b, goal, "")?;
    // Values past u32 are out of every range: say so with the value given (in range, the library checks).
    let small = |v: i64, what: &str, range: String| {
        u32::try_from(v).map_err(|_| {
            lib_err(
                Error::InvalidOption {
                    option: what.into(),
                    reason: format!("{v} is out of range: {range}"),
                },
                "",
            )
        })
    };
    use slide::render::{MAX_INBETWEENS, MAX_SIZE, MIN_SIZE};
    let size = small(size, "size", format!("{MIN_SIZE} to {MAX_SIZE} pixels"))?;
    let inbetweens = small(inbetweens, "inbetweens", format!("0 to {MAX_INBETWEENS}"))?;
    let style = Style {
        size,
        scheme: scheme.parse().map_err(|e| lib_err(e, ""))?,
        theme: theme.parse().map_err(|e| lib_err(e, ""))?,
    };
    let animation = Animation { tps, inbetweens };
    let format = format.to_ascii_lowercase();
    if !["svg", "png", "gif"].contains(&format.as_str()) {
        return Err(PyValueError::new_err(format!(
            "unknown format {format:?}: use \"svg\", \"png\" or \"gif\""
        )));
    }
    let sequence = match (moves, solve) {
        (Some(_), true) => return Err(PyValueError::new_err("give moves or solve=True, not both")),
        (Some(m), false) => Some(moves_from(&b, m, blank)?),
        (None, true) => {
            let cancel = Arc::new(AtomicBool::new(false));
            let opts = SolveOptions {
                cancel: Some(cancel.clone()),
                ..Default::default()
            };
            let s = interruptible(py, &cancel, || solver().solve_with(&b, &g, &opts))?
                .map_err(|e| lib_err(e, ""))?;
            let Some(tiles) = s.moves else {
                return Err(BoardError::new_err(format!(
                    "solve=True: {}",
                    s.unsolvable_reason
                        .unwrap_or_else(|| "no solution found".into())
                )));
            };
            Some(Moves::from_tiles(&b, &tiles).map_err(|e| lib_err(e, ""))?)
        }
        (None, false) => None,
    };
    if format == "png" && sequence.is_some() {
        return Err(PyValueError::new_err(
            "png is a still picture: use format=\"gif\" or \"svg\" for moves",
        ));
    }
    let cancel = AtomicBool::new(false);
    let bytes = interruptible(py, &cancel, || -> Result<Vec<u8>, Error> {
        let none = Moves::new(Vec::new());
        Ok(match (format.as_str(), &sequence) {
            ("svg", None) => slide::render::svg(&b, &g, &style)?.into_bytes(),
            ("svg", Some(m)) => {
                slide::render::animated_svg(&b, m, &g, &style, &animation)?.into_bytes()
            }
            ("png", _) => slide::render::png(&b, &g, &style)?,
            (_, m) => slide::render::gif(&b, m.as_ref().unwrap_or(&none), &g, &style, &animation)?,
        })
    })?
    .map_err(|e| lib_err(e, ""))?;
    Ok(PyBytes::new(py, &bytes))
}

/// Solves `board` stage after stage (the library's `Solver::solve_stages`): each goal of `stages` (patterns with
/// `x`, or boards) from the board the previous stage ended on, each stage optimal in `metric` (the total is not
/// claimed to be). One `Solution` per stage, its `board` the stage's start; the list stops after a stage without
/// moves (unreachable, or stopped by a limit). `timeout` and `max_nodes` apply to each stage.
#[pyfunction]
#[pyo3(signature = (board, stages, *, metric="stm", moves=true, timeout=None, max_nodes=None))]
#[allow(clippy::too_many_arguments)]
fn solve_stages(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    stages: &Bound<'_, PyAny>,
    metric: &str,
    moves: bool,
    timeout: Option<f64>,
    max_nodes: Option<i128>,
) -> PyResult<Vec<PySolution>> {
    let ask = Ask::new(metric, true, timeout, max_nodes, None)?;
    let b = board_from(board, "")?;
    let Some(list) = items(stages).filter(|_| !stages.is_instance_of::<PyString>()) else {
        return Err(PyTypeError::new_err(format!(
            "stages must be a list of goals (patterns such as \"1 2 3/x x x/x x x\", or boards), not {}",
            type_name(stages)
        )));
    };
    if list.is_empty() {
        return Err(PyValueError::new_err(
            "stages is empty: give at least one goal",
        ));
    }
    let mut targets = Vec::with_capacity(list.len());
    for (i, stage) in list.iter().enumerate() {
        if stage.is_none() {
            return Err(PyTypeError::new_err(format!(
                "stages[{i}] is None: each stage is a goal (a pattern with x, or a board)"
            )));
        }
        targets.push(goal_target(&b, Some(stage), &format!("stages[{i}]"))?);
    }
    let patterns: Vec<Pattern> = targets
        .iter()
        .map(|t| match t {
            Target::Board(g) => Pattern::from_board(g),
            Target::Pattern(p) => p.clone(),
        })
        .collect();
    let cancel = Arc::new(AtomicBool::new(false));
    let opts = ask.options(&cancel, true);
    let (answers, seconds) = interruptible(py, &cancel, || {
        let mut seconds = Vec::new();
        let mut t0 = Instant::now();
        let r = solver().solve_stages(&b, &patterns, &opts, &mut |_| {
            seconds.push(t0.elapsed().as_secs_f64());
            t0 = Instant::now();
        });
        r.map(|a| (a, seconds))
    })?
    .map_err(|e| lib_err(e, ""))?;
    let mut at = b;
    let mut out = Vec::with_capacity(answers.len());
    for ((s, target), secs) in answers.into_iter().zip(&targets).zip(seconds) {
        let next = match &s.moves {
            Some(m) => Some(
                Moves::from_tiles(&at, m)
                    .and_then(|m| m.apply(&at))
                    .map_err(|e| lib_err(e, ""))?,
            ),
            None => None,
        };
        out.push(PySolution::new(s, &at, target.text(), moves, secs));
        if let Some(n) = next {
            at = n;
        }
    }
    Ok(out)
}

/// Facts about every board of a shape (at most 12 cells, or a single row or column): the number of solvable boards,
/// the number at each distance (in `metric`: `"stm"` or `"mtm"`), god's number (the diameter) and some farthest
/// boards.
#[pyfunction]
#[pyo3(signature = (shape, goal=None, *, metric="stm"))]
fn stats<'py>(
    py: Python<'py>,
    shape: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    metric: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let metric = metric_from(metric)?;
    let shape = shape_from(shape)?;
    if shape.cells() > slide::engine::table::MAX_TABLE_CELLS && !shape.is_line() {
        return Err(BoardError::new_err(format!(
            "stats covers shapes of at most {} cells (and single rows or columns); {shape} has {}",
            slide::engine::table::MAX_TABLE_CELLS,
            shape.cells()
        )));
    }
    let g = goal_for(&Board::goal(shape), goal, "")?;
    let cancel = AtomicBool::new(false);
    let st = interruptible(py, &cancel, || solver().stats_in(&g, metric))?
        .map_err(|e| lib_err(e, ""))?;
    let d = PyDict::new(py);
    d.set_item("states", st.states)?;
    d.set_item("diameter", st.diameter())?;
    d.set_item("histogram", st.histogram.clone())?;
    let antipodes: Vec<Vec<Vec<Tile>>> = st.antipodes.iter().map(Board::rows).collect();
    d.set_item("antipodes", antipodes)?;
    Ok(d)
}

/// The Python module `slide._slide`.
#[pymodule]
fn _slide(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BoardError", m.py().get_type::<BoardError>())?;
    m.add("LimitReached", m.py().get_type::<LimitReached>())?;
    // For the tests: the kinds of the 4x4 MTM label tables' files (their names start with them), to tell whether they
    // are cached.
    let (first, second) = slide::engine::mtm::layouts(slide::Shape::new(4, 4).expect("4x4 is a shape"));
    let kinds: Vec<&str> = std::iter::once(first).chain(second).map(|l| l.kind()).collect();
    m.add("_LABEL_TABLE_KINDS_4X4", kinds)?;
    m.add("_LABEL_TABLE_ENCODING", slide::engine::mtm::LABEL_ENCODING)?;
    m.add_class::<PySolution>()?;
    m.add_function(wrap_pyfunction!(sliding_puzzle, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(distances, m)?)?;
    m.add_function(wrap_pyfunction!(scramble, m)?)?;
    m.add_function(wrap_pyfunction!(apply, m)?)?;
    m.add_function(wrap_pyfunction!(stats, m)?)?;
    m.add_function(wrap_pyfunction!(analyse, m)?)?;
    m.add_function(wrap_pyfunction!(hint, m)?)?;
    m.add_function(wrap_pyfunction!(solve_stages, m)?)?;
    m.add_function(wrap_pyfunction!(render, m)?)?;
    m.add_function(wrap_pyfunction!(_map_files, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    split::register(m)?;
    Ok(())
}
