//! The POST handlers of `slide serve`: `/api/solve`, `/api/analyse` and `/api/moves`, each from its JSON body
//! (read by `connection.rs`, parsed by [`super::request`]) to its answer.

use crate::explain::explain_http;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use slide::engine::table::MAX_TABLE_CELLS;
use slide::{Board, Metric, Pattern, SolveOptions};

use super::connection::json_body;
use super::jobs::{App, CancelOnDrop, Work};
use super::reply::{error_status, Reply};
use super::request::{parse_analyse, parse_solve};
use super::{MAX_ANALYSE_MOVES, MAX_SCRAMBLE_CELLS, SMALL_TABLE_CELLS};

/// `POST /api/solve`: checked in this order — announced length (413), content type (415), the body itself
/// (408, 413, 400), the request (400), a permit (503), the solve.
pub(super) async fn solve(State(app): State<Arc<App>>, req: Request) -> Reply {
    match json_body(req).await {
        Ok(body) => app.solve(&body).await,
        Err(r) => r,
    }
}

/// `POST /api/analyse`: checked as `/api/solve` — announced length (413), content type (415), the body itself
/// (408, 413, 400), the request and its moves (400), the table it needs (503 when it is still being built after
/// [`QUEUE_WAIT`]), a permit (503), the analysis (503 when the budget stops it).
pub(super) async fn analyse(State(app): State<Arc<App>>, req: Request) -> Reply {
    match json_body(req).await {
        Ok(body) => app.analyse(&body).await,
        Err(r) => r,
    }
}

/// `POST /api/moves`: checked as `/api/analyse`, then the moves read and played on the board (no solver).
pub(super) async fn moves(req: Request) -> Reply {
    match json_body(req).await {
        Ok(body) => play_moves(&body),
        Err(r) => r,
    }
}

impl App {
    async fn solve(&self, body: &[u8]) -> Reply {
        let req = match parse_solve(body) {
            Ok(r) => r,
            Err(e) => return Reply::error(400, e.to_string()),
        };
        let board = req.board;
        let goal = req.goal.unwrap_or_else(|| Board::goal(board.shape()));
        if let Err(r) = check_board(&board, &goal) {
            return r;
        }
        // The options first: they ask the background thread for the STM data (seconds, even for 4 x 4) before an
        // MTM request asks for its tables (the 4 x 4 label tables take minutes), as the page asks both at once.
        let mut opts = SolveOptions {
            metric: req.metric,
            ..self.options(&board, &goal)
        };
        if let Some(t) = req.timeout {
            let max = self.max_time.as_secs_f64();
            if t > max {
                return Reply::error(
                    400,
                    format!("\"timeout\": {t} s is above this server's limit of {max} s (--max-timeout)"),
                );
            }
            // The node budget in proportion to the time asked for.
            let scale = t / self.budget.time.as_secs_f64();
            opts.timeout = Some(Duration::from_secs_f64(t));
            opts.max_nodes = Some((self.budget.nodes as f64 * scale).min(u64::MAX as f64) as u64);
        }
        if let Err(r) = self.metric_ready(&board, &goal, req.metric).await {
            return r;
        }
        // A client that leaves (the request's future is dropped) stops its search within 2^14 nodes.
        let cancel = CancelOnDrop(Arc::new(AtomicBool::new(false)));
        opts.cancel = Some(Arc::clone(&cancel.0));
        self.run(board, goal, opts, Work::Solve { moves: req.moves }, None)
            .await
    }

