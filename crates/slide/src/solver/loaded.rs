//! Loading, building and keeping tables: complete tables, pattern databases, MTM label tables and partial goals' tables,
//! each loaded from the store or built (and saved) once per solver by one loader.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::board::frame::Frame;
use crate::board::{Board, Shape};
use crate::error::{Error, Result};
use crate::exact::cache::{self, Meta};
use crate::exact::packed::PackedTable;
use crate::exact::table::{CompleteTable, Encoding, FullSpace, MAX_TABLE_CELLS};
use crate::metric::Metric;
use crate::progress::Progress;
use crate::search::heuristic::PdbSet;
use crate::search::mtm::{LabelTable, Layout};
use crate::search::partial::{PartialKey, PartialTable};
use crate::search::partition::{self, PartitionSpec};
use crate::search::pdb::{PatternSpace, Pdb, PdbIndex, PdbLayout};
use crate::store::{FileStore, Store};
use crate::{SolveError, StoreError};

use super::memory::{
    partial_build_bytes, pdb_build_need, table_build_bytes, DEFAULT_PARTIAL_MEMORY,
};
use super::Solver;
#[cfg(doc)]
use crate::{engine::SolverExt, SolverBuilder};

/// Canonical shapes that have complete tables, in slot order (each in both metrics: STM slots first).
pub(super) const TABLE_SHAPES: [(usize, usize); 7] =
    [(2, 2), (2, 3), (2, 4), (2, 5), (2, 6), (3, 3), (3, 4)];

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
pub(super) fn metric_slot(shape: Shape, blank: usize, metric: Metric) -> Option<usize> {
    let per_metric = TABLE_SHAPES.len() * MAX_TABLE_CELLS;
    slot(shape, blank).map(|i| match metric {
        Metric::Stm => i,
        Metric::Mtm => per_metric + i,
    })
}

/// Where tables and pattern databases are kept between runs, for [`SolverBuilder::cache_dir`] (any other
/// [`Store`]: [`SolverBuilder::store`]).
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

/// A loaded pattern database's key: canonical shape, goal blank cell, the pattern's goal cells, entry layout and
/// index.
pub(super) type PdbKey = (Shape, usize, Vec<u8>, PdbLayout, PdbIndex);

/// The size above which the zero-aware blank-cell and blank-bit database files (kinds `zcpdb`, `zbpdb` and their
/// sparse forms) are read into the process's own memory rather than mapped by default: 256 MiB (see
/// `Solver::load`, [`SolverBuilder::read_in_above`]).
pub(super) const READ_IN_ABOVE: u64 = 256 << 20;

/// Tables of at least this many cells are cached on disk by default (the 12-cell ones); smaller ones build in
/// memory in about a second or less.
pub const DEFAULT_CACHE_FROM_CELLS: usize = 11;

impl Solver {
    /// The complete STM table of a canonical shape (`rows <= cols`, both ≥ 2, at most 12 cells) and goal blank
    /// cell: built in memory up to 10 cells; for 12 cells loaded from the cache, or built and saved there.
    #[inline]
    pub(crate) fn table(&self, shape: Shape, blank: usize) -> Result<&Arc<CompleteTable>> {
        self.table_in(shape, blank, Metric::Stm)
    }

    /// The complete table of `metric` for a canonical shape and goal blank cell, as [`Solver::table`].
    #[inline]
    pub(crate) fn table_in(
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
            None => Err(Error::Solve(SolveError::NoTable { shape })),
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
        let small = shape.cells() < self.cache_from_cells;
        let lock = if small {
            &self.building_small
        } else {
            &self.building
        };
        // The small tables build in memory in a second or less, and a table answers whatever the limits: no build
        // stop for them (`crate::stop`).
        let stop = if small { None } else { crate::stop::current() };
        crate::stop::with(stop, || {
            let _guard = lock_or_stop(lock)?;
            if self.tables[i].get().is_none() {
                let t = off_pool(|| {
                    self.load(&TableRecipe {
                        shape,
                        blank,
                        metric,
                    })
                })?;
                let _ = self.tables[i].set(Arc::new(t));
            }
            self.tables[i]
                .get()
                .ok_or_else(|| Error::Internal("a table could not be kept".into()))
        })
    }

