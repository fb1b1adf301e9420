//! The command line's sharp edges: closed pipes, blank lines, a closed standard output, Ctrl-C, the progress bar
//! in a terminal, and what `scramble` prints.

use std::io::Read;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::Slide;

/// Runs `args` with standard output a pipe whose reader is gone before anything is written; (status, stderr).
fn closed_pipe(slide: &Slide, args: &[&str], stdin: &str) -> (Option<i32>, String) {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("slide"));
    cmd.env("SLIDE_CACHE_DIR", slide.cache.path());
    let mut child = cmd
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        let _ = input.write_all(stdin.as_bytes());
    }
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap().code(), err)
}

#[test]
fn every_command_ends_quietly_on_a_closed_pipe() {
    let slide = Slide::new();
    let runs: &[(&[&str], &str)] = &[
        (&["stats", "2x3"], ""),
        (&["stats", "2x3", "--all"], ""),
        (&["solve", "4 1 2/5 0 3"], ""),
        (&["solve"], "4 1 2/5 0 3\n"),
        (&["hint", "4 1 2/5 0 3"], ""),
        (&["hint"], "4 1 2/5 0 3\n"),
        (&["analyse", "4 1 2/5 0 3", "R"], ""),
        (&["apply", "4 1 2/5 0 3", "R"], ""),
        (&["moves", "invert", "RRUULD"], ""),
        (&["scramble", "3x3", "-n", "1000"], ""),
        (&["render", "4 1 2/5 0 3"], ""),
    ];
    for (args, stdin) in runs {
        let (code, err) = closed_pipe(&slide, args, stdin);
        assert_eq!(code, Some(0), "slide {args:?}: {err}");
        assert_eq!(err, "", "slide {args:?}");
    }
}

#[test]
fn blank_lines_of_standard_input_are_skipped() {
    let slide = Slide::new();
    let out = slide.ok(
        &["solve"],
        "4 1 2/5 0 3\n\n   \r\n\t\n[[1,2,3],[5,4,0]]\n\n",
    );
    assert_eq!(out, "5\n-1\n");
    let out = slide.ok(&["hint"], "\n4 1 2/5 0 3\n \n");
    assert_eq!(out.lines().count(), 1, "{out}");
    // Line numbers still count the blank lines.
    let (code, _, err) = slide.run(&["solve"], "\n\n1 2\n");
    assert_eq!(code, 1);
    assert!(err.contains("line 3"), "{err}");
}

/// Runs `args` with standard output closed (`>&-`); (status, standard error).
#[cfg(target_os = "linux")]
fn stdout_closed(slide: &Slide, args: &[&str]) -> (Option<i32>, String) {
    use std::os::unix::process::CommandExt;
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("slide"));
    cmd.env("SLIDE_CACHE_DIR", slide.cache.path())
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: close is async-signal-safe, and the child closes only its own descriptor 1.
    unsafe {
        cmd.pre_exec(|| {
            libc::close(1);
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

#[cfg(target_os = "linux")]
#[test]
fn a_closed_standard_output_is_an_error() {
    let slide = Slide::new();
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("board.svg");
    let db = dir.path().join("history.sqlite3");
    let csv = dir.path().join("history.csv");
    for args in [
        &["solve", "4 1 2/5 0 3"][..],
        &["solve"],
        &["stats", "2x2"],
        &["scramble", "3x3"],
        &["apply", "4 1 2/5 0 3", "R"],
        &["moves", "invert", "R"],
        &["analyse", "4 1 2/5 0 3", "R"],
        &["hint", "4 1 2/5 0 3"],
        &["render", "4 1 2/5 0 3"],
        &["bench", "korf100", "--only", "1"],
        &["serve", "--port", "0"],
        &["history", "--db", db.to_str().unwrap()],
        &["--help"],
        &["solve", "--help"],
        &["--version"],
    ] {
        let (code, err) = stdout_closed(&slide, args);
        assert_eq!(code, Some(1), "slide {args:?}: {err}");
        assert_eq!(err, "slide: standard output is closed\n", "slide {args:?}");
    }
    // What writes nothing to standard output does not need it.
    let (code, err) = stdout_closed(
        &slide,
        &["render", "4 1 2/5 0 3", "-o", svg.to_str().unwrap()],
    );
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let export = [
        "history",
        "--db",
        db.to_str().unwrap(),
        "--export",
        csv.to_str().unwrap(),
    ];
    let (code, err) = stdout_closed(&slide, &export);
    assert_eq!(code, Some(0), "{err}");
    // A usage error is still one.
    let (code, err) = stdout_closed(&slide, &["solve", "--no-such-option"]);
    assert_eq!(code, Some(2), "{err}");
    // /dev/null is open: the answer is thrown away as asked.
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("slide"))
        .env("SLIDE_CACHE_DIR", slide.cache.path())
        .args(["solve", "4 1 2/5 0 3"])
        .stdout(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stderr, b"");
}

#[test]
fn a_write_error_is_an_error() {
    // A full device is a write error on every command.
    let slide = Slide::new();
    let bin = assert_cmd::cargo::cargo_bin("slide");
    for args in [
        "solve '4 1 2/5 0 3'",
        "stats 2x2",
        "scramble 3x3",
        "hint '4 1 2/5 0 3'",
        "render '4 1 2/5 0 3'",
    ] {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("'{}' {args} >/dev/full", bin.display()))
            .env("SLIDE_CACHE_DIR", slide.cache.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("No space left"), "{args}: {err}");
    }
}

/// Sends SIGINT to a child after `after`; returns its status, standard output and how long it took to end after
/// the signal.
fn interrupt(slide: &Slide, args: &[&str], after: Duration) -> (Option<i32>, String, Duration) {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("slide"));
    cmd.env("SLIDE_CACHE_DIR", slide.cache.path());
    let mut child = cmd
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    // SAFETY: kill only sends a signal to the child we started.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let sent = Instant::now();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = child.wait().unwrap();
    (status.code(), out, sent.elapsed())
}

