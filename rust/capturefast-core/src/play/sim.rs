//! Batch simulation: many independent hands or whole matches played by bots, on every core, with
//! results written by index so that a seed gives the same results whatever the thread count.
//!
//! # Seeds
//! Item `i` of a run seeded with `seed` (a deal in [`Mode::Hands`], a match in
//! [`Mode::Matches`]) is dealt by `State::new(rules, deal_seed(seed, i))`, and the bot in seat
//! `s` is built with [`bot_seed`]`(deal, s)`. A match deals its later hands from the same state's
//! generator, so they too depend only on `(seed, i)`.
//!
//! # Duplicate play
//! With `duplicate`, item `i` is played twice on the identical deal (same deck order, same
//! dealer): first with the bots as given, then with the bots of the two sides swapped (seat `s`
//! gets the bot of seat `s ^ 1`). Each seat keeps its bot seed, so two copies of a random bot
//! replay the first game exactly; any difference between the two games comes from the bots.
//! Rows `2i` and `2i + 1` hold the two games.
//!
//! # Threads, progress, stopping
//! Items are cut into chunks that worker threads take in order from a shared queue; a chunk's
//! rows are a disjoint slice of the preallocated result columns. [`Control`] counts finished
//! items and carries a stop flag, checked between items and before each move of a boxed bot,
//! and handed to the search bots, whose decision in progress it ends: when it is set, the items
//! finished so far form a prefix `0..completed` of the run, and the result is truncated to it
//! (an item a stop cut short is dropped, so a move it ended early is in no result).
//!
//! # Shards
//! [`Plan::starting_at`] makes a plan play items `first..first + items` of a larger run, with
//! those items' seeds: consecutive shards, their rows joined in order, give the whole run's
//! rows. A cluster run (the Python layer's `capturefast.distributed`) is built on it.
//!
//! [`random_hands`] and [`Totals`] are the original uniform-random loop (the main job's first
//! workload, kept for the benchmarks that pin it against the Python reference).

use std::fmt;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::error::Error;
use crate::game::action::Move;
use crate::game::rng::Rng;
use crate::game::rules::Rules;
use crate::game::score::HandScore;
use crate::game::state::State;
use crate::game::view::LazyView;
use crate::game::world::Draw;
use crate::play::bots::{Bot, BotKind, ISMCTS_ITERATIONS, PIMC_WORLDS, SeatBot};
use crate::play::expert::{EXPERT_MODEL_BETA, ExpertModel};
use crate::search::analysis::Horizon;
use crate::search::horizon::Evaluation;
use crate::search::infer::SearchModel;
use crate::search::ismcts::IsmctsBot;
use crate::search::pimc::PimcBot;
use crate::search::solver::Interrupt;

/// Plays the current hand of `state` to its end with uniformly random legal moves drawn from
/// `rng`, and returns its score. `moves` is a scratch buffer. `rules` must be those the state
/// was made with ([`State::check_rules`]); this loop does not check them.
pub fn play_out_random(
    rules: &Rules,
    state: &mut State,
    rng: &mut Rng,
    moves: &mut Vec<Move>,
) -> HandScore {
    if let Some(score) = state.hand_score(rules) {
        return score;
    }
    loop {
        let pick = state.pick_move(rules, |n| rng.below(u64::from(n)) as u32);
        let mv = pick.unwrap_or_else(|| {
            state.legal_moves(rules, moves);
            moves[rng.below(moves.len() as u64) as usize]
        });
        if let Some(score) = state.apply_scored(rules, mv) {
            return score;
        }
    }
}

/// Totals over many hands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Hands played.
    pub hands: u64,
    /// Points per side.
    pub points: [u64; 2],
    /// Category awards per side, in [`Rules::category_names`] order.
    pub awards: [[u64; 2]; 4],
    /// Categories tied (nobody scored), per category.
    pub ties: [u64; 4],
    /// Sweeps per side.
    pub sweeps: [u64; 2],
}

impl Totals {
    /// Adds one hand's score.
    pub fn add(&mut self, s: &HandScore) {
        self.hands += 1;
        for side in 0..2 {
            self.points[side] += u64::from(s.points[side]);
            self.sweeps[side] += u64::from(s.sweeps[side]);
        }
        for (cat, award) in s.awards.iter().enumerate() {
            match award {
                Some(side) => self.awards[cat][usize::from(*side)] += 1,
                None => self.ties[cat] += 1,
            }
        }
    }
}

/// Plays `hands` independent random hands (hand `i` from `Rng::derive(seed, i)`) and totals them.
pub fn random_hands(rules: &Rules, hands: u64, seed: u64) -> Totals {
    let mut totals = Totals::default();
    let mut moves = Vec::with_capacity(64);
    for i in 0..hands {
        let s = Rng::derive(seed, i);
        let mut state = State::new(rules, s);
        let mut rng = Rng::new(s ^ 0x5EED);
        totals.add(&play_out_random(rules, &mut state, &mut rng, &mut moves));
    }
    totals
}

// ----- seeds -----

/// The largest `pimc` budget in worlds per decision (about 0.1 s a decision to the end of
/// the round, a few seconds to the end of the hand).
pub const MAX_WORLDS: u32 = 10_000;
/// The largest `ismcts` budget in iterations per decision.
pub const MAX_ITERATIONS: u32 = 1_000_000;
/// The largest time limit of a search bot's decision, in milliseconds.
pub const MAX_MS: u32 = 60_000;

/// Salts of the bot seeds (see [`bot_seed`]).
pub const BOT_SALT: u64 = 0xB075_EED5_B075_EED5;
/// The second salt of [`bot_seed`].
pub const BOT_SALT_2: u64 = 0x5EED_B075_0DD5_EED5;

/// The seed of `State::new` for item `item` of a run seeded with `seed`.
pub fn deal_seed(seed: u64, item: u64) -> u64 {
    Rng::derive(seed, item)
}

/// The seed of the bot in `seat` for the item dealt from `deal` (the same in both games of a
/// duplicate pair).
///
/// A bot knows its seed, and the deal seed would give it every hidden card (`State::new`), so
/// the seed must not lead back to it. One [`Rng::derive`] can be undone (each step of it is a
/// bijection); the xor of two, from two salts, has no such inverse.
pub fn bot_seed(deal: u64, seat: u8) -> u64 {
    let seat = u64::from(seat);
    Rng::derive(deal ^ BOT_SALT, seat) ^ Rng::derive(deal ^ BOT_SALT_2, seat)
}

// ----- players and plans -----

type MakeBot = dyn Fn(u64) -> Box<dyn Bot> + Send + Sync;

/// Who sits in a seat: a name and a way to build a fresh bot from a seed, once per hand
/// ([`Mode::Hands`]) or once per match ([`Mode::Matches`]).
#[derive(Clone)]
pub struct Player {
    name: String,
    make: Arc<MakeBot>,
    /// A `pimc:horizon=hand` bot: its exact whole-hand searches need compulsory capture.
    solves_hands: bool,
    /// The time limit of each decision (`ms` in its budget).
    time_limit: Option<Duration>,
    /// The built-in bot it is, whatever its budget (`None`: a custom one): the simulation holds
    /// the fast ones by value and does not check their moves against the legal list (their
    /// tests do).
    kind: Option<BotKind>,
}

impl Player {
    /// A built-in bot.
    pub fn builtin(kind: BotKind) -> Player {
        Player {
            name: kind.name().to_string(),
            make: Arc::new(move |seed| kind.build(seed)),
            solves_hands: false,
            time_limit: None,
            kind: Some(kind),
        }
    }

