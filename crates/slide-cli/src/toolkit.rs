//! The player's toolkit: `slide apply` (play a move sequence on a board) and `slide moves` (invert, simplify,
//! count a sequence), thin faces over `slide::notation`.

use crate::explain::explain;
use std::io::{BufRead, Read, Write};

use slide::notation::{self, Written};
use slide::{Board, Notation, ParseError};

use crate::solve::slash;
use crate::{EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE};

/// Longest input line accepted (64 MiB): more than any sequence of [`notation::MAX_MOVES`] moves needs.
const MAX_LINE: usize = 64 << 20;

#[derive(clap::Args, Debug, Clone)]
pub struct ApplyArgs {
    /// BOARD MOVES, or only MOVES with --solved. Without MOVES, lines `BOARD | MOVES` (or MOVES with --solved) are
    /// read from standard input, one answer per line.
    #[arg(value_name = "BOARD MOVES", num_args = 0..=2)]
    pub args: Vec<String>,
    /// Start from the goal of this shape, RxC (the default goal, or --goal).
    #[arg(long, value_name = "RxC")]
    pub solved: Option<String>,
    /// With --solved: start from this goal board instead of the default one.
    #[arg(long, value_name = "BOARD", requires = "solved")]
    pub goal: Option<String>,
    /// Read letters as the blank's directions (as `slide solve --directions` prints them), not the tiles'.
    #[arg(long)]
    pub blank: bool,
    /// Print each board as JSON rows ([[1,2,3],[4,5,0]]); errors as {"line": K, "error": "..."}.
    #[arg(long)]
    pub json: bool,
}

/// What `slide moves` does with a sequence.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// The sequence that undoes it, in the notation it was written in.
    Invert,
    /// Moves followed by their reverse cancelled, repeatedly; printed short (runs merged).
    Simplify,
    /// The length as `STM MTM`: single-tile moves, and runs of one direction (multi-tile moves).
    Length,
}

#[derive(clap::Args, Debug, Clone)]
pub struct MovesArgs {
    /// invert, simplify or length.
    #[arg(value_enum)]
    pub op: Op,
    /// The move sequence; without it, one sequence per line is read from standard input.
    pub moves: Option<String>,
    /// Read letters as the blank's directions, not the tiles'.
    #[arg(long)]
    pub blank: bool,
    /// The start board: needed for tile numbers (except to invert them); the sequence is checked on it.
    #[arg(long, value_name = "BOARD")]
    pub board: Option<String>,
    /// Write invert's or simplify's answer in this notation (tiles needs --board).
    #[arg(long, value_name = "NAME", value_parser = crate::numbers::notation)]
    pub notation: Option<Notation>,
}

/// `slide apply`.
pub fn apply(args: &ApplyArgs) -> anyhow::Result<u8> {
    let start = match &args.solved {
        None => None,
        Some(shape) => match crate::read_goal(shape, args.goal.as_deref()) {
            Ok(g) => Some(g),
            Err(e) => {
                eprintln!("slide: --solved: {e}");
                return Ok(EXIT_USAGE);
            }
        },
    };
    // `column`: where the moves start in their line, so that errors name the line's column.
    let answer =
        |board: Result<Board, String>, moves: &str, column: usize| -> Result<String, String> {
            let board = board?;
            if moves.trim().is_empty() {
                return Err("no moves given".into());
            }
            let written = read(moves, args.blank, column)?;
            let end = written.apply(&board).map_err(|e| explain(&e))?;
            Ok(if args.json {
                end.to_string()
            } else {
                slash(&end)
            })
        };
    let parse = |text: &str| Board::parse(text).map_err(|e| format!("board: {}", explain(&e)));
    match (&start, args.args.as_slice()) {
        (Some(_), [_, _]) => {
            eprintln!("slide: apply --solved takes only MOVES, not a board");
            Ok(EXIT_USAGE)
        }
        (None, [_]) => {
            eprintln!("slide: apply needs BOARD and MOVES (or --solved RxC and MOVES)");
            Ok(EXIT_USAGE)
        }
        (Some(s), [moves]) => single(args.json, answer(Ok(s.clone()), moves, 0)),
        (None, [board, moves]) => single(args.json, answer(parse(board), moves, 0)),
        (_, _) => batch(args.json, |line| match &start {
            Some(s) => answer(Ok(s.clone()), line, 0),
            None => {
                let (board, moves) = line
                    .split_once('|')
                    .ok_or("expected BOARD | MOVES, for example 1 2 3/4 0 5 | R")?;
                if moves.trim().is_empty() {
                    return Err("no moves after '|'".into());
                }
                answer(parse(board), moves, board.chars().count() + 1)
            }
        }),
    }
}

