//! A terminal progress bar (indicatif) for the library's long work; hidden when standard error is not a terminal.

use std::io::IsTerminal;
use std::sync::Mutex;

use std::time::Duration;

use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// Shows table builds as a progress bar on standard error, and prints warnings there.
pub struct Bar {
    bar: Mutex<Option<ProgressBar>>,
    show: bool,
    quiet: bool,
}

impl Bar {
    /// A bar that draws only on a terminal and never with `quiet`.
    pub fn new(quiet: bool) -> Bar {
        Bar {
            bar: Mutex::new(None),
            show: !quiet && std::io::stderr().is_terminal(),
            quiet,
        }
    }
}

impl slide::Progress for Bar {
    fn start(&self, label: &str, total: u64) {
        crate::interrupt::BUILDING.store(true, std::sync::atomic::Ordering::SeqCst);
        if !self.show {
            return;
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{msg:>12} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} ({left})",
            )
            .map(|style| {
                style.with_key(
                    "left",
                    |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let left = estimate(state.elapsed(), state.pos(), state.len().unwrap_or(0));
                        let _ = match left {
                            Some(d) => write!(w, "~{} left", HumanDuration(d)),
                            None => {
                                write!(w, "{}", state.pos() * 100 / state.len().unwrap_or(0).max(1))
                                    .and_then(|()| w.write_str("%"))
                            }
                        };
                    },
                )
            })
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_message(label.to_string());
        *self.bar.lock().unwrap_or_else(|e| e.into_inner()) = Some(bar);
    }

    fn advance(&self, delta: u64) {
        if let Some(b) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            b.inc(delta);
        }
    }

    fn finish(&self) {
        crate::interrupt::BUILDING.store(false, std::sync::atomic::Ordering::SeqCst);
        if let Some(b) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            b.finish_and_clear();
        }
    }

    fn warn(&self, message: &str) {
        if self.quiet {
            return;
        }
        match self.bar.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            Some(b) => b.println(format!("slide: warning: {message}")),
            None => eprintln!("slide: warning: {message}"),
        }
    }
}

/// The time a build has left, from the work done so far at the mean rate since it started (indicatif's own
/// estimate follows the recent rate, which swings by orders of magnitude between a build's phases); `None` until
/// a second has passed and some work is done.
fn estimate(elapsed: Duration, done: u64, total: u64) -> Option<Duration> {
    if elapsed < Duration::from_secs(1) || done == 0 || total == 0 {
        return None;
    }
    let nanos = elapsed.as_nanos() * u128::from(total.saturating_sub(done)) / u128::from(done);
    Some(Duration::from_nanos(
        u64::try_from(nanos).unwrap_or(u64::MAX),
    ))
}

/// A bar for a batch of boards on standard error (a counter when the total is unknown); `None` when quiet or not
/// on a terminal.
pub fn batch_bar(quiet: bool, total: Option<u64>) -> Option<ProgressBar> {
    if quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
    let template = if total.is_some() {
        "solving [{elapsed_precise}] {wide_bar} {pos}/{len} ({per_sec}, last: {msg})"
    } else {
        "solving [{elapsed_precise}] {pos} boards ({per_sec}, last: {msg})"
    };
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Some(bar)
}

#[cfg(test)]
mod tests {
    use super::estimate;
    use std::time::Duration;

    #[test]
    fn the_estimate_follows_the_work_done() {
        let s = Duration::from_secs;
        assert_eq!(estimate(s(0), 0, 100), None);
        assert_eq!(estimate(s(10), 0, 100), None);
        // A quarter done in 21 s: 84 s in all, 63 s left, however fast the last moments went.
        assert_eq!(estimate(s(21), 25, 100), Some(s(63)));
        assert_eq!(estimate(s(63), 100, 100), Some(s(0)));
        assert_eq!(estimate(s(5), 200, 100), Some(s(0)));
    }
}
