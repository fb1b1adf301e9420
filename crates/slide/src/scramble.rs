//! Random boards: uniformly random solvable boards and random walks from the goal, reproducible from a seed; for a
//! partial goal ([`Pattern`]), the boards that can reach a matching board and walks from a random matching board.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::board::{Board, Pattern, Tile};

/// A seeded source of random boards. The same seed gives the same boards on every platform and version of slide
/// that keeps this generator (ChaCha8).
///
/// ```
/// use slide::{Board, Scrambler};
/// let goal = Board::goal("3x3".parse().unwrap());
/// let a = Scrambler::new(7).uniform(&goal);
/// let b = Scrambler::new(7).uniform(&goal);
/// assert_eq!(a, b);
/// assert!(a.is_solvable(&goal).unwrap());
/// ```
#[derive(Debug, Clone)]
pub struct Scrambler {
    rng: ChaCha8Rng,
}

impl Scrambler {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Scrambler {
        Scrambler {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// A generator seeded from the operating system.
    pub fn from_entropy() -> Scrambler {
        Scrambler::new(rand::rng().random())
    }

    /// A board drawn uniformly from all boards that can reach `goal`.
    pub fn uniform(&mut self, goal: &Board) -> Board {
        let shape = goal.shape();
        if shape.is_line() {
            // Only the blank moves: the other tiles keep the goal's order; the blank may be anywhere.
            let mut tiles: Vec<Tile> = goal.tiles().iter().copied().filter(|&t| t != 0).collect();
            let at = self.rng.random_range(0..=tiles.len());
            tiles.insert(at, 0);
            return Board::new(shape, tiles).expect("a permutation of the goal's tiles");
        }
        let mut tiles = goal.tiles().to_vec();
        tiles.shuffle(&mut self.rng);
        let mut b = Board::new(shape, tiles).expect("a permutation of the goal's tiles");
        if !b.is_solvable(goal).expect("same shape") {
            // Swapping two tiles flips parity: a bijection between the unsolvable and the solvable halves.
            b = other_parity(&b);
        }
        b
    }

    /// A board drawn uniformly from all boards of the pattern's shape from which some board matching `goal` can be
    /// reached: every board when the pattern leaves two tiles or more free (swapping two of them gives matching
    /// boards of both parities), else the half that can reach its matching boards. A pattern that leaves no choice
    /// ([`Pattern::board`]) draws as [`Scrambler::uniform`] does, from the same seed the same boards.
    ///
    /// ```
    /// use slide::{Pattern, Scrambler};
    /// let row = Pattern::parse("1 2 3/x x x/x x x").unwrap();
    /// let b = Scrambler::new(7).uniform_to(&row);
    /// assert!(row.completion(&b).is_some());
    /// ```
    pub fn uniform_to(&mut self, goal: &Pattern) -> Board {
        if let Some(g) = goal.board() {
            return self.uniform(&g);
        }
        let shape = goal.shape();
        let filled = goal.filled();
        if shape.is_line() {
            // Only the blank moves: a board reaches a matching board that keeps its tiles' order. Every order has
            // as many boards (one per cell of the blank), so a uniformly drawn order that some matching board
            // keeps, with the blank anywhere, is a uniform board.
            let tiles: Vec<Tile> = filled.tiles().iter().copied().filter(|&t| t != 0).collect();
            let with_blank = |order: &[Tile], at: usize| {
                let mut t = order.to_vec();
                t.insert(at, 0);
                Board::new(shape, t).expect("a permutation of the goal's tiles")
            };
            loop {
                let mut order = tiles.clone();
                order.shuffle(&mut self.rng);
                if (0..=order.len()).any(|at| goal.matches(&with_blank(&order, at))) {
                    let at = self.rng.random_range(0..=order.len());
                    return with_blank(&order, at);
                }
            }
        }
        let mut tiles = filled.tiles().to_vec();
        tiles.shuffle(&mut self.rng);
        let b = Board::new(shape, tiles).expect("a permutation of the goal's tiles");
        if goal.completion(&b).is_some() {
            return b;
        }
        // Swapping two tiles flips parity: a bijection between the boards that cannot reach a matching board and
        // those that can.
        other_parity(&b)
    }

    /// A board drawn uniformly from those matching `goal`: the values the pattern does not name shuffled over its
    /// `x` cells. A pattern that leaves no choice gives its board, drawing nothing (the walks that start from it
    /// are [`Scrambler::walk`]'s from the goal board, for the same seed).
    ///
    /// ```
    /// use slide::{Pattern, Scrambler};
    /// let row = Pattern::parse("1 2 3/x x x/x x x").unwrap();
    /// let mut s = Scrambler::new(3);
    /// let start = s.matching(&row);
    /// assert!(row.matches(&start));
    /// let b = s.walk(&start, 20);
    /// assert!(b.is_solvable(&start).unwrap());
    /// ```
    pub fn matching(&mut self, goal: &Pattern) -> Board {
        if let Some(g) = goal.board() {
            return g;
        }
        let filled = goal.filled();
        let free: Vec<usize> = (0..goal.cells().len())
            .filter(|&c| goal.cells()[c].is_none())
            .collect();
        let mut values: Vec<Tile> = free.iter().map(|&c| filled.tiles()[c]).collect();
        values.shuffle(&mut self.rng);
        let mut tiles = filled.tiles().to_vec();
        for (&c, v) in free.iter().zip(values) {
            tiles[c] = v;
        }
        Board::new(goal.shape(), tiles).expect("a permutation of the pattern's values")
    }

    /// The board reached from `goal` by `moves` random moves, never undoing the move just made (when another
    /// exists).
    pub fn walk(&mut self, goal: &Board, moves: u64) -> Board {
        self.walk_recording(goal, moves, None)
    }

    /// [`walk`](Scrambler::walk), with the tiles moved along the way (the same board for the same seed): playing
    /// them from `goal` gives the board.
    pub fn walk_with_tiles(&mut self, goal: &Board, moves: u64) -> (Board, Vec<Tile>) {
        let mut tiles = Vec::new();
        let b = self.walk_recording(goal, moves, Some(&mut tiles));
        (b, tiles)
    }

    fn walk_recording(
        &mut self,
        goal: &Board,
        moves: u64,
        mut record: Option<&mut Vec<Tile>>,
    ) -> Board {
        let mut b = goal.clone();
        let shape = b.shape();
        let mut prev: Option<usize> = None;
        for _ in 0..moves {
            let here = b.blank();
            let mut options = [0usize; 4];
            let mut k = 0;
            for c in shape.neighbors(here) {
                if Some(c) != prev {
                    options[k] = c;
                    k += 1;
                }
            }
            if k == 0 {
                options[0] = prev.expect("a cell has a neighbour");
                k = 1;
            }
            let c = options[self.rng.random_range(0..k)];
            let t = b.tiles()[c];
            b.apply(t).expect("a neighbour of the blank");
            if let Some(r) = record.as_deref_mut() {
                r.push(t);
            }
            prev = Some(here);
        }
        b
    }
}

/// `b` with two of its tiles swapped (the first two cells, or the last two when the blank is among the first):
/// the board of the other parity that uniform scrambles pair `b` with.
fn other_parity(b: &Board) -> Board {
    let mut tiles = b.tiles().to_vec();
    let (i, j) = if tiles[0] != 0 && tiles[1] != 0 {
        (0, 1)
    } else {
        (tiles.len() - 2, tiles.len() - 1)
    };
    tiles.swap(i, j);
    Board::new(b.shape(), tiles).expect("still a permutation")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;

    #[test]
    fn a_walk_with_its_tiles_is_the_same_walk() {
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let plain = Scrambler::new(3).walk(&goal, 40);
        let (b, tiles) = Scrambler::new(3).walk_with_tiles(&goal, 40);
        assert_eq!(b, plain);
        assert_eq!(tiles.len(), 40);
        let mut at = goal.clone();
        for &t in &tiles {
            at.apply(t).unwrap();
        }
        assert_eq!(at, b);
    }

    #[test]
    fn uniform_is_solvable_and_spread() {
        let goal = Board::goal(Shape::new(2, 2).unwrap());
        let mut s = Scrambler::new(1);
        let mut seen = std::collections::HashMap::new();
        for _ in 0..12_000 {
            let b = s.uniform(&goal);
            assert!(b.is_solvable(&goal).unwrap());
            *seen.entry(b).or_insert(0) += 1;
        }
        assert_eq!(seen.len(), 12);
        assert!(seen.values().all(|&c| (800..1200).contains(&c)), "{seen:?}");
    }

    #[test]
    fn lines_and_walks() {
        let goal = Board::goal(Shape::new(1, 5).unwrap());
        let mut s = Scrambler::new(2);
        for _ in 0..50 {
            assert!(s.uniform(&goal).is_solvable(&goal).unwrap());
            assert!(s.walk(&goal, 7).is_solvable(&goal).unwrap());
        }
        let g = Board::goal(Shape::new(3, 3).unwrap());
        assert_ne!(s.walk(&g, 1), g);
    }

    #[test]
    fn uniform_to_a_pattern_reaches_it_and_spreads() {
        // 2 x 2 with the blank and one tile free: two matching boards, of the same class here or not.
        for text in ["1 x/x 3", "1 2/x x", "x 2/3 x"] {
            let p: Pattern = text.parse().unwrap();
            let goal = Board::goal(p.shape());
            let mut s = Scrambler::new(5);
            let mut seen = std::collections::HashMap::new();
            for _ in 0..6_000 {
                let b = s.uniform_to(&p);
                assert!(p.completion(&b).is_some(), "{text}: {b}");
                *seen.entry(b).or_insert(0) += 1;
            }
            // Every board that can reach a matching board, equally often.
            let reachable = crate::scramble::tests::all_boards(&goal)
                .into_iter()
                .filter(|b| p.completion(b).is_some())
                .count();
            assert_eq!(seen.len(), reachable, "{text}");
            let mean = 6_000 / reachable;
            assert!(
                seen.values()
                    .all(|&c| c * 10 > mean * 7 && c * 10 < mean * 13),
                "{text}: {seen:?}"
            );
            let m = s.matching(&p);
            assert!(p.matches(&m));
        }
        // A single row: the named tiles keep their order.
        let p: Pattern = "[[2,x,x,x]]".parse().unwrap();
        let mut s = Scrambler::new(9);
        for _ in 0..50 {
            let b = s.uniform_to(&p);
            let order: Vec<Tile> = b.tiles().iter().copied().filter(|&t| t != 0).collect();
            assert_eq!(order[0], 2, "{b}");
        }
    }

    /// Every arrangement of `goal`'s values on its shape.
    fn all_boards(goal: &Board) -> Vec<Board> {
        fn perms(v: &mut Vec<Tile>, k: usize, out: &mut Vec<Vec<Tile>>) {
            if k == v.len() {
                out.push(v.clone());
                return;
            }
            for i in k..v.len() {
                v.swap(k, i);
                perms(v, k + 1, out);
                v.swap(k, i);
            }
        }
        let mut out = Vec::new();
        perms(&mut goal.tiles().to_vec(), 0, &mut out);
        out.into_iter()
            .map(|t| Board::new(goal.shape(), t).unwrap())
            .collect()
    }
}
