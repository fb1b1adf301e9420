//! Move notation: **the** reader and writer of move sequences (tile numbers, tile letters long and short, the
//! blank's letters), and what speedsolvers do with them: apply, invert, simplify, count STM and MTM.
//!
//! The community convention (slidysim, the `slidy` crate) names the direction in which a *tile* moves: `U` means
//! the tile below the blank moves up (so the blank moves down); `D`, `L`, `R` likewise. A count after a letter
//! repeats it: `R3` is `RRR`, three single-tile moves (STM) or one multi-tile move (MTM).
//!
//! | notation | example | what it writes |
//! |---|---|---|
//! | `tiles` | `5 4 1 2 3` | the tiles that slide into the blank, in order (needs the start board) |
//! | `long` | `RRUULD` | the tiles' directions, one letter per move |
//! | `short` | `R2U2LD` | the tiles' directions, runs collapsed into letter and count |
//! | `blank` | `LLDDRU` | the blank's directions, one letter per move (the opposite of `long`) |
//!
//! [`Moves`] holds a sequence as the blank's [`Direction`]s, so reading letters needs no board; tile numbers are
//! read into [`Written::Tiles`] and turned into directions against their start board.
//!
//! ```
//! use slide::{notation, Board, Moves, Notation};
//! let start = Board::parse("4 1 2/5 0 3").unwrap();
//! let moves: Moves = "l u r2 d".parse().unwrap();
//! assert_eq!(moves.format(Notation::Short, None).unwrap(), "LUR2D");
//! assert_eq!(moves.format(Notation::Blank, None).unwrap(), "RDLLU");
//! assert_eq!((moves.stm_len(), moves.mtm_len()), (5, 4));
//! let tiles = notation::read("5 4 1 2 3", false).unwrap().resolve(&start).unwrap();
//! assert_eq!(tiles.format(Notation::Long, None).unwrap(), "RDLLU");
//! let end = tiles.apply(&start).unwrap();
//! assert_eq!(end, Board::goal(start.shape()));
//! assert_eq!(tiles.invert().apply(&end).unwrap(), start);
//! ```

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, Direction, Tile};
use crate::error::{Error, Result};
use crate::ParseError;

/// The longest move sequence the reader accepts: ten million single-tile moves. A count such as `R99999999999`
/// is rejected before anything is allocated. Sequences built in memory (a solver's answer) have no such limit.
pub const MAX_MOVES: usize = 10_000_000;

/// A way of writing a move sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Notation {
    /// The tiles that slide into the blank, separated by spaces: `5 4 1 2 3`.
    Tiles,
    /// The tiles' directions, one letter per move: `RRUULD`.
    Long,
    /// The tiles' directions with runs collapsed into letter and count: `R2U2LD`.
    Short,
    /// The blank's directions, one letter per move: `LLDDRU`.
    Blank,
}

impl Notation {
    /// Every notation, in the order of the table in the [module docs](crate::notation).
    pub const ALL: [Notation; 4] = [
        Notation::Tiles,
        Notation::Long,
        Notation::Short,
        Notation::Blank,
    ];

    /// The name as written on the command line: `tiles`, `long`, `short` or `blank`.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Tiles => "tiles",
            Notation::Long => "long",
            Notation::Short => "short",
            Notation::Blank => "blank",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Notation {
    type Err = Error;
    /// Reads a name, ignoring case and surrounding white space.
    ///
    /// ```
    /// use slide::Notation;
    /// assert_eq!("Short".parse::<Notation>().unwrap(), Notation::Short);
    /// let e = "slidy".parse::<Notation>().unwrap_err().to_string();
    /// assert!(e.contains("tiles, long, short or blank"), "{e}");
    /// ```
    fn from_str(text: &str) -> Result<Notation> {
        let t = text.trim();
        Notation::ALL
            .into_iter()
            .find(|n| n.name().eq_ignore_ascii_case(t))
            .ok_or_else(|| {
                Error::Parse(ParseError::UnknownNotation {
                    name: shorten(text),
                })
            })
    }
}

/// A move sequence: the blank's direction at each single-tile move.
///
/// `FromStr` reads tile letters, long or short (`"R2U2LD"`, `"r r u u l d"`); [`read`] also takes tile numbers and
/// the blank's letters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Moves {
    blank: Vec<Direction>,
}

