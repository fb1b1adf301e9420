//! The solver: picks the method for a board's shape, loads or builds what it needs, and answers.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::board::{Board, Direction, Shape, Tile};
use crate::cache::{self, Meta};
use crate::error::{Error, Result};
use crate::frame::Frame;
use crate::heuristic::{
    Eval, Geometry, LinearConflict, Manhattan, PdbEval, PdbMax, PdbSet, MAX_SEARCH_CELLS,
};
use crate::packed::PackedTable;
use crate::partition::{self, PartitionSpec};
use crate::pdb::{PatternSpace, Pdb};
use crate::progress::{NoProgress, Progress};
use crate::pruning::MovePruner;
use crate::search::{
    ida_star, ida_star_parallel, search_subtree, split_threshold, Frontier, Limits, Outcome,
    Subtree,
};
use crate::table::{CompleteTable, Encoding, FullSpace, MAX_TABLE_CELLS};

/// An answer: the moves (each the tile that slides into the blank), or why there are none.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Solution {
    /// The moves in order; `None` when the goal cannot be reached, or when a limit stopped the search first.
    pub moves: Option<Vec<Tile>>,
    /// Why the goal cannot be reached.
    pub unsolvable_reason: Option<String>,
    /// True when the answer is proven: the moves are least in number, or the goal is proven unreachable.
    pub optimal: bool,
    /// A proven lower bound on the least number of moves (equal to it when `optimal`).
    pub lower_bound: u64,
    /// For bounded-suboptimal search: the moves are at most this factor times the least number.
    pub within: Option<f64>,
    /// Search nodes generated (0 for table lookups).
    pub nodes: u64,
    /// The search heuristic's estimate of the start, a lower bound on the least number of moves (0 for table
    /// lookups and fast mode).
    pub estimate: u64,
}

impl Solution {
    fn unsolvable(reason: String) -> Solution {
        Solution {
            moves: None,
            unsolvable_reason: Some(reason),
            optimal: true,
            lower_bound: 0,
            within: None,
            nodes: 0,
            estimate: 0,
        }
    }

    fn optimal(moves: Vec<Tile>, nodes: u64) -> Solution {
        let lower_bound = moves.len() as u64;
        Solution {
            moves: Some(moves),
            unsolvable_reason: None,
            optimal: true,
            lower_bound,
            within: None,
            nodes,
            estimate: 0,
        }
    }

    /// A solution from a known move sequence (for example from [`crate::fast`]), proven least or not.
    pub fn from_moves(moves: Vec<Tile>, optimal: bool) -> Solution {
        let lower_bound = if optimal { moves.len() as u64 } else { 0 };
        Solution {
            moves: Some(moves),
            unsolvable_reason: None,
            optimal,
            lower_bound,
            within: None,
            nodes: 0,
            estimate: 0,
        }
    }

    /// The number of moves, or -1 when unsolvable (and -1 too when a limit stopped the search: check
    /// [`Solution::is_unsolvable`] and [`Solution::optimal`]).
    pub fn distance(&self) -> i64 {
        self.moves.as_ref().map_or(-1, |m| m.len() as i64)
    }

    /// True when the goal is proven unreachable.
    pub fn is_unsolvable(&self) -> bool {
        self.unsolvable_reason.is_some()
    }

    /// True when the goal can be reached (proven by a solution or by parity).
    pub fn is_solvable(&self) -> bool {
        self.unsolvable_reason.is_none()
    }

    /// The blank's directions for the moves, replayed from `board` (empty when unsolvable).
    ///
    /// ```
    /// use slide::{Board, Solver};
    /// let b = Board::parse("[[1,2,3],[4,0,5]]").unwrap();
    /// let s = Solver::global().solve(&b, &Board::goal(b.shape())).unwrap();
    /// let letters: String = s.directions(&b).unwrap().iter().map(|d| d.letter()).collect();
    /// assert_eq!(letters, "R");
    /// ```
    pub fn directions(&self, board: &Board) -> Result<Vec<Direction>> {
        let mut b = board.clone();
        let mut out = Vec::new();
        for &t in self.moves.iter().flatten() {
            out.push(
                b.direction_of(t)
                    .ok_or(Error::IllegalMove { tile: t as u64 })?,
            );
            b.apply(t)?;
        }
        Ok(out)
    }
}

/// Canonical shapes that have complete tables, in slot order.
const TABLE_SHAPES: [(usize, usize); 7] = [(2, 2), (2, 3), (2, 4), (2, 5), (2, 6), (3, 3), (3, 4)];

#[inline]
fn slot(shape: Shape, blank: usize) -> Option<usize> {
    let i = match (shape.rows, shape.cols) {
        (2, 2) => 0,
        (2, 3) => 1,
        (2, 4) => 2,
        (2, 5) => 3,
        (2, 6) => 4,
        (3, 3) => 5,
        (3, 4) => 6,
        _ => return None,
    };
    debug_assert_eq!(TABLE_SHAPES[i], (shape.rows, shape.cols));
    (blank < shape.cells()).then_some(i * MAX_TABLE_CELLS + blank)
}

