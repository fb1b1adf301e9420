//! Partial goals (`--goal` patterns with `x`) through `hint`, `analyse`, `render --solve`, `scramble`, `stats` and
//! `POST /api/analyse`, checked against a multi-source breadth-first search over every full 2 × 3 or 3 × 3 board
//! (`slide-reference`: the distance to the nearest matching board), every returned move sequence replayed.

use slide_reference::{self as reference, Metric, Reference};

use crate::support::{self, Slide};

/// The pattern's cells: numbers, or `None` for x.
fn cells(text: &str) -> Vec<Option<u8>> {
    text.split(['/', ' '])
        .filter(|t| !t.is_empty())
        .map(|t| (t != "x").then(|| t.parse().unwrap()))
        .collect()
}

fn matches(want: &[Option<u8>], b: &[u8]) -> bool {
    want.len() == b.len() && want.iter().zip(b).all(|(w, &t)| w.is_none_or(|w| w == t))
}

/// The multi-source search from every board matching `pattern` on `rows × cols`.
fn reference_for(rows: usize, cols: usize, pattern: &str, metric: Metric) -> Reference {
    let want = cells(pattern);
    let goals: Vec<Vec<u8>> = reference::permutations(rows * cols)
        .into_iter()
        .filter(|g| matches(&want, g))
        .collect();
    Reference::from_goals(rows, cols, &goals, metric)
}

fn words(line: &str) -> Vec<u32> {
    line.split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect()
}

/// The tiles whose move (a push in MTM, named by the tile farthest from the blank: the one on the cell the blank
/// ends on) leads one closer to the pattern, by the reference.
fn reference_hints(r: &Reference, rows: usize, cols: usize, b: &[u8], metric: Metric) -> Vec<u32> {
    let d = r.distance(b).unwrap();
    let mut out: Vec<u32> = reference::neighbours(rows, cols, b, metric)
        .into_iter()
        .filter(|n| d > 0 && r.distance(n) == Some(d - 1))
        .map(|n| b[n.iter().position(|&t| t == 0).unwrap()] as u32)
        .collect();
    out.sort_unstable();
    out
}

#[test]
fn hint_gives_the_distance_to_the_nearest_match_and_every_first_move() {
    let slide = Slide::new();
    for (rows, cols, pattern, step) in [
        (3, 3, "1 2 3/x x x/x x x", 1499),
        (3, 3, "1 x x/4 x x/7 x 0", 2003),
        (2, 3, "1 2 x/x x x", 7),
        (2, 3, "x x x/x 5 0", 7),
    ] {
        let boards: Vec<Vec<u8>> = reference::permutations(rows * cols)
            .into_iter()
            .step_by(step)
            .collect();
        let input: String = boards
            .iter()
            .map(|b| support::slash(b, cols) + "\n")
            .collect();
        for (metric, name) in [(Metric::Stm, "stm"), (Metric::Mtm, "mtm")] {
            let r = reference_for(rows, cols, pattern, metric);
            let out = slide.ok(&["hint", "--goal", pattern, "--metric", name], &input);
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines.len(), boards.len());
            for (b, line) in boards.iter().zip(&lines) {
                let w = words(line);
                assert_eq!(Some(w[0]), r.distance(b), "{pattern} {name} {b:?}: {line}");
                assert_eq!(
                    w[1..],
                    reference_hints(&r, rows, cols, b, metric),
                    "{pattern} {name} {b:?}: {line}"
                );
            }
        }
    }
    // JSON, and a board that matches.
    let out = slide.ok(
        &[
            "hint",
            "--goal",
            "1 2 3/x x x/x x x",
            "--json",
            "1 2 0/4 5 3/7 8 6",
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["moves"].as_i64(), v["hints"].clone()),
        (Some(1), serde_json::json!([3]))
    );
    let out = slide.ok(
        &["hint", "--goal", "1 2 3/x x x/x x x", "1 2 3/0 5 4/7 8 6"],
        "",
    );
    assert_eq!(out, "0\n");
}

#[test]
fn hint_above_the_tables_searches_towards_the_pattern() {
    // A 4 x 4 partial goal over the memory budget is searched by IDA*: the first moves agree with the table's.
    let slide = Slide::new();
    let pattern = "1 2 3 4/x x x x/x x x x/x x x x";
    let board = "5 1 2 3/9 6 7 4/13 10 11 8/0 14 15 12";
    let table = slide.ok(&["hint", "--goal", pattern, board], "");
    let searched = slide.ok(&["--max-memory", "0", "hint", "--goal", pattern, board], "");
    assert_eq!(table, searched);
    assert!(words(&table)[0] > 0, "{table}");
}

