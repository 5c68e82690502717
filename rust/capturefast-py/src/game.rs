//! `Card`, `Move` and `Rules` for Python: thin wrappers over the core types.

use std::sync::Arc;

use capturefast_core::{
    Card, CardSet, Game, HandScore, Move, MoveKind, OptionValue, Options, Rules,
};
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFrozenSet, PyList, PyTuple};

use crate::convert;
use crate::errors::{PositionError, VariantError, py};

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

/// What the opening table means: `redeal` (void hand) and `dealer_sweeps` (Escoba 15 / 30).
#[pyclass(frozen, module = "capturefast", name = "Opening", get_all)]
pub struct PyOpening {
    redeal: bool,
    dealer_sweeps: u8,
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

/// The rules of a game: the game, the number of players and the variant options.
#[pyclass(frozen, module = "capturefast", name = "Rules")]
#[derive(Clone)]
pub struct PyRules(pub Arc<Rules>);

fn option_value(name: &str, v: &Bound<'_, PyAny>) -> PyResult<OptionValue> {
    if let Ok(b) = v.cast::<pyo3::types::PyBool>() {
        return Ok(OptionValue::Bool(b.is_true()));
    }
    // Any int, numpy's too (through `__index__`).
    match v.extract::<i64>() {
        Ok(i) => return Ok(OptionValue::Int(i)),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(v.py()) => {
            return Err(VariantError::new_err(format!(
                "option `{name}` got a number out of range: {v}"
            )));
        }
        Err(_) => {}
    }
    if let Ok(s) = v.extract::<String>() {
        return Ok(OptionValue::Str(s));
    }
    Err(VariantError::new_err(format!(
        "option `{name}` takes a string, a whole number or a bool, got {}: {}",
        v.get_type().name()?,
        v.repr()?
    )))
}

fn option_py<'py>(py: Python<'py>, v: &OptionValue) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        OptionValue::Str(s) => s.into_pyobject(py)?.into_any(),
        OptionValue::Int(i) => i.into_pyobject(py)?.into_any(),
        OptionValue::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
    })
}

impl PyRules {
    pub fn build(game: &str, players: i64, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let game = py(Game::from_name(game))?;
        let players = u8::try_from(players).map_err(|_| convert::bad_players(players))?;
        let mut o = Options::new(game, players);
        if let Some(d) = options {
            // The alias sets what `opening_sweeps` sets: both at once would be settled by
            // their order in the call, silently.
            if d.contains("opening_sweeps")? && d.contains("initial_30_requires_partition")? {
                return Err(VariantError::new_err(
                    "give `opening_sweeps` alone: `initial_30_requires_partition` is its old \
                     spelling, got both\nhint: opening_sweeps=\"partition\" is \
                     initial_30_requires_partition=True",
                ));
            }
            for (k, v) in d.iter() {
                let name: String = k.extract()?;
                py(o.set(&name, &option_value(&name, &v)?))?;
            }
        }
        Ok(PyRules(Arc::new(py(Rules::new(o))?)))
    }

    /// Builds the report object of `capturefast.report` for a hand score.
    /// `leftovers`: the cards the hand left to nobody (on the table: only where nobody
    /// captured, under optional capture).
    pub fn report<'py>(
        &self,
        py: Python<'py>,
        s: &HandScore,
        piles: [CardSet; 2],
        leftovers: CardSet,
        scores: Option<[u32; 2]>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let r = &self.0;
        let names = r.category_names();
        let awards = PyDict::new(py);
        for (name, a) in names.iter().zip(s.awards) {
            awards.set_item(name, a)?;
        }
        let counts = PyList::empty(py);
        for c in &s.counts {
            let d = PyDict::new(py);
            d.set_item("cards", c.cards)?;
            d.set_item("coins", c.coins)?;
            d.set_item("sevens", c.sevens)?;
            d.set_item("sixes", c.sixes)?;
            d.set_item("primiera", c.primiera)?;
            d.set_item("ranks", ints(c.ranks))?;
            let best: Vec<String> = c
                .primiera_cards
                .iter()
                .flatten()
                .map(ToString::to_string)
                .collect();
            d.set_item("primiera_cards", best)?;
            d.set_item("coin_run", c.coin_run)?;
            counts.append(d)?;
        }
        let bonuses = PyDict::new(py);
        for (i, name) in capturefast_core::BONUS_NAMES.iter().enumerate() {
            if r.bonus_enabled(i) {
                bonuses.set_item(name, s.bonuses[i].to_vec())?;
            }
        }
        let piles_py = PyList::empty(py);
        for p in piles {
            piles_py.append(PyList::new(py, p.iter().map(|c| c.to_string()))?)?;
        }
        let kw = PyDict::new(py);
        kw.set_item("game", r.game().name())?;
        kw.set_item("points", s.points.to_vec())?;
        kw.set_item("awards", awards)?;
        kw.set_item("counts", counts)?;
        kw.set_item("sweeps", ints(s.sweeps))?;
        kw.set_item("piles", piles_py)?;
        kw.set_item("scores", scores.map(|x| x.to_vec()))?;
        kw.set_item("bonuses", bonuses)?;
        // What decided the fourth category (the report's evidence and checks read it).
        let mode = if r.game() == Game::Chkobba {
            "bermila"
        } else {
            "primiera_mode"
        };
        kw.set_item("prime_mode", r.options().get(mode).map(|v| v.to_string()))?;
        kw.set_item(
            "leftovers",
            PyList::new(py, leftovers.iter().map(|c| c.to_string()))?,
        )?;
        py.import("capturefast.report")?
            .getattr("HandReport")?
            .call((), Some(&kw))
    }
}

