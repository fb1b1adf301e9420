//! `slide render`, `slide stats --plot` and `slide bench --plot` end to end: the files are decoded (PNG and GIF
//! with the `png` and `gif` crates, SVG parsed as XML) and checked against positions replayed here and distances
//! from the reference BFS (`slide-reference`); bad input gets its error and exit status.

use assert_cmd::Command;
use slide::render::{Scheme, Style, Theme};

use crate::support::{decode_gif, decode_png, play};

fn slide(cache: &std::path::Path) -> Command {
    crate::support::command(cache)
}

/// Runs; returns (status, stdout bytes, stderr).
fn run(dir: &std::path::Path, args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = slide(dir).current_dir(dir).args(args).output().unwrap();
    (
        out.status.code().expect("exited"),
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The layout written again: a margin of 0.08 cells, the longer side `size`; a tile's colour is sampled on its
/// centre row 0.42 of a cell left of its centre (inside the tile, clear of its number).
fn sample(rows: usize, cols: usize, size: u32, cell: usize, centre: bool) -> (usize, usize) {
    let u = f64::from(size) / (rows.max(cols) as f64 + 0.16);
    let (r, c) = ((cell / cols) as f64, (cell % cols) as f64);
    let dx = if centre { 0.0 } else { 0.42 };
    (
        ((0.08 + c + 0.5 - dx) * u) as usize,
        ((0.08 + r + 0.5) * u) as usize,
    )
}

fn rgb(rgba: &[u8], width: usize, (x, y): (usize, usize)) -> slide::render::Rgb {
    let i = 4 * (y * width + x);
    slide::render::Rgb(rgba[i], rgba[i + 1], rgba[i + 2])
}

/// Checks each tile's colour and the blank's background on an RGBA picture of `cells` (row-major, 0 the blank).
#[allow(clippy::too_many_arguments)]
fn check_colours(
    rgba: &[u8],
    width: usize,
    rows: usize,
    cols: usize,
    size: u32,
    cells: &[u32],
    style: &Style,
) {
    let goal = slide::Board::goal(slide::Shape::new(rows, cols).unwrap());
    let fills = style.fills(&goal);
    for (cell, &t) in cells.iter().enumerate() {
        let want = if t == 0 {
            assert_eq!(
                rgb(rgba, width, sample(rows, cols, size, cell, true)),
                style.background()
            );
            style.background()
        } else {
            fills[t as usize]
        };
        assert_eq!(
            rgb(rgba, width, sample(rows, cols, size, cell, false)),
            want,
            "tile {t} at cell {cell}"
        );
    }
}

/// The composited frames of a GIF (RGBA), with its width.
fn gif_frames(bytes: &[u8]) -> (usize, Vec<Vec<u8>>) {
    let (w, _, frames) = decode_gif(bytes);
    (w as usize, frames)
}

fn texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect()
}

#[test]
fn svg_to_standard_output_and_png_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = run(dir.path(), &["render", "4 1 2/5 0 3"]);
    assert_eq!(code, 0, "{err}");
    let t = texts(&String::from_utf8(out).unwrap());
    let mut numbers: Vec<u32> = t.iter().map(|x| x.parse().unwrap()).collect();
    numbers.sort();
    assert_eq!(numbers, [1, 2, 3, 4, 5]);

    let (code, _, err) = run(
        dir.path(),
        &[
            "render",
            "[[1,2,3,4],[5,6,7,8],[9,10,11,12],[13,14,0,15]]",
            "-o",
            "b.png",
            "--size",
            "300",
            "--scheme",
            "fringe",
            "--theme",
            "dark",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(dir.path().join("b.png")).unwrap();
    let (width, height, buf) = decode_png(&bytes);
    assert_eq!((width, height), (300, 300));
    let style = Style {
        size: 300,
        scheme: Scheme::Fringe,
        theme: Theme::Dark,
    };
    let cells: Vec<u32> = vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15];
    check_colours(&buf, 300, 4, 4, 300, &cells, &style);
}

#[test]
fn solutions_animate_as_gif_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let start: Vec<u32> = vec![4, 1, 2, 5, 0, 3];
    let goal: Vec<u8> = slide_reference::goal(6);
    let reference = slide_reference::Reference::new(2, 3, &goal, slide_reference::Metric::Stm);
    let s8: Vec<u8> = start.iter().map(|&t| t as u8).collect();
    let optimum = reference.distance(&s8).unwrap() as usize;
    // The same solution written three ways: --solve, tile letters, the blank's letters.
    for args in [
        &["--solve"][..],
        &["--moves", "RDLLU"],
        &["--moves", "lurrd", "--blank"],
        &["--moves", "5 4 1 2 3"],
    ] {
        let mut all = vec!["render", "4 1 2/5 0 3", "-o", "s.gif", "--size", "150"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--inbetweens", "0"]);
        let (code, _, err) = run(dir.path(), &all);
        assert_eq!(code, 0, "{args:?}: {err}");
        let (w, frames) = gif_frames(&std::fs::read(dir.path().join("s.gif")).unwrap());
        assert_eq!(frames.len(), optimum + 1, "{args:?}: a frame per position");
        let style = Style {
            size: 150,
            ..Style::default()
        };
        check_colours(&frames[0], w, 2, 3, 150, &start, &style);
        let end: Vec<u32> = goal.iter().map(|&t| u32::from(t)).collect();
        check_colours(frames.last().unwrap(), w, 2, 3, 150, &end, &style);
    }
    // With in-between frames (3 by default at 8 tiles per second): 3 more per move; each position where it was.
    let (code, _, err) = run(
        dir.path(),
        &[
            "render",
            "4 1 2/5 0 3",
            "--moves",
            "5 4",
            "-o",
            "m.gif",
            "--size",
            "150",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (w, frames) = gif_frames(&std::fs::read(dir.path().join("m.gif")).unwrap());
    assert_eq!(frames.len(), 3 + 2 * 3);
    let mut cells = start.clone();
    let style = Style {
        size: 150,
        ..Style::default()
    };
    for (i, tile) in [None, Some(5), Some(4)].into_iter().enumerate() {
        if let Some(t) = tile {
            play(&mut cells, 3, t);
        }
        check_colours(&frames[4 * i], w, 2, 3, 150, &cells, &style);
    }
    // Animated SVG to standard output.
    let (code, out, err) = run(
        dir.path(),
        &["render", "4 1 2/5 0 3", "--solve", "--animate"],
    );
    assert_eq!(code, 0, "{err}");
    let svg = String::from_utf8(out).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("animateTransform"))
            .count(),
        5
    );
    assert_eq!(texts(&svg).len(), 5);
}

#[test]
fn bad_input_gets_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], i32, &str)] = &[
        (&["render", "1 2 3/5 4 0", "--solve", "-o", "x.gif"], 1, "cannot be reached"),
        (&["render", "4 1 2/5 0 3", "--moves", "RLU", "-o", "x.gif"], 1, "move 3"),
        (&["render", "4 1 2/5 0 3", "--moves", "5 5 9", "-o", "x.gif"], 1, "move 3"),
        (&["render", "4 1 2/5 0 3", "--moves", "RX", "--animate"], 1, "column 2"),
        (&["render", "4 1 2/5 0 3", "-o", "x.bmp"], 1, "unknown extension .bmp"),
        (&["render", "4 1 2/5 0 3", "-o", "x.gif"], 1, "a GIF is an animation"),
        (&["render", "4 1 2/5 0 3", "--solve", "-o", "x.png"], 1, "an animation is written"),
        (&["render", "4 1 2/5 0 3", "--solve"], 1, "an animation is written"),
        (&["render", "4 1 2/5 0 3", "--animate"], 2, "--animate needs"),
        (&["render", "4 1 2/5 5 3"], 1, "duplicate value 5"),
        (&["render", "4 1 2/5 0 3", "--size", "4097"], 2, "--size"),
        (&["render", "4 1 2/5 0 3", "--tps", "0"], 2, "--tps"),
        (&["render", "4 1 2/5 0 3", "--scheme", "rainbow"], 2, "--scheme"),
        (
            &["render", "[[1,2,3,4,5,6],[7,8,9,10,11,12],[13,14,15,16,17,18],[19,20,21,22,23,24],[25,26,27,28,29,0]]",
              "--solve", "--animate"][..],
            1,
            "at most 25 cells",
        ),
    ];
    for (args, code, says) in cases {
        let (got, _, err) = run(dir.path(), args);
        assert_eq!(got, *code, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // Flat lists take --shape; a single row solves at any length.
    let row: Vec<String> = (1..40).map(|t| t.to_string()).chain(["0".into()]).collect();
    let (code, out, err) = run(
        dir.path(),
        &[
            "render",
            &row.join(" "),
            "--shape",
            "1x40",
            "--moves",
            "RR",
            "--animate",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(texts(&String::from_utf8(out).unwrap()).len(), 39);
    let start: Vec<String> = (1..38)
        .map(|t| t.to_string())
        .chain(["0", "38", "39"].map(String::from))
        .collect();
    let (code, out, err) = run(
        dir.path(),
        &[
            "render",
            &start.join(" "),
            "--shape",
            "1x40",
            "--solve",
            "--animate",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let svg = String::from_utf8(out).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("animateTransform"))
            .count(),
        2
    );
    // A GIF over the size limit: refused at once, the limit stated.
    let long = "LR".repeat(100);
    let (code, _, err) = run(
        dir.path(),
        &[
            "render",
            "4 1 2/5 0 3",
            "--moves",
            &long,
            "--size",
            "4096",
            "-o",
            "big.gif",
        ],
    );
    assert_eq!(code, 1);
    assert!(err.contains("more than the limit of 100000000"), "{err}");
    assert!(!dir.path().join("big.gif").exists());
}

#[test]
fn stats_plot_marks_gods_number_in_either_metric() {
    let dir = tempfile::tempdir().unwrap();
    let goal: Vec<u8> = slide_reference::goal(6);
    for (metric, name, m) in [
        ("stm", "STM", slide_reference::Metric::Stm),
        ("mtm", "MTM", slide_reference::Metric::Mtm),
    ] {
        let reference = slide_reference::Reference::new(2, 3, &goal, m);
        let (code, out, err) = run(
            dir.path(),
            &["stats", "2x3", "--metric", metric, "--plot", "p.svg"],
        );
        assert_eq!(code, 0, "{err}");
        let god = reference.diameter();
        assert!(String::from_utf8(out)
            .unwrap()
            .contains(&format!("god's number: {god}")));
        let t = texts(&std::fs::read_to_string(dir.path().join("p.svg")).unwrap());
        assert!(t.contains(&format!("god's number: {god}")), "{t:?}");
        assert!(
            t.iter().any(|x| x.starts_with("2 × 3") && x.contains(name)),
            "{t:?}"
        );
    }
}

#[test]
fn bench_plot_has_both_panels() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set.txt");
    // Two instances towards the blank-first goal: one and two moves.
    std::fs::write(&set, "1 1 0 1 0 2 3 4 5 6 7 8\n7 2 0 1 2 0 3 4 5 6 7 8\n").unwrap();
    let (code, out, err) = run(
        dir.path(),
        &[
            "--quiet",
            "bench",
            set.to_str().unwrap(),
            "--heuristic",
            "md",
            "--plot",
            "b.svg",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(String::from_utf8(out).unwrap().contains("wrong: 0"));
    let svg = std::fs::read_to_string(dir.path().join("b.svg")).unwrap();
    let t = texts(&svg);
    assert!(
        t.iter()
            .any(|x| x.contains("nodes and seconds per instance")),
        "{t:?}"
    );
    assert!(t.contains(&"nodes".to_string()) && t.contains(&"seconds".to_string()));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("circle"))
            .count(),
        4
    );
}

/// Splits a shell line into words: single quotes group, nothing else is special.
fn words(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for ch in line.chars() {
        match ch {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

/// The user guide's `slide render` commands (docs/guide.md) run one by one: each succeeds and writes a file that
/// decodes. (The guide's console examples are run by `examples.rs`; these write files, so they are run here.)
#[test]
fn guide_render_commands_work() {
    let guide =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/guide.md"))
            .unwrap();
    let section = guide
        .split("\n## `slide render`\n")
        .nth(1)
        .expect("the guide has a `slide render` section");
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut ran = 0;
    for line in block.lines() {
        let line = line.split(" # ").next().unwrap().trim();
        let (command, redirect) = match line.split_once(" > ") {
            Some((c, file)) => (c, Some(file.trim())),
            None => (line, None),
        };
        let mut w = words(command);
        assert_eq!(w.remove(0), "slide", "{line}");
        let args: Vec<&str> = w.iter().map(String::as_str).collect();
        let (code, out, err) = run(dir.path(), &args);
        assert_eq!(code, 0, "guide: {line}: {err}");
        let file = match redirect {
            Some(f) => {
                std::fs::write(dir.path().join(f), &out).unwrap();
                f.to_string()
            }
            None => {
                let i = w
                    .iter()
                    .position(|a| a == "-o" || a == "--plot")
                    .expect("a file");
                w[i + 1].clone()
            }
        };
        let bytes = std::fs::read(dir.path().join(&file)).unwrap();
        if file.ends_with(".png") {
            png::Decoder::new(std::io::Cursor::new(bytes))
                .read_info()
                .unwrap();
        } else if file.ends_with(".gif") {
            assert!(gif_frames(&bytes).1.len() > 1);
        } else {
            roxmltree::Document::parse(std::str::from_utf8(&bytes).unwrap()).unwrap();
        }
        ran += 1;
    }
    assert_eq!(ran, 4);
}
