//! The multi-tile metric (MTM): complete tables built with the multi-tile move generator, checked against a plain
//! breadth-first search with multi-tile moves (`slide-reference`, `Metric::Mtm`) — histograms, diameters and every
//! board's distance — with every returned move sequence replayed and its number of pushes counted here.

use slide::engine::SolverExt;
use slide::{Board, CacheDir, Error, Method, Metric, SolveError, SolveOptions, Solver};
use slide_reference::{self as reference, Reference};

use crate::support::counted;
use crate::support::{board, quiet_solver as solver, shape};

fn mtm() -> SolveOptions {
    SolveOptions {
        metric: Metric::Mtm,
        ..Default::default()
    }
}

/// Replays single-tile moves (the tiles that slide into the blank) from `cells` and counts the multi-tile moves:
/// the maximal runs of steps of the blank in one direction. `None` when a move is not legal.
fn replay_counting_pushes(cols: usize, cells: &[u8], tiles: &[u32]) -> Option<(Vec<u8>, usize)> {
    let mut b = cells.to_vec();
    let mut pushes = 0;
    let mut last: Option<isize> = None;
    for &t in tiles {
        let blank = b.iter().position(|&x| x == 0)?;
        let before = b.clone();
        b = reference::replay(cols, &b, &[t])?;
        debug_assert_ne!(before, b);
        let to = b.iter().position(|&x| x == 0)? as isize;
        let step = to - blank as isize;
        if last != Some(step) {
            pushes += 1;
        }
        last = Some(step);
    }
    Some((b, pushes))
}

/// The MTM histogram of each shape, and its diameter, against the reference BFS with multi-tile moves; the
/// antipodes the stats name are at that distance.
#[test]
fn histograms_and_diameters_match_a_plain_bfs() {
    let s = solver();
    for (rows, cols, diameter) in [(2, 2, 6), (2, 3, 0), (2, 4, 0), (3, 3, 24)] {
        let goal = reference::goal(rows * cols);
        let r = Reference::new(rows, cols, &goal, reference::Metric::Mtm);
        let st = s.stats_in(&board(rows, cols, &goal), Metric::Mtm).unwrap();
        assert_eq!(st.states, r.states(), "{rows}x{cols}");
        assert_eq!(st.histogram, r.histogram(), "{rows}x{cols}");
        assert_eq!(st.diameter(), r.diameter(), "{rows}x{cols}");
        if diameter > 0 {
            assert_eq!(st.diameter(), diameter, "{rows}x{cols}");
        }
        for a in &st.antipodes {
            let cells: Vec<u8> = a.tiles().iter().map(|&t| t as u8).collect();
            assert_eq!(r.distance(&cells), Some(r.diameter()), "{rows}x{cols} {a}");
        }
        // The STM table of the same shape is another table: a larger diameter.
        let stm = s.stats(&board(rows, cols, &goal)).unwrap();
        assert_eq!(stm.states, st.states);
        assert!(stm.diameter() >= st.diameter());
        assert_eq!(
            stm.diameter(),
            Reference::new(rows, cols, &goal, reference::Metric::Stm).diameter()
        );
    }
    // Transposed shapes use the same tables through their frames.
    let r = Reference::new(4, 2, &reference::goal(8), reference::Metric::Mtm);
    let st = s
        .stats_in(&board(4, 2, &reference::goal(8)), Metric::Mtm)
        .unwrap();
    assert_eq!(st.histogram, r.histogram());
}

