//! Partial goals (patterns with `x`) against searches written here: a multi-source breadth-first search over full
//! boards (`slide-reference`) for 3 × 3, and over the pattern's abstract states (the fixed tiles' cells and the
//! blank's, a `HashMap` and a queue) for 4 × 4; every returned move sequence replayed to a matching board, its
//! length (pushes, in MTM) equal to the distance.
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use slide::{Board, CacheDir, Error, Metric, Pattern, Shape, SolveError, SolveOptions, Solver};
use slide_reference::{self as reference, Reference};

use crate::support::counted;
use crate::support::{quiet_builder, quiet_solver as solver, Warnings};

fn opts(metric: Metric) -> SolveOptions {
    SolveOptions {
        metric,
        ..Default::default()
    }
}

fn reference_metric(m: Metric) -> reference::Metric {
    match m {
        Metric::Stm => reference::Metric::Stm,
        Metric::Mtm => reference::Metric::Mtm,
    }
}

/// Does `cells` (a board) match the pattern `want` (per cell, the tile or `None` for x)?
fn matches(want: &[Option<u8>], cells: &[u8]) -> bool {
    want.iter()
        .zip(cells)
        .all(|(w, &t)| w.is_none_or(|w| w == t))
}

/// The pattern's text as cells: numbers, or `None` for x.
fn pattern_cells(text: &str) -> Vec<Option<u8>> {
    text.split(['/', ' '])
        .filter(|t| !t.is_empty())
        .map(|t| (t != "x").then(|| t.parse().unwrap()))
        .collect()
}

/// Replays `tiles` from `cells` and counts the runs of one direction of the blank (the multi-tile moves).
fn replay(cols: usize, cells: &[u8], tiles: &[u32]) -> (Vec<u8>, usize) {
    let mut b = cells.to_vec();
    let mut runs = 0;
    let mut last = None;
    for &t in tiles {
        let from = b.iter().position(|&x| x == 0).unwrap() as isize;
        b = reference::replay(cols, &b, &[t]).unwrap_or_else(|| panic!("illegal move {t}"));
        let to = b.iter().position(|&x| x == 0).unwrap() as isize;
        if last != Some(to - from) {
            runs += 1;
        }
        last = Some(to - from);
    }
    (b, runs)
}

/// Checks `solver`'s answer for `cells` against `want` (the reference distance): the distance, and the moves
/// replayed to a matching board in that many moves of `metric`.
fn check(
    solver: &Solver,
    shape: Shape,
    text: &str,
    cells: &[u8],
    want: Option<u32>,
    metric: Metric,
    moves: bool,
) {
    let pattern = Pattern::parse(text).unwrap();
    let board = Board::new(shape, cells.iter().map(|&t| t as u32).collect()).unwrap();
    let d = solver
        .distance_to_pattern(&board, &pattern, metric)
        .unwrap();
    assert_eq!(
        d,
        want.map_or(-1, i64::from),
        "{text} from {cells:?} ({metric})"
    );
    if moves {
        let s = solver
            .solve_pattern(&board, &pattern, &opts(metric))
            .unwrap();
        assert_eq!(counted(&s), Some(d), "{text} from {cells:?}");
        if d < 0 {
            assert!(s.is_unsolvable() && s.moves().is_none());
            return;
        }
        let tiles = s.into_moves().unwrap();
        let (end, runs) = replay(shape.cols(), cells, &tiles);
        assert!(
            matches(&pattern_cells(text), &end),
            "{text}: ends on {end:?}"
        );
        let len = match metric {
            Metric::Stm => tiles.len(),
            Metric::Mtm => runs,
        };
        assert_eq!(len as i64, d, "{text} from {cells:?}: {tiles:?}");
    }
}