impl Moves {
    /// The sequence whose blank moves in these directions.
    pub fn new(blank_directions: Vec<Direction>) -> Moves {
        Moves {
            blank: blank_directions,
        }
    }

    /// The blank's directions.
    pub fn directions(&self) -> &[Direction] {
        &self.blank
    }

    /// The blank's directions, by value.
    pub fn into_directions(self) -> Vec<Direction> {
        self.blank
    }

    /// The moves of `tiles` (each the tile that slides into the blank) played from `start`.
    ///
    /// Errors with [`ParseError::BadMove`] at the first tile that is not next to the blank.
    pub fn from_tiles(start: &Board, tiles: &[Tile]) -> Result<Moves> {
        let cells = start.shape().cells();
        let mut b = start.clone();
        let mut blank = Vec::with_capacity(tiles.len());
        for (i, &t) in tiles.iter().enumerate() {
            let Some(d) = play(&mut b, t) else {
                let reason = if t == 0 {
                    "0 is the blank, not a tile".to_string()
                } else if t as usize >= cells {
                    format!("no tile {t} on a board of {cells} cells")
                } else {
                    format!("tile {t} is not next to the blank")
                };
                return Err(Error::Parse(ParseError::BadMove {
                    index: i + 1,
                    token: t.to_string(),
                    reason,
                }));
            };
            blank.push(d);
        }
        Ok(Moves { blank })
    }

    /// Number of single-tile moves.
    pub fn len(&self) -> usize {
        self.blank.len()
    }

    /// True when there are no moves.
    pub fn is_empty(&self) -> bool {
        self.blank.is_empty()
    }

    /// Length in the single-tile metric (STM): every tile moved one cell is a move. `R2U2LD` is 6.
    pub fn stm_len(&self) -> usize {
        self.blank.len()
    }

    /// Length in the multi-tile metric (MTM): each maximal run of one direction is one move. `R2U2LD` is 4.
    pub fn mtm_len(&self) -> usize {
        self.blank
            .iter()
            .enumerate()
            .filter(|&(i, d)| i == 0 || self.blank[i - 1] != *d)
            .count()
    }

    /// The sequence that undoes this one: the reverse order, each move reversed.
    ///
    /// ```
    /// let m: slide::Moves = "R2U2LD".parse().unwrap();
    /// assert_eq!(m.invert().format(slide::Notation::Short, None).unwrap(), "URD2L2");
    /// ```
    pub fn invert(&self) -> Moves {
        Moves {
            blank: self.blank.iter().rev().map(|d| d.opposite()).collect(),
        }
    }

    /// The sequence with every move that is followed by its reverse cancelled, repeatedly (`RUDL` becomes empty):
    /// the same end board from any board where the original is legal, never longer. Written `short`, runs merge.
    ///
    /// ```
    /// let m: slide::Moves = "RULDDUR".parse().unwrap(); // DU cancels
    /// assert_eq!(m.simplify().format(slide::Notation::Short, None).unwrap(), "RULDR");
    /// let m: slide::Moves = "RULDUR".parse().unwrap(); // DU, then LR, cancel
    /// assert_eq!(m.simplify().format(slide::Notation::Short, None).unwrap(), "RU");
    /// ```
    pub fn simplify(&self) -> Moves {
        let mut out: Vec<Direction> = Vec::with_capacity(self.blank.len());
        for &d in &self.blank {
            if out.last() == Some(&d.opposite()) {
                out.pop();
            } else {
                out.push(d);
            }
        }
        Moves { blank: out }
    }

    /// The board after playing the moves from `start`; errors with [`ParseError::BadMove`] at the first illegal move,
    /// written as a tile letter (`move 7 (U): no tile below the blank`).
    pub fn apply(&self, start: &Board) -> Result<Board> {
        self.apply_as(start, Notation::Long)
    }

    /// [`Moves::apply`], naming a bad move as `notation` writes it (the blank's letter for [`Notation::Blank`],
    /// the tile's letter otherwise).
    pub fn apply_as(&self, start: &Board, notation: Notation) -> Result<Board> {
        let mut b = start.clone();
        for (i, &d) in self.blank.iter().enumerate() {
            if b.apply_direction(d).is_none() {
                return Err(bad_move(i, d, notation));
            }
        }
        Ok(b)
    }

