//! The one breadth-first search engine: exact distances over a ranked state space, in parallel.
//!
//! Complete distance tables run through [`bfs`], pattern databases through [`bfs_unit`] or [`bfs_compact`] (the
//! same search in other layouts, below). A [`StateSpace`] names its states by
//! dense ranks and lists each state's neighbours with a cost of 0 or 1 (a pattern database's moves of tiles outside
//! the pattern cost 0). The engine keeps one byte per state (the distance, or [`UNSEEN`]) and proceeds level by
//! level: it scans the ranks for states at the current depth and expands them in parallel; a neighbour reached at
//! cost 0 joins the current level and is expanded at once from a local stack, so every level is closed under
//! cost-0 moves before the next begins. `fetch_min` on each byte keeps the smallest distance offered.
//!
//! [`bfs_compact`] is the same search in two bits per state, for spaces too large for a byte each (the 15-puzzle's
//! 8-tile pattern with the blank: 4.15 G states, 1.04 GB instead of 4.15 GB): a state is unseen, on the level being
//! expanded, on the next level, or done, and the distances are not kept — each state is handed to a callback once,
//! with its exact distance, when it is expanded. The caller keeps what it needs (a pattern database: the least
//! distance over the blank's cells, in 4 bits per placement).
//!
//! [`bfs_unit`] is the search for spaces whose every move costs 1 (a zero-aware pattern space, ranked so that
//! neighbours lie close): a byte per state in 64-bit words, scanned eight at a time, with no compare-and-swap.
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use crate::error::{Error, Result, SolveError};
use crate::exact::packed::PackedTable;
use crate::progress::Progress;
use crate::stop::{self, BuildStop};
use std::sync::Arc;

/// The byte of a state not reached (yet).
pub const UNSEEN: u8 = u8::MAX;

/// A finite state space named by dense ranks `0..size()`, with unit and zero-cost edges.
pub trait StateSpace: Sync {
    /// Per-thread working memory for [`StateSpace::expand`].
    type Scratch: Send;
    /// Number of ranks.
    fn size(&self) -> u64;
    /// The ranks at distance 0.
    fn goals(&self) -> Vec<u64>;
    /// Fresh working memory.
    fn scratch(&self) -> Self::Scratch;
    /// Calls `visit(neighbor, cost)` for each neighbour of `rank`, with `cost` 0 or 1.
    fn expand(&self, rank: u64, scratch: &mut Self::Scratch, visit: &mut impl FnMut(u64, u8));
    /// [`StateSpace::expand`], returning a value the space works out on the way for [`bfs_compact`]'s callback
    /// (a zero-aware pattern space: the Manhattan distance of its tiles), so that the callback need not decode the
    /// rank again. By default 0.
    #[inline(always)]
    fn expand_noted(
        &self,
        rank: u64,
        scratch: &mut Self::Scratch,
        visit: &mut impl FnMut(u64, u8),
    ) -> u32 {
        self.expand(rank, scratch, visit);
        0
    }
}

/// The result of a search: one byte per rank holding its distance ([`UNSEEN`] if unreachable).
#[derive(Debug)]
pub struct Distances {
    /// Distance of each rank.
    pub bytes: Vec<u8>,
    /// `histogram[d]` = number of ranks at distance `d`.
    pub histogram: Vec<u64>,
}

impl Distances {
    /// The largest distance (god's number of the space).
    pub fn max_distance(&self) -> u32 {
        self.histogram.len().saturating_sub(1) as u32
    }
}

/// Ranks per parallel work item.
const CHUNK: usize = 1 << 15;

