//! Table files on disk: versioned, checksummed, written atomically, verified when loaded.
//!
//! Layout (all integers little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 0..8 | magic `SLIDETB\0` |
//! | 8..12 | [`FORMAT_VERSION`] |
//! | 12..16 | length `m` of the metadata |
//! | 16..24 | XXH3-64 of the metadata followed by the payload |
//! | 24..24+m | metadata, JSON ([`Meta`]) |
//! | then | zero padding to a multiple of 8, then the payload: the [`PackedTable`]'s words |
//!
//! A file is written to a temporary name in the same directory, flushed to disk, then renamed over the final name,
//! so a reader sees either no file or a whole one, and two processes building the same table both succeed.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::board::Shape;
use crate::error::{Error, Result};
use crate::exact::packed::PackedTable;

/// The version of the file layout and of the tables' meaning; files of another version are rebuilt.
pub const FORMAT_VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"SLIDETB\0";
const HEADER: usize = 24;

/// What a table file holds, stored in its header and checked against what the caller expects.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Meta {
    /// `"complete"` or `"pdb"`.
    pub kind: String,
    /// The canonical shape.
    pub shape: Shape,
    /// The canonical goal's blank cell.
    pub blank: usize,
    /// `"exact"` (entries are distances) or `"mod3"` (entries are distances modulo 3).
    pub encoding: String,
    /// The metric the distances count: `"stm"` or `"mtm"`. Files written before the multi-tile metric have no such
    /// field and are read as `"stm"`; STM files are still written without it, so old and new versions share them.
    #[serde(default = "stm", skip_serializing_if = "is_stm")]
    pub metric: String,
    /// Pattern tiles, for pattern databases.
    #[serde(default)]
    pub pattern: Vec<u32>,
    /// Bits per entry (in an expectation, 0 accepts any width).
    pub bits: u32,
    /// Number of entries.
    pub len: u64,
    /// States at each distance.
    pub histogram: Vec<u64>,
    /// Some ranks at the largest distance.
    pub antipodes: Vec<u64>,
}

fn stm() -> String {
    crate::metric::Metric::Stm.name().into()
}

fn is_stm(metric: &String) -> bool {
    *metric == stm()
}

impl Meta {
    /// True when `self` (read from a file) describes the table `other` expects. The statistics are not compared,
    /// nor the width when `other.bits` is 0 (an exact table's width follows from its diameter).
    pub fn same_table(&self, other: &Meta) -> bool {
        self.kind == other.kind
            && self.shape == other.shape
            && self.blank == other.blank
            && self.encoding == other.encoding
            && self.metric == other.metric
            && self.pattern == other.pattern
            && (self.bits == other.bits || other.bits == 0)
            && self.len == other.len
    }
}

/// The cache directory: `$SLIDE_CACHE_DIR` if set, else the platform's cache directory (on Linux
/// `$XDG_CACHE_HOME/slide` or `~/.cache/slide`); `None` when neither can be found.
pub fn default_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("SLIDE_CACHE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    directories::ProjectDirs::from("", "", "slide").map(|p| p.cache_dir().to_path_buf())
}

/// The file name of a table: `complete-3x4-blank11-mod3.v1.tbl`, with the metric after the blank's cell when it
/// is not STM (`complete-3x4-blank11-mtm-mod3.v1.tbl`).
pub fn file_name(meta: &Meta) -> String {
    let mut name = format!("{}-{}-blank{}", meta.kind, meta.shape, meta.blank);
    if !is_stm(&meta.metric) {
        name.push('-');
        name.push_str(&meta.metric);
    }
    if !meta.pattern.is_empty() {
        name.push_str("-p");
        for (i, t) in meta.pattern.iter().enumerate() {
            if i > 0 {
                name.push('.');
            }
            name.push_str(&t.to_string());
        }
    }
    format!("{name}-{}.v{FORMAT_VERSION}.tbl", meta.encoding)
}

/// Writes a table atomically (temporary file in the same directory, fsync, rename).
pub fn save(path: &Path, meta: &Meta, table: &PackedTable) -> Result<()> {
    let err =
        |what: &str, e: std::io::Error| Error::Cache(format!("{what} {}: {e}", path.display()));
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| err("cannot create the directory of", e))?;
    let meta_bytes = serde_json::to_vec(meta).map_err(|e| Error::Cache(e.to_string()))?;
    let pad = (8 - (HEADER + meta_bytes.len()) % 8) % 8;
    let mut payload = Vec::with_capacity(table.words().len() * 8);
    for w in table.words() {
        payload.extend_from_slice(&w.to_le_bytes());
    }
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(&meta_bytes);
    hasher.update(&payload);
    let sum = hasher.digest();
    remove_stale_temporaries(dir, path);
    let tmp = dir.join(format!(
        ".{}.tmp-{}-{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("table"),
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    ));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(MAGIC)?;
        f.write_all(&FORMAT_VERSION.to_le_bytes())?;
        f.write_all(&(meta_bytes.len() as u32).to_le_bytes())?;
        f.write_all(&sum.to_le_bytes())?;
        f.write_all(&meta_bytes)?;
        f.write_all(&[0u8; 8][..pad])?;
        f.write_all(&payload)?;
        f.sync_all()?;
        Ok(())
    };
    if let Err(e) = write() {
        let _ = std::fs::remove_file(&tmp);
        return Err(err("cannot write", e));
    }
    if let Err(e) = std::fs::rename(&tmp, path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(err("cannot rename into", e));
    }
    Ok(())
}

