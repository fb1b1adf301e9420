//! The practice history: every recorded solve kept in an SQLite file (`rusqlite`, the bundled library), by default
//! `history.sqlite3` in the platform data directory, `--db PATH` to choose. The schema is versioned
//! (`schema.rs`), writes are transactions, and a file that cannot be used (damaged, locked, in a directory that
//! cannot be written) is an error whose message names the file and what to do ([`HistoryError`]).
//!
//! `csv.rs` reads and writes the records as CSV; `command.rs` is `slide history`. The server's routes over it
//! are in `serve/solves.rs`.

pub mod command;
pub mod csv;
mod schema;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection, OpenFlags};
use serde_json::{json, Value};
use slide::practice::{self, Better, Score};

/// One recorded solve, as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// Its id (0 before it is stored).
    pub id: i64,
    /// When it was recorded, in milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// The practice session it belongs to.
    pub session: String,
    /// The shape, `RxC` (a relay's shapes joined by `+`).
    pub shape: String,
    /// `single`, `relay`, `marathon`, ….
    pub category: String,
    /// The scramble as JSON rows (none for a record made of splits).
    pub scramble: Option<String>,
    /// The moves, short notation (none for a record made of splits).
    pub moves: Option<String>,
    /// The time of each single-tile move, ms since the start.
    pub times_ms: Option<Vec<u64>>,
    /// Inspection time before the first move, when the client says.
    pub inspection_ms: Option<u64>,
    /// The time of the last move, ms.
    pub time_ms: u64,
    /// Length in single-tile moves.
    pub stm: u64,
    /// Length in multi-tile moves.
    pub mtm: u64,
    /// The least number of moves from the scramble (STM), when known.
    pub optimal: Option<i64>,
    /// A hint, a solver step or an undo was used: never counted in averages or bests.
    pub assisted: bool,
    /// Did not finish.
    pub dnf: bool,
    /// A relay's or marathon's parts, a JSON array of `{"scramble", "moves", "times_ms", "time_ms", "stm",
    /// "mtm", "optimal", "dnf"}`.
    pub splits: Option<Value>,
}

impl Record {
    /// The record as the API and `slide history --json` write it.
    pub fn to_json(&self) -> Value {
        let scramble = self
            .scramble
            .as_deref()
            .and_then(|s| serde_json::from_str::<Value>(s).ok());
        json!({
            "id": self.id,
            "created_ms": self.created_ms,
            "session": self.session,
            "shape": self.shape,
            "category": self.category,
            "scramble": scramble,
            "moves": self.moves,
            "times_ms": self.times_ms,
            "inspection_ms": self.inspection_ms,
            "time_ms": self.time_ms,
            "stm": self.stm,
            "mtm": self.mtm,
            "tps": self.tps(),
            "optimal": self.optimal,
            "assisted": self.assisted,
            "dnf": self.dnf,
            "splits": self.splits,
        })
    }

    /// Tiles per second (STM moves over the time), when the time is above 0.
    pub fn tps(&self) -> Option<f64> {
        (self.time_ms > 0).then(|| round3(self.stm as f64 * 1000.0 / self.time_ms as f64))
    }
}

/// Rounds to three decimals.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Why the history file cannot be used: the message names the file and says what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryError(pub String);

impl std::fmt::Display for HistoryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for HistoryError {}

/// The message of an SQLite error on the file at `path`, with what it means for the user.
fn explain(path: &Path, e: &rusqlite::Error) -> HistoryError {
    use rusqlite::ErrorCode as C;
    let code = e.sqlite_error_code();
    let hint = match code {
        Some(C::NotADatabase) | Some(C::DatabaseCorrupt) => {
            ": the file is damaged or is not an SQLite database; move it away (slide starts a new one) or choose another file with --db"
        }
        Some(C::DatabaseBusy) | Some(C::DatabaseLocked) => {
            ": another program holds the file locked; close it or choose another file with --db"
        }
        Some(C::ReadOnly) => ": the file or its directory cannot be written; choose another file with --db",
        Some(C::CannotOpen) | Some(C::PermissionDenied) => {
            ": the file cannot be opened or created (does its directory exist, and may it be written?); choose another file with --db"
        }
        Some(C::DiskFull) => ": the disk is full",
        _ => "",
    };
    HistoryError(format!("history database {}: {e}{hint}", path.display()))
}

