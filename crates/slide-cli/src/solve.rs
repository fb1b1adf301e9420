//! `slide solve`: stream boards in, answers out, in input order; a bad line is reported and the batch goes on.
//!
//! Lines are read in chunks (as many as are already available, up to [`CHUNK`]); each chunk is solved in parallel
//! and its answers are written in order before the next chunk is read, so memory stays constant and answers appear
//! as soon as the input that produced them has arrived.

use std::io::{BufRead, BufWriter, Read, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use slide::{Board, Notation, Pattern, Shape, Solver};
use slide::{HeuristicChoice, Listing, Method, SolveOptions};

use crate::explain::{explain, flagged};
use crate::report::{answer_json, count_json, join, with_field, written};
use crate::{EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE};

/// Longest input line accepted (64 MiB); longer lines are reported as errors and skipped.
const MAX_LINE: usize = 64 << 20;
/// Most lines solved together.
const CHUNK: usize = 4096;
/// Chunks with fewer boards are solved board after board, each search on all threads; larger ones board by board
/// in parallel, at least this many boards per task.
const PARALLEL_BOARDS: usize = 64;

#[derive(clap::Args, Debug, Clone)]
pub struct SolveArgs {
    /// Boards to solve; when none are given, one board per line is read from standard input.
    pub boards: Vec<String>,
    /// Also print an optimal move sequence: the tiles that slide into the blank, in order.
    #[arg(long)]
    pub moves: bool,
    /// Print the moves in a notation, implies --moves: tiles (the tiles that slide into the blank: 5 4 1 2 3),
    /// long (the direction each tile moves, the speedsolvers' convention: U = the tile below the blank moves up:
    /// RDLLU), short (long with runs counted: RDL2U), blank (the direction the blank moves: LURRD). With --json,
    /// "solution" stays the tiles and "notation" holds the sequence so written.
    #[arg(long, value_name = "NAME", conflicts_with = "directions", value_parser = crate::numbers::notation)]
    pub notation: Option<Notation>,
    /// The same as --notation blank: the moves as the blank's directions (U, D, L, R; the opposite of the
    /// speedsolvers' tile letters); implies --moves.
    #[arg(long)]
    pub directions: bool,
    /// One JSON object per line: {"board": [[...]], "moves": N, "optimal": true, "nodes": N, "seconds": S,
    /// "solution": [...]}; errors as {"line": K, "error": "..."}.
    #[arg(long)]
    pub json: bool,
    /// A custom goal board (default: tiles in order, blank last), for example '0 1 2/3 4 5', or a partial goal:
    /// a pattern where x is any tile, for example '1 2 3 4/x x x x/x x x x/x x x x' (the blank is free unless the
    /// pattern has a 0): the least number of moves to any board that matches. Repeated, the goals are stages
    /// solved one after the other, each from where the previous one ended: each stage's length and moves, then
    /// the total (not claimed least: printed ~N). JSON: "stages". A pattern's table over --max-memory (or with
    /// --search) gives way to IDA* in STM; in MTM it is refused.
    #[arg(long, value_name = "PATTERN")]
    pub goal: Vec<String>,
    /// The shape of flat input lines, RxC (for example 4x4).
    #[arg(long, value_name = "RxC")]
    pub shape: Option<String>,
    /// After the number, the number of distinct shortest move sequences: exact, from the complete table up to 12
    /// cells, by a complete last IDA* iteration above (bounded by --max-nodes and --timeout: a count cut short is
    /// printed >=N). JSON: "count" (a string when over 2^53) and "count_proven".
    #[arg(long, conflicts_with_all = ["moves", "notation", "directions", "fast", "within", "all"])]
    pub count: bool,
    /// Every shortest solution (at most --limit), one per line after the number (or in --notation): in ascending
    /// order of their tile numbers up to 12 cells, in IDA*'s order above. JSON: "solutions".
    #[arg(long, conflicts_with_all = ["moves", "directions", "fast", "within"])]
    pub all: bool,
    /// With --all: at most this many solutions.
    #[arg(long, value_name = "K", default_value_t = 1000, requires = "all")]
    pub limit: usize,
    /// The flags that shape the searches.
    #[command(flatten)]
    pub search: SearchArgs,
}

/// The flags that shape searches rather than answers (method, heuristic, limits, threads): `slide solve`'s, and
/// `slide bench`'s.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// How moves are counted: stm (single-tile moves: every tile slid one cell is a move) or mtm (multi-tile
    /// moves: pushing 1 to k tiles of a row or column toward the blank is one move). With mtm the number is the
    /// least number of pushes and the moves an MTM-optimal sequence (--notation short writes one letter and count
    /// per push); mtm covers boards of at most 12 cells (tables), 4x4, 3x5, 5x3 and boards of two rows or columns (IDA* over pushes with label tables, built once: 252 MB for 4x4) and single rows and columns.
    #[arg(long, value_name = "METRIC", default_value = "stm", value_parser = crate::numbers::metric)]
    pub metric: slide::Metric,
    /// Search heuristic for boards over 12 cells (or with --search): auto (pattern databases), md (Manhattan),
    /// lc (Manhattan + linear conflicts), pdb.
    #[arg(long, default_value = "auto", value_parser = crate::numbers::heuristic)]
    pub heuristic: String,
    /// Pattern-database partition: sizes such as 6-6-3 or 7-8, or tile lists such as
    /// 1,2,3,4,5,6/7,8,9,10,11,12/13,14,15; several joined by + are maximised (6-6-3+7-8); a leading z (z6-6-3,
    /// z7-8, zdefault) asks for zero-aware databases (an entry per region of the blank), a leading zc (zc7-8,
    /// zcdefault) for the same kept per cell of the blank: faster lookups for n-k times the plain memory (2.3 GB
    /// for zc7-8, 4.8 GB for zcdefault on 5x5), a leading zb (zb6-6-3, zb7-8, zbdefault) for the plain entry and a
    /// bit per cell of the blank for one more (1.15 GB for zb7-8, 2 GB for zbdefault on 5x5); zc and zb files over
    /// 256 MiB are read into memory when loaded. The 4x4 default is zb6-6-3 (67 MB), elsewhere plain. Several
    /// joined by | are alternatives, one chosen per board: the one whose first IDA* iterations take the fewest
    /// nodes (a trial of a few million nodes at most, counted in the nodes; all are loaded). On 5x5, alt names a
    /// second 6-6-6-6 layout for this: zbdefault|zbalt (5.9 GB with the sparse index). Implies --heuristic pdb.
    #[arg(long, value_name = "PARTITION")]
    pub pdb: Option<String>,
    /// Do not also look pattern databases up on the board mirrored about the main diagonal.
    #[arg(long)]
    pub no_reflect: bool,
    /// Mixed sums: with the mirrored lookup, also add up sets of disjoint patterns drawn from both lookups (no
    /// further lookups): auto (on for boards of 25 cells and more, where it was measured to pay), on, off.
    #[arg(long, default_value = "auto", value_name = "WHEN", value_parser = ["auto", "on", "off"])]
    pub mixed_sums: String,
    /// Use IDA* even where a complete table answers (boards of at most 12 cells).
    #[arg(long)]
    pub search: bool,
    /// Reject only immediate backtracks in IDA*, not the other redundant move sequences (to measure what move
    /// pruning saves; the answers are the same).
    #[arg(long)]
    pub no_move_pruning: bool,
    /// Stop each search after this many nodes (0 to 18446744073709551615); the answer is then marked as not
    /// proven.
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = crate::numbers::max_nodes)]
    pub max_nodes: Option<u64>,
    /// Stop each search after this many seconds (more than 0, at most 1e9); the answer is then marked as not
    /// proven.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = crate::numbers::timeout)]
    pub timeout: Option<f64>,
    /// Bounded-suboptimal search: a solution at most W times the least number of moves (1 <= W <= 100). Printed
    /// as ~N.
    #[arg(long, value_name = "W", allow_hyphen_values = true, value_parser = crate::numbers::weight)]
    pub within: Option<f64>,
    /// When --timeout or --max-nodes stops the optimal search, still answer with a solution, marked: weighted IDA*
    /// with decreasing weights (5 down to 1.1) under what is left of the budget, the shortest found (printed as
    /// ~N; JSON "bound": the factor it is proven within), else fast mode (JSON "method": "fast"); the proven
    /// lower bound stays beside it.
    #[arg(long, conflicts_with = "fast")]
    pub fallback: bool,
    /// Fast mode: a valid solution for any solvable board up to 2048 x 2048 cells in polynomial time (not the
    /// shortest: printed as ~N). The default for boards over 25 cells.
    #[arg(long, conflicts_with_all = ["search", "within"])]
    pub fast: bool,
    /// Worker threads for a batch, at most 256 (default, or 0: all cores).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = crate::numbers::threads)]
    pub threads: Option<usize>,
}