    /// A built-in bot from its name, with an optional budget after a colon for the search bots:
    /// `pimc:worlds=400`, `pimc:worlds=50,horizon=hand`, `pimc:endgame=round` (the second-to-last
    /// round of a 2-player hand searched to the round's end like the others, not solved to the
    /// hand's end: `endgame=solve`, the default, [`solves_endgame`](crate::search::pimc::solves_endgame)),
    /// `pimc:eval=equity` (the round search's
    /// horizon valued by the hand-made equity instead of the fitted tables, `eval::fitted`,
    /// `eval=fitted`, the default), `pimc:infer=off` (worlds drawn uniformly, not weighed by the others'
    /// moves this round: `infer=expert`, the default, with `beta=8`, the softening of
    /// [`ExpertModel`]; `infer=search` weighs them by the round search's own values of those
    /// moves, [`SearchModel`], several times slower), `pimc:sweep=1` (the weight of the next leader's sweep chance at the
    /// round search's horizon; the default is
    /// [`default_sweep_weight`](crate::search::horizon::default_sweep_weight)), `pimc:draw=independent`
    /// (each world drawn apart from the others: `draw=balanced`, the default, spreads the unseen
    /// cards evenly over the worlds, [`Draw`]), `pimc:ms=20`, `ismcts:iterations=1000`,
    /// `ismcts:ms=50` (`ms`: a time limit per decision, which makes the run depend on the
    /// machine's speed). The player's name is the spec as given.
    pub fn parse(spec: &str) -> Result<Player, Error> {
        let spec = spec.trim();
        let Some((name, budget)) = spec.split_once(':') else {
            return Ok(Player::builtin(BotKind::from_name(spec)?));
        };
        let kind = BotKind::from_name(name.trim())?;
        let b = Budget::read(kind, budget)
            .map_err(|why| Error::Variant(format!("bot `{spec}`: {why}")))?;
        let make = move |seed| -> Box<dyn Bot> {
            match (kind, b.limit) {
                (BotKind::Pimc, _) => {
                    let mut bot = PimcBot::with_horizon(b.worlds, b.horizon, seed)
                        .with_evaluation(b.evaluation)
                        .with_endgame(b.endgame.unwrap_or(true))
                        .with_draw(b.draw);
                    if let Some(l) = b.limit {
                        bot = bot.with_time_limit(l);
                    }
                    if let Some(w) = b.sweep {
                        bot = bot.with_sweep_weight(w);
                    }
                    let beta = b.beta.unwrap_or(EXPERT_MODEL_BETA);
                    match b.infer {
                        Infer::Off => {}
                        Infer::Expert => bot = bot.with_inference(Box::new(ExpertModel::new(beta))),
                        Infer::Search => {
                            let mut model = SearchModel::new(beta, seed ^ SEARCH_MODEL_SALT)
                                .with_evaluation(b.evaluation);
                            if let Some(w) = b.sweep {
                                model = model.with_sweep_weight(w);
                            }
                            bot = bot.with_inference(Box::new(model));
                        }
                    }
                    Box::new(bot)
                }
                (_, None) => Box::new(IsmctsBot::new(b.iterations, seed)),
                (_, Some(l)) => Box::new(IsmctsBot::new(b.iterations, seed).with_time_limit(l)),
            }
        };
        let mut player = Player::custom(spec, make);
        player.solves_hands = kind == BotKind::Pimc && b.horizon == Horizon::Hand;
        player.time_limit = b.limit;
        player.kind = Some(kind);
        Ok(player)
    }

    /// Any bot, built by `make` from a seed.
    pub fn custom(
        name: impl Into<String>,
        make: impl Fn(u64) -> Box<dyn Bot> + Send + Sync + 'static,
    ) -> Player {
        Player {
            name: name.into(),
            make: Arc::new(make),
            solves_hands: false,
            time_limit: None,
            kind: None,
        }
    }

    /// The player's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The built-in bot it is, whatever its budget; `None` for a custom bot
    /// ([`Player::custom`]).
    pub fn kind(&self) -> Option<BotKind> {
        self.kind
    }

    /// The time limit of each of its decisions, from its budget (`pimc:ms=50`); `None` for a
    /// bot without one (a custom bot's are its own).
    pub fn time_limit(&self) -> Option<Duration> {
        self.time_limit
    }

    /// Whether this player can play under `rules`: a `pimc:horizon=hand` bot needs compulsory
    /// capture.
    ///
    /// # Errors
    /// [`Error::Variant`] naming the bot and why.
    pub fn check_rules(&self, rules: &Rules) -> Result<(), Error> {
        if self.solves_hands && !rules.compulsory_capture() {
            // With optional capture (every card may also trail) a world of an early position
            // is far beyond exact search.
            return Err(Error::Variant(format!(
                "bot `{}` solves each world to the end of the hand, which needs compulsory \
                 capture: with `compulsory_capture` = false use pimc's default round horizon",
                self.name
            )));
        }
        Ok(())
    }

    /// A fresh bot drawing from `seed`.
    pub fn build(&self, seed: u64) -> Box<dyn Bot> {
        (self.make)(seed)
    }

    /// A fresh bot drawing from `seed`, held by value if it is a fast built-in one.
    fn seat_bot(&self, seed: u64) -> SeatBot {
        match self.kind {
            Some(kind) if kind.is_fast() => SeatBot::of(kind, seed),
            _ => SeatBot::Boxed(self.build(seed)),
        }
    }
}

impl fmt::Debug for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Player").field(&self.name).finish()
    }
}

/// What one item of a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// One hand from a fresh deal.
    Hands,
    /// A whole match, hand after hand until a side reaches the target.
    Matches,
}

/// A simulation run: who plays, what an item is, how many, and from which seed.
#[derive(Clone, Debug)]
pub struct Plan {
    players: Vec<Player>,
    mode: Mode,
    items: u64,
    seed: u64,
    duplicate: bool,
    /// The index of the run's first item: a shard of a larger run plays items
    /// `first..first + items` of it, with their seeds (see [`Plan::starting_at`]).
    first: u64,
    /// Whether the run keeps every hand's deal and moves ([`Outcome::trace`]).
    trace: bool,
}

/// The most items a run may have (far beyond what memory holds; keeps row counts exact).
pub const MAX_ITEMS: u64 = 1 << 40;

impl Plan {
    /// A run of `items` deals or matches under `rules` with one player per seat.
    pub fn new(
        rules: &Rules,
        players: Vec<Player>,
        mode: Mode,
        items: u64,
        seed: u64,
        duplicate: bool,
    ) -> Result<Plan, Error> {
        let n = usize::from(rules.num_players());
        if players.len() != n {
            return Err(Error::Variant(format!(
                "{n} players need {n} bots, one per seat, got: {}",
                players.len()
            )));
        }
        if !(1..=MAX_ITEMS).contains(&items) {
            let what = match mode {
                Mode::Hands => "hands",
                Mode::Matches => "matches",
            };
            return Err(Error::Variant(format!(
                "{what} must be from 1 to {MAX_ITEMS}, got: {items}"
            )));
        }
        for p in &players {
            p.check_rules(rules)?;
        }
        Ok(Plan {
            players,
            mode,
            items,
            seed,
            duplicate,
            first: 0,
            trace: false,
        })
    }

    /// The same run, keeping the deal and the moves of every hand played in
    /// [`Outcome::trace`]: what game records are written from. The results are the same.
    pub fn traced(mut self) -> Plan {
        self.trace = true;
        self
    }

    /// The same run started at item `first` of a larger one: item `k` of this plan is item
    /// `first + k` of the run seeded with the plan's seed, so the results of consecutive
    /// shards, joined in order, are those of the whole run. `first + items` may not exceed
    /// [`MAX_ITEMS`].
    pub fn starting_at(mut self, first: u64) -> Result<Plan, Error> {
        if first
            .checked_add(self.items)
            .is_none_or(|end| end > MAX_ITEMS)
        {
            return Err(Error::Variant(format!(
                "first + items must be at most {MAX_ITEMS}, got first: {first}"
            )));
        }
        self.first = first;
        Ok(self)
    }

    /// The players, one per seat.
    pub fn players(&self) -> &[Player] {
        &self.players
    }
    /// Hands or matches.
    pub fn mode(&self) -> Mode {
        self.mode
    }
    /// Deals (hands mode) or matches requested.
    pub fn items(&self) -> u64 {
        self.items
    }
    /// The run's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// The index of the first item in the run it is a shard of (0 for a whole run).
    pub fn first(&self) -> u64 {
        self.first
    }
    /// Whether every item is played twice with the sides' bots swapped.
    pub fn duplicate(&self) -> bool {
        self.duplicate
    }
    /// Games per item: 2 in duplicate mode, else 1.
    pub fn games_per_item(&self) -> usize {
        if self.duplicate { 2 } else { 1 }
    }

    /// The player of `seat` in game `game` (0, or 1 for the swapped replay) of an item.
    fn player(&self, game: usize, seat: usize) -> &Player {
        &self.players[if game == 1 { seat ^ 1 } else { seat }]
    }
}

// ----- results -----

