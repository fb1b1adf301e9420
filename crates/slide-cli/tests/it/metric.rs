//! `--metric stm|mtm` on `slide solve` and `slide stats`: answers checked against a plain breadth-first search with
//! multi-tile moves (`slide-reference`), every printed sequence replayed here and its pushes counted.

use assert_cmd::Command;

use crate::support::{self, Slide};
use slide_reference::{self as reference, Metric, Reference};

/// A board as `1 2 3/4 0 5`.
fn slash(cols: usize, cells: &[u8]) -> String {
    support::slash(cells, cols)
}

/// The blank's cell after each tile letter (the speedsolvers' convention: `U` = the tile below the blank moves up,
/// so the blank moves down), counting pushes (maximal runs of one letter). Returns (board, pushes).
fn play_letters(rows: usize, cols: usize, cells: &[u8], letters: &str) -> (Vec<u8>, usize) {
    let mut b = cells.to_vec();
    let mut pushes = 0;
    let mut last = None;
    let mut chars = letters.chars().peekable();
    while let Some(c) = chars.next() {
        let mut count = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            count.push(*d);
            chars.next();
        }
        let count: usize = if count.is_empty() {
            1
        } else {
            count.parse().unwrap()
        };
        if last != Some(c) {
            pushes += 1;
        }
        last = Some(c);
        for _ in 0..count {
            let blank = b.iter().position(|&t| t == 0).unwrap();
            let (r, q) = (blank / cols, blank % cols);
            let to = match c {
                'U' if r + 1 < rows => blank + cols,
                'D' if r > 0 => blank - cols,
                'L' if q + 1 < cols => blank + 1,
                'R' if q > 0 => blank - 1,
                _ => panic!("illegal move {c} on {b:?}"),
            };
            b.swap(blank, to);
        }
    }
    (b, pushes)
}

/// Every 97th board of 3 × 3 (both parity classes), in one batch: the numbers are the reference's MTM distances,
/// the moves (tiles, and short notation) reach the goal in exactly that many pushes, and short notation writes one
/// letter per push.
#[test]
fn solve_mtm_matches_a_plain_bfs() {
    let s = Slide::new();
    let goal = reference::goal(9);
    let r = Reference::new(3, 3, &goal, Metric::Mtm);
    let boards: Vec<Vec<u8>> = reference::permutations(9).into_iter().step_by(97).collect();
    let input: String = boards.iter().map(|b| slash(3, b) + "\n").collect();
    let want: Vec<i64> = boards
        .iter()
        .map(|b| r.distance(b).map_or(-1, |d| d as i64))
        .collect();
    let plain = s.ok(&["solve", "--metric", "mtm"], &input);
    let got: Vec<i64> = plain.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(got, want);
    let tiles = s.ok(&["solve", "--metric", "mtm", "--moves"], &input);
    let short = s.ok(&["solve", "--metric", "mtm", "--notation", "short"], &input);
    let stm = s.ok(&["solve", "--metric", "stm"], &input);
    let mut shorter = 0;
    for (i, ((t, n), m)) in tiles
        .lines()
        .zip(short.lines())
        .zip(stm.lines())
        .enumerate()
    {
        let b = &boards[i];
        let mut words = t.split_whitespace();
        let d: i64 = words.next().unwrap().parse().unwrap();
        assert_eq!(d, want[i], "{t}");
        let stm_d: i64 = m.parse().unwrap();
        assert!(d <= stm_d, "{t} vs {m}");
        shorter += (d < stm_d) as usize;
        if d <= 0 {
            continue;
        }
        let moved: Vec<u32> = words.map(|w| w.parse().unwrap()).collect();
        assert_eq!(
            reference::replay(3, b, &moved).as_deref(),
            Some(&goal[..]),
            "{t}"
        );
        let (num, letters) = n.split_once(' ').unwrap();
        assert_eq!(num.parse::<i64>().unwrap(), d, "{n}");
        let (end, pushes) = play_letters(3, 3, b, letters);
        assert_eq!((end, pushes as i64), (goal.clone(), d), "{n}");
        assert_eq!(
            letters.chars().filter(char::is_ascii_alphabetic).count() as i64,
            d,
            "{n}"
        );
    }
    assert!(shorter > 0, "MTM never shorter than STM?");
}