/// Computes the distance of every state from the goals, reporting progress under `label`. `cancel` stops the
/// search early (an error is returned).
///
/// Memory: one byte per rank, plus small per-thread stacks.
pub fn bfs<S: StateSpace>(
    space: &S,
    label: &str,
    progress: &dyn Progress,
    cancel: Option<&AtomicBool>,
) -> Result<Distances> {
    let size = space.size();
    // The build stop of the work that asked (kept per thread: the pool's workers are handed it).
    let stop = stop::current();
    let n = usize::try_from(size).map_err(|_| {
        Error::Solve(SolveError::TooMuchMemory {
            what: "a state space".into(),
            needed: size,
            limit: usize::MAX as u64,
        })
    })?;
    // While searching, a byte holds the distance in its low 7 bits ([`OPEN`] when not reached yet) and [`DONE`]
    // once the state has been expanded, so that each state is expanded exactly once.
    let mut bytes: Vec<u8> = crate::exact::packed::large_vec(n)?;
    bytes.fill(OPEN);
    {
        // SAFETY: AtomicU8 has the same size and alignment as u8, and `bytes` is not otherwise used while `cells`
        // lives.
        let cells: &[AtomicU8] =
            unsafe { std::slice::from_raw_parts(bytes.as_mut_ptr() as *const AtomicU8, n) };
        for g in space.goals() {
            cells[g as usize].store(0, Relaxed);
        }
        progress.start(label, size);
        let mut depth: u8 = 0;
        loop {
            next_level(progress, cancel, &stop, depth < OPEN - 1, "7 bits")?;
            let d = depth;
            let expanded: u64 = cells
                .par_chunks(CHUNK)
                .enumerate()
                .map_init(
                    || (space.scratch(), Vec::<u64>::new()),
                    |(scratch, stack), (ci, chunk)| {
                        if stop::reached(&stop) {
                            return 0;
                        }
                        let base = (ci * CHUNK) as u64;
                        let mut count = 0u64;
                        for (j, c) in chunk.iter().enumerate() {
                            if c.load(Relaxed) != d || !claim(c, d) {
                                continue;
                            }
                            count += 1;
                            space.expand(base + j as u64, scratch, &mut |nb, cost| {
                                relax(cells, d, nb, cost, stack)
                            });
                            // States reached at cost 0 belong to this level: expand them now.
                            while let Some(r) = stack.pop() {
                                if !claim(&cells[r as usize], d) {
                                    continue;
                                }
                                count += 1;
                                space.expand(r, scratch, &mut |nb, cost| {
                                    relax(cells, d, nb, cost, stack)
                                });
                            }
                        }
                        count
                    },
                )
                .sum();
            progress.advance(expanded);
            // A level cut short by the stop is no level: never taken for the last one.
            next_level(progress, None, &stop, true, "")?;
            if expanded == 0 {
                break;
            }
            depth += 1;
        }
        progress.finish();
    }
    bytes.par_chunks_mut(1 << 20).for_each(|c| {
        for b in c {
            *b = if *b == OPEN { UNSEEN } else { *b & !DONE };
        }
    });
    let histogram = histogram(&bytes);
    Ok(Distances { bytes, histogram })
}

/// The check before each level of a search: cancelled (the flag, or the thread's build stop: [`crate::stop`]), or
/// (`fits` false) a distance that would not fit in `what`,
/// ends the search (the progress bar finished) with an error.
fn next_level(
    progress: &dyn Progress,
    cancel: Option<&AtomicBool>,
    stop: &Option<Arc<BuildStop>>,
    fits: bool,
    what: &str,
) -> Result<()> {
    if cancel.is_some_and(|c| c.load(Relaxed)) || stop::reached(stop) {
        progress.finish();
        return Err(Error::Cancelled);
    }
    if !fits {
        progress.finish();
        return Err(Error::Internal(format!(
            "a distance does not fit in {what}"
        )));
    }
    Ok(())
}

/// A byte of a state not reached yet, during the search.
const OPEN: u8 = 0x7F;
/// The flag of an expanded state, during the search.
const DONE: u8 = 0x80;

/// Marks a state at distance `d` as expanded; false when another thread already did.
#[inline]
fn claim(cell: &AtomicU8, d: u8) -> bool {
    cell.compare_exchange(d, d | DONE, Relaxed, Relaxed).is_ok()
}

/// Offers distance `d + cost` to `nb`; a state newly placed on level `d` (cost 0) is pushed for expansion.
/// Expanded states are final and never lowered.
#[inline]
fn relax(cells: &[AtomicU8], d: u8, nb: u64, cost: u8, stack: &mut Vec<u64>) {
    let nd = d + cost;
    let cell = &cells[nb as usize];
    let mut v = cell.load(Relaxed);
    // Values above `nd` without the DONE flag are open or tentative (d + 1): lower them.
    while v > nd && v & DONE == 0 {
        match cell.compare_exchange_weak(v, nd, Relaxed, Relaxed) {
            Ok(_) => {
                if cost == 0 {
                    stack.push(nb);
                }
                return;
            }
            Err(now) => v = now,
        }
    }
}

