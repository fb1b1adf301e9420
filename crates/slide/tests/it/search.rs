//! IDA* and its heuristics against independent references: complete tables, a plain BFS, Korf's published optima.

use std::collections::HashMap;

use slide::engine::heuristic::{
    Eval, Geometry, LinearConflict, Manhattan, PdbEval, PdbMax, PdbSet,
};
use slide::engine::pdb::PdbIndex;
use slide::engine::table::CompleteTable;
use slide::engine::SolverExt;
use slide::PartitionSpec;
use slide::Scrambler;
use slide::{Board, CacheDir, NoProgress, Shape, Solver};
use slide::{HeuristicChoice, Method, SolveOptions};

use crate::support::counted;
use crate::support::shared_solver as solver;

/// Checks admissibility (h <= exact distance), consistency (|h(s) - h(s')| <= 1 across a move), and that `pop`
/// restores exactly what `push` changed, over every reachable state of a shape with a complete table. Returns the
/// number of moves across which h changed by more than one (allowed only when `consistent` is false).
fn check_exhaustively<E: Eval>(shape: Shape, eval: &mut E, name: &str, consistent: bool) -> u64 {
    let blank = shape.cells() - 1;
    let table = CompleteTable::build(shape, blank, slide::Metric::Stm, &NoProgress).unwrap();
    let space = table.space();
    let n = shape.cells();
    let mut pos = vec![0u8; n];
    let mut zero_seen = 0;
    let mut jumps = 0u64;
    for r in 0..space.states() {
        space.unrank(r, &mut pos);
        let d = table.distance(&pos).expect("reachable");
        eval.reset(&pos);
        let h = eval.h();
        assert!(h <= d, "{name} {shape}: h {h} > distance {d} at {pos:?}");
        assert_eq!(
            h % 2,
            d % 2,
            "{name} {shape}: parity of h differs from the distance at {pos:?}"
        );
        if h == 0 {
            zero_seen += 1;
        }
        // every move from here
        let b = pos[0] as usize;
        let mut children: Vec<(u8, u8, u32)> = Vec::new();
        for c in shape.neighbors(b) {
            let t = (0..n).find(|&t| pos[t] as usize == c).unwrap() as u8;
            let undo = eval.push(t, c as u8, b as u8, u32::MAX);
            let h2 = eval.h();
            if h2.abs_diff(h) > 1 {
                assert!(
                    !consistent,
                    "{name} {shape}: inconsistent across a move ({h} -> {h2}) at {pos:?}"
                );
                jumps += 1;
            }
            // The incremental value equals a fresh evaluation of the new state.
            let mut moved = pos.clone();
            moved[0] = c as u8;
            moved[t as usize] = b as u8;
            eval.pop(t, c as u8, b as u8, undo);
            assert_eq!(eval.h(), h, "{name}: pop did not restore");
            // After the pop, a probe and a push of its values give the same state again (what a zero-aware
            // pattern keeps of its placement was restored too), and the pop after them restores it.
            let (hp, probe) = eval.probe(t, c as u8, b as u8, u32::MAX);
            assert_eq!(hp, h2, "{name}: probe after pop differs at {moved:?}");
            let undo = eval.push_probed(t, c as u8, b as u8, probe);
            assert_eq!(eval.h(), h2, "{name}: push_probed differs at {moved:?}");
            eval.pop(t, c as u8, b as u8, undo);
            assert_eq!(eval.h(), h, "{name}: pop after push_probed did not restore");
            eval.reset(&moved);
            assert_eq!(
                eval.h(),
                h2,
                "{name}: incremental and fresh values differ at {moved:?}"
            );
            eval.reset(&pos);
            children.push((t, c as u8, h2));
        }
        // The children probed with a budget, as the search probes them: exact within the budget (and pushed as
        // such), over it when not; the state unchanged.
        for budget in [u32::MAX, h + 1, h.saturating_sub(1)] {
            // Looking ahead, as the search does: every child's `ahead` first, then each probed with its own; and
            // each probed without it. Both must give the same estimate and a probe that pushes alike.
            let aheads: Vec<_> = children
                .iter()
                .map(|&(t, c, _)| eval.ahead(t, c, b as u8))
                .collect();
            for (&(t, c, h2), &a) in children.iter().zip(&aheads) {
                let with = eval.probe_ahead(t, c, b as u8, budget, a);
                let without = eval.probe(t, c, b as u8, budget);
                assert_eq!(
                    with.0, without.0,
                    "{name}: probing with what ahead found differs at {pos:?}, tile {t}"
                );
                for (hp, probe) in [with, without] {
                    assert_eq!(eval.h(), h, "{name}: a probe changed the state at {pos:?}");
                    if h2 <= budget {
                        assert_eq!(
                            hp, h2,
                            "{name}: a budgeted probe differs at {pos:?}, tile {t}"
                        );
                        let undo = eval.push_probed(t, c, b as u8, probe);
                        assert_eq!(
                            eval.h(),
                            h2,
                            "{name}: push of a budgeted probe differs at {pos:?}"
                        );
                        eval.pop(t, c, b as u8, undo);
                        assert_eq!(
                            eval.h(),
                            h,
                            "{name}: pop after a budgeted probe did not restore"
                        );
                    } else {
                        assert!(
                        hp > budget && hp <= h2,
                        "{name}: a probe over the budget gave {hp} (exact {h2}, budget {budget})"
                    );
                    }
                }
            }
        }
    }
    assert_eq!(zero_seen, 1, "{name}: h is 0 only on the goal");
    jumps
}

/// Walks `walks` random paths of `len` moves from the goal of `shape` (blank last) with one evaluator kept move by
/// move, as the search keeps it (probed, looking ahead when it does, then pushed), and checks at every step that
/// its estimate equals a fresh evaluation's; then pops the whole path, checking each estimate on the way back.
/// Where `check_exhaustively` moves once from a fresh state, this keeps what a move leaves for the next ones (an
/// index worked out from the one before, say) over long paths.
fn check_walks<E: Eval + Clone>(shape: Shape, eval: &mut E, name: &str, walks: u64, len: usize) {
    let n = shape.cells();
    let goal: Vec<u8> = (0..n)
        .map(|t| if t == 0 { n as u8 - 1 } else { t as u8 - 1 })
        .collect();
    let mut fresh = eval.clone();
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    for walk in 0..walks {
        let mut pos = goal.clone();
        eval.reset(&pos);
        let mut trail = Vec::new();
        for _ in 0..len {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let b = pos[0] as usize;
            let nbrs: Vec<usize> = shape.neighbors(b).collect();
            let c = nbrs[(rng >> 33) as usize % nbrs.len()];
            let t = (1..n).find(|&t| pos[t] as usize == c).unwrap() as u8;
            let (h, probe) = if eval.looks_ahead() {
                let a = eval.ahead(t, c as u8, b as u8);
                eval.probe_ahead(t, c as u8, b as u8, u32::MAX, a)
            } else {
                eval.probe(t, c as u8, b as u8, u32::MAX)
            };
            let undo = eval.push_probed(t, c as u8, b as u8, probe);
            pos[0] = c as u8;
            pos[t as usize] = b as u8;
            fresh.reset(&pos);
            assert_eq!(
                h,
                fresh.h(),
                "{name}: walk {walk}: probe differs from fresh at {pos:?}"
            );
            assert_eq!(
                eval.h(),
                fresh.h(),
                "{name}: walk {walk}: kept differs from fresh at {pos:?}"
            );
            trail.push((t, c as u8, b as u8, undo, fresh.h()));
        }
        while let Some((t, c, b, undo, h)) = trail.pop() {
            assert_eq!(
                eval.h(),
                h,
                "{name}: walk {walk}: popped back to a different estimate"
            );
            eval.pop(t, c, b, undo);
        }
        fresh.reset(&goal);
        assert_eq!(
            eval.h(),
            fresh.h(),
            "{name}: walk {walk}: not back at the goal's estimate"
        );
    }
}

