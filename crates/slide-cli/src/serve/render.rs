//! `GET /api/render` of `slide serve`: the query checked, then the board or an animation of moves drawn on a
//! solver thread ([`draw`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::explain::explain_http;
use slide::render::{self, Scheme, Style, Theme};
use slide::{Board, Metric, SolveOptions, Solver};

use super::jobs::{App, CancelOnDrop, Work};
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
    /// How an animation is timed.
    timing: Timing,
}

/// How an animation is timed: a steady speed, or the moves' own times (a recorded solve, GIF only).
pub(super) enum Timing {
    Steady(render::Animation),
    Recorded(Vec<u64>),
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
                "board", "format", "moves", "solve", "size", "scheme", "theme", "metric", "tps",
                "times_ms",
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
                    Err(e) => {
                        return Reply::error(
                            error_status(&e),
                            format!("moves: {}", explain_http(&e)),
                        )
                    }
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
            return Reply::error(error_status(&e), explain_http(&e));
        }
        let timing = match timing(&q, &play, format) {
            Ok(t) => t,
            Err(r) => return r,
        };
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
        // The solve and the drawing stop when the client leaves (the request's future is dropped).
        let cancel = CancelOnDrop(Arc::new(AtomicBool::new(false)));
        let opts = SolveOptions {
            metric,
            cancel: Some(Arc::clone(&cancel.0)),
            ..self.options(&board, &goal)
        };
        let picture = Picture {
            format,
            style,
            play,
            timing,
        };
        self.run(board, goal, opts, Work::Render(picture), None)
            .await
    }
}