/// Per-hand results, column by column; 2-D columns are row-major and flattened.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HandColumns {
    /// Points per side: `points[2 * row + side]`.
    pub points: Vec<i16>,
    /// Category awards in [`Rules::category_names`] order: `awards[4 * row + category]` is the
    /// side that won it, or -1 for a tie.
    pub awards: Vec<i8>,
    /// Sweeps per side: `sweeps[2 * row + side]`.
    pub sweeps: Vec<i8>,
    /// The dealer's seat: `dealer[row]`.
    pub dealer: Vec<i8>,
}

/// Per-match results ([`Mode::Matches`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchColumns {
    /// Final scores per side: `scores[2 * row + side]`.
    pub scores: Vec<i32>,
    /// The winning side, or -1 for a match cut at [`MAX_MATCH_HANDS`] hands.
    pub winner: Vec<i8>,
    /// Hands played in the match.
    pub hands: Vec<i32>,
}

/// The deal and the moves of every hand of a traced run ([`Plan::traced`]), one entry per hand
/// row, in the order of [`Outcome::hands`] (for a match, the rows of its hands).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The position at each hand's deal.
    pub starts: Vec<State>,
    /// Every move played, hand after hand.
    pub moves: Vec<Move>,
    /// The seat that played each move of `moves`.
    pub seats: Vec<u8>,
    /// Where each hand's moves end in `moves`: hand `r` played `moves[ends[r - 1]..ends[r]]`
    /// (from 0 for the first).
    pub ends: Vec<usize>,
}

impl Trace {
    /// Hands held.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether no hand is held.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The moves of hand `row`.
    pub fn hand(&self, row: usize) -> &[Move] {
        let start = if row == 0 { 0 } else { self.ends[row - 1] };
        &self.moves[start..self.ends[row]]
    }

    fn truncate(&mut self, hands: usize) {
        self.starts.truncate(hands);
        self.ends.truncate(hands);
        let moves = self.ends.last().copied().unwrap_or(0);
        self.moves.truncate(moves);
        self.seats.truncate(moves);
    }

    fn append(&mut self, other: &Trace) {
        let base = self.moves.len();
        self.starts.extend_from_slice(&other.starts);
        self.moves.extend_from_slice(&other.moves);
        self.seats.extend_from_slice(&other.seats);
        self.ends.extend(other.ends.iter().map(|e| e + base));
    }
}

/// What a run produced. After a stop, only the first `completed` items are kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Items (deals or matches) finished: a prefix of the run.
    pub completed: u64,
    /// One row per hand played, in item order (both games of a duplicate item, in order; every
    /// hand of a match, in order).
    pub hands: HandColumns,
    /// One row per match played (empty in hands mode).
    pub matches: MatchColumns,
    /// Every hand's deal and moves, if the plan is traced (else empty).
    pub trace: Trace,
}

fn award(a: Option<u8>) -> i8 {
    a.map_or(-1, |s| s as i8)
}

/// A column of `len` zeros, or an error instead of an abort when memory runs out.
fn zeros<T: Clone + Default>(len: usize) -> Result<Vec<T>, Error> {
    // `vec![0; len]` gets zeroed pages from the allocator (calloc), which the system maps only
    // when a row is written, so a run holds no more memory than the rows it has filled. But it
    // aborts the process when the allocation fails: probe with a fallible reservation first
    // (an untouched reservation costs no memory).
    let mut probe: Vec<T> = Vec::new();
    probe.try_reserve_exact(len).map_err(|_| {
        Error::Variant(format!(
            "not enough memory for the result arrays; rows: {len}"
        ))
    })?;
    drop(probe);
    Ok(vec![T::default(); len])
}

impl HandColumns {
    fn zeroed(rows: usize) -> Result<HandColumns, Error> {
        Ok(HandColumns {
            points: zeros(2 * rows)?,
            awards: zeros(4 * rows)?,
            sweeps: zeros(2 * rows)?,
            dealer: zeros(rows)?,
        })
    }

    /// Rows held.
    pub fn len(&self) -> usize {
        self.dealer.len()
    }

    /// Whether no row is held.
    pub fn is_empty(&self) -> bool {
        self.dealer.is_empty()
    }

    fn push(&mut self, s: &HandScore, dealer: u8) {
        self.points.extend(s.points.map(|p| p as i16));
        self.awards.extend(s.awards.map(award));
        self.sweeps.extend(s.sweeps.map(|x| x as i8));
        self.dealer.push(dealer as i8);
    }

    fn truncate(&mut self, rows: usize) {
        self.points.truncate(2 * rows);
        self.awards.truncate(4 * rows);
        self.sweeps.truncate(2 * rows);
        self.dealer.truncate(rows);
    }

    fn append(&mut self, other: &HandColumns) {
        self.points.extend_from_slice(&other.points);
        self.awards.extend_from_slice(&other.awards);
        self.sweeps.extend_from_slice(&other.sweeps);
        self.dealer.extend_from_slice(&other.dealer);
    }

    fn slots(&mut self) -> HandSlots<'_> {
        HandSlots {
            points: &mut self.points,
            awards: &mut self.awards,
            sweeps: &mut self.sweeps,
            dealer: &mut self.dealer,
        }
    }
}

impl MatchColumns {
    fn zeroed(rows: usize) -> Result<MatchColumns, Error> {
        Ok(MatchColumns {
            scores: zeros(2 * rows)?,
            winner: zeros(rows)?,
            hands: zeros(rows)?,
        })
    }

    fn truncate(&mut self, rows: usize) {
        self.scores.truncate(2 * rows);
        self.winner.truncate(rows);
        self.hands.truncate(rows);
    }

    fn slots(&mut self) -> MatchSlots<'_> {
        MatchSlots {
            scores: &mut self.scores,
            winner: &mut self.winner,
            hands: &mut self.hands,
        }
    }
}

/// Splits the first `n` elements off `s` (`<[T]>::split_off_mut` needs Rust 1.87).
#[allow(clippy::mut_mut)] // the slice is shortened in place: a `&mut` to a `&mut [T]`
fn take_front<'a, T>(s: &mut &'a mut [T], n: usize) -> &'a mut [T] {
    let (front, back) = std::mem::take(s).split_at_mut(n);
    *s = back;
    front
}

/// A block of rows of [`HandColumns`], owned by one chunk.
struct HandSlots<'a> {
    points: &'a mut [i16],
    awards: &'a mut [i8],
    sweeps: &'a mut [i8],
    dealer: &'a mut [i8],
}

impl<'a> HandSlots<'a> {
    fn split_front(&mut self, rows: usize) -> HandSlots<'a> {
        HandSlots {
            points: take_front(&mut self.points, 2 * rows),
            awards: take_front(&mut self.awards, 4 * rows),
            sweeps: take_front(&mut self.sweeps, 2 * rows),
            dealer: take_front(&mut self.dealer, rows),
        }
    }

    fn set(&mut self, row: usize, s: &HandScore, dealer: u8) {
        self.points[2 * row..2 * row + 2].copy_from_slice(&s.points.map(|p| p as i16));
        self.awards[4 * row..4 * row + 4].copy_from_slice(&s.awards.map(award));
        self.sweeps[2 * row..2 * row + 2].copy_from_slice(&s.sweeps.map(|x| x as i8));
        self.dealer[row] = dealer as i8;
    }
}

/// A block of rows of [`MatchColumns`], owned by one chunk.
struct MatchSlots<'a> {
    scores: &'a mut [i32],
    winner: &'a mut [i8],
    hands: &'a mut [i32],
}

impl<'a> MatchSlots<'a> {
    fn split_front(&mut self, rows: usize) -> MatchSlots<'a> {
        MatchSlots {
            scores: take_front(&mut self.scores, 2 * rows),
            winner: take_front(&mut self.winner, rows),
            hands: take_front(&mut self.hands, rows),
        }
    }

    fn set(&mut self, row: usize, state: &State) {
        let scores = state.scores();
        self.scores[2 * row] = scores[0] as i32;
        self.scores[2 * row + 1] = scores[1] as i32;
        self.winner[row] = state.winner().map_or(-1, |w| w as i8);
        self.hands[row] = state.hand_number() as i32 + 1;
    }
}

// ----- control -----

/// The most hands a match of a run lasts: one still short of its target then (bots that never
/// score, say) ends there unfinished, its winner -1, as `play_match_report`'s `max_hands` does.
pub const MAX_MATCH_HANDS: u32 = 10_000;

/// Progress and cancellation of a run, shared between the caller and the workers.
#[derive(Debug, Default)]
pub struct Control {
    done: AtomicU64,
    /// Shared with the search bots of the run ([`Control::interrupt`]).
    stop: Arc<AtomicBool>,
}