/// Every 3 × 3 board against a multi-source search from every matching board.
fn all_3x3(text: &str, metric: Metric) {
    let want = pattern_cells(text);
    let boards = reference::permutations(9);
    let goals: Vec<Vec<u8>> = boards
        .iter()
        .filter(|b| matches(&want, b))
        .cloned()
        .collect();
    let r = Reference::from_goals(3, 3, &goals, reference_metric(metric));
    let solver = solver();
    let shape = Shape::new(3, 3).unwrap();
    for (i, b) in boards.iter().enumerate() {
        // Every board's distance; the moves of one in 97.
        check(&solver, shape, text, b, r.distance(b), metric, i % 97 == 0);
    }
}

#[test]
fn first_row_3x3() {
    all_3x3("1 2 3/x x x/x x x", Metric::Stm);
}

#[test]
fn left_column_blank_fixed_3x3() {
    all_3x3("1 x x/4 x x/7 x 0", Metric::Stm);
}

#[test]
fn first_row_and_fixed_blank_3x3_mtm() {
    all_3x3("1 2 3/x x x/x x x", Metric::Mtm);
    all_3x3("1 x x/4 x x/7 x 0", Metric::Mtm);
}

#[test]
fn one_free_tile_and_free_blank_can_be_unreachable() {
    // Tiles 1..6 and 8 fixed, 7 and the blank on the two x cells 6 and 7 (adjacent): both matching boards have
    // the same parity, so half the boards reach neither (-1), as the full search says.
    all_3x3("1 2 3/4 5 6/x x 8", Metric::Stm);
    let b = Board::parse("1 2 3/4 5 6/0 7 8").unwrap();
    let p = Pattern::parse("1 2 3/4 5 6/x x 8").unwrap();
    let other = Board::parse("1 2 3/4 5 6/0 8 7").unwrap();
    assert_eq!(
        solver().distance_to_pattern(&b, &p, Metric::Stm).unwrap(),
        0
    );
    assert_eq!(
        solver()
            .distance_to_pattern(&other, &p, Metric::Stm)
            .unwrap(),
        -1
    );
}

/// The abstract search: states are the cells of `tiles` (whose goal cells are `home`) and the blank; a move
/// takes the blank 1 (STM) or 1..k (MTM) cells along a line, each tracked tile passed moving one cell back.
fn abstract_bfs(
    rows: usize,
    cols: usize,
    home: &[u8],
    blank: Option<u8>,
    metric: Metric,
) -> HashMap<Vec<u8>, u32> {
    let n = (rows * cols) as u8;
    let mut dist = HashMap::new();
    let mut queue = VecDeque::new();
    for b in 0..n {
        if home.contains(&b) || blank.is_some_and(|f| f != b) {
            continue;
        }
        let mut s = home.to_vec();
        s.push(b);
        dist.insert(s.clone(), 0u32);
        queue.push_back(s);
    }
    let reach = match metric {
        Metric::Stm => 1,
        Metric::Mtm => rows.max(cols) as isize,
    };
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        let k = s.len() - 1;
        for (dr, dc) in [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)] {
            let mut t = s.clone();
            for _ in 0..reach {
                let b = t[k] as isize;
                let (r, c) = (b / cols as isize + dr, b % cols as isize + dc);
                if r < 0 || c < 0 || r >= rows as isize || c >= cols as isize {
                    break;
                }
                let to = (r * cols as isize + c) as u8;
                if let Some(i) = t[..k].iter().position(|&p| p == to) {
                    t[i] = t[k];
                }
                t[k] = to;
                if !dist.contains_key(&t) {
                    dist.insert(t.clone(), d + 1);
                    queue.push_back(t.clone());
                }
            }
        }
    }
    dist
}

/// A uniform random permutation of `0..n` (a small generator of our own, seeded).
fn shuffle(n: usize, seed: &mut u64) -> Vec<u8> {
    let mut b: Vec<u8> = (0..n as u8).collect();
    for i in (1..n).rev() {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let j = ((*seed >> 33) % (i as u64 + 1)) as usize;
        b.swap(i, j);
    }
    b
}

