//! IDA*: iterative-deepening A* over a board edited in place, with limits on nodes and time and a stop flag.
//!
//! The hot loop moves a tile, updates the heuristic incrementally ([`Eval::push`]), recurses, and undoes both. The
//! move that would undo the previous one is never generated, nor any move that the move-pruning automaton
//! ([`crate::search::pruning`]) rejects (the automaton rejects the backtracks too: one table step per child is the
//! whole test), and nothing is allocated inside the loop.
//! [`ida_star_parallel`] shares each threshold among the rayon pool's threads (same lengths as [`ida_star`]);
//! [`split_threshold`] and [`search_subtree`] cut a threshold the same way for other processes or machines.

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::search::heuristic::{Eval, Geometry, MAX_SEARCH_CELLS};
use crate::search::limits::{LimitCheck, CHECK_EVERY};
pub use crate::search::limits::{Limits, SearchWatch};
use crate::search::pruning::{MovePruner, DEAD};

/// One IDA* iteration: its threshold and the nodes it generated (recorded once per iteration, not per node).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Iteration {
    /// The iteration's threshold (the bound on `g + h`; weighted search: on `g + w·h`).
    pub threshold: u32,
    /// Nodes generated in this iteration.
    pub nodes: u64,
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// An optimal solution (moves as canonical tiles).
    Solved {
        /// The tiles moved, in order.
        moves: Vec<u8>,
        /// Nodes generated (every node whose estimate was computed).
        nodes: u64,
        /// The heuristic estimate of the start.
        estimate: u32,
        /// The iterations, in order (empty where the search does not record them: MTM).
        iterations: Vec<Iteration>,
    },
    /// A limit stopped the search; the optimum is at least `lower_bound`.
    Stopped {
        /// The threshold of the iteration that was running: every shorter solution was ruled out.
        lower_bound: u32,
        /// Nodes generated.
        nodes: u64,
        /// The heuristic estimate of the start.
        estimate: u32,
        /// The iterations, in order, the one that was stopped last (empty where the search does not record them).
        iterations: Vec<Iteration>,
    },
}

/// How often the workers of a parallel search check the limits and report their nodes (more often: several share
/// the node limit). A parallel search passes its node limit by at most about this many nodes per thread
/// ([`Limits::max_nodes`]).
pub const WORKER_CHECK_EVERY: u64 = 1 << 10;

struct Ida<'a, 'l, E: Eval> {
    eval: E,
    neighbors: [[u8; 4]; MAX_SEARCH_CELLS],
    /// Direction of the blank's move to each neighbour (0 up, 1 down, 2 left, 3 right).
    dirs: [[u8; 4]; MAX_SEARCH_CELLS],
    degree: [u8; MAX_SEARCH_CELLS],
    /// Move pruning, immediate backtracks included ([`MovePruner::none`] rejects those only).
    fsm: &'a MovePruner,
    tiles: [u8; MAX_SEARCH_CELLS],
    blank: u8,
    path: Vec<u8>,
    nodes: u64,
    bound: u32,
    next_bound: u32,
    weight_num: u32,
    weight_den: u32,
    /// The limits, and when to look at them next.
    check: LimitCheck<'a, 'l>,
    stopped: bool,
    /// Parallel search: what the workers share, and how many of this worker's nodes it holds.
    shared: Option<&'a Shared>,
    reported: u64,
}

/// What the workers of a parallel iteration share.
struct Shared {
    /// A worker found a solution.
    found: AtomicBool,
    /// A worker hit a limit.
    limited: AtomicBool,
    /// Nodes of all workers, as of their last report.
    nodes: AtomicU64,
}

impl<E: Eval> Ida<'_, '_, E> {
    #[inline]
    fn f(&self, g: u32, h: u32) -> u32 {
        if self.weight_num == self.weight_den {
            g + h
        } else {
            // In 64 bits nothing overflows ((2^32 - 1)^2 + 2^32 < 2^64); the weight is at most MAX_SEARCH_WEIGHT, so
            // the cap (below FOUND and the "nothing beyond" mark) is never reached by any real estimate.
            let f = u64::from(g)
                + u64::from(h) * u64::from(self.weight_num) / u64::from(self.weight_den);
            f.min(u64::from(u32::MAX - 1)) as u32
        }
    }

    #[cold]
    #[inline(never)]
    fn check_limits(&mut self) {
        let every = if self.shared.is_some() {
            WORKER_CHECK_EVERY
        } else {
            CHECK_EVERY
        };
        let mut all = self.nodes;
        if let Some(sh) = self.shared {
            all = self.report(sh);
            if sh.found.load(Relaxed) || sh.limited.load(Relaxed) {
                self.stopped = true;
                return;
            }
        }
        if self.check.reached(self.nodes, all, every) {
            self.stopped = true;
            if let Some(sh) = self.shared {
                sh.limited.store(true, Relaxed);
            }
        }
        if let Some(w) = self.check.limits().watch {
            w.tick(self.bound, all);
        }
    }

