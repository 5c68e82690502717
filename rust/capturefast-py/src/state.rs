//! `State` for Python: the complete game state, immutable from Python (`play` returns a new one).

use std::fmt::Write as _;

use capturefast_core::{CardSet, Error as CoreError, Move, Position, State};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};

use crate::card::PyCard;
use crate::convert;
use crate::convert::{ints, two_counts, two_scores};
use crate::errors::{IllegalMoveError, PositionError, py};
use crate::moves::PyMove;
use crate::rules::PyRules;
use crate::view::PyView;

/// A complete game state: the hand being played and the match score.
#[pyclass(frozen, module = "capturefast", name = "State")]
#[derive(Clone)]
pub struct PyState {
    pub rules: PyRules,
    pub state: State,
}

pub(crate) use capturefast_core::game::state::phase_word as phase_name;

fn moves_py(rules: &PyRules, state: &State) -> Vec<PyMove> {
    let mut moves = Vec::with_capacity(16);
    state.legal_moves(&rules.0, &mut moves);
    moves
        .iter()
        .map(|&mv| PyMove {
            mv,
            sweep: state.is_sweep(&rules.0, mv),
        })
        .collect()
}

impl PyState {
    fn with(&self, state: State) -> PyState {
        PyState {
            rules: self.rules.clone(),
            state,
        }
    }
}

#[pymethods]
impl PyState {
    /// A new match under `rules`: the first dealer drawn by lot and the first hand dealt, all
    /// chance from `seed`.
    #[staticmethod]
    #[pyo3(signature = (rules, seed = 0))]
    fn new(
        rules: &Bound<'_, PyRules>,
        #[pyo3(from_py_with = crate::convert::arg::seed)] seed: u64,
    ) -> PyState {
        let rules = rules.get().clone();
        let state = State::new(&rules.0, seed);
        PyState { rules, state }
    }

