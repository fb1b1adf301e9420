//! `slide render`: a picture of a board (SVG or PNG) or an animation of a move sequence played on it (GIF, or SVG
//! with `--animate`), drawn by `slide::render`; this face only reads the arguments and writes the file.

use crate::explain::explain;
use std::io::Write;
use std::path::PathBuf;

use slide::render::{self, Animation, Scheme, Style, Theme};
use slide::{Board, Pattern, Solver};

use crate::numbers;
use crate::{EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE};

#[derive(clap::Args, Debug, Clone)]
pub struct RenderArgs {
    /// The board (any board format: 4 1 2/5 0 3, [[4,1,2],[5,0,3]], …).
    pub board: String,
    /// Write the picture to FILE; its extension says the format: .svg or .png (a board), .gif or .svg with
    /// --animate (an animation). Without it, SVG goes to standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Animate this move sequence played from the board (tile numbers, or letters as `slide apply` reads them).
    #[arg(
        long,
        value_name = "MOVES",
        allow_hyphen_values = true,
        conflicts_with = "solve"
    )]
    pub moves: Option<String>,
    /// Animate an optimal solution (boards of at most 25 cells, or a single row or column).
    #[arg(long)]
    pub solve: bool,
    /// Read the letters of --moves as the blank's directions, not the tiles'.
    #[arg(long, requires = "moves")]
    pub blank: bool,
    /// Write the animation as an animated SVG (SMIL), to standard output or an .svg file.
    #[arg(long)]
    pub animate: bool,
    /// Speed of the animation in tiles per second, 0.1 to 50.
    #[arg(long, value_name = "N", default_value = "8", allow_hyphen_values = true, value_parser = numbers::tps)]
    pub tps: f64,
    /// In-between frames per move in a GIF, 0 (a frame per position) to 10; fewer at high speeds.
    #[arg(long, value_name = "K", default_value = "3", allow_hyphen_values = true,
          value_parser = numbers::inbetweens)]
    pub inbetweens: u32,
    /// The longer side of the picture in pixels, 16 to 4096.
    #[arg(long, value_name = "PX", default_value = "400", allow_hyphen_values = true,
          value_parser = numbers::size)]
    pub size: u32,
    /// Colour scheme: plain (every tile alike) or fringe (coloured by the goal row or column a tile is solved with:
    /// first row, first column, second row, …).
    #[arg(long, value_name = "NAME", default_value = "plain", value_parser = ["plain", "fringe"])]
    pub scheme: String,
    /// light or dark.
    #[arg(long, value_name = "NAME", default_value = "light", value_parser = ["light", "dark"])]
    pub theme: String,
    /// Read BOARD as a flat list of numbers of this shape, RxC.
    #[arg(long, value_name = "RxC")]
    pub shape: Option<String>,
    /// The goal (default: tiles in order, blank last): where --solve goes, and the fringe colours' home cells. A
    /// partial goal (a pattern where x is any tile, such as '1 2 3/x x x/x x x'): --solve goes to the nearest
    /// matching board, and the colours' home cells are those of a matching board the board can reach.
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// The budget of --solve's search.
    #[command(flatten)]
    pub budget: crate::analyse::Budget,
}

/// What a file extension asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Svg,
    Png,
    Gif,
}

fn format_of(path: &std::path::Path) -> Result<Format, String> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        Some("gif") => Ok(Format::Gif),
        Some(e) => Err(format!(
            "{}: unknown extension .{e}: write .svg or .png (a board), .gif or .svg with --animate (an animation)",
            path.display()
        )),
        None => Err(format!(
            "{}: no extension: write .svg or .png (a board), .gif or .svg with --animate (an animation)",
            path.display()
        )),
    }
}