/// Counts the ranks at each distance (unreached ones are not counted).
pub fn histogram(bytes: &[u8]) -> Vec<u64> {
    let counts = bytes
        .par_chunks(1 << 20)
        .map(|c| {
            let mut h = [0u64; 256];
            for &b in c {
                h[b as usize] += 1;
            }
            h
        })
        .reduce(
            || [0u64; 256],
            |mut a, b| {
                for i in 0..256 {
                    a[i] += b[i];
                }
                a
            },
        );
    let mut h: Vec<u64> = counts[..UNSEEN as usize].to_vec();
    while h.last() == Some(&0) {
        h.pop();
    }
    h
}

/// Cells of 2 bits per `u64` word in [`bfs_compact`].
const CELLS_PER_WORD: u64 = 32;
/// Words per parallel work item in [`bfs_compact`] (131,072 states).
const COMPACT_CHUNK: usize = 1 << 12;
/// The low bit of every 2-bit cell of a word.
const LOW_BITS: u64 = 0x5555_5555_5555_5555;
/// A cell not reached yet, in [`bfs_compact`].
const C_UNSEEN: u64 = 0b00;
/// A cell expanded (its distance handed to the callback), in [`bfs_compact`].
const C_DONE: u64 = 0b11;

/// The search of [`bfs`] in two bits per state: calls `settle(rank, distance, note)` exactly once for every state
/// reachable from the goals, in order of distance (all states of distance `d` before any of `d + 1`; in parallel,
/// from the rayon pool's threads, so within a level in no particular order), and returns the histogram (states at
/// each distance), `note` being what [`StateSpace::expand_noted`] returned for the state. `cancel` stops the search
/// between levels (an error is returned).
///
/// The invariants of the level-synchronous 0-1 search: a state's cell is `00` (unseen), `11` (done: expanded, its
/// distance settled), or one of `01`/`10`, which name the level being expanded and the next level in turn (at
/// depth `d`, `01` is the current level when `d` is even). Expanding a state of the current level offers its
/// cost-1 neighbours the next level (only if unseen) and its cost-0 neighbours the current level (if unseen or on
/// the next level: the cost-0 path is shorter), pushing those on a local stack to expand within the level; a state
/// is expanded by whichever thread turns its cell from current to done (an atomic `fetch_or`), so exactly once. At
/// the end of a level no cell holds the current code (each was expanded, from the scan or from a stack), so the
/// next level's code becomes the current one without a pass over the cells, and the code just freed names the next.
///
/// Memory: two bits per rank (`size / 4` bytes), plus small per-thread stacks.
pub fn bfs_compact<S: StateSpace, F: Fn(u64, u32, u32) + Sync>(
    space: &S,
    label: &str,
    progress: &dyn Progress,
    cancel: Option<&AtomicBool>,
    settle: F,
) -> Result<Vec<u64>> {
    let size = space.size();
    // The build stop of the work that asked (kept per thread: the pool's workers are handed it).
    let stop = stop::current();
    let words = usize::try_from(size.div_ceil(CELLS_PER_WORD)).map_err(|_| {
        Error::Solve(SolveError::TooMuchMemory {
            what: "a state space".into(),
            needed: size / 4,
            limit: usize::MAX as u64,
        })
    })?;
    let mut raw: Vec<u64> = crate::exact::packed::large_vec(words)?;
    // SAFETY: AtomicU64 has the same size and alignment as u64 on every platform that has it, and `raw` is not
    // otherwise used while `cells` lives.
    let cells: &[AtomicU64] =
        unsafe { std::slice::from_raw_parts(raw.as_mut_ptr() as *const AtomicU64, words) };
    let mut histogram = Vec::new();
    progress.start(label, size);
    for g in space.goals() {
        let (w, shift) = cell_of(g);
        // The goals make up level 0, whose code is 01.
        cells[w].fetch_or(1 << shift, Relaxed);
    }
    let mut depth: u32 = 0;
    loop {
        next_level(progress, cancel, &stop, true, "")?;
        let (cur, next) = if depth % 2 == 0 {
            (0b01, 0b10)
        } else {
            (0b10, 0b01)
        };
        let d = depth;
        let settle = &settle;
        let expanded: u64 = cells
            .par_chunks(COMPACT_CHUNK)
            .enumerate()
            .map_init(
                || (space.scratch(), Vec::<u64>::new(), Vec::<(u64, u8)>::new()),
                |(scratch, stack, batch), (ci, chunk)| {
                    let mut count = 0u64;
                    if stop::reached(&stop) {
                        return 0;
                    }
                    // Expanding lists the neighbours in `batch`, their words prefetched; they are offered a batch at
                    // a time, so that the cache misses of many random neighbours overlap.
                    let mut expand =
                        |r: u64, scratch: &mut S::Scratch, batch: &mut Vec<(u64, u8)>| {
                            count += 1;
                            let note = space.expand_noted(r, scratch, &mut |nb, cost| {
                                prefetch(cells, nb);
                                batch.push((nb, cost));
                            });
                            settle(r, d, note);
                        };
                    // Offers the listed neighbours, and expands the states they put on this level (reached at cost
                    // 0), until none is left.
                    #[allow(clippy::type_complexity)]
                    let drain = |batch: &mut Vec<(u64, u8)>,
                                 stack: &mut Vec<u64>,
                                 scratch: &mut S::Scratch,
                                 expand: &mut dyn FnMut(
                        u64,
                        &mut S::Scratch,
                        &mut Vec<(u64, u8)>,
                    )| {
                        while !batch.is_empty() {
                            for (nb, cost) in batch.drain(..) {
                                offer(cells, nb, cost, cur, next, stack);
                            }
                            while let Some(r) = stack.pop() {
                                let (w, shift) = cell_of(r);
                                let old = cells[w].fetch_or(C_DONE << shift, Relaxed);
                                if (old >> shift) & 3 == cur {
                                    expand(r, scratch, batch);
                                }
                            }
                        }
                    };
                    for (j, word) in chunk.iter().enumerate() {
                        let want = equal_cells(word.load(Relaxed), cur);
                        if want == 0 {
                            continue;
                        }
                        // Claim every current cell of the word at once: current | 11 = done.
                        let old = word.fetch_or(want * 3, Relaxed);
                        let mut mine = want & equal_cells(old, cur);
                        let base = ((ci * COMPACT_CHUNK + j) as u64) * CELLS_PER_WORD;
                        while mine != 0 {
                            let r = base + (mine.trailing_zeros() / 2) as u64;
                            mine &= mine - 1;
                            expand(r, scratch, batch);
                        }
                        if batch.len() >= BATCH {
                            drain(batch, stack, scratch, &mut expand);
                        }
                    }
                    drain(batch, stack, scratch, &mut expand);
                    count
                },
            )
            .sum();
        progress.advance(expanded);
        // A level cut short by the stop is no level: never taken for the last one.
        next_level(progress, None, &stop, true, "")?;
        if expanded == 0 {
            break;
        }
        histogram.push(expanded);
        depth += 1;
    }
    progress.finish();
    Ok(histogram)
}

