//! Tests of the pattern databases: entries against reference searches, the builds against each other.

use super::pattern::manhattan;
use super::*;
use crate::progress::NoProgress;

#[test]
fn single_tile_pattern_is_manhattan() {
    // One tile alone: its cost is exactly its Manhattan distance, so every entry is 0.
    let shape = Shape::new(3, 3).unwrap();
    let p = Pdb::build(shape, &[4], 8, &NoProgress).unwrap();
    for c in 0..9u8 {
        assert_eq!(p.extra(&[c]), 0);
    }
}

#[test]
fn two_tiles_in_a_row_conflict() {
    // Tiles of goal cells 0 and 1 swapped on a 2x3 board. Passing each other takes a detour through the bottom
    // row, and on so small a board the blank gets walled in unless the detour is long: 6 moves, 4 above the
    // Manhattan distance of 2.
    let shape = Shape::new(2, 3).unwrap();
    let p = Pdb::build(shape, &[0, 1], 5, &NoProgress).unwrap();
    assert_eq!(p.extra(&[1, 0]), 2);
    assert_eq!(p.extra(&[0, 1]), 0);
}

/// The pattern's costs by a plain 0-1 BFS over (pattern cells, blank cell) written here, independently of the
/// engine: the least pattern-tile moves from each state to the goal with the blank home (blank moves through
/// free cells cost 0).
fn reference_states(
    shape: Shape,
    cells: &[u8],
    blank: u8,
) -> std::collections::HashMap<(Vec<u8>, u8), u32> {
    use std::collections::{HashMap, VecDeque};
    let mut dist: HashMap<(Vec<u8>, u8), u32> = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert((cells.to_vec(), blank), 0);
    queue.push_back((cells.to_vec(), blank));
    while let Some((pl, b)) = queue.pop_front() {
        let d = dist[&(pl.clone(), b)];
        for c in shape.neighbors(b as usize).map(|c| c as u8) {
            let mut next = pl.clone();
            let cost = match pl.iter().position(|&p| p == c) {
                Some(j) => {
                    next[j] = b;
                    1
                }
                None => 0,
            };
            let key = (next, c);
            if dist.get(&key).is_none_or(|&old| old > d + cost) {
                dist.insert(key.clone(), d + cost);
                if cost == 0 {
                    queue.push_front(key);
                } else {
                    queue.push_back(key);
                }
            }
        }
    }
    dist
}

/// The plain database by [`reference_states`]: the least cost of each placement over the blank's cells.
fn reference(shape: Shape, cells: &[u8], blank: u8) -> std::collections::HashMap<Vec<u8>, u32> {
    let n = shape.cells() as u8;
    let mut best: std::collections::HashMap<Vec<u8>, u32> = std::collections::HashMap::new();
    for ((pl, b), d) in reference_states(shape, cells, blank) {
        assert!(b < n);
        let e = best.entry(pl).or_insert(u32::MAX);
        *e = (*e).min(d);
    }
    best
}

