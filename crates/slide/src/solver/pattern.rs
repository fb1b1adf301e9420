//! Partial goals ([`crate::Pattern`]): planning, answers by table or search, and stages.

use crate::board::{Board, Pattern, Tile};
use crate::error::{Error, Result, SolveError};
use crate::metric::Metric;
use crate::search::choose::EvalJob;
use crate::search::heuristic::{Geometry, PatternManhattan};
use crate::search::partial::PartialKey;
use crate::search::Outcome;

use super::drive::{pruner_for, IdaJob};
use super::memory::{partial_build_bytes, DEFAULT_PARTIAL_MEMORY};
use super::{HeuristicChoice, Method, Plan, Solution, SolveOptions, Solver};
#[cfg(doc)]
use crate::{engine::SolverExt, SolverBuilder};

/// Partial goals ([`Pattern`]): planning, answers and stages (their tables: [`SolverExt::partial_table`]).
impl Solver {
    /// Which method answers `board` towards the pattern `goal`: [`Solver::plan`] when the pattern leaves no choice
    /// ([`Pattern::board`]), else [`Plan::Partial`], the complete table of the pattern's abstract states
    /// ([`crate::engine::partial`]) in either metric, when it is loaded or fits the memory budget
    /// ([`SolverBuilder::max_memory`], else [`DEFAULT_PARTIAL_MEMORY`]). Over the budget, or with [`Method::Search`],
    /// an STM partial goal is searched by IDA* with the Manhattan distance of the pattern's tiles
    /// (`Plan::Search(HeuristicChoice::Manhattan)`, exact, under the limits); an MTM one is refused
    /// ([`SolveError::InvalidOption`], `metric`). [`Method::Table`] insists on the table
    /// ([`SolveError::TooMuchMemory`] over the budget). [`Method::Fast`] and a weight are refused
    /// ([`SolveError::InvalidOption`], `goal`), and so is a board of more than 64 cells
    /// ([`SolveError::PatternTooLarge`]).
    ///
    /// ```
    /// use slide::{Board, Pattern, Plan, SolveOptions, Solver};
    /// let b = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
    /// let row = Pattern::parse("1 2 3/x x x/x x x").unwrap();
    /// let opts = SolveOptions::default();
    /// assert_eq!(Solver::global().plan_pattern(&b, &row, &opts).unwrap(), Plan::Partial);
    /// let full = Pattern::parse("1 2 3/4 5 6/7 8 x").unwrap();
    /// assert_eq!(Solver::global().plan_pattern(&b, &full, &opts).unwrap(), Plan::Table);
    /// ```
    pub fn plan_pattern(&self, board: &Board, goal: &Pattern, opts: &SolveOptions) -> Result<Plan> {
        let shape = board.shape();
        if goal.shape() != shape {
            return Err(Error::Solve(SolveError::ShapeMismatch {
                board: shape,
                goal: goal.shape(),
            }));
        }
        if let Some(g) = goal.board() {
            return self.plan(board, &g, opts);
        }
        if shape.cells() > 64 {
            return Err(Error::Solve(SolveError::PatternTooLarge { shape }));
        }
        if opts.weight.is_some() || opts.method == Method::Fast {
            return Err(Error::Solve(SolveError::InvalidOption {
                option: "goal".into(),
                reason: "a partial goal (a pattern with x) is answered exactly, by the table of its pattern's states or by IDA*; fast mode and weights do not apply".into(),
            }));
        }
        let key = PartialKey::of(goal, opts.metric);
        let loaded = self
            .partials
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(&key);
        let limit = self.max_memory.unwrap_or(DEFAULT_PARTIAL_MEMORY);
        let fits = loaded || partial_build_bytes(&key) <= limit;
        let search = Plan::Search(HeuristicChoice::Manhattan);
        match (opts.method, opts.metric) {
            (Method::Search, Metric::Stm) => Ok(search),
            (Method::Search, Metric::Mtm) => Err(Error::Solve(SolveError::InvalidOption {
                option: "metric".into(),
                reason: "MTM partial goals are answered by the table of the pattern's states only (no search)".into(),
            })),
            (Method::Table, _) => Ok(Plan::Partial),
            _ if fits => Ok(Plan::Partial),
            (_, Metric::Stm) => Ok(search),
            (_, Metric::Mtm) => Err(Error::Solve(SolveError::InvalidOption {
                option: "metric".into(),
                reason: format!(
                    "MTM partial goals over the memory budget are not available: the table of this pattern's states needs {} MB, {} MB are allowed (in STM such goals are searched by IDA*)",
                    partial_build_bytes(&key) / 1_000_000,
                    limit / 1_000_000
                ),
            })),
        }
    }