/// The search of [`bfs`] for spaces whose every move costs 1 (a zero-aware pattern space), a byte per state in
/// 64-bit words: returns the distances (a [`PackedTable`] of 8 bits per rank, [`UNSEEN`] where not reached) and the
/// histogram. `cancel` stops the search between levels (an error is returned).
///
/// With unit costs a level needs no claims and no compare-and-swap: the states of depth `d` are found by scanning
/// the words eight bytes at a time and are expanded by the thread that scans them, so each exactly once; a
/// neighbour still unseen is set to `d + 1` by a single `fetch_and` (every thread that finds it unseen writes the
/// same value, so a race changes nothing), and a neighbour already seen costs only a load. It is fastest when
/// the ranks of a state's neighbours lie close to its own (the region-major zero-aware space of
/// [`crate::search::pdb`]), since then the neighbours' words stay in the cache.
///
/// A chunk of 8,192 ranks carries a mark of the parities of depth it holds (set when a state is reached in it,
/// cleared when it is scanned at that parity), and the scan skips the chunks without the current one: in a
/// zero-aware space every move changes the parity of the map, so about half the chunks at every depth.
///
/// Memory: one byte per rank, plus a byte per chunk and small per-thread scratch.
pub fn bfs_unit<S: StateSpace>(
    space: &S,
    label: &str,
    progress: &dyn Progress,
    cancel: Option<&AtomicBool>,
) -> Result<(PackedTable, Vec<u64>)> {
    let size = space.size();
    // The build stop of the work that asked (kept per thread: the pool's workers are handed it).
    let stop = stop::current();
    if size > isize::MAX as u64 / 2 {
        return Err(Error::Solve(SolveError::TooMuchMemory {
            what: "a state space".into(),
            needed: size,
            limit: isize::MAX as u64 / 2,
        }));
    }
    let words = PackedTable::words_for(8, size);
    let mut raw: Vec<u64> = crate::exact::packed::large_vec(words)?;
    raw.par_iter_mut().for_each(|w| *w = u64::MAX);
    let mut histogram = Vec::new();
    {
        // SAFETY: AtomicU64 has the same size and alignment as u64, and `raw` is not otherwise used while `cells`
        // lives.
        let cells: &[AtomicU64] =
            unsafe { std::slice::from_raw_parts(raw.as_mut_ptr() as *const AtomicU64, words) };
        // Per chunk of UNIT_CHUNK words, a bit for each parity of depth: set when a state of such a depth is
        // written in it, cleared when the chunk is scanned at that depth.
        let marks: Vec<AtomicU8> = (0..words.div_ceil(UNIT_CHUNK))
            .map(|_| AtomicU8::new(0))
            .collect();
        for g in space.goals() {
            reach(cells, &marks, g, 0);
        }
        progress.start(label, size);
        let mut depth: u8 = 0;
        loop {
            next_level(progress, cancel, &stop, depth < UNSEEN - 1, "a byte")?;
            let d = depth;
            let pattern = d as u64 * BYTE_LOW;
            let expanded: u64 = cells
                .par_chunks(UNIT_CHUNK)
                .zip(marks.par_iter())
                .enumerate()
                .map_init(
                    || space.scratch(),
                    |scratch, (ci, (chunk, mark))| {
                        let mut count = 0u64;
                        if stop::reached(&stop) {
                            return 0;
                        }
                        // A chunk with no state of this depth is not scanned (each move of a zero-aware space
                        // changes its map's parity, so about half its chunks are skipped at every depth).
                        let bit = 1u8 << (d % 2);
                        if mark.load(Relaxed) & bit == 0 {
                            return 0;
                        }
                        mark.fetch_and(!bit, Relaxed);
                        for (j, word) in chunk.iter().enumerate() {
                            // The bytes past the last rank (and the guard word) hold UNSEEN, never a depth.
                            let mut hits = zero_bytes(word.load(Relaxed) ^ pattern);
                            let base = ((ci * UNIT_CHUNK + j) as u64) * 8;
                            while hits != 0 {
                                let r = base + (hits.trailing_zeros() / 8) as u64;
                                hits &= hits - 1;
                                count += 1;
                                space.expand(r, scratch, &mut |nb, cost| {
                                    debug_assert_eq!(cost, 1, "bfs_unit needs unit costs");
                                    reach(cells, &marks, nb, d + 1);
                                });
                            }
                        }
                        count
                    },
                )
                .sum();
            progress.advance(expanded);
            // A level cut short by the stop is no level: never taken for the last one.
            next_level(progress, None, &stop, true, "")?;
            if expanded == 0 {
                break;
            }
            histogram.push(expanded);
            depth += 1;
        }
        progress.finish();
    }
    let table = PackedTable::from_words(8, size, raw)
        .ok_or_else(|| Error::Internal("distance table size mismatch".into()))?;
    Ok((table, histogram))
}

