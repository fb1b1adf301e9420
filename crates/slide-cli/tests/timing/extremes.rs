//! Every numeric flag of every command driven with extreme values (0, 1, -1, the type's maximum and one past it,
//! huge and tiny floats, NaN, infinities, and each documented cap and one past it), each run under a hard time
//! bound: the answer is a usage error naming the flag (exit status 2) exactly when the value lies outside the range
//! that docs/limits.md gives (written again here, as the reference), and otherwise a bounded run (exit status 0 or
//! 1); never a panic, a signal or a run without end.

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use proptest::strategy::Strategy;

/// Hard bound of one run; the runs are designed to take well under a second.
const LIMIT: Duration = Duration::from_secs(20);
/// Standard output read before the pipe is closed (an endless stream then ends on a broken pipe).
const OUT_CAP: usize = 1 << 16;

/// The values every numeric flag is tried with.
const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "-0",
    "18446744073709551615",
    "18446744073709551616",
    "4294967296",
    "1e30",
    "1e308",
    "NaN",
    "inf",
    "-inf",
    "1e-300",
    "0.5",
    "",
];

/// The documented range of a flag (docs/limits.md), as the reference.
#[derive(Clone, Copy, Debug)]
enum Range {
    /// A whole number from `min` to `max`.
    Whole(u64, u64),
    /// Seconds: more than 0, at most this.
    Seconds(f64),
    /// A number from 1 to this.
    Weight(f64),
    /// A number from the first to the second.
    Between(f64, f64),
}

impl Range {
    fn accepts(self, v: &str) -> bool {
        match self {
            Range::Whole(min, max) => v.parse::<u64>().is_ok_and(|n| (min..=max).contains(&n)),
            Range::Seconds(max) => v.parse::<f64>().is_ok_and(|t| t > 0.0 && t <= max),
            Range::Weight(max) => v.parse::<f64>().is_ok_and(|w| (1.0..=max).contains(&w)),
            Range::Between(min, max) => v.parse::<f64>().is_ok_and(|x| (min..=max).contains(&x)),
        }
    }
}

const U64: Range = Range::Whole(0, u64::MAX);

struct Run {
    /// Exit status; `None` for a signal.
    code: Option<i32>,
    /// A server that started (and was stopped here).
    served: bool,
    out: String,
    err: String,
}