fn random_4x4(text: &str, tiles: &[u8], home: &[u8], metric: Metric, boards: usize) {
    let dist = abstract_bfs(4, 4, home, None, metric);
    let solver = solver();
    let shape = Shape::new(4, 4).unwrap();
    let mut seed = 13;
    let mut largest = 0;
    for i in 0..boards {
        let b = shuffle(16, &mut seed);
        let mut s: Vec<u8> = tiles
            .iter()
            .map(|&t| b.iter().position(|&x| x == t).unwrap() as u8)
            .collect();
        s.push(b.iter().position(|&x| x == 0).unwrap() as u8);
        let want = dist[&s];
        largest = largest.max(want);
        check(&solver, shape, text, &b, Some(want), metric, i % 5 == 0);
    }
    assert!(largest > 10, "the boards are far from the goal");
}

#[test]
fn first_row_4x4() {
    let text = "1 2 3 4/x x x x/x x x x/x x x x";
    random_4x4(text, &[1, 2, 3, 4], &[0, 1, 2, 3], Metric::Stm, 400);
    random_4x4(text, &[1, 2, 3, 4], &[0, 1, 2, 3], Metric::Mtm, 200);
}

#[test]
fn top_left_block_4x4() {
    let text = "1 2 x x/5 6 x x/x x x x/x x x x";
    random_4x4(text, &[1, 2, 5, 6], &[0, 1, 4, 5], Metric::Stm, 400);
    random_4x4(text, &[1, 2, 5, 6], &[0, 1, 4, 5], Metric::Mtm, 200);
}

#[test]
fn tiles_named_differently_share_a_table_and_answer_for_their_own_tiles() {
    // The same cells, other tiles: the distance follows the tiles named.
    let solver = solver();
    let b = Board::parse("1 2 3/4 5 6/7 8 0").unwrap();
    let p = Pattern::parse("3 2 1/x x x/x x x").unwrap();
    let d = solver.distance_to_pattern(&b, &p, Metric::Stm).unwrap();
    let want = pattern_cells("3 2 1/x x x/x x x");
    let goals: Vec<Vec<u8>> = reference::permutations(9)
        .into_iter()
        .filter(|g| matches(&want, g))
        .collect();
    let r = Reference::from_goals(3, 3, &goals, reference::Metric::Stm);
    assert_eq!(d, r.distance(&[1, 2, 3, 4, 5, 6, 7, 8, 0]).unwrap() as i64);
    assert_eq!(
        solver
            .distance_to_pattern(
                &b,
                &Pattern::parse("1 2 3/x x x/x x x").unwrap(),
                Metric::Stm
            )
            .unwrap(),
        0
    );
}

#[test]
fn stages_follow_each_other() {
    let solver = solver();
    let board = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
    let stages: Vec<Pattern> = [
        "1 2 3/x x x/x x x",
        "1 2 3/4 x x/7 x x",
        "1 2 3/4 5 6/7 8 0",
    ]
    .iter()
    .map(|p| p.parse().unwrap())
    .collect();
    let answers = solver
        .solve_stages(&board, &stages, &SolveOptions::default(), &mut |_| {})
        .unwrap();
    assert_eq!(answers.len(), 3);
    let mut at: Vec<u8> = board.tiles().iter().map(|&t| t as u8).collect();
    let mut total = 0;
    for (s, p) in answers.iter().zip(&stages) {
        assert!(s.is_optimal());
        let want = pattern_cells(&p.to_string());
        // Each stage is optimal from where the previous one ended: the reference from every matching board.
        let goals: Vec<Vec<u8>> = reference::permutations(9)
            .into_iter()
            .filter(|g| matches(&want, g))
            .collect();
        let r = Reference::from_goals(3, 3, &goals, reference::Metric::Stm);
        assert_eq!(counted(s), Some(r.distance(&at).unwrap() as i64), "{p}");
        let (end, _) = replay(3, &at, s.moves().unwrap());
        assert!(matches(&want, &end), "{p}: {end:?}");
        total += s.moves().unwrap().len();
        at = end;
    }
    assert_eq!(at, reference::goal(9));
    // The optimum from the start is 31; stages may take more, never less.
    assert!(total >= 31, "{total}");
}

