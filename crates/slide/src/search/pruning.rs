//! Move pruning: a small finite-state machine over the blank's moves that rejects every move sequence for which an
//! equivalent sequence is shorter, or as long and earlier in shortlex order (Taylor & Korf's duplicate-operator
//! pruning). IDA* steps it along each path; a move into the dead state is never generated.
//!
//! The machine is *learned*, not written by hand: every non-backtracking sequence of up to `depth` blank moves is
//! played from the middle of a grid large enough to have no border; two sequences are equivalent when they leave
//! the same arrangement. A sequence `A` is forbidden when some equivalent `B` comes before it in shortlex order
//! (shorter, or as long and lexicographically smaller, directions ordered up, down, left, right) **and** stays
//! within the bounding box of the cells `A` visits: a rectangular board that holds `A`'s path holds that box, so
//! `B` is legal wherever `A` is. The forbidden sequences that contain no shorter forbidden one are compiled into an
//! Aho–Corasick automaton.
//!
//! Why no optimal solution is lost: of the optimal solutions of a board, take the first in shortlex order. If it
//! contained a forbidden sequence `A`, replacing `A` by its `B` would give a legal path to the same goal that is
//! shorter or as long and earlier: a contradiction. So that solution passes the machine, and IDA* (which also
//! rejects immediate backtracks) finds it in the iteration whose threshold reaches the optimum; every threshold
//! below is still searched completely, so lower bounds stay proven.
//!
//! On sliding-tile grids the shortest duplicates come from the blank circling a 2 × 2 block: three turns one way
//! restore the block, so six moves one way equal six the other way, seven one way equal five the other way, and
//! so on; the longer ones (8 to 14 moves) combine laps of neighbouring blocks. Learned from sequences of up to 12
//! moves, the machine had 9,223 states (a 72 KB table) and removed about a third of the nodes of IDA* on the 15-
//! and 24-puzzles. Sequences of 14 moves add 15,417 patterns (2,132 have 12 moves, 743 have 13): learned from up to
//! 14 moves, the machine would have 66,492 states, just past `u16`, so the patterns are kept in shortlex order as
//! long as the machine fits (18,373 of 18,696; dropping a forbidden sequence only prunes less, which loses nothing):
//! 65,531 states, a 512 KB table. On 24-puzzle instances 25, 38, 40 and 44 that takes 9.6 % fewer nodes than the
//! depth-12 machine (0.91 times the time), on Korf's 100 with zb6-6-3 4.7 % fewer. Sequences of 15 moves would take
//! 1.3 % more off the 24-puzzle's nodes for 35 s and 3 GB of learning; a `u32` machine of every 14-move pattern
//! (1 MB) took as long per search as the depth-12 one.
//!
//! ```
//! use slide::engine::pruning::{MovePruner, DEAD};
//! let fsm = MovePruner::global();
//! // Directions: 0 up, 1 down, 2 left, 3 right. Circling a 2 × 2 block seven moves one way is never needed.
//! let mut s = fsm.start();
//! let lap = [3, 1, 2, 0, 3, 1, 2]; // R D L U R D L
//! for (i, &d) in lap.iter().enumerate() {
//!     s = fsm.step(s, d);
//!     if s == DEAD {
//!         assert!(i >= 5, "pruned at move {}", i + 1);
//!         break;
//!     }
//! }
//! assert_eq!(s, DEAD);
//! ```

use std::collections::HashMap;
use std::sync::OnceLock;

/// The state a forbidden move leads to.
pub const DEAD: u16 = u16::MAX;

/// How long the sequences are that [`MovePruner::global`]'s patterns were learned from.
pub const DEFAULT_DEPTH: usize = 14;

/// The patterns [`MovePruner::learn`]`(DEFAULT_DEPTH)` keeps, one per line as letters U D L R (learning them takes
/// about 9 seconds in a release build; compiling them into the machine, a few milliseconds). A test checks that they
/// are current.
const PATTERNS: &str = include_str!("pruning_patterns.txt");

/// The letters of the four directions.
const LETTERS: [char; 4] = ['U', 'D', 'L', 'R'];

