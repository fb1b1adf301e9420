//! Additive pattern databases (Korf & Felner): exact pattern costs for a set of tiles, built with the BFS engine.
//!
//! A pattern is a set of goal cells; its tiles are the tiles that belong there. The abstract state is where those
//! tiles stand and where the blank stands (other tiles are indistinguishable); a move of a pattern tile costs 1, a
//! move of any other tile costs 0, so the costs of disjoint patterns add up to an admissible heuristic. The
//! [`bfs`](crate::exact::bfs) engine runs from the goal itself: the pattern's tiles home and the blank on *its* goal cell
//! (with every cell the blank reaches from there for free), then the database keeps, for each placement of the
//! pattern's tiles, the least cost over the blank's cells.
//!
//! Seeding with the blank's own goal cell matters where the pattern walls that cell in: with the blank-first goal of
//! the 15-puzzle, a pattern holding tiles 1 and 4 must move one of them to let the blank home, and counting that
//! raises the mean 7-8 estimate over Korf's 100 instances from 44.6 to 45.6 (3.5 times fewer nodes).
//!
//! Keeping the least cost over the blank's cells makes the heuristic admissible but not always consistent: where the
//! blank is walled in by pattern tiles, the least cost over all blank cells can be well below the cost from the
//! blank's actual cell, so one move may change the estimate by more than one. IDA* needs admissibility only.
//! (With every tile in the pattern, the database is the exact distance; unreachable placements read 15 and are
//! never looked up.)
//!
//! The same space serves partial goals ([`PatternSpace::partial`], see [`crate::engine::partial`]): there every move
//! costs 1, every state with the pattern's tiles home (and the blank on its cell, if the pattern fixes it) is a
//! goal, moves may be multi-tile moves, and the distances are kept per state, not minimised over the blank.
//!
//! Storage: 4 bits per placement. A pattern's cost is at least the Manhattan distance of its tiles and has the same
//! parity, so the entry stores `(cost - manhattan) / 2`, capped at 15 (capping only lowers the estimate, which
//! stays admissible). A 6-tile pattern of the 15-puzzle has 16!/10! = 5,765,760 placements: 2.9 MB; 7 tiles
//! 57,657,600: 28.8 MB; 8 tiles 518,918,400: 259 MB.
//!
//! The direct build runs [`bfs_compact`]: two bits per placement *with* the blank (`(n-k)` times the placements:
//! 8 tiles of 16, 4.15 G states, 1.04 GB), plus a bit per placement (reached yet?) and the entries. The search settles the
//! states in order of distance, so the first state of a placement it settles has the least cost over the blank's
//! cells: the entry is written then, and the placement's bit keeps later states from writing it again. Placements
//! never reached (only when the pattern holds every tile) read 15, as before.
//!
//! ## Zero-aware databases
//!
//! A zero-aware database ([`Pdb::build_zero_aware`], partition specs with a leading `z`: `z6-6-3`, `z7-8`) keeps
//! an entry per placement *and* region of the blank: the connected cells outside the pattern's tiles, which the
//! blank crosses at no cost. Where the pattern walls the blank in, the entry of the blank's actual region can be
//! well above the least over all regions, which is what the plain database keeps (the least over a placement's
//! regions is exactly the plain entry; a test checks both against a reference BFS). The costs are still those of
//! the pattern's own tiles, so disjoint patterns still add up, and the reflection still applies (with the blank's
//! cell mirrored too).
//!
//! The search keeps one lookup per move: when a tile of pattern P moves, the blank moves to the adjacent cell the
//! tile left; for every other pattern Q both cells are free of Q's tiles, so the blank stays in the same region of
//! Q and Q's entry is unchanged. Only P is looked up again, with the blank on the tile's old cell.
//!
//! The index ([`ZeroIndex`]) is order-major: `order * R + region`, where `order` ranks the tiles' order over the
//! cells they cover (the *map*, ranked colexicographically by [`SubsetRanker`]) and `region` numbers the blank's
//! region among the `R` regions of all maps. A lookup is a colex rank and an order rank (one pass over the tiles),
//! and a byte per (map, cell) naming the region. Measured on Korf's 100 with one thread: 30 % fewer nodes with
//! z6-6-3 than 6-6-3 but 1.23 times the time, 41 % fewer with z7-8 than 7-8 but 1.3 times the time (larger tables,
//! more cache misses per lookup), so the plain databases stay the default; the README has the figures.
//!
//! The plain database is the least entry over each placement's regions ([`Pdb::plain_from_zero_aware`]), and
//! since the zero-aware search settles far fewer states, [`Pdb::build`] goes through it (bit for bit the same
//! entries and histogram as the direct search over placements and blank cells, which stays for a pattern of
//! every tile, where half the placements are never reached).
//!
//! Building runs [`bfs_compact`] over [`ZeroSpace`], whose states are the entries themselves and whose every move
//! moves a pattern tile (cost 1): a tile beside the blank's region slides onto a region cell, and the blank's new
//! region is the one holding the cell the tile left. On 16 cells a map leaves on average 2.05 regions for 6 tiles,
//! 2.43 for 7 and 2.75 for 8, so the search settles 11.8 M, 140 M and 1.43 G states instead of the plain build's
//! 57.7 M, 519 M and 4.15 G (placements times free cells), each once. The entries take 4 bits as in the plain
//! database (the parity argument holds per state), so the files are 2 to 2.75 times larger: 7-8 takes 783 MB
//! (70 MB for the 7-tile pattern, 713 MB for the 8-tile one) against 288 MB.
//!
//! ## The blank-cell layout
//!
//! [`PdbLayout::ZeroCells`] (partition specs with a leading `zc`: `zc7-8`, `zcdefault`) keeps the zero-aware entries
//! per placement and *cell* of the blank: entry `rank * (n - k) + d`, with the plain rank and `d` the free cells
//! below the blank's. Each region's entry is repeated on its cells, so the table is `n - k` times the plain one
//! (2.3 GB for zc7-8, 1.21 GB for each 6-tile database of the 24-puzzle), and a lookup is the plain rank, a
//! multiplication and a population count: no map rank, no order, no region byte. It is made from the region layout
//! in one pass ([`Pdb::zero_cells`]), which is built and cached first. The search reads it through the plain
//! evaluator, still one lookup per move (the blank stays in its region of every other pattern, so their entries do
//! not change). Measured on Korf's 100: zc7-8 0.61 times 7-8's search time with the table read into memory on huge
//! pages, 1.11 times mapped from the file (4 KB pages: a TLB miss and at first a page fault per lookup), so these
//! files are read, not mapped, when over 256 MiB; smaller ones are mapped like the others (README has the figures).
//!
//! ## The blank-bit layout
//!
//! [`PdbLayout::ZeroBits`] (a leading `zb`: `zb6-6-3`, `zb7-8`, `zbdefault`) keeps one entry per placement, as a
//! plain database does, but wider: its low 4 bits hold the plain entry (the least over the blank's regions), and bit
//! `4 + d` (`d` the free cells below the blank's, as in the blank-cell layout) says that the blank's region on that
//! cell has a zero-aware entry above it, read as one more (two moves more). An entry that is two or more above is so
//! stored one above: lower, so still admissible. Entries are 8, 16 or 32 bits (the least power of two that holds `4 +
//! n - k` bits, so that an entry never straddles two words): 16 for 6, 7 and 8 tiles of the 15-puzzle, 32 for 6 of
//! the 24-puzzle, 4 to 8 times the plain table against the blank-cell layout's `n - k` times. The cap costs little:
//! on Korf's 100, 168,435 nodes per instance against zc6-6-3's 166,287 and 14,546 against zc7-8's 14,282 (the
//! zero-aware entries differ from the least over their placement's regions mostly by one). Made from the region
//! layout in one pass ([`Pdb::zero_bits`]); read through the plain evaluator (a lookup is the plain one, the free
//! cell's population count and a shift). Sparse tables of 32-bit entries on at most 28 cells (the 24-puzzle's)
//! keep bit `4 + c` for the blank on cell `c` instead ([`PdbLayout::bit_per_cell`]; 25 of the 28 bits on 5 × 5, files
//! of encoding `zbscellextra4`): a lookup then needs neither the count nor the pattern's cells, and the search
//! no longer keeps them (13.5 % fewer instructions on 24-puzzle instance 40).
//!
//! ## The sparse index
//!
//! [`PdbIndex::Sparse`] numbers a placement by its tiles' cells as base-`n` digits, `c_0 + c_1 n + ... +
//! c_(k-1) n^(k-1)`, instead of its rank among the `n! / (n - k)!` placements: `n^k` entries, those with two tiles on
//! one cell never read. A move of tile `i` from cell `a` to `b` adds `(b - a) n^i`, so the search keeps each
//! pattern's index move by move and a child's lookup costs a multiply-add where the rank cost a population count
//! and a multiply per tile (a third of the search's instructions; since 6 December 2026 the dense rank is kept
//! move by move as well, a move changing it only through the pattern's tiles it passes: a mask and a short loop).
//! The table is 1.9 times the dense one for 6 tiles of the 24-puzzle (122 MB), 2.9 times for 6 of the 15-puzzle
//! (8.4 MB); the blank-cell layout takes it too (`sparse index * (n - k) + d`). [`Pdb::sparse`] makes it from the dense database in one parallel pass (7 s of
//! wall time for the 24-puzzle's four); the solver takes it where it has at most [`SPARSE_MAX_ENTRIES`] entries,
//! or as many bytes for the blank-bit layout's wider entries, or at most [`SPARSE_MAX_WIDE_BYTES`] and twice the
//! dense table's bytes (the 24-puzzle's blank-bit 6 tiles) (files of kind `spdb`, mapped like the dense ones,
//! and `zcspdb`, `zbspdb`, read into memory like the blank-cell and blank-bit files when over 256 MiB), unless told
//! otherwise ([`IndexChoice`]).
//!
//! ## The byte build
//!
//! When a byte per zero-aware entry fits the memory budget ([`byte_build_bytes`], [`Pdb::build_within`];
//! `--max-memory`, else [`BYTE_BUILD_BUDGET`]), the same search runs over [`ZeroBuildSpace`], the entries ranked
//! *region-major* (`region * k! + order`), with [`bfs_unit`]: a byte per state, no compare-and-swap (every move
//! costs 1), and the neighbours of a region's states in a few blocks of `k!` ranks that stay in the cache, where
//! the order-major index sends about half the moves (those passing another tile) to a random line of the table.
//! The distances then become the database in one pass (`Pdb::plain_from_distances`: by the first tile's cell,
//! each thread its own run of plain ranks; `Pdb::zero_from_distances`: a blocked transpose to the order-major
//! index). The 15-puzzle's 7-8 builds in 41 s of wall time and 77 s of CPU on two threads, 1.68 GB at the peak
//! (1.43 GB of distances, then 259 MB of table), against 1 min 54 s and 221 s through the compact search; the
//! 24-puzzle's four 6-6-6-6 databases in 28 s against 64 s. Tests check the byte build bit for bit against the
//! compact one (both kinds of database) and the compact one against the byte-per-state direct search.

use rayon::prelude::*;

use crate::board::Shape;
use crate::error::{Error, Result};
use crate::exact::bfs::{bfs_compact, bfs_unit, StateSpace, UNSEEN as UNSEEN_BYTE};
use crate::exact::packed::PackedTable;
use crate::exact::rank::{PartialRanker, SubsetRanker};
use crate::metric::Metric;
use crate::progress::Progress;
use std::sync::Arc;

