//! The vector environment: `N` games stepped in one call on a thread pool, each at a decision
//! of a learner seat, with built-in bots playing every other seat inside Rust.
//!
//! - **Steps.** One call takes one action per game (the [`actions`](crate::learn::actions)
//!   space) for the seat to act. An action that completes a move plays it; then the bots play
//!   until a learner seat is to act again or the episode ends.
//! - **Episodes.** [`Reward::Hand`]: an episode is one hand, and the step that ends it rewards
//!   each side with its point difference for the hand ([`HandScore::margin`](crate::HandScore::margin)).
//!   [`Reward::Match`]: an episode is a match (the next hands are dealt inside), rewarded +1
//!   for the winning side and -1 for the others at its end. Every other step rewards 0.
//!   `max_steps` (0: none) truncates an episode after that many steps of its game.
//! - **Auto-reset.** A game whose episode ends in a step starts its next episode in the same
//!   step: the observation, mask and seat written are the new episode's first decision
//!   (`terminated` / `truncated` tell that the reward closed the old one).
//! - **Seeds.** Game `i` deals episode `k` from `Rng::derive(Rng::derive(seed, i), k)`, and
//!   its bots draw from seeds derived from that deal as in batch simulation, so every result
//!   is independent of the number of threads.
//! - **Bad input.** [`VecEnv::step`] checks every action before it changes any game: a wrong
//!   number of actions, an id outside the space or an action not in a game's mask is an
//!   [`Error`] naming the game and the action, and no game moves.
//!
//! Outputs go into caller-owned buffers ([`Outputs`]), row `i` for game `i`: nothing is
//! allocated per step.

use crate::error::Error;
use crate::game::action::Move;
use crate::game::rng::Rng;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::game::view::LazyView;
use crate::learn::actions::{Decision, NUM_ACTIONS, action_name};
use crate::learn::obs::ObsLayout;
use crate::parallel::{StepPool, resolve_threads};
use crate::play::bot::Bot;
use crate::play::bots::{BotKind, SeatBot};
use crate::play::sim::{self, bot_seed, deal_seed};

/// What a step rewards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// An episode is a hand; its last step rewards each side's point difference.
    Hand,
    /// An episode is a match; its last step rewards +1 to the winner, -1 to the others.
    Match,
}

impl Reward {
    /// Parses `hand` or `match`.
    pub fn from_name(name: &str) -> Result<Reward, Error> {
        match name {
            "hand" => Ok(Reward::Hand),
            "match" => Ok(Reward::Match),
            _ => Err(Error::Argument(format!(
                "reward expects `hand` or `match`: {name}"
            ))),
        }
    }
}

/// How a vector environment is set up.
#[derive(Clone, Debug)]
pub struct EnvConfig {
    /// The number of games.
    pub num_envs: usize,
    /// Per seat: `None` for a learner seat, or the built-in bot that plays it.
    pub seats: Vec<Option<BotKind>>,
    /// What a step rewards.
    pub reward: Reward,
    /// Truncate an episode after this many steps (0: never).
    pub max_steps: u32,
    /// Whether observations are the full-information encoding (every hand, the stock).
    pub full_information: bool,
    /// Worker threads (0: one per core).
    pub threads: usize,
}

/// The output buffers of a step or a reset, row `i` for game `i` (`N` games, `D` the
/// observation length, `S` the number of sides).
pub struct Outputs<'a> {
    /// `N * D`: the observation of the seat to act.
    pub obs: &'a mut [f32],
    /// `N * D`: for a game whose episode ended in this step, the observation of the seat
    /// that acted at the end of it (the hand over); other rows are left as they were.
    pub final_obs: &'a mut [f32],
    /// `N * NUM_ACTIONS`: its legal-action mask.
    pub mask: &'a mut [bool],
    /// `N`: the reward of the side of the seat that acted.
    pub reward: &'a mut [f32],
    /// `N * S`: every side's reward.
    pub side_rewards: &'a mut [f32],
    /// `N`: the episode ended (hand or match over).
    pub terminated: &'a mut [bool],
    /// `N`: the episode was cut at `max_steps`.
    pub truncated: &'a mut [bool],
    /// `N`: the seat to act.
    pub seat: &'a mut [i64],
}

