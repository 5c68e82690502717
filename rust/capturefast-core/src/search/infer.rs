//! Inference from the others' play: how likely a sampled world is, given the moves the other
//! seats made this round and the declarations they scored at its deal.
//!
//! [`determinize`](crate::determinize) draws every world consistent with the cards a seat has seen with the same
//! chance. But a player who trailed a 2 while a 7 lay on the table probably held no 7, and a
//! Cirulla player who scored a declaration holds (or held) the cards that make it.
//! [`Inference`] keeps the moves of the current round (told of each by
//! [`Inference::observe`]) and weighs a world by the product, over the other seats' moves, of the
//! chance that a player holding that world's cards plays the move they played, under a
//! [`PlayModel`] (the softened expert, `ExpertModel`, or the round search's own values,
//! [`SearchModel`]). A world whose hands contradict a declaration weighs nothing.
//!
//! Only the current round matters: the cards of an earlier round were all played, so how they
//! were played says nothing about the cards dealt since.

use std::collections::HashMap;
use std::fmt::Debug;

use crate::game::action::{Move, MoveKind};
use crate::game::cardset::CardSet;
use crate::game::rng::Rng;
use crate::game::rules::Rules;
use crate::game::state::{Phase, State};
use crate::game::view::View;
use crate::game::world::{Draw, Draws};
use crate::search::horizon::{Evaluation, RoundSearch};

/// How a player chooses, as a chance per legal move: the model of the other seats' play that
/// [`Inference`] weighs worlds by.
pub trait PlayModel: Send + Debug {
    /// The chance that the seat of `view` (its hand as the world has it) plays `played`, one of
    /// `legal` (the legal moves of the view, never empty). Only ratios between worlds matter.
    fn likelihood(&mut self, rules: &Rules, view: &View, legal: &[Move], played: Move) -> f64;
}

/// A move seen at the table: the observer's view just before it, who played it, and what.
#[derive(Clone, Copy, Debug)]
struct Seen {
    before: View,
    seat: u8,
    mv: Move,
}

/// The moves of the current round as one seat saw them, and the weight they give a world.
#[derive(Debug)]
pub struct Inference {
    model: Box<dyn PlayModel>,
    /// The current round's moves, in order.
    round: Vec<Seen>,
    /// Declaration points per side before this round's deal, when known.
    declared_before: Option<[u8; 2]>,
    /// Per move of the round, the chance of that move by the hand its player held then (by
    /// the hand's bits), as computed so far.
    cache: Vec<HashMap<u64, f64>>,
    moves: Vec<Move>,
}

