//! A catalogue of malformed boards, each sent to `slide solve` as an argument and as a line of standard input
//! between good lines, and (when the server is there) to `POST /api/solve`.
//!
//! Every malformed input must give a clear error — standard error names the problem, after `argument K:` or
//! `line K:` — and exit status 1; never a panic (exit status 101, "panicked"), never a hang (each run has a time
//! limit). Good lines in the same batch are still answered, in order. A good board with CRLF line ends, tabs, or
//! other white space is not malformed: those cases must work. Over HTTP, a malformed board gets 400 (413 when the
//! body is over 64 KiB) with a JSON `{"error": ...}`, and the server keeps answering.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command as StdCommand, Stdio};
use std::time::Duration;

use assert_cmd::Command;

/// Time limit of one run: generous for a loaded machine (a first 4 × 4 solve builds its pattern databases: 4 s
/// alone, far more beside parallel builds), far below "hung".
const LIMIT: Duration = Duration::from_secs(90);

/// A malformed input: its name, bytes, the `--shape` to run it with, and a word the error must contain.
struct Bad {
    name: String,
    text: Vec<u8>,
    shape: Option<&'static str>,
    want: &'static str,
}

fn bad(name: &str, text: impl Into<Vec<u8>>, want: &'static str) -> Bad {
    Bad {
        name: name.to_string(),
        text: text.into(),
        shape: None,
        want,
    }
}

fn bad_shaped(name: &str, shape: &'static str, text: &str, want: &'static str) -> Bad {
    Bad {
        name: name.to_string(),
        text: text.into(),
        shape: Some(shape),
        want,
    }
}

impl Bad {
    /// Can this be a command-line argument? (No NUL, valid UTF-8, and under the kernel's 128 KiB per argument.)
    fn as_arg(&self) -> Option<&str> {
        let s = std::str::from_utf8(&self.text).ok()?;
        (!s.contains('\0') && s.len() < 100_000).then_some(s)
    }

    /// Can this be one line of standard input? (A line cannot hold a line feed.)
    fn as_line(&self) -> bool {
        !self.text.contains(&b'\n')
    }
}

/// A board with `n` numbers in one row: `[[0,1,2,…]]`.
fn one_row(n: usize) -> Vec<u8> {
    let mut s = Vec::with_capacity(n * 8 + 4);
    s.extend_from_slice(b"[[");
    for i in 0..n {
        if i > 0 {
            s.push(b',');
        }
        s.extend_from_slice(i.to_string().as_bytes());
    }
    s.extend_from_slice(b"]]");
    s
}

