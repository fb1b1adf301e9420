//! The answer of a solve: [`Solution`], its moves and [`Outcome`], what is proven about them; and [`Answer`],
//! the one form in which the faces show it (JSON of the command line and the server, written by `to_json`; Python's
//! `slide.Solution`).

use serde::Serialize;

use crate::board::{Board, Direction, Tile};
use crate::error::Result;
use crate::metric::Metric;
use crate::notation::{Moves, Notation};

use super::Plan;
#[cfg(doc)]
use super::{SolveOptions, Solver};
use crate::search::ida::Iteration;

/// What is proven about a [`Solution`].
///
/// ```
/// use slide::{Board, Outcome, Solver};
/// let b = Board::parse("[[4,1,2],[5,0,3]]").unwrap();
/// let g = Board::goal(b.shape());
/// assert_eq!(Solver::global().solve(&b, &g).unwrap().outcome(), &Outcome::Optimal);
/// let odd = Board::parse("[[1,2,3],[5,4,0]]").unwrap();
/// assert!(matches!(Solver::global().solve(&odd, &g).unwrap().outcome(), Outcome::Unsolvable { .. }));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Outcome {
    /// The moves are least in number (in [`Solution::metric`]).
    Optimal,
    /// Bounded-suboptimal search ([`SolveOptions::weight`], or a fallback's weighted search): the moves are at most
    /// `within` times the least number, which is at least `lower_bound`.
    Bounded {
        /// The factor the moves are proven within.
        within: f64,
        /// A proven lower bound on the least number of moves.
        lower_bound: u64,
    },
    /// Valid moves, not proven least (fast mode), the least number being at least `lower_bound`.
    Valid {
        /// A proven lower bound on the least number of moves (0 when none was computed).
        lower_bound: u64,
    },
    /// The goal cannot be reached from the board (there are no moves).
    Unsolvable {
        /// Why, in words (the parity argument).
        reason: String,
    },
    /// A limit stopped the search before it found a solution (there are no moves).
    Stopped {
        /// A proven lower bound on the least number of moves.
        lower_bound: u64,
        /// The factor a solution was to be within, when the stopped search was a bounded-suboptimal one.
        within: Option<f64>,
    },
}

/// An answer: the moves (each the tile that slides into the blank), or why there are none, and its
/// [`Outcome`].
///
/// The moves are always single-tile moves; [`Solution::metric`] says how they are counted. In MTM an optimal
/// solution's [`length`](Solution::length) and [`distance`](Solution::distance) are its number of multi-tile moves:
/// the number of maximal runs of one direction in the moves ([`crate::Moves::mtm_len`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The moves in order; `None` exactly when the outcome is [`Outcome::Unsolvable`] or [`Outcome::Stopped`].
    pub(super) moves: Option<Vec<Tile>>,
    /// How the moves are counted (the metric they are optimal in, when optimal).
    pub(super) metric: Metric,
    /// The number of moves in `metric`, when it is not `moves.len()` (MTM).
    pub(super) counted: Option<usize>,
    /// What is proven.
    pub(super) outcome: Outcome,
    /// Search nodes generated (0 for table lookups).
    pub(super) nodes: u64,
    /// The search heuristic's estimate of the start (0 for table lookups and fast mode).
    pub(super) estimate: u64,
    /// The method that answered.
    pub(super) plan: Plan,
    /// The IDA* iterations of the search that answered (empty for tables, fast mode and MTM).
    pub(super) iterations: Vec<Iteration>,
}

impl Solution {
    fn new(moves: Option<Vec<Tile>>, outcome: Outcome, nodes: u64, plan: Plan) -> Solution {
        Solution {
            moves,
            metric: Metric::Stm,
            counted: None,
            outcome,
            nodes,
            estimate: 0,
            plan,
            iterations: Vec::new(),
        }
    }

    pub(super) fn unsolvable(reason: String, plan: Plan) -> Solution {
        Solution::new(None, Outcome::Unsolvable { reason }, 0, plan)
    }

    /// A search that a limit stopped: no moves, the optimum proven at least `lower_bound`.
    pub(super) fn stopped(lower_bound: u32, nodes: u64, estimate: u32, plan: Plan) -> Solution {
        let outcome = Outcome::Stopped {
            lower_bound: lower_bound as u64,
            within: None,
        };
        Solution {
            estimate: estimate as u64,
            ..Solution::new(None, outcome, nodes, plan)
        }
    }

