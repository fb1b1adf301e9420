//! Checks hints, counts and lists of shortest solutions and move-by-move analyses against references written here:
//! the plain breadth-first search of `slide-reference` (boards as `Vec<u8>`, a `HashMap`), a count of shortest
//! paths over that search, a brute-force enumeration of move sequences, and its own replay of moves.
use std::collections::{HashMap, HashSet};

use slide::{
    Board, Error, Moves, ParseError, Scrambler, Shape, SolveError, SolveOptions, Solver, Tile,
};
use slide_reference::{goal, goal_with_blank, neighbours, permutations, replay, Metric, Reference};

use crate::support::board;

type Cells = Vec<u8>;

fn cells(b: &Board) -> Cells {
    b.tiles().iter().map(|&t| t as u8).collect()
}

/// The tile that moved between `b` and its neighbour `nb`: the one now where the blank was.
fn moved(b: &[u8], nb: &[u8]) -> Tile {
    nb[b.iter().position(|&t| t == 0).unwrap()] as Tile
}

/// The reference's hint: every tile whose move leads one move closer, ascending.
fn reference_hint(r: &Reference, rows: usize, cols: usize, b: &[u8]) -> (i64, Vec<Tile>) {
    let Some(d) = r.distance(b) else {
        return (-1, vec![]);
    };
    let mut tiles: Vec<Tile> = neighbours(rows, cols, b, Metric::Stm)
        .iter()
        .filter(|nb| d > 0 && r.distance(nb) == Some(d - 1))
        .map(|nb| moved(b, nb))
        .collect();
    tiles.sort_unstable();
    (d as i64, tiles)
}

fn check_all_hints(rows: usize, cols: usize, g: &[u8]) {
    let r = Reference::new(rows, cols, g, Metric::Stm);
    let goal_board = board(rows, cols, g);
    let solver = Solver::global();
    let mut seen = 0;
    for p in permutations(rows * cols) {
        let h = solver
            .hint(
                &board(rows, cols, &p),
                &goal_board,
                &SolveOptions::default(),
            )
            .unwrap();
        assert_eq!(
            (h.distance, h.tiles),
            reference_hint(&r, rows, cols, &p),
            "{p:?}"
        );
        seen += 1;
    }
    assert!(seen > 0);
}

#[test]
fn hints_of_every_2x3_board_match_the_reference() {
    check_all_hints(2, 3, &goal(6));
    // A goal with the blank first: the library answers through a canonical frame.
    check_all_hints(2, 3, &goal_with_blank(6, 0));
    check_all_hints(3, 2, &goal(6));
}

#[test]
fn hints_of_every_3x3_board_match_the_reference() {
    check_all_hints(3, 3, &goal(9));
}

/// The number of shortest paths to the goal from every reachable board: a board at distance d has the sum of the
/// counts of its neighbours at d - 1.
fn reference_counts(rows: usize, cols: usize, g: &[u8]) -> (Reference, HashMap<Cells, u128>) {
    let r = Reference::new(rows, cols, g, Metric::Stm);
    let mut by_distance: Vec<Vec<Cells>> = vec![vec![]; r.diameter() as usize + 1];
    for p in permutations(rows * cols) {
        if let Some(d) = r.distance(&p) {
            by_distance[d as usize].push(p);
        }
    }
    let mut count: HashMap<Cells, u128> = HashMap::from([(g.to_vec(), 1)]);
    for layer in by_distance.iter().skip(1) {
        for b in layer {
            let d = r.distance(b).unwrap();
            let c = neighbours(rows, cols, b, Metric::Stm)
                .iter()
                .filter(|nb| r.distance(nb) == Some(d - 1))
                .map(|nb| count[nb])
                .sum();
            count.insert(b.clone(), c);
        }
    }
    (r, count)
}

/// Every sequence of `d` moves from `b` that ends on the goal, by brute force (no table, no search).
fn brute_force(rows: usize, cols: usize, b: &[u8], g: &[u8], d: u32) -> Vec<Vec<Tile>> {
    let mut out = Vec::new();
    let mut path = Vec::new();
    fn go(
        rows: usize,
        cols: usize,
        b: &[u8],
        g: &[u8],
        left: u32,
        path: &mut Vec<Tile>,
        out: &mut Vec<Vec<Tile>>,
    ) {
        if left == 0 {
            if b == g {
                out.push(path.clone());
            }
            return;
        }
        for nb in neighbours(rows, cols, b, Metric::Stm) {
            path.push(moved(b, &nb));
            go(rows, cols, &nb, g, left - 1, path, out);
            path.pop();
        }
    }
    go(rows, cols, b, g, d, &mut path, &mut out);
    out.sort();
    out
}

