//! Bots: players that choose a move from what their seat can see.
//!
//! A bot gets the seat's [`View`] (through a [`LazyView`], built only if the bot reads it) and
//! the legal moves (which the view determines), never the [`State`]: hidden cards
//! cannot leak into its choice. (In simulations the uniform bots draw from the state directly,
//! through `State::pick_move` and `pick_card_move`, which read only the mover's hand, the table
//! and the claimable card.) A bot built with a seed is
//! deterministic: its random draws only break ties, and they come from its own [`Rng`].
//!
//! - [`RandomBot`], [`RandomCardBot`]: uniform baselines.
//! - [`GreedyBot`]: the best immediate gain of the move, in integer weights, minus a penalty for
//!   leaving the next player a sweep. Cheap enough for bulk simulation (well under a
//!   microsecond a decision, no allocation).
//! - [`ExpertBot`]: values moves in expected points. Each category is scored as the chance of
//!   winning it given the piles and the cards still out, so a category that is decided stops
//!   mattering; the next opponent's best reply is weighed by the chance that they hold each
//!   capture value (card counting from [`View::unseen`]); and in the last round of a 2-player
//!   hand, where every card is known, it searches the rest of the hand exactly.

use crate::action::{Move, MoveKind};
use crate::capture::TableIndex;
use crate::card::{Card, NUM_CARDS, NUM_SUITS, Rank, Suit, suit_bytes};
use crate::cardset::CardSet;
use crate::error::Error;
use crate::observe::{LazyView, View};
use crate::rng::Rng;
use crate::score::PRIMIERA_POINTS;
use crate::state::State;
use crate::variant::{CaptureMode, LastPlaySweep, PrimeCategory, Rules};

/// A player.
pub trait Bot: Send {
    /// Chooses one of `legal` (never empty) for the seat of `view`. A bot that needs what the
    /// seat sees calls [`LazyView::get`]; one that chooses from `legal` alone never builds it.
    ///
    /// `legal` must be the legal moves of the view's position under `rules`, the rules its
    /// state was made with (as a simulation passes them). The built-in bots may panic on a view
    /// and a move list that contradict each other.
    fn choose(&mut self, rules: &Rules, view: &LazyView<'_>, legal: &[Move]) -> Move;
}

/// The built-in bots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotKind {
    /// Uniform over all legal moves.
    Random,
    /// Uniform over the cards in hand, then uniform over that card's captures.
    RandomCard,
    /// Best immediate gain, with a penalty for leaving a sweep ([`GreedyBot`]).
    Greedy,
    /// Rule-based player with card counting and an exact last round ([`ExpertBot`]).
    Expert,
    /// Perfect-information Monte Carlo: sampled worlds, each searched to the end of the round
    /// ([`PimcBot`](crate::solve::PimcBot), [`PIMC_WORLDS`] worlds a decision).
    Pimc,
    /// Single-observer information set Monte Carlo tree search
    /// ([`IsmctsBot`](crate::ismcts::IsmctsBot), [`ISMCTS_ITERATIONS`] iterations a decision).
    Ismcts,
}

/// Worlds per decision of the built-in `pimc` bot.
pub const PIMC_WORLDS: u32 = 100;

/// Iterations per decision of the built-in `ismcts` bot.
pub const ISMCTS_ITERATIONS: u32 = crate::ismcts::DEFAULT_ITERATIONS;

impl BotKind {
    /// The built-in bots that decide in microseconds: every one but `pimc` and `ismcts`. Tests and
    /// benchmarks that run each bot over thousands of positions iterate over these.
    pub const ALL: [BotKind; 4] = [
        BotKind::Random,
        BotKind::RandomCard,
        BotKind::Greedy,
        BotKind::Expert,
    ];

    /// Every built-in bot: [`BotKind::ALL`], `pimc` and `ismcts`, whose decisions take
    /// milliseconds (a search per sampled world; thousands of tree-search iterations).
    pub const EVERY: [BotKind; 6] = [
        BotKind::Random,
        BotKind::RandomCard,
        BotKind::Greedy,
        BotKind::Expert,
        BotKind::Pimc,
        BotKind::Ismcts,
    ];

    /// The bot's name: `random`, `random_card`, `greedy`, `expert`, `pimc`, `ismcts`.
    pub fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::RandomCard => "random_card",
            BotKind::Greedy => "greedy",
            BotKind::Expert => "expert",
            BotKind::Pimc => "pimc",
            BotKind::Ismcts => "ismcts",
        }
    }

    /// Parses a bot name (any of [`BotKind::EVERY`]).
    pub fn from_name(name: &str) -> Result<BotKind, Error> {
        BotKind::EVERY
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = BotKind::EVERY.iter().map(|k| k.name()).collect();
                Error::Variant(format!(
                    "unknown bot (expected one of {}): {name}",
                    names.join(", ")
                ))
            })
    }

    /// A bot of this kind drawing from `seed`.
    pub fn build(self, seed: u64) -> Box<dyn Bot> {
        match SeatBot::of(self, seed) {
            SeatBot::Boxed(bot) => bot,
            bot => Box::new(bot),
        }
    }
}

/// A seat's bot in a simulation: a fast built-in bot ([`BotKind::ALL`]) held by value and
/// called without a virtual call, or any other bot boxed. A boxed bot built per hand, a virtual
/// call per move and the check of every move cost random play 6% of its instructions.
pub(crate) enum SeatBot {
    Random(RandomBot),
    RandomCard(RandomCardBot),
    Greedy(GreedyBot),
    Expert(ExpertBot),
    Boxed(Box<dyn Bot>),
}

impl SeatBot {
    /// The built-in bot `kind` drawing from `seed`: the fast ones by value, the search bots
    /// boxed.
    pub(crate) fn of(kind: BotKind, seed: u64) -> SeatBot {
        match kind {
            BotKind::Random => SeatBot::Random(RandomBot::new(seed)),
            BotKind::RandomCard => SeatBot::RandomCard(RandomCardBot::new(seed)),
            BotKind::Greedy => SeatBot::Greedy(GreedyBot::new(seed)),
            BotKind::Expert => SeatBot::Expert(ExpertBot::new(seed)),
            BotKind::Pimc => {
                SeatBot::Boxed(Box::new(crate::solve::PimcBot::new(PIMC_WORLDS, seed)))
            }
            BotKind::Ismcts => SeatBot::Boxed(Box::new(crate::ismcts::IsmctsBot::new(
                ISMCTS_ITERATIONS,
                seed,
            ))),
        }
    }

    /// Whether this is a boxed bot, not one of the fast built-in ones.
    pub(crate) fn is_boxed(&self) -> bool {
        matches!(self, SeatBot::Boxed(_))
    }

