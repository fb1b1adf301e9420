//! Admissible heuristics for IDA*: Manhattan distance, linear conflicts, and additive pattern databases with the
//! reflection about the main diagonal. Each keeps its value up to date move by move.

use std::sync::Arc;

use crate::board::Shape;
use crate::error::{Error, Result};
use crate::search::pdb::{Pdb, PdbIndex, PdbLayout, Placed, ZeroIndex, MAX_PATTERN, PDB_BITS};

/// Most cells a board searched by IDA* may have.
pub const MAX_SEARCH_CELLS: usize = 64;

/// The goal geometry shared by the heuristics and the search: a canonical shape and goal (see [`crate::board::frame`]).
#[derive(Debug, Clone)]
pub struct Geometry {
    /// The shape.
    pub shape: Shape,
    /// Number of cells.
    pub n: usize,
    /// The goal's blank cell.
    pub blank_goal: usize,
    /// Goal cell of each tile (index 0, the blank: its goal cell).
    pub goal_cell: Vec<u8>,
    /// Tile whose goal is each cell (0 on the blank's goal cell).
    pub tile_at_goal: Vec<u8>,
    /// Neighbours of each cell.
    pub neighbors: Vec<[u8; 4]>,
    /// Number of neighbours of each cell.
    pub degree: Vec<u8>,
    /// `md[t * n + c]`: Manhattan distance of tile `t` on cell `c` from its goal (0 for the blank).
    pub md: Vec<u8>,
}

impl Geometry {
    /// The geometry of `shape` with the canonical goal whose blank is on `blank_goal`.
    pub fn new(shape: Shape, blank_goal: usize) -> Result<Geometry> {
        let n = shape.cells();
        if n > MAX_SEARCH_CELLS || blank_goal >= n {
            return Err(if n > MAX_SEARCH_CELLS {
                Error::SearchTooLarge { shape }
            } else {
                Error::Internal(format!("goal blank cell {blank_goal} is off the board"))
            });
        }
        let goal_cell: Vec<u8> =
            (0..n).map(|t| if t == 0 { blank_goal } else if t - 1 < blank_goal { t - 1 } else { t } as u8).collect();
        let mut tile_at_goal = vec![0u8; n];
        for (t, &c) in goal_cell.iter().enumerate() {
            tile_at_goal[c as usize] = t as u8;
        }
        let (neighbors, degree) = shape.neighbor_table();
        let mut md = vec![0u8; n * n];
        for t in 1..n {
            for c in 0..n {
                md[t * n + c] = shape.manhattan(c, goal_cell[t] as usize) as u8;
            }
        }
        Ok(Geometry {
            shape,
            n,
            blank_goal,
            goal_cell,
            tile_at_goal,
            neighbors,
            degree,
            md,
        })
    }

    /// The cell mirrored about the main diagonal (square boards only).
    #[inline]
    pub fn transpose(&self, c: u8) -> u8 {
        let cols = self.shape.cols() as u8;
        (c % cols) * cols + c / cols
    }

    /// True when the goal is its own mirror image about the main diagonal, so reflection can be used.
    pub fn reflectable(&self) -> bool {
        self.shape.rows() == self.shape.cols()
            && self.transpose(self.blank_goal as u8) as usize == self.blank_goal
    }
}

/// A heuristic kept current along a search path: `push` a move, `pop` it on the way back.
pub trait Eval {
    /// What `push` saves for `pop`.
    type Undo: Copy;
    /// True when a move may change the estimate by more than one (the search then applies pathmax).
    const INCONSISTENT: bool = false;
    /// Sets up for a state given as tile → cell.
    fn reset(&mut self, pos: &[u8]);
    /// The current estimate.
    fn h(&self) -> u32;
    /// Tile `t` moved from cell `from` to cell `to`. Once the estimate is known to exceed `budget`, an
    /// implementation may stop refining it: `h()` is then any admissible value above `budget`.
    fn push(&mut self, t: u8, from: u8, to: u8, budget: u32) -> Self::Undo;
    /// Undoes a `push` (same arguments, and what it returned).
    fn pop(&mut self, t: u8, from: u8, to: u8, undo: Self::Undo);
    /// What [`Eval::probe`] found, for [`Eval::push_probed`].
    type Probe: Copy + Default;
    /// The estimate after tile `t` moved from `from` to `to` (same contract as `push`), leaving the state as it
    /// was: the search probes every child first, and moves only into those within the bound. A probe whose
    /// estimate exceeds `budget` may be incomplete and must not be passed to `push_probed`.
    fn probe(&mut self, t: u8, from: u8, to: u8, budget: u32) -> (u32, Self::Probe);
    /// How the search orders children of equal estimate: those with the smaller key first (the default, 0 for
    /// every probe, keeps the order of the moves). Any order is correct: a complete iteration visits the same
    /// nodes in any order, and the order only decides how soon the last iteration meets a goal.
    #[inline(always)]
    fn tie_break(_probe: &Self::Probe) -> u8 {
        0
    }
    /// `push` with the values a `probe` of the same move found.
    fn push_probed(&mut self, t: u8, from: u8, to: u8, probe: Self::Probe) -> Self::Undo;
    /// What [`Eval::ahead`] works out for a move, for [`Eval::probe_ahead`].
    type Ahead: Copy + Default;
    /// True when the search should call [`Eval::ahead`] for every child of a node before probing the first, and
    /// then probe them with [`Eval::probe_ahead`] (the default: never).
    #[inline(always)]
    fn looks_ahead(&self) -> bool {
        false
    }
    /// What a probe of the move will need first (such as its table indices), with the loads of what it will read
    /// started (a hint that changes no value): the loads of a node's children then overlap.
    #[inline(always)]
    fn ahead(&self, _t: u8, _from: u8, _to: u8) -> Self::Ahead {
        Self::Ahead::default()
    }
    /// [`Eval::probe`] given what [`Eval::ahead`] returned for the same move in the same state (the default
    /// ignores it).
    #[inline(always)]
    fn probe_ahead(
        &mut self,
        t: u8,
        from: u8,
        to: u8,
        budget: u32,
        _ahead: Self::Ahead,
    ) -> (u32, Self::Probe) {
        self.probe(t, from, to, budget)
    }
}

/// Manhattan distance: the sum over tiles of their taxicab distance to their goal cells.
#[derive(Debug, Clone)]
pub struct Manhattan {
    /// `md[t * 64 + c]`: distance of tile `t` on cell `c` from its goal cell (a fixed array: no bounds checks in
    /// the search loop).
    md: Box<[u8; MAX_SEARCH_CELLS * MAX_SEARCH_CELLS]>,
    n: usize,
    h: u32,
}

impl Manhattan {
    /// For a geometry.
    pub fn new(g: &Geometry) -> Manhattan {
        let mut md = Box::new([0u8; MAX_SEARCH_CELLS * MAX_SEARCH_CELLS]);
        for t in 0..g.n {
            for c in 0..g.n {
                md[t * MAX_SEARCH_CELLS + c] = g.md[t * g.n + c];
            }
        }
        Manhattan { md, n: g.n, h: 0 }
    }
}

impl Eval for Manhattan {
    type Undo = ();
    type Probe = ();
    type Ahead = ();
    #[inline(always)]
    fn probe(&mut self, t: u8, from: u8, to: u8, _: u32) -> (u32, ()) {
        let base = (t as usize & 63) * MAX_SEARCH_CELLS;
        (
            self.h + self.md[base + (to as usize & 63)] as u32
                - self.md[base + (from as usize & 63)] as u32,
            (),
        )
    }
    #[inline(always)]
    fn push_probed(&mut self, t: u8, from: u8, to: u8, _: ()) {
        self.push(t, from, to, u32::MAX)
    }
    fn reset(&mut self, pos: &[u8]) {
        self.h = (1..self.n)
            .map(|t| self.md[t * MAX_SEARCH_CELLS + pos[t] as usize] as u32)
            .sum();
    }
    #[inline(always)]
    fn h(&self) -> u32 {
        self.h
    }
    #[inline(always)]
    fn push(&mut self, t: u8, from: u8, to: u8, _: u32) {
        let base = (t as usize & 63) * MAX_SEARCH_CELLS;
        self.h = self.h + self.md[base + (to as usize & 63)] as u32
            - self.md[base + (from as usize & 63)] as u32;
    }
    #[inline(always)]
    fn pop(&mut self, t: u8, from: u8, to: u8, _: ()) {
        let base = (t as usize & 63) * MAX_SEARCH_CELLS;
        self.h = self.h + self.md[base + (from as usize & 63)] as u32
            - self.md[base + (to as usize & 63)] as u32;
    }
}

/// The estimate of a partial goal ([`crate::Pattern`]) for IDA*: the Manhattan distance of the pattern's fixed
/// tiles to their cells and, when the pattern fixes the blank, the larger of that and the blank's distance to its
/// cell. Admissible, as each move takes one tile and the blank one cell each, and consistent; 0 exactly on the
/// boards that match (the goal test of IDA*). Tiles are the board's own (no canonical frame).
#[derive(Debug, Clone)]
pub struct PatternManhattan {
    tiles: Manhattan,
    /// `blank[c]`: the distance of cell `c` from the blank's fixed cell (all 0 when the blank is free).
    blank: Vec<u8>,
    blank_h: u32,
}

impl PatternManhattan {
    /// For the pattern that puts each tile of `fixed` (`(cell, tile)`, tiles below 64) on its cell, and the blank on
    /// `blank` if given, on `shape` (at most [`MAX_SEARCH_CELLS`] cells).
    pub fn new(
        shape: Shape,
        fixed: &[(usize, u32)],
        blank: Option<usize>,
    ) -> Result<PatternManhattan> {
        let n = shape.cells();
        if n > MAX_SEARCH_CELLS {
            return Err(Error::SearchTooLarge { shape });
        }
        let mut md = Box::new([0u8; MAX_SEARCH_CELLS * MAX_SEARCH_CELLS]);
        for &(cell, t) in fixed {
            for c in 0..n {
                md[t as usize * MAX_SEARCH_CELLS + c] = shape.manhattan(c, cell) as u8;
            }
        }
        let blank = (0..n)
            .map(|c| blank.map_or(0, |b| shape.manhattan(c, b) as u8))
            .collect();
        Ok(PatternManhattan {
            tiles: Manhattan { md, n, h: 0 },
            blank,
            blank_h: 0,
        })
    }
}

