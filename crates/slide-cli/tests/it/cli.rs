//! The `slide` binary, end to end. Answers are checked against a plain breadth-first search over
//! `Vec<u8>` boards (the dev-only crate `slide-reference`), not against the library. Every run gets its own empty cache directory (`SLIDE_CACHE_DIR`).

use crate::support::{self, Slide};
use predicates::prelude::*;

// ---------------------------------------------------------------------------------------------------------------
// The reference
// ---------------------------------------------------------------------------------------------------------------

type Cells = Vec<u8>;

/// Distances from `goal` to every board that reaches it (the dev-only crate `slide-reference`, a plain
/// breadth-first search written apart from the library); and the count at each distance.
struct Reference {
    cols: usize,
    goal: Cells,
    bfs: slide_reference::Reference,
    histogram: Vec<u64>,
}

impl Reference {
    fn new(rows: usize, cols: usize, goal: &[u8]) -> Reference {
        let bfs = slide_reference::Reference::new(rows, cols, goal, slide_reference::Metric::Stm);
        Reference {
            cols,
            goal: goal.to_vec(),
            histogram: bfs.histogram().to_vec(),
            bfs,
        }
    }

    fn distance(&self, b: &[u8]) -> i64 {
        self.bfs.distance(b).map_or(-1, i64::from)
    }

    /// Replays moves (tiles sliding into the blank): every move legal, ending on the goal.
    fn check_moves(&self, start: &[u8], moves: &[u32]) {
        let cols = self.cols;
        let mut b = start.to_vec();
        for &t in moves {
            assert!(
                t != 0 && (t as usize) < b.len(),
                "{start:?}: {t} is not a tile"
            );
            let blank = b.iter().position(|&x| x == 0).unwrap();
            let cell = b.iter().position(|&x| x as u32 == t).unwrap();
            assert_eq!(
                (blank / cols).abs_diff(cell / cols) + (blank % cols).abs_diff(cell % cols),
                1,
                "{start:?}: tile {t} is not next to the blank in {moves:?}"
            );
            b.swap(blank, cell);
        }
        assert_eq!(b, self.goal, "{start:?}: {moves:?} does not reach the goal");
    }
}

fn default_goal(n: usize) -> Cells {
    let mut g: Cells = (1..n as u8).collect();
    g.push(0);
    g
}

/// Every arrangement of `0..n` (the reference crate's enumeration).
fn permutations(n: usize) -> Vec<Cells> {
    slide_reference::permutations(n)
}

fn json_rows(cells: &[u8], cols: usize) -> String {
    let rows: Vec<String> = cells
        .chunks(cols)
        .map(|r| {
            format!(
                "[{}]",
                r.iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            )
        })
        .collect();
    format!("[{}]", rows.join(","))
}

/// Reads a board printed by slide (JSON rows or slash rows) back into cells, by hand.
fn read_cells(text: &str) -> Cells {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u8>().unwrap())
        .collect()
}

// ---------------------------------------------------------------------------------------------------------------
// Running the binary
// ---------------------------------------------------------------------------------------------------------------

const EXAMPLES: [(&str, i64); 4] = [
    ("[[1,2,3],[4,0,5]]", 1),
    ("[[1,2,3],[5,4,0]]", -1),
    ("[[4,1,2],[5,0,3]]", 5),
    ("[[1,2,3],[4,5,0]]", 0),
];

// ---------------------------------------------------------------------------------------------------------------
// Examples
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn examples_as_arguments() {
    let s = Slide::new();
    let mut args = vec!["solve"];
    args.extend(EXAMPLES.iter().map(|e| e.0));
    s.cmd()
        .args(&args)
        .assert()
        .success()
        .stdout("1\n-1\n5\n0\n");
    s.cmd()
        .args(["solve", "[[1,2,3],[4,0,5]]", "[[1,2],[3]]"])
        .assert()
        .code(1)
        .stdout("1\n")
        .stderr(predicate::str::contains("argument 2").and(predicate::str::contains("ragged")));
}

/// `--mixed-sums` on, off and by default: through IDA* with pattern databases whose rows and their mirror image
/// give a mixed set (3 × 3), the lengths of the reference BFS.
#[test]
fn mixed_sums_on_and_off() {
    let s = Slide::new();
    let boards = [
        "8 6 7/2 5 4/3 0 1",
        "6 4 7/8 5 0/3 2 1",
        "1 2 3/4 5 6/7 0 8",
    ];
    let r = Reference::new(3, 3, &default_goal(9));
    let want: String = boards
        .iter()
        .map(|b| format!("{}\n", r.distance(&read_cells(b))))
        .collect();
    for mixed in ["auto", "on", "off"] {
        s.cmd()
            .args([
                "solve",
                "--search",
                "--pdb",
                "1,2,3/4,5,6/7,8",
                "--mixed-sums",
                mixed,
            ])
            .args(boards)
            .assert()
            .success()
            .stdout(want.clone());
    }
}

