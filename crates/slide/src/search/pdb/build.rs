//! Building a pattern database, and the memory each way of building takes.
//!
//! [`Pdb::build`] goes through the zero-aware search (the plain database is the least entry over each placement's
//! regions), which settles far fewer states than the direct search over placements and blank cells; the direct
//! search stays for a pattern of every tile, where half the placements are never reached. Both give bit for bit the
//! same entries and histogram.
//!
//! When a byte per zero-aware entry fits the memory budget ([`byte_build_bytes`], [`Pdb::build_within`];
//! `--max-memory`, else [`BYTE_BUILD_BUDGET`]), the search runs over [`ZeroBuildSpace`] with [`bfs_unit`]: a byte
//! per state and no compare-and-swap (every move costs 1). The distances then become the database in one pass
//! (`Pdb::plain_from_distances`: by the first tile's cell, each thread its own run of plain ranks;
//! `Pdb::zero_from_distances`: a blocked transpose to the order-major index). It takes more memory than the compact
//! search (a byte per entry against two bits) and about half its time. Tests check the byte build bit for bit
//! against the compact one (both kinds of database) and the compact one against the byte-per-state direct search.

use super::pattern::{manhattan, ManhattanTable, PatternSpace};
use super::zero_index::ZeroIndex;
use super::zero_space::{ZeroBuildSpace, ZeroSpace};
use super::{Pdb, PdbIndex, PdbLayout, MAX_PATTERN, PDB_BITS};
use crate::board::Shape;
use crate::error::{Error, Result, SolveError};
use crate::exact::bfs::{bfs_compact, bfs_unit, UNSEEN as UNSEEN_BYTE};
use crate::exact::packed::PackedTable;
use crate::exact::rank::PartialRanker;
use crate::progress::Progress;
use rayon::prelude::*;
use std::sync::Arc;

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

/// A zeroed table of `len` 4-bit entries filled by `fill` through its words as atomics (parallel passes set an
/// entry's bits with `fetch_or`); the words and what `fill` returned (memory the system refuses: an error).
pub(super) fn fill_entries<R>(
    len: u64,
    fill: impl FnOnce(&[std::sync::atomic::AtomicU64]) -> R,
) -> Result<(Vec<u64>, R)> {
    fill_entries_of(PDB_BITS, len, fill)
}

/// [`fill_entries`] for entries of `bits` bits, a power of two up to 32 (no entry straddles two words).
pub(super) fn fill_entries_of<R>(
    bits: u32,
    len: u64,
    fill: impl FnOnce(&[std::sync::atomic::AtomicU64]) -> R,
) -> Result<(Vec<u64>, R)> {
    debug_assert!(bits.is_power_of_two() && bits <= 32);
    let words = PackedTable::words_for(bits, len);
    let mut raw: Vec<u64> = crate::exact::packed::large_vec(words)?;
    // SAFETY: AtomicU64 has the size and alignment of u64; `raw` is not otherwise used while the view lives (it
    // ends when `fill` returns).
    let entries: &[std::sync::atomic::AtomicU64] = unsafe {
        std::slice::from_raw_parts(
            raw.as_mut_ptr() as *const std::sync::atomic::AtomicU64,
            words,
        )
    };
    let r = fill(entries);
    Ok((raw, r))
}

/// Adds histogram `b` into `a` (the longer one's length).
pub(super) fn add_histogram(mut a: Vec<u64>, b: Vec<u64>) -> Vec<u64> {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
    a
}

impl Pdb {
    /// A database from its built parts: the pattern (`shape`, goal cells, goal blank), the ranker of its
    /// placements, the entries' words (`len` entries of 4 bits), the histogram, the capped count and, for a
    /// zero-aware database, its index.
    pub(super) fn assemble(
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
            if let Some(plain) = Pdb::plain_from_zero_aware(&z)? {
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
        let ranker = PartialRanker::new(shape.cells(), k).ok_or_else(|| too_large(shape, k))?;
        let (orders, regions) = (index.orders, index.regions);
        let len = index.size();
        let words = PackedTable::words_for(PDB_BITS, len);
        let mut raw: Vec<u64> = crate::exact::packed::large_vec(words)?;
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
        let ranker = PartialRanker::new(n, k).ok_or_else(|| too_large(shape, k))?;
        let len = ranker.size();
        let words = PackedTable::words_for(PDB_BITS, len);
        let mut raw: Vec<u64> = crate::exact::packed::large_vec(words)?;
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
    pub(super) fn build_direct(
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
        let placements = usize::try_from(len).map_err(|_| too_large(shape, k))?;
        // The entries, and a bit per placement set once one of its states is settled: the search settles states in
        // order of distance, so the first settled state of a placement holds the least cost over the blank's cells.
        let mut raw: Vec<u64> = crate::exact::packed::large_vec(words)?;
        let mut first: Vec<u64> = crate::exact::packed::large_vec(placements.div_ceil(64))?;
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
        let mut raw: Vec<u64> = crate::exact::packed::large_vec(words)?;
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
}

/// A pattern of `k` tiles whose database cannot be indexed on this machine.
fn too_large(shape: Shape, k: usize) -> Error {
    Error::Solve(SolveError::BadPartition {
        reason: format!("a pattern of {k} tiles is too large to index on {shape}"),
    })
}
