//! Optimal search in the multi-tile metric (MTM) above 12 cells: IDA* over pushes, guided by label tables.
//!
//! **Alternation.** Two pushes in a row along one axis never help: they equal one push or none (the blank stays on
//! its line). So an optimal solution alternates vertical and horizontal pushes, and the search generates only
//! alternating sequences (on a 4 × 4 board: 3 pushes at each node after the first).
//!
//! **Label tables.** Give every tile the label of its goal region ([`Layout`]) and forget which tile it is; the
//! blank keeps a label of its own. A *label arrangement* says which label each cell holds. A [`LabelTable`] holds,
//! for every arrangement and each axis, the least number of pushes of an alternating path that starts along that
//! axis and reaches the goal's arrangement (kept as the arrangement's distance, modulo 3, and each axis's excess
//! over it, capped: still a lower bound): a breadth-first search by the one BFS engine (its compact mode) over
//! [`LabelSpace`], whose states are (arrangement, axis of the first push). Every solution of the board is such a
//! path of its arrangement, so the entry is an admissible estimate, and so is the largest of several. The search
//! carries each reading's distance from node to node.
//!
//! **Readings.** A table is read for the board and for the transposed board (tiles relabelled by their transposed
//! goal cells, the other axis first): for goal rows ([`Layout::Rows`]) the second reading is the goal *columns'*
//! estimate. Square boards read a second layout too, the quadrants ([`Layout::Quadrants`]), which the
//! transposition maps to themselves when the goal's blank is on the diagonal: their reading on the transposed board
//! equals the direct one (tested on every 3 × 3 board) and is skipped. So a 4 × 4 child costs three reads; other
//! shapes read the rows-then-halves layout ([`Layout::HalvesAlt`]) twice. [`layouts`] says which, and why (the
//! measurements: 102 million nodes on 40 random boards with rows-then-halves alone, 17.5 million with rows and
//! quadrants, 18.6 million once the excess is capped).
//!
//! **Pruning.** Besides alternation, a push-pruning automaton learned on the shape
//! ([`crate::search::push_pruning`]) rejects every push sequence that an earlier one of the same effect replaces
//! (on 4 × 4, 41.4 against 52.6 million nodes on 10 random boards).
//!
//! **Per node.** The time goes to memory: every child needs an entry of each reading, random reads in tables of
//! hundreds of megabytes. A node therefore ranks all its children first and prefetches their entries
//! ([`PackedTable::prefetch`]), so that the reads overlap, and enters only the children within the bound; the ranks
//! use `PEXT` where the processor has BMI2 ([`MultisetRanker::rank_masks_pext`]), and a push moves the labels of a
//! whole line segment in every mask at once (`line_segments`). Measured on 10 random 4 × 4 boards, the same
//! nodes: the prefetching halved the time, `PEXT` took 18% off the rest. Reading one table first and the other only
//! for the children it does not prune reads fewer entries but serialises two waits: 10% slower, not kept. The
//! number of readings is a constant of the inner loop (`dfs` is generic over it), and the children are made by a
//! method compiled inside `dfs_bmi2` (a closure would not get its processor features, and the ranking would not
//! inline): 7% each.
//!
//! **Sizes**: a 4 × 4 table has 16!/(4!·4!·4!·3!) = 252,252,000 arrangements, 4 bits each ([`LabelTable`]: the
//! distance modulo 3 and the axes' excess; 126 MB on disk); 4 × 4 reads two (252 MB). The search behind them has
//! two states per arrangement (504,504,000 on 4 × 4). 3 × 5 needs 15,135,120 arrangements and 5 × 3 25,225,200.
//! Boards of two rows or columns fit too; 4 × 5 and larger do not ([`MAX_LABEL_ENTRIES`]).
//!
//! **Building** a table: [`LabelSpace::expand`] lists a state's neighbours. A push along a row keeps the order of
//! the other labels read row by row without the blank, so it changes only the blank's digit of the rank: those
//! neighbours cost an addition, without unranking (half the states). For pushes along a column it works on one
//! cell mask per label: the arrangement is unranked by `PDEP` from a cursor that steps rank by rank (the search
//! scans ranks in order, so most steps change only the last label's digit; a longer step divides only where a
//! digit carries), each push shifts a segment of every mask, and the neighbours are ranked by `PEXT`. The two 4 × 4
//! tables: 29.5 s of wall time and 57 s of CPU on two threads, where slidy-cli builds its table in 33.4 s (side by
//! side, 4 pairs: 0.89 of its wall time); 35 s and 67 s when every state was unranked and its neighbours ranked,
//! and a table took 138 s of CPU with cell arrays and a rank loop. Then encoded ([`LabelTable`]).
//!
//! **Two orders.** The table files keep arrangements with the blank's cell as the least significant digit of the
//! rank ([`MultisetRanker::new`]): a push along a row then reads the parent's cache line, as does a push along a
//! column in the transposed board's reading, so a child misses the cache in one or two readings instead of three
//! (40 random 4 × 4 boards: 0.90 of the time, 7 pairs). The build numbers its states with the blank's cell as the
//! most significant digit ([`MultisetRanker::label0_major`]), so that its scans keep their locality (0.96 of the
//! time of a build in the table's order, 3 pairs), and encodes into the table's order at the end.

use crate::board::{Board, Shape};
use crate::error::{Error, Result};
use crate::exact::bfs::{bfs_compact, StateSpace};
use crate::exact::packed::PackedTable;
use crate::exact::rank::{MaskCursor, MultisetRanker};
use crate::progress::Progress;
use crate::search::ida::{Counted, Limits, Outcome, Tally};
use crate::search::pruning::DEAD;
use crate::search::push_pruning::PushPruner;

/// The largest label-table search built (states: two per arrangement): 4 × 4's (504,504,000) fits, 4 × 5's
/// (about 7.8·10¹⁰) does not.
pub const MAX_LABEL_ENTRIES: u64 = 600_000_000;

/// The name of label tables in table files.
pub const LABEL_TABLE_KIND: &str = "halves-alt";

/// How a label table groups the tiles: each tile gets the label of its goal cell's group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layout {
    /// The first row, the second row, then the left and the right half of the rows below.
    HalvesAlt,
    /// One label per row (rows past the fourth share the fourth's).
    Rows,
    /// The four quadrants (the top and the left half rounding up).
    Quadrants,
}

impl Layout {
    /// The name of this layout's tables in table files.
    pub fn kind(self) -> &'static str {
        match self {
            Layout::HalvesAlt => LABEL_TABLE_KIND,
            Layout::Rows => "rows-alt",
            Layout::Quadrants => "quadrants-alt",
        }
    }
}

/// The layouts a search in MTM reads for `shape`: the first on the board and on the transposed board, and the
/// second (if any) likewise.
///
/// Square boards: goal rows (and, on the transposed board, goal columns) with the quadrants; the others: the
/// rows-then-halves layout alone. Chosen by measurement on the 40 random 4 × 4 boards of README.md (nodes of the
/// whole IDA* runs, one process): rows-then-halves alone 102.2 million; goal rows alone 17.4 million on the first
/// 8 boards (rows-then-halves alone: 40.2 million); rows-then-halves with goal rows 19.4 million; goal rows with the
/// quadrants **17.5 million** with three reads per child (the quadrants are their own transpose, so their second
/// reading is skipped); goal rows with anti-diagonal groups 21.3 million.
pub fn layouts(shape: Shape) -> (Layout, Option<Layout>) {
    if shape.rows() == shape.cols() {
        (Layout::Rows, Some(Layout::Quadrants))
    } else {
        (Layout::HalvesAlt, None)
    }
}

