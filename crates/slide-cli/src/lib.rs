//! The `slide` command line: a thin face over the `slide` library (argument parsing, reading, printing), as a
//! library whose [`main`] the binary (`src/main.rs`) calls. The server ([`serve`]) is public for the fuzz targets
//! (`fuzz/`), which call its request parsing.

mod analyse;
mod bench;
pub mod explain;
mod history;
mod interrupt;
mod numbers;
mod progress;
mod render;
mod report;
pub mod serve;
mod solve;
mod tables;
mod toolkit;
mod warm;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Subcommand};

use tables::{PdbIndex, Searching, TableArgs};

/// Exit status: every board was answered.
pub const EXIT_OK: u8 = 0;
/// Exit status: some input line was bad (its error went to standard error), or the work failed.
pub const EXIT_BAD_INPUT: u8 = 1;
/// Exit status: the command line itself was wrong.
pub const EXIT_USAGE: u8 = 2;

/// Solve sliding-tile puzzles exactly: the least number of moves, and the moves.
#[derive(clap::Parser, Debug)]
#[command(name = "slide", version, about, long_about = None, after_help = EXIT_HELP)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// `--pdb-index` before the command name.
    #[command(flatten)]
    index: PdbIndex,
    /// The table options, before the command name: handed to the command ([`tables::take_leading`]).
    #[command(flatten)]
    tables: TableArgs,
}

const EXIT_HELP: &str = "\
Board formats: JSON rows [[1,2,3],[4,0,5]]; rows separated by '/', numbers by spaces or commas: 1 2 3/4 0 5;
a flat list of numbers with --shape RxC (a square count such as 16 numbers is read as 4x4 without it).
0 is the blank. Default goal: tiles in order, blank last. A move is the tile that slides into the blank.

--pdb-index, --cache-dir, --no-cache, --max-memory and --quiet go before or after the command name, for the
commands that build or load tables: all but apply, moves and history (--pdb-index: not stats or scramble either).