/// Where complete tables are kept between runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CacheDir {
    /// [`cache::default_dir`]: `$SLIDE_CACHE_DIR`, else the platform's cache directory.
    Default,
    /// This directory.
    At(PathBuf),
    /// Nowhere: build in memory every time.
    None,
}

/// Solves boards, holding the tables it has built or loaded. Cheap to share between threads.
///
/// ```
/// use slide::{Board, Solver};
/// let solver = Solver::new();
/// let b = Board::parse("[[4,1,2],[5,0,3]]").unwrap();
/// let s = solver.solve(&b, &Board::goal(b.shape())).unwrap();
/// assert_eq!(s.distance(), 5);
/// ```
pub struct Solver {
    cache_dir: CacheDir,
    progress: Arc<dyn Progress + Send>,
    tables: Vec<OnceLock<Arc<CompleteTable>>>,
    building: Mutex<()>,
    cache_from_cells: usize,
    pdbs: Mutex<HashMap<(Shape, usize, Vec<u8>), Arc<Pdb>>>,
    max_memory: Option<u64>,
    map_files: bool,
}

/// Memory a complete-table build needs: a byte per state while searching, then the packed table.
pub fn table_build_bytes(shape: Shape) -> u64 {
    let states = crate::rank::PartialRanker::new(shape.cells(), shape.cells().saturating_sub(2))
        .map_or(u64::MAX, |r| r.size());
    let bits = if shape.cells() <= 10 { 8 } else { 2 };
    states.saturating_add(states.saturating_mul(bits) / 8)
}

/// Memory a pattern-database build needs: a byte per placement of the pattern and the blank, then 4 bits per
/// placement of the pattern.
pub fn pdb_build_bytes(shape: Shape, k: usize) -> u64 {
    let n = shape.cells();
    let with_blank = crate::rank::PartialRanker::new(n, k + 1).map_or(u64::MAX, |r| r.size());
    let placements = crate::rank::PartialRanker::new(n, k).map_or(u64::MAX, |r| r.size());
    with_blank.saturating_add(placements / 2)
}

