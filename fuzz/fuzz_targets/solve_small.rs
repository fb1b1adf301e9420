//! Small boards (at most 9 cells, any shape including single rows and columns, any goal) through `slide::Solver`,
//! every answer checked against a plain breadth-first search (the dev-only crate `slide-reference`).
//!
//! Input layout: byte 0 picks the shape, byte 1 the goal (default, blank first, or a permutation from the input),
//! byte 2 the method (table; IDA* with Manhattan, linear conflicts or pattern databases, under a node limit; or
//! weighted IDA*), byte 3 extra checks; the following bytes shuffle the board (and the goal).
//!
//! The reference: for each shape and goal blank cell, a BFS from the goal "tiles 1.. in reading order around the
//! blank" over all arrangements. A custom goal is reduced to it by renaming the tiles
//! (the tile on goal cell `c` becomes the reference goal's tile on `c`), which keeps every distance.
//!
//! Properties: distance, solvability and `solve` agree with the BFS; every returned move sequence replays, move by
//! move, from the board to the goal with exactly the reported length; IDA* answers are optimal when it finishes and
//! a proven lower bound when a limit stops it; weighted answers stay within their factor; stats match the BFS.

#![no_main]

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use libfuzzer_sys::fuzz_target;
use slide::{Board, CacheDir, Shape, Solver, Tile};
use slide::{HeuristicChoice, Method, SolveOptions};
use slide_reference::{Metric, Reference};

const SHAPES: [(usize, usize); 22] = [
    (1, 2),
    (2, 1),
    (1, 3),
    (3, 1),
    (1, 4),
    (4, 1),
    (2, 2),
    (1, 5),
    (5, 1),
    (1, 6),
    (6, 1),
    (2, 3),
    (3, 2),
    (1, 7),
    (7, 1),
    (1, 8),
    (8, 1),
    (2, 4),
    (4, 2),
    (1, 9),
    (9, 1),
    (3, 3),
];

fn solver() -> &'static Solver {
    static S: OnceLock<Solver> = OnceLock::new();
    S.get_or_init(|| Solver::builder().cache_dir(CacheDir::None).build())
}

/// The reference search of a shape towards the goal with the blank on `blank` (the dev-only crate
/// `slide-reference`), built once.
fn reference(rows: usize, cols: usize, blank: usize) -> Arc<Reference> {
    static TABLES: OnceLock<Mutex<HashMap<(usize, usize, usize), Arc<Reference>>>> =
        OnceLock::new();
    let m = TABLES.get_or_init(Default::default);
    if let Some(t) = m.lock().unwrap().get(&(rows, cols, blank)) {
        return t.clone();
    }
    let goal = slide_reference::goal_with_blank(rows * cols, blank);
    let t = Arc::new(Reference::new(rows, cols, &goal, Metric::Stm));
    m.lock().unwrap().insert((rows, cols, blank), t.clone());
    t
}

/// The reference distance from `board` to `goal`, or None when unreachable.
fn reference_distance(board: &Board, goal: &Board) -> Option<u32> {
    let s = board.shape();
    let n = s.cells();
    let canon = slide_reference::goal_with_blank(n, goal.blank());
    let mut rename = vec![0u8; n];
    for (c, &t) in goal.tiles().iter().enumerate() {
        rename[t as usize] = canon[c];
    }
    let renamed: Vec<u8> = board.tiles().iter().map(|&t| rename[t as usize]).collect();
    reference(s.rows(), s.cols(), goal.blank()).distance(&renamed)
}

/// A permutation of `0..n` shuffled by the bytes (Fisher–Yates, each byte one swap).
fn shuffle(n: usize, bytes: &mut impl Iterator<Item = u8>) -> Vec<Tile> {
    let mut p: Vec<Tile> = (0..n as Tile).collect();
    for i in (1..n).rev() {
        let j = bytes.next().unwrap_or(0) as usize % (i + 1);
        p.swap(i, j);
    }
    p
}

