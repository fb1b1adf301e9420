//! Fast mode (issue 4): every path is replayed move by move on random boards of many shapes and goals; lengths are
//! compared with the optimum where the complete tables know it; unsolvable input is refused.
//!
//! Run in release mode: `cargo test --release -p slidetile --test it fast::`.

use slide::fast::{fast_length, fast_moves, solve_fast};
use slide::Scrambler;
use slide::{Board, Shape, Tile};

use crate::support::{shape, shared_solver as solver};

/// Solves in fast mode, checks the count, the streamed moves and the count-only length agree, replays every move
/// on a copy of the board (each must be legal) and checks the goal is reached. Returns the length.
fn check(board: &Board, goal: &Board) -> u64 {
    let mut streamed: Vec<Tile> = Vec::new();
    let n = solve_fast(solver(), board, goal, &mut |t| streamed.push(t))
        .unwrap_or_else(|e| panic!("{board} -> {goal}: {e}"));
    assert_eq!(n, streamed.len() as u64);
    assert_eq!(fast_length(solver(), board, goal).unwrap(), n);
    let mut b = board.clone();
    for (i, &t) in streamed.iter().enumerate() {
        b.apply(t)
            .unwrap_or_else(|e| panic!("{} move {i} (tile {t}): {e}", board.shape()));
    }
    assert_eq!(&b, goal, "{} did not reach the goal", board.shape());
    n
}

/// A goal of `shape` with the blank on `blank` and the tiles in a random order.
fn random_goal(shape: Shape, blank: usize, seed: u64) -> Board {
    let g = Scrambler::new(seed).uniform(&Board::goal(shape));
    let mut tiles = g.tiles().to_vec();
    let at = tiles.iter().position(|&t| t == 0).unwrap();
    tiles.swap(at, blank);
    Board::new(shape, tiles).unwrap()
}

#[test]
fn strips_two_by_n_and_n_by_two() {
    for n in 2..=12 {
        for s in [shape(2, n), shape(n, 2)] {
            let goal = Board::goal(s);
            let mut scr = Scrambler::new(n as u64);
            for _ in 0..20 {
                check(&scr.uniform(&goal), &goal);
            }
            check(&goal, &goal);
        }
    }
    for s in [shape(2, 60), shape(60, 2), shape(13, 2), shape(2, 13)] {
        let goal = Board::goal(s);
        let mut scr = Scrambler::new(3);
        for _ in 0..5 {
            check(&scr.uniform(&goal), &goal);
        }
    }
}

#[test]
fn many_shapes() {
    let shapes = [
        (3, 7),
        (7, 3),
        (3, 4),
        (4, 3),
        (4, 4),
        (5, 5),
        (3, 5),
        (5, 3),
        (4, 9),
        (9, 4),
        (6, 11),
        (3, 40),
        (40, 3),
        (10, 10),
        (13, 2),
        (17, 23),
    ];
    for (r, c) in shapes {
        let goal = Board::goal(shape(r, c));
        let mut scr = Scrambler::new((r * 100 + c) as u64);
        for _ in 0..10 {
            check(&scr.uniform(&goal), &goal);
        }
        // boards close to the goal too
        for moves in [1, 2, 7, 30] {
            check(&scr.walk(&goal, moves), &goal);
        }
    }
    let goal = Board::goal(shape(50, 50));
    let mut scr = Scrambler::new(50);
    for _ in 0..3 {
        check(&scr.uniform(&goal), &goal);
    }
}

#[test]
fn lines_and_tiny_boards() {
    for (r, c) in [(1, 2), (2, 1), (1, 9), (9, 1), (1, 200)] {
        let goal = Board::goal(shape(r, c));
        let mut scr = Scrambler::new(9);
        for _ in 0..5 {
            check(&scr.uniform(&goal), &goal);
        }
        check(&goal, &goal);
    }
}

#[test]
fn custom_goals() {
    let shapes = [
        (2, 2),
        (3, 3),
        (2, 7),
        (7, 2),
        (3, 7),
        (7, 3),
        (4, 4),
        (5, 6),
        (6, 5),
        (12, 9),
        (1, 6),
        (6, 1),
    ];
    for (r, c) in shapes {
        let s = shape(r, c);
        let mut goals = vec![Board::goal_blank_first(s)];
        let n = s.cells();
        for (i, blank) in [0, c - 1, n - c, n / 2, n - 1, (r / 2) * c + c / 2]
            .into_iter()
            .enumerate()
        {
            goals.push(random_goal(s, blank, (i + 10 * n) as u64));
        }
        for (i, goal) in goals.iter().enumerate() {
            let mut scr = Scrambler::new(i as u64);
            for _ in 0..6 {
                check(&scr.uniform(goal), goal);
            }
            check(goal, goal);
            check(&scr.walk(goal, 3), goal);
        }
    }
}

