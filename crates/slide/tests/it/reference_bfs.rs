//! Checks the library against a reference written here, independent of the library's own machinery: a plain
//! breadth-first search over boards stored as `Vec<u8>` (row-major, 0 the blank) with a `HashMap`, its own
//! permutation enumeration, its own move replay and its own board symmetries. Nothing here uses slide's ranking,
//! tables or frames; the library is only asked for answers.
use std::collections::HashSet;

use slide::{Board, ParseError, Shape, SolveError, Solver};

use crate::support::{board, counted, quiet_solver, shape};

// ---------------------------------------------------------------------------------------------------------------
// The reference
// ---------------------------------------------------------------------------------------------------------------

/// A board of the reference: `cells[i]` is the tile on cell `i` (row-major), 0 the blank.
type Cells = Vec<u8>;

/// Everything a breadth-first search from one goal finds (the dev-only crate `slide-reference`: a plain
/// search over `Vec<u8>` boards with a `HashMap`, written apart from the library).
struct Reference {
    bfs: slide_reference::Reference,
    histogram: Vec<u64>,
}

impl Reference {
    fn new(rows: usize, cols: usize, goal: &[u8]) -> Reference {
        let bfs = slide_reference::Reference::new(rows, cols, goal, slide_reference::Metric::Stm);
        Reference {
            histogram: bfs.histogram().to_vec(),
            bfs,
        }
    }

    /// The distance of a board to the goal, or -1 when the search never reached it.
    fn distance(&self, b: &[u8]) -> i64 {
        self.bfs.distance(b).map_or(-1, i64::from)
    }

    fn diameter(&self) -> u32 {
        self.bfs.diameter()
    }

    fn states(&self) -> u64 {
        self.bfs.states()
    }
}

/// Calls `f` on every permutation of `0..n` (Heap's algorithm), returns how many there were.
fn for_each_permutation(n: usize, mut f: impl FnMut(&[u8])) -> u64 {
    let all = slide_reference::permutations(n);
    all.iter().for_each(|p| f(p));
    all.len() as u64
}

fn factorial(n: usize) -> u64 {
    (1..=n as u64).product()
}

/// Replays moves (each the tile that slides into the blank) on a board, checking each is legal.
fn replay(rows: usize, cols: usize, start: &[u8], moves: &[u32]) -> Result<Cells, String> {
    let mut b = start.to_vec();
    for (i, &t) in moves.iter().enumerate() {
        if t == 0 || t as usize >= b.len() {
            return Err(format!("move {i}: {t} is not a tile"));
        }
        let blank = b.iter().position(|&x| x == 0).unwrap();
        let cell = b.iter().position(|&x| x as u32 == t).unwrap();
        let (br, bc) = (blank / cols, blank % cols);
        let (r, c) = (cell / cols, cell % cols);
        if br.abs_diff(r) + bc.abs_diff(c) != 1 {
            return Err(format!("move {i}: tile {t} is not next to the blank"));
        }
        let _ = rows;
        b.swap(blank, cell);
    }
    Ok(b)
}

/// The default goal: 1 2 … n-1, blank last.
fn default_goal(n: usize) -> Cells {
    let mut g: Cells = (1..n as u8).collect();
    g.push(0);
    g
}

/// The blank-first goal: 0 1 2 … n-1.
fn blank_first_goal(n: usize) -> Cells {
    (0..n as u8).collect()
}

fn as_rows(rows: usize, cols: usize, cells: &[u8]) -> Vec<Vec<i32>> {
    assert_eq!(cells.len(), rows * cols);
    cells
        .chunks(cols)
        .map(|r| r.iter().map(|&t| t as i32).collect())
        .collect()
}