impl Control {
    /// A fresh control: nothing done, not stopped.
    pub fn new() -> Control {
        Control::default()
    }
    /// Asks the run to stop after the items in progress.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    /// Whether a stop was asked.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// What a search bot of the run is given ([`Bot::set_interrupt`]): a stop ends its
    /// decision in progress.
    fn interrupt(&self) -> Interrupt {
        Interrupt {
            flag: Some(Arc::clone(&self.stop)),
            ..Interrupt::default()
        }
    }
    /// Items finished so far (a progress figure: items finished after a stop are counted, then
    /// dropped from the result).
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }
}

/// How often the caller's `poll` runs while a run is in progress.
pub const POLL_INTERVAL: Duration = Duration::from_millis(50);

// ----- the run -----

/// Items of a chunk, with the result rows they own.
struct Job<'a> {
    index: usize,
    items: Range<u64>,
    hands: HandSlots<'a>,
    matches: MatchSlots<'a>,
}

/// A finished chunk: how many of its items were completed (a prefix of it) and, in matches
/// mode, their hand rows.
struct Done {
    index: usize,
    completed: u64,
    rows: HandColumns,
    trace: Trace,
}

/// Hands out chunks in item order.
struct Queue<'a> {
    next: u64,
    end: u64,
    chunk: u64,
    index: usize,
    hand_rows_per_item: usize,
    match_rows_per_item: usize,
    hands: HandSlots<'a>,
    matches: MatchSlots<'a>,
}

impl<'a> Queue<'a> {
    fn take(&mut self) -> Option<Job<'a>> {
        if self.next >= self.end {
            return None;
        }
        let items = self.next..(self.next + self.chunk).min(self.end);
        let n = (items.end - items.start) as usize;
        self.next = items.end;
        self.index += 1;
        Some(Job {
            index: self.index - 1,
            items,
            hands: self.hands.split_front(n * self.hand_rows_per_item),
            matches: self.matches.split_front(n * self.match_rows_per_item),
        })
    }
}

/// A worker's reusable buffers: no allocation per hand beyond the boxed bots.
struct Scratch {
    moves: Vec<Move>,
    bots: Vec<SeatBot>,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            moves: Vec::with_capacity(64),
            bots: Vec::with_capacity(4),
        }
    }
}

/// What a worker checks for a stop: the run's [`Control`], and `tick`, which runs first (on
/// one thread it polls, and so may ask the stop).
struct Watch<'a> {
    control: &'a Control,
    tick: &'a mut dyn FnMut(),
}

impl Watch<'_> {
    fn stopped(&mut self) -> bool {
        (self.tick)();
        self.control.is_stopped()
    }
}

/// Plays the current hand to its end with the seats' bots; `None` if a stop is asked before
/// a boxed bot's move (a search bot or a Python bot may take long over one: Ctrl-C then ends
/// the run after that move, not after the hand). The fast built-in bots are not stopped
/// mid-hand: their hands take microseconds.
fn play_hand(
    rules: &Rules,
    state: &mut State,
    bots: &mut [SeatBot],
    moves: &mut Vec<Move>,
    watch: &mut Watch<'_>,
    mut trace: Option<&mut Trace>,
) -> Option<HandScore> {
    let observed = bots.iter().any(Bot::observes);
    loop {
        let seat = state
            .to_move()
            .expect("a hand being played has a seat to move");
        let bot = &mut bots[usize::from(seat)];
        let unlisted = bot.choose_unlisted(rules, state);
        if unlisted.is_none() && bot.is_boxed() && watch.stopped() {
            return None;
        }
        let mv = unlisted.unwrap_or_else(|| {
            state.legal_moves(rules, moves);
            let mv = bot.choose(rules, &LazyView::new(state, seat), moves);
            // A bot is trusted with `apply_unchecked`; one that breaks the contract is a bug.
            // The fast built-in bots' moves are checked by their tests, not here, where it cost
            // 2% of a random hand.
            assert!(
                !bot.is_boxed() || moves.contains(&mv),
                "the bot in seat {seat} chose a move that is not legal: {mv}"
            );
            mv
        });
        debug_assert!(state.is_legal(rules, mv), "{mv} is not legal");
        if observed {
            tell(rules, state, bots.iter_mut().map(Some), seat, mv);
        }
        if let Some(t) = trace.as_deref_mut() {
            t.moves.push(mv);
            t.seats.push(seat);
        }
        if let Some(score) = state.apply_scored(rules, mv) {
            if let Some(t) = trace {
                t.ends.push(t.moves.len());
            }
            return Some(score);
        }
    }
}

/// Tells each bot that asks ([`Bot::observes`]) that `seat` is about to play `mv` in `state`,
/// with its own seat's view: the bots by seat, `None` for a seat no bot holds (a learner's).
pub(crate) fn tell<'a, B: Bot + 'a>(
    rules: &Rules,
    state: &State,
    bots: impl IntoIterator<Item = Option<&'a mut B>>,
    seat: u8,
    mv: Move,
) {
    for (s, bot) in bots.into_iter().enumerate() {
        if let Some(bot) = bot.filter(|b| b.observes()) {
            bot.observe(rules, &state.view(s as u8), seat, mv);
        }
    }
}

/// Plays one game of an item (one hand, or a whole match), passing each hand's score and
/// dealer to `record` and, for a traced plan, its deal and moves to `trace`, and returns the
/// final state; `None` if stopped mid-hand ([`play_hand`]).
#[allow(clippy::too_many_arguments)]
fn play_game(
    rules: &Rules,
    plan: &Plan,
    deal: u64,
    game: usize,
    scratch: &mut Scratch,
    watch: &mut Watch<'_>,
    record: &mut dyn FnMut(&HandScore, u8),
    trace: &mut Trace,
) -> Option<State> {
    scratch.bots.clear();
    for seat in 0..rules.num_players() {
        let player = plan.player(game, usize::from(seat));
        let mut bot = player.seat_bot(bot_seed(deal, seat));
        if bot.is_boxed() {
            // A search bot's decision can take seconds: a stop ends it (the item is dropped).
            bot.set_interrupt(watch.control.interrupt());
        }
        scratch.bots.push(bot);
    }
    let mut state = State::new(rules, deal);
    loop {
        if plan.trace {
            trace.starts.push(state);
        }
        let s = play_hand(
            rules,
            &mut state,
            &mut scratch.bots,
            &mut scratch.moves,
            watch,
            plan.trace.then_some(&mut *trace),
        )?;
        record(&s, state.dealer());
        if plan.mode == Mode::Hands
            || state.match_over()
            || state.hand_number() + 1 >= MAX_MATCH_HANDS
        {
            return Some(state);
        }
        state
            .next_hand(rules)
            .expect("the hand is over and the match is not");
    }
}

/// Runs a chunk's items in order until it ends or a stop is asked; `tick` runs after each item.
fn run_job(
    rules: &Rules,
    plan: &Plan,
    mut job: Job<'_>,
    control: &Control,
    scratch: &mut Scratch,
    tick: &mut dyn FnMut(),
) -> Done {
    let games = plan.games_per_item();
    let mut rows = HandColumns::default();
    let mut trace = Trace::default();
    let mut completed = 0u64;
    let mut unreported = 0u64;
    let mut watch = Watch { control, tick };
    for item in job.items.clone() {
        if control.is_stopped() {
            break;
        }
        let k = (item - job.items.start) as usize;
        let before = rows.len();
        let traced = trace.len();
        let deal = deal_seed(plan.seed, plan.first + item);
        for game in 0..games {
            let row = k * games + game;
            match plan.mode {
                Mode::Hands => {
                    let slots = &mut job.hands;
                    play_game(
                        rules,
                        plan,
                        deal,
                        game,
                        scratch,
                        &mut watch,
                        &mut |s, d| slots.set(row, s, d),
                        &mut trace,
                    );
                }
                Mode::Matches => {
                    let state = play_game(
                        rules,
                        plan,
                        deal,
                        game,
                        scratch,
                        &mut watch,
                        &mut |s, d| rows.push(s, d),
                        &mut trace,
                    );
                    if let Some(state) = state {
                        job.matches.set(row, &state);
                    }
                }
            }
        }
        if control.is_stopped() {
            // Stopped during the item: it may be cut short (a bot's error), so it is dropped.
            rows.truncate(before);
            trace.truncate(traced);
            break;
        }
        completed += 1;
        unreported += 1;
        if unreported == 8 {
            control.done.fetch_add(unreported, Ordering::Relaxed);
            unreported = 0;
        }
        (watch.tick)();
    }
    control.done.fetch_add(unreported, Ordering::Relaxed);
    Done {
        index: job.index,
        completed,
        rows,
        trace,
    }
}