    /// The move of a bot that needs no list of legal moves, drawn from the state directly
    /// (`random`: [`State::pick_move`]; `random_card`: [`State::pick_card_move`]; the same
    /// draws and move as from the list); `None` for the others, and where those do not apply.
    #[inline]
    pub(crate) fn choose_unlisted(&mut self, rules: &Rules, state: &State) -> Option<Move> {
        match self {
            SeatBot::Random(b) => state.pick_move(rules, |n| b.rng.below(u64::from(n)) as u32),
            SeatBot::RandomCard(b) => {
                state.pick_card_move(rules, |n| b.rng.below(u64::from(n)) as u32)
            }
            _ => None,
        }
    }
}

impl Bot for SeatBot {
    #[inline]
    fn choose(&mut self, rules: &Rules, view: &LazyView<'_>, legal: &[Move]) -> Move {
        match self {
            SeatBot::Random(b) => b.choose(rules, view, legal),
            SeatBot::RandomCard(b) => b.choose(rules, view, legal),
            SeatBot::Greedy(b) => b.choose(rules, view, legal),
            SeatBot::Expert(b) => b.choose(rules, view, legal),
            SeatBot::Boxed(b) => b.choose(rules, view, legal),
        }
    }
}

/// Uniform over all legal moves.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: Rng,
}

impl RandomBot {
    /// A random bot drawing from `seed`.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: Rng::new(seed),
        }
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, _rules: &Rules, _view: &LazyView<'_>, legal: &[Move]) -> Move {
        legal[self.rng.below(legal.len() as u64) as usize]
    }
}

/// Uniform over the cards in hand, then over that card's captures: every card is equally likely
/// however many captures it has.
#[derive(Clone, Debug)]
pub struct RandomCardBot {
    rng: Rng,
}

impl RandomCardBot {
    /// A random-card bot drawing from `seed`.
    pub fn new(seed: u64) -> RandomCardBot {
        RandomCardBot {
            rng: Rng::new(seed),
        }
    }
}

impl Bot for RandomCardBot {
    fn choose(&mut self, _rules: &Rules, _view: &LazyView<'_>, legal: &[Move]) -> Move {
        // Legal moves are grouped by card (sorted by kind, then card): count the groups.
        let mut cards = legal.chunk_by(|a, b| a.card() == b.card() && a.kind() == b.kind());
        let n = cards.clone().count();
        let group = cards
            .nth(self.rng.below(n as u64) as usize)
            .expect("n groups");
        group[self.rng.below(group.len() as u64) as usize]
    }
}

// ----- shared helpers -----

/// Rank indices in decreasing primiera value: 7, 6, A, 5, 4, 3, 2, then the figures.
const PRIMIERA_ORDER: [usize; 10] = [6, 5, 0, 4, 3, 2, 1, 7, 8, 9];

/// Keeps the best of a stream of scored moves, breaking exact ties uniformly with the bot's
/// generator. Reservoir sampling needs no buffer, and draws only on a tie, so an untied
/// decision leaves the generator as it was.
pub(crate) struct Best<T> {
    score: T,
    ties: u64,
    pub(crate) choice: Move,
}

impl<T: PartialOrd + Copy> Best<T> {
    pub(crate) fn new(worst: T, first: Move) -> Self {
        Best {
            score: worst,
            ties: 0,
            choice: first,
        }
    }

    #[allow(
        clippy::needless_bitwise_bool,
        reason = "`&` and `|` keep the tests from becoming branches: whether a move beats the \
                  best so far is a coin toss to the branch predictor (greedy: 8% fewer \
                  mispredictions, callgrind --branch-sim)"
    )]
    pub(crate) fn offer(&mut self, rng: &mut Rng, score: T, mv: Move) {
        // Selects, not branches; only a tie branches, to draw.
        let better = (self.ties == 0) | (score > self.score);
        if !better & (score == self.score) {
            self.ties += 1;
            if rng.below(self.ties) == 0 {
                self.choice = mv;
            }
            return;
        }
        self.score = if better { score } else { self.score };
        self.ties = if better { 1 } else { self.ties };
        self.choice = if better { mv } else { self.choice };
    }
}

/// The Chkobba cut decision (K5), if `legal` is one: keep a card worth having in hand (a seven,
/// a six or a coin: bermila and dinari material, which the cutter then controls), table the rest.
/// The cutter leads, so a tabled card is first exposed to the cutter's own hand, and a four-card
/// opening table is rarely swept.
fn cut_decision(legal: &[Move]) -> Option<Move> {
    let first = *legal.first()?;
    if first.kind() == MoveKind::Play {
        return None;
    }
    let card = first.card();
    let keep = is_coin(card) || card.rank() == Rank::SEVEN || card.rank() == Rank::SIX;
    let want = if keep {
        MoveKind::KeepCut
    } else {
        MoveKind::TableCut
    };
    Some(
        legal
            .iter()
            .copied()
            .find(|m| m.kind() == want)
            .unwrap_or(first),
    )
}

/// Whether a sweep made when `left` cards remain to be played (this play included) scores:
/// under `last_play_sweep = void` the final play of the hand never does (S-A4, K11).
pub(crate) fn sweep_scores(rules: &Rules, left: u32) -> bool {
    !(left == 1 && rules.options().last_play_sweep == LastPlaySweep::Void)
}

/// The capture value of a single card that would sweep a non-empty table totalling `total`, if
/// one exists: Scopa/Chkobba a card equal to the table's only card or to its total (the total
/// of two or more cards exceeds any one of them, so no equal card takes priority); Escoba the
/// value making 15 with the table.
pub(crate) fn sweep_value(rules: &Rules, total: u32) -> Option<u8> {
    match rules.capture_mode() {
        CaptureMode::EqualThenSum => (total <= 10).then_some(total as u8),
        CaptureMode::Fifteen => (5..15).contains(&total).then(|| 15 - total as u8),
        // Either way sweeps; the heuristic weighs the matching one when it exists.
        CaptureMode::MatchOrFifteen => (total <= 10)
            .then_some(total as u8)
            .or_else(|| (5..15).contains(&total).then(|| 15 - total as u8)),
    }
}

/// How many cards of one capture value `set` holds, at most four: the value's cards are one
/// rank, a nibble of the mask, so a table lookup counts them.
pub(crate) fn count_of_value(rules: &Rules, set: CardSet, v: u8) -> u32 {
    let rank = rules.cards_of_value(v);
    let shift = rank.0.trailing_zeros() & 63;
    u32::from(NIBBLE_LEN[((set.0 & rank.0) >> shift) as usize & 0xF])
}

fn is_coin(card: Card) -> bool {
    CardSet::COINS.contains(card)
}

