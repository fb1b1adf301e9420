//! What a solve is asked to do: [`SolveOptions`], [`Method`], [`HeuristicChoice`], the [`Plan`] chosen, and their
//! limits and constants.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::metric::Metric;
use crate::search::partition::PartitionSpec;
use crate::search::Limits;

#[cfg(doc)]
use super::{Solution, Solver};

/// Which method answers, as asked for ([`Solver::plan`] turns it into a [`Plan`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Complete tables up to 12 cells, IDA* up to [`FAST_DEFAULT_CELLS`], fast mode above.
    #[default]
    Auto,
    /// Complete tables only.
    Table,
    /// IDA* even where a table exists.
    Search,
    /// Fast mode: a valid solution at once, not proven least (above 9 cells).
    Fast,
}

/// Boards of more cells than this are answered in fast mode by [`Method::Auto`] unless a search option (a weight,
/// a heuristic) is given: optimal search beyond 5 × 5 is out of reach.
pub const FAST_DEFAULT_CELLS: usize = 25;

/// The method that answers a board, as [`Solver::plan`] chose it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// A single row or column: the blank walks straight home.
    Line,
    /// The complete distance table (exact).
    Table,
    /// IDA* with this heuristic (exact unless weighted or stopped by a limit).
    Search(HeuristicChoice),
    /// Fast mode (valid; exact only up to 9 cells).
    Fast,
    /// IDA* over multi-tile pushes with the MTM label tables (exact unless stopped by a limit).
    MtmSearch,
    /// The complete table of a partial goal's abstract states (exact; [`Solver::plan_pattern`]).
    Partial,
}

impl Plan {
    /// A short name: `line`, `table`, `search`, `fast` or `partial`.
    pub fn name(&self) -> &'static str {
        match self {
            Plan::Line => "line",
            Plan::Table => "table",
            Plan::Search(_) | Plan::MtmSearch => "search",
            Plan::Fast => "fast",
            Plan::Partial => "partial",
        }
    }
}

/// Which heuristic IDA* uses.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum HeuristicChoice {
    /// Pattern databases (the shape's default partition) above 9 cells, linear conflicts below.
    #[default]
    Auto,
    /// Manhattan distance.
    Manhattan,
    /// Manhattan distance plus linear conflicts.
    LinearConflict,
    /// Additive pattern databases of a partition.
    Pdb(PartitionSpec),
}

/// Options of [`Solver::solve_with`].
#[derive(Debug, Clone)]
pub struct SolveOptions {
    /// How moves are counted: the answer is least in this metric ([`Metric::Mtm`]: boards of at most 12 cells and
    /// lines, see [`Solver::plan`]).
    pub metric: Metric,
    /// Which method answers.
    pub method: Method,
    /// Which heuristic IDA* uses.
    pub heuristic: HeuristicChoice,
    /// Also look pattern databases up on the board reflected about the main diagonal (square boards).
    pub reflect: bool,
    /// With the reflection, also take the mixed sums: sets of disjoint patterns drawn from both lookups
    /// ([`PdbEval::with_mixed_sums`](crate::engine::heuristic::PdbEval::with_mixed_sums)). `None` (the default)
    /// keeps them on boards of at least [`MIXED_SUMS_FROM_CELLS`] cells, where they were measured to pay.
    pub mixed_sums: Option<bool>,
    /// Stop after this many search nodes: the answer's `nodes` passes it by at most 4 on one thread, by at most
    /// about [`WORKER_CHECK_EVERY`](crate::engine::ida::WORKER_CHECK_EVERY) per thread in a parallel search
    /// ([`Limits::max_nodes`](crate::engine::ida::Limits::max_nodes)).
    pub max_nodes: Option<u64>,
    /// Stop after this long. A duration too long for the clock (such as `Duration::MAX`) is no limit.
    pub timeout: Option<Duration>,
    /// Stop when this flag is set.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Bounded-suboptimal search: a solution at most this many times the least number of moves. From 1 to
    /// [`MAX_WEIGHT`]; anything else (NaN, infinite, below 1, above the cap) is [`Error::InvalidOption`].
    pub weight: Option<f64>,
    /// IDA* only: give up before searching past this many moves. A board whose optimum is larger gets an answer
    /// with no moves, not optimal, and a proven `lower_bound` above it (the question "is the optimum at most
    /// this?", answered for the price of the iterations up to it). Tables ignore it.
    pub max_depth: Option<u64>,
    /// Share one optimal search among the threads of the current rayon pool ([`crate::search::ida_star_parallel`]):
    /// the same length, found sooner on several cores. Ignored by bounded-suboptimal search.
    pub parallel: bool,
    /// Reject redundant move sequences beyond immediate backtracks ([`crate::search::pruning`]); off only to measure
    /// what it saves.
    pub move_pruning: bool,
    /// Load or build the tables and pattern databases a board needs (the default). Off, as in a server that must
    /// answer at once, whatever is not in memory yet is done without: see [`Solver::plan`].
    pub wait_for_builds: bool,
    /// When the limits stop the search before it finds a solution, still answer with one, marked: the optimal
    /// search gets a quarter of the budget, then weighted IDA* with the weights of [`FALLBACK_WEIGHTS`] from the
    /// largest down (each with all that is left; the shortest solution found answers, with [`Solution::within`] the
    /// bound it proves; the first weight that does not finish ends the search), and when none finishes, fast mode
    /// ([`Plan::Fast`]). The answer keeps the optimal search's proven
    /// [`Solution::lower_bound`]. Off by default (a stopped search answers without moves).
    pub fallback: bool,
}

