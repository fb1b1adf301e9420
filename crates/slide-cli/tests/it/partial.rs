//! `slide solve --goal PATTERN` end to end: partial goals and stages, their text and JSON, checked against a
//! multi-source breadth-first search over full 3 × 3 boards (`slide-reference`) with every sequence replayed; and
//! the errors of bad patterns.

use slide_reference::{self as reference, Reference};

use crate::support;

fn slide(cache: &std::path::Path, args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = support::command(cache)
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    (
        out.status.code().expect("exited"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The pattern's cells: numbers, or `None` for x.
fn cells(text: &str) -> Vec<Option<u8>> {
    text.split(['/', ' '])
        .filter(|t| !t.is_empty())
        .map(|t| (t != "x").then(|| t.parse().unwrap()))
        .collect()
}

fn matches(want: &[Option<u8>], b: &[u8]) -> bool {
    want.iter().zip(b).all(|(w, &t)| w.is_none_or(|w| w == t))
}

fn reference_for(text: &str) -> Reference {
    let want = cells(text);
    let goals: Vec<Vec<u8>> = reference::permutations(9)
        .into_iter()
        .filter(|g| matches(&want, g))
        .collect();
    Reference::from_goals(3, 3, &goals, reference::Metric::Stm)
}

fn text(b: &[u8]) -> String {
    support::slash(b, 3)
}

#[test]
fn stages_in_text_and_json() {
    let cache = tempfile::tempdir().unwrap();
    let stages = [
        "1 2 3/x x x/x x x",
        "1 2 3/4 x x/7 x x",
        "1 2 3/4 5 6/7 8 0",
    ];
    let refs: Vec<Reference> = stages.iter().map(|s| reference_for(s)).collect();
    // Solvable boards, and one that cannot reach the final stage.
    let boards: Vec<Vec<u8>> = reference::permutations(9)
        .into_iter()
        .step_by(4001)
        .collect();
    let input: String = boards.iter().map(|b| text(b) + "\n").collect();
    let mut args = vec!["solve", "--json"];
    for s in &stages {
        args.extend(["--goal", s]);
    }
    let (code, out, err) = slide(cache.path(), &args, &input);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), boards.len());
    let mut unreachable = 0;
    for (b, line) in boards.iter().zip(&lines) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let answers = v["stages"].as_array().unwrap();
        let mut at = b.clone();
        let mut total = 0;
        for (i, a) in answers.iter().enumerate() {
            assert_eq!(a["goal"], stages[i]);
            let d = refs[i].distance(&at);
            if a["moves"] == -1 {
                // Only the full goal can be out of reach (parity), and then it is the last answer.
                assert_eq!((i, d), (2, None), "{line}");
                assert_eq!(v["moves"], -1);
                unreachable += 1;
                break;
            }
            assert_eq!(a["moves"].as_u64(), d.map(u64::from), "{line}");
            assert_eq!(a["optimal"], true);
            let tiles: Vec<u32> = a["solution"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_u64().unwrap() as u32)
                .collect();
            at = reference::replay(3, &at, &tiles).expect("legal moves");
            assert!(matches(&cells(stages[i]), &at), "{line}");
            total += tiles.len() as u64;
        }
        if v["moves"] != -1 {
            assert_eq!(answers.len(), 3);
            assert_eq!(v["moves"].as_u64(), Some(total));
            assert_eq!(v["optimal"], false);
        }
    }
    assert!(unreachable > 0 && unreachable < boards.len());
    // Text: a line per stage, then the total marked ~.
    let (code, out, _) = slide(
        cache.path(),
        &[
            "solve",
            "--goal",
            stages[0],
            "--goal",
            stages[2],
            "--notation",
            "short",
            "8 6 7/2 5 4/3 0 1",
            "1 2 3/4 5 6/8 7 0",
        ],
        "",
    );
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "stage 1: 21 LDRURD2LU2RD2LU2LD2RU\nstage 2: 14 RULDLURDRULDLU\ntotal ~35\n\
         stage 1: 0\nstage 2: -1\ntotal -1\n"
    );
}