Exit status: 0 every board answered (or the reader of a pipe has gone); 1 some input was bad (errors on
standard error) or the work failed; 2 usage error; 130 interrupted by Ctrl-C.";

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the least number of moves for each board (-1 when it cannot be solved).
    ///
    /// Boards come as arguments, or one per line on standard input when none is given; answers come in input
    /// order, one per line, as soon as each board is read.
    ///
    /// Which method answers, by default:
    ///   at most 12 cells: complete distance tables: exact at once (3x4, 4x3, 2x6 and 6x2 build a 60 MB table
    ///     once, about 30 s, cached on disk);
    ///   13 to 25 cells: IDA* with pattern databases: exact (the 15-puzzle in about a second or less; 5x5 can
    ///     take hours: bound it with --timeout, or use --within or --fast);
    ///   more than 25 cells: fast mode: a valid solution at once, not the shortest, printed as ~N;
    ///   single rows and columns: exact at once, any length.
    /// A plain number is always a proven least number of moves; ~N marks a solution not proven shortest, >=L a
    /// search stopped by a limit (L is a proven lower bound).
    #[command(verbatim_doc_comment)]
    Solve(Searching<solve::SolveArgs>),
    /// Distance statistics of a shape: reachable states, states at each distance, god's number, the farthest boards.
    Stats {
        /// Also draw the distance histogram, god's number marked, as an SVG chart into FILE.
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
        /// The shape, RxC (at most 12 cells, or a single row or column).
        shape: String,
        /// A custom goal board (default: tiles in order, blank last), or a partial goal: a pattern where x is any
        /// tile, such as '1 2 3/x x x/x x x', counted by the states of its named tiles and the blank.
        #[arg(long, value_name = "BOARD")]
        goal: Option<String>,
        /// Print the farthest boards even when there are many (at most 64 are kept).
        #[arg(long)]
        all: bool,
        /// How moves are counted: stm (single-tile moves) or mtm (multi-tile moves: a push of 1 to k tiles of a
        /// row or column is one move); each metric has its own table and god's number.
        #[arg(long, value_name = "METRIC", default_value = "stm", value_parser = numbers::metric)]
        metric: slide::Metric,
        /// The table options.
        #[command(flatten)]
        tables: TableArgs,
    },
    /// Solve a benchmark set with known optimal lengths (korf100, korf24, or a file) and report nodes and times.
    Bench(Searching<bench::BenchArgs>),
    /// Print random solvable boards, one per line, in a format `slide solve` reads.
    Scramble {
        /// The shape, RxC.
        shape: String,
        /// How many boards (any number: they stream out, and a closed pipe ends the command).
        #[arg(long, short = 'n', default_value_t = 1, allow_hyphen_values = true)]
        count: u64,
        /// Seed for reproducible boards, 0 to 18446744073709551615 (default: random).
        #[arg(long, allow_hyphen_values = true)]
        seed: Option<u64>,
        /// Instead of uniformly random boards, walk this many random moves from the goal (never undoing a move),
        /// at most 1000000000.
        #[arg(long, value_name = "L", allow_hyphen_values = true,
              value_parser = clap::value_parser!(u64).range(..=numbers::MAX_WALK))]
        walk: Option<u64>,
        /// A custom goal board (default: tiles in order, blank last), or a partial goal: a pattern where x is any
        /// tile (the boards that can reach a matching board; --walk from a random matching board).
        #[arg(long, value_name = "BOARD")]
        goal: Option<String>,
        /// Output format: json ([[1,2],[3,0]]), slash (1 2/3 0; a single row as json, [[1,2,0]], since it has no
        /// row to separate) or flat (1 2 3 0: read back with `solve --shape RxC`, unless the count is a square).
        #[arg(long, default_value = "json", value_parser = ["json", "slash", "flat"])]
        format: String,
        /// After each board, a tab and a move sequence that takes the goal to it: with --walk, the walk itself;
        /// else optimal up to 12 cells (and on single rows and columns), else fast mode's solution inverted;
        /// checked before it is printed.
        #[arg(long)]
        moves: bool,
        /// The notation of --moves: short (the default), long, blank or tiles; implies --moves.
        #[arg(long, value_name = "NAME", value_parser = numbers::notation)]
        notation: Option<slide::Notation>,
        /// The table options.
        #[command(flatten)]
        tables: TableArgs,
    },
    /// Play a move sequence on a board and print the board it ends on (1 2 3/4 5 0).
    ///
    /// MOVES are tile numbers (5 4 1 2 3: the tiles that slide into the blank) or letters U D L R naming the
    /// direction a tile moves, the speedsolvers' convention (U: the tile below the blank moves up), long (RRUULD)
    /// or short (R2U2LD); spaces and lower case are allowed; --blank reads letters as the blank's directions
    /// instead. Without MOVES, lines `BOARD | MOVES` are read from standard input, one answer per line.
    #[command(verbatim_doc_comment)]
    Apply(toolkit::ApplyArgs),
    /// Transform a move sequence: invert (the moves that undo it, same notation), simplify (cancel every move
    /// followed by its reverse; printed short), length (STM MTM).
    Moves(toolkit::MovesArgs),
    /// Analyse a move sequence played from a board: whether it solves, its length (STM and MTM), the least number
    /// of moves, the moves over it, the distance to the goal after each move, and the mistakes (the moves after
    /// which the board was not closer).
    ///
    /// MOVES as for `slide apply`. Without BOARD MOVES, lines `BOARD | MOVES` are read from standard input and a
    /// summary ends the batch (how many optimal, +2, +4, …, the mean over), on standard error or, with --json, as
    /// a last line {"summary": …}. Exact: complete tables up to 12 cells, IDA* above (4x4 in seconds).
    #[command(verbatim_doc_comment)]
    Analyse(Searching<analyse::AnalyseArgs>),
    /// Print the least number of moves and every move that starts a shortest solution: `21 2 5` (tile numbers,
    /// ascending; --notation for letters). A solved board prints 0, an unsolvable one -1.
    Hint(Searching<analyse::HintArgs>),
    /// Draw a board as SVG (the default, to standard output) or PNG, or a move sequence played on it as an
    /// animated GIF or SVG; the format follows the extension of -o FILE.
    ///
    /// slide render '4 1 2/5 0 3' -o board.png
    /// slide render '4 1 2/5 0 3' --solve -o solve.gif --scheme fringe --theme dark
    /// slide render '4 1 2/5 0 3' --moves RDLLU --animate > moves.svg
    #[command(verbatim_doc_comment)]
    Render(Searching<render::RenderArgs>),
    /// Serve the web page and its JSON API on a local HTTP server (default http://127.0.0.1:8773/).
    ///
    /// GET / is the page; POST /api/solve takes {"board": ..., "goal"?: ..., "moves"?: true} and answers like
    /// `slide solve --json`; GET /api/scramble?shape=RxC&seed=S gives a random solvable board. Every solve runs
    /// under a time and node budget; the first line of standard output is the URL to open.
    Serve(Searching<serve::ServeArgs>),
    /// List the practice history: the solves the page recorded (a table; --json, --csv), filtered by --shape,
    /// --category, --limit; --import FILE.csv adds solves, --export FILE.csv writes them.
    History(history::command::HistoryArgs),
}