impl SolveOptions {
    /// The search limits of these options, the clock starting now (a time limit too long for the clock is none).
    pub(crate) fn limits(&self) -> Limits<'_> {
        Limits {
            max_nodes: self.max_nodes,
            deadline: self.timeout.and_then(|t| Instant::now().checked_add(t)),
            cancel: self.cancel.as_deref(),
            max_depth: self.max_depth.map(|d| u32::try_from(d).unwrap_or(u32::MAX)),
        }
    }
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            metric: Metric::Stm,
            method: Method::Auto,
            heuristic: HeuristicChoice::Auto,
            reflect: true,
            mixed_sums: None,
            max_nodes: None,
            timeout: None,
            cancel: None,
            weight: None,
            max_depth: None,
            parallel: false,
            move_pruning: true,
            wait_for_builds: true,
            fallback: false,
        }
    }
}

/// Boards of at least this many cells take the mixed sums by default ([`SolveOptions::mixed_sums`]): on the
/// 24-puzzle they cut the nodes to 0.82 times and the time to 0.92 times (issue 16's six instances, zbdefault
/// sparse); on the 15-puzzle's default (zb6-6-3, two mixed sets) 0.99 times the nodes cost 1.1 times the time.
pub const MIXED_SUMS_FROM_CELLS: usize = 25;

/// Alternative partitions ([`PartitionSpec::Either`]): the trial of the first iterations stops before a round in
/// which the alternative that prunes best would take more than about four times this many nodes (its nodes times
/// their growth from the round before; a fraction of a second on the 24-puzzle). On
/// 21 of Korf & Felner's instances the ratio of two layouts' nodes at depths where they take 0.1 M nodes picked the
/// same layout as at two moves below the optimum on all but those within 15 % of each other (docs/korf24.md).
pub const TRIAL_NODES: u64 = 1 << 20;

/// The weights [`SolveOptions::fallback`] tries, from the last (largest) to the first, after the optimal search
/// stops.
pub const FALLBACK_WEIGHTS: [f64; 6] = [1.1, 1.25, 1.5, 2.0, 3.0, 5.0];

/// Largest weight of bounded-suboptimal search ([`SolveOptions::weight`]). Weighted IDA* may go as deep as
/// `weight` times the optimum before it finds a solution, so larger weights only make longer solutions.
pub const MAX_WEIGHT: f64 = 100.0;

/// A weight in `1 ..= MAX_WEIGHT` as the fraction `num / 1000`, rounded down so that the search's weight is never
/// more than `w` (the bound then holds for `w`); anything else is an [`Error::InvalidOption`].
pub(super) fn weight_fraction(w: f64) -> Result<(u32, u32)> {
    if !(w.is_finite() && (1.0..=MAX_WEIGHT).contains(&w)) {
        return Err(Error::InvalidOption {
            option: "weight".into(),
            reason: format!("{w} is not a number from 1 to {MAX_WEIGHT}"),
        });
    }
    // At most 100 000: no overflow, and `h * num` stays far below u32::MAX for any estimate of a 64-cell board.
    Ok(((w * 1000.0).floor() as u32, 1000))
}