/// Blank moves, as (row, column) steps: up, down, left, right.
const STEPS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// The direction that undoes direction `d`.
#[inline]
pub const fn inverse(d: u8) -> u8 {
    d ^ 1
}

/// A move-pruning automaton: states are `u16`, the start is 0, [`DEAD`] rejects. Besides the learned sequences it
/// rejects every immediate backtrack (a move that undoes the one before), so that a search stepping it needs no test
/// of its own for those (the search's one test per child is the machine's).
#[derive(Debug, Clone)]
pub struct MovePruner {
    next: Vec<[u16; 4]>,
    forbidden: Vec<Vec<u8>>,
    depth: usize,
}

impl MovePruner {
    /// The machine of the patterns learned from sequences of up to [`DEFAULT_DEPTH`] moves (18,373 patterns,
    /// 65,531 states: a 512 KB table), compiled once per process.
    pub fn global() -> &'static MovePruner {
        static GLOBAL: OnceLock<MovePruner> = OnceLock::new();
        GLOBAL.get_or_init(|| {
            // This runs before a process's first search: bytes (the file is ASCII), each pattern allocated once.
            let mut forbidden: Vec<Vec<u8>> = Vec::with_capacity(PATTERNS.len() / 8);
            for l in PATTERNS.lines() {
                if l.is_empty() || l.starts_with('#') {
                    continue;
                }
                let mut p = Vec::with_capacity(l.len());
                for b in l.bytes() {
                    if let Some(d) = LETTERS.iter().position(|&x| x as u8 == b) {
                        p.push(d as u8);
                    }
                }
                forbidden.push(p);
            }
            MovePruner::from_patterns(forbidden, DEFAULT_DEPTH)
        })
    }

    /// The machine of the given forbidden sequences (directions 0 up, 1 down, 2 left, 3 right), which must come
    /// from [`MovePruner::learn`] (any other sequence may lose solutions), and of the immediate backtracks.
    fn from_patterns(forbidden: Vec<Vec<u8>>, depth: usize) -> MovePruner {
        let next = automaton(&with_backtracks(&forbidden));
        MovePruner {
            next,
            forbidden,
            depth,
        }
    }

    /// The patterns as text, one per line (the format of the committed pattern file).
    pub fn patterns_text(&self) -> String {
        let mut out = format!(
            "# Move-pruning patterns: slide::pruning::MovePruner::learn({}) (generated; see pruning.rs)\n",
            self.depth
        );
        for f in &self.forbidden {
            out.extend(f.iter().map(|&d| LETTERS[d as usize & 3]));
            out.push('\n');
        }
        out
    }

    /// A machine that forbids only the immediate backtracks (5 states: the start and the last direction).
    pub fn none() -> MovePruner {
        MovePruner::from_patterns(Vec::new(), 0)
    }

    /// Learns the machine from every non-backtracking sequence of at most `depth` moves (see the module docs),
    /// keeping the forbidden sequences, shortest first, as long as the machine fits in `u16` states.
    /// `depth` is at most [`MAX_DEPTH`]; 14 takes about 9 seconds (in release builds), 12 about one, each move
    /// less about a third of that.
    pub fn learn(depth: usize) -> MovePruner {
        let depth = depth.min(MAX_DEPTH);
        let mut forbidden = forbidden_sequences(depth);
        forbidden.truncate(fitting(&forbidden));
        MovePruner::from_patterns(forbidden, depth)
    }

    /// The start state (no move made yet).
    #[inline(always)]
    pub fn start(&self) -> u16 {
        0
    }

    /// The state after moving the blank in direction `d` (0 up, 1 down, 2 left, 3 right) from state `s`, or
    /// [`DEAD`] when the move undoes the one before or completes a forbidden sequence. `s` must not be [`DEAD`].
    #[inline(always)]
    pub fn step(&self, s: u16, d: u8) -> u16 {
        self.next[s as usize][d as usize & 3]
    }

    /// Number of states (without the dead one).
    pub fn states(&self) -> usize {
        self.next.len()
    }

    /// The forbidden sequences the machine was compiled from, none containing another.
    pub fn forbidden(&self) -> &[Vec<u8>] {
        &self.forbidden
    }

    /// The longest sequences it learned from.
    pub fn depth(&self) -> usize {
        self.depth
    }
}