/// Long walks on 4 × 4 with dense and sparse indexes, in the plain and blank-bit layouts, with and without the
/// reflection, and two partitions maximised: every estimate kept move by move equals a fresh one (the dense rank
/// is kept move by move too: [`check_walks`]).
#[test]
fn long_walks_keep_estimates_on_4x4() {
    let shape = Shape::new(4, 4).unwrap();
    for spec in [
        "5-5-5",
        "zb5-5-5",
        "zc5-5-5",
        "1,2,3,5,6,9/4,7,8,10,11,12/13,14,15",
    ] {
        for s in [solver(), dense_solver()] {
            let (g, set) = pdb_set_of(s, shape, spec);
            for reflect in [false, true] {
                let name = format!("{spec} {:?} reflect {reflect}", set.pdbs[0].index());
                let mut eval = PdbEval::plain(&g, &set, reflect).unwrap();
                check_walks(shape, &mut eval, &name, 20, 300);
                if spec.starts_with("zb") {
                    let mut bits = PdbEval::blank_bits(&g, &set, reflect).unwrap();
                    check_walks(shape, &mut bits, &format!("blank-bit {name}"), 20, 300);
                }
            }
        }
    }
    let (g, a) = pdb_set_of(dense_solver(), shape, "5-5-5");
    let (_, b) = pdb_set_of(dense_solver(), shape, "1,2,3,5,6,9/4,7,8,10,11,12/13,14,15");
    let evals = vec![
        PdbEval::plain(&g, &a, true).unwrap(),
        PdbEval::plain(&g, &b, true).unwrap(),
    ];
    let mut max = PdbMax::new(evals).unwrap();
    check_walks(shape, &mut max, "5-5-5 + 6-6-3 dense, maximised", 20, 300);
    let (g, z) = pdb_set(shape, "z5-5-5");
    let mut zero = PdbEval::new(&g, &z, true).unwrap();
    check_walks(shape, &mut zero, "z5-5-5 reflect true", 20, 300);
}

/// Calls `f` on every state reachable from the goal of `shape` (blank last; tile → cell), from its complete table.
fn every_state(shape: Shape, mut f: impl FnMut(&[u8])) {
    let table =
        CompleteTable::build(shape, shape.cells() - 1, slide::Metric::Stm, &NoProgress).unwrap();
    let mut pos = vec![0u8; shape.cells()];
    for r in 0..table.space().states() {
        table.space().unrank(r, &mut pos);
        f(&pos);
    }
}

/// A solver whose pattern databases all keep the dense index (by rank; [`Solver::pdb_index_choice`]).
fn dense_solver() -> &'static Solver {
    static SOLVER: std::sync::OnceLock<Solver> = std::sync::OnceLock::new();
    SOLVER.get_or_init(|| {
        Solver::builder()
            .cache_dir(CacheDir::None)
            .pdb_index(slide::engine::IndexChoice::Dense)
            .build()
    })
}

/// Asserts that `r` is an error whose message contains `needle`.
fn refused<T, E: std::fmt::Display>(r: Result<T, E>, needle: &str) {
    match r {
        Ok(_) => panic!("accepted; expected an error naming {needle:?}"),
        Err(e) => {
            let e = e.to_string();
            assert!(e.contains(needle), "{e}");
        }
    }
}

fn pdb_set(shape: Shape, spec: &str) -> (Geometry, PdbSet) {
    pdb_set_of(solver(), shape, spec)
}

fn pdb_set_of(s: &Solver, shape: Shape, spec: &str) -> (Geometry, PdbSet) {
    let goal = Board::goal(shape);
    let frame = slide::engine::frame::Frame::new(&goal);
    let set: PdbSet = s
        .pdb_set(&goal, &frame, &spec.parse::<PartitionSpec>().unwrap())
        .unwrap();
    (Geometry::new(shape, shape.cells() - 1).unwrap(), set)
}

/// The evaluator that reads plain and zero-aware databases.
fn pdb_eval(shape: Shape, spec: &str, reflect: bool) -> PdbEval {
    let (g, set) = pdb_set(shape, spec);
    PdbEval::new(&g, &set, reflect).unwrap()
}

/// The evaluator for plain databases only (no zero-aware code in its loop), which the search uses when no
/// database is zero-aware.
fn pdb_plain(shape: Shape, spec: &str, reflect: bool) -> PdbEval<false> {
    let (g, set) = pdb_set(shape, spec);
    PdbEval::plain(&g, &set, reflect).unwrap()
}

// Manhattan distance and linear conflicts are consistent. Pattern databases keep, for each placement of their tiles,
// the least cost over the blank's cells; where the blank is walled in by pattern tiles that least cost can be far
// below the cost from the blank's actual cell, so a move may change h by more than one. They stay admissible (which
// is all IDA* needs for optimal answers); the tests measure how rare such moves are.
#[test]
fn heuristics_admissible_and_consistent_on_3x3() {
    let shape = Shape::new(3, 3).unwrap();
    let g = Geometry::new(shape, 8).unwrap();
    check_exhaustively(shape, &mut Manhattan::new(&g), "md", true);
    check_exhaustively(shape, &mut LinearConflict::new(&g), "lc", true);
    let moves = 181_440 * 8 / 3; // about 2.67 moves per state
    for (spec, reflect) in [
        ("4-4", false),
        ("4-4", true),
        ("1,2,3/4,5/6,7,8", true),
        ("8", false),
    ] {
        let jumps = check_exhaustively(shape, &mut pdb_eval(shape, spec, reflect), spec, false);
        eprintln!("3x3 pdb {spec} reflect {reflect}: h changed by more than 1 across {jumps} of about {moves} moves");
        assert!(jumps * 5 < moves, "pdb {spec}: {jumps} jumps");
        let plain = check_exhaustively(shape, &mut pdb_plain(shape, spec, reflect), spec, false);
        assert_eq!(
            plain, jumps,
            "{spec}: the plain evaluator gives other estimates"
        );
        let (g, set) = pdb_set(shape, spec);
        let mut layout = PdbEval::plain_layout(&g, &set, reflect).unwrap();
        let no_bits = check_exhaustively(shape, &mut layout, spec, false);
        assert_eq!(
            no_bits, jumps,
            "{spec}: the evaluator without blank bits gives other estimates"
        );
    }
    // Two partitions maximised: admissible, incremental updates equal to fresh evaluations, and at least as
    // strong as either partition alone on every state.
    let mut max = PdbMax::new(vec![
        pdb_eval(shape, "4-4", true),
        pdb_eval(shape, "1,2,3/4,5/6,7,8", true),
    ])
    .unwrap();
    check_exhaustively(shape, &mut max, "4-4+1,2,3/4,5/6,7,8", false);
    let mut plain_max = PdbMax::new(vec![
        pdb_plain(shape, "4-4", true),
        pdb_plain(shape, "1,2,3/4,5/6,7,8", true),
    ])
    .unwrap();
    check_exhaustively(shape, &mut plain_max, "plain 4-4+1,2,3/4,5/6,7,8", false);
    // A zero-aware database is refused by the plain evaluator, by name.
    let (g, zset) = pdb_set(shape, "z4-4");
    let err = PdbEval::plain(&g, &zset, true).unwrap_err().to_string();
    assert!(err.contains("zero-aware"), "{err}");
    // Blank-bit and blank-cell databases are read by the plain evaluator, and refused by the plain-layout one.
    let (g, zbset) = pdb_set(shape, "zb4-4");
    assert!(PdbEval::plain(&g, &zbset, true).is_ok());
    refused(PdbEval::plain_layout(&g, &zbset, true), "ZeroBits");
    let (g, zcset) = pdb_set(shape, "zc4-4");
    assert!(PdbEval::plain(&g, &zcset, true).is_ok());
    refused(PdbEval::plain_layout(&g, &zcset, true), "ZeroCells");
    refused(PdbEval::blank_bits(&g, &zcset, true), "ZeroCells");
    assert!(PdbEval::blank_bits(&g, &zbset, true).is_ok());
    let (mut a, mut b) = (
        pdb_eval(shape, "4-4", true),
        pdb_eval(shape, "1,2,3/4,5/6,7,8", true),
    );
    let mut stronger = 0;
    every_state(shape, |pos| {
        max.reset(pos);
        a.reset(pos);
        b.reset(pos);
        assert_eq!(max.h(), a.h().max(b.h()));
        stronger += (max.h() > a.h()) as u32;
    });
    assert!(
        stronger > 0,
        "the second partition never raised the estimate"
    );
}