    /// Loads the file in the recipe's store that matches the recipe's header, or builds the table (after checking its
    /// memory need, worked out only then, against the limit) and saves it there; without a store, builds in memory.
    /// A damaged or foreign file is reported through [`Progress::warn`] and rebuilt; a file that cannot be written
    /// leaves the table in memory only, with a warning. The one loader of every kind of table ([`Recipe`]).
    ///
    /// Memory the system refuses for a build or a file read in is [`SolveError::OutOfMemory`] naming the table. The
    /// build stop of the work that asked ([`crate::stop`]) ends the wait for another process's build and the build
    /// itself with [`Error::Cancelled`]; nothing is written then.
    fn load<R: Recipe>(&self, recipe: &R) -> Result<R::Table> {
        let progress: &dyn Progress = &*self.progress;
        let expected = recipe.expected()?;
        let what = recipe.what();
        let Some(store) = recipe.store(self) else {
            self.check_memory(&what, recipe.build_bytes())?;
            crate::stop::check()?;
            return recipe.build(self, progress).map_err(|e| e.named(&what));
        };
        let name = cache::file_name(&expected);
        let place = store.locate(&name);
        // Mapped: the pages of the file, shared with every process that maps it. The checksum is checked once per
        // version of the file, and the store records it: later processes skip the pass over every byte, which
        // would read the whole file in before the first answer.
        let mapped = |meta: &Meta| -> Option<Result<R::Table>> {
            // Read into the process's own memory even so: the MTM label tables (kinds `*-alt`), whose search makes
            // three random reads per child and ran slower from mapped pages, and the blank-cell and blank-bit
            // zero-aware databases (`zcpdb`, `zbpdb` and their sparse forms) larger than READ_IN_ABOVE, gigabytes
            // read at random. Smaller ones are mapped like the others: they cost little mapped, and a mapping is
            // shared by every process (Ray's workers, say). So are the sparse-index plain databases (`spdb`), for
            // which a private copy per process gained next to nothing (measurements in docs/lab).
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
                Err(e) => {
                    return Some(Err(Error::Store(StoreError::Unusable(format!(
                        "cannot map {place}: {e}"
                    )))))
                }
            };
            let known = store.verified(&name, &m.stamp);
            match cache::map(m.bytes, meta, &place, known) {
                Ok(Some((meta, table))) => {
                    if !known {
                        store.set_verified(&name, &m.stamp);
                    }
                    Some(recipe.read(meta, table))
                }
                Ok(None) => None,
                Err(e) => Some(Err(e)),
            }
        };
        // Memory the system refused for a file read in: the error of the load (a build would need more).
        let refused: std::cell::RefCell<Option<Error>> = std::cell::RefCell::new(None);
        // The file as it is in the store, if it is whole; what is wrong with it is told (once) with `warn`.
        let found = |warn: bool| -> Option<R::Table> {
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
                        .and_then(|(meta, table)| recipe.read(meta, table))
                    {
                        Ok(t) => return Some(t),
                        Err(e @ Error::Solve(SolveError::OutOfMemory { .. })) => {
                            *refused.borrow_mut() = Some(e.named(&what));
                        }
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
        if let Some(e) = refused.take() {
            return Err(e);
        }
        // Whether a file stood there, whole or not: a damaged one need not be read again below unless another
        // process replaced it while this one waited.
        let present = matches!(store.open(&name), Ok(Some(_)));
        // One build per machine: the store's lock on this file, held until it is written. Another process that
        // built it while this one waited leaves the file to map instead.
        // The wait ends at the build stop of the work that asked ([`crate::stop`]): its time limit covers the wait.
        let stop = crate::stop::current();
        let waiting = std::cell::Cell::new(false);
        let lock = store.lock_build(&name, &|| {
            if !waiting.replace(true) {
                progress.start(&format!("waiting for {what}, built by another process"), 0);
            }
            !crate::stop::reached(&stop)
        });
        if waiting.get() {
            progress.finish();
        }
        crate::stop::check()?;
        let _building = match lock {
            Ok(lock) => lock,
            Err(e) => {
                progress.warn(&format!(
                    "cannot lock {place}: {e}; building without waiting for other processes"
                ));
                None
            }
        };
        if _building.is_some() && (waiting.get() || !present) {
            if let Some(t) = found(false) {
                return Ok(t);
            }
            if let Some(e) = refused.take() {
                return Err(e);
            }
        }
        self.check_memory(&what, recipe.build_bytes())?;
        let t = recipe.build(self, progress).map_err(|e| e.named(&what))?;
        let meta = recipe.saved_meta(&t, expected);
        if let Err(e) = store.write(&name, &mut |w| cache::write(w, &meta, recipe.packed(&t))) {
            progress.warn(&format!(
                "cannot write {place}: {e}; keeping {what} in memory only"
            ));
        } else if let Some(Ok(shared)) = mapped(&meta) {
            // Share the saved file with the other processes rather than keep a copy of our own.
            return Ok(shared);
        }
        Ok(t)
    }

    /// The MTM label tables for `goal`'s shape and blank cell (rows, and columns as the transposed shape's rows),
    /// loaded from the cache or built (and saved).
    pub(crate) fn label_tables(&self, goal: &Board) -> Result<crate::search::mtm::LabelTables> {
        let needed = crate::search::mtm::label_tables_needed(goal.shape(), goal.blank());
        let tables = needed
            .into_iter()
            .map(|(s, blank, layout)| self.label_table(s, blank, layout))
            .collect::<Result<Vec<_>>>()?;
        let mut tables = tables.into_iter();
        let (Some(rows), Some(cols)) = (tables.next(), tables.next()) else {
            unreachable!("label_tables_needed names at least the first layout's pair")
        };
        let second = tables.next().zip(tables.next());
        Ok(crate::search::mtm::LabelTables { rows, cols, second })
    }

    fn label_table(&self, shape: Shape, blank: usize, layout: Layout) -> Result<Arc<LabelTable>> {
        self.loaded_once(&self.labels, &(shape, blank, layout), || {
            self.load(&LabelRecipe {
                shape,
                blank,
                layout,
            })
        })
    }

    /// The pattern databases of every partition `spec` names (several for [`PartitionSpec::Max`] and
    /// [`PartitionSpec::Either`], and for the default where it is a pair: [`SolverExt::partition_for`]).
    pub(crate) fn pdb_sets(
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

    /// The pattern databases of one partition for `goal`, loaded from the cache or built (and saved).
    pub(crate) fn pdb_set(
        &self,
        goal: &Board,
        frame: &Frame,
        spec: &PartitionSpec,
    ) -> Result<PdbSet> {
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

    /// One pattern database in `layout`: plain (files of kind `pdb`), zero-aware by region (`zpdb`) or zero-aware
    /// by the blank's cell (`zcpdb`, made from the `zpdb` one, which is loaded or built and cached first).
    pub(crate) fn pdb_in(
        &self,
        shape: Shape,
        blank: usize,
        cells: &[u8],
        layout: PdbLayout,
    ) -> Result<Arc<Pdb>> {
        let key = self.pdb_key(shape, blank, cells, layout);
        self.loaded_once(&self.pdbs, &key, || {
            self.load(&PdbRecipe {
                shape,
                blank,
                cells,
                layout,
                index: key.4,
                budget: self.max_memory,
            })
        })
    }

    /// The key a database is loaded under, with the index this solver gives it ([`SolverExt::pdb_index`]).
    pub(super) fn pdb_key(
        &self,
        shape: Shape,
        blank: usize,
        cells: &[u8],
        layout: PdbLayout,
    ) -> PdbKey {
        let index = self.pdb_index(shape, cells.len(), layout);
        (shape, blank, cells.to_vec(), layout, index)
    }

    /// The value under `key` in `map`, else `load`'s, kept there: loaded once per solver (concurrent first callers
    /// wait for one build, under the solver's build lock).
    pub(super) fn loaded_once<K: Eq + std::hash::Hash + Clone, V: Send>(
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
        let _guard = lock_or_stop(&self.building)?;
        if let Some(v) = known() {
            return Ok(v);
        }
        let v = Arc::new(off_pool(load)?);
        map.lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key.clone(), v.clone());
        Ok(v)
    }

    /// The table of a partial goal: loaded from the store, or built (after checking its memory need against the
    /// budget) and saved there; concurrent first callers wait for one build.
    pub(crate) fn partial_table(&self, key: &PartialKey) -> Result<Arc<PartialTable>> {
        self.loaded_once(&self.partials, key, || {
            self.load(&PartialRecipe {
                key,
                limit: self.max_memory.unwrap_or(DEFAULT_PARTIAL_MEMORY),
            })
        })
    }
}

thread_local! {
    /// Set by [`build_here`](super::build_here): builds run on the current thread and pool.
    pub(super) static BUILD_HERE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Takes one of the solver's build locks, waiting for another thread's build as long as the thread's build stop
/// allows ([`crate::stop`]): `Err(Cancelled)` once it is reached.
fn lock_or_stop(lock: &Mutex<()>) -> Result<std::sync::MutexGuard<'_, ()>> {
    let Some(stop) = crate::stop::current() else {
        return Ok(lock.lock().unwrap_or_else(|e| e.into_inner()));
    };
    loop {
        match lock.try_lock() {
            Ok(guard) => return Ok(guard),
            Err(std::sync::TryLockError::Poisoned(e)) => return Ok(e.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => {
                if stop.reached() {
                    return Err(Error::Cancelled);
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        }
    }
}

/// Runs a build that holds one of the solver's build locks so that it cannot deadlock a rayon pool.
///
/// A build uses rayon. Called from a worker of a pool (a batch solved board by board in parallel), the build's
/// parallel loops would run on that pool, and a worker waiting for them may take another board of the batch,
/// which asks for the same table and blocks on the lock its own thread holds; workers blocked on the lock could
/// also leave no thread to run the build. So inside a pool the build runs on a thread of its own with a pool of
/// its own (as many threads as the caller's), and the caller blocks without taking other work. Outside any pool
/// it runs here, on the global pool; so it does in a pool given over to builds ([`build_here`](super::build_here)).
fn off_pool<T: Send>(build: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    if rayon::current_thread_index().is_none() || BUILD_HERE.get() {
        return build();
    }
    let threads = rayon::current_num_threads();
    // The caller's build stop goes with the build ([`crate::stop`] is kept per thread).
    let stop = crate::stop::current();
    std::thread::scope(|scope| {
        let worker = scope.spawn(move || {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("slide-build-{i}"))
                .build()
                .map_err(|e| {
                    Error::Solve(SolveError::Threads {
                        reason: e.to_string(),
                    })
                })?;
            pool.install(|| crate::stop::with(stop, build))
        });
        match worker.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// One kind of table the solver keeps in a store: the header its file must have, what its build costs, and how it
/// is read back or built. [`Solver::load`] loads or builds every kind through this.
trait Recipe {
    /// The table loaded or built.
    type Table;
    /// The store its file is kept in: by default the solver's.
    fn store<'s>(&self, solver: &'s Solver) -> Option<&'s dyn Store> {
        solver.store.as_deref()
    }
    /// The header its file must have (an error when no such table can be made).
    fn expected(&self) -> Result<Meta>;
    /// What it is, for messages ("the 3x4 table").
    fn what(&self) -> String;
    /// Memory its build needs (worked out only before a build).
    fn build_bytes(&self) -> u64;
    /// The table from a file's header and entries (read or mapped).
    fn read(&self, meta: Meta, packed: PackedTable) -> Result<Self::Table>;
    /// Builds the table (`solver` loads or builds what it is made from).
    fn build(&self, solver: &Solver, progress: &dyn Progress) -> Result<Self::Table>;
    /// The header `table` is saved under, from the expected one.
    fn saved_meta(&self, table: &Self::Table, expected: Meta) -> Meta;
    /// Its entries.
    fn packed<'t>(&self, table: &'t Self::Table) -> &'t PackedTable;
}

/// A complete table of a canonical shape and goal blank cell in a metric (files of kind `complete`); tables of
/// fewer than [`SolverBuilder::cache_from_cells`] cells are built in memory, never stored.
struct TableRecipe {
    shape: Shape,
    blank: usize,
    metric: Metric,
}

impl Recipe for TableRecipe {
    type Table = CompleteTable;

    fn store<'s>(&self, solver: &'s Solver) -> Option<&'s dyn Store> {
        if self.shape.cells() < solver.cache_from_cells {
            None
        } else {
            solver.store.as_deref()
        }
    }

    fn expected(&self) -> Result<Meta> {
        let encoding = CompleteTable::encoding_for(self.shape);
        Ok(Meta {
            kind: "complete".into(),
            shape: self.shape,
            blank: self.blank,
            encoding: encoding.name().into(),
            metric: self.metric.name().into(),
            pattern: vec![],
            bits: if encoding == Encoding::Mod3 { 2 } else { 0 },
            len: FullSpace::new(self.shape, self.blank)?.states(),
            histogram: vec![],
            antipodes: vec![],
        })
    }

    fn what(&self) -> String {
        let (shape, metric) = (self.shape, self.metric);
        match metric {
            Metric::Stm => format!("the {shape} table"),
            Metric::Mtm => format!("the {shape} {metric} table"),
        }
    }

    fn build_bytes(&self) -> u64 {
        table_build_bytes(self.shape)
    }

    fn read(&self, meta: Meta, packed: PackedTable) -> Result<CompleteTable> {
        CompleteTable::from_parts(
            self.shape,
            self.blank,
            self.metric,
            CompleteTable::encoding_for(self.shape),
            packed,
            meta.histogram,
            meta.antipodes,
        )
    }

    fn build(&self, _: &Solver, progress: &dyn Progress) -> Result<CompleteTable> {
        CompleteTable::build(self.shape, self.blank, self.metric, progress)
    }

    fn saved_meta(&self, t: &CompleteTable, meta: Meta) -> Meta {
        Meta {
            bits: t.packed().bits(),
            histogram: t.histogram().to_vec(),
            antipodes: t.antipode_ranks().to_vec(),
            ..meta
        }
    }

    fn packed<'t>(&self, t: &'t CompleteTable) -> &'t PackedTable {
        t.packed()
    }
}