/// Wakes the polling thread when a worker exits; a worker that panics (a bot's bug) also stops
/// the others, so that the panic reaches the caller without waiting for the rest of the run.
struct ExitSignal<'a> {
    running: &'a AtomicUsize,
    caller: &'a std::thread::Thread,
    control: &'a Control,
}

impl Drop for ExitSignal<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.control.stop();
        }
        self.running.fetch_sub(1, Ordering::Release);
        self.caller.unpark();
    }
}

pub use crate::parallel::resolve_threads;

/// Plays `plan` on `threads` threads (0: one per core; 1: on the calling thread, unless a seat
/// holds a built-in search bot and none a custom one: then on a worker thread) and returns the
/// results of the items completed.
///
/// `poll` runs on the calling thread about every [`POLL_INTERVAL`] while the run is in progress
/// (when the one thread is the caller's, between items and before a boxed bot's moves): it may
/// report progress and call [`Control::stop`], which also ends the search bots' decisions in
/// progress. The results do not depend on `threads`.
pub fn run(
    rules: &Rules,
    plan: &Plan,
    threads: usize,
    control: &Control,
    poll: &mut dyn FnMut(&Control),
) -> Result<Outcome, Error> {
    if plan.players.len() != usize::from(rules.num_players()) {
        return Err(Error::Variant(format!(
            "the plan seats {} players, the rules {}",
            plan.players.len(),
            rules.num_players()
        )));
    }
    let games = plan.games_per_item();
    let rows = usize::try_from(plan.items)
        .ok()
        .and_then(|i| i.checked_mul(games))
        .ok_or_else(|| Error::Variant(format!("too many items: {}", plan.items)))?;
    let (mut hands, mut matches) = match plan.mode {
        Mode::Hands => (HandColumns::zeroed(rows)?, MatchColumns::default()),
        Mode::Matches => (HandColumns::default(), MatchColumns::zeroed(rows)?),
    };
    // No more threads than items (the Python layer refuses more than 1024 anyway): a thread
    // count near `usize::MAX` overflowed the chunk size below into a division by zero.
    let threads = resolve_threads(threads).min(usize::try_from(plan.items).unwrap_or(usize::MAX));
    // Chunks small enough to balance the threads and report progress, large enough that the
    // queue's lock is rare.
    let chunk = (plan.items / (threads as u64).saturating_mul(16).max(1)).clamp(1, 256);
    let chunks = plan.items.div_ceil(chunk);
    let threads = threads.min(usize::try_from(chunks).unwrap_or(usize::MAX));
    let mut queue = Queue {
        next: 0,
        end: plan.items,
        chunk,
        index: 0,
        hand_rows_per_item: if plan.mode == Mode::Hands { games } else { 0 },
        match_rows_per_item: if plan.mode == Mode::Matches { games } else { 0 },
        hands: hands.slots(),
        matches: matches.slots(),
    };
    // One thread plays on the caller's, which polls between moves; but a decision of a search
    // bot can take seconds, which a stop asked by `poll` would wait for: then the one thread
    // is a worker, the caller polling beside it. A custom bot (a Python one, say) stays on the
    // caller's thread, which its caller may need it on.
    let searches = plan
        .players
        .iter()
        .any(|p| p.kind().is_some_and(|k| !k.is_fast()));
    let custom = plan.players.iter().any(|p| p.kind().is_none());
    let beside = searches && !custom;
    let mut dones = if threads <= 1 && !beside {
        let mut scratch = Scratch::new();
        let mut last = Instant::now();
        let mut tick = || {
            if last.elapsed() >= POLL_INTERVAL {
                poll(control);
                last = Instant::now();
            }
        };
        let mut dones = Vec::new();
        while let Some(job) = queue.take() {
            dones.push(run_job(rules, plan, job, control, &mut scratch, &mut tick));
        }
        dones
    } else {
        run_threads(rules, plan, threads, queue, control, poll)
    };
    dones.sort_unstable_by_key(|d| d.index);
    // The completed items: whole chunks in order, up to the first one cut short or missing.
    let mut completed = 0u64;
    let mut stitched = HandColumns::default();
    let mut trace = Trace::default();
    for (i, d) in dones.iter().enumerate() {
        if d.index != i {
            break;
        }
        completed += d.completed;
        stitched.append(&d.rows);
        trace.append(&d.trace);
        let len = chunk.min(plan.items - i as u64 * chunk);
        if d.completed < len {
            break;
        }
    }
    let kept = completed as usize * games;
    match plan.mode {
        Mode::Hands => {
            hands.truncate(kept);
        }
        Mode::Matches => {
            matches.truncate(kept);
            hands = stitched;
        }
    }
    if completed < plan.items {
        hands.points.shrink_to_fit();
        hands.awards.shrink_to_fit();
        hands.sweeps.shrink_to_fit();
        hands.dealer.shrink_to_fit();
    }
    Ok(Outcome {
        completed,
        hands,
        matches,
        trace,
    })
}

fn run_threads(
    rules: &Rules,
    plan: &Plan,
    threads: usize,
    queue: Queue<'_>,
    control: &Control,
    poll: &mut dyn FnMut(&Control),
) -> Vec<Done> {
    let queue = Mutex::new(queue);
    let running = AtomicUsize::new(threads);
    let caller = std::thread::current();
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let _exit = ExitSignal {
                        running: &running,
                        caller: &caller,
                        control,
                    };
                    let mut scratch = Scratch::new();
                    let mut dones = Vec::new();
                    loop {
                        let job = queue.lock().unwrap_or_else(PoisonError::into_inner).take();
                        let Some(job) = job else { break };
                        dones.push(run_job(rules, plan, job, control, &mut scratch, &mut || {}));
                    }
                    dones
                })
            })
            .collect();
        while running.load(Ordering::Acquire) > 0 {
            std::thread::park_timeout(POLL_INTERVAL);
            poll(control);
        }
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// What a `pimc:infer=search` bot's model draws its worlds from, beside the bot's seed (the
/// model's draws are its own, apart from the bot's).
const SEARCH_MODEL_SALT: u64 = 0x5EA7_C40D_E15E_A7C4;

/// The model `pimc` weighs its worlds by (`infer=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Infer {
    Off,
    Expert,
    Search,
}

/// A search bot's budget as read from its spec, each key at most once.
#[derive(Clone, Copy)]
struct Budget {
    worlds: u32,
    iterations: u32,
    horizon: Horizon,
    limit: Option<Duration>,
    evaluation: Evaluation,
    infer: Infer,
    beta: Option<f32>,
    endgame: Option<bool>,
    sweep: Option<f32>,
    draw: Draw,
}

