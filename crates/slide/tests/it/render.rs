//! `slide::render` checked by decoding what it makes: PNG and GIF decoded with the `png` and `gif` crates (frame
//! counts, the colour of every tile and of the blank's cell in every position), SVG parsed as XML (each tile's
//! number once, the animation's last key frame on the board the moves end on), charts parsed with god's number.
//! Positions are replayed here by a small interpreter of tile moves, not by the library.

use slide::render::{self, Animation, Rgb, Scheme, Style, Theme};
use slide::{Board, Moves, Shape};

/// The layout written again (the reference): a margin of 0.08 cells round the board, the longer side `size`.
const MARGIN: f64 = 0.08;

/// Where to sample a tile's colour: its centre row, 0.42 of a cell left of its centre — inside the tile (whose
/// edge is 0.47 cells from the centre) and clear of its number (at most 0.4 cells from the centre).
fn sample_point(shape: Shape, size: u32, row: f64, col: f64) -> (usize, usize) {
    let u = f64::from(size) / (shape.rows().max(shape.cols()) as f64 + 2.0 * MARGIN);
    let x = (MARGIN + col + 0.5 - 0.42) * u;
    let y = (MARGIN + row + 0.5) * u;
    (x as usize, y as usize)
}

/// The centre of a cell, in pixels.
fn centre(shape: Shape, size: u32, cell: usize) -> (usize, usize) {
    let u = f64::from(size) / (shape.rows().max(shape.cols()) as f64 + 2.0 * MARGIN);
    let (r, c) = (cell / shape.cols(), cell % shape.cols());
    (
        ((MARGIN + c as f64 + 0.5) * u) as usize,
        ((MARGIN + r as f64 + 0.5) * u) as usize,
    )
}

/// An RGBA image.
struct Image {
    width: usize,
    height: usize,
    rgba: Vec<u8>,
}

impl Image {
    fn at(&self, (x, y): (usize, usize)) -> Rgb {
        assert!(x < self.width && y < self.height, "({x}, {y}) outside");
        let i = 4 * (y * self.width + x);
        Rgb(self.rgba[i], self.rgba[i + 1], self.rgba[i + 2])
    }
}

fn decode_png(bytes: &[u8]) -> Image {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    buf.truncate(info.buffer_size());
    Image {
        width: info.width as usize,
        height: info.height as usize,
        rgba: buf,
    }
}

/// Every frame of a GIF composited on the canvas (frames may cover part of it; disposal keeps the rest), with
/// its delay in hundredths of a second.
fn decode_gif(bytes: &[u8]) -> Vec<(Image, u16)> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(std::io::Cursor::new(bytes)).unwrap();
    let (w, h) = (usize::from(decoder.width()), usize::from(decoder.height()));
    let mut canvas = vec![0u8; 4 * w * h];
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!(frame.dispose, gif::DisposalMethod::Keep);
        let (fl, ft, fw) = (
            usize::from(frame.left),
            usize::from(frame.top),
            usize::from(frame.width),
        );
        for y in 0..usize::from(frame.height) {
            for x in 0..fw {
                let src = 4 * (y * fw + x);
                if frame.buffer[src + 3] == 0 {
                    continue;
                }
                let dst = 4 * ((ft + y) * w + fl + x);
                canvas[dst..dst + 4].copy_from_slice(&frame.buffer[src..src + 4]);
            }
        }
        frames.push((
            Image {
                width: w,
                height: h,
                rgba: canvas.clone(),
            },
            frame.delay,
        ));
    }
    frames
}

/// The fringe groups written again: peel the top row of what is left, then its left column, and so on.
fn reference_groups(rows: usize, cols: usize) -> Vec<usize> {
    let mut group = vec![usize::MAX; rows * cols];
    let (mut top, mut left, mut g) = (0, 0, 0);
    while top < rows && left < cols {
        for c in left..cols {
            group[top * cols + c] = g;
        }
        top += 1;
        g += 1;
        if top == rows {
            break;
        }
        for r in top..rows {
            group[r * cols + left] = g;
        }
        left += 1;
        g += 1;
    }
    group
}