#[test]
fn analyse_gives_each_distance_to_the_nearest_match() {
    let slide = Slide::new();
    let pattern = "1 2 3/x x x/x x x";
    let want = cells(pattern);
    let r = reference_for(3, 3, pattern, Metric::Stm);
    // Random legal sequences from sampled boards, and each board's shortest solution from `solve`.
    let boards: Vec<Vec<u8>> = reference::permutations(9)
        .into_iter()
        .step_by(7919)
        .collect();
    let mut lines = String::new();
    let mut played = Vec::new();
    let mut seed = 12345u64;
    for b in &boards {
        let mut at = b.clone();
        let mut tiles = Vec::new();
        for _ in 0..12 {
            let next = reference::neighbours(3, 3, &at, Metric::Stm);
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let n = &next[(seed >> 33) as usize % next.len()];
            tiles.push(at[n.iter().position(|&t| t == 0).unwrap()] as u32);
            at = n.clone();
        }
        let moves: Vec<String> = tiles.iter().map(u32::to_string).collect();
        lines += &format!("{} | {}\n", support::slash(b, 3), moves.join(" "));
        played.push(tiles);
    }
    let solved = slide.ok(
        &["solve", "--goal", pattern, "--moves"],
        &boards
            .iter()
            .map(|b| support::slash(b, 3) + "\n")
            .collect::<String>(),
    );
    for (b, line) in boards.iter().zip(solved.lines()) {
        let w = words(line);
        let moves: Vec<String> = w[1..].iter().map(u32::to_string).collect();
        if !moves.is_empty() {
            lines += &format!("{} | {}\n", support::slash(b, 3), moves.join(" "));
            played.push(w[1..].to_vec());
        }
    }
    let starts: Vec<Vec<u8>> = lines
        .lines()
        .map(|l| {
            let (b, _) = l.split_once('|').unwrap();
            words(&b.replace('/', " "))
                .iter()
                .map(|&t| t as u8)
                .collect()
        })
        .collect();
    let out = slide.ok(&["analyse", "--goal", pattern, "--json"], &lines);
    let answers: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), played.len() + 1, "{out}");
    let mut solving = 0;
    for ((b, tiles), a) in starts.iter().zip(&played).zip(&answers) {
        let optimal = r.distance(b).unwrap() as i64;
        assert_eq!(a["optimal"].as_i64(), Some(optimal), "{a}");
        let mut at = b.clone();
        let mut prev = optimal;
        let mut mistakes = Vec::new();
        for (i, &t) in tiles.iter().enumerate() {
            at = reference::replay(3, &at, &[t]).unwrap();
            let d = r.distance(&at).unwrap() as i64;
            assert_eq!(a["distances"][i].as_i64(), Some(d), "{a}");
            if d >= prev {
                mistakes.push(i + 1);
            }
            prev = d;
        }
        let solves = matches(&want, &at);
        assert_eq!(a["solves"].as_bool(), Some(solves), "{a}");
        assert_eq!(a["mistakes"], serde_json::json!(mistakes), "{a}");
        if solves {
            solving += 1;
            assert_eq!(
                a["over"].as_i64(),
                Some(tiles.len() as i64 - optimal),
                "{a}"
            );
        } else {
            assert!(a["over"].is_null(), "{a}");
        }
    }
    assert!(solving >= boards.len() - 2, "{solving}");
    assert!(answers.last().unwrap().get("summary").is_some());
    // Text, one sequence.
    let out = slide.ok(
        &["analyse", "--goal", pattern, "1 2 0/4 5 3/7 8 6", "2 2 3"],
        "",
    );
    assert_eq!(
        out,
        "solves in 3 (MTM 3), optimal 1, over 2; distances 2 1 0; mistakes 1\n"
    );
}

