//! [`SolverBuilder`]: how a [`Solver`] is configured (where its tables go, what it reports to, its memory budget,
//! how it reads table files) before it is made.

use std::sync::Arc;

use crate::progress::{NoProgress, Progress};
use crate::search::pdb::IndexChoice;
use crate::store::Store;
#[cfg(doc)]
use crate::{
    engine::SolverExt,
    exact::cache,
    search::pdb::{PdbIndex, SPARSE_MAX_ENTRIES, SPARSE_MAX_WIDE_BYTES},
};

use super::loaded::{CacheDir, DEFAULT_CACHE_FROM_CELLS, READ_IN_ABOVE};
use super::Solver;

/// Configures a [`Solver`]: start with [`Solver::builder`], set what differs from the defaults, then
/// [`build`](SolverBuilder::build).
///
/// The defaults are those of [`Solver::new`]: tables kept in the platform's cache directory ([`CacheDir::Default`]),
/// no progress reported, no memory budget, files read into memory rather than mapped, the index of each pattern
/// database chosen by size ([`IndexChoice::Auto`](crate::engine::pdb::IndexChoice::Auto)).
///
/// ```
/// use slide::{Board, CacheDir, NoProgress, Solver};
/// let solver = Solver::builder()
///     .cache_dir(CacheDir::None)
///     .progress(std::sync::Arc::new(NoProgress))
///     .max_memory(1 << 30)
///     .build();
/// let b = Board::parse("4 1 2/5 0 3").unwrap();
/// assert_eq!(solver.distance(&b, &Board::goal(b.shape())).unwrap(), 5);
/// ```
#[must_use = "a builder does nothing until `build` is called"]
pub struct SolverBuilder {
    store: Where,
    pub(super) progress: Arc<dyn Progress + Send>,
    pub(super) cache_from_cells: usize,
    pub(super) max_memory: Option<u64>,
    pub(super) map_files: bool,
    pub(super) read_in_above: Option<u64>,
    pub(super) index_choice: IndexChoice,
}

/// Where the tables go, as asked for: a directory is opened only when the solver is built.
#[derive(Debug)]
enum Where {
    Dir(CacheDir),
    Store(Arc<dyn Store>),
}

impl std::fmt::Debug for SolverBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolverBuilder")
            .field("store", &self.store)
            .field("max_memory", &self.max_memory)
            .field("map_files", &self.map_files)
            .field("read_in_above", &self.read_in_above)
            .field("index_choice", &self.index_choice)
            .finish_non_exhaustive()
    }
}

impl Default for SolverBuilder {
    fn default() -> Self {
        SolverBuilder::new()
    }
}

impl SolverBuilder {
    /// The defaults, as [`Solver::builder`].
    pub fn new() -> SolverBuilder {
        SolverBuilder {
            store: Where::Dir(CacheDir::Default),
            progress: Arc::new(NoProgress),
            cache_from_cells: DEFAULT_CACHE_FROM_CELLS,
            max_memory: None,
            map_files: false,
            read_in_above: Some(READ_IN_ABOVE),
            index_choice: IndexChoice::Auto,
        }
    }

    /// Keeps tables and pattern databases in this directory ([`CacheDir::At`]), the platform's cache directory
    /// ([`CacheDir::Default`], the default) or nowhere ([`CacheDir::None`]: built in memory every time).
    pub fn cache_dir(mut self, dir: CacheDir) -> SolverBuilder {
        self.store = Where::Dir(dir);
        self
    }

    /// Keeps tables and pattern databases in `store`, any [`Store`] (a directory is [`SolverBuilder::cache_dir`]).
    pub fn store(mut self, store: Arc<dyn Store>) -> SolverBuilder {
        self.store = Where::Store(store);
        self
    }

    /// Reports long work (table and database builds) and warnings to `progress` (default: nothing is reported).
    pub fn progress(mut self, progress: Arc<dyn Progress + Send>) -> SolverBuilder {
        self.progress = progress;
        self
    }

