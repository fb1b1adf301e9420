//! `GET /api/render` of `slide serve`: the query checked, then the board or an animation of moves drawn on a
//! solver thread ([`draw`]).

use slide::render::{self, Scheme, Style, Theme};
use slide::{Board, Metric, SolveOptions, Solver};

use super::jobs::{App, Work};
use super::query::query_params;
use super::reply::{error_status, Reply};
use super::request::shorten;
use super::solve::check_board;
use super::MAX_ANALYSE_MOVES;

/// A picture `GET /api/render` asks for.
pub(super) struct Picture {
    format: Format,
    style: Style,
    /// What to animate: nothing (a still picture), these moves, or the solution found under the job's options.
    play: Play,
}

/// The file format of a picture.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    Png,
    Gif,
    Svg,
}

/// What an animation plays.
pub(super) enum Play {
    Still,
    Moves(slide::Moves),
    Solve,
}

impl App {
    /// `GET /api/render`: the parameters checked (400 naming the wrong one), then the picture drawn on a solver
    /// thread under a permit like a solve (503 when none comes within [`QUEUE_WAIT`]).
    pub(super) async fn render(&self, query: &str) -> Reply {
        const EXAMPLE: &str = "/api/render?board=4+1+2/5+0+3&format=png";
        let q = match query_params(
            query,
            &[
                "board", "format", "moves", "solve", "size", "scheme", "theme", "metric",
            ],
            EXAMPLE,
        ) {
            Ok(q) => q,
            Err(r) => return r,
        };
        let Some(text) = q.get("board") else {
            return Reply::error(400, format!("missing board: ask for {EXAMPLE}"));
        };
        let board = match Board::parse_with_shape(text, None) {
            Ok(b) => b,
            Err(e) => return Reply::error(400, format!("board: {e}")),
        };
        let goal = Board::goal(board.shape());
        if let Err(r) = check_board(&board, &goal) {
            return r;
        }
        let solve = match q.get("solve").map(|v| v.trim()) {
            None | Some("0" | "false") => false,
            Some("1" | "true") => true,
            Some(v) => {
                return Reply::error(
                    400,
                    format!("solve: {:?} is not 1 or 0 (true or false)", shorten(v, 40)),
                )
            }
        };
        let play = match (q.get("moves"), solve) {
            (Some(_), true) => {
                return Reply::error(
                    400,
                    "give moves=... or solve=1, not both: the animation plays one or the other",
                )
            }
            (Some(text), false) => {
                if text.trim().is_empty() {
                    return Reply::error(400, "moves: no moves given");
                }
                let written = match slide::notation::read(text, false) {
                    Ok(w) => w,
                    Err(e) => return Reply::error(400, format!("moves: {e}")),
                };
                let count = written.len();
                if count > MAX_ANALYSE_MOVES {
                    return Reply::error(
                        400,
                        format!("moves: {count} moves: the server animates at most {MAX_ANALYSE_MOVES} moves"),
                    );
                }
                match written.apply(&board).and_then(|_| written.resolve(&board)) {
                    Ok(m) => Play::Moves(m),
                    Err(e) => return Reply::error(error_status(&e), format!("moves: {e}")),
                }
            }
            (None, true) => Play::Solve,
            (None, false) => Play::Still,
        };
        let animated = !matches!(play, Play::Still);
        let format = match q.get("format").map(|v| v.trim().to_ascii_lowercase()) {
            None => {
                if animated {
                    Format::Gif
                } else {
                    Format::Png
                }
            }
            Some(f) => match f.as_str() {
                "png" => Format::Png,
                "gif" => Format::Gif,
                "svg" => Format::Svg,
                _ => {
                    return Reply::error(
                        400,
                        format!(
                            "format: unknown format {:?}: expected png, gif or svg",
                            shorten(&f, 20)
                        ),
                    )
                }
            },
        };
        match (format, animated) {
            (Format::Png, true) => {
                return Reply::error(
                    400,
                    "format png is a still picture: animate moves as format=gif or format=svg",
                )
            }
            (Format::Gif, false) => {
                return Reply::error(
                    400,
                    "format gif is an animation: add moves=... or solve=1 (or ask for format=png or svg)",
                )
            }
            _ => {}
        }
        let mut style = Style::default();
        if let Some(v) = q.get("size") {
            match v.trim().parse::<u32>() {
                Ok(n) => style.size = n,
                Err(_) => {
                    return Reply::error(
                        400,
                        format!(
                            "size: {:?} is not a whole number of pixels from {} to {}",
                            shorten(v, 20),
                            render::MIN_SIZE,
                            render::MAX_SIZE
                        ),
                    )
                }
            }
        }
        if let Some(v) = q.get("scheme") {
            match v.trim().parse::<Scheme>() {
                Ok(sc) => style.scheme = sc,
                Err(e) => return Reply::error(400, e.to_string()),
            }
        }
        if let Some(v) = q.get("theme") {
            match v.trim().parse::<Theme>() {
                Ok(t) => style.theme = t,
                Err(e) => return Reply::error(400, e.to_string()),
            }
        }
        // The size's range (and the board's cells) before any work.
        if let Err(e) = render::dimensions(&board, &style) {
            return Reply::error(error_status(&e), e.to_string());
        }
        let metric = match q.get("metric") {
            None => Metric::Stm,
            Some(_) if !solve => {
                return Reply::error(
                    400,
                    "metric: only with solve=1 (the metric of the solution to animate)",
                )
            }
            Some(m) => match m.parse::<Metric>() {
                Ok(m) => m,
                Err(e) => return Reply::error(400, e.to_string()),
            },
        };
        if let Err(r) = self.metric_ready(&board, &goal, metric).await {
            return r;
        }
        let opts = SolveOptions {
            metric,
            ..self.options(&board, &goal)
        };
        let picture = Picture {
            format,
            style,
            play,
        };
        self.run(board, goal, opts, Work::Render(picture), None)
            .await
    }
}