#[test]
fn zero_aware_entries_match_a_reference_bfs() {
    // Every (placement, blank cell) state: the zero-aware entry of the blank's region, decoded from its 4-bit
    // form, is that state's cost; every entry index is some state's; and the least entry over a placement's
    // regions is the plain database's entry.
    for (shape, cells, blank) in [
        ("2x3", vec![2u8, 4], 5u8),
        ("3x3", vec![5, 7], 8),
        ("3x3", vec![5, 7, 4], 8),
        ("3x3", vec![0, 1, 2, 3], 8),
        ("3x3", vec![1, 2, 3, 4, 5, 6, 7, 8], 0),
        ("2x4", vec![0, 1, 4, 5], 7),
        ("2x4", vec![1, 2, 3, 4, 5, 6, 7], 0),
        ("4x4", vec![1, 4, 5], 0),
        ("4x4", vec![13, 14, 11], 15),
        ("3x5", vec![0, 1, 5, 6], 14),
    ] {
        let shape: Shape = shape.parse().unwrap();
        let z = Pdb::build_zero_aware(shape, &cells, blank as usize, &NoProgress).unwrap();
        let plain = Pdb::build_direct(shape, &cells, blank as usize, &NoProgress).unwrap();
        let by_cell = Pdb::zero_cells(&z).unwrap().unwrap();
        assert_eq!(by_cell.layout(), PdbLayout::ZeroCells);
        assert!(by_cell.zero_index().is_none() && Pdb::zero_cells(&by_cell).unwrap().is_none());
        assert_eq!(
            by_cell.packed().len(),
            plain.packed().len() * (shape.cells() - cells.len()) as u64
        );
        let mut cell_hit = vec![false; by_cell.packed().len() as usize];
        // The blank-bit layout: an entry per placement, as wide as the layout says, dense and sparse.
        let by_bit = Pdb::zero_bits(&z).unwrap().unwrap();
        assert_eq!(by_bit.layout(), PdbLayout::ZeroBits);
        assert!(by_bit.zero_index().is_none() && Pdb::zero_bits(&by_bit).unwrap().is_none());
        assert!(Pdb::zero_bits(&plain).unwrap().is_none());
        assert_eq!(by_bit.packed().len(), plain.packed().len());
        assert_eq!(
            Some(by_bit.packed().bits()),
            PdbLayout::ZeroBits.bits(shape.cells(), cells.len())
        );
        let sparse_bit = Pdb::sparse(&by_bit).unwrap().unwrap();
        assert_eq!(
            (
                sparse_bit.index(),
                sparse_bit.layout(),
                sparse_bit.packed().bits()
            ),
            (
                PdbIndex::Sparse,
                PdbLayout::ZeroBits,
                by_bit.packed().bits()
            )
        );
        // The sparse index of both: n^k placements (times the free cells), none of the region layout.
        let sparse = Pdb::sparse(&plain).unwrap().unwrap();
        let sparse_cell = Pdb::sparse(&by_cell).unwrap().unwrap();
        assert!(Pdb::sparse(&z).unwrap().is_none() && Pdb::sparse(&sparse).unwrap().is_none());
        let nk = (shape.cells() as u64).pow(cells.len() as u32);
        assert_eq!(sparse.packed().len(), nk);
        assert_eq!(
            sparse_cell.packed().len(),
            nk * (shape.cells() - cells.len()) as u64
        );
        assert_eq!(
            (sparse.index(), sparse_cell.layout()),
            (PdbIndex::Sparse, PdbLayout::ZeroCells)
        );
        let index = z.zero_index().unwrap().clone();
        let want = reference_states(shape, &cells, blank);
        let mut hit = vec![false; index.size() as usize];
        let mut least: std::collections::HashMap<Vec<u8>, u32> = Default::default();
        let mut above = 0;
        for ((pl, b), &d) in &want {
            let md = manhattan(shape, pl, &cells);
            assert_eq!((d - md) % 2, 0, "parity");
            let i = index.index(pl, *b);
            hit[i as usize] = true;
            let stored = z.extra_with_blank(pl, *b);
            assert_eq!(
                stored,
                ((d - md) / 2).min(15),
                "{shape} {cells:?} at {pl:?}, blank {b}"
            );
            // The blank-cell layout: the same entry at plain rank * free cells + the free cells below.
            assert_eq!(by_cell.extra_with_blank(pl, *b), stored);
            let free = (shape.cells() - cells.len()) as u64;
            let below = (0..*b).filter(|c| !pl.contains(c)).count() as u64;
            let ci = plain.ranker().rank(pl) * free + below;
            assert_eq!(by_cell.extra_at(ci), stored);
            cell_hit[ci as usize] = true;
            // The sparse index: the cells as base-n digits, the first tile's the least significant.
            let si = pl
                .iter()
                .rev()
                .fold(0u64, |s, &c| s * shape.cells() as u64 + c as u64);
            assert_eq!(sparse.placement_index(pl), si);
            assert_eq!(
                sparse.extra_at(si),
                plain.extra(pl),
                "{shape} {cells:?} at {pl:?}"
            );
            assert_eq!(sparse.extra(pl), plain.extra(pl));
            assert_eq!(sparse_cell.extra_at(si * free + below), stored);
            assert_eq!(sparse_cell.extra_with_blank(pl, *b), stored);
            // The blank-bit layout: the plain entry in the low bits, and the region's entry capped at one more.
            let capped = stored.min(plain.extra(pl) + 1);
            assert_eq!(
                by_bit.extra_with_blank(pl, *b),
                capped,
                "{shape} {cells:?} at {pl:?}, blank {b}"
            );
            assert_eq!(sparse_bit.extra_with_blank(pl, *b), capped);
            assert_eq!(
                by_bit.extra_at(plain.ranker().rank(pl)) & 15,
                plain.extra(pl)
            );
            assert_eq!(sparse_bit.packed().len(), nk);
            let mut items = vec![0u8; cells.len()];
            let (mask, region) = index.unindex(i, &mut items);
            assert_eq!(&items, pl);
            assert!(region & (1 << b) != 0 && mask & region == 0);
            let e = least.entry(pl.clone()).or_insert(u32::MAX);
            *e = (*e).min(stored);
            above += (stored > plain.extra(pl)) as u32;
        }
        if cells.len() + 1 < shape.cells() {
            assert!(
                hit.iter().all(|&h| h) && cell_hit.iter().all(|&h| h),
                "{shape} {cells:?}: an entry no state reads"
            );
        } else {
            // Every tile in the pattern: half the placements have the wrong parity, never reached; they
            // read 15, as in the plain database.
            assert_eq!(hit.iter().filter(|&&h| h).count() as u64 * 2, index.size());
            for (i, _) in hit.iter().enumerate().filter(|(_, &h)| !h) {
                assert_eq!(z.extra_at(i as u64), 15);
            }
        }
        for (pl, e) in least {
            assert_eq!(e, plain.extra(&pl), "{shape} {cells:?} at {pl:?}");
        }
        // The histogram counts the entries reached (placement and region) at each cost.
        let reached = hit.iter().filter(|&&h| h).count() as u64;
        assert_eq!(z.histogram().iter().sum::<u64>(), reached);
        assert!(
            above > 0 || cells.len() + 1 == shape.cells(),
            "{shape} {cells:?}"
        );
    }
}

