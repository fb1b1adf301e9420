//! The table cache on disk: files are written, loaded, and when damaged (truncated, a bit flipped, another table,
//! not a table file at all) detected, reported through `Progress::warn`, and rebuilt. A small shape (2 × 3) is
//! forced onto disk with `cache_from_cells`, so that no test needs a 12-cell table.
//!
//! Answers are checked against a plain breadth-first search over `Vec<u8>` boards (`slide-reference`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use slide::engine::cache::Meta;
use slide::engine::SolverExt;
use slide::{Board, CacheDir, Metric, Shape, Solver};

use crate::support::counted;
use crate::support::{cached_builder, cached_solver as solver, reference_2x3, Warnings};

/// All 720 arrangements of 2 × 3, each with its distance (-1 when unreachable).
fn all_2x3() -> Vec<(Vec<u8>, i64)> {
    let reference = reference_2x3();
    let mut out = Vec::new();
    let mut a: Vec<u8> = (0..6).collect();
    // Lexicographic order, by the next-permutation step.
    loop {
        out.push((a.clone(), reference.distance(&a).map_or(-1, i64::from)));
        let Some(i) = (0..5).rev().find(|&i| a[i] < a[i + 1]) else {
            break;
        };
        let j = (i + 1..6).rev().find(|&j| a[j] > a[i]).unwrap();
        a.swap(i, j);
        a[i + 1..].reverse();
    }
    assert_eq!(out.len(), 720);
    out
}

/// Asks `solver` about every 2 × 3 board, by distance and by solve (moves replayed by hand).
fn check_answers(solver: &Solver) {
    let shape = Shape::new(2, 3).unwrap();
    let goal = Board::goal(shape);
    for (cells, want) in all_2x3() {
        let b = Board::new(shape, cells.iter().map(|&t| t as u32).collect()).unwrap();
        assert_eq!(solver.distance(&b, &goal).unwrap(), want, "{cells:?}");
        let s = solver.solve(&b, &goal).unwrap();
        assert_eq!(counted(&s), Some(want), "{cells:?}");
        if let Some(m) = s.into_moves() {
            let mut x = cells.clone();
            for &t in &m {
                let blank = x.iter().position(|&v| v == 0).unwrap();
                let cell = x.iter().position(|&v| v as u32 == t).unwrap();
                assert_eq!(
                    (blank / 3).abs_diff(cell / 3) + (blank % 3).abs_diff(cell % 3),
                    1,
                    "{cells:?}: illegal move {t} in {m:?}"
                );
                x.swap(blank, cell);
            }
            assert_eq!(x, vec![1, 2, 3, 4, 5, 0], "{cells:?}: {m:?}");
        }
    }
    let stats = solver.stats(&goal).unwrap();
    assert_eq!((stats.states, stats.diameter()), (360, 21));
}

fn expected_meta(shape: Shape) -> Meta {
    Meta {
        kind: "complete".into(),
        shape,
        blank: shape.cells() - 1,
        encoding: "exact".into(),
        metric: "stm".into(),
        pattern: vec![],
        bits: 0,
        len: (1..=shape.cells() as u64).product::<u64>() / 2,
        histogram: vec![],
        antipodes: vec![],
    }
}

/// The table files in `dir` (ignoring anything else).
fn table_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tbl"))
        .collect();
    v.sort();
    v
}

/// Fills a fresh cache directory with the 2 × 3 table; returns its path and bytes.
fn first_solve(dir: &Path) -> (PathBuf, Vec<u8>) {
    let (s, w) = solver(dir);
    let b = Board::parse("[[4,1,2],[5,0,3]]").unwrap();
    assert_eq!(
        s.solve(&b, &Board::goal(b.shape())).unwrap().distance(),
        Some(5)
    );
    assert_eq!(
        w.taken(),
        Vec::<String>::new(),
        "no warnings on a fresh cache"
    );
    let path = dir.join(slide::engine::cache::file_name(&expected_meta(b.shape())));
    assert!(path.exists(), "{} was not written", path.display());
    assert_eq!(
        table_files(dir),
        vec![path.clone()],
        "one table file, no leftovers"
    );
    let bytes = std::fs::read(&path).unwrap();
    assert!(bytes.len() > 24);
    (path, bytes)
}

/// Damages the file, then checks that a fresh solver answers right, warns, and rewrites the file whole.
fn damaged_is_rebuilt(damage: impl FnOnce(&Path, &[u8])) {
    let dir = tempfile::tempdir().unwrap();
    let (path, good) = first_solve(dir.path());
    damage(&path, &good);
    assert_ne!(
        std::fs::read(&path).unwrap(),
        good,
        "the damage changed nothing"
    );
    let (s, w) = solver(dir.path());
    check_answers(&s);
    let warnings = w.taken();
    assert!(!warnings.is_empty(), "no warning about the damaged file");
    assert!(
        warnings.iter().any(|m| m.contains("rebuild")),
        "warnings do not say the table is rebuilt: {warnings:?}"
    );
    // Rewritten whole: the same bytes as the first time (that such a file loads cleanly is `written_then_loaded`),
    // and a third solver answers right with it.
    assert_eq!(
        std::fs::read(&path).unwrap(),
        good,
        "the file was not rewritten as built"
    );
    assert_eq!(table_files(dir.path()), vec![path.clone()]);
    let (s, _) = solver(dir.path());
    check_answers(&s);
}

