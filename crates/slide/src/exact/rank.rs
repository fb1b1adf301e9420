//! Perfect ranking (rank/unrank) of partial permutations: the one indexing scheme behind every table.
//!
//! A partial permutation is `k` distinct values drawn from `0..n` (for us: the cells of `k` tiles on a board of `n`
//! cells). Its rank is its position in lexicographic order among all `n!/(n-k)!` such sequences, so ranks are dense
//! in `0..size()` and a table indexed by rank wastes no entry.
//!
//! A complete table ranks the cells of the first `n-2` tiles (blank first): the last two tiles then sit on the two
//! remaining cells in the one order that parity allows, so the rank is a perfect index of the `n!/2` reachable states.
//! A pattern database ranks the cells of its pattern's tiles (and, while it is built, the blank's).
//!
//! [`MultisetRanker`] ranks arrangements of labels that repeat (the multi-tile metric's label tables: each cell
//! holds its tile's goal row, or the blank).

/// Ranks and unranks `k`-element partial permutations of `0..n`, `k <= n <= 64`.
///
/// ```
/// use slide::engine::rank::PartialRanker;
/// let r = PartialRanker::new(4, 2).unwrap();
/// assert_eq!(r.size(), 12);
/// assert_eq!(r.rank(&[0, 1]), 0);
/// assert_eq!(r.rank(&[3, 2]), 11);
/// let mut out = [0u8; 2];
/// r.unrank(7, &mut out);
/// assert_eq!(r.rank(&out), 7);
/// ```
#[derive(Debug, Clone)]
pub struct PartialRanker {
    n: u32,
    k: u32,
    /// `weights[i]` = (n-1-i)! / (n-k)!: the number of completions of a prefix of length i+1.
    weights: Vec<u64>,
    /// The weights as precomputed divisors (multiplication by a reciprocal instead of a hardware division).
    divisors: Vec<strength_reduce::StrengthReducedU64>,
    size: u64,
}

impl PartialRanker {
    /// A ranker for `k` of `n` values; `None` when `k > n`, `n > 64` or the count does not fit in a `u64`.
    pub fn new(n: usize, k: usize) -> Option<PartialRanker> {
        if k > n || n > 64 {
            return None;
        }
        let mut weights = vec![0u64; k];
        let mut w: u64 = 1;
        for i in (0..k).rev() {
            weights[i] = w;
            w = w.checked_mul((n - i) as u64)?;
        }
        let divisors = weights
            .iter()
            .map(|&w| strength_reduce::StrengthReducedU64::new(w))
            .collect();
        Some(PartialRanker {
            n: n as u32,
            k: k as u32,
            weights,
            divisors,
            size: w,
        })
    }

    /// The number of partial permutations, `n!/(n-k)!`.
    #[inline]
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Number of values drawn (`k`).
    #[inline]
    pub fn k(&self) -> usize {
        self.k as usize
    }

    /// Number of values to draw from (`n`).
    #[inline]
    pub fn n(&self) -> usize {
        self.n as usize
    }

    /// The weight of position `i`: the number of completions of a prefix of length `i + 1`.
    #[inline]
    pub fn weight(&self, i: usize) -> u64 {
        self.weights[i]
    }

    /// The rank of `items[..k]`, which must be distinct values below `n`.
    #[inline]
    pub fn rank(&self, items: &[u8]) -> u64 {
        self.rank_parity(items).0
    }

    /// The rank, and the parity (0 or 1) of the sum of its Lehmer digits.
    #[inline]
    pub fn rank_parity(&self, items: &[u8]) -> (u64, u32) {
        let mut used: u64 = 0;
        let mut r: u64 = 0;
        let mut digits: u32 = 0;
        for (&p, &w) in items[..self.k as usize].iter().zip(&self.weights) {
            let below = used & ((1u64 << p) - 1);
            let d = p as u32 - below.count_ones();
            digits += d;
            r += d as u64 * w;
            used |= 1u64 << p;
        }
        (r, digits & 1)
    }

    /// Writes the partial permutation of rank `r` (`< size()`) to `out[..k]`; returns the unused values as a bit
    /// mask and the parity of the sum of its Lehmer digits.
    #[inline]
    pub fn unrank(&self, mut r: u64, out: &mut [u8]) -> (u64, u32) {
        let mut free: u64 = if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        };
        let mut digits: u32 = 0;
        for ((slot, &w), &div) in out[..self.k as usize]
            .iter_mut()
            .zip(&self.weights)
            .zip(&self.divisors)
        {
            let d = r / div;
            r -= d * w;
            digits += d as u32;
            let p = select(free, d as u32);
            *slot = p as u8;
            free &= !(1u64 << p);
        }
        (free, digits & 1)
    }
}

