//! The speedsolver's toolkit: `scramble`, `apply`, `analyse`, `hint`, `render`, `solve_stages`, `stats`.

use super::*;
use slide::{ParseError, SolveError};

/// Uniformly random solvable boards of a shape (or random walks of `walk` moves from the goal), reproducible with
/// `seed`: one board (a list of rows) when `count` is None, else a list of `count` boards. With a partial goal (a
/// pattern with `x`), uniformly random boards from which a matching board can be reached, or walks from a random
/// matching board.
#[pyfunction]
#[pyo3(signature = (shape, count=None, *, seed=None, walk=None, goal=None))]
pub(crate) fn scramble(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    count: Option<i64>,
    seed: Option<&Bound<'_, PyAny>>,
    walk: Option<&Bound<'_, PyAny>>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let seed = seed.map(|v| whole(v, "seed")).transpose()?;
    let walk = walk.map(|v| whole(v, "walk")).transpose()?;
    let shape = shape_from(shape)?;
    let g = goal_pattern(&Board::goal(shape), goal, "")?;
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
        Some(w) => {
            let start = s.matching(&g);
            s.walk(&start, w)
        }
        None => s.uniform_to(&g),
    };
    if count.is_none() {
        return Ok(one().rows().into_pyobject(py)?.into_any().unbind());
    }
    let boards: Vec<Vec<Vec<Tile>>> = (0..n).map(|_| one().rows()).collect();
    Ok(boards.into_pyobject(py)?.into_any().unbind())
}

/// `value`, the parameter `name`, as an integer from 0 to 2⁶⁴ - 1: a `ValueError` naming the parameter and the
/// range when it lies outside (Python's own `OverflowError` says neither), a `TypeError` when it is no integer.
fn whole(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    match value.extract::<u64>() {
        Ok(v) => Ok(v),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(value.py()) => {
            let text = value.str().map(|s| s.to_string()).unwrap_or_default();
            let shown: String = text.chars().take(24).collect();
            Err(PyValueError::new_err(format!(
                "{name} must be an integer from 0 to {}, not {shown}",
                u64::MAX
            )))
        }
        Err(_) => Err(PyTypeError::new_err(format!(
            "{name} must be an integer, not {}",
            type_name(value)
        ))),
    }
}