/// Runs `slide` with `args` under [`LIMIT`]: standard output is read up to [`OUT_CAP`] and then closed; a server is
/// stopped as soon as it says where it listens.
fn slide(args: &[&str], cache: &std::path::Path) -> Run {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("slide"))
        .args(args)
        .env("SLIDE_CACHE_DIR", cache)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let served = Arc::new(AtomicBool::new(false));
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let flag = served.clone();
    let out = std::thread::spawn(move || {
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        while got.len() < OUT_CAP {
            match stdout.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(k) => got.extend_from_slice(&buf[..k]),
            }
            if got.starts_with(b"slide: serving on ") && got.contains(&b'\n') {
                flag.store(true, Ordering::SeqCst);
                break;
            }
        }
        got // dropping `stdout` closes the pipe
    });
    let err = std::thread::spawn(move || {
        let mut got = Vec::new();
        let _ = stderr.read_to_end(&mut got);
        got
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if served.load(Ordering::SeqCst) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("slide {args:?} did not finish within {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let out = String::from_utf8_lossy(&out.join().unwrap()).into_owned();
    let err = String::from_utf8_lossy(&err.join().unwrap()).into_owned();
    let served = served.load(Ordering::SeqCst);
    Run {
        code: if served {
            Some(0)
        } else {
            status.and_then(|s| s.code())
        },
        served,
        out,
        err,
    }
}

/// One flag of one command: the arguments around it, its range, and whether it starts a server.
struct Case {
    args: Vec<String>,
    flag: &'static str,
    range: Range,
    extra: &'static [&'static str],
}

fn case(args: &[&str], flag: &'static str, range: Range, extra: &'static [&'static str]) -> Case {
    Case {
        args: args.iter().map(|s| s.to_string()).collect(),
        flag,
        range,
        extra,
    }
}

fn cases(set: &str) -> Vec<Case> {
    // Animations are written next to the benchmark set.
    let gif = format!("{set}.gif");
    // A search (not a table) answers, so that the limits and the weight are used.
    let search = ["solve", "--search", "--heuristic", "md", "4 1 2/5 0 3"];
    let bench = ["bench", set, "--heuristic", "md"];
    vec![
        case(&search, "--max-nodes", U64, &[]),
        case(
            &search,
            "--timeout",
            Range::Seconds(1e9),
            &["1e9", "1000000001"],
        ),
        case(
            &search,
            "--within",
            Range::Weight(100.0),
            &["100", "100.001", "1.5"],
        ),
        case(&search, "--threads", Range::Whole(0, 256), &["256", "257"]),
        case(&bench, "--max-nodes", U64, &[]),
        case(&bench, "--timeout", Range::Seconds(1e9), &[]),
        case(&bench, "--within", Range::Weight(100.0), &[]),
        case(&bench, "--threads", Range::Whole(0, 256), &["257"]),
        case(&["solve", "2 1/3 0"], "--max-memory", U64, &[]),
        case(&["scramble", "2x3"], "--count", U64, &[]),
        case(&["scramble", "2x3"], "--seed", U64, &[]),
        case(
            &["scramble", "2x3"],
            "--walk",
            Range::Whole(0, 1_000_000_000),
            &["1000", "1000000001"],
        ),
        case(
            &["serve"],
            "--port",
            Range::Whole(0, 65535),
            &["65535", "65536"],
        ),
        case(
            &["serve", "--port", "0"],
            "--timeout",
            Range::Seconds(86_400.0),
            &["86400", "86400.001"],
        ),
        case(&["serve", "--port", "0"], "--max-nodes", U64, &[]),
        case(
            &["serve", "--port", "0"],
            "--max-timeout",
            Range::Between(0.0, 86_400.0),
            &["0", "86400", "86400.001"],
        ),
        case(
            &["render", "4 1 2/5 0 3"],
            "--size",
            Range::Whole(16, 4096),
            &["15", "16", "4096", "4097"],
        ),
        case(
            &["render", "4 1 2/5 0 3", "--moves", "R", "--animate"],
            "--tps",
            Range::Between(0.1, 50.0),
            &["0.1", "0.09", "50", "50.01"],
        ),
        case(
            &[
                "render",
                "4 1 2/5 0 3",
                "--moves",
                "R",
                "--size",
                "16",
                "-o",
                &gif,
            ],
            "--inbetweens",
            Range::Whole(0, 10),
            &["10", "11"],
        ),
        case(
            &["serve", "--port", "0"],
            "--threads",
            Range::Whole(1, 256),
            &["256", "257"],
        ),
    ]
}

fn check(run: &Run, what: &str) {
    assert!(
        matches!(run.code, Some(0..=2)),
        "{what}: exit status {:?} (a signal, or a panic's 101): {}",
        run.code,
        run.err
    );
    assert!(!run.err.contains("panicked"), "{what}: {}", run.err);
}

/// Runs `jobs` on two threads (the runs are mostly process start-up), then fails with every failed job's message.
fn in_parallel<T: Send>(jobs: Vec<T>, f: impl Fn(T) + Sync) {
    let jobs = std::sync::Mutex::new(jobs);
    let failures = std::sync::Mutex::new(0usize);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(job) = jobs.lock().unwrap().pop() else {
                    return;
                };
                // The panic's message is printed as it happens; count it and go on with the other jobs.
                if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(job))).is_err() {
                    *failures.lock().unwrap() += 1;
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert_eq!(
        failures, 0,
        "{failures} runs failed (their messages are above)"
    );
}

#[test]
fn every_numeric_flag_takes_its_range_and_refuses_the_rest() {
    let _serial = crate::serial();
    let dir = tempfile::tempdir().unwrap();
    // Two instances towards the blank-first goal: one and two moves, the second with the largest id.
    let set = dir.path().join("set.txt");
    std::fs::write(
        &set,
        "1 1 0 1 0 2 3 4 5 6 7 8\n4294967295 2 0 1 2 0 3 4 5 6 7 8\n",
    )
    .unwrap();
    let set = set.to_str().unwrap().to_string();
    let mut jobs = Vec::new();
    for c in cases(&set) {
        for v in VALUES.iter().chain(c.extra) {
            jobs.push((c.args.clone(), c.flag, c.range, *v));
        }
    }
    in_parallel(jobs, |(args, flag, range, value)| {
        try_value(dir.path(), &args, flag, range, value)
    });
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config { cases: 24, failure_persistence: None, ..Default::default() })]

    /// Random numbers (any float, written plainly or in exponent form, any whole number of 64 or 128 bits, with
    /// or without a sign) on a random flag: the same rule as the table above.
    #[test]
    fn random_values_on_random_flags(
        which in 0usize..1000,
        value in proptest::prop_oneof![
            proptest::num::f64::ANY.prop_map(|f| format!("{f}")),
            proptest::num::f64::ANY.prop_map(|f| format!("{f:e}")),
            proptest::num::u64::ANY.prop_map(|n| n.to_string()),
            proptest::num::i64::ANY.prop_map(|n| n.to_string()),
            proptest::num::u128::ANY.prop_map(|n| n.to_string()),
            (0u64..300).prop_map(|n| n.to_string()),
            (0.0f64..200.0).prop_map(|f| f.to_string()),
        ],
    ) {
        let dir = tempfile::tempdir().unwrap();
        let set = dir.path().join("set.txt");
        std::fs::write(&set, "1 1 0 1 0 2 3 4 5 6 7 8\n").unwrap();
        let cases = cases(set.to_str().unwrap());
        let c = &cases[which % cases.len()];
        try_value(dir.path(), &c.args, c.flag, c.range, &value);
    }
}