fn replay(board: &Board, goal: &Board, moves: &[Tile]) {
    let mut b = board.clone();
    for (i, &t) in moves.iter().enumerate() {
        b.apply(t).unwrap_or_else(|e| {
            panic!(
                "{board} -> {goal}: move {} (tile {t}) of {moves:?}: {e}",
                i + 1
            )
        });
    }
    assert_eq!(
        &b, goal,
        "{board}: the moves {moves:?} do not end on the goal"
    );
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (rows, cols) = SHAPES[data[0] as usize % SHAPES.len()];
    let shape = Shape::new(rows, cols).unwrap();
    let n = shape.cells();
    let mut bytes = data[4..].iter().copied();
    let board = Board::new(shape, shuffle(n, &mut bytes)).unwrap();
    let goal = match data[1] % 4 {
        0 | 1 => Board::goal(shape),
        2 => Board::goal_blank_first(shape),
        _ => Board::new(shape, shuffle(n, &mut bytes)).unwrap(),
    };
    let want = reference_distance(&board, &goal);
    let s = solver();

    assert_eq!(
        board.is_solvable(&goal),
        Ok(want.is_some()),
        "{board} -> {goal}"
    );
    let d = s
        .distance(&board, &goal)
        .unwrap_or_else(|e| panic!("{board} -> {goal}: {e}"));
    assert_eq!(d, want.map_or(-1, i64::from), "distance {board} -> {goal}");

    let sol = s
        .solve(&board, &goal)
        .unwrap_or_else(|e| panic!("{board} -> {goal}: {e}"));
    assert!(sol.is_optimal());
    assert_eq!(sol.distance(), want.map(u64::from), "solve {board} -> {goal}");
    assert_eq!(sol.is_unsolvable(), want.is_none());
    if let Some(m) = sol.moves() {
        assert_eq!(sol.lower_bound(), m.len() as u64);
        replay(&board, &goal, m);
        let dirs = sol.directions(&board).expect("moves replay");
        assert_eq!(dirs.len(), m.len());
    }

    // IDA* on the same board, under a node limit.
    let heuristic = match data[2] % 8 {
        0..=2 => None,
        3 => Some(HeuristicChoice::Manhattan),
        4 | 5 => Some(HeuristicChoice::LinearConflict),
        6 => Some(HeuristicChoice::Pdb(slide::PartitionSpec::Default)),
        _ => Some(HeuristicChoice::Auto),
    };
    if let Some(h) = heuristic {
        let weight = (data[3] & 0x80 != 0).then(|| 1.0 + f64::from(data[3] & 0x7f) / 32.0);
        let opts = SolveOptions {
            method: Method::Search,
            heuristic: h,
            max_nodes: Some(20_000),
            weight,
            ..SolveOptions::default()
        };
        let r = s
            .solve_with(&board, &goal, &opts)
            .unwrap_or_else(|e| panic!("search {board} -> {goal}: {e}"));
        match (want, r.moves()) {
            (None, m) => {
                assert!(
                    m.is_none() && r.is_unsolvable() && r.is_optimal(),
                    "{board} -> {goal}: {r:?}"
                );
            }
            (Some(w), Some(m)) => {
                replay(&board, &goal, m);
                assert!(
                    r.lower_bound() <= u64::from(w),
                    "{board}: bound {} > {w}",
                    r.lower_bound()
                );
                match weight.filter(|&x| x > 1.0) {
                    None => {
                        assert_eq!(m.len() as u32, w, "IDA* {board} -> {goal}: {r:?}");
                        assert!(r.is_optimal());
                    }
                    Some(x) => {
                        let len = m.len() as f64;
                        assert!(
                            len >= w as f64 && len <= x * w as f64 + 1e-9,
                            "weight {x}: {len} vs {w}"
                        );
                    }
                }
            }
            (Some(w), None) => {
                assert!(!r.is_optimal() && !r.is_unsolvable(), "{board} -> {goal}: {r:?}");
                assert!(
                    r.lower_bound() <= u64::from(w),
                    "{board}: stopped, bound {} > {w}",
                    r.lower_bound()
                );
            }
        }
    }

    // Whole-space statistics, now and then.
    if data[3] & 0x7f == 0x55 {
        let st = s.stats(&goal).expect("stats");
        let table = reference(rows, cols, goal.blank());
        let (reached, far) = (table.states(), table.diameter());
        assert_eq!(st.states, reached, "stats of {goal}");
        assert_eq!(st.histogram.iter().sum::<u64>(), reached);
        assert_eq!(st.histogram, table.histogram(), "histogram of {goal}");
        assert_eq!(st.diameter(), far);
        for a in &st.antipodes {
            assert_eq!(
                reference_distance(a, &goal),
                Some(far),
                "antipode {a} of {goal}"
            );
        }
    }
});
