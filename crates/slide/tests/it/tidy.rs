//! Tidy checks over the whole repository (as rust-analyzer has): nothing refers to a path outside the repository,
//! and every Rust source file opens with a `//!` line saying what it is for.
//!
//! The files checked are those git tracks (`git ls-files`); where git or the repository is missing (a source
//! tarball), every file below the root except `target/` and `.git/`.

use std::path::{Component, Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root exists")
}

/// The repository's files, relative to the root.
fn files(root: &Path) -> Vec<PathBuf> {
    let git = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output();
    if let Ok(out) = git {
        if out.status.success() && !out.stdout.is_empty() {
            return out
                .stdout
                .split(|&b| b == 0)
                .filter(|p| !p.is_empty())
                .map(|p| PathBuf::from(String::from_utf8_lossy(p).into_owned()))
                .collect();
        }
    }
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(root.join(&dir))
            .into_iter()
            .flatten()
            .flatten()
        {
            let rel = dir.join(entry.file_name());
            let name = entry.file_name();
            if name == "target" || name == ".git" || name == "node_modules" {
                continue;
            }
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(rel),
                Ok(t) if t.is_file() => out.push(rel),
                _ => {}
            }
        }
    }
    out
}

/// `path` (relative to `dir`, both relative to the root) normalised; `None` when it climbs above the root.
fn resolve(dir: &Path, path: &str) -> Option<PathBuf> {
    let mut parts: Vec<Component> = dir.components().collect();
    for c in Path::new(path).components() {
        match c {
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::CurDir => {}
            c => parts.push(c),
        }
    }
    Some(parts.iter().collect())
}

/// The relative paths starting with `../` in `text`, each with its 1-based line.
fn parent_paths(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("../") {
            // Only a path that starts here: not the tail of `x../` or of a longer path already taken.
            let before = rest[..at].chars().last();
            let tail = &rest[at..];
            let len = tail
                .find(|c: char| !(c.is_ascii_alphanumeric() || "._-/".contains(c)))
                .unwrap_or(tail.len());
            if !matches!(before, Some(c) if c.is_ascii_alphanumeric() || c == '.' || c == '/') {
                out.push((i + 1, tail[..len].to_string()));
            }
            rest = &tail[len.max(3)..];
        }
    }
    out
}

#[test]
fn nothing_refers_outside_the_repository() {
    let root = root();
    // Spelt in two parts so that this file does not name it.
    let shared = ["shared", "/data"].concat();
    let mut bad = Vec::new();
    for rel in files(&root) {
        let Ok(text) = std::fs::read_to_string(root.join(&rel)) else {
            continue; // binary files
        };
        let dir = rel.parent().unwrap_or(Path::new(""));
        for (line, path) in parent_paths(&text) {
            if resolve(dir, &path).is_none() {
                bad.push(format!(
                    "{}:{line}: {path} leads outside the repository",
                    rel.display()
                ));
            }
        }
        for (i, l) in text.lines().enumerate() {
            if l.contains(&shared) {
                bad.push(format!(
                    "{}:{}: refers to {shared}, which exists only on the team's machines",
                    rel.display(),
                    i + 1
                ));
            }
        }
    }
    assert!(bad.is_empty(), "\n{}", bad.join("\n"));
}

#[test]
fn every_rust_file_opens_with_a_doc_line() {
    let root = root();
    let mut bad = Vec::new();
    for rel in files(&root) {
        if rel.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(root.join(&rel)).unwrap_or_default();
            if !text.starts_with("//!") {
                bad.push(rel.display().to_string());
            }
        }
    }
    assert!(
        bad.is_empty(),
        "these files do not open with a `//!` line saying what they are for:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_checks_can_fail() {
    // Built at run time, so that this file holds no path that climbs out of the repository.
    let up = |k: usize| "../".repeat(k);
    assert!(resolve(Path::new("crates/slide/tests"), &format!("{}x", up(3))).is_some());
    assert!(resolve(Path::new("crates/slide/tests"), &format!("{}x", up(4))).is_none());
    assert!(resolve(Path::new(""), &format!("{}x", up(1))).is_none());
    let text = format!(
        "a include_str!(\"{}y/z.txt\") and foo{}bar\n{}q",
        up(2),
        up(1),
        up(1)
    );
    assert_eq!(
        parent_paths(&text),
        vec![(1, format!("{}y/z.txt", up(2))), (2, format!("{}q", up(1)))]
    );
}

