//! Practice: the speedsolvers' statistics of a series of solves (single, mean of 3, averages of 5, 12, 50 and 100
//! with the standard trimming, current and best rolling values, personal bests) and the replay that checks a
//! recorded solve (its moves from the scramble to the goal, its lengths and its time). Pure: no I/O.
//!
//! An *average of N* (ao5, ao12, …) drops the best and the worst `ceil(N × 5 %)` results (at least one each) and
//! takes the mean of the rest; a DNF (did not finish) counts as the worst result, so an average with more DNFs
//! than it drops is a DNF (two DNFs make an ao5 a DNF). A *mean of 3* drops nothing: one DNF makes it a DNF.
//!
//! ```
//! use slide::practice::{Better, Kind, Score};
//! let times = [Some(10.0), Some(12.0), None, Some(11.0), Some(13.0)]; // None: a DNF
//! // ao5 drops the best (10) and the worst (the DNF): the mean of 11, 12 and 13.
//! assert_eq!(Kind::Ao(5).current(&times, Better::Lower), Some(Score::Value(12.0)));
//! // mo3 of the last three (DNF, 11, 13) is a DNF.
//! assert_eq!(Kind::Mo3.current(&times, Better::Lower), Some(Score::Dnf));
//! assert_eq!(Kind::Single.best(&times, Better::Lower), Some(Score::Value(10.0)));
//! ```
use std::cmp::Ordering;
use std::fmt;

use crate::error::{Error, Result, SolveError};
use crate::notation::Written;
use crate::{Board, Shape};

/// One value of a statistic: a number, or DNF (a solve not finished, or an average spoiled by them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Score {
    /// A time, a move count or a speed.
    Value(f64),
    /// Did not finish.
    Dnf,
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Value(v) => write!(f, "{v}"),
            Score::Dnf => f.write_str("DNF"),
        }
    }
}

/// Which way a statistic improves: times and move counts are better lower, speeds (TPS) higher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    /// Less is better (time, moves).
    Lower,
    /// More is better (tiles per second).
    Higher,
}

impl Better {
    /// Orders two scores best first: `Less` when `a` is better than `b`; a DNF is worse than every value.
    pub fn compare(self, a: Score, b: Score) -> Ordering {
        match (a, b) {
            (Score::Dnf, Score::Dnf) => Ordering::Equal,
            (Score::Dnf, _) => Ordering::Greater,
            (_, Score::Dnf) => Ordering::Less,
            (Score::Value(x), Score::Value(y)) => match self {
                Better::Lower => x.total_cmp(&y),
                Better::Higher => y.total_cmp(&x),
            },
        }
    }
}

/// A statistic over the latest results: one solve, a mean of 3, or an average of N.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One solve.
    Single,
    /// Mean of 3: nothing dropped.
    Mo3,
    /// Average of N: the best and worst `ceil(N × 5 %)` (at least one each) dropped.
    Ao(usize),
}

/// The statistics the practice views show, in order: single, mo3, ao5, ao12, ao50, ao100.
pub const KINDS: [Kind; 6] = [
    Kind::Single,
    Kind::Mo3,
    Kind::Ao(5),
    Kind::Ao(12),
    Kind::Ao(50),
    Kind::Ao(100),
];

/// How many results an average of `n` drops at each end: 5 % of `n` rounded up, at least one.
///
/// ```
/// use slide::practice::trimmed;
/// assert_eq!([trimmed(5), trimmed(12), trimmed(50), trimmed(100)], [1, 1, 3, 5]);
/// ```
pub fn trimmed(n: usize) -> usize {
    n.div_ceil(20).max(1)
}

impl Kind {
    /// The name: `single`, `mo3`, `ao5`, `ao12`, ….
    pub fn name(self) -> String {
        match self {
            Kind::Single => "single".into(),
            Kind::Mo3 => "mo3".into(),
            Kind::Ao(n) => format!("ao{n}"),
        }
    }

    /// How many results it takes.
    pub fn window(self) -> usize {
        match self {
            Kind::Single => 1,
            Kind::Mo3 => 3,
            Kind::Ao(n) => n,
        }
    }

