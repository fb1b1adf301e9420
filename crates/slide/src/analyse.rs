//! Judging play and listing shortest solutions: a move sequence analysed move by move ([`Solver::analyse`]: the
//! distance after each move, the mistakes, the moves over the optimum), the moves that start a shortest solution
//! ([`Solver::hint`]), and the number and the list of every shortest solution ([`Solver::count_optimal`],
//! [`Solver::optimal_solutions`]).
//!
//! Exact for every shape with a complete table (at most 12 cells, from the table) and for single rows and columns;
//! above 12 cells analyses and hints come from IDA* (one proven distance bounds the next: the distance changes by
//! exactly one per move, so each later position costs at most the iterations up to one less than the last
//! distance), and counts and lists from one complete IDA* iteration at the least number of moves.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt;

use serde::Serialize;

use crate::board::frame::Frame;
use crate::board::{Board, Direction, Tile};
use crate::error::{Error, Result};
use crate::exact::table::{CompleteTable, Encoding, FullSpace, MAX_TABLE_CELLS};
use crate::metric::Metric;
use crate::notation::Moves;
use crate::search::choose::EvalJob;
use crate::search::heuristic::{Eval, Geometry, MAX_SEARCH_CELLS};
use crate::search::{count_paths, Counted, Limits};
use crate::solver::{Method, Plan, Solution, SolveOptions, Solver};
use crate::SolveError;

/// What a move sequence played from a board does, move by move. Serialised (serde) as `{"solves": true,
/// "length": 7, "mtm_length": 5, "optimal": 5, "over": 2, "distances": [...], "mistakes": [...]}`: the dict of
/// Python's `slide.analyse`, and with the board first ([`Analysis::on`]) the JSON object of `slide analyse --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// True when the sequence ends on the goal (on a board matching it, for a partial goal).
    pub solves: bool,
    /// Its length in single-tile moves (STM).
    pub length: usize,
    /// Its length in multi-tile moves (MTM: runs of one direction count once).
    pub mtm_length: usize,
    /// The least number of moves from the board (STM); -1 when the goal cannot be reached.
    pub optimal: i64,
    /// Moves over the optimum (`length - optimal`: even towards a goal board in STM), when the sequence solves.
    pub over: Option<i64>,
    /// The least number of moves to the goal after each move (-1 on every board when it cannot be reached).
    pub distances: Vec<i64>,
    /// The 1-based indices of the moves after which the board was not closer to the goal.
    pub mistakes: Vec<usize>,
}

impl Analysis {
    /// The analysis with the board it was played from, as the faces write it.
    pub fn on<'a>(&'a self, board: &Board) -> BoardAnalysis<'a> {
        BoardAnalysis {
            board: board.rows(),
            analysis: self,
        }
    }
}

/// An [`Analysis`] with the board it was played from ([`Analysis::on`]). Serialised (serde), it is the JSON
/// object of `slide analyse --json` and of the server's `POST /api/analyse`: `{"board": [[…]]` followed by the
/// analysis's fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardAnalysis<'a> {
    /// The board the moves were played from, as rows.
    pub board: Vec<Vec<Tile>>,
    /// What the moves do.
    #[serde(flatten)]
    pub analysis: &'a Analysis,
}

impl BoardAnalysis<'_> {
    /// The JSON object of `slide analyse --json` and of the server's `POST /api/analyse` (one line, no trailing
    /// newline): `{"board": [[4,1,2],[5,0,3]], "solves": true, "length": 7, "mtm_length": 5, "optimal": 5, "over": 2,
    /// "distances": [6,5,4,3,2,1,0], "mistakes": [1]}`.
    pub fn to_json(&self) -> String {
        crate::solver::to_json(self)
    }
}

/// The moves that start a shortest solution ([`Solver::hint`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hint {
    /// The least number of moves; 0 on the goal, -1 when it cannot be reached.
    pub distance: i64,
    /// Every tile whose move starts a shortest solution, ascending (empty on the goal or when unsolvable).
    pub tiles: Vec<Tile>,
}

impl Hint {
    /// The hint with the board it was given for, as the faces write it; `metric` is the one the hint was asked in
    /// (named in the JSON only when it is MTM). The face fills [`BoardHint::notation`] when a notation is asked for.
    pub fn on(&self, board: &Board, metric: Metric) -> BoardHint {
        BoardHint {
            board: board.rows(),
            moves: self.distance,
            hints: self.tiles.clone(),
            metric: (metric == Metric::Mtm).then_some(metric),
            notation: None,
        }
    }
}

/// A [`Hint`] with the board it was given for ([`Hint::on`]). Serialised (serde), it is the JSON object of
/// `slide hint --json`: `{"board": [[…]], "moves": D, "hints": [tiles]}`, with `"metric": "mtm"` in MTM (where a
/// hint is a push, named by its farthest tile) and `"notation": [moves]` when a notation is asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct BoardHint {
    /// The board, as rows.
    pub board: Vec<Vec<Tile>>,
    /// The least number of moves ([`Hint::distance`]).
    pub moves: i64,
    /// The tiles whose move starts a shortest solution ([`Hint::tiles`]).
    pub hints: Vec<Tile>,
    /// The metric, when it is MTM.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<Metric>,
    /// Each hint written in a notation, when one is asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notation: Option<Vec<String>>,
}

