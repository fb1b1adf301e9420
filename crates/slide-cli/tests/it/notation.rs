//! The player's toolkit end to end: `slide solve --notation`, `slide apply`, `slide moves` (the documents'
//! examples are run by `examples.rs`). Every printed sequence is replayed by an interpreter of the notation
//! written here over plain `Vec<u32>` boards, not by the library.

use crate::support::Slide;
use predicates::prelude::*;

// ---------------------------------------------------------------------------------------------------------------
// The interpreter
// ---------------------------------------------------------------------------------------------------------------

/// A board: cells in reading order, 0 the blank.
#[derive(Clone, Debug, PartialEq)]
struct Grid {
    rows: usize,
    cols: usize,
    cells: Vec<u32>,
}

impl Grid {
    /// Reads `1 2 3/4 0 5` or `[[1,2,3],[4,0,5]]`.
    fn parse(text: &str) -> Grid {
        let rows: Vec<Vec<u32>> = text
            .trim()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .split(['/', ']'])
            .map(|r| {
                r.split(|c: char| !c.is_ascii_digit())
                    .filter(|s| !s.is_empty())
                    .map(|s| s.parse().unwrap())
                    .collect::<Vec<u32>>()
            })
            .filter(|r| !r.is_empty())
            .collect();
        Grid {
            rows: rows.len(),
            cols: rows[0].len(),
            cells: rows.concat(),
        }
    }

    fn goal(rows: usize, cols: usize) -> Grid {
        let mut cells: Vec<u32> = (1..(rows * cols) as u32).collect();
        cells.push(0);
        Grid { rows, cols, cells }
    }

