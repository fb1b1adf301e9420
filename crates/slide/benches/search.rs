//! Benchmarks of optimal search: IDA* with the default pattern databases (zb6-6-3) on Korf's 15-puzzles, with move
//! pruning and with backtracks pruned only, measured side by side in one run.
//!
//! Run with `cargo bench -p slidetile --bench search`. Groups:
//!
//! - `korf100_1-10/<mode>`: the first ten of Korf's 100 instances solved one after the other on one thread
//!   (`move_pruning`: the default; `backtracks_only`: `SolveOptions::move_pruning = false`).
//! - `manhattan/<mode>`: Korf's instance 1 with Manhattan distance, stopped at 20 million nodes (the raw node rate).
//!
//! The pattern databases are cached in `$SLIDE_BENCH_CACHE` (default `<workspace>/target/bench-cache`). Before the
//! timings, each mode's node count is printed: the ratio of times is the ratio of nodes times the ratio of cost
//! per node.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, SamplingMode};
use slide::{Board, CacheDir, Shape, Solver};
use slide::{HeuristicChoice, SolveOptions};

fn bench_cache() -> PathBuf {
    match std::env::var_os("SLIDE_BENCH_CACHE") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => match std::env::var_os("CARGO_TARGET_DIR") {
            Some(p) if !p.is_empty() => PathBuf::from(p),
            _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"),
        }
        .join("bench-cache"),
    }
}

/// Korf's instances `1..=count` with their optimal lengths.
fn korf(count: usize) -> Vec<(Board, i64)> {
    let text = slide::benchmarks::KORF100;
    let shape = Shape::new(4, 4).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(count)
        .map(|line| {
            let nums: Vec<&str> = line.split_whitespace().collect();
            let b = Board::parse_with_shape(&nums[3..].join(" "), Some(shape)).unwrap();
            (b, nums[1].parse().unwrap())
        })
        .collect()
}

const MODES: [(&str, bool); 2] = [("move_pruning", true), ("backtracks_only", false)];

fn korf_663(c: &mut Criterion, solver: &Solver) {
    let goal = Board::goal_blank_first(Shape::new(4, 4).unwrap());
    let instances = korf(10);
    let mut g = c.benchmark_group("korf100_1-10");
    g.sample_size(10);
    g.sampling_mode(SamplingMode::Flat);
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(8));
    for (name, pruning) in MODES {
        let opts = SolveOptions {
            move_pruning: pruning,
            ..SolveOptions::default()
        };
        let nodes: u64 = instances
            .iter()
            .map(|(b, opt)| {
                let s = solver.solve_with(b, &goal, &opts).unwrap();
                assert_eq!(s.distance(), Some(*opt as u64));
                s.nodes()
            })
            .sum();
        eprintln!("korf100_1-10/{name}: {nodes} nodes");
        g.bench_function(name, |bch| {
            bch.iter(|| {
                for (b, _) in &instances {
                    black_box(solver.solve_with(black_box(b), &goal, &opts).unwrap());
                }
            })
        });
    }
    g.finish();
}

fn manhattan(c: &mut Criterion, solver: &Solver) {
    let goal = Board::goal_blank_first(Shape::new(4, 4).unwrap());
    let (board, _) = korf(1).remove(0);
    let mut g = c.benchmark_group("manhattan");
    g.sample_size(10);
    g.sampling_mode(SamplingMode::Flat);
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(5));
    for (name, pruning) in MODES {
        let opts = SolveOptions {
            heuristic: HeuristicChoice::Manhattan,
            max_nodes: Some(20_000_000),
            move_pruning: pruning,
            ..SolveOptions::default()
        };
        g.bench_function(name, |bch| {
            bch.iter(|| black_box(solver.solve_with(black_box(&board), &goal, &opts).unwrap()))
        });
    }
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let solver = Solver::builder()
        .cache_dir(CacheDir::At(bench_cache()))
        .build();
    korf_663(&mut c, &solver);
    manhattan(&mut c, &solver);
    c.final_summary();
}