impl SolveArgs {
    /// The notation asked for by --notation or --directions.
    pub fn notation(&self) -> Option<Notation> {
        self.notation.or(self.directions.then_some(Notation::Blank))
    }
}

impl SearchArgs {
    /// The library options these flags ask for, or a usage error.
    pub fn options(&self, cancel: Arc<AtomicBool>) -> Result<SolveOptions, String> {
        let heuristic = match (self.heuristic.as_str(), &self.pdb) {
            (_, Some(p)) => {
                HeuristicChoice::Pdb(p.parse().map_err(|e| format!("--pdb: {}", explain(&e)))?)
            }
            ("md", _) => HeuristicChoice::Manhattan,
            ("lc", _) => HeuristicChoice::LinearConflict,
            ("pdb", _) => HeuristicChoice::Pdb(slide::PartitionSpec::Default),
            _ => HeuristicChoice::Auto,
        };
        if self.metric == slide::Metric::Mtm {
            let search = [
                (self.fast, "--fast"),
                (self.within.is_some(), "--within"),
                (self.pdb.is_some(), "--pdb"),
                (self.heuristic != "auto", "--heuristic"),
            ];
            if let Some((_, flag)) = search.iter().find(|(given, _)| *given) {
                return Err(format!(
                    "--metric mtm: {flag} counts single-tile moves; MTM is answered by the complete tables (at most 12 cells) and by MTM IDA* with label tables (4x4, 3x5, 5x3)"
                ));
            }
        }
        if self.fallback && self.timeout.is_none() && self.max_nodes.is_none() {
            return Err(
                "--fallback needs a budget to split: --timeout SECONDS or --max-nodes N".into(),
            );
        }
        let mut b = SolveOptions::builder()
            .metric(self.metric)
            .method(if self.search {
                Method::Search
            } else if self.fast {
                Method::Fast
            } else {
                Method::Auto
            })
            .heuristic(heuristic)
            .reflect(!self.no_reflect)
            .mixed_sums(match self.mixed_sums.as_str() {
                "on" => Some(true),
                "off" => Some(false),
                _ => None,
            })
            .cancel(cancel)
            .move_pruning(!self.no_move_pruning)
            .fallback(self.fallback);
        // The value parsers checked the ranges through the library already (crate::numbers); these cannot fail then.
        if let Some(n) = self.max_nodes {
            b = b.max_nodes(n);
        }
        if let Some(t) = self.timeout {
            b = b.timeout_secs(t).map_err(|e| flagged(&e))?;
        }
        if let Some(w) = self.within.filter(|&w| w > 1.0) {
            b = b.weight(w).map_err(|e| flagged(&e))?;
        }
        Ok(b.build())
    }
}

