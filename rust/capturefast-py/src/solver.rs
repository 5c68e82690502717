//! `Solver`: an exact solver a user keeps, so that its transposition table is set up once and
//! reused across queries (the module functions `solve` and `analyze` keep one per thread).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use capturefast_core::{Error as CoreError, Interrupt, Rules, Solver, State};
use pyo3::prelude::*;

use crate::convert;
use crate::detached;
use crate::errors::py as check;
use crate::solve::{
    Analysis, DEFAULT_TT, History, PySolution, analyze_with, check_open, solve_until,
};
use crate::state::PyState;
use crate::until::Until;

/// An exact solver with a transposition table kept between queries.
///
/// The table grows to what the searches need, up to `tt_entries` entries of 16 bytes, and is
/// never cleared entry by entry: its entries stay exact from one query to the next, and
/// `clear()` empties it in constant time. One solver serves one query at a time; a query from
/// another thread waits for the one running (with the GIL released).
#[pyclass(frozen, module = "capturefast", name = "Solver")]
pub struct PySolver {
    inner: Mutex<Solver>,
    /// The [`THREAD_TOKEN`] of the thread holding `inner` (0: none): a query asked of this
    /// solver by the thread already running one (a Python signal handler, which runs while a
    /// long query waits for Ctrl-C) is refused instead of waiting for itself.
    holder: AtomicU64,
}

static NEXT_TOKEN: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// A number for this thread, never 0.
    static THREAD_TOKEN: u64 = NEXT_TOKEN.fetch_add(1, Ordering::Relaxed);
}

/// A solver held by one thread; letting it go marks it free.
struct Held<'a> {
    guard: MutexGuard<'a, Solver>,
    holder: &'a AtomicU64,
}

impl std::ops::Deref for Held<'_> {
    type Target = Solver;
    fn deref(&self) -> &Solver {
        &self.guard
    }
}

impl std::ops::DerefMut for Held<'_> {
    fn deref_mut(&mut self) -> &mut Solver {
        &mut self.guard
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.holder.store(0, Ordering::Relaxed);
    }
}

impl PySolver {
    /// `run` on an open position with this solver, the GIL released.
    fn query<T: Send>(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyState>,
        until: &Until,
        run: impl Fn(&mut Solver, &Rules, &State, &Interrupt) -> Result<T, CoreError> + Send + Sync,
    ) -> PyResult<T> {
        let st = state.get();
        check_open(&st.state)?;
        let (rules, s) = (&st.rules.0, &st.state);
        check(detached(py, || {
            until.run(&mut *self.lock()?, |solver, at| run(solver, rules, s, at))
        })?)
    }

    /// The solver, once another thread's query is done with it; a `RuntimeError` if this
    /// thread holds it already.
    fn lock(&self) -> PyResult<Held<'_>> {
        let me = THREAD_TOKEN.with(|t| *t);
        if self.holder.load(Ordering::Relaxed) == me {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "this Solver is answering a query on this thread already (a signal handler's \
                 query during a long one?): use another Solver",
            ));
        }
        // A query that panicked cannot have left an entry half written that a probe would
        // trust (entries are written whole), so a poisoned lock is still usable.
        let guard = self
            .inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        self.holder.store(me, Ordering::Relaxed);
        Ok(Held {
            guard,
            holder: &self.holder,
        })
    }
}

#[pymethods]
impl PySolver {
    #[new]
    #[pyo3(signature = (tt_entries = DEFAULT_TT))]
    fn new(#[pyo3(from_py_with = convert::arg::tt_entries)] tt_entries: usize) -> PySolver {
        PySolver {
            inner: Mutex::new(Solver::new(tt_entries)),
            holder: AtomicU64::new(0),
        }
    }

    /// The exact value of an open position and of each legal move; a `StoppedError` once
    /// `time_ms` milliseconds have passed, `stop` is set or `nodes` nodes have been searched.
    #[pyo3(signature = (state, *, time_ms = None, stop = None, nodes = None))]
    fn solve(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyState>,
        #[pyo3(from_py_with = convert::arg::time_ms)] time_ms: Option<u64>,
        #[pyo3(from_py_with = crate::solver::stop_arg)] stop: Option<Arc<AtomicBool>>,
        #[pyo3(from_py_with = convert::arg::nodes)] nodes: Option<u64>,
    ) -> PyResult<PySolution> {
        self.query(py, state, &Until::new(time_ms, stop, nodes), solve_until)
    }