    /// Moves tile `t` from cell `c` into the blank on cell `b`: the board, the path and the heuristic (with the
    /// probe computed for this move); [`Ida::undo`] takes it back.
    #[inline(always)]
    fn apply(&mut self, t: u8, c: u8, b: u8, probe: E::Probe) -> E::Undo {
        self.path.push(t);
        self.play(t, c, b, probe)
    }

    /// Takes back [`Ida::apply`]`(t, c, b, …)`.
    #[inline(always)]
    fn undo(&mut self, t: u8, c: u8, b: u8, undo: E::Undo) {
        self.path.pop();
        self.take_back(t, c, b, undo);
    }

    /// [`Ida::apply`] without the path: **the** one move of [`Ida::dfs`], which records its path only on the way
    /// back from a goal (no push and pop per node).
    #[inline(always)]
    fn play(&mut self, t: u8, c: u8, b: u8, probe: E::Probe) -> E::Undo {
        self.tiles[b as usize & 63] = t;
        self.tiles[c as usize & 63] = 0;
        self.blank = c;
        self.eval.push_probed(t, c, b, probe)
    }

    /// Takes back [`Ida::play`]`(t, c, b, …)`.
    #[inline(always)]
    fn take_back(&mut self, t: u8, c: u8, b: u8, undo: E::Undo) {
        self.eval.pop(t, c, b, undo);
        self.blank = b;
        self.tiles[c as usize & 63] = t;
        self.tiles[b as usize & 63] = 0;
    }

    /// [`Ida::dfs`] from the current node; true when it reached a goal, whose moves then follow the path so far.
    fn search_below(&mut self, depth: u32, s: u16, h: u32) -> bool {
        let base = self.path.len();
        let found = self.dfs(depth, s, h) == FOUND;
        if found {
            // `dfs` pushed the moves deepest first, as it returned.
            self.path[base..].reverse();
        }
        found
    }

    /// Adds this worker's new nodes to the shared count; returns the total.
    #[inline(never)]
    fn report(&mut self, sh: &Shared) -> u64 {
        let new = self.nodes - self.reported;
        self.reported = self.nodes;
        sh.nodes.fetch_add(new, Relaxed) + new
    }

