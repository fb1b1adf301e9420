//! Optimal search for larger boards: IDA* with admissible heuristics (Manhattan distance, linear conflicts,
//! additive pattern databases over disjoint partitions) and move pruning.

pub(crate) mod choose;
pub mod heuristic;
pub mod ida;
mod limits;
pub mod mtm;
pub mod partial;
pub mod partition;
pub mod pdb;
pub mod pruning;
pub mod push_pruning;

pub use ida::*;