    pub(super) fn optimal(moves: Vec<Tile>, nodes: u64, plan: Plan) -> Solution {
        Solution::new(Some(moves), Outcome::Optimal, nodes, plan)
    }

    /// A solution from a known move sequence (for example from [`crate::fast`]), proven least or not (then with no
    /// lower bound: [`Solution::with_lower_bound`] gives one). Its plan is [`Plan::Fast`].
    pub fn from_moves(moves: Vec<Tile>, optimal: bool) -> Solution {
        let outcome = if optimal {
            Outcome::Optimal
        } else {
            Outcome::Valid { lower_bound: 0 }
        };
        Solution::new(Some(moves), outcome, 0, Plan::Fast)
    }

    /// The same solution with a proven lower bound on the least number of moves raised to `lower_bound` (no
    /// change when the outcome has no bound to raise: optimal or unsolvable).
    pub fn with_lower_bound(mut self, lower_bound: u64) -> Solution {
        self.raise_lower_bound(lower_bound);
        self
    }

    /// Raises the proven lower bound of a bounded, valid or stopped outcome to at least `bound`.
    pub(super) fn raise_lower_bound(&mut self, bound: u64) {
        match &mut self.outcome {
            Outcome::Bounded { lower_bound, .. }
            | Outcome::Valid { lower_bound }
            | Outcome::Stopped { lower_bound, .. } => *lower_bound = bound.max(*lower_bound),
            Outcome::Optimal | Outcome::Unsolvable { .. } => {}
        }
    }

    /// The same answer with its moves counted in `metric`: multi-tile moves are counted by replaying the moves from
    /// `board`. The caller vouches for optimality in `metric` (an STM-optimal sequence need not be MTM-optimal).
    pub(super) fn in_metric(mut self, metric: Metric, board: &Board) -> Result<Solution> {
        self.metric = metric;
        self.counted = match (&self.moves, metric) {
            (Some(m), Metric::Mtm) => Some(Moves::from_tiles(board, m)?.mtm_len()),
            _ => None,
        };
        Ok(self)
    }

    /// What is proven about the answer.
    ///
    /// ```
    /// use slide::{Board, Outcome, SolveOptions, Solver};
    /// let b = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
    /// let opts = SolveOptions { max_nodes: Some(1), method: slide::Method::Search, ..Default::default() };
    /// let s = Solver::global().solve_with(&b, &Board::goal(b.shape()), &opts).unwrap();
    /// assert!(matches!(s.outcome(), Outcome::Stopped { lower_bound, .. } if *lower_bound > 0));
    /// assert_eq!((s.moves(), s.distance()), (None, None));
    /// ```
    pub fn outcome(&self) -> &Outcome {
        &self.outcome
    }

    /// The moves in order, each the tile that slides into the blank; `None` when the goal cannot be reached, or
    /// when a limit stopped the search first.
    pub fn moves(&self) -> Option<&[Tile]> {
        self.moves.as_deref()
    }

    /// The moves, taken out of the answer.
    pub fn into_moves(self) -> Option<Vec<Tile>> {
        self.moves
    }

    /// How the moves are counted (the metric they are optimal in, when optimal).
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Search nodes generated (0 for table lookups).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The search heuristic's estimate of the start, a lower bound on the least number of moves (0 for table
    /// lookups and fast mode).
    pub fn estimate(&self) -> u64 {
        self.estimate
    }

    /// The IDA* iterations of the search that answered, in order: each threshold and the nodes it took (empty for
    /// table lookups, fast mode and the multi-tile search; with alternative partitions, the chosen one's search
    /// after the trial).
    pub fn iterations(&self) -> &[Iteration] {
        &self.iterations
    }

    /// The method that answered ([`Solver::plan`]'s choice).
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// True when the answer is proven: the moves are least in number ([`Outcome::Optimal`]), or the goal is proven
    /// unreachable ([`Outcome::Unsolvable`]).
    pub fn is_optimal(&self) -> bool {
        matches!(self.outcome, Outcome::Optimal | Outcome::Unsolvable { .. })
    }

    /// A proven lower bound on the least number of moves: equal to it when optimal, 0 when unsolvable.
    pub fn lower_bound(&self) -> u64 {
        match &self.outcome {
            Outcome::Optimal => self.length().unwrap_or(0) as u64,
            Outcome::Unsolvable { .. } => 0,
            Outcome::Bounded { lower_bound, .. }
            | Outcome::Valid { lower_bound }
            | Outcome::Stopped { lower_bound, .. } => *lower_bound,
        }
    }

