//! The faces' words for the library's errors. The library says what is wrong and names its options by their
//! library names (`timeout`, `max_nodes`, `weight`); the command line and the server add, here and only here,
//! which flag or field a user sets to change it, so that the library's sentence stays the same through every face.

use slide::{Error, OptionError, ParseError, SolveError};

/// The command-line flag of a library option, for the options the flags of `solve` and `bench` set.
pub fn flag_of(option: &str) -> Option<&'static str> {
    match option {
        "timeout" => Some("--timeout"),
        "max_nodes" => Some("--max-nodes"),
        "weight" => Some("--within"),
        _ => None,
    }
}

/// The JSON field of a library option in the server's requests.
pub fn field_of(option: &str) -> Option<&'static str> {
    match option {
        "timeout" => Some("\"timeout\""),
        _ => None,
    }
}

/// An option the library refused, named by its command-line flag: `--timeout: -1 is not a positive number…`.
pub fn flagged(e: &OptionError) -> String {
    match flag_of(e.option) {
        Some(flag) => format!("{flag}: {}", e.reason()),
        None => e.to_string(),
    }
}

/// An option the library refused, named by its field in a request: `"timeout": -1 is not a positive number…`.
pub fn fielded(e: &OptionError) -> String {
    match field_of(e.option) {
        Some(field) => format!("{field}: {}", e.reason()),
        None => e.to_string(),
    }
}

/// A library error as the command line says it: the library's sentence, with the flag that changes what it is
/// about where there is one.
///
/// ```
/// let e = slide::Board::parse("1 2 3 4 0 5").unwrap_err();
/// assert!(slide_cli::explain::explain(&e).ends_with("or use rows (--shape RxC)"));
/// ```
pub fn explain(e: &Error) -> String {
    match e {
        Error::Parse(ParseError::UnknownShape { .. }) => format!("{e} (--shape RxC)"),
        Error::Solve(SolveError::TooMuchMemory { .. }) => format!("{e} (--max-memory)"),
        Error::Solve(SolveError::InvalidOption { option, reason }) => match flag_of(option) {
            Some(flag) => format!("{flag}: {reason}"),
            None => e.to_string(),
        },
        _ => e.to_string(),
    }
}

/// A library error as the server says it: the library's sentence, with the request field or the server's flag
/// that changes what it is about where there is one.
pub fn explain_http(e: &Error) -> String {
    match e {
        Error::Parse(ParseError::UnknownShape { .. }) => format!("{e} (\"shape\")"),
        Error::Solve(SolveError::TooMuchMemory { .. }) => format!("{e} (--max-memory)"),
        Error::Solve(SolveError::InvalidOption { option, reason }) => match field_of(option) {
            Some(field) => format!("{field}: {reason}"),
            None => e.to_string(),
        },
        _ => e.to_string(),
    }
}

/// A `--goal` (or a request's goal) as a pattern: a goal board read as ever, else a pattern whose `x` cells take
/// any tile (a partial goal); when it is neither, the board's own error.
///
/// ```
/// let p = slide_cli::explain::goal_pattern("1 2 3/x x x", None).unwrap();
/// assert_eq!(p.any_count(), 3);
/// let e = slide_cli::explain::goal_pattern("1 2 3/4 5 5", None).unwrap_err();
/// assert!(e.to_string().contains("duplicate value 5"), "{e}");
/// ```
pub fn goal_pattern(
    text: &str,
    shape: Option<slide::Shape>,
) -> Result<slide::Pattern, slide::Error> {
    match slide::Board::parse_with_shape(text, shape) {
        Ok(b) => Ok(slide::Pattern::from_board(&b)),
        Err(e) => slide::Pattern::parse_with_shape(text, shape).map_err(|_| e),
    }
}

/// The refusal of a goal with `x` cells (a partial goal) given to a command that needs a whole goal board (`slide
/// apply --solved` starts from it); `None` when `text` is not such a pattern (its error is the board's own).
pub fn partial_goal(text: &str, shape: Option<slide::Shape>) -> Option<String> {
    let pattern = slide::Pattern::parse_with_shape(text, shape).ok()?;
    pattern.board().is_none().then(|| {
        "a partial goal (x) is not one board to start from: give a whole goal board here"
            .to_string()
    })
}
