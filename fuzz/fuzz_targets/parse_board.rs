//! Arbitrary bytes into the board parser, with and without a shape.
//!
//! Input layout: byte 0 picks the mode, bytes 1 and 2 give a shape (rows, cols) for `parse_with_shape`, the rest is
//! the text (invalid UTF-8 is replaced, as the CLI never hands the parser anything but a `str`).
//!
//! Properties:
//! - `Board::parse` and `Board::parse_with_shape` never panic, whatever the text and the shape;
//! - a board that parses is a permutation of `0..cells` with the blank where `blank()` says, of a shape with at least
//!   two cells and at most `MAX_CELLS`;
//! - its Display (JSON rows) parses back to the same board, with no shape and with its own shape, and so do the
//!   slash and flat forms built here;
//! - with a shape given, an accepted board has that shape, and a flat list parses with it as it parsed before;
//! - `Shape::from_str` never panics on the same text, and the solvability test answers for the board and its goal.

#![no_main]

use libfuzzer_sys::fuzz_target;
use slide::{Board, Shape};

fn check_board(b: &Board) {
    let shape = b.shape();
    let n = shape.cells();
    assert!(n >= 2 && n <= slide::MAX_CELLS, "shape {shape}");
    assert_eq!(b.tiles().len(), n);
    let mut seen = vec![false; n];
    for &t in b.tiles() {
        assert!((t as usize) < n, "tile {t} of {n} cells");
        assert!(
            !std::mem::replace(&mut seen[t as usize], true),
            "tile {t} twice"
        );
    }
    assert_eq!(b.tiles()[b.blank()], 0);

    // Display round trip.
    let text = b.to_string();
    let again =
        Board::parse(&text).unwrap_or_else(|e| panic!("{text:?} does not parse again: {e}"));
    assert_eq!(&again, b, "{text}");
    let again = Board::parse_with_shape(&text, Some(shape))
        .unwrap_or_else(|e| panic!("{text:?} with {shape}: {e}"));
    assert_eq!(&again, b);

    // The other formats, written here (small boards only: they are slower to build).
    if n <= 64 {
        let rows: Vec<String> = b
            .rows()
            .iter()
            .map(|r| {
                r.iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let slash = rows.join("/");
        if shape.rows() > 1 {
            assert_eq!(Board::parse(&slash).as_ref(), Ok(b), "{slash}");
        }
        let flat: String = b
            .tiles()
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(
            Board::parse_with_shape(&flat, Some(shape)).as_ref(),
            Ok(b),
            "{flat}"
        );
    }

    // Solvability answers (in O(cells)) and never panics.
    let goal = Board::goal(shape);
    let _ = b.is_solvable(&goal).expect("same shape");
    assert_eq!(goal.is_solvable(&goal), Ok(true));
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        let text = String::from_utf8_lossy(data);
        if let Ok(b) = Board::parse(&text) {
            check_board(&b);
        }
        return;
    }
    let (head, rest) = data.split_at(3);
    let text = String::from_utf8_lossy(rest);
    let _ = text.parse::<Shape>();

    let plain = Board::parse(&text);
    if let Ok(b) = &plain {
        check_board(b);
    }

    // A shape from the input: mostly small, sometimes large or invalid (0 rows, 1x1).
    let (rows, cols) = match head[0] % 4 {
        0 => ((head[1] % 9) as usize, (head[2] % 9) as usize),
        1 => (head[1] as usize, head[2] as usize),
        2 => (head[1] as usize * 97, head[2] as usize * 89),
        _ => (1 + (head[1] % 3) as usize, (head[2] as usize) << 16),
    };
    let Ok(shape) = Shape::new(rows, cols) else {
        return;
    };
    match Board::parse_with_shape(&text, Some(shape)) {
        Ok(b) => {
            // Rows must match the shape exactly; a flat list takes the shape given.
            assert_eq!(b.shape(), shape, "{text:?}");
            check_board(&b);
            if let Ok(p) = &plain {
                if p.shape() == shape {
                    assert_eq!(p, &b, "{text:?} parsed differently with {shape}");
                }
            }
        }
        Err(_) => {
            // Without a shape the text may still be a board, but then not one of this shape.
            if let Ok(p) = &plain {
                assert_ne!(
                    p.shape(),
                    shape,
                    "{text:?} parses as {shape} alone but not with --shape {shape}"
                );
            }
        }
    }
});
