//! The bad-input catalogue (`crates/slide/tests/data/bad_input.json`, through `catalogue`) sent to `slide solve`:
//! every malformed board as an argument and as a line of standard input between good lines, each batch in one
//! run, and to `POST /api/solve`.
//!
//! Every malformed input must give a clear error — standard error names the problem, after `argument K:` or
//! `line K:` — and exit status 1; never a panic (exit status 101, "panicked"), never a hang (each run has a time
//! limit). One bad argument or line does not lose the others: good lines in the same batch are still answered, in
//! order. A good board with CRLF line ends, tabs, or other white space is not malformed: those cases must work.
//! Over HTTP, a malformed board gets 400 (413 when the body is over 64 KiB) with a JSON `{"error": ...}`, and the
//! server keeps answering.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use assert_cmd::Command;

use crate::catalogue::{self, BadBoard};
use crate::support::serve::Serve;

/// Time limit of one run: generous for a loaded machine (a first 4 × 4 solve builds its pattern databases: 4 s
/// alone, far more beside parallel builds), far below "hung".
const LIMIT: Duration = Duration::from_secs(90);

/// Can this be a command-line argument? (No NUL, valid UTF-8, and under the kernel's 128 KiB per argument.)
fn as_arg(b: &BadBoard) -> Option<&str> {
    let s = b.utf8()?;
    (!s.contains('\0') && s.len() < 100_000).then_some(s)
}

/// Can this be one line of standard input? (A line cannot hold a line feed; a blank line of ordinary length is
/// skipped, not answered.)
fn as_line(b: &BadBoard) -> bool {
    let blank = b.text.len() < 1 << 20 && b.text.iter().all(u8::is_ascii_whitespace);
    !b.text.contains(&b'\n') && !blank
}

/// The malformed boards the command line takes, grouped by their `--shape` (one run each).
fn by_shape(keep: impl Fn(&BadBoard) -> bool) -> BTreeMap<Option<String>, Vec<BadBoard>> {
    let mut groups: BTreeMap<Option<String>, Vec<BadBoard>> = BTreeMap::new();
    for b in catalogue::boards() {
        if b.cli.is_some() && keep(&b) {
            groups.entry(b.shape.clone()).or_default().push(b);
        }
    }
    groups
}