/// Words per parallel work item in [`bfs_unit`] (8,192 states), and per mark of the depths it holds.
const UNIT_CHUNK: usize = 1 << 10;
/// The low bit of every byte of a word.
const BYTE_LOW: u64 = 0x0101_0101_0101_0101;

/// The high bit of every zero byte of `x` (exactly: no borrow crosses bytes).
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    !(((x & LOW7) + LOW7) | x | LOW7)
}

/// Sets the byte of `rank` to `d` if it is still [`UNSEEN`], in [`bfs_unit`].
#[inline(always)]
fn reach(cells: &[AtomicU64], marks: &[AtomicU8], rank: u64, d: u8) {
    let w = (rank / 8) as usize;
    let shift = (rank % 8) * 8;
    if (cells[w].load(Relaxed) >> shift) & 0xFF == UNSEEN as u64 {
        cells[w].fetch_and(!(((UNSEEN ^ d) as u64) << shift), Relaxed);
        // The chunk now holds a state of depth d: it is scanned at that depth.
        let mark = &marks[w / UNIT_CHUNK];
        let bit = 1u8 << (d % 2);
        if mark.load(Relaxed) & bit == 0 {
            mark.fetch_or(bit, Relaxed);
        }
    }
}

/// Neighbours listed before they are offered, in [`bfs_compact`].
const BATCH: usize = 64;

