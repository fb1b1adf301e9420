//! The solver: picks the method for a board's shape, loads or builds what it needs, and answers.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::board::frame::Frame;
use crate::board::{Board, Direction, Pattern, Shape, Tile};
use crate::error::{Error, Result};
use crate::exact::cache::{self, Meta};
use crate::exact::packed::PackedTable;
use crate::exact::table::{CompleteTable, Encoding, FullSpace, MAX_TABLE_CELLS};
use crate::metric::Metric;
use crate::progress::{NoProgress, Progress};
use crate::search::heuristic::{
    Eval, Geometry, LinearConflict, Manhattan, PatternManhattan, PdbEval, PdbMax, PdbSet,
    MAX_SEARCH_CELLS,
};
use crate::search::mtm::{LabelTable, Layout};
use crate::search::partial::{PartialKey, PartialTable};
use crate::search::partition::{self, PartitionSpec};
use crate::search::pdb::{
    IndexChoice, PatternSpace, Pdb, PdbIndex, PdbLayout, PDB_BITS, SPARSE_MAX_ENTRIES,
    SPARSE_MAX_WIDE_BYTES,
};
use crate::search::pruning::MovePruner;
use crate::search::{
    ida_star, ida_star_parallel, search_subtree, split_threshold, Frontier, Limits, Outcome,
    Subtree,
};
use crate::store::{FileStore, Store};

/// An answer: the moves (each the tile that slides into the blank), or why there are none.
///
/// The moves are always single-tile moves; [`Solution::metric`] says how they are counted. In MTM an optimal
/// solution's [`length`](Solution::length) and [`distance`](Solution::distance) are its number of multi-tile moves:
/// the number of maximal runs of one direction in `moves` ([`crate::Moves::mtm_len`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Solution {
    /// The moves in order; `None` when the goal cannot be reached, or when a limit stopped the search first.
    pub moves: Option<Vec<Tile>>,
    /// How the moves are counted (the metric they are optimal in, when `optimal`).
    pub metric: Metric,
    /// The number of moves in `metric`, when it is not `moves.len()` (MTM).
    counted: Option<usize>,
    /// Why the goal cannot be reached.
    pub unsolvable_reason: Option<String>,
    /// True when the answer is proven: the moves are least in number, or the goal is proven unreachable.
    pub optimal: bool,
    /// A proven lower bound on the least number of moves (equal to it when `optimal`).
    pub lower_bound: u64,
    /// For bounded-suboptimal search: the moves are at most this factor times the least number.
    pub within: Option<f64>,
    /// Search nodes generated (0 for table lookups).
    pub nodes: u64,
    /// The search heuristic's estimate of the start, a lower bound on the least number of moves (0 for table
    /// lookups and fast mode).
    pub estimate: u64,
    /// The method that answered ([`Solver::plan`]'s choice).
    pub plan: Plan,
}

impl Solution {
    fn unsolvable(reason: String, plan: Plan) -> Solution {
        Solution {
            moves: None,
            metric: Metric::Stm,
            counted: None,
            unsolvable_reason: Some(reason),
            optimal: true,
            lower_bound: 0,
            within: None,
            nodes: 0,
            estimate: 0,
            plan,
        }
    }

    /// A search that a limit stopped: no moves, the optimum proven at least `lower_bound`.
    fn stopped(lower_bound: u32, nodes: u64, estimate: u32, plan: Plan) -> Solution {
        Solution {
            moves: None,
            metric: Metric::Stm,
            counted: None,
            unsolvable_reason: None,
            optimal: false,
            lower_bound: lower_bound as u64,
            within: None,
            nodes,
            estimate: estimate as u64,
            plan,
        }
    }

    fn optimal(moves: Vec<Tile>, nodes: u64, plan: Plan) -> Solution {
        let lower_bound = moves.len() as u64;
        Solution {
            moves: Some(moves),
            metric: Metric::Stm,
            counted: None,
            unsolvable_reason: None,
            optimal: true,
            lower_bound,
            within: None,
            nodes,
            estimate: 0,
            plan,
        }
    }

    /// A solution from a known move sequence (for example from [`crate::fast`]), proven least or not.
    pub fn from_moves(moves: Vec<Tile>, optimal: bool) -> Solution {
        let lower_bound = if optimal { moves.len() as u64 } else { 0 };
        Solution {
            moves: Some(moves),
            metric: Metric::Stm,
            counted: None,
            unsolvable_reason: None,
            optimal,
            lower_bound,
            within: None,
            nodes: 0,
            estimate: 0,
            plan: Plan::Fast,
        }
    }

    /// The same answer with its moves counted in `metric`: multi-tile moves are counted by replaying the moves from
    /// `board`. The caller vouches for optimality in `metric` (an STM-optimal sequence need not be MTM-optimal).
    fn in_metric(mut self, metric: Metric, board: &Board) -> Result<Solution> {
        self.metric = metric;
        self.counted = match (&self.moves, metric) {
            (Some(m), Metric::Mtm) => Some(crate::notation::Moves::from_tiles(board, m)?.mtm_len()),
            _ => None,
        };
        if self.optimal {
            self.lower_bound = self.length().unwrap_or(0) as u64;
        }
        Ok(self)
    }

    /// The proven least number of moves (in [`Solution::metric`]), `Some(-1)` when the goal is proven unreachable, and `None` when neither is
    /// proven: a limit stopped the search, or the moves found are not proven least (bounded-suboptimal search, fast
    /// mode; [`Solution::length`] gives their number).
    ///
    /// ```
    /// use slide::{Board, Solver};
    /// let b = Board::parse("[[1,2,3],[5,4,0]]").unwrap();
    /// assert_eq!(Solver::global().solve(&b, &Board::goal(b.shape())).unwrap().distance(), Some(-1));
    /// ```
    pub fn distance(&self) -> Option<i64> {
        match &self.moves {
            _ if self.is_unsolvable() => Some(-1),
            Some(_) if self.optimal => self.length().map(|n| n as i64),
            _ => None,
        }
    }

    /// The number of moves found (in [`Solution::metric`]: multi-tile moves in MTM), proven least or not; `None`
    /// when there are none (unsolvable, or stopped first).
    ///
    /// ```
    /// use slide::{Board, Metric, Moves, SolveOptions, Solver};
    /// let b = Board::parse("1 2 3/4 5 6/0 7 8").unwrap();
    /// let opts = SolveOptions { metric: Metric::Mtm, ..Default::default() };
    /// let s = Solver::global().solve_with(&b, &Board::goal(b.shape()), &opts).unwrap();
    /// assert_eq!(s.moves.as_deref(), Some(&[7, 8][..])); // two single-tile moves...
    /// assert_eq!((s.length(), s.distance()), (Some(1), Some(1))); // ...one multi-tile move
    /// assert_eq!(Moves::from_tiles(&b, &[7, 8]).unwrap().mtm_len(), 1);
    /// ```
    pub fn length(&self) -> Option<usize> {
        let m = self.moves.as_ref()?;
        Some(self.counted.unwrap_or(m.len()))
    }

    /// True when the goal is proven unreachable.
    pub fn is_unsolvable(&self) -> bool {
        self.unsolvable_reason.is_some()
    }

    /// True when the goal can be reached (proven by a solution or by parity).
    pub fn is_solvable(&self) -> bool {
        self.unsolvable_reason.is_none()
    }

    /// The blank's directions for the moves, replayed from `board` (empty when unsolvable).
    ///
    /// ```
    /// use slide::{Board, Solver};
    /// let b = Board::parse("[[1,2,3],[4,0,5]]").unwrap();
    /// let s = Solver::global().solve(&b, &Board::goal(b.shape())).unwrap();
    /// let letters: String = s.directions(&b).unwrap().iter().map(|d| d.letter()).collect();
    /// assert_eq!(letters, "R");
    /// ```
    pub fn directions(&self, board: &Board) -> Result<Vec<Direction>> {
        let tiles = self.moves.as_deref().unwrap_or_default();
        crate::notation::Moves::from_tiles(board, tiles)
            .map(crate::notation::Moves::into_directions)
    }
}

/// Canonical shapes that have complete tables, in slot order (each in both metrics: STM slots first).
const TABLE_SHAPES: [(usize, usize); 7] = [(2, 2), (2, 3), (2, 4), (2, 5), (2, 6), (3, 3), (3, 4)];

#[inline]
fn slot(shape: Shape, blank: usize) -> Option<usize> {
    let i = match (shape.rows(), shape.cols()) {
        (2, 2) => 0,
        (2, 3) => 1,
        (2, 4) => 2,
        (2, 5) => 3,
        (2, 6) => 4,
        (3, 3) => 5,
        (3, 4) => 6,
        _ => return None,
    };
    debug_assert_eq!(TABLE_SHAPES[i], (shape.rows(), shape.cols()));
    (blank < shape.cells()).then_some(i * MAX_TABLE_CELLS + blank)
}

/// The slot of a table of `metric`.
#[inline]
fn metric_slot(shape: Shape, blank: usize, metric: Metric) -> Option<usize> {
    let per_metric = TABLE_SHAPES.len() * MAX_TABLE_CELLS;
    slot(shape, blank).map(|i| match metric {
        Metric::Stm => i,
        Metric::Mtm => per_metric + i,
    })
}

/// Where tables and pattern databases are kept between runs, for [`Solver::with_options`] (any other
/// [`Store`]: [`Solver::with_store`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CacheDir {
    /// The platform's cache directory ([`FileStore::platform`]; on Linux `$XDG_CACHE_HOME/slide` or
    /// `~/.cache/slide`).
    Default,
    /// This directory.
    At(PathBuf),
    /// Nowhere: build in memory every time.
    None,
}

impl CacheDir {
    /// The store this names.
    pub fn store(&self) -> Option<Arc<dyn Store>> {
        match self {
            CacheDir::Default => FileStore::platform().map(|s| Arc::new(s) as Arc<dyn Store>),
            CacheDir::At(dir) => Some(Arc::new(FileStore::new(dir))),
            CacheDir::None => None,
        }
    }
}

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

/// A loaded pattern database's key: canonical shape, goal blank cell, the pattern's goal cells, entry layout and
/// index.
type PdbKey = (Shape, usize, Vec<u8>, PdbLayout, PdbIndex);

/// Memory a complete-table build needs: a byte per state while searching, then the packed table.
pub fn table_build_bytes(shape: Shape) -> u64 {
    let states =
        crate::exact::rank::PartialRanker::new(shape.cells(), shape.cells().saturating_sub(2))
            .map_or(u64::MAX, |r| r.size());
    let bits = if shape.cells() <= 10 { 8 } else { 2 };
    states.saturating_add(states.saturating_mul(bits) / 8)
}

/// Memory a pattern-database build needs, by the method [`Pdb::build_within`] takes under `budget` (`None`: the
/// default budget, [`crate::search::pdb::BYTE_BUILD_BUDGET`]). The byte build, when it fits the budget: a byte
/// per zero-aware entry, then the plain table (4 bits per placement;
/// [`crate::search::pdb::byte_build_bytes`]). Else the compact zero-aware build: two bits and four per zero-aware
/// entry while it searches, then its four bits and the plain table's. Else (patterns the zero-aware index does
/// not take) two bits per placement of the pattern and the blank (the compact search), then a bit and 4 bits per
/// placement of the pattern (placements reached, the entries).
pub fn pdb_build_bytes(shape: Shape, k: usize, budget: Option<u64>) -> u64 {
    let n = shape.cells();
    let placements = crate::exact::rank::PartialRanker::new(n, k).map_or(u64::MAX, |r| r.size());
    if k + 2 <= n {
        if let Ok(z) = crate::search::pdb::ZeroIndex::shared(shape, k) {
            if let Some(bytes) = crate::search::pdb::byte_build_taken(shape, k, false, budget) {
                return bytes;
            }
            let entries = z.size() / 2;
            return (z.size() / 4 + entries).max(entries.saturating_add(placements / 2));
        }
    }
    let with_blank =
        crate::exact::rank::PartialRanker::new(n, k + 1).map_or(u64::MAX, |r| r.size());
    (with_blank / 4).saturating_add(placements / 8 + placements / 2)
}

/// Memory a zero-aware pattern-database build needs under `budget` (as [`pdb_build_bytes`]): the byte build's
/// when it fits (a byte per entry, then the entries' 4 bits), else two bits (the compact search) and four (the
/// entries) per entry, placements times the blank's regions (`u64::MAX` when the pattern is too large to index).
pub fn zpdb_build_bytes(shape: Shape, k: usize, budget: Option<u64>) -> u64 {
    if let Some(bytes) = crate::search::pdb::byte_build_taken(shape, k, true, budget) {
        return bytes;
    }
    crate::search::pdb::ZeroIndex::shared(shape, k)
        .map_or(u64::MAX, |z| z.size() / 4 + z.size() / 2)
}

