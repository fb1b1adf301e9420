//! `slide.Solution`: the answer to one board, as Python sees it (its fields, notation, pickling), filled from the
//! library's `Answer`; and an analysis as the dict of its serde form.

use super::*;
use slide::{Answer, Listing};

/// An analysis as the Python object of its serde form, the JSON object of `slide analyse --json` after its
/// `"board"`, as `json.loads` reads it: a dict with the fields in order.
pub(crate) fn analysis_dict<'py>(py: Python<'py>, a: &slide::Analysis) -> PyResult<Bound<'py, PyDict>> {
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
}

impl PySolution {
    /// The Python object of a solution: the fields of the library's [`Answer`] (the object of `slide solve
    /// --json`), the moves only when `keep_moves`.
    pub(crate) fn new(s: Solution, board: &Board, goal: String, keep_moves: bool, seconds: f64) -> Self {
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
        }
    }

    pub(crate) fn distance_only(d: i64, metric: Metric, board: &Board, goal: &Board, seconds: f64) -> Self {
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
        Ok((
            restore.unbind(),
            (state,).into_pyobject(py)?.into_any().unbind(),
        ))
    }

    #[staticmethod]
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
