//! The history as CSV (RFC 4180: a header line, fields with commas, quotes or line breaks quoted, quotes doubled),
//! for `slide history --csv`, `--export` and `--import`. An imported record is checked as the server checks one: its
//! moves replayed from its scramble.

use serde_json::Value;
use slide::{notation, practice, Board};

use super::Record;

/// The columns, in order.
pub const HEADER: [&str; 16] = [
    "id",
    "created_ms",
    "session",
    "shape",
    "category",
    "time_ms",
    "stm",
    "mtm",
    "optimal",
    "assisted",
    "dnf",
    "inspection_ms",
    "scramble",
    "moves",
    "times_ms",
    "splits",
];

/// One field, quoted when it needs to be.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The records as CSV text, header first.
pub fn write(records: &[Record]) -> String {
    let mut out = HEADER.join(",");
    out.push('\n');
    let opt = |v: Option<String>| v.unwrap_or_default();
    for r in records {
        let cells = [
            r.id.to_string(),
            r.created_ms.to_string(),
            r.session.clone(),
            r.shape.clone(),
            r.category.clone(),
            r.time_ms.to_string(),
            r.stm.to_string(),
            r.mtm.to_string(),
            opt(r.optimal.map(|o| o.to_string())),
            r.assisted.to_string(),
            r.dnf.to_string(),
            opt(r.inspection_ms.map(|i| i.to_string())),
            opt(r.scramble.clone()),
            opt(r.moves.clone()),
            opt(r
                .times_ms
                .as_ref()
                .map(|t| serde_json::to_string(t).unwrap_or_default())),
            opt(r.splits.as_ref().map(Value::to_string)),
        ];
        let line: Vec<String> = cells.iter().map(|c| field(c)).collect();
        out.push_str(&line.join(","));
        out.push('\n');
    }
    out
}

/// Splits CSV text into rows of fields, each with the line it starts on; an unclosed quote is an error.
fn rows(text: &str) -> Result<Vec<(usize, Vec<String>)>, String> {
    let mut out = Vec::new();
    let mut row = Vec::new();
    let mut cell = String::new();
    let (mut line, mut start) = (1, 1);
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => {
                if c == '\n' {
                    line += 1;
                }
                cell.push(c);
            }
            (false, '"') if cell.is_empty() => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut cell)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut cell));
                out.push((start, std::mem::take(&mut row)));
                line += 1;
                start = line;
            }
            (false, c) => cell.push(c),
        }
    }
    if quoted {
        return Err(format!("line {start}: a quoted field is not closed"));
    }
    if !cell.is_empty() || !row.is_empty() {
        row.push(cell);
        out.push((start, row));
    }
    out.retain(|(_, r)| !(r.len() == 1 && r[0].trim().is_empty()));
    Ok(out)
}

/// Reads CSV text written by [`write`] (the columns by name from the header, in any order; `id` is kept only to
/// order records of the same time: stored records get new ids). Each record is checked: its numbers, and its moves replayed from its scramble (a
/// solve that does not reach the goal must say `dnf`). The error names the line.
pub fn read(text: &str) -> Result<Vec<Record>, String> {
    let mut rows = rows(text)?.into_iter();
    let Some((_, header)) = rows.next() else {
        return Err("the file is empty: expected a header line".into());
    };
    let col = |name: &str| header.iter().position(|h| h.trim() == name);
    for need in ["shape", "category", "time_ms"] {
        if col(need).is_none() {
            return Err(format!(
                "line 1: no column {need:?} (the header names the columns: {})",
                HEADER.join(",")
            ));
        }
    }
    let mut out = Vec::new();
    for (line, row) in rows {
        let get =
            |name: &str| -> &str { col(name).and_then(|i| row.get(i)).map_or("", |s| s.trim()) };
        let at = |e: String| format!("line {line}: {e}");
        let num = |name: &str| -> Result<Option<u64>, String> {
            match get(name) {
                "" => Ok(None),
                s => s
                    .parse()
                    .map(Some)
                    .map_err(|_| at(format!("{name}: {s:?} is not a whole number"))),
            }
        };
        let flag = |name: &str| -> Result<bool, String> {
            match get(name) {
                "" | "false" | "0" => Ok(false),
                "true" | "1" => Ok(true),
                s => Err(at(format!("{name}: {s:?} is not true or false"))),
            }
        };
        let shape = get("shape").to_string();
        for part in shape.split('+') {
            part.parse::<slide::Shape>()
                .map_err(|e| at(format!("shape: {e}")))?;
        }
        let category = get("category").to_string();
        super::check_category(&category).map_err(at)?;
        let times_ms: Option<Vec<u64>> = match get("times_ms") {
            "" => None,
            s => Some(serde_json::from_str(s).map_err(|_| {
                at(format!(
                    "times_ms: {s:?} is not a JSON array of whole numbers"
                ))
            })?),
        };
        let splits: Option<Value> = match get("splits") {
            "" => None,
            s => Some(serde_json::from_str(s).map_err(|e| at(format!("splits: not JSON: {e}")))?),
        };
        let dnf = flag("dnf")?;
        let scramble = match get("scramble") {
            "" => None,
            s => Some(Board::parse(s).map_err(|e| at(format!("scramble: {e}")))?),
        };
        let moves = match get("moves") {
            "" => None,
            s => Some(s.to_string()),
        };
        if let Some(b) = &scramble {
            let written = notation::read(moves.as_deref().unwrap_or(""), false)
                .map_err(|e| at(format!("moves: {e}")))?;
            let times = times_ms.clone().unwrap_or_default();
            practice::replay(b, &written, &times, dnf).map_err(|e| at(format!("moves: {e}")))?;
        }
        out.push(Record {
            id: num("id")?.map_or(0, |i| i.min(i64::MAX as u64) as i64),
            created_ms: num("created_ms")?.map_or_else(super::now_ms, |c| c as i64),
            session: match get("session") {
                "" => "imported".to_string(),
                s => s.to_string(),
            },
            shape,
            category,
            scramble: scramble.map(|b| b.to_string()),
            moves,
            times_ms,
            inspection_ms: num("inspection_ms")?,
            time_ms: num("time_ms")?.ok_or_else(|| at("time_ms is empty".into()))?,
            stm: num("stm")?.unwrap_or(0),
            mtm: num("mtm")?.unwrap_or(0),
            optimal: match get("optimal") {
                "" => None,
                s => Some(
                    s.parse()
                        .map_err(|_| at(format!("optimal: {s:?} is not a whole number")))?,
                ),
            },
            assisted: flag("assisted")?,
            dnf,
            splits,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::tests::record;
    use super::*;

    #[test]
    fn round_trip() {
        let mut a = record(1200, 1, false);
        a.id = 4;
        a.session = "with, comma and \"quotes\"".into();
        a.splits = Some(serde_json::json!([{"x": "a,b"}]));
        let b = record(800, 1, true);
        let text = write(&[a.clone(), b.clone()]);
        let back = read(&text).unwrap();
        assert_eq!(back, [a, b]);
    }

    #[test]
    fn errors_name_the_line() {
        let e = read("shape,category,time_ms\n3x3,single,12\n3x3,single,x\n").unwrap_err();
        assert!(e.starts_with("line 3: time_ms"), "{e}");
        let e = read("shape,category,time_ms,scramble,moves,times_ms\n3x3,single,5,\"[[1,2,3],[4,5,6],[7,0,8]]\",U,[5]\n")
            .unwrap_err();
        assert!(e.starts_with("line 2: moves: move 1 (U)"), "{e}");
        assert!(read("").is_err());
        assert!(read("shape\n").unwrap_err().contains("no column"));
    }
}
