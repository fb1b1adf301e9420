//! The published benchmark sets, embedded: Korf's 100 15-puzzles and Korf & Felner's 50 24-puzzles, with their
//! optimal lengths and the node counts the papers report.
//!
//! The files live in the repository's `data/` folder (with their source headers) and are compiled into the
//! library, so tests, benchmarks and an installed `slide bench korf100` work from any directory.
//!
//! ```
//! let set = slide::benchmarks::korf100();
//! assert_eq!(set.len(), 100);
//! assert_eq!((set[0].id, set[0].optimal), (1, 57));
//! let goal = slide::Board::goal_blank_first(set[0].board.shape());
//! assert!(set.iter().all(|i| i.board.is_solvable(&goal).unwrap()));
//! ```

use crate::board::{Board, Shape};
use crate::error::{Error, ParseError, Result};

/// The text of `data/korf100.txt`: Korf (1985), 100 random 15-puzzle instances, blank-first goal.
pub const KORF100: &str = include_str!("../data/korf100.txt");

/// The text of `data/korf24_50.txt`: Korf & Felner (2002), 50 random 24-puzzle instances, blank-first goal.
pub const KORF24: &str = include_str!("../data/korf24_50.txt");

/// One benchmark instance: a square board whose optimal distance to the blank-first goal
/// ([`Board::goal_blank_first`]) is published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The instance's number in its paper (1-based).
    pub id: u32,
    /// The published optimal number of moves.
    pub optimal: u32,
    /// The nodes the paper's IDA* generated on it.
    pub published_nodes: u64,
    /// The board.
    pub board: Board,
}

/// Korf's 100 15-puzzle instances, in order.
pub fn korf100() -> Vec<Instance> {
    parse(KORF100).expect("the embedded korf100.txt is well formed (tested)")
}

/// Korf & Felner's 50 24-puzzle instances, in order.
pub fn korf24() -> Vec<Instance> {
    parse(KORF24).expect("the embedded korf24_50.txt is well formed (tested)")
}

/// The embedded set called `name` (`korf100`, or `korf24` / `korf24_50`), if there is one.
pub fn named(name: &str) -> Option<Vec<Instance>> {
    match name {
        "korf100" => Some(korf100()),
        "korf24" | "korf24_50" => Some(korf24()),
        _ => None,
    }
}

/// Reads a benchmark file: one instance a line, `id optimal nodes t0 t1 … t(n-1)` with the tiles of a square board
/// in row-major order (`0` the blank); blank lines and lines starting with `#` are skipped.
///
/// Errors name the 1-based line and what is wrong with it.
///
/// ```
/// let set = slide::benchmarks::parse("# a comment\n7 1 5 1 0 2 3\n").unwrap();
/// assert_eq!((set[0].id, set[0].optimal, set[0].board.to_string().as_str()), (7, 1, "[[1,0],[2,3]]"));
/// let e = slide::benchmarks::parse("1 2 3 0 1 2 2\n").unwrap_err();
/// assert!(e.to_string().starts_with("line 1: "), "{e}");
/// ```
pub fn parse(text: &str) -> Result<Vec<Instance>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |reason: String| {
            Error::Parse(ParseError::BadInstance {
                line: i + 1,
                reason,
            })
        };
        let nums: Vec<&str> = line.split_whitespace().collect();
        if nums.len() < 7 {
            return Err(bad(format!(
                "expected `id optimal nodes t0 t1 …` with at least 4 tiles, found {} fields",
                nums.len()
            )));
        }
        let field = |k: usize, what: &str| -> Result<u64> {
            nums[k]
                .parse::<u64>()
                .map_err(|_| bad(format!("{what} {:?} is not a whole number", nums[k])))
        };
        let id = u32::try_from(field(0, "id")?).map_err(|_| bad("id too large".into()))?;
        let optimal = u32::try_from(field(1, "optimal length")?)
            .map_err(|_| bad("optimal length too large".into()))?;
        let published_nodes = field(2, "node count")?;
        let cells = nums.len() - 3;
        let side = (1..=cells).find(|s| s * s >= cells).unwrap_or(cells);
        if side * side != cells {
            return Err(bad(format!("{cells} tiles do not make a square board")));
        }
        let shape = Shape::new(side, side).map_err(|e| bad(e.to_string()))?;
        let board = Board::parse_with_shape(&nums[3..].join(" "), Some(shape))
            .map_err(|e| bad(e.to_string()))?;
        out.push(Instance {
            id,
            optimal,
            published_nodes,
            board,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_sets_are_whole_and_solvable() {
        for (set, n, side) in [(korf100(), 100, 4), (korf24(), 50, 5)] {
            assert_eq!(set.len(), n);
            let ids: Vec<u32> = set.iter().map(|i| i.id).collect();
            assert_eq!(ids, (1..=n as u32).collect::<Vec<_>>());
            let goal = Board::goal_blank_first(Shape::new(side, side).unwrap());
            for inst in &set {
                assert_eq!(inst.board.shape(), goal.shape());
                assert!(inst.board.is_solvable(&goal).unwrap(), "{}", inst.id);
                // The published optimum has the parity of the Manhattan distance and is at least it.
                let pos = inst.board.positions();
                let md: usize = (1..pos.len())
                    .map(|t| goal.shape().manhattan(pos[t], t))
                    .sum();
                assert!(inst.optimal as usize >= md && (inst.optimal as usize - md) % 2 == 0);
            }
        }
        assert_eq!(named("korf24").unwrap()[39].optimal, 82);
        assert!(named("nope").is_none());
    }

    #[test]
    fn bad_lines_name_the_line() {
        for (text, want) in [
            ("1 2 3\n", "line 1: expected"),
            ("#\n\nx 2 3 0 1 2 3\n", "line 3: id \"x\""),
            ("1 2 3 0 1 2 3 4\n", "line 1: 5 tiles do not make a square"),
            ("1 2 3 0 1 2 2\n", "line 1: duplicate value 2"),
            ("99999999999 2 3 0 1 2 3\n", "line 1: id too large"),
        ] {
            let e = parse(text).unwrap_err().to_string();
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
    }
}