impl BoardHint {
    /// The JSON object of `slide hint --json` (one line, no trailing newline):
    /// `{"board": [[4,1,2],[5,0,3]], "moves": 5, "hints": [2,4]}`.
    pub fn to_json(&self) -> String {
        crate::solver::to_json(self)
    }
}

/// The number of shortest solutions ([`Solver::count_optimal_with`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Count {
    /// The number of distinct shortest move sequences; when not `proven`, those found before a limit stopped the
    /// counting search (a lower bound).
    pub count: u128,
    /// False when a limit stopped the counting search.
    pub proven: bool,
}

/// Tallies of a batch of analyses: how many solve, how many optimally, how many each number of moves over.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Sequences analysed.
    pub analysed: usize,
    /// Of them, the ones that solve.
    pub solved: usize,
    /// Of those, the ones with no move over the optimum.
    pub optimal: usize,
    /// Moves over the optimum (2, 4, …) → how many solving sequences have that many.
    pub over: BTreeMap<i64, usize>,
    /// Mean moves over the optimum of the solving sequences (0 when none solves).
    pub mean_over: f64,
}

impl Summary {
    /// The JSON line that ends a batch of analyses (`slide analyse --json`; no trailing newline):
    /// `{"summary": {"analysed": 3, "solved": 2, "optimal": 1, "over": {"2": 1}, "mean_over": 1.0}}`.
    pub fn to_json(&self) -> String {
        /// The summary under its one key.
        #[derive(Serialize)]
        struct Line<'a> {
            summary: &'a Summary,
        }
        crate::solver::to_json(&Line { summary: self })
    }

    /// Counts one analysis in.
    pub fn add(&mut self, a: &Analysis) {
        self.analysed += 1;
        if let Some(over) = a.over {
            self.solved += 1;
            if over == 0 {
                self.optimal += 1;
            } else {
                *self.over.entry(over).or_default() += 1;
            }
            let total: i64 = self.over.iter().map(|(k, v)| k * *v as i64).sum();
            self.mean_over = total as f64 / self.solved as f64;
        }
    }
}

impl fmt::Display for Summary {
    /// `3 analysed, 2 solve: 1 optimal, 1 +2; mean over 1.00`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} analysed, {} solve: {} optimal",
            self.analysed, self.solved, self.optimal
        )?;
        for (over, n) in &self.over {
            write!(f, ", {n} +{over}")?;
        }
        write!(f, "; mean over {:.2}", self.mean_over)
    }
}

/// A complete table seen from the user's frame.
struct TableView<'a> {
    table: &'a CompleteTable,
    frame: Frame,
    n: usize,
}

impl TableView<'_> {
    /// The canonical positions (tile → cell) of a board.
    fn pos(&self, b: &Board) -> [u8; MAX_TABLE_CELLS] {
        let mut pos = [0u8; MAX_TABLE_CELLS];
        self.frame.positions(b, &mut pos);
        pos
    }

    /// What the table stores for distance `d`: the distance, or it mod 3.
    fn value_of(&self, d: u32) -> u32 {
        match self.table.encoding() {
            Encoding::Exact => d,
            Encoding::Mod3 => d % 3,
        }
    }

    /// The least number of moves of a solvable board.
    fn distance(&self, b: &Board) -> Result<u32> {
        self.table
            .distance(&self.pos(b)[..self.n])
            .ok_or_else(|| Error::Internal("the parity test and the table disagree".into()))
    }

    /// The table's entry for a solvable board.
    fn stored(&self, b: &Board) -> Result<u32> {
        let r = self
            .table
            .space()
            .rank(&self.pos(b)[..self.n])
            .ok_or_else(|| Error::Internal("the parity test and the table disagree".into()))?;
        Ok(self.table.packed().get(r))
    }

    /// The distance of a neighbour of a board at distance `d`: `d - 1` or `d + 1`, told apart by the table.
    fn step(&self, d: u32, neighbour: &Board) -> Result<u32> {
        Ok(
            if d > 0 && self.stored(neighbour)? == self.value_of(d - 1) {
                d - 1
            } else {
                d + 1
            },
        )
    }
}

/// How exact distances are found for a shape.
enum Exact<'a> {
    /// A complete table (at most 12 cells).
    Table(TableView<'a>),
    /// A single row or column: arithmetic.
    Line,
    /// IDA* with these options.
    Search(SolveOptions),
}

const DIRECTIONS: [Direction; 4] = [
    Direction::Up,
    Direction::Down,
    Direction::Left,
    Direction::Right,
];

/// The boards one move away, with the tile that moved.
pub(crate) fn children(b: &Board) -> Vec<(Tile, Board)> {
    DIRECTIONS
        .iter()
        .filter_map(|&d| {
            let mut c = b.clone();
            c.apply_direction(d).map(|t| (t, c))
        })
        .collect()
}

