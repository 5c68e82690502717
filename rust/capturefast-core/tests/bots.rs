//! Bots: they only play legal moves, never read hidden cards, repeat themselves under a seed,
//! and are ordered in strength expert > greedy > random on duplicate deals.

use capturefast_core::{Bot, BotKind, Game, LazyView, Move, Rng, Rules, State};

mod common;
use common::{position, shuffle_hidden};

const GAMES: [Game; 3] = [Game::Scopa, Game::Escoba, Game::Chkobba];

#[test]
fn every_bot_returns_a_legal_move() {
    let mut moves = Vec::new();
    let mut positions = 0u64;
    for game in GAMES {
        for players in [2u8, 4] {
            let rules = Rules::profile(game, players).unwrap();
            for seed in 0..60u64 {
                let mut bots: Vec<Box<dyn Bot>> =
                    BotKind::FAST.iter().map(|k| k.build(seed)).collect();
                let mut rng = Rng::new(seed ^ 0xABCD);
                let mut state = State::new(&rules, seed);
                // A whole match, the moves made by a bot picked at random each turn, so
                // positions come from every kind of play.
                loop {
                    if state.hand_over() {
                        if state.match_over() {
                            break;
                        }
                        state.next_hand(&rules).unwrap();
                        continue;
                    }
                    state.legal_moves(&rules, &mut moves);
                    let view = state.view(state.to_move().unwrap());
                    let mut chosen = Vec::with_capacity(bots.len());
                    for bot in &mut bots {
                        let mv = bot.choose(&rules, &LazyView::from(&view), &moves);
                        assert!(
                            moves.contains(&mv),
                            "{game:?} {players}p seed {seed}: illegal {mv}"
                        );
                        chosen.push(mv);
                    }
                    positions += 1;
                    let pick = chosen[rng.below(chosen.len() as u64) as usize];
                    state.apply_unchecked(&rules, pick);
                }
            }
        }
    }
    assert!(positions > 10_000, "{positions}");
}

#[test]
fn bots_never_read_hidden_cards() {
    let mut moves = Vec::new();
    let mut moves2 = Vec::new();
    let mut checked = 0u64;
    for game in GAMES {
        for players in [2u8, 4] {
            let rules = Rules::profile(game, players).unwrap();
            for seed in 0..40u64 {
                let mut rng = Rng::new(seed + 77);
                let mut state = State::new(&rules, seed);
                let mut driver = BotKind::Greedy.build(seed);
                while !state.hand_over() {
                    state.legal_moves(&rules, &mut moves);
                    let seat = state.to_move().unwrap();
                    if state.cut_card().is_none() {
                        let seen = position(&state);
                        if let Some(other) = shuffle_hidden(&seen, &mut rng) {
                            let one = State::from_position(&rules, &seen).unwrap();
                            let two = State::from_position(&rules, &other).unwrap();
                            assert_ne!(one, two, "the hidden cards differ");
                            let (view1, view2) = (one.view(seat), two.view(seat));
                            assert_eq!(view1, view2, "the seat sees the same");
                            one.legal_moves(&rules, &mut moves);
                            two.legal_moves(&rules, &mut moves2);
                            assert_eq!(moves, moves2);
                            for kind in BotKind::FAST {
                                let first = kind.build(seed).choose(
                                    &rules,
                                    &LazyView::from(&view1),
                                    &moves,
                                );
                                let second = kind.build(seed).choose(
                                    &rules,
                                    &LazyView::from(&view2),
                                    &moves2,
                                );
                                assert_eq!(
                                    first, second,
                                    "{kind:?} {game:?} {players}p seed {seed}"
                                );
                            }
                            // The random bot's shortcut in simulations reads the state itself:
                            // it too sees only the seat's cards and the table.
                            for k in 0..moves.len() as u32 {
                                assert_eq!(
                                    one.pick_move(&rules, |_| k),
                                    two.pick_move(&rules, |_| k)
                                );
                                // The random-card draw: card `k` (when there is one), move 0.
                                let draw = || {
                                    let mut first = true;
                                    move |n: u32| {
                                        let i = if first { k.min(n - 1) } else { 0 };
                                        first = false;
                                        i
                                    }
                                };
                                assert_eq!(
                                    one.pick_card_move(&rules, draw()),
                                    two.pick_card_move(&rules, draw())
                                );
                            }
                            checked += 1;
                        }
                    }
                    state.legal_moves(&rules, &mut moves);
                    let mv = driver.choose(&rules, &LazyView::new(&state, seat), &moves);
                    state.apply_unchecked(&rules, mv);
                }
            }
        }
    }
    assert!(checked > 3_000, "{checked}");
}

/// Plays a match between `kinds` (by seat, repeated round the table) and returns every move.
fn match_moves(rules: &Rules, kinds: [BotKind; 2], seed: u64) -> (Vec<Move>, [u32; 2]) {
    let n = rules.num_players();
    let mut bots: Vec<Box<dyn Bot>> = (0..n)
        .map(|s| kinds[usize::from(s % 2)].build(seed + u64::from(s)))
        .collect();
    let mut state = State::new(rules, seed);
    let mut moves = Vec::new();
    let mut log = Vec::new();
    loop {
        if state.hand_over() {
            if state.match_over() {
                return (log, state.scores());
            }
            state.next_hand(rules).unwrap();
            continue;
        }
        state.legal_moves(rules, &mut moves);
        let seat = state.to_move().unwrap();
        let mv = bots[usize::from(seat)].choose(rules, &LazyView::new(&state, seat), &moves);
        log.push(mv);
        state.apply_unchecked(rules, mv);
    }
}

