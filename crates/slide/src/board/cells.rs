//! Boards from values that are already cells (JSON arrays, Python lists): [`Board::from_cells`], the one builder
//! that every face reading structured values calls, with errors that name the row and the column.

use super::{parse, Board, Shape, MAX_CELLS};
use crate::error::{Error, ParseError, Result};

/// One value given for a cell of a board, or a row of them, as a face read it from structured data.
///
/// A face turns its own values into these (a JSON number, a Python `int`, a list…) and [`Board::from_cells`]
/// decides everything else, so that the same value gets the same error through every face.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// A whole number; a negative one is out of range, as in text.
    Whole(i64),
    /// A whole number beyond 64 bits.
    TooLarge,
    /// A number that is not whole, as written (`1.0`, `0.5`).
    Fraction(String),
    /// A list: a row at the top level, a misplaced list inside a row.
    List(Vec<Cell>),
    /// Anything else, said in words: `a string`, `a boolean`, `null`, `an object`.
    Other(String),
}

impl Cell {
    /// What the value is, in words, for a message.
    fn kind(&self) -> String {
        match self {
            Cell::Whole(_) | Cell::TooLarge | Cell::Fraction(_) => "a number".into(),
            Cell::List(_) => "a list".into(),
            Cell::Other(kind) => kind.clone(),
        }
    }
}

/// What is wrong with one cell of a board given as values ([`ParseError::BadCell`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CellProblem {
    /// Not a number: what it is, in words.
    #[error("{0} is not a number")]
    NotANumber(String),
    /// A number that is not whole, as written.
    #[error("{0} is not a whole number")]
    NotWhole(String),
    /// A whole number beyond 64 bits.
    #[error("the number is too large to be a tile")]
    TooLarge,
}

impl Board {
    /// A board from values that are already cells: rows (lists of numbers of equal length), or a flat list of
    /// numbers whose shape is `shape` or, without one, a square. Row and column (from 1) name a cell that is not a
    /// whole number ([`ParseError::BadCell`]) and a row that is not a list ([`ParseError::RowNotAList`]); the
    /// numbers are then checked as every board's are (ragged rows, duplicates, a blank, the range), with the same
    /// errors as text.
    ///
    /// ```
    /// use slide::{Board, Cell};
    /// let row = |cells: &[Cell]| Cell::List(cells.to_vec());
    /// let rows = [row(&[Cell::Whole(1), Cell::Whole(2)]), row(&[Cell::Whole(3), Cell::Whole(0)])];
    /// assert_eq!(Board::from_cells(&rows, None)?.to_string(), "[[1,2],[3,0]]");
    /// let bad = [row(&[Cell::Fraction("1.0".into()), Cell::Whole(2)]), row(&[Cell::Whole(3), Cell::Whole(0)])];
    /// let e = Board::from_cells(&bad, None).unwrap_err();
    /// assert_eq!(e.to_string(), "row 1, column 1: 1.0 is not a whole number");
    /// let flat: Vec<Cell> = [1, 2, 3, 0, 4].into_iter().map(Cell::Whole).collect();
    /// let e = Board::from_cells(&flat, None).unwrap_err();
    /// assert!(e.to_string().starts_with("cannot tell the shape of a flat list of 5 numbers"));
    /// # Ok::<(), slide::Error>(())
    /// ```
    pub fn from_cells(items: &[Cell], shape: Option<Shape>) -> Result<Board> {
        let Some(first) = items.first() else {
            return Err(Error::Parse(ParseError::Empty));
        };
        if !matches!(first, Cell::List(_)) {
            // A flat list: its shape is given, or a square.
            too_many(items.len() as u128)?;
            let vals = items
                .iter()
                .enumerate()
                .map(|(c, cell)| number(cell, 1, c + 1))
                .collect::<Result<Vec<i64>>>()?;
            let shape = match shape {
                Some(s) => s,
                None => parse::square_shape(vals.len())?,
            };
            return parse::validate(shape, &vals);
        }
        let mut rows: Vec<Vec<i64>> = Vec::with_capacity(items.len());
        let mut cells = 0u128;
        for (r, item) in items.iter().enumerate() {
            let Cell::List(row) = item else {
                return Err(Error::Parse(ParseError::RowNotAList {
                    row: r + 1,
                    found: item.kind(),
                }));
            };
            cells += row.len() as u128;
            too_many(cells.max(items.len() as u128 * row.len() as u128))?;
            rows.push(
                row.iter()
                    .enumerate()
                    .map(|(c, cell)| number(cell, r + 1, c + 1))
                    .collect::<Result<Vec<i64>>>()?,
            );
        }
        let board = Board::from_rows(&rows)?;
        match shape {
            Some(given) if given != board.shape() => Err(Error::Parse(ParseError::NotTheShape {
                given,
                found: board.shape(),
            })),
            _ => Ok(board),
        }
    }
}

