//! The practice routes of `slide serve`: `POST /api/solves` (a finished solve replayed, checked and stored),
//! `GET /api/solves` (the history), `GET /api/averages` (single, mo3, ao5, ao12, ao50, ao100 of time, moves and
//! TPS, current and best, for the session and all time) and `GET /api/solves/plot` (the times as an SVG chart),
//! over the history file (`crate::history`). When the file cannot be used the history routes answer 503 with the
//! reason and everything else goes on.
//!
//! A *session* is a name the solves are recorded under: by default the server's own, new at every start (solves
//! since the server started); a client may pass `"session"` to record under a name of its own and
//! `session=NAME` to read it.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Request, State};
use serde_json::{json, Map, Value};
use slide::notation::{self, Written};
use slide::practice::{self, Replay};
use slide::{Board, SolveOptions, Solver, Tile};

use super::connection::json_body;
use super::jobs::{App, Work};
use super::query::query_params;
use super::reply::Reply;
use super::request::{board_from_value, shorten};
use super::{MAX_ANALYSE_MOVES, MAX_SCRAMBLE_CELLS};
use crate::history::{self, check_category, Filter, History, HistoryError, Record};

/// Most records `GET /api/solves` returns (`limit`; default [`DEFAULT_LIST`]).
pub const MAX_LIST: u64 = 10_000;
/// Records `GET /api/solves` returns without `limit`.
pub const DEFAULT_LIST: u64 = 100;
/// Most splits of a relay or marathon record.
pub const MAX_SPLITS: usize = 100;
/// Longest session name a client may give.
pub const MAX_SESSION: usize = 64;
/// The longest a recorded solve's optimum is searched for (4 × 4 by IDA*; tables up to 12 cells answer at once);
/// past it, or above 16 cells, the optimum is stored as unknown.
pub const OPTIMUM_BUDGET: Duration = Duration::from_secs(1);

/// The history file the server records into, opened at the first use and again after a failure (so that a file
/// put right is used without a restart).
pub(crate) struct Practice {
    path: Result<PathBuf, HistoryError>,
    db: Mutex<Option<History>>,
    /// The server's session: solves since it started.
    session: String,
}

impl Practice {
    /// The history at `db` (default: the platform data directory's); opened now when `eager`, and a failure then
    /// reported on standard error (the server plays on without a history).
    pub(crate) fn new(db: Option<&std::path::Path>, eager: bool) -> Practice {
        let p = Practice {
            path: history::path_or_default(db),
            db: Mutex::new(None),
            session: format!("s{}", history::now_ms()),
        };
        if eager {
            if let Err(e) = p.with(|_| Ok(())) {
                eprintln!("slide: {e}; the page plays on without a history");
            }
        }
        p
    }

    /// Runs `f` on the open file, opening it first if needed; a failure closes it.
    fn with<T>(
        &self,
        f: impl FnOnce(&mut History) -> Result<T, HistoryError>,
    ) -> Result<T, HistoryError> {
        let mut g = self.db.lock().unwrap_or_else(|e| e.into_inner());
        if g.is_none() {
            let path = self.path.as_ref().map_err(Clone::clone)?;
            *g = Some(History::open(path)?);
        }
        let Some(h) = g.as_mut() else {
            return Err(HistoryError("history database: not open".into()));
        };
        let r = f(h);
        if r.is_err() {
            *g = None;
        }
        r
    }
}

/// A history failure as a 503.
fn unavailable(e: &HistoryError) -> Reply {
    Reply::error(503, e.to_string())
}

/// One solve of a record: its scramble, its moves as written and its move times.
struct Part {
    scramble: Board,
    moves: Written,
    times_ms: Vec<u64>,
    dnf: bool,
}

/// A `POST /api/solves` body, read.
struct Posted {
    parts: Vec<Part>,
    split: bool,
    category: String,
    assisted: bool,
    dnf: bool,
    inspection_ms: Option<u64>,
    session: Option<String>,
}

/// Most milliseconds a time may be (about 31.7 years).
const MAX_MS: u64 = 1_000_000_000_000;

fn wrong(field: &str, expected: &str, found: &Value) -> String {
    format!(
        "{field} must be {expected}, not {}",
        shorten(&found.to_string(), 40)
    )
}

fn flag(obj: &Map<String, Value>, name: &str) -> Result<bool, String> {
    match obj.get(name) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(wrong(&format!("{name:?}"), "true or false", other)),
    }
}

