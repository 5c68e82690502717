//! One decision of a built-in bot, asked from outside a simulation: the move a bot named as
//! `simulate` names it (`expert`, `pimc:worlds=400`) chooses in a seat's [`View`]. What another
//! program calls to have a capturefast bot play a position it sends as a view line.

use crate::error::Error;
use crate::game::action::{Move, MoveKind};
use crate::game::rules::Rules;
use crate::game::view::{LazyView, View};
use crate::play::sim::Player;
use crate::search::solver::Interrupt;

/// The move the bot `spec` (a [`Player::parse`] name with its budget) drawing from `seed`
/// chooses for the seat of `view`, which must be to move, under `rules`. A fresh bot decides,
/// so one position, bot and seed give one move (a time limit `ms` aside).
///
/// # Errors
/// An unknown bot or budget, or one these rules do not allow ([`Error::Variant`]); a view whose
/// seat is not to move ([`Error::IllegalMove`]).
pub fn choose(rules: &Rules, spec: &str, seed: u64, view: &View) -> Result<Move, Error> {
    choose_after(rules, spec, seed, view, &[], &Interrupt::default()).map(|c| c.mv)
}

/// A bot's decision ([`choose_after`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move chosen.
    pub mv: Move,
    /// Whether the decision was ended early, by the interrupt or the bot's own time limit
    /// ([`Bot::stopped`](crate::play::bot::Bot::stopped)).
    pub stopped: bool,
}

/// [`choose`], the fresh bot first told of the moves played before (`history`,
/// [`Bot::observe`](crate::play::bot::Bot::observe)): each as the view of the same seat as `view` just before the move, the seat that played it, and
/// the move. A bot that reasons about the others' play (`pimc:infer=expert`) reads the current
/// round's; the others ignore them. `interrupt`: what ends a search bot's decision early once
/// due ([`Bot::set_interrupt`](crate::play::bot::Bot::set_interrupt)): a flag set, a deadline.
///
/// # Errors
/// Those of [`choose`]; a history [`check_history`] refuses ([`Error::Position`]).
pub fn choose_after(
    rules: &Rules,
    spec: &str,
    seed: u64,
    view: &View,
    history: &[(View, u8, Move)],
    interrupt: &Interrupt,
) -> Result<Choice, Error> {
    check_history(view, history)?;
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
    if interrupt.is_armed() {
        bot.set_interrupt(interrupt.clone());
    }
    if bot.observes() {
        for (before, seat, mv) in history {
            bot.observe(rules, before, *seat, *mv);
        }
    }
    let mv = bot.choose(rules, &LazyView::from(view), &legal);
    Ok(Choice {
        mv,
        stopped: bot.stopped(),
    })
}