impl Command {
    /// The table options of a command that builds or loads tables, with its `--pdb-index` if it searches with
    /// pattern databases; `None` for the commands that use no tables (apply, moves, history).
    fn tables(&self) -> Option<(&TableArgs, Option<slide::engine::IndexChoice>)> {
        match self {
            Command::Solve(s) => Some((&s.tables, Some(s.index.pdb_index))),
            Command::Bench(s) => Some((&s.tables, Some(s.index.pdb_index))),
            Command::Analyse(s) => Some((&s.tables, Some(s.index.pdb_index))),
            Command::Hint(s) => Some((&s.tables, Some(s.index.pdb_index))),
            Command::Render(s) => Some((&s.tables, Some(s.index.pdb_index))),
            Command::Serve(s) => Some((&s.tables, Some(s.index.pdb_index))),
            Command::Stats { tables, .. } | Command::Scramble { tables, .. } => {
                Some((tables, None))
            }
            Command::Apply(_) | Command::Moves(_) | Command::History(_) => None,
        }
    }

    /// Whether the command writes to standard output: all but `render -o FILE` and `history --import` or
    /// `--export` (`serve` prints its URL).
    fn writes_to_stdout(&self) -> bool {
        match self {
            Command::Render(s) => s.args.output.is_none(),
            Command::History(args) => args.import.is_none() && args.export.is_none(),
            _ => true,
        }
    }

    /// [`Command::tables`], to change.
    fn tables_mut(&mut self) -> Option<(&mut TableArgs, Option<&mut slide::engine::IndexChoice>)> {
        match self {
            Command::Solve(s) => Some((&mut s.tables, Some(&mut s.index.pdb_index))),
            Command::Bench(s) => Some((&mut s.tables, Some(&mut s.index.pdb_index))),
            Command::Analyse(s) => Some((&mut s.tables, Some(&mut s.index.pdb_index))),
            Command::Hint(s) => Some((&mut s.tables, Some(&mut s.index.pdb_index))),
            Command::Render(s) => Some((&mut s.tables, Some(&mut s.index.pdb_index))),
            Command::Serve(s) => Some((&mut s.tables, Some(&mut s.index.pdb_index))),
            Command::Stats { tables, .. } | Command::Scramble { tables, .. } => {
                Some((tables, None))
            }
            Command::Apply(_) | Command::Moves(_) | Command::History(_) => None,
        }
    }
}