#[test]
fn heuristics_admissible_and_consistent_on_2x4() {
    let shape = Shape::new(2, 4).unwrap();
    let g = Geometry::new(shape, 7).unwrap();
    check_exhaustively(shape, &mut Manhattan::new(&g), "md", true);
    check_exhaustively(shape, &mut LinearConflict::new(&g), "lc", true);
    for spec in ["4-3", "2-2-3"] {
        let jumps = check_exhaustively(shape, &mut pdb_eval(shape, spec, false), spec, false);
        let plain = check_exhaustively(shape, &mut pdb_plain(shape, spec, false), spec, false);
        assert_eq!(
            plain, jumps,
            "{spec}: the plain evaluator gives other estimates"
        );
        eprintln!("2x4 pdb {spec}: h changed by more than 1 across {jumps} of about 50,400 moves");
        assert!(jumps * 4 < 20_160 * 5 / 2, "pdb {spec}: {jumps} jumps");
    }
    // A pattern of every tile is the exact distance: consistent.
    check_exhaustively(shape, &mut pdb_eval(shape, "7", false), "pdb 7", true);
}

/// Plain BFS from `start` to `goal` up to `limit` moves (`slide-reference`): the least number of moves, or None.
fn bfs_distance(start: &[u8], goal: &[u8], rows: usize, cols: usize, limit: u32) -> Option<usize> {
    slide_reference::distance(rows, cols, start, goal, slide_reference::Metric::Stm, limit)
        .map(|d| d as usize)
}

fn replay(board: &Board, moves: &[u32], goal: &Board) {
    let mut b = board.clone();
    for &t in moves {
        b.apply(t).expect("legal move");
    }
    assert_eq!(&b, goal, "the moves reach the goal");
}

#[test]
fn short_4x4_scrambles_match_bfs_for_every_heuristic() {
    let shape = Shape::new(4, 4).unwrap();
    let goal = Board::goal(shape);
    let s = solver();
    let mut rng = Scrambler::new(11);
    let heuristics = [
        HeuristicChoice::Manhattan,
        HeuristicChoice::LinearConflict,
        HeuristicChoice::Pdb("5-5-5".parse().unwrap()),
    ];
    for i in 0..24 {
        let b = rng.walk(&goal, 8 + (i % 7));
        let tiles: Vec<u8> = b.tiles().iter().map(|&t| t as u8).collect();
        let gt: Vec<u8> = goal.tiles().iter().map(|&t| t as u8).collect();
        let want = bfs_distance(&tiles, &gt, 4, 4, 16).expect("within the walk length");
        for h in &heuristics {
            let opts = SolveOptions {
                heuristic: h.clone(),
                ..Default::default()
            };
            let sol = s.solve_with(&b, &goal, &opts).unwrap();
            assert!(sol.is_optimal());
            assert_eq!(counted(&sol), Some(want as i64), "{h:?} on {b}");
            replay(&b, sol.moves().unwrap(), &goal);
        }
    }
}

#[test]
fn ida_star_forced_on_small_shapes_matches_tables() {
    let s = solver();
    for (r, c, spec) in [
        (2, 3, "5"),
        (3, 3, "4-4"),
        (2, 4, "4-3"),
        (3, 2, "3-2"),
        (2, 5, "5-4"),
    ] {
        let shape = Shape::new(r, c).unwrap();
        let goal = Board::goal(shape);
        let mut rng = Scrambler::new(r as u64 * 10 + c as u64);
        for _ in 0..30 {
            let b = rng.uniform(&goal);
            let want = s.distance(&b, &goal).unwrap();
            for h in [
                HeuristicChoice::LinearConflict,
                HeuristicChoice::Pdb(spec.parse().unwrap()),
            ] {
                let opts = SolveOptions {
                    method: Method::Search,
                    heuristic: h,
                    ..Default::default()
                };
                let sol = s.solve_with(&b, &goal, &opts).unwrap();
                assert_eq!(counted(&sol), Some(want), "{shape} {b}");
                assert!(sol.is_optimal());
                replay(&b, sol.moves().unwrap(), &goal);
            }
        }
    }
}

/// Korf's instances that fit the CI budget, with the default databases (zb6-6-3, the blank-bit layout); their goal
/// is blank first.
#[test]
fn korf_instances_give_published_optima() {
    let text = slide::benchmarks::KORF100;
    let s = solver();
    let shape = Shape::new(4, 4).unwrap();
    let goal = Board::goal_blank_first(shape);
    let mut solved = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let nums: Vec<&str> = line.split_whitespace().collect();
        let id: u32 = nums[0].parse().unwrap();
        // A spread of instances that stay well within the CI budget.
        if ![1, 2, 4, 5, 6, 8, 9, 13, 16, 19, 20].contains(&id) {
            continue;
        }
        let optimal: i64 = nums[1].parse().unwrap();
        let b = Board::parse_with_shape(&nums[3..].join(" "), Some(shape)).unwrap();
        let sol = s.solve(&b, &goal).unwrap();
        assert!(sol.is_optimal());
        assert_eq!(counted(&sol), Some(optimal), "Korf instance {id}");
        replay(&b, sol.moves().unwrap(), &goal);
        solved += 1;
    }
    assert_eq!(solved, 11);
}

#[test]
fn limits_stop_the_search_and_say_so() {
    let s = solver();
    let shape = Shape::new(4, 4).unwrap();
    let goal = Board::goal_blank_first(shape);
    // Korf instance 1 needs 57 moves; Manhattan-only IDA* needs far more than 1000 nodes.
    let b = Board::parse_with_shape("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", Some(shape)).unwrap();
    let opts = SolveOptions {
        heuristic: HeuristicChoice::Manhattan,
        max_nodes: Some(1000),
        ..Default::default()
    };
    let sol = s.solve_with(&b, &goal, &opts).unwrap();
    assert!(!sol.is_optimal());
    assert!(sol.moves().is_none());
    assert!(
        sol.lower_bound() >= 41 && sol.lower_bound() <= 57,
        "lower bound {}",
        sol.lower_bound()
    );
    assert!(sol.nodes() >= 1000 && sol.nodes() < 1000 + (1 << 15));
}

/// The node limit holds for a single search shared among threads as for one on a single thread: the answer's
/// `nodes` passes it by at most 4 (the children of one node) when the limit is too small to share, by at most
/// [`WORKER_CHECK_EVERY`] (and one node's children) per thread when it is shared.
#[test]
fn max_nodes_holds_for_parallel_single_searches() {
    use slide::engine::ida::WORKER_CHECK_EVERY;
    let s = solver();
    let shape = Shape::new(4, 4).unwrap();
    let goal = Board::goal_blank_first(shape);
    // Korf instance 3 (59 moves).
    let b = Board::parse_with_shape("14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15", Some(shape)).unwrap();
    let threads = 4;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    for (max, slack) in [
        (1, 4),
        (2, 4),
        (100, 4),
        (5_000, 4),
        (20_000, 4),
        (600_000, threads as u64 * (WORKER_CHECK_EVERY + 4) + 4),
    ] {
        for parallel in [false, true] {
            let opts = SolveOptions {
                heuristic: HeuristicChoice::Manhattan,
                max_nodes: Some(max),
                parallel,
                ..Default::default()
            };
            let sol = pool.install(|| s.solve_with(&b, &goal, &opts)).unwrap();
            assert!(sol.moves().is_none() && !sol.is_optimal());
            assert!(
                sol.nodes() >= max && sol.nodes() <= max + slack,
                "max_nodes {max}, parallel {parallel}: {} nodes",
                sol.nodes()
            );
        }
    }
}

