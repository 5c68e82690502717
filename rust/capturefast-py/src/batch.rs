//! Batch calls: long-running loops that release the GIL.

use capturefast_core::sim;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::detached;
use crate::game::PyRules;

/// Plays `hands` independent random hands (uniform over legal moves) and returns totals:
/// `{"hands", "points": [a, b], "awards": {category: [a, b]}, "ties": {category: n},
/// "sweeps": [a, b]}`. Hand `i` is seeded from `(seed, i)`.
#[pyfunction]
#[pyo3(signature = (rules, hands, seed = 0))]
pub fn random_hands<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyRules>,
    hands: u64,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let r = rules.get().0.clone();
    let t = detached(py, || sim::random_hands(&r, hands, seed));
    let d = PyDict::new(py);
    d.set_item("hands", t.hands)?;
    d.set_item("points", t.points.to_vec())?;
    let awards = PyDict::new(py);
    let ties = PyDict::new(py);
    for (i, name) in r.category_names().iter().enumerate() {
        awards.set_item(name, t.awards[i].to_vec())?;
        ties.set_item(name, t.ties[i])?;
    }
    d.set_item("awards", awards)?;
    d.set_item("ties", ties)?;
    d.set_item("sweeps", t.sweeps.to_vec())?; // u64: a list, not bytes
    Ok(d)
}
