//! Which options each command takes: a command lists in `--help` only the options it uses and refuses the others
//! (status 2, clap's message); the table options go before the command name as well as after it.

use crate::support::Slide;

/// The table options, each with a value to give it (empty for a flag).
const TABLE: &[(&str, &str)] = &[
    ("--cache-dir", "DIR"),
    ("--no-cache", ""),
    ("--max-memory", "100"),
    ("--quiet", ""),
];

/// How pattern databases number their placements: an option of the commands that search with them.
const PDB_INDEX: &[(&str, &str)] = &[("--pdb-index", "dense")];

/// The options of `slide solve` that shape its answers, not its searches, each with a value to give it.
const ANSWER: &[(&str, &str)] = &[
    ("--moves", ""),
    ("--notation", "short"),
    ("--directions", ""),
    ("--json", ""),
    ("--goal", "1 2/3 0"),
    ("--shape", "2x2"),
    ("--count", ""),
    ("--all", ""),
    ("--limit", "5"),
];

/// Options, each with a value to give it (empty for a flag).
type Options = &'static [(&'static str, &'static str)];

/// A command: its name, arguments it runs with at once (`None`: too slow or endless, so only refused), the
/// groups of options it takes and those it does not.
struct Case {
    name: &'static str,
    args: Option<&'static [&'static str]>,
    takes: &'static [Options],
    refuses: &'static [Options],
}

/// Every command.
const COMMANDS: &[Case] = &[
    Case {
        name: "solve",
        args: Some(&["4 1 2/5 0 3"]),
        takes: &[TABLE, PDB_INDEX, ANSWER],
        refuses: &[],
    },
    Case {
        name: "stats",
        args: Some(&["2x2"]),
        takes: &[TABLE],
        refuses: &[PDB_INDEX],
    },
    Case {
        name: "bench",
        args: None,
        takes: &[TABLE, PDB_INDEX],
        refuses: &[ANSWER],
    },
    Case {
        name: "scramble",
        args: Some(&["2x2", "--seed", "1"]),
        takes: &[TABLE],
        refuses: &[PDB_INDEX],
    },
    Case {
        name: "apply",
        args: Some(&["4 1 2/5 0 3", "R"]),
        takes: &[],
        refuses: &[TABLE, PDB_INDEX],
    },
    Case {
        name: "moves",
        args: Some(&["invert", "RRUULD"]),
        takes: &[],
        refuses: &[TABLE, PDB_INDEX],
    },
    Case {
        name: "analyse",
        args: Some(&["4 1 2/5 0 3", "R"]),
        takes: &[TABLE, PDB_INDEX],
        refuses: &[],
    },
    Case {
        name: "hint",
        args: Some(&["4 1 2/5 0 3"]),
        takes: &[TABLE, PDB_INDEX],
        refuses: &[],
    },
    Case {
        name: "render",
        args: Some(&["4 1 2/5 0 3"]),
        takes: &[TABLE, PDB_INDEX],
        refuses: &[],
    },
    Case {
        name: "serve",
        args: None,
        takes: &[TABLE, PDB_INDEX],
        refuses: &[],
    },
    Case {
        name: "history",
        args: None,
        takes: &[],
        refuses: &[TABLE, PDB_INDEX],
    },
];

/// Arguments with which `case` would run but for a refused option.
fn runnable<'a>(case: &Case, history: &'a str) -> Vec<&'a str> {
    match (case.args, case.name) {
        (Some(a), _) => a.to_vec(),
        (None, "bench") => vec!["korf100", "--only", "1", "--max-nodes", "10"],
        (None, "history") => vec!["--db", history],
        (None, _) => vec![],
    }
}

/// The options `slide COMMAND --help` lists: the long names that open its option lines (after a short one).
fn listed(slide: &Slide, command: &str) -> Vec<String> {
    let help = slide.ok(&[command, "--help"], "");
    help.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let short = l.len() > 4 && l.as_bytes()[0] == b'-' && &l[2..4] == ", ";
            let l = if short { &l[4..] } else { l };
            l.starts_with("--")
                .then(|| l.split([' ', '=']).next().unwrap().to_string())
        })
        .collect()
}