#[test]
fn weighted_search_stays_within_its_bound() {
    let s = solver();
    let shape = Shape::new(3, 3).unwrap();
    let goal = Board::goal(shape);
    let mut rng = Scrambler::new(5);
    for _ in 0..40 {
        let b = rng.uniform(&goal);
        let opt = s.distance(&b, &goal).unwrap();
        for w in [1.5, 2.0, 3.0] {
            let opts = SolveOptions {
                method: Method::Search,
                weight: Some(w),
                ..Default::default()
            };
            let sol = s.solve_with(&b, &goal, &opts).unwrap();
            let len = sol.length().unwrap() as i64;
            assert!(
                len >= opt && len as f64 <= w * opt as f64,
                "w {w}: {len} vs optimum {opt}"
            );
            assert!(!sol.is_optimal() || len == opt);
            replay(&b, sol.moves().unwrap(), &goal);
        }
    }
}

/// Bounded-suboptimal search on Korf's 15-puzzles: every answer within W times the published optimum.
#[test]
fn within_w_on_korf_instances() {
    let text = slide::benchmarks::KORF100;
    let s = solver();
    let shape = Shape::new(4, 4).unwrap();
    let goal = Board::goal_blank_first(shape);
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(12)
    {
        let nums: Vec<&str> = line.split_whitespace().collect();
        let optimal: i64 = nums[1].parse().unwrap();
        let b = Board::parse_with_shape(&nums[3..].join(" "), Some(shape)).unwrap();
        for w in [1.2, 2.0] {
            let opts = SolveOptions {
                weight: Some(w),
                ..Default::default()
            };
            let sol = s.solve_with(&b, &goal, &opts).unwrap();
            let len = sol.length().unwrap() as i64;
            assert!(
                len >= optimal && len as f64 <= w * optimal as f64,
                "w {w}: {len} vs {optimal}"
            );
            assert_eq!(sol.within(), Some(w));
            assert!(sol.lower_bound() as i64 <= optimal);
            replay(&b, sol.moves().unwrap(), &goal);
            checked += 1;
        }
    }
    assert_eq!(checked, 24);
}

/// Easy 24-puzzle scrambles, solved optimally (against a BFS) within the CI budget.
#[test]
fn easy_5x5_scrambles_solved_optimally() {
    let shape = Shape::new(5, 5).unwrap();
    let goal = Board::goal(shape);
    let s = solver();
    let mut rng = Scrambler::new(25);
    let gt: Vec<u8> = goal.tiles().iter().map(|&t| t as u8).collect();
    for i in 0..8 {
        let b = rng.walk(&goal, 8 + i);
        let tiles: Vec<u8> = b.tiles().iter().map(|&t| t as u8).collect();
        let want = bfs_distance(&tiles, &gt, 5, 5, 15).expect("within the walk length");
        let opts = SolveOptions {
            heuristic: HeuristicChoice::LinearConflict,
            ..Default::default()
        };
        let sol = s.solve_with(&b, &goal, &opts).unwrap();
        assert!(sol.is_optimal());
        assert_eq!(counted(&sol), Some(want as i64), "{b}");
        replay(&b, sol.moves().unwrap(), &goal);
    }
}

/// One search shared among threads gives exactly the sequential search's least number of moves: Korf instances with
/// the default pattern databases, 4 × 4 scrambles against a BFS, and forced search on 3 × 3 and 2 × 4 against the
/// complete tables; limits still stop it and say so.
#[test]
fn parallel_search_gives_the_same_optimal_lengths() {
    let s = solver();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let parallel = |h: HeuristicChoice| SolveOptions {
        method: Method::Search,
        heuristic: h,
        parallel: true,
        ..Default::default()
    };
    pool.install(|| {
        let text = slide::benchmarks::KORF100;
        let shape = Shape::new(4, 4).unwrap();
        let goal = Board::goal_blank_first(shape);
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .take(12)
        {
            let nums: Vec<&str> = line.split_whitespace().collect();
            let optimal: i64 = nums[1].parse().unwrap();
            let b = Board::parse_with_shape(&nums[3..].join(" "), Some(shape)).unwrap();
            let sol = s
                .solve_with(&b, &goal, &parallel(HeuristicChoice::Auto))
                .unwrap();
            assert!(sol.is_optimal());
            assert_eq!(counted(&sol), Some(optimal), "Korf instance {}", nums[0]);
            replay(&b, sol.moves().unwrap(), &goal);
        }

        let goal = Board::goal(shape);
        let gt: Vec<u8> = goal.tiles().iter().map(|&t| t as u8).collect();
        let mut rng = Scrambler::new(17);
        for i in 0..20 {
            let b = rng.walk(&goal, 4 + i % 11);
            let tiles: Vec<u8> = b.tiles().iter().map(|&t| t as u8).collect();
            let want = bfs_distance(&tiles, &gt, 4, 4, 16).expect("within the walk length");
            for h in [
                HeuristicChoice::Manhattan,
                HeuristicChoice::LinearConflict,
                HeuristicChoice::Auto,
            ] {
                let sol = s.solve_with(&b, &goal, &parallel(h.clone())).unwrap();
                assert!(sol.is_optimal());
                assert_eq!(counted(&sol), Some(want as i64), "{h:?} on {b}");
                replay(&b, sol.moves().unwrap(), &goal);
            }
        }

        for (r, c, spec) in [(3, 3, "4-4"), (2, 4, "4-3")] {
            let shape = Shape::new(r, c).unwrap();
            let goal = Board::goal(shape);
            let mut rng = Scrambler::new(99);
            for _ in 0..40 {
                let b = rng.uniform(&goal);
                let want = s.distance(&b, &goal).unwrap();
                for h in [
                    HeuristicChoice::Manhattan,
                    HeuristicChoice::Pdb(spec.parse().unwrap()),
                ] {
                    let sol = s.solve_with(&b, &goal, &parallel(h)).unwrap();
                    assert!(sol.is_optimal());
                    assert_eq!(counted(&sol), Some(want), "{shape} {b}");
                    replay(&b, sol.moves().unwrap(), &goal);
                }
            }
        }

        // Korf instance 1 with Manhattan distance, cut at a million nodes: stopped, with a proven lower bound.
        let shape = Shape::new(4, 4).unwrap();
        let goal = Board::goal_blank_first(shape);
        let b =
            Board::parse_with_shape("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", Some(shape)).unwrap();
        let opts = SolveOptions {
            max_nodes: Some(1_000_000),
            ..parallel(HeuristicChoice::Manhattan)
        };
        let sol = s.solve_with(&b, &goal, &opts).unwrap();
        assert!(!sol.is_optimal());
        assert!(sol.moves().is_none());
        assert!(
            (41..=57).contains(&sol.lower_bound()),
            "lower bound {}",
            sol.lower_bound()
        );
        assert!(
            sol.nodes() >= 1_000_000 && sol.nodes() < 1_300_000,
            "{} nodes",
            sol.nodes()
        );
    });
}

