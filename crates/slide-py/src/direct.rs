//! Direct tables for boards of at most 6 cells (2 × 2, 2 × 3, 3 × 2): every row-major sequence of n values in
//! 0..n, read as a number in base n, indexes one byte, the board's distance, -1 when the goal cannot be reached,
//! or [`INVALID`] when the values are not a board (a value repeated). `distances` reads such boards at memory
//! speed, every board validated by the same read; `sliding_puzzle` answers a list of rows without building a board.

use super::*;
use pyo3::ffi;

/// The entry of a direct table for values that are not a board (and what `distances(..., invalid="mark")` returns).
pub(crate) const INVALID: i8 = -2;

/// Largest number of cells a direct table covers (6⁶ = 46,656 entries).
pub(crate) const MAX_DIRECT_CELLS: usize = 6;

/// Boards below this many are answered on the calling thread, the GIL held (the answer takes microseconds).
const INLINE_BOARDS: usize = 1 << 16;

/// Boards each parallel task answers.
const CHUNK_BOARDS: usize = 1 << 16;

/// The distance of every sequence of n values in 0..n, indexed by the sequence read as a number in base n.
pub(crate) struct Direct {
    n: usize,
    entries: Box<[i8]>,
}

impl Direct {
    /// The table of `shape` (at most [`MAX_DIRECT_CELLS`] cells, not a line) towards `goal` in `metric`, built from
    /// the complete table.
    fn build(shape: Shape, goal: &Board, metric: Metric) -> Result<Direct, Error> {
        let lookup = Lookup::new(shape, goal, metric)?;
        let n = shape.cells();
        let size = n.pow(n as u32);
        let mut entries = vec![INVALID; size].into_boxed_slice();
        let mut digits = vec![0u8; n];
        for (key, e) in entries.iter_mut().enumerate() {
            let mut k = key;
            for d in digits.iter_mut().rev() {
                *d = (k % n) as u8;
                k /= n;
            }
            if let Ok(d) = lookup.distance(digits.iter().copied(), goal) {
                *e = i8::try_from(d).expect("a distance of at most 6 cells fits a byte");
            }
        }
        Ok(Direct { n, entries })
    }

    /// The entry of one board's row-major values: its distance, -1, or [`INVALID`].
    #[inline(always)]
    pub(crate) fn get<T: Value>(&self, vals: &[T]) -> i8 {
        match self.n {
            4 => self.get_n::<T, 4>(vals),
            6 => self.get_n::<T, 6>(vals),
            _ => INVALID,
        }
    }

    #[inline(always)]
    fn get_n<T: Value, const N: usize>(&self, vals: &[T]) -> i8 {
        let Ok(b) = <&[T; N]>::try_from(vals) else {
            return INVALID;
        };
        self.entries[key::<T, N>(b)]
    }

    /// Answers `flat` (row-major boards, `n` values each) into `out`, one entry per board, on the calling thread.
    /// True when some board is not one (its entry is [`INVALID`]).
    fn run<T: Value>(&self, flat: &[T], out: &mut [i32]) -> bool {
        match self.n {
            4 => self.run_n::<T, 4>(flat, out),
            6 => self.run_n::<T, 6>(flat, out),
            _ => unreachable!("direct tables have 4 or 6 cells"),
        }
    }

    /// The hot loop: per board one key (every value range-checked on the way), one byte read, one store; no branch
    /// but the loop's, so that nothing waits on the data. The boards come in blocks, each block's lines asked for
    /// [`PREFETCH_BYTES`] ahead: the loop does too much work per byte for the hardware's own prefetching to keep
    /// enough reads in flight (without it, 3 times slower than `numpy.sum` over the same array).
    #[inline(never)]
    fn run_n<T: Value, const N: usize>(&self, flat: &[T], out: &mut [i32]) -> bool {
        let entries: &[i8] = &self.entries;
        assert_eq!(entries.len(), N.pow(N as u32));
        let mut any_bad = false;
        let mut one = |b: &[T], o: &mut i32| {
            let b: &[T; N] = b.try_into().expect("chunks of N");
            let k = key::<T, N>(b);
            // SAFETY: `key` returns a number below N^N (a sequence of N digits in base N, or 0), the table's length
            // (asserted above).
            let e = unsafe { *entries.get_unchecked(k) };
            any_bad |= e == INVALID;
            *o = i32::from(e);
        };
        let block = BLOCK_BYTES / std::mem::size_of::<T>();
        let mut boards = flat.chunks_exact(block * N);
        let mut outs = out.chunks_exact_mut(block);
        for (bs, os) in (&mut boards).zip(&mut outs) {
            let ahead = bs.as_ptr().cast::<u8>().wrapping_add(PREFETCH_BYTES);
            for line in (0..block * N * std::mem::size_of::<T>()).step_by(64) {
                prefetch(ahead.wrapping_add(line));
            }
            for (b, o) in bs.chunks_exact(N).zip(os.iter_mut()) {
                one(b, o);
            }
        }
        for (b, o) in boards
            .remainder()
            .chunks_exact(N)
            .zip(outs.into_remainder())
        {
            one(b, o);
        }
        any_bad
    }

