//! Table files: versioned and checksummed, verified when read.
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
//! This module encodes, decodes and checks; it does no file I/O. Where the bytes go is a [`crate::store::Store`]'s
//! business (the [`crate::store::FileStore`] writes them atomically into a directory).

use std::io::{Read, Write};

use crate::board::Shape;
use crate::error::{Error, Result};
use crate::exact::packed::{PackedTable, SharedBytes};
use crate::StoreError;

/// The version of the file layout and of the tables' meaning; files of another version are rebuilt.
pub const FORMAT_VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"SLIDETB\0";
const HEADER: usize = 24;

/// What a table file holds, stored in its header and checked against what the caller expects.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Meta {
    /// `"complete"`, `"pdb"` or `"partial"` (a partial goal's table).
    pub kind: String,
    /// The canonical shape (a partial goal's table: the board's own shape).
    pub shape: Shape,
    /// The canonical goal's blank cell (a partial goal's table: the blank's fixed cell, or the number of cells
    /// when the blank is free).
    pub blank: usize,
    /// `"exact"` (entries are distances) or `"mod3"` (entries are distances modulo 3).
    pub encoding: String,
    /// The metric the distances count: `"stm"` or `"mtm"`. Files written before the multi-tile metric have no such
    /// field and are read as `"stm"`; STM files are still written without it, so old and new versions share them.
    #[serde(default = "stm", skip_serializing_if = "is_stm")]
    pub metric: String,
    /// Pattern tiles, for pattern databases (the goal cells of the fixed tiles, for partial goals).
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

/// Writes a table file to `out`: header, metadata and payload, the checksum computed first in a pass over the
/// table's words (no copy of the table is made).
pub fn write(out: &mut dyn Write, meta: &Meta, table: &PackedTable) -> std::io::Result<()> {
    let meta_bytes = serde_json::to_vec(meta).map_err(std::io::Error::other)?;
    let pad = (8 - (HEADER + meta_bytes.len()) % 8) % 8;
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(&meta_bytes);
    let mut chunk = Vec::with_capacity(CHUNK_WORDS * 8);
    for words in table.words().chunks(CHUNK_WORDS) {
        chunk.clear();
        words
            .iter()
            .for_each(|w| chunk.extend_from_slice(&w.to_le_bytes()));
        hasher.update(&chunk);
    }
    let sum = hasher.digest();
    out.write_all(MAGIC)?;
    out.write_all(&FORMAT_VERSION.to_le_bytes())?;
    out.write_all(&(meta_bytes.len() as u32).to_le_bytes())?;
    out.write_all(&sum.to_le_bytes())?;
    out.write_all(&meta_bytes)?;
    out.write_all(&[0u8; 8][..pad])?;
    for words in table.words().chunks(CHUNK_WORDS) {
        chunk.clear();
        words
            .iter()
            .for_each(|w| chunk.extend_from_slice(&w.to_le_bytes()));
        out.write_all(&chunk)?;
    }
    Ok(())
}

/// Words written or hashed at a time.
const CHUNK_WORDS: usize = 1 << 13;

/// A table file's header, read and checked: its metadata (and their bytes, for the checksum), the checksum, where
/// the words start and how many there are.
struct Header {
    meta: Meta,
    meta_bytes: Vec<u8>,
    sum: u64,
    offset: u64,
    words: usize,
}

impl Header {
    /// True when `raw` (the words as stored: little-endian bytes) match the checksum.
    fn checksum_ok(&self, raw: &[u8]) -> bool {
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        hasher.update(&self.meta_bytes);
        hasher.update(raw);
        hasher.digest() == self.sum
    }
}

/// Reads and verifies a table file of `file_len` bytes from `input` against the expected metadata; `name` says
/// where it comes from in messages. Any mismatch or damage is an error saying what.
///
/// The payload is read straight into the table's words (no second copy of the file in memory).
pub fn read(
    input: &mut dyn Read,
    file_len: u64,
    expected: &Meta,
    name: &str,
) -> Result<(Meta, PackedTable)> {
    let io = |e: std::io::Error| {
        Error::Store(StoreError::Unreadable {
            file: name.to_string(),
            reason: e.to_string(),
        })
    };
    let bad = |what: &str| {
        Error::Store(StoreError::Damaged {
            file: name.to_string(),
            what: what.to_string(),
        })
    };
    let h = read_header(input, file_len, expected, name)?;
    let words = h.words;
    let mut data: Vec<u64> = crate::exact::packed::large_vec(words)?;
    prefault(&mut data);
    {
        // SAFETY: any bytes are a valid u64; the slice covers exactly the vector's initialised memory.
        let raw: &mut [u8] =
            unsafe { std::slice::from_raw_parts_mut(data.as_mut_ptr() as *mut u8, words * 8) };
        input.read_exact(raw).map_err(io)?;
        if !h.checksum_ok(raw) {
            return Err(bad("checksum mismatch"));
        }
    }
    for w in &mut data {
        *w = u64::from_le(*w);
    }
    let table = PackedTable::from_words(h.meta.bits, h.meta.len, data)
        .ok_or_else(|| bad("bad table size"))?;
    Ok((h.meta, table))
}

