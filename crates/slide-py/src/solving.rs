//! `solve`, `solve_many` and `sliding_puzzle`: the options they take, checked once (`Ask`), and the solves.

use super::*;

/// What `solve` and `solve_many` were asked, checked once, by the library's options builder (the same ranges and
/// sentences as the command line and the server).
#[derive(Clone)]
pub(crate) struct Ask {
    pub(crate) metric: Metric,
    pub(crate) moves: bool,
    pub(crate) within: Option<f64>,
    /// `count=True`: also count the shortest solutions.
    pub(crate) count: bool,
    /// `all=True`: also list the shortest solutions, at most `limit` of them.
    pub(crate) all: Option<usize>,
    /// True when a search option other than the limits was given: no quick table answer then.
    pub(crate) searching: bool,
    /// The options built from the limits and search options asked for (no cancel flag yet).
    base: SolveOptions,
    /// The solver that answers: the package's, or one with the call's `max_memory` ([`solver_for`]).
    pub(crate) solver: &'static Solver,
}

/// The metric named `metric`: `"stm"` or `"mtm"` (any case), read by the library (its sentence for others).
pub(crate) fn metric_from(metric: &str) -> PyResult<Metric> {
    metric
        .parse::<Metric>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// An option the library refused, as a `ValueError` naming the Python parameter (`within` is the library's
/// `weight`) before the library's sentence.
pub(crate) fn option_err(e: slide::OptionError) -> PyErr {
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
        Ask::with(
            metric,
            moves,
            timeout,
            max_nodes,
            within,
            &SearchArgs::default(),
            false,
            None,
        )
    }

    /// The limits, the search options of `slide solve` (`search`), `count` and `all` (at most `limit`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn with(
        metric: &str,
        moves: bool,
        timeout: Option<f64>,
        max_nodes: Option<i128>,
        within: Option<f64>,
        search: &SearchArgs<'_>,
        count: bool,
        all: Option<usize>,
    ) -> PyResult<Ask> {
        let metric = metric_from(metric)?;
        let limits = checked_options(timeout, max_nodes, within)?;
        let budget = limits.timeout.is_some() || limits.max_nodes.is_some();
        let mut b = SolveOptions::builder();
        if let Some(t) = timeout {
            b = b.timeout_secs(t).map_err(option_err)?;
        }
        if let Some(n) = limits.max_nodes {
            b = b.max_nodes(n);
        }
        if let Some(w) = limits.weight {
            b = b.weight(w).map_err(option_err)?;
        }
        let base = search.apply(b, budget)?.build();
        let searching = search.heuristic != "auto"
            || search.partition.is_some()
            || search.method != "auto"
            || search.max_depth.is_some()
            || count
            || all.is_some();
        Ok(Ask {
            metric,
            moves,
            within: base.weight,
            count,
            all,
            searching,
            base,
            solver: solver(),
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
        board.shape().cells() <= 10 && self.within.is_none() && !self.searching
    }
}

/// Solves one board towards a goal board or a partial goal (no GIL held). A search's databases are loaded first, by
/// a solve stopped before its first iteration (which also gives the heuristic's estimate), so that `seconds` is the
/// search's own time and `load_seconds` the load's.
pub(crate) fn solve_one(
    board: &Board,
    target: &Target,
    ask: &Ask,
    cancel: &Arc<AtomicBool>,
    parallel: bool,
) -> Result<PySolution, Error> {
    let t0 = Instant::now();
    let solver = ask.solver;
    let opts = ask.options(cancel, parallel);
    let (s, load, estimate, extra) = match target {
        Target::Board(goal) => {
            if !ask.moves && ask.within.is_none() && !ask.searching && board.shape().cells() <= 12 {
                let d = solver.distance_in(board, goal, ask.metric)?;
                return Ok(PySolution::distance_only(
                    d,
                    ask.metric,
                    board,
                    goal,
                    t0.elapsed().as_secs_f64(),
                ));
            }
            let (load, estimate) = match solver.plan(board, goal, &opts)? {
                slide::Plan::Search(_) | slide::Plan::MtmSearch => {
                    let first = SolveOptions {
                        max_nodes: Some(0),
                        fallback: false,
                        ..opts.clone()
                    };
                    let e = solver.solve_with(board, goal, &first)?.estimate();
                    (t0.elapsed().as_secs_f64(), Some(e))
                }
                _ => (0.0, None),
            };
            let extra = Extra {
                count: if ask.count {
                    Some(solver.count_optimal_with(board, goal, &opts)?)
                } else {
                    None
                },
                solutions: match ask.all {
                    Some(limit) => Some(solver.optimal_solutions_with(board, goal, limit, &opts)?),
                    None => None,
                },
            };
            (
                solver.solve_with(board, goal, &opts)?,
                load,
                estimate,
                extra,
            )
        }
        Target::Pattern(p) => {
            // count and all were refused for partial goals before the solve (`refuse_counting`).
            (
                solver.solve_pattern(board, p, &opts)?,
                0.0,
                None,
                Extra::default(),
            )
        }
    };
    let seconds = t0.elapsed().as_secs_f64() - load;
    let mut py = PySolution::new(s, board, target.text(), ask.moves, seconds);
    py.load_seconds = load;
    if estimate.is_some() {
        py.estimate = estimate;
    }
    py.count = extra.count.as_ref().map(|c| c.count);
    py.count_proven = extra.count.as_ref().map(|c| c.proven);
    py.solutions = extra.solutions;
    Ok(py)
}

/// `count` and `all` take a goal board: refused for a partial goal.
pub(crate) fn refuse_counting(ask: &Ask, target: &Target, context: &str) -> PyResult<()> {
    if (ask.count || ask.all.is_some()) && matches!(target, Target::Pattern(_)) {
        let at = if context.is_empty() {
            String::new()
        } else {
            format!("{context}: ")
        };
        return Err(PyValueError::new_err(format!(
            "{at}count and all take one goal board: a partial goal is answered exactly (its pattern's table, or IDA*)"
        )));
    }
    Ok(())
}

/// What `count=True` and `all=True` add to an answer.
#[derive(Default)]
struct Extra {
    count: Option<slide::Count>,
    solutions: Option<Vec<Vec<Tile>>>,
}

/// `slide.sliding_puzzle` past its quick answer ([`add_sliding_puzzle`] defines the Python function): the least
/// number of moves that solves a board (goal: tiles in order, blank last), or -1 when it cannot be solved, for
/// every shape of at most 12 cells (larger boards are searched optimally, which can take long).
pub(crate) fn sliding_puzzle_full(py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<i64> {
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
///
/// The search options of `slide solve`, by the same names: `heuristic` (`"auto"`, `"md"`/`"manhattan"`,
/// `"lc"`/`"linear-conflict"`, `"pdb"`), `partition` (`--pdb`: `"6-6-3"`, `"zb7-8"`, ...; implies `"pdb"`),
/// `reflect` (False: `--no-reflect`), `mixed_sums` (None: auto), `move_pruning` (False: `--no-move-pruning`),
/// `fallback`, `method` (`"auto"`, `"table"`, `"search"`, `"fast"`), `max_depth` (give up past this many moves),
/// `count`, `all` and `limit`. `threads`: one search shared by a pool of that many threads (0 to 256, as
/// `slide solve --threads`; default or 0: all cores);
/// `threads=1` searches on one thread, its node counts the same run after run. `cancel`: a `slide.Cancel`.
/// `max_memory`: refuse table and pattern-database builds that need more than this many MB, as `slide --max-memory`
/// (for this call; `slide.set_max_memory` sets the process's default).
/// `progress`: a callable, called as `progress(phase, done, total)` (with the GIL, at most every 100 ms) while the
/// tables or pattern databases the search needs are built, and as `progress("search", nodes, threshold)` while it
/// searches (each iteration's start, about every 0.25 s during a long one, and its final count: the answer's
/// `nodes`).
#[pyfunction]
#[pyo3(signature = (board, goal=None, *, metric="stm", moves=true, timeout=None, max_nodes=None, within=None,
    heuristic="auto", partition=None, reflect=true, mixed_sums=None, move_pruning=true, fallback=false,
    method="auto", max_depth=None, threads=None, count=false, all=false, limit=1000, max_memory=None, cancel=None,
    progress=None))]
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
    heuristic: &str,
    partition: Option<&str>,
    reflect: bool,
    mixed_sums: Option<bool>,
    move_pruning: bool,
    fallback: bool,
    method: &str,
    max_depth: Option<i128>,
    threads: Option<i128>,
    count: bool,
    all: bool,
    limit: usize,
    max_memory: Option<i128>,
    cancel: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<PySolution> {
    let search = SearchArgs {
        heuristic,
        partition,
        reflect,
        mixed_sums,
        move_pruning,
        fallback,
        method,
        max_depth,
    };
    let mut ask = Ask::with(
        metric,
        moves,
        timeout,
        max_nodes,
        within,
        &search,
        count,
        all.then_some(limit),
    )?;
    ask.solver = solver_for(max_memory)?;
    let cancel = cancel_flag(cancel)?;
    let pool = pool(threads)?;
    let b = board_from(board, "")?;
    let g = goal_target(&b, goal, "")?;
    refuse_counting(&ask, &g, "")?;
    let parallel = threads != Some(1);
    let r = if ask.quick(&b) && matches!(g, Target::Board(_)) {
        solve_one(&b, &g, &ask, &cancel, false)
    } else {
        watched(py, &cancel, None, progress, || match &pool {
            Some(p) => p.install(|| solve_one(&b, &g, &ask, &cancel, parallel)),
            None => solve_one(&b, &g, &ask, &cancel, parallel),
        })?
    };
    r.map_err(|e| lib_err(e, ""))
}