fn catalogue() -> Vec<Bad> {
    let mut v = vec![
        // Nothing there
        bad("empty", "", "empty"),
        bad("spaces only", "     ", "empty"),
        bad("tabs only", "\t\t", "empty"),
        bad("empty brackets", "[]", "empty"),
        bad("empty rows", "[[],[]]", "empty"),
        bad("slash only", "/", "empty"),
        bad("slashes only", "//", "empty"),
        // Rows
        bad("ragged rows (json)", "[[1,2,3],[4,0]]", "ragged"),
        bad("ragged rows (slash)", "1 2 3/4 0", "ragged"),
        bad("ragged: longer last row", "[[1,2],[3,0,4]]", "ragged"),
        bad("trailing slash", "1 2 3/4 0 5/", "ragged"),
        bad("leading slash", "/1 2 3/4 0 5", "ragged"),
        bad("single cell", "[[0]]", "two cells"),
        // Numbers
        bad(
            "huge number",
            "[[1,2,3],[4,0,99999999999999999999999999]]",
            "too large",
        ),
        bad(
            "i64 max",
            "[[1,2,3],[4,0,9223372036854775807]]",
            "out of range",
        ),
        bad(
            "i64 max + 1",
            "[[1,2,3],[4,0,9223372036854775808]]",
            "too large",
        ),
        bad(
            "i64 min",
            "[[1,2,3],[4,0,-9223372036854775808]]",
            "too large",
        ),
        bad("negative", "[[1,2,3],[4,0,-5]]", "out of range"),
        bad(
            "negative zero is a second blank",
            "[[1,2,3],[4,-0,0]]",
            "duplicate value 0",
        ),
        // JSON rows are JSON: no '+' sign, no leading zeros (the slash format still reads them).
        bad(
            "plus sign in JSON rows",
            "[[1,2,3],[4,0,+5]]",
            "not a JSON number: \"+5\" at column 15",
        ),
        bad(
            "leading zero in JSON rows",
            "[[1,2,3],[4,0,05]]",
            "not a JSON number: \"05\" at column 15",
        ),
        bad(
            "plus sign in a bracketed flat list",
            "[1,2,3,+4,0,5,6,7,8]",
            "no '+' sign",
        ),
        bad("float", "[[1,2,3],[4,0,5.0]]", "not a number"),
        bad("float with exponent", "[[1,2,3],[4,0,5e0]]", "not a number"),
        bad("NaN", "[[1,2,3],[4,0,NaN]]", "not a number"),
        bad("infinity", "1 2 3/4 0 inf", "not a number"),
        bad("hexadecimal", "1 2 3/4 0 0x5", "not a number"),
        bad("sign alone", "1 2 3/4 0 -", "not a number"),
        bad("two signs", "1 2 3/4 0 +-5", "not a number"),
        bad("letters", "a b c/d 0 e", "not a number"),
        bad("arabic-indic digit", "\u{661} 2 3/4 0 5", "not a number"),
        bad("fullwidth digit", "1 2 3/4 0 \u{ff15}", "not a number"),
        bad("superscript digit", "1 2 3/4 0 \u{b2}", "not a number"),
        bad("unicode minus", "1 2 3/4 0 \u{2212}5", "not a number"),
        // Tiles
        bad("duplicate tile", "[[1,2,3],[4,4,0]]", "duplicate value 4"),
        bad("no blank", "[[1,2,3],[4,5,6]]", "no blank"),
        bad("tile out of range", "[[1,2,3],[4,0,6]]", "out of range"),
        bad("two blanks", "0 0/1 2", "duplicate value 0"),
        // Odd characters
        bad(
            "byte-order mark inside",
            "[[1,2,3],[4,0,\u{feff}5]]",
            "not a number",
        ),
        bad("NUL byte", "1 2 3/4 \0 5", "not a number"),
        bad("NUL after the board", "[[1,2,3],[4,0,5]]\0", "syntax"),
        bad("no-break space", "1\u{a0}2 3/4 0 5", "not a number"),
        bad("vertical tab", "1\x0b2 3/4 0 5", "not a number"),
        bad("form feed", "1 2 3/4 0 5\x0c", "not a number"),
        bad("invalid UTF-8", b"1 2 3/4 \xff 5".to_vec(), "UTF-8"),
        bad("overlong UTF-8", b"1 2 3/4 0 \xc0\xb5".to_vec(), "UTF-8"),
        bad("truncated UTF-8", b"1 2 3/4 0 5\xe2\x88".to_vec(), "UTF-8"),
        // Punctuation
        bad(
            "trailing comma in a row",
            "[[1,2,3,],[4,0,5]]",
            "not a number",
        ),
        bad(
            "trailing comma after the rows",
            "[[1,2,3],[4,0,5],]",
            "syntax",
        ),
        bad("trailing comma (slash)", "1,2,3,/4,0,5", "after ','"),
        bad("double comma", "1,,2,3/4,0,5", "after ','"),
        bad("semicolons", "1;2;3/4;0;5", "not a number"),
        bad("parentheses", "((1,2,3),(4,0,5))", "not a number"),
        bad("comment", "# 1 2 3/4 0 5", "not a number"),
        bad("quoted board", "\"1 2 3/4 0 5\"", "not a number"),
        bad(
            "JSON object",
            "{\"board\": [[1,2,3],[4,0,5]]}",
            "not a number",
        ),
        // Brackets
        bad("missing closing bracket", "[[1,2,3],[4,0,5]", "syntax"),
        bad("missing opening bracket", "[1,2,3],[4,0,5]]", "syntax"),
        bad("missing inner brackets", "[[1,2,3],4,0,5]", "syntax"),
        bad("three levels", "[[[1,2,3],[4,0,5]]]", "two levels"),
        bad(
            "text after the board",
            "[[1,2,3],[4,0,5]] x",
            "unexpected text",
        ),
        bad(
            "two boards on a line",
            "[[1,2,3],[4,0,5]] [[1,2,3],[4,0,5]]",
            "unexpected text",
        ),
        // Flat lists and shapes
        bad(
            "flat list of unknown shape",
            "1 2 3 4 0 5",
            "cannot tell the shape",
        ),
        bad("one number", "0", "cannot tell the shape"),
        bad_shaped("--shape against rows", "3x2", "1 2 3/4 0 5", "shape"),
        bad_shaped(
            "--shape: too few numbers",
            "2x3",
            "1 2 3 4 0",
            "wrong count",
        ),
        bad_shaped(
            "--shape: too many numbers",
            "2x3",
            "1 2 3 4 0 5 6",
            "wrong count",
        ),
        bad_shaped(
            "--shape 4x4 with 9 numbers",
            "4x4",
            "1 2 3 4 5 6 7 8 0",
            "wrong count",
        ),
        bad_shaped(
            "--shape with rows of another size",
            "2x2",
            "[[1,2,3],[4,0,5]]",
            "wrong count",
        ),
    ];
    // Deep nesting and long lines.
    v.push(bad("100000 '['", "[".repeat(100_000), "two levels"));
    v.push(bad(
        "100000 '[' then closed",
        format!("{}0{}", "[".repeat(100_000), "]".repeat(100_000)),
        "two levels",
    ));
    v.push(bad("10 MB number", "7".repeat(10 << 20), "too large"));
    v.push(bad(
        "10 MB line of numbers",
        "1 ".repeat(5 << 20),
        "cannot tell the shape",
    ));
    v.push(bad(
        "2048x2048+1 cells in one row",
        one_row(2048 * 2048 + 1),
        "too large",
    ));
    v.push(bad(
        "line over 64 MiB",
        " ".repeat((64 << 20) + 10),
        "longer than",
    ));
    v
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

fn shape_args(b: &Bad) -> Vec<&'static str> {
    match b.shape {
        Some(s) => vec!["solve", "--shape", s],
        None => vec!["solve"],
    }
}