impl Budget {
    /// Reads `budget` (what follows the colon) for a bot of `kind`, or says why not.
    fn read(kind: BotKind, budget: &str) -> Result<Budget, String> {
        if budget.trim().is_empty() {
            return Err("a colon needs a budget after it, e.g. pimc:worlds=50".to_string());
        }
        let mut b = Budget {
            worlds: PIMC_WORLDS,
            iterations: ISMCTS_ITERATIONS,
            horizon: Horizon::Round,
            limit: None,
            evaluation: Evaluation::Fitted,
            infer: Infer::Expert,
            beta: None,
            endgame: None,
            sweep: None,
            draw: Draw::Balanced,
        };
        let mut seen: Vec<&str> = Vec::new();
        for item in budget.split(',') {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| format!("expected key=value, got: {item}"))?;
            let (key, value) = (key.trim(), value.trim());
            if seen.contains(&key) {
                return Err(format!("a budget given twice: {key}"));
            }
            seen.push(key);
            // Budgets are bounded so that a decision ends in reasonable time: a stop (Ctrl-C)
            // is seen between decisions.
            let count = |most: u32| -> Result<u32, String> {
                value
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=most).contains(n))
                    .ok_or_else(|| {
                        format!("{key} must be a whole number from 1 to {most}, got: {value}")
                    })
            };
            let number = |most: f32| -> Result<f32, String> {
                value
                    .parse::<f32>()
                    .ok()
                    .filter(|x| (0.0..=most).contains(x))
                    .ok_or_else(|| format!("{key} must be a number from 0 to {most}, got: {value}"))
            };
            match (kind, key) {
                (BotKind::Pimc, "worlds") => b.worlds = count(MAX_WORLDS)?,
                (BotKind::Pimc, "horizon" | "eval" | "endgame" | "draw" | "infer") => {
                    b.choose(key, value)?;
                }
                (BotKind::Pimc, "beta") => b.beta = Some(number(1000.0)?),
                (BotKind::Pimc, "sweep") => b.sweep = Some(number(10.0)?),
                (BotKind::Ismcts, "iterations") => b.iterations = count(MAX_ITERATIONS)?,
                (BotKind::Pimc | BotKind::Ismcts, "ms") => {
                    b.limit = Some(Duration::from_millis(u64::from(count(MAX_MS)?)));
                }
                // The name last, after the list, as every "unknown" message has it: the
                // Python package adds a `did you mean` hint from that list.
                (BotKind::Pimc, _) => {
                    return Err(format!(
                        "unknown pimc budget (expected one of worlds, horizon, endgame, eval, infer, beta, sweep, draw, ms): {key}"
                    ));
                }
                (BotKind::Ismcts, _) => {
                    return Err(format!(
                        "unknown ismcts budget (expected one of iterations, ms): {key}"
                    ));
                }
                _ => return Err("only pimc and ismcts take a budget".to_string()),
            }
        }
        if b.endgame.is_some() && b.horizon == Horizon::Hand {
            return Err("endgame is how horizon=round ends, not horizon=hand".to_string());
        }
        if b.sweep.is_some() && b.horizon == Horizon::Hand {
            return Err("sweep weighs the round search's horizon, not horizon=hand".to_string());
        }
        if b.beta.is_some() && b.infer == Infer::Off {
            return Err(
                "beta is the softening of infer=expert or infer=search, not of infer=off"
                    .to_string(),
            );
        }
        Ok(b)
    }
}

impl Budget {
    /// Sets a `pimc` budget key that names one of its choices (`horizon`, `eval`, `endgame`,
    /// `draw`, `infer`) to the one `value` names, or says why not.
    fn choose(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "horizon" => {
                let names = [("round", Horizon::Round), ("hand", Horizon::Hand)];
                self.horizon = named(key, value, &names)?;
            }
            "eval" => {
                let names = [
                    ("equity", Evaluation::Equity),
                    ("fitted", Evaluation::Fitted),
                ];
                self.evaluation = named(key, value, &names)?;
            }
            "endgame" => {
                self.endgame = Some(named(key, value, &[("solve", true), ("round", false)])?);
            }
            "draw" => {
                let names = [
                    ("balanced", Draw::Balanced),
                    ("independent", Draw::Independent),
                ];
                self.draw = named(key, value, &names)?;
            }
            _ => {
                let names = [
                    ("expert", Infer::Expert),
                    ("search", Infer::Search),
                    ("off", Infer::Off),
                ];
                self.infer = named(key, value, &names)?;
            }
        }
        Ok(())
    }
}

