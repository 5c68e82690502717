//! Simulation of independent random hands: the main job's workload and the benchmarks'.
//!
//! Hand `i` of a run seeded with `seed` is dealt and played from `Rng::derive(seed, i)`, so a
//! hand's result does not depend on how a run is split.

use crate::action::Move;
use crate::rng::Rng;
use crate::score::HandScore;
use crate::state::State;
use crate::variant::Rules;

/// Plays the current hand of `state` to its end with uniformly random legal moves drawn from
/// `rng`, and returns its score. `moves` is a scratch buffer.
pub fn play_out_random(
    rules: &Rules,
    state: &mut State,
    rng: &mut Rng,
    moves: &mut Vec<Move>,
) -> HandScore {
    while !state.hand_over() {
        state.legal_moves(rules, moves);
        let mv = moves[rng.below(moves.len() as u64) as usize];
        state.apply_unchecked(rules, mv);
    }
    state.hand_score(rules).expect("the hand is over")
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
