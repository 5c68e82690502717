//! Exact solver for open positions.
//!
//! # The value of a position
//! Once every card is known, stock order included, the rest of a hand is a deterministic game
//! between the two sides: the deals to come are fixed by the stock, so there is no chance left.
//! The value of a position is the minimax value, for the side to move, of that side's points
//! minus the other side's at the end of the hand ([`State::hand_score`]: every category, every
//! sweep of the hand, the leftovers and the last-play rule, as the variant says). With 4 players
//! the partners are one side; seats alternate sides, so the side to move alternates too (but for
//! the Chkobba cut decision, after which the cutter leads: the side to move stays).
//!
//! # The search
//! Negamax with alpha-beta pruning over copies of the [`State`] (it is `Copy`; moves are applied
//! with [`State::apply_unchecked`] and never undone).
//!
//! - **What is searched.** Sweeps only ever add a point, so the search values the *future*: the
//!   category points at the end of the hand plus the sweeps still to come; the sweeps already
//!   made are added back at the root. Positions that differ only in past sweeps then share
//!   their table entries.
//! - **Transposition table.** A fixed number of 16-byte entries, four to a 64-byte bucket (one
//!   cache line). An entry holds a 64-bit key, a lower and an upper bound on the value, the
//!   index of the best move and the size of its subtree. The key hashes what the rest of the
//!   hand depends on: every hand, the table, the stock (a hash of its order taken once per root,
//!   plus how much of it is left), the seat to move, the dealer, the side that captured last, and
//!   the piles reduced to what scoring can still see (below); not the match scores, the
//!   generator or the hand number. A 64-bit key makes a false hit possible in principle: at one
//!   probe per node it takes about 10^19 probes to expect one.
//!   Entries stay exact from one solve to the next (the stock hash tells deals apart), so a
//!   solver is meant to be kept and reused; [`Solver::clear`] empties the table in constant
//!   time (an epoch counter). Each solve starts on a part of the table sized to the search
//!   ahead, so a small search keeps its entries in a few cache lines, and doubles that part
//!   whenever the search has filled it; a new entry replaces an empty one,
//!   else one from an earlier solve, else the one with the smallest subtree. The table is
//!   allocated as solves need it, up to its capacity: a new solver costs nothing until it
//!   searches, and a small query never pays for a large table.
//! - **Piles, reduced.** Scoring reads counts and best cards, not the exact piles; and the key
//!   already fixes which cards are still live, hence the union of the piles. So each pile enters
//!   the key as: side 0's cards and coins (side 1's follow), or a mark that a majority is
//!   already won (over 20 cards, over 5 coins) whatever happens next; who holds the seven of
//!   coins; and for the primiera / setenta each side's best card per suit, or for the bermila
//!   side 0's sevens and sixes, or a mark that three sevens have settled it. Two positions with
//!   the same reduced key have the same future scores move for move, so sharing is exact.
//! - **The last two plays** are valued directly from the masks (each card's captures, the
//!   sweep, the leftovers, the score) instead of by making child states: they are most of the
//!   nodes of a small search.
//! - **Move ordering.** The table's best move first, then sweeps, then captures by what they
//!   take (the seven of coins, coins, sevens, cards), then trails, cheapest card first. The
//!   first move searched is the one that cuts off in about 93% of the nodes that cut off.
//! - **Narrow windows.** [`Solver::value`] runs MTD(f): a first search with the window
//!   `(g - 1, g + 1)` around a guess `g` (the table's, else the categories the side to move
//!   leads), which proves the value in one pass when the guess is right, then null-window
//!   searches that move a bound until the lower and upper bounds meet; values are small
//!   integers, so it takes about two passes. [`Solver::solve`] does the same for every child of
//!   the root, each guessed from the one before, so every move gets its exact value.
//!
//! # Variants
//! Every shortcut above (the pile reduction, `category_diff`, the primiera codes, the last two
//! plays valued from the masks, the move generator mirroring [`State::legal_moves`]) assumes the
//! default scoring and capture mechanics. [`solver_shortcuts_exact`] lists every option they
//! depend on; under other rules the solver runs a plain exact search instead: alpha-beta over
//! [`State::legal_moves`] / [`State::apply_unchecked`], valued at the end of the hand by the real
//! [`Rules::score`] ([`State::hand_score`]), with a transposition table keyed by the whole state.
//! Slower, but exact whatever the variant.
//!
//! # Hidden information
//! [`determinize`](crate::determinize) deals the cards a seat cannot see into the other hands and the stock
//! uniformly at random; [`analyze`](crate::analyze) averages exact move values over such worlds (perfect
//! information Monte Carlo), and [`PimcBot`](crate::PimcBot) plays the move with the best mean, searching each
//! world to the end of the round by default ([`Horizon`](crate::Horizon), `horizon.rs`) or solving it here.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::error::Error;
use crate::game::action::{Move, MoveKind};
use crate::game::capture::TableIndex;
use crate::game::card::{Card, NUM_RANKS, Rank};
use crate::game::cardset::CardSet;
use crate::game::rules::{
    Bermila, LastPlaySweep, MissingSuit, PrimeCategory, PrimieraFigures, PrimieraMode, Rules,
};
use crate::game::score::suit_best;
use crate::game::state::{Phase, State};

/// Whether the solver's shortcuts (see the module doc) are exact under `rules`. They read:
/// - scoring: the four categories and sweeps only, as `category_diff`, the pile reduction
///   (`pile_key`) and `best_codes` compute them: `primiera_mode = table`,
///   `primiera_figures = flat` (the codes give every figure 10), `bermila = sevens_then_sixes`
///   (the reduction keeps sevens and sixes only), and no bonus (`re_bello`, `napola` with
///   `napola_cap`, `grande`, `all_coins_bonus`, `all_sevens_bonus`: they read cards the
///   reduction forgets). `primiera_missing_suit` is read by `category_diff` (both values).
/// - mechanics: `generate` and the last-two-plays valuation list a card's captures from
///   [`Rules::for_each_capture`] and let it trail only without one, and count a whole-table
///   capture as a sweep: `compulsory_capture = true` (so no `renuncio` claim either),
///   `ace_takes_all = false` (with it `ace_takes_ace_only` and `ace_sweep` are moot),
///   `fewest_cards = false`; and `declarations = false` (points scored at the deals, outside
///   sweeps and categories).
///
/// Not read, so any value is exact: `target` and `all_coins_wins` (match end, not hand points),
/// `capture` (every mode goes through [`Rules::for_each_capture`]), `last_play_sweep` (read by
/// `last_card` and the state), `direction` (the search follows the state's seat to move),
/// `deal`, `redeal`, `opening_sweeps`, `cut_card` (moves of the state), `chkobba_face_values`
/// (capture values), `deck` (names).
pub fn solver_shortcuts_exact(rules: &Rules) -> bool {
    let o = rules.options();
    o.primiera_mode == PrimieraMode::Table
        && o.primiera_figures == PrimieraFigures::Flat
        && o.bermila == Bermila::SevensThenSixes
        && !o.re_bello
        && !o.napola
        && o.grande == 0
        && o.all_coins_bonus == 0
        && o.all_sevens_bonus == 0
        && !o.declarations
        && o.compulsory_capture
        && !o.renuncio
        && !o.ace_takes_all
        && !o.fewest_cards
}