/// Memory a zero-aware pattern database in the blank-cell layout ([`Pdb::zero_cells`]) needs under `budget`: the
/// zero-aware build's ([`zpdb_build_bytes`]), or the region-layout table and the blank-cell one side by side when
/// that is more (`u64::MAX` when the pattern is too large to index).
pub fn zcpdb_build_bytes(shape: Shape, k: usize, budget: Option<u64>) -> u64 {
    let (Ok(z), Some(ranker)) = (
        crate::search::pdb::ZeroIndex::shared(shape, k),
        crate::exact::rank::PartialRanker::new(shape.cells(), k),
    ) else {
        return u64::MAX;
    };
    let cells = PdbLayout::ZeroCells
        .entries(shape.cells(), k, ranker.size(), None)
        .map_or(u64::MAX, |e| e / 2);
    zpdb_build_bytes(shape, k, budget).max(cells.saturating_add(z.size() / 2))
}

/// The size above which the zero-aware blank-cell and blank-bit database files (kinds `zcpdb`, `zbpdb` and their
/// sparse forms) are read into the process's own memory rather than mapped by default: 256 MiB (see
/// `Solver::cached`, [`Solver::read_in_above`]).
const READ_IN_ABOVE: u64 = 256 << 20;

/// Memory a zero-aware pattern database in the blank-bit layout ([`Pdb::zero_bits`]) needs under `budget`: the
/// zero-aware build's (`zpdb_build_bytes`), or the region-layout table and the blank-bit one side by side when
/// that is more (`u64::MAX` when the pattern is too large to index).
pub fn zbpdb_build_bytes(shape: Shape, k: usize, budget: Option<u64>) -> u64 {
    let (Ok(z), Some(ranker), Some(bits)) = (
        crate::search::pdb::ZeroIndex::shared(shape, k),
        crate::exact::rank::PartialRanker::new(shape.cells(), k),
        PdbLayout::ZeroBits.bits(shape.cells(), k),
    ) else {
        return u64::MAX;
    };
    let table = ranker.size().saturating_mul(bits as u64) / 8;
    zpdb_build_bytes(shape, k, budget).max(table.saturating_add(z.size() / 2))
}

/// Bytes of a table of `entries` entries in `layout` for `k` tiles on `n` cells (`u64::MAX` when it has none).
fn table_bytes(layout: PdbLayout, n: usize, k: usize, entries: Option<u64>) -> u64 {
    match (entries, layout.bits(n, k)) {
        (Some(e), Some(b)) => e.saturating_mul(b as u64) / 8,
        _ => u64::MAX,
    }
}

/// Memory a sparse-index pattern database ([`Pdb::sparse`]) of `k` tiles in `layout` needs under `budget`: the
/// dense database's build ([`pdb_build_bytes`], [`zcpdb_build_bytes`]), or the dense table and the sparse one side
/// by side when that is more (`u64::MAX` when the layout has no sparse form or the pattern is too large).
pub fn spdb_build_bytes(shape: Shape, k: usize, layout: PdbLayout, budget: Option<u64>) -> u64 {
    let n = shape.cells();
    let sparse = table_bytes(layout, n, k, PdbIndex::Sparse.entries(layout, n, k, None));
    let dense = table_bytes(layout, n, k, PdbIndex::Dense.entries(layout, n, k, None));
    if sparse == u64::MAX || dense == u64::MAX {
        return u64::MAX;
    }
    let build = match layout {
        PdbLayout::ZeroCells => zcpdb_build_bytes(shape, k, budget),
        PdbLayout::ZeroBits => zbpdb_build_bytes(shape, k, budget),
        _ => pdb_build_bytes(shape, k, budget),
    };
    build.max(sparse.saturating_add(dense))
}

/// Memory the build of a pattern database of `k` tiles of `shape` in `layout` with `index` needs under `budget`
/// (from nothing: the databases it is made from included).
fn pdb_build_need(
    shape: Shape,
    k: usize,
    (layout, index): (PdbLayout, PdbIndex),
    budget: Option<u64>,
) -> u64 {
    match (layout, index) {
        (_, PdbIndex::Sparse) => spdb_build_bytes(shape, k, layout, budget),
        (PdbLayout::Plain, _) => pdb_build_bytes(shape, k, budget),
        (PdbLayout::Zero, _) => zpdb_build_bytes(shape, k, budget),
        (PdbLayout::ZeroCells, _) => zcpdb_build_bytes(shape, k, budget),
        (PdbLayout::ZeroBits, _) => zbpdb_build_bytes(shape, k, budget),
    }
}

/// One pattern database a partition needs ([`Solver::pdb_needs`]): which, and what it costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdbNeed {
    /// The pattern's goal cells in the canonical frame.
    pub cells: Vec<u8>,
    /// Its layout.
    pub layout: PdbLayout,
    /// Its index, as the solver chooses it ([`Solver::pdb_index`]).
    pub index: PdbIndex,
    /// Bytes of its table in memory.
    pub bytes: u64,
    /// Bytes its build needs at the peak, from nothing (the databases it is made from included).
    pub build_bytes: u64,
    /// States its build searches: the placements of its tiles and the blank.
    pub states: u64,
}

/// Memory that loading or building `needs` one after the other needs at most: every table held, and the largest
/// build's excess over its own table on top (`u64::MAX` when one cannot be built).
///
/// ```
/// use slide::engine::{frame::Frame, pdb_needs_memory};
/// use slide::{Board, NoProgress, PartitionSpec, Solver};
/// let frame = Frame::new(&Board::goal_blank_first("5x5".parse().unwrap()));
/// let needs = Solver::with_store(None, std::sync::Arc::new(NoProgress)).pdb_needs(&frame, &PartitionSpec::Default, |_| None).unwrap();
/// let gb = pdb_needs_memory(&needs) as f64 / 1e9;
/// assert!((5.9..7.0).contains(&gb), "{gb}"); // the 5 × 5 pair: 6.2 GB peak measured
/// ```
pub fn pdb_needs_memory(needs: &[PdbNeed]) -> u64 {
    let held = needs.iter().fold(0u64, |s, d| s.saturating_add(d.bytes));
    let excess = needs
        .iter()
        .map(|d| d.build_bytes.saturating_sub(d.bytes))
        .max()
        .unwrap_or(0);
    held.saturating_add(excess)
}

/// Memory a partial goal's table build needs: a byte per abstract state while searching, then at most a byte per
/// state packed (`u64::MAX` when the states cannot be counted in a `u64`).
pub fn partial_build_bytes(key: &PartialKey) -> u64 {
    key.states().map_or(u64::MAX, |s| s.saturating_mul(2))
}

/// The budget of a partial goal's table build when the solver has none ([`Solver::max_memory`]): 8 GB. Unlike
/// the fixed tables, a pattern's table grows with the pattern (8 fixed tiles of the 15-puzzle: 8.3 GB), so some
/// budget always applies.
pub const DEFAULT_PARTIAL_MEMORY: u64 = 8_000_000_000;