/// Ranks and unranks `k`-element subsets of `0..n` (`n <= 64`), given as bit masks, in colexicographic order (the
/// combinatorial number system: the subset `c_1 < c_2 < … < c_k` has rank `Σ C(c_j, j)`), and the orders of `k`
/// items over a subset's cells (a Lehmer code over the subset, lexicographic, `0..k!`). Zero-aware pattern
/// databases index an entry by the subset of cells a pattern's tiles cover, the blank's region, and the tiles'
/// order over those cells (see [`crate::engine::pdb`]).
///
/// ```
/// use slide::engine::rank::SubsetRanker;
/// let r = SubsetRanker::new(16, 3).unwrap();
/// assert_eq!(r.size(), 560);
/// assert_eq!(r.rank(0b111), 0);
/// assert_eq!(r.unrank(r.rank(0b1000_0100_0001)), 0b1000_0100_0001);
/// assert_eq!(r.orders(), 6);
/// let mask = 0b1000_0100_0001;
/// assert_eq!(r.order_rank(mask, &[0, 6, 11]), 0);
/// assert_eq!(r.order_rank(mask, &[11, 6, 0]), 5);
/// let mut out = [0u8; 3];
/// r.order_unrank(mask, 3, &mut out);
/// assert_eq!(r.order_rank(mask, &out), 3);
/// ```
#[derive(Debug, Clone)]
pub struct SubsetRanker {
    n: u32,
    k: u32,
    /// `binom[c * (k + 1) + j]` = C(c, j), for `c <= n`, `j <= k`.
    binom: Vec<u64>,
    size: u64,
    orders: u64,
}

impl SubsetRanker {
    /// A ranker for `k`-subsets of `0..n`; `None` when `k > n`, `n > 64`, `k > 20` or a count does not fit in a
    /// `u64`.
    pub fn new(n: usize, k: usize) -> Option<SubsetRanker> {
        if k > n || n > 64 || k > 20 {
            return None;
        }
        let mut binom = vec![0u64; (n + 1) * (k + 1)];
        for c in 0..=n {
            binom[c * (k + 1)] = 1;
            for j in 1..=k.min(c) {
                let a = binom[(c - 1) * (k + 1) + j - 1];
                let b = if j < c {
                    binom[(c - 1) * (k + 1) + j]
                } else {
                    0
                };
                binom[c * (k + 1) + j] = a.checked_add(b)?;
            }
        }
        let size = binom[n * (k + 1) + k];
        let orders = (1..=k as u64).product();
        Some(SubsetRanker {
            n: n as u32,
            k: k as u32,
            binom,
            size,
            orders,
        })
    }

    /// The number of subsets, C(n, k).
    #[inline]
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Number of elements of each subset (`k`).
    #[inline]
    pub fn k(&self) -> usize {
        self.k as usize
    }

    /// Number of values to draw from (`n`).
    #[inline]
    pub fn n(&self) -> usize {
        self.n as usize
    }

    /// The number of orders of `k` items over a subset, `k!`.
    #[inline]
    pub fn orders(&self) -> u64 {
        self.orders
    }

    /// The binomial coefficient C(c, j), for `c <= n`, `j <= k` (the colex rank adds C(c, j) for the `j`-th least
    /// cell `c` of a subset, counting from 1).
    #[inline]
    pub fn binom(&self, c: usize, j: usize) -> u64 {
        self.binom[c * (self.k as usize + 1) + j]
    }

    /// The colexicographic rank of `mask`, which must have exactly `k` bits set, all below `n`.
    #[inline]
    pub fn rank(&self, mut mask: u64) -> u64 {
        let w = self.k as usize + 1;
        let mut r = 0;
        let mut j = 1;
        while mask != 0 {
            let c = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            r += self.binom[c * w + j];
            j += 1;
        }
        r
    }

    /// The subset of rank `r` (`< size()`), as a bit mask.
    pub fn unrank(&self, mut r: u64) -> u64 {
        let w = self.k as usize + 1;
        let mut mask = 0u64;
        let mut c = self.n as usize;
        for j in (1..=self.k as usize).rev() {
            // The largest cell c with C(c, j) <= r.
            c -= 1;
            while self.binom[c * w + j] > r {
                c -= 1;
            }
            r -= self.binom[c * w + j];
            mask |= 1u64 << c;
        }
        mask
    }

