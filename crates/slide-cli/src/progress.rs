//! A terminal progress bar (indicatif) for the library's long work; hidden when standard error is not a terminal.

use std::io::IsTerminal;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

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
                "{msg:>12} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} ({eta})",
            )
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