/// Most tiles in one pattern.
pub const MAX_PATTERN: usize = 10;

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
    group: u64,
    group_div: strength_reduce::StrengthReducedU64,
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
            return Err(Error::BadPartition {
                reason: format!(
                    "a pattern needs 1 to {MAX_PATTERN} tiles on a board of at most 64 cells"
                ),
            });
        }
        let mut seen = 0u64;
        for &c in cells {
            if c as usize >= n || seen & (1 << c) != 0 {
                return Err(Error::BadPartition {
                    reason: format!("pattern cell {c} is off the board or repeated"),
                });
            }
            seen |= 1 << c;
        }
        if blank >= n || seen & (1 << blank) != 0 {
            return Err(Error::BadPartition {
                reason: format!("the blank's goal cell {blank} must lie outside the pattern"),
            });
        }
        let ranker = PartialRanker::new(n, cells.len() + 1).ok_or_else(|| Error::BadPartition {
            reason: "pattern too large to rank".into(),
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
            return Err(Error::PatternTooLarge { shape });
        }
        if cells.len() > MAX_PATTERN || cells.len() + 1 > n {
            return Err(Error::InvalidOption {
                option: "goal".into(),
                reason: format!(
                    "a partial goal fixes at most {MAX_PATTERN} tiles besides the blank ({} here)",
                    cells.len()
                ),
            });
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
        let ranker = PartialRanker::new(n, k + 1).ok_or_else(|| Error::TooMuchMemory {
            what: "the table of a partial goal".into(),
            needed: u64::MAX,
            limit: u64::MAX,
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
fn manhattan(shape: Shape, items: &[u8], cells: &[u8]) -> u32 {
    items
        .iter()
        .zip(cells)
        .map(|(&p, &g)| shape.manhattan(p as usize, g as usize) as u32)
        .sum()
}

/// The Manhattan distance of each pattern tile on each cell, for the builds' inner loops (no divisions there).
#[derive(Debug, Clone)]
struct ManhattanTable {
    /// `md[i * 64 + c]`: tile `i` of the pattern on cell `c`.
    md: Vec<u8>,
}

impl ManhattanTable {
    fn new(shape: Shape, cells: &[u8]) -> ManhattanTable {
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
    fn of(&self, items: &[u8]) -> u32 {
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

/// The index of a zero-aware database: one entry per placement of the pattern's tiles *and* region of the blank
/// (the connected cells of the board outside the tiles' cells, which the blank crosses at no cost).
///
/// The *map* is the set of cells the tiles cover (ranked colexicographically by [`SubsetRanker`]); its regions are
/// numbered map by map (within a map by least cell), `R` in all over the maps. An entry is `order * R + region`,
/// where `order` ranks the tiles' order over the map's cells (`0..k!`, lexicographic) and `region` is the global
/// number of the blank's region. Order-major: moving a tile to a neighbouring cell mostly keeps the order (it
/// changes only when the tile passes another tile's cell in reading order), so the lookups of a search path and
/// the neighbours of the build's search stay within a window of `R` entries (16 K for 6 tiles of the 15-puzzle,
/// 35 K for 8), where a map-major layout measured half the search speed. A byte per map and cell names the region
/// (`C(n, k) * n` bytes: 206 KB for 8 tiles of the 15-puzzle, 4.4 MB for 6 of the 24-puzzle), and each region's
/// cells are kept as a bit mask.
#[derive(Debug, Clone)]
pub struct ZeroIndex {
    n: usize,
    subsets: SubsetRanker,
    /// `region_of[m * n + c]`: the region of free cell `c` in map `m`, counted within the map (`u8::MAX` on the
    /// map's own cells).
    region_of: Vec<u8>,
    /// `region_start[m]`: the global number of map `m`'s first region; `region_start[maps]` = `R`.
    region_start: Vec<u32>,
    /// The map of each region (by global number).
    region_map: Vec<u32>,
    /// The cells of each map, by rank.
    map_masks: Vec<u64>,
    /// The cells of each region (by global number).
    region_masks: Vec<u64>,
    /// `binom[c * 16 + j]` = C(c, j) (the subset ranker's, in a fixed array: no bounds checks in the search).
    binom: Box<[u64; 64 * 16]>,
    /// `order_weights[i]` = (k - 1 - i)!: the weight of item `i`'s digit in the order's rank.
    order_weights: [u64; MAX_PATTERN],
    /// The places of each order, `k` bytes each: item `i` is on the `place`-th of the map's cells (in reading order).
    order_places: Vec<u8>,
    k: usize,
    orders: u64,
    regions: u64,
    regions_div: strength_reduce::StrengthReducedU64,
}

/// Most bytes of region table a [`ZeroIndex`] may take (`C(n, k) * n`): 32 MiB (8 tiles of the 24-puzzle take
/// 27 MB). Checked before anything is built, so that asking costs nothing for the patterns far beyond any machine
/// (whose plain builds are refused by their memory estimates).
const MAX_REGION_TABLE: u64 = 1 << 25;

impl ZeroIndex {
    /// [`ZeroIndex::new`], made once per process for each shape and `k` and shared: the solver asks for it to
    /// estimate a build's memory and to read or build each database, and making it is a flood fill of every
    /// subset of cells (43 ms for 6 tiles of the 24-puzzle, 2 ms for 6 of the 15-puzzle). Each kept index stays
    /// for the process: 10 MB for 6 tiles of 5 × 5, at most the 32 MiB of region table [`ZeroIndex::new`] allows
    /// and the order table of `k! * k` bytes.
    ///
    /// ```
    /// use slide::engine::pdb::ZeroIndex;
    /// let shape = slide::Shape::new(3, 3)?;
    /// let a = ZeroIndex::shared(shape, 4)?;
    /// assert!(std::sync::Arc::ptr_eq(&a, &ZeroIndex::shared(shape, 4)?));
    /// assert_eq!(a.size(), ZeroIndex::new(shape, 4)?.size());
    /// # Ok::<(), slide::Error>(())
    /// ```
    pub fn shared(shape: Shape, k: usize) -> Result<Arc<ZeroIndex>> {
        type Made =
            std::sync::Mutex<std::collections::HashMap<(usize, usize, usize), Arc<ZeroIndex>>>;
        static MADE: std::sync::OnceLock<Made> = std::sync::OnceLock::new();
        let made = MADE.get_or_init(Default::default);
        let key = (shape.rows(), shape.cols(), k);
        // A poisoned lock only means a thread panicked while holding it: the map is still whole.
        if let Some(z) = made.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(z.clone());
        }
        // Made outside the lock (it runs on rayon's threads); two threads may both make it, and one is kept.
        let z = Arc::new(ZeroIndex::new(shape, k)?);
        Ok(made
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(key)
            .or_insert(z)
            .clone())
    }

    /// The index of `k`-tile zero-aware databases on `shape` (at most 64 cells, `1 <= k < cells`).
    pub fn new(shape: Shape, k: usize) -> Result<ZeroIndex> {
        let n = shape.cells();
        let too_large = || Error::BadPartition {
            reason: format!("a zero-aware {k}-tile pattern of {shape} is too large to index"),
        };
        if n > 64 || k == 0 || k >= n || k > MAX_PATTERN {
            return Err(too_large());
        }
        let subsets = SubsetRanker::new(n, k).ok_or_else(too_large)?;
        let maps = subsets.size();
        if maps.saturating_mul(n as u64) > MAX_REGION_TABLE {
            return Err(too_large());
        }
        let nb: Vec<u64> = (0..n)
            .map(|c| shape.neighbors(c).fold(0u64, |m, x| m | 1 << x))
            .collect();
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let orders = subsets.orders();
        let per_map: Vec<(Vec<u8>, Vec<u64>)> = (0..maps)
            .into_par_iter()
            .map(|m| {
                let mask = subsets.unrank(m);
                let mut region_of = vec![u8::MAX; n];
                let mut masks = Vec::new();
                let mut open = all & !mask;
                while open != 0 {
                    // Flood fill from the least open cell.
                    let mut region = open & open.wrapping_neg();
                    loop {
                        let mut grown = region;
                        let mut it = region;
                        while it != 0 {
                            grown |= nb[it.trailing_zeros() as usize];
                            it &= it - 1;
                        }
                        grown &= !mask;
                        if grown == region {
                            break;
                        }
                        region = grown;
                    }
                    let mut it = region;
                    while it != 0 {
                        region_of[it.trailing_zeros() as usize] = masks.len() as u8;
                        it &= it - 1;
                    }
                    masks.push(region);
                    open &= !region;
                }
                (region_of, masks)
            })
            .collect();
        let mut region_of = Vec::with_capacity(per_map.len() * n);
        let mut region_start = Vec::with_capacity(per_map.len() + 1);
        let mut region_map = Vec::new();
        let mut region_masks = Vec::new();
        for (m, (of, masks)) in per_map.into_iter().enumerate() {
            region_start.push(u32::try_from(region_masks.len()).map_err(|_| too_large())?);
            region_of.extend_from_slice(&of);
            region_map.extend(std::iter::repeat_n(m as u32, masks.len()));
            region_masks.extend_from_slice(&masks);
        }
        let regions = region_masks.len() as u64;
        let map_masks = (0..maps).map(|m| subsets.unrank(m)).collect();
        region_start.push(u32::try_from(regions).map_err(|_| too_large())?);
        regions.checked_mul(orders).ok_or_else(too_large)?;
        let mut binom = Box::new([0u64; 64 * 16]);
        for c in 0..=n.min(63) {
            for j in 0..=k {
                binom[c * 16 + j] = subsets.binom(c, j);
            }
        }
        let mut order_weights = [0u64; MAX_PATTERN];
        for (i, w) in order_weights.iter_mut().enumerate().take(k) {
            *w = (1..(k - i) as u64).product();
        }
        // Each order's digits (item i takes the digit-th of the map's cells left) turned into places among all the
        // map's cells, so that decoding reads the cells without a search.
        let mut order_places = vec![0u8; (orders as usize) * k];
        for (o, places) in order_places.chunks_exact_mut(k).enumerate() {
            let mut r = o as u64;
            let mut digits = [0u8; MAX_PATTERN];
            for i in (0..k).rev() {
                let base = (k - i) as u64;
                digits[i] = (r % base) as u8;
                r /= base;
            }
            // The places not taken yet, in order: item i takes the digit-th of them.
            let mut left: [u8; MAX_PATTERN] = std::array::from_fn(|j| j as u8);
            for (i, (place, &d)) in places.iter_mut().zip(&digits[..k]).enumerate() {
                *place = left[d as usize];
                left.copy_within(d as usize + 1..k - i, d as usize);
            }
        }
        Ok(ZeroIndex {
            n,
            subsets,
            region_of,
            region_start,
            region_map,
            map_masks,
            region_masks,
            binom,
            order_weights,
            order_places,
            k,
            orders,
            regions,
            regions_div: strength_reduce::StrengthReducedU64::new(regions.max(1)),
        })
    }

    /// The number of entries (placements times the blank's regions).
    pub fn size(&self) -> u64 {
        self.orders * self.regions
    }

    /// Tiles in the pattern.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The entry of the tiles on `items[..k]` (in pattern order) with the blank on `blank` (a free cell).
    #[inline(always)]
    pub fn index(&self, items: &[u8], blank: u8) -> u64 {
        self.at(&self.placed(items), blank)
    }

    /// The placement of the tiles on `items[..k]` (in pattern order), ranked.
    #[inline(always)]
    pub(crate) fn placed(&self, items: &[u8]) -> Placed {
        let items = &items[..self.k];
        let mut mask = 0u64;
        for &p in items {
            mask |= 1u64 << (p & 63);
        }
        // The colex rank of the map and the order's rank, item by item with no chain between items: the cells of
        // the map below an item's cell give both its colex term and (less those of earlier items) its digit.
        let (mut colex, mut order, mut used) = (0u64, 0u64, 0u64);
        for (&p, &w) in items.iter().zip(&self.order_weights) {
            let below = (1u64 << (p & 63)) - 1;
            let a = (mask & below).count_ones();
            colex += self.binom[(p as usize & 63) * 16 + ((a as usize + 1) & 15)];
            order += (a - (used & below).count_ones()) as u64 * w;
            used |= 1u64 << (p & 63);
        }
        Placed {
            order,
            map: colex as usize,
            mask,
        }
    }

    /// The entry of a placement with the blank on `blank` (a cell outside the placement).
    #[inline(always)]
    pub(crate) fn at(&self, p: &Placed, blank: u8) -> u64 {
        let m = p.map;
        let region =
            self.region_start[m] + self.region_of[m * self.n + (blank as usize & 63)] as u32;
        p.order * self.regions + region as u64
    }

    /// Writes the cells of the order `order` of the tiles over `mask` to `items[..k]`.
    #[inline]
    fn order_items(&self, mask: u64, order: u64, items: &mut [u8]) {
        let k = self.k;
        let places = &self.order_places[order as usize * k..order as usize * k + k];
        // The map's cells in reading order (a fixed number of steps: no branch depends on the cells).
        let mut cells = [0u8; 64];
        let mut left = mask;
        for c in &mut cells[..k] {
            *c = left.trailing_zeros() as u8;
            left &= left.wrapping_sub(1);
        }
        for (slot, &place) in items[..k].iter_mut().zip(places) {
            *slot = cells[place as usize & 63];
        }
    }

    /// Decodes entry `r` (`< size()`): writes the tiles' cells to `items[..k]`, returns the map's cells and the
    /// blank's region (as cell masks).
    pub fn unindex(&self, r: u64, items: &mut [u8]) -> (u64, u64) {
        let (p, region) = self.decode(r, items);
        (p.mask, region)
    }

    /// [`ZeroIndex::unindex`] with the placement's rank kept, for the build's incremental neighbours: the
    /// placement and the blank's region (as a cell mask).
    #[inline(always)]
    fn decode(&self, r: u64, items: &mut [u8]) -> (Placed, u64) {
        let order = r / self.regions_div;
        let g = (r - order * self.regions) as usize;
        let map = self.region_map[g] as usize;
        let mask = self.map_masks[map];
        self.order_items(mask, order, items);
        (Placed { order, map, mask }, self.region_masks[g])
    }

    /// The cells strictly between two cells in reading order.
    #[inline(always)]
    fn between(&self, a: u8, b: u8) -> u64 {
        let (lo, hi) = (a.min(b) as u32 & 63, a.max(b) as u32 & 63);
        ((1u64 << hi) - 1) & !((2u64 << lo) - 1)
    }

    /// The placement `p` with tile `i` slid from cell `from` to the free cell `to`, worked out from `p`'s rank;
    /// `slot[c]` is the tile on cell `c` of `p`. Only the moved tile and the tiles of the pattern it passes (on the
    /// cells between, in reading order: none along a row, and none along a column as often as not) change their
    /// place among the map's cells, so only their colex terms change; of the order's digits (each tile's place
    /// among the cells not taken by earlier tiles), only the moved tile's (by the tiles passed, less those earlier
    /// than it) and those of the passed tiles earlier than it (by one each) change.
    #[inline(always)]
    pub(crate) fn slid(&self, p: &Placed, slot: &[u8; 64], i: usize, from: u8, to: u8) -> Placed {
        let f = from as usize & 63;
        let t = to as usize & 63;
        let mut bits = p.mask & self.between(from, to);
        let j = (p.mask & ((1u64 << f) - 1)).count_ones() as usize;
        let s = bits.count_ones() as usize;
        let binom = |c: usize, r: usize| self.binom[(c & 63) * 16 + (r & 15)];
        let (mut colex, mut order) = (p.map as u64, p.order);
        let w = self.order_weights[i];
        if bits == 0 {
            // The tiles keep their order: one colex term changes.
            colex = colex - binom(f, j + 1) + binom(t, j + 1);
        } else {
            let (mut earlier, mut earlier_weights) = (0u64, 0u64);
            if t < f {
                // Up the board: the tile's place drops from j to j - s, and each passed tile's rises by one.
                colex = colex - binom(f, j + 1) + binom(t, j - s + 1);
                let mut place = j - s;
                while bits != 0 {
                    let x = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    colex = colex - binom(x, place + 1) + binom(x, place + 2);
                    place += 1;
                    let u = slot[x] as usize;
                    if u < i {
                        earlier += 1;
                        earlier_weights += self.order_weights[u];
                    }
                }
                order = order + earlier_weights + earlier * w - s as u64 * w;
            } else {
                // Down the board: the tile's place rises from j to j + s, and each passed tile's drops by one.
                colex = colex - binom(f, j + 1) + binom(t, j + s + 1);
                let mut place = j + 1;
                while bits != 0 {
                    let x = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    colex = colex - binom(x, place + 1) + binom(x, place);
                    place += 1;
                    let u = slot[x] as usize;
                    if u < i {
                        earlier += 1;
                        earlier_weights += self.order_weights[u];
                    }
                }
                order = order + s as u64 * w - earlier * w - earlier_weights;
            }
        }
        Placed {
            order,
            map: colex as usize,
            mask: p.mask ^ (1u64 << f) ^ (1u64 << t),
        }
    }

    /// The region-major rank ([`ZeroBuildSpace`]) of entry `r`.
    #[inline]
    pub fn region_major(&self, r: u64) -> u64 {
        (r % self.regions) * self.orders + r / self.regions
    }

    /// The entry of the region-major rank `r` ([`ZeroBuildSpace`]).
    #[inline]
    pub fn order_major(&self, r: u64) -> u64 {
        (r % self.orders) * self.regions + r / self.orders
    }

    /// The regions of the map of `mask` (the cells of the pattern's tiles), as cell masks in index order.
    pub fn regions(&self, mask: u64) -> &[u64] {
        let m = self.subsets.rank(mask) as usize;
        &self.region_masks[self.region_start[m] as usize..self.region_start[m + 1] as usize]
    }
}

/// A placement of a zero-aware pattern's tiles, ranked as [`ZeroIndex`] reads it; with the blank's cell it makes
/// an entry ([`ZeroIndex::at`]). The search keeps one per pattern and moves it tile by tile ([`ZeroIndex::slid`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Placed {
    /// The rank of the tiles' order over the map's cells.
    pub(crate) order: u64,
    /// The colex rank of the map.
    pub(crate) map: usize,
    /// The map's cells.
    pub(crate) mask: u64,
}

/// The abstract space of a zero-aware pattern database, searched by the BFS engine: a state is an entry of
/// [`ZeroIndex`] (the pattern's tiles and the blank's region). A tile next to the blank's region moves onto any
/// region cell next to it (cost 1; every move moves a pattern tile), and the blank's new region is the one holding
/// the cell the tile left.
#[derive(Debug, Clone)]
pub struct ZeroSpace {
    cells: Vec<u8>,
    blank: u8,
    index: Arc<ZeroIndex>,
    /// Neighbours of each cell, as a mask.
    nb: Vec<u64>,
    md: ManhattanTable,
}

/// Working memory of [`ZeroSpace`] (none).
#[derive(Debug, Clone, Copy)]
pub struct ZeroScratch;

impl ZeroSpace {
    /// The space of the tiles whose goal cells are `cells` on `shape`, for the goal whose blank is on `blank`.
    pub fn new(
        shape: Shape,
        cells: &[u8],
        blank: usize,
        index: Arc<ZeroIndex>,
    ) -> Result<ZeroSpace> {
        // The same checks as the plain space's.
        PatternSpace::new(shape, cells, blank)?;
        if index.k() != cells.len() || index.n != shape.cells() {
            return Err(Error::Internal(
                "zero-aware index of another pattern size".into(),
            ));
        }
        let nb = (0..shape.cells())
            .map(|c| shape.neighbors(c).fold(0u64, |m, x| m | 1 << x))
            .collect();
        Ok(ZeroSpace {
            cells: cells.to_vec(),
            blank: blank as u8,
            index,
            nb,
            md: ManhattanTable::new(shape, cells),
        })
    }
}

impl StateSpace for ZeroSpace {
    type Scratch = ZeroScratch;

    fn size(&self) -> u64 {
        self.index.size()
    }

    fn goals(&self) -> Vec<u64> {
        vec![self.index.index(&self.cells, self.blank)]
    }

    fn scratch(&self) -> ZeroScratch {
        ZeroScratch
    }

    #[inline]
    fn expand(&self, rank: u64, scratch: &mut ZeroScratch, visit: &mut impl FnMut(u64, u8)) {
        self.expand_noted(rank, scratch, visit);
    }

    /// Returns the Manhattan distance of the pattern's tiles.
    #[inline]
    fn expand_noted(&self, rank: u64, _: &mut ZeroScratch, visit: &mut impl FnMut(u64, u8)) -> u32 {
        let ix = &*self.index;
        let k = self.cells.len();
        let mut items = [0u8; MAX_PATTERN];
        let (p, region) = ix.decode(rank, &mut items[..k]);
        let mut slot = [0u8; 64];
        let mut md = 0;
        for (i, &c) in items[..k].iter().enumerate() {
            slot[c as usize & 63] = i as u8;
            md += self.md.md[i * 64 + (c as usize & 63)] as u32;
        }
        for (i, &c) in items[..k].iter().enumerate() {
            let mut targets = self.nb[c as usize & 63] & region;
            while targets != 0 {
                let b = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                // The tile slides from c onto b; the blank's region is now the one holding c.
                let r = ix.at(&ix.slid(&p, &slot, i, c, b), c);
                #[cfg(debug_assertions)]
                {
                    let mut moved = items;
                    moved[i] = b;
                    debug_assert_eq!(r, ix.index(&moved[..k], c));
                }
                visit(r, 1);
            }
        }
        md
    }
}

/// The zero-aware space of [`ZeroSpace`] ranked *region-major* for the build: rank `region * k! + order` (the
/// search's index is order-major, `order * R + region`). All the states of one region share its map and their
/// moves (a tile next to the region onto a region cell next to it), so the moves are worked out once per region
/// (kept in the scratch while the scan stays in the region), and a move sends the `k!` states of a region to the
/// `k!` states of one other region, keeping the order (a tile that passes no other tile in reading order) or
/// changing it by a sum that depends on the tiles passed: the neighbours of a region's states lie in a few blocks
/// of `k!` ranks (40 KB for 8 tiles), which stay in the cache while the scan crosses the region. Searched by
/// [`crate::exact::bfs::bfs_unit`]; `Pdb::zero_from_distances` and `Pdb::plain_from_distances` turn the
/// distances into the databases.
#[derive(Debug, Clone)]
pub struct ZeroBuildSpace {
    index: Arc<ZeroIndex>,
    k: usize,
    goal: u64,
    /// Neighbours of each cell, as a mask.
    nb: Vec<u64>,
    /// `order_tiles[order * k + place]`: the tile on the `place`-th of the map's cells.
    order_tiles: Vec<u8>,
    orders: u64,
}

/// One move of a region's states in [`ZeroBuildSpace`]: the tile on the map's `place`-th cell slides onto a cell
/// of the region, passing the tiles on places `lo..hi` (none when `lo == hi`), into region `target` of the new map.
#[derive(Debug, Clone, Copy)]
struct RegionMove {
    /// The first rank of the region reached (`region * k!`).
    target: u64,
    place: u8,
    lo: u8,
    hi: u8,
    /// The tile moves up the board (to a lower place).
    up: bool,
    /// The cell the tile moves to (for the debug checks).
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    to: u8,
}

/// Working memory of [`ZeroBuildSpace`]: the region last expanded and its moves.
#[derive(Debug, Clone)]
pub struct ZeroBuildScratch {
    /// The first rank of the region (past every rank before the first).
    first: u64,
    moves: Vec<RegionMove>,
}

impl ZeroBuildSpace {
    /// The space of the tiles whose goal cells are `cells` on `shape`, for the goal whose blank is on `blank`.
    pub fn new(
        shape: Shape,
        cells: &[u8],
        blank: usize,
        index: Arc<ZeroIndex>,
    ) -> Result<ZeroBuildSpace> {
        let z = ZeroSpace::new(shape, cells, blank, index.clone())?;
        let k = cells.len();
        let mut order_tiles = vec![0u8; index.order_places.len()];
        for (places, tiles) in index
            .order_places
            .chunks_exact(k)
            .zip(order_tiles.chunks_exact_mut(k))
        {
            for (i, &p) in places.iter().enumerate() {
                tiles[p as usize] = i as u8;
            }
        }
        let goal = index.index(cells, blank as u8);
        Ok(ZeroBuildSpace {
            goal: index.region_major(goal),
            k,
            nb: z.nb,
            order_tiles,
            orders: index.orders,
            index,
        })
    }

    /// The moves of region `g`'s states.
    fn region_moves(&self, g: usize, moves: &mut Vec<RegionMove>) {
        let ix = &*self.index;
        moves.clear();
        let mask = ix.map_masks[ix.region_map[g] as usize];
        let region = ix.region_masks[g];
        let mut left = mask;
        for place in 0..self.k {
            let c = left.trailing_zeros();
            left &= left - 1;
            let mut targets = self.nb[c as usize] & region;
            while targets != 0 {
                let b = targets.trailing_zeros();
                targets &= targets - 1;
                let moved = mask ^ (1u64 << c) ^ (1u64 << b);
                let m = ix.subsets.rank(moved) as usize;
                let target = ix.region_start[m] as u64 + ix.region_of[m * ix.n + c as usize] as u64;
                let to = (moved & ((1u64 << b) - 1)).count_ones() as usize;
                let (lo, hi, up) = if to <= place {
                    (to, place, true)
                } else {
                    (place + 1, to + 1, false)
                };
                moves.push(RegionMove {
                    target: target * self.orders,
                    place: place as u8,
                    lo: lo as u8,
                    hi: hi as u8,
                    up,
                    to: b as u8,
                });
            }
        }
    }
}

impl StateSpace for ZeroBuildSpace {
    type Scratch = ZeroBuildScratch;

    fn size(&self) -> u64 {
        self.index.size()
    }

    fn goals(&self) -> Vec<u64> {
        vec![self.goal]
    }

    fn scratch(&self) -> ZeroBuildScratch {
        ZeroBuildScratch {
            first: self.size(),
            moves: Vec::new(),
        }
    }

    #[inline]
    fn expand(&self, rank: u64, s: &mut ZeroBuildScratch, visit: &mut impl FnMut(u64, u8)) {
        if rank < s.first || rank >= s.first + self.orders {
            let g = rank / self.orders;
            s.first = g * self.orders;
            self.region_moves(g as usize, &mut s.moves);
        }
        let order = rank - s.first;
        let k = self.k;
        let tiles = &self.order_tiles[order as usize * k..order as usize * k + k];
        let weights = &self.index.order_weights;
        for mv in &s.moves {
            // The order changes only by the passed tiles (see `ZeroIndex::slid`): the moved tile's digit by the
            // passed tiles earlier than it, less those passed, and each passed tile earlier than it by one.
            let mut child = order;
            if mv.lo < mv.hi {
                let i = tiles[mv.place as usize] as usize;
                let w = weights[i];
                let (mut earlier, mut earlier_weights) = (0u64, 0u64);
                for &x in &tiles[mv.lo as usize..mv.hi as usize] {
                    let before = ((x as usize) < i) as u64;
                    earlier += before;
                    earlier_weights += before * weights[x as usize];
                }
                let s = (mv.hi - mv.lo) as u64;
                child = if mv.up {
                    order + earlier_weights + earlier * w - s * w
                } else {
                    order + s * w - earlier * w - earlier_weights
                };
            }
            let r = mv.target + child;
            #[cfg(debug_assertions)]
            {
                let ix = &*self.index;
                let mut items = [0u8; MAX_PATTERN];
                ix.decode(ix.order_major(rank), &mut items[..k]);
                let tile = tiles[mv.place as usize] as usize;
                let from = items[tile];
                items[tile] = mv.to;
                debug_assert_eq!(r, ix.region_major(ix.index(&items[..k], from)));
            }
            visit(r, 1);
        }
    }
}

/// The memory budget of [`Pdb::build_within`] and [`Pdb::build_zero_aware_within`] when none is given: 8 GiB.
pub const BYTE_BUILD_BUDGET: u64 = 8 << 30;

/// Memory the byte build of a `k`-tile pattern database of `shape` needs (`None` when the zero-aware index does
/// not take such patterns): a byte per zero-aware entry while searching, then the database's 4 bits per entry
/// (the zero-aware one's when `zero_aware`, else the plain one's, per placement), and the build's order table
/// (`k! * k` bytes). For 8 tiles of the 15-puzzle: 1.43 GB + 259 MB.
pub fn byte_build_bytes(shape: Shape, k: usize, zero_aware: bool) -> Option<u64> {
    let z = ZeroIndex::shared(shape, k).ok()?;
    let out = if zero_aware {
        z.size()
    } else {
        PartialRanker::new(shape.cells(), k)?.size()
    };
    Some(z.size() + out / 2 + z.orders * k as u64)
}

/// The memory of the byte build ([`byte_build_bytes`]) when a build under `budget` (`None`:
/// [`BYTE_BUILD_BUDGET`]) takes it, else `None`: the one rule of [`Pdb::build_within`],
/// [`Pdb::build_zero_aware_within`] and the solver's up-front estimates.
pub fn byte_build_taken(
    shape: Shape,
    k: usize,
    zero_aware: bool,
    budget: Option<u64>,
) -> Option<u64> {
    byte_build_bytes(shape, k, zero_aware).filter(|&b| b <= budget.unwrap_or(BYTE_BUILD_BUDGET))
}

/// Adds histogram `b` into `a` (the longer one's length).
/// A zeroed table of `len` 4-bit entries filled by `fill` through its words as atomics (parallel passes set an
/// entry's bits with `fetch_or`); the words and what `fill` returned.
fn fill_entries<R>(
    len: u64,
    fill: impl FnOnce(&[std::sync::atomic::AtomicU64]) -> R,
) -> (Vec<u64>, R) {
    fill_entries_of(PDB_BITS, len, fill)
}

/// [`fill_entries`] for entries of `bits` bits, a power of two up to 32 (no entry straddles two words).
fn fill_entries_of<R>(
    bits: u32,
    len: u64,
    fill: impl FnOnce(&[std::sync::atomic::AtomicU64]) -> R,
) -> (Vec<u64>, R) {
    debug_assert!(bits.is_power_of_two() && bits <= 32);
    let words = PackedTable::words_for(bits, len);
    let mut raw: Vec<u64> = crate::exact::packed::large_vec(words);
    // SAFETY: AtomicU64 has the size and alignment of u64; `raw` is not otherwise used while the view lives (it
    // ends when `fill` returns).
    let entries: &[std::sync::atomic::AtomicU64] = unsafe {
        std::slice::from_raw_parts(
            raw.as_mut_ptr() as *const std::sync::atomic::AtomicU64,
            words,
        )
    };
    let r = fill(entries);
    (raw, r)
}

fn add_histogram(mut a: Vec<u64>, b: Vec<u64>) -> Vec<u64> {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
    a
}

/// A blank-bit entry `e` of a placement on the cells `used` (a bit per cell, `n` cells) with its bits per free cell
/// moved to their cells: bit `4 + d` for the `d`-th free cell becomes bit `4 + c` for that cell `c`
/// ([`PdbLayout::bit_per_cell`]).
fn bits_by_cell(e: u64, used: u64, n: usize) -> u64 {
    let mut out = e & 15;
    let mut d = 0;
    for c in 0..n as u32 {
        if used >> c & 1 == 0 {
            out |= (e >> (PDB_BITS + d) & 1) << (PDB_BITS + c);
            d += 1;
        }
    }
    out
}

/// The placements [`Pdb::sparse`] copies for one cell of the pattern's last tile: every cell of the others, with
/// their dense rank and sparse index summed digit by digit.
struct Digits<'a> {
    n: u64,
    k: usize,
    last: u64,
    weights: &'a [u64],
    pow: &'a [u64],
}

impl Digits<'_> {
    /// Tiles `i..k-1` on every free cell of `used` (which holds the earlier tiles' cells and the last tile's),
    /// `rank` and `sparse` the sums so far; `f(dense rank, sparse index, cells)` for each whole placement (its
    /// cells a bit per cell).
    fn visit(
        &self,
        i: usize,
        used: u64,
        rank: u64,
        sparse: u64,
        f: &mut impl FnMut(u64, u64, u64),
    ) {
        if i + 1 == self.k {
            // The last tile's digit counts the other tiles below its cell (its own bit is not below it).
            let below = (used & ((1u64 << self.last) - 1)).count_ones() as u64;
            f(
                rank + (self.last - below) * self.weights[i],
                sparse + self.last * self.pow[i],
                used,
            );
            return;
        }
        for c in 0..self.n {
            if used >> c & 1 == 1 {
                continue;
            }
            // Only the earlier tiles count below `c`: not the last tile's cell, which `used` also holds.
            let below = (used & ((1u64 << c) - 1)).count_ones() as u64 - (self.last < c) as u64;
            self.visit(
                i + 1,
                used | 1u64 << c,
                rank + (c - below) * self.weights[i],
                sparse + c * self.pow[i],
                f,
            );
        }
    }
}

/// A built pattern database: for each placement of the pattern's tiles, `(cost - manhattan) / 2` in 4 bits.
#[derive(Debug, Clone)]
pub struct Pdb {
    shape: Shape,
    cells: Vec<u8>,
    blank: u8,
    ranker: PartialRanker,
    table: PackedTable,
    histogram: Vec<u64>,
    capped: u64,
    /// Set for a zero-aware database indexed by placement and the blank's region ([`PdbLayout::Zero`]).
    zero: Option<Arc<ZeroIndex>>,
    layout: PdbLayout,
    index: PdbIndex,
}

/// How a database numbers the placements of its pattern's tiles (the layout then says what each placement holds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PdbIndex {
    /// By rank among the `n! / (n - k)!` placements ([`PartialRanker`]): the smallest table; a lookup ranks the
    /// placement afresh, a population count per tile.
    #[default]
    Dense,
    /// By `c_0 + c_1 n + ... + c_(k-1) n^(k-1)`, the cells of the pattern's tiles as digits: `n^k` placements, of
    /// which those with two tiles on one cell are never read (1.9 times the dense count for 6 tiles of the
    /// 24-puzzle, 2.9 times for 6 of the 15-puzzle). A move of tile `i` from cell `a` to `b` adds `(b - a) n^i`,
    /// so the search keeps each pattern's index move by move and a lookup ranks nothing ([`Pdb::sparse`]).
    Sparse,
}

/// Most entries a sparse-index table may have when the solver chooses the index ([`IndexChoice::Auto`]): `2^28`,
/// 128 MiB of 4-bit entries (tables of wider entries, in the blank-bit layout, count by their bytes: at most 128
/// MiB). Within it: patterns of up to 7 tiles on the 15-puzzle, 6 on the 24-puzzle, and the blank-cell and
/// blank-bit layouts of 6 tiles on the 15-puzzle.
pub const SPARSE_MAX_ENTRIES: u64 = 1 << 28;

/// Most bytes a sparse-index table may take when the solver chooses the index ([`IndexChoice::Auto`]) and it
/// takes more than [`SPARSE_MAX_ENTRIES`] 4-bit entries: 1 GiB, and at most twice the dense table's bytes. Within
/// it: the blank-bit layout of 6 tiles on the 24-puzzle (977 MB against 510 MB dense; `zbdefault` took 0.83 times
/// the dense tables' search time, docs/korf24.md), which makes the 5 × 5 default pair (`zbdefault|zbalt`). Not
/// the 15-puzzle's blank-bit 7 tiles (537 MB, 4.7 times its dense 115 MB) nor any blank-cell layout over 128 MiB.
pub const SPARSE_MAX_WIDE_BYTES: u64 = 1 << 30;

/// Which databases a solver keeps with the sparse index ([`PdbIndex`]; `Solver::pdb_index_choice`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum IndexChoice {
    /// Sparse where the table takes at most the memory of [`SPARSE_MAX_ENTRIES`] 4-bit entries (128 MiB), or at
    /// most [`SPARSE_MAX_WIDE_BYTES`] (1 GiB) and at most twice the dense table's; dense elsewhere (the default).
    #[default]
    Auto,
    /// Dense everywhere: the smallest tables, by rank.
    Dense,
    /// Sparse wherever the layout has a sparse form (not the region layout) and the build fits the memory budget:
    /// for example the 24-puzzle's `zcdefault` in 9.3 GB instead of 4.85 GB.
    Sparse,
}

impl std::str::FromStr for IndexChoice {
    type Err = Error;

    /// `auto`, `dense` or `sparse`.
    fn from_str(s: &str) -> Result<IndexChoice> {
        match s {
            "auto" => Ok(IndexChoice::Auto),
            "dense" => Ok(IndexChoice::Dense),
            "sparse" => Ok(IndexChoice::Sparse),
            _ => Err(Error::InvalidOption {
                option: "pdb-index".into(),
                reason: format!("'{s}' is not one of auto, dense, sparse"),
            }),
        }
    }
}

impl PdbIndex {
    /// How many placement numbers the index has for `k` tiles on `n` cells (`None` past `u64`).
    pub fn placements(self, n: usize, k: usize) -> Option<u64> {
        match self {
            PdbIndex::Dense => Some(PartialRanker::new(n, k)?.size()),
            PdbIndex::Sparse => (n as u64).checked_pow(k as u32),
        }
    }

    /// The table's entries in `layout` for `k` tiles on `n` cells (`zero`: the zero-aware index's size, for the
    /// region layout, which has no sparse form).
    pub fn entries(self, layout: PdbLayout, n: usize, k: usize, zero: Option<u64>) -> Option<u64> {
        if self == PdbIndex::Sparse && layout == PdbLayout::Zero {
            return None;
        }
        layout.entries(n, k, self.placements(n, k)?, zero)
    }

    /// The index of `placement` (cells of the pattern's tiles, in pattern order) on `n` cells.
    #[inline]
    pub fn of(self, ranker: &PartialRanker, n: usize, placement: &[u8]) -> u64 {
        match self {
            PdbIndex::Dense => ranker.rank(placement),
            PdbIndex::Sparse => placement
                .iter()
                .rev()
                .fold(0u64, |s, &c| s * n as u64 + c as u64),
        }
    }
}

/// How a pattern database's entries are indexed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PdbLayout {
    /// An entry per placement of the pattern's tiles: the least cost over the blank's cells.
    Plain,
    /// Zero-aware, an entry per placement and region of the blank, ranked by [`ZeroIndex`] (order-major): the
    /// compact form, 2 to 3 times the plain size.
    Zero,
    /// Zero-aware, an entry per placement and free cell of the blank: entry `rank * (n - k) + d`, where `rank` is
    /// the plain rank and `d` counts the free cells below the blank's, so each region's entry is repeated on its
    /// cells. `n - k` times the plain size (19 for 6 tiles of the 24-puzzle, 8 for 8 of the 15-puzzle), looked up
    /// as fast as a plain entry ([`Pdb::zero_cells`]).
    ZeroCells,
    /// Zero-aware, capped at one more than the plain entry, in one wider entry per placement: the plain entry in
    /// the low 4 bits, and bit `4 + d` set when the blank on its `d`-th free cell (counted from cell 0) is in a region
    /// whose zero-aware entry is above the plain one ([`Pdb::zero_bits`]; widths by [`PdbLayout::bits`]). Sparse
    /// tables of 32-bit entries keep bit `4 + c` for the blank on cell `c` instead ([`PdbLayout::bit_per_cell`]).
    ZeroBits,
}

