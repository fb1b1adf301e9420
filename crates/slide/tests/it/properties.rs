//! Property tests (proptest), the quick in-`cargo test` counterpart of the fuzz targets in `fuzz/`:
//!
//! - the parser never panics, on arbitrary strings, on strings over the parser's own alphabet, and on valid boards
//!   written in every format and then damaged (a character dropped, inserted or replaced, a number repeated, …);
//! - a parsed board is a permutation of its shape, and its Display (and the slash and flat forms) parse back to it;
//! - on every shape of at most 9 cells (single rows and columns too), with random goals, solvability is exactly
//!   reachability by a plain breadth-first search (`slide-reference`), `distance` is the BFS distance, and the moves of `solve`
//!   replay from the board to the goal in exactly that many moves;
//! - IDA* (Manhattan, linear conflicts) agrees with the BFS when it finishes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use proptest::prelude::*;
use slide::{Board, Shape, Tile};
use slide::{HeuristicChoice, Method, SolveOptions};
use slide_reference::{Metric, Reference};

use crate::support::counted;
use crate::support::shared_solver as solver;

// ---------------------------------------------------------------------------------------------------------------
// Reference: breadth-first search (the dev-only crate `slide-reference`), one per shape and goal blank cell
// ---------------------------------------------------------------------------------------------------------------

/// Reference searches by (rows, cols, goal blank cell).
type Tables = Mutex<HashMap<(usize, usize, usize), Arc<Reference>>>;

/// Distances of all arrangements of `rows x cols` to the reference goal with the blank on `blank`.
fn reference(rows: usize, cols: usize, blank: usize) -> Arc<Reference> {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    let tables = TABLES.get_or_init(Default::default);
    if let Some(t) = tables.lock().unwrap().get(&(rows, cols, blank)) {
        return t.clone();
    }
    let goal = slide_reference::goal_with_blank(rows * cols, blank);
    let t = Arc::new(Reference::new(rows, cols, &goal, Metric::Stm));
    tables
        .lock()
        .unwrap()
        .insert((rows, cols, blank), t.clone());
    t
}

/// BFS distance from `board` to `goal` (renaming tiles so that `goal` becomes the reference goal).
fn bfs_distance(board: &Board, goal: &Board) -> Option<u32> {
    let s = board.shape();
    let canon = slide_reference::goal_with_blank(s.cells(), goal.blank());
    let mut rename = vec![0u8; s.cells()];
    for (c, &t) in goal.tiles().iter().enumerate() {
        rename[t as usize] = canon[c];
    }
    let renamed: Vec<u8> = board.tiles().iter().map(|&t| rename[t as usize]).collect();
    reference(s.rows(), s.cols(), goal.blank()).distance(&renamed)
}

fn replay(board: &Board, goal: &Board, moves: &[Tile]) {
    let mut b = board.clone();
    for &t in moves {
        b.apply(t)
            .unwrap_or_else(|e| panic!("{board} -> {goal}: {moves:?}: {e}"));
    }
    assert_eq!(&b, goal, "{board}: {moves:?} does not end on the goal");
}

// ---------------------------------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------------------------------

/// Every shape of 2 to 9 cells.
fn small_shape() -> impl Strategy<Value = Shape> {
    let shapes: Vec<Shape> = (1..=9usize)
        .flat_map(|r| (1..=9usize).map(move |c| (r, c)))
        .filter(|&(r, c)| (2..=9).contains(&(r * c)))
        .map(|(r, c)| Shape::new(r, c).unwrap())
        .collect();
    proptest::sample::select(shapes)
}

fn board_of(shape: Shape) -> impl Strategy<Value = Board> {
    Just((0..shape.cells() as Tile).collect::<Vec<_>>())
        .prop_shuffle()
        .prop_map(move |t| Board::new(shape, t).unwrap())
}

/// A board of any shape with at most `max` cells.
fn any_board(max_side: usize) -> impl Strategy<Value = Board> {
    (1..=max_side, 1..=max_side)
        .prop_filter("two cells at least", |&(r, c)| r * c >= 2)
        .prop_flat_map(|(r, c)| board_of(Shape::new(r, c).unwrap()))
}

/// A small board with a goal: the default one, blank first, or any arrangement.
fn board_and_goal() -> impl Strategy<Value = (Board, Board)> {
    small_shape().prop_flat_map(|s| {
        let goal = prop_oneof![
            Just(Board::goal(s)),
            Just(Board::goal_blank_first(s)),
            board_of(s),
        ];
        (board_of(s), goal)
    })
}

/// Separators and spaces the parser accepts, to vary how a valid board is written.
fn space() -> impl Strategy<Value = &'static str> {
    proptest::sample::select(vec!["", " ", "  ", "\t", " \t "])
}