/// Parses the command line: clap's parse, then the table options written before the command name handed to it.
fn parse() -> Result<Cli, clap::Error> {
    let matches = Cli::command().try_get_matches()?;
    let mut cli = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut Cli::command()))?;
    tables::take_leading(&mut cli, &matches)?;
    Ok(cli)
}

/// What the binary saw of the process's start that Rust's runtime hides from `main`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Start {
    /// Standard output was closed (`slide solve … >&-`); the runtime has opened /dev/null in its place.
    pub stdout_closed: bool,
}

/// The message of a command whose answers would be lost to a closed standard output.
const STDOUT_CLOSED: &str = "slide: standard output is closed";

/// The `slide` command: parses the command line, runs the command and returns its exit status ([`EXIT_OK`],
/// [`EXIT_BAD_INPUT`], [`EXIT_USAGE`]). A command that writes to standard output fails at once, with status
/// [`EXIT_BAD_INPUT`], when `start` says it was closed.
pub fn main(start: Start) -> ExitCode {
    let cli = match parse() {
        Ok(c) => c,
        Err(e) if e.use_stderr() => {
            let _ = e.print();
            return ExitCode::from(EXIT_USAGE);
        }
        // --help and --version.
        Err(_) if start.stdout_closed => {
            eprintln!("{STDOUT_CLOSED}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(EXIT_OK);
        }
    };
    if start.stdout_closed && cli.command.writes_to_stdout() {
        eprintln!("{STDOUT_CLOSED}");
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    if !matches!(cli.command, Command::Serve(_)) {
        interrupt::install();
    }
    let code = match run(cli) {
        Ok(code) => code,
        // A closed pipe (`slide stats 4x3 | head -3`) ends a command quietly, with status 0: the reader has what
        // it wanted.
        Err(e) if is_broken_pipe(&e) => EXIT_OK,
        Err(e) => {
            eprintln!("slide: {e:#}");
            EXIT_BAD_INPUT
        }
    };
    if interrupt::interrupted() {
        return ExitCode::from(interrupt::EXIT_INTERRUPTED);
    }
    ExitCode::from(code)
}

/// Whether an error comes from writing to a pipe whose reader has gone.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn run(cli: Cli) -> anyhow::Result<u8> {
    let quiet = cli.command.tables().is_some_and(|(t, _)| t.quiet);
    let solver = solver(&cli.command);
    match &cli.command {
        Command::Solve(s) => solve::run(&solver, &s.args, quiet),
        Command::Bench(s) => bench::run(&solver, &s.args),
        Command::Serve(s) => {
            // The server's solver reports its builds to the warm-up's shared state (`GET /api/status`).
            // The solver made above only plans for the warm-up (the databases' needs under the same budget).
            let (warm, warm_rx) = warm::Warm::new(quiet, s.args.no_large_builds, solver);
            let warm = std::sync::Arc::new(warm);
            let solver = solver_with(&s.tables, s.index.pdb_index, false, warm.clone());
            serve::run(&solver, warm, warm_rx, &s.args)
        }
        Command::History(args) => history::command::run(args),
        Command::Apply(args) => toolkit::apply(args),
        Command::Moves(args) => toolkit::moves(args),
        Command::Analyse(s) => analyse::analyse(&solver, &s.args, quiet),
        Command::Hint(s) => analyse::hint(&solver, &s.args, quiet),
        Command::Render(s) => render::run(&solver, &s.args, quiet),
        Command::Stats {
            plot,
            shape,
            goal,
            all,
            metric,
            ..
        } => {
            let Some(goal) = usage(read_goal_pattern(shape, goal.as_deref()))? else {
                return Ok(EXIT_USAGE);
            };
            stats(&solver, &goal, *all, *metric, plot.as_deref())
        }
        Command::Scramble {
            shape,
            count,
            seed,
            walk,
            goal,
            format,
            moves,
            notation,
            ..
        } => {
            let Some(goal) = usage(read_goal_pattern(shape, goal.as_deref()))? else {
                return Ok(EXIT_USAGE);
            };
            let notation = notation.or(moves.then_some(slide::Notation::Short));
            scramble(&solver, &goal, *count, *seed, *walk, format, notation)
        }
    }
}

/// Reports a usage error (exit status 2) or passes the value on.
fn usage<T>(r: Result<T, String>) -> anyhow::Result<Option<T>> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(e) => {
            eprintln!("slide: {e}");
            Ok(None)
        }
    }
}