/// The number of entries of the label table for `shape` with the goal's blank on `blank_goal`, `None` when it does
/// not fit in a `u64`.
pub fn label_space_size(shape: Shape, blank_goal: usize, layout: Layout) -> Option<u64> {
    let labels = goal_labels(shape, blank_goal, layout);
    MultisetRanker::new(&counts(&labels))?.size().checked_mul(2)
}

/// The label of each goal cell: 0 on the blank's cell; with [`Layout::HalvesAlt`], 1 on the first row, 2 on the
/// second, then 3 on the left half of the rows below (rounding up) and 4 on the right half.
///
/// Chosen by measurement on 40 random 4 × 4 boards (the same boards, nodes of the whole IDA* runs): labelling by
/// goal row with horizontal pushes free (an additive vertical + horizontal bound) took 36 million nodes on one
/// 35-move board where this scheme takes under 3 million; on the 40 boards, the first row / first column / second
/// row / rest took 441 million nodes, the first row / second row / first column / rest 171 million, and this one
/// 124 million.
fn goal_labels(shape: Shape, blank_goal: usize, layout: Layout) -> Vec<u8> {
    let (rows, cols) = (shape.rows(), shape.cols());
    (0..shape.cells())
        .map(|c| match (layout, c / cols, c % cols) {
            _ if c == blank_goal => 0,
            (Layout::HalvesAlt, 0, _) => 1,
            (Layout::HalvesAlt, 1, _) => 2,
            (Layout::HalvesAlt, _, c) if c < cols.div_ceil(2) => 3,
            (Layout::HalvesAlt, _, _) => 4,
            (Layout::Rows, r, _) => r.min(3) as u8 + 1,
            (Layout::Quadrants, r, c) => {
                1 + u8::from(r >= rows.div_ceil(2)) * 2 + u8::from(c >= cols.div_ceil(2))
            }
        })
        .collect()
}

/// How often each label occurs (labels without a cell occur 0 times).
fn counts(labels: &[u8]) -> Vec<u8> {
    let mut c = vec![0u8; 5];
    for &l in labels {
        c[l as usize] += 1;
    }
    c
}

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
    labels: Vec<u8>,
    /// The table's ranks of arrangements (blank's digit least significant).
    ranker: MultisetRanker,
    /// The search's ranks of arrangements (blank's digit most significant): a state is `2 * scan rank + axis`.
    scan: MultisetRanker,
    /// Expand on masks with `PDEP`/`PEXT` ([`MultisetRanker::pdep_ready`]).
    bmi2: bool,
    /// `segments[b * cells + t]`: the cells a push of the blank from `b` to `t` (on one line) shifts, `t` included.
    segments: Vec<u32>,
    /// The weight of the blank's digit in an arrangement's `scan` rank ([`MultisetRanker::weight`]): a horizontal
    /// push moves the rank by this much per cell the blank moves.
    blank_weight: u64,
}

