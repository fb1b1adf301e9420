//! The label space: label arrangements with the axis of the first push, as a state space for the BFS engine.
//!
//! **Building** a table: [`LabelSpace::expand`] lists a state's neighbours. A push along a row keeps the order of
//! the other labels read row by row without the blank, so it changes only the blank's digit of the rank: those
//! neighbours cost an addition, without unranking (half the states). For pushes along a column it works on one cell
//! mask per label: the arrangement is unranked by `PDEP` from a cursor that steps rank by rank (the search scans
//! ranks in order, so most steps change only the last label's digit; a longer step divides only where a digit
//! carries), each push shifts a segment of every mask, and the neighbours are ranked by `PEXT`. Then encoded
//! ([`LabelTable`](super::LabelTable)).
//!
//! **Two orders.** The table files keep arrangements with the blank's cell as the least significant digit of the
//! rank ([`MultisetRanker::new`]): a push along a row then reads the parent's cache line, as does a push along a
//! column in the transposed board's reading, so a child misses the cache in one or two readings instead of three.
//! The build numbers its states with the blank's cell as the most significant digit
//! ([`MultisetRanker::label0_major`]), so that its scans keep their locality, and encodes into the table's order at
//! the end.

use super::ida::LABELS;
use super::{counts, goal_labels, Layout, MAX_LABEL_ENTRIES};
use crate::board::Shape;
use crate::error::{Error, Result, SolveError};
use crate::exact::bfs::StateSpace;
use crate::exact::rank::{MaskCursor, MultisetRanker};

/// The label arrangements of a shape under multi-tile moves, with the axis of the first push: rank = 2 ·
/// arrangement + axis (0 vertical, 1 horizontal). Paths alternate axes; every push costs 1.
///
/// Arrangements are numbered two ways. The table's order ([`MultisetRanker::new`], `ranker`) has the blank's cell
/// as the least significant digit, so that the pushes along a row, which change nothing else, read one cache line
/// of the table. The search over states numbers them with the blank's cell the most significant digit
/// ([`MultisetRanker::label0_major`], `scan`), so that the arrangements scanned one after another share the
/// blank's cell, and the neighbours they list lie near one another as well (the 4 × 4 build in the table's order
/// took 1.04 times as long: 3 pairs side by side).
#[derive(Debug)]
pub struct LabelSpace {
    shape: Shape,
    pub(super) labels: Vec<u8>,
    /// The table's ranks of arrangements (blank's digit least significant).
    pub(super) ranker: MultisetRanker,
    /// The search's ranks of arrangements (blank's digit most significant): a state is `2 * scan rank + axis`.
    scan: MultisetRanker,
    /// Expand on masks with `PDEP`/`PEXT` ([`MultisetRanker::pdep_ready`]).
    pub(super) bmi2: bool,
    /// `segments[b * cells + t]`: the cells a push of the blank from `b` to `t` (on one line) shifts, `t` included.
    segments: Vec<u32>,
    /// The weight of the blank's digit in an arrangement's `scan` rank ([`MultisetRanker::weight`]): a horizontal
    /// push moves the rank by this much per cell the blank moves.
    pub(super) blank_weight: u64,
}

impl LabelSpace {
    /// The space of `shape` whose goal has the blank on `blank_goal`; an error when it has more than
    /// [`MAX_LABEL_ENTRIES`] states.
    pub fn new(shape: Shape, blank_goal: usize, layout: Layout) -> Result<LabelSpace> {
        let too_large = || {
            Error::Solve(SolveError::InvalidOption {
            option: "metric".into(),
            reason: format!(
                "MTM search on {shape} needs a label table larger than {MAX_LABEL_ENTRIES} entries (above 12 \
                 cells MTM covers 4x4, 3x5, 5x3 and boards of two rows or columns)"
            ),
        })
        };
        if shape.cells() > 32 || blank_goal >= shape.cells() {
            return Err(too_large());
        }
        let labels = goal_labels(shape, blank_goal, layout);
        let ranker = MultisetRanker::new(&counts(&labels)).ok_or_else(too_large)?;
        let scan = MultisetRanker::label0_major(&counts(&labels)).ok_or_else(too_large)?;
        if ranker
            .size()
            .checked_mul(2)
            .is_none_or(|n| n > MAX_LABEL_ENTRIES)
        {
            return Err(too_large());
        }
        let bmi2 = scan.pdep_ready() && shape.cells() <= 16;
        let segments = line_segments(shape);
        // The blank is label 0, on one cell: its digit is its cell (the colexicographic rank of one position).
        let blank_weight = scan.weight(0);
        Ok(LabelSpace {
            shape,
            labels,
            ranker,
            scan,
            bmi2,
            segments,
            blank_weight,
        })
    }

    /// The number of label arrangements (half the states: each has two axes).
    pub fn arrangements(&self) -> u64 {
        self.ranker.size()
    }

    /// The table's rank of the arrangement whose search rank is `a`: the blank's cell moved from the most
    /// significant digit to the least.
    #[inline]
    pub(super) fn table_rank(&self, a: u64) -> u64 {
        (a % self.blank_weight) * self.shape.cells() as u64 + a / self.blank_weight
    }

    /// The search's rank of the arrangement whose table rank is `t` (the inverse of `table_rank`).
    #[inline]
    pub(super) fn scan_rank(&self, t: u64) -> u64 {
        let n = self.shape.cells() as u64;
        (t % n) * self.blank_weight + t / n
    }
}

