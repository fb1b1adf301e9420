//! The history database's schema: a version table and the migrations that bring a file from any older version to
//! [`VERSION`], each applied in one transaction.

use rusqlite::{Connection, OptionalExtension};

/// The schema version this build writes.
pub const VERSION: i64 = 1;

/// The migrations, in order: `MIGRATIONS[k]` takes a file from version `k` to `k + 1`.
const MIGRATIONS: [&str; 1] = ["
CREATE TABLE solves (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created_ms INTEGER NOT NULL,
    session TEXT NOT NULL,
    shape TEXT NOT NULL,
    category TEXT NOT NULL,
    scramble TEXT,
    moves TEXT,
    times_ms TEXT,
    inspection_ms INTEGER,
    time_ms INTEGER NOT NULL,
    stm INTEGER NOT NULL,
    mtm INTEGER NOT NULL,
    optimal INTEGER,
    assisted INTEGER NOT NULL,
    dnf INTEGER NOT NULL,
    splits TEXT
);
CREATE INDEX solves_by_series ON solves (shape, category, id);
"];

/// Brings the file's schema to [`VERSION`]: creates the version table on a new file, then applies the missing
/// migrations, each with its version bump in one transaction. A file of a newer version is refused.
pub fn migrate(conn: &mut Connection) -> rusqlite::Result<Result<(), String>> {
    conn.execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);")?;
    loop {
        let version: Option<i64> = conn
            .query_row("SELECT max(version) FROM schema_version", [], |r| r.get(0))
            .optional()?
            .flatten();
        let version = version.unwrap_or(0);
        if version > VERSION {
            return Ok(Err(format!(
                "its schema is version {version}, made by a newer slide (this one reads up to version {VERSION})"
            )));
        }
        let Some(sql) = usize::try_from(version)
            .ok()
            .and_then(|v| MIGRATIONS.get(v))
        else {
            return Ok(Ok(()));
        };
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.execute("DELETE FROM schema_version", [])?;
        tx.execute(
            "INSERT INTO schema_version (version) VALUES (?1)",
            [version + 1],
        )?;
        tx.commit()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_gets_the_current_version_once() {
        let mut c = Connection::open_in_memory().unwrap();
        migrate(&mut c).unwrap().unwrap();
        migrate(&mut c).unwrap().unwrap();
        let v: i64 = c
            .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, VERSION);
        c.execute("UPDATE schema_version SET version = 99", [])
            .unwrap();
        assert!(migrate(&mut c)
            .unwrap()
            .unwrap_err()
            .contains("newer slide"));
    }
}
