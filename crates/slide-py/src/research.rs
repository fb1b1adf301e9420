//! The researcher's API: the command line's search options on `solve` and `solve_many` (checked by the library's
//! options builder and parsers), `slide.Cancel`, `slide.estimate` and the built-in benchmark sets.

use super::*;
use slide::{HeuristicChoice, Method, PartitionSpec};

/// The search options of `slide solve` as `solve` and `solve_many` take them (the flags' names in snake case):
/// values read here, ranges and sentences the library's.
#[derive(Clone, Debug)]
pub(crate) struct SearchArgs<'a> {
    pub(crate) heuristic: &'a str,
    pub(crate) partition: Option<&'a str>,
    pub(crate) reflect: bool,
    pub(crate) mixed_sums: Option<bool>,
    pub(crate) move_pruning: bool,
    pub(crate) fallback: bool,
    pub(crate) method: &'a str,
    pub(crate) max_depth: Option<i128>,
}

impl Default for SearchArgs<'_> {
    fn default() -> Self {
        SearchArgs {
            heuristic: "auto",
            partition: None,
            reflect: true,
            mixed_sums: None,
            move_pruning: true,
            fallback: false,
            method: "auto",
            max_depth: None,
        }
    }
}

/// The heuristic named `name` (the CLI's `--heuristic` values, or their long names, read by the library), with
/// `partition` (the CLI's `--pdb`: it implies pattern databases) parsed by the library.
pub(crate) fn heuristic_from(name: &str, partition: Option<&str>) -> PyResult<HeuristicChoice> {
    if let Some(p) = partition {
        return p
            .parse::<PartitionSpec>()
            .map(HeuristicChoice::Pdb)
            .map_err(|e| PyValueError::new_err(format!("partition: {e}")));
    }
    name.parse::<HeuristicChoice>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The method named `name`: `"auto"`, `"table"`, `"search"` (the CLI's `--search`) or `"fast"` (`--fast`), read
/// by the library.
pub(crate) fn method_from(name: &str) -> PyResult<Method> {
    name.parse::<Method>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

impl SearchArgs<'_> {
    /// These options set on a builder that holds the limits already.
    pub(crate) fn apply(
        &self,
        b: slide::SolveOptionsBuilder,
        budget: bool,
    ) -> PyResult<slide::SolveOptionsBuilder> {
        if self.fallback && !budget {
            return Err(PyValueError::new_err(
                "fallback needs a budget to split: timeout=SECONDS or max_nodes=N",
            ));
        }
        let mut b = b
            .heuristic(heuristic_from(self.heuristic, self.partition)?)
            .method(method_from(self.method)?)
            .reflect(self.reflect)
            .mixed_sums(self.mixed_sums)
            .move_pruning(self.move_pruning)
            .fallback(self.fallback);
        if let Some(d) = self.max_depth {
            let d = u64::try_from(d).map_err(|_| {
                PyValueError::new_err(format!(
                    "max_depth: {d} is not a whole number from 0 to {}",
                    u64::MAX
                ))
            })?;
            b = b.max_depth(d);
        }
        Ok(b)
    }
}

/// A stop button for solves, usable from any thread: pass it as `cancel=` to `solve`, `solve_many` or
/// `estimate`, and call `cancel()` (from another thread, a signal handler, a GUI) to stop them: their searches end
/// within milliseconds and answer as a limit would (`distance` None, `lower_bound` proven). Once cancelled it stays
/// so (`reset()` clears it); Ctrl-C during a solve that holds it cancels it too.
#[pyclass(module = "slide", name = "Cancel", frozen)]
pub(crate) struct PyCancel {
    pub(crate) flag: Arc<AtomicBool>,
}

#[pymethods]
impl PyCancel {
    #[new]
    fn new() -> Self {
        PyCancel {
            flag: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Stops every solve that holds this handle.
    fn cancel(&self) {
        self.flag.store(true, Ordering::SeqCst);
    }

    /// Whether `cancel()` was called.
    #[getter]
    fn cancelled(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// Clears the handle so that it can stop later solves.
    fn reset(&self) {
        self.flag.store(false, Ordering::SeqCst);
    }

    fn __repr__(&self) -> String {
        format!(
            "Cancel(cancelled={})",
            if self.cancelled() { "True" } else { "False" }
        )
    }
}

/// The flag of a `Cancel` handle, or a new one.
pub(crate) fn cancel_flag(cancel: Option<&Bound<'_, PyAny>>) -> PyResult<Arc<AtomicBool>> {
    match cancel {
        None => Ok(Arc::new(AtomicBool::new(false))),
        Some(c) => c
            .downcast::<PyCancel>()
            .map(|c| c.get().flag.clone())
            .map_err(|_| {
                PyTypeError::new_err(format!(
                    "cancel must be a slide.Cancel, not {}",
                    type_name(c)
                ))
            }),
    }
}

/// The heuristic's admissible estimate of a board: a lower bound on the least number of single-tile moves to
/// `goal` (default: tiles in order, blank last), as IDA* starts from it. Nothing is searched (a solve stopped
/// before its first iteration), but the pattern databases the heuristic needs are loaded or built, as by `solve`.
/// `heuristic` and `partition` as for `solve` (`"auto"`: pattern databases above 9 cells, linear conflicts below);
/// `reflect`, `mixed_sums`, `max_memory`, `cancel` and `progress` too.
#[pyfunction]
#[pyo3(signature = (board, goal=None, *, heuristic="auto", partition=None, reflect=true, mixed_sums=None,
    max_memory=None, cancel=None, progress=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn estimate(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    heuristic: &str,
    partition: Option<&str>,
    reflect: bool,
    mixed_sums: Option<bool>,
    max_memory: Option<i128>,
    cancel: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    let solver = solver_for(max_memory)?;
    let search = SearchArgs {
        heuristic,
        partition,
        reflect,
        mixed_sums,
        method: "search",
        ..SearchArgs::default()
    };
    let cancel = cancel_flag(cancel)?;
    let opts = search
        .apply(SolveOptions::builder().max_nodes(0), true)?
        .cancel(cancel.clone())
        .build();
    let b = board_from(board, "")?;
    let g = match goal {
        None => Board::goal(b.shape()),
        Some(g) => match goal_target(&b, Some(g), "")? {
            Target::Board(g) => g,
            Target::Pattern(_) => {
                return Err(BoardError::new_err(
                    "estimate takes a goal board, not a partial goal",
                ))
            }
        },
    };
    if b.is_solvable(&g).map_err(|e| lib_err(e, ""))? {
        let s = watched(py, &cancel, None, progress, || {
            solver.solve_with(&b, &g, &opts)
        })?
        .map_err(|e| lib_err(e, ""))?;
        Ok(s.estimate().max(s.lower_bound()))
    } else {
        Err(BoardError::new_err(
            "the goal cannot be reached from this board: it has no estimate",
        ))
    }
}

/// One benchmark instance as Python gets it: `(id, board rows, goal rows, optimal, published_nodes)`.
type InstanceTuple = (u32, Vec<Vec<Tile>>, Vec<Vec<Tile>>, u32, u64);

/// The instances of a built-in benchmark set as tuples `(id, board rows, goal rows, optimal, published_nodes)`
/// (`slide.benchmarks` names them).
#[pyfunction]
pub(crate) fn _benchmark(name: &str) -> PyResult<Vec<InstanceTuple>> {
    let set = slide::benchmarks::named(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "no benchmark set {:?}: use \"korf100\" or \"korf24\"",
            name.chars().take(24).collect::<String>()
        ))
    })?;
    Ok(set
        .into_iter()
        .map(|i| {
            let goal = Board::goal_blank_first(i.board.shape());
            (
                i.id,
                i.board.rows(),
                goal.rows(),
                i.optimal,
                i.published_nodes,
            )
        })
        .collect())
}
