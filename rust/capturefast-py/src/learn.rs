//! The learning interfaces for Python: `VecEnv` (the core's vector environment writing into
//! numpy arrays it owns, stepped without the GIL) and `ActionState` (one state with a move
//! being built action by action, for framework adapters that clone states).

use std::sync::{Mutex, PoisonError};

use capturefast_core::learn::actions::{self, Decision, NUM_ACTIONS};
use capturefast_core::learn::env::{EnvConfig, Outputs, Reward, VecEnv};
use capturefast_core::learn::obs::ObsLayout;
use capturefast_core::{BotKind, Error as CoreError, MoveKind, State};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::card::PyCard;
use crate::convert;
use crate::detached;
use crate::errors::{ArgumentError, py as core};
use crate::moves::PyMove;
use crate::rules::PyRules;
use crate::state::PyState;

/// The number of action ids.
#[pyfunction]
pub fn num_actions() -> usize {
    NUM_ACTIONS
}

/// The name of action `action`: `play 7D`, `take 3C`, `finish`, `keep`, `table`, `claim`.
#[pyfunction]
pub fn action_name(#[pyo3(from_py_with = convert::arg::action)] action: usize) -> PyResult<String> {
    core(actions::action_name(action))
}

/// The actions that play `move` from the start of the decision of `state` (the move must be
/// legal there).
#[pyfunction]
pub fn actions_of(
    state: &PyState,
    #[pyo3(from_py_with = convert::mv)] mv: capturefast_core::Move,
) -> PyResult<Vec<usize>> {
    let mut legal = Vec::new();
    state.state.legal_moves(&state.rules.0, &mut legal);
    if !legal.contains(&mv) {
        return Err(convert::illegal(format!("not a legal move here: {mv}")));
    }
    Ok(actions::actions_of(&legal, mv))
}

/// The observation fields of `rules` as `(name, offset, length)`; with `full_information`,
/// those of the full-information encoding.
#[pyfunction]
#[pyo3(signature = (rules, full_information = false))]
pub fn observation_fields(
    rules: &PyRules,
    full_information: bool,
) -> Vec<(&'static str, usize, usize)> {
    fields(&layout_of(rules, full_information))
}

fn layout_of(rules: &PyRules, full: bool) -> ObsLayout {
    if full {
        ObsLayout::full(&rules.0)
    } else {
        ObsLayout::seat(&rules.0)
    }
}

fn fields(layout: &ObsLayout) -> Vec<(&'static str, usize, usize)> {
    layout
        .fields()
        .iter()
        .map(|f| (f.name, f.offset, f.len))
        .collect()
}

/// What `VecEnv.step_one` returns: observation, mask, reward, terminated, truncated.
type OneStep<'py> = (
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    f32,
    bool,
    bool,
);

/// The output arrays of a vector env, owned by it and rewritten by every step.
struct Arrays {
    obs: Py<PyArray2<f32>>,
    final_obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<bool>>,
    reward: Py<PyArray1<f32>>,
    side_rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    seat: Py<PyArray1<i64>>,
}

/// `N` games stepped in one call without the GIL, on a thread pool: see `docs/learning.md`.
#[pyclass(frozen, module = "capturefast", name = "VecEnv")]
pub struct PyVecEnv {
    env: Mutex<VecEnv>,
    rules: PyRules,
    arrays: Arrays,
}

/// The seats of an env: `None` for a learner, a bot name otherwise.
fn seat_players(seats: &Bound<'_, PyAny>, n: u8) -> PyResult<Vec<Option<BotKind>>> {
    let list: Vec<Option<String>> = seats.extract().map_err(|_| {
        ArgumentError::new_err(format!(
            "seats expects a list of {n} bot names or None (a learner seat), got: {seats}"
        ))
    })?;
    if list.len() != usize::from(n) {
        return Err(ArgumentError::new_err(format!(
            "seats expects one entry per seat ({n}), got: {}",
            list.len()
        )));
    }
    list.into_iter()
        .map(|name| name.map(|s| core(BotKind::from_name(&s))).transpose())
        .collect()
}

