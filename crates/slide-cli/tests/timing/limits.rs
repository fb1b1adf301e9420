//! Limits are honoured: `--timeout` and `--max-nodes` stop a hard search within 10 % of the limit, the answer then
//! says it is not proven (`>=L`, or `"optimal": false` with a lower bound), and builds that would need more memory
//! than allowed (`--max-memory`, default the machine's memory) are refused up front with a clear message.
//!
//! Times are wall-clock on a machine that may be busy: each timing is tried up to three times and the best kept, and
//! process start-up is measured and allowed for.

use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;

/// A hard 15-puzzle for Manhattan-distance IDA* (far beyond a second: Korf's instance 88, 65 moves, six billion
/// nodes in Korf's count; instance 1 took 0.96 s on a quiet machine, inside the one-second limit), towards the
/// blank-first goal.
const HARD: &str = "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4";
const GOAL: &str = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";

struct Out {
    code: i32,
    out: String,
    err: String,
    wall: Duration,
}

fn slide(args: &[&str], cache: &std::path::Path) -> Out {
    let start = Instant::now();
    let o = Command::cargo_bin("slide")
        .unwrap()
        .env("SLIDE_CACHE_DIR", cache)
        .args(args)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let wall = start.elapsed();
    let out = Out {
        code: o.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
        wall,
    };
    assert!(
        !out.err.contains("panicked"),
        "slide {args:?} panicked: {}",
        out.err
    );
    out
}

fn json(o: &Out) -> Value {
    serde_json::from_str(o.out.trim()).unwrap_or_else(|e| panic!("{:?}: {e}", o.out))
}

/// Start-up and a trivial answer: the least of a few runs.
fn startup(cache: &std::path::Path) -> Duration {
    (0..3)
        .map(|_| {
            let o = slide(
                &[
                    "solve",
                    "--heuristic",
                    "md",
                    "--shape",
                    "4x4",
                    "--goal",
                    GOAL,
                    GOAL,
                ],
                cache,
            );
            assert_eq!((o.code, o.out.trim()), (0, "0"), "{}", o.err);
            o.wall
        })
        .min()
        .unwrap()
}

/// Runs `check` up to three times until it passes; the last failure is reported.
fn best_of_three(mut check: impl FnMut() -> Result<(), String>) {
    let mut last = String::new();
    for _ in 0..3 {
        match check() {
            Ok(()) => return,
            Err(e) => {
                eprintln!("attempt failed: {e}");
                last = e;
            }
        }
    }
    panic!("{last}");
}

#[test]
fn timeout_is_honoured_within_ten_percent() {
    let _serial = crate::serial();
    let cache = tempfile::tempdir().unwrap();
    let base = startup(cache.path());
    for limit in [1.0f64, 0.3] {
        let lim = limit.to_string();
        best_of_three(|| {
            let o = slide(
                &[
                    "solve",
                    "--heuristic",
                    "md",
                    "--timeout",
                    &lim,
                    "--shape",
                    "4x4",
                    "--goal",
                    GOAL,
                    "--json",
                    HARD,
                ],
                cache.path(),
            );
            assert_eq!(o.code, 0, "{}", o.err);
            let v = json(&o);
            assert_eq!(v["optimal"], false, "{v}");
            assert_eq!(v["moves"], Value::Null, "{v}");
            let lb = v["lower_bound"].as_u64().expect("a lower bound");
            assert!((40..=80).contains(&lb), "lower bound {lb}: {v}");
            let secs = v["seconds"].as_f64().unwrap();
            // The search itself: 1.0 to 1.1 times the limit.
            if secs < limit || secs > limit * 1.1 {
                return Err(format!("search took {secs} s for --timeout {limit}"));
            }
            // The whole process: the limit, plus start-up, plus 10 %.
            let wall = o.wall.as_secs_f64();
            let most = limit * 1.1 + base.as_secs_f64() + 0.05;
            if wall < limit || wall > most {
                return Err(format!(
                    "wall {wall:.3} s for --timeout {limit} (start-up {:.3} s, at most {most:.3} s)",
                    base.as_secs_f64()
                ));
            }
            Ok(())
        });
    }
    // The plain-text answer is a lower bound, never a plain number.
    let o = slide(
        &[
            "solve",
            "--heuristic",
            "md",
            "--timeout",
            "0.2",
            "--shape",
            "4x4",
            "--goal",
            GOAL,
            HARD,
        ],
        cache.path(),
    );
    assert_eq!(o.code, 0, "{}", o.err);
    assert!(o.out.starts_with(">="), "{:?}", o.out);
}

