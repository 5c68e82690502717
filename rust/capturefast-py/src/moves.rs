//! `Move` for Python: a played card and its captures, or a Chkobba cut decision.

use capturefast_core::{CardSet, Move, MoveKind};
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::PyFrozenSet;

use crate::card::PyCard;
use crate::convert;
use crate::errors::py;

/// A move: the played card and the exact captured set, or a Chkobba cut decision.
#[pyclass(frozen, module = "capturefast", name = "Move")]
#[derive(Clone, Copy)]
pub struct PyMove {
    pub mv: Move,
    /// Whether the move scores a sweep; known for moves from `legal_moves()`, false otherwise.
    pub sweep: bool,
}

#[pymethods]
impl PyMove {
    #[new]
    fn new(spec: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        Ok(PyMove {
            mv: convert::mv(spec)?,
            sweep: false,
        })
    }

    /// A `play` move: `card` capturing `captures` (empty: the card trails).
    #[staticmethod]
    #[pyo3(signature = (card, captures = None))]
    fn play(card: &Bound<'_, PyAny>, captures: Option<&Bound<'_, PyAny>>) -> PyResult<PyMove> {
        let card = convert::card(card)?;
        let caps = match captures {
            Some(c) => convert::cards(c)?,
            None => CardSet::EMPTY,
        };
        if caps.contains(card) {
            return py(Err(capturefast_core::Error::DuplicateCard(
                card.to_string(),
            )));
        }
        Ok(PyMove {
            mv: Move::play(card, caps),
            sweep: false,
        })
    }

    /// The move packed in one integer: captures in bits 0-39, card in 40-45, kind in 46-47
    /// (0 `play`, 1 `keep_cut`, 2 `table_cut`, 3 `claim`).
    #[allow(clippy::wrong_self_convention)] // `#[pymethods]` take `&self`
    fn to_int(&self) -> u64 {
        self.mv.to_bits()
    }

    /// The move packed by `to_int`.
    #[staticmethod]
    fn from_int(#[pyo3(from_py_with = crate::convert::arg::bits)] bits: u64) -> PyResult<PyMove> {
        Move::from_bits(bits)
            .map(|mv| PyMove { mv, sweep: false })
            .ok_or_else(|| convert::illegal(format!("not a packed move: {bits}")))
    }

    /// `play`, `keep_cut`, `table_cut` or `claim` (renuncio).
    #[getter]
    fn kind(&self) -> &'static str {
        self.mv.kind().name()
    }

    /// The played card (or the cut card).
    #[getter]
    fn card(&self) -> PyCard {
        PyCard(self.mv.card())
    }

    /// The captured table cards (empty for a trail or a cut decision).
    #[getter]
    fn captures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyFrozenSet>> {
        convert::frozenset_py(py, self.mv.captures())
    }

    /// Whether this move scores a sweep under the rules: set on the moves `legal_moves()`
    /// returns. A `Move` built from text or an int knows no position and says False; ask
    /// `state.is_sweep(move)`.
    #[getter]
    fn sweep(&self) -> bool {
        self.sweep
    }

    /// Whether the card trails (a play capturing nothing).
    #[getter]
    fn is_trail(&self) -> bool {
        self.mv.kind() == MoveKind::Play && self.mv.captures().is_empty()
    }

    fn __str__(&self) -> String {
        self.mv.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.mv)
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(o) = other.cast::<PyMove>() else {
            return Ok(py.NotImplemented());
        };
        let (a, b) = (self.mv, o.get().mv);
        Ok(op
            .matches(a.cmp(&b))
            .into_pyobject(py)?
            .to_owned()
            .into_any()
            .unbind())
    }

    fn __hash__(&self) -> u64 {
        self.mv.to_bits()
    }

    /// Pickle support: the packed move and its sweep flag.
    #[staticmethod]
    fn _restore(
        #[pyo3(from_py_with = crate::convert::arg::bits)] bits: u64,
        sweep: bool,
    ) -> PyResult<PyMove> {
        Ok(PyMove {
            sweep,
            ..PyMove::from_int(bits)?
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (u64, bool))> {
        let m = slf.get();
        Ok((
            slf.get_type().getattr("_restore")?,
            (m.mv.to_bits(), m.sweep),
        ))
    }
}