// ---------------------------------------------------------------------------------------------------------------
// The CLI
// ---------------------------------------------------------------------------------------------------------------

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn slide(args: &[&str], stdin: Vec<u8>, cache: &std::path::Path) -> Run {
    let out = Command::cargo_bin("slide")
        .unwrap()
        .env("SLIDE_CACHE_DIR", cache)
        .args(args)
        .write_stdin(stdin)
        .timeout(LIMIT)
        .output()
        .unwrap();
    let run = Run {
        code: out.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(
        out.status.code().is_some(),
        "slide {args:?} killed (time limit {LIMIT:?}?): {}",
        shorten(&run.err)
    );
    assert!(
        run.code != 101 && !run.err.contains("panicked"),
        "slide {args:?} panicked: {}",
        shorten(&run.err)
    );
    run
}

fn shorten(s: &str) -> String {
    s.chars().take(400).collect()
}

fn shape_args(shape: &Option<String>) -> Vec<&str> {
    match shape {
        Some(s) => vec!["solve", "--shape", s],
        None => vec!["solve"],
    }
}

/// Good lines for a batch run with the bad input's `--shape`, and their answers.
fn good_lines(shape: &Option<String>) -> [(&'static str, &'static str); 2] {
    match shape.as_deref() {
        Some("3x2") => [("[[1,2],[3,4],[5,0]]", "0"), ("1 2/3 4/0 5", "1")],
        Some("4x4") => [
            ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", "1"),
            ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", "0"),
        ],
        Some("2x2") => [("1 2 0 3", "1"), ("[[1,2],[3,0]]", "0")],
        _ => [("[[1,2,3],[4,0,5]]", "1"), ("4 1 2/5 0 3", "5")],
    }
}

/// Asserts that one line of standard error names the bad input: `slide: WHERE: ` and the catalogue's words.
fn check_error_line(b: &BadBoard, line: &str, place: &str) {
    let words = b.cli.as_deref().unwrap();
    assert!(
        line.starts_with(&format!("slide: {place}: ")) && catalogue::holds(line, words),
        "{}: stderr should name the problem ({words:?}) at {place}: {}",
        b.name,
        shorten(line)
    );
}

#[test]
fn catalogue_is_large_and_distinct() {
    let c = catalogue::boards();
    assert!(c.len() >= 50, "only {} inputs", c.len());
    let mut seen = std::collections::HashSet::new();
    let mut names = std::collections::HashSet::new();
    for b in &c {
        assert!(
            seen.insert((b.text.clone(), b.shape.clone())),
            "{} twice",
            b.name
        );
        assert!(names.insert(b.name.clone()), "the name {} twice", b.name);
    }
    let bodies = catalogue::bodies();
    assert!(bodies.len() >= 20, "only {} bodies", bodies.len());
}

#[test]
fn each_bad_argument_is_an_error() {
    // All the bad arguments of one --shape in one run: each named by its place, none answered.
    let cache = tempfile::tempdir().unwrap();
    let mut tried = 0;
    for (shape, bads) in by_shape(|b| as_arg(b).is_some()) {
        let mut args = shape_args(&shape);
        args.extend(bads.iter().map(|b| as_arg(b).unwrap()));
        let r = slide(&args, Vec::new(), cache.path());
        assert_eq!(
            r.code,
            1,
            "{shape:?}: exit status; stderr {}",
            shorten(&r.err)
        );
        let lines: Vec<&str> = r.err.lines().collect();
        assert_eq!(lines.len(), bads.len(), "{shape:?}: {}", shorten(&r.err));
        for (i, (b, line)) in bads.iter().zip(&lines).enumerate() {
            check_error_line(b, line, &format!("argument {}", i + 1));
        }
        assert!(r.out.is_empty(), "{shape:?}: stdout {:?}", shorten(&r.out));
        tried += bads.len();
    }
    assert!(tried >= 45, "{tried}");
}

#[test]
fn each_bad_line_is_an_error_and_good_lines_are_answered() {
    // All the bad lines of one --shape in one run, each between two good lines, which are all answered in order.
    let cache = tempfile::tempdir().unwrap();
    let mut tried = 0;
    for (shape, bads) in by_shape(as_line) {
        let [(g1, a1), (g2, a2)] = good_lines(&shape);
        let mut input = Vec::new();
        for b in &bads {
            input.extend_from_slice(g1.as_bytes());
            input.push(b'\n');
            input.extend_from_slice(&b.text);
            input.push(b'\n');
            input.extend_from_slice(g2.as_bytes());
            input.push(b'\n');
        }
        let r = slide(&shape_args(&shape), input, cache.path());
        assert_eq!(
            r.code,
            1,
            "{shape:?}: exit status; stderr {}",
            shorten(&r.err)
        );
        assert_eq!(
            r.out,
            format!("{a1}\n{a2}\n").repeat(bads.len()),
            "{shape:?}: good lines"
        );
        let lines: Vec<&str> = r.err.lines().collect();
        assert_eq!(lines.len(), bads.len(), "{shape:?}: {}", shorten(&r.err));
        for (i, (b, line)) in bads.iter().zip(&lines).enumerate() {
            check_error_line(b, line, &format!("line {}", 3 * i + 2));
        }
        tried += bads.len();
    }
    assert!(tried >= 70, "{tried}");
}

#[test]
fn a_whole_batch_of_bad_lines_in_json() {
    // Every line-sized bad input without --shape, between good lines, in one run with --json.
    let cache = tempfile::tempdir().unwrap();
    let bads: Vec<BadBoard> = catalogue::boards()
        .into_iter()
        .filter(|b| b.cli.is_some() && b.shape.is_none() && as_line(b) && b.text.len() < 1 << 20)
        .collect();
    let mut input = Vec::new();
    for b in &bads {
        input.extend_from_slice(b"4 1 2/5 0 3\n");
        input.extend_from_slice(&b.text);
        input.push(b'\n');
    }
    input.extend_from_slice(b"[[1,2,3],[5,4,0]]\n");
    let r = slide(&["solve", "--json"], input, cache.path());
    assert_eq!(r.code, 1);
    let lines: Vec<serde_json::Value> = r
        .out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect();
    assert_eq!(lines.len(), 2 * bads.len() + 1);
    for (i, b) in bads.iter().enumerate() {
        let good = &lines[2 * i];
        assert_eq!(good["moves"], 5, "{}: {good}", b.name);
        let e = &lines[2 * i + 1];
        assert_eq!(e["line"], 2 * i + 2, "{}: {e}", b.name);
        assert!(
            catalogue::holds(e["error"].as_str().unwrap(), b.cli.as_deref().unwrap()),
            "{}: {e}",
            b.name
        );
    }
    assert_eq!(lines.last().unwrap()["moves"], -1);
    assert_eq!(r.err.lines().count(), bads.len());
}
#[test]
fn crlf_tabs_and_spaces_work() {
    let cache = tempfile::tempdir().unwrap();
    let input = "[[1,2,3],[4,0,5]]\r\n4\t1\t2/5\t0\t3\r\n  1 , 2 , 3 / 4 , 0 , 5  \r\n\t[ [4,1,2] ,\t[5,0,3] ]\t\r\n";
    let r = slide(&["solve"], input.into(), cache.path());
    assert_eq!(
        (r.code, r.out.as_str(), r.err.as_str()),
        (0, "1\n5\n1\n5\n", "")
    );
    // No line end on the last line, and CR LF as arguments.
    let r = slide(
        &["solve"],
        "1 2 3/4 0 5\r\n4 1 2/5 0 3".into(),
        cache.path(),
    );
    assert_eq!((r.code, r.out.as_str()), (0, "1\n5\n"));
    let r = slide(
        &["solve", "[[1,2,3],[4,0,5]]\r\n", "\t4 1 2/5 0 3\r"],
        Vec::new(),
        cache.path(),
    );
    assert_eq!((r.code, r.out.as_str()), (0, "1\n5\n"));
    let r = slide(
        &["solve", "--shape", "2x3"],
        "1 2 3 4 0 5\r\n".into(),
        cache.path(),
    );
    assert_eq!((r.code, r.out.as_str()), (0, "1\n"));
    // A byte-order mark at the start of a line (files saved by some editors) is not part of the board.
    let r = slide(
        &["solve"],
        "\u{feff}[[1,2,3],[4,0,5]]\r\n\u{feff}4 1 2/5 0 3\n".into(),
        cache.path(),
    );
    assert_eq!((r.code, r.out.as_str()), (0, "1\n5\n"));
    // Nothing at all on standard input: nothing to answer.
    let r = slide(&["solve"], Vec::new(), cache.path());
    assert_eq!((r.code, r.out.as_str(), r.err.as_str()), (0, "", ""));
}

#[test]
fn usage_errors_exit_2() {
    // Bad options are usage errors (exit status 2, as documented), named on standard error.
    let cache = tempfile::tempdir().unwrap();
    for (args, want) in [
        (vec!["solve", "--shape", "2049x2048", "1 0"], "too large"),
        (vec!["solve", "--shape", "2048x2049", "1 0"], "too large"),
        (vec!["solve", "--shape", "0x5", "1 0"], "two cells"),
        (vec!["solve", "--shape", "1x1", "1 0"], "two cells"),
        (vec!["solve", "--shape=-2x3", "1 0"], "bad shape"),
        (vec!["solve", "--shape", "2.5x2", "1 0"], "bad shape"),
        (vec!["solve", "--shape", "abc", "1 0"], "bad shape"),
        (
            vec!["solve", "--shape", "99999999999999999999999x2", "1 0"],
            "too large",
        ),
        (vec!["solve", "--shape", "", "1 0"], "bad shape"),
        (vec!["solve", "--goal", "1 2/3 3", "1 0/2 3"], "--goal"),
        (vec!["solve", "--goal", "", "1 0/2 3"], "--goal"),
        (vec!["solve", "--timeout", "NaN", "1 0/2 3"], "--timeout"),
        (vec!["solve", "--timeout=-1", "1 0/2 3"], "--timeout"),
        (vec!["solve", "--timeout", "inf", "1 0/2 3"], "--timeout"),
        (vec!["solve", "--timeout", "0", "1 0/2 3"], "--timeout"),
        (vec!["solve", "--max-nodes=-5", "1 0/2 3"], "--max-nodes"),
        (
            vec!["solve", "--max-nodes", "1e6", "1 0/2 3"],
            "--max-nodes",
        ),
        (vec!["solve", "--within", "0.5", "1 0/2 3"], "--within"),
        (
            vec!["solve", "--heuristic", "nope", "1 0/2 3"],
            "--heuristic",
        ),
        (vec!["solve", "--pdb", "x", "1 0/2 3"], "--pdb"),
        (
            vec!["solve", "--mixed-sums", "yes", "1 0/2 3"],
            "--mixed-sums",
        ),
    ] {
        let r = slide(&args, Vec::new(), cache.path());
        assert_eq!(r.code, 2, "{args:?}: {}", shorten(&r.err));
        assert!(r.err.contains(want), "{args:?}: {}", shorten(&r.err));
    }
    // A goal of another shape than the board: the board is bad (exit status 1).
    let r = slide(
        &["solve", "--goal", "1 2 3/4 5 0", "1 2/3 0"],
        Vec::new(),
        cache.path(),
    );
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(r.err.contains("shape mismatch"), "{}", r.err);
}

// ---------------------------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------------------------

/// POSTs a body to /api/solve on a new connection; returns (status, body).
///
/// The body is written from another thread: the server may answer (413) before reading it all, or, for a body over
/// 64 MiB, never read it. The answer is read up to its Content-Length, not to the end of the connection.
fn post(addr: &str, body: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(LIMIT)).unwrap();
    s.set_write_timeout(Some(LIMIT)).unwrap();
    let head = format!(
        "POST /api/solve HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    let mut w = s.try_clone().unwrap();
    let body = body.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = w.write_all(&body);
    });
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut status_line = String::new();
    r.read_line(&mut status_line).unwrap();
    let status: u16 = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {status_line:?}"));
    let mut length = None;
    loop {
        let mut h = String::new();
        r.read_line(&mut h).unwrap();
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse::<usize>().ok();
            }
        }
    }
    let mut text = Vec::new();
    match length {
        Some(n) => {
            text.resize(n, 0);
            r.read_exact(&mut text).unwrap();
        }
        None => {
            // Delimited by the end of the connection, which the server may keep open (a 413 for a body over
            // 64 MiB): read until the body is a whole JSON value.
            let mut buf = [0u8; 4096];
            while serde_json::from_slice::<serde_json::Value>(&text).is_err() {
                match r.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(k) => text.extend_from_slice(&buf[..k]),
                }
            }
        }
    }
    let _ = s.shutdown(std::net::Shutdown::Both);
    writer.join().unwrap();
    (status, String::from_utf8_lossy(&text).into_owned())
}