/// Tables of at least this many cells are cached on disk by default (the 12-cell ones); smaller ones build in
/// memory in about a second or less.
pub const DEFAULT_CACHE_FROM_CELLS: usize = 11;

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("cache_dir", &self.cache_dir)
            .finish_non_exhaustive()
    }
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// A solver using the default cache directory and reporting nothing.
    pub fn new() -> Solver {
        Solver::with_options(CacheDir::Default, Arc::new(NoProgress))
    }

    /// A solver with a cache directory and a progress receiver.
    pub fn with_options(cache_dir: CacheDir, progress: Arc<dyn Progress + Send>) -> Solver {
        let tables = (0..TABLE_SHAPES.len() * MAX_TABLE_CELLS)
            .map(|_| OnceLock::new())
            .collect();
        Solver {
            cache_dir,
            progress,
            tables,
            building: Mutex::new(()),
            cache_from_cells: DEFAULT_CACHE_FROM_CELLS,
            pdbs: Mutex::new(HashMap::new()),
            max_memory: None,
            map_files: false,
        }
    }

    /// Refuses, up front, any table or pattern-database build that would need more than `bytes` of memory.
    pub fn max_memory(mut self, bytes: u64) -> Solver {
        self.max_memory = Some(bytes);
        self
    }

    fn check_memory(&self, what: &str, needed: u64) -> Result<()> {
        match self.max_memory {
            Some(limit) if needed > limit => Err(Error::TooMuchMemory {
                what: what.to_string(),
                needed,
                limit,
            }),
            _ => Ok(()),
        }
    }

    /// Maps cached table and pattern-database files read-only into memory instead of reading them
    /// ([`cache::load_mapped`]), and maps what it builds once saved: processes of one machine that map the same
    /// files share one copy of them (the page cache), however many they are — for example the worker processes of
    /// a Ray node. Lookups may be a little slower than in memory of the process's own (no huge pages).
    pub fn map_files(mut self, on: bool) -> Solver {
        self.map_files = on;
        self
    }

    /// Caches tables of at least `cells` cells on disk (default [`DEFAULT_CACHE_FROM_CELLS`]); tests use small
    /// shapes to exercise the cache quickly.
    pub fn cache_from_cells(mut self, cells: usize) -> Solver {
        self.cache_from_cells = cells;
        self
    }

    /// The process-wide solver used by [`crate::sliding_puzzle`] (default cache directory, silent).
    pub fn global() -> &'static Solver {
        static GLOBAL: OnceLock<Solver> = OnceLock::new();
        GLOBAL.get_or_init(Solver::new)
    }

    /// The directory table files go to, if any.
    pub fn cache_path(&self) -> Option<PathBuf> {
        match &self.cache_dir {
            CacheDir::Default => cache::default_dir(),
            CacheDir::At(p) => Some(p.clone()),
            CacheDir::None => None,
        }
    }

    /// The complete table of a canonical shape (`rows <= cols`, both ≥ 2, at most 12 cells) and goal blank cell:
    /// built in memory up to 10 cells; for 12 cells loaded from the cache, or built and saved there.
    #[inline]
    pub fn table(&self, shape: Shape, blank: usize) -> Result<&Arc<CompleteTable>> {
        match slot(shape, blank) {
            Some(i) => match self.tables[i].get() {
                Some(t) => Ok(t),
                None => self.first_table(i, shape, blank),
            },
            None => Err(Error::Unsupported(format!("no complete table for {shape}"))),
        }
    }

    /// Loads or builds a table on its first use; concurrent first callers wait for one build.
    #[cold]
    fn first_table(&self, i: usize, shape: Shape, blank: usize) -> Result<&Arc<CompleteTable>> {
        let _guard = self.building.lock().unwrap_or_else(|e| e.into_inner());
        if self.tables[i].get().is_none() {
            let t = self.load_or_build(shape, blank)?;
            let _ = self.tables[i].set(Arc::new(t));
        }
        self.tables[i]
            .get()
            .ok_or_else(|| Error::Unsupported("table could not be kept".into()))
    }

    fn load_or_build(&self, shape: Shape, blank: usize) -> Result<CompleteTable> {
        let dir = if shape.cells() < self.cache_from_cells {
            None
        } else {
            self.cache_path()
        };
        let encoding = CompleteTable::encoding_for(shape);
        let expected = Meta {
            kind: "complete".into(),
            shape,
            blank,
            encoding: encoding.name().into(),
            pattern: vec![],
            bits: if encoding == Encoding::Mod3 { 2 } else { 0 },
            len: FullSpace::new(shape, blank)?.states(),
            histogram: vec![],
            antipodes: vec![],
        };
        self.cached(
            dir,
            expected,
            (&format!("the {shape} table"), table_build_bytes(shape)),
            |meta, packed| {
                CompleteTable::from_parts(
                    shape,
                    blank,
                    encoding,
                    packed,
                    meta.histogram,
                    meta.antipodes,
                )
            },
            |progress| CompleteTable::build(shape, blank, progress),
            |t, meta| Meta {
                bits: t.packed().bits(),
                histogram: t.histogram().to_vec(),
                antipodes: t.antipode_ranks().to_vec(),
                ..meta
            },
            CompleteTable::packed,
        )
    }

    /// Loads the table file in `dir` that matches `expected`, or builds the table (after checking its memory
    /// need against the limit) and saves it there; without a directory, builds in memory. A damaged or foreign
    /// file is reported through [`Progress::warn`] and rebuilt; a file that cannot be written leaves the table in
    /// memory only, with a warning.
    #[allow(clippy::too_many_arguments)]
    fn cached<T>(
        &self,
        dir: Option<PathBuf>,
        expected: Meta,
        (what, needed): (&str, u64),
        from_file: impl Fn(Meta, PackedTable) -> Result<T>,
        build: impl FnOnce(&dyn Progress) -> Result<T>,
        meta_of: impl FnOnce(&T, Meta) -> Meta,
        packed: fn(&T) -> &PackedTable,
    ) -> Result<T> {
        let progress: &dyn Progress = &*self.progress;
        let Some(dir) = dir else {
            self.check_memory(what, needed)?;
            return build(progress);
        };
        let path = dir.join(cache::file_name(&expected));
        let load = if self.map_files {
            cache::load_mapped
        } else {
            cache::load
        };
        match load(&path, &expected) {
            Ok((meta, table)) => match from_file(meta, table) {
                Ok(t) => return Ok(t),
                Err(e) => progress.warn(&format!("{}: {e}; rebuilding", path.display())),
            },
            Err(e) if path.exists() => progress.warn(&format!("{e}; rebuilding")),
            Err(_) => {}
        }
        self.check_memory(what, needed)?;
        let t = build(progress)?;
        let meta = meta_of(&t, expected);
        if let Err(e) = cache::save(&path, &meta, packed(&t)) {
            progress.warn(&format!("{e}; keeping {what} in memory only"));
        } else if self.map_files {
            // Share the saved file with the other processes rather than keep a copy of our own.
            if let Ok((meta, table)) = cache::load_mapped(&path, &meta) {
                if let Ok(mapped) = from_file(meta, table) {
                    return Ok(mapped);
                }
            }
        }
        Ok(t)
    }

    /// The least number of moves from `board` to `goal`, or -1 when it cannot be reached.
    ///
    /// Exact for every shape with a complete table (at most 12 cells) and for single rows and columns of any length.
    pub fn distance(&self, board: &Board, goal: &Board) -> Result<i64> {
        if let Some(d) = self.fast_distance(board, goal)? {
            return Ok(d);
        }
        Ok(self.solve(board, goal)?.distance())
    }

    /// Distance without building a path, when a table answers directly.
    fn fast_distance(&self, board: &Board, goal: &Board) -> Result<Option<i64>> {
        let shape = board.shape();
        if goal.shape() != shape {
            return Err(Error::ShapeMismatch {
                board: shape,
                goal: goal.shape(),
            });
        }
        if shape.is_line() || shape.cells() > MAX_TABLE_CELLS {
            return Ok(None);
        }
        let n = shape.cells();
        let mut pos = [0u8; MAX_TABLE_CELLS];
        let table = if shape.rows <= shape.cols && goal.is_default_goal() {
            for (cell, &t) in board.tiles().iter().enumerate() {
                pos[t as usize] = cell as u8;
            }
            self.table(shape, n - 1)?
        } else {
            let frame = Frame::new(goal);
            frame.positions(board, &mut pos);
            self.table(frame.shape(), frame.blank_goal())?
        };
        Ok(Some(table.distance(&pos[..n]).map_or(-1, |d| d as i64)))
    }

    /// Solves `board` towards `goal`: an optimal move sequence, or why none exists (default options).
    pub fn solve(&self, board: &Board, goal: &Board) -> Result<Solution> {
        self.solve_with(board, goal, &SolveOptions::default())
    }

    /// Solves `board` towards `goal` with options: method, heuristic, limits, weight.
    ///
    /// ```
    /// use slide::{Board, Solver, solver::{SolveOptions, Method, HeuristicChoice}};
    /// let b = Board::parse("[[4,1,2],[5,0,3]]").unwrap();
    /// let opts = SolveOptions { method: Method::Search, heuristic: HeuristicChoice::Manhattan, ..Default::default() };
    /// let s = Solver::global().solve_with(&b, &Board::goal(b.shape()), &opts).unwrap();
    /// assert_eq!(s.distance(), 5);
    /// assert!(s.optimal && s.nodes > 0);
    /// ```
    pub fn solve_with(&self, board: &Board, goal: &Board, opts: &SolveOptions) -> Result<Solution> {
        let shape = board.shape();
        if let Some(reason) = board.unsolvable_reason(goal)? {
            return Ok(Solution::unsolvable(reason));
        }
        if shape.is_line() {
            return Ok(Solution::optimal(line_moves(board, goal), 0));
        }
        let use_table = match opts.method {
            Method::Table => true,
            Method::Search => false,
            Method::Auto => shape.cells() <= MAX_TABLE_CELLS && opts.weight.is_none(),
        };
        if use_table {
            if shape.cells() > MAX_TABLE_CELLS {
                return Err(Error::Unsupported(format!(
                    "no complete table for {shape}: tables cover boards of at most {MAX_TABLE_CELLS} cells"
                )));
            }
            let frame = Frame::new(goal);
            let table = self.table(frame.shape(), frame.blank_goal())?;
            let mut pos = [0u8; MAX_TABLE_CELLS];
            frame.positions(board, &mut pos);
            let path = table
                .path(&pos[..shape.cells()])
                .ok_or_else(|| Error::Unsupported("parity test and table disagree".into()))?;
            let moves = path.into_iter().map(|t| frame.tile(t)).collect();
            return Ok(Solution::optimal(moves, 0));
        }
        self.search(board, goal, opts)
    }

    fn search(&self, board: &Board, goal: &Board, opts: &SolveOptions) -> Result<Solution> {
        let shape = board.shape();
        if shape.cells() > MAX_SEARCH_CELLS {
            return Err(Error::Unsupported(format!(
                "optimal search covers boards of at most {MAX_SEARCH_CELLS} cells; {shape} has {}",
                shape.cells()
            )));
        }
        let frame = Frame::new(goal);
        let geometry = Geometry::new(frame.shape(), frame.blank_goal())?;
        let mut pos = [0u8; MAX_SEARCH_CELLS];
        frame.positions(board, &mut pos);
        let pos = &pos[..shape.cells()];
        let deadline = opts.timeout.map(|t| Instant::now() + t);
        let limits = Limits {
            max_nodes: opts.max_nodes,
            deadline,
            cancel: opts.cancel.as_deref(),
        };
        let weight = match opts.weight {
            None => (1, 1),
            Some(w) if w.is_finite() && w >= 1.0 => ((w * 1000.0).round() as u32, 1000),
            Some(w) => {
                return Err(Error::Unsupported(format!(
                    "weight {w} must be a number at least 1"
                )))
            }
        };
        let parallel = opts.parallel && weight.0 == weight.1;
        let pruner = pruner_for(opts);
        let job = IdaJob {
            pos,
            limits: &limits,
            weight,
            parallel,
            pruner: &pruner,
        };
        let outcome = self.with_eval(goal, &frame, &geometry, opts, job)?;
        let within = opts.weight.filter(|_| weight.0 != weight.1);
        Ok(match outcome {
            Outcome::Solved {
                moves,
                nodes,
                estimate,
            } => {
                let moves: Vec<Tile> = moves.into_iter().map(|t| frame.tile(t as Tile)).collect();
                let mut s = Solution::optimal(moves, nodes);
                s.estimate = estimate as u64;
                if within.is_some() {
                    s.optimal = false;
                    s.within = within;
                    s.lower_bound = geometry_lower_bound(&geometry, pos);
                }
                s
            }
            Outcome::Stopped {
                lower_bound,
                nodes,
                estimate,
            } => Solution {
                moves: None,
                unsolvable_reason: None,
                optimal: false,
                lower_bound: lower_bound as u64,
                within,
                nodes,
                estimate: estimate as u64,
            },
        })
    }

    /// Runs `job` with the heuristic that `opts` choose for a search towards `goal` (in its canonical frame).
    fn with_eval<J: EvalJob>(
        &self,
        goal: &Board,
        frame: &Frame,
        geometry: &Geometry,
        opts: &SolveOptions,
        job: J,
    ) -> Result<J::Out> {
        let heuristic = match &opts.heuristic {
            HeuristicChoice::Auto if goal.shape().cells() <= 9 => HeuristicChoice::LinearConflict,
            HeuristicChoice::Auto => HeuristicChoice::Pdb(PartitionSpec::Default),
            h => h.clone(),
        };
        Ok(match &heuristic {
            HeuristicChoice::Manhattan => job.run(geometry, Manhattan::new(geometry)),
            HeuristicChoice::LinearConflict | HeuristicChoice::Auto => {
                job.run(geometry, LinearConflict::new(geometry))
            }
            HeuristicChoice::Pdb(spec) => {
                let sets = self.pdb_sets(goal, frame, spec)?;
                let mut evals = sets
                    .iter()
                    .map(|set| PdbEval::new(geometry, set, opts.reflect))
                    .collect::<Result<Vec<_>>>()?;
                if evals.len() == 1 {
                    job.run(geometry, evals.remove(0))
                } else {
                    job.run(geometry, PdbMax::new(evals)?)
                }
            }
        })
    }

    /// The canonical frame, geometry and positions of a search from `board` to `goal`, checking that one can run.
    fn search_setup(&self, board: &Board, goal: &Board) -> Result<(Frame, Geometry, Vec<u8>)> {
        let shape = board.shape();
        if shape.cells() > MAX_SEARCH_CELLS {
            return Err(Error::Unsupported(format!(
                "optimal search covers boards of at most {MAX_SEARCH_CELLS} cells; {shape} has {}",
                shape.cells()
            )));
        }
        if let Some(reason) = board.unsolvable_reason(goal)? {
            return Err(Error::Unsupported(format!(
                "no search to split: the goal cannot be reached ({reason})"
            )));
        }
        if shape.is_line() {
            return Err(Error::Unsupported(format!(
                "no search to split on {shape}: a single row or column has one way to the goal"
            )));
        }
        let frame = Frame::new(goal);
        let geometry = Geometry::new(frame.shape(), frame.blank_goal())?;
        let mut pos = vec![0u8; shape.cells()];
        frame.positions(board, &mut pos);
        Ok((frame, geometry, pos))
    }

    /// One threshold of the optimal search from `board` to `goal`, cut into at least `want` subtrees (when the tree
    /// has that many nodes within the threshold) as [`crate::search::ida_star_parallel`] cuts it for threads, for
    /// other processes or machines to search with [`Solver::search_subtree`]. `threshold`: `None` for the first
    /// (the start's estimate). The heuristic and move pruning are those of `opts`; its limits do not apply here.
    ///
    /// A driver searches every subtree of a threshold, stops at the first threshold where one finds a solution
    /// (optimal: every shorter one was ruled out by the earlier thresholds) and otherwise goes on with
    /// [`SplitThreshold::next_threshold`] lowered to the least of the subtrees' `next_threshold`s.
    ///
    /// ```
    /// use slide::{Board, Solver, solver::{SolveOptions, SubtreeResult}};
    /// let b = Board::parse("[[1,2,3],[4,0,6],[7,5,8]]").unwrap();
    /// let (g, opts, solver) = (Board::goal(b.shape()), SolveOptions::default(), Solver::global());
    /// let mut threshold = None;
    /// let moves = loop {
    ///     let split = solver.split_threshold(&b, &g, &opts, threshold, 4).unwrap();
    ///     if let Some(m) = split.solution { break m; }
    ///     let (mut next, mut found) = (split.next_threshold, None);
    ///     for root in &split.subtrees {
    ///         match solver.search_subtree(&b, &g, &opts, split.threshold, root).unwrap() {
    ///             SubtreeResult::Solved { moves, .. } => found = found.or(Some(moves)),
    ///             SubtreeResult::Exhausted { next_threshold, .. } => next = next.min(next_threshold).or(next).or(next_threshold),
    ///             SubtreeResult::Stopped { .. } => unreachable!("no limits"),
    ///         }
    ///     }
    ///     if let Some(m) = found { break m; }
    ///     threshold = next;
    /// };
    /// assert_eq!(moves, vec![5, 8]);
    /// ```
    pub fn split_threshold(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        threshold: Option<u64>,
        want: usize,
    ) -> Result<SplitThreshold> {
        let (frame, geometry, pos) = self.search_setup(board, goal)?;
        let bound = threshold.map(|t| t.min(u32::MAX as u64 - 1) as u32);
        let pruner = pruner_for(opts);
        let f = self.with_eval(
            goal,
            &frame,
            &geometry,
            opts,
            SplitJob {
                pos: &pos,
                bound,
                want,
                pruner: &pruner,
            },
        )?;
        // The subtrees' roots as the tiles moved from the board (canonical tiles named in the user's frame).
        let mut tiles = vec![0u8; pos.len()];
        for (t, &c) in pos.iter().enumerate() {
            tiles[c as usize] = t as u8;
        }
        let subtrees = f
            .subtrees
            .iter()
            .map(|cells| {
                let mut tiles = tiles.clone();
                let mut blank = pos[0] as usize;
                cells
                    .iter()
                    .map(|&c| {
                        let t = tiles[c as usize];
                        tiles[blank] = t;
                        tiles[c as usize] = 0;
                        blank = c as usize;
                        frame.tile(t as Tile)
                    })
                    .collect()
            })
            .collect();
        Ok(SplitThreshold {
            threshold: f.bound as u64,
            estimate: f.estimate as u64,
            subtrees,
            solution: f
                .solution
                .map(|m| m.into_iter().map(|t| frame.tile(t as Tile)).collect()),
            next_threshold: (f.next_bound != u32::MAX).then_some(f.next_bound as u64),
            nodes: f.nodes,
        })
    }

    /// Searches one subtree of a threshold that [`Solver::split_threshold`] cut: `root` is the moves (tiles) from
    /// `board` to the subtree's root, `threshold` the threshold; the limits of `opts` (nodes, time, cancel flag)
    /// apply to this subtree.
    pub fn search_subtree(
        &self,
        board: &Board,
        goal: &Board,
        opts: &SolveOptions,
        threshold: u64,
        root: &[Tile],
    ) -> Result<SubtreeResult> {
        let (frame, geometry, pos) = self.search_setup(board, goal)?;
        let mut b = board.clone();
        let mut cells = Vec::with_capacity(root.len());
        for &t in root {
            let cell = b.tiles().iter().position(|&x| x == t);
            b.apply(t)?;
            cells.push(frame.cell(cell.ok_or(Error::IllegalMove { tile: t as u64 })?) as u8);
        }
        let limits = Limits {
            max_nodes: opts.max_nodes,
            deadline: opts.timeout.map(|t| Instant::now() + t),
            cancel: opts.cancel.as_deref(),
        };
        let pruner = pruner_for(opts);
        let job = SubtreeJob {
            pos: &pos,
            bound: threshold.min(u32::MAX as u64 - 1) as u32,
            root: &cells,
            limits: &limits,
            pruner: &pruner,
        };
        let outcome = self
            .with_eval(goal, &frame, &geometry, opts, job)?
            .ok_or_else(|| {
                Error::Unsupported("the subtree's root is not a walk of the blank".into())
            })?;
        Ok(match outcome {
            Subtree::Solved { moves, nodes } => SubtreeResult::Solved {
                moves: moves.into_iter().map(|t| frame.tile(t as Tile)).collect(),
                nodes,
            },
            Subtree::Exhausted { next_bound, nodes } => SubtreeResult::Exhausted {
                next_threshold: (next_bound != u32::MAX).then_some(next_bound as u64),
                nodes,
            },
            Subtree::Stopped { nodes } => SubtreeResult::Stopped { nodes },
        })
    }

    /// The pattern databases of every partition `spec` names (several for [`PartitionSpec::Max`]).
    pub fn pdb_sets(
        &self,
        goal: &Board,
        frame: &Frame,
        spec: &PartitionSpec,
    ) -> Result<Vec<PdbSet>> {
        spec.parts()
            .into_iter()
            .map(|part| self.pdb_set(goal, frame, part))
            .collect()
    }

    /// The pattern databases of one partition for `goal`, loaded from the cache or built (and saved).
    pub fn pdb_set(&self, goal: &Board, frame: &Frame, spec: &PartitionSpec) -> Result<PdbSet> {
        let goal_pos = goal.positions();
        let cells = partition::resolve(spec, frame.shape(), frame.blank_goal(), |t| {
            goal_pos.get(t as usize).map(|&c| frame.cell(c))
        })?;
        let mut pdbs = Vec::new();
        for c in cells {
            pdbs.push(self.pdb(frame.shape(), frame.blank_goal(), &c)?);
        }
        Ok(PdbSet { pdbs })
    }

    /// One pattern database of a canonical shape and goal (its blank's cell), by its goal cells.
    pub fn pdb(&self, shape: Shape, blank: usize, cells: &[u8]) -> Result<Arc<Pdb>> {
        let key = (shape, blank, cells.to_vec());
        let known = || {
            self.pdbs
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&key)
                .cloned()
        };
        if let Some(p) = known() {
            return Ok(p);
        }
        // Concurrent first callers wait for one build.
        let _guard = self.building.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = known() {
            return Ok(p);
        }
        let pdb = Arc::new(self.load_or_build_pdb(shape, blank, cells)?);
        self.pdbs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, pdb.clone());
        Ok(pdb)
    }

    fn load_or_build_pdb(&self, shape: Shape, blank: usize, cells: &[u8]) -> Result<Pdb> {
        PatternSpace::new(shape, cells, blank)?;
        let len = crate::rank::PartialRanker::new(shape.cells(), cells.len())
            .ok_or_else(|| Error::Unsupported("pattern too large".into()))?
            .size();
        let expected = Meta {
            kind: "pdb".into(),
            shape,
            blank,
            encoding: "extra4".into(),
            pattern: cells.iter().map(|&c| c as u32).collect(),
            bits: crate::pdb::PDB_BITS,
            len,
            histogram: vec![],
            antipodes: vec![],
        };
        self.cached(
            self.cache_path(),
            expected,
            (
                &format!("a {}-tile pattern database of {shape}", cells.len()),
                pdb_build_bytes(shape, cells.len()),
            ),
            |meta, packed| Pdb::from_parts(shape, cells, blank, packed, meta.histogram),
            |progress| Pdb::build(shape, cells, blank, progress),
            |p, meta| Meta {
                histogram: p.histogram().to_vec(),
                ..meta
            },
            Pdb::packed,
        )
    }
}