/// Tables of at least this many cells are cached on disk by default (the 12-cell ones); smaller ones build in
/// memory in about a second or less.
pub const DEFAULT_CACHE_FROM_CELLS: usize = 11;

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

    /// The index a database of `k` tiles of `shape` in `layout` takes ([`Solver::pdb_index_choice`]).
    pub fn pdb_index(&self, shape: Shape, k: usize, layout: PdbLayout) -> PdbIndex {
        let key = (shape, k, layout);
        if let Some(&i) = self
            .indexes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return i;
        }
        let entries = PdbIndex::Sparse.entries(layout, shape.cells(), k, None);
        // By bytes: at most SPARSE_MAX_ENTRIES entries of 4 bits (the blank-bit layout's wider entries count so),
        // or at most SPARSE_MAX_WIDE_BYTES and twice the dense table.
        let bytes = table_bytes(layout, shape.cells(), k, entries);
        let dense = table_bytes(
            layout,
            shape.cells(),
            k,
            PdbIndex::Dense.entries(layout, shape.cells(), k, None),
        );
        let wanted = match self.index_choice {
            IndexChoice::Auto => {
                bytes <= SPARSE_MAX_ENTRIES * PDB_BITS as u64 / 8
                    || (bytes <= SPARSE_MAX_WIDE_BYTES && bytes / 2 <= dense)
            }
            IndexChoice::Dense => false,
            IndexChoice::Sparse => entries.is_some(),
        };
        let budget_ok = self
            .max_memory
            .is_none_or(|m| spdb_build_bytes(shape, k, layout, self.max_memory) <= m);
        let index = if wanted && budget_ok {
            PdbIndex::Sparse
        } else {
            PdbIndex::Dense
        };
        self.indexes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, index);
        index
    }

    /// Refuses, up front, any table or pattern-database build that would need more than `bytes` of memory.
    pub fn max_memory(mut self, bytes: u64) -> Solver {
        self.max_memory = Some(bytes);
        self.indexes = Mutex::new(HashMap::new());
        self.pair_fits = Mutex::new(None);
        self
    }

    fn check_memory(&self, what: &str, needed: u64) -> Result<()> {
        match self.max_memory {
            Some(limit) if needed > limit => Err(Error::TooMuchMemory {
                what: what.to_string(),
                needed,
                limit,
            }),
            _ => Ok(()),
        }
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
    /// since their random lookups are slower from a mapping: zb7-8's 1.6 times right after the build, and the 5 × 5
    /// default pair's 5.9 GB, two processes at once on Korf & Felner's 40, 38, 25 and 44, 1.11 to 1.54 times their
    /// search time read in (3 pairs of runs, 5 December 2026; system time for the page faults). Since a file not
    /// yet checked is read back into the page cache as huge pages (6 December 2026), the gap is small: the pair's
    /// four instances alone 7.57 to 7.95 s mapped against 7.71 to 7.83 s read in, two processes at once 1.03 times
    /// (4 rounds), Korf's 100 with zb7-8 and with zc7-8 the same; a mapped start takes 0.05 s where reading in the
    /// 5.9 GB takes 4 to 7 s. `None` maps them
    /// whatever their size: for many processes on one machine, which then share one copy instead of one each —
    /// the 5 × 5 default's `zbdefault` is 3.9 GB per process read in (the Python package asks for this with its
    /// mapped files, for slide.ray's workers, and the command line for every command but `bench`).
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

    /// The complete STM table of a canonical shape (`rows <= cols`, both ≥ 2, at most 12 cells) and goal blank
    /// cell: built in memory up to 10 cells; for 12 cells loaded from the cache, or built and saved there.
    #[inline]
    pub fn table(&self, shape: Shape, blank: usize) -> Result<&Arc<CompleteTable>> {
        self.table_in(shape, blank, Metric::Stm)
    }

    /// The complete table of `metric` for a canonical shape and goal blank cell, as [`Solver::table`].
    #[inline]
    pub fn table_in(
        &self,
        shape: Shape,
        blank: usize,
        metric: Metric,
    ) -> Result<&Arc<CompleteTable>> {
        match metric_slot(shape, blank, metric) {
            Some(i) => match self.tables[i].get() {
                Some(t) => Ok(t),
                None => self.first_table(i, shape, blank, metric),
            },
            None => Err(Error::NoTable { shape }),
        }
    }

    /// Loads or builds a table on its first use; concurrent first callers wait for one build.
    #[cold]
    fn first_table(
        &self,
        i: usize,
        shape: Shape,
        blank: usize,
        metric: Metric,
    ) -> Result<&Arc<CompleteTable>> {
        let lock = if shape.cells() < self.cache_from_cells {
            &self.building_small
        } else {
            &self.building
        };
        let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
        if self.tables[i].get().is_none() {
            let t = off_pool(|| self.load_or_build(shape, blank, metric))?;
            let _ = self.tables[i].set(Arc::new(t));
        }
        self.tables[i]
            .get()
            .ok_or_else(|| Error::Internal("a table could not be kept".into()))
    }

    fn load_or_build(&self, shape: Shape, blank: usize, metric: Metric) -> Result<CompleteTable> {
        let store = if shape.cells() < self.cache_from_cells {
            None
        } else {
            self.store.as_deref()
        };
        let encoding = CompleteTable::encoding_for(shape);
        let expected = Meta {
            kind: "complete".into(),
            shape,
            blank,
            encoding: encoding.name().into(),
            metric: metric.name().into(),
            pattern: vec![],
            bits: if encoding == Encoding::Mod3 { 2 } else { 0 },
            len: FullSpace::new(shape, blank)?.states(),
            histogram: vec![],
            antipodes: vec![],
        };
        let what = match metric {
            Metric::Stm => format!("the {shape} table"),
            Metric::Mtm => format!("the {shape} {metric} table"),
        };
        self.cached(
            store,
            expected,
            (&what, || table_build_bytes(shape)),
            |meta, packed| {
                CompleteTable::from_parts(
                    shape,
                    blank,
                    metric,
                    encoding,
                    packed,
                    meta.histogram,
                    meta.antipodes,
                )
            },
            |progress| CompleteTable::build(shape, blank, metric, progress),
            |t, meta| Meta {
                bits: t.packed().bits(),
                histogram: t.histogram().to_vec(),
                antipodes: t.antipode_ranks().to_vec(),
                ..meta
            },
            CompleteTable::packed,
        )
    }

    /// Loads the table file in `store` that matches `expected`, or builds the table (after checking its memory
    /// need, worked out by `needed` only then, against the limit) and saves it there; without a store, builds in
    /// memory. A damaged or foreign file is reported through [`Progress::warn`] and rebuilt; a file that cannot be
    /// written leaves the table in memory only, with a warning.
    #[allow(clippy::too_many_arguments)]
    fn cached<T>(
        &self,
        store: Option<&dyn Store>,
        expected: Meta,
        (what, needed): (&str, impl FnOnce() -> u64),
        from_file: impl Fn(Meta, PackedTable) -> Result<T>,
        build: impl FnOnce(&dyn Progress) -> Result<T>,
        meta_of: impl FnOnce(&T, Meta) -> Meta,
        packed: fn(&T) -> &PackedTable,
    ) -> Result<T> {
        let progress: &dyn Progress = &*self.progress;
        let Some(store) = store else {
            self.check_memory(what, needed())?;
            return build(progress);
        };
        let name = cache::file_name(&expected);
        let place = store.locate(&name);
        // Mapped: the pages of the file, shared with every process that maps it. The checksum is checked once per
        // version of the file, and the store records it: later processes skip the pass over every byte, which
        // would read the whole file in before the first answer.
        let mapped = |meta: &Meta| -> Option<Result<T>> {
            // The MTM label tables (kinds `*-alt`) are read into the process's own memory even so: their search
            // makes three random reads per child in 252 MB (756 MB when measured), and mapped file pages (no huge pages then: before the mapping asked for them) made its user
            // time 1.1 to 1.5 times longer. So are the blank-cell zero-aware databases (`zcpdb`, gigabytes read at
            // random): Korf's 100 with zc7-8 took 1.11 times 7-8's search time mapped, 0.61 times read into memory
            // on huge pages (1.2 s to read its 2.3 GB); mapped with the huge-page advice, 1.09 to 1.12 times its
            // read-in time (4 December 2026). So are the blank-bit ones (`zbpdb`) of that size: zb7-8's 1.04 GB
            // table mapped right after its build took 1.6 times its read-in time. Below READ_IN_ABOVE both kinds
            // are mapped like the others: the 4 × 4 default's 34 MB zb files took 1.02 times their read-in time
            // mapped right after their build, 0.95 once cached in huge folios (6 and 8 pairs), and a mapping is
            // shared by every process (Ray's workers, say). The sparse-index plain databases (`spdb`, 488 MB for
            // the 24-puzzle) stay mapped: read into memory they took 0.98 times the time (four 24-puzzle
            // instances, 4 pairs) and 0.97 on Korf's 100, not worth a private copy per process.
            let large_cells = matches!(meta.kind.as_str(), "zcpdb" | "zcspdb" | "zbpdb" | "zbspdb")
                && self
                    .read_in_above
                    .is_some_and(|limit| meta.len.saturating_mul(meta.bits as u64) / 8 > limit);
            if !self.map_files || meta.kind.ends_with("-alt") || large_cells {
                return None;
            }
            let m = match store.map(&name) {
                Ok(Some(m)) => m,
                Ok(None) => return None,
                Err(e) => return Some(Err(Error::Cache(format!("cannot map {place}: {e}")))),
            };
            let known = store.verified(&name, &m.stamp);
            match cache::map(m.bytes, meta, &place, known) {
                Ok(Some((meta, table))) => {
                    if !known {
                        store.set_verified(&name, &m.stamp);
                    }
                    Some(from_file(meta, table))
                }
                Ok(None) => None,
                Err(e) => Some(Err(e)),
            }
        };
        // The file as it is in the store, if it is whole; what is wrong with it is told (once) with `warn`.
        let found = |warn: bool| -> Option<T> {
            let warn = |m: String| {
                if warn {
                    progress.warn(&m)
                }
            };
            let opened = match mapped(&expected) {
                Some(Ok(t)) => return Some(t),
                Some(Err(e)) => {
                    warn(format!("{e}; rebuilding"));
                    Ok(None)
                }
                None => store.open(&name),
            };
            match opened {
                Ok(Some((mut input, len))) => {
                    match cache::read(&mut input, len, &expected, &place)
                        .and_then(|(meta, table)| from_file(meta, table))
                    {
                        Ok(t) => return Some(t),
                        Err(e) => warn(format!("{e}; rebuilding")),
                    }
                }
                Ok(None) => {}
                Err(e) => warn(format!("cannot read {place}: {e}; rebuilding")),
            }
            None
        };
        if let Some(t) = found(true) {
            return Ok(t);
        }
        // One build per machine: the store's lock on this file, held until it is written. Another process that
        // built it while this one waited leaves the file to map instead.
        let told = std::cell::Cell::new(false);
        let _building = match store.lock_build(&name, &|| {
            if !told.replace(true) {
                progress.warn(&format!(
                    "another process is building {what} ({place}): waiting for it"
                ));
            }
            true
        }) {
            Ok(lock) => lock,
            Err(e) => {
                progress.warn(&format!(
                    "cannot lock {place}: {e}; building without waiting for other processes"
                ));
                None
            }
        };
        if _building.is_some() {
            if let Some(t) = found(false) {
                return Ok(t);
            }
        }
        self.check_memory(what, needed())?;
        let t = build(progress)?;
        let meta = meta_of(&t, expected);
        if let Err(e) = store.write(&name, &mut |w| cache::write(w, &meta, packed(&t))) {
            progress.warn(&format!(
                "cannot write {place}: {e}; keeping {what} in memory only"
            ));
        } else if let Some(Ok(shared)) = mapped(&meta) {
            // Share the saved file with the other processes rather than keep a copy of our own.
            return Ok(shared);
        }
        Ok(t)
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
        self.solve_with(board, goal, &opts)?
            .distance()
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
    /// assert!(s.optimal && s.nodes > 0);
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

    /// [`SolveOptions::fallback`]: the optimal search under a quarter of the budget, then weighted IDA* with
    /// decreasing weights, each under what is left, then fast mode.
    fn search_with_fallback(
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
        // The asked-for search (optimal, or weighted when a weight is given) gets a quarter.
        let first = self.search(board, goal, &phase(0, 4), heuristic)?;
        if first.moves.is_some() || cancelled() {
            return Ok(first);
        }
        nodes += first.nodes;
        let manhattan = board.manhattan_to(goal)?;
        let lower_bound = first.lower_bound.max(manhattan);
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
            s.lower_bound = lower_bound.max(s.lower_bound);
            if len <= s.lower_bound {
                // As long as a proven lower bound: least after all.
                s.optimal = true;
                s.within = None;
                s.lower_bound = len;
            } else {
                s.optimal = false;
                let ratio = len as f64 / s.lower_bound as f64;
                s.within = Some(s.within.map_or(ratio, |w| w.min(ratio)));
            }
            return Ok(s);
        }
        if cancelled() {
            let mut s = first;
            s.nodes = nodes;
            return Ok(s);
        }
        let mut s = self.solve_fast(board, goal)?;
        s.nodes = nodes;
        s.estimate = estimate;
        if !s.optimal {
            s.lower_bound = lower_bound;
        }
        Ok(s)
    }

    /// Fast mode's answer: a valid solution, proven least only where fast mode answers from complete tables (at
    /// most 9 cells), with the Manhattan distance as lower bound otherwise.
    fn solve_fast(&self, board: &Board, goal: &Board) -> Result<Solution> {
        let moves = crate::fast::fast_moves(self, board, goal)?;
        let optimal = board.shape().cells() <= crate::fast::EXACT_CELLS;
        let mut s = Solution::from_moves(moves, optimal);
        if !optimal {
            s.lower_bound = board.manhattan_to(goal)?;
        }
        Ok(s)
    }

    /// Which method answers `board` under `opts`: **the** one place where slide chooses (the CLI, the server and
    /// the Python package all ask here).
    ///
    /// With [`Method::Auto`]: single rows and columns by arithmetic; at most 12 cells the complete tables (unless a
    /// weight asks for bounded-suboptimal search); up to [`FAST_DEFAULT_CELLS`] cells, or with any search option
    /// given (a weight or a heuristic), IDA*; above that, fast mode. The heuristic [`HeuristicChoice::Auto`] is
    /// linear conflicts up to 9 cells and the shape's default pattern databases above. With
    /// [`SolveOptions::wait_for_builds`] off, nothing that is not loaded yet is built: a table or pattern database
    /// that is not in memory is replaced by IDA* with linear conflicts, which needs none.
    ///
    /// In [`Metric::Mtm`] only the complete tables (and the arithmetic of lines) answer: a board of more than 12
    /// cells, or a method other than the tables, is refused with [`Error::InvalidOption`] (`metric`); an MTM table
    /// is always loaded or built (there is no MTM search to fall back on).
    ///
    /// ```
    /// use slide::{Board, HeuristicChoice, Plan, SolveOptions, Solver};
    /// let solver = Solver::global();
    /// let plan = |text: &str| {
    ///     let b = Board::parse(text).unwrap();
    ///     solver.plan(&b, &Board::goal(b.shape()), &SolveOptions::default()).unwrap()
    /// };
    /// assert_eq!(plan("[[1,2,0,3]]"), Plan::Line);
    /// assert_eq!(plan("1 2 3/4 0 5"), Plan::Table);
    /// assert!(matches!(plan("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"), Plan::Search(HeuristicChoice::Pdb(_))));
    /// let big = Board::goal("6x6".parse().unwrap()).to_string();
    /// assert_eq!(plan(&big), Plan::Fast);
    /// ```
    pub fn plan(&self, board: &Board, goal: &Board, opts: &SolveOptions) -> Result<Plan> {
        let shape = board.shape();
        if goal.shape() != shape {
            return Err(Error::ShapeMismatch {
                board: shape,
                goal: goal.shape(),
            });
        }
        if shape.is_line() {
            return Ok(Plan::Line);
        }
        let cells = shape.cells();
        if opts.metric == Metric::Mtm {
            let refuse = |reason: String| {
                Err(Error::InvalidOption {
                    option: "metric".into(),
                    reason,
                })
            };
            if opts.weight.is_some() || !matches!(opts.heuristic, HeuristicChoice::Auto) {
                return refuse(
                    "MTM takes no weight and no heuristic choice (the tables or the label tables answer)"
                        .into(),
                );
            }
            return match opts.method {
                Method::Auto | Method::Table if cells <= MAX_TABLE_CELLS => Ok(Plan::Table),
                Method::Search if cells <= MAX_TABLE_CELLS => Ok(Plan::MtmSearch),
                Method::Auto | Method::Search => {
                    let t = shape.transposed();
                    let (r, c) = shape.coords(goal.blank());
                    let (first, second) = crate::search::mtm::layouts(shape);
                    for layout in std::iter::once(first).chain(second) {
                        crate::search::mtm::LabelSpace::new(shape, goal.blank(), layout)?;
                        crate::search::mtm::LabelSpace::new(t, c * shape.rows() + r, layout)?;
                    }
                    Ok(Plan::MtmSearch)
                }
                Method::Table => Err(Error::NoTable { shape }),
                Method::Fast => refuse("MTM has no fast mode".into()),
            };
        }
        let explicit = opts.weight.is_some() || opts.heuristic != HeuristicChoice::Auto;
        let method = match opts.method {
            Method::Auto if cells <= MAX_TABLE_CELLS && opts.weight.is_none() => Method::Table,
            Method::Auto if cells > FAST_DEFAULT_CELLS && !explicit => Method::Fast,
            Method::Auto => Method::Search,
            m => m,
        };
        let lc = Plan::Search(HeuristicChoice::LinearConflict);
        Ok(match method {
            Method::Table if cells > MAX_TABLE_CELLS => return Err(Error::NoTable { shape }),
            Method::Table if opts.wait_for_builds || self.table_ready(goal) => Plan::Table,
            Method::Table => lc,
            Method::Fast => Plan::Fast,
            _ if cells > MAX_SEARCH_CELLS => return Err(Error::SearchTooLarge { shape }),
            _ => match &opts.heuristic {
                HeuristicChoice::Auto => match auto_heuristic(cells) {
                    HeuristicChoice::Pdb(spec) => self.pdb_plan(goal, spec, opts),
                    h => Plan::Search(h),
                },
                HeuristicChoice::Pdb(spec) => self.pdb_plan(goal, spec.clone(), opts),
                h => Plan::Search(h.clone()),
            },
        })
    }

    /// Pattern databases of `spec`, or linear conflicts when they are not loaded and may not be built.
    fn pdb_plan(&self, goal: &Board, spec: PartitionSpec, opts: &SolveOptions) -> Plan {
        if opts.wait_for_builds || self.pdbs_ready(goal, &spec) {
            Plan::Search(HeuristicChoice::Pdb(spec))
        } else {
            Plan::Search(HeuristicChoice::LinearConflict)
        }
    }

    /// True when the complete STM table for `goal` is in memory (no load or build needed).
    pub fn table_ready(&self, goal: &Board) -> bool {
        self.table_ready_in(goal, Metric::Stm)
    }

    /// True when the complete table of `metric` for `goal` is in memory (no load or build needed).
    pub fn table_ready_in(&self, goal: &Board, metric: Metric) -> bool {
        let frame = Frame::new(goal);
        metric_slot(frame.shape(), frame.blank_goal(), metric)
            .is_some_and(|i| self.tables[i].get().is_some())
    }

    /// The MTM label tables for `goal`'s shape and blank cell (rows, and columns as the transposed shape's rows),
    /// loaded from the cache or built (and saved).
    pub fn label_tables(&self, goal: &Board) -> Result<crate::search::mtm::LabelTables> {
        let shape = goal.shape();
        let (r, c) = shape.coords(goal.blank());
        let tb = c * shape.rows() + r;
        let (first, second) = crate::search::mtm::layouts(shape);
        let rows = self.label_table(shape, goal.blank(), first)?;
        let cols = self.label_table(shape.transposed(), tb, first)?;
        let second = match second {
            Some(l) => Some((
                self.label_table(shape, goal.blank(), l)?,
                self.label_table(shape.transposed(), tb, l)?,
            )),
            None => None,
        };
        Ok(crate::search::mtm::LabelTables { rows, cols, second })
    }

    fn label_table(&self, shape: Shape, blank: usize, layout: Layout) -> Result<Arc<LabelTable>> {
        self.loaded_once(&self.labels, &(shape, blank, layout), || {
            self.load_or_build_labels(shape, blank, layout)
        })
    }

    fn load_or_build_labels(
        &self,
        shape: Shape,
        blank: usize,
        layout: Layout,
    ) -> Result<LabelTable> {
        let space = crate::search::mtm::LabelSpace::new(shape, blank, layout)?;
        let expected = Meta {
            kind: layout.kind().into(),
            shape,
            blank,
            encoding: crate::search::mtm::LABEL_ENCODING.into(),
            metric: Metric::Mtm.name().into(),
            pattern: vec![],
            bits: crate::search::mtm::CODE_BITS,
            len: space.arrangements(),
            histogram: vec![],
            antipodes: vec![],
        };
        self.cached(
            self.store.as_deref(),
            expected,
            (&format!("the {shape} MTM label table"), || {
                crate::search::mtm::label_build_bytes(shape, blank, layout)
            }),
            |meta, packed| LabelTable::from_parts(shape, blank, layout, packed, meta.histogram),
            |progress| LabelTable::build(shape, blank, layout, progress),
            |t, meta| Meta {
                histogram: t.histogram().to_vec(),
                bits: t.packed().bits(),
                ..meta
            },
            LabelTable::packed,
        )
    }

    /// [`Plan::MtmSearch`]: IDA* over pushes with the label tables.
    fn search_mtm(&self, board: &Board, goal: &Board, opts: &SolveOptions) -> Result<Solution> {
        let owned = self.label_tables(goal)?;
        let tables = owned.view();
        let limits = opts.limits();
        Ok(
            match crate::search::mtm::search(board, goal, &tables, &limits)? {
                Outcome::Solved {
                    moves,
                    nodes,
                    estimate,
                } => {
                    let moves = moves.into_iter().map(Tile::from).collect();
                    let mut s = Solution::optimal(moves, nodes, Plan::MtmSearch)
                        .in_metric(Metric::Mtm, board)?;
                    s.estimate = estimate as u64;
                    s.lower_bound = s.counted.unwrap_or(0) as u64;
                    s
                }
                Outcome::Stopped {
                    lower_bound,
                    nodes,
                    estimate,
                } => Solution {
                    metric: Metric::Mtm,
                    ..Solution::stopped(lower_bound, nodes, estimate, Plan::MtmSearch)
                },
            },
        )
    }

    /// True when every pattern database of `spec` for `goal` is in memory (no load or build needed).
    pub fn pdbs_ready(&self, goal: &Board, spec: &PartitionSpec) -> bool {
        let frame = Frame::new(goal);
        let goal_pos = goal.positions();
        let spec = self.partition_for(&frame, spec);
        let loaded = self.pdbs.lock().unwrap_or_else(|e| e.into_inner());
        spec.parts().into_iter().all(|part| {
            partition::resolve(part, frame.shape(), frame.blank_goal(), |t| {
                goal_pos.get(t as usize).map(|&c| frame.cell(c))
            })
            .is_ok_and(|sets| {
                sets.iter().all(|cells| {
                    loaded.contains_key(&self.pdb_key(
                        frame.shape(),
                        frame.blank_goal(),
                        cells,
                        part.layout_on(frame.shape()),
                    ))
                })
            })
        })
    }

    fn search(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        heuristic: &HeuristicChoice,
    ) -> Result<Solution> {
        let shape = board.shape();
        if shape.cells() > MAX_SEARCH_CELLS {
            return Err(Error::SearchTooLarge { shape });
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
        let limits = Limits {
            deadline,
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
            } => {
                let moves: Vec<Tile> = moves.into_iter().map(|t| frame.tile(t as Tile)).collect();
                let mut s = Solution::optimal(moves, nodes, Plan::Search(heuristic.clone()));
                s.estimate = estimate as u64;
                if within.is_some() {
                    s.optimal = false;
                    s.within = within;
                    s.lower_bound = geometry_lower_bound(&geometry, pos);
                }
                s
            }
            Outcome::Stopped {
                lower_bound,
                nodes,
                estimate,
            } => Solution {
                within,
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
            lower_bound: lower,
            estimate,
            ..Solution::stopped(0, spent, 0, Plan::Search(h.clone()))
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
                if s.optimal {
                    return Ok(Solution { nodes: spent, ..s });
                }
                lower = lower.max(s.lower_bound);
                if s.lower_bound > depth {
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
            lower_bound: s.lower_bound.max(lower),
            ..s
        })
    }

    /// Runs `job` with the heuristic that `opts` choose for a search towards `goal` (in its canonical frame).
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
                // No region-layout (zero-aware index) database: the evaluator without zero-aware paths (fewer
                // instructions per node).
                let zero = sets
                    .iter()
                    .any(|set| set.pdbs.iter().any(|p| p.zero_index().is_some()));
                if zero {
                    let evals = sets
                        .iter()
                        .map(|set| PdbEval::new(geometry, set, opts.reflect));
                    run_partitions(geometry, evals.collect::<Result<_>>()?, mixed, job)?
                } else {
                    // One layout only: the loop without the branches on the layout.
                    let all =
                        |l: PdbLayout| sets.iter().all(|s| s.pdbs.iter().all(|p| p.layout() == l));
                    if all(PdbLayout::Plain) {
                        let evals = sets
                            .iter()
                            .map(|set| PdbEval::plain_layout(geometry, set, opts.reflect));
                        run_partitions(geometry, evals.collect::<Result<_>>()?, mixed, job)?
                    } else if sets.iter().all(|s| s.pdbs.iter().all(|p| p.bit_per_cell())) {
                        // The 24-puzzle's sparse blank-bit tables: a bit per cell, no count of free cells.
                        let evals = sets
                            .iter()
                            .map(|set| PdbEval::blank_cell_bits_32(geometry, set, opts.reflect));
                        run_partitions(geometry, evals.collect::<Result<_>>()?, mixed, job)?
                    } else if all(PdbLayout::ZeroBits)
                        && sets.iter().all(|s| {
                            s.pdbs
                                .iter()
                                .all(|p| p.packed().bits() == 32 && !p.bit_per_cell())
                        })
                    {
                        // The 24-puzzle's dense blank-bit tables: the loop knows the entries' width.
                        let evals = sets
                            .iter()
                            .map(|set| PdbEval::blank_bits_32(geometry, set, opts.reflect));
                        run_partitions(geometry, evals.collect::<Result<_>>()?, mixed, job)?
                    } else if all(PdbLayout::ZeroBits)
                        && sets
                            .iter()
                            .all(|s| s.pdbs.iter().all(|p| !p.bit_per_cell()))
                    {
                        let evals = sets
                            .iter()
                            .map(|set| PdbEval::blank_bits(geometry, set, opts.reflect));
                        run_partitions(geometry, evals.collect::<Result<_>>()?, mixed, job)?
                    } else {
                        let evals = sets
                            .iter()
                            .map(|set| PdbEval::plain(geometry, set, opts.reflect));
                        run_partitions(geometry, evals.collect::<Result<_>>()?, mixed, job)?
                    }
                }
            }
        })
    }

    /// The canonical frame, geometry and positions of a search from `board` to `goal`, checking that one can run.
    fn search_setup(&self, board: &Board, goal: &Board) -> Result<(Frame, Geometry, Vec<u8>)> {
        let shape = board.shape();
        if shape.cells() > MAX_SEARCH_CELLS {
            return Err(Error::SearchTooLarge { shape });
        }
        if let Some(reason) = board.unsolvable_reason(goal)? {
            return Err(Error::Unsolvable { reason });
        }
        if shape.is_line() {
            return Err(Error::InvalidOption {
                option: "board".into(),
                reason: format!(
                    "no search to split on {shape}: a single row or column has one way to the goal"
                ),
            });
        }
        let frame = Frame::new(goal);
        let geometry = Geometry::new(frame.shape(), frame.blank_goal())?;
        let mut pos = vec![0u8; shape.cells()];
        frame.positions(board, &mut pos);
        Ok((frame, geometry, pos))
    }

    /// One threshold of the optimal search from `board` to `goal`, cut into at least `want` subtrees (when the tree
    /// has that many nodes within the threshold) as [`crate::search::ida_star_parallel`] cuts it for threads, for
    /// other processes or machines to search with [`Solver::search_subtree`]. `threshold`: `None` for the first
    /// (the start's estimate). The heuristic and move pruning are those of `opts`; its limits do not apply here.
    ///
    /// A driver searches every subtree of a threshold, stops at the first threshold where one finds a solution
    /// (optimal: every shorter one was ruled out by the earlier thresholds) and otherwise goes on with
    /// [`SplitThreshold::next_threshold`] lowered to the least of the subtrees' `next_threshold`s.
    ///
    /// ```
    /// use slide::{Board, Solver, SolveOptions, SubtreeResult};
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
    pub fn split_threshold(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        threshold: Option<u64>,
        want: usize,
    ) -> Result<SplitThreshold> {
        let (frame, geometry, pos) = self.search_setup(board, goal)?;
        let bound = threshold.map(|t| t.min(u32::MAX as u64 - 1) as u32);
        let pruner = pruner_for(opts);
        let f = self.with_eval(
            goal,
            &frame,
            &geometry,
            opts,
            &opts.heuristic,
            SplitJob {
                pos: &pos,
                bound,
                want,
                pruner: &pruner,
            },
        )?;
        // The subtrees' roots as the tiles moved from the board (canonical tiles named in the user's frame).
        let mut tiles = vec![0u8; pos.len()];
        for (t, &c) in pos.iter().enumerate() {
            tiles[c as usize] = t as u8;
        }
        let subtrees = f
            .subtrees
            .iter()
            .map(|cells| {
                let mut tiles = tiles.clone();
                let mut blank = pos[0] as usize;
                cells
                    .iter()
                    .map(|&c| {
                        let t = tiles[c as usize];
                        tiles[blank] = t;
                        tiles[c as usize] = 0;
                        blank = c as usize;
                        frame.tile(t as Tile)
                    })
                    .collect()
            })
            .collect();
        Ok(SplitThreshold {
            threshold: f.bound as u64,
            estimate: f.estimate as u64,
            subtrees,
            solution: f
                .solution
                .map(|m| m.into_iter().map(|t| frame.tile(t as Tile)).collect()),
            next_threshold: (f.next_bound != u32::MAX).then_some(f.next_bound as u64),
            nodes: f.nodes,
        })
    }

    /// Searches one subtree of a threshold that [`Solver::split_threshold`] cut: `root` is the moves (tiles) from
    /// `board` to the subtree's root, `threshold` the threshold; the limits of `opts` (nodes, time, cancel flag)
    /// apply to this subtree.
    pub fn search_subtree(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        threshold: u64,
        root: &[Tile],
    ) -> Result<SubtreeResult> {
        let (frame, geometry, pos) = self.search_setup(board, goal)?;
        let mut b = board.clone();
        let mut cells = Vec::with_capacity(root.len());
        for &t in root {
            let cell = b.tiles().iter().position(|&x| x == t);
            b.apply(t)?;
            cells.push(frame.cell(cell.ok_or(Error::IllegalMove { tile: t as u64 })?) as u8);
        }
        let limits = Limits {
            max_depth: None,
            ..opts.limits()
        };
        let pruner = pruner_for(opts);
        let job = SubtreeJob {
            pos: &pos,
            bound: threshold.min(u32::MAX as u64 - 1) as u32,
            root: &cells,
            limits: &limits,
            pruner: &pruner,
        };
        let outcome = self
            .with_eval(goal, &frame, &geometry, opts, &opts.heuristic, job)?
            .ok_or_else(|| Error::InvalidOption {
                option: "root".into(),
                reason: "the subtree's root is not a walk of the blank".into(),
            })?;
        Ok(match outcome {
            Subtree::Solved { moves, nodes } => SubtreeResult::Solved {
                moves: moves.into_iter().map(|t| frame.tile(t as Tile)).collect(),
                nodes,
            },
            Subtree::Exhausted { next_bound, nodes } => SubtreeResult::Exhausted {
                next_threshold: (next_bound != u32::MAX).then_some(next_bound as u64),
                nodes,
            },
            Subtree::Stopped { nodes } => SubtreeResult::Stopped { nodes },
        })
    }

    /// The pattern databases of every partition `spec` names (several for [`PartitionSpec::Max`] and
    /// [`PartitionSpec::Either`], and for the default where it is a pair: [`Solver::partition_for`]).
    pub fn pdb_sets(
        &self,
        goal: &Board,
        frame: &Frame,
        spec: &PartitionSpec,
    ) -> Result<Vec<PdbSet>> {
        self.partition_for(frame, spec)
            .parts()
            .into_iter()
            .map(|part| self.pdb_set(goal, frame, part))
            .collect()
    }

    /// The partitions `spec` stands for in a search towards the goal of `frame`: `spec` itself, except the
    /// default ([`PartitionSpec::Default`]) on 5 × 5 with the blank's goal in a corner. There it is the pair
    /// `zbdefault|zbalt` ([`PartitionSpec::Either`]: the blank-bit 6-6-6-6 and the second layout, [`PartitionSpec::Alternate`],
    /// one chosen per board by a trial of the first iterations) when [`Solver::max_memory`] allows its databases
    /// ([`pdb_needs_memory`]): 6 tables of 977 MB with the sparse index (5.9 GB), built from nothing in about 2
    /// minutes of two cores, which solved 30 of Korf & Felner's 50 instances within 10 minutes each on one core
    /// against plain 6-6-6-6's 22 (docs/korf24.md). Under a smaller budget, plain 6-6-6-6 (488 MB).
    ///
    /// ```
    /// use slide::{engine::frame::Frame, Board, NoProgress, PartitionSpec, Solver};
    /// use std::sync::Arc;
    /// let five = Frame::new(&Board::goal_blank_first("5x5".parse().unwrap()));
    /// let four = Frame::new(&Board::goal("4x4".parse().unwrap()));
    /// let d = PartitionSpec::Default;
    /// assert_eq!(Solver::global().partition_for(&five, &d).to_string(), "zbdefault|zbalt");
    /// assert_eq!(Solver::global().partition_for(&four, &d), d);
    /// let small = Solver::with_store(None, Arc::new(NoProgress)).max_memory(1 << 30);
    /// assert_eq!(small.partition_for(&five, &d), d);
    /// ```
    pub fn partition_for(&self, frame: &Frame, spec: &PartitionSpec) -> PartitionSpec {
        let shape = frame.shape();
        if *spec != PartitionSpec::Default
            || (shape.rows(), shape.cols()) != (5, 5)
            || frame.blank_goal() != 24
        {
            return spec.clone();
        }
        let pair = PartitionSpec::Either(vec![
            PartitionSpec::ZeroBits(Box::new(PartitionSpec::Default)),
            PartitionSpec::ZeroBits(Box::new(PartitionSpec::Alternate)),
        ]);
        let fits = || match self.max_memory {
            None => true,
            Some(limit) => self
                .pdb_needs(frame, &pair, |_| None)
                .is_ok_and(|needs| pdb_needs_memory(&needs) <= limit),
        };
        let known = *self.pair_fits.lock().unwrap_or_else(|e| e.into_inner());
        let fits = known.unwrap_or_else(|| {
            let f = fits();
            *self.pair_fits.lock().unwrap_or_else(|e| e.into_inner()) = Some(f);
            f
        });
        if fits {
            pair
        } else {
            spec.clone()
        }
    }

    /// The heuristic `heuristic` stands for in a search towards the goal of `frame`: [`HeuristicChoice::Auto`] as
    /// the shape takes it, the default partition as [`Solver::partition_for`] says.
    fn heuristic_for(&self, frame: &Frame, heuristic: &HeuristicChoice) -> HeuristicChoice {
        match heuristic {
            HeuristicChoice::Auto => {
                self.heuristic_for(frame, &auto_heuristic(frame.shape().cells()))
            }
            HeuristicChoice::Pdb(spec) => HeuristicChoice::Pdb(self.partition_for(frame, spec)),
            h => h.clone(),
        }
    }

    /// The distinct pattern databases the partitions of `spec` need on the goal of `frame` (a database that two
    /// partitions share counted once), in the order the search loads them, with what each costs under this
    /// solver's index choice and memory budget. `tile_cell` maps a tile of the user's goal to its canonical goal
    /// cell (for [`PartitionSpec::Tiles`]).
    ///
    /// ```
    /// use slide::{engine::frame::Frame, Board, NoProgress, PartitionSpec, Solver};
    /// let goal = Board::goal_blank_first("5x5".parse().unwrap());
    /// let frame = Frame::new(&goal);
    /// let solver = Solver::with_store(None, std::sync::Arc::new(NoProgress));
    /// let needs = solver.pdb_needs(&frame, &PartitionSpec::Default, |_| None).unwrap();
    /// assert_eq!(needs.len(), 6); // the pair: 4 + 4 blocks, 2 of them shared
    /// assert_eq!(needs.iter().map(|n| n.bytes).sum::<u64>(), 6 * 976_562_500);
    /// ```
    pub fn pdb_needs(
        &self,
        frame: &Frame,
        spec: &PartitionSpec,
        tile_cell: impl Fn(Tile) -> Option<usize>,
    ) -> Result<Vec<PdbNeed>> {
        let shape = frame.shape();
        let n = shape.cells();
        let mut needs: Vec<PdbNeed> = Vec::new();
        for part in self.partition_for(frame, spec).parts() {
            let layout = part.layout_on(shape);
            for cells in partition::resolve(part, shape, frame.blank_goal(), &tile_cell)? {
                if needs.iter().any(|d| d.cells == cells && d.layout == layout) {
                    continue;
                }
                let k = cells.len();
                let index = self.pdb_index(shape, k, layout);
                // Only the region layout's entries count the regions (the index is a pass over the subsets).
                let zero = match layout {
                    PdbLayout::Zero => crate::search::pdb::ZeroIndex::shared(shape, k)
                        .ok()
                        .map(|z| z.size()),
                    _ => None,
                };
                needs.push(PdbNeed {
                    layout,
                    index,
                    bytes: table_bytes(layout, n, k, index.entries(layout, n, k, zero)),
                    build_bytes: pdb_build_need(shape, k, (layout, index), self.max_memory),
                    states: crate::exact::rank::PartialRanker::new(n, k + 1)
                        .map_or(u64::MAX, |r| r.size()),
                    cells,
                });
            }
        }
        Ok(needs)
    }

    /// The pattern databases of one partition for `goal`, loaded from the cache or built (and saved).
    pub fn pdb_set(&self, goal: &Board, frame: &Frame, spec: &PartitionSpec) -> Result<PdbSet> {
        let goal_pos = goal.positions();
        let cells = partition::resolve(spec, frame.shape(), frame.blank_goal(), |t| {
            goal_pos.get(t as usize).map(|&c| frame.cell(c))
        })?;
        let mut pdbs = Vec::new();
        for c in cells {
            pdbs.push(self.pdb_in(
                frame.shape(),
                frame.blank_goal(),
                &c,
                spec.layout_on(frame.shape()),
            )?);
        }
        Ok(PdbSet { pdbs })
    }

    /// One pattern database of a canonical shape and goal (its blank's cell), by its goal cells.
    pub fn pdb(&self, shape: Shape, blank: usize, cells: &[u8]) -> Result<Arc<Pdb>> {
        self.pdb_in(shape, blank, cells, PdbLayout::Plain)
    }

    /// One zero-aware pattern database ([`Pdb::build_zero_aware`]) of a canonical shape and goal, by its goal
    /// cells; cached in files of their own kind (`zpdb`).
    pub fn zero_aware_pdb(&self, shape: Shape, blank: usize, cells: &[u8]) -> Result<Arc<Pdb>> {
        self.pdb_in(shape, blank, cells, PdbLayout::Zero)
    }

    /// One pattern database in `layout`: plain (files of kind `pdb`), zero-aware by region (`zpdb`) or zero-aware
    /// by the blank's cell (`zcpdb`, made from the `zpdb` one, which is loaded or built and cached first).
    pub fn pdb_in(
        &self,
        shape: Shape,
        blank: usize,
        cells: &[u8],
        layout: PdbLayout,
    ) -> Result<Arc<Pdb>> {
        let key = self.pdb_key(shape, blank, cells, layout);
        self.loaded_once(&self.pdbs, &key, || {
            self.load_or_build_pdb(shape, blank, cells, (layout, key.4))
        })
    }

    /// The key a database is loaded under, with the index this solver gives it ([`Solver::pdb_index`]).
    fn pdb_key(&self, shape: Shape, blank: usize, cells: &[u8], layout: PdbLayout) -> PdbKey {
        let index = self.pdb_index(shape, cells.len(), layout);
        (shape, blank, cells.to_vec(), layout, index)
    }

    /// The value under `key` in `map`, else `load`'s, kept there: loaded once per solver (concurrent first callers
    /// wait for one build, under the solver's build lock).
    fn loaded_once<K: Eq + std::hash::Hash + Clone, V: Send>(
        &self,
        map: &Mutex<HashMap<K, Arc<V>>>,
        key: &K,
        load: impl FnOnce() -> Result<V> + Send,
    ) -> Result<Arc<V>> {
        let known = || {
            map.lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(key)
                .cloned()
        };
        if let Some(v) = known() {
            return Ok(v);
        }
        let _guard = self.building.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(v) = known() {
            return Ok(v);
        }
        let v = Arc::new(off_pool(load)?);
        map.lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key.clone(), v.clone());
        Ok(v)
    }

    fn load_or_build_pdb(
        &self,
        shape: Shape,
        blank: usize,
        cells: &[u8],
        (layout, index): (PdbLayout, PdbIndex),
    ) -> Result<Pdb> {
        PatternSpace::new(shape, cells, blank)?;
        let budget = self.max_memory;
        let too_large = || Error::BadPartition {
            reason: "pattern too large".into(),
        };
        let zero = match layout {
            PdbLayout::Plain => None,
            PdbLayout::Zero | PdbLayout::ZeroCells | PdbLayout::ZeroBits => {
                Some(crate::search::pdb::ZeroIndex::shared(shape, cells.len())?.size())
            }
        };
        let len = index
            .entries(layout, shape.cells(), cells.len(), zero)
            .ok_or_else(too_large)?;
        let (kind, encoding, adjective) = match (layout, index) {
            (PdbLayout::Plain, PdbIndex::Dense) => ("pdb", "extra4", ""),
            (PdbLayout::Plain, PdbIndex::Sparse) => ("spdb", "sextra4", "sparse-index "),
            (PdbLayout::Zero, _) => ("zpdb", "zextra4", "zero-aware "),
            (PdbLayout::ZeroCells, PdbIndex::Dense) => {
                ("zcpdb", "zcextra4", "zero-aware (blank-cell) ")
            }
            (PdbLayout::ZeroCells, PdbIndex::Sparse) => (
                "zcspdb",
                "zcsextra4",
                "sparse-index zero-aware (blank-cell) ",
            ),
            (PdbLayout::ZeroBits, PdbIndex::Dense) => {
                ("zbpdb", "zbextra4", "zero-aware (blank-bit) ")
            }
            // A bit per cell of the blank where `bit_per_cell` says so: another encoding, so that a file of bits
            // per free cell is never read as one of bits per cell.
            (PdbLayout::ZeroBits, PdbIndex::Sparse)
                if layout.bit_per_cell(index, shape.cells(), cells.len()) =>
            {
                (
                    "zbspdb",
                    "zbscellextra4",
                    "sparse-index zero-aware (blank-bit) ",
                )
            }
            (PdbLayout::ZeroBits, PdbIndex::Sparse) => (
                "zbspdb",
                "zbsextra4",
                "sparse-index zero-aware (blank-bit) ",
            ),
        };
        let bits = layout
            .bits(shape.cells(), cells.len())
            .ok_or_else(too_large)?;
        let expected = Meta {
            kind: kind.into(),
            shape,
            blank,
            encoding: encoding.into(),
            metric: Metric::Stm.name().into(),
            pattern: cells.iter().map(|&c| c as u32).collect(),
            bits,
            len,
            histogram: vec![],
            antipodes: vec![],
        };
        self.cached(
            self.store.as_deref(),
            expected,
            (
                &format!(
                    "a {adjective}{}-tile pattern database of {shape}",
                    cells.len()
                ),
                || pdb_build_need(shape, cells.len(), (layout, index), budget),
            ),
            |meta, packed| {
                Pdb::from_parts(shape, cells, blank, packed, meta.histogram, (layout, index))
            },
            |progress| match (layout, index) {
                (_, PdbIndex::Sparse) => {
                    let d =
                        self.load_or_build_pdb(shape, blank, cells, (layout, PdbIndex::Dense))?;
                    Pdb::sparse(&d).ok_or_else(too_large)
                }
                (PdbLayout::Plain, _) => Pdb::build_within(shape, cells, blank, budget, progress),
                (PdbLayout::Zero, _) => {
                    Pdb::build_zero_aware_within(shape, cells, blank, budget, progress)
                }
                (PdbLayout::ZeroCells | PdbLayout::ZeroBits, _) => {
                    let z = self.load_or_build_pdb(
                        shape,
                        blank,
                        cells,
                        (PdbLayout::Zero, PdbIndex::Dense),
                    )?;
                    let made = if layout == PdbLayout::ZeroCells {
                        Pdb::zero_cells(&z)
                    } else {
                        Pdb::zero_bits(&z)
                    };
                    made.ok_or_else(too_large)
                }
            },
            |p, meta| Meta {
                histogram: p.histogram().to_vec(),
                ..meta
            },
            Pdb::packed,
        )
    }
}