impl Eval for PatternManhattan {
    /// The blank's distance before the move.
    type Undo = u32;
    type Probe = ();
    type Ahead = ();
    #[inline(always)]
    fn probe(&mut self, t: u8, from: u8, to: u8, budget: u32) -> (u32, ()) {
        // The tile goes from `from` to `to`; the blank the other way.
        let (h, ()) = self.tiles.probe(t, from, to, budget);
        (h.max(self.blank[from as usize & 63] as u32), ())
    }
    #[inline(always)]
    fn push_probed(&mut self, t: u8, from: u8, to: u8, _: ()) -> u32 {
        self.push(t, from, to, u32::MAX)
    }
    fn reset(&mut self, pos: &[u8]) {
        self.tiles.reset(pos);
        self.blank_h = self.blank[pos[0] as usize] as u32;
    }
    #[inline(always)]
    fn h(&self) -> u32 {
        self.tiles.h.max(self.blank_h)
    }
    #[inline(always)]
    fn push(&mut self, t: u8, from: u8, to: u8, budget: u32) -> u32 {
        self.tiles.push(t, from, to, budget);
        std::mem::replace(&mut self.blank_h, self.blank[from as usize & 63] as u32)
    }
    #[inline(always)]
    fn pop(&mut self, t: u8, from: u8, to: u8, undo: u32) {
        self.tiles.pop(t, from, to, ());
        self.blank_h = undo;
    }
}

/// Manhattan distance plus linear conflicts: in each row (column), tiles that are in their goal row (column) but in
/// the wrong order must leave it, two extra moves for each tile outside the longest correctly ordered subsequence.
#[derive(Debug, Clone)]
pub struct LinearConflict {
    g: Geometry,
    md: Manhattan,
    tiles: Vec<u8>,
    row_lc: Vec<u8>,
    col_lc: Vec<u8>,
    lc: u32,
}

impl LinearConflict {
    /// For a geometry.
    pub fn new(g: &Geometry) -> LinearConflict {
        LinearConflict {
            md: Manhattan::new(g),
            tiles: vec![0; g.n],
            row_lc: vec![0; g.shape.rows()],
            col_lc: vec![0; g.shape.cols()],
            lc: 0,
            g: g.clone(),
        }
    }

    /// Extra moves forced by conflicts in row `r` (`col == false`) or column `r`.
    fn line(&self, r: usize, col: bool) -> u8 {
        let (rows, cols) = (self.g.shape.rows(), self.g.shape.cols());
        let len = if col { rows } else { cols };
        let mut keys = [0u8; 64];
        let mut k = 0;
        for i in 0..len {
            let cell = if col { i * cols + r } else { r * cols + i };
            let t = self.tiles[cell] as usize;
            if t == 0 {
                continue;
            }
            let gc = self.g.goal_cell[t] as usize;
            let (gr, gcol) = (gc / cols, gc % cols);
            if col && gcol == r {
                keys[k] = gr as u8;
                k += 1;
            } else if !col && gr == r {
                keys[k] = gcol as u8;
                k += 1;
            }
        }
        // Longest increasing subsequence, O(k^2) on at most a line's length.
        let mut best = [0u8; 64];
        let mut lis = 0u8;
        for i in 0..k {
            best[i] = 1;
            for j in 0..i {
                if keys[j] < keys[i] && best[j] + 1 > best[i] {
                    best[i] = best[j] + 1;
                }
            }
            lis = lis.max(best[i]);
        }
        2 * (k as u8 - lis)
    }
}

impl Eval for LinearConflict {
    type Undo = (u8, u8);
    type Probe = ();
    type Ahead = ();
    fn probe(&mut self, t: u8, from: u8, to: u8, budget: u32) -> (u32, ()) {
        let undo = self.push(t, from, to, budget);
        let h = self.h();
        self.pop(t, from, to, undo);
        (h, ())
    }
    fn push_probed(&mut self, t: u8, from: u8, to: u8, _: ()) -> (u8, u8) {
        self.push(t, from, to, u32::MAX)
    }
    fn reset(&mut self, pos: &[u8]) {
        self.md.reset(pos);
        for (t, &c) in pos.iter().enumerate() {
            self.tiles[c as usize] = t as u8;
        }
        for r in 0..self.g.shape.rows() {
            self.row_lc[r] = self.line(r, false);
        }
        for c in 0..self.g.shape.cols() {
            self.col_lc[c] = self.line(c, true);
        }
        self.lc = self
            .row_lc
            .iter()
            .chain(&self.col_lc)
            .map(|&x| x as u32)
            .sum();
    }
    #[inline]
    fn h(&self) -> u32 {
        self.md.h() + self.lc
    }
    fn push(&mut self, t: u8, from: u8, to: u8, _: u32) -> (u8, u8) {
        self.md.push(t, from, to, u32::MAX);
        self.tiles[to as usize] = t;
        self.tiles[from as usize] = 0;
        let cols = self.g.shape.cols();
        let (fr, fc) = (from as usize / cols, from as usize % cols);
        let (tr, tc) = (to as usize / cols, to as usize % cols);
        if fr != tr {
            let (a, b) = (self.row_lc[fr], self.row_lc[tr]);
            self.row_lc[fr] = self.line(fr, false);
            self.row_lc[tr] = self.line(tr, false);
            self.lc =
                self.lc + self.row_lc[fr] as u32 + self.row_lc[tr] as u32 - a as u32 - b as u32;
            (a, b)
        } else {
            let (a, b) = (self.col_lc[fc], self.col_lc[tc]);
            self.col_lc[fc] = self.line(fc, true);
            self.col_lc[tc] = self.line(tc, true);
            self.lc =
                self.lc + self.col_lc[fc] as u32 + self.col_lc[tc] as u32 - a as u32 - b as u32;
            (a, b)
        }
    }
    fn pop(&mut self, t: u8, from: u8, to: u8, (a, b): (u8, u8)) {
        self.md.pop(t, from, to, ());
        self.tiles[from as usize] = t;
        self.tiles[to as usize] = 0;
        let cols = self.g.shape.cols();
        let (fr, fc) = (from as usize / cols, from as usize % cols);
        let (tr, tc) = (to as usize / cols, to as usize % cols);
        if fr != tr {
            self.lc =
                self.lc + a as u32 + b as u32 - self.row_lc[fr] as u32 - self.row_lc[tr] as u32;
            self.row_lc[fr] = a;
            self.row_lc[tr] = b;
        } else {
            self.lc =
                self.lc + a as u32 + b as u32 - self.col_lc[fc] as u32 - self.col_lc[tc] as u32;
            self.col_lc[fc] = a;
            self.col_lc[tc] = b;
        }
    }
}

/// Which database layouts a [`PdbEval`] reads, its `LAYOUTS` parameter: an evaluator for one layout only has no
/// branch on the layout in its search loop.
pub mod layouts {
    /// Any layout without a zero-aware index: plain, blank-cell and blank-bit ([`PdbEval::plain`](super::PdbEval::plain)).
    pub const ANY: u8 = 0;
    /// The plain layout only ([`PdbEval::plain_layout`](super::PdbEval::plain_layout)).
    pub const PLAIN: u8 = 1;
    /// The blank-bit layout only ([`PdbEval::blank_bits`](super::PdbEval::blank_bits)).
    pub const BLANK_BITS: u8 = 2;
    /// The blank-bit layout only, every entry of 32 bits, as on 5 × 5
    /// ([`PdbEval::blank_bits_32`](super::PdbEval::blank_bits_32)): the entry's width is known in the loop.
    pub const BLANK_BITS_32: u8 = 3;
    /// The blank-bit layout only, every table sparse with a bit per cell of the board in 32-bit entries, as on
    /// 5 × 5 with the sparse index ([`PdbLayout::bit_per_cell`](crate::engine::pdb::PdbLayout::bit_per_cell),
    /// [`PdbEval::blank_cell_bits_32`](super::PdbEval::blank_cell_bits_32)): a lookup reads the blank's bit without
    /// the pattern's cells, which the loop then no longer keeps.
    pub const BLANK_CELL_BITS_32: u8 = 4;
}

/// A disjoint partition of the goal cells into patterns, with their databases.
#[derive(Debug, Clone)]
pub struct PdbSet {
    /// The databases, one per pattern.
    pub pdbs: Vec<Arc<Pdb>>,
}

/// One pattern as the search reads it: its tiles, rank weights and packed entries, in fixed arrays.
#[derive(Debug, Clone)]
struct Pat {
    k: usize,
    tiles: [u8; MAX_PATTERN],
    weights: [u64; MAX_PATTERN],
    pdb: Arc<Pdb>,
    /// The index of a zero-aware database (the entry also depends on the blank's region).
    zero: Option<Arc<ZeroIndex>>,
    /// The blank's free cells, `n - k`, for a database in the blank-cell layout ([`PdbLayout::ZeroCells`]): its index
    /// is the plain rank times this plus the free cells below the blank's. 0 for the other layouts.
    free: u64,
    /// A sparse-index database ([`PdbIndex::Sparse`]): the view keeps the index move by move by the tiles'
    /// weights ([`View::weight`]); a dense one's rank is kept move by move too ([`View::dense_step`]).
    sparse: bool,
    /// A database in the blank-bit layout ([`PdbLayout::ZeroBits`]): an entry per placement of `1 << wide.1` bits,
    /// `1 << wide.0` to a word, read by [`Pat::blank_bit_entry`]. The other layouts have 4-bit entries.
    zbits: bool,
    /// In the blank-bit layout, a bit per cell of the board rather than per free cell ([`Pdb::bit_per_cell`]).
    by_cell: bool,
    wide: (u32, u32),
    /// `pdb`'s packed words, held here so that a lookup loads the word itself and not first the way to it.
    words: TableWords,
}

/// A pattern database's packed words as a pointer and a length: [`Pat::word`] reads them without first loading
/// the table's address through the `Arc` and the table (two dependent loads on the path of every lookup).
#[derive(Debug, Clone, Copy)]
struct TableWords {
    ptr: *const u64,
    n: usize,
}

