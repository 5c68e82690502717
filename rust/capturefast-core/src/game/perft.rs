//! Perft: the number of move paths from a position, the standard check of a move generator
//! (shakmaty's `perft`, after chess engines).
//!
//! Two generators whose counts agree at every depth up to `d` from a position agree on the
//! number of legal moves at every node within `d` plies of it, across every branch, where a
//! replay of random games checks one branch at a time. `tests/test_differential.py` compares
//! these counts with the reference engine's.
//!
//! A path ends where the hand ends (the next hand is dealt by `State::next_hand`, not by a
//! move), so a finished hand counts 1 at any depth.

use crate::error::Error;
use crate::game::action::Move;
use crate::game::rules::Rules;
use crate::game::state::State;

/// The number of sequences of `depth` legal moves from `state`, a sequence that ends the hand
/// earlier counting once: 1 at depth 0 or on a finished hand, else the sum over the legal moves
/// of the count from the state after each at `depth - 1`.
///
/// It grows about as the product of the numbers of legal moves along a path: Scopa's opening
/// rounds at depth 6 have some thousands of paths, 4-player hands of ten cards (Scopone
/// scientifico) about 10^8 at depth 8.
///
/// # Errors
/// `rules` of another player count or deal than the state's ([`State::check_rules`]).
pub fn perft(rules: &Rules, state: &State, depth: u32) -> Result<u64, Error> {
    state.check_rules(rules)?;
    let mut moves = Vec::new();
    Ok(count(rules, state, depth, &mut moves))
}

/// The counts of [`perft`] at `depth - 1` after each legal move from `state`, in the order of
/// `State::legal_moves` ("divide": where two generators differ, it names the first move whose
/// subtree they count differently). Empty at depth 0 or on a finished hand.
///
/// # Errors
/// As [`perft`].
pub fn perft_divide(rules: &Rules, state: &State, depth: u32) -> Result<Vec<(Move, u64)>, Error> {
    state.check_rules(rules)?;
    if depth == 0 || state.hand_over() {
        return Ok(Vec::new());
    }
    let mut moves = Vec::new();
    state.legal_moves(rules, &mut moves);
    let mut scratch = Vec::new();
    Ok(moves
        .into_iter()
        .map(|mv| {
            let mut next = *state;
            next.apply_unchecked(rules, mv);
            (mv, count(rules, &next, depth - 1, &mut scratch))
        })
        .collect())
}

/// [`perft`] with one move list per level: `moves` is this level's, and the next level gets a
/// fresh one, so a level's list is not reused while it is walked.
fn count(rules: &Rules, state: &State, depth: u32, moves: &mut Vec<Move>) -> u64 {
    if depth == 0 || state.hand_over() {
        return 1;
    }
    state.legal_moves(rules, moves);
    debug_assert!(!moves.is_empty(), "a hand in play has a legal move");
    if depth == 1 {
        // Each move's path ends after it: no need to play them.
        return moves.len() as u64;
    }
    let mut below = Vec::with_capacity(moves.len());
    let mut total = 0;
    for &mv in moves.iter() {
        let mut next = *state;
        next.apply_unchecked(rules, mv);
        total += count(rules, &next, depth - 1, &mut below);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Game;

    /// Perft's recursion counted a second way: by walking every path to its end with an
    /// explicit stack, one leaf at a time.
    fn leaves(rules: &Rules, state: &State, depth: u32) -> u64 {
        let mut stack = vec![(*state, depth)];
        let mut n = 0;
        let mut moves = Vec::new();
        while let Some((s, d)) = stack.pop() {
            if d == 0 || s.hand_over() {
                n += 1;
                continue;
            }
            s.legal_moves(rules, &mut moves);
            for &mv in &moves {
                let mut t = s;
                t.play(rules, mv).expect("a listed move is legal");
                stack.push((t, d - 1));
            }
        }
        n
    }

    #[test]
    fn counts_equal_a_walk_of_every_path() {
        for game in [Game::Scopa, Game::Escoba, Game::Chkobba] {
            for players in [2, 4] {
                let rules = Rules::profile(game, players).unwrap();
                for seed in 0..4 {
                    let state = State::new(&rules, seed);
                    for depth in 0..=4 {
                        let n = perft(&rules, &state, depth).unwrap();
                        assert_eq!(n, leaves(&rules, &state, depth), "{game:?} {seed} {depth}");
                        let divide = perft_divide(&rules, &state, depth).unwrap();
                        if depth > 0 {
                            assert_eq!(divide.iter().map(|&(_, c)| c).sum::<u64>(), n);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_finished_hand_counts_once() {
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        let mut state = State::new(&rules, 5);
        let mut moves = Vec::new();
        while !state.hand_over() {
            state.legal_moves(&rules, &mut moves);
            state.apply_unchecked(&rules, moves[0]);
        }
        assert_eq!(perft(&rules, &state, 0).unwrap(), 1);
        assert_eq!(perft(&rules, &state, 3).unwrap(), 1);
        assert!(perft_divide(&rules, &state, 3).unwrap().is_empty());
    }

    #[test]
    fn depth_one_is_the_number_of_legal_moves() {
        let rules = Rules::profile(Game::Escoba, 2).unwrap();
        let state = State::new(&rules, 9);
        let mut moves = Vec::new();
        state.legal_moves(&rules, &mut moves);
        assert_eq!(perft(&rules, &state, 1).unwrap(), moves.len() as u64);
    }

    #[test]
    fn rules_of_another_player_count_or_deal_are_refused() {
        let two = Rules::profile(Game::Chkobba, 2).unwrap();
        let four = Rules::profile(Game::Chkobba, 4).unwrap();
        // A 4-player cut decision dealt under 2-player rules never reached seats 2 and 3.
        let state = State::new(&four, 1);
        assert!(perft(&two, &state, 3).is_err());
        assert!(perft_divide(&two, &state, 3).is_err());
        let mut o = crate::game::rules::Options::new(Game::Chkobba, 4);
        o.set(
            "deal",
            &crate::game::rules::OptionValue::Str("scientifico".into()),
        )
        .unwrap();
        let scientifico = Rules::new(o).unwrap();
        assert!(perft(&scientifico, &state, 3).is_err());
        assert_eq!(perft(&four, &state, 1).unwrap(), 2);
    }
}