/// Moves read from `moves` and checked against `board` (every move legal): a string in any notation the library
/// reads (tile numbers `"5 4 1"`, tile letters long or short `"RRU"`, `"R2U"`, or the blank's letters with
/// `blank`), or a list of tile numbers. A bad move is named as it was written (`moves: move 3 'U': …`,
/// `moves[2]: …`).
pub(crate) fn moves_from(board: &Board, moves: &Bound<'_, PyAny>, blank: bool) -> PyResult<Moves> {
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
                Error::Parse(ParseError::TooManyMoves {
                    max: notation::MAX_MOVES,
                }),
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
pub(crate) fn apply(
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
/// and `max_nodes` (each search), which raise `LimitReached` when they stop one. A partial goal (a pattern with
/// `x`): distances to the nearest matching board (`Solver::analyse_pattern`).
#[pyfunction]
#[pyo3(signature = (board, moves, goal=None, blank=false, *, timeout=None, max_nodes=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn analyse<'py>(
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
    let g = goal_pattern(&b, goal, "")?;
    let m = moves_from(&b, moves, blank)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let opts = ask.options(&cancel, true);
    let a = interruptible(py, &cancel, || solver().analyse_pattern(&b, &g, &m, &opts))?
        .map_err(|e| lib_err(e, ""))?;
    analysis_dict(py, &a)
}

/// `(distance, tiles)`: the least number of moves from `board` to the goal in `metric` (0 on it, -1 when it
/// cannot be reached) and every tile whose move starts a shortest solution, ascending (the library's
/// `Solver::hint`); in `metric="mtm"` a move is a push, named by the tile farthest from the blank that it slides.
/// Exact from the tables up to 12 cells; above, by IDA* under `timeout` and `max_nodes` (each search), which
/// raise `LimitReached` when they stop one. A partial goal (a pattern with `x`): the least number of moves to any
/// matching board (`Solver::hint_pattern`).
#[pyfunction]
#[pyo3(signature = (board, goal=None, *, metric="stm", timeout=None, max_nodes=None))]
pub(crate) fn hint(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    metric: &str,
    timeout: Option<f64>,
    max_nodes: Option<i128>,
) -> PyResult<(i64, Vec<Tile>)> {
    let ask = Ask::new(metric, true, timeout, max_nodes, None)?;
    let b = board_from(board, "")?;
    let g = goal_pattern(&b, goal, "")?;
    let cancel = Arc::new(AtomicBool::new(false));
    let opts = ask.options(&cancel, true);
    let h = interruptible(py, &cancel, || solver().hint_pattern(&b, &g, &opts))?
        .map_err(|e| lib_err(e, ""))?;
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
pub(crate) fn render<'py>(
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
    let pattern = goal_pattern(&b, goal, "")?;
    // The fringe colours' home cells: the goal board, or a matching board the board can reach.
    let g = pattern
        .board()
        .or_else(|| pattern.completion(&b))
        .unwrap_or_else(|| pattern.filled());
    // Values past u32 are out of every range: say so with the value given (in range, the library checks).
    let small = |v: i64, what: &str, range: String| {
        u32::try_from(v).map_err(|_| {
            lib_err(
                Error::Solve(SolveError::InvalidOption {
                    option: what.into(),
                    reason: format!("{v} is out of range: {range}"),
                }),
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
            let s = interruptible(py, &cancel, || match pattern.board() {
                Some(g) => solver().solve_with(&b, &g, &opts),
                None => solver().solve_pattern(&b, &pattern, &opts),
            })?
            .map_err(|e| lib_err(e, ""))?;
            let Some(tiles) = s.moves() else {
                return Err(BoardError::new_err(format!(
                    "solve=True: {}",
                    s.unsolvable_reason().unwrap_or("no solution found")
                )));
            };
            Some(Moves::from_tiles(&b, tiles).map_err(|e| lib_err(e, ""))?)
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
pub(crate) fn solve_stages(
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
        let next = match s.moves() {
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
/// boards. With a partial goal (a pattern with `x`), the same over the pattern's states (where its named tiles and
/// the blank stand; the shape may then have up to 64 cells, within the memory budget), the farthest states as rows
/// with None for any other tile (`Solver::pattern_stats`).
#[pyfunction]
#[pyo3(signature = (shape, goal=None, *, metric="stm"))]
pub(crate) fn stats<'py>(
    py: Python<'py>,
    shape: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    metric: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let metric = metric_from(metric)?;
    let shape = shape_from(shape)?;
    let pattern = goal_pattern(&Board::goal(shape), goal, "")?;
    if pattern.board().is_none() {
        let cancel = AtomicBool::new(false);
        let st = interruptible(py, &cancel, || solver().pattern_stats(&pattern, metric))?
            .map_err(|e| lib_err(e, ""))?;
        let d = PyDict::new(py);
        d.set_item("states", st.states)?;
        d.set_item("diameter", st.diameter())?;
        d.set_item("histogram", st.histogram.clone())?;
        let cols = shape.cols();
        let antipodes: Vec<Vec<Vec<Option<Tile>>>> = st
            .antipodes
            .iter()
            .map(|p| p.cells().chunks(cols).map(<[Option<Tile>]>::to_vec).collect())
            .collect();
        d.set_item("antipodes", antipodes)?;
        return Ok(d);
    }
    if shape.cells() > slide::engine::table::MAX_TABLE_CELLS && !shape.is_line() {
        return Err(BoardError::new_err(format!(
            "stats covers shapes of at most {} cells (and single rows or columns); {shape} has {}",
            slide::engine::table::MAX_TABLE_CELLS,
            shape.cells()
        )));
    }
    let g = pattern.board().unwrap_or_else(|| Board::goal(shape));
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