#[test]
fn written_then_loaded() {
    let dir = tempfile::tempdir().unwrap();
    let (path, good) = first_solve(dir.path());
    // The file is what the format promises.
    assert_eq!(&good[..8], b"SLIDETB\0");
    assert_eq!(
        u32::from_le_bytes(good[8..12].try_into().unwrap()),
        slide::engine::cache::FORMAT_VERSION
    );
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    // A fresh solver loads it (no warning, file untouched) and answers right from it.
    let (s, w) = solver(dir.path());
    check_answers(&s);
    assert_eq!(w.taken(), Vec::<String>::new());
    assert_eq!(std::fs::read(&path).unwrap(), good);
    assert_eq!(
        std::fs::metadata(&path).unwrap().modified().unwrap(),
        modified
    );
    // Other goals on the same shape and on the transposed shape answer right from the cache too.
    let goal = Board::goal_blank_first(Shape::new(2, 3).unwrap());
    let b = Board::parse("[[1,2,0],[3,4,5]]").unwrap();
    assert_eq!(s.distance(&b, &goal).unwrap(), 2);
    let b = Board::parse("1 2/3 4/0 5").unwrap();
    assert_eq!(s.distance(&b, &Board::goal(b.shape())).unwrap(), 1);
}

#[test]
fn truncated_file_is_rebuilt() {
    damaged_is_rebuilt(|path, good| std::fs::write(path, &good[..good.len() / 2]).unwrap());
}

#[test]
fn file_missing_its_last_byte_is_rebuilt() {
    damaged_is_rebuilt(|path, good| std::fs::write(path, &good[..good.len() - 1]).unwrap());
}

#[test]
fn empty_file_is_rebuilt() {
    damaged_is_rebuilt(|path, _| std::fs::write(path, b"").unwrap());
}

#[test]
fn bit_flipped_in_the_payload_is_rebuilt() {
    damaged_is_rebuilt(|path, good| {
        let mut b = good.to_vec();
        let last = b.len() - 1;
        b[last] ^= 0x01;
        std::fs::write(path, b).unwrap();
    });
}

#[test]
fn bit_flipped_in_the_middle_is_rebuilt() {
    damaged_is_rebuilt(|path, good| {
        let mut b = good.to_vec();
        let mid = b.len() / 2 + 3;
        b[mid] ^= 0x40;
        std::fs::write(path, b).unwrap();
    });
}

#[test]
fn bit_flipped_in_the_header_is_rebuilt() {
    for pos in [2usize, 9, 13, 20, 30] {
        damaged_is_rebuilt(|path, good| {
            let mut b = good.to_vec();
            b[pos] ^= 0x04;
            std::fs::write(path, b).unwrap();
        });
    }
}

#[test]
fn garbage_file_is_rebuilt() {
    damaged_is_rebuilt(|path, good| {
        std::fs::write(path, vec![0x5Au8; good.len()]).unwrap();
    });
}

#[test]
fn another_tables_file_is_rebuilt() {
    // Put the 2 × 2 table's file where the 2 × 3 table's belongs.
    damaged_is_rebuilt(|path, _| {
        let other = tempfile::tempdir().unwrap();
        let (s, _) = solver(other.path());
        let b = Board::parse("1 2/0 3").unwrap();
        assert_eq!(s.distance(&b, &Board::goal(b.shape())).unwrap(), 1);
        let small = other
            .path()
            .join(slide::engine::cache::file_name(&expected_meta(b.shape())));
        std::fs::copy(&small, path).unwrap();
    });
}

#[test]
fn nothing_on_disk_below_the_threshold_or_without_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let w = Arc::new(Warnings::default());
    // Default threshold: small shapes stay in memory.
    let s = Solver::builder()
        .cache_dir(CacheDir::At(dir.path().to_path_buf()))
        .progress(w.clone())
        .build();
    check_answers(&s);
    assert!(table_files(dir.path()).is_empty());
    // No cache directory at all.
    let s = Solver::builder()
        .cache_dir(CacheDir::None)
        .progress(w.clone())
        .cache_from_cells(4)
        .build();
    check_answers(&s);
    assert!(s.store().is_none());
    assert_eq!(w.taken(), Vec::<String>::new());
}

#[test]
fn mapped_files_give_the_same_answers() {
    let dir = tempfile::tempdir().unwrap();
    let shape = Shape::new(2, 3).unwrap();
    // The first solver builds the table, saves it and then maps the saved file; the second maps it from the start.
    for round in 0..2 {
        let (s, w) = cached_builder(dir.path());
        let s = s.map_files(true).build();
        check_answers(&s);
        let t = s.table(shape, 5, Metric::Stm).unwrap();
        assert_eq!(
            t.packed().is_mapped(),
            cfg!(all(unix, target_endian = "little")),
            "round {round}"
        );
        assert!(w.taken().is_empty());
    }
    // A damaged file is reported and rebuilt, as without mapping.
    let path = dir
        .path()
        .join(slide::engine::cache::file_name(&expected_meta(shape)));
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 9;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let (s, w) = cached_builder(dir.path());
    let s = s.map_files(true).build();
    check_answers(&s);
    assert!(w.taken().iter().any(|m| m.contains("checksum")));
}