/// One game of the environment.
struct Slot {
    state: State,
    decision: Decision,
    bots: Vec<Option<SeatBot>>,
    /// The seed of this game (episode seeds derive from it).
    game_seed: u64,
    episode: u64,
    steps: u32,
}

/// `N` games stepped together; see the module documentation.
pub struct VecEnv {
    rules: Rules,
    config: EnvConfig,
    layout: ObsLayout,
    slots: Vec<Slot>,
    /// `None` with one thread: every call runs on the caller's thread alone.
    pool: Option<StepPool>,
}

/// The fewest games a task of the pool steps.
const MIN_CHUNK: usize = 16;

/// What [`VecEnv::run`] does to each game.
#[derive(Clone, Copy)]
enum Op {
    /// Episode 0 of every game from this seed.
    Reseed(u64),
    /// Every game's next episode.
    NextEpisode,
    /// One action per game.
    Step,
}

/// A run of consecutive games and their output rows.
struct Rows<'a> {
    /// The index of the first game.
    first: usize,
    slots: &'a mut [Slot],
    /// Empty unless stepping.
    actions: &'a [i64],
    obs: &'a mut [f32],
    final_obs: &'a mut [f32],
    mask: &'a mut [bool],
    reward: &'a mut [f32],
    side_rewards: &'a mut [f32],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
    seat: &'a mut [i64],
}

impl<'a> Rows<'a> {
    /// The rows of `slots`, the first of them game `first`, writing into the whole of `out`.
    fn over(
        first: usize,
        slots: &'a mut [Slot],
        actions: &'a [i64],
        out: &'a mut Outputs<'_>,
    ) -> Self {
        Rows {
            first,
            slots,
            actions,
            obs: &mut *out.obs,
            final_obs: &mut *out.final_obs,
            mask: &mut *out.mask,
            reward: &mut *out.reward,
            side_rewards: &mut *out.side_rewards,
            terminated: &mut *out.terminated,
            truncated: &mut *out.truncated,
            seat: &mut *out.seat,
        }
    }

