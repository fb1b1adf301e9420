//! `slide.distances`: NumPy arrays of boards answered from the complete tables, validated, read in place.

use super::*;
use slide::engine::SolverExt;

/// An integer value of a NumPy array element.
pub(crate) trait Value: Element + Copy + Send + Sync {
    /// The value, `i64::MAX` when it does not fit.
    fn value(self) -> i64;
    /// The value's bits widened to 64 (a negative value becomes a huge one): what the direct tables range-check.
    fn raw(self) -> u64;
}

macro_rules! value {
    ($($t:ty),*) => {$(
        impl Value for $t {
            #[inline(always)]
            fn value(self) -> i64 {
                i64::try_from(self).unwrap_or(i64::MAX)
            }
            #[inline(always)]
            fn raw(self) -> u64 {
                self as i64 as u64
            }
        }
    )*};
}
value!(i8, u8, i16, u16, i32, u32, i64, u64);

/// Maps user tiles and cells to the canonical frame of a table.
pub(crate) struct Lookup {
    pub(crate) n: usize,
    pub(crate) metric: Metric,
    pub(crate) to_canon: Vec<u8>,
    pub(crate) cell_map: Vec<u8>,
    pub(crate) table: Option<Arc<slide::engine::table::CompleteTable>>,
}

impl Lookup {
    pub(crate) fn new(shape: Shape, goal: &Board, metric: Metric) -> Result<Lookup, Error> {
        let n = shape.cells();
        let table_shape = !shape.is_line() && n <= slide::engine::table::MAX_TABLE_CELLS;
        if !table_shape {
            return Ok(Lookup {
                n,
                metric,
                to_canon: vec![],
                cell_map: vec![],
                table: None,
            });
        }
        let frame = Frame::new(goal);
        let table = solver()
            .table(frame.shape(), frame.blank_goal(), metric)?
            .clone();
        let mut to_canon = vec![0u8; n];
        for c in 0..n {
            to_canon[frame.tile(c as Tile) as usize] = c as u8;
        }
        let cell_map = (0..n).map(|c| frame.cell(c) as u8).collect();
        Ok(Lookup {
            n,
            metric,
            to_canon,
            cell_map,
            table: Some(table),
        })
    }

    /// The distance of one board given as row-major values; `Err(())` when the values are not a board.
    #[inline]
    pub(crate) fn distance<T: Value>(&self, vals: impl Iterator<Item = T>, goal: &Board) -> Result<i32, ()> {
        let Some(table) = &self.table else {
            let tiles = vals
                .map(|v| u32::try_from(v.value()).map_err(|_| ()))
                .collect::<Result<Vec<_>, ()>>()?;
            let b = Board::new(goal.shape(), tiles).map_err(|_| ())?;
            return solver()
                .distance_in(&b, goal, self.metric)
                .map(|d| d as i32)
                .map_err(|_| ());
        };
        let n = self.n;
        let mut pos = [0u8; slide::engine::table::MAX_TABLE_CELLS];
        let mut seen = 0u32;
        let mut count = 0;
        for (cell, v) in vals.enumerate() {
            let v = v.value();
            if v < 0 || v >= n as i64 || seen & (1 << v) != 0 {
                return Err(());
            }
            seen |= 1 << v;
            pos[self.to_canon[v as usize] as usize] = self.cell_map[cell];
            count += 1;
        }
        if count != n {
            return Err(());
        }
        Ok(table.distance(&pos[..n]).map_or(-1, |d| d as i32))
    }
}

/// What `distances` does with a row that is not a board.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Invalid {
    /// Raise `BoardError` naming the first such row (the default).
    Raise,
    /// Answer [`INVALID`] (-2) for it and carry on.
    Mark,
}

pub(crate) fn distances_typed<'py, T: Value>(
    py: Python<'py>,
    arr: &Bound<'py, PyAny>,
    shape: Shape,
    goal: &Board,
    metric: Metric,
    invalid: Invalid,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let arr = arr.downcast::<PyArrayDyn<T>>()?.readonly();
    let view = arr.as_array();
    let count = view.shape()[0];
    let n = shape.cells();
    // Contiguous boards of at most 6 cells: one pass over the array with the direct table, which validates too.
    if let Some(flat) = view.as_slice() {
        if let Some(table) = direct(shape, goal, metric).map_err(|e| lib_err(e, ""))? {
            // The answers go straight into an array NumPy allocates: its allocator asks the kernel for huge pages
            // for large arrays, and the first writes of tens of megabytes of small pages cost more than the rest.
            // SAFETY: every element is written by `answer` before the array is returned (any bits are an i32).
            let answers = unsafe { PyArray1::<i32>::new(py, count, false) };
            let first = {
                let mut rw = answers.readwrite();
                let out = rw.as_slice_mut().expect("a new array is contiguous");
                table.answer(py, flat, out)?
            };
            return match first {
                Some(i) if invalid == Invalid::Raise => Err(bad_board(&view, i, shape, goal, metric)),
                _ => Ok(answers),
            };
        }
    }
    let cancel = AtomicBool::new(false);
    let bad = i32::from(INVALID);
    let result: Result<Vec<i32>, Error> = interruptible(py, &cancel, || {
        let lookup = Lookup::new(shape, goal, metric)?;
        let mut out = vec![0i32; count];
        if let Some(flat) = view.as_slice() {
            out.par_chunks_mut(4096).enumerate().for_each(|(k, chunk)| {
                let base = k * 4096;
                for (j, o) in chunk.iter_mut().enumerate() {
                    let i = base + j;
                    *o = lookup
                        .distance(flat[i * n..(i + 1) * n].iter().copied(), goal)
                        .unwrap_or(bad);
                }
            });
        } else {
            let boards = view.outer_iter().collect::<Vec<_>>();
            out.par_iter_mut()
                .zip(boards.par_iter())
                .for_each(|(o, b)| *o = lookup.distance(b.iter().copied(), goal).unwrap_or(bad));
        }
        Ok(out)
    })?;
    let out = result.map_err(|e| lib_err(e, ""))?;
    if invalid == Invalid::Raise {
        if let Some(i) = out.iter().position(|&d| d == bad) {
            return Err(bad_board(&view, i, shape, goal, metric));
        }
    }
    Ok(PyArray1::from_vec(py, out))
}

