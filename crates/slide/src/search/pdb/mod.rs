//! Additive pattern databases (Korf & Felner): exact pattern costs for a set of tiles, built with the BFS engine.
//!
//! A pattern is a set of goal cells; its tiles are the tiles that belong there. The abstract state is where those
//! tiles stand and where the blank stands (other tiles are indistinguishable); a move of a pattern tile costs 1, a
//! move of any other tile costs 0, so the costs of disjoint patterns add up to an admissible heuristic. The
//! [`bfs`](crate::exact::bfs) engine runs from the goal itself: the pattern's tiles home and the blank on *its* goal
//! cell (with every cell the blank reaches from there for free), then the database keeps, for each placement of the
//! pattern's tiles, the least cost over the blank's cells. Seeding with the blank's own goal cell matters where the
//! pattern walls that cell in: a pattern holding the tiles beside it must move one of them to let the blank home.
//!
//! Keeping the least cost over the blank's cells makes the heuristic admissible but not always consistent: where the
//! blank is walled in by pattern tiles, the least cost over all blank cells can be well below the cost from the
//! blank's actual cell, so one move may change the estimate by more than one. IDA* needs admissibility only. (With
//! every tile in the pattern, the database is the exact distance; unreachable placements read 15 and are never
//! looked up.)
//!
//! The same space serves partial goals ([`PatternSpace::partial`], see [`crate::engine::partial`]): there every move
//! costs 1, every state with the pattern's tiles home (and the blank on its cell, if the pattern fixes it) is a
//! goal, moves may be multi-tile moves, and the distances are kept per state, not minimised over the blank.
//!
//! Storage: 4 bits per placement ([`PDB_BITS`]). A pattern's cost is at least the Manhattan distance of its tiles
//! and has the same parity, so the entry stores `(cost - manhattan) / 2`, capped at 15 (capping only lowers the
//! estimate, which stays admissible). A 6-tile pattern of the 15-puzzle has 16!/10! = 5,765,760 placements: 2.9 MB;
//! 7 tiles 57,657,600: 28.8 MB; 8 tiles 518,918,400: 259 MB.
//!
//! ## Layouts and indices
//!
//! - **Plain** ([`PdbLayout::Plain`]): an entry per placement, the least over the blank's cells, as above.
//! - **Zero-aware** ([`PdbLayout::Zero`], partition specs with a leading `z`: `z6-6-3`, `z7-8`): an entry per
//!   placement *and* region of the blank, the connected cells outside the pattern's tiles, which the blank crosses
//!   at no cost ([`ZeroIndex`]). Where the pattern walls the blank in, the entry of the blank's region can be well
//!   above the plain one (which is the least over the placement's regions), and the search still makes one lookup
//!   per move. Plain databases are built through their zero-aware ones where the index takes the pattern
//!   ([`Pdb::plain_from_zero_aware`]): that search settles far fewer states.
//! - **Blank-cell** ([`PdbLayout::ZeroCells`], a leading `zc`): the zero-aware entries per placement and *cell* of
//!   the blank, so that a lookup needs no region: `n - k` times the plain table.
//! - **Blank-bit** ([`PdbLayout::ZeroBits`], a leading `zb`): the plain entry and a bit per free cell saying that
//!   the blank's region there reads one more: 4 to 8 times the plain table.
//! - **The sparse index** ([`PdbIndex::Sparse`]): placements numbered by their cells as base-`n` digits rather than
//!   by rank, so that the search keeps each pattern's index move by move, at the price of a larger table
//!   ([`IndexChoice`]).
//!
//! The files of this folder, by concern: `pattern.rs` ([`PatternSpace`], the space of a pattern and the blank, and
//! the direct build's search), `zero_index.rs` ([`ZeroIndex`]), `zero_space.rs` (the zero-aware build's spaces,
//! [`ZeroSpace`] and [`ZeroBuildSpace`]), `build.rs` (building a database, its memory estimates and the byte build),
//! `layouts.rs` (the layouts and the sparse index made from a built database), and this file: [`Pdb`], its index and
//! layout, and its lookups.

use crate::board::Shape;
use crate::error::{Error, Result, SolveError};
use crate::exact::packed::PackedTable;
use crate::exact::rank::PartialRanker;
use std::sync::Arc;

mod build;
mod layouts;
mod pattern;
#[cfg(test)]
mod tests;
mod zero_index;
mod zero_space;

