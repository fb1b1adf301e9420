//! The library's typed errors, grouped by layer (input, solve, store, render) under the one top-level `Error`.

use crate::board::Shape;

/// Everything that can go wrong in the library, grouped by the layer it comes from: the input ([`ParseError`]), a
/// solve or an analysis ([`SolveError`]), the table cache ([`StoreError`]) and pictures ([`RenderError`]), plus the
/// two that belong to no layer: cancelled work and a fault in slide itself.
///
/// Each layer's error is wrapped transparently: an error says the same words whether it is held as a [`ParseError`]
/// or as the [`Error`] that wraps it, and `?` turns a layer's error into an [`Error`].
///
/// ```
/// use slide::{Error, ParseError};
/// let e = slide::Board::parse("  ").unwrap_err();
/// assert_eq!(e, Error::Parse(ParseError::Empty));
/// assert_eq!(e.to_string(), ParseError::Empty.to_string());
/// assert!(e.to_string().starts_with("empty input: "));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input is wrong: board text or values, moves, a goal pattern, a benchmark line.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A solve or an analysis cannot be done as asked: options, limits, shapes not covered, memory.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A cached table file cannot be used.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A picture or an animation cannot be drawn.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// The work was cancelled (through a cancel flag) before it finished.
    #[error("cancelled")]
    Cancelled,
    /// A fault in slide itself: a check that should never fail did.
    #[error("internal error: {0} (a bug in slide; please report it)")]
    Internal(String),
}