/// `segments[b * cells + t]` for a shape of at most 32 cells: the cells a push of the blank from `b` to `t` (on one
/// line) shifts one step back toward `b`, `t` included (0 when `b` and `t` share no line). A push is then, on each
/// label's cell mask `m`, `(m & !s) | (m & s) >> step` (or `<<` when `t < b`).
pub(super) fn line_segments(shape: Shape) -> Vec<u32> {
    let (n, cols) = (shape.cells(), shape.cols());
    let mut segments = vec![0u32; n * n];
    for b in 0..n {
        for t in 0..n {
            let same_row = b / cols == t / cols;
            if b != t && (same_row || b % cols == t % cols) {
                let step = if same_row { 1 } else { cols };
                let mut i = b;
                while i != t {
                    i = if t > b { i + step } else { i - step };
                    segments[b * n + t] |= 1 << i;
                }
            }
        }
    }
    segments
}

/// Moves the blank of `cells` from `from` to `to` (on one line), shifting the cells between one step toward `from`.
#[inline]
pub(super) fn push(cells: &mut [u8], from: usize, to: usize, step: usize) {
    if to > from {
        let mut i = from;
        while i != to {
            cells[i] = cells[i + step];
            i += step;
        }
    } else {
        let mut i = from;
        while i != to {
            cells[i] = cells[i - step];
            i -= step;
        }
    }
    cells[to] = 0;
}

impl LabelSpace {
    /// The vertical pushes of [`StateSpace::expand`] on label masks: unranked by `PDEP`, each push done on the
    /// masks, ranked by `PEXT`.
    ///
    /// # Safety
    ///
    /// The processor must support BMI2 and the ranker be [`MultisetRanker::pdep_ready`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2")]
    unsafe fn expand_bmi2(&self, rank: u64, s: &mut LabelScratch, visit: &mut impl FnMut(u64, u8)) {
        let arrangement = rank >> 1;
        if arrangement != s.arrangement {
            self.scan.seek_masks_pdep(&mut s.cursor, arrangement);
            s.arrangement = arrangement;
        }
        let masks = s.cursor.masks();
        let cols = self.shape.cols();
        let blank = masks[0].trailing_zeros() as usize;
        let (br, bc) = (blank / cols, blank % cols);
        // The blank moves to `to` in its column: the cells from the blank's neighbour to `to` (`segment`) shift one
        // row back, in every label's mask at once.
        let mut pushed = |to: usize| {
            let mut m = [0u32; LABELS];
            let segment = self.segments[blank * self.shape.cells() + to];
            for (l, out) in m.iter_mut().enumerate().skip(1) {
                let x = masks[l];
                let moving = x & segment;
                *out = (x & !segment)
                    | if to > blank {
                        moving >> cols
                    } else {
                        moving << cols
                    };
            }
            m[0] = 1 << to;
            visit(self.scan.rank_masks_pext(&m) * 2, 1);
        };
        for r in (0..self.shape.rows()).filter(|&r| r != br) {
            pushed(r * cols + bc);
        }
    }
}

/// Working memory of [`LabelSpace::expand`]: the arrangement last unranked for vertical pushes (the search scans
/// ranks in order), as cells (the plain path) or as label masks (the BMI2 path's cursor), and the blank's cell for
/// horizontal pushes.
pub struct LabelScratch {
    /// The blank's cell in the arrangements from `blank_from` to `blank_from + blank_weight` (horizontal pushes).
    blank: u64,
    blank_from: u64,
    arrangement: u64,
    cells: Vec<u8>,
    cursor: MaskCursor,
}

impl StateSpace for LabelSpace {
    type Scratch = LabelScratch;

    fn size(&self) -> u64 {
        self.ranker.size() * 2
    }

    fn goals(&self) -> Vec<u64> {
        let g = self.scan.rank(&self.labels);
        vec![2 * g, 2 * g + 1]
    }

    fn scratch(&self) -> LabelScratch {
        LabelScratch {
            blank: 0,
            blank_from: 0,
            arrangement: u64::MAX,
            cells: vec![0; self.shape.cells()],
            cursor: MaskCursor::new(),
        }
    }

    fn expand(&self, rank: u64, s: &mut LabelScratch, visit: &mut impl FnMut(u64, u8)) {
        // The state (s', axis) at distance d makes (s, other axis) at d + 1 for each s that reaches s' by one push
        // along the other axis (pushes are reversible: s' reaches s by one such push).
        let arrangement = rank >> 1;
        if rank & 1 == 0 {
            // A horizontal push keeps the other labels' order read row by row without the blank (the cells it
            // shifts take the places of their neighbours toward the blank), so only the blank's digit, its cell,
            // changes: no unranking, no ranking.
            let w = self.blank_weight;
            if arrangement.wrapping_sub(s.blank_from) >= w {
                s.blank = arrangement / w;
                s.blank_from = s.blank * w;
            }
            let cols = self.shape.cols() as u64;
            let row = s.blank - s.blank % cols;
            for t in (row..row + cols).filter(|&t| t != s.blank) {
                visit((arrangement - s.blank_from + t * w) * 2 + 1, 1);
            }
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if self.bmi2 {
            // SAFETY: `bmi2` is set only when the ranker is `pdep_ready` (which implies `pext_ready`).
            return unsafe { self.expand_bmi2(rank, s, visit) };
        }
        if arrangement != s.arrangement {
            self.scan.unrank(arrangement, &mut s.cells);
            s.arrangement = arrangement;
        }
        let cells = &s.cells;
        let cols = self.shape.cols();
        let blank = cells.iter().position(|&l| l == 0).unwrap_or(0);
        let (br, bc) = (blank / cols, blank % cols);
        let mut work = [0u8; 32];
        let n = cells.len();
        for r in (0..self.shape.rows()).filter(|&r| r != br) {
            work[..n].copy_from_slice(cells);
            push(&mut work[..n], blank, r * cols + bc, cols);
            visit(self.scan.rank(&work[..n]) * 2, 1);
        }
    }
}
