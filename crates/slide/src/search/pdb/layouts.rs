//! The layouts made from a built database in one pass: the plain database of a zero-aware one, the blank-cell and
//! blank-bit layouts, and the sparse index.
//!
//! ## The blank-cell layout
//!
//! [`PdbLayout::ZeroCells`] (partition specs with a leading `zc`: `zc7-8`, `zcdefault`) keeps the zero-aware entries
//! per placement and *cell* of the blank: entry `rank * (n - k) + d`, with the plain rank and `d` the free cells
//! below the blank's. Each region's entry is repeated on its cells, so the table is `n - k` times the plain one (2.3
//! GB for zc7-8, 1.21 GB for each 6-tile database of the 24-puzzle), and a lookup is the plain rank, a
//! multiplication and a population count: no map rank, no order, no region byte. It is made from the region layout
//! ([`Pdb::zero_cells`]), which is built and cached first. The search reads it through the plain evaluator, still
//! one lookup per move (the blank stays in its region of every other pattern, so their entries do not change). Its
//! lookups are random reads in a large table, so these files are read into memory, not mapped, when over 256 MiB;
//! smaller ones are mapped like the others.
//!
//! ## The blank-bit layout
//!
//! [`PdbLayout::ZeroBits`] (a leading `zb`: `zb6-6-3`, `zb7-8`, `zbdefault`) keeps one entry per placement, as a
//! plain database does, but wider: its low 4 bits hold the plain entry (the least over the blank's regions), and bit
//! `4 + d` (`d` the free cells below the blank's, as in the blank-cell layout) says that the blank's region on that
//! cell has a zero-aware entry above it, read as one more (two moves more). An entry that is two or more above is so
//! stored one above: lower, so still admissible, and it costs few nodes (the zero-aware entries differ from the
//! least over their placement's regions mostly by one). Entries are 8, 16 or 32 bits (the least power of two that
//! holds `4 + n - k` bits, so that an entry never straddles two words): 16 for 6, 7 and 8 tiles of the 15-puzzle, 32
//! for 6 of the 24-puzzle, 4 to 8 times the plain table against the blank-cell layout's `n - k` times. Made from the
//! region layout ([`Pdb::zero_bits`]); read through the plain evaluator (a lookup is the plain one, the free cell's
//! population count and a shift). Sparse tables of 32-bit entries on at most 28 cells (the 24-puzzle's) keep bit
//! `4 + c` for the blank on cell `c` instead ([`PdbLayout::bit_per_cell`]; 25 of the 28 bits on 5 × 5, files of
//! encoding `zbscellextra4`): a lookup then needs neither the count nor the pattern's cells, and the search does not
//! keep them.
//!
//! ## The sparse index
//!
//! [`PdbIndex::Sparse`] numbers a placement by its tiles' cells as base-`n` digits, `c_0 + c_1 n + ... + c_(k-1)
//! n^(k-1)`, instead of its rank among the `n! / (n - k)!` placements: `n^k` entries, those with two tiles on one
//! cell never read. A move of tile `i` from cell `a` to `b` adds `(b - a) n^i`, so the search keeps each pattern's
//! index move by move and a child's lookup costs a multiply-add (the dense rank is kept move by move as well, a move
//! changing it only through the pattern's tiles it passes: a mask and a short loop). The table is 1.9 times the
//! dense one for 6 tiles of the 24-puzzle (122 MB), 2.9 times for 6 of the 15-puzzle (8.4 MB); the blank-cell layout
//! takes it too (`sparse index * (n - k) + d`). [`Pdb::sparse`] makes it from the dense database in one parallel
//! pass; the solver takes it where it has at most [`SPARSE_MAX_ENTRIES`](super::SPARSE_MAX_ENTRIES) entries, or as
//! many bytes for the blank-bit layout's wider entries, or at most
//! [`SPARSE_MAX_WIDE_BYTES`](super::SPARSE_MAX_WIDE_BYTES) and twice the dense table's bytes (the 24-puzzle's
//! blank-bit 6 tiles) (files of kind `spdb`, mapped like the dense ones, and `zcspdb`, `zbspdb`, read into memory
//! like the blank-cell and blank-bit files when over 256 MiB), unless told otherwise
//! ([`IndexChoice`](super::IndexChoice)).

