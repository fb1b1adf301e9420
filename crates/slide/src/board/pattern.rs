//! Goal patterns: boards whose cells may be `x` (any tile), the targets of partial goals.
//!
//! A pattern fixes some tiles on their cells and leaves the other cells free (`x`). The blank is fixed when the
//! pattern has a `0`, and free (on any `x` cell) otherwise. A board matches when every fixed tile (and the blank,
//! if fixed) stands on its cell. A pattern without `x` is an ordinary goal board ([`Pattern::board`]).
//!
//! Parity: a full goal is reachable from only half the boards, but a pattern whose `x` cells hold at least two
//! tiles (besides the blank) has matching boards of both parities — swap two of those tiles — so it is reachable
//! from every board of its shape: the free tiles absorb the parity. A pattern leaving a single choice is a board.
//! (The one case in between, a free blank and one free tile, has two matching boards; whether they differ in parity
//! depends on the two cells, and the exact search says so: an unreachable pattern answers -1.)

use std::fmt;

use crate::board::{parse, Board, Shape, Tile};
use crate::error::{Error, Result};

/// A goal pattern: for each cell, the tile that must stand there (`Some(0)`: the blank) or `None` (`x`, any).
///
/// ```
/// use slide::{Board, Pattern};
/// let p = Pattern::parse("1 2 3/x x x/x x x").unwrap();
/// assert_eq!(p.any_count(), 6);
/// assert_eq!(p.blank(), None);
/// assert!(p.matches(&Board::parse("1 2 3/0 5 4/8 7 6").unwrap()));
/// assert_eq!(p.to_string(), "1 2 3/x x x/x x x");
/// let e = Pattern::parse("1 2 3/x x x/x x").unwrap_err().to_string();
/// assert!(e.contains("ragged"), "{e}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pattern {
    shape: Shape,
    cells: Vec<Option<Tile>>,
}

impl Pattern {
    /// Reads a pattern in any board format ([`Board::parse`]) whose cells may also be `x`.
    pub fn parse(text: &str) -> Result<Pattern> {
        parse::parse_pattern(text, None)
    }

    /// Reads a pattern, taking `shape` for flat lists and checking it against rows ([`Board::parse_with_shape`]).
    ///
    /// ```
    /// use slide::{Error, ParseError, Pattern};
    /// let s = "4x4".parse().unwrap();
    /// let e = Pattern::parse_with_shape("1 2 3 4 x x x x x x x x x x x", Some(s)).unwrap_err();
    /// assert!(matches!(e, Error::Parse(ParseError::PatternCount { expected: 16, found: 15, .. })));
    /// assert!(e.to_string().contains("needs 12 x"), "{e}");
    /// ```
    pub fn parse_with_shape(text: &str, shape: Option<Shape>) -> Result<Pattern> {
        parse::parse_pattern(text, shape)
    }

    /// A pattern from cells already checked by the pattern validator.
    pub(crate) fn from_checked(shape: Shape, cells: Vec<Option<Tile>>) -> Pattern {
        Pattern { shape, cells }
    }

    /// The pattern that only `board` matches.
    pub fn from_board(board: &Board) -> Pattern {
        Pattern {
            shape: board.shape(),
            cells: board.tiles().iter().map(|&t| Some(t)).collect(),
        }
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// For each cell in reading order, the tile fixed there (`Some(0)` the blank) or `None` (`x`).
    pub fn cells(&self) -> &[Option<Tile>] {
        &self.cells
    }

    /// The number of `x` cells.
    pub fn any_count(&self) -> usize {
        self.cells.iter().filter(|c| c.is_none()).count()
    }

    /// The blank's cell when the pattern fixes it (has a `0`).
    pub fn blank(&self) -> Option<usize> {
        self.cells.iter().position(|&c| c == Some(0))
    }

    /// The fixed tiles other than the blank, as `(cell, tile)` in reading order.
    pub fn fixed_tiles(&self) -> Vec<(usize, Tile)> {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(cell, &t)| t.filter(|&t| t != 0).map(|t| (cell, t)))
            .collect()
    }

