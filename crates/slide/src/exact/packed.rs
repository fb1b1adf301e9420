//! The one packed-table type: a fixed-width array of small unsigned entries stored in `u64` words.

/// A zeroed vector of `n` values for a large table, with the kernel asked to back it by huge pages (on Linux, where
/// transparent huge pages are on request): random lookups in tables of hundreds of megabytes then miss the TLB far
/// less often.
pub fn large_vec<T: Copy + Default>(n: usize) -> Vec<T> {
    let v = vec![T::default(); n];
    advise_huge(v.as_ptr() as *const u8, n * std::mem::size_of::<T>());
    v
}

/// Asks for huge pages over the 2 MiB-aligned part of a memory range; a hint only, silently ignored elsewhere.
fn advise_huge(ptr: *const u8, len: usize) {
    const HUGE: usize = 2 << 20;
    if len < 4 * HUGE {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        let start = (ptr as usize).next_multiple_of(HUGE);
        let end = (ptr as usize + len) / HUGE * HUGE;
        if end > start {
            // SAFETY: madvise with MADV_HUGEPAGE only changes how the kernel backs pages of this mapping, which the
            // vector owns; it never changes their contents, and an error is harmless.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, len);
}

/// `len` entries of `bits` bits each (1 to 16), packed back to back in 64-bit words; entries may straddle words.
///
/// Memory: `ceil(len * bits / 64) * 8` bytes, for example 2 bits × 239,500,800 states = 59.9 MB.
///
/// ```
/// use slide::engine::packed::PackedTable;
/// let mut t = PackedTable::new(5, 100);
/// t.set(42, 21);
/// assert_eq!(t.get(42), 21);
/// assert_eq!(t.get(41), 0);
/// assert_eq!(t.bytes(), 72); // 500 bits in 8 words, plus a guard word
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackedTable {
    bits: u32,
    len: u64,
    words: Vec<u64>,
}

impl PackedTable {
    /// A table of `len` zero entries of `bits` bits. Panics if `bits` is not in `1..=16` (a programming error).
    pub fn new(bits: u32, len: u64) -> PackedTable {
        assert!((1..=16).contains(&bits), "PackedTable bits must be 1..=16");
        let words = Self::words_for(bits, len);
        PackedTable {
            bits,
            len,
            words: large_vec(words),
        }
    }

    /// Number of words needed for `len` entries of `bits` bits (plus one guard word so reads never straddle past
    /// the end).
    pub fn words_for(bits: u32, len: u64) -> usize {
        ((len as u128 * bits as u128).div_ceil(64) + 1) as usize
    }

    /// Rebuilds a table from its raw words (as saved); `None` when the word count does not fit.
    pub fn from_words(bits: u32, len: u64, words: Vec<u64>) -> Option<PackedTable> {
        ((1..=16).contains(&bits) && words.len() == Self::words_for(bits, len))
            .then_some(PackedTable { bits, len, words })
    }

    /// Bits per entry.
    #[inline]
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// Number of entries.
    #[inline]
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when the table has no entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The raw words.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Memory taken by the entries, in bytes.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// Entry `i`; `i` must be `< len()`.
    #[inline]
    pub fn get(&self, i: u64) -> u32 {
        let bit = i * self.bits as u64;
        let w = (bit >> 6) as usize;
        let off = (bit & 63) as u32;
        let mask = (1u64 << self.bits) - 1;
        let lo = self.words[w] >> off;
        let v = if off + self.bits > 64 {
            lo | (self.words[w + 1] << (64 - off))
        } else {
            lo
        };
        (v & mask) as u32
    }

    /// Sets entry `i` to `v` (only the low `bits` bits of `v` are kept).
    #[inline]
    pub fn set(&mut self, i: u64, v: u32) {
        let bit = i * self.bits as u64;
        let w = (bit >> 6) as usize;
        let off = (bit & 63) as u32;
        let mask = (1u64 << self.bits) - 1;
        let v = v as u64 & mask;
        self.words[w] = (self.words[w] & !(mask << off)) | (v << off);
        if off + self.bits > 64 {
            let hi_bits = off + self.bits - 64;
            let hi_mask = (1u64 << hi_bits) - 1;
            self.words[w + 1] = (self.words[w + 1] & !hi_mask) | (v >> (64 - off));
        }
    }

    /// Builds a table of `bits`-bit entries from bytes, applying `f` to each, in parallel.
    pub fn from_bytes(bits: u32, bytes: &[u8], f: impl Fn(u8) -> u32 + Sync) -> PackedTable {
        use rayon::prelude::*;
        let len = bytes.len() as u64;
        let mut t = PackedTable::new(bits, len);
        // Entries per block chosen so that blocks start on word boundaries: 64 entries span exactly `bits` words.
        let per_block: usize = 64 * 1024;
        let words_per_block = per_block * bits as usize / 64;
        t.words
            .par_chunks_mut(words_per_block)
            .enumerate()
            .for_each(|(b, words)| {
                let start = b * per_block;
                let end = (start + per_block).min(bytes.len());
                let mut local = PackedSlice { bits, words };
                for (j, &x) in bytes[start.min(end)..end].iter().enumerate() {
                    local.set(j as u64, f(x));
                }
            });
        t
    }
}

/// A window of a packed table starting on a word boundary, for parallel filling.
struct PackedSlice<'a> {
    bits: u32,
    words: &'a mut [u64],
}

impl PackedSlice<'_> {
    #[inline]
    fn set(&mut self, i: u64, v: u32) {
        let bit = i * self.bits as u64;
        let w = (bit >> 6) as usize;
        let off = (bit & 63) as u32;
        let mask = (1u64 << self.bits) - 1;
        let v = v as u64 & mask;
        self.words[w] |= v << off;
        if off + self.bits > 64 {
            self.words[w + 1] |= v >> (64 - off);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip_all_widths() {
        for bits in 1..=16u32 {
            let len = 1000u64;
            let mut t = PackedTable::new(bits, len);
            let m = (1u32 << bits) - 1;
            for i in 0..len {
                t.set(i, (i as u32).wrapping_mul(2654435761) & m);
            }
            for i in 0..len {
                assert_eq!(
                    t.get(i),
                    (i as u32).wrapping_mul(2654435761) & m,
                    "bits {bits} i {i}"
                );
            }
            let bytes: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let p = PackedTable::from_bytes(bits, &bytes, |x| x as u32 & m);
            for i in 0..len {
                assert_eq!(p.get(i), (i % 251) as u32 & m);
            }
        }
    }

    #[test]
    fn from_bytes_many_blocks() {
        let bytes: Vec<u8> = (0..300_001u32).map(|i| (i % 3) as u8).collect();
        let p = PackedTable::from_bytes(2, &bytes, |x| x as u32);
        for i in (0..300_001u64).step_by(997) {
            assert_eq!(p.get(i), (i % 3) as u32);
        }
    }
}