#[test]
fn same_seed_same_choices() {
    for game in GAMES {
        for players in [2u8, 4] {
            let rules = Rules::profile(game, players).unwrap();
            for kinds in [
                [BotKind::Greedy, BotKind::Expert],
                [BotKind::Random, BotKind::RandomCard],
                [BotKind::Expert, BotKind::Greedy],
            ] {
                for seed in 0..5 {
                    let a = match_moves(&rules, kinds, seed);
                    let b = match_moves(&rules, kinds, seed);
                    assert_eq!(a, b, "{game:?} {players}p {kinds:?} seed {seed}");
                }
            }
        }
    }
}

/// [`common::duplicate`] between two built-in bots.
fn duplicate(rules: &Rules, a: BotKind, b: BotKind, deals: u64, seed: u64) -> (f64, f64) {
    common::duplicate(rules, &|s| a.build(s), &|s| b.build(s), deals, seed)
}

#[test]
fn expert_beats_greedy_beats_random() {
    let deals = 3000;
    for game in GAMES {
        let rules = Rules::profile(game, 2).unwrap();
        for (a, b, min) in [
            (BotKind::Expert, BotKind::Greedy, 0.3),
            (BotKind::Greedy, BotKind::Random, 1.0),
            (BotKind::Expert, BotKind::Random, 1.5),
        ] {
            let (mean, ci) = duplicate(&rules, a, b, deals, 2024);
            eprintln!(
                "{:8} {:6} vs {:6}: {mean:+.3} ± {ci:.3} points per hand ({deals} deals)",
                game.name(),
                a.name(),
                b.name()
            );
            assert!(
                mean - ci > min,
                "{game:?}: {a:?} vs {b:?} {mean:.3} ± {ci:.3}"
            );
        }
    }
}

#[test]
fn four_player_bots_play_whole_matches() {
    // Partnerships: greedy and expert against random, a sanity check of the 4-player paths.
    for game in GAMES {
        let rules = Rules::profile(game, 4).unwrap();
        let mut diff = 0i64;
        for seed in 0..40 {
            let (_, scores) = match_moves(&rules, [BotKind::Expert, BotKind::Random], seed);
            diff += i64::from(scores[0]) - i64::from(scores[1]);
        }
        assert!(diff > 0, "{game:?}: {diff}");
    }
}

/// Every built-in bot plays whole matches under the variants that change the move list
/// (docs/variants.md): claims, optional trails, aces taking all, fewest cards, Scopone deals.
#[test]
fn bots_play_every_move_variant() {
    let variants = common::move_variants();
    let mut moves = Vec::new();
    for r in &variants {
        for kind in BotKind::FAST {
            for seed in 0..3 {
                let n = r.num_players();
                let mut bots: Vec<Box<dyn Bot>> = (0..n)
                    .map(|s| kind.build(seed * 10 + u64::from(s)))
                    .collect();
                let mut state = State::new(r, seed);
                while !state.match_over() {
                    if state.hand_over() {
                        state.next_hand(r).unwrap();
                        continue;
                    }
                    state.legal_moves(r, &mut moves);
                    let seat = state.to_move().unwrap();
                    let mv =
                        bots[usize::from(seat)].choose(r, &LazyView::new(&state, seat), &moves);
                    state.play(r, mv).unwrap();
                }
            }
        }
    }
}

/// `pimc` at the round horizon solves the worlds of the second-to-last round of a 2-player
/// hand to the hand's end, and only those: each decision of random hands is the choice of a
/// `horizon=hand` bot there and of a bot without the endgame solve elsewhere (fresh bots of one
/// seed, so each draws the same worlds). Under optional capture it never solves.
#[test]
fn pimc_solves_the_second_to_last_round_and_only_it() {
    use capturefast_core::{Horizon, PimcBot, View};
    let optional = {
        let mut o = Rules::profile(Game::Scopa, 2).unwrap().options().clone();
        o.compulsory_capture = false;
        Rules::new(o).unwrap()
    };
    let mut solved = 0;
    for rules in [
        Rules::profile(Game::Scopa, 2).unwrap(),
        Rules::profile(Game::Escoba, 2).unwrap(),
        Rules::profile(Game::Chkobba, 2).unwrap(),
        Rules::profile(Game::Scopa, 4).unwrap(),
        optional,
    ] {
        for seed in 0..4 {
            let mut state = State::new(&rules, seed);
            let mut rng = Rng::new(seed);
            let mut moves = Vec::new();
            while let Some(seat) = state.to_move() {
                state.legal_moves(&rules, &mut moves);
                let view: View = state.view(seat);
                let ends = capturefast_core::search::pimc::solves_endgame(&rules, &view);
                let last_deal = rules.num_players() == 2
                    && rules.compulsory_capture()
                    && state.phase() == capturefast_core::Phase::Play
                    && (1..=6).contains(&state.stock().len());
                assert_eq!(ends, last_deal, "{view:?}");
                if moves.len() > 1 && state.phase() == capturefast_core::Phase::Play {
                    let lazy = LazyView::from(&view);
                    let choose = |mut bot: PimcBot| bot.choose(&rules, &lazy, &moves);
                    let default = choose(PimcBot::new(6, seed));
                    let other = if ends {
                        solved += 1;
                        choose(PimcBot::with_horizon(6, Horizon::Hand, seed))
                    } else {
                        choose(PimcBot::new(6, seed).with_endgame(false))
                    };
                    assert_eq!(default, other, "{view:?}");
                }
                let mv = moves[rng.below(moves.len() as u64) as usize];
                state.apply_unchecked(&rules, mv);
            }
        }
    }
    assert!(solved > 40, "{solved}");
}