// ---------------------------------------------------------------------------------------------------------------
// House rules: rooms of a readable size, no dates in code, a code map that names every source file, a short README
// ---------------------------------------------------------------------------------------------------------------

/// The most lines a source file may have before it is split by concern.
const MAX_LINES: usize = 1200;

/// Source files allowed over [`MAX_LINES`], each with the reason. An entry for a file that is no longer long (or no
/// longer exists) fails the check too, so that the list only ever shrinks to what is true.
const ALLOWED_LONG: &[(&str, &str)] = &[
    (
        "crates/slide-cli/tests/it/serve_api.rs",
        "one server's API over real sockets, a test per behaviour; to be split by route family",
    ),
    (
        "crates/slide/tests/it/search.rs",
        "the search's cross-checks against references; to be split by heuristic family",
    ),
];

/// Source files: code the project writes (Rust, Python, shell, JavaScript), not data or prose.
fn is_source(rel: &Path) -> bool {
    rel.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "rs" | "py" | "pyi" | "sh" | "mjs" | "js"))
        || rel.starts_with(".ci")
}

/// The files over [`MAX_LINES`] that `allowed` does not name, and the entries of `allowed` that name no long file.
fn long_files(files: &[(String, usize)], allowed: &[(&str, &str)]) -> Vec<String> {
    let mut bad = Vec::new();
    for (path, lines) in files {
        if *lines > MAX_LINES && !allowed.iter().any(|(p, _)| p == path) {
            bad.push(format!(
                "{path}: {lines} lines (over {MAX_LINES}): split it by concern, or name it in ALLOWED_LONG with why"
            ));
        }
    }
    for (p, _) in allowed {
        if !files
            .iter()
            .any(|(path, lines)| path == p && *lines > MAX_LINES)
        {
            bad.push(format!(
                "{p}: named in ALLOWED_LONG but not over {MAX_LINES} lines: take it off"
            ));
        }
    }
    bad
}

#[test]
fn source_files_stay_under_the_line_cap() {
    let root = root();
    let files: Vec<(String, usize)> = files(&root)
        .into_iter()
        .filter(|rel| is_source(rel))
        .map(|rel| {
            let text = std::fs::read_to_string(root.join(&rel)).unwrap_or_default();
            (rel.display().to_string(), text.lines().count())
        })
        .collect();
    let bad = long_files(&files, ALLOWED_LONG);
    assert!(bad.is_empty(), "\n{}", bad.join("\n"));
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// Dates in `text`, each with its 1-based line: an ISO date, a day before a month name, a month name before a year.
fn dates(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let b = line.as_bytes();
        // ISO dates: 19xx or 20xx, a dash, two digits, a dash, two digits, not inside a longer number.
        for at in 0..b.len().saturating_sub(9) {
            let w = &b[at..at + 10];
            let digits = |r: std::ops::Range<usize>| w[r].iter().all(u8::is_ascii_digit);
            if (w.starts_with(b"19") || w.starts_with(b"20"))
                && digits(0..4)
                && w[4] == b'-'
                && digits(5..7)
                && w[7] == b'-'
                && digits(8..10)
                && (at == 0 || !b[at - 1].is_ascii_digit())
                && b.get(at + 10).is_none_or(|c| !c.is_ascii_digit())
            {
                out.push((i + 1, line[at..at + 10].to_string()));
            }
        }
        let words: Vec<&str> = line
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        for (k, w) in words.iter().enumerate() {
            if !MONTHS.contains(w) {
                continue;
            }
            let day =
                |s: &str| s.len() <= 2 && s.parse::<u32>().is_ok_and(|d| (1..=31).contains(&d));
            let year = |s: &str| s.len() == 4 && (s.starts_with("19") || s.starts_with("20"));
            if k > 0 && day(words[k - 1]) {
                out.push((i + 1, format!("{} {w}", words[k - 1])));
            } else if words.get(k + 1).is_some_and(|n| year(n) || day(n)) {
                out.push((i + 1, format!("{w} {}", words[k + 1])));
            }
        }
    }
    out
}