// SAFETY: a `TableWords` points into the packed table of the `Arc<Pdb>` held beside it in the same `Pat`. A shared
// `Pdb` is never written (nothing takes `&mut` of it while the `Pat`'s own `Arc` lives), so the words neither move
// nor change while the `TableWords` exists, and reading them from several threads is as safe as through `&[u64]`.
unsafe impl Send for TableWords {}
// SAFETY: as above.
unsafe impl Sync for TableWords {}

impl TableWords {
    fn of(pdb: &Pdb) -> TableWords {
        let w = pdb.packed().words();
        TableWords {
            ptr: w.as_ptr(),
            n: w.len(),
        }
    }

    /// The words as a slice (bounds-checked indexing stays).
    #[inline(always)]
    fn slice(&self) -> &[u64] {
        // SAFETY: see the `Send` impl: `ptr` points to `n` words that live, unchanged, as long as `self`'s `Pat`.
        unsafe { std::slice::from_raw_parts(self.ptr, self.n) }
    }

    /// The words as 32-bit halves, in memory order: on a little-endian machine, entry `i` of a table of 32-bit
    /// entries is half `i`.
    #[inline(always)]
    fn halves(&self) -> &[u32] {
        // SAFETY: as for `slice`; a `u64` is two `u32`s, and a `u64`'s alignment is a `u32`'s.
        unsafe { std::slice::from_raw_parts(self.ptr.cast::<u32>(), self.n * 2) }
    }

    /// Starts loading byte `b` of the words into the caches (a hint; nothing past the end).
    #[inline(always)]
    fn prefetch_byte(&self, b: usize) {
        #[cfg(target_arch = "x86_64")]
        if b < self.n * 8 {
            // SAFETY: a prefetch never faults nor changes memory, and the address is inside the words.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                    self.ptr.cast::<i8>().add(b),
                )
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = b;
    }

    /// The words as 16-bit quarters, in memory order (see [`TableWords::halves`]).
    #[inline(always)]
    fn quarters(&self) -> &[u16] {
        // SAFETY: as for `slice`; a `u64` is four `u16`s, and a `u64`'s alignment is a `u16`'s.
        unsafe { std::slice::from_raw_parts(self.ptr.cast::<u16>(), self.n * 4) }
    }
}

impl Pat {
    /// The zero-aware index, if the pattern has one and the evaluator reads zero-aware patterns (`ZERO`): a plain
    /// evaluator's code has no zero-aware path at all.
    #[inline(always)]
    fn zero<const ZERO: bool>(&self) -> Option<&Arc<ZeroIndex>> {
        if ZERO {
            self.zero.as_ref()
        } else {
            None
        }
    }

    /// The stored extra of entry `r`.
    #[inline(always)]
    fn entry(&self, r: u64) -> u8 {
        Pat::extract(self.word(r), r)
    }

    /// The packed word that holds entry `r` (the memory load of a lookup).
    #[inline(always)]
    fn word(&self, r: u64) -> u64 {
        self.words.slice()[(r >> 4) as usize]
    }

    /// Entry `r`'s extra in its packed word.
    #[inline(always)]
    fn extract(word: u64, r: u64) -> u8 {
        ((word >> ((r & 15) << 2)) & 15) as u8
    }

    /// The entry's index in a sparse-index table: the placement's sparse index `s`, and in the blank-cell layout
    /// the blank's free cell (`used`: the pattern's cells).
    #[inline(always)]
    fn sparse_at<const LAYOUTS: u8>(&self, s: u64, used: u64, blank: u8) -> u64 {
        if LAYOUTS == layouts::ANY && self.free != 0 {
            let b = blank as u32 & 63;
            s * self.free + (b - (used & ((1u64 << b) - 1)).count_ones()) as u64
        } else {
            s
        }
    }

    /// True when the pattern is in the blank-bit layout, known at compile time when the evaluator reads one layout
    /// only (`LAYOUTS`, [`layouts`]).
    #[inline(always)]
    fn bits<const LAYOUTS: u8>(&self) -> bool {
        match LAYOUTS {
            layouts::BLANK_BITS | layouts::BLANK_BITS_32 | layouts::BLANK_CELL_BITS_32 => true,
            layouts::PLAIN => false,
            _ => self.zbits,
        }
    }

    /// The stored extra, in the blank-bit layout, of the placement of index `r` (its cells `used`, a bit per cell;
    /// not read when the bits are per cell) with the blank on `blank`: the plain entry, and one more when the
    /// blank's free cell (or cell) has its bit set.
    #[inline(always)]
    fn blank_bit_entry<const LAYOUTS: u8>(&self, r: u64, used: u64, blank: u8) -> u8 {
        let (per, width) =
            if LAYOUTS == layouts::BLANK_BITS_32 || LAYOUTS == layouts::BLANK_CELL_BITS_32 {
                (1, 5)
            } else {
                self.wide
            };
        // On a little-endian machine, one load of the entry's own width and no shift to the entry within its word
        // (4 % fewer instructions on the 24-puzzle and on Korf's 100).
        let e = if cfg!(target_endian = "little") && width == 5 {
            self.words.halves()[r as usize] as u64
        } else if cfg!(target_endian = "little") && width == 4 {
            self.words.quarters()[r as usize] as u64
        } else {
            let word = self.words.slice()[(r >> per) as usize];
            word >> ((r & ((1 << per) - 1)) << width)
        };
        let b = blank as u32 & 63;
        let d = match LAYOUTS {
            layouts::BLANK_CELL_BITS_32 => b,
            layouts::ANY if self.by_cell => b,
            _ => b - (used & ((1u64 << b) - 1)).count_ones(),
        };
        ((e & 15) + (e >> ((PDB_BITS + d) & 63) & 1)) as u8
    }

    /// The stored extra of a placement of index `r` (the plain rank or sparse index; the cells `used`, a bit per
    /// cell) with the blank on `blank`, in any layout but the region one.
    #[inline(always)]
    fn entry_of(&self, r: u64, used: u64, blank: u8) -> u8 {
        if self.zbits {
            self.blank_bit_entry::<{ layouts::ANY }>(r, used, blank)
        } else {
            self.entry(self.sparse_at::<{ layouts::ANY }>(r, used, blank))
        }
    }

    /// The plain rank of the pattern's placement in `pos`, and its cells (a bit per cell).
    #[inline(always)]
    fn rank_used(&self, pos: &[u8; MAX_SEARCH_CELLS]) -> (u64, u64) {
        let mut used = 0u64;
        let mut r = 0u64;
        for i in 0..self.k {
            let p = pos[self.tiles[i] as usize & 63] as u32;
            let below = used & ((1u64 << p) - 1);
            r += (p - below.count_ones()) as u64 * self.weights[i];
            used |= 1u64 << p;
        }
        (r, used)
    }
}

/// The board as one lookup reads it (directly, or reflected about the main diagonal): the patterns read in it,
/// their stored extras, and for zero-aware databases the placements a child's entry is worked out from
/// ([`ZeroIndex::slid`]) instead of indexed anew.
#[derive(Debug, Clone)]
struct View {
    pats: Vec<Pat>,
    /// Pattern of each tile (`u8::MAX`: none), and the tile's index in it.
    owner: [u8; MAX_SEARCH_CELLS],
    item: [u8; MAX_SEARCH_CELLS],
    /// Tile → cell in this view (`pos[0]`: the blank's) at the last reset (not kept move by move).
    pos: [u8; MAX_SEARCH_CELLS],
    /// Cell → the tile on it in this view, kept move by move for the tiles of dense plain patterns only (read
    /// only on those cells: [`View::dense_step`]).
    at: [u8; MAX_SEARCH_CELLS],
    /// Cell → the index in its pattern of the tile on it, read only for the cells of a zero-aware pattern's tiles
    /// (kept by a zero-aware evaluator only).
    slot: [u8; MAX_SEARCH_CELLS],
    /// Each pattern's stored extra, and their sum.
    extra: [u8; MAX_SEARCH_CELLS],
    sum: u32,
    /// The placements of the zero-aware patterns (unused for plain ones).
    zs: Vec<Placed>,
    /// Each plain pattern's index (the sparse index, or the dense rank) and cells (a bit per cell), kept move by
    /// move.
    idx: [u64; MAX_SEARCH_CELLS],
    used: [u64; MAX_SEARCH_CELLS],
    /// What each tile's cell counts in its pattern's sparse index, `n^i` for the pattern's tile `i`; 0 for a tile
    /// of no pattern or of a pattern without one. A move adds `(to - from) * weight[t]` to the index.
    weight: [u64; MAX_SEARCH_CELLS],
}

impl View {
    fn new() -> View {
        View {
            pats: Vec::new(),
            owner: [u8::MAX; MAX_SEARCH_CELLS],
            item: [0; MAX_SEARCH_CELLS],
            pos: [0; MAX_SEARCH_CELLS],
            at: [0; MAX_SEARCH_CELLS],
            slot: [0; MAX_SEARCH_CELLS],
            extra: [0; MAX_SEARCH_CELLS],
            sum: 0,
            zs: Vec::new(),
            idx: [0; MAX_SEARCH_CELLS],
            used: [0; MAX_SEARCH_CELLS],
            weight: [0; MAX_SEARCH_CELLS],
        }
    }

    /// Adds a pattern of `tiles` (in the order of `pdb`'s cells) read from `pdb`.
    fn add(&mut self, tiles: &[u8], pdb: &Arc<Pdb>) {
        let p = self.pats.len() as u8;
        let mut t = [0u8; MAX_PATTERN];
        t[..tiles.len()].copy_from_slice(tiles);
        let mut weights = [0u64; MAX_PATTERN];
        let ranker = pdb.ranker();
        for (i, w) in weights.iter_mut().enumerate().take(tiles.len()) {
            *w = ranker.weight(i);
        }
        for (i, &tile) in tiles.iter().enumerate() {
            self.owner[tile as usize & 63] = p;
            self.item[tile as usize & 63] = i as u8;
        }
        let free = match pdb.layout() {
            PdbLayout::ZeroCells => (pdb.shape().cells() - tiles.len()) as u64,
            PdbLayout::Plain | PdbLayout::Zero | PdbLayout::ZeroBits => 0,
        };
        let sparse = pdb.index() == PdbIndex::Sparse;
        let zbits = pdb.layout() == PdbLayout::ZeroBits;
        let bits = pdb.packed().bits();
        let wide = ((64 / bits).trailing_zeros(), bits.trailing_zeros());
        if sparse {
            for (i, &tile) in tiles.iter().enumerate() {
                self.weight[tile as usize & 63] = (pdb.shape().cells() as u64).pow(i as u32);
            }
        }
        self.pats.push(Pat {
            k: tiles.len(),
            tiles: t,
            weights,
            pdb: pdb.clone(),
            zero: pdb.zero_index().cloned(),
            free,
            sparse,
            zbits,
            by_cell: pdb.bit_per_cell(),
            wide,
            words: TableWords::of(pdb),
        });
        self.zs.push(Placed {
            order: 0,
            map: 0,
            mask: 0,
        });
    }