impl PyVecEnv {
    /// Runs `f` on the env and the output slices, without the GIL.
    fn with_outputs(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut VecEnv, &mut Outputs<'_>) -> Result<(), CoreError> + Send,
    ) -> PyResult<()> {
        let a = &self.arrays;
        let (mut obs, mut mask) = (a.obs.bind(py).readwrite(), a.mask.bind(py).readwrite());
        let (mut reward, mut side) = (
            a.reward.bind(py).readwrite(),
            a.side_rewards.bind(py).readwrite(),
        );
        let (mut term, mut trunc) = (
            a.terminated.bind(py).readwrite(),
            a.truncated.bind(py).readwrite(),
        );
        let mut seat = a.seat.bind(py).readwrite();
        let mut last = a.final_obs.bind(py).readwrite();
        let contiguous = |_| ArgumentError::new_err("the env's output arrays must stay contiguous");
        let mut out = Outputs {
            obs: obs.as_slice_mut().map_err(contiguous)?,
            final_obs: last.as_slice_mut().map_err(contiguous)?,
            mask: mask.as_slice_mut().map_err(contiguous)?,
            reward: reward.as_slice_mut().map_err(contiguous)?,
            side_rewards: side.as_slice_mut().map_err(contiguous)?,
            terminated: term.as_slice_mut().map_err(contiguous)?,
            truncated: trunc.as_slice_mut().map_err(contiguous)?,
            seat: seat.as_slice_mut().map_err(contiguous)?,
        };
        let env = &self.env;
        core(detached(py, move || {
            let mut env = env.lock().unwrap_or_else(PoisonError::into_inner);
            f(&mut env, &mut out)
        }))
    }

    fn outputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let a = &self.arrays;
        PyTuple::new(
            py,
            [
                a.obs.bind(py).as_any(),
                a.mask.bind(py).as_any(),
                a.reward.bind(py).as_any(),
                a.terminated.bind(py).as_any(),
                a.truncated.bind(py).as_any(),
                a.seat.bind(py).as_any(),
            ],
        )
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecEnv> {
        self.env.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The actions of a step: an int64 array (or a list of ints) of shape `(num_envs,)`.
fn action_array(actions: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    if let Ok(a) = actions.extract::<PyReadonlyArray1<'_, i64>>() {
        return Ok(a.as_array().to_vec());
    }
    if let Ok(list) = actions.extract::<Vec<i64>>()
        && !actions.hasattr("dtype")?
    {
        return Ok(list);
    }
    let dtype = actions.getattr("dtype").map_or_else(
        |_| {
            actions
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        },
        |d| d.to_string(),
    );
    let shape = actions
        .getattr("shape")
        .map_or_else(|_| String::new(), |s| format!(" of shape {s}"));
    Err(ArgumentError::new_err(format!(
        "the env's actions must be an int64 array of shape (num_envs,), got: {dtype}{shape}"
    )))
}

#[pymethods]
impl PyVecEnv {
    /// `num_envs` games of `rules`. `seats` gives each seat's player: `None` for a learner
    /// seat, or a built-in bot's name (default: a learner in seat 0, `random` elsewhere).
    /// `reward` is `hand` (each hand is an episode, rewarded with its point difference) or
    /// `match`; `max_steps` (0: none) truncates an episode; `full_information` writes the
    /// full-information encoding; `threads` 0 uses every core.
    #[new]
    #[pyo3(signature = (rules, num_envs, seats = None, reward = "hand", seed = 0, max_steps = 0,
        full_information = false, threads = 0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules: &PyRules,
        #[pyo3(from_py_with = convert::arg::num_envs)] num_envs: usize,
        seats: Option<&Bound<'_, PyAny>>,
        reward: &str,
        #[pyo3(from_py_with = convert::arg::seed)] seed: u64,
        #[pyo3(from_py_with = convert::arg::max_steps)] max_steps: u32,
        full_information: bool,
        #[pyo3(from_py_with = convert::arg::env_threads)] threads: usize,
    ) -> PyResult<PyVecEnv> {
        let n = rules.0.num_players();
        let seats = match seats {
            Some(s) => seat_players(s, n)?,
            None => (0..n).map(|s| (s > 0).then_some(BotKind::Random)).collect(),
        };
        let config = EnvConfig {
            num_envs,
            seats,
            reward: py_reward(reward)?,
            max_steps,
            full_information,
            threads,
        };
        let r = rules.0.clone();
        let env = core(detached(py, move || VecEnv::new(&r, config, seed)))?;
        let (d, sides) = (env.layout().len(), env.layout().num_sides());
        let arrays = Arrays {
            obs: PyArray2::zeros(py, [num_envs, d], false).unbind(),
            final_obs: PyArray2::zeros(py, [num_envs, d], false).unbind(),
            mask: PyArray2::zeros(py, [num_envs, NUM_ACTIONS], false).unbind(),
            reward: PyArray1::zeros(py, num_envs, false).unbind(),
            side_rewards: PyArray2::zeros(py, [num_envs, sides], false).unbind(),
            terminated: PyArray1::zeros(py, num_envs, false).unbind(),
            truncated: PyArray1::zeros(py, num_envs, false).unbind(),
            seat: PyArray1::zeros(py, num_envs, false).unbind(),
        };
        let env = PyVecEnv {
            env: Mutex::new(env),
            rules: rules.clone(),
            arrays,
        };
        env.with_outputs(py, move |e, out| e.reset(Some(seed), out))?;
        Ok(env)
    }

