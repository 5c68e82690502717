//! Solver queries: `solve` (an open position), `analyze` (a position as one seat sees it) and
//! their batch forms. Every call releases the GIL; batch forms split the positions over threads,
//! each with its own transposition table, and return results in input order.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use capturefast_core::play::query;
use capturefast_core::search::{self, analysis::SeatAnalysis};
use capturefast_core::{EXPERT_MODEL_BETA, ExpertModel, Horizon, Inference, Interrupt, Solver};
use capturefast_core::{Move, Rules, State};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::bot::told;
use crate::convert;
use crate::detached;
use crate::errors::py as check;
use crate::state::PyState;
use crate::until::{Outcome, Until};

/// Default transposition-table capacity per solver, in entries (16 MiB once all used; a solver
/// allocates only the part its searches need).
pub(crate) const DEFAULT_TT: usize = 1 << 20;

thread_local! {
    /// The solver `solve` and `analyze` use on this thread: kept between calls, so a query pays
    /// for the table only the first time a search of its size needs it.
    static THREAD_SOLVER: std::cell::RefCell<Solver> = std::cell::RefCell::new(Solver::new(DEFAULT_TT));
}

/// Runs `f` with this thread's solver, its capacity set to `tt_entries`; with a solver of its
/// own if this thread's is busy (a Python signal handler's query, which runs while a long query
/// waits for Ctrl-C).
fn with_thread_solver<T>(tt_entries: usize, f: impl FnOnce(&mut Solver) -> T) -> T {
    THREAD_SOLVER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut solver) => {
            solver.set_tt_entries(tt_entries);
            f(&mut solver)
        }
        Err(_) => f(&mut Solver::new(tt_entries)),
    })
}

/// What a `Solution` pickles as: its value, each move with its value, and its nodes.
type SolutionParts = (i32, Vec<(crate::moves::PyMove, i32)>, u64);

/// The exact value of an open position for the side to move, and of each legal move.
#[pyclass(frozen, module = "capturefast", name = "Solution")]
pub struct PySolution {
    value: i32,
    moves: Vec<(Move, bool, i32)>,
    nodes: u64,
}

fn move_py(mv: Move, sweep: bool) -> crate::moves::PyMove {
    crate::moves::PyMove { mv, sweep }
}

#[pymethods]
impl PySolution {
    /// Points of the side to move minus the other side's at the end of the hand, with best play.
    #[getter]
    fn value(&self) -> i32 {
        self.value
    }

