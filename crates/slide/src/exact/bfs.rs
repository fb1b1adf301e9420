//! The one breadth-first search engine: exact distances over a ranked state space, in parallel.
//!
//! Complete distance tables and pattern databases both run through [`bfs`]. A [`StateSpace`] names its states by
//! dense ranks and lists each state's neighbours with a cost of 0 or 1 (a pattern database's moves of tiles outside
//! the pattern cost 0). The engine keeps one byte per state (the distance, or [`UNSEEN`]) and proceeds level by
//! level: it scans the ranks for states at the current depth and expands them in parallel; a neighbour reached at
//! cost 0 joins the current level and is expanded at once from a local stack, so every level is closed under
//! cost-0 moves before the next begins. `fetch_min` on each byte keeps the smallest distance offered.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::progress::Progress;

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
    fn expand(&self, rank: u64, scratch: &mut Self::Scratch, visit: &mut dyn FnMut(u64, u8));
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
    let n = usize::try_from(size).map_err(|_| Error::TooMuchMemory {
        what: "a state space".into(),
        needed: size,
        limit: usize::MAX as u64,
    })?;
    // While searching, a byte holds the distance in its low 7 bits ([`OPEN`] when not reached yet) and [`DONE`]
    // once the state has been expanded, so that each state is expanded exactly once.
    let mut bytes: Vec<u8> = crate::exact::packed::large_vec(n);
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
            if cancel.is_some_and(|c| c.load(Relaxed)) {
                progress.finish();
                return Err(Error::Cancelled);
            }
            if depth == OPEN - 1 {
                progress.finish();
                return Err(Error::Internal("a distance does not fit in 7 bits".into()));
            }
            let d = depth;
            let expanded: u64 = cells
                .par_chunks(CHUNK)
                .enumerate()
                .map_init(
                    || (space.scratch(), Vec::<u64>::new()),
                    |(scratch, stack), (ci, chunk)| {
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
        fn expand(&self, r: u64, _: &mut (), visit: &mut dyn FnMut(u64, u8)) {
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
}