    /// The rank of the order of `items[..k]` (distinct cells, exactly the cells of `mask`) over `mask`: item `i`'s
    /// digit counts the cells of `mask` below its cell not taken by items `0..i`, in `0..k!`.
    #[inline]
    pub fn order_rank(&self, mask: u64, items: &[u8]) -> u64 {
        let mut left = mask;
        let mut r = 0u64;
        for (i, &p) in items[..self.k as usize].iter().enumerate() {
            let d = (left & ((1u64 << p) - 1)).count_ones() as u64;
            r = r * (self.k as u64 - i as u64) + d;
            left &= !(1u64 << p);
        }
        r
    }

    /// Writes the order of rank `r` (`< k!`) of `k` items over `mask`'s cells to `out[..k]`.
    pub fn order_unrank(&self, mask: u64, mut r: u64, out: &mut [u8]) {
        let k = self.k as usize;
        let mut digits = [0u8; 20];
        for i in (0..k).rev() {
            let base = (k - i) as u64;
            digits[i] = (r % base) as u8;
            r /= base;
        }
        let mut left = mask;
        for (slot, &d) in out[..k].iter_mut().zip(&digits) {
            let p = select(left, d as u32);
            *slot = p as u8;
            left &= !(1u64 << p);
        }
    }
}

/// Ranks and unranks arrangements of a multiset of labels over `n <= 32` cells: label `l` occurs `counts[l]` times.
/// The rank is dense in `0..size()`, `size() = n! / (counts[0]! counts[1]! …)`: label 0's cells as a combination of
/// all `n` cells (colexicographic rank), then label 1's among the cells left, and so on; the last label takes the
/// cells that remain. Label 0's digit is the least significant, then the last label's, up to label 1's: with label
/// 0 the blank, the arrangements that differ only in where the blank is (the other labels read in cell order, the
/// blank skipped) have consecutive ranks, so a table read by rank keeps them in one cache line.
/// [`MultisetRanker::label0_major`] makes label 0's digit the most significant instead (a scan in rank order then
/// moves the blank least often).
///
/// ```
/// use slide::engine::rank::MultisetRanker;
/// let r = MultisetRanker::new(&[1, 2, 1]).unwrap(); // a blank, two 1s, one 2
/// assert_eq!(r.size(), 12);
/// let mut cells = [0u8; 4];
/// r.unrank(7, &mut cells);
/// assert_eq!(r.rank(&cells), 7);
/// ```
#[derive(Debug, Clone)]
pub struct MultisetRanker {
    n: usize,
    counts: Vec<u8>,
    /// `radix[l]` = C(cells left before label l, counts[l]).
    radix: Vec<u64>,
    /// `weight[l]`: the product of the radices of the digits less significant than label `l`'s (a rank is the sum
    /// of each label's digit times its weight).
    weight: Vec<u64>,
    /// The labels from the least significant digit to the most.
    low_to_high: Vec<usize>,
    /// For each label whose radix is at most [`COMBO_TABLE`], its combinations by colexicographic rank, as masks
    /// of positions among the cells left (unranking by lookup); empty for the others.
    combos: Vec<Vec<u32>>,
    size: u64,
}

/// An arrangement held as one cell mask per label, moved by [`MultisetRanker::seek_masks_pdep`] (cheapest from
/// one rank to the next).
#[derive(Debug, Clone)]
pub struct MaskCursor {
    rank: u64,
    digits: [u32; MAX_LABELS],
    left: [u32; MAX_LABELS],
    masks: [u32; MAX_LABELS],
}

/// Most labels a [`MaskCursor`] holds.
pub const MAX_LABELS: usize = 8;

impl MaskCursor {
    /// A cursor on no arrangement yet.
    pub fn new() -> MaskCursor {
        MaskCursor {
            rank: u64::MAX,
            digits: [0; MAX_LABELS],
            left: [0; MAX_LABELS],
            masks: [0; MAX_LABELS],
        }
    }

    /// The cell masks of the arrangement (label `l`'s cells in `masks()[l]`).
    pub fn masks(&self) -> &[u32; MAX_LABELS] {
        &self.masks
    }
}