/// Checks that every tile of `tiles` (row-major, 0 the blank) has its scheme's colour, and the blank's cell the
/// background.
fn check_position(
    img: &Image,
    shape: Shape,
    size: u32,
    tiles: &[u32],
    goal: &Board,
    style: &Style,
) {
    let fills = style.fills(goal);
    for (cell, &t) in tiles.iter().enumerate() {
        let (r, c) = (cell / shape.cols(), cell % shape.cols());
        if t == 0 {
            assert_eq!(
                img.at(centre(shape, size, cell)),
                style.background(),
                "blank"
            );
            assert_eq!(
                img.at(sample_point(shape, size, r as f64, c as f64)),
                style.background()
            );
        } else {
            let goal_cell = goal.tiles().iter().position(|&g| g == t).unwrap();
            assert_eq!(fills[t as usize], style.fill(goal, goal_cell));
            assert_eq!(
                img.at(sample_point(shape, size, r as f64, c as f64)),
                fills[t as usize],
                "tile {t} at cell {cell}"
            );
        }
    }
}

/// Plays tiles (each the tile that slides into the blank) on row-major cells: the reference interpreter.
fn play(cells: &mut [u32], cols: usize, tile: u32) {
    let b = cells.iter().position(|&t| t == 0).unwrap();
    let p = cells.iter().position(|&t| t == tile).unwrap();
    let (br, bc, pr, pc) = (b / cols, b % cols, p / cols, p % cols);
    assert_eq!(
        br.abs_diff(pr) + bc.abs_diff(pc),
        1,
        "tile {tile} is not next to the blank"
    );
    cells.swap(b, p);
}

fn styles() -> Vec<Style> {
    let mut v = Vec::new();
    for scheme in [Scheme::Plain, Scheme::Fringe] {
        for theme in [Theme::Light, Theme::Dark] {
            v.push(Style {
                size: 240,
                scheme,
                theme,
            });
        }
    }
    v
}

#[test]
fn fringe_groups_peel_rows_then_columns() {
    for (rows, cols) in [(2, 2), (3, 3), (4, 4), (3, 5), (5, 3), (2, 6), (6, 6)] {
        let shape = Shape::new(rows, cols).unwrap();
        let want = reference_groups(rows, cols);
        let got: Vec<usize> = (0..rows * cols)
            .map(|c| render::fringe_group(shape, c))
            .collect();
        assert_eq!(got, want, "{rows}x{cols}");
    }
    // 4 × 4: the first row, the first column, the second row, the second column, then the last block's row and
    // column.
    let style = Style {
        scheme: Scheme::Fringe,
        ..Style::default()
    };
    let goal = Board::goal(Shape::new(4, 4).unwrap());
    let fills = style.fills(&goal);
    assert!([2, 3, 4].iter().all(|&t| fills[t] == fills[1]));
    assert!([9, 13].iter().all(|&t| fills[t] == fills[5]));
    assert_ne!(fills[1], fills[5]);
    assert_eq!(fills[7], fills[6]);
    assert_ne!(fills[6], fills[5]);
    // Groups of one board (fewer than the palette's ten) all differ.
    let groups = reference_groups(4, 4);
    for a in 1..16usize {
        for b in 1..16usize {
            let (ga, gb) = (groups[a - 1], groups[b - 1]);
            assert_eq!(fills[a] == fills[b], ga == gb, "tiles {a} and {b}");
        }
    }
}

#[test]
fn png_tiles_have_their_scheme_colours() {
    for text in [
        "4 1 2/5 0 3",
        "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15",
        "3 1/2 0/5 4",
    ] {
        let board = Board::parse(text).unwrap();
        let goal = Board::goal(board.shape());
        for style in styles() {
            let img = decode_png(&render::png(&board, &goal, &style).unwrap());
            let (w, h) = render::dimensions(&board, &style).unwrap();
            assert_eq!((img.width, img.height), (w as usize, h as usize));
            assert_eq!(img.width.max(img.height), style.size as usize);
            check_position(
                &img,
                board.shape(),
                style.size,
                board.tiles(),
                &goal,
                &style,
            );
            // The corner is the background.
            assert_eq!(img.at((1, 1)), style.background());
        }
    }
    // Plain and fringe differ; light and dark differ.
    let b = Board::parse("4 1 2/5 0 3").unwrap();
    let g = Board::goal(b.shape());
    let all: Vec<Vec<u8>> = styles()
        .iter()
        .map(|s| render::png(&b, &g, s).unwrap())
        .collect();
    for i in 0..all.len() {
        for j in i + 1..all.len() {
            assert_ne!(all[i], all[j]);
        }
    }
    // Reproducible: the same input gives the same bytes.
    assert_eq!(render::png(&b, &g, &styles()[1]).unwrap(), all[1]);
}

