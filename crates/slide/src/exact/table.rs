//! Complete distance tables: the exact distance of every reachable state of a board of at most 12 cells.
//!
//! A state is named by the cells of tiles `0..n-2` (blank first) through [`PartialRanker`]; the two remaining
//! tiles' order follows from parity, so ranks `0..n!/2` name exactly the reachable states. The table is filled by
//! the [`bfs`](crate::exact::bfs) engine from the canonical goal, then packed:
//!
//! - up to 10 cells, [`Encoding::Exact`]: each entry is the distance in as few bits as the diameter needs
//!   (2 × 5: 6 bits × 1,814,400 = 1.4 MB);
//! - 12 cells, [`Encoding::Mod3`]: each entry is the distance modulo 3 in 2 bits (239,500,800 states = 59.9 MB).
//!   Every move changes the distance by at most one, so the neighbour whose entry is one less (mod 3) is one move
//!   closer; descending to the goal yields both the distance and an optimal move sequence.
//!
//! Tables exist in both [`Metric`]s: the space's moves are single-tile moves (STM), or multi-tile moves (MTM: the
//! blank jumps 1 to k cells along its row or column, every tile passed moving one cell). The same engine, the same
//! ranks and the same encodings serve both: each MTM move is one unit-cost edge, so the walk down the table works
//! unchanged and yields MTM-optimal sequences of pushes, written out as single-tile moves.

use crate::board::frame::canonical_goal;
use crate::board::{Shape, Tile};
use crate::error::{Error, Result, SolveError, StoreError};
use crate::exact::bfs::{bfs, StateSpace};
use crate::exact::packed::PackedTable;
use crate::exact::rank::{permutation_parity, PartialRanker};
use crate::metric::Metric;
use crate::progress::Progress;

/// The most cells a complete table covers.
pub const MAX_TABLE_CELLS: usize = 12;

/// Largest number of antipodes (states at the largest distance) a table remembers.
pub const MAX_ANTIPODES: usize = 64;

/// How table entries store distances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// The distance itself.
    Exact,
    /// The distance modulo 3.
    Mod3,
}

impl Encoding {
    /// The name stored in table files.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Exact => "exact",
            Encoding::Mod3 => "mod3",
        }
    }
}

/// Most cells a multi-tile move can pass on a board of at most 12 cells (a row of 2 × 6).
const MAX_RAY: usize = 5;

/// One move of a [`FullSpace`]: the blank jumps `k` cells (1 in STM) in direction `dir` (an index into the rays).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Step {
    dir: u8,
    k: u8,
}

/// The geometry of the full state space of a shape with a given goal blank cell and metric: moves, ranking, parity.
#[derive(Debug, Clone)]
pub struct FullSpace {
    shape: Shape,
    n: usize,
    blank_goal: usize,
    metric: Metric,
    ranker: PartialRanker,
    neighbors: Vec<[u8; 4]>,
    degree: Vec<u8>,
    /// `neighbor_dir[c][i]`: the direction index (into `rays`) of `neighbors[c][i]`.
    neighbor_dir: Vec<[u8; 4]>,
    /// `rays[c][d]`: the cells from `c` outward in direction `d` (up, down, left, right), `ray_len[c][d]` of them.
    rays: Vec<[[u8; MAX_RAY]; 4]>,
    ray_len: Vec<[u8; 4]>,
    goal_parity: u32,
    /// Bit `c`: parity of the taxicab distance from cell `c` to the goal's blank cell.
    blank_parity: u16,
    goal_rank: u64,
}

/// Working memory of [`FullSpace`]: a state as tile → cell and cell → tile.
#[derive(Debug, Clone)]
pub struct Scratch {
    pos: [u8; MAX_TABLE_CELLS],
    at: [u8; MAX_TABLE_CELLS],
}

impl FullSpace {
    /// The space of `shape` (both sides ≥ 2, at most 12 cells) towards the canonical goal with the blank on
    /// `blank_goal`, in single-tile moves.
    pub fn new(shape: Shape, blank_goal: usize) -> Result<FullSpace> {
        FullSpace::with_metric(shape, blank_goal, Metric::Stm)
    }