pub use build::{byte_build_bytes, byte_build_taken, BYTE_BUILD_BUDGET};
pub use pattern::{PatternScratch, PatternSpace};
pub(crate) use zero_index::Placed;
pub use zero_index::ZeroIndex;
pub use zero_space::{ZeroBuildScratch, ZeroBuildSpace, ZeroScratch, ZeroSpace};

/// Most tiles in one pattern.
pub const MAX_PATTERN: usize = 10;

/// A built pattern database: for each placement of the pattern's tiles, `(cost - manhattan) / 2` in 4 bits.
#[derive(Debug, Clone)]
pub struct Pdb {
    shape: Shape,
    cells: Vec<u8>,
    blank: u8,
    ranker: PartialRanker,
    table: PackedTable,
    histogram: Vec<u64>,
    capped: u64,
    /// Set for a zero-aware database indexed by placement and the blank's region ([`PdbLayout::Zero`]).
    zero: Option<Arc<ZeroIndex>>,
    layout: PdbLayout,
    index: PdbIndex,
}

/// How a database numbers the placements of its pattern's tiles (the layout then says what each placement holds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PdbIndex {
    /// By rank among the `n! / (n - k)!` placements ([`PartialRanker`]): the smallest table; a lookup ranks the
    /// placement afresh, a population count per tile.
    #[default]
    Dense,
    /// By `c_0 + c_1 n + ... + c_(k-1) n^(k-1)`, the cells of the pattern's tiles as digits: `n^k` placements, of
    /// which those with two tiles on one cell are never read (1.9 times the dense count for 6 tiles of the
    /// 24-puzzle, 2.9 times for 6 of the 15-puzzle). A move of tile `i` from cell `a` to `b` adds `(b - a) n^i`,
    /// so the search keeps each pattern's index move by move and a lookup ranks nothing ([`Pdb::sparse`]).
    Sparse,
}

/// Most entries a sparse-index table may have when the solver chooses the index ([`IndexChoice::Auto`]): `2^28`,
/// 128 MiB of 4-bit entries (tables of wider entries, in the blank-bit layout, count by their bytes: at most 128
/// MiB). Within it: patterns of up to 7 tiles on the 15-puzzle, 6 on the 24-puzzle, and the blank-cell and
/// blank-bit layouts of 6 tiles on the 15-puzzle.
pub const SPARSE_MAX_ENTRIES: u64 = 1 << 28;

/// Most bytes a sparse-index table may take when the solver chooses the index ([`IndexChoice::Auto`]) and it
/// takes more than [`SPARSE_MAX_ENTRIES`] 4-bit entries: 1 GiB, and at most twice the dense table's bytes. Within
/// it: the blank-bit layout of 6 tiles on the 24-puzzle (977 MB against 510 MB dense; `zbdefault` took 0.83 times
/// the dense tables' search time, docs/korf24.md), which makes the 5 × 5 default pair (`zbdefault|zbalt`). Not
/// the 15-puzzle's blank-bit 7 tiles (537 MB, 4.7 times its dense 115 MB) nor any blank-cell layout over 128 MiB.
pub const SPARSE_MAX_WIDE_BYTES: u64 = 1 << 30;

/// Which databases a solver keeps with the sparse index ([`PdbIndex`]; `SolverBuilder::pdb_index`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum IndexChoice {
    /// Sparse where the table takes at most the memory of [`SPARSE_MAX_ENTRIES`] 4-bit entries (128 MiB), or at
    /// most [`SPARSE_MAX_WIDE_BYTES`] (1 GiB) and at most twice the dense table's; dense elsewhere (the default).
    #[default]
    Auto,
    /// Dense everywhere: the smallest tables, by rank.
    Dense,
    /// Sparse wherever the layout has a sparse form (not the region layout) and the build fits the memory budget:
    /// for example the 24-puzzle's `zcdefault` in 9.3 GB instead of 4.85 GB.
    Sparse,
}

impl std::str::FromStr for IndexChoice {
    type Err = Error;

    /// `auto`, `dense` or `sparse`.
    fn from_str(s: &str) -> Result<IndexChoice> {
        match s {
            "auto" => Ok(IndexChoice::Auto),
            "dense" => Ok(IndexChoice::Dense),
            "sparse" => Ok(IndexChoice::Sparse),
            _ => Err(Error::Solve(SolveError::InvalidOption {
                option: "pdb-index".into(),
                reason: format!("'{s}' is not one of auto, dense, sparse"),
            })),
        }
    }
}

impl PdbIndex {
    /// How many placement numbers the index has for `k` tiles on `n` cells (`None` past `u64`).
    pub fn placements(self, n: usize, k: usize) -> Option<u64> {
        match self {
            PdbIndex::Dense => Some(PartialRanker::new(n, k)?.size()),
            PdbIndex::Sparse => (n as u64).checked_pow(k as u32),
        }
    }

