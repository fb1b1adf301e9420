//! `slide analyse` (a move sequence judged move by move, a batch summarised) and `slide hint` (the moves that start
//! a shortest solution): thin faces over `Solver::analyse` and `Solver::hint`.

use crate::explain::explain;
use std::io::Write;

use slide::{Board, Notation, Pattern, Shape, SolveOptions, Solver, Summary};

use crate::report::{analysis_json, hint_json, hint_written, summary_json};
use crate::toolkit::{batch, read, single};
use crate::{EXIT_OK, EXIT_USAGE};

#[derive(clap::Args, Debug, Clone)]
pub struct AnalyseArgs {
    /// BOARD MOVES. Without them, lines `BOARD | MOVES` are read from standard input, one answer per line, and a
    /// summary ends the batch (on standard error; with --json as a last line {"summary": …}).
    #[arg(value_name = "BOARD MOVES", num_args = 0..=2)]
    pub args: Vec<String>,
    /// A custom goal board (default: tiles in order, blank last), or a partial goal: a pattern where x is any
    /// tile, such as '1 2 3/x x x/x x x' (the distances are to the nearest matching board).
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// The shape of flat boards, RxC.
    #[arg(long, value_name = "RxC")]
    pub shape: Option<String>,
    /// Read letters as the blank's directions, not the tiles'.
    #[arg(long)]
    pub blank: bool,
    #[command(flatten)]
    pub budget: Budget,
    /// One JSON object per line: {"board": [[…]], "solves": …, "length": …, "mtm_length": …, "optimal": …,
    /// "over": …, "distances": […], "mistakes": […]}; errors as {"line": K, "error": "…"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args, Debug, Clone)]
pub struct HintArgs {
    /// Boards; without any, one board per line is read from standard input.
    pub boards: Vec<String>,
    /// A custom goal board (default: tiles in order, blank last), or a partial goal: a pattern where x is any
    /// tile, such as '1 2 3/x x x/x x x' (the least number of moves to any matching board).
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// The shape of flat boards, RxC.
    #[arg(long, value_name = "RxC")]
    pub shape: Option<String>,
    /// Write the moves in a notation: tiles (the default), long or short (the tile's letter), blank (the blank's).
    #[arg(long, value_name = "NAME", value_parser = crate::numbers::notation)]
    pub notation: Option<Notation>,
    #[command(flatten)]
    pub budget: Budget,
    /// One JSON object per line: {"board": [[…]], "moves": D, "hints": [tiles]} (and "notation" with
    /// --notation, "metric": "mtm" in MTM); errors as {"line": K, "error": "…"}.
    #[arg(long)]
    pub json: bool,
    /// How moves are counted: stm (single-tile moves) or mtm (multi-tile moves: a hint is a push, named by the
    /// tile farthest from the blank that it slides; with --notation short it is written as one letter and count).
    /// MTM covers what `slide solve --metric mtm` does.
    #[arg(long, value_name = "METRIC", default_value = "stm", value_parser = crate::numbers::metric)]
    pub metric: slide::Metric,
}

/// The search budget of the commands that search for shortest solutions besides `solve` (hint, analyse, render
/// --solve): the same --timeout and --max-nodes; a search they stop is an error naming the proven lower bound.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Budget {
    /// Stop each search after this many nodes (the board's answer is then an error with the proven lower bound).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = crate::numbers::max_nodes)]
    pub max_nodes: Option<u64>,
    /// Stop each search after this many seconds, table builds included.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = crate::numbers::timeout)]
    pub timeout: Option<f64>,
}

impl Budget {
    /// Options in `metric` under this budget, stopped by Ctrl-C.
    pub fn options(&self, metric: slide::Metric) -> Result<SolveOptions, String> {
        let mut b = SolveOptions::builder()
            .metric(metric)
            .cancel(crate::interrupt::flag());
        // The value parsers checked the ranges through the library already (crate::numbers).
        if let Some(n) = self.max_nodes {
            b = b.max_nodes(n);
        }
        if let Some(t) = self.timeout {
            b = b.timeout_secs(t).map_err(|e| crate::explain::flagged(&e))?;
        }
        Ok(b.build())
    }