fn millis(v: &Value, what: &str) -> Result<u64, String> {
    match v.as_u64() {
        Some(n) if n <= MAX_MS => Ok(n),
        _ => Err(wrong(
            what,
            &format!("a whole number of milliseconds from 0 to {MAX_MS}"),
            v,
        )),
    }
}

/// One solve's `scramble`, `moves` and `times_ms` (in `prefix`, e.g. `splits[2].`), read but not yet replayed.
fn part(obj: &Map<String, Value>, prefix: &str, dnf: bool) -> Result<Part, String> {
    let scramble = match obj.get("scramble") {
        None | Some(Value::Null) => {
            return Err(format!(
                "{prefix}\"scramble\" is missing: the board the solve started from"
            ))
        }
        Some(v) => board_from_value(v, None, "scramble").map_err(|e| format!("{prefix}{e}"))?,
    };
    if scramble.shape().cells() > MAX_SCRAMBLE_CELLS {
        return Err(format!(
            "{prefix}scramble: {} cells: the server records boards of at most {MAX_SCRAMBLE_CELLS} cells",
            scramble.shape().cells()
        ));
    }
    let moves = match obj.get("moves") {
        None | Some(Value::Null) => Written::Tiles(Vec::new()),
        Some(Value::String(s)) => {
            notation::read(s, false).map_err(|e| format!("{prefix}\"moves\": {e}"))?
        }
        Some(Value::Array(items)) => {
            let mut tiles = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                match item.as_u64().and_then(|t| Tile::try_from(t).ok()) {
                    Some(t) => tiles.push(t),
                    None => {
                        return Err(format!(
                            "{prefix}\"moves\": item {}: {} is not a tile number",
                            i + 1,
                            shorten(&item.to_string(), 40)
                        ))
                    }
                }
            }
            Written::Tiles(tiles)
        }
        Some(other) => {
            return Err(wrong(
                &format!("{prefix}\"moves\""),
                "a string in any notation (\"R2U2LD\", \"5 4 1\") or an array of tile numbers",
                other,
            ))
        }
    };
    let times_ms = match obj.get("times_ms") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| millis(v, &format!("{prefix}\"times_ms\" item {}", i + 1)))
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(wrong(
                &format!("{prefix}\"times_ms\""),
                "an array of milliseconds since the start, one per single-tile move",
                other,
            ))
        }
    };
    Ok(Part {
        scramble,
        moves,
        times_ms,
        dnf,
    })
}

/// Reads a `POST /api/solves` body (see docs/http-api.md).
fn parse(body: &[u8]) -> Result<Posted, String> {
    let v: Value = serde_json::from_slice(body)
        .map_err(|e| format!("the request body is not valid JSON: {e}"))?;
    let Value::Object(obj) = v else {
        return Err("the request body must be a JSON object such as {\"scramble\": \"4 1 2/5 0 3\", \"moves\": \"RDL2U\", \"times_ms\": [300, 500, 800, 900, 1200], \"category\": \"single\"}".into());
    };
    let category = match obj.get("category") {
        None | Some(Value::Null) => "single".to_string(),
        Some(Value::String(c)) => c.clone(),
        Some(other) => return Err(wrong("\"category\"", "a string such as \"single\"", other)),
    };
    check_category(&category)?;
    let assisted = flag(&obj, "assisted")?;
    let dnf = flag(&obj, "dnf")?;
    let inspection_ms = match obj.get("inspection_ms") {
        None | Some(Value::Null) => None,
        Some(v) => Some(millis(v, "\"inspection_ms\"")?),
    };
    let session = match obj.get("session") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if !s.is_empty() && s.chars().count() <= MAX_SESSION => {
            Some(s.clone())
        }
        Some(other) => {
            return Err(wrong(
                "\"session\"",
                &format!("a name of 1 to {MAX_SESSION} characters"),
                other,
            ))
        }
    };
    let (parts, split) = match obj.get("splits") {
        None | Some(Value::Null) => (vec![part(&obj, "", dnf)?], false),
        Some(Value::Array(items)) => {
            if ["scramble", "moves", "times_ms"]
                .iter()
                .any(|k| obj.get(*k).is_some_and(|v| !v.is_null()))
            {
                return Err("a record with \"splits\" gives each part's \"scramble\", \"moves\" and \"times_ms\" in its split, not at the top".into());
            }
            if items.is_empty() || items.len() > MAX_SPLITS {
                return Err(format!(
                    "\"splits\": {} splits: a relay or marathon has 1 to {MAX_SPLITS}",
                    items.len()
                ));
            }
            let mut parts = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let prefix = format!("splits[{}].", i + 1);
                let Value::Object(o) = item else {
                    return Err(wrong(
                        &format!("\"splits\" item {}", i + 1),
                        "an object",
                        item,
                    ));
                };
                parts.push(part(o, &prefix, dnf || flag(o, "dnf")?)?);
            }
            (parts, true)
        }
        Some(other) => return Err(wrong("\"splits\"", "an array of solves", other)),
    };
    let total: usize = parts.iter().map(|p| p.moves.len()).sum();
    if total > MAX_ANALYSE_MOVES {
        return Err(format!(
            "\"moves\": {total} moves: the server records at most {MAX_ANALYSE_MOVES} moves in a record"
        ));
    }
    Ok(Posted {
        parts,
        split,
        category,
        assisted,
        dnf,
        inspection_ms,
        session,
    })
}