impl LabelSpace {
    /// The space of `shape` whose goal has the blank on `blank_goal`; an error when it has more than
    /// [`MAX_LABEL_ENTRIES`] states.
    pub fn new(shape: Shape, blank_goal: usize, layout: Layout) -> Result<LabelSpace> {
        let too_large = || {
            Error::InvalidOption {
            option: "metric".into(),
            reason: format!(
                "MTM search on {shape} needs a label table larger than {MAX_LABEL_ENTRIES} entries (above 12 \
                 cells MTM covers 4x4, 3x5, 5x3 and boards of two rows or columns)"
            ),
        }
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
    fn table_rank(&self, a: u64) -> u64 {
        (a % self.blank_weight) * self.shape.cells() as u64 + a / self.blank_weight
    }

    /// The search's rank of the arrangement whose table rank is `t` (the inverse of `table_rank`).
    #[inline]
    fn scan_rank(&self, t: u64) -> u64 {
        let n = self.shape.cells() as u64;
        (t % n) * self.blank_weight + t / n
    }
}

/// `segments[b * cells + t]` for a shape of at most 32 cells: the cells a push of the blank from `b` to `t` (on one
/// line) shifts one step back toward `b`, `t` included (0 when `b` and `t` share no line). A push is then, on each
/// label's cell mask `m`, `(m & !s) | (m & s) >> step` (or `<<` when `t < b`).
fn line_segments(shape: Shape) -> Vec<u32> {
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
fn push(cells: &mut [u8], from: usize, to: usize, step: usize) {
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

/// Bits per arrangement in a label table ([`LABEL_ENCODING`]).
pub const CODE_BITS: u32 = 4;

/// The largest excess of an axis a label table keeps; larger ones are kept as this (still a lower bound).
pub const MAX_EXCESS: u32 = 2;

/// The name of the label tables' encoding in table files: per arrangement, its distance modulo 3 and its axes'
/// excess ([`LabelTable`]), the arrangements in rank order, the blank's cell the least significant digit
/// ([`MultisetRanker`]).
pub const LABEL_ENCODING: &str = "mod3-excess-blank-minor";

/// `EXCESS[code][axis]`: the excess of `axis` that a code says ([`encode`]).
const EXCESS: [[u8; 2]; 16] = {
    let mut t = [[0u8; 2]; 16];
    let mut code = 0;
    while code < 15 {
        t[code] = match code / 3 {
            0 => [0, 0],
            1 => [1, 0],
            2 => [0, 1],
            3 => [2, 0],
            _ => [0, 2],
        };
        code += 1;
    }
    t
};

/// `STEP[r][code]`: one plus the distance of a neighbour whose code is `code` minus the distance of an arrangement
/// whose distance is `r` modulo 3 (neighbours differ by at most one, and the code's residue says which).
const STEP: [[u8; 16]; 3] = {
    let mut t = [[0u8; 16]; 3];
    let mut r = 0;
    while r < 3 {
        let mut code = 0;
        while code < 16 {
            t[r][code] = match (code % 3 + 3 - r) % 3 {
                0 => 1,
                1 => 2,
                _ => 0,
            };
            code += 1;
        }
        r += 1;
    }
    t
};

/// The code of an arrangement whose alternating distances, starting along axis 0 and along axis 1, are `d0` and
/// `d1`: the residue of the distance `d = min(d0, d1)` modulo 3, plus 3 × which axis exceeds `d` and by how much
/// (0: neither; 1 and 2: axis 0 and axis 1 by one; 3 and 4: by [`MAX_EXCESS`] or more). Codes run from 0 to 14.
fn encode(d0: u32, d1: u32) -> u32 {
    let d = d0.min(d1);
    let kind = match ((d0 - d).min(MAX_EXCESS), (d1 - d).min(MAX_EXCESS)) {
        (0, 0) => 0,
        (1, _) => 1,
        (_, 1) => 2,
        (_, 0) => 3,
        _ => 4,
    };
    d % 3 + 3 * kind
}

/// The distance of a neighbour whose code is `code`, next to an arrangement at distance `d`.
#[inline(always)]
fn neighbour_distance(d: u32, code: u32) -> u32 {
    (d + u32::from(STEP[(d % 3) as usize][code as usize & 15])).saturating_sub(1)
}

/// The excess of `axis` (0 or 1) that `code` says.
#[inline(always)]
fn excess(code: u32, axis: usize) -> u32 {
    u32::from(EXCESS[code as usize & 15][axis & 1])
}

/// A label table: for every label arrangement of a shape, the least number of pushes to the goal's arrangement
/// (its *distance*), and for each axis the least number of pushes of an alternating path that starts along that
/// axis (the distance plus the axis's *excess*), in [`CODE_BITS`] bits per arrangement.
///
/// **Encoding.** An arrangement keeps only its distance modulo 3 and its axes' excess, capped at [`MAX_EXCESS`]
/// (the codes are listed at `encode`). The distance itself is recovered from a neighbour's: one push changes it by
/// at most one (a push's reverse is a push), and the residue says whether it went down, stayed or went up. The
/// search knows the distance of every node it enters, so each child costs one read as before; a lone
/// arrangement's distance is found by walking down to the goal ([`LabelTable::distance`]). Measured on the 40
/// random 4 × 4 boards: exact entries 17.49 million nodes, the excess capped at 4 17.53 million, at 2 **18.56
/// million**, at 1 21.1 million, the distance alone 31.6 million. A 4 × 4 table takes 126 MB instead of the 378 MB of six bits per (arrangement,
/// axis), so the search's tables take a third of the memory and the page faults to fill it.
#[derive(Debug)]
pub struct LabelTable {
    shape: Shape,
    blank_goal: usize,
    layout: Layout,
    /// The arrangements and their pushes (its ranker and goal labels serve the search too).
    space: LabelSpace,
    /// The goal's arrangement.
    goal: u64,
    table: PackedTable,
    histogram: Vec<u64>,
}

impl LabelTable {
    /// Builds the table of `shape` with the goal's blank on `blank_goal` by the compact search ([`bfs_compact`]:
    /// two bits per state while searching) over (arrangement, axis) states, each distance stored in a byte as its
    /// state is settled, then encoded (four bits per arrangement).
    pub fn build(
        shape: Shape,
        blank_goal: usize,
        layout: Layout,
        progress: &dyn Progress,
    ) -> Result<LabelTable> {
        use rayon::prelude::*;
        use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
        let space = LabelSpace::new(shape, blank_goal, layout)?;
        let label = format!("MTM label table {shape}");
        let len = usize::try_from(space.size())
            .map_err(|_| Error::Internal("label table too large".into()))?;
        let mut bytes: Vec<u8> = crate::exact::packed::large_vec(len);
        // SAFETY: AtomicU8 has the size and alignment of u8; `bytes` is not otherwise used while the view lives.
        let cells: &[AtomicU8] =
            unsafe { std::slice::from_raw_parts(bytes.as_mut_ptr() as *const AtomicU8, len) };
        // Each state is settled once, so a plain store suffices; distances of 255 and more do not fit.
        let histogram = bfs_compact(&space, &label, progress, None, |rank, d, _| {
            cells[rank as usize].store(d.min(255) as u8, Relaxed)
        })?;
        if histogram.len() > 255 {
            return Err(Error::Internal(
                "a label distance does not fit in a byte".into(),
            ));
        }
        if histogram.iter().sum::<u64>() != len as u64 {
            return Err(Error::Internal(
                "a label arrangement was not reached".into(),
            ));
        }
        // Sixteen codes to a word, in the table's order, from the bytes of their arrangements' two states (in the
        // search's order: the blank's cell, the table's least significant digit, is the most significant there).
        let arrangements = space.ranker.size();
        let (n, w) = (shape.cells() as u64, space.blank_weight);
        let mut words: Vec<u64> =
            crate::exact::packed::large_vec(PackedTable::words_for(CODE_BITS, arrangements));
        let per_word = (64 / CODE_BITS) as usize;
        words
            .par_chunks_mut(1 << 12)
            .enumerate()
            .for_each(|(c, chunk)| {
                // The table rank t = rest · n + blank is the search's blank · w + rest: counted up from the
                // chunk's first, one division per chunk.
                let first = ((c << 12) * per_word) as u64;
                let (mut rest, mut blank) = (first / n, first % n);
                for (j, word) in chunk.iter_mut().enumerate() {
                    for k in 0..per_word {
                        let t = first + (j * per_word + k) as u64;
                        if t >= arrangements {
                            break;
                        }
                        let a = (blank * w + rest) as usize;
                        let code = encode(bytes[2 * a].into(), bytes[2 * a + 1].into());
                        *word |= u64::from(code) << (k as u32 * CODE_BITS);
                        blank += 1;
                        if blank == n {
                            blank = 0;
                            rest += 1;
                        }
                    }
                }
            });
        drop(bytes);
        let table = PackedTable::from_words(CODE_BITS, arrangements, words)
            .ok_or_else(|| Error::Internal("label table size".into()))?;
        let goal = space.ranker.rank(&space.labels);
        Ok(LabelTable {
            shape,
            blank_goal,
            layout,
            space,
            goal,
            table,
            histogram,
        })
    }

    /// A table read back from its parts (a cached file).
    pub fn from_parts(
        shape: Shape,
        blank_goal: usize,
        layout: Layout,
        table: PackedTable,
        histogram: Vec<u64>,
    ) -> Result<LabelTable> {
        let space = LabelSpace::new(shape, blank_goal, layout)?;
        if table.len() != space.ranker.size() || table.bits() != CODE_BITS {
            return Err(Error::Internal("a label table of the wrong length".into()));
        }
        let goal = space.ranker.rank(&space.labels);
        Ok(LabelTable {
            shape,
            blank_goal,
            layout,
            space,
            goal,
            table,
            histogram,
        })
    }

    /// The number of arrangements (entries of [`LabelTable::packed`]); ranks of [`LabelTable::ranker`].
    pub fn arrangements(&self) -> u64 {
        self.table.len()
    }

    /// The ranker of the arrangements (cell `i` holds label `cells[i]`, the blank label 0).
    pub fn ranker(&self) -> &MultisetRanker {
        &self.space.ranker
    }

    /// Each cell's label on the goal board.
    pub fn labels(&self) -> &[u8] {
        &self.space.labels
    }

    /// The code of an arrangement ([`encode`]): a nibble, never across words.
    #[inline(always)]
    fn code(&self, arrangement: u64) -> u32 {
        const PER_WORD: u64 = (64 / CODE_BITS) as u64;
        let word = self.table.words()[(arrangement / PER_WORD) as usize];
        ((word >> ((arrangement % PER_WORD) as u32 * CODE_BITS)) & ((1 << CODE_BITS) - 1)) as u32
    }

    /// The least number of pushes from `arrangement` to the goal's, found by walking down: from each arrangement,
    /// to a neighbour whose residue is one less (so its distance is), until the goal's. An error if the table
    /// leads nowhere (damaged).
    pub fn distance(&self, arrangement: u64) -> Result<u32> {
        let damaged = || Error::Internal(format!("the {} MTM label table is damaged", self.shape));
        if arrangement >= self.arrangements() {
            return Err(damaged());
        }
        let mut scratch = self.space.scratch();
        let mut at = arrangement;
        let mut steps = 0u32;
        while at != self.goal {
            // Distances fit in a byte (the build checks), so a longer walk means a damaged table.
            if steps > u32::from(u8::MAX) {
                return Err(damaged());
            }
            let want = (self.code(at) + 2) % 3;
            let mut down = None;
            // The pushes of both axes: the expansions of the arrangement's two states (rank = 2 · arrangement +
            // axis, in the search's order), each listing the arrangements one push away along one axis.
            let a = self.space.scan_rank(at);
            for state in [2 * a, 2 * a + 1] {
                self.space.expand(state, &mut scratch, &mut |r, _| {
                    let t = self.space.table_rank(r / 2);
                    if down.is_none() && self.code(t) % 3 == want {
                        down = Some(t);
                    }
                });
            }
            at = down.ok_or_else(damaged)?;
            steps += 1;
        }
        Ok(steps)
    }

    /// The least number of pushes of an alternating path from `arrangement` to the goal's that starts along
    /// `axis` (0 vertical, 1 horizontal), the excess over [`LabelTable::distance`] capped at [`MAX_EXCESS`].
    pub fn estimate(&self, arrangement: u64, axis: usize) -> Result<u32> {
        Ok(self.distance(arrangement)? + excess(self.code(arrangement), axis))
    }

    /// The layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The goal's blank cell.
    pub fn blank_goal(&self) -> usize {
        self.blank_goal
    }

    /// The packed entries.
    pub fn packed(&self) -> &PackedTable {
        &self.table
    }

    /// Entries at each distance.
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }
}

/// The two label tables a search in MTM reads for one shape and goal blank cell: the board's, and the transposed
/// shape's for the transposed board (the same table when the shape is square and the goal's blank on the diagonal).
pub struct MtmTables<'a> {
    /// The shape's table.
    pub rows: &'a LabelTable,
    /// The transposed shape's table.
    pub cols: &'a LabelTable,
    /// A second layout's tables (the shape's, the transposed shape's), read the same way; the search takes the
    /// largest of the four readings.
    pub second: Option<(&'a LabelTable, &'a LabelTable)>,
}

/// The bytes [`LabelTable::build`] needs at its peak for `shape`: a byte per state throughout, with two bits per
/// state while searching and then, in their place, the table (four bits per arrangement, two states each; 0.63 GB
/// for 4 × 4).
pub fn label_build_bytes(shape: Shape, blank_goal: usize, layout: Layout) -> u64 {
    label_space_size(shape, blank_goal, layout).map_or(u64::MAX, |n| n + n / 4 + (64 << 20))
}

/// The label tables a search loads for one goal: [`MtmTables`] with owned tables.
#[derive(Debug, Clone)]
pub struct LabelTables {
    /// The shape's table of the first layout.
    pub rows: std::sync::Arc<LabelTable>,
    /// The transposed shape's table of the first layout.
    pub cols: std::sync::Arc<LabelTable>,
    /// The second layout's, when the search reads one.
    pub second: Option<(std::sync::Arc<LabelTable>, std::sync::Arc<LabelTable>)>,
}

impl LabelTables {
    /// The tables as the search reads them.
    pub fn view(&self) -> MtmTables<'_> {
        MtmTables {
            rows: &self.rows,
            cols: &self.cols,
            second: self.second.as_ref().map(|(a, b)| (&**a, &**b)),
        }
    }

    /// Bytes of the distinct tables.
    pub fn bytes(&self) -> usize {
        let mut all = vec![&self.rows, &self.cols];
        if let Some((a, b)) = &self.second {
            all.extend([a, b]);
        }
        all.sort_by_key(|t| std::sync::Arc::as_ptr(t));
        all.dedup_by_key(|t| std::sync::Arc::as_ptr(t));
        all.iter().map(|t| t.packed().bytes()).sum()
    }
}

/// Which axis the next push must take (alternation).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    Any,
    Vertical,
    Horizontal,
}