#[test]
fn never_shorter_than_the_optimum() {
    // Shapes whose complete tables are built in memory in about a second at most.
    for (r, c) in [
        (2, 2),
        (2, 3),
        (3, 2),
        (2, 4),
        (4, 2),
        (3, 3),
        (2, 5),
        (5, 2),
    ] {
        let s = shape(r, c);
        let mut scr = Scrambler::new((r * c) as u64);
        for goal in [
            Board::goal(s),
            Board::goal_blank_first(s),
            random_goal(s, s.cells() / 2, 1),
        ] {
            for _ in 0..30 {
                let b = scr.uniform(&goal);
                let len = check(&b, &goal);
                let opt = solver().distance(&b, &goal).unwrap();
                assert!(opt >= 0);
                assert!(len >= opt as u64, "{b}: fast {len} < optimum {opt}");
                if s.cells() <= 9 {
                    // these go straight to the exact tables
                    assert_eq!(len, opt as u64, "{b}");
                }
            }
        }
    }
}

#[test]
fn refuses_unsolvable_boards_and_shape_mismatches() {
    for (r, c) in [(2, 2), (3, 3), (2, 9), (9, 2), (5, 5), (30, 30), (1, 5)] {
        let s = shape(r, c);
        let goal = Board::goal(s);
        let b = Scrambler::new(4).uniform(&goal);
        let mut tiles = b.tiles().to_vec();
        let (i, j) = if tiles[0] != 0 && tiles[1] != 0 {
            (0, 1)
        } else {
            (tiles.len() - 2, tiles.len() - 1)
        };
        tiles.swap(i, j);
        let bad = Board::new(s, tiles).unwrap();
        assert!(!bad.is_solvable(&goal).unwrap());
        let mut emitted = 0;
        let e = solve_fast(solver(), &bad, &goal, &mut |_| emitted += 1).unwrap_err();
        assert!(e.to_string().contains("unsolvable"), "{e}");
        assert_eq!(emitted, 0);
        assert!(fast_length(solver(), &bad, &goal).is_err());
    }
    let b = Board::goal(shape(3, 4));
    assert!(matches!(
        fast_moves(solver(), &b, &Board::goal(shape(4, 3))),
        Err(slide::Error::Solve(slide::SolveError::ShapeMismatch { .. }))
    ));
}

#[test]
fn hundred_by_hundred_within_three_n_cubed() {
    let n = 100u64;
    let goal = Board::goal(shape(100, 100));
    let mut scr = Scrambler::new(100);
    for _ in 0..2 {
        let b = scr.uniform(&goal);
        let len = check(&b, &goal);
        assert!(len <= 3 * n * n * n, "{len} moves");
    }
}

/// Many more random boards: every shape up to 9 × 9 and random custom goals. Run with `--ignored`;
/// `SLIDE_STRESS_SEEDS` (default 40) sets the boards per shape and goal kind.
#[test]
#[ignore]
fn stress_every_small_shape() {
    let seeds: u64 = std::env::var("SLIDE_STRESS_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    for r in 1..=9 {
        for c in 1..=9 {
            if r * c < 2 {
                continue;
            }
            let s = shape(r, c);
            for seed in 0..seeds {
                let goal = if seed % 2 == 0 {
                    Board::goal(s)
                } else {
                    random_goal(s, (seed as usize * 7) % s.cells(), seed)
                };
                let b = Scrambler::new(seed ^ (r * 16 + c) as u64).uniform(&goal);
                check(&b, &goal);
            }
        }
    }
    for (r, c) in [
        (2, 300),
        (300, 2),
        (3, 200),
        (200, 3),
        (4, 150),
        (150, 4),
        (70, 90),
    ] {
        let s = shape(r, c);
        for seed in 0..4u64 {
            let goal = random_goal(s, (seed as usize * 131) % s.cells(), seed);
            check(&Scrambler::new(seed).uniform(&goal), &goal);
        }
    }
}
