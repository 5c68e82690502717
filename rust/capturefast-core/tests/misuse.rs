//! The public API given what a caller can get wrong: a state played under rules it was not made
//! with, masks with bits that are not cards, raw `Options` past their ranges, a simulation plan
//! for other rules, a search constant that is not a number. Each is an `Err` or a documented,
//! harmless result, never a hang or a panic. (Found by an audit of the public API.)

mod common;

use capturefast_core::play::sim::{self, Control, Mode, Plan, Player};
use capturefast_core::{
    BotKind, CardSet, Game, IsmctsBot, LazyView, Options, Position, Rules, State, perft,
};
use common::{rules, word};

#[test]
fn a_state_refuses_rules_of_another_player_count_or_deal() {
    let two = Rules::profile(Game::Chkobba, 2).unwrap();
    let four = Rules::profile(Game::Chkobba, 4).unwrap();
    let scientifico = rules(Game::Chkobba, 4, &[("deal", word("scientifico"))]);
    // A 4-player cut decision: under 2-player rules the deal never reached seats 2 and 3 (a
    // hang); under scientifico it dealt past the deck (a panic).
    let state = State::new(&four, 3);
    let mut moves = Vec::new();
    state.legal_moves(&four, &mut moves);
    for other in [&two, &scientifico] {
        let mut s = state;
        assert!(s.play(other, moves[0]).is_err());
        assert_eq!(s, state, "a refused move leaves the state as it was");
        assert!(s.check_rules(other).is_err());
        assert!(perft(other, &s, 2).is_err());
    }
    // A 2-player state under 4-player rules: the turn would pass to an empty seat 2.
    let scopa2 = Rules::profile(Game::Scopa, 2).unwrap();
    let scopa4 = Rules::profile(Game::Scopa, 4).unwrap();
    let mut s = State::new(&scopa2, 0);
    s.legal_moves(&scopa2, &mut moves);
    assert!(s.play(&scopa4, moves[0]).is_err());
    let mut over = State::new(&scopa2, 0);
    while !over.hand_over() {
        over.legal_moves(&scopa2, &mut moves);
        over.play(&scopa2, moves[0]).unwrap();
    }
    let mut copy = over;
    assert!(copy.next_hand(&scopa4).is_err());
    assert!(over.next_hand(&scopa2).is_ok());
}

#[test]
fn positions_refuse_bits_that_are_not_cards() {
    let r = Rules::profile(Game::Scopa, 2).unwrap();
    let s = State::new(&r, 1);
    let mut p = common::position(&s);
    p.piles[0] = CardSet(1 << 40);
    p.piles[1] = CardSet(1 << 40);
    assert!(State::from_position(&r, &p).is_err());
    let p: Position = common::position(&s);
    assert!(State::from_position(&r, &p).is_ok());
}

#[test]
fn raw_options_past_their_ranges_are_refused() {
    for (game, field) in [(Game::Scopa, "target 0"), (Game::Scopa, "napola_cap 1")] {
        let mut o = Options::new(game, 2);
        match field {
            "target 0" => o.target = 0,
            _ => o.napola_cap = 1,
        }
        assert!(Rules::new(o).is_err(), "{field}");
    }
    let mut o = Options::new(Game::Scopa, 2);
    o.declaration_triple = 255;
    assert!(Rules::new(o).is_err());
    assert!(Rules::new(Options::new(Game::Chkobba, 4)).is_ok());
}

#[test]
fn a_plan_for_other_rules_is_refused() {
    let two = Rules::profile(Game::Scopa, 2).unwrap();
    let four = Rules::profile(Game::Scopa, 4).unwrap();
    let players = vec![Player::builtin(BotKind::Random); 2];
    let plan = Plan::new(&two, players, Mode::Hands, 10, 1, false).unwrap();
    assert!(sim::run(&four, &plan, 1, &Control::new(), &mut |_| {}).is_err());
    assert!(sim::run(&two, &plan, 1, &Control::new(), &mut |_| {}).is_ok());
}

#[test]
fn a_search_constant_that_is_not_a_number_still_picks_a_legal_move() {
    let r = Rules::profile(Game::Scopa, 2).unwrap();
    for c in [f64::NAN, f64::NEG_INFINITY] {
        let mut bot = IsmctsBot::new(200, 5).with_exploration(c);
        let mut s = State::new(&r, 2);
        let mut moves = Vec::new();
        while !s.hand_over() {
            s.legal_moves(&r, &mut moves);
            let seat = s.to_move().unwrap();
            let mv = bot.choose(&r, &LazyView::new(&s, seat), &moves);
            assert!(moves.contains(&mv));
            s.play(&r, mv).unwrap();
        }
    }
}
