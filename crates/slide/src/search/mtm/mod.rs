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
//! estimate. Square boards read a second layout too, the quadrants ([`Layout::Quadrants`]), which the transposition
//! maps to themselves when the goal's blank is on the diagonal: their reading on the transposed board equals the
//! direct one (tested on every 3 × 3 board) and is skipped. So a 4 × 4 child costs three reads; other shapes read
//! the rows-then-halves layout ([`Layout::HalvesAlt`]) twice. [`layouts`] says which, and why (rows and quadrants
//! together take far fewer nodes than rows-then-halves alone).
//!
//! **Pruning.** Besides alternation, a push-pruning automaton learned on the shape ([`crate::search::push_pruning`])
//! rejects every push sequence that an earlier one of the same effect replaces.
//!
//! **Sizes**: a 4 × 4 table has 16!/(4!·4!·4!·3!) = 252,252,000 arrangements, 4 bits each ([`LabelTable`]: the
//! distance modulo 3 and the axes' excess; 126 MB on disk); 4 × 4 reads two (252 MB). The search behind them has two
//! states per arrangement (504,504,000 on 4 × 4). 3 × 5 needs 15,135,120 arrangements and 5 × 3 25,225,200. Boards
//! of two rows or columns fit too; 4 × 5 and larger do not ([`MAX_LABEL_ENTRIES`]).
//!
//! The files of this folder: this one holds the layouts; `space.rs` the label space and how it lists a state's
//! neighbours; `table.rs` the tables' encoding, their building and reading, and the tables a search loads; `ida.rs`
//! the search ([`search`]) and the count of optimal solutions ([`count`]).

use crate::board::Shape;
use crate::exact::rank::MultisetRanker;

mod ida;
mod space;
mod table;
#[cfg(test)]
mod tests;

pub use ida::{count, search};
pub use space::{LabelScratch, LabelSpace};
pub use table::{
    label_build_bytes, LabelTable, LabelTables, MtmTables, CODE_BITS, LABEL_ENCODING, MAX_EXCESS,
};

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

/// **The** list of the label tables an MTM search towards a goal of `shape` with the blank on `blank` reads, as
/// `(shape, goal blank cell, layout)`: the first layout on the board and on the transposed board (goal columns as
/// the transposed shape's rows), then the second layout likewise, if any. The planner checks them, the solver loads
/// them in this order, and the server's warm-up builds them from this list. On a square board with the blank on
/// the diagonal a pair names one table twice.
///
/// ```
/// use slide::engine::mtm::{label_tables_needed, Layout};
/// let shape = "4x4".parse().unwrap();
/// let t = label_tables_needed(shape, 15);
/// assert_eq!(t.len(), 4);
/// assert_eq!(t[0], (shape, 15, Layout::Rows));
/// ```
pub fn label_tables_needed(shape: Shape, blank: usize) -> Vec<(Shape, usize, Layout)> {
    let (r, c) = shape.coords(blank);
    let transposed = (shape.transposed(), c * shape.rows() + r);
    let (first, second) = layouts(shape);
    std::iter::once(first)
        .chain(second)
        .flat_map(|l| [(shape, blank, l), (transposed.0, transposed.1, l)])
        .collect()
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
