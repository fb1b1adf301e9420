//! The board model: shapes, boards of any size, goals, moves and the O(cells) solvability test.

mod cells;
pub mod frame;
pub mod notation;
pub mod parse;
mod pattern;
mod shape;

pub use cells::{Cell, CellProblem};
pub use pattern::Pattern;
pub use shape::{Shape, MAX_CELLS};
use std::fmt;

use crate::error::{Error, ParseError, Result, SolveError};

/// A tile number; `0` is the blank.
pub type Tile = u32;

/// Which way the blank moves: a move reported as a tile `t` moves the blank onto `t`'s cell.
///
/// `Up` means the tile above the blank slides down into it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// The blank moves up.
    Up,
    /// The blank moves down.
    Down,
    /// The blank moves left.
    Left,
    /// The blank moves right.
    Right,
}

impl Direction {
    /// The letter `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Direction::Up => 'U',
            Direction::Down => 'D',
            Direction::Left => 'L',
            Direction::Right => 'R',
        }
    }

    /// The direction that undoes this one.
    pub fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
        }
    }
}

/// A board: `shape.cells()` tiles in row-major order, each of `0..cells` exactly once, `0` the blank.
///
/// ```
/// use slide::Board;
/// let b = Board::parse("[[1,2,3],[4,0,5]]").unwrap();
/// assert_eq!(b.to_string(), "[[1,2,3],[4,0,5]]");
/// assert!(b.is_solvable(&Board::goal(b.shape())).unwrap());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    shape: Shape,
    tiles: Vec<Tile>,
    blank: usize,
}

impl Board {
    /// A board from row-major tiles; checks that they are `0..cells`, each once (the one validator,
    /// [`Board::parse`]'s too).
    pub fn new(shape: Shape, tiles: Vec<Tile>) -> Result<Board> {
        let vals: Vec<i64> = tiles.iter().map(|&t| i64::from(t)).collect();
        parse::validate(shape, &vals)
    }

    /// A board from tiles already checked to be `0..cells` each once, with the blank on `blank`.
    pub(crate) fn from_checked(shape: Shape, tiles: Vec<Tile>, blank: usize) -> Board {
        debug_assert_eq!(tiles[blank], 0);
        Board {
            shape,
            tiles,
            blank,
        }
    }

    /// True when this is the default goal of its shape (tiles in order, blank last).
    pub fn is_default_goal(&self) -> bool {
        let n = self.tiles.len();
        self.blank == n - 1
            && self.tiles[..n - 1]
                .iter()
                .enumerate()
                .all(|(i, &t)| t as usize == i + 1)
    }

    /// A board from rows of numbers, as in the LeetCode signature. Rows must have equal lengths.
    ///
    /// ```
    /// let b = slide::Board::from_rows(&[vec![4, 1, 2], vec![5, 0, 3]]).unwrap();
    /// assert_eq!(b.shape().to_string(), "2x3");
    /// ```
    pub fn from_rows<T: Copy + Into<i64>>(rows: &[Vec<T>]) -> Result<Board> {
        if rows.is_empty() || rows.iter().all(|r| r.is_empty()) {
            return Err(Error::Parse(ParseError::Empty));
        }
        let cols = rows[0].len();
        for (i, r) in rows.iter().enumerate() {
            if r.len() != cols {
                return Err(Error::Parse(ParseError::Ragged {
                    row: i + 1,
                    expected: cols,
                    found: r.len(),
                }));
            }
        }
        let shape = Shape::new(rows.len(), cols)?;
        let vals: Vec<i64> = rows.iter().flatten().map(|&v| v.into()).collect();
        parse::validate(shape, &vals)
    }

    /// The default goal of a shape: tiles `1..cells` in reading order, the blank last.
    ///
    /// ```
    /// let g = slide::Board::goal("2x3".parse().unwrap());
    /// assert_eq!(g.to_string(), "[[1,2,3],[4,5,0]]");
    /// ```
    pub fn goal(shape: Shape) -> Board {
        let n = shape.cells();
        let mut tiles: Vec<Tile> = (1..n as Tile).collect();
        tiles.push(0);
        Board {
            shape,
            tiles,
            blank: n - 1,
        }
    }

    /// The goal with the blank first, `0 1 2 …`, as in Korf's benchmark files.
    pub fn goal_blank_first(shape: Shape) -> Board {
        Board {
            shape,
            tiles: (0..shape.cells() as Tile).collect(),
            blank: 0,
        }
    }

    /// The board's shape.
    #[inline]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The tiles in row-major order.
    #[inline]
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The blank's cell (row-major index).
    #[inline]
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// The tiles as rows.
    pub fn rows(&self) -> Vec<Vec<Tile>> {
        self.tiles
            .chunks(self.shape.cols())
            .map(|r| r.to_vec())
            .collect()
    }