// ----- greedy -----

/// Best immediate gain, scored from the move alone and the table it leaves.
///
/// A capture earns, in integer weights: 8 per card taken, 20 per coin, 80 for the seven of
/// coins, the primiera improvement (1.5 per point gained on the side's best card of a suit) or
/// bermila material (30 a seven, 12 a six), and 100 for a sweep that scores. Any move then loses
/// up to 100 for leaving a table that one card sweeps, 30 per unseen card of that value (the
/// next player may hold it). A trail also loses the worth of the trailed card, so low,
/// non-coin cards are trailed first. Exact ties are broken by the bot's seeded generator.
///
/// Every weight of a single card is a constant table by card id, so scoring a move costs a few
/// additions per card taken; a forced move is played without reading the view.
#[derive(Clone, Debug)]
pub struct GreedyBot {
    rng: Rng,
}

const G_CARD: i32 = 8;
const G_COIN: i32 = 20;
const G_SEVEN_OF_COINS: i32 = 80;
const G_SWEEP: i32 = 100;
const G_RISK_PER_CARD: i32 = 30;
const G_BERMILA_SEVEN: i32 = 30;
const G_BERMILA_SIX: i32 = 12;

/// Per-card weights of the greedy bot, by card id.
struct GreedyTables {
    /// What taking the card earns, primiera aside: a card, a coin, the seven of coins.
    taken: [i32; NUM_CARDS],
    /// The same plus the card's bermila material (a seven or a six).
    taken_bermila: [i32; NUM_CARDS],
    /// What trailing the card gives away: coins, the seven of coins, primiera / bermila
    /// material.
    trail_cost: [i32; NUM_CARDS],
    /// The card's primiera points ([`PRIMIERA_POINTS`] of its rank).
    primiera: [u8; NUM_CARDS],
}

const GREEDY: GreedyTables = {
    let sevens = CardSet::rank(Rank::SEVEN.index()).bits();
    let sixes = CardSet::rank(Rank::SIX.index()).bits();
    let mut t = GreedyTables {
        taken: [0; NUM_CARDS],
        taken_bermila: [0; NUM_CARDS],
        trail_cost: [0; NUM_CARDS],
        primiera: [0; NUM_CARDS],
    };
    let mut id = 0;
    while id < NUM_CARDS {
        let coin = CardSet::COINS.bits() >> id & 1 != 0;
        let seven = sevens >> id & 1 != 0;
        let six = sixes >> id & 1 != 0;
        let settebello = id == Card::SEVEN_OF_COINS.id() as usize;
        let mut taken = G_CARD;
        let mut cost = 0;
        if coin {
            taken += G_COIN;
            cost += 10;
        }
        if settebello {
            taken += G_SEVEN_OF_COINS;
            cost += 50;
        }
        t.taken[id] = taken;
        if seven {
            taken += G_BERMILA_SEVEN;
            cost += 15;
        } else if six {
            taken += G_BERMILA_SIX;
            cost += 8;
        }
        t.taken_bermila[id] = taken;
        t.trail_cost[id] = cost;
        t.primiera[id] = PRIMIERA_POINTS[id / NUM_SUITS] as u8;
        id += 1;
    }
    t
};

/// Primiera points of the best card of each suit in `set` (0 for a missing suit), one byte per
/// suit (suit `s` in bits `8s..8s + 8`).
fn suit_bests(set: CardSet) -> u32 {
    let mut best = 0u32;
    // Suits whose best card is known.
    let mut found = 0u64;
    // Ranks in decreasing primiera value: the first one present in a suit is its best. All ten
    // are looked at (a rank past the last suit found adds nothing): stopping early mispredicted.
    for &rank in &PRIMIERA_ORDER {
        let nibble = (set.0 >> (4 * rank)) & 0xF & !found;
        best |= suit_bytes(nibble) * u32::from(PRIMIERA_POINTS[rank]);
        found |= nibble;
    }
    best
}

/// The sum of the four bytes of `x` (each below 64, so no byte overflows).
fn byte_sum(x: u32) -> i32 {
    (x.wrapping_mul(0x0101_0101) >> 24) as i32
}

/// Popcount of a 4-bit rank nibble: the cards of one rank in a set.
const NIBBLE_LEN: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

impl GreedyBot {
    /// A greedy bot drawing from `seed` (for tie-breaks).
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot {
            rng: Rng::new(seed),
        }
    }
}

impl Bot for GreedyBot {
    fn choose(&mut self, rules: &Rules, view: &LazyView<'_>, legal: &[Move]) -> Move {
        if let Some(m) = cut_decision(legal) {
            return m;
        }
        if let [only] = legal {
            // Scoring one move would draw nothing: it is the choice.
            return *only;
        }
        // The few fields it reads, without building the whole view.
        let left = view.cards_left();
        let my_sweep = sweep_scores(rules, left);
        // After this play `left - 1` cards remain; the next player is always an opponent.
        let risk_on = left > 1 && sweep_scores(rules, left - 1);
        let primiera = rules.prime_category() == PrimeCategory::Primiera;
        let taken_weight = if primiera {
            &GREEDY.taken
        } else {
            &GREEDY.taken_bermila
        };
        let values = rules.values();
        let table = view.table();
        let unseen = view.unseen();
        let table_total = rules.total(table);
        // The penalty for leaving a non-empty table totalling `total`.
        let risk = |total: u32| -> i32 {
            if !risk_on {
                return 0;
            }
            sweep_value(rules, total).map_or(0, |v| {
                let out = count_of_value(rules, unseen, v) as i32;
                (G_RISK_PER_CARD * out).min(G_SWEEP)
            })
        };
        // The side's best primiera card per suit (a byte each), read only if some move captures.
        let mut pile_bests: Option<u32> = None;
        let mut best = Best::new(i32::MIN, legal[0]);
        for &mv in legal {
            let card = mv.card();
            let caps = mv.captures();
            let score = if caps.is_empty() {
                let rest_total = table_total + u32::from(values[card.index()]);
                -GREEDY.trail_cost[card.index()] - risk(rest_total)
            } else {
                let taken = caps | CardSet::single(card);
                let mut s = 0;
                if primiera {
                    let have = *pile_bests
                        .get_or_insert_with(|| suit_bests(view.piles()[Rules::side(view.seat())]));
                    // The pile's best per suit raised by the few cards taken: the primiera
                    // points gained are the rise of the sum.
                    let mut bests = have.to_le_bytes();
                    for c in taken {
                        s += taken_weight[c.index()];
                        let b = &mut bests[c.index() % NUM_SUITS];
                        *b = (*b).max(GREEDY.primiera[c.index()]);
                    }
                    let up = byte_sum(u32::from_le_bytes(bests)) - byte_sum(have);
                    s += up * 3 / 2;
                } else {
                    for c in taken {
                        s += taken_weight[c.index()];
                    }
                }
                if caps != table {
                    // A capture takes exactly the played card's value (S7, K9), or 15 with it
                    // (E7).
                    let v = u32::from(values[card.index()]);
                    let caps_total = match rules.capture_mode() {
                        CaptureMode::EqualThenSum => v,
                        CaptureMode::Fifteen => 15 - v,
                        CaptureMode::MatchOrFifteen => rules.total(caps),
                    };
                    s -= risk(table_total - caps_total);
                } else if my_sweep {
                    s += G_SWEEP;
                }
                s
            };
            best.offer(&mut self.rng, score, mv);
        }
        best.choice
    }
}

