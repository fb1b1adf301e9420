//! Reading boards from text: JSON rows, slash-separated rows, and flat lists with a known shape.
//!
//! Formats (white space is allowed anywhere between numbers and brackets):
//! - JSON rows: `[[1,2,3],[4,0,5]]`, numbers written as JSON writes them (no `+` sign, no leading zeros such as
//!   `05`; fractions and exponents are not whole tiles either);
//! - slash rows: `1 2 3/4 0 5` or `1,2,3/4,0,5`;
//! - a flat list, `1 2 3 4 0 5` or `[1,2,3,4,0,5]` (JSON, as above), when the shape is given; without one, a flat list whose length
//!   is a square (4, 9, 16, …) is read as a square board.
//!
//! Goal patterns ([`Pattern`]) are read by the same parser: a cell may also be `x` (or `X`), any tile.
//!
//! Every failure is an [`Error`] naming what is wrong and where; nothing here panics.

use crate::board::{Board, Pattern, Shape, Tile};
use crate::error::{Error, ParseError, Result};

impl Board {
    /// Reads a board in any supported format; see the formats in [`Board::parse_with_shape`].
    ///
    /// ```
    /// use slide::Board;
    /// let a = Board::parse("[[1,2,3],[4,0,5]]").unwrap();
    /// let b = Board::parse(" 1 2 3 / 4 0 5 ").unwrap();
    /// assert_eq!(a, b);
    /// assert!(Board::parse("[[1,2],[3]]").unwrap_err().to_string().contains("ragged"));
    /// ```
    pub fn parse(text: &str) -> Result<Board> {
        parse_board(text, None)
    }

    /// Reads a board, taking `shape` for flat lists and checking it against rows.
    ///
    /// ```
    /// let s = "4x4".parse().unwrap();
    /// let b = slide::Board::parse_with_shape("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", Some(s)).unwrap();
    /// assert_eq!(b, slide::Board::goal(s));
    /// ```
    pub fn parse_with_shape(text: &str, shape: Option<Shape>) -> Result<Board> {
        parse_board(text, shape)
    }
}

impl std::str::FromStr for Board {
    type Err = Error;
    fn from_str(s: &str) -> Result<Board> {
        Board::parse(s)
    }
}

/// Reads a board from `text`; `shape` is required for flat lists of non-square length.
pub fn parse_board(text: &str, shape: Option<Shape>) -> Result<Board> {
    let (shape, vals) = read_values(text, shape, false)?;
    validate(shape, &vals)
}

/// Reads a goal pattern from `text`: a board in any format whose cells may also be `x` (any tile); `shape` as in
/// [`parse_board`].
pub fn parse_pattern(text: &str, shape: Option<Shape>) -> Result<Pattern> {
    let (shape, vals) = read_values(text, shape, true)?;
    validate_pattern(shape, &vals)
}

/// The value [`Parser::number`] reads for `x` in a pattern (no written number reads as it: `i64::MIN` overflows).
const ANY: i64 = i64::MIN;

/// Reads the values of a board or (with `any`) a pattern, and the shape they make.
fn read_values(text: &str, shape: Option<Shape>, any: bool) -> Result<(Shape, Vec<i64>)> {
    // A byte-order mark at the very start (files saved by some editors) is not part of the board.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        i: 0,
        json: false,
        any,
    };
    p.skip_ws();
    if p.i == p.s.len() {
        return Err(Error::Parse(ParseError::Empty));
    }
    let mut rows: Vec<usize> = Vec::new(); // lengths of the rows, empty for a flat list
    let mut vals: Vec<i64> = Vec::new();
    if p.peek() == Some(b'[') {
        // Brackets: JSON, whose numbers have no '+' sign and no leading zeros.
        p.json = true;
        p.i += 1;
        p.skip_ws();
        match p.peek() {
            Some(b'[') => loop {
                p.expect(b'[', "'['")?;
                let start = vals.len();
                p.list(&mut vals, b']')?;
                rows.push(vals.len() - start);
                p.skip_ws();
                match p.peek() {
                    Some(b',') => {
                        p.i += 1;
                        p.skip_ws();
                    }
                    Some(b']') => {
                        p.i += 1;
                        break;
                    }
                    _ => return Err(p.syntax("expected ',' or ']' after a row")),
                }
            },
            Some(b']') => return Err(Error::Parse(ParseError::Empty)),
            _ => p.list(&mut vals, b']')?,
        }
        p.skip_ws();
        if p.i != p.s.len() {
            return Err(p.syntax("unexpected text after the board"));
        }
    } else if text.contains('/') {
        loop {
            let start = vals.len();
            p.list_until_slash(&mut vals)?;
            rows.push(vals.len() - start);
            if p.peek() == Some(b'/') {
                p.i += 1;
            } else {
                break;
            }
        }
    } else {
        p.list_until_slash(&mut vals)?;
        if p.i != p.s.len() {
            return Err(p.syntax("unexpected text"));
        }
    }
    if vals.is_empty() {
        return Err(Error::Parse(ParseError::Empty));
    }
    let shape = if rows.is_empty() {
        match shape {
            Some(s) => s,
            None => square_shape(vals.len())?,
        }
    } else {
        let cols = rows[0];
        if let Some((r, &len)) = rows.iter().enumerate().find(|(_, &l)| l != cols) {
            return Err(Error::Parse(ParseError::Ragged {
                row: r + 1,
                expected: cols,
                found: len,
            }));
        }
        let found = Shape::new(rows.len(), cols)?;
        if let Some(s) = shape {
            if s != found {
                return Err(if s.cells() == found.cells() {
                    Error::Parse(ParseError::NotTheShape { given: s, found })
                } else if any && vals.contains(&ANY) {
                    pattern_count(s, &vals)
                } else {
                    Error::Parse(ParseError::WrongCount {
                        shape: s,
                        expected: s.cells(),
                        found: vals.len(),
                    })
                });
            }
        }
        found
    };
    Ok((shape, vals))
}