    /// Cuts the rows into runs of `chunk` games.
    fn split(self, chunk: usize, layout: &ObsLayout) -> Vec<Rows<'a>> {
        let (d, sides) = (layout.len(), layout.num_sides());
        let mut parts = Vec::with_capacity(self.slots.len().div_ceil(chunk));
        let mut rest = self;
        while rest.slots.len() > chunk {
            let k = chunk;
            let (slots, slots_b) = rest.slots.split_at_mut(k);
            let (obs, obs_b) = rest.obs.split_at_mut(k * d);
            let (final_obs, final_b) = rest.final_obs.split_at_mut(k * d);
            let (mask, mask_b) = rest.mask.split_at_mut(k * NUM_ACTIONS);
            let (reward, reward_b) = rest.reward.split_at_mut(k);
            let (side_rewards, side_b) = rest.side_rewards.split_at_mut(k * sides);
            let (terminated, term_b) = rest.terminated.split_at_mut(k);
            let (truncated, trunc_b) = rest.truncated.split_at_mut(k);
            let (seat, seat_b) = rest.seat.split_at_mut(k);
            let (actions, actions_b) = rest.actions.split_at(k.min(rest.actions.len()));
            parts.push(Rows {
                first: rest.first,
                slots,
                actions,
                obs,
                final_obs,
                mask,
                reward,
                side_rewards,
                terminated,
                truncated,
                seat,
            });
            rest = Rows {
                first: rest.first + k,
                slots: slots_b,
                actions: actions_b,
                obs: obs_b,
                final_obs: final_b,
                mask: mask_b,
                reward: reward_b,
                side_rewards: side_b,
                terminated: term_b,
                truncated: trunc_b,
                seat: seat_b,
            };
        }
        parts.push(rest);
        parts
    }

    /// Applies `op` to each game of the run and writes its rows.
    fn apply(&mut self, op: Op, rules: &Rules, layout: &ObsLayout, config: &EnvConfig) {
        let (d, sides) = (layout.len(), layout.num_sides());
        for (k, slot) in self.slots.iter_mut().enumerate() {
            let rewards = &mut self.side_rewards[k * sides..(k + 1) * sides];
            let obs = &mut self.obs[k * d..(k + 1) * d];
            let (mut terminated, mut truncated) = (false, false);
            match op {
                Op::Reseed(seed) => {
                    slot.game_seed = deal_seed(seed, (self.first + k) as u64);
                    slot.episode = 0;
                    slot.start_episode(rules, config);
                    rewards.fill(0.0);
                    self.reward[k] = 0.0;
                }
                Op::NextEpisode => {
                    slot.episode += 1;
                    slot.start_episode(rules, config);
                    rewards.fill(0.0);
                    self.reward[k] = 0.0;
                }
                Op::Step => {
                    let acted = slot.step(rules, config, self.actions[k] as usize, rewards);
                    self.reward[k] = rewards[layout.sides()[usize::from(acted.seat)]];
                    (terminated, truncated) = (acted.terminated, acted.truncated);
                    if terminated || truncated {
                        let last = &mut self.final_obs[k * d..(k + 1) * d];
                        layout.write(rules, &slot.state, acted.seat, None, last);
                        slot.episode += 1;
                        slot.start_episode(rules, config);
                    }
                }
            }
            self.terminated[k] = terminated;
            self.truncated[k] = truncated;
            let mask = &mut self.mask[k * NUM_ACTIONS..(k + 1) * NUM_ACTIONS];
            self.seat[k] = slot.write(rules, layout, obs, mask);
        }
    }
}

/// The largest number of games an environment holds.
pub const MAX_ENVS: usize = 1 << 20;