// ----- expert -----

/// A rule-based player that values each move in expected points of the hand.
///
/// - **Categories still open.** Each category is scored as P(we win it) - P(they win it), with
///   the cards not yet in a pile split evenly in expectation: cards and coins as majorities out
///   of 40 and 10, the seven of coins as decided or open, the primiera per suit from who may
///   still take each suit's best cards, the bermila from the sevens and then the sixes still out.
///   A capture is worth what it moves these chances, so once a side has 21 cards or 6 coins
///   those stop counting, and sevens and sixes count most while the primiera / bermila is open.
/// - **Card counting.** From [`View::unseen`] and the next opponent's hand size it computes, for
///   each capture value, the chance that the next opponent holds one, and subtracts the
///   expected value of their best reply on the table the move leaves: a sweep left open is
///   weighed by the chance they can take it, a coin or seven left on the table by the chance
///   it is taken.
/// - **Follow-up.** When the opponent is likely not to capture, the move also earns part of the
///   best capture its own remaining hand could make next turn (this is what keeps pairs: a card
///   trailed beside its twin in hand is taken back).
/// - **Last round, 2 players.** The unseen cards are exactly the opponent's hand: it searches
///   the rest of the hand exhaustively (at most six plays) and maximises the hand's points
///   difference, leftovers and the last-play sweep rule included.
#[derive(Clone, Debug)]
pub struct ExpertBot {
    rng: Rng,
}

impl ExpertBot {
    /// An expert bot drawing from `seed` (for tie-breaks).
    pub fn new(seed: u64) -> ExpertBot {
        ExpertBot {
            rng: Rng::new(seed),
        }
    }
}

impl Bot for ExpertBot {
    fn choose(&mut self, rules: &Rules, view: &LazyView<'_>, legal: &[Move]) -> Move {
        if let Some(m) = cut_decision(legal) {
            return m;
        }
        let view = &view.get();
        if view.num_players == 2 && view.stock_size == 0 {
            return Endgame::new(rules, view).choose(&mut self.rng, legal);
        }
        let ctx = Expert::new(rules, view);
        let mut best = Best::new(f32::NEG_INFINITY, legal[0]);
        for &mv in legal {
            best.offer(&mut self.rng, ctx.value(mv), mv);
        }
        best.choice
    }
}

/// Share of the follow-up capture credited to a move. Measured on duplicate deals against the
/// expert itself: 1 beats 0 by about 0.15 points a hand in Scopa and Chkobba, and beats 0.5 and
/// 2 by a little (the opponent's trail changes the table before our next play, which sometimes
/// helps and sometimes spoils it).
const FOLLOW_UP: f32 = 1.0;
/// Variance of the number of remaining cards a side will capture, per card, relative to a fair
/// coin per card: captures come in clumps of two or three cards. (1 or 4 play no differently.)
const CARD_SPREAD: f32 = 2.0;

/// One decision of the expert: the view digested into what its evaluation reads.
struct Expert<'a> {
    rules: &'a Rules,
    me: usize,
    table: CardSet,
    hand: CardSet,
    piles: [CardSet; 2],
    last_side: Option<usize>,
    /// Cards still to be played this hand, this play included.
    left: u32,
    my_sweep: bool,
    reply_sweep: bool,
    /// Chance that the next opponent holds a card of each capture value.
    hold: [f32; 11],
    /// An unseen card of each capture value, standing for the one the opponent would play.
    rep: [Option<Card>; 11],
    /// Equity of the current piles.
    base: f32,
}