/// An MTM label table of a shape, goal blank cell and layout (files of the layout's kind).
struct LabelRecipe {
    shape: Shape,
    blank: usize,
    layout: Layout,
}

impl Recipe for LabelRecipe {
    type Table = LabelTable;

    fn expected(&self) -> Result<Meta> {
        let space = crate::search::mtm::LabelSpace::new(self.shape, self.blank, self.layout)?;
        Ok(Meta {
            kind: self.layout.kind().into(),
            shape: self.shape,
            blank: self.blank,
            encoding: crate::search::mtm::LABEL_ENCODING.into(),
            metric: Metric::Mtm.name().into(),
            pattern: vec![],
            bits: crate::search::mtm::CODE_BITS,
            len: space.arrangements(),
            histogram: vec![],
            antipodes: vec![],
        })
    }

    fn what(&self) -> String {
        format!("the {} MTM label table", self.shape)
    }

    fn build_bytes(&self) -> u64 {
        crate::search::mtm::label_build_bytes(self.shape, self.blank, self.layout)
    }

    fn read(&self, meta: Meta, packed: PackedTable) -> Result<LabelTable> {
        LabelTable::from_parts(self.shape, self.blank, self.layout, packed, meta.histogram)
    }

    fn build(&self, _: &Solver, progress: &dyn Progress) -> Result<LabelTable> {
        LabelTable::build(self.shape, self.blank, self.layout, progress)
    }

