//! Tests of the solver: planning, builds and their locks, lines, limits, weights and the fallback.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::*;
use crate::board::frame::Frame;
use crate::error::Error;
use crate::search::partition::{self, PartitionSpec};
use crate::search::pdb::{IndexChoice, Pdb, PdbIndex, PdbLayout};
use crate::solver::loaded::READ_IN_ABOVE;
use crate::SolveError;

/// Blank-bit files over the read-in size are read into memory even when mapping, unless the solver maps them
/// all ([`SolverBuilder::read_in_above`]); the answers are the same.
#[test]
fn large_blank_bit_files_are_mapped_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let goal = Board::goal(Shape::new(4, 4).unwrap());
    let frame = Frame::new(&goal);
    let board = Board::parse("13 2 10 3/1 12 8 4/5 0 9 6/15 14 11 7").unwrap();
    let mut lengths = Vec::new();
    for (limit, mapped) in [(Some(0), false), (None, true), (Some(READ_IN_ABOVE), true)] {
        let s = Solver::builder()
            .cache_dir(CacheDir::At(dir.path().into()))
            .map_files(true)
            .read_in_above(limit)
            .build();
        let sets = s.pdb_sets(&goal, &frame, &PartitionSpec::Default).unwrap();
        let zb: Vec<&Arc<Pdb>> = sets
            .iter()
            .flat_map(|set| &set.pdbs)
            .filter(|p| p.layout() == PdbLayout::ZeroBits)
            .collect();
        assert_eq!(zb.len(), 3);
        assert!(
            zb.iter().all(|p| p.packed().is_mapped() == mapped),
            "{limit:?}"
        );
        lengths.push(s.solve(&board, &goal).unwrap().distance());
    }
    assert!(
        lengths.iter().all(|&l| l == lengths[0] && l.is_some()),
        "{lengths:?}"
    );
}

/// The 5 × 5 default with the blank's goal in a corner is the pair `zbdefault|zbalt` (blank-bit, sparse index,
/// 6 distinct databases) when the budget holds them, plain 6-6-6-6 under a smaller budget, with the blank's goal
/// elsewhere, and on other shapes; the index rule gives the pair's tables the sparse index and keeps the
/// 15-puzzle's wider blank-bit 7 tiles dense.
#[test]
fn the_5x5_default_is_the_pair_within_the_budget() {
    let five = Shape::new(5, 5).unwrap();
    let corner = Frame::new(&Board::goal_blank_first(five));
    let d = PartitionSpec::Default;
    let free = Solver::builder().cache_dir(CacheDir::None).build();
    let pair = free.partition_for(&corner, &d);
    assert_eq!(pair.to_string(), "zbdefault|zbalt");
    let needs = free.pdb_needs(&corner, &d, |_| None).unwrap();
    // Every block of either layout once, the two they share counted once.
    let mut want: Vec<Vec<u8>> = Vec::new();
    for part in pair.parts() {
        for cells in partition::resolve(part, five, 24, |_| None).unwrap() {
            if !want.contains(&cells) {
                want.push(cells);
            }
        }
    }
    assert_eq!(want.len(), 6);
    assert_eq!(
        needs.iter().map(|n| n.cells.clone()).collect::<Vec<_>>(),
        want
    );
    for n in &needs {
        assert_eq!((n.layout, n.index), (PdbLayout::ZeroBits, PdbIndex::Sparse));
        assert_eq!(n.bytes, 976_562_500);
        assert!(n.build_bytes > n.bytes && n.states > 2_000_000_000, "{n:?}");
    }
    let memory = pdb_needs_memory(&needs);
    assert!((6_000_000_000..7_000_000_000).contains(&memory), "{memory}");
    // Exactly the pair's need: the pair; a byte less: plain 6-6-6-6 (and its needs say so).
    let at = |limit: u64| {
        Solver::builder()
            .cache_dir(CacheDir::None)
            .max_memory(limit)
            .build()
    };
    assert_eq!(at(memory).partition_for(&corner, &d), pair);
    let small = at(memory - 1);
    assert_eq!(small.partition_for(&corner, &d), d);
    let plain = small.pdb_needs(&corner, &d, |_| None).unwrap();
    assert_eq!(plain.len(), 4);
    assert!(plain
        .iter()
        .all(|n| (n.layout, n.index) == (PdbLayout::Plain, PdbIndex::Sparse)));
    assert!(pdb_needs_memory(&plain) < 1_000_000_000);
    // The blank's goal off the corners, and other shapes: the default as it was.
    let mut tiles: Vec<Tile> = (1..25).collect();
    tiles.insert(12, 0);
    let centre = Frame::new(&Board::new(five, tiles).unwrap());
    assert_eq!(free.partition_for(&centre, &d), d);
    let four = Frame::new(&Board::goal(Shape::new(4, 4).unwrap()));
    assert_eq!(free.partition_for(&four, &d), d);
    assert_eq!(free.pdb_needs(&four, &d, |_| None).unwrap().len(), 3);
    // An explicit spec is never replaced.
    let zb: PartitionSpec = "zbdefault".parse().unwrap();
    assert_eq!(free.partition_for(&corner, &zb), zb);
    // The index rule around the pair's tables.
    let sixteen = Shape::new(4, 4).unwrap();
    assert_eq!(
        free.pdb_index(five, 6, PdbLayout::ZeroBits),
        PdbIndex::Sparse
    );
    assert_eq!(free.pdb_index(five, 6, PdbLayout::Plain), PdbIndex::Sparse);
    assert_eq!(
        free.pdb_index(five, 6, PdbLayout::ZeroCells),
        PdbIndex::Dense
    );
    assert_eq!(free.pdb_index(five, 7, PdbLayout::Plain), PdbIndex::Dense);
    assert_eq!(
        free.pdb_index(sixteen, 7, PdbLayout::ZeroBits),
        PdbIndex::Dense
    );
    assert_eq!(
        free.pdb_index(sixteen, 6, PdbLayout::ZeroBits),
        PdbIndex::Sparse
    );
    let dense = Solver::builder()
        .cache_dir(CacheDir::None)
        .pdb_index(IndexChoice::Dense)
        .build();
    assert_eq!(
        dense.pdb_index(five, 6, PdbLayout::ZeroBits),
        PdbIndex::Dense
    );
}