#[test]
fn timeout_bounds_each_search_of_a_batch() {
    let _serial = crate::serial();
    // Three hard boards one after the other (one thread): about three times the limit, each answer bounded.
    let cache = tempfile::tempdir().unwrap();
    let base = startup(cache.path());
    best_of_three(|| {
        let o = slide(
            &[
                "solve",
                "--heuristic",
                "md",
                "--timeout",
                "0.4",
                "--threads",
                "1",
                "--shape",
                "4x4",
                "--goal",
                GOAL,
                "--json",
                HARD,
                HARD,
                HARD,
            ],
            cache.path(),
        );
        assert_eq!(o.code, 0, "{}", o.err);
        let answers: Vec<Value> = o
            .out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(answers.len(), 3);
        for a in &answers {
            assert_eq!(a["optimal"], false, "{a}");
            let s = a["seconds"].as_f64().unwrap();
            if !(0.4..=0.44).contains(&s) {
                return Err(format!("one search took {s} s for --timeout 0.4"));
            }
        }
        let wall = o.wall.as_secs_f64();
        let most = 3.0 * 0.44 + base.as_secs_f64() + 0.05;
        if !(1.2..=most).contains(&wall) {
            return Err(format!(
                "batch wall {wall:.3} s, expected 1.2 to {most:.3} s"
            ));
        }
        Ok(())
    });
}

#[test]
fn max_nodes_is_honoured_within_ten_percent() {
    let _serial = crate::serial();
    let cache = tempfile::tempdir().unwrap();
    for limit in [100_000u64, 1_000_000, 5_000_000] {
        let lim = limit.to_string();
        let o = slide(
            &[
                "solve",
                "--heuristic",
                "md",
                "--max-nodes",
                &lim,
                "--shape",
                "4x4",
                "--goal",
                GOAL,
                "--json",
                HARD,
            ],
            cache.path(),
        );
        assert_eq!(o.code, 0, "{}", o.err);
        let v = json(&o);
        assert_eq!(v["optimal"], false, "{v}");
        assert_eq!(v["moves"], Value::Null, "{v}");
        assert!(v["lower_bound"].as_u64().is_some(), "{v}");
        let nodes = v["nodes"].as_u64().unwrap();
        assert!(
            nodes >= limit && nodes as f64 <= limit as f64 * 1.1,
            "--max-nodes {limit}: {nodes} nodes"
        );
    }
    // Other heuristics stop the same way.
    for h in ["lc", "pdb"] {
        let o = slide(
            &[
                "solve",
                "--heuristic",
                h,
                "--max-nodes",
                "200000",
                "--shape",
                "4x4",
                "--goal",
                GOAL,
                "--json",
                HARD,
            ],
            cache.path(),
        );
        assert_eq!(o.code, 0, "{}", o.err);
        let v = json(&o);
        let nodes = v["nodes"].as_u64().unwrap();
        if v["optimal"] == false {
            assert!((200_000..=220_000).contains(&nodes), "{h}: {v}");
        } else {
            assert!(nodes <= 220_000, "{h}: {v}");
        }
    }
}

#[test]
fn a_limit_that_is_not_reached_changes_nothing() {
    let _serial = crate::serial();
    let cache = tempfile::tempdir().unwrap();
    // An easy board: the optimal answer, proven, under generous limits.
    let o = slide(
        &[
            "solve",
            "--search",
            "--heuristic",
            "md",
            "--timeout",
            "30",
            "--max-nodes",
            "100000000",
            "--json",
            "4 1 2/5 0 3",
        ],
        cache.path(),
    );
    assert_eq!(o.code, 0, "{}", o.err);
    let v = json(&o);
    assert_eq!(
        (v["moves"].as_i64(), v["optimal"].as_bool()),
        (Some(5), Some(true)),
        "{v}"
    );
}

#[test]
fn builds_over_the_memory_limit_are_refused_up_front() {
    let _serial = crate::serial();
    let cache = tempfile::tempdir().unwrap();
    // The 3x4 table needs about 300 MB to build: refused under 100 MB, at once, and nothing is written.
    let o = slide(
        &["--max-memory", "100", "solve", "1 2 3 4/5 6 7 8/9 10 0 11"],
        cache.path(),
    );
    assert_eq!(o.code, 1, "{}", o.err);
    assert!(
        o.err.contains("memory") && o.err.contains("100 MB") && o.err.contains("3x4"),
        "{}",
        o.err
    );
    assert!(
        o.wall < Duration::from_secs(5),
        "refused after {:?}",
        o.wall
    );
    assert_eq!(std::fs::read_dir(cache.path()).map_or(0, |d| d.count()), 0);
    // JSON names it too, and good small boards in the same batch are answered.
    let o = slide(
        &[
            "--max-memory",
            "100",
            "solve",
            "--json",
            "4 1 2/5 0 3",
            "1 2 3 4/5 6 7 8/9 10 0 11",
        ],
        cache.path(),
    );
    assert_eq!(o.code, 1, "{}", o.err);
    let lines: Vec<Value> = o
        .out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["moves"], 5);
    assert!(
        lines[1]["error"].as_str().unwrap().contains("memory"),
        "{}",
        lines[1]
    );
    // A pattern database far beyond any machine (10-tile patterns of 5x5), with the default limit (the
    // machine's memory): refused at once rather than an allocation failure.
    let b = "16 9 0 3 8/24 12 19 5 2/7 18 15 10 22/4 11 21 13 1/17 20 23 14 6";
    let o = slide(&["solve", "--pdb", "10-10-4", b], cache.path());
    assert_eq!(o.code, 1, "{}", o.err);
    assert!(
        o.err.contains("needs") && o.err.contains("memory"),
        "{}",
        o.err
    );
    assert!(
        o.wall < Duration::from_secs(5),
        "refused after {:?}",
        o.wall
    );
}
