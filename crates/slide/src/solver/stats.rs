//! Facts about a whole state space: [`Stats`] and [`Solver::stats`].

use crate::board::frame::Frame;
use crate::board::{Board, Tile};
use crate::error::{Error, Result, SolveError};
use crate::exact::table::MAX_TABLE_CELLS;
use crate::metric::Metric;

use super::Solver;

/// Facts about the whole state space of a shape and goal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    /// Number of boards that can reach the goal.
    pub states: u64,
    /// `histogram[d]` = number of boards at distance `d`.
    pub histogram: Vec<u64>,
    /// Some boards at the largest distance (all of them when `antipodes.len() as u64 == histogram.last()`).
    pub antipodes: Vec<Board>,
}

impl Stats {
    /// The largest distance: god's number for this goal.
    pub fn diameter(&self) -> u32 {
        self.histogram.len() as u32 - 1
    }
}

impl Solver {
    /// The number of boards at each distance from `goal`, for shapes with a complete table and for single rows and
    /// columns.
    ///
    /// ```
    /// let s = slide::Solver::global().stats(&slide::Board::goal("2x3".parse().unwrap())).unwrap();
    /// assert_eq!((s.states, s.diameter()), (360, 21));
    /// ```
    pub fn stats(&self, goal: &Board) -> Result<Stats> {
        self.stats_in(goal, Metric::Stm)
    }

    /// The number of boards at each distance from `goal` in `metric`, as [`Solver::stats`].
    ///
    /// ```
    /// use slide::{Board, Metric, Solver};
    /// let s = Solver::global().stats_in(&Board::goal("3x3".parse().unwrap()), Metric::Mtm).unwrap();
    /// assert_eq!((s.states, s.diameter()), (181_440, 24));
    /// ```
    pub fn stats_in(&self, goal: &Board, metric: Metric) -> Result<Stats> {
        let shape = goal.shape();
        if shape.is_line() && metric == Metric::Mtm {
            // One push takes the blank anywhere on its line.
            let n = shape.cells();
            let histogram = if n > 1 {
                vec![1, n as u64 - 1]
            } else {
                vec![1]
            };
            let antipodes = (0..n)
                .filter(|&c| c != goal.blank() || n == 1)
                .take(crate::exact::table::MAX_ANTIPODES)
                .map(|c| {
                    let mut tiles: Vec<Tile> =
                        goal.tiles().iter().copied().filter(|&t| t != 0).collect();
                    tiles.insert(c, 0);
                    Board::new(shape, tiles).expect("a permutation")
                })
                .collect();
            return Ok(Stats {
                states: n as u64,
                histogram,
                antipodes,
            });
        }
        if shape.is_line() {
            let n = shape.cells();
            let b = goal.blank();
            let mut histogram = vec![0u64; b.max(n - 1 - b) + 1];
            for p in 0..n {
                histogram[p.abs_diff(b)] += 1;
            }
            let far = if b >= n - 1 - b { 0 } else { n - 1 };
            let mut tiles: Vec<Tile> = goal.tiles().iter().copied().filter(|&t| t != 0).collect();
            tiles.insert(far, 0);
            let mut antipodes = vec![Board::new(shape, tiles.clone()).expect("a permutation")];
            if b == n - 1 - b && n > 1 {
                tiles.remove(far);
                tiles.push(0);
                antipodes.push(Board::new(shape, tiles).expect("a permutation"));
            }
            return Ok(Stats {
                states: n as u64,
                histogram,
                antipodes,
            });
        }
        if shape.cells() > MAX_TABLE_CELLS {
            return Err(Error::Solve(SolveError::NoTable { shape }));
        }
        let frame = Frame::new(goal);
        let table = self.table_in(frame.shape(), frame.blank_goal(), metric)?;
        let antipodes = table
            .antipodes()
            .iter()
            .map(|p| frame.unmap(shape, p))
            .collect();
        Ok(Stats {
            states: table.space().states(),
            histogram: table.histogram().to_vec(),
            antipodes,
        })
    }
}
