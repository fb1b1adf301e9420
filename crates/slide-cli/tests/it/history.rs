//! The practice history end to end: `POST /api/solves`, `GET /api/solves`, `GET /api/averages` and
//! `GET /api/solves/plot` over real sockets with `--db`, the file read back as plain SQLite (also by the `sqlite3`
//! program), damaged, locked and unwritable files, a read-only directory (as an unprivileged user even when the
//! tests run as root), and `slide history` (`--json`, `--csv`, `--import`, `--export`).

use std::path::Path;

use serde_json::{json, Value};

use crate::support::serve::Serve;
use crate::support::Slide;

fn serve_with(db: &Path) -> Serve {
    Serve::with_args(&["--db", db.to_str().unwrap()])
}

/// A scramble of `shape` and an optimal solution of it as tile numbers, from the server itself.
fn scramble_and_solution(s: &Serve, shape: &str, seed: u64) -> (Value, Value) {
    let board = s
        .get(&format!("/api/scramble?shape={shape}&seed={seed}"))
        .json()["board"]
        .clone();
    let a = s.solve(json!({ "board": board, "moves": true }));
    (board, a["solution"].clone())
}

/// `n` move times ending at `total` ms.
fn times(n: usize, total: u64) -> Vec<u64> {
    (1..=n as u64).map(|i| total * i / n as u64).collect()
}

/// Records an optimal solve of a 2 × 3 scramble taking `total` ms; the stored record.
fn record(s: &Serve, seed: u64, total: u64, extra: Value) -> Value {
    let (board, tiles) = scramble_and_solution(s, "2x3", seed);
    let n = tiles.as_array().unwrap().len();
    let mut body = json!({
        "scramble": board, "moves": tiles, "times_ms": times(n, total),
        "category": "single", "assisted": false, "dnf": false,
    });
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let r = s.post("/api/solves", &body.to_string());
    assert_eq!(r.status, 200, "{body} -> {}", r.body);
    r.json()
}

/// The standard average of five times (ms): drop the best and the worst, the mean of the rest, rounded.
fn ao5(times: &[u64]) -> i64 {
    let mut t = times.to_vec();
    t.sort_unstable();
    ((t[1] + t[2] + t[3]) as f64 / 3.0).round() as i64
}

#[test]
fn a_solve_is_replayed_stored_and_listed() {
    let dir = tempfile::tempdir().unwrap();
    let s = serve_with(&dir.path().join("h.sqlite3"));
    let body = json!({"scramble": "4 1 2/5 0 3", "moves": "r d l2 u", "times_ms": [300, 500, 800, 900, 1250],
                      "category": "single", "assisted": false, "dnf": false, "inspection_ms": 2000});
    let r = s.post("/api/solves", &body.to_string());
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert!(v["id"].as_i64().unwrap() > 0);
    assert_eq!(v["shape"], "2x3");
    assert_eq!((v["stm"].clone(), v["mtm"].clone()), (json!(5), json!(4)));
    assert_eq!(v["time_ms"], 1250);
    assert_eq!(v["optimal"], 5);
    assert_eq!(v["moves"], "RDL2U");
    assert_eq!(v["scramble"], json!([[4, 1, 2], [5, 0, 3]]));
    assert_eq!(v["inspection_ms"], 2000);
    assert_eq!(v["tps"], 4.0);
    assert_eq!(v["personal_bests"]["time"], json!(["single"]));
    let list = s.get("/api/solves?shape=2x3&category=single").json();
    assert_eq!(list["solves"].as_array().unwrap().len(), 1);
    assert_eq!(list["solves"][0]["id"], v["id"]);
    assert_eq!(s.get("/api/solves?shape=3x3").json()["solves"], json!([]));
    let mine = s.get("/api/solves?session=current").json();
    assert_eq!(mine["solves"][0]["session"], v["session"]);
    assert_eq!(
        s.get("/api/solves?session=other").json()["solves"],
        json!([])
    );
    for (q, needle) in [
        ("?limit=0", "limit"),
        ("?shape=2x3&shape=2x3", "given twice"),
        ("?colour=red", "unknown parameter"),
    ] {
        let r = s.get(&format!("/api/solves{q}"));
        assert_eq!(r.status, 400, "{q}: {}", r.body);
        assert!(
            r.json()["error"].as_str().unwrap().contains(needle),
            "{q}: {}",
            r.body
        );
    }
    let r = s.request("DELETE", "/api/solves", None);
    assert_eq!(r.status, 405);
}

