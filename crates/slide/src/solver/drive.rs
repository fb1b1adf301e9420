//! The search drivers: IDA* with the chosen heuristic, the fallback to weighted search and fast mode, the trial
//! among alternative partitions, and the MTM search.

use std::borrow::Cow;
use std::time::Instant;

use crate::board::frame::Frame;
use crate::board::{Board, Tile};
use crate::error::{Error, Result};
use crate::metric::Metric;
use crate::search::choose::{self, EvalJob};
use crate::search::heuristic::{Eval, Geometry, LinearConflict, Manhattan, MAX_SEARCH_CELLS};
use crate::search::partition::PartitionSpec;
use crate::search::pruning::MovePruner;
use crate::search::SearchWatch;
use crate::search::{ida_star, ida_star_parallel, Limits, Outcome};
use crate::SolveError;

use super::options::weight_fraction;
use super::Outcome as Proven;
use super::{
    HeuristicChoice, Plan, Solution, SolveOptions, Solver, FALLBACK_WEIGHTS, MIXED_SUMS_FROM_CELLS,
    TRIAL_NODES,
};

impl Solver {
    /// [`SolveOptions::fallback`]: the optimal search under a quarter of the budget, then weighted IDA* with
    /// decreasing weights, each under what is left, then fast mode.
    pub(super) fn search_with_fallback(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        heuristic: &HeuristicChoice,
    ) -> Result<Solution> {
        let start = Instant::now();
        // A budget too long for the clock is no time limit; without any limit the search runs to its end.
        let deadline = opts.timeout.and_then(|t| start.checked_add(t));
        if deadline.is_none() && opts.max_nodes.is_none() {
            return self.search(board, goal, opts, heuristic);
        }
        let cancelled = || {
            opts.cancel
                .as_deref()
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
        };
        let mut nodes = 0u64;
        // The share of the budget left for one phase of `phases` still to run.
        let phase = |nodes: u64, phases: u32| SolveOptions {
            timeout: deadline.map(|d| d.saturating_duration_since(Instant::now()) / phases),
            max_nodes: opts
                .max_nodes
                .map(|m| m.saturating_sub(nodes) / u64::from(phases)),
            fallback: false,
            ..opts.clone()
        };
        let weights: Vec<f64> = FALLBACK_WEIGHTS
            .iter()
            .copied()
            .filter(|&w| opts.weight.is_none_or(|given| w > given))
            .collect();
        // The asked-for search (optimal, or weighted when a weight is given) gets a quarter. When the limits stop a
        // build it waits for (`crate::stop`), the weighted searches would need the same databases: fast mode answers.
        let first = match self.search(board, goal, &phase(0, 4), heuristic) {
            Err(e) if crate::stop::stopped_by(&e, &crate::stop::current()) && !cancelled() => {
                let s = crate::stop::with(None, || self.solve_fast(board, goal))?;
                return Ok(s.with_lower_bound(board.manhattan_to(goal)?));
            }
            first => first?,
        };
        if first.moves.is_some() || cancelled() {
            return Ok(first);
        }
        nodes += first.nodes;
        let manhattan = board.manhattan_to(goal)?;
        let lower_bound = first.lower_bound().max(manhattan);
        let estimate = first.estimate;
        // Anytime: the largest weight first (it finishes soonest), then smaller ones, each with all that is left,
        // keeping the shortest; the first that does not finish has spent the budget.
        let mut best: Option<Solution> = None;
        for &w in weights.iter().rev() {
            let s = self.search(
                board,
                goal,
                &SolveOptions {
                    weight: Some(w),
                    ..phase(nodes, 1)
                },
                heuristic,
            )?;
            nodes += s.nodes;
            let Some(len) = s.length() else { break };
            if best.as_ref().is_none_or(|b| Some(len) < b.length()) {
                best = Some(s);
            }
            if len as u64 <= lower_bound || cancelled() {
                break;
            }
        }
        if let Some(mut s) = best {
            let len = s.length().unwrap_or_default() as u64;
            s.nodes = nodes;
            s.estimate = estimate;
            let lower_bound = lower_bound.max(s.lower_bound());
            s.outcome = if len <= lower_bound {
                // As long as a proven lower bound: least after all.
                Proven::Optimal
            } else {
                let ratio = len as f64 / lower_bound as f64;
                Proven::Bounded {
                    within: s.within().map_or(ratio, |w| w.min(ratio)),
                    lower_bound,
                }
            };
            return Ok(s);
        }
        if cancelled() {
            let mut s = first;
            s.nodes = nodes;
            return Ok(s);
        }
        // Past the deadline: fast mode's own small tables are built whatever it is.
        let mut s = crate::stop::with(None, || self.solve_fast(board, goal))?;
        s.nodes = nodes;
        s.estimate = estimate;
        if let Proven::Valid { lower_bound: bound } = &mut s.outcome {
            *bound = lower_bound;
        }
        Ok(s)
    }

