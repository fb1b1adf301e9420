//! `slide serve`, end to end: each test starts the real binary on a free port (`--port 0`, the URL is read from the
//! first line it prints) with its own empty cache directory, talks HTTP/1.1 to it over a plain `TcpStream`, and
//! kills it when done (the `Serve` guard, also on failure). Answers on 2x3 boards are checked against a
//! breadth-first search written here; move sequences are replayed here.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use slide_reference::{Metric, Reference};

use crate::support::serve::{read_response, request_bytes, Serve};
use crate::support::{decode_gif, decode_png, play};

// ---------------------------------------------------------------------------------------------------------------
// A reference for 2x3 boards and a replayer
// ---------------------------------------------------------------------------------------------------------------

fn neighbours(b: &[u8], rows: usize, cols: usize) -> Vec<Vec<u8>> {
    let blank = b.iter().position(|&t| t == 0).unwrap();
    let (r, c) = (blank / cols, blank % cols);
    let mut out = Vec::new();
    let mut swap = |cell: usize| {
        let mut n = b.to_vec();
        n.swap(blank, cell);
        out.push(n);
    };
    if r > 0 {
        swap(blank - cols);
    }
    if r + 1 < rows {
        swap(blank + cols);
    }
    if c > 0 {
        swap(blank - 1);
    }
    if c + 1 < cols {
        swap(blank + 1);
    }
    out
}

/// Distances to the 2x3 goal of every board that reaches it.
fn distances_2x3() -> HashMap<Vec<u8>, i64> {
    let goal = vec![1u8, 2, 3, 4, 5, 0];
    let mut dist = HashMap::from([(goal.clone(), 0i64)]);
    let mut frontier = vec![goal];
    let mut d = 0;
    while !frontier.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for b in &frontier {
            for n in neighbours(b, 2, 3) {
                if !dist.contains_key(&n) {
                    dist.insert(n.clone(), d);
                    next.push(n);
                }
            }
        }
        frontier = next;
    }
    dist
}

fn rows_of(v: &Value) -> (usize, usize, Vec<u8>) {
    let rows = v
        .as_array()
        .unwrap_or_else(|| panic!("board is not rows: {v}"));
    let cols = rows[0].as_array().unwrap().len();
    let cells: Vec<u8> = rows
        .iter()
        .flat_map(|r| {
            let r = r.as_array().unwrap();
            assert_eq!(r.len(), cols, "ragged board {v}");
            r.iter().map(|t| t.as_u64().unwrap() as u8)
        })
        .collect();
    (rows.len(), cols, cells)
}

/// Replays `solution` (tiles sliding into the blank) from `board` and checks that every move is legal and that
/// the goal (tiles in order, blank last) is reached.
fn replay_to_goal(board: &Value, solution: &Value) {
    let (rows, cols, mut b) = rows_of(board);
    for t in solution.as_array().unwrap() {
        let t = t.as_u64().unwrap() as u8;
        let blank = b.iter().position(|&x| x == 0).unwrap();
        let at = b.iter().position(|&x| x == t).unwrap();
        let (br, bc, tr, tc) = (blank / cols, blank % cols, at / cols, at % cols);
        assert_eq!(
            br.abs_diff(tr) + bc.abs_diff(tc),
            1,
            "tile {t} is not next to the blank"
        );
        b.swap(blank, at);
    }
    let n = rows * cols;
    let goal: Vec<u8> = (1..n as u8).chain([0]).collect();
    assert_eq!(b, goal, "the solution does not reach the goal");
}

// ---------------------------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn serves_the_page() {
    let s = Serve::start();
    for path in ["/", "/index.html"] {
        let r = s.get(path);
        assert_eq!(r.status, 200);
        assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"));
        assert!(r.body.starts_with("<!doctype html>"));
        assert!(r.body.contains("style.css") && r.body.contains("app.js"));
        assert!(r.body.trim_end().ends_with("</html>"));
    }
    // The files the page loads, each with its type.
    let r = s.get("/style.css");
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("text/css; charset=utf-8"));
    let scripts: String = [
        "/core.js",
        "/board.js",
        "/practice.js",
        "/records.js",
        "/controls.js",
        "/replay.js",
        "/app.js",
    ]
    .iter()
    .map(|path| {
        let r = s.get(path);
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(
            r.header("content-type"),
            Some("text/javascript; charset=utf-8")
        );
        r.body
    })
    .collect();
    assert!(scripts.contains("api/solve") && scripts.contains("api/scramble"));
    // HEAD: the headers only.
    let r = s.request("HEAD", "/", None);
    assert_eq!(r.status, 200);
    assert!(r.body.is_empty());
    // Several requests on one kept-alive connection.
    let mut conn = BufReader::new(s.connect());
    for _ in 0..3 {
        conn.get_mut()
            .write_all(&request_bytes(
                &s.addr,
                "POST",
                "/api/solve",
                Some(r#"{"board": "4 1 2/5 0 3"}"#),
                false,
            ))
            .unwrap();
        let r = read_response(&mut conn, false);
        assert_eq!(r.status, 200);
        assert_eq!(r.json()["moves"], 5);
    }
}

#[test]
fn solves_2x3_boards() {
    let s = Serve::start();
    let v = s.solve(serde_json::json!({"board": [[1, 2, 3], [4, 0, 5]], "moves": true}));
    assert_eq!(v["moves"], 1);
    assert_eq!(v["solution"], serde_json::json!([5]));
    assert_eq!(v["optimal"], true);
    assert_eq!(v["board"], serde_json::json!([[1, 2, 3], [4, 0, 5]]));
    assert!(v["nodes"].is_u64() && v["seconds"].is_f64());
    assert!(v.get("lower_bound").is_none() && v.get("reason").is_none());

    let v = s.solve(serde_json::json!({"board": "4 1 2/5 0 3", "moves": true}));
    assert_eq!(v["moves"], 5);
    assert_eq!(v["board"], serde_json::json!([[4, 1, 2], [5, 0, 3]]));
    replay_to_goal(&v["board"], &v["solution"]);

    // Without "moves" there is no solution field; the goal itself is 0 moves.
    let v = s.solve(serde_json::json!({"board": "[[4,1,2],[5,0,3]]"}));
    assert_eq!(v["moves"], 5);
    assert!(v.get("solution").is_none());
    let v = s.solve(serde_json::json!({"board": "1 2 3/4 5 0", "moves": true}));
    assert_eq!(v["moves"], 0);
    assert_eq!(v["solution"], serde_json::json!([]));

    // Every format the CLI reads, and a flat list with a shape.
    for text in ["1 2 3/4 0 5", "1,2,3/4,0,5", "[[1,2,3],[4,0,5]]"] {
        assert_eq!(
            s.solve(serde_json::json!({ "board": text }))["moves"],
            1,
            "{text}"
        );
    }
    let v = s.solve(serde_json::json!({"board": "1 2 3 4 0 5", "shape": "2x3"}));
    assert_eq!(v["moves"], 1);

    // A custom goal.
    let v = s.solve(
        serde_json::json!({"board": "1 2 3/4 5 0", "goal": [[1, 2, 3], [4, 0, 5]], "moves": true}),
    );
    assert_eq!(v["moves"], 1);
    assert_eq!(v["solution"], serde_json::json!([5]));

    // Random boards against the breadth-first reference, solutions replayed.
    let dist = distances_2x3();
    for seed in 0..12 {
        let b = s
            .get(&format!("/api/scramble?shape=2x3&seed={seed}"))
            .json()["board"]
            .clone();
        let v = s.solve(serde_json::json!({"board": b, "moves": true}));
        let (_, _, cells) = rows_of(&v["board"]);
        assert_eq!(v["moves"].as_i64(), Some(dist[&cells]), "{b}");
        assert_eq!(v["optimal"], true);
        replay_to_goal(&v["board"], &v["solution"]);
    }
}

#[test]
fn unsolvable_boards_give_minus_one_and_the_reason() {
    let s = Serve::start();
    let v = s.solve(serde_json::json!({"board": [[1, 2, 3], [5, 4, 0]], "moves": true}));
    assert_eq!(v["moves"], -1);
    assert_eq!(v["solution"], Value::Null);
    assert_eq!(v["optimal"], true);
    let reason = v["reason"].as_str().unwrap();
    assert!(reason.contains("parity"), "{reason}");
    // Also on a shape with no table, and on a single row.
    let v = s.solve(serde_json::json!({"board": "2 1 3 4/5 6 7 8/9 10 11 12/13 14 15 0"}));
    assert_eq!(v["moves"], -1);
    assert!(v["reason"].as_str().unwrap().contains("parity"));
    let v = s.solve(serde_json::json!({"board": [[2, 1, 0]]}));
    assert_eq!(v["moves"], -1);
    assert!(v["reason"].as_str().unwrap().contains("single row"));
}