/// The input is wrong: a board written as text or given as values, a move sequence, a goal pattern, a line of a
/// benchmark file.
///
/// Parsing errors carry a 1-based `column` (character position in the input line) where one is known, so that
/// a front end can point at it; the CLI adds the line number of a batch.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// The input holds nothing but white space.
    #[error("empty input: expected a board such as [[1,2,3],[4,0,5]] or 1 2 3/4 0 5")]
    Empty,
    /// A token that should be a tile number is not one.
    #[error("not a number: {token:?} at column {column}")]
    NotANumber {
        /// The offending text (shortened when long).
        token: String,
        /// 1-based character column.
        column: usize,
    },
    /// A number too large to be any tile.
    #[error("number too large: {token:?} at column {column}")]
    NumberTooLarge {
        /// The number as written (shortened when long).
        token: String,
        /// 1-based character column.
        column: usize,
    },
    /// A number in JSON rows (or a bracketed flat list) written as JSON does not allow: a `+` sign, leading zeros.
    #[error("not a JSON number: {token:?} at column {column}: {reason}")]
    JsonNumber {
        /// The number as written (shortened when long).
        token: String,
        /// 1-based character column.
        column: usize,
        /// What JSON does not allow in it.
        reason: String,
    },
    /// The text does not follow any board format.
    #[error("syntax error at column {column}: {message}")]
    Syntax {
        /// What was expected.
        message: String,
        /// 1-based character column.
        column: usize,
    },
    /// Rows of different lengths.
    #[error("ragged rows: row {row} has {found} numbers but row 1 has {expected}")]
    Ragged {
        /// 1-based row number.
        row: usize,
        /// Length of the first row.
        expected: usize,
        /// Length of this row.
        found: usize,
    },
    /// The number of tiles does not fit the shape.
    #[error("wrong count: shape {shape} needs {expected} numbers, found {found}")]
    WrongCount {
        /// The shape asked for.
        shape: Shape,
        /// Cells of that shape.
        expected: usize,
        /// Numbers given.
        found: usize,
    },
    /// Rows that make another shape than the one asked for.
    #[error("the rows make a board of shape {found}, not the shape {given} asked for")]
    NotTheShape {
        /// The shape asked for.
        given: Shape,
        /// The shape the rows make.
        found: Shape,
    },
    /// A flat list of numbers whose shape cannot be told.
    #[error("cannot tell the shape of a flat list of {found} number{}: give the shape (for example 2x3) or use rows", plural(*.found))]
    UnknownShape {
        /// Numbers given.
        found: usize,
    },
    /// A cell of a board given as values ([`crate::Board::from_cells`]) that is not a whole number.
    #[error("row {row}, column {column}: {problem}")]
    BadCell {
        /// 1-based row (1 for a flat list).
        row: usize,
        /// 1-based column (the place in a flat list).
        column: usize,
        /// What is wrong with it.
        problem: crate::board::CellProblem,
    },
    /// A row of a board given as values ([`crate::Board::from_cells`]) that is not a list of numbers.
    #[error("row {row} is not a list of numbers but {found}")]
    RowNotAList {
        /// 1-based row.
        row: usize,
        /// What it is, in words.
        found: String,
    },
    /// A tile value appears twice.
    #[error(
        "duplicate value {value} (cells {first} and {second}, counting from 1 in reading order)"
    )]
    Duplicate {
        /// The repeated value.
        value: u64,
        /// 1-based cell of the first occurrence.
        first: usize,
        /// 1-based cell of the second occurrence.
        second: usize,
    },
    /// A value outside `0..cells`.
    #[error("value {value} out of range: a board of {cells} cells holds 0..={max}")]
    OutOfRange {
        /// The value as written (may be negative).
        value: i128,
        /// Number of cells.
        cells: usize,
        /// Largest allowed value.
        max: usize,
    },
    /// No 0 on the board.
    #[error("no blank: the board must hold exactly one 0")]
    NoBlank,
    /// More cells than the library accepts.
    #[error("board too large: {cells} cells, at most {max} are accepted")]
    TooLarge {
        /// Cells asked for.
        cells: u128,
        /// The limit ([`crate::MAX_CELLS`]).
        max: usize,
    },
    /// A shape that is not `RxC` with at least two cells.
    #[error("bad shape {text:?}: {reason}")]
    BadShape {
        /// The shape as written.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A move of a tile that is not next to the blank, or not on the board.
    #[error("illegal move: tile {tile} is not next to the blank")]
    IllegalMove {
        /// The tile asked to move.
        tile: u64,
    },
    /// A move that cannot be made on the board it is applied to (see [`crate::notation`]).
    #[error("move {index} ({token}): {reason}")]
    BadMove {
        /// 1-based position of the move in the sequence, counting single-tile moves (`R3` is three).
        index: usize,
        /// The move as written: a letter or a tile number.
        token: String,
        /// Why it cannot be made, such as "no tile below the blank".
        reason: String,
    },
    /// A move sequence that cannot be read (see [`crate::notation`]).
    #[error("{message} at column {column}")]
    MoveSyntax {
        /// What is wrong, such as "unknown letter 'X'" or "count 0".
        message: String,
        /// 1-based character column.
        column: usize,
    },
    /// A move sequence longer than the notation reader accepts.
    #[error("move sequence too long: more than {max} moves")]
    TooManyMoves {
        /// The limit ([`crate::notation::MAX_MOVES`]).
        max: usize,
    },
    /// A notation name that is not one of the accepted ones.
    #[error("unknown notation {name:?}: expected tiles, long, short or blank")]
    UnknownNotation {
        /// The name as written (shortened when long).
        name: String,
    },
    /// Tile numbers asked for (or given) without the board they refer to.
    #[error("tile numbers need the start board: a tile's number does not say which way it moves")]
    NeedsBoard,
    /// A line of a benchmark file ([`crate::benchmarks::parse`]) that is not an instance.
    #[error("line {line}: {reason}")]
    BadInstance {
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A goal pattern ([`crate::Pattern`]) with the wrong number of cells: it must name every cell of the board,
    /// each a tile, `0` (the blank) or `x` (any tile).
    #[error("goal pattern: {shape} has {expected} cells, the pattern gives {found} ({fixed} fixed and {any} x); with {fixed} fixed it needs {} x", expected.saturating_sub(*fixed))]
    PatternCount {
        /// The board's shape.
        shape: Shape,
        /// Cells of that shape.
        expected: usize,
        /// Cells the pattern gives.
        found: usize,
        /// Tiles and blank the pattern fixes.
        fixed: usize,
        /// `x` the pattern holds.
        any: usize,
    },
    /// A symbol in a goal pattern that is neither a tile number nor `x`.
    #[error("goal pattern: unknown symbol {token:?} at column {column}: expected a tile number, 0 for the blank or x for any tile")]
    PatternSymbol {
        /// The symbol as written (shortened when long).
        token: String,
        /// 1-based character column.
        column: usize,
    },
    /// A goal pattern that no board matches.
    #[error("goal pattern: no board matches it: {reason}")]
    PatternUnmatchable {
        /// Why.
        reason: String,
    },
}

/// A solve or an analysis that cannot be done as asked: an option out of its range, a request the solver does not
/// cover (shapes, sizes, partitions), a goal that cannot be reached, a memory budget or a search limit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The threads of a table build could not be started (the system is out of threads or memory).
    #[error("internal error: cannot start the build's threads: {reason} (a bug in slide; please report it)")]
    Threads {
        /// What the system said.
        reason: String,
    },
    /// A board and its goal of different shapes.
    #[error("shape mismatch: the board is {board} but the goal is {goal}")]
    ShapeMismatch {
        /// The board's shape.
        board: Shape,
        /// The goal's shape.
        goal: Shape,
    },
    /// The goal cannot be reached from the board (for the calls that return only moves; [`crate::Solver`]'s
    /// answers say so in the [`crate::Solution`] instead).
    #[error("unsolvable: {reason}")]
    Unsolvable {
        /// Why: the parity argument.
        reason: String,
    },
    /// No complete table covers this shape: tables cover 4 to 12 cells with at least two rows and two columns.
    #[error("no complete table for {shape}: tables cover boards of at most 12 cells with at least two rows and two columns")]
    NoTable {
        /// The shape asked for.
        shape: Shape,
    },
    /// Optimal search covers boards of at most 64 cells.
    #[error("optimal search covers boards of at most 64 cells; {shape} has {}", shape.cells())]
    SearchTooLarge {
        /// The shape asked for.
        shape: Shape,
    },
    /// A pattern or partition for pattern databases that cannot be used.
    #[error("bad partition: {reason}")]
    BadPartition {
        /// What is wrong with it.
        reason: String,
    },
    /// A table or pattern-database build would need more memory than allowed.
    #[error("{what} needs {} MB of memory to build, more than the {} MB allowed", needed / 1_000_000, limit / 1_000_000)]
    TooMuchMemory {
        /// What would be built.
        what: String,
        /// Bytes it needs.
        needed: u64,
        /// Bytes allowed.
        limit: u64,
    },
    /// The system refused the memory of a table or pattern-database build, or of a table file read in, although
    /// the memory budget allowed it (an address-space limit, `ulimit -v`, tighter than the budget, say, or a machine
    /// out of memory). Nothing is kept of the work; the process goes on.
    #[error("{what} needs {} MB of memory, which the system refused{}", needed / 1_000_000, refused_limit(*.limit))]
    OutOfMemory {
        /// What was being built or read.
        what: String,
        /// Bytes of the allocation that failed.
        needed: u64,
        /// The process's address-space limit (`RLIMIT_AS`) in bytes, where one is set.
        limit: Option<u64>,
    },
    /// An option outside its accepted range (see docs/limits.md).
    #[error("{option}: {reason}")]
    InvalidOption {
        /// The option, as the library names it (for example `weight`).
        option: String,
        /// What is wrong with the value, and the accepted range.
        reason: String,
    },
    /// A search limit (nodes, time, a cancel flag) stopped work that needs every search to finish, such as an
    /// analysis or a hint above 12 cells.
    #[error("a limit stopped the search before {what} was proven (the optimum is at least {lower_bound})")]
    LimitReached {
        /// What was being proven, such as "the distance after move 7".
        what: String,
        /// The proven lower bound on the searched board's least number of moves.
        lower_bound: u64,
    },
    /// A partial goal on a board larger than the abstract search covers.
    #[error("partial goals cover boards of at most 64 cells; {shape} has {}", shape.cells())]
    PatternTooLarge {
        /// The board's shape.
        shape: Shape,
    },
}

