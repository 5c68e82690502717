//! The PIMC bot: perfect-information Monte Carlo over worlds drawn from the view, each searched
//! to its [`Horizon`], the second-to-last round of a 2-player hand solved to the hand's end
//! ([`solves_endgame`]).

use std::time::Duration;

use crate::eval::choice::Best;
use crate::game::action::Move;
use crate::game::rng::Rng;
use crate::game::rules::Rules;
use crate::game::state::Phase;
use crate::game::view::{LazyView, View};
use crate::game::world::{Draw, is_open};
use crate::search::analysis::{Fallback, Horizon, WeighWorld, search_world, world_sums};
use crate::search::horizon::{Evaluation, RoundSearch};
use crate::search::infer::{Inference, PlayModel};
use crate::search::solver::{Interrupt, Solver};

const PIMC_TT_ENTRIES: usize = 1 << 18;

/// Perfect-information Monte Carlo: each decision draws `worlds` worlds consistent with the view
/// ([`determinize`](crate::determinize)), searches each to its [`Horizon`], and plays the move with the best mean
/// value (exact ties broken by the bot's generator). Deterministic under its seed.
///
/// With an [`Inference`] ([`PimcBot::with_inference`]), the worlds are weighed by how likely
/// the other seats' moves this round are under a model of their play (and by Cirulla's
/// declarations), from the moves the bot is told of ([`PimcBot::observe`]).
///
/// Under [`Horizon::Round`], a decision of the second-to-last round of a 2-player hand solves
/// each world to the hand's end instead ([`solves_endgame`]), unless
/// [`PimcBot::with_endgame`]`(false)`.
#[derive(Debug)]
pub struct PimcBot {
    worlds: u32,
    horizon: Horizon,
    endgame: bool,
    draw: Draw,
    time_limit: Option<Duration>,
    /// What else ends a decision early ([`PimcBot::set_interrupt`]).
    interrupt: Interrupt,
    /// Whether the last decision was ended early ([`PimcBot::stopped`]).
    stopped: bool,
    rng: Rng,
    solver: Option<Solver>,
    round: RoundSearch,
    inference: Option<Inference>,
}

impl PimcBot {
    /// A PIMC bot sampling `worlds` worlds per decision (at least 1), drawing from `seed`,
    /// searching each to the end of the round ([`Horizon::Round`]).
    pub fn new(worlds: u32, seed: u64) -> PimcBot {
        PimcBot::with_horizon(worlds, Horizon::Round, seed)
    }

    /// A PIMC bot searching each world to `horizon`.
    pub fn with_horizon(worlds: u32, horizon: Horizon, seed: u64) -> PimcBot {
        PimcBot {
            worlds: worlds.max(1),
            horizon,
            endgame: true,
            draw: Draw::Balanced,
            time_limit: None,
            interrupt: Interrupt::default(),
            stopped: false,
            rng: Rng::new(seed),
            solver: None,
            round: RoundSearch::default(),
            inference: None,
        }
    }