impl VecEnv {
    /// An environment of `config.num_envs` games under `rules`, reset from `seed`.
    pub fn new(rules: &Rules, config: EnvConfig, seed: u64) -> Result<VecEnv, Error> {
        let n = usize::from(rules.num_players());
        if config.seats.len() != n {
            return Err(Error::Argument(format!(
                "the env needs a player for each of the {n} seats, got: {}",
                config.seats.len()
            )));
        }
        if config.seats.iter().all(Option::is_some) {
            return Err(Error::Argument(
                "the env needs at least one learner seat (`None`), got bots only".into(),
            ));
        }
        if config.num_envs == 0 || config.num_envs > MAX_ENVS {
            return Err(Error::Argument(format!(
                "num_envs expects 1 to {MAX_ENVS}: {}",
                config.num_envs
            )));
        }
        let threads = resolve_threads(config.threads);
        let pool = if threads > 1 {
            let pool = StepPool::new(threads)
                .map_err(|e| Error::Argument(format!("cannot start the env's threads: {e}")))?;
            Some(pool)
        } else {
            None
        };
        let layout = if config.full_information {
            ObsLayout::full(rules)
        } else {
            ObsLayout::seat(rules)
        };
        let slots = (0..config.num_envs)
            .map(|_| Slot {
                state: State::new(rules, 0),
                decision: Decision::new(),
                bots: Vec::new(),
                game_seed: 0,
                episode: 0,
                steps: 0,
            })
            .collect();
        let mut env = VecEnv {
            rules: rules.clone(),
            config,
            layout,
            slots,
            pool,
        };
        // Serially: the results are the same, and the pool may have one thread only.
        for (i, slot) in env.slots.iter_mut().enumerate() {
            slot.game_seed = deal_seed(seed, i as u64);
            slot.start_episode(&env.rules, &env.config);
        }
        Ok(env)
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The configuration.
    pub fn config(&self) -> &EnvConfig {
        &self.config
    }

    /// The observation layout.
    pub fn layout(&self) -> &ObsLayout {
        &self.layout
    }

    /// The number of games.
    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// The state of game `i` (at a learner's decision).
    pub fn state(&self, i: usize) -> &State {
        &self.slots[i].state
    }

    /// The decision in progress of game `i`.
    pub fn decision(&self, i: usize) -> &Decision {
        &self.slots[i].decision
    }

    /// The episode number of game `i` (0 after a reset with a seed).
    pub fn episode(&self, i: usize) -> u64 {
        self.slots[i].episode
    }

    /// Resets every game: from `seed`, episode 0 of each (`Some`), or each game's next
    /// episode (`None`). Writes the first decision of each into `out` (rewards 0, flags false).
    pub fn reset(&mut self, seed: Option<u64>, out: &mut Outputs<'_>) -> Result<(), Error> {
        self.check_outputs(out)?;
        let op = seed.map_or(Op::NextEpisode, Op::Reseed);
        self.run(op, &[], out);
        Ok(())
    }

    /// Applies `op` to every game, in chunks of rows on the pool (or on this thread when the
    /// pool has one thread or the games are few: the results are the same).
    fn run(&mut self, op: Op, actions: &[i64], out: &mut Outputs<'_>) {
        let (rules, layout, config) = (&self.rules, &self.layout, &self.config);
        let chunk = self.chunk();
        let rows = Rows::over(0, &mut self.slots, actions, out);
        let parts = rows.split(chunk, layout);
        let work = |mut part: Rows<'_>| part.apply(op, rules, layout, config);
        match &self.pool {
            Some(pool) if parts.len() > 1 => pool.run(parts, work),
            _ => parts.into_iter().for_each(work),
        }
    }

    /// Games per task: a few tasks per thread, so that a slow game does not hold a thread,
    /// and at least `MIN_CHUNK`, so that a task outweighs handing it to a thread.
    fn chunk(&self) -> usize {
        let threads = self.pool.as_ref().map_or(1, StepPool::threads);
        self.slots.len().div_ceil(threads * 8).max(MIN_CHUNK)
    }

    /// Checks that `out` has the lengths of this environment.
    fn check_outputs(&self, out: &Outputs<'_>) -> Result<(), Error> {
        let n = self.slots.len();
        let want = [
            ("obs", out.obs.len(), n * self.layout.len()),
            ("final_obs", out.final_obs.len(), n * self.layout.len()),
            ("mask", out.mask.len(), n * NUM_ACTIONS),
            ("reward", out.reward.len(), n),
            (
                "side_rewards",
                out.side_rewards.len(),
                n * self.layout.num_sides(),
            ),
            ("terminated", out.terminated.len(), n),
            ("truncated", out.truncated.len(), n),
            ("seat", out.seat.len(), n),
        ];
        for (name, got, len) in want {
            if got != len {
                return Err(Error::Argument(format!(
                    "the env's `{name}` buffer must hold {len} values, got: {got}"
                )));
            }
        }
        Ok(())
    }

    /// Checks `actions` against every game's mask, changing nothing.
    pub fn check_actions(&self, actions: &[i64]) -> Result<(), Error> {
        if actions.len() != self.slots.len() {
            return Err(Error::Argument(format!(
                "the env steps {} games and needs one action each, got: {}",
                self.slots.len(),
                actions.len()
            )));
        }
        let games = self.slots.len();
        for (i, (&a, slot)) in actions.iter().zip(&self.slots).enumerate() {
            check_action((i, games), a, slot)?;
        }
        Ok(())
    }

    /// Takes one action per game and writes the next decisions and the rewards into `out`;
    /// an error (every game unchanged) if any action is not legal.
    pub fn step(&mut self, actions: &[i64], out: &mut Outputs<'_>) -> Result<(), Error> {
        self.check_outputs(out)?;
        self.check_actions(actions)?;
        self.run(Op::Step, actions, out);
        Ok(())
    }

    /// [`VecEnv::step`] for game `i` alone, the others unchanged: `out` holds that game's
    /// rows only (one row each). For a single-game adapter, which steps one game at a time.
    pub fn step_game(&mut self, i: usize, action: i64, out: &mut Outputs<'_>) -> Result<(), Error> {
        let n = self.slots.len();
        if i >= n {
            return Err(Error::Argument(format!(
                "the env has {n} games, no game: {i}"
            )));
        }
        let (d, sides) = (self.layout.len(), self.layout.num_sides());
        let want = [
            out.obs.len() == d,
            out.final_obs.len() == d,
            out.mask.len() == NUM_ACTIONS,
            out.reward.len() == 1,
            out.side_rewards.len() == sides,
            out.terminated.len() == 1,
            out.truncated.len() == 1,
            out.seat.len() == 1,
        ];
        if want.contains(&false) {
            return Err(Error::Argument(
                "the buffers of one game must hold one row each".into(),
            ));
        }
        check_action((i, n), action, &self.slots[i])?;
        let actions = [action];
        let mut rows = Rows::over(i, &mut self.slots[i..=i], &actions, out);
        rows.apply(Op::Step, &self.rules, &self.layout, &self.config);
        Ok(())
    }

    /// Writes the observation of `seat` in game `i` into `out` (the layout's length): what a
    /// seat that is not to act sees, for multi-agent adapters.
    pub fn observe(&self, i: usize, seat: u8, out: &mut [f32]) -> Result<(), Error> {
        let slot = self.slots.get(i).ok_or_else(|| {
            Error::Argument(format!(
                "the env has {} games, no game: {i}",
                self.slots.len()
            ))
        })?;
        if usize::from(seat) >= self.layout.num_seats() {
            return Err(Error::Argument(format!(
                "the game has {} seats, no seat: {seat}",
                self.layout.num_seats()
            )));
        }
        if out.len() != self.layout.len() {
            return Err(Error::Argument(format!(
                "the observation buffer must hold {} values, got: {}",
                self.layout.len(),
                out.len()
            )));
        }
        self.layout
            .write(&self.rules, &slot.state, seat, Some(&slot.decision), out);
        Ok(())
    }
}

/// Whether action `a` is legal in game `i` of `games` (`slot`): an error naming the action,
/// and the game when the env has more than one (a single-game adapter's user has no game 0).
fn check_action((i, games): (usize, usize), a: i64, slot: &Slot) -> Result<(), Error> {
    if usize::try_from(a).is_ok_and(|a| slot.decision.is_legal(a)) {
        return Ok(());
    }
    let what = usize::try_from(a)
        .ok()
        .and_then(|a| action_name(a).ok())
        .map_or_else(
            || format!("ids are 0 to {}", NUM_ACTIONS - 1),
            |name| format!("{name}, not in the mask"),
        );
    let game = if games > 1 {
        format!(" for game {i} of the env")
    } else {
        String::new()
    };
    Err(Error::IllegalMove(format!(
        "an action{game} ({what}): {a}\n\
         hint: choose an action its action mask marks legal (`info[\"action_mask\"]` in the \
         Gymnasium envs)"
    )))
}

/// What a step did in one game.
struct Acted {
    seat: u8,
    terminated: bool,
    truncated: bool,
}

impl Slot {
    /// Deals this game's episode `self.episode`, seats its bots, and plays them up to the
    /// first learner decision.
    fn start_episode(&mut self, rules: &Rules, config: &EnvConfig) {
        let deal = Rng::derive(self.game_seed, self.episode);
        self.state = State::new(rules, deal);
        self.bots = config
            .seats
            .iter()
            .enumerate()
            .map(|(s, kind)| kind.map(|k| SeatBot::of(k, bot_seed(deal, s as u8))))
            .collect();
        self.steps = 0;
        // Every seat plays in every round, so a learner acts before the hand can end.
        let mut unused = [0.0; 1];
        let ended = self.play_bots(rules, config, &mut unused);
        assert!(!ended, "a learner seat acts in every hand");
        self.decision.reset(rules, &self.state);
    }