#[test]
fn ctrl_c_exits_130() {
    let slide = Slide::new();
    // A long search: the first Ctrl-C stops it, its answer says so, and the status says it was interrupted.
    let hard = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1";
    let (code, out, _) = interrupt(
        &slide,
        &["solve", "--heuristic", "md", hard],
        Duration::from_millis(1500),
    );
    assert_eq!(code, Some(130), "{out}");
    assert!(out.starts_with(">="), "{out}");
    // A table build does not listen: the first Ctrl-C ends the process at once.
    let (code, _, took) = interrupt(
        &slide,
        &["--no-cache", "stats", "2x6"],
        Duration::from_millis(1500),
    );
    assert_eq!(code, Some(130));
    assert!(took < Duration::from_secs(5), "{took:?}");
}

/// Runs `slide ARGS` in a pseudo-terminal (`script`), returning what the terminal showed, escapes removed, cut at
/// carriage returns and line feeds; `None` where there is no `script`.
fn in_terminal(slide: &Slide, args: &str) -> Option<Vec<String>> {
    let bin = assert_cmd::cargo::cargo_bin("slide");
    let out = std::process::Command::new("script")
        .args(["-qc", &format!("'{}' {args}", bin.display()), "/dev/null"])
        .env("SLIDE_CACHE_DIR", slide.cache.path())
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut plain = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: ESC [ parameters, then a final letter.
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    Some(plain.split(['\r', '\n']).map(str::to_string).collect())
}

#[test]
fn in_a_terminal_the_answer_has_a_line_of_its_own() {
    let slide = Slide::new();
    let Some(lines) = in_terminal(&slide, "solve --moves '4 0 6/3 8 2/7 1 5'") else {
        return; // no `script` here
    };
    assert!(
        lines.iter().any(|l| l.starts_with("19 ")),
        "the answer is glued to something: {lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains(")19")), "{lines:?}");
}

#[test]
fn what_scramble_prints_solve_reads() {
    // Every shape, lines and non-square ones too, in json and slash; flat with the shape given to solve.
    let slide = Slide::new();
    for shape in [
        "1x2", "1x5", "5x1", "2x3", "3x2", "3x3", "1x30", "30x1", "2x7",
    ] {
        for format in ["json", "slash", "flat"] {
            let boards = slide.ok(
                &[
                    "scramble", shape, "--format", format, "-n", "3", "--seed", "5",
                ],
                "",
            );
            let solve: &[&str] = if format == "flat" {
                &["solve", "--shape", shape]
            } else {
                &["solve"]
            };
            let (code, out, err) = slide.run(solve, &boards);
            assert_eq!(code, 0, "{shape} {format}: {boards}: {err}");
            assert_eq!(out.lines().count(), 3, "{shape} {format}: {out}");
        }
    }
}

#[test]
fn scramble_walk_moves_prints_the_walk() {
    let slide = Slide::new();
    for (shape, walk) in [("4x4", "20"), ("3x3", "12"), ("5x5", "30"), ("1x6", "3")] {
        let out = slide.ok(
            &[
                "scramble",
                shape,
                "--walk",
                walk,
                "--moves",
                "--notation",
                "long",
                "-n",
                "3",
                "--seed",
                "2",
            ],
            "",
        );
        for line in out.lines() {
            let (board, moves) = line.split_once('\t').unwrap();
            assert_eq!(moves.len().to_string(), walk, "{shape}: {line}");
            // The moves take the goal to the board.
            let goal = slide.ok(&["scramble", shape, "--walk", "0"], "");
            let end = slide.ok(&["apply", goal.trim(), moves], "");
            let want = board
                .trim_matches(['[', ']'])
                .replace("],[", "/")
                .replace(',', " ");
            assert_eq!(end.trim(), want, "{shape}: {line}");
        }
        // The same boards as without --moves.
        let plain = slide.ok(
            &["scramble", shape, "--walk", walk, "-n", "3", "--seed", "2"],
            "",
        );
        let boards: Vec<&str> = out.lines().map(|l| l.split('\t').next().unwrap()).collect();
        assert_eq!(plain.lines().collect::<Vec<_>>(), boards);
    }
}

/// A random 4x5 board, whose optimal search takes a while.
const LONG_4X5: &str = "12 10 17 3 11/7 15 0 9 14/2 13 6 1 18/16 5 4 8 19";

#[test]
fn hint_analyse_and_render_solve_take_a_budget() {
    let slide = Slide::new();
    let runs: &[&[&str]] = &[
        &["--no-cache", "hint", "--max-nodes", "1000", LONG_4X5],
        &[
            "--no-cache",
            "analyse",
            "--max-nodes",
            "1000",
            LONG_4X5,
            "R",
        ],
        &[
            "--no-cache",
            "render",
            "--solve",
            "--max-nodes",
            "1000",
            LONG_4X5,
        ],
        &["--no-cache", "hint", "--timeout", "0.5", LONG_4X5],
    ];
    for args in runs {
        let start = Instant::now();
        let (code, _, err) = slide.run(args, "");
        assert_eq!(code, 1, "slide {args:?}: {err}");
        assert!(err.contains("at least"), "slide {args:?}: {err}");
        assert!(!err.contains("can take hours"), "slide {args:?}: {err}");
        assert!(start.elapsed() < Duration::from_secs(60), "slide {args:?}");
    }
}

#[test]
fn a_long_search_without_a_limit_is_announced() {
    use std::io::BufRead;
    let slide = Slide::new();
    for args in [
        &["--no-cache", "solve", LONG_4X5][..],
        &["--no-cache", "hint", LONG_4X5],
        &["--no-cache", "analyse", LONG_4X5, "R"],
        &["--no-cache", "render", "--solve", LONG_4X5],
    ] {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("slide"));
        let mut child = cmd
            .env("SLIDE_CACHE_DIR", slide.cache.path())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stderr.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let _ = child.kill();
        let _ = child.wait();
        assert!(
            line.contains("optimal search on 4x5 can take hours"),
            "slide {args:?}: {line:?}"
        );
    }
}