/// Each tile's number appears once, as the text of its own group, and the blank has none.
fn check_svg_numbers(svg: &str, board: &Board) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let texts: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect();
    let cells = board.shape().cells() as u32;
    assert_eq!(texts.len(), cells as usize - 1);
    for t in 1..cells {
        assert_eq!(
            texts.iter().filter(|x| **x == t.to_string()).count(),
            1,
            "tile {t}"
        );
    }
    assert!(!texts.iter().any(|x| x == "0"));
}

#[test]
fn fringe_colours_follow_a_custom_goal() {
    // Blank first: the goal's first row is `0 1 2 3`, so tile 1 shares the first row's colour with 2 and 3, and
    // tile 4 (below the blank) is the first column's.
    let shape = Shape::new(4, 4).unwrap();
    let goal = Board::goal_blank_first(shape);
    let board = Board::parse("4 1 2 3/0 5 6 7/8 9 10 11/12 13 14 15").unwrap();
    let style = Style {
        size: 200,
        scheme: Scheme::Fringe,
        theme: Theme::Light,
    };
    let fills = style.fills(&goal);
    let groups = reference_groups(4, 4);
    for a in 1..16u32 {
        for b in 1..16u32 {
            let ga = groups[goal.tiles().iter().position(|&t| t == a).unwrap()];
            let gb = groups[goal.tiles().iter().position(|&t| t == b).unwrap()];
            assert_eq!(fills[a as usize] == fills[b as usize], ga == gb, "{a} {b}");
        }
    }
    assert_eq!(fills[1], fills[3]);
    assert_ne!(fills[1], fills[4]);
    let img = decode_png(&render::png(&board, &goal, &style).unwrap());
    check_position(&img, shape, style.size, board.tiles(), &goal, &style);
}

#[test]
fn svg_parses_and_holds_each_number_once() {
    for text in ["4 1 2/5 0 3", "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"] {
        let board = Board::parse(text).unwrap();
        let goal = Board::goal(board.shape());
        for style in styles() {
            let svg = render::svg(&board, &goal, &style).unwrap();
            check_svg_numbers(&svg, &board);
            let doc = roxmltree::Document::parse(&svg).unwrap();
            // Each tile's rectangle has its scheme's fill.
            let fills = style.fills(&goal);
            for g in doc
                .descendants()
                .filter(|n| n.attribute("class") == Some("tile"))
            {
                let t: usize = g.attribute("data-tile").unwrap().parse().unwrap();
                let rect = g.children().find(|n| n.has_tag_name("rect")).unwrap();
                assert_eq!(rect.attribute("fill").unwrap(), fills[t].to_string());
            }
        }
    }
}

/// An optimal 2 × 3 solution and a longer walk, with the positions replayed here.
fn sequences() -> Vec<(Board, Vec<u32>)> {
    vec![
        (Board::parse("4 1 2/5 0 3").unwrap(), vec![5, 4, 1, 2, 3]),
        (
            Board::parse("1 2 3/4 5 6/7 8 0").unwrap(),
            vec![6, 3, 2, 1, 4, 7, 8, 5, 3, 6],
        ),
    ]
}