fn error_of(body: &str) -> String {
    let v: serde_json::Value =
        serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON: {body:?}: {e}"));
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {body}"))
        .to_string()
}

#[test]
fn the_catalogue_over_http() {
    let server = Serve::with_args(&["--timeout", "2"]);
    let addr = server.addr.clone();
    let ok = |tag: &str| {
        let (st, body) = post(&addr, br#"{"board": "4 1 2/5 0 3"}"#);
        assert_eq!(st, 200, "after {tag}: {body}");
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["moves"], 5, "after {tag}: {body}");
    };
    ok("start");
    let mut tried = 0;
    for b in catalogue::boards() {
        let Some(words) = &b.http else { continue };
        // A board given as a value with a sentence of its own is checked whole below.
        if b.value_error.is_some() {
            continue;
        }
        // As a JSON value where the catalogue has one, else as a JSON string (escaped; invalid UTF-8 cannot be in a
        // JSON string: then the raw bytes go as the body).
        let body: Vec<u8> = match (&b.value, b.utf8()) {
            (Some(v), _) => serde_json::json!({ "board": v }).to_string().into_bytes(),
            (None, Some(s)) => {
                let mut o = serde_json::json!({ "board": s });
                if let Some(sh) = &b.shape {
                    o["shape"] = sh.as_str().into();
                }
                o.to_string().into_bytes()
            }
            (None, None) => {
                let mut body = b"{\"board\": \"".to_vec();
                body.extend_from_slice(&b.text);
                body.extend_from_slice(b"\"}");
                body
            }
        };
        let (st, resp) = post(&addr, &body);
        let want_status = if body.len() > 64 << 10 { 413 } else { 400 };
        assert_eq!(st, want_status, "{}: {}", b.name, shorten(&resp));
        let e = error_of(&resp);
        assert!(
            catalogue::holds(&e, words),
            "{}: {e} lacks {words:?}",
            b.name
        );
        tried += 1;
    }
    ok("the catalogue");
    // Bodies that are not a request at all.
    for b in catalogue::bodies() {
        let (st, resp) = post(&addr, &b.body);
        assert_eq!(st, b.status, "{}: {}", b.name, shorten(&resp));
        let e = error_of(&resp);
        assert!(!e.is_empty());
        assert!(
            catalogue::holds(&e, &b.error),
            "{}: {e} lacks {:?}",
            b.name,
            b.error
        );
        tried += 1;
    }
    ok("the raw bodies");
    assert!(tried >= 70, "{tried}");
}