/// Partial goals ([`Pattern`]): planning, tables, answers and stages.
impl Solver {
    /// Which method answers `board` towards the pattern `goal`: [`Solver::plan`] when the pattern leaves no choice
    /// ([`Pattern::board`]), else [`Plan::Partial`], the complete table of the pattern's abstract states
    /// ([`crate::engine::partial`]) in either metric, when it is loaded or fits the memory budget
    /// ([`Solver::max_memory`], else [`DEFAULT_PARTIAL_MEMORY`]). Over the budget, or with [`Method::Search`], an
    /// STM partial goal is searched by IDA* with the Manhattan distance of the pattern's tiles
    /// (`Plan::Search(HeuristicChoice::Manhattan)`, exact, under the limits); an MTM one is refused
    /// ([`Error::InvalidOption`], `metric`). [`Method::Table`] insists on the table ([`Error::TooMuchMemory`] over
    /// the budget). [`Method::Fast`] and a weight are refused ([`Error::InvalidOption`], `goal`), and so is a board
    /// of more than 64 cells ([`Error::PatternTooLarge`]).
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
            return Err(Error::ShapeMismatch {
                board: shape,
                goal: goal.shape(),
            });
        }
        if let Some(g) = goal.board() {
            return self.plan(board, &g, opts);
        }
        if shape.cells() > 64 {
            return Err(Error::PatternTooLarge { shape });
        }
        if opts.weight.is_some() || opts.method == Method::Fast {
            return Err(Error::InvalidOption {
                option: "goal".into(),
                reason: "a partial goal (a pattern with x) is answered exactly, by the table of its pattern's states or by IDA*; fast mode and weights do not apply".into(),
            });
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
            (Method::Search, Metric::Mtm) => Err(Error::InvalidOption {
                option: "metric".into(),
                reason: "MTM partial goals are answered by the table of the pattern's states only (no search)".into(),
            }),
            (Method::Table, _) => Ok(Plan::Partial),
            _ if fits => Ok(Plan::Partial),
            (_, Metric::Stm) => Ok(search),
            (_, Metric::Mtm) => Err(Error::InvalidOption {
                option: "metric".into(),
                reason: format!(
                    "MTM partial goals over the memory budget are not available: the table of this pattern's states needs {} MB, {} MB are allowed (in STM such goals are searched by IDA*)",
                    partial_build_bytes(&key) / 1_000_000,
                    limit / 1_000_000
                ),
            }),
        }
    }

    /// The table of a partial goal: loaded from the store, or built (after checking its memory need against the
    /// budget) and saved there; concurrent first callers wait for one build.
    pub fn partial_table(&self, key: &PartialKey) -> Result<Arc<PartialTable>> {
        self.loaded_once(&self.partials, key, || self.load_or_build_partial(key))
    }

    fn load_or_build_partial(&self, key: &PartialKey) -> Result<PartialTable> {
        let n = key.shape.cells();
        let what = format!(
            "the table of a partial goal of {} fixing {} tiles{}",
            key.shape,
            key.cells.len(),
            if key.blank.is_some() {
                " and the blank"
            } else {
                ""
            }
        );
        let needed = partial_build_bytes(key);
        let limit = self.max_memory.unwrap_or(DEFAULT_PARTIAL_MEMORY);
        let len = match key.states() {
            Some(len) if needed <= limit => len,
            _ => {
                return Err(Error::TooMuchMemory {
                    what,
                    needed,
                    limit,
                })
            }
        };
        let expected = Meta {
            kind: "partial".into(),
            shape: key.shape,
            // A free blank is written as the cell count (no cell).
            blank: key.blank.unwrap_or(n),
            encoding: "exact".into(),
            metric: key.metric.name().into(),
            pattern: key.cells.iter().map(|&c| c as u32).collect(),
            bits: 0,
            len,
            histogram: vec![],
            antipodes: vec![],
        };
        self.cached(
            self.store.as_deref(),
            expected,
            (&what, || needed),
            |meta, packed| PartialTable::from_parts(key, packed, meta.histogram),
            |progress| PartialTable::build(key, progress),
            |t, meta| Meta {
                bits: t.packed().bits(),
                histogram: t.histogram().to_vec(),
                ..meta
            },
            PartialTable::packed,
        )
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
            return self
                .search_pattern(board, goal, &opts)?
                .distance()
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

/// The weights [`SolveOptions::fallback`] tries, from the last (largest) to the first, after the optimal search
/// stops.
pub const FALLBACK_WEIGHTS: [f64; 6] = [1.1, 1.25, 1.5, 2.0, 3.0, 5.0];

/// Largest weight of bounded-suboptimal search ([`SolveOptions::weight`]). Weighted IDA* may go as deep as
/// `weight` times the optimum before it finds a solution, so larger weights only make longer solutions.
pub const MAX_WEIGHT: f64 = 100.0;

/// A weight in `1 ..= MAX_WEIGHT` as the fraction `num / 1000`, rounded down so that the search's weight is never
/// more than `w` (the bound then holds for `w`); anything else is an [`Error::InvalidOption`].
fn weight_fraction(w: f64) -> Result<(u32, u32)> {
    if !(w.is_finite() && (1.0..=MAX_WEIGHT).contains(&w)) {
        return Err(Error::InvalidOption {
            option: "weight".into(),
            reason: format!("{w} is not a number from 1 to {MAX_WEIGHT}"),
        });
    }
    // At most 100 000: no overflow, and `h * num` stays far below u32::MAX for any estimate of a 64-cell board.
    Ok(((w * 1000.0).floor() as u32, 1000))
}

/// One threshold of a search cut into subtrees ([`Solver::split_threshold`]); moves are tiles of the user's board.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SplitThreshold {
    /// The threshold that was cut (the start's estimate for the first).
    pub threshold: u64,
    /// The start's heuristic estimate.
    pub estimate: u64,
    /// The subtrees' roots, in search order, each as the moves from the board.
    pub subtrees: Vec<Vec<Tile>>,
    /// An optimal solution found above the cut (then `subtrees` is empty).
    pub solution: Option<Vec<Tile>>,
    /// The next threshold as far as the nodes above the cut tell (`None`: none of them passed the threshold).
    pub next_threshold: Option<u64>,
    /// Nodes generated while cutting.
    pub nodes: u64,
}