    fn saved_meta(&self, t: &LabelTable, meta: Meta) -> Meta {
        Meta {
            histogram: t.histogram().to_vec(),
            bits: t.packed().bits(),
            ..meta
        }
    }

    fn packed<'t>(&self, t: &'t LabelTable) -> &'t PackedTable {
        t.packed()
    }
}

/// A pattern database of a canonical shape and goal blank cell, by its goal cells, layout and index (files of kind
/// `pdb`, `spdb`, `zpdb`, `zcpdb`, `zcspdb`, `zbpdb` or `zbspdb`); the sparse-index and the blank-cell and
/// blank-bit ones are made from another database, loaded or built (and saved) first.
#[derive(Clone, Copy)]
struct PdbRecipe<'c> {
    shape: Shape,
    blank: usize,
    cells: &'c [u8],
    layout: PdbLayout,
    index: PdbIndex,
    /// The solver's memory budget ([`SolverBuilder::max_memory`]), which also picks the build method.
    budget: Option<u64>,
}

impl PdbRecipe<'_> {
    /// The file's kind, the entries' encoding, and the adjective that names the database in messages.
    fn names(&self) -> (&'static str, &'static str, &'static str) {
        let (shape, layout, index) = (self.shape, self.layout, self.index);
        match (layout, index) {
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
                if layout.bit_per_cell(index, shape.cells(), self.cells.len()) =>
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
        }
    }
}

