//! `View` for Python: what one seat can see.

use capturefast_core::View;

use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::card::PyCard;
use crate::convert;
use crate::convert::ints;
use crate::errors::py;
use crate::moves::PyMove;
use crate::rules::PyRules;

use crate::state::phase_name;

/// What one seat can see: its own hand, the table, the piles, the counts, and nothing hidden.
#[pyclass(frozen, module = "capturefast", name = "View")]
pub struct PyView {
    pub(crate) rules: PyRules,
    pub(crate) view: View,
}

#[pymethods]
impl PyView {
    /// The observing seat.
    #[getter]
    fn seat(&self) -> u8 {
        self.view.seat
    }
    /// The seat's own hand.
    #[getter]
    fn hand<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        convert::card_list_py(py, self.view.hand)
    }
    /// The table.
    #[getter]
    fn table<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        convert::card_list_py(py, self.view.table)
    }
    /// Captured cards per side (each was shown when taken).
    #[getter]
    fn piles<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyList>>> {
        self.view
            .piles
            .iter()
            .map(|&p| convert::card_list_py(py, p))
            .collect()
    }
    /// Cards the seat cannot see: other hands, the stock, a cut card it was not shown.
    #[getter]
    fn unseen<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        convert::card_list_py(py, self.view.unseen)
    }
    /// Sweeps per side.
    #[getter]
    fn sweeps(&self) -> Vec<u32> {
        ints(self.view.sweeps)
    }
    /// Cirulla declaration points per side this hand.
    #[getter]
    fn declared(&self) -> Vec<u32> {
        ints(self.view.declared)
    }
    /// Renuncio: the card just trailed that the seat to move may claim, else None.
    #[getter]
    fn claimable(&self) -> Option<PyCard> {
        self.view.claimable.map(PyCard)
    }
    /// Match scores.
    #[getter]
    fn scores(&self) -> Vec<u32> {
        self.view.scores.to_vec()
    }
    /// Cards in each seat's hand.
    #[getter]
    fn hand_sizes(&self) -> Vec<u32> {
        ints(&self.view.hand_sizes[..usize::from(self.view.num_players)])
    }
    /// Cards left in the stock.
    #[getter]
    fn stock_size(&self) -> u8 {
        self.view.stock_size
    }
    /// The dealer.
    #[getter]
    fn dealer(&self) -> u8 {
        self.view.dealer
    }
    /// The seat to move, or None.
    #[getter]
    fn to_move(&self) -> Option<u8> {
        self.view.to_move
    }
    /// The last capturer, or None.
    #[getter]
    fn last_capturer(&self) -> Option<u8> {
        self.view.last_capturer
    }
    /// The cut card, if this seat is the cutter deciding on it.
    #[getter]
    fn cut_card(&self) -> Option<PyCard> {
        self.view.cut_card.map(PyCard)
    }
    /// The phase: `cut`, `play`, `hand_over`, `match_over`.
    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.view.phase)
    }

    /// The legal moves of this seat if it is to move (else `[]`): everything needed is visible.
    fn legal_moves(&self) -> PyResult<Vec<PyMove>> {
        let moves = py(self.view.legal_moves(&self.rules.0))?;
        Ok(moves
            .into_iter()
            .map(|(mv, sweep)| PyMove { mv, sweep })
            .collect())
    }

    /// The rules this view is seen under.
    #[getter]
    fn rules(&self) -> PyRules {
        self.rules.clone()
    }

    /// Number of players.
    #[getter]
    fn num_players(&self) -> u8 {
        self.view.num_players
    }

    /// The view as one line of the view notation (docs/notation.md): the seat's own hand as
    /// cards, every other hand and the stock as counts.
    fn to_notation(&self) -> String {
        self.view.to_notation(&self.rules.0)
    }

    /// A view (with its rules) from one line of the view notation; a `NotationError` naming
    /// the field at fault unless some position shows exactly this to the seat.
    #[staticmethod]
    fn from_notation(text: &str) -> PyResult<PyView> {
        let (rules, view) = py(View::from_notation(text))?;
        Ok(PyView {
            rules: PyRules(std::sync::Arc::new(rules)),
            view,
        })
    }

    /// Equal when the seat sees the same under the same rules: the rules decide the legal
    /// moves and their sweep flags (`last_play_sweep`, for one), so views under different rules
    /// differ, as states do.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyView>().is_ok_and(|o| {
            let o = o.get();
            o.view == self.view && o.rules.0.options() == self.rules.0.options()
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.view.hash(&mut h);
        self.rules.0.options().hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> String {
        format!(
            "<View seat={} hand=[{}] table=[{}] unseen={} cards>",
            self.view.seat,
            self.view.hand,
            self.view.table,
            self.view.unseen.len()
        )
    }
}