impl<'a> Expert<'a> {
    fn new(rules: &'a Rules, view: &View) -> Expert<'a> {
        let me = Rules::side(view.seat);
        let left = view.cards_left();
        let next = usize::from(rules.next_seat(view.seat));
        // The next opponent plays from their hand, or from a fresh round of three when this
        // play ends the round.
        let h = match view.hand_sizes[next] {
            0 if view.stock_size > 0 => u32::from(rules.hand_size()),
            h => u32::from(h),
        };
        let u = view.unseen.len();
        let mut hold = [0f32; 11];
        let mut rep = [None; 11];
        for v in 1..=10usize {
            let k = count_of_value(rules, view.unseen, v as u8);
            if k == 0 || h == 0 {
                continue;
            }
            // P(none of their h cards has value v), drawing h of the u unseen cards.
            let mut none = 1.0f32;
            for i in 0..h.min(u) {
                none *= (u.saturating_sub(k + i)) as f32 / (u - i) as f32;
            }
            hold[v] = 1.0 - none;
            let cards = view.unseen & rules.cards_of_value(v as u8);
            // The least valuable card of the value: the opponent's own card matters less
            // than the table cards it takes.
            rep[v] = (cards - CardSet::COINS).first().or_else(|| cards.first());
        }
        let mut e = Expert {
            rules,
            me,
            table: view.table,
            hand: view.hand,
            piles: view.piles,
            last_side: view.last_capturer.map(Rules::side),
            left,
            my_sweep: sweep_scores(rules, left),
            reply_sweep: left > 1 && sweep_scores(rules, left - 1),
            hold,
            rep,
            base: 0.0,
        };
        e.base = e.equity(e.piles);
        e
    }

    /// Expected category points of our side minus theirs, from the piles alone.
    fn equity(&self, piles: [CardSet; 2]) -> f32 {
        pile_equity(self.rules, piles, self.me)
    }

    /// The move's value: our gain, minus the expected best reply of the next opponent, plus part
    /// of our follow-up when they are unlikely to capture.
    fn value(&self, mv: Move) -> f32 {
        let card = mv.card();
        let caps = mv.captures();
        let mut piles = self.piles;
        let mut v = 0.0;
        let (rest, capturer) = if caps.is_empty() {
            (self.table | CardSet::single(card), self.last_side)
        } else {
            piles[self.me] |= caps | CardSet::single(card);
            // A renuncio claim takes a card from the table and is never a sweep.
            let claim = mv.kind() == MoveKind::Claim;
            if !claim && caps == self.table && self.my_sweep {
                v += 1.0;
            }
            (self.table - caps - CardSet::single(card), Some(self.me))
        };
        if self.left == 1 {
            // G7: the leftovers go to the last capturer; the hand is then scored exactly.
            if let Some(s) = capturer {
                piles[s] |= rest;
            }
            return v + self.equity(piles) - self.base;
        }
        let e1 = self.equity(piles);
        v += e1 - self.base;
        let (loss, quiet) = self.reply_loss(piles, rest, e1);
        v -= loss;
        let hand = self.hand - CardSet::single(card);
        if quiet > 0.0 && !hand.is_empty() {
            v += FOLLOW_UP * quiet * self.follow_up(piles, rest, hand, e1);
        }
        v
    }

    /// Expected loss from the next opponent's best capture on `rest`, and the chance that they
    /// have no capture worth making.
    fn reply_loss(&self, piles: [CardSet; 2], rest: CardSet, e1: f32) -> (f32, f32) {
        if rest.is_empty() {
            return (0.0, 1.0);
        }
        let opp = 1 - self.me;
        let index = TableIndex::new(self.rules, rest);
        let mut gains = [(0f32, 0f32); 10];
        let mut n = 0;
        for v in 1..=10 {
            let (p, Some(rep)) = (self.hold[v], self.rep[v]) else {
                continue;
            };
            let mut best = 0f32;
            self.rules.for_each_capture(&index, rep, &mut |c| {
                let mut p2 = piles;
                p2[opp] |= c | CardSet::single(rep);
                let mut g = e1 - self.equity(p2);
                if c == rest && self.reply_sweep {
                    g += 1.0;
                }
                best = best.max(g);
            });
            if best > 0.0 {
                gains[n] = (best, p);
                n += 1;
            }
        }
        let gains = &mut gains[..n];
        // They play their best value among those they hold; values held independently.
        gains.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
        let mut none = 1.0f32;
        let mut loss = 0.0;
        for &(g, p) in gains.iter() {
            loss += none * p * g;
            none *= 1.0 - p;
        }
        (loss, none)
    }

    /// Our best capture next turn from `hand` on `rest`, as if the opponent's play left it be
    /// (no sweep credit: their trail would spoil it).
    fn follow_up(&self, piles: [CardSet; 2], rest: CardSet, hand: CardSet, e1: f32) -> f32 {
        if rest.is_empty() {
            return 0.0;
        }
        let index = TableIndex::new(self.rules, rest);
        let mut best = 0f32;
        for card in hand {
            self.rules.for_each_capture(&index, card, &mut |c| {
                let mut p2 = piles;
                p2[self.me] |= c | CardSet::single(card);
                best = best.max(self.equity(p2) - e1);
            });
        }
        best
    }
}

/// Expected category points of side `me` minus the other side's, from the piles alone: each
/// category is the chance of winning it minus the chance of losing it, with the cards not yet in
/// a pile split evenly in expectation (exact once every card is in a pile). Sweeps and
/// declarations are not counted.
pub(crate) fn pile_equity(rules: &Rules, piles: [CardSet; 2], me: usize) -> f32 {
    let (m, o) = (piles[me], piles[1 - me]);
    if (m | o) == CardSet::FULL {
        // Every card is in a pile: the categories are decided exactly.
        let s = rules.score(piles, [0, 0], [0, 0]);
        return s
            .awards
            .iter()
            .flatten()
            .map(|&side| if usize::from(side) == me { 1.0 } else { -1.0 })
            .sum();
    }
    let mut e = majority_equity(m.len(), o.len(), 20, CARD_SPREAD)
        + coin_equity((m & CardSet::COINS).len(), (o & CardSet::COINS).len());
    if m.contains(Card::SEVEN_OF_COINS) {
        e += 1.0;
    } else if o.contains(Card::SEVEN_OF_COINS) {
        e -= 1.0;
    }
    e + match rules.prime_category() {
        PrimeCategory::Primiera => primiera_equity(m, o),
        PrimeCategory::Bermila => bermila_equity(m, o),
    }
}

/// Standard normal distribution function (Abramowitz–Stegun 7.1.26 erf, error below 1.5e-7).
fn phi(x: f32) -> f32 {
    let z = x.abs() * std::f32::consts::FRAC_1_SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_6
            + t * (-0.284_496_74 + t * (1.421_413_7 + t * (-1.453_152_1 + t * 1.061_405_4))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

/// P(we end with more than `half`) - P(they do), of `2 * half` cards in all, with `ours` and
/// `theirs` taken so far and the rest split as a normal around half each, `spread` times a fair
/// coin's variance.
fn majority_equity(ours: u32, theirs: u32, half: u32, spread: f32) -> f32 {
    if ours > half {
        return 1.0;
    }
    if theirs > half {
        return -1.0;
    }
    let out = 2 * half - ours - theirs;
    if out == 0 {
        return 0.0;
    }
    let mean = out as f32 / 2.0;
    let sd = (spread * out as f32 / 4.0).sqrt();
    // We win taking at least half + 1 - ours of the rest, they when we take at most
    // half - 1 - ours.
    let need = half as f32 - ours as f32 - mean;
    let win = 1.0 - phi((need + 0.5) / sd);
    let lose = phi((need - 0.5) / sd);
    win - lose
}

/// Binomial coefficients up to 10: the coins, sevens and sixes still out.
const BINOMIAL: [[u16; 11]; 11] = {
    let mut t = [[0u16; 11]; 11];
    let mut n = 0;
    while n <= 10 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
};

/// Equity of a majority of `total` cards (more than half wins, a tie nobody) with each card
/// still out going to either side with even chance.
fn even_split_equity(ours: u32, theirs: u32, total: u32) -> f32 {
    split_equity(ours, theirs, total, 0.0)
}

/// Equity of a majority of `total` cards, the cards out split evenly at random, scoring
/// `on_tie` when the counts end equal.
fn split_equity(ours: u32, theirs: u32, total: u32, on_tie: f32) -> f32 {
    debug_assert!(ours + theirs <= total, "a card counted in both piles");
    let out = total.saturating_sub(ours + theirs);
    let mut equity = 0.0;
    for k in 0..=out {
        let chance = f32::from(BINOMIAL[out as usize][k as usize]) / (1u32 << out) as f32;
        equity += chance
            * match (ours + k).cmp(&(theirs + out - k)) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Less => -1.0,
                std::cmp::Ordering::Equal => on_tie,
            };
    }
    equity
}

fn coin_equity(ours: u32, theirs: u32) -> f32 {
    even_split_equity(ours, theirs, 10)
}

/// Bermila (K14): more sevens; sevens tied, more sixes.
fn bermila_equity(ours: CardSet, theirs: CardSet) -> f32 {
    let sevens = CardSet::rank(Rank::SEVEN.index());
    let sixes = CardSet::rank(Rank::SIX.index());
    let on_tie = even_split_equity((ours & sixes).len(), (theirs & sixes).len(), 4);
    split_equity((ours & sevens).len(), (theirs & sevens).len(), 4, on_tie)
}

/// Primiera / setenta: per suit, the difference of the two sides' best cards when each card
/// still out goes to either side with even chance (only the best card out that each side gets
/// matters); the suits' differences are summed as a normal. A missing suit counts 0, which
/// loses the suit by at least 10: close to the invalid primiera of S-A2.
fn primiera_equity(ours: CardSet, theirs: CardSet) -> f32 {
    let mut mean = 0.0f32;
    let mut var = 0.0f32;
    for suit in 0..NUM_SUITS {
        // Primiera points of the suit's cards still out, best first, and each side's best.
        let mut out = [0f32; 10];
        let mut n_out = 0;
        let (mut our_best, mut their_best) = (0f32, 0f32);
        for &rank in &PRIMIERA_ORDER {
            let card = Card::of(Rank::new(rank as u8).expect("rank < 10"), Suit::ALL[suit]);
            let points = f32::from(PRIMIERA_POINTS[rank]);
            if ours.contains(card) {
                our_best = our_best.max(points);
            } else if theirs.contains(card) {
                their_best = their_best.max(points);
            } else {
                out[n_out] = points;
                n_out += 1;
            }
        }
        if n_out == 0 {
            mean += our_best - their_best;
            continue;
        }
        // The best card out goes to us (half the time) or to them; the other side's best is
        // then raised by the first later card that goes its way, each with half the chance of
        // the one before.
        let rest = &out[1..n_out];
        let (mean_us, sq_us) = suit_branch(our_best.max(out[0]), their_best, rest);
        let (mean_them, sq_them) = suit_branch(their_best.max(out[0]), our_best, rest);
        let suit_mean = 0.5 * (mean_us - mean_them);
        mean += suit_mean;
        var += (0.5 * (sq_us + sq_them) - suit_mean * suit_mean).max(0.0);
    }
    if var < 1e-6 {
        return if mean > 0.25 {
            1.0
        } else if mean < -0.25 {
            -1.0
        } else {
            0.0
        };
    }
    let sd = var.sqrt();
    (1.0 - phi((0.5 - mean) / sd)) - phi((-0.5 - mean) / sd)
}

/// Mean and second moment of `x - y_final`, where the other side's best is `y` raised by the
/// first card of `rest` that goes its way (each next card half as likely to be that one).
fn suit_branch(x: f32, y: f32, rest: &[f32]) -> (f32, f32) {
    let mut p = 0.5f32;
    let mut e1 = 0.0;
    let mut e2 = 0.0;
    for &c in rest {
        let d = x - y.max(c);
        e1 += p * d;
        e2 += p * d * d;
        p *= 0.5;
    }
    // None of the rest goes their way: probability 2p.
    let d = x - y;
    e1 += 2.0 * p * d;
    e2 += 2.0 * p * d * d;
    (e1, e2)
}

// ----- exact last round (2 players) -----

/// The last round of a 2-player hand, where the unseen cards are the opponent's hand: a
/// complete search of the remaining plays (at most six).
struct Endgame<'a> {
    rules: &'a Rules,
    me: usize,
    void_last: bool,
    root: Node,
}

/// A position of the last round: side = seat with 2 players.
#[derive(Clone, Copy)]
struct Node {
    hands: [CardSet; 2],
    table: CardSet,
    piles: [CardSet; 2],
    sweeps: [u8; 2],
    last: Option<usize>,
    mover: usize,
}

impl<'a> Endgame<'a> {
    fn new(rules: &'a Rules, view: &View) -> Endgame<'a> {
        let me = usize::from(view.seat);
        let mut hands = [CardSet::EMPTY; 2];
        hands[me] = view.hand;
        hands[1 - me] = view.unseen;
        Endgame {
            rules,
            me,
            void_last: rules.options().last_play_sweep == LastPlaySweep::Void,
            root: Node {
                hands,
                table: view.table,
                piles: view.piles,
                sweeps: view.sweeps,
                last: view.last_capturer.map(usize::from),
                mover: me,
            },
        }
    }

    fn choose(&self, rng: &mut Rng, legal: &[Move]) -> Move {
        let mut best = Best::new(i32::MIN, legal[0]);
        for &mv in legal {
            let child = if mv.kind() == MoveKind::Claim {
                // Renuncio: the claim takes the card and the set; the same seat plays next.
                let mut c = self.root;
                let taken = mv.captures() | CardSet::single(mv.card());
                c.table -= taken;
                c.piles[c.mover] |= taken;
                c.last = Some(c.mover);
                c
            } else {
                self.play(&self.root, mv.card(), mv.captures())
            };
            best.offer(rng, self.solve(&child), mv);
        }
        best.choice
    }

    fn play(&self, n: &Node, card: Card, caps: CardSet) -> Node {
        let mut c = *n;
        let final_play = n.hands[0].len() + n.hands[1].len() == 1;
        c.hands[n.mover].remove(card);
        if caps.is_empty() {
            c.table.insert(card);
        } else {
            if caps == n.table && !(final_play && self.void_last) {
                c.sweeps[n.mover] += 1;
            }
            c.table -= caps;
            c.piles[n.mover] |= caps | CardSet::single(card);
            c.last = Some(n.mover);
        }
        // Two players alternate; when the next has no card the hand is over.
        c.mover = 1 - n.mover;
        c
    }

    /// Points of our side minus theirs at the end of the hand, both sides playing best.
    fn solve(&self, n: &Node) -> i32 {
        if n.hands[n.mover].is_empty() {
            let mut piles = n.piles;
            if let Some(s) = n.last {
                piles[s] |= n.table;
            }
            let p = self.rules.score(piles, n.sweeps, [0, 0]).points;
            return p[self.me] as i32 - p[1 - self.me] as i32;
        }
        let maximize = n.mover == self.me;
        let mut best = if maximize { i32::MIN } else { i32::MAX };
        let index = TableIndex::new(self.rules, n.table);
        for card in n.hands[n.mover] {
            let mut any = false;
            self.rules.for_each_capture(&index, card, &mut |caps| {
                any = true;
                let v = self.solve(&self.play(n, card, caps));
                best = if maximize { best.max(v) } else { best.min(v) };
            });
            if !any {
                let v = self.solve(&self.play(n, card, CardSet::EMPTY));
                best = if maximize { best.max(v) } else { best.min(v) };
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::State;
    use crate::variant::Game;

    fn set(cards: &[&str]) -> CardSet {
        cards.iter().map(|s| s.parse::<Card>().unwrap()).collect()
    }

    #[test]
    fn names_round_trip() {
        for k in BotKind::EVERY {
            assert_eq!(BotKind::from_name(k.name()).unwrap(), k);
        }
        assert!(BotKind::from_name("nobody").is_err());
    }

    #[test]
    fn normal_distribution_function() {
        assert!((phi(0.0) - 0.5).abs() < 1e-6);
        assert!((phi(1.96) - 0.975).abs() < 1e-3);
        assert!((phi(-1.0) - 0.158_655).abs() < 1e-4);
    }

    #[test]
    fn category_equities_are_exact_when_decided() {
        assert!((majority_equity(21, 3, 20, 2.0) - 1.0).abs() < 1e-6);
        assert!((majority_equity(20, 20, 20, 2.0)).abs() < 1e-6);
        assert!((coin_equity(6, 0) - 1.0).abs() < 1e-6);
        assert!(coin_equity(5, 5).abs() < 1e-6);
        // Four coins out: we need 1 of 4 for 6, they all 4 for 6; 5-5 otherwise a tie.
        assert!((coin_equity(5, 1) - (15.0 / 16.0 - 0.0)).abs() < 1e-6);
        assert!(even_split_equity(2, 2, 4).abs() < 1e-6);
        let all = CardSet::FULL;
        let sevens = CardSet::rank(Rank::SEVEN.index());
        assert!((primiera_equity(sevens, CardSet::EMPTY) - 1.0).abs() < 0.05);
        assert!((bermila_equity(sevens, all - sevens) - 1.0).abs() < 1e-6);
        assert!(primiera_equity(CardSet::EMPTY, CardSet::EMPTY).abs() < 1e-6);
    }

    /// Seat 0's view of a 2-player position: the opponent holds 3 cards, and every card not
    /// given is unseen (their hand or the stock).
    fn view(game: Game, hand: &[&str], table: &[&str], piles: [&[&str]; 2]) -> (Rules, View) {
        let rules = Rules::profile(game, 2).unwrap();
        let (hand, table) = (set(hand), set(table));
        let piles = [set(piles[0]), set(piles[1])];
        let unseen = !(hand | table | piles[0] | piles[1]);
        let view = View {
            seat: 0,
            num_players: 2,
            hand,
            table,
            piles,
            sweeps: [0, 0],
            declared: [0, 0],
            scores: [0, 0],
            hand_sizes: [hand.len() as u8, 3, 0, 0],
            stock_size: (unseen.len() - 3) as u8,
            dealer: 1,
            to_move: Some(0),
            last_capturer: (!piles[0].is_empty()).then_some(0),
            cut_card: None,
            claimable: None,
            phase: crate::state::Phase::Play,
            unseen,
        };
        (rules, view)
    }

    /// The bot's choice among the legal moves of the seat of `view`.
    fn choose(bot: &mut dyn Bot, rules: &Rules, view: &View) -> String {
        let mut legal = Vec::new();
        let index = TableIndex::new(rules, view.table);
        for card in view.hand {
            let start = legal.len();
            rules.for_each_capture(&index, card, &mut |s| legal.push(Move::play(card, s)));
            if legal.len() == start {
                legal.push(Move::play(card, CardSet::EMPTY));
            }
        }
        bot.choose(rules, &LazyView::from(view), &legal).to_string()
    }

    const NONE: [&[&str]; 2] = [&[], &[]];

    #[test]
    fn cut_card_kept_if_material_else_tabled() {
        let (rules, mut v) = view(Game::Chkobba, &[], &[], NONE);
        v.phase = crate::state::Phase::Cut;
        for (card, keep) in [
            ("7S", true),
            ("6H", true),
            ("2D", true),
            ("KS", false),
            ("AC", false),
        ] {
            let c: Card = card.parse().unwrap();
            v.cut_card = Some(c);
            let legal = [Move::cut(c, true), Move::cut(c, false)];
            let want = if keep { legal[0] } else { legal[1] };
            for kind in [BotKind::Greedy, BotKind::Expert] {
                assert_eq!(
                    kind.build(3).choose(&rules, &LazyView::from(&v), &legal),
                    want,
                    "{kind:?} {card}"
                );
            }
        }
    }

    #[test]
    fn greedy_takes_the_sweep_and_the_settebello() {
        let (rules, v) = view(Game::Scopa, &["5C", "3H", "KS"], &["2D", "3S"], NONE);
        assert_eq!(choose(&mut GreedyBot::new(1), &rules, &v), "5C x 2D+3S");
        let (rules, v) = view(Game::Scopa, &["7C", "AH", "2S"], &["7D", "3S", "5C"], NONE);
        assert_eq!(choose(&mut GreedyBot::new(1), &rules, &v), "7C x 7D");
    }

    #[test]
    fn greedy_trails_without_leaving_a_sweep() {
        // Table 6: the 3 would leave 9 and the 2 would leave 8 (four of each out); the king
        // leaves 16, which no card sweeps.
        let (rules, v) = view(Game::Scopa, &["3C", "KS", "2C"], &["6H"], NONE);
        assert_eq!(choose(&mut GreedyBot::new(1), &rules, &v), "KS");
    }

    fn sweep_value_of(rules: &Rules, table: CardSet) -> Option<u8> {
        sweep_value(rules, rules.total(table))
    }

    #[test]
    fn greedy_tables_match_the_card_weights() {
        let mut rng = Rng::new(9);
        for _ in 0..500 {
            let set = CardSet(rng.next_u64() & CardSet::FULL.0);
            let bests = suit_bests(set).to_le_bytes();
            for (suit, &b) in bests.iter().enumerate() {
                let want = (set & CardSet::suit(suit))
                    .into_iter()
                    .map(|c| PRIMIERA_POINTS[c.rank().index()])
                    .max()
                    .unwrap_or(0);
                assert_eq!(u16::from(b), want, "{set:?} suit {suit}");
            }
        }
        for c in Card::all() {
            let coin = i32::from(is_coin(c));
            let settebello = i32::from(c == Card::SEVEN_OF_COINS);
            let (seven, six) = (c.rank() == Rank::SEVEN, c.rank() == Rank::SIX);
            let taken = G_CARD + G_COIN * coin + G_SEVEN_OF_COINS * settebello;
            let material = if seven {
                G_BERMILA_SEVEN
            } else if six {
                G_BERMILA_SIX
            } else {
                0
            };
            let cost =
                10 * coin + 50 * settebello + [0, 8, 15][usize::from(six) + 2 * usize::from(seven)];
            assert_eq!(GREEDY.taken[c.index()], taken, "{c}");
            assert_eq!(GREEDY.taken_bermila[c.index()], taken + material, "{c}");
            assert_eq!(GREEDY.trail_cost[c.index()], cost, "{c}");
        }
    }

    #[test]
    fn counts_by_value() {
        for game in [Game::Scopa, Game::Escoba, Game::Chkobba] {
            let rules = Rules::profile(game, 2).unwrap();
            let mut rng = Rng::new(5);
            for _ in 0..200 {
                let set = CardSet(rng.next_u64() & CardSet::FULL.0);
                for v in 1..=10 {
                    let want = (set & rules.cards_of_value(v)).len();
                    assert_eq!(count_of_value(&rules, set, v), want);
                }
            }
        }
    }

    #[test]
    fn escoba_sweep_value() {
        let rules = Rules::profile(Game::Escoba, 2).unwrap();
        assert_eq!(sweep_value_of(&rules, set(&["2C", "3D"])), Some(10));
        assert_eq!(sweep_value_of(&rules, set(&["KC", "4D"])), Some(1));
        assert_eq!(sweep_value_of(&rules, set(&["KC", "5D"])), None);
        assert_eq!(sweep_value_of(&rules, set(&["AC", "2D"])), None);
        let rules = Rules::profile(Game::Chkobba, 2).unwrap();
        assert_eq!(sweep_value_of(&rules, set(&["QC"])), Some(8));
        assert_eq!(sweep_value_of(&rules, set(&["AC", "2D", "3H"])), Some(6));
    }

    #[test]
    fn expert_stops_chasing_a_decided_category() {
        // We hold 6 coins: the coin 2D is worth no more than any card. Greedy takes it (a
        // coin); the expert takes three cards with the 7 instead.
        let ours: &[&str] = &["AD", "3D", "4D", "5D", "6D", "7D", "7C", "7H", "6S"];
        let table = &["2D", "3C", "4H", "KC", "KH"];
        let (rules, v) = view(Game::Scopa, &["2C", "7S", "KS"], table, [ours, &[]]);
        assert_eq!(choose(&mut GreedyBot::new(1), &rules, &v), "2C x 2D");
        assert_eq!(choose(&mut ExpertBot::new(1), &rules, &v), "7S x 3C+4H");
    }

    #[test]
    fn expert_counts_the_cards_that_could_sweep() {
        // Every card trails onto the 2. The 3 leaves 5 (three fives out) and the 4 leaves 6
        // (four sixes out); the 5 leaves 7, and every seven is already in a pile.
        let (rules, v) = view(
            Game::Scopa,
            &["5C", "4S", "3S"],
            &["2H"],
            [&["7C", "7D", "AC", "AD"], &["7H", "7S", "AH", "AS"]],
        );
        assert_eq!(choose(&mut ExpertBot::new(1), &rules, &v), "5C");
    }

    #[test]
    fn a_seat_bot_plays_as_the_bot_of_its_kind() {
        let mut moves = Vec::new();
        for game in [Game::Scopa, Game::Escoba, Game::Chkobba] {
            let rules = Rules::profile(game, 2).unwrap();
            for kind in BotKind::ALL {
                for seed in 0..10 {
                    let mut seat = SeatBot::of(kind, seed);
                    assert!(!seat.is_boxed(), "{} is held by value", kind.name());
                    let mut direct: Box<dyn Bot> = match kind {
                        BotKind::Random => Box::new(RandomBot::new(seed)),
                        BotKind::RandomCard => Box::new(RandomCardBot::new(seed)),
                        BotKind::Greedy => Box::new(GreedyBot::new(seed)),
                        BotKind::Expert => Box::new(ExpertBot::new(seed)),
                        _ => unreachable!("BotKind::ALL are the fast bots"),
                    };
                    let mut s = State::new(&rules, seed);
                    while let Some(to_move) = s.to_move() {
                        s.legal_moves(&rules, &mut moves);
                        let view = LazyView::new(&s, to_move);
                        let mv = seat.choose(&rules, &view, &moves);
                        assert_eq!(mv, direct.choose(&rules, &view, &moves), "{}", kind.name());
                        s.apply_unchecked(&rules, mv);
                    }
                }
            }
        }
        assert!(SeatBot::of(BotKind::Pimc, 1).is_boxed());
        assert!(SeatBot::of(BotKind::Ismcts, 1).is_boxed());
    }

    /// The exact value of a 2-player last-round position by brute force over `State`.
    fn brute(rules: &Rules, s: &State, me: usize) -> i32 {
        if s.hand_over() {
            let p = s.hand_score(rules).unwrap().points;
            return p[me] as i32 - p[1 - me] as i32;
        }
        let mut moves = Vec::new();
        s.legal_moves(rules, &mut moves);
        let vals = moves.iter().map(|&m| {
            let mut c = *s;
            c.apply_unchecked(rules, m);
            brute(rules, &c, me)
        });
        if usize::from(s.to_move().unwrap()) == me {
            vals.max().unwrap()
        } else {
            vals.min().unwrap()
        }
    }

    #[test]
    fn endgame_is_exact() {
        let mut moves = Vec::new();
        for game in [Game::Scopa, Game::Escoba, Game::Chkobba] {
            let rules = Rules::profile(game, 2).unwrap();
            for seed in 0..150 {
                let mut s = State::new(&rules, seed);
                let mut rng = Rng::new(seed);
                let mut greedy = GreedyBot::new(seed);
                // Play to the last round with greedy moves (random cut choices included).
                while !s.hand_over() && (!s.stock().is_empty() || s.cut_card().is_some()) {
                    s.legal_moves(&rules, &mut moves);
                    let v = s.view(s.to_move().unwrap());
                    let mv = if rng.below(2) == 0 {
                        greedy.choose(&rules, &LazyView::from(&v), &moves)
                    } else {
                        moves[rng.below(moves.len() as u64) as usize]
                    };
                    s.apply_unchecked(&rules, mv);
                }
                let seat = s.to_move().unwrap();
                let me = usize::from(seat);
                let v = s.view(seat);
                s.legal_moves(&rules, &mut moves);
                let eg = Endgame::new(&rules, &v);
                let best = brute(&rules, &s, me);
                assert_eq!(eg.solve(&eg.root), best, "{game:?} seed {seed}");
                let mv = ExpertBot::new(seed).choose(&rules, &LazyView::from(&v), &moves);
                let mut c = s;
                c.apply_unchecked(&rules, mv);
                assert_eq!(brute(&rules, &c, me), best, "{game:?} seed {seed}: {mv}");
            }
        }
    }
}
