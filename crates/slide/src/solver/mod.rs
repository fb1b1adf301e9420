//! The solver: picks the method for a board's shape, loads or builds what it needs, and answers.
//!
//! [`Solver`] and its entry points live here; the rest by concern: its configuration ([`SolverBuilder`], `builder.rs`),
//! its engine room for researchers ([`SolverExt`], `ext.rs`), [`Solution`] (`solution.rs`), the options and plans
//! (`options.rs`), planning (`plan.rs`), loading and keeping tables (`loaded.rs`), memory estimates (`memory.rs`), the
//! search drivers (`drive.rs`), the distributed split (`split.rs`), partial goals (`pattern.rs`) and state-space facts
//! (`stats.rs`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::board::frame::Frame;
use crate::board::{Board, Shape, Tile};
use crate::error::{Error, Result};
use crate::exact::table::{CompleteTable, MAX_TABLE_CELLS};
use crate::metric::Metric;
use crate::progress::Progress;
use crate::search::mtm::{LabelTable, Layout};
use crate::search::partial::{PartialKey, PartialTable};
use crate::search::pdb::{IndexChoice, Pdb, PdbIndex, PdbLayout};
use crate::store::Store;
use crate::SolveError;

mod builder;
mod drive;
mod ext;
mod loaded;
mod memory;
mod options;
mod pattern;
mod plan;
mod solution;
mod split;
mod stats;
#[cfg(test)]
mod tests;

pub use builder::SolverBuilder;
pub use ext::SolverExt;
pub use loaded::{CacheDir, DEFAULT_CACHE_FROM_CELLS};
pub use memory::{
    partial_build_bytes, pdb_build_bytes, pdb_needs_memory, process_memory_limit,
    table_build_bytes, zbpdb_build_bytes, PdbNeed, DEFAULT_PARTIAL_MEMORY,
};
#[cfg(test)]
pub(crate) use memory::{zcpdb_build_bytes, zpdb_build_bytes};
pub use options::{
    HeuristicChoice, Method, Plan, SolveOptions, SolveOptionsBuilder, FALLBACK_WEIGHTS,
    FAST_DEFAULT_CELLS, MAX_WEIGHT, MIXED_SUMS_FROM_CELLS, TRIAL_NODES,
};
pub(crate) use solution::to_json;
pub use solution::{Answer, Listing, Outcome, Solution};
pub use split::{SplitThreshold, SubtreeResult};
pub use stats::Stats;

use loaded::{PdbKey, BUILD_HERE, TABLE_SHAPES};
use options::weight_fraction;

