//! Value parsers of the numeric and enumerated flags: every number is checked against its documented range
//! (docs/limits.md) and every name against the library's list while the command line is read, so a bad value is a
//! usage error (exit status 2) naming the flag, never a panic, a run without end or an exhausted machine. Where the
//! library checks a value, its sentence is the message (the same through Python).

use std::time::Duration;

/// Longest `--timeout` of one `serve` solve, in seconds (a day).
pub const MAX_SERVE_TIMEOUT: f64 = 86_400.0;
/// Most threads of `--threads`: the library's [`slide::SolveOptions::MAX_THREADS`].
pub const MAX_THREADS: usize = slide::SolveOptions::MAX_THREADS;
/// Longest `scramble --walk`: its time grows with the length, about 2 s of CPU per 10^8 moves in an optimised build
/// (so about 20 s at the cap).
pub const MAX_WALK: u64 = 1_000_000_000;

fn number(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .map_err(|_| format!("{s:?} is not a number"))
}

fn seconds(s: &str, max: f64, otherwise: &str) -> Result<f64, String> {
    let t = number(s)?;
    if t.is_nan() {
        return Err(format!("{s} is not a number of seconds"));
    }
    if t <= 0.0 {
        return Err(format!(
            "{s} is not a positive number of seconds (more than 0, at most {max})"
        ));
    }
    if t > max {
        return Err(format!(
            "{s} seconds is too long: at most {max} ({otherwise})"
        ));
    }
    Duration::try_from_secs_f64(t).map_err(|e| format!("{s}: {e}"))?;
    Ok(t)
}

/// `--timeout` of `solve` and `bench`: seconds, checked by the library ([`slide::SolveOptions::check_timeout_secs`]:
/// more than 0 and at most [`slide::SolveOptions::MAX_TIMEOUT_SECS`]), whose sentence the message is.
pub fn timeout(s: &str) -> Result<f64, String> {
    let t = number(s)?;
    slide::SolveOptions::check_timeout_secs(t).map_err(|e| e.reason)?;
    Ok(t)
}

/// A whole number with its sign, for the library's checks (which name a negative value as such); `None` for text
/// that is not one, `-0` included: a flag of whole numbers from 0 reads digits, and a sign on zero is a typo.
fn signed_whole(s: &str) -> Option<i128> {
    let t = s.trim();
    let n: i128 = t.parse().ok()?;
    (n != 0 || !t.starts_with('-')).then_some(n)
}

/// `--max-nodes` of `solve` and `bench`: a whole number, checked by the library
/// ([`slide::SolveOptions::check_max_nodes`]: 0 to `u64::MAX`), whose sentence the message is.
pub fn max_nodes(s: &str) -> Result<u64, String> {
    let n = signed_whole(s).ok_or_else(|| format!("{s:?} is not a whole number"))?;
    slide::SolveOptions::check_max_nodes(n).map_err(|e| e.reason)
}

/// `--timeout` of `serve`: seconds, more than 0 and at most [`MAX_SERVE_TIMEOUT`].
pub fn serve_timeout(s: &str) -> Result<f64, String> {
    seconds(s, MAX_SERVE_TIMEOUT, "the default is 2")
}

/// `serve --max-timeout`: seconds from 0 to a day.
pub fn serve_max_timeout(s: &str) -> Result<f64, String> {
    let t = number(s)?;
    if !(t.is_finite() && (0.0..=MAX_SERVE_TIMEOUT).contains(&t)) {
        return Err(format!(
            "{s} is not a number of seconds from 0 to {MAX_SERVE_TIMEOUT} (the default is 30)"
        ));
    }
    Ok(t)
}

/// `--within`: a weight, checked by the library ([`slide::SolveOptions::check_weight`]: 1 to [`slide::engine::MAX_WEIGHT`]),
/// whose sentence the message is.
pub fn weight(s: &str) -> Result<f64, String> {
    slide::SolveOptions::check_weight(number(s)?).map_err(|e| e.reason)
}

fn whole(s: &str, min: usize, max: usize) -> Result<usize, String> {
    let n: u64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a whole number from {min} to {max}"))?;
    usize::try_from(n)
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| format!("{s} is not a whole number from {min} to {max}"))
}

/// `--threads` of `solve` and `bench`: 0 (all cores) to [`MAX_THREADS`], checked by the library
/// ([`slide::SolveOptions::check_threads`]), whose sentence the message is.
pub fn threads(s: &str) -> Result<usize, String> {
    let n = signed_whole(s)
        .ok_or_else(|| format!("{s:?} is not a whole number from 0 to {MAX_THREADS}"))?;
    slide::SolveOptions::check_threads(n).map_err(|e| e.reason)
}

/// `--max-memory`: MB, checked by the library ([`slide::SolveOptions::check_max_memory_mb`]: 0 to `u64::MAX`),
/// whose sentence the message is; the budget in MB.
pub fn max_memory(s: &str) -> Result<u64, String> {
    let n = signed_whole(s)
        .ok_or_else(|| format!("{s:?} is not a whole number of MB from 0 to {}", u64::MAX))?;
    slide::SolveOptions::check_max_memory_mb(n).map_err(|e| e.reason)?;
    Ok(n as u64)
}