struct MtmIda<'a, 'l> {
    /// The tables read (as many as `reads`): the first layout's on the board and on the transposed board, then
    /// the second layout's likewise.
    tables: [&'a LabelTable; MAX_READINGS],
    reads: usize,
    /// The push-pruning machine of the shape.
    pruner: &'a PushPruner,
    rows: usize,
    cols: usize,
    n: usize,
    /// The board: tile numbers, 0 the blank.
    tiles: [u8; 32],
    goal: [u8; 32],
    blank: usize,
    /// Each cell's index on the transposed board.
    transposed: [u8; 32],
    /// [`line_segments`] of the shape and of the transposed shape.
    segments: Vec<u32>,
    transposed_segments: Vec<u32>,
    /// The cells of each label of the first table, and of the second on the transposed board (kept up to date
    /// by [`MtmIda::slide`]).
    masks: Masks,
    /// The blank's cells after each push.
    path: Vec<u8>,
    nodes: u64,
    next_check: u64,
    limits: &'l Limits<'l>,
    stopped: bool,
    next_bound: u32,
}

/// The cells of each label, per reading: readings 0 and 2 on the board, 1 and 3 on the transposed board.
type Masks = [[u32; LABELS]; MAX_READINGS];

/// Most label-table readings a search maximises over: two layouts, each on the board and on the transposed board.
const MAX_READINGS: usize = 4;

/// The number of labels, the blank's included ([`goal_labels`]).
const LABELS: usize = 5;

/// A push the search may make from a node: the blank's new cell, the axis that must follow, and the ranks of the
/// arrangements it leads to in each reading.
#[derive(Clone, Copy)]
struct Child {
    to: u8,
    next: Next,
    /// The push-pruning machine's state after the push.
    state: u16,
    ranks: [u64; MAX_READINGS],
}

/// The distance of the current arrangement in each reading ([`LabelTable::distance`]).
type Distances = [u8; MAX_READINGS];

const CHECK_EVERY: u64 = 1 << 14;

impl MtmIda<'_, '_> {
    /// The rank of the arrangement of the label masks `m` in each reading. `PEXT`: ranked by
    /// [`MultisetRanker::rank_masks_pext`] (only in [`MtmIda::dfs_bmi2`]).
    #[inline(always)]
    fn ranks<const PEXT: bool>(&self, m: &Masks) -> [u64; MAX_READINGS] {
        self.ranks_of::<PEXT>(m, self.reads)
    }

    /// [`MtmIda::ranks`] of the first `reads` readings (a constant in the search's inner loop).
    #[inline(always)]
    fn ranks_of<const PEXT: bool>(&self, m: &Masks, reads: usize) -> [u64; MAX_READINGS] {
        let mut out = [0u64; MAX_READINGS];
        for (i, r) in out.iter_mut().enumerate().take(reads) {
            let ranker = &self.tables[i].space.ranker;
            #[cfg(target_arch = "x86_64")]
            {
                *r = if PEXT {
                    // SAFETY: `PEXT` is true only below `dfs_bmi2`, which `search` enters only when every ranker
                    // is `pext_ready`.
                    unsafe { ranker.rank_masks_pext(&m[i]) }
                } else {
                    ranker.rank_masks(&m[i])
                };
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                *r = ranker.rank_masks(&m[i]);
            }
        }
        out
    }