impl Default for MaskCursor {
    fn default() -> MaskCursor {
        MaskCursor::new()
    }
}

/// The largest radix whose combinations [`MultisetRanker`] tabulates.
const COMBO_TABLE: u64 = 1 << 16;

/// Binomial coefficients C(n, k) for n, k <= 32.
const fn binomials() -> [[u64; 33]; 33] {
    let mut c = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
}

static BINOMIAL: [[u64; 33]; 33] = binomials();

impl MultisetRanker {
    /// A ranker for arrangements with `counts[l]` cells of label `l`; `None` when there are more than 32 cells or
    /// fewer than one label, or the count of arrangements does not fit in a `u64`.
    pub fn new(counts: &[u8]) -> Option<MultisetRanker> {
        let labels = counts.len();
        MultisetRanker::ordered(
            counts,
            std::iter::once(0).chain((1..labels).rev()).collect(),
        )
    }

    /// A ranker like [`MultisetRanker::new`] whose label 0 has the most significant digit (then label 1, and so
    /// on: the plain mixed-radix order of the labels).
    pub fn label0_major(counts: &[u8]) -> Option<MultisetRanker> {
        MultisetRanker::ordered(counts, (0..counts.len()).rev().collect())
    }

    fn ordered(counts: &[u8], low_to_high: Vec<usize>) -> Option<MultisetRanker> {
        let n: usize = counts.iter().map(|&c| c as usize).sum();
        if n > 32 || counts.is_empty() {
            return None;
        }
        let mut left = n;
        let mut size: u64 = 1;
        let mut radix = Vec::with_capacity(counts.len());
        let mut combos = Vec::with_capacity(counts.len());
        for &c in counts {
            let r = BINOMIAL[left][c as usize];
            radix.push(r);
            size = size.checked_mul(r)?;
            combos.push(if r <= COMBO_TABLE {
                (0..r).map(|d| colex_unrank(d, c as usize, left)).collect()
            } else {
                Vec::new()
            });
            left -= c as usize;
        }
        let mut weight = vec![1u64; radix.len()];
        let mut w = 1;
        for &l in &low_to_high {
            weight[l] = w;
            w *= radix[l];
        }
        Some(MultisetRanker {
            n,
            counts: counts.to_vec(),
            radix,
            weight,
            low_to_high,
            combos,
            size,
        })
    }