impl PdbLayout {
    /// The layout's entries for `k` tiles on `n` cells, given the plain placements and the zero-aware index's
    /// size (`None` when the pattern has no zero-aware index).
    pub fn entries(self, n: usize, k: usize, placements: u64, zero: Option<u64>) -> Option<u64> {
        match self {
            PdbLayout::Plain => Some(placements),
            PdbLayout::Zero => zero,
            PdbLayout::ZeroCells => placements.checked_mul(n.checked_sub(k)? as u64),
            PdbLayout::ZeroBits => Some(placements),
        }
    }

    /// True when the blank-bit layout with `index` keeps its bits per *cell* of the board for `k` tiles on `n`
    /// cells: bit `4 + c` for the blank on cell `c`, so that a lookup needs no count of the free cells below the
    /// blank's (nor the pattern's cells). So in the sparse index when the entries take 32 bits and the board has at
    /// most 28 cells (5 × 5: 29 bits of 32); elsewhere a bit per free cell.
    ///
    /// ```
    /// use slide::engine::pdb::{PdbIndex, PdbLayout};
    /// assert!(PdbLayout::ZeroBits.bit_per_cell(PdbIndex::Sparse, 25, 6));
    /// assert!(!PdbLayout::ZeroBits.bit_per_cell(PdbIndex::Dense, 25, 6));
    /// assert!(!PdbLayout::ZeroBits.bit_per_cell(PdbIndex::Sparse, 16, 6)); // 16-bit entries
    /// ```
    pub fn bit_per_cell(self, index: PdbIndex, n: usize, k: usize) -> bool {
        self == PdbLayout::ZeroBits
            && index == PdbIndex::Sparse
            && self.bits(n, k) == Some(32)
            && n + PDB_BITS as usize <= 32
    }

