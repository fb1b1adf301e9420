//! Fast mode: a polynomial constructive solver that returns a valid (not shortest) solution for any solvable board
//! of any size the library accepts, streaming the moves as it produces them.
//!
//! The method, on a mutable flat copy of the board with a tile → cell index (every primitive is O(1)):
//!
//! 1. The goal's blank is walked, along a fixed path (right, then down), to the bottom-right corner; the board is
//!    solved towards that shifted goal and the walk is undone at the end (moves are reversible).
//! 2. While the unsolved region (always a bottom-right rectangle) is larger than 3 × 3, its top row (when it is
//!    at least as tall as wide) or its left column (when wider) is placed and the region shrinks by one, towards
//!    a square; a strip two rows high loses its left column of two tiles, one two columns wide its top row. Every tile but the last two of a line is walked to its cell one step at a time, the blank cycling
//!    around it (3 moves a step when the tile moves diagonally, 5 when straight), never through a placed cell.
//!    The last two tiles of a line are first gathered into a small window at the end of the line, then finished
//!    with a precomputed exact table over the window (the positions of the two tiles and of the blank), which
//!    covers the classic rotation trick and its traps, and the 2-row / 2-column endgames alike.
//! 3. The last block (at most 3 × 3) is solved exactly by the exact solver handed in ([`ExactSolver`], such as a
//!    [`Solver`](crate::Solver) with the complete table of the block's shape); it is solvable by parity whenever
//!    the whole board is.
//!
//! The blank is routed greedily (the free region is a staircase, so only the tile being moved and the cells held
//! for the last two tiles can stop a greedy walk) and, when stopped, by a breadth-first search over a small window
//! around it: nothing searches the whole region except as a fallback when that window is walled off (only ever
//! seen across a 2-wide strip). Memory is O(cells) (about 16 bytes a cell); on random n × n boards the length is
//! about 2.65 n³ (2.2 n³ for n = 10) and the bookkeeping runs at about 10⁸ moves a second: 100 × 100 in
//! about 15 ms, 1000 × 1000 (2.7 · 10⁹ moves) in about 30 s, count-only. A 2 × n strip needs Θ(n²) moves.
//!
//! Boards of at most 9 cells and single rows or columns go straight to the exact solver (optimal answers).
//!
//! ```
//! use slide::{Board, Solver, fast};
//! use slide::Scrambler;
//! let goal = Board::goal("20x20".parse().unwrap());
//! let board = Scrambler::new(1).uniform(&goal);
//! let mut moves = Vec::new();
//! let n = fast::solve_fast(Solver::global(), &board, &goal, &mut |t| moves.push(t)).unwrap();
//! assert_eq!(n, moves.len() as u64);
//! let mut b = board.clone();
//! for t in moves {
//!     b.apply(t).unwrap();
//! }
//! assert_eq!(b, goal);
//! ```

use crate::board::{Board, Shape, Tile};
use crate::error::{Error, Result, SolveError};

/// Boards of at most this many cells are solved exactly by the solver's complete tables.
pub(crate) const EXACT_CELLS: usize = 9;

/// What fast mode asks of an exact solver ([`crate::Solver`] is one): least move sequences for boards of at most 9
/// cells, for single rows and columns, and for the last block of a larger board (at most 3 × 3).
pub trait ExactSolver {
    /// A least move sequence from `board` to `goal` (each move the tile that slides into the blank), or `None` when
    /// the solver gives none.
    fn exact_moves(&self, board: &Board, goal: &Board) -> Result<Option<Vec<Tile>>>;
}

/// Margin around the blank and its destination in the routing window.
const MARGIN: isize = 2;

/// Solves `board` towards `goal` in fast mode, calling `emit` with every move (the tile that slides into the
/// blank) as it is produced, and returns the number of moves.
///
/// Errors when the shapes differ or `goal` cannot be reached from `board` (nothing is emitted then); never panics
/// on a valid board. Boards of at most 9 cells and single rows or columns get an optimal answer; larger boards a
/// valid one, of about 2.65 n³ moves for a random n × n board. The error for an unsolvable board is
/// [`SolveError::Unsolvable`] with the parity reason.
pub fn solve_fast(
    solver: &dyn ExactSolver,
    board: &Board,
    goal: &Board,
    emit: &mut dyn FnMut(Tile),
) -> Result<u64> {
    run(solver, board, goal, emit)
}