    /// True when `board` (of the same shape) matches: every fixed tile, and the blank if fixed, on its cell.
    pub fn matches(&self, board: &Board) -> bool {
        board.shape() == self.shape
            && self
                .cells
                .iter()
                .zip(board.tiles())
                .all(|(c, &t)| c.is_none_or(|c| c == t))
    }

    /// The one board that matches when the pattern leaves no choice (no `x`, or a single `x`: it holds the one
    /// value the pattern does not name), else `None`: a partial goal.
    ///
    /// ```
    /// use slide::{Board, Pattern};
    /// let p = Pattern::parse("1 2 3/4 5 6/7 8 x").unwrap();
    /// assert_eq!(p.board(), Some(Board::goal("3x3".parse().unwrap())));
    /// assert_eq!(Pattern::parse("1 2 3/4 5 6/7 x x").unwrap().board(), None);
    /// ```
    pub fn board(&self) -> Option<Board> {
        let n = self.cells.len();
        match self.any_count() {
            0 | 1 => {
                let mut named = vec![false; n];
                for t in self.cells.iter().flatten() {
                    named[*t as usize] = true;
                }
                let missing = named.iter().position(|&b| !b).unwrap_or(0) as Tile;
                let tiles = self.cells.iter().map(|c| c.unwrap_or(missing)).collect();
                Board::new(self.shape, tiles).ok()
            }
            _ => None,
        }
    }
}

impl Pattern {
    /// A board that matches: the `x` cells take the values the pattern does not name, in ascending order in
    /// reading order, the blank (when the pattern leaves it free) last.
    ///
    /// ```
    /// use slide::Pattern;
    /// let p = Pattern::parse("1 2 3/x x x/x x x").unwrap();
    /// assert_eq!(p.filled().to_string(), "[[1,2,3],[4,5,6],[7,8,0]]");
    /// ```
    pub fn filled(&self) -> Board {
        let n = self.cells.len();
        let mut named = vec![false; n];
        for &t in self.cells.iter().flatten() {
            named[t as usize] = true;
        }
        let mut free: Vec<Tile> = (1..n).filter(|&t| !named[t]).map(|t| t as Tile).collect();
        if !named[0] {
            free.push(0);
        }
        let mut free = free.into_iter();
        let tiles = self
            .cells
            .iter()
            .map(|c| c.unwrap_or_else(|| free.next().unwrap_or(0)))
            .collect();
        Board::new(self.shape, tiles).expect("a pattern's values and its x make a permutation")
    }

    /// A board that matches and that `board` can reach, when there is one: [`Pattern::filled`], or it with two
    /// `x` cells swapped (two free tiles, else the free tile and the free blank), which has the other parity.
    /// `None` when neither is reachable (a free blank and one free tile whose two boards share the unreachable
    /// parity), or on a single row or column, where the order of the tiles never changes, when the two boards keep
    /// another order.
    ///
    /// ```
    /// use slide::{Board, Pattern};
    /// let p = Pattern::parse("1 2 3/x x x/x x x").unwrap();
    /// let b = Board::parse("1 2 3/4 5 6/8 7 0").unwrap(); // the goal's other parity
    /// let c = p.completion(&b).unwrap();
    /// assert!(p.matches(&c) && b.is_solvable(&c).unwrap());
    /// ```
    pub fn completion(&self, board: &Board) -> Option<Board> {
        if board.shape() != self.shape {
            return None;
        }
        let g = self.filled();
        if board.is_solvable(&g).unwrap_or(false) {
            return Some(g);
        }
        let free: Vec<usize> = (0..self.cells.len())
            .filter(|&c| self.cells[c].is_none())
            .collect();
        let tiles_of = g.tiles();
        let tiles: Vec<usize> = free.iter().copied().filter(|&c| tiles_of[c] != 0).collect();
        let (i, j) = match (tiles.as_slice(), free.as_slice()) {
            ([i, j, ..], _) | (_, [i, j, ..]) => (*i, *j),
            _ => return None,
        };
        let mut tiles = tiles_of.to_vec();
        tiles.swap(i, j);
        let h = Board::new(self.shape, tiles).ok()?;
        board.is_solvable(&h).unwrap_or(false).then_some(h)
    }
}

