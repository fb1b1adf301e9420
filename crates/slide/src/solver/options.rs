//! What a solve is asked to do: [`SolveOptions`], [`Method`], [`HeuristicChoice`], the [`Plan`] chosen, and their
//! limits and constants.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::{Error, OptionError, Result, SolveError};
use crate::metric::Metric;
use crate::search::partition::PartitionSpec;
use crate::search::Limits;

#[cfg(doc)]
use super::{Solution, Solver, SolverBuilder};

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

impl Method {
    /// The names [`Method`]'s `FromStr` reads, in the order of the variants.
    pub const NAMES: [&'static str; 4] = ["auto", "table", "search", "fast"];
}

/// An enumerated option's value that is not one of its names, as every face says it: the value as written (at most
/// 20 characters) and the accepted names (`expected`).
fn unknown(option: &str, text: &str, expected: &str) -> Error {
    let mut shown: String = text.chars().take(20).collect();
    if text.chars().nth(20).is_some() {
        shown.push('…');
    }
    Error::Solve(SolveError::InvalidOption {
        option: option.into(),
        reason: format!("unknown {option} {shown:?}: expected {expected}"),
    })
}

impl std::str::FromStr for Method {
    type Err = Error;
    /// Reads `auto`, `table`, `search` or `fast`, ignoring case and surrounding white space; anything else is
    /// [`SolveError::InvalidOption`] (`method`), the sentence every face gives.
    ///
    /// ```
    /// use slide::Method;
    /// assert_eq!("Search".parse::<Method>().unwrap(), Method::Search);
    /// assert_eq!(
    ///     "magic".parse::<Method>().unwrap_err().to_string(),
    ///     "method: unknown method \"magic\": expected auto, table, search or fast"
    /// );
    /// ```
    fn from_str(text: &str) -> Result<Method> {
        let t = text.trim();
        [Method::Auto, Method::Table, Method::Search, Method::Fast]
            .into_iter()
            .zip(Method::NAMES)
            .find(|(_, n)| n.eq_ignore_ascii_case(t))
            .map(|(m, _)| m)
            .ok_or_else(|| unknown("method", t, "auto, table, search or fast"))
    }
}

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

impl std::str::FromStr for HeuristicChoice {
    type Err = Error;
    /// Reads `auto`, `md` (or `manhattan`), `lc` (or `linear-conflict`) or `pdb` (the shape's default partition;
    /// other partitions are [`PartitionSpec`]'s to read), ignoring case and surrounding white space; anything else
    /// is [`SolveError::InvalidOption`] (`heuristic`), the sentence every face gives.
    ///
    /// ```
    /// use slide::HeuristicChoice;
    /// assert_eq!("manhattan".parse::<HeuristicChoice>().unwrap(), HeuristicChoice::Manhattan);
    /// assert_eq!(
    ///     "ucb".parse::<HeuristicChoice>().unwrap_err().to_string(),
    ///     "heuristic: unknown heuristic \"ucb\": expected auto, md (manhattan), lc (linear-conflict) or pdb"
    /// );
    /// ```
    fn from_str(text: &str) -> Result<HeuristicChoice> {
        let t = text.trim().to_ascii_lowercase();
        Ok(match t.as_str() {
            "auto" => HeuristicChoice::Auto,
            "md" | "manhattan" => HeuristicChoice::Manhattan,
            "lc" | "linear-conflict" | "linear_conflict" => HeuristicChoice::LinearConflict,
            "pdb" => HeuristicChoice::Pdb(PartitionSpec::Default),
            _ => {
                return Err(unknown(
                    "heuristic",
                    text.trim(),
                    "auto, md (manhattan), lc (linear-conflict) or pdb",
                ))
            }
        })
    }
}

/// Options of [`Solver::solve_with`].
///
/// Build them with [`SolveOptions::builder`], which checks each value against its range (docs/limits.md) and
/// reports a bad one as an [`OptionError`]; the command line, the server and Python all build them that way, so the
/// same bad value gets the same message through each. The fields stay readable (and settable, for tests and
/// tools that know their values are in range).
///
/// ```
/// use slide::{Metric, SolveOptions};
/// let opts = SolveOptions::builder().metric(Metric::Stm).timeout_secs(2.5)?.weight(1.5)?.max_nodes(1000).build();
/// assert_eq!((opts.weight, opts.max_nodes), (Some(1.5), Some(1000)));
/// assert_eq!(
///     SolveOptions::builder().weight(0.5).unwrap_err().to_string(),
///     "weight: 0.5 is not a number from 1 to 100"
/// );
/// # Ok::<(), slide::OptionError>(())
/// ```
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
    /// [`MAX_WEIGHT`]; anything else (NaN, infinite, below 1, above the cap) is
    /// [`SolveError::InvalidOption`](crate::SolveError::InvalidOption).
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
            watch: None,
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
/// more than `w` (the bound then holds for `w`); anything else is an
/// [`SolveError::InvalidOption`](crate::SolveError::InvalidOption).
pub(super) fn weight_fraction(w: f64) -> Result<(u32, u32)> {
    let w = SolveOptions::check_weight(w)?;
    // At most 100 000: no overflow, and `h * num` stays far below u32::MAX for any estimate of a 64-cell board.
    Ok(((w * 1000.0).floor() as u32, 1000))
}

/// A number as a message shows it: whole numbers without a fraction, very large and very small ones with an
/// exponent (`1e30`, `1e-300`), `NaN` and `inf` as such.
fn shown(x: f64) -> String {
    let a = x.abs();
    if x.is_finite() && a != 0.0 && !(1e-5..1e16).contains(&a) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

impl SolveOptions {
    /// Longest time limit, in seconds (about 31.7 years; leave the limit out for none).
    pub const MAX_TIMEOUT_SECS: f64 = 1e9;

    /// A builder of options, starting from the defaults; each setter of a value with a range checks it.
    pub fn builder() -> SolveOptionsBuilder {
        SolveOptionsBuilder {
            opts: SolveOptions::default(),
        }
    }

    /// A time limit in seconds: more than 0 and at most [`SolveOptions::MAX_TIMEOUT_SECS`]; values too small to
    /// measure (such as `1e-300`) stop each search at once. 0, negative numbers, NaN, infinities and longer limits
    /// are an [`OptionError`] (`timeout`).
    ///
    /// ```
    /// use slide::SolveOptions;
    /// assert_eq!(SolveOptions::check_timeout_secs(0.5).unwrap().as_millis(), 500);
    /// assert_eq!(
    ///     SolveOptions::check_timeout_secs(1e13).unwrap_err().reason(),
    ///     "10000000000000 seconds is too long: at most 1000000000 (leave the limit out for none)"
    /// );
    /// ```
    pub fn check_timeout_secs(secs: f64) -> std::result::Result<Duration, OptionError> {
        let max = Self::MAX_TIMEOUT_SECS;
        let bad = |reason: String| OptionError {
            option: "timeout",
            reason,
        };
        if secs.is_nan() || secs <= 0.0 {
            return Err(bad(format!(
                "{} is not a positive number of seconds (more than 0, at most {max})",
                shown(secs)
            )));
        }
        if secs > max {
            return Err(bad(format!(
                "{} seconds is too long: at most {max} (leave the limit out for none)",
                shown(secs)
            )));
        }
        Duration::try_from_secs_f64(secs).map_err(|e| bad(format!("{}: {e}", shown(secs))))
    }

    /// A node limit given as any whole number (as a face reads it): 0 to `u64::MAX` (0 stops each search before its
    /// first threshold). Anything else is an [`OptionError`] (`max_nodes`).
    ///
    /// ```
    /// use slide::SolveOptions;
    /// assert_eq!(SolveOptions::check_max_nodes(0), Ok(0));
    /// assert_eq!(
    ///     SolveOptions::check_max_nodes(-1).unwrap_err().reason(),
    ///     "-1 is not a whole number from 0 to 18446744073709551615"
    /// );
    /// ```
    pub fn check_max_nodes(n: i128) -> std::result::Result<u64, OptionError> {
        u64::try_from(n).map_err(|_| OptionError {
            option: "max_nodes",
            reason: format!("{n} is not a whole number from 0 to {}", u64::MAX),
        })
    }

    /// Most threads a face starts for one call ([`SolveOptions::check_threads`]): a pool this large starts in well
    /// under a second, and each thread takes memory.
    pub const MAX_THREADS: usize = 256;

    /// A number of threads given as any whole number (as a face reads it): 0 (all cores) to
    /// [`SolveOptions::MAX_THREADS`]. Anything else is an [`OptionError`] (`threads`).
    ///
    /// ```
    /// use slide::SolveOptions;
    /// assert_eq!(SolveOptions::check_threads(0), Ok(0));
    /// assert_eq!(
    ///     SolveOptions::check_threads(257).unwrap_err().reason(),
    ///     "257 is not a whole number from 0 to 256"
    /// );
    /// ```
    pub fn check_threads(n: i128) -> std::result::Result<usize, OptionError> {
        usize::try_from(n)
            .ok()
            .filter(|&t| t <= Self::MAX_THREADS)
            .ok_or_else(|| OptionError {
                option: "threads",
                reason: format!("{n} is not a whole number from 0 to {}", Self::MAX_THREADS),
            })
    }

    /// A memory budget for table and pattern-database builds in MB (10^6 bytes), given as any whole number (as a
    /// face reads it: `slide --max-memory`, Python's `max_memory=`): 0 (every build refused) to `u64::MAX`. The
    /// budget in bytes (capped at the largest `u64`), as [`SolverBuilder::max_memory`] takes it; anything else is
    /// an [`OptionError`] (`max_memory`).
    ///
    /// ```
    /// use slide::SolveOptions;
    /// assert_eq!(SolveOptions::check_max_memory_mb(100), Ok(100_000_000));
    /// assert_eq!(
    ///     SolveOptions::check_max_memory_mb(-1).unwrap_err().reason(),
    ///     "-1 is not a whole number of MB from 0 to 18446744073709551615"
    /// );
    /// ```
    pub fn check_max_memory_mb(mb: i128) -> std::result::Result<u64, OptionError> {
        u64::try_from(mb)
            .map(|m| m.saturating_mul(1_000_000))
            .map_err(|_| OptionError {
                option: "max_memory",
                reason: format!("{mb} is not a whole number of MB from 0 to {}", u64::MAX),
            })
    }

    /// A weight of bounded-suboptimal search: from 1 to [`MAX_WEIGHT`] (1 is an optimal search). NaN, infinities,
    /// weights below 1 and above the cap are an [`OptionError`] (`weight`).
    pub fn check_weight(w: f64) -> std::result::Result<f64, OptionError> {
        if !(w.is_finite() && (1.0..=MAX_WEIGHT).contains(&w)) {
            return Err(OptionError {
                option: "weight",
                reason: format!("{} is not a number from 1 to {MAX_WEIGHT}", shown(w)),
            });
        }
        Ok(w)
    }
}

/// Builds [`SolveOptions`], checking each value once, here (see [`SolveOptions::builder`]). The setters of values
/// with a range return an [`OptionError`] for a value outside it; the others cannot fail.
#[derive(Debug, Clone)]
#[must_use]
pub struct SolveOptionsBuilder {
    opts: SolveOptions,
}

impl SolveOptionsBuilder {
    /// The options built.
    pub fn build(self) -> SolveOptions {
        self.opts
    }

    /// How moves are counted ([`SolveOptions::metric`]).
    pub fn metric(mut self, metric: Metric) -> Self {
        self.opts.metric = metric;
        self
    }

    /// Which method answers ([`SolveOptions::method`]).
    pub fn method(mut self, method: Method) -> Self {
        self.opts.method = method;
        self
    }

    /// Which heuristic IDA* uses ([`SolveOptions::heuristic`]).
    pub fn heuristic(mut self, heuristic: HeuristicChoice) -> Self {
        self.opts.heuristic = heuristic;
        self
    }

    /// The reflected lookup of pattern databases ([`SolveOptions::reflect`]).
    pub fn reflect(mut self, on: bool) -> Self {
        self.opts.reflect = on;
        self
    }

    /// The mixed sums ([`SolveOptions::mixed_sums`]; `None`: by the board's size).
    pub fn mixed_sums(mut self, on: Option<bool>) -> Self {
        self.opts.mixed_sums = on;
        self
    }

    /// Stop after this many search nodes ([`SolveOptions::max_nodes`]; any `u64`, see
    /// [`SolveOptions::check_max_nodes`] for numbers read as signed).
    pub fn max_nodes(mut self, n: u64) -> Self {
        self.opts.max_nodes = Some(n);
        self
    }

    /// Stop after this many seconds ([`SolveOptions::check_timeout_secs`] says which are accepted).
    pub fn timeout_secs(mut self, secs: f64) -> std::result::Result<Self, OptionError> {
        self.opts.timeout = Some(SolveOptions::check_timeout_secs(secs)?);
        Ok(self)
    }

    /// Stop after this long: the range of [`SolveOptions::check_timeout_secs`].
    pub fn timeout(self, limit: Duration) -> std::result::Result<Self, OptionError> {
        self.timeout_secs(limit.as_secs_f64())
    }

    /// Stop when this flag is set ([`SolveOptions::cancel`]).
    pub fn cancel(mut self, flag: Arc<AtomicBool>) -> Self {
        self.opts.cancel = Some(flag);
        self
    }

    /// Bounded-suboptimal search within this weight ([`SolveOptions::check_weight`] says which are accepted).
    pub fn weight(mut self, w: f64) -> std::result::Result<Self, OptionError> {
        self.opts.weight = Some(SolveOptions::check_weight(w)?);
        Ok(self)
    }

    /// Give up before searching past this many moves ([`SolveOptions::max_depth`]; any `u64`).
    pub fn max_depth(mut self, moves: u64) -> Self {
        self.opts.max_depth = Some(moves);
        self
    }

    /// Share one optimal search among the pool's threads ([`SolveOptions::parallel`]).
    pub fn parallel(mut self, on: bool) -> Self {
        self.opts.parallel = on;
        self
    }

    /// Move pruning ([`SolveOptions::move_pruning`]).
    pub fn move_pruning(mut self, on: bool) -> Self {
        self.opts.move_pruning = on;
        self
    }

    /// Wait for the builds a board needs ([`SolveOptions::wait_for_builds`]).
    pub fn wait_for_builds(mut self, on: bool) -> Self {
        self.opts.wait_for_builds = on;
        self
    }

    /// Answer with a marked solution when the limits stop the search ([`SolveOptions::fallback`]).
    pub fn fallback(mut self, on: bool) -> Self {
        self.opts.fallback = on;
        self
    }
}
