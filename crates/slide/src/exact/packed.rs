//! The one packed-table type: a fixed-width array of small unsigned entries stored in `u64` words.

use crate::error::{Error, Result, SolveError};

/// Element types of [`large_vec`]: plain integers, whose all-zero bytes are the value 0.
pub trait Zeroed: Copy + Default + sealed::Sealed {}
impl Zeroed for u8 {}
impl Zeroed for u64 {}
mod sealed {
    pub trait Sealed {}
    impl Sealed for u8 {}
    impl Sealed for u64 {}
}

/// A zeroed vector of `n` values for a large table, with the kernel asked to back it by huge pages (on Linux, where
/// transparent huge pages are on request): random lookups in tables of hundreds of megabytes then miss the TLB far
/// less often.
///
/// Fallible: memory the system refuses (an address-space limit, `ulimit -v`, or a machine out of memory) is
/// [`SolveError::OutOfMemory`] naming the bytes asked for and the address-space limit, never an abort, so that a
/// process that asked for too large a table goes on (the solver names the table in the error). The memory comes
/// zeroed from the allocator (`calloc`), untouched until used, as with `vec![0; n]`.
pub fn large_vec<T: Zeroed>(n: usize) -> Result<Vec<T>> {
    let bytes = (n as u128).saturating_mul(std::mem::size_of::<T>() as u128);
    let refused = || {
        Error::Solve(SolveError::OutOfMemory {
            what: crate::error::UNNAMED.into(),
            needed: u64::try_from(bytes).unwrap_or(u64::MAX),
            limit: address_space_limit(),
        })
    };
    if n == 0 {
        return Ok(Vec::new());
    }
    let layout = std::alloc::Layout::array::<T>(n).map_err(|_| refused())?;
    // SAFETY: the layout has a non-zero size (n > 0 and T is an integer type).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) } as *mut T;
    if ptr.is_null() {
        return Err(refused());
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout of `n` values of T, and all-zero bytes
    // are a valid T (an integer: `Zeroed` is sealed), so all `n` values are initialised.
    let v = unsafe { Vec::from_raw_parts(ptr, n, n) };
    advise_huge(v.as_ptr() as *const u8, n * std::mem::size_of::<T>());
    Ok(v)
}

/// The process's address-space limit (`RLIMIT_AS`, `ulimit -v`) in bytes, where one is set.
pub(crate) fn address_space_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit only writes the struct it is given.
        if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } != 0
            || lim.rlim_cur == libc::RLIM_INFINITY
        {
            return None;
        }
        Some(lim.rlim_cur)
    }
    #[cfg(not(unix))]
    None
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

/// `len` entries of `bits` bits each (1 to 32), packed back to back in 64-bit words; entries may straddle words.
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
    words: Words,
}

/// A table's words: in memory of its own, or in shared bytes such as a table file mapped read-only into memory
/// ([`PackedTable::from_shared`]), whose pages every process that maps the same file shares.
struct Words {
    /// The first word: of `owner`'s vector, or inside its mapping.
    ptr: *mut u64,
    /// Number of words.
    n: usize,
    owner: Owner,
}

enum Owner {
    /// The vector `ptr` points into (taken once from `as_mut_ptr`, never touched again but to drop it).
    Vec(#[allow(dead_code)] Vec<u64>),
    /// Read-only bytes `ptr` points into (a mapped file, say), kept alive while the table lives.
    Shared(#[allow(dead_code)] SharedBytes),
}

/// Read-only bytes shared between owners, such as a file mapped into memory ([`crate::store::Mapped`]).
pub type SharedBytes = std::sync::Arc<dyn AsRef<[u8]> + Send + Sync>;

// SAFETY: `Words` owns its memory (a vector, or shared read-only bytes that are `Send + Sync`) like a `Vec<u64>`
// does; writes need `&mut Words`, and shared bytes are copied before any write, so sharing `&Words` only reads.
unsafe impl Send for Words {}
// SAFETY: as above.
unsafe impl Sync for Words {}

impl Words {
    fn from_vec(mut v: Vec<u64>) -> Words {
        Words {
            ptr: v.as_mut_ptr(),
            n: v.len(),
            owner: Owner::Vec(v),
        }
    }

    #[inline(always)]
    fn as_slice(&self) -> &[u64] {
        // SAFETY: `ptr` points to `n` initialised words that live as long as `owner`, and so as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr, self.n) }
    }

    /// The words to write; a mapped table is first copied into memory of its own.
    #[inline]
    fn as_mut_slice(&mut self) -> &mut [u64] {
        if self.is_mapped() {
            *self = Words::from_vec(self.as_slice().to_vec());
        }
        // SAFETY: as in `as_slice`; the words are this table's own vector, borrowed mutably through `self`.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.n) }
    }

    fn is_mapped(&self) -> bool {
        !matches!(self.owner, Owner::Vec(_))
    }
}

impl Clone for Words {
    fn clone(&self) -> Words {
        Words::from_vec(self.as_slice().to_vec())
    }
}

impl PartialEq for Words {
    fn eq(&self, other: &Words) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Words {}

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} words{}",
            self.n,
            if self.is_mapped() { ", mapped" } else { "" }
        )
    }
}