/// Replays every part (400 naming the move); times of the splits of a relay count from its start and never
/// decrease from one split to the next.
fn replay_all(p: &Posted) -> Result<Vec<Replay>, String> {
    let mut out = Vec::with_capacity(p.parts.len());
    let mut last = 0;
    for (i, part) in p.parts.iter().enumerate() {
        let prefix = if p.split {
            format!("splits[{}].", i + 1)
        } else {
            String::new()
        };
        let r = practice::replay(&part.scramble, &part.moves, &part.times_ms, part.dnf)
            .map_err(|e| format!("{prefix}moves: {e}"))?;
        if let Some(&first) = part.times_ms.first() {
            if first < last {
                return Err(format!(
                    "{prefix}times_ms: the first move ({first} ms) is before the end of the previous split ({last} ms): a relay's times count from its start"
                ));
            }
        }
        last = last.max(r.time_ms);
        out.push(r);
    }
    Ok(out)
}

/// The least number of moves from `board` when it is quickly known: tables up to 12 cells, single lines, 4 × 4 by
/// IDA* within [`OPTIMUM_BUDGET`]; else `None`.
fn optimum(solver: &Solver, board: &Board, opts: &SolveOptions) -> Option<i64> {
    let shape = board.shape();
    if shape.cells() > 16 {
        return None;
    }
    let o = SolveOptions {
        fallback: false,
        timeout: Some(opts.timeout.unwrap_or(OPTIMUM_BUDGET).min(OPTIMUM_BUDGET)),
        ..opts.clone()
    };
    solver
        .solve_with(board, &Board::goal(shape), &o)
        .ok()?
        .distance()
        .map(|d| d as i64)
}

impl App {
    /// `POST /api/solves`: the body read and every move replayed (400), then on a solver thread the optimum
    /// searched for, the record stored (503 when the history cannot be used) and the personal bests it set.
    pub(super) async fn record_solve(&self, body: &[u8]) -> Reply {
        let posted = match parse(body) {
            Ok(p) => p,
            Err(e) => return Reply::error(400, e),
        };
        let replays = match replay_all(&posted) {
            Ok(r) => r,
            Err(e) => return Reply::error(400, e),
        };
        let first = posted.parts[0].scramble.clone();
        let opts = self.options(&first, &Board::goal(first.shape()));
        let practice = Arc::clone(&self.practice);
        let work = Work::Call(Box::new(move |solver: &Solver| {
            store(solver, &practice, &posted, &replays, &opts)
        }));
        let goal = Board::goal(first.shape());
        self.run(first, goal, SolveOptions::default(), work, None)
            .await
    }

    /// `GET /api/solves`, `GET /api/averages` and `GET /api/solves/plot`.
    pub(super) async fn history_get(&self, what: &'static str, query: &str) -> Reply {
        let practice = Arc::clone(&self.practice);
        let query = query.to_string();
        tokio::task::spawn_blocking(move || match what {
            "list" => list(&practice, &query),
            "plot" => plot(&practice, &query),
            _ => averages(&practice, &query),
        })
        .await
        .unwrap_or_else(|_| Reply::error(500, "internal error: the history request failed"))
    }
}