/// Every board of a shape: the distance (or -1 for the other parity class) equals the reference's, and the
/// solution reaches the goal with exactly that many pushes.
fn every_board(rows: usize, cols: usize, goal: &[u8], stride: usize) {
    let s = solver();
    let r = Reference::new(rows, cols, goal, reference::Metric::Mtm);
    let g = board(rows, cols, goal);
    let mut checked = 0;
    for (i, cells) in reference::permutations(rows * cols).iter().enumerate() {
        let b = board(rows, cols, cells);
        let want = r.distance(cells);
        let d = s.distance_in(&b, &g, Metric::Mtm).unwrap();
        assert_eq!(d, want.map_or(-1, |d| d as i64), "{b}");
        if i % stride != 0 {
            continue;
        }
        let sol = s.solve_with(&b, &g, &mtm()).unwrap();
        assert_eq!(sol.metric(), Metric::Mtm);
        assert_eq!(counted(&sol), Some(d), "{b}");
        let Some(want) = want else {
            assert!(sol.is_unsolvable() && sol.moves().is_none(), "{b}");
            continue;
        };
        let tiles = sol.moves().unwrap();
        let (end, pushes) = replay_counting_pushes(cols, cells, tiles).expect("legal moves");
        assert_eq!(end, goal, "{b}: {tiles:?}");
        assert_eq!(pushes as u32, want, "{b}: {tiles:?}");
        assert_eq!(sol.length(), Some(pushes), "{b}");
        assert_eq!(
            slide::Moves::from_tiles(&b, tiles).unwrap().mtm_len(),
            pushes,
            "{b}"
        );
        // MTM IDA* with the label tables, forced where the table answers: the same optimum.
        let searched = s
            .solve_with(
                &b,
                &g,
                &SolveOptions {
                    method: Method::Search,
                    ..mtm()
                },
            )
            .unwrap();
        assert!(
            searched.is_optimal() && searched.nodes() > 0 || want == 0,
            "{b}"
        );
        let tiles = searched.moves().unwrap();
        let (end, pushes) = replay_counting_pushes(cols, cells, tiles).expect("legal moves");
        assert_eq!(
            (end.as_slice(), pushes as u32),
            (goal, want),
            "{b}: search {tiles:?}"
        );
        assert_eq!(searched.length(), Some(pushes), "{b}");
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn every_2x3_board() {
    every_board(2, 3, &reference::goal(6), 1);
    // Another goal: the blank first (another table, reached through a frame), and a 3 × 2 board.
    every_board(2, 3, &reference::goal_with_blank(6, 0), 1);
    every_board(3, 2, &reference::goal(6), 1);
}

#[test]
fn every_3x3_board() {
    every_board(3, 3, &reference::goal(9), 7);
    every_board(3, 3, &reference::goal_with_blank(9, 4), 11);
}

#[test]
fn every_2x4_board_solved() {
    every_board(2, 4, &reference::goal(8), 1);
}

/// A few known MTM facts: one push moves a whole row; the README's example.
#[test]
fn examples() {
    let s = solver();
    let b = Board::parse("1 2 3/4 5 6/0 7 8").unwrap();
    let g = Board::goal(b.shape());
    let sol = s.solve_with(&b, &g, &mtm()).unwrap();
    assert_eq!(sol.moves(), Some(&[7, 8][..]));
    assert_eq!((counted(&sol), sol.length()), (Some(1), Some(1)));
    let stm = s.solve(&b, &g).unwrap();
    assert_eq!((stm.metric(), counted(&stm)), (Metric::Stm, Some(2)));
    let hard = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
    assert_eq!(s.distance_in(&hard, &g, Metric::Mtm).unwrap(), 20);
    assert_eq!(s.distance_in(&hard, &g, Metric::Stm).unwrap(), 31);
    // Unsolvable boards are -1 in both metrics.
    let odd = Board::parse("1 2 3/4 5 6/8 7 0").unwrap();
    assert_eq!(s.distance_in(&odd, &g, Metric::Mtm).unwrap(), -1);
    assert_eq!(
        s.solve_with(&odd, &g, &mtm()).unwrap().metric(),
        Metric::Mtm
    );
}

/// Single rows and columns: one push takes the blank anywhere on its line.
#[test]
fn lines() {
    let s = solver();
    for (text, want) in [("[[1,0,2,3]]", 1), ("[[0,1,2,3]]", 1), ("[[1,2,3,0]]", 0)] {
        let b = Board::parse(text).unwrap();
        let g = Board::goal(b.shape());
        assert_eq!(s.distance_in(&b, &g, Metric::Mtm).unwrap(), want, "{text}");
        let sol = s.solve_with(&b, &g, &mtm()).unwrap();
        assert_eq!(counted(&sol), Some(want), "{text}");
        let cells: Vec<u8> = b.tiles().iter().map(|&t| t as u8).collect();
        let (end, pushes) = replay_counting_pushes(4, &cells, sol.moves().unwrap()).unwrap();
        assert_eq!((end, pushes as i64), (reference::goal(4), want));
    }
    let g = Board::goal(shape(1, 5));
    let st = s.stats_in(&g, Metric::Mtm).unwrap();
    let r = Reference::new(1, 5, &reference::goal(5), reference::Metric::Mtm);
    assert_eq!(
        (st.states, st.histogram.clone()),
        (5, r.histogram().to_vec())
    );
    assert_eq!(st.antipodes.len(), 4);
}

/// What MTM does not cover yet is refused with an error naming the metric, never answered in STM.
#[test]
fn refusals() {
    let s = solver();
    let twenty = Board::goal(shape(4, 5));
    let e = s.solve_with(&twenty, &twenty, &mtm()).unwrap_err();
    assert!(
        matches!(&e, Error::Solve(SolveError::InvalidOption { option, .. }) if option == "metric"),
        "{e}"
    );
    assert!(e.to_string().contains("label table larger than"), "{e}");
    let fifteen = Board::goal(shape(4, 4));
    let small = Board::parse("1 2 3/4 0 5").unwrap();
    let opts = SolveOptions {
        method: Method::Fast,
        ..mtm()
    };
    let e = s
        .solve_with(&small, &Board::goal(small.shape()), &opts)
        .unwrap_err();
    assert!(
        matches!(&e, Error::Solve(SolveError::InvalidOption { option, .. }) if option == "metric"),
        "{e}"
    );
    assert!(s.distance_in(&twenty, &twenty, Metric::Mtm).is_err());
    assert!(s.stats_in(&fifteen, Metric::Mtm).is_err());
}

/// MTM tables are cached under their own file names beside the STM ones, and read back; STM files keep their names
/// and metadata (no metric field), so files written before the metric existed still load.
#[test]
fn cached_beside_the_stm_tables() {
    let dir = tempfile::tempdir().unwrap();
    let on_disk = || {
        Solver::builder()
            .cache_dir(CacheDir::At(dir.path().to_path_buf()))
            .cache_from_cells(6)
            .build()
    };
    let g = Board::goal(shape(2, 3));
    let first = on_disk();
    let built = (
        first.stats(&g).unwrap(),
        first.stats_in(&g, Metric::Mtm).unwrap(),
    );
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "complete-2x3-blank5-exact.v1.tbl",
            "complete-2x3-blank5-mtm-exact.v1.tbl"
        ]
    );
    let stm_file = std::fs::read(dir.path().join(&names[0])).unwrap();
    let mtm_file = std::fs::read(dir.path().join(&names[1])).unwrap();
    let has = |bytes: &[u8], what: &str| bytes.windows(what.len()).any(|w| w == what.as_bytes());
    assert!(!has(&stm_file, "\"metric\""));
    assert!(has(&mtm_file, "\"metric\":\"mtm\""));
    // A second solver loads both (a file of one metric is never taken for the other).
    let second = on_disk();
    assert!(!second.table_ready(&g, Metric::Mtm));
    let loaded = (
        second.stats(&g).unwrap(),
        second.stats_in(&g, Metric::Mtm).unwrap(),
    );
    assert_eq!(loaded, built);
    assert_ne!(loaded.0.histogram, loaded.1.histogram);
    assert!(second.table_ready(&g, Metric::Mtm));
    // A file of the other metric put in its place is refused and rebuilt.
    std::fs::write(dir.path().join(&names[1]), &stm_file).unwrap();
    let third = on_disk();
    assert_eq!(third.stats_in(&g, Metric::Mtm).unwrap(), built.1);
}