/// Result of solving an open position (every card known, stock order included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The exact value for the side to move: its points minus the other side's at the end of
    /// the hand, both sides playing best.
    pub value: i32,
    /// Every legal move (in [`State::legal_moves`] order) with its exact value for the side to
    /// move.
    pub move_values: Vec<(Move, i32)>,
    /// Search nodes visited by this solve.
    pub nodes: u64,
}

impl Solution {
    /// The moves that reach the value (all of them, in legal-move order).
    pub fn best_moves(&self) -> Vec<Move> {
        self.move_values
            .iter()
            .filter(|&&(_, v)| v == self.value)
            .map(|&(m, _)| m)
            .collect()
    }
}

/// Values are hand-point differences: 4 category points and at most one sweep per play, so
/// well inside this bound.
const INF: i32 = 100;
/// Probe the table only with at least this many cards left to play: below it a subtree is a
/// handful of nodes, cheaper to search than a cache miss.
const TT_MIN_LEFT: u32 = 3;
/// No best move recorded.
const NO_MOVE: u8 = u8::MAX;

/// One transposition-table slot (16 bytes).
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    /// The position's 64-bit key; 0 marks an empty slot (keys are never 0).
    key: u64,
    /// Lower and upper bounds on the future value for the side to move.
    lower: i8,
    upper: i8,
    /// Index of the best move in generation order (`generate`), or `NO_MOVE`.
    best: u8,
    /// Cards left to play at the position: the size of the subtree, for replacement.
    left: u8,
    /// The table's epoch when stored: entries of an older epoch are empty.
    epoch: u16,
    /// The solve that stored it, for replacement: older solves' entries go first.
    generation: u8,
}

/// Entries per bucket: a bucket is one 64-byte cache line.
const WAYS: usize = 4;

/// The slot of `ways` a new entry takes: an empty one, else one from an earlier solve, else
/// the one with the smallest subtree.
fn victim(ways: &[Entry; WAYS], epoch: u16, generation: u8) -> usize {
    let rank = |e: &Entry| {
        if e.epoch == epoch {
            1 + u32::from(e.generation == generation) * 256 + u32::from(e.left)
        } else {
            0
        }
    };
    (0..WAYS).min_by_key(|&i| rank(&ways[i])).unwrap_or(0)
}

/// Buckets for a capacity of `tt_entries` entries: a power of two, at least one.
fn buckets_for(tt_entries: usize) -> usize {
    let buckets = (tt_entries / WAYS).max(1);
    1 << buckets.ilog2()
}

/// One cache line of entries.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
struct Bucket([Entry; WAYS]);

/// An exact alpha-beta solver with a bounded transposition table, reusable across solves.
#[derive(Clone)]
pub struct Solver {
    /// The buckets allocated so far: a power of two, or empty before the first solve.
    table: Vec<Bucket>,
    /// The most buckets the table may grow to (a power of two).
    capacity: usize,
    /// Buckets the current solve uses (a power of two, at most the table's).
    active: usize,
    /// Entries the current solve has stored in slots it did not hold (for [`Solver::grow`]).
    fill: usize,
    /// Entries stored under another epoch count as empty, so clearing is a counter increment.
    epoch: u16,
    /// Counts solves, for replacement.
    generation: u8,
    nodes: u64,
    /// The rules the table's entries were computed under; other rules clear it.
    rules: Option<Rules>,
    /// Move lists, one per search depth: (ordering score, index in generation order, move).
    buffers: Vec<Vec<Scored>>,
    /// Whether the current rules allow the shortcuts ([`solver_shortcuts_exact`]).
    fast: bool,
    /// Per search depth, the last piles keyed there and their [`pile_key`]: a play that
    /// captures nothing leaves the piles as they were, so a node finds its key at its parent's
    /// depth. Reset when the rules change.
    pile_memo: Vec<([u64; 2], u64)>,
    /// The plain search's table: whole-state key -> (lower, upper) bound on the hand's value.
    plain_table: std::collections::HashMap<u64, (i32, i32)>,
    /// The plain search's move lists, one per depth.
    plain_buffers: Vec<Vec<(i32, Move)>>,
    /// Nodes one search may visit ([`PLAIN_NODE_LIMIT`] unless set).
    plain_limit: u64,
    /// Node count past which the current search gives up.
    node_stop: u64,
    /// Node count at which the search next looks at the node limit and the interrupt
    /// ([`Solver::poll`]): `node_stop`, or sooner while an interrupt is set.
    plain_stop: u64,
    /// Whether the current search gave up (its values are then meaningless).
    plain_aborted: bool,
    /// When the searches are to stop before they end ([`Solver::set_interrupt`]).
    interrupt: Interrupt,
    /// Whether the current search gave up because of the interrupt.
    interrupted: bool,
}

/// When a search is to stop before it ends: at a deadline, once a flag another thread may set
/// is set (either of two), once the host's own test says so, once the solver has counted so
/// many nodes, or at the first of these. The default stops nothing.
#[derive(Clone, Debug, Default)]
pub struct Interrupt {
    /// The instant past which the search stops.
    pub deadline: Option<Instant>,
    /// A flag whose setting stops the search (read, never written, by the search).
    pub flag: Option<Arc<AtomicBool>>,
    /// A second such flag, the host's own beside its caller's `flag` (the Python binding sets
    /// it on Ctrl-C).
    pub cancel: Option<Arc<AtomicBool>>,
    /// The solver's node count ([`Solver::nodes`]) past which its solves stop: a budget of
    /// nodes for the solves of one query, however many worlds they are
    /// ([`Interrupt::with_nodes`]). The round search counts no solver nodes.
    pub node_end: Option<u64>,
    /// The host's test, asked at each look at the interrupt ([`Interrupt::due`]: about every
    /// 1024 nodes of a solve, between the worlds of an analysis or a decision):
    /// `true` stops the search. The Python binding looks for Ctrl-C with it, from the thread
    /// the search runs on.
    pub watch: Option<Watch>,
}

/// A host's own test of whether a search must stop ([`Interrupt::watch`]). It is asked often,
/// so one that is costly to answer should answer from a clock most of the time.
#[derive(Clone)]
pub struct Watch(pub Arc<dyn Fn() -> bool + Send + Sync>);

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Watch(..)")
    }
}