    /// Refuses, up front, any table or pattern-database build that would need more than `bytes` of memory (default:
    /// no budget). Memory the system refuses within it (an address-space limit below it) is
    /// [`SolveError::OutOfMemory`](crate::SolveError::OutOfMemory), not an abort.
    pub fn max_memory(mut self, bytes: u64) -> SolverBuilder {
        self.max_memory = Some(bytes);
        self
    }

    /// [`SolverBuilder::max_memory`] of what this process may use: the smallest of the machine's physical memory,
    /// what the address-space limit (`RLIMIT_AS`) leaves and the control group's memory limit, where each is known
    /// ([`process_memory_limit`](crate::engine::process_memory_limit)); no budget when none is. The default of the
    /// command line, the server and the Python package.
    pub fn max_memory_of_process(self) -> SolverBuilder {
        match super::memory::process_memory_limit() {
            Some(bytes) => self.max_memory(bytes),
            None => self,
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
    /// random reads, is read into the process's memory all the same, and a [`FileStore`](crate::store::FileStore)
    /// reads its files below [`READ_BELOW`](crate::store::READ_BELOW) (16 MiB) rather than map them. Off by default;
    /// the command line turns it on.
    pub fn map_files(mut self, on: bool) -> SolverBuilder {
        self.map_files = on;
        self
    }

    /// With [`SolverBuilder::map_files`], the size above which blank-cell and blank-bit database files (kinds
    /// `zcpdb`, `zbpdb` and their sparse forms) are still read into the process's own memory: `Some(256 MiB)` by
    /// default, since their random lookups can be slower from a mapping than from memory of the process's own
    /// (measurements in docs/lab). `None` maps them whatever their size: for many processes on one machine, which
    /// then share one copy instead of one each — the 5 × 5 default's `zbdefault` is 3.9 GB per process read in —
    /// and start at once instead of reading gigabytes in (the Python package asks for this with its mapped files,
    /// for slide.ray's workers, and the command line for every command but `bench`).
    ///
    /// ```
    /// use slide::{CacheDir, Solver};
    /// let shared = Solver::builder()
    ///     .cache_dir(CacheDir::None)
    ///     .map_files(true)
    ///     .read_in_above(None)
    ///     .build();
    /// # let _ = shared;
    /// ```
    pub fn read_in_above(mut self, bytes: Option<u64>) -> SolverBuilder {
        self.read_in_above = bytes;
        self
    }

    /// Which pattern databases take the sparse index ([`PdbIndex::Sparse`]): by default ([`IndexChoice::Auto`]) a
    /// database whose sparse table has at most [`SPARSE_MAX_ENTRIES`] 4-bit entries or as many bytes, or at most
    /// [`SPARSE_MAX_WIDE_BYTES`] and twice the dense table's bytes (the 24-puzzle's blank-bit 6 tiles), and whose
    /// build fits [`SolverBuilder::max_memory`]. Such a database is kept by `sum c_i n^i` of its tiles' cells (files
    /// of kind `spdb`, `zcspdb`, made from the dense ones), so that the search keeps each pattern's index move by
    /// move instead of ranking every child: for 1.9 to 2.9 times the dense table's memory (6 tiles of the 24- and
    /// 15-puzzle), about 0.8 times the search time. [`IndexChoice::Dense`] keeps every database dense (to measure
    /// one against the other, or to save that memory); [`IndexChoice::Sparse`] makes every one sparse that has a
    /// sparse form and fits the budget. [`SolverExt::pdb_index`] says what was chosen.
    pub fn pdb_index(mut self, choice: IndexChoice) -> SolverBuilder {
        self.index_choice = choice;
        self
    }

    /// Caches tables of at least `cells` cells in the store (default
    /// [`DEFAULT_CACHE_FROM_CELLS`](crate::engine::DEFAULT_CACHE_FROM_CELLS)); smaller ones are built in memory.
    /// Tests use small shapes to exercise the cache quickly.
    pub fn cache_from_cells(mut self, cells: usize) -> SolverBuilder {
        self.cache_from_cells = cells;
        self
    }

    /// The solver, with no table loaded yet.
    pub fn build(self) -> Solver {
        let store = match &self.store {
            Where::Dir(dir) => dir.store(),
            Where::Store(store) => Some(store.clone()),
        };
        Solver::from_builder(store, self)
    }
}