/// The moves from a board with the tiles each slides and the board after it ([`single_moves`], [`pushes`]).
type MoveList = fn(&Board) -> Vec<(Vec<Tile>, Board)>;

/// [`children`] as moves of one tile each, for [`walk`].
fn single_moves(b: &Board) -> Vec<(Vec<Tile>, Board)> {
    children(b).into_iter().map(|(t, c)| (vec![t], c)).collect()
}

/// The boards one multi-tile move (a push) away, with the tiles that moved, nearest the blank first (the last is
/// the tile a player clicks: the push moves it and every tile between it and the blank).
pub(crate) fn pushes(b: &Board) -> Vec<(Vec<Tile>, Board)> {
    let mut out = Vec::new();
    for &d in &DIRECTIONS {
        let mut c = b.clone();
        let mut moved = Vec::new();
        while let Some(t) = c.apply_direction(d) {
            moved.push(t);
            out.push((moved.clone(), c.clone()));
        }
    }
    out
}

/// The proven least number of moves of a search's answer as the analyses count it (-1 when the goal cannot be
/// reached), or `None` when it is not proven.
pub(crate) fn known(s: &Solution) -> Option<i64> {
    if s.is_unsolvable() {
        return Some(-1);
    }
    s.distance().map(|d| d as i64)
}

/// Whether a child of a board at distance `d` is at distance `d - 1`, asking `solve` for a search no deeper than
/// `d - 1` under `opts`: it either finds it or proves more. A limit that stops it is [`SolveError::LimitReached`]
/// naming `the_move`. A board at distance 0 or less has no closer child.
pub(crate) fn closer(
    d: i64,
    opts: &SolveOptions,
    the_move: impl FnOnce() -> String,
    solve: impl FnOnce(&SolveOptions) -> Result<Solution>,
) -> Result<bool> {
    if d <= 0 {
        return Ok(false);
    }
    let bounded = SolveOptions {
        max_depth: Some(d as u64 - 1),
        ..opts.clone()
    };
    let s = solve(&bounded)?;
    match known(&s) {
        Some(x) if x == d - 1 => Ok(true),
        None if s.lower_bound() as i64 > d - 1 => Ok(false),
        _ => Err(Error::Solve(SolveError::LimitReached {
            what: format!("whether {} starts a shortest solution", the_move()),
            lower_bound: s.lower_bound(),
        })),
    }
}

/// The proven least number of moves of a search's answer (-1 when the goal cannot be reached), or why there is
/// none.
pub(crate) fn proven(s: &Solution, what: impl FnOnce() -> String) -> Result<i64> {
    known(s).ok_or_else(|| {
        Error::Solve(SolveError::LimitReached {
            what: what(),
            lower_bound: s.lower_bound(),
        })
    })
}