impl Interrupt {
    /// Whether it stops anything at all (a deadline, a flag, a watch or a node count is given).
    pub fn is_armed(&self) -> bool {
        self.deadline.is_some()
            || self.flag.is_some()
            || self.cancel.is_some()
            || self.node_end.is_some()
            || self.watch.is_some()
    }

    /// This interrupt, also stopping `solver`'s solves once they have searched `nodes` more
    /// nodes than it has counted so far (`None`: no node budget).
    #[must_use]
    pub fn with_nodes(mut self, solver: &Solver, nodes: Option<u64>) -> Interrupt {
        self.node_end = nodes.map(|n| solver.nodes().saturating_add(n));
        self
    }

    /// This interrupt without its node budget: for solves not of the solver it counts (a
    /// bot's own, a batch's on several threads, the weighing of worlds).
    #[must_use]
    pub fn without_nodes(self) -> Interrupt {
        Interrupt {
            node_end: None,
            ..self
        }
    }

    /// This interrupt, also due once `limit` has passed from now (the earlier of the two
    /// deadlines; `None`: no other).
    #[must_use]
    pub fn with_time_limit(mut self, limit: Option<Duration>) -> Interrupt {
        if let Some(limit) = limit {
            let own = Instant::now() + limit;
            self.deadline = Some(self.deadline.map_or(own, |d| d.min(own)));
        }
        self
    }

    /// Whether the search must stop now: the deadline has passed, a flag is set or the watch
    /// says so (the node count is the solver's to compare).
    pub fn due(&self) -> bool {
        let set =
            |f: &Option<Arc<AtomicBool>>| f.as_ref().is_some_and(|f| f.load(Ordering::Relaxed));
        set(&self.flag)
            || set(&self.cancel)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.watch.as_ref().is_some_and(|w| (w.0)())
    }
}

/// Nodes between two looks at an [`Interrupt`] (some tens of microseconds of search).
const POLL_NODES: u64 = 1024;

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("tt_entries", &self.tt_entries())
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

impl Solver {
    /// A solver whose transposition table may hold up to `tt_entries` entries of 16 bytes,
    /// rounded down to a power of two (at least 4). Nothing is allocated until a solve needs
    /// it: each solve grows the table to the part its search calls for, up to that capacity.
    pub fn new(tt_entries: usize) -> Solver {
        Solver {
            table: Vec::new(),
            capacity: buckets_for(tt_entries),
            active: 1,
            fill: 0,
            epoch: 1,
            generation: 0,
            nodes: 0,
            rules: None,
            buffers: Vec::new(),
            fast: true,
            pile_memo: Vec::new(),
            plain_table: std::collections::HashMap::new(),
            plain_buffers: Vec::new(),
            plain_limit: PLAIN_NODE_LIMIT,
            node_stop: u64::MAX,
            plain_stop: u64::MAX,
            plain_aborted: false,
            interrupt: Interrupt::default(),
            interrupted: false,
        }
    }

    /// The most entries the transposition table may hold (its capacity).
    pub fn tt_entries(&self) -> usize {
        self.capacity * WAYS
    }

    /// Entries allocated so far: the largest part of the table a solve has needed.
    pub fn tt_allocated(&self) -> usize {
        self.table.len() * WAYS
    }

    /// Sets the capacity to `tt_entries` (rounded as in [`Solver::new`]). A smaller capacity
    /// frees the part of the table past it; the entries that remain stay valid.
    pub fn set_tt_entries(&mut self, tt_entries: usize) {
        self.capacity = buckets_for(tt_entries);
        if self.table.len() > self.capacity {
            // The entries left are still exact: a probe checks the whole key.
            self.table.truncate(self.capacity);
            self.table.shrink_to_fit();
        }
        self.active = self.active.min(self.capacity);
    }

    /// Search nodes visited since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Empties the transposition table, in constant time (entries are tagged with an epoch;
    /// the table is only rewritten when the 16-bit epoch wraps).
    ///
    /// Solves need not clear it: entries are keyed by everything the value depends on, so an
    /// entry from an earlier solve is still exact. Clearing helps when the next solves share
    /// nothing with the last ones (another world, another deal), so that old entries do not
    /// hold the slots.
    pub fn clear(&mut self) {
        self.plain_table.clear();
        if self.epoch == u16::MAX {
            self.table.fill(Bucket::default());
            self.epoch = 0;
        }
        self.epoch += 1;
    }

    /// Checks that `state` can be solved under `rules`, and clears the table if the rules
    /// changed (entries are values under the rules they were computed with).
    fn prepare(&mut self, rules: &Rules, state: &State) -> Result<(), Error> {
        if state.hand_over() {
            return Err(Error::IllegalMove(
                "the hand is over: nothing to solve".to_string(),
            ));
        }
        if state.num_players() != rules.num_players() {
            return Err(Error::Position(format!(
                "the state is for {} players, the rules for {}",
                state.num_players(),
                rules.num_players()
            )));
        }
        if self.rules.as_ref() != Some(rules) {
            self.clear();
            self.rules = Some(rules.clone());
            self.fast = solver_shortcuts_exact(rules);
            self.pile_memo.clear();
        }
        if self.plain_table.len() > PLAIN_TT_MAX {
            self.plain_table.clear();
        }
        self.begin(state);
        Ok(())
    }

    /// The exact value of `state` for the side to move, and of every legal move.
    pub fn solve(&mut self, rules: &Rules, state: &State) -> Result<Solution, Error> {
        self.prepare(rules, state)?;
        self.start_plain();
        if !self.fast {
            let solution = self.plain_solve(rules, state);
            return self.end_plain().map(|()| solution);
        }
        let start = self.nodes;
        let me = Rules::side(state.to_move().expect("the hand is not over"));
        let past = sweep_diff(state.sweeps(), me);
        let salt = stock_hash(state);
        let mut moves = Vec::new();
        state.legal_moves(rules, &mut moves);
        let mut move_values = Vec::with_capacity(moves.len());
        let mut guess = self.guess(rules, state, salt);
        for &mv in &moves {
            let v = self.move_value(rules, state, mv, salt, me, &mut guess);
            move_values.push((mv, past + v));
            if self.plain_aborted {
                break;
            }
        }
        self.end_plain()?;
        let value = move_values
            .iter()
            .map(|&(_, v)| v)
            .max()
            .expect("a hand in play has a legal move");
        Ok(Solution {
            value,
            move_values,
            nodes: self.nodes - start,
        })
    }

