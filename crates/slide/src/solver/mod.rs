//! The solver: picks the method for a board's shape, loads or builds what it needs, and answers.
//!
//! [`Solver`] and its entry points live here; the rest by concern: [`Solution`] (`solution.rs`), the options and
//! plans (`options.rs`), planning (`plan.rs`), loading and keeping tables (`loaded.rs`), memory estimates
//! (`memory.rs`), the search drivers (`drive.rs`), the distributed split (`split.rs`), partial goals
//! (`pattern.rs`) and state-space facts (`stats.rs`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::board::frame::Frame;
use crate::board::{Board, Shape, Tile};
use crate::error::{Error, Result};
use crate::exact::table::{CompleteTable, MAX_TABLE_CELLS};
use crate::metric::Metric;
use crate::progress::{NoProgress, Progress};
use crate::search::mtm::{LabelTable, Layout};
use crate::search::partial::{PartialKey, PartialTable};
use crate::search::pdb::{IndexChoice, Pdb, PdbIndex, PdbLayout};
use crate::store::Store;
#[cfg(doc)]
use crate::{
    exact::cache,
    search::pdb::{SPARSE_MAX_ENTRIES, SPARSE_MAX_WIDE_BYTES},
};

mod drive;
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

pub use loaded::{CacheDir, DEFAULT_CACHE_FROM_CELLS};
pub use memory::{
    partial_build_bytes, pdb_build_bytes, pdb_needs_memory, table_build_bytes, zbpdb_build_bytes,
    PdbNeed, DEFAULT_PARTIAL_MEMORY,
};
#[cfg(test)]
pub(crate) use memory::{zcpdb_build_bytes, zpdb_build_bytes};
pub use options::{
    HeuristicChoice, Method, Plan, SolveOptions, FALLBACK_WEIGHTS, FAST_DEFAULT_CELLS, MAX_WEIGHT,
    MIXED_SUMS_FROM_CELLS, TRIAL_NODES,
};
pub(crate) use solution::to_json;
pub use solution::{Answer, Listing, Outcome, Solution};
pub use split::{SplitThreshold, SubtreeResult};
pub use stats::Stats;