/// Removes temporary files of `path` left by writers that were killed (their process is gone), so that they do
/// not pile up. Only files named like this module's temporaries are touched; failures are ignored.
fn remove_stale_temporaries(dir: &Path, path: &Path) {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let prefix = format!(".{name}.tmp-");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let file = e.file_name();
        let Some(rest) = file.to_str().and_then(|f| f.strip_prefix(&prefix)) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        let alive = pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists();
        if cfg!(target_os = "linux") && !alive {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Reads and verifies a table file against the expected metadata. Any mismatch or damage is an error saying what.
///
/// The payload is read straight into the table's words (no second copy of the file in memory).
pub fn load(path: &Path, expected: &Meta) -> Result<(Meta, PackedTable)> {
    use std::io::Read;
    let io = |e: std::io::Error| Error::Cache(format!("cannot read {}: {e}", path.display()));
    let bad = |what: &str| Error::Cache(format!("{} is damaged: {what}", path.display()));
    let mut f = std::fs::File::open(path).map_err(io)?;
    let file_len = f.metadata().map_err(io)?.len();
    let mut head = [0u8; HEADER];
    if file_len < HEADER as u64 || f.read_exact(&mut head).is_err() || &head[..8] != MAGIC {
        return Err(bad("not a slide table file"));
    }
    let u32_at = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().expect("4 bytes"));
    let version = u32_at(8);
    if version != FORMAT_VERSION {
        return Err(Error::Cache(format!(
            "{} has format version {version}, this slide writes version {FORMAT_VERSION}",
            path.display()
        )));
    }
    let m = u32_at(12) as usize;
    let sum = u64::from_le_bytes(head[16..24].try_into().expect("8 bytes"));
    let meta_end = HEADER + m;
    if meta_end as u64 > file_len || m > 1 << 20 {
        return Err(bad("truncated header"));
    }
    let mut meta_bytes = vec![0u8; m];
    f.read_exact(&mut meta_bytes).map_err(io)?;
    let meta: Meta = serde_json::from_slice(&meta_bytes).map_err(|_| bad("unreadable metadata"))?;
    if !meta.same_table(expected) {
        return Err(Error::Cache(format!(
            "{} holds another table ({} {} blank {} {})",
            path.display(),
            meta.kind,
            meta.shape,
            meta.blank,
            meta.metric
        )));
    }
    let pad = (8 - meta_end % 8) % 8;
    let words = PackedTable::words_for(meta.bits, meta.len);
    let want = (meta_end + pad) as u64 + words as u64 * 8;
    if file_len != want {
        return Err(bad(&format!("{file_len} bytes, expected {want}")));
    }
    let mut skip = [0u8; 8];
    f.read_exact(&mut skip[..pad]).map_err(io)?;
    let mut data: Vec<u64> = crate::exact::packed::large_vec(words);
    {
        // SAFETY: any bytes are a valid u64; the slice covers exactly the vector's initialised memory.
        let raw: &mut [u8] =
            unsafe { std::slice::from_raw_parts_mut(data.as_mut_ptr() as *mut u8, words * 8) };
        f.read_exact(raw).map_err(io)?;
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        hasher.update(&meta_bytes);
        hasher.update(raw);
        if hasher.digest() != sum {
            return Err(bad("checksum mismatch"));
        }
    }
    for w in &mut data {
        *w = u64::from_le(*w);
    }
    let table =
        PackedTable::from_words(meta.bits, meta.len, data).ok_or_else(|| bad("bad table size"))?;
    Ok((meta, table))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Meta, PackedTable) {
        let mut t = PackedTable::new(3, 1000);
        for i in 0..1000 {
            t.set(i, (i % 7) as u32);
        }
        let meta = Meta {
            kind: "complete".into(),
            shape: Shape::new(2, 3).unwrap(),
            blank: 5,
            encoding: "exact".into(),
            metric: "stm".into(),
            pattern: vec![],
            bits: 3,
            len: 1000,
            histogram: vec![1, 2],
            antipodes: vec![7],
        };
        (meta, t)
    }

    #[test]
    fn roundtrip_and_damage() {
        let dir = tempfile::tempdir().unwrap();
        let (meta, t) = sample();
        let path = dir.path().join(file_name(&meta));
        save(&path, &meta, &t).unwrap();
        let (m2, t2) = load(&path, &meta).unwrap();
        assert_eq!((m2, t2), (meta.clone(), t));
        // no temporary files left behind, and those of killed writers are swept
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let stale = dir
            .path()
            .join(format!(".{}.tmp-4000000000-1", file_name(&meta)));
        std::fs::write(&stale, b"partial").unwrap();
        save(&path, &meta, &sample().1).unwrap();
        assert!(!stale.exists() || !cfg!(target_os = "linux"));
        let good = std::fs::read(&path).unwrap();
        // bit flips anywhere are caught
        for pos in [0, 9, 13, 17, 30, good.len() / 2, good.len() - 1] {
            let mut b = good.clone();
            b[pos] ^= 0x10;
            std::fs::write(&path, &b).unwrap();
            assert!(load(&path, &meta).is_err(), "flip at {pos}");
        }
        for len in [0, 10, 24, 40, good.len() - 8] {
            std::fs::write(&path, &good[..len]).unwrap();
            assert!(load(&path, &meta).is_err(), "truncated to {len}");
        }
        let mut other = meta.clone();
        other.shape = Shape::new(3, 2).unwrap();
        std::fs::write(&path, &good).unwrap();
        // the other metric's table is another table, with another name
        let mut mtm = meta.clone();
        mtm.metric = "mtm".into();
        assert_ne!(file_name(&mtm), file_name(&meta));
        assert!(load(&path, &mtm)
            .unwrap_err()
            .to_string()
            .contains("another table"));
        assert!(load(&path, &other)
            .unwrap_err()
            .to_string()
            .contains("another table"));
    }
}