    /// The exact value of `state` for the side to move: `solve(..).value`, found by narrow-window
    /// searches of the root alone (MTD(f)), without the value of every move.
    pub fn value(&mut self, rules: &Rules, state: &State) -> Result<i32, Error> {
        self.prepare(rules, state)?;
        self.start_plain();
        if !self.fast {
            let value = self.plain(rules, state, -PLAIN_INF, PLAIN_INF, 0);
            return self.end_plain().map(|()| value);
        }
        let me = Rules::side(state.to_move().expect("the hand is not over"));
        let past = sweep_diff(state.sweeps(), me);
        let salt = stock_hash(state);
        let guess = self.guess(rules, state, salt);
        let value = past + self.mtdf(rules, state, salt, guess);
        self.end_plain().map(|()| value)
    }

    /// The future value of playing `mv` at `state` for the side `me` (sweeps from `mv` on).
    fn move_value(
        &mut self,
        rules: &Rules,
        state: &State,
        mv: Move,
        salt: u64,
        me: usize,
        guess: &mut i32,
    ) -> i32 {
        self.nodes += 1;
        let mut child = *state;
        child.apply_unchecked(rules, mv);
        let gain = sweep_gain(state, &child, me);
        if child.hand_over() {
            return gain + terminal(rules, &child, me);
        }
        let salt = if mv.kind() == MoveKind::Play {
            salt
        } else {
            stock_hash(&child)
        };
        let same = Rules::side(child.to_move().expect("in play")) == me;
        // The guess is for the child's side; the previous move's value is a good one.
        let g = if same { *guess - gain } else { gain - *guess };
        let c = self.mtdf(rules, &child, salt, g);
        let v = if same { gain + c } else { gain - c };
        *guess = v;
        v
    }

    /// The [`pile_key`] of `piles` at search depth `ply`, from the memo of the parent's depth or
    /// this one's when the piles are the same (the key is a function of the piles and the rules
    /// alone), else computed and kept.
    fn pile_key_at(&mut self, rules: &Rules, piles: [CardSet; 2], ply: usize) -> u64 {
        let bits = [piles[0].0, piles[1].0];
        if self.pile_memo.len() <= ply {
            // No card set has every bit: the filler matches no piles.
            self.pile_memo.resize(ply + 1, ([u64::MAX; 2], 0));
        }
        let memo = &mut self.pile_memo;
        let key = match ply.checked_sub(1).map(|up| memo[up]) {
            Some((at, key)) if at == bits => key,
            _ if memo[ply].0 == bits => memo[ply].1,
            _ => pile_key(rules, piles),
        };
        memo[ply] = (bits, key);
        key
    }

    /// A first guess of the future value of `state` for MTD(f): a bound the table holds for it,
    /// else the categories its side to move leads.
    fn guess(&self, rules: &Rules, state: &State, salt: u64) -> i32 {
        if state.phase() == Phase::Cut {
            return 0;
        }
        match self.probe(position_key(rules, state, salt)) {
            Some(e) if e.lower > -INF as i8 => i32::from(e.lower),
            Some(e) if e.upper < INF as i8 => i32::from(e.upper),
            _ => lead(rules, state),
        }
    }

    /// The exact value of `state` by MTD(f): a first search with the narrowest window that can
    /// prove a value, `(guess - 1, guess + 1)`, which settles it in one pass when the guess is
    /// right; then null-window searches that move a bound each pass until the bounds meet.
    fn mtdf(&mut self, rules: &Rules, state: &State, salt: u64, guess: i32) -> i32 {
        let g = guess.clamp(-INF + 1, INF - 1);
        let v = self.search(rules, state, salt, g - 1, g + 1, 0);
        if v == g {
            return v;
        }
        // Fail-soft: `v` is an upper bound below the window, a lower bound above it.
        let (mut lo, mut hi) = if v < g { (-INF, v) } else { (v, INF) };
        let mut g = v;
        while lo < hi && !self.plain_aborted {
            let beta = if g == lo { g + 1 } else { g };
            g = self.search(rules, state, salt, beta - 1, beta, 0);
            if g < beta {
                hi = g;
            } else {
                lo = g;
            }
        }
        g
    }

    /// Sizes the part of the table this solve starts with to the search ahead, from below
    /// (measured: about 35 nodes with 6 cards left, 700 with 18, 25 000 from the deal of a
    /// 2-player hand, each third of a round multiplying them by about 2; hands of nine or ten
    /// cards far more). A small search then keeps its entries in a few cache lines instead of
    /// one line per node scattered over a large table; a search that fills its part doubles it
    /// ([`Solver::grow`]), so a large one gets the table it needs.
    fn begin(&mut self, state: &State) {
        // About twice the nodes expected, and no more than 16K entries (256 KiB, within the
        // L2 cache) to start with: a whole 2-player hand solved faster from 16K entries than
        // from 128K with the same node count, its entries packed closer.
        let entries_log2 = (5 + state.cards_left() / 3).min(14);
        let want = 1usize << entries_log2;
        self.active = (want / WAYS).clamp(1, self.capacity);
        if self.table.len() < self.active {
            // Grown in place: the entries already stored stay where they are, and stay exact
            // (a probe checks the whole key), though a solve with a wider mask looks for them
            // in other buckets.
            self.table.resize(self.active, Bucket::default());
        }
        self.fill = 0;
        self.generation = self.generation.wrapping_add(1);
    }

    /// Doubles the part of the table in use, mid-search: an entry of bucket `b` whose key has
    /// the new mask bit moves to `b + active`, where probes under the wider mask look for it.
    /// (An entry of an earlier solve under a still wider mask already sits where the new mask
    /// puts it.) Entries keep their bounds: a search may go on across a doubling.
    fn grow(&mut self) {
        let old = self.active;
        if self.table.len() < 2 * old {
            self.table.resize(2 * old, Bucket::default());
        }
        let epoch = self.epoch;
        for b in 0..old {
            for w in 0..WAYS {
                let e = self.table[b].0[w];
                if e.epoch == epoch && e.key != 0 && (e.key >> 32) as usize & old != 0 {
                    self.table[b].0[w] = Entry::default();
                    let ways = &mut self.table[b + old].0;
                    let slot = victim(ways, epoch, self.generation);
                    ways[slot] = e;
                }
            }
        }
        self.active = 2 * old;
    }

    fn bucket(&self, key: u64) -> usize {
        // The high half of the key picks the bucket; the whole key is checked.
        (key >> 32) as usize & (self.active - 1)
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let epoch = self.epoch;
        self.table[self.bucket(key)]
            .0
            .iter()
            .find(|e| e.key == key && e.epoch == epoch)
            .copied()
    }