    /// The tiles that slide into the blank, played from `start`; errors like [`Moves::apply`].
    pub fn tiles(&self, start: &Board) -> Result<Vec<Tile>> {
        let mut b = start.clone();
        let mut out = Vec::with_capacity(self.blank.len());
        for (i, &d) in self.blank.iter().enumerate() {
            match b.apply_direction(d) {
                Some(t) => out.push(t),
                None => return Err(bad_move(i, d, Notation::Long)),
            }
        }
        Ok(out)
    }

    /// The letters of a letter notation.
    fn letters(&self, mut w: LetterWriter) -> String {
        let mut s = String::with_capacity(self.blank.len());
        for &d in &self.blank {
            w.push(d, &mut s);
        }
        w.finish(&mut s);
        s
    }

    /// The sequence written in `notation`. [`Notation::Tiles`] needs the start board (else
    /// [`ParseError::NeedsBoard`]); the letter notations ignore it.
    pub fn format(&self, notation: Notation, start: Option<&Board>) -> Result<String> {
        let Some(w) = LetterWriter::new(notation) else {
            let start = start.ok_or(Error::Parse(ParseError::NeedsBoard))?;
            let tiles = self.tiles(start)?;
            let mut s = String::with_capacity(tiles.len() * 3);
            for (i, t) in tiles.iter().enumerate() {
                if i > 0 {
                    s.push(' ');
                }
                s.push_str(&t.to_string());
            }
            return Ok(s);
        };
        Ok(self.letters(w))
    }
}

impl FromStr for Moves {
    type Err = Error;
    /// Reads tile letters, long or short; tile numbers give [`ParseError::NeedsBoard`] (use [`read`] and
    /// [`Written::resolve`]).
    fn from_str(text: &str) -> Result<Moves> {
        match read(text, false)? {
            Written::Tiles(_) => Err(Error::Parse(ParseError::NeedsBoard)),
            Written::Letters { moves, .. } => Ok(moves),
        }
    }
}

/// The error of the `i`-th move (0-based), whose blank would go in `d` off the board, named as `notation` writes it.
fn bad_move(i: usize, d: Direction, notation: Notation) -> Error {
    let token = match notation {
        Notation::Blank => d.letter(),
        _ => d.opposite().letter(),
    };
    let side = match d {
        Direction::Up => "above",
        Direction::Down => "below",
        Direction::Left => "left of",
        Direction::Right => "right of",
    };
    Error::Parse(ParseError::BadMove {
        index: i + 1,
        token: token.to_string(),
        reason: format!("no tile {side} the blank"),
    })
}

/// Slides `tile` into the blank ([`Board::apply`]) and returns the blank's direction, in O(1); `None`, leaving the
/// board as it was, when the tile is not next to the blank.
pub fn play(board: &mut Board, tile: Tile) -> Option<Direction> {
    let cols = board.shape().cols();
    let from = board.blank();
    board.apply(tile).ok()?;
    let to = board.blank();
    Some(if to + cols == from {
        Direction::Up
    } else if to == from + cols {
        Direction::Down
    } else if to + 1 == from {
        Direction::Left
    } else {
        Direction::Right
    })
}

/// Writes the blank's directions as letters in a letter notation, move by move: for sequences too long to hold
/// (fast mode on huge boards streams its moves).
#[derive(Debug, Clone)]
pub struct LetterWriter {
    notation: Notation,
    run: Option<(Direction, u64)>,
}

impl LetterWriter {
    /// A writer for `notation`, or `None` for [`Notation::Tiles`] (which needs the tiles, not directions).
    pub fn new(notation: Notation) -> Option<LetterWriter> {
        (notation != Notation::Tiles).then_some(LetterWriter {
            notation,
            run: None,
        })
    }

    /// Writes (or holds, for `short`) the move whose blank goes in `d`.
    pub fn push(&mut self, d: Direction, out: &mut String) {
        match self.notation {
            Notation::Blank => out.push(d.letter()),
            Notation::Short => match &mut self.run {
                Some((r, n)) if *r == d => *n += 1,
                _ => {
                    self.finish(out);
                    self.run = Some((d, 1));
                }
            },
            _ => out.push(d.opposite().letter()),
        }
    }

