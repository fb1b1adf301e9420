//! `slide solve`: stream boards in, answers out, in input order; a bad line is reported and the batch goes on.

use std::io::{BufRead, BufWriter, Read, Write};

use slide::{Board, Shape, Solver};

use crate::{EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE};

/// Longest input line accepted (64 MiB); longer lines are reported as errors and skipped.
const MAX_LINE: usize = 64 << 20;

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Boards to solve; when none are given, one board per line is read from standard input.
    boards: Vec<String>,
    /// Also print an optimal move sequence: the tiles that slide into the blank, in order.
    #[arg(long)]
    moves: bool,
    /// Print the moves as the blank's directions (U, D, L, R) instead of tiles; implies --moves.
    #[arg(long)]
    directions: bool,
    /// One JSON object per line: {"board": [[...]], "moves": N, "solution": [...]}; errors as {"line": K, "error": "..."}.
    #[arg(long)]
    json: bool,
    /// A custom goal board (default: tiles in order, blank last), for example '0 1 2/3 4 5'.
    #[arg(long, value_name = "BOARD")]
    goal: Option<String>,
    /// The shape of flat input lines, RxC (for example 4x4).
    #[arg(long, value_name = "RxC")]
    shape: Option<String>,
}

pub fn run(solver: &Solver, args: &SolveArgs) -> anyhow::Result<u8> {
    let shape: Option<Shape> = match args.shape.as_deref().map(str::parse).transpose() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("slide: --shape: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let goal = match args
        .goal
        .as_deref()
        .map(|g| Board::parse_with_shape(g, shape))
        .transpose()
    {
        Ok(g) => g,
        Err(e) => {
            eprintln!("slide: --goal: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let mut job = Job {
        solver,
        args,
        shape,
        goal,
        default_goal: None,
        out: BufWriter::with_capacity(1 << 16, std::io::stdout().lock()),
        bad: false,
    };
    let result = if args.boards.is_empty() {
        job.stdin()
    } else {
        job.arguments()
    };
    match result.and_then(|()| job.out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(e.into()),
        Ok(()) => {}
    }
    Ok(if job.bad { EXIT_BAD_INPUT } else { EXIT_OK })
}

struct Job<'a, W: Write> {
    solver: &'a Solver,
    args: &'a SolveArgs,
    shape: Option<Shape>,
    goal: Option<Board>,
    default_goal: Option<Board>,
    out: W,
    bad: bool,
}

impl<W: Write> Job<'_, W> {
    fn arguments(&mut self) -> std::io::Result<()> {
        for (i, text) in self.args.boards.iter().enumerate() {
            self.one(i + 1, "argument", text)?;
        }
        Ok(())
    }

    fn stdin(&mut self) -> std::io::Result<()> {
        let stdin = std::io::stdin();
        let mut reader = std::io::BufReader::with_capacity(1 << 16, stdin.lock());
        let mut buf: Vec<u8> = Vec::new();
        let mut number = 0usize;
        loop {
            if reader.buffer().is_empty() {
                // About to wait for input: let the answers so far be seen (streaming).
                self.out.flush()?;
            }
            buf.clear();
            let n = (&mut reader)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut buf)?;
            if n == 0 {
                return Ok(());
            }
            number += 1;
            if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
                // Skip the rest of the overlong line.
                let mut skip = Vec::new();
                loop {
                    skip.clear();
                    let k = (&mut reader).take(1 << 20).read_until(b'\n', &mut skip)?;
                    if k == 0 || skip.last() == Some(&b'\n') {
                        break;
                    }
                }
                self.error(
                    number,
                    "line",
                    &format!("line longer than {} MiB", MAX_LINE >> 20),
                )?;
                continue;
            }
            while matches!(buf.last(), Some(b'\n' | b'\r')) {
                buf.pop();
            }
            match std::str::from_utf8(&buf) {
                Ok(text) => {
                    let text = text.to_owned();
                    self.one(number, "line", &text)?;
                }
                Err(e) => self.error(
                    number,
                    "line",
                    &format!("invalid UTF-8 at byte {}", e.valid_up_to() + 1),
                )?,
            }
        }
    }

    fn error(&mut self, number: usize, what: &str, message: &str) -> std::io::Result<()> {
        self.bad = true;
        eprintln!("slide: {what} {number}: {message}");
        if self.args.json {
            let v = serde_json::json!({ what: number, "error": message });
            writeln!(self.out, "{v}")?;
        }
        Ok(())
    }

    fn one(&mut self, number: usize, what: &str, text: &str) -> std::io::Result<()> {
        let board = match Board::parse_with_shape(text, self.shape) {
            Ok(b) => b,
            Err(e) => return self.error(number, what, &e.to_string()),
        };
        let goal = match &self.goal {
            Some(g) => g,
            None => {
                if self
                    .default_goal
                    .as_ref()
                    .is_none_or(|g| g.shape() != board.shape())
                {
                    self.default_goal = Some(Board::goal(board.shape()));
                }
                self.default_goal.as_ref().expect("just set")
            }
        };
        let want_moves = self.args.moves || self.args.directions;
        if !want_moves {
            match self.solver.distance(&board, goal) {
                Ok(d) => {
                    if self.args.json {
                        writeln!(self.out, "{{\"board\": {board}, \"moves\": {d}}}")?;
                    } else {
                        let mut b = itoa::Buffer::new();
                        self.out.write_all(b.format(d).as_bytes())?;
                        self.out.write_all(b"\n")?;
                    }
                    Ok(())
                }
                Err(e) => self.error(number, what, &e.to_string()),
            }
        } else {
            let solution = match self.solver.solve(&board, goal) {
                Ok(s) => s,
                Err(e) => return self.error(number, what, &e.to_string()),
            };
            let moves = solution.moves.as_deref();
            if self.args.json {
                let sol = match moves {
                    None => "null".to_string(),
                    Some(_) if self.args.directions => {
                        format!("\"{}\"", letters(&solution, &board))
                    }
                    Some(m) => format!("[{}]", join(m, ",")),
                };
                writeln!(
                    self.out,
                    "{{\"board\": {board}, \"moves\": {}, \"solution\": {sol}}}",
                    solution.distance()
                )?;
            } else {
                match moves {
                    None => writeln!(self.out, "-1")?,
                    Some(m) if self.args.directions => {
                        writeln!(self.out, "{} {}", m.len(), letters(&solution, &board))?
                    }
                    Some(m) if m.is_empty() => writeln!(self.out, "0")?,
                    Some(m) => writeln!(self.out, "{} {}", m.len(), join(m, " "))?,
                }
            }
            Ok(())
        }
    }
}

fn letters(solution: &slide::Solution, board: &Board) -> String {
    solution
        .directions(board)
        .map(|d| d.iter().map(|d| d.letter()).collect())
        .unwrap_or_default()
}

fn join(tiles: &[u32], sep: &str) -> String {
    let mut s = String::with_capacity(tiles.len() * 3);
    for (i, t) in tiles.iter().enumerate() {
        if i > 0 {
            s.push_str(sep);
        }
        s.push_str(itoa::Buffer::new().format(*t));
    }
    s
}

/// A board as rows separated by '/', numbers by spaces: `1 2 3/4 0 5`.
pub fn slash(b: &Board) -> String {
    b.rows()
        .iter()
        .map(|r| join(r, " "))
        .collect::<Vec<_>>()
        .join("/")
}