/// More cells than any board holds.
fn too_many(cells: u128) -> Result<()> {
    if cells > MAX_CELLS as u128 {
        return Err(Error::Parse(ParseError::TooLarge {
            cells,
            max: MAX_CELLS,
        }));
    }
    Ok(())
}

/// The number in a cell, or what is wrong with it.
fn number(cell: &Cell, row: usize, column: usize) -> Result<i64> {
    let problem = match cell {
        Cell::Whole(n) => return Ok(*n),
        Cell::TooLarge => CellProblem::TooLarge,
        Cell::Fraction(text) => CellProblem::NotWhole(text.clone()),
        other => CellProblem::NotANumber(other.kind()),
    };
    Err(Error::Parse(ParseError::BadCell {
        row,
        column,
        problem,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(r: &[&[i64]]) -> Vec<Cell> {
        r.iter()
            .map(|row| Cell::List(row.iter().map(|&n| Cell::Whole(n)).collect()))
            .collect()
    }

    #[test]
    fn cells_give_the_errors_of_text() {
        let text = |t: &str| Board::parse(t).unwrap_err().to_string();
        let cells = |c: Vec<Cell>| Board::from_cells(&c, None).unwrap_err().to_string();
        assert_eq!(cells(rows(&[&[1, 2], &[3]])), text("[[1,2],[3]]"));
        assert_eq!(cells(rows(&[&[1, 2], &[3, 3]])), text("[[1,2],[3,3]]"));
        assert_eq!(cells(rows(&[&[-1, 2], &[3, 0]])), text("[[-1,2],[3,0]]"));
        assert_eq!(cells(rows(&[&[1, 2], &[3, 4]])), text("[[1,2],[3,4]]"));
        assert_eq!(cells(rows(&[&[0]])), text("[[0]]"));
        assert_eq!(cells(vec![]), text("[]"));
        assert_eq!(cells(rows(&[&[], &[]])), text("[[],[]]"));
        let flat = |v: &[i64]| v.iter().map(|&n| Cell::Whole(n)).collect::<Vec<_>>();
        assert_eq!(cells(flat(&[1, 2, 3, 0, 4])), text("[1,2,3,0,4]"));
        assert_eq!(
            Board::from_cells(&flat(&[4, 1, 2, 5, 0, 3]), Some("2x3".parse().unwrap())).unwrap(),
            Board::parse("4 1 2/5 0 3").unwrap()
        );
        assert_eq!(
            cells(vec![Cell::List(vec![Cell::Whole(1)]), Cell::Whole(3)]),
            "row 2 is not a list of numbers but a number"
        );
        assert_eq!(
            cells(vec![Cell::List(vec![
                Cell::Other("null".into()),
                Cell::TooLarge
            ])]),
            "row 1, column 1: null is not a number"
        );
        assert_eq!(
            cells(vec![Cell::List(vec![Cell::Whole(1), Cell::TooLarge])]),
            "row 1, column 2: the number is too large to be a tile"
        );
    }
}
