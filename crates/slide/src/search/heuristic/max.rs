//! [`PdbMax`]: the maximum over several partitions, each with its additive pattern databases.

use super::pdb_eval::PdbEval;
use super::probe::{PdbAhead, PdbProbe, PdbUndo};
use super::{layouts, Eval};
use crate::error::{Error, Result, SolveError};

/// Most partitions [`PdbMax`] maximises over.
pub const MAX_PARTITIONS: usize = 4;

/// Several disjoint partitions, each with its additive pattern databases (and reflection), maximised:
/// `h = max over partitions of PdbEval's h`. Each partition's estimate is admissible, so their maximum is. A child
/// whose estimate already passes the budget under one partition is not looked up in the others.
#[derive(Debug, Clone)]
pub struct PdbMax<const ZERO: bool = true, const LAYOUTS: u8 = { layouts::ANY }> {
    evals: Vec<PdbEval<ZERO, LAYOUTS>>,
    /// Some partition looks ahead ([`Eval::looks_ahead`]), worked out once: the search asks at every node.
    ahead: bool,
}

impl<const ZERO: bool, const LAYOUTS: u8> PdbMax<ZERO, LAYOUTS> {
    /// The maximum of `evals` (between 1 and [`MAX_PARTITIONS`] of them).
    pub fn new(evals: Vec<PdbEval<ZERO, LAYOUTS>>) -> Result<PdbMax<ZERO, LAYOUTS>> {
        if evals.is_empty() || evals.len() > MAX_PARTITIONS {
            return Err(Error::Solve(SolveError::BadPartition {
                reason: format!(
                    "between 1 and {MAX_PARTITIONS} partitions can be maximised, not {}",
                    evals.len()
                ),
            }));
        }
        let ahead = evals.iter().any(|e| e.looks_ahead());
        Ok(PdbMax { evals, ahead })
    }
}

impl<const ZERO: bool, const LAYOUTS: u8> Eval for PdbMax<ZERO, LAYOUTS> {
    type Undo = [PdbUndo; MAX_PARTITIONS];
    type Probe = [PdbProbe; MAX_PARTITIONS];
    type Ahead = [PdbAhead; MAX_PARTITIONS];
    const INCONSISTENT: bool = true;

    fn reset(&mut self, pos: &[u8]) {
        for e in &mut self.evals {
            e.reset(pos);
        }
    }

    #[inline(always)]
    fn h(&self) -> u32 {
        self.evals.iter().map(|e| e.h()).max().unwrap_or(0)
    }

    #[inline(always)]
    fn push(&mut self, t: u8, from: u8, to: u8, budget: u32) -> Self::Undo {
        let mut undo = [PdbUndo::default(); MAX_PARTITIONS];
        for (u, e) in undo.iter_mut().zip(&mut self.evals) {
            *u = e.push(t, from, to, budget);
        }
        undo
    }

    /// One child through every partition in turn, stopping at the first that puts it over `budget`; the search
    /// probes a node's children one after the other (faster than probing all children through one partition
    /// before the next, for the same nodes).
    #[inline(always)]
    fn probe(&mut self, t: u8, from: u8, to: u8, budget: u32) -> (u32, Self::Probe) {
        let mut probes = [PdbProbe::default(); MAX_PARTITIONS];
        let mut h = 0;
        for (p, e) in probes.iter_mut().zip(&mut self.evals) {
            let (he, pe) = e.probe(t, from, to, budget);
            *p = pe;
            h = h.max(he);
            if h > budget {
                break;
            }
        }
        (h, probes)
    }

    #[inline(always)]
    fn looks_ahead(&self) -> bool {
        self.ahead
    }

    #[inline(always)]
    fn ahead(&self, t: u8, from: u8, to: u8) -> Self::Ahead {
        let mut ahead = [PdbAhead::default(); MAX_PARTITIONS];
        for (a, e) in ahead.iter_mut().zip(&self.evals) {
            *a = e.ahead(t, from, to);
        }
        ahead
    }

    /// As [`PdbMax::probe`](Eval::probe), each partition with its indices.
    #[inline(always)]
    fn probe_ahead(
        &mut self,
        t: u8,
        from: u8,
        to: u8,
        budget: u32,
        ahead: Self::Ahead,
    ) -> (u32, Self::Probe) {
        let mut probes = [PdbProbe::default(); MAX_PARTITIONS];
        let mut h = 0;
        for ((p, e), a) in probes.iter_mut().zip(&mut self.evals).zip(ahead) {
            let (he, pe) = e.probe_ahead(t, from, to, budget, a);
            *p = pe;
            h = h.max(he);
            if h > budget {
                break;
            }
        }
        (h, probes)
    }

    /// The first partition's ([`PdbEval::tie_break`]: the Manhattan distance is every partition's).
    #[inline(always)]
    fn tie_break(probe: &Self::Probe) -> u8 {
        PdbEval::<ZERO, LAYOUTS>::tie_break(&probe[0])
    }

    #[inline(always)]
    fn push_probed(&mut self, t: u8, from: u8, to: u8, probe: Self::Probe) -> Self::Undo {
        let mut undo = [PdbUndo::default(); MAX_PARTITIONS];
        for ((u, e), p) in undo.iter_mut().zip(&mut self.evals).zip(probe) {
            *u = e.push_probed(t, from, to, p);
        }
        undo
    }

    #[inline(always)]
    fn pop(&mut self, t: u8, from: u8, to: u8, undo: Self::Undo) {
        for (e, u) in self.evals.iter_mut().zip(undo) {
            e.pop(t, from, to, u);
        }
    }
}