/// `slide moves`.
pub fn moves(args: &MovesArgs) -> anyhow::Result<u8> {
    let board = match args.board.as_deref().map(Board::parse).transpose() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("slide: --board: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let answer = |text: &str| -> Result<String, String> {
        let written = read(text, args.blank, 0)?;
        let moves = match (&board, &written) {
            (Some(b), _) => {
                // Check the sequence on the board.
                written.apply(b).map_err(|e| explain(&e))?;
                Some(written.resolve(b).map_err(|e| explain(&e))?)
            }
            (None, Written::Letters { moves, .. }) => Some(moves.clone()),
            (None, Written::Tiles(_)) => None,
        };
        let need = || -> Result<&slide::Moves, String> {
            moves.as_ref().ok_or_else(|| {
                "tile numbers need the start board: give --board BOARD, or write letters".into()
            })
        };
        let write = |m: &slide::Moves, n: Notation| -> Result<String, String> {
            // The start board for tiles: the inverse starts where the sequence ends.
            m.format(n, board.as_ref()).map_err(|e| match e {
                slide::Error::Parse(slide::ParseError::NeedsBoard) => {
                    "--notation tiles needs --board BOARD".into()
                }
                e => e.to_string(),
            })
        };
        match args.op {
            Op::Invert => match (args.notation, &board) {
                (None, _) => Ok(written.invert().format()),
                (Some(Notation::Tiles), Some(b)) => {
                    let m = need()?;
                    let end = m.apply(b).map_err(|e| explain(&e))?;
                    m.invert()
                        .format(Notation::Tiles, Some(&end))
                        .map_err(|e| explain(&e))
                }
                (Some(n), _) => write(&need()?.invert(), n),
            },
            Op::Simplify => write(
                &need()?.simplify(),
                args.notation.unwrap_or(Notation::Short),
            ),
            Op::Length => {
                let m = need()?;
                Ok(format!("{} {}", m.stm_len(), m.mtm_len()))
            }
        }
    };
    match &args.moves {
        Some(m) => single(false, answer(m)),
        None => batch(false, answer),
    }
}

/// Reads a move sequence that starts after `column` characters of its line; errors name the line's column.
pub(crate) fn read(text: &str, blank: bool, column: usize) -> Result<Written, String> {
    use slide::Error;
    notation::read(text, blank).map_err(|e| {
        let e = match e {
            Error::Parse(ParseError::MoveSyntax { message, column: c }) => {
                Error::Parse(ParseError::MoveSyntax {
                    message,
                    column: c + column,
                })
            }
            Error::Parse(ParseError::NotANumber { token, column: c }) => {
                Error::Parse(ParseError::NotANumber {
                    token,
                    column: c + column,
                })
            }
            Error::Parse(ParseError::NumberTooLarge { token, column: c }) => {
                Error::Parse(ParseError::NumberTooLarge {
                    token,
                    column: c + column,
                })
            }
            e => e,
        };
        format!("moves: {}", explain(&e))
    })
}

/// Prints the one answer of a command-line argument, or its error.
pub(crate) fn single(json: bool, r: Result<String, String>) -> anyhow::Result<u8> {
    let mut out = std::io::stdout().lock();
    match r {
        Ok(text) => {
            writeln!(out, "{text}")?;
            Ok(EXIT_OK)
        }
        Err(e) => {
            if json {
                writeln!(out, "{}", serde_json::json!({ "error": e }))?;
            }
            eprintln!("slide: {e}");
            Ok(EXIT_BAD_INPUT)
        }
    }
}

/// Answers standard input line by line, in order; a bad line goes to standard error as `slide: line N: …` (and,
/// with `json`, as `{"line": N, "error": "…"}` on standard output) and the rest are still answered.
pub(crate) fn batch(
    json: bool,
    mut answer: impl FnMut(&str) -> Result<String, String>,
) -> anyhow::Result<u8> {
    let mut reader = std::io::BufReader::new(std::io::stdin().lock());
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut bad = false;
    let mut buf = Vec::new();
    let mut number = 0usize;
    let result = (|| -> std::io::Result<()> {
        loop {
            buf.clear();
            let n = (&mut reader)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut buf)?;
            if n == 0 {
                return Ok(());
            }
            number += 1;
            let r = if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
                // Skip the rest of the line.
                loop {
                    buf.clear();
                    let k = (&mut reader).take(1 << 20).read_until(b'\n', &mut buf)?;
                    if k == 0 || buf.last() == Some(&b'\n') {
                        break;
                    }
                }
                Err(format!("line longer than {} MiB", MAX_LINE >> 20))
            } else {
                while matches!(buf.last(), Some(b'\n' | b'\r')) {
                    buf.pop();
                }
                if buf.iter().all(u8::is_ascii_whitespace) {
                    // A blank line: nothing to answer (its number still counts).
                    if reader.buffer().is_empty() {
                        out.flush()?;
                    }
                    continue;
                }
                match std::str::from_utf8(&buf) {
                    Ok(text) => answer(text),
                    Err(e) => Err(format!("invalid UTF-8 at byte {}", e.valid_up_to() + 1)),
                }
            };
            match r {
                Ok(text) => writeln!(out, "{text}")?,
                Err(e) => {
                    bad = true;
                    if json {
                        writeln!(out, "{}", serde_json::json!({ "line": number, "error": e }))?;
                    }
                    out.flush()?;
                    eprintln!("slide: line {number}: {e}");
                }
            }
            if reader.buffer().is_empty() {
                out.flush()?;
            }
        }
    })();
    match result.and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(e.into()),
        Ok(()) => {}
    }
    Ok(if bad { EXIT_BAD_INPUT } else { EXIT_OK })
}
