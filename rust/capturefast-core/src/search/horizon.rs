//! A search of one complete world to the end of the current round, for the PIMC bot.
//!
//! Solving a sampled world to the end of the hand (the [`Solver`](crate::Solver)) treats the
//! world's stock order as known: a move that sets up a capture of a card the world happens to
//! deal next scores in that world, though no player could plan for it. This search stops where
//! the hidden future begins: when the round's last card is played (the next deal comes from the
//! stock), or after [`max_plies`] plays. There the position is worth its sweeps and declarations
//! so far, plus the expected category points of the piles (`bots::pile_equity`, the expert's
//! evaluation), plus (or minus, for the other side) the chance that the player to move can sweep
//! the table, weighted ([`default_sweep_weight`]): that a hand of the deal's size drawn from the
//! cards the deciding seat has not seen holds a card that takes it all (exact at a round's end,
//! an approximation at the 4-player ply limit, where that player still holds part of a hand). A hand that ends inside the horizon is
//! scored exactly, so the last round of a 2-player hand, where nothing is hidden, is solved
//! exactly.

use crate::eval::equity::pile_equity;
use crate::eval::fitted::{Leaf, Tables, corrected_equity, tables_for};
use crate::eval::sweep::{count_of_value, sweep_scores, sweep_value};
use crate::game::action::{Move, MoveKind};
use crate::game::cardset::CardSet;
use crate::game::rules::{HAND_SIZE, Rules};
use crate::game::state::State;

/// The deepest the search goes from a decision: a whole round of three-card hands for 2 players
/// (6 plays), two turns around the table for 4 (8 of the round's 12 plays, which would cost
/// thousands of times more), and one turn when the hands are Scopone's nine or ten cards.
pub fn max_plies(rules: &Rules) -> u32 {
    let players = u32::from(rules.num_players());
    if rules.hand_size() > HAND_SIZE {
        players
    } else {
        (2 * players).max(u32::from(HAND_SIZE) * players.min(2))
    }
}

/// A depth-limited alpha-beta search from the side of one seat, with its move buffers.
#[derive(Clone, Debug, Default)]
pub(crate) struct RoundSearch {
    moves: Vec<Vec<Move>>,
    nodes: u64,
    /// The deciding side.
    me: usize,
    /// The horizon, in plays from the decision ([`max_plies`]).
    max_plays: u32,
    /// The cards the deciding seat cannot see.
    unseen: CardSet,
    /// How the piles are valued at the horizon.
    evaluation: Evaluation,
    /// The fitted tables of the rules searched, under [`Evaluation::Fitted`] (none: the rules
    /// have no tables, and the horizon is valued as under [`Evaluation::Equity`]).
    tables: Option<Tables>,
    /// The weight of the sweep chance at the horizon, if set ([`RoundSearch::set_sweep_weight`];
    /// otherwise [`default_sweep_weight`]).
    sweep_weight: Option<f32>,
    /// The weight of the decision being searched.
    weight: f32,
}

/// The weight of the sweep chance at the fitted evaluation's horizon with 2 players: chosen by
/// play (head to head against weight 1, docs/performance.md), not fitted. The chance itself is
/// calibrated: in `expert`'s hands the leader's sweeps after a deal rise by 0.99 a unit of it.
pub const FITTED_SWEEP_WEIGHT: f32 = 0.5;

/// The weight of the sweep chance at the horizon when none is set: [`FITTED_SWEEP_WEIGHT`]
/// under [`Evaluation::Fitted`] with 2 players, 1 otherwise (the hand-made evaluation, as the
/// expert and `cf.analyze` value it, and the 4-player ply limit, where the chance is an
/// approximation and no other weight was measured).
pub fn default_sweep_weight(rules: &Rules, evaluation: Evaluation) -> f32 {
    if evaluation == Evaluation::Fitted && rules.num_players() == 2 {
        FITTED_SWEEP_WEIGHT
    } else {
        1.0
    }
}

/// How the round search values the piles at its horizon.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Evaluation {
    /// The hand-made expected category points (`eval::equity::pile_equity`, the expert's
    /// evaluation). The default.
    #[default]
    Equity,
    /// The hand-made value corrected by tables fitted from the engine's own hands
    /// (`eval::fitted`).
    Fitted,
}

