//! IDA* in the multi-tile metric over alternating pushes, guided by the label tables; and counting the optimal
//! solutions.
//!
//! **Per node.** The time goes to memory: every child needs an entry of each reading, random reads in tables of
//! hundreds of megabytes. A node therefore ranks all its children first and prefetches their entries
//! ([`PackedTable::prefetch`](crate::exact::packed::PackedTable::prefetch)), so that the reads overlap, and enters
//! only the children within the bound; the ranks use `PEXT` where the processor has BMI2
//! ([`MultisetRanker::rank_masks_pext`](crate::exact::rank::MultisetRanker::rank_masks_pext)), and a push moves the
//! labels of a whole line segment in every mask at once ([`line_segments`]). Reading one table first and the other
//! only for the children it does not prune would read fewer entries but serialise two waits. The number of readings
//! is a constant of the inner loop (`dfs` is generic over it), and the children are made by a method compiled inside
//! `dfs_bmi2` (a closure would not get its processor features, and the ranking would not inline).

use super::space::line_segments;
use super::table::{excess, neighbour_distance, LabelTable, MtmTables};
use super::Layout;
use crate::board::Board;
use crate::error::{Error, Result};
use crate::search::ida::{Counted, Outcome, Tally};
use crate::search::limits::{LimitCheck, Limits, CHECK_EVERY};
use crate::search::pruning::DEAD;
use crate::search::push_pruning::PushPruner;

/// Which axis the next push must take (alternation).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Next {
    Any,
    Vertical,
    Horizontal,
}

pub(super) struct MtmIda<'a, 'l> {
    /// The tables read (as many as `reads`): the first layout's on the board and on the transposed board, then
    /// the second layout's likewise.
    tables: [&'a LabelTable; MAX_READINGS],
    pub(super) reads: usize,
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
    /// The limits, and when to look at them next.
    check: LimitCheck<'l, 'l>,
    stopped: bool,
    next_bound: u32,
    /// The current iteration's threshold (for the progress reports).
    bound: u32,
}

/// The cells of each label, per reading: readings 0 and 2 on the board, 1 and 3 on the transposed board.
type Masks = [[u32; LABELS]; MAX_READINGS];

/// Most label-table readings a search maximises over: two layouts, each on the board and on the transposed board.
const MAX_READINGS: usize = 4;

/// The number of labels, the blank's included ([`goal_labels`](super::goal_labels)).
pub(super) const LABELS: usize = 5;

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

impl MtmIda<'_, '_> {
    /// The rank of the arrangement of the label masks `m` in each reading. `PEXT`: ranked by
    /// [`MultisetRanker::rank_masks_pext`](crate::exact::rank::MultisetRanker::rank_masks_pext) (only in [`MtmIda::dfs_bmi2`]).
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
    pub(super) fn estimate(&self, next: Next) -> Result<u32> {
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

    /// Whether a limit stopped the search: the limits are looked at when due ([`LimitCheck`]), which is at the
    /// latest at the node limit.
    fn limit_reached(&mut self) -> bool {
        if self.check.due(self.nodes) {
            self.check_limits();
        }
        self.stopped
    }

    /// Looks at the limits ([`MtmIda::limit_reached`]).
    #[cold]
    #[inline(never)]
    fn check_limits(&mut self) {
        if self.check.reached(self.nodes, self.nodes, CHECK_EVERY) {
            self.stopped = true;
        }
        if let Some(w) = self.check.limits().watch {
            w.tick(self.bound, self.nodes);
        }
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
    pub(super) fn new(
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
            check: LimitCheck::new(limits),
            stopped: false,
            next_bound: u32::MAX,
            bound: 0,
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
    ida.bound = start;
    let outcome = search_from(&mut ida, board, start, ds, limits);
    if let Some(w) = limits.watch {
        w.report(ida.bound, ida.nodes);
    }
    outcome
}

/// The iterations of [`search`] from the start's estimate `start`, each reported to [`Limits::watch`] as it starts.
fn search_from(
    ida: &mut MtmIda<'_, '_>,
    board: &Board,
    start: u32,
    ds: Distances,
    limits: &Limits<'_>,
) -> Result<Outcome> {
    loop {
        let bound = ida.bound;
        if limits.past_depth(bound) {
            return Ok(Outcome::Stopped {
                lower_bound: bound,
                nodes: ida.nodes,
                estimate: start,
                iterations: Vec::new(),
            });
        }
        if let Some(w) = limits.watch {
            w.report(bound, ida.nodes);
        }
        ida.next_bound = u32::MAX;
        if ida.root(bound, start, ds) {
            return Ok(Outcome::Solved {
                moves: tiles_of_pushes(board, &ida.path),
                nodes: ida.nodes,
                estimate: start,
                iterations: Vec::new(),
            });
        }
        if ida.stopped {
            return Ok(Outcome::Stopped {
                lower_bound: bound,
                nodes: ida.nodes,
                estimate: start,
                iterations: Vec::new(),
            });
        }
        if ida.next_bound == u32::MAX {
            return Err(Error::Internal(
                "MTM search: the goal was not reached".into(),
            ));
        }
        ida.bound = ida.next_bound;
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