    /// The least number of moves in `metric` from `board` to any board matching `goal`, or -1 when none can be
    /// reached.
    ///
    /// ```
    /// use slide::{Board, Metric, Pattern, Solver};
    /// let b = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
    /// let row = Pattern::parse("1 2 3/x x x/x x x").unwrap();
    /// assert_eq!(Solver::global().distance_to_pattern(&b, &row, Metric::Stm).unwrap(), 21);
    /// ```
    pub fn distance_to_pattern(
        &self,
        board: &Board,
        goal: &Pattern,
        metric: Metric,
    ) -> Result<i64> {
        let opts = SolveOptions {
            metric,
            ..Default::default()
        };
        let plan = self.plan_pattern(board, goal, &opts)?;
        if goal.board().is_none() && plan != Plan::Partial {
            // IDA* without limits runs to the end: the answer is proven.
            let s = self.search_pattern(board, goal, &opts)?;
            if s.is_unsolvable() {
                return Ok(-1);
            }
            return s
                .distance()
                .map(|d| d as i64)
                .ok_or_else(|| Error::Internal("a search without limits stopped".into()));
        }
        if plan != Plan::Partial {
            let g = goal
                .board()
                .ok_or_else(|| Error::Internal("no goal board".into()))?;
            return self.distance_in(board, &g, metric);
        }
        let table = self.partial_table(&PartialKey::of(goal, metric))?;
        let tiles: Vec<Tile> = goal.fixed_tiles().iter().map(|&(_, t)| t).collect();
        Ok(table.distance(board, &tiles).map_or(-1, i64::from))
    }

    /// Solves `board` towards the pattern `goal`: an optimal move sequence (in `opts.metric`) to a matching board,
    /// or -1 when none is reachable. A pattern that leaves no choice is solved as its board by
    /// [`Solver::solve_with`].
    pub fn solve_pattern(
        &self,
        board: &Board,
        goal: &Pattern,
        opts: &SolveOptions,
    ) -> Result<Solution> {
        let plan = self.plan_pattern(board, goal, opts)?;
        if goal.board().is_none() && plan != Plan::Partial {
            return self.search_pattern(board, goal, opts);
        }
        if plan != Plan::Partial {
            let g = goal
                .board()
                .ok_or_else(|| Error::Internal("no goal board".into()))?;
            return self.solve_with(board, &g, opts);
        }
        let table = self.partial_table(&PartialKey::of(goal, opts.metric))?;
        let tiles: Vec<Tile> = goal.fixed_tiles().iter().map(|&(_, t)| t).collect();
        if table.distance(board, &tiles).is_none() {
            let mut s = Solution::unsolvable(
                format!("no board matching {goal} can be reached: its one free tile cannot absorb the parity"),
                plan,
            );
            s.metric = opts.metric;
            return Ok(s);
        }
        let moves = table
            .path(board, &tiles)
            .ok_or_else(|| Error::Internal("a partial goal's table has no way down".into()))?;
        Solution::optimal(moves, 0, plan).in_metric(opts.metric, board)
    }