    fn slash(&self) -> String {
        self.cells
            .chunks(self.cols)
            .map(|r| {
                r.iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    fn blank(&self) -> usize {
        self.cells.iter().position(|&t| t == 0).unwrap()
    }

    /// Moves the blank one cell (`U D L R` are the blank's directions); panics at the edge.
    fn blank_step(&mut self, d: char) {
        let b = self.blank();
        let (r, c) = (b / self.cols, b % self.cols);
        let to = match d {
            'U' if r > 0 => b - self.cols,
            'D' if r + 1 < self.rows => b + self.cols,
            'L' if c > 0 => b - 1,
            'R' if c + 1 < self.cols => b + 1,
            _ => panic!("{}: the blank cannot move {d}", self.slash()),
        };
        self.cells.swap(b, to);
    }

    /// Plays a sequence written in `notation`; panics on an illegal move.
    fn play(&mut self, notation: &str, text: &str) {
        match notation {
            "tiles" => {
                for t in text.split_whitespace() {
                    let t: u32 = t.parse().unwrap();
                    let b = self.blank();
                    let cell = self.cells.iter().position(|&x| x == t).unwrap();
                    let (br, bc) = (b / self.cols, b % self.cols);
                    let (r, c) = (cell / self.cols, cell % self.cols);
                    assert_eq!(
                        br.abs_diff(r) + bc.abs_diff(c),
                        1,
                        "tile {t} is not next to the blank"
                    );
                    self.cells.swap(b, cell);
                }
            }
            "blank" => text.chars().for_each(|d| self.blank_step(d)),
            "long" | "short" => {
                // A tile's letter: the tile below the blank moves up (U), so the blank moves down.
                let chars: Vec<char> = text.chars().collect();
                let mut i = 0;
                while i < chars.len() {
                    let blank = match chars[i] {
                        'U' => 'D',
                        'D' => 'U',
                        'L' => 'R',
                        'R' => 'L',
                        c => panic!("not a letter: {c}"),
                    };
                    i += 1;
                    let mut n = 0usize;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        n = n * 10 + chars[i].to_digit(10).unwrap() as usize;
                        i += 1;
                    }
                    assert!(
                        notation == "short" || n == 0,
                        "a count in long notation: {text}"
                    );
                    for _ in 0..n.max(1) {
                        self.blank_step(blank);
                    }
                }
            }
            _ => panic!("{notation}"),
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Running the binary
// ---------------------------------------------------------------------------------------------------------------

const NOTATIONS: [&str; 4] = ["tiles", "long", "short", "blank"];

// ---------------------------------------------------------------------------------------------------------------
// solve --notation
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn every_notation_of_solve_reaches_the_goal() {
    let s = Slide::new();
    let mut boards: Vec<String> =
        vec!["4 1 2/5 0 3".into(), "1 2/0 3".into(), "1 2 3/4 5 0".into()];
    for shape in ["3x3", "2x4", "3x2"] {
        let out = s.ok(
            &[
                "scramble", shape, "--count", "6", "--seed", "12", "--format", "slash",
            ],
            "",
        );
        boards.extend(out.lines().map(String::from));
    }
    let input: String = boards.iter().map(|b| format!("{b}\n")).collect();
    for n in NOTATIONS {
        let out = s.ok(&["solve", "--notation", n], &input);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), boards.len());
        let tiles = s.ok(&["solve", "--moves"], &input);
        for ((line, board), tile_line) in lines.iter().zip(&boards).zip(tiles.lines()) {
            let (len, seq) = line.split_once(' ').unwrap_or((line, ""));
            // The same length as --moves prints.
            assert_eq!(len, tile_line.split(' ').next().unwrap(), "{board}");
            let mut g = Grid::parse(board);
            g.play(n, seq);
            assert_eq!(g, Grid::goal(g.rows, g.cols), "{n}: {board} {seq}");
            if n == "long" || n == "blank" {
                assert_eq!(seq.len(), len.parse::<usize>().unwrap());
            }
            if n == "short" {
                let letters: Vec<char> = seq.chars().filter(|c| c.is_alphabetic()).collect();
                assert!(!letters.windows(2).any(|w| w[0] == w[1]), "{seq}");
            }
        }
    }
    // --directions is --notation blank.
    assert_eq!(
        s.ok(&["solve", "--directions"], &input),
        s.ok(&["solve", "--notation", "blank"], &input)
    );
    // Fast mode (over 25 cells) writes notations too.
    let big = s.ok(&["scramble", "5x6", "--seed", "3", "--format", "slash"], "");
    for n in ["short", "blank"] {
        let out = s.ok(&["solve", "--notation", n], &big);
        let (len, seq) = out.trim_end().split_once(' ').unwrap();
        assert!(len.starts_with('~'), "{out}");
        let mut g = Grid::parse(&big);
        g.play(n, seq);
        assert_eq!(g, Grid::goal(5, 6));
    }
}

#[test]
fn json_keeps_the_tiles_and_adds_the_notation() {
    let s = Slide::new();
    for n in NOTATIONS {
        let out = s.ok(&["solve", "--json", "--notation", n, "4 1 2/5 0 3"], "");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["moves"], 5);
        let tiles: Vec<String> = v["solution"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.to_string())
            .collect();
        let mut g = Grid::parse("4 1 2/5 0 3");
        g.play("tiles", &tiles.join(" "));
        assert_eq!(g, Grid::goal(2, 3));
        let mut g = Grid::parse("4 1 2/5 0 3");
        g.play(n, v["notation"].as_str().unwrap());
        assert_eq!(g, Grid::goal(2, 3), "{out}");
    }
    let out = s.ok(&["solve", "--json", "--directions", "1 2 3/4 0 5"], "");
    assert!(
        out.contains("\"solution\": [5], \"notation\": \"R\""),
        "{out}"
    );
}

#[test]
fn solve_notation_usage_errors() {
    let s = Slide::new();
    s.cmd()
        .args(["solve", "--notation", "slidy", "1 2/0 3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "expected tiles, long, short or blank",
        ));
    s.cmd()
        .args(["solve", "--notation", "long", "--directions", "1 2/0 3"])
        .assert()
        .code(2);
    let help = s.ok(&["solve", "--help"], "");
    assert!(
        help.contains("U = the tile below the blank moves up"),
        "{help}"
    );
    assert!(help.contains("the blank's directions"), "{help}");
}

// ---------------------------------------------------------------------------------------------------------------
// apply
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn apply_examples() {
    let s = Slide::new();
    let start = "4 1 2/5 0 3";
    for moves in ["5 4 1 2 3", "5,4,1,2,3", "RDLLU", "RDL2U", "r d l2 u"] {
        assert_eq!(
            s.ok(&["apply", start, moves], ""),
            "1 2 3/4 5 0\n",
            "{moves}"
        );
    }
    assert_eq!(
        s.ok(&["apply", "--blank", start, "LURRD"], ""),
        "1 2 3/4 5 0\n"
    );
    assert_eq!(
        s.ok(&["apply", "--json", "[[4,1,2],[5,0,3]]", "RDL2U"], ""),
        "[[1,2,3],[4,5,0]]\n"
    );
    // From the goal: the tile left of the blank moves right, then the one above moves down.
    assert_eq!(
        s.ok(&["apply", "--solved", "2x3", "RD"], ""),
        "1 0 3/4 2 5\n"
    );
    assert_eq!(
        s.ok(&["apply", "--solved", "2x3", "--blank", "LU"], ""),
        "1 0 3/4 2 5\n"
    );
    assert_eq!(
        s.ok(
            &[
                "apply",
                "--solved",
                "3x3",
                "--goal",
                "0 1 2/3 4 5/6 7 8",
                "L2U"
            ],
            ""
        ),
        "1 2 5/3 4 0/6 7 8\n"
    );
    // Random sequences of letters, checked against the interpreter.
    let mut seed = 7u64;
    let mut g = Grid::goal(3, 4);
    for _ in 0..20 {
        let mut seq = String::new();
        let mut probe = g.clone();
        for _ in 0..8 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let d = ['U', 'D', 'L', 'R'][(seed >> 33) as usize % 4];
            let b = probe.blank();
            let legal = match d {
                'U' => b / 4 > 0,
                'D' => b / 4 < 2,
                'L' => b % 4 > 0,
                _ => b % 4 < 3,
            };
            if legal {
                probe.blank_step(d);
                seq.push(d);
            }
        }
        let out = s.ok(&["apply", "--blank", &g.slash(), &seq], "");
        assert_eq!(out.trim_end(), probe.slash(), "{seq}");
        g = probe;
    }
}

#[test]
fn apply_bad_input() {
    let s = Slide::new();
    let b = "1 2 3/4 0 5";
    s.bad(&["apply", b, "RRUX"], "", "unknown letter 'X' at column 4");
    s.bad(&["apply", b, "R0U"], "", "count 0 at column 2");
    s.bad(
        &["apply", b, "RDLLURU"],
        "",
        "move 7 (U): no tile below the blank",
    );
    s.bad(
        &["apply", b, "--blank", "DU"],
        "",
        "move 1 (D): no tile below the blank",
    );
    s.bad(
        &["apply", b, "5 2"],
        "",
        "move 2 (2): tile 2 is not next to the blank",
    );
    s.bad(
        &["apply", b, "R99999999999"],
        "",
        "too long: more than 10000000 moves",
    );
    s.bad(&["apply", b, "R9999999 L9999999"], "", "too long");
    s.bad(&["apply", b, ""], "", "no moves given");
    s.bad(
        &["apply", "1 2 3/4 4 5", "R"],
        "",
        "board: duplicate value 4",
    );
    // Usage errors: exit status 2.
    s.cmd().args(["apply", b]).assert().code(2);
    s.cmd()
        .args(["apply", "--solved", "2x3", b, "R"])
        .assert()
        .code(2);
    s.cmd()
        .args(["apply", "--solved", "2y3", "R"])
        .assert()
        .code(2);
    s.cmd().args(["apply", "--goal", b, "R"]).assert().code(2);
}

#[test]
fn apply_batch_goes_on_after_a_bad_line() {
    let s = Slide::new();
    let input = "4 1 2/5 0 3 | RDL2U\n\
                 1 2 3/4 0 5 | U\n\
                 1 2 3/4 0 5 |\n\
                 1 2 3/4 0 5\n\
                 [[1,2,3],[4,0,5]] | 5\n\
                 1 2 3/4 0 5 | Rx\n\
                 1 2/3 0 | D\n";
    s.cmd()
        .arg("apply")
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout("1 2 3/4 5 0\n1 2 3/4 5 0\n1 0/3 2\n")
        .stderr(
            predicate::str::contains("slide: line 2: move 1 (U): no tile below the blank")
                .and(predicate::str::contains(
                    "slide: line 3: no moves after '|'",
                ))
                .and(predicate::str::contains(
                    "slide: line 4: expected BOARD | MOVES",
                ))
                .and(predicate::str::contains(
                    "slide: line 6: moves: unknown letter 'x' at column 16",
                )),
        );
    // With --json, bad lines also appear in order on standard output.
    let (code, out, _) = s.run(
        &["apply", "--json"],
        "1 2/3 0 | D\n1 2/3 0 | U\n1 2/3 0 | R\n",
    );
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "[[1,0],[3,2]]");
    let v: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(v["line"], 2);
    assert_eq!(lines[2], "[[1,2],[0,3]]");
    // --solved: each line is a sequence.
    assert_eq!(
        s.ok(&["apply", "--solved", "2x2"], "D\nR\n"),
        "1 0/3 2\n1 2/0 3\n"
    );
}