    /// Resets every game: from `seed` (episode 0 of each), or each game's next episode.
    /// Returns `(obs, mask, reward, terminated, truncated, seat)`, the env's own arrays.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let seed = seed.map(convert::arg::seed).transpose()?;
        self.with_outputs(py, move |e, out| e.reset(seed, out))?;
        self.outputs(py)
    }

    /// Takes one action per game (an int64 array of shape `(num_envs,)`) and returns
    /// `(obs, mask, reward, terminated, truncated, seat)`, the env's own arrays, rewritten by
    /// the next call. A bad action raises `IllegalMoveError` (or `ArgumentError` for the
    /// batch's type or shape) and moves no game.
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let actions = action_array(actions)?;
        self.with_outputs(py, move |e, out| e.step(&actions, out))?;
        self.outputs(py)
    }

    /// Steps game `game` alone with `action` (the GIL held: a step of one game takes about a
    /// microsecond) and returns new arrays `(obs, mask, reward, terminated, truncated)`: the
    /// observation is the episode's last (the hand over) when it ends, otherwise the next
    /// decision's. The env's own arrays are not updated. For single-game adapters.
    fn step_one<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = convert::arg::game)] game: u64,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<OneStep<'py>> {
        let action: i64 = action.extract().map_err(|_| {
            ArgumentError::new_err(format!("an action is an int id, got: {action}"))
        })?;
        let mut env = self.lock();
        let (d, sides) = (env.layout().len(), env.layout().num_sides());
        let (mut obs, mut last) = (vec![0.0f32; d], vec![0.0f32; d]);
        let mut mask = vec![false; NUM_ACTIONS];
        let (mut reward, mut side) = ([0.0f32], vec![0.0f32; sides]);
        let (mut term, mut trunc, mut seat) = ([false], [false], [0i64]);
        let i = usize::try_from(game).unwrap_or(usize::MAX);
        core(env.step_game(
            i,
            action,
            &mut Outputs {
                obs: &mut obs,
                final_obs: &mut last,
                mask: &mut mask,
                reward: &mut reward,
                side_rewards: &mut side,
                terminated: &mut term,
                truncated: &mut trunc,
                seat: &mut seat,
            },
        ))?;
        let shown = if term[0] || trunc[0] { last } else { obs };
        Ok((
            PyArray1::from_vec(py, shown),
            PyArray1::from_vec(py, mask),
            reward[0],
            term[0],
            trunc[0],
        ))
    }

    /// The arrays of the last reset or step, `(obs, mask, reward, terminated, truncated,
    /// seat)`, without stepping: every game's current decision.
    fn current<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.outputs(py)
    }

    /// The observation of `seat` in game `game` (float32, `obs_size` long).
    fn observe<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = convert::arg::game)] game: u64,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let env = self.lock();
        let seat = convert::seat(seat, self.rules.0.num_players(), "seat")?;
        let mut out = vec![0.0; env.layout().len()];
        core(env.observe(usize::try_from(game).unwrap_or(usize::MAX), seat, &mut out))?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// The state of game `game` (at the decision of the seat to act).
    fn state(&self, #[pyo3(from_py_with = convert::arg::game)] game: u64) -> PyResult<PyState> {
        let env = self.lock();
        let i = usize::try_from(game)
            .ok()
            .filter(|&i| i < env.num_envs())
            .ok_or_else(|| {
                ArgumentError::new_err(format!(
                    "the env has {} games, no game: {game}",
                    env.num_envs()
                ))
            })?;
        Ok(PyState {
            rules: self.rules.clone(),
            state: *env.state(i),
        })
    }

    /// For each game whose episode ended in the last step, the observation of the seat that
    /// acted, at the end of it (float32 `(num_envs, obs_size)`; other rows are stale).
    #[getter]
    fn final_obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.arrays.final_obs.bind(py).clone()
    }

    /// Each side's reward in the last step, float32 `(num_envs, num_sides)`.
    #[getter]
    fn side_rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.arrays.side_rewards.bind(py).clone()
    }

    /// The rules.
    #[getter]
    fn rules(&self) -> PyRules {
        self.rules.clone()
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.lock().num_envs()
    }

    /// The number of action ids.
    #[classattr]
    fn num_actions() -> usize {
        NUM_ACTIONS
    }

    /// The observation length.
    #[getter]
    fn obs_size(&self) -> usize {
        self.lock().layout().len()
    }

    /// The number of seats.
    #[getter]
    fn num_seats(&self) -> usize {
        self.lock().layout().num_seats()
    }

    /// The number of sides.
    #[getter]
    fn num_sides(&self) -> usize {
        self.lock().layout().num_sides()
    }

    /// The side of each seat.
    #[getter]
    fn sides(&self) -> Vec<usize> {
        self.lock().layout().sides().to_vec()
    }

    /// Each seat's player: `None` for a learner seat, else the bot's name.
    #[getter]
    fn seats(&self) -> Vec<Option<&'static str>> {
        self.lock()
            .config()
            .seats
            .iter()
            .map(|k| k.map(BotKind::name))
            .collect()
    }

    /// The observation fields as `(name, offset, length)`.
    fn observation_fields(&self) -> Vec<(&'static str, usize, usize)> {
        fields(self.lock().layout())
    }
}