    /// Sets up for the state `pos` (tile → cell in this view, `n` tiles with the blank).
    fn reset(&mut self, pos: &[u8]) {
        self.pos[..pos.len()].copy_from_slice(pos);
        for (t, &c) in pos.iter().enumerate() {
            self.slot[c as usize & 63] = self.item[t & 63];
            self.at[c as usize & 63] = t as u8;
        }
        self.sum = 0;
        for (p, pat) in self.pats.iter().enumerate() {
            let mut items = [0u8; MAX_PATTERN];
            for (c, &t) in items.iter_mut().zip(&pat.tiles[..pat.k]) {
                *c = self.pos[t as usize & 63];
            }
            self.extra[p] = match (&pat.zero, pat.sparse) {
                (Some(z), _) => {
                    self.zs[p] = z.placed(&items[..pat.k]);
                    pat.entry(z.at(&self.zs[p], self.pos[0]))
                }
                (None, true) => {
                    self.idx[p] = pat.pdb.placement_index(&items[..pat.k]);
                    self.used[p] = items[..pat.k].iter().fold(0, |m, &c| m | 1u64 << (c & 63));
                    pat.entry_of(self.idx[p], self.used[p], self.pos[0])
                }
                (None, false) => {
                    (self.idx[p], self.used[p]) = pat.rank_used(&self.pos);
                    pat.entry_of(self.idx[p], self.used[p], self.pos[0])
                }
            };
            self.sum += self.extra[p] as u32;
        }
    }

    /// Pattern `p`'s index after its tile `t` slid from `from` to `to` (the blank's cell): the sparse index by the
    /// tile's weight, the dense rank by [`View::dense_step`]; 0 for a zero-aware pattern, whose placement
    /// [`View::child`] works out itself.
    #[inline(always)]
    fn index_after<const ZERO: bool, const LAYOUTS: u8>(
        &self,
        p: usize,
        t: usize,
        from: u8,
        to: u8,
    ) -> u64 {
        let w = self.weight[t & 63];
        if LAYOUTS == layouts::BLANK_CELL_BITS_32 || w != 0 {
            return View::step_index(self.idx[p & 63], w, from, to);
        }
        if self.pats[p].zero::<ZERO>().is_some() {
            return 0;
        }
        self.dense_step(p, t, from, to)
    }

    /// The stored extra of pattern `p` (which must exist) after its tile `t` slid from `from` to `to`, the blank's
    /// cell; `s` is the pattern's index there ([`View::index_after`]).
    ///
    /// `LAYOUTS` says which layouts the view's patterns may have ([`layouts`]): with one layout only, the
    /// branches on the layout are compiled out of the loop (24-puzzle instance 40 with the plain default: 5.16 G
    /// instructions against 5.55 G with them).
    #[inline(always)]
    fn child<const ZERO: bool, const LAYOUTS: u8>(
        &self,
        p: usize,
        t: usize,
        from: u8,
        to: u8,
        s: u64,
    ) -> u8 {
        let pat = &self.pats[p];
        let r = match pat.zero::<ZERO>() {
            Some(z) => {
                let i = self.item[t & 63] as usize;
                z.at(&z.slid(&self.zs[p], &self.slot, i, from, to), from)
            }
            None => {
                if LAYOUTS == layouts::BLANK_CELL_BITS_32 {
                    // Every table sparse, the blank's bit by cell: no cells to keep.
                    return pat.blank_bit_entry::<LAYOUTS>(s, 0, from);
                }
                let used = self.used[p & 63] ^ (1u64 << (from & 63)) ^ (1u64 << (to & 63));
                if pat.bits::<LAYOUTS>() {
                    return pat.blank_bit_entry::<LAYOUTS>(s, used, from);
                }
                pat.sparse_at::<LAYOUTS>(s, used, from)
            }
        };
        pat.entry(r)
    }

    /// Starts loading the entry of plain pattern `p` at index `s` ([`View::index_after`]) into the caches: a hint,
    /// nothing for a zero-aware pattern. In the blank-cell layout the line of the placement's first entry.
    #[inline(always)]
    fn prefetch_entry<const ZERO: bool, const LAYOUTS: u8>(&self, p: usize, s: u64) {
        let pat = &self.pats[p];
        if pat.zero::<ZERO>().is_some() {
            return;
        }
        let byte = if pat.bits::<LAYOUTS>() {
            let width =
                if LAYOUTS == layouts::BLANK_BITS_32 || LAYOUTS == layouts::BLANK_CELL_BITS_32 {
                    5
                } else {
                    pat.wide.1
                };
            (s << width) >> 3
        } else if LAYOUTS == layouts::ANY && pat.free != 0 {
            s.wrapping_mul(pat.free) >> 1
        } else {
            s >> 1
        };
        pat.words.prefetch_byte(byte as usize);
    }

    /// What pattern `p`'s extra changes by (wrapping) when it becomes `extra`; meaningless when there is no
    /// pattern (`p` is `u8::MAX`: [`Mixed`] adds it to no sum).
    #[inline(always)]
    fn change(&self, p: usize, extra: u8) -> u8 {
        extra.wrapping_sub(self.extra[p & 63])
    }

    /// The dense rank of the plain pattern `p` after its tile `t` slid from `from` to `to`, from the rank before
    /// ([`Pat::rank_used`]: `Σ (c_i - #{j < i : c_j < c_i}) w_i` over the pattern's tiles `i` on cells `c_i`).
    /// Only the pattern's tiles on the cells strictly between `from` and `to` change a digit: none for a move
    /// along a row; for a move of `d` cells down a column, each lowers tile `t`'s digit `d` by one when it comes
    /// before `t` in the pattern, or raises its own digit by one when it comes after (up: the opposite). So a
    /// child's rank costs a mask and a load or two instead of a population count and a multiply per tile.
    #[inline(always)]
    fn dense_step(&self, p: usize, t: usize, from: u8, to: u8) -> u64 {
        let pat = &self.pats[p];
        let i = self.item[t & 63] as usize;
        let (lo, hi) = (from.min(to) as u32, from.max(to) as u32);
        // The cells strictly between `lo` and `hi` that hold the pattern's tiles.
        let mut between =
            self.used[p & 63] & (((1u64 << ((hi - lo - 1) & 63)) - 1) << ((lo + 1) & 63));
        let mut digit = u64::from(hi - lo);
        let mut later = 0u64;
        while between != 0 {
            let c = between.trailing_zeros() as usize;
            let j = self.item[self.at[c & 63] as usize & 63] as usize;
            if j < i {
                digit -= 1;
            } else {
                later += pat.weights[j.min(MAX_PATTERN - 1)];
            }
            between &= between - 1;
        }
        let change = digit * pat.weights[i.min(MAX_PATTERN - 1)] + later;
        if from < to {
            self.idx[p & 63] + change
        } else {
            self.idx[p & 63] - change
        }
    }

    /// A sparse index `s` after the pattern's tile of weight `w` ([`View::weight`]) slid from `from` to `to`.
    #[inline(always)]
    fn step_index(s: u64, w: u64, from: u8, to: u8) -> u64 {
        s.wrapping_add((to as u64).wrapping_sub(from as u64).wrapping_mul(w))
    }

    /// Tile `t` slid from `from` to `to`; `extra` is its pattern's stored extra there (`u8::MAX`: it has no
    /// pattern) and `s` its pattern's index there ([`View::index_after`]). Returns what [`View::moved_back`]
    /// restores: the extra and the index before.
    #[inline(always)]
    fn moved<const ZERO: bool, const LAYOUTS: u8>(
        &mut self,
        t: usize,
        from: u8,
        to: u8,
        extra: u8,
        s: u64,
    ) -> (u8, u64) {
        if extra == u8::MAX {
            return (u8::MAX, 0);
        }
        let p = self.owner[t & 63] as usize & 63;
        let saved = self.extra[p];
        self.sum = self.sum + extra as u32 - saved as u32;
        self.extra[p] = extra;
        let index = self.idx[p];
        self.place::<ZERO, LAYOUTS>(p, t, from, to, s);
        (saved, index)
    }

    /// Undoes [`View::moved`] (same tile and cells, and what it returned).
    #[inline(always)]
    fn moved_back<const ZERO: bool, const LAYOUTS: u8>(
        &mut self,
        t: usize,
        from: u8,
        to: u8,
        (saved, index): (u8, u64),
    ) {
        if saved == u8::MAX {
            return;
        }
        let p = self.owner[t & 63] as usize & 63;
        self.sum = self.sum + saved as u32 - self.extra[p] as u32;
        self.extra[p] = saved;
        self.place::<ZERO, LAYOUTS>(p, t, to, from, index);
    }

    /// Pattern `p`'s kept placement after its tile `t` slid from `from` to `to`: its index `s` and cells, or its
    /// zero-aware placement.
    #[inline(always)]
    fn place<const ZERO: bool, const LAYOUTS: u8>(
        &mut self,
        p: usize,
        t: usize,
        from: u8,
        to: u8,
        s: u64,
    ) {
        if let Some(z) = self.pats.get(p).and_then(|pat| pat.zero::<ZERO>()) {
            let i = self.item[t & 63];
            self.zs[p] = z.slid(&self.zs[p], &self.slot, i as usize, from, to);
            self.slot[to as usize & 63] = i;
            return;
        }
        self.idx[p & 63] = s;
        if LAYOUTS != layouts::BLANK_CELL_BITS_32 {
            self.used[p & 63] ^= (1u64 << (from & 63)) ^ (1u64 << (to & 63));
            self.at[to as usize & 63] = t as u8;
        }
    }
}