    /// Depth-first search below the current node, at depth `depth` with estimate `h` (within the bound); `s` is
    /// the move-pruning state (which rejects the move back). Returns [`FOUND`], or this node's estimate as
    /// raised by pathmax. The moves from here to the goal are pushed on `path` deepest first as the recursion
    /// returns ([`Ida::search_below`] puts them in order).
    ///
    /// Every child is first *probed* (its estimate computed without moving into it, [`Eval::probe`]), one after the
    /// other: children over the bound are never entered, and those within it are entered least estimate first,
    /// ties as [`Eval::tie_break`] orders them. Pattern databases are admissible but not always consistent, so both
    /// directions of pathmax (BPMX) apply: a child's estimate is at least its parent's minus one, and a parent's at
    /// least any child's minus one; a raised estimate that passes the bound prunes the node's remaining children,
    /// the ones not yet probed included. A heuristic that looks ahead ([`Eval::looks_ahead`]) first works out
    /// every child's table indices and starts their loads, so that the reads of large databases overlap.
    fn dfs(&mut self, depth: u32, s: u16, mut h: u32) -> u32 {
        // `h` is at least the heuristic's estimate and admissible (pathmax keeps both), and an estimate is 0 at the
        // goal only: so `h` is 0 exactly at the goal, with no call into the heuristic.
        debug_assert_eq!(h == 0, self.eval.h() == 0);
        if h == 0 {
            return FOUND;
        }
        if self.check.due(self.nodes) {
            self.check_limits();
            if self.stopped {
                return h;
            }
        }
        let b = self.blank;
        let deg = (self.degree[b as usize & 63] as usize).min(4);
        let nbrs = self.neighbors[b as usize & 63];
        let dirs = self.dirs[b as usize & 63];
        // The largest child estimate within the bound (weighted search refines every estimate).
        let budget = if self.weight_num == self.weight_den {
            self.bound - depth - 1
        } else if depth >= MAX_WEIGHTED_DEPTH {
            // Weighted search goes no deeper: the stack stays bounded (see MAX_WEIGHTED_DEPTH).
            return h;
        } else {
            u32::MAX
        };
        // Looking ahead ([`Eval::ahead`]): every child's indices first, their loads started, so that the loads
        // overlap. `ahead[j]` is written for the children the pruning automaton accepts, the very ones probed
        // below, and read for those only; left uninitialised otherwise, as `inside` is.
        let looks = self.eval.looks_ahead();
        let mut ahead = [MaybeUninit::<E::Ahead>::uninit(); 4];
        if looks {
            for j in 0..deg {
                let c = nbrs[j];
                if self.fsm.step(s, dirs[j]) != DEAD {
                    ahead[j & 3].write(self.eval.ahead(self.tiles[c as usize & 63], c, b));
                }
            }
        }
        // The children: every move the pruning automaton accepts (never the one back), each probed in turn.
        // A child whose estimate raises this node's past the bound (pathmax) ends the node there, its later
        // siblings not probed.
        // `inside[..k]` holds the children within the bound: written before `k` counts them, and never read past
        // it. Left uninitialised, not zeroed: the stores of four empty entries were 1.6 % of the search's
        // instructions (24-puzzle instance 40).
        let mut inside = [MaybeUninit::<(u8, u16, u32, E::Probe)>::uninit(); 4];
        let mut k = 0;
        for j in 0..deg {
            let (c, d) = (nbrs[j], dirs[j]);
            let sc = self.fsm.step(s, d);
            if sc == DEAD {
                continue;
            }
            let t = self.tiles[c as usize & 63];
            let (mut hc, probe) = if looks {
                // SAFETY: written above for this child: the automaton accepted the same move from the same state.
                let a = unsafe { ahead[j & 3].assume_init() };
                self.eval.probe_ahead(t, c, b, budget, a)
            } else {
                self.eval.probe(t, c, b, budget)
            };
            self.nodes += 1;
            if E::INCONSISTENT {
                hc = hc.max(h.saturating_sub(1));
            }
            let fc = self.f(depth + 1, hc);
            if fc <= self.bound {
                inside[k & 3].write((c, sc, hc, probe));
                k += 1;
                continue;
            }
            if fc < self.next_bound {
                self.next_bound = fc;
            }
            if E::INCONSISTENT && hc > h + 1 {
                h = hc - 1;
                let f = self.f(depth, h);
                if f > self.bound {
                    self.next_bound = self.next_bound.min(f);
                    return h;
                }
            }
        }
        // The children with the least estimates first, ties as the heuristic breaks them (`Eval::tie_break`): in
        // the last iteration a solution is met sooner. Apart from the siblings that pathmax cuts after a child
        // returns (which depend on the order), a complete iteration visits the same nodes in any order.
        let k = k.min(4);
        // SAFETY: entries below `k` were written (above).
        let key = |e: &MaybeUninit<(u8, u16, u32, E::Probe)>| {
            let &(_, _, hc, ref probe) = unsafe { e.assume_init_ref() };
            (hc, E::tie_break(probe))
        };
        for x in 1..k {
            let mut y = x;
            while y > 0 && key(&inside[y - 1]) > key(&inside[y]) {
                inside.swap(y - 1, y);
                y -= 1;
            }
        }
        for e in &inside[..k] {
            // SAFETY: as above.
            let (c, sc, hc, probe) = unsafe { e.assume_init_read() };
            let t = self.tiles[c as usize & 63];
            let undo = self.play(t, c, b, probe);
            let hc = if E::INCONSISTENT {
                hc.max(h.saturating_sub(1))
            } else {
                hc
            };
            let child = self.dfs(depth + 1, sc, hc);
            if child == FOUND {
                self.path.push(t);
                return FOUND;
            }
            self.take_back(t, c, b, undo);
            if self.stopped {
                return h;
            }
            if E::INCONSISTENT && child > h + 1 {
                h = child - 1;
                let f = self.f(depth, h);
                if f > self.bound {
                    self.next_bound = self.next_bound.min(f);
                    return h;
                }
            }
        }
        h
    }
}

/// What [`Ida::dfs`] returns when it reached the goal.
const FOUND: u32 = u32::MAX;

/// Deepest path weighted IDA* follows. Its thresholds grow with the weight (up to `w` times the optimum), and the
/// depth-first search with them, so it runs on a thread of its own with a stack for this many levels
/// ([`WEIGHTED_STACK`]), and goes no deeper. Cutting deeper paths keeps the bound: every node of an optimal path
/// lies at most the optimum deep, so a board whose optimum is at most this many moves is solved within `w` times
/// it as before; a board whose optimum were longer would find no solution and stop at its limits, never with a
/// longer answer.
pub const MAX_WEIGHTED_DEPTH: u32 = 1 << 15;

/// Stack of the thread that runs weighted IDA*: 2 KiB for each level of [`MAX_WEIGHTED_DEPTH`] (a level takes
/// about 1 KiB in an unoptimised build, far less optimised) and 1 MiB more. Only the pages used are touched.
pub const WEIGHTED_STACK: usize = (MAX_WEIGHTED_DEPTH as usize) * 2048 + (1 << 20);

/// Largest weight [`ida_star`] applies (`num / den` above it counts as this).
pub const MAX_SEARCH_WEIGHT: u32 = 1000;