impl fmt::Display for Pattern {
    /// Rows separated by `/`, cells by spaces, `x` for any tile: `1 2 3/x x x/x x 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.cells.iter().enumerate() {
            if i > 0 {
                f.write_str(if i % self.shape.cols() == 0 { "/" } else { " " })?;
            }
            match c {
                Some(t) => write!(f, "{t}")?,
                None => f.write_str("x")?,
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for Pattern {
    type Err = Error;
    fn from_str(s: &str) -> Result<Pattern> {
        Pattern::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseError;

    fn err(s: &str) -> Error {
        Pattern::parse(s).unwrap_err()
    }

    #[test]
    fn errors_name_the_problem() {
        // A tile twice, with the cells named.
        assert_eq!(
            err("1 2 1/x x x/x x x"),
            Error::Parse(ParseError::Duplicate {
                value: 1,
                first: 1,
                second: 3
            })
        );
        // The wrong number of x for the shape given.
        let s: Shape = "3x3".parse().unwrap();
        let e = Pattern::parse_with_shape("1 2 3 x x x x x", Some(s)).unwrap_err();
        assert_eq!(
            e,
            Error::Parse(ParseError::PatternCount {
                shape: s,
                expected: 9,
                found: 8,
                fixed: 3,
                any: 5
            })
        );
        assert!(e.to_string().contains("needs 6 x"), "{e}");
        let e = Pattern::parse_with_shape("1 2 3/x x x/x x x/x x x", Some(s)).unwrap_err();
        assert!(
            matches!(e, Error::Parse(ParseError::PatternCount { found: 12, .. })),
            "{e}"
        );
        // Unknown symbols, with their column.
        assert_eq!(
            err("1 2 3/x y x/x x x"),
            Error::Parse(ParseError::PatternSymbol {
                token: "y".into(),
                column: 9
            })
        );
        assert!(matches!(
            err("1 2 3/x xx x/x x x"),
            Error::Parse(ParseError::PatternSymbol { .. })
        ));
        assert!(matches!(
            err("1 2 ?/x x x/x x x"),
            Error::Parse(ParseError::PatternSymbol { .. })
        ));
        // Out of range.
        assert!(matches!(
            err("1 2 9/x x x/x x x"),
            Error::Parse(ParseError::OutOfRange { value: 9, .. })
        ));
        // No cell for the blank: no board matches.
        let e = err("1 2 3/4 5 6/7 8 9");
        assert!(
            matches!(e, Error::Parse(ParseError::PatternUnmatchable { .. })),
            "{e}"
        );
        assert!(e.to_string().contains("no 0 and no x"), "{e}");
        // Ragged rows as for boards.
        assert!(matches!(
            err("1 2 3/x x/x x x"),
            Error::Parse(ParseError::Ragged { .. })
        ));
    }

    #[test]
    fn formats_and_fields() {
        let p = Pattern::parse("[[1,x,X],[x,0,x]]").unwrap();
        assert_eq!(p.to_string(), "1 x x/x 0 x");
        assert_eq!(p.blank(), Some(4));
        assert_eq!(p.fixed_tiles(), vec![(0, 1)]);
        assert_eq!(p, Pattern::parse("1,x,x/x,0,x").unwrap());
        let s: Shape = "2x3".parse().unwrap();
        assert_eq!(
            p,
            Pattern::parse_with_shape("1 x x x 0 x", Some(s)).unwrap()
        );
        // No x: a board.
        let b = Board::parse("1 2 3/4 0 5").unwrap();
        assert_eq!(
            Pattern::parse("1 2 3/4 0 5").unwrap(),
            Pattern::from_board(&b)
        );
        assert_eq!(Pattern::from_board(&b).board(), Some(b.clone()));
        // One x and a fixed blank: the missing tile; one x and no blank: the blank.
        assert_eq!(Pattern::parse("1 2 3/4 0 x").unwrap().board(), Some(b));
        assert_eq!(
            Pattern::parse("1 2 3/4 5 x").unwrap().board(),
            Some(Board::goal(s))
        );
        assert!(Pattern::parse("x x x/x x x")
            .unwrap()
            .matches(&Board::goal(s)));
    }
}