impl Solver {
    fn exact(&self, board: &Board, goal: &Board, opts: &SolveOptions) -> Result<Exact<'_>> {
        let shape = board.shape();
        if goal.shape() != shape {
            return Err(Error::Solve(SolveError::ShapeMismatch {
                board: shape,
                goal: goal.shape(),
            }));
        }
        if shape.is_line() {
            return Ok(Exact::Line);
        }
        if shape.cells() <= MAX_TABLE_CELLS {
            let frame = Frame::new(goal);
            let table = self.table(frame.shape(), frame.blank_goal())?;
            return Ok(Exact::Table(TableView {
                table,
                frame,
                n: shape.cells(),
            }));
        }
        Ok(Exact::Search(SolveOptions {
            method: Method::Search,
            weight: None,
            max_depth: None,
            ..opts.clone()
        }))
    }

    /// Analyses `moves` played from `board` towards `goal`: whether they solve, their length (STM and MTM), the
    /// least number of moves, the moves over it, the distance after each move and the mistakes (the moves after
    /// which the board is not closer to the goal).
    ///
    /// Exact: from the complete table up to 12 cells; above, by IDA* under `opts` (heuristic, limits; a limit
    /// that stops a search gives [`SolveError::LimitReached`]). An illegal move gives
    /// [`ParseError::BadMove`](crate::ParseError::BadMove).
    ///
    /// With `opts.metric` [`Metric::Mtm`] the moves are taken as pushes, the maximal runs of one direction that
    /// [`Moves::mtm_len`] counts: `optimal` and `over` count pushes, `distances` holds the MTM distance after each
    /// push and `mistakes` the 1-based pushes after which the board was not closer (`length` stays the STM
    /// length). Exact from the MTM tables up to 12 cells and on single rows and columns; above, by MTM IDA* under
    /// `opts` after each push (4 × 4 and the other shapes with label tables).
    ///
    /// ```
    /// use slide::{Board, Metric, Moves, SolveOptions, Solver};
    /// let b = Board::parse("4 1 2/5 0 3").unwrap();
    /// let moves: Moves = "RDL2U".parse().unwrap();
    /// let mtm = SolveOptions { metric: Metric::Mtm, ..SolveOptions::default() };
    /// let a = Solver::global().analyse(&b, &Board::goal(b.shape()), &moves, &mtm).unwrap();
    /// assert_eq!((a.solves, a.length, a.mtm_length), (true, 5, 4));
    /// assert_eq!(a.distances.len(), 4);
    /// assert_eq!(a.over, Some(4 - a.optimal));
    /// ```
    ///
    /// ```
    /// use slide::{Board, Moves, SolveOptions, Solver};
    /// let b = Board::parse("4 1 2/5 0 3").unwrap();
    /// let moves = Moves::from_tiles(&b, &[3, 3, 5, 4, 1, 2, 3]).unwrap(); // a detour, then a shortest solution
    /// let a = Solver::global().analyse(&b, &Board::goal(b.shape()), &moves, &SolveOptions::default()).unwrap();
    /// assert!(a.solves);
    /// assert_eq!((a.length, a.optimal, a.over), (7, 5, Some(2)));
    /// assert_eq!(a.distances, [6, 5, 4, 3, 2, 1, 0]);
    /// assert_eq!(a.mistakes, [1]);
    /// ```
    pub fn analyse(
        &self,
        board: &Board,
        goal: &Board,
        moves: &Moves,
        opts: &SolveOptions,
    ) -> Result<Analysis> {
        if opts.metric == Metric::Mtm {
            return self.analyse_mtm(board, goal, moves, opts);
        }
        let exact = self.exact(board, goal, opts)?;
        let end = moves.apply(board)?;
        let length = moves.stm_len();
        let mut a = Analysis {
            solves: end == *goal,
            length,
            mtm_length: moves.mtm_len(),
            optimal: -1,
            over: None,
            distances: vec![-1; length],
            mistakes: vec![],
        };
        if board.unsolvable_reason(goal)?.is_some() {
            return Ok(a);
        }
        let mut b = board.clone();
        let mut tiles = moves.directions().iter().map(move |&d| {
            // The moves were checked by `apply` above.
            let t = b.apply_direction(d);
            t.map(|t| (t, b.clone()))
                .ok_or_else(|| Error::Internal("a checked move is illegal".into()))
        });
        match exact {
            Exact::Table(v) => {
                let mut d = v.distance(board)?;
                a.optimal = d as i64;
                for (slot, step) in a.distances.iter_mut().zip(&mut tiles) {
                    d = v.step(d, &step?.1)?;
                    *slot = d as i64;
                }
            }
            Exact::Line => {
                a.optimal = self.distance(board, goal)?;
                for (slot, step) in a.distances.iter_mut().zip(&mut tiles) {
                    *slot = self.distance(&step?.1, goal)?;
                }
            }
            Exact::Search(opts) => {
                let s = self.solve_with(board, goal, &opts)?;
                let mut d = proven(&s, || "the least number of moves from the board".into())?;
                a.optimal = d;
                // A shortest solution from the current board, when one is known: following it needs no search.
                let mut path: Option<VecDeque<Tile>> = s.into_moves().map(VecDeque::from);
                for (i, (slot, step)) in a.distances.iter_mut().zip(&mut tiles).enumerate() {
                    let (t, here) = step?;
                    if path.as_ref().and_then(|p| p.front()) == Some(&t) {
                        path.as_mut().map(VecDeque::pop_front);
                        d -= 1;
                    } else if d == 0 {
                        d = 1;
                        path = Some(VecDeque::from([t]));
                    } else {
                        // The distance is d - 1 or d + 1: search no deeper than d - 1.
                        let bounded = SolveOptions {
                            max_depth: Some(d as u64 - 1),
                            ..opts.clone()
                        };
                        let s = self.solve_with(&here, goal, &bounded)?;
                        match known(&s) {
                            Some(x) if x == d - 1 => {
                                d = x;
                                path = s.into_moves().map(VecDeque::from);
                            }
                            None if s.lower_bound() as i64 > d - 1 => {
                                d += 1;
                                path = None;
                            }
                            _ => {
                                return Err(Error::Solve(SolveError::LimitReached {
                                    what: format!("the distance after move {}", i + 1),
                                    lower_bound: s.lower_bound(),
                                }))
                            }
                        }
                    }
                    *slot = d;
                }
            }
        }
        let mut prev = a.optimal;
        for (i, &d) in a.distances.iter().enumerate() {
            if d >= prev {
                a.mistakes.push(i + 1);
            }
            prev = d;
        }
        a.over = a.solves.then(|| length as i64 - a.optimal);
        Ok(a)
    }

    /// [`Solver::analyse`] in MTM: the moves taken as pushes, the distances from the MTM tables or MTM IDA*.
    fn analyse_mtm(
        &self,
        board: &Board,
        goal: &Board,
        moves: &Moves,
        opts: &SolveOptions,
    ) -> Result<Analysis> {
        let shape = board.shape();
        if goal.shape() != shape {
            return Err(Error::Solve(SolveError::ShapeMismatch {
                board: shape,
                goal: goal.shape(),
            }));
        }
        let end = moves.apply(board)?;
        let pushes = moves.mtm_len();
        let mut a = Analysis {
            solves: end == *goal,
            length: moves.stm_len(),
            mtm_length: pushes,
            optimal: -1,
            over: None,
            distances: vec![-1; pushes],
            mistakes: vec![],
        };
        if board.unsolvable_reason(goal)?.is_some() {
            return Ok(a);
        }
        let exact = shape.is_line() || shape.cells() <= MAX_TABLE_CELLS;
        let search = SolveOptions {
            method: Method::Search,
            metric: Metric::Mtm,
            weight: None,
            max_depth: None,
            ..opts.clone()
        };
        let distance = |b: &Board, what: &dyn Fn() -> String| -> Result<i64> {
            if exact {
                self.distance_in(b, goal, Metric::Mtm)
            } else {
                proven(&self.solve_with(b, goal, &search)?, what)
            }
        };
        a.optimal = distance(board, &|| "the least number of moves from the board".into())?;
        let dirs = moves.directions();
        let mut b = board.clone();
        let mut k = 0;
        for (i, &d) in dirs.iter().enumerate() {
            b.apply_direction(d)
                .ok_or_else(|| Error::Internal("a checked move is illegal".into()))?;
            if dirs.get(i + 1) != Some(&d) {
                a.distances[k] = distance(&b, &|| format!("the distance after push {}", k + 1))?;
                k += 1;
            }
        }
        let mut prev = a.optimal;
        for (i, &d) in a.distances.iter().enumerate() {
            if d >= prev {
                a.mistakes.push(i + 1);
            }
            prev = d;
        }
        a.over = a.solves.then(|| pushes as i64 - a.optimal);
        Ok(a)
    }

    /// The least number of moves from `board` to `goal` and every tile whose move starts a shortest solution.
    ///
    /// From the complete table up to 12 cells (a move is a hint when it leads one move closer); above, by IDA*
    /// under `opts`: the board is solved once, and every other move is checked by a search no deeper than the
    /// distance less one. A limit that stops a search gives [`SolveError::LimitReached`].
    ///
    /// ```
    /// use slide::{Board, SolveOptions, Solver};
    /// let b = Board::parse("1 2 3/4 0 5/7 8 6").unwrap();
    /// let h = Solver::global().hint(&b, &Board::goal(b.shape()), &SolveOptions::default()).unwrap();
    /// assert_eq!((h.distance, h.tiles), (2, vec![5]));
    /// ```
    pub fn hint(&self, board: &Board, goal: &Board, opts: &SolveOptions) -> Result<Hint> {
        if opts.metric == Metric::Mtm {
            return self.hint_mtm(board, goal, opts);
        }
        let exact = self.exact(board, goal, opts)?;
        if board.unsolvable_reason(goal)?.is_some() {
            return Ok(Hint {
                distance: -1,
                tiles: vec![],
            });
        }
        let mut tiles = Vec::new();
        let distance = match exact {
            Exact::Table(v) => {
                let d = v.distance(board)?;
                for (t, c) in children(board) {
                    if v.step(d, &c)? + 1 == d {
                        tiles.push(t);
                    }
                }
                d as i64
            }
            Exact::Line => {
                let d = self.distance(board, goal)?;
                for (t, c) in children(board) {
                    if self.distance(&c, goal)? + 1 == d {
                        tiles.push(t);
                    }
                }
                d
            }
            Exact::Search(opts) => {
                let s = self.solve_with(board, goal, &opts)?;
                let d = proven(&s, || "the least number of moves from the board".into())?;
                let first = s.moves().and_then(|m| m.first().copied());
                for (t, c) in children(board) {
                    if Some(t) == first {
                        tiles.push(t);
                        continue;
                    }
                    if self.one_closer(&c, goal, &opts, d, || format!("moving tile {t}"))? {
                        tiles.push(t);
                    }
                }
                d
            }
        };
        tiles.sort_unstable();
        Ok(Hint { distance, tiles })
    }

    /// Whether `child` of a board at distance `d` (by search under `opts`) is at distance `d - 1` ([`closer`]).
    fn one_closer(
        &self,
        child: &Board,
        goal: &Board,
        opts: &SolveOptions,
        d: i64,
        the_move: impl FnOnce() -> String,
    ) -> Result<bool> {
        closer(d, opts, the_move, |bounded| {
            self.solve_with(child, goal, bounded)
        })
    }

    /// [`Solver::hint`] in MTM: every push that starts an MTM-shortest solution, named by the tile farthest from
    /// the blank that it moves. Exact from the MTM tables (at most 12 cells, single rows and columns); above, by
    /// MTM IDA* under `opts`: the board is solved once, and every other push is checked by a search no deeper than
    /// the distance less one (a push changes the MTM distance by at most one).
    fn hint_mtm(&self, board: &Board, goal: &Board, opts: &SolveOptions) -> Result<Hint> {
        let shape = board.shape();
        if goal.shape() != shape {
            return Err(Error::Solve(SolveError::ShapeMismatch {
                board: shape,
                goal: goal.shape(),
            }));
        }
        if board.unsolvable_reason(goal)?.is_some() {
            return Ok(Hint {
                distance: -1,
                tiles: vec![],
            });
        }
        let mut tiles = Vec::new();
        let distance = if shape.is_line() || shape.cells() <= MAX_TABLE_CELLS {
            let d = self.distance_in(board, goal, Metric::Mtm)?;
            for (moved, c) in pushes(board) {
                if self.distance_in(&c, goal, Metric::Mtm)? + 1 == d {
                    tiles.extend(moved.last());
                }
            }
            d
        } else {
            let opts = SolveOptions {
                method: Method::Search,
                metric: Metric::Mtm,
                weight: None,
                max_depth: None,
                ..opts.clone()
            };
            let s = self.solve_with(board, goal, &opts)?;
            let d = proven(&s, || "the least number of moves from the board".into())?;
            let solution = s.moves().map(<[Tile]>::to_vec).unwrap_or_default();
            // The solution's first push: the longest push that is a prefix of it (its pushes are maximal runs).
            let first = pushes(board)
                .into_iter()
                .map(|(moved, _)| moved)
                .filter(|moved| solution.starts_with(moved))
                .max_by_key(Vec::len);
            for (moved, c) in pushes(board) {
                let tile = *moved
                    .last()
                    .ok_or_else(|| Error::Internal("an empty push".into()))?;
                if first.as_ref() == Some(&moved) {
                    tiles.push(tile);
                    continue;
                }
                if self.one_closer(&c, goal, &opts, d, || format!("pushing tile {tile}"))? {
                    tiles.push(tile);
                }
            }
            d
        };
        tiles.sort_unstable();
        Ok(Hint { distance, tiles })
    }

    /// The number of distinct shortest move sequences from `board` to `goal` (0 when it cannot be reached, 1 on
    /// the goal), by dynamic programming over the complete table, one distance layer at a time (the number of
    /// shortest paths to a board is the sum over its neighbours one move farther).
    ///
    /// Exact: the count is at most 4 · 3^(d−1) for distance d, and d ≤ 80 on every shape with a table, so it
    /// fits a `u128` (single rows and columns have one). Above 12 cells: by IDA*, see
    /// [`Solver::count_optimal_with`], which also takes limits.
    ///
    /// ```
    /// use slide::{Board, Solver};
    /// let b = Board::parse("4 1 2/5 0 3").unwrap();
    /// assert_eq!(Solver::global().count_optimal(&b, &Board::goal(b.shape())).unwrap(), 1);
    /// let b = Board::parse("0 1 2/3 4 5/6 7 8").unwrap(); // the goal with the blank first, 22 moves away
    /// assert_eq!(Solver::global().count_optimal(&b, &Board::goal(b.shape())).unwrap(), 2);
    /// ```
    pub fn count_optimal(&self, board: &Board, goal: &Board) -> Result<u128> {
        let c = self.count_optimal_with(board, goal, &SolveOptions::default())?;
        if !c.proven {
            return Err(Error::Internal("a count without limits stopped".into()));
        }
        Ok(c.count)
    }

    /// [`Solver::count_optimal`] under `opts`. Above 12 cells the board is solved by IDA* (under `opts`; a limit
    /// that stops it gives [`SolveError::LimitReached`]), then one complete IDA* iteration at the least number of moves
    /// counts every sequence of that length (only immediate backtracks pruned); a limit that stops it gives the
    /// count so far, not `proven`.
    pub fn count_optimal_with(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
    ) -> Result<Count> {
        if opts.metric == Metric::Mtm {
            return self
                .shortest_mtm(board, goal, opts, 0, false)
                .map(|(c, _)| c);
        }
        let exact = self.exact(board, goal, opts)?;
        let count = |count| Count {
            count,
            proven: true,
        };
        if board.unsolvable_reason(goal)?.is_some() {
            return Ok(count(0));
        }
        let v = match exact {
            Exact::Line => return Ok(count(1)),
            Exact::Search(opts) => {
                let (c, _) = self.search_paths(board, goal, &opts, 0, false)?;
                return Ok(Count {
                    count: c.count,
                    proven: !c.stopped,
                });
            }
            Exact::Table(v) => v,
        };
        let n = v.n;
        let space = v.table.space();
        let packed = v.table.packed();
        let start = v.pos(board);
        let d = v.distance(board)?;
        let r0 = space
            .rank(&start[..n])
            .ok_or_else(|| Error::Internal("the parity test and the table disagree".into()))?;
        let mut layer: HashMap<u64, u128> = HashMap::from([(r0, 1)]);
        for k in (1..=d).rev() {
            let want = v.value_of(k - 1);
            let mut next: HashMap<u64, u128> = HashMap::with_capacity(layer.len() * 2);
            let mut overflow = false;
            let mut pos = [0u8; MAX_TABLE_CELLS];
            let mut at = [0u8; MAX_TABLE_CELLS];
            for (&r, &count) in &layer {
                space.unrank(r, &mut pos[..n]);
                FullSpace::fill_at(&pos[..n], &mut at[..n]);
                space.for_each_tile_move(&mut pos[..n], &at[..n], |_, child| {
                    if packed.get(child) == want {
                        let e = next.entry(child).or_insert(0);
                        match e.checked_add(count) {
                            Some(x) => *e = x,
                            None => overflow = true,
                        }
                    }
                });
            }
            if overflow {
                return Err(Error::Internal(
                    "the number of shortest solutions overflowed 128 bits".into(),
                ));
            }
            layer = next;
        }
        Ok(count(layer.values().sum()))
    }

    /// Every shortest move sequence from `board` to `goal` (each the tiles that slide into the blank), at most
    /// `limit` of them, in ascending order of their tile numbers; none when the goal cannot be reached. Walks the
    /// complete table down from the board; above 12 cells, see [`Solver::optimal_solutions_with`].
    ///
    /// ```
    /// use slide::{Board, Solver};
    /// let b = Board::parse("8 7 6/5 4 3/2 1 0").unwrap();
    /// let all = Solver::global().optimal_solutions(&b, &Board::goal(b.shape()), 3).unwrap();
    /// assert_eq!(all.len(), 3);
    /// assert!(all.iter().all(|m| m.len() == 30));
    /// ```
    pub fn optimal_solutions(
        &self,
        board: &Board,
        goal: &Board,
        limit: usize,
    ) -> Result<Vec<Vec<Tile>>> {
        self.optimal_solutions_with(board, goal, limit, &SolveOptions::default())
    }

    /// [`Solver::optimal_solutions`] under `opts`. Above 12 cells: the board solved by IDA*, then an IDA*
    /// iteration at the least number of moves that stops once it has `limit` sequences (in the search's order,
    /// not ascending); a limit that stops either search gives [`SolveError::LimitReached`].
    pub fn optimal_solutions_with(
        &self,
        board: &Board,
        goal: &Board,
        limit: usize,
        opts: &SolveOptions,
    ) -> Result<Vec<Vec<Tile>>> {
        if opts.metric == Metric::Mtm {
            return self
                .shortest_mtm(board, goal, opts, limit, true)
                .map(|(_, paths)| paths);
        }
        let exact = self.exact(board, goal, opts)?;
        if board.unsolvable_reason(goal)?.is_some() || limit == 0 {
            return Ok(vec![]);
        }
        let v = match exact {
            Exact::Line => {
                return Ok(vec![self
                    .solve(board, goal)?
                    .into_moves()
                    .unwrap_or_default()]);
            }
            Exact::Search(opts) => {
                let (c, paths) = self.search_paths(board, goal, &opts, limit, true)?;
                if c.stopped {
                    return Err(Error::Solve(SolveError::LimitReached {
                        what: "the list of shortest solutions".into(),
                        lower_bound: paths.first().map_or(0, |p| p.len() as u64),
                    }));
                }
                return Ok(paths);
            }
            Exact::Table(v) => v,
        };
        let d = v.distance(board)?;
        let mut out = Vec::new();
        let mut path = Vec::with_capacity(d as usize);
        walk(&v, board, d, single_moves, &mut path, &mut out, limit)?;
        Ok(out)
    }
}