    /// The table's entries in `layout` for `k` tiles on `n` cells (`zero`: the zero-aware index's size, for the
    /// region layout, which has no sparse form).
    pub fn entries(self, layout: PdbLayout, n: usize, k: usize, zero: Option<u64>) -> Option<u64> {
        if self == PdbIndex::Sparse && layout == PdbLayout::Zero {
            return None;
        }
        layout.entries(n, k, self.placements(n, k)?, zero)
    }

    /// The index of `placement` (cells of the pattern's tiles, in pattern order) on `n` cells.
    #[inline]
    pub fn of(self, ranker: &PartialRanker, n: usize, placement: &[u8]) -> u64 {
        match self {
            PdbIndex::Dense => ranker.rank(placement),
            PdbIndex::Sparse => placement
                .iter()
                .rev()
                .fold(0u64, |s, &c| s * n as u64 + c as u64),
        }
    }
}

/// How a pattern database's entries are indexed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PdbLayout {
    /// An entry per placement of the pattern's tiles: the least cost over the blank's cells.
    Plain,
    /// Zero-aware, an entry per placement and region of the blank, ranked by [`ZeroIndex`] (order-major): the
    /// compact form, 2 to 3 times the plain size.
    Zero,
    /// Zero-aware, an entry per placement and free cell of the blank: entry `rank * (n - k) + d`, where `rank` is
    /// the plain rank and `d` counts the free cells below the blank's, so each region's entry is repeated on its
    /// cells. `n - k` times the plain size (19 for 6 tiles of the 24-puzzle, 8 for 8 of the 15-puzzle), looked up
    /// as fast as a plain entry ([`Pdb::zero_cells`]).
    ZeroCells,
    /// Zero-aware, capped at one more than the plain entry, in one wider entry per placement: the plain entry in
    /// the low 4 bits, and bit `4 + d` set when the blank on its `d`-th free cell (counted from cell 0) is in a region
    /// whose zero-aware entry is above the plain one ([`Pdb::zero_bits`]; widths by [`PdbLayout::bits`]). Sparse
    /// tables of 32-bit entries keep bit `4 + c` for the blank on cell `c` instead ([`PdbLayout::bit_per_cell`]).
    ZeroBits,
}

impl PdbLayout {
    /// The layout's entries for `k` tiles on `n` cells, given the plain placements and the zero-aware index's
    /// size (`None` when the pattern has no zero-aware index).
    pub fn entries(self, n: usize, k: usize, placements: u64, zero: Option<u64>) -> Option<u64> {
        match self {
            PdbLayout::Plain => Some(placements),
            PdbLayout::Zero => zero,
            PdbLayout::ZeroCells => placements.checked_mul(n.checked_sub(k)? as u64),
            PdbLayout::ZeroBits => Some(placements),
        }
    }

    /// True when the blank-bit layout with `index` keeps its bits per *cell* of the board for `k` tiles on `n`
    /// cells: bit `4 + c` for the blank on cell `c`, so that a lookup needs no count of the free cells below the
    /// blank's (nor the pattern's cells). So in the sparse index when the entries take 32 bits and the board has at
    /// most 28 cells (5 × 5: 29 bits of 32); elsewhere a bit per free cell.
    ///
    /// ```
    /// use slide::engine::pdb::{PdbIndex, PdbLayout};
    /// assert!(PdbLayout::ZeroBits.bit_per_cell(PdbIndex::Sparse, 25, 6));
    /// assert!(!PdbLayout::ZeroBits.bit_per_cell(PdbIndex::Dense, 25, 6));
    /// assert!(!PdbLayout::ZeroBits.bit_per_cell(PdbIndex::Sparse, 16, 6)); // 16-bit entries
    /// ```
    pub fn bit_per_cell(self, index: PdbIndex, n: usize, k: usize) -> bool {
        self == PdbLayout::ZeroBits
            && index == PdbIndex::Sparse
            && self.bits(n, k) == Some(32)
            && n + PDB_BITS as usize <= 32
    }