/// Stores a replayed record (on a solver thread: the optimum may take a search) and answers it with its id and
/// the personal bests it set.
fn store(
    solver: &Solver,
    practice: &Practice,
    posted: &Posted,
    replays: &[Replay],
    opts: &SolveOptions,
) -> Reply {
    let optima: Vec<Option<i64>> = posted
        .parts
        .iter()
        .map(|p| optimum(solver, &p.scramble, opts))
        .collect();
    let dnf = posted.dnf || posted.parts.iter().any(|p| p.dnf);
    let shape = replays
        .iter()
        .map(|r| r.shape.to_string())
        .collect::<Vec<_>>()
        .join("+");
    let times = |p: &Part| serde_json::to_value(&p.times_ms).unwrap_or(Value::Null);
    let mut record = Record {
        id: 0,
        created_ms: history::now_ms(),
        session: posted
            .session
            .clone()
            .unwrap_or_else(|| practice.session.clone()),
        shape: if posted.split {
            shape
        } else {
            replays[0].shape.to_string()
        },
        category: posted.category.clone(),
        scramble: None,
        moves: None,
        times_ms: None,
        inspection_ms: posted.inspection_ms,
        time_ms: replays.iter().map(|r| r.time_ms).max().unwrap_or(0),
        stm: replays.iter().map(|r| r.stm as u64).sum(),
        mtm: replays.iter().map(|r| r.mtm as u64).sum(),
        optimal: optima.iter().copied().sum::<Option<i64>>(),
        assisted: posted.assisted,
        dnf,
        splits: None,
    };
    if posted.split {
        let mut start = 0;
        let splits: Vec<Value> = posted
            .parts
            .iter()
            .zip(replays)
            .zip(&optima)
            .map(|((p, r), o)| {
                let v = json!({
                    "shape": r.shape.to_string(),
                    "scramble": p.scramble.rows(),
                    "moves": r.moves,
                    "times_ms": times(p),
                    "time_ms": r.time_ms.saturating_sub(start),
                    "stm": r.stm,
                    "mtm": r.mtm,
                    "optimal": o,
                    "dnf": p.dnf || !r.solved,
                });
                start = start.max(r.time_ms);
                v
            })
            .collect();
        record.splits = Some(Value::Array(splits));
    } else {
        let p = &posted.parts[0];
        record.scramble = Some(p.scramble.to_string());
        record.moves = Some(replays[0].moves.clone());
        record.times_ms = Some(p.times_ms.clone());
    }
    let stored = practice.with(|h| {
        let id = h.insert(std::slice::from_ref(&record))?[0];
        let bests = if record.assisted {
            json!({"time": [], "moves": [], "tps": []})
        } else {
            history::new_bests_json(&h.series(&record.shape, &record.category, None)?)
        };
        Ok((id, bests))
    });
    match stored {
        Ok((id, bests)) => {
            record.id = id;
            let mut v = record.to_json();
            v["personal_bests"] = bests;
            Reply::json(200, v.to_string())
        }
        Err(e) => unavailable(&e),
    }
}

/// `GET /api/solves?shape=&category=&session=&limit=`: `{"solves": [records, newest first]}` (`session=current`: the
/// server's own).
fn list(practice: &Practice, query: &str) -> Reply {
    let q = match query_params(
        query,
        &["shape", "category", "session", "limit"],
        "/api/solves?shape=3x3&category=single&limit=20",
    ) {
        Ok(q) => q,
        Err(r) => return r,
    };
    let limit = match q.get("limit").map(|l| l.trim().parse::<u64>()) {
        None => DEFAULT_LIST,
        Some(Ok(n)) if (1..=MAX_LIST).contains(&n) => n,
        Some(_) => {
            return Reply::error(
                400,
                format!("limit: expected a whole number from 1 to {MAX_LIST}"),
            )
        }
    };
    let filter = Filter {
        shape: q.get("shape").cloned(),
        category: q.get("category").cloned(),
        // `current`: the server's own session.
        session: q.get("session").map(|s| match s.as_str() {
            "current" => practice.session.clone(),
            s => s.to_string(),
        }),
        limit: Some(limit),
    };
    match practice.with(|h| h.list(&filter)) {
        Ok(records) => {
            let solves: Vec<Value> = records.iter().map(Record::to_json).collect();
            Reply::json(200, json!({ "solves": solves }).to_string())
        }
        Err(e) => unavailable(&e),
    }
}

/// The series a GET names: its shape (required), category (default `single`) and session (default the server's;
/// `all` for every session).
fn series_query(
    practice: &Practice,
    query: &str,
    example: &str,
) -> Result<(String, String, Option<String>), Reply> {
    let q = query_params(query, &["shape", "category", "session"], example)?;
    let Some(shape) = q.get("shape") else {
        return Err(Reply::error(
            400,
            format!("missing shape: ask for {example}"),
        ));
    };
    for part in shape.split('+') {
        if let Err(e) = part.parse::<slide::Shape>() {
            return Err(Reply::error(400, format!("shape: {e}")));
        }
    }
    let category = q
        .get("category")
        .cloned()
        .unwrap_or_else(|| "single".into());
    check_category(&category).map_err(|e| Reply::error(400, e))?;
    let session = match q.get("session").map(String::as_str) {
        None | Some("") => Some(practice.session.clone()),
        Some("all") => None,
        Some(s) => Some(s.to_string()),
    };
    Ok((shape.clone(), category, session))
}

