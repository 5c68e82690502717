//! `View` for Python: what one seat can see.

use std::fmt::Write as _;

use capturefast_core::View;

use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::card::PyCard;
use crate::convert;
use crate::convert::ints;
use crate::errors::py;
use crate::moves::PyMove;
use crate::rules::PyRules;

use crate::state::{PyState, phase_name};

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

    /// The view of `seat` built from what it knows: its `hand`, the `table`, the `piles` (per
    /// side), the number of cards in each seat's hand (`hand_sizes`, its own included) and in
    /// the stock, the dealer, the seat to move (None once the hand is over) and the counters.
    /// Refused with a `NotationError` naming the field (as docs/notation.md names it: `hands`
    /// for `hand` and `hand_sizes`) unless some position shows exactly this to the seat.
    #[staticmethod]
    #[pyo3(signature = (rules, seat, hand, table, hand_sizes, stock_size, dealer, to_move,
        piles = None, sweeps = None, scores = None, last_capturer = None, declared = None,
        claimable = None, cut_card = None, phase = None))]
    #[allow(clippy::too_many_arguments, clippy::needless_pass_by_value)] // PyO3 extracts owned
    fn from_seat(
        rules: &Bound<'_, PyRules>,
        #[pyo3(from_py_with = convert::arg::seat)] seat: i64,
        hand: &Bound<'_, PyAny>,
        table: &Bound<'_, PyAny>,
        hand_sizes: Vec<u32>,
        stock_size: u32,
        #[pyo3(from_py_with = convert::arg::seat)] dealer: i64,
        to_move: Option<u32>,
        piles: Option<&Bound<'_, PyAny>>,
        sweeps: Option<&Bound<'_, PyAny>>,
        scores: Option<&Bound<'_, PyAny>>,
        last_capturer: Option<u32>,
        declared: Option<&Bound<'_, PyAny>>,
        claimable: Option<&Bound<'_, PyAny>>,
        cut_card: Option<&Bound<'_, PyAny>>,
        phase: Option<&str>,
    ) -> PyResult<PyView> {
        // The view line of these facts, read by the core: one reader and one set of checks.
        let r = rules.get();
        let seat = convert::seat_num(seat, r.0.num_players(), "seat")?;
        let hand = convert::cards(hand)?;
        let hands: Vec<String> = hand_sizes
            .iter()
            .enumerate()
            .map(|(s, n)| {
                if s == usize::from(seat) {
                    hand.to_string()
                } else {
                    n.to_string()
                }
            })
            .collect();
        let per_side = |v: Option<&Bound<'_, PyAny>>| -> PyResult<String> {
            Ok(match v {
                Some(v) => {
                    let xs: Vec<u32> = v.extract()?;
                    xs.iter().map(u32::to_string).collect::<Vec<_>>().join("/")
                }
                None => "0/0".to_string(),
            })
        };
        let piles = match piles {
            Some(p) => p
                .try_iter()?
                .map(|x| Ok(convert::cards(&x?)?.to_string()))
                .collect::<PyResult<Vec<_>>>()?
                .join("/"),
            None => "-/-".to_string(),
        };
        let seat_or_none = |s: Option<u32>| s.map_or("-".to_string(), |s| s.to_string());
        let phase = phase.unwrap_or(if to_move.is_some() {
            "play"
        } else {
            "hand_over"
        });
        // The rules token: the rules' own notation (a preset and the options that differ).
        let mut line = format!(
            "{} players={} seat={seat} dealer={dealer} phase={phase} to_move={} hands={} \
             table={} stock={stock_size} piles={piles} sweeps={} scores={} last_capturer={}",
            capturefast_core::rules_text(&r.0),
            r.0.num_players(),
            seat_or_none(to_move),
            hands.join("/"),
            convert::cards(table)?,
            per_side(sweeps)?,
            per_side(scores)?,
            seat_or_none(last_capturer),
        );
        if declared.is_some() {
            let _ = write!(line, " declared={}", per_side(declared)?);
        }
        for (key, card) in [("claimable", claimable), ("cut_card", cut_card)] {
            if let Some(c) = card.filter(|c| !c.is_none()) {
                let _ = write!(line, " {key}={}", convert::card(c)?);
            }
        }
        let (rules, view) = py(View::from_notation(&line))?;
        Ok(PyView {
            rules: PyRules(std::sync::Arc::new(rules)),
            view,
        })
    }

    /// One complete position consistent with this view, the hidden cards dealt uniformly from
    /// those the seat has not seen, drawn from `seed` (a world, as the search bots and
    /// `analyze` draw them). Refused once the hand is over.
    #[pyo3(signature = (seed = 0))]
    fn determinize(
        &self,
        #[pyo3(from_py_with = convert::arg::seed)] seed: u64,
    ) -> PyResult<PyState> {
        let mut rng = capturefast_core::Rng::new(seed);
        let state = py(capturefast_core::determinize(
            &self.rules.0,
            &self.view,
            &mut rng,
        ))?;
        Ok(PyState {
            rules: self.rules.clone(),
            state,
        })
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

    /// Pickles as its line of the view notation (which carries its rules).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let f = slf.get_type().getattr("from_notation")?;
        Ok((f, (slf.get().to_notation(),)))
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