/// The number of moves [`solve_fast`] produces, without the moves (count-only mode).
pub fn fast_length(solver: &dyn ExactSolver, board: &Board, goal: &Board) -> Result<u64> {
    run(solver, board, goal, |_| {})
}

/// The moves [`solve_fast`] produces, collected (for boards whose solution fits in memory).
pub fn fast_moves(solver: &dyn ExactSolver, board: &Board, goal: &Board) -> Result<Vec<Tile>> {
    let mut moves = Vec::new();
    run(solver, board, goal, |t| moves.push(t))?;
    Ok(moves)
}

fn run<F: FnMut(Tile)>(
    solver: &dyn ExactSolver,
    board: &Board,
    goal: &Board,
    mut emit: F,
) -> Result<u64> {
    let shape = board.shape();
    if let Some(reason) = board.unsolvable_reason(goal)? {
        return Err(Error::Solve(SolveError::Unsolvable { reason }));
    }
    if shape.is_line() || shape.cells() <= EXACT_CELLS {
        let moves = solver
            .exact_moves(board, goal)?
            .ok_or_else(|| internal("the exact solver gave no moves"))?;
        for &t in &moves {
            emit(t);
        }
        return Ok(moves.len() as u64);
    }
    let mut engine = Engine::new(board, goal, emit);
    engine.solve(solver)?;
    Ok(engine.moves)
}

fn internal(what: &str) -> Error {
    Error::Internal(format!("fast mode: {what}"))
}

/// Cells the blank's routing must not enter besides the placed ones (at most three; unused slots hold a cell off
/// the board). Fixed slots, so that building one per step costs no memory round trip.
#[derive(Clone, Copy)]
struct Obs([(isize, isize); 3]);

const OFF: (isize, isize) = (-9, -9);

impl Obs {
    const NONE: Obs = Obs([OFF; 3]);

    fn one(u: isize, v: isize) -> Obs {
        Obs([(u, v), OFF, OFF])
    }

    fn two(a: (isize, isize), b: (isize, isize)) -> Obs {
        Obs([a, b, OFF])
    }

    /// These obstacles (at most two) and `(u, v)`.
    #[inline]
    fn and(self, u: isize, v: isize) -> Obs {
        Obs([(u, v), self.0[0], self.0[1]])
    }

    #[inline]
    fn has(&self, u: isize, v: isize) -> bool {
        (self.0[0] == (u, v)) | (self.0[1] == (u, v)) | (self.0[2] == (u, v))
    }
}