    /// The statistic of exactly [`Kind::window`] results (`None` a DNF), or `None` when `results` is not that
    /// long.
    pub fn of(self, results: &[Option<f64>], better: Better) -> Option<Score> {
        if results.len() != self.window() || results.is_empty() {
            return None;
        }
        let score = |r: Option<f64>| r.map_or(Score::Dnf, Score::Value);
        Some(match self {
            Kind::Single | Kind::Mo3 => mean(results.iter().map(|&r| score(r))),
            Kind::Ao(n) => {
                let cut = trimmed(n);
                if 2 * cut >= n {
                    // Too short to trim (ao2): a mean.
                    return Some(mean(results.iter().map(|&r| score(r))));
                }
                let mut sorted: Vec<Score> = results.iter().map(|&r| score(r)).collect();
                sorted.sort_by(|&a, &b| better.compare(a, b));
                mean(sorted[cut..n - cut].iter().copied())
            }
        })
    }

    /// The statistic of the latest results (the last [`Kind::window`]), or `None` when there are fewer.
    pub fn current(self, results: &[Option<f64>], better: Better) -> Option<Score> {
        let n = self.window();
        results
            .len()
            .checked_sub(n)
            .and_then(|from| self.of(&results[from..], better))
    }

    /// The best statistic over every run of [`Kind::window`] consecutive results, or `None` when there are fewer.
    pub fn best(self, results: &[Option<f64>], better: Better) -> Option<Score> {
        let n = self.window();
        if results.len() < n {
            return None;
        }
        results
            .windows(n)
            .filter_map(|w| self.of(w, better))
            .min_by(|&a, &b| better.compare(a, b))
    }
}

/// The mean of the scores; a DNF among them makes it a DNF.
fn mean(scores: impl Iterator<Item = Score>) -> Score {
    let (mut sum, mut n) = (0.0, 0usize);
    for s in scores {
        match s {
            Score::Dnf => return Score::Dnf,
            Score::Value(v) => {
                sum += v;
                n += 1;
            }
        }
    }
    if n == 0 {
        Score::Dnf
    } else {
        Score::Value(sum / n as f64)
    }
}

/// The current and best value of one statistic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Standing {
    /// Which statistic.
    pub kind: Kind,
    /// Over the latest results; `None` when there are too few.
    pub current: Option<Score>,
    /// The best over the series; `None` when there are too few.
    pub best: Option<Score>,
}

/// Every statistic of [`KINDS`] over `results` (oldest first; `None` a DNF).
pub fn standings(results: &[Option<f64>], better: Better) -> Vec<Standing> {
    KINDS
        .iter()
        .map(|&kind| Standing {
            kind,
            current: kind.current(results, better),
            best: kind.best(results, better),
        })
        .collect()
}

/// The statistics of [`KINDS`] whose best the last result improved: the best with it strictly better than the best
/// without it (or the first value there is, when it is not a DNF).
///
/// ```
/// use slide::practice::{new_bests, Better, Kind};
/// let times = [Some(12.0), Some(11.0), Some(13.0), Some(10.0)];
/// assert_eq!(new_bests(&times, Better::Lower), [Kind::Single, Kind::Mo3]);
/// ```
pub fn new_bests(results: &[Option<f64>], better: Better) -> Vec<Kind> {
    let Some((_, before)) = results.split_last() else {
        return Vec::new();
    };
    KINDS
        .iter()
        .copied()
        .filter(
            |kind| match (kind.best(before, better), kind.best(results, better)) {
                (_, None | Some(Score::Dnf)) => false,
                (None, Some(_)) => true,
                (Some(old), Some(new)) => better.compare(new, old) == Ordering::Less,
            },
        )
        .collect()
}

/// A recorded solve replayed ([`replay`]): what the server fills in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// The scramble's shape.
    pub shape: Shape,
    /// The board the moves end on.
    pub end: Board,
    /// Whether it is the goal.
    pub solved: bool,
    /// The moves' length in single-tile moves.
    pub stm: usize,
    /// Their length in multi-tile moves.
    pub mtm: usize,
    /// The time of the last move, in milliseconds since the start (0 without moves).
    pub time_ms: u64,
    /// The moves, written short (`R2U2LD`).
    pub moves: String,
}