    /// The space of `shape` (both sides ≥ 2, at most 12 cells) towards the canonical goal with the blank on
    /// `blank_goal`, its moves those of `metric`.
    pub fn with_metric(shape: Shape, blank_goal: usize, metric: Metric) -> Result<FullSpace> {
        let n = shape.cells();
        if shape.is_line() || n > MAX_TABLE_CELLS || blank_goal >= n {
            return Err(if blank_goal >= n {
                Error::Internal(format!("goal blank cell {blank_goal} is off the board"))
            } else {
                Error::Solve(SolveError::NoTable { shape })
            });
        }
        let ranker = PartialRanker::new(n, n - 2).expect("n <= 12");
        let (neighbors, degree) = shape.neighbor_table();
        let (rows, cols) = (shape.rows() as isize, shape.cols() as isize);
        let mut rays = vec![[[0u8; MAX_RAY]; 4]; n];
        let mut ray_len = vec![[0u8; 4]; n];
        for c in 0..n {
            let (r, q) = ((c as isize) / cols, (c as isize) % cols);
            for (d, (dr, dq)) in [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)]
                .into_iter()
                .enumerate()
            {
                let mut k = 0usize;
                let (mut y, mut x) = (r + dr, q + dq);
                while (0..rows).contains(&y) && (0..cols).contains(&x) {
                    rays[c][d][k] = (y * cols + x) as u8;
                    k += 1;
                    (y, x) = (y + dr, x + dq);
                }
                ray_len[c][d] = k as u8;
            }
        }
        let mut neighbor_dir = vec![[0u8; 4]; n];
        for c in 0..n {
            for i in 0..degree[c] as usize {
                neighbor_dir[c][i] = (0..4)
                    .find(|&d| ray_len[c][d] > 0 && rays[c][d][0] == neighbors[c][i])
                    .expect("a neighbour lies on a ray") as u8;
            }
        }
        let goal = canonical_goal(shape, blank_goal);
        let goal_pos = goal.positions();
        let goal_parity = permutation_parity(&goal_pos);
        let blank_parity = (0..n).fold(0u16, |m, c| {
            m | (((shape.manhattan(c, blank_goal) & 1) as u16) << c)
        });
        let mut space = FullSpace {
            shape,
            n,
            blank_goal,
            metric,
            ranker,
            neighbors,
            degree,
            neighbor_dir,
            rays,
            ray_len,
            goal_parity,
            blank_parity,
            goal_rank: 0,
        };
        let pos: Vec<u8> = goal_pos.iter().map(|&p| p as u8).collect();
        space.goal_rank = space.rank(&pos).expect("the goal is reachable");
        Ok(space)
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The canonical goal's blank cell.
    pub fn blank_goal(&self) -> usize {
        self.blank_goal
    }

    /// How moves are counted in this space.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Number of reachable states, `n!/2`.
    pub fn states(&self) -> u64 {
        self.ranker.size()
    }

    /// The goal's rank.
    pub fn goal_rank(&self) -> u64 {
        self.goal_rank
    }

    /// The rank of a state given as tile → cell, or `None` when parity makes it unreachable.
    #[inline]
    pub fn rank(&self, pos: &[u8]) -> Option<u64> {
        let n = self.n;
        let (r, par) = self.ranker.rank_parity(pos);
        let full = par ^ (pos[n - 2] > pos[n - 1]) as u32;
        let need = self.goal_parity ^ ((self.blank_parity >> (pos[0] & 15)) as u32 & 1);
        (full == need).then_some(r)
    }

    /// Writes the state of rank `r` as tile → cell.
    #[inline]
    pub fn unrank(&self, r: u64, pos: &mut [u8]) {
        let n = self.n;
        let (free, par) = self.ranker.unrank(r, pos);
        let a = free.trailing_zeros() as u8;
        let b = (63 - free.leading_zeros()) as u8;
        let need = self.goal_parity ^ ((self.blank_parity >> (pos[0] & 15)) as u32 & 1);
        if par == need {
            pos[n - 2] = a;
            pos[n - 1] = b;
        } else {
            pos[n - 2] = b;
            pos[n - 1] = a;
        }
    }

    /// Calls `f(tile, neighbor_rank)` for each single-tile move from the state `pos` (tile → cell, with `at` its
    /// inverse, cell → tile, from [`FullSpace::fill_at`]); `pos` is restored. (Whatever the space's metric: hints,
    /// analyses and counts look at single-tile moves.)
    #[inline]
    pub fn for_each_tile_move(&self, pos: &mut [u8], at: &[u8], mut f: impl FnMut(u8, u64)) {
        let b = pos[0];
        let bi = b as usize;
        for &c in &self.neighbors[bi][..self.degree[bi] as usize] {
            let t = at[c as usize];
            pos[0] = c;
            pos[t as usize] = b;
            let r = self.ranker.rank(pos);
            pos[t as usize] = c;
            pos[0] = b;
            f(t, r);
        }
    }