#[test]
fn render_solve_animates_a_shortest_solution_to_the_pattern() {
    let slide = Slide::new();
    let dir = tempfile::tempdir().unwrap();
    let pattern = "1 2 3/x x x/x x x";
    let r = reference_for(3, 3, pattern, Metric::Stm);
    let board = "8 6 7/2 5 4/3 0 1";
    let solved = slide.ok(&["solve", "--goal", pattern, "--moves", board], "");
    let w = words(&solved);
    let b: Vec<u8> = words(&board.replace('/', " "))
        .iter()
        .map(|&t| t as u8)
        .collect();
    assert_eq!(Some(w[0]), r.distance(&b));
    let end = reference::replay(3, &b, &w[1..]).unwrap();
    assert!(matches(&cells(pattern), &end));
    let moves: Vec<String> = w[1..].iter().map(u32::to_string).collect();
    let (a, m) = (dir.path().join("solve.gif"), dir.path().join("moves.gif"));
    let common = ["--goal", pattern, "--inbetweens", "0", board];
    slide.ok(
        &[
            &["render", "--solve", "-o", a.to_str().unwrap()][..],
            &common,
        ]
        .concat(),
        "",
    );
    slide.ok(
        &[
            &[
                "render",
                "--moves",
                &moves.join(" "),
                "-o",
                m.to_str().unwrap(),
            ][..],
            &common,
        ]
        .concat(),
        "",
    );
    let (solve_gif, moves_gif) = (std::fs::read(&a).unwrap(), std::fs::read(&m).unwrap());
    assert_eq!(solve_gif, moves_gif);
    let (_, _, frames) = support::decode_gif(&solve_gif);
    assert!(frames.len() > w[0] as usize, "{} frames", frames.len());
    // A still picture with a partial goal, in the fringe colours of a matching board.
    let svg = slide.ok(
        &["render", "--goal", pattern, "--scheme", "fringe", board],
        "",
    );
    assert!(svg.contains("<svg"), "{svg}");
}

#[test]
fn scramble_draws_boards_that_reach_the_pattern() {
    let slide = Slide::new();
    let default = Reference::new(3, 3, &reference::goal(9), Metric::Stm);
    for (pattern, all) in [("1 2 3/x x x/x x x", true), ("1 2 3/4 5 6/7 x x", false)] {
        let want = cells(pattern);
        let r = reference_for(3, 3, pattern, Metric::Stm);
        for extra in [&[][..], &["--walk", "25"]] {
            let out = slide.ok(
                &[
                    &[
                        "scramble", "3x3", "--goal", pattern, "-n", "300", "--seed", "4",
                    ][..],
                    extra,
                    &["--moves", "--notation", "tiles", "--format", "flat"],
                ]
                .concat(),
                "",
            );
            let mut other_half = 0;
            for line in out.lines() {
                let (board, moves) = line.split_once('\t').unwrap();
                let b: Vec<u8> = words(board).iter().map(|&t| t as u8).collect();
                assert!(r.distance(&b).is_some(), "{pattern}: {line}");
                if default.distance(&b).is_none() {
                    other_half += 1;
                }
                // The moves take a matching board to the board: played backwards from the board, they end on one.
                let mut tiles = words(moves);
                tiles.reverse();
                let start = reference::replay(3, &b, &tiles).expect("legal moves");
                assert!(matches(&want, &start), "{pattern}: {line}");
                if extra.is_empty() {
                    // Optimal from the pattern's table.
                    assert_eq!(Some(tiles.len() as u32), r.distance(&b), "{line}");
                } else {
                    assert_eq!(tiles.len(), 25);
                }
            }
            assert_eq!(out.lines().count(), 300);
            // With free tiles, boards of both parities; with one free tile and the blank, one half only.
            assert_eq!(other_half > 0, all, "{pattern} {extra:?}: {other_half}");
        }
    }
    // The same seed, the same boards; a goal board scrambles as before.
    let a = slide.ok(
        &[
            "scramble",
            "3x3",
            "--goal",
            "1 x x/x x x/x x 0",
            "-n",
            "5",
            "--seed",
            "9",
        ],
        "",
    );
    let b = slide.ok(
        &[
            "scramble",
            "3x3",
            "--goal",
            "1 x x/x x x/x x 0",
            "-n",
            "5",
            "--seed",
            "9",
        ],
        "",
    );
    assert_eq!(a, b);
    let plain = slide.ok(&["scramble", "3x3", "-n", "5", "--seed", "9"], "");
    let full = slide.ok(
        &[
            "scramble",
            "3x3",
            "--goal",
            "1 2 3/4 5 6/7 8 x",
            "-n",
            "5",
            "--seed",
            "9",
        ],
        "",
    );
    assert_eq!(plain, full);
}