fn read_goal(shape: &str, goal: Option<&str>) -> Result<slide::Board, String> {
    let shape: slide::Shape = shape.parse().map_err(|e| format!("shape: {e}"))?;
    match goal {
        None => Ok(slide::Board::goal(shape)),
        Some(g) => slide::Board::parse_with_shape(g, Some(shape)).map_err(|e| {
            let why = explain::partial_goal(g, Some(shape)).unwrap_or_else(|| e.to_string());
            format!("--goal: {why}")
        }),
    }
}

/// The shape and `--goal` of `stats` and `scramble`: a goal board, or a partial goal (a pattern with x).
fn read_goal_pattern(shape: &str, goal: Option<&str>) -> Result<slide::Pattern, String> {
    let shape: slide::Shape = shape.parse().map_err(|e| format!("shape: {e}"))?;
    match goal {
        None => Ok(slide::Pattern::from_board(&slide::Board::goal(shape))),
        Some(g) => explain::goal_pattern(g, Some(shape)).map_err(|e| format!("--goal: {e}")),
    }
}

/// The solver of a command's table options (the defaults for a command without tables, which does not use it).
fn solver(command: &Command) -> slide::Solver {
    let bench = matches!(command, Command::Bench(_));
    let default = TableArgs::default();
    let (tables, index) = command.tables().unwrap_or((&default, None));
    let progress = std::sync::Arc::new(progress::Bar::new(tables.quiet));
    solver_with(tables, index.unwrap_or_default(), bench, progress)
}

/// The solver of the table options (cache directory, memory limit) and `--pdb-index`, reporting its long work to
/// `progress`; `bench` reads the largest tables in rather than mapping them.
fn solver_with(
    tables: &TableArgs,
    index: slide::engine::IndexChoice,
    bench: bool,
    progress: std::sync::Arc<dyn slide::Progress + Send>,
) -> slide::Solver {
    let dir = if tables.no_cache {
        slide::CacheDir::None
    } else if let Some(d) = &tables.cache_dir {
        slide::CacheDir::At(d.clone())
    } else if let Some(d) = std::env::var_os("SLIDE_CACHE_DIR").filter(|d| !d.is_empty()) {
        // The library reads no environment variable: the face does.
        slide::CacheDir::At(d.into())
    } else {
        slide::CacheDir::Default
    };
    // Table files are mapped, not read: processes share one copy, and start at once once the files are cached.
    // All of them, the large blank-bit and blank-cell databases too (the 5 x 5 default's 5.9 GB: a solve starts in
    // 0.05 s where reading them in takes 4 to 7 s, and searches as fast alone); `bench` alone reads those in, as
    // the library does by default, for its long searches run two at a time (slightly faster read in, measured in
    // docs/lab; `SolverBuilder::read_in_above`).
    let solver = slide::Solver::builder()
        .cache_dir(dir)
        .progress(progress)
        .map_files(true)
        .pdb_index(index);
    let solver = if bench {
        solver
    } else {
        solver.read_in_above(None)
    };
    match tables.max_memory {
        Some(mb) => solver.max_memory(mb.saturating_mul(1_000_000)),
        None => solver.max_memory_of_process(),
    }
    .build()
}