/// Asks the processor to fetch the word of `rank`'s cell into the cache (a hint, no effect on the result).
#[inline(always)]
fn prefetch(cells: &[AtomicU64], rank: u64) {
    #[cfg(target_arch = "x86_64")]
    if let Some(w) = cells.get((rank / CELLS_PER_WORD) as usize) {
        // SAFETY: a prefetch of an address inside a live slice; it reads nothing and cannot fault.
        #[allow(unused_unsafe)]
        unsafe {
            std::arch::x86_64::_mm_prefetch(
                w as *const AtomicU64 as *const i8,
                std::arch::x86_64::_MM_HINT_T0,
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (cells, rank);
}

/// The word and bit offset of a rank's cell in [`bfs_compact`].
#[inline(always)]
fn cell_of(rank: u64) -> (usize, u32) {
    (
        (rank / CELLS_PER_WORD) as usize,
        ((rank % CELLS_PER_WORD) * 2) as u32,
    )
}

/// The low bits of the cells of `word` that hold `code`.
#[inline(always)]
fn equal_cells(word: u64, code: u64) -> u64 {
    let x = word ^ (code * LOW_BITS);
    !(x | (x >> 1)) & LOW_BITS
}

/// Offers a neighbour reached at `cost` from the current level of [`bfs_compact`]: an unseen state joins the next
/// level (cost 1) or the current one (cost 0, pushed for expansion, as is a state of the next level reached at
/// cost 0).
#[inline(always)]
fn offer(cells: &[AtomicU64], nb: u64, cost: u8, cur: u64, next: u64, stack: &mut Vec<u64>) {
    let (w, shift) = cell_of(nb);
    let word = &cells[w];
    let mut old = word.load(Relaxed);
    loop {
        let c = (old >> shift) & 3;
        let new = if c == C_UNSEEN && cost != 0 {
            old | (next << shift)
        } else if cost == 0 && (c == C_UNSEEN || c == next) {
            (old & !(3 << shift)) | (cur << shift)
        } else {
            return;
        };
        match word.compare_exchange_weak(old, new, Relaxed, Relaxed) {
            Ok(_) => {
                if cost == 0 {
                    stack.push(nb);
                }
                return;
            }
            Err(now) => old = now,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::NoProgress;

    /// A ring of `n` nodes where odd-numbered edges are free.
    struct Ring(u64);
    impl StateSpace for Ring {
        type Scratch = ();
        fn size(&self) -> u64 {
            self.0
        }
        fn goals(&self) -> Vec<u64> {
            vec![0]
        }
        fn scratch(&self) {}
        fn expand(&self, r: u64, _: &mut (), visit: &mut impl FnMut(u64, u8)) {
            let next = (r + 1) % self.0;
            let prev = (r + self.0 - 1) % self.0;
            visit(next, if r % 2 == 1 { 0 } else { 1 });
            visit(prev, if prev % 2 == 1 { 0 } else { 1 });
        }
    }

    #[test]
    fn zero_one_costs() {
        let n = 400u64;
        let d = bfs(&Ring(n), "ring", &NoProgress, None).unwrap();
        // Reference: Dijkstra-free closed form by walking both ways.
        for r in 0..n {
            let fwd = (0..r).filter(|i| i % 2 == 0).count() as u64;
            let back = (r..n).filter(|i| i % 2 == 0).count() as u64;
            assert_eq!(d.bytes[r as usize] as u64, fwd.min(back), "rank {r}");
        }
    }

    /// A pseudo-random graph of `n` nodes with 0- and 1-cost edges (each node's edges listed both ways).
    struct Random(Vec<Vec<(u64, u8)>>);
    impl StateSpace for Random {
        type Scratch = ();
        fn size(&self) -> u64 {
            self.0.len() as u64
        }
        fn goals(&self) -> Vec<u64> {
            vec![3, 17]
        }
        fn scratch(&self) {}
        fn expand(&self, r: u64, _: &mut (), visit: &mut impl FnMut(u64, u8)) {
            for &(nb, c) in &self.0[r as usize] {
                visit(nb, c);
            }
        }
    }

    /// The compact search settles every state once, with the byte engine's distance, in order of distance.
    #[test]
    fn compact_matches_bytes() {
        use std::sync::Mutex;
        let ring = Ring(201);
        let n = 200_003u64;
        let mut edges = vec![Vec::new(); n as usize];
        let mut x = 12345u64;
        for a in 0..n {
            for _ in 0..2 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                // Mostly local edges, some far; about a third free; node n-1 left unreachable.
                let b = if x >> 60 == 0 {
                    (x >> 20) % (n - 1)
                } else {
                    (a + (x >> 40) % 50) % (n - 1)
                };
                let c = ((x >> 33) % 3 != 0) as u8;
                if a < n - 1 {
                    edges[a as usize].push((b, c));
                    edges[b as usize].push((a, c));
                }
            }
        }
        let random = Random(edges);
        fn check<S: StateSpace>(space: &S) {
            let want = bfs(space, "bytes", &NoProgress, None).unwrap();
            let got = Mutex::new(vec![u32::MAX; space.size() as usize]);
            let last = std::sync::atomic::AtomicU32::new(0);
            let hist = bfs_compact(space, "compact", &NoProgress, None, |r, d, _| {
                assert!(last.fetch_max(d, Relaxed) <= d, "settled out of order");
                let mut g = got.lock().unwrap();
                assert_eq!(g[r as usize], u32::MAX, "rank {r} settled twice");
                g[r as usize] = d;
            })
            .unwrap();
            let got = got.into_inner().unwrap();
            for (r, (&b, &g)) in want.bytes.iter().zip(&got).enumerate() {
                let b = if b == UNSEEN { u32::MAX } else { b as u32 };
                assert_eq!(b, g, "rank {r}");
            }
            assert_eq!(hist, want.histogram);
        }
        check(&ring);
        check(&random);
        assert!(bfs(&random, "r", &NoProgress, None).unwrap().max_distance() > 5);
    }

    /// The byte search for unit costs gives the general engine's distances and histogram, unreached states
    /// included, on a graph whose edges all cost 1 (a size that is not a multiple of 8: the last word's spare
    /// bytes must not be taken for states).
    #[test]
    fn unit_costs_match_bytes() {
        let n = 100_005u64;
        let mut edges = vec![Vec::new(); n as usize];
        let mut x = 987u64;
        for a in 0..n - 2 {
            for _ in 0..2 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let b = if x >> 61 == 0 {
                    (x >> 20) % (n - 2)
                } else {
                    (a + (x >> 40) % 40) % (n - 2)
                };
                edges[a as usize].push((b, 1));
                edges[b as usize].push((a, 1));
            }
        }
        let random = Random(edges);
        let want = bfs(&random, "bytes", &NoProgress, None).unwrap();
        let (got, hist) = bfs_unit(&random, "unit", &NoProgress, None).unwrap();
        assert_eq!(got.len(), n);
        for r in 0..n {
            assert_eq!(got.get(r), want.bytes[r as usize] as u32, "rank {r}");
        }
        assert_eq!(got.get(n - 1), UNSEEN as u32);
        assert_eq!(hist, want.histogram);
        assert!(want.max_distance() > 5);
        let cancel = AtomicBool::new(true);
        assert!(matches!(
            bfs_unit(&random, "unit", &NoProgress, Some(&cancel)),
            Err(Error::Cancelled)
        ));
    }
}
