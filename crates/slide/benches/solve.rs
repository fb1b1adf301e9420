//! Benchmarks for issue item 10.
//!
//! Run with `cargo bench -p slidetile --bench solve`. Groups:
//!
//! - `leetcode_2x3`: [`slide::sliding_puzzle`] over all 720 boards of 2 × 3 (360 solvable, 360 not), against a
//!   Rust port of the classic per-query BFS written below (array state and string state, `VecDeque`, `HashSet`);
//!   plus `drop_input_only`, the cost of dropping the 720 `Vec<Vec<i32>>` inputs, which `sliding_puzzle` does
//!   inside the timed part because it takes its board by value.
//! - `antipode/<shape>`: the slowest single query of each shape with a complete table, a board at the largest
//!   distance, through `Solver::solve` (moves included) and `Solver::distance`. The 12-cell tables (3x4, 2x6) are
//!   cached in `$SLIDE_BENCH_CACHE` (default `<workspace>/target/bench-cache`) so they are built once.
//! - `table_build`: `CompleteTable::build` for the shapes of at most 10 cells, in single-tile moves (`<shape>`) and
//!   in multi-tile moves (`<shape>-mtm`: the same engine with the multi-tile move generator).
//!
//! After criterion's own output a summary prints ns per board and ratios, read back from criterion's estimates of
//! this run.

use std::collections::{HashSet, VecDeque};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

use criterion::{BatchSize, Criterion, SamplingMode, Throughput};
use slide::engine::table::CompleteTable;
use slide::{Board, CacheDir, NoProgress, Shape, Solver};

/// Every arrangement of 0..6 as 2 × 3 rows, in lexicographic order.
fn all_2x3_boards() -> Vec<Vec<Vec<i32>>> {
    fn permute(prefix: &mut Vec<i32>, left: &mut Vec<i32>, out: &mut Vec<Vec<Vec<i32>>>) {
        if left.is_empty() {
            out.push(vec![prefix[..3].to_vec(), prefix[3..].to_vec()]);
            return;
        }
        for i in 0..left.len() {
            let v = left.remove(i);
            prefix.push(v);
            permute(prefix, left, out);
            prefix.pop();
            left.insert(i, v);
        }
    }
    let mut out = Vec::with_capacity(720);
    permute(&mut Vec::new(), &mut (0..6).collect(), &mut out);
    out
}

/// Neighbours of each cell of a 2 × 3 board, as in the usual LeetCode solution.
const MOVES_2X3: [&[usize]; 6] = [&[1, 3], &[0, 2, 4], &[1, 5], &[0, 4], &[1, 3, 5], &[2, 4]];

/// The classic per-query BFS, array state: a queue of (state, depth), a hash set of seen states.
fn bfs_port_array(board: Vec<Vec<i32>>) -> i32 {
    let mut start = [0u8; 6];
    for (i, &v) in board.iter().flatten().enumerate() {
        start[i] = v as u8;
    }
    let target = [1u8, 2, 3, 4, 5, 0];
    let mut queue = VecDeque::new();
    let mut seen = HashSet::new();
    queue.push_back((start, 0));
    seen.insert(start);
    while let Some((s, d)) = queue.pop_front() {
        if s == target {
            return d;
        }
        let z = s.iter().position(|&v| v == 0).unwrap();
        for &j in MOVES_2X3[z] {
            let mut t = s;
            t.swap(z, j);
            if seen.insert(t) {
                queue.push_back((t, d + 1));
            }
        }
    }
    -1
}

/// The same BFS with string states, the way the Python solution writes it (`"".join(...)`, `s.index('0')`).
fn bfs_port_string(board: Vec<Vec<i32>>) -> i32 {
    let start: String = board.iter().flatten().map(|v| v.to_string()).collect();
    let target = "123450";
    let mut queue = VecDeque::new();
    let mut seen = HashSet::new();
    queue.push_back((start.clone(), 0));
    seen.insert(start);
    while let Some((s, d)) = queue.pop_front() {
        if s == target {
            return d;
        }
        let z = s.find('0').unwrap();
        for &j in MOVES_2X3[z] {
            let mut t = s.clone().into_bytes();
            t.swap(z, j);
            let t = String::from_utf8(t).unwrap();
            if !seen.contains(&t) {
                seen.insert(t.clone());
                queue.push_back((t, d + 1));
            }
        }
    }
    -1
}

/// Inputs per batch: 16 copies of the 720 boards (about 1.3 MB), prepared outside the timed part.
const COPIES_PER_BATCH: u64 = 1;