    /// Each legal move (in `legal_moves()` order) mapped to its value for the side to move.
    #[getter]
    fn move_values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for &(mv, sweep, v) in &self.moves {
            d.set_item(move_py(mv, sweep), v)?;
        }
        Ok(d)
    }

    /// The moves that reach the value.
    #[getter]
    fn best_moves(&self) -> Vec<crate::moves::PyMove> {
        self.moves
            .iter()
            .filter(|&&(_, _, v)| v == self.value)
            .map(|&(mv, sweep, _)| move_py(mv, sweep))
            .collect()
    }

    /// Search nodes visited.
    #[getter]
    fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A solution from its parts, as `__reduce__` gives them (for pickling).
    #[staticmethod]
    fn _restore(
        value: i32,
        moves: Vec<(Bound<'_, crate::moves::PyMove>, i32)>,
        nodes: u64,
    ) -> PySolution {
        let moves = moves
            .into_iter()
            .map(|(m, v)| (m.get().mv, m.get().sweep, v))
            .collect();
        PySolution {
            value,
            moves,
            nodes,
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, SolutionParts)> {
        let me = slf.get();
        let moves = me
            .moves
            .iter()
            .map(|&(mv, sweep, v)| (move_py(mv, sweep), v))
            .collect();
        Ok((
            slf.get_type().getattr("_restore")?,
            (me.value, moves, me.nodes),
        ))
    }

    fn __repr__(&self) -> String {
        let best: Vec<String> = self
            .moves
            .iter()
            .filter(|&&(_, _, v)| v == self.value)
            .map(|&(mv, _, _)| mv.to_string())
            .collect();
        format!(
            "Solution(value={}, best_moves=[{}], nodes={})",
            self.value,
            best.join(", "),
            self.nodes
        )
    }
}

pub(crate) fn check_open(state: &State) -> PyResult<()> {
    check(search::batch::check_open(state))
}

/// The solution of an open position by `solver`, stopped with
/// [`capturefast_core::Error::Stopped`] when `interrupt` says so.
pub(crate) fn solve_until(
    solver: &mut Solver,
    rules: &Rules,
    state: &State,
    interrupt: &Interrupt,
) -> Result<PySolution, capturefast_core::Error> {
    let s = solver.until(interrupt.clone(), |solver| solver.solve(rules, state))?;
    let moves = s
        .move_values
        .iter()
        .map(|&(mv, v)| (mv, state.is_sweep(rules, mv), v))
        .collect();
    Ok(PySolution {
        value: s.value,
        moves,
        nodes: s.nodes,
    })
}

/// Solves an open position exactly: every card, and the order of the stock, are known; a
/// `StoppedError` once `time_ms` milliseconds have passed, `stop` is set or `nodes` nodes
/// have been searched.
#[pyfunction]
#[pyo3(signature = (state, tt_entries = DEFAULT_TT, *, time_ms = None, stop = None, nodes = None))]
pub fn solve(
    py: Python<'_>,
    state: &Bound<'_, PyState>,
    #[pyo3(from_py_with = crate::convert::arg::tt_entries)] tt_entries: usize,
    #[pyo3(from_py_with = crate::convert::arg::time_ms)] time_ms: Option<u64>,
    #[pyo3(from_py_with = crate::solver::stop_arg)] stop: Option<Arc<AtomicBool>>,
    #[pyo3(from_py_with = crate::convert::arg::nodes)] nodes: Option<u64>,
) -> PyResult<PySolution> {
    let st = state.get();
    check_open(&st.state)?;
    let rules = st.rules.0.clone();
    let s = st.state;
    let until = Until::new(time_ms, stop, nodes);
    check(detached(py, move || {
        with_thread_solver(tt_entries, |solver| {
            until.run(solver, |solver, at| solve_until(solver, &rules, &s, at))
        })
    })?)
}

/// A thread count from Python: None for one per core (the core's 0).
fn thread_count(threads: Option<usize>) -> usize {
    threads.unwrap_or(0)
}

/// The positions of a batch call with their rules, each checked to be in play.
fn open_jobs(states: &[Bound<'_, PyAny>]) -> PyResult<Vec<(Arc<Rules>, State)>> {
    let mut items = Vec::with_capacity(states.len());
    for (i, s) in states.iter().enumerate() {
        let s = s.cast::<PyState>().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "states[{i}] must be a capturefast.State, got: {}",
                convert::type_name(s)
            ))
        })?;
        let g = s.get();
        check_open(&g.state).map_err(|e| at_item(s.py(), i, &e))?;
        items.push((g.rules.0.clone(), g.state));
    }
    Ok(items)
}

/// `e`, of the same class, its message led by the batch item it is about: `states[i]: ...`.
fn at_item(py: Python<'_>, i: usize, e: &PyErr) -> PyErr {
    PyErr::from_type(e.get_type(py), format!("states[{i}]: {}", e.value(py)))
}

/// Whether a batch item is an error of one stopped by the interrupt (before it began, or a
/// solve during its search: [`search::batch`]).
fn stopped_item<T>(r: &Result<T, capturefast_core::Error>) -> bool {
    matches!(r, Err(capturefast_core::Error::Stopped(_)))
}

/// The results of a batch, or the first item's error, naming the item.
fn each_checked<T, U>(
    py: Python<'_>,
    out: Vec<Result<T, capturefast_core::Error>>,
    f: impl Fn(T) -> U,
) -> PyResult<Vec<U>> {
    out.into_iter()
        .enumerate()
        .map(|(i, r)| check(r).map(&f).map_err(|e| at_item(py, i, &e)))
        .collect()
}

/// The exact values of many open positions (for their sides to move), on `threads` threads
/// (None: every core), in input order. `dry_run` checks every argument and returns `[]`
/// without solving. Ctrl-C stops it (`KeyboardInterrupt`) on Python's main thread ([`Until`]).
#[pyfunction]
#[pyo3(signature = (states, threads = None, tt_entries = DEFAULT_TT, *, dry_run = false))]
#[allow(clippy::needless_pass_by_value)] // PyO3 extracts a list argument into an owned Vec
pub fn solve_values(
    py: Python<'_>,
    states: Vec<Bound<'_, PyAny>>,
    #[pyo3(from_py_with = crate::convert::arg::threads)] threads: Option<usize>,
    #[pyo3(from_py_with = crate::convert::arg::tt_entries)] tt_entries: usize,
    dry_run: bool,
) -> PyResult<Vec<i32>> {
    let items = open_jobs(&states)?;
    if dry_run {
        return Ok(Vec::new());
    }
    let n = thread_count(threads);
    let out = detached(py, || {
        Until::new(None, None, None).run_batch(items.len(), stopped_item, |todo, at| {
            let jobs = todo.iter().map(|&i| items[i].clone()).collect();
            search::batch::solve_values(jobs, n, tt_entries, at)
        })
    })?;
    each_checked(py, out, |v| v)
}