fn py_reward(name: &str) -> PyResult<Reward> {
    core(Reward::from_name(name))
}

/// What an `ActionState` pickles as: its state and the actions of the move being built.
type Replay = (PyState, Vec<usize>);

/// A state with a move being built action by action: the action space of `VecEnv` for one
/// game, immutable (`apply` returns a new one), for adapters that clone states.
#[pyclass(frozen, module = "capturefast._core", name = "ActionState")]
#[derive(Clone)]
pub struct PyActionState {
    rules: PyRules,
    state: State,
    decision: Decision,
}

#[pymethods]
impl PyActionState {
    /// The decision of `state`, no action taken yet.
    #[new]
    fn new(state: &PyState) -> PyActionState {
        let mut decision = Decision::new();
        decision.reset(&state.rules.0, &state.state);
        PyActionState {
            rules: state.rules.clone(),
            state: state.state,
            decision,
        }
    }

    /// The state (it advances when an action completes a move).
    #[getter]
    fn state(&self) -> PyState {
        PyState {
            rules: self.rules.clone(),
            state: self.state,
        }
    }

    /// The legal action ids, sorted (empty once the hand is over).
    fn legal_actions(&self) -> Vec<usize> {
        self.decision.legal_actions()
    }

    /// The legal-action mask, bool `(num_actions,)`.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; NUM_ACTIONS];
        self.decision.write_mask(&mut mask);
        PyArray1::from_vec(py, mask)
    }

    /// Takes `action`: a new `ActionState`, and the move it completed (or `None`). An
    /// illegal action raises `IllegalMoveError`.
    fn apply(
        &self,
        #[pyo3(from_py_with = convert::arg::action)] action: usize,
    ) -> PyResult<(PyActionState, Option<PyMove>)> {
        let mut next = self.clone();
        let done = core(next.decision.step(action))?;
        let mv = done.map(|mv| {
            let sweep = next.state.is_sweep(&self.rules.0, mv);
            next.state.apply_unchecked(&self.rules.0, mv);
            next.decision.reset(&self.rules.0, &next.state);
            PyMove { mv, sweep }
        });
        Ok((next, mv))
    }

    /// The move being built: `(kind, card, taken)` with kind `play` or `claim`, or `None`.
    fn building(&self) -> Option<(&'static str, PyCard, Vec<PyCard>)> {
        self.decision.building().map(|(k, c, taken)| {
            let kind = if k == MoveKind::Claim {
                "claim"
            } else {
                "play"
            };
            (kind, PyCard(c), taken.iter().map(PyCard).collect())
        })
    }

    /// The observation of `seat` (float32), or with `full_information` the full-information
    /// encoding from its point of view.
    #[pyo3(signature = (seat, full_information = false))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
        full_information: bool,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = convert::seat(seat, self.state.num_players(), "seat")?;
        let layout = layout_of(&self.rules, full_information);
        let mut out = vec![0.0; layout.len()];
        layout.write(
            &self.rules.0,
            &self.state,
            seat,
            Some(&self.decision),
            &mut out,
        );
        Ok(PyArray1::from_vec(py, out))
    }

    /// Each side's point difference for the hand once it is over (`HandScore.margin`), else
    /// `None`.
    fn hand_margins(&self) -> Option<Vec<i32>> {
        let layout = ObsLayout::seat(&self.rules.0);
        (0..layout.num_sides())
            .map(|side| self.state.hand_margin(&self.rules.0, side))
            .collect()
    }

    /// The side of each seat.
    #[getter]
    fn sides(&self) -> Vec<usize> {
        ObsLayout::seat(&self.rules.0).sides().to_vec()
    }

    /// The `ActionState` of `state` after `actions` (the ids of a move being built, as
    /// `apply` takes them); an action that is illegal there, or one that completes a move,
    /// raises `IllegalMoveError`.
    #[staticmethod]
    fn from_actions(state: &PyState, actions: Vec<Bound<'_, PyAny>>) -> PyResult<PyActionState> {
        let mut me = PyActionState::new(state);
        for action in actions {
            let action = convert::arg::action(&action)?;
            if core(me.decision.step(action))?.is_some() {
                return Err(convert::illegal(format!(
                    "action {action} ({}) completes a move: give only the actions of one \
                     still being built",
                    core(actions::action_name(action))?
                )));
            }
        }
        Ok(me)
    }

    /// Pickles as its state and the actions of the move being built.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Replay)> {
        let me = slf.get();
        let f = slf.get_type().getattr("from_actions")?;
        Ok((f, (me.state(), me.decision.steps())))
    }

    /// Itself: an `ActionState` is immutable (for `copy.deepcopy`, which `OpenSpiel`'s Python
    /// games clone states with).
    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }

    /// Itself: an `ActionState` is immutable.
    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __repr__(&self) -> String {
        match self.decision.building() {
            Some((_, c, taken)) => format!("ActionState(building {c} x {taken})"),
            None => "ActionState()".to_string(),
        }
    }
}