/// One threshold of a search cut into subtrees ([`Solver::split_threshold`]); moves are tiles of the user's board.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SplitThreshold {
    /// The threshold that was cut (the start's estimate for the first).
    pub threshold: u64,
    /// The start's heuristic estimate.
    pub estimate: u64,
    /// The subtrees' roots, in search order, each as the moves from the board.
    pub subtrees: Vec<Vec<Tile>>,
    /// An optimal solution found above the cut (then `subtrees` is empty).
    pub solution: Option<Vec<Tile>>,
    /// The next threshold as far as the nodes above the cut tell (`None`: none of them passed the threshold).
    pub next_threshold: Option<u64>,
    /// Nodes generated while cutting.
    pub nodes: u64,
}

/// What the search of one subtree found ([`Solver::search_subtree`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubtreeResult {
    /// A solution within the threshold: the moves from the board (the root's included).
    Solved {
        /// The tiles moved, from the board.
        moves: Vec<Tile>,
        /// Nodes generated.
        nodes: u64,
    },
    /// No solution within the threshold; the subtree's candidate for the next one (`None`: nothing passed it).
    Exhausted {
        /// The least `f` over the threshold among the nodes pruned.
        next_threshold: Option<u64>,
        /// Nodes generated.
        nodes: u64,
    },
    /// A limit stopped the search of the subtree.
    Stopped {
        /// Nodes generated.
        nodes: u64,
    },
}