    /// The number of arrangements.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.n
    }

    /// The weight of label `l`'s digit in a rank (a rank is the sum of the digits times their weights; label 0's is
    /// 1). When label 0 has one cell, its digit is that cell's index, so a rank is that cell plus `n` times the rank
    /// of the other labels read in cell order without that cell.
    ///
    /// # Panics
    /// If `l` is not a label of this multiset (`l` at least the length of the counts it was made from).
    ///
    /// ```
    /// use slide::engine::rank::MultisetRanker;
    /// let r = MultisetRanker::new(&[1, 2, 1]).unwrap(); // a blank, two 1s, one 2
    /// assert_eq!((r.weight(0), r.weight(2), r.weight(1)), (1, 4, 4));
    /// // Moving the blank past the cells after it keeps the others' order: the rank moves by one a cell.
    /// assert_eq!(r.rank(&[1, 1, 0, 2]) - r.rank(&[0, 1, 1, 2]), 2);
    /// ```
    pub fn weight(&self, l: usize) -> u64 {
        self.weight[l]
    }

    /// The rank of an arrangement: `cells[i]` is the label of cell `i` (`cells.len()` = [`MultisetRanker::cells`],
    /// each label as often as its count).
    #[inline]
    pub fn rank(&self, cells: &[u8]) -> u64 {
        let mut masks = [0u32; 32];
        for (i, &l) in cells.iter().enumerate() {
            masks[l as usize] |= 1 << i;
        }
        self.rank_masks(&masks)
    }

    /// The rank of an arrangement given as one cell mask per label (`masks[l]` has bit `i` set when cell `i` holds
    /// label `l`).
    #[inline]
    pub fn rank_masks(&self, masks: &[u32]) -> u64 {
        let mut left: u32 = if self.n == 32 {
            u32::MAX
        } else {
            (1 << self.n) - 1
        };
        let mut r = 0u64;
        let labels = self.counts.len() - 1;
        for (&mask, &weight) in masks[..labels].iter().zip(&self.weight) {
            let mut m = mask;
            let mut comb = 0u64;
            let mut j = 0;
            while m != 0 {
                let p = m.trailing_zeros();
                m &= m - 1;
                j += 1;
                let below = (left & ((1u32 << p) - 1)).count_ones() as usize;
                comb += BINOMIAL[below][j];
            }
            r += comb * weight;
            left &= !mask;
        }
        r
    }

    /// True when [`MultisetRanker::rank_masks_pext`] may be called: at most 16 cells (every combination, once
    /// compressed to the cells left, fits the 16-bit tables) and a processor with BMI2's `PEXT`.
    pub fn pext_ready(&self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            self.n <= 16 && std::is_x86_feature_detected!("bmi2")
        }
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    /// [`MultisetRanker::rank_masks`] by `PEXT`: each label's cells compressed to the cells left in one
    /// instruction, and the colexicographic rank of the compressed mask read from two small tables
    /// (`colex16`), instead of a loop over the cells with a population count each (about a third of the
    /// instructions of the multi-tile search's node).
    ///
    /// # Safety
    ///
    /// The processor must support BMI2 and the ranker cover at most 16 cells: [`MultisetRanker::pext_ready`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2")]
    #[inline]
    pub unsafe fn rank_masks_pext(&self, masks: &[u32]) -> u64 {
        let mut left: u32 = (1 << self.n) - 1;
        let mut r = 0u64;
        let labels = self.counts.len() - 1;
        // Each label's digit times its weight: the products are independent, and only the sum is a chain.
        for (&mask, &weight) in masks[..labels].iter().zip(&self.weight) {
            let compressed = core::arch::x86_64::_pext_u32(mask, left);
            r += colex16(compressed) as u64 * weight;
            left &= !mask;
        }
        r
    }

    /// True when [`MultisetRanker::seek_masks_pdep`] may be called: [`MultisetRanker::pext_ready`] and every
    /// label's combinations tabulated.
    pub fn pdep_ready(&self) -> bool {
        self.pext_ready()
            && self.counts.len() <= MAX_LABELS
            && self.combos.iter().all(|c| !c.is_empty())
    }

    /// Moves `cursor` to the arrangement of rank `r` (`r < size()`), whose cell masks it then holds (the inverse of
    /// [`MultisetRanker::rank_masks`]): each label's combination read from its table and spread over the cells left
    /// by one `PDEP`. From a smaller rank, the step is added to the digits from the least significant, dividing
    /// only where a digit carries, and only the labels from the first whose digit changes are recomputed (with
    /// [`MultisetRanker::label0_major`], usually the last: scans in rank order pay few divisions; a scan that skips
    /// ranks, as the BFS's levels do, 0.7 times the time of a full seek each).
    ///
    /// # Safety
    ///
    /// The processor must support BMI2, and [`MultisetRanker::pdep_ready`] must hold. A cursor serves one ranker.
    /// (A rank out of range panics on a table index.)
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2")]
    #[inline]
    pub unsafe fn seek_masks_pdep(&self, cursor: &mut MaskCursor, r: u64) {
        let labels = self.counts.len();
        let from = if cursor.rank < r {
            // Add the step to the digits, from the least significant, dividing only where a digit carries (a scan's
            // steps are mostly short: most change the least significant digits alone). `from`: the first label
            // whose digit changed (its mask and those after it are recomputed).
            let mut add = r - cursor.rank;
            let mut from = labels;
            for &l in &self.low_to_high {
                let radix = self.radix[l];
                let v = cursor.digits[l] as u64 + add;
                from = from.min(l);
                if v < radix {
                    cursor.digits[l] = v as u32;
                    break;
                }
                if radix > 1 {
                    cursor.digits[l] = (v % radix) as u32;
                    add = v / radix;
                }
            }
            from
        } else {
            self.digits(r, &mut cursor.digits);
            0
        };
        let mut left = if from == 0 {
            (1u32 << self.n) - 1
        } else {
            cursor.left[from]
        };
        for l in from..labels {
            cursor.left[l] = left;
            let relative = self.combos[l][cursor.digits[l] as usize];
            let mask = core::arch::x86_64::_pdep_u32(relative, left);
            cursor.masks[l] = mask;
            left &= !mask;
        }
        cursor.rank = r;
    }

    /// Each label's digit of rank `r`.
    fn digits(&self, mut r: u64, digits: &mut [u32]) {
        for &l in &self.low_to_high {
            digits[l] = (r % self.radix[l]) as u32;
            r /= self.radix[l];
        }
    }

    /// Writes the arrangement of rank `r` (`r < size()`) into `cells` (length [`MultisetRanker::cells`]).
    pub fn unrank(&self, r: u64, cells: &mut [u8]) {
        let labels = self.counts.len();
        let mut digits = [0u32; 32];
        self.digits(r, &mut digits);
        let mut left: u32 = if self.n == 32 {
            u32::MAX
        } else {
            (1 << self.n) - 1
        };
        for (l, &d) in digits[..labels].iter().enumerate() {
            let relative = match self.combos[l].get(d as usize) {
                Some(&m) => m,
                None => colex_unrank(
                    d.into(),
                    self.counts[l] as usize,
                    left.count_ones() as usize,
                ),
            };
            // The cells left, in ascending order: those whose index among them is in `relative` take label l.
            let mut free = left;
            let mut rel = relative;
            while rel != 0 {
                let cell = free.trailing_zeros();
                if rel & 1 != 0 {
                    cells[cell as usize] = l as u8;
                    left &= !(1 << cell);
                }
                free &= free - 1;
                rel >>= 1;
            }
        }
    }
}