    /// [`Plan::MtmSearch`]: IDA* over pushes with the label tables.
    pub(super) fn search_mtm(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
    ) -> Result<Solution> {
        let owned = self.label_tables(goal)?;
        let tables = owned.view();
        let watch = SearchWatch::new(&*self.progress);
        let limits = Limits {
            watch: Some(&watch),
            ..opts.limits()
        };
        Ok(
            match crate::search::mtm::search(board, goal, &tables, &limits)? {
                Outcome::Solved {
                    moves,
                    nodes,
                    estimate,
                    ..
                } => {
                    let moves = moves.into_iter().map(Tile::from).collect();
                    let mut s = Solution::optimal(moves, nodes, Plan::MtmSearch)
                        .in_metric(Metric::Mtm, board)?;
                    s.estimate = estimate as u64;
                    s
                }
                Outcome::Stopped {
                    lower_bound,
                    nodes,
                    estimate,
                    ..
                } => Solution {
                    metric: Metric::Mtm,
                    ..Solution::stopped(lower_bound, nodes, estimate, Plan::MtmSearch)
                },
            },
        )
    }

    pub(super) fn search(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        heuristic: &HeuristicChoice,
    ) -> Result<Solution> {
        let shape = board.shape();
        if shape.cells() > MAX_SEARCH_CELLS {
            return Err(Error::Solve(SolveError::SearchTooLarge { shape }));
        }
        let frame = Frame::new(goal);
        // The default that stands for alternatives (5 × 5) chooses among them like an explicit '|'.
        if let HeuristicChoice::Pdb(spec @ PartitionSpec::Either(_)) =
            &self.heuristic_for(&frame, heuristic)
        {
            if opts.weight.is_none() {
                return self.search_either(board, goal, opts, spec);
            }
        }
        let geometry = Geometry::new(frame.shape(), frame.blank_goal())?;
        let mut pos = [0u8; MAX_SEARCH_CELLS];
        frame.positions(board, &mut pos);
        let pos = &pos[..shape.cells()];
        // A timeout too long for the clock to represent (Duration::MAX, say) is no limit at all.
        let deadline = opts.timeout.and_then(|t| Instant::now().checked_add(t));
        let watch = SearchWatch::new(&*self.progress);
        let limits = Limits {
            deadline,
            watch: Some(&watch),
            ..opts.limits()
        };
        let weight = match opts.weight {
            None => (1, 1),
            Some(w) => weight_fraction(w)?,
        };
        let parallel = opts.parallel && weight.0 == weight.1;
        let pruner = pruner_for(opts);
        let job = IdaJob {
            pos,
            limits: &limits,
            weight,
            parallel,
            pruner: &pruner,
        };
        let outcome = self.with_eval(goal, &frame, &geometry, opts, heuristic, job)?;
        let within = opts.weight.filter(|_| weight.0 != weight.1);
        Ok(match outcome {
            Outcome::Solved {
                moves,
                nodes,
                estimate,
                iterations,
            } => {
                let moves: Vec<Tile> = moves.into_iter().map(|t| frame.tile(t as Tile)).collect();
                let mut s = Solution::optimal(moves, nodes, Plan::Search(heuristic.clone()));
                s.estimate = estimate as u64;
                s.iterations = iterations;
                if let Some(within) = within {
                    s.outcome = Proven::Bounded {
                        within,
                        lower_bound: geometry_lower_bound(&geometry, pos),
                    };
                }
                s
            }
            Outcome::Stopped {
                lower_bound,
                nodes,
                estimate,
                iterations,
            } => Solution {
                outcome: Proven::Stopped {
                    lower_bound: lower_bound as u64,
                    within,
                },
                iterations,
                ..Solution::stopped(
                    lower_bound,
                    nodes,
                    estimate,
                    Plan::Search(heuristic.clone()),
                )
            },
        })
    }