#[test]
fn gif_has_a_frame_per_position_with_its_colours() {
    for (start, tiles) in sequences() {
        let goal = Board::goal(start.shape());
        let moves = Moves::from_tiles(&start, &tiles).unwrap();
        let style = Style {
            size: 200,
            scheme: Scheme::Fringe,
            theme: Theme::Light,
        };
        for inbetweens in [0u32, 3] {
            let animation = Animation {
                tps: 8.0,
                inbetweens,
            };
            let bytes = render::gif(&start, &moves, &goal, &style, &animation).unwrap();
            let frames = decode_gif(&bytes);
            let k = inbetweens as usize; // 8 tiles per second leaves room for 3 in-between frames
            assert_eq!(animation.gif_inbetweens() as usize, k);
            assert_eq!(frames.len(), tiles.len() + 1 + tiles.len() * k);
            assert_eq!(frames.len() as u64, animation.gif_frames(tiles.len()));
            // Every position's frame, replayed here.
            let mut cells = start.tiles().to_vec();
            let cols = start.shape().cols();
            for i in 0..=tiles.len() {
                let (img, _) = &frames[i * (k + 1)];
                check_position(img, start.shape(), style.size, &cells, &goal, &style);
                if i < tiles.len() {
                    // Half-way through the move, the moving tile is half-way between its cells.
                    if k == 3 {
                        let from = cells.iter().position(|&t| t == tiles[i]).unwrap();
                        let to = cells.iter().position(|&t| t == 0).unwrap();
                        let (fr, fc) = ((from / cols) as f64, (from % cols) as f64);
                        let (tr, tc) = ((to / cols) as f64, (to % cols) as f64);
                        let (img, _) = &frames[i * (k + 1) + 2];
                        let p = sample_point(
                            start.shape(),
                            style.size,
                            (fr + tr) / 2.0,
                            (fc + tc) / 2.0,
                        );
                        let goal_cell = goal.tiles().iter().position(|&g| g == tiles[i]).unwrap();
                        assert_eq!(img.at(p), style.fill(&goal, goal_cell), "move {}", i + 1);
                    }
                    play(&mut cells, cols, tiles[i]);
                }
            }
            assert_eq!(cells, moves.apply(&start).unwrap().tiles());
            // The delays add up to the animation's length (in hundredths of a second, each rounded).
            let total: u32 = frames.iter().map(|f| u32::from(f.1)).sum();
            let want = (animation.duration(tiles.len()) * 100.0).round() as u32;
            assert!(total.abs_diff(want) <= 1, "{total} vs {want}");
        }
    }
}

#[test]
fn animated_svg_ends_where_the_moves_end() {
    for (start, tiles) in sequences() {
        let goal = Board::goal(start.shape());
        let moves = Moves::from_tiles(&start, &tiles).unwrap();
        let style = Style::default();
        let animation = Animation::default();
        let svg = render::animated_svg(&start, &moves, &goal, &style, &animation).unwrap();
        check_svg_numbers(&svg, &start);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let shape = start.shape();
        let u = f64::from(style.size) / (shape.rows().max(shape.cols()) as f64 + 2.0 * MARGIN);
        let origin = |cell: usize| {
            (
                (MARGIN + (cell % shape.cols()) as f64) * u,
                (MARGIN + (cell / shape.cols()) as f64) * u,
            )
        };
        // The end, replayed here.
        let mut end = start.tiles().to_vec();
        for &t in &tiles {
            play(&mut end, shape.cols(), t);
        }
        let mut animated = 0;
        for g in doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("tile"))
        {
            let t: u32 = g.attribute("data-tile").unwrap().parse().unwrap();
            let pair = |s: &str| -> (f64, f64) {
                let v: Vec<f64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();
                (v[0], v[1])
            };
            let last = match g.children().find(|n| n.has_tag_name("animateTransform")) {
                Some(a) => {
                    animated += 1;
                    let values: Vec<&str> = a.attribute("values").unwrap().split(';').collect();
                    let times: Vec<f64> = a
                        .attribute("keyTimes")
                        .unwrap()
                        .split(';')
                        .map(|x| x.parse().unwrap())
                        .collect();
                    assert_eq!(values.len(), times.len());
                    assert!(times.windows(2).all(|w| w[0] <= w[1]));
                    assert_eq!((times[0], *times.last().unwrap()), (0.0, 1.0));
                    let dur: f64 = a
                        .attribute("dur")
                        .unwrap()
                        .trim_end_matches('s')
                        .parse()
                        .unwrap();
                    assert!((dur - animation.duration(tiles.len())).abs() < 1e-3);
                    pair(values.last().unwrap())
                }
                None => {
                    let tr = g.attribute("transform").unwrap();
                    pair(&tr["translate(".len()..tr.len() - 1])
                }
            };
            let cell = end.iter().position(|&x| x == t).unwrap();
            let want = origin(cell);
            assert!(
                (last.0 - want.0).abs() < 0.01 && (last.1 - want.1).abs() < 0.01,
                "tile {t} ends at {last:?}, not cell {cell} {want:?}"
            );
        }
        let moved: std::collections::HashSet<u32> = tiles.iter().copied().collect();
        assert_eq!(animated, moved.len());
    }
}