/// The colexicographic rank of the set of bit positions of `x` (below 2¹⁶) among the sets of its size: the sum of
/// C(p, j) over its positions p in ascending order, j = 1, 2, …; computed from its low byte
/// ([`COLEX_LOW`]) and its high byte given how many positions the low byte holds ([`COLEX_HIGH`]).
#[inline(always)]
fn colex16(x: u32) -> u32 {
    let low = (x & 0xff) as usize;
    let high = ((x >> 8) & 0xff) as usize;
    COLEX_LOW[low] as u32 + COLEX_HIGH[high][low.count_ones() as usize] as u32
}

/// [`colex16`] of each byte.
static COLEX_LOW: [u16; 256] = colex_tables().0;

/// `COLEX_HIGH[h][c]`: the sum of C(8 + p, c + j) over the positions p of byte `h` in ascending order, j = 1, 2,
/// …: the high byte's part of [`colex16`] when the low byte holds `c` positions.
static COLEX_HIGH: [[u16; 9]; 256] = colex_tables().1;

const fn colex_tables() -> ([u16; 256], [[u16; 9]; 256]) {
    let mut low = [0u16; 256];
    let mut high = [[0u16; 9]; 256];
    let mut b = 0;
    while b < 256 {
        let mut c = 0;
        while c <= 8 {
            let (mut sum, mut j, mut p) = (0u64, c, 0);
            while p < 8 {
                if b & (1 << p) != 0 {
                    j += 1;
                    sum += BINOMIAL[8 + p][j];
                }
                p += 1;
            }
            high[b][c] = sum as u16;
            c += 1;
        }
        let (mut sum, mut j, mut p) = (0u64, 0, 0);
        while p < 8 {
            if b & (1 << p) != 0 {
                j += 1;
                sum += BINOMIAL[p][j];
            }
            p += 1;
        }
        low[b] = sum as u16;
        b += 1;
    }
    (low, high)
}

/// The combination of colexicographic rank `d` of `k` positions among `len`, as a mask of positions.
fn colex_unrank(mut d: u64, k: usize, len: usize) -> u32 {
    let mut mask = 0u32;
    let mut len = len;
    for j in (1..=k).rev() {
        // The largest position p < len with C(p, j) <= d.
        let mut p = j - 1;
        while p + 1 < len && BINOMIAL[p + 1][j] <= d {
            p += 1;
        }
        d -= BINOMIAL[p][j];
        len = p;
        mask |= 1 << p;
    }
    mask
}