    /// Prints, once (`warned`), the note that an optimal search on `board` can take hours, when it may (a board of
    /// more than [`LONG_SEARCH_CELLS`](crate::solve::LONG_SEARCH_CELLS) cells, not a single row or column) and no
    /// limit bounds it.
    pub fn note(&self, board: &Board, quiet: bool, warned: &std::cell::Cell<bool>) {
        let shape = board.shape();
        let long =
            shape.cells() > crate::solve::LONG_SEARCH_CELLS && shape.rows().min(shape.cols()) > 1;
        if long
            && self.timeout.is_none()
            && self.max_nodes.is_none()
            && !quiet
            && !warned.replace(true)
        {
            crate::solve::long_search_note(board.shape(), "--timeout S bounds it");
        }
    }
}

/// The hint of a board at or near the goal without the pattern databases a search above 12 cells would build: 0
/// on the goal; within a few moves (Manhattan distance at most 24), from IDA* with Manhattan and linear
/// conflicts under a small node budget. `None` when neither answers (the caller asks the library as usual).
fn near_hint(
    solver: &Solver,
    board: &Board,
    goal: &Board,
    opts: &SolveOptions,
) -> Option<slide::Hint> {
    if board == goal {
        return Some(slide::Hint {
            distance: 0,
            tiles: vec![],
        });
    }
    let near = board.shape().cells() > 12
        && opts.metric == slide::Metric::Stm
        && board.manhattan_to(goal).is_ok_and(|d| d <= 24);
    if !near {
        return None;
    }
    let bounded = SolveOptions {
        heuristic: slide::HeuristicChoice::LinearConflict,
        max_nodes: Some(opts.max_nodes.map_or(200_000, |n| n.min(200_000))),
        ..opts.clone()
    };
    solver.hint(board, goal, &bounded).ok()
}

/// The shape and goal flags (the goal a board or a partial goal), or a usage error.
fn shape_and_goal(
    shape: Option<&str>,
    goal: Option<&str>,
) -> Result<(Option<Shape>, Option<Pattern>), String> {
    let shape: Option<Shape> = shape
        .map(str::parse)
        .transpose()
        .map_err(|e| format!("--shape: {}", explain(&e)))?;
    let goal = goal
        .map(|g| {
            crate::explain::goal_pattern(g, shape).map_err(|e| format!("--goal: {}", explain(&e)))
        })
        .transpose()?;
    Ok((shape, goal))
}

/// A line's board and its goal.
fn board_and_goal(
    text: &str,
    shape: Option<Shape>,
    goal: &Option<Pattern>,
) -> Result<(Board, Pattern), String> {
    let board =
        Board::parse_with_shape(text, shape).map_err(|e| format!("board: {}", explain(&e)))?;
    let goal = goal
        .clone()
        .unwrap_or_else(|| Pattern::from_board(&Board::goal(board.shape())));
    Ok((board, goal))
}

