//! [`PdbEval`]: additive pattern databases with the reflected lookup, and its constructors, one per layout.

use super::manhattan::Manhattan;
use super::mixed::Mixed;
use super::view::{PdbSet, View};
use super::{layouts, Geometry, MAX_SEARCH_CELLS};
use crate::error::{Error, Result, SolveError};
use crate::search::pdb::{PdbLayout, MAX_PATTERN};

/// Additive pattern databases, maximised with the lookup of the board reflected about the main diagonal when the
/// goal allows it: `h = md + 2 * max(Σ extra, Σ reflected extra)`.
///
/// `ZERO` says whether the evaluator reads zero-aware databases: [`PdbEval::new`] makes one that takes both kinds,
/// [`PdbEval::plain`] one that takes plain databases only and has no zero-aware code in its search loop (fewer
/// instructions per node). `LAYOUTS` says which layouts it reads ([`layouts`]): [`PdbEval::plain_layout`] and
/// [`PdbEval::blank_bits`] take one layout each and have no branch on the layout in their loop;
/// [`PdbEval::blank_bits_32`] also knows the entries' width (fewer instructions again).
#[derive(Debug, Clone)]
pub struct PdbEval<const ZERO: bool = true, const LAYOUTS: u8 = { layouts::ANY }> {
    pub(super) n: usize,
    pub(super) md: Manhattan,
    pub(super) direct: View,
    pub(super) reflected: View,
    /// The reflected view's cell of each cell (the identity when there is no reflected lookup).
    pub(super) transpose: [u8; MAX_SEARCH_CELLS],
    /// The mixed sums (when on).
    pub(super) mixed: Mixed,
    /// The search works out every child's indices and starts their loads before probing the first
    /// ([`Eval::looks_ahead`](super::Eval::looks_ahead)): whenever a pattern is not zero-aware in the region
    /// layout. The loads of large tables then overlap, for the same nodes as probing each child with its own
    /// indices.
    pub(super) ahead: bool,
}

impl PdbEval {
    /// For a geometry and a set of databases over disjoint patterns of its goal cells, plain or zero-aware;
    /// `reflect` asks for the reflected lookup (used only when the goal allows it).
    pub fn new(g: &Geometry, set: &PdbSet, reflect: bool) -> Result<PdbEval> {
        PdbEval::with(g, set, reflect)
    }
}

impl PdbEval<false> {
    /// As [`PdbEval::new`] for a set of databases without a zero-aware index (an error names a zero-aware one):
    /// plain, blank-cell or blank-bit layouts.
    pub fn plain(g: &Geometry, set: &PdbSet, reflect: bool) -> Result<PdbEval<false>> {
        PdbEval::checked(g, set, reflect)
    }
}

impl PdbEval<false, { layouts::PLAIN }> {
    /// As [`PdbEval::plain`] for databases in the plain layout only (an error names one in another layout): the
    /// search loop has no branch on the layout (fewer instructions than [`PdbEval::plain`]).
    pub fn plain_layout(
        g: &Geometry,
        set: &PdbSet,
        reflect: bool,
    ) -> Result<PdbEval<false, { layouts::PLAIN }>> {
        PdbEval::checked(g, set, reflect)
    }
}

impl PdbEval<false, { layouts::BLANK_BITS }> {
    /// As [`PdbEval::plain`] for databases in the blank-bit layout only ([`PdbLayout::ZeroBits`]; an error names
    /// one in another layout): the search loop has no branch on the layout.
    pub fn blank_bits(
        g: &Geometry,
        set: &PdbSet,
        reflect: bool,
    ) -> Result<PdbEval<false, { layouts::BLANK_BITS }>> {
        PdbEval::checked(g, set, reflect)
    }
}