#[test]
fn solved_and_nearly_solved_boards_answer_at_once() {
    let slide = Slide::new();
    let board = |shape: &str, walk: &str| -> String {
        slide
            .ok(
                &[
                    "scramble", shape, "--walk", walk, "--seed", "1", "--format", "slash",
                ],
                "",
            )
            .trim()
            .to_string()
    };
    let start = Instant::now();
    // hint: 0 on the goal, the optimum nearby, with no database built.
    for shape in ["5x5", "8x8"] {
        let (code, out, err) = slide.run(&["--no-cache", "hint", &board(shape, "0")], "");
        assert_eq!((code, out.as_str()), (0, "0\n"), "{shape}: {err}");
        assert!(!err.contains("can take hours"), "{err}");
    }
    let out = slide.ok(&["--no-cache", "hint", &board("8x8", "1")], "");
    assert!(out.starts_with("1 "), "{out}");
    // Fast mode: simplified, and the optimum of a board a few moves away.
    let out = slide.ok(&["--no-cache", "solve", "--moves", &board("6x6", "0")], "");
    assert_eq!(out, "0\n");
    let out = slide.ok(
        &[
            "--no-cache",
            "solve",
            &board("6x6", "1"),
            &board("8x8", "12"),
        ],
        "",
    );
    let lengths: Vec<&str> = out.lines().collect();
    assert_eq!(lengths[0], "1");
    assert!(
        !lengths[1].starts_with('~') && lengths[1].parse::<u32>().unwrap() <= 12,
        "{out}"
    );
    assert!(start.elapsed() < Duration::from_secs(20));
    // A far board: fast mode's moves, none followed by its reverse.
    let far = slide.ok(&["scramble", "8x8", "--seed", "4", "--format", "slash"], "");
    let out = slide.ok(&["solve", "--moves", "--notation", "long", far.trim()], "");
    let (len, moves) = out.trim().split_once(' ').unwrap();
    assert_eq!(len[1..].parse::<usize>().unwrap(), moves.len());
    for pair in moves.as_bytes().windows(2) {
        assert!(!matches!(pair, b"UD" | b"DU" | b"LR" | b"RL"), "{moves}");
    }
}

