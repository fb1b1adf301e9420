//! Tests of the label tables and the MTM search.

use super::ida::{MtmIda, Next};
use super::space::push;
use super::*;
use crate::board::Board;
use crate::exact::bfs::StateSpace;
use crate::search::limits::Limits;
use crate::search::push_pruning::PushPruner;

#[test]
fn the_quadrants_read_alike_on_the_transposed_board() {
    // The search skips the quadrant table's reading on the transposed board of a square shape whose goal blank
    // is on the diagonal; here it is taken too (four reads) and must never tell more, on every 3 × 3 board.
    let shape = Shape::new(3, 3).unwrap();
    let rows = LabelTable::build(shape, 8, Layout::Rows, &crate::progress::NoProgress).unwrap();
    let quadrants =
        LabelTable::build(shape, 8, Layout::Quadrants, &crate::progress::NoProgress).unwrap();
    let tables = MtmTables {
        rows: &rows,
        cols: &rows,
        second: Some((&quadrants, &quadrants)),
    };
    let goal = Board::goal(shape);
    let pruner = PushPruner::for_shape(shape);
    let limits = Limits::default();
    let mut tiles: Vec<u8> = (0..9).collect();
    let mut checked = 0;
    let mut differ = 0;
    for i in 0..362_880u32 {
        // Every permutation by its factorial digits; the unsolvable half is skipped.
        let mut pool: Vec<u8> = (0..9).collect();
        let mut x = i;
        for (k, t) in tiles.iter_mut().enumerate() {
            let f = (1..(9 - k) as u32).product::<u32>();
            *t = pool.remove((x / f) as usize);
            x %= f;
        }
        let board = Board::new(shape, tiles.iter().map(|&t| t.into()).collect()).unwrap();
        if !board.is_solvable(&goal).unwrap() {
            continue;
        }
        let mut ida = MtmIda::new(&board, &goal, &tables, &pruner, &limits).unwrap();
        assert_eq!(ida.reads, 3);
        for next in [Next::Vertical, Next::Horizontal] {
            let three = ida.estimate(next).unwrap();
            ida.reads = 4;
            let four = ida.estimate(next).unwrap();
            ida.reads = 3;
            assert_eq!(three, four, "{board}");
            let only_rows = {
                ida.reads = 2;
                let e = ida.estimate(next).unwrap();
                ida.reads = 3;
                e
            };
            differ += usize::from(only_rows != three);
        }
        checked += 1;
    }
    assert_eq!(checked, 181_440);
    // The quadrants tell something the rows do not (else the test would check nothing).
    assert!(differ > 1000, "{differ}");
}