/// JSON carries the metric; "moves" counts pushes while "solution" lists single-tile moves.
#[test]
fn json_carries_the_metric() {
    let s = Slide::new();
    let board = "1 2 3/4 5 6/0 7 8";
    let line = |args: &[&str]| -> serde_json::Value {
        let mut a = vec!["solve", "--json", "--moves"];
        a.extend_from_slice(args);
        a.push(board);
        serde_json::from_str(s.ok(&a, "").trim()).unwrap()
    };
    let mtm = line(&["--metric", "mtm"]);
    assert_eq!(mtm["metric"], "mtm");
    assert_eq!(mtm["moves"], 1);
    assert_eq!(mtm["solution"], serde_json::json!([7, 8]));
    let stm = line(&[]);
    assert_eq!(stm["metric"], "stm");
    assert_eq!(stm["moves"], 2);
    let odd = s.ok(
        &["solve", "--json", "--metric", "mtm", "1 2 3/4 5 6/8 7 0"],
        "",
    );
    let odd: serde_json::Value = serde_json::from_str(odd.trim()).unwrap();
    assert_eq!(
        (&odd["moves"], &odd["metric"]),
        (&(-1).into(), &"mtm".into())
    );
}

/// Runs `slide stats ARGS`; returns (metric line, histogram, god's number).
fn stats(s: &Slide, args: &[&str]) -> (String, Vec<u64>, u32) {
    let mut a = vec!["stats"];
    a.extend_from_slice(args);
    let out = s.ok(&a, "");
    let metric = out
        .lines()
        .find_map(|l| l.strip_prefix("metric: "))
        .expect("a metric line")
        .to_string();
    let mut histogram = Vec::new();
    let mut in_table = false;
    let mut diameter = None;
    for line in out.lines() {
        if line.trim() == "distance states" {
            in_table = true;
        } else if let Some(v) = line.strip_prefix("god's number: ") {
            in_table = false;
            diameter = Some(v.parse().unwrap());
        } else if in_table {
            histogram.push(line.split_whitespace().nth(1).unwrap().parse().unwrap());
        }
    }
    (metric, histogram, diameter.unwrap())
}

#[test]
fn stats_in_both_metrics() {
    let s = Slide::new();
    for (rows, cols) in [(2, 3), (2, 4), (3, 3)] {
        let shape = format!("{rows}x{cols}");
        for (flag, metric) in [("stm", Metric::Stm), ("mtm", Metric::Mtm)] {
            let r = Reference::new(rows, cols, &reference::goal(rows * cols), metric);
            let (name, histogram, diameter) = stats(&s, &[&shape, "--metric", flag]);
            assert_eq!(name, flag);
            assert_eq!(histogram, r.histogram(), "{shape} {flag}");
            assert_eq!(diameter, r.diameter(), "{shape} {flag}");
        }
    }
    assert_eq!(stats(&s, &["3x3", "--metric", "mtm"]).2, 24);
    // The default is STM; a custom goal has its own MTM table.
    assert_eq!(stats(&s, &["3x3"]).0, "stm");
    let g = reference::goal_with_blank(6, 0);
    let r = Reference::new(3, 2, &g, Metric::Mtm);
    let (_, histogram, _) = stats(&s, &["3x2", "--metric", "mtm", "--goal", &slash(2, &g)]);
    assert_eq!(histogram, r.histogram());
}

