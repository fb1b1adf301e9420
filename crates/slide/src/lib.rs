//! slide: a sliding-tile puzzle solver library — boards of any size, exact distance tables for boards of up to
//! 12 cells, and the move sequence behind every answer.
//!
//! The library does no terminal or network I/O; the `slide` binary and the web page are thin faces over it. Table
//! builds report through [`Progress`] and cache files go where a [`Solver`] is told.
//!
//! The classic problem, with the LeetCode signature:
//!
//! ```
//! assert_eq!(slide::sliding_puzzle(vec![vec![1, 2, 3], vec![4, 0, 5]]), 1);
//! assert_eq!(slide::sliding_puzzle(vec![vec![1, 2, 3], vec![5, 4, 0]]), -1);
//! assert_eq!(slide::sliding_puzzle(vec![vec![4, 1, 2], vec![5, 0, 3]]), 5);
//! assert_eq!(slide::sliding_puzzle(vec![vec![1, 2, 3], vec![4, 5, 0]]), 0);
//! ```
//!
//! The idiomatic API:
//!
//! ```
//! use slide::{Board, Solver};
//! let board = Board::parse("4 1 2/5 0 3").unwrap();
//! let goal = Board::goal(board.shape());
//! let solution = Solver::global().solve(&board, &goal).unwrap();
//! assert_eq!(solution.distance(), Some(5));
//! assert_eq!(solution.moves(), Some(&[5, 4, 1, 2, 3][..]));
//! ```
//!
//! A solver of one's own (where its tables go, what it reports to, its memory budget) is made by
//! [`Solver::builder`]:
//!
//! ```
//! use slide::{Board, CacheDir, Metric, Solver};
//! let solver = Solver::builder().cache_dir(CacheDir::None).max_memory(1 << 30).build();
//! let board = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
//! assert_eq!(solver.distance_in(&board, &Board::goal(board.shape()), Metric::Mtm).unwrap(), 20);
//! ```
//!
//! The top level is the user's API. What a solver keeps inside (its tables and pattern databases,
//! [`engine::SolverExt`]), the search engine's building blocks and the tuning constants live in [`engine`], the
//! researchers' layer, documented but less stable.

#![deny(missing_docs)]
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod analyse;
pub mod benchmarks;
mod board;
mod error;
mod exact;
pub mod fast;
mod metric;
mod patterns;
pub mod practice;
mod progress;
#[cfg(feature = "render")]
pub mod render;
mod scramble;
mod search;
mod solver;
pub mod store;

pub use analyse::{Analysis, BoardAnalysis, BoardHint, Count, Hint, Summary};
pub use board::notation;
pub use board::{Board, Cell, CellProblem, Direction, Pattern, Shape, Tile, MAX_CELLS};
pub use error::{Error, OptionError, ParseError, RenderError, Result, SolveError, StoreError};
pub use metric::Metric;
pub use notation::{Moves, Notation};
pub use patterns::PatternStats;
pub(crate) use progress::stop;
pub use progress::{NoProgress, Progress};
pub use scramble::Scrambler;
pub use search::partition::PartitionSpec;
pub use solver::{
    Answer, CacheDir, HeuristicChoice, Listing, Method, Outcome, Plan, Solution, SolveOptions,
    SolveOptionsBuilder, Solver, SolverBuilder, Stats,
};

pub mod engine {
    //! The engine behind [`Solver`](crate::Solver), for search researchers: ranking, the packed-table type, the
    //! breadth-first search engine, complete tables and their files, canonical frames, pattern databases and
    //! partitions, the heuristics, IDA* and move pruning; what a solver keeps inside ([`SolverExt`]: its tables and
    //! databases, its memory budget's choices, the distributed split); the memory estimates; and the tuning
    //! constants the solver's choices rest on.
    //!
    //! This is the researchers' layer: documented, but **less stable** than the top-level API (its items change when
    //! the engine does). The layers, bottom up:
    //!
    //! - [`rank`], [`packed`]: the one ranking scheme and the one bit-packed table type;
    //! - [`bfs`]: the one breadth-first search engine, over any [`bfs::StateSpace`];
    //! - [`table`], [`cache`]: complete distance tables (boards of at most 12 cells) and their checksummed files;
    //! - [`frame`]: canonical frames (a grid symmetry and a tile renaming that put any goal in a standard form);
    //! - [`pdb`], [`partition`], [`heuristic`]: pattern databases, disjoint partitions and the admissible heuristics;
    //! - [`ida`], [`pruning`]: IDA* (sequential and parallel) and the move-pruning automaton;
    //! - [`mtm`], [`push_pruning`]: the multi-tile search, its label tables and its push-pruning automaton;
    //! - [`SolverExt`], [`build_here`], [`SplitThreshold`], [`SubtreeResult`]: the solver's tables and databases, its
    //!   build threads, and one search threshold cut into subtrees for other processes;
    //! - the memory estimates ([`pdb_needs_memory`], [`table_build_bytes`], …) and the tuning constants
    //!   ([`FAST_DEFAULT_CELLS`], [`FALLBACK_WEIGHTS`], [`TRIAL_NODES`], …).
    //!
    //! ```
    //! use slide::engine::{frame::Frame, heuristic::Geometry};
    //! let goal = slide::Board::goal_blank_first("4x4".parse().unwrap());
    //! let frame = Frame::new(&goal);
    //! let g = Geometry::new(frame.shape(), frame.blank_goal()).unwrap();
    //! # let _ = g;
    //! ```