/// What the search of one subtree found ([`Solver::search_subtree`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubtreeResult {
    /// A solution within the threshold: the moves from the board (the root's included).
    Solved {
        /// The tiles moved, from the board.
        moves: Vec<Tile>,
        /// Nodes generated.
        nodes: u64,
    },
    /// No solution within the threshold; the subtree's candidate for the next one (`None`: nothing passed it).
    Exhausted {
        /// The least `f` over the threshold among the nodes pruned.
        next_threshold: Option<u64>,
        /// Nodes generated.
        nodes: u64,
    },
    /// A limit stopped the search of the subtree.
    Stopped {
        /// Nodes generated.
        nodes: u64,
    },
}

/// Runs `job` with one partition's databases, or with several maximised ([`PdbMax`]), each with the mixed sums
/// when `mixed_sums` ([`PdbEval::with_mixed_sums`]).
fn run_partitions<const ZERO: bool, const LAYOUTS: u8, J: EvalJob>(
    geometry: &Geometry,
    evals: Vec<PdbEval<ZERO, LAYOUTS>>,
    mixed_sums: bool,
    job: J,
) -> Result<J::Out> {
    let mut evals: Vec<_> = evals
        .into_iter()
        .map(|e| e.with_mixed_sums(mixed_sums))
        .collect();
    Ok(if evals.len() == 1 {
        job.run(geometry, evals.remove(0))
    } else {
        job.run(geometry, PdbMax::new(evals)?)
    })
}

