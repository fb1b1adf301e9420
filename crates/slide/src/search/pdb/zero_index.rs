//! The index of zero-aware pattern databases ([`ZeroIndex`]): one entry per placement of the pattern's tiles and
//! region of the blank.
//!
//! The costs are still those of the pattern's own tiles, so disjoint patterns still add up, and the reflection still
//! applies (with the blank's cell mirrored too). The search keeps one lookup per move: when a tile of pattern P
//! moves, the blank moves to the adjacent cell the tile left; for every other pattern Q both cells are free of Q's
//! tiles, so the blank stays in the same region of Q and Q's entry is unchanged. Only P is looked up again, with the
//! blank on the tile's old cell.
//!
//! The index is order-major: `order * R + region`, where `order` ranks the tiles' order over the cells they cover
//! (the *map*, ranked colexicographically by [`SubsetRanker`]) and `region` numbers the blank's region among the `R`
//! regions of all maps. A lookup is a colex rank and an order rank (one pass over the tiles), and a byte per (map,
//! cell) naming the region. The tables are larger than the plain ones and a lookup costs more cache misses, so the
//! plain databases stay the default.

use super::MAX_PATTERN;
use crate::board::Shape;
use crate::error::{Error, Result, SolveError};
use crate::exact::rank::SubsetRanker;
use rayon::prelude::*;
use std::sync::Arc;

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
    pub(super) n: usize,
    pub(super) subsets: SubsetRanker,
    /// `region_of[m * n + c]`: the region of free cell `c` in map `m`, counted within the map (`u8::MAX` on the
    /// map's own cells).
    pub(super) region_of: Vec<u8>,
    /// `region_start[m]`: the global number of map `m`'s first region; `region_start[maps]` = `R`.
    pub(super) region_start: Vec<u32>,
    /// The map of each region (by global number).
    pub(super) region_map: Vec<u32>,
    /// The cells of each map, by rank.
    pub(super) map_masks: Vec<u64>,
    /// The cells of each region (by global number).
    pub(super) region_masks: Vec<u64>,
    /// `binom[c * 16 + j]` = C(c, j) (the subset ranker's, in a fixed array: no bounds checks in the search).
    binom: Box<[u64; 64 * 16]>,
    /// `order_weights[i]` = (k - 1 - i)!: the weight of item `i`'s digit in the order's rank.
    pub(super) order_weights: [u64; MAX_PATTERN],
    /// The places of each order, `k` bytes each: item `i` is on the `place`-th of the map's cells (in reading order).
    pub(super) order_places: Vec<u8>,
    k: usize,
    pub(super) orders: u64,
    pub(super) regions: u64,
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
        let too_large = || {
            Error::Solve(SolveError::BadPartition {
                reason: format!("a zero-aware {k}-tile pattern of {shape} is too large to index"),
            })
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
    pub(super) fn order_items(&self, mask: u64, order: u64, items: &mut [u8]) {
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
    pub(super) fn decode(&self, r: u64, items: &mut [u8]) -> (Placed, u64) {
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

    /// The region-major rank ([`ZeroBuildSpace`](super::ZeroBuildSpace)) of entry `r`.
    #[inline]
    pub fn region_major(&self, r: u64) -> u64 {
        (r % self.regions) * self.orders + r / self.regions
    }

    /// The entry of the region-major rank `r` ([`ZeroBuildSpace`](super::ZeroBuildSpace)).
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