/// The error for a pattern whose database cannot be indexed.
fn too_large() -> Error {
    Error::Solve(SolveError::BadPartition {
        reason: "pattern too large".into(),
    })
}

impl Recipe for PdbRecipe<'_> {
    type Table = Pdb;

    fn expected(&self) -> Result<Meta> {
        let (shape, cells, layout) = (self.shape, self.cells, self.layout);
        PatternSpace::new(shape, cells, self.blank)?;
        let zero = match layout {
            PdbLayout::Plain => None,
            PdbLayout::Zero | PdbLayout::ZeroCells | PdbLayout::ZeroBits => {
                Some(crate::search::pdb::ZeroIndex::shared(shape, cells.len())?.size())
            }
        };
        let len = self
            .index
            .entries(layout, shape.cells(), cells.len(), zero)
            .ok_or_else(too_large)?;
        let (kind, encoding, _) = self.names();
        let bits = layout
            .bits(shape.cells(), cells.len())
            .ok_or_else(too_large)?;
        Ok(Meta {
            kind: kind.into(),
            shape,
            blank: self.blank,
            encoding: encoding.into(),
            metric: Metric::Stm.name().into(),
            pattern: cells.iter().map(|&c| c as u32).collect(),
            bits,
            len,
            histogram: vec![],
            antipodes: vec![],
        })
    }

    fn what(&self) -> String {
        let (_, _, adjective) = self.names();
        format!(
            "a {adjective}{}-tile pattern database of {}",
            self.cells.len(),
            self.shape
        )
    }

    fn build_bytes(&self) -> u64 {
        pdb_build_need(
            self.shape,
            self.cells.len(),
            (self.layout, self.index),
            self.budget,
        )
    }

    fn read(&self, meta: Meta, packed: PackedTable) -> Result<Pdb> {
        Pdb::from_parts(
            self.shape,
            self.cells,
            self.blank,
            packed,
            meta.histogram,
            (self.layout, self.index),
        )
    }

    fn build(&self, solver: &Solver, progress: &dyn Progress) -> Result<Pdb> {
        let (shape, blank, cells, budget) = (self.shape, self.blank, self.cells, self.budget);
        match (self.layout, self.index) {
            (_, PdbIndex::Sparse) => {
                let d = solver.load(&PdbRecipe {
                    index: PdbIndex::Dense,
                    ..*self
                })?;
                Pdb::sparse(&d)?.ok_or_else(too_large)
            }
            (PdbLayout::Plain, _) => Pdb::build_within(shape, cells, blank, budget, progress),
            (PdbLayout::Zero, _) => {
                Pdb::build_zero_aware_within(shape, cells, blank, budget, progress)
            }
            (layout @ (PdbLayout::ZeroCells | PdbLayout::ZeroBits), _) => {
                let z = solver.load(&PdbRecipe {
                    layout: PdbLayout::Zero,
                    index: PdbIndex::Dense,
                    ..*self
                })?;
                let made = if layout == PdbLayout::ZeroCells {
                    Pdb::zero_cells(&z)
                } else {
                    Pdb::zero_bits(&z)
                };
                made?.ok_or_else(too_large)
            }
        }
    }

    fn saved_meta(&self, p: &Pdb, meta: Meta) -> Meta {
        Meta {
            histogram: p.histogram().to_vec(),
            ..meta
        }
    }

    fn packed<'t>(&self, p: &'t Pdb) -> &'t PackedTable {
        p.packed()
    }
}