#[test]
fn usage_and_coverage_errors() {
    let s = Slide::new();
    let (code, _, err) = s.run(&["solve", "--metric", "htm", "1 2/3 0"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("expected stm or mtm"), "{err}");
    for flag in [
        &["--fast"][..],
        &["--within", "1.5"],
        &["--heuristic", "md"],
    ] {
        let mut a = vec!["solve", "--metric", "mtm"];
        a.extend_from_slice(flag);
        a.push("1 2/3 0");
        let (code, _, err) = s.run(&a, "");
        assert_eq!(code, 2, "{a:?}: {err}");
        assert!(err.contains("--metric mtm"), "{err}");
    }
    // Above 12 cells, where no label table fits (4 x 5): the board's line is an error, the others are still
    // answered.
    let (code, out, err) = s.run(
        &["solve", "--metric", "mtm"],
        "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 0 19\n1 2 3/4 0 5\n",
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, "1\n");
    assert!(
        err.contains("line 1: metric: MTM search on 4x5 needs a label table larger than"),
        "{err}"
    );
    let (code, _, err) = s.run(&["stats", "4x4", "--metric", "mtm"], "");
    assert_eq!(code, 1, "{err}");
    let (code, _, _) = s.run(&["stats", "3x3", "--metric", "xtm"], "");
    assert_eq!(code, 2);
}

/// The boards within `depth` pushes of the 4 × 4 goal, with their MTM distances: a plain breadth-first search over
/// whole boards, pushing 1 to 3 tiles.
fn mtm_ball_4x4(depth: u8) -> std::collections::HashMap<Vec<u8>, u8> {
    let goal = reference::goal(16);
    let mut seen = std::collections::HashMap::from([(goal.clone(), 0u8)]);
    let mut level = vec![goal];
    for d in 1..=depth {
        let mut next = Vec::new();
        for b in &level {
            let blank = b.iter().position(|&t| t == 0).unwrap();
            let (r, c) = (blank / 4, blank % 4);
            for to in (0..4).map(|q| r * 4 + q).chain((0..4).map(|p| p * 4 + c)) {
                if to == blank {
                    continue;
                }
                let step = if to / 4 == r { 1 } else { 4 };
                let mut n = b.clone();
                let mut at = blank;
                while at != to {
                    let nx = if to > at { at + step } else { at - step };
                    n.swap(at, nx);
                    at = nx;
                }
                if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(n.clone()) {
                    e.insert(d);
                    next.push(n);
                }
            }
        }
        level = next;
    }
    seen
}

/// 4 × 4 in MTM (IDA* over pushes with the label table): boards up to 7 pushes from the goal against a plain
/// search written here, every sequence replayed with its pushes counted; random boards answered with a sequence
/// of the length printed; a node limit gives a lower bound. The table is built once into `SLIDE_CACHE_DIR` when
/// it is set (CI shares it with its other steps), else into a temporary directory.
#[test]
fn solve_4x4_mtm_against_a_plain_search() {
    let s = Slide::new();
    let dir = std::env::var_os("SLIDE_CACHE_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| s.cache.path().to_path_buf());
    let run = |args: &[&str], stdin: &str| {
        let out = Command::cargo_bin("slide")
            .unwrap()
            .env("SLIDE_CACHE_DIR", &dir)
            .arg("--quiet")
            .args(args)
            .write_stdin(stdin.to_string())
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(out.status.success(), "slide {args:?}: {err}");
        String::from_utf8(out.stdout).unwrap()
    };
    let ball = mtm_ball_4x4(7);
    let mut by_depth: Vec<Vec<&Vec<u8>>> = vec![Vec::new(); 8];
    for (b, &d) in &ball {
        by_depth[d as usize].push(b);
    }
    let mut boards = Vec::new();
    for (d, list) in by_depth.iter_mut().enumerate() {
        list.sort();
        let step = (list.len() / 6).max(1);
        boards.extend(list.iter().step_by(step).take(6).map(|b| ((*b).clone(), d)));
    }
    let input: String = boards.iter().map(|(b, _)| slash(4, b) + "\n").collect();
    let out = run(&["solve", "--metric", "mtm", "--notation", "short"], &input);
    let goal = reference::goal(16);
    for ((b, d), line) in boards.iter().zip(out.lines()) {
        let (n, moves) = line.split_once(' ').unwrap_or((line, ""));
        assert_eq!(n.parse::<usize>().unwrap(), *d, "{}: {line}", slash(4, b));
        let (end, pushes) = play_letters(4, 4, b, moves);
        assert_eq!((end, pushes), (goal.clone(), *d), "{}: {line}", slash(4, b));
    }
    // Random boards: the sequence printed reaches the goal in as many pushes as the number says.
    let random = run(&["scramble", "4x4", "--count", "3", "--seed", "11"], "");
    let out = run(
        &["solve", "--metric", "mtm", "--notation", "short"],
        &random,
    );
    for (b, line) in random.lines().zip(out.lines()) {
        let cells: Vec<u8> = b
            .split(|c: char| !c.is_ascii_digit())
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().unwrap())
            .collect();
        let (n, moves) = line.split_once(' ').unwrap();
        let (end, pushes) = play_letters(4, 4, &cells, moves);
        assert_eq!(end, goal, "{b}: {line}");
        assert_eq!(pushes, n.parse::<usize>().unwrap(), "{b}: {line}");
        assert!(pushes > 7 && pushes <= 43, "{b}: {line}"); // 4 x 4 MTM god's number: 43
    }
    let cut = run(
        &["solve", "--metric", "mtm", "--max-nodes", "1000", "--json"],
        random.lines().next().unwrap(),
    );
    assert!(
        cut.contains("\"moves\": null") && cut.contains("\"lower_bound\": "),
        "{cut}"
    );
    // Hints in MTM (IDA* above 12 cells): every push that leads one push closer in the plain search, named by the
    // farthest tile it slides; boards up to 6 pushes away, so that every neighbour's distance is known here.
    let hinted: Vec<&(Vec<u8>, usize)> = boards.iter().filter(|(_, d)| *d <= 6).collect();
    let input: String = hinted.iter().map(|(b, _)| slash(4, b) + "\n").collect();
    let out = run(&["hint", "--metric", "mtm"], &input);
    let mut multi = 0;
    for ((b, d), line) in hinted.iter().zip(out.lines()) {
        let blank = b.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (blank / 4, blank % 4);
        let mut want = Vec::new();
        for to in (0..4).map(|q| r * 4 + q).chain((0..4).map(|p| p * 4 + c)) {
            if to == blank {
                continue;
            }
            let step = if to / 4 == r { 1 } else { 4 };
            let mut n = (*b).clone();
            let mut at = blank;
            while at != to {
                let nx = if to > at { at + step } else { at - step };
                n.swap(at, nx);
                at = nx;
            }
            if ball.get(&n).is_some_and(|&x| x as usize + 1 == *d) {
                want.push(b[to] as u32);
                multi += usize::from(to.abs_diff(blank) != 1 && to.abs_diff(blank) != 4);
            }
        }
        want.sort_unstable();
        let mut expect = d.to_string();
        for t in &want {
            expect += &format!(" {t}");
        }
        assert_eq!(line, expect, "{}", slash(4, b));
    }
    assert!(multi > 0, "no hint pushed more than one tile");
    // --count and --all in MTM (a counting IDA* iteration over pushes): the number of shortest push sequences by
    // dynamic programming over the plain search's distances, and every listed sequence replayed with d pushes.
    let mut counts: std::collections::HashMap<Vec<u8>, u128> = std::collections::HashMap::new();
    let mut ordered: Vec<(&Vec<u8>, &u8)> = ball.iter().collect();
    ordered.sort_by_key(|(b, d)| (**d, (*b).clone()));
    for (b, &d) in &ordered {
        let n = if d == 0 {
            1
        } else {
            reference::neighbours(4, 4, b, Metric::Mtm)
                .iter()
                .filter(|c| ball.get(*c) == Some(&(d - 1)))
                .map(|c| counts[c])
                .sum()
        };
        counts.insert((*b).clone(), n);
    }
    // The sampled boards, and the deepest boards with several shortest solutions (2 to 50 of them).
    let mut counted: Vec<(Vec<u8>, usize)> = boards.clone();
    counted.extend(
        ordered
            .iter()
            .rev()
            .filter(|(b, _)| (2..=50).contains(&counts[*b]))
            .take(6)
            .map(|(b, &d)| ((*b).clone(), d as usize)),
    );
    let input: String = counted.iter().map(|(b, _)| slash(4, b) + "\n").collect();
    let out = run(&["solve", "--metric", "mtm", "--count"], &input);
    let mut several = 0;
    for ((b, d), line) in counted.iter().zip(out.lines()) {
        assert_eq!(line, format!("{d} {}", counts[b]), "{}", slash(4, b));
        several += usize::from(counts[b] > 1);
    }
    assert!(several >= 6, "{out}");
    let (b, d) = counted
        .iter()
        .filter(|(b, _)| (2..=20).contains(&counts[b]))
        .max_by_key(|(_, d)| *d)
        .unwrap();
    let out = run(
        &["solve", "--metric", "mtm", "--all", "--notation", "short"],
        &slash(4, b),
    );
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some(d.to_string().as_str()), "{out}");
    let listed: std::collections::HashSet<&str> = lines.collect();
    assert_eq!(listed.len() as u128, counts[b], "{out}");
    for moves in &listed {
        assert_eq!(play_letters(4, 4, b, moves), (goal.clone(), *d), "{out}");
    }
    // One hint as JSON in short notation: the push written as one letter and its count.
    let (b, _) = hinted.iter().find(|(_, d)| *d == 1).unwrap();
    let json = run(
        &["hint", "--metric", "mtm", "--json", "--notation", "short"],
        &slash(4, b),
    );
    assert!(
        json.contains("\"moves\": 1") && json.contains("\"metric\": \"mtm\""),
        "{json}"
    );
    let letters: Vec<String> = serde_json::from_str::<serde_json::Value>(&json).unwrap()
        ["notation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(letters.len(), 1, "{json}");
    let (end, pushes) = play_letters(4, 4, b, &letters[0]);
    assert_eq!((end, pushes), (goal.clone(), 1), "{json}");
}

/// `slide bench FILE --metric mtm`: every instance solved in MTM (a 3 × 3 file with the blank-first goal, as the
/// benchmark files have), its length the plain search's MTM distance and at most the published single-tile length;
/// a wrong published length (below the MTM optimum) is reported as wrong.
#[test]
fn bench_in_mtm() {
    let s = Slide::new();
    let goal = reference::goal_with_blank(9, 0);
    let stm = Reference::new(3, 3, &goal, Metric::Stm);
    let mtm = Reference::new(3, 3, &goal, Metric::Mtm);
    let boards: Vec<Vec<u8>> = reference::permutations(9)
        .into_iter()
        .filter(|b| stm.distance(b).is_some_and(|d| d >= 20))
        .step_by(997)
        .take(5)
        .collect();
    assert_eq!(boards.len(), 5);
    let line = |id: usize, known: u32, b: &[u8]| {
        let tiles: Vec<String> = b.iter().map(|t| t.to_string()).collect();
        format!("{id} {known} 0 {}\n", tiles.join(" "))
    };
    let file: String = boards
        .iter()
        .enumerate()
        .map(|(i, b)| line(i + 1, stm.distance(b).unwrap(), b))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("set.txt");
    std::fs::write(&path, &file).unwrap();
    let p = path.to_str().unwrap();
    let out = s.ok(
        &["--quiet", "bench", p, "--metric", "mtm", "--threads", "1"],
        "",
    );
    assert!(
        out.contains("instances: 5, MTM-optimal, replayed and at most the published STM length: 5, not proven: 0, wrong: 0"),
        "{out}"
    );
    for (i, b) in boards.iter().enumerate() {
        let want = [
            (i + 1).to_string(),
            mtm.distance(b).unwrap().to_string(),
            stm.distance(b).unwrap().to_string(),
            "yes".into(),
        ];
        assert!(
            out.lines().any(|l| l
                .split_whitespace()
                .take(4)
                .eq(want.iter().map(String::as_str))),
            "{want:?}: {out}"
        );
    }
    // A published length below the MTM optimum cannot be right.
    let low = mtm.distance(&boards[0]).unwrap() - 1;
    std::fs::write(&path, line(1, low, &boards[0])).unwrap();
    let (code, out, _) = s.run(&["--quiet", "bench", p, "--metric", "mtm"], "");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("wrong: 1"), "{out}");
}
