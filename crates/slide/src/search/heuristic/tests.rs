//! Tests of the heuristics: the mixed sets, the byte lanes, the tie-break.

use std::sync::Arc;

use super::mixed::{maximal_disjoint, Lanes, Mixed, MIXED_SUMS};
use super::*;
use crate::progress::NoProgress;
use crate::search::pdb::Pdb;

fn cells(sets: &[&[u8]]) -> Vec<u64> {
    sets.iter()
        .map(|s| s.iter().fold(0, |m, &c| m | 1u64 << c))
        .collect()
}

fn transposed(sets: &[&[u8]], cols: u8) -> Vec<u64> {
    sets.iter()
        .map(|s| {
            s.iter()
                .fold(0, |m, &c| m | 1u64 << ((c % cols) * cols + c / cols))
        })
        .collect()
}

/// The 24-puzzle's default partition (canonical frame, blank on cell 24) and its reflection give eight mixed
/// sets of three patterns, each pairwise disjoint and maximal; 7-8 on 4 × 4 gives none.
#[test]
fn maximal_disjoint_sets_of_the_defaults() {
    let default: [&[u8]; 4] = [
        &[0, 1, 2, 5, 6, 7],
        &[3, 4, 8, 9, 13, 14],
        &[10, 11, 15, 16, 20, 21],
        &[12, 17, 18, 19, 22, 23],
    ];
    let all = [cells(&default), transposed(&default, 5)].concat();
    let sets = maximal_disjoint(&all, 4);
    assert_eq!(sets.len(), 8, "{sets:?}");
    for &set in &sets {
        assert_eq!(set.count_ones(), 3, "{set:#b}");
        assert!(
            set & 0xf != 0 && set & 0xf0 != 0,
            "{set:#b} mixes the views"
        );
        let members: Vec<usize> = (0..8).filter(|&i| set >> i & 1 == 1).collect();
        for (i, &a) in members.iter().enumerate() {
            for &b in &members[i + 1..] {
                assert_eq!(all[a] & all[b], 0, "{set:#b}");
            }
        }
        for other in (0..8).filter(|&i| set >> i & 1 == 0) {
            assert!(
                members.iter().any(|&m| all[m] & all[other] != 0),
                "{set:#b} + {other}"
            );
        }
    }
    let m = Mixed::of(&cells(&default), &transposed(&default, 5));
    assert_eq!((m.sets, m.on), (8, false));
    let seven_eight: [&[u8]; 2] = [&[0, 1, 2, 3, 4, 5, 6], &[7, 8, 9, 10, 11, 12, 13, 14]];
    let m = Mixed::of(&cells(&seven_eight), &transposed(&seven_eight, 4));
    assert_eq!(m.sets, 0);
}

/// Lanes add with wrapping (a change may be negative) and give their largest byte.
#[test]
fn lanes_add_and_maximise() {
    let mut b = [0u8; MIXED_SUMS];
    b[3] = 40;
    b[11] = 7;
    let mask = Lanes::from_bytes(std::array::from_fn(|j| if j % 2 == 1 { 0xff } else { 0 }));
    let v = Lanes::from_bytes(b).add_masked(mask, 2u8.wrapping_neg());
    let out = v.to_bytes();
    assert_eq!(out[3], 38);
    assert_eq!(out[11], 5);
    assert_eq!(out[1], 254);
    assert_eq!(out[0], 0);
    assert_eq!(Lanes::from_bytes(b).max(), 40);
    let mut c = [0u8; MIXED_SUMS];
    c[15] = 128;
    assert_eq!(Lanes::from_bytes(c).max(), 128);
}

/// The tie-break: a move that takes its tile toward its goal cell has key 0, one that takes it away 1 (the
/// search enters the former first when their estimates are equal).
#[test]
fn tie_break_prefers_the_move_toward_the_goal() {
    let shape = Shape::new(3, 3).unwrap();
    let pdbs = [&[0u8, 1, 2][..], &[3, 4, 5], &[6, 7]]
        .iter()
        .map(|c| Pdb::build(shape, c, 8, &NoProgress).map(Arc::new))
        .collect::<Result<Vec<_>>>()
        .unwrap();
    let g = Geometry::new(shape, 8).unwrap();
    let mut eval = PdbEval::new(&g, &PdbSet { pdbs }, true).unwrap();
    // 1 2 3 / 4 5 6 / 7 0 8: tile t on cell t - 1 but tile 8 on cell 8, the blank on cell 7.
    eval.reset(&[7, 0, 1, 2, 3, 4, 5, 6, 8]);
    let toward = eval.probe(8, 8, 7, u32::MAX).1;
    let up = eval.probe(5, 4, 7, u32::MAX).1;
    let left = eval.probe(7, 6, 7, u32::MAX).1;
    assert_eq!(PdbEval::<true>::tie_break(&toward), 0);
    assert_eq!(PdbEval::<true>::tie_break(&up), 1);
    assert_eq!(PdbEval::<true>::tie_break(&left), 1);
    assert_eq!(PdbMax::<true>::tie_break(&[toward; MAX_PARTITIONS]), 0);
    assert_eq!(PdbMax::<true>::tie_break(&[up; MAX_PARTITIONS]), 1);
}