/// Learns the forbidden sequences of at most `depth` moves, shortest first, none containing another.
///
/// Level by level (sequences of length `k`, in lexicographic order): a sequence is played only when the machine
/// of the shorter forbidden sequences accepts it. It is forbidden when an accepted sequence played before it (so
/// first in shortlex order) leaves the same arrangement and stays within its bounding box; otherwise it is accepted
/// and can witness later ones. Accepted sequences suffice as witnesses: a witness that contains a forbidden
/// sequence can be rewritten, step by step, into an accepted one that is earlier still, stays within the same box and
/// has the same effect.
fn forbidden_sequences(depth: usize) -> Vec<Vec<u8>> {
    let depth = depth.min(MAX_DEPTH);
    let mut grid = Grid::new(depth);
    let mut patterns: Vec<Vec<u8>> = Vec::new();
    // Accepted sequences (packed two bits a move) and, by arrangement fingerprint, where to find them.
    let mut accepted: Vec<Packed> = vec![Packed::default()];
    let mut by_key: HashMap<u64, Vec<u32>> = HashMap::new();
    by_key.entry(grid.key(&[])).or_default().push(0);
    let mut level: Vec<u32> = vec![0];
    for _ in 1..=depth {
        let fsm = Machine::new(&patterns);
        let mut next_level = Vec::with_capacity(level.len() * 3);
        let mut found = Vec::new();
        for &i in &level {
            let prefix = accepted[i as usize];
            let mut buf = [0u8; MAX_DEPTH];
            let k = prefix.unpack(&mut buf);
            let Some(s) = fsm.run(&buf[..k]) else {
                continue;
            };
            for d in 0..4u8 {
                if (k > 0 && buf[k - 1] == inverse(d)) || fsm.step(s, d) == DEAD {
                    continue;
                }
                buf[k] = d;
                let a = &buf[..=k];
                let key = grid.key(a);
                let witnessed = by_key.get(&key).is_some_and(|earlier| {
                    let cells = grid.cells(a);
                    earlier.iter().any(|&j| {
                        let mut bb = [0u8; MAX_DEPTH];
                        let len = accepted[j as usize].unpack(&mut bb);
                        let b = &bb[..len];
                        grid.same_effect(b, a) && {
                            let bc = grid.cells(b);
                            grid.within_box(&bc, &cells)
                        }
                    })
                });
                if witnessed {
                    found.push(a.to_vec());
                } else {
                    let id = accepted.len() as u32;
                    accepted.push(Packed::new(a));
                    by_key.entry(key).or_default().push(id);
                    next_level.push(id);
                }
            }
        }
        patterns.extend(found);
        level = next_level;
    }
    patterns
}

/// The longest sequences learned from (15 would take 35 s and 3 GB of learning for 1.3 % fewer nodes).
pub const MAX_DEPTH: usize = 14;

/// How many of `patterns` (in the order given, shortlex for learned ones) the machine keeps: the longest prefix
/// whose automaton (with the backtracks) fits below [`DEAD`]. Any subset of forbidden sequences is safe to prune
/// with.
fn fitting(patterns: &[Vec<u8>]) -> usize {
    let fits = |n: usize| aho_corasick(&with_backtracks(&patterns[..n]), 4).is_some();
    if fits(patterns.len()) {
        return patterns.len();
    }
    // The states grow with the prefix: the longest prefix that fits, by bisection.
    let (mut lo, mut hi) = (0usize, patterns.len() - 1);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// A sequence of at most [`MAX_DEPTH`] moves, two bits each.
#[derive(Debug, Clone, Copy, Default)]
struct Packed {
    code: u32,
    len: u8,
}

impl Packed {
    fn new(moves: &[u8]) -> Packed {
        let code = moves
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &d)| acc | ((d as u32 & 3) << (2 * i)));
        Packed {
            code,
            len: moves.len() as u8,
        }
    }

    /// Writes the moves into `buf`; returns how many.
    fn unpack(self, buf: &mut [u8; MAX_DEPTH]) -> usize {
        for (i, b) in buf.iter_mut().enumerate().take(self.len as usize) {
            *b = ((self.code >> (2 * i)) & 3) as u8;
        }
        self.len as usize
    }
}