/// Replays a recorded solve: `moves` (as read by [`crate::notation::read`]) played from `scramble` towards the
/// default goal, with `times_ms`, the time of each single-tile move in milliseconds since the start (as many as the
/// moves, never decreasing). Unless `dnf`, the moves must end on the goal.
///
/// Errors: [`ParseError::BadMove`](crate::ParseError::BadMove) naming the first illegal move as it was written,
/// [`SolveError::InvalidOption`] (`times_ms`, `moves`) for times that do not match the moves or moves that stop
/// short of the goal.
///
/// ```
/// use slide::{notation, practice, Board};
/// let scramble = Board::parse("4 1 2/5 0 3").unwrap();
/// let moves = notation::read("RDL2U", false).unwrap();
/// let r = practice::replay(&scramble, &moves, &[300, 500, 800, 900, 1200], false).unwrap();
/// assert_eq!((r.solved, r.stm, r.mtm, r.time_ms), (true, 5, 4, 1200));
/// let e = practice::replay(&scramble, &notation::read("RDLLD", false).unwrap(), &[1, 2, 3, 4, 5], false);
/// assert!(e.unwrap_err().to_string().starts_with("move 5 (D): "));
/// ```
pub fn replay(scramble: &Board, moves: &Written, times_ms: &[u64], dnf: bool) -> Result<Replay> {
    let end = moves.apply(scramble)?;
    let resolved = moves.resolve(scramble)?;
    let stm = resolved.stm_len();
    if times_ms.len() != stm {
        return Err(Error::Solve(SolveError::InvalidOption {
            option: "times_ms".into(),
            reason: format!(
                "{} times for {stm} single-tile moves: give one time per single-tile move (R3 is three)",
                times_ms.len()
            ),
        }));
    }
    if let Some(i) = times_ms.windows(2).position(|w| w[1] < w[0]) {
        return Err(Error::Solve(SolveError::InvalidOption {
            option: "times_ms".into(),
            reason: format!(
                "the time of move {} ({} ms) is before the time of move {} ({} ms): times never decrease",
                i + 2,
                times_ms[i + 1],
                i + 1,
                times_ms[i]
            ),
        }));
    }
    let solved = end == Board::goal(scramble.shape());
    if !solved && !dnf {
        return Err(Error::Solve(SolveError::InvalidOption {
            option: "moves".into(),
            reason: format!(
                "the {stm} moves end on {end}, not on the goal: a solve that does not reach the goal is recorded with \"dnf\": true"
            ),
        }));
    }
    Ok(Replay {
        shape: scramble.shape(),
        end,
        solved,
        stm,
        mtm: resolved.mtm_len(),
        time_ms: times_ms.last().copied().unwrap_or(0),
        moves: resolved.format(crate::Notation::Short, None)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseError;

    const L: Better = Better::Lower;

    fn v(x: f64) -> Option<Score> {
        Some(Score::Value(x))
    }

    #[test]
    fn trimming_counts() {
        assert_eq!(trimmed(3), 1);
        assert_eq!(trimmed(5), 1);
        assert_eq!(trimmed(12), 1);
        assert_eq!(trimmed(20), 1);
        assert_eq!(trimmed(21), 2);
        assert_eq!(trimmed(50), 3);
        assert_eq!(trimmed(100), 5);
    }

    #[test]
    fn ao5_by_hand() {
        // 10 12 11 13 9: drop 9 and 13, mean of 10, 11, 12.
        let t = [Some(10.0), Some(12.0), Some(11.0), Some(13.0), Some(9.0)];
        assert_eq!(Kind::Ao(5).current(&t, L), v(11.0));
        // One DNF is dropped as the worst.
        let t = [Some(10.0), None, Some(11.0), Some(13.0), Some(9.0)];
        assert_eq!(Kind::Ao(5).current(&t, L), v(34.0 / 3.0));
        // Two DNFs: more than the one dropped.
        let t = [Some(10.0), None, Some(11.0), None, Some(9.0)];
        assert_eq!(Kind::Ao(5).current(&t, L), Some(Score::Dnf));
        // Ties: one copy of the best and one of the worst go.
        let t = [Some(10.0), Some(10.0), Some(12.0), Some(12.0), Some(11.0)];
        assert_eq!(Kind::Ao(5).current(&t, L), v(11.0));
    }

    #[test]
    fn too_few_results() {
        let t = [Some(10.0), Some(12.0)];
        assert_eq!(Kind::Mo3.current(&t, L), None);
        assert_eq!(Kind::Ao(5).best(&t, L), None);
        assert_eq!(Kind::Single.current(&t, L), v(12.0));
        assert_eq!(Kind::Single.current(&[], L), None);
        assert_eq!(new_bests(&[], L), []);
    }

    #[test]
    fn mean_of_3() {
        let t = [Some(3.0), Some(4.0), Some(8.0), None];
        assert_eq!(Kind::Mo3.best(&t, L), v(5.0));
        assert_eq!(Kind::Mo3.current(&t, L), Some(Score::Dnf));
    }

    #[test]
    fn rolling_best_and_current() {
        let t: Vec<Option<f64>> = [20.0, 10.0, 11.0, 12.0, 13.0, 30.0, 40.0]
            .map(Some)
            .to_vec();
        // Windows: [20,10,11,12,13] → 12, [10,11,12,13,30] → 12, [11,12,13,30,40] → 18.33…
        assert_eq!(Kind::Ao(5).best(&t, L), v(12.0));
        assert_eq!(Kind::Ao(5).current(&t, L), v(55.0 / 3.0));
        assert_eq!(Kind::Single.best(&t, L), v(10.0));
    }

    #[test]
    fn ao12_ao50_ao100() {
        // 1..=12: drop 1 and 12, mean of 2..=11 = 6.5.
        let t: Vec<Option<f64>> = (1..=12).map(|x| Some(f64::from(x))).collect();
        assert_eq!(Kind::Ao(12).current(&t, L), v(6.5));
        // 1..=50: drop 1..=3 and 48..=50, mean of 4..=47 = 25.5.
        let mut t: Vec<Option<f64>> = (1..=50).map(|x| Some(f64::from(x))).collect();
        assert_eq!(Kind::Ao(50).current(&t, L), v(25.5));
        // Three DNFs are still dropped, a fourth spoils it.
        for r in t.iter_mut().take(3) {
            *r = None;
        }
        // Now 4..=50 with three DNFs: drop 4, 5, 6 and the DNFs: mean of 7..=50 = 28.5.
        assert_eq!(Kind::Ao(50).current(&t, L), v(28.5));
        t[10] = None;
        assert_eq!(Kind::Ao(50).current(&t, L), Some(Score::Dnf));
        // ao100 drops five at each end: 1..=100 → mean of 6..=95 = 50.5.
        let t: Vec<Option<f64>> = (1..=100).map(|x| Some(f64::from(x))).collect();
        assert_eq!(Kind::Ao(100).current(&t, L), v(50.5));
        assert_eq!(Kind::Ao(100).best(&t[1..], L), None);
    }

    #[test]
    fn speeds_are_better_higher() {
        let tps = [Some(2.0), Some(3.0), None, Some(4.0), Some(5.0)];
        // Drop the best (5) and the worst (the DNF): mean of 2, 3, 4.
        assert_eq!(Kind::Ao(5).current(&tps, Better::Higher), v(3.0));
        assert_eq!(Kind::Single.best(&tps, Better::Higher), v(5.0));
    }

    #[test]
    fn personal_bests() {
        let t = [Some(12.0), Some(11.0), Some(13.0)];
        assert_eq!(new_bests(&t, L), [Kind::Mo3]);
        assert_eq!(new_bests(&t[..1], L), [Kind::Single]);
        // A DNF sets no best; a tie is not a new one.
        assert_eq!(new_bests(&[Some(12.0), None], L), []);
        assert_eq!(new_bests(&[Some(12.0), Some(12.0)], L), []);
        let names: Vec<String> = standings(&t, L).iter().map(|s| s.kind.name()).collect();
        assert_eq!(names, ["single", "mo3", "ao5", "ao12", "ao50", "ao100"]);
    }

    #[test]
    fn replays() {
        let b = Board::parse("4 1 2/5 0 3").unwrap();
        let read = |m: &str| crate::notation::read(m, false).unwrap();
        let r = replay(&b, &read("5 4 1 2 3"), &[1, 1, 2, 3, 5], false).unwrap();
        assert_eq!(
            (r.stm, r.mtm, r.time_ms, r.moves.as_str()),
            (5, 4, 5, "RDL2U")
        );
        let e = replay(&b, &read("RDL2U"), &[1, 2, 3, 4], false).unwrap_err();
        assert!(
            e.to_string().contains("4 times for 5 single-tile moves"),
            "{e}"
        );
        let e = replay(&b, &read("RDL2U"), &[1, 2, 3, 2, 5], false).unwrap_err();
        assert!(e.to_string().contains("move 4 (2 ms) is before"), "{e}");
        let e = replay(&b, &read("RD"), &[1, 2], false).unwrap_err();
        assert!(e.to_string().contains("not on the goal"), "{e}");
        let r = replay(&b, &read("RD"), &[1, 2], true).unwrap();
        assert!(!r.solved);
        let e = replay(&b, &read("RDLLD"), &[1, 2, 3, 4, 5], true).unwrap_err();
        assert!(
            matches!(e, Error::Parse(ParseError::BadMove { index: 5, .. })),
            "{e}"
        );
    }
}