/// IDA* forced on 3 × 4 and 4 × 3 boards (the largest shapes with complete tables) gives the table's distance, with
/// the default pattern databases and with linear conflicts; the table is built once (about 30 s on two cores).
#[test]
fn ida_star_forced_on_3x4_matches_the_table() {
    let s = solver();
    for (r, c) in [(3, 4), (4, 3)] {
        let shape = Shape::new(r, c).unwrap();
        let goal = Board::goal(shape);
        let mut rng = Scrambler::new(34);
        for i in 0..12 {
            let b = rng.uniform(&goal);
            let want = s.distance(&b, &goal).unwrap();
            let heuristics = if i % 3 == 0 {
                vec![HeuristicChoice::Auto, HeuristicChoice::LinearConflict]
            } else {
                vec![HeuristicChoice::Auto]
            };
            for h in heuristics {
                let opts = SolveOptions {
                    method: Method::Search,
                    heuristic: h.clone(),
                    ..Default::default()
                };
                let sol = s.solve_with(&b, &goal, &opts).unwrap();
                assert!(sol.is_optimal());
                assert_eq!(counted(&sol), Some(want), "{shape} {h:?} {b}");
                replay(&b, sol.moves().unwrap(), &goal);
            }
        }
    }
    // The farthest boards: 53 moves.
    let stats = s.stats(&Board::goal(Shape::new(3, 4).unwrap())).unwrap();
    let goal = Board::goal(Shape::new(3, 4).unwrap());
    for b in stats.antipodes.iter().take(2) {
        let opts = SolveOptions {
            method: Method::Search,
            ..Default::default()
        };
        let sol = s.solve_with(b, &goal, &opts).unwrap();
        assert_eq!(counted(&sol), Some(53), "{b}");
        replay(b, sol.moves().unwrap(), &goal);
    }
}

/// Move pruning keeps a shortest path to every state: a depth-first walk from the goal that moves only where the
/// move-pruning automaton allows (and never straight back) still reaches every state within `depth` moves at its
/// breadth-first distance. Checked on shapes where the board's edges cut the 2 × 2 cycles short.
#[test]
fn move_pruning_keeps_a_shortest_path_to_every_state() {
    use slide::engine::pruning::{MovePruner, DEAD};
    #[allow(clippy::too_many_arguments)]
    fn walk(
        shape: Shape,
        fsm: &MovePruner,
        tiles: &mut Vec<u8>,
        blank: usize,
        prev: usize,
        s: u16,
        depth: u32,
        limit: u32,
        best: &mut HashMap<Vec<u8>, u32>,
        nodes: &mut u64,
    ) {
        *nodes += 1;
        let e = best.entry(tiles.clone()).or_insert(u32::MAX);
        if depth < *e {
            *e = depth;
        }
        if depth == limit {
            return;
        }
        let cols = shape.cols();
        for c in shape.neighbors(blank) {
            if c == prev {
                continue;
            }
            let d = if c + cols == blank {
                0
            } else if c == blank + cols {
                1
            } else if c + 1 == blank {
                2
            } else {
                3
            };
            let sc = fsm.step(s, d);
            if sc == DEAD {
                continue;
            }
            tiles.swap(blank, c);
            walk(
                shape,
                fsm,
                tiles,
                c,
                blank,
                sc,
                depth + 1,
                limit,
                best,
                nodes,
            );
            tiles.swap(blank, c);
        }
    }
    for (rows, cols, limit) in [(3, 3, 16), (2, 5, 16), (3, 4, 15), (4, 4, 14)] {
        let shape = Shape::new(rows, cols).unwrap();
        let goal = Board::goal(shape);
        let start: Vec<u8> = goal.tiles().iter().map(|&t| t as u8).collect();
        let blank = start.iter().position(|&t| t == 0).unwrap();
        // Plain breadth-first distances from the goal, up to the limit.
        let dist = slide_reference::Reference::within(
            rows,
            cols,
            &start,
            slide_reference::Metric::Stm,
            limit,
        );
        let mut counts = [0u64; 2];
        for (k, fsm) in [MovePruner::none(), MovePruner::global().clone()]
            .iter()
            .enumerate()
        {
            let mut best = HashMap::new();
            let mut tiles = start.clone();
            walk(
                shape,
                fsm,
                &mut tiles,
                blank,
                usize::MAX,
                fsm.start(),
                0,
                limit,
                &mut best,
                &mut counts[k],
            );
            assert_eq!(best.len() as u64, dist.states(), "{shape}: states reached");
            for (t, &d) in &best {
                assert_eq!(dist.distance(t), Some(d), "{shape}: {t:?}");
            }
        }
        assert!(
            counts[1] < counts[0],
            "{shape}: pruning saved nothing ({counts:?})"
        );
    }
}

/// Solves Korf's first `count` instances with `opts`: each the published optimum, its moves replayed. Returns the
/// nodes generated in all.
fn korf_nodes(count: usize, opts: &SolveOptions) -> u64 {
    korf_nodes_with(solver(), count, opts)
}

fn korf_nodes_with(s: &Solver, count: usize, opts: &SolveOptions) -> u64 {
    let text = slide::benchmarks::KORF100;
    let shape = Shape::new(4, 4).unwrap();
    let goal = Board::goal_blank_first(shape);
    let mut total = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(count)
    {
        let nums: Vec<&str> = line.split_whitespace().collect();
        let optimal: i64 = nums[1].parse().unwrap();
        let b = Board::parse_with_shape(&nums[3..].join(" "), Some(shape)).unwrap();
        let sol = s.solve_with(&b, &goal, opts).unwrap();
        assert!(sol.is_optimal());
        assert_eq!(counted(&sol), Some(optimal), "{line} with {opts:?}");
        replay(&b, sol.moves().unwrap(), &goal);
        total += sol.nodes();
    }
    total
}

/// Two partitions maximised (`--pdb 6-6-3+5-5-5`): the published optima, with fewer nodes than 6-6-3 alone.
#[test]
fn two_partitions_maximised_on_korf_instances() {
    let pdb = |spec: &str| SolveOptions {
        heuristic: HeuristicChoice::Pdb(spec.parse().unwrap()),
        ..SolveOptions::default()
    };
    let one = korf_nodes(8, &pdb("6-6-3"));
    let two = korf_nodes(8, &pdb("6-6-3+5-5-5"));
    assert!(two < one, "6-6-3+5-5-5 {two} nodes, 6-6-3 {one}");
}

/// Alternative partitions (`6-6-3|3-3-3-3-3`): the published optima whichever is named first, the plan naming the
/// one that prunes more (chosen by the trial of the first iterations), the trial's nodes counted; a node limit that
/// stops the trial answers with a proven lower bound.
#[test]
fn alternative_partitions_choose_by_trial() {
    let s = solver();
    let shape = Shape::new(4, 4).unwrap();
    let goal = Board::goal_blank_first(shape);
    let pdb = |spec: &str| SolveOptions {
        heuristic: HeuristicChoice::Pdb(spec.parse().unwrap()),
        ..SolveOptions::default()
    };
    let strong = slide::Plan::Search(HeuristicChoice::Pdb("6-6-3".parse().unwrap()));
    for line in slide::benchmarks::KORF100
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(6)
    {
        let nums: Vec<&str> = line.split_whitespace().collect();
        let optimal: i64 = nums[1].parse().unwrap();
        let b = Board::parse_with_shape(&nums[3..].join(" "), Some(shape)).unwrap();
        let alone = s.solve_with(&b, &goal, &pdb("6-6-3")).unwrap();
        for spec in ["6-6-3|3-3-3-3-3", "3-3-3-3-3|6-6-3"] {
            let sol = s.solve_with(&b, &goal, &pdb(spec)).unwrap();
            assert!(sol.is_optimal(), "{spec}: {line}");
            assert_eq!(counted(&sol), Some(optimal), "{spec}: {line}");
            replay(&b, sol.moves().unwrap(), &goal);
            assert_eq!(sol.plan(), &strong, "{spec}: {line}");
            // The trial searched the weaker one as well.
            assert!(
                sol.nodes() > alone.nodes(),
                "{spec}: {} <= {}",
                sol.nodes(),
                alone.nodes()
            );
        }
        // A depth limit holds through the trial (two alternatives alike, so that neither drops out and the trial
        // would run on): every shorter solution ruled out, none searched for beyond.
        for spec in ["6-6-3|6-6-3", "6-6-3|3-3-3-3-3"] {
            for below in [1, 9] {
                let depth = optimal as u64 - below;
                let capped = s
                    .solve_with(
                        &b,
                        &goal,
                        &SolveOptions {
                            max_depth: Some(depth),
                            ..pdb(spec)
                        },
                    )
                    .unwrap();
                assert!(
                    !capped.is_optimal() && capped.moves().is_none(),
                    "{spec}: {line}"
                );
                assert!(
                    capped.lower_bound() > depth && capped.lower_bound() <= optimal as u64,
                    "{spec} below {below}: lower bound {} ({line})",
                    capped.lower_bound()
                );
            }
        }
    }
    let b = Board::parse_with_shape("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", Some(shape)).unwrap();
    // No alternative at all (only the API can build one): an error, not a panic.
    let none = SolveOptions {
        heuristic: HeuristicChoice::Pdb(PartitionSpec::Either(vec![])),
        ..SolveOptions::default()
    };
    let err = s.solve_with(&b, &goal, &none).unwrap_err();
    assert!(err.to_string().contains("at least one partition"), "{err}");
    let stopped = s
        .solve_with(
            &b,
            &goal,
            &SolveOptions {
                max_nodes: Some(2000),
                ..pdb("3-3-3-3-3|6-6-3")
            },
        )
        .unwrap();
    assert!(!stopped.is_optimal() && stopped.moves().is_none());
    assert!(stopped.lower_bound() >= stopped.estimate() && stopped.lower_bound() <= 57);
    assert!(stopped.nodes() >= 2000 && stopped.nodes() < 2000 + (1 << 15));
}