impl Solver {
    /// [`Solver::count_optimal_with`] and [`Solver::optimal_solutions_with`] in MTM: the number of MTM-shortest
    /// solutions and the first `keep` of them. Up to 12 cells by dynamic programming over the complete MTM table
    /// (the count) and a walk down it (the list, pushes in ascending order of their tiles); single rows and columns
    /// have one; above, MTM IDA* solves the board under `opts`, then one complete iteration at that number of
    /// pushes counts ([`crate::search::mtm::count`]). With `stop_when_kept` (the list), a limit that stops a
    /// search is [`SolveError::LimitReached`]; without (the count), the count so far, not `proven`.
    fn shortest_mtm(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        keep: usize,
        stop_when_kept: bool,
    ) -> Result<(Count, Vec<Vec<Tile>>)> {
        let shape = board.shape();
        if goal.shape() != shape {
            return Err(Error::Solve(SolveError::ShapeMismatch {
                board: shape,
                goal: goal.shape(),
            }));
        }
        let proven = |count, paths| {
            Ok((
                Count {
                    count,
                    proven: true,
                },
                paths,
            ))
        };
        if board.unsolvable_reason(goal)?.is_some() {
            return proven(0, vec![]);
        }
        if shape.is_line() {
            let s = self.solve_with(board, goal, opts)?;
            let paths = s.into_moves().into_iter().take(keep).collect();
            return proven(1, paths);
        }
        if shape.cells() <= MAX_TABLE_CELLS {
            let frame = Frame::new(goal);
            let table = self.table_in(frame.shape(), frame.blank_goal(), Metric::Mtm)?;
            let v = TableView {
                table,
                frame,
                n: shape.cells(),
            };
            let d = v.distance(board)?;
            let mut paths = Vec::new();
            if keep > 0 {
                walk(&v, board, d, pushes, &mut Vec::new(), &mut paths, keep)?;
            }
            if stop_when_kept {
                return proven(paths.len() as u128, paths);
            }
            // The number of shortest push sequences to each board of a layer, one push closer each time (a push
            // changes the distance by -1, 0 or +1, which the table tells apart even modulo 3).
            let mut layer: HashMap<Board, u128> = HashMap::from([(board.clone(), 1)]);
            for k in (1..=d).rev() {
                let want = v.value_of(k - 1);
                let mut next: HashMap<Board, u128> = HashMap::with_capacity(layer.len() * 2);
                for (b, &count) in &layer {
                    for (_, c) in pushes(b) {
                        if v.stored(&c)? == want {
                            let e = next.entry(c).or_insert(0);
                            *e = e.checked_add(count).ok_or_else(|| {
                                Error::Internal(
                                    "the number of shortest solutions overflowed 128 bits".into(),
                                )
                            })?;
                        }
                    }
                }
                layer = next;
            }
            return proven(layer.values().sum(), paths);
        }
        let opts = SolveOptions {
            method: Method::Search,
            weight: None,
            max_depth: None,
            ..opts.clone()
        };
        let s = self.solve_with(board, goal, &opts)?;
        let d = self::proven(&s, || "the least number of moves from the board".into())?;
        let owned = self.label_tables(goal)?;
        let tables = owned.view();
        let limits = Limits {
            max_depth: None,
            ..opts.limits()
        };
        let bound =
            u32::try_from(d).map_err(|_| Error::Internal("distance out of range".into()))?;
        let c =
            crate::search::mtm::count(board, goal, &tables, bound, &limits, keep, stop_when_kept)?;
        if c.stopped && stop_when_kept {
            return Err(Error::Solve(SolveError::LimitReached {
                what: "the list of shortest solutions".into(),
                lower_bound: d as u64,
            }));
        }
        let paths = c
            .paths
            .iter()
            .map(|p| p.iter().map(|&t| Tile::from(t)).collect())
            .collect();
        Ok((
            Count {
                count: c.count,
                proven: !c.stopped,
            },
            paths,
        ))
    }

