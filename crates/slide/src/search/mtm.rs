//! Optimal search in the multi-tile metric (MTM) above 12 cells: IDA* over pushes, guided by two label tables.
//!
//! **The heuristic.** Label every tile with its goal row and forget which tile it is: a *row-label arrangement* says,
//! for each cell, which goal row its tile belongs to (or that it is the blank). Under multi-tile moves, a horizontal
//! push leaves every tile in its row and a vertical push of k tiles moves each of them one row. The row table
//! ([`LabelTable`] over [`LabelSpace`]) holds, for every row-label arrangement, the least number of *vertical* pushes
//! that bring it to the goal's arrangement, horizontal pushes costing nothing (a 0-1 breadth-first search by the one
//! BFS engine). The column table does the same with goal columns, counting *horizontal* pushes: it is the row table
//! of the transposed board. Every push is vertical or horizontal, so
//!
//! `h = rows(board) + cols(board)` is admissible: a solution makes at least `rows` vertical pushes (the label
//! abstraction only relaxes the puzzle) and at least `cols` horizontal ones.
//!
//! **Alternation.** Two pushes in a row along one axis never help: they equal one push or none (the blank stays on
//! its line). So an optimal solution alternates vertical and horizontal pushes, and the search only generates
//! alternating sequences (on a 4 × 4 board: 3 pushes at each node after the first). Then a solution whose next push
//! is vertical has `V = H` or `V = H + 1` pushes of each kind, so its length is at least
//! `max(2·rows − 1, 2·cols)`; likewise for horizontal. The estimate is the largest of these bounds and the sum.
//!
//! **Sizes.** The 4 × 4 tables have 16!/(4!·4!·4!·3!) = 252,252,000 entries, 4 bits each (126 MB, one table for
//! both axes: the blank-last goal is symmetric under transposition); 3 × 5 needs 3,783,780 and 504,504,000.
//! [`label_space_size`] tells which shapes fit.

use crate::board::{Board, Shape};
use crate::error::{Error, Result};
use crate::exact::bfs::{bfs, StateSpace, UNSEEN};
use crate::exact::packed::PackedTable;
use crate::exact::rank::MultisetRanker;
use crate::progress::Progress;
use crate::search::ida::{Limits, Outcome};

/// The largest label table built (entries): 3 × 5's column table (504,504,000) fits, 4 × 5 (5.9·10¹⁰) does not.
pub const MAX_LABEL_ENTRIES: u64 = 600_000_000;

/// The number of row-label arrangements of `shape` (the row table's entries), `None` when it does not fit in a
/// `u64`.
pub fn label_space_size(shape: Shape, blank_goal: usize) -> Option<u64> {
    MultisetRanker::new(&label_counts(shape, blank_goal)).map(|r| r.size())
}

/// Label counts: label 0 is the blank, label `1 + r` the tiles of goal row `r`.
fn label_counts(shape: Shape, blank_goal: usize) -> Vec<u8> {
    let (rows, cols) = (shape.rows(), shape.cols());
    let blank_row = blank_goal / cols;
    let mut counts = vec![1u8];
    counts.extend((0..rows).map(|r| (cols - usize::from(r == blank_row)) as u8));
    counts
}

/// The row-label arrangements of a shape under multi-tile moves, vertical pushes costing 1 and horizontal ones 0.
pub struct LabelSpace {
    shape: Shape,
    blank_goal: usize,
    ranker: MultisetRanker,
}

impl LabelSpace {
    /// The space of `shape` whose goal has the blank on `blank_goal`; an error when it has more than
    /// [`MAX_LABEL_ENTRIES`] states.
    pub fn new(shape: Shape, blank_goal: usize) -> Result<LabelSpace> {
        let too_large = || Error::InvalidOption {
            option: "metric".into(),
            reason: format!(
                "MTM search on {shape} needs label tables larger than {MAX_LABEL_ENTRIES} entries \
                 (available: 4x4, 3x5 and 5x3 above 12 cells)"
            ),
        };
        let ranker = MultisetRanker::new(&label_counts(shape, blank_goal)).ok_or_else(too_large)?;
        if ranker.size() > MAX_LABEL_ENTRIES || shape.cells() > 32 || blank_goal >= shape.cells() {
            return Err(too_large());
        }
        Ok(LabelSpace {
            shape,
            blank_goal,
            ranker,
        })
    }

    /// The goal's arrangement.
    fn goal(&self) -> Vec<u8> {
        let cols = self.shape.cols();
        (0..self.shape.cells())
            .map(|c| {
                if c == self.blank_goal {
                    0
                } else {
                    1 + (c / cols) as u8
                }
            })
            .collect()
    }
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

impl StateSpace for LabelSpace {
    type Scratch = Vec<u8>;

    fn size(&self) -> u64 {
        self.ranker.size()
    }