/// A rayon pool of `threads` threads, or None for the global pool (`threads` None or 0: all cores); the range is
/// the library's ([`slide::SolveOptions::check_threads`]: 0 to 256, as `slide solve --threads`).
pub(crate) fn pool(threads: Option<i128>) -> PyResult<Option<rayon::ThreadPool>> {
    let Some(n) = threads else {
        return Ok(None);
    };
    match SolveOptions::check_threads(n).map_err(option_err)? {
        0 => Ok(None),
        n => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map(Some)
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start {n} threads: {e}"))),
    }
}

/// Solves many boards in parallel; the answers come back in input order. Options as `solve` (a partial goal,
/// `metric="mtm"`, the search options), limits for each board; `threads`: the pool's size.
///
/// `_stop` is slide.ray's: a callable asked every 100 ms whether to stop. Once it answers true (or raises), the
/// boards not answered yet come back stopped: the caller (slide.ray's task) knows it asked and returns no answer.
#[pyfunction]
#[pyo3(signature = (boards, goal=None, *, threads=None, metric="stm", moves=true, timeout=None, max_nodes=None,
    within=None, heuristic="auto", partition=None, reflect=true, mixed_sums=None, move_pruning=true,
    fallback=false, method="auto", max_depth=None, count=false, all=false, limit=1000, max_memory=None, cancel=None,
    progress=None, _stop=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_many(
    py: Python<'_>,
    boards: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    threads: Option<i128>,
    metric: &str,
    moves: bool,
    timeout: Option<f64>,
    max_nodes: Option<i128>,
    within: Option<f64>,
    heuristic: &str,
    partition: Option<&str>,
    reflect: bool,
    mixed_sums: Option<bool>,
    move_pruning: bool,
    fallback: bool,
    method: &str,
    max_depth: Option<i128>,
    count: bool,
    all: bool,
    limit: usize,
    max_memory: Option<i128>,
    cancel: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
    _stop: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<PySolution>> {
    let search = SearchArgs {
        heuristic,
        partition,
        reflect,
        mixed_sums,
        move_pruning,
        fallback,
        method,
        max_depth,
    };
    let mut ask = Ask::with(
        metric,
        moves,
        timeout,
        max_nodes,
        within,
        &search,
        count,
        all.then_some(limit),
    )?;
    ask.solver = solver_for(max_memory)?;
    let cancel = cancel_flag(cancel)?;
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
        refuse_counting(&ask, &g, &ctx)?;
        jobs.push((board, g));
    }
    let pool = pool(threads)?;
    let width = pool
        .as_ref()
        .map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
    // Few boards: each search is shared among the threads instead (the same lengths, sooner).
    let parallel = jobs.len() < 64.min(4 * width).max(2) && width > 1;
    let work = || -> Vec<Result<PySolution, Error>> {
        jobs.par_iter()
            .map(|(b, g)| solve_one(b, g, &ask, &cancel, parallel))
            .collect()
    };
    let results = watched(py, &cancel, _stop, progress, || match &pool {
        Some(p) => p.install(work),
        None => work(),
    })?;
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.map_err(|e| lib_err(e, &format!("boards[{i}]"))))
        .collect()
}