/// Additive pattern databases, maximised with the lookup of the board reflected about the main diagonal when the
/// goal allows it: `h = md + 2 * max(Σ extra, Σ reflected extra)`.
///
/// `ZERO` says whether the evaluator reads zero-aware databases: [`PdbEval::new`] makes one that takes both kinds,
/// [`PdbEval::plain`] one that takes plain databases only and has no zero-aware code in its search loop (fewer
/// instructions per node). `LAYOUTS` says which layouts it reads ([`layouts`]): [`PdbEval::plain_layout`] and
/// [`PdbEval::blank_bits`] take one layout each and have no branch on the layout in their loop;
/// [`PdbEval::blank_bits_32`] also knows the entries' width (5 % fewer instructions on 24-puzzle instance 40).
#[derive(Debug, Clone)]
pub struct PdbEval<const ZERO: bool = true, const LAYOUTS: u8 = { layouts::ANY }> {
    n: usize,
    md: Manhattan,
    direct: View,
    reflected: View,
    /// The reflected view's cell of each cell (the identity when there is no reflected lookup).
    transpose: [u8; MAX_SEARCH_CELLS],
    /// The mixed sums (when on).
    mixed: Mixed,
    /// The search works out every child's indices and starts their loads before probing the first
    /// ([`Eval::looks_ahead`]): whenever a pattern is not zero-aware in the region layout. Against probing
    /// each child with its own indices (6 December 2026, the same nodes): Korf's 100 with zb7-8 0.118-0.124 s
    /// against 0.136-0.138, with 7-8 0.181-0.188 against 0.197-0.203, with the default zb6-6-3 0.725-0.730
    /// against 0.730-0.748; 24-puzzle instances 40, 38, 25 and 44 side by side 8.37 and 8.58 s against 8.84 and
    /// 9.53.
    ahead: bool,
}

/// Most sums [`Mixed`] keeps (one byte lane each of [`Lanes`]).
const MIXED_SUMS: usize = 16;

/// Most patterns per view for which [`Mixed`] looks for mixed sums (`2^(2 * 8)` sets are tried).
const MIXED_PATTERNS: usize = 8;

/// Sixteen bytes added and maximised lane by lane: one SSE2 register on x86-64 (written with the intrinsics: the
/// compiler did not turn the byte loops into vector operations), plain bytes elsewhere.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Lanes(std::arch::x86_64::__m128i);

#[cfg(target_arch = "x86_64")]
impl Lanes {
    fn from_bytes(b: [u8; MIXED_SUMS]) -> Lanes {
        use std::arch::x86_64::_mm_set_epi8;
        let b = b.map(|x| x as i8);
        // SAFETY (this and every intrinsic below): SSE2 is part of every x86-64 processor.
        Lanes(unsafe {
            _mm_set_epi8(
                b[15], b[14], b[13], b[12], b[11], b[10], b[9], b[8], b[7], b[6], b[5], b[4], b[3],
                b[2], b[1], b[0],
            )
        })
    }

    fn to_bytes(self) -> [u8; MIXED_SUMS] {
        use std::arch::x86_64::{_mm_cvtsi128_si32, _mm_srli_si128};
        let mut out = [0u8; MIXED_SUMS];
        let mut v = self.0;
        for o in &mut out {
            // SAFETY: SSE2 (above).
            unsafe {
                *o = _mm_cvtsi128_si32(v) as u8;
                v = _mm_srli_si128::<1>(v);
            }
        }
        out
    }

    /// `by` (wrapping) added to the lanes where `mask` is `0xff`.
    #[inline(always)]
    fn add_masked(self, mask: Lanes, by: u8) -> Lanes {
        use std::arch::x86_64::{_mm_add_epi8, _mm_and_si128, _mm_set1_epi8};
        // SAFETY: SSE2 (above).
        Lanes(unsafe { _mm_add_epi8(self.0, _mm_and_si128(mask.0, _mm_set1_epi8(by as i8))) })
    }

    /// The largest lane, as an unsigned byte.
    #[inline(always)]
    fn max(self) -> u8 {
        use std::arch::x86_64::{_mm_cvtsi128_si32, _mm_max_epu8, _mm_srli_si128};
        // SAFETY: SSE2 (above).
        unsafe {
            let v = _mm_max_epu8(self.0, _mm_srli_si128::<8>(self.0));
            let v = _mm_max_epu8(v, _mm_srli_si128::<4>(v));
            let v = _mm_max_epu8(v, _mm_srli_si128::<2>(v));
            let v = _mm_max_epu8(v, _mm_srli_si128::<1>(v));
            _mm_cvtsi128_si32(v) as u8
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[derive(Clone, Copy)]
struct Lanes([u8; MIXED_SUMS]);

#[cfg(not(target_arch = "x86_64"))]
impl Lanes {
    fn from_bytes(b: [u8; MIXED_SUMS]) -> Lanes {
        Lanes(b)
    }

    fn to_bytes(self) -> [u8; MIXED_SUMS] {
        self.0
    }

    /// `by` (wrapping) added to the lanes where `mask` is `0xff`.
    #[inline(always)]
    fn add_masked(self, mask: Lanes, by: u8) -> Lanes {
        Lanes(std::array::from_fn(|j| {
            self.0[j].wrapping_add(mask.0[j] & by)
        }))
    }

    /// The largest lane.
    #[inline(always)]
    fn max(self) -> u8 {
        self.0.iter().copied().fold(0, u8::max)
    }
}

impl std::fmt::Debug for Lanes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.to_bytes().fmt(f)
    }
}

/// Sums of extras over sets of patterns taken from both views at once: the mixed sums.
///
/// A reflected pattern is the pattern of the tiles whose goal cells are the reflections of a pattern's cells, and
/// its extra (read from the same table on the reflected board) is an admissible count of those tiles' own moves
/// beyond their Manhattan distance. Any set of pairwise disjoint patterns of the two views is therefore additive:
/// besides the two whole partitions (direct and reflected), the 24-puzzle's default partition and its reflection
/// give eight disjoint sets of three patterns that mix the views, such as the two upper blocks and the mirror image
/// of the upper-right one (which lies along the bottom). The evaluator keeps the sum of every maximal such set, a byte each, and the estimate is
/// `md + 2 * max` over them: at least `max(Σ extra, Σ reflected extra)`, for a few vector operations per child and
/// no further lookups.
#[derive(Debug, Clone)]
struct Mixed {
    /// How many maximal disjoint sets mix the views (at most [`MIXED_SUMS`]).
    sets: usize,
    /// The evaluator keeps the sums (asked for, and there is a set).
    on: bool,
    /// Per direct (`direct`) or reflected (`reflected`) pattern, `0xff` in the lane of each sum that takes it;
    /// row [`MIXED_PATTERNS`] is all zeros (a tile of no pattern).
    direct: [Lanes; MIXED_PATTERNS + 1],
    reflected: [Lanes; MIXED_PATTERNS + 1],
    /// The sums at the current node (unused lanes 0; a sum of at most 15 extras of at most 16 each, so no lane
    /// wraps).
    sums: Lanes,
}

impl Mixed {
    /// No mixed sums.
    fn off() -> Mixed {
        let zero = Lanes::from_bytes([0; MIXED_SUMS]);
        Mixed {
            sets: 0,
            on: false,
            direct: [zero; MIXED_PATTERNS + 1],
            reflected: [zero; MIXED_PATTERNS + 1],
            sums: zero,
        }
    }

    /// The maximal disjoint sets of the direct patterns' cells `direct` and the reflected ones' `reflected` (a
    /// bit per goal cell each) but the two whole partitions (whose sums the views keep); off until asked for.
    fn of(direct: &[u64], reflected: &[u64]) -> Mixed {
        let mut m = Mixed::off();
        let nd = direct.len();
        if nd == 0 || nd > MIXED_PATTERNS || reflected.len() != nd {
            return m;
        }
        let mut sets = maximal_disjoint(&[direct, reflected].concat(), nd);
        // A byte holds the sum of at most 15 extras of at most 16 each (possible only from 8 patterns a view).
        sets.retain(|set| set.count_ones() <= 15);
        if sets.is_empty() {
            return m;
        }
        let rows = |base: usize| -> Vec<Lanes> {
            (0..=MIXED_PATTERNS)
                .map(|p| {
                    Lanes::from_bytes(std::array::from_fn(|lane| {
                        let hit = p < nd
                            && sets
                                .get(lane)
                                .is_some_and(|&set| set >> (base + p) & 1 == 1);
                        if hit {
                            0xff
                        } else {
                            0
                        }
                    }))
                })
                .collect()
        };
        m.direct.copy_from_slice(&rows(0));
        m.reflected.copy_from_slice(&rows(nd));
        m.sets = sets.len();
        m
    }

    /// Recomputes the sums from the views' extras.
    fn reset(&mut self, direct: &View, reflected: &View) {
        let mut sums = Lanes::from_bytes([0; MIXED_SUMS]);
        for p in 0..direct.pats.len().min(MIXED_PATTERNS) {
            sums = sums.add_masked(self.direct[p], direct.extra[p]);
        }
        for p in 0..reflected.pats.len().min(MIXED_PATTERNS) {
            sums = sums.add_masked(self.reflected[p], reflected.extra[p]);
        }
        self.sums = sums;
    }

