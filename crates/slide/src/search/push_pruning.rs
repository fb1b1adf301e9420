//! Move pruning for the multi-tile search: a finite-state machine over the blank's cells that rejects every push
//! sequence for which an equivalent one is shorter, or as long and earlier (Taylor & Korf's duplicate-operator
//! pruning, learned on the board itself as [`crate::search::pruning`] learns it for single-tile moves).
//!
//! **The alphabet.** A push is named by the cell the blank moves to; a sequence of pushes from the blank's cell
//! `p` is written `p t₁ … tₖ`, so that the start cell is part of every pattern and a pattern found from one
//! start never matches from another. The search feeds the machine the board's blank cell, then each push's cell.
//!
//! **Learning.** From every start cell of the shape, every alternating sequence of up to `depth` pushes (two pushes
//! along one axis are never optimal: see [`crate::search::mtm`]) is played on a board of distinct tiles, level by
//! level and in lexicographic order of the cells within a level, so that sequences come in shortlex order. A
//! sequence `A` is forbidden when an earlier one `B` from the same start leaves the same arrangement (equal on one
//! board of distinct tiles means equal on every board: the pushes move cells, whatever they hold). `B` starts where
//! `A` starts on the same shape, so it is legal wherever `A` is. Sequences that contain a shorter forbidden one are
//! not recorded (the machine rejects them anyway).
//!
//! **Why no optimal solution is lost.** Of the optimal push sequences of a board, take the first in shortlex order
//! of its cells. If it contained a forbidden `A`, replacing `A` by its `B` would give a sequence to the same board
//! that is shorter, or as long and earlier: a contradiction. So that solution passes the machine; it alternates
//! (any optimal one does), so the search generates it in the iteration whose bound reaches the optimum, and every
//! bound below is searched completely, so lower bounds stay proven.
//!
//! **Measured** on 40 random 4 × 4 boards (nodes of the whole IDA* runs, the same optimal lengths): see
//! [`DEFAULT_DEPTH`].

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

use crate::board::Shape;
use crate::search::pruning::{aho_corasick, DEAD};

/// The longest sequences [`PushPruner::for_shape`] learns from.
///
/// On 4 × 4 the first duplicates have 6 pushes (the blank circling a 2 × 2 block, six pushes one way equal six
/// the other way); learned from up to 8 pushes the machine holds 5,718 patterns and about 18,000 states (a 0.6 MB
/// table), learned in about 0.06 s of CPU (28 MB at the peak). Measured on the first 10 of 40 random 4 × 4 boards (the same optimal lengths):
/// 52.6 million nodes without it, 48.1 million learned from 7 pushes, 41.4 million from 8, 37.4 million from 9
/// (49,000 states, 0.2 s to learn); 10 no longer fits in `u16` states. The time falls less than the nodes (about
/// 10% from 8 or 9): the duplicates it removes are boards whose table entries were read a moment before, so
/// already in cache. 8 is kept for its shorter learning.
pub const DEFAULT_DEPTH: usize = 8;

/// The most cells a pruner is learned for (the arrangements are packed 5 bits a cell into 128 bits); larger shapes
/// get a machine that forbids nothing.
const MAX_CELLS: usize = 25;

/// A push-pruning machine for one shape: states are `u16`, 0 before the first symbol, [`DEAD`] rejects.
#[derive(Debug)]
pub struct PushPruner {
    cells: usize,
    next: Vec<u16>,
    patterns: usize,
}

impl PushPruner {
    /// The machine of `shape` learned from sequences of up to [`DEFAULT_DEPTH`] pushes, learned once per process.
    pub fn for_shape(shape: Shape) -> Arc<PushPruner> {
        static CACHE: OnceLock<Mutex<HashMap<Shape, Arc<PushPruner>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
        let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(shape)
            .or_insert_with(|| Arc::new(PushPruner::learn(shape, DEFAULT_DEPTH)))
            .clone()
    }