#[test]
fn examples_on_stdin() {
    let s = Slide::new();
    let input: String = EXAMPLES.iter().map(|e| format!("{}\n", e.0)).collect();
    assert_eq!(s.ok(&["solve"], &input), "1\n-1\n5\n0\n");
    // The slash format, and the last line without its newline, and CRLF line ends.
    assert_eq!(
        s.ok(&["solve"], "1 2 3/4 0 5\r\n1,2,3/5,4,0\r\n4 1 2/5 0 3"),
        "1\n-1\n5\n"
    );
}

#[test]
fn moves_on_one_line() {
    let s = Slide::new();
    let r = Reference::new(2, 3, &default_goal(6));
    for (board, want) in EXAMPLES {
        let out = s.ok(&["solve", "--moves", board], "");
        let line = out.strip_suffix('\n').unwrap();
        assert!(!line.contains('\n'), "{out:?}");
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words[0].parse::<i64>().unwrap(), want, "{board}: {out:?}");
        let moves: Vec<u32> = words[1..].iter().map(|w| w.parse().unwrap()).collect();
        if want >= 0 {
            assert_eq!(moves.len() as i64, want, "{board}: {out:?}");
            r.check_moves(&read_cells(board), &moves);
        } else {
            assert!(moves.is_empty());
        }
    }
    assert_eq!(s.ok(&["solve", "--moves", "1 2 3/4 0 5"], ""), "1 5\n");
    assert_eq!(
        s.ok(&["solve", "--moves", "4 1 2/5 0 3"], "")
            .split(' ')
            .count(),
        6
    );
}

#[test]
fn directions() {
    let s = Slide::new();
    assert_eq!(s.ok(&["solve", "--directions", "1 2 3/4 0 5"], ""), "1 R\n");
    let out = s.ok(&["solve", "--directions", "4 1 2/5 0 3"], "");
    let (n, letters) = out.trim_end().split_once(' ').unwrap();
    assert_eq!(n, "5");
    // Replay the blank's walk by hand.
    let mut b = read_cells("4 1 2/5 0 3");
    for l in letters.chars() {
        let blank = b.iter().position(|&t| t == 0).unwrap();
        let to = match l {
            'U' => blank - 3,
            'D' => blank + 3,
            'L' => blank - 1,
            'R' => blank + 1,
            _ => panic!("{l}"),
        };
        b.swap(blank, to);
    }
    assert_eq!(b, default_goal(6));
}

#[test]
fn json_objects() {
    let s = Slide::new();
    let input: String = EXAMPLES.iter().map(|e| format!("{}\n", e.0)).collect();
    let out = s.ok(&["solve", "--json"], &input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4);
    for (line, (board, want)) in lines.iter().zip(EXAMPLES) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["moves"].as_i64(), Some(want), "{line}");
        let b: serde_json::Value = serde_json::from_str(board).unwrap();
        assert_eq!(v["board"], b, "{line}");
    }
    let r = Reference::new(2, 3, &default_goal(6));
    let out = s.ok(&["solve", "--json", "--moves"], &input);
    for (line, (board, want)) in out.lines().zip(EXAMPLES) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["moves"].as_i64(), Some(want), "{line}");
        if want < 0 {
            assert!(v["solution"].is_null(), "{line}");
        } else {
            let m: Vec<u32> = v["solution"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as u32)
                .collect();
            assert_eq!(m.len() as i64, want);
            r.check_moves(&read_cells(board), &m);
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Exhaustive runs through the binary
// ---------------------------------------------------------------------------------------------------------------

/// Feeds every arrangement of a shape on stdin (with `--moves`), checks each answer and its moves.
fn all_arrangements(rows: usize, cols: usize, goal: &[u8], extra: &[&str]) {
    let s = Slide::new();
    let r = Reference::new(rows, cols, goal);
    let boards = permutations(rows * cols);
    let input: String = boards
        .iter()
        .enumerate()
        .map(|(i, b)| {
            // One row written with slashes would read as a flat list: JSON rows for those.
            if i % 2 == 0 || rows == 1 {
                json_rows(b, cols) + "\n"
            } else {
                support::slash(b, cols) + "\n"
            }
        })
        .collect();
    let mut args = vec!["solve", "--moves"];
    args.extend_from_slice(extra);
    let out = s.ok(&args, &input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), boards.len());
    for (b, line) in boards.iter().zip(lines) {
        let mut words = line.split(' ');
        let d: i64 = words.next().unwrap().parse().unwrap();
        assert_eq!(d, r.distance(b), "{b:?}: {line}");
        let moves: Vec<u32> = words.map(|w| w.parse().unwrap()).collect();
        if d >= 0 {
            assert_eq!(moves.len() as i64, d, "{b:?}: {line}");
            r.check_moves(b, &moves);
        }
    }
    // Without --moves: just the numbers.
    let mut args = vec!["solve"];
    args.extend_from_slice(extra);
    let out = s.ok(&args, &input);
    let want: String = boards
        .iter()
        .map(|b| format!("{}\n", r.distance(b)))
        .collect();
    assert_eq!(out, want);
}