/// The error for row `i` of `view`, which is not a board: what is wrong with it, in the library's words.
fn bad_board<T: Value>(
    view: &numpy::ndarray::ArrayViewD<'_, T>,
    i: usize,
    shape: Shape,
    goal: &Board,
    metric: Metric,
) -> PyErr {
    let row = view.outer_iter().nth(i).expect("the bad board's index");
    let values: Vec<i64> = row.iter().map(|v| v.value()).collect();
    let rows: Vec<Vec<i64>> = values.chunks(shape.cols()).map(<[i64]>::to_vec).collect();
    let msg = match Board::from_rows(&rows) {
        Err(e) => e.to_string(),
        Ok(b) => match solver().distance_in(&b, goal, metric) {
            Err(e) => e.to_string(),
            Ok(_) => "not a board".into(),
        },
    };
    BoardError::new_err(format!("board {i} of the array: {msg}"))
}

/// The least number of moves (in `metric`: `"stm"` or `"mtm"`) of every board of an integer NumPy array of shape
/// (N, R, C), or (N, R·C) with `shape` given: an int32 array of N distances (-1 where the goal cannot be reached).
/// A row that is not a board raises `BoardError` naming the first one; with `invalid="mark"` it is answered -2.
#[pyfunction]
#[pyo3(signature = (array, shape=None, goal=None, *, metric="stm", invalid="raise"))]
pub(crate) fn distances<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    shape: Option<&Bound<'py, PyAny>>,
    goal: Option<&Bound<'py, PyAny>>,
    metric: &str,
    invalid: &str,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let metric = metric_from(metric)?;
    let invalid = match invalid {
        "raise" => Invalid::Raise,
        "mark" => Invalid::Mark,
        other => {
            let shown: String = other.chars().take(24).collect();
            return Err(PyValueError::new_err(format!(
                "invalid must be \"raise\" (a row that is not a board raises BoardError) or \"mark\" (it is \
                 answered -2), not {shown:?}"
            )));
        }
    };
    let Ok(arr) = array.downcast::<PyUntypedArray>() else {
        return Err(PyTypeError::new_err(format!(
            "distances takes a NumPy integer array of shape (N, R, C) or (N, R*C), not {} \
             (use numpy.asarray, or solve_many for lists)",
            type_name(array)
        )));
    };
    let kind = arr.dtype().kind();
    if kind != b'i' && kind != b'u' {
        return Err(PyTypeError::new_err(format!(
            "distances needs an integer array, not one of dtype {}",
            arr.dtype().str()?
        )));
    }
    let dims = arr.shape().to_vec();
    let given = shape.map(shape_from).transpose()?;
    let shape = match (dims.len(), given) {
        (3, g) => {
            let s = Shape::new(dims[1], dims[2]).map_err(|e| lib_err(e, "array"))?;
            if let Some(g) = g {
                if g != s {
                    return Err(BoardError::new_err(format!(
                        "the array holds boards of shape {s}, not the shape {g} asked for"
                    )));
                }
            }
            s
        }
        (2, Some(g)) => {
            if g.cells() != dims[1] {
                return Err(BoardError::new_err(format!(
                    "shape {g} needs {} numbers per board, the array has {}",
                    g.cells(),
                    dims[1]
                )));
            }
            g
        }
        (2, None) => {
            let side = (dims[1] as f64).sqrt().round() as usize;
            if side * side != dims[1] || side < 2 {
                return Err(BoardError::new_err(format!(
                    "distances takes an array of boards: of shape (N, R, C), or (N, R*C) with shape=\"RxC\"; this \
                     one, of shape ({}, {}), would be {} boards of {} numbers, whose shape cannot be told: give \
                     shape=\"RxC\", or for one board of {} rows pass array[None] (shape (1, {}, {}))",
                    dims[0], dims[1], dims[0], dims[1], dims[0], dims[0], dims[1]
                )));
            }
            Shape::new(side, side).map_err(|e| lib_err(e, ""))?
        }
        (d, _) => {
            return Err(BoardError::new_err(format!(
                "distances needs an array of shape (N, R, C) or (N, R*C), not one with {d} dimensions {dims:?}"
            )))
        }
    };
    if shape.cells() > slide::engine::table::MAX_TABLE_CELLS && !shape.is_line() {
        return Err(BoardError::new_err(format!(
            "distances answers boards of at most {} cells (and single rows or columns) from complete tables; \
             {shape} has {}: use solve_many",
            slide::engine::table::MAX_TABLE_CELLS,
            shape.cells()
        )));
    }
    let goal = goal_for(&Board::goal(shape), goal, "")?;
    macro_rules! go {
        ($($t:ty),*) => {$(
            if array.downcast::<PyArrayDyn<$t>>().is_ok() {
                return distances_typed::<$t>(py, array, shape, &goal, metric, invalid);
            }
        )*};
    }
    go!(i64, i32, i16, i8, u8, u16, u32, u64);
    Err(PyTypeError::new_err(format!(
        "distances cannot read an array of dtype {} (a non-native byte order?): use array.astype(numpy.int64)",
        arr.dtype().str()?
    )))
}