/// The table of a partial goal's abstract states (files of kind `partial`), refused up front when its build needs
/// more than `limit`.
struct PartialRecipe<'k> {
    key: &'k PartialKey,
    /// The memory budget: the solver's, else [`DEFAULT_PARTIAL_MEMORY`].
    limit: u64,
}

impl Recipe for PartialRecipe<'_> {
    type Table = PartialTable;

    fn expected(&self) -> Result<Meta> {
        let key = self.key;
        let needed = partial_build_bytes(key);
        let len = match key.states() {
            Some(len) if needed <= self.limit => len,
            _ => {
                return Err(Error::Solve(SolveError::TooMuchMemory {
                    what: self.what(),
                    needed,
                    limit: self.limit,
                }))
            }
        };
        Ok(Meta {
            kind: "partial".into(),
            shape: key.shape,
            // A free blank is written as the cell count (no cell).
            blank: key.blank.unwrap_or(key.shape.cells()),
            encoding: "exact".into(),
            metric: key.metric.name().into(),
            pattern: key.cells.iter().map(|&c| c as u32).collect(),
            bits: 0,
            len,
            histogram: vec![],
            antipodes: vec![],
        })
    }

    fn what(&self) -> String {
        let key = self.key;
        format!(
            "the table of a partial goal of {} fixing {} tiles{}",
            key.shape,
            key.cells.len(),
            if key.blank.is_some() {
                " and the blank"
            } else {
                ""
            }
        )
    }

    fn build_bytes(&self) -> u64 {
        partial_build_bytes(self.key)
    }

    fn read(&self, meta: Meta, packed: PackedTable) -> Result<PartialTable> {
        PartialTable::from_parts(self.key, packed, meta.histogram)
    }

    fn build(&self, _: &Solver, progress: &dyn Progress) -> Result<PartialTable> {
        PartialTable::build(self.key, progress)
    }

    fn saved_meta(&self, t: &PartialTable, meta: Meta) -> Meta {
        Meta {
            bits: t.packed().bits(),
            histogram: t.histogram().to_vec(),
            ..meta
        }
    }

    fn packed<'t>(&self, t: &'t PartialTable) -> &'t PackedTable {
        t.packed()
    }
}
