//! Long work on a thread of its own with the GIL released, stopped by Ctrl-C or by slide.ray's stop callable.

use super::*;

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
    let mut ticks = 0u32;
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