fn stats(
    solver: &slide::Solver,
    goal: &slide::Pattern,
    all: bool,
    metric: slide::Metric,
    plot: Option<&std::path::Path>,
) -> anyhow::Result<u8> {
    let shape = goal.shape();
    let view = match goal.board() {
        Some(board) => solver.stats_in(&board, metric).map(|s| StatsView {
            goal: board.to_string(),
            states: s.states,
            note: None,
            noun: "boards",
            antipodes: s.antipodes.iter().map(ToString::to_string).collect(),
            histogram: s.histogram,
        }),
        // A partial goal: the states of the pattern's named tiles and the blank (the other tiles are not told
        // apart) at each distance, the farthest states written as patterns.
        None => solver.pattern_stats(goal, metric).map(|s| StatsView {
            goal: goal.to_string(),
            states: s.states,
            note: Some("states: where the named tiles and the blank stand (x: any other tile)"),
            noun: "states",
            antipodes: s.antipodes.iter().map(ToString::to_string).collect(),
            histogram: s.histogram,
        }),
    };
    let view = match view {
        Ok(v) => v,
        Err(e) => {
            eprintln!("slide: {}", explain::explain(&e));
            return Ok(EXIT_BAD_INPUT);
        }
    };
    if let Some(path) = plot {
        let chart = slide::render::plot::distance_chart(shape, metric, &view.histogram)?;
        if let Err(e) = std::fs::write(path, chart) {
            eprintln!("slide: cannot write {}: {e}", path.display());
            return Ok(EXIT_BAD_INPUT);
        }
    }
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "shape: {shape}")?;
    writeln!(out, "goal: {}", view.goal)?;
    writeln!(out, "metric: {metric}")?;
    if let Some(note) = view.note {
        writeln!(out, "{note}")?;
    }
    writeln!(out, "reachable states: {}", view.states)?;
    writeln!(out, "distance states")?;
    for (d, c) in view.histogram.iter().enumerate() {
        writeln!(out, "{d:>8} {c}")?;
    }
    let far = *view.histogram.last().unwrap_or(&0);
    let diameter = view.histogram.len().saturating_sub(1);
    writeln!(out, "god's number: {diameter}")?;
    writeln!(out, "{} at distance {diameter}: {far}", view.noun)?;
    if far <= 16 || all {
        for a in &view.antipodes {
            writeln!(out, "  {a}")?;
        }
        if (view.antipodes.len() as u64) < far {
            writeln!(
                out,
                "  ({} more not kept)",
                far - view.antipodes.len() as u64
            )?;
        }
    }
    Ok(EXIT_OK)
}

/// What `slide stats` prints, for a goal board or a partial goal.
struct StatsView {
    /// The goal as `stats` writes it: JSON rows for a board, `x` cells for a partial goal.
    goal: String,
    states: u64,
    histogram: Vec<u64>,
    /// A line saying what a state is, for a partial goal.
    note: Option<&'static str>,
    /// What the farthest are: boards, or states of a partial goal.
    noun: &'static str,
    antipodes: Vec<String>,
}

