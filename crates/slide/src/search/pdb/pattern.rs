//! The abstract space of a pattern and the blank ([`PatternSpace`]), searched by the BFS engine: for the direct
//! build of a database and for partial goals.
//!
//! The direct build runs [`bfs_compact`](crate::exact::bfs::bfs_compact) over it: two bits per placement *with* the
//! blank (`(n-k)` times the placements: 8 tiles of 16, 4.15 G states, 1.04 GB), plus a bit per placement (reached
//! yet?) and the entries. The search settles the states in order of distance, so the first state of a placement it
//! settles has the least cost over the blank's cells: the entry is written then, and the placement's bit keeps later
//! states from writing it again. Placements never reached (only when the pattern holds every tile) read 15.
//! Databases go this way only when the zero-aware index does not take the pattern (see
//! [`Pdb::build`](super::Pdb::build)).

use super::MAX_PATTERN;
use crate::board::Shape;
use crate::error::{Error, Result, SolveError};
use crate::exact::bfs::StateSpace;
use crate::exact::rank::PartialRanker;
use crate::metric::Metric;

/// The abstract space of a pattern with the blank, searched by the BFS engine.
#[derive(Debug, Clone)]
pub struct PatternSpace {
    cells: Vec<u8>,
    blank: u8,
    /// Ranks placements of the pattern's tiles and the blank (blank last).
    ranker: PartialRanker,
    /// Ranks placements of the pattern's tiles alone: a state's rank is `placement * group + blank digit`, where
    /// the blank digit counts the free cells below the blank's cell.
    placement: PartialRanker,
    pub(super) group: u64,
    pub(super) group_div: strength_reduce::StrengthReducedU64,
    neighbors: Vec<Vec<u8>>,
    /// Set for the space of a partial goal ([`PatternSpace::partial`]).
    partial: Option<Partial>,
}

/// What makes a [`PatternSpace`] the space of a partial goal: every move costs 1, the goals are all the states that
/// match, and in MTM a move pushes up to the whole ray.
#[derive(Debug, Clone)]
struct Partial {
    /// The blank's fixed cell, or `None` when the blank is free.
    blank: Option<u8>,
    /// Most cells the blank jumps in one move: 1 in STM, the longest ray in MTM.
    jump: usize,
    /// `rays[c][d]`: the cells from `c` outward in direction `d` (up, down, left, right).
    rays: Vec<[Vec<u8>; 4]>,
}

impl PatternSpace {
    /// The space of the tiles whose goal cells are `cells` on `shape` (at most 64 cells), for the goal whose blank
    /// is on cell `blank` (not one of `cells`).
    pub fn new(shape: Shape, cells: &[u8], blank: usize) -> Result<PatternSpace> {
        let n = shape.cells();
        if n > 64 || cells.is_empty() || cells.len() > MAX_PATTERN || cells.len() + 1 > n {
            return Err(Error::Solve(SolveError::BadPartition {
                reason: format!(
                    "a pattern needs 1 to {MAX_PATTERN} tiles on a board of at most 64 cells"
                ),
            }));
        }
        let mut seen = 0u64;
        for &c in cells {
            if c as usize >= n || seen & (1 << c) != 0 {
                return Err(Error::Solve(SolveError::BadPartition {
                    reason: format!("pattern cell {c} is off the board or repeated"),
                }));
            }
            seen |= 1 << c;
        }
        if blank >= n || seen & (1 << blank) != 0 {
            return Err(Error::Solve(SolveError::BadPartition {
                reason: format!("the blank's goal cell {blank} must lie outside the pattern"),
            }));
        }
        let ranker = PartialRanker::new(n, cells.len() + 1).ok_or_else(|| {
            Error::Solve(SolveError::BadPartition {
                reason: "pattern too large to rank".into(),
            })
        })?;
        let placement =
            PartialRanker::new(n, cells.len()).expect("smaller than the ranker with the blank");
        let group = (n - cells.len()) as u64;
        let neighbors = (0..n)
            .map(|c| shape.neighbors(c).map(|x| x as u8).collect())
            .collect();
        Ok(PatternSpace {
            cells: cells.to_vec(),
            blank: blank as u8,
            ranker,
            placement,
            group,
            group_div: strength_reduce::StrengthReducedU64::new(group),
            neighbors,
            partial: None,
        })
    }