    /// Calls `f(step, neighbor_rank)` for each move from the state `pos` (tile → cell, `at` its inverse); `pos` is
    /// restored.
    #[inline]
    fn for_each_move(&self, pos: &mut [u8], at: &[u8], mut f: impl FnMut(Step, u64)) {
        let b = pos[0];
        let bi = b as usize;
        match self.metric {
            Metric::Stm => {
                for (i, &c) in self.neighbors[bi][..self.degree[bi] as usize]
                    .iter()
                    .enumerate()
                {
                    let t = at[c as usize];
                    pos[0] = c;
                    pos[t as usize] = b;
                    let r = self.ranker.rank(pos);
                    pos[t as usize] = c;
                    pos[0] = b;
                    f(
                        Step {
                            dir: self.neighbor_dir[bi][i],
                            k: 1,
                        },
                        r,
                    );
                }
            }
            Metric::Mtm => {
                // The blank jumps k cells along a ray; each tile passed moves one cell back toward where it was.
                for d in 0..4 {
                    let ray = &self.rays[bi][d][..self.ray_len[bi][d] as usize];
                    let mut prev = b;
                    for (i, &c) in ray.iter().enumerate() {
                        pos[at[c as usize] as usize] = prev;
                        pos[0] = c;
                        let r = self.ranker.rank(pos);
                        f(
                            Step {
                                dir: d as u8,
                                k: i as u8 + 1,
                            },
                            r,
                        );
                        prev = c;
                    }
                    for &c in ray {
                        pos[at[c as usize] as usize] = c;
                    }
                    pos[0] = b;
                }
            }
        }
    }

    /// Plays `step` on `pos`/`at`, pushing the tiles that move (in order) onto `moves` if given.
    fn play(&self, step: Step, pos: &mut [u8], at: &mut [u8], mut moves: Option<&mut Vec<Tile>>) {
        let b = pos[0] as usize;
        let ray = self.rays[b][step.dir as usize];
        let mut prev = b as u8;
        for &c in &ray[..step.k as usize] {
            let t = at[c as usize];
            pos[t as usize] = prev;
            at[prev as usize] = t;
            if let Some(m) = moves.as_deref_mut() {
                m.push(t as Tile);
            }
            prev = c;
        }
        pos[0] = prev;
        at[prev as usize] = 0;
    }

    /// Writes the inverse of `pos` (tile → cell) into `at` (cell → tile).
    pub fn fill_at(pos: &[u8], at: &mut [u8]) {
        for (t, &p) in pos.iter().enumerate() {
            at[p as usize] = t as u8;
        }
    }
}

impl StateSpace for FullSpace {
    type Scratch = Scratch;

    fn size(&self) -> u64 {
        self.ranker.size()
    }

    fn goals(&self) -> Vec<u64> {
        vec![self.goal_rank]
    }

    fn scratch(&self) -> Scratch {
        Scratch {
            pos: [0; MAX_TABLE_CELLS],
            at: [0; MAX_TABLE_CELLS],
        }
    }

    #[inline]
    fn expand(&self, rank: u64, s: &mut Scratch, visit: &mut impl FnMut(u64, u8)) {
        let n = self.n;
        self.unrank(rank, &mut s.pos[..n]);
        Self::fill_at(&s.pos[..n], &mut s.at[..n]);
        let at = s.at;
        self.for_each_move(&mut s.pos[..n], &at[..n], |_, r| visit(r, 1));
    }
}

/// A complete distance table for one shape, goal blank cell and metric.
#[derive(Debug, Clone)]
pub struct CompleteTable {
    space: FullSpace,
    encoding: Encoding,
    table: PackedTable,
    histogram: Vec<u64>,
    antipodes: Vec<u64>,
}