    /// Bits per entry for `k` tiles on `n` cells: [`PDB_BITS`], or in the blank-bit layout the least of 8, 16 and
    /// 32 that holds the plain entry and a bit per free cell (`None` when 32 do not: more than 28 free cells).
    ///
    /// ```
    /// use slide::engine::pdb::PdbLayout;
    /// assert_eq!(PdbLayout::ZeroBits.bits(16, 6), Some(16));
    /// assert_eq!(PdbLayout::ZeroBits.bits(25, 6), Some(32));
    /// assert_eq!(PdbLayout::Plain.bits(25, 6), Some(4));
    /// ```
    pub fn bits(self, n: usize, k: usize) -> Option<u32> {
        match self {
            PdbLayout::ZeroBits => {
                let need = PDB_BITS as usize + n.checked_sub(k)?;
                [8, 16, 32].into_iter().find(|&b| b as usize >= need)
            }
            _ => Some(PDB_BITS),
        }
    }
}

/// Bits per database entry.
pub const PDB_BITS: u32 = 4;

impl Pdb {
    /// True when the database keeps its blank bits per cell of the board ([`PdbLayout::bit_per_cell`]).
    pub fn bit_per_cell(&self) -> bool {
        self.layout
            .bit_per_cell(self.index, self.shape.cells(), self.cells.len())
    }

    /// The index of a zero-aware database in the region layout ([`PdbLayout::Zero`]); `None` for the others.
    pub fn zero_index(&self) -> Option<&Arc<ZeroIndex>> {
        self.zero.as_ref()
    }

    /// How the entries are indexed.
    pub fn layout(&self) -> PdbLayout {
        self.layout
    }

    /// The stored `(cost - manhattan) / 2` of a placement (cells of the pattern's tiles, in pattern order) with the
    /// blank on `blank` (a cell outside the placement): of its region in a zero-aware database, of the placement
    /// in a plain one.
    #[inline]
    pub fn extra_with_blank(&self, placement: &[u8], blank: u8) -> u32 {
        match (&self.zero, self.layout) {
            (Some(z), _) => self.table.get(z.index(placement, blank)),
            (None, PdbLayout::ZeroCells) => {
                let free = (self.shape.cells() - self.cells.len()) as u64;
                let used = placement.iter().fold(0u64, |m, &c| m | 1u64 << (c & 63));
                let below = (used & ((1u64 << (blank & 63)) - 1)).count_ones() as u64;
                self.table
                    .get(self.placement_index(placement) * free + blank as u64 - below)
            }
            (None, PdbLayout::ZeroBits) if self.bit_per_cell() => {
                let e = self.table.get(self.placement_index(placement));
                (e & 15) + (e.checked_shr(PDB_BITS + blank as u32).unwrap_or(0) & 1)
            }
            (None, PdbLayout::ZeroBits) => {
                let used = placement.iter().fold(0u64, |m, &c| m | 1u64 << (c & 63));
                let below = (used & ((1u64 << (blank & 63)) - 1)).count_ones();
                let e = self.table.get(self.placement_index(placement));
                // A blank off the board or on the placement reads no bit (not a shift past the entry).
                (e & 15) + (e.checked_shr(PDB_BITS + blank as u32 - below).unwrap_or(0) & 1)
            }
            (None, _) => self.extra(placement),
        }
    }

    /// The pattern's goal cells.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The goal's blank cell the database was built for.
    pub fn blank(&self) -> usize {
        self.blank as usize
    }

    /// The packed entries.
    pub fn packed(&self) -> &PackedTable {
        &self.table
    }

    /// Abstract states at each cost (with the blank), as found by the build.
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }

    /// Placements whose stored value was capped at 15 by this build (their estimate is lower than the true cost).
    pub fn capped(&self) -> u64 {
        self.capped
    }

    /// The ranker of placements.
    #[inline]
    pub fn ranker(&self) -> &PartialRanker {
        &self.ranker
    }

    /// The stored `(cost - manhattan) / 2` of a placement (cells of the pattern's tiles, in pattern order), in a
    /// plain database.
    #[inline]
    pub fn extra(&self, placement: &[u8]) -> u32 {
        self.table.get(self.placement_index(placement))
    }

    /// The number of a placement (cells of the pattern's tiles, in pattern order) in the database's index: its
    /// rank, or its sparse index ([`PdbIndex`]).
    #[inline]
    pub fn placement_index(&self, placement: &[u8]) -> u64 {
        self.index.of(&self.ranker, self.shape.cells(), placement)
    }

    /// How the placements are numbered.
    pub fn index(&self) -> PdbIndex {
        self.index
    }

    /// The stored value at an index (a rank in a dense table).
    #[inline]
    pub fn extra_at(&self, rank: u64) -> u32 {
        self.table.get(rank)
    }

    /// Memory taken by the entries, in bytes.
    pub fn bytes(&self) -> usize {
        self.table.bytes()
    }
}