/// Runs IDA* from `pos` (tile → cell, canonical frame of `g`) with heuristic `eval`. With `weight` > 1 (as a
/// fraction `num/den`), runs weighted IDA*: `f = g + ⌊w·h⌋`; the solution is then at most `w` times the optimum
/// (every node of an optimal path has `f ≤ w·C*`, so no threshold passes `w·C*` before a solution is found).
/// `pruner` rejects redundant move sequences ([`MovePruner::global`], or [`MovePruner::none`] to compare).
pub fn ida_star<E: Eval + Send>(
    g: &Geometry,
    eval: E,
    pos: &[u8],
    limits: &Limits<'_>,
    weight: (u32, u32),
    pruner: &MovePruner,
) -> Outcome {
    let (num, den) = clamp_weight(weight);
    if num > den {
        // Weighted: deep paths, on a stack made for them (see MAX_WEIGHTED_DEPTH).
        let spawned = std::thread::scope(|s| {
            std::thread::Builder::new()
                .name("slide-weighted-ida".into())
                .stack_size(WEIGHTED_STACK)
                .spawn_scoped(s, || ida_star_here(g, eval, pos, limits, weight, pruner))
                .map(|t| t.join())
        });
        match spawned {
            Ok(Ok(outcome)) => return outcome,
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            // No thread to be had: no search, and nothing proven.
            Err(_) => {
                return Outcome::Stopped {
                    lower_bound: 0,
                    nodes: 0,
                    estimate: 0,
                    iterations: Vec::new(),
                }
            }
        }
    }
    ida_star_here(g, eval, pos, limits, weight, pruner)
}

/// [`ida_star`] on the calling thread.
fn ida_star_here<E: Eval>(
    g: &Geometry,
    eval: E,
    pos: &[u8],
    limits: &Limits<'_>,
    weight: (u32, u32),
    pruner: &MovePruner,
) -> Outcome {
    drive(g, eval, pos, limits, weight, pruner, sequential_iteration)
}

/// One threshold searched on the calling thread, from the start; the solution's path if it found one.
fn sequential_iteration<E: Eval>(ida: &mut Ida<'_, '_, E>) -> Option<Vec<u8>> {
    ida.nodes += 1;
    let h0 = ida.eval.h();
    let s0 = ida.fsm.start();
    (!ida.stopped && ida.search_below(0, s0, h0)).then(|| std::mem::take(&mut ida.path))
}

/// [`ida_star`] with every iteration shared among the threads of the current rayon pool: the iteration's tree is
/// cut at a depth where it has enough nodes to keep every thread busy, and the subtrees below the cut are searched
/// in parallel with the same threshold. A solution found in an iteration is as short as any (the previous
/// threshold was searched completely), so the length is the same as [`ida_star`]'s; the moves and the node count
/// may differ from run to run.
pub fn ida_star_parallel<E: Eval + Clone + Send + Sync>(
    g: &Geometry,
    eval: E,
    pos: &[u8],
    limits: &Limits<'_>,
    pruner: &MovePruner,
) -> Outcome {
    let threads = rayon::current_num_threads();
    if threads <= 1 {
        return ida_star(g, eval, pos, limits, (1, 1), pruner);
    }
    let want = 32 * threads;
    drive(g, eval, pos, limits, (1, 1), pruner, |ida| {
        // What is left of a node limit too small to share (cutting the tree alone may take hundreds of nodes, and
        // each worker looks at the shared count only every WORKER_CHECK_EVERY nodes): searched on this thread,
        // which stops within one node's children of the limit.
        let left = limits
            .max_nodes
            .map_or(u64::MAX, |m| m.saturating_sub(ida.nodes));
        if left < WORKER_CHECK_EVERY.saturating_mul(want as u64) {
            sequential_iteration(ida)
        } else {
            parallel_iteration(ida, want)
        }
    })
}

/// Sets up a search from `pos` (tile → cell, canonical frame of `g`): the board, the neighbour tables and the
/// heuristic's start; the threshold is left at 0.
fn setup<'a, 'l, E: Eval>(
    g: &Geometry,
    mut eval: E,
    pos: &[u8],
    limits: &'a Limits<'l>,
    weight: (u32, u32),
    fsm: &'a MovePruner,
) -> Ida<'a, 'l, E> {
    let n = g.n;
    let mut tiles = [0u8; MAX_SEARCH_CELLS];
    for (t, &c) in pos[..n].iter().enumerate() {
        tiles[c as usize] = t as u8;
    }
    eval.reset(&pos[..n]);
    let mut neighbors = [[0u8; 4]; MAX_SEARCH_CELLS];
    let mut degree = [0u8; MAX_SEARCH_CELLS];
    neighbors[..n].copy_from_slice(&g.neighbors);
    degree[..n].copy_from_slice(&g.degree);
    let mut dirs = [[0u8; 4]; MAX_SEARCH_CELLS];
    let cols = g.shape.cols();
    for b in 0..n {
        for k in 0..degree[b] as usize {
            let c = neighbors[b][k] as usize;
            dirs[b][k] = if c + cols == b {
                0
            } else if c == b + cols {
                1
            } else if c + 1 == b {
                2
            } else {
                3
            };
        }
    }
    Ida {
        eval,
        neighbors,
        dirs,
        degree,
        fsm,
        tiles,
        blank: pos[0],
        path: Vec::with_capacity(256),
        nodes: 0,
        bound: 0,
        next_bound: 0,
        weight_num: clamp_weight(weight).0,
        weight_den: clamp_weight(weight).1,
        check: LimitCheck::new(limits),
        stopped: false,
        shared: None,
        reported: 0,
    }
}

