//! `GET /api/stats`, `GET /api/stats/plot` and `GET /api/scramble` of `slide serve`: what a shape's complete table
//! says, and random boards of a shape.

use crate::explain::explain_http;
use slide::engine::table::MAX_TABLE_CELLS;
use slide::render;
use slide::{Board, Metric, Scrambler, Shape, SolveOptions, Solver};

use super::jobs::{App, Work};
use super::query::query_params;
use super::reply::{error_status, Reply};
use super::request::shorten;
use super::{MAX_SCRAMBLE_CELLS, SMALL_TABLE_CELLS};

impl App {
    /// `GET /api/stats` and `GET /api/stats/plot` (`plot`): the shape and metric checked (400), the table waited for
    /// from [`SMALL_TABLE_CELLS`] cells up (503 after [`QUEUE_WAIT`]), then the histogram read on a solver thread.
    pub(super) async fn stats(&self, query: &str, plot: bool) -> Reply {
        let example = if plot {
            "/api/stats/plot?shape=3x3&metric=stm"
        } else {
            "/api/stats?shape=3x3&metric=stm"
        };
        let q = match query_params(query, &["shape", "metric"], example) {
            Ok(q) => q,
            Err(r) => return r,
        };
        let Some(text) = q.get("shape") else {
            return Reply::error(400, format!("missing shape: ask for {example} (RxC)"));
        };
        let shape: Shape = match text.parse() {
            Ok(s) => s,
            Err(e) => return Reply::error(400, format!("shape: {e}")),
        };
        let cells = shape.cells();
        if (shape.is_line() && cells > MAX_SCRAMBLE_CELLS)
            || (!shape.is_line() && cells > MAX_TABLE_CELLS)
        {
            return Reply::error(
                400,
                format!(
                    "shape {shape} has {cells} cells: statistics count every board, for shapes of at most {MAX_TABLE_CELLS} cells (or a single row or column of at most {MAX_SCRAMBLE_CELLS})"
                ),
            );
        }
        let metric = match q.get("metric") {
            None => Metric::Stm,
            Some(m) => match m.parse::<Metric>() {
                Ok(m) => m,
                Err(e) => return Reply::error(400, e.to_string()),
            },
        };
        let goal = Board::goal(shape);
        if !shape.is_line() && cells >= SMALL_TABLE_CELLS {
            if let Err(r) = self.table_for(&goal, metric).await {
                return r;
            }
        }
        let opts = SolveOptions::builder().metric(metric).build();
        self.run(goal.clone(), goal, opts, Work::Stats { plot }, None)
            .await
    }
}

/// The statistics of `goal`'s shape in `metric` ([`Solver::stats_in`]): JSON `{"shape", "metric", "states",
/// "gods_number", "histogram", "antipodes"}` (at most 16 boards at the largest distance), or with `plot` the
/// histogram chart as SVG ([`render::plot::distance_chart`]).
pub(super) fn statistics(solver: &Solver, goal: &Board, metric: Metric, plot: bool) -> Reply {
    let s = match solver.stats_in(goal, metric) {
        Ok(s) => s,
        Err(e) => return Reply::error(error_status(&e), explain_http(&e)),
    };
    let shape = goal.shape();
    if plot {
        return match render::plot::distance_chart(shape, metric, &s.histogram) {
            Ok(svg) => {
                let mut r = Reply::bytes(200, "image/svg+xml", svg.into_bytes());
                r.disposition = Some(format!(
                    "inline; filename=\"slide-{shape}-{metric}-distances.svg\""
                ));
                r
            }
            Err(e) => Reply::error(error_status(&e), explain_http(&e)),
        };
    }
    let antipodes: Vec<serde_json::Value> = s
        .antipodes
        .iter()
        .take(16)
        .map(|b| serde_json::json!(b.rows()))
        .collect();
    Reply::json(
        200,
        serde_json::json!({
            "shape": shape.to_string(),
            "metric": metric.name(),
            "goal": goal.rows(),
            "states": s.states,
            "gods_number": s.diameter(),
            "histogram": s.histogram,
            "antipodes": antipodes,
        })
        .to_string(),
    )
}

/// `GET /api/scramble?shape=RxC[&seed=S]`: a uniformly random solvable board; an unknown or repeated parameter is a
/// 400 naming it.
pub(super) fn scramble(query: &str) -> Reply {
    let mut q = match query_params(query, &["shape", "seed"], "/api/scramble?shape=3x3&seed=7") {
        Ok(q) => q,
        Err(r) => return r,
    };
    let seed_text = q.remove("seed");
    let Some(shape_text) = q.remove("shape") else {
        return Reply::error(400, "missing shape: ask for /api/scramble?shape=3x3 (RxC)");
    };
    let shape: Shape = match shape_text.parse() {
        Ok(s) => s,
        Err(e) => return Reply::error(400, format!("shape: {e}")),
    };
    if shape.cells() > MAX_SCRAMBLE_CELLS {
        return Reply::error(
            400,
            format!(
                "shape {shape} has {} cells; scrambles go up to {MAX_SCRAMBLE_CELLS} cells",
                shape.cells()
            ),
        );
    }
    let seed = match seed_text.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(s) => match s.parse::<u64>() {
            Ok(n) => Some(n),
            Err(_) => {
                return Reply::error(
                    400,
                    format!(
                        "seed: {:?} is not a whole number from 0 to {}",
                        shorten(s, 40),
                        u64::MAX
                    ),
                )
            }
        },
    };
    let mut rng = match seed {
        Some(s) => Scrambler::new(s),
        None => Scrambler::from_entropy(),
    };
    let board = rng.uniform(&Board::goal(shape));
    let seed = seed.map_or(String::new(), |s| format!(", \"seed\": {s}"));
    Reply::json(
        200,
        format!("{{\"board\": {board}, \"shape\": \"{shape}\"{seed}}}"),
    )
}