/// Work done with the heuristic a search uses, whatever its type ([`Solver::with_eval`]).
trait EvalJob {
    type Out;
    fn run<E: Eval + Clone + Send + Sync>(self, g: &Geometry, eval: E) -> Self::Out;
}

/// A whole search ([`Solver::search`]).
struct IdaJob<'a, 'l> {
    pos: &'a [u8],
    limits: &'a Limits<'l>,
    weight: (u32, u32),
    parallel: bool,
    pruner: &'a MovePruner,
}

impl EvalJob for IdaJob<'_, '_> {
    type Out = Outcome;
    fn run<E: Eval + Clone + Send + Sync>(self, g: &Geometry, eval: E) -> Outcome {
        run_ida(
            g,
            eval,
            self.pos,
            self.limits,
            self.weight,
            self.parallel,
            self.pruner,
        )
    }
}

/// The cut of one threshold ([`Solver::split_threshold`]).
struct SplitJob<'a> {
    pos: &'a [u8],
    bound: Option<u32>,
    want: usize,
    pruner: &'a MovePruner,
}

impl EvalJob for SplitJob<'_> {
    type Out = Frontier;
    fn run<E: Eval + Clone + Send + Sync>(self, g: &Geometry, eval: E) -> Frontier {
        split_threshold(g, eval, self.pos, self.bound, self.want, self.pruner)
    }
}

