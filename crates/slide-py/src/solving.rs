//! `solve`, `solve_many` and `sliding_puzzle`: the options they take, checked once (`Ask`), and the solves.

use super::*;

/// What `solve` and `solve_many` were asked, checked once, by the library's options builder (the same ranges and
/// sentences as the command line and the server).
#[derive(Clone)]
pub(crate) struct Ask {
    pub(crate) metric: Metric,
    pub(crate) moves: bool,
    pub(crate) within: Option<f64>,
    /// The options built from the limits asked for (no cancel flag yet).
    base: SolveOptions,
}

/// The metric named `metric`: `"stm"` or `"mtm"` (any case).
pub(crate) fn metric_from(metric: &str) -> PyResult<Metric> {
    metric.parse::<Metric>().map_err(|_| {
        let shown: String = metric.chars().take(24).collect();
        PyValueError::new_err(format!(
            "unknown metric {shown:?}: use \"stm\" (single-tile moves) or \"mtm\" (multi-tile moves)"
        ))
    })
}

/// An option the library refused, as a `ValueError` naming the Python parameter (`within` is the library's
/// `weight`) before the library's sentence.
fn option_err(e: slide::OptionError) -> PyErr {
    let name = match e.option {
        "weight" => "within",
        other => other,
    };
    PyValueError::new_err(format!("{name}: {}", e.reason()))
}

/// The limits as the library's builder checks them: `timeout` (seconds) and `max_nodes`; `within` above 1.
pub(crate) fn checked_options(
    timeout: Option<f64>,
    max_nodes: Option<i128>,
    within: Option<f64>,
) -> PyResult<SolveOptions> {
    let mut b = SolveOptions::builder();
    if let Some(t) = timeout {
        b = b.timeout_secs(t).map_err(option_err)?;
    }
    if let Some(n) = max_nodes {
        b = b.max_nodes(SolveOptions::check_max_nodes(n).map_err(option_err)?);
    }
    if let Some(w) = within {
        let w = SolveOptions::check_weight(w).map_err(option_err)?;
        if w > 1.0 {
            b = b.weight(w).map_err(option_err)?;
        }
    }
    Ok(b.build())
}

/// Checks `timeout` and `max_nodes` as `solve` does (for slide.ray, which splits them itself).
#[pyfunction]
#[pyo3(signature = (timeout=None, max_nodes=None))]
pub(crate) fn _check_limits(timeout: Option<f64>, max_nodes: Option<i128>) -> PyResult<()> {
    checked_options(timeout, max_nodes, None).map(|_| ())
}

impl Ask {
    pub(crate) fn new(
        metric: &str,
        moves: bool,
        timeout: Option<f64>,
        max_nodes: Option<i128>,
        within: Option<f64>,
    ) -> PyResult<Ask> {
        let metric = metric_from(metric)?;
        let base = checked_options(timeout, max_nodes, within)?;
        Ok(Ask {
            metric,
            moves,
            within: base.weight,
            base,
        })
    }

    pub(crate) fn options(&self, cancel: &Arc<AtomicBool>, parallel: bool) -> SolveOptions {
        SolveOptions {
            metric: self.metric,
            cancel: Some(cancel.clone()),
            parallel,
            ..self.base.clone()
        }
    }

    /// True when a table lookup answers at once (no search, no long build).
    pub(crate) fn quick(&self, board: &Board) -> bool {
        board.shape().cells() <= 10 && self.within.is_none()
    }
}


/// Solves one board towards a goal board or a partial goal (no GIL held).
pub(crate) fn solve_one(
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
pub(crate) fn sliding_puzzle(py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<i64> {
    if let Some(d) = quick_distance(board) {
        return Ok(d);
    }
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
pub(crate) fn solve(
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
pub(crate) fn pool(threads: Option<i64>) -> PyResult<Option<rayon::ThreadPool>> {
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
pub(crate) fn solve_many(
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
