//! `Card` for Python: a playing card.

use capturefast_core::Card;
use pyo3::prelude::*;

use crate::convert;

/// A playing card: rank then suit, e.g. `Card("7D")`; also built from its id 0-39.
#[pyclass(frozen, module = "capturefast", name = "Card", eq, ord, hash)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PyCard(pub Card);

#[pymethods]
impl PyCard {
    #[new]
    fn new(spec: &Bound<'_, PyAny>) -> PyResult<PyCard> {
        convert::card(spec).map(PyCard)
    }

    /// The id, `rank_index * 4 + suit_index` (0-39).
    #[getter]
    fn id(&self) -> u8 {
        self.0.id()
    }

    /// The rank character: one of `A 2 3 4 5 6 7 J Q K`.
    #[getter]
    fn rank(&self) -> String {
        self.0.rank().char().to_string()
    }

    /// The suit character: one of `C D H S` (D is coins).
    #[getter]
    fn suit(&self) -> String {
        self.0.suit().char().to_string()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Card('{}')", self.0)
    }

    fn __int__(&self) -> u8 {
        self.0.id()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, (String,)) {
        (slf.get_type().into_any(), (slf.get().0.to_string(),))
    }
}