impl RoundSearch {
    /// Values the horizon by `evaluation`.
    pub(crate) fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.evaluation = evaluation;
    }

    /// Weighs the sweep chance at the horizon by `weight` instead of [`default_sweep_weight`].
    pub(crate) fn set_sweep_weight(&mut self, weight: f32) {
        self.sweep_weight = Some(weight);
    }

    /// Positions visited so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The value of each of `moves` (legal in `state`) for the side to move: its points minus
    /// the other side's at the horizon, counting what is already won this hand.
    pub(crate) fn move_values(
        &mut self,
        rules: &Rules,
        state: &State,
        moves: &[Move],
        out: &mut Vec<f32>,
    ) {
        out.clear();
        let seat = state.to_move().expect("a position in play");
        self.me = Rules::side(seat);
        self.max_plays = max_plies(rules);
        self.unseen = !(state.hand(seat) | state.table() | state.pile(0) | state.pile(1));
        self.tables = match self.evaluation {
            Evaluation::Equity => None,
            Evaluation::Fitted => tables_for(rules),
        };
        self.weight = self
            .sweep_weight
            .unwrap_or_else(|| default_sweep_weight(rules, self.evaluation));
        let at = At {
            left: plays_left_in_round(state),
            plays: 0,
            depth: 0,
        };
        for &mv in moves {
            out.push(self.child(rules, state, mv, at, f32::MIN, f32::MAX));
        }
    }

    /// The value of playing `mv` in `state`, reached at `at`.
    fn child(
        &mut self,
        rules: &Rules,
        state: &State,
        mv: Move,
        at: At,
        alpha: f32,
        beta: f32,
    ) -> f32 {
        self.nodes += 1;
        let me = self.me;
        let mut next = *state;
        if let Some(score) = next.apply_scored(rules, mv) {
            return score.margin(me) as f32;
        }
        // A claim plays no card from a hand; a cut decision starts the round.
        let at = At {
            left: match mv.kind() {
                MoveKind::Play => at.left - 1,
                MoveKind::Claim => at.left,
                MoveKind::KeepCut | MoveKind::TableCut => plays_left_in_round(&next),
            },
            plays: at.plays + u32::from(mv.kind() != MoveKind::Claim),
            depth: at.depth + 1,
        };
        if at.left == 0 || at.plays >= self.max_plays {
            return self.horizon_value(rules, &next, me);
        }
        self.search(rules, &next, at, alpha, beta)
    }

    /// Alpha-beta over the moves of `state` (not over), from the deciding side's point of view.
    fn search(
        &mut self,
        rules: &Rules,
        state: &State,
        at: At,
        mut alpha: f32,
        mut beta: f32,
    ) -> f32 {
        if self.moves.len() <= at.depth {
            self.moves.resize_with(at.depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[at.depth]);
        state.legal_moves(rules, &mut moves);
        // Captures of more cards first: they are the likely best replies and cut soonest.
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.captures().len()));
        let maximise = Rules::side(state.to_move().expect("in play")) == self.me;
        let mut best = if maximise { f32::MIN } else { f32::MAX };
        for &mv in &moves {
            let v = self.child(rules, state, mv, at, alpha, beta);
            if maximise {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        self.moves[at.depth] = moves;
        best
    }
}

/// Where a search node is: plays left in the round, plays made since the decision (claims are
/// not plays), and moves made since the decision (the index of its move buffer).
#[derive(Clone, Copy, Debug)]
struct At {
    left: u32,
    plays: u32,
    depth: usize,
}

impl RoundSearch {
    /// A position at the horizon, for `me`: sweeps and declarations so far, the expected
    /// category points of the piles, and the chance that the player to move sweeps the table
    /// (holding, in a fresh hand drawn from the cards the deciding seat has not seen, a card
    /// that takes it all), times the search's sweep weight.
    fn horizon_value(&self, rules: &Rules, state: &State, me: usize) -> f32 {
        let diff = |x: [u8; 2]| f32::from(x[me]) - f32::from(x[1 - me]);
        let piles = match &self.tables {
            None => pile_equity(rules, state.piles(), me),
            Some(tables) => corrected_equity(rules, tables, &Leaf::of(state), me),
        };
        let v = diff(state.sweeps()) + diff(state.declared()) + piles;
        let Some(seat) = state.to_move() else {
            return v;
        };
        let pool = self.unseen - state.table() - state.pile(0) - state.pile(1);
        let p = self.weight * sweep_chance(rules, state, pool);
        if Rules::side(seat) == me {
            v + p
        } else {
            v - p
        }
    }
}