/// `GET /api/averages?shape=RxC&category=…&session=…`.
fn averages(practice: &Practice, query: &str) -> Reply {
    let (shape, category, session) =
        match series_query(practice, query, "/api/averages?shape=3x3&category=single") {
            Ok(s) => s,
            Err(r) => return r,
        };
    let session = session.unwrap_or_else(|| practice.session.clone());
    let read = practice.with(|h| {
        Ok((
            h.series(&shape, &category, Some(&session))?,
            h.series(&shape, &category, None)?,
        ))
    });
    match read {
        Ok((in_session, all)) => Reply::json(
            200,
            json!({
                "shape": shape,
                "category": category,
                "session_id": session,
                "session": history::averages_json(&in_session),
                "all_time": history::averages_json(&all),
            })
            .to_string(),
        ),
        Err(e) => unavailable(&e),
    }
}

/// `GET /api/solves/plot?shape=RxC&category=…&session=…`: the times of the session (or of all time with
/// `session=all`) as an SVG chart, with the rolling ao5 and ao12.
fn plot(practice: &Practice, query: &str) -> Reply {
    let (shape, category, session) = match series_query(
        practice,
        query,
        "/api/solves/plot?shape=3x3&category=single",
    ) {
        Ok(s) => s,
        Err(r) => return r,
    };
    let records = match practice.with(|h| h.series(&shape, &category, session.as_deref())) {
        Ok(r) => r,
        Err(e) => return unavailable(&e),
    };
    let times: Vec<Option<f64>> = records
        .iter()
        .map(|r| (!r.dnf).then_some(r.time_ms as f64 / 1000.0))
        .collect();
    let view = if session.is_some() {
        "session"
    } else {
        "all time"
    };
    let title = format!("{shape} {category}: times ({view})");
    match slide::render::plot::times_chart(&title, &times) {
        Ok(svg) => {
            let mut r = Reply::bytes(200, "image/svg+xml", svg.into_bytes());
            r.disposition = Some(format!(
                "inline; filename=\"slide-{}-{category}-times.svg\"",
                shape.replace('+', "-")
            ));
            r
        }
        Err(e) => Reply::error(500, e.to_string()),
    }
}

/// `POST /api/solves`: checked as `/api/solve` — announced length (413), content type (415), the body (408, 413),
/// then the record (400), a permit (503), the history (503).
pub(super) async fn post(State(app): State<Arc<App>>, req: Request) -> Reply {
    match json_body(req).await {
        Ok(body) => app.record_solve(&body).await,
        Err(r) => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies() {
        let p = parse(br#"{"scramble": "4 1 2/5 0 3", "moves": "RDL2U", "times_ms": [1,2,3,4,5]}"#)
            .unwrap();
        assert_eq!(p.category, "single");
        assert_eq!(replay_all(&p).unwrap()[0].stm, 5);
        let p = parse(br#"{"scramble": "4 1 2/5 0 3", "moves": "RDLLD", "times_ms": [1,2,3,4,5]}"#)
            .unwrap();
        let e = replay_all(&p).unwrap_err();
        assert!(e.starts_with("moves: move 5 (D): "), "{e}");
        let e = parse(br#"{"scramble": "4 1 2/5 0 3", "category": "Big One"}"#)
            .err()
            .unwrap();
        assert!(e.contains("not a category name"), "{e}");
        let p = parse(br#"{"category": "relay", "splits": [{"scramble": "4 1 2/5 0 3", "moves": "RDL2U", "times_ms": [1,2,3,4,5]}, {"scramble": "1 2 3/4 0 5", "moves": "L", "times_ms": [4]}]}"#).unwrap();
        let e = replay_all(&p).unwrap_err();
        assert!(
            e.starts_with("splits[2].times_ms: the first move (4 ms)"),
            "{e}"
        );
        let e = parse(br#"{"scramble": "1 2/3 0", "splits": []}"#)
            .err()
            .unwrap();
        assert!(e.contains("not at the top"), "{e}");
    }
}