    /// The factor of bounded-suboptimal search: the moves are at most this many times the least number (or, when
    /// a limit stopped the search, would have been).
    pub fn within(&self) -> Option<f64> {
        match self.outcome {
            Outcome::Bounded { within, .. } => Some(within),
            Outcome::Stopped { within, .. } => within,
            _ => None,
        }
    }

    /// Why the goal cannot be reached, when it cannot.
    pub fn unsolvable_reason(&self) -> Option<&str> {
        match &self.outcome {
            Outcome::Unsolvable { reason } => Some(reason),
            _ => None,
        }
    }

    /// The proven least number of moves (in [`Solution::metric`]); `None` when it is not proven: the goal cannot be
    /// reached ([`Solution::is_unsolvable`]), a limit stopped the search, or the moves found are not proven least
    /// (bounded-suboptimal search, fast mode; [`Solution::length`] gives their number).
    ///
    /// ```
    /// use slide::{Board, Solver};
    /// let g = Board::goal("2x3".parse().unwrap());
    /// let b = Board::parse("[[4,1,2],[5,0,3]]").unwrap();
    /// assert_eq!(Solver::global().solve(&b, &g).unwrap().distance(), Some(5));
    /// let odd = Board::parse("[[1,2,3],[5,4,0]]").unwrap();
    /// let s = Solver::global().solve(&odd, &g).unwrap();
    /// assert_eq!((s.distance(), s.is_unsolvable()), (None, true));
    /// ```
    pub fn distance(&self) -> Option<u64> {
        match self.outcome {
            Outcome::Optimal => self.length().map(|n| n as u64),
            _ => None,
        }
    }

    /// The number of moves found (in [`Solution::metric`]: multi-tile moves in MTM), proven least or not; `None`
    /// when there are none (unsolvable, or stopped first).
    ///
    /// ```
    /// use slide::{Board, Metric, Moves, SolveOptions, Solver};
    /// let b = Board::parse("1 2 3/4 5 6/0 7 8").unwrap();
    /// let opts = SolveOptions { metric: Metric::Mtm, ..Default::default() };
    /// let s = Solver::global().solve_with(&b, &Board::goal(b.shape()), &opts).unwrap();
    /// assert_eq!(s.moves(), Some(&[7, 8][..])); // two single-tile moves...
    /// assert_eq!((s.length(), s.distance()), (Some(1), Some(1))); // ...one multi-tile move
    /// assert_eq!(Moves::from_tiles(&b, &[7, 8]).unwrap().mtm_len(), 1);
    /// ```
    pub fn length(&self) -> Option<usize> {
        let m = self.moves.as_ref()?;
        Some(self.counted.unwrap_or(m.len()))
    }

    /// True when the goal is proven unreachable.
    pub fn is_unsolvable(&self) -> bool {
        matches!(self.outcome, Outcome::Unsolvable { .. })
    }

    /// True when the goal can be reached (proven by a solution or by parity).
    pub fn is_solvable(&self) -> bool {
        !self.is_unsolvable()
    }

    /// The blank's directions for the moves, replayed from `board` (empty when unsolvable).
    ///
    /// ```
    /// use slide::{Board, Solver};
    /// let b = Board::parse("[[1,2,3],[4,0,5]]").unwrap();
    /// let s = Solver::global().solve(&b, &Board::goal(b.shape())).unwrap();
    /// let letters: String = s.directions(&b).unwrap().iter().map(|d| d.letter()).collect();
    /// assert_eq!(letters, "R");
    /// ```
    pub fn directions(&self, board: &Board) -> Result<Vec<Direction>> {
        let tiles = self.moves.as_deref().unwrap_or_default();
        Moves::from_tiles(board, tiles).map(Moves::into_directions)
    }
}

/// Which moves an [`Answer`] lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Listing {
    /// None: only their number ([`Answer::solution`] and [`Answer::notation`] left out).
    Omit,
    /// The tiles that slide into the blank ([`Answer::solution`]).
    Tiles,
    /// The tiles, and the sequence written in a notation ([`Answer::solution`] and [`Answer::notation`]).
    Written(Notation),
}