    /// Any mid-hand position, given card by card. `stock` is in deal order; `piles`, `sweeps`
    /// and `scores` are per side. Refused with `PositionError` if it cannot arise in a game.
    #[staticmethod]
    #[pyo3(signature = (rules, hands, table, stock = None, to_move = 0, dealer = None,
        last_capturer = None, piles = None, sweeps = None, scores = None, seed = 0))]
    #[allow(clippy::too_many_arguments)]
    fn from_position(
        rules: &Bound<'_, PyRules>,
        hands: &Bound<'_, PyAny>,
        table: &Bound<'_, PyAny>,
        stock: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = convert::arg::seat)] to_move: i64,
        dealer: Option<&Bound<'_, PyAny>>,
        last_capturer: Option<&Bound<'_, PyAny>>,
        piles: Option<&Bound<'_, PyAny>>,
        sweeps: Option<&Bound<'_, PyAny>>,
        scores: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = crate::convert::arg::seed)] seed: u64,
    ) -> PyResult<PyState> {
        let r = rules.get().clone();
        let n = r.0.num_players();
        let hands: Vec<CardSet> = hands
            .try_iter()?
            .map(|h| convert::cards(&h?))
            .collect::<PyResult<_>>()?;
        let to_move = convert::seat_num(to_move, n, "to_move")?;
        let dealer = match dealer {
            Some(d) => convert::seat(d, n, "dealer")?,
            // The dealer plays last in a round: by default the seat before the leader (in the
            // direction of play).
            None => (0..n)
                .find(|&d| r.0.next_seat(d) == to_move)
                .expect("every seat follows one"),
        };
        let last_capturer = match last_capturer {
            Some(l) if !l.is_none() => Some(convert::seat(l, n, "last_capturer")?),
            _ => None,
        };
        let piles = match piles {
            Some(p) => {
                let v: Vec<CardSet> = p
                    .try_iter()?
                    .map(|x| convert::cards(&x?))
                    .collect::<PyResult<_>>()?;
                <[CardSet; 2]>::try_from(v).map_err(|v| {
                    PositionError::new_err(format!(
                        "piles must be one per side (2), got: {}",
                        v.len()
                    ))
                })?
            }
            None => [CardSet::EMPTY; 2],
        };
        let p = Position {
            hands,
            table: convert::cards(table)?,
            stock: match stock {
                Some(s) => convert::card_list(s)?,
                None => Vec::new(),
            },
            to_move,
            dealer,
            last_capturer,
            piles,
            sweeps: match sweeps {
                Some(s) => two_counts(s, "sweeps")?,
                None => [0, 0],
            },
            scores: match scores {
                Some(s) => two_scores(s)?,
                None => [0, 0],
            },
            seed,
        };
        let state = py(State::from_position(&r.0, &p))?;
        Ok(PyState { rules: r, state })
    }

    /// The rules this state is played by.
    #[getter]
    fn rules(&self) -> PyRules {
        self.rules.clone()
    }

    /// Number of players.
    #[getter]
    fn num_players(&self) -> u8 {
        self.state.num_players()
    }

    /// The seat to move, or None once the hand is over.
    #[getter]
    fn to_move(&self) -> Option<u8> {
        self.state.to_move()
    }

    /// The dealer of this hand.
    #[getter]
    fn dealer(&self) -> u8 {
        self.state.dealer()
    }

    /// The seat that captured last this hand, or None.
    #[getter]
    fn last_capturer(&self) -> Option<u8> {
        self.state.last_capturer()
    }

    /// Each seat's hand, cards in id order.
    #[getter]
    fn hands<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyList>>> {
        (0..self.state.num_players())
            .map(|s| convert::card_list_py(py, self.state.hand(s)))
            .collect()
    }

    /// The table, cards in id order.
    #[getter]
    fn table<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        convert::card_list_py(py, self.state.table())
    }

    /// The stock in deal order (hidden information: use `view(seat)` for what a seat sees).
    #[getter]
    fn stock<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        convert::cards_in_order_py(py, self.state.stock())
    }

    /// Cards left in the stock.
    #[getter]
    fn stock_size(&self) -> usize {
        self.state.stock().len()
    }

    /// Captured cards per side this hand, in id order.
    #[getter]
    fn piles<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyList>>> {
        (0..2)
            .map(|s| convert::card_list_py(py, self.state.pile(s)))
            .collect()
    }

    /// Sweeps per side this hand.
    #[getter]
    fn sweeps(&self) -> Vec<u32> {
        ints(self.state.sweeps())
    }

    /// Cirulla declaration points per side this hand (scored with the hand).
    #[getter]
    fn declared(&self) -> Vec<u32> {
        ints(self.state.declared())
    }

    /// Renuncio: the card just trailed that the seat to move may claim, else None.
    #[getter]
    fn claimable(&self) -> Option<PyCard> {
        self.state.claimable().map(PyCard)
    }

    /// Match scores per side (including this hand once it is over).
    #[getter]
    fn scores(&self) -> Vec<u32> {
        self.state.scores().to_vec()
    }

    /// `cut`, `play`, `hand_over` or `match_over`.
    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.state.phase())
    }

    /// Chkobba: the cut card awaiting the cutter's decision, else None.
    #[getter]
    fn cut_card(&self) -> Option<PyCard> {
        self.state.cut_card().map(PyCard)
    }

    /// Whether the hand is over and scored.
    #[getter]
    fn hand_over(&self) -> bool {
        self.state.hand_over()
    }

    /// Whether the match is over.
    #[getter]
    fn match_over(&self) -> bool {
        self.state.match_over()
    }

    /// The side that won the match, or None.
    #[getter]
    fn winner(&self) -> Option<u8> {
        self.state.winner()
    }

    /// Hands completed in this match before the current one.
    #[getter]
    fn hand_number(&self) -> u32 {
        self.state.hand_number()
    }

    /// The legal moves, each once, in a fixed order (kind, card id, captured set).
    fn legal_moves(&self) -> Vec<PyMove> {
        moves_py(&self.rules, &self.state)
    }

    /// The number of sequences of `depth` legal moves from here (perft), a sequence that ends
    /// the hand earlier counting once: the standard check of a move generator against another.
    /// `depth` is 0 to 8; the count grows about as the product of the numbers of legal moves
    /// along a path. Runs without the GIL.
    fn perft(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = convert::arg::depth)] depth: u32,
    ) -> PyResult<u64> {
        let (rules, state) = (&self.rules.0, &self.state);
        crate::errors::py(crate::detached(py, || {
            capturefast_core::perft(rules, state, depth)
        }))
    }

    /// [`perft`](Self::perft) at `depth - 1` after each legal move, in the order of
    /// `legal_moves()`, as `(move, count)` pairs ("divide": where two move generators disagree,
    /// the first move whose counts differ). Empty at depth 0 or when the hand is over.
    fn perft_divide(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = convert::arg::depth)] depth: u32,
    ) -> PyResult<Vec<(PyMove, u64)>> {
        let (rules, state) = (&self.rules.0, &self.state);
        let counts = crate::errors::py(crate::detached(py, || {
            capturefast_core::perft_divide(rules, state, depth)
        }))?;
        Ok(counts
            .into_iter()
            .map(|(mv, n)| {
                let sweep = self.state.is_sweep(&self.rules.0, mv);
                (PyMove { mv, sweep }, n)
            })
            .collect())
    }

    /// Whether `move` (a `Move` or its notation), legal here, scores a sweep; an
    /// `IllegalMoveError` if it is not legal. A `Move` built from text knows no position, so
    /// its own `sweep` is False: this asks the state.
    fn is_sweep(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let mv: Move = convert::mv(r#move)?;
        if !self.state.is_legal(&self.rules.0, mv) {
            return Err(IllegalMoveError::new_err(format!(
                "not a legal move here: {mv}\nhint: see `state.legal_moves()`"
            )));
        }
        Ok(self.state.is_sweep(&self.rules.0, mv))
    }

    /// Plays `move` (a `Move` or its notation) and returns the new state; this one is unchanged.
    #[pyo3(name = "play")]
    fn play_move(&self, r#move: &Bound<'_, PyAny>) -> PyResult<PyState> {
        let mv: Move = convert::mv(r#move)?;
        let mut next = self.state;
        match next.play(&self.rules.0, mv) {
            Ok(()) => Ok(self.with(next)),
            Err(CoreError::IllegalMove(m)) => {
                // The core names the move it read; name it as the caller wrote it too.
                let m = match r#move.cast::<pyo3::types::PyString>() {
                    Ok(text) => {
                        let read = mv.to_string();
                        let head = m.strip_suffix(&read).unwrap_or(&m);
                        format!("{head}{}", convert::as_written(text.to_str()?, &read))
                    }
                    Err(_) => m,
                };
                Err(IllegalMoveError::new_err(format!(
                    "{m}\nhint: see `state.legal_moves()`"
                )))
            }
            Err(e) => py(Err(e)),
        }
    }

    /// The report of the finished hand: points, awards, counts, sweeps, match score.
    fn hand_report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.state.hand_score(&self.rules.0) {
            Some(s) => self.rules.report(
                py,
                &s,
                self.state.piles(),
                self.state.table(),
                Some(self.state.scores()),
            ),
            None => Err(IllegalMoveError::new_err(
                "the hand is not over yet: hand_report",
            )),
        }
    }

    /// The next hand, dealt by the next seat; the match score carries over.
    fn next_hand(&self) -> PyResult<PyState> {
        let mut next = self.state;
        py(next.next_hand(&self.rules.0))?;
        Ok(self.with(next))
    }

    /// What `seat` can see, and nothing more.
    fn view(&self, seat: &Bound<'_, PyAny>) -> PyResult<PyView> {
        let s = convert::seat(seat, self.state.num_players(), "seat")?;
        Ok(PyView {
            rules: self.rules.clone(),
            view: self.state.view(s),
        })
    }

    /// The state as bytes (`State.from_bytes(rules, b)` reads it back).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.state.encode(&self.rules.0))
    }

    /// A state from `to_bytes()`'s output.
    #[staticmethod]
    fn from_bytes(rules: &Bound<'_, PyRules>, data: &[u8]) -> PyResult<PyState> {
        let r = rules.get().clone();
        let state = py(State::decode(&r.0, data))?;
        Ok(PyState { rules: r, state })
    }

    /// The state as one line of the position notation (docs/notation.md): the rules, every
    /// hand, the table, the stock in deal order, the piles and the counters.
    fn to_notation(&self) -> String {
        self.state.to_notation(&self.rules.0)
    }

    /// A state (with its rules) from one line of the position notation; a `NotationError`
    /// naming the field at fault if the line is malformed or no game reaches the position.
    #[staticmethod]
    fn from_notation(text: &str) -> PyResult<PyState> {
        let (rules, state) = py(State::from_notation(text))?;
        Ok(PyState {
            rules: PyRules(std::sync::Arc::new(rules)),
            state,
        })
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyState>().is_ok_and(|o| {
            let o = o.get();
            o.state == self.state && o.rules.0.options() == self.rules.0.options()
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.state.hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let f = slf.get_type().getattr("from_bytes")?;
        let me = slf.get();
        let rules = Bound::new(py, me.rules.clone())?.into_any();
        let bytes = PyBytes::new(py, &me.state.encode(&me.rules.0)).into_any();
        Ok((f, PyTuple::new(py, [rules, bytes])?))
    }

    fn __repr__(&self) -> String {
        let s = &self.state;
        format!(
            "<State {} {}p phase={} to_move={} table=[{}] scores=[{}, {}]>",
            self.rules.0.game().name(),
            s.num_players(),
            phase_name(s.phase()),
            s.to_move().map_or("None".to_string(), |m| m.to_string()),
            s.table(),
            s.scores()[0],
            s.scores()[1]
        )
    }

    fn __str__(&self) -> String {
        let s = &self.state;
        let mut out = format!(
            "{} ({} players), dealer {}, {}\n",
            self.rules.0.game().name(),
            s.num_players(),
            s.dealer(),
            match s.to_move() {
                Some(m) => format!("seat {m} to move"),
                None => "hand over".to_string(),
            }
        );
        let _ = writeln!(out, "table: {}", s.table());
        for seat in 0..s.num_players() {
            let _ = writeln!(out, "seat {seat}: {}", s.hand(seat));
        }
        let _ = write!(
            out,
            "stock: {} cards; piles: {} v {} cards; sweeps {} v {}; scores {} v {}",
            s.stock().len(),
            s.pile(0).len(),
            s.pile(1).len(),
            s.sweeps()[0],
            s.sweeps()[1],
            s.scores()[0],
            s.scores()[1]
        );
        out
    }
}