/// Solves boards, holding the tables it has built or loaded. Cheap to share between threads.
///
/// ```
/// use slide::{Board, Solver};
/// let solver = Solver::new();
/// let b = Board::parse("[[4,1,2],[5,0,3]]").unwrap();
/// let s = solver.solve(&b, &Board::goal(b.shape())).unwrap();
/// assert_eq!(s.distance(), Some(5));
/// ```
pub struct Solver {
    store: Option<Arc<dyn Store>>,
    progress: Arc<dyn Progress + Send>,
    tables: Vec<OnceLock<Arc<CompleteTable>>>,
    /// Held while a table or database is loaded or built, so that concurrent first callers wait for one build.
    building: Mutex<()>,
    /// The same for the small tables built in memory (under `cache_from_cells` cells: a second or less), so that
    /// they never wait behind a build of minutes (fast mode's last block, on a server building the 5x5 databases).
    building_small: Mutex<()>,
    cache_from_cells: usize,
    pdbs: Mutex<HashMap<PdbKey, Arc<Pdb>>>,
    /// MTM label tables by shape and goal blank cell.
    labels: Mutex<HashMap<(Shape, usize, Layout), Arc<LabelTable>>>,
    partials: Mutex<HashMap<PartialKey, Arc<PartialTable>>>,
    max_memory: Option<u64>,
    map_files: bool,
    /// [`SolverBuilder::read_in_above`].
    read_in_above: Option<u64>,
    index_choice: IndexChoice,
    /// [`SolverExt::pdb_index`]'s answers by shape, pattern size and layout (its memory check builds a region index).
    indexes: Mutex<HashMap<(Shape, usize, PdbLayout), PdbIndex>>,
    /// [`SolverExt::partition_for`]'s answer for the 5 × 5 default: whether the pair fits the memory budget.
    pair_fits: Mutex<Option<bool>>,
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("store", &self.store)
            .finish_non_exhaustive()
    }
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// A solver with the defaults of [`Solver::builder`]: tables kept in the platform's cache directory, nothing
    /// reported.
    pub fn new() -> Solver {
        Solver::builder().build()
    }

    /// A [`SolverBuilder`], to choose where tables go, what progress is reported to, the memory budget and how
    /// table files are read.
    pub fn builder() -> SolverBuilder {
        SolverBuilder::new()
    }

    /// The solver `builder` describes, with nothing loaded.
    fn from_builder(store: Option<Arc<dyn Store>>, builder: SolverBuilder) -> Solver {
        let tables = (0..Metric::ALL.len() * TABLE_SHAPES.len() * MAX_TABLE_CELLS)
            .map(|_| OnceLock::new())
            .collect();
        Solver {
            store,
            progress: builder.progress,
            tables,
            building: Mutex::new(()),
            building_small: Mutex::new(()),
            cache_from_cells: builder.cache_from_cells,
            pdbs: Mutex::new(HashMap::new()),
            labels: Mutex::new(HashMap::new()),
            partials: Mutex::new(HashMap::new()),
            max_memory: builder.max_memory,
            map_files: builder.map_files,
            read_in_above: builder.read_in_above,
            index_choice: builder.index_choice,
            indexes: Mutex::new(HashMap::new()),
            pair_fits: Mutex::new(None),
        }
    }

    /// The process-wide solver used by [`crate::sliding_puzzle`] (default cache directory, silent).
    pub fn global() -> &'static Solver {
        static GLOBAL: OnceLock<Solver> = OnceLock::new();
        GLOBAL.get_or_init(Solver::new)
    }

    /// The least number of moves from `board` to `goal`, or -1 when it cannot be reached.
    ///
    /// Exact for every shape with a complete table (at most 12 cells) and for single rows and columns of any length.
    pub fn distance(&self, board: &Board, goal: &Board) -> Result<i64> {
        self.distance_in(board, goal, Metric::Stm)
    }

    /// The least number of moves in `metric` from `board` to `goal`, or -1 when it cannot be reached. In MTM only
    /// boards of at most 12 cells and single rows and columns are answered (else [`SolveError::InvalidOption`]).
    ///
    /// ```
    /// use slide::{Board, Metric, Solver};
    /// let b = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
    /// let g = Board::goal(b.shape());
    /// assert_eq!(Solver::global().distance_in(&b, &g, Metric::Stm).unwrap(), 31);
    /// assert_eq!(Solver::global().distance_in(&b, &g, Metric::Mtm).unwrap(), 20);
    /// ```
    pub fn distance_in(&self, board: &Board, goal: &Board, metric: Metric) -> Result<i64> {
        if let Some(d) = self.fast_distance(board, goal, metric)? {
            return Ok(d);
        }
        // Without limits the search runs to the end: the answer is proven.
        let opts = SolveOptions {
            metric,
            ..Default::default()
        };
        let s = self.solve_with(board, goal, &opts)?;
        if s.is_unsolvable() {
            return Ok(-1);
        }
        s.distance()
            .map(|d| d as i64)
            .ok_or_else(|| Error::Internal("a search without limits stopped".into()))
    }

    /// Distance without building a path, when a table answers directly.
    fn fast_distance(&self, board: &Board, goal: &Board, metric: Metric) -> Result<Option<i64>> {
        let shape = board.shape();
        if goal.shape() != shape {
            return Err(Error::Solve(SolveError::ShapeMismatch {
                board: shape,
                goal: goal.shape(),
            }));
        }
        if shape.is_line() || shape.cells() > MAX_TABLE_CELLS {
            return Ok(None);
        }
        let n = shape.cells();
        let mut pos = [0u8; MAX_TABLE_CELLS];
        let table = if shape.rows() <= shape.cols() && goal.is_default_goal() {
            for (cell, &t) in board.tiles().iter().enumerate() {
                pos[t as usize] = cell as u8;
            }
            self.table_in(shape, n - 1, metric)?
        } else {
            let frame = Frame::new(goal);
            frame.positions(board, &mut pos);
            self.table_in(frame.shape(), frame.blank_goal(), metric)?
        };
        Ok(Some(table.distance(&pos[..n]).map_or(-1, |d| d as i64)))
    }

    /// Solves `board` towards `goal`: an optimal move sequence, or why none exists (default options).
    pub fn solve(&self, board: &Board, goal: &Board) -> Result<Solution> {
        self.solve_with(board, goal, &SolveOptions::default())
    }

    /// Solves `board` towards `goal` with options: method, heuristic, limits, weight.
    ///
    /// ```
    /// use slide::{Board, Solver, SolveOptions, Method, HeuristicChoice};
    /// let b = Board::parse("[[4,1,2],[5,0,3]]").unwrap();
    /// let opts = SolveOptions { method: Method::Search, heuristic: HeuristicChoice::Manhattan, ..Default::default() };
    /// let s = Solver::global().solve_with(&b, &Board::goal(b.shape()), &opts).unwrap();
    /// assert_eq!(s.distance(), Some(5));
    /// assert!(s.is_optimal() && s.nodes() > 0);
    /// ```
    pub fn solve_with(&self, board: &Board, goal: &Board, opts: &SolveOptions) -> Result<Solution> {
        if let Some(w) = opts.weight {
            weight_fraction(w)?; // a bad weight is an error whatever answers
        }
        let plan = self.plan(board, goal, opts)?;
        if let Some(reason) = board.unsolvable_reason(goal)? {
            let mut s = Solution::unsolvable(reason, plan);
            s.metric = opts.metric;
            return Ok(s);
        }
        // The limits cover the builds the answer waits for (`crate::stop`); work without limits of its own (fast
        // mode's exact blocks, asked from inside a search) runs its builds to their end.
        let deadline = opts
            .timeout
            .and_then(|t| std::time::Instant::now().checked_add(t));
        let stop = crate::stop::BuildStop::new(deadline, opts.cancel.clone());
        let answer = crate::stop::with(stop.clone(), || {
            self.answer(board, goal, opts, plan.clone())
        });
        match answer {
            Err(e) if crate::stop::stopped_by(&e, &stop) => {
                Ok(self.stopped_in_build(board, goal, opts, plan))
            }
            answer => answer,
        }
    }

    /// The answer of a solvable board by `plan` ([`Solver::solve_with`]).
    fn answer(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        plan: Plan,
    ) -> Result<Solution> {
        let shape = board.shape();
        let heuristic = match plan {
            // On a line every move goes the same way: one run, so optimal in both metrics.
            Plan::Line => {
                return Solution::optimal(line_moves(board, goal), 0, plan)
                    .in_metric(opts.metric, board)
            }
            Plan::Fast => return crate::stop::with(None, || self.solve_fast(board, goal)),
            Plan::MtmSearch => return self.search_mtm(board, goal, opts),
            Plan::Partial => {
                return Err(Error::Internal(
                    "a goal board planned as a partial goal".into(),
                ))
            }
            Plan::Search(ref h) => h.clone(),
            Plan::Table => {
                let frame = Frame::new(goal);
                let table = self.table_in(frame.shape(), frame.blank_goal(), opts.metric)?;
                let mut pos = [0u8; MAX_TABLE_CELLS];
                frame.positions(board, &mut pos);
                let path = table.path(&pos[..shape.cells()]).ok_or_else(|| {
                    Error::Internal("the parity test and the table disagree".into())
                })?;
                let moves = path.into_iter().map(|t| frame.tile(t)).collect();
                return Solution::optimal(moves, 0, plan).in_metric(opts.metric, board);
            }
        };
        if opts.fallback {
            self.search_with_fallback(board, goal, opts, &heuristic)
        } else {
            self.search(board, goal, opts, &heuristic)
        }
    }

    /// The answer of a solve whose limits stopped a table or database build it waited for, as a search they stop
    /// answers: no moves, and the Manhattan distance as lower bound (in STM; none in MTM).
    fn stopped_in_build(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        plan: Plan,
    ) -> Solution {
        let lower_bound = match opts.metric {
            Metric::Stm => board.manhattan_to(goal).unwrap_or(0),
            Metric::Mtm => 0,
        };
        Solution {
            metric: opts.metric,
            ..Solution::stopped(0, 0, 0, plan).with_lower_bound(lower_bound)
        }
    }

    /// Fast mode's answer: a valid solution, proven least only where fast mode answers from complete tables (at
    /// most 9 cells), with the Manhattan distance as lower bound otherwise.
    fn solve_fast(&self, board: &Board, goal: &Board) -> Result<Solution> {
        let moves = crate::fast::fast_moves(self, board, goal)?;
        let optimal = board.shape().cells() <= crate::fast::EXACT_CELLS;
        let s = Solution::from_moves(moves, optimal);
        if optimal {
            return Ok(s);
        }
        Ok(s.with_lower_bound(board.manhattan_to(goal)?))
    }
}