fn check_counts(rows: usize, cols: usize, g: &[u8], step: usize) {
    let (r, counts) = reference_counts(rows, cols, g);
    let goal_board = board(rows, cols, g);
    let solver = Solver::global();
    let mut checked = 0;
    for p in permutations(rows * cols).into_iter().step_by(step) {
        let b = board(rows, cols, &p);
        let want = counts.get(&p).copied().unwrap_or(0);
        assert_eq!(
            solver.count_optimal(&b, &goal_board).unwrap(),
            want,
            "{p:?}"
        );
        let all = solver.optimal_solutions(&b, &goal_board, 50).unwrap();
        assert_eq!(all.len() as u128, want.min(50), "{p:?}");
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, all, "solutions distinct and ascending: {p:?}");
        for m in &all {
            assert_eq!(Some(m.len() as u32), r.distance(&p));
            assert_eq!(replay(cols, &p, m).as_deref(), Some(g), "{p:?} {m:?}");
        }
        checked += 1;
    }
    assert!(checked > 10);
}

#[test]
fn counts_of_every_2x3_board_match_the_reference() {
    check_counts(2, 3, &goal(6), 1);
    check_counts(2, 3, &goal_with_blank(6, 2), 1);
}

#[test]
fn counts_of_sampled_3x3_and_2x4_boards_match_the_reference() {
    check_counts(3, 3, &goal(9), 997);
    check_counts(2, 4, &goal(8), 401);
}

#[test]
fn every_shortest_solution_of_small_boards_matches_brute_force() {
    let g = goal(6);
    let r = Reference::new(2, 3, &g, Metric::Stm);
    let goal_board = board(2, 3, &g);
    let mut checked = 0;
    for p in permutations(6) {
        let Some(d) = r.distance(&p) else { continue };
        if d > 13 {
            continue;
        }
        let want = brute_force(2, 3, &p, &g, d);
        let all = Solver::global()
            .optimal_solutions(&board(2, 3, &p), &goal_board, usize::MAX)
            .unwrap();
        assert_eq!(all, want, "{p:?}");
        checked += 1;
    }
    assert!(checked > 100);
}

#[test]
fn counts_of_the_farthest_2x5_board_match_the_reference() {
    // The farthest 2 x 5 boards are 55 moves away: long paths, large counts.
    let (r, counts) = reference_counts(2, 5, &goal(10));
    let far = r.farthest()[0].clone();
    let b = board(2, 5, &far);
    let n = Solver::global()
        .count_optimal(&b, &Board::goal(b.shape()))
        .unwrap();
    assert_eq!(n, counts[&far]);
}

/// A sequence with a detour (a tile moved away from the goal, by `distance`, and moved back) inserted after each of
/// `at` moves of the shortest solution `moves`; the detours' first moves are the mistakes.
fn with_detours(
    start: &Board,
    moves: &[Tile],
    at: &[usize],
    distance: impl Fn(&Board) -> i64,
) -> (Vec<Tile>, Vec<usize>) {
    let mut out = Vec::new();
    let mut mistakes = Vec::new();
    let mut b = start.clone();
    for i in 0..=moves.len() {
        if at.contains(&i) {
            // A tile next to the blank whose move leads away from the goal; when every move leads closer, any
            // tile: moving it back is then the mistake.
            let d = distance(&b);
            let away = |t: Tile| {
                let mut c = b.clone();
                c.apply(t).is_ok() && distance(&c) > d
            };
            let legal = |t: Tile| b.direction_of(t).is_some();
            let tiles = 1..b.shape().cells() as Tile;
            let (t, farther) = match tiles.clone().find(|&t| away(t)) {
                Some(t) => (t, true),
                None => (tiles.clone().find(|&t| legal(t)).unwrap(), false),
            };
            out.push(t);
            if farther {
                mistakes.push(out.len());
            }
            out.push(t);
            if !farther {
                mistakes.push(out.len());
            }
        }
        if let Some(&t) = moves.get(i) {
            b.apply(t).unwrap();
            out.push(t);
        }
    }
    (out, mistakes)
}

fn check_analysis(start: &Board, g: &Board, moves: &[Tile], reference: impl Fn(&[u8]) -> i64) {
    let m = Moves::from_tiles(start, moves).unwrap();
    let a = Solver::global()
        .analyse(start, g, &m, &SolveOptions::default())
        .unwrap();
    let cols = start.shape().cols();
    let mut prev = reference(&cells(start));
    assert_eq!(a.optimal, prev);
    let mut mistakes = Vec::new();
    for (i, &t) in moves.iter().enumerate() {
        let here = replay(cols, &cells(start), &moves[..=i]).unwrap();
        let d = reference(&here);
        assert_eq!(a.distances[i], d, "after move {}", i + 1);
        if d >= prev {
            mistakes.push(i + 1);
        }
        prev = d;
        let _ = t;
    }
    assert_eq!(a.mistakes, mistakes);
    let end = replay(cols, &cells(start), moves).unwrap();
    assert_eq!(a.solves, end == cells(g));
    assert_eq!(a.length, moves.len());
    assert_eq!(a.mtm_length, m.mtm_len());
    assert_eq!(a.over, a.solves.then(|| moves.len() as i64 - a.optimal));
}