/// An answer as the faces show it: serialised (serde), it is the JSON object of `slide solve --json` and of the
/// server's `POST /api/solve` (fields in this order, those that are `None` left out); the Python package fills its
/// `slide.Solution` from it.
///
/// ```
/// use slide::{Answer, Board, Listing, Solver};
/// let b = Board::parse("[[4,1,2],[5,0,3]]").unwrap();
/// let s = Solver::global().solve(&b, &Board::goal(b.shape())).unwrap();
/// let a = Answer::new(&b, &s, Listing::Tiles);
/// assert_eq!((a.moves, a.optimal, a.solution), (Some(5), true, Some(Some(vec![5, 4, 1, 2, 3]))));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Answer {
    /// The board, as rows.
    pub board: Vec<Vec<Tile>>,
    /// The number of moves in `metric` ([`Solution::length`]); -1 when the goal cannot be reached; `None` when a
    /// limit stopped the search before any solution.
    pub moves: Option<i64>,
    /// How the moves are counted.
    pub metric: Metric,
    /// Whether the answer is proven ([`Solution::is_optimal`]).
    pub optimal: bool,
    /// Search nodes generated.
    pub nodes: u64,
    /// Seconds spent (set by the face that timed the solve; 0 from [`Answer::new`]).
    pub seconds: f64,
    /// A proven lower bound on the least number of moves, when the answer is not optimal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<u64>,
    /// The factor of a bounded-suboptimal answer ([`Solution::within`]); `"bound"` in JSON.
    #[serde(rename = "bound", skip_serializing_if = "Option::is_none")]
    pub within: Option<f64>,
    /// How the answer was found, when it is worth saying: `"fast"` (fast mode), `"partial"` (a partial goal's
    /// table).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<&'static str>,
    /// The tiles that slide, when asked for ([`Listing::Tiles`], [`Listing::Written`]): `Some(None)` (JSON
    /// `null`) when there are none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<Option<Vec<Tile>>>,
    /// The moves written in the notation asked for ([`Listing::Written`]): `Some(None)` (JSON `null`) when there
    /// are none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notation: Option<Option<String>>,
    /// Why the goal cannot be reached, when it cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Answer {
    /// The answer `solution` gives for `board`, listing the moves as `listing` asks.
    pub fn new(board: &Board, solution: &Solution, listing: Listing) -> Answer {
        let moves = match &solution.outcome {
            Outcome::Unsolvable { .. } => Some(-1),
            _ => solution.length().map(|n| n as i64),
        };
        let method = match solution.plan {
            Plan::Fast => Some("fast"),
            Plan::Partial => Some("partial"),
            _ => None,
        };
        let tiles = solution.moves();
        let written = |n: Notation| {
            tiles.map(|m| {
                Moves::from_tiles(board, m)
                    .and_then(|m| m.format(n, Some(board)))
                    .unwrap_or_default()
            })
        };
        let (solution_listed, notation) = match listing {
            Listing::Omit => (None, None),
            Listing::Tiles => (Some(tiles.map(<[Tile]>::to_vec)), None),
            Listing::Written(n) => (Some(tiles.map(<[Tile]>::to_vec)), Some(written(n))),
        };
        Answer {
            board: board.rows(),
            moves,
            metric: solution.metric,
            optimal: solution.is_optimal(),
            nodes: solution.nodes,
            seconds: 0.0,
            lower_bound: (!solution.is_optimal()).then(|| solution.lower_bound()),
            within: solution.within(),
            method,
            solution: solution_listed,
            notation,
            reason: solution.unsolvable_reason().map(str::to_string),
        }
    }

    /// The JSON object of `slide solve --json` and of the server's `POST /api/solve` (one line, no trailing newline):
    /// `{"board": [[4,1,2],[5,0,3]], "moves": 5, "metric": "stm", "optimal": true, "nodes": 0, "seconds": 0.000000}`.
    pub fn to_json(&self) -> String {
        to_json(self)
    }
}

/// The faces' JSON text: serde values written with a space after `:` and `,` between an object's fields, arrays
/// packed (`[[4,1,2],[5,0,3]]`), numbers as Rust writes them, and `"seconds"` with six decimals.
mod json {
    use std::io;

    use serde::Serialize;
    use serde_json::ser::Formatter;

    /// `value` as the faces' JSON text (one line, no trailing newline).
    pub(crate) fn to_json<T: Serialize + ?Sized>(value: &T) -> String {
        let mut out = Vec::with_capacity(128);
        let mut writer = serde_json::Serializer::with_formatter(&mut out, Spaced::default());
        // Writing to a Vec fails only for values serde cannot express as JSON (maps with non-string keys), which the
        // types written here do not have.
        if value.serialize(&mut writer).is_err() {
            return String::new();
        }
        String::from_utf8(out).unwrap_or_default()
    }