const DIRS: [(isize, isize); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// Width of the last-two window across the line (it spans cells `v = 0..WIN_V`).
const WIN_V: isize = 4;
/// Cells of a window grid: 3 along the line by [`WIN_V`] across.
const WIN_CELLS: usize = 3 * WIN_V as usize;
const UNREACHED: u8 = u8::MAX;

/// Exact distances for the last two tiles of a line: state (cell of `a`, cell of `b`, cell of the blank) over a
/// window at the end of the line, `a` bound for the line's last-but-one cell and `b` for its last.
struct TwoTable {
    /// Window cells along the line: 3 (the first one's line cell is placed) or 2 (a line of two).
    wu: isize,
    dist: Vec<u8>,
}

impl TwoTable {
    fn new(wu: isize) -> TwoTable {
        let valid = |x: isize, y: isize| {
            (0..wu).contains(&x) && (0..WIN_V).contains(&y) && !(wu == 3 && x == 0 && y == 0)
        };
        let idx = |x: isize, y: isize| (x * WIN_V + y) as usize;
        let mut dist = vec![UNREACHED; WIN_CELLS * WIN_CELLS * WIN_CELLS];
        let mut queue = Vec::new();
        let (ga, gb) = (idx(wu - 2, 0), idx(wu - 1, 0));
        for x in 0..wu {
            for y in 0..WIN_V {
                let k = idx(x, y);
                if valid(x, y) && k != ga && k != gb {
                    let s = state(ga, gb, k);
                    dist[s] = 0;
                    queue.push(s);
                }
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let s = queue[head];
            head += 1;
            let (a, b, k) = unstate(s);
            let (x, y) = ((k / WIN_V as usize) as isize, (k % WIN_V as usize) as isize);
            for (dx, dy) in DIRS {
                if !valid(x + dx, y + dy) {
                    continue;
                }
                let n = idx(x + dx, y + dy);
                let t = next_state(a, b, k, n);
                if dist[t] == UNREACHED {
                    dist[t] = dist[s] + 1;
                    queue.push(t);
                }
            }
        }
        TwoTable { wu, dist }
    }
}

#[inline]
fn state(a: usize, b: usize, k: usize) -> usize {
    (a * WIN_CELLS + b) * WIN_CELLS + k
}

#[inline]
fn unstate(s: usize) -> (usize, usize, usize) {
    (
        s / (WIN_CELLS * WIN_CELLS),
        s / WIN_CELLS % WIN_CELLS,
        s % WIN_CELLS,
    )
}

/// The state after the blank (on `k`) moves to `n`.
#[inline]
fn next_state(a: usize, b: usize, k: usize, n: usize) -> usize {
    if n == a {
        state(k, b, n)
    } else if n == b {
        state(a, k, n)
    } else {
        state(a, b, n)
    }
}

/// The puzzle being solved, with the current line's view: cell `(u, v)` of the view is
/// `origin + u·du + v·dv`; the line being placed is `v = 0`, `u` in `0..len`; the region spans `v` in
/// `0..depth`; the first `k` cells of the line are placed.
///
/// Tiles go by internal labels: a tile's label is one more than the cell it starts on, so that the tiles around
/// the cells being worked on have labels close together and the label → cell index is read and written with the
/// locality of the board itself (tile numbers of a random board are scattered). `name` maps labels back.
struct Engine<F> {
    rows: usize,
    cols: usize,
    /// Cell → label (0: the blank).
    tiles: Vec<u32>,
    /// Label → cell.
    pos: Vec<u32>,
    /// Label → the user's tile number.
    name: Vec<Tile>,
    /// Cell → label of the tile that goes there (0: the blank, on the last cell).
    target: Vec<u32>,
    blank: usize,
    moves: u64,
    emit: F,
    /// Cells the goal's blank walks through to reach the bottom-right corner, from the goal's blank.
    walk: Vec<usize>,
    origin: usize,
    du: isize,
    dv: isize,
    len: isize,
    depth: isize,
    k: isize,
    bu: isize,
    bv: isize,
    seen: Vec<u8>,
    queue: Vec<u32>,
    path: Vec<(isize, isize)>,
}

impl<F: FnMut(Tile)> Engine<F> {
    fn new(board: &Board, goal: &Board, emit: F) -> Engine<F> {
        let shape = board.shape();
        let (rows, cols) = (shape.rows(), shape.cols());
        let n = shape.cells();
        let label = |cell: usize| {
            if cell == board.blank() {
                0
            } else {
                cell as u32 + 1
            }
        };
        let tiles: Vec<u32> = (0..n).map(label).collect();
        let mut pos = vec![0u32; n + 1];
        let mut name = vec![0 as Tile; n + 1];
        for (cell, &t) in board.tiles().iter().enumerate() {
            pos[label(cell) as usize] = cell as u32;
            name[label(cell) as usize] = t;
        }
        let start = board.positions();
        let mut target: Vec<u32> = goal
            .tiles()
            .iter()
            .map(|&t| if t == 0 { 0 } else { label(start[t as usize]) })
            .collect();
        let g = goal.blank();
        let (gr, gc) = (g / cols, g % cols);
        let mut walk = vec![g];
        walk.extend((gc + 1..cols).map(|c| gr * cols + c));
        walk.extend((gr + 1..rows).map(|r| r * cols + cols - 1));
        for w in walk.windows(2) {
            target.swap(w[0], w[1]);
        }
        Engine {
            rows,
            cols,
            tiles,
            pos,
            name,
            target,
            blank: board.blank(),
            moves: 0,
            emit,
            walk,
            origin: 0,
            du: 1,
            dv: cols as isize,
            len: 0,
            depth: 0,
            k: 0,
            bu: 0,
            bv: 0,
            seen: Vec::new(),
            queue: Vec::new(),
            path: Vec::new(),
        }
    }

    /// Slides the tile on `cell` (next to the blank) into the blank.
    #[inline]
    fn slide_cell(&mut self, cell: usize) {
        let t = self.tiles[cell];
        debug_assert!(t != 0);
        debug_assert_eq!(
            Shape::new_unchecked(self.rows, self.cols).manhattan(cell, self.blank),
            1
        );
        self.tiles[self.blank] = t;
        self.pos[t as usize] = self.blank as u32;
        self.tiles[cell] = 0;
        self.blank = cell;
        self.moves += 1;
        (self.emit)(self.name[t as usize]);
    }

    #[inline]
    fn cell(&self, u: isize, v: isize) -> usize {
        (self.origin as isize + u * self.du + v * self.dv) as usize
    }

    /// Moves the blank to view cell `(u, v)`, next to it.
    #[inline]
    fn slide(&mut self, u: isize, v: isize) {
        debug_assert_eq!((u - self.bu).abs() + (v - self.bv).abs(), 1);
        let c = self.cell(u, v);
        self.slide_cell(c);
        self.bu = u;
        self.bv = v;
    }

    /// View coordinates of a cell of the region.
    #[inline]
    fn uv(&self, cell: usize) -> (isize, isize) {
        let off = cell - self.origin;
        let (q, r) = ((off / self.cols) as isize, (off % self.cols) as isize);
        if self.du == 1 {
            (r, q)
        } else {
            (q, r)
        }
    }

    #[inline]
    fn tile_uv(&self, t: u32) -> (isize, isize) {
        self.uv(self.pos[t as usize] as usize)
    }

    /// True when the blank may not enter view cell `(u, v)`.
    #[inline]
    fn blocked(&self, u: isize, v: isize, obs: &Obs) -> bool {
        u < 0
            || v < 0
            || u >= self.len
            || v >= self.depth
            || (v == 0 && u < self.k)
            || obs.has(u, v)
    }

    fn solve(&mut self, solver: &dyn ExactSolver) -> Result<()> {
        let tables = [TwoTable::new(3), TwoTable::new(2)];
        let (rows, cols) = (self.rows, self.cols);
        let (mut r0, mut c0) = (0, 0);
        loop {
            let (h, w) = (rows - r0, cols - c0);
            if h <= 3 && w <= 3 {
                self.finish(solver, r0, c0)?;
                break;
            }
            let origin = r0 * cols + c0;
            if h != 2 && (w == 2 || h >= w) {
                // the top row: along the columns, across the rows
                self.set_view(origin, 1, cols as isize, w, h);
                self.solve_line(&tables)?;
                r0 += 1;
            } else {
                self.set_view(origin, cols as isize, 1, h, w);
                self.solve_line(&tables)?;
                c0 += 1;
            }
        }
        // Undo the goal's blank walk.
        for i in (0..self.walk.len().saturating_sub(1)).rev() {
            let c = self.walk[i];
            self.slide_cell(c);
        }
        Ok(())
    }

    fn set_view(&mut self, origin: usize, du: isize, dv: isize, len: usize, depth: usize) {
        self.origin = origin;
        self.du = du;
        self.dv = dv;
        self.len = len as isize;
        self.depth = depth as isize;
        self.k = 0;
        let (bu, bv) = self.uv(self.blank);
        self.bu = bu;
        self.bv = bv;
    }

    fn solve_line(&mut self, tables: &[TwoTable; 2]) -> Result<()> {
        debug_assert!(self.len >= 2 && self.depth >= WIN_V);
        for u in 0..self.len - 2 {
            let t = self.target[self.cell(u, 0)];
            self.move_tile(t, u, 0, Obs::NONE, None)?;
            self.k = u + 1;
        }
        self.last_two(if self.len >= 3 {
            &tables[0]
        } else {
            &tables[1]
        })?;
        self.k = self.len;
        Ok(())
    }

    /// Walks tile `t` to `(tu, tv)` one step at a time (or, with `stop = Some(u0)`, only until it stands in the
    /// last-two window `u >= u0, v < WIN_V`), never moving placed tiles or the cells of `lock`.
    fn move_tile(
        &mut self,
        t: u32,
        tu: isize,
        tv: isize,
        lock: Obs,
        stop: Option<isize>,
    ) -> Result<()> {
        let (mut pu, mut pv) = self.tile_uv(t);
        loop {
            if pu == tu && pv == tv {
                return Ok(());
            }
            if let Some(u0) = stop {
                if pu >= u0 && pv < WIN_V {
                    return Ok(());
                }
            }
            let obs = lock.and(pu, pv);
            let mut best: Option<(isize, isize, isize)> = None;
            let cands = [((tu - pu).signum(), 0), (0, (tv - pv).signum())];
            for (du, dv) in cands {
                if (du, dv) == (0, 0) || self.blocked(pu + du, pv + dv, &obs) {
                    continue;
                }
                let cost = self.approach_cost(pu, pv, du, dv, &obs);
                if best.is_none_or(|(_, _, c)| cost < c) {
                    best = Some((du, dv, cost));
                }
            }
            let (du, dv, _) =
                best.ok_or_else(|| internal("a tile has no step towards its cell"))?;
            self.bring_blank(pu, pv, du, dv, &obs)?;
            self.slide(pu, pv);
            pu += du;
            pv += dv;
        }
    }

    /// About how many moves bring the blank in front of the tile on `(pu, pv)` for a step `(du, dv)`.
    #[inline]
    fn approach_cost(&self, pu: isize, pv: isize, du: isize, dv: isize, obs: &Obs) -> isize {
        let (nu, nv) = (pu + du, pv + dv);
        let (eu, ev) = (self.bu - pu, self.bv - pv);
        if (self.bu, self.bv) == (nu, nv) {
            0
        } else if eu.abs() + ev.abs() == 1 {
            if (eu, ev) == (-du, -dv) {
                4
            } else if !self.blocked(self.bu + du, self.bv + dv, obs) {
                2
            } else {
                6
            }
        } else {
            (self.bu - nu).abs() + (self.bv - nv).abs()
        }
    }

    /// Brings the blank onto `(pu + du, pv + dv)` without moving the tile on `(pu, pv)` (in `obs`).
    #[inline]
    fn bring_blank(&mut self, pu: isize, pv: isize, du: isize, dv: isize, obs: &Obs) -> Result<()> {
        let (nu, nv) = (pu + du, pv + dv);
        let (bu, bv) = (self.bu, self.bv);
        if (bu, bv) == (nu, nv) {
            return Ok(());
        }
        let (eu, ev) = (bu - pu, bv - pv);
        if eu.abs() + ev.abs() == 1 {
            if (eu, ev) == (-du, -dv) {
                // Behind the tile: around one side.
                for (su, sv) in [(dv, du), (-dv, -du)] {
                    if !self.blocked(bu + su, bv + sv, obs)
                        && !self.blocked(pu + su, pv + sv, obs)
                        && !self.blocked(nu + su, nv + sv, obs)
                    {
                        self.slide(bu + su, bv + sv);
                        self.slide(pu + su, pv + sv);
                        self.slide(nu + su, nv + sv);
                        self.slide(nu, nv);
                        return Ok(());
                    }
                }
            } else if !self.blocked(bu + du, bv + dv, obs) {
                // Beside the tile: one step forward and one across.
                self.slide(bu + du, bv + dv);
                self.slide(nu, nv);
                return Ok(());
            }
        }
        self.route(nu, nv, obs)
    }

    /// Moves the blank to `(tu, tv)` avoiding placed cells and `obs`: greedily, one step closer at a time, and by
    /// a breadth-first search over a small window around the blank and `(tu, tv)` once an obstacle stops it.
    fn route(&mut self, tu: isize, tv: isize, obs: &Obs) -> Result<()> {
        if self.try_route(tu, tv, obs) {
            Ok(())
        } else {
            Err(internal("the blank cannot reach its cell"))
        }
    }

    /// [`Engine::route`], returning false (the blank moved somewhere on the way) when `(tu, tv)` is cut off.
    fn try_route(&mut self, tu: isize, tv: isize, obs: &Obs) -> bool {
        loop {
            let (du, dv) = (tu - self.bu, tv - self.bv);
            let d = du.abs() + dv.abs();
            if d == 0 {
                return true;
            }
            let su = (self.bu + du.signum(), self.bv);
            let sv = (self.bu, self.bv + dv.signum());
            let order = if du.abs() >= dv.abs() {
                [su, sv]
            } else {
                [sv, su]
            };
            let mut moved = false;
            for (u, v) in order {
                if (u, v) != (self.bu, self.bv) && !self.blocked(u, v, obs) {
                    self.slide(u, v);
                    moved = true;
                    break;
                }
            }
            if !moved {
                break;
            }
        }
        let (bu, bv) = (self.bu, self.bv);
        self.search_route(
            (bu.min(tu) - MARGIN).max(0),
            (bu.max(tu) + MARGIN).min(self.len - 1),
            (bv.min(tv) - MARGIN).max(0),
            (bv.max(tv) + MARGIN).min(self.depth - 1),
            tu,
            tv,
            obs,
        ) || self.search_route(0, self.len - 1, 0, self.depth - 1, tu, tv, obs)
    }

    /// Breadth-first search for the blank from its cell to `(tu, tv)` inside the window; moves it and returns true
    /// when a path exists.
    #[allow(clippy::too_many_arguments)]
    fn search_route(
        &mut self,
        ulo: isize,
        uhi: isize,
        vlo: isize,
        vhi: isize,
        tu: isize,
        tv: isize,
        obs: &Obs,
    ) -> bool {
        let wv = vhi - vlo + 1;
        let size = ((uhi - ulo + 1) * wv) as usize;
        let idx = |u: isize, v: isize| ((u - ulo) * wv + (v - vlo)) as usize;
        let mut seen = std::mem::take(&mut self.seen);
        let mut queue = std::mem::take(&mut self.queue);
        seen.clear();
        seen.resize(size, 0);
        queue.clear();
        let start = (self.bu, self.bv);
        seen[idx(start.0, start.1)] = 5;
        queue.push(idx(start.0, start.1) as u32);
        let goal = idx(tu, tv);
        let mut head = 0;
        let mut found = false;
        while head < queue.len() {
            let i = queue[head] as usize;
            head += 1;
            if i == goal {
                found = true;
                break;
            }
            let (u, v) = (ulo + i as isize / wv, vlo + i as isize % wv);
            for (d, (du, dv)) in DIRS.iter().enumerate() {
                let (nu, nv) = (u + du, v + dv);
                if nu < ulo || nu > uhi || nv < vlo || nv > vhi || self.blocked(nu, nv, obs) {
                    continue;
                }
                let j = idx(nu, nv);
                if seen[j] == 0 {
                    seen[j] = d as u8 + 1;
                    queue.push(j as u32);
                }
            }
        }
        if found {
            let mut path = std::mem::take(&mut self.path);
            path.clear();
            let (mut u, mut v) = (tu, tv);
            while (u, v) != start {
                path.push((u, v));
                let (du, dv) = DIRS[seen[idx(u, v)] as usize - 1];
                u -= du;
                v -= dv;
            }
            for &(u, v) in path.iter().rev() {
                self.slide(u, v);
            }
            self.path = path;
        }
        self.seen = seen;
        self.queue = queue;
        found
    }

    /// Places the last two tiles of the line: gathers them and the blank into the window at the end of the line,
    /// then follows the window's exact table.
    fn last_two(&mut self, table: &TwoTable) -> Result<()> {
        let len = self.len;
        let wu = table.wu;
        let u0 = len - wu;
        let a = self.target[self.cell(len - 2, 0)];
        let b = self.target[self.cell(len - 1, 0)];
        let in_window = |(u, v): (isize, isize)| {
            (u0..len).contains(&u) && (0..WIN_V).contains(&v) && !(wu == 3 && u == u0 && v == 0)
        };
        let mut gathered = false;
        if !in_window(self.tile_uv(a)) || !in_window(self.tile_uv(b)) {
            self.gather(a, b, u0)?;
            gathered = true;
        }
        while !in_window((self.bu, self.bv)) {
            let (pa, pb) = (self.tile_uv(a), self.tile_uv(b));
            let mut best = None;
            for u in u0..len {
                for v in 0..WIN_V {
                    if in_window((u, v)) && (u, v) != pa && (u, v) != pb {
                        let d = (u - self.bu).abs() + (v - self.bv).abs();
                        if best.is_none_or(|(_, _, bd)| d < bd) {
                            best = Some((u, v, d));
                        }
                    }
                }
            }
            let (u, v, _) = best.ok_or_else(|| internal("empty window"))?;
            if self.try_route(u, v, &Obs::two(pa, pb)) {
                break;
            }
            if gathered {
                return Err(internal("the blank cannot reach the last-two window"));
            }
            // Across a 2-wide strip the two tiles can wall the blank off: gather them afresh.
            self.gather(a, b, u0)?;
            gathered = true;
        }
        let (pa, pb) = (self.tile_uv(a), self.tile_uv(b));
        let idx = |(u, v): (isize, isize)| ((u - u0) * WIN_V + v) as usize;
        let (mut ia, mut ib, mut ik) = (idx(pa), idx(pb), idx((self.bu, self.bv)));
        loop {
            let d = table.dist[state(ia, ib, ik)];
            if d == 0 {
                return Ok(());
            }
            if d == UNREACHED {
                return Err(internal("last-two state out of the table"));
            }
            let mut stepped = false;
            for (du, dv) in DIRS {
                let (u, v) = (self.bu + du, self.bv + dv);
                if !in_window((u, v)) {
                    continue;
                }
                let n = idx((u, v));
                let s = next_state(ia, ib, ik, n);
                if table.dist[s] == d - 1 {
                    self.slide(u, v);
                    (ia, ib, ik) = unstate(s);
                    stepped = true;
                    break;
                }
            }
            if !stepped {
                return Err(internal("no step down the last-two table"));
            }
        }
    }

    /// Brings `b` onto `a`'s cell (the last-but-one of the line), then `a` into the last-two window (cells
    /// `u >= u0`) with `b` held there. Afterwards the blank is in the window or next to `a`, never walled off.
    fn gather(&mut self, a: u32, b: u32, u0: isize) -> Result<()> {
        let len = self.len;
        self.move_tile(b, len - 2, 0, Obs::NONE, None)?;
        self.move_tile(a, len - 2, 1, Obs::one(len - 2, 0), Some(u0))
    }

    /// Solves the bottom-right block from `(r0, c0)` (at most 3 × 3) exactly.
    fn finish(&mut self, solver: &dyn ExactSolver, r0: usize, c0: usize) -> Result<()> {
        let shape = Shape::new(self.rows - r0, self.cols - c0)?;
        let cols = self.cols;
        let cells: Vec<usize> = (r0..self.rows)
            .flat_map(|r| (c0..cols).map(move |c| r * cols + c))
            .collect();
        // Goal label of each block cell; the block's goal names them 1.. in reading order, blank last.
        let names: Vec<u32> = cells.iter().map(|&c| self.target[c]).collect();
        let mut small = Vec::with_capacity(cells.len());
        for &c in &cells {
            let t = self.tiles[c];
            let label = if t == 0 {
                0
            } else {
                names
                    .iter()
                    .position(|&g| g == t)
                    .ok_or_else(|| internal("a stray tile in the last block"))?
                    as Tile
                    + 1
            };
            small.push(label);
        }
        let small = Board::new(shape, small)?;
        let moves = solver
            .exact_moves(&small, &Board::goal(shape))?
            .ok_or_else(|| internal("the last block is not solvable"))?;
        let full = Shape::new_unchecked(self.rows, self.cols);
        for m in moves {
            let t = *names
                .get((m as usize).wrapping_sub(1))
                .ok_or_else(|| internal("bad move from the exact solver"))?;
            let c = self.pos[t as usize] as usize;
            if full.manhattan(c, self.blank) != 1 {
                return Err(internal("illegal move from the exact solver"));
            }
            self.slide_cell(c);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_two_tables_reach_every_state() {
        for wu in [2isize, 3] {
            let t = TwoTable::new(wu);
            let valid: Vec<usize> = (0..wu)
                .flat_map(|x| (0..WIN_V).map(move |y| (x, y)))
                .filter(|&(x, y)| !(wu == 3 && x == 0 && y == 0))
                .map(|(x, y)| (x * WIN_V + y) as usize)
                .collect();
            let mut max = 0;
            for &a in &valid {
                for &b in &valid {
                    for &k in &valid {
                        if a != b && b != k && a != k {
                            let d = t.dist[state(a, b, k)];
                            assert_ne!(d, UNREACHED, "wu {wu}: {a} {b} {k}");
                            max = max.max(d);
                        }
                    }
                }
            }
            assert!(max < 40, "{max}");
        }
    }
}