    /// Writes what is held (the last run of `short`).
    pub fn finish(&mut self, out: &mut String) {
        if let Some((d, n)) = self.run.take() {
            out.push(d.opposite().letter());
            if n > 1 {
                out.push_str(&n.to_string());
            }
        }
    }
}

/// A move sequence as read: tile numbers still tied to their board, or letters already turned into directions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Written {
    /// Tile numbers, `5 4 1 2 3`.
    Tiles(Vec<Tile>),
    /// Letters, with the notation they were written in (`short` when a count appears, `blank` when read as the
    /// blank's directions, else `long`).
    Letters {
        /// The moves.
        moves: Moves,
        /// How they were written.
        notation: Notation,
    },
}

impl Written {
    /// The number of single-tile moves written (a letter with a count is that many).
    pub fn len(&self) -> usize {
        match self {
            Written::Tiles(t) => t.len(),
            Written::Letters { moves, .. } => moves.len(),
        }
    }

    /// True when no move is written.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The notation the sequence was written in.
    pub fn notation(&self) -> Notation {
        match self {
            Written::Tiles(_) => Notation::Tiles,
            Written::Letters { notation, .. } => *notation,
        }
    }

    /// The moves played from `start` (only tile numbers need it).
    pub fn resolve(&self, start: &Board) -> Result<Moves> {
        match self {
            Written::Tiles(t) => Moves::from_tiles(start, t),
            Written::Letters { moves, .. } => Ok(moves.clone()),
        }
    }

    /// The moves, when they were written as letters; tile numbers give [`ParseError::NeedsBoard`].
    pub fn moves(&self) -> Result<&Moves> {
        match self {
            Written::Tiles(_) => Err(Error::Parse(ParseError::NeedsBoard)),
            Written::Letters { moves, .. } => Ok(moves),
        }
    }

    /// The board after the moves, the first bad move named as it was written.
    pub fn apply(&self, start: &Board) -> Result<Board> {
        match self {
            Written::Tiles(_) => self.resolve(start)?.apply(start),
            Written::Letters { moves, notation } => moves.apply_as(start, *notation),
        }
    }

    /// The inverse sequence, in the same notation: tile numbers reversed (sliding the same tiles back needs no
    /// board), letters inverted.
    pub fn invert(&self) -> Written {
        match self {
            Written::Tiles(t) => Written::Tiles(t.iter().rev().copied().collect()),
            Written::Letters { moves, notation } => Written::Letters {
                moves: moves.invert(),
                notation: *notation,
            },
        }
    }

    /// The sequence as it was written (canonical spacing and case): tile numbers separated by spaces, letters in
    /// their notation.
    pub fn format(&self) -> String {
        match self {
            Written::Tiles(t) => t
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            Written::Letters { moves, notation } => match LetterWriter::new(*notation) {
                Some(w) => moves.letters(w),
                None => String::new(), // never built: letters are read as long, short or blank
            },
        }
    }
}

/// Reads a move sequence: tile numbers (`5 4 1 2 3`, separated by spaces or commas) or letters `U D L R`, long or
/// short (`RRUULD`, `R2U2LD`), any case, spaces allowed between moves. Letters name the tiles' directions, or the
/// blank's when `blank_letters` is set. Which kind is decided by the first character that is not a separator.
///
/// Errors name the column (1-based, in characters): `unknown letter 'X' at column 4`, `count 0 at column 3`,
/// a number that is not one; and more than [`MAX_MOVES`] moves gives [`ParseError::TooManyMoves`].
///
/// ```
/// use slide::notation::{read, Written};
/// use slide::Notation;
/// assert_eq!(read("5, 4 1", false).unwrap(), Written::Tiles(vec![5, 4, 1]));
/// assert_eq!(read("r2 u", false).unwrap().notation(), Notation::Short);
/// assert_eq!(read("LLD", true).unwrap().notation(), Notation::Blank);
/// assert_eq!(read("RUX", false).unwrap_err().to_string(), "unknown letter 'X' at column 3");
/// assert_eq!(read("R0", false).unwrap_err().to_string(), "count 0 at column 2");
/// assert!(read("R99999999999", false).is_err());
/// ```
pub fn read(text: &str, blank_letters: bool) -> Result<Written> {
    let first = text.chars().find(|&c| !is_separator(c));
    if first.is_some_and(|c| c.is_ascii_digit()) {
        read_tiles(text).map(Written::Tiles)
    } else {
        let (moves, counted) = read_letters(text, blank_letters)?;
        let notation = if blank_letters {
            Notation::Blank
        } else if counted {
            Notation::Short
        } else {
            Notation::Long
        };
        Ok(Written::Letters { moves, notation })
    }
}

fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == ','
}

fn shorten(text: &str) -> String {
    let mut s: String = text.chars().take(20).collect();
    if text.chars().nth(20).is_some() {
        s.push('…');
    }
    s
}

/// Tile numbers separated by white space or commas.
fn read_tiles(text: &str) -> Result<Vec<Tile>> {
    let mut out = Vec::new();
    let mut column = 0; // characters before the current one
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        column += 1;
        if is_separator(c) {
            continue;
        }
        let start = column;
        let mut token = String::from(c);
        let mut digits = c.is_ascii_digit();
        while let Some(&c) = chars.peek().filter(|&&c| !is_separator(c)) {
            digits &= c.is_ascii_digit();
            // Past 40 characters a token is neither a tile nor worth quoting whole.
            if token.len() < 40 {
                token.push(c);
            }
            chars.next();
            column += 1;
        }
        if !digits {
            return Err(Error::Parse(ParseError::NotANumber {
                token: shorten(&token),
                column: start,
            }));
        }
        let t: Tile = token.parse().map_err(|_| {
            Error::Parse(ParseError::NumberTooLarge {
                token: shorten(&token),
                column: start,
            })
        })?;
        if out.len() == MAX_MOVES {
            return Err(Error::Parse(ParseError::TooManyMoves { max: MAX_MOVES }));
        }
        out.push(t);
    }
    Ok(out)
}

