//! Label tables: their encoding (4 bits per arrangement), building and reading, and the tables a search loads.

use super::space::LabelSpace;
use super::{label_space_size, Layout};
use crate::board::Shape;
use crate::error::{Error, Result, SolveError, StoreError};
use crate::exact::bfs::{bfs_compact, StateSpace};
use crate::exact::packed::PackedTable;
use crate::exact::rank::MultisetRanker;
use crate::progress::Progress;

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
pub(super) fn neighbour_distance(d: u32, code: u32) -> u32 {
    (d + u32::from(STEP[(d % 3) as usize][code as usize & 15])).saturating_sub(1)
}

/// The excess of `axis` (0 or 1) that `code` says.
#[inline(always)]
pub(super) fn excess(code: u32, axis: usize) -> u32 {
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
    pub(super) shape: Shape,
    pub(super) blank_goal: usize,
    pub(super) layout: Layout,
    /// The arrangements and their pushes (its ranker and goal labels serve the search too).
    pub(super) space: LabelSpace,
    /// The goal's arrangement.
    goal: u64,
    pub(super) table: PackedTable,
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
        let len = usize::try_from(space.size()).map_err(|_| {
            Error::Solve(SolveError::TooMuchMemory {
                what: label.clone(),
                needed: space.size(),
                limit: usize::MAX as u64,
            })
        })?;
        let mut bytes: Vec<u8> = crate::exact::packed::large_vec(len)?;
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
            crate::exact::packed::large_vec(PackedTable::words_for(CODE_BITS, arrangements))?;
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
    pub(super) fn code(&self, arrangement: u64) -> u32 {
        const PER_WORD: u64 = (64 / CODE_BITS) as u64;
        let word = self.table.words()[(arrangement / PER_WORD) as usize];
        ((word >> ((arrangement % PER_WORD) as u32 * CODE_BITS)) & ((1 << CODE_BITS) - 1)) as u32
    }

    /// The least number of pushes from `arrangement` to the goal's, found by walking down: from each arrangement,
    /// to a neighbour whose residue is one less (so its distance is), until the goal's. An error if the table
    /// leads nowhere (damaged).
    pub fn distance(&self, arrangement: u64) -> Result<u32> {
        let damaged = || {
            Error::Store(StoreError::Unusable(format!(
                "the {} MTM label table is damaged",
                self.shape
            )))
        };
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