impl CompleteTable {
    /// Builds the table of `metric` by breadth-first search from the canonical goal (in parallel), reporting to
    /// `progress`.
    ///
    /// Memory during the build: one byte per state (239.5 MB for 12 cells) besides the packed result.
    pub fn build(
        shape: Shape,
        blank_goal: usize,
        metric: Metric,
        progress: &dyn Progress,
    ) -> Result<CompleteTable> {
        let space = FullSpace::with_metric(shape, blank_goal, metric)?;
        let label = match metric {
            Metric::Stm => format!("table {shape}"),
            Metric::Mtm => format!("table {shape} {metric}"),
        };
        let dist = bfs(&space, &label, progress, None)?;
        let diameter = dist.max_distance();
        let encoding = Self::encoding_for(shape);
        let bits = match encoding {
            Encoding::Exact => 32 - diameter.leading_zeros().min(31),
            Encoding::Mod3 => 2,
        };
        let table = match encoding {
            Encoding::Exact => PackedTable::from_bytes(bits, &dist.bytes, |d| d as u32)?,
            Encoding::Mod3 => PackedTable::from_bytes(bits, &dist.bytes, |d| (d % 3) as u32)?,
        };
        let antipodes: Vec<u64> = dist
            .bytes
            .iter()
            .enumerate()
            .filter(|&(_, &d)| d as u32 == diameter)
            .take(MAX_ANTIPODES)
            .map(|(i, _)| i as u64)
            .collect();
        Ok(CompleteTable {
            space,
            encoding,
            table,
            histogram: dist.histogram,
            antipodes,
        })
    }

    /// How a shape's table is stored: exact up to 10 cells, modulo 3 above.
    pub fn encoding_for(shape: Shape) -> Encoding {
        if shape.cells() <= 10 {
            Encoding::Exact
        } else {
            Encoding::Mod3
        }
    }

    /// Reassembles a table from its parts (as loaded from a file); checks that they fit together.
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts(
        shape: Shape,
        blank_goal: usize,
        metric: Metric,
        encoding: Encoding,
        table: PackedTable,
        histogram: Vec<u64>,
        antipodes: Vec<u64>,
    ) -> Result<CompleteTable> {
        let space = FullSpace::with_metric(shape, blank_goal, metric)?;
        if table.len() != space.states() || histogram.iter().sum::<u64>() != space.states() {
            return Err(Error::Store(StoreError::Unusable(
                "table does not fit its shape".into(),
            )));
        }
        let t = CompleteTable {
            space,
            encoding,
            table,
            histogram,
            antipodes,
        };
        if t.table.get(t.space.goal_rank) != 0 || t.table.bits() > 8 {
            return Err(Error::Store(StoreError::Unusable(
                "the goal's entry is not 0".into(),
            )));
        }
        if encoding == Encoding::Exact && (t.histogram.len() as u64) > (1u64 << t.table.bits()) {
            return Err(Error::Store(StoreError::Unusable(
                "entries too narrow for the diameter".into(),
            )));
        }
        Ok(t)
    }

    /// The shape and goal geometry.
    pub fn space(&self) -> &FullSpace {
        &self.space
    }

    /// How the table counts moves.
    pub fn metric(&self) -> Metric {
        self.space.metric
    }

    /// How entries are stored.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The packed entries.
    pub fn packed(&self) -> &PackedTable {
        &self.table
    }