#[test]
fn refusals_are_clear() {
    let solver = quiet_builder().max_memory(10_000_000).build();
    let b = Board::goal(Shape::new(4, 4).unwrap());
    // 8 fixed tiles of 16 cells: 16!/7! states, far over 10 MB (and over the default budget without one): the
    // table is refused when asked for, and in MTM (there is no MTM search).
    let table = SolveOptions {
        method: slide::Method::Table,
        ..Default::default()
    };
    let e = solver_default_budget(&b, &table);
    assert!(
        matches!(e, Error::Solve(SolveError::TooMuchMemory { .. })),
        "{e}"
    );
    let p = Pattern::parse("1 2 3 4/5 6 7 8/x x x x/x x x x").unwrap();
    let e = solver.solve_pattern(&b, &p, &table).unwrap_err();
    assert!(
        matches!(e, Error::Solve(SolveError::TooMuchMemory { .. })),
        "{e}"
    );
    assert!(e.to_string().contains("partial goal"), "{e}");
    let e = solver
        .solve_pattern(&b, &p, &opts(Metric::Mtm))
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("MTM partial goals over the memory budget are not available"),
        "{e}"
    );
    // Fast mode does not answer partial goals.
    let e = solver
        .solve_pattern(
            &b,
            &Pattern::parse("1 2 3 4/x x x x/x x x x/x x x x").unwrap(),
            &SolveOptions {
                method: slide::Method::Fast,
                ..Default::default()
            },
        )
        .unwrap_err();
    assert!(e.to_string().contains("partial goal"), "{e}");
    // Another shape.
    let e = solver
        .solve_pattern(
            &b,
            &Pattern::parse("1 x x/x x x/x x x").unwrap(),
            &SolveOptions::default(),
        )
        .unwrap_err();
    assert!(
        matches!(e, Error::Solve(SolveError::ShapeMismatch { .. })),
        "{e}"
    );
}

fn solver_default_budget(b: &Board, o: &SolveOptions) -> Error {
    let p = Pattern::parse("1 2 3 4/5 6 7 8/9 x x x/x x x x").unwrap();
    solver().solve_pattern(b, &p, o).unwrap_err()
}

/// IDA* (forced, or over the memory budget) against the reference on 3 × 3 boards: distances, moves replayed.
#[test]
fn search_agrees_with_the_reference_3x3() {
    let shape = Shape::new(3, 3).unwrap();
    let search = SolveOptions {
        method: slide::Method::Search,
        ..Default::default()
    };
    let tiny = quiet_builder().max_memory(0).build();
    for text in [
        "1 2 3/x x x/x x x",
        "1 x x/4 x x/7 x 0",
        "1 2 3/4 5 6/x x 8",
        "x x x/x 5 x/x x x",
    ] {
        let want = pattern_cells(text);
        let goals: Vec<Vec<u8>> = reference::permutations(9)
            .into_iter()
            .filter(|g| matches(&want, g))
            .collect();
        let r = Reference::from_goals(3, 3, &goals, reference::Metric::Stm);
        let p = Pattern::parse(text).unwrap();
        for b in reference::permutations(9).into_iter().step_by(1777) {
            let board = Board::new(shape, b.iter().map(|&t| t as u32).collect()).unwrap();
            let d = r.distance(&b).map_or(-1, i64::from);
            for (s, o) in [(&solver(), &search), (&tiny, &SolveOptions::default())] {
                assert_eq!(
                    s.plan_pattern(&board, &p, o).unwrap(),
                    slide::Plan::Search(slide::HeuristicChoice::Manhattan)
                );
                let a = s.solve_pattern(&board, &p, o).unwrap();
                assert_eq!(counted(&a), Some(d), "{text} from {b:?}");
                if d >= 0 {
                    let (end, _) = replay(3, &b, a.moves().unwrap());
                    assert!(matches(&want, &end), "{text}: {end:?}");
                }
            }
            assert_eq!(
                tiny.distance_to_pattern(&board, &p, Metric::Stm).unwrap(),
                d
            );
        }
    }
}