/// A picture for `GET /api/render`, drawn on a solver thread: the board, or an animation of the given moves or of
/// the solution found under `opts` (the server's budget; the `X-Slide-Optimal` header says whether it is proven
/// shortest), as a file to save. A GIF's drawing counts against the same budget: its cells (frames × cells) as
/// nodes after the solve's, checked before drawing, and the time from the job's start, asked before each frame;
/// the options' cancel flag (set when the client leaves) stops it too.
pub(super) fn draw(
    solver: &Solver,
    board: &Board,
    goal: &Board,
    opts: &SolveOptions,
    p: Picture,
) -> Reply {
    let start = Instant::now();
    let shape = board.shape();
    let mut nodes = 0;
    let (moves, optimal, name) = match p.play {
        Play::Still => (None, None, format!("slide-{shape}")),
        Play::Moves(m) => (Some(m), None, format!("slide-{shape}-moves")),
        Play::Solve => {
            let s = match solver.solve_with(board, goal, opts) {
                Ok(s) => s,
                Err(e) => {
                    return Reply::error(error_status(&e), format!("solve: {}", explain_http(&e)))
                }
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
            nodes = s.nodes();
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
    if let (Format::Gif, Some(m)) = (p.format, &moves) {
        // A GIF's drawing counts against the request's budget like a solve: each cell of each frame a node (what
        // the solve used comes first), and the time from the job's start.
        let frames = match &p.timing {
            Timing::Steady(a) => a.gif_frames(m.len()),
            Timing::Recorded(_) => m.len() as u64 + 1,
        };
        let cells = frames.saturating_mul(shape.cells() as u64);
        let left = opts.max_nodes.unwrap_or(u64::MAX).saturating_sub(nodes);
        if cells > left {
            return Reply::error(
                503,
                format!(
                    "picture over the server's budget: a GIF of {frames} frames of {} cells draws {cells} cells, more than the {left} nodes left of the budget (--max-nodes); ask for fewer moves, or draw it with `slide render`",
                    shape.cells()
                ),
            );
        }
    }
    let deadline = opts.timeout.and_then(|t| start.checked_add(t));
    let cancel = opts.cancel.as_deref();
    let stop = || {
        cancel.is_some_and(|c| c.load(Ordering::Relaxed))
            || deadline.is_some_and(|d| Instant::now() >= d)
    };
    let drawn = match (p.format, &moves, &p.timing) {
        (Format::Png, None, _) => render::png(board, goal, &p.style),
        (Format::Svg, None, _) => render::svg(board, goal, &p.style).map(String::into_bytes),
        (Format::Gif, Some(m), timing) => {
            let drawn = match timing {
                Timing::Steady(a) => render::gif_until(board, m, goal, &p.style, a, &stop),
                Timing::Recorded(t) => render::gif_timed_until(board, m, goal, &p.style, t, &stop),
            };
            match drawn {
                Err(slide::Error::Cancelled) => {
                    let time = opts.timeout.map_or(0.0, |t| t.as_secs_f64());
                    return Reply::error(
                        503,
                        format!(
                            "the picture was not drawn within the server's budget ({time} s, --timeout); ask for fewer moves or a smaller size, or draw it with `slide render`"
                        ),
                    );
                }
                r => r,
            }
        }
        (Format::Svg, Some(m), Timing::Steady(a)) => {
            render::animated_svg(board, m, goal, &p.style, a).map(String::into_bytes)
        }
        // Refused before the job was queued.
        (Format::Png, Some(_), _) | (Format::Gif, None, _) => {
            return Reply::error(400, "a PNG is a still picture and a GIF an animation")
        }
        (Format::Svg, Some(_), Timing::Recorded(_)) => {
            return Reply::error(400, "times_ms: only for a GIF")
        }
    };
    let bytes = match drawn {
        Ok(b) => b,
        Err(e) => return Reply::error(error_status(&e), explain_http(&e)),
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

/// The `tps` and `times_ms` parameters of `GET /api/render`, checked against what is animated: a steady speed
/// (`tps`, default [`render::DEFAULT_TPS`]) for any animation, or one time per single-tile move of `moves` (whole
/// milliseconds from the start, comma-separated, non-decreasing) for a GIF.
fn timing(
    q: &std::collections::HashMap<String, String>,
    play: &Play,
    format: Format,
) -> Result<Timing, Reply> {
    let mut animation = render::Animation::default();
    match (q.get("tps"), q.get("times_ms")) {
        (Some(_), Some(_)) => Err(Reply::error(
            400,
            "give tps=... or times_ms=..., not both: an animation has one speed or its moves' own times",
        )),
        (Some(_), None) | (None, Some(_)) if matches!(play, Play::Still) => Err(Reply::error(
            400,
            "tps and times_ms time an animation: add moves=... (or solve=1 for tps)",
        )),
        (Some(v), None) => {
            animation.tps = v.trim().parse::<f64>().unwrap_or(f64::NAN);
            if !(render::MIN_TPS..=render::MAX_TPS).contains(&animation.tps) {
                return Err(Reply::error(
                    400,
                    format!(
                        "tps: {:?} is not a number of tiles per second from {} to {}",
                        shorten(v, 20),
                        render::MIN_TPS,
                        render::MAX_TPS
                    ),
                ));
            }
            Ok(Timing::Steady(animation))
        }
        (None, Some(v)) => {
            let Play::Moves(moves) = play else {
                return Err(Reply::error(
                    400,
                    "times_ms: only with moves=... (the times of those moves)",
                ));
            };
            if format != Format::Gif {
                return Err(Reply::error(400, "times_ms: only for a GIF (format=gif)"));
            }
            let mut times = Vec::new();
            for (i, part) in v.split(',').enumerate() {
                match part.trim().parse::<u64>() {
                    Ok(t) if t <= render::MAX_MOVE_TIME_MS => times.push(t),
                    _ => {
                        return Err(Reply::error(
                            400,
                            format!(
                                "times_ms: time {} ({:?}) is not a whole number of milliseconds from 0 to {}",
                                i + 1,
                                shorten(part, 20),
                                render::MAX_MOVE_TIME_MS
                            ),
                        ))
                    }
                }
                if times.len() > moves.len() {
                    break;
                }
            }
            if times.len() > moves.len() {
                return Err(Reply::error(
                    400,
                    format!(
                        "times_ms: more times than the {} single-tile moves: give one per move",
                        moves.len()
                    ),
                ));
            }
            if times.len() < moves.len() {
                return Err(Reply::error(
                    400,
                    format!(
                        "times_ms: {} times for {} single-tile moves: give one per move",
                        times.len(),
                        moves.len()
                    ),
                ));
            }
            if let Some(i) = times.windows(2).position(|w| w[1] < w[0]) {
                return Err(Reply::error(
                    400,
                    format!(
                        "times_ms: time {} ({} ms) is before time {} ({} ms): times must not decrease",
                        i + 2,
                        times[i + 1],
                        i + 1,
                        times[i]
                    ),
                ));
            }
            Ok(Timing::Recorded(times))
        }
        (None, None) => Ok(Timing::Steady(animation)),
    }
}