// ---------------------------------------------------------------------------------------------------------------
// One sentence through every face
// ---------------------------------------------------------------------------------------------------------------

/// The library's sentence in a face's message: without the face's place before it and its flag or field after it.
fn sentence<'a>(message: &'a str, place: &str) -> &'a str {
    let m = message.strip_prefix(place).unwrap_or(message);
    m.strip_suffix(" (--shape RxC)")
        .or_else(|| m.strip_suffix(" (\"shape\")"))
        .unwrap_or(m)
}

#[test]
fn the_command_line_and_the_server_say_the_same() {
    // Every malformed board that both faces take as the same text (an argument; a JSON string with its "shape"),
    // and that no face has words of its own for, gets the library's sentence whole through both.
    let cache = tempfile::tempdir().unwrap();
    let server = Serve::with_args(&["--timeout", "2"]);
    let mut compared = 0;
    for (shape, bads) in
        by_shape(|b| !b.differs && !b.face_words && as_arg(b).is_some() && b.text.len() < 60 << 10)
    {
        let mut args = shape_args(&shape);
        args.extend(bads.iter().map(|b| as_arg(b).unwrap()));
        let r = slide(&args, Vec::new(), cache.path());
        let lines: Vec<&str> = r.err.lines().collect();
        assert_eq!(lines.len(), bads.len(), "{shape:?}: {}", shorten(&r.err));
        for (i, (b, line)) in bads.iter().zip(&lines).enumerate() {
            let cli = sentence(line, &format!("slide: argument {}: ", i + 1));
            let mut o = serde_json::json!({ "board": as_arg(b).unwrap() });
            if let Some(sh) = &shape {
                o["shape"] = sh.as_str().into();
            }
            let (st, resp) = post(&server.addr, o.to_string().as_bytes());
            assert_eq!(st, 400, "{}: {}", b.name, shorten(&resp));
            let e = error_of(&resp);
            assert_eq!(cli, sentence(&e, "board: "), "{}", b.name);
            compared += 1;
        }
    }
    assert!(compared >= 45, "{compared}");
}

