//! The choice of a heuristic's evaluator for the pattern databases a search has: the one place that reads the
//! databases' layouts and entry widths to pick the specialised [`PdbEval`] that runs fastest on them.

use crate::error::Result;
use crate::search::heuristic::{Eval, Geometry, PdbEval, PdbMax, PdbSet};
use crate::search::pdb::PdbLayout;

/// Work done with the heuristic a search uses, whatever its type: the caller hands the work over, and the
/// heuristic layer runs it with the evaluator it picks ([`with_pdbs`]).
pub(crate) trait EvalJob {
    /// What the work returns.
    type Out;
    /// Runs the work with this heuristic.
    fn run<E: Eval + Clone + Send + Sync>(self, g: &Geometry, eval: E) -> Self::Out;
}

/// Runs `job` with the pattern databases of `sets` (one set per partition; several are maximised, [`PdbMax`]),
/// each looked up on the reflected board too when `reflect`, and with the mixed sums when `mixed_sums`
/// ([`PdbEval::with_mixed_sums`]). The evaluator is the specialised one the databases allow: without any
/// region-layout (zero-aware index) database the one without zero-aware paths, and with one layout only the loop
/// without branches on the layout (for the blank-bit layout, the one that knows the entries' width).
pub(crate) fn with_pdbs<J: EvalJob>(
    geometry: &Geometry,
    sets: &[PdbSet],
    reflect: bool,
    mixed_sums: bool,
    job: J,
) -> Result<J::Out> {
    let zero = sets
        .iter()
        .any(|set| set.pdbs.iter().any(|p| p.zero_index().is_some()));
    if zero {
        let evals = sets.iter().map(|set| PdbEval::new(geometry, set, reflect));
        return run_partitions(geometry, evals.collect::<Result<_>>()?, mixed_sums, job);
    }
    let all = |l: PdbLayout| sets.iter().all(|s| s.pdbs.iter().all(|p| p.layout() == l));
    if all(PdbLayout::Plain) {
        let evals = sets
            .iter()
            .map(|set| PdbEval::plain_layout(geometry, set, reflect));
        run_partitions(geometry, evals.collect::<Result<_>>()?, mixed_sums, job)
    } else if sets.iter().all(|s| s.pdbs.iter().all(|p| p.bit_per_cell())) {
        // The 24-puzzle's sparse blank-bit tables: a bit per cell, no count of free cells.
        let evals = sets
            .iter()
            .map(|set| PdbEval::blank_cell_bits_32(geometry, set, reflect));
        run_partitions(geometry, evals.collect::<Result<_>>()?, mixed_sums, job)
    } else if all(PdbLayout::ZeroBits)
        && sets.iter().all(|s| {
            s.pdbs
                .iter()
                .all(|p| p.packed().bits() == 32 && !p.bit_per_cell())
        })
    {
        // The 24-puzzle's dense blank-bit tables: the loop knows the entries' width.
        let evals = sets
            .iter()
            .map(|set| PdbEval::blank_bits_32(geometry, set, reflect));
        run_partitions(geometry, evals.collect::<Result<_>>()?, mixed_sums, job)
    } else if all(PdbLayout::ZeroBits)
        && sets
            .iter()
            .all(|s| s.pdbs.iter().all(|p| !p.bit_per_cell()))
    {
        let evals = sets
            .iter()
            .map(|set| PdbEval::blank_bits(geometry, set, reflect));
        run_partitions(geometry, evals.collect::<Result<_>>()?, mixed_sums, job)
    } else {
        let evals = sets
            .iter()
            .map(|set| PdbEval::plain(geometry, set, reflect));
        run_partitions(geometry, evals.collect::<Result<_>>()?, mixed_sums, job)
    }
}

/// Runs `job` with one partition's databases, or with several maximised ([`PdbMax`]), each with the mixed sums
/// when `mixed_sums` ([`PdbEval::with_mixed_sums`]).
fn run_partitions<const ZERO: bool, const LAYOUTS: u8, J: EvalJob>(
    geometry: &Geometry,
    evals: Vec<PdbEval<ZERO, LAYOUTS>>,
    mixed_sums: bool,
    job: J,
) -> Result<J::Out> {
    let mut evals: Vec<_> = evals
        .into_iter()
        .map(|e| e.with_mixed_sums(mixed_sums))
        .collect();
    Ok(if evals.len() == 1 {
        job.run(geometry, evals.remove(0))
    } else {
        job.run(geometry, PdbMax::new(evals)?)
    })
}