/// A grid of distinct tiles with no border within reach of `depth` moves from the middle, for playing sequences.
struct Grid {
    w: i32,
    center: i32,
    tiles: Vec<u16>,
}

impl Grid {
    fn new(depth: usize) -> Grid {
        let w = 2 * depth as i32 + 1;
        Grid {
            w,
            center: depth as i32 * w + depth as i32,
            tiles: (0..(w * w) as u16).collect(),
        }
    }

    /// A fingerprint of the arrangement `moves` leave (the cells whose tile changed, with their tiles); the grid
    /// is restored.
    fn key(&mut self, moves: &[u8]) -> u64 {
        let mut path = [0u16; MAX_DEPTH + 1];
        let n = self.walk(moves, &mut path);
        let mut key = 0u64;
        for (i, &c) in path[..n].iter().enumerate() {
            let t = self.tiles[c as usize];
            // Each changed cell once: the first time it appears on the path.
            if t != c && !path[..i].contains(&c) {
                key ^= mix(((c as u64) << 16) | t as u64);
            }
        }
        self.restore(&path[..n]);
        key
    }

    /// The cells `moves` visit, sorted.
    fn cells(&mut self, moves: &[u8]) -> Vec<u16> {
        let mut path = [0u16; MAX_DEPTH + 1];
        let n = self.walk(moves, &mut path);
        self.restore(&path[..n]);
        let mut cells = path[..n].to_vec();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// True when `a` and `b` leave exactly the same arrangement (the fingerprint only proposes candidates).
    fn same_effect(&mut self, a: &[u8], b: &[u8]) -> bool {
        let arrangement = |g: &mut Grid, moves: &[u8]| {
            let mut cells = g.cells(moves);
            let mut path = [0u16; MAX_DEPTH + 1];
            let n = g.walk(moves, &mut path);
            cells.retain(|&c| g.tiles[c as usize] != c);
            let changed: Vec<(u16, u16)> =
                cells.iter().map(|&c| (c, g.tiles[c as usize])).collect();
            g.restore(&path[..n]);
            changed
        };
        arrangement(self, a) == arrangement(self, b)
    }

    /// Moves the blank along `moves`, writing the cells visited (start included) into `path`; returns how many.
    fn walk(&mut self, moves: &[u8], path: &mut [u16; MAX_DEPTH + 1]) -> usize {
        let (mut r, mut c) = (self.center / self.w, self.center % self.w);
        path[0] = self.center as u16;
        for (i, &d) in moves.iter().enumerate() {
            let (dr, dc) = STEPS[d as usize & 3];
            let from = (r * self.w + c) as usize;
            r += dr;
            c += dc;
            let to = (r * self.w + c) as usize;
            self.tiles.swap(from, to);
            path[i + 1] = to as u16;
        }
        moves.len() + 1
    }

    /// True when every cell of `a` lies in the bounding box of the cells `b` (not empty).
    fn within_box(&self, a: &[u16], b: &[u16]) -> bool {
        let rc = |c: u16| (c as i32 / self.w, c as i32 % self.w);
        let (mut r0, mut c0, mut r1, mut c1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for &x in b {
            let (r, c) = rc(x);
            (r0, c0, r1, c1) = (r0.min(r), c0.min(c), r1.max(r), c1.max(c));
        }
        a.iter().all(|&x| {
            let (r, c) = rc(x);
            (r0..=r1).contains(&r) && (c0..=c1).contains(&c)
        })
    }

    fn restore(&mut self, cells: &[u16]) {
        for &c in cells {
            self.tiles[c as usize] = c;
        }
    }
}

/// A 64-bit mixing function (SplitMix64's finaliser).
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// `patterns` and the four immediate backtracks (up-down, down-up, left-right, right-left): the sequences a
/// [`MovePruner`] rejects. No learned pattern contains a backtrack (learning plays none), so the backtracks add no
/// live state.
fn with_backtracks(patterns: &[Vec<u8>]) -> Vec<&[u8]> {
    const BACK: [[u8; 2]; 4] = [[0, 1], [1, 0], [2, 3], [3, 2]];
    BACK.iter()
        .map(|b| &b[..])
        .chain(patterns.iter().map(|p| &p[..]))
        .collect()
}

/// The machine of a set of patterns, as used while learning.
struct Machine {
    next: Vec<[u16; 4]>,
}

impl Machine {
    fn new(patterns: &[Vec<u8>]) -> Machine {
        Machine {
            next: automaton(patterns),
        }
    }

    fn step(&self, s: u16, d: u8) -> u16 {
        self.next[s as usize][d as usize & 3]
    }

    /// The state after `moves`, or `None` when they contain a pattern.
    fn run(&self, moves: &[u8]) -> Option<u16> {
        let mut s = 0;
        for &d in moves {
            s = self.step(s, d);
            if s == DEAD {
                return None;
            }
        }
        Some(s)
    }
}

/// The Aho–Corasick automaton of `patterns` (over directions 0 to 3) as a complete transition table; transitions
/// that complete a pattern lead to [`DEAD`].
fn automaton<P: AsRef<[u8]>>(patterns: &[P]) -> Vec<[u16; 4]> {
    // Too many states (never for the committed patterns, which `fitting` keeps within them): the machine of the
    // backtracks alone (5 states), which loses nothing.
    let flat = aho_corasick(patterns, 4)
        .or_else(|| aho_corasick(&with_backtracks(&[]), 4))
        .unwrap_or_default();
    flat.chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect()
}

/// The Aho–Corasick automaton of `patterns` over the symbols `0..alphabet`, as a complete transition table: state
/// `s`'s transition on symbol `x` is entry `s * alphabet + x`; the start is state 0; transitions that complete a
/// pattern lead to [`DEAD`]. `None` when the live states do not fit below [`DEAD`].
pub(crate) fn aho_corasick<P: AsRef<[u8]>>(patterns: &[P], alphabet: usize) -> Option<Vec<u16>> {
    const NONE: u32 = u32::MAX;
    // At most one state per pattern symbol, and the start: reserved once (the machine is built before a process's
    // first search).
    let most = 1 + patterns.iter().map(|p| p.as_ref().len()).sum::<usize>();
    let mut goto: Vec<u32> = Vec::with_capacity(most * alphabet);
    goto.resize(alphabet, NONE);
    let mut terminal = Vec::with_capacity(most);
    terminal.push(false);
    for p in patterns {
        let mut s = 0usize;
        for &d in p.as_ref() {
            let d = d as usize;
            if goto[s * alphabet + d] == NONE {
                goto[s * alphabet + d] = terminal.len() as u32;
                goto.extend(std::iter::repeat_n(NONE, alphabet));
                terminal.push(false);
            }
            s = goto[s * alphabet + d] as usize;
        }
        terminal[s] = true;
    }
    let states = terminal.len();
    // Breadth-first: failure links, completed transitions, and "a pattern ends here" inherited along failures.
    let mut fail = vec![0u32; states];
    let mut next = vec![0u32; states * alphabet];
    // Every state but the start enters the queue once: a vector read from the front.
    let mut queue = Vec::with_capacity(states);
    for d in 0..alphabet {
        match goto[d] {
            NONE => next[d] = 0,
            s => {
                next[d] = s;
                fail[s as usize] = 0;
                queue.push(s as usize);
            }
        }
    }
    let mut head = 0;
    while let Some(&s) = queue.get(head) {
        head += 1;
        terminal[s] |= terminal[fail[s] as usize];
        for d in 0..alphabet {
            let f = next[fail[s] as usize * alphabet + d];
            match goto[s * alphabet + d] {
                NONE => next[s * alphabet + d] = f,
                c => {
                    next[s * alphabet + d] = c;
                    fail[c as usize] = f;
                    queue.push(c as usize);
                }
            }
        }
    }
    // Renumber the live states densely (the start stays 0) and send every move into a terminal state to DEAD.
    if terminal.iter().filter(|&&t| !t).count() >= DEAD as usize {
        return None;
    }
    let mut id = vec![DEAD; states];
    let mut live = 0u16;
    for s in 0..states {
        if !terminal[s] {
            id[s] = live;
            live += 1;
        }
    }
    let mut table = Vec::with_capacity(live as usize * alphabet);
    for s in (0..states).filter(|&s| !terminal[s]) {
        table.extend(
            next[s * alphabet..(s + 1) * alphabet]
                .iter()
                .map(|&t| id[t as usize]),
        );
    }
    Some(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `moves` from the start; `None` when the machine rejects them.
    fn run(fsm: &MovePruner, moves: &[u8]) -> Option<u16> {
        let mut s = fsm.start();
        for &d in moves {
            s = fsm.step(s, d);
            if s == DEAD {
                return None;
            }
        }
        Some(s)
    }

    #[test]
    fn the_duplicates_are_the_two_by_two_cycles() {
        let fsm = MovePruner::learn(8);
        assert!(!fsm.forbidden().is_empty());
        // Clockwise (R D L U) and counter-clockwise (D R U L) laps around a block.
        let cw = |start: usize, len: usize| -> Vec<u8> {
            (0..len).map(|i| [3u8, 1, 2, 0][(start + i) % 4]).collect()
        };
        let ccw = |start: usize, len: usize| -> Vec<u8> {
            (0..len).map(|i| [1u8, 3, 0, 2][(start + i) % 4]).collect()
        };
        for start in 0..4 {
            // Five moves around a block are never redundant; seven always are (five the other way do the same).
            assert!(run(&fsm, &cw(start, 5)).is_some());
            assert!(run(&fsm, &ccw(start, 5)).is_some());
            assert!(run(&fsm, &cw(start, 7)).is_none());
            assert!(run(&fsm, &ccw(start, 7)).is_none());
        }
        // Six moves one way equal six the other way: exactly one of each such pair is kept.
        let sixes = (0..4).map(|s| cw(s, 6)).chain((0..4).map(|s| ccw(s, 6)));
        assert_eq!(sixes.filter(|m| run(&fsm, m).is_some()).count(), 4);
        // Straight lines and zigzags are never pruned.
        assert!(run(&fsm, &[3; 8]).is_some());
        assert!(run(&fsm, &[3, 1, 3, 1, 3, 1, 3, 1]).is_some());
        // Every forbidden sequence is rejected exactly at its last move.
        for f in fsm.forbidden() {
            assert!(run(&fsm, &f[..f.len() - 1]).is_some(), "{f:?}");
            assert!(run(&fsm, f).is_none(), "{f:?}");
        }
    }

    /// The committed patterns are what learning finds (`SLIDE_UPDATE_PATTERNS=1` rewrites the file).
    #[test]
    fn the_committed_patterns_are_current() {
        let learned = MovePruner::learn(DEFAULT_DEPTH);
        let text = learned.patterns_text();
        if std::env::var_os("SLIDE_UPDATE_PATTERNS").is_some() {
            let path = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/search/pruning_patterns.txt"
            );
            std::fs::write(path, &text).unwrap();
        }
        assert!(
            text == PATTERNS,
            "src/search/pruning_patterns.txt is stale: run SLIDE_UPDATE_PATTERNS=1 cargo test --release -p slidetile --lib pruning"
        );
        let global = MovePruner::global();
        assert_eq!(global.forbidden(), learned.forbidden());
        assert_eq!(global.states(), learned.states());
        assert_eq!((global.forbidden().len(), global.states()), (18373, 65531));
    }

    #[test]
    fn the_empty_machine_rejects_backtracks_only() {
        let fsm = MovePruner::none();
        assert_eq!(fsm.states(), 5);
        assert!(run(&fsm, &[3, 1, 2, 0, 3, 1, 2, 0, 3, 1, 2, 0]).is_some());
        for d in 0..4u8 {
            assert!(run(&fsm, &[3, 1, d]).is_some() == (d != 0), "{d}");
        }
        // The learned machine rejects them too, as its first test per move.
        let fsm = MovePruner::global();
        for (d, e) in [(0, 1), (1, 0), (2, 3), (3, 2)] {
            assert!(run(fsm, &[d, e]).is_none());
        }
        assert_eq!(MovePruner::learn(4).forbidden().len(), 0);
    }
}