/// `slide analyse`.
pub fn analyse(solver: &Solver, args: &AnalyseArgs, quiet: bool) -> anyhow::Result<u8> {
    let (shape, goal) = match shape_and_goal(args.shape.as_deref(), args.goal.as_deref()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("slide: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let opts = match args.budget.options(slide::Metric::Stm) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("slide: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let _listening = crate::interrupt::Listening::new();
    let warned = std::cell::Cell::new(false);
    let mut summary = Summary::default();
    // `column`: where the moves start in their line, so that errors name the line's column.
    let mut answer = |board: &str, moves: &str, column: usize| -> Result<String, String> {
        let (board, goal) = board_and_goal(board, shape, &goal)?;
        if moves.trim().is_empty() {
            return Err("no moves given".into());
        }
        let written = read(moves, args.blank, column)?;
        // Checks every move, naming a bad one as it was written.
        written
            .apply(&board)
            .map_err(|e| format!("moves: {}", explain(&e)))?;
        let moves = written
            .resolve(&board)
            .map_err(|e| format!("moves: {}", explain(&e)))?;
        args.budget.note(&board, quiet, &warned);
        let a = solver
            .analyse_pattern(&board, &goal, &moves, &opts)
            .map_err(|e| explain(&e))?;
        summary.add(&a);
        Ok(if args.json {
            analysis_json(&board, &a)
        } else {
            analysis_text(&a)
        })
    };
    match args.args.as_slice() {
        [] => {}
        [board, moves] => return single(args.json, answer(board, moves, 0)),
        _ => {
            eprintln!(
                "slide: analyse needs BOARD and MOVES (or lines BOARD | MOVES on standard input)"
            );
            return Ok(EXIT_USAGE);
        }
    }
    let code = batch(args.json, |line| {
        let (board, moves) = line
            .split_once('|')
            .ok_or("expected BOARD | MOVES, for example 1 2 3/4 0 5 | R")?;
        if moves.trim().is_empty() {
            return Err("no moves after '|'".into());
        }
        answer(board, moves, board.chars().count() + 1)
    })?;
    if args.json {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{}", summary_json(&summary));
    } else {
        eprintln!("slide: {summary}");
    }
    Ok(code)
}

/// One analysis as a line of text:
/// `solves in 7 (MTM 5), optimal 5, over 2; distances 6 5 4 3 2 1 0; mistakes 1`.
fn analysis_text(a: &slide::Analysis) -> String {
    let words = |v: &[i64]| {
        v.iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let head = if a.solves {
        "solves in"
    } else {
        "does not solve:"
    };
    let over = a.over.map(|o| format!(", over {o}")).unwrap_or_default();
    let mistakes = if a.mistakes.is_empty() {
        "none".to_string()
    } else {
        words(&a.mistakes.iter().map(|&m| m as i64).collect::<Vec<_>>())
    };
    format!(
        "{head} {} (MTM {}), optimal {}{over}; distances {}; mistakes {mistakes}",
        a.length,
        a.mtm_length,
        a.optimal,
        words(&a.distances)
    )
}

/// `slide hint`.
pub fn hint(solver: &Solver, args: &HintArgs, quiet: bool) -> anyhow::Result<u8> {
    let (shape, goal) = match shape_and_goal(args.shape.as_deref(), args.goal.as_deref()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("slide: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let opts = match args.budget.options(args.metric) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("slide: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let _listening = crate::interrupt::Listening::new();
    let warned = std::cell::Cell::new(false);
    let answer = |text: &str| -> Result<String, String> {
        let (board, goal) = board_and_goal(text, shape, &goal)?;
        let near = goal
            .board()
            .and_then(|g| near_hint(solver, &board, &g, &opts));
        let h = match near {
            Some(h) => h,
            None => {
                args.budget.note(&board, quiet, &warned);
                solver
                    .hint_pattern(&board, &goal, &opts)
                    .map_err(|e| explain(&e))?
            }
        };
        if args.json {
            return Ok(hint_json(&board, &h, args.notation, args.metric));
        }
        let mut out = h.distance.to_string();
        for &t in &h.tiles {
            out.push(' ');
            match args.notation {
                Some(n) => out.push_str(&hint_written(&board, t, n, args.metric)),
                None => out.push_str(&t.to_string()),
            }
        }
        Ok(out)
    };
    if args.boards.is_empty() {
        return batch(args.json, answer);
    }
    let mut code = EXIT_OK;
    for (i, b) in args.boards.iter().enumerate() {
        let r = answer(b).map_err(|e| {
            if args.boards.len() > 1 {
                format!("argument {}: {e}", i + 1)
            } else {
                e
            }
        });
        code = code.max(single(args.json, r)?);
    }
    Ok(code)
}