#[test]
fn search_over_the_budget_on_4x4() {
    // The first row over a 1 MB budget: IDA*, against the abstract search.
    let dist = abstract_bfs(4, 4, &[0, 1, 2, 3], None, Metric::Stm);
    let tiny = quiet_builder().max_memory(1_000_000).build();
    let p = Pattern::parse("1 2 3 4/x x x x/x x x x/x x x x").unwrap();
    let mut seed = 5;
    for _ in 0..6 {
        let b = shuffle(16, &mut seed);
        let board = Board::new(
            Shape::new(4, 4).unwrap(),
            b.iter().map(|&t| t as u32).collect(),
        )
        .unwrap();
        let mut s: Vec<u8> = (1..=4u8)
            .map(|t| b.iter().position(|&x| x == t).unwrap() as u8)
            .collect();
        s.push(b.iter().position(|&x| x == 0).unwrap() as u8);
        let a = tiny
            .solve_pattern(&board, &p, &SolveOptions::default())
            .unwrap();
        assert_eq!(counted(&a), Some(dist[&s] as i64), "{b:?}");
        assert!(a.nodes() > 0);
        let (end, _) = replay(4, &b, a.moves().unwrap());
        assert_eq!(&end[..4], &[1, 2, 3, 4]);
    }
}

#[test]
fn tables_are_cached_checked_and_rebuilt_when_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let cached = || {
        let w = Arc::new(Warnings::default());
        let s = Solver::builder()
            .cache_dir(CacheDir::At(dir.path().into()))
            .progress(w.clone())
            .build();
        (s, w)
    };
    let text = "1 2 3/x x x/x x 0";
    let p = Pattern::parse(text).unwrap();
    let want = pattern_cells(text);
    let goals: Vec<Vec<u8>> = reference::permutations(9)
        .into_iter()
        .filter(|g| matches(&want, g))
        .collect();
    let r = Reference::from_goals(3, 3, &goals, reference::Metric::Stm);
    let boards: Vec<Vec<u8>> = reference::permutations(9)
        .into_iter()
        .step_by(101)
        .collect();
    let check_all = |s: &Solver| {
        for b in &boards {
            let board = Board::new(
                Shape::new(3, 3).unwrap(),
                b.iter().map(|&t| t as u32).collect(),
            )
            .unwrap();
            let d = s.distance_to_pattern(&board, &p, Metric::Stm).unwrap();
            assert_eq!(d, r.distance(b).map_or(-1, i64::from), "{b:?}");
        }
    };
    let (s, w) = cached();
    check_all(&s);
    assert!(w.seen().is_empty());
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let name = files[0].file_name().unwrap().to_str().unwrap().to_string();
    assert!(name.starts_with("partial-3x3-blank8-p0.1.2"), "{name}");
    let bytes = std::fs::read(&files[0]).unwrap();
    // Loaded by a fresh solver: same answers, no warning, the file untouched.
    let (s, w) = cached();
    check_all(&s);
    assert!(w.seen().is_empty());
    assert_eq!(std::fs::read(&files[0]).unwrap(), bytes);
    // A bit flipped in the payload: detected, rebuilt, rewritten.
    let mut bad = bytes.clone();
    let at = bad.len() - 100;
    bad[at] ^= 0x10;
    std::fs::write(&files[0], &bad).unwrap();
    let (s, w) = cached();
    check_all(&s);
    let warnings = w.seen();
    assert!(
        warnings.iter().any(|m| m.contains("rebuild")),
        "{warnings:?}"
    );
    assert_eq!(std::fs::read(&files[0]).unwrap(), bytes);
    // The same cells in MTM are another table, in another file.
    let (s, _) = cached();
    let b = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
    s.distance_to_pattern(&b, &p, Metric::Mtm).unwrap();
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}