    /// Learns the machine of `shape` from every alternating sequence of at most `depth` pushes (see the module
    /// docs); a shorter depth when the machine would not fit in `u16` states, none above 25 cells.
    pub fn learn(shape: Shape, depth: usize) -> PushPruner {
        let cells = shape.cells();
        let mut depth = if cells > MAX_CELLS { 0 } else { depth };
        while depth > 0 && sequences(shape, depth) > MAX_SEQUENCES {
            depth -= 1;
        }
        loop {
            let patterns = forbidden(shape, depth);
            if let Some(next) = aho_corasick(&patterns, cells) {
                return PushPruner {
                    cells,
                    next,
                    patterns: patterns.len(),
                };
            }
            depth -= 1;
        }
    }

    /// The state once the blank's first cell is read.
    #[inline(always)]
    pub fn start(&self, blank: usize) -> u16 {
        self.step(0, blank)
    }

    /// The state after a push of the blank to `cell` from state `s` (not [`DEAD`]), or [`DEAD`] when the push
    /// completes a forbidden sequence.
    #[inline(always)]
    pub fn step(&self, s: u16, cell: usize) -> u16 {
        self.next[s as usize * self.cells + cell]
    }

    /// Asks the processor to fetch the transitions of state `s` into its caches (a hint: a search that will soon
    /// step from `s` issues it when it makes the state).
    #[inline(always)]
    pub fn prefetch(&self, s: u16) {
        #[cfg(target_arch = "x86_64")]
        if let Some(x) = self.next.get(s as usize * self.cells) {
            // SAFETY: a prefetch of an address inside a live vector: it reads nothing and cannot fault.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                    x as *const u16 as *const i8,
                )
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = s;
    }

    /// Number of live states.
    pub fn states(&self) -> usize {
        self.next.len() / self.cells.max(1)
    }

    /// Number of forbidden sequences it was compiled from.
    pub fn patterns(&self) -> usize {
        self.patterns
    }
}

/// The most sequences of the longest length [`PushPruner::learn`] plays (over all start cells): on 4 × 4, 8
/// pushes are 209,952 sequences and 9 are 629,856; this bound keeps a learning within about a second and 100 MB
/// on every shape.
const MAX_SEQUENCES: u64 = 1_000_000;

/// The number of alternating sequences of exactly `depth` pushes from all the cells of `shape`.
fn sequences(shape: Shape, depth: usize) -> u64 {
    let (v, h) = (shape.rows() as u64 - 1, shape.cols() as u64 - 1);
    let run = |first: u64, second: u64| {
        (0..depth).fold(1u64, |n, i| {
            n.saturating_mul(if i % 2 == 0 { first } else { second })
        })
    };
    (shape.cells() as u64).saturating_mul(run(v, h).saturating_add(run(h, v)))
}

/// A board being played: its tiles and blank, and the pushes made from the start (start cell first).
#[derive(Clone)]
struct Played {
    tiles: [u8; 32],
    blank: u8,
    /// 0 before the first push, 1 after a vertical one, 2 after a horizontal one.
    axis: u8,
    seq: Vec<u8>,
}