#[test]
fn each_bad_board_value_gets_its_sentence_over_http() {
    // A board given as a JSON value is read by the library's one builder from cells (Board::from_cells), which
    // Python calls too: its sentence is the catalogue's `value_error`, exactly.
    let server = Serve::with_args(&["--timeout", "2"]);
    let mut tried = 0;
    for b in catalogue::boards() {
        let (Some(v), Some(want)) = (&b.value, &b.value_error) else {
            continue;
        };
        let (st, resp) = post(
            &server.addr,
            serde_json::json!({ "board": v }).to_string().as_bytes(),
        );
        assert_eq!(st, 400, "{}: {}", b.name, shorten(&resp));
        let e = error_of(&resp);
        assert_eq!(sentence(&e, "board: "), want, "{}", b.name);
        tried += 1;
    }
    assert!(tried >= 8, "{tried}");
}

#[test]
fn each_bad_option_gets_the_librarys_sentence() {
    // The command line (clap names the flag) and the server (the field) put their name before the library's
    // sentence; Python's test does the same with its keyword (crates/slide-py/tests/test_bad_input.py).
    let cache = tempfile::tempdir().unwrap();
    let server = Serve::with_args(&["--timeout", "2"]);
    let mut tried = 0;
    for o in catalogue::options().into_iter().chain(catalogue::choices()) {
        if let Some(flag) = &o.cli {
            let arg = format!("{flag}={}", o.text);
            let r = slide(&["solve", &arg, "1 0/2 3"], Vec::new(), cache.path());
            assert_eq!(r.code, 2, "{}: {}", o.name, shorten(&r.err));
            assert!(
                r.err.contains(&format!("for '{flag} <"))
                    && r.err.contains(&format!(": {}\n", o.error)),
                "{}: {}",
                o.name,
                shorten(&r.err)
            );
            tried += 1;
        }
        if let (Some(field), Some(v)) = (&o.http, &o.json) {
            let mut body = serde_json::json!({ "board": "4 1 2/5 0 3" });
            body[field.trim_matches('"')] = v.clone();
            let (st, resp) = post(&server.addr, body.to_string().as_bytes());
            assert_eq!(st, 400, "{}: {}", o.name, shorten(&resp));
            assert_eq!(
                error_of(&resp),
                format!("{field}: {}", o.error),
                "{}",
                o.name
            );
            tried += 1;
        }
    }
    assert!(tried >= 20, "{tried}");
}
