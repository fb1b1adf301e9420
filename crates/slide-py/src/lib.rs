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
use pyo3::types::{PyBool, PyDict, PyList, PyString, PyTuple};
use rayon::prelude::*;
use slide::engine::frame::Frame;
use slide::Scrambler;
use slide::SolveOptions;
use slide::{Board, Error, Shape, Solution, Solver, Tile, MAX_CELLS};

mod split;

// Module `slide`, where the class is found: pickling (Ray sends exceptions between processes) names it by module.
create_exception!(
    slide,
    BoardError,
    PyValueError,
    "A board, goal or request that slide cannot take; the message names what is wrong."
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
        Solver::with_options(dir, std::sync::Arc::new(slide::NoProgress)).map_files(on)
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
fn lib_err(e: Error, context: &str) -> PyErr {
    if context.is_empty() {
        BoardError::new_err(e.to_string())
    } else {
        BoardError::new_err(format!("{context}: {e}"))
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

/// The goal for `board`: the default one, or `goal` read like a board and checked to have the same shape.
fn goal_for(board: &Board, goal: Option<&Bound<'_, PyAny>>, context: &str) -> PyResult<Board> {
    match goal {
        None => Ok(Board::goal(board.shape())),
        Some(g) if g.is_none() => Ok(Board::goal(board.shape())),
        Some(g) => {
            let ctx = if context.is_empty() {
                "goal".to_string()
            } else {
                format!("{context} goal")
            };
            let goal = board_from(g, &ctx)?;
            if goal.shape() != board.shape() {
                return Err(lib_err(
                    Error::ShapeMismatch {
                        board: board.shape(),
                        goal: goal.shape(),
                    },
                    context,
                ));
            }
            Ok(goal)
        }
    }
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
    moves: bool,
    timeout: Option<Duration>,
    max_nodes: Option<u64>,
    within: Option<f64>,
}

fn check_metric(metric: &str) -> PyResult<()> {
    match metric.to_ascii_lowercase().as_str() {
        "stm" => Ok(()),
        "mtm" => Err(PyValueError::new_err(
            "metric \"mtm\" (multi-tile moves) is not available yet in this version of slide; use \"stm\"",
        )),
        other => Err(PyValueError::new_err(format!(
            "unknown metric {other:?}: use \"stm\" (single-tile moves)"
        ))),
    }
}

impl Ask {
    fn new(
        metric: &str,
        moves: bool,
        timeout: Option<f64>,
        max_nodes: Option<i128>,
        within: Option<f64>,
    ) -> PyResult<Ask> {
        check_metric(metric)?;
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
            moves,
            timeout,
            max_nodes,
            within: within.filter(|&w| w > 1.0),
        })
    }

    fn options(&self, cancel: &Arc<AtomicBool>, parallel: bool) -> SolveOptions {
        SolveOptions {
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
/// `distance` is the least number of moves (-1 when the goal cannot be reached, None when a limit stopped the
/// search: `lower_bound` then says how many moves it takes at least); `moves` lists the tiles that slide into the
/// blank, in order (None when not asked for or none exist).
#[pyclass(module = "slide", name = "Solution", frozen)]
#[derive(Clone)]
struct PySolution {
    /// Least number of moves; -1 when unsolvable; None when the search was cut short.
    #[pyo3(get)]
    distance: Option<i64>,
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
    /// The board and goal, as JSON rows (for `notation` and pickling).
    board: String,
    goal: String,
}

impl PySolution {
    fn new(s: Solution, board: &Board, goal: &Board, keep_moves: bool, seconds: f64) -> Self {
        let stopped = s.moves.is_none() && !s.is_unsolvable();
        PySolution {
            distance: if stopped {
                None
            } else if s.is_unsolvable() {
                Some(-1)
            } else {
                s.length().map(|l| l as i64)
            },
            moves: if keep_moves { s.moves } else { None },
            optimal: s.optimal,
            lower_bound: s.lower_bound,
            nodes: s.nodes,
            seconds,
            within: s.within,
            unsolvable_reason: s.unsolvable_reason,
            board: board.to_string(),
            goal: goal.to_string(),
        }
    }

    fn distance_only(d: i64, board: &Board, goal: &Board, seconds: f64) -> Self {
        let unsolvable_reason = if d < 0 {
            board.unsolvable_reason(goal).ok().flatten()
        } else {
            None
        };
        PySolution {
            distance: Some(d),
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
    /// The moves written in a notation: `"tiles"` (tile numbers separated by spaces) or `"blank"` (the blank's
    /// directions, `U D L R`, as `slide solve --directions` prints them).
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
        match name {
            "tiles" => Ok(moves
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(" ")),
            "blank" => {
                let board = Board::parse(&self.board).map_err(|e| lib_err(e, ""))?;
                let s = Solution::from_moves(moves.clone(), self.optimal);
                let dirs = s.directions(&board).map_err(|e| lib_err(e, ""))?;
                Ok(dirs.iter().map(|d| d.letter()).collect())
            }
            other => Err(PyValueError::new_err(format!(
                "notation {other:?} is not available in this version of slide (available: \"tiles\", \"blank\")"
            ))),
        }
    }

    /// The board that was solved, as a list of rows.
    #[getter]
    fn board(&self) -> PyResult<Vec<Vec<Tile>>> {
        Ok(Board::parse(&self.board)
            .map_err(|e| lib_err(e, ""))?
            .rows())
    }

    /// The goal, as a list of rows.
    #[getter]
    fn goal(&self) -> PyResult<Vec<Vec<Tile>>> {
        Ok(Board::parse(&self.goal).map_err(|e| lib_err(e, ""))?.rows())
    }

    fn __repr__(&self) -> String {
        let d = match self.distance {
            Some(d) => d.to_string(),
            None => format!(">={}", self.lower_bound),
        };
        format!(
            "Solution(distance={d}, optimal={}, moves={}, nodes={}, seconds={:.6})",
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
                &o.moves,
                o.optimal,
                o.lower_bound,
                &o.board,
                &o.goal,
            ) == (
                &self.distance,
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
        ) = state;
        Board::parse(&board).map_err(|e| lib_err(e, "board"))?;
        Board::parse(&goal).map_err(|e| lib_err(e, "goal"))?;
        Ok(PySolution {
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
        })
    }
}

/// Solves one board (no GIL held).
fn solve_one(
    board: &Board,
    goal: &Board,
    ask: &Ask,
    cancel: &Arc<AtomicBool>,
    parallel: bool,
) -> Result<PySolution, Error> {
    let t0 = Instant::now();
    let solver = solver();
    if !ask.moves && ask.within.is_none() && board.shape().cells() <= 12 {
        let d = solver.distance(board, goal)?;
        return Ok(PySolution::distance_only(
            d,
            board,
            goal,
            t0.elapsed().as_secs_f64(),
        ));
    }
    let opts = ask.options(cancel, parallel);
    let s = solver.solve_with(board, goal, &opts)?;
    Ok(PySolution::new(
        s,
        board,
        goal,
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
    let s = interruptible(py, &cancel, || solve_one(&b, &goal, &ask, &cancel, true))?
        .map_err(|e| lib_err(e, ""))?;
    Ok(s.distance.unwrap_or(-1))
}

/// Solves one board towards `goal` (default: tiles in order, blank last).
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
    let g = goal_for(&b, goal, "")?;
    let cancel = Arc::new(AtomicBool::new(false));
    let r = if ask.quick(&b) {
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

/// Solves many boards in parallel; the answers come back in input order.
///
/// `_stop` is slide.ray's: a callable asked every 100 ms whether to stop (then the boards not answered yet raise
/// `BoardError`).
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
    let mut jobs: Vec<(Board, Board)> = Vec::new();
    for (i, b) in iter.enumerate() {
        let ctx = format!("boards[{i}]");
        let board = board_from(&b?, &ctx)?;
        let g = goal_for(&board, goal, &ctx)?;
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
    to_canon: Vec<u8>,
    cell_map: Vec<u8>,
    table: Option<Arc<slide::engine::table::CompleteTable>>,
}

impl Lookup {
    fn new(shape: Shape, goal: &Board) -> Result<Lookup, Error> {
        let n = shape.cells();
        let table_shape = !shape.is_line() && n <= slide::engine::table::MAX_TABLE_CELLS;
        if !table_shape {
            return Ok(Lookup {
                n,
                to_canon: vec![],
                cell_map: vec![],
                table: None,
            });
        }
        let frame = Frame::new(goal);
        let table = solver().table(frame.shape(), frame.blank_goal())?.clone();
        let mut to_canon = vec![0u8; n];
        for c in 0..n {
            to_canon[frame.tile(c as Tile) as usize] = c as u8;
        }
        let cell_map = (0..n).map(|c| frame.cell(c) as u8).collect();
        Ok(Lookup {
            n,
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
                .distance(&b, goal)
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
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let arr = arr.downcast::<PyArrayDyn<T>>()?.readonly();
    let view = arr.as_array();
    let count = view.shape()[0];
    let n = shape.cells();
    let cancel = AtomicBool::new(false);
    let result: Result<Vec<i32>, (usize, Option<Error>)> = interruptible(py, &cancel, || {
        let lookup = Lookup::new(shape, goal).map_err(|e| (usize::MAX, Some(e)))?;
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
                Ok(b) => match solver().distance(&b, goal) {
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

/// The least number of moves of every board of an integer NumPy array of shape (N, R, C), or (N, R·C) with
/// `shape` given: an int32 array of N distances (-1 where the goal cannot be reached).
#[pyfunction]
#[pyo3(signature = (array, shape=None, goal=None))]
fn distances<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    shape: Option<&Bound<'py, PyAny>>,
    goal: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
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
    let goal = match goal {
        None => Board::goal(shape),
        Some(g) => {
            let g = board_from(g, "goal")?;
            if g.shape() != shape {
                return Err(lib_err(
                    Error::ShapeMismatch {
                        board: shape,
                        goal: g.shape(),
                    },
                    "",
                ));
            }
            g
        }
    };
    macro_rules! go {
        ($($t:ty),*) => {$(
            if array.downcast::<PyArrayDyn<$t>>().is_ok() {
                return distances_typed::<$t>(py, array, shape, &goal);
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

/// The board after the moves (tile numbers, each sliding into the blank), as a list of rows.
#[pyfunction]
fn apply(board: &Bound<'_, PyAny>, moves: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<Tile>>> {
    let mut b = board_from(board, "")?;
    if moves.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "moves must be a list of tile numbers, not a string",
        ));
    }
    let iter = moves.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "moves must be a list of tile numbers, not {}",
            type_name(moves)
        ))
    })?;
    for (i, t) in iter.enumerate() {
        let t = tile_value(&t?, 1, i + 1, "")?;
        let tile = u32::try_from(t)
            .map_err(|_| BoardError::new_err(format!("moves[{i}]: no tile {t} on the board")))?;
        b.apply(tile)
            .map_err(|e| lib_err(e, &format!("moves[{i}]")))?;
    }
    Ok(b.rows())
}

/// Facts about every board of a shape (at most 12 cells, or a single row or column): the number of solvable boards,
/// the number at each distance, god's number (the diameter) and some farthest boards.
#[pyfunction]
#[pyo3(signature = (shape, goal=None))]
fn stats<'py>(
    py: Python<'py>,
    shape: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
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
    let st = interruptible(py, &cancel, || solver().stats(&g))?.map_err(|e| lib_err(e, ""))?;
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
    m.add_class::<PySolution>()?;
    m.add_function(wrap_pyfunction!(sliding_puzzle, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(distances, m)?)?;
    m.add_function(wrap_pyfunction!(scramble, m)?)?;
    m.add_function(wrap_pyfunction!(apply, m)?)?;
    m.add_function(wrap_pyfunction!(stats, m)?)?;
    m.add_function(wrap_pyfunction!(_map_files, m)?)?;
    split::register(m)?;
    Ok(())
}
