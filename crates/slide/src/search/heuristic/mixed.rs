//! The mixed sums: sums of extras over sets of disjoint patterns drawn from the direct and the reflected lookups at
//! once, kept in byte lanes.

use super::view::View;

/// Most sums [`Mixed`] keeps (one byte lane each of [`Lanes`]).
pub(super) const MIXED_SUMS: usize = 16;

/// Most patterns per view for which [`Mixed`] looks for mixed sums (`2^(2 * 8)` sets are tried).
const MIXED_PATTERNS: usize = 8;

/// Sixteen bytes added and maximised lane by lane: one SSE2 register on x86-64 (written with the intrinsics: the
/// compiler did not turn the byte loops into vector operations), plain bytes elsewhere.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct Lanes(std::arch::x86_64::__m128i);

#[cfg(target_arch = "x86_64")]
impl Lanes {
    pub(super) fn from_bytes(b: [u8; MIXED_SUMS]) -> Lanes {
        use std::arch::x86_64::_mm_set_epi8;
        let b = b.map(|x| x as i8);
        // SAFETY (this and every intrinsic below): SSE2 is part of every x86-64 processor.
        Lanes(unsafe {
            _mm_set_epi8(
                b[15], b[14], b[13], b[12], b[11], b[10], b[9], b[8], b[7], b[6], b[5], b[4], b[3],
                b[2], b[1], b[0],
            )
        })
    }

    pub(super) fn to_bytes(self) -> [u8; MIXED_SUMS] {
        use std::arch::x86_64::{_mm_cvtsi128_si32, _mm_srli_si128};
        let mut out = [0u8; MIXED_SUMS];
        let mut v = self.0;
        for o in &mut out {
            // SAFETY: SSE2 (above).
            unsafe {
                *o = _mm_cvtsi128_si32(v) as u8;
                v = _mm_srli_si128::<1>(v);
            }
        }
        out
    }

    /// `by` (wrapping) added to the lanes where `mask` is `0xff`.
    #[inline(always)]
    pub(super) fn add_masked(self, mask: Lanes, by: u8) -> Lanes {
        use std::arch::x86_64::{_mm_add_epi8, _mm_and_si128, _mm_set1_epi8};
        // SAFETY: SSE2 (above).
        Lanes(unsafe { _mm_add_epi8(self.0, _mm_and_si128(mask.0, _mm_set1_epi8(by as i8))) })
    }

    /// The largest lane, as an unsigned byte.
    #[inline(always)]
    pub(super) fn max(self) -> u8 {
        use std::arch::x86_64::{_mm_cvtsi128_si32, _mm_max_epu8, _mm_srli_si128};
        // SAFETY: SSE2 (above).
        unsafe {
            let v = _mm_max_epu8(self.0, _mm_srli_si128::<8>(self.0));
            let v = _mm_max_epu8(v, _mm_srli_si128::<4>(v));
            let v = _mm_max_epu8(v, _mm_srli_si128::<2>(v));
            let v = _mm_max_epu8(v, _mm_srli_si128::<1>(v));
            _mm_cvtsi128_si32(v) as u8
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[derive(Clone, Copy)]
pub(super) struct Lanes([u8; MIXED_SUMS]);

#[cfg(not(target_arch = "x86_64"))]
impl Lanes {
    pub(super) fn from_bytes(b: [u8; MIXED_SUMS]) -> Lanes {
        Lanes(b)
    }

    pub(super) fn to_bytes(self) -> [u8; MIXED_SUMS] {
        self.0
    }

    /// `by` (wrapping) added to the lanes where `mask` is `0xff`.
    #[inline(always)]
    pub(super) fn add_masked(self, mask: Lanes, by: u8) -> Lanes {
        Lanes(std::array::from_fn(|j| {
            self.0[j].wrapping_add(mask.0[j] & by)
        }))
    }

    /// The largest lane.
    #[inline(always)]
    pub(super) fn max(self) -> u8 {
        self.0.iter().copied().fold(0, u8::max)
    }
}

impl std::fmt::Debug for Lanes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.to_bytes().fmt(f)
    }
}

/// Sums of extras over sets of patterns taken from both views at once: the mixed sums.
///
/// A reflected pattern is the pattern of the tiles whose goal cells are the reflections of a pattern's cells, and
/// its extra (read from the same table on the reflected board) is an admissible count of those tiles' own moves
/// beyond their Manhattan distance. Any set of pairwise disjoint patterns of the two views is therefore additive:
/// besides the two whole partitions (direct and reflected), the 24-puzzle's default partition and its reflection
/// give eight disjoint sets of three patterns that mix the views, such as the two upper blocks and the mirror image
/// of the upper-right one (which lies along the bottom). The evaluator keeps the sum of every maximal such set, a byte each, and the estimate is
/// `md + 2 * max` over them: at least `max(Σ extra, Σ reflected extra)`, for a few vector operations per child and
/// no further lookups.
#[derive(Debug, Clone)]
pub(super) struct Mixed {
    /// How many maximal disjoint sets mix the views (at most [`MIXED_SUMS`]).
    pub(super) sets: usize,
    /// The evaluator keeps the sums (asked for, and there is a set).
    pub(super) on: bool,
    /// Per direct (`direct`) or reflected (`reflected`) pattern, `0xff` in the lane of each sum that takes it;
    /// row [`MIXED_PATTERNS`] is all zeros (a tile of no pattern).
    pub(super) direct: [Lanes; MIXED_PATTERNS + 1],
    pub(super) reflected: [Lanes; MIXED_PATTERNS + 1],
    /// The sums at the current node (unused lanes 0; a sum of at most 15 extras of at most 16 each, so no lane
    /// wraps).
    pub(super) sums: Lanes,
}

impl Mixed {
    /// No mixed sums.
    pub(super) fn off() -> Mixed {
        let zero = Lanes::from_bytes([0; MIXED_SUMS]);
        Mixed {
            sets: 0,
            on: false,
            direct: [zero; MIXED_PATTERNS + 1],
            reflected: [zero; MIXED_PATTERNS + 1],
            sums: zero,
        }
    }

