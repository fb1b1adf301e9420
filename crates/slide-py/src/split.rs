//! One IDA* search split into subtrees for other processes (`slide.ray.solve`): the frontier of a threshold, and
//! the search of one subtree at that threshold.

use pyo3::prelude::*;

/// Adds the split-search functions to the module.
pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