/// Small deterministic random numbers (SplitMix64), so that the tests need no generator from elsewhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle(&mut self, v: &mut [u8]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// Checks every arrangement of a shape towards `goal` against the reference: `Solver::distance`, `Solver::solve`
/// (moves replayed: legal, reaching the goal, as many as the distance), `Board::is_solvable`, and for the default
/// goal `sliding_puzzle` too. Returns the number of solvable arrangements.
fn check_every_arrangement(solver: &Solver, rows: usize, cols: usize, goal: &[u8]) -> u64 {
    let n = rows * cols;
    let reference = Reference::new(rows, cols, goal);
    let g = board(rows, cols, goal);
    let is_default = goal == default_goal(n).as_slice();
    let mut solvable = 0u64;
    let count = for_each_permutation(n, |cells| {
        let want = reference.distance(cells);
        let b = board(rows, cols, cells);
        let what = || format!("{rows}x{cols} board {cells:?} goal {goal:?}");
        assert_eq!(
            solver.distance(&b, &g).unwrap(),
            want,
            "distance of {}",
            what()
        );
        assert_eq!(
            b.is_solvable(&g).unwrap(),
            want >= 0,
            "is_solvable of {}",
            what()
        );
        if is_default {
            assert_eq!(
                slide::sliding_puzzle(as_rows(rows, cols, cells)),
                want as i32,
                "sliding_puzzle of {}",
                what()
            );
        }
        let s = solver.solve(&b, &g).unwrap();
        assert_eq!(counted(&s), Some(want), "solve of {}", what());
        assert!(s.is_optimal(), "{}", what());
        match s.moves() {
            None => assert!(s.unsolvable_reason().is_some(), "{}", what()),
            Some(m) => {
                solvable += 1;
                assert_eq!(m.len() as i64, want, "{}", what());
                let end =
                    replay(rows, cols, cells, m).unwrap_or_else(|e| panic!("{}: {e}", what()));
                assert_eq!(end, goal, "moves {m:?} of {} do not reach the goal", what());
            }
        }
    });
    assert_eq!(count, factorial(n));
    assert_eq!(solvable, reference.states(), "{rows}x{cols} goal {goal:?}");
    solvable
}

// ---------------------------------------------------------------------------------------------------------------
// The reference checks itself
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn reference_is_sound() {
    let mut seen = HashSet::new();
    assert_eq!(
        for_each_permutation(5, |p| {
            seen.insert(p.to_vec());
        }),
        120
    );
    assert_eq!(seen.len(), 120);
    let r = Reference::new(2, 3, &default_goal(6));
    assert_eq!((r.states(), r.diameter()), (360, 21));
    assert_eq!(r.histogram.iter().sum::<u64>(), 360);
    assert_eq!(r.distance(&[1, 2, 3, 4, 0, 5]), 1);
    assert_eq!(r.distance(&[1, 2, 3, 5, 4, 0]), -1);
    assert_eq!(r.distance(&[4, 1, 2, 5, 0, 3]), 5);
    assert!(replay(2, 3, &[1, 2, 3, 4, 0, 5], &[1]).is_err());
    assert_eq!(
        replay(2, 3, &[1, 2, 3, 4, 0, 5], &[5]).unwrap(),
        default_goal(6)
    );
}

// ---------------------------------------------------------------------------------------------------------------
// The examples
// ---------------------------------------------------------------------------------------------------------------

const EXAMPLES: [([[i32; 3]; 2], i32); 4] = [
    ([[1, 2, 3], [4, 0, 5]], 1),
    ([[1, 2, 3], [5, 4, 0]], -1),
    ([[4, 1, 2], [5, 0, 3]], 5),
    ([[1, 2, 3], [4, 5, 0]], 0),
];