impl Inference {
    /// Weighs worlds by `model`.
    pub fn new(model: Box<dyn PlayModel>) -> Inference {
        Inference {
            model,
            round: Vec::new(),
            declared_before: None,
            cache: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// Tells of a move about to be played by `seat` (any seat, the observer's own too), with
    /// the observer's view just before it.
    pub fn observe(&mut self, rules: &Rules, before: &View, seat: u8, mv: Move) {
        if before.phase != Phase::Play || mv.kind() == MoveKind::Claim {
            // A cut decision comes before the deal; a renuncio claim is not modelled: the
            // round's moves are then not all known, and no inference is made this round.
            self.clear();
            return;
        }
        self.roll(rules, before);
        self.round.push(Seen {
            before: *before,
            seat,
            mv,
        });
    }

    /// Forgets what was seen (a new game).
    pub fn clear(&mut self) {
        self.round.clear();
        self.cache.clear();
        self.declared_before = None;
    }

    /// Drops the moves of an earlier round than `view`'s, remembering the declarations
    /// scored before this round's deal when they can be known.
    fn roll(&mut self, rules: &Rules, view: &View) {
        if let Some(last) = self.round.last() {
            let b = &last.before;
            let same_hand = b.dealer == view.dealer
                && b.scores == view.scores
                && b.cards_left() > view.cards_left();
            if same_hand && b.stock_size == view.stock_size {
                return;
            }
            self.declared_before = same_hand.then_some(b.declared);
            self.round.clear();
            self.cache.clear();
        }
        if self.declared_before.is_none() && first_round(rules, view) {
            self.declared_before = Some([0, 0]);
        }
    }

    /// Whether the moves kept are the whole current round of `view` (the observer's view, its
    /// seat to move): every card played since the deal, the table they leave being the view's.
    /// Anything else (a bot told of only some moves, or of another game) makes no inference.
    /// Moves of an earlier round are dropped.
    pub fn knows_round(&mut self, rules: &Rules, view: &View) -> bool {
        if view.phase != Phase::Play {
            return false;
        }
        self.roll(rules, view);
        let n = usize::from(view.num_players);
        let dealt = n * usize::from(rules.hand_size());
        let held: usize = view.hand_sizes[..n].iter().map(|&h| usize::from(h)).sum();
        if held + self.round.len() != dealt {
            return false;
        }
        // Each move leaves the table the next one saw, the last one the view's.
        let tables = self.round.iter().skip(1).map(|s| s.before.table);
        self.round
            .iter()
            .zip(tables.chain(std::iter::once(view.table)))
            .all(|(s, next)| after(s.before.table, s.mv) == next)
    }

    /// Whether there is anything to infer from in `view`: the whole round is known and some
    /// other seat moved in it, or scored a declaration.
    pub fn informs(&mut self, rules: &Rules, view: &View) -> bool {
        self.knows_round(rules, view)
            && (self.round.iter().any(|s| s.seat != view.seat) || self.declarations(view).is_some())
    }

    /// The declaration points each side scored at this round's deal, if declarations are
    /// played, known, and some were scored.
    fn declarations(&self, view: &View) -> Option<[u8; 2]> {
        let before = self.declared_before?;
        let now = view.declared;
        let d = [
            now[0].checked_sub(before[0])?,
            now[1].checked_sub(before[1])?,
        ];
        (d != [0, 0]).then_some(d)
    }

    /// The weight of a world drawn from `view` (the observer's view, its seat to move), if
    /// there is anything to infer from ([`informs`](Inference::informs)); what
    /// [`world_sums`](crate::search::analysis) weighs its draws by.
    pub(crate) fn weigher<'a>(
        &'a mut self,
        rules: &'a Rules,
        view: &'a View,
    ) -> Option<impl FnMut(&State) -> f64 + 'a> {
        let informs = self.informs(rules, view);
        informs.then_some(move |world: &State| self.weight(rules, view, world))
    }

    /// The weight of `world` (drawn from `view`, the observer's view, whose round
    /// [`knows_round`](Inference::knows_round), asked first): the product over the other seats' moves this
    /// round of the chance the model gives the move played from the hand the world gives that
    /// seat then; 0 if the world's hands contradict the declarations scored at the deal.
    pub fn weight(&mut self, rules: &Rules, view: &View, world: &State) -> f64 {
        let me = view.seat;
        let n = usize::from(view.num_players);
        // Cards each seat played after the move being looked at (walking back from the end).
        let mut later = [CardSet::EMPTY; 4];
        let mut w = 1.0;
        self.cache.resize_with(self.round.len(), HashMap::new);
        for (i, s) in self.round.iter().enumerate().rev() {
            let seat = usize::from(s.seat);
            later[seat] |= CardSet::single(s.mv.card());
            if s.seat == me {
                continue;
            }
            let hand = world.hand(s.seat) | later[seat];
            // The chance depends on their hand then alone: worlds that give them the same
            // one share it.
            let cache = &mut self.cache[i];
            let p = if let Some(&p) = cache.get(&hand.bits()) {
                p
            } else {
                let theirs = View {
                    seat: s.seat,
                    hand,
                    unseen: (s.before.unseen | s.before.hand) - hand,
                    ..s.before
                };
                // Their legal moves then: the engine's generator.
                let then = (hand, s.before.table, s.before.claimable);
                world.plays_holding(rules, s.seat, then, &mut self.moves);
                let p = if self.moves.len() > 1 {
                    self.model.likelihood(rules, &theirs, &self.moves, s.mv)
                } else {
                    1.0
                };
                cache.insert(hand.bits(), p);
                p
            };
            w *= p;
        }
        if let Some(d) = self.declarations(view) {
            // Each seat's hand as dealt: its hand now and what it played this round.
            let mut sides = [0u32; 2];
            for seat in 0..n {
                let dealt = world.hand(seat as u8) | later[seat];
                sides[Rules::side(seat as u8)] += u32::from(rules.declaration(dealt));
            }
            if sides != [u32::from(d[0]), u32::from(d[1])] {
                return 0.0;
            }
        }
        w
    }
}