    /// The sums after the direct pattern `p` changed by `dp` and the reflected pattern `r` by `dr` (wrapping; a
    /// pattern index past the patterns, as `u8::MAX` for a tile of none, changes nothing).
    #[inline(always)]
    fn moved(&self, p: usize, dp: u8, r: usize, dr: u8) -> Lanes {
        self.sums
            .add_masked(self.direct[p.min(MIXED_PATTERNS)], dp)
            .add_masked(self.reflected[r.min(MIXED_PATTERNS)], dr)
    }
}

/// The maximal sets of pairwise disjoint patterns among `cells` (a bit per cell each; the first `whole` make up
/// one partition, the rest another), as bit sets over `cells`, but the two partitions; at most [`MIXED_SUMS`]
/// of them.
fn maximal_disjoint(cells: &[u64], whole: usize) -> Vec<u32> {
    let disjoint = |set: u32| {
        let mut seen = 0u64;
        (0..cells.len()).all(|i| {
            if set >> i & 1 == 0 {
                return true;
            }
            let ok = seen & cells[i] == 0;
            seen |= cells[i];
            ok
        })
    };
    let first = (1u32 << whole) - 1;
    let second = ((1u32 << cells.len()) - 1) & !first;
    let mut sets = Vec::new();
    // A set is maximal when every pattern outside it meets one of its patterns.
    for set in 1u32..(1 << cells.len()) {
        if set == first || set == second || !disjoint(set) {
            continue;
        }
        if (0..cells.len()).all(|i| set >> i & 1 == 1 || !disjoint(set | 1 << i)) {
            sets.push(set);
        }
    }
    sets.truncate(MIXED_SUMS);
    sets
}

impl PdbEval {
    /// For a geometry and a set of databases over disjoint patterns of its goal cells, plain or zero-aware;
    /// `reflect` asks for the reflected lookup (used only when the goal allows it).
    pub fn new(g: &Geometry, set: &PdbSet, reflect: bool) -> Result<PdbEval> {
        PdbEval::with(g, set, reflect)
    }
}

impl PdbEval<false> {
    /// As [`PdbEval::new`] for a set of databases without a zero-aware index (an error names a zero-aware one):
    /// plain, blank-cell or blank-bit layouts.
    pub fn plain(g: &Geometry, set: &PdbSet, reflect: bool) -> Result<PdbEval<false>> {
        PdbEval::checked(g, set, reflect)
    }
}

impl PdbEval<false, { layouts::PLAIN }> {
    /// As [`PdbEval::plain`] for databases in the plain layout only (an error names one in another layout): the
    /// search loop has no branch on the layout (7 % fewer instructions than [`PdbEval::plain`] on 24-puzzle instance
    /// 40).
    pub fn plain_layout(
        g: &Geometry,
        set: &PdbSet,
        reflect: bool,
    ) -> Result<PdbEval<false, { layouts::PLAIN }>> {
        PdbEval::checked(g, set, reflect)
    }
}

impl PdbEval<false, { layouts::BLANK_BITS }> {
    /// As [`PdbEval::plain`] for databases in the blank-bit layout only ([`PdbLayout::ZeroBits`]; an error names
    /// one in another layout): the search loop has no branch on the layout.
    pub fn blank_bits(
        g: &Geometry,
        set: &PdbSet,
        reflect: bool,
    ) -> Result<PdbEval<false, { layouts::BLANK_BITS }>> {
        PdbEval::checked(g, set, reflect)
    }
}

impl PdbEval<false, { layouts::BLANK_BITS_32 }> {
    /// As [`PdbEval::blank_bits`] for databases whose entries all take 32 bits (an error names one that does
    /// not), as every blank-bit database of the 24-puzzle does: the loop reads an entry at a width it knows.
    pub fn blank_bits_32(
        g: &Geometry,
        set: &PdbSet,
        reflect: bool,
    ) -> Result<PdbEval<false, { layouts::BLANK_BITS_32 }>> {
        if let Some(pdb) = set.pdbs.iter().find(|p| p.packed().bits() != 32) {
            return Err(Error::BadPartition {
                reason: format!(
                    "an evaluator for 32-bit entries was given a database of {}-bit entries (cells {:?})",
                    pdb.packed().bits(),
                    pdb.cells()
                ),
            });
        }
        PdbEval::checked(g, set, reflect)
    }
}

impl PdbEval<false, { layouts::BLANK_CELL_BITS_32 }> {
    /// As [`PdbEval::blank_bits_32`] for sparse databases with a bit per cell of the board
    /// ([`Pdb::bit_per_cell`]; an error names one without), as every sparse blank-bit database of the 24-puzzle
    /// is: a lookup needs neither the free cells below the blank nor the pattern's cells, which the loop no longer
    /// keeps.
    pub fn blank_cell_bits_32(
        g: &Geometry,
        set: &PdbSet,
        reflect: bool,
    ) -> Result<PdbEval<false, { layouts::BLANK_CELL_BITS_32 }>> {
        if let Some(pdb) = set.pdbs.iter().find(|p| !p.bit_per_cell()) {
            return Err(Error::BadPartition {
                reason: format!(
                    "an evaluator for blank bits per cell was given a database without them (cells {:?}, {:?} \
                     index, {}-bit entries)",
                    pdb.cells(),
                    pdb.index(),
                    pdb.packed().bits()
                ),
            });
        }
        PdbEval::checked(g, set, reflect)
    }
}

impl<const LAYOUTS: u8> PdbEval<false, LAYOUTS> {
    fn checked(g: &Geometry, set: &PdbSet, reflect: bool) -> Result<PdbEval<false, LAYOUTS>> {
        if let Some(pdb) = set.pdbs.iter().find(|p| p.zero_index().is_some()) {
            return Err(Error::BadPartition {
                reason: format!(
                    "a plain evaluator was given a zero-aware database (cells {:?})",
                    pdb.cells()
                ),
            });
        }
        let only = match LAYOUTS {
            layouts::PLAIN => Some(PdbLayout::Plain),
            layouts::BLANK_BITS | layouts::BLANK_BITS_32 | layouts::BLANK_CELL_BITS_32 => {
                Some(PdbLayout::ZeroBits)
            }
            _ => None,
        };
        // Bits per free cell and bits per cell are read apart: only `ANY` reads both.
        if LAYOUTS == layouts::BLANK_BITS || LAYOUTS == layouts::BLANK_BITS_32 {
            if let Some(pdb) = set.pdbs.iter().find(|p| p.bit_per_cell()) {
                return Err(Error::BadPartition {
                    reason: format!(
                        "an evaluator for blank bits per free cell was given a database with a bit per cell \
                         (cells {:?})",
                        pdb.cells()
                    ),
                });
            }
        }
        if let Some(only) = only {
            if let Some(pdb) = set.pdbs.iter().find(|p| p.layout() != only) {
                return Err(Error::BadPartition {
                    reason: format!(
                        "an evaluator for the {only:?} layout was given a database in the {:?} layout (cells {:?})",
                        pdb.layout(),
                        pdb.cells()
                    ),
                });
            }
        }
        PdbEval::with(g, set, reflect)
    }
}

impl<const ZERO: bool, const LAYOUTS: u8> PdbEval<ZERO, LAYOUTS> {
    /// Keeps the mixed sums (`on`) or not (the default): the estimate then also takes the largest sum over the
    /// maximal sets of disjoint patterns that mix the direct and the reflected lookups, at no further lookup.
    /// Needs the reflected lookup, and a partition whose patterns and reflections give such sets (the 24-puzzle's
    /// default gives eight: 0.82 times the nodes on issue 16's six instances, 0.92 times the time; the
    /// 15-puzzle's 6-6-3 two: 0.99 times the nodes on Korf's 100 but 1.1 times the time; 7-8 none).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use slide::engine::heuristic::{Eval, Geometry, PdbEval, PdbSet};
    /// use slide::engine::pdb::Pdb;
    /// use slide::{NoProgress, Shape};
    ///
    /// // 3 × 3, the blank's goal on cell 8: the rows as patterns. The last row's pattern (cells 6 and 7) and the
    /// // reflection of the last column's (cells 2 and 5) are disjoint: one mixed set.
    /// let shape = Shape::new(3, 3)?;
    /// let pdbs = [&[0u8, 1, 2][..], &[3, 4, 5], &[6, 7]]
    ///     .iter()
    ///     .map(|cells| Pdb::build(shape, cells, 8, &NoProgress).map(Arc::new))
    ///     .collect::<Result<Vec<_>, _>>()?;
    /// let g = Geometry::new(shape, 8)?;
    /// let mut eval = PdbEval::new(&g, &PdbSet { pdbs }, true)?.with_mixed_sums(true);
    /// assert_eq!(eval.mixed_sets(), 1);
    /// eval.reset(&[8, 0, 1, 2, 3, 4, 5, 6, 7]); // tile t on cell t - 1: the goal
    /// assert_eq!(eval.h(), 0);
    /// # Ok::<(), slide::Error>(())
    /// ```
    pub fn with_mixed_sums(mut self, on: bool) -> Self {
        self.mixed.on = on && self.mixed.sets > 0;
        self.mixed.reset(&self.direct, &self.reflected);
        self
    }

    /// How many maximal sets of disjoint patterns mix the direct and reflected lookups ([`PdbEval::with_mixed_sums`]):
    /// 0 without the reflected lookup.
    pub fn mixed_sets(&self) -> usize {
        self.mixed.sets
    }