#[test]
fn all_720_arrangements_of_2x3() {
    all_arrangements(2, 3, &default_goal(6), &[]);
}

#[test]
fn all_arrangements_of_3x2() {
    all_arrangements(3, 2, &default_goal(6), &[]);
}

#[test]
fn goal_option_blank_first() {
    all_arrangements(2, 3, &[0, 1, 2, 3, 4, 5], &["--goal", "0 1 2/3 4 5"]);
    all_arrangements(
        3,
        2,
        &[0, 1, 2, 3, 4, 5],
        &["--goal", "[[0,1],[2,3],[4,5]]"],
    );
}

#[test]
fn goal_option_other_goals() {
    all_arrangements(2, 3, &[5, 3, 1, 0, 2, 4], &["--goal", "5 3 1/0 2 4"]);
    all_arrangements(2, 2, &[2, 0, 3, 1], &["--goal", "[[2,0],[3,1]]"]);
    all_arrangements(1, 4, &[3, 1, 0, 2], &["--goal", "[[3,1,0,2]]"]);
    all_arrangements(4, 1, &[0, 3, 2, 1], &["--goal", "0/3/2/1"]);
}

#[test]
fn flat_input_with_shape() {
    let s = Slide::new();
    assert_eq!(s.ok(&["solve", "--shape", "2x3", "1 2 3 4 0 5"], ""), "1\n");
    assert_eq!(
        s.ok(
            &["solve", "--shape", "2x3"],
            "1 2 3 4 0 5\n[1,2,3,5,4,0]\n4,1,2,5,0,3\n1 2 3 4 5 0\n"
        ),
        "1\n-1\n5\n0\n"
    );
    // The same six numbers as 3x2: a different board.
    let r = Reference::new(3, 2, &default_goal(6));
    let want = r.distance(&[4, 1, 2, 5, 0, 3]);
    assert_eq!(
        s.ok(&["solve", "--shape", "3x2", "4 1 2 5 0 3"], ""),
        format!("{want}\n")
    );
    // A square count needs no shape.
    assert_eq!(s.ok(&["solve", "1 2 0 3"], ""), "1\n");
    assert_eq!(s.ok(&["solve", "1 2 3 4 5 6 7 0 8"], ""), "1\n");
    // A flat goal with --shape.
    assert_eq!(
        s.ok(
            &[
                "solve",
                "--shape",
                "2x3",
                "--goal",
                "0 1 2 3 4 5",
                "1 0 2 3 4 5"
            ],
            ""
        ),
        "1\n"
    );
}

#[test]
fn lines_through_the_binary() {
    for n in 2..=6 {
        all_arrangements(1, n, &default_goal(n), &[]);
        all_arrangements(n, 1, &default_goal(n), &[]);
    }
    // A line longer than any table.
    let s = Slide::new();
    let board: String = (1..20).map(|t| format!("{t} ")).collect::<String>();
    let out = s.ok(
        &[
            "solve",
            &format!("[[0 {}]]", board.trim_end()).replace(' ', ","),
        ],
        "",
    );
    assert_eq!(out, "19\n");
}

// ---------------------------------------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------------------------------------

/// Runs `slide stats`; returns (states, histogram, god's number).
fn stats(s: &Slide, args: &[&str]) -> (u64, Vec<u64>, u32) {
    let mut a = vec!["stats"];
    a.extend_from_slice(args);
    let out = s.ok(&a, "");
    let mut states = None;
    let mut histogram = Vec::new();
    let mut diameter = None;
    let mut in_table = false;
    for line in out.lines() {
        if let Some(v) = line.strip_prefix("reachable states: ") {
            states = Some(v.trim().parse().unwrap());
        } else if line.trim() == "distance states" {
            in_table = true;
        } else if let Some(v) = line.strip_prefix("god's number: ") {
            in_table = false;
            diameter = Some(v.trim().parse().unwrap());
        } else if in_table {
            let mut w = line.split_whitespace();
            let d: usize = w.next().unwrap().parse().unwrap();
            let c: u64 = w.next().unwrap().parse().unwrap();
            assert_eq!(d, histogram.len(), "{out}");
            histogram.push(c);
        }
    }
    (
        states.expect("reachable states"),
        histogram,
        diameter.expect("god's number"),
    )
}

