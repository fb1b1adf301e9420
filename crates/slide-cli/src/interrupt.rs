//! Ctrl-C for every command: the first one stops the searches that listen for it (they answer with what they
//! have), or ends the process at once when none does or a table is being built; a second one always ends it. An
//! interrupted command exits with status 130 (128 + SIGINT), as shells report a process killed by Ctrl-C.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};

/// Exit status of a command stopped by Ctrl-C.
pub const EXIT_INTERRUPTED: u8 = 130;

/// Set by the first Ctrl-C; the cancel flag of every search that listens.
static FLAG: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// How many [`Listening`] guards are alive: work that stops by itself when [`flag`] is set.
static LISTENING: AtomicUsize = AtomicUsize::new(0);

/// Whether a table or database build is running (set by the progress reporter): not every build stops on the
/// cancel flag (a solve's do), so Ctrl-C ends the process at once then.
pub static BUILDING: AtomicBool = AtomicBool::new(false);

/// Installs the Ctrl-C handler (once, at start).
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        let again = FLAG.swap(true, Ordering::SeqCst);
        if again || LISTENING.load(Ordering::SeqCst) == 0 || BUILDING.load(Ordering::SeqCst) {
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
    });
}

/// The cancel flag Ctrl-C sets: give it to searches (`SolveOptions::cancel`).
pub fn flag() -> Arc<AtomicBool> {
    FLAG.clone()
}

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    FLAG.load(Ordering::SeqCst)
}

/// While alive, the first Ctrl-C only sets [`flag`] (the work holding it stops by itself) instead of ending the
/// process.
pub struct Listening(());

impl Listening {
    /// Starts listening.
    pub fn new() -> Listening {
        LISTENING.fetch_add(1, Ordering::SeqCst);
        Listening(())
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        LISTENING.fetch_sub(1, Ordering::SeqCst);
    }
}
