//! The limits of a search (nodes, time, a stop flag) and the one check of them that both IDA* searches make: the
//! single-tile one ([`crate::search::ida`]) and the multi-tile one ([`crate::search::mtm`]).
//!
//! The hot loop's whole cost is one comparison per node ([`LimitCheck::due`]); the limits themselves are looked at
//! every [`CHECK_EVERY`] nodes (or as often as the search asks), and never later than the node limit, so that a
//! search stops at the first node at or past it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use crate::progress::Progress;

/// When to give up.
#[derive(Debug, Clone, Default)]
pub struct Limits<'a> {
    /// Stop after generating this many nodes. A search on one thread stops within one node's children past it
    /// (at most 4 nodes more); a parallel one ([`ida_star_parallel`](crate::search::ida_star_parallel)) within
    /// about [`WORKER_CHECK_EVERY`](crate::search::WORKER_CHECK_EVERY) nodes per thread past it, and searches what
    /// is left of a limit too small to share on one thread.
    pub max_nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop when this flag is set (for example by Ctrl-C).
    pub cancel: Option<&'a AtomicBool>,
    /// Stop before an iteration whose threshold passes this many moves: the answer is then
    /// [`Outcome::Stopped`](crate::search::ida::Outcome::Stopped) with a proven lower bound above it (unweighted
    /// search). Asks "is the optimum at most this?" for the price of the iterations up to it.
    pub max_depth: Option<u32>,
    /// Where the search reports its progress ([`Progress::search`]): each iteration's start, its node count about
    /// every [`SearchWatch::EVERY`] during a long one (from the thread that looks at the limits, when it looks),
    /// and its final count.
    pub watch: Option<&'a SearchWatch<'a>>,
}

/// A search's progress reports to a [`Progress`], paced: the hot loop counts its nodes as it always does, and the
/// thread that looks at the limits (every 16384 nodes on one thread) passes the count on at most every
/// [`SearchWatch::EVERY`].
pub struct SearchWatch<'a> {
    sink: &'a dyn Progress,
    start: Instant,
    /// Nanoseconds after `start` before which no paced report is made.
    next: AtomicU64,
}

impl std::fmt::Debug for SearchWatch<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchWatch").finish_non_exhaustive()
    }
}

impl<'a> SearchWatch<'a> {
    /// How often, at most, a long iteration reports its node count.
    pub const EVERY: Duration = Duration::from_millis(250);

    /// Reports of a search to `sink`.
    pub fn new(sink: &'a dyn Progress) -> SearchWatch<'a> {
        SearchWatch {
            sink,
            start: Instant::now(),
            next: AtomicU64::new(0),
        }
    }

    fn now_nanos(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    /// Reports at once (an iteration starts, the search ends), and starts the pace again.
    pub(crate) fn report(&self, threshold: u32, nodes: u64) {
        let every = Self::EVERY.as_nanos() as u64;
        self.next
            .store(self.now_nanos().saturating_add(every), Relaxed);
        self.sink.search(threshold, nodes);
    }

    /// Reports when [`SearchWatch::EVERY`] has passed since the last report (one of the threads that find it so).
    pub(crate) fn tick(&self, threshold: u32, nodes: u64) {
        let now = self.now_nanos();
        let next = self.next.load(Relaxed);
        let every = Self::EVERY.as_nanos() as u64;
        if now >= next
            && self
                .next
                .compare_exchange(next, now.saturating_add(every), Relaxed, Relaxed)
                .is_ok()
        {
            self.sink.search(threshold, nodes);
        }
    }
}

impl Limits<'_> {
    /// Whether an iteration with this threshold would search past [`Limits::max_depth`]: both IDA* searches ask
    /// before each iteration, and stop with a proven lower bound when it would.
    pub(crate) fn past_depth(&self, bound: u32) -> bool {
        self.max_depth.is_some_and(|m| bound > m)
    }
}

/// How often (in nodes) a search looks at its limits.
pub(crate) const CHECK_EVERY: u64 = 1 << 14;

/// A search's limits and the node count at which it next looks at them.
#[derive(Debug, Clone)]
pub(crate) struct LimitCheck<'a, 'l> {
    limits: &'a Limits<'l>,
    /// The node count of the next look.
    next: u64,
}

impl<'a, 'l> LimitCheck<'a, 'l> {
    /// The check of `limits` for a search from its first node: the first look after [`CHECK_EVERY`] nodes, or at
    /// the node limit if that comes first.
    pub(crate) fn new(limits: &'a Limits<'l>) -> LimitCheck<'a, 'l> {
        LimitCheck::first_at(
            limits,
            CHECK_EVERY.min(limits.max_nodes.unwrap_or(u64::MAX)),
        )
    }

    /// The check of `limits` whose first look comes at `next` nodes.
    pub(crate) fn first_at(limits: &'a Limits<'l>, next: u64) -> LimitCheck<'a, 'l> {
        LimitCheck { limits, next }
    }

    /// The limits checked.
    pub(crate) fn limits(&self) -> &'a Limits<'l> {
        self.limits
    }

    /// Whether a search that has counted `nodes` is due to look at its limits ([`LimitCheck::reached`]): the
    /// hot loop's one test.
    #[inline(always)]
    pub(crate) fn due(&self, nodes: u64) -> bool {
        nodes >= self.next
    }

    /// Looks at the limits, for a search that has counted `nodes` itself and `all` with every search that shares
    /// its node limit (the workers of a parallel search; else `all` is `nodes`), and schedules the next look
    /// `every` nodes on, no later than the node limit: a search stops within one node's children of it. Whether a
    /// limit (nodes, time, the stop flag) is reached.
    #[inline]
    pub(crate) fn reached(&mut self, nodes: u64, all: u64, every: u64) -> bool {
        let l = self.limits;
        let left = l.max_nodes.map_or(u64::MAX, |m| m.saturating_sub(all));
        self.next = nodes + every.min(left.max(1));
        l.max_nodes.is_some_and(|m| all >= m)
            || l.deadline.is_some_and(|d| Instant::now() >= d)
            || l.cancel.is_some_and(|c| c.load(Relaxed))
    }
}