/// The pushes of `cells` that the reference puts one push closer to its goal, each named by the tile farthest from
/// the blank that it slides (the tile on the blank's cell afterwards), ascending.
fn closer_pushes(rows: usize, cols: usize, cells: &[u8], r: &Reference) -> Vec<u32> {
    let Some(d) = r.distance(cells) else {
        return vec![];
    };
    let mut tiles: Vec<u32> = reference::neighbours(rows, cols, cells, reference::Metric::Mtm)
        .iter()
        .filter(|c| r.distance(c).is_some_and(|x| x + 1 == d))
        .map(|c| cells[c.iter().position(|&t| t == 0).unwrap()] as u32)
        .collect();
    tiles.sort_unstable();
    tiles
}

/// MTM hints from the tables: every 5th 3 × 3 board and every 2 × 4 board, against the reference BFS with
/// multi-tile moves; the unreachable parity class gives -1 and no tiles.
#[test]
fn hints_in_mtm_match_a_plain_bfs() {
    let s = solver();
    for (rows, cols, stride) in [(3, 3, 5), (2, 4, 1)] {
        let goal = reference::goal(rows * cols);
        let r = Reference::new(rows, cols, &goal, reference::Metric::Mtm);
        let g = board(rows, cols, &goal);
        let mut hinted = 0;
        for cells in reference::permutations(rows * cols).iter().step_by(stride) {
            let h = s.hint(&board(rows, cols, cells), &g, &mtm()).unwrap();
            let want = r.distance(cells).map_or(-1, |d| d as i64);
            assert_eq!(h.distance, want, "{cells:?}");
            assert_eq!(h.tiles, closer_pushes(rows, cols, cells, &r), "{cells:?}");
            hinted += usize::from(h.tiles.iter().any(|&t| {
                board(rows, cols, cells)
                    .push_tiles(t)
                    .is_some_and(|p| p.len() > 1)
            }));
        }
        // Some hints push more than one tile (they are not single-tile hints in disguise).
        assert!(hinted > 0, "{rows}x{cols}");
    }
}