/// The forbidden sequences of at most `depth` pushes on `shape` (start cell first), none containing a shorter one.
fn forbidden(shape: Shape, depth: usize) -> Vec<Vec<u8>> {
    let (rows, cols, n) = (shape.rows(), shape.cols(), shape.cells());
    let key = |t: &[u8; 32]| t[..n].iter().fold(0u128, |k, &x| (k << 5) | u128::from(x));
    let mut patterns: Vec<Vec<u8>> = Vec::new();
    let mut seen: Vec<HashSet<u128>> = Vec::with_capacity(n);
    let mut levels: Vec<Vec<Played>> = Vec::with_capacity(n);
    for p in 0..n {
        let mut tiles = [0u8; 32];
        for (c, t) in tiles[..n].iter_mut().enumerate() {
            *t = if c < p {
                c as u8 + 1
            } else if c == p {
                0
            } else {
                c as u8
            };
        }
        seen.push(HashSet::from([key(&tiles)]));
        levels.push(vec![Played {
            tiles,
            blank: p as u8,
            axis: 0,
            seq: vec![p as u8],
        }]);
    }
    for _ in 0..depth {
        let machine = aho_corasick(&patterns, n).unwrap_or_else(|| vec![0; n]);
        let accepts = |seq: &[u8]| {
            let mut s = 0u16;
            seq.iter().all(|&c| {
                s = machine[s as usize * n + c as usize];
                s != DEAD
            })
        };
        let mut found = Vec::new();
        for (p, level) in levels.iter_mut().enumerate() {
            let mut next_level = Vec::with_capacity(level.len() * 3);
            for at in level.iter() {
                let (br, bc) = (at.blank as usize / cols, at.blank as usize % cols);
                // The cells the blank can move to, ascending: its column's (vertical) and its row's (horizontal).
                let mut targets: Vec<(usize, u8)> = Vec::with_capacity(rows + cols);
                if at.axis != 1 {
                    targets.extend((0..rows).filter(|&r| r != br).map(|r| (r * cols + bc, 1)));
                }
                if at.axis != 2 {
                    targets.extend((0..cols).filter(|&c| c != bc).map(|c| (br * cols + c, 2)));
                }
                targets.sort_unstable();
                for (to, axis) in targets {
                    let mut seq = at.seq.clone();
                    seq.push(to as u8);
                    if !accepts(&seq) {
                        continue;
                    }
                    let step = if axis == 1 { cols } else { 1 };
                    let mut tiles = at.tiles;
                    let mut i = at.blank as usize;
                    while i != to {
                        let j = if to > i { i + step } else { i - step };
                        tiles[i] = tiles[j];
                        i = j;
                    }
                    tiles[to] = 0;
                    if seen[p].insert(key(&tiles)) {
                        next_level.push(Played {
                            tiles,
                            blank: to as u8,
                            axis,
                            seq,
                        });
                    } else {
                        found.push(seq);
                    }
                }
            }
            *level = next_level;
        }
        patterns.extend(found);
    }
    patterns
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn circling_a_block_is_pruned_and_short_sequences_are_not() {
        let shape = Shape::new(3, 3).unwrap();
        let fsm = PushPruner::learn(shape, 7);
        assert!(fsm.patterns() > 0);
        assert_eq!(
            sequences(Shape::new(4, 4).unwrap(), 8),
            16 * 6 * 3u64.pow(7)
        );
        // Blank on cell 0 of 3 × 3: circling the top-left 2 × 2 block, right, down, left, up, … Six pushes one way
        // equal six the other way (three turns restore the block), so one of the two is forbidden.
        let lap = |order: &[u8]| {
            let mut s = fsm.start(0);
            order.iter().cycle().take(6).all(|&c| {
                s = fsm.step(s, c as usize);
                s != DEAD
            })
        };
        let clockwise = lap(&[1, 4, 3, 0]);
        let anticlockwise = lap(&[3, 4, 1, 0]);
        assert!(clockwise != anticlockwise, "exactly one lap of six is kept");
        // Every alternating sequence of up to 5 pushes is kept (no duplicates that short).
        let mut stack = vec![(fsm.start(4), 4usize, 0u8, 0usize)];
        while let Some((s, blank, axis, len)) = stack.pop() {
            if len == 5 {
                continue;
            }
            for to in 0..9 {
                let vertical = to % 3 == blank % 3 && to != blank;
                let horizontal = to / 3 == blank / 3 && to != blank;
                if (vertical && axis != 1) || (horizontal && axis != 2) {
                    let t = fsm.step(s, to);
                    assert_ne!(t, DEAD, "a push of a sequence of {} pruned", len + 1);
                    stack.push((t, to, if vertical { 1 } else { 2 }, len + 1));
                }
            }
        }
    }
}