#[test]
fn one_pattern_answers_like_a_goal() {
    let cache = tempfile::tempdir().unwrap();
    let p = "1 x x/4 x x/7 x 0";
    let r = reference_for(p);
    let boards: Vec<Vec<u8>> = reference::permutations(9)
        .into_iter()
        .step_by(997)
        .collect();
    let input: String = boards.iter().map(|b| text(b) + "\n").collect();
    let (code, out, err) = slide(cache.path(), &["solve", "--goal", p], &input);
    assert_eq!(code, 0, "{err}");
    for (b, line) in boards.iter().zip(out.lines()) {
        assert_eq!(line.parse::<u32>().ok(), r.distance(b), "{b:?}");
    }
    let (code, out, _) = slide(cache.path(), &["solve", "--goal", p, "--moves"], &input);
    assert_eq!(code, 0);
    for (b, line) in boards.iter().zip(out.lines()) {
        let mut words = line.split(' ');
        let d: usize = words.next().unwrap().parse().unwrap();
        let tiles: Vec<u32> = words.map(|w| w.parse().unwrap()).collect();
        assert_eq!(tiles.len(), d);
        let end = reference::replay(3, b, &tiles).unwrap();
        assert!(matches(&cells(p), &end));
    }
    let (_, out, _) = slide(
        cache.path(),
        &["solve", "--goal", p, "--json", "8 6 7/2 5 4/3 0 1"],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["moves"], 23);
    assert_eq!(v["method"], "partial");
    assert_eq!(v["optimal"], true);
}

#[test]
fn bad_patterns_are_named() {
    // Bad --goal values are usage errors (exit status 2), as every bad --goal.
    let cache = tempfile::tempdir().unwrap();
    for (goal, shape, want) in [
        (
            "1 2 1/x x x/x x x",
            None,
            "duplicate value 1 (cells 1 and 3",
        ),
        ("1 2 3 x x x x x", Some("3x3"), "needs 6 x"),
        ("1 2 3/x x x/x x x/x x x", Some("3x3"), "needs 6 x"),
        (
            "1 2 3/x y x/x x x",
            None,
            "unknown symbol \"y\" at column 9",
        ),
        ("1 2 3/x x x/x x x?", None, "unknown symbol \"x?\""),
        ("1 2 3/4 5 6/7 8 9", None, "no 0 and no x"),
        ("1 2 3/x x x/x x 9", None, "value 9 out of range"),
        ("1 2 3/x x/x x x", None, "ragged"),
    ] {
        let mut args = vec!["solve", "--goal", goal];
        if let Some(s) = shape {
            args.extend(["--shape", s]);
        }
        args.push("1 2 3/4 5 6/7 8 0");
        let (code, out, err) = slide(cache.path(), &args, "");
        assert_eq!(code, 2, "{goal}: {err}");
        assert!(out.is_empty());
        assert!(
            err.contains("--goal") && err.contains(want),
            "{goal}: {err}"
        );
        assert!(!err.contains("panicked"));
    }
    // Flags that take one goal board.
    for flag in ["--count", "--all", "--fast", "--within=2"] {
        let (code, _, err) = slide(
            cache.path(),
            &[
                "solve",
                "--goal",
                "1 2 3/x x x/x x x",
                flag,
                "1 2 3/4 5 6/7 8 0",
            ],
            "",
        );
        assert_eq!(code, 2, "{flag}: {err}");
        let name = flag.split('=').next().unwrap();
        assert!(err.contains(name) && err.contains("partial goals"), "{err}");
    }
    // Boards of another shape are bad lines (exit status 1), the others still answered.
    let (code, out, err) = slide(
        cache.path(),
        &["solve", "--goal", "1 2 3/x x x/x x x"],
        "1 2 3/4 5 6/7 8 0\n1 0/2 3\n1 2 3/4 5 6/7 0 8\n",
    );
    assert_eq!(code, 1);
    assert_eq!(out, "0\n0\n");
    assert!(err.contains("line 2: shape mismatch"), "{err}");
    // Over the memory budget: IDA* in STM, refused in MTM with the need and the limit.
    let over = [
        "solve",
        "--max-memory",
        "100",
        "--goal",
        "1 2 3 4/5 6 7 8/x x x x/x x x x",
        "--json",
        "1 2 3 4/5 6 7 8/9 10 11 0/13 14 15 12",
    ];
    let (code, out, err) = slide(cache.path(), &over, "");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["moves"].as_u64(), v["optimal"].as_bool()),
        (Some(0), Some(true))
    );
    let (code, out, err) = slide(
        cache.path(),
        &[&over[..], &["--metric", "mtm"]].concat(),
        "",
    );
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("\"error\""), "{out}");
    assert!(
        err.contains("MTM partial goals over the memory budget are not available")
            && err.contains("100 MB are allowed"),
        "{err}"
    );
}