/// The number of MTM-shortest solutions of every board of `r`, by dynamic programming over the reference's
/// distances (a board's count is the sum of the counts of its pushes one push closer).
fn shortest_counts(
    rows: usize,
    cols: usize,
    r: &Reference,
) -> std::collections::HashMap<Vec<u8>, u128> {
    let mut boards: Vec<Vec<u8>> = reference::permutations(rows * cols)
        .into_iter()
        .filter(|b| r.distance(b).is_some())
        .collect();
    boards.sort_by_key(|b| r.distance(b));
    let mut counts = std::collections::HashMap::new();
    for b in boards {
        let d = r.distance(&b).unwrap();
        let n = if d == 0 {
            1
        } else {
            reference::neighbours(rows, cols, &b, reference::Metric::Mtm)
                .iter()
                .filter(|c| r.distance(c) == Some(d - 1))
                .map(|c| counts[c])
                .sum()
        };
        counts.insert(b, n);
    }
    counts
}

/// `--count` and `--all` in MTM from the tables: the number of MTM-shortest solutions against dynamic programming
/// over the reference BFS on sampled 3 × 3 and 2 × 4 boards; every listed solution distinct, replayed, with as
/// many pushes as the distance, and as many as the count.
#[test]
fn counts_and_lists_in_mtm_match_a_plain_bfs() {
    let s = solver();
    for (rows, cols, stride) in [(3, 3, 1009), (2, 4, 101)] {
        let goal = reference::goal(rows * cols);
        let r = Reference::new(rows, cols, &goal, reference::Metric::Mtm);
        let counts = shortest_counts(rows, cols, &r);
        let g = board(rows, cols, &goal);
        let mut many = 0;
        for cells in reference::permutations(rows * cols).iter().step_by(stride) {
            let b = board(rows, cols, cells);
            let c = s.count_optimal_with(&b, &g, &mtm()).unwrap();
            assert!(c.proven);
            assert_eq!(c.count, counts.get(cells).copied().unwrap_or(0), "{b}");
            if c.count > 500 {
                continue;
            }
            let all = s.optimal_solutions_with(&b, &g, 1000, &mtm()).unwrap();
            assert_eq!(all.len() as u128, c.count, "{b}");
            let unique: std::collections::HashSet<_> = all.iter().collect();
            assert_eq!(unique.len(), all.len(), "{b}");
            for tiles in &all {
                let (end, pushes) =
                    replay_counting_pushes(cols, cells, tiles).expect("legal moves");
                assert_eq!(end, goal, "{b}: {tiles:?}");
                assert_eq!(Some(pushes as u32), r.distance(cells), "{b}: {tiles:?}");
            }
            many += usize::from(c.count > 1);
        }
        assert!(many > 0, "{rows}x{cols}");
    }
}