/// `slide GLOBAL... ARGS...` under `prlimit --as=BYTES`, with the cache in `cache`: (status, stdout, stderr).
fn under_address_limit(
    bytes: u64,
    cache: &std::path::Path,
    global: &[&str],
    args: &[&str],
) -> (Option<i32>, String, String) {
    let out = std::process::Command::new("prlimit")
        .arg(format!("--as={bytes}"))
        .arg(assert_cmd::cargo::cargo_bin("slide"))
        .args(global)
        .args(args)
        .env("SLIDE_CACHE_DIR", cache)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// Memory the system refuses for a table build that the budget allowed (`--max-memory` above an address-space
/// limit) is an error naming what was built, the bytes and the limit (exit 1), not an abort on a failed allocation
/// (exit 134).
#[test]
fn memory_the_system_refuses_is_an_error_not_an_abort() {
    let cache = tempfile::tempdir().unwrap();
    // The 3 x 4 table's build needs a byte for each of its 239.5 million states.
    let limit = 240_000_000;
    let global = ["--max-memory", "100000"];
    for args in [
        &["stats", "3x4"][..],
        &["solve", "11 10 9 8/7 6 5 4/3 1 2 0"],
    ] {
        let (code, _, err) = under_address_limit(limit, cache.path(), &global, args);
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert!(
            err.contains("the 3x4 table needs 239 MB of memory, which the system refused")
                && err.contains("address-space limit, ulimit -v, is 240 MB"),
            "{args:?}: {err}"
        );
    }
    // Nothing half-built is left.
    let left: Vec<_> = std::fs::read_dir(cache.path())
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
}

/// What a cache directory holds besides lock files and checksum records: tables and temporaries.
fn tables_and_temporaries(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().to_string())
                .filter(|n| !n.ends_with(".lock") && !n.ends_with(".verified"))
                .collect()
        })
        .unwrap_or_default()
}

/// `--timeout` covers the pattern-database build a 5 × 5 solve waits for (minutes on a cold cache), and the wait
/// for another process's build of it: the command answers as for any timeout (`>=L`, exit 0) in about the time
/// given, and leaves no table or temporary behind.
#[test]
fn a_timeout_covers_the_build_and_the_wait_for_it() {
    let cache = tempfile::tempdir().unwrap();
    let board = "[[17,12,1,11,13],[6,20,24,3,5],[10,19,23,15,16],[0,9,7,8,22],[2,4,14,21,18]]";
    let timed = || {
        let start = Instant::now();
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("slide"))
            .args(["--max-memory", "100000", "solve", "--timeout", "3", board])
            .env("SLIDE_CACHE_DIR", cache.path())
            .output()
            .unwrap();
        let took = start.elapsed();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        );
        assert!(took < Duration::from_secs(15), "{took:?} {stdout} {stderr}");
        assert_eq!(out.status.code(), Some(0), "{stdout} {stderr}");
        assert!(stdout.starts_with(">="), "{stdout} {stderr}");
        took
    };
    // The build itself.
    timed();
    assert!(tables_and_temporaries(cache.path()).is_empty());
    // Another process building: the wait for its lock ends at the deadline too.
    let mut builder = std::process::Command::new(assert_cmd::cargo::cargo_bin("slide"))
        .args(["--max-memory", "100000", "solve", "--quiet", board])
        .env("SLIDE_CACHE_DIR", cache.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let give_up = Instant::now() + Duration::from_secs(30);
    while !std::fs::read_dir(cache.path())
        .unwrap()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().ends_with(".lock"))
    {
        assert!(Instant::now() < give_up, "no lock taken");
        std::thread::sleep(Duration::from_millis(20));
    }
    timed();
    let _ = builder.kill();
    let _ = builder.wait();
    assert!(tables_and_temporaries(cache.path()).is_empty());
}