    /// The axis of reading `i`'s table when the board's next push is along `next` (not [`Next::Any`]): 0 for
    /// vertical; the odd readings are the transposed board's, whose vertical is our horizontal.
    #[inline(always)]
    fn axis(next: Next, i: usize) -> usize {
        usize::from(next != Next::Vertical) ^ (i & 1)
    }

    /// Reads the arrangements `ranks` of a neighbour of the current board, whose distances are `parent`: the
    /// neighbour's estimate when its next push is along `next` (the largest reading), and its distances.
    #[inline(always)]
    fn read(
        &self,
        ranks: &[u64; MAX_READINGS],
        parent: &Distances,
        next: Next,
    ) -> (u32, Distances) {
        self.read_of(ranks, parent, next, self.reads)
    }

    /// [`MtmIda::read`] of the first `reads` readings.
    #[inline(always)]
    fn read_of(
        &self,
        ranks: &[u64; MAX_READINGS],
        parent: &Distances,
        next: Next,
        reads: usize,
    ) -> (u32, Distances) {
        let mut e = 0;
        let mut ds = [0u8; MAX_READINGS];
        for i in 0..reads.min(MAX_READINGS) {
            let code = self.tables[i].code(ranks[i]);
            let d = neighbour_distance(u32::from(parent[i]), code);
            ds[i] = d as u8;
            e = e.max(d + excess(code, Self::axis(next, i)));
        }
        (e, ds)
    }

    /// The estimate of the board whose arrangements are `ranks` and distances `ds`, when its next push is along
    /// `next` (either axis for [`Next::Any`]: the smaller estimate).
    fn estimate_at(&self, ranks: &[u64; MAX_READINGS], ds: &Distances, next: Next) -> u32 {
        let along = |next: Next| {
            (0..self.reads)
                .map(|i| {
                    u32::from(ds[i]) + excess(self.tables[i].code(ranks[i]), Self::axis(next, i))
                })
                .max()
                .unwrap_or(0)
        };
        match next {
            Next::Any => along(Next::Vertical).min(along(Next::Horizontal)),
            next => along(next),
        }
    }

    /// The distances of the current board's arrangements in every reading, walked down in the tables (for the
    /// root: every other node has them from its parent).
    fn distances(&self) -> Result<Distances> {
        let ranks = self.ranks::<false>(&self.masks);
        let mut ds = [0u8; MAX_READINGS];
        for i in 0..self.reads {
            let d = self.tables[i].distance(ranks[i])?;
            ds[i] = u8::try_from(d).map_err(|_| Error::Internal("label distance".into()))?;
        }
        Ok(ds)
    }

    /// The estimate of the current board when the next push is along `next`, its distances walked down.
    #[cfg(test)]
    fn estimate(&self, next: Next) -> Result<u32> {
        let ds = self.distances()?;
        Ok(self.estimate_at(&self.ranks::<false>(&self.masks), &ds, next))
    }

    /// The label masks after a push of the blank from `from` to `to` (`step` apart along a line), the board
    /// left as it is.
    #[inline]
    fn pushed(&self, from: usize, to: usize, step: usize) -> Masks {
        self.pushed_of(from, to, step, self.reads)
    }

    /// [`MtmIda::pushed`] in the first `reads` readings.
    #[inline(always)]
    fn pushed_of(&self, from: usize, to: usize, step: usize, reads: usize) -> Masks {
        let n = self.n;
        let (tf, tt) = (self.transposed[from] as usize, self.transposed[to] as usize);
        let segment = self.segments[from * n + to];
        let transposed_segment = self.transposed_segments[tf * n + tt];
        // Along the transposed board, a row of ours is a column: its step is our number of rows, and a column's 1.
        let transposed_step = if step == 1 { self.rows } else { 1 };
        let shift = |x: u32, seg: u32, step: usize| {
            let moving = x & seg;
            (x & !seg)
                | if to > from {
                    moving >> step
                } else {
                    moving << step
                }
        };
        let mut out = self.masks;
        for (i, m) in out.iter_mut().enumerate().take(reads) {
            let (seg, st, blank) = if i & 1 == 0 {
                (segment, step, to)
            } else {
                (transposed_segment, transposed_step, tt)
            };
            for x in m[1..].iter_mut() {
                *x = shift(*x, seg, st);
            }
            m[0] = 1 << blank;
        }
        out
    }

    /// Pushes: the blank moves from `from` to `to` (`step` apart along a line), the tiles between shift one cell
    /// toward `from`, and the label masks become `masks` (those [`MtmIda::pushed`] gave).
    #[inline]
    fn slide(&mut self, from: usize, to: usize, step: usize, masks: Masks) {
        let mut i = from;
        while i != to {
            let j = if to > from { i + step } else { i - step };
            self.tiles[i] = self.tiles[j];
            i = j;
        }
        self.tiles[to] = 0;
        self.masks = masks;
        self.blank = to;
    }

    fn limit_reached(&mut self) -> bool {
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            let l = self.limits;
            if l.cancel
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
                || l.deadline.is_some_and(|d| std::time::Instant::now() >= d)
            {
                self.stopped = true;
            }
        }
        if self.limits.max_nodes.is_some_and(|m| self.nodes >= m) {
            self.stopped = true;
        }
        self.stopped
    }

    /// The push of the blank from `from` to `to` (`step` apart), after which the next push goes along `then`, from
    /// the push-pruning machine's state `state`: `None` when the machine rejects it; else its arrangements ranked
    /// and their table entries prefetched.
    #[inline(always)]
    fn child<const PEXT: bool, const R: usize>(
        &self,
        from: usize,
        to: usize,
        step: usize,
        then: Next,
        state: u16,
    ) -> Option<Child> {
        let state = self.pruner.step(state, to);
        if state == DEAD {
            return None;
        }
        self.pruner.prefetch(state);
        let masks = self.pushed_of(from, to, step, R);
        let ranks = self.ranks_of::<PEXT>(&masks, R);
        for (t, &rank) in self.tables.iter().zip(&ranks).take(R) {
            t.table.prefetch(rank);
        }
        Some(Child {
            to: to as u8,
            next: then,
            state,
            ranks,
        })
    }