/// The search of one subtree ([`Solver::search_subtree`]).
struct SubtreeJob<'a, 'l> {
    pos: &'a [u8],
    bound: u32,
    root: &'a [u8],
    limits: &'a Limits<'l>,
    pruner: &'a MovePruner,
}

impl EvalJob for SubtreeJob<'_, '_> {
    type Out = Option<Subtree>;
    fn run<E: Eval + Clone + Send + Sync>(self, g: &Geometry, eval: E) -> Option<Subtree> {
        search_subtree(
            g,
            eval,
            self.pos,
            self.bound,
            self.root,
            self.limits,
            self.pruner,
        )
    }
}

/// The move pruner `opts` ask for: the learned one, or none.
fn pruner_for(opts: &SolveOptions) -> Cow<'static, MovePruner> {
    if opts.move_pruning {
        Cow::Borrowed(MovePruner::global())
    } else {
        Cow::Owned(MovePruner::none())
    }
}

/// IDA* on one thread, or shared among the rayon pool's threads.
fn run_ida<E: Eval + Clone + Send + Sync>(
    g: &Geometry,
    eval: E,
    pos: &[u8],
    limits: &Limits<'_>,
    weight: (u32, u32),
    parallel: bool,
    pruner: &MovePruner,
) -> Outcome {
    if parallel {
        ida_star_parallel(g, eval, pos, limits, pruner)
    } else {
        ida_star(g, eval, pos, limits, weight, pruner)
    }
}