/// A valid board as text, in one of the formats, with varied white space; and the shape to pass for flat lists.
fn written(b: &Board, format: u8, ws: &[&str]) -> (String, Option<Shape>) {
    let mut w = ws.iter().cycle();
    let mut sp = || *w.next().unwrap();
    let rows = b.rows();
    match format % 4 {
        0 => {
            let mut s = format!("{}[", sp());
            for (i, r) in rows.iter().enumerate() {
                if i > 0 {
                    s.push_str(&format!("{},{}", sp(), sp()));
                }
                s.push('[');
                for (j, t) in r.iter().enumerate() {
                    if j > 0 {
                        s.push_str(&format!("{},{}", sp(), sp()));
                    }
                    s.push_str(&t.to_string());
                }
                s.push(']');
            }
            s.push_str(&format!("]{}", sp()));
            (s, None)
        }
        1 if b.shape().rows() > 1 => {
            let lines: Vec<String> = rows
                .iter()
                .map(|r| {
                    let sep = if r.len() % 2 == 0 { " " } else { ", " };
                    r.iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(sep)
                })
                .collect();
            (lines.join(&format!("{}/{}", sp(), sp())), None)
        }
        2 => {
            let flat: Vec<String> = b.tiles().iter().map(|t| t.to_string()).collect();
            (
                format!("{}[{}]{}", sp(), flat.join(","), sp()),
                Some(b.shape()),
            )
        }
        _ => {
            let flat: Vec<String> = b.tiles().iter().map(|t| t.to_string()).collect();
            (format!("{}\r\n", flat.join(" ")), Some(b.shape()))
        }
    }
}

/// A damage done to a valid text.
#[derive(Debug, Clone)]
enum Damage {
    Drop(usize),
    Insert(usize, char),
    Replace(usize, char),
    Truncate(usize),
    Duplicate(usize),
    Append(String),
}

fn damage() -> impl Strategy<Value = Damage> {
    let ch = proptest::sample::select(vec![
        '[', ']', ',', '/', ' ', '-', '+', '.', '0', '1', '9', 'x', 'e', '\0', '\u{feff}', '١',
        '٣', 'é', '\n', '\r', '\t', '"', '{',
    ]);
    prop_oneof![
        any::<usize>().prop_map(Damage::Drop),
        (any::<usize>(), ch.clone()).prop_map(|(i, c)| Damage::Insert(i, c)),
        (any::<usize>(), ch).prop_map(|(i, c)| Damage::Replace(i, c)),
        any::<usize>().prop_map(Damage::Truncate),
        any::<usize>().prop_map(Damage::Duplicate),
        proptest::sample::select(vec![
            ",",
            "]",
            " 0",
            "/",
            "99999999999999999999999",
            "-0",
            "1e3",
            "NaN"
        ])
        .prop_map(|s| Damage::Append(s.to_string())),
    ]
}

fn apply_damage(text: &str, d: &Damage) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize| if chars.is_empty() { 0 } else { i % chars.len() };
    let mut c = chars.clone();
    match d {
        Damage::Drop(i) if !c.is_empty() => {
            c.remove(at(*i));
        }
        Damage::Insert(i, ch) => c.insert(at(*i), *ch),
        Damage::Replace(i, ch) if !c.is_empty() => c[at(*i)] = *ch,
        Damage::Truncate(i) => c.truncate(at(*i)),
        Damage::Duplicate(i) if !c.is_empty() => {
            // Repeat a run of digits (a number written twice).
            let s = at(*i);
            let e = (s..c.len())
                .find(|&k| !c[k].is_ascii_digit())
                .unwrap_or(c.len());
            let run: Vec<char> = c[s..e].to_vec();
            c.splice(e..e, std::iter::once(' ').chain(run));
        }
        Damage::Append(s) => c.extend(s.chars()),
        _ => {}
    }
    c.into_iter().collect()
}

