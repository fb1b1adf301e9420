//! The move metric: how moves are counted — single-tile moves (STM) or multi-tile moves (MTM).
use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result, SolveError};

/// How moves are counted.
///
/// - [`Metric::Stm`] (single-tile moves, the default): every tile that slides one cell into the blank is a move.
/// - [`Metric::Mtm`] (multi-tile moves): pushing 1 to k tiles of the blank's row or column one cell toward the blank
///   is one move (the blank jumps k cells). The MTM length of a sequence of single-tile moves is its number of
///   maximal runs of one direction ([`crate::Moves::mtm_len`]).
///
/// ```
/// use slide::Metric;
/// assert_eq!("MTM".parse::<Metric>().unwrap(), Metric::Mtm);
/// assert_eq!(Metric::default().name(), "stm");
/// assert!("htm".parse::<Metric>().unwrap_err().to_string().contains("stm or mtm"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Metric {
    /// Single-tile moves.
    #[default]
    Stm,
    /// Multi-tile moves.
    Mtm,
}

impl Metric {
    /// Both metrics.
    pub const ALL: [Metric; 2] = [Metric::Stm, Metric::Mtm];

    /// The name as written on the command line and in JSON: `stm` or `mtm`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Stm => "stm",
            Metric::Mtm => "mtm",
        }
    }

    /// The length of a sequence of single-tile moves in this metric.
    pub fn length(self, moves: &crate::Moves) -> usize {
        match self {
            Metric::Stm => moves.stm_len(),
            Metric::Mtm => moves.mtm_len(),
        }
    }
}

/// Serialised as its [`name`](Metric::name), `"stm"` or `"mtm"`.
impl serde::Serialize for Metric {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Metric {
    type Err = Error;
    /// Reads `stm` or `mtm`, ignoring case and surrounding white space.
    fn from_str(text: &str) -> Result<Metric> {
        let t = text.trim();
        Metric::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(t))
            .ok_or_else(|| {
                Error::Solve(SolveError::InvalidOption {
                    option: "metric".into(),
                    reason: format!(
                        "unknown metric {:?}: expected stm or mtm",
                        t.chars().take(20).collect::<String>()
                    ),
                })
            })
    }
}