    /// Search nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.solver.as_ref().map_or(0, Solver::nodes) + self.round.nodes()
    }

    /// Values the piles at the round search's horizon by `evaluation` (the default:
    /// [`Evaluation::Equity`]).
    pub fn with_evaluation(mut self, evaluation: Evaluation) -> PimcBot {
        self.round.set_evaluation(evaluation);
        self
    }

    /// Weighs the chance that the next round's leader sweeps the table, at the round search's
    /// horizon, by `weight` (the default:
    /// [`default_sweep_weight`](crate::search::horizon::default_sweep_weight), 0.5 under
    /// [`Evaluation::Fitted`] with 2 players, else 1).
    pub fn with_sweep_weight(mut self, weight: f32) -> PimcBot {
        self.round.set_sweep_weight(weight);
        self
    }

    /// Whether the second-to-last round of a 2-player hand is solved to the hand's end under
    /// [`Horizon::Round`] ([`solves_endgame`]; the default) or searched to the round's end like
    /// the others (`false`).
    pub fn with_endgame(mut self, endgame: bool) -> PimcBot {
        self.endgame = endgame;
        self
    }

    /// How the worlds are drawn: [`Draw::Balanced`] (the default) or each apart
    /// ([`Draw::Independent`]).
    pub fn with_draw(mut self, draw: Draw) -> PimcBot {
        self.draw = draw;
        self
    }

    /// Weighs the worlds by the other seats' moves this round under `model` (see [`Inference`]):
    /// the bot must then be told of every move played ([`PimcBot::observe`]); a round it was
    /// not told all of is sampled uniformly.
    pub fn with_inference(mut self, model: Box<dyn PlayModel>) -> PimcBot {
        self.inference = Some(Inference::new(model));
        self
    }

    /// Whether the bot reads the moves it is told of ([`PimcBot::with_inference`]).
    pub fn observes(&self) -> bool {
        self.inference.is_some()
    }

    /// Tells the bot of a move `seat` is about to play, `before` being the bot's own view
    /// just before it.
    pub fn observe(&mut self, rules: &Rules, before: &View, seat: u8, mv: Move) {
        if let Some(inference) = &mut self.inference {
            inference.observe(rules, before, seat, mv);
        }
    }

    /// Also stops a decision once `limit` has passed, after fewer worlds than its budget (at
    /// least one is searched); with inference, the weighing of the drawn worlds stops at half
    /// of `limit`. A world's exact solve (`horizon = hand`, the endgame solve) stops at the
    /// limit too: it is left out, or if it is the first world the round search values it. A
    /// time limit makes the choices depend on the machine's speed.
    pub fn with_time_limit(mut self, limit: Duration) -> PimcBot {
        self.time_limit = Some(limit);
        self
    }

    /// Ends each decision once `interrupt` is due (one of its flags set from another thread,
    /// or its deadline passed, whichever comes first with the time limit), as the time limit
    /// does. Its node budget is not read: the bot's solves are its own.
    pub fn set_interrupt(&mut self, interrupt: Interrupt) {
        self.interrupt = interrupt.without_nodes();
    }

    /// Whether the last decision was ended early, by the time limit or the interrupt: fewer
    /// worlds searched than its budget, their weighing cut short, or the first world's exact
    /// solve cut short and valued by the round search instead.
    pub fn stopped(&self) -> bool {
        self.stopped
    }
}

impl PimcBot {
    /// The move with the best mean value over the sampled worlds (`legal` never empty: the
    /// view's legal moves).
    pub fn choose(&mut self, rules: &Rules, view: &LazyView<'_>, legal: &[Move]) -> Move {
        self.stopped = false;
        if legal.len() == 1 {
            return legal[0];
        }
        let view = &view.get();
        let seed = self.rng.next_u64();
        let horizon = if self.endgame && solves_endgame(rules, view) {
            Horizon::Hand
        } else {
            self.horizon
        };
        let (solver, round) = (&mut self.solver, &mut self.round);
        let fresh = self.worlds > 1 && !is_open(view);
        let mut weigh = self.inference.as_mut().and_then(|i| i.weigher(rules, view));
        let interrupt = self.interrupt.clone().with_time_limit(self.time_limit);
        let mut refused = false;
        let sums = world_sums(
            rules,
            view,
            (self.worlds, seed, self.draw),
            &interrupt,
            weigh.as_mut().map(|f| f as &mut WeighWorld),
            &mut |w, l, first, v| {
                // Once the first world is refused as too large, the round search values all.
                let solver = (horizon == Horizon::Hand && !refused)
                    .then(|| solver.get_or_insert_with(|| Solver::new(PIMC_TT_ENTRIES)));
                let valued =
                    search_world(rules, w, l, solver, fresh, round, (&interrupt, first), v);
                refused |= matches!(valued, Ok(Some(Fallback::TooLarge(_))));
                valued
            },
        );
        // Only a view that is not the seat's turn fails (a bot is never asked it): a world
        // too large for the exact solver is valued by the round search.
        let Ok(sums) = sums else {
            return legal[0];
        };
        self.stopped = sums.stopped;
        // Every move has the same number of worlds: compare the sums.
        let mut best = Best::new(f64::MIN, legal[0]);
        for (&mv, &sum) in sums.moves.iter().zip(&sums.sum) {
            best.offer(&mut self.rng, sum, mv);
        }
        best.choice
    }
}

/// Whether a round-horizon decision of `view` solves each world to the end of the hand: 2
/// players, the stock holding the last deal (one more hand each), three-card hands at most, and
/// compulsory capture (the exact solver's rules). The last round then hides nothing (each
/// player sees the other's hand as the cards not seen), so the solve values it exactly where
/// the round search would estimate it, and knows nothing a player will not: the world's split of
/// the last deal is dealt to both before anyone plays from it.
pub fn solves_endgame(rules: &Rules, view: &View) -> bool {
    let hand = u32::from(rules.hand_size());
    view.phase == Phase::Play
        && view.num_players == 2
        && hand <= 3
        && rules.compulsory_capture()
        && view.stock_size > 0
        && u32::from(view.stock_size) <= 2 * hand
}
