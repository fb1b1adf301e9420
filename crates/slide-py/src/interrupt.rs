//! Long work on a thread of its own with the GIL released, stopped by Ctrl-C or by slide.ray's stop callable; and
//! the package solver's builds and searches reported to a `progress=` callable.

use super::*;
use std::sync::atomic::AtomicU64;
use std::sync::Mutex;

/// The build the package's solver is running, if any: its label, its total and whether it finished.
static PHASE: Mutex<Option<(String, u64, bool)>> = Mutex::new(None);
/// Units of the current build done.
static DONE: AtomicU64 = AtomicU64::new(0);
/// Bumped when a build starts or finishes, so that a watcher tells one build from the next.
static EPOCH: AtomicU64 = AtomicU64::new(0);
/// The search the package's solver last reported ([`slide::Progress::search`]): its report's number (one more for
/// each), its current threshold and its nodes so far.
static SEARCH: Mutex<(u64, u32, u64)> = Mutex::new((0, 0, 0));

/// The package solver's [`slide::Progress`]: keeps the current build and search where the watching threads read
/// them (no GIL, no Python call from the building or searching thread).
pub(crate) struct BuildProgress;

impl slide::Progress for BuildProgress {
    fn start(&self, label: &str, total: u64) {
        if let Ok(mut p) = PHASE.lock() {
            *p = Some((label.to_string(), total, false));
        }
        DONE.store(0, Ordering::Relaxed);
        EPOCH.fetch_add(1, Ordering::Relaxed);
    }

    fn advance(&self, delta: u64) {
        DONE.fetch_add(delta, Ordering::Relaxed);
    }

    fn finish(&self) {
        if let Ok(mut p) = PHASE.lock() {
            if let Some((_, total, done)) = p.as_mut() {
                *done = true;
                DONE.store(*total, Ordering::Relaxed);
            }
        }
        EPOCH.fetch_add(1, Ordering::Relaxed);
    }

    fn search(&self, threshold: u32, nodes: u64) {
        if let Ok(mut s) = SEARCH.lock() {
            *s = (s.0 + 1, threshold, nodes);
        }
    }
}

/// What a watcher last told its `progress` callable: the build's (epoch, done) and the search's report number.
type Told = Option<((u64, u64), u64)>;

/// Calls `progress(phase, done, total)` when the build under way (or just finished) moved since `told`, and
/// `progress("search", nodes, threshold)` when a search reported since; the first call only notes where things
/// stand, unless a build is under way.
fn report(progress: &Bound<'_, PyAny>, told: &mut Told) -> PyResult<()> {
    let now = (EPOCH.load(Ordering::Relaxed), DONE.load(Ordering::Relaxed));
    let search = SEARCH.lock().map(|s| *s).unwrap_or_default();
    let before = *told;
    *told = Some((now, search.0));
    let first = before.is_none();
    if before.map(|b| b.0) != Some(now) {
        if let Some((label, total, finished)) = PHASE.lock().ok().and_then(|p| p.clone()) {
            // A build that ended before this call began is not reported.
            if !(first && finished) {
                progress.call1((label, now.1.min(total), total))?;
            }
        }
    }
    if !first && before.map(|b| b.1) != Some(search.0) {
        progress.call1(("search", search.2, u64::from(search.1)))?;
    }
    Ok(())
}

/// Runs `work` on a thread of its own with the GIL released; the calling thread checks for Ctrl-C every 50 ms and,
/// on one, sets `cancel`, waits for the work to stop and raises `KeyboardInterrupt`.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    cancel: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    interruptible_until(py, cancel, None, work)
}

/// [`interruptible`], and also asks `stop` (a Python callable, called with the GIL held) every 100 ms whether to
/// stop: when it answers true or raises, `cancel` is set and the work's own answer (stopped or cancelled) is
/// returned. slide.ray's tasks stop this way when the driver no longer needs them: cooperative, so the driver never
/// has to cancel a Ray task (a `ray.cancel` that races with the task's completion can crash the driver).
pub(crate) fn interruptible_until<T: Send>(
    py: Python<'_>,
    cancel: &AtomicBool,
    stop: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    watched(py, cancel, stop, None, work)
}

/// [`interruptible_until`], and also calls `progress(phase, done, total)` (with the GIL, at most every 100 ms)
/// while the package's solver builds a table or pattern database: once when a build starts, as it advances, and
/// when it ends (`done == total`); and `progress("search", nodes, threshold)` while it searches: as iterations
/// start, about every quarter of a second during a long one, and once at the end (the search's final count). When
/// `progress` raises, the work is cancelled and the exception raised.
pub(crate) fn watched<T: Send>(
    py: Python<'_>,
    cancel: &AtomicBool,
    stop: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let mut ticks = 0u32;
    let mut told: Told = None;
    let mut last = Instant::now();
    if let Some(p) = progress {
        report(p, &mut told)?;
    }
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel();
        s.spawn(move || {
            let _ = tx.send(catch_unwind(AssertUnwindSafe(work)));
        });
        let mut rx = rx;
        loop {
            let (back, got) = py.allow_threads(move || {
                let got = rx.recv_timeout(Duration::from_millis(50));
                (rx, got)
            });
            rx = back;
            let due = matches!(got, Ok(Ok(_))) || last.elapsed() >= Duration::from_millis(100);
            if let (Some(p), true, Ok(Ok(_)) | Err(mpsc::RecvTimeoutError::Timeout)) =
                (progress, due, &got)
            {
                last = Instant::now();
                if let Err(e) = report(p, &mut told) {
                    cancel.store(true, Ordering::Relaxed);
                    if matches!(got, Err(mpsc::RecvTimeoutError::Timeout)) {
                        let _ = py.allow_threads(move || rx.recv().is_ok());
                    }
                    return Err(e);
                }
            }
            match got {
                Ok(Ok(v)) => return Ok(v),
                Ok(Err(_)) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "slide: internal error while solving (please report it)",
                    ))
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        cancel.store(true, Ordering::Relaxed);
                        let _ = py.allow_threads(move || rx.recv().is_ok());
                        return Err(e);
                    }
                    ticks += 1;
                    if let Some(stop) = stop.filter(|_| ticks % 2 == 0) {
                        let asked = stop.call0().and_then(|v| v.is_truthy()).unwrap_or(true);
                        if asked {
                            cancel.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
        }
    })
}