    /// Depth-first search below the current board, `g` pushes made, `e` its estimate; true when the goal was
    /// reached (the path then holds the solution).
    ///
    /// The children are estimated here, before any is entered: their ranks first, with a prefetch of each table
    /// entry, then the reads, which then overlap in memory instead of waiting one after another (three random
    /// reads per child in 252 MB of tables on 4 × 4 otherwise dominate the time). A child over the bound is never
    /// entered.
    ///
    /// The body of [`MtmIda::dfs_plain`] and [`MtmIda::dfs_bmi2`] (`PEXT`), which differ in how they rank.
    #[inline(always)]
    fn dfs<const PEXT: bool, const R: usize>(
        &mut self,
        g: u32,
        bound: u32,
        next: Next,
        e: u32,
        state: u16,
        ds: Distances,
    ) -> bool {
        if e == 0 && self.tiles[..self.n] == self.goal[..self.n] {
            return true;
        }
        if self.limit_reached() {
            return false;
        }
        let blank = self.blank;
        let (br, bc) = (blank / self.cols, blank % self.cols);
        // Not zeroed first: a node writes only the few children it has (3 on 4 × 4), of room for the most.
        let mut children = [const { std::mem::MaybeUninit::<Child>::uninit() }; MAX_CHILDREN];
        let mut k = 0;
        // A method rather than a closure, so that it is compiled inside `dfs_bmi2` with its processor features (the
        // `PEXT` ranking then inlines).
        if next != Next::Horizontal {
            for row in (0..self.rows).filter(|&r| r != br) {
                let to = row * self.cols + bc;
                if let Some(c) =
                    self.child::<PEXT, R>(blank, to, self.cols, Next::Horizontal, state)
                {
                    children[k].write(c);
                    k += 1;
                }
            }
        }
        if next != Next::Vertical {
            for col in (0..self.cols).filter(|&c| c != bc) {
                let to = br * self.cols + col;
                if let Some(c) = self.child::<PEXT, R>(blank, to, 1, Next::Vertical, state) {
                    children[k].write(c);
                    k += 1;
                }
            }
        }
        for child in &children[..k] {
            // SAFETY: the first `k` children were written above.
            let child = unsafe { child.assume_init_ref() };
            self.nodes += 1;
            let (e, child_ds) = self.read_of(&child.ranks, &ds, child.next, R);
            let f = g + 1 + e;
            if f > bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            let to = child.to as usize;
            let step = if child.next == Next::Horizontal {
                self.cols
            } else {
                1
            };
            let masks = self.masks;
            self.slide(blank, to, step, self.pushed_of(blank, to, step, R));
            self.path.push(child.to);
            if self.dfs_child::<PEXT, R>(g + 1, bound, child.next, e, child.state, child_ds) {
                return true;
            }
            self.path.pop();
            self.slide(to, blank, step, masks);
            if self.stopped {
                return false;
            }
        }
        false
    }
}

impl MtmIda<'_, '_> {
    /// The recursive call of [`MtmIda::dfs`]: back into the variant the search runs.
    #[inline(always)]
    fn dfs_child<const PEXT: bool, const R: usize>(
        &mut self,
        g: u32,
        bound: u32,
        next: Next,
        e: u32,
        state: u16,
        ds: Distances,
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        if PEXT {
            // SAFETY: `PEXT` is true only below `dfs_bmi2`, entered only when the processor has BMI2.
            return unsafe { self.dfs_bmi2::<R>(g, bound, next, e, state, ds) };
        }
        self.dfs_plain::<R>(g, bound, next, e, state, ds)
    }

    /// [`MtmIda::dfs`] for any processor.
    fn dfs_plain<const R: usize>(
        &mut self,
        g: u32,
        bound: u32,
        next: Next,
        e: u32,
        state: u16,
        ds: Distances,
    ) -> bool {
        self.dfs::<false, R>(g, bound, next, e, state, ds)
    }

    /// [`MtmIda::dfs`] compiled for BMI2 and ranking by `PEXT`.
    ///
    /// # Safety
    ///
    /// The processor must support BMI2, and both tables' rankers be `pext_ready`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    unsafe fn dfs_bmi2<const R: usize>(
        &mut self,
        g: u32,
        bound: u32,
        next: Next,
        e: u32,
        state: u16,
        ds: Distances,
    ) -> bool {
        self.dfs::<true, R>(g, bound, next, e, state, ds)
    }

    /// The search below the current board (the root: any axis first, its distances `ds`) at `bound`.
    fn root(&mut self, bound: u32, e: u32, ds: Distances) -> bool {
        let state = self.pruner.start(self.blank);
        #[cfg(target_arch = "x86_64")]
        if self.tables[..self.reads]
            .iter()
            .all(|t| t.space.ranker.pext_ready())
        {
            // SAFETY: every ranker is `pext_ready`, which checked that the processor has BMI2.
            return unsafe {
                match self.reads {
                    2 => self.dfs_bmi2::<2>(0, bound, Next::Any, e, state, ds),
                    3 => self.dfs_bmi2::<3>(0, bound, Next::Any, e, state, ds),
                    _ => self.dfs_bmi2::<MAX_READINGS>(0, bound, Next::Any, e, state, ds),
                }
            };
        }
        match self.reads {
            2 => self.dfs_plain::<2>(0, bound, Next::Any, e, state, ds),
            3 => self.dfs_plain::<3>(0, bound, Next::Any, e, state, ds),
            _ => self.dfs_plain::<MAX_READINGS>(0, bound, Next::Any, e, state, ds),
        }
    }
}

/// The most pushes from one board: `rows - 1 + cols - 1`, at most 16 with at most 32 cells in at least two rows
/// and two columns ([`search`] checks).
const MAX_CHILDREN: usize = 16;

impl<'a, 'l> MtmIda<'a, 'l> {
    /// The search state of `board` toward `goal` with `pruner` (the shape's), after checking that the tables are
    /// `goal`'s.
    fn new(
        board: &Board,
        goal: &Board,
        tables: &'a MtmTables<'a>,
        pruner: &'a PushPruner,
        limits: &'l Limits<'l>,
    ) -> Result<MtmIda<'a, 'l>> {
        let shape = board.shape();
        let (rows, cols) = (shape.rows(), shape.cols());
        let n = shape.cells();
        let blank_goal = goal.blank();
        let t = tables;
        let transposed_blank = (blank_goal % cols) * rows + blank_goal / cols;
        let layouts = [Some((t.rows, t.cols)), t.second];
        let fits = |(a, b): (&LabelTable, &LabelTable)| {
            a.shape == shape
                && a.blank_goal == blank_goal
                && b.shape == shape.transposed()
                && b.blank_goal == transposed_blank
                && a.layout == b.layout
        };
        if n > 32 || rows + cols - 2 > MAX_CHILDREN || !layouts.iter().flatten().all(|&l| fits(l)) {
            return Err(Error::Internal(
                "MTM search: tables of another shape or goal".into(),
            ));
        }
        let (second_rows, second_cols) = t.second.unwrap_or((t.rows, t.cols));
        let mut ida = MtmIda {
            tables: [t.rows, t.cols, second_rows, second_cols],
            // A layout that the transposition maps to itself (the quadrants of a square board whose goal blank is on
            // the diagonal) reads the same on the transposed board: its second reading is skipped.
            reads: match t.second {
                None => 2,
                Some((a, b)) if std::ptr::eq(a, b) && a.layout == Layout::Quadrants => 3,
                Some(_) => 4,
            },
            pruner,
            rows,
            cols,
            n,
            tiles: [0; 32],
            goal: [0; 32],
            blank: board.blank(),
            masks: [[0; LABELS]; MAX_READINGS],
            transposed: [0; 32],
            segments: line_segments(shape),
            transposed_segments: line_segments(shape.transposed()),
            path: Vec::new(),
            nodes: 0,
            next_check: CHECK_EVERY,
            limits,
            stopped: false,
            next_bound: u32::MAX,
        };
        for c in 0..n {
            ida.transposed[c] = ((c % cols) * rows + c / cols) as u8;
        }
        // Each tile's label in each reading: its goal cell's (on the transposed board, its transposed goal cell's).
        let mut label = [[0u8; 33]; MAX_READINGS];
        for (c, &tile) in goal.tiles().iter().enumerate() {
            ida.goal[c] = tile as u8;
            for (i, l) in label.iter_mut().enumerate() {
                let cell = if i & 1 == 0 {
                    c
                } else {
                    ida.transposed[c] as usize
                };
                l[tile as usize] = ida.tables[i].space.labels[cell];
            }
        }
        for (c, &tile) in board.tiles().iter().enumerate() {
            ida.tiles[c] = tile as u8;
            for (i, m) in ida.masks.iter_mut().enumerate() {
                let cell = if i & 1 == 0 {
                    c
                } else {
                    ida.transposed[c] as usize
                };
                m[label[i][tile as usize] as usize] |= 1 << cell;
            }
        }
        Ok(ida)
    }
}