/// Index of the `d`-th (0-based) set bit of `mask`.
#[inline]
fn select(mut mask: u64, d: u32) -> u32 {
    for _ in 0..d {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

/// Parity (0 even, 1 odd) of a permutation of `0..len`, in O(len).
pub fn permutation_parity(perm: &[usize]) -> u32 {
    let mut seen = vec![false; perm.len()];
    let mut cycles = 0;
    for s in 0..perm.len() {
        if !seen[s] {
            cycles += 1;
            let mut c = s;
            while !seen[c] {
                seen[c] = true;
                c = perm[c];
            }
        }
    }
    ((perm.len() - cycles) & 1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subset_ranks_round_trip_in_colex_order() {
        // Every k-subset of a small n, enumerated independently by counting masks in increasing order (which is
        // colexicographic order for sets of equal size): ranks are 0, 1, 2, … and unrank inverts rank.
        for (n, k) in [(1, 0), (1, 1), (5, 2), (9, 4), (12, 6), (16, 8), (16, 1)] {
            let r = SubsetRanker::new(n, k).unwrap();
            let mut next = 0u64;
            for mask in 0u64..(1 << n) {
                if mask.count_ones() as usize != k {
                    continue;
                }
                assert_eq!(r.rank(mask), next, "{n} {k} {mask:b}");
                assert_eq!(r.unrank(next), mask);
                next += 1;
            }
            assert_eq!(next, r.size());
        }
        let big = SubsetRanker::new(64, 7).unwrap();
        let mask = (1u64 << 63) | (1 << 40) | (1 << 33) | (1 << 20) | (1 << 9) | (1 << 1) | 1;
        assert_eq!(big.unrank(big.rank(mask)), mask);
        assert_eq!(big.rank(u64::MAX << 57), big.size() - 1);
    }

    #[test]
    fn orders_over_a_subset_rank_lexicographically() {
        // The orders of k items over a subset, ranked as PartialRanker ranks the items' indices within the subset.
        let r = SubsetRanker::new(16, 5).unwrap();
        let mask: u64 = 0b1010_0110_0001_0000;
        let cells: Vec<u8> = (0..16).filter(|c| mask & (1 << c) != 0).collect();
        let local = PartialRanker::new(5, 5).unwrap();
        let mut seen = [false; 120];
        for o in 0..120 {
            let mut idx = [0u8; 5];
            local.unrank(o, &mut idx);
            let items: Vec<u8> = idx.iter().map(|&i| cells[i as usize]).collect();
            assert_eq!(r.order_rank(mask, &items), o);
            let mut out = [0u8; 5];
            r.order_unrank(mask, o, &mut out);
            assert_eq!(&out[..], &items[..]);
            seen[o as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn pext_ranks_equal_the_loop() {
        // Labels as the 4 × 4 and 3 × 5 multi-tile tables count them, and an uneven one; every rank checked
        // against the plain loop, the arrangements from a fixed pseudo-random stream.
        for counts in [&[1u8, 4, 4, 4, 3][..], &[1, 5, 5, 2, 2], &[1, 2, 7, 6]] {
            for r in both_orders(counts) {
                if !r.pext_ready() {
                    return;
                }
                let mut cells = vec![0u8; r.cells()];
                let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
                for _ in 0..20_000 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let i = x % r.size();
                    r.unrank(i, &mut cells);
                    let mut masks = [0u32; 32];
                    for (c, &l) in cells.iter().enumerate() {
                        masks[l as usize] |= 1 << c;
                    }
                    // SAFETY: pext_ready said the processor has BMI2 and the ranker has at most 16 cells.
                    #[cfg(target_arch = "x86_64")]
                    assert_eq!(unsafe { r.rank_masks_pext(&masks) }, i);
                    assert_eq!(r.rank_masks(&masks), i);
                }
            }
        }
    }

    /// The ranker of `counts` in both significance orders.
    fn both_orders(counts: &[u8]) -> [MultisetRanker; 2] {
        [
            MultisetRanker::new(counts).unwrap(),
            MultisetRanker::label0_major(counts).unwrap(),
        ]
    }

    #[test]
    fn the_two_orders_move_label_0s_digit() {
        // With one cell of label 0 on n cells: new() ranks rest · n + cell, label0_major() cell · (size / n) + rest.
        for counts in [&[1u8, 2, 1][..], &[1, 3, 3, 2], &[1, 4, 4, 4, 3]] {
            let [minor, major] = both_orders(counts);
            let n = minor.cells() as u64;
            let w = minor.size() / n;
            assert_eq!((minor.weight(0), major.weight(0)), (1, w));
            let mut cells = vec![0u8; minor.cells()];
            for i in (0..minor.size()).step_by((minor.size() / 3000).max(1) as usize) {
                minor.unrank(i, &mut cells);
                assert_eq!(major.rank(&cells), (i % n) * w + i / n, "{counts:?} {i}");
            }
        }
    }

    #[test]
    fn dense_and_inverse() {
        for n in 1..=7 {
            for k in 0..=n {
                let r = PartialRanker::new(n, k).unwrap();
                let mut out = vec![0u8; k];
                let mut prev: Option<Vec<u8>> = None;
                for i in 0..r.size() {
                    r.unrank(i, &mut out);
                    assert_eq!(r.rank(&out), i);
                    // lexicographic order
                    if let Some(p) = &prev {
                        assert!(p < &out);
                    }
                    prev = Some(out.clone());
                }
            }
        }
    }

    #[test]
    fn parity_of_full_perm_matches_digits() {
        let r = PartialRanker::new(6, 6).unwrap();
        let mut out = [0u8; 6];
        for i in 0..r.size() {
            let (_, par) = r.unrank(i, &mut out);
            let perm: Vec<usize> = out.iter().map(|&x| x as usize).collect();
            assert_eq!(par, permutation_parity(&perm));
            assert_eq!(r.rank_parity(&out), (i, par));
        }
    }

    #[test]
    fn mask_cursors_unrank_in_steps_and_jumps() {
        // Every rank in order (the cursor's carry path) and then jumps, against the plain unranking.
        for counts in [
            &[1u8, 2, 1][..],
            &[1, 3, 3, 2],
            &[2, 2, 2],
            &[1, 2, 2, 2, 2],
        ] {
            for r in both_orders(counts) {
                if !r.pdep_ready() {
                    return;
                }
                let mut cursor = MaskCursor::new();
                let mut cells = vec![0u8; r.cells()];
                let check = |cursor: &MaskCursor, cells: &mut Vec<u8>, i: u64| {
                    r.unrank(i, cells);
                    for (l, &m) in cursor.masks()[..counts.len()].iter().enumerate() {
                        let want: u32 = cells
                            .iter()
                            .enumerate()
                            .filter(|&(_, &x)| x as usize == l)
                            .map(|(c, _)| 1u32 << c)
                            .sum();
                        assert_eq!(m, want, "{counts:?} rank {i} label {l}");
                    }
                    assert_eq!(r.rank_masks(&cursor.masks()[..]), i);
                };
                for i in 0..r.size() {
                    // SAFETY: `pdep_ready` was checked.
                    unsafe { r.seek_masks_pdep(&mut cursor, i) };
                    check(&cursor, &mut cells, i);
                }
                for i in (0..r.size()).rev().step_by(7) {
                    // SAFETY: as above.
                    unsafe { r.seek_masks_pdep(&mut cursor, i) };
                    check(&cursor, &mut cells, i);
                }
                // Forward steps of every length from 1 to 97 (the digit-adding path, with carries over several
                // digits), from a fresh cursor and then from where the last seek left it.
                let mut cursor = MaskCursor::new();
                let mut i = 0;
                let mut step = 1;
                while i < r.size() {
                    // SAFETY: as above.
                    unsafe { r.seek_masks_pdep(&mut cursor, i) };
                    check(&cursor, &mut cells, i);
                    i += step;
                    step = step % 97 + 1;
                }
            }
        }
    }

    #[test]
    fn multiset_ranks_are_dense_and_inverse() {
        for counts in [
            &[1u8, 2, 1][..],
            &[1, 3, 3, 2],
            &[2, 2, 2],
            &[1, 4, 4, 4, 3],
            &[5],
            &[1, 1],
        ] {
            for r in both_orders(counts) {
                let n = r.cells();
                let expected = (1..=n as u64).product::<u64>()
                    / counts
                        .iter()
                        .map(|&c| (1..=c as u64).product::<u64>())
                        .product::<u64>();
                assert_eq!(r.size(), expected, "{counts:?}");
                let step = (r.size() / 5000).max(1);
                let mut cells = vec![0u8; n];
                let mut seen = std::collections::HashSet::new();
                let mut i = 0;
                while i < r.size() {
                    r.unrank(i, &mut cells);
                    for (l, &c) in counts.iter().enumerate() {
                        assert_eq!(
                            cells.iter().filter(|&&x| x as usize == l).count(),
                            c as usize
                        );
                    }
                    assert_eq!(r.rank(&cells), i);
                    assert!(seen.insert(cells.clone()));
                    i += step;
                }
            }
        }
        assert!(MultisetRanker::new(&[20, 13]).is_none());
    }

    #[test]
    fn large_n() {
        let r = PartialRanker::new(64, 3).unwrap();
        let items = [63u8, 0, 62];
        let mut out = [0u8; 3];
        r.unrank(r.rank(&items), &mut out);
        assert_eq!(out, items);
        assert!(PartialRanker::new(64, 64).is_none());
        assert!(PartialRanker::new(3, 4).is_none());
    }
}
