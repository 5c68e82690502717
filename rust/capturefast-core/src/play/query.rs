//! One decision of a built-in bot, asked from outside a simulation: the move a bot named as
//! `simulate` names it (`expert`, `pimc:worlds=400`) chooses in a seat's [`View`]. What another
//! program calls to have a capturefast bot play a position it sends as a view line.

use crate::error::Error;
use crate::game::action::Move;
use crate::game::rules::Rules;
use crate::game::view::{LazyView, View};
use crate::play::sim::Player;

/// The move the bot `spec` (a [`Player::parse`] name with its budget) drawing from `seed`
/// chooses for the seat of `view`, which must be to move, under `rules`. A fresh bot decides,
/// so one position, bot and seed give one move (a time limit `ms` aside).
///
/// # Errors
/// An unknown bot or budget, or one these rules do not allow ([`Error::Variant`]); a view whose
/// seat is not to move ([`Error::IllegalMove`]).
pub fn choose(rules: &Rules, spec: &str, seed: u64, view: &View) -> Result<Move, Error> {
    choose_after(rules, spec, seed, view, &[])
}

/// [`choose`], the fresh bot first told of the moves played before (`history`,
/// [`Bot::observe`](crate::play::bot::Bot::observe)): each as the view of the same seat as `view` just before the move, the seat that played it, and
/// the move. A bot that reasons about the others' play (`pimc:infer=expert`) reads the current
/// round's; the others ignore them.
///
/// # Errors
/// Those of [`choose`]; a told view of another seat or player count than `view`
/// ([`Error::Position`]).
pub fn choose_after(
    rules: &Rules,
    spec: &str,
    seed: u64,
    view: &View,
    history: &[(View, u8, Move)],
) -> Result<Move, Error> {
    if let Some((v, _, _)) = history
        .iter()
        .find(|(v, _, _)| v.seat != view.seat || v.num_players != view.num_players)
    {
        return Err(Error::Position(format!(
            "the moves told are seen by seat {} of {} players, the position by seat {} of {}",
            v.seat, v.num_players, view.seat, view.num_players
        )));
    }
    let player = Player::parse(spec)?;
    player.check_rules(rules)?;
    if view.num_players != rules.num_players() {
        return Err(Error::Position(format!(
            "the view is for {} players, the rules for: {}",
            view.num_players,
            rules.num_players()
        )));
    }
    let legal: Vec<Move> = view
        .legal_moves(rules)?
        .into_iter()
        .map(|(mv, _)| mv)
        .collect();
    if legal.is_empty() {
        return Err(Error::IllegalMove(match view.to_move {
            None => "the hand is over: no move to choose".to_string(),
            Some(m) => format!(
                "seat {} is not to move (seat {m} is), so it has no move to choose: {}",
                view.seat, view.seat
            ),
        }));
    }
    let mut bot = player.build(seed);
    if bot.observes() {
        for (before, seat, mv) in history {
            bot.observe(rules, before, *seat, *mv);
        }
    }
    Ok(bot.choose(rules, &LazyView::from(view), &legal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Game;
    use crate::game::state::State;
    use crate::play::sim::bot_seed;

    #[test]
    fn every_bot_chooses_a_legal_move_and_the_same_one_twice() {
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        let mut moves = Vec::new();
        for seed in 0..20 {
            let state = State::new(&rules, seed);
            let seat = state.to_move().unwrap();
            state.legal_moves(&rules, &mut moves);
            for spec in ["random", "random_card", "greedy", "expert", "pimc:worlds=5"] {
                let view = state.view(seat);
                let a = choose(&rules, spec, bot_seed(seed, seat), &view).unwrap();
                assert!(moves.contains(&a), "{spec}");
                assert_eq!(
                    choose(&rules, spec, bot_seed(seed, seat), &view).unwrap(),
                    a
                );
            }
            let other = state.view(1 - seat);
            let e = choose(&rules, "greedy", 0, &other).unwrap_err();
            assert!(matches!(e, Error::IllegalMove(_)), "{e}");
        }
        let view = State::new(&rules, 1).view(0);
        assert!(choose(&rules, "grandmaster", 0, &view).is_err());
        assert!(choose(&rules, "pimc:worlds=0", 0, &view).is_err());
    }
}
