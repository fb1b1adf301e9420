//! `slide history`: the recorded solves listed (a table, JSON lines or CSV), filtered, imported from CSV and
//! exported to it.

use std::io::Write;
use std::path::PathBuf;

use super::{csv, path_or_default, utc_minutes, Filter, History, Record};
use crate::{EXIT_BAD_INPUT, EXIT_OK};

#[derive(clap::Args, Debug, Clone)]
pub struct HistoryArgs {
    /// The history file (SQLite; default: history.sqlite3 in the platform data directory, such as
    /// ~/.local/share/slide).
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Only solves of this shape, RxC.
    #[arg(long, value_name = "RxC")]
    pub shape: Option<String>,
    /// Only solves of this category (single, relay, marathon, …).
    #[arg(long, value_name = "NAME")]
    pub category: Option<String>,
    /// At most this many solves, the newest.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub limit: Option<u64>,
    /// One JSON object per solve and line, newest first (the records of GET /api/solves).
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// CSV with a header line, newest first.
    #[arg(long)]
    pub csv: bool,
    /// Add the solves of a CSV file (as --csv or --export write it) to the history, each checked; nothing is
    /// added when one is bad.
    #[arg(long, value_name = "FILE.csv", conflicts_with_all = ["export", "json", "csv"])]
    pub import: Option<PathBuf>,
    /// Write the solves (filtered as asked) to a CSV file instead of listing them.
    #[arg(long, value_name = "FILE.csv", conflicts_with_all = ["json", "csv"])]
    pub export: Option<PathBuf>,
}

/// `slide history`.
pub fn run(args: &HistoryArgs) -> anyhow::Result<u8> {
    let path = match path_or_default(args.db.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("slide: {e}");
            return Ok(EXIT_BAD_INPUT);
        }
    };
    let mut history = match History::open(&path) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("slide: {e}");
            return Ok(EXIT_BAD_INPUT);
        }
    };
    if let Some(file) = &args.import {
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("slide: cannot read {}: {e}", file.display());
                return Ok(EXIT_BAD_INPUT);
            }
        };
        let records = match csv::read(&text) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("slide: {}: {e}", file.display());
                return Ok(EXIT_BAD_INPUT);
            }
        };
        // Oldest first, so that ids follow the order of the solves.
        let mut records = records;
        records.sort_by_key(|r| (r.created_ms, r.id));
        if let Err(e) = history.insert(&records) {
            eprintln!("slide: {e}");
            return Ok(EXIT_BAD_INPUT);
        }
        eprintln!(
            "slide: {} solves imported into {}",
            records.len(),
            history.path().display()
        );
        return Ok(EXIT_OK);
    }
    let filter = Filter {
        shape: args.shape.clone(),
        category: args.category.clone(),
        session: None,
        limit: args.limit,
    };
    let records = match history.list(&filter) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("slide: {e}");
            return Ok(EXIT_BAD_INPUT);
        }
    };
    if let Some(file) = &args.export {
        if let Err(e) = std::fs::write(file, csv::write(&records)) {
            eprintln!("slide: cannot write {}: {e}", file.display());
            return Ok(EXIT_BAD_INPUT);
        }
        eprintln!(
            "slide: {} solves exported to {}",
            records.len(),
            file.display()
        );
        return Ok(EXIT_OK);
    }
    let mut out = std::io::stdout().lock();
    let written = if args.json {
        records
            .iter()
            .try_for_each(|r| writeln!(out, "{}", r.to_json()))
    } else if args.csv {
        out.write_all(csv::write(&records).as_bytes())
    } else {
        write!(out, "{}", table(&records))
    };
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(EXIT_OK),
    }
}

/// The records as a table for a person: id, date (UTC), shape, category, time, STM, MTM, optimum, TPS, and the
/// DNF and assisted marks.
fn table(records: &[Record]) -> String {
    if records.is_empty() {
        return "no solves recorded\n".into();
    }
    let mut out = format!(
        "{:>6}  {:<16}  {:<7}  {:<9}  {:>9}  {:>5}  {:>5}  {:>7}  {:>6}  {}\n",
        "id", "date (UTC)", "shape", "category", "time", "stm", "mtm", "optimal", "tps", "marks"
    );
    for r in records {
        let mut marks = Vec::new();
        if r.dnf {
            marks.push("DNF");
        }
        if r.assisted {
            marks.push("assisted");
        }
        out.push_str(&format!(
            "{:>6}  {:<16}  {:<7}  {:<9}  {:>9}  {:>5}  {:>5}  {:>7}  {:>6}  {}\n",
            r.id,
            utc_minutes(r.created_ms),
            r.shape,
            r.category,
            format!("{}.{:03}", r.time_ms / 1000, r.time_ms % 1000),
            r.stm,
            r.mtm,
            r.optimal.map_or("-".into(), |o| o.to_string()),
            r.tps().map_or("-".into(), |t| format!("{t:.2}")),
            marks.join(" "),
        ));
    }
    out
}