    fn store(&mut self, key: u64, lower: i32, upper: i32, best: u8, left: u32) {
        let b = self.bucket(key);
        let (epoch, generation) = (self.epoch, self.generation);
        let ways = &mut self.table[b].0;
        let (mut lower, mut upper) = (lower, upper);
        let slot = if let Some(i) = ways.iter().position(|e| e.key == key && e.epoch == epoch) {
            // The same position: both bounds stay true, keep the tighter of each.
            lower = lower.max(i32::from(ways[i].lower));
            upper = upper.min(i32::from(ways[i].upper));
            i
        } else {
            let i = victim(ways, epoch, generation);
            if ways[i].epoch != epoch || ways[i].generation != generation {
                self.fill += 1;
            }
            i
        };
        ways[slot] = Entry {
            key,
            lower: lower as i8,
            upper: upper as i8,
            best,
            left: left as u8,
            epoch,
            generation,
        };
        if self.fill > self.active * WAYS && self.active < self.capacity {
            // As many entries of this solve as slots: the search outgrew its part.
            self.grow();
        }
    }

    /// Fail-soft alpha-beta: the future value of `state` for its side to move if it lies in
    /// `(alpha, beta)`, else a bound on the side of the window it fell.
    fn search(
        &mut self,
        rules: &Rules,
        state: &State,
        salt: u64,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes > self.plain_stop && self.poll() {
            // Past the node limit or interrupted: unwind, storing nothing (`Solver::end_plain`
            // reports it).
            return 0;
        }
        let me = Rules::side(state.to_move().expect("the hand is not over"));
        let left = state.cards_left();
        match left {
            1 => return final_play(rules, state, me),
            2 if state.phase() == Phase::Play => return last_two(rules, state, me),
            _ => {}
        }
        let key = (left >= TT_MIN_LEFT && state.phase() != Phase::Cut)
            .then(|| keyed(state, salt, self.pile_key_at(rules, state.piles(), ply)));
        let mut tt_best = NO_MOVE;
        if let Some(key) = key
            && let Some(e) = self.probe(key)
        {
            if let Some(v) = use_bounds(
                i32::from(e.lower),
                i32::from(e.upper),
                &mut alpha,
                &mut beta,
            ) {
                return v;
            }
            tt_best = e.best;
        }
        if self.buffers.len() <= ply {
            self.buffers.push(Vec::with_capacity(32));
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        generate(rules, state, &mut moves);
        if let Some(m) = moves.get_mut(usize::from(tt_best)) {
            m.0 = i32::MAX;
        }
        // Few moves: an insertion sort, best score first.
        for i in 1..moves.len() {
            let mut j = i;
            while j > 0 && moves[j - 1].0 < moves[j].0 {
                moves.swap(j - 1, j);
                j -= 1;
            }
        }

        // The window the children are searched in, for classifying the result below.
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_i = NO_MOVE;
        for &(_, i, mv) in &moves {
            let mut child = *state;
            child.apply_unchecked(rules, mv);
            let gain = sweep_gain(state, &child, me);
            let v = if child.hand_over() {
                self.nodes += 1;
                gain + terminal(rules, &child, me)
            } else {
                let salt = if mv.kind() == MoveKind::Play {
                    salt
                } else {
                    stock_hash(&child)
                };
                if Rules::side(child.to_move().expect("in play")) == me {
                    gain + self.search(rules, &child, salt, alpha - gain, beta - gain, ply + 1)
                } else {
                    gain - self.search(rules, &child, salt, gain - beta, gain - alpha, ply + 1)
                }
            };
            if v > best {
                best = v;
                best_i = i;
                if v > alpha {
                    alpha = v;
                }
                if v >= beta {
                    break;
                }
            }
        }
        self.buffers[ply] = moves;
        if self.plain_aborted {
            return 0;
        }
        if let Some(key) = key {
            // Fail-soft: above the window a lower bound, below it an upper bound, inside exact.
            let (lo, hi) = if best >= beta {
                (best, INF)
            } else if best <= alpha0 {
                (-INF, best)
            } else {
                (best, best)
            };
            self.store(key, lo, hi, best_i, left);
        }
        best
    }
}

// ----- the plain search, exact for every variant -----

/// Bound of the plain search's values (hand points can reach hundreds with bonuses).
const PLAIN_INF: i32 = 1 << 24;
/// Entries of the plain search's table past which it is emptied between solves.
const PLAIN_TT_MAX: usize = 1 << 22;

/// Nodes one search may visit before it gives up with an error (some seconds): without the
/// shortcuts, an early position of a variant with optional capture is beyond exact search, and
/// so is an early position of Scopone's nine- or ten-card hands with them; a solve must end
/// rather than run for hours. A 4-player hand of three-card rounds takes at most a few million
/// from its deal.
pub const PLAIN_NODE_LIMIT: u64 = 30_000_000;

impl Solver {
    /// Sets how many nodes one search may visit before it gives up with an error (default
    /// [`PLAIN_NODE_LIMIT`]).
    pub fn set_plain_node_limit(&mut self, nodes: u64) {
        self.plain_limit = nodes;
    }

    /// Stops the solves that follow when `interrupt` says so: a solve that it stops fails with
    /// [`Error::Stopped`], having stored only exact entries. It stays set until the next call.
    pub fn set_interrupt(&mut self, interrupt: Interrupt) {
        self.interrupt = interrupt;
    }

    /// Runs `query` (solves with this solver) under `interrupt`, then without one.
    pub fn until<T>(&mut self, interrupt: Interrupt, query: impl FnOnce(&mut Solver) -> T) -> T {
        self.set_interrupt(interrupt);
        let out = query(self);
        self.set_interrupt(Interrupt::default());
        out
    }

    fn start_plain(&mut self) {
        self.node_stop = self.nodes.saturating_add(self.plain_limit);
        // With an interrupt the first node looks at it already.
        self.plain_stop = if self.interrupt.is_armed() {
            self.nodes
        } else {
            self.node_stop
        };
        self.plain_aborted = false;
        self.interrupted = false;
    }

    /// Called when the node count passes `plain_stop`: whether the search must unwind (past the
    /// node limit, interrupted, or already unwinding); if not, when to look again.
    #[cold]
    fn poll(&mut self) -> bool {
        if !self.plain_aborted {
            let node_end = self.interrupt.node_end.unwrap_or(u64::MAX);
            if self.nodes > node_end || self.interrupt.due() {
                self.plain_aborted = true;
                self.interrupted = true;
            } else if self.nodes > self.node_stop {
                self.plain_aborted = true;
            } else if self.interrupt.is_armed() {
                self.plain_stop = self.node_stop.min(self.nodes + POLL_NODES).min(node_end);
            } else {
                self.plain_stop = self.node_stop;
            }
        }
        if self.plain_aborted {
            // Every node from here on comes back here, and unwinds.
            self.plain_stop = 0;
        }
        self.plain_aborted
    }

