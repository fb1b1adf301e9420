//! Reference answers for slide's tests: plain breadth-first searches over boards held as byte vectors, and a replay
//! of move lists, written apart from the `slide` library (this crate does not depend on it) so that they can check
//! it. Slow and simple on purpose: a `HashMap` of every state, a queue, nothing clever.
//!
//! A board is `rows × cols` tiles in reading order, `0` the blank. A single-tile move (STM) slides one tile next to
//! the blank into it; a multi-tile move (MTM) slides 1 to k tiles of the blank's row or column one cell toward the
//! blank in one push (the blank jumps k cells).
//!
//! ```
//! use slide_reference::{Metric, Reference};
//! let r = Reference::new(2, 3, &slide_reference::goal(6), Metric::Stm);
//! assert_eq!((r.states(), r.diameter()), (360, 21));
//! assert_eq!(r.distance(&[1, 2, 3, 4, 0, 5]), Some(1));
//! assert_eq!(r.distance(&[1, 2, 3, 5, 4, 0]), None); // the other parity class
//! ```

use std::collections::HashMap;

/// A board: tiles in reading order, `0` the blank.
pub type Cells = Vec<u8>;

/// How moves are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Single-tile moves.
    Stm,
    /// Multi-tile moves: any number of tiles of one row or column pushed one cell toward the blank.
    Mtm,
}

/// The default goal of `n` cells: `1 2 … n-1` then the blank.
pub fn goal(n: usize) -> Cells {
    let mut g: Cells = (1..n as u8).collect();
    g.push(0);
    g
}

/// The goal of `n` cells with the blank on `blank` and the tiles `1 2 …` in reading order around it.
pub fn goal_with_blank(n: usize, blank: usize) -> Cells {
    let mut next = 0u8;
    (0..n)
        .map(|c| {
            if c == blank {
                0
            } else {
                next += 1;
                next
            }
        })
        .collect()
}

/// The boards one move (in `metric`) from `b`.
pub fn neighbours(rows: usize, cols: usize, b: &[u8], metric: Metric) -> Vec<Cells> {
    assert_eq!(b.len(), rows * cols, "board of the wrong size");
    let blank = b.iter().position(|&t| t == 0).expect("a blank");
    let (r, c) = ((blank / cols) as isize, (blank % cols) as isize);
    let reach = match metric {
        Metric::Stm => 1,
        Metric::Mtm => rows.max(cols) as isize,
    };
    let mut out = Vec::new();
    for (dr, dc) in [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)] {
        let mut nb = b.to_vec();
        let mut at = blank;
        for k in 1..=reach {
            let (nr, nc) = (r + dr * k, c + dc * k);
            if nr < 0 || nc < 0 || nr >= rows as isize || nc >= cols as isize {
                break;
            }
            let cell = nr as usize * cols + nc as usize;
            nb.swap(at, cell);
            at = cell;
            out.push(nb.clone());
        }
    }
    out
}

/// Packs a board of at most 16 cells into a key, 4 bits a cell.
fn key(b: &[u8]) -> u64 {
    assert!(
        b.len() <= 16,
        "the reference keys boards of at most 16 cells"
    );
    b.iter().fold(0u64, |k, &t| (k << 4) | t as u64)
}

/// Every board that reaches one goal, with its distance: a breadth-first search from the goal (moves are
/// reversible, so the distance from the goal is the distance to it).
pub struct Reference {
    dist: HashMap<u64, u32>,
    histogram: Vec<u64>,
    farthest: Vec<Cells>,
}

impl Reference {
    /// Searches from `goal` (`rows × cols`, at most 16 cells; in practice at most 10 for time and memory).
    pub fn new(rows: usize, cols: usize, goal: &[u8], metric: Metric) -> Reference {
        Reference::from_goals(rows, cols, &[goal.to_vec()], metric)
    }

    /// Searches from `goal` to depth `max_depth` only: the boards within `max_depth` moves.
    pub fn within(
        rows: usize,
        cols: usize,
        goal: &[u8],
        metric: Metric,
        max_depth: u32,
    ) -> Reference {
        Reference::search(rows, cols, &[goal.to_vec()], metric, max_depth)
    }

    /// Searches from several goals at once (a multi-source search): each board's distance to the nearest.
    pub fn from_goals(rows: usize, cols: usize, goals: &[Cells], metric: Metric) -> Reference {
        Reference::search(rows, cols, goals, metric, u32::MAX)
    }