/// Letters into the blank's directions; also whether any count was written.
fn read_letters(text: &str, blank_letters: bool) -> Result<(Moves, bool)> {
    let mut out: Vec<Direction> = Vec::new();
    let mut counted = false;
    let mut column = 0; // characters before the current one
    let mut chars = text.chars().peekable();
    let syntax =
        |message: String, column: usize| Error::Parse(ParseError::MoveSyntax { message, column });
    while let Some(c) = chars.next() {
        column += 1;
        if is_separator(c) {
            continue;
        }
        let named = match c.to_ascii_uppercase() {
            'U' => Direction::Up,
            'D' => Direction::Down,
            'L' => Direction::Left,
            'R' => Direction::Right,
            _ if c.is_ascii_digit() => {
                return Err(syntax(
                    format!("count {c}… without a letter before it"),
                    column,
                ))
            }
            _ => return Err(syntax(format!("unknown letter {c:?}"), column)),
        };
        let d = if blank_letters {
            named
        } else {
            named.opposite()
        };
        let count_at = column + 1;
        let mut digits = 0;
        let mut count: usize = 0;
        while let Some(v) = chars.peek().and_then(|c| c.to_digit(10)) {
            count = count.saturating_mul(10).saturating_add(v as usize);
            digits += 1;
            chars.next();
            column += 1;
        }
        let count = if digits == 0 {
            1
        } else {
            counted = true;
            if count == 0 {
                return Err(syntax("count 0".into(), count_at));
            }
            count
        };
        if count > MAX_MOVES - out.len() {
            return Err(Error::Parse(ParseError::TooManyMoves { max: MAX_MOVES }));
        }
        out.extend(std::iter::repeat_n(d, count));
    }
    Ok((Moves::new(out), counted))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn board(text: &str) -> Board {
        Board::parse(text).unwrap()
    }

    #[test]
    fn names() {
        for n in Notation::ALL {
            assert_eq!(n.name().parse::<Notation>().unwrap(), n);
            assert_eq!(n.to_string().to_uppercase().parse::<Notation>().unwrap(), n);
        }
        assert_eq!(
            "slidy".parse::<Notation>().unwrap_err().to_string(),
            "unknown notation \"slidy\": expected tiles, long, short or blank"
        );
    }

    #[test]
    fn the_convention() {
        // U: the tile below the blank moves up.
        let start = board("1 0/2 3");
        let end = "U".parse::<Moves>().unwrap().apply(&start).unwrap();
        assert_eq!(end, board("1 3/2 0"));
        // As the blank's letter, U moves the blank up: the tile above comes down.
        let m = read("U", true).unwrap();
        assert_eq!(m.apply(&end).unwrap(), start);
        assert_eq!(
            m.apply(&start).unwrap_err().to_string(),
            "move 1 (U): no tile above the blank"
        );
        let m = read("D", true).unwrap();
        assert_eq!(m.apply(&start).unwrap(), board("1 3/2 0"));
    }

    #[test]
    fn formats() {
        let start = board("4 1 2/5 0 3");
        let m = read("5 4 1 2 3", false).unwrap().resolve(&start).unwrap();
        assert_eq!(
            m.format(Notation::Tiles, Some(&start)).unwrap(),
            "5 4 1 2 3"
        );
        assert_eq!(m.format(Notation::Long, None).unwrap(), "RDLLU");
        assert_eq!(m.format(Notation::Short, None).unwrap(), "RDL2U");
        assert_eq!(m.format(Notation::Blank, None).unwrap(), "LURRD");
        assert_eq!(
            m.format(Notation::Tiles, None),
            Err(Error::Parse(ParseError::NeedsBoard))
        );
        let m: Moves = "R2U2LD".parse().unwrap();
        assert_eq!((m.stm_len(), m.mtm_len()), (6, 4));
        assert_eq!(m.format(Notation::Long, None).unwrap(), "RRUULD");
        assert_eq!(m.invert().format(Notation::Short, None).unwrap(), "URD2L2");
        assert_eq!(Moves::default().format(Notation::Short, None).unwrap(), "");
        assert_eq!(
            "r 3 ".parse::<Moves>().unwrap_err().to_string(),
            "count 3… without a letter before it at column 3"
        );
        assert_eq!("R12".parse::<Moves>().unwrap().len(), 12);
    }

    #[test]
    fn errors() {
        let start = board("1 2 3/4 5 0");
        let e = |t: &str| read(t, false).unwrap_err().to_string();
        assert_eq!(e("RRUX"), "unknown letter 'X' at column 4");
        assert_eq!(e("R0U"), "count 0 at column 2");
        assert_eq!(e("RR3 u00"), "count 0 at column 6");
        assert_eq!(
            e("R99999999999"),
            "move sequence too long: more than 10000000 moves"
        );
        assert_eq!(
            e("R5000000 L5000000 U"),
            "move sequence too long: more than 10000000 moves"
        );
        assert!(read("R5000000 L5000000", false).is_ok());
        assert_eq!(e("5 4x"), "not a number: \"4x\" at column 3");
        let long = format!("1 {}x", "9".repeat(50));
        assert_eq!(
            e(&long),
            format!("not a number: \"{}…\" at column 3", "9".repeat(20))
        );
        assert_eq!(
            e("5 99999999999"),
            "number too large: \"99999999999\" at column 3"
        );
        // The 7th move (U) would need a tile below the blank.
        let m = read("RDLLURU", false).unwrap();
        assert_eq!(
            m.apply(&board("1 2 3/4 0 5")).unwrap_err().to_string(),
            "move 7 (U): no tile below the blank"
        );
        let e = read("3 5", false).unwrap().resolve(&start).unwrap_err();
        assert_eq!(
            e,
            Error::Parse(ParseError::BadMove {
                index: 2,
                token: "5".into(),
                reason: "tile 5 is not next to the blank".into()
            })
        );
        let e = read("0", false).unwrap().resolve(&start).unwrap_err();
        assert_eq!(e.to_string(), "move 1 (0): 0 is the blank, not a tile");
        let e = read("9", false).unwrap().resolve(&start).unwrap_err();
        assert_eq!(e.to_string(), "move 1 (9): no tile 9 on a board of 6 cells");
        assert_eq!(read("", false).unwrap().notation(), Notation::Long);
        assert_eq!(
            "5 4".parse::<Moves>(),
            Err(Error::Parse(ParseError::NeedsBoard))
        );
    }

    #[test]
    fn simplify_examples() {
        let s = |t: &str| {
            t.parse::<Moves>()
                .unwrap()
                .simplify()
                .format(Notation::Short, None)
                .unwrap()
        };
        assert_eq!(s("RULDUR"), "RU");
        assert_eq!(s("RUDL"), "");
        assert_eq!(s("R3L2U"), "RU");
        assert_eq!(s("RRLLRR"), "R2");
    }

    #[test]
    fn tiles_invert_without_board() {
        let w = read("5 4 1", false).unwrap();
        assert_eq!(w.invert().format(), "1 4 5");
        assert_eq!(read("r2u", false).unwrap().invert().format(), "DL2");
        assert_eq!(read("r2u", true).unwrap().invert().format(), "DLL");
    }

    // -----------------------------------------------------------------------------------------------------------
    // Property tests against a tiny interpreter written here: a grid of bytes and the tile-letter convention.
    // -----------------------------------------------------------------------------------------------------------

    /// A grid: `cols` columns, cells in reading order, 0 the blank.
    #[derive(Clone, Debug, PartialEq)]
    struct Grid {
        rows: usize,
        cols: usize,
        cells: Vec<u32>,
    }

    impl Grid {
        /// Moves the tile next to the blank in the direction the letter names (the tile's direction). `None` when
        /// no tile stands there.
        fn play(&mut self, letter: char) -> Option<u32> {
            let b = self.cells.iter().position(|&t| t == 0).unwrap();
            let (r, c) = (b / self.cols, b % self.cols);
            // The tile that moves up stands below the blank, and so on.
            let from = match letter {
                'U' if r + 1 < self.rows => b + self.cols,
                'D' if r > 0 => b - self.cols,
                'L' if c + 1 < self.cols => b + 1,
                'R' if c > 0 => b - 1,
                _ => return None,
            };
            let t = self.cells[from];
            self.cells.swap(b, from);
            Some(t)
        }

        fn board(&self) -> Board {
            Board::from_rows(
                &self
                    .cells
                    .chunks(self.cols)
                    .map(|r| r.iter().map(|&t| t as i64).collect())
                    .collect::<Vec<_>>(),
            )
            .unwrap()
        }
    }

    fn flip(letter: char) -> char {
        match letter {
            'U' => 'D',
            'D' => 'U',
            'L' => 'R',
            _ => 'L',
        }
    }

    /// A start grid and choices; the choices drive either a legal walk or raw letters.
    fn case() -> impl Strategy<Value = (Grid, Vec<usize>)> {
        (2usize..=4, 2usize..=4)
            .prop_flat_map(|(rows, cols)| {
                let n = rows * cols;
                (
                    Just((rows, cols)),
                    Just((0..n as u32).collect::<Vec<_>>()).prop_shuffle(),
                    proptest::collection::vec(0usize..24, 0..40),
                )
            })
            .prop_map(|((rows, cols), cells, choices)| (Grid { rows, cols, cells }, choices))
    }

    /// A legal walk: at each step the choice picks one of the letters that can be played.
    fn legal_walk(start: &Grid, choices: &[usize]) -> (String, Grid) {
        let mut g = start.clone();
        let mut letters = String::new();
        for &c in choices {
            let legal: Vec<char> = "UDLR"
                .chars()
                .filter(|&l| g.clone().play(l).is_some())
                .collect();
            // Runs appear often: half the choices repeat the last letter when it is still legal.
            let l = match letters.chars().last() {
                Some(last) if c % 2 == 0 && legal.contains(&last) => last,
                _ => legal[c % legal.len()],
            };
            g.play(l);
            letters.push(l);
        }
        (letters, g)
    }

    proptest! {
        #[test]
        fn round_trips_in_every_notation((grid, choices) in case()) {
            let start = grid.board();
            let (letters, _) = legal_walk(&grid, &choices);
            let m: Moves = letters.parse().unwrap();
            for n in Notation::ALL {
                let text = m.format(n, Some(&start)).unwrap();
                let back = read(&text, n == Notation::Blank).unwrap();
                prop_assert_eq!(&back.resolve(&start).unwrap(), &m, "{} {}", n, text);
                if !m.is_empty() {
                    prop_assert!(back.notation() == n || (n == Notation::Short && m.mtm_len() == m.stm_len()));
                }
                // Lower case and spaces read the same.
                let spaced: String = text
                    .to_lowercase()
                    .chars()
                    .flat_map(|c| if c.is_alphabetic() { vec![' ', c] } else { vec![c] })
                    .collect();
                if n != Notation::Tiles {
                    prop_assert_eq!(&read(&spaced, n == Notation::Blank).unwrap().resolve(&start).unwrap(), &m);
                }
            }
            prop_assert_eq!(m.format(Notation::Long, None).unwrap(), letters.clone());
            let blank: String = letters.chars().map(flip).collect();
            prop_assert_eq!(m.format(Notation::Blank, None).unwrap(), blank);
        }

        #[test]
        fn apply_agrees_with_the_interpreter((grid, choices) in case()) {
            let start = grid.board();
            // Raw letters, legal or not: the library stops at the interpreter's first illegal move.
            let letters: String = choices.iter().map(|&c| ['U', 'D', 'L', 'R'][c % 4]).collect();
            let mut g = grid.clone();
            let mut tiles = Vec::new();
            let mut first_bad = None;
            for (i, l) in letters.chars().enumerate() {
                match g.play(l) {
                    Some(t) => tiles.push(t),
                    None => {
                        first_bad = Some((i + 1, l));
                        break;
                    }
                }
            }
            let m: Moves = letters.parse().unwrap();
            match (m.apply(&start), first_bad) {
                (Ok(end), None) => {
                    prop_assert_eq!(&end, &g.board());
                    prop_assert_eq!(m.tiles(&start).unwrap(), tiles.clone());
                    prop_assert_eq!(Moves::from_tiles(&start, &tiles).unwrap(), m.clone());
                }
                (Err(Error::Parse(ParseError::BadMove { index, token, .. })), Some((i, l))) => {
                    prop_assert_eq!(index, i);
                    prop_assert_eq!(token, l.to_string());
                }
                (r, want) => prop_assert!(false, "{:?} but the interpreter says {:?}", r, want),
            }
        }

        #[test]
        fn invert_and_simplify((grid, choices) in case()) {
            let start = grid.board();
            let (letters, end) = legal_walk(&grid, &choices);
            let m: Moves = letters.parse().unwrap();
            prop_assert_eq!(&m.apply(&start).unwrap(), &end.board());
            prop_assert_eq!(m.invert().apply(&end.board()).unwrap(), start.clone());
            let s = m.simplify();
            prop_assert!(s.len() <= m.len());
            prop_assert_eq!(s.apply(&start).unwrap(), end.board());
            // Nothing left to cancel.
            let d = s.directions();
            prop_assert!(d.windows(2).all(|w| w[1] != w[0].opposite()));
        }

        #[test]
        fn any_text_reads_or_errs(text in "[UDLRudlr0-9 ,xX'\\-]{0,24}", blank in any::<bool>()) {
            match read(&text, blank) {
                Ok(w) => {
                    let again = read(&w.format(), blank).unwrap();
                    prop_assert_eq!(again.invert().invert(), again.clone());
                    if let Written::Letters { moves, .. } = &w {
                        prop_assert_eq!(again.moves().unwrap(), moves);
                    } else {
                        prop_assert_eq!(&again, &w);
                    }
                }
                Err(e) => {
                    let known = matches!(
                        e,
                        Error::Parse(ParseError::MoveSyntax { .. })
                            | Error::Parse(ParseError::NotANumber { .. })
                            | Error::Parse(ParseError::NumberTooLarge { .. })
                            | Error::Parse(ParseError::TooManyMoves { .. })
                    );
                    prop_assert!(known, "{}", e);
                }
            }
        }

        #[test]
        fn lengths((grid, choices) in case()) {
            let (letters, _) = legal_walk(&grid, &choices);
            let m: Moves = letters.parse().unwrap();
            let mut runs = 0;
            let mut last = None;
            for l in letters.chars() {
                if last != Some(l) {
                    runs += 1;
                }
                last = Some(l);
            }
            prop_assert_eq!(m.stm_len(), letters.len());
            prop_assert_eq!(m.mtm_len(), runs);
            let short = m.format(Notation::Short, None).unwrap();
            prop_assert_eq!(short.chars().filter(|c| c.is_ascii_alphabetic()).count(), runs);
        }
    }
}