/// A cached table file that cannot be used; the solver usually rebuilds the table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// A table file that could not be read.
    #[error("table cache: cannot read {file}: {reason}")]
    Unreadable {
        /// The file, as the store names it.
        file: String,
        /// The system's reason.
        reason: String,
    },
    /// A table file whose bytes do not make the table they claim (a bad header, size or checksum).
    #[error("table cache: {file} is damaged: {what}")]
    Damaged {
        /// The file, as the store names it.
        file: String,
        /// What is wrong with it.
        what: String,
    },
    /// A table file written by another version of the file format.
    #[error(
        "table cache: {file} has format version {version}, this slide writes version {expected}"
    )]
    OtherVersion {
        /// The file, as the store names it.
        file: String,
        /// The file's format version.
        version: u32,
        /// The version this slide writes.
        expected: u32,
    },
    /// A table file that holds another table than the one asked for.
    #[error("table cache: {file} holds another table ({found})")]
    OtherTable {
        /// The file, as the store names it.
        file: String,
        /// The table it holds: kind, shape, blank and metric.
        found: String,
    },
    /// A table file could not be used, for a reason other than the ones below (the caller usually rebuilds it).
    #[error("table cache: {0}")]
    Unusable(String),
}

/// A picture or an animation that cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The drawing library or an encoder refused a picture of ours.
    #[error("internal error: {step}: {reason} (a bug in slide; please report it)")]
    Draw {
        /// What was being done, such as "encoding the PNG".
        step: String,
        /// What the drawing library or the encoder said.
        reason: String,
    },
    /// No memory for a picture of this size (a smaller one may be drawn).
    #[error("internal error: no pixmap of {width} × {height} (a bug in slide; please report it)")]
    NoPixmap {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// A picture or animation over a size limit (see docs/limits.md).
    #[error("picture too large: {reason}")]
    PictureTooLarge {
        /// What is too large, and the limit.
        reason: String,
    },
}