    /// Plays the bots' seats until a learner is to act (false) or the episode ends (true,
    /// with each side's reward in `rewards`). In match play, finished hands are followed by
    /// the next deal.
    fn play_bots(&mut self, rules: &Rules, config: &EnvConfig, rewards: &mut [f32]) -> bool {
        loop {
            if self.state.hand_over() {
                if config.reward == Reward::Hand || self.state.match_over() {
                    self.episode_rewards(rules, config, rewards);
                    return true;
                }
                self.state
                    .next_hand(rules)
                    .expect("a hand over and no match over deals on");
                continue;
            }
            let seat = self.state.to_move().expect("a seat is to move mid-hand");
            let Some(bot) = self.bots[usize::from(seat)].as_mut() else {
                return false;
            };
            let mv = if let Some(mv) = bot.choose_unlisted(rules, &self.state) {
                mv
            } else {
                self.decision.reset(rules, &self.state);
                let view = LazyView::new(&self.state, seat);
                bot.choose(rules, &view, self.decision.legal_moves())
            };
            self.tell(rules, seat, mv);
            self.state.apply_unchecked(rules, mv);
        }
    }

    /// Each side's reward for the episode just ended.
    fn episode_rewards(&self, rules: &Rules, config: &EnvConfig, rewards: &mut [f32]) {
        for (side, r) in rewards.iter_mut().enumerate() {
            *r = match config.reward {
                Reward::Hand => self.state.hand_margin(rules, side).unwrap_or(0) as f32,
                Reward::Match => match self.state.winner() {
                    Some(w) if usize::from(w) == side => 1.0,
                    Some(_) => -1.0,
                    None => 0.0,
                },
            };
        }
    }