    /// Bits per entry for `k` tiles on `n` cells: [`PDB_BITS`], or in the blank-bit layout the least of 8, 16 and
    /// 32 that holds the plain entry and a bit per free cell (`None` when 32 do not: more than 28 free cells).
    ///
    /// ```
    /// use slide::engine::pdb::PdbLayout;
    /// assert_eq!(PdbLayout::ZeroBits.bits(16, 6), Some(16));
    /// assert_eq!(PdbLayout::ZeroBits.bits(25, 6), Some(32));
    /// assert_eq!(PdbLayout::Plain.bits(25, 6), Some(4));
    /// ```
    pub fn bits(self, n: usize, k: usize) -> Option<u32> {
        match self {
            PdbLayout::ZeroBits => {
                let need = PDB_BITS as usize + n.checked_sub(k)?;
                [8, 16, 32].into_iter().find(|&b| b as usize >= need)
            }
            _ => Some(PDB_BITS),
        }
    }
}

/// Bits per database entry.
pub const PDB_BITS: u32 = 4;

impl Pdb {
    /// A database from its built parts: the pattern (`shape`, goal cells, goal blank), the ranker of its
    /// placements, the entries' words (`len` entries of 4 bits), the histogram, the capped count and, for a
    /// zero-aware database, its index.
    fn assemble(
        (shape, cells, blank): (Shape, &[u8], usize),
        ranker: PartialRanker,
        (len, raw): (u64, Vec<u64>),
        histogram: Vec<u64>,
        capped: u64,
        zero: Option<Arc<ZeroIndex>>,
    ) -> Result<Pdb> {
        let table = PackedTable::from_words(PDB_BITS, len, raw)
            .ok_or_else(|| Error::Internal("pattern database size mismatch".into()))?;
        Ok(Pdb {
            shape,
            cells: cells.to_vec(),
            blank: blank as u8,
            ranker,
            table,
            histogram,
            capped,
            layout: if zero.is_some() {
                PdbLayout::Zero
            } else {
                PdbLayout::Plain
            },
            zero,
            index: PdbIndex::Dense,
        })
    }

