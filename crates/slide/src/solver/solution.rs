//! The answer of a solve: [`Solution`], its moves and what is proven about them.

use crate::board::{Board, Direction, Tile};
use crate::error::Result;
use crate::metric::Metric;

use super::Plan;
#[cfg(doc)]
use super::Solver;

/// An answer: the moves (each the tile that slides into the blank), or why there are none.
///
/// The moves are always single-tile moves; [`Solution::metric`] says how they are counted. In MTM an optimal
/// solution's [`length`](Solution::length) and [`distance`](Solution::distance) are its number of multi-tile moves:
/// the number of maximal runs of one direction in `moves` ([`crate::Moves::mtm_len`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Solution {
    /// The moves in order; `None` when the goal cannot be reached, or when a limit stopped the search first.
    pub moves: Option<Vec<Tile>>,
    /// How the moves are counted (the metric they are optimal in, when `optimal`).
    pub metric: Metric,
    /// The number of moves in `metric`, when it is not `moves.len()` (MTM).
    pub(super) counted: Option<usize>,
    /// Why the goal cannot be reached.
    pub unsolvable_reason: Option<String>,
    /// True when the answer is proven: the moves are least in number, or the goal is proven unreachable.
    pub optimal: bool,
    /// A proven lower bound on the least number of moves (equal to it when `optimal`).
    pub lower_bound: u64,
    /// For bounded-suboptimal search: the moves are at most this factor times the least number.
    pub within: Option<f64>,
    /// Search nodes generated (0 for table lookups).
    pub nodes: u64,
    /// The search heuristic's estimate of the start, a lower bound on the least number of moves (0 for table
    /// lookups and fast mode).
    pub estimate: u64,
    /// The method that answered ([`Solver::plan`]'s choice).
    pub plan: Plan,
}

impl Solution {
    pub(super) fn unsolvable(reason: String, plan: Plan) -> Solution {
        Solution {
            moves: None,
            metric: Metric::Stm,
            counted: None,
            unsolvable_reason: Some(reason),
            optimal: true,
            lower_bound: 0,
            within: None,
            nodes: 0,
            estimate: 0,
            plan,
        }
    }

    /// A search that a limit stopped: no moves, the optimum proven at least `lower_bound`.
    pub(super) fn stopped(lower_bound: u32, nodes: u64, estimate: u32, plan: Plan) -> Solution {
        Solution {
            moves: None,
            metric: Metric::Stm,
            counted: None,
            unsolvable_reason: None,
            optimal: false,
            lower_bound: lower_bound as u64,
            within: None,
            nodes,
            estimate: estimate as u64,
            plan,
        }
    }

    pub(super) fn optimal(moves: Vec<Tile>, nodes: u64, plan: Plan) -> Solution {
        let lower_bound = moves.len() as u64;
        Solution {
            moves: Some(moves),
            metric: Metric::Stm,
            counted: None,
            unsolvable_reason: None,
            optimal: true,
            lower_bound,
            within: None,
            nodes,
            estimate: 0,
            plan,
        }
    }

    /// A solution from a known move sequence (for example from [`crate::fast`]), proven least or not.
    pub fn from_moves(moves: Vec<Tile>, optimal: bool) -> Solution {
        let lower_bound = if optimal { moves.len() as u64 } else { 0 };
        Solution {
            moves: Some(moves),
            metric: Metric::Stm,
            counted: None,
            unsolvable_reason: None,
            optimal,
            lower_bound,
            within: None,
            nodes: 0,
            estimate: 0,
            plan: Plan::Fast,
        }
    }

    /// The same answer with its moves counted in `metric`: multi-tile moves are counted by replaying the moves from
    /// `board`. The caller vouches for optimality in `metric` (an STM-optimal sequence need not be MTM-optimal).
    pub(super) fn in_metric(mut self, metric: Metric, board: &Board) -> Result<Solution> {
        self.metric = metric;
        self.counted = match (&self.moves, metric) {
            (Some(m), Metric::Mtm) => Some(crate::notation::Moves::from_tiles(board, m)?.mtm_len()),
            _ => None,
        };
        if self.optimal {
            self.lower_bound = self.length().unwrap_or(0) as u64;
        }
        Ok(self)
    }

    /// The proven least number of moves (in [`Solution::metric`]), `Some(-1)` when the goal is proven unreachable, and `None` when neither is
    /// proven: a limit stopped the search, or the moves found are not proven least (bounded-suboptimal search, fast
    /// mode; [`Solution::length`] gives their number).
    ///
    /// ```
    /// use slide::{Board, Solver};
    /// let b = Board::parse("[[1,2,3],[5,4,0]]").unwrap();
    /// assert_eq!(Solver::global().solve(&b, &Board::goal(b.shape())).unwrap().distance(), Some(-1));
    /// ```
    pub fn distance(&self) -> Option<i64> {
        match &self.moves {
            _ if self.is_unsolvable() => Some(-1),
            Some(_) if self.optimal => self.length().map(|n| n as i64),
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
    /// assert_eq!(s.moves.as_deref(), Some(&[7, 8][..])); // two single-tile moves...
    /// assert_eq!((s.length(), s.distance()), (Some(1), Some(1))); // ...one multi-tile move
    /// assert_eq!(Moves::from_tiles(&b, &[7, 8]).unwrap().mtm_len(), 1);
    /// ```
    pub fn length(&self) -> Option<usize> {
        let m = self.moves.as_ref()?;
        Some(self.counted.unwrap_or(m.len()))
    }

    /// True when the goal is proven unreachable.
    pub fn is_unsolvable(&self) -> bool {
        self.unsolvable_reason.is_some()
    }

    /// True when the goal can be reached (proven by a solution or by parity).
    pub fn is_solvable(&self) -> bool {
        self.unsolvable_reason.is_none()
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
        crate::notation::Moves::from_tiles(board, tiles)
            .map(crate::notation::Moves::into_directions)
    }
}