/// Runs `work` on the current thread with any table or database build it starts kept on the current thread and
/// rayon pool (and its progress reported from there), for a pool given over to builds, such as a server's warm-up
/// pool. Elsewhere, a build started from a pool's worker runs on a thread and pool of its own, since the worker could
/// otherwise take other work of its pool that waits for the same build and deadlock; so call this only where the
/// pool runs nothing else that may need a table.
pub fn build_here<R>(work: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            BUILD_HERE.set(self.0);
        }
    }
    let _reset = Reset(BUILD_HERE.replace(true));
    work()
}

/// On a single row or column the blank walks straight to its goal cell.
fn line_moves(board: &Board, goal: &Board) -> Vec<Tile> {
    let (from, to) = (board.blank(), goal.blank());
    let t = board.tiles();
    if from <= to {
        t[from + 1..=to].to_vec()
    } else {
        t[to..from].iter().rev().copied().collect()
    }
}

/// Fast mode's exact solver: the solver's optimal answer (fast mode asks for boards of at most 9 cells, single rows
/// and columns, and its last block).
impl crate::fast::ExactSolver for Solver {
    fn exact_moves(&self, board: &Board, goal: &Board) -> Result<Option<Vec<Tile>>> {
        Ok(self.solve(board, goal)?.into_moves())
    }
}
