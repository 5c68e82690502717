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
//!   capture value (card counting from [`View::unseen`](crate::View::unseen)); and in the last round of a 2-player
//!   hand, where every card is known, it searches the rest of the hand exactly.

use crate::error::Error;
use crate::game::action::Move;
use crate::game::rng::Rng;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::game::view::{LazyView, View};
pub use crate::play::bot::Bot;
use crate::play::expert::{EXPERT_MODEL_BETA, ExpertBot, ExpertModel};
use crate::play::greedy::GreedyBot;
use crate::search::horizon::Evaluation;
use crate::search::ismcts::IsmctsBot;
use crate::search::pimc::PimcBot;
use crate::search::solver::Interrupt;

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
    /// ([`PimcBot`], [`PIMC_WORLDS`] worlds a decision), weighed by the others' moves this
    /// round ([`ExpertModel`]).
    Pimc,
    /// Single-observer information set Monte Carlo tree search
    /// ([`IsmctsBot`], [`ISMCTS_ITERATIONS`] iterations a decision).
    Ismcts,
}

/// Worlds per decision of the built-in `pimc` bot.
pub const PIMC_WORLDS: u32 = 100;

/// Iterations per decision of the built-in `ismcts` bot.
pub const ISMCTS_ITERATIONS: u32 = crate::search::ismcts::DEFAULT_ITERATIONS;

impl BotKind {
    /// The built-in bots that decide in microseconds: every one but `pimc` and `ismcts`. Tests and
    /// benchmarks that run each bot over thousands of positions iterate over these.
    pub const FAST: [BotKind; 4] = [
        BotKind::Random,
        BotKind::RandomCard,
        BotKind::Greedy,
        BotKind::Expert,
    ];

    /// Every built-in bot: [`BotKind::FAST`], `pimc` and `ismcts`, whose decisions take
    /// milliseconds (a search per sampled world; thousands of tree-search iterations).
    pub const ALL: [BotKind; 6] = [
        BotKind::Random,
        BotKind::RandomCard,
        BotKind::Greedy,
        BotKind::Expert,
        BotKind::Pimc,
        BotKind::Ismcts,
    ];

    /// Whether it is one of [`BotKind::FAST`], which decide in microseconds and read no
    /// [`Interrupt`].
    pub fn is_fast(self) -> bool {
        BotKind::FAST.contains(&self)
    }

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

    /// Parses a bot name (any of [`BotKind::ALL`]).
    pub fn from_name(name: &str) -> Result<BotKind, Error> {
        BotKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = BotKind::ALL.iter().map(|k| k.name()).collect();
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

/// The built-in `pimc` bot with `worlds` worlds: worlds weighed by the others' moves this
/// round under the softened expert ([`ExpertModel`], `infer=expert`), the round's end valued by
/// the fitted tables ([`Evaluation::Fitted`], `eval=fitted`).
pub(crate) fn default_pimc(worlds: u32, seed: u64) -> PimcBot {
    PimcBot::new(worlds, seed)
        .with_evaluation(Evaluation::Fitted)
        .with_inference(Box::new(ExpertModel::new(EXPERT_MODEL_BETA)))
}

/// A seat's bot in a simulation: a fast built-in bot ([`BotKind::FAST`]) held by value and
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
            BotKind::Pimc => SeatBot::Boxed(Box::new(default_pimc(PIMC_WORLDS, seed))),
            BotKind::Ismcts => SeatBot::Boxed(Box::new(IsmctsBot::new(ISMCTS_ITERATIONS, seed))),
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

    fn observes(&self) -> bool {
        match self {
            SeatBot::Boxed(b) => b.observes(),
            _ => false,
        }
    }

    fn observe(&mut self, rules: &Rules, before: &View, seat: u8, mv: Move) {
        if let SeatBot::Boxed(b) = self {
            b.observe(rules, before, seat, mv);
        }
    }

    fn set_interrupt(&mut self, interrupt: Interrupt) {
        if let SeatBot::Boxed(b) = self {
            b.set_interrupt(interrupt);
        }
    }

    fn stopped(&self) -> bool {
        match self {
            SeatBot::Boxed(b) => b.stopped(),
            _ => false,
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

// The search bots live in `search`, which does not know the `Bot` trait: they are seated here.

impl Bot for PimcBot {
    fn choose(&mut self, rules: &Rules, view: &LazyView<'_>, legal: &[Move]) -> Move {
        PimcBot::choose(self, rules, view, legal)
    }

    fn observes(&self) -> bool {
        PimcBot::observes(self)
    }

    fn observe(&mut self, rules: &Rules, before: &View, seat: u8, mv: Move) {
        PimcBot::observe(self, rules, before, seat, mv);
    }

    fn set_interrupt(&mut self, interrupt: Interrupt) {
        PimcBot::set_interrupt(self, interrupt);
    }

    fn stopped(&self) -> bool {
        PimcBot::stopped(self)
    }
}

impl Bot for IsmctsBot {
    fn choose(&mut self, rules: &Rules, view: &LazyView<'_>, legal: &[Move]) -> Move {
        IsmctsBot::choose(self, rules, view, legal)
    }

    fn set_interrupt(&mut self, interrupt: Interrupt) {
        IsmctsBot::set_interrupt(self, interrupt);
    }

    fn stopped(&self) -> bool {
        IsmctsBot::stopped(self)
    }
}