#[test]
fn examples() {
    let s = Solver::builder().cache_dir(CacheDir::None).build();
    for (text, want) in [
        ("[[1,2,3],[4,0,5]]", 1),
        ("[[1,2,3],[5,4,0]]", -1),
        ("[[4,1,2],[5,0,3]]", 5),
        ("[[1,2,3],[4,5,0]]", 0),
    ] {
        let b = Board::parse(text).unwrap();
        let g = Board::goal(b.shape());
        assert_eq!(s.distance(&b, &g).unwrap(), want, "{text}");
        let solution = s.solve(&b, &g).unwrap();
        assert_eq!(solution.distance(), u64::try_from(want).ok(), "{text}");
        assert_eq!(solution.is_unsolvable(), want < 0, "{text}");
    }
}

/// A small table (built in memory) does not wait for a long build under way: fast mode's last block on a server
/// building its 5x5 databases. The long build is stood for by holding its lock.
#[test]
fn small_tables_do_not_wait_behind_long_builds() {
    let s = Solver::builder().cache_dir(CacheDir::None).build();
    let long_build = s.building.lock().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let b = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
            let _ = tx.send(s.solve(&b, &Board::goal(b.shape())).map(|x| x.distance()));
        });
        let got = rx.recv_timeout(std::time::Duration::from_secs(120));
        drop(long_build);
        assert_eq!(got.unwrap().unwrap(), Some(31));
    });
}

/// A build started by a worker of a rayon pool cannot deadlock it: here the build's parallel half is taken by
/// the pool's other worker, which meanwhile queues a second request for the same value. Building on the caller's
/// pool, the first worker would take that request while it waits and block on the lock it holds itself.
#[test]
fn a_build_inside_a_pool_cannot_deadlock_it() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let (tx, rx) = std::sync::mpsc::channel();
    // Not a scoped thread: if it deadlocks, the test fails rather than waiting for it.
    std::thread::spawn(move || {
        let s = Solver::builder().cache_dir(CacheDir::None).build();
        let map: Mutex<HashMap<u8, Arc<u32>>> = Mutex::new(HashMap::new());
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        {
            let got = pool.install(|| {
                let second = Mutex::new(None);
                rayon::scope(|scope| {
                    let build = || {
                        let stolen = AtomicBool::new(false);
                        rayon::join(
                            || {
                                while !stolen.load(Ordering::Acquire) {
                                    std::thread::yield_now();
                                }
                            },
                            || {
                                stolen.store(true, Ordering::Release);
                                scope.spawn(|_| {
                                    let v = s.loaded_once(&map, &7, || Ok(1)).map(|v| *v);
                                    *second.lock().unwrap() = Some(v);
                                });
                                std::thread::sleep(std::time::Duration::from_millis(200));
                            },
                        );
                        Ok(42)
                    };
                    let first = s.loaded_once(&map, &7, build).map(|v| *v);
                    assert_eq!(first.unwrap(), 42);
                });
                second.into_inner().unwrap()
            });
            let _ = tx.send(got);
        }
    });
    let got = rx.recv_timeout(std::time::Duration::from_secs(60));
    assert_eq!(got.expect("deadlocked").unwrap().unwrap(), 42);
}