#[test]
fn examples_through_the_library() {
    let fresh = Solver::new();
    for (rows, want) in EXAMPLES {
        let rows: Vec<Vec<i32>> = rows.iter().map(|r| r.to_vec()).collect();
        assert_eq!(slide::sliding_puzzle(rows.clone()), want, "{rows:?}");
        assert_eq!(
            slide::try_sliding_puzzle(rows.clone()).unwrap(),
            want,
            "{rows:?}"
        );
        let b = Board::from_rows(&rows).unwrap();
        let g = Board::goal(b.shape());
        let cells: Cells = rows.iter().flatten().map(|&t| t as u8).collect();
        for solver in [&fresh, Solver::global()] {
            assert_eq!(solver.distance(&b, &g).unwrap(), want as i64, "{rows:?}");
            let s = solver.solve(&b, &g).unwrap();
            assert_eq!(counted(&s), Some(want as i64), "{rows:?}");
            assert_eq!(s.is_solvable(), want >= 0);
            if let Some(m) = s.moves() {
                assert_eq!(replay(2, 3, &cells, m).unwrap(), default_goal(6));
                let mut bb = b.clone();
                for &t in m {
                    bb.apply(t).unwrap();
                }
                assert_eq!(bb, g);
            } else {
                assert!(s.unsolvable_reason().unwrap().contains("parity"));
            }
        }
        // The text formats agree with the rows.
        let slash = rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("/");
        assert_eq!(Board::parse(&slash).unwrap(), b);
        assert_eq!(Board::parse(&b.to_string()).unwrap(), b);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Exhaustive runs
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn all_720_arrangements_of_2x3() {
    let solver = quiet_solver();
    assert_eq!(
        check_every_arrangement(&solver, 2, 3, &default_goal(6)),
        360
    );
    // The global solver too, as sliding_puzzle uses it.
    assert_eq!(
        check_every_arrangement(Solver::global(), 2, 3, &default_goal(6)),
        360
    );
}

#[test]
fn all_arrangements_of_3x2() {
    assert_eq!(
        check_every_arrangement(&quiet_solver(), 3, 2, &default_goal(6)),
        360
    );
}

#[test]
fn all_arrangements_of_2x4() {
    assert_eq!(
        check_every_arrangement(&quiet_solver(), 2, 4, &default_goal(8)),
        20160
    );
}

#[test]
fn all_arrangements_of_4x2() {
    assert_eq!(
        check_every_arrangement(&quiet_solver(), 4, 2, &default_goal(8)),
        20160
    );
}

#[test]
fn all_arrangements_of_3x3() {
    assert_eq!(
        check_every_arrangement(&quiet_solver(), 3, 3, &default_goal(9)),
        181440
    );
}

#[test]
fn small_squares_and_lines_of_two() {
    let solver = quiet_solver();
    for (r, c) in [(2, 2), (1, 2), (2, 1)] {
        for goal in [default_goal(r * c), blank_first_goal(r * c)] {
            check_every_arrangement(&solver, r, c, &goal);
        }
    }
}

#[test]
fn lines_against_the_reference() {
    let solver = quiet_solver();
    for n in 2..=8 {
        for (rows, cols) in [(1, n), (n, 1)] {
            for goal in [default_goal(n), blank_first_goal(n)] {
                // Only the blank moves: n boards reach the goal.
                assert_eq!(
                    check_every_arrangement(&solver, rows, cols, &goal),
                    n as u64
                );
            }
        }
    }
}

#[test]
fn long_lines_beyond_the_tables() {
    // Lines are solved directly at any length; spot-check some beyond 12 cells against the reference.
    let solver = quiet_solver();
    let mut rng = Rng(99);
    for n in [13usize, 16] {
        for (rows, cols) in [(1, n), (n, 1)] {
            for goal in [default_goal(n), blank_first_goal(n)] {
                let reference = Reference::new(rows, cols, &goal);
                let g = board(rows, cols, &goal);
                for _ in 0..40 {
                    // A reachable board: the goal's tiles in order with the blank moved; sometimes two tiles swapped.
                    let mut cells: Cells = goal.iter().copied().filter(|&t| t != 0).collect();
                    cells.insert(rng.below(n), 0);
                    if rng.below(2) == 0 {
                        let i = rng.below(n - 1);
                        cells.swap(i, i + 1);
                    }
                    let want = reference.distance(&cells);
                    let b = board(rows, cols, &cells);
                    assert_eq!(solver.distance(&b, &g).unwrap(), want, "{cells:?}");
                    let s = solver.solve(&b, &g).unwrap();
                    assert_eq!(counted(&s), Some(want));
                    if let Some(m) = s.moves() {
                        assert_eq!(replay(rows, cols, &cells, m).unwrap(), goal);
                    }
                    if goal == default_goal(n) {
                        assert_eq!(
                            slide::sliding_puzzle(as_rows(rows, cols, &cells)),
                            want as i32
                        );
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Solvability
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn solvable_equals_reachable_for_every_shape_up_to_9_cells() {
    let mut shapes = Vec::new();
    for rows in 1..=9usize {
        for cols in 1..=9usize {
            if (2..=9).contains(&(rows * cols)) {
                shapes.push((rows, cols));
            }
        }
    }
    // 1xN and Nx1 for N = 2..=9, 2x2, 2x3, 3x2, 2x4, 4x2, 3x3.
    assert_eq!(shapes.len(), 8 + 8 + 6);
    for (rows, cols) in shapes {
        let n = rows * cols;
        for goal in [default_goal(n), blank_first_goal(n)] {
            let reference = Reference::new(rows, cols, &goal);
            let g = board(rows, cols, &goal);
            let mut solvable = 0u64;
            for_each_permutation(n, |cells| {
                let reachable = reference.distance(cells) >= 0;
                let b = board(rows, cols, cells);
                assert_eq!(
                    b.is_solvable(&g).unwrap(),
                    reachable,
                    "{rows}x{cols} {cells:?} goal {goal:?}"
                );
                assert_eq!(b.unsolvable_reason(&g).unwrap().is_none(), reachable);
                solvable += reachable as u64;
            });
            let want = if rows == 1 || cols == 1 {
                n as u64
            } else {
                factorial(n) / 2
            };
            assert_eq!(solvable, want, "{rows}x{cols}");
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------------------------------------

fn check_stats(solver: &Solver, rows: usize, cols: usize, goal: &[u8], diameter: Option<u32>) {
    let reference = Reference::new(rows, cols, goal);
    let g = board(rows, cols, goal);
    let s = solver.stats(&g).unwrap();
    let what = format!("{rows}x{cols} goal {goal:?}");
    assert_eq!(s.histogram, reference.histogram, "{what}");
    assert_eq!(s.states, reference.states(), "{what}");
    assert_eq!(s.diameter(), reference.diameter(), "{what}");
    if let Some(d) = diameter {
        assert_eq!(s.diameter(), d, "{what}");
    }
    let far = *reference.histogram.last().unwrap();
    assert!(!s.antipodes.is_empty(), "{what}");
    assert!(s.antipodes.len() as u64 <= far, "{what}");
    let mut distinct = HashSet::new();
    for a in &s.antipodes {
        assert_eq!(a.shape(), g.shape());
        let cells: Cells = a.tiles().iter().map(|&t| t as u8).collect();
        assert_eq!(
            reference.distance(&cells),
            reference.diameter() as i64,
            "{what}: antipode {a}"
        );
        assert!(distinct.insert(cells), "{what}: antipode {a} twice");
    }
}

#[test]
fn stats_small_shapes() {
    let solver = quiet_solver();
    for (rows, cols, diameter) in [(2, 2, 6), (2, 3, 21), (2, 4, 36), (3, 3, 31)] {
        check_stats(
            &solver,
            rows,
            cols,
            &default_goal(rows * cols),
            Some(diameter),
        );
        // Transposes have the same numbers.
        check_stats(
            &solver,
            cols,
            rows,
            &default_goal(rows * cols),
            Some(diameter),
        );
    }
    // Other goals: blank first, and the blank in the middle of 3x3.
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)] {
        check_stats(&solver, rows, cols, &blank_first_goal(rows * cols), None);
    }
    check_stats(&solver, 3, 3, &[1, 2, 3, 4, 0, 5, 6, 7, 8], Some(30));
    check_stats(&solver, 2, 3, &[1, 0, 2, 3, 4, 5], None);
}

#[test]
fn stats_2x5() {
    let solver = quiet_solver();
    check_stats(&solver, 2, 5, &default_goal(10), Some(55));
}

#[test]
fn stats_lines() {
    let solver = quiet_solver();
    for n in 2..=9 {
        for (rows, cols) in [(1, n), (n, 1)] {
            check_stats(&solver, rows, cols, &default_goal(n), Some(n as u32 - 1));
            check_stats(
                &solver,
                rows,
                cols,
                &blank_first_goal(n),
                Some(n as u32 - 1),
            );
            // The blank in the middle.
            let mut mid: Cells = (1..n as u8).collect();
            mid.insert(n / 2, 0);
            check_stats(
                &solver,
                rows,
                cols,
                &mid,
                Some((n - 1 - n / 2).max(n / 2) as u32),
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Custom goals
// ---------------------------------------------------------------------------------------------------------------

/// The symmetries of a `rows` × `cols` rectangle that keep its shape: identity, flips, half turn.
fn symmetries(rows: usize, cols: usize) -> Vec<Vec<usize>> {
    let n = rows * cols;
    let map = |flip_rows: bool, flip_cols: bool| -> Vec<usize> {
        (0..n)
            .map(|cell| {
                let (mut r, mut c) = (cell / cols, cell % cols);
                if flip_rows {
                    r = rows - 1 - r;
                }
                if flip_cols {
                    c = cols - 1 - c;
                }
                r * cols + c
            })
            .collect()
    };
    vec![
        map(false, false),
        map(true, false),
        map(false, true),
        map(true, true),
    ]
}

/// Moves every tile by the cell map `sym` and renames the tiles by `rename` (indexed by old tile).
fn transform(cells: &[u8], sym: &[usize], rename: &[u8]) -> Cells {
    let mut out = vec![0u8; cells.len()];
    for (cell, &t) in cells.iter().enumerate() {
        out[sym[cell]] = rename[t as usize];
    }
    out
}

/// For a goal with the blank on a corner: a symmetry that takes the blank to the last cell, and the renaming that
/// then makes the goal the default goal.
fn to_default(rows: usize, cols: usize, goal: &[u8]) -> Option<(Vec<usize>, Vec<u8>)> {
    let n = rows * cols;
    let blank = goal.iter().position(|&t| t == 0).unwrap();
    let sym = symmetries(rows, cols)
        .into_iter()
        .find(|s| s[blank] == n - 1)?;
    let target = default_goal(n);
    let mut rename = vec![0u8; n];
    for (cell, &t) in goal.iter().enumerate() {
        rename[t as usize] = target[sym[cell]];
    }
    assert_eq!(transform(goal, &sym, &rename), target);
    Some((sym, rename))
}

/// Checks answers towards `goal` against answers towards the default goal for the board turned and renamed by hand.
fn check_relabelled(solver: &Solver, rows: usize, cols: usize, goal: &[u8]) {
    let n = rows * cols;
    let (sym, rename) = to_default(rows, cols, goal).expect("blank on a corner");
    let g = board(rows, cols, goal);
    let d = Board::goal(shape(rows, cols));
    for_each_permutation(n, |cells| {
        let b = board(rows, cols, cells);
        let moved = transform(cells, &sym, &rename);
        let want = solver.distance(&board(rows, cols, &moved), &d).unwrap();
        assert_eq!(
            slide::sliding_puzzle(as_rows(rows, cols, &moved)) as i64,
            want
        );
        assert_eq!(
            solver.distance(&b, &g).unwrap(),
            want,
            "{rows}x{cols} {cells:?} towards {goal:?} vs {moved:?} towards the default goal"
        );
    });
}

#[test]
fn blank_first_goal_against_the_reference() {
    let solver = quiet_solver();
    for (rows, cols) in [(2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        let goal = blank_first_goal(rows * cols);
        check_every_arrangement(&solver, rows, cols, &goal);
    }
}

#[test]
fn blank_first_goal_by_half_turn_and_renaming() {
    let solver = quiet_solver();
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        let n = rows * cols;
        let goal = blank_first_goal(n);
        // The half turn by hand: cell i goes to n-1-i; tile t (not the blank) becomes n-t.
        let turned: Cells = (0..n).map(|i| goal[n - 1 - i]).collect();
        let renamed: Cells = turned
            .iter()
            .map(|&t| if t == 0 { 0 } else { n as u8 - t })
            .collect();
        assert_eq!(renamed, default_goal(n));
        let (sym, rename) = to_default(rows, cols, &goal).unwrap();
        assert_eq!(sym, (0..n).rev().collect::<Vec<_>>());
        let by_hand: Cells = (0..n)
            .map(|t| if t == 0 { 0 } else { (n - t) as u8 })
            .collect();
        assert_eq!(rename, by_hand);
        check_relabelled(&solver, rows, cols, &goal);
    }
}

#[test]
fn random_goals() {
    let solver = quiet_solver();
    let mut rng = Rng(2024);
    for (rows, cols, count) in [(2, 3, 12), (3, 2, 6), (2, 4, 4), (4, 2, 3), (3, 3, 2)] {
        let n = rows * cols;
        let mut tried = 0;
        let mut corner = 0;
        while tried < count || corner == 0 {
            let mut goal: Cells = (0..n as u8).collect();
            rng.shuffle(&mut goal);
            tried += 1;
            // Always: the reference's search from that goal.
            check_every_arrangement(&solver, rows, cols, &goal);
            // When the blank sits on a corner: the same answers as the board moved and renamed by hand.
            if to_default(rows, cols, &goal).is_some() {
                corner += 1;
                check_relabelled(&solver, rows, cols, &goal);
            }
        }
    }
    // Random goals keeping the blank last: a pure renaming of the tiles.
    for (rows, cols) in [(2, 3), (3, 3), (2, 4)] {
        let n = rows * cols;
        let mut goal: Cells = (1..n as u8).collect();
        rng.shuffle(&mut goal);
        goal.push(0);
        check_relabelled(&solver, rows, cols, &goal);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn bad_input_gives_its_error() {
    use slide::Error;
    let e = |rows: Vec<Vec<i32>>| slide::try_sliding_puzzle(rows).unwrap_err();
    assert_eq!(e(vec![]), Error::Parse(ParseError::Empty));
    assert_eq!(e(vec![vec![]]), Error::Parse(ParseError::Empty));
    assert!(matches!(
        e(vec![vec![1, 2, 3], vec![4, 0]]),
        Error::Parse(ParseError::Ragged {
            row: 2,
            expected: 3,
            found: 2
        })
    ));
    assert!(matches!(
        e(vec![vec![1, 2, 3], vec![4, 4, 0]]),
        Error::Parse(ParseError::Duplicate { value: 4, .. })
    ));
    assert!(matches!(
        e(vec![vec![1, 2, 3], vec![4, 6, 0]]),
        Error::Parse(ParseError::OutOfRange { value: 6, .. })
    ));
    assert!(matches!(
        e(vec![vec![1, 2, 3], vec![4, -1, 0]]),
        Error::Parse(ParseError::OutOfRange { value: -1, .. })
    ));
    assert!(matches!(
        e(vec![vec![0]]),
        Error::Parse(ParseError::BadShape { .. })
    ));
    let mut big: Vec<Vec<i32>> = (0..4)
        .map(|r| (1..=4).map(|c| r * 4 + c).collect())
        .collect();
    big[3][3] = 15;
    big[3][2] = 0;
    big[3][1] = 14;
    big[3][0] = 13;
    // More than 12 cells: answered by IDA*, exactly.
    assert_eq!(slide::try_sliding_puzzle(big.clone()), Ok(1));
    assert_eq!(slide::sliding_puzzle(big), 1);
    for rows in [
        vec![],
        vec![vec![]],
        vec![vec![0]],
        vec![vec![1, 2], vec![0]],
        vec![vec![1, 1], vec![0, 2]],
        vec![vec![1, 2], vec![3, 4]],
        vec![vec![1, 2], vec![3, i32::MAX]],
        vec![vec![1, 2], vec![3, i32::MIN]],
    ] {
        assert_eq!(slide::sliding_puzzle(rows.clone()), -2, "{rows:?}");
    }

    // Text.
    let p = |t: &str| Board::parse(t).unwrap_err();
    assert_eq!(p(""), Error::Parse(ParseError::Empty));
    assert!(matches!(
        p("[[1,2],[3]]"),
        Error::Parse(ParseError::Ragged { .. })
    ));
    assert!(matches!(
        p("1 2 3/4 x 0"),
        Error::Parse(ParseError::NotANumber { .. })
    ));
    assert!(matches!(
        p("1 2/3 99999999999999999999999"),
        Error::Parse(ParseError::NumberTooLarge { .. })
    ));
    assert!(matches!(
        p("[[1,2],[3,0]"),
        Error::Parse(ParseError::Syntax { .. })
    ));
    assert!(matches!(
        p("1 2 3 4 0 5"),
        Error::Parse(ParseError::UnknownShape { found: 6 })
    ));
    assert!(matches!(p("1 2/3 4"), Error::Parse(ParseError::NoBlank)));
    assert!(matches!(
        p("1 2/2 0"),
        Error::Parse(ParseError::Duplicate { value: 2, .. })
    ));
    assert!(matches!(
        p("1 2/5 0"),
        Error::Parse(ParseError::OutOfRange { value: 5, .. })
    ));
    assert!(matches!(
        Board::parse_with_shape("1 2 3 0", Some(shape(2, 3))),
        Err(Error::Parse(ParseError::WrongCount { .. }))
    ));
    assert!(matches!(
        "2y3".parse::<Shape>(),
        Err(Error::Parse(ParseError::BadShape { .. }))
    ));
    assert!(matches!(
        "1x1".parse::<Shape>(),
        Err(Error::Parse(ParseError::BadShape { .. }))
    ));

    // Shapes that disagree.
    let solver = quiet_solver();
    let b = Board::parse("1 2 3/4 0 5").unwrap();
    let g = Board::goal(shape(3, 2));
    assert!(matches!(
        solver.distance(&b, &g),
        Err(Error::Solve(SolveError::ShapeMismatch { .. }))
    ));
    assert!(matches!(
        solver.solve(&b, &g),
        Err(Error::Solve(SolveError::ShapeMismatch { .. }))
    ));
    assert!(matches!(
        b.is_solvable(&g),
        Err(Error::Solve(SolveError::ShapeMismatch { .. }))
    ));

    // Illegal moves leave the board as it was.
    let mut m = b.clone();
    assert!(matches!(
        m.apply(1),
        Err(Error::Parse(ParseError::IllegalMove { tile: 1 }))
    ));
    assert!(matches!(
        m.apply(0),
        Err(Error::Parse(ParseError::IllegalMove { .. }))
    ));
    assert!(matches!(
        m.apply(77),
        Err(Error::Parse(ParseError::IllegalMove { .. }))
    ));
    assert_eq!(m, b);

    // Stats beyond the tables.
    assert!(matches!(
        solver.stats(&Board::goal(shape(4, 4))),
        Err(Error::Solve(SolveError::NoTable { .. }))
    ));
}
