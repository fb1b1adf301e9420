//! One IDA* search split into subtrees for other processes (`slide.ray.solve`): the cut of a threshold, and the search
//! of one subtree at that threshold (the library's `SolverExt::split_threshold` and `SolverExt::search_subtree`).
//! Private to the package (underscore names): `slide.ray` drives them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use slide::Tile;
use slide::engine::{SolverExt, SubtreeResult};
use slide::SolveOptions;

use crate::{board_from, goal_for, interruptible, interruptible_until, lib_err, solver};

/// A board as rows of tiles.
type Rows = Vec<Vec<Tile>>;

/// The board (and goal) as lists of rows, checked: what `slide.ray` sends to its tasks.
#[pyfunction]
#[pyo3(signature = (board, goal=None))]
fn _rows(board: &Bound<'_, PyAny>, goal: Option<&Bound<'_, PyAny>>) -> PyResult<(Rows, Rows)> {
    let b = board_from(board, "")?;
    let g = goal_for(&b, goal, "")?;
    Ok((b.rows(), g.rows()))
}

/// Cuts one threshold (None: the first) into at least `want` subtrees: a dict with `threshold`, `estimate`,
/// `subtrees` (lists of tiles from the board), `solution` (moves, or None), `next_threshold` (or None), `nodes`.
#[pyfunction]
#[pyo3(signature = (board, goal, threshold, want))]
fn _split<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    goal: &Bound<'py, PyAny>,
    threshold: Option<u64>,
    want: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let b = board_from(board, "")?;
    let g = goal_for(&b, Some(goal), "")?;
    let cancel = AtomicBool::new(false);
    let split = interruptible(py, &cancel, || {
        solver().split_threshold(&b, &g, &SolveOptions::default(), threshold, want)
    })?
    .map_err(|e| lib_err(e, ""))?;
    let d = PyDict::new(py);
    d.set_item("threshold", split.threshold)?;
    d.set_item("estimate", split.estimate)?;
    d.set_item("subtrees", split.subtrees)?;
    d.set_item("solution", split.solution)?;
    d.set_item("next_threshold", split.next_threshold)?;
    d.set_item("nodes", split.nodes)?;
    Ok(d)
}

/// Searches the subtrees below `roots` at `threshold`, one after another, within `max_nodes` and `timeout` (for
/// them all). Returns `(status, moves, next_threshold, nodes)`: status "solved" (moves from the board),
/// "exhausted" (next_threshold: the least f over the threshold, or None) or "stopped" (a limit, or `stop`: a
/// callable asked every 100 ms whether the driver still needs this task).
#[pyfunction]
#[pyo3(signature = (board, goal, threshold, roots, max_nodes=None, timeout=None, stop=None))]
#[allow(clippy::too_many_arguments)]
#[allow(clippy::type_complexity)]
fn _search_subtrees(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    goal: &Bound<'_, PyAny>,
    threshold: u64,
    roots: Vec<Vec<Tile>>,
    max_nodes: Option<u64>,
    timeout: Option<f64>,
    stop: Option<&Bound<'_, PyAny>>,
) -> PyResult<(&'static str, Option<Vec<Tile>>, Option<u64>, u64)> {
    let b = board_from(board, "")?;
    let g = goal_for(&b, Some(goal), "")?;
    let timeout = match timeout {
        None => None,
        Some(t) if t.is_finite() && (0.0..1e12).contains(&t) => Some(Duration::from_secs_f64(t)),
        Some(t) => return Err(PyValueError::new_err(format!("bad timeout {t}"))),
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let deadline = timeout.map(|t| std::time::Instant::now() + t);
    let r = interruptible_until(py, &cancel, stop, || {
        let mut nodes = 0u64;
        let mut next: Option<u64> = None;
        for root in &roots {
            let opts = SolveOptions {
                max_nodes: max_nodes.map(|m| m.saturating_sub(nodes)),
                timeout: deadline.map(|d| d.saturating_duration_since(std::time::Instant::now())),
                cancel: Some(cancel.clone()),
                ..Default::default()
            };
            match solver().search_subtree(&b, &g, &opts, threshold, root)? {
                SubtreeResult::Solved { moves, nodes: n } => {
                    return Ok(("solved", Some(moves), None, nodes + n))
                }
                SubtreeResult::Exhausted {
                    next_threshold,
                    nodes: n,
                } => {
                    nodes += n;
                    next = match (next, next_threshold) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                }
                SubtreeResult::Stopped { nodes: n } => {
                    return Ok(("stopped", None, None, nodes + n))
                }
            }
        }
        Ok(("exhausted", None, next, nodes))
    })?;
    if cancel.load(Ordering::Relaxed) {
        return Ok(("stopped", None, None, 0)); // asked to stop: the driver does not read this answer
    }
    r.map_err(|e: slide::Error| lib_err(e, ""))
}

/// Adds the split-search functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_rows, m)?)?;
    m.add_function(wrap_pyfunction!(_split, m)?)?;
    m.add_function(wrap_pyfunction!(_search_subtrees, m)?)?;
    Ok(())
}
