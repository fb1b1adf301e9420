//! How answers are written: the one JSON object shared by `slide solve --json` and `slide serve`'s API (the
//! library's `Answer` and `BoardAnalysis`), and the move lists.

use std::fmt::Write as _;

use slide::{Board, Listing, Notation, Solution};

/// The JSON object of one answer (no trailing newline): the library's [`slide::Answer`] of `s` for `board`
/// ([`slide::Answer::to_json`] gives the fields), timed `seconds`, with `"method"` set to `method` when given and
/// `"moves"` to `counted`, the length of a solution that was counted, not kept.
pub fn answer_json(
    board: &Board,
    s: &Solution,
    seconds: f64,
    listing: Listing,
    method: Option<&'static str>,
    counted: Option<u64>,
) -> String {
    let mut answer = slide::Answer::new(board, s, listing);
    answer.seconds = seconds;
    if method.is_some() {
        answer.method = method;
    }
    if let Some(n) = counted {
        answer.moves = Some(n as i64);
    }
    answer.to_json()
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

/// The JSON object of one analysis (`slide analyse --json`, and the body the API answers with): the library's
/// [`slide::BoardAnalysis`], `{"board": [[…]], "solves": …, "length": …, "mtm_length": …, "optimal": …, "over": …,
/// "distances": […], "mistakes": […]}`.
pub fn analysis_json(board: &Board, a: &slide::Analysis) -> String {
    a.on(board).to_json()
}

/// The JSON line that ends a batch of analyses: `{"summary": {"analysed": …, "solved": …, "optimal": …, "over":
/// {"2": …, "4": …}, "mean_over": …}}` ([`slide::Summary::to_json`]).
pub fn summary_json(s: &slide::Summary) -> String {
    s.to_json()
}

/// The JSON object of a hint (`slide hint --json`): the library's [`slide::BoardHint`], `{"board": [[…]], "moves":
/// D, "hints": [tiles]}`, with `"metric": "mtm"` in MTM (where a hint is a push, named by its farthest tile) and
/// `"notation": [moves]` when a notation is asked for.
pub fn hint_json(
    board: &Board,
    h: &slide::Hint,
    notation: Option<Notation>,
    metric: slide::Metric,
) -> String {
    let mut json = h.on(board, metric);
    json.notation = notation.map(|n| {
        h.tiles
            .iter()
            .map(|&t| hint_written(board, t, n, metric))
            .collect()
    });
    json.to_json()
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
