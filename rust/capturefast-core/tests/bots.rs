//! Bots: they only play legal moves, never read hidden cards, repeat themselves under a seed,
//! and are ordered in strength expert > greedy > random on duplicate deals.

use capturefast_core::{Bot, BotKind, Game, Move, OptionValue, Position, Rng, Rules, State};

mod common;

const GAMES: [Game; 3] = [Game::Scopa, Game::Escoba, Game::Chkobba];

/// Plays the current hand of `state` to its end, seat `s` played by `bots[s]`.
fn play_hand(rules: &Rules, state: &mut State, bots: &mut [Box<dyn Bot>], moves: &mut Vec<Move>) {
    while !state.hand_over() {
        state.legal_moves(rules, moves);
        let seat = state.to_move().expect("a seat to move");
        let view = state.view(seat);
        let mv = bots[usize::from(seat)].choose(rules, &view, moves);
        assert!(moves.contains(&mv), "{seat}: illegal {mv}");
        state.apply_unchecked(rules, mv);
    }
}

#[test]
fn every_bot_returns_a_legal_move() {
    let mut moves = Vec::new();
    let mut positions = 0u64;
    for game in GAMES {
        for players in [2u8, 4] {
            let rules = Rules::profile(game, players).unwrap();
            for seed in 0..60u64 {
                let mut bots: Vec<Box<dyn Bot>> =
                    BotKind::ALL.iter().map(|k| k.build(seed)).collect();
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
                        let mv = bot.choose(&rules, &view, &moves);
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

/// Builds the position of `state` (in its play phase) card by card.
fn position(state: &State) -> Position {
    Position {
        hands: (0..state.num_players()).map(|s| state.hand(s)).collect(),
        table: state.table(),
        stock: state.stock().to_vec(),
        to_move: state.to_move().unwrap(),
        dealer: state.dealer(),
        last_capturer: state.last_capturer(),
        piles: state.piles(),
        sweeps: state.sweeps(),
        scores: state.scores(),
        seed: 0,
    }
}

/// Moves one card the seat to move cannot see to another hidden place: between another hand
/// and the stock, or between two other hands. `None` when nothing is hidden from it but one
/// hand (a 2-player last round).
fn shuffle_hidden(p: &Position, rng: &mut Rng) -> Option<Position> {
    let me = usize::from(p.to_move);
    let others: Vec<usize> = (0..p.hands.len())
        .filter(|&s| s != me && !p.hands[s].is_empty())
        .collect();
    let mut q = p.clone();
    if others.is_empty() {
        // Only the stock is hidden: its order is.
        let n = p.stock.len();
        if n < 2 {
            return None;
        }
        let i = rng.below(n as u64 - 1) as usize;
        q.stock.swap(i, n - 1);
        return Some(q);
    }
    let a = others[rng.below(others.len() as u64) as usize];
    let ca: Vec<_> = p.hands[a].iter().collect();
    let card_a = ca[rng.below(ca.len() as u64) as usize];
    if !p.stock.is_empty() {
        let i = rng.below(p.stock.len() as u64) as usize;
        q.hands[a].remove(card_a);
        q.hands[a].insert(p.stock[i]);
        q.stock[i] = card_a;
        return Some(q);
    }
    let b = *others.iter().find(|&&b| b != a)?;
    let cb: Vec<_> = p.hands[b].iter().collect();
    let card_b = cb[rng.below(cb.len() as u64) as usize];
    q.hands[a].remove(card_a);
    q.hands[a].insert(card_b);
    q.hands[b].remove(card_b);
    q.hands[b].insert(card_a);
    Some(q)
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
                            for kind in BotKind::ALL {
                                let first = kind.build(seed).choose(&rules, &view1, &moves);
                                let second = kind.build(seed).choose(&rules, &view2, &moves2);
                                assert_eq!(
                                    first, second,
                                    "{kind:?} {game:?} {players}p seed {seed}"
                                );
                            }
                            checked += 1;
                        }
                    }
                    state.legal_moves(&rules, &mut moves);
                    let view = state.view(seat);
                    let mv = driver.choose(&rules, &view, &moves);
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
        let mv = bots[usize::from(seat)].choose(rules, &state.view(seat), &moves);
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

/// Mean and 95% half-width of `a`'s points minus `b`'s per hand, over `deals` duplicate deals:
/// each deal is played twice with the seats swapped and the same bot seeds, which cancels most
/// of the luck of the cards.
fn duplicate(rules: &Rules, a: BotKind, b: BotKind, deals: u64, seed: u64) -> (f64, f64) {
    let mut moves = Vec::new();
    let (mut sum, mut sum2) = (0.0, 0.0);
    for d in 0..deals {
        let s = Rng::derive(seed, d);
        let (sa, sb) = (Rng::derive(s, 1), Rng::derive(s, 2));
        let mut diff = 0.0;
        for a_seat in 0..2usize {
            let mut bots: Vec<Box<dyn Bot>> = vec![a.build(sa), b.build(sb)];
            if a_seat == 1 {
                bots.swap(0, 1);
            }
            let mut state = State::new(rules, s);
            play_hand(rules, &mut state, &mut bots, &mut moves);
            let p = state.hand_score(rules).unwrap().points;
            diff += f64::from(p[a_seat]) - f64::from(p[1 - a_seat]);
        }
        let x = diff / 2.0;
        sum += x;
        sum2 += x * x;
    }
    let n = deals as f64;
    let mean = sum / n;
    let var = (sum2 / n - mean * mean) * n / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
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
/// Each move is legal: `match_moves` plays them with `apply_unchecked`, so check with `is_legal`.
#[test]
fn bots_play_every_move_variant() {
    use common::{OFF, ON, rules, word};
    let variants = [
        rules(
            Game::Escoba,
            2,
            &[("compulsory_capture", OFF), ("renuncio", ON)],
        ),
        rules(
            Game::Scopa,
            4,
            &[("compulsory_capture", OFF), ("renuncio", ON)],
        ),
        rules(Game::Scopa, 2, &[("compulsory_capture", OFF)]),
        rules(
            Game::Chkobba,
            2,
            &[("fewest_cards", ON), ("ace_takes_all", ON)],
        ),
        rules(
            Game::Scopa,
            2,
            &[
                ("capture", word("match_or_fifteen")),
                ("ace_takes_all", ON),
                ("ace_sweep", ON),
                ("declarations", ON),
                ("target", OptionValue::Int(51)),
            ],
        ),
        rules(Game::Scopa, 4, &[("deal", word("scopone"))]),
        rules(
            Game::Scopa,
            4,
            &[
                ("deal", word("scientifico")),
                ("direction", word("clockwise")),
            ],
        ),
    ];
    let mut moves = Vec::new();
    for r in &variants {
        for kind in BotKind::ALL {
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
                    let mv = bots[usize::from(seat)].choose(r, &state.view(seat), &moves);
                    state.play(r, mv).unwrap();
                }
            }
        }
    }
}
