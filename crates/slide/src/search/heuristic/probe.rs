//! How [`PdbEval`] estimates a child: the probe (its estimate without moving into it), the look-ahead (every child's
//! indices worked out and their loads started before the first probe), and moving in and back.

use super::mixed::{Lanes, MIXED_SUMS};
use super::pdb_eval::PdbEval;
use super::{Eval, MAX_SEARCH_CELLS};

impl<const ZERO: bool, const LAYOUTS: u8> PdbEval<ZERO, LAYOUTS> {
    /// [`Eval::probe`], with the indices [`Eval::ahead`] worked out for the move when given.
    #[inline(always)]
    fn probe_from(
        &mut self,
        t: u8,
        from: u8,
        to: u8,
        budget: u32,
        ahead: Option<PdbAhead>,
    ) -> (u32, PdbProbe) {
        let i = t as usize & 63;
        let md = self.md.probe(t, from, to, budget).0;
        let away = u8::from(md > self.md.h());
        let mut at = ahead.unwrap_or_default();
        let p = self.direct.owner[i] as usize;
        let mut e = u8::MAX;
        let mut sum = self.direct.sum;
        if p < self.direct.pats.len() {
            if ahead.is_none() {
                at.s = self.direct.index_after::<ZERO, LAYOUTS>(p, i, from, to);
            }
            e = self.direct.child::<ZERO, LAYOUTS>(p, i, from, to, at.s);
            sum = sum + e as u32 - self.direct.extra[p & 63] as u32;
        }
        let mut re = u8::MAX;
        let mut rsum = self.reflected.sum;
        if md + 2 * sum <= budget {
            let rp = self.reflected.owner[i] as usize;
            if rp < self.reflected.pats.len() {
                let (tf, tt) = (
                    self.transpose[from as usize & 63],
                    self.transpose[to as usize & 63],
                );
                if ahead.is_none() {
                    at.rs = self.reflected.index_after::<ZERO, LAYOUTS>(rp, i, tf, tt);
                }
                re = self.reflected.child::<ZERO, LAYOUTS>(rp, i, tf, tt, at.rs);
                rsum = rsum + re as u32 - self.reflected.extra[rp & 63] as u32;
            }
            // The mixed sums only raise the estimate: a child the two whole sums put over the budget needs none.
            // For the others they are worked out every time: skipping them when they cannot pass the whole sums
            // or the budget (a test on the most a sum can rise) took more time than it saved (24-puzzle, 1.06 and
            // 1.02 times on 40, 38, 25 and 44), the branch being hard to predict.
            let whole = sum.max(rsum);
            if self.mixed.on && md + 2 * whole <= budget {
                let sums = self.mixed.moved(
                    p,
                    self.direct.change(p, e),
                    rp,
                    self.reflected.change(rp, re),
                );
                return (
                    md + 2 * whole.max(sums.max() as u32),
                    PdbProbe { e, re, away, at },
                );
            }
        }
        (md + 2 * sum.max(rsum), PdbProbe { e, re, away, at })
    }
}

/// What [`PdbEval`] works out for a child before moving into it ([`Eval::Probe`]).
#[derive(Debug, Clone, Copy)]
pub struct PdbProbe {
    /// The moved tile's pattern's extras after the move, directly and reflected (`u8::MAX`: no pattern, or the
    /// lookup was skipped).
    e: u8,
    re: u8,
    /// 1 when the move takes its tile away from its goal cell (the Manhattan distance grows), else 0: the
    /// tie-break ([`Eval::tie_break`]).
    away: u8,
    /// The moved tile's pattern's indices after the move, directly and reflected, as [`PdbAhead`]: moving into
    /// the child keeps them rather than work them out again.
    at: PdbAhead,
}

impl Default for PdbProbe {
    fn default() -> PdbProbe {
        PdbProbe {
            e: u8::MAX,
            re: u8::MAX,
            away: 0,
            at: PdbAhead::default(),
        }
    }
}

/// What [`PdbEval`] works out for a move before its node's children are probed ([`Eval::Ahead`]): the moved tile's
/// pattern's index after the move, directly and reflected (0 where the tile has no pattern or a zero-aware one).
#[derive(Debug, Clone, Copy, Default)]
pub struct PdbAhead {
    s: u64,
    rs: u64,
}

/// What [`PdbEval`] restores when it takes a move back ([`Eval::Undo`]).
#[derive(Debug, Clone, Copy)]
pub struct PdbUndo {
    /// The moved tile's pattern's extras before the move, directly and reflected (`u8::MAX`: no pattern).
    a: u8,
    b: u8,
    /// The mixed sums before the move (restored as they were: no second update on the way back).
    sums: Lanes,
    /// The moved tile's pattern's indices before the move, directly and reflected.
    before: PdbAhead,
}

impl Default for PdbUndo {
    fn default() -> PdbUndo {
        PdbUndo {
            a: u8::MAX,
            b: u8::MAX,
            sums: Lanes::from_bytes([0; MIXED_SUMS]),
            before: PdbAhead::default(),
        }
    }
}

impl<const ZERO: bool, const LAYOUTS: u8> Eval for PdbEval<ZERO, LAYOUTS> {
    type Undo = PdbUndo;
    type Probe = PdbProbe;
    type Ahead = PdbAhead;
    const INCONSISTENT: bool = true;