impl<'a, 'l, E: Eval> Ida<'a, 'l, E> {
    /// A search from `pos` (tile → cell, canonical frame of `g`), its first threshold the start's estimate.
    fn new(
        g: &Geometry,
        eval: E,
        pos: &[u8],
        limits: &'a Limits<'l>,
        weight: (u32, u32),
        fsm: &'a MovePruner,
    ) -> Ida<'a, 'l, E> {
        let mut ida = setup(g, eval, pos, limits, weight, fsm);
        ida.bound = ida.f(0, ida.eval.h());
        ida
    }
}

/// Runs IDA* iterations (`iteration` searches one threshold, returning a solution path if it found one), reporting
/// each iteration's start and the final count to [`Limits::watch`].
fn drive<'a, 'l, E: Eval>(
    g: &Geometry,
    eval: E,
    pos: &[u8],
    limits: &'a Limits<'l>,
    weight: (u32, u32),
    fsm: &'a MovePruner,
    mut iteration: impl FnMut(&mut Ida<'a, 'l, E>) -> Option<Vec<u8>>,
) -> Outcome {
    let mut ida = setup(g, eval, pos, limits, weight, fsm);
    ida.bound = ida.f(0, ida.eval.h());
    let estimate = ida.eval.h();
    let mut proven = estimate;
    let mut iterations = Vec::new();
    let outcome = loop {
        if limits.past_depth(ida.bound) {
            break Outcome::Stopped {
                lower_bound: proven,
                nodes: ida.nodes,
                estimate,
                iterations,
            };
        }
        if let Some(w) = limits.watch {
            w.report(ida.bound, ida.nodes);
        }
        ida.next_bound = u32::MAX;
        ida.check_limits();
        let before = ida.nodes;
        let found = iteration(&mut ida);
        iterations.push(Iteration {
            threshold: ida.bound,
            nodes: ida.nodes - before,
        });
        if let Some(moves) = found {
            break Outcome::Solved {
                moves,
                nodes: ida.nodes,
                estimate,
                iterations,
            };
        }
        if ida.stopped || ida.next_bound == u32::MAX {
            // next_bound == MAX would mean no state lies beyond: impossible for a solvable board.
            break Outcome::Stopped {
                lower_bound: proven,
                nodes: ida.nodes,
                estimate,
                iterations,
            };
        }
        ida.bound = ida.next_bound;
        if weight.0 <= weight.1 {
            proven = ida.bound;
        }
    };
    if let Some(w) = limits.watch {
        w.report(ida.bound, ida.nodes);
    }
    outcome
}

/// A weight fraction with no zero and at most [`MAX_SEARCH_WEIGHT`].
fn clamp_weight((num, den): (u32, u32)) -> (u32, u32) {
    let (num, den) = (num.max(1), den.max(1));
    if u64::from(num) > u64::from(den) * u64::from(MAX_SEARCH_WEIGHT) {
        (MAX_SEARCH_WEIGHT, 1)
    } else {
        (num, den)
    }
}

/// What [`count_paths`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counted {
    /// The move sequences of exactly the bound's length that reach the goal: all of them, unless `stopped` or the
    /// search was asked to stop once it had kept enough.
    pub count: u128,
    /// The first of them (canonical tiles), in the search's order, as many as asked to keep.
    pub paths: Vec<Vec<u8>>,
    /// Nodes generated.
    pub nodes: u64,
    /// A limit (nodes, time, the cancel flag) stopped the search: `count` is then only a lower bound.
    pub stopped: bool,
}

/// The tallies of a counting iteration (single-tile here, pushes in `search/mtm/`).
pub(crate) struct Tally {
    pub(crate) count: u128,
    pub(crate) paths: Vec<Vec<u8>>,
    keep: usize,
    /// Stop once `keep` sequences are kept (listing, not counting).
    stop_when_kept: bool,
    /// True once the iteration may stop (listing, and `keep` kept).
    pub(crate) done: bool,
}

impl Tally {
    /// No sequence yet; keep the first `keep`, and with `stop_when_kept` stop once they are kept.
    pub(crate) fn new(keep: usize, stop_when_kept: bool) -> Tally {
        Tally {
            count: 0,
            paths: Vec::new(),
            keep,
            stop_when_kept,
            done: stop_when_kept && keep == 0,
        }
    }

