//! Partial goals (issue 13): answers for the 4 × 4 first row and top-left 2 × 2 block once their tables are in
//! memory, in both metrics.
//!
//! Run with `cargo bench -p slidetile --bench partial`. Each benchmark answers 100 uniform random 4 × 4 boards (fixed
//! seed): `distance` is the least number of moves alone ([`Solver::distance_to_pattern`], a lookup), `solve`
//! the optimal move sequence too ([`Solver::solve_pattern`], a walk down the table); criterion's time per element
//! is the time per board. The target is under 1 ms per board. The tables (524,160 states each) are built before
//! the timed part, in memory (no cache directory).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use slide::{Board, CacheDir, Metric, Pattern, Scrambler, Shape, SolveOptions, Solver};

fn partial(c: &mut Criterion) {
    let solver = Solver::builder().cache_dir(CacheDir::None).build();
    let goal = Board::goal(Shape::new(4, 4).unwrap());
    let mut rng = Scrambler::new(13);
    let boards: Vec<Board> = (0..100).map(|_| rng.uniform(&goal)).collect();
    let mut group = c.benchmark_group("partial");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(boards.len() as u64));
    for (name, text) in [
        ("row", "1 2 3 4/x x x x/x x x x/x x x x"),
        ("block", "1 2 x x/5 6 x x/x x x x/x x x x"),
    ] {
        let pattern = Pattern::parse(text).unwrap();
        for metric in Metric::ALL {
            let opts = SolveOptions {
                metric,
                ..Default::default()
            };
            // Builds the table: not timed.
            solver.solve_pattern(&boards[0], &pattern, &opts).unwrap();
            group.bench_function(format!("{name}-{metric}/distance"), |b| {
                b.iter(|| {
                    for board in &boards {
                        black_box(
                            solver
                                .distance_to_pattern(black_box(board), &pattern, metric)
                                .unwrap(),
                        );
                    }
                })
            });
            group.bench_function(format!("{name}-{metric}/solve"), |b| {
                b.iter(|| {
                    for board in &boards {
                        black_box(
                            solver
                                .solve_pattern(black_box(board), &pattern, &opts)
                                .unwrap(),
                        );
                    }
                })
            });
        }
    }
    group.finish();
}

criterion::criterion_group!(benches, partial);
criterion::criterion_main!(benches);