// ---------------------------------------------------------------------------------------------------------------
// moves
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn moves_examples() {
    let s = Slide::new();
    assert_eq!(s.ok(&["moves", "length", "R2U2LD"], ""), "6 4\n");
    assert_eq!(s.ok(&["moves", "length", "rr uu l d"], ""), "6 4\n");
    assert_eq!(s.ok(&["moves", "invert", "R2U2LD"], ""), "URD2L2\n");
    assert_eq!(s.ok(&["moves", "invert", "RRUULD"], ""), "URDDLL\n");
    assert_eq!(
        s.ok(&["moves", "invert", "--blank", "LURRD"], ""),
        "ULLDR\n"
    );
    assert_eq!(s.ok(&["moves", "invert", "5 4 1 2 3"], ""), "3 2 1 4 5\n");
    assert_eq!(s.ok(&["moves", "simplify", "RULDDUR"], ""), "RULDR\n");
    assert_eq!(s.ok(&["moves", "simplify", "RULDUR"], ""), "RU\n");
    assert_eq!(s.ok(&["moves", "simplify", "RRLRR"], ""), "R3\n");
    assert_eq!(
        s.ok(&["moves", "simplify", "--notation", "long", "R3L"], ""),
        "RR\n"
    );
    let b = "4 1 2/5 0 3";
    assert_eq!(
        s.ok(&["moves", "length", "--board", b, "5 4 1 2 3"], ""),
        "5 4\n"
    );
    assert_eq!(
        s.ok(
            &[
                "moves",
                "simplify",
                "--board",
                b,
                "--notation",
                "tiles",
                "5 5 5 4 1 2 3"
            ],
            ""
        ),
        "5 4 1 2 3\n"
    );
    assert_eq!(s.ok(&["moves", "length"], "R2\nUD\n"), "2 1\n2 2\n");
    // The inverse, played after the sequence, comes back to the start.
    for seq in ["RDL2U", "5 4 1 2 3"] {
        let inv = s.ok(&["moves", "invert", seq], "");
        let notation = if seq.starts_with('5') {
            "tiles"
        } else {
            "short"
        };
        let mut g = Grid::parse(b);
        g.play(notation, seq);
        g.play(notation, inv.trim_end());
        assert_eq!(g, Grid::parse(b));
    }
}