impl PdbEval<false, { layouts::BLANK_BITS_32 }> {
    /// As [`PdbEval::blank_bits`] for databases whose entries all take 32 bits (an error names one that does
    /// not), as every blank-bit database of the 24-puzzle does: the loop reads an entry at a width it knows.
    pub fn blank_bits_32(
        g: &Geometry,
        set: &PdbSet,
        reflect: bool,
    ) -> Result<PdbEval<false, { layouts::BLANK_BITS_32 }>> {
        if let Some(pdb) = set.pdbs.iter().find(|p| p.packed().bits() != 32) {
            return Err(Error::Solve(SolveError::BadPartition {
                reason: format!(
                    "an evaluator for 32-bit entries was given a database of {}-bit entries (cells {:?})",
                    pdb.packed().bits(),
                    pdb.cells()
                ),
            }));
        }
        PdbEval::checked(g, set, reflect)
    }
}

impl PdbEval<false, { layouts::BLANK_CELL_BITS_32 }> {
    /// As [`PdbEval::blank_bits_32`] for sparse databases with a bit per cell of the board
    /// ([`Pdb::bit_per_cell`](crate::search::pdb::Pdb::bit_per_cell); an error names one without), as every sparse blank-bit database of the 24-puzzle
    /// is: a lookup needs neither the free cells below the blank nor the pattern's cells, which the loop no longer
    /// keeps.
    pub fn blank_cell_bits_32(
        g: &Geometry,
        set: &PdbSet,
        reflect: bool,
    ) -> Result<PdbEval<false, { layouts::BLANK_CELL_BITS_32 }>> {
        if let Some(pdb) = set.pdbs.iter().find(|p| !p.bit_per_cell()) {
            return Err(Error::Solve(SolveError::BadPartition {
                reason: format!(
                    "an evaluator for blank bits per cell was given a database without them (cells {:?}, {:?} \
                     index, {}-bit entries)",
                    pdb.cells(),
                    pdb.index(),
                    pdb.packed().bits()
                ),
            }));
        }
        PdbEval::checked(g, set, reflect)
    }
}

impl<const LAYOUTS: u8> PdbEval<false, LAYOUTS> {
    fn checked(g: &Geometry, set: &PdbSet, reflect: bool) -> Result<PdbEval<false, LAYOUTS>> {
        if let Some(pdb) = set.pdbs.iter().find(|p| p.zero_index().is_some()) {
            return Err(Error::Solve(SolveError::BadPartition {
                reason: format!(
                    "a plain evaluator was given a zero-aware database (cells {:?})",
                    pdb.cells()
                ),
            }));
        }
        let only = match LAYOUTS {
            layouts::PLAIN => Some(PdbLayout::Plain),
            layouts::BLANK_BITS | layouts::BLANK_BITS_32 | layouts::BLANK_CELL_BITS_32 => {
                Some(PdbLayout::ZeroBits)
            }
            _ => None,
        };
        // Bits per free cell and bits per cell are read apart: only `ANY` reads both.
        if LAYOUTS == layouts::BLANK_BITS || LAYOUTS == layouts::BLANK_BITS_32 {
            if let Some(pdb) = set.pdbs.iter().find(|p| p.bit_per_cell()) {
                return Err(Error::Solve(SolveError::BadPartition {
                    reason: format!(
                        "an evaluator for blank bits per free cell was given a database with a bit per cell \
                         (cells {:?})",
                        pdb.cells()
                    ),
                }));
            }
        }
        if let Some(only) = only {
            if let Some(pdb) = set.pdbs.iter().find(|p| p.layout() != only) {
                return Err(Error::Solve(SolveError::BadPartition {
                    reason: format!(
                        "an evaluator for the {only:?} layout was given a database in the {:?} layout (cells {:?})",
                        pdb.layout(),
                        pdb.cells()
                    ),
                }));
            }
        }
        PdbEval::with(g, set, reflect)
    }
}