    /// The space of a partial goal on `shape` (at most 64 cells): the tiles whose goal cells are `cells` (at most
    /// [`MAX_PATTERN`], in the order their positions are ranked) and the blank, whose goal cell is `blank` when the
    /// pattern fixes it, else any cell outside `cells`. Unlike a pattern database's space, every move costs 1 (the
    /// answer counts all moves) and the goals are every matching state (no minimum over the blank afterwards: a
    /// state's distance is the board's). Moves are those of `metric`: in MTM the blank jumps 1 to k cells.
    pub fn partial(
        shape: Shape,
        cells: &[u8],
        blank: Option<usize>,
        metric: Metric,
    ) -> Result<PatternSpace> {
        let n = shape.cells();
        if n > 64 {
            return Err(Error::Solve(SolveError::PatternTooLarge { shape }));
        }
        if cells.len() > MAX_PATTERN || cells.len() + 1 > n {
            return Err(Error::Solve(SolveError::InvalidOption {
                option: "goal".into(),
                reason: format!(
                    "a partial goal fixes at most {MAX_PATTERN} tiles besides the blank ({} here)",
                    cells.len()
                ),
            }));
        }
        let mut seen = 0u64;
        for &c in cells.iter().chain(blank.map(|b| b as u8).as_ref()) {
            if c as usize >= n || seen & (1 << c) != 0 {
                return Err(Error::Internal(format!(
                    "partial goal cell {c} is off the board or repeated"
                )));
            }
            seen |= 1 << c;
        }
        let k = cells.len();
        let ranker = PartialRanker::new(n, k + 1).ok_or_else(|| {
            Error::Solve(SolveError::TooMuchMemory {
                what: "the table of a partial goal".into(),
                needed: u64::MAX,
                limit: u64::MAX,
            })
        })?;
        let placement = PartialRanker::new(n, k).expect("smaller than the ranker with the blank");
        let group = (n - k) as u64;
        let neighbors = (0..n)
            .map(|c| shape.neighbors(c).map(|x| x as u8).collect())
            .collect();
        let (rows, cols) = (shape.rows() as isize, shape.cols() as isize);
        let rays = (0..n as isize)
            .map(|c| {
                [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)].map(|(dr, dc)| {
                    let (mut y, mut x) = (c / cols + dr, c % cols + dc);
                    let mut ray = Vec::new();
                    while (0..rows).contains(&y) && (0..cols).contains(&x) {
                        ray.push((y * cols + x) as u8);
                        (y, x) = (y + dr, x + dc);
                    }
                    ray
                })
            })
            .collect();
        Ok(PatternSpace {
            cells: cells.to_vec(),
            blank: blank.unwrap_or(n) as u8,
            ranker,
            placement,
            group,
            group_div: strength_reduce::StrengthReducedU64::new(group),
            neighbors,
            partial: Some(Partial {
                blank: blank.map(|b| b as u8),
                jump: match metric {
                    Metric::Stm => 1,
                    Metric::Mtm => shape.rows().max(shape.cols()),
                },
                rays,
            }),
        })
    }

    /// The rank of a state: the cells of the pattern's tiles (in pattern order) and the blank's cell.
    #[inline]
    pub fn state_rank(&self, items: &[u8], blank: u8) -> u64 {
        let k = self.cells.len();
        let mut all = [0u8; MAX_PATTERN + 1];
        all[..k].copy_from_slice(&items[..k]);
        all[k] = blank;
        self.ranker.rank(&all[..k + 1])
    }

    /// The moves of a partial goal's space from the state of `items` (the pattern's tiles' cells, whose placement
    /// has rank `placement` and leaves the cells of `free` unoccupied) with the blank on `b`: calls
    /// `visit(direction, k, rank)` for each, where the blank jumps `k` cells along its ray `direction` (0 up, 1
    /// down, 2 left, 3 right; `k` is 1 in STM) and `rank` is the state reached. Nothing for a pattern database's
    /// space.
    pub fn partial_moves(
        &self,
        items: &[u8],
        placement: u64,
        free: u64,
        b: u8,
        visit: &mut dyn FnMut(usize, usize, u64),
    ) {
        let Some(p) = &self.partial else { return };
        let k = self.cells.len();
        let below = |mask: u64, c: u8| (mask & ((1u64 << c) - 1)).count_ones() as u64;
        for (dir, ray) in p.rays[b as usize].iter().enumerate() {
            let mut it = [0u8; MAX_PATTERN];
            it[..k].copy_from_slice(&items[..k]);
            let (mut free2, mut prev, mut pl) = (free, b, placement);
            for (j, &c) in ray.iter().take(p.jump).enumerate() {
                if free2 & (1u64 << c) == 0 {
                    // A pattern tile on the ray slides one cell toward where the blank was.
                    let i = it[..k]
                        .iter()
                        .position(|&x| x == c)
                        .expect("c holds a pattern tile");
                    it[i] = prev;
                    free2 = (free2 & !(1u64 << prev)) | (1u64 << c);
                    pl = self.placement.rank(&it[..k]);
                }
                prev = c;
                visit(dir, j + 1, pl * self.group + below(free2, c));
            }
        }
    }

    /// The blank's cells along its ray `direction` (as in [`PatternSpace::partial_moves`]) from cell `b`; empty for
    /// a pattern database's space.
    pub fn ray(&self, b: usize, direction: usize) -> &[u8] {
        self.partial.as_ref().map_or(&[], |p| &p.rays[b][direction])
    }

    /// The pattern's goal cells, in ranking order.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }
}