use loaded::{PdbKey, BUILD_HERE, READ_IN_ABOVE, TABLE_SHAPES};
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
    /// [`Solver::read_in_above`].
    read_in_above: Option<u64>,
    index_choice: IndexChoice,
    /// [`Solver::pdb_index`]'s answers by shape, pattern size and layout (its memory check builds a region index).
    indexes: Mutex<HashMap<(Shape, usize, PdbLayout), PdbIndex>>,
    /// [`Solver::partition_for`]'s answer for the 5 × 5 default: whether the pair fits the memory budget.
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
    /// A solver using the default cache directory and reporting nothing.
    pub fn new() -> Solver {
        Solver::with_options(CacheDir::Default, Arc::new(NoProgress))
    }

    /// A solver with a cache directory and a progress receiver.
    pub fn with_options(cache_dir: CacheDir, progress: Arc<dyn Progress + Send>) -> Solver {
        Solver::with_store(cache_dir.store(), progress)
    }

    /// A solver that keeps its tables and pattern databases in `store` (none: built in memory every time), and
    /// reports long work to `progress`.
    pub fn with_store(store: Option<Arc<dyn Store>>, progress: Arc<dyn Progress + Send>) -> Solver {
        let tables = (0..Metric::ALL.len() * TABLE_SHAPES.len() * MAX_TABLE_CELLS)
            .map(|_| OnceLock::new())
            .collect();
        Solver {
            store,
            progress,
            tables,
            building: Mutex::new(()),
            building_small: Mutex::new(()),
            cache_from_cells: DEFAULT_CACHE_FROM_CELLS,
            pdbs: Mutex::new(HashMap::new()),
            labels: Mutex::new(HashMap::new()),
            partials: Mutex::new(HashMap::new()),
            max_memory: None,
            map_files: false,
            read_in_above: Some(READ_IN_ABOVE),
            index_choice: IndexChoice::Auto,
            indexes: Mutex::new(HashMap::new()),
            pair_fits: Mutex::new(None),
        }
    }

    /// Which pattern databases take the sparse index ([`PdbIndex::Sparse`]): by default ([`IndexChoice::Auto`]) a
    /// database whose sparse table has at most [`SPARSE_MAX_ENTRIES`] 4-bit entries or as many bytes, or at most
    /// [`SPARSE_MAX_WIDE_BYTES`] and twice the dense table's bytes (the 24-puzzle's blank-bit 6 tiles), and whose
    /// build fits [`Solver::max_memory`]. Such a database is kept by `sum c_i n^i` of its tiles' cells (files of kind
    /// `spdb`, `zcspdb`, made from the dense ones), so that the search keeps each pattern's index move by move
    /// instead of ranking every child: for 1.9 to 2.9 times the dense table's memory (6 tiles of the 24- and
    /// 15-puzzle), about 0.8 times the search time. [`IndexChoice::Dense`] keeps every database dense (to measure
    /// one against the other, or to save that memory); [`IndexChoice::Sparse`] makes every one sparse that has a
    /// sparse form and fits the budget.
    pub fn pdb_index_choice(mut self, choice: IndexChoice) -> Solver {
        self.index_choice = choice;
        self.indexes = Mutex::new(HashMap::new());
        self.pair_fits = Mutex::new(None);
        self
    }

    /// Refuses, up front, any table or pattern-database build that would need more than `bytes` of memory.
    pub fn max_memory(mut self, bytes: u64) -> Solver {
        self.max_memory = Some(bytes);
        self.indexes = Mutex::new(HashMap::new());
        self.pair_fits = Mutex::new(None);
        self
    }

    /// Maps cached table and pattern-database files read-only into memory instead of reading them
    /// ([`Store::map`], [`cache::map`]), and maps what it builds once saved: processes of one machine that map the
    /// same files share one copy of them (the page cache), however many they are — for example the worker
    /// processes of a Ray node — and start at once when the files are cached. A file's checksum is verified the
    /// first time it is mapped and the store records that ([`Store::set_verified`]): a file unchanged since is not
    /// hashed again; a changed or damaged one is verified, and rebuilt when it fails. Lookups may be a little slower
    /// than in memory of the process's own (the mapping asks for huge pages, which the kernel gives only where it keeps
    /// files in huge folios, as Linux 6.x does on ext4); the MTM label table, whose search is bound by its
    /// random reads, is read into the process's memory all the same. The command line turns this on.
    pub fn map_files(mut self, on: bool) -> Solver {
        self.map_files = on;
        self
    }

    /// With [`Solver::map_files`], the size above which blank-cell and blank-bit database files (kinds `zcpdb`,
    /// `zbpdb` and their sparse forms) are still read into the process's own memory: `Some(256 MiB)` by default,
    /// since their random lookups can be slower from a mapping than from memory of the process's own (measurements
    /// in docs/lab and docs/korf24.md). `None` maps them whatever their size: for many processes on one machine,
    /// which then share one copy instead of one each — the 5 × 5 default's `zbdefault` is 3.9 GB per process read
    /// in — and start at once instead of reading gigabytes in (the Python package asks for this with its mapped
    /// files, for slide.ray's workers, and the command line for every command but `bench`).
    ///
    /// ```
    /// use slide::{CacheDir, NoProgress, Solver};
    /// let shared = Solver::with_options(CacheDir::None, std::sync::Arc::new(NoProgress))
    ///     .map_files(true)
    ///     .read_in_above(None);
    /// # let _ = shared;
    /// ```
    pub fn read_in_above(mut self, bytes: Option<u64>) -> Solver {
        self.read_in_above = bytes;
        self
    }

    /// Runs `work` on the current thread with any table or database build it starts kept on the current thread
    /// and rayon pool (and its progress reported from there), for a pool given over to builds, such as a server's
    /// warm-up pool. Elsewhere, a build started from a pool's worker runs on a thread and pool of its own, since the
    /// worker could otherwise take other work of its pool that waits for the same build and deadlock; so call this
    /// only where the pool runs nothing else that may need a table.
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

    /// Caches tables of at least `cells` cells on disk (default [`DEFAULT_CACHE_FROM_CELLS`]); tests use small
    /// shapes to exercise the cache quickly.
    pub fn cache_from_cells(mut self, cells: usize) -> Solver {
        self.cache_from_cells = cells;
        self
    }

    /// The process-wide solver used by [`crate::sliding_puzzle`] (default cache directory, silent).
    pub fn global() -> &'static Solver {
        static GLOBAL: OnceLock<Solver> = OnceLock::new();
        GLOBAL.get_or_init(Solver::new)
    }

    /// Where table files go, if anywhere.
    pub fn store(&self) -> Option<&Arc<dyn Store>> {
        self.store.as_ref()
    }

    /// The least number of moves from `board` to `goal`, or -1 when it cannot be reached.
    ///
    /// Exact for every shape with a complete table (at most 12 cells) and for single rows and columns of any length.
    pub fn distance(&self, board: &Board, goal: &Board) -> Result<i64> {
        self.distance_in(board, goal, Metric::Stm)
    }

    /// The least number of moves in `metric` from `board` to `goal`, or -1 when it cannot be reached. In MTM only
    /// boards of at most 12 cells and single rows and columns are answered (else [`Error::InvalidOption`]).
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
            return Err(Error::ShapeMismatch {
                board: shape,
                goal: goal.shape(),
            });
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
        let shape = board.shape();
        let plan = self.plan(board, goal, opts)?;
        if let Some(reason) = board.unsolvable_reason(goal)? {
            let mut s = Solution::unsolvable(reason, plan);
            s.metric = opts.metric;
            return Ok(s);
        }
        let heuristic = match plan {
            // On a line every move goes the same way: one run, so optimal in both metrics.
            Plan::Line => {
                return Solution::optimal(line_moves(board, goal), 0, plan)
                    .in_metric(opts.metric, board)
            }
            Plan::Fast => return self.solve_fast(board, goal),
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