/// Work done with the heuristic a search uses, whatever its type ([`Solver::with_eval`]: **the** place that turns a
/// [`HeuristicChoice`] into an [`Eval`]).
pub(crate) trait EvalJob {
    /// What the work returns.
    type Out;
    /// Runs the work with this heuristic.
    fn run<E: Eval + Clone + Send + Sync>(self, g: &Geometry, eval: E) -> Self::Out;
}

/// A whole search ([`Solver::search`]).
struct IdaJob<'a, 'l> {
    pos: &'a [u8],
    limits: &'a Limits<'l>,
    weight: (u32, u32),
    parallel: bool,
    pruner: &'a MovePruner,
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

/// The cut of one threshold ([`Solver::split_threshold`]).
struct SplitJob<'a> {
    pos: &'a [u8],
    bound: Option<u32>,
    want: usize,
    pruner: &'a MovePruner,
}

impl EvalJob for SplitJob<'_> {
    type Out = Frontier;
    fn run<E: Eval + Clone + Send + Sync>(self, g: &Geometry, eval: E) -> Frontier {
        split_threshold(g, eval, self.pos, self.bound, self.want, self.pruner)
    }
}

/// The search of one subtree ([`Solver::search_subtree`]).
struct SubtreeJob<'a, 'l> {
    pos: &'a [u8],
    bound: u32,
    root: &'a [u8],
    limits: &'a Limits<'l>,
    pruner: &'a MovePruner,
}

impl EvalJob for SubtreeJob<'_, '_> {
    type Out = Option<Subtree>;
    fn run<E: Eval + Clone + Send + Sync>(self, g: &Geometry, eval: E) -> Option<Subtree> {
        search_subtree(
            g,
            eval,
            self.pos,
            self.bound,
            self.root,
            self.limits,
            self.pruner,
        )
    }
}

/// The move pruner `opts` ask for: the learned one, or none.
fn pruner_for(opts: &SolveOptions) -> Cow<'static, MovePruner> {
    if opts.move_pruning {
        Cow::Borrowed(MovePruner::global())
    } else {
        Cow::Owned(MovePruner::none())
    }
}

/// The heuristic [`HeuristicChoice::Auto`] stands for on a board of `cells` cells: linear conflicts up to 9 cells,
/// the shape's default pattern databases above.
fn auto_heuristic(cells: usize) -> HeuristicChoice {
    if cells <= 9 {
        HeuristicChoice::LinearConflict
    } else {
        HeuristicChoice::Pdb(PartitionSpec::Default)
    }
}