/// Good lines for a batch run with the bad input's `--shape`, and their answers.
fn good_lines(b: &Bad) -> [(&'static str, &'static str); 2] {
    match b.shape {
        Some("3x2") => [("[[1,2],[3,4],[5,0]]", "0"), ("1 2/3 4/0 5", "1")],
        Some("4x4") => [
            ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", "1"),
            ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", "0"),
        ],
        Some("2x2") => [("1 2 0 3", "1"), ("[[1,2],[3,0]]", "0")],
        _ => [("[[1,2,3],[4,0,5]]", "1"), ("4 1 2/5 0 3", "5")],
    }
}

#[test]
fn catalogue_is_large_and_distinct() {
    let c = catalogue();
    assert!(c.len() >= 50, "only {} inputs", c.len());
    let mut seen = std::collections::HashSet::new();
    for b in &c {
        assert!(seen.insert((b.text.clone(), b.shape)), "{} twice", b.name);
    }
}

#[test]
fn each_bad_argument_is_an_error() {
    let cache = tempfile::tempdir().unwrap();
    let mut tried = 0;
    for b in catalogue() {
        let Some(arg) = b.as_arg() else { continue };
        let mut args = shape_args(&b);
        args.push(arg);
        let r = slide(&args, Vec::new(), cache.path());
        assert_eq!(
            r.code,
            1,
            "{}: exit status; stderr {}",
            b.name,
            shorten(&r.err)
        );
        assert!(
            r.err.starts_with("slide: argument 1: ") && r.err.contains(b.want),
            "{}: stderr should name the problem ({:?}): {}",
            b.name,
            b.want,
            shorten(&r.err)
        );
        assert_eq!(r.err.lines().count(), 1, "{}: {}", b.name, shorten(&r.err));
        assert!(r.out.is_empty(), "{}: stdout {:?}", b.name, shorten(&r.out));
        tried += 1;
    }
    assert!(tried >= 45, "{tried}");
}

#[test]
fn each_bad_line_is_an_error_and_good_lines_are_answered() {
    let cache = tempfile::tempdir().unwrap();
    for b in catalogue() {
        if !b.as_line() {
            continue;
        }
        let [(g1, a1), (g2, a2)] = good_lines(&b);
        let mut input = Vec::new();
        input.extend_from_slice(g1.as_bytes());
        input.push(b'\n');
        input.extend_from_slice(&b.text);
        input.push(b'\n');
        input.extend_from_slice(g2.as_bytes());
        input.push(b'\n');
        let r = slide(&shape_args(&b), input, cache.path());
        assert_eq!(
            r.code,
            1,
            "{}: exit status; stderr {}",
            b.name,
            shorten(&r.err)
        );
        assert_eq!(r.out, format!("{a1}\n{a2}\n"), "{}: good lines", b.name);
        assert!(
            r.err.starts_with("slide: line 2: ") && r.err.contains(b.want),
            "{}: stderr should name the problem ({:?}): {}",
            b.name,
            b.want,
            shorten(&r.err)
        );
        assert_eq!(r.err.lines().count(), 1, "{}: {}", b.name, shorten(&r.err));
    }
}