    /// `histogram()[d]` = number of states at distance `d`.
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }

    /// The largest distance (god's number for this goal).
    pub fn diameter(&self) -> u32 {
        self.histogram.len() as u32 - 1
    }

    /// Up to [`MAX_ANTIPODES`] states at the largest distance, as tile → cell.
    pub fn antipodes(&self) -> Vec<Vec<u8>> {
        let n = self.space.n;
        self.antipodes
            .iter()
            .map(|&r| {
                let mut pos = vec![0u8; n];
                self.space.unrank(r, &mut pos);
                pos
            })
            .collect()
    }

    /// Stored antipode ranks.
    pub fn antipode_ranks(&self) -> &[u64] {
        &self.antipodes
    }

    /// The distance of a reachable state given as tile → cell (use [`FullSpace::rank`] to test reachability).
    #[inline(always)]
    pub fn distance_of_rank(&self, rank: u64, pos: &[u8]) -> u32 {
        match self.encoding {
            Encoding::Exact => self.table.get(rank),
            Encoding::Mod3 => self.descend(rank, pos, None),
        }
    }

    /// The distance of a state (tile → cell), or `None` when it is unreachable.
    #[inline(always)]
    pub fn distance(&self, pos: &[u8]) -> Option<u32> {
        let r = self.space.rank(pos)?;
        Some(self.distance_of_rank(r, pos))
    }

    /// An optimal move sequence (canonical tiles that slide into the blank, one by one) from a state (tile → cell),
    /// or `None` when it is unreachable. In MTM the sequence has [`distance`](Self::distance) maximal runs of one
    /// direction (each run one multi-tile move), and more single-tile moves.
    pub fn path(&self, pos: &[u8]) -> Option<Vec<Tile>> {
        let r = self.space.rank(pos)?;
        let mut moves = Vec::new();
        self.descend(r, pos, Some(&mut moves));
        Some(moves)
    }

    /// Walks down the table from `rank` to the goal, one move (of the table's metric) at a time; returns the number
    /// of moves.
    fn descend(&self, mut rank: u64, start: &[u8], mut moves: Option<&mut Vec<Tile>>) -> u32 {
        let n = self.space.n;
        let mut pos = [0u8; MAX_TABLE_CELLS];
        pos[..n].copy_from_slice(&start[..n]);
        let mut at = [0u8; MAX_TABLE_CELLS];
        FullSpace::fill_at(&pos[..n], &mut at[..n]);
        let mut steps = 0u32;
        let mut value = self.table.get(rank);
        while rank != self.space.goal_rank {
            let want = match self.encoding {
                Encoding::Exact => value - 1,
                Encoding::Mod3 => (value + 2) % 3,
            };
            let mut next: Option<(Step, u64)> = None;
            self.space
                .for_each_move(&mut pos[..n], &at[..n], |step, r| {
                    if next.is_none() && self.table.get(r) == want {
                        next = Some((step, r));
                    }
                });
            let Some((step, r)) = next else {
                // Only a damaged table could get here; tables are verified when loaded.
                unreachable!("complete table has no downhill move");
            };
            self.space
                .play(step, &mut pos[..n], &mut at[..n], moves.as_deref_mut());
            rank = r;
            value = want;
            steps += 1;
        }
        steps
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::NoProgress;

    #[test]
    fn two_by_three_known_facts() {
        let t =
            CompleteTable::build(Shape::new(2, 3).unwrap(), 5, Metric::Stm, &NoProgress).unwrap();
        assert_eq!(t.space().states(), 360);
        assert_eq!(t.diameter(), 21);
        assert_eq!(t.histogram().iter().sum::<u64>(), 360);
        // [[4,1,2],[5,0,3]] -> 5
        let pos = [4u8, 1, 2, 5, 0, 3];
        assert_eq!(t.distance(&pos), Some(5));
        assert_eq!(t.path(&pos).unwrap().len(), 5);
        // [[1,2,3],[5,4,0]] unreachable
        assert_eq!(t.distance(&[5, 0, 1, 2, 4, 3]), None);
    }

    /// The walk down a distance-mod-3 table (the 12-cell encoding) gives the exact distances and paths of that
    /// many moves in both metrics: checked on every 3 × 3 state against the exact table, re-encoded modulo 3.
    #[test]
    fn mod3_walk_in_both_metrics() {
        for metric in [Metric::Stm, Metric::Mtm] {
            let exact =
                CompleteTable::build(Shape::new(3, 3).unwrap(), 8, metric, &NoProgress).unwrap();
            let states = exact.space().states();
            let mut packed = PackedTable::new(2, states);
            for r in 0..states {
                packed.set(r, exact.packed().get(r) % 3);
            }
            let mod3 = CompleteTable::from_parts(
                exact.space().shape(),
                8,
                metric,
                Encoding::Mod3,
                packed,
                exact.histogram().to_vec(),
                exact.antipode_ranks().to_vec(),
            )
            .unwrap();
            let mut pos = [0u8; 9];
            for r in (0..states).step_by(5) {
                exact.space().unrank(r, &mut pos);
                let d = exact.distance(&pos).unwrap();
                assert_eq!(mod3.distance(&pos), Some(d), "{metric} rank {r}");
                let path = mod3.path(&pos).unwrap();
                assert_eq!(path, exact.path(&pos).unwrap(), "{metric} rank {r}");
                if metric == Metric::Stm {
                    assert_eq!(path.len() as u32, d);
                }
            }
        }
    }

    #[test]
    fn rank_unrank_roundtrip() {
        let s = FullSpace::new(Shape::new(3, 3).unwrap(), 4).unwrap();
        let mut pos = [0u8; 9];
        for r in (0..s.states()).step_by(101) {
            s.unrank(r, &mut pos);
            assert_eq!(s.rank(&pos), Some(r));
            let mut swapped = pos;
            swapped.swap(7, 8);
            assert_eq!(s.rank(&swapped), None);
        }
    }
}