    /// One more sequence found; `path` makes it, asked only while fewer than `keep` are kept.
    pub(crate) fn found(&mut self, path: impl FnOnce() -> Vec<u8>) {
        self.count += 1;
        if self.paths.len() < self.keep {
            self.paths.push(path());
        }
        self.done = self.stop_when_kept && self.paths.len() >= self.keep;
    }
}

/// Counts the move sequences of exactly `bound` moves from `pos` (tile → cell, canonical frame of `g`) to the
/// goal, `bound` being the proven least number of moves: one complete IDA* iteration at that threshold, keeping
/// the first `keep` sequences (and stopping there when `stop_when_kept`). Only immediate backtracks are pruned
/// (never part of a shortest sequence); move pruning would drop sequences equivalent to others, which count here.
/// Estimates prune a child only when it cannot lie on a sequence of `bound` moves, so none is missed.
pub fn count_paths<E: Eval>(
    g: &Geometry,
    eval: E,
    pos: &[u8],
    bound: u32,
    limits: &Limits<'_>,
    keep: usize,
    stop_when_kept: bool,
) -> Counted {
    let none = MovePruner::none();
    let mut ida = Ida::new(g, eval, pos, limits, (1, 1), &none);
    ida.bound = bound;
    let mut tally = Tally::new(keep, stop_when_kept);
    ida.nodes += 1;
    let h0 = ida.eval.h();
    ida.check_limits();
    if !ida.stopped && !tally.done && h0 <= bound {
        ida.count_dfs(0, u8::MAX, h0, &mut tally);
    }
    Counted {
        count: tally.count,
        paths: tally.paths,
        nodes: ida.nodes,
        stopped: ida.stopped,
    }
}

impl<E: Eval> Ida<'_, '_, E> {
    /// [`Ida::dfs`] that counts: every goal reached at depth `bound` is a sequence; children are entered one by
    /// one, each probed first, and only one over the bound is skipped.
    fn count_dfs(&mut self, depth: u32, prev: u8, h: u32, tally: &mut Tally) {
        if self.eval.h() == 0 {
            if depth == self.bound {
                tally.found(|| self.path.clone());
            }
            return;
        }
        if self.check.due(self.nodes) {
            self.check_limits();
            if self.stopped {
                return;
            }
        }
        if depth >= self.bound {
            return;
        }
        let b = self.blank;
        let deg = (self.degree[b as usize & 63] as usize).min(4);
        let nbrs = self.neighbors[b as usize & 63];
        let budget = self.bound - depth - 1;
        for &c in &nbrs[..deg] {
            if c == prev {
                continue;
            }
            let t = self.tiles[c as usize & 63];
            let (mut hc, probe) = self.eval.probe(t, c, b, budget);
            self.nodes += 1;
            if E::INCONSISTENT {
                hc = hc.max(h.saturating_sub(1));
            }
            if depth + 1 + hc > self.bound {
                continue;
            }
            let undo = self.apply(t, c, b, probe);
            self.count_dfs(depth + 1, b, hc, tally);
            self.undo(t, c, b, undo);
            if self.stopped || tally.done {
                return;
            }
        }
    }
}

/// A node where a parallel iteration cuts the tree: the blank's cells from the root, the node's estimate and its
/// move-pruning state.
struct Split {
    cells: Vec<u8>,
    h: u32,
    s: u16,
}

impl<E: Eval> Ida<'_, '_, E> {
    /// Collects, in search order, the nodes at depth `cut` within the threshold (the same pruning as
    /// [`Ida::dfs`], without pathmax raising parents). Returns true when a goal lies above the cut (its moves are
    /// then in `self.path`).
    fn frontier(
        &mut self,
        depth: u32,
        s: u16,
        h: u32,
        cut: u32,
        cells: &mut Vec<u8>,
        out: &mut Vec<Split>,
    ) -> bool {
        if self.eval.h() == 0 {
            return true;
        }
        if depth == cut {
            out.push(Split {
                cells: cells.clone(),
                h,
                s,
            });
            return false;
        }
        let b = self.blank;
        let deg = (self.degree[b as usize & 63] as usize).min(4);
        let nbrs = self.neighbors[b as usize & 63];
        let dirs = self.dirs[b as usize & 63];
        for (&c, &d) in nbrs[..deg].iter().zip(&dirs) {
            let sc = self.fsm.step(s, d);
            if sc == DEAD {
                continue;
            }
            let t = self.tiles[c as usize & 63];
            let (mut hc, probe) = self.eval.probe(t, c, b, self.bound - depth - 1);
            self.nodes += 1;
            if E::INCONSISTENT {
                hc = hc.max(h.saturating_sub(1));
            }
            let fc = self.f(depth + 1, hc);
            if fc > self.bound {
                self.next_bound = self.next_bound.min(fc);
                continue;
            }
            let undo = self.apply(t, c, b, probe);
            cells.push(c);
            if self.frontier(depth + 1, sc, hc, cut, cells, out) {
                return true;
            }
            cells.pop();
            self.undo(t, c, b, undo);
        }
        false
    }
}

