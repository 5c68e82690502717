//! Batch calls: long-running loops that release the GIL.
//!
//! `simulate_arrays` runs `capturefast_core::play::sim::run` and moves its result columns into numpy
//! arrays without copying. With only built-in bots the run is detached from the interpreter and
//! uses every thread asked for; the calling thread polls every `sim::POLL_INTERVAL` for Ctrl-C
//! (`check_signals`) and the progress callback, and Ctrl-C stops the run through its `Control`,
//! a search bot's decision in progress included; what finished is returned. (Not through
//! `Until`, which raises: a run keeps what finished.) A seat may hold a Python object with a
//! `choose(view)` method: then the run stays on the calling thread with the GIL (one thread),
//! and each decision calls into Python.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use capturefast_core::play::sim::{self, Control, Mode, Plan, Player};
use capturefast_core::{Bot, BotKind, LazyView, Move, Rules, View};
use numpy::ndarray::Array2;
use numpy::{Element, IntoPyArray};
use pyo3::exceptions::{PyKeyboardInterrupt, PyTypeError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::convert;
use crate::detached;
use crate::errors::{IllegalMoveError, py as core};
use crate::rules::PyRules;
use crate::view::PyView;

/// Plays `hands` independent random hands (uniform over legal moves) and returns totals:
/// `{"hands", "points": [a, b], "awards": {category: [a, b]}, "ties": {category: n},
/// "sweeps": [a, b]}`. Hand `i` is seeded from `(seed, i)`.
#[pyfunction]
#[pyo3(signature = (rules, hands, seed = 0))]
pub fn random_hands<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyRules>,
    #[pyo3(from_py_with = crate::convert::arg::hands)] hands: u64,
    #[pyo3(from_py_with = crate::convert::arg::seed)] seed: u64,
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

/// The names of the built-in bots that decide in microseconds (`BotKind::FAST`), or with
/// `search` every built-in bot (`BotKind::ALL`: the search bots `pimc` and `ismcts` last, which
/// also take a budget in their name).
#[pyfunction]
#[pyo3(signature = (*, search = false))]
pub fn bot_names(search: bool) -> Vec<&'static str> {
    let kinds: &[BotKind] = if search {
        &BotKind::ALL
    } else {
        &BotKind::FAST
    };
    kinds.iter().map(|k| k.name()).collect()
}

/// The seeds of item `item` of a simulation seeded with `seed`: the seed of `State.new` that
/// deals it, and the bot seed of each of the `players` seats.
#[pyfunction]
pub fn sim_seeds(seed: u64, item: u64, players: u8) -> (u64, Vec<u64>) {
    let deal = sim::deal_seed(seed, item);
    (deal, (0..players).map(|s| sim::bot_seed(deal, s)).collect())
}

/// What the Python side of a run shares: the first error raised (by a Python bot, the progress
/// callback or a signal handler) and whether the run was interrupted by Ctrl-C.
#[derive(Default)]
struct Shared {
    error: Mutex<Option<PyErr>>,
    interrupted: AtomicBool,
}

impl Shared {
    /// Records `e` and stops the run: a `KeyboardInterrupt` marks it interrupted (what finished
    /// is returned); any other error is raised once the run has stopped.
    fn fail(&self, py: Python<'_>, e: PyErr, control: &Control) {
        control.stop();
        if e.is_instance_of::<PyKeyboardInterrupt>(py) {
            self.interrupted.store(true, Ordering::Relaxed);
        } else {
            let mut slot = self.error.lock().unwrap_or_else(PoisonError::into_inner);
            slot.get_or_insert(e);
        }
    }

    fn failed(&self, control: &Control) -> bool {
        control.is_stopped()
            && (self.interrupted.load(Ordering::Relaxed)
                || self
                    .error
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .is_some())
    }