/// The chance that the player to move in `state` sweeps the table with a card of a fresh hand
/// of the deal's size drawn from `pool` (0 when the table is empty, or a sweep would not score
/// or cannot be made by one card): the sweep term of the round search's horizon, unweighted.
pub fn sweep_chance(rules: &Rules, state: &State, pool: CardSet) -> f32 {
    let table = state.table();
    if table.is_empty() || !sweep_scores(rules, state.cards_left()) {
        return 0.0;
    }
    let Some(value) = sweep_value(rules, rules.total(table)) else {
        return 0.0;
    };
    chance_of_one(
        pool.len(),
        count_of_value(rules, pool, value),
        u32::from(rules.hand_size()),
    )
}

/// The chance that `h` cards drawn from `u` hold at least one of `k` given cards.
fn chance_of_one(u: u32, k: u32, h: u32) -> f32 {
    let mut none = 1.0f32;
    for i in 0..h.min(u) {
        none *= u.saturating_sub(k + i) as f32 / (u - i) as f32;
    }
    1.0 - none
}

/// Plays left in the current round: the cards in every hand.
pub(crate) fn plays_left_in_round(state: &State) -> u32 {
    (0..state.num_players()).map(|s| state.hand(s).len()).sum()
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // The search must give exactly the reference values.
mod tests {
    use super::*;
    use crate::game::rng::Rng;
    use crate::game::rules::{Game, OptionValue, Options};
    use crate::search::solver::Solver;

    /// A state of random play with at most `left` cards still to play.
    fn random_position(rules: &Rules, left: u32, rng: &mut Rng) -> Option<State> {
        let mut moves = Vec::new();
        let mut state = State::new(rules, rng.next_u64());
        while state.cards_left() > left {
            state.legal_moves(rules, &mut moves);
            state.apply_unchecked(rules, moves[rng.below(moves.len() as u64) as usize]);
        }
        (!state.hand_over() && state.to_move().is_some()).then_some(state)
    }

    /// The value of playing `mv` by plain minimax to the same horizon: no pruning, no order.
    fn plain(
        s: &RoundSearch,
        rules: &Rules,
        state: &State,
        mv: Move,
        left: u32,
        plays: u32,
    ) -> f32 {
        let me = s.me;
        let mut next = *state;
        if let Some(score) = next.apply_scored(rules, mv) {
            return score.margin(me) as f32;
        }
        let play = u32::from(mv.kind() != MoveKind::Claim);
        let (left, plays) = (left - play, plays + play);
        if left == 0 || plays >= max_plies(rules) {
            return s.horizon_value(rules, &next, me);
        }
        let mut moves = Vec::new();
        next.legal_moves(rules, &mut moves);
        let values = moves
            .iter()
            .map(|&m| plain(s, rules, &next, m, left, plays));
        if Rules::side(next.to_move().unwrap()) == me {
            values.fold(f32::MIN, f32::max)
        } else {
            values.fold(f32::MAX, f32::min)
        }
    }

    fn variants() -> Vec<Rules> {
        let mut optional = Options::new(Game::Escoba, 2);
        optional
            .set("compulsory_capture", &OptionValue::Bool(false))
            .unwrap();
        optional.set("renuncio", &OptionValue::Bool(true)).unwrap();
        let mut all: Vec<Rules> = [Game::Scopa, Game::Escoba, Game::Chkobba]
            .into_iter()
            .flat_map(|g| [2, 4].map(|p| Rules::profile(g, p).unwrap()))
            .collect();
        all.push(Rules::new(optional).unwrap());
        all
    }

    #[test]
    fn the_last_round_of_two_players_is_solved_exactly() {
        // Nothing is hidden and the round's end is the hand's: the values are the solver's.
        let mut rng = Rng::new(3);
        let mut solver = Solver::new(1 << 16);
        let mut search = RoundSearch::default();
        let mut moves = Vec::new();
        let mut values = Vec::new();
        for rules in variants().iter().filter(|r| r.num_players() == 2) {
            for _ in 0..200 {
                let Some(state) = random_position(rules, 6, &mut rng) else {
                    continue;
                };
                state.legal_moves(rules, &mut moves);
                search.move_values(rules, &state, &moves, &mut values);
                let exact = solver.solve(rules, &state).unwrap();
                for (&(mv, want), (&m, &got)) in
                    exact.move_values.iter().zip(moves.iter().zip(&values))
                {
                    assert_eq!(mv, m);
                    assert_eq!(got, want as f32, "{:?} {mv}", rules.game());
                }
            }
        }
    }

    #[test]
    fn pruned_search_equals_plain_minimax() {
        // Positions anywhere in the hand (the horizon is the round's end or `max_plies`), 2 and
        // 4 players, optional capture with renuncio claims.
        // Both evaluations of the horizon: alpha-beta must not change what either gives.
        let mut rng = Rng::new(5);
        let mut moves = Vec::new();
        let mut values = Vec::new();
        for (rules, evaluation) in variants()
            .iter()
            .flat_map(|r| [Evaluation::Equity, Evaluation::Fitted].map(|e| (r, e)))
        {
            let mut search = RoundSearch::default();
            search.set_evaluation(evaluation);
            for _ in 0..60 {
                let left = 4 + rng.below(32) as u32;
                let Some(state) = random_position(rules, left, &mut rng) else {
                    continue;
                };
                state.legal_moves(rules, &mut moves);
                search.move_values(rules, &state, &moves, &mut values);
                let left = plays_left_in_round(&state);
                for (&mv, &got) in moves.iter().zip(&values) {
                    let want = plain(&search, rules, &state, mv, left, 0);
                    assert_eq!(
                        got,
                        want,
                        "{:?} {}p {mv}",
                        rules.game(),
                        rules.num_players()
                    );
                }
            }
        }
    }

    #[test]
    fn the_sweep_weight_scales_the_sweep_chance_alone() {
        // The round's last play (one card in the hands, a later deal in the stock): every move
        // ends at the horizon, and its value is linear in the weight of the leader's chance.
        let mut rng = Rng::new(11);
        let (mut moves, mut values) = (Vec::new(), [Vec::new(), Vec::new(), Vec::new()]);
        let mut weighed = 0;
        for rules in variants().iter().filter(|r| r.num_players() == 2) {
            for evaluation in [Evaluation::Equity, Evaluation::Fitted] {
                for _ in 0..100 {
                    let left = 1 + 6 * (1 + rng.below(4) as u32);
                    let Some(state) = random_position(rules, left, &mut rng) else {
                        continue;
                    };
                    state.legal_moves(rules, &mut moves);
                    if moves.iter().any(|m| m.kind() != MoveKind::Play) {
                        // A renuncio claim plays no card: the search goes on past it.
                        continue;
                    }
                    for (out, weight) in values.iter_mut().zip([0.0, 1.0, 0.5]) {
                        let mut search = RoundSearch::default();
                        search.set_evaluation(evaluation);
                        search.set_sweep_weight(weight);
                        search.move_values(rules, &state, &moves, out);
                    }
                    let [none, full, half] = &values;
                    for ((&none, &full), &half) in none.iter().zip(full).zip(half) {
                        assert!((half - none - 0.5 * (full - none)).abs() < 1e-5);
                        weighed += usize::from(full != none);
                    }
                }
            }
        }
        assert!(weighed > 100, "only {weighed} moves left a sweep chance");
        let fitted =
            |g, p| default_sweep_weight(&Rules::profile(g, p).unwrap(), Evaluation::Fitted);
        assert_eq!(fitted(Game::Chkobba, 2), FITTED_SWEEP_WEIGHT);
        assert_eq!(fitted(Game::Scopa, 4), 1.0);
        let equity = Rules::profile(Game::Escoba, 2).unwrap();
        assert_eq!(default_sweep_weight(&equity, Evaluation::Equity), 1.0);
    }

    #[test]
    fn chance_of_one_card() {
        assert_eq!(chance_of_one(10, 0, 3), 0.0);
        assert_eq!(chance_of_one(10, 10, 3), 1.0);
        // 1 - (8/10)(7/9)(6/8) = 1 - 336/720.
        assert!((chance_of_one(10, 2, 3) - (1.0 - 336.0 / 720.0)).abs() < 1e-6);
        assert_eq!(chance_of_one(0, 0, 3), 0.0);
    }
}