impl<E: Eval> Ida<'_, '_, E> {
    /// Cuts the current threshold's tree at the first depth with at least `want` nodes within the threshold (or at
    /// the threshold's depth): the depth and the nodes there, in search order; or the path of a goal above the
    /// cut. `next_bound` then holds the least `f` over the threshold among the nodes pruned above the cut.
    fn cut(&mut self, want: usize) -> Result<(u32, Vec<Split>), Vec<u8>> {
        let h0 = self.eval.h();
        let mut out = Vec::new();
        let mut cells = Vec::new();
        let mut cut = 1;
        loop {
            out.clear();
            self.next_bound = u32::MAX;
            let s0 = self.fsm.start();
            if self.frontier(0, s0, h0, cut, &mut cells, &mut out) {
                return Err(std::mem::take(&mut self.path));
            }
            if out.len() >= want || cut >= self.bound {
                return Ok((cut, out));
            }
            cut += 1;
        }
    }
}

/// One threshold of [`ida_star_parallel`]: cuts the tree at the first depth with at least `want` nodes (or at the
/// threshold's depth), then searches the subtrees below the cut on the rayon pool.
fn parallel_iteration<E: Eval + Clone + Send + Sync>(
    ida: &mut Ida<'_, '_, E>,
    want: usize,
) -> Option<Vec<u8>> {
    if ida.stopped {
        return None;
    }
    ida.nodes += 1;
    let (cut, out) = match ida.cut(want) {
        Ok(cut) => cut,
        Err(path) => return Some(path),
    };
    let shared = Shared {
        found: AtomicBool::new(false),
        limited: AtomicBool::new(false),
        nodes: AtomicU64::new(ida.nodes),
    };
    let template = &*ida;
    let results: Vec<(Option<Vec<u8>>, u32, u64, bool)> = out
        .par_iter()
        .map(|sp| {
            let limits = template.check.limits();
            let done = shared.nodes.load(Relaxed);
            if limits.max_nodes.is_some_and(|m| done >= m) {
                shared.limited.store(true, Relaxed);
            }
            if shared.found.load(Relaxed) || shared.limited.load(Relaxed) {
                // Skipped: the iteration is over, and says so through the flags.
                return (None, u32::MAX, 0, false);
            }
            // The first look no later than the node limit as the workers last reported it.
            let left = limits
                .max_nodes
                .map_or(u64::MAX, |m| m.saturating_sub(done));
            let mut w = Ida {
                eval: template.eval.clone(),
                neighbors: template.neighbors,
                dirs: template.dirs,
                degree: template.degree,
                fsm: template.fsm,
                tiles: template.tiles,
                blank: template.blank,
                path: Vec::with_capacity(256),
                nodes: 0,
                bound: template.bound,
                next_bound: u32::MAX,
                weight_num: template.weight_num,
                weight_den: template.weight_den,
                check: LimitCheck::first_at(limits, WORKER_CHECK_EVERY.min(left)),
                stopped: false,
                shared: Some(&shared),
                reported: 0,
            };
            for &c in &sp.cells {
                let b = w.blank;
                let t = w.tiles[c as usize & 63];
                let (_, probe) = w.eval.probe(t, c, b, u32::MAX);
                w.apply(t, c, b, probe);
            }
            let found = w.search_below(cut, sp.s, sp.h);
            if found {
                shared.found.store(true, Relaxed);
            }
            w.report(&shared);
            (found.then_some(w.path), w.next_bound, w.nodes, w.stopped)
        })
        .collect();
    let mut solution = None;
    for (path, next, nodes, _) in results {
        ida.nodes += nodes;
        ida.next_bound = ida.next_bound.min(next);
        if solution.is_none() {
            solution = path;
        }
    }
    // A limit counts only when no worker found a solution (an optimal one, whatever the others were doing).
    if solution.is_none() && shared.limited.load(Relaxed) {
        ida.stopped = true;
    }
    solution
}

/// One IDA* threshold cut into subtrees, for a search spread over processes or machines ([`split_threshold`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frontier {
    /// The threshold (the start's estimate when none was asked for).
    pub bound: u32,
    /// The start's heuristic estimate.
    pub estimate: u32,
    /// The roots of the subtrees, in search order, each as the blank's cells from the start: search each with
    /// [`search_subtree`] at `bound`.
    pub subtrees: Vec<Vec<u8>>,
    /// A goal within the threshold above the cut: its moves (canonical tiles). `subtrees` is then empty.
    pub solution: Option<Vec<u8>>,
    /// The least `f` over the threshold among the nodes pruned above the cut (`u32::MAX` when none was): the next
    /// threshold is the least of this and the subtrees' [`Subtree::Exhausted`] values.
    pub next_bound: u32,
    /// Nodes generated while cutting.
    pub nodes: u64,
}

