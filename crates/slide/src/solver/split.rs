//! The distributed split: one threshold of a search cut into subtrees for other processes or machines, and the
//! search of one subtree.

use crate::board::frame::Frame;
use crate::board::{Board, Tile};
use crate::error::{Error, ParseError, Result, SolveError};
use crate::search::choose::EvalJob;
use crate::search::heuristic::{Eval, Geometry, MAX_SEARCH_CELLS};
use crate::search::pruning::MovePruner;
use crate::search::{search_subtree, split_threshold, Frontier, Limits, Subtree};

use super::drive::pruner_for;
use super::{SolveOptions, Solver};
#[cfg(doc)]
use crate::engine::SolverExt;

impl Solver {
    /// The canonical frame, geometry and positions of a search from `board` to `goal`, checking that one can run.
    fn search_setup(&self, board: &Board, goal: &Board) -> Result<(Frame, Geometry, Vec<u8>)> {
        let shape = board.shape();
        if shape.cells() > MAX_SEARCH_CELLS {
            return Err(Error::Solve(SolveError::SearchTooLarge { shape }));
        }
        if let Some(reason) = board.unsolvable_reason(goal)? {
            return Err(Error::Solve(SolveError::Unsolvable { reason }));
        }
        if shape.is_line() {
            return Err(Error::Solve(SolveError::InvalidOption {
                option: "board".into(),
                reason: format!(
                    "no search to split on {shape}: a single row or column has one way to the goal"
                ),
            }));
        }
        let frame = Frame::new(goal);
        let geometry = Geometry::new(frame.shape(), frame.blank_goal())?;
        let mut pos = vec![0u8; shape.cells()];
        frame.positions(board, &mut pos);
        Ok((frame, geometry, pos))
    }

    /// One threshold of the optimal search cut into subtrees
    /// ([`SolverExt::split_threshold`]).
    pub(crate) fn split_threshold(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        threshold: Option<u64>,
        want: usize,
    ) -> Result<SplitThreshold> {
        let (frame, geometry, pos) = self.search_setup(board, goal)?;
        let bound = threshold.map(|t| t.min(u32::MAX as u64 - 1) as u32);
        let pruner = pruner_for(opts);
        let f = self.with_eval(
            goal,
            &frame,
            &geometry,
            opts,
            &opts.heuristic,
            SplitJob {
                pos: &pos,
                bound,
                want,
                pruner: &pruner,
            },
        )?;
        // The subtrees' roots as the tiles moved from the board (canonical tiles named in the user's frame).
        let mut tiles = vec![0u8; pos.len()];
        for (t, &c) in pos.iter().enumerate() {
            tiles[c as usize] = t as u8;
        }
        let subtrees = f
            .subtrees
            .iter()
            .map(|cells| {
                let mut tiles = tiles.clone();
                let mut blank = pos[0] as usize;
                cells
                    .iter()
                    .map(|&c| {
                        let t = tiles[c as usize];
                        tiles[blank] = t;
                        tiles[c as usize] = 0;
                        blank = c as usize;
                        frame.tile(t as Tile)
                    })
                    .collect()
            })
            .collect();
        Ok(SplitThreshold {
            threshold: f.bound as u64,
            estimate: f.estimate as u64,
            subtrees,
            solution: f
                .solution
                .map(|m| m.into_iter().map(|t| frame.tile(t as Tile)).collect()),
            next_threshold: (f.next_bound != u32::MAX).then_some(f.next_bound as u64),
            nodes: f.nodes,
        })
    }