impl From<OptionError> for SolveError {
    fn from(e: OptionError) -> SolveError {
        SolveError::InvalidOption {
            option: e.option.to_string(),
            reason: e.reason,
        }
    }
}

impl From<OptionError> for Error {
    fn from(e: OptionError) -> Error {
        Error::Solve(e.into())
    }
}

/// An option of a solve outside its accepted range (docs/limits.md), as [`crate::SolveOptionsBuilder`] and the
/// checks of [`crate::SolveOptions`] report it: the option's library name and what is wrong.
///
/// Every face (the command line, the server, Python) checks its values through these, so the same bad value gets
/// the same [`reason`](OptionError::reason) everywhere; a face puts its own name of the option (`--timeout`,
/// `"timeout"`) before it. It becomes [`SolveError::InvalidOption`] through `?`.
///
/// ```
/// let e = slide::SolveOptions::builder().timeout_secs(-1.0).unwrap_err();
/// assert_eq!(e.option, "timeout");
/// assert_eq!(e.reason(), "-1 is not a positive number of seconds (more than 0, at most 1000000000)");
/// assert_eq!(e.to_string(), format!("timeout: {}", e.reason()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{option}: {reason}")]
pub struct OptionError {
    /// The option, as the library names it (`timeout`, `max_nodes`, `weight`).
    pub option: &'static str,
    /// What is wrong with the value, and the accepted range: the same sentence through every face.
    pub reason: String,
}

impl OptionError {
    /// What is wrong with the value, without the option's name (a face puts its own name before it).
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The end of [`SolveError::OutOfMemory`]'s sentence: the address-space limit, where one is set.
fn refused_limit(limit: Option<u64>) -> String {
    match limit {
        Some(l) => format!(
            " (the process's address-space limit, ulimit -v, is {} MB)",
            l / 1_000_000
        ),
        None => " (the machine is out of memory)".into(),
    }
}

/// What [`SolveError::OutOfMemory`] calls the table whose memory was refused until [`Error::named`] names it.
pub(crate) const UNNAMED: &str = "a table";

impl Error {
    /// This error with `what` named in it when it is an allocation refused somewhere inside the build or read of
    /// `what` ([`SolveError::OutOfMemory`], whose low-level sites only know the bytes).
    pub(crate) fn named(self, what: &str) -> Error {
        match self {
            Error::Solve(SolveError::OutOfMemory {
                what: unnamed,
                needed,
                limit,
            }) if unnamed == UNNAMED => Error::Solve(SolveError::OutOfMemory {
                what: what.to_string(),
                needed,
                limit,
            }),
            e => e,
        }
    }
}

/// The plural ending of a count of things: "" for one, "s" otherwise.
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