/// The value of `names` that `value` names, or why not: one budget key's choices.
fn named<T: Copy>(key: &str, value: &str, names: &[(&str, T)]) -> Result<T, String> {
    names
        .iter()
        .find(|(n, _)| *n == value)
        .map(|&(_, v)| v)
        .ok_or_else(|| {
            let all: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
            format!("{key} is {}, got: {value}", all.join(" or "))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Game;

    fn bots(names: &[&str]) -> Vec<Player> {
        names
            .iter()
            .map(|n| Player::builtin(BotKind::from_name(n).unwrap()))
            .collect()
    }

    fn plan(rules: &Rules, names: &[&str], mode: Mode, items: u64, dup: bool) -> Plan {
        Plan::new(rules, bots(names), mode, items, 42, dup).unwrap()
    }

    fn go(rules: &Rules, plan: &Plan, threads: usize) -> Outcome {
        run(rules, plan, threads, &Control::new(), &mut |_| {}).unwrap()
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        for (game, n) in [(Game::Scopa, 2), (Game::Chkobba, 2), (Game::Escoba, 4)] {
            let rules = Rules::profile(game, n).unwrap();
            let names: Vec<&str> = (0..n)
                .map(|s| if s % 2 == 0 { "random" } else { "random_card" })
                .collect();
            for (mode, dup) in [
                (Mode::Hands, false),
                (Mode::Hands, true),
                (Mode::Matches, true),
            ] {
                let p = plan(&rules, &names, mode, 301, dup);
                let one = go(&rules, &p, 1);
                assert_eq!(one.completed, 301);
                for threads in [2, 3, 7] {
                    assert_eq!(go(&rules, &p, threads), one, "{game:?} {mode:?} {threads}");
                }
            }
        }
    }

    #[test]
    fn a_trace_replays_to_the_same_results() {
        // Each traced hand, replayed move by move from its deal under the rules' legality
        // check, ends the hand with the points of its row; in a match, each deal is the
        // previous hand's end dealt on; and the rest of the outcome is the untraced run's.
        for (game, n) in [(Game::Scopa, 2), (Game::Chkobba, 2), (Game::Escoba, 4)] {
            let rules = Rules::profile(game, n).unwrap();
            let names: Vec<&str> = (0..n)
                .map(|s| if s % 2 == 0 { "greedy" } else { "random" })
                .collect();
            for (mode, dup) in [(Mode::Hands, true), (Mode::Matches, false)] {
                let p = plan(&rules, &names, mode, 23, dup);
                let plain = go(&rules, &p, 2);
                let traced = go(&rules, &p.clone().traced(), 2);
                assert!(plain.trace.is_empty());
                assert_eq!(traced.trace, go(&rules, &p.clone().traced(), 1).trace);
                let mut untraced = traced.clone();
                untraced.trace = Trace::default();
                assert_eq!(untraced, plain, "{game:?} {mode:?}");
                let t = &traced.trace;
                assert_eq!(t.len(), traced.hands.len());
                let mut previous: Option<State> = None;
                for row in 0..t.len() {
                    let mut s = t.starts[row];
                    if let Some(mut end) = previous.filter(|e| !e.match_over()) {
                        end.next_hand(&rules).unwrap();
                        assert_eq!(end, s, "row {row}");
                    }
                    let mut score = None;
                    let first = t.ends[row] - t.hand(row).len();
                    for (k, &mv) in t.hand(row).iter().enumerate() {
                        assert!(score.is_none(), "a move after the hand's end");
                        assert_eq!(s.to_move(), Some(t.seats[first + k]));
                        assert!(s.is_legal(&rules, mv), "row {row} ply {k}: {mv}");
                        score = s.apply_scored(&rules, mv);
                    }
                    let score = score.expect("the hand ends with its last move");
                    let points: Vec<i16> = score.points.iter().map(|&x| x as i16).collect();
                    assert_eq!(points, traced.hands.points[2 * row..2 * row + 2]);
                    previous = (mode == Mode::Matches).then_some(s);
                }
            }
        }
    }

    #[test]
    fn shards_joined_in_order_equal_the_whole_run() {
        // A run cut at uneven points into shards (`Plan::starting_at`) gives, shard after
        // shard, exactly the rows of the whole run: what a cluster run merges.
        for (game, n) in [(Game::Scopa, 2), (Game::Escoba, 4)] {
            let rules = Rules::profile(game, n).unwrap();
            let names: Vec<&str> = (0..n)
                .map(|s| if s % 2 == 0 { "greedy" } else { "random" })
                .collect();
            for (mode, dup) in [
                (Mode::Hands, false),
                (Mode::Hands, true),
                (Mode::Matches, true),
            ] {
                let whole = go(&rules, &plan(&rules, &names, mode, 57, dup), 2);
                let mut joined = Outcome::default();
                for (first, items) in [(0, 1), (1, 20), (21, 7), (28, 29)] {
                    let p = plan(&rules, &names, mode, items, dup)
                        .starting_at(first)
                        .unwrap();
                    let part = go(&rules, &p, 1);
                    assert_eq!(part.completed, items);
                    joined.completed += part.completed;
                    joined.hands.append(&part.hands);
                    let m = &mut joined.matches;
                    m.scores.extend_from_slice(&part.matches.scores);
                    m.winner.extend_from_slice(&part.matches.winner);
                    m.hands.extend_from_slice(&part.matches.hands);
                }
                assert_eq!(joined, whole, "{game:?} {mode:?} {dup}");
            }
        }
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        let p = plan(&rules, &["random"; 2], Mode::Hands, 10, false);
        assert!(p.clone().starting_at(MAX_ITEMS - 10).is_ok());
        let e = p.starting_at(MAX_ITEMS - 9).unwrap_err();
        assert!(e.to_string().contains("first + items"), "{e}");
    }

    #[test]
    fn hand_rows_are_consistent() {
        let rules = Rules::profile(Game::Scopa, 4).unwrap();
        let p = plan(&rules, &["random"; 4], Mode::Hands, 500, false);
        let out = go(&rules, &p, 2);
        let h = &out.hands;
        assert_eq!(h.len(), 500);
        for row in 0..500 {
            let awards = &h.awards[4 * row..4 * row + 4];
            let sweeps = &h.sweeps[2 * row..2 * row + 2];
            for (side, &swept) in sweeps.iter().enumerate() {
                let won = awards.iter().filter(|&&a| a == side as i8).count() as i16;
                assert_eq!(h.points[2 * row + side], won + i16::from(swept));
            }
            assert!(awards[2] >= 0, "the seven of coins is never tied");
            assert!((0..4).contains(&h.dealer[row]));
        }
        // The hand of item i is the first hand of State::new(deal_seed(seed, i)).
        let first = State::new(&rules, deal_seed(42, 0));
        assert_eq!(h.dealer[0], first.dealer() as i8);
    }

    #[test]
    fn duplicate_random_replays_the_deal_exactly() {
        // Each seat keeps its bot seed, so two random bots make the same choices in both games.
        for game in [Game::Scopa, Game::Escoba, Game::Chkobba] {
            let rules = Rules::profile(game, 2).unwrap();
            let p = plan(&rules, &["random", "random"], Mode::Hands, 200, true);
            let h = go(&rules, &p, 2).hands;
            assert_eq!(h.len(), 400);
            for i in 0..200 {
                let (a, b) = (2 * i, 2 * i + 1);
                assert_eq!(h.points[2 * a..2 * a + 2], h.points[2 * b..2 * b + 2]);
                assert_eq!(h.awards[4 * a..4 * a + 4], h.awards[4 * b..4 * b + 4]);
                assert_eq!(h.dealer[a], h.dealer[b]);
            }
        }
    }

    #[test]
    fn matches_end_with_a_winner_at_the_target() {
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        let p = plan(&rules, &["random", "random_card"], Mode::Matches, 50, false);
        let out = go(&rules, &p, 2);
        let m = &out.matches;
        assert_eq!(m.winner.len(), 50);
        let total: i32 = m.hands.iter().sum();
        assert_eq!(out.hands.len(), total as usize);
        let t = rules.target() as i32;
        let mut row = 0usize;
        for i in 0..50 {
            let w = m.winner[i] as usize;
            assert!(m.winner[i] == 0 || m.winner[i] == 1);
            assert!(m.scores[2 * i + w] >= t);
            assert!(m.scores[2 * i + w] > m.scores[2 * i + 1 - w]);
            // The match's hand rows add up to its final score.
            let mut sum = [0i32; 2];
            for _ in 0..m.hands[i] {
                sum[0] += i32::from(out.hands.points[2 * row]);
                sum[1] += i32::from(out.hands.points[2 * row + 1]);
                row += 1;
            }
            assert_eq!(sum, [m.scores[2 * i], m.scores[2 * i + 1]]);
        }
    }

    #[test]
    fn a_stop_keeps_a_prefix() {
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        let p = plan(&rules, &["random", "random"], Mode::Hands, 100_000, false);
        let full = go(&rules, &p, 1);
        for threads in [1, 2] {
            let control = Control::new();
            let mut polls = 0;
            let out = run(&rules, &p, threads, &control, &mut |c| {
                polls += 1;
                c.stop();
            })
            .unwrap();
            assert!(out.completed < 100_000, "stopped early");
            let rows = out.completed as usize;
            assert_eq!(out.hands.len(), rows);
            assert_eq!(out.hands.points[..], full.hands.points[..2 * rows]);
            assert!(polls >= 1);
        }
        // Stopped before it starts: nothing.
        let control = Control::new();
        control.stop();
        let out = run(&rules, &p, 2, &control, &mut |_| {}).unwrap();
        assert_eq!(out.completed, 0);
        assert!(out.hands.is_empty());
    }

    #[test]
    fn a_stop_ends_a_search_bots_decision_in_progress() {
        // A decision of this bot takes a minute; the stop comes at the first poll (50 ms), on
        // one thread as on two: the one thread is then a worker, the caller polling.
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        let players = vec![
            Player::parse("pimc:worlds=10000,horizon=hand").unwrap(),
            Player::builtin(BotKind::Greedy),
        ];
        let p = Plan::new(&rules, players, Mode::Hands, 4, 42, false).unwrap();
        for threads in [1, 2] {
            let control = Control::new();
            let start = Instant::now();
            let out = run(&rules, &p, threads, &control, &mut |c| c.stop()).unwrap();
            let took = start.elapsed();
            assert!(took < Duration::from_secs(2), "{threads} threads: {took:?}");
            assert_eq!(out.completed, 0);
        }
    }

    /// Plays the first legal move, or, if `breaks`, a move that is not legal after 30 moves.
    struct Broken {
        calls: u32,
        breaks: bool,
    }

    impl Bot for Broken {
        fn choose(&mut self, _rules: &Rules, _view: &LazyView<'_>, legal: &[Move]) -> Move {
            self.calls += 1;
            if self.breaks && self.calls > 30 {
                Move::cut(legal[0].card(), true)
            } else {
                legal[0]
            }
        }
    }

    /// Asks to be told of the moves, and checks at each of its decisions that it was told of
    /// every move of the hand so far, each from its own seat's view, one card fewer each time.
    struct Watcher {
        told: Vec<(crate::game::view::View, u8, Move)>,
        decisions: u32,
    }

    impl Bot for Watcher {
        fn choose(&mut self, _rules: &Rules, view: &LazyView<'_>, legal: &[Move]) -> Move {
            let view = view.get();
            // The moves told since the hand began: each one card before the next.
            let hand: Vec<_> = self
                .told
                .iter()
                .rev()
                .enumerate()
                .take_while(|(k, (b, _, _))| b.cards_left() == view.cards_left() + *k as u32 + 1)
                .map(|(_, t)| t)
                .collect();
            // Every card of the hand but the 4 of the opening table is played by a move.
            assert_eq!(hand.len() as u32, 36 - view.cards_left(), "{view:?}");
            assert!(hand.iter().all(|(b, _, _)| b.seat == view.seat));
            if let Some((b, seat, mv)) = hand.first() {
                assert_eq!(b.to_move, Some(*seat));
                let after = if mv.captures().is_empty() {
                    b.table | crate::game::cardset::CardSet::single(mv.card())
                } else {
                    b.table - mv.captures()
                };
                assert_eq!(
                    after, view.table,
                    "the last move told leaves the table seen"
                );
            }
            self.decisions += 1;
            legal[0]
        }

        fn observes(&self) -> bool {
            true
        }

        fn observe(
            &mut self,
            _rules: &Rules,
            before: &crate::game::view::View,
            seat: u8,
            mv: Move,
        ) {
            self.told.push((*before, seat, mv));
        }
    }

    #[test]
    fn a_bot_that_observes_is_told_every_move_of_its_table() {
        for players in [2u8, 4] {
            let rules = Rules::profile(Game::Scopa, players).unwrap();
            let decided = Arc::new(AtomicU64::new(0));
            let d = decided.clone();
            let watcher = Player::custom("watcher", move |_| {
                d.fetch_add(1, Ordering::Relaxed);
                Box::new(Watcher {
                    told: Vec::new(),
                    decisions: 0,
                })
            });
            let mut seats = vec![watcher];
            seats.extend((1..players).map(|_| Player::builtin(BotKind::Greedy)));
            let p = Plan::new(&rules, seats, Mode::Matches, 20, 3, false).unwrap();
            let out = run(&rules, &p, 1, &Control::new(), &mut |_| {}).unwrap();
            assert_eq!(out.completed, 20);
            assert!(decided.load(Ordering::Relaxed) >= 20);
        }
    }

    #[test]
    fn a_bot_bug_panics_on_the_caller_and_stops_the_run() {
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        let counter = Arc::new(AtomicU64::new(0));
        let c = counter.clone();
        let broken = Player::custom("broken", move |_| {
            // The first bot built breaks; the others play on.
            let breaks = c.fetch_add(1, Ordering::Relaxed) == 0;
            Box::new(Broken { calls: 0, breaks })
        });
        let p = Plan::new(
            &rules,
            vec![broken, Player::builtin(BotKind::Random)],
            Mode::Matches,
            1_000_000,
            0,
            false,
        )
        .unwrap();
        let control = Control::new();
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run(&rules, &p, 2, &control, &mut |_| {})
        }));
        let msg = panicked.expect_err("an illegal move from a bot is a bug");
        let msg = msg.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(
            msg.contains("chose a move that is not legal: keep"),
            "{msg}"
        );
        assert!(control.is_stopped());
        assert!(control.done() < 1_000_000);
    }

    #[test]
    fn plans_check_their_arguments() {
        let rules = Rules::profile(Game::Scopa, 4).unwrap();
        let e = Plan::new(&rules, bots(&["random"; 2]), Mode::Hands, 10, 0, false).unwrap_err();
        assert!(e.to_string().contains("4 players need 4 bots"), "{e}");
        let e = Plan::new(&rules, bots(&["random"; 4]), Mode::Matches, 0, 0, false).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("matches must be from 1 to {MAX_ITEMS}, got: 0")
        );
        // Whole-hand PIMC needs compulsory capture; the default round horizon does not.
        let mut o = crate::game::rules::Options::new(Game::Escoba, 2);
        o.compulsory_capture = false;
        let optional = Rules::new(o).unwrap();
        let players = |spec: &str| {
            vec![
                Player::parse(spec).unwrap(),
                Player::parse("random").unwrap(),
            ]
        };
        let e = Plan::new(
            &optional,
            players("pimc:horizon=hand"),
            Mode::Hands,
            1,
            0,
            false,
        );
        assert!(e.unwrap_err().to_string().contains("compulsory capture"));
        assert!(Plan::new(&optional, players("pimc"), Mode::Hands, 1, 0, false).is_ok());
        let scopa = Rules::profile(Game::Escoba, 2).unwrap();
        assert!(
            Plan::new(
                &scopa,
                players("pimc:horizon=hand"),
                Mode::Hands,
                1,
                0,
                false
            )
            .is_ok()
        );
    }

    #[test]
    fn players_parse_names_and_budgets() {
        for spec in [
            "random",
            "pimc",
            "pimc:worlds=5",
            "pimc:worlds=5, horizon=hand",
            "pimc:ms=20",
            "pimc:eval=fitted",
            "pimc:worlds=5,eval=equity",
            "pimc:sweep=1",
            "pimc:eval=equity,sweep=0.5",
            "pimc:infer=search",
            "pimc:infer=search,beta=4",
            "ismcts:iterations=10,ms=5",
        ] {
            assert_eq!(Player::parse(&format!(" {spec} ")).unwrap().name(), spec);
        }
        for (spec, why) in [
            ("pimcx", "unknown bot"),
            ("pimc:", "a colon needs a budget after it"),
            ("pimc:worlds=5,worlds=6", "a budget given twice: worlds"),
            ("greedy:worlds=3", "only pimc and ismcts take a budget"),
            (
                "pimc:worlds=0",
                "worlds must be a whole number from 1 to 10000, got: 0",
            ),
            // Bounded, so that a decision ends in reasonable time.
            ("pimc:worlds=10001", "from 1 to 10000, got: 10001"),
            (
                "ismcts:iterations=1000001",
                "from 1 to 1000000, got: 1000001",
            ),
            ("ismcts:ms=60001", "from 1 to 60000, got: 60001"),
            ("pimc:worlds=many", "got: many"),
            (
                "pimc:iterations=3",
                "unknown pimc budget (expected one of worlds, horizon, endgame, eval, infer, beta, sweep, draw, ms): iterations",
            ),
            (
                "pimc:infer=bridge",
                "infer is expert or search or off, got: bridge",
            ),
            (
                "pimc:beta=-1",
                "beta must be a number from 0 to 1000, got: -1",
            ),
            (
                "pimc:infer=off,beta=2",
                "beta is the softening of infer=expert or infer=search, not of infer=off",
            ),
            (
                "pimc:eval=learned",
                "eval is equity or fitted, got: learned",
            ),
            ("pimc:eval=", "eval is equity or fitted, got: "),
            (
                "pimc:sweep=-1",
                "sweep must be a number from 0 to 10, got: -1",
            ),
            (
                "pimc:sweep=heavy",
                "sweep must be a number from 0 to 10, got: heavy",
            ),
            (
                "pimc:horizon=hand,sweep=1",
                "sweep weighs the round search's horizon, not horizon=hand",
            ),
            (
                "ismcts:sweep=1",
                "unknown ismcts budget (expected one of iterations, ms): sweep",
            ),
            (
                "ismcts:eval=fitted",
                "unknown ismcts budget (expected one of iterations, ms): eval",
            ),
            (
                "ismcts:worlds=3",
                "unknown ismcts budget (expected one of iterations, ms): worlds",
            ),
            ("pimc:horizon=match", "horizon is round or hand, got: match"),
            (
                "pimc:endgame=guess",
                "endgame is solve or round, got: guess",
            ),
            (
                "pimc:horizon=hand,endgame=round",
                "endgame is how horizon=round ends, not horizon=hand",
            ),
            ("pimc:worlds", "expected key=value, got: worlds"),
            (
                "pimc:draw=stratified",
                "draw is balanced or independent, got: stratified",
            ),
        ] {
            let e = Player::parse(spec).unwrap_err().to_string();
            assert!(e.contains(why), "{spec}: {e}");
        }
    }

    #[test]
    fn a_parsed_budget_is_the_bot_built_with_it() {
        // The same decisions as the bot built directly with that budget, on positions of a
        // random Escoba hand.
        let rules = Rules::profile(Game::Escoba, 2).unwrap();
        let mut moves = Vec::new();
        let mut state = State::new(&rules, 9);
        let mut direct: Vec<Box<dyn Bot>> = vec![
            Box::new(PimcBot::with_horizon(3, Horizon::Hand, 1)),
            Box::new(PimcBot::new(2, 1)),
            Box::new(PimcBot::new(2, 1).with_evaluation(Evaluation::Fitted)),
            Box::new(IsmctsBot::new(25, 1)),
            Box::new(
                PimcBot::new(2, 1)
                    .with_evaluation(Evaluation::Fitted)
                    .with_inference(Box::new(ExpertModel::new(3.0))),
            ),
            Box::new(PimcBot::new(2, 1).with_endgame(false)),
            Box::new(PimcBot::new(7, 1).with_draw(Draw::Independent)),
            Box::new(
                PimcBot::new(2, 1)
                    .with_evaluation(Evaluation::Fitted)
                    .with_inference(Box::new(
                        SearchModel::new(EXPERT_MODEL_BETA, 1 ^ SEARCH_MODEL_SALT)
                            .with_evaluation(Evaluation::Fitted),
                    )),
            ),
            // The registry's `pimc` is the parsed default budget.
            BotKind::Pimc.build(1),
        ];
        let mut parsed: Vec<Box<dyn Bot>> = [
            "pimc:worlds=3,horizon=hand,infer=off",
            "pimc:worlds=2,eval=equity,infer=off",
            "pimc:worlds=2,eval=fitted,infer=off",
            "ismcts:iterations=25",
            "pimc:worlds=2,beta=3",
            "pimc:worlds=2,eval=equity,infer=off,endgame=round",
            "pimc:worlds=7,eval=equity,infer=off,draw=independent",
            "pimc:worlds=2,infer=search",
            "pimc:worlds=100,eval=fitted,infer=expert,beta=8,endgame=solve,draw=balanced",
        ]
        .iter()
        .map(|s| Player::parse(s).unwrap().build(1))
        .collect();
        let mut rng = Rng::new(4);
        while !state.hand_over() {
            state.legal_moves(&rules, &mut moves);
            let view = LazyView::new(&state, 0);
            // Seat 0's decisions, the bots told every move as seat 0 saw it.
            if state.cards_left() <= 24 && state.to_move() == Some(0) {
                for (a, b) in direct.iter_mut().zip(&mut parsed) {
                    assert_eq!(
                        a.choose(&rules, &view, &moves),
                        b.choose(&rules, &view, &moves)
                    );
                }
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            let seat = state.to_move().unwrap();
            let seen = state.view(0);
            for bot in direct.iter_mut().chain(&mut parsed) {
                bot.observe(&rules, &seen, seat, mv);
            }
            state.apply_unchecked(&rules, mv);
        }
    }
}