/// With and without move pruning: the same optimal lengths on Korf's instances, and fewer nodes with it.
#[test]
fn move_pruning_gives_the_same_lengths_with_fewer_nodes() {
    let pruning = |on: bool| SolveOptions {
        move_pruning: on,
        ..SolveOptions::default()
    };
    let with = korf_nodes(12, &pruning(true));
    let without = korf_nodes(12, &pruning(false));
    assert!(
        with * 10 < without * 9,
        "nodes with pruning {with}, without {without}"
    );
}

/// A driver of the split search as a distributed one runs it: each threshold cut into subtrees, every subtree
/// searched at that threshold, the next threshold the least that any reported; stops at the first threshold with a
/// solution. Returns the moves and the subtrees searched.
fn split_driver(
    s: &Solver,
    b: &Board,
    goal: &Board,
    opts: &SolveOptions,
    want: usize,
) -> (Vec<u32>, usize) {
    use slide::engine::SubtreeResult;
    let mut threshold = None;
    let mut searched = 0;
    loop {
        let split = s.split_threshold(b, goal, opts, threshold, want).unwrap();
        if let Some(m) = split.solution {
            assert!(split.subtrees.is_empty());
            return (m, searched);
        }
        let mut next = split.next_threshold;
        let mut found = None;
        for root in &split.subtrees {
            searched += 1;
            match s
                .search_subtree(b, goal, opts, split.threshold, root)
                .unwrap()
            {
                SubtreeResult::Solved { moves, .. } => {
                    assert!(moves.starts_with(root));
                    found = found.or(Some(moves));
                }
                SubtreeResult::Exhausted { next_threshold, .. } => {
                    next = match (next, next_threshold) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                }
                SubtreeResult::Stopped { .. } => panic!("no limits were set"),
            }
        }
        if let Some(m) = found {
            return (m, searched);
        }
        let next = next.expect("a solvable board has a next threshold");
        assert!(next > split.threshold);
        threshold = Some(next);
    }
}

#[test]
fn split_search_gives_the_optimal_lengths() {
    let s = solver();
    let mut rng = Scrambler::new(23);
    // 3 × 3 (linear conflicts) and 2 × 4 towards the blank-first goal (another frame), against a plain BFS.
    for (shape, blank_first) in [((3, 3), false), ((2, 4), true)] {
        let shape = Shape::new(shape.0, shape.1).unwrap();
        let goal = if blank_first {
            Board::goal_blank_first(shape)
        } else {
            Board::goal(shape)
        };
        let gt: Vec<u8> = goal.tiles().iter().map(|&t| t as u8).collect();
        for i in 0..6 {
            let b = rng.uniform(&goal);
            let tiles: Vec<u8> = b.tiles().iter().map(|&t| t as u8).collect();
            let want = bfs_distance(&tiles, &gt, shape.rows(), shape.cols(), 40).unwrap();
            let (moves, _) =
                split_driver(s, &b, &goal, &SolveOptions::default(), [1, 4, 50][i % 3]);
            assert_eq!(moves.len(), want, "{b}");
            replay(&b, &moves, &goal);
        }
    }
    // 4 × 4 with pattern databases, walks checked by BFS.
    let goal = Board::goal(Shape::new(4, 4).unwrap());
    let gt: Vec<u8> = goal.tiles().iter().map(|&t| t as u8).collect();
    let opts = SolveOptions {
        heuristic: HeuristicChoice::Pdb("5-5-5".parse().unwrap()),
        ..Default::default()
    };
    for i in 0..6 {
        let b = rng.walk(&goal, 10 + i);
        let tiles: Vec<u8> = b.tiles().iter().map(|&t| t as u8).collect();
        let want = bfs_distance(&tiles, &gt, 4, 4, 16).unwrap();
        let (moves, _) = split_driver(s, &b, &goal, &opts, 16);
        assert_eq!(moves.len(), want, "{b}");
        replay(&b, &moves, &goal);
    }
    // A harder 4 × 4 board: the same length as the unsplit search, with many subtrees.
    let b = Scrambler::new(5).uniform(&goal);
    let whole = s.solve_with(&b, &goal, &opts).unwrap();
    let (moves, searched) = split_driver(s, &b, &goal, &opts, 64);
    assert_eq!(Some(moves.len() as i64), counted(&whole));
    assert!(searched >= 64, "{searched} subtrees");
    replay(&b, &moves, &goal);
}

#[test]
fn split_search_refuses_what_it_cannot_split_and_stops_at_limits() {
    let s = solver();
    let goal = Board::goal(Shape::new(3, 3).unwrap());
    let opts = SolveOptions::default();
    let unsolvable = Board::parse("[[1,2,3],[4,5,6],[8,7,0]]").unwrap();
    assert!(s
        .split_threshold(&unsolvable, &goal, &opts, None, 4)
        .is_err());
    let b = Board::parse("[[8,6,7],[2,5,4],[3,0,1]]").unwrap();
    let split = s.split_threshold(&b, &goal, &opts, None, 4).unwrap();
    assert!(split.subtrees.len() >= 4 && split.threshold == split.estimate);
    // A root that is not a walk of the blank is an error, not a panic.
    assert!(s.search_subtree(&b, &goal, &opts, 40, &[8]).is_err());
    let limited = SolveOptions {
        max_nodes: Some(1),
        ..Default::default()
    };
    let r = s
        .search_subtree(&b, &goal, &limited, 31, &split.subtrees[0])
        .unwrap();
    assert!(
        matches!(r, slide::engine::SubtreeResult::Stopped { .. }),
        "{r:?}"
    );
}