    /// The formatter: serde_json's compact form, but `", "` and `": "` inside objects, floats as Rust's `Display` writes them (`2`,
    /// `1.25`) except the value of a `"seconds"` field, written with six decimals (`0.007078`), and of a `"mean_over"`
    /// field ([`crate::Summary`]), written as serde_json writes it (`1.0`).
    #[derive(Default)]
    struct Spaced {
        /// True while an object key is written.
        in_key: bool,
        /// The key of the field whose value is written now.
        key: String,
    }

    impl Formatter for Spaced {
        fn begin_object_key<W: ?Sized + io::Write>(
            &mut self,
            writer: &mut W,
            first: bool,
        ) -> io::Result<()> {
            self.in_key = true;
            self.key.clear();
            if first {
                Ok(())
            } else {
                writer.write_all(b", ")
            }
        }

        fn end_object_key<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
            self.in_key = false;
            Ok(())
        }

        fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
            writer.write_all(b": ")
        }

        fn write_string_fragment<W: ?Sized + io::Write>(
            &mut self,
            writer: &mut W,
            fragment: &str,
        ) -> io::Result<()> {
            if self.in_key {
                self.key.push_str(fragment);
            }
            writer.write_all(fragment.as_bytes())
        }

        fn write_f64<W: ?Sized + io::Write>(
            &mut self,
            writer: &mut W,
            value: f64,
        ) -> io::Result<()> {
            if self.key == "seconds" {
                write!(writer, "{value:.6}")
            } else if self.key == "mean_over" {
                // As serde_json writes a float: always with a fraction or an exponent (`1.0`), null when not finite.
                let text = serde_json::to_string(&value).unwrap_or_else(|_| "null".into());
                writer.write_all(text.as_bytes())
            } else {
                write!(writer, "{value}")
            }
        }

        fn write_f32<W: ?Sized + io::Write>(
            &mut self,
            writer: &mut W,
            value: f32,
        ) -> io::Result<()> {
            self.write_f64(writer, value as f64)
        }
    }
}