/// Touches every page of a large fresh vector from the thread pool: the first touch of a page (the kernel zeroing it,
/// and on a virtual machine the host's own fault) is most of the time of reading a table of hundreds of megabytes,
/// and it runs in parallel where the copy from the file would make it one page after another. Measured on the two
/// 4 × 4 MTM label tables (252 MB) just after another process freed 3 GB: 0.47 to 0.62 s of wall time to the first
/// answer against 0.76 to 0.80 s (the same 0.7 s of system time); no difference when the pages come quickly.
fn prefault(data: &mut [u64]) {
    use rayon::prelude::*;
    const PAGE_WORDS: usize = 4096 / 8;
    if data.len() * 8 < (64 << 20) {
        return;
    }
    data.par_chunks_mut(PAGE_WORDS * 512).for_each(|chunk| {
        for page in chunk.chunks_mut(PAGE_WORDS) {
            page[0] = 0;
        }
    });
}

/// A table over a whole table file's bytes shared in memory (a file mapped by the [`crate::store::Store`]: processes
/// that map the same file share one copy of its pages), used in place, after the checks of [`read`]: the header
/// always, the checksum over the words unless `verified` (the store recorded that this very file passed it before,
/// [`crate::store::Store::verified`]). `Ok(None)` where the words cannot be used in place (a big-endian machine, or
/// bytes not aligned to 8): then [`read`] the file.
pub fn map(
    bytes: SharedBytes,
    expected: &Meta,
    name: &str,
    verified: bool,
) -> Result<Option<(Meta, PackedTable)>> {
    let all = (*bytes).as_ref();
    let h = read_header(&mut &all[..], all.len() as u64, expected, name)?;
    let offset = h.offset as usize;
    if !verified && !h.checksum_ok(&all[offset..]) {
        return Err(Error::Store(StoreError::Damaged {
            file: name.to_string(),
            what: "checksum mismatch".into(),
        }));
    }
    let Some(table) = PackedTable::from_shared(h.meta.bits, h.meta.len, bytes, offset) else {
        return Ok(None);
    };
    Ok(Some((h.meta, table)))
}

/// Reads and checks a table file's header against the expected metadata and the file's length; `input` is left at
/// the words.
fn read_header(input: &mut dyn Read, file_len: u64, expected: &Meta, name: &str) -> Result<Header> {
    let io = |e: std::io::Error| {
        Error::Store(StoreError::Unreadable {
            file: name.to_string(),
            reason: e.to_string(),
        })
    };
    let bad = |what: &str| {
        Error::Store(StoreError::Damaged {
            file: name.to_string(),
            what: what.to_string(),
        })
    };
    let mut head = [0u8; HEADER];
    if file_len < HEADER as u64 || input.read_exact(&mut head).is_err() || &head[..8] != MAGIC {
        return Err(bad("not a slide table file"));
    }
    let u32_at = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().expect("4 bytes"));
    let version = u32_at(8);
    if version != FORMAT_VERSION {
        return Err(Error::Store(StoreError::OtherVersion {
            file: name.to_string(),
            version,
            expected: FORMAT_VERSION,
        }));
    }
    let m = u32_at(12) as usize;
    let sum = u64::from_le_bytes(head[16..24].try_into().expect("8 bytes"));
    let meta_end = HEADER + m;
    if meta_end as u64 > file_len || m > 1 << 20 {
        return Err(bad("truncated header"));
    }
    let mut meta_bytes = vec![0u8; m];
    input.read_exact(&mut meta_bytes).map_err(io)?;
    let meta: Meta = serde_json::from_slice(&meta_bytes).map_err(|_| bad("unreadable metadata"))?;
    if !meta.same_table(expected) {
        return Err(Error::Store(StoreError::OtherTable {
            file: name.to_string(),
            found: format!(
                "{} {} blank {} {}",
                meta.kind, meta.shape, meta.blank, meta.metric
            ),
        }));
    }
    if !(1..=32).contains(&meta.bits) {
        return Err(bad("bad entry width"));
    }
    let pad = (8 - meta_end % 8) % 8;
    let words = PackedTable::words_for(meta.bits, meta.len);
    let want = (meta_end + pad) as u64 + words as u64 * 8;
    if file_len != want {
        return Err(bad(&format!("{file_len} bytes, expected {want}")));
    }
    let mut skip = [0u8; 8];
    input.read_exact(&mut skip[..pad]).map_err(io)?;
    Ok(Header {
        meta,
        meta_bytes,
        sum,
        offset: (meta_end + pad) as u64,
        words,
    })
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

    fn load(bytes: &[u8], meta: &Meta) -> Result<(Meta, PackedTable)> {
        read(&mut &bytes[..], bytes.len() as u64, meta, "test")
    }

    #[test]
    fn roundtrip_and_damage() {
        let (meta, t) = sample();
        let mut good = Vec::new();
        write(&mut good, &meta, &t).unwrap();
        let (m2, t2) = load(&good, &meta).unwrap();
        assert_eq!((m2, t2), (meta.clone(), t));
        assert!(file_name(&meta).ends_with(&format!(".v{FORMAT_VERSION}.tbl")));
        // bit flips anywhere are caught
        for pos in [0, 9, 13, 17, 30, good.len() / 2, good.len() - 1] {
            let mut b = good.clone();
            b[pos] ^= 0x10;
            assert!(load(&b, &meta).is_err(), "flip at {pos}");
        }
        for len in [0, 10, 24, 40, good.len() - 8] {
            assert!(load(&good[..len], &meta).is_err(), "truncated to {len}");
        }
        let mut other = meta.clone();
        other.shape = Shape::new(3, 2).unwrap();
        // the other metric's table is another table, with another name
        let mut mtm = meta.clone();
        mtm.metric = "mtm".into();
        assert_ne!(file_name(&mtm), file_name(&meta));
        assert!(load(&good, &mtm)
            .unwrap_err()
            .to_string()
            .contains("another table"));
        assert!(load(&good, &other)
            .unwrap_err()
            .to_string()
            .contains("another table"));
    }
}