fn scramble(
    solver: &slide::Solver,
    goal: &slide::Pattern,
    count: u64,
    seed: Option<u64>,
    walk: Option<u64>,
    format: &str,
    notation: Option<slide::Notation>,
) -> anyhow::Result<u8> {
    use std::io::Write;
    let mut rng = match seed {
        Some(s) => slide::Scrambler::new(s),
        None => slide::Scrambler::from_entropy(),
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for _ in 0..count {
        // With --walk, --moves prints the walk itself (from a random matching board, for a partial goal); else a
        // sequence found by solving the board.
        let (b, walked) = match (walk, notation) {
            (Some(l), Some(_)) => {
                let start = rng.matching(goal);
                let (b, tiles) = rng.walk_with_tiles(&start, l);
                (b, Some((start, tiles)))
            }
            (Some(l), None) => {
                let start = rng.matching(goal);
                (rng.walk(&start, l), None)
            }
            (None, _) => (rng.uniform_to(goal), None),
        };
        let written = notation.map(|n| match &walked {
            Some((start, tiles)) => {
                slide::Moves::from_tiles(start, tiles).and_then(|m| m.format(n, Some(start)))
            }
            None => match goal.board() {
                Some(g) => scramble_moves(solver, &g, &b, n),
                None => pattern_scramble_moves(solver, goal, &b, n),
            },
        });
        let tail = match written {
            None => String::new(),
            Some(Ok(m)) => format!("\t{m}"),
            Some(Err(e)) => {
                let _ = out.flush();
                eprintln!("slide: {b}: {e}");
                return Ok(EXIT_BAD_INPUT);
            }
        };
        let r = match format {
            // A single row has no '/' to show its shape: its rows as JSON, which solve reads as they are.
            "slash" if b.shape().rows() == 1 => write!(out, "{b}"),
            "slash" => write!(out, "{}", solve::slash(&b)),
            "flat" => write!(
                out,
                "{}",
                b.tiles()
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            _ => write!(out, "{b}"),
        }
        .and_then(|()| writeln!(out, "{tail}"));
        if let Err(e) = r {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                return Ok(EXIT_OK);
            }
            return Err(e.into());
        }
    }
    match out.flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(EXIT_OK),
    }
}

/// A move sequence that takes `goal` to `board`, written in `notation`: the inverse of an optimal solution where a
/// complete table (or a single row or column) answers, else of fast mode's solution; replayed before it is returned.
fn scramble_moves(
    solver: &slide::Solver,
    goal: &slide::Board,
    board: &slide::Board,
    notation: slide::Notation,
) -> slide::Result<String> {
    let with = |method| slide::SolveOptions::builder().method(method).build();
    // Optimal where a complete table answers at once; above that, fast mode.
    let solution = match solver.solve_with(board, goal, &with(slide::Method::Table)) {
        Err(slide::Error::Solve(slide::SolveError::NoTable { .. })) => {
            solver.solve_with(board, goal, &with(slide::Method::Fast))
        }
        r => r,
    }?;
    let tiles = solution.into_moves().unwrap_or_default();
    let there = slide::Moves::from_tiles(board, &tiles)?.invert();
    if there.apply(goal)? != *board {
        return Err(slide::Error::Internal(
            "the move sequence found does not reach the board".into(),
        ));
    }
    there.format(notation, Some(goal))
}

/// A move sequence that takes a board matching the partial goal `goal` to `board`, written in `notation`: the inverse
/// of an optimal solution to the pattern where its table answers (within the memory budget), else of fast mode's
/// solution to a matching board that `board` can reach; replayed before it is returned.
fn pattern_scramble_moves(
    solver: &slide::Solver,
    goal: &slide::Pattern,
    board: &slide::Board,
    notation: slide::Notation,
) -> slide::Result<String> {
    let table = slide::SolveOptions::builder()
        .method(slide::Method::Table)
        .build();
    let tiles = match solver.solve_pattern(board, goal, &table) {
        Ok(s) => s.into_moves(),
        Err(slide::Error::Solve(
            slide::SolveError::TooMuchMemory { .. } | slide::SolveError::PatternTooLarge { .. },
        )) => None,
        Err(e) => return Err(e),
    };
    let Some(tiles) = tiles else {
        let g = goal.completion(board).ok_or_else(|| {
            slide::Error::Internal("the scrambled board cannot reach the goal".into())
        })?;
        return scramble_moves(solver, &g, board, notation);
    };
    let solved = slide::Moves::from_tiles(board, &tiles)?;
    let end = solved.apply(board)?;
    let there = solved.invert();
    if !goal.matches(&end) || there.apply(&end)? != *board {
        return Err(slide::Error::Internal(
            "the move sequence found does not reach the board".into(),
        ));
    }
    there.format(notation, Some(&end))
}

#[cfg(test)]
mod tests {
    /// clap's own consistency checks over every command and flag (a `conflicts_with` naming a flag that no longer
    /// exists, say), which otherwise fire only when that command is run in a debug build.
    #[test]
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
