//! Admissible heuristics for IDA*: Manhattan distance, linear conflicts, and additive pattern databases with the
//! reflection about the main diagonal. Each keeps its value up to date move by move.
//!
//! The files of this folder: this one holds what every heuristic shares ([`Geometry`], the [`Eval`] trait);
//! `manhattan.rs` the Manhattan-distance heuristics ([`Manhattan`], [`PatternManhattan`], [`LinearConflict`]);
//! `view.rs` the pattern databases as the search reads them ([`PdbSet`] and one view of the board, direct or
//! reflected); `pdb_eval.rs` the additive pattern databases ([`PdbEval`]) and their constructors; `mixed.rs` the
//! mixed sums over both views; `probe.rs` how [`PdbEval`] estimates a child and looks ahead; `max.rs` the maximum
//! over partitions ([`PdbMax`]).

use crate::board::Shape;
use crate::error::{Error, Result, SolveError};

mod manhattan;
mod max;
mod mixed;
mod pdb_eval;
mod probe;
#[cfg(test)]
mod tests;
mod view;

pub use manhattan::{LinearConflict, Manhattan, PatternManhattan};
pub use max::{PdbMax, MAX_PARTITIONS};
pub use pdb_eval::PdbEval;
pub use probe::{PdbAhead, PdbProbe, PdbUndo};
pub use view::PdbSet;

/// Most cells a board searched by IDA* may have.
pub const MAX_SEARCH_CELLS: usize = 64;

/// The goal geometry shared by the heuristics and the search: a canonical shape and goal (see [`crate::board::frame`]).
#[derive(Debug, Clone)]
pub struct Geometry {
    /// The shape.
    pub shape: Shape,
    /// Number of cells.
    pub n: usize,
    /// The goal's blank cell.
    pub blank_goal: usize,
    /// Goal cell of each tile (index 0, the blank: its goal cell).
    pub goal_cell: Vec<u8>,
    /// Tile whose goal is each cell (0 on the blank's goal cell).
    pub tile_at_goal: Vec<u8>,
    /// Neighbours of each cell.
    pub neighbors: Vec<[u8; 4]>,
    /// Number of neighbours of each cell.
    pub degree: Vec<u8>,
    /// `md[t * n + c]`: Manhattan distance of tile `t` on cell `c` from its goal (0 for the blank).
    pub md: Vec<u8>,
}

impl Geometry {
    /// The geometry of `shape` with the canonical goal whose blank is on `blank_goal`.
    pub fn new(shape: Shape, blank_goal: usize) -> Result<Geometry> {
        let n = shape.cells();
        if n > MAX_SEARCH_CELLS || blank_goal >= n {
            return Err(if n > MAX_SEARCH_CELLS {
                Error::Solve(SolveError::SearchTooLarge { shape })
            } else {
                Error::Internal(format!("goal blank cell {blank_goal} is off the board"))
            });
        }
        let goal_cell: Vec<u8> =
            (0..n).map(|t| if t == 0 { blank_goal } else if t - 1 < blank_goal { t - 1 } else { t } as u8).collect();
        let mut tile_at_goal = vec![0u8; n];
        for (t, &c) in goal_cell.iter().enumerate() {
            tile_at_goal[c as usize] = t as u8;
        }
        let (neighbors, degree) = shape.neighbor_table();
        let mut md = vec![0u8; n * n];
        for t in 1..n {
            for c in 0..n {
                md[t * n + c] = shape.manhattan(c, goal_cell[t] as usize) as u8;
            }
        }
        Ok(Geometry {
            shape,
            n,
            blank_goal,
            goal_cell,
            tile_at_goal,
            neighbors,
            degree,
            md,
        })
    }

    /// The cell mirrored about the main diagonal (square boards only).
    #[inline]
    pub fn transpose(&self, c: u8) -> u8 {
        let cols = self.shape.cols() as u8;
        (c % cols) * cols + c / cols
    }

    /// True when the goal is its own mirror image about the main diagonal, so reflection can be used.
    pub fn reflectable(&self) -> bool {
        self.shape.rows() == self.shape.cols()
            && self.transpose(self.blank_goal as u8) as usize == self.blank_goal
    }
}