    /// The optimal search with alternative partitions ([`PartitionSpec::Either`]): a trial of the first
    /// iterations with each, then the whole search with the one that took the fewest nodes.
    ///
    /// The trial raises a depth `d` from the largest of the start's estimates, two moves at a time, and searches
    /// every threshold up to `d` with each alternative still in the running (each a search of its own from the
    /// start, [`SolveOptions::max_depth`]), until the next round would take the best of them past about four times
    /// [`TRIAL_NODES`] (its nodes times their growth from the round before), one is left, or the depth would pass
    /// the caller's [`SolveOptions::max_depth`];
    /// an alternative that takes more than four times the fewest of a round drops out. The nodes to rule out every
    /// solution of at most `d` moves measure how well each prunes this board: on Korf & Felner's 24-puzzle
    /// instances their ratio between two layouts stays within about 10 % from six moves below the optimum to two
    /// below (docs/korf24.md). The answer counts the trial's nodes; its plan names the alternative chosen. A
    /// solution met in the trial is optimal and answers at once; a limit that stops the trial answers with the
    /// best lower bound proven.
    fn search_either(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        spec: &PartitionSpec,
    ) -> Result<Solution> {
        let alts: Vec<HeuristicChoice> = spec
            .alternatives()
            .into_iter()
            .map(|a| HeuristicChoice::Pdb(a.clone()))
            .collect();
        if alts.is_empty() {
            return Err(no_alternative());
        }
        let start = Instant::now();
        let deadline = opts.timeout.and_then(|t| start.checked_add(t));
        let mut spent = 0u64;
        // Within what is left of the caller's limits (None when they are used up).
        let left = |spent: u64, cap: Option<u64>| -> Option<SolveOptions> {
            let max_nodes = match (opts.max_nodes.map(|m| m.saturating_sub(spent)), cap) {
                (Some(0), _) => return None,
                (a, b) => a.into_iter().chain(b).min(),
            };
            let timeout = match deadline {
                Some(d) => Some(
                    d.checked_duration_since(Instant::now())
                        .filter(|t| !t.is_zero())?,
                ),
                None => None,
            };
            Some(SolveOptions {
                max_nodes,
                timeout,
                ..opts.clone()
            })
        };
        let stopped = |lower: u64, spent: u64, estimate: u64, h: &HeuristicChoice| Solution {
            estimate,
            ..Solution::stopped(0, spent, 0, Plan::Search(h.clone())).with_lower_bound(lower)
        };
        // The start's estimate with each (no node searched: the first threshold passes a depth of 0).
        let mut estimates = Vec::with_capacity(alts.len());
        for h in &alts {
            let probe = SolveOptions {
                max_depth: Some(0),
                ..opts.clone()
            };
            estimates.push(self.search(board, goal, &probe, h)?.estimate);
        }
        let mut depth = estimates.iter().copied().max().unwrap_or(0);
        // Every estimate is a lower bound, so their largest is.
        let mut lower = depth;
        let mut running: Vec<usize> = (0..alts.len()).collect();
        let mut before = 0u64;
        let best = loop {
            // Never past the caller's own depth limit: the search below stops there.
            if opts.max_depth.is_some_and(|m| depth > m) {
                break running[0];
            }
            let mut took: Vec<(usize, u64)> = Vec::with_capacity(running.len());
            for &i in &running {
                let cap = took.iter().map(|&(_, n)| n.saturating_mul(4)).min();
                let Some(o) = left(spent, cap) else {
                    return Ok(stopped(lower, spent, estimates[i], &alts[i]));
                };
                let o = SolveOptions {
                    max_depth: Some(depth),
                    ..o
                };
                let s = self.search(board, goal, &o, &alts[i])?;
                spent += s.nodes;
                if s.is_optimal() {
                    return Ok(Solution { nodes: spent, ..s });
                }
                lower = lower.max(s.lower_bound());
                if s.lower_bound() > depth {
                    took.push((i, s.nodes));
                } else if cap.is_none_or(|c| s.nodes < c) {
                    // The caller's limits stopped it, not the cap (which drops it from the running).
                    return Ok(stopped(lower, spent, estimates[i], &alts[i]));
                }
            }
            took.sort_by_key(|&(_, n)| n);
            running = took.iter().map(|&(i, _)| i).collect();
            let fewest = took.first().map_or(0, |&(_, n)| n);
            // The next round would take about `growth` times as many: stop before it passes the budget by far.
            let growth = fewest.checked_div(before).unwrap_or(1).max(2);
            if running.len() <= 1 || fewest.saturating_mul(growth) > 4 * TRIAL_NODES {
                break running[0];
            }
            before = fewest;
            depth += 2;
        };
        let Some(o) = left(spent, None) else {
            return Ok(stopped(lower, spent, estimates[best], &alts[best]));
        };
        let s = self.search(board, goal, &o, &alts[best])?;
        Ok(Solution {
            nodes: s.nodes + spent,
            ..s.with_lower_bound(lower)
        })
    }