    /// Answers every board of `flat` (`n` values each) into `out`: in parallel chunks with the GIL released
    /// (stopped by Ctrl-C) for many boards. The index of the first board that is not one, if any.
    pub(crate) fn answer<T: Value>(
        &self,
        py: Python<'_>,
        flat: &[T],
        out: &mut [i32],
    ) -> PyResult<Option<usize>> {
        let count = out.len();
        debug_assert_eq!(flat.len(), count * self.n);
        let bad = if count < INLINE_BOARDS {
            self.run(flat, out)
        } else {
            let cancel = AtomicBool::new(false);
            let out = &mut *out;
            interruptible(py, &cancel, || {
                out.par_chunks_mut(CHUNK_BOARDS)
                    .zip(flat.par_chunks(CHUNK_BOARDS * self.n))
                    .map(|(o, f)| !cancel.load(Ordering::Relaxed) && self.run(f, o))
                    .reduce(|| false, |a, b| a | b)
            })?
        };
        Ok(if bad {
            out.iter().position(|&d| d == i32::from(INVALID))
        } else {
            None
        })
    }
}

/// Boards of a block of the hot loop: this many bytes' worth of values (of each board's cells, so a block holds
/// `BLOCK_BYTES` boards' values whatever the dtype).
const BLOCK_BYTES: usize = 64;

/// How far ahead of the block it answers the hot loop asks for the input's cache lines.
const PREFETCH_BYTES: usize = 2048;

/// Asks for the cache line of `p` ahead of its use: a hint, which reads nothing and never faults.
#[inline(always)]
fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads no memory and never faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch(p.cast::<i8>(), std::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// The table index of `N` values: the values read as a number in base `N`, or 0 (not a board: every value 0) when
/// a value lies outside 0..N.
#[inline(always)]
fn key<T: Value, const N: usize>(b: &[T; N]) -> usize {
    let mut k = 0u64;
    let mut bad = false;
    for &v in b {
        let v = v.raw();
        bad |= v >= N as u64;
        k = k.wrapping_mul(N as u64).wrapping_add(v);
    }
    if bad {
        0
    } else {
        k as usize
    }
}

/// The direct table of `shape` towards `goal` in `metric` (built once per process and kept), or None when the shape
/// has none (more than [`MAX_DIRECT_CELLS`] cells, or a line).
pub(crate) fn direct(
    shape: Shape,
    goal: &Board,
    metric: Metric,
) -> Result<Option<Arc<Direct>>, Error> {
    type Kept = Vec<(Board, Metric, Arc<Direct>)>;
    static KEPT: std::sync::Mutex<Kept> = std::sync::Mutex::new(Vec::new());
    if shape.cells() > MAX_DIRECT_CELLS || shape.is_line() {
        return Ok(None);
    }
    let found = |kept: &Kept| {
        kept.iter()
            .find(|(g, m, _)| g == goal && *m == metric)
            .map(|(_, _, d)| d.clone())
    };
    if let Some(d) = found(&KEPT.lock().unwrap_or_else(|e| e.into_inner())) {
        return Ok(Some(d));
    }
    // Built outside the lock (it may load a table); two threads that race build it twice, and one copy is kept.
    let built = Arc::new(Direct::build(shape, goal, metric)?);
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(d) = found(&kept) {
        return Ok(Some(d));
    }
    kept.push((goal.clone(), metric, built.clone()));
    Ok(Some(built))
}

/// The direct table of `shape`'s usual goal in STM, kept apart so that `sliding_puzzle` reaches it without a lock.
fn usual(rows: usize, cols: usize) -> Option<&'static Direct> {
    static TABLES: [std::sync::OnceLock<Option<Arc<Direct>>>; 3] =
        [const { std::sync::OnceLock::new() }; 3];
    let slot = match (rows, cols) {
        (2, 2) => 0,
        (2, 3) => 1,
        (3, 2) => 2,
        _ => return None,
    };
    TABLES[slot]
        .get_or_init(|| {
            let shape = Shape::new(rows, cols).ok()?;
            direct(shape, &Board::goal(shape), Metric::Stm)
                .ok()
                .flatten()
        })
        .as_deref()
}

