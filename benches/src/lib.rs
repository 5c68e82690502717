//! Benchmarks of capturefast live in `rust/`; this library holds what they share: the seeded
//! inputs.

use capturefast_core::{Move, Rng, Rules, State};

/// The first `n` decision points of random hands, in order, each with the uniformly random
/// legal move played there (hand `h` dealt from `Rng::derive(seed, h)`). Fixed and seeded, so
/// that every run measures the same work.
///
/// # Panics
/// If a position in play has no legal move (a broken engine).
#[must_use]
pub fn random_moves(rules: &Rules, seed: u64, n: usize) -> Vec<(State, Move)> {
    let mut out = Vec::with_capacity(n);
    let mut moves = Vec::with_capacity(64);
    for h in 0.. {
        let s = Rng::derive(seed, h);
        let mut state = State::new(rules, s);
        let mut rng = Rng::new(s ^ 0x5EED);
        while !state.hand_over() {
            if out.len() == n {
                return out;
            }
            state.legal_moves(rules, &mut moves);
            assert!(!moves.is_empty(), "a position in play has a legal move");
            let mv = moves[rng.below(moves.len() as u64) as usize];
            out.push((state, mv));
            state.apply_unchecked(rules, mv);
        }
    }
    unreachable!("the loop returns once it has the positions")
}
