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

#[test]
fn each_bad_option_is_refused_with_the_catalogues_sentence() {
    use slide::SolveOptions;
    let mut tried = 0;
    for o in catalogue::options() {
        let e = match o.option.as_str() {
            "timeout" => SolveOptions::builder()
                .timeout_secs(o.text.parse().unwrap())
                .map(|_| ()),
            "weight" => SolveOptions::builder()
                .weight(o.text.parse().unwrap())
                .map(|_| ()),
            "max_nodes" => SolveOptions::check_max_nodes(o.text.parse().unwrap()).map(|_| ()),
            "threads" => SolveOptions::check_threads(o.text.parse().unwrap()).map(|_| ()),
            "max_memory" => SolveOptions::check_max_memory_mb(o.text.parse().unwrap()).map(|_| ()),
            other => panic!("{}: no option {other}", o.name),
        }
        .expect_err(&o.name);
        assert_eq!(e.option, o.option, "{}", o.name);
        assert_eq!(e.reason(), o.error, "{}", o.name);
        // Through `?` it is the library's error, with the same words.
        let lib: slide::Error = e.clone().into();
        assert_eq!(lib.to_string(), format!("{}: {}", o.option, o.error));
        tried += 1;
    }
    assert!(tried >= 12, "{tried}");
}

#[test]
fn each_bad_choice_is_refused_with_the_catalogues_sentence() {
    use slide::{HeuristicChoice, Method, Metric};
    let mut tried = 0;
    for c in catalogue::choices() {
        let e = match c.option.as_str() {
            "heuristic" => c.text.parse::<HeuristicChoice>().map(|_| ()),
            "method" => c.text.parse::<Method>().map(|_| ()),
            "metric" => c.text.parse::<Metric>().map(|_| ()),
            other => panic!("{}: no option {other}", c.name),
        }
        .expect_err(&c.name);
        assert_eq!(
            e.to_string(),
            format!("{}: {}", c.option, c.error),
            "{}",
            c.name
        );
        tried += 1;
    }
    assert!(tried >= 3, "{tried}");
}

#[test]
fn boards_whose_faces_differ_say_why() {
    for b in catalogue::boards() {
        assert_eq!(
            b.differs,
            b.why.is_some(),
            "{}: `differs` and `why` go together",
            b.name
        );
        if b.value_error.is_some() {
            assert!(b.value.is_some(), "{}: value_error without a value", b.name);
        }
    }
}