/// One seat's analysis: `(moves, means, stderrs, exact, worlds, stopped, horizon, too_large)`:
/// the worlds the means are over, whether a time limit, a stop or a node budget ended it
/// early, the horizon of its values (`"round"` when a stop cut the first world's exact solve
/// short, or the solver refused it as too large), and whether the solver refused a world as
/// too large.
pub(crate) type Analysis = (
    Vec<crate::moves::PyMove>,
    Vec<f64>,
    Vec<f64>,
    bool,
    u32,
    bool,
    &'static str,
    bool,
);

pub(crate) fn analysis_py(r: &SeatAnalysis) -> Analysis {
    let moves = r
        .moves
        .iter()
        .map(|&(mv, sw, _, _)| move_py(mv, sw))
        .collect();
    let means = r.moves.iter().map(|r| r.2).collect();
    let errs = r.moves.iter().map(|r| r.3).collect();
    let horizon = r.horizon.name();
    (
        moves,
        means,
        errs,
        r.exact,
        r.worlds,
        r.stopped,
        horizon,
        r.too_large,
    )
}

/// The search of each world: `hand` (solved exactly to the end of the hand) or `round`.
pub(crate) fn horizon(name: &str) -> PyResult<Horizon> {
    check(Horizon::from_name(name))
}

/// The seat to move's legal moves, each with its mean value and standard error over `worlds`
/// positions drawn uniformly among those consistent with what `seat` sees, each searched to the
/// end of the round (`horizon = "round"`, as the `pimc` bot) or solved exactly to the end of the
/// hand (`"hand"`).
/// `history`: the moves that led to `state` (each the `State` before it and the move); with
/// it the worlds are weighed by how likely the other seats' moves of the current round are, as
/// the `pimc` bot weighs them.
/// `time_ms`, `stop`, `nodes`: the analysis ends early once `time_ms` milliseconds have passed,
/// `stop` (a `StopFlag`) is set or its exact solves have searched `nodes` nodes ([`Until`]).
/// Returns `(moves, means, stderrs, exact, worlds, stopped, horizon)` ([`Analysis`]); `exact`
/// when nothing relevant is hidden (one world).
#[pyfunction]
#[pyo3(signature = (state, seat, worlds = 100, seed = 0, tt_entries = DEFAULT_TT, horizon = "round",
    history = None, time_ms = None, stop = None, nodes = None))]
#[allow(clippy::needless_pass_by_value)] // PyO3 extracts a list argument into an owned Vec
#[allow(clippy::too_many_arguments)] // the Python signature: one argument per setting
pub fn analyze_raw(
    py: Python<'_>,
    state: &Bound<'_, PyState>,
    #[pyo3(from_py_with = convert::arg::seat)] seat: i64,
    #[pyo3(from_py_with = crate::convert::arg::worlds)] worlds: u32,
    #[pyo3(from_py_with = crate::convert::arg::seed)] seed: u64,
    #[pyo3(from_py_with = crate::convert::arg::tt_entries)] tt_entries: usize,
    horizon: &str,
    #[pyo3(from_py_with = crate::solve::history_arg)] history: Option<Vec<History<'_, '_>>>,
    #[pyo3(from_py_with = crate::convert::arg::time_ms)] time_ms: Option<u64>,
    #[pyo3(from_py_with = crate::solver::stop_arg)] stop: Option<Arc<AtomicBool>>,
    #[pyo3(from_py_with = crate::convert::arg::nodes)] nodes: Option<u64>,
) -> PyResult<Analysis> {
    let how = (worlds, seed, horizon);
    analyze_with(
        py,
        state,
        seat,
        how,
        history.as_deref(),
        &Until::new(time_ms, stop, nodes),
        |solver_run| with_thread_solver(tt_entries, solver_run),
    )
}

/// A move told to an analysis or a bot: the `State` before it and the move.
pub(crate) type History<'a, 'py> = (PyRef<'a, PyState>, Bound<'py, PyAny>);

/// The `history` argument: `None`, or an iterable of `(State, move)` pairs; anything else is
/// refused naming the argument (a string, whose characters would iterate, an `ArgumentError`).
pub(crate) fn history_arg<'py>(
    obj: &Bound<'py, PyAny>,
) -> PyResult<Option<Vec<History<'py, 'py>>>> {
    use pyo3::exceptions::PyTypeError;
    use pyo3::types::{PyBytes, PyString};
    if obj.is_none() {
        return Ok(None);
    }
    let kind = convert::type_name;
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(crate::errors::ArgumentError::new_err(format!(
            "history is a list of (State, move) pairs, got a string: {:.60}",
            obj.repr()?.to_string()
        )));
    }
    let items = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "history is a list of (State, move) pairs, got: {}",
            kind(obj)
        ))
    })?;
    let mut told = Vec::new();
    for (i, item) in items.enumerate() {
        let item = item?;
        let pair = item.extract::<History<'py, 'py>>().map_err(|_| {
            PyTypeError::new_err(format!(
                "history[{i}] is a (State, move) pair, got: {:.60}",
                item.repr().map_or_else(|_| kind(&item), |r| r.to_string())
            ))
        })?;
        told.push(pair);
    }
    Ok(Some(told))
}