    fn take_error(&self) -> Option<PyErr> {
        self.error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}

/// A Python object with `choose(view) -> move` in a seat.
struct PyBot {
    obj: Arc<Py<PyAny>>,
    name: Arc<str>,
    rules: PyRules,
    /// The seed for `reset(seed)`, called before the bot's first decision of a hand (hands
    /// mode) or match (matches mode) if the object has a `reset` method.
    reset: Option<u64>,
    control: Arc<Control>,
    shared: Arc<Shared>,
}

impl PyBot {
    fn call(&mut self, py: Python<'_>, view: &View, legal: &[Move]) -> PyResult<Move> {
        let obj = self.obj.bind(py);
        if let Some(seed) = self.reset.take() {
            obj.call_method1(intern!(py, "reset"), (seed,))?;
        }
        let pyview = Bound::new(
            py,
            PyView {
                rules: self.rules.clone(),
                view: *view,
            },
        )?;
        let chosen = obj.call_method1(intern!(py, "choose"), (pyview,))?;
        let mv = convert::mv(&chosen)?;
        if legal.contains(&mv) {
            Ok(mv)
        } else {
            Err(IllegalMoveError::new_err(format!(
                "the bot in seat {} ({}) chose a move that is not legal: {mv}\n\
                 hint: choose one of `view.legal_moves()`",
                view.seat, self.name
            )))
        }
    }
}

impl Bot for PyBot {
    fn choose(&mut self, _rules: &Rules, view: &LazyView<'_>, legal: &[Move]) -> Move {
        if self.shared.failed(&self.control) {
            // The run is stopping: finish the item quietly; it will be dropped.
            return legal[0];
        }
        Python::attach(|py| {
            self.call(py, &view.get(), legal).unwrap_or_else(|e| {
                self.shared.fail(py, e, &self.control);
                legal[0]
            })
        })
    }
}

/// One seat's player from a Python value: a built-in bot name or an object with `choose`.
/// Returns the player and whether it is a Python object.
fn player(
    bot: &Bound<'_, PyAny>,
    rules: &PyRules,
    control: &Arc<Control>,
    shared: &Arc<Shared>,
) -> PyResult<(Player, bool)> {
    let py = bot.py();
    if let Ok(name) = bot.cast::<PyString>() {
        return Ok((core(Player::parse(name.to_str()?))?, false));
    }
    if !bot.hasattr(intern!(py, "choose"))? {
        return Err(PyTypeError::new_err(format!(
            "a bot is a built-in bot name or an object with a `choose(view)` method, got: {}",
            bot.get_type().name()?
        )));
    }
    let name: Arc<str> = match bot.getattr_opt(intern!(py, "name"))? {
        Some(n) if n.is_instance_of::<PyString>() => n.extract::<String>()?.into(),
        _ => bot.get_type().name()?.to_string().into(),
    };
    let label = name.to_string();
    let has_reset = bot.hasattr(intern!(py, "reset"))?;
    let obj = Arc::new(bot.clone().unbind());
    let (rules, control, shared) = (rules.clone(), control.clone(), shared.clone());
    let make = move |seed: u64| -> Box<dyn Bot> {
        Box::new(PyBot {
            obj: obj.clone(),
            name: name.clone(),
            rules: rules.clone(),
            reset: has_reset.then_some(seed),
            control: control.clone(),
            shared: shared.clone(),
        })
    };
    Ok((Player::custom(label, make), true))
}

/// A flat row-major column as a 2-D numpy array of `width` columns, without copying.
fn array2<T: Element>(py: Python<'_>, v: Vec<T>, width: usize) -> Bound<'_, PyAny> {
    let rows = v.len() / width;
    Array2::from_shape_vec((rows, width), v)
        .expect("the column holds whole rows")
        .into_pyarray(py)
        .into_any()
}

/// Plays `items` deals (or whole matches with `matches=True`) with one bot per seat and returns
/// the result columns as numpy arrays, moved out of Rust:
///
/// - `points` int16 (rows, 2), `awards` int8 (rows, 4) (side, -1 = tie), `sweeps` int8
///   (rows, 2), `dealer` int8 (rows,): one row per hand played;
/// - matches mode: `match_scores` int32 (m, 2), `match_winner` int8 (m,), `match_hands` int32
///   (m,); else None;
/// - `completed` (items finished, a prefix), `interrupted` (stopped by Ctrl-C), `threads`.
///
/// `bots` holds one entry per seat: a built-in bot name or an object with `choose(view)`.
/// `progress(done, total)` is called about every 50 ms. Ctrl-C stops the run and returns what
/// finished; an exception raised by a bot or by `progress` stops it and is raised.
///
/// `first` plays items `first..first + items` of the run seeded with `seed` (a shard of it:
/// shards joined in order give the whole run). `dry_run` checks every argument as a run
/// would and returns an empty dict without playing.
///
/// `trace` also returns every hand's deal and moves, one entry per hand row: `trace_starts`
/// (the position notation of each deal), `trace_moves` uint64 (the moves' `Move.to_int`, hand
/// after hand), `trace_seats` uint8 (the seat that played each) and `trace_ends` int64 (where
/// each hand's moves end in `trace_moves`).
#[pyfunction]
#[pyo3(signature = (rules, bots, items, *, matches = false, duplicate = false, seed = 0,
    threads = None, progress = None, first = 0, dry_run = false, trace = false))]