/// Whatever the parser returns must be sound: a permutation that prints and parses back, or an error with a message.
fn check_parse(text: &str, shape: Option<Shape>) {
    match Board::parse_with_shape(text, shape) {
        Ok(b) => {
            let n = b.shape().cells();
            let mut seen = vec![false; n];
            for &t in b.tiles() {
                assert!((t as usize) < n && !std::mem::replace(&mut seen[t as usize], true));
            }
            assert_eq!(b.tiles()[b.blank()], 0);
            if let Some(s) = shape {
                assert_eq!(b.shape(), s, "{text:?}");
            }
            assert_eq!(Board::parse(&b.to_string()), Ok(b.clone()), "{text:?}");
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parser_never_panics_on_arbitrary_strings(text in any::<String>(), r in 0usize..6, c in 0usize..6) {
        check_parse(&text, None);
        if let Ok(s) = Shape::new(r, c) {
            check_parse(&text, Some(s));
        }
        let _ = text.parse::<Shape>();
    }

    #[test]
    fn parser_never_panics_on_its_own_alphabet(
        text in "[0-9 ,/\\[\\]\\-+.\t\r\nxe١\u{feff}]{0,40}",
        r in 1usize..5,
        c in 1usize..5,
    ) {
        check_parse(&text, None);
        if let Ok(s) = Shape::new(r, c) {
            check_parse(&text, Some(s));
        }
    }

    #[test]
    fn valid_boards_in_every_format_parse(
        b in any_board(7),
        format in any::<u8>(),
        ws in proptest::collection::vec(space(), 1..6),
    ) {
        let (text, shape) = written(&b, format, &ws);
        prop_assert_eq!(Board::parse_with_shape(&text, shape), Ok(b.clone()), "{:?}", text);
        // With its own shape too, whatever the format.
        prop_assert_eq!(Board::parse_with_shape(&text, Some(b.shape())), Ok(b.clone()), "{:?}", text);
    }

    #[test]
    fn damaged_boards_never_panic(
        b in any_board(5),
        format in any::<u8>(),
        ws in proptest::collection::vec(space(), 1..4),
        damages in proptest::collection::vec(damage(), 1..4),
    ) {
        let (mut text, shape) = written(&b, format, &ws);
        for d in &damages {
            text = apply_damage(&text, d);
        }
        check_parse(&text, shape);
        check_parse(&text, None);
    }

    #[test]
    fn display_round_trips(b in any_board(12)) {
        let text = b.to_string();
        prop_assert_eq!(Board::parse(&text), Ok(b.clone()));
        prop_assert_eq!(Board::parse_with_shape(&text, Some(b.shape())), Ok(b.clone()));
        prop_assert_eq!(text.parse::<Board>(), Ok(b.clone()));
        prop_assert_eq!(Board::from_rows(&b.rows()), Ok(b));
    }

    #[test]
    fn solvability_is_bfs_reachability((board, goal) in board_and_goal()) {
        let want = bfs_distance(&board, &goal);
        prop_assert_eq!(board.is_solvable(&goal), Ok(want.is_some()), "{} -> {}", board, goal);
        prop_assert_eq!(
            board.unsolvable_reason(&goal).unwrap().is_none(),
            want.is_some()
        );
    }

    #[test]
    fn solve_replays_to_the_goal_in_the_tables_length((board, goal) in board_and_goal()) {
        let want = bfs_distance(&board, &goal);
        let s = solver();
        let d = s.distance(&board, &goal).unwrap();
        prop_assert_eq!(d, want.map_or(-1, i64::from), "{} -> {}", board, goal);
        let sol = s.solve(&board, &goal).unwrap();
        prop_assert!(sol.is_optimal());
        prop_assert_eq!(counted(&sol), Some(d));
        prop_assert_eq!(sol.is_unsolvable(), want.is_none());
        if let Some(m) = sol.moves() {
            replay(&board, &goal, m);
            prop_assert_eq!(sol.directions(&board).unwrap().len(), m.len());
        }
    }

    #[test]
    fn search_agrees_with_bfs((board, goal) in board_and_goal(), lc in any::<bool>()) {
        let want = bfs_distance(&board, &goal);
        let opts = SolveOptions {
            method: Method::Search,
            heuristic: if lc { HeuristicChoice::LinearConflict } else { HeuristicChoice::Manhattan },
            ..SolveOptions::default()
        };
        let sol = solver().solve_with(&board, &goal, &opts).unwrap();
        prop_assert!(sol.is_optimal());
        prop_assert_eq!(counted(&sol), Some(want.map_or(-1, i64::from)), "{} -> {}", board, goal);
        if let Some(m) = sol.moves() {
            replay(&board, &goal, m);
        }
    }

    #[test]
    fn large_boards_parse_and_have_a_parity(b in any_board(40)) {
        // Parity on boards far beyond the tables; checked against moving the board: one legal move flips the
        // permutation parity and the blank's distance parity together, so solvability stays the same.
        let goal = Board::goal(b.shape());
        let before = b.is_solvable(&goal).unwrap();
        let mut moved = b.clone();
        let dir = [slide::Direction::Up, slide::Direction::Down, slide::Direction::Left, slide::Direction::Right]
            .into_iter()
            .find(|&d| moved.clone().apply_direction(d).is_some())
            .unwrap();
        moved.apply_direction(dir).unwrap();
        prop_assert_eq!(moved.is_solvable(&goal).unwrap(), before);
        prop_assert_eq!(Board::parse(&b.to_string()), Ok(b));
    }
}

/// The damage strategy really produces errors most of the time, and never panics on a fixed sample of them.
#[test]
fn damage_examples() {
    let b = Board::parse("1 2 3/4 0 5").unwrap();
    for (format, d) in [
        (0, Damage::Drop(0)),
        (0, Damage::Insert(3, '\u{feff}')),
        (1, Damage::Replace(2, '١')),
        (2, Damage::Truncate(5)),
        (3, Damage::Duplicate(0)),
        (0, Damage::Append("NaN".into())),
    ] {
        let (text, shape) = written(&b, format, &[""]);
        let bad = apply_damage(&text, &d);
        assert!(
            Board::parse_with_shape(&bad, shape).is_err(),
            "{d:?}: {bad:?}"
        );
    }
}