    pub use crate::board::frame;
    pub use crate::exact::{bfs, cache, packed, rank, table};
    pub use crate::search::pdb::IndexChoice;
    pub use crate::search::{heuristic, ida, mtm, partial, partition, pdb, pruning, push_pruning};
    pub use crate::solver::{
        build_here, partial_build_bytes, pdb_build_bytes, pdb_needs_memory, process_memory_limit,
        table_build_bytes, zbpdb_build_bytes, PdbNeed, SolverExt, SplitThreshold, SubtreeResult,
        DEFAULT_CACHE_FROM_CELLS, DEFAULT_PARTIAL_MEMORY, FALLBACK_WEIGHTS, FAST_DEFAULT_CELLS,
        MAX_WEIGHT, MIXED_SUMS_FROM_CELLS, TRIAL_NODES,
    };
}

/// The least number of moves that solves `board` (goal: tiles in order, blank last), or -1 when it cannot be
/// solved; exactly the LeetCode problem, for 2 × 3 and every other shape of at most 12 cells.
///
/// - Never panics. Returns **-2** for input that is not a board (ragged rows, values missing, repeated or out of
///   range) or whose shape no optimal solver covers (more than 64 cells); [`try_sliding_puzzle`] says why.
/// - Boards of 13 to 64 cells are answered by IDA* with pattern databases: still the least number of moves, but
///   in seconds for the 15-puzzle and possibly hours for 5 × 5; use [`Solver::solve_with`] to set limits. The 5 × 5
///   databases take 5.9 GB of memory (a [`Solver`] with a smaller [`SolverBuilder::max_memory`] takes plain 6-6-6-6,
///   488 MB: [`engine::SolverExt::partition_for`]).
/// - Cost: the first call for a shape builds its complete table (under a millisecond for 2 × 3, about a second for
///   2 × 5); later calls are a table lookup (2 × 3: nanoseconds). For 3 × 4, 4 × 3, 2 × 6 and 6 × 2 the first call
///   loads a 60 MB table from the platform's cache directory ([`store::FileStore::platform`]) or, the very first
///   time, builds it (tens of seconds on two cores, 300 MB of memory) and saves it there.
/// - What it touches: memory, and for the 12-cell shapes (and, above 12 cells, the pattern databases) that one
///   directory. It reads no environment variable and prints nothing. For control over all of this, make a
///   [`Solver`] with [`Solver::builder`].
///
/// ```
/// assert_eq!(slide::sliding_puzzle(vec![vec![1, 2], vec![0, 3]]), 1);
/// assert_eq!(slide::sliding_puzzle(vec![vec![1, 2], vec![3]]), -2);
/// ```
pub fn sliding_puzzle(board: Vec<Vec<i32>>) -> i32 {
    try_sliding_puzzle(board).unwrap_or(-2)
}

/// [`sliding_puzzle`] with the error instead of -2.
///
/// ```
/// let e = slide::try_sliding_puzzle(vec![vec![1, 2, 3], vec![4, 4, 0]]).unwrap_err();
/// assert!(e.to_string().contains("duplicate value 4"));
/// ```
pub fn try_sliding_puzzle(board: Vec<Vec<i32>>) -> Result<i32> {
    let rows = board.len();
    let cols = board.first().map_or(0, Vec::len);
    let n = rows * cols;
    // Fast path: the default goal on a shape with rows <= cols is its own canonical frame.
    if rows >= 2
        && cols >= rows
        && n <= exact::table::MAX_TABLE_CELLS
        && board.iter().all(|r| r.len() == cols)
    {
        let mut pos = [0u8; exact::table::MAX_TABLE_CELLS];
        let mut seen = 0u32;
        let mut ok = true;
        for (cell, &v) in board.iter().flatten().enumerate() {
            if v < 0 || v as usize >= n || seen & (1 << v) != 0 {
                ok = false;
                break;
            }
            seen |= 1 << v;
            pos[v as usize] = cell as u8;
        }
        if ok {
            let t = Solver::global().table(Shape::new_unchecked(rows, cols), n - 1)?;
            return Ok(t.distance(&pos[..n]).map_or(-1, |d| d as i32));
        }
    }
    let b = Board::from_rows(&board)?;
    let d = Solver::global().distance(&b, &Board::goal(b.shape()))?;
    Ok(d as i32)
}
