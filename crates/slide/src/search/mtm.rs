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

/// The number of entries of the label table of `kind` for `shape`, `None` when it does not fit in a `u64`.
pub fn label_space_size(shape: Shape, blank_goal: usize, kind: LabelKind) -> Option<u64> {
    let labels = goal_labels(shape, blank_goal, kind);
    MultisetRanker::new(&counts(&labels))?
        .size()
        .checked_mul(kind.states_per_arrangement())
}

/// The label of each goal cell: 0 on the blank's cell; else, with [`LabelKind::Vertical`] and
/// [`LabelKind::Alternating`], `1 + ` the cell's row; with [`LabelKind::Blocks`], `1 +` its block of the 2 × 2
/// split of the board (rows and columns halved, rounding up), except that the cell beside the blank's block in the
/// blank's row, nearest to it, joins the blank's block (the blank's block then has as many tiles as the others on
/// a 4 × 4 board, and the split is no longer symmetric under transposition: the transposed board's lookup tells
/// something else).
fn goal_labels(shape: Shape, blank_goal: usize, kind: LabelKind) -> Vec<u8> {
    let (rows, cols) = (shape.rows(), shape.cols());
    let block = |c: usize| {
        let (r, c) = (c / cols, c % cols);
        1 + 2 * u8::from(r >= rows.div_ceil(2)) + u8::from(c >= cols.div_ceil(2))
    };
    let mut labels: Vec<u8> = (0..shape.cells())
        .map(|c| match kind {
            LabelKind::Vertical | LabelKind::Alternating => 1 + (c / cols) as u8,
            LabelKind::Blocks => block(c),
        })
        .collect();
    if kind == LabelKind::Blocks && blank_goal < labels.len() {
        let (br, bc) = (blank_goal / cols, blank_goal % cols);
        let mine = block(blank_goal);
        let beside = (0..cols)
            .filter(|&c| block(br * cols + c) != mine)
            .min_by_key(|&c| c.abs_diff(bc));
        if let Some(c) = beside {
            labels[br * cols + c] = mine;
        }
    }
    if let Some(l) = labels.get_mut(blank_goal) {
        *l = 0;
    }
    labels
}

/// How often each label occurs.
fn counts(labels: &[u8]) -> Vec<u8> {
    let n = labels.iter().copied().max().map_or(0, |m| m as usize + 1);
    let mut c = vec![0u8; n];
    for &l in labels {
        c[l as usize] += 1;
    }
    c
}

/// The label arrangements of a shape under multi-tile moves. With [`LabelKind::Vertical`], vertical pushes cost 1
/// and horizontal ones 0. With the alternating kinds, a state is an arrangement and the axis of the first push of
/// the path to the goal (rank = 2 · arrangement + axis, 0 vertical), paths alternate axes, and every push costs 1.
pub struct LabelSpace {
    shape: Shape,
    kind: LabelKind,
    labels: Vec<u8>,
    ranker: MultisetRanker,
}

/// What a label table labels and counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelKind {
    /// Tiles labelled by goal row; the least number of vertical pushes (horizontal ones free).
    Vertical,
    /// Tiles labelled by goal row; the least number of pushes of an alternating path, for each axis of its first
    /// push.
    Alternating,
    /// Tiles labelled by block ([`goal_labels`]); the least number of pushes of an alternating path, for each axis
    /// of its first push.
    Blocks,
}

impl LabelKind {
    /// The name in table files.
    pub fn name(self) -> &'static str {
        match self {
            LabelKind::Vertical => "labels",
            LabelKind::Alternating => "labels-alt",
            LabelKind::Blocks => "blocks-alt",
        }
    }

    fn states_per_arrangement(self) -> u64 {
        match self {
            LabelKind::Vertical => 1,
            LabelKind::Alternating | LabelKind::Blocks => 2,
        }
    }
}

impl LabelSpace {
    /// The space of `shape` whose goal has the blank on `blank_goal`; an error when it has more than
    /// [`MAX_LABEL_ENTRIES`] states.
    pub fn new(shape: Shape, blank_goal: usize, kind: LabelKind) -> Result<LabelSpace> {
        let too_large = || Error::InvalidOption {
            option: "metric".into(),
            reason: format!(
                "MTM search on {shape} needs label tables larger than {MAX_LABEL_ENTRIES} entries \
                 (available: 4x4, and 3x5 and 5x3 above 12 cells)"
            ),
        };
        if shape.cells() > 32 || blank_goal >= shape.cells() {
            return Err(too_large());
        }
        let labels = goal_labels(shape, blank_goal, kind);
        let ranker = MultisetRanker::new(&counts(&labels)).ok_or_else(too_large)?;
        if ranker
            .size()
            .checked_mul(kind.states_per_arrangement())
            .is_none_or(|n| n > MAX_LABEL_ENTRIES)
        {
            return Err(too_large());
        }
        Ok(LabelSpace {
            shape,
            kind,
            labels,
            ranker,
        })
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
        self.ranker.size() * self.kind.states_per_arrangement()
    }

    fn goals(&self) -> Vec<u64> {
        let g = self.ranker.rank(&self.labels);
        match self.kind {
            LabelKind::Vertical => vec![g],
            LabelKind::Alternating | LabelKind::Blocks => vec![2 * g, 2 * g + 1],
        }
    }

    fn scratch(&self) -> Vec<u8> {
        vec![0; self.shape.cells()]
    }

