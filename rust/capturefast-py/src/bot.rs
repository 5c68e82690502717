//! `Bot` for Python: one decision of a built-in bot in a position given as a `View`, a `State`
//! (the view of its seat to move) or a line of the position notation.

use capturefast_core::play::query;
use capturefast_core::play::sim::Player;
use capturefast_core::{BotKind, Interrupt, Move, Rules, State, View};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::convert;
use crate::detached;
use crate::errors::{IllegalMoveError, py};
use crate::moves::PyMove;
use crate::rules::PyRules;
use crate::solve::History;
use crate::state::PyState;
use crate::until::Until;
use crate::view::PyView;

/// A built-in bot by name, as `simulate` names it (`expert`, `pimc:worlds=400`,
/// `ismcts:iterations=1000,ms=50`), drawing its random choices from `seed`.
#[pyclass(frozen, module = "capturefast", name = "Bot")]
pub struct PyBot {
    name: String,
    seed: u64,
    /// The time limit of each decision (`ms` in its budget), in milliseconds.
    time_ms: Option<u64>,
    /// Whether it is a fast bot ([`BotKind::is_fast`]), whose decisions take microseconds
    /// and cannot be stopped.
    fast: bool,
}

/// The view a position names: a `View`, the seat to move's view of a `State`, or either read
/// from the notation.
pub(crate) fn view_of(position: &Bound<'_, PyAny>) -> PyResult<(PyRules, View)> {
    if let Ok(v) = position.cast::<PyView>() {
        let v = v.get();
        return Ok((v.rules.clone(), v.view));
    }
    let state = if let Ok(s) = position.cast::<PyState>() {
        s.get().clone()
    } else if let Ok(text) = position.cast::<PyString>() {
        let text = text.to_str()?;
        if text
            .split_ascii_whitespace()
            .any(|t| t.starts_with("seat="))
        {
            let (rules, view) = py(View::from_notation(text))?;
            return Ok((PyRules(std::sync::Arc::new(rules)), view));
        }
        let (rules, state) = py(State::from_notation(text))?;
        PyState {
            rules: PyRules(std::sync::Arc::new(rules)),
            state,
        }
    } else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "a position is a View, a State or a line of the position notation, got: {}",
            position.get_type().name()?
        )));
    };
    let Some(seat) = state.state.to_move() else {
        return Err(IllegalMoveError::new_err(
            "the hand is over: no seat is to move",
        ));
    };
    Ok((state.rules.clone(), state.state.view(seat)))
}

/// The moves of `history` (each the `State` before it and the move) as seat `seat` saw them:
/// its view before the move, the mover and the move, checked to be legal where they come.
/// Whether they lead to the position is the core's check ([`query::check_history`]), which
/// `query::choose_after` and `analyze_with` make.
pub(crate) fn told(
    history: Option<&[History<'_, '_>]>,
    rules: &Rules,
    seat: u8,
) -> PyResult<Vec<(View, u8, Move)>> {
    let mut told = Vec::new();
    for (i, (state, mv)) in history.iter().copied().flatten().enumerate() {
        let (s, mv) = (&state.state, convert::mv(mv)?);
        if state.rules.0.options() != rules.options() {
            return Err(IllegalMoveError::new_err(format!(
                "history[{i}]: its state is of other rules than the position"
            )));
        }
        let Some(mover) = s.to_move().filter(|_| s.is_legal(rules, mv)) else {
            return Err(IllegalMoveError::new_err(format!(
                "history[{i}]: {mv} is not a legal move of its state"
            )));
        };
        told.push((s.view(seat), mover, mv));
    }
    Ok(told)
}

#[pymethods]
impl PyBot {
    /// The bot `name` (checked now: an unknown bot or budget is a `VariantError`).
    #[new]
    #[pyo3(signature = (name, seed = 0))]
    #[allow(clippy::needless_pass_by_value)] // `from_py_with` extracts an owned String
    fn new(
        #[pyo3(from_py_with = convert::arg::name)] name: String,
        #[pyo3(from_py_with = convert::arg::seed)] seed: u64,
    ) -> PyResult<PyBot> {
        let player = py(Player::parse(&name))?;
        Ok(PyBot {
            name: player.name().to_string(),
            seed,
            time_ms: player
                .time_limit()
                .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
            fast: player.kind().is_some_and(BotKind::is_fast),
        })
    }

    /// The bot's name with its budget.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The seed of its random choices.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The move this bot plays in `position`: a `View` (of the seat to move), a `State` (its
    /// seat to move's view; nothing hidden is read) or a line of the position notation. A fresh
    /// bot decides each time, so one position and seed give one move (a time limit aside).
    /// `history`: the moves played before, each as the `State` before it and the move (a `Move`
    /// or its notation); the bot is told of each as its seat saw it (`pimc:infer=expert` reads
    /// the current round's, the other bots none); moves that cannot have led to `position` (of
    /// another deal or hand, out of order, or told from `position` itself) are a
    /// `PositionError`. `stop`: a `StopFlag` whose setting (from another thread) ends a search
    /// bot's decision with the best move of what it has searched. Runs without the GIL; on
    /// Python's main thread Ctrl-C stops a long decision (`KeyboardInterrupt`, [`Until`]).
    #[pyo3(signature = (position, history = None, *, stop = None))]
    #[allow(clippy::needless_pass_by_value)] // PyO3 extracts a list argument into an owned Vec
    fn choose(
        &self,
        py_: Python<'_>,
        position: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = crate::solve::history_arg)] history: Option<Vec<History<'_, '_>>>,
        #[pyo3(from_py_with = crate::solver::stop_arg)] stop: Option<
            std::sync::Arc<std::sync::atomic::AtomicBool>,
        >,
    ) -> PyResult<PyMove> {
        let (rules, view) = view_of(position)?;
        let (name, seed) = (self.name.as_str(), self.seed);
        let r = &rules.0;
        let told = told(history.as_deref(), r, view.seat)?;
        let choose = |at: &Interrupt| query::choose_after(r, name, seed, &view, &told, at);
        let choice = if self.fast {
            // Microseconds, and nothing to stop: no watch.
            detached(py_, || choose(&Interrupt::default()))
        } else {
            let until = Until::new(self.time_ms, stop, None);
            detached(py_, || until.run_free(choose))?
        };
        let mv = py(choice)?.mv;
        let sweep = py(view.legal_moves(r))?
            .into_iter()
            .any(|(m, sweep)| m == mv && sweep);
        Ok(PyMove { mv, sweep })
    }

    fn __repr__(&self) -> String {
        format!("Bot({:?}, seed={})", self.name, self.seed)
    }
}