    /// Builds the database of the tiles whose goal cells are `cells`, for the goal whose blank is on cell `blank`
    /// (in parallel, reporting to `progress`), by [`Pdb::build_within`] with the default budget: through the
    /// zero-aware search, which settles placements times regions rather than placements times free cells (2.9
    /// times fewer states for 8 tiles of the 15-puzzle), when the pattern leaves the blank a cell (every state then
    /// reached) and [`ZeroIndex`] indexes it; else by the search over placements and blank cells.
    pub fn build(shape: Shape, cells: &[u8], blank: usize, progress: &dyn Progress) -> Result<Pdb> {
        Pdb::build_within(shape, cells, blank, None, progress)
    }

    /// [`Pdb::build`] choosing its method by a memory budget (`None`: [`BYTE_BUILD_BUDGET`]): the byte build
    /// ([`byte_build_bytes`]: a byte per zero-aware entry, the fastest) when it fits, else the compact zero-aware
    /// build (two bits per entry), else, for patterns the zero-aware index does not take, the search over
    /// placements and blank cells.
    pub fn build_within(
        shape: Shape,
        cells: &[u8],
        blank: usize,
        budget: Option<u64>,
        progress: &dyn Progress,
    ) -> Result<Pdb> {
        if cells.len() + 2 <= shape.cells() && ZeroIndex::shared(shape, cells.len()).is_ok() {
            if byte_build_taken(shape, cells.len(), false, budget).is_some() {
                return Pdb::build_bytes(shape, cells, blank, false, progress);
            }
            let z = Pdb::build_zero_aware_compact(shape, cells, blank, progress)?;
            if let Some(plain) = Pdb::plain_from_zero_aware(&z) {
                return Ok(plain);
            }
        }
        Pdb::build_direct(shape, cells, blank, progress)
    }

    /// The zero-aware database of a zero-aware space's distances (`dist`: a byte per rank of [`ZeroBuildSpace`],
    /// [`UNSEEN`](crate::exact::bfs::UNSEEN) where not reached; `levels`: states per distance), bit for bit what
    /// the compact build gives (tests compare them). A blocked transpose, in parallel over blocks of 64 orders:
    /// for each map, the block's distances of each region are one run of 64 bytes, each placement is decoded
    /// once for all its regions, and the 64 orders' rows of entries are written left to right.
    fn zero_from_distances(
        shape: Shape,
        cells: &[u8],
        blank: usize,
        index: &Arc<ZeroIndex>,
        dist: &PackedTable,
        levels: Vec<u64>,
    ) -> Result<Pdb> {
        use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
        const BLOCK: u64 = 64;
        let k = cells.len();
        let ranker = PartialRanker::new(shape.cells(), k)
            .ok_or_else(|| Error::Internal("pattern too large".into()))?;
        let (orders, regions) = (index.orders, index.regions);
        let len = index.size();
        let words = PackedTable::words_for(PDB_BITS, len);
        let mut raw: Vec<u64> = crate::exact::packed::large_vec(words);
        // SAFETY: AtomicU64 has the size and alignment of u64; `raw` is not otherwise used while the view lives.
        let entries: &[AtomicU64] =
            unsafe { std::slice::from_raw_parts(raw.as_mut_ptr() as *const AtomicU64, words) };
        let bytes = dist.words();
        let byte = |r: u64| (bytes[(r / 8) as usize] >> ((r % 8) * 8)) as u8;
        let maps = index.region_start.len() - 1;
        let md = ManhattanTable::new(shape, cells);
        let capped: u64 = (0..orders.div_ceil(BLOCK))
            .into_par_iter()
            .map(|b| {
                let mut capped = 0u64;
                let (o0, o1) = (b * BLOCK, ((b + 1) * BLOCK).min(orders));
                let mut items = [0u8; MAX_PATTERN];
                // Each order's row is written left to right; a word is gathered and stored once complete (or-ed
                // in, as the words at the ends of a row are shared with the next order's).
                let mut pending = [(usize::MAX, 0u64); BLOCK as usize];
                for m in 0..maps {
                    let mask = index.map_masks[m];
                    let (g0, g1) = (
                        index.region_start[m] as u64,
                        index.region_start[m + 1] as u64,
                    );
                    for o in o0..o1 {
                        index.order_items(mask, o, &mut items[..k]);
                        let md = md.of(&items[..k]);
                        let pending = &mut pending[(o - o0) as usize];
                        for g in g0..g1 {
                            let d = byte(g * orders + o);
                            let extra = (d as u32).saturating_sub(md) / 2;
                            capped += (d == UNSEEN_BYTE || extra > 15) as u64;
                            let value = if d == UNSEEN_BYTE { 15 } else { extra.min(15) };
                            let e = o * regions + g;
                            let w = (e / 16) as usize;
                            if pending.0 != w {
                                if pending.0 != usize::MAX {
                                    entries[pending.0].fetch_or(pending.1, Relaxed);
                                }
                                *pending = (w, 0);
                            }
                            pending.1 |= (value as u64) << ((e % 16) * 4);
                        }
                    }
                }
                for &(w, bits) in &pending {
                    if w != usize::MAX {
                        entries[w].fetch_or(bits, Relaxed);
                    }
                }
                capped
            })
            .sum();
        Pdb::assemble(
            (shape, cells, blank),
            ranker,
            (len, raw),
            levels,
            capped,
            Some(index.clone()),
        )
    }

    /// The plain database of a zero-aware space's distances (as `Pdb::zero_from_distances`): for each placement,
    /// the least distance over its regions, and the plain build's histogram (a region of `s` cells at distance `d`
    /// is `s` states of the plain space); bit for bit what the other builds give (tests compare them).
    ///
    /// In parallel over the cells of the pattern's first tile: the placements with the first tile on cell `c` are
    /// one run of plain ranks (the first tile's cell is the most significant digit), written by one thread with
    /// no atomic operation; they are, for each map holding `c`, the orders that put the first tile on `c` (one run
    /// of `(k-1)!` orders, its first digit being `c`'s place in the map), so each region's distances are read as
    /// runs of `(k-1)!` bytes.
    fn plain_from_distances(
        shape: Shape,
        cells: &[u8],
        blank: usize,
        index: &ZeroIndex,
        dist: &PackedTable,
    ) -> Result<Pdb> {
        let (n, k) = (shape.cells(), cells.len());
        let ranker =
            PartialRanker::new(n, k).ok_or_else(|| Error::Internal("pattern too large".into()))?;
        let len = ranker.size();
        let words = PackedTable::words_for(PDB_BITS, len);
        let mut raw: Vec<u64> = crate::exact::packed::large_vec(words);
        let bytes = dist.words();
        let byte = |r: u64| (bytes[(r / 8) as usize] >> ((r % 8) * 8)) as u8;
        let orders = index.orders;
        let run = orders / k as u64; // (k-1)! orders per place of the first tile
        let per_cell = ranker.weight(0); // placements per cell of the first tile
        let md = ManhattanTable::new(shape, cells);
        let maps = index.region_start.len() - 1;
        // A task per cell of the first tile when its runs fill whole words, else one task for all.
        let (tasks, cells_per_task) = if per_cell % 16 == 0 { (n, 1) } else { (1, n) };
        let task_words = if tasks == 1 {
            words
        } else {
            (per_cell / 16) as usize
        };
        let (histogram, capped) = raw
            .par_chunks_mut(task_words)
            .take(tasks)
            .enumerate()
            .map(|(t, ws)| {
                let (mut hist, mut capped) = (Vec::<u64>::new(), 0u64);
                let mut items = [0u8; MAX_PATTERN];
                let first_rank = t as u64 * per_cell * cells_per_task as u64;
                for c in t * cells_per_task..(t + 1) * cells_per_task {
                    for m in 0..maps {
                        let mask = index.map_masks[m];
                        if mask >> c & 1 == 0 {
                            continue;
                        }
                        let place = (mask & ((1u64 << c) - 1)).count_ones() as u64;
                        let (g0, g1) = (
                            index.region_start[m] as u64,
                            index.region_start[m + 1] as u64,
                        );
                        for o in place * run..(place + 1) * run {
                            index.order_items(mask, o, &mut items[..k]);
                            debug_assert_eq!(items[0] as usize, c);
                            let mut best = UNSEEN_BYTE;
                            for g in g0..g1 {
                                let d = byte(g * orders + o);
                                best = best.min(d);
                                if d != UNSEEN_BYTE {
                                    if hist.len() <= d as usize {
                                        hist.resize(d as usize + 1, 0);
                                    }
                                    hist[d as usize] +=
                                        index.region_masks[g as usize].count_ones() as u64;
                                }
                            }
                            let extra = (best as u32).saturating_sub(md.of(&items[..k])) / 2;
                            capped += (best == UNSEEN_BYTE || extra > 15) as u64;
                            let value = if best == UNSEEN_BYTE {
                                15
                            } else {
                                extra.min(15)
                            };
                            let p = ranker.rank(&items[..k]) - first_rank;
                            ws[(p / 16) as usize] |= (value as u64) << ((p % 16) * 4);
                        }
                    }
                }
                (hist, capped)
            })
            .reduce(
                || (Vec::new(), 0),
                |(a, ca), (b, cb)| (add_histogram(a, b), ca + cb),
            );
        Pdb::assemble(
            (shape, cells, blank),
            ranker,
            (len, raw),
            histogram,
            capped,
            None,
        )
    }

    /// The byte build of [`Pdb::build_within`] (`zero_aware` false) or [`Pdb::build_zero_aware_within`]: the
    /// region-major zero-aware space searched a byte per state ([`bfs_unit`]), then `Pdb::zero_from_distances` or
    /// `Pdb::plain_from_distances`.
    fn build_bytes(
        shape: Shape,
        cells: &[u8],
        blank: usize,
        zero_aware: bool,
        progress: &dyn Progress,
    ) -> Result<Pdb> {
        let index = ZeroIndex::shared(shape, cells.len())?;
        let space = ZeroBuildSpace::new(shape, cells, blank, index.clone())?;
        let label = format!(
            "{}PDB {shape} {}-tile",
            if zero_aware { "zero-aware " } else { "" },
            cells.len()
        );
        let (dist, levels) = bfs_unit(&space, &label, progress, None)?;
        if zero_aware {
            Pdb::zero_from_distances(shape, cells, blank, &index, &dist, levels)
        } else {
            Pdb::plain_from_distances(shape, cells, blank, &index, &dist)
        }
    }