/// The error of a pattern whose values do not fill `shape`.
fn pattern_count(shape: Shape, vals: &[i64]) -> Error {
    let any = vals.iter().filter(|&&v| v == ANY).count();
    Error::Parse(ParseError::PatternCount {
        shape,
        expected: shape.cells(),
        found: vals.len(),
        fixed: vals.len() - any,
        any,
    })
}

/// **The** pattern validator: a pattern without `x` is a board, checked by [`validate`] (only "no blank" is
/// reworded: such a pattern leaves no cell for the blank); with `x`, the values must be `shape`'s count, then no
/// tile repeated, then every tile in `0..cells`. Such a pattern always has matching boards: the `x` cells take the
/// tiles the pattern does not name (and the blank, when it has no `0`), and there are exactly as many of them.
pub(crate) fn validate_pattern(shape: Shape, vals: &[i64]) -> Result<Pattern> {
    if !vals.contains(&ANY) {
        return match validate(shape, vals) {
            Ok(b) => Ok(Pattern::from_board(&b)),
            Err(Error::Parse(ParseError::NoBlank)) => {
                Err(Error::Parse(ParseError::PatternUnmatchable {
                    reason: "it has no 0 and no x, so no cell is left for the blank".into(),
                }))
            }
            Err(e) => Err(e),
        };
    }
    let n = shape.cells();
    if vals.len() != n {
        return Err(pattern_count(shape, vals));
    }
    let mut first = vec![u32::MAX; n];
    for (cell, &v) in vals.iter().enumerate() {
        if (0..n as i64).contains(&v) {
            let f = &mut first[v as usize];
            if *f != u32::MAX {
                return Err(Error::Parse(ParseError::Duplicate {
                    value: v as u64,
                    first: *f as usize + 1,
                    second: cell + 1,
                }));
            }
            *f = cell as u32;
        }
    }
    let mut cells = Vec::with_capacity(n);
    for &v in vals {
        if v == ANY {
            cells.push(None);
        } else if v < 0 || v >= n as i64 {
            return Err(Error::Parse(ParseError::OutOfRange {
                value: v as i128,
                cells: n,
                max: n - 1,
            }));
        } else {
            cells.push(Some(v as Tile));
        }
    }
    Ok(Pattern::from_checked(shape, cells))
}

/// **The** board validator, for every format and entry point (text, rows, tiles): the values must be `shape`'s
/// count, then none repeated, then a blank among them, then every one in `0..cells`, checked in that order, so that
/// the same values give the same error whatever they came in.
pub(crate) fn validate(shape: Shape, vals: &[i64]) -> Result<Board> {
    let n = shape.cells();
    if vals.len() != n {
        return Err(Error::Parse(ParseError::WrongCount {
            shape,
            expected: n,
            found: vals.len(),
        }));
    }
    let mut first = vec![u32::MAX; n];
    for (cell, &v) in vals.iter().enumerate() {
        if (0..n as i64).contains(&v) {
            let f = &mut first[v as usize];
            if *f != u32::MAX {
                return Err(Error::Parse(ParseError::Duplicate {
                    value: v as u64,
                    first: *f as usize + 1,
                    second: cell + 1,
                }));
            }
            *f = cell as u32;
        }
    }
    if first[0] == u32::MAX {
        return Err(Error::Parse(ParseError::NoBlank));
    }
    let mut tiles = Vec::with_capacity(n);
    for &v in vals {
        if v < 0 || v >= n as i64 {
            return Err(Error::Parse(ParseError::OutOfRange {
                value: v as i128,
                cells: n,
                max: n - 1,
            }));
        }
        tiles.push(v as Tile);
    }
    // n values, all in 0..n, none repeated: a permutation.
    Ok(Board::from_checked(shape, tiles, first[0] as usize))
}