/// Runs the command `args` with `flag value` and checks the answer against the flag's documented range.
fn try_value(cache: &std::path::Path, args: &[String], flag: &str, range: Range, value: &str) {
    let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
    a.push(flag);
    a.push(value);
    let what = format!("slide {a:?}");
    let run = slide(&a, cache);
    check(&run, &what);
    if range.accepts(value) {
        assert!(
            run.code != Some(2) && !run.err.contains("invalid value"),
            "{what}: {value:?} lies in the range {range:?} but was refused: {}",
            run.err
        );
        if a[0] == "serve" && flag != "--port" {
            assert!(run.served, "{what}: the server did not start: {}", run.err);
        }
        if a[0] == "solve" && flag != "--max-memory" {
            // The board takes 5 moves: an answer is that, a lower bound, or within the weight.
            let answer = run.out.trim();
            let within = |n: &str| {
                let w: f64 = value.parse().unwrap();
                n.parse::<f64>().is_ok_and(|n| (5.0..=w * 5.0).contains(&n))
            };
            assert!(
                answer == "5"
                    || answer
                        .strip_prefix(">=")
                        .is_some_and(|l| l.parse::<u32>().is_ok_and(|l| l <= 5))
                    || (flag == "--within" && answer.strip_prefix('~').is_some_and(within)),
                "{what}: {answer:?}"
            );
        }
    } else {
        assert_eq!(run.code, Some(2), "{what}: {value:?} accepted: {}", run.out);
        assert!(
            run.err.contains(flag),
            "{what}: the message does not name {flag}: {}",
            run.err
        );
        assert!(run.out.is_empty(), "{what}: {}", run.out);
    }
}

#[test]
fn shapes_partitions_and_ids_are_checked() {
    let _serial = crate::serial();
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set.txt");
    std::fs::write(&set, "7 1 0 1 0 2 3 4 5 6 7 8\n").unwrap();
    let set = set.to_str().unwrap().to_string();
    let mut jobs: Vec<(Vec<String>, &'static str, Option<i32>)> = Vec::new();
    let own = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // Shapes: (value, accepted by scramble); stats takes at most 12 cells (exit 1 beyond).
    for (shape, ok) in [
        ("0x0", false),
        ("1x1", false),
        ("1x2", true),
        ("2x3", true),
        ("18446744073709551615x18446744073709551615", false),
        ("18446744073709551616x2", false),
        ("4294967296x4294967296", false),
        ("2048x2048", true),
        ("2049x2048", false),
        ("1e3x2", false),
        ("NaNx2", false),
        ("2x-3", false),
    ] {
        let usage = if ok { None } else { Some(2) };
        jobs.push((
            own(&["scramble", shape, "--format", "flat"]),
            "shape",
            usage,
        ));
        jobs.push((own(&["stats", shape]), "shape", usage));
        jobs.push((
            own(&["solve", "--shape", shape, "1 2 3 4 0 5"]),
            "--shape",
            usage,
        ));
    }
    for (pdb, ok) in [
        ("0", false),
        ("1", true),
        ("63", true),
        ("64", false),
        ("18446744073709551615-1", false),
        ("18446744073709551616", false),
        ("1,1/2", true),
        ("4294967296,1", false),
        ("-1", false),
        ("2-2-1", true),
        ("z2-2-1", true),
        ("z1,2/3,4,5+2-2-1", true),
        ("z", false),
        ("zz2-2-1", false),
    ] {
        let args = ["solve", "--search", "--pdb", pdb, "4 1 2/5 0 3"];
        jobs.push((own(&args), "--pdb", if ok { None } else { Some(2) }));
    }
    for (only, ok) in [
        ("0", false),
        ("7", true),
        ("4294967295", false),
        ("4294967296", false),
        ("0-4294967295", true),
        ("0-18446744073709551615", false),
        ("9-1", false),
        ("-1", false),
        ("NaN", false),
    ] {
        let args = ["bench", &set, "--heuristic", "md", "--only", only];
        jobs.push((own(&args), "--only", if ok { Some(0) } else { Some(2) }));
    }
    in_parallel(jobs, |(args, name, want)| {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let what = format!("slide {a:?}");
        let run = slide(&a, dir.path());
        check(&run, &what);
        match want {
            Some(2) => {
                assert_eq!(run.code, Some(2), "{what}: {}", run.out);
                let value = a[a.iter().position(|&x| x == name).map_or(1, |i| i + 1)];
                assert!(
                    run.err.contains(name) || run.err.contains(value),
                    "{what}: the message names neither {name} nor the value: {}",
                    run.err
                );
            }
            Some(code) => assert_eq!(run.code, Some(code), "{what}: {}", run.err),
            None => assert_ne!(run.code, Some(2), "{what}: {}", run.err),
        }
    });
}