#[test]
fn entries_match_a_reference_bfs_with_the_blank_home() {
    // Patterns that wall in the blank's goal cell (both of its neighbours) and patterns that do not.
    for (shape, cells, blank) in [
        ("2x3", vec![2u8, 4], 5u8),
        ("2x3", vec![0, 1, 3], 5),
        ("3x3", vec![5, 7], 8),
        ("3x3", vec![5, 7, 4], 8),
        ("3x3", vec![0, 1, 2], 8),
        ("3x3", vec![1, 3], 0),
        ("2x4", vec![0, 1, 4, 5], 7),
        ("4x4", vec![1, 4, 5], 0),
    ] {
        let shape: Shape = shape.parse().unwrap();
        let pdb = Pdb::build(shape, &cells, blank as usize, &NoProgress).unwrap();
        let want = reference(shape, &cells, blank);
        let mut walled = 0;
        for (pl, d) in &want {
            let md: u32 = pl
                .iter()
                .zip(&cells)
                .map(|(&p, &g)| shape.manhattan(p as usize, g as usize) as u32)
                .sum();
            assert_eq!(pdb.extra(pl), (d - md) / 2, "{shape} {cells:?} at {pl:?}");
            walled += (*d > md) as u32;
        }
        assert_eq!(want.len() as u64, pdb.ranker().size(), "{shape} {cells:?}");
        assert!(walled > 0);
    }
}

/// The method a build takes follows its memory budget, and so does the estimate the solver checks up front:
/// the byte build when it fits, else the compact one (which needs less).
#[test]
fn build_estimates_follow_the_budget() {
    use crate::solver::{pdb_build_bytes, zpdb_build_bytes};
    let shape: Shape = "4x4".parse().unwrap();
    let z = ZeroIndex::new(shape, 8).unwrap();
    let bytes = byte_build_bytes(shape, 8, false).unwrap();
    assert_eq!(bytes, z.size() + 518_918_400 / 2 + 40_320 * 8);
    assert!(bytes < 1_700_000_000, "{bytes}");
    assert_eq!(pdb_build_bytes(shape, 8, None), bytes);
    assert_eq!(pdb_build_bytes(shape, 8, Some(bytes)), bytes);
    let compact = pdb_build_bytes(shape, 8, Some(bytes - 1));
    assert!(compact < bytes && compact > 1_000_000_000, "{compact}");
    let zbytes = byte_build_bytes(shape, 8, true).unwrap();
    assert_eq!(zbytes, z.size() + z.size() / 2 + 40_320 * 8);
    assert_eq!(zpdb_build_bytes(shape, 8, None), zbytes);
    assert!(zpdb_build_bytes(shape, 8, Some(zbytes - 1)) < zbytes);
    // The blank-cell layout needs its own table (8 free cells times the placements, 4 bits each) beside the
    // region layout's, and at least what the zero-aware build needs.
    let zc = crate::solver::zcpdb_build_bytes(shape, 8, None);
    assert!(zc >= zbytes && zc >= 518_918_400 * 8 / 2, "{zc}");
    // A pattern the zero-aware index does not take has no byte build.
    assert_eq!(byte_build_bytes(shape, 15, false), None);
}