/// MTM analyses from the tables: walks of pushes from every 3rd 2 × 3 board, each push's distance against the
/// reference BFS with multi-tile moves, the mistakes (pushes not closer) and the pushes over the optimum.
#[test]
fn analyses_in_mtm_match_a_plain_bfs() {
    use slide::{Direction, Moves};
    let s = solver();
    let (rows, cols) = (2, 3);
    let goal = reference::goal(rows * cols);
    let r = Reference::new(rows, cols, &goal, reference::Metric::Mtm);
    let g = board(rows, cols, &goal);
    let mut seed = 7u64;
    for cells in reference::permutations(rows * cols).iter().step_by(3) {
        // A random walk of up to six pushes (a push along the one before is skipped: it would merge with it).
        let mut here = cells.clone();
        let mut dirs = Vec::new();
        let mut boards = Vec::new();
        for _ in 0..6 {
            let next = reference::neighbours(rows, cols, &here, reference::Metric::Mtm);
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let c = next[(seed >> 33) as usize % next.len()].clone();
            let (p, q) = (
                here.iter().position(|&t| t == 0).unwrap(),
                c.iter().position(|&t| t == 0).unwrap(),
            );
            let (d, k) = if p / cols == q / cols {
                if q > p {
                    (Direction::Right, q - p)
                } else {
                    (Direction::Left, p - q)
                }
            } else if q > p {
                (Direction::Down, (q - p) / cols)
            } else {
                (Direction::Up, (p - q) / cols)
            };
            if dirs.last() == Some(&d) {
                continue;
            }
            dirs.extend(std::iter::repeat_n(d, k));
            boards.push(c.clone());
            here = c;
        }
        let moves = Moves::new(dirs);
        let a = s
            .analyse(&board(rows, cols, cells), &g, &moves, &mtm())
            .unwrap();
        assert_eq!(a.mtm_length, boards.len(), "{cells:?}");
        assert_eq!(a.length, moves.stm_len());
        let Some(opt) = r.distance(cells) else {
            assert_eq!(a.optimal, -1);
            assert!(a.distances.iter().all(|&d| d == -1));
            continue;
        };
        assert_eq!(a.optimal, i64::from(opt), "{cells:?}");
        let want: Vec<i64> = boards
            .iter()
            .map(|b| i64::from(r.distance(b).unwrap()))
            .collect();
        assert_eq!(a.distances, want, "{cells:?}");
        let mut prev = a.optimal;
        let mut mistakes = Vec::new();
        for (i, &d) in want.iter().enumerate() {
            if d >= prev {
                mistakes.push(i + 1);
            }
            prev = d;
        }
        assert_eq!(a.mistakes, mistakes);
        assert_eq!(a.solves, here == goal);
        assert_eq!(a.over, a.solves.then(|| boards.len() as i64 - a.optimal));
    }
}
