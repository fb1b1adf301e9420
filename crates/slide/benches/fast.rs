//! Fast mode (issue 4): count-only solves of random n × n boards, n = 10, 30, 100.
//!
//! Run with `cargo bench -p slidetile --bench fast`; `scripts/bench-fast.sh` times the larger sizes (300, 1000) with
//! one run each. Throughput is reported in moves per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use slide::fast::fast_length;
use slide::Scrambler;
use slide::{Board, CacheDir, Shape, Solver};

fn fast(c: &mut Criterion) {
    let solver = Solver::builder().cache_dir(CacheDir::None).build();
    let mut group = c.benchmark_group("fast");
    group.sample_size(10);
    for n in [10usize, 30, 100] {
        let goal = Board::goal(Shape::new(n, n).unwrap());
        let board = Scrambler::new(n as u64).uniform(&goal);
        let len = fast_length(&solver, &board, &goal).unwrap(); // also builds the last block's table
        group.throughput(Throughput::Elements(len));
        group.bench_function(format!("{n}x{n}"), |b| {
            b.iter(|| fast_length(&solver, black_box(&board), &goal).unwrap())
        });
    }
    group.finish();
}

criterion::criterion_group!(benches, fast);
criterion::criterion_main!(benches);