    fn with(g: &Geometry, set: &PdbSet, reflect: bool) -> Result<PdbEval<ZERO, LAYOUTS>> {
        let reflect = reflect && g.reflectable();
        let mut direct = View::new();
        let mut reflected = View::new();
        for pdb in &set.pdbs {
            if pdb.shape() != g.shape
                || pdb.blank() != g.blank_goal
                || pdb.cells().len() > MAX_PATTERN
            {
                return Err(Error::BadPartition {
                    reason: "a pattern database of another shape or goal".into(),
                });
            }
            let mut tiles = Vec::new();
            for &c in pdb.cells() {
                let t = g.tile_at_goal[c as usize];
                if t == 0 || direct.owner[t as usize] != u8::MAX || tiles.contains(&t) {
                    return Err(Error::BadPartition {
                        reason: format!(
                            "patterns must be disjoint and avoid the blank's goal cell (cell {c})"
                        ),
                    });
                }
                tiles.push(t);
            }
            direct.add(&tiles, pdb);
            if reflect {
                let ts: Vec<u8> = pdb
                    .cells()
                    .iter()
                    .map(|&c| g.tile_at_goal[g.transpose(c) as usize])
                    .collect();
                reflected.add(&ts, pdb);
            }
        }
        let mut transpose = [0u8; MAX_SEARCH_CELLS];
        for (c, t) in transpose.iter_mut().enumerate().take(g.n) {
            *t = if reflect {
                g.transpose(c as u8)
            } else {
                c as u8
            };
        }
        let mixed = if reflect {
            let cells = |f: &dyn Fn(u8) -> u8| -> Vec<u64> {
                set.pdbs
                    .iter()
                    .map(|pdb| pdb.cells().iter().fold(0, |m, &c| m | 1u64 << (f(c) & 63)))
                    .collect()
            };
            Mixed::of(&cells(&|c| c), &cells(&|c| g.transpose(c)))
        } else {
            Mixed::off()
        };
        // Zero-aware placements in the region layout are worked out in the probe itself: nothing ahead.
        let ahead = direct.pats.iter().any(|p| p.zero.is_none());
        Ok(PdbEval {
            n: g.n,
            md: Manhattan::new(g),
            direct,
            reflected,
            transpose,
            mixed,
            ahead,
        })
    }
}

impl<const ZERO: bool, const LAYOUTS: u8> PdbEval<ZERO, LAYOUTS> {
    /// [`Eval::probe`], with the indices [`Eval::ahead`] worked out for the move when given.
    #[inline(always)]
    fn probe_from(
        &mut self,
        t: u8,
        from: u8,
        to: u8,
        budget: u32,
        ahead: Option<PdbAhead>,
    ) -> (u32, PdbProbe) {
        let i = t as usize & 63;
        let md = self.md.probe(t, from, to, budget).0;
        let away = u8::from(md > self.md.h());
        let mut at = ahead.unwrap_or_default();
        let p = self.direct.owner[i] as usize;
        let mut e = u8::MAX;
        let mut sum = self.direct.sum;
        if p < self.direct.pats.len() {
            if ahead.is_none() {
                at.s = self.direct.index_after::<ZERO, LAYOUTS>(p, i, from, to);
            }
            e = self.direct.child::<ZERO, LAYOUTS>(p, i, from, to, at.s);
            sum = sum + e as u32 - self.direct.extra[p & 63] as u32;
        }
        let mut re = u8::MAX;
        let mut rsum = self.reflected.sum;
        if md + 2 * sum <= budget {
            let rp = self.reflected.owner[i] as usize;
            if rp < self.reflected.pats.len() {
                let (tf, tt) = (
                    self.transpose[from as usize & 63],
                    self.transpose[to as usize & 63],
                );
                if ahead.is_none() {
                    at.rs = self.reflected.index_after::<ZERO, LAYOUTS>(rp, i, tf, tt);
                }
                re = self.reflected.child::<ZERO, LAYOUTS>(rp, i, tf, tt, at.rs);
                rsum = rsum + re as u32 - self.reflected.extra[rp & 63] as u32;
            }
            // The mixed sums only raise the estimate: a child the two whole sums put over the budget needs none.
            // For the others they are worked out every time: skipping them when they cannot pass the whole sums
            // or the budget (a test on the most a sum can rise) took more time than it saved (24-puzzle, 1.06 and
            // 1.02 times on 40, 38, 25 and 44), the branch being hard to predict.
            let whole = sum.max(rsum);
            if self.mixed.on && md + 2 * whole <= budget {
                let sums = self.mixed.moved(
                    p,
                    self.direct.change(p, e),
                    rp,
                    self.reflected.change(rp, re),
                );
                return (
                    md + 2 * whole.max(sums.max() as u32),
                    PdbProbe { e, re, away, at },
                );
            }
        }
        (md + 2 * sum.max(rsum), PdbProbe { e, re, away, at })
    }
}

/// What [`PdbEval`] works out for a child before moving into it ([`Eval::Probe`]).
#[derive(Debug, Clone, Copy)]
pub struct PdbProbe {
    /// The moved tile's pattern's extras after the move, directly and reflected (`u8::MAX`: no pattern, or the
    /// lookup was skipped).
    e: u8,
    re: u8,
    /// 1 when the move takes its tile away from its goal cell (the Manhattan distance grows), else 0: the
    /// tie-break ([`Eval::tie_break`]).
    away: u8,
    /// The moved tile's pattern's indices after the move, directly and reflected, as [`PdbAhead`]: moving into
    /// the child keeps them rather than work them out again.
    at: PdbAhead,
}

impl Default for PdbProbe {
    fn default() -> PdbProbe {
        PdbProbe {
            e: u8::MAX,
            re: u8::MAX,
            away: 0,
            at: PdbAhead::default(),
        }
    }
}

/// What [`PdbEval`] works out for a move before its node's children are probed ([`Eval::Ahead`]): the moved tile's
/// pattern's index after the move, directly and reflected (0 where the tile has no pattern or a zero-aware one).
#[derive(Debug, Clone, Copy, Default)]
pub struct PdbAhead {
    s: u64,
    rs: u64,
}

/// What [`PdbEval`] restores when it takes a move back ([`Eval::Undo`]).
#[derive(Debug, Clone, Copy)]
pub struct PdbUndo {
    /// The moved tile's pattern's extras before the move, directly and reflected (`u8::MAX`: no pattern).
    a: u8,
    b: u8,
    /// The mixed sums before the move (restored as they were: no second update on the way back).
    sums: Lanes,
    /// The moved tile's pattern's indices before the move, directly and reflected.
    before: PdbAhead,
}

impl Default for PdbUndo {
    fn default() -> PdbUndo {
        PdbUndo {
            a: u8::MAX,
            b: u8::MAX,
            sums: Lanes::from_bytes([0; MIXED_SUMS]),
            before: PdbAhead::default(),
        }
    }
}

impl<const ZERO: bool, const LAYOUTS: u8> Eval for PdbEval<ZERO, LAYOUTS> {
    type Undo = PdbUndo;
    type Probe = PdbProbe;
    type Ahead = PdbAhead;
    const INCONSISTENT: bool = true;

    fn reset(&mut self, pos: &[u8]) {
        let pos = &pos[..self.n];
        self.md.reset(pos);
        self.direct.reset(pos);
        let mut tpos = [0u8; MAX_SEARCH_CELLS];
        for (tp, &c) in tpos.iter_mut().zip(pos) {
            *tp = self.transpose[c as usize & 63];
        }
        self.reflected.reset(&tpos[..self.n]);
        self.mixed.reset(&self.direct, &self.reflected);
    }

    #[inline(always)]
    fn h(&self) -> u32 {
        let whole = self.direct.sum.max(self.reflected.sum);
        if self.mixed.on {
            return self.md.h() + 2 * whole.max(self.mixed.sums.max() as u32);
        }
        self.md.h() + 2 * whole
    }

    /// [`Eval::probe`] without a budget, then [`Eval::push_probed`].
    #[inline(always)]
    fn push(&mut self, t: u8, from: u8, to: u8, _budget: u32) -> PdbUndo {
        let (_, probe) = self.probe(t, from, to, u32::MAX);
        self.push_probed(t, from, to, probe)
    }

    /// The reflected lookup is skipped when the direct one already puts the child over `budget`: such a child is
    /// never entered, so its probe is never pushed. A first try at issuing every child's loads before probing (3
    /// December 2026: three passes over the children, every index worked out twice) cost 5 % more instructions
    /// for no gain on the 24-puzzle and on Korf's 100 with 6-6-3; the look-ahead since 6 December
    /// ([`Eval::ahead`]) hands its indices to the probe and on into the child, and gains where the tables are
    /// large and dense (Korf's 100 with zb7-8: 0.88 times the time; see the `ahead` field).
    #[inline(always)]
    fn probe(&mut self, t: u8, from: u8, to: u8, budget: u32) -> (u32, PdbProbe) {
        self.probe_from(t, from, to, budget, None)
    }

    #[inline(always)]
    fn looks_ahead(&self) -> bool {
        self.ahead
    }

    /// The moved tile's pattern's indices after the move, directly and reflected, each entry's load started.
    #[inline(always)]
    fn ahead(&self, t: u8, from: u8, to: u8) -> PdbAhead {
        let i = t as usize & 63;
        let mut at = PdbAhead::default();
        let p = self.direct.owner[i] as usize;
        if p < self.direct.pats.len() {
            at.s = self.direct.index_after::<ZERO, LAYOUTS>(p, i, from, to);
            self.direct.prefetch_entry::<ZERO, LAYOUTS>(p, at.s);
        }
        let rp = self.reflected.owner[i] as usize;
        if rp < self.reflected.pats.len() {
            let (tf, tt) = (
                self.transpose[from as usize & 63],
                self.transpose[to as usize & 63],
            );
            at.rs = self.reflected.index_after::<ZERO, LAYOUTS>(rp, i, tf, tt);
            self.reflected.prefetch_entry::<ZERO, LAYOUTS>(rp, at.rs);
        }
        at
    }

    #[inline(always)]
    fn probe_ahead(
        &mut self,
        t: u8,
        from: u8,
        to: u8,
        budget: u32,
        ahead: PdbAhead,
    ) -> (u32, PdbProbe) {
        self.probe_from(t, from, to, budget, Some(ahead))
    }

    /// Of two children with the same estimate, the one whose tile moves toward its goal cell first: its Manhattan
    /// distance fell by one where the other's rose, so the databases' extras make up more of its estimate
    /// (24-puzzle instances 1, 16, 22, 28, 29 and 30: 0.94 times the nodes; Korf's 100: 0.97; in the reverse
    /// order 1.15).
    #[inline(always)]
    fn tie_break(probe: &PdbProbe) -> u8 {
        probe.away
    }

    #[inline(always)]
    fn push_probed(&mut self, t: u8, from: u8, to: u8, probe: PdbProbe) -> PdbUndo {
        self.md.push(t, from, to, u32::MAX);
        let i = t as usize & 63;
        let (tf, tt) = (
            self.transpose[from as usize & 63],
            self.transpose[to as usize & 63],
        );
        let sums = self.mixed.sums;
        if self.mixed.on {
            self.mixed.sums = self.mixed.moved(
                self.direct.owner[i] as usize,
                self.direct.change(self.direct.owner[i] as usize, probe.e),
                self.reflected.owner[i] as usize,
                self.reflected
                    .change(self.reflected.owner[i] as usize, probe.re),
            );
        }
        let (a, s) = self
            .direct
            .moved::<ZERO, LAYOUTS>(i, from, to, probe.e, probe.at.s);
        let (b, rs) = self
            .reflected
            .moved::<ZERO, LAYOUTS>(i, tf, tt, probe.re, probe.at.rs);
        PdbUndo {
            a,
            b,
            sums,
            before: PdbAhead { s, rs },
        }
    }

