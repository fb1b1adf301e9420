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
use slide::SolveError;
use slide::SolveOptions;
use slide::{
    Board, Error, Metric, Moves, Notation, Pattern, Shape, Solution, Solver, Tile, MAX_CELLS,
};

mod arrays;
mod boards;
mod direct;
mod interrupt;
mod research;
mod solution;
mod solving;
mod split;
mod toolkit;

use arrays::*;
use boards::*;
use direct::*;
use interrupt::*;
use research::*;
use solution::*;
use solving::*;
use toolkit::*;

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

/// The package's memory budget for builds in MB (`u64::MAX`: none set; set before the solver's first use).
static MAX_MEMORY_MB: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(u64::MAX);

/// The package's one solver, made at its first use.
static SOLVER: std::sync::OnceLock<Solver> = std::sync::OnceLock::new();

/// The package's solver: `$SLIDE_CACHE_DIR`, else the platform's cache directory; table files mapped when `SLIDE_MAP_FILES=1` or
/// `_map_files(True)` asked for it before the first use.
pub(crate) fn solver() -> &'static Solver {
    SOLVER.get_or_init(|| {
        let env = std::env::var("SLIDE_MAP_FILES").is_ok_and(|v| v == "1");
        let on = env || MAP_FILES.load(Ordering::Relaxed);
        MAP_FILES.store(on, Ordering::Relaxed);
        made(match MAX_MEMORY_MB.load(Ordering::Relaxed) {
            u64::MAX => None,
            mb => Some(mb.saturating_mul(1_000_000)),
        })
    })
}

/// A solver as the package makes them, with the memory budget `max_memory` (bytes; None: what the process may use, as the command line's default).
fn made(max_memory: Option<u64>) -> Solver {
    let on = MAP_FILES.load(Ordering::Relaxed);
    // The library reads no environment variable: the package, a face, does.
    let dir = std::env::var_os("SLIDE_CACHE_DIR")
        .filter(|d| !d.is_empty())
        .map_or(slide::CacheDir::Default, |d| slide::CacheDir::At(d.into()));
    // Mapped, every database file is: the workers of a node (slide.ray) share one copy, even of the 5 × 5
    // default's 3.9 GB of blank-bit tables that a lone process reads into its own memory.
    let s = Solver::builder()
        .cache_dir(dir)
        .map_files(on)
        .progress(Arc::new(BuildProgress));
    let s = match max_memory {
        None => s.max_memory_of_process(),
        Some(bytes) => s.max_memory(bytes),
    };
    if on { s.read_in_above(None) } else { s }.build()
}

/// Most distinct `max_memory=` budgets the package keeps a solver for at once.
const MAX_BUDGETS: usize = 8;

/// The solver of a call's `max_memory=` (MB, checked by the library as `slide --max-memory` is: 0 refuses every
/// build): the package's own when none is given, else one with that budget, made at its first use and kept (its
/// tables loaded apart from the package solver's: one budget for a process's calls keeps one copy).
pub(crate) fn solver_for(max_memory: Option<i128>) -> PyResult<&'static Solver> {
    let Some(mb) = max_memory else {
        return Ok(solver());
    };
    let bytes = SolveOptions::check_max_memory_mb(mb).map_err(option_err)?;
    // The package solver's settings first (map_files), read by the one made here.
    solver();
    type Kept = Vec<(u64, &'static Solver)>;
    static BUDGETS: std::sync::Mutex<Kept> = std::sync::Mutex::new(Vec::new());
    let mut kept = BUDGETS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, s)) = kept.iter().find(|(b, _)| *b == bytes) {
        return Ok(s);
    }
    if kept.len() >= MAX_BUDGETS {
        return Err(PyValueError::new_err(format!(
            "max_memory: at most {MAX_BUDGETS} different budgets in one process (each keeps its own tables): \
             use one, or slide.set_max_memory"
        )));
    }
    let s: &'static Solver = Box::leak(Box::new(made(Some(bytes))));
    kept.push((bytes, s));
    Ok(s)
}

/// Asks this process to map cached table files into memory read-only rather than read them, so that the
/// processes of a machine share one copy (slide.ray's workers do). Takes effect only before the first solve;
/// returns whether the files are mapped.
#[pyfunction]
pub(crate) fn _map_files(on: bool) -> bool {
    MAP_FILES.store(on, Ordering::Relaxed);
    solver();
    MAP_FILES.load(Ordering::Relaxed)
}

/// Refuses table and pattern-database builds that would need more than `mb` megabytes (10^6 bytes; 0 refuses every
/// build), as `slide --max-memory MB` does: a solve that needs one raises `BoardError`. The budget is the process's
/// (one solver serves every call), so it takes effect only when set before the first solve; returns whether it did.
#[pyfunction]
pub(crate) fn set_max_memory(mb: i128) -> PyResult<bool> {
    let mb = SolveOptions::check_max_memory_mb(mb).map_err(option_err)? / 1_000_000;
    if SOLVER.get().is_some() {
        return Ok(false);
    }
    MAX_MEMORY_MB.store(mb, Ordering::Relaxed);
    Ok(SOLVER.get().is_none())
}

/// The library's error as a Python exception, with `context` (for example `boards[3]`) in front when given.
/// A limit that stopped a search is `slide.LimitReached`; everything else `slide.BoardError`.
pub(crate) fn lib_err(e: Error, context: &str) -> PyErr {
    let text = if context.is_empty() {
        e.to_string()
    } else {
        format!("{context}: {e}")
    };
    match e {
        Error::Solve(SolveError::LimitReached { .. }) => LimitReached::new_err(text),
        _ => BoardError::new_err(text),
    }
}

pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// The Python module `slide._slide`.
#[pymodule]
fn _slide(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BoardError", m.py().get_type::<BoardError>())?;
    m.add("LimitReached", m.py().get_type::<LimitReached>())?;
    // For the tests: the kinds of the 4x4 MTM label tables' files (their names start with them), to tell whether they
    // are cached.
    let (first, second) =
        slide::engine::mtm::layouts(slide::Shape::new(4, 4).expect("4x4 is a shape"));
    let kinds: Vec<&str> = std::iter::once(first)
        .chain(second)
        .map(|l| l.kind())
        .collect();
    m.add("_LABEL_TABLE_KINDS_4X4", kinds)?;
    m.add("_LABEL_TABLE_ENCODING", slide::engine::mtm::LABEL_ENCODING)?;
    m.add_class::<PySolution>()?;
    m.add_class::<PyCancel>()?;
    m.add_function(wrap_pyfunction!(estimate, m)?)?;
    m.add_function(wrap_pyfunction!(_benchmark, m)?)?;
    m.add_function(wrap_pyfunction!(set_max_memory, m)?)?;
    add_sliding_puzzle(m)?;
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
    m.add_function(wrap_pyfunction!(_check_limits, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    split::register(m)?;
    Ok(())
}
