//! capturefast-py: the Python extension module `capturefast._core`.
//!
//! Conversion, GIL release and exceptions only; every rule lives in `capturefast-core`.

// `#[pymethods]` receive `&self` whatever the size of the wrapped value.
#![allow(clippy::trivially_copy_pass_by_ref)]

mod batch;
mod bot;
mod card;
mod convert;
mod errors;
mod learn;
mod moves;
mod opening;
mod rules;
mod solve;
mod solver;
mod state;
mod until;
mod view;

use pyo3::prelude::*;

/// Runs `f` with the GIL released: the one way long core calls are made from Python.
///
/// Per-step calls (`legal_moves`, `play`) do not use it: they take well under a microsecond,
/// and releasing and re-taking the GIL would cost more than the call.
pub(crate) fn detached<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> T {
    py.detach(f)
}

/// The thread the module was imported on, when that is Python's main thread: the one thread a
/// Ctrl-C (`KeyboardInterrupt`) is raised in.
static MAIN_THREAD: std::sync::OnceLock<std::thread::ThreadId> = std::sync::OnceLock::new();

/// Whether this is Python's main thread (as far as the import saw it).
pub(crate) fn on_main_thread() -> bool {
    MAIN_THREAD.get() == Some(&std::thread::current().id())
}

/// The compiled core of capturefast.
#[pymodule(gil_used = false)]
mod _core {
    #[pymodule_export]
    use crate::batch::{bot_names, random_hands, sim_seeds, simulate_arrays};
    #[pymodule_export]
    use crate::bot::PyBot;
    #[pymodule_export]
    use crate::card::PyCard;
    #[pymodule_export]
    use crate::learn::{
        PyActionState, PyVecEnv, action_name, actions_of, num_actions, observation_fields,
    };
    #[pymodule_export]
    use crate::moves::PyMove;
    #[pymodule_export]
    use crate::opening::PyOpening;
    #[pymodule_export]
    use crate::rules::{PyRules, game_facts, presets, prime_award, prime_cascade};
    #[pymodule_export]
    use crate::solve::{PySolution, analyze_many_raw, analyze_raw, solve, solve_values};
    #[pymodule_export]
    use crate::solver::{PySolver, PyStopFlag};
    #[pymodule_export]
    use crate::state::PyState;
    #[pymodule_export]
    use crate::view::PyView;

    #[pymodule_init]
    fn init(m: &pyo3::Bound<'_, pyo3::types::PyModule>) -> pyo3::PyResult<()> {
        use pyo3::types::{PyAnyMethods, PyModuleMethods};
        let threading = m.py().import("threading")?;
        let main = threading.call_method0("main_thread")?;
        if threading.call_method0("current_thread")?.is(&main) {
            let _ = crate::MAIN_THREAD.set(std::thread::current().id());
        }
        m.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}