#[test]
fn bad_input_is_refused_with_what_is_wrong() {
    let start = Board::parse("4 1 2/5 0 3").unwrap();
    let goal = Board::goal(start.shape());
    let style = Style::default();
    let animation = Animation::default();
    // An illegal move, named by its position.
    let moves = slide::notation::read("LLU", false)
        .unwrap()
        .resolve(&start)
        .unwrap();
    for e in [
        render::gif(&start, &moves, &goal, &style, &animation).unwrap_err(),
        render::animated_svg(&start, &moves, &goal, &style, &animation).unwrap_err(),
    ] {
        assert!(
            matches!(
                e,
                slide::Error::Parse(slide::ParseError::BadMove { index: 2, .. })
            ),
            "{e}"
        );
    }
    // A GIF over the limit, refused before drawing, the limit stated.
    let walk = Moves::new(
        [slide::Direction::Left, slide::Direction::Right]
            .iter()
            .cycle()
            .take(2000)
            .copied()
            .collect(),
    );
    let big = Style {
        size: 1000,
        ..Style::default()
    };
    let e = render::gif(&start, &walk, &goal, &big, &animation).unwrap_err();
    assert!(matches!(
        e,
        slide::Error::Render(slide::RenderError::PictureTooLarge { .. })
    ));
    assert!(e.to_string().contains("100000000"), "{e}");
    // A GIF of a large board: the drawing work (frames × cells) is bounded too.
    let wide = Board::goal(Shape::new(100, 100).unwrap());
    let tiny = Style {
        size: 16,
        ..Style::default()
    };
    let e = render::gif(&wide, &walk, &wide, &tiny, &animation).unwrap_err();
    assert!(matches!(
        e,
        slide::Error::Render(slide::RenderError::PictureTooLarge { .. })
    ));
    assert!(
        e.to_string().contains("limit of 10000000 (frames × cells)"),
        "{e}"
    );
    // Sizes, speeds and in-between frames outside their ranges.
    for size in [0, 15, 4097] {
        let e = render::svg(&start, &goal, &Style { size, ..style }).unwrap_err();
        assert!(e.to_string().contains("16 to 4096"), "{e}");
    }
    for tps in [0.0, 0.05, 50.5, f64::NAN, f64::INFINITY] {
        let a = Animation { tps, ..animation };
        assert!(render::gif(&start, &walk, &goal, &style, &a).is_err());
        assert!(render::animated_svg(&start, &walk, &goal, &style, &a).is_err());
    }
    let a = Animation {
        inbetweens: 11,
        ..animation
    };
    assert!(render::gif(&start, &walk, &goal, &style, &a).is_err());
    // A goal of another shape.
    let other = Board::goal(Shape::new(3, 3).unwrap());
    assert!(render::svg(&start, &other, &style).is_err());
    // Too many cells.
    let huge = Board::goal(Shape::new(101, 100).unwrap());
    let e = render::svg(&huge, &huge, &style).unwrap_err();
    assert!(e.to_string().contains("10000"), "{e}");
}

