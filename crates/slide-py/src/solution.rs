//! `slide.Solution`: the answer to one board, as Python sees it (its fields, notation, pickling), filled from the
//! library's `Answer`; and an analysis as the dict of its serde form.

use super::*;
use slide::{Answer, Listing};

/// An analysis as the Python object of its serde form, the JSON object of `slide analyse --json` after its
/// `"board"`, as `json.loads` reads it: a dict with the fields in order.
pub(crate) fn analysis_dict<'py>(
    py: Python<'py>,
    a: &slide::Analysis,
) -> PyResult<Bound<'py, PyDict>> {
    let text = serde_json::to_string(a).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let value = py.import("json")?.call_method1("loads", (text,))?;
    Ok(value.downcast_into::<PyDict>()?)
}

/// The answer to one board.
///
/// `distance` is the least number of moves in `metric` (-1 when the goal cannot be reached, None when a limit
/// stopped the search: `lower_bound` then says how many moves it takes at least); `moves` lists the tiles that
/// slide into the blank, in order (None when not asked for or none exist), single-tile moves in either metric: in
/// MTM `distance` counts their maximal runs of one direction (the pushes).
#[pyclass(module = "slide", name = "Solution", frozen)]
#[derive(Clone)]
pub(crate) struct PySolution {
    /// Least number of moves (in `metric`); -1 when unsolvable; None when the search was cut short.
    #[pyo3(get)]
    pub(crate) distance: Option<i64>,
    /// How moves are counted: `"stm"` (single-tile moves) or `"mtm"` (multi-tile moves: pushes).
    #[pyo3(get)]
    pub(crate) metric: String,
    /// The tiles moved, in order (None when unsolvable, cut short, or `moves=False`).
    #[pyo3(get)]
    pub(crate) moves: Option<Vec<Tile>>,
    /// True when the answer is proven (least moves, or proven unreachable).
    #[pyo3(get)]
    pub(crate) optimal: bool,
    /// A proven lower bound on the least number of moves (equal to it when optimal).
    #[pyo3(get)]
    pub(crate) lower_bound: u64,
    /// Search nodes generated (0 for table lookups).
    #[pyo3(get)]
    pub(crate) nodes: u64,
    /// Seconds spent on this board.
    #[pyo3(get)]
    pub(crate) seconds: f64,
    /// For `within=W`: the moves are at most W times the least number.
    #[pyo3(get)]
    pub(crate) within: Option<f64>,
    /// Why the goal cannot be reached, when it cannot.
    #[pyo3(get)]
    pub(crate) unsolvable_reason: Option<String>,
    /// The board as JSON rows, the goal as JSON rows or a pattern (`1 2 3/x x x/x x x`): for `notation` and
    /// pickling.
    pub(crate) board: String,
    pub(crate) goal: String,
    /// The search heuristic's estimate of the board (a lower bound on `distance`); None when no search answered.
    #[pyo3(get)]
    pub(crate) estimate: Option<u64>,
    /// Seconds spent loading or building the tables and pattern databases the search needed (not in `seconds`).
    #[pyo3(get)]
    pub(crate) load_seconds: f64,
    /// With `count=True`: the number of distinct shortest move sequences (those found when `count_proven` is
    /// False: a limit stopped the count).
    #[pyo3(get)]
    pub(crate) count: Option<u128>,
    /// With `count=True`: whether `count` is exact.
    #[pyo3(get)]
    pub(crate) count_proven: Option<bool>,
    /// With `all=True`: the shortest solutions (at most `limit`), each the tiles moved in order.
    #[pyo3(get)]
    pub(crate) solutions: Option<Vec<Vec<Tile>>>,
    /// How the answer was found when worth saying: `"fast"` (fast mode), `"partial"` (a partial goal's table).
    #[pyo3(get)]
    pub(crate) method: Option<String>,
    /// The IDA* iterations of the search, in order: `(threshold, nodes)` (empty for table lookups, fast mode and
    /// MTM).
    #[pyo3(get)]
    pub(crate) iterations: Vec<(u32, u64)>,
}