#[test]
fn moves_bad_input() {
    let s = Slide::new();
    s.bad(
        &["moves", "length", "5 4 1"],
        "",
        "tile numbers need the start board",
    );
    s.bad(
        &["moves", "simplify", "RUQ"],
        "",
        "unknown letter 'Q' at column 3",
    );
    s.bad(&["moves", "invert", "U0"], "", "count 0 at column 2");
    s.bad(
        &["moves", "length", "--board", "1 2/3 0", "U"],
        "",
        "move 1 (U): no tile below the blank",
    );
    s.bad(
        &["moves", "invert", "--notation", "tiles", "RU"],
        "",
        "needs --board",
    );
    let (code, out, err) = s.run(&["moves", "length"], "R2\nRX\nU\n");
    assert_eq!((code, out.as_str()), (1, "2 1\n1 1\n"));
    assert!(
        err.contains("slide: line 2: moves: unknown letter 'X' at column 2"),
        "{err}"
    );
    s.cmd().args(["moves", "reverse", "R"]).assert().code(2);
}

/// Single-tile moves of a short sequence: each letter once, or its count.
fn short_len(seq: &str) -> usize {
    let mut total = 0;
    for run in seq.split(|c: char| c.is_alphabetic()).skip(1) {
        total += if run.is_empty() {
            1
        } else {
            run.parse::<usize>().unwrap()
        };
    }
    total
}

