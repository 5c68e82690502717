//! `Opening` for Python: what an opening table means under the rules.

use pyo3::prelude::*;

/// What the opening table means: `redeal` (void hand) and `dealer_sweeps` (Escoba 15 / 30).
#[pyclass(frozen, module = "capturefast", name = "Opening", get_all)]
pub struct PyOpening {
    pub(crate) redeal: bool,
    pub(crate) dealer_sweeps: u8,
}

#[pymethods]
impl PyOpening {
    fn __repr__(&self) -> String {
        format!(
            "Opening(redeal={}, dealer_sweeps={})",
            if self.redeal { "True" } else { "False" },
            self.dealer_sweeps
        )
    }
}