/// The database as it was built before the compact engine: the byte-per-state search, then the least byte over
/// each placement's blank cells.
fn build_with_bytes(shape: Shape, cells: &[u8], blank: usize) -> (Vec<u64>, Vec<u64>, u64) {
    let space = PatternSpace::new(shape, cells, blank).unwrap();
    let dist = crate::exact::bfs::bfs(&space, "bytes", &NoProgress, None).unwrap();
    let k = cells.len();
    let group = shape.cells() - k;
    let ranker = PartialRanker::new(shape.cells(), k).unwrap();
    let mut table = PackedTable::new(PDB_BITS, ranker.size());
    let mut capped = 0;
    let mut items = [0u8; MAX_PATTERN];
    for i in 0..ranker.size() {
        let base = i as usize * group;
        let best = *dist.bytes[base..base + group].iter().min().unwrap() as u32;
        ranker.unrank(i, &mut items[..k]);
        let extra = best.saturating_sub(manhattan(shape, &items[..k], cells)) / 2;
        capped += (extra > 15) as u64;
        table.set(i, extra.min(15));
    }
    (table.words().to_vec(), dist.histogram, capped)
}

#[test]
fn compact_build_is_bit_for_bit_the_byte_build() {
    for (shape, cells, blank) in [
        ("3x3", vec![0u8, 1, 2, 3], 8usize),
        ("3x3", vec![5, 7, 4], 8),
        ("3x3", vec![1, 2, 3, 4, 5, 6, 7, 8], 0),
        ("2x4", vec![0, 1, 2, 4, 5], 7),
        ("2x4", vec![1, 2, 3, 4, 5, 6, 7], 0),
        ("4x4", vec![1, 4, 5], 0),
        ("4x4", vec![1, 2, 3, 4, 5], 0),
        ("4x4", vec![13, 14, 15], 0),
        ("3x5", vec![0, 1, 5, 6, 10, 11], 14),
    ] {
        let shape: Shape = shape.parse().unwrap();
        let pdb = Pdb::build_direct(shape, &cells, blank, &NoProgress).unwrap();
        let (words, histogram, capped) = build_with_bytes(shape, &cells, blank);
        assert_eq!(pdb.packed().words(), &words[..], "{shape} {cells:?}");
        assert_eq!(pdb.histogram(), &histogram[..], "{shape} {cells:?}");
        assert_eq!(pdb.capped(), capped, "{shape} {cells:?}");
        // The zero-aware database: the byte build (region-major, one byte per entry) bit for bit the compact
        // one (a budget of 0 bytes forces it).
        let z = Pdb::build_zero_aware(shape, &cells, blank, &NoProgress).unwrap();
        let zc = Pdb::build_zero_aware_within(shape, &cells, blank, Some(0), &NoProgress).unwrap();
        assert_eq!(z.packed().words(), zc.packed().words(), "{shape} {cells:?}");
        assert_eq!(z.histogram(), zc.histogram(), "{shape} {cells:?}");
        assert_eq!(z.capped(), zc.capped(), "{shape} {cells:?}");
        // Derived from the zero-aware database, by either build: the same, except where a full pattern leaves
        // placements unreached (the derivation then declines).
        match Pdb::plain_from_zero_aware(&zc).unwrap() {
            Some(derived) => {
                for budget in [None, Some(0)] {
                    let built =
                        Pdb::build_within(shape, &cells, blank, budget, &NoProgress).unwrap();
                    assert_eq!(built.packed().words(), &words[..], "{shape} {cells:?}");
                    assert_eq!(built.histogram(), &histogram[..], "{shape} {cells:?}");
                    assert_eq!(built.capped(), capped, "{shape} {cells:?}");
                }
                assert_eq!(derived.packed().words(), &words[..], "{shape} {cells:?}");
                assert_eq!(derived.histogram(), &histogram[..], "{shape} {cells:?}");
                assert_eq!(derived.capped(), capped, "{shape} {cells:?}");
            }
            None => assert_eq!(cells.len() + 1, shape.cells(), "{shape} {cells:?}"),
        }
    }
}
