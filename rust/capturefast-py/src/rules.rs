//! `Rules` for Python: the game, the number of players and the variant options.

use std::sync::Arc;

use capturefast_core::{CardSet, Game, HandScore, OptionValue, Options, Rules};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFrozenSet, PyList, PyTuple};

use crate::convert::{self, ints, py_dup, two_counts, two_declarations, two_piles, two_scores};
use crate::errors::{PositionError, VariantError, py};
use crate::opening::PyOpening;

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
        kw.set_item("prime_mode", r.prime_mode())?;
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
        // A value of the wrong type in the dict is bad data, as a bad option value is: a
        // `VariantError`, not the `TypeError` of a bad argument.
        let game: String = match d.get_item("game")? {
            Some(g) => g.extract().map_err(|_| {
                VariantError::new_err(format!(
                    "game is a string (scopa, escoba or chkobba), got: {}",
                    convert::type_name(&g)
                ))
            })?,
            None => return Err(VariantError::new_err("missing key: game")),
        };
        d.del_item("game")?;
        let players: i64 = match d.get_item("players")? {
            Some(p) => {
                d.del_item("players")?;
                convert::arg::players(&p).map_err(|e| {
                    if e.is_instance_of::<pyo3::exceptions::PyTypeError>(p.py()) {
                        convert::bad_players(
                            p.repr().map_or_else(|_| "?".into(), |r| r.to_string()),
                        )
                    } else {
                        e
                    }
                })?
            }
            None => 2,
        };
        PyRules::build(&game, players, Some(&d))
    }

    /// The rules as the position notation writes them (docs/notation.md): the nearest preset
    /// and, in brackets, the options that differ from it (`cirulla[target=100]`).
    fn to_notation(&self) -> String {
        capturefast_core::rules_text(&self.0)
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

    /// Whether all ten coins in one hand win the match (Napoleone: `napola` or
    /// `all_coins_wins`).
    #[getter]
    fn all_coins_win(&self) -> bool {
        self.0.all_coins_win()
    }

    /// The game's word for a sweep and its plural, e.g. `("scopa", "scope")`.
    #[getter]
    fn sweep_names(&self) -> (&'static str, &'static str) {
        self.0.sweep_name()
    }

    /// What decides the fourth category: the value of `primiera_mode` or `bermila`.
    #[getter]
    fn prime_mode(&self) -> &'static str {
        self.0.prime_mode()
    }

    /// The four scoring categories in order, named as the game names them.
    #[getter]
    fn categories(&self) -> Vec<&'static str> {
        self.0.category_names().to_vec()
    }

    /// The most points one side can score in a hand under these rules (a bound on a hand's
    /// margin either way): its possible sweeps, the categories, declarations and bonuses.
    #[getter]
    fn max_hand_points(&self) -> u32 {
        self.0.max_hand_points()
    }

    /// The seat that plays after `seat` (and is dealt after it): the next one counterclockwise,
    /// or clockwise under `direction="clockwise"`.
    fn next_seat(&self, seat: &Bound<'_, PyAny>) -> PyResult<u8> {
        let seat = convert::seat(seat, self.0.num_players(), "seat")?;
        Ok(self.0.next_seat(seat))
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

/// The rules of `game` (2 players) with the fourth category decided by `mode`.
fn rules_with_mode(game: &str, mode: &str) -> PyResult<Rules> {
    let game = py(Game::from_name(game))?;
    let mut o = Options::new(game, 2);
    let option = game.profile().prime.option();
    py(o.set(option, &OptionValue::Str(mode.to_string())))?;
    py(Rules::new(o))
}

/// The facts of `game` that reports show: its `name`, `categories` (the four names),
/// `sweep` and `sweeps` (its word for a sweep, singular and plural), `prime_option` (the option
/// deciding the fourth category) and `prime_modes` (its values), `bonuses` (every bonus name,
/// in score order) and `target`.
#[pyfunction]
pub fn game_facts<'py>(py: Python<'py>, game: &str) -> PyResult<Bound<'py, PyDict>> {
    let profile = crate::errors::py(Game::from_name(game))?.profile();
    let d = PyDict::new(py);
    d.set_item("name", profile.name)?;
    d.set_item("categories", profile.category_names.to_vec())?;
    d.set_item("sweep", profile.sweep_name.0)?;
    d.set_item("sweeps", profile.sweep_name.1)?;
    d.set_item("prime_option", profile.prime.option())?;
    d.set_item("prime_modes", profile.prime.modes())?;
    d.set_item("bonuses", capturefast_core::BONUS_NAMES.to_vec())?;
    d.set_item("target", profile.target)?;
    Ok(d)
}

/// Who takes the fourth category of `game` decided by `mode`, from each side's count per rank
/// (`A..K`) and primiera total (None: invalid): 0, 1, or None for nobody. The engine's own rule,
/// for checking a report.
#[pyfunction]
pub fn prime_award(
    game: &str,
    mode: &str,
    ranks: [[u8; capturefast_core::NUM_RANKS]; 2],
    primiera: [Option<u16>; 2],
) -> PyResult<Option<u8>> {
    Ok(rules_with_mode(game, mode)?.prime_award(ranks, primiera))
}

/// The ranks (indexes into `A..K`) whose counts decide the fourth category of `game` under
/// `mode`, compared in order, or None when primiera totals decide it.
#[pyfunction]
pub fn prime_cascade(game: &str, mode: &str) -> PyResult<Option<Vec<usize>>> {
    Ok(rules_with_mode(game, mode)?
        .prime_cascade()
        .map(<[usize]>::to_vec))
}

/// One preset as Python receives it: name, game, players, title, overrides.
type PresetRow<'py> = (
    &'static str,
    &'static str,
    u8,
    &'static str,
    Bound<'py, PyDict>,
);

/// The presets of docs/variants.md, from the core's one table: `(name, game, players, title,
/// overrides)` each, in the documented order; `overrides` maps option names to values.
#[pyfunction]
pub fn presets(py: Python<'_>) -> PyResult<Vec<PresetRow<'_>>> {
    capturefast_core::PRESETS
        .iter()
        .map(|p| {
            let d = PyDict::new(py);
            for (name, setting) in p.overrides {
                d.set_item(name, option_py(py, &setting.value())?)?;
            }
            Ok((p.name, p.game.name(), p.players, p.title, d))
        })
        .collect()
}
