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