// ---------------------------------------------------------------------------------------------------------------
// scramble --moves
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn scramble_moves_take_the_goal_to_each_board() {
    let s = Slide::new();
    // Up to 12 cells the sequences are optimal: as long as `slide solve` says.
    for (shape, rows, cols) in [("3x3", 3, 3), ("2x4", 2, 4), ("1x5", 1, 5)] {
        for n in NOTATIONS {
            let out = s.ok(
                &[
                    "scramble",
                    shape,
                    "--count",
                    "5",
                    "--seed",
                    "9",
                    "--notation",
                    n,
                    "--format",
                    "slash",
                ],
                "",
            );
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines.len(), 5);
            let boards: String = lines
                .iter()
                .map(|l| format!("{}\n", l.split('\t').next().unwrap()))
                .collect();
            let lengths = s.ok(&["solve", "--shape", shape], &boards);
            for (line, len) in lines.iter().zip(lengths.lines()) {
                let (board, seq) = line
                    .split_once('\t')
                    .unwrap_or_else(|| panic!("no tab: {line:?}"));
                let mut g = Grid::goal(rows, cols);
                g.play(n, seq);
                // A single row has no '/': its slash format is its JSON rows.
                let want = if rows == 1 {
                    format!("[[{}]]", g.slash().replace(' ', ","))
                } else {
                    g.slash()
                };
                assert_eq!(want, board, "{n}: {seq}");
                let stm = match n {
                    "tiles" => seq.split_whitespace().count(),
                    "short" => short_len(seq),
                    _ => seq.len(),
                };
                assert_eq!(
                    stm.to_string(),
                    len,
                    "{shape} {board}: {seq} is not optimal"
                );
            }
        }
    }
    // The default is short; --moves alone asks for it; --goal is the start.
    let out = s.ok(
        &[
            "scramble",
            "3x3",
            "--moves",
            "--seed",
            "4",
            "--goal",
            "0 1 2/3 4 5/6 7 8",
        ],
        "",
    );
    let (board, seq) = out.trim_end().split_once('\t').unwrap();
    let mut g = Grid::parse("0 1 2/3 4 5/6 7 8");
    g.play("short", seq);
    assert_eq!(g, Grid::parse(board));
    // Over 12 cells: fast mode's solution, inverted.
    let out = s.ok(
        &[
            "scramble",
            "4x4",
            "--count",
            "3",
            "--seed",
            "5",
            "--notation",
            "long",
        ],
        "",
    );
    for line in out.lines() {
        let (board, seq) = line.split_once('\t').unwrap();
        let mut g = Grid::goal(4, 4);
        g.play("long", seq);
        assert_eq!(g, Grid::parse(board), "{seq}");
    }
}