/// `option` with its value, as arguments.
fn with_value<'a>((option, value): (&'a str, &'a str)) -> Vec<&'a str> {
    if value.is_empty() {
        vec![option]
    } else {
        vec![option, value]
    }
}

#[test]
fn help_lists_only_the_options_a_command_uses() {
    let slide = Slide::new();
    for c in COMMANDS {
        let listed = listed(&slide, c.name);
        assert!(listed.iter().any(|l| l == "--help"), "{listed:?}");
        for (options, takes) in [(c.takes, true), (c.refuses, false)] {
            for (option, _) in options.iter().copied().flatten() {
                assert_eq!(
                    listed.iter().any(|l| l == option),
                    takes,
                    "slide {} --help and {option}: {listed:?}",
                    c.name
                );
            }
        }
    }
}

#[test]
fn a_command_refuses_the_options_it_does_not_use() {
    let slide = Slide::new();
    let history = slide.cache.path().join("history.sqlite3");
    let history = history.to_str().unwrap();
    for c in COMMANDS {
        let args = runnable(c, history);
        for &options in c.refuses {
            for &option in options {
                // After the command name: clap's own refusal.
                let mut after = vec![c.name];
                after.extend(&args);
                after.extend(with_value(option));
                let (code, out, err) = slide.run(&after, "");
                assert_eq!(code, 2, "slide {after:?}: {err}");
                assert_eq!(out, "", "slide {after:?}");
                let want = format!("error: unexpected argument '{}' found", option.0);
                assert!(err.contains(&want), "slide {after:?}: {err}");
                // Before it, where the table options are taken too: the commands that take it are named.
                if options == TABLE || options == PDB_INDEX {
                    let mut before = with_value(option);
                    before.push(c.name);
                    before.extend(&args);
                    let (code, out, err) = slide.run(&before, "");
                    assert_eq!(code, 2, "slide {before:?}: {err}");
                    assert_eq!(out, "", "slide {before:?}");
                    let want = format!(
                        "error: 'slide {}' does not take '{}': only ",
                        c.name, option.0
                    );
                    assert!(err.contains(&want), "slide {before:?}: {err}");
                }
            }
        }
    }
}

#[test]
fn bench_refuses_boards() {
    let slide = Slide::new();
    // The set is the one argument: a board in its place is a set that cannot be read.
    let (code, _, err) = slide.run(&["bench", "1 2 3/4 0 5"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot read 1 2 3/4 0 5"), "{err}");
    let (code, _, err) = slide.run(&["bench", "korf100", "4 1 2/5 0 3"], "");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("error: unexpected argument '4 1 2/5 0 3' found"),
        "{err}"
    );
}

#[test]
fn table_options_go_before_or_after_the_command_name() {
    let slide = Slide::new();
    let dir = slide.cache.path().join("elsewhere");
    let dir = dir.to_str().unwrap();
    for c in COMMANDS {
        let Some(args) = c.args else { continue };
        let plain = slide.ok(&[&[c.name][..], args].concat(), "");
        let options = c
            .takes
            .iter()
            .filter(|&&o| o == TABLE || o == PDB_INDEX)
            .copied()
            .flatten()
            .map(|&(o, v)| with_value((o, if v == "DIR" { dir } else { v })));
        for option in options {
            let before = [&option[..], &[c.name], args].concat();
            let after = [&[c.name][..], args, &option].concat();
            assert_eq!(slide.ok(&before, ""), plain, "slide {before:?}");
            assert_eq!(slide.ok(&after, ""), plain, "slide {after:?}");
        }
    }
}

#[test]
fn an_option_after_the_command_name_wins() {
    let slide = Slide::new();
    let board = "1 2 3/4 5 6/7 0 8";
    // --max-memory 0 refuses every build: the 3x3 table is built only when the later 100 MB is the one taken.
    let ok = slide.ok(
        &[
            "--no-cache",
            "--max-memory",
            "0",
            "solve",
            "--max-memory",
            "100",
            board,
        ],
        "",
    );
    assert_eq!(ok, "1\n");
    slide.bad(
        &[
            "--no-cache",
            "--max-memory",
            "100",
            "solve",
            "--max-memory",
            "0",
            board,
        ],
        "",
        "--max-memory",
    );
}