    fn end_plain(&mut self) -> Result<(), Error> {
        self.plain_stop = u64::MAX;
        if self.plain_aborted {
            self.plain_aborted = false;
            if std::mem::take(&mut self.interrupted) {
                return Err(Error::Stopped(
                    "the solve was stopped (a time limit, a stop or a node budget) before it ended"
                        .to_string(),
                ));
            }
            let why = if self.fast {
                ""
            } else {
                " without the shortcuts of the default rules"
            };
            return Err(Error::TooLarge(format!(
                "this position is too large for the exact solver under these rules (more than \
                 {} nodes{why}): solve a later position",
                self.plain_limit
            )));
        }
        Ok(())
    }

    /// [`Solver::solve`] by the plain search: every move's exact value.
    fn plain_solve(&mut self, rules: &Rules, state: &State) -> Solution {
        let start = self.nodes;
        let me = Rules::side(state.to_move().expect("the hand is not over"));
        let mut moves = Vec::new();
        state.legal_moves(rules, &mut moves);
        let move_values: Vec<(Move, i32)> = moves
            .iter()
            .map(|&mv| {
                self.nodes += 1;
                let mut child = *state;
                child.apply_unchecked(rules, mv);
                let v = if child.hand_over() {
                    child.hand_margin(rules, me).expect("the hand is over")
                } else if Rules::side(child.to_move().expect("in play")) == me {
                    self.plain(rules, &child, -PLAIN_INF, PLAIN_INF, 1)
                } else {
                    -self.plain(rules, &child, -PLAIN_INF, PLAIN_INF, 1)
                };
                (mv, v)
            })
            .collect();
        let value = move_values
            .iter()
            .map(|&(_, v)| v)
            .max()
            .expect("a hand in play has a legal move");
        Solution {
            value,
            move_values,
            nodes: self.nodes - start,
        }
    }

    /// Fail-soft alpha-beta over the state's own moves: the hand's value (points of the side to
    /// move minus the other side's at the end of the hand, everything included) if it lies in
    /// `(alpha, beta)`, else a bound on the side of the window it fell.
    fn plain(
        &mut self,
        rules: &Rules,
        state: &State,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes > self.plain_stop && self.poll() {
            return 0;
        }
        let me = Rules::side(state.to_move().expect("the hand is not over"));
        let key = state_key(state);
        if let Some(&(lo, hi)) = self.plain_table.get(&key)
            && let Some(v) = use_bounds(lo, hi, &mut alpha, &mut beta)
        {
            return v;
        }
        if self.plain_buffers.len() <= ply {
            self.plain_buffers.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.plain_buffers[ply]);
        let mut legal = Vec::new();
        state.legal_moves(rules, &mut legal);
        let table = state.table();
        moves.clear();
        moves.extend(legal.iter().map(|&mv| (order_score(rules, mv, table), mv)));
        moves.sort_by_key(|m| std::cmp::Reverse(m.0));
        let alpha0 = alpha;
        let mut best = -PLAIN_INF;
        for &(_, mv) in &moves {
            let mut child = *state;
            child.apply_unchecked(rules, mv);
            let v = if child.hand_over() {
                self.nodes += 1;
                child.hand_margin(rules, me).expect("the hand is over")
            } else if Rules::side(child.to_move().expect("in play")) == me {
                self.plain(rules, &child, alpha, beta, ply + 1)
            } else {
                -self.plain(rules, &child, -beta, -alpha, ply + 1)
            };
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        self.plain_buffers[ply] = moves;
        if self.plain_aborted {
            return 0; // Values below are meaningless: store nothing.
        }
        let bounds = if best >= beta {
            (best, PLAIN_INF)
        } else if best <= alpha0 {
            (-PLAIN_INF, best)
        } else {
            (best, best)
        };
        let e = self
            .plain_table
            .entry(key)
            .or_insert((-PLAIN_INF, PLAIN_INF));
        *e = (e.0.max(bounds.0), e.1.min(bounds.1));
        best
    }
}

/// Ordering score of any legal move for the plain search: captures as [`capture_score`], then
/// the rest (trails, cut decisions, claims) cheapest first.
fn order_score(rules: &Rules, mv: Move, table: CardSet) -> i32 {
    if mv.kind() == MoveKind::Play && !mv.captures().is_empty() {
        capture_score(mv.card(), mv.captures(), table)
    } else if mv.kind() == MoveKind::Play {
        trail_score(rules, mv.card())
    } else {
        0
    }
}

/// A 64-bit key of the whole state (every field: exact, up to a 64-bit collision).
fn state_key(state: &State) -> u64 {
    use std::hash::Hash;
    let mut h = KeyHasher(0x5EED_0F5E_A2C4_0001);
    state.hash(&mut h);
    mix(h.0)
}

/// A fast hasher for [`state_key`]: each word is folded in with a multiply.
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517C_C1B7_2722_0A95);
    }

    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }

    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

/// Sweeps of side `me` minus the other side's.
fn sweep_diff(sweeps: [u8; 2], me: usize) -> i32 {
    i32::from(sweeps[me]) - i32::from(sweeps[1 - me])
}

/// The sweep points side `me` gained minus those the other side gained from `before` to
/// `after`.
fn sweep_gain(before: &State, after: &State, me: usize) -> i32 {
    sweep_diff(after.sweeps(), me) - sweep_diff(before.sweeps(), me)
}

/// Category points of side `me` minus the other side's, in a finished hand.
fn terminal(rules: &Rules, state: &State, me: usize) -> i32 {
    category_diff(rules, state.piles()[me], rules.prime_category())
}

/// The future value of the last play of the hand for the side `me` making it: the sweep it may
/// score and the categories once the leftovers are taken (G7). The same as applying each of the
/// card's moves and scoring the hand, without building the states.
fn final_play(rules: &Rules, state: &State, me: usize) -> i32 {
    let card = state.hand(state.to_move().expect("in play")).first();
    let last_is_me = state.last_capturer().map(Rules::side) == Some(me);
    last_card(
        rules,
        card.expect("the last card"),
        state.table(),
        state.pile(me),
        last_is_me,
    )
}

/// The future value of playing the hand's last `card` onto `table` for the side that plays it,
/// whose pile is `pile`; `last_is_mover` says whether that side captured last.
fn last_card(rules: &Rules, card: Card, table: CardSet, pile: CardSet, last_is_mover: bool) -> i32 {
    let mut captures = false;
    let mut sweeps = false;
    rules.for_each_capture(&TableIndex::new(rules, table), card, &mut |caps| {
        captures = true;
        sweeps |= caps == table;
    });
    let prime = rules.prime_category();
    let mine = pile | CardSet::single(card);
    if captures {
        // Every capture ends the same: the capturer captured last, so takes the leftovers too;
        // only a sweep (the table's only capture when it exists, I1) can add a point.
        let sweep = sweeps && rules.options().last_play_sweep == LastPlaySweep::Counts;
        category_diff(rules, mine | table, prime) + i32::from(sweep)
    } else if last_is_mover {
        // A trail: the leftovers, this card among them, go to the last capturer (G7; I4: there
        // is one by now).
        category_diff(rules, mine | table, prime)
    } else {
        category_diff(rules, pile, prime)
    }
}