    /// Searches one subtree of a threshold that [`SolverExt::split_threshold`] cut: `root` is the moves (tiles) from
    /// `board` to the subtree's root, `threshold` the threshold; the limits of `opts` (nodes, time, cancel flag)
    /// apply to this subtree.
    pub(crate) fn search_subtree(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        threshold: u64,
        root: &[Tile],
    ) -> Result<SubtreeResult> {
        let (frame, geometry, pos) = self.search_setup(board, goal)?;
        let mut b = board.clone();
        let mut cells = Vec::with_capacity(root.len());
        for &t in root {
            let cell = b.tiles().iter().position(|&x| x == t);
            b.apply(t)?;
            cells.push(
                frame.cell(cell.ok_or(Error::Parse(ParseError::IllegalMove { tile: t as u64 }))?)
                    as u8,
            );
        }
        let limits = Limits {
            max_depth: None,
            ..opts.limits()
        };
        let pruner = pruner_for(opts);
        let job = SubtreeJob {
            pos: &pos,
            bound: threshold.min(u32::MAX as u64 - 1) as u32,
            root: &cells,
            limits: &limits,
            pruner: &pruner,
        };
        let outcome = self
            .with_eval(goal, &frame, &geometry, opts, &opts.heuristic, job)?
            .ok_or_else(|| {
                Error::Solve(SolveError::InvalidOption {
                    option: "root".into(),
                    reason: "the subtree's root is not a walk of the blank".into(),
                })
            })?;
        Ok(match outcome {
            Subtree::Solved { moves, nodes } => SubtreeResult::Solved {
                moves: moves.into_iter().map(|t| frame.tile(t as Tile)).collect(),
                nodes,
            },
            Subtree::Exhausted { next_bound, nodes } => SubtreeResult::Exhausted {
                next_threshold: (next_bound != u32::MAX).then_some(next_bound as u64),
                nodes,
            },
            Subtree::Stopped { nodes } => SubtreeResult::Stopped { nodes },
        })
    }
}

/// One threshold of a search cut into subtrees ([`SolverExt::split_threshold`]); moves are tiles of the user's board.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SplitThreshold {
    /// The threshold that was cut (the start's estimate for the first).
    pub threshold: u64,
    /// The start's heuristic estimate.
    pub estimate: u64,
    /// The subtrees' roots, in search order, each as the moves from the board.
    pub subtrees: Vec<Vec<Tile>>,
    /// An optimal solution found above the cut (then `subtrees` is empty).
    pub solution: Option<Vec<Tile>>,
    /// The next threshold as far as the nodes above the cut tell (`None`: none of them passed the threshold).
    pub next_threshold: Option<u64>,
    /// Nodes generated while cutting.
    pub nodes: u64,
}

/// What the search of one subtree found ([`SolverExt::search_subtree`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubtreeResult {
    /// A solution within the threshold: the moves from the board (the root's included).
    Solved {
        /// The tiles moved, from the board.
        moves: Vec<Tile>,
        /// Nodes generated.
        nodes: u64,
    },
    /// No solution within the threshold; the subtree's candidate for the next one (`None`: nothing passed it).
    Exhausted {
        /// The least `f` over the threshold among the nodes pruned.
        next_threshold: Option<u64>,
        /// Nodes generated.
        nodes: u64,
    },
    /// A limit stopped the search of the subtree.
    Stopped {
        /// Nodes generated.
        nodes: u64,
    },
}

/// The cut of one threshold ([`SolverExt::split_threshold`]).
struct SplitJob<'a> {
    pos: &'a [u8],
    bound: Option<u32>,
    want: usize,
    pruner: &'a MovePruner,
}

impl EvalJob for SplitJob<'_> {
    type Out = Frontier;
    fn run<E: Eval + Clone + Send + Sync>(self, g: &Geometry, eval: E) -> Frontier {
        split_threshold(g, eval, self.pos, self.bound, self.want, self.pruner)
    }
}

/// The search of one subtree ([`SolverExt::search_subtree`]).
struct SubtreeJob<'a, 'l> {
    pos: &'a [u8],
    bound: u32,
    root: &'a [u8],
    limits: &'a Limits<'l>,
    pruner: &'a MovePruner,
}

impl EvalJob for SubtreeJob<'_, '_> {
    type Out = Option<Subtree>;
    fn run<E: Eval + Clone + Send + Sync>(self, g: &Geometry, eval: E) -> Option<Subtree> {
        search_subtree(
            g,
            eval,
            self.pos,
            self.bound,
            self.root,
            self.limits,
            self.pruner,
        )
    }
}