#[allow(clippy::too_many_arguments, clippy::needless_pass_by_value)]
#[allow(clippy::fn_params_excessive_bools)] // Python keyword flags, as `simulate` takes them
pub fn simulate_arrays<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyRules>,
    bots: Vec<Bound<'py, PyAny>>,
    #[pyo3(from_py_with = crate::convert::arg::items)] items: u64,
    matches: bool,
    duplicate: bool,
    #[pyo3(from_py_with = crate::convert::arg::seed)] seed: u64,
    #[pyo3(from_py_with = crate::convert::arg::threads)] threads: Option<usize>,
    progress: Option<Py<PyAny>>,
    #[pyo3(from_py_with = crate::convert::arg::first)] first: u64,
    dry_run: bool,
    trace: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let r = rules.get().clone();
    let control = Arc::new(Control::new());
    let shared = Arc::new(Shared::default());
    let mut players = Vec::with_capacity(bots.len());
    let mut any_python = false;
    for b in &bots {
        let (p, is_py) = player(b, &r, &control, &shared)?;
        players.push(p);
        any_python |= is_py;
    }
    let mode = if matches { Mode::Matches } else { Mode::Hands };
    let plan = core(Plan::new(&r.0, players, mode, items, seed, duplicate))?;
    let mut plan = core(plan.starting_at(first))?;
    if trace {
        plan = plan.traced();
    }
    if dry_run {
        return Ok(PyDict::new(py));
    }
    // Python bots need the interpreter at every decision: one thread, the caller's.
    let threads = if any_python {
        1
    } else {
        sim::resolve_threads(threads.unwrap_or(0))
    };
    let total = plan.items();
    let poll = |c: &Control| {
        Python::attach(|py| {
            if let Err(e) = py.check_signals() {
                shared.fail(py, e, c);
            }
            if let Some(cb) = &progress
                && let Err(e) = cb.call1(py, (c.done(), total))
            {
                shared.fail(py, e, c);
            }
        });
    };
    let outcome = if any_python {
        let mut poll = poll;
        sim::run(&r.0, &plan, threads, &control, &mut poll)
    } else {
        detached(py, || {
            let mut poll = poll;
            sim::run(&r.0, &plan, threads, &control, &mut poll)
        })
    };
    let outcome = core(outcome)?;
    // The last report: a Ctrl-C that lands in it still marks the run interrupted.
    if let Some(cb) = &progress
        && let Err(e) = cb.call1(py, (outcome.completed, total))
    {
        shared.fail(py, e, &control);
    }
    if let Some(e) = shared.take_error() {
        return Err(e);
    }
    let interrupted = shared.interrupted.load(Ordering::Relaxed);
    let d = PyDict::new(py);
    let h = outcome.hands;
    d.set_item("points", array2(py, h.points, 2))?;
    d.set_item("awards", array2(py, h.awards, 4))?;
    d.set_item("sweeps", array2(py, h.sweeps, 2))?;
    d.set_item("dealer", h.dealer.into_pyarray(py))?;
    if matches {
        let m = outcome.matches;
        d.set_item("match_scores", array2(py, m.scores, 2))?;
        d.set_item("match_winner", m.winner.into_pyarray(py))?;
        d.set_item("match_hands", m.hands.into_pyarray(py))?;
    } else {
        for key in ["match_scores", "match_winner", "match_hands"] {
            d.set_item(key, py.None())?;
        }
    }
    if trace {
        let t = outcome.trace;
        let starts: Vec<String> = t.starts.iter().map(|s| s.to_notation(&r.0)).collect();
        let moves: Vec<u64> = t.moves.iter().map(|m| m.to_bits()).collect();
        let ends: Vec<i64> = t.ends.iter().map(|&e| e as i64).collect();
        d.set_item("trace_starts", starts)?;
        d.set_item("trace_moves", moves.into_pyarray(py))?;
        d.set_item("trace_ends", ends.into_pyarray(py))?;
        d.set_item("trace_seats", t.seats.into_pyarray(py))?;
    }
    d.set_item("completed", outcome.completed)?;
    d.set_item("interrupted", interrupted)?;
    d.set_item("threads", threads)?;
    Ok(d)
}