#[test]
fn a_whole_batch_of_bad_lines_in_json() {
    // Every line-sized bad input without --shape, between good lines, in one run with --json.
    let cache = tempfile::tempdir().unwrap();
    let bads: Vec<Bad> = catalogue()
        .into_iter()
        .filter(|b| b.shape.is_none() && b.as_line() && b.text.len() < 1 << 20)
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
            e["error"].as_str().unwrap().contains(b.want),
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
// The server (when `slide serve` exists)
// ---------------------------------------------------------------------------------------------------------------

struct Serve {
    child: Child,
    addr: String,
    _cache: tempfile::TempDir,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `slide serve --port 0`.
fn serve() -> Serve {
    let cache = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("slide");
    let mut child = StdCommand::new(bin)
        .args(["serve", "--port", "0", "--timeout", "2"])
        .env("SLIDE_CACHE_DIR", cache.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let mut s = Serve {
        child,
        addr: String::new(),
        _cache: cache,
    };
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL on the first line: {line:?}"));
    s.addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    s
}

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
    let server = serve();
    let addr = server.addr.clone();
    let ok = |tag: &str| {
        let (st, body) = post(&addr, br#"{"board": "4 1 2/5 0 3"}"#);
        assert_eq!(st, 200, "after {tag}: {body}");
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["moves"], 5, "after {tag}: {body}");
    };
    ok("start");
    let mut tried = 0;
    for b in catalogue() {
        // As a JSON string (escaped; invalid UTF-8 cannot be in a JSON string: then the raw bytes go as the body).
        let body: Vec<u8> = match std::str::from_utf8(&b.text) {
            Ok(s) => {
                let mut o = serde_json::json!({ "board": s });
                if let Some(sh) = b.shape {
                    o["shape"] = sh.into();
                }
                o.to_string().into_bytes()
            }
            Err(_) => {
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
        if st == 400 && std::str::from_utf8(&b.text).is_ok() {
            assert!(
                e.contains(b.want) || (b.shape.is_some() && e.contains("shape")),
                "{}: {e}",
                b.name
            );
        }
        tried += 1;
    }
    ok("the catalogue");
    // Bodies that are not a request at all.
    let raw: Vec<(&str, Vec<u8>, u16)> = vec![
        ("empty body", Vec::new(), 400),
        ("white space", b" \r\n\t ".to_vec(), 400),
        ("not JSON", b"[[1,2,3],[4,0,5]".to_vec(), 400),
        ("a bare board", b"[[1,2,3],[4,0,5]]".to_vec(), 400),
        (
            "BOM before JSON",
            b"\xef\xbb\xbf{\"board\": \"4 1 2/5 0 3\"}".to_vec(),
            400,
        ),
        ("100000 '['", vec![b'['; 100_000], 413),
        ("60000 '['", vec![b'['; 60_000], 400),
        ("deep object", b"{\"board\":".repeat(5000), 400),
        ("board is a number", b"{\"board\": 7}".to_vec(), 400),
        ("board is null", b"{\"board\": null}".to_vec(), 400),
        ("no board", b"{\"goal\": \"1 0\"}".to_vec(), 400),
        (
            "rows of floats",
            b"{\"board\": [[1,2,3],[4,0,5.5]]}".to_vec(),
            400,
        ),
        (
            "rows with NaN",
            b"{\"board\": [[1,2,3],[4,0,NaN]]}".to_vec(),
            400,
        ),
        (
            "rows with a huge number",
            b"{\"board\": [[1,2,3],[4,0,1e400]]}".to_vec(),
            400,
        ),
        (
            "rows with 2^64",
            b"{\"board\": [[1,2,3],[4,0,18446744073709551616]]}".to_vec(),
            400,
        ),
        (
            "rows with a negative",
            b"{\"board\": [[1,2,3],[4,0,-5]]}".to_vec(),
            400,
        ),
        (
            "rows with a string",
            b"{\"board\": [[1,2,3],[4,0,\"5\"]]}".to_vec(),
            400,
        ),
        ("ragged rows", b"{\"board\": [[1,2,3],[4,0]]}".to_vec(), 400),
        (
            "shape is a number",
            b"{\"board\": \"1 2 3 4 0 5\", \"shape\": 23}".to_vec(),
            400,
        ),
        (
            "moves is a string",
            b"{\"board\": \"1 2 3/4 0 5\", \"moves\": \"yes\"}".to_vec(),
            400,
        ),
        (
            "goal of another shape",
            b"{\"board\": \"1 2/3 0\", \"goal\": \"1 2 3/4 5 0\"}".to_vec(),
            400,
        ),
        (
            "NUL in the body",
            b"{\"board\": \"1 2 3/4 0 5\"}\0".to_vec(),
            400,
        ),
        (
            "invalid UTF-8 in a key",
            b"{\"bo\xffard\": \"1 2 3/4 0 5\"}".to_vec(),
            400,
        ),
        (
            "over 64 KiB",
            [
                b"{\"board\": \"".to_vec(),
                vec![b' '; 70_000],
                b"1 0/2 3\"}".to_vec(),
            ]
            .concat(),
            413,
        ),
    ];
    for (name, body, want) in raw {
        let (st, resp) = post(&addr, &body);
        assert_eq!(st, want, "{name}: {}", shorten(&resp));
        assert!(!error_of(&resp).is_empty());
        tried += 1;
    }
    ok("the raw bodies");
    assert!(tried >= 70, "{tried}");
}
