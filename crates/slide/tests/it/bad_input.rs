//! The bad-input catalogue (`tests/data/bad_input.json`, through `catalogue`) read by the library: every malformed
//! board that is text is refused by `Board::parse_with_shape` (with the board's shape, if any) with the error the
//! catalogue names, never a panic.

use slide::{Board, Shape};

use crate::catalogue;

#[test]
fn each_bad_board_is_refused_by_the_parser() {
    let mut tried = 0;
    for b in catalogue::boards() {
        let (Some(words), Some(text)) = (&b.lib, b.utf8()) else {
            continue;
        };
        let shape = b.shape.as_ref().map(|s| {
            s.parse::<Shape>()
                .unwrap_or_else(|e| panic!("{}: shape {s}: {e}", b.name))
        });
        let e = match Board::parse_with_shape(text, shape) {
            Ok(board) => panic!("{}: read as {board:?}", b.name),
            Err(e) => e.to_string(),
        };
        assert!(
            catalogue::holds(&e, words),
            "{}: {e:?} lacks {words:?}",
            b.name
        );
        tried += 1;
    }
    assert!(tried >= 65, "{tried}");
}
