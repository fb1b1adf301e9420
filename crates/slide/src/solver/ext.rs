//! [`SolverExt`]: the solver's engine room for researchers (`slide::engine::SolverExt`): the tables and databases
//! it keeps, what its memory budget chooses, and the distributed split of a search.

use std::sync::Arc;

use crate::board::frame::Frame;
use crate::board::{Board, Shape, Tile};
use crate::error::Result;
use crate::exact::table::CompleteTable;
use crate::metric::Metric;
use crate::search::heuristic::PdbSet;
use crate::search::mtm::LabelTables;
use crate::search::partial::{PartialKey, PartialTable};
use crate::search::partition::PartitionSpec;
use crate::search::pdb::{Pdb, PdbIndex, PdbLayout};
use crate::store::Store;
#[cfg(doc)]
use crate::{engine::pdb_needs_memory, SolverBuilder};

use super::memory::PdbNeed;
use super::split::{SplitThreshold, SubtreeResult};
use super::{SolveOptions, Solver};

mod sealed {
    /// Only [`Solver`](crate::Solver) implements [`SolverExt`](super::SolverExt).
    pub trait Sealed {}
    impl Sealed for crate::Solver {}
}

/// What a [`Solver`] keeps and decides inside, for search researchers: complete tables, pattern databases, label
/// tables and partial goals' tables (each loaded from the solver's store or built and saved, once per solver), the
/// partitions and indexes its memory budget chooses, and one threshold of a search cut into subtrees for other
/// processes. Part of [`slide::engine`](crate::engine): less stable than the solver's own methods.
///
/// ```
/// use slide::engine::SolverExt;
/// use slide::{Board, Metric, Solver};
/// let goal = Board::goal("2x3".parse().unwrap());
/// let solver = Solver::global();
/// let table = solver.table(goal.shape(), 5, Metric::Stm).unwrap();
/// assert_eq!(table.distance(&[5, 0, 1, 2, 3, 4]), Some(0)); // the cells of the blank and of tiles 1 to 5
/// assert!(solver.table_ready(&goal, Metric::Stm));
/// ```
pub trait SolverExt: sealed::Sealed {
    /// Where table files go, if anywhere ([`SolverBuilder::cache_dir`], [`SolverBuilder::store`]).
    fn store(&self) -> Option<&Arc<dyn Store>>;

    /// The complete table of `metric` for a canonical shape (`rows <= cols`, both ≥ 2, at most 12 cells) and goal
    /// blank cell: built in memory below [`SolverBuilder::cache_from_cells`] cells; larger ones loaded from the
    /// store, or built and saved there.
    fn table(&self, shape: Shape, blank: usize, metric: Metric) -> Result<&Arc<CompleteTable>>;

    /// True when the complete table of `metric` for `goal` is in memory (no load or build needed).
    fn table_ready(&self, goal: &Board, metric: Metric) -> bool;

    /// True when every pattern database of `spec` for `goal` is in memory (no load or build needed).
    fn pdbs_ready(&self, goal: &Board, spec: &PartitionSpec) -> bool;

    /// The partitions `spec` stands for in a search towards the goal of `frame`: `spec` itself, except the
    /// default ([`PartitionSpec::Default`]) on 5 × 5 with the blank's goal in a corner. There it is the pair
    /// `zbdefault|zbalt` ([`PartitionSpec::Either`]: the blank-bit 6-6-6-6 and the second layout,
    /// [`PartitionSpec::Alternate`], one chosen per board by a trial of the first iterations) when
    /// [`SolverBuilder::max_memory`] allows its databases ([`pdb_needs_memory`]): 6 tables of 977 MB with the
    /// sparse index (5.9 GB), built from nothing in about 2 minutes of two cores, which solved 30 of Korf & Felner's
    /// 50 instances within 10 minutes each on one core against plain 6-6-6-6's 22 (docs/korf24.md). Under a smaller
    /// budget, plain 6-6-6-6 (488 MB).
    ///
    /// ```
    /// use slide::engine::{frame::Frame, SolverExt};
    /// use slide::{Board, CacheDir, PartitionSpec, Solver};
    /// let five = Frame::new(&Board::goal_blank_first("5x5".parse().unwrap()));
    /// let four = Frame::new(&Board::goal("4x4".parse().unwrap()));
    /// let d = PartitionSpec::Default;
    /// assert_eq!(Solver::global().partition_for(&five, &d).to_string(), "zbdefault|zbalt");
    /// assert_eq!(Solver::global().partition_for(&four, &d), d);
    /// let small = Solver::builder().cache_dir(CacheDir::None).max_memory(1 << 30).build();
    /// assert_eq!(small.partition_for(&five, &d), d);
    /// ```
    fn partition_for(&self, frame: &Frame, spec: &PartitionSpec) -> PartitionSpec;