#[pymethods]
impl PyRules {
    /// Rules of `game` (`scopa`, `escoba`, `chkobba`) for 2 players or 4 in partnerships, with
    /// keyword overrides of the options (spec words, e.g. `last_play_sweep="counts"`).
    #[new]
    #[pyo3(signature = (game, players = 2, **options))]
    fn new(
        game: &str,
        #[pyo3(from_py_with = convert::arg::players)] players: i64,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        PyRules::build(game, players, options)
    }

    /// Scopa (GameRules.com profile) with keyword overrides.
    #[staticmethod]
    #[pyo3(signature = (players = 2, **options))]
    fn scopa(
        #[pyo3(from_py_with = convert::arg::players)] players: i64,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        PyRules::build("scopa", players, options)
    }

    /// Escoba with keyword overrides.
    #[staticmethod]
    #[pyo3(signature = (players = 2, **options))]
    fn escoba(
        #[pyo3(from_py_with = convert::arg::players)] players: i64,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        PyRules::build("escoba", players, options)
    }

    /// Chkobba (Tunisian profile) with keyword overrides.
    #[staticmethod]
    #[pyo3(signature = (players = 2, **options))]
    fn chkobba(
        #[pyo3(from_py_with = convert::arg::players)] players: i64,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        PyRules::build("chkobba", players, options)
    }

    /// Rules from `to_dict()`'s output.
    #[staticmethod]
    fn from_dict(d: &Bound<'_, PyDict>) -> PyResult<Self> {
        let d = d.copy()?;
        let game: String = match d.get_item("game")? {
            Some(g) => g.extract()?,
            None => return Err(VariantError::new_err("missing key: game")),
        };
        d.del_item("game")?;
        let players: i64 = match d.get_item("players")? {
            Some(p) => {
                d.del_item("players")?;
                convert::arg::players(&p)?
            }
            None => 2,
        };
        PyRules::build(&game, players, Some(&d))
    }