    /// An analysis: the moves read and checked on the board, its table ready (up to 12 cells), then
    /// [`Solver::analyse`] on a solver thread under the budget: each search under `--timeout` and `--max-nodes`
    /// (without the fallback: an analysis needs proven distances), and the whole analysis stopped `--timeout` after
    /// it starts.
    async fn analyse(&self, body: &[u8]) -> Reply {
        let req = match parse_analyse(body) {
            Ok(r) => r,
            Err(e) => return Reply::error(400, e.to_string()),
        };
        let board = req.board;
        let pattern = req
            .goal
            .unwrap_or_else(|| Pattern::from_board(&Board::goal(board.shape())));
        // For a partial goal the job's goal board is a matching board (for the budget's options).
        let partial = pattern.board().is_none();
        let goal = pattern
            .board()
            .or_else(|| pattern.completion(&board))
            .unwrap_or_else(|| pattern.filled());
        if let Err(r) = check_board(&board, &goal) {
            return r;
        }
        let count = req.moves.len();
        if count > MAX_ANALYSE_MOVES {
            return Reply::error(
                400,
                format!(
                    "\"moves\": {count} moves: the server analyses sequences of at most {MAX_ANALYSE_MOVES} moves (slide analyse on the command line takes longer ones)"
                ),
            );
        }
        // Every move checked, a bad one named as it was written (`move 7 (U): no tile below the blank`).
        let moves = match req
            .moves
            .apply(&board)
            .and_then(|_| req.moves.resolve(&board))
        {
            Ok(m) => m,
            Err(e) => {
                return Reply::error(error_status(&e), format!("moves: {}", explain_http(&e)))
            }
        };
        let shape = board.shape();
        // A partial goal's table is the pattern's own, built on the solver thread.
        if !partial {
            if req.metric == Metric::Mtm {
                // The shapes MTM answers, and their tables from 11 cells up (4 x 4: the label tables).
                if let Err(r) = self.metric_ready(&board, &goal, Metric::Mtm).await {
                    return r;
                }
            } else if !shape.is_line()
                && (SMALL_TABLE_CELLS..=MAX_TABLE_CELLS).contains(&shape.cells())
            {
                if let Err(r) = self.table_for(&goal, Metric::Stm).await {
                    return r;
                }
            }
        }
        let cancel = CancelOnDrop(Arc::new(AtomicBool::new(false)));
        let opts = SolveOptions {
            metric: req.metric,
            fallback: false,
            cancel: Some(Arc::clone(&cancel.0)),
            ..self.options(&board, &goal)
        };
        self.run(
            board,
            goal,
            opts,
            Work::Analyse(moves, pattern),
            Some(&cancel.0),
        )
        .await
    }
}

/// Reads a body of `POST /api/analyse`'s form and plays its moves: `{"board": [[…]], "tiles": [t, …], "end":
/// [[…]], "length": n, "mtm_length": m}` (the tiles that slide, the board they leave); a bad move is a 400 naming it.
fn play_moves(body: &[u8]) -> Reply {
    let req = match parse_analyse(body) {
        Ok(r) => r,
        Err(e) => return Reply::error(400, e.to_string()),
    };
    let board = req.board;
    if board.shape().cells() > MAX_SCRAMBLE_CELLS {
        return Reply::error(
            400,
            format!(
                "the board has {} cells: the server plays moves on boards of at most {MAX_SCRAMBLE_CELLS} cells",
                board.shape().cells()
            ),
        );
    }
    let count = req.moves.len();
    if count > MAX_ANALYSE_MOVES {
        return Reply::error(
            400,
            format!(
                "\"moves\": {count} moves: the server plays sequences of at most {MAX_ANALYSE_MOVES} moves"
            ),
        );
    }
    let played = req.moves.apply(&board).and_then(|end| {
        let m = req.moves.resolve(&board)?;
        Ok((end, m.tiles(&board)?, m.mtm_len()))
    });
    match played {
        Ok((end, tiles, mtm)) => Reply::json(
            200,
            serde_json::json!({
                "board": board.rows(),
                "tiles": tiles,
                "end": end.rows(),
                "length": tiles.len(),
                "mtm_length": mtm,
            })
            .to_string(),
        ),
        Err(e) => Reply::error(error_status(&e), format!("moves: {}", explain_http(&e))),
    }
}

/// A board and goal the server works on: the same shape, at most [`MAX_SCRAMBLE_CELLS`] cells (else 400).
pub(super) fn check_board(board: &Board, goal: &Board) -> Result<(), Reply> {
    if goal.shape() != board.shape() {
        return Err(Reply::error(
            400,
            format!(
                "shape mismatch: the board is {} but the goal is {}",
                board.shape(),
                goal.shape()
            ),
        ));
    }
    if board.shape().cells() > MAX_SCRAMBLE_CELLS {
        // Bounded work and answers: fast mode would answer, but its moves grow as the cube of the side.
        let e = slide::Error::Solve(slide::SolveError::SearchTooLarge {
            shape: board.shape(),
        });
        return Err(Reply::error(
            400,
            format!("{e}: the server answers boards of at most {MAX_SCRAMBLE_CELLS} cells"),
        ));
    }
    Ok(())
}
