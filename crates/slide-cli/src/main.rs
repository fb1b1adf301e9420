//! The `slide` binary: a thin main over the command line of the `slide_cli` library, and the one thing only the
//! binary can do: see whether standard output was closed when the process started (`slide solve … >&-`).
//!
//! Rust's runtime opens /dev/null on a closed descriptor 0, 1 or 2 before `main` runs (so that a file opened later
//! does not become standard output), and a write to /dev/null succeeds: the answers would be lost with exit status
//! 0. A function in `.init_array`, which the C library runs before `main`, looks first.

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether descriptor 1 was closed at start, as seen before the runtime opened /dev/null on it.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Records whether descriptor 1 is closed; run by the C library before `main` (and so before Rust's runtime).
#[cfg(target_os = "linux")]
extern "C" fn look_at_stdout() {
    // SAFETY: F_GETFD only reads the descriptor's flags; it fails with EBADF when the descriptor is not open.
    let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1
        && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF);
    STDOUT_CLOSED.store(closed, Ordering::Relaxed);
}

/// [`look_at_stdout`] in the list of functions the C library calls before `main`.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static LOOK_AT_STDOUT: extern "C" fn() = look_at_stdout;

fn main() -> std::process::ExitCode {
    slide_cli::main(slide_cli::Start {
        stdout_closed: STDOUT_CLOSED.load(Ordering::Relaxed),
    })
}