#[test]
fn illegal_moves_and_unfinished_solves() {
    let dir = tempfile::tempdir().unwrap();
    let s = serve_with(&dir.path().join("h.sqlite3"));
    let post = |body: Value| s.post("/api/solves", &body.to_string());
    // The fifth move is illegal: the answer names it.
    let r = post(json!({"scramble": "4 1 2/5 0 3", "moves": "RDLLD", "times_ms": [1, 2, 3, 4, 5]}));
    assert_eq!(r.status, 400);
    let e = r.json()["error"].as_str().unwrap().to_string();
    assert!(e.contains("move 5 (D): no tile above the blank"), "{e}");
    // Legal moves that stop short of the goal: refused unless DNF.
    let short = json!({"scramble": "4 1 2/5 0 3", "moves": "RD", "times_ms": [100, 200]});
    let r = post(short.clone());
    assert_eq!(r.status, 400);
    assert!(r.body.contains("not on the goal"), "{}", r.body);
    let mut dnf = short;
    dnf["dnf"] = json!(true);
    let r = post(dnf);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["dnf"], true);
    assert_eq!(r.json()["personal_bests"]["time"], json!([]));
    // Times that do not match the moves.
    let r = post(json!({"scramble": "4 1 2/5 0 3", "moves": "RDL2U", "times_ms": [1, 2, 3]}));
    assert_eq!(r.status, 400);
    assert!(
        r.body.contains("3 times for 5 single-tile moves"),
        "{}",
        r.body
    );
    let r = post(json!({"scramble": "4 1 2/5 0 3", "moves": "RDL2U", "times_ms": [1, 2, 3, 2, 5]}));
    assert_eq!(r.status, 400);
    let r = post(
        json!({"scramble": "4 1 2/5 0 3", "moves": "RDL2U", "times_ms": [1, 2, 3, 4, 5], "category": "Not One"}),
    );
    assert_eq!(r.status, 400);
    assert!(r.body.contains("category"), "{}", r.body);
    // One record stored (the DNF).
    assert_eq!(
        s.get("/api/solves").json()["solves"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn averages_follow_the_rule_and_skip_assisted_solves() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("h.sqlite3");
    let s = serve_with(&db);
    let totals = [5200, 4100, 6900, 3800, 4500];
    for (i, &t) in totals.iter().enumerate() {
        record(&s, i as u64 + 1, t, json!({}));
    }
    let a = s.get("/api/averages?shape=2x3&category=single").json();
    let time = &a["session"]["time"];
    assert_eq!(time["ao5"]["current"], json!(ao5(&totals)));
    assert_eq!(time["single"]["best"], json!(3800));
    assert_eq!(time["single"]["current"], json!(4500));
    let mo3 = ((6900 + 3800 + 4500) as f64 / 3.0).round() as i64;
    assert_eq!(time["mo3"]["current"], json!(mo3));
    assert_eq!(time["ao12"]["current"], Value::Null);
    assert_eq!(a["all_time"]["solves"], 5);
    assert!(a["session"]["moves"]["ao5"]["current"].is_number());
    assert!(a["session"]["tps"]["single"]["best"].is_number());
    // An assisted solve, faster than any: stored, never counted.
    let v = record(&s, 9, 1000, json!({"assisted": true}));
    assert_eq!(v["assisted"], true);
    assert_eq!(v["personal_bests"]["time"], json!([]));
    let b = s.get("/api/averages?shape=2x3&category=single").json();
    assert_eq!(b["session"]["time"], a["session"]["time"]);
    assert_eq!(b["all_time"]["solves"], 5);
    // Two DNFs make the ao5 a DNF.
    for _ in 0..2 {
        let r = s.post(
            "/api/solves",
            &json!({"scramble": "4 1 2/5 0 3", "moves": "R", "times_ms": [100], "dnf": true})
                .to_string(),
        );
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let c = s.get("/api/averages?shape=2x3").json();
    assert_eq!(c["session"]["time"]["ao5"]["current"], "DNF");
    assert_eq!(c["session"]["time"]["ao5"]["best"], json!(ao5(&totals)));
    // The chart of the session's times.
    let p = s.get("/api/solves/plot?shape=2x3&category=single");
    assert_eq!(p.status, 200, "{}", p.body);
    assert_eq!(p.header("content-type"), Some("image/svg+xml"));
    assert!(p.body.starts_with("<svg") && p.body.contains("ao5"));
    assert_eq!(s.get("/api/averages").status, 400);
    drop(s);

    // Another server on the same file: the history is there, the session is new.
    let s = serve_with(&db);
    assert_eq!(
        s.get("/api/solves").json()["solves"]
            .as_array()
            .unwrap()
            .len(),
        8
    );
    let d = s.get("/api/averages?shape=2x3").json();
    assert_eq!(d["session"]["solves"], 0);
    assert_eq!(d["session"]["time"]["single"]["current"], Value::Null);
    assert_eq!(d["all_time"]["solves"], 7);
    assert_eq!(d["all_time"]["time"]["ao5"]["best"], json!(ao5(&totals)));
    let old = a["session_id"].as_str().unwrap();
    let e = s
        .get(&format!("/api/averages?shape=2x3&session={old}"))
        .json();
    assert_eq!(e["session"]["time"]["ao5"]["best"], json!(ao5(&totals)));
    drop(s);

    // A plain SQLite file: the records are rows of `solves`, the schema version is kept.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let n: i64 = conn
        .query_row("SELECT count(*) FROM solves WHERE assisted = 0", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(n, 7);
    let v: i64 = conn
        .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, 1);
}

/// `sqlite3 FILE SQL`, expecting success; its standard output.
fn sqlite3(file: &Path, sql: &str) -> String {
    let out = std::process::Command::new("sqlite3")
        .arg(file)
        .arg(sql)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "sqlite3 {} {sql:?}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_sqlite3_program_reads_the_history() {
    // The history is a plain SQLite file: the `sqlite3` program opens what the server and `slide history --import`
    // write. Without the program the test is skipped, unless SLIDE_REQUIRE_SQLITE3=1 (as on CI) makes it a failure.
    let found = std::process::Command::new("sqlite3")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert_ne!(
            std::env::var("SLIDE_REQUIRE_SQLITE3").as_deref(),
            Ok("1"),
            "SLIDE_REQUIRE_SQLITE3=1 but there is no sqlite3 program on PATH (Debian: apt-get install sqlite3)"
        );
        eprintln!("the_sqlite3_program_reads_the_history: no sqlite3 program on PATH; skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("h.sqlite3");
    let s = serve_with(&db);
    let body = json!({"scramble": "4 1 2/5 0 3", "moves": "r d l2 u", "times_ms": [300, 500, 800, 900, 1250]});
    assert_eq!(s.post("/api/solves", &body.to_string()).status, 200);
    record(&s, 3, 2000, json!({"assisted": true}));
    drop(s);
    assert_eq!(sqlite3(&db, "PRAGMA integrity_check;").trim(), "ok");
    assert_eq!(
        sqlite3(&db, "SELECT version FROM schema_version;").trim(),
        "1"
    );
    assert_eq!(sqlite3(&db, "SELECT count(*) FROM solves;").trim(), "2");
    assert_eq!(
        sqlite3(
            &db,
            "SELECT shape, category, moves, stm, mtm, time_ms, optimal, assisted FROM solves ORDER BY id LIMIT 1;"
        )
        .trim(),
        "2x3|single|RDL2U|5|4|1250|5|0"
    );
    // Exported to CSV and imported into a new file by `slide history`: the same rows.
    let slide = Slide::new();
    let csv = dir.path().join("out.csv");
    let db2 = dir.path().join("imported.sqlite3");
    slide.ok(
        &[
            "history",
            "--db",
            db.to_str().unwrap(),
            "--export",
            csv.to_str().unwrap(),
        ],
        "",
    );
    slide.ok(
        &[
            "history",
            "--db",
            db2.to_str().unwrap(),
            "--import",
            csv.to_str().unwrap(),
        ],
        "",
    );
    let rows = "SELECT shape, category, scramble, moves, times_ms, time_ms, stm, mtm, optimal, assisted, dnf \
                FROM solves ORDER BY id;";
    assert_eq!(sqlite3(&db2, "PRAGMA integrity_check;").trim(), "ok");
    assert_eq!(sqlite3(&db2, rows), sqlite3(&db, rows));
    // A damaged file: sqlite3 refuses it as slide does.
    let junk = dir.path().join("junk.sqlite3");
    std::fs::write(&junk, vec![b'x'; 4096]).unwrap();
    let out = std::process::Command::new("sqlite3")
        .arg(&junk)
        .arg("SELECT count(*) FROM solves;")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not a database"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn relays_are_one_record_with_splits() {
    let dir = tempfile::tempdir().unwrap();
    let s = serve_with(&dir.path().join("h.sqlite3"));
    let body = json!({"category": "relay", "splits": [
        {"scramble": "4 1 2/5 0 3", "moves": "RDL2U", "times_ms": [100, 200, 300, 400, 500]},
        {"scramble": "1 2 3/4 5 6/7 0 8", "moves": "L", "times_ms": [900]},
    ]});
    let r = s.post("/api/solves", &body.to_string());
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["shape"], "2x3+3x3");
    assert_eq!(v["category"], "relay");
    assert_eq!(
        (v["stm"].clone(), v["time_ms"].clone()),
        (json!(6), json!(900))
    );
    assert_eq!(v["optimal"], 6);
    assert_eq!(v["splits"][1]["time_ms"], 400);
    assert_eq!(v["splits"][0]["optimal"], 5);
    let a = s.get("/api/averages?shape=2x3%2B3x3&category=relay").json();
    assert_eq!(a["session"]["time"]["single"]["best"], 900);
}

#[test]
fn a_damaged_locked_or_unwritable_file_leaves_the_page_playing() {
    let dir = tempfile::tempdir().unwrap();
    let solve_still_works = |s: &Serve| {
        let a = s.solve(json!({"board": "4 1 2/5 0 3"}));
        assert_eq!(a["moves"], 5);
        assert_eq!(s.get("/").status, 200);
    };
    let body = json!({"scramble": "4 1 2/5 0 3", "moves": "RDL2U", "times_ms": [1, 2, 3, 4, 5]})
        .to_string();
    // Not an SQLite file.
    let bad = dir.path().join("damaged.sqlite3");
    std::fs::write(&bad, vec![b'x'; 4096]).unwrap();
    let s = serve_with(&bad);
    for r in [
        s.post("/api/solves", &body),
        s.get("/api/solves"),
        s.get("/api/averages?shape=2x3"),
    ] {
        assert_eq!(r.status, 503, "{}", r.body);
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(
            e.contains("damaged.sqlite3") && e.contains("not an SQLite database"),
            "{e}"
        );
    }
    solve_still_works(&s);
    drop(s);
    // A directory that cannot be made: its parent is a file.
    let under_file = bad.join("h.sqlite3");
    let s = serve_with(&under_file);
    let r = s.post("/api/solves", &body);
    assert_eq!(r.status, 503, "{}", r.body);
    assert!(r.body.contains("cannot create its directory"), "{}", r.body);
    solve_still_works(&s);
    drop(s);
    // A locked file: another connection holds an exclusive lock.
    let locked = dir.path().join("locked.sqlite3");
    let s = serve_with(&locked);
    assert_eq!(s.post("/api/solves", &body).status, 200);
    let holder = rusqlite::Connection::open(&locked).unwrap();
    holder.execute_batch("BEGIN EXCLUSIVE;").unwrap();
    let r = s.post("/api/solves", &body);
    assert_eq!(r.status, 503, "{}", r.body);
    assert!(r.body.contains("locked"), "{}", r.body);
    solve_still_works(&s);
    holder.execute_batch("COMMIT;").unwrap();
    assert_eq!(s.post("/api/solves", &body).status, 200);
    drop(s);
}

/// Where `slide` runs as a user that directory permissions bind: as root (CI) uid and gid 65534 (`nobody`, with
/// no supplementary groups) and a copy of the binary in a directory every user may enter, else the test's own user
/// and the built binary. Its files go in [`Unprivileged::dir`], a directory that user may write.
#[cfg(unix)]
struct Unprivileged {
    home: tempfile::TempDir,
    bin: std::path::PathBuf,
    ids: Option<(u32, u32)>,
}

#[cfg(unix)]
impl Unprivileged {
    fn new() -> Unprivileged {
        use std::os::unix::fs::PermissionsExt;
        let home = tempfile::tempdir().unwrap();
        let ids = (unsafe { libc::geteuid() } == 0).then_some((65534, 65534));
        let bin = match ids {
            None => assert_cmd::cargo::cargo_bin("slide"),
            Some(_) => {
                std::fs::set_permissions(home.path(), std::fs::Permissions::from_mode(0o755))
                    .unwrap();
                let copy = home.path().join("slide");
                // Copied by another process, so that no file descriptor of this one open on the copy for writing
                // can leak into a concurrent test's child and make running it fail ("text file busy").
                let st = std::process::Command::new("cp")
                    .arg(assert_cmd::cargo::cargo_bin("slide"))
                    .arg(&copy)
                    .status()
                    .unwrap();
                assert!(st.success());
                std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).unwrap();
                copy
            }
        };
        let u = Unprivileged { home, bin, ids };
        std::fs::create_dir(u.dir()).unwrap();
        std::fs::create_dir(u.dir().join("cache")).unwrap();
        std::fs::set_permissions(u.dir(), std::fs::Permissions::from_mode(0o777)).unwrap();
        std::fs::set_permissions(
            u.dir().join("cache"),
            std::fs::Permissions::from_mode(0o777),
        )
        .unwrap();
        u
    }

    /// A directory the user may write.
    fn dir(&self) -> std::path::PathBuf {
        self.home.path().join("files")
    }

    /// `slide ARGS`, run as the user, with a cache directory it may write.
    fn command(&self, args: &[&str]) -> std::process::Command {
        use std::os::unix::process::CommandExt;
        let mut c = std::process::Command::new(&self.bin);
        c.args(args)
            .env("SLIDE_CACHE_DIR", self.dir().join("cache"))
            .env_remove("XDG_CACHE_HOME");
        if let Some((uid, gid)) = self.ids {
            c.uid(uid).gid(gid);
        }
        c
    }

    /// `slide serve --port 0 EXTRA...`, run as the user.
    fn serve(&self, extra: &[&str]) -> Serve {
        let mut c = self.command(&["serve", "--port", "0"]);
        c.args(extra);
        let cache = tempfile::tempdir_in(self.dir()).unwrap();
        std::fs::set_permissions(
            cache.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o777),
        )
        .unwrap();
        Serve::spawn(c, cache)
    }

    /// `slide ARGS` as the user: (exit status, standard output, standard error).
    fn run(&self, args: &[&str]) -> (i32, String, String) {
        let out = self.command(args).output().unwrap();
        (
            out.status.code().expect("exited"),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    }
}

#[cfg(unix)]
#[test]
fn a_read_only_directory_is_a_clear_error_even_for_root() {
    use std::os::unix::fs::PermissionsExt;
    let u = Unprivileged::new();
    let mode =
        |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
    let body = json!({"scramble": "4 1 2/5 0 3", "moves": "RDL2U", "times_ms": [1, 2, 3, 4, 5]})
        .to_string();
    let solve_still_works = |s: &Serve| {
        let a = s.solve(json!({"board": "4 1 2/5 0 3"}));
        assert_eq!(a["moves"], 5);
        assert_eq!(s.get("/").status, 200);
    };

    // An empty read-only directory: no file can be made in it.
    let empty = u.dir().join("empty");
    std::fs::create_dir(&empty).unwrap();
    mode(&empty, 0o555);
    let db = empty.join("h.sqlite3");
    let db_arg = db.to_str().unwrap();
    let s = u.serve(&["--db", db_arg]);
    solve_still_works(&s);
    for r in [
        s.post("/api/solves", &body),
        s.get("/api/solves"),
        s.get("/api/averages?shape=2x3"),
    ] {
        assert_eq!(r.status, 503, "{}", r.body);
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(
            e.starts_with(&format!("history database {db_arg}: "))
                && e.contains("cannot be opened or created"),
            "{e}"
        );
    }
    solve_still_works(&s);
    drop(s);
    let (code, out, err) = u.run(&["history", "--db", db_arg]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(
        err.starts_with(&format!("slide: history database {db_arg}: "))
            && err.contains("cannot be opened or created"),
        "{err}"
    );
    assert!(
        !db.exists(),
        "the directory was writable to slide after all"
    );

    // A read-only directory holding a history (and the file not writable either): it is read, never written.
    let kept = u.dir().join("kept");
    std::fs::create_dir(&kept).unwrap();
    let db = kept.join("h.sqlite3");
    let db_arg = db.to_str().unwrap();
    let s = serve_with(&db);
    assert_eq!(s.post("/api/solves", &body).status, 200);
    drop(s);
    mode(&db, 0o444);
    mode(&kept, 0o555);
    let s = u.serve(&["--db", db_arg]);
    let r = s.post("/api/solves", &body);
    assert_eq!(r.status, 503, "{}", r.body);
    let e = r.json()["error"].as_str().unwrap().to_string();
    assert!(
        e.starts_with(&format!("history database {db_arg}: "))
            && e.contains("readonly database")
            && e.contains("cannot be written"),
        "{e}"
    );
    let list = s.get("/api/solves");
    assert_eq!(list.status, 200, "{}", list.body);
    assert_eq!(list.json()["solves"].as_array().unwrap().len(), 1);
    solve_still_works(&s);
    drop(s);
    let (code, out, err) = u.run(&["history", "--db", db_arg, "--json"]);
    assert_eq!((code, out.lines().count()), (0, 1), "{err}");
    let csv = u.dir().join("one.csv");
    std::fs::write(&csv, "shape,category,time_ms\n2x3,single,100\n").unwrap();
    let (code, _, err) = u.run(&["history", "--db", db_arg, "--import", csv.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with(&format!("slide: history database {db_arg}: "))
            && err.contains("cannot be written"),
        "{err}"
    );

    // The file writable but not its directory (no journal can be made beside it): still refused, and clearly.
    mode(&db, 0o666);
    let s = u.serve(&["--db", db_arg]);
    let r = s.post("/api/solves", &body);
    assert_eq!(r.status, 503, "{}", r.body);
    assert!(
        r.body.contains(db_arg) && r.body.contains("cannot be written"),
        "{}",
        r.body
    );
    solve_still_works(&s);
    drop(s);
    let (code, _, err) = u.run(&["history", "--db", db_arg, "--import", csv.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(db_arg) && err.contains("cannot be written"),
        "{err}"
    );
    mode(&kept, 0o755);
    let n: i64 = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("SELECT count(*) FROM solves", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 1, "nothing was added");
    mode(&empty, 0o755);
}

#[test]
fn the_history_command_lists_exports_and_imports() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("h.sqlite3");
    let s = serve_with(&db);
    for (i, t) in [3000, 2500, 4000].into_iter().enumerate() {
        record(&s, i as u64 + 1, t, json!({}));
    }
    record(
        &s,
        7,
        900,
        json!({"assisted": true, "category": "marathon"}),
    );
    drop(s);
    let slide = Slide::new();
    let db_arg = db.to_str().unwrap();
    let table = slide.ok(&["history", "--db", db_arg], "");
    assert!(
        table.contains("2x3") && table.contains("assisted") && table.contains("4.000"),
        "{table}"
    );
    let lines = slide.ok(
        &["history", "--db", db_arg, "--json", "--category", "single"],
        "",
    );
    let records: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 3);
    assert_eq!(records[0]["time_ms"], 4000, "newest first");
    let one = slide.ok(&["history", "--db", db_arg, "--json", "--limit", "1"], "");
    assert_eq!(one.lines().count(), 1);
    let csv = slide.ok(&["history", "--db", db_arg, "--csv"], "");
    assert!(
        csv.starts_with("id,created_ms,session,shape,category,time_ms"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 5);

    // Export, import into a new file: the same records, new ids.
    let file = dir.path().join("out.csv");
    slide.ok(
        &[
            "history",
            "--db",
            db_arg,
            "--export",
            file.to_str().unwrap(),
        ],
        "",
    );
    let db2 = dir.path().join("h2.sqlite3");
    let db2_arg = db2.to_str().unwrap();
    slide.ok(
        &[
            "history",
            "--db",
            db2_arg,
            "--import",
            file.to_str().unwrap(),
        ],
        "",
    );
    let strip = |text: &str| -> Vec<Value> {
        let mut v: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        for r in &mut v {
            r.as_object_mut().unwrap().remove("id");
        }
        v
    };
    assert_eq!(
        strip(&slide.ok(&["history", "--db", db2_arg, "--json"], "")),
        strip(&slide.ok(&["history", "--db", db_arg, "--json"], ""))
    );
    // A bad line is named, and nothing is added.
    let bad = dir.path().join("bad.csv");
    std::fs::write(
        &bad,
        "shape,category,time_ms\n2x3,single,100\n2x3,single,soon\n",
    )
    .unwrap();
    slide.bad(
        &[
            "history",
            "--db",
            db2_arg,
            "--import",
            bad.to_str().unwrap(),
        ],
        "",
        "line 3: time_ms",
    );
    assert_eq!(
        slide
            .ok(&["history", "--db", db2_arg, "--json"], "")
            .lines()
            .count(),
        4
    );
    // A damaged file is a clear error.
    let junk = dir.path().join("junk.sqlite3");
    std::fs::write(&junk, vec![b'x'; 4096]).unwrap();
    slide.bad(
        &["history", "--db", junk.to_str().unwrap()],
        "",
        "not an SQLite database",
    );
}

#[test]
fn scramble_refuses_unknown_and_repeated_parameters() {
    let s = Serve::start();
    for (q, needle) in [
        ("?shape=3x3&colour=red", "unknown parameter \"colour\""),
        ("?shape=3x3&shape=4x4", "given twice"),
        ("?shape=3x3&seed=1&seed=2", "given twice"),
    ] {
        let r = s.get(&format!("/api/scramble{q}"));
        assert_eq!(r.status, 400, "{q}: {}", r.body);
        assert!(
            r.json()["error"].as_str().unwrap().contains(needle),
            "{q}: {}",
            r.body
        );
    }
    assert_eq!(s.get("/api/scramble?shape=3x3&seed=7").status, 200);
}

#[test]
fn analyse_honours_the_multi_tile_metric() {
    let s = Serve::start();
    // From 1 2 3/4 5 6/0 7 8 the push "L2" is one MTM move and two STM moves.
    let stm = s.analyse(json!({"board": "1 2 3/4 5 6/0 7 8", "moves": "L2"}));
    assert_eq!(
        (stm["optimal"].clone(), stm["distances"].clone()),
        (json!(2), json!([1, 0]))
    );
    let mtm = s.analyse(json!({"board": "1 2 3/4 5 6/0 7 8", "moves": "L2", "metric": "mtm"}));
    assert_eq!(mtm["metric"], "mtm");
    assert_eq!(
        (mtm["optimal"].clone(), mtm["over"].clone()),
        (json!(1), json!(0))
    );
    assert_eq!(
        (mtm["length"].clone(), mtm["mtm_length"].clone()),
        (json!(2), json!(1))
    );
    assert_eq!(mtm["distances"], json!([0]));
    // A detour in pushes: a tile down, back up, then the push home.
    let d = s.analyse(json!({"board": "1 2 3/4 5 6/0 7 8", "moves": "D U L2", "metric": "mtm"}));
    assert_eq!(d["distances"], json!([2, 1, 0]));
    assert_eq!(d["mistakes"], json!([1]));
    assert_eq!(d["over"], 2);
    let e = s.error_from(
        "/api/analyse",
        &json!({"board": "1 2 3/4 5 6/0 7 8", "moves": "L2", "metric": "htm"}).to_string(),
        400,
    );
    assert!(e.contains("unknown metric"), "{e}");
}