/// Solves `board` toward `goal` optimally in MTM by IDA* with the label tables of `goal`'s shape and blank cell
/// (`tables.rows` for the shape, `tables.cols` for the transposed shape and transposed blank cell). The solution's
/// moves are the tiles moved, one per single-tile step (a push of k tiles is k of them); its MTM length is the
/// number of pushes. The caller has checked that `goal` is reachable.
pub fn search(
    board: &Board,
    goal: &Board,
    tables: &MtmTables<'_>,
    limits: &Limits<'_>,
) -> Result<Outcome> {
    let pruner = PushPruner::for_shape(board.shape());
    let mut ida = MtmIda::new(board, goal, tables, &pruner, limits)?;
    let ds = ida.distances()?;
    let start = ida.estimate_at(&ida.ranks::<false>(&ida.masks), &ds, Next::Any);
    let mut bound = start;
    loop {
        if limits.max_depth.is_some_and(|d| bound > d) {
            return Ok(Outcome::Stopped {
                lower_bound: bound,
                nodes: ida.nodes,
                estimate: start,
            });
        }
        ida.next_bound = u32::MAX;
        if ida.root(bound, start, ds) {
            return Ok(Outcome::Solved {
                moves: tiles_of_pushes(board, &ida.path),
                nodes: ida.nodes,
                estimate: start,
            });
        }
        if ida.stopped {
            return Ok(Outcome::Stopped {
                lower_bound: bound,
                nodes: ida.nodes,
                estimate: start,
            });
        }
        if ida.next_bound == u32::MAX {
            return Err(Error::Internal(
                "MTM search: the goal was not reached".into(),
            ));
        }
        bound = ida.next_bound;
    }
}

impl MtmIda<'_, '_> {
    /// [`MtmIda::dfs`] that counts every alternating sequence of exactly `bound` pushes that ends on the goal
    /// (without the push-pruning machine, which drops sequences equal to others, and without prefetching: counts
    /// are asked for one board at a time).
    #[allow(clippy::too_many_arguments)]
    fn count_dfs(
        &mut self,
        board: &Board,
        g: u32,
        bound: u32,
        next: Next,
        ds: Distances,
        tally: &mut Tally,
    ) {
        let e = self.estimate_at(&self.ranks::<false>(&self.masks), &ds, next);
        if g + e > bound {
            return;
        }
        if g == bound {
            if e == 0 && self.tiles[..self.n] == self.goal[..self.n] {
                tally.found(|| tiles_of_pushes(board, &self.path));
            }
            return;
        }
        if self.limit_reached() {
            return;
        }
        let blank = self.blank;
        let (br, bc) = (blank / self.cols, blank % self.cols);
        let mut moves = [(0usize, 0usize, Next::Any); MAX_CHILDREN];
        let mut k = 0;
        if next != Next::Horizontal {
            for row in (0..self.rows).filter(|&r| r != br) {
                moves[k] = (row * self.cols + bc, self.cols, Next::Horizontal);
                k += 1;
            }
        }
        if next != Next::Vertical {
            for col in (0..self.cols).filter(|&c| c != bc) {
                moves[k] = (br * self.cols + col, 1, Next::Vertical);
                k += 1;
            }
        }
        for &(to, step, after) in &moves[..k] {
            self.nodes += 1;
            let masks = self.masks;
            let pushed = self.pushed(blank, to, step);
            let (_, child_ds) = self.read(&self.ranks::<false>(&pushed), &ds, after);
            self.slide(blank, to, step, pushed);
            self.path.push(to as u8);
            self.count_dfs(board, g + 1, bound, after, child_ds, tally);
            self.path.pop();
            self.slide(to, blank, step, masks);
            if self.stopped || tally.done {
                return;
            }
        }
    }
}

/// Counts the MTM-shortest solutions of `board` (at `bound` pushes, its MTM distance) with one complete IDA*
/// iteration over alternating pushes, keeping the first `keep` (as single-tile moves: the tiles, in the search's
/// order). Complete: a shortest sequence never makes two pushes in a row along one axis (they would equal one push
/// or none), and every sequence of pushes is one sequence of single-tile moves whose maximal runs are its pushes,
/// so distinct push sequences are distinct solutions. With `stop_when_kept` the iteration ends once it has `keep`;
/// a limit that stops it leaves `stopped` set and the count so far.
pub fn count(
    board: &Board,
    goal: &Board,
    tables: &MtmTables<'_>,
    bound: u32,
    limits: &Limits<'_>,
    keep: usize,
    stop_when_kept: bool,
) -> Result<Counted> {
    let pruner = PushPruner::for_shape(board.shape());
    let mut ida = MtmIda::new(board, goal, tables, &pruner, limits)?;
    let mut tally = Tally::new(keep, stop_when_kept);
    if !tally.done {
        let ds = ida.distances()?;
        ida.count_dfs(board, 0, bound, Next::Any, ds, &mut tally);
    }
    Ok(Counted {
        count: tally.count,
        paths: tally.paths,
        nodes: ida.nodes,
        stopped: ida.stopped,
    })
}