impl PySolution {
    /// The Python object of a solution: the fields of the library's [`Answer`] (the object of `slide solve
    /// --json`), the moves only when `keep_moves`.
    pub(crate) fn new(
        s: Solution,
        board: &Board,
        goal: String,
        keep_moves: bool,
        seconds: f64,
    ) -> Self {
        let listing = if keep_moves {
            Listing::Tiles
        } else {
            Listing::Omit
        };
        let a = Answer::new(board, &s, listing);
        PySolution {
            distance: a.moves,
            metric: a.metric.name().into(),
            moves: a.solution.flatten(),
            optimal: a.optimal,
            // The answer gives a lower bound only when it is not the optimum itself.
            lower_bound: a.lower_bound.unwrap_or(s.lower_bound()),
            nodes: a.nodes,
            seconds,
            within: a.within,
            unsolvable_reason: a.reason,
            board: board.to_string(),
            goal,
            estimate: matches!(s.plan(), slide::Plan::Search(_) | slide::Plan::MtmSearch)
                .then(|| s.estimate()),
            load_seconds: 0.0,
            count: None,
            count_proven: None,
            solutions: None,
            method: a.method.map(str::to_string),
            iterations: s
                .iterations()
                .iter()
                .map(|i| (i.threshold, i.nodes))
                .collect(),
        }
    }

    pub(crate) fn distance_only(
        d: i64,
        metric: Metric,
        board: &Board,
        goal: &Board,
        seconds: f64,
    ) -> Self {
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
            estimate: None,
            load_seconds: 0.0,
            count: None,
            count_proven: None,
            solutions: None,
            method: None,
            iterations: Vec::new(),
        }
    }
}

#[pymethods]
impl PySolution {
    /// The moves written in a notation: `"tiles"` (tile numbers separated by spaces), `"long"` (each tile's
    /// direction, `U D L R`), `"short"` (the same with runs collapsed: `R3` is one multi-tile move) or `"blank"` (the
    /// blank's directions, as `slide solve --directions` prints them).
    pub(crate) fn notation(&self, name: &str) -> PyResult<String> {
        let Some(moves) = &self.moves else {
            return Err(PyValueError::new_err(if self.distance == Some(-1) {
                "no moves: the goal cannot be reached".to_string()
            } else if self.distance.is_none() {
                "no moves: the search was stopped by a limit before it found a solution".to_string()
            } else {
                "no moves kept: solve with moves=True".to_string()
            }));
        };
        let notation = name
            .parse::<Notation>()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let board = Board::parse(&self.board).map_err(|e| lib_err(e, ""))?;
        Moves::from_tiles(&board, moves)
            .and_then(|m| m.format(notation, Some(&board)))
            .map_err(|e| lib_err(e, ""))
    }

    /// The board that was solved, as a list of rows.
    #[getter]
    pub(crate) fn board(&self) -> PyResult<Vec<Vec<Tile>>> {
        Ok(Board::parse(&self.board)
            .map_err(|e| lib_err(e, ""))?
            .rows())
    }

    /// The goal, as a list of rows (`None` on the free cells of a partial goal).
    #[getter]
    pub(crate) fn goal(&self) -> PyResult<Vec<Vec<Option<Tile>>>> {
        let p = Pattern::parse(&self.goal).map_err(|e| lib_err(e, ""))?;
        Ok(p.cells()
            .chunks(p.shape().cols())
            .map(<[Option<Tile>]>::to_vec)
            .collect())
    }