/// An admissible lower bound from the Manhattan distance, for answers that are not proven least.
fn geometry_lower_bound(g: &Geometry, pos: &[u8]) -> u64 {
    let mut m = Manhattan::new(g);
    m.reset(pos);
    m.h() as u64
}

/// Which method answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Complete tables up to 12 cells, IDA* above.
    #[default]
    Auto,
    /// Complete tables only.
    Table,
    /// IDA* even where a table exists.
    Search,
}

/// Which heuristic IDA* uses.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum HeuristicChoice {
    /// Pattern databases (the shape's default partition) above 9 cells, linear conflicts below.
    #[default]
    Auto,
    /// Manhattan distance.
    Manhattan,
    /// Manhattan distance plus linear conflicts.
    LinearConflict,
    /// Additive pattern databases of a partition.
    Pdb(PartitionSpec),
}

/// Options of [`Solver::solve_with`].
#[derive(Debug, Clone)]
pub struct SolveOptions {
    /// Which method answers.
    pub method: Method,
    /// Which heuristic IDA* uses.
    pub heuristic: HeuristicChoice,
    /// Also look pattern databases up on the board reflected about the main diagonal (square boards).
    pub reflect: bool,
    /// Stop after this many search nodes.
    pub max_nodes: Option<u64>,
    /// Stop after this long.
    pub timeout: Option<Duration>,
    /// Stop when this flag is set.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Bounded-suboptimal search: a solution at most this many times the least number of moves.
    pub weight: Option<f64>,
    /// Share one optimal search among the threads of the current rayon pool ([`crate::search::ida_star_parallel`]):
    /// the same length, found sooner on several cores. Ignored by bounded-suboptimal search.
    pub parallel: bool,
    /// Reject redundant move sequences beyond immediate backtracks ([`crate::pruning`]); off only to measure
    /// what it saves.
    pub move_pruning: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            method: Method::Auto,
            heuristic: HeuristicChoice::Auto,
            reflect: true,
            max_nodes: None,
            timeout: None,
            cancel: None,
            weight: None,
            parallel: false,
            move_pruning: true,
        }
    }
}