/// The tiles moved by a sequence of pushes (the blank's cell after each), one per single-tile step.
fn tiles_of_pushes(board: &Board, path: &[u8]) -> Vec<u8> {
    let cols = board.shape().cols();
    let mut tiles: Vec<u8> = board.tiles().iter().map(|&t| t as u8).collect();
    let mut blank = board.blank();
    let mut out = Vec::new();
    for &to in path {
        let to = to as usize;
        let step = if to / cols == blank / cols { 1 } else { cols };
        while blank != to {
            let next = if to > blank {
                blank + step
            } else {
                blank - step
            };
            out.push(tiles[next]);
            tiles.swap(blank, next);
            blank = next;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quadrants_read_alike_on_the_transposed_board() {
        // The search skips the quadrant table's reading on the transposed board of a square shape whose goal blank
        // is on the diagonal; here it is taken too (four reads) and must never tell more, on every 3 × 3 board.
        let shape = Shape::new(3, 3).unwrap();
        let rows = LabelTable::build(shape, 8, Layout::Rows, &crate::progress::NoProgress).unwrap();
        let quadrants =
            LabelTable::build(shape, 8, Layout::Quadrants, &crate::progress::NoProgress).unwrap();
        let tables = MtmTables {
            rows: &rows,
            cols: &rows,
            second: Some((&quadrants, &quadrants)),
        };
        let goal = Board::goal(shape);
        let pruner = PushPruner::for_shape(shape);
        let limits = Limits::default();
        let mut tiles: Vec<u8> = (0..9).collect();
        let mut checked = 0;
        let mut differ = 0;
        for i in 0..362_880u32 {
            // Every permutation by its factorial digits; the unsolvable half is skipped.
            let mut pool: Vec<u8> = (0..9).collect();
            let mut x = i;
            for (k, t) in tiles.iter_mut().enumerate() {
                let f = (1..(9 - k) as u32).product::<u32>();
                *t = pool.remove((x / f) as usize);
                x %= f;
            }
            let board = Board::new(shape, tiles.iter().map(|&t| t.into()).collect()).unwrap();
            if !board.is_solvable(&goal).unwrap() {
                continue;
            }
            let mut ida = MtmIda::new(&board, &goal, &tables, &pruner, &limits).unwrap();
            assert_eq!(ida.reads, 3);
            for next in [Next::Vertical, Next::Horizontal] {
                let three = ida.estimate(next).unwrap();
                ida.reads = 4;
                let four = ida.estimate(next).unwrap();
                ida.reads = 3;
                assert_eq!(three, four, "{board}");
                let only_rows = {
                    ida.reads = 2;
                    let e = ida.estimate(next).unwrap();
                    ida.reads = 3;
                    e
                };
                differ += usize::from(only_rows != three);
            }
            checked += 1;
        }
        assert_eq!(checked, 181_440);
        // The quadrants tell something the rows do not (else the test would check nothing).
        assert!(differ > 1000, "{differ}");
    }

    #[test]
    fn label_tables_hold_the_alternating_distances() {
        // A plain breadth-first search written here, over (label arrangement, axis of the first push) as cell
        // vectors: every arrangement's distance walked down in the table, and each axis's estimate (the excess
        // capped), on every arrangement of these shapes and layouts.
        use std::collections::{HashMap, VecDeque};
        let mut capped = 0;
        for (rows, cols, blank) in [(3, 3, 8), (2, 4, 7), (4, 2, 7), (3, 3, 4), (2, 5, 9)] {
            let shape = Shape::new(rows, cols).unwrap();
            for layout in [Layout::HalvesAlt, Layout::Rows, Layout::Quadrants] {
                let table =
                    LabelTable::build(shape, blank, layout, &crate::progress::NoProgress).unwrap();
                let goal = goal_labels(shape, blank, layout);
                // The arrangements reached from `x` by one push along `axis` (0 vertical).
                let pushes = |x: &Vec<u8>, axis: usize| -> Vec<Vec<u8>> {
                    let b = x.iter().position(|&l| l == 0).unwrap();
                    let (br, bc) = (b / cols, b % cols);
                    let targets: Vec<usize> = if axis == 0 {
                        (0..rows)
                            .filter(|&r| r != br)
                            .map(|r| r * cols + bc)
                            .collect()
                    } else {
                        (0..cols)
                            .filter(|&c| c != bc)
                            .map(|c| br * cols + c)
                            .collect()
                    };
                    targets
                        .into_iter()
                        .map(|t| {
                            // Slide the tiles between one by one toward the blank.
                            let mut y = x.clone();
                            let mut at = b;
                            while at != t {
                                let next = match (axis, t > at) {
                                    (0, true) => at + cols,
                                    (0, false) => at - cols,
                                    (_, true) => at + 1,
                                    (_, false) => at - 1,
                                };
                                y.swap(at, next);
                                at = next;
                            }
                            y
                        })
                        .collect()
                };
                let mut dist: HashMap<(Vec<u8>, usize), u32> = HashMap::new();
                let mut queue = VecDeque::new();
                for axis in 0..2 {
                    dist.insert((goal.clone(), axis), 0);
                    queue.push_back((goal.clone(), axis));
                }
                // (x, a) reaches (y, 1 - a) by one push along a; pushes are reversible, so the states one step
                // before (y, b) are (x, 1 - b) for x one push from y along 1 - b.
                while let Some((y, b)) = queue.pop_front() {
                    let d = dist[&(y.clone(), b)];
                    for x in pushes(&y, 1 - b) {
                        if let std::collections::hash_map::Entry::Vacant(v) =
                            dist.entry((x.clone(), 1 - b))
                        {
                            v.insert(d + 1);
                            queue.push_back((x, 1 - b));
                        }
                    }
                }
                assert_eq!(
                    dist.len() as u64,
                    2 * table.arrangements(),
                    "{shape} {layout:?}"
                );
                for ((x, axis), &d) in &dist {
                    if *axis == 1 {
                        continue;
                    }
                    let other = dist[&(x.clone(), 1)];
                    let least = d.min(other);
                    let r = table.ranker().rank(x);
                    assert_eq!(
                        table.distance(r).unwrap(),
                        least,
                        "{shape} {layout:?} {x:?}"
                    );
                    for (a, exact) in [(0, d), (1, other)] {
                        let want = least + (exact - least).min(MAX_EXCESS);
                        assert_eq!(
                            table.estimate(r, a).unwrap(),
                            want,
                            "{shape} {layout:?} {x:?} {a}"
                        );
                        capped += usize::from(exact - least > MAX_EXCESS);
                    }
                }
            }
        }
        // Some excesses are larger than the table keeps (else the cap would go untested).
        assert!(capped > 0);
    }

    #[test]
    fn mask_expansion_lists_the_cell_expansion() {
        // The BMI2 path (masks, PDEP, PEXT, segments) against the plain one (cells, unrank, rank): the same
        // neighbours in the same order for every state of 3 × 3, 2 × 4 and 3 × 4 and a stride of 4 × 4's.
        for (shape, blank, stride) in [
            (Shape::new(3, 3).unwrap(), 8, 1),
            (Shape::new(2, 4).unwrap(), 7, 1),
            (Shape::new(3, 4).unwrap(), 11, 1),
            (Shape::new(4, 4).unwrap(), 15, 9973),
        ] {
            let fast = LabelSpace::new(shape, blank, Layout::HalvesAlt).unwrap();
            if !fast.bmi2 {
                return;
            }
            let mut plain = LabelSpace::new(shape, blank, Layout::HalvesAlt).unwrap();
            plain.bmi2 = false;
            let (mut s1, mut s2) = (fast.scratch(), plain.scratch());
            let mut rank = 0;
            while rank < fast.size() {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                fast.expand(rank, &mut s1, &mut |r, c| a.push((r, c)));
                plain.expand(rank, &mut s2, &mut |r, c| b.push((r, c)));
                assert_eq!(a, b, "{shape} rank {rank}");
                rank += if rank % 2 == 0 { 1 } else { 2 * stride - 1 };
            }
        }
    }

    #[test]
    fn pushes_shift_the_line() {
        let mut cells = [0u8, 1, 2, 3];
        push(&mut cells, 0, 3, 1);
        assert_eq!(cells, [1, 2, 3, 0]);
        push(&mut cells, 3, 1, 1);
        assert_eq!(cells, [1, 0, 2, 3]);
    }
}