/// The future value of the last two plays of the hand for the side `me` making the first: the
/// seat to move and the next (on the other side) hold one card each. The same as searching
/// the two plays with states, without building them.
fn last_two(rules: &Rules, state: &State, me: usize) -> i32 {
    let seat = state.to_move().expect("in play");
    // The other seat holding a card plays next (the next seat, in either direction).
    let next = (0..state.num_players())
        .find(|&s| s != seat && !state.hand(s).is_empty())
        .unwrap_or(seat);
    debug_assert_ne!(
        Rules::side(next),
        me,
        "the last two cards are on both sides"
    );
    let (Some(mine), Some(theirs)) = (state.hand(seat).first(), state.hand(next).first()) else {
        unreachable!("two cards left: one with the seat to move, one with the next");
    };
    let table = state.table();
    let their_pile = state.pile(1 - me);
    let mut best = -INF;
    let mut captures = false;
    rules.for_each_capture(&TableIndex::new(rules, table), mine, &mut |caps| {
        captures = true;
        // Not the last play: a sweep scores. We captured last, not they.
        let sweep = i32::from(caps == table);
        best = best.max(sweep - last_card(rules, theirs, table - caps, their_pile, false));
    });
    if !captures {
        let last_is_them = state.last_capturer().map(Rules::side) == Some(1 - me);
        let rest = table | CardSet::single(mine);
        best = -last_card(rules, theirs, rest, their_pile, last_is_them);
    }
    best
}

/// The categories the side to move leads now, minus those the other side leads: a first guess
/// of the future value.
fn lead(rules: &Rules, state: &State) -> i32 {
    let me = Rules::side(state.to_move().expect("in play"));
    let (a, b) = (state.pile(me), state.pile(1 - me));
    let sign = |x: u32, y: u32| i32::from(x > y) - i32::from(x < y);
    let primiera = |p: CardSet| {
        let codes = best_codes(p);
        (0..4)
            .map(|s| u32::from(CODE_POINTS[((codes >> (4 * s)) & 0xF) as usize]))
            .sum::<u32>()
    };
    let sevens = CardSet::rank(Rank::SEVEN.index());
    sign(a.len(), b.len())
        + sign((a & CardSet::COINS).len(), (b & CardSet::COINS).len())
        + i32::from(a.contains(Card::SEVEN_OF_COINS))
        - i32::from(b.contains(Card::SEVEN_OF_COINS))
        + match rules.prime_category() {
            PrimeCategory::Primiera => sign(primiera(a), primiera(b)),
            PrimeCategory::Bermila => sign((a & sevens).len(), (b & sevens).len()),
        }
}

/// Primiera points by best-card code (see `best_codes`).
const CODE_POINTS: [u16; 9] = [0, 10, 12, 13, 14, 15, 16, 18, 21];

/// Category points of the side holding `pile` minus the other side's, at the end of a hand
/// (the other side holds every other card). Agrees with [`Rules::score`] without sweeps.
fn category_diff(rules: &Rules, pile: CardSet, prime: PrimeCategory) -> i32 {
    let other = !pile;
    let majority = |a: u32, b: u32| i32::from(a > b) - i32::from(a < b);
    let mut d = majority(pile.len(), other.len())
        + majority(
            (pile & CardSet::COINS).len(),
            (other & CardSet::COINS).len(),
        );
    d += if pile.contains(Card::SEVEN_OF_COINS) {
        1
    } else {
        -1
    };
    d + match prime {
        PrimeCategory::Primiera => {
            let total = |p: CardSet| {
                let codes = best_codes(p);
                let mut sum = 0u16;
                let mut missing = false;
                for suit in 0..4 {
                    let c = (codes >> (4 * suit)) & 0xF;
                    missing |= c == 0;
                    sum += CODE_POINTS[c as usize];
                }
                if missing && rules.options().primiera_missing_suit == MissingSuit::Invalid {
                    0
                } else {
                    u32::from(sum) + 1
                }
            };
            // 0 stands for an invalid primiera, which any valid one beats.
            majority(total(pile), total(other))
        }
        PrimeCategory::Bermila => {
            let sevens = CardSet::rank(Rank::SEVEN.index());
            let sixes = CardSet::rank(Rank::SIX.index());
            match majority((pile & sevens).len(), (other & sevens).len()) {
                0 => majority((pile & sixes).len(), (other & sixes).len()),
                x => x,
            }
        }
    }
}

/// A move with its ordering score and its index in generation order (what the table stores).
type Scored = (i32, u8, Move);

/// The legal moves of `state` with their ordering scores, in an order that depends only on the
/// position (the hand, then each card's captures as the table index lists them), so that an
/// index stored in the table names the same move when the position comes back.
fn generate(rules: &Rules, state: &State, out: &mut Vec<Scored>) {
    out.clear();
    let seat = state.to_move().expect("in play");
    if state.phase() == Phase::Cut {
        let card = state.cut_card().expect("the cut phase has a cut card");
        out.push((0, 0, Move::cut(card, true)));
        out.push((0, 1, Move::cut(card, false)));
        return;
    }
    let table = state.table();
    let index = TableIndex::new(rules, table);
    for card in state.hand(seat) {
        let start = out.len();
        rules.for_each_capture(&index, card, &mut |caps| {
            // Past 254 moves (never seen) indices repeat: only the ordering hint suffers.
            let i = out.len().min(254) as u8;
            out.push((capture_score(card, caps, table), i, Move::play(card, caps)));
        });
        if out.len() == start {
            let i = out.len().min(254) as u8;
            out.push((
                trail_score(rules, card),
                i,
                Move::play(card, CardSet::EMPTY),
            ));
        }
    }
}

/// Ordering score of a capture: a sweep first, then by what it takes (the seven of coins,
/// coins, sevens, cards).
fn capture_score(card: Card, caps: CardSet, table: CardSet) -> i32 {
    let taken = caps | CardSet::single(card);
    let mut s = 10 * taken.len() as i32 + 20 * (taken & CardSet::COINS).len() as i32;
    if taken.contains(Card::SEVEN_OF_COINS) {
        s += 100;
    }
    s += 15 * (taken & CardSet::rank(Rank::SEVEN.index())).len() as i32;
    if caps == table {
        s += 1000;
    }
    s
}

/// Ordering score of a trail: after every capture, the cheapest card first (low value, not a
/// coin or a seven, above all not the seven of coins).
fn trail_score(rules: &Rules, card: Card) -> i32 {
    let mut cost = i32::from(rules.value(card));
    if CardSet::COINS.contains(card) {
        cost += 10;
    }
    if card == Card::SEVEN_OF_COINS {
        cost += 50;
    }
    if card.rank() == Rank::SEVEN {
        cost += 10;
    }
    -1000 - cost
}