/// The default file: `history.sqlite3` in the platform data directory (`~/.local/share/slide` on Linux).
pub fn default_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "slide").map(|d| d.data_dir().join("history.sqlite3"))
}

/// The file `--db` names, else the default one.
pub fn path_or_default(db: Option<&Path>) -> Result<PathBuf, HistoryError> {
    match db {
        Some(p) => Ok(p.to_path_buf()),
        None => default_path().ok_or_else(|| {
            HistoryError(
                "history database: no data directory is known for this user; choose a file with --db".into(),
            )
        }),
    }
}

/// Which records to read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only this shape.
    pub shape: Option<String>,
    /// Only this category.
    pub category: Option<String>,
    /// Only this session.
    pub session: Option<String>,
    /// At most this many (the newest).
    pub limit: Option<u64>,
}

/// An open history file.
pub struct History {
    conn: Connection,
    path: PathBuf,
}

const COLUMNS: &str =
    "id, created_ms, session, shape, category, scramble, moves, times_ms, inspection_ms, \
                       time_ms, stm, mtm, optimal, assisted, dnf, splits";

impl History {
    /// Opens (or creates, with its directory) the file at `path` and brings its schema up to date. Every failure
    /// is a [`HistoryError`] naming the file.
    pub fn open(path: &Path) -> Result<History, HistoryError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !dir.is_dir() {
                std::fs::create_dir_all(dir).map_err(|e| {
                    HistoryError(format!(
                        "history database {}: cannot create its directory: {e}; choose another file with --db",
                        path.display()
                    ))
                })?;
            }
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let mut conn = Connection::open_with_flags(path, flags).map_err(|e| explain(path, &e))?;
        conn.busy_timeout(Duration::from_secs(2))
            .map_err(|e| explain(path, &e))?;
        match schema::migrate(&mut conn) {
            Ok(Ok(())) => {}
            Ok(Err(why)) => {
                return Err(HistoryError(format!(
                    "history database {}: {why}",
                    path.display()
                )))
            }
            Err(e) => return Err(explain(path, &e)),
        }
        Ok(History {
            conn,
            path: path.to_path_buf(),
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn err(&self, e: rusqlite::Error) -> HistoryError {
        explain(&self.path, &e)
    }

    /// Stores records in one transaction; returns their ids.
    pub fn insert(&mut self, records: &[Record]) -> Result<Vec<i64>, HistoryError> {
        let path = self.path.clone();
        let err = |e: rusqlite::Error| explain(&path, &e);
        let tx = self.conn.transaction().map_err(err)?;
        let mut ids = Vec::with_capacity(records.len());
        {
            let mut st = tx
                .prepare_cached(
                    "INSERT INTO solves (created_ms, session, shape, category, scramble, moves, times_ms, \
                     inspection_ms, time_ms, stm, mtm, optimal, assisted, dnf, splits) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                )
                .map_err(err)?;
            for r in records {
                let times = r
                    .times_ms
                    .as_ref()
                    .map(|t| serde_json::to_string(t).unwrap_or_default());
                let splits = r.splits.as_ref().map(Value::to_string);
                st.execute(params![
                    r.created_ms,
                    r.session,
                    r.shape,
                    r.category,
                    r.scramble,
                    r.moves,
                    times,
                    r.inspection_ms.map(|i| i as i64),
                    r.time_ms as i64,
                    r.stm as i64,
                    r.mtm as i64,
                    r.optimal,
                    r.assisted,
                    r.dnf,
                    splits,
                ])
                .map_err(err)?;
                ids.push(tx.last_insert_rowid());
            }
        }
        tx.commit().map_err(err)?;
        Ok(ids)
    }

    /// The records that pass `filter`, newest first.
    pub fn list(&self, filter: &Filter) -> Result<Vec<Record>, HistoryError> {
        let mut sql = format!("SELECT {COLUMNS} FROM solves WHERE 1");
        let mut args: Vec<String> = Vec::new();
        for (col, v) in [
            ("shape", &filter.shape),
            ("category", &filter.category),
            ("session", &filter.session),
        ] {
            if let Some(v) = v {
                args.push(v.clone());
                sql.push_str(&format!(" AND {col} = ?{}", args.len()));
            }
        }
        sql.push_str(" ORDER BY id DESC");
        if let Some(n) = filter.limit {
            sql.push_str(&format!(" LIMIT {}", n.min(i64::MAX as u64)));
        }
        let mut st = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let rows = st
            .query_map(rusqlite::params_from_iter(args.iter()), read_row)
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(|e| self.err(e))
    }

    /// The unassisted records of one series (shape and category), oldest first, optionally of one session only.
    pub fn series(
        &self,
        shape: &str,
        category: &str,
        session: Option<&str>,
    ) -> Result<Vec<Record>, HistoryError> {
        let mut all = self.list(&Filter {
            shape: Some(shape.into()),
            category: Some(category.into()),
            session: session.map(str::to_string),
            limit: None,
        })?;
        all.retain(|r| !r.assisted);
        all.reverse();
        Ok(all)
    }
}

/// A row of `SELECT COLUMNS` as a record.
fn read_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Record> {
    let times: Option<String> = row.get(7)?;
    let splits: Option<String> = row.get(15)?;
    let unsigned = |i: usize| -> rusqlite::Result<u64> { Ok(row.get::<_, i64>(i)?.max(0) as u64) };
    Ok(Record {
        id: row.get(0)?,
        created_ms: row.get(1)?,
        session: row.get(2)?,
        shape: row.get(3)?,
        category: row.get(4)?,
        scramble: row.get(5)?,
        moves: row.get(6)?,
        times_ms: times.and_then(|t| serde_json::from_str(&t).ok()),
        inspection_ms: row.get::<_, Option<i64>>(8)?.map(|i| i.max(0) as u64),
        time_ms: unsigned(9)?,
        stm: unsigned(10)?,
        mtm: unsigned(11)?,
        optimal: row.get(12)?,
        assisted: row.get(13)?,
        dnf: row.get(14)?,
        splits: splits.and_then(|s| serde_json::from_str(&s).ok()),
    })
}

/// The three series of a list of records (oldest first): time in ms, moves (STM) and TPS, a DNF as `None`.
fn columns(records: &[Record]) -> [(Vec<Option<f64>>, Better); 3] {
    let of = |f: &dyn Fn(&Record) -> Option<f64>| -> Vec<Option<f64>> {
        records
            .iter()
            .map(|r| if r.dnf { None } else { f(r) })
            .collect()
    };
    [
        (of(&|r| Some(r.time_ms as f64)), Better::Lower),
        (of(&|r| Some(r.stm as f64)), Better::Lower),
        (of(&|r| r.tps()), Better::Higher),
    ]
}

/// The names of the three series, in the order of [`columns`].
const SERIES: [&str; 3] = ["time", "moves", "tps"];

/// A score as JSON: a number (time in whole ms, moves and TPS to three decimals), `"DNF"`, or null when too few.
fn score_json(s: Option<Score>, series: &str) -> Value {
    match s {
        None => Value::Null,
        Some(Score::Dnf) => json!("DNF"),
        Some(Score::Value(v)) if series == "time" => json!(v.round() as i64),
        Some(Score::Value(v)) => json!(round3(v)),
    }
}

/// The averages view of a series: `{"solves": n, "time": {"single": {"current", "best"}, "mo3": …}, "moves": …,
/// "tps": …}`.
pub fn averages_json(records: &[Record]) -> Value {
    let mut out = json!({ "solves": records.len() });
    for ((values, better), name) in columns(records).into_iter().zip(SERIES) {
        let mut m = serde_json::Map::new();
        for s in practice::standings(&values, better) {
            m.insert(
                s.kind.name(),
                json!({ "current": score_json(s.current, name), "best": score_json(s.best, name) }),
            );
        }
        out[name] = Value::Object(m);
    }
    out
}

/// The personal bests the last record of a series set: `{"time": ["single", …], "moves": […], "tps": […]}`.
pub fn new_bests_json(records: &[Record]) -> Value {
    let mut out = json!({});
    for ((values, better), name) in columns(records).into_iter().zip(SERIES) {
        let kinds: Vec<String> = practice::new_bests(&values, better)
            .into_iter()
            .map(|k| k.name())
            .collect();
        out[name] = json!(kinds);
    }
    out
}

/// Longest category name.
pub const MAX_CATEGORY: usize = 32;

/// A category name: 1 to [`MAX_CATEGORY`] characters, lower-case letters, digits, `-` and `_` (`single`, `relay`,
/// `marathon`, `marathon-10`, …).
pub fn check_category(c: &str) -> Result<(), String> {
    if c.is_empty()
        || c.len() > MAX_CATEGORY
        || !c
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
    {
        return Err(format!(
            "category: {:?} is not a category name: 1 to {MAX_CATEGORY} lower-case letters, digits, '-' or '_' (single, relay, marathon, …)",
            c.chars().take(40).collect::<String>()
        ));
    }
    Ok(())
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A time in ms since the epoch as `YYYY-MM-DD HH:MM` (UTC).
pub fn utc_minutes(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // The civil date of a count of days since the Unix epoch (Howard Hinnant's days-to-civil algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}",
        rest / 3600,
        rest % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn record(time_ms: u64, stm: u64, dnf: bool) -> Record {
        Record {
            id: 0,
            created_ms: 0,
            session: "s".into(),
            shape: "3x3".into(),
            category: "single".into(),
            scramble: Some("[[1,2,3],[4,5,6],[7,0,8]]".into()),
            moves: Some("L".into()),
            times_ms: Some(vec![time_ms]),
            inspection_ms: None,
            time_ms,
            stm,
            mtm: stm,
            optimal: Some(1),
            assisted: false,
            dnf,
            splits: None,
        }
    }

    #[test]
    fn dates() {
        // Written from their parts: the tidy test keeps literal dates out of sources.
        let at =
            |y: u32, m: u32, d: u32, h: u32, min: u32| format!("{y}-{m:02}-{d:02} {h:02}:{min:02}");
        assert_eq!(utc_minutes(0), at(1970, 1, 1, 0, 0));
        assert_eq!(utc_minutes(951_782_400_000), at(2000, 2, 29, 0, 0));
        assert_eq!(utc_minutes(1_700_000_000_000), at(2023, 11, 14, 22, 13));
        assert_eq!(utc_minutes(-60_000), at(1969, 12, 31, 23, 59));
    }

    #[test]
    fn stored_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = History::open(&dir.path().join("h.sqlite3")).unwrap();
        let mut r = record(1500, 10, false);
        r.splits = Some(json!([{"a": 1}]));
        let ids = h.insert(&[r.clone(), record(900, 8, true)]).unwrap();
        assert_eq!(ids.len(), 2);
        let all = h.list(&Filter::default()).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[1].id, ids[0]);
        r.id = ids[0];
        assert_eq!(all[1], r);
        let v = averages_json(&h.series("3x3", "single", None).unwrap());
        assert_eq!(v["time"]["single"]["current"], json!("DNF"));
        assert_eq!(v["time"]["single"]["best"], json!(1500));
        assert_eq!(v["tps"]["single"]["best"], json!(6.667));
        assert_eq!(v["time"]["mo3"]["best"], Value::Null);
    }
}