    /// [`Pdb::build`] by the search over placements and blank cells ([`PatternSpace`], cost-0 blank moves).
    fn build_direct(
        shape: Shape,
        cells: &[u8],
        blank: usize,
        progress: &dyn Progress,
    ) -> Result<Pdb> {
        use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
        let space = PatternSpace::new(shape, cells, blank)?;
        let label = format!("PDB {shape} {}-tile", cells.len());
        let k = cells.len();
        let ranker = PartialRanker::new(shape.cells(), k).expect("smaller than the space's ranker");
        let len = ranker.size();
        let words = PackedTable::words_for(PDB_BITS, len);
        let placements =
            usize::try_from(len).map_err(|_| Error::Internal("pattern too large".into()))?;
        // The entries, and a bit per placement set once one of its states is settled: the search settles states in
        // order of distance, so the first settled state of a placement holds the least cost over the blank's cells.
        let mut raw: Vec<u64> = crate::exact::packed::large_vec(words);
        let mut first: Vec<u64> = crate::exact::packed::large_vec(placements.div_ceil(64));
        // SAFETY: AtomicU64 has the size and alignment of u64; neither vector is otherwise used while the views live.
        let (entries, reached): (&[AtomicU64], &[AtomicU64]) = unsafe {
            (
                std::slice::from_raw_parts(raw.as_mut_ptr() as *const AtomicU64, words),
                std::slice::from_raw_parts(first.as_mut_ptr() as *const AtomicU64, first.len()),
            )
        };
        let overflow = AtomicU64::new(0);
        let group = space.group;
        let group_div = space.group_div;
        let histogram = bfs_compact(&space, &label, progress, None, |rank, d, _| {
            let p = rank / group_div;
            let bit = 1u64 << (p % 64);
            let w = &reached[(p / 64) as usize];
            if w.load(Relaxed) & bit != 0 || w.fetch_or(bit, Relaxed) & bit != 0 {
                return;
            }
            debug_assert!(rank - p * group < group);
            let mut items = [0u8; MAX_PATTERN];
            ranker.unrank(p, &mut items[..k]);
            let extra = d.saturating_sub(manhattan(shape, &items[..k], cells)) / 2;
            if extra > 15 {
                overflow.fetch_add(1, Relaxed);
            }
            entries[(p / 16) as usize].fetch_or((extra.min(15) as u64) << ((p % 16) * 4), Relaxed);
        })?;
        // Placements never reached (none, unless the pattern holds every tile) read 15, counted as capped, as the
        // least of their unseen distances did before.
        let unreached: u64 = raw
            .par_chunks_mut(64 / 16)
            .zip(first.par_iter())
            .enumerate()
            .map(|(i, (ws, &seen))| {
                let valid = (len - (i as u64) * 64).min(64) as u32;
                let mut open = !seen & (u64::MAX >> (64 - valid));
                let count = open.count_ones() as u64;
                while open != 0 {
                    let j = open.trailing_zeros() as usize;
                    open &= open - 1;
                    ws[j / 16] |= 15 << ((j % 16) * 4);
                }
                count
            })
            .sum();
        Pdb::assemble(
            (shape, cells, blank),
            ranker,
            (len, raw),
            histogram,
            overflow.into_inner() + unreached,
            None,
        )
    }

    /// Builds the zero-aware database of the tiles whose goal cells are `cells`, for the goal whose blank is on
    /// cell `blank`: an entry per placement and region of the blank ([`ZeroIndex`]), by the BFS engine's compact
    /// mode over [`ZeroSpace`] (every move costs 1, so each state is settled once, at its distance).
    pub fn build_zero_aware(
        shape: Shape,
        cells: &[u8],
        blank: usize,
        progress: &dyn Progress,
    ) -> Result<Pdb> {
        Pdb::build_zero_aware_within(shape, cells, blank, None, progress)
    }

    /// [`Pdb::build_zero_aware`] choosing its method by a memory budget (`None`: [`BYTE_BUILD_BUDGET`]): the byte
    /// build when it fits ([`byte_build_bytes`]), else the compact one (two bits per entry while searching).
    pub fn build_zero_aware_within(
        shape: Shape,
        cells: &[u8],
        blank: usize,
        budget: Option<u64>,
        progress: &dyn Progress,
    ) -> Result<Pdb> {
        if byte_build_taken(shape, cells.len(), true, budget).is_some() {
            return Pdb::build_bytes(shape, cells, blank, true, progress);
        }
        Pdb::build_zero_aware_compact(shape, cells, blank, progress)
    }

    /// [`Pdb::build_zero_aware`] by the compact search over [`ZeroSpace`] (two bits per entry).
    fn build_zero_aware_compact(
        shape: Shape,
        cells: &[u8],
        blank: usize,
        progress: &dyn Progress,
    ) -> Result<Pdb> {
        use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
        let index = ZeroIndex::shared(shape, cells.len())?;
        let space = ZeroSpace::new(shape, cells, blank, index.clone())?;
        let label = format!("zero-aware PDB {shape} {}-tile", cells.len());
        let k = cells.len();
        let len = index.size();
        let words = PackedTable::words_for(PDB_BITS, len);
        // Every entry starts at 15 (unreached reads 15, as in the plain build); settling a state clears the bits
        // its value does not have.
        let mut raw: Vec<u64> = crate::exact::packed::large_vec(words);
        raw.par_iter_mut().for_each(|w| *w = u64::MAX);
        // SAFETY: AtomicU64 has the size and alignment of u64; `raw` is not otherwise used while the view lives.
        let entries: &[AtomicU64] =
            unsafe { std::slice::from_raw_parts(raw.as_mut_ptr() as *const AtomicU64, words) };
        let overflow = AtomicU64::new(0);
        let histogram = bfs_compact(&space, &label, progress, None, |rank, d, md| {
            let extra = d.saturating_sub(md) / 2;
            if extra > 15 {
                overflow.fetch_add(1, Relaxed);
            }
            let clear = (15 ^ extra.min(15)) as u64;
            entries[(rank / 16) as usize].fetch_and(!(clear << ((rank % 16) * 4)), Relaxed);
        })?;
        // The bits past the last entry (and the guard word) read 0.
        let tail = len / 16;
        for (i, w) in raw.iter_mut().enumerate().skip(tail as usize) {
            let keep = if i as u64 == tail { (len % 16) * 4 } else { 0 };
            *w &= if keep == 0 { 0 } else { (1u64 << keep) - 1 };
        }
        let reached: u64 = histogram.iter().sum();
        Pdb::assemble(
            (shape, cells, blank),
            PartialRanker::new(shape.cells(), k).expect("smaller than the index"),
            (len, raw),
            histogram,
            overflow.into_inner() + (len - reached),
            Some(index),
        )
    }

    /// The plain database of a zero-aware one ([`Pdb::build_zero_aware`]): for each placement, the least entry over
    /// the blank's regions, and the plain build's histogram (a region of `s` cells at cost `d` is `s` states of the
    /// plain space at cost `d`, the blank crossing its region for free). Bit for bit what [`Pdb::build`] gives
    /// (tests compare them). `None` for a plain database, or when some zero-aware entry was capped or never
    /// reached (its cost is then not known, nor its place in the histogram).
    pub fn plain_from_zero_aware(z: &Pdb) -> Option<Pdb> {
        use std::sync::atomic::Ordering::Relaxed;
        let index = z.zero.as_ref()?;
        if z.capped > 0 {
            return None;
        }
        let (shape, cells, k) = (z.shape, &z.cells[..], z.cells.len());
        let ranker = PartialRanker::new(shape.cells(), k)?;
        let len = ranker.size();
        let (orders, regions) = (index.orders, index.regions);
        let maps = index.region_start.len() - 1;
        let md = ManhattanTable::new(shape, cells);
        // Order by order, the maps in turn: the zero-aware entries are read in their own order (one pass over the
        // table), each placement's regions side by side; the plain entries are written where their ranks fall.
        let (raw, histogram) = fill_entries(len, |entries| {
            (0..orders)
                .into_par_iter()
                .fold(Vec::<u64>::new, |mut hist, o| {
                    let mut items = [0u8; MAX_PATTERN];
                    for m in 0..maps {
                        index.order_items(index.map_masks[m], o, &mut items[..k]);
                        let md = md.of(&items[..k]) as usize;
                        let first = index.region_start[m] as usize;
                        let masks = &index.region_masks[first..index.region_start[m + 1] as usize];
                        let mut best = 15;
                        for (r, &region) in masks.iter().enumerate() {
                            let e = z.table.get(o * regions + (first + r) as u64);
                            let d = md + 2 * e as usize;
                            if hist.len() <= d {
                                hist.resize(d + 1, 0);
                            }
                            hist[d] += region.count_ones() as u64;
                            best = best.min(e);
                        }
                        let p = ranker.rank(&items[..k]);
                        entries[(p / 16) as usize]
                            .fetch_or((best as u64) << ((p % 16) * 4), Relaxed);
                    }
                    hist
                })
                .reduce(Vec::new, add_histogram)
        });
        Pdb::assemble(
            (shape, cells, z.blank as usize),
            ranker,
            (len, raw),
            histogram,
            0,
            None,
        )
        .ok()
    }

    /// Reassembles a database from a table file's parts.
    pub fn from_parts(
        shape: Shape,
        cells: &[u8],
        blank: usize,
        table: PackedTable,
        histogram: Vec<u64>,
        (layout, index): (PdbLayout, PdbIndex),
    ) -> Result<Pdb> {
        let ranker = PartialRanker::new(shape.cells(), cells.len())
            .ok_or_else(|| Error::Cache("pattern does not fit".into()))?;
        let zero = if layout == PdbLayout::Zero {
            Some(ZeroIndex::shared(shape, cells.len())?)
        } else {
            None
        };
        let len = index.entries(
            layout,
            shape.cells(),
            cells.len(),
            zero.as_ref().map(|z| z.size()),
        );
        if Some(table.len()) != len || Some(table.bits()) != layout.bits(shape.cells(), cells.len())
        {
            return Err(Error::Cache(
                "pattern database does not fit its pattern".into(),
            ));
        }
        Ok(Pdb {
            shape,
            cells: cells.to_vec(),
            blank: blank as u8,
            ranker,
            table,
            histogram,
            capped: 0,
            zero,
            layout,
            index,
        })
    }

    /// The database `z` (zero-aware, [`PdbLayout::Zero`]) in the blank-cell layout ([`PdbLayout::ZeroCells`]): the same
    /// entries, each region's on every cell of the region, indexed by the plain rank and the blank's free cell, so
    /// that a lookup is a plain rank and a population count. One pass over `z` in its own order, each placement's
    /// regions side by side (as [`Pdb::plain_from_zero_aware`]); the histogram and capped count are `z`'s. `None`
    /// when `z` is not in the region layout or the table would not fit in memory's address space.
    ///
    /// Memory: `n - k` times the plain database's 4 bits per placement: 1.21 GB for 6 tiles of the 24-puzzle,
    /// 2.08 GB for 8 tiles and 259 MB for 7 of the 15-puzzle, 28.8 MB for 6 of the 15-puzzle.
    pub fn zero_cells(z: &Pdb) -> Option<Pdb> {
        use std::sync::atomic::Ordering::Relaxed;
        let index = z.zero.as_ref()?;
        let (shape, k) = (z.shape, z.cells.len());
        let n = shape.cells();
        let ranker = PartialRanker::new(n, k)?;
        let free = (n - k) as u64;
        let len = PdbLayout::ZeroCells.entries(n, k, ranker.size(), None)?;
        usize::try_from(len / 2).ok()?;
        let (orders, regions) = (index.orders, index.regions);
        let maps = index.region_start.len() - 1;
        let (raw, ()) = fill_entries(len, |entries| {
            (0..orders).into_par_iter().for_each(|o| {
                let mut items = [0u8; MAX_PATTERN];
                for m in 0..maps {
                    let mask = index.map_masks[m];
                    index.order_items(mask, o, &mut items[..k]);
                    let base = ranker.rank(&items[..k]) * free;
                    let first = index.region_start[m] as usize;
                    let masks = &index.region_masks[first..index.region_start[m + 1] as usize];
                    for (r, &region) in masks.iter().enumerate() {
                        let e = z.table.get(o * regions + (first + r) as u64) as u64;
                        if e == 0 {
                            continue;
                        }
                        let mut left = region;
                        while left != 0 {
                            let c = left.trailing_zeros();
                            left &= left - 1;
                            let i = base + (c - (mask & ((1u64 << c) - 1)).count_ones()) as u64;
                            entries[(i / 16) as usize].fetch_or(e << ((i % 16) * 4), Relaxed);
                        }
                    }
                }
            })
        });
        let table = PackedTable::from_words(PDB_BITS, len, raw)?;
        Some(z.derived(ranker, table, PdbLayout::ZeroCells))
    }

    /// A dense-index database made from the zero-aware `self` in another `layout`: `table` and `ranker` its own,
    /// the pattern, histogram and capped count `self`'s.
    fn derived(&self, ranker: PartialRanker, table: PackedTable, layout: PdbLayout) -> Pdb {
        Pdb {
            shape: self.shape,
            cells: self.cells.clone(),
            blank: self.blank,
            ranker,
            table,
            histogram: self.histogram.clone(),
            capped: self.capped,
            zero: None,
            layout,
            index: PdbIndex::Dense,
        }
    }