/// In a pool given over to builds ([`build_here`](crate::engine::build_here)) a build stays on the calling thread (a
/// server's warm-up reports its progress from there); elsewhere in a pool it moves to a thread of its own.
#[test]
fn build_here_keeps_builds_on_the_callers_thread() {
    let s = Solver::builder().cache_dir(CacheDir::None).build();
    let map: Mutex<HashMap<u8, Arc<std::thread::ThreadId>>> = Mutex::new(HashMap::new());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    pool.install(|| {
        let here = std::thread::current().id();
        let thread = || Ok(std::thread::current().id());
        let built = build_here(|| s.loaded_once(&map, &1, thread)).unwrap();
        assert_eq!(*built, here);
        let elsewhere = s.loaded_once(&map, &2, thread).unwrap();
        assert_ne!(*elsewhere, here);
    });
}

/// The one planning point: methods by shape and options, and "never wait for a build" falling back to linear
/// conflicts until the table or databases are in memory.
#[test]
fn plans() {
    let s = Solver::builder().cache_dir(CacheDir::None).build();
    let b = |t: &str| Board::parse(t).unwrap();
    let plan = |board: &Board, opts: &SolveOptions| {
        s.plan(board, &Board::goal(board.shape()), opts).unwrap()
    };
    let lc = Plan::Search(HeuristicChoice::LinearConflict);
    let pdb = Plan::Search(HeuristicChoice::Pdb(PartitionSpec::Default));
    let dflt = SolveOptions::default();
    let no_wait = SolveOptions {
        wait_for_builds: false,
        ..Default::default()
    };
    let small = b("1 2 3/4 0 5");
    let fifteen = b("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15");
    let weighted = SolveOptions {
        weight: Some(1.5),
        ..Default::default()
    };
    assert_eq!(plan(&b("[[0,1]]"), &dflt), Plan::Line);
    assert_eq!(plan(&small, &dflt), Plan::Table);
    assert_eq!(plan(&small, &weighted), lc);
    assert_eq!(plan(&fifteen, &dflt), pdb);
    assert_eq!(plan(&fifteen, &weighted), pdb);
    let six = Board::goal(Shape::new(6, 6).unwrap());
    assert_eq!(plan(&six, &dflt), Plan::Fast);
    assert_eq!(plan(&six, &weighted), pdb);
    let fast = SolveOptions {
        method: Method::Fast,
        ..Default::default()
    };
    assert_eq!(plan(&small, &fast), Plan::Fast);
    // Nothing loaded yet: without waiting, linear conflicts; once loaded, the table and the databases.
    assert_eq!(plan(&small, &no_wait), lc);
    assert_eq!(plan(&fifteen, &no_wait), lc);
    s.solve(&small, &Board::goal(small.shape())).unwrap();
    assert_eq!(plan(&small, &no_wait), Plan::Table);
    let pdb33 = SolveOptions {
        method: Method::Search,
        heuristic: HeuristicChoice::Pdb(PartitionSpec::Default),
        ..Default::default()
    };
    let eight = b("1 2 3/4 5 6/7 0 8");
    let no_wait33 = SolveOptions {
        wait_for_builds: false,
        ..pdb33.clone()
    };
    assert_eq!(plan(&eight, &no_wait33), lc);
    s.solve_with(&eight, &Board::goal(eight.shape()), &pdb33)
        .unwrap();
    assert_eq!(
        plan(&eight, &no_wait33),
        Plan::Search(HeuristicChoice::Pdb(PartitionSpec::Default))
    );
    // Errors say what is wrong.
    let table = SolveOptions {
        method: Method::Table,
        ..Default::default()
    };
    assert!(matches!(
        s.plan(&fifteen, &Board::goal(fifteen.shape()), &table),
        Err(Error::Solve(SolveError::NoTable { .. }))
    ));
    let nine = Board::goal(Shape::new(9, 9).unwrap());
    assert!(matches!(
        s.plan(&nine, &nine, &weighted),
        Err(Error::Solve(SolveError::SearchTooLarge { .. }))
    ));
}