    /// Above the tables: solves `board` (IDA* under `opts`), then counts the sequences of that length with one
    /// complete IDA* iteration ([`count_paths`]), keeping the first `keep` (mapped back to the user's tiles).
    fn search_paths(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        keep: usize,
        stop_when_kept: bool,
    ) -> Result<(Counted, Vec<Vec<Tile>>)> {
        let s = self.solve_with(board, goal, opts)?;
        let d = proven(&s, || "the least number of moves from the board".into())?;
        let Plan::Search(heuristic) = self.plan(board, goal, opts)? else {
            return Err(Error::Internal(
                "a board above the tables without a search".into(),
            ));
        };
        let frame = Frame::new(goal);
        let geometry = Geometry::new(frame.shape(), frame.blank_goal())?;
        let mut pos = [0u8; MAX_SEARCH_CELLS];
        frame.positions(board, &mut pos);
        let limits = Limits {
            max_depth: None,
            ..opts.limits()
        };
        let work = CountWork {
            g: &geometry,
            pos: &pos[..board.shape().cells()],
            bound: u32::try_from(d).map_err(|_| Error::Internal("distance out of range".into()))?,
            limits: &limits,
            keep,
            stop_when_kept,
        };
        let c = self.with_eval(goal, &frame, &geometry, opts, &heuristic, work)?;
        let paths = c
            .paths
            .iter()
            .map(|p| p.iter().map(|&t| frame.tile(t as Tile)).collect())
            .collect();
        Ok((c, paths))
    }
}