    /// Runs `job` with the heuristic that `opts` choose for a search towards `goal` (in its canonical frame): **the**
    /// place that turns a [`HeuristicChoice`] into an [`Eval`](crate::search::heuristic::Eval), the evaluator of
    /// pattern databases picked by the heuristic layer (`search::choose`).
    pub(crate) fn with_eval<J: EvalJob>(
        &self,
        goal: &Board,
        frame: &Frame,
        geometry: &Geometry,
        opts: &SolveOptions,
        heuristic: &HeuristicChoice,
        job: J,
    ) -> Result<J::Out> {
        let heuristic = self.heuristic_for(frame, heuristic);
        Ok(match &heuristic {
            HeuristicChoice::Manhattan => job.run(geometry, Manhattan::new(geometry)),
            HeuristicChoice::LinearConflict | HeuristicChoice::Auto => {
                job.run(geometry, LinearConflict::new(geometry))
            }
            HeuristicChoice::Pdb(spec) => {
                // Alternatives ('|'): the whole search chooses among them (`search_either`); other work takes the
                // first.
                let spec = *spec.alternatives().first().ok_or_else(no_alternative)?;
                let sets = self.pdb_sets(goal, frame, spec)?;
                let mixed = opts
                    .mixed_sums
                    .unwrap_or(geometry.n >= MIXED_SUMS_FROM_CELLS);
                choose::with_pdbs(geometry, &sets, opts.reflect, mixed, job)?
            }
        })
    }
}

/// A whole search ([`Solver::search`]).
pub(super) struct IdaJob<'a, 'l> {
    pub(super) pos: &'a [u8],
    pub(super) limits: &'a Limits<'l>,
    pub(super) weight: (u32, u32),
    pub(super) parallel: bool,
    pub(super) pruner: &'a MovePruner,
}

impl EvalJob for IdaJob<'_, '_> {
    type Out = Outcome;
    fn run<E: Eval + Clone + Send + Sync>(self, g: &Geometry, eval: E) -> Outcome {
        run_ida(
            g,
            eval,
            self.pos,
            self.limits,
            self.weight,
            self.parallel,
            self.pruner,
        )
    }
}

/// The move pruner `opts` ask for: the learned one, or none.
pub(super) fn pruner_for(opts: &SolveOptions) -> Cow<'static, MovePruner> {
    if opts.move_pruning {
        Cow::Borrowed(MovePruner::global())
    } else {
        Cow::Owned(MovePruner::none())
    }
}

/// IDA* on one thread, or shared among the rayon pool's threads.
fn run_ida<E: Eval + Clone + Send + Sync>(
    g: &Geometry,
    eval: E,
    pos: &[u8],
    limits: &Limits<'_>,
    weight: (u32, u32),
    parallel: bool,
    pruner: &MovePruner,
) -> Outcome {
    if parallel {
        ida_star_parallel(g, eval, pos, limits, pruner)
    } else {
        ida_star(g, eval, pos, limits, weight, pruner)
    }
}

/// An admissible lower bound from the Manhattan distance, for answers that are not proven least.
fn geometry_lower_bound(g: &Geometry, pos: &[u8]) -> u64 {
    let mut m = Manhattan::new(g);
    m.reset(pos);
    m.h() as u64
}

/// The error for a [`PartitionSpec::Either`] with no alternative (only an API caller can build one).
fn no_alternative() -> Error {
    Error::Solve(SolveError::InvalidOption {
        option: "pdb".into(),
        reason: "alternative partitions ('|') need at least one partition".into(),
    })
}