impl PackedTable {
    /// A table of `len` zero entries of `bits` bits. Panics if `bits` is not in `1..=32` (a programming error).
    /// Memory the system refuses ends the process, as for any vector: tables built from a size of the caller's
    /// take [`PackedTable::try_new`].
    pub fn new(bits: u32, len: u64) -> PackedTable {
        match Self::try_new(bits, len) {
            Ok(t) => t,
            Err(_) => std::alloc::handle_alloc_error(std::alloc::Layout::new::<u64>()),
        }
    }

    /// [`PackedTable::new`], with memory the system refuses an error ([`SolveError::OutOfMemory`]).
    pub fn try_new(bits: u32, len: u64) -> Result<PackedTable> {
        assert!((1..=32).contains(&bits), "PackedTable bits must be 1..=32");
        let words = Self::words_for(bits, len);
        Ok(PackedTable {
            bits,
            len,
            words: Words::from_vec(large_vec(words)?),
        })
    }

    /// Number of words needed for `len` entries of `bits` bits (plus one guard word so reads never straddle past
    /// the end).
    pub fn words_for(bits: u32, len: u64) -> usize {
        ((len as u128 * bits as u128).div_ceil(64) + 1) as usize
    }

    /// Rebuilds a table from its raw words (as saved); `None` when the word count does not fit.
    pub fn from_words(bits: u32, len: u64, words: Vec<u64>) -> Option<PackedTable> {
        ((1..=32).contains(&bits) && words.len() == Self::words_for(bits, len)).then(|| {
            PackedTable {
                bits,
                len,
                words: Words::from_vec(words),
            }
        })
    }

    /// A table over the words found `offset` bytes into `bytes` (read-only memory shared with others, such as a
    /// table file mapped into memory, whose pages every process that maps the same file shares), used in place
    /// rather than copied. `None` when the bytes do not end with exactly the words of `len` entries, are not
    /// aligned to 8 bytes there, or this is a big-endian machine (the words are stored little-endian).
    pub fn from_shared(
        bits: u32,
        len: u64,
        bytes: SharedBytes,
        offset: usize,
    ) -> Option<PackedTable> {
        let words = Self::words_for(bits, len);
        let all = (*bytes).as_ref();
        let fits = (1..=32).contains(&bits)
            && cfg!(target_endian = "little")
            && all.len().checked_sub(offset) == Some(words * 8)
            && (all.as_ptr() as usize + offset) % 8 == 0;
        if !fits {
            return None;
        }
        let ptr = all[offset..].as_ptr() as *mut u64;
        Some(PackedTable {
            bits,
            len,
            words: Words {
                ptr,
                n: words,
                owner: Owner::Shared(bytes),
            },
        })
    }

    /// True when the table's words are shared bytes, such as a mapped file ([`PackedTable::from_shared`]).
    pub fn is_mapped(&self) -> bool {
        self.words.is_mapped()
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
        self.words.as_slice()
    }

    /// Memory taken by the entries, in bytes.
    pub fn bytes(&self) -> usize {
        self.words.n * 8
    }

    /// Entry `i`; `i` must be `< len()`.
    #[inline]
    pub fn get(&self, i: u64) -> u32 {
        let bit = i * self.bits as u64;
        let w = (bit >> 6) as usize;
        let off = (bit & 63) as u32;
        let mask = (1u64 << self.bits) - 1;
        let words = self.words.as_slice();
        let lo = words[w] >> off;
        let v = if off + self.bits > 64 {
            lo | (words[w + 1] << (64 - off))
        } else {
            lo
        };
        (v & mask) as u32
    }