/// With `map_files`, table files are mapped into memory rather than read (processes then share one copy), and
/// answer exactly as read ones do; a damaged mapped file is rebuilt like a damaged read one.
#[test]
fn mapped_tables_answer_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let (s, w) = cached_builder(dir.path());
    let s = s.map_files(true).build();
    check_answers(&s); // builds and saves, then maps what it saved
    let shape = Shape::new(2, 3).unwrap();
    let fresh = Solver::builder()
        .cache_dir(CacheDir::At(dir.path().to_path_buf()))
        .progress(w.clone())
        .cache_from_cells(4)
        .map_files(true)
        .build();
    check_answers(&fresh);
    assert!(fresh
        .table(shape, 5, Metric::Stm)
        .unwrap()
        .packed()
        .is_mapped());
    // Damage the file: the next solver warns, rebuilds and still answers right.
    let path = dir
        .path()
        .join(slide::engine::cache::file_name(&expected_meta(shape)));
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let again = Solver::builder()
        .cache_dir(CacheDir::At(dir.path().to_path_buf()))
        .progress(w.clone())
        .cache_from_cells(4)
        .map_files(true)
        .build();
    check_answers(&again);
    assert!(
        w.taken().iter().any(|m| m.contains("checksum")),
        "{:?}",
        w.taken()
    );
}

/// A file store that counts the records of passed checksums it is asked to make.
#[derive(Debug)]
struct Counting {
    inner: slide::store::FileStore,
    recorded: std::sync::atomic::AtomicUsize,
}

impl slide::store::Store for Counting {
    fn open(&self, name: &str) -> std::io::Result<Option<(Box<dyn std::io::Read + '_>, u64)>> {
        self.inner.open(name)
    }
    fn write(
        &self,
        name: &str,
        write: &mut dyn FnMut(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        self.inner.write(name, write)
    }
    fn locate(&self, name: &str) -> String {
        self.inner.locate(name)
    }
    fn map(&self, name: &str) -> std::io::Result<Option<slide::store::Mapped>> {
        self.inner.map(name)
    }
    fn verified(&self, name: &str, stamp: &str) -> bool {
        self.inner.verified(name, stamp)
    }
    fn set_verified(&self, name: &str, stamp: &str) {
        self.recorded
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.inner.set_verified(name, stamp)
    }
}

/// A mapped file's checksum is verified once per version of the file and recorded beside it: an unchanged file is
/// not verified again, a file changed since (here damaged) is, and fails, and is rebuilt.
#[test]
fn mapped_files_are_verified_once_and_rebuilt_when_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let shape = Shape::new(2, 3).unwrap();
    let store = Arc::new(Counting {
        inner: slide::store::FileStore::new(dir.path()),
        recorded: Default::default(),
    });
    let recorded = || store.recorded.load(std::sync::atomic::Ordering::SeqCst);
    let w = Arc::new(Warnings::default());
    let fresh = || {
        Solver::builder()
            .store(store.clone())
            .progress(w.clone())
            .cache_from_cells(4)
            .map_files(true)
            .build()
    };
    let name = slide::engine::cache::file_name(&expected_meta(shape));
    let record = dir.path().join(format!(".{name}.verified"));
    let settle =
        || std::thread::sleep(slide::store::RECENT + std::time::Duration::from_millis(100));
    // Built, saved, mapped: verified, but not recorded while the file is recent (its times could still repeat).
    check_answers(&fresh());
    assert_eq!(recorded(), 1);
    assert!(!record.exists());
    settle();
    check_answers(&fresh());
    assert_eq!(recorded(), 2);
    assert!(record.exists());
    // Mapped again, unchanged: the record stands, no second verification.
    let s = fresh();
    check_answers(&s);
    assert!(
        s.table(shape, 5, Metric::Stm).unwrap().packed().is_mapped() || cfg!(target_endian = "big")
    );
    assert_eq!(recorded(), 2);
    assert!(w.taken().is_empty());
    // Damaged in place (the stamp changes with it): verified again, refused, rebuilt, and the new file recorded
    // once it is no longer recent.
    let path = dir.path().join(&name);
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() - 17;
    bytes[mid] ^= 0x04;
    std::fs::write(&path, &bytes).unwrap();
    check_answers(&fresh());
    assert!(w.taken().iter().any(|m| m.contains("checksum")));
    assert_eq!(recorded(), 3);
    assert_ne!(std::fs::read(&path).unwrap(), bytes);
    settle();
    check_answers(&fresh());
    check_answers(&fresh());
    assert_eq!(recorded(), 4);
    // A record of another version of the file does not count.
    std::fs::write(&record, "len 1 mtime 0.000000000\n").unwrap();
    check_answers(&fresh());
    assert_eq!(recorded(), 5);
    assert!(w.taken().is_empty());
}