    /// The maximal disjoint sets of the direct patterns' cells `direct` and the reflected ones' `reflected` (a
    /// bit per goal cell each) but the two whole partitions (whose sums the views keep); off until asked for.
    pub(super) fn of(direct: &[u64], reflected: &[u64]) -> Mixed {
        let mut m = Mixed::off();
        let nd = direct.len();
        if nd == 0 || nd > MIXED_PATTERNS || reflected.len() != nd {
            return m;
        }
        let mut sets = maximal_disjoint(&[direct, reflected].concat(), nd);
        // A byte holds the sum of at most 15 extras of at most 16 each (possible only from 8 patterns a view).
        sets.retain(|set| set.count_ones() <= 15);
        if sets.is_empty() {
            return m;
        }
        let rows = |base: usize| -> Vec<Lanes> {
            (0..=MIXED_PATTERNS)
                .map(|p| {
                    Lanes::from_bytes(std::array::from_fn(|lane| {
                        let hit = p < nd
                            && sets
                                .get(lane)
                                .is_some_and(|&set| set >> (base + p) & 1 == 1);
                        if hit {
                            0xff
                        } else {
                            0
                        }
                    }))
                })
                .collect()
        };
        m.direct.copy_from_slice(&rows(0));
        m.reflected.copy_from_slice(&rows(nd));
        m.sets = sets.len();
        m
    }

    /// Recomputes the sums from the views' extras.
    pub(super) fn reset(&mut self, direct: &View, reflected: &View) {
        let mut sums = Lanes::from_bytes([0; MIXED_SUMS]);
        for p in 0..direct.pats.len().min(MIXED_PATTERNS) {
            sums = sums.add_masked(self.direct[p], direct.extra[p]);
        }
        for p in 0..reflected.pats.len().min(MIXED_PATTERNS) {
            sums = sums.add_masked(self.reflected[p], reflected.extra[p]);
        }
        self.sums = sums;
    }

    /// The sums after the direct pattern `p` changed by `dp` and the reflected pattern `r` by `dr` (wrapping; a
    /// pattern index past the patterns, as `u8::MAX` for a tile of none, changes nothing).
    #[inline(always)]
    pub(super) fn moved(&self, p: usize, dp: u8, r: usize, dr: u8) -> Lanes {
        self.sums
            .add_masked(self.direct[p.min(MIXED_PATTERNS)], dp)
            .add_masked(self.reflected[r.min(MIXED_PATTERNS)], dr)
    }
}

/// The maximal sets of pairwise disjoint patterns among `cells` (a bit per cell each; the first `whole` make up
/// one partition, the rest another), as bit sets over `cells`, but the two partitions; at most [`MIXED_SUMS`]
/// of them.
pub(super) fn maximal_disjoint(cells: &[u64], whole: usize) -> Vec<u32> {
    let disjoint = |set: u32| {
        let mut seen = 0u64;
        (0..cells.len()).all(|i| {
            if set >> i & 1 == 0 {
                return true;
            }
            let ok = seen & cells[i] == 0;
            seen |= cells[i];
            ok
        })
    };
    let first = (1u32 << whole) - 1;
    let second = ((1u32 << cells.len()) - 1) & !first;
    let mut sets = Vec::new();
    // A set is maximal when every pattern outside it meets one of its patterns.
    for set in 1u32..(1 << cells.len()) {
        if set == first || set == second || !disjoint(set) {
            continue;
        }
        if (0..cells.len()).all(|i| set >> i & 1 == 1 || !disjoint(set | 1 << i)) {
            sets.push(set);
        }
    }
    sets.truncate(MIXED_SUMS);
    sets
}