/// Zero-aware databases (`z…`): admissible on every state of 3 × 3 (with and without the reflection) and 2 × 4,
/// incremental values equal to fresh ones (only the moved tile's pattern is looked up again), and at least the
/// plain database's estimate on every state (an entry per region of the blank is at least the least over them).
#[test]
fn zero_aware_databases_admissible_and_dominant_on_3x3_and_2x4() {
    for (shape, specs) in [
        ("3x3", &["4-4", "1,2,3/4,5/6,7,8", "2-2-2-2"][..]),
        ("2x4", &["4-3", "2-2-3"][..]),
    ] {
        let shape: Shape = shape.parse().unwrap();
        let square = shape.rows() == shape.cols();
        let table = CompleteTable::build(shape, shape.cells() - 1, slide::Metric::Stm, &NoProgress)
            .unwrap();
        for spec in specs {
            for &reflect in if square {
                &[false, true][..]
            } else {
                &[false][..]
            } {
                let zspec = format!("z{spec}");
                let mut z = pdb_eval(shape, &zspec, reflect);
                check_exhaustively(shape, &mut z, &zspec, false);
                // The blank-cell layout: the same estimates on every state, through the plain evaluator's loop.
                let zcspec = format!("zc{spec}");
                let mut zc = pdb_plain(shape, &zcspec, reflect);
                check_exhaustively(shape, &mut zc, &zcspec, false);
                // The blank-bit layout: admissible and incremental, between the plain and the zero-aware estimates.
                let zbspec = format!("zb{spec}");
                let mut zb = pdb_plain(shape, &zbspec, reflect);
                check_exhaustively(shape, &mut zb, &zbspec, false);
                let mut plain = pdb_eval(shape, spec, reflect);
                let mut zb_higher = 0u64;
                let mut pos = vec![0u8; shape.cells()];
                let (mut higher, mut total_z, mut total_plain) = (0u64, 0u64, 0u64);
                for r in 0..table.space().states() {
                    table.space().unrank(r, &mut pos);
                    z.reset(&pos);
                    zc.reset(&pos);
                    assert_eq!(zc.h(), z.h(), "{shape} {zcspec} at {pos:?}");
                    plain.reset(&pos);
                    zb.reset(&pos);
                    assert!(
                        plain.h() <= zb.h() && zb.h() <= z.h(),
                        "{shape} {zbspec} at {pos:?}: {} not within {}..={}",
                        zb.h(),
                        plain.h(),
                        z.h()
                    );
                    zb_higher += (zb.h() > plain.h()) as u64;
                    assert!(
                        z.h() >= plain.h(),
                        "{shape} {zspec}: {} below plain {} at {pos:?}",
                        z.h(),
                        plain.h()
                    );
                    higher += (z.h() > plain.h()) as u64;
                    total_z += z.h() as u64;
                    total_plain += plain.h() as u64;
                }
                eprintln!(
                    "{shape} {spec} reflect {reflect}: zero-aware higher on {higher} states, mean h {:.3} vs {:.3}",
                    total_z as f64 / table.space().states() as f64,
                    total_plain as f64 / table.space().states() as f64
                );
                assert!(
                    higher > 0 && zb_higher > 0,
                    "{shape} {zspec}: never above the plain database ({higher}, blank-bit {zb_higher})"
                );
            }
        }
    }
}

/// The sparse index ([`Solver::pdb_index_choice`]; the default for these small patterns) against the dense one:
/// every database of the tests' solver is sparse, every one of the dense solver's is ranked; both admissible and
/// incremental on every state of 3 × 3 and 2 × 4 (plain and blank-cell layouts, with and without the reflection),
/// with the same estimate on every state.
#[test]
fn sparse_and_dense_indexes_agree_on_3x3_and_2x4() {
    for (shape, specs) in [
        (
            "3x3",
            &[
                "4-4",
                "1,2,3/4,5/6,7,8",
                "zc4-4",
                "zc2-2-2-2",
                "zb4-4",
                "zb2-2-2-2",
            ][..],
        ),
        ("2x4", &["4-3", "zc2-2-3", "zb2-2-3"][..]),
    ] {
        let shape: Shape = shape.parse().unwrap();
        let square = shape.rows() == shape.cols();
        let table = CompleteTable::build(shape, shape.cells() - 1, slide::Metric::Stm, &NoProgress)
            .unwrap();
        for spec in specs {
            let (g, sparse_set) = pdb_set_of(solver(), shape, spec);
            let (_, dense_set) = pdb_set_of(dense_solver(), shape, spec);
            assert!(
                sparse_set
                    .pdbs
                    .iter()
                    .all(|p| p.index() == PdbIndex::Sparse),
                "{spec}"
            );
            assert!(
                dense_set.pdbs.iter().all(|p| p.index() == PdbIndex::Dense),
                "{spec}"
            );
            for &reflect in if square {
                &[false, true][..]
            } else {
                &[false][..]
            } {
                let mut sparse = PdbEval::plain(&g, &sparse_set, reflect).unwrap();
                let mut dense = PdbEval::plain(&g, &dense_set, reflect).unwrap();
                check_exhaustively(shape, &mut sparse, &format!("sparse {spec}"), false);
                check_exhaustively(shape, &mut dense, &format!("dense {spec}"), false);
                let mut pos = vec![0u8; shape.cells()];
                for r in 0..table.space().states() {
                    table.space().unrank(r, &mut pos);
                    sparse.reset(&pos);
                    dense.reset(&pos);
                    assert_eq!(sparse.h(), dense.h(), "{shape} {spec} at {pos:?}");
                }
                // The evaluators for one layout only read the same estimates (the incremental updates are checked
                // against fresh evaluations on every state).
                if spec.starts_with("zb") {
                    let mut bits = PdbEval::blank_bits(&g, &sparse_set, reflect).unwrap();
                    check_exhaustively(shape, &mut bits, &format!("blank-bit {spec}"), false);
                    let mut dense_bits = PdbEval::blank_bits(&g, &dense_set, reflect).unwrap();
                    check_exhaustively(
                        shape,
                        &mut dense_bits,
                        &format!("dense blank-bit {spec}"),
                        false,
                    );
                    for r in 0..table.space().states() {
                        table.space().unrank(r, &mut pos);
                        sparse.reset(&pos);
                        bits.reset(&pos);
                        dense_bits.reset(&pos);
                        assert_eq!(sparse.h(), bits.h(), "{shape} {spec} at {pos:?}");
                        assert_eq!(sparse.h(), dense_bits.h(), "{shape} {spec} at {pos:?}");
                    }
                } else if !spec.starts_with('z') {
                    let mut only = PdbEval::plain_layout(&g, &sparse_set, reflect).unwrap();
                    check_exhaustively(shape, &mut only, &format!("plain-layout {spec}"), false);
                }
            }
        }
    }
}

/// Zero-aware 6-6-3 on Korf's first instances: the published optima, moves replayed, with fewer nodes than plain.
#[test]
fn zero_aware_databases_on_korf_instances() {
    let pdb = |spec: &str| SolveOptions {
        heuristic: HeuristicChoice::Pdb(spec.parse().unwrap()),
        ..SolveOptions::default()
    };
    let plain = korf_nodes(10, &pdb("6-6-3"));
    let zero = korf_nodes(10, &pdb("z6-6-3"));
    eprintln!("Korf 1-10: 6-6-3 {plain} nodes, z6-6-3 {zero}");
    assert!(zero < plain, "z6-6-3 {zero} nodes, 6-6-3 {plain}");
    // The blank-cell layout holds the same estimates: the same search, node for node.
    let cells = korf_nodes(10, &pdb("zc6-6-3"));
    assert_eq!(cells, zero, "zc6-6-3 against z6-6-3");
    // The dense index (by rank) against the sparse one the tests' solver takes: node for node.
    assert_eq!(
        korf_nodes_with(dense_solver(), 10, &pdb("6-6-3")),
        plain,
        "dense 6-6-3"
    );
    assert_eq!(
        korf_nodes_with(dense_solver(), 10, &pdb("zc6-6-3")),
        cells,
        "dense zc6-6-3"
    );
    // The blank-bit layout caps each entry at one more than the plain one: between the two, and the same search
    // with either index.
    let bits = korf_nodes(10, &pdb("zb6-6-3"));
    eprintln!("Korf 1-10: zb6-6-3 {bits} nodes");
    assert!(zero <= bits && bits < plain, "zb6-6-3 {bits} nodes");
    assert_eq!(
        korf_nodes_with(dense_solver(), 10, &pdb("zb6-6-3")),
        bits,
        "dense zb6-6-3"
    );
}