/// The library's sentence for a value its `FromStr` refused: an option's reason without the option's name (clap
/// names the flag before it), any other error as [`crate::explain::explain`] says it.
fn refused(e: &slide::Error) -> String {
    match e {
        slide::Error::Solve(slide::SolveError::InvalidOption { reason, .. }) => reason.clone(),
        _ => crate::explain::explain(e),
    }
}

/// `--metric`: `stm` or `mtm`, read by the library ([`slide::Metric`]'s `FromStr`).
pub fn metric(s: &str) -> Result<slide::Metric, String> {
    s.parse().map_err(|e| refused(&e))
}

/// `--notation`: a notation's name, read by the library ([`slide::Notation`]'s `FromStr`).
pub fn notation(s: &str) -> Result<slide::Notation, String> {
    s.parse().map_err(|e| refused(&e))
}

/// `--pdb-index`: `auto`, `dense` or `sparse`, read by the library ([`slide::engine::IndexChoice`]'s `FromStr`).
pub fn pdb_index(s: &str) -> Result<slide::engine::IndexChoice, String> {
    s.parse().map_err(|e| refused(&e))
}

/// `--heuristic` of `solve` and `bench`: read by the library ([`slide::HeuristicChoice`]'s `FromStr`, which also
/// takes the long names), kept as its short name: `auto`, `md`, `lc` or `pdb`.
pub fn heuristic(s: &str) -> Result<String, String> {
    use slide::HeuristicChoice as H;
    Ok(match s.parse::<H>().map_err(|e| refused(&e))? {
        H::Manhattan => "md",
        H::LinearConflict => "lc",
        H::Pdb(_) => "pdb",
        _ => "auto",
    }
    .to_string())
}

/// `--port` of `serve`: 0 (any free port) to 65535, digits only (clap's own parser of a `u16` reads `-0` as 0).
pub fn port(s: &str) -> Result<u16, String> {
    whole(s, 0, u16::MAX as usize).map(|p| p as u16)
}

/// `--threads` of `serve`: 1 to [`MAX_THREADS`] solves at once.
pub fn serve_threads(s: &str) -> Result<usize, String> {
    whole(s, 1, MAX_THREADS)
}

/// `render --tps`: tiles per second, from [`slide::render::MIN_TPS`] to [`slide::render::MAX_TPS`].
pub fn tps(s: &str) -> Result<f64, String> {
    let t = number(s)?;
    let (min, max) = (slide::render::MIN_TPS, slide::render::MAX_TPS);
    if !(t.is_finite() && (min..=max).contains(&t)) {
        return Err(format!(
            "{s} is not a number of tiles per second from {min} to {max}"
        ));
    }
    Ok(t)
}

/// `render --size`: pixels, from [`slide::render::MIN_SIZE`] to [`slide::render::MAX_SIZE`].
pub fn size(s: &str) -> Result<u32, String> {
    let (min, max) = (slide::render::MIN_SIZE, slide::render::MAX_SIZE);
    whole(s, min as usize, max as usize).map(|n| n as u32)
}

/// `render --inbetweens`: in-between frames per move, 0 to [`slide::render::MAX_INBETWEENS`].
pub fn inbetweens(s: &str) -> Result<u32, String> {
    whole(s, 0, slide::render::MAX_INBETWEENS as usize).map(|n| n as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports() {
        assert_eq!(
            (port("0"), port("8773"), port("65535")),
            (Ok(0), Ok(8773), Ok(65535))
        );
        for bad in ["-0", "-1", "65536", "1e3", "", "x"] {
            assert!(port(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ranges() {
        for ok in ["1e-300", "0.5", "1", "1e9"] {
            assert!(timeout(ok).is_ok(), "{ok}");
        }
        for bad in [
            "0",
            "-0",
            "-1",
            "1e9.1",
            "1.000001e9",
            "1e30",
            "1e308",
            "NaN",
            "inf",
            "-inf",
            "",
            "x",
        ] {
            assert!(timeout(bad).is_err(), "{bad}");
        }
        assert!(serve_timeout("86400").is_ok() && serve_timeout("86400.5").is_err());
        for ok in ["1", "1.5", "100"] {
            assert!(weight(ok).is_ok(), "{ok}");
        }
        for bad in ["0.99", "100.01", "1e30", "NaN", "inf", "-1", "x"] {
            assert!(weight(bad).is_err(), "{bad}");
        }
        assert_eq!(threads("0"), Ok(0));
        assert_eq!(threads("256"), Ok(256));
        for bad in [
            "257",
            "-1",
            "18446744073709551615",
            "18446744073709551616",
            "1.5",
        ] {
            assert!(threads(bad).is_err(), "{bad}");
        }
        assert!(serve_threads("0").is_err() && serve_threads("1") == Ok(1));
    }
}
