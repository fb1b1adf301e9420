//! How answers are written: the one JSON object shared by `slide solve --json` and `slide serve`'s API, and the
//! move lists.

use std::fmt::Write as _;

use slide::{Board, Solution};

/// Which moves an answer carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moves {
    /// None: only the length.
    Omit,
    /// The tiles that slide into the blank, as a JSON array.
    Tiles,
    /// The blank's directions, as a string of U, D, L, R.
    Directions,
}

/// The JSON object of one answer (no trailing newline):
/// `{"board": [[…]], "moves": N, "optimal": bool, "nodes": N, "seconds": S, …}` with `"lower_bound"` when not
/// optimal, `"bound"` for bounded-suboptimal answers, `"method"` when given, `"solution"` when moves are asked for,
/// and `"reason"` when the goal cannot be reached. `"moves"` is -1 when unsolvable and null when a limit stopped the
/// search before any solution. `counted` gives the length of a solution that was counted, not kept.
pub fn answer_json(
    board: &Board,
    s: &Solution,
    seconds: f64,
    moves: Moves,
    method: Option<&str>,
    counted: Option<u64>,
) -> String {
    let mut out = String::with_capacity(128);
    let length = match (counted, s.moves.as_deref()) {
        (Some(n), _) => n.to_string(),
        (None, Some(m)) => m.len().to_string(),
        (None, None) if s.is_unsolvable() => "-1".into(),
        (None, None) => "null".into(),
    };
    let _ = write!(
        out,
        "{{\"board\": {board}, \"moves\": {length}, \"optimal\": {}, \"nodes\": {}, \"seconds\": {seconds:.6}",
        s.optimal, s.nodes
    );
    if !s.optimal {
        let _ = write!(out, ", \"lower_bound\": {}", s.lower_bound);
    }
    if let Some(w) = s.within {
        let _ = write!(out, ", \"bound\": {w}");
    }
    if let Some(m) = method {
        let _ = write!(out, ", \"method\": \"{m}\"");
    }
    match (moves, s.moves.as_deref()) {
        (Moves::Omit, _) => {}
        (_, None) => out.push_str(", \"solution\": null"),
        (Moves::Tiles, Some(m)) => {
            let _ = write!(out, ", \"solution\": [{}]", join(m, ","));
        }
        (Moves::Directions, Some(_)) => {
            let _ = write!(out, ", \"solution\": \"{}\"", letters(s, board));
        }
    }
    if let Some(reason) = &s.unsolvable_reason {
        let _ = write!(
            out,
            ", \"reason\": {}",
            serde_json::Value::from(reason.as_str())
        );
    }
    out.push('}');
    out
}

/// The blank's directions for a solution's moves, as letters.
pub fn letters(solution: &Solution, board: &Board) -> String {
    solution
        .directions(board)
        .map(|d| d.iter().map(|d| d.letter()).collect())
        .unwrap_or_default()
}

/// Tiles joined by a separator.
pub fn join(tiles: &[u32], sep: &str) -> String {
    let mut s = String::with_capacity(tiles.len() * 3);
    for (i, t) in tiles.iter().enumerate() {
        if i > 0 {
            s.push_str(sep);
        }
        s.push_str(itoa::Buffer::new().format(*t));
    }
    s
}