use super::build::{add_histogram, fill_entries, fill_entries_of};
use super::pattern::ManhattanTable;
use super::zero_index::ZeroIndex;
use super::{Pdb, PdbIndex, PdbLayout, MAX_PATTERN, PDB_BITS};
use crate::board::Shape;
use crate::error::{Error, Result, StoreError};
use crate::exact::packed::PackedTable;
use crate::exact::rank::PartialRanker;
use rayon::prelude::*;

/// A blank-bit entry `e` of a placement on the cells `used` (a bit per cell, `n` cells) with its bits per free cell
/// moved to their cells: bit `4 + d` for the `d`-th free cell becomes bit `4 + c` for that cell `c`
/// ([`PdbLayout::bit_per_cell`]).
fn bits_by_cell(e: u64, used: u64, n: usize) -> u64 {
    let mut out = e & 15;
    let mut d = 0;
    for c in 0..n as u32 {
        if used >> c & 1 == 0 {
            out |= (e >> (PDB_BITS + d) & 1) << (PDB_BITS + c);
            d += 1;
        }
    }
    out
}

/// The placements [`Pdb::sparse`] copies for one cell of the pattern's last tile: every cell of the others, with
/// their dense rank and sparse index summed digit by digit.
struct Digits<'a> {
    n: u64,
    k: usize,
    last: u64,
    weights: &'a [u64],
    pow: &'a [u64],
}

impl Digits<'_> {
    /// Tiles `i..k-1` on every free cell of `used` (which holds the earlier tiles' cells and the last tile's),
    /// `rank` and `sparse` the sums so far; `f(dense rank, sparse index, cells)` for each whole placement (its
    /// cells a bit per cell).
    fn visit(
        &self,
        i: usize,
        used: u64,
        rank: u64,
        sparse: u64,
        f: &mut impl FnMut(u64, u64, u64),
    ) {
        if i + 1 == self.k {
            // The last tile's digit counts the other tiles below its cell (its own bit is not below it).
            let below = (used & ((1u64 << self.last) - 1)).count_ones() as u64;
            f(
                rank + (self.last - below) * self.weights[i],
                sparse + self.last * self.pow[i],
                used,
            );
            return;
        }
        for c in 0..self.n {
            if used >> c & 1 == 1 {
                continue;
            }
            // Only the earlier tiles count below `c`: not the last tile's cell, which `used` also holds.
            let below = (used & ((1u64 << c) - 1)).count_ones() as u64 - (self.last < c) as u64;
            self.visit(
                i + 1,
                used | 1u64 << c,
                rank + (c - below) * self.weights[i],
                sparse + c * self.pow[i],
                f,
            );
        }
    }
}

impl Pdb {
    /// The plain database of a zero-aware one ([`Pdb::build_zero_aware`]): for each placement, the least entry over
    /// the blank's regions, and the plain build's histogram (a region of `s` cells at cost `d` is `s` states of the
    /// plain space at cost `d`, the blank crossing its region for free). Bit for bit what [`Pdb::build`] gives
    /// (tests compare them). `None` for a plain database, or when some zero-aware entry was capped or never
    /// reached (its cost is then not known, nor its place in the histogram).
    ///
    /// Memory the system refuses for the table is [`SolveError::OutOfMemory`](crate::SolveError::OutOfMemory).
    pub fn plain_from_zero_aware(z: &Pdb) -> Result<Option<Pdb>> {
        let mut refused = None;
        let made = Pdb::plain_from_zero_aware_or(z, &mut refused);
        refused.map_or(Ok(made), Err)
    }