/// Worlds a [`SearchModel`] draws from the mover's view for each hand it values.
pub const SEARCH_MODEL_WORLDS: u32 = 8;

/// The others' play as the round search sees it: each legal move of the mover is valued by the
/// round search `pimc` itself runs (`search::horizon`), averaged over [`SEARCH_MODEL_WORLDS`]
/// worlds drawn from the mover's view (so the observer's own hand is drawn, as the mover would
/// guess it, never read), and played with a chance proportional to `exp(beta * mean value)`,
/// the value in points. The model of `pimc:infer=search`; it costs several times
/// [`ExpertModel`](crate::ExpertModel)'s one-ply valuation.
#[derive(Debug)]
pub struct SearchModel {
    beta: f32,
    rng: Rng,
    round: RoundSearch,
    values: Vec<f32>,
    sums: Vec<f32>,
}

impl SearchModel {
    /// The model with inverse temperature `beta` per point, drawing its worlds from `seed`,
    /// valuing the horizon by the fitted tables (as `pimc` does by default).
    pub fn new(beta: f32, seed: u64) -> SearchModel {
        SearchModel {
            beta,
            rng: Rng::new(seed),
            round: RoundSearch::default(),
            values: Vec::new(),
            sums: Vec::new(),
        }
        .with_evaluation(Evaluation::Fitted)
    }

    /// Values the round search's horizon by `evaluation`.
    pub fn with_evaluation(mut self, evaluation: Evaluation) -> SearchModel {
        self.round.set_evaluation(evaluation);
        self
    }

    /// Weighs the next leader's sweep chance at the horizon by `weight` (see
    /// [`PimcBot::with_sweep_weight`](crate::PimcBot::with_sweep_weight)).
    pub fn with_sweep_weight(mut self, weight: f32) -> SearchModel {
        self.round.set_sweep_weight(weight);
        self
    }
}

impl PlayModel for SearchModel {
    fn likelihood(&mut self, rules: &Rules, view: &View, legal: &[Move], played: Move) -> f64 {
        let Some(i) = legal.iter().position(|&m| m == played) else {
            return 0.0;
        };
        self.sums.clear();
        self.sums.resize(legal.len(), 0.0);
        let mut drawn = 0u32;
        let mut worlds = Draws::new(view, Draw::Independent);
        for _ in 0..SEARCH_MODEL_WORLDS {
            // The mover's view always has a world (it is the mover's turn); if not, no draw.
            let Ok(world) = worlds.draw(rules, &mut self.rng) else {
                break;
            };
            self.round
                .move_values(rules, &world, legal, &mut self.values);
            for (s, &v) in self.sums.iter_mut().zip(&self.values) {
                *s += v;
            }
            drawn += 1;
        }
        if drawn == 0 {
            return 1.0;
        }
        let k = self.beta / drawn as f32;
        let top = self.sums.iter().copied().fold(f32::MIN, f32::max);
        let total: f32 = self.sums.iter().map(|&v| (k * (v - top)).exp()).sum();
        f64::from((k * (self.sums[i] - top)).exp() / total)
    }
}

/// The table after `mv` is played on `table` (a play: a trail adds the card, a capture takes
/// its cards).
fn after(table: CardSet, mv: Move) -> CardSet {
    if mv.captures().is_empty() {
        table | CardSet::single(mv.card())
    } else {
        table - mv.captures()
    }
}

/// Whether `view`, at the first move of a round, is in the hand's first round: its stock is
/// what the first deal leaves.
fn first_round(rules: &Rules, view: &View) -> bool {
    let n = u32::from(view.num_players);
    let first_stock = 40 - u32::from(rules.opening_table_size()) - n * u32::from(rules.hand_size());
    u32::from(view.stock_size) == first_stock
}