fn leetcode_2x3(c: &mut Criterion) {
    let boards = all_2x3_boards();
    // Same answers everywhere before timing anything (and the 2 × 3 table built once, outside timing).
    let want: Vec<i32> = boards.iter().cloned().map(bfs_port_array).collect();
    for (b, &w) in boards.iter().zip(&want) {
        assert_eq!(slide::sliding_puzzle(b.clone()), w, "{b:?}");
        assert_eq!(bfs_port_string(b.clone()), w, "{b:?}");
    }
    assert_eq!(want.iter().filter(|&&d| d >= 0).count(), 360);

    let mut g = c.benchmark_group("leetcode_2x3");
    g.throughput(Throughput::Elements(boards.len() as u64));
    g.bench_function("sliding_puzzle", |b| {
        b.iter_batched(
            || boards.clone(),
            |input| {
                let mut sum = 0i32;
                for board in input {
                    sum = sum.wrapping_add(slide::sliding_puzzle(black_box(board)));
                }
                sum
            },
            BatchSize::NumIterations(COPIES_PER_BATCH),
        )
    });
    g.bench_function("drop_input_only", |b| {
        b.iter_batched(
            || boards.clone(),
            |input| {
                for board in input {
                    drop(black_box(board));
                }
            },
            BatchSize::NumIterations(COPIES_PER_BATCH),
        )
    });
    // The judge's pattern: each input built just before its call and freed inside it, one at a time (the
    // allocator's per-thread cache serves the frees); minus the same without the call, this is the lookup alone.
    g.bench_function("clone_each_then_solve", |b| {
        b.iter(|| {
            let mut sum = 0i32;
            for board in &boards {
                sum = sum.wrapping_add(slide::sliding_puzzle(black_box(board.clone())));
            }
            sum
        })
    });
    g.bench_function("clone_each_then_drop", |b| {
        b.iter(|| {
            for board in &boards {
                drop(black_box(board.clone()));
            }
        })
    });
    g.sample_size(10);
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("bfs_port_array", |b| {
        b.iter_batched(
            || boards.clone(),
            |input| {
                let mut sum = 0i32;
                for board in input {
                    sum = sum.wrapping_add(bfs_port_array(black_box(board)));
                }
                sum
            },
            BatchSize::NumIterations(1),
        )
    });
    g.bench_function("bfs_port_string", |b| {
        b.iter_batched(
            || boards.clone(),
            |input| {
                let mut sum = 0i32;
                for board in input {
                    sum = sum.wrapping_add(bfs_port_string(black_box(board)));
                }
                sum
            },
            BatchSize::NumIterations(1),
        )
    });
    g.finish();
}

/// Where the 12-cell tables are cached between bench runs.
fn bench_cache() -> PathBuf {
    match std::env::var_os("SLIDE_BENCH_CACHE") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => workspace_target().join("bench-cache"),
    }
}

fn workspace_target() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"),
    }
}

const TABLE_SHAPES: [&str; 7] = ["2x2", "2x3", "2x4", "3x3", "2x5", "3x4", "2x6"];

fn antipodes(c: &mut Criterion) {
    let solver = Solver::builder()
        .cache_dir(CacheDir::At(bench_cache()))
        .build();
    for name in TABLE_SHAPES {
        let shape: Shape = name.parse().unwrap();
        let goal = Board::goal(shape);
        // Loads or builds the table outside the timed part (the first run builds the 12-cell tables: tens of
        // seconds each).
        let t0 = std::time::Instant::now();
        let stats = solver.stats(&goal).unwrap();
        let ready = t0.elapsed();
        let board = stats.antipodes[0].clone();
        let diameter = stats.diameter() as i64;
        assert_eq!(solver.distance(&board, &goal).unwrap(), diameter);
        let sol = solver.solve(&board, &goal).unwrap();
        assert_eq!(sol.distance(), Some(diameter as u64));
        eprintln!("antipode/{name}: {board} at distance {diameter} (table ready in {ready:.2?})");

        let mut g = c.benchmark_group(format!("antipode/{name}"));
        g.warm_up_time(Duration::from_millis(500));
        g.measurement_time(Duration::from_secs(2));
        g.bench_function("solve_with_moves", |b| {
            b.iter(|| solver.solve(black_box(&board), black_box(&goal)).unwrap())
        });
        g.bench_function("distance", |b| {
            b.iter(|| {
                solver
                    .distance(black_box(&board), black_box(&goal))
                    .unwrap()
            })
        });
        g.finish();
    }
}

const BUILD_SHAPES: [&str; 5] = ["2x2", "2x3", "2x4", "3x3", "2x5"];

fn table_build(c: &mut Criterion) {
    let mut g = c.benchmark_group("table_build");
    g.sample_size(10);
    g.sampling_mode(SamplingMode::Flat);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(3));
    for name in BUILD_SHAPES {
        let shape: Shape = name.parse().unwrap();
        for (suffix, metric) in [("", slide::Metric::Stm), ("-mtm", slide::Metric::Mtm)] {
            g.bench_function(format!("{name}{suffix}"), |b| {
                b.iter(|| {
                    CompleteTable::build(shape, shape.cells() - 1, metric, &NoProgress).unwrap()
                })
            });
        }
    }
    g.finish();
}