pub(crate) fn square_shape(len: usize) -> Result<Shape> {
    let r = (len as f64).sqrt().round() as usize;
    if r >= 2 && r * r == len {
        Shape::new(r, r)
    } else {
        Err(Error::Parse(ParseError::UnknownShape { found: len }))
    }
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    /// The input is JSON (it opens with a bracket): numbers must be written as JSON allows.
    json: bool,
    /// Reading a pattern: `x` (or `X`) is a value, [`ANY`].
    any: bool,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' {
                self.i += 1;
            } else {
                break;
            }
        }
    }

    fn column(&self, byte: usize) -> usize {
        let mut b = byte.min(self.text.len());
        while !self.text.is_char_boundary(b) {
            b -= 1;
        }
        self.text[..b].chars().count() + 1
    }

    fn syntax(&self, message: &str) -> Error {
        let found = match self.text.get(self.i..).and_then(|t| t.chars().next()) {
            Some(c) => format!(", found {c:?}"),
            None => ", found the end of the input".to_string(),
        };
        Error::Parse(ParseError::Syntax {
            message: format!("{message}{found}"),
            column: self.column(self.i),
        })
    }

    fn expect(&mut self, c: u8, what: &str) -> Result<()> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.syntax(&format!("expected {what}")))
        }
    }

    /// A comma-separated list of numbers closed by `close` (consumed).
    fn list(&mut self, out: &mut Vec<i64>, close: u8) -> Result<()> {
        self.skip_ws();
        if self.peek() == Some(close) {
            self.i += 1;
            return Ok(());
        }
        loop {
            self.skip_ws();
            if self.peek() == Some(b'[') {
                return Err(self.syntax("boards have two levels of brackets at most"));
            }
            out.push(self.number()?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(c) if c == close => {
                    self.i += 1;
                    return Ok(());
                }
                Some(b'[') => return Err(self.syntax("boards have two levels of brackets at most")),
                _ => return Err(self.syntax(&format!("expected ',' or '{}'", close as char))),
            }
        }
    }

    /// Numbers separated by spaces and/or single commas, up to a '/' or the end.
    fn list_until_slash(&mut self, out: &mut Vec<i64>) -> Result<()> {
        self.skip_ws();
        loop {
            match self.peek() {
                None | Some(b'/') => return Ok(()),
                _ => {}
            }
            out.push(self.number()?);
            self.skip_ws();
            if self.peek() == Some(b',') {
                self.i += 1;
                self.skip_ws();
                if matches!(self.peek(), None | Some(b'/') | Some(b',')) {
                    return Err(self.syntax("expected a number after ','"));
                }
            }
        }
    }

    /// One number, as written (sign included). Fractions, exotic digits and glued text are errors naming the token;
    /// in JSON, so are a `+` sign and leading zeros (`05`, `-00`), which JSON does not allow.
    fn number(&mut self) -> Result<i64> {
        let start = self.i;
        if self.any && matches!(self.peek(), Some(b'x' | b'X')) {
            let end = self.i + 1;
            if end == self.s.len()
                || matches!(
                    self.s[end],
                    b' ' | b'\t' | b'\r' | b'\n' | b',' | b'/' | b'[' | b']'
                )
            {
                self.i = end;
                return Ok(ANY);
            }
        }
        let neg = matches!(self.peek(), Some(b'-'));
        if matches!(self.peek(), Some(b'-') | Some(b'+')) {
            self.i += 1;
        }
        let digits = self.i;
        let mut v: i64 = 0;
        let mut overflow = false;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            match v
                .checked_mul(10)
                .and_then(|x| x.checked_add((c - b'0') as i64))
            {
                Some(x) => v = x,
                None => overflow = true,
            }
            self.i += 1;
        }
        // Anything glued to the number that is not a separator makes the whole token bad.
        let mut end = self.i;
        while end < self.s.len()
            && !matches!(
                self.s[end],
                b' ' | b'\t' | b'\r' | b'\n' | b',' | b'/' | b'[' | b']'
            )
        {
            end += 1;
        }
        if self.i == digits || end != self.i || overflow {
            let mut token_end = end.max(self.i).max(start + 1).min(self.s.len());
            while !self.text.is_char_boundary(token_end) {
                token_end += 1;
            }
            let token: String = self.text[start..token_end].chars().take(24).collect();
            let column = self.column(start);
            if overflow && end == self.i {
                return Err(Error::Parse(ParseError::NumberTooLarge { token, column }));
            }
            if self.any {
                return Err(Error::Parse(ParseError::PatternSymbol { token, column }));
            }
            return Err(Error::Parse(ParseError::NotANumber { token, column }));
        }
        if self.json {
            let reason = if self.s[start] == b'+' {
                Some("JSON numbers have no '+' sign")
            } else if self.s[digits] == b'0' && self.i - digits > 1 {
                Some("JSON numbers have no leading zeros")
            } else {
                None
            };
            if let Some(reason) = reason {
                return Err(Error::Parse(ParseError::JsonNumber {
                    token: self.text[start..self.i].chars().take(24).collect(),
                    column: self.column(start),
                    reason: reason.into(),
                }));
            }
        }
        Ok(if neg { -v } else { v })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> String {
        Board::parse(s).unwrap_err().to_string()
    }

    #[test]
    fn formats_agree() {
        let want = Board::from_rows(&[vec![1, 2, 3], vec![4, 0, 5]]).unwrap();
        for s in [
            "[[1,2,3],[4,0,5]]",
            " [ [ 1 , 2 ,3 ] ,\t[4,0, 5] ] ",
            "1 2 3/4 0 5",
            "1,2,3/4,0,5",
            "1, 2, 3 / 4, 0, 5\r\n",
        ] {
            assert_eq!(Board::parse(s).unwrap(), want, "{s}");
        }
        let s = Shape::new(2, 3).unwrap();
        assert_eq!(
            Board::parse_with_shape("1 2 3 4 0 5", Some(s)).unwrap(),
            want
        );
        assert_eq!(
            Board::parse_with_shape("[1,2,3,4,0,5]", Some(s)).unwrap(),
            want
        );
        assert_eq!(
            Board::parse("1 2 3 0").unwrap().shape(),
            Shape::new(2, 2).unwrap()
        );
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(err("").contains("empty"));
        assert!(err("   ").contains("empty"));
        assert!(err("[]").contains("empty"));
        assert!(err("[[1,2],[3]]").contains("ragged"));
        assert!(err("1 2/3").contains("ragged"));
        assert!(err("[[1,2,3],[4,5,5]]").contains("duplicate value 5"));
        assert!(err("[[1,2,3],[4,9,0]]").contains("value 9 out of range"));
        assert!(err("[[1,2,3],[4,-1,0]]").contains("value -1 out of range"));
        assert!(err("[[1,2,3],[4,5,6]]").contains("no blank"));
        assert!(err("[[1,2,3],[4,0,6]]").contains("value 6 out of range"));
        assert!(err("[[1,2],[3,x]]").contains("not a number"));
        assert!(err("[[1,2],[3,1.5]]").contains("not a number: \"1.5\""));
        assert!(err("1 2 3 4 0 5").contains("cannot tell the shape"));
        assert!(err("[[1,2],[3,0]] x").contains("unexpected text"));
        assert!(err("[[1,2],[3,0]").contains("syntax"));
        assert!(err("[[[1]]]").contains("syntax"));
        assert!(err("[[1,2],[3,99999999999999999999999999]]").contains("too large"));
        assert!(err("[[1,2],[3,4]]").contains("no blank"));
        let s = Shape::new(2, 3).unwrap();
        assert!(Board::parse_with_shape("1 2 3 0", Some(s))
            .unwrap_err()
            .to_string()
            .contains("wrong count"));
        let e =
            Board::parse_with_shape("1 2 3/4 5 0", Some(Shape::new(3, 2).unwrap())).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the rows make a board of shape 2x3, not the shape 3x2 asked for"
        );
        assert_eq!(Board::parse("\u{feff}1 2 3/4 0 5").unwrap().blank(), 4);
    }

    #[test]
    fn json_rows_take_json_numbers_only() {
        // What JSON rejects in a number is rejected in JSON rows and bracketed flat lists, naming the text and
        // its column.
        for (text, token, column, why) in [
            ("[[1,2,3],[4,0,+5]]", "+5", 15, "'+' sign"),
            ("[[1,2,3],[4,0,05]]", "05", 15, "leading zeros"),
            ("[[1,2,3],[4,00,5]]", "00", 13, "leading zeros"),
            ("[[1,2,3],[4,-05,0]]", "-05", 13, "leading zeros"),
            ("[[+1,2,3],[4,0,5]]", "+1", 3, "'+' sign"),
            (" [ [1, 2, 3] , [4, 0, +0005] ]", "+0005", 23, "'+' sign"),
        ] {
            let e = Board::parse(text).unwrap_err();
            let msg = e.to_string();
            match e {
                Error::Parse(ParseError::JsonNumber {
                    token: t,
                    column: c,
                    reason,
                }) => assert!(
                    t == token && c == column && reason.contains(why),
                    "{text}: {msg}"
                ),
                e => panic!("{text}: {e:?}"),
            }
            assert!(
                msg.starts_with(&format!(
                    "not a JSON number: {token:?} at column {column}: "
                )),
                "{text}: {msg}"
            );
        }
        let s = Shape::new(2, 3).unwrap();
        assert!(matches!(
            Board::parse_with_shape("[1,2,3,4,0,+5]", Some(s)),
            Err(Error::Parse(ParseError::JsonNumber { column: 12, .. }))
        ));
        // The rest of JSON's number rules were already enforced: fractions, exponents, a lone sign or dot.
        for text in [
            "[[1,2,3],[4,0,5.]]",
            "[[1,2,3],[4,0,.5]]",
            "[[1,2,3],[4,0,1e0]]",
            "[[1,2,3],[4,0,5E+0]]",
            "[[1,2,3],[4,0,-]]",
            "[[1,2,3],[4,0,0x5]]",
        ] {
            assert!(
                matches!(
                    Board::parse(text),
                    Err(Error::Parse(ParseError::NotANumber { .. }))
                ),
                "{text}: {:?}",
                Board::parse(text)
            );
        }
        // What JSON allows still reads: zero, negative zero (a second blank here), white space.
        assert_eq!(
            Board::parse("[[1,2,3],[4,0,5]]").unwrap(),
            Board::parse("[ [ 1 ,2,3 ],\n\t[4 , 0,5 ] ]").unwrap()
        );
        assert!(matches!(
            Board::parse("[[1,2,3],[4,-0,0]]"),
            Err(Error::Parse(ParseError::Duplicate { value: 0, .. }))
        ));
        // The other formats are not JSON: a '+' sign and leading zeros read as before there.
        let want = Board::parse("[[1,2,3],[4,0,5]]").unwrap();
        for text in ["1 2 3/4 0 +5", "01,02,03/04,00,05", "+1 2 3/4 0 5"] {
            assert_eq!(Board::parse(text).unwrap(), want, "{text}");
        }
        assert_eq!(
            Board::parse_with_shape("1 2 3 4 0 +5", Some(s)).unwrap(),
            want
        );
    }

    #[test]
    fn no_blank_reported() {
        assert!(err("1 2 3 4").contains("no blank"));
    }
}