    fn reset(&mut self, pos: &[u8]) {
        let pos = &pos[..self.n];
        self.md.reset(pos);
        self.direct.reset(pos);
        let mut tpos = [0u8; MAX_SEARCH_CELLS];
        for (tp, &c) in tpos.iter_mut().zip(pos) {
            *tp = self.transpose[c as usize & 63];
        }
        self.reflected.reset(&tpos[..self.n]);
        self.mixed.reset(&self.direct, &self.reflected);
    }

    #[inline(always)]
    fn h(&self) -> u32 {
        let whole = self.direct.sum.max(self.reflected.sum);
        if self.mixed.on {
            return self.md.h() + 2 * whole.max(self.mixed.sums.max() as u32);
        }
        self.md.h() + 2 * whole
    }

    /// [`Eval::probe`] without a budget, then [`Eval::push_probed`].
    #[inline(always)]
    fn push(&mut self, t: u8, from: u8, to: u8, _budget: u32) -> PdbUndo {
        let (_, probe) = self.probe(t, from, to, u32::MAX);
        self.push_probed(t, from, to, probe)
    }

    /// The reflected lookup is skipped when the direct one already puts the child over `budget`: such a child is
    /// never entered, so its probe is never pushed. The look-ahead ([`Eval::ahead`]) hands its indices to the
    /// probe and on into the child, so that no index is worked out twice; it gains where the tables are large and
    /// dense (see the `ahead` field).
    #[inline(always)]
    fn probe(&mut self, t: u8, from: u8, to: u8, budget: u32) -> (u32, PdbProbe) {
        self.probe_from(t, from, to, budget, None)
    }

    #[inline(always)]
    fn looks_ahead(&self) -> bool {
        self.ahead
    }

    /// The moved tile's pattern's indices after the move, directly and reflected, each entry's load started.
    #[inline(always)]
    fn ahead(&self, t: u8, from: u8, to: u8) -> PdbAhead {
        let i = t as usize & 63;
        let mut at = PdbAhead::default();
        let p = self.direct.owner[i] as usize;
        if p < self.direct.pats.len() {
            at.s = self.direct.index_after::<ZERO, LAYOUTS>(p, i, from, to);
            self.direct.prefetch_entry::<ZERO, LAYOUTS>(p, at.s);
        }
        let rp = self.reflected.owner[i] as usize;
        if rp < self.reflected.pats.len() {
            let (tf, tt) = (
                self.transpose[from as usize & 63],
                self.transpose[to as usize & 63],
            );
            at.rs = self.reflected.index_after::<ZERO, LAYOUTS>(rp, i, tf, tt);
            self.reflected.prefetch_entry::<ZERO, LAYOUTS>(rp, at.rs);
        }
        at
    }

    #[inline(always)]
    fn probe_ahead(
        &mut self,
        t: u8,
        from: u8,
        to: u8,
        budget: u32,
        ahead: PdbAhead,
    ) -> (u32, PdbProbe) {
        self.probe_from(t, from, to, budget, Some(ahead))
    }

    /// Of two children with the same estimate, the one whose tile moves toward its goal cell first: its Manhattan
    /// distance fell by one where the other's rose, so the databases' extras make up more of its estimate (fewer
    /// nodes on the 15- and the 24-puzzle; the reverse order takes more).
    #[inline(always)]
    fn tie_break(probe: &PdbProbe) -> u8 {
        probe.away
    }

    #[inline(always)]
    fn push_probed(&mut self, t: u8, from: u8, to: u8, probe: PdbProbe) -> PdbUndo {
        self.md.push(t, from, to, u32::MAX);
        let i = t as usize & 63;
        let (tf, tt) = (
            self.transpose[from as usize & 63],
            self.transpose[to as usize & 63],
        );
        let sums = self.mixed.sums;
        if self.mixed.on {
            self.mixed.sums = self.mixed.moved(
                self.direct.owner[i] as usize,
                self.direct.change(self.direct.owner[i] as usize, probe.e),
                self.reflected.owner[i] as usize,
                self.reflected
                    .change(self.reflected.owner[i] as usize, probe.re),
            );
        }
        let (a, s) = self
            .direct
            .moved::<ZERO, LAYOUTS>(i, from, to, probe.e, probe.at.s);
        let (b, rs) = self
            .reflected
            .moved::<ZERO, LAYOUTS>(i, tf, tt, probe.re, probe.at.rs);
        PdbUndo {
            a,
            b,
            sums,
            before: PdbAhead { s, rs },
        }
    }

    #[inline(always)]
    fn pop(&mut self, t: u8, from: u8, to: u8, undo: PdbUndo) {
        self.md.pop(t, from, to, ());
        let i = t as usize & 63;
        let (tf, tt) = (
            self.transpose[from as usize & 63],
            self.transpose[to as usize & 63],
        );
        self.mixed.sums = undo.sums;
        self.direct
            .moved_back::<ZERO, LAYOUTS>(i, from, to, (undo.a, undo.before.s));
        self.reflected
            .moved_back::<ZERO, LAYOUTS>(i, tf, tt, (undo.b, undo.before.rs));
    }
}