    /// [`Pdb::plain_from_zero_aware`], with memory the system refused for its table left in `refused`.
    fn plain_from_zero_aware_or(z: &Pdb, refused: &mut Option<Error>) -> Option<Pdb> {
        use std::sync::atomic::Ordering::Relaxed;
        let index = z.zero.as_ref()?;
        if z.capped > 0 {
            return None;
        }
        let (shape, cells, k) = (z.shape, &z.cells[..], z.cells.len());
        let ranker = PartialRanker::new(shape.cells(), k)?;
        let len = ranker.size();
        let (orders, regions) = (index.orders, index.regions);
        let maps = index.region_start.len() - 1;
        let md = ManhattanTable::new(shape, cells);
        // Order by order, the maps in turn: the zero-aware entries are read in their own order (one pass over the
        // table), each placement's regions side by side; the plain entries are written where their ranks fall.
        let (raw, histogram) = fill_entries(len, |entries| {
            (0..orders)
                .into_par_iter()
                .fold(Vec::<u64>::new, |mut hist, o| {
                    let mut items = [0u8; MAX_PATTERN];
                    for m in 0..maps {
                        index.order_items(index.map_masks[m], o, &mut items[..k]);
                        let md = md.of(&items[..k]) as usize;
                        let first = index.region_start[m] as usize;
                        let masks = &index.region_masks[first..index.region_start[m + 1] as usize];
                        let mut best = 15;
                        for (r, &region) in masks.iter().enumerate() {
                            let e = z.table.get(o * regions + (first + r) as u64);
                            let d = md + 2 * e as usize;
                            if hist.len() <= d {
                                hist.resize(d + 1, 0);
                            }
                            hist[d] += region.count_ones() as u64;
                            best = best.min(e);
                        }
                        let p = ranker.rank(&items[..k]);
                        entries[(p / 16) as usize]
                            .fetch_or((best as u64) << ((p % 16) * 4), Relaxed);
                    }
                    hist
                })
                .reduce(Vec::new, add_histogram)
        })
        .map_err(|e| *refused = Some(e))
        .ok()?;
        Pdb::assemble(
            (shape, cells, z.blank as usize),
            ranker,
            (len, raw),
            histogram,
            0,
            None,
        )
        .ok()
    }

    /// Reassembles a database from a table file's parts.
    pub fn from_parts(
        shape: Shape,
        cells: &[u8],
        blank: usize,
        table: PackedTable,
        histogram: Vec<u64>,
        (layout, index): (PdbLayout, PdbIndex),
    ) -> Result<Pdb> {
        let ranker = PartialRanker::new(shape.cells(), cells.len())
            .ok_or_else(|| Error::Store(StoreError::Unusable("pattern does not fit".into())))?;
        let zero = if layout == PdbLayout::Zero {
            Some(ZeroIndex::shared(shape, cells.len())?)
        } else {
            None
        };
        let len = index.entries(
            layout,
            shape.cells(),
            cells.len(),
            zero.as_ref().map(|z| z.size()),
        );
        if Some(table.len()) != len || Some(table.bits()) != layout.bits(shape.cells(), cells.len())
        {
            return Err(Error::Store(StoreError::Unusable(
                "pattern database does not fit its pattern".into(),
            )));
        }
        Ok(Pdb {
            shape,
            cells: cells.to_vec(),
            blank: blank as u8,
            ranker,
            table,
            histogram,
            capped: 0,
            zero,
            layout,
            index,
        })
    }

    /// The database `z` (zero-aware, [`PdbLayout::Zero`]) in the blank-cell layout ([`PdbLayout::ZeroCells`]): the same
    /// entries, each region's on every cell of the region, indexed by the plain rank and the blank's free cell, so
    /// that a lookup is a plain rank and a population count. One pass over `z` in its own order, each placement's
    /// regions side by side (as [`Pdb::plain_from_zero_aware`]); the histogram and capped count are `z`'s. `None`
    /// when `z` is not in the region layout or the table would not fit in memory's address space.
    ///
    /// Memory: `n - k` times the plain database's 4 bits per placement: 1.21 GB for 6 tiles of the 24-puzzle,
    /// 2.08 GB for 8 tiles and 259 MB for 7 of the 15-puzzle, 28.8 MB for 6 of the 15-puzzle.
    ///
    /// Memory the system refuses for the table is [`SolveError::OutOfMemory`](crate::SolveError::OutOfMemory).
    pub fn zero_cells(z: &Pdb) -> Result<Option<Pdb>> {
        let mut refused = None;
        let made = Pdb::zero_cells_or(z, &mut refused);
        refused.map_or(Ok(made), Err)
    }

