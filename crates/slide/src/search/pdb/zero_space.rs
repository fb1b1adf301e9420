//! The spaces of the zero-aware build, searched by the BFS engine.
//!
//! [`ZeroSpace`] is searched by [`bfs_compact`](crate::exact::bfs::bfs_compact): its states are the entries of
//! [`ZeroIndex`] themselves and its every move moves a pattern tile (cost 1): a tile beside the blank's region
//! slides onto a region cell, and the blank's new region is the one holding the cell the tile left. A map leaves the
//! blank few regions (on average 2 to 3 on 16 cells), so the search settles placements times regions, each once,
//! where the direct build settles placements times free cells.
//!
//! [`ZeroBuildSpace`] is the same space with the entries ranked *region-major* (`region * k! + order`), for the byte
//! build ([`bfs_unit`](crate::exact::bfs::bfs_unit)): the neighbours of a region's states lie in a few blocks of
//! `k!` ranks that stay in the cache, where the order-major index sends about half the moves (those passing another
//! tile) to a random line of the table.

use super::pattern::{ManhattanTable, PatternSpace};
use super::zero_index::ZeroIndex;
use super::MAX_PATTERN;
use crate::board::Shape;
use crate::error::{Error, Result};
use crate::exact::bfs::StateSpace;
use std::sync::Arc;

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