    /// The exact value of an open position for the side to move, without every move's value;
    /// a `StoppedError` once `time_ms` milliseconds have passed, `stop` is set or `nodes`
    /// nodes have been searched.
    #[pyo3(signature = (state, *, time_ms = None, stop = None, nodes = None))]
    fn value(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyState>,
        #[pyo3(from_py_with = convert::arg::time_ms)] time_ms: Option<u64>,
        #[pyo3(from_py_with = crate::solver::stop_arg)] stop: Option<Arc<AtomicBool>>,
        #[pyo3(from_py_with = convert::arg::nodes)] nodes: Option<u64>,
    ) -> PyResult<i32> {
        let until = Until::new(time_ms, stop, nodes);
        self.query(py, state, &until, |solver, rules, s, at| {
            solver.until(at.clone(), |solver| solver.value(rules, s))
        })
    }

    /// `analyze_raw` with this solver.
    #[pyo3(signature = (state, seat, worlds = 100, seed = 0, horizon = "round", history = None,
        time_ms = None, stop = None, nodes = None))]
    #[allow(clippy::needless_pass_by_value)] // PyO3 extracts a list argument into an owned Vec
    #[allow(clippy::too_many_arguments)] // the Python signature: one argument per setting
    fn analyze_raw(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyState>,
        #[pyo3(from_py_with = convert::arg::seat)] seat: i64,
        #[pyo3(from_py_with = convert::arg::worlds)] worlds: u32,
        #[pyo3(from_py_with = convert::arg::seed)] seed: u64,
        horizon: &str,
        #[pyo3(from_py_with = crate::solve::history_arg)] history: Option<Vec<History<'_, '_>>>,
        #[pyo3(from_py_with = convert::arg::time_ms)] time_ms: Option<u64>,
        #[pyo3(from_py_with = crate::solver::stop_arg)] stop: Option<Arc<AtomicBool>>,
        #[pyo3(from_py_with = convert::arg::nodes)] nodes: Option<u64>,
    ) -> PyResult<Analysis> {
        let how = (worlds, seed, horizon);
        analyze_with(
            py,
            state,
            seat,
            how,
            history.as_deref(),
            &Until::new(time_ms, stop, nodes),
            |run| run(&mut *self.lock()?),
        )
    }

    /// Empties the table, in constant time.
    fn clear(&self, py: Python<'_>) -> PyResult<()> {
        detached(py, || self.lock().map(|mut s| s.clear()))
    }

    /// The most entries the table may grow to.
    #[getter]
    fn tt_entries(&self, py: Python<'_>) -> PyResult<usize> {
        detached(py, || self.lock().map(|s| s.tt_entries()))
    }

    /// Entries allocated so far (16 bytes each).
    #[getter]
    fn tt_allocated(&self, py: Python<'_>) -> PyResult<usize> {
        detached(py, || self.lock().map(|s| s.tt_allocated()))
    }

    /// Search nodes visited by this solver's queries.
    #[getter]
    fn nodes(&self, py: Python<'_>) -> PyResult<u64> {
        detached(py, || self.lock().map(|s| s.nodes()))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let (cap, used) = detached(py, || {
            self.lock().map(|s| (s.tt_entries(), s.tt_allocated()))
        })?;
        Ok(format!("Solver(tt_entries={cap}, allocated={used})"))
    }
}

/// A flag that stops the searches given it, set from any thread: `Solver.analyze`,
/// `Solver.solve` and `capturefast.analyze` take it as `stop`, and look at it every thousand
/// nodes or so with the GIL released. Like `threading.Event`: it stays set until cleared.
#[pyclass(frozen, module = "capturefast", name = "StopFlag")]
pub struct PyStopFlag {
    flag: Arc<AtomicBool>,
}

/// The `stop` argument of a query: `None`, or a `StopFlag`'s shared flag; anything else is a
/// `TypeError` naming the argument.
pub(crate) fn stop_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<Arc<AtomicBool>>> {
    if obj.is_none() {
        return Ok(None);
    }
    let flag = obj.cast::<PyStopFlag>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "stop must be a capturefast.StopFlag or None, got: {}",
            convert::type_name(obj)
        ))
    })?;
    Ok(Some(Arc::clone(&flag.get().flag)))
}

#[pymethods]
impl PyStopFlag {
    #[new]
    fn new() -> PyStopFlag {
        PyStopFlag {
            flag: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Stops the searches given this flag, now and until it is cleared.
    fn set(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Lets searches given this flag run again.
    fn clear(&self) {
        self.flag.store(false, Ordering::Relaxed);
    }

    /// Whether it is set.
    fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    fn __repr__(&self) -> String {
        format!(
            "StopFlag(set={})",
            if self.is_set() { "True" } else { "False" }
        )
    }
}