/// One seat's analysis of `state` with the solver `with` lends: the arguments checked, the
/// search run with the GIL released, the result converted. `analyze_raw` lends this thread's
/// solver, `Solver.analyze_raw` its own.
pub(crate) fn analyze_with(
    py: Python<'_>,
    state: &Bound<'_, PyState>,
    seat: i64,
    (worlds, seed, horizon): (u32, u64, &str),
    history: Option<&[History<'_, '_>]>,
    until: &Until,
    with: impl FnOnce(&mut dyn FnMut(&mut Solver) -> Outcome<SeatAnalysis>) -> Outcome<SeatAnalysis>
    + Send,
) -> PyResult<Analysis> {
    let st = state.get();
    check_open(&st.state)?;
    let seat = convert::seat_num(seat, st.state.num_players(), "seat")?;
    let how = (worlds, seed, self::horizon(horizon)?);
    if until.nodes.is_some() && how.2 == Horizon::Round {
        // The round search counts no solver nodes: the budget would be ignored.
        return Err(crate::errors::ArgumentError::new_err(
            "a nodes budget needs horizon=\"hand\" (the round search counts no nodes), got: round",
        ));
    }
    let (rules, s) = (&st.rules.0, &st.state);
    let mut inference = history
        .map(|h| -> PyResult<Inference> {
            let mut inference = Inference::new(Box::new(ExpertModel::new(EXPERT_MODEL_BETA)));
            let view = s.view(seat);
            let told = told(Some(h), rules, seat)?;
            check(query::check_history(&view, &told))?;
            for (before, mover, mv) in told {
                inference.observe(rules, &before, mover, mv);
            }
            Ok(inference)
        })
        .transpose()?;
    let r = detached(py, || {
        with(&mut |solver| {
            until.run(solver, |solver, interrupt| {
                let inference = inference.as_mut();
                search::analysis::analyze_position(
                    rules, s, seat, how, inference, solver, interrupt,
                )
            })
        })
    });
    Ok(analysis_py(&check(r?)?))
}

/// `analyze_raw` for many positions (each analysed for its seat to move), on `threads` threads;
/// position `i` draws its worlds from `(seed, first + i)`, so that shards of a batch, each
/// given its offset `first`, give the whole batch's results. `dry_run` checks every argument
/// and returns `[]` without analysing. Ctrl-C stops it (`KeyboardInterrupt`) on Python's main
/// thread ([`Until`]).
#[pyfunction]
#[pyo3(signature = (states, worlds = 100, seed = 0, threads = None, tt_entries = DEFAULT_TT,
    horizon = "round", *, first = 0, dry_run = false))]
#[allow(clippy::needless_pass_by_value)] // PyO3 extracts a list argument into an owned Vec
#[allow(clippy::too_many_arguments)] // the Python signature: one argument per setting
pub fn analyze_many_raw(
    py: Python<'_>,
    states: Vec<Bound<'_, PyAny>>,
    #[pyo3(from_py_with = crate::convert::arg::worlds)] worlds: u32,
    #[pyo3(from_py_with = crate::convert::arg::seed)] seed: u64,
    #[pyo3(from_py_with = crate::convert::arg::threads)] threads: Option<usize>,
    #[pyo3(from_py_with = crate::convert::arg::tt_entries)] tt_entries: usize,
    horizon: &str,
    #[pyo3(from_py_with = crate::convert::arg::first)] first: u64,
    dry_run: bool,
) -> PyResult<Vec<Analysis>> {
    let horizon = self::horizon(horizon)?;
    let items = open_jobs(&states)?;
    if dry_run {
        return Ok(Vec::new());
    }
    let n = thread_count(threads);
    let how = (worlds, seed, horizon);
    let out = detached(py, || {
        let stopped =
            |r: &Result<SeatAnalysis, _>| stopped_item(r) || r.as_ref().is_ok_and(|a| a.stopped);
        Until::new(None, None, None).run_batch(items.len(), stopped, |todo, at| {
            let indexed = todo.iter().map(|&i| (first + i as u64, items[i].clone()));
            search::batch::analyze_many(indexed.collect(), how, n, tt_entries, at)
        })
    })?;
    each_checked(py, out, |a| analysis_py(&a))
}