/// A counting IDA* iteration ([`count_paths`]) as work for [`Solver::with_eval`].
struct CountWork<'a, 'l> {
    g: &'a Geometry,
    pos: &'a [u8],
    bound: u32,
    limits: &'a Limits<'l>,
    keep: usize,
    stop_when_kept: bool,
}

impl EvalJob for CountWork<'_, '_> {
    type Out = Counted;
    fn run<E: Eval + Clone + Send + Sync>(self, _: &Geometry, eval: E) -> Counted {
        count_paths(
            self.g,
            eval,
            self.pos,
            self.bound,
            self.limits,
            self.keep,
            self.stop_when_kept,
        )
    }
}

/// Depth-first walk down the table from `b` (at distance `d`), one move of `moves` at a time (single-tile moves, or
/// pushes in MTM, each with the tiles it slides), in ascending order of those tiles, until `limit` paths.
fn walk(
    v: &TableView<'_>,
    b: &Board,
    d: u32,
    moves: MoveList,
    path: &mut Vec<Tile>,
    out: &mut Vec<Vec<Tile>>,
    limit: usize,
) -> Result<()> {
    if d == 0 {
        out.push(path.clone());
        return Ok(());
    }
    let mut next = moves(b);
    next.sort_unstable_by(|x, y| x.0.cmp(&y.0));
    for (moved, c) in next {
        if out.len() >= limit {
            break;
        }
        if v.stored(&c)? == v.value_of(d - 1) {
            path.extend_from_slice(&moved);
            walk(v, &c, d - 1, moves, path, out, limit)?;
            path.truncate(path.len() - moved.len());
        }
    }
    Ok(())
}