// ----- keys -----

/// A strong 64-bit mixer (the `SplitMix64` finalizer): every input bit moves every output bit.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A hash of the stock in deal order. Within a search the stock only shrinks from the front, so
/// this and the number of cards dealt from it name the remaining stock exactly.
fn stock_hash(state: &State) -> u64 {
    let mut h = 0x5EED_57C0_C4A5_E5ED ^ state.stock().len() as u64;
    for chunk in state.stock().chunks(8) {
        let mut w = 0u64;
        for (i, c) in chunk.iter().enumerate() {
            w |= u64::from(c.id() + 1) << (8 * i);
        }
        h = mix(h ^ w);
    }
    h
}

/// Per suit (nibble `s`), a code of the best primiera card of `pile` in that suit: 8 for a
/// seven, 7 a six, 6 an ace, 5..2 for five down to two, 1 a figure, 0 none. Equal codes are
/// equal primiera points, so the code is all the primiera can ever read of the suit.
fn best_codes(pile: CardSet) -> u64 {
    // One byte per suit from the chart walk, packed into one nibble per suit.
    let b = u64::from(suit_best::<true>(pile, &CODES));
    (b & 0xF) | ((b >> 4) & 0xF0) | ((b >> 8) & 0xF00) | ((b >> 12) & 0xF000)
}

/// The primiera code of each rank (see [`best_codes`]), as the weights of [`suit_best`].
const CODES: [u32; NUM_RANKS] = [6, 2, 3, 4, 5, 7, 8, 1, 1, 1];

/// What scoring can still read of the two piles, given which cards are still live (fixed by the
/// rest of the key): see the module doc.
fn pile_key(rules: &Rules, piles: [CardSet; 2]) -> u64 {
    let [a, b] = piles;
    let cards = match (a.len(), b.len()) {
        (x, _) if x > 20 => 63,
        (_, y) if y > 20 => 62,
        (x, _) => u64::from(x),
    };
    let (ca, cb) = ((a & CardSet::COINS).len(), (b & CardSet::COINS).len());
    let coins = match (ca, cb) {
        (x, _) if x > 5 => 15,
        (_, y) if y > 5 => 14,
        (x, _) => u64::from(x),
    };
    let settebello = if a.contains(Card::SEVEN_OF_COINS) {
        1
    } else if b.contains(Card::SEVEN_OF_COINS) {
        2
    } else {
        0
    };
    let prime = match rules.prime_category() {
        PrimeCategory::Primiera => best_codes(a) | best_codes(b) << 16,
        PrimeCategory::Bermila => {
            let sevens = CardSet::rank(Rank::SEVEN.index());
            let sixes = CardSet::rank(Rank::SIX.index());
            // Three of the four sevens win the bermila whatever happens next.
            match ((a & sevens).len(), (b & sevens).len()) {
                (x, _) if x >= 3 => 1 << 8,
                (_, y) if y >= 3 => 2 << 8,
                (x, _) => u64::from(x) | u64::from((a & sixes).len()) << 4,
            }
        }
    };
    cards | coins << 6 | settebello << 10 | prime << 12
}

/// The transposition key of a position in play (never 0).
fn position_key(rules: &Rules, state: &State, salt: u64) -> u64 {
    keyed(state, salt, pile_key(rules, state.piles()))
}

/// [`position_key`] with the piles' part given (`pile_key` of the state's piles).
fn keyed(state: &State, salt: u64, piles: u64) -> u64 {
    let last = state.last_capturer().map_or(2, Rules::side) as u64;
    let meta = state.stock().len() as u64
        | u64::from(state.to_move().unwrap_or(0)) << 6
        | u64::from(state.dealer()) << 8
        | last << 10;
    // Card masks use 40 bits: the small fields ride above the table's.
    let table = state.table().0 | meta << 40;
    // Independent 128-bit products, folded (as wyhash does), then one mix: the products run in
    // parallel where a chain of mixes would wait on each other. The odd constants keep every
    // factor non-zero (a mask is below 2^52, the constants above).
    let mut h = salt
        ^ mum(state.hand(0).0 ^ K[0], state.hand(1).0 ^ K[1])
        ^ mum(table ^ K[2], piles ^ K[3]);
    if state.num_players() == 4 {
        h ^= mum(state.hand(2).0 ^ K[4], state.hand(3).0 ^ K[5]);
    }
    mix(h) | 1
}

/// Multiplier constants (the digits of pi, odd, high bits set).
const K: [u64; 6] = [
    0x243F_6A88_85A3_08D3,
    0x1319_8A2E_0370_7345,
    0xA409_3822_299F_31D1,
    0x082E_FA98_EC4E_6C89,
    0x4528_21E6_38D0_1377,
    0xBE54_66CF_34E9_0C6D,
];

/// The 128-bit product of `a` and `b`, its halves xored.
#[inline]
fn mum(a: u64, b: u64) -> u64 {
    let r = u128::from(a) * u128::from(b);
    (r as u64) ^ ((r >> 64) as u64)
}

/// A stored bound pair `lo..=hi` of a position against the window `alpha..beta`: the value when
/// the bounds settle it, else `None` with the window narrowed to them.
fn use_bounds(lo: i32, hi: i32, alpha: &mut i32, beta: &mut i32) -> Option<i32> {
    if lo >= *beta || lo == hi {
        return Some(lo);
    }
    if hi <= *alpha {
        return Some(hi);
    }
    *alpha = (*alpha).max(lo);
    *beta = (*beta).min(hi);
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::Rng;
    use crate::game::rules::{Game, OptionValue, Options};

    #[test]
    fn category_diff_agrees_with_the_scoring() {
        let mut rng = Rng::new(17);
        let mut zero = Options::new(Game::Scopa, 2);
        zero.set("primiera_missing_suit", &OptionValue::Str("zero".into()))
            .unwrap();
        let all = [
            Rules::profile(Game::Scopa, 2).unwrap(),
            Rules::profile(Game::Escoba, 2).unwrap(),
            Rules::profile(Game::Chkobba, 2).unwrap(),
            Rules::new(zero).unwrap(),
        ];
        for rules in &all {
            for _ in 0..20_000 {
                // Piles of every size, suits often missing.
                let keep = rng.below(41);
                let pile: CardSet = rng.shuffled_deck()[..keep as usize]
                    .iter()
                    .copied()
                    .collect();
                let p = rules.score([pile, !pile], [0, 0], [0, 0]).points;
                let want = p[0] as i32 - p[1] as i32;
                assert_eq!(
                    category_diff(rules, pile, rules.prime_category()),
                    want,
                    "{pile}"
                );
                assert_eq!(category_diff(rules, !pile, rules.prime_category()), -want);
            }
        }
    }
}
