//! How answers are written: the one JSON object shared by `slide solve --json` and `slide serve`'s API, and the
//! move lists.

use std::fmt::Write as _;

use slide::{Board, Notation, Plan, Solution};

/// Which moves an answer carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moves {
    /// None: only the length.
    Omit,
    /// The tiles that slide into the blank, as a JSON array.
    Tiles,
    /// The tiles as a JSON array, and the sequence written in a notation as the string `"notation"`.
    Notation(Notation),
}

/// The JSON object of one answer (no trailing newline):
/// `{"board": [[…]], "moves": N, "optimal": bool, "nodes": N, "seconds": S, …}` with `"lower_bound"` when not
/// optimal, `"bound"` for bounded-suboptimal answers, `"method"` when given, `"solution"` when moves are asked for,
/// `"notation"` (the moves written in a notation) when one is asked for, and `"reason"` when the goal cannot be
/// reached. `"moves"` is -1 when unsolvable and null when a limit stopped the search before any solution.
/// `counted` gives the length of a solution that was counted, not kept.
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
    if let Some(m) = method.or((s.plan == Plan::Fast).then_some("fast")) {
        let _ = write!(out, ", \"method\": \"{m}\"");
    }
    match (moves, s.moves.as_deref()) {
        (Moves::Omit, _) => {}
        (Moves::Tiles, None) => out.push_str(", \"solution\": null"),
        (Moves::Notation(_), None) => out.push_str(", \"solution\": null, \"notation\": null"),
        (Moves::Tiles, Some(m)) => {
            let _ = write!(out, ", \"solution\": [{}]", join(m, ","));
        }
        (Moves::Notation(n), Some(m)) => {
            let _ = write!(
                out,
                ", \"solution\": [{}], \"notation\": \"{}\"",
                join(m, ","),
                written(m, board, n)
            );
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

/// A solution's moves (tiles sliding into the blank from `board`) written in `notation`.
pub fn written(tiles: &[u32], board: &Board, notation: Notation) -> String {
    if notation == Notation::Tiles {
        return join(tiles, " ");
    }
    slide::Moves::from_tiles(board, tiles)
        .and_then(|m| m.format(notation, Some(board)))
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