    /// For each tile, its cell.
    pub fn positions(&self) -> Vec<usize> {
        let mut pos = vec![0; self.tiles.len()];
        for (cell, &t) in self.tiles.iter().enumerate() {
            pos[t as usize] = cell;
        }
        pos
    }

    /// Which way the blank moves when `tile` slides into it, or `None` if `tile` is not next to the blank.
    pub fn direction_of(&self, tile: Tile) -> Option<Direction> {
        let cell = self.tiles.iter().position(|&t| t == tile && t != 0)?;
        let (br, bc) = self.shape.coords(self.blank);
        let (r, c) = self.shape.coords(cell);
        match (r as isize - br as isize, c as isize - bc as isize) {
            (-1, 0) => Some(Direction::Up),
            (1, 0) => Some(Direction::Down),
            (0, -1) => Some(Direction::Left),
            (0, 1) => Some(Direction::Right),
            _ => None,
        }
    }

    /// Slides `tile` into the blank. Errors, leaving the board as it was, when the tile is not next to the blank.
    ///
    /// ```
    /// let mut b = slide::Board::parse("1 2 3/4 0 5").unwrap();
    /// b.apply(5).unwrap();
    /// assert_eq!(b, slide::Board::goal(b.shape()));
    /// assert!(b.apply(1).is_err());
    /// ```
    pub fn apply(&mut self, tile: Tile) -> Result<()> {
        let cell = self
            .shape
            .neighbors(self.blank)
            .find(|&c| self.tiles[c] == tile && tile != 0)
            .ok_or(Error::Parse(ParseError::IllegalMove { tile: tile as u64 }))?;
        self.tiles.swap(cell, self.blank);
        self.blank = cell;
        Ok(())
    }

    /// Moves the blank in a direction, returning the tile that moved, or `None` at the edge.
    pub fn apply_direction(&mut self, d: Direction) -> Option<Tile> {
        let (r, c) = self.shape.coords(self.blank);
        let cell = match d {
            Direction::Up if r > 0 => self.blank - self.shape.cols(),
            Direction::Down if r + 1 < self.shape.rows() => self.blank + self.shape.cols(),
            Direction::Left if c > 0 => self.blank - 1,
            Direction::Right if c + 1 < self.shape.cols() => self.blank + 1,
            _ => return None,
        };
        let t = self.tiles[cell];
        self.tiles.swap(cell, self.blank);
        self.blank = cell;
        Some(t)
    }

    /// The tiles that one multi-tile move (a push) slides when `tile` is pushed toward the blank, nearest the blank
    /// first and `tile` last; `None` when `tile` is not on the blank's row or column (or is the blank).
    ///
    /// ```
    /// let b = slide::Board::parse("1 2 3/0 4 5").unwrap();
    /// assert_eq!(b.push_tiles(5), Some(vec![4, 5]));
    /// assert_eq!(b.push_tiles(2), None);
    /// ```
    pub fn push_tiles(&self, tile: Tile) -> Option<Vec<Tile>> {
        let cell = self.tiles.iter().position(|&t| t == tile && t != 0)?;
        let (br, bc) = self.shape.coords(self.blank);
        let (r, c) = self.shape.coords(cell);
        let cols = self.shape.cols();
        let cells: Vec<usize> = if r == br {
            if c > bc {
                (bc + 1..=c).map(|x| r * cols + x).collect()
            } else {
                (c..bc).rev().map(|x| r * cols + x).collect()
            }
        } else if c == bc {
            if r > br {
                (br + 1..=r).map(|y| y * cols + c).collect()
            } else {
                (r..br).rev().map(|y| y * cols + c).collect()
            }
        } else {
            return None;
        };
        Some(cells.into_iter().map(|x| self.tiles[x]).collect())
    }

    /// The sum over tiles of their taxicab distance to their cells in `goal`: a lower bound on the number of moves,
    /// for boards of any size, in O(cells).
    ///
    /// ```
    /// let b = slide::Board::parse("4 1 2/5 0 3").unwrap();
    /// assert_eq!(b.manhattan_to(&slide::Board::goal(b.shape())).unwrap(), 5);
    /// ```
    pub fn manhattan_to(&self, goal: &Board) -> Result<u64> {
        if goal.shape != self.shape {
            return Err(Error::Solve(SolveError::ShapeMismatch {
                board: self.shape,
                goal: goal.shape,
            }));
        }
        let goal_pos = goal.positions();
        Ok(self
            .tiles
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .map(|(cell, &t)| self.shape.manhattan(cell, goal_pos[t as usize]) as u64)
            .sum())
    }

    /// Whether `goal` can be reached from this board, in O(cells).
    ///
    /// With at least two rows and two columns the rule is parity: the permutation taking this board to the goal and
    /// the blank's taxicab distance to its goal cell must be both even or both odd. On a single row or column only
    /// the blank moves, so the other tiles must already stand in the goal's order.
    pub fn is_solvable(&self, goal: &Board) -> Result<bool> {
        if goal.shape != self.shape {
            return Err(Error::Solve(SolveError::ShapeMismatch {
                board: self.shape,
                goal: goal.shape,
            }));
        }
        Ok(solvability(self, goal).is_none())
    }