    /// The index a database of `k` tiles of `shape` in `layout` takes ([`SolverBuilder::pdb_index`]).
    fn pdb_index(&self, shape: Shape, k: usize, layout: PdbLayout) -> PdbIndex;

    /// The distinct pattern databases the partitions of `spec` need on the goal of `frame` (a database that two
    /// partitions share counted once), in the order the search loads them, with what each costs under this
    /// solver's index choice and memory budget. `tile_cell` maps a tile of the user's goal to its canonical goal
    /// cell (for [`PartitionSpec::Tiles`]).
    ///
    /// ```
    /// use slide::engine::{frame::Frame, SolverExt};
    /// use slide::{Board, CacheDir, PartitionSpec, Solver};
    /// let goal = Board::goal_blank_first("5x5".parse().unwrap());
    /// let frame = Frame::new(&goal);
    /// let solver = Solver::builder().cache_dir(CacheDir::None).build();
    /// let needs = solver.pdb_needs(&frame, &PartitionSpec::Default, |_| None).unwrap();
    /// assert_eq!(needs.len(), 6); // the pair: 4 + 4 blocks, 2 of them shared
    /// assert_eq!(needs.iter().map(|n| n.bytes).sum::<u64>(), 6 * 976_562_500);
    /// ```
    fn pdb_needs(
        &self,
        frame: &Frame,
        spec: &PartitionSpec,
        tile_cell: impl Fn(Tile) -> Option<usize>,
    ) -> Result<Vec<PdbNeed>>;

    /// One pattern database of a canonical shape and goal (its blank's cell), by its goal cells, in `layout`:
    /// plain (files of kind `pdb`), zero-aware by region (`zpdb`), by the blank's cell (`zcpdb`, made from the
    /// `zpdb` one, which is loaded or built and cached first) or blank-bit (`zbpdb`); loaded from the store or
    /// built (and saved).
    fn pdb(&self, shape: Shape, blank: usize, cells: &[u8], layout: PdbLayout) -> Result<Arc<Pdb>>;

    /// The pattern databases of one partition for `goal`, loaded from the store or built (and saved).
    fn pdb_set(&self, goal: &Board, frame: &Frame, spec: &PartitionSpec) -> Result<PdbSet>;

    /// The pattern databases of every partition `spec` names (several for [`PartitionSpec::Max`] and
    /// [`PartitionSpec::Either`], and for the default where it is a pair: [`SolverExt::partition_for`]).
    fn pdb_sets(&self, goal: &Board, frame: &Frame, spec: &PartitionSpec) -> Result<Vec<PdbSet>>;

    /// The MTM label tables for `goal`'s shape and blank cell (rows, and columns as the transposed shape's rows),
    /// loaded from the store or built (and saved).
    fn label_tables(&self, goal: &Board) -> Result<LabelTables>;

    /// The table of a partial goal: loaded from the store, or built (after checking its memory need against the
    /// budget) and saved there; concurrent first callers wait for one build.
    fn partial_table(&self, key: &PartialKey) -> Result<Arc<PartialTable>>;