#[test]
fn label_tables_hold_the_alternating_distances() {
    // A plain breadth-first search written here, over (label arrangement, axis of the first push) as cell
    // vectors: every arrangement's distance walked down in the table, and each axis's estimate (the excess
    // capped), on every arrangement of these shapes and layouts.
    use std::collections::{HashMap, VecDeque};
    let mut capped = 0;
    for (rows, cols, blank) in [(3, 3, 8), (2, 4, 7), (4, 2, 7), (3, 3, 4), (2, 5, 9)] {
        let shape = Shape::new(rows, cols).unwrap();
        for layout in [Layout::HalvesAlt, Layout::Rows, Layout::Quadrants] {
            let table =
                LabelTable::build(shape, blank, layout, &crate::progress::NoProgress).unwrap();
            let goal = goal_labels(shape, blank, layout);
            // The arrangements reached from `x` by one push along `axis` (0 vertical).
            let pushes = |x: &Vec<u8>, axis: usize| -> Vec<Vec<u8>> {
                let b = x.iter().position(|&l| l == 0).unwrap();
                let (br, bc) = (b / cols, b % cols);
                let targets: Vec<usize> = if axis == 0 {
                    (0..rows)
                        .filter(|&r| r != br)
                        .map(|r| r * cols + bc)
                        .collect()
                } else {
                    (0..cols)
                        .filter(|&c| c != bc)
                        .map(|c| br * cols + c)
                        .collect()
                };
                targets
                    .into_iter()
                    .map(|t| {
                        // Slide the tiles between one by one toward the blank.
                        let mut y = x.clone();
                        let mut at = b;
                        while at != t {
                            let next = match (axis, t > at) {
                                (0, true) => at + cols,
                                (0, false) => at - cols,
                                (_, true) => at + 1,
                                (_, false) => at - 1,
                            };
                            y.swap(at, next);
                            at = next;
                        }
                        y
                    })
                    .collect()
            };
            let mut dist: HashMap<(Vec<u8>, usize), u32> = HashMap::new();
            let mut queue = VecDeque::new();
            for axis in 0..2 {
                dist.insert((goal.clone(), axis), 0);
                queue.push_back((goal.clone(), axis));
            }
            // (x, a) reaches (y, 1 - a) by one push along a; pushes are reversible, so the states one step
            // before (y, b) are (x, 1 - b) for x one push from y along 1 - b.
            while let Some((y, b)) = queue.pop_front() {
                let d = dist[&(y.clone(), b)];
                for x in pushes(&y, 1 - b) {
                    if let std::collections::hash_map::Entry::Vacant(v) =
                        dist.entry((x.clone(), 1 - b))
                    {
                        v.insert(d + 1);
                        queue.push_back((x, 1 - b));
                    }
                }
            }
            assert_eq!(
                dist.len() as u64,
                2 * table.arrangements(),
                "{shape} {layout:?}"
            );
            for ((x, axis), &d) in &dist {
                if *axis == 1 {
                    continue;
                }
                let other = dist[&(x.clone(), 1)];
                let least = d.min(other);
                let r = table.ranker().rank(x);
                assert_eq!(
                    table.distance(r).unwrap(),
                    least,
                    "{shape} {layout:?} {x:?}"
                );
                for (a, exact) in [(0, d), (1, other)] {
                    let want = least + (exact - least).min(MAX_EXCESS);
                    assert_eq!(
                        table.estimate(r, a).unwrap(),
                        want,
                        "{shape} {layout:?} {x:?} {a}"
                    );
                    capped += usize::from(exact - least > MAX_EXCESS);
                }
            }
        }
    }
    // Some excesses are larger than the table keeps (else the cap would go untested).
    assert!(capped > 0);
}

#[test]
fn mask_expansion_lists_the_cell_expansion() {
    // The BMI2 path (masks, PDEP, PEXT, segments) against the plain one (cells, unrank, rank): the same
    // neighbours in the same order for every state of 3 × 3, 2 × 4 and 3 × 4 and a stride of 4 × 4's.
    for (shape, blank, stride) in [
        (Shape::new(3, 3).unwrap(), 8, 1),
        (Shape::new(2, 4).unwrap(), 7, 1),
        (Shape::new(3, 4).unwrap(), 11, 1),
        (Shape::new(4, 4).unwrap(), 15, 9973),
    ] {
        let fast = LabelSpace::new(shape, blank, Layout::HalvesAlt).unwrap();
        if !fast.bmi2 {
            return;
        }
        let mut plain = LabelSpace::new(shape, blank, Layout::HalvesAlt).unwrap();
        plain.bmi2 = false;
        let (mut s1, mut s2) = (fast.scratch(), plain.scratch());
        let mut rank = 0;
        while rank < fast.size() {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            fast.expand(rank, &mut s1, &mut |r, c| a.push((r, c)));
            plain.expand(rank, &mut s2, &mut |r, c| b.push((r, c)));
            assert_eq!(a, b, "{shape} rank {rank}");
            rank += if rank % 2 == 0 { 1 } else { 2 * stride - 1 };
        }
    }
}

#[test]
fn pushes_shift_the_line() {
    let mut cells = [0u8, 1, 2, 3];
    push(&mut cells, 0, 3, 1);
    assert_eq!(cells, [1, 2, 3, 0]);
    push(&mut cells, 3, 1, 1);
    assert_eq!(cells, [1, 0, 2, 3]);
}