#[test]
fn no_dates_in_rust_sources() {
    // Dated measurements and histories live in docs/lab/ (one file per experiment, dated there); code says what is.
    let root = root();
    let mut bad = Vec::new();
    for rel in files(&root) {
        if rel.starts_with("crates") && rel.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(root.join(&rel)).unwrap_or_default();
            for (line, date) in dates(&text) {
                bad.push(format!("{}:{line}: {date}", rel.display()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "dates in source files (move the dated material to docs/lab/):\n{}",
        bad.join("\n")
    );
}

/// The files of `paths` that `map` does not name. A file is named when the map holds its whole path in backquotes,
/// or when a section of the map (the text between two headings) holds its folder in backquotes with a trailing
/// slash and its file name in backquotes.
fn unnamed(map: &str, paths: &[String]) -> Vec<String> {
    let mut sections: Vec<String> = vec![String::new()];
    for line in map.lines() {
        if line.starts_with('#') {
            sections.push(String::new());
        }
        let s = sections.last_mut().unwrap();
        s.push_str(line);
        s.push('\n');
    }
    paths
        .iter()
        .filter(|path| {
            if map.contains(&format!("`{path}`")) {
                return false;
            }
            let (dir, name) = match path.rsplit_once('/') {
                Some((d, n)) => (format!("`{d}/`"), format!("`{n}`")),
                None => return true,
            };
            !sections
                .iter()
                .any(|s| s.contains(&dir) && s.contains(&name))
        })
        .cloned()
        .collect()
}

#[test]
fn architecture_names_every_source_file() {
    let root = root();
    let map = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let paths: Vec<String> = files(&root)
        .into_iter()
        .filter(|rel| {
            is_source(rel)
                && (rel.starts_with("crates")
                    || rel.starts_with("fuzz")
                    || rel.starts_with("scripts"))
        })
        .map(|rel| rel.display().to_string())
        .collect();
    let bad = unnamed(&map, &paths);
    assert!(
        bad.is_empty(),
        "ARCHITECTURE.md does not name these source files (its code map must name every one):\n{}",
        bad.join("\n")
    );
}

/// The most lines README.md may have: a newcomer's page; the guide and the design pages live in docs/.
const README_LINES: usize = 350;

#[test]
fn the_readme_stays_short() {
    let lines = std::fs::read_to_string(root().join("README.md"))
        .expect("README.md")
        .lines()
        .count();
    assert!(
        lines <= README_LINES,
        "README.md has {lines} lines, over {README_LINES}: move detail to docs/"
    );
}

#[test]
fn the_house_rules_can_fail() {
    let f = |p: &str, n: usize| (p.to_string(), n);
    // The line cap: a long file not allowed, and an allowance for a file that is not long.
    assert!(long_files(&[f("a.rs", 1200)], &[]).is_empty());
    assert_eq!(long_files(&[f("a.rs", 1201)], &[]).len(), 1);
    assert!(long_files(&[f("a.rs", 1201)], &[("a.rs", "why")]).is_empty());
    assert_eq!(long_files(&[f("a.rs", 10)], &[("a.rs", "why")]).len(), 1);
    // Dates, in each form, and what is not one.
    let day = ["6", " ", MONTHS[11]].concat();
    let month_year = [MONTHS[11], " ", "20", "26"].concat();
    let iso = ["20", "26-12-06"].concat();
    let text =
        format!("a {day} b\n{month_year}\nc {iso}.\nMay we? 2026-1-6 x12026-12-061 March on");
    assert_eq!(
        dates(&text),
        vec![(1, day.clone()), (2, month_year.clone()), (3, iso.clone())]
    );
    // The code map: whole paths, or a section naming the folder and the file.
    let map = "# Map\n`a/b.rs` here\n## `c/d/`\n- `e.rs`: x\n## `f/`\n";
    let paths = ["a/b.rs", "c/d/e.rs", "c/d/g.rs", "f/e.rs", "top.rs"].map(String::from);
    assert_eq!(unnamed(map, &paths), ["c/d/g.rs", "f/e.rs", "top.rs"]);
}
