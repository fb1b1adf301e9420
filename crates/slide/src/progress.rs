//! How long work reports itself without the library printing anything: a callback trait the front ends implement.

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