    /// Takes a legal `action` for the seat to act.
    fn step(
        &mut self,
        rules: &Rules,
        config: &EnvConfig,
        action: usize,
        rewards: &mut [f32],
    ) -> Acted {
        rewards.fill(0.0);
        let seat = self.state.to_move().expect("a learner is to act");
        let mut acted = Acted {
            seat,
            terminated: false,
            truncated: false,
        };
        self.steps += 1;
        let done = match self.decision.step(action).expect("actions are checked") {
            Some(mv) => {
                self.tell(rules, seat, mv);
                self.state.apply_unchecked(rules, mv);
                self.play_bots(rules, config, rewards)
            }
            None => false,
        };
        if done {
            acted.terminated = true;
        } else {
            if self.decision.building().is_none() {
                self.decision.reset(rules, &self.state);
            }
            acted.truncated = config.max_steps > 0 && self.steps >= config.max_steps;
        }
        acted
    }

    /// Tells the bots that ask that `seat` is about to play `mv` ([`sim::tell`]).
    fn tell(&mut self, rules: &Rules, seat: u8, mv: Move) {
        sim::tell(
            rules,
            &self.state,
            self.bots.iter_mut().map(Option::as_mut),
            seat,
            mv,
        );
    }

    /// Writes the observation and mask of the seat to act; returns the seat.
    fn write(&self, rules: &Rules, layout: &ObsLayout, obs: &mut [f32], mask: &mut [bool]) -> i64 {
        let seat = self.state.to_move().expect("a learner is to act");
        layout.write(rules, &self.state, seat, Some(&self.decision), obs);
        self.decision.write_mask(mask);
        i64::from(seat)
    }
}
