//! Partial goals: the exact distance from every board to the nearest board matching a [`Pattern`].
//!
//! The abstract state of a pattern is where its fixed tiles stand and where the blank stands; the other tiles are
//! indistinguishable. Moves act on abstract states exactly as on boards (the blank moves; a fixed tile it meets
//! moves with it), so the least number of moves from a board to any matching board is the distance of the board's
//! abstract state from the abstract goal states: the fixed tiles home, with the blank on its cell when the
//! pattern fixes it, else on any other cell (a multi-source start). Moves are reversible, so one
//! [`bfs`](crate::exact::bfs) from those goals over a [`PatternSpace::partial`] gives every state's distance:
//! the pattern-database machinery with every move costing 1 and without the minimum over the blank.
//!
//! Size: `n! / (n-k-1)!` states for `k` fixed tiles on `n` cells (the 4 × 4 first row or top-left 2 × 2 block:
//! 524,160), a byte each while searching, then packed in as few bits as the largest distance needs (one value is
//! kept for states no goal reaches). An optimal move sequence is read by walking down the table.

use crate::board::{Board, Pattern, Shape, Tile};
use crate::error::{Error, Result, StoreError};
use crate::exact::bfs::{bfs, UNSEEN};
use crate::exact::packed::PackedTable;
use crate::metric::Metric;
use crate::progress::Progress;
use crate::search::pdb::PatternSpace;

/// What a partial goal's table depends on: the shape, the cells of the fixed tiles (in reading order), the
/// blank's fixed cell (or none) and the metric. Patterns that fix the same cells share a table, whatever tiles
/// they name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PartialKey {
    /// The shape.
    pub shape: Shape,
    /// The goal cells of the fixed tiles, in reading order.
    pub cells: Vec<u8>,
    /// The blank's fixed cell, when the pattern fixes it.
    pub blank: Option<usize>,
    /// How moves are counted.
    pub metric: Metric,
}

impl PartialKey {
    /// The key of `pattern`'s table in `metric`.
    pub fn of(pattern: &Pattern, metric: Metric) -> PartialKey {
        PartialKey {
            shape: pattern.shape(),
            cells: pattern
                .fixed_tiles()
                .iter()
                .map(|&(c, _)| c as u8)
                .collect(),
            blank: pattern.blank(),
            metric,
        }
    }

    /// The number of abstract states (ranks), or `None` when it does not fit in a `u64`.
    pub fn states(&self) -> Option<u64> {
        crate::exact::rank::PartialRanker::new(self.shape.cells(), self.cells.len() + 1)
            .map(|r| r.size())
    }
}

/// The exact distances of every abstract state of a partial goal, packed.
#[derive(Debug, Clone)]
pub struct PartialTable {
    key: PartialKey,
    space: PatternSpace,
    table: PackedTable,
    histogram: Vec<u64>,
}

impl PartialTable {
    /// Builds the table of `key` with the BFS engine (in parallel, reporting to `progress`).
    pub fn build(key: &PartialKey, progress: &dyn Progress) -> Result<PartialTable> {
        let space = PatternSpace::partial(key.shape, &key.cells, key.blank, key.metric)?;
        let label = format!("partial goal {} {}-tile", key.shape, key.cells.len());
        let dist = bfs(&space, &label, progress, None)?;
        let diameter = dist.max_distance();
        // One more value than the diameter: the all-ones entry marks states no goal reaches.
        let bits = 32 - (diameter + 1).leading_zeros();
        let unseen = (1u32 << bits) - 1;
        let table = PackedTable::from_bytes(bits.max(1), &dist.bytes, |b| {
            if b == UNSEEN {
                unseen
            } else {
                b as u32
            }
        })?;
        Ok(PartialTable {
            key: key.clone(),
            space,
            table,
            histogram: dist.histogram,
        })
    }

    /// Reassembles a table from a table file's parts.
    pub fn from_parts(
        key: &PartialKey,
        table: PackedTable,
        histogram: Vec<u64>,
    ) -> Result<PartialTable> {
        let space = PatternSpace::partial(key.shape, &key.cells, key.blank, key.metric)?;
        let bits_needed = 32 - (histogram.len() as u32).leading_zeros();
        if Some(table.len()) != key.states() || table.bits() != bits_needed.max(1) {
            return Err(Error::Store(StoreError::Unusable(
                "partial-goal table does not fit its pattern".into(),
            )));
        }
        Ok(PartialTable {
            key: key.clone(),
            space,
            table,
            histogram,
        })
    }

    /// The key.
    pub fn key(&self) -> &PartialKey {
        &self.key
    }

    /// The packed entries.
    pub fn packed(&self) -> &PackedTable {
        &self.table
    }

    /// Abstract states at each distance.
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }

    /// The largest distance of a state that reaches the goal.
    pub fn diameter(&self) -> u32 {
        self.histogram.len().saturating_sub(1) as u32
    }

    fn unseen(&self) -> u32 {
        (1u32 << self.table.bits()) - 1
    }

    /// The positions of the fixed tiles `tiles` (in key order) on `board`, and the blank's cell.
    fn state(&self, board: &Board, tiles: &[Tile], pos: &mut [u8]) -> u64 {
        let mut at = [0u8; 64];
        for (cell, &t) in board.tiles().iter().enumerate() {
            if (t as usize) < 64 {
                at[t as usize] = cell as u8;
            }
        }
        for (p, &t) in pos.iter_mut().zip(tiles) {
            *p = at[t as usize];
        }
        self.space.state_rank(pos, board.blank() as u8)
    }

    /// The least number of moves from `board` to a board where each of `tiles` (the tiles the pattern puts on the
    /// key's cells, in order) is home, and the blank too if fixed; `None` when no such board is reachable.
    pub fn distance(&self, board: &Board, tiles: &[Tile]) -> Option<u32> {
        let mut pos = [0u8; crate::search::pdb::MAX_PATTERN];
        let r = self.state(board, tiles, &mut pos);
        let d = self.table.get(r);
        (d != self.unseen()).then_some(d)
    }

    /// An optimal move sequence (single-tile moves: the tiles that slide into the blank), by walking down the
    /// table: each step takes a move to a state one closer. `None` when the goal is not reachable.
    pub fn path(&self, board: &Board, tiles: &[Tile]) -> Option<Vec<Tile>> {
        let k = tiles.len();
        let mut board = board.clone();
        let mut pos = [0u8; crate::search::pdb::MAX_PATTERN];
        let mut d = self.distance(&board, tiles)?;
        let mut moves = Vec::new();
        while d > 0 {
            let placement =
                self.state(&board, tiles, &mut pos) / (board.shape().cells() - k) as u64;
            let all = u64::MAX >> (64 - board.shape().cells());
            let free = pos[..k].iter().fold(all, |m, &c| m & !(1u64 << c));
            let b = board.blank();
            let mut step = None;
            self.space
                .partial_moves(&pos[..k], placement, free, b as u8, &mut |dir, jump, r| {
                    if step.is_none() && self.table.get(r) == d - 1 {
                        step = Some((dir, jump));
                    }
                });
            let (dir, jump) = step?;
            for &c in &self.space.ray(b, dir)[..jump] {
                let t = board.tiles()[c as usize];
                board.apply(t).ok()?;
                moves.push(t);
            }
            d -= 1;
        }
        Some(moves)
    }
}