    pub(crate) fn __repr__(&self) -> String {
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

    pub(crate) fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
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
    pub(crate) fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(PyObject, PyObject)> {
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
        let extra = (
            s.estimate,
            s.load_seconds,
            s.count,
            s.count_proven,
            s.solutions.clone(),
            s.method.clone(),
            s.iterations.clone(),
        );
        Ok((
            restore.unbind(),
            (state, extra).into_pyobject(py)?.into_any().unbind(),
        ))
    }

    /// The answer as a plain dict, for `json.dumps` or a pandas row (`pandas.DataFrame([s.to_dict() for s in
    /// answers])`). The keys of the library's answer (the object of `slide solve --json`): `board`, `moves` (the
    /// distance), `metric`, `optimal`, `nodes`, `seconds`, `lower_bound`, `bound` (`within`), `method`, `solution`
    /// (the tiles moved), `reason`; then `goal`, `estimate`, `load_seconds`, `count`, `count_proven`, `solutions`
    /// and `iterations` (a list of `(threshold, nodes)`). Every key is present (None where the answer has no value), so that rows share their columns.
    /// `Solution.from_dict` reads it back.
    pub(crate) fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("board", self.board()?)?;
        d.set_item("moves", self.distance)?;
        d.set_item("metric", &self.metric)?;
        d.set_item("optimal", self.optimal)?;
        d.set_item("nodes", self.nodes)?;
        d.set_item("seconds", self.seconds)?;
        d.set_item("lower_bound", self.lower_bound)?;
        d.set_item("bound", self.within)?;
        d.set_item("method", &self.method)?;
        d.set_item("solution", &self.moves)?;
        d.set_item("reason", &self.unsolvable_reason)?;
        d.set_item("goal", self.goal()?)?;
        d.set_item("estimate", self.estimate)?;
        d.set_item("load_seconds", self.load_seconds)?;
        d.set_item("count", self.count)?;
        d.set_item("count_proven", self.count_proven)?;
        d.set_item("solutions", &self.solutions)?;
        // Lists, not tuples: what json.loads gives back.
        let iterations: Vec<[u64; 2]> = self
            .iterations
            .iter()
            .map(|&(t, n)| [u64::from(t), n])
            .collect();
        d.set_item("iterations", iterations)?;
        Ok(d)
    }

    /// The answer `to_dict` wrote (its board and goal checked again).
    #[staticmethod]
    pub(crate) fn from_dict(d: &Bound<'_, PyDict>) -> PyResult<Self> {
        fn get<'py, T: FromPyObject<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
            let v = d
                .get_item(key)?
                .ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(key.to_string()))?;
            v.extract()
                .map_err(|e| PyTypeError::new_err(format!("{key}: {e}")))
        }
        let board: Vec<Vec<Tile>> = get(d, "board")?;
        let board = Board::from_rows(&board).map_err(|e| lib_err(e, "board"))?;
        let goal: Vec<Vec<Option<Tile>>> = get(d, "goal")?;
        let goal_text = goal
            .iter()
            .map(|row| {
                row.iter()
                    .map(|c| c.map_or_else(|| "x".to_string(), |t| t.to_string()))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("/");
        let pattern = Pattern::parse(&goal_text).map_err(|e| lib_err(e, "goal"))?;
        // Kept as a solve keeps it: JSON rows for a goal board, the pattern's text otherwise.
        let goal_text = pattern
            .board()
            .map_or_else(|| pattern.to_string(), |b| b.to_string());
        let metric: String = get(d, "metric")?;
        Ok(PySolution {
            distance: get(d, "moves")?,
            metric: metric_from(&metric)?.name().into(),
            moves: get(d, "solution")?,
            optimal: get(d, "optimal")?,
            lower_bound: get(d, "lower_bound")?,
            nodes: get(d, "nodes")?,
            seconds: get(d, "seconds")?,
            within: get(d, "bound")?,
            unsolvable_reason: get(d, "reason")?,
            board: board.to_string(),
            goal: goal_text,
            estimate: get(d, "estimate")?,
            load_seconds: get(d, "load_seconds")?,
            count: get(d, "count")?,
            count_proven: get(d, "count_proven")?,
            solutions: get(d, "solutions")?,
            method: get(d, "method")?,
            iterations: get::<Vec<Vec<u64>>>(d, "iterations")?
                .into_iter()
                .map(|i| match i[..] {
                    [t, n] => u32::try_from(t).map(|t| (t, n)).map_err(|_| {
                        PyValueError::new_err("iterations: a threshold beyond 32 bits")
                    }),
                    _ => Err(PyValueError::new_err(
                        "iterations: each is [threshold, nodes]",
                    )),
                })
                .collect::<PyResult<_>>()?,
        })
    }

    #[staticmethod]
    #[pyo3(signature = (state, extra=None))]
    #[allow(clippy::type_complexity)]
    pub(crate) fn _restore(
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
        extra: Option<(
            Option<u64>,
            f64,
            Option<u128>,
            Option<bool>,
            Option<Vec<Vec<Tile>>>,
            Option<String>,
            Vec<(u32, u64)>,
        )>,
    ) -> PyResult<Self> {
        let (estimate, load_seconds, count, count_proven, solutions, method, iterations) =
            extra.unwrap_or((None, 0.0, None, None, None, None, Vec::new()));
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
            estimate,
            load_seconds,
            count,
            count_proven,
            solutions,
            method,
            iterations,
        })
    }
}
