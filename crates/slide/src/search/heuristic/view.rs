//! The pattern databases as the search reads them: [`PdbSet`], and one view of the board (direct or reflected) with
//! each pattern's tiles, index and packed entries, kept move by move.

use super::{layouts, MAX_SEARCH_CELLS};
use crate::search::pdb::{Pdb, PdbIndex, PdbLayout, Placed, ZeroIndex, MAX_PATTERN, PDB_BITS};
use std::sync::Arc;

/// A disjoint partition of the goal cells into patterns, with their databases.
#[derive(Debug, Clone)]
pub struct PdbSet {
    /// The databases, one per pattern.
    pub pdbs: Vec<Arc<Pdb>>,
}

/// One pattern as the search reads it: its tiles, rank weights and packed entries, in fixed arrays.
#[derive(Debug, Clone)]
pub(super) struct Pat {
    k: usize,
    tiles: [u8; MAX_PATTERN],
    weights: [u64; MAX_PATTERN],
    pdb: Arc<Pdb>,
    /// The index of a zero-aware database (the entry also depends on the blank's region).
    pub(super) zero: Option<Arc<ZeroIndex>>,
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
    pub(super) fn bits<const LAYOUTS: u8>(&self) -> bool {
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
        // On a little-endian machine, one load of the entry's own width and no shift to the entry within its word.
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
pub(super) struct View {
    pub(super) pats: Vec<Pat>,
    /// Pattern of each tile (`u8::MAX`: none), and the tile's index in it.
    pub(super) owner: [u8; MAX_SEARCH_CELLS],
    item: [u8; MAX_SEARCH_CELLS],
    /// Tile → cell in this view (`pos[0]`: the blank's) at the last reset (not kept move by move).
    pos: [u8; MAX_SEARCH_CELLS],
    /// Cell → the tile on it in this view, kept move by move for the tiles of dense plain patterns only (read
    /// only on those cells: [`View::dense_step`]).
    pub(super) at: [u8; MAX_SEARCH_CELLS],
    /// Cell → the index in its pattern of the tile on it, read only for the cells of a zero-aware pattern's tiles
    /// (kept by a zero-aware evaluator only).
    slot: [u8; MAX_SEARCH_CELLS],
    /// Each pattern's stored extra, and their sum.
    pub(super) extra: [u8; MAX_SEARCH_CELLS],
    pub(super) sum: u32,
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
    pub(super) fn new() -> View {
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
    pub(super) fn add(&mut self, tiles: &[u8], pdb: &Arc<Pdb>) {
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
    pub(super) fn reset(&mut self, pos: &[u8]) {
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
    pub(super) fn index_after<const ZERO: bool, const LAYOUTS: u8>(
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
    pub(super) fn child<const ZERO: bool, const LAYOUTS: u8>(
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
    pub(super) fn prefetch_entry<const ZERO: bool, const LAYOUTS: u8>(&self, p: usize, s: u64) {
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
    /// pattern (`p` is `u8::MAX`: [`Mixed`](super::mixed::Mixed) adds it to no sum).
    #[inline(always)]
    pub(super) fn change(&self, p: usize, extra: u8) -> u8 {
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
    pub(super) fn moved<const ZERO: bool, const LAYOUTS: u8>(
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
    pub(super) fn moved_back<const ZERO: bool, const LAYOUTS: u8>(
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