#[test]
fn stats_counts_the_states_of_the_named_tiles_and_the_blank() {
    let slide = Slide::new();
    for (rows, cols, pattern, shape) in [
        (2, 3, "1 2 x/x x x", "2x3"),
        (2, 3, "x x 3/x 0 x", "2x3"),
        (3, 3, "1 2 3/x x x/x x x", "3x3"),
    ] {
        let want = cells(pattern);
        let r = reference_for(rows, cols, pattern, Metric::Stm);
        // The abstract state of a board: where each named tile and the blank stand.
        let named: Vec<u8> = want.iter().flatten().copied().filter(|&t| t != 0).collect();
        let state = |b: &[u8]| -> Vec<usize> {
            named
                .iter()
                .chain(&[0])
                .map(|&t| b.iter().position(|&x| x == t).unwrap())
                .collect()
        };
        let mut dist = std::collections::HashMap::new();
        for b in reference::permutations(rows * cols) {
            if let Some(d) = r.distance(&b) {
                let e = dist.entry(state(&b)).or_insert(d);
                *e = (*e).min(d);
            }
        }
        let mut histogram = vec![0u64; *dist.values().max().unwrap() as usize + 1];
        for &d in dist.values() {
            histogram[d as usize] += 1;
        }
        let out = slide.ok(&["stats", shape, "--goal", pattern, "--all"], "");
        assert!(
            out.contains(&format!("reachable states: {}\n", dist.len())),
            "{out}"
        );
        let rows_out: Vec<u64> = out
            .lines()
            .skip_while(|l| *l != "distance states")
            .skip(1)
            .take_while(|l| !l.starts_with("god's"))
            .map(|l| words(l)[1] as u64)
            .collect();
        assert_eq!(rows_out, histogram, "{pattern}: {out}");
        let diameter = histogram.len() - 1;
        assert!(
            out.contains(&format!("god's number: {diameter}\n")),
            "{out}"
        );
        // Each farthest state, as a pattern with the blank: a board in it is that far.
        let far: Vec<&str> = out
            .lines()
            .skip_while(|l| !l.starts_with("states at distance"))
            .skip(1)
            .filter(|l| !l.contains("more not kept"))
            .collect();
        assert!(!far.is_empty(), "{out}");
        for p in far {
            let p = p.trim();
            let c = cells(p);
            let b = reference::permutations(rows * cols)
                .into_iter()
                .find(|b| matches(&c, b))
                .unwrap();
            assert_eq!(r.distance(&b), Some(diameter as u32), "{p}");
        }
    }
}

#[test]
fn apply_still_wants_a_goal_board() {
    let slide = Slide::new();
    let (code, _, err) = slide.run(
        &["apply", "--solved", "2x3", "--goal", "1 2 x/x x 0", "R"],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("a partial goal (x) is not one board"), "{err}");
}

#[test]
fn the_server_analyses_towards_a_partial_goal() {
    let serve = support::serve::Serve::start();
    let r = reference_for(3, 3, "1 2 3/x x x/x x x", Metric::Stm);
    for goal in [
        serde_json::json!("1 2 3/x x x/x x x"),
        serde_json::json!([[1, 2, 3], ["x", "x", "x"], ["x", "x", "x"]]),
    ] {
        let a = serve.analyse(serde_json::json!({
            "board": "8 6 7/2 5 4/3 0 1",
            "goal": goal,
            "moves": [5, 2, 8],
        }));
        let b = [8u8, 6, 7, 2, 5, 4, 3, 0, 1];
        assert_eq!(a["optimal"].as_u64(), r.distance(&b).map(u64::from), "{a}");
        let mut at = b.to_vec();
        for (i, t) in [5u32, 2, 8].into_iter().enumerate() {
            at = reference::replay(3, &at, &[t]).unwrap();
            assert_eq!(
                a["distances"][i].as_u64(),
                r.distance(&at).map(u64::from),
                "{a}"
            );
        }
        assert_eq!(a["solves"], false);
    }
    // A bad goal is still the board's error.
    let e = serve.error_from(
        "/api/analyse",
        r#"{"board": "8 6 7/2 5 4/3 0 1", "goal": [[1,2,3],["y","x","x"],["x","x","x"]], "moves": "R"}"#,
        400,
    );
    assert!(e.contains("goal"), "{e}");
}