    /// `{"game": ..., "players": ..., <every option>: value}`; `Rules.from_dict` reads it back.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let o = self.0.options();
        d.set_item("game", o.game.name())?;
        d.set_item("players", o.players)?;
        for (k, v) in o.to_pairs() {
            d.set_item(k, option_py(py, &v)?)?;
        }
        Ok(d)
    }

    /// The game: `scopa`, `escoba` or `chkobba`.
    #[getter]
    fn game(&self) -> &'static str {
        self.0.game().name()
    }

    /// Number of players (2 or 4).
    #[getter]
    fn players(&self) -> u8 {
        self.0.num_players()
    }

    /// The match target.
    #[getter]
    fn target(&self) -> u32 {
        self.0.target()
    }

    /// The option values, as in `to_dict()` without game and players.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.0.options().to_pairs() {
            d.set_item(k, option_py(py, &v)?)?;
        }
        Ok(d)
    }

    /// The four scoring categories in order, named as the game names them.
    #[getter]
    fn categories(&self) -> Vec<&'static str> {
        self.0.category_names().to_vec()
    }

    /// The capture value of `card` under these rules.
    fn value(&self, card: &Bound<'_, PyAny>) -> PyResult<u8> {
        Ok(self.0.value(convert::card(card)?))
    }

    /// Every legal capture of `card` played onto `table`; `[]` means the card trails.
    fn capture_options<'py>(
        &self,
        py: Python<'py>,
        table: &Bound<'py, PyAny>,
        card: &Bound<'py, PyAny>,
    ) -> PyResult<Vec<Bound<'py, PyFrozenSet>>> {
        let table = convert::cards(table)?;
        let card = convert::card(card)?;
        if table.contains(card) {
            return py_dup(card);
        }
        let mut out = Vec::new();
        self.0.capture_options(table, card, &mut out);
        out.into_iter()
            .map(|s| convert::frozenset_py(py, s))
            .collect()
    }

    /// The opening-table rule for the 4 face-up cards of a deal.
    fn opening(&self, table: &Bound<'_, PyAny>) -> PyResult<PyOpening> {
        let table = convert::cards(table)?;
        if table.len() != 4 {
            return Err(PositionError::new_err(format!(
                "the opening table holds 4 cards, got: {}",
                table.len()
            )));
        }
        let o = self.0.opening(table);
        Ok(PyOpening {
            redeal: o.redeal,
            dealer_sweeps: o.dealer_sweeps,
        })
    }

    /// Scores a hand from the two sides' piles (together all 40 cards), sweep counts and
    /// declaration points (with the `declarations` option).
    #[pyo3(signature = (piles, sweeps = None, declarations = None))]
    fn score<'py>(
        &self,
        py: Python<'py>,
        piles: &Bound<'py, PyAny>,
        sweeps: Option<&Bound<'py, PyAny>>,
        declarations: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let piles = two_piles(piles)?;
        let sweeps = match sweeps {
            Some(s) => two_counts(s, "sweeps")?,
            None => [0, 0],
        };
        let declared = match declarations {
            Some(d) => two_declarations(d)?,
            None => [0, 0],
        };
        if declared != [0, 0] && !self.0.options().declarations {
            return Err(PositionError::new_err(format!(
                "declarations score only with the `declarations` option, got: {declared:?}"
            )));
        }
        let score = self.0.score(piles, sweeps, declared);
        self.report(py, &score, piles, CardSet::EMPTY, None)
    }

    /// The side that has won with these match scores (after a complete hand), or None.
    fn match_winner(&self, scores: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
        Ok(self.0.match_winner(two_scores(scores)?))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyRules>()
            .is_ok_and(|o| o.get().0.options() == self.0.options())
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.0.options().hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> String {
        let o = self.0.options();
        let opts: Vec<String> = o
            .to_pairs()
            .iter()
            .filter(|(k, v)| {
                Options::new(o.game, o.players)
                    .to_pairs()
                    .iter()
                    .all(|(k2, v2)| k2 != k || v2 != v)
            })
            .map(|(k, v)| match v {
                OptionValue::Str(s) => format!(", {k}='{s}'"),
                OptionValue::Bool(b) => format!(", {k}={}", if *b { "True" } else { "False" }),
                OptionValue::Int(i) => format!(", {k}={i}"),
            })
            .collect();
        format!(
            "Rules.{}(players={}{})",
            o.game.name(),
            o.players,
            opts.concat()
        )
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let f = slf.get_type().getattr("from_dict")?;
        Ok((f, PyTuple::new(py, [slf.get().to_dict(py)?])?))
    }
}

fn py_dup<T>(card: Card) -> PyResult<T> {
    py(Err(capturefast_core::Error::DuplicateCard(
        card.to_string(),
    )))
}

/// Two disjoint piles that together hold all 40 cards.
pub fn two_piles(obj: &Bound<'_, PyAny>) -> PyResult<[CardSet; 2]> {
    let items: Vec<Bound<'_, PyAny>> = obj.try_iter()?.collect::<PyResult<_>>()?;
    if items.len() != 2 {
        return Err(PositionError::new_err(format!(
            "piles must be one per side (2), got: {}",
            items.len()
        )));
    }
    let a = convert::cards(&items[0])?;
    let b = convert::cards(&items[1])?;
    if let Some(c) = (a & b).first() {
        return py_dup(c);
    }
    if (a | b) != CardSet::FULL {
        return Err(PositionError::new_err(format!(
            "the piles must hold all 40 cards between them; missing: {}",
            CardSet::FULL - (a | b)
        )));
    }
    Ok([a, b])
}

/// Two ints from 0 to `hi`, one per side, from a Python sequence; refused (naming `what`) as
/// a `PositionError` otherwise, ints too large for `i64` too.
fn two_in(obj: &Bound<'_, PyAny>, hi: i64, what: &str) -> PyResult<[i64; 2]> {
    match convert::wholes(obj, what)?.as_slice() {
        [Some(a), Some(b)] if (0..=hi).contains(a) && (0..=hi).contains(b) => Ok([*a, *b]),
        _ => Err(PositionError::new_err(format!(
            "{what} must be two numbers from 0 to {hi}, one per side, got: {}",
            obj.repr()?
        ))),
    }
}

/// Two small non-negative counts (sweeps per side).
pub fn two_counts(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<[u8; 2]> {
    Ok(two_in(obj, 40, what)?.map(|x| x as u8))
}

/// Declaration points per side: two numbers from 0 to 255.
pub fn two_declarations(obj: &Bound<'_, PyAny>) -> PyResult<[u8; 2]> {
    Ok(two_in(obj, 255, "declarations")?.map(|x| x as u8))
}

/// Two match scores.
pub fn two_scores(obj: &Bound<'_, PyAny>) -> PyResult<[u32; 2]> {
    Ok(two_in(obj, i64::from(u32::MAX), "scores")?.map(|x| x as u32))
}

/// Small counts as a list of Python ints (a `Vec<u8>` would become `bytes`).
pub fn ints(v: impl AsRef<[u8]>) -> Vec<u32> {
    v.as_ref().iter().map(|&x| u32::from(x)).collect()
}