    /// Asks the processor to start loading the word that holds entry `i` (`< len()`) into its caches, so that a
    /// [`PackedTable::get`] soon after does not wait for memory: searches that read several random entries of a
    /// table of hundreds of megabytes per node issue them all first. A hint only: no effect on any value, and
    /// nothing at all off x86-64.
    #[inline]
    pub fn prefetch(&self, i: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let w = ((i * self.bits as u64) >> 6) as usize;
            let words = self.words.as_slice();
            if let Some(word) = words.get(w) {
                // SAFETY: a prefetch never faults nor changes memory, and the address is of a word of the table.
                unsafe {
                    core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                        word as *const u64 as *const i8,
                    )
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }

    /// Sets entry `i` to `v` (only the low `bits` bits of `v` are kept).
    #[inline]
    pub fn set(&mut self, i: u64, v: u32) {
        let bit = i * self.bits as u64;
        let w = (bit >> 6) as usize;
        let off = (bit & 63) as u32;
        let mask = (1u64 << self.bits) - 1;
        let v = v as u64 & mask;
        let bits = self.bits;
        let words = self.words.as_mut_slice();
        words[w] = (words[w] & !(mask << off)) | (v << off);
        if off + bits > 64 {
            let hi_bits = off + bits - 64;
            let hi_mask = (1u64 << hi_bits) - 1;
            words[w + 1] = (words[w + 1] & !hi_mask) | (v >> (64 - off));
        }
    }

    /// Builds a table of `bits`-bit entries from bytes, applying `f` to each, in parallel.
    /// Memory the system refuses is [`SolveError::OutOfMemory`].
    pub fn from_bytes(
        bits: u32,
        bytes: &[u8],
        f: impl Fn(u8) -> u32 + Sync,
    ) -> Result<PackedTable> {
        use rayon::prelude::*;
        let len = bytes.len() as u64;
        let mut t = PackedTable::try_new(bits, len)?;
        // Entries per block chosen so that blocks start on word boundaries: 64 entries span exactly `bits` words.
        let per_block: usize = 64 * 1024;
        let words_per_block = per_block * bits as usize / 64;
        t.words
            .as_mut_slice()
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
        Ok(t)
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
        for bits in 1..=32u32 {
            let len = 1000u64;
            let mut t = PackedTable::new(bits, len);
            let m = ((1u64 << bits) - 1) as u32;
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
            let p = PackedTable::from_bytes(bits, &bytes, |x| x as u32 & m).unwrap();
            for i in 0..len {
                assert_eq!(p.get(i), (i % 251) as u32 & m);
            }
        }
    }

    #[test]
    fn shared_tables_read_in_place_and_copy_before_writing() {
        let mut t = PackedTable::new(5, 100);
        for i in 0..100 {
            t.set(i, (i % 32) as u32);
        }
        // A header of 16 bytes before the words, in memory aligned to 8.
        let mut words = vec![0x0707_0707_0707_0707u64; 2];
        words.extend(t.words().iter().map(|w| w.to_le()));
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_ne_bytes()).collect();
        let shared: SharedBytes = std::sync::Arc::new(bytes);
        let mapped = PackedTable::from_shared(5, 100, shared.clone(), 16);
        assert_eq!(mapped.is_some(), cfg!(target_endian = "little"));
        let Some(mut m) = mapped else {
            return;
        };
        assert!(m.is_mapped());
        assert_eq!(m, t);
        assert_eq!(m.clone(), t);
        m.set(3, 9);
        assert!(!m.is_mapped());
        assert_eq!((m.get(3), m.get(4)), (9, 4));
        assert_eq!(
            (*shared).as_ref()[16..],
            t.words()
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<u8>>()[..]
        );
        // Wrong sizes and offsets are declined.
        assert!(PackedTable::from_shared(5, 200, shared.clone(), 16).is_none());
        assert!(PackedTable::from_shared(5, 100, shared.clone(), 12).is_none());
        assert!(PackedTable::from_shared(5, 100, shared, 8).is_none());
    }

    #[test]
    fn from_bytes_many_blocks() {
        let bytes: Vec<u8> = (0..300_001u32).map(|i| (i % 3) as u8).collect();
        let p = PackedTable::from_bytes(2, &bytes, |x| x as u32).unwrap();
        for i in (0..300_001u64).step_by(997) {
            assert_eq!(p.get(i), (i % 3) as u32);
        }
    }
}