/// A heuristic kept current along a search path: `push` a move, `pop` it on the way back.
pub trait Eval {
    /// What `push` saves for `pop`.
    type Undo: Copy;
    /// True when a move may change the estimate by more than one (the search then applies pathmax).
    const INCONSISTENT: bool = false;
    /// Sets up for a state given as tile → cell.
    fn reset(&mut self, pos: &[u8]);
    /// The current estimate.
    fn h(&self) -> u32;
    /// Tile `t` moved from cell `from` to cell `to`. Once the estimate is known to exceed `budget`, an
    /// implementation may stop refining it: `h()` is then any admissible value above `budget`.
    fn push(&mut self, t: u8, from: u8, to: u8, budget: u32) -> Self::Undo;
    /// Undoes a `push` (same arguments, and what it returned).
    fn pop(&mut self, t: u8, from: u8, to: u8, undo: Self::Undo);
    /// What [`Eval::probe`] found, for [`Eval::push_probed`].
    type Probe: Copy + Default;
    /// The estimate after tile `t` moved from `from` to `to` (same contract as `push`), leaving the state as it
    /// was: the search probes every child first, and moves only into those within the bound. A probe whose
    /// estimate exceeds `budget` may be incomplete and must not be passed to `push_probed`.
    fn probe(&mut self, t: u8, from: u8, to: u8, budget: u32) -> (u32, Self::Probe);
    /// How the search orders children of equal estimate: those with the smaller key first (the default, 0 for
    /// every probe, keeps the order of the moves). Any order is correct: a complete iteration visits the same
    /// nodes in any order, and the order only decides how soon the last iteration meets a goal.
    #[inline(always)]
    fn tie_break(_probe: &Self::Probe) -> u8 {
        0
    }
    /// `push` with the values a `probe` of the same move found.
    fn push_probed(&mut self, t: u8, from: u8, to: u8, probe: Self::Probe) -> Self::Undo;
    /// What [`Eval::ahead`] works out for a move, for [`Eval::probe_ahead`].
    type Ahead: Copy + Default;
    /// True when the search should call [`Eval::ahead`] for every child of a node before probing the first, and
    /// then probe them with [`Eval::probe_ahead`] (the default: never).
    #[inline(always)]
    fn looks_ahead(&self) -> bool {
        false
    }
    /// What a probe of the move will need first (such as its table indices), with the loads of what it will read
    /// started (a hint that changes no value): the loads of a node's children then overlap.
    #[inline(always)]
    fn ahead(&self, _t: u8, _from: u8, _to: u8) -> Self::Ahead {
        Self::Ahead::default()
    }
    /// [`Eval::probe`] given what [`Eval::ahead`] returned for the same move in the same state (the default
    /// ignores it).
    #[inline(always)]
    fn probe_ahead(
        &mut self,
        t: u8,
        from: u8,
        to: u8,
        budget: u32,
        _ahead: Self::Ahead,
    ) -> (u32, Self::Probe) {
        self.probe(t, from, to, budget)
    }
}

/// Which database layouts a [`PdbEval`] reads, its `LAYOUTS` parameter: an evaluator for one layout only has no
/// branch on the layout in its search loop.
pub mod layouts {
    /// Any layout without a zero-aware index: plain, blank-cell and blank-bit ([`PdbEval::plain`](super::PdbEval::plain)).
    pub const ANY: u8 = 0;
    /// The plain layout only ([`PdbEval::plain_layout`](super::PdbEval::plain_layout)).
    pub const PLAIN: u8 = 1;
    /// The blank-bit layout only ([`PdbEval::blank_bits`](super::PdbEval::blank_bits)).
    pub const BLANK_BITS: u8 = 2;
    /// The blank-bit layout only, every entry of 32 bits, as on 5 × 5
    /// ([`PdbEval::blank_bits_32`](super::PdbEval::blank_bits_32)): the entry's width is known in the loop.
    pub const BLANK_BITS_32: u8 = 3;
    /// The blank-bit layout only, every table sparse with a bit per cell of the board in 32-bit entries, as on
    /// 5 × 5 with the sparse index ([`PdbLayout::bit_per_cell`](crate::engine::pdb::PdbLayout::bit_per_cell),
    /// [`PdbEval::blank_cell_bits_32`](super::PdbEval::blank_cell_bits_32)): a lookup reads the blank's bit without
    /// the pattern's cells, which the loop then no longer keeps.
    pub const BLANK_CELL_BITS_32: u8 = 4;
}
