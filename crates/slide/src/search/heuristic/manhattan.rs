//! The Manhattan-distance heuristics: [`Manhattan`], [`PatternManhattan`] (a partial goal's tiles) and
//! [`LinearConflict`].

use super::{Eval, Geometry, MAX_SEARCH_CELLS};
use crate::board::Shape;
use crate::error::{Error, Result, SolveError};

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
            return Err(Error::Solve(SolveError::SearchTooLarge { shape }));
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