/// Working memory of [`PatternSpace`]: the last placement unranked (consecutive ranks share it), its free cells.
#[derive(Debug, Clone, Copy)]
pub struct PatternScratch {
    placement: u64,
    items: [u8; MAX_PATTERN],
    free: u64,
}

impl StateSpace for PatternSpace {
    type Scratch = PatternScratch;

    fn size(&self) -> u64 {
        self.ranker.size()
    }

    fn goals(&self) -> Vec<u64> {
        // The goal: every pattern tile home, the blank on its own goal cell. The cells the blank reaches from there
        // without moving a pattern tile follow at cost 0.
        let k = self.cells.len();
        let mut items = [0u8; MAX_PATTERN + 1];
        items[..k].copy_from_slice(&self.cells);
        match &self.partial {
            // A partial goal whose blank is free: every state with the pattern's tiles home.
            Some(Partial { blank: None, .. }) => (0..self.neighbors.len() as u8)
                .filter(|c| !self.cells.contains(c))
                .map(|c| {
                    items[k] = c;
                    self.ranker.rank(&items[..k + 1])
                })
                .collect(),
            _ => {
                items[k] = self.blank;
                vec![self.ranker.rank(&items[..k + 1])]
            }
        }
    }

    fn scratch(&self) -> PatternScratch {
        PatternScratch {
            placement: u64::MAX,
            items: [0; MAX_PATTERN],
            free: 0,
        }
    }

    #[inline]
    fn expand(&self, rank: u64, s: &mut PatternScratch, visit: &mut impl FnMut(u64, u8)) {
        let k = self.cells.len();
        let placement = rank / self.group_div;
        let digit = rank - placement * self.group;
        if placement != s.placement {
            // The scan visits ranks in order, so the states of one placement come together: unrank it once.
            s.free = self.placement.unrank(placement, &mut s.items[..k]).0;
            s.placement = placement;
        }
        let free = s.free;
        let below = |mask: u64, c: u8| (mask & ((1u64 << c) - 1)).count_ones() as u64;
        let b = select(free, digit as u32) as u8;
        if self.partial.is_some() {
            let items = s.items;
            self.partial_moves(&items[..k], placement, free, b, &mut |_, _, r| visit(r, 1));
            return;
        }
        for &c in &self.neighbors[b as usize] {
            if free & (1u64 << c) != 0 {
                // The blank moves through a free cell: same placement, cost 0.
                visit(placement * self.group + below(free, c), 0);
            } else {
                // A pattern tile slides from c into the blank's cell b.
                let j = s.items[..k]
                    .iter()
                    .position(|&p| p == c)
                    .expect("c holds a pattern tile");
                s.items[j] = b;
                let p2 = self.placement.rank(&s.items[..k]);
                s.items[j] = c;
                let free2 = (free & !(1u64 << b)) | (1u64 << c);
                visit(p2 * self.group + below(free2, c), 1);
            }
        }
    }
}

/// The Manhattan distance of a placement (the cells of the pattern's tiles, in pattern order) from the goal cells.
pub(super) fn manhattan(shape: Shape, items: &[u8], cells: &[u8]) -> u32 {
    items
        .iter()
        .zip(cells)
        .map(|(&p, &g)| shape.manhattan(p as usize, g as usize) as u32)
        .sum()
}

/// The Manhattan distance of each pattern tile on each cell, for the builds' inner loops (no divisions there).
#[derive(Debug, Clone)]
pub(super) struct ManhattanTable {
    /// `md[i * 64 + c]`: tile `i` of the pattern on cell `c`.
    pub(super) md: Vec<u8>,
}

impl ManhattanTable {
    pub(super) fn new(shape: Shape, cells: &[u8]) -> ManhattanTable {
        let mut md = vec![0u8; cells.len() * 64];
        for (i, &g) in cells.iter().enumerate() {
            for c in 0..shape.cells() {
                md[i * 64 + c] = shape.manhattan(c, g as usize) as u8;
            }
        }
        ManhattanTable { md }
    }

    /// [`manhattan`] of a placement.
    #[inline]
    pub(super) fn of(&self, items: &[u8]) -> u32 {
        items
            .iter()
            .enumerate()
            .map(|(i, &p)| self.md[i * 64 + (p as usize & 63)] as u32)
            .sum()
    }
}

/// Index of the `d`-th (0-based) set bit of `mask`.
#[inline]
fn select(mut mask: u64, d: u32) -> u32 {
    for _ in 0..d {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}