/// What the search of one subtree at a threshold found ([`search_subtree`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subtree {
    /// A goal within the threshold: the moves from the start (canonical tiles), the root's prefix included.
    Solved {
        /// The tiles moved, from the start.
        moves: Vec<u8>,
        /// Nodes generated.
        nodes: u64,
    },
    /// No goal within the threshold; the least `f` over it among the pruned nodes (`u32::MAX` when none was).
    Exhausted {
        /// The subtree's candidate for the next threshold.
        next_bound: u32,
        /// Nodes generated.
        nodes: u64,
    },
    /// A limit stopped the search of the subtree.
    Stopped {
        /// Nodes generated.
        nodes: u64,
    },
}

/// Cuts one IDA* threshold of the search from `pos` into at least `want` subtrees when the tree has that many
/// nodes within the threshold, exactly as [`ida_star_parallel`] cuts each threshold for its threads (the first depth
/// with enough nodes, or the threshold's depth), so that other processes can search them with [`search_subtree`].
/// `bound` is the threshold (`None`: the start's estimate, IDA*'s first). A driver runs thresholds in increasing
/// order, each to the end, and stops at the first with a solution: the solution is then optimal, as with
/// [`ida_star`].
pub fn split_threshold<E: Eval>(
    g: &Geometry,
    eval: E,
    pos: &[u8],
    bound: Option<u32>,
    want: usize,
    pruner: &MovePruner,
) -> Frontier {
    let limits = Limits::default();
    let mut ida = setup(g, eval, pos, &limits, (1, 1), pruner);
    let estimate = ida.eval.h();
    ida.bound = bound.unwrap_or(estimate).max(estimate);
    ida.nodes = 1;
    let (subtrees, solution) = if estimate == 0 {
        (vec![], Some(vec![]))
    } else {
        match ida.cut(want.max(1)) {
            Ok((_, out)) => (out.into_iter().map(|sp| sp.cells).collect(), None),
            Err(path) => (vec![], Some(path)),
        }
    };
    Frontier {
        bound: ida.bound,
        estimate,
        subtrees,
        solution,
        next_bound: ida.next_bound,
        nodes: ida.nodes,
    }
}

/// Searches the subtree below `root` (the blank's cells from `pos`, as [`Frontier::subtrees`] gives them) with
/// threshold `bound`, within `limits`. `None` when `root` is not a walk of the blank (a cell not next to it).
pub fn search_subtree<E: Eval>(
    g: &Geometry,
    eval: E,
    pos: &[u8],
    bound: u32,
    root: &[u8],
    limits: &Limits<'_>,
    pruner: &MovePruner,
) -> Option<Subtree> {
    let mut ida = setup(g, eval, pos, limits, (1, 1), pruner);
    ida.bound = bound;
    ida.next_bound = u32::MAX;
    let mut h = ida.eval.h();
    let mut s = ida.fsm.start();
    for (depth, &c) in root.iter().enumerate() {
        let b = ida.blank;
        let k = (0..ida.degree[b as usize & 63] as usize)
            .find(|&k| ida.neighbors[b as usize & 63][k] == c)?;
        // The automaton rejects the move back as well as the redundant sequences.
        s = ida.fsm.step(s, ida.dirs[b as usize & 63][k]);
        let t = ida.tiles[c as usize & 63];
        ida.tiles[b as usize & 63] = t;
        ida.tiles[c as usize & 63] = 0;
        ida.blank = c;
        ida.eval.push(t, c, b, u32::MAX);
        ida.path.push(t);
        ida.nodes += 1;
        h = if E::INCONSISTENT {
            ida.eval.h().max(h.saturating_sub(1))
        } else {
            ida.eval.h()
        };
        if s == DEAD {
            // A redundant walk: its nodes are searched under another root.
            return Some(Subtree::Exhausted {
                next_bound: u32::MAX,
                nodes: ida.nodes,
            });
        }
        let f = ida.f(depth as u32 + 1, h);
        if f > bound {
            return Some(Subtree::Exhausted {
                next_bound: f,
                nodes: ida.nodes,
            });
        }
    }
    ida.check_limits();
    let found = !ida.stopped && ida.search_below(root.len() as u32, s, h);
    Some(if found {
        Subtree::Solved {
            moves: std::mem::take(&mut ida.path),
            nodes: ida.nodes,
        }
    } else if ida.stopped {
        Subtree::Stopped { nodes: ida.nodes }
    } else {
        Subtree::Exhausted {
            next_bound: ida.next_bound,
            nodes: ida.nodes,
        }
    })
}