/// Mixed sums (sets of disjoint patterns drawn from the direct and the reflected lookups, `with_mixed_sums`):
/// admissible on every state of 3 × 3, move by move and probe by probe equal to a fresh evaluation, never below the
/// estimate without them and above it on some states; plain and blank-bit databases. The rows' third pattern
/// (tiles 7 and 8) and the reflection's (3 and 6) are disjoint, and every other pair meets: one mixed set.
#[test]
fn mixed_sums_admissible_and_stronger_on_3x3() {
    let shape = Shape::new(3, 3).unwrap();
    for spec in ["1,2,3/4,5,6/7,8", "zb1,2,3/4,5,6/7,8"] {
        let (g, set) = pdb_set(shape, spec);
        let mut mixed = PdbEval::new(&g, &set, true).unwrap().with_mixed_sums(true);
        assert_eq!(mixed.mixed_sets(), 1, "{spec}");
        check_exhaustively(shape, &mut mixed, spec, false);
        let mut without = PdbEval::new(&g, &set, true).unwrap();
        let mut stronger = 0;
        every_state(shape, |pos| {
            mixed.reset(pos);
            without.reset(pos);
            assert!(mixed.h() >= without.h(), "{spec} at {pos:?}");
            stronger += u32::from(mixed.h() > without.h());
        });
        eprintln!("3x3 {spec}: mixed sums raise the estimate on {stronger} of 181440 states");
        assert!(
            stronger > 0,
            "{spec}: the mixed sums never raised the estimate"
        );
        // Without the reflection there is nothing to mix: off whatever is asked.
        let alone = PdbEval::new(&g, &set, false).unwrap().with_mixed_sums(true);
        assert_eq!(alone.mixed_sets(), 0);
    }
}

/// A random walk with take-backs on `shape` from its goal: at every step `eval`'s probe, its estimate after the
/// move and after a take-back against `fresh` set up anew on the state.
fn walk_against_fresh<E: Eval, F: Eval>(shape: Shape, eval: &mut E, fresh: &mut F, name: &str) {
    let n = shape.cells();
    // Canonical goal: tile t on cell t - 1, the blank on the last cell.
    let mut pos: Vec<u8> = (0..n as u8)
        .map(|t| if t == 0 { n as u8 - 1 } else { t - 1 })
        .collect();
    let mut at = vec![0u8; n];
    for (t, &c) in pos.iter().enumerate() {
        at[c as usize] = t as u8;
    }
    eval.reset(&pos);
    let mut undo = Vec::new();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut rand = |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    let cols = shape.cols();
    for step in 0..4000 {
        let b = pos[0] as usize;
        if !undo.is_empty() && rand(4) == 0 {
            // Take the last move back: its tile returns from the blank's old cell `to` to `from`.
            let (t, from, to, u) = undo.pop().unwrap();
            eval.pop(t, from, to, u);
            pos[t as usize] = from;
            pos[0] = to;
            at[from as usize] = t;
            at[to as usize] = 0;
        } else {
            let (r, c) = (b / cols, b % cols);
            let mut nbrs = Vec::new();
            if r > 0 {
                nbrs.push(b - cols);
            }
            if r + 1 < shape.rows() {
                nbrs.push(b + cols);
            }
            if c > 0 {
                nbrs.push(b - 1);
            }
            if c + 1 < cols {
                nbrs.push(b + 1);
            }
            let from = nbrs[rand(nbrs.len() as u64) as usize] as u8;
            let t = at[from as usize];
            let (h, probe) = eval.probe(t, from, b as u8, u32::MAX);
            let u = eval.push_probed(t, from, b as u8, probe);
            assert_eq!(eval.h(), h, "{name}: push after probe at step {step}");
            undo.push((t, from, b as u8, u));
            pos[t as usize] = b as u8;
            pos[0] = from;
            at[b] = t;
            at[from as usize] = 0;
        }
        fresh.reset(&pos);
        assert_eq!(eval.h(), fresh.h(), "{name}: step {step} at {pos:?}");
    }
}

/// The evaluators for 32-bit blank-bit entries (the 24-puzzle's: `PdbEval::blank_bits_32` for bits per free cell
/// in the dense index, `PdbEval::blank_cell_bits_32` for bits per cell in the sparse one) read what the evaluator of
/// every layout reads, move by move and probe by probe, on a 4 × 4 partition of 3-tile patterns (whose entries
/// take 32 bits): random walks with take-backs, each state compared with a fresh evaluation from the dense tables.
/// Each refuses the other's tables and 16-bit entries by name, and the solver that takes them answers as an
/// independent heuristic does.
#[test]
fn blank_bits_32_reads_what_the_others_read() {
    let shape: Shape = "4x4".parse().unwrap();
    let (g, dense) = pdb_set_of(dense_solver(), shape, "zb3-3-3-3-3");
    let (_, sparse) = pdb_set(shape, "zb3-3-3-3-3");
    assert!(dense
        .pdbs
        .iter()
        .all(|p| p.packed().bits() == 32 && !p.bit_per_cell()));
    assert!(sparse
        .pdbs
        .iter()
        .all(|p| p.index() == PdbIndex::Sparse && p.bit_per_cell()));
    let mut fresh = PdbEval::plain(&g, &dense, true).unwrap();
    let mut wide = PdbEval::blank_bits_32(&g, &dense, true).unwrap();
    walk_against_fresh(shape, &mut wide, &mut fresh, "blank_bits_32, dense");
    let mut cells = PdbEval::blank_cell_bits_32(&g, &sparse, true).unwrap();
    walk_against_fresh(shape, &mut cells, &mut fresh, "blank_cell_bits_32, sparse");
    let mut any = PdbEval::plain(&g, &sparse, true).unwrap();
    walk_against_fresh(shape, &mut any, &mut fresh, "plain, sparse bits per cell");
    // With the mixed sums (five 3-tile patterns and their reflections give mixed sets): the same walks against a
    // fresh evaluation that keeps them too.
    let mut fresh = PdbEval::plain(&g, &dense, true)
        .unwrap()
        .with_mixed_sums(true);
    assert!(fresh.mixed_sets() > 0);
    let mut wide = PdbEval::blank_bits_32(&g, &dense, true)
        .unwrap()
        .with_mixed_sums(true);
    walk_against_fresh(shape, &mut wide, &mut fresh, "blank_bits_32, dense, mixed");
    let mut cells = PdbEval::blank_cell_bits_32(&g, &sparse, true)
        .unwrap()
        .with_mixed_sums(true);
    walk_against_fresh(
        shape,
        &mut cells,
        &mut fresh,
        "blank_cell_bits_32, sparse, mixed",
    );
    // Each refuses what it cannot read, by name.
    refused(PdbEval::blank_bits_32(&g, &sparse, true), "bit per cell");
    refused(PdbEval::blank_bits(&g, &sparse, true), "bit per cell");
    refused(
        PdbEval::blank_cell_bits_32(&g, &dense, true),
        "without them",
    );
    let (g16, set16) = pdb_set(shape, "zb6-6-3");
    refused(PdbEval::blank_bits_32(&g16, &set16, true), "16-bit");
    refused(PdbEval::blank_cell_bits_32(&g16, &set16, true), "16-bit");
    // Through the solvers (which take these evaluators for these databases): the optimum that linear conflict
    // finds, and moves that replay to the goal.
    let goal = Board::goal(shape);
    let mut rng = Scrambler::new(32);
    for _ in 0..6 {
        let b = rng.walk(&goal, 36);
        let with = |s: &Solver, h: HeuristicChoice, mixed_sums: Option<bool>| {
            s.solve_with(
                &b,
                &goal,
                &SolveOptions {
                    heuristic: h,
                    mixed_sums,
                    ..Default::default()
                },
            )
            .unwrap()
        };
        let lc = with(solver(), HeuristicChoice::LinearConflict, None);
        assert!(lc.is_optimal());
        for s in [solver(), dense_solver()] {
            // The mixed sums by default (off on 16 cells), on, and off.
            for mixed in [None, Some(true), Some(false)] {
                let zb = with(
                    s,
                    HeuristicChoice::Pdb("zb3-3-3-3-3".parse().unwrap()),
                    mixed,
                );
                assert!(zb.is_optimal());
                assert_eq!(zb.distance(), lc.distance(), "{b} mixed {mixed:?}");
                replay(&b, zb.moves().unwrap(), &goal);
            }
        }
    }
}
