//! What the handlers of `slide serve` ask of the background builds (`warm.rs`): the data of a board's shape asked
//! for with the solve options, a wait (without holding a solver) for a complete table, and `GET /api/status`.

use std::time::{Duration, Instant};

use slide::engine::table::MAX_TABLE_CELLS;
use slide::{Board, Metric, SolveOptions};

use super::jobs::App;
use super::reply::Reply;
use super::{QUEUE_WAIT, SMALL_TABLE_CELLS};
use crate::warm::WarmState;

impl App {
    /// `GET /api/status`: the background builds ([`crate::warm::Warm::status_json`]) and the solve budgets:
    /// `{"builds": [...], "timeout": S, "max_timeout": S}` (seconds; a solve may ask for up to `max_timeout`).
    pub(super) fn status_json(&self) -> String {
        let mut v: serde_json::Value = serde_json::from_str(&self.warm.status_json())
            .unwrap_or_else(|_| serde_json::json!({}));
        v["timeout"] = serde_json::json!(self.budget.time.as_secs_f64());
        v["max_timeout"] = serde_json::json!(self.max_time.as_secs_f64());
        v.to_string()
    }

    /// The solve options for a board: always under the budget, and never waiting for a build. The method is the
    /// library's choice ([`slide::Solver::plan`] with `wait_for_builds` off): a table or pattern databases when they
    /// are in memory, else IDA* with linear conflicts; fast mode above 25 cells. The first board of a shape of at most
    /// [`slide::engine::FAST_DEFAULT_CELLS`] cells with the default goal asks the background thread to load or build
    /// its data.
    pub(super) fn options(&self, board: &Board, goal: &Board) -> SolveOptions {
        let shape = board.shape();
        if shape.cells() <= slide::engine::FAST_DEFAULT_CELLS
            && goal.is_default_goal()
            && !shape.is_line()
        {
            let _ = self.warm.ready(goal);
        }
        // `--timeout` was checked against the library's range when the server started (`numbers::serve_timeout`).
        SolveOptions::builder()
            .max_nodes(self.budget.nodes)
            .timeout(self.budget.time)
            .expect("--timeout is within the library's range")
            .wait_for_builds(false)
            .fallback(true)
            .build()
    }

    /// Whether the server solves `board` in `metric` (MTM: at most [`MAX_TABLE_CELLS`] cells, 4 × 4, or a single row
    /// or column; else 400), and, for MTM from [`SMALL_TABLE_CELLS`] cells up, the wait for its tables (see
    /// [`App::table_for`]). Smaller MTM tables are built on the solver thread, in memory.
    pub(super) async fn metric_ready(
        &self,
        board: &Board,
        goal: &Board,
        metric: Metric,
    ) -> Result<(), Reply> {
        let shape = board.shape();
        if metric == Metric::Stm || shape.is_line() {
            return Ok(());
        }
        let four = shape.rows() == 4 && shape.cols() == 4;
        if shape.cells() > MAX_TABLE_CELLS && !four {
            return Err(Reply::error(
                400,
                format!(
                    "metric \"mtm\": the server solves boards of at most {MAX_TABLE_CELLS} cells, 4x4 boards and single rows or columns in multi-tile moves; this board is {shape}"
                ),
            ));
        }
        if shape.cells() >= SMALL_TABLE_CELLS {
            self.table_for(goal, metric).await?;
        }
        Ok(())
    }

    /// Waits (without holding a solver) for the background thread to have the complete table of `goal` in
    /// `metric` in memory (above 12 cells: the MTM label tables), at most [`QUEUE_WAIT`]: an analysis of 11 or 12
    /// cells reads every distance from it, an MTM solve or the statistics of 11 or 12 cells too.
    pub(super) async fn table_for(&self, goal: &Board, metric: Metric) -> Result<(), Reply> {
        let give_up = Instant::now() + QUEUE_WAIT;
        let (what, is) = match metric {
            Metric::Mtm if goal.shape().cells() > MAX_TABLE_CELLS => ("MTM label tables", "are"),
            Metric::Mtm => ("MTM distance table", "is"),
            Metric::Stm => ("distance table", "is"),
        };
        loop {
            match self.warm.state(goal, metric) {
                WarmState::Ready => return Ok(()),
                WarmState::Failed => {
                    return Err(Reply::error(
                        503,
                        format!(
                            "the {what} for {} could not be loaded or built on this server",
                            goal.shape()
                        ),
                    ))
                }
                WarmState::Pending if Instant::now() >= give_up => {
                    return Err(Reply::error(
                        503,
                        format!(
                        "the {what} for {} {is} still being loaded or built: try again in a minute",
                        goal.shape()
                    ),
                    ))
                }
                WarmState::Pending => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
    }
}