/// `slide render`.
pub fn run(solver: &Solver, args: &RenderArgs, quiet: bool) -> anyhow::Result<u8> {
    let animated = args.moves.is_some() || args.solve;
    if args.animate && !animated {
        eprintln!("slide: --animate needs --moves MOVES or --solve");
        return Ok(EXIT_USAGE);
    }
    let style = Style {
        size: args.size,
        scheme: if args.scheme == "fringe" {
            Scheme::Fringe
        } else {
            Scheme::Plain
        },
        theme: if args.theme == "dark" {
            Theme::Dark
        } else {
            Theme::Light
        },
    };
    let shape = match args
        .shape
        .as_deref()
        .map(str::parse::<slide::Shape>)
        .transpose()
    {
        Ok(s) => s,
        Err(e) => {
            eprintln!("slide: --shape: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let board = match Board::parse_with_shape(&args.board, shape) {
        Ok(b) => b,
        Err(e) => return fail(format!("board: {}", explain(&e))),
    };
    let pattern = match &args.goal {
        None => Pattern::from_board(&Board::goal(board.shape())),
        Some(g) => match crate::explain::goal_pattern(g, Some(board.shape())) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("slide: --goal: {e}");
                return Ok(EXIT_USAGE);
            }
        },
    };
    // The board whose cells give the tiles their colours: the goal board, or for a partial goal a matching board
    // that this board can reach.
    let goal = pattern
        .board()
        .or_else(|| pattern.completion(&board))
        .unwrap_or_else(|| pattern.filled());
    let format = match &args.output {
        None => Format::Svg,
        Some(path) => match format_of(path) {
            Ok(f) => f,
            Err(e) => return fail(e),
        },
    };
    let picture: Result<Vec<u8>, String> =
        if animated {
            let moves = match moves(solver, args, &board, &pattern, quiet) {
                Ok(m) => m,
                Err(e) => return fail(e),
            };
            let animation = Animation {
                tps: args.tps,
                inbetweens: args.inbetweens,
            };
            match format {
                Format::Gif => render::gif(&board, &moves, &goal, &style, &animation),
                Format::Svg if args.animate => {
                    render::animated_svg(&board, &moves, &goal, &style, &animation)
                        .map(String::into_bytes)
                }
                _ => {
                    return fail(
                        "an animation is written as .gif (-o FILE.gif), or as SVG with --animate"
                            .into(),
                    )
                }
            }
            .map_err(|e| explain(&e))
        } else {
            match format {
                Format::Svg => render::svg(&board, &goal, &style).map(String::into_bytes),
                Format::Png => render::png(&board, &goal, &style),
                Format::Gif => return fail(
                    "a GIF is an animation: give --moves MOVES or --solve (or write .svg or .png)"
                        .into(),
                ),
            }
            .map_err(|e| explain(&e))
        };
    let bytes = match picture {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    match &args.output {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &bytes) {
                return fail(format!("cannot write {}: {e}", path.display()));
            }
        }
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(&bytes).and_then(|()| out.flush()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                r => r?,
            }
        }
    }
    Ok(EXIT_OK)
}

fn fail(message: String) -> anyhow::Result<u8> {
    eprintln!("slide: {message}");
    Ok(EXIT_BAD_INPUT)
}

/// The moves to animate: --moves read and checked on the board (a bad move is named by its position), or an
/// optimal solution to the goal (to the nearest matching board, for a partial goal).
fn moves(
    solver: &Solver,
    args: &RenderArgs,
    board: &Board,
    goal: &Pattern,
    quiet: bool,
) -> Result<slide::Moves, String> {
    if let Some(text) = &args.moves {
        let written = crate::toolkit::read(text, args.blank, 0)?;
        written
            .apply(board)
            .map_err(|e| format!("moves: {}", explain(&e)))?;
        return written
            .resolve(board)
            .map_err(|e| format!("moves: {}", explain(&e)));
    }
    let (cells, line) = (
        board.shape().cells(),
        board.shape().rows().min(board.shape().cols()) == 1,
    );
    if cells > slide::engine::FAST_DEFAULT_CELLS && !line {
        return Err(format!(
            "--solve animates an optimal solution, found for boards of at most {} cells; this board has {cells} \
             (give the moves with --moves)",
            slide::engine::FAST_DEFAULT_CELLS
        ));
    }
    let opts = args.budget.options(slide::Metric::Stm)?;
    args.budget.note(board, quiet, &std::cell::Cell::new(false));
    let _listening = crate::interrupt::Listening::new();
    let solution = match goal.board() {
        Some(g) => solver.solve_with(board, &g, &opts),
        None => solver.solve_pattern(board, goal, &opts),
    }
    .map_err(|e| explain(&e))?;
    if let Some(reason) = solution.unsolvable_reason() {
        return Err(format!("--solve: the goal cannot be reached: {reason}"));
    }
    match (solution.moves(), solution.is_optimal()) {
        (Some(tiles), true) => {
            slide::Moves::from_tiles(board, tiles).map_err(|e| format!("--solve: {}", explain(&e)))
        }
        _ => Err(format!(
            "--solve: no optimal solution was found (the optimum is at least {})",
            solution.lower_bound()
        )),
    }
}