#[test]
fn analyses_of_3x3_solutions_with_detours_match_the_reference() {
    let r = Reference::new(3, 3, &goal(9), Metric::Stm);
    let reference = |b: &[u8]| r.distance(b).map_or(-1, i64::from);
    let g = Board::goal(Shape::new(3, 3).unwrap());
    let mut rng = Scrambler::new(12);
    let mut summary = slide::Summary::default();
    for k in 0..30 {
        let start = rng.uniform(&g);
        let best = Solver::global()
            .solve(&start, &g)
            .unwrap()
            .into_moves()
            .unwrap();
        let at: Vec<usize> = [0, best.len() / 2, best.len()]
            .into_iter()
            .take(k % 4)
            .collect();
        let (moves, mistakes) = with_detours(&start, &best, &at, |b| reference(&cells(b)));
        check_analysis(&start, &g, &moves, reference);
        let a = Solver::global()
            .analyse(
                &start,
                &g,
                &Moves::from_tiles(&start, &moves).unwrap(),
                &SolveOptions::default(),
            )
            .unwrap();
        assert_eq!(a.mistakes, mistakes, "{start}");
        assert_eq!(a.over, Some(2 * at.len() as i64));
        summary.add(&a);
        // Stopping short: the sequence does not solve.
        let short = &moves[..moves.len() - 1];
        check_analysis(&start, &g, short, reference);
    }
    assert_eq!(summary.analysed, 30);
    assert_eq!(summary.solved, 30);
    assert_eq!(summary.optimal, 8); // k % 4 == 0: no detour
    assert_eq!(summary.over.values().sum::<usize>(), 22);
}

#[test]
fn analyses_of_unsolvable_boards_say_so() {
    let g = Board::goal(Shape::new(2, 3).unwrap());
    let b = Board::parse("1 2 3/5 4 0").unwrap();
    let m = Moves::from_tiles(&b, &[4, 5]).unwrap();
    let a = Solver::global()
        .analyse(&b, &g, &m, &SolveOptions::default())
        .unwrap();
    assert_eq!((a.solves, a.optimal, a.over), (false, -1, None));
    assert_eq!(a.distances, [-1, -1]);
    assert!(a.mistakes.is_empty());
    assert_eq!(Solver::global().count_optimal(&b, &g).unwrap(), 0);
    assert!(Solver::global()
        .optimal_solutions(&b, &g, 9)
        .unwrap()
        .is_empty());
}

#[test]
fn illegal_moves_and_shape_mismatches_are_errors() {
    let b = Board::parse("4 1 2/5 0 3").unwrap();
    let g = Board::goal(b.shape());
    // R: the tile left of the blank moves right; twice runs off the board.
    let m: Moves = "RRR".parse().unwrap();
    let e = Solver::global()
        .analyse(&b, &g, &m, &SolveOptions::default())
        .unwrap_err();
    assert!(
        matches!(e, Error::Parse(ParseError::BadMove { index: 2, .. })),
        "{e}"
    );
    let b4 = Board::parse("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15").unwrap();
    let e = Solver::global()
        .hint(
            &b4,
            &Board::goal(Shape::new(2, 8).unwrap()),
            &SolveOptions::default(),
        )
        .unwrap_err();
    assert!(
        matches!(e, Error::Solve(SolveError::ShapeMismatch { .. })),
        "{e}"
    );
}

#[test]
fn hints_and_analyses_of_near_4x4_boards_match_the_reference() {
    let g = Board::goal(Shape::new(4, 4).unwrap());
    let gc = cells(&g);
    let reference =
        |b: &[u8]| slide_reference::distance(4, 4, b, &gc, Metric::Stm, 12).map_or(-1, i64::from);
    let mut rng = Scrambler::new(5);
    let mut hinted = HashSet::new();
    for _ in 0..3 {
        let start = rng.walk(&g, 8);
        let best = Solver::global()
            .solve(&start, &g)
            .unwrap()
            .into_moves()
            .unwrap();
        let (moves, _) = with_detours(&start, &best, &[0, best.len() / 2], |b| {
            reference(&cells(b))
        });
        check_analysis(&start, &g, &moves, reference);
        // Hints: every move that leads one move closer.
        let h = Solver::global()
            .hint(&start, &g, &SolveOptions::default())
            .unwrap();
        let sc = cells(&start);
        let d = reference(&sc);
        let mut want: Vec<Tile> = neighbours(4, 4, &sc, Metric::Stm)
            .iter()
            .filter(|nb| reference(nb) == d - 1)
            .map(|nb| moved(&sc, nb))
            .collect();
        want.sort_unstable();
        assert_eq!((h.distance, h.tiles.clone()), (d, want), "{start}");
        hinted.insert(start);
    }
    assert_eq!(hinted.len(), 3);
}