    fn goals(&self) -> Vec<u64> {
        vec![self.ranker.rank(&self.goal())]
    }

    fn scratch(&self) -> Vec<u8> {
        vec![0; self.shape.cells()]
    }

    fn expand(&self, rank: u64, cells: &mut Vec<u8>, visit: &mut dyn FnMut(u64, u8)) {
        self.ranker.unrank(rank, cells);
        let cols = self.shape.cols();
        let blank = cells.iter().position(|&l| l == 0).unwrap_or(0);
        let (br, bc) = (blank / cols, blank % cols);
        let mut work = [0u8; 32];
        let n = cells.len();
        for c in 0..cols {
            if c != bc {
                work[..n].copy_from_slice(cells);
                push(&mut work[..n], blank, br * cols + c, 1);
                visit(self.ranker.rank(&work[..n]), 0);
            }
        }
        for r in 0..self.shape.rows() {
            if r != br {
                work[..n].copy_from_slice(cells);
                push(&mut work[..n], blank, r * cols + bc, cols);
                visit(self.ranker.rank(&work[..n]), 1);
            }
        }
    }
}

/// A label table: for every row-label arrangement of a shape, the least number of vertical pushes to the goal's
/// (horizontal pushes free), bit-packed.
#[derive(Debug)]
pub struct LabelTable {
    shape: Shape,
    blank_goal: usize,
    ranker: MultisetRanker,
    table: PackedTable,
    histogram: Vec<u64>,
}

impl LabelTable {
    /// Builds the table of `shape` with the goal's blank on `blank_goal` (one byte per entry while building).
    pub fn build(shape: Shape, blank_goal: usize, progress: &dyn Progress) -> Result<LabelTable> {
        let space = LabelSpace::new(shape, blank_goal)?;
        let label = format!("MTM label table {shape}");
        let d = bfs(&space, &label, progress, None)?;
        if d.bytes.contains(&UNSEEN) {
            return Err(Error::Internal(
                "a label arrangement was not reached".into(),
            ));
        }
        let bits = if d.max_distance() < 16 { 4 } else { 8 };
        let table = PackedTable::from_bytes(bits, &d.bytes, u32::from);
        Ok(LabelTable {
            shape,
            blank_goal,
            ranker: space.ranker,
            table,
            histogram: d.histogram,
        })
    }

    /// A table read back from its parts (a cached file).
    pub fn from_parts(
        shape: Shape,
        blank_goal: usize,
        table: PackedTable,
        histogram: Vec<u64>,
    ) -> Result<LabelTable> {
        let space = LabelSpace::new(shape, blank_goal)?;
        if table.len() != space.ranker.size() {
            return Err(Error::Internal("a label table of the wrong length".into()));
        }
        Ok(LabelTable {
            shape,
            blank_goal,
            ranker: space.ranker,
            table,
            histogram,
        })
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

    /// The entry of an arrangement given as one cell mask per label.
    #[inline]
    fn get_masks(&self, masks: &[u32]) -> u32 {
        self.table.get(self.ranker.rank_masks(masks))
    }
}

/// The pair of label tables a search in MTM needs for one shape and goal blank cell: rows (vertical pushes) and
/// columns (the row table of the transposed shape: horizontal pushes).
pub struct MtmTables<'a> {
    /// Goal rows: vertical pushes.
    pub rows: &'a LabelTable,
    /// Goal columns, on the transposed board: horizontal pushes.
    pub cols: &'a LabelTable,
}

/// The bytes [`LabelTable::build`] needs at its peak for `shape` (one byte per entry while building, then the
/// packed table).
pub fn label_build_bytes(shape: Shape, blank_goal: usize) -> u64 {
    label_space_size(shape, blank_goal).map_or(u64::MAX, |n| n + n / 2 + (64 << 20))
}

/// Which axis the next push must take (alternation).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    Any,
    Vertical,
    Horizontal,
}

/// The estimate from the two table entries and the axis of the next push (module docs).
#[inline]
fn estimate(rows: u32, cols: u32, next: Next) -> u32 {
    let alternation = match next {
        Next::Any => (2 * rows.max(cols)).saturating_sub(1),
        Next::Vertical => (2 * rows).saturating_sub(1).max(2 * cols),
        Next::Horizontal => (2 * cols).saturating_sub(1).max(2 * rows),
    };
    alternation.max(rows + cols)
}

struct MtmIda<'a, 'l> {
    tables: &'a MtmTables<'a>,
    rows: usize,
    cols: usize,
    n: usize,
    /// The board: tile numbers, 0 the blank.
    tiles: [u8; 32],
    goal: [u8; 32],
    blank: usize,
    /// Row label (1 + goal row) and column label (1 + goal column) of each tile; 0 for the blank.
    row_label: [u8; 33],
    col_label: [u8; 33],
    /// Each cell's index on the transposed board.
    transposed: [u8; 32],
    /// The blank's cells after each push.
    path: Vec<u8>,
    nodes: u64,
    next_check: u64,
    limits: &'l Limits<'l>,
    stopped: bool,
    next_bound: u32,
}