    /// The database `z` (zero-aware, [`PdbLayout::Zero`]) in the blank-bit layout ([`PdbLayout::ZeroBits`]): per
    /// placement the least entry over its regions in the low 4 bits, and a bit for each free cell whose region's entry
    /// is above that least (the entry then reads one more, capped there). One pass over `z` in its own order (as
    /// [`Pdb::zero_cells`]); the histogram and capped count are `z`'s (of the entries before the cap). `None` when
    /// `z` is not in the region layout or has more than 28 free cells.
    ///
    /// Memory: a 16-bit entry per placement for 6 to 8 tiles of the 15-puzzle (11.5 MB for 6 tiles, 115 MB for 7,
    /// 1.04 GB for 8), a 32-bit one for 6 tiles of the 24-puzzle (510 MB).
    pub fn zero_bits(z: &Pdb) -> Option<Pdb> {
        use std::sync::atomic::Ordering::Relaxed;
        let index = z.zero.as_ref()?;
        let (shape, k) = (z.shape, z.cells.len());
        let n = shape.cells();
        let bits = PdbLayout::ZeroBits.bits(n, k)?;
        let ranker = PartialRanker::new(n, k)?;
        let len = ranker.size();
        usize::try_from(len.checked_mul(bits as u64)? / 8).ok()?;
        let (orders, regions) = (index.orders, index.regions);
        let maps = index.region_start.len() - 1;
        let per_word = (64 / bits) as u64;
        let (raw, ()) = fill_entries_of(bits, len, |entries| {
            (0..orders).into_par_iter().for_each(|o| {
                let mut items = [0u8; MAX_PATTERN];
                for m in 0..maps {
                    let mask = index.map_masks[m];
                    index.order_items(mask, o, &mut items[..k]);
                    let first = index.region_start[m] as usize;
                    let masks = &index.region_masks[first..index.region_start[m + 1] as usize];
                    let entry = |r: usize| z.table.get(o * regions + (first + r) as u64) as u64;
                    let least = (0..masks.len()).map(entry).min().unwrap_or(0);
                    let mut e = least;
                    for (r, &region) in masks.iter().enumerate() {
                        if entry(r) == least {
                            continue;
                        }
                        let mut left = region;
                        while left != 0 {
                            let c = left.trailing_zeros();
                            left &= left - 1;
                            e |= 1 << (PDB_BITS + c - (mask & ((1u64 << c) - 1)).count_ones());
                        }
                    }
                    if e != 0 {
                        let p = ranker.rank(&items[..k]);
                        entries[(p / per_word) as usize]
                            .fetch_or(e << ((p % per_word) * bits as u64), Relaxed);
                    }
                }
            })
        });
        let table = PackedTable::from_words(bits, len, raw)?;
        Some(z.derived(ranker, table, PdbLayout::ZeroBits))
    }

    /// The dense-index database `d` (plain, or in the blank-cell or blank-bit layout) with the sparse index
    /// ([`PdbIndex::Sparse`]): each placement's entries (one, or `n - k` in the blank-cell layout) copied from its rank to
    /// `sum c_i n^i`, the numbers of impossible placements left 0 and never read. The threads take the cells of the
    /// last tile, each a run of `n^(k-1)` placements. `None` when `d` is sparse already, zero-aware by region, or
    /// the table would not fit in memory's address space.
    ///
    /// Memory: `n^k` entries of 4 bits (times `n - k` in the blank-cell layout; of 16 or 32 bits in the blank-bit
    /// layout): 122 MB for 6 tiles of the 24-puzzle (dense 63.8 MB), 8.4 MB for 6 of the 15-puzzle (2.9 MB), 134 MB
    /// for 7 (28.8 MB); in the blank-bit layout 33.6 MB for 6 tiles of the 15-puzzle, 977 MB for 6 of the 24-puzzle.
    pub fn sparse(d: &Pdb) -> Option<Pdb> {
        use std::sync::atomic::Ordering::Relaxed;
        if d.index != PdbIndex::Dense || d.layout == PdbLayout::Zero {
            return None;
        }
        let (n, k) = (d.shape.cells(), d.cells.len());
        let per = match d.layout {
            PdbLayout::ZeroCells => (n - k) as u64,
            _ => 1,
        };
        let len = PdbIndex::Sparse.entries(d.layout, n, k, None)?;
        let bits = d.table.bits();
        usize::try_from(len.checked_mul(bits as u64)? / 8).ok()?;
        let per_word = (64 / bits) as u64;
        let weights: Vec<u64> = (0..k).map(|i| d.ranker.weight(i)).collect();
        let pow: Vec<u64> = (0..k).map(|i| (n as u64).pow(i as u32)).collect();
        // A bit per free cell becomes a bit per cell (`PdbLayout::bit_per_cell`).
        let by_cell = d.layout.bit_per_cell(PdbIndex::Sparse, n, k);
        let (raw, ()) = fill_entries_of(bits, len, |entries| {
            (0..n as u64).into_par_iter().for_each(|last| {
                let mut copy = |r: u64, s: u64, used: u64| {
                    for j in 0..per {
                        let mut e = d.table.get(r * per + j) as u64;
                        if by_cell && e >> PDB_BITS != 0 {
                            e = bits_by_cell(e, used, n);
                        }
                        if e != 0 {
                            let at = s * per + j;
                            entries[(at / per_word) as usize]
                                .fetch_or(e << ((at % per_word) * bits as u64), Relaxed);
                        }
                    }
                };
                let digits = Digits {
                    n: n as u64,
                    k,
                    last,
                    weights: &weights,
                    pow: &pow,
                };
                digits.visit(0, 1u64 << last, 0, 0, &mut copy);
            })
        });
        let table = PackedTable::from_words(bits, len, raw)?;
        Some(Pdb {
            shape: d.shape,
            cells: d.cells.clone(),
            blank: d.blank,
            ranker: d.ranker.clone(),
            table,
            histogram: d.histogram.clone(),
            capped: d.capped,
            zero: None,
            layout: d.layout,
            index: PdbIndex::Sparse,
        })
    }

    /// True when the database keeps its blank bits per cell of the board ([`PdbLayout::bit_per_cell`]).
    pub fn bit_per_cell(&self) -> bool {
        self.layout
            .bit_per_cell(self.index, self.shape.cells(), self.cells.len())
    }

    /// The index of a zero-aware database in the region layout ([`PdbLayout::Zero`]); `None` for the others.
    pub fn zero_index(&self) -> Option<&Arc<ZeroIndex>> {
        self.zero.as_ref()
    }

    /// How the entries are indexed.
    pub fn layout(&self) -> PdbLayout {
        self.layout
    }

    /// The stored `(cost - manhattan) / 2` of a placement (cells of the pattern's tiles, in pattern order) with the
    /// blank on `blank` (a cell outside the placement): of its region in a zero-aware database, of the placement
    /// in a plain one.
    #[inline]
    pub fn extra_with_blank(&self, placement: &[u8], blank: u8) -> u32 {
        match (&self.zero, self.layout) {
            (Some(z), _) => self.table.get(z.index(placement, blank)),
            (None, PdbLayout::ZeroCells) => {
                let free = (self.shape.cells() - self.cells.len()) as u64;
                let used = placement.iter().fold(0u64, |m, &c| m | 1u64 << (c & 63));
                let below = (used & ((1u64 << (blank & 63)) - 1)).count_ones() as u64;
                self.table
                    .get(self.placement_index(placement) * free + blank as u64 - below)
            }
            (None, PdbLayout::ZeroBits) if self.bit_per_cell() => {
                let e = self.table.get(self.placement_index(placement));
                (e & 15) + (e.checked_shr(PDB_BITS + blank as u32).unwrap_or(0) & 1)
            }
            (None, PdbLayout::ZeroBits) => {
                let used = placement.iter().fold(0u64, |m, &c| m | 1u64 << (c & 63));
                let below = (used & ((1u64 << (blank & 63)) - 1)).count_ones();
                let e = self.table.get(self.placement_index(placement));
                // A blank off the board or on the placement reads no bit (not a shift past the entry).
                (e & 15) + (e.checked_shr(PDB_BITS + blank as u32 - below).unwrap_or(0) & 1)
            }
            (None, _) => self.extra(placement),
        }
    }

    /// The pattern's goal cells.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The goal's blank cell the database was built for.
    pub fn blank(&self) -> usize {
        self.blank as usize
    }

    /// The packed entries.
    pub fn packed(&self) -> &PackedTable {
        &self.table
    }