#[test]
fn a_far_4x4_analysis_shares_work_and_agrees_with_solving_each_position() {
    // Further than the reference reaches: the shared analysis is checked against a full solve of every position.
    let g = Board::goal(Shape::new(4, 4).unwrap());
    let start = Scrambler::new(9).walk(&g, 60);
    let best = Solver::global()
        .solve(&start, &g)
        .unwrap()
        .into_moves()
        .unwrap();
    let solved = |b: &Board| Solver::global().distance(b, &g).unwrap();
    let (moves, mistakes) =
        with_detours(&start, &best, &[1, best.len() / 3, best.len() - 1], solved);
    let m = Moves::from_tiles(&start, &moves).unwrap();
    let a = Solver::global()
        .analyse(&start, &g, &m, &SolveOptions::default())
        .unwrap();
    let mut b = start.clone();
    for (i, &t) in moves.iter().enumerate() {
        b.apply(t).unwrap();
        assert_eq!(a.distances[i], solved(&b), "after move {}", i + 1);
    }
    assert_eq!(a.mistakes, mistakes);
    assert_eq!(a.over, Some(6));
}

#[test]
fn counts_and_lists_of_near_4x4_boards_match_brute_force() {
    // Above the tables: one complete IDA* iteration at the optimum, against every sequence of that length.
    let g = Board::goal(Shape::new(4, 4).unwrap());
    let gc = cells(&g);
    let mut rng = Scrambler::new(21);
    let mut several = 0;
    for _ in 0..6 {
        let start = rng.walk(&g, 8);
        let sc = cells(&start);
        let d = slide_reference::distance(4, 4, &sc, &gc, Metric::Stm, 8).unwrap();
        let want = brute_force(4, 4, &sc, &gc, d);
        let c = Solver::global()
            .count_optimal_with(&start, &g, &SolveOptions::default())
            .unwrap();
        assert_eq!((c.count, c.proven), (want.len() as u128, true), "{start}");
        let mut all = Solver::global()
            .optimal_solutions(&start, &g, usize::MAX)
            .unwrap();
        all.sort();
        assert_eq!(all, want, "{start}");
        let two = Solver::global().optimal_solutions(&start, &g, 2).unwrap();
        assert_eq!(two.len(), want.len().min(2));
        assert!(two.iter().all(|m| want.contains(m)));
        several += (want.len() > 1) as usize;
    }
    assert!(several > 0, "some board has several shortest solutions");
    // A limit stops the count: not proven, a lower bound.
    let far = Board::parse("12 9 1 11/13 6 4 2/3 5 10 8/14 15 0 7").unwrap();
    let opts = SolveOptions {
        max_nodes: Some(1),
        ..SolveOptions::default()
    };
    match Solver::global().count_optimal_with(&far, &g, &opts) {
        Ok(c) => assert!(!c.proven, "{c:?}"),
        Err(e) => assert!(
            matches!(e, Error::Solve(SolveError::LimitReached { .. })),
            "{e}"
        ),
    }
}

#[test]
fn summary_and_hint_json_are_the_faces_lines() {
    let mut s = slide::Summary::default();
    assert_eq!(
        s.to_json(),
        r#"{"summary": {"analysed": 0, "solved": 0, "optimal": 0, "over": {}, "mean_over": 0.0}}"#
    );
    s.analysed = 3;
    s.solved = 2;
    s.optimal = 1;
    s.over.insert(2, 1);
    s.mean_over = 1.0;
    assert_eq!(
        s.to_json(),
        r#"{"summary": {"analysed": 3, "solved": 2, "optimal": 1, "over": {"2": 1}, "mean_over": 1.0}}"#
    );
    let b = slide::Board::parse("[[4,1,2],[5,0,3]]").unwrap();
    let h = slide::Hint {
        distance: 5,
        tiles: vec![2, 4],
    };
    assert_eq!(
        h.on(&b, slide::Metric::Stm).to_json(),
        r#"{"board": [[4,1,2],[5,0,3]], "moves": 5, "hints": [2,4]}"#
    );
    let mut j = h.on(&b, slide::Metric::Mtm);
    j.notation = Some(vec!["D".into(), "L\"".into()]);
    assert_eq!(
        j.to_json(),
        r#"{"board": [[4,1,2],[5,0,3]], "moves": 5, "hints": [2,4], "metric": "mtm", "notation": ["D","L\""]}"#
    );
}
