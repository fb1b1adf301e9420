//! Memory estimates: what building a complete table, a pattern database or a partial goal's table needs, and the
//! solver's budget checks and index choice that rest on them.

use crate::board::frame::Frame;
use crate::board::{Shape, Tile};
use crate::error::{Error, Result, SolveError};
use crate::search::partial::PartialKey;
use crate::search::partition::{self, PartitionSpec};
use crate::search::pdb::{
    IndexChoice, PdbIndex, PdbLayout, PDB_BITS, SPARSE_MAX_ENTRIES, SPARSE_MAX_WIDE_BYTES,
};

use super::Solver;
#[cfg(doc)]
use crate::{engine::SolverExt, search::pdb::Pdb, SolverBuilder};

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
pub(super) fn pdb_build_need(
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

/// One pattern database a partition needs ([`SolverExt::pdb_needs`]): which, and what it costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdbNeed {
    /// The pattern's goal cells in the canonical frame.
    pub cells: Vec<u8>,
    /// Its layout.
    pub layout: PdbLayout,
    /// Its index, as the solver chooses it ([`SolverExt::pdb_index`]).
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
/// use slide::engine::{frame::Frame, pdb_needs_memory, SolverExt};
/// use slide::{Board, CacheDir, PartitionSpec, Solver};
/// let frame = Frame::new(&Board::goal_blank_first("5x5".parse().unwrap()));
/// let solver = Solver::builder().cache_dir(CacheDir::None).build();
/// let needs = solver.pdb_needs(&frame, &PartitionSpec::Default, |_| None).unwrap();
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

/// The budget of a partial goal's table build when the solver has none ([`SolverBuilder::max_memory`]): 8 GB. Unlike
/// the fixed tables, a pattern's table grows with the pattern (8 fixed tiles of the 15-puzzle: 8.3 GB), so some
/// budget always applies.
pub const DEFAULT_PARTIAL_MEMORY: u64 = 8_000_000_000;

impl Solver {
    /// The index a database of `k` tiles of `shape` in `layout` takes ([`SolverBuilder::pdb_index`]).
    pub(crate) fn pdb_index(&self, shape: Shape, k: usize, layout: PdbLayout) -> PdbIndex {
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

    pub(super) fn check_memory(&self, what: &str, needed: u64) -> Result<()> {
        match self.max_memory {
            Some(limit) if needed > limit => Err(Error::Solve(SolveError::TooMuchMemory {
                what: what.to_string(),
                needed,
                limit,
            })),
            _ => Ok(()),
        }
    }

    /// The distinct pattern databases the partitions of `spec` need on the goal of `frame`
    /// ([`SolverExt::pdb_needs`]).
    pub(crate) fn pdb_needs(
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
}

/// Address space an `RLIMIT_AS` budget leaves to the process itself beyond what it has mapped at start: thread
/// stacks and the C library's malloc arenas reserve address space (64 MB an arena) well before they use memory.
const ADDRESS_SPACE_RESERVE: u64 = 256 << 20;

/// The memory this process may use, in bytes: the smallest of the machine's physical memory (`MemTotal` of
/// /proc/meminfo), the address-space limit (`RLIMIT_AS`, less what is mapped already and 256 MB kept for thread
/// stacks and malloc arenas) and the memory limit of its control group (cgroup v2 `memory.max`, v1
/// `memory.limit_in_bytes`), where each is known; `None` when none is. The default budget of every face
/// ([`SolverBuilder::max_memory_of_process`]).
pub fn process_memory_limit() -> Option<u64> {
    [
        physical_memory(),
        address_space_left(),
        cgroup_memory_limit(),
    ]
    .into_iter()
    .flatten()
    .min()
}

/// The machine's physical memory in bytes, from /proc/meminfo where there is one.
fn physical_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// What `RLIMIT_AS` (`ulimit -v`) leaves: the limit less the address space mapped now (`VmSize`) and
/// `ADDRESS_SPACE_RESERVE`; `None` when there is no limit.
fn address_space_left() -> Option<u64> {
    let limit = crate::exact::packed::address_space_limit()?;
    let mapped = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmSize:"))?.to_string();
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map_or(0, |kb| kb * 1024);
    Some(
        limit
            .saturating_sub(mapped)
            .saturating_sub(ADDRESS_SPACE_RESERVE),
    )
}

/// The control group's memory limit (Linux): cgroup v2 `memory.max`, or v1 `memory.limit_in_bytes`, of the group
/// /proc/self/cgroup names (or of the hierarchy's root, as a container sees its own group); `None` when there is
/// no limit ("max", or v1's huge "unlimited" value) or no group file to read.
fn cgroup_memory_limit() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let read = |file: &str, mount: &str, path: &str| -> Option<u64> {
        [format!("{mount}{path}/{file}"), format!("{mount}/{file}")]
            .into_iter()
            .find_map(|f| std::fs::read_to_string(f).ok())?
            .trim()
            .parse()
            .ok()
    };
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let path = path.trim_end_matches('/');
        let limit = if controllers.is_empty() {
            read("memory.max", "/sys/fs/cgroup", path)
        } else if controllers.split(',').any(|c| c == "memory") {
            // v1 says "no limit" with a value near the largest page-aligned i64.
            read("memory.limit_in_bytes", "/sys/fs/cgroup/memory", path).filter(|&m| m < 1 << 60)
        } else {
            None
        };
        if limit.is_some() {
            return limit;
        }
    }
    None
}