/// Checks that `history` (as [`choose_after`] takes it) can be moves that led to `view`: each
/// told view of the seat and player count of `view`, and each one able to come before the
/// next and the last before `view` ([`View::may_precede`]), a card played leaving the hands
/// for good: moves of another deal or hand, out of order, or told with the state after them
/// instead of the one they were played from, are refused rather than silently giving no
/// inference.
///
/// # Errors
/// [`Error::Position`], naming the first told move that does not fit.
pub fn check_history(view: &View, history: &[(View, u8, Move)]) -> Result<(), Error> {
    if let Some((v, _, _)) = history
        .iter()
        .find(|(v, _, _)| v.seat != view.seat || v.num_players != view.num_players)
    {
        return Err(Error::Position(format!(
            "the moves told are seen by seat {} of {} players, the position by seat {} of {}",
            v.seat, v.num_players, view.seat, view.num_players
        )));
    }
    let later = history.iter().skip(1).map(|(v, _, _)| v);
    for (i, ((before, _, mv), next)) in history
        .iter()
        .zip(later.chain(std::iter::once(view)))
        .enumerate()
    {
        // A card played is gone from every hand by the next view, and seen (a cut decision
        // and a renuncio claim play none).
        let not_gone = mv.kind() == MoveKind::Play
            && !(next.cards_left() < before.cards_left()
                && !next.hand.contains(mv.card())
                && !next.unseen.contains(mv.card()));
        if !before.may_precede(next) || not_gone {
            let what = if i + 1 == history.len() {
                "the position"
            } else {
                "the next move's"
            };
            return Err(Error::Position(format!(
                "history[{i}] ({mv}) cannot come before {what}: its state is of another deal \
                 or hand, or out of order, or not the state its move was played from"
            )));
        }
    }
    Ok(())
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

    #[test]
    fn an_interrupt_ends_a_search_bots_decision_and_says_so() {
        use std::sync::Arc;
        use std::sync::atomic::AtomicBool;
        use std::time::{Duration, Instant};
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        let state = State::new(&rules, 3);
        let view = state.view(state.to_move().unwrap());
        let legal: Vec<Move> = view
            .legal_moves(&rules)
            .unwrap()
            .iter()
            .map(|m| m.0)
            .collect();
        let none = Interrupt::default();
        let set = Interrupt {
            cancel: Some(Arc::new(AtomicBool::new(true))),
            ..Interrupt::default()
        };
        let past = Interrupt {
            deadline: Some(Instant::now()),
            ..Interrupt::default()
        };
        // Budgets of seconds a decision: each ends at once, with a legal move, and says it
        // was cut short.
        for spec in [
            "pimc:worlds=10000",
            "pimc:worlds=10000,horizon=hand",
            "ismcts:iterations=1000000",
        ] {
            for interrupt in [&set, &past] {
                let start = Instant::now();
                let c = choose_after(&rules, spec, 1, &view, &[], interrupt).unwrap();
                assert!(c.stopped, "{spec}");
                assert!(start.elapsed() < Duration::from_secs(1), "{spec}");
                assert!(legal.contains(&c.mv), "{spec}");
            }
        }
        // Uninterrupted, or by an interrupt that never comes: not stopped, the same move.
        let never = Interrupt {
            flag: Some(Arc::new(AtomicBool::new(false))),
            ..Interrupt::default()
        };
        for spec in ["pimc:worlds=20", "ismcts:iterations=200", "expert"] {
            let a = choose_after(&rules, spec, 1, &view, &[], &none).unwrap();
            let b = choose_after(&rules, spec, 1, &view, &[], &never).unwrap();
            assert!(!a.stopped && a == b, "{spec}");
        }
        // The bot's own time limit is reported too; a fast bot is never stopped.
        let timed = choose_after(&rules, "pimc:worlds=10000,ms=5", 1, &view, &[], &none);
        assert!(timed.unwrap().stopped);
        let fast = choose_after(&rules, "greedy", 1, &view, &[], &past).unwrap();
        assert!(!fast.stopped);
    }

    /// The told moves of the first `plies` plies of deal `seed` (each as seat 0 saw it before
    /// the move, the mover, the move; the first legal move played each time) and the state
    /// they lead to.
    fn told_from(rules: &Rules, seed: u64, plies: usize) -> (Vec<(View, u8, Move)>, State) {
        let (mut state, mut moves, mut told) = (State::new(rules, seed), Vec::new(), Vec::new());
        for _ in 0..plies {
            let seat = state.to_move().unwrap();
            state.legal_moves(rules, &mut moves);
            told.push((state.view(0), seat, moves[0]));
            state.play(rules, moves[0]).unwrap();
        }
        (told, state)
    }

    #[test]
    fn a_history_must_lead_to_the_position() {
        for rules in [
            Rules::profile(Game::Scopa, 2).unwrap(),
            Rules::profile(Game::Chkobba, 4).unwrap(),
        ] {
            let (told, state) = told_from(&rules, 7, 9);
            let view = state.view(0);
            check_history(&view, &told).unwrap();
            check_history(&view, &told[4..]).unwrap();
            check_history(&view, &[]).unwrap();
            // Out of order: the last move told before the first.
            let mut swapped = told.clone();
            swapped.swap(0, 8);
            assert!(matches!(
                check_history(&view, &swapped),
                Err(Error::Position(_))
            ));
            // Each move told with the state it led to, not the one it was played from: the
            // last is told from the position itself.
            let shifted: Vec<_> = told
                .iter()
                .zip(told.iter().skip(1).map(|t| t.0).chain([view]))
                .map(|(&(_, seat, mv), after)| (after, seat, mv))
                .collect();
            for from in [0, 8] {
                let e = check_history(&view, &shifted[from..]).unwrap_err();
                assert!(
                    e.to_string().contains("history[") && e.to_string().contains("played from"),
                    "{e}"
                );
            }
            // Moves of other deals, of the same length.
            for seed in 0..20 {
                let (other, _) = told_from(&rules, 100 + seed, 9);
                let e = check_history(&view, &other).unwrap_err();
                assert!(e.to_string().contains("another deal"), "{e}");
            }
            // The next hand of the same match: the hand before's moves do not lead to it.
            let (mut done, mut moves, mut history) =
                (State::new(&rules, 7), Vec::new(), Vec::new());
            while !done.hand_over() {
                done.legal_moves(&rules, &mut moves);
                history.push((done.view(0), done.to_move().unwrap(), moves[0]));
                done.play(&rules, moves[0]).unwrap();
            }
            done.next_hand(&rules).unwrap();
            while done.to_move() != Some(0) {
                done.legal_moves(&rules, &mut moves);
                done.play(&rules, moves[0]).unwrap();
            }
            let next = done.view(0);
            let last = &history[history.len() - 3..];
            assert!(check_history(&next, last).is_err());
            let none = Interrupt::default();
            assert!(choose_after(&rules, "pimc:worlds=3", 0, &next, last, &none).is_err());
        }
    }

    /// Every history that did lead to a position is accepted: random play under every preset
    /// (Chkobba's cut, Cirulla's declarations and redeals among them) and with renuncio's
    /// claims, each position checked against every suffix of the moves since its hand's deal.
    #[test]
    fn every_real_history_is_accepted() {
        use crate::game::options::Options;
        use crate::game::presets::PRESETS;
        use crate::game::rng::Rng;
        let mut all: Vec<Rules> = PRESETS
            .iter()
            .map(|p| Rules::new(p.options(None).unwrap()).unwrap())
            .collect();
        let mut renuncio = Options::new(Game::Escoba, 2);
        for (name, on) in [("compulsory_capture", false), ("renuncio", true)] {
            let value = crate::game::words::OptionValue::Bool(on);
            renuncio.set(name, &value).unwrap();
        }
        all.push(Rules::new(renuncio).unwrap());
        for game in [Game::Scopa, Game::Escoba, Game::Chkobba] {
            all.push(Rules::profile(game, 4).unwrap());
        }
        let (mut moves, mut cuts, mut claims) = (Vec::new(), 0, 0);
        for rules in &all {
            for seed in 0..20 {
                let mut rng = Rng::new(seed);
                let mut state = State::new(rules, seed);
                let mut told: Vec<(State, u8, Move)> = Vec::new();
                while !state.hand_over() {
                    let seat = state.to_move().unwrap();
                    for start in (0..told.len()).step_by(3) {
                        let views: Vec<(View, u8, Move)> = told[start..]
                            .iter()
                            .map(|(s, m, mv)| (s.view(seat), *m, *mv))
                            .collect();
                        check_history(&state.view(seat), &views).unwrap();
                    }
                    state.legal_moves(rules, &mut moves);
                    let mv = moves[rng.below(moves.len() as u64) as usize];
                    cuts += usize::from(state.phase() == crate::game::state::Phase::Cut);
                    claims += usize::from(mv.kind() == crate::game::action::MoveKind::Claim);
                    told.push((state, seat, mv));
                    state.play(rules, mv).unwrap();
                }
            }
        }
        assert!(
            cuts > 0 && claims > 0,
            "{cuts} cut decisions, {claims} claims"
        );
    }
}