#[cfg(test)]
mod validator_tests {
    use super::*;

    /// One validator: the same values give the same error whichever way they come in.
    #[test]
    fn same_values_same_error() {
        let shape = Shape::new(2, 3).unwrap();
        for (vals, want) in [
            (vec![1i64, 2, 3, 4, 5, 6], Error::Parse(ParseError::NoBlank)),
            (
                vec![1, 2, 3, 4, 4, 0],
                Error::Parse(ParseError::Duplicate {
                    value: 4,
                    first: 4,
                    second: 5,
                }),
            ),
            (
                vec![1, 2, 3, 4, 9, 0],
                Error::Parse(ParseError::OutOfRange {
                    value: 9,
                    cells: 6,
                    max: 5,
                }),
            ),
        ] {
            let text = format!(
                "{} {} {}/{} {} {}",
                vals[0], vals[1], vals[2], vals[3], vals[4], vals[5]
            );
            let json = format!("[{:?},{:?}]", &vals[..3], &vals[3..]).replace(' ', "");
            let rows = vec![vals[..3].to_vec(), vals[3..].to_vec()];
            let tiles: Vec<Tile> = vals.iter().map(|&v| v as Tile).collect();
            assert_eq!(Board::parse(&text).unwrap_err(), want, "{text}");
            assert_eq!(Board::parse(&json).unwrap_err(), want, "{json}");
            assert_eq!(Board::from_rows(&rows).unwrap_err(), want, "{rows:?}");
            assert_eq!(Board::new(shape, tiles).unwrap_err(), want, "{vals:?}");
        }
    }
}