#[test]
fn stats_match_the_reference() {
    let s = Slide::new();
    for (rows, cols, god) in [(2, 2, 6), (2, 3, 21), (2, 4, 36), (3, 3, 31), (2, 5, 55)] {
        let r = Reference::new(rows, cols, &default_goal(rows * cols));
        let (states, histogram, diameter) = stats(&s, &[&format!("{rows}x{cols}")]);
        assert_eq!(histogram, r.histogram, "{rows}x{cols}");
        assert_eq!(states, r.bfs.states(), "{rows}x{cols}");
        assert_eq!(diameter as usize, r.histogram.len() - 1, "{rows}x{cols}");
        assert_eq!(diameter, god, "{rows}x{cols}");
    }
}

#[test]
fn stats_other_shapes_and_goals() {
    let s = Slide::new();
    let r = Reference::new(3, 2, &default_goal(6));
    assert_eq!(stats(&s, &["3x2"]).1, r.histogram);
    let r = Reference::new(2, 3, &[0, 1, 2, 3, 4, 5]);
    assert_eq!(stats(&s, &["2x3", "--goal", "0 1 2/3 4 5"]).1, r.histogram);
    let r = Reference::new(3, 3, &[1, 2, 3, 4, 0, 5, 6, 7, 8]);
    let (_, h, d) = stats(&s, &["3x3", "--goal", "1 2 3/4 0 5/6 7 8"]);
    assert_eq!((h, d), (r.histogram, 30));
    let r = Reference::new(1, 7, &default_goal(7));
    assert_eq!(stats(&s, &["1x7"]), (7, r.histogram, 6));
    // The farthest boards listed for 2x2 are really the farthest.
    let out = s.ok(&["stats", "2x2"], "");
    let r = Reference::new(2, 2, &default_goal(4));
    let far: Vec<Cells> = out
        .lines()
        .filter(|l| l.starts_with("  [["))
        .map(read_cells)
        .collect();
    assert!(!far.is_empty(), "{out}");
    for b in far {
        assert_eq!(r.distance(&b), 6, "{b:?}");
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Scrambles
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn scramble_is_reproducible_and_solvable() {
    let s = Slide::new();
    let args = ["scramble", "3x3", "--count", "5", "--seed", "1"];
    let a = s.ok(&args, "");
    let b = s.ok(&args, "");
    assert_eq!(a, b);
    assert_eq!(a.lines().count(), 5);
    let other = s.ok(&["scramble", "3x3", "--count", "5", "--seed", "2"], "");
    assert_ne!(a, other);
    // Every line is solvable by `slide solve`, and the answers are right.
    let out = s.ok(&["solve"], &a);
    let r = Reference::new(3, 3, &default_goal(9));
    let answers: Vec<i64> = out.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(answers.len(), 5);
    for (line, d) in a.lines().zip(answers) {
        assert!(d >= 0, "{line}");
        assert_eq!(d, r.distance(&read_cells(line)), "{line}");
    }
    // Other formats read back too.
    for format in ["slash", "flat"] {
        let text = s.ok(
            &[
                "scramble", "3x3", "-n", "5", "--seed", "1", "--format", format,
            ],
            "",
        );
        let same: Vec<Cells> = text.lines().map(read_cells).collect();
        let json: Vec<Cells> = a.lines().map(read_cells).collect();
        assert_eq!(same, json, "{format}");
        assert_eq!(s.ok(&["solve"], &text), out, "{format}");
    }
    // Custom goal: solvable towards it.
    let text = s.ok(
        &[
            "scramble",
            "2x3",
            "-n",
            "20",
            "--seed",
            "4",
            "--goal",
            "0 1 2/3 4 5",
        ],
        "",
    );
    let out = s.ok(&["solve", "--goal", "0 1 2/3 4 5"], &text);
    assert!(out.lines().all(|l| l.parse::<i64>().unwrap() >= 0), "{out}");
}

#[test]
fn scramble_walks_stay_within_their_length() {
    let s = Slide::new();
    let r = Reference::new(3, 3, &default_goal(9));
    for walk in [0u64, 1, 2, 3, 7, 12, 20, 31, 40, 51] {
        let text = s.ok(
            &[
                "scramble",
                "3x3",
                "--walk",
                &walk.to_string(),
                "-n",
                "25",
                "--seed",
                "7",
            ],
            "",
        );
        let out = s.ok(&["solve"], &text);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 25);
        for (board, answer) in lines.iter().zip(out.lines()) {
            let d = r.distance(&read_cells(board));
            assert_eq!(answer.parse::<i64>().unwrap(), d, "{board}");
            assert!(d >= 0 && d as u64 <= walk, "walk {walk}: {board} at {d}");
            assert_eq!(d as u64 % 2, walk % 2, "walk {walk}: {board} at {d}");
        }
    }
    // On a line too.
    let r = Reference::new(1, 6, &default_goal(6));
    let text = s.ok(
        &["scramble", "1x6", "--walk", "3", "-n", "10", "--seed", "1"],
        "",
    );
    for board in text.lines() {
        let d = r.distance(&read_cells(board));
        assert!((0..=3).contains(&d) && d % 2 == 1, "{board}");
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn each_bad_board_gives_its_error_and_status_1() {
    let s = Slide::new();
    for (board, message) in [
        ("", "empty"),
        ("[[1,2],[3]]", "ragged"),
        ("[[1,2,3],[4,4,0]]", "duplicate value 4"),
        ("[[1,2,3],[4,9,0]]", "value 9 out of range"),
        ("[[1,2,3],[4,-1,0]]", "value -1 out of range"),
        ("[[1,2],[3,4]]", "no blank"),
        ("[[1,2],[3,x]]", "not a number"),
        ("[[1,2],[3,1.5]]", "not a number"),
        ("[[1,2],[3,99999999999999999999999]]", "too large"),
        ("[[1,2],[3,0]", "syntax"),
        ("1 2 3 4 0 5", "cannot tell the shape"),
        ("[[0]]", "at least two cells"),
    ] {
        let (code, out, err) = s.run(&["solve", board], "");
        assert_eq!(code, 1, "{board:?}: {out} {err}");
        assert_eq!(out, "", "{board:?}");
        assert!(
            err.contains(message),
            "{board:?}: {err:?} lacks {message:?}"
        );
        assert!(err.contains("argument 1"), "{board:?}: {err:?}");
    }
}

#[test]
fn more_than_12_cells_is_answered() {
    // Beyond the tables IDA* answers, exactly: one move from the goal, and an unsolvable 15-puzzle.
    let s = Slide::new();
    let (code, out, err) = s.run(
        &[
            "solve",
            "--heuristic",
            "lc",
            "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15",
        ],
        "",
    );
    assert_eq!((code, out.as_str()), (0, "1\n"), "{err}");
    let (code, out, err) = s.run(
        &[
            "solve",
            "--heuristic",
            "lc",
            "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0",
        ],
        "",
    );
    assert_eq!((code, out.as_str()), (0, "-1\n"), "{err}");
}

#[test]
fn usage_errors_give_status_2() {
    let s = Slide::new();
    for args in [
        vec!["solve", "--shape", "2y3", "1 2 3 4 0 5"],
        vec!["solve", "--shape", "0x3", "1 2 3 4 0 5"],
        vec!["solve", "--shape", "1x1", "0"],
        vec!["solve", "--goal", "[[1,2],[3,3]]", "1 2/3 0"],
        vec!["solve", "--goal", "1 2 3", "1 2/3 0"],
        vec!["solve", "--goal", "", "1 2/3 0"],
        vec!["solve", "--frobnicate", "1 2/3 0"],
        vec!["frobnicate"],
        vec![],
        vec!["stats"],
        vec!["stats", "2by3"],
        vec!["stats", "2x3", "--goal", "1 2/3 0"],
        vec!["scramble", "0x0"],
        vec!["scramble", "3x3", "--count", "many"],
        vec!["scramble", "3x3", "--format", "xml"],
        vec!["scramble", "3x3", "--goal", "1 2 3"],
    ] {
        let (code, out, err) = s.run(&args, "");
        assert_eq!(code, 2, "{args:?}: stdout {out:?} stderr {err:?}");
        assert!(!err.is_empty(), "{args:?}: nothing on stderr");
    }
    // A usage error reads no input.
    let (code, out, _) = s.run(&["solve", "--shape", "2y3"], "1 2 3 4 0 5\n");
    assert_eq!((code, out.as_str()), (2, ""));
}

#[test]
fn help_and_version_succeed() {
    let s = Slide::new();
    assert!(s.ok(&["--help"], "").contains("solve"));
    assert!(s.ok(&["solve", "--help"], "").contains("--moves"));
    assert!(s.ok(&["--version"], "").starts_with("slide "));
}

#[test]
fn stats_beyond_the_tables_is_an_error() {
    let s = Slide::new();
    let (code, out, err) = s.run(&["stats", "4x4"], "");
    assert_eq!(code, 1, "{out} {err}");
    assert!(err.contains("4x4"), "{err}");
}

const BATCH: &str = "[[1,2,3],[4,0,5]]\n\
                     not a board\n\
                     [[4,1,2],[5,0,3]]\n\
                     [[1,2,3],[4,4,0]]\n\
                     1 2 3/5 4 0\n\
                     [[1,2],[3]]\n\
                     1 2 3/4 5 0\n";

#[test]
fn batch_with_bad_lines_keeps_good_answers_in_order() {
    let s = Slide::new();
    let (code, out, err) = s.run(&["solve"], BATCH);
    assert_eq!(code, 1);
    assert_eq!(out, "1\n5\n-1\n0\n");
    for (line, message) in [(2, "not a number"), (4, "duplicate"), (6, "ragged")] {
        let l = err
            .lines()
            .find(|l| l.contains(&format!("line {line}:")))
            .unwrap_or_else(|| panic!("no error for line {line}: {err}"));
        assert!(l.contains(message), "{l}");
    }
    assert_eq!(err.lines().count(), 3, "{err}");

    // --moves: the same order.
    let (code, out, _) = s.run(&["solve", "--moves"], BATCH);
    assert_eq!(code, 1);
    let firsts: Vec<&str> = out.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(firsts, ["1", "5", "-1", "0"]);
}

#[test]
fn batch_with_bad_lines_as_json() {
    let s = Slide::new();
    for extra in [None, Some("--moves")] {
        let mut args = vec!["solve", "--json"];
        args.extend(extra);
        let (code, out, _) = s.run(&args, BATCH);
        assert_eq!(code, 1);
        let v: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
            .collect();
        assert_eq!(v.len(), 7, "{out}");
        let want: [Result<i64, u64>; 7] = [Ok(1), Err(2), Ok(5), Err(4), Ok(-1), Err(6), Ok(0)];
        for (obj, want) in v.iter().zip(want) {
            match want {
                Ok(d) => {
                    assert_eq!(obj["moves"].as_i64(), Some(d), "{obj}");
                    assert!(obj.get("error").is_none(), "{obj}");
                }
                Err(line) => {
                    assert_eq!(obj["line"].as_u64(), Some(line), "{obj}");
                    assert!(
                        obj["error"].as_str().is_some_and(|e| !e.is_empty()),
                        "{obj}"
                    );
                    assert!(obj.get("moves").is_none(), "{obj}");
                }
            }
        }
    }
}

#[test]
fn arguments_with_bad_ones_keep_good_answers() {
    let s = Slide::new();
    let (code, out, err) = s.run(&["solve", "1 2 3/4 0 5", "oops", "4 1 2/5 0 3"], "");
    assert_eq!(code, 1);
    assert_eq!(out, "1\n5\n");
    assert!(err.contains("argument 2"), "{err}");
}

#[test]
fn boards_of_different_shapes_in_one_batch() {
    let s = Slide::new();
    let out = s.ok(&["solve"], "1 2/0 3\n1 2 3/4 0 5\n1 2/3 4/0 5\n[[0,1,2]]\n");
    assert_eq!(out, "1\n1\n1\n2\n");
    // With a goal, boards of another shape are errors.
    let (code, out, err) = s.run(
        &["solve", "--goal", "0 1 2/3 4 5"],
        "1 0 2/3 4 5\n1 2/0 3\n",
    );
    assert_eq!(code, 1);
    assert_eq!(out, "1\n");
    assert!(err.contains("line 2"), "{err}");
}

#[test]
fn nothing_is_cached_for_small_shapes() {
    // The CLI caches only 12-cell tables (too slow to build in tests); smaller ones stay in memory.
    let s = Slide::new();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    assert_eq!(s.ok(&["--cache-dir", d, "solve", "4 1 2/5 0 3"], ""), "5\n");
    assert_eq!(s.ok(&["solve", "--no-cache", "4 1 2/5 0 3"], ""), "5\n");
    let files = std::fs::read_dir(dir.path()).map_or(0, |r| r.count());
    assert_eq!(files, 0);
    let cached = std::fs::read_dir(s.cache.path()).map_or(0, |r| r.count());
    assert_eq!(cached, 0);
}

/// The benchmark sets are built into the binary: `slide bench korf100` works from an empty directory, and the
/// answer agrees with the published length.
#[test]
fn bench_sets_are_built_in() {
    let s = Slide::new();
    let empty = tempfile::tempdir().unwrap();
    let out = s
        .cmd()
        .current_dir(empty.path())
        .args([
            "--quiet",
            "bench",
            "korf100",
            "--only",
            "1",
            "--threads",
            "1",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains(
            "instances: 1, optimal and equal to the published length: 1, not proven: 0, wrong: 0"
        ),
        "{text}"
    );
    // The row of instance 1 whose first four columns are `want`.
    let row = |out: &str, want: [&str; 4]| {
        out.lines()
            .find(|l| l.split_whitespace().take(4).eq(want))
            .map(str::to_owned)
    };
    assert!(row(&text, ["1", "57", "57", "yes"]).is_some(), "{text}");
    // The iterations below the optimum only: the optimum proven at least 57, not solved, and fewer nodes.
    let nodes = |text: &str| -> u64 {
        let line = text.lines().find(|l| l.starts_with("nodes: ")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    let bench_1 = |extra: &[&str]| {
        let mut args = vec!["-q", "bench", "korf100", "--only", "1", "--threads", "1"];
        args.extend_from_slice(extra);
        let (code, out, err) = s.run(&args, "");
        assert_eq!(code, 0, "{err}");
        out
    };
    let below = bench_1(&["--below-optimum", "1"]);
    assert!(row(&below, ["1", ">=57", "57", "?"]).is_some(), "{below}");
    assert!(below.contains("not proven: 1, wrong: 0"), "{below}");
    assert!(nodes(&below) < nodes(&text), "{below}\n{text}");
    // Alternative partitions: the published length, the trial's nodes counted.
    // The trial's choice closes the row, under a column of its own (none without alternatives).
    let either = bench_1(&["--pdb", "6-6-3|5-5-5"]);
    let chosen = row(&either, ["1", "57", "57", "yes"])
        .and_then(|r| r.split_whitespace().last().map(str::to_owned));
    assert!(
        chosen.is_some_and(|c| c == "6-6-3" || c == "5-5-5"),
        "{either}"
    );
    assert!(
        either.lines().next().unwrap().ends_with("  partition"),
        "{either}"
    );
    assert!(!text.contains("partition"), "{text}");
    let (code, _, err) = s.run(
        &[
            "bench",
            "korf100",
            "--only",
            "1",
            "--below-optimum",
            "1",
            "--metric",
            "mtm",
        ],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--below-optimum"), "{err}");
    // A file that is not there is an error naming it, not a fall-back to some other folder.
    let (code, _, err) = s.run(&["bench", "no-such-set.txt"], "");
    assert_eq!(code, 2);
    assert!(err.contains("cannot read no-such-set.txt"), "{err}");
}

#[test]
fn fast_mode_prints_only_the_length_and_count_only_is_gone() {
    // `--count-only` was accepted and never read: without --moves only the length is printed anyway (fast mode
    // counts the moves without keeping them). It is now an unknown flag rather than one that does nothing.
    let s = Slide::new();
    let (code, out, err) = s.run(&["solve", "--count-only", "1 0/2 3"], "");
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("--count-only"), "{err}");
    let board = s.ok(
        &["scramble", "40x40", "--seed", "5", "--format", "slash"],
        "",
    );
    let counted = s.ok(&["solve", "--fast", board.trim()], "");
    let len: usize = counted
        .trim()
        .strip_prefix('~')
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{counted:?}"));
    let listed = s.ok(&["solve", "--fast", "--moves", board.trim()], "");
    let mut words = listed.split_whitespace();
    assert_eq!(words.next(), Some(counted.trim()));
    assert_eq!(words.count(), len);
}

/// Input lines are data, never signals: a line that happens to start with a NUL and `too-long` (once an in-band
/// marker of the reader) is reported as the bad board it is, not as an over-long line.
#[test]
fn a_nul_line_is_just_a_bad_board() {
    let s = Slide::new();
    for line in ["\u{0}too-long", "\u{0}utf8 3"] {
        let (code, out, err) = s.run(&["solve"], &format!("{line}\n1 2 3/4 0 5\n"));
        assert_eq!((code, out.as_str()), (1, "1\n"), "{err}");
        assert!(err.contains("line 1:"), "{err}");
        assert!(
            !err.contains("longer than") && !err.contains("invalid UTF-8"),
            "{line:?}: {err}"
        );
    }
}

#[test]
fn fallback_answers_are_marked_and_within_their_bound() {
    let s = Slide::new();
    let r = Reference::new(3, 3, &default_goal(9));
    let boards = s.ok(&["scramble", "3x3", "--count", "30", "--seed", "9"], "");
    let mut kinds = std::collections::BTreeSet::new();
    for (i, board) in boards.lines().enumerate() {
        let cells = read_cells(board);
        let best = r.distance(&cells);
        let nodes = (i * 30).to_string();
        let args = [
            "solve",
            "--search",
            "--heuristic",
            "md",
            "--max-nodes",
            &nodes,
            "--fallback",
        ];
        let line = s.ok(&[&args[..], &["--json", "--moves", board]].concat(), "");
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        let m: Vec<u32> = v["solution"]
            .as_array()
            .unwrap_or_else(|| panic!("no solution: {line}"))
            .iter()
            .map(|x| x.as_u64().unwrap() as u32)
            .collect();
        r.check_moves(&cells, &m);
        let len = m.len() as i64;
        assert_eq!(v["moves"].as_i64(), Some(len), "{line}");
        if v["optimal"] == true {
            assert_eq!(len, best, "{line}");
        } else {
            assert!(v["lower_bound"].as_i64().unwrap() <= best, "{line}");
        }
        if let Some(w) = v["bound"].as_f64() {
            assert!(
                len as f64 <= w * best as f64 + 1e-9,
                "{line}, optimum {best}"
            );
        }
        kinds.insert((
            v["optimal"].as_bool().unwrap(),
            v["bound"].is_number(),
            v["method"].as_str().map(str::to_string),
        ));
        // The plain answer: the length, marked ~ unless proven.
        let text = s.ok(&[&args[..], &[board]].concat(), "");
        let mark = if v["optimal"] == true { "" } else { "~" };
        assert_eq!(text, format!("{mark}{len}\n"), "{line}");
    }
    // Weighted answers (with a bound), fast-mode ones (exact on 3 x 3) and proven ones all occur.
    assert!(kinds.contains(&(false, true, None)), "{kinds:?}");
    assert!(
        kinds.contains(&(true, false, Some("fast".into()))),
        "{kinds:?}"
    );
    assert!(kinds.contains(&(true, false, None)), "{kinds:?}");

    // 5 x 5 with no nodes to spend: fast mode, not proven, the Manhattan distance or more as lower bound.
    let b55 = s.ok(&["scramble", "5x5", "--seed", "3"], "");
    let line = s.ok(
        &[
            "solve",
            "--heuristic",
            "lc",
            "--max-nodes",
            "0",
            "--fallback",
            "--json",
            b55.trim(),
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["optimal"], false, "{line}");
    assert_eq!(v["method"], "fast", "{line}");
    assert!(
        v["moves"].as_u64().unwrap() > v["lower_bound"].as_u64().unwrap(),
        "{line}"
    );

    // Without a budget there is nothing to fall back from: a usage error naming the flags.
    let (code, _, err) = s.run(&["solve", "--fallback", "4 1 2/5 0 3"], "");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--fallback") && err.contains("--timeout"),
        "{err}"
    );
}

/// `--max-nodes` bounds a single solve whether its threshold is shared among threads or not: a limit too small to
/// share is searched on one thread, whose answer's nodes pass it by at most 4 (one node's children).
#[test]
fn max_nodes_bounds_a_single_solve() {
    let s = Slide::new();
    let korf3 = "14 7 8 2/13 11 10 4/9 12 5 0/3 6 1 15"; // 59 moves
    let goal = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15";
    for max in [1u64, 2, 5000] {
        for threads in ["1", "4"] {
            let args = [
                "solve",
                "--heuristic",
                "md",
                "--threads",
                threads,
                "--max-nodes",
                &max.to_string(),
                "--goal",
                goal,
                "--json",
                korf3,
            ];
            let line = s.ok(&args, "");
            let v: serde_json::Value = serde_json::from_str(&line).unwrap();
            assert_eq!(v["optimal"], false, "{line}");
            let nodes = v["nodes"].as_u64().unwrap();
            assert!(
                nodes >= max && nodes <= max + 4,
                "{threads} threads: {line}"
            );
        }
    }
}

/// Four processes that ask for the same missing pattern databases at once wait for one build (the store's lock per
/// file; the library's `store` tests count the builds) and map its files: every answer is the same optimum, nothing
/// is rebuilt, and no lock or temporary file is left.
#[test]
fn four_processes_share_one_build() {
    let slide = Slide::new();
    let board = "[[12,13,6,3],[10,14,0,11],[4,5,9,8],[15,2,1,7]]"; // 57 moves
    let children: Vec<_> = (0..4)
        .map(|_| {
            let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("slide"));
            c.env("SLIDE_CACHE_DIR", slide.cache.path())
                .env_remove("XDG_CACHE_HOME")
                .args(["solve", "--moves", board])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped());
            c.spawn().unwrap()
        })
        .collect();
    let outs: Vec<_> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    let alone = slide.ok(&["solve", "--moves", board], "");
    assert!(alone.starts_with("57 "), "{alone}");
    for o in &outs {
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{err}");
        // The same optimum (equally short move lists may differ: a process that built a table searches with it
        // in memory, the others with the mapped file).
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.starts_with("57 "), "{out}");
        assert_eq!(out.split_whitespace().count(), 58, "{out}");
        assert!(err.is_empty(), "{err}");
    }
    let left: Vec<_> = std::fs::read_dir(slide.cache.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".lock") || n.contains(".tmp-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// The default memory budget is the process's: under an address-space limit (`prlimit --as`, `ulimit -v`) a 5 × 5
/// solve refuses its pattern databases up front, naming what they need and what is left, instead of aborting on a
/// failed allocation (exit 134).
#[test]
fn the_address_space_limit_bounds_the_default_memory_budget() {
    let cache = tempfile::tempdir().unwrap();
    let board = "[[17,12,1,11,13],[6,20,24,3,5],[10,19,23,15,16],[0,9,7,8,22],[2,4,14,21,18]]";
    let out = std::process::Command::new("prlimit")
        .arg("--as=400000000")
        .arg(assert_cmd::cargo::cargo_bin("slide"))
        .args(["solve", "--timeout", "10", board])
        .env("SLIDE_CACHE_DIR", cache.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("needs 154 MB of memory to build, more than the")
            && err.contains("MB allowed"),
        "{err}"
    );
}
