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
/// `{"board": [[…]], "moves": N, "metric": "stm", "optimal": bool, "nodes": N, "seconds": S, …}` (`"moves"` counts
/// in `"metric"`: multi-tile moves for `"mtm"`, while `"solution"` lists single-tile moves) with `"lower_bound"` when not
/// optimal, `"bound"` for bounded-suboptimal answers, `"method"` when given (or `"fast"`, `"partial"`: a partial
/// goal's table), `"solution"` when moves are asked for,
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
        (None, Some(m)) => s.length().unwrap_or(m.len()).to_string(),
        (None, None) if s.is_unsolvable() => "-1".into(),
        (None, None) => "null".into(),
    };
    let _ = write!(
        out,
        "{{\"board\": {board}, \"moves\": {length}, \"metric\": \"{}\", \"optimal\": {}, \"nodes\": {}, \"seconds\": {seconds:.6}",
        s.metric, s.optimal, s.nodes
    );
    if !s.optimal {
        let _ = write!(out, ", \"lower_bound\": {}", s.lower_bound);
    }
    if let Some(w) = s.within {
        let _ = write!(out, ", \"bound\": {w}");
    }
    let planned = match s.plan {
        Plan::Fast => Some("fast"),
        Plan::Partial => Some("partial"),
        _ => None,
    };
    if let Some(m) = method.or(planned) {
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

/// Largest integer a JSON reader holds exactly in a double (2^53).
const EXACT_IN_DOUBLE: u128 = 1 << 53;

/// A count as JSON: a number up to 2^53, a string above (exact for readers that use doubles).
pub fn count_json(n: u128) -> String {
    if n <= EXACT_IN_DOUBLE {
        n.to_string()
    } else {
        format!("\"{n}\"")
    }
}

/// `json` (an object) with `"key": value` added at its end; `value` is JSON already.
pub fn with_field(mut json: String, key: &str, value: &str) -> String {
    if json.ends_with('}') {
        json.pop();
        let _ = write!(json, ", \"{key}\": {value}}}");
    }
    json
}

/// The JSON object of one analysis (`slide analyse --json`, and the body the API answers with): `{"board": [[…]],
/// "solves": …, "length": …, "mtm_length": …, "optimal": …, "over": …, "distances": […], "mistakes": […]}`.
pub fn analysis_json(board: &Board, a: &slide::Analysis) -> String {
    let list = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(",");
    let over = a.over.map_or("null".to_string(), |o| o.to_string());
    format!(
        "{{\"board\": {board}, \"solves\": {}, \"length\": {}, \"mtm_length\": {}, \"optimal\": {}, \"over\": {over}, \"distances\": [{}], \"mistakes\": [{}]}}",
        a.solves,
        a.length,
        a.mtm_length,
        a.optimal,
        list(&mut a.distances.iter().map(|d| d.to_string())),
        list(&mut a.mistakes.iter().map(|m| m.to_string())),
    )
}

/// The JSON line that ends a batch of analyses: `{"summary": {"analysed": …, "solved": …, "optimal": …, "over":
/// {"2": …, "4": …}, "mean_over": …}}`.
pub fn summary_json(s: &slide::Summary) -> String {
    let over: Vec<String> = s
        .over
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    format!(
        "{{\"summary\": {{\"analysed\": {}, \"solved\": {}, \"optimal\": {}, \"over\": {{{}}}, \"mean_over\": {}}}}}",
        s.analysed,
        s.solved,
        s.optimal,
        over.join(", "),
        serde_json::Value::from(s.mean_over)
    )
}

/// The JSON object of a hint (`slide hint --json`): `{"board": [[…]], "moves": D, "hints": [tiles]}`, with
/// `"metric": "mtm"` in MTM (where a hint is a push, named by its farthest tile) and `"notation": [moves]` when a
/// notation is asked for.
pub fn hint_json(
    board: &Board,
    h: &slide::Hint,
    notation: Option<Notation>,
    metric: slide::Metric,
) -> String {
    let mut out = format!(
        "{{\"board\": {board}, \"moves\": {}, \"hints\": [{}]",
        h.distance,
        join(&h.tiles, ",")
    );
    if metric == slide::Metric::Mtm {
        out.push_str(", \"metric\": \"mtm\"");
    }
    if let Some(n) = notation {
        let letters: Vec<String> = h
            .tiles
            .iter()
            .map(|&t| hint_written(board, t, n, metric))
            .collect();
        let _ = write!(out, ", \"notation\": {}", serde_json::json!(letters));
    }
    out.push('}');
    out
}

/// One hint written in `notation`: in STM the tile `t` (next to the blank), in MTM the push that ends with `t`
/// (all the tiles it slides: `U2` in short notation).
pub fn hint_written(board: &Board, t: u32, notation: Notation, metric: slide::Metric) -> String {
    match metric {
        slide::Metric::Mtm => written(&board.push_tiles(t).unwrap_or_default(), board, notation),
        slide::Metric::Stm => written(&[t], board, notation),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_past_two_to_the_53_are_strings() {
        assert_eq!(count_json(0), "0");
        assert_eq!(count_json(1 << 53), "9007199254740992");
        assert_eq!(count_json((1 << 53) + 1), "\"9007199254740993\"");
        assert_eq!(count_json(u128::MAX), format!("\"{}\"", u128::MAX));
    }

    #[test]
    fn fields_are_added_at_the_end() {
        assert_eq!(
            with_field("{\"a\": 1}".into(), "b", "2"),
            "{\"a\": 1, \"b\": 2}"
        );
    }
}
