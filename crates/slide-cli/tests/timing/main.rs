//! The command line's tests that measure time, in a test binary of their own (`cargo test -p slidetile-cli --test
//! timing`): `limits` holds `--timeout` and `--max-nodes` to 10 % of wall-clock time, and `extremes` bounds every
//! run it makes (many at once) by a time limit. In the shared binary they would run beside other heavy tests; here
//! they run one at a time ([`serial`]), each alone in this process, as cargo runs test binaries one after another.

mod extremes;
mod limits;

use std::sync::{Mutex, MutexGuard};

/// Held for the whole of each test here, so that no two of them run at once.
pub fn serial() -> MutexGuard<'static, ()> {
    static ONE: Mutex<()> = Mutex::new(());
    ONE.lock().unwrap_or_else(|e| e.into_inner())
}