    /// Why `goal` cannot be reached from this board, or `None` when it can. Panics never; errors on shape mismatch.
    pub fn unsolvable_reason(&self, goal: &Board) -> Result<Option<String>> {
        if goal.shape != self.shape {
            return Err(Error::Solve(SolveError::ShapeMismatch {
                board: self.shape,
                goal: goal.shape,
            }));
        }
        Ok(solvability(self, goal))
    }
}

fn solvability(board: &Board, goal: &Board) -> Option<String> {
    let shape = board.shape;
    if shape.is_line() {
        let a = board.tiles.iter().filter(|&&t| t != 0);
        let b = goal.tiles.iter().filter(|&&t| t != 0);
        return if a.eq(b) {
            None
        } else {
            Some("on a single row or column only the blank moves, and the other tiles are not in the goal's order".into())
        };
    }
    // Parity of the permutation mapping each cell of the board to the goal cell of the same tile.
    let goal_pos = goal.positions();
    let n = board.tiles.len();
    let mut seen = vec![false; n];
    let mut cycles = 0usize;
    for start in 0..n {
        if seen[start] {
            continue;
        }
        cycles += 1;
        let mut c = start;
        while !seen[c] {
            seen[c] = true;
            c = goal_pos[board.tiles[c] as usize];
        }
    }
    let perm_odd = (n - cycles) % 2 == 1;
    let dist = shape.manhattan(board.blank, goal.blank);
    if perm_odd == (dist % 2 == 1) {
        None
    } else {
        Some(format!(
            "parity: the tiles are an {} permutation of the goal but the blank is {} moves from its goal cell, an {} number",
            if perm_odd { "odd" } else { "even" },
            dist,
            if dist % 2 == 1 { "odd" } else { "even" }
        ))
    }
}

impl fmt::Display for Board {
    /// JSON rows, as `[[1,2,3],[4,0,5]]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, row) in self.tiles.chunks(self.shape.cols()).enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str("[")?;
            for (j, t) in row.iter().enumerate() {
                if j > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{t}")?;
            }
            f.write_str("]")?;
        }
        f.write_str("]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_parse_and_errors() {
        assert_eq!("2x3".parse::<Shape>().unwrap(), Shape::new(2, 3).unwrap());
        assert!("1x1".parse::<Shape>().is_err());
        assert!("0x5".parse::<Shape>().is_err());
        assert!("3".parse::<Shape>().is_err());
        assert!("axb".parse::<Shape>().is_err());
        assert!(matches!(
            "5000x5000".parse::<Shape>(),
            Err(Error::Parse(ParseError::TooLarge { .. }))
        ));
        assert!(matches!(
            "99999999999999999999999x2".parse::<Shape>(),
            Err(Error::Parse(ParseError::TooLarge { .. }))
        ));
    }

    #[test]
    fn new_rejects_bad_tiles() {
        let s = Shape::new(2, 2).unwrap();
        assert!(matches!(
            Board::new(s, vec![0, 1, 2]),
            Err(Error::Parse(ParseError::WrongCount { .. }))
        ));
        assert!(matches!(
            Board::new(s, vec![0, 1, 2, 4]),
            Err(Error::Parse(ParseError::OutOfRange { value: 4, .. }))
        ));
        assert_eq!(
            Board::new(s, vec![0, 1, 1, 3]),
            Err(Error::Parse(ParseError::Duplicate {
                value: 1,
                first: 2,
                second: 3
            }))
        );
    }

    #[test]
    fn parity_examples() {
        let g = Board::goal(Shape::new(2, 3).unwrap());
        let b = Board::from_rows(&[vec![1, 2, 3], vec![5, 4, 0]]).unwrap();
        assert!(!b.is_solvable(&g).unwrap());
        assert!(b
            .unsolvable_reason(&g)
            .unwrap()
            .unwrap()
            .starts_with("parity"));
        let b = Board::from_rows(&[vec![4, 1, 2], vec![5, 0, 3]]).unwrap();
        assert!(b.is_solvable(&g).unwrap());
    }

    #[test]
    fn moves_and_directions() {
        let mut b = Board::from_rows(&[vec![1, 2, 3], vec![4, 0, 5]]).unwrap();
        assert_eq!(b.direction_of(5), Some(Direction::Right));
        assert_eq!(b.direction_of(2), Some(Direction::Up));
        assert_eq!(b.direction_of(1), None);
        assert_eq!(b.apply_direction(Direction::Left), Some(4));
        assert_eq!(b.apply_direction(Direction::Left), None);
        assert!(b.apply(0).is_err());
    }
}