#[test]
fn lines() {
    let s = Solver::builder().cache_dir(CacheDir::None).build();
    let b = Board::parse("[[1,0,2,3]]").unwrap();
    let g = Board::goal(b.shape());
    assert_eq!(s.solve(&b, &g).unwrap().into_moves(), Some(vec![2, 3]));
    let g0 = Board::goal_blank_first(b.shape());
    assert_eq!(s.solve(&b, &g0).unwrap().into_moves(), Some(vec![1]));
    assert_eq!(
        s.distance(&Board::parse("[[2,0,1,3]]").unwrap(), &g)
            .unwrap(),
        -1
    );
}

/// Distances from `goal` to every board that reaches it, by a plain breadth-first search (the reference).
fn bfs_distances(goal: &Board) -> std::collections::HashMap<Board, usize> {
    let mut dist = std::collections::HashMap::from([(goal.clone(), 0)]);
    let mut queue = std::collections::VecDeque::from([goal.clone()]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        for c in b.shape().neighbors(b.blank()) {
            let mut next = b.clone();
            next.apply(b.tiles()[c]).unwrap();
            if !dist.contains_key(&next) {
                dist.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    dist
}

/// Replays a solution's moves: they must be legal and end on the goal. Returns the length.
fn replay(board: &Board, goal: &Board, s: &Solution) -> usize {
    let moves = s.moves().expect("a solution");
    let mut b = board.clone();
    for &t in moves {
        b.apply(t).unwrap();
    }
    assert_eq!(&b, goal, "the moves of {board} do not reach the goal");
    moves.len()
}

#[test]
fn a_timeout_too_long_for_the_clock_is_no_limit() {
    // Instant::now() + Duration::MAX used to panic ("overflow when adding duration to instant").
    let s = Solver::builder().cache_dir(CacheDir::None).build();
    let goal = Board::goal(Shape::new(2, 3).unwrap());
    let dist = bfs_distances(&goal);
    for timeout in [
        Duration::MAX,
        Duration::from_secs(u64::MAX),
        Duration::from_secs(1 << 62),
    ] {
        let opts = SolveOptions {
            method: Method::Search,
            heuristic: HeuristicChoice::Manhattan,
            timeout: Some(timeout),
            ..Default::default()
        };
        let b = Board::parse("4 1 2/5 0 3").unwrap();
        let sol = s.solve_with(&b, &goal, &opts).unwrap();
        assert!(sol.is_optimal(), "{timeout:?}");
        assert_eq!(replay(&b, &goal, &sol), dist[&b], "{timeout:?}");
    }
    // And the shortest one the type holds stops the search at once, with a lower bound.
    let opts = SolveOptions {
        method: Method::Search,
        heuristic: HeuristicChoice::Manhattan,
        timeout: Some(Duration::ZERO),
        ..Default::default()
    };
    let b = Board::parse("4 1 2/5 0 3").unwrap();
    let sol = s.solve_with(&b, &goal, &opts).unwrap();
    assert!(!sol.is_optimal() && sol.moves().is_none());
    assert!(sol.lower_bound() <= dist[&b] as u64);
}

#[test]
fn weights_outside_their_range_are_errors() {
    let s = Solver::builder().cache_dir(CacheDir::None).build();
    let b = Board::parse("4 1 2/5 0 3").unwrap();
    let goal = Board::goal(b.shape());
    let unsolvable = Board::parse("1 2 3/5 4 0").unwrap();
    for w in [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MAX,
        f64::MIN,
        1e30,
        // From 4 294 968 (u32::MAX / 1000, rounded up) `w * 1000` saturated at u32::MAX; the estimate times the
        // weight overflowed already far below.
        4_294_968.0,
        MAX_WEIGHT + 0.001,
        MAX_WEIGHT * 2.0,
        0.999,
        0.0,
        -0.0,
        -1.0,
        f64::MIN_POSITIVE,
    ] {
        for board in [&b, &unsolvable] {
            for method in [Method::Auto, Method::Search, Method::Table] {
                let opts = SolveOptions {
                    method,
                    weight: Some(w),
                    ..Default::default()
                };
                match s.solve_with(board, &goal, &opts) {
                    Err(Error::Solve(SolveError::InvalidOption { option, reason })) => {
                        assert_eq!(option, "weight");
                        assert!(reason.contains(&MAX_WEIGHT.to_string()), "{reason}");
                    }
                    other => panic!("weight {w}, {method:?}, {board}: {other:?}"),
                }
            }
        }
    }
}

#[test]
fn weighted_answers_stay_within_the_bound_up_to_the_largest_weight() {
    let s = Solver::builder().cache_dir(CacheDir::None).build();
    let goal = Board::goal(Shape::new(3, 3).unwrap());
    let dist = bfs_distances(&goal);
    let mut rng = crate::scramble::Scrambler::new(17);
    for w in [1.0, 1.0009, 1.5, 2.0, 7.25, 99.9999, MAX_WEIGHT] {
        for _ in 0..8 {
            let b = rng.uniform(&goal);
            for heuristic in [HeuristicChoice::Manhattan, HeuristicChoice::LinearConflict] {
                let opts = SolveOptions {
                    heuristic: heuristic.clone(),
                    weight: Some(w),
                    ..Default::default()
                };
                let sol = s.solve_with(&b, &goal, &opts).unwrap();
                let len = replay(&b, &goal, &sol);
                let best = dist[&b];
                assert!(
                    len as f64 <= w * best as f64,
                    "weight {w}, {heuristic:?}, {b}: {len} moves, optimum {best}"
                );
                assert!(sol.lower_bound() <= best as u64);
            }
        }
    }
}

#[test]
fn the_largest_weight_does_not_overflow_the_stack() {
    // Weighted IDA* follows paths as deep as its threshold (up to w times the optimum): with weight 100 on a
    // 6x6 board it went more than 13 000 moves deep and overflowed the stack of the thread it ran on.
    let s = Solver::builder().cache_dir(CacheDir::None).build();
    let goal = Board::goal(Shape::new(6, 6).unwrap());
    let b = crate::scramble::Scrambler::new(3).uniform(&goal);
    let opts = SolveOptions {
        method: Method::Search,
        heuristic: HeuristicChoice::LinearConflict,
        weight: Some(MAX_WEIGHT),
        max_nodes: Some(2_000_000),
        ..Default::default()
    };
    let sol = s.solve_with(&b, &goal, &opts).unwrap();
    let len = replay(&b, &goal, &sol);
    assert!(
        len > 1000 && len <= crate::search::MAX_WEIGHTED_DEPTH as usize,
        "{len}"
    );
    assert!(!sol.is_optimal() && sol.within() == Some(MAX_WEIGHT));
    assert!(sol.lower_bound() == b.manhattan_to(&goal).unwrap() && sol.lower_bound() <= len as u64);
}

/// The marks of a fallback answer: replayable, never optimal unless its length equals the proven lower bound,
/// `within` only for weighted answers and then at most the weight used, fast mode without a bound.
fn check_fallback(board: &Board, goal: &Board, sol: &Solution) -> usize {
    let len = replay(board, goal, sol);
    assert!(sol.lower_bound() >= board.manhattan_to(goal).unwrap());
    assert!(sol.lower_bound() <= len as u64, "{sol:?}");
    if sol.is_optimal() {
        assert_eq!(sol.lower_bound(), len as u64, "{sol:?}");
    }
    match (sol.plan(), sol.within()) {
        // Fast mode is exact up to 9 cells (complete tables).
        (Plan::Fast, within) => assert!(
            within.is_none() && sol.is_optimal() == (board.shape().cells() <= 9),
            "{sol:?}"
        ),
        (Plan::Search(_), Some(w)) => {
            assert!(!sol.is_optimal() && w > 1.0 && w <= 5.0, "{sol:?}");
            assert!(len as f64 <= w * sol.lower_bound() as f64 + 1e-9, "{sol:?}");
        }
        (Plan::Search(_), None) => assert!(sol.is_optimal(), "{sol:?}"),
        other => panic!("{other:?}"),
    }
    len
}

#[test]
fn a_stopped_search_falls_back_to_a_marked_solution() {
    let s = Solver::builder().cache_dir(CacheDir::None).build();
    let goal = Board::goal(Shape::new(5, 5).unwrap());
    let mut rng = crate::scramble::Scrambler::new(5);
    let mut weighted = 0;
    for nodes in [0, 2_000, 200_000] {
        let b = rng.uniform(&goal);
        let opts = SolveOptions {
            max_nodes: Some(nodes),
            wait_for_builds: false,
            fallback: true,
            ..Default::default()
        };
        let sol = s.solve_with(&b, &goal, &opts).unwrap();
        check_fallback(&b, &goal, &sol);
        assert!(!sol.is_optimal(), "{sol:?}");
        // Each phase checks its limit every 2^14 nodes (search::ida's CHECK_EVERY), so it may pass it by that.
        let slack = (1 + FALLBACK_WEIGHTS.len() as u64) << 14;
        assert!(
            sol.nodes() <= nodes + slack,
            "{} nodes over a budget of {nodes}",
            sol.nodes()
        );
        if nodes == 0 {
            assert_eq!(sol.plan(), &Plan::Fast);
        }
        weighted += usize::from(sol.within().is_some());
        // Without the fallback the same budget gives no moves, and the same proven bound or less.
        let plain = s
            .solve_with(
                &b,
                &goal,
                &SolveOptions {
                    fallback: false,
                    ..opts
                },
            )
            .unwrap();
        assert!(plain.moves().is_none() && plain.lower_bound() <= sol.lower_bound());
    }
    assert!(weighted > 0, "no budget gave a weighted answer");
}

#[test]
fn fallback_answers_keep_their_bounds_against_breadth_first_distances() {
    let s = Solver::builder().cache_dir(CacheDir::None).build();
    let goal = Board::goal(Shape::new(3, 3).unwrap());
    let dist = bfs_distances(&goal);
    let mut rng = crate::scramble::Scrambler::new(23);
    let mut seen = std::collections::HashSet::new();
    for i in 0..40u64 {
        let b = rng.uniform(&goal);
        let opts = SolveOptions {
            method: Method::Search,
            heuristic: HeuristicChoice::Manhattan,
            max_nodes: Some(i * 40),
            fallback: true,
            ..Default::default()
        };
        let sol = s.solve_with(&b, &goal, &opts).unwrap();
        let len = check_fallback(&b, &goal, &sol);
        let best = dist[&b];
        assert!(
            sol.lower_bound() <= best as u64,
            "{b}: {sol:?}, optimum {best}"
        );
        if sol.is_optimal() {
            assert_eq!(len, best, "{b}: {sol:?}");
        }
        if let Some(w) = sol.within() {
            assert!(
                len as f64 <= w * best as f64 + 1e-9,
                "{b}: {sol:?}, optimum {best}"
            );
        }
        seen.insert((sol.plan().name(), sol.within().is_some(), sol.is_optimal()));
    }
    // The budgets reach every kind of answer: fast (exact on 3 x 3), weighted, optimal.
    assert!(seen.contains(&("fast", false, true)), "{seen:?}");
    assert!(seen.contains(&("search", true, false)), "{seen:?}");
    assert!(seen.contains(&("search", false, true)), "{seen:?}");
}

#[test]
fn without_limits_the_fallback_changes_nothing() {
    let s = Solver::builder().cache_dir(CacheDir::None).build();
    let b = Board::parse("4 1 2/5 0 3").unwrap();
    let goal = Board::goal(b.shape());
    let opts = SolveOptions {
        method: Method::Search,
        fallback: true,
        ..Default::default()
    };
    let sol = s.solve_with(&b, &goal, &opts).unwrap();
    assert!(sol.is_optimal() && sol.within().is_none());
    assert_eq!(replay(&b, &goal, &sol), 5);
}

/// A search's iterations: thresholds from the estimate up to the optimum in steps of 2, their nodes adding up to the
/// answer's; a stopped search keeps the ones it ran; tables record none.
#[test]
fn iterations_are_recorded_once_each() {
    let solver = Solver::builder().cache_dir(CacheDir::None).build();
    let b = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
    let goal = Board::goal(b.shape());
    let opts = SolveOptions::builder()
        .method(Method::Search)
        .heuristic(HeuristicChoice::Manhattan)
        .build();
    let s = solver.solve_with(&b, &goal, &opts).unwrap();
    let its = s.iterations();
    assert_eq!(
        its.first().map(|i| u64::from(i.threshold)),
        Some(s.estimate())
    );
    assert_eq!(its.last().map(|i| u64::from(i.threshold)), s.distance());
    assert!(its.windows(2).all(|w| w[1].threshold == w[0].threshold + 2));
    assert_eq!(its.iter().map(|i| i.nodes).sum::<u64>(), s.nodes());
    let stopped = SolveOptions {
        max_depth: Some(25),
        ..opts
    };
    let t = solver.solve_with(&b, &goal, &stopped).unwrap();
    assert_eq!(t.iterations(), &its[..t.iterations().len()]);
    assert!(t.iterations().iter().all(|i| i.threshold <= 25));
    let table = solver.solve(&b, &goal).unwrap();
    assert!(table.iterations().is_empty());
}