    fn expand(&self, rank: u64, cells: &mut Vec<u8>, visit: &mut dyn FnMut(u64, u8)) {
        // Alternating: the state (s', axis) at distance d makes (s, other axis) at d + 1 for each s that reaches
        // s' by one push along the other axis (pushes are reversible: s' reaches s by one such push).
        let (arrangement, horizontal, vertical) = match self.kind {
            LabelKind::Vertical => (rank, Some((1, 0)), Some((1, 0))),
            _ if rank & 1 == 0 => (rank >> 1, Some((2, 1)), None),
            _ => (rank >> 1, None, Some((2, 0))),
        };
        self.ranker.unrank(arrangement, cells);
        let cols = self.shape.cols();
        let blank = cells.iter().position(|&l| l == 0).unwrap_or(0);
        let (br, bc) = (blank / cols, blank % cols);
        let mut work = [0u8; 32];
        let n = cells.len();
        if let Some((scale, add)) = horizontal {
            let cost = u8::from(self.kind != LabelKind::Vertical);
            for c in 0..cols {
                if c != bc {
                    work[..n].copy_from_slice(cells);
                    push(&mut work[..n], blank, br * cols + c, 1);
                    visit(self.ranker.rank(&work[..n]) * scale + add, cost);
                }
            }
        }
        if let Some((scale, add)) = vertical {
            for r in 0..self.shape.rows() {
                if r != br {
                    work[..n].copy_from_slice(cells);
                    push(&mut work[..n], blank, r * cols + bc, cols);
                    visit(self.ranker.rank(&work[..n]) * scale + add, 1);
                }
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
    kind: LabelKind,
    labels: Vec<u8>,
    ranker: MultisetRanker,
    table: PackedTable,
    histogram: Vec<u64>,
}

impl LabelTable {
    /// Builds the table of `shape` with the goal's blank on `blank_goal` (one byte per entry while building).
    pub fn build(
        shape: Shape,
        blank_goal: usize,
        kind: LabelKind,
        progress: &dyn Progress,
    ) -> Result<LabelTable> {
        let space = LabelSpace::new(shape, blank_goal, kind)?;
        let label = format!("MTM label table {shape}");
        let d = bfs(&space, &label, progress, None)?;
        if d.bytes.contains(&UNSEEN) {
            return Err(Error::Internal(
                "a label arrangement was not reached".into(),
            ));
        }
        let bits = match d.max_distance() {
            0..16 => 4,
            16..64 => 6,
            _ => 8,
        };
        let table = PackedTable::from_bytes(bits, &d.bytes, u32::from);
        Ok(LabelTable {
            shape,
            blank_goal,
            kind,
            labels: space.labels,
            ranker: space.ranker,
            table,
            histogram: d.histogram,
        })
    }

    /// A table read back from its parts (a cached file).
    pub fn from_parts(
        shape: Shape,
        blank_goal: usize,
        kind: LabelKind,
        table: PackedTable,
        histogram: Vec<u64>,
    ) -> Result<LabelTable> {
        let space = LabelSpace::new(shape, blank_goal, kind)?;
        if table.len() != space.size() {
            return Err(Error::Internal("a label table of the wrong length".into()));
        }
        Ok(LabelTable {
            shape,
            blank_goal,
            kind,
            labels: space.labels,
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

    /// What the table counts.
    pub fn kind(&self) -> LabelKind {
        self.kind
    }

    /// The rank of an arrangement given as one cell mask per label.
    #[inline]
    fn rank(&self, masks: &[u32]) -> u64 {
        self.ranker.rank_masks(masks)
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
pub fn label_build_bytes(shape: Shape, blank_goal: usize, kind: LabelKind) -> u64 {
    label_space_size(shape, blank_goal, kind).map_or(u64::MAX, |n| n + n * 3 / 4 + (64 << 20))
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
    /// Each tile's label in the first table (its goal cell's) and in the second (its transposed goal cell's); 0
    /// for the blank.
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
    /// The estimate of the current board when the next push is along `next`, and whether the tables say 0.
    #[inline]
    fn estimate(&self, next: Next) -> (u32, bool) {
        let mut rm = [0u32; 32];
        let mut cm = [0u32; 32];
        for c in 0..self.n {
            let t = self.tiles[c] as usize;
            rm[self.row_label[t] as usize] |= 1 << c;
            cm[self.col_label[t] as usize] |= 1 << self.transposed[c];
        }
        let (rows, cols) = (self.tables.rows, self.tables.cols);
        let (r, c) = (rows.rank(&rm), cols.rank(&cm));
        match rows.kind {
            LabelKind::Vertical => {
                let (v, h) = (rows.table.get(r), cols.table.get(c));
                (estimate(v, h, next), v == 0 && h == 0)
            }
            LabelKind::Alternating | LabelKind::Blocks => {
                // The column table is the transposed board's row table: its vertical is our horizontal.
                let vertical_first = || rows.table.get(2 * r).max(cols.table.get(2 * c + 1));
                let horizontal_first = || rows.table.get(2 * r + 1).max(cols.table.get(2 * c));
                let e = match next {
                    Next::Vertical => vertical_first(),
                    Next::Horizontal => horizontal_first(),
                    Next::Any => vertical_first().min(horizontal_first()),
                };
                (e, e == 0)
            }
        }
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
        let (e, zero) = self.estimate(next);
        let f = g + e;
        if f > bound {
            self.next_bound = self.next_bound.min(f);
            return false;
        }
        if zero && self.tiles[..self.n] == self.goal[..self.n] {
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
        || t.rows.kind != t.cols.kind
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
            ida.row_label[tile as usize] = t.rows.labels[c];
            ida.col_label[tile as usize] = t.cols.labels[(c % cols) * rows + c / cols];
        }
    }
    for (c, &tile) in board.tiles().iter().enumerate() {
        ida.tiles[c] = tile as u8;
        ida.transposed[c] = ((c % cols) * rows + c / cols) as u8;
    }
    let start = ida.estimate(Next::Any).0;
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