#[test]
fn fast_animations_drop_in_between_frames() {
    let a = |tps| Animation {
        tps,
        inbetweens: 10,
    };
    // A move of 1/8 s holds 6 frames of 2/100 s: 5 in-between frames.
    assert_eq!(a(8.0).gif_inbetweens(), 5);
    assert_eq!(a(50.0).gif_inbetweens(), 0);
    assert_eq!(a(1.0).gif_inbetweens(), 10);
    assert_eq!(a(50.0).gif_frames(7), 8);
}

#[test]
fn distance_chart_marks_gods_number() {
    for (rows, cols, metric) in [
        (2, 3, slide::Metric::Stm),
        (3, 3, slide::Metric::Stm),
        (2, 3, slide::Metric::Mtm),
    ] {
        let shape = Shape::new(rows, cols).unwrap();
        let goal: Vec<u8> = slide_reference::goal(rows * cols);
        let m = match metric {
            slide::Metric::Stm => slide_reference::Metric::Stm,
            _ => slide_reference::Metric::Mtm,
        };
        let reference = slide_reference::Reference::new(rows, cols, &goal, m);
        let svg = render::plot::distance_chart(shape, metric, reference.histogram()).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let texts: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or("").trim().to_string())
            .collect();
        let god = format!("god's number: {}", reference.diameter());
        assert!(texts.contains(&god), "{god} not in {texts:?}");
        let name = match metric {
            slide::Metric::Stm => "STM",
            _ => "MTM",
        };
        assert!(
            texts
                .iter()
                .any(|t| t.contains(&format!("{rows} × {cols}")) && t.contains(name)),
            "{texts:?}"
        );
    }
    assert!(
        render::plot::distance_chart(Shape::new(2, 2).unwrap(), slide::Metric::Stm, &[]).is_err()
    );
}

#[test]
fn bench_chart_parses() {
    let points: Vec<render::plot::BenchPoint> = (1..=5)
        .map(|id| render::plot::BenchPoint {
            id,
            nodes: 10u64.pow(id),
            seconds: f64::from(id) * 0.01,
        })
        .collect();
    let svg = render::plot::bench_chart("korf100", &points).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect();
    assert!(texts.contains(&"korf100"), "{texts:?}");
    assert!(
        texts.contains(&"nodes") && texts.contains(&"seconds"),
        "{texts:?}"
    );
    // One circle per instance and panel.
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("circle"))
            .count(),
        10
    );
    assert!(render::plot::bench_chart("x", &[]).is_err());
}

#[test]
fn timed_gif_shows_each_position_from_its_move_time() {
    let start = Board::parse("4 1 2/5 0 3").unwrap();
    let goal = Board::goal(start.shape());
    let moves = Moves::from_tiles(&start, &[5, 4, 1, 2, 3]).unwrap();
    let times = [0, 180, 180, 950, 1_204];
    let style = Style {
        size: 64,
        ..Style::default()
    };
    let bytes = render::gif_timed(&start, &moves, &goal, &style, &times).unwrap();
    let frames = decode_gif(&bytes);
    assert_eq!(frames.len(), times.len() + 1, "one frame per position");
    // Frame j ends at the time of move j + 1 (the last one HOLD_END after the last move), in hundredths of a
    // second after the start is held HOLD_START; a frame lasts at least 2/100 s, so the 0 ms gap takes 2.
    let delays: Vec<u16> = frames.iter().map(|f| f.1).collect();
    assert_eq!(delays, [50, 18, 2, 75, 25, 100]);
    // The frames are the positions a steady GIF without in-between frames shows (the same palette).
    let steady = Animation {
        inbetweens: 0,
        ..Animation::default()
    };
    let same = decode_gif(&render::gif(&start, &moves, &goal, &style, &steady).unwrap());
    assert_eq!(same.len(), frames.len());
    for (i, (a, b)) in frames.iter().zip(&same).enumerate() {
        assert!(a.0.rgba == b.0.rgba, "frame {i} differs");
    }
    // Wrong counts, decreasing times and times out of range are refused, naming the times.
    for bad in [&[0, 1][..], &[0, 5, 4, 6, 7], &[0, 1, 2, 3, 86_400_001]] {
        let e = render::gif_timed(&start, &moves, &goal, &style, bad).unwrap_err();
        assert!(e.to_string().contains("times_ms"), "{e}");
    }
}