    fn search(
        rows: usize,
        cols: usize,
        goals: &[Cells],
        metric: Metric,
        max_depth: u32,
    ) -> Reference {
        let mut dist = HashMap::new();
        let mut frontier = Vec::new();
        for g in goals {
            if dist.insert(key(g), 0).is_none() {
                frontier.push(g.clone());
            }
        }
        let mut histogram = vec![frontier.len() as u64];
        let mut d = 0;
        while d < max_depth {
            let mut next = Vec::new();
            for b in &frontier {
                for nb in neighbours(rows, cols, b, metric) {
                    if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(key(&nb)) {
                        e.insert(d + 1);
                        next.push(nb);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            d += 1;
            histogram.push(next.len() as u64);
            frontier = next;
        }
        Reference {
            dist,
            histogram,
            farthest: frontier,
        }
    }

    /// The least number of moves from `b` to the goal, or `None` when `b` cannot reach it.
    pub fn distance(&self, b: &[u8]) -> Option<u32> {
        self.dist.get(&key(b)).copied()
    }

    /// `histogram()[d]`: the number of boards at distance `d`.
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }

    /// The largest distance (god's number for this goal).
    pub fn diameter(&self) -> u32 {
        self.histogram.len() as u32 - 1
    }

    /// The number of boards that reach the goal.
    pub fn states(&self) -> u64 {
        self.dist.len() as u64
    }

    /// The boards at the largest distance.
    pub fn farthest(&self) -> &[Cells] {
        &self.farthest
    }
}

/// The least number of moves from `board` to `goal` by a breadth-first search from `board` that stops at the goal
/// (any size of board), or `None` when the goal is not within `max_depth` moves.
pub fn distance(
    rows: usize,
    cols: usize,
    board: &[u8],
    goal: &[u8],
    metric: Metric,
    max_depth: u32,
) -> Option<u32> {
    if board == goal {
        return Some(0);
    }
    let mut seen = HashMap::from([(board.to_vec(), 0u32)]);
    let mut frontier = vec![board.to_vec()];
    let mut d = 0;
    while !frontier.is_empty() && d < max_depth {
        d += 1;
        let mut next = Vec::new();
        for b in &frontier {
            for nb in neighbours(rows, cols, b, metric) {
                if nb == goal {
                    return Some(d);
                }
                if !seen.contains_key(&nb) {
                    seen.insert(nb.clone(), d);
                    next.push(nb);
                }
            }
        }
        frontier = next;
    }
    None
}

/// Replays single-tile moves, each the tile that slides into the blank; `None` at the first move of a tile that
/// is not next to the blank.
pub fn replay(cols: usize, board: &[u8], tiles: &[u32]) -> Option<Cells> {
    let mut b = board.to_vec();
    for &t in tiles {
        let blank = b.iter().position(|&x| x == 0)?;
        let cell = b.iter().position(|&x| x as u32 == t && t != 0)?;
        let (br, bc, cr, cc) = (blank / cols, blank % cols, cell / cols, cell % cols);
        if br.abs_diff(cr) + bc.abs_diff(cc) != 1 {
            return None;
        }
        b.swap(blank, cell);
    }
    Some(b)
}

/// Every permutation of `0..n`, in the order of Heap's algorithm.
pub fn permutations(n: usize) -> Vec<Cells> {
    let mut a: Cells = (0..n as u8).collect();
    let mut c = vec![0usize; n];
    let mut out = vec![a.clone()];
    let mut i = 1;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                a.swap(0, i);
            } else {
                a.swap(c[i], i);
            }
            out.push(a.clone());
            c[i] += 1;
            i = 1;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published god's numbers (blank-last goal) and state counts n!/2.
    #[test]
    fn known_diameters() {
        for (rows, cols, stm, states) in [(2, 2, 6, 12), (2, 3, 21, 360), (2, 4, 36, 20160)] {
            let r = Reference::new(rows, cols, &goal(rows * cols), Metric::Stm);
            assert_eq!((r.diameter(), r.states()), (stm, states), "{rows}x{cols}");
        }
        let r = Reference::new(3, 3, &goal(9), Metric::Stm);
        assert_eq!((r.diameter(), r.states()), (31, 181_440));
        let m = Reference::new(3, 3, &goal(9), Metric::Mtm);
        assert_eq!((m.diameter(), m.states()), (24, 181_440));
    }

    #[test]
    fn moves_and_replay() {
        let b = [1, 2, 3, 4, 0, 5];
        assert_eq!(neighbours(2, 3, &b, Metric::Stm).len(), 3);
        // From the corner of 3 x 3, MTM reaches two cells in each of two directions.
        assert_eq!(neighbours(3, 3, &goal(9), Metric::Mtm).len(), 4);
        assert_eq!(replay(3, &b, &[5]), Some(goal(6)));
        assert_eq!(replay(3, &b, &[1]), None);
        assert_eq!(
            distance(2, 3, &[4, 1, 2, 5, 0, 3], &goal(6), Metric::Stm, 30),
            Some(5)
        );
        assert_eq!(
            distance(2, 3, &[4, 1, 2, 5, 0, 3], &goal(6), Metric::Stm, 4),
            None
        );
        assert_eq!(permutations(4).len(), 24);
        assert_eq!(goal_with_blank(4, 0), vec![0, 1, 2, 3]);
    }
}
