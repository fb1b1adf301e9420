//! How long work reports itself without the library printing anything: a callback trait the front ends implement;
//! and when a build is abandoned ([`stop`]).

/// Receives progress of long work (table and pattern-database builds, IDA* searches) and warnings (a damaged cache
/// file).
///
/// The library never prints; the CLI implements this with a progress bar on a terminal, and stays quiet otherwise.
/// All methods have empty defaults.
pub trait Progress: Sync {
    /// A new phase begins: `label` names it, `total` is the number of units it will advance by.
    fn start(&self, label: &str, total: u64) {
        let _ = (label, total);
    }
    /// `delta` more units are done.
    fn advance(&self, delta: u64) {
        let _ = delta;
    }
    /// The current phase ended.
    fn finish(&self) {}
    /// An IDA* search is under way: the threshold of its current iteration (the bound on the moves searched) and
    /// the nodes it has generated so far. Called as each iteration starts, about every quarter of a second during
    /// a long one, and once when the search ends, with its final count (the answer's `nodes`). Called from the
    /// searching threads: keep it short (store the numbers; draw elsewhere).
    fn search(&self, threshold: u32, nodes: u64) {
        let _ = (threshold, nodes);
    }
    /// Something went wrong but the work goes on (for example: a cache file was damaged and is rebuilt).
    fn warn(&self, message: &str) {
        let _ = message;
    }
}

/// A [`Progress`] that ignores everything.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoProgress;

impl Progress for NoProgress {}

pub(crate) mod stop {
    //! When a table or pattern-database build is abandoned: the deadline and cancel flag of the solve that waits
    //! for it.
    //!
    //! A solve with a time limit or a cancel flag ([`crate::SolveOptions::timeout`], [`crate::SolveOptions::cancel`])
    //! may need a build of minutes first (the 5 × 5 pattern databases). Its limits then cover the build too: the solve
    //! runs under a [`BuildStop`] made of them ([`with`]), and every step of a build that takes long asks it: the wait
    //! for another process's build of the same file (the store's lock), the wait for another thread's build in this
    //! process, and each level and chunk of the breadth-first searches ([`crate::exact::bfs`]). A build that is
    //! stopped ends with [`Error::Cancelled`] and leaves nothing behind (nothing is written until a build is whole),
    //! and the solve answers as for a search its limits stopped.
    //!
    //! The stop is kept per thread, so that builds need no parameter for it: [`with`] sets it for a piece of work, a
    //! build moved to a thread of its own takes it along, and a search fans the stop out to its workers by value.

    use std::cell::RefCell;
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
    use std::sync::Arc;
    use std::time::Instant;

    use crate::error::{Error, Result};

    /// The limits a build stops at: a deadline, a cancel flag, or both.
    #[derive(Debug)]
    pub(crate) struct BuildStop {
        deadline: Option<Instant>,
        cancel: Option<Arc<AtomicBool>>,
        /// Set once a limit was seen reached (a build that skipped work then never passes for whole).
        hit: AtomicBool,
    }

    impl BuildStop {
        /// The stop of these limits; `None` when there are none.
        pub(crate) fn new(
            deadline: Option<Instant>,
            cancel: Option<Arc<AtomicBool>>,
        ) -> Option<Arc<BuildStop>> {
            (deadline.is_some() || cancel.is_some()).then(|| {
                Arc::new(BuildStop {
                    deadline,
                    cancel,
                    hit: AtomicBool::new(false),
                })
            })
        }

        /// True when a limit is reached (the deadline passed, the flag set); it stays true from then on.
        pub(crate) fn reached(&self) -> bool {
            if self.hit.load(Relaxed) {
                return true;
            }
            let now = self.cancel.as_deref().is_some_and(|c| c.load(Relaxed))
                || self.deadline.is_some_and(|d| Instant::now() >= d);
            if now {
                self.hit.store(true, Relaxed);
            }
            now
        }

        /// True when [`BuildStop::reached`] has answered true.
        pub(crate) fn was_reached(&self) -> bool {
            self.hit.load(Relaxed)
        }
    }

    thread_local! {
        static CURRENT: RefCell<Option<Arc<BuildStop>>> = const { RefCell::new(None) };
    }

    /// The stop of the work running on this thread, if it has one.
    pub(crate) fn current() -> Option<Arc<BuildStop>> {
        CURRENT.with(|c| c.borrow().clone())
    }

    /// Runs `work` with `stop` as this thread's stop (none: builds run to their end), then puts back the one before.
    pub(crate) fn with<R>(stop: Option<Arc<BuildStop>>, work: impl FnOnce() -> R) -> R {
        struct Restore(Option<Arc<BuildStop>>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let before = self.0.take();
                CURRENT.with(|c| *c.borrow_mut() = before);
            }
        }
        let _restore = Restore(CURRENT.with(|c| c.replace(stop)));
        work()
    }

    /// True when `stop` is given and reached.
    #[inline]
    pub(crate) fn reached(stop: &Option<Arc<BuildStop>>) -> bool {
        stop.as_deref().is_some_and(BuildStop::reached)
    }

    /// `Err(Cancelled)` when this thread's stop is reached.
    pub(crate) fn check() -> Result<()> {
        if reached(&current()) {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    }

    /// True when `e` is the end of work stopped by `stop` (and not some other cancellation).
    pub(crate) fn stopped_by(e: &Error, stop: &Option<Arc<BuildStop>>) -> bool {
        matches!(e, Error::Cancelled) && stop.as_deref().is_some_and(BuildStop::was_reached)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn a_stop_is_per_thread_and_restored() {
            assert!(current().is_none());
            let flag = Arc::new(AtomicBool::new(false));
            let stop = BuildStop::new(None, Some(flag.clone()));
            with(stop.clone(), || {
                assert!(current().is_some() && check().is_ok());
                std::thread::spawn(|| assert!(current().is_none()))
                    .join()
                    .unwrap();
                with(None, || assert!(current().is_none()));
                flag.store(true, Relaxed);
                assert!(matches!(check(), Err(Error::Cancelled)));
                // Once reached, it stays so.
                flag.store(false, Relaxed);
                assert!(check().is_err() && stopped_by(&Error::Cancelled, &stop));
            });
            assert!(current().is_none());
            let past = BuildStop::new(Some(Instant::now()), None).unwrap();
            assert!(past.reached());
            assert!(BuildStop::new(None, None).is_none());
        }
    }
}
