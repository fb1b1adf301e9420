//! Board dimensions: [`Shape`], checked on construction, and the cell arithmetic every layer uses.
use std::fmt;

use crate::error::{Error, ParseError, Result};

/// The most cells a board may have (2048 × 2048). Parsing, parity and the fast solver work up to this size.
pub const MAX_CELLS: usize = 1 << 22;

/// A board's dimensions: `rows` × `cols`, at least two cells, at most [`MAX_CELLS`].
///
/// ```
/// let s: slide::Shape = "3x4".parse().unwrap();
/// assert_eq!((s.rows(), s.cols(), s.cells()), (3, 4, 12));
/// assert!(slide::Shape::new(0, 5).is_err());
/// assert_eq!(s.to_string(), "3x4");
/// ```
///
/// The fields are private: every `Shape` has passed [`Shape::new`]'s checks (also when read by serde).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(try_from = "RawShape")]
pub struct Shape {
    rows: usize,
    cols: usize,
}

/// A shape as serde reads it, before [`Shape::new`]'s checks.
#[derive(serde::Deserialize)]
struct RawShape {
    rows: usize,
    cols: usize,
}

impl TryFrom<RawShape> for Shape {
    type Error = Error;
    fn try_from(r: RawShape) -> Result<Shape> {
        Shape::new(r.rows, r.cols)
    }
}

impl Shape {
    /// A shape of `rows` × `cols`; errors when it has fewer than two cells or more than [`MAX_CELLS`].
    pub fn new(rows: usize, cols: usize) -> Result<Shape> {
        let cells = rows as u128 * cols as u128;
        if rows == 0 || cols == 0 || cells < 2 {
            return Err(Error::Parse(ParseError::BadShape {
                text: format!("{rows}x{cols}"),
                reason: "a board needs at least two cells".into(),
            }));
        }
        if cells > MAX_CELLS as u128 {
            return Err(Error::Parse(ParseError::TooLarge {
                cells,
                max: MAX_CELLS,
            }));
        }
        Ok(Shape { rows, cols })
    }

    /// A shape known to be valid (at least two cells, at most [`MAX_CELLS`]), for the library's own constants.
    #[inline]
    pub(crate) const fn new_unchecked(rows: usize, cols: usize) -> Shape {
        debug_assert!(rows * cols >= 2 && rows * cols <= MAX_CELLS);
        Shape { rows, cols }
    }

    /// Number of rows.
    #[inline]
    pub fn rows(self) -> usize {
        self.rows
    }

    /// Number of columns.
    #[inline]
    pub fn cols(self) -> usize {
        self.cols
    }

    /// Number of cells.
    #[inline]
    pub fn cells(self) -> usize {
        self.rows * self.cols
    }

    /// The shape with rows and columns swapped.
    pub fn transposed(self) -> Shape {
        Shape {
            rows: self.cols,
            cols: self.rows,
        }
    }

    /// Row and column of a cell (row-major index).
    #[inline]
    pub fn coords(self, cell: usize) -> (usize, usize) {
        (cell / self.cols, cell % self.cols)
    }

    /// Taxicab distance between two cells.
    #[inline]
    pub fn manhattan(self, a: usize, b: usize) -> usize {
        let (ar, ac) = self.coords(a);
        let (br, bc) = self.coords(b);
        ar.abs_diff(br) + ac.abs_diff(bc)
    }

    /// The cells orthogonally next to `cell`, in the order up, down, left, right.
    pub fn neighbors(self, cell: usize) -> impl Iterator<Item = usize> {
        let (r, c) = self.coords(cell);
        let cols = self.cols;
        [
            (r > 0).then(|| cell - cols),
            (r + 1 < self.rows).then(|| cell + cols),
            (c > 0).then(|| cell - 1),
            (c + 1 < cols).then(|| cell + 1),
        ]
        .into_iter()
        .flatten()
    }

    /// For each cell (of a board of at most 256 cells), its neighbours as in [`Shape::neighbors`] packed in an
    /// array, and how many there are: the form the search loops read.
    pub fn neighbor_table(self) -> (Vec<[u8; 4]>, Vec<u8>) {
        let n = self.cells();
        let mut neighbors = vec![[0u8; 4]; n];
        let mut degree = vec![0u8; n];
        for c in 0..n {
            for (k, nb) in self.neighbors(c).enumerate() {
                neighbors[c][k] = nb as u8;
                degree[c] = k as u8 + 1;
            }
        }
        (neighbors, degree)
    }

    /// True when only the blank can move (one row or one column).
    pub fn is_line(self) -> bool {
        self.rows == 1 || self.cols == 1
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl std::str::FromStr for Shape {
    type Err = Error;
    /// Reads `RxC` (also `R×C`, `RXC`, `R*C`).
    fn from_str(text: &str) -> Result<Shape> {
        let bad = |reason: &str| {
            Error::Parse(ParseError::BadShape {
                text: text.chars().take(40).collect(),
                reason: reason.into(),
            })
        };
        let t = text.trim();
        let mut parts = t.split(['x', 'X', '×', '*']);
        let (Some(r), Some(c), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad("expected ROWSxCOLS, for example 3x4"));
        };
        let num = |s: &str| -> Result<usize> {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad("rows and columns must be whole numbers"));
            }
            s.parse::<usize>().map_err(|_| {
                Error::Parse(ParseError::TooLarge {
                    cells: u128::MAX,
                    max: MAX_CELLS,
                })
            })
        };
        Shape::new(num(r)?, num(c)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Serde goes through the checks: a JSON `{"rows": 0, "cols": 0}` is an error, not a shape whose goal underflows.
    #[test]
    fn deserialising_checks_the_shape() {
        let ok: Shape = serde_json::from_str(r#"{"rows": 2, "cols": 3}"#).unwrap();
        assert_eq!(ok, Shape::new(2, 3).unwrap());
        for bad in [
            r#"{"rows": 0, "cols": 0}"#,
            r#"{"rows": 1, "cols": 1}"#,
            r#"{"rows": 4096, "cols": 4096}"#,
        ] {
            let e = serde_json::from_str::<Shape>(bad).unwrap_err().to_string();
            assert!(
                e.contains("at least two cells") || e.contains("too large"),
                "{bad}: {e}"
            );
        }
    }
}