/// Criterion's point estimate (ns per iteration) of `group/bench`, if it was measured in this run.
fn estimate(id: &str, since: SystemTime) -> Option<f64> {
    let path = workspace_target()
        .join("criterion")
        .join(id)
        .join("new/estimates.json");
    let meta = std::fs::metadata(&path).ok()?;
    if meta.modified().ok()? < since {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
    v["mean"]["point_estimate"].as_f64()
}

fn human(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

fn summary(since: SystemTime) {
    println!("\n==== summary (criterion mean estimates of this run) ====");
    let per_board = |b: &str| estimate(&format!("leetcode_2x3/{b}"), since).map(|t| t / 720.0);
    let sp = per_board("sliding_puzzle");
    let drop = per_board("drop_input_only");
    let arr = per_board("bfs_port_array");
    let st = per_board("bfs_port_string");
    if let Some(sp) = sp {
        println!(
            "sliding_puzzle, all 720 2x3 boards: {sp:.2} ns/board (target <= 20){}",
            if sp <= 20.0 { "" } else { "  MISSED" }
        );
        if let Some(d) = drop {
            println!(
                "  of which dropping the Vec<Vec<i32>> input (3 frees): ~{d:.2} ns/board; lookup itself ~{:.2} ns",
                sp - d
            );
        }
        for (name, port) in [("array", arr), ("string", st)] {
            if let Some(p) = port {
                println!(
                    "BFS port ({name} state): {:.2} µs/board; sliding_puzzle is {:.0}x faster (target >= 1000x){}",
                    p / 1e3,
                    p / sp,
                    if p / sp >= 1000.0 { "" } else { "  MISSED" }
                );
            }
        }
    }
    if let (Some(a), Some(b)) = (
        per_board("clone_each_then_solve"),
        per_board("clone_each_then_drop"),
    ) {
        println!(
            "one input at a time (clone, call, free): {a:.2} ns/board; clone + free alone {b:.2} ns; lookup ~{:.2} ns",
            a - b
        );
    }
    println!("slowest single query (a board at the largest distance):");
    println!(
        "  {:<6} {:>18} {:>14}",
        "shape", "solve (moves)", "distance"
    );
    for name in TABLE_SHAPES {
        let s = estimate(&format!("antipode_{name}/solve_with_moves"), since);
        let d = estimate(&format!("antipode_{name}/distance"), since);
        if s.is_none() && d.is_none() {
            continue;
        }
        let show = |x: Option<f64>| x.map_or("-".to_string(), human);
        let mark = match (name, s) {
            ("3x4", Some(s)) if s > 20_000.0 => "  MISSED (target <= 20 µs)",
            ("3x4", Some(_)) => "  (target <= 20 µs)",
            _ => "",
        };
        println!("  {name:<6} {:>18} {:>14}{mark}", show(s), show(d));
    }
    println!("table build (CompleteTable::build):     STM          MTM    MTM/STM");
    for name in BUILD_SHAPES {
        let stm = estimate(&format!("table_build/{name}"), since);
        let mtm = estimate(&format!("table_build/{name}-mtm"), since);
        let show = |x: Option<f64>| x.map_or("-".to_string(), human);
        let ratio = stm
            .zip(mtm)
            .map_or("-".to_string(), |(s, m)| format!("{:.2}", m / s));
        println!(
            "  {name:<6} {:>30} {:>12} {ratio:>10}",
            show(stm),
            show(mtm)
        );
    }
}

/// The 2 × 3 figures again, measured interleaved (sliding_puzzle, drop, ports, round after round) and keeping each
/// one's best pass: on a shared machine the ratio of best passes is steadier than criterion's separate means.
fn interleaved() {
    const ROUNDS: usize = 10;
    const FAST_PASSES: usize = 50;
    let boards = all_2x3_boards();
    let pass = |f: &dyn Fn(Vec<Vec<i32>>) -> i32| -> f64 {
        let input = boards.clone();
        let t = Instant::now();
        let mut sum = 0i32;
        for b in input {
            sum = sum.wrapping_add(f(black_box(b)));
        }
        black_box(sum);
        t.elapsed().as_nanos() as f64 / boards.len() as f64
    };
    let drop_only = |b: Vec<Vec<i32>>| -> i32 {
        drop(b);
        0
    };
    let mut best = [f64::MAX; 4];
    for _ in 0..ROUNDS {
        for _ in 0..FAST_PASSES {
            best[0] = best[0].min(pass(&slide::sliding_puzzle));
            best[1] = best[1].min(pass(&drop_only));
        }
        best[2] = best[2].min(pass(&bfs_port_array));
        best[3] = best[3].min(pass(&bfs_port_string));
    }
    println!(
        "interleaved, best of {} passes over the 720 boards (prebuilt inputs, dropped inside the timed part):",
        ROUNDS * FAST_PASSES
    );
    println!(
        "  sliding_puzzle {:.2} ns/board (drop alone {:.2} ns); BFS port array {:.2} µs = {:.0}x, string {:.2} µs = {:.0}x",
        best[0],
        best[1],
        best[2] / 1e3,
        best[2] / best[0],
        best[3] / 1e3,
        best[3] / best[0]
    );
}

fn main() {
    let since = SystemTime::now() - Duration::from_secs(1);
    let mut c = Criterion::default().configure_from_args();
    leetcode_2x3(&mut c);
    antipodes(&mut c);
    table_build(&mut c);
    c.final_summary();
    summary(since);
    // Skipped when criterion was asked for a subset (`cargo bench ... -- FILTER`), a list or a test run.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().all(|a| a == "--bench") {
        interleaved();
    }
}