    /// IDA* towards a partial goal with [`PatternManhattan`] (the Manhattan distance of the pattern's tiles, and
    /// of the blank if fixed): optimal in STM, under `opts`' limits.
    fn search_pattern(
        &self,
        board: &Board,
        goal: &Pattern,
        opts: &SolveOptions,
    ) -> Result<Solution> {
        let shape = board.shape();
        let plan = Plan::Search(HeuristicChoice::Manhattan);
        if !pattern_reachable(board, goal) {
            let mut s = Solution::unsolvable(
                format!("no board matching {goal} can be reached: its one free tile cannot absorb the parity"),
                plan,
            );
            s.metric = opts.metric;
            return Ok(s);
        }
        // The search only reads the moves from the geometry; the estimate is the pattern's own.
        let geometry = Geometry::new(shape, 0)?;
        let eval = PatternManhattan::new(shape, &goal.fixed_tiles(), goal.blank())?;
        let pos: Vec<u8> = board.positions().iter().map(|&c| c as u8).collect();
        let limits = opts.limits();
        let pruner = pruner_for(opts);
        let job = IdaJob {
            pos: &pos,
            limits: &limits,
            weight: (1, 1),
            parallel: opts.parallel,
            pruner: &pruner,
        };
        Ok(match job.run(&geometry, eval) {
            Outcome::Solved {
                moves,
                nodes,
                estimate,
                ..
            } => {
                let moves = moves.into_iter().map(|t| t as Tile).collect();
                let mut s = Solution::optimal(moves, nodes, plan);
                s.estimate = estimate as u64;
                s
            }
            Outcome::Stopped {
                lower_bound,
                nodes,
                estimate,
                ..
            } => Solution::stopped(lower_bound, nodes, estimate, plan),
        })
    }

    /// Solves `board` stage after stage: each pattern of `stages` in order, each stage from the board the previous
    /// one ended on, each optimal ([`Solver::solve_pattern`]); the total is not claimed to be. The answers stop
    /// after a stage without moves (unreachable, or stopped by a limit). `each` hears of every stage's answer as
    /// soon as it is found (to time the stages, say).
    ///
    /// ```
    /// use slide::{Board, Pattern, SolveOptions, Solver};
    /// let b = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
    /// let stages: Vec<Pattern> =
    ///     ["1 2 3/x x x/x x x", "1 2 3/4 5 6/7 8 0"].iter().map(|p| p.parse().unwrap()).collect();
    /// let opts = SolveOptions::default();
    /// let answers = Solver::global().solve_stages(&b, &stages, &opts, &mut |_| {}).unwrap();
    /// assert_eq!(answers.len(), 2);
    /// assert_eq!(answers[0].distance(), Some(21));
    /// let total: usize = answers.iter().map(|s| s.length().unwrap()).sum();
    /// assert!(total >= 31); // the optimum from the start
    /// ```
    pub fn solve_stages(
        &self,
        board: &Board,
        stages: &[Pattern],
        opts: &SolveOptions,
        each: &mut dyn FnMut(&Solution),
    ) -> Result<Vec<Solution>> {
        let mut at = board.clone();
        let mut out = Vec::with_capacity(stages.len());
        for goal in stages {
            let s = self.solve_pattern(&at, goal, opts)?;
            each(&s);
            let done = match &s.moves {
                Some(m) => {
                    for &t in m {
                        at.apply(t)?;
                    }
                    false
                }
                None => true,
            };
            out.push(s);
            if done {
                break;
            }
        }
        Ok(out)
    }
}

/// False when no board matching `goal` can be reached from `board`. Only a pattern with one free tile and a free
/// blank (two `x`) can be out of reach: with two free tiles or more, swapping two of them gives matching boards of
/// both parities.
fn pattern_reachable(board: &Board, goal: &Pattern) -> bool {
    if goal.any_count() != 2 || goal.blank().is_some() {
        return true;
    }
    let n = goal.shape().cells();
    let free: Vec<usize> = (0..n).filter(|&c| goal.cells()[c].is_none()).collect();
    let mut named = vec![false; n];
    for &t in goal.cells().iter().flatten() {
        named[t as usize] = true;
    }
    let tile = (1..n).find(|&t| !named[t]).unwrap_or(0) as Tile;
    [(free[0], free[1]), (free[1], free[0])]
        .into_iter()
        .any(|(at, _)| {
            let tiles = goal
                .cells()
                .iter()
                .enumerate()
                .map(|(c, v)| v.unwrap_or(if c == at { tile } else { 0 }))
                .collect();
            Board::new(goal.shape(), tiles).is_ok_and(|g| board.is_solvable(&g).unwrap_or(false))
        })
}
