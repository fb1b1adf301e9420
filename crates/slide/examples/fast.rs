//! Times fast mode on one random board, count-only.
//!
//! `cargo run --release -p slidetile --example fast -- N [SEED]` (or `RxC` for a rectangle) prints
//! `n len len/n^3 seconds` (for a rectangle, `n` is `RxC` and the ratio uses `n = max(R, C)`); the time covers
//! the solve only: not drawing the board, nor building the small exact tables that finish it (done first).

use std::time::Instant;

use slide::Scrambler;
use slide::{fast, Board, Shape, Solver};

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: fast N|RxC [SEED]";
    let size = args.next().unwrap_or_else(|| {
        eprintln!("{usage}");
        std::process::exit(2)
    });
    let shape: Shape = if size.contains(['x', 'X']) {
        size.parse()
    } else {
        size.parse::<usize>()
            .map_err(|e| {
                slide::Error::Parse(slide::ParseError::BadShape {
                    text: size.clone(),
                    reason: e.to_string(),
                })
            })
            .and_then(|n| Shape::new(n, n))
    }
    .unwrap_or_else(|e| {
        eprintln!("{usage}: {e}");
        std::process::exit(2)
    });
    let seed: u64 = args.next().map_or(1, |s| {
        s.parse().unwrap_or_else(|e| {
            eprintln!("{usage}: seed: {e}");
            std::process::exit(2)
        })
    });
    let goal = Board::goal(shape);
    let board = Scrambler::new(seed).uniform(&goal);
    let solver = Solver::new();
    // Build the tables of the last block (3x3, 2x3, 2x2) before timing.
    for (r, c) in [(3, 3), (2, 3), (2, 2)] {
        let g = Board::goal(Shape::new(r, c).expect("a small shape"));
        let _ = solver.distance(&g, &g);
    }
    let start = Instant::now();
    let len = fast::fast_length(&solver, &board, &goal).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1)
    });
    let secs = start.elapsed().as_secs_f64();
    let n = shape.rows().max(shape.cols()) as f64;
    let name = if shape.rows() == shape.cols() {
        shape.rows().to_string()
    } else {
        shape.to_string()
    };
    println!("{name} {len} {:.4} {secs:.3}", len as f64 / (n * n * n));
}