/// Boards of more cells than this can take long to solve optimally (4x5 a minute or more, 5x5 hours): a search on
/// one without a limit is preceded by a note.
pub const LONG_SEARCH_CELLS: usize = 16;

/// Prints the note that an optimal search on `shape` can take hours; `how` says what bounds it.
pub fn long_search_note(shape: Shape, how: &str) {
    eprintln!("slide: note: optimal search on {shape} can take hours; {how}");
}

pub fn run(solver: &Solver, args: &SolveArgs, quiet: bool) -> anyhow::Result<u8> {
    let shape: Option<Shape> = match args.shape.as_deref().map(str::parse).transpose() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("slide: --shape: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let patterns = match args
        .goal
        .iter()
        .map(|g| Pattern::parse_with_shape(g, shape))
        .collect::<Result<Vec<Pattern>, _>>()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("slide: --goal: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    // One goal that leaves no choice is a goal board, answered as ever; partial goals and stages by the patterns.
    let (goal, stages) = match patterns.as_slice() {
        [] => (None, None),
        [p] if p.board().is_some() => (p.board(), None),
        _ => (None, Some(patterns)),
    };
    if stages.is_some() {
        let refused = [
            (args.count, "--count"),
            (args.all, "--all"),
            (args.search.fast, "--fast"),
            (args.search.within.is_some(), "--within"),
        ];
        if let Some((_, flag)) = refused.iter().find(|(given, _)| *given) {
            eprintln!(
                "slide: {flag} takes one goal board: partial goals (x) and stages are answered exactly (the tables of their patterns, or IDA*)"
            );
            return Ok(EXIT_USAGE);
        }
    }
    // The first Ctrl-C stops the searches (their answers say so, and the command exits 130); a second one, or one
    // during a table build, ends the process.
    let cancel = crate::interrupt::flag();
    let _listening = crate::interrupt::Listening::new();
    let opts = match args.search.options(cancel) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("slide: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let plain = opts.method == Method::Auto
        && opts.max_nodes.is_none()
        && opts.timeout.is_none()
        && opts.weight.is_none()
        && matches!(opts.heuristic, HeuristicChoice::Auto);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.search.threads.unwrap_or(0))
        .build()?;
    let bar = crate::progress::batch_bar(
        quiet,
        (!args.boards.is_empty()).then_some(args.boards.len() as u64),
    );
    let job = Job {
        solver,
        args,
        shape,
        goal,
        stages,
        opts_parallel: SolveOptions {
            parallel: true,
            ..opts.clone()
        },
        opts,
        plain,
        quiet,
        warned: AtomicBool::new(false),
    };
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut bad = false;
    let mut emit = |answers: Vec<Answer>, out: &mut BufWriter<_>| -> std::io::Result<()> {
        for a in answers {
            if let Some(e) = &a.error {
                bad = true;
                if let Some(b) = &bar {
                    b.suspend(|| eprintln!("slide: {e}"));
                } else {
                    eprintln!("slide: {e}");
                }
            }
            let mut write = |out: &mut BufWriter<_>| -> std::io::Result<()> {
                out.write_all(a.out.as_bytes())?;
                if let Some((board, goal)) = &a.stream {
                    if let Some(e) = stream_fast(solver, board, goal, args.notation(), out)? {
                        bad = true;
                        eprintln!("slide: {e}");
                    }
                }
                Ok(())
            };
            match &bar {
                // On a terminal the answer goes out while the bar is cleared, on a line of its own.
                Some(b) => b.suspend(|| write(out).and_then(|()| out.flush()))?,
                None => write(out)?,
            }
            if let Some(b) = &bar {
                b.inc(1);
                b.set_message(format!("{} nodes", a.nodes));
            }
        }
        Ok(())
    };
    let result = (|| -> std::io::Result<()> {
        if !args.boards.is_empty() {
            let items: Vec<(usize, &'static str, Input)> = args
                .boards
                .iter()
                .enumerate()
                .map(|(i, b)| (i + 1, "argument", Input::Text(b.clone())))
                .collect();
            for chunk in items.chunks(CHUNK) {
                let answers = pool.install(|| job.answer_all(chunk));
                emit(answers, &mut out)?;
                out.flush()?;
            }
            return Ok(());
        }
        let stdin = std::io::stdin();
        let mut reader = std::io::BufReader::with_capacity(1 << 16, stdin.lock());
        let mut number = 0usize;
        let mut buf: Vec<u8> = Vec::new();
        loop {
            let mut chunk: Vec<(usize, &'static str, Input)> = Vec::new();
            let mut eof = false;
            while chunk.len() < CHUNK {
                if !chunk.is_empty() && reader.buffer().is_empty() {
                    break; // the next read would wait: solve what we have first
                }
                buf.clear();
                let n = (&mut reader)
                    .take(MAX_LINE as u64 + 1)
                    .read_until(b'\n', &mut buf)?;
                if n == 0 {
                    eof = true;
                    break;
                }
                number += 1;
                if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
                    skip_line(&mut reader)?;
                    chunk.push((number, "line", Input::TooLong));
                    continue;
                }
                while matches!(buf.last(), Some(b'\n' | b'\r')) {
                    buf.pop();
                }
                if buf.iter().all(u8::is_ascii_whitespace) {
                    continue; // a blank line: nothing to answer (its number still counts)
                }
                match String::from_utf8(std::mem::take(&mut buf)) {
                    Ok(text) => chunk.push((number, "line", Input::Text(text))),
                    Err(e) => {
                        let at = e.utf8_error().valid_up_to() + 1;
                        chunk.push((number, "line", Input::BadUtf8 { at }));
                    }
                }
            }
            if !chunk.is_empty() {
                let answers = pool.install(|| job.answer_all(&chunk));
                emit(answers, &mut out)?;
            }
            if eof {
                return Ok(());
            }
            if reader.buffer().is_empty() {
                out.flush()?;
            }
        }
    })();
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    match result.and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(e.into()),
        Ok(()) => {}
    }
    Ok(if bad { EXIT_BAD_INPUT } else { EXIT_OK })
}

fn skip_line(reader: &mut impl BufRead) -> std::io::Result<()> {
    let mut skip = Vec::new();
    loop {
        skip.clear();
        let k = reader.take(1 << 20).read_until(b'\n', &mut skip)?;
        if k == 0 || skip.last() == Some(&b'\n') {
            return Ok(());
        }
    }
}

/// One input line or argument, as read: the text, or why it could not be read.
enum Input {
    /// The text (without its line end).
    Text(String),
    /// A line longer than [`MAX_LINE`] (skipped).
    TooLong,
    /// A line that is not UTF-8: the 1-based byte of the first bad sequence.
    BadUtf8 { at: usize },
}

/// What one input line produced: text for standard output, an error for standard error.
struct Answer {
    out: String,
    error: Option<String>,
    nodes: u64,
    /// A fast-mode solution too long to hold in memory: written straight to the output, in order.
    stream: Option<(Board, Board)>,
}

/// Fast-mode solutions of boards with more cells than this are streamed to the output rather than collected.
const STREAM_CELLS: usize = 1 << 18;

struct Job<'a> {
    solver: &'a Solver,
    args: &'a SolveArgs,
    shape: Option<Shape>,
    goal: Option<Board>,
    /// Partial goals: one pattern with x, or several stages.
    stages: Option<Vec<Pattern>>,
    opts: SolveOptions,
    /// `opts` with the search of one board shared among the threads.
    opts_parallel: SolveOptions,
    /// Default options: complete tables answer distances without building paths.
    plain: bool,
    quiet: bool,
    /// Whether the note about long optimal searches was printed.
    warned: AtomicBool,
}

impl Job<'_> {
    /// Answers a chunk on the pool: a large chunk board by board in parallel, a small one (a single hard board,
    /// say) board after board, each search shared among the threads.
    ///
    /// The multi-tile search cannot share one board among threads, so in MTM every chunk goes board by board in
    /// parallel, one board per task.
    fn answer_all(&self, chunk: &[(usize, &'static str, Input)]) -> Vec<Answer> {
        let shared = self.opts.metric == slide::Metric::Stm;
        if shared && chunk.len() < PARALLEL_BOARDS {
            return chunk
                .iter()
                .map(|(n, w, t)| self.answer(*n, w, t, true))
                .collect();
        }
        chunk
            .par_iter()
            .with_min_len(if shared { PARALLEL_BOARDS } else { 1 })
            .map(|(n, w, t)| self.answer(*n, w, t, false))
            .collect()
    }

    fn error(&self, number: usize, what: &str, message: &str) -> Answer {
        let out = if self.args.json {
            let mut v = serde_json::json!({ what: number, "error": message }).to_string();
            v.push('\n');
            v
        } else {
            String::new()
        };
        Answer {
            out,
            error: Some(format!("{what} {number}: {message}")),
            nodes: 0,
            stream: None,
        }
    }

    fn answer(&self, number: usize, what: &str, input: &Input, parallel: bool) -> Answer {
        let text = match input {
            Input::Text(t) => t,
            Input::TooLong => {
                let msg = format!("line longer than {} MiB", MAX_LINE >> 20);
                return self.error(number, what, &msg);
            }
            Input::BadUtf8 { at } => {
                return self.error(number, what, &format!("invalid UTF-8 at byte {at}"))
            }
        };
        let board = match Board::parse_with_shape(text, self.shape) {
            Ok(b) => b,
            Err(e) => return self.error(number, what, &explain(&e)),
        };
        if let Some(stages) = &self.stages {
            return self.staged(number, what, &board, stages);
        }
        let default_goal;
        let goal = match &self.goal {
            Some(g) => g,
            None => {
                default_goal = Board::goal(board.shape());
                &default_goal
            }
        };
        let start = Instant::now();
        if self.args.count || self.args.all {
            return self.shortest(number, what, &board, goal, start);
        }
        let want_moves = self.args.moves || self.args.notation().is_some();
        if self.plain
            && !want_moves
            && !self.args.json
            && board.shape().cells() <= slide::engine::table::MAX_TABLE_CELLS
        {
            return match self.solver.distance_in(&board, goal, self.opts.metric) {
                Ok(d) => {
                    let mut b = itoa::Buffer::new();
                    let mut out = String::with_capacity(4);
                    out.push_str(b.format(d));
                    out.push('\n');
                    Answer {
                        out,
                        error: None,
                        nodes: 0,
                        stream: None,
                    }
                }
                Err(e) => self.error(number, what, &explain(&e)),
            };
        }
        // The method is the library's choice (the one planning point): fast mode above 25 cells unless a search
        // option is given, or everywhere with --fast.
        let search = match self.solver.plan(&board, goal, &self.opts) {
            Ok(slide::Plan::Fast) => {
                return self.fast(number, what, &board, goal, want_moves, start)
            }
            Ok(plan) => matches!(plan, slide::Plan::Search(_) | slide::Plan::MtmSearch),
            Err(e) => return self.error(number, what, &explain(&e)),
        };
        if search
            && board.shape().cells() > LONG_SEARCH_CELLS
            && self.opts.timeout.is_none()
            && self.opts.max_nodes.is_none()
            && self.opts.weight.is_none()
            && !self.quiet
            && !self.warned.swap(true, std::sync::atomic::Ordering::Relaxed)
        {
            long_search_note(
                board.shape(),
                "--timeout S bounds it, --within W or --fast answer sooner",
            );
        }
        let opts = if parallel {
            &self.opts_parallel
        } else {
            &self.opts
        };
        let solution = match self.solver.solve_with(&board, goal, opts) {
            Ok(s) => s,
            Err(e) => return self.error(number, what, &explain(&e)),
        };
        let seconds = start.elapsed().as_secs_f64();
        let moves = solution.moves();
        let length = solution.length();
        let mut out = String::new();
        use std::fmt::Write as _;
        if self.args.json {
            let kind = match (want_moves, self.args.notation()) {
                (false, _) => Listing::Omit,
                (true, Some(n)) => Listing::Written(n),
                (true, None) => Listing::Tiles,
            };
            out.push_str(&answer_json(&board, &solution, seconds, kind, None, None));
            out.push('\n');
        } else {
            let mark = if solution.is_optimal() { "" } else { "~" };
            match moves.zip(length) {
                None if solution.is_unsolvable() => out.push_str("-1"),
                None => {
                    let _ = write!(out, ">={}", solution.lower_bound());
                }
                Some((m, len)) => {
                    let _ = write!(out, "{mark}{len}");
                    if want_moves && !m.is_empty() {
                        out.push(' ');
                        match self.args.notation() {
                            Some(n) => out.push_str(&written(m, &board, n)),
                            None => out.push_str(&join(m, " ")),
                        }
                    }
                }
            }
            out.push('\n');
        }
        Answer {
            out,
            error: None,
            nodes: solution.nodes(),
            stream: None,
        }
    }
}

impl Job<'_> {
    /// Partial goals: one pattern answered like a goal board (the number, the moves when asked), or stages: a line
    /// `stage K: N MOVES` per stage (moves in --notation, tiles by default), then `total ~N` (the sum, not proven
    /// least). A stage that cannot be reached prints -1 and ends the stages (`total -1`); one stopped by a limit
    /// prints >=L (`total >=L`, the stages before it and L).
    fn staged(&self, number: usize, what: &str, board: &Board, stages: &[Pattern]) -> Answer {
        let start = Instant::now();
        let mut times = Vec::with_capacity(stages.len());
        let mut last = start;
        let mut each = |_: &slide::Solution| {
            let now = Instant::now();
            times.push(now.duration_since(last).as_secs_f64());
            last = now;
        };
        let solutions = match self
            .solver
            .solve_stages(board, stages, &self.opts, &mut each)
        {
            Ok(s) => s,
            Err(e) => return self.error(number, what, &explain(&e)),
        };
        let seconds = start.elapsed().as_secs_f64();
        let want_moves = self.args.moves || self.args.notation().is_some();
        let notation = self.args.notation();
        let kind = match (want_moves || stages.len() > 1, notation) {
            (false, _) => Listing::Omit,
            (true, Some(n)) => Listing::Written(n),
            (true, None) => Listing::Tiles,
        };
        let nodes = solutions.iter().map(|s| s.nodes()).sum();
        let mut out = String::new();
        use std::fmt::Write as _;
        if let [s] = solutions.as_slice() {
            if stages.len() == 1 {
                if self.args.json {
                    out.push_str(&answer_json(board, s, seconds, kind, None, None));
                } else {
                    out.push_str(&self.length_and_moves(board, s, want_moves));
                }
                out.push('\n');
                return Answer {
                    out,
                    error: None,
                    nodes,
                    stream: None,
                };
            }
        }
        // Each stage from where the previous one ended.
        let mut at = board.clone();
        let mut total: u64 = 0;
        let mut end = None;
        let mut parts = Vec::with_capacity(solutions.len());
        for (i, s) in solutions.iter().enumerate() {
            if self.args.json {
                let json = answer_json(&at, s, times[i], kind, None, None);
                parts.push(with_field(
                    json,
                    "goal",
                    &serde_json::Value::from(stages[i].to_string()).to_string(),
                ));
            } else {
                let _ = writeln!(
                    out,
                    "stage {}: {}",
                    i + 1,
                    self.length_and_moves(&at, s, true)
                );
            }
            match (s.moves(), s.length()) {
                (Some(m), Some(len)) => {
                    total += len as u64;
                    for &t in m {
                        if at.apply(t).is_err() {
                            return self.error(
                                number,
                                what,
                                "internal error: a stage's moves do not apply",
                            );
                        }
                    }
                }
                _ if s.is_unsolvable() => end = Some("-1".to_string()),
                _ => end = Some(format!(">={}", total + s.lower_bound())),
            }
        }
        let total_text = end.clone().unwrap_or_else(|| format!("~{total}"));
        if self.args.json {
            let total_json = match &end {
                Some(e) if e == "-1" => "-1".to_string(),
                Some(_) => "null".to_string(),
                None => total.to_string(),
            };
            let _ = write!(
                out,
                "{{\"board\": {board}, \"metric\": \"{}\", \"stages\": [{}], \"moves\": {total_json}, \"optimal\": false, \"nodes\": {nodes}, \"seconds\": {seconds:.6}}}",
                self.opts.metric,
                parts.join(", ")
            );
            out.push('\n');
        } else {
            let _ = writeln!(out, "total {total_text}");
        }
        Answer {
            out,
            error: None,
            nodes,
            stream: None,
        }
    }

    /// An answer's text: the length (~N when not proven least, >=L when a limit stopped it, -1 when unreachable),
    /// then the moves when asked for (in --notation, tiles by default).
    fn length_and_moves(&self, board: &Board, s: &slide::Solution, want_moves: bool) -> String {
        let mut out = String::new();
        match s.moves().zip(s.length()) {
            None if s.is_unsolvable() => out.push_str("-1"),
            None => out.push_str(&format!(">={}", s.lower_bound())),
            Some((m, len)) => {
                if !s.is_optimal() {
                    out.push('~');
                }
                out.push_str(&len.to_string());
                if want_moves && !m.is_empty() {
                    out.push(' ');
                    match self.args.notation() {
                        Some(n) => out.push_str(&written(m, board, n)),
                        None => out.push_str(&join(m, " ")),
                    }
                }
            }
        }
        out
    }

    /// `--count` and `--all`: the least number of moves with the number of shortest solutions, or with every one
    /// of them (at most `--limit`).
    fn shortest(
        &self,
        number: usize,
        what: &str,
        board: &Board,
        goal: &Board,
        start: Instant,
    ) -> Answer {
        // Counting first (under the limits); the answer's solve after it repeats a search already proven.
        let result = if self.args.count {
            self.solver
                .count_optimal_with(board, goal, &self.opts)
                .map(Err)
        } else {
            self.solver
                .optimal_solutions_with(board, goal, self.args.limit, &self.opts)
                .map(Ok)
        }
        .and_then(|extra| Ok((self.solver.solve_with(board, goal, &self.opts)?, extra)));
        let (solution, extra) = match result {
            Ok(r) => r,
            Err(e) => return self.error(number, what, &explain(&e)),
        };
        let seconds = start.elapsed().as_secs_f64();
        let notation = self.args.notation();
        let mut out = String::new();
        let distance = if solution.is_unsolvable() {
            Some(-1)
        } else {
            solution.distance().map(|d| d as i64)
        };
        let Some(d) = distance else {
            let e = slide::Error::Solve(slide::SolveError::LimitReached {
                what: "the least number of moves".into(),
                lower_bound: solution.lower_bound(),
            });
            return self.error(number, what, &explain(&e));
        };
        match (&extra, self.args.json) {
            (Err(c), true) => out.push_str(&with_field(
                with_field(
                    answer_json(board, &solution, seconds, Listing::Omit, None, None),
                    "count",
                    &count_json(c.count),
                ),
                "count_proven",
                &c.proven.to_string(),
            )),
            (Err(c), false) => {
                let mark = if c.proven { "" } else { ">=" };
                out.push_str(&format!("{d} {mark}{}", c.count));
            }
            (Ok(all), true) => {
                let tiles: Vec<String> =
                    all.iter().map(|m| format!("[{}]", join(m, ","))).collect();
                let mut json = with_field(
                    answer_json(board, &solution, seconds, Listing::Omit, None, None),
                    "solutions",
                    &format!("[{}]", tiles.join(",")),
                );
                if let Some(n) = notation {
                    let written: Vec<String> = all.iter().map(|m| written(m, board, n)).collect();
                    json = with_field(json, "notations", &serde_json::json!(written).to_string());
                }
                out.push_str(&json);
            }
            (Ok(all), false) => {
                out.push_str(&d.to_string());
                for m in all.iter().filter(|m| !m.is_empty()) {
                    out.push('\n');
                    match notation {
                        Some(n) => out.push_str(&written(m, board, n)),
                        None => out.push_str(&join(m, " ")),
                    }
                }
            }
        }
        out.push('\n');
        Answer {
            out,
            error: None,
            nodes: solution.nodes(),
            stream: None,
        }
    }

    /// Fast mode: a valid solution, marked as not proven shortest, with the Manhattan distance as lower bound.
    fn fast(
        &self,
        number: usize,
        what: &str,
        board: &Board,
        goal: &Board,
        want_moves: bool,
        start: Instant,
    ) -> Answer {
        if board.unsolvable_reason(goal).ok().flatten().is_some() {
            // The library's answer (it stops at the parity test), written by the one answer writer.
            let solution = match self.solver.solve_with(board, goal, &self.opts) {
                Ok(s) => s,
                Err(e) => return self.error(number, what, &explain(&e)),
            };
            let out = if self.args.json {
                let seconds = start.elapsed().as_secs_f64();
                let kind = if want_moves {
                    Listing::Tiles
                } else {
                    Listing::Omit
                };
                let mut text = answer_json(board, &solution, seconds, kind, Some("fast"), None);
                text.push('\n');
                text
            } else {
                "-1\n".to_string()
            };
            return Answer {
                out,
                error: None,
                nodes: 0,
                stream: None,
            };
        }
        if want_moves && !self.args.json && board.shape().cells() > STREAM_CELLS {
            return Answer {
                out: String::new(),
                error: None,
                nodes: 0,
                stream: Some((board.clone(), goal.clone())),
            };
        }
        let lower = board.manhattan_to(goal).unwrap_or(0);
        // A board a few moves from the goal gets its optimum, from a small bounded search; else fast mode's
        // solution with every move followed by its reverse cancelled (the moves are held below STREAM_CELLS).
        let near = near_optimum(self.solver, board, goal, lower);
        let result = match &near {
            Some(m) => Ok((m.len() as u64, Some(m.clone()))),
            None if want_moves || board.shape().cells() <= STREAM_CELLS => {
                slide::fast::fast_moves(self.solver, board, goal).and_then(|m| {
                    let m = slide::Moves::from_tiles(board, &m)?
                        .simplify()
                        .tiles(board)?;
                    Ok((m.len() as u64, Some(m)))
                })
            }
            None => slide::fast::fast_length(self.solver, board, goal).map(|n| (n, None)),
        };
        let (len, moves) = match result {
            Ok((len, moves)) => (len, moves.filter(|_| want_moves)),
            Err(e) => return self.error(number, what, &explain(&e)),
        };
        let seconds = start.elapsed().as_secs_f64();
        // Up to 9 cells fast mode answers from the complete tables: optimal.
        let optimal = near.is_some() || board.shape().cells() <= 9 || board.shape().is_line();
        let mut out = String::new();
        use std::fmt::Write as _;
        if self.args.json {
            let kind = match (&moves, self.args.notation()) {
                (None, _) => Listing::Omit,
                (Some(_), Some(n)) => Listing::Written(n),
                (Some(_), None) => Listing::Tiles,
            };
            let sol = slide::Solution::from_moves(moves.clone().unwrap_or_default(), optimal)
                .with_lower_bound(lower);
            let counted = moves.is_none().then_some(len);
            out.push_str(&answer_json(
                board,
                &sol,
                seconds,
                kind,
                Some("fast"),
                counted,
            ));
            out.push('\n');
        } else {
            let _ = write!(out, "{}{len}", if optimal { "" } else { "~" });
            if let Some(m) = moves.filter(|m| !m.is_empty()) {
                out.push(' ');
                match self.args.notation() {
                    Some(n) => out.push_str(&written(&m, board, n)),
                    None => out.push_str(&join(&m, " ")),
                }
            }
            out.push('\n');
        }
        Answer {
            out,
            error: None,
            nodes: 0,
            stream: None,
        }
    }
}

/// Boards whose Manhattan distance to the goal is at most this are first searched (IDA*, Manhattan with linear
/// conflicts, at most [`NEAR_NODES`] nodes) for their optimum before fast mode answers.
const NEAR_DISTANCE: u64 = 24;

/// The node budget of the search for a near board's optimum.
const NEAR_NODES: u64 = 200_000;

/// An optimal solution (tiles) of a board within a few moves of the goal (Manhattan distance `lower`), found by a
/// small bounded search; `None` when the board is farther or the search did not prove one.
fn near_optimum(
    solver: &Solver,
    board: &Board,
    goal: &Board,
    lower: u64,
) -> Option<Vec<slide::Tile>> {
    if lower > NEAR_DISTANCE {
        return None;
    }
    let opts = SolveOptions::builder()
        .method(Method::Search)
        .heuristic(HeuristicChoice::LinearConflict)
        .max_nodes(NEAR_NODES)
        .build();
    let s = solver.solve_with(board, goal, &opts).ok()?;
    if !s.is_optimal() {
        return None;
    }
    s.into_moves()
}

/// Writes a fast-mode solution too long to hold: the length first (a counting pass), then the moves as the
/// second pass produces them. Returns the library's error message, if any.
fn stream_fast(
    solver: &Solver,
    board: &Board,
    goal: &Board,
    notation: Option<Notation>,
    out: &mut impl Write,
) -> std::io::Result<Option<String>> {
    let len = match slide::fast::fast_length(solver, board, goal) {
        Ok(n) => n,
        Err(e) => return Ok(Some(explain(&e))),
    };
    write!(out, "~{len}")?;
    if len > 0 {
        out.write_all(b" ")?;
    }
    let mut b = board.clone();
    let mut err: Option<std::io::Error> = None;
    let mut first = true;
    let mut letters = notation.and_then(slide::notation::LetterWriter::new);
    let mut text = String::new();
    let r = slide::fast::solve_fast(solver, board, goal, &mut |t| {
        if err.is_some() {
            return;
        }
        let res = if let Some(w) = &mut letters {
            text.clear();
            match slide::notation::play(&mut b, t) {
                Some(d) => w.push(d, &mut text),
                None => text.push('?'),
            }
            out.write_all(text.as_bytes())
        } else {
            let sep: &[u8] = if first { b"" } else { b" " };
            out.write_all(sep)
                .and_then(|_| out.write_all(itoa::Buffer::new().format(t).as_bytes()))
        };
        first = false;
        if let Err(e) = res {
            err = Some(e);
        }
    });
    if let Some(e) = err {
        return Err(e);
    }
    if let Err(e) = r {
        return Ok(Some(explain(&e)));
    }
    if let Some(w) = &mut letters {
        text.clear();
        w.finish(&mut text);
        out.write_all(text.as_bytes())?;
    }
    out.write_all(b"\n")?;
    Ok(None)
}

/// A board as rows separated by '/', numbers by spaces: `1 2 3/4 0 5`.
pub fn slash(b: &Board) -> String {
    b.rows()
        .iter()
        .map(|r| join(r, " "))
        .collect::<Vec<_>>()
        .join("/")
}