/// A picture for `GET /api/render`, drawn on a solver thread: the board, or an animation of the given moves or of
/// the solution found under `opts` (the server's budget; the `X-Slide-Optimal` header says whether it is proven
/// shortest), as a file to save.
pub(super) fn draw(
    solver: &Solver,
    board: &Board,
    goal: &Board,
    opts: &SolveOptions,
    p: Picture,
) -> Reply {
    let shape = board.shape();
    let (moves, optimal, name) = match p.play {
        Play::Still => (None, None, format!("slide-{shape}")),
        Play::Moves(m) => (Some(m), None, format!("slide-{shape}-moves")),
        Play::Solve => {
            let s = match solver.solve_with(board, goal, opts) {
                Ok(s) => s,
                Err(e) => return Reply::error(error_status(&e), format!("solve: {e}")),
            };
            if let Some(reason) = s.unsolvable_reason() {
                return Reply::error(
                    400,
                    format!("solve: the goal cannot be reached from this board: {reason}"),
                );
            }
            let Some(tiles) = s.moves() else {
                return Reply::error(
                    503,
                    format!(
                        "solve: no solution was found within the server's budget (the optimum is at least {} moves); give the moves instead (moves=...)",
                        s.lower_bound()
                    ),
                );
            };
            let moves = match slide::Moves::from_tiles(board, tiles) {
                Ok(m) => m,
                Err(e) => return Reply::error(500, format!("internal error: {e}")),
            };
            let kind = if s.is_optimal() {
                "optimal"
            } else {
                "solution"
            };
            let name = match opts.metric {
                Metric::Stm => format!("slide-{shape}-{kind}"),
                Metric::Mtm => format!("slide-{shape}-{kind}-mtm"),
            };
            (Some(moves), Some(s.is_optimal()), name)
        }
    };
    let animation = render::Animation::default();
    let drawn = match (p.format, &moves) {
        (Format::Png, None) => render::png(board, goal, &p.style),
        (Format::Svg, None) => render::svg(board, goal, &p.style).map(String::into_bytes),
        (Format::Gif, Some(m)) => render::gif(board, m, goal, &p.style, &animation),
        (Format::Svg, Some(m)) => {
            render::animated_svg(board, m, goal, &p.style, &animation).map(String::into_bytes)
        }
        // Refused before the job was queued.
        (Format::Png, Some(_)) | (Format::Gif, None) => {
            return Reply::error(400, "a PNG is a still picture and a GIF an animation")
        }
    };
    let bytes = match drawn {
        Ok(b) => b,
        Err(e) => return Reply::error(error_status(&e), e.to_string()),
    };
    let (ctype, ext) = match p.format {
        Format::Png => ("image/png", "png"),
        Format::Gif => ("image/gif", "gif"),
        Format::Svg => ("image/svg+xml", "svg"),
    };
    let mut r = Reply::bytes(200, ctype, bytes);
    r.disposition = Some(format!("attachment; filename=\"{name}.{ext}\""));
    r.optimal = optimal;
    r
}