/// Facts about the whole state space of a shape and goal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    /// Number of boards that can reach the goal.
    pub states: u64,
    /// `histogram[d]` = number of boards at distance `d`.
    pub histogram: Vec<u64>,
    /// Some boards at the largest distance (all of them when `antipodes.len() as u64 == histogram.last()`).
    pub antipodes: Vec<Board>,
}

impl Stats {
    /// The largest distance: god's number for this goal.
    pub fn diameter(&self) -> u32 {
        self.histogram.len() as u32 - 1
    }
}

impl Solver {
    /// The number of boards at each distance from `goal`, for shapes with a complete table and for single rows and
    /// columns.
    ///
    /// ```
    /// let s = slide::Solver::global().stats(&slide::Board::goal("2x3".parse().unwrap())).unwrap();
    /// assert_eq!((s.states, s.diameter()), (360, 21));
    /// ```
    pub fn stats(&self, goal: &Board) -> Result<Stats> {
        let shape = goal.shape();
        if shape.is_line() {
            let n = shape.cells();
            let b = goal.blank();
            let mut histogram = vec![0u64; b.max(n - 1 - b) + 1];
            for p in 0..n {
                histogram[p.abs_diff(b)] += 1;
            }
            let far = if b >= n - 1 - b { 0 } else { n - 1 };
            let mut tiles: Vec<Tile> = goal.tiles().iter().copied().filter(|&t| t != 0).collect();
            tiles.insert(far, 0);
            let mut antipodes = vec![Board::new(shape, tiles.clone()).expect("a permutation")];
            if b == n - 1 - b && n > 1 {
                tiles.remove(far);
                tiles.push(0);
                antipodes.push(Board::new(shape, tiles).expect("a permutation"));
            }
            return Ok(Stats {
                states: n as u64,
                histogram,
                antipodes,
            });
        }
        if shape.cells() > MAX_TABLE_CELLS {
            return Err(Error::Unsupported(format!(
                "no complete table for {shape}: at most {MAX_TABLE_CELLS} cells"
            )));
        }
        let frame = Frame::new(goal);
        let table = self.table(frame.shape(), frame.blank_goal())?;
        let antipodes = table
            .antipodes()
            .iter()
            .map(|p| frame.unmap(shape, p))
            .collect();
        Ok(Stats {
            states: table.space().states(),
            histogram: table.histogram().to_vec(),
            antipodes,
        })
    }
}

/// On a single row or column the blank walks straight to its goal cell.
fn line_moves(board: &Board, goal: &Board) -> Vec<Tile> {
    let (from, to) = (board.blank(), goal.blank());
    let t = board.tiles();
    if from <= to {
        t[from + 1..=to].to_vec()
    } else {
        t[to..from].iter().rev().copied().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples() {
        let s = Solver::with_options(CacheDir::None, Arc::new(NoProgress));
        for (text, want) in [
            ("[[1,2,3],[4,0,5]]", 1),
            ("[[1,2,3],[5,4,0]]", -1),
            ("[[4,1,2],[5,0,3]]", 5),
            ("[[1,2,3],[4,5,0]]", 0),
        ] {
            let b = Board::parse(text).unwrap();
            let g = Board::goal(b.shape());
            assert_eq!(s.distance(&b, &g).unwrap(), want, "{text}");
            assert_eq!(s.solve(&b, &g).unwrap().distance(), want, "{text}");
        }
    }

    #[test]
    fn lines() {
        let s = Solver::with_options(CacheDir::None, Arc::new(NoProgress));
        let b = Board::parse("[[1,0,2,3]]").unwrap();
        let g = Board::goal(b.shape());
        assert_eq!(s.solve(&b, &g).unwrap().moves, Some(vec![2, 3]));
        let g0 = Board::goal_blank_first(b.shape());
        assert_eq!(s.solve(&b, &g0).unwrap().moves, Some(vec![1]));
        assert_eq!(
            s.distance(&Board::parse("[[2,0,1,3]]").unwrap(), &g)
                .unwrap(),
            -1
        );
    }
}
