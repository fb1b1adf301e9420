//! What the library's integration tests share: solvers (one in memory for the whole test binary, fresh quiet ones,
//! ones caching into a directory of the test's own with their warnings recorded), shapes and boards written
//! briefly, and the reference distances of 2 × 3.
#![allow(dead_code)] // each test module uses its part

use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use slide::{Board, CacheDir, Progress, Shape, Solver, SolverBuilder};

/// Records the warnings a solver reports.
#[derive(Default)]
pub struct Warnings(Mutex<Vec<String>>);

impl Progress for Warnings {
    fn warn(&self, message: &str) {
        self.0.lock().unwrap().push(message.to_string());
    }
}

impl Warnings {
    /// The warnings so far, leaving them.
    pub fn seen(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }

    /// The warnings so far, leaving none.
    pub fn taken(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

/// A solver caching into `dir` (passed explicitly: no test changes the process's environment) from 4 cells on, so
/// that small shapes exercise the cache quickly, with its warnings recorded.
pub fn cached_solver(dir: &Path) -> (Solver, Arc<Warnings>) {
    let (b, w) = cached_builder(dir);
    (b.build(), w)
}

/// The builder of [`cached_solver`], for a test that sets more.
pub fn cached_builder(dir: &Path) -> (SolverBuilder, Arc<Warnings>) {
    let w = Arc::new(Warnings::default());
    let b = Solver::builder()
        .cache_dir(CacheDir::At(dir.to_path_buf()))
        .progress(w.clone())
        .cache_from_cells(4);
    (b, w)
}

/// A fresh solver with no cache on disk, silent.
pub fn quiet_solver() -> Solver {
    quiet_builder().build()
}

/// The builder of [`quiet_solver`], for a test that sets more.
pub fn quiet_builder() -> SolverBuilder {
    Solver::builder().cache_dir(CacheDir::None)
}

/// One solver with no cache on disk for the whole test binary, so that pattern databases are built once (in
/// memory).
pub fn shared_solver() -> &'static Solver {
    static SOLVER: OnceLock<Solver> = OnceLock::new();
    SOLVER.get_or_init(quiet_solver)
}

/// The shape `rows` × `cols`.
pub fn shape(rows: usize, cols: usize) -> Shape {
    Shape::new(rows, cols).unwrap()
}

/// The board of shape `rows` × `cols` with these cells (0 the blank).
pub fn board(rows: usize, cols: usize, cells: &[u8]) -> Board {
    Board::new(shape(rows, cols), cells.iter().map(|&t| t as u32).collect()).unwrap()
}

/// Distances of all 2 × 3 boards that reach the default goal (the dev-only crate `slide-reference`).
pub fn reference_2x3() -> slide_reference::Reference {
    let r = slide_reference::Reference::new(
        2,
        3,
        &slide_reference::goal(6),
        slide_reference::Metric::Stm,
    );
    assert_eq!(r.states(), 360);
    r
}

/// A solution's number of moves as the reference answers count it: the proven least number, -1 when the goal
/// cannot be reached, `None` when neither is proven.
pub fn counted(s: &slide::Solution) -> Option<i64> {
    if s.is_unsolvable() {
        return Some(-1);
    }
    s.distance().map(|d| d as i64)
}