thread_local! {
    /// Set by [`Solver::build_here`]: builds run on the current thread and pool.
    static BUILD_HERE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs a build that holds one of the solver's build locks so that it cannot deadlock a rayon pool.
///
/// A build uses rayon. Called from a worker of a pool (a batch solved board by board in parallel), the build's
/// parallel loops would run on that pool, and a worker waiting for them may take another board of the batch,
/// which asks for the same table and blocks on the lock its own thread holds; workers blocked on the lock could
/// also leave no thread to run the build. So inside a pool the build runs on a thread of its own with a pool of
/// its own (as many threads as the caller's), and the caller blocks without taking other work. Outside any pool
/// it runs here, on the global pool; so it does in a pool given over to builds ([`Solver::build_here`]).
fn off_pool<T: Send>(build: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    if rayon::current_thread_index().is_none() || BUILD_HERE.get() {
        return build();
    }
    let threads = rayon::current_num_threads();
    std::thread::scope(|scope| {
        let worker = scope.spawn(move || {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("slide-build-{i}"))
                .build()
                .map_err(|e| Error::Internal(format!("cannot start the build's threads: {e}")))?;
            pool.install(build)
        });
        match worker.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
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
    /// Stop after this many search nodes.
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

/// The error for a [`PartitionSpec::Either`] with no alternative (only an API caller can build one).
fn no_alternative() -> Error {
    Error::InvalidOption {
        option: "pdb".into(),
        reason: "alternative partitions ('|') need at least one partition".into(),
    }
}

/// Facts about the whole state space of a shape and goal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    /// Number of boards that can reach the goal.
    pub states: u64,
    /// `histogram[d]` = number of boards at distance `d`.
    pub histogram: Vec<u64>,
    /// Some boards at the largest distance (all of them when `antipodes.len() as u64 == histogram.last()`).
    pub antipodes: Vec<Board>,
}

impl Stats {
    /// The largest distance: god's number for this goal.
    pub fn diameter(&self) -> u32 {
        self.histogram.len() as u32 - 1
    }
}

impl Solver {
    /// The number of boards at each distance from `goal`, for shapes with a complete table and for single rows and
    /// columns.
    ///
    /// ```
    /// let s = slide::Solver::global().stats(&slide::Board::goal("2x3".parse().unwrap())).unwrap();
    /// assert_eq!((s.states, s.diameter()), (360, 21));
    /// ```
    pub fn stats(&self, goal: &Board) -> Result<Stats> {
        self.stats_in(goal, Metric::Stm)
    }

    /// The number of boards at each distance from `goal` in `metric`, as [`Solver::stats`].
    ///
    /// ```
    /// use slide::{Board, Metric, Solver};
    /// let s = Solver::global().stats_in(&Board::goal("3x3".parse().unwrap()), Metric::Mtm).unwrap();
    /// assert_eq!((s.states, s.diameter()), (181_440, 24));
    /// ```
    pub fn stats_in(&self, goal: &Board, metric: Metric) -> Result<Stats> {
        let shape = goal.shape();
        if shape.is_line() && metric == Metric::Mtm {
            // One push takes the blank anywhere on its line.
            let n = shape.cells();
            let histogram = if n > 1 {
                vec![1, n as u64 - 1]
            } else {
                vec![1]
            };
            let antipodes = (0..n)
                .filter(|&c| c != goal.blank() || n == 1)
                .take(crate::exact::table::MAX_ANTIPODES)
                .map(|c| {
                    let mut tiles: Vec<Tile> =
                        goal.tiles().iter().copied().filter(|&t| t != 0).collect();
                    tiles.insert(c, 0);
                    Board::new(shape, tiles).expect("a permutation")
                })
                .collect();
            return Ok(Stats {
                states: n as u64,
                histogram,
                antipodes,
            });
        }
        if shape.is_line() {
            let n = shape.cells();
            let b = goal.blank();
            let mut histogram = vec![0u64; b.max(n - 1 - b) + 1];
            for p in 0..n {
                histogram[p.abs_diff(b)] += 1;
            }
            let far = if b >= n - 1 - b { 0 } else { n - 1 };
            let mut tiles: Vec<Tile> = goal.tiles().iter().copied().filter(|&t| t != 0).collect();
            tiles.insert(far, 0);
            let mut antipodes = vec![Board::new(shape, tiles.clone()).expect("a permutation")];
            if b == n - 1 - b && n > 1 {
                tiles.remove(far);
                tiles.push(0);
                antipodes.push(Board::new(shape, tiles).expect("a permutation"));
            }
            return Ok(Stats {
                states: n as u64,
                histogram,
                antipodes,
            });
        }
        if shape.cells() > MAX_TABLE_CELLS {
            return Err(Error::NoTable { shape });
        }
        let frame = Frame::new(goal);
        let table = self.table_in(frame.shape(), frame.blank_goal(), metric)?;
        let antipodes = table
            .antipodes()
            .iter()
            .map(|p| frame.unmap(shape, p))
            .collect();
        Ok(Stats {
            states: table.space().states(),
            histogram: table.histogram().to_vec(),
            antipodes,
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Blank-bit files over the read-in size are read into memory even when mapping, unless the solver maps them
    /// all ([`Solver::read_in_above`]); the answers are the same.
    #[test]
    fn large_blank_bit_files_are_mapped_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let frame = Frame::new(&goal);
        let board = Board::parse("13 2 10 3/1 12 8 4/5 0 9 6/15 14 11 7").unwrap();
        let mut lengths = Vec::new();
        for (limit, mapped) in [(Some(0), false), (None, true), (Some(READ_IN_ABOVE), true)] {
            let s = Solver::with_options(CacheDir::At(dir.path().into()), Arc::new(NoProgress))
                .map_files(true)
                .read_in_above(limit);
            let sets = s.pdb_sets(&goal, &frame, &PartitionSpec::Default).unwrap();
            let zb: Vec<&Arc<Pdb>> = sets
                .iter()
                .flat_map(|set| &set.pdbs)
                .filter(|p| p.layout() == PdbLayout::ZeroBits)
                .collect();
            assert_eq!(zb.len(), 3);
            assert!(
                zb.iter().all(|p| p.packed().is_mapped() == mapped),
                "{limit:?}"
            );
            lengths.push(s.solve(&board, &goal).unwrap().distance());
        }
        assert!(
            lengths.iter().all(|&l| l == lengths[0] && l.is_some()),
            "{lengths:?}"
        );
    }

    /// The 5 × 5 default with the blank's goal in a corner is the pair `zbdefault|zbalt` (blank-bit, sparse index,
    /// 6 distinct databases) when the budget holds them, plain 6-6-6-6 under a smaller budget, with the blank's goal
    /// elsewhere, and on other shapes; the index rule gives the pair's tables the sparse index and keeps the
    /// 15-puzzle's wider blank-bit 7 tiles dense.
    #[test]
    fn the_5x5_default_is_the_pair_within_the_budget() {
        let five = Shape::new(5, 5).unwrap();
        let corner = Frame::new(&Board::goal_blank_first(five));
        let d = PartitionSpec::Default;
        let free = Solver::with_options(CacheDir::None, Arc::new(NoProgress));
        let pair = free.partition_for(&corner, &d);
        assert_eq!(pair.to_string(), "zbdefault|zbalt");
        let needs = free.pdb_needs(&corner, &d, |_| None).unwrap();
        // Every block of either layout once, the two they share counted once.
        let mut want: Vec<Vec<u8>> = Vec::new();
        for part in pair.parts() {
            for cells in partition::resolve(part, five, 24, |_| None).unwrap() {
                if !want.contains(&cells) {
                    want.push(cells);
                }
            }
        }
        assert_eq!(want.len(), 6);
        assert_eq!(
            needs.iter().map(|n| n.cells.clone()).collect::<Vec<_>>(),
            want
        );
        for n in &needs {
            assert_eq!((n.layout, n.index), (PdbLayout::ZeroBits, PdbIndex::Sparse));
            assert_eq!(n.bytes, 976_562_500);
            assert!(n.build_bytes > n.bytes && n.states > 2_000_000_000, "{n:?}");
        }
        let memory = pdb_needs_memory(&needs);
        assert!((6_000_000_000..7_000_000_000).contains(&memory), "{memory}");
        // Exactly the pair's need: the pair; a byte less: plain 6-6-6-6 (and its needs say so).
        let at = |limit: u64| {
            Solver::with_options(CacheDir::None, Arc::new(NoProgress)).max_memory(limit)
        };
        assert_eq!(at(memory).partition_for(&corner, &d), pair);
        let small = at(memory - 1);
        assert_eq!(small.partition_for(&corner, &d), d);
        let plain = small.pdb_needs(&corner, &d, |_| None).unwrap();
        assert_eq!(plain.len(), 4);
        assert!(plain
            .iter()
            .all(|n| (n.layout, n.index) == (PdbLayout::Plain, PdbIndex::Sparse)));
        assert!(pdb_needs_memory(&plain) < 1_000_000_000);
        // The blank's goal off the corners, and other shapes: the default as it was.
        let mut tiles: Vec<Tile> = (1..25).collect();
        tiles.insert(12, 0);
        let centre = Frame::new(&Board::new(five, tiles).unwrap());
        assert_eq!(free.partition_for(&centre, &d), d);
        let four = Frame::new(&Board::goal(Shape::new(4, 4).unwrap()));
        assert_eq!(free.partition_for(&four, &d), d);
        assert_eq!(free.pdb_needs(&four, &d, |_| None).unwrap().len(), 3);
        // An explicit spec is never replaced.
        let zb: PartitionSpec = "zbdefault".parse().unwrap();
        assert_eq!(free.partition_for(&corner, &zb), zb);
        // The index rule around the pair's tables.
        let sixteen = Shape::new(4, 4).unwrap();
        assert_eq!(
            free.pdb_index(five, 6, PdbLayout::ZeroBits),
            PdbIndex::Sparse
        );
        assert_eq!(free.pdb_index(five, 6, PdbLayout::Plain), PdbIndex::Sparse);
        assert_eq!(
            free.pdb_index(five, 6, PdbLayout::ZeroCells),
            PdbIndex::Dense
        );
        assert_eq!(free.pdb_index(five, 7, PdbLayout::Plain), PdbIndex::Dense);
        assert_eq!(
            free.pdb_index(sixteen, 7, PdbLayout::ZeroBits),
            PdbIndex::Dense
        );
        assert_eq!(
            free.pdb_index(sixteen, 6, PdbLayout::ZeroBits),
            PdbIndex::Sparse
        );
        let dense = Solver::with_options(CacheDir::None, Arc::new(NoProgress))
            .pdb_index_choice(IndexChoice::Dense);
        assert_eq!(
            dense.pdb_index(five, 6, PdbLayout::ZeroBits),
            PdbIndex::Dense
        );
    }

    #[test]
    fn examples() {
        let s = Solver::with_options(CacheDir::None, Arc::new(NoProgress));
        for (text, want) in [
            ("[[1,2,3],[4,0,5]]", 1),
            ("[[1,2,3],[5,4,0]]", -1),
            ("[[4,1,2],[5,0,3]]", 5),
            ("[[1,2,3],[4,5,0]]", 0),
        ] {
            let b = Board::parse(text).unwrap();
            let g = Board::goal(b.shape());
            assert_eq!(s.distance(&b, &g).unwrap(), want, "{text}");
            assert_eq!(s.solve(&b, &g).unwrap().distance(), Some(want), "{text}");
        }
    }

    /// A small table (built in memory) does not wait for a long build under way: fast mode's last block on a server
    /// building its 5x5 databases. The long build is stood for by holding its lock.
    #[test]
    fn small_tables_do_not_wait_behind_long_builds() {
        let s = Solver::with_options(CacheDir::None, Arc::new(NoProgress));
        let long_build = s.building.lock().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let b = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
                let _ = tx.send(s.solve(&b, &Board::goal(b.shape())).map(|x| x.distance()));
            });
            let got = rx.recv_timeout(std::time::Duration::from_secs(120));
            drop(long_build);
            assert_eq!(got.unwrap().unwrap(), Some(31));
        });
    }

    /// A build started by a worker of a rayon pool cannot deadlock it: here the build's parallel half is taken by
    /// the pool's other worker, which meanwhile queues a second request for the same value. Building on the caller's
    /// pool, the first worker would take that request while it waits and block on the lock it holds itself.
    #[test]
    fn a_build_inside_a_pool_cannot_deadlock_it() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let (tx, rx) = std::sync::mpsc::channel();
        // Not a scoped thread: if it deadlocks, the test fails rather than waiting for it.
        std::thread::spawn(move || {
            let s = Solver::with_options(CacheDir::None, Arc::new(NoProgress));
            let map: Mutex<HashMap<u8, Arc<u32>>> = Mutex::new(HashMap::new());
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .build()
                .unwrap();
            {
                let got = pool.install(|| {
                    let second = Mutex::new(None);
                    rayon::scope(|scope| {
                        let build = || {
                            let stolen = AtomicBool::new(false);
                            rayon::join(
                                || {
                                    while !stolen.load(Ordering::Acquire) {
                                        std::thread::yield_now();
                                    }
                                },
                                || {
                                    stolen.store(true, Ordering::Release);
                                    scope.spawn(|_| {
                                        let v = s.loaded_once(&map, &7, || Ok(1)).map(|v| *v);
                                        *second.lock().unwrap() = Some(v);
                                    });
                                    std::thread::sleep(std::time::Duration::from_millis(200));
                                },
                            );
                            Ok(42)
                        };
                        let first = s.loaded_once(&map, &7, build).map(|v| *v);
                        assert_eq!(first.unwrap(), 42);
                    });
                    second.into_inner().unwrap()
                });
                let _ = tx.send(got);
            }
        });
        let got = rx.recv_timeout(std::time::Duration::from_secs(60));
        assert_eq!(got.expect("deadlocked").unwrap().unwrap(), 42);
    }

    /// In a pool given over to builds ([`Solver::build_here`]) a build stays on the calling thread (a server's
    /// warm-up reports its progress from there); elsewhere in a pool it moves to a thread of its own.
    #[test]
    fn build_here_keeps_builds_on_the_callers_thread() {
        let s = Solver::with_options(CacheDir::None, Arc::new(NoProgress));
        let map: Mutex<HashMap<u8, Arc<std::thread::ThreadId>>> = Mutex::new(HashMap::new());
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        pool.install(|| {
            let here = std::thread::current().id();
            let thread = || Ok(std::thread::current().id());
            let built = Solver::build_here(|| s.loaded_once(&map, &1, thread)).unwrap();
            assert_eq!(*built, here);
            let elsewhere = s.loaded_once(&map, &2, thread).unwrap();
            assert_ne!(*elsewhere, here);
        });
    }

    /// The one planning point: methods by shape and options, and "never wait for a build" falling back to linear
    /// conflicts until the table or databases are in memory.
    #[test]
    fn plans() {
        let s = Solver::with_options(CacheDir::None, Arc::new(NoProgress));
        let b = |t: &str| Board::parse(t).unwrap();
        let plan = |board: &Board, opts: &SolveOptions| {
            s.plan(board, &Board::goal(board.shape()), opts).unwrap()
        };
        let lc = Plan::Search(HeuristicChoice::LinearConflict);
        let pdb = Plan::Search(HeuristicChoice::Pdb(PartitionSpec::Default));
        let dflt = SolveOptions::default();
        let no_wait = SolveOptions {
            wait_for_builds: false,
            ..Default::default()
        };
        let small = b("1 2 3/4 0 5");
        let fifteen = b("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15");
        let weighted = SolveOptions {
            weight: Some(1.5),
            ..Default::default()
        };
        assert_eq!(plan(&b("[[0,1]]"), &dflt), Plan::Line);
        assert_eq!(plan(&small, &dflt), Plan::Table);
        assert_eq!(plan(&small, &weighted), lc);
        assert_eq!(plan(&fifteen, &dflt), pdb);
        assert_eq!(plan(&fifteen, &weighted), pdb);
        let six = Board::goal(Shape::new(6, 6).unwrap());
        assert_eq!(plan(&six, &dflt), Plan::Fast);
        assert_eq!(plan(&six, &weighted), pdb);
        let fast = SolveOptions {
            method: Method::Fast,
            ..Default::default()
        };
        assert_eq!(plan(&small, &fast), Plan::Fast);
        // Nothing loaded yet: without waiting, linear conflicts; once loaded, the table and the databases.
        assert_eq!(plan(&small, &no_wait), lc);
        assert_eq!(plan(&fifteen, &no_wait), lc);
        s.solve(&small, &Board::goal(small.shape())).unwrap();
        assert_eq!(plan(&small, &no_wait), Plan::Table);
        let pdb33 = SolveOptions {
            method: Method::Search,
            heuristic: HeuristicChoice::Pdb(PartitionSpec::Default),
            ..Default::default()
        };
        let eight = b("1 2 3/4 5 6/7 0 8");
        let no_wait33 = SolveOptions {
            wait_for_builds: false,
            ..pdb33.clone()
        };
        assert_eq!(plan(&eight, &no_wait33), lc);
        s.solve_with(&eight, &Board::goal(eight.shape()), &pdb33)
            .unwrap();
        assert_eq!(
            plan(&eight, &no_wait33),
            Plan::Search(HeuristicChoice::Pdb(PartitionSpec::Default))
        );
        // Errors say what is wrong.
        let table = SolveOptions {
            method: Method::Table,
            ..Default::default()
        };
        assert!(matches!(
            s.plan(&fifteen, &Board::goal(fifteen.shape()), &table),
            Err(Error::NoTable { .. })
        ));
        let nine = Board::goal(Shape::new(9, 9).unwrap());
        assert!(matches!(
            s.plan(&nine, &nine, &weighted),
            Err(Error::SearchTooLarge { .. })
        ));
    }

    #[test]
    fn lines() {
        let s = Solver::with_options(CacheDir::None, Arc::new(NoProgress));
        let b = Board::parse("[[1,0,2,3]]").unwrap();
        let g = Board::goal(b.shape());
        assert_eq!(s.solve(&b, &g).unwrap().moves, Some(vec![2, 3]));
        let g0 = Board::goal_blank_first(b.shape());
        assert_eq!(s.solve(&b, &g0).unwrap().moves, Some(vec![1]));
        assert_eq!(
            s.distance(&Board::parse("[[2,0,1,3]]").unwrap(), &g)
                .unwrap(),
            -1
        );
    }

    /// Distances from `goal` to every board that reaches it, by a plain breadth-first search (the reference).
    fn bfs_distances(goal: &Board) -> std::collections::HashMap<Board, usize> {
        let mut dist = std::collections::HashMap::from([(goal.clone(), 0)]);
        let mut queue = std::collections::VecDeque::from([goal.clone()]);
        while let Some(b) = queue.pop_front() {
            let d = dist[&b];
            for c in b.shape().neighbors(b.blank()) {
                let mut next = b.clone();
                next.apply(b.tiles()[c]).unwrap();
                if !dist.contains_key(&next) {
                    dist.insert(next.clone(), d + 1);
                    queue.push_back(next);
                }
            }
        }
        dist
    }

    /// Replays a solution's moves: they must be legal and end on the goal. Returns the length.
    fn replay(board: &Board, goal: &Board, s: &Solution) -> usize {
        let moves = s.moves.as_ref().expect("a solution");
        let mut b = board.clone();
        for &t in moves {
            b.apply(t).unwrap();
        }
        assert_eq!(&b, goal, "the moves of {board} do not reach the goal");
        moves.len()
    }

    #[test]
    fn a_timeout_too_long_for_the_clock_is_no_limit() {
        // Instant::now() + Duration::MAX used to panic ("overflow when adding duration to instant").
        let s = Solver::with_options(CacheDir::None, Arc::new(NoProgress));
        let goal = Board::goal(Shape::new(2, 3).unwrap());
        let dist = bfs_distances(&goal);
        for timeout in [
            Duration::MAX,
            Duration::from_secs(u64::MAX),
            Duration::from_secs(1 << 62),
        ] {
            let opts = SolveOptions {
                method: Method::Search,
                heuristic: HeuristicChoice::Manhattan,
                timeout: Some(timeout),
                ..Default::default()
            };
            let b = Board::parse("4 1 2/5 0 3").unwrap();
            let sol = s.solve_with(&b, &goal, &opts).unwrap();
            assert!(sol.optimal, "{timeout:?}");
            assert_eq!(replay(&b, &goal, &sol), dist[&b], "{timeout:?}");
        }
        // And the shortest one the type holds stops the search at once, with a lower bound.
        let opts = SolveOptions {
            method: Method::Search,
            heuristic: HeuristicChoice::Manhattan,
            timeout: Some(Duration::ZERO),
            ..Default::default()
        };
        let b = Board::parse("4 1 2/5 0 3").unwrap();
        let sol = s.solve_with(&b, &goal, &opts).unwrap();
        assert!(!sol.optimal && sol.moves.is_none());
        assert!(sol.lower_bound <= dist[&b] as u64);
    }

    #[test]
    fn weights_outside_their_range_are_errors() {
        let s = Solver::with_options(CacheDir::None, Arc::new(NoProgress));
        let b = Board::parse("4 1 2/5 0 3").unwrap();
        let goal = Board::goal(b.shape());
        let unsolvable = Board::parse("1 2 3/5 4 0").unwrap();
        for w in [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN,
            1e30,
            // From 4 294 968 (u32::MAX / 1000, rounded up) `w * 1000` saturated at u32::MAX; the estimate times the
            // weight overflowed already far below.
            4_294_968.0,
            MAX_WEIGHT + 0.001,
            MAX_WEIGHT * 2.0,
            0.999,
            0.0,
            -0.0,
            -1.0,
            f64::MIN_POSITIVE,
        ] {
            for board in [&b, &unsolvable] {
                for method in [Method::Auto, Method::Search, Method::Table] {
                    let opts = SolveOptions {
                        method,
                        weight: Some(w),
                        ..Default::default()
                    };
                    match s.solve_with(board, &goal, &opts) {
                        Err(Error::InvalidOption { option, reason }) => {
                            assert_eq!(option, "weight");
                            assert!(reason.contains(&MAX_WEIGHT.to_string()), "{reason}");
                        }
                        other => panic!("weight {w}, {method:?}, {board}: {other:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn weighted_answers_stay_within_the_bound_up_to_the_largest_weight() {
        let s = Solver::with_options(CacheDir::None, Arc::new(NoProgress));
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let dist = bfs_distances(&goal);
        let mut rng = crate::scramble::Scrambler::new(17);
        for w in [1.0, 1.0009, 1.5, 2.0, 7.25, 99.9999, MAX_WEIGHT] {
            for _ in 0..8 {
                let b = rng.uniform(&goal);
                for heuristic in [HeuristicChoice::Manhattan, HeuristicChoice::LinearConflict] {
                    let opts = SolveOptions {
                        heuristic: heuristic.clone(),
                        weight: Some(w),
                        ..Default::default()
                    };
                    let sol = s.solve_with(&b, &goal, &opts).unwrap();
                    let len = replay(&b, &goal, &sol);
                    let best = dist[&b];
                    assert!(
                        len as f64 <= w * best as f64,
                        "weight {w}, {heuristic:?}, {b}: {len} moves, optimum {best}"
                    );
                    assert!(sol.lower_bound <= best as u64);
                }
            }
        }
    }

    #[test]
    fn the_largest_weight_does_not_overflow_the_stack() {
        // Weighted IDA* follows paths as deep as its threshold (up to w times the optimum): with weight 100 on a
        // 6x6 board it went more than 13 000 moves deep and overflowed the stack of the thread it ran on.
        let s = Solver::with_options(CacheDir::None, Arc::new(NoProgress));
        let goal = Board::goal(Shape::new(6, 6).unwrap());
        let b = crate::scramble::Scrambler::new(3).uniform(&goal);
        let opts = SolveOptions {
            method: Method::Search,
            heuristic: HeuristicChoice::LinearConflict,
            weight: Some(MAX_WEIGHT),
            max_nodes: Some(2_000_000),
            ..Default::default()
        };
        let sol = s.solve_with(&b, &goal, &opts).unwrap();
        let len = replay(&b, &goal, &sol);
        assert!(
            len > 1000 && len <= crate::search::MAX_WEIGHTED_DEPTH as usize,
            "{len}"
        );
        assert!(!sol.optimal && sol.within == Some(MAX_WEIGHT));
        assert!(sol.lower_bound == b.manhattan_to(&goal).unwrap() && sol.lower_bound <= len as u64);
    }

    /// The marks of a fallback answer: replayable, never optimal unless its length equals the proven lower bound,
    /// `within` only for weighted answers and then at most the weight used, fast mode without a bound.
    fn check_fallback(board: &Board, goal: &Board, sol: &Solution) -> usize {
        let len = replay(board, goal, sol);
        assert!(sol.lower_bound >= board.manhattan_to(goal).unwrap());
        assert!(sol.lower_bound <= len as u64, "{sol:?}");
        if sol.optimal {
            assert_eq!(sol.lower_bound, len as u64, "{sol:?}");
        }
        match (&sol.plan, sol.within) {
            // Fast mode is exact up to 9 cells (complete tables).
            (Plan::Fast, within) => assert!(
                within.is_none() && sol.optimal == (board.shape().cells() <= 9),
                "{sol:?}"
            ),
            (Plan::Search(_), Some(w)) => {
                assert!(!sol.optimal && w > 1.0 && w <= 5.0, "{sol:?}");
                assert!(len as f64 <= w * sol.lower_bound as f64 + 1e-9, "{sol:?}");
            }
            (Plan::Search(_), None) => assert!(sol.optimal, "{sol:?}"),
            other => panic!("{other:?}"),
        }
        len
    }

    #[test]
    fn a_stopped_search_falls_back_to_a_marked_solution() {
        let s = Solver::with_options(CacheDir::None, Arc::new(NoProgress));
        let goal = Board::goal(Shape::new(5, 5).unwrap());
        let mut rng = crate::scramble::Scrambler::new(5);
        let mut weighted = 0;
        for nodes in [0, 2_000, 200_000] {
            let b = rng.uniform(&goal);
            let opts = SolveOptions {
                max_nodes: Some(nodes),
                wait_for_builds: false,
                fallback: true,
                ..Default::default()
            };
            let sol = s.solve_with(&b, &goal, &opts).unwrap();
            check_fallback(&b, &goal, &sol);
            assert!(!sol.optimal, "{sol:?}");
            // Each phase checks its limit every 2^14 nodes (search::ida's CHECK_EVERY), so it may pass it by that.
            let slack = (1 + FALLBACK_WEIGHTS.len() as u64) << 14;
            assert!(
                sol.nodes <= nodes + slack,
                "{} nodes over a budget of {nodes}",
                sol.nodes
            );
            if nodes == 0 {
                assert_eq!(sol.plan, Plan::Fast);
            }
            weighted += usize::from(sol.within.is_some());
            // Without the fallback the same budget gives no moves, and the same proven bound or less.
            let plain = s
                .solve_with(
                    &b,
                    &goal,
                    &SolveOptions {
                        fallback: false,
                        ..opts
                    },
                )
                .unwrap();
            assert!(plain.moves.is_none() && plain.lower_bound <= sol.lower_bound);
        }
        assert!(weighted > 0, "no budget gave a weighted answer");
    }

    #[test]
    fn fallback_answers_keep_their_bounds_against_breadth_first_distances() {
        let s = Solver::with_options(CacheDir::None, Arc::new(NoProgress));
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let dist = bfs_distances(&goal);
        let mut rng = crate::scramble::Scrambler::new(23);
        let mut seen = std::collections::HashSet::new();
        for i in 0..40u64 {
            let b = rng.uniform(&goal);
            let opts = SolveOptions {
                method: Method::Search,
                heuristic: HeuristicChoice::Manhattan,
                max_nodes: Some(i * 40),
                fallback: true,
                ..Default::default()
            };
            let sol = s.solve_with(&b, &goal, &opts).unwrap();
            let len = check_fallback(&b, &goal, &sol);
            let best = dist[&b];
            assert!(
                sol.lower_bound <= best as u64,
                "{b}: {sol:?}, optimum {best}"
            );
            if sol.optimal {
                assert_eq!(len, best, "{b}: {sol:?}");
            }
            if let Some(w) = sol.within {
                assert!(
                    len as f64 <= w * best as f64 + 1e-9,
                    "{b}: {sol:?}, optimum {best}"
                );
            }
            seen.insert((sol.plan.name(), sol.within.is_some(), sol.optimal));
        }
        // The budgets reach every kind of answer: fast (exact on 3 x 3), weighted, optimal.
        assert!(seen.contains(&("fast", false, true)), "{seen:?}");
        assert!(seen.contains(&("search", true, false)), "{seen:?}");
        assert!(seen.contains(&("search", false, true)), "{seen:?}");
    }

    #[test]
    fn without_limits_the_fallback_changes_nothing() {
        let s = Solver::with_options(CacheDir::None, Arc::new(NoProgress));
        let b = Board::parse("4 1 2/5 0 3").unwrap();
        let goal = Board::goal(b.shape());
        let opts = SolveOptions {
            method: Method::Search,
            fallback: true,
            ..Default::default()
        };
        let sol = s.solve_with(&b, &goal, &opts).unwrap();
        assert!(sol.optimal && sol.within.is_none());
        assert_eq!(replay(&b, &goal, &sol), 5);
    }
}