#[test]
fn bad_input_is_400_with_a_message_naming_the_problem() {
    let s = Serve::start();
    let cases: &[(&str, &[&str])] = &[
        (r#"{"board": [[1,2,3],[4,0]]}"#, &["ragged", "row 2"]),
        (r#"{"board": "1 2 3/4 0"}"#, &["ragged"]),
        (r#"{"board": [[1,2,3],[4,4,0]]}"#, &["duplicate value 4"]),
        (r#"{"board": "1 2 3/4 x 5"}"#, &["not a number", "\"x\""]),
        (
            r#"{"board": [[1,2,3],[4,"x",5]]}"#,
            &["row 2, column 2: a string is not a number"],
        ),
        (
            r#"{"board": [[1,2,3],[4,0,5.5]]}"#,
            &["5.5", "not a whole number", "row 2, column 3"],
        ),
        (
            r#"{"board": [[1,2,3],[4,0,2.0]]}"#,
            &["2.0", "not a whole number"],
        ),
        (
            r#"{"board": [[1,2,3],[4,0,-5]]}"#,
            &["value -5 out of range"],
        ),
        (r#"{"board": [[1,2,3],[4,0,9]]}"#, &["9", "out of range"]),
        (
            r#"{"board": [[1,2,3],[4,0,99999999999999999999]]}"#,
            &["too large"],
        ),
        (
            r#"{"board": [[1,2,3],[4,0,18446744073709551615]]}"#,
            &["row 2, column 3: the number is too large to be a tile"],
        ),
        (
            r#"{"board": [[1,2,3],5]}"#,
            &["row 2 is not a list of numbers"],
        ),
        (r#"{"board": []}"#, &["empty"]),
        (r#"{"board": 12}"#, &["board must be a string"]),
        (r#"{"board": ""}"#, &["empty"]),
        (r#"{"moves": true}"#, &["needs a \"board\""]),
        (
            r#"{"board": "1 2 3/4 0 5", "moves": "yes"}"#,
            &["\"moves\" must be true or false"],
        ),
        (r#"{"board": "1 2 3/4 0 5", "goal": "1 2/3 0"}"#, &["goal"]),
        (r#"{"board": "1 2 3 4 0 5", "shape": "2by3"}"#, &["shape"]),
        (r#"{"board": "1 2 3/4 0 5""#, &["not valid JSON"]),
        ("board=1", &["not valid JSON"]),
        ("", &["empty request body"]),
        ("[1, 2]", &["JSON object"]),
    ];
    for (body, needles) in cases {
        let e = s.solve_error(body, 400);
        for n in *needles {
            assert!(e.contains(n), "{body}: error {e:?} does not contain {n:?}");
        }
    }
    // Boards too large for any search: a clear 400 too (10x10, solvable, not a line).
    let mut tiles: Vec<u32> = (1..100).collect();
    tiles.push(0);
    tiles.swap(0, 1);
    tiles.swap(2, 3);
    let rows: Vec<Vec<u32>> = tiles.chunks(10).map(|c| c.to_vec()).collect();
    let e = s.solve_error(&serde_json::json!({ "board": rows }).to_string(), 400);
    assert!(e.contains("at most 64 cells"), "{e}");
}

#[test]
fn oversized_bodies_are_413() {
    let s = Serve::start();
    // Announced too large: refused without reading the body.
    let r = s.raw(format!("POST /api/solve HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n", s.addr).as_bytes());
    assert_eq!(r.status, 413);
    assert!(r.json()["error"].as_str().unwrap().contains("64 KiB"));
    // Sent in chunks, without a length: cut off after 64 KiB.
    let big = format!(r#"{{"board": "1 2 3/4 0 5{}"}}"#, " ".repeat(70_000));
    let mut req = format!("POST /api/solve HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n", s.addr).into_bytes();
    for c in big.as_bytes().chunks(4096) {
        req.extend_from_slice(format!("{:x}\r\n", c.len()).as_bytes());
        req.extend_from_slice(c);
        req.extend_from_slice(b"\r\n");
    }
    req.extend_from_slice(b"0\r\n\r\n");
    let r = s.raw(&req);
    assert_eq!(r.status, 413);
    assert!(r.json()["error"].is_string());
    // Just under the limit is fine.
    let ok = format!(r#"{{"board": "1 2 3/4 0 5{}"}}"#, " ".repeat(60_000));
    assert!(ok.len() < 64 << 10);
    assert_eq!(s.solve(serde_json::from_str(&ok).unwrap())["moves"], 1);
    // An absurd length neither crashes the server nor waits for the body.
    let mut c = s.connect();
    c.write_all(
        format!(
            "POST /api/solve HTTP/1.1\r\nHost: {}\r\nContent-Length: 1000000000000\r\n\r\n",
            s.addr
        )
        .as_bytes(),
    )
    .unwrap();
    let mut head = [0u8; 12];
    c.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 413");
    drop(c);
    assert_eq!(
        s.solve(serde_json::json!({"board": "4 1 2/5 0 3"}))["moves"],
        5
    );
}

#[test]
fn unknown_paths_and_wrong_methods() {
    let s = Serve::start();
    let r = s.get("/nope");
    assert_eq!(r.status, 404);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert!(r.json()["error"].as_str().unwrap().contains("/nope"));
    assert_eq!(s.get("/api/solver").status, 404);
    assert_eq!(s.get("/api").status, 404);

    let r = s.get("/api/solve");
    assert_eq!(r.status, 405);
    assert_eq!(r.header("allow"), Some("POST"));
    assert!(r.json()["error"].as_str().unwrap().contains("POST"));
    let r = s.post("/api/scramble?shape=3x3", "{}");
    assert_eq!(r.status, 405);
    assert_eq!(r.header("allow"), Some("GET"));
    assert_eq!(s.request("DELETE", "/", None).status, 405);
}

#[test]
fn scrambles_are_reproducible_and_solvable() {
    let s = Serve::with_args(&["--timeout", "0.5"]);
    let a = s.get("/api/scramble?shape=3x3&seed=42");
    assert_eq!(a.status, 200);
    assert_eq!(a.header("content-type"), Some("application/json"));
    let b = s.get("/api/scramble?seed=42&shape=3x3");
    assert_eq!(a.json()["board"], b.json()["board"]);
    let others: Vec<Value> = (43..47)
        .map(|seed| {
            s.get(&format!("/api/scramble?shape=3x3&seed={seed}"))
                .json()["board"]
                .clone()
        })
        .collect();
    assert!(others.iter().any(|o| *o != a.json()["board"]));
    // Unseeded boards differ from one another (with overwhelming probability).
    let u: Vec<Value> = (0..4)
        .map(|_| s.get("/api/scramble?shape=4x4").json()["board"].clone())
        .collect();
    assert!(u.windows(2).any(|w| w[0] != w[1]));

    // (No 3x4 or 4x4 here: their first boards would start building a table or pattern databases.)
    for shape in [
        "2x2", "2x3", "3x3", "4x5", "5x5", "1x5", "8x8", "64x1", "2%783",
    ] {
        let r = s.get(&format!("/api/scramble?shape={shape}&seed=7"));
        assert_eq!(r.status, 200, "{shape}: {}", r.body);
        let v = r.json();
        let (rows, cols, cells) = rows_of(&v["board"]);
        let want = shape.replace("%78", "x");
        assert_eq!(format!("{rows}x{cols}"), want);
        let mut sorted = cells.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..(rows * cols) as u8).collect::<Vec<_>>());
        // Solvable: never -1 (big boards may stop at the budget with null).
        let sol = s.solve(serde_json::json!({ "board": v["board"] }));
        assert_ne!(sol["moves"], -1, "{shape}: {sol}");
        assert!(sol.get("reason").is_none());
    }
    let a = s.solve(serde_json::json!({ "board": s.get("/api/scramble?shape=3x3&seed=1").json()["board"], "moves": true }));
    replay_to_goal(&a["board"], &a["solution"]);

    for (q, needle) in [
        ("", "missing shape"),
        ("?shape=", "shape"),
        ("?shape=3by3", "shape"),
        ("?shape=1x1", "at least two cells"),
        ("?shape=9x9", "64 cells"),
        ("?shape=100000x100000", "shape"),
        ("?shape=3x3&seed=-1", "seed"),
        ("?shape=3x3&seed=x", "seed"),
    ] {
        let r = s.get(&format!("/api/scramble{q}"));
        assert_eq!(r.status, 400, "{q}: {}", r.body);
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(e.contains(needle), "{q}: {e}");
    }
}

#[test]
fn solves_4x4_boards_optimally() {
    let s = Serve::start();
    // Boards a few random moves from the goal: the first answers come from IDA* with linear conflicts while the
    // pattern databases build in the background; later ones may use them. All are proven optimal.
    let goal: Vec<u8> = (1..16).chain([0]).collect();
    let mut seed = 12345u64;
    for walk in [6usize, 14, 22, 30, 30, 36] {
        let mut b = goal.clone();
        let mut prev = usize::MAX;
        for _ in 0..walk {
            let blank = b.iter().position(|&t| t == 0).unwrap();
            let ns: Vec<Vec<u8>> = neighbours(&b, 4, 4)
                .into_iter()
                .filter(|n| n.iter().position(|&t| t == 0) != Some(prev))
                .collect();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            b = ns[(seed >> 33) as usize % ns.len()].clone();
            prev = blank;
        }
        let rows: Vec<Vec<u8>> = b.chunks(4).map(|c| c.to_vec()).collect();
        let t = Instant::now();
        let v = s.solve(serde_json::json!({ "board": rows, "moves": true }));
        assert_eq!(v["optimal"], true, "{v} after {:?}", t.elapsed());
        let m = v["moves"].as_u64().unwrap() as usize;
        assert!(
            m <= walk && m % 2 == walk % 2,
            "{m} moves for a walk of {walk}"
        );
        assert_eq!(v["solution"].as_array().unwrap().len(), m);
        replay_to_goal(&v["board"], &v["solution"]);
        std::thread::sleep(Duration::from_millis(300));
    }
}

#[test]
fn the_budget_stops_hard_searches_quickly() {
    // Without the 5x5 pattern databases (minutes to build): no test builds them.
    let s = Serve::with_args(&["--timeout", "1", "--threads", "2", "--no-large-builds"]);
    let board = s.get("/api/scramble?shape=5x5&seed=5").json()["board"].clone();
    let t = Instant::now();
    let v = s.solve(serde_json::json!({ "board": board, "moves": true }));
    let took = t.elapsed();
    // The optimal search cannot finish: the answer is the fallback's, marked.
    check_fallback(&v);
    assert!(v["nodes"].as_u64().unwrap() > 0, "{v}");
    assert!(took < Duration::from_secs(6), "took {took:?}");

    // Several at once: each is answered within its budget plus the wait for a worker (2 workers here).
    let t = Instant::now();
    std::thread::scope(|sc| {
        let hs: Vec<_> = (0..4)
            .map(|i| {
                let s = &s;
                sc.spawn(move || {
                    let b =
                        s.get(&format!("/api/scramble?shape=4x5&seed={i}")).json()["board"].clone();
                    s.solve(serde_json::json!({ "board": b }))
                })
            })
            .collect();
        for h in hs {
            let v = h.join().unwrap();
            assert!(v["moves"].is_u64(), "{v}");
        }
    });
    let took = t.elapsed();
    assert!(took < Duration::from_secs(12), "took {took:?}");
    // The server is still answering.
    assert_eq!(
        s.solve(serde_json::json!({"board": "4 1 2/5 0 3"}))["moves"],
        5
    );
}

/// `"timeout"` in a solve asks for a longer budget, up to `--max-timeout` (the page's "Keep searching"): a board the
/// normal budget (one node) cannot prove is proven with the longer one (the node budget grows in proportion); the
/// status says both budgets; more than the limit, or not a positive number, is a 400 naming it.
#[test]
fn a_longer_budget_can_be_asked_for_up_to_the_limit() {
    let s = Serve::with_args(&[
        "--timeout",
        "0.001",
        "--max-nodes",
        "1",
        "--max-timeout",
        "10",
        "--no-large-builds",
    ]);
    let status = s.get("/api/status").json();
    assert_eq!(
        (status["timeout"].as_f64(), status["max_timeout"].as_f64()),
        (Some(0.001), Some(10.0)),
        "{status}"
    );
    let board = "5 1 2 4/9 6 3 8/13 10 7 11/0 14 15 12";
    let cells = [5, 1, 2, 4, 9, 6, 3, 8, 13, 10, 7, 11, 0, 14, 15, 12];
    let goal: Vec<u8> = (1..16).chain([0]).collect();
    let d =
        slide_reference::distance(4, 4, &cells, &goal, slide_reference::Metric::Stm, 12).unwrap();
    let short = s.solve(serde_json::json!({ "board": board, "moves": true }));
    assert_eq!(short["optimal"], false, "{short}");
    let long = s.solve(serde_json::json!({ "board": board, "moves": true, "timeout": 10 }));
    assert_eq!(long["optimal"], true, "{long}");
    assert_eq!(long["moves"].as_u64(), Some(u64::from(d)), "{long}");
    replay_to_goal(&long["board"], &long["solution"]);
    for (body, want) in [
        (
            serde_json::json!({ "board": board, "timeout": 10.5 }),
            "--max-timeout",
        ),
        (
            serde_json::json!({ "board": board, "timeout": 0 }),
            "0 is not a positive number of seconds",
        ),
        (
            serde_json::json!({ "board": board, "timeout": "10" }),
            "seconds above 0",
        ),
    ] {
        let r = s.post("/api/solve", &body.to_string());
        assert_eq!(r.status, 400, "{body} -> {}", r.body);
        assert!(r.body.contains(want), "{body} -> {}", r.body);
    }
}

/// The Manhattan distance of a board to the goal (tiles in order, blank last): a lower bound any answer's must reach.
fn manhattan(board: &Value) -> u64 {
    let (_, cols, b) = rows_of(board);
    b.iter()
        .enumerate()
        .filter(|&(_, &t)| t != 0)
        .map(|(cell, &t)| {
            let home = t as usize - 1;
            ((cell / cols).abs_diff(home / cols) + (cell % cols).abs_diff(home % cols)) as u64
        })
        .sum()
}

/// An answer the optimal search did not finish: a solution that replays to the goal, `"optimal": false`, the proven
/// lower bound (at least the Manhattan distance, at most the length), and either `"bound": W` with the length within
/// W times that lower bound (so within W of the optimum), or `"method": "fast"`. Returns (length, lower bound).
fn check_fallback(v: &Value) -> (u64, u64) {
    assert_eq!(v["optimal"], false, "{v}");
    let len = v["moves"]
        .as_u64()
        .unwrap_or_else(|| panic!("no moves: {v}"));
    assert_eq!(v["solution"].as_array().unwrap().len() as u64, len, "{v}");
    replay_to_goal(&v["board"], &v["solution"]);
    let lower = v["lower_bound"].as_u64().unwrap();
    assert!(lower >= manhattan(&v["board"]) && lower < len, "{v}");
    match (v["bound"].as_f64(), v["method"].as_str()) {
        (Some(w), None) => {
            assert!(w > 1.0 && w <= 5.0, "{v}");
            assert!(len as f64 <= w * lower as f64 + 1e-9, "{v}");
        }
        (None, Some("fast")) => {}
        _ => panic!("neither a bound nor fast mode: {v}"),
    }
    (len, lower)
}

#[test]
fn every_4x5_and_5x5_scramble_gets_a_marked_solution_within_the_budget() {
    let s = Serve::with_args(&["--threads", "2", "--no-large-builds"]);
    for (shape, seed) in [("4x5", 1), ("4x5", 2), ("5x5", 1), ("5x5", 2), ("5x5", 3)] {
        let board = s
            .get(&format!("/api/scramble?shape={shape}&seed={seed}"))
            .json()["board"]
            .clone();
        let t = Instant::now();
        let v = s.solve(serde_json::json!({ "board": board, "moves": true }));
        let took = t.elapsed();
        // 2 s of budget; fast mode after it is instant.
        assert!(
            took < Duration::from_secs(5),
            "{shape} seed {seed}: took {took:?}"
        );
        if v["optimal"] == true {
            // Only when proven: the search finished (possible on 4 x 5): no bound, no lower bound beside it.
            assert_eq!(shape, "4x5", "{v}");
            assert!(v["bound"].is_null() && v["lower_bound"].is_null(), "{v}");
            replay_to_goal(&v["board"], &v["solution"]);
        } else {
            check_fallback(&v);
        }
        // Without moves asked for, the same marks and the length.
        let v = s.solve(serde_json::json!({ "board": board }));
        assert!(v["moves"].is_u64() && v.get("solution").is_none(), "{v}");
    }
}

/// `GET /api/status` as a list of entries.
fn builds(s: &Serve) -> Vec<Value> {
    let r = s.get("/api/status");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("content-type"), Some("application/json"));
    r.json()["builds"].as_array().unwrap().clone()
}

/// The status entry of a shape's default goal in single-tile moves, if any.
fn build_of(builds: &[Value], shape: &str) -> Option<Value> {
    let (r, c) = shape.split_once('x').unwrap();
    let blank = r.parse::<u64>().unwrap() * c.parse::<u64>().unwrap() - 1;
    builds
        .iter()
        .find(|b| b["shape"] == shape && b["metric"] == "stm" && b["blank"] == blank)
        .cloned()
}

/// The first 4x4 board asked for starts the build of its pattern databases (6-6-3) in the background: the answer
/// does not wait for it (linear conflicts), `GET /api/status` shows the build going from database 1 to 3 with a
/// fraction that only grows, then ready; the same board is then searched with the databases (far fewer nodes, the
/// same proven length) and the files are in the cache.
#[test]
fn status_shows_a_build_and_its_progress_and_solves_use_it_once_ready() {
    let s = Serve::with_args(&["--threads", "2"]);
    assert!(builds(&s).is_empty());
    let r = s.post("/api/status", "{}");
    assert_eq!(r.status, 405, "{}", r.body);

    let board = s.get("/api/scramble?shape=4x4&seed=3").json()["board"].clone();
    let before = s.solve(serde_json::json!({ "board": board, "moves": true }));
    assert_eq!(before["optimal"], true, "{before}");
    replay_to_goal(&before["board"], &before["solution"]);

    let give_up = Instant::now() + Duration::from_secs(600);
    let (mut fraction, mut step, mut building) = (0.0f64, 0u64, 0usize);
    let last = loop {
        let b = build_of(&builds(&s), "4x4").expect("no 4x4 entry in the status");
        assert_eq!(b["what"], "pattern databases", "{b}");
        assert_eq!(b["steps"], 3, "{b}");
        assert!(b["memory_mb"].as_u64().unwrap() > 0, "{b}");
        let f = b["fraction"].as_f64().unwrap();
        let st = b["step"].as_u64().unwrap();
        assert!(
            (0.0..=1.0).contains(&f) && f >= fraction,
            "{b} after {fraction}"
        );
        assert!((1..=3).contains(&st) && st >= step, "{b} after step {step}");
        (fraction, step) = (f, st);
        match b["state"].as_str().unwrap() {
            "ready" => break b,
            "building" => building += 1,
            "queued" | "loading" => {}
            other => panic!("state {other}: {b}"),
        }
        assert!(Instant::now() < give_up, "the 4x4 build did not end: {b}");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(building > 0, "never seen building");
    assert_eq!(last["fraction"], 1.0, "{last}");
    assert_eq!(last["step"], 3, "{last}");
    assert!(last.get("error").is_none(), "{last}");
    let files = |prefix: &str| {
        std::fs::read_dir(s.cache.path())
            .unwrap()
            .filter(|f| {
                let name = f.as_ref().unwrap().file_name();
                name.to_string_lossy().starts_with(prefix)
            })
            .count()
    };
    // The 4x4 default (zb6-6-3): the zero-aware files it is made from, and its own with the sparse index.
    assert_eq!((files("zpdb-4x4-"), files("zbspdb-4x4-")), (3, 3));

    let after = s.solve(serde_json::json!({ "board": board, "moves": true }));
    assert_eq!(after["optimal"], true, "{after}");
    assert_eq!(after["moves"], before["moves"], "{after} against {before}");
    replay_to_goal(&after["board"], &after["solution"]);
    assert!(
        after["nodes"].as_u64().unwrap() * 4 < before["nodes"].as_u64().unwrap(),
        "the databases do not answer: {after} against {before}"
    );
}

/// `--no-large-builds`: the 5x5 pattern databases are neither loaded nor built; the status says so (and why), the
/// 5x5 answers come at once all the same; smaller shapes are still built.
#[test]
fn large_builds_can_be_turned_off() {
    let s = Serve::with_args(&["--threads", "2", "--no-large-builds"]);
    let board = s.get("/api/scramble?shape=5x5&seed=1").json()["board"].clone();
    let v = s.solve(serde_json::json!({ "board": board, "moves": true }));
    check_fallback(&v);
    let all = builds(&s);
    let b = build_of(&all, "5x5").expect("no 5x5 entry");
    assert_eq!(b["state"], "off", "{b}");
    assert_eq!(b["what"], "pattern databases", "{b}");
    assert_eq!(b["fraction"], 0.0, "{b}");
    assert!(b["memory_mb"].as_u64().unwrap() > 100, "{b}");
    assert!(
        b["error"].as_str().unwrap().contains("--no-large-builds"),
        "{b}"
    );
    let b = s.get("/api/scramble?shape=3x3&seed=1").json()["board"].clone();
    assert!(s.solve(serde_json::json!({ "board": b }))["moves"].is_u64());
    let b = s.get("/api/scramble?shape=4x4&seed=1").json()["board"].clone();
    assert!(s.solve(serde_json::json!({ "board": b }))["moves"].is_u64());
    let four = build_of(&builds(&s), "4x4").expect("no 4x4 entry");
    assert_ne!(four["state"], "off", "{four}");
    assert!(std::fs::read_dir(s.cache.path()).unwrap().all(|f| !f
        .unwrap()
        .file_name()
        .to_string_lossy()
        .contains("5x5")));
}

/// The 5x5 default goal's databases as the status counts them: the pair `zbdefault|zbalt` (6 databases, about 6.4
/// GB) within the memory budget, plain 6-6-6-6 (4, under 1 GB) under a smaller one; off either way here.
#[test]
fn the_5x5_status_counts_the_default_pair_within_the_budget() {
    for (mb, steps, memory) in [("20000", 6, 6_000..7_000), ("3000", 4, 100..1_000)] {
        let s = Serve::with_global_args(
            &["--max-memory", mb],
            &["--threads", "1", "--no-large-builds"],
        );
        let board = s.get("/api/scramble?shape=5x5&seed=2").json()["board"].clone();
        check_fallback(&s.solve(serde_json::json!({ "board": board, "moves": true })));
        let b = build_of(&builds(&s), "5x5").expect("no 5x5 entry");
        assert_eq!(b["state"], "off", "{b}");
        assert_eq!(b["steps"], steps, "--max-memory {mb}: {b}");
        assert!(
            memory.contains(&b["memory_mb"].as_u64().unwrap()),
            "--max-memory {mb}: {b}"
        );
    }
}

/// With `--max-memory` under a build's need, the library refuses it: the status says failed with the library's
/// words, and the answers go on without it.
#[test]
fn builds_over_the_memory_limit_fail_and_say_why() {
    let cache = tempfile::tempdir().unwrap();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("slide"))
        .args([
            // 2 MB: the 6-tile databases of 4 x 4 need about 6 MB (through the zero-aware build), the 3-tile one
            // far less, so a small database may build before a large one is refused.
            "--max-memory",
            "2",
            "serve",
            "--port",
            "0",
            "--threads",
            "2",
        ])
        .env("SLIDE_CACHE_DIR", cache.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start slide serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("first line: {line:?}"));
    let s = Serve {
        child,
        addr: url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string(),
        cache,
    };
    let board = s.get("/api/scramble?shape=4x4&seed=3").json()["board"].clone();
    let give_up = Instant::now() + Duration::from_secs(120);
    let b = loop {
        let v = s.solve(serde_json::json!({ "board": board }));
        assert_eq!(v["optimal"], true, "{v}");
        let b = build_of(&builds(&s), "4x4").expect("no 4x4 entry");
        if b["state"] == "failed" {
            break b;
        }
        assert!(
            ["queued", "loading", "building"].contains(&b["state"].as_str().unwrap()),
            "{b}"
        );
        assert!(Instant::now() < give_up, "{b}");
        std::thread::sleep(Duration::from_millis(20));
    };
    let e = b["error"].as_str().unwrap();
    assert!(
        e.contains("MB allowed (--max-memory)") && e.contains("4x4"),
        "{b}"
    );
}

#[test]
fn stalled_clients_do_not_hold_the_solvers() {
    let s = Serve::with_args(&["--threads", "1"]);
    // Clients that send half a body, or half the headers, and then nothing.
    let mut stalled = Vec::new();
    for _ in 0..4 {
        let mut c = s.connect();
        c.write_all(
            format!("POST /api/solve HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{{\"board\":", s.addr).as_bytes(),
        )
        .unwrap();
        stalled.push(c);
        let mut c = s.connect();
        c.write_all(b"POST /api/solve HTTP/1.1\r\nHost: te")
            .unwrap();
        stalled.push(c);
    }
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    for _ in 0..3 {
        assert_eq!(
            s.solve(serde_json::json!({"board": "4 1 2/5 0 3"}))["moves"],
            5
        );
    }
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert_eq!(s.get("/").status, 200);
    drop(stalled);
}

#[test]
fn foreign_hosts_are_refused() {
    let s = Serve::with_args(&["--allow-host", "Slide.Test"]);
    let port = s.addr.rsplit(':').next().unwrap().to_string();
    let solve_body = r#"{"board": "4 1 2/5 0 3"}"#;
    // A web page whose name resolves to 127.0.0.1 (DNS rebinding) sends its own name.
    for host in [
        "evil.example".to_string(),
        format!("evil.example:{port}"),
        "localhost.evil.example".to_string(),
        "127.0.0.2".to_string(),
        format!("[::1]:{port}"),
    ] {
        for (method, path, body) in [
            ("GET", "/", None),
            ("GET", "/api/scramble?shape=3x3", None),
            ("POST", "/api/solve", Some(solve_body)),
            ("GET", "/nope", None),
        ] {
            let r = s.raw(&request_bytes(&host, method, path, body, true));
            assert_eq!(r.status, 403, "Host {host}: {method} {path}: {}", r.body);
            assert_eq!(r.header("content-type"), Some("application/json"));
            let e = r.json()["error"].as_str().unwrap().to_string();
            assert!(e.contains("--allow-host"), "{e}");
        }
    }
    // An absolute request target names the host too; no Host at all is refused.
    let r = s.raw(
        format!(
            "GET http://evil.example:{port}/ HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            s.addr
        )
        .as_bytes(),
    );
    assert_eq!(r.status, 403, "{}", r.body);
    let r = s.raw(b"GET / HTTP/1.0\r\n\r\n");
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.json()["error"].as_str().unwrap().contains("no Host"));
    // The bound address (with or without the port), localhost, and the --allow-host name are answered.
    for host in [
        s.addr.clone(),
        "127.0.0.1".to_string(),
        "localhost".to_string(),
        format!("localhost:{port}"),
        format!("LocalHost:{port}"),
        "slide.test".to_string(),
        format!("SLIDE.TEST:{port}"),
    ] {
        let r = s.raw(&request_bytes(
            &host,
            "POST",
            "/api/solve",
            Some(solve_body),
            true,
        ));
        assert_eq!(r.status, 200, "Host {host}: {}", r.body);
        assert_eq!(r.json()["moves"], 5);
        let r = s.raw(&request_bytes(&host, "GET", "/", None, true));
        assert_eq!(r.status, 200, "Host {host}");
    }
    // A bad --allow-host is a usage error.
    let out = Command::new(assert_cmd::cargo::cargo_bin("slide"))
        .args(["serve", "--port", "0", "--allow-host", "a b"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--allow-host"));
}

#[test]
fn posts_must_be_json() {
    let s = Serve::start();
    let body = r#"{"board": "4 1 2/5 0 3"}"#;
    let post_as = |ctype: Option<&str>| {
        let mut r = format!(
            "POST /api/solve HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n",
            s.addr,
            body.len()
        );
        if let Some(t) = ctype {
            r.push_str(&format!("Content-Type: {t}\r\n"));
        }
        r.push_str("\r\n");
        r.push_str(body);
        s.raw(r.as_bytes())
    };
    // What a cross-site form or a "simple" fetch can send without the browser asking the server first.
    for ctype in [
        Some("text/plain"),
        Some("text/plain;charset=UTF-8"),
        Some("application/x-www-form-urlencoded"),
        Some("multipart/form-data; boundary=x"),
        None,
    ] {
        let r = post_as(ctype);
        assert_eq!(r.status, 415, "{ctype:?}: {}", r.body);
        assert_eq!(r.header("content-type"), Some("application/json"));
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(e.contains("application/json"), "{e}");
    }
    for ctype in [
        "application/json",
        "application/json; charset=utf-8",
        "Application/JSON",
    ] {
        let r = post_as(Some(ctype));
        assert_eq!(r.status, 200, "{ctype}: {}", r.body);
        assert_eq!(r.json()["moves"], 5);
    }
}

/// The server's thread count (Linux), from /proc.
fn threads_of(pid: u32) -> Option<usize> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
}

/// A small version of `scripts/stall-serve.py`: 200 connections that stall (half the headers, nothing at all, or
/// half a body) hold no thread and do not keep solves waiting, and the server closes them itself.
#[test]
fn stalled_connections_are_closed_by_the_server() {
    let s = Serve::with_args(&["--threads", "2"]);
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut stalled = Vec::new();
    for i in 0..200 {
        let mut c = s.connect();
        match i % 3 {
            0 => c.write_all(b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le").unwrap(),
            1 => {}
            _ => c
                .write_all(
                    format!("POST /api/solve HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{{\"board\":", s.addr).as_bytes(),
                )
                .unwrap(),
        }
        stalled.push(c);
    }
    let opened = Instant::now();
    std::thread::sleep(Duration::from_millis(300));
    // Solves are answered meanwhile (generous bounds: this is no benchmark).
    for _ in 0..5 {
        let t = Instant::now();
        assert_eq!(
            s.solve(serde_json::json!({"board": "4 1 2/5 0 3"}))["moves"],
            5
        );
        assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    }
    if let Some(n) = threads_of(s.child.id()) {
        assert!(n <= 4 * cores + 16, "{n} threads on {cores} cores");
    }
    // The stalled connections were still open (held by the server, not refused) while the solves went through.
    for c in &stalled {
        c.set_nonblocking(true).unwrap();
        let mut b = [0u8; 1];
        let e = c.peek(&mut b).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::WouldBlock);
        c.set_nonblocking(false).unwrap();
    }
    // The server closes every one of them: the half bodies after a 408, the others without a word.
    for (i, c) in stalled.iter_mut().enumerate() {
        c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut got = Vec::new();
        match c.read_to_end(&mut got) {
            Ok(_) => {}
            Err(e) => assert_eq!(
                e.kind(),
                std::io::ErrorKind::ConnectionReset,
                "connection {i}: {e}"
            ),
        }
        let text = String::from_utf8_lossy(&got);
        if i % 3 == 2 {
            assert!(text.starts_with("HTTP/1.1 408"), "connection {i}: {text:?}");
        } else {
            assert!(!text.contains("HTTP/1.1 2"), "connection {i}: {text:?}");
        }
    }
    let took = opened.elapsed();
    assert!(took < Duration::from_secs(20), "closed after {took:?}");
    assert_eq!(s.get("/").status, 200);
}

/// Ctrl-C (SIGINT) stops the server with status 0, even with a connection left hanging.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_server() {
    let mut s = Serve::start();
    assert_eq!(s.get("/").status, 200);
    let mut hanging = s.connect();
    hanging.write_all(b"GET / HTTP/1.1\r\nHo").unwrap();
    let kill = Command::new("kill")
        .args(["-INT", &s.child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let t = Instant::now();
    let status = loop {
        if let Some(st) = s.child.try_wait().unwrap() {
            break st;
        }
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "still running after SIGINT"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(0));
    let mut rest = Vec::new();
    let _ = hanging.read_to_end(&mut rest);
}

/// A client that asks for pages and never reads them cannot hold its connection: once the answers fill the
/// socket buffers, the server gives up on the write within its deadline (10 s) and closes the connection.
#[test]
fn clients_that_do_not_read_are_dropped() {
    let s = Serve::start();
    let page = s.get("/").body.len();
    let c = s.connect();
    // Far more answers than the loopback socket buffers hold (32 MiB), pipelined; never read until later.
    let n = (32 << 20) / page + 1;
    let mut w = c.try_clone().unwrap();
    w.set_write_timeout(Some(Duration::from_secs(40))).unwrap();
    let one = request_bytes(&s.addr, "GET", "/", None, false);
    let writer = std::thread::spawn(move || {
        for _ in 0..n {
            if w.write_all(&one).is_err() {
                break; // the server closed the connection
            }
        }
    });
    std::thread::sleep(Duration::from_secs(16));
    // Now read what is there: the connection must end (EOF or reset) well before every answer arrives.
    let mut r = c;
    r.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut got = 0usize;
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match r.read(&mut buf) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => panic!("after {got} bytes: {e}"),
        }
    }
    writer.join().unwrap();
    assert!(
        got < n * page / 2,
        "received {got} bytes of {n} pages of {page}: the connection was not cut"
    );
    assert_eq!(s.get("/").status, 200);
}

// ---------------------------------------------------------------------------------------------------------------
// POST /api/analyse: a reference analysis (breadth-first distances) and a writer of the notations, written here
// ---------------------------------------------------------------------------------------------------------------

/// The letter of the direction in which tile `t` moves when it slides into the blank of `b` (the community
/// convention: `U` is the tile below the blank moving up).
fn tile_letter(cols: usize, b: &[u8], t: u8) -> char {
    let blank = b.iter().position(|&x| x == 0).unwrap();
    let at = b.iter().position(|&x| x == t).unwrap();
    let (br, bc, tr, tc) = (blank / cols, blank % cols, at / cols, at % cols);
    match (tr as isize - br as isize, tc as isize - bc as isize) {
        (1, 0) => 'U',
        (-1, 0) => 'D',
        (0, 1) => 'L',
        (0, -1) => 'R',
        _ => panic!("tile {t} is not next to the blank of {b:?}"),
    }
}

/// A sequence of tiles played from a board, written in every notation.
struct Notations {
    tiles: String,
    long: String,
    short: String,
    /// The blank's directions (the opposite letters).
    blank: String,
}

fn notations(cols: usize, board: &[u8], tiles: &[u8]) -> Notations {
    let mut b = board.to_vec();
    let mut long = String::new();
    for &t in tiles {
        long.push(tile_letter(cols, &b, t));
        b = slide_reference::replay(cols, &b, &[t as u32]).unwrap();
    }
    let blank = long
        .chars()
        .map(|c| match c {
            'U' => 'D',
            'D' => 'U',
            'L' => 'R',
            _ => 'L',
        })
        .collect();
    let letters: Vec<char> = long.chars().collect();
    let mut short = String::new();
    let mut i = 0;
    while i < letters.len() {
        let j = (i..letters.len())
            .find(|&j| letters[j] != letters[i])
            .unwrap_or(letters.len());
        short.push(letters[i]);
        if j - i > 1 {
            short.push_str(&(j - i).to_string());
        }
        i = j;
    }
    let tiles = tiles
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    Notations {
        tiles,
        long,
        short,
        blank,
    }
}

/// The tile that moved between two boards one move apart.
fn moved_tile(before: &[u8], after: &[u8]) -> u8 {
    after[before.iter().position(|&t| t == 0).unwrap()]
}

/// A shortest solution by the reference: from each board, a move to a board one closer.
fn reference_solution(r: &Reference, rows: usize, cols: usize, board: &[u8]) -> Vec<u8> {
    let mut b = board.to_vec();
    let mut d = r.distance(&b).unwrap();
    let mut tiles = Vec::new();
    while d > 0 {
        let next = slide_reference::neighbours(rows, cols, &b, Metric::Stm)
            .into_iter()
            .find(|n| r.distance(n) == Some(d - 1))
            .unwrap();
        tiles.push(moved_tile(&b, &next));
        b = next;
        d -= 1;
    }
    tiles
}

/// A shortest solution with a detour (a tile moved away from the goal and back) inserted after the first `k`
/// moves, or after the first later position where some move leads away; returns the moves and where the detour
/// starts (0-based).
fn with_detour(
    r: &Reference,
    rows: usize,
    cols: usize,
    board: &[u8],
    k: usize,
) -> (Vec<u8>, usize) {
    let sol = reference_solution(r, rows, cols, board);
    let mut b = slide_reference::replay(
        cols,
        board,
        &sol[..k].iter().map(|&t| t as u32).collect::<Vec<_>>(),
    )
    .unwrap();
    for at in k..sol.len() {
        let d = r.distance(&b).unwrap();
        if let Some(away) = slide_reference::neighbours(rows, cols, &b, Metric::Stm)
            .into_iter()
            .find(|n| r.distance(n) == Some(d + 1))
        {
            let t = moved_tile(&b, &away);
            let mut tiles = sol.clone();
            tiles.splice(at..at, [t, t]);
            return (tiles, at);
        }
        b = slide_reference::replay(cols, &b, &[sol[at] as u32]).unwrap();
    }
    panic!("no move leads away from the goal along the solution of {board:?}");
}

/// The analysis of `tiles` played from `board` by the reference's distances: the fields of `slide analyse --json`.
fn reference_analysis(
    r: &Reference,
    cols: usize,
    board: &[u8],
    goal: &[u8],
    tiles: &[u8],
) -> Value {
    let optimal = r.distance(board).unwrap() as i64;
    let mut b = board.to_vec();
    let (mut distances, mut mistakes) = (Vec::new(), Vec::new());
    let mut prev = optimal;
    for (i, &t) in tiles.iter().enumerate() {
        b = slide_reference::replay(cols, &b, &[t as u32]).expect("a legal move");
        let d = r
            .distance(&b)
            .expect("a board within the reference's reach") as i64;
        if d >= prev {
            mistakes.push(i + 1);
        }
        distances.push(d);
        prev = d;
    }
    let solves = b == goal;
    let runs = notations(cols, board, tiles)
        .short
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .count();
    serde_json::json!({
        "solves": solves,
        "length": tiles.len(),
        "mtm_length": runs,
        "optimal": optimal,
        "over": if solves { Value::from(tiles.len() as i64 - optimal) } else { Value::Null },
        "distances": distances,
        "mistakes": mistakes,
    })
}

/// Checks an answer of /api/analyse against the reference's fields and the board sent.
fn check_analysis(got: &Value, want: &Value, board: &Value) {
    assert_eq!(&got["board"], board, "{got}");
    for field in [
        "solves",
        "length",
        "mtm_length",
        "optimal",
        "over",
        "distances",
        "mistakes",
    ] {
        assert_eq!(got[field], want[field], "{field}: got {got}, want {want}");
    }
    assert_eq!(
        got.as_object().unwrap().len(),
        8,
        "exactly the fields of slide analyse --json: {got}"
    );
}

fn rows_json(cells: &[u8], cols: usize) -> Value {
    serde_json::json!(cells.chunks(cols).collect::<Vec<_>>())
}

#[test]
fn analyses_of_3x3_solves_with_detours_match_a_bfs() {
    let s = Serve::start();
    let goal = slide_reference::goal(9);
    let r = Reference::new(3, 3, &goal, Metric::Stm);
    let cache = tempfile::tempdir().unwrap();
    for seed in 0..4u64 {
        let board_v = s
            .get(&format!("/api/scramble?shape=3x3&seed={seed}"))
            .json()["board"]
            .clone();
        let (_, _, board) = rows_of(&board_v);
        if r.distance(&board) == Some(0) {
            continue;
        }
        let (tiles, at) = with_detour(&r, 3, 3, &board, seed as usize * 3);
        let want = reference_analysis(&r, 3, &board, &goal, &tiles);
        // A detour of two moves placed at a known place: one mistake there, two moves over.
        assert_eq!(want["mistakes"], serde_json::json!([at + 1]), "{want}");
        assert_eq!(
            (&want["over"], &want["solves"]),
            (&Value::from(2), &Value::from(true))
        );

        let w = notations(3, &board, &tiles);
        // Lower case, a space between moves (a letter and its count stay together).
        let mut spaced = String::new();
        for c in w.short.to_lowercase().chars() {
            if c.is_ascii_alphabetic() && !spaced.is_empty() {
                spaced.push_str("  ");
            }
            spaced.push(c);
        }
        let slash = board
            .chunks(3)
            .map(|r| {
                r.iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("/");
        let first = s.analyse(serde_json::json!({"board": board_v, "moves": w.tiles}));
        check_analysis(&first, &want, &board_v);
        // The same sequence in every notation, and the board as text: the same analysis.
        for body in [
            serde_json::json!({"board": board_v, "moves": tiles}),
            serde_json::json!({"board": board_v, "moves": w.long}),
            serde_json::json!({"board": board_v, "moves": w.short}),
            serde_json::json!({"board": board_v, "moves": spaced}),
            serde_json::json!({"board": board_v, "moves": w.blank, "blank": true}),
            serde_json::json!({"board": board_v, "moves": w.blank.to_lowercase(), "blank": true, "goal": "1 2 3/4 5 6/7 8 0"}),
            serde_json::json!({"board": slash, "moves": w.short, "blank": false}),
        ] {
            assert_eq!(s.analyse(body.clone()), first, "{body}");
        }
        // Exactly what `slide analyse --json` prints.
        let out = Command::new(assert_cmd::cargo::cargo_bin("slide"))
            .args(["analyse", "--json", &slash, &w.short])
            .env("SLIDE_CACHE_DIR", cache.path())
            .output()
            .unwrap();
        assert!(out.status.success());
        let line = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(line.trim()).unwrap(),
            first,
            "{line}"
        );
        // A sequence that stops short of the goal does not solve: no "over".
        let part = &tiles[..tiles.len() - 1];
        let got = s.analyse(serde_json::json!({"board": board_v, "moves": part}));
        check_analysis(
            &got,
            &reference_analysis(&r, 3, &board, &goal, part),
            &board_v,
        );
        assert_eq!(
            (&got["solves"], &got["over"]),
            (&Value::from(false), &Value::Null)
        );
    }
}

#[test]
fn analyses_towards_a_custom_goal() {
    let s = Serve::start();
    let goal = slide_reference::goal_with_blank(6, 0);
    let r = Reference::new(2, 3, &goal, Metric::Stm);
    for (i, board) in r.farthest().iter().take(3).enumerate() {
        let (tiles, at) = with_detour(&r, 2, 3, board, i * 4);
        let want = reference_analysis(&r, 3, board, &goal, &tiles);
        assert_eq!(want["mistakes"], serde_json::json!([at + 1]));
        let board_v = rows_json(board, 3);
        let got = s.analyse(serde_json::json!({
            "board": board_v,
            "goal": rows_json(&goal, 3),
            "moves": notations(3, board, &tiles).short,
        }));
        check_analysis(&got, &want, &board_v);
        assert_eq!(got["optimal"], r.diameter());
    }
}

#[test]
fn analyses_of_4x4_solves_match_a_bounded_bfs() {
    let s = Serve::start();
    let goal = slide_reference::goal(16);
    // Every board within 14 moves of the goal: the walks below stay within 10, the detours add 2.
    let r = Reference::within(4, 4, &goal, Metric::Stm, 14);
    let mut seed = 99u64;
    for walk in [6usize, 10, 10] {
        let mut b = goal.clone();
        for _ in 0..walk {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let ns = neighbours(&b, 4, 4);
            b = ns[(seed >> 33) as usize % ns.len()].clone();
        }
        if r.distance(&b) == Some(0) {
            continue;
        }
        let (tiles, at) = with_detour(&r, 4, 4, &b, 1);
        let want = reference_analysis(&r, 4, &b, &goal, &tiles);
        assert_eq!(want["mistakes"], serde_json::json!([at + 1]));
        let board_v = rows_json(&b, 4);
        let w = notations(4, &b, &tiles);
        let got = s.analyse(serde_json::json!({"board": board_v, "moves": w.short}));
        check_analysis(&got, &want, &board_v);
        assert_eq!(
            s.analyse(serde_json::json!({"board": board_v, "moves": w.blank, "blank": true})),
            got
        );
    }
}

#[test]
fn bad_analyse_requests_are_400_naming_the_problem() {
    let s = Serve::start();
    let cases: &[(&str, &[&str])] = &[
        (
            r#"{"board": "4 1 2/5 0 3", "moves": "RUX"}"#,
            &["unknown letter 'X' at column 3"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": "RD0"}"#,
            &["count", "column 3"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": "R0"}"#,
            &["count 0 at column 2"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": "U"}"#,
            &["move 1 (U): no tile below the blank"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": "R D L2 U L"}"#,
            &["move 6 (L):"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": "d", "blank": true}"#,
            &["move 1 (D):"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": "5 4 1 9"}"#,
            &["move 4 (9):", "no tile 9"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": [5, 1]}"#,
            &["move 2 (1): tile 1 is not next to the blank"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": [0]}"#,
            &["move 1 (0)", "blank"],
        ),
        (r#"{"board": "4 1 2/5 0 3"}"#, &["needs \"moves\""]),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": null}"#,
            &["needs \"moves\""],
        ),
        (r#"{"moves": "R"}"#, &["needs a \"board\""]),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": ""}"#,
            &["no moves given"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": "  "}"#,
            &["no moves given"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": []}"#,
            &["no moves given"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": 5}"#,
            &["\"moves\" must be a string", "not 5"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": true}"#,
            &["\"moves\" must be a string", "not true"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": {"a": 1}}"#,
            &["\"moves\" must be a string"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": [5, "4"]}"#,
            &["item 2", "\"4\"", "not a tile number"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": [5, 4.5]}"#,
            &["item 2", "4.5"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": [-5]}"#,
            &["item 1", "-5"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": [99999999999]}"#,
            &["item 1", "too large"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": "5 x"}"#,
            &["not a number", "\"x\""],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": "R", "blank": "yes"}"#,
            &["\"blank\" must be true or false"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": "R10001"}"#,
            &["10001 moves", "at most 10000"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": "R99999999999"}"#,
            &["too long"],
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": "R", "goal": "1 2/3 0"}"#,
            &["goal"],
        ),
        (
            r#"{"board": [[4,1,2],[5,0,+3]], "moves": "R"}"#,
            &["not valid JSON"],
        ),
        (
            r#"{"board": "[[4,1,2],[5,0,+3]]", "moves": "R"}"#,
            &["not a JSON number: \"+3\" at column 15"],
        ),
        (
            r#"{"board": [[4,1,2],[5,5,0]], "moves": "R"}"#,
            &["duplicate value 5"],
        ),
        ("", &["empty request body"]),
        ("[1]", &["JSON object"]),
    ];
    for (body, needles) in cases {
        let e = s.error_from("/api/analyse", body, 400);
        for n in *needles {
            assert!(e.contains(n), "{body}: error {e:?} does not contain {n:?}");
        }
    }
    // Too many tile numbers as well: the limit is counted in moves, however written.
    let many = vec![5; 10_001];
    let e = s.error_from(
        "/api/analyse",
        &serde_json::json!({"board": "4 1 2/5 0 3", "moves": many}).to_string(),
        400,
    );
    assert!(e.contains("at most 10000"), "{e}");
    // The checks of /api/solve: method, content type, size.
    let r = s.get("/api/analyse");
    assert_eq!((r.status, r.header("allow")), (405, Some("POST")));
    let r = s.raw(
        format!(
            "POST /api/analyse HTTP/1.1\r\nHost: {}\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}",
            s.addr
        )
        .as_bytes(),
    );
    assert_eq!(r.status, 415, "{}", r.body);
    let big = format!(
        r#"{{"board": "4 1 2/5 0 3", "moves": "{}"}}"#,
        "R".repeat(70_000)
    );
    assert_eq!(s.post("/api/analyse", &big).status, 413);
    // Still answering.
    assert_eq!(
        s.analyse(serde_json::json!({"board": "4 1 2/5 0 3", "moves": "RDL2U"}))["over"],
        0
    );
}

#[test]
fn analyses_stop_within_the_budget() {
    let s = Serve::with_args(&["--timeout", "1", "--threads", "2"]);
    // A random 4x4 board and 200 moves of one tile back and forth: far beyond what a debug build proves in 1 s.
    let board = s.get("/api/scramble?shape=4x4&seed=3").json()["board"].clone();
    let (_, cols, cells) = rows_of(&board);
    let blank = cells.iter().position(|&t| t == 0).unwrap();
    let next = if blank % cols > 0 {
        blank - 1
    } else {
        blank + 1
    };
    let moves = vec![cells[next]; 200];
    let t = Instant::now();
    let e = s.error_from(
        "/api/analyse",
        &serde_json::json!({"board": board, "moves": moves}).to_string(),
        503,
    );
    let took = t.elapsed();
    assert!(
        e.contains("did not finish within the server's budget") && e.contains("1 s"),
        "{e}"
    );
    assert!(took < Duration::from_secs(8), "took {took:?}");
    // The server is still answering.
    assert_eq!(
        s.analyse(serde_json::json!({"board": "4 1 2/5 0 3", "moves": "5 4 1 2 3"}))["mistakes"],
        serde_json::json!([])
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Pictures, statistics and the metric
// ---------------------------------------------------------------------------------------------------------------

/// The colour sampled inside `cell` of a picture of the longer side `size` (the layout written again: a margin of
/// 0.08 cells; a tile is sampled 0.42 of a cell left of its centre, clear of its number; the blank at its centre).
fn colour_at(
    rgba: &[u8],
    width: u32,
    rows: usize,
    cols: usize,
    size: u32,
    cell: usize,
    blank: bool,
) -> [u8; 3] {
    let u = f64::from(size) / (rows.max(cols) as f64 + 0.16);
    let (r, c) = ((cell / cols) as f64, (cell % cols) as f64);
    let dx = if blank { 0.0 } else { 0.42 };
    let (x, y) = (
        ((0.08 + c + 0.5 - dx) * u) as usize,
        ((0.08 + r + 0.5) * u) as usize,
    );
    let i = 4 * (y * width as usize + x);
    [rgba[i], rgba[i + 1], rgba[i + 2]]
}

/// The size of a picture of a 2x3 board whose longer side is `size`: the margin of 0.08 cells around 3 × 2 cells.
fn size_2x3(size: u32) -> (u32, u32) {
    let u = f64::from(size) / 3.16;
    (size, (2.16 * u).round() as u32)
}

/// Checks a picture of `cells` in the plain light scheme: every tile the tile colour, the blank the background.
fn check_plain_light(rgba: &[u8], width: u32, rows: usize, cols: usize, size: u32, cells: &[u8]) {
    let style = slide::render::Style::default();
    let goal = slide::Board::goal(slide::Shape::new(rows, cols).unwrap());
    let bg = style.background();
    let fill = style.fill(&goal, 0);
    for (cell, &t) in cells.iter().enumerate() {
        let want = if t == 0 { bg } else { fill };
        assert_eq!(
            colour_at(rgba, width, rows, cols, size, cell, t == 0),
            [want.0, want.1, want.2],
            "tile {t} at cell {cell} of {cells:?}"
        );
    }
}

/// The number of multi-tile moves of a sequence of tiles played from `cells`: its maximal runs of one direction of
/// the blank.
fn mtm_runs(cells: &[u8], cols: usize, tiles: &[u8]) -> usize {
    let mut b = cells.to_vec();
    let mut last = None;
    let mut runs = 0;
    for &t in tiles {
        let blank = b.iter().position(|&x| x == 0).unwrap() as isize;
        let at = b.iter().position(|&x| x == t).unwrap() as isize;
        let dir = at - blank;
        if last != Some(dir) {
            runs += 1;
        }
        last = Some(dir);
        play(&mut b, cols, t);
    }
    runs
}

#[test]
fn renders_boards_and_animations_that_decode() {
    let s = Serve::start();
    // A still PNG: the right type and file name, the size asked for, each cell's colour.
    let r = s.get("/api/render?board=4+1+2/5+0+3&format=png&size=150");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("content-type"), Some("image/png"));
    assert_eq!(
        r.header("content-disposition"),
        Some("attachment; filename=\"slide-2x3.png\"")
    );
    let (w, h, px) = decode_png(&r.bytes);
    assert_eq!((w, h), size_2x3(150));
    check_plain_light(&px, w, 2, 3, 150, &[4, 1, 2, 5, 0, 3]);
    // The default format of a still picture is PNG; JSON rows and the fringe scheme in the dark theme.
    let r =
        s.get("/api/render?board=%5B%5B1,2,3%5D,%5B4,0,5%5D%5D&scheme=fringe&theme=dark&size=90");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("content-type"), Some("image/png"));
    let (w, h, px) = decode_png(&r.bytes);
    assert_eq!((w, h), size_2x3(90));
    let style = slide::render::Style {
        size: 90,
        scheme: slide::render::Scheme::Fringe,
        theme: slide::render::Theme::Dark,
    };
    let goal = slide::Board::goal("2x3".parse().unwrap());
    let fills = style.fills(&goal);
    for (cell, t) in [1u8, 2, 3, 4, 0, 5].into_iter().enumerate() {
        let want = if t == 0 {
            style.background()
        } else {
            fills[t as usize]
        };
        assert_eq!(
            colour_at(&px, w, 2, 3, 90, cell, t == 0),
            [want.0, want.1, want.2],
            "tile {t}"
        );
    }

    // SVG: each tile's number once.
    let r = s.get("/api/render?board=4+1+2/5+0+3&format=svg");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("content-type"), Some("image/svg+xml"));
    assert_eq!(
        r.header("content-disposition"),
        Some("attachment; filename=\"slide-2x3.svg\"")
    );
    let doc = roxmltree::Document::parse(&r.body).unwrap();
    let mut numbers: Vec<u32> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap().trim().parse().unwrap())
        .collect();
    numbers.sort();
    assert_eq!(numbers, [1, 2, 3, 4, 5]);

    // Typed moves as a GIF: a frame per position and 3 in-between frames per move (8 tiles per second); the
    // positions replayed here.
    let r = s.get("/api/render?board=4+1+2/5+0+3&moves=r+d+l2+u&size=120");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("content-type"), Some("image/gif"));
    assert_eq!(
        r.header("content-disposition"),
        Some("attachment; filename=\"slide-2x3-moves.gif\"")
    );
    assert_eq!(r.header("x-slide-optimal"), None);
    let (w, h, frames) = decode_gif(&r.bytes);
    assert_eq!((w, h), size_2x3(120));
    assert_eq!(frames.len(), 5 * 4 + 1);
    let mut cells = vec![4u8, 1, 2, 5, 0, 3];
    check_plain_light(&frames[0], w, 2, 3, 120, &cells);
    // r d l2 u: the tile left of the blank moves right (5), the one above it down (4), the two right of it left
    // (1, 2), the one below it up (3).
    for (i, t) in [5u8, 4, 1, 2, 3].into_iter().enumerate() {
        play(&mut cells, 3, t);
        check_plain_light(&frames[4 * (i + 1)], w, 2, 3, 120, &cells);
    }

    // The optimal solution as a GIF: as many positions as the BFS distance, marked optimal; the last frame the goal.
    let dist = distances_2x3();
    for board in ["4 1 2/5 0 3", "0 1 2/4 5 3", "5 4 0/2 1 3"] {
        let cells: Vec<u8> = board
            .split([' ', '/'])
            .map(|t| t.parse().unwrap())
            .collect();
        let d = dist[&cells] as usize;
        let q = board.replace(' ', "+");
        let r = s.get(&format!("/api/render?board={q}&solve=1&size=60"));
        assert_eq!(r.status, 200, "{board}: {}", r.body);
        assert_eq!(r.header("content-type"), Some("image/gif"));
        assert_eq!(r.header("x-slide-optimal"), Some("true"));
        assert_eq!(
            r.header("content-disposition"),
            Some("attachment; filename=\"slide-2x3-optimal.gif\"")
        );
        let (w, _, frames) = decode_gif(&r.bytes);
        assert_eq!(frames.len(), 4 * d + 1, "{board}: distance {d}");
        check_plain_light(frames.last().unwrap(), w, 2, 3, 60, &[1, 2, 3, 4, 5, 0]);
    }
    // An MTM solution: the file says so.
    let r = s.get("/api/render?board=4+1+2/5+0+3&solve=1&metric=mtm&size=60");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.header("content-disposition"),
        Some("attachment; filename=\"slide-2x3-optimal-mtm.gif\"")
    );

    // A recorded solve at its move times: one frame per position (no in-between frames), the last the goal; and a
    // chosen speed fast enough for none either.
    for q in ["times_ms=0,180,180,950,1204", "tps=50"] {
        let r = s.get(&format!(
            "/api/render?board=4+1+2/5+0+3&moves=RDL2U&{q}&size=60"
        ));
        assert_eq!(r.status, 200, "{q}: {}", r.body);
        assert_eq!(r.header("content-type"), Some("image/gif"));
        let (w, _, frames) = decode_gif(&r.bytes);
        assert_eq!(frames.len(), 6, "{q}");
        check_plain_light(frames.last().unwrap(), w, 2, 3, 60, &[1, 2, 3, 4, 5, 0]);
    }

    // An animated SVG of moves.
    let r = s.get("/api/render?board=4+1+2/5+0+3&moves=5+4+1+2+3&format=svg");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("content-type"), Some("image/svg+xml"));
    let doc = roxmltree::Document::parse(&r.body).unwrap();
    assert!(doc
        .descendants()
        .any(|n| n.has_tag_name("animateTransform")));
}

#[test]
fn bad_render_requests_are_400_naming_the_problem() {
    let s = Serve::start();
    let bad = |path: &str, status: u16, want: &str| {
        let r = s.get(path);
        assert_eq!(r.status, status, "{path} -> {}", r.body);
        assert_eq!(r.header("content-type"), Some("application/json"));
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(e.contains(want), "{path}: {e:?} does not say {want:?}");
    };
    bad("/api/render", 400, "missing board");
    bad("/api/render?board=1+2+3/4+x+5", 400, "board:");
    bad(
        "/api/render?board=1+2+3/4+0+5&format=jpeg",
        400,
        "unknown format \"jpeg\": expected png, gif or svg",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&format=gif",
        400,
        "format gif is an animation",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&format=png&moves=5",
        400,
        "format png is a still picture",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&moves=5&solve=1",
        400,
        "not both",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&moves=L&times_ms=0,5",
        400,
        "times_ms: more times than the 1 single-tile moves",
    );
    bad(
        "/api/render?board=4+1+2/5+0+3&moves=RD&times_ms=9,5",
        400,
        "times_ms: time 2 (5 ms) is before time 1 (9 ms)",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&moves=L&times_ms=soon",
        400,
        "times_ms: time 1 (\"soon\") is not a whole number",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&moves=L&times_ms=0&format=svg",
        400,
        "times_ms: only for a GIF",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&times_ms=0",
        400,
        "time an animation",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&moves=L&tps=60",
        400,
        "tps: \"60\" is not a number of tiles per second from 0.1 to 50",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&moves=L&tps=2&times_ms=0",
        400,
        "not both",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&solve=yes",
        400,
        "solve: \"yes\" is not 1 or 0",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&size=8",
        400,
        "8 pixels is out of range: 16 to 4096",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&size=5000",
        400,
        "out of range: 16 to 4096",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&size=big",
        400,
        "size: \"big\" is not a whole number of pixels from 16 to 4096",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&scheme=neon",
        400,
        "unknown colour scheme \"neon\"",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&theme=sepia",
        400,
        "unknown theme \"sepia\"",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&colour=red",
        400,
        "unknown parameter \"colour\"",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&size=20&size=30",
        400,
        "given twice",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&metric=mtm",
        400,
        "metric: only with solve=1",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&solve=1&metric=htm",
        400,
        "unknown metric",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&moves=",
        400,
        "moves: no moves given",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&moves=RX",
        400,
        "unknown letter 'X' at column 2",
    );
    bad("/api/render?board=1+2+3/4+0+5&moves=5+4+9", 400, "moves:");
    bad(
        "/api/render?board=1+2+3/4+0+5&moves=U",
        400,
        "move 1 (U): no tile below the blank",
    );
    bad(
        "/api/render?board=1+2+3/4+0+5&moves=L10001",
        400,
        "the server animates at most 10000 moves",
    );
    // An unsolvable board cannot be solved.
    bad(
        "/api/render?board=1+2+3/5+4+0&solve=1",
        400,
        "the goal cannot be reached",
    );
    // A GIF over the pixel limit says what the limit is, before drawing anything.
    let long = "RL".repeat(50);
    bad(
        &format!("/api/render?board=1+2+3/4+0+5&moves={long}&size=4096"),
        400,
        "more than the limit of 100000000 (frames × width × height)",
    );
    // Boards beyond the server's cells.
    let big: Vec<String> = (1..81).chain([0]).map(|t| t.to_string()).collect();
    bad(
        &format!("/api/render?board={}", big.join("+")),
        400,
        "at most 64 cells",
    );
    // Only GET.
    let e = s.error_from("/api/render", "{}", 405);
    assert!(e.contains("use GET"), "{e}");
}

#[test]
fn statistics_match_a_bfs() {
    let s = Serve::start();
    for (rows, cols) in [(2usize, 3usize), (2, 4), (3, 2)] {
        for (metric, name) in [(Metric::Stm, "stm"), (Metric::Mtm, "mtm")] {
            let reference = Reference::new(rows, cols, &slide_reference::goal(rows * cols), metric);
            let r = s.get(&format!("/api/stats?shape={rows}x{cols}&metric={name}"));
            assert_eq!(r.status, 200, "{}", r.body);
            assert_eq!(r.header("content-type"), Some("application/json"));
            let v = r.json();
            assert_eq!(v["shape"], format!("{rows}x{cols}"));
            assert_eq!(v["metric"], name);
            assert_eq!(v["states"].as_u64(), Some(reference.states()));
            assert_eq!(
                v["gods_number"].as_u64(),
                Some(u64::from(reference.diameter()))
            );
            let hist: Vec<u64> = v["histogram"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_u64().unwrap())
                .collect();
            assert_eq!(hist, reference.histogram(), "{rows}x{cols} {name}");
            // The boards listed at god's number are at that distance.
            let far = v["antipodes"].as_array().unwrap();
            assert!(!far.is_empty() && far.len() <= 16);
            for b in far {
                let (_, _, cells) = rows_of(b);
                assert_eq!(reference.distance(&cells), Some(reference.diameter()));
            }

            let r = s.get(&format!(
                "/api/stats/plot?shape={rows}x{cols}&metric={name}"
            ));
            assert_eq!(r.status, 200, "{}", r.body);
            assert_eq!(r.header("content-type"), Some("image/svg+xml"));
            let doc = roxmltree::Document::parse(&r.body).unwrap();
            let text: String = doc
                .descendants()
                .filter_map(|n| n.text())
                .collect::<Vec<_>>()
                .join("|");
            assert!(
                text.contains(&format!("god's number: {}", reference.diameter())),
                "{text}"
            );
        }
    }
    // The metric defaults to STM; a single row.
    let v = s.get("/api/stats?shape=1x7").json();
    assert_eq!(
        (v["metric"].as_str(), v["gods_number"].as_u64()),
        (Some("stm"), Some(6))
    );
    let bad = |path: &str, want: &str| {
        let r = s.get(path);
        assert_eq!(r.status, 400, "{path} -> {}", r.body);
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(e.contains(want), "{path}: {e:?} does not say {want:?}");
    };
    bad("/api/stats", "missing shape");
    bad("/api/stats?shape=3", "shape:");
    bad(
        "/api/stats?shape=3x5",
        "shape 3x5 has 15 cells: statistics count every board, for shapes of at most 12 cells",
    );
    bad("/api/stats/plot?shape=4x4", "at most 12 cells");
    bad(
        "/api/stats?shape=1x65",
        "single row or column of at most 64",
    );
    bad("/api/stats?shape=2x3&metric=htm", "unknown metric");
    bad("/api/stats?shape=2x3&seed=1", "unknown parameter \"seed\"");
}

#[test]
fn solves_in_multi_tile_moves() {
    let s = Serve::start();
    let mtm = Reference::new(2, 3, &slide_reference::goal(6), Metric::Mtm);
    let stm = distances_2x3();
    let mut boards: Vec<&Vec<u8>> = stm.keys().collect();
    boards.sort();
    for cells in boards.into_iter().step_by(7) {
        let rows = rows_json(cells, 3);
        let v = s.solve(serde_json::json!({"board": rows, "moves": true, "metric": "mtm"}));
        assert_eq!(v["metric"], "mtm");
        assert_eq!(v["optimal"], true);
        let want = mtm.distance(cells).unwrap();
        assert_eq!(v["moves"].as_u64(), Some(u64::from(want)), "{cells:?}");
        replay_to_goal(&v["board"], &v["solution"]);
        let tiles: Vec<u8> = v["solution"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_u64().unwrap() as u8)
            .collect();
        assert_eq!(mtm_runs(cells, 3, &tiles), want as usize, "{cells:?}");
        // The default stays STM.
        let v = s.solve(serde_json::json!({"board": rows}));
        assert_eq!(v["metric"], "stm");
        assert_eq!(v["moves"].as_i64(), Some(stm[cells]));
    }
    // A single row: one push.
    let v = s.solve(serde_json::json!({"board": "[[0,1,2,3,4,5,6]]", "metric": "MTM"}));
    assert_eq!(
        (v["moves"].as_u64(), v["optimal"].as_bool()),
        (Some(1), Some(true))
    );
    // Unsolvable in MTM too.
    let v = s.solve(serde_json::json!({"board": "1 2 3/5 4 0", "metric": "mtm"}));
    assert_eq!(v["moves"], -1);
    let e = s.solve_error(r#"{"board": "1 2 3/4 0 5", "metric": "htm"}"#, 400);
    assert!(
        e.contains(r#""metric": unknown metric "htm": expected "stm" or "mtm""#),
        "{e}"
    );
    let e = s.solve_error(r#"{"board": "1 2 3/4 0 5", "metric": 2}"#, 400);
    assert!(
        e.contains(r#""metric" must be "stm" or "mtm", not 2"#),
        "{e}"
    );
    let five = (1..25)
        .chain([0])
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let e = s.solve_error(
        &serde_json::json!({"board": five, "metric": "mtm"}).to_string(),
        400,
    );
    assert!(
        e.contains("at most 12 cells, 4x4 boards and single rows or columns in multi-tile moves; this board is 5x5"),
        "{e}"
    );
}

#[test]
fn typed_moves_are_played_and_bad_ones_named() {
    let s = Serve::start();
    let r = s.post(
        "/api/moves",
        r#"{"board": "4 1 2/5 0 3", "moves": "r d l2 u"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    let tiles: Vec<u8> = v["tiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_u64().unwrap() as u8)
        .collect();
    // Replayed here: the tiles slide one by one, the end is the board they leave.
    let mut cells = vec![4u8, 1, 2, 5, 0, 3];
    for &t in &tiles {
        play(&mut cells, 3, t);
    }
    assert_eq!(tiles, [5, 4, 1, 2, 3]);
    assert_eq!(rows_of(&v["end"]).2, cells);
    assert_eq!(cells, [1, 2, 3, 4, 5, 0]);
    assert_eq!(
        (v["length"].as_u64(), v["mtm_length"].as_u64()),
        (Some(5), Some(4))
    );
    // Tile numbers, and the blank's letters.
    let v = s
        .post(
            "/api/moves",
            r#"{"board": [[4,1,2],[5,0,3]], "moves": "5, 4 1"}"#,
        )
        .json();
    assert_eq!(v["tiles"], serde_json::json!([5, 4, 1]));
    let v = s
        .post(
            "/api/moves",
            r#"{"board": "4 1 2/5 0 3", "moves": "LU", "blank": true}"#,
        )
        .json();
    assert_eq!(v["tiles"], serde_json::json!([5, 4]));
    for (body, want) in [
        (
            r#"{"board": "4 1 2/5 0 3", "moves": "RD R"}"#,
            "moves: move 3 (R): no tile left of the blank",
        ),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": "RX"}"#,
            "unknown letter 'X' at column 2",
        ),
        (r#"{"board": "4 1 2/5 0 3", "moves": ""}"#, "no moves given"),
        (r#"{"board": "4 1 2/5 0 3"}"#, "needs \"moves\""),
        (
            r#"{"board": "4 1 2/5 0 3", "moves": "R99999"}"#,
            "at most 10000 moves",
        ),
    ] {
        let e = s.error_from("/api/moves", body, 400);
        assert!(e.contains(want), "{body}: {e:?} does not say {want:?}");
    }
}

/// `json` with the values of its fields `keys` replaced by `_`.
fn masked(json: &str, keys: &[&str]) -> String {
    let mut out = json.to_string();
    for key in keys {
        let field = format!("\"{key}\": ");
        let Some(at) = out.find(&field) else {
            continue;
        };
        let start = at + field.len();
        let end = start + out[start..].find([',', '}']).unwrap_or(out.len() - start);
        out.replace_range(start..end, "_");
    }
    out
}

/// The command line and the server write one answer type and one analysis type: for the same board and moves,
/// `slide solve --json` and `POST /api/solve`, `slide analyse --json` and `POST /api/analyse` give the same bytes,
/// the work done apart (the seconds, and the nodes: the server searches a shape whose table it has not loaded).
#[test]
fn the_command_line_and_the_server_write_the_same_json() {
    let s = Serve::start();
    let cli = crate::support::Slide::new();
    for (board, moves) in [
        ("4 1 2/5 0 3", true),
        ("4 1 2/5 0 3", false),
        ("1 2 3/4 5 0", true),
        ("1 2 3/5 4 0", true),
        // Without moves: the server searches where the CLI reads the table, and 3 x 3 boards may have several
        // shortest solutions.
        ("8 6 7/2 5 4/3 0 1", false),
        ("[[2,1,0]]", false),
    ] {
        let mut args = vec!["solve", "--json"];
        if moves {
            args.push("--moves");
        }
        args.push(board);
        let line = cli.ok(&args, "");
        let r = s.post(
            "/api/solve",
            &serde_json::json!({"board": board, "moves": moves}).to_string(),
        );
        assert_eq!(r.status, 200, "{board}: {}", r.body);
        let work = ["seconds", "nodes"];
        assert_eq!(
            masked(r.body.trim_end(), &work),
            masked(line.trim_end(), &work),
            "{board}"
        );
        assert!(
            line.contains("\"seconds\": ") && line.ends_with("}\n"),
            "{line}"
        );
    }
    for (board, moves) in [
        ("4 1 2/5 0 3", "5 4 1 2 3"),
        ("4 1 2/5 0 3", "RDLLU R"),
        ("1 2 3/5 4 0", "DR"),
        ("8 6 7/2 5 4/3 0 1", "1 4"),
    ] {
        let out = cli.ok(&["analyse", "--json", board, moves], "");
        let line = out.lines().next().unwrap();
        let r = s.post(
            "/api/analyse",
            &serde_json::json!({"board": board, "moves": moves}).to_string(),
        );
        assert_eq!(r.status, 200, "{board}: {}", r.body);
        assert_eq!(r.body.trim_end(), line, "{board} {moves}");
    }
}