const CHECK_EVERY: u64 = 1 << 14;

impl MtmIda<'_, '_> {
    /// The two table entries of the current board.
    #[inline]
    fn entries(&self) -> (u32, u32) {
        let mut rm = [0u32; 32];
        let mut cm = [0u32; 32];
        for c in 0..self.n {
            let t = self.tiles[c] as usize;
            rm[self.row_label[t] as usize] |= 1 << c;
            cm[self.col_label[t] as usize] |= 1 << self.transposed[c];
        }
        (
            self.tables.rows.get_masks(&rm),
            self.tables.cols.get_masks(&cm),
        )
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

    /// Depth-first search below the current board, `g` pushes made; true when the goal was reached (the path then
    /// holds the solution).
    fn dfs(&mut self, g: u32, bound: u32, next: Next) -> bool {
        let (r, c) = self.entries();
        let f = g + estimate(r, c, next);
        if f > bound {
            self.next_bound = self.next_bound.min(f);
            return false;
        }
        if r == 0 && c == 0 && self.tiles[..self.n] == self.goal[..self.n] {
            return true;
        }
        if self.limit_reached() {
            return false;
        }
        let blank = self.blank;
        let (br, bc) = (blank / self.cols, blank % self.cols);
        if next != Next::Horizontal {
            for row in 0..self.rows {
                if row == br {
                    continue;
                }
                let to = row * self.cols + bc;
                self.nodes += 1;
                push(&mut self.tiles[..self.n], blank, to, self.cols);
                self.blank = to;
                self.path.push(to as u8);
                if self.dfs(g + 1, bound, Next::Horizontal) {
                    return true;
                }
                self.path.pop();
                push(&mut self.tiles[..self.n], to, blank, self.cols);
                self.blank = blank;
                if self.stopped {
                    return false;
                }
            }
        }
        if next != Next::Vertical {
            for col in 0..self.cols {
                if col == bc {
                    continue;
                }
                let to = br * self.cols + col;
                self.nodes += 1;
                push(&mut self.tiles[..self.n], blank, to, 1);
                self.blank = to;
                self.path.push(to as u8);
                if self.dfs(g + 1, bound, Next::Vertical) {
                    return true;
                }
                self.path.pop();
                push(&mut self.tiles[..self.n], to, blank, 1);
                self.blank = blank;
                if self.stopped {
                    return false;
                }
            }
        }
        false
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
    let shape = board.shape();
    let (rows, cols) = (shape.rows(), shape.cols());
    let n = shape.cells();
    let blank_goal = goal.blank();
    let t = tables;
    if n > 32
        || t.rows.shape != shape
        || t.rows.blank_goal != blank_goal
        || t.cols.shape != shape.transposed()
        || t.cols.blank_goal != (blank_goal % cols) * rows + blank_goal / cols
    {
        return Err(Error::Internal(
            "MTM search: tables of another shape or goal".into(),
        ));
    }
    let mut ida = MtmIda {
        tables,
        rows,
        cols,
        n,
        tiles: [0; 32],
        goal: [0; 32],
        blank: board.blank(),
        row_label: [0; 33],
        col_label: [0; 33],
        transposed: [0; 32],
        path: Vec::new(),
        nodes: 0,
        next_check: CHECK_EVERY,
        limits,
        stopped: false,
        next_bound: u32::MAX,
    };
    for (c, &tile) in goal.tiles().iter().enumerate() {
        ida.goal[c] = tile as u8;
        if tile != 0 {
            ida.row_label[tile as usize] = 1 + (c / cols) as u8;
            ida.col_label[tile as usize] = 1 + (c % cols) as u8;
        }
    }
    for (c, &tile) in board.tiles().iter().enumerate() {
        ida.tiles[c] = tile as u8;
        ida.transposed[c] = ((c % cols) * rows + c / cols) as u8;
    }
    let (r, c) = ida.entries();
    let start = estimate(r, c, Next::Any);
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
        if ida.dfs(0, bound, Next::Any) {
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
    fn estimates_follow_alternation() {
        assert_eq!(estimate(0, 0, Next::Any), 0);
        assert_eq!(estimate(3, 3, Next::Any), 6);
        assert_eq!(estimate(5, 1, Next::Any), 9);
        assert_eq!(estimate(5, 1, Next::Vertical), 9);
        assert_eq!(estimate(5, 1, Next::Horizontal), 10);
        assert_eq!(estimate(1, 0, Next::Horizontal), 2);
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