impl<const ZERO: bool, const LAYOUTS: u8> PdbEval<ZERO, LAYOUTS> {
    /// Keeps the mixed sums (`on`) or not (the default): the estimate then also takes the largest sum over the
    /// maximal sets of disjoint patterns that mix the direct and the reflected lookups, at no further lookup.
    /// Needs the reflected lookup, and a partition whose patterns and reflections give such sets (the 24-puzzle's
    /// default gives eight, the 15-puzzle's 6-6-3 two, 7-8 none). Fewer nodes, not always less time: off unless
    /// asked for.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use slide::engine::heuristic::{Eval, Geometry, PdbEval, PdbSet};
    /// use slide::engine::pdb::Pdb;
    /// use slide::{NoProgress, Shape};
    ///
    /// // 3 × 3, the blank's goal on cell 8: the rows as patterns. The last row's pattern (cells 6 and 7) and the
    /// // reflection of the last column's (cells 2 and 5) are disjoint: one mixed set.
    /// let shape = Shape::new(3, 3)?;
    /// let pdbs = [&[0u8, 1, 2][..], &[3, 4, 5], &[6, 7]]
    ///     .iter()
    ///     .map(|cells| Pdb::build(shape, cells, 8, &NoProgress).map(Arc::new))
    ///     .collect::<Result<Vec<_>, _>>()?;
    /// let g = Geometry::new(shape, 8)?;
    /// let mut eval = PdbEval::new(&g, &PdbSet { pdbs }, true)?.with_mixed_sums(true);
    /// assert_eq!(eval.mixed_sets(), 1);
    /// eval.reset(&[8, 0, 1, 2, 3, 4, 5, 6, 7]); // tile t on cell t - 1: the goal
    /// assert_eq!(eval.h(), 0);
    /// # Ok::<(), slide::Error>(())
    /// ```
    pub fn with_mixed_sums(mut self, on: bool) -> Self {
        self.mixed.on = on && self.mixed.sets > 0;
        self.mixed.reset(&self.direct, &self.reflected);
        self
    }

    /// How many maximal sets of disjoint patterns mix the direct and reflected lookups ([`PdbEval::with_mixed_sums`]):
    /// 0 without the reflected lookup.
    pub fn mixed_sets(&self) -> usize {
        self.mixed.sets
    }

    fn with(g: &Geometry, set: &PdbSet, reflect: bool) -> Result<PdbEval<ZERO, LAYOUTS>> {
        let reflect = reflect && g.reflectable();
        let mut direct = View::new();
        let mut reflected = View::new();
        for pdb in &set.pdbs {
            if pdb.shape() != g.shape
                || pdb.blank() != g.blank_goal
                || pdb.cells().len() > MAX_PATTERN
            {
                return Err(Error::Solve(SolveError::BadPartition {
                    reason: "a pattern database of another shape or goal".into(),
                }));
            }
            let mut tiles = Vec::new();
            for &c in pdb.cells() {
                let t = g.tile_at_goal[c as usize];
                if t == 0 || direct.owner[t as usize] != u8::MAX || tiles.contains(&t) {
                    return Err(Error::Solve(SolveError::BadPartition {
                        reason: format!(
                            "patterns must be disjoint and avoid the blank's goal cell (cell {c})"
                        ),
                    }));
                }
                tiles.push(t);
            }
            direct.add(&tiles, pdb);
            if reflect {
                let ts: Vec<u8> = pdb
                    .cells()
                    .iter()
                    .map(|&c| g.tile_at_goal[g.transpose(c) as usize])
                    .collect();
                reflected.add(&ts, pdb);
            }
        }
        let mut transpose = [0u8; MAX_SEARCH_CELLS];
        for (c, t) in transpose.iter_mut().enumerate().take(g.n) {
            *t = if reflect {
                g.transpose(c as u8)
            } else {
                c as u8
            };
        }
        let mixed = if reflect {
            let cells = |f: &dyn Fn(u8) -> u8| -> Vec<u64> {
                set.pdbs
                    .iter()
                    .map(|pdb| pdb.cells().iter().fold(0, |m, &c| m | 1u64 << (f(c) & 63)))
                    .collect()
            };
            Mixed::of(&cells(&|c| c), &cells(&|c| g.transpose(c)))
        } else {
            Mixed::off()
        };
        // Zero-aware placements in the region layout are worked out in the probe itself: nothing ahead.
        let ahead = direct.pats.iter().any(|p| p.zero.is_none());
        Ok(PdbEval {
            n: g.n,
            md: Manhattan::new(g),
            direct,
            reflected,
            transpose,
            mixed,
            ahead,
        })
    }
}