/// `sliding_puzzle`'s quick answer for a list of 2 or 3 lists of Python ints making a board of at most 6 cells: its
/// distance, or -1. None when anything else was given (another type, a value that is not a tile, a bool, another
/// shape): the caller's full reading then answers, or says what is wrong.
///
/// Read through the C API directly: exact type checks, borrowed items, each int read once by `PyLong_AsLong`;
/// no reference counted, nothing allocated.
///
/// # Safety
///
/// `board` is a valid object and the GIL is held.
unsafe fn quick_distance(board: *mut ffi::PyObject) -> Option<i64> {
    let list = std::ptr::addr_of_mut!(ffi::PyList_Type);
    let int = std::ptr::addr_of_mut!(ffi::PyLong_Type);
    if ffi::Py_TYPE(board) != list {
        return None;
    }
    let r = ffi::PyList_Size(board);
    if !(2..=3).contains(&r) {
        return None;
    }
    let mut vals = [0u8; MAX_DIRECT_CELLS];
    let mut n = 0usize;
    let mut cols = 0isize;
    for i in 0..r {
        // Borrowed; no Python code runs while these are read, so the lists keep their sizes.
        let row = ffi::PyList_GetItem(board, i);
        if row.is_null() || ffi::Py_TYPE(row) != list {
            return None;
        }
        let c = ffi::PyList_Size(row);
        if (cols != 0 && c != cols) || !(2..=3).contains(&c) || n + c as usize > MAX_DIRECT_CELLS {
            return None;
        }
        cols = c;
        for j in 0..c {
            let v = ffi::PyList_GetItem(row, j);
            if v.is_null() || ffi::Py_TYPE(v) != int {
                return None;
            }
            let x = ffi::PyLong_AsLong(v);
            if !(0..MAX_DIRECT_CELLS as std::os::raw::c_long).contains(&x) {
                if x == -1 && !ffi::PyErr_Occurred().is_null() {
                    // Too large for a C long: not a tile; the full reading says so.
                    ffi::PyErr_Clear();
                }
                return None;
            }
            vals[n] = x as u8;
            n += 1;
        }
    }
    let table = usual(r as usize, cols as usize)?;
    match table.get(&vals[..n]) {
        INVALID => None,
        d => Some(i64::from(d)),
    }
}

/// `slide.sliding_puzzle` as a C function of one argument (`METH_O`: no argument tuple or keyword parsing, the
/// cheapest call CPython makes, under every version the wheel takes): the quick answer for boards of at most 6
/// cells, else [`sliding_puzzle_full`].
unsafe extern "C" fn sliding_puzzle_o(
    _module: *mut ffi::PyObject,
    board: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    if let Some(d) = quick_distance(board) {
        return ffi::PyLong_FromLong(d as std::os::raw::c_long);
    }
    let py = Python::assume_gil_acquired();
    let board = Bound::from_borrowed_ptr(py, board);
    let answer =
        catch_unwind(AssertUnwindSafe(|| sliding_puzzle_full(py, &board))).unwrap_or_else(|_| {
            Err(PyRuntimeError::new_err(
                "slide: internal error in sliding_puzzle (please report it)",
            ))
        });
    match answer {
        Ok(d) => ffi::PyLong_FromLongLong(d),
        Err(e) => {
            e.restore(py);
            std::ptr::null_mut()
        }
    }
}

/// `sliding_puzzle`'s docstring, its first line the signature `inspect.signature` reads.
const SLIDING_PUZZLE_DOC: &std::ffi::CStr = c"sliding_puzzle($module, board, /)
--

The least number of moves that solves a board (goal: tiles in order, blank last), or -1 when it cannot be solved:
the LeetCode \"sliding puzzle\" with its signature, for every shape of at most 12 cells (larger boards are searched
optimally, which can take long).";

/// Adds `sliding_puzzle` to the module `m` ([`sliding_puzzle_o`]).
pub(crate) fn add_sliding_puzzle(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let def: &'static mut ffi::PyMethodDef = Box::leak(Box::new(ffi::PyMethodDef {
        ml_name: c"sliding_puzzle".as_ptr(),
        ml_meth: ffi::PyMethodDefPointer {
            PyCFunction: sliding_puzzle_o,
        },
        ml_flags: ffi::METH_O,
        ml_doc: SLIDING_PUZZLE_DOC.as_ptr(),
    }));
    let name = m.name()?;
    // SAFETY: `def` lives for the process; the module and its name are valid objects; the GIL is held.
    let f = unsafe {
        Bound::from_owned_ptr_or_err(
            m.py(),
            ffi::PyCMethod_New(def, m.as_ptr(), name.as_ptr(), std::ptr::null_mut()),
        )?
    };
    m.add("sliding_puzzle", f)
}