    #[inline(always)]
    fn pop(&mut self, t: u8, from: u8, to: u8, undo: PdbUndo) {
        self.md.pop(t, from, to, ());
        let i = t as usize & 63;
        let (tf, tt) = (
            self.transpose[from as usize & 63],
            self.transpose[to as usize & 63],
        );
        self.mixed.sums = undo.sums;
        self.direct
            .moved_back::<ZERO, LAYOUTS>(i, from, to, (undo.a, undo.before.s));
        self.reflected
            .moved_back::<ZERO, LAYOUTS>(i, tf, tt, (undo.b, undo.before.rs));
    }
}

/// Most partitions [`PdbMax`] maximises over.
pub const MAX_PARTITIONS: usize = 4;

/// Several disjoint partitions, each with its additive pattern databases (and reflection), maximised:
/// `h = max over partitions of PdbEval's h`. Each partition's estimate is admissible, so their maximum is. A child
/// whose estimate already passes the budget under one partition is not looked up in the others.
#[derive(Debug, Clone)]
pub struct PdbMax<const ZERO: bool = true, const LAYOUTS: u8 = { layouts::ANY }> {
    evals: Vec<PdbEval<ZERO, LAYOUTS>>,
    /// Some partition looks ahead ([`Eval::looks_ahead`]), worked out once: the search asks at every node.
    ahead: bool,
}

impl<const ZERO: bool, const LAYOUTS: u8> PdbMax<ZERO, LAYOUTS> {
    /// The maximum of `evals` (between 1 and [`MAX_PARTITIONS`] of them).
    pub fn new(evals: Vec<PdbEval<ZERO, LAYOUTS>>) -> Result<PdbMax<ZERO, LAYOUTS>> {
        if evals.is_empty() || evals.len() > MAX_PARTITIONS {
            return Err(Error::BadPartition {
                reason: format!(
                    "between 1 and {MAX_PARTITIONS} partitions can be maximised, not {}",
                    evals.len()
                ),
            });
        }
        let ahead = evals.iter().any(|e| e.looks_ahead());
        Ok(PdbMax { evals, ahead })
    }
}

impl<const ZERO: bool, const LAYOUTS: u8> Eval for PdbMax<ZERO, LAYOUTS> {
    type Undo = [PdbUndo; MAX_PARTITIONS];
    type Probe = [PdbProbe; MAX_PARTITIONS];
    type Ahead = [PdbAhead; MAX_PARTITIONS];
    const INCONSISTENT: bool = true;

    fn reset(&mut self, pos: &[u8]) {
        for e in &mut self.evals {
            e.reset(pos);
        }
    }

    #[inline(always)]
    fn h(&self) -> u32 {
        self.evals.iter().map(|e| e.h()).max().unwrap_or(0)
    }

    #[inline(always)]
    fn push(&mut self, t: u8, from: u8, to: u8, budget: u32) -> Self::Undo {
        let mut undo = [PdbUndo::default(); MAX_PARTITIONS];
        for (u, e) in undo.iter_mut().zip(&mut self.evals) {
            *u = e.push(t, from, to, budget);
        }
        undo
    }

    /// One child through every partition in turn, stopping at the first that puts it over `budget`; the search
    /// probes a node's children one after the other. Probing all children through one
    /// partition before the next (as until 4 December 2026) took 1.25 times the time on the 24-puzzle with two
    /// blank-bit partitions and 1.05-1.1 times on Korf's 100 with two, for the same nodes.
    #[inline(always)]
    fn probe(&mut self, t: u8, from: u8, to: u8, budget: u32) -> (u32, Self::Probe) {
        let mut probes = [PdbProbe::default(); MAX_PARTITIONS];
        let mut h = 0;
        for (p, e) in probes.iter_mut().zip(&mut self.evals) {
            let (he, pe) = e.probe(t, from, to, budget);
            *p = pe;
            h = h.max(he);
            if h > budget {
                break;
            }
        }
        (h, probes)
    }

    #[inline(always)]
    fn looks_ahead(&self) -> bool {
        self.ahead
    }

    #[inline(always)]
    fn ahead(&self, t: u8, from: u8, to: u8) -> Self::Ahead {
        let mut ahead = [PdbAhead::default(); MAX_PARTITIONS];
        for (a, e) in ahead.iter_mut().zip(&self.evals) {
            *a = e.ahead(t, from, to);
        }
        ahead
    }

    /// As [`PdbMax::probe`](Eval::probe), each partition with its indices.
    #[inline(always)]
    fn probe_ahead(
        &mut self,
        t: u8,
        from: u8,
        to: u8,
        budget: u32,
        ahead: Self::Ahead,
    ) -> (u32, Self::Probe) {
        let mut probes = [PdbProbe::default(); MAX_PARTITIONS];
        let mut h = 0;
        for ((p, e), a) in probes.iter_mut().zip(&mut self.evals).zip(ahead) {
            let (he, pe) = e.probe_ahead(t, from, to, budget, a);
            *p = pe;
            h = h.max(he);
            if h > budget {
                break;
            }
        }
        (h, probes)
    }

    /// The first partition's ([`PdbEval::tie_break`]: the Manhattan distance is every partition's).
    #[inline(always)]
    fn tie_break(probe: &Self::Probe) -> u8 {
        PdbEval::<ZERO, LAYOUTS>::tie_break(&probe[0])
    }

    #[inline(always)]
    fn push_probed(&mut self, t: u8, from: u8, to: u8, probe: Self::Probe) -> Self::Undo {
        let mut undo = [PdbUndo::default(); MAX_PARTITIONS];
        for ((u, e), p) in undo.iter_mut().zip(&mut self.evals).zip(probe) {
            *u = e.push_probed(t, from, to, p);
        }
        undo
    }

    #[inline(always)]
    fn pop(&mut self, t: u8, from: u8, to: u8, undo: Self::Undo) {
        for (e, u) in self.evals.iter_mut().zip(undo) {
            e.pop(t, from, to, u);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::NoProgress;

    fn cells(sets: &[&[u8]]) -> Vec<u64> {
        sets.iter()
            .map(|s| s.iter().fold(0, |m, &c| m | 1u64 << c))
            .collect()
    }

    fn transposed(sets: &[&[u8]], cols: u8) -> Vec<u64> {
        sets.iter()
            .map(|s| {
                s.iter()
                    .fold(0, |m, &c| m | 1u64 << ((c % cols) * cols + c / cols))
            })
            .collect()
    }

    /// The 24-puzzle's default partition (canonical frame, blank on cell 24) and its reflection give eight mixed
    /// sets of three patterns, each pairwise disjoint and maximal; 7-8 on 4 × 4 gives none.
    #[test]
    fn maximal_disjoint_sets_of_the_defaults() {
        let default: [&[u8]; 4] = [
            &[0, 1, 2, 5, 6, 7],
            &[3, 4, 8, 9, 13, 14],
            &[10, 11, 15, 16, 20, 21],
            &[12, 17, 18, 19, 22, 23],
        ];
        let all = [cells(&default), transposed(&default, 5)].concat();
        let sets = maximal_disjoint(&all, 4);
        assert_eq!(sets.len(), 8, "{sets:?}");
        for &set in &sets {
            assert_eq!(set.count_ones(), 3, "{set:#b}");
            assert!(
                set & 0xf != 0 && set & 0xf0 != 0,
                "{set:#b} mixes the views"
            );
            let members: Vec<usize> = (0..8).filter(|&i| set >> i & 1 == 1).collect();
            for (i, &a) in members.iter().enumerate() {
                for &b in &members[i + 1..] {
                    assert_eq!(all[a] & all[b], 0, "{set:#b}");
                }
            }
            for other in (0..8).filter(|&i| set >> i & 1 == 0) {
                assert!(
                    members.iter().any(|&m| all[m] & all[other] != 0),
                    "{set:#b} + {other}"
                );
            }
        }
        let m = Mixed::of(&cells(&default), &transposed(&default, 5));
        assert_eq!((m.sets, m.on), (8, false));
        let seven_eight: [&[u8]; 2] = [&[0, 1, 2, 3, 4, 5, 6], &[7, 8, 9, 10, 11, 12, 13, 14]];
        let m = Mixed::of(&cells(&seven_eight), &transposed(&seven_eight, 4));
        assert_eq!(m.sets, 0);
    }

    /// Lanes add with wrapping (a change may be negative) and give their largest byte.
    #[test]
    fn lanes_add_and_maximise() {
        let mut b = [0u8; MIXED_SUMS];
        b[3] = 40;
        b[11] = 7;
        let mask = Lanes::from_bytes(std::array::from_fn(|j| if j % 2 == 1 { 0xff } else { 0 }));
        let v = Lanes::from_bytes(b).add_masked(mask, 2u8.wrapping_neg());
        let out = v.to_bytes();
        assert_eq!(out[3], 38);
        assert_eq!(out[11], 5);
        assert_eq!(out[1], 254);
        assert_eq!(out[0], 0);
        assert_eq!(Lanes::from_bytes(b).max(), 40);
        let mut c = [0u8; MIXED_SUMS];
        c[15] = 128;
        assert_eq!(Lanes::from_bytes(c).max(), 128);
    }

    /// The tie-break: a move that takes its tile toward its goal cell has key 0, one that takes it away 1 (the
    /// search enters the former first when their estimates are equal).
    #[test]
    fn tie_break_prefers_the_move_toward_the_goal() {
        let shape = Shape::new(3, 3).unwrap();
        let pdbs = [&[0u8, 1, 2][..], &[3, 4, 5], &[6, 7]]
            .iter()
            .map(|c| Pdb::build(shape, c, 8, &NoProgress).map(Arc::new))
            .collect::<Result<Vec<_>>>()
            .unwrap();
        let g = Geometry::new(shape, 8).unwrap();
        let mut eval = PdbEval::new(&g, &PdbSet { pdbs }, true).unwrap();
        // 1 2 3 / 4 5 6 / 7 0 8: tile t on cell t - 1 but tile 8 on cell 8, the blank on cell 7.
        eval.reset(&[7, 0, 1, 2, 3, 4, 5, 6, 8]);
        let toward = eval.probe(8, 8, 7, u32::MAX).1;
        let up = eval.probe(5, 4, 7, u32::MAX).1;
        let left = eval.probe(7, 6, 7, u32::MAX).1;
        assert_eq!(PdbEval::<true>::tie_break(&toward), 0);
        assert_eq!(PdbEval::<true>::tie_break(&up), 1);
        assert_eq!(PdbEval::<true>::tie_break(&left), 1);
        assert_eq!(PdbMax::<true>::tie_break(&[toward; MAX_PARTITIONS]), 0);
        assert_eq!(PdbMax::<true>::tie_break(&[up; MAX_PARTITIONS]), 1);
    }
}