pub(crate) use json::to_json;

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::solver::{CacheDir, HeuristicChoice, Method, SolveOptions, Solver};
    use crate::NoProgress;

    fn solver() -> Solver {
        Solver::builder()
            .cache_dir(CacheDir::None)
            .progress(Arc::new(NoProgress))
            .build()
    }

    fn solve(text: &str, opts: &SolveOptions) -> (Board, Solution) {
        let b = Board::parse(text).unwrap();
        let s = solver()
            .solve_with(&b, &Board::goal(b.shape()), opts)
            .unwrap();
        (b, s)
    }

    /// IDA* with the Manhattan distance (no tables to build).
    fn search() -> SolveOptions {
        SolveOptions {
            method: Method::Search,
            heuristic: HeuristicChoice::Manhattan,
            ..Default::default()
        }
    }

    #[test]
    fn optimal() {
        let (_, s) = solve("8 6 7/2 5 4/3 0 1", &SolveOptions::default());
        assert_eq!(s.outcome(), &Outcome::Optimal);
        assert_eq!(
            (s.distance(), s.length(), s.lower_bound()),
            (Some(31), Some(31), 31)
        );
        assert!(s.is_optimal() && s.is_solvable() && s.within().is_none());
    }

    #[test]
    fn unsolvable() {
        let (_, s) = solve("[[1,2,3],[5,4,0]]", &SolveOptions::default());
        let Outcome::Unsolvable { reason } = s.outcome() else {
            panic!("{s:?}")
        };
        assert!(reason.contains("parity"), "{reason}");
        assert_eq!(s.unsolvable_reason(), Some(reason.as_str()));
        assert_eq!((s.distance(), s.length(), s.moves()), (None, None, None));
        assert!(s.is_optimal() && s.is_unsolvable() && s.lower_bound() == 0);
    }

    #[test]
    fn stopped_by_a_limit() {
        let opts = SolveOptions {
            max_nodes: Some(1),
            ..search()
        };
        let (b, s) = solve("8 6 7/2 5 4/3 0 1", &opts);
        let Outcome::Stopped {
            lower_bound,
            within,
        } = *s.outcome()
        else {
            panic!("{s:?}")
        };
        let manhattan = b.manhattan_to(&Board::goal(b.shape())).unwrap();
        assert!(lower_bound >= manhattan && lower_bound <= 31, "{s:?}");
        assert_eq!((within, s.lower_bound()), (None, lower_bound));
        assert_eq!((s.distance(), s.moves()), (None, None));
        assert!(!s.is_optimal() && s.is_solvable());
        // A weighted search that is stopped says what it was bounded by.
        let weighted = SolveOptions {
            weight: Some(2.0),
            ..opts
        };
        let (_, s) = solve("8 6 7/2 5 4/3 0 1", &weighted);
        assert!(
            matches!(s.outcome(), Outcome::Stopped { within: Some(w), .. } if *w == 2.0),
            "{s:?}"
        );
    }

    #[test]
    fn weighted() {
        let opts = SolveOptions {
            weight: Some(2.0),
            ..search()
        };
        let (_, s) = solve("8 6 7/2 5 4/3 0 1", &opts);
        let Outcome::Bounded {
            within,
            lower_bound,
        } = *s.outcome()
        else {
            panic!("{s:?}")
        };
        let len = s.length().unwrap() as u64;
        assert_eq!(within, 2.0);
        assert!(
            lower_bound <= 31 && 31 <= len && len as f64 <= 2.0 * 31.0,
            "{s:?}"
        );
        assert_eq!(
            (s.distance(), s.within(), s.lower_bound()),
            (None, Some(2.0), lower_bound)
        );
        assert!(!s.is_optimal());
    }

    #[test]
    fn fast() {
        let opts = SolveOptions {
            method: Method::Fast,
            ..Default::default()
        };
        let (b, s) = solve("2 1 3 4/5 6 7 8/9 10 11 12/13 15 14 0", &opts);
        let manhattan = b.manhattan_to(&Board::goal(b.shape())).unwrap();
        assert_eq!(
            s.outcome(),
            &Outcome::Valid {
                lower_bound: manhattan
            }
        );
        assert_eq!((s.distance(), s.plan()), (None, &Plan::Fast));
        assert!(!s.is_optimal() && s.length().is_some_and(|n| n as u64 >= manhattan));
        // Up to 9 cells fast mode answers from the complete tables: optimal.
        let (_, s) = solve("8 6 7/2 5 4/3 0 1", &opts);
        assert_eq!((s.outcome(), s.distance()), (&Outcome::Optimal, Some(31)));
    }

    #[test]
    fn answers_as_json() {
        let (b, s) = solve("[[4,1,2],[5,0,3]]", &SolveOptions::default());
        let mut a = Answer::new(&b, &s, Listing::Written(Notation::Short));
        a.seconds = 0.007078;
        assert_eq!(
            a.to_json(),
            r#"{"board": [[4,1,2],[5,0,3]], "moves": 5, "metric": "stm", "optimal": true, "nodes": 0, "seconds": 0.007078, "solution": [5,4,1,2,3], "notation": "RDL2U"}"#
        );
        let (b, s) = solve("[[1,2,3],[5,4,0]]", &SolveOptions::default());
        let a = Answer::new(&b, &s, Listing::Tiles);
        assert!(a.to_json().starts_with(
            r#"{"board": [[1,2,3],[5,4,0]], "moves": -1, "metric": "stm", "optimal": true, "nodes": 0, "seconds": 0.000000, "solution": null, "reason": "parity: "#
        ));
        let opts = SolveOptions {
            max_nodes: Some(1),
            weight: Some(1.5),
            ..search()
        };
        let (b, s) = solve("8 6 7/2 5 4/3 0 1", &opts);
        let json = Answer::new(&b, &s, Listing::Omit).to_json();
        let lower = s.lower_bound();
        assert_eq!(
            json,
            format!(
                r#"{{"board": [[8,6,7],[2,5,4],[3,0,1]], "moves": null, "metric": "stm", "optimal": false, "nodes": {}, "seconds": 0.000000, "lower_bound": {lower}, "bound": 1.5}}"#,
                s.nodes()
            )
        );
    }

    #[derive(Serialize)]
    struct Sample {
        board: Vec<Vec<u32>>,
        seconds: f64,
        bound: f64,
        whole: f64,
        none: Option<u32>,
        text: &'static str,
    }

    #[test]
    fn objects_are_spaced_arrays_packed_seconds_six_decimals() {
        let s = Sample {
            board: vec![vec![4, 1, 2], vec![5, 0, 3]],
            seconds: 0.5,
            bound: 1.25,
            whole: 2.0,
            none: None,
            text: "a \"b\"",
        };
        assert_eq!(
            to_json(&s),
            r#"{"board": [[4,1,2],[5,0,3]], "seconds": 0.500000, "bound": 1.25, "whole": 2, "none": null, "text": "a \"b\""}"#
        );
    }
}