    /// One threshold of the optimal search from `board` to `goal`, cut into at least `want` subtrees (when the tree
    /// has that many nodes within the threshold) as [`crate::engine::ida::ida_star_parallel`] cuts it for threads,
    /// for other processes or machines to search with [`SolverExt::search_subtree`]. `threshold`: `None` for the
    /// first (the start's estimate). The heuristic and move pruning are those of `opts`; its limits do not apply
    /// here.
    ///
    /// A driver searches every subtree of a threshold, stops at the first threshold where one finds a solution
    /// (optimal: every shorter one was ruled out by the earlier thresholds) and otherwise goes on with
    /// [`SplitThreshold::next_threshold`] lowered to the least of the subtrees' `next_threshold`s.
    ///
    /// ```
    /// use slide::engine::{SolverExt, SubtreeResult};
    /// use slide::{Board, Solver, SolveOptions};
    /// let b = Board::parse("[[1,2,3],[4,0,6],[7,5,8]]").unwrap();
    /// let (g, opts, solver) = (Board::goal(b.shape()), SolveOptions::default(), Solver::global());
    /// let mut threshold = None;
    /// let moves = loop {
    ///     let split = solver.split_threshold(&b, &g, &opts, threshold, 4).unwrap();
    ///     if let Some(m) = split.solution { break m; }
    ///     let (mut next, mut found) = (split.next_threshold, None);
    ///     for root in &split.subtrees {
    ///         match solver.search_subtree(&b, &g, &opts, split.threshold, root).unwrap() {
    ///             SubtreeResult::Solved { moves, .. } => found = found.or(Some(moves)),
    ///             SubtreeResult::Exhausted { next_threshold, .. } => next = next.min(next_threshold).or(next).or(next_threshold),
    ///             SubtreeResult::Stopped { .. } => unreachable!("no limits"),
    ///         }
    ///     }
    ///     if let Some(m) = found { break m; }
    ///     threshold = next;
    /// };
    /// assert_eq!(moves, vec![5, 8]);
    /// ```
    fn split_threshold(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        threshold: Option<u64>,
        want: usize,
    ) -> Result<SplitThreshold>;

    /// Searches one subtree of a threshold that [`SolverExt::split_threshold`] cut: `root` is the moves (tiles)
    /// from `board` to the subtree's root, `threshold` the threshold; the limits of `opts` (nodes, time, cancel
    /// flag) apply to this subtree.
    fn search_subtree(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        threshold: u64,
        root: &[Tile],
    ) -> Result<SubtreeResult>;
}

impl SolverExt for Solver {
    fn store(&self) -> Option<&Arc<dyn Store>> {
        self.store.as_ref()
    }

    #[inline]
    fn table(&self, shape: Shape, blank: usize, metric: Metric) -> Result<&Arc<CompleteTable>> {
        Solver::table_in(self, shape, blank, metric)
    }

    fn table_ready(&self, goal: &Board, metric: Metric) -> bool {
        Solver::table_ready_in(self, goal, metric)
    }

    fn pdbs_ready(&self, goal: &Board, spec: &PartitionSpec) -> bool {
        Solver::pdbs_ready(self, goal, spec)
    }

    fn partition_for(&self, frame: &Frame, spec: &PartitionSpec) -> PartitionSpec {
        Solver::partition_for(self, frame, spec)
    }

    fn pdb_index(&self, shape: Shape, k: usize, layout: PdbLayout) -> PdbIndex {
        Solver::pdb_index(self, shape, k, layout)
    }

    fn pdb_needs(
        &self,
        frame: &Frame,
        spec: &PartitionSpec,
        tile_cell: impl Fn(Tile) -> Option<usize>,
    ) -> Result<Vec<PdbNeed>> {
        Solver::pdb_needs(self, frame, spec, tile_cell)
    }

    fn pdb(&self, shape: Shape, blank: usize, cells: &[u8], layout: PdbLayout) -> Result<Arc<Pdb>> {
        Solver::pdb_in(self, shape, blank, cells, layout)
    }

    fn pdb_set(&self, goal: &Board, frame: &Frame, spec: &PartitionSpec) -> Result<PdbSet> {
        Solver::pdb_set(self, goal, frame, spec)
    }

    fn pdb_sets(&self, goal: &Board, frame: &Frame, spec: &PartitionSpec) -> Result<Vec<PdbSet>> {
        Solver::pdb_sets(self, goal, frame, spec)
    }

    fn label_tables(&self, goal: &Board) -> Result<LabelTables> {
        Solver::label_tables(self, goal)
    }

    fn partial_table(&self, key: &PartialKey) -> Result<Arc<PartialTable>> {
        Solver::partial_table(self, key)
    }

    fn split_threshold(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        threshold: Option<u64>,
        want: usize,
    ) -> Result<SplitThreshold> {
        Solver::split_threshold(self, board, goal, opts, threshold, want)
    }

    fn search_subtree(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        threshold: u64,
        root: &[Tile],
    ) -> Result<SubtreeResult> {
        Solver::search_subtree(self, board, goal, opts, threshold, root)
    }
}