    /// [`Pdb::zero_cells`], with memory the system refused for its table left in `refused`.
    fn zero_cells_or(z: &Pdb, refused: &mut Option<Error>) -> Option<Pdb> {
        use std::sync::atomic::Ordering::Relaxed;
        let index = z.zero.as_ref()?;
        let (shape, k) = (z.shape, z.cells.len());
        let n = shape.cells();
        let ranker = PartialRanker::new(n, k)?;
        let free = (n - k) as u64;
        let len = PdbLayout::ZeroCells.entries(n, k, ranker.size(), None)?;
        usize::try_from(len / 2).ok()?;
        let (orders, regions) = (index.orders, index.regions);
        let maps = index.region_start.len() - 1;
        let (raw, ()) = fill_entries(len, |entries| {
            (0..orders).into_par_iter().for_each(|o| {
                let mut items = [0u8; MAX_PATTERN];
                for m in 0..maps {
                    let mask = index.map_masks[m];
                    index.order_items(mask, o, &mut items[..k]);
                    let base = ranker.rank(&items[..k]) * free;
                    let first = index.region_start[m] as usize;
                    let masks = &index.region_masks[first..index.region_start[m + 1] as usize];
                    for (r, &region) in masks.iter().enumerate() {
                        let e = z.table.get(o * regions + (first + r) as u64) as u64;
                        if e == 0 {
                            continue;
                        }
                        let mut left = region;
                        while left != 0 {
                            let c = left.trailing_zeros();
                            left &= left - 1;
                            let i = base + (c - (mask & ((1u64 << c) - 1)).count_ones()) as u64;
                            entries[(i / 16) as usize].fetch_or(e << ((i % 16) * 4), Relaxed);
                        }
                    }
                }
            })
        })
        .map_err(|e| *refused = Some(e))
        .ok()?;
        let table = PackedTable::from_words(PDB_BITS, len, raw)?;
        Some(z.derived(ranker, table, PdbLayout::ZeroCells))
    }

    /// A dense-index database made from the zero-aware `self` in another `layout`: `table` and `ranker` its own,
    /// the pattern, histogram and capped count `self`'s.
    fn derived(&self, ranker: PartialRanker, table: PackedTable, layout: PdbLayout) -> Pdb {
        Pdb {
            shape: self.shape,
            cells: self.cells.clone(),
            blank: self.blank,
            ranker,
            table,
            histogram: self.histogram.clone(),
            capped: self.capped,
            zero: None,
            layout,
            index: PdbIndex::Dense,
        }
    }

    /// The database `z` (zero-aware, [`PdbLayout::Zero`]) in the blank-bit layout ([`PdbLayout::ZeroBits`]): per
    /// placement the least entry over its regions in the low 4 bits, and a bit for each free cell whose region's entry
    /// is above that least (the entry then reads one more, capped there). One pass over `z` in its own order (as
    /// [`Pdb::zero_cells`]); the histogram and capped count are `z`'s (of the entries before the cap). `None` when
    /// `z` is not in the region layout or has more than 28 free cells.
    ///
    /// Memory: a 16-bit entry per placement for 6 to 8 tiles of the 15-puzzle (11.5 MB for 6 tiles, 115 MB for 7,
    /// 1.04 GB for 8), a 32-bit one for 6 tiles of the 24-puzzle (510 MB).
    ///
    /// Memory the system refuses for the table is [`SolveError::OutOfMemory`](crate::SolveError::OutOfMemory).
    pub fn zero_bits(z: &Pdb) -> Result<Option<Pdb>> {
        let mut refused = None;
        let made = Pdb::zero_bits_or(z, &mut refused);
        refused.map_or(Ok(made), Err)
    }

    /// [`Pdb::zero_bits`], with memory the system refused for its table left in `refused`.
    fn zero_bits_or(z: &Pdb, refused: &mut Option<Error>) -> Option<Pdb> {
        use std::sync::atomic::Ordering::Relaxed;
        let index = z.zero.as_ref()?;
        let (shape, k) = (z.shape, z.cells.len());
        let n = shape.cells();
        let bits = PdbLayout::ZeroBits.bits(n, k)?;
        let ranker = PartialRanker::new(n, k)?;
        let len = ranker.size();
        usize::try_from(len.checked_mul(bits as u64)? / 8).ok()?;
        let (orders, regions) = (index.orders, index.regions);
        let maps = index.region_start.len() - 1;
        let per_word = (64 / bits) as u64;
        let (raw, ()) = fill_entries_of(bits, len, |entries| {
            (0..orders).into_par_iter().for_each(|o| {
                let mut items = [0u8; MAX_PATTERN];
                for m in 0..maps {
                    let mask = index.map_masks[m];
                    index.order_items(mask, o, &mut items[..k]);
                    let first = index.region_start[m] as usize;
                    let masks = &index.region_masks[first..index.region_start[m + 1] as usize];
                    let entry = |r: usize| z.table.get(o * regions + (first + r) as u64) as u64;
                    let least = (0..masks.len()).map(entry).min().unwrap_or(0);
                    let mut e = least;
                    for (r, &region) in masks.iter().enumerate() {
                        if entry(r) == least {
                            continue;
                        }
                        let mut left = region;
                        while left != 0 {
                            let c = left.trailing_zeros();
                            left &= left - 1;
                            e |= 1 << (PDB_BITS + c - (mask & ((1u64 << c) - 1)).count_ones());
                        }
                    }
                    if e != 0 {
                        let p = ranker.rank(&items[..k]);
                        entries[(p / per_word) as usize]
                            .fetch_or(e << ((p % per_word) * bits as u64), Relaxed);
                    }
                }
            })
        })
        .map_err(|e| *refused = Some(e))
        .ok()?;
        let table = PackedTable::from_words(bits, len, raw)?;
        Some(z.derived(ranker, table, PdbLayout::ZeroBits))
    }