    /// Abstract states at each cost (with the blank), as found by the build.
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }

    /// Placements whose stored value was capped at 15 by this build (their estimate is lower than the true cost).
    pub fn capped(&self) -> u64 {
        self.capped
    }

    /// The ranker of placements.
    #[inline]
    pub fn ranker(&self) -> &PartialRanker {
        &self.ranker
    }

    /// The stored `(cost - manhattan) / 2` of a placement (cells of the pattern's tiles, in pattern order), in a
    /// plain database.
    #[inline]
    pub fn extra(&self, placement: &[u8]) -> u32 {
        self.table.get(self.placement_index(placement))
    }

    /// The number of a placement (cells of the pattern's tiles, in pattern order) in the database's index: its
    /// rank, or its sparse index ([`PdbIndex`]).
    #[inline]
    pub fn placement_index(&self, placement: &[u8]) -> u64 {
        self.index.of(&self.ranker, self.shape.cells(), placement)
    }

    /// How the placements are numbered.
    pub fn index(&self) -> PdbIndex {
        self.index
    }

    /// The stored value at an index (a rank in a dense table).
    #[inline]
    pub fn extra_at(&self, rank: u64) -> u32 {
        self.table.get(rank)
    }

    /// Memory taken by the entries, in bytes.
    pub fn bytes(&self) -> usize {
        self.table.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::NoProgress;

    #[test]
    fn single_tile_pattern_is_manhattan() {
        // One tile alone: its cost is exactly its Manhattan distance, so every entry is 0.
        let shape = Shape::new(3, 3).unwrap();
        let p = Pdb::build(shape, &[4], 8, &NoProgress).unwrap();
        for c in 0..9u8 {
            assert_eq!(p.extra(&[c]), 0);
        }
    }

    #[test]
    fn two_tiles_in_a_row_conflict() {
        // Tiles of goal cells 0 and 1 swapped on a 2x3 board. Passing each other takes a detour through the bottom
        // row, and on so small a board the blank gets walled in unless the detour is long: 6 moves, 4 above the
        // Manhattan distance of 2.
        let shape = Shape::new(2, 3).unwrap();
        let p = Pdb::build(shape, &[0, 1], 5, &NoProgress).unwrap();
        assert_eq!(p.extra(&[1, 0]), 2);
        assert_eq!(p.extra(&[0, 1]), 0);
    }

    /// The pattern's costs by a plain 0-1 BFS over (pattern cells, blank cell) written here, independently of the
    /// engine: the least pattern-tile moves from each state to the goal with the blank home (blank moves through
    /// free cells cost 0).
    fn reference_states(
        shape: Shape,
        cells: &[u8],
        blank: u8,
    ) -> std::collections::HashMap<(Vec<u8>, u8), u32> {
        use std::collections::{HashMap, VecDeque};
        let mut dist: HashMap<(Vec<u8>, u8), u32> = HashMap::new();
        let mut queue = VecDeque::new();
        dist.insert((cells.to_vec(), blank), 0);
        queue.push_back((cells.to_vec(), blank));
        while let Some((pl, b)) = queue.pop_front() {
            let d = dist[&(pl.clone(), b)];
            for c in shape.neighbors(b as usize).map(|c| c as u8) {
                let mut next = pl.clone();
                let cost = match pl.iter().position(|&p| p == c) {
                    Some(j) => {
                        next[j] = b;
                        1
                    }
                    None => 0,
                };
                let key = (next, c);
                if dist.get(&key).is_none_or(|&old| old > d + cost) {
                    dist.insert(key.clone(), d + cost);
                    if cost == 0 {
                        queue.push_front(key);
                    } else {
                        queue.push_back(key);
                    }
                }
            }
        }
        dist
    }

    /// The plain database by [`reference_states`]: the least cost of each placement over the blank's cells.
    fn reference(shape: Shape, cells: &[u8], blank: u8) -> std::collections::HashMap<Vec<u8>, u32> {
        let n = shape.cells() as u8;
        let mut best: std::collections::HashMap<Vec<u8>, u32> = std::collections::HashMap::new();
        for ((pl, b), d) in reference_states(shape, cells, blank) {
            assert!(b < n);
            let e = best.entry(pl).or_insert(u32::MAX);
            *e = (*e).min(d);
        }
        best
    }

    #[test]
    fn zero_aware_entries_match_a_reference_bfs() {
        // Every (placement, blank cell) state: the zero-aware entry of the blank's region, decoded from its 4-bit
        // form, is that state's cost; every entry index is some state's; and the least entry over a placement's
        // regions is the plain database's entry.
        for (shape, cells, blank) in [
            ("2x3", vec![2u8, 4], 5u8),
            ("3x3", vec![5, 7], 8),
            ("3x3", vec![5, 7, 4], 8),
            ("3x3", vec![0, 1, 2, 3], 8),
            ("3x3", vec![1, 2, 3, 4, 5, 6, 7, 8], 0),
            ("2x4", vec![0, 1, 4, 5], 7),
            ("2x4", vec![1, 2, 3, 4, 5, 6, 7], 0),
            ("4x4", vec![1, 4, 5], 0),
            ("4x4", vec![13, 14, 11], 15),
            ("3x5", vec![0, 1, 5, 6], 14),
        ] {
            let shape: Shape = shape.parse().unwrap();
            let z = Pdb::build_zero_aware(shape, &cells, blank as usize, &NoProgress).unwrap();
            let plain = Pdb::build_direct(shape, &cells, blank as usize, &NoProgress).unwrap();
            let by_cell = Pdb::zero_cells(&z).unwrap();
            assert_eq!(by_cell.layout(), PdbLayout::ZeroCells);
            assert!(by_cell.zero_index().is_none() && Pdb::zero_cells(&by_cell).is_none());
            assert_eq!(
                by_cell.packed().len(),
                plain.packed().len() * (shape.cells() - cells.len()) as u64
            );
            let mut cell_hit = vec![false; by_cell.packed().len() as usize];
            // The blank-bit layout: an entry per placement, as wide as the layout says, dense and sparse.
            let by_bit = Pdb::zero_bits(&z).unwrap();
            assert_eq!(by_bit.layout(), PdbLayout::ZeroBits);
            assert!(by_bit.zero_index().is_none() && Pdb::zero_bits(&by_bit).is_none());
            assert!(Pdb::zero_bits(&plain).is_none());
            assert_eq!(by_bit.packed().len(), plain.packed().len());
            assert_eq!(
                Some(by_bit.packed().bits()),
                PdbLayout::ZeroBits.bits(shape.cells(), cells.len())
            );
            let sparse_bit = Pdb::sparse(&by_bit).unwrap();
            assert_eq!(
                (
                    sparse_bit.index(),
                    sparse_bit.layout(),
                    sparse_bit.packed().bits()
                ),
                (
                    PdbIndex::Sparse,
                    PdbLayout::ZeroBits,
                    by_bit.packed().bits()
                )
            );
            // The sparse index of both: n^k placements (times the free cells), none of the region layout.
            let sparse = Pdb::sparse(&plain).unwrap();
            let sparse_cell = Pdb::sparse(&by_cell).unwrap();
            assert!(Pdb::sparse(&z).is_none() && Pdb::sparse(&sparse).is_none());
            let nk = (shape.cells() as u64).pow(cells.len() as u32);
            assert_eq!(sparse.packed().len(), nk);
            assert_eq!(
                sparse_cell.packed().len(),
                nk * (shape.cells() - cells.len()) as u64
            );
            assert_eq!(
                (sparse.index(), sparse_cell.layout()),
                (PdbIndex::Sparse, PdbLayout::ZeroCells)
            );
            let index = z.zero_index().unwrap().clone();
            let want = reference_states(shape, &cells, blank);
            let mut hit = vec![false; index.size() as usize];
            let mut least: std::collections::HashMap<Vec<u8>, u32> = Default::default();
            let mut above = 0;
            for ((pl, b), &d) in &want {
                let md = manhattan(shape, pl, &cells);
                assert_eq!((d - md) % 2, 0, "parity");
                let i = index.index(pl, *b);
                hit[i as usize] = true;
                let stored = z.extra_with_blank(pl, *b);
                assert_eq!(
                    stored,
                    ((d - md) / 2).min(15),
                    "{shape} {cells:?} at {pl:?}, blank {b}"
                );
                // The blank-cell layout: the same entry at plain rank * free cells + the free cells below.
                assert_eq!(by_cell.extra_with_blank(pl, *b), stored);
                let free = (shape.cells() - cells.len()) as u64;
                let below = (0..*b).filter(|c| !pl.contains(c)).count() as u64;
                let ci = plain.ranker().rank(pl) * free + below;
                assert_eq!(by_cell.extra_at(ci), stored);
                cell_hit[ci as usize] = true;
                // The sparse index: the cells as base-n digits, the first tile's the least significant.
                let si = pl
                    .iter()
                    .rev()
                    .fold(0u64, |s, &c| s * shape.cells() as u64 + c as u64);
                assert_eq!(sparse.placement_index(pl), si);
                assert_eq!(
                    sparse.extra_at(si),
                    plain.extra(pl),
                    "{shape} {cells:?} at {pl:?}"
                );
                assert_eq!(sparse.extra(pl), plain.extra(pl));
                assert_eq!(sparse_cell.extra_at(si * free + below), stored);
                assert_eq!(sparse_cell.extra_with_blank(pl, *b), stored);
                // The blank-bit layout: the plain entry in the low bits, and the region's entry capped at one more.
                let capped = stored.min(plain.extra(pl) + 1);
                assert_eq!(
                    by_bit.extra_with_blank(pl, *b),
                    capped,
                    "{shape} {cells:?} at {pl:?}, blank {b}"
                );
                assert_eq!(sparse_bit.extra_with_blank(pl, *b), capped);
                assert_eq!(
                    by_bit.extra_at(plain.ranker().rank(pl)) & 15,
                    plain.extra(pl)
                );
                assert_eq!(sparse_bit.packed().len(), nk);
                let mut items = vec![0u8; cells.len()];
                let (mask, region) = index.unindex(i, &mut items);
                assert_eq!(&items, pl);
                assert!(region & (1 << b) != 0 && mask & region == 0);
                let e = least.entry(pl.clone()).or_insert(u32::MAX);
                *e = (*e).min(stored);
                above += (stored > plain.extra(pl)) as u32;
            }
            if cells.len() + 1 < shape.cells() {
                assert!(
                    hit.iter().all(|&h| h) && cell_hit.iter().all(|&h| h),
                    "{shape} {cells:?}: an entry no state reads"
                );
            } else {
                // Every tile in the pattern: half the placements have the wrong parity, never reached; they
                // read 15, as in the plain database.
                assert_eq!(hit.iter().filter(|&&h| h).count() as u64 * 2, index.size());
                for (i, _) in hit.iter().enumerate().filter(|(_, &h)| !h) {
                    assert_eq!(z.extra_at(i as u64), 15);
                }
            }
            for (pl, e) in least {
                assert_eq!(e, plain.extra(&pl), "{shape} {cells:?} at {pl:?}");
            }
            // The histogram counts the entries reached (placement and region) at each cost.
            let reached = hit.iter().filter(|&&h| h).count() as u64;
            assert_eq!(z.histogram().iter().sum::<u64>(), reached);
            assert!(
                above > 0 || cells.len() + 1 == shape.cells(),
                "{shape} {cells:?}"
            );
        }
    }

    #[test]
    fn entries_match_a_reference_bfs_with_the_blank_home() {
        // Patterns that wall in the blank's goal cell (both of its neighbours) and patterns that do not.
        for (shape, cells, blank) in [
            ("2x3", vec![2u8, 4], 5u8),
            ("2x3", vec![0, 1, 3], 5),
            ("3x3", vec![5, 7], 8),
            ("3x3", vec![5, 7, 4], 8),
            ("3x3", vec![0, 1, 2], 8),
            ("3x3", vec![1, 3], 0),
            ("2x4", vec![0, 1, 4, 5], 7),
            ("4x4", vec![1, 4, 5], 0),
        ] {
            let shape: Shape = shape.parse().unwrap();
            let pdb = Pdb::build(shape, &cells, blank as usize, &NoProgress).unwrap();
            let want = reference(shape, &cells, blank);
            let mut walled = 0;
            for (pl, d) in &want {
                let md: u32 = pl
                    .iter()
                    .zip(&cells)
                    .map(|(&p, &g)| shape.manhattan(p as usize, g as usize) as u32)
                    .sum();
                assert_eq!(pdb.extra(pl), (d - md) / 2, "{shape} {cells:?} at {pl:?}");
                walled += (*d > md) as u32;
            }
            assert_eq!(want.len() as u64, pdb.ranker().size(), "{shape} {cells:?}");
            assert!(walled > 0);
        }
    }

    /// The method a build takes follows its memory budget, and so does the estimate the solver checks up front:
    /// the byte build when it fits, else the compact one (which needs less).
    #[test]
    fn build_estimates_follow_the_budget() {
        use crate::solver::{pdb_build_bytes, zpdb_build_bytes};
        let shape: Shape = "4x4".parse().unwrap();
        let z = ZeroIndex::new(shape, 8).unwrap();
        let bytes = byte_build_bytes(shape, 8, false).unwrap();
        assert_eq!(bytes, z.size() + 518_918_400 / 2 + 40_320 * 8);
        assert!(bytes < 1_700_000_000, "{bytes}");
        assert_eq!(pdb_build_bytes(shape, 8, None), bytes);
        assert_eq!(pdb_build_bytes(shape, 8, Some(bytes)), bytes);
        let compact = pdb_build_bytes(shape, 8, Some(bytes - 1));
        assert!(compact < bytes && compact > 1_000_000_000, "{compact}");
        let zbytes = byte_build_bytes(shape, 8, true).unwrap();
        assert_eq!(zbytes, z.size() + z.size() / 2 + 40_320 * 8);
        assert_eq!(zpdb_build_bytes(shape, 8, None), zbytes);
        assert!(zpdb_build_bytes(shape, 8, Some(zbytes - 1)) < zbytes);
        // The blank-cell layout needs its own table (8 free cells times the placements, 4 bits each) beside the
        // region layout's, and at least what the zero-aware build needs.
        let zc = crate::solver::zcpdb_build_bytes(shape, 8, None);
        assert!(zc >= zbytes && zc >= 518_918_400 * 8 / 2, "{zc}");
        // A pattern the zero-aware index does not take has no byte build.
        assert_eq!(byte_build_bytes(shape, 15, false), None);
    }

    /// The database as it was built before the compact engine: the byte-per-state search, then the least byte over
    /// each placement's blank cells.
    fn build_with_bytes(shape: Shape, cells: &[u8], blank: usize) -> (Vec<u64>, Vec<u64>, u64) {
        let space = PatternSpace::new(shape, cells, blank).unwrap();
        let dist = crate::exact::bfs::bfs(&space, "bytes", &NoProgress, None).unwrap();
        let k = cells.len();
        let group = shape.cells() - k;
        let ranker = PartialRanker::new(shape.cells(), k).unwrap();
        let mut table = PackedTable::new(PDB_BITS, ranker.size());
        let mut capped = 0;
        let mut items = [0u8; MAX_PATTERN];
        for i in 0..ranker.size() {
            let base = i as usize * group;
            let best = *dist.bytes[base..base + group].iter().min().unwrap() as u32;
            ranker.unrank(i, &mut items[..k]);
            let extra = best.saturating_sub(manhattan(shape, &items[..k], cells)) / 2;
            capped += (extra > 15) as u64;
            table.set(i, extra.min(15));
        }
        (table.words().to_vec(), dist.histogram, capped)
    }

    #[test]
    fn compact_build_is_bit_for_bit_the_byte_build() {
        for (shape, cells, blank) in [
            ("3x3", vec![0u8, 1, 2, 3], 8usize),
            ("3x3", vec![5, 7, 4], 8),
            ("3x3", vec![1, 2, 3, 4, 5, 6, 7, 8], 0),
            ("2x4", vec![0, 1, 2, 4, 5], 7),
            ("2x4", vec![1, 2, 3, 4, 5, 6, 7], 0),
            ("4x4", vec![1, 4, 5], 0),
            ("4x4", vec![1, 2, 3, 4, 5], 0),
            ("4x4", vec![13, 14, 15], 0),
            ("3x5", vec![0, 1, 5, 6, 10, 11], 14),
        ] {
            let shape: Shape = shape.parse().unwrap();
            let pdb = Pdb::build_direct(shape, &cells, blank, &NoProgress).unwrap();
            let (words, histogram, capped) = build_with_bytes(shape, &cells, blank);
            assert_eq!(pdb.packed().words(), &words[..], "{shape} {cells:?}");
            assert_eq!(pdb.histogram(), &histogram[..], "{shape} {cells:?}");
            assert_eq!(pdb.capped(), capped, "{shape} {cells:?}");
            // The zero-aware database: the byte build (region-major, one byte per entry) bit for bit the compact
            // one (a budget of 0 bytes forces it).
            let z = Pdb::build_zero_aware(shape, &cells, blank, &NoProgress).unwrap();
            let zc =
                Pdb::build_zero_aware_within(shape, &cells, blank, Some(0), &NoProgress).unwrap();
            assert_eq!(z.packed().words(), zc.packed().words(), "{shape} {cells:?}");
            assert_eq!(z.histogram(), zc.histogram(), "{shape} {cells:?}");
            assert_eq!(z.capped(), zc.capped(), "{shape} {cells:?}");
            // Derived from the zero-aware database, by either build: the same, except where a full pattern leaves
            // placements unreached (the derivation then declines).
            match Pdb::plain_from_zero_aware(&zc) {
                Some(derived) => {
                    for budget in [None, Some(0)] {
                        let built =
                            Pdb::build_within(shape, &cells, blank, budget, &NoProgress).unwrap();
                        assert_eq!(built.packed().words(), &words[..], "{shape} {cells:?}");
                        assert_eq!(built.histogram(), &histogram[..], "{shape} {cells:?}");
                        assert_eq!(built.capped(), capped, "{shape} {cells:?}");
                    }
                    assert_eq!(derived.packed().words(), &words[..], "{shape} {cells:?}");
                    assert_eq!(derived.histogram(), &histogram[..], "{shape} {cells:?}");
                    assert_eq!(derived.capped(), capped, "{shape} {cells:?}");
                }
                None => assert_eq!(cells.len() + 1, shape.cells(), "{shape} {cells:?}"),
            }
        }
    }
}