    /// The dense-index database `d` (plain, or in the blank-cell or blank-bit layout) with the sparse index
    /// ([`PdbIndex::Sparse`]): each placement's entries (one, or `n - k` in the blank-cell layout) copied from its rank to
    /// `sum c_i n^i`, the numbers of impossible placements left 0 and never read. The threads take the cells of the
    /// last tile, each a run of `n^(k-1)` placements. `None` when `d` is sparse already, zero-aware by region, or
    /// the table would not fit in memory's address space.
    ///
    /// Memory: `n^k` entries of 4 bits (times `n - k` in the blank-cell layout; of 16 or 32 bits in the blank-bit
    /// layout): 122 MB for 6 tiles of the 24-puzzle (dense 63.8 MB), 8.4 MB for 6 of the 15-puzzle (2.9 MB), 134 MB
    /// for 7 (28.8 MB); in the blank-bit layout 33.6 MB for 6 tiles of the 15-puzzle, 977 MB for 6 of the 24-puzzle.
    ///
    /// Memory the system refuses for the table is [`SolveError::OutOfMemory`](crate::SolveError::OutOfMemory).
    pub fn sparse(d: &Pdb) -> Result<Option<Pdb>> {
        let mut refused = None;
        let made = Pdb::sparse_or(d, &mut refused);
        refused.map_or(Ok(made), Err)
    }

    /// [`Pdb::sparse`], with memory the system refused for its table left in `refused`.
    fn sparse_or(d: &Pdb, refused: &mut Option<Error>) -> Option<Pdb> {
        use std::sync::atomic::Ordering::Relaxed;
        if d.index != PdbIndex::Dense || d.layout == PdbLayout::Zero {
            return None;
        }
        let (n, k) = (d.shape.cells(), d.cells.len());
        let per = match d.layout {
            PdbLayout::ZeroCells => (n - k) as u64,
            _ => 1,
        };
        let len = PdbIndex::Sparse.entries(d.layout, n, k, None)?;
        let bits = d.table.bits();
        usize::try_from(len.checked_mul(bits as u64)? / 8).ok()?;
        let per_word = (64 / bits) as u64;
        let weights: Vec<u64> = (0..k).map(|i| d.ranker.weight(i)).collect();
        let pow: Vec<u64> = (0..k).map(|i| (n as u64).pow(i as u32)).collect();
        // A bit per free cell becomes a bit per cell (`PdbLayout::bit_per_cell`).
        let by_cell = d.layout.bit_per_cell(PdbIndex::Sparse, n, k);
        let (raw, ()) = fill_entries_of(bits, len, |entries| {
            (0..n as u64).into_par_iter().for_each(|last| {
                let mut copy = |r: u64, s: u64, used: u64| {
                    for j in 0..per {
                        let mut e = d.table.get(r * per + j) as u64;
                        if by_cell && e >> PDB_BITS != 0 {
                            e = bits_by_cell(e, used, n);
                        }
                        if e != 0 {
                            let at = s * per + j;
                            entries[(at / per_word) as usize]
                                .fetch_or(e << ((at % per_word) * bits as u64), Relaxed);
                        }
                    }
                };
                let digits = Digits {
                    n: n as u64,
                    k,
                    last,
                    weights: &weights,
                    pow: &pow,
                };
                digits.visit(0, 1u64 << last, 0, 0, &mut copy);
            })
        })
        .map_err(|e| *refused = Some(e))
        .ok()?;
        let table = PackedTable::from_words(bits, len, raw)?;
        Some(Pdb {
            shape: d.shape,
            cells: d.cells.clone(),
            blank: d.blank,
            ranker: d.ranker.clone(),
            table,
            histogram: d.histogram.clone(),
            capped: d.capped,
            zero: None,
            layout: d.layout,
            index: PdbIndex::Sparse,
        })
    }
}
