//! The ISMCTS bot: it plays only legal moves in every game, player count and move variant,
//! repeats itself under a seed, never reads hidden cards, and beats `random` on duplicate
//! deals. `cargo test --release --test ismcts -- --ignored --nocapture` prints its time per
//! decision and its margins against `greedy` and `expert`.

use std::time::Instant;

use capturefast_core::{Bot, BotKind, Game, IsmctsBot, LazyView, Move, Rng, Rules, State};

mod common;
use common::{OFF, ON, duplicate, position, rules, shuffle_hidden};

const GAMES: [Game; 3] = [Game::Scopa, Game::Escoba, Game::Chkobba];

fn ismcts(iterations: u32) -> impl Fn(u64) -> Box<dyn Bot> {
    move |seed| Box::new(IsmctsBot::new(iterations, seed))
}

fn kind(k: BotKind) -> impl Fn(u64) -> Box<dyn Bot> {
    move |seed| k.build(seed)
}

/// Plays whole hands: every seat an ISMCTS bot with a small budget, every move checked against
/// the legal list.
fn play_checked(r: &Rules, iterations: u32, seeds: std::ops::Range<u64>) -> u64 {
    let mut decisions = 0;
    for seed in seeds {
        let n = r.num_players();
        let mut bots: Vec<Box<IsmctsBot>> = (0..n)
            .map(|s| Box::new(IsmctsBot::new(iterations, seed * 10 + u64::from(s))))
            .collect();
        let mut state = State::new(r, seed);
        decisions += common::play_logged(r, &mut state, &mut bots).len() as u64;
        // Next hand once, so a dealer and scores other than the first deal's are seen.
        if !state.match_over() && seed % 3 == 0 {
            state.next_hand(r).unwrap();
            decisions += common::play_logged(r, &mut state, &mut bots).len() as u64;
        }
    }
    decisions
}

#[test]
fn plays_only_legal_moves() {
    let mut decisions = 0;
    for game in GAMES {
        for players in [2u8, 4] {
            let r = Rules::profile(game, players).unwrap();
            decisions += play_checked(&r, 40, 0..6);
        }
    }
    assert!(decisions > 600, "{decisions}");
}

#[test]
fn plays_every_move_variant() {
    let variants = common::move_variants();
    for r in &variants {
        play_checked(r, 40, 0..4);
    }
}

/// Every move of a whole hand between two ISMCTS bots (or four).
fn hand_moves(rules: &Rules, iterations: u32, seed: u64) -> Vec<Move> {
    let n = rules.num_players();
    let mut bots: Vec<Box<IsmctsBot>> = (0..n)
        .map(|s| Box::new(IsmctsBot::new(iterations, seed + u64::from(s))))
        .collect();
    let mut state = State::new(rules, seed);
    common::play_logged(rules, &mut state, &mut bots)
}

#[test]
fn same_seed_same_choices() {
    for game in GAMES {
        for players in [2u8, 4] {
            let r = Rules::profile(game, players).unwrap();
            for seed in 0..3 {
                let a = hand_moves(&r, 100, seed);
                assert_eq!(a, hand_moves(&r, 100, seed), "{game:?} {players}p {seed}");
            }
        }
    }
    // The built-in bot too.
    let r = Rules::profile(Game::Scopa, 2).unwrap();
    let s = State::new(&r, 9);
    let mut moves = Vec::new();
    s.legal_moves(&r, &mut moves);
    let view = s.view(s.to_move().unwrap());
    let first = BotKind::Ismcts
        .build(5)
        .choose(&r, &LazyView::from(&view), &moves);
    assert_eq!(
        BotKind::Ismcts
            .build(5)
            .choose(&r, &LazyView::from(&view), &moves),
        first
    );
    assert_eq!(BotKind::from_name("ismcts").unwrap(), BotKind::Ismcts);
    assert!(!BotKind::FAST.contains(&BotKind::Ismcts));
}

#[test]
fn never_reads_hidden_cards() {
    let mut moves = Vec::new();
    let mut moves2 = Vec::new();
    let mut checked = 0u64;
    for game in GAMES {
        for players in [2u8, 4] {
            let r = Rules::profile(game, players).unwrap();
            for seed in 0..8u64 {
                let mut rng = Rng::new(seed + 77);
                let mut state = State::new(&r, seed);
                let mut driver = BotKind::Greedy.build(seed);
                while !state.hand_over() {
                    let seat = state.to_move().unwrap();
                    if state.cut_card().is_none() {
                        let seen = position(&state);
                        if let Some(other) = shuffle_hidden(&seen, &mut rng) {
                            let one = State::from_position(&r, &seen).unwrap();
                            let two = State::from_position(&r, &other).unwrap();
                            assert_ne!(one, two, "the hidden cards differ");
                            let (view1, view2) = (one.view(seat), two.view(seat));
                            assert_eq!(view1, view2, "the seat sees the same");
                            one.legal_moves(&r, &mut moves);
                            two.legal_moves(&r, &mut moves2);
                            assert_eq!(moves, moves2);
                            let mut a = IsmctsBot::new(60, seed);
                            let mut b = IsmctsBot::new(60, seed);
                            let first = a.choose(&r, &LazyView::from(&view1), &moves);
                            let second = b.choose(&r, &LazyView::from(&view2), &moves2);
                            assert_eq!(first, second, "{game:?} {players}p seed {seed}");
                            assert_eq!(a.root_stats(), b.root_stats());
                            checked += 1;
                        }
                    }
                    state.legal_moves(&r, &mut moves);
                    let mv = driver.choose(&r, &LazyView::new(&state, seat), &moves);
                    state.apply_unchecked(&r, mv);
                }
            }
        }
    }
    assert!(checked > 500, "{checked}");
}

#[test]
fn time_limit_stops_early() {
    let r = Rules::profile(Game::Scopa, 2).unwrap();
    let s = State::new(&r, 3);
    let mut moves = Vec::new();
    s.legal_moves(&r, &mut moves);
    let view = s.view(s.to_move().unwrap());
    let mut bot = IsmctsBot::new(u32::MAX, 1).with_time_limit(std::time::Duration::from_millis(5));
    let t0 = Instant::now();
    let mv = bot.choose(&r, &LazyView::from(&view), &moves);
    assert!(moves.contains(&mv));
    assert!(t0.elapsed().as_secs_f64() < 1.0);
    assert!(bot.last_iterations() >= 1 && bot.last_iterations() < u32::MAX);
}

#[test]
fn beats_random() {
    // About 5 s in release: a default-budget bot against `random`, 2 players.
    for game in GAMES {
        let r = Rules::profile(game, 2).unwrap();
        let deals = 40;
        let (mean, ci) = duplicate(
            &r,
            &ismcts(capturefast_core::play::bots::ISMCTS_ITERATIONS),
            &kind(BotKind::Random),
            deals,
            2024,
        );
        eprintln!(
            "{:8} ismcts vs random: {mean:+.3} ± {ci:.3} points per hand ({deals} deals)",
            game.name()
        );
        assert!(mean - ci > 1.0, "{game:?}: {mean:.3} ± {ci:.3}");
    }
}

/// Mean and spread of the time per decision at the start of a hand and in its middle.
fn decision_times(r: &Rules, iterations: u32, seeds: u64) {
    let mut moves = Vec::new();
    let (mut start, mut start_n, mut mid, mut mid_n) = (0.0, 0, 0.0, 0);
    for seed in 0..seeds {
        let mut state = State::new(r, seed);
        let mut driver = BotKind::Greedy.build(seed);
        let mut bot = IsmctsBot::new(iterations, seed);
        let (mut ply, mut mid_done) = (0, false);
        while !state.hand_over() {
            state.legal_moves(r, &mut moves);
            let seat = state.to_move().unwrap();
            let view = state.view(seat);
            // The first decision, and the first real choice from the 17th play on.
            let at_mid = !mid_done && ply >= 16 && moves.len() > 1;
            if ply == 0 || at_mid {
                let t0 = Instant::now();
                std::hint::black_box(bot.choose(r, &LazyView::from(&view), &moves));
                let t = t0.elapsed().as_secs_f64() * 1e3;
                if ply == 0 {
                    (start, start_n) = (start + t, start_n + 1);
                } else {
                    (mid, mid_n, mid_done) = (mid + t, mid_n + 1, true);
                }
            }
            let mv = driver.choose(r, &LazyView::from(&view), &moves);
            state.apply_unchecked(r, mv);
            ply += 1;
        }
    }
    eprintln!(
        "{:8} {}p {iterations} iterations: {:.2} ms a decision at the start of a hand, {:.2} ms from \
         play 17 on",
        r.game().name(),
        r.num_players(),
        start / f64::from(start_n),
        mid / f64::from(mid_n.max(1)),
    );
}

/// Time per decision and margins against `greedy` and `expert` (points per hand, 95% CI).
/// A few minutes in release: `cargo test --release --test ismcts -- --ignored --nocapture`.
/// `ISMCTS_DEALS` (default 300) and `ISMCTS_ITERATIONS` (default the built-in budget) change
/// the run.
#[test]
#[ignore = "a few minutes: cargo test --release --test ismcts -- --ignored --nocapture"]
fn strength_report() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let deals = env("ISMCTS_DEALS", 300);
    let iterations = env(
        "ISMCTS_ITERATIONS",
        u64::from(capturefast_core::play::bots::ISMCTS_ITERATIONS),
    ) as u32;
    for game in GAMES {
        decision_times(&Rules::profile(game, 2).unwrap(), iterations, 30);
    }
    decision_times(&Rules::profile(Game::Scopa, 4).unwrap(), iterations, 30);
    for game in GAMES {
        let r = Rules::profile(game, 2).unwrap();
        for other in [BotKind::Random, BotKind::Greedy, BotKind::Expert] {
            let t0 = Instant::now();
            let (mean, ci) = duplicate(&r, &ismcts(iterations), &kind(other), deals, 7);
            eprintln!(
                "{:8} 2p ismcts({iterations}) vs {:6}: {mean:+.3} ± {ci:.3} points per hand \
                 ({deals} deals, {:.0} s)",
                game.name(),
                other.name(),
                t0.elapsed().as_secs_f64()
            );
        }
    }
}

#[test]
fn simulate_seats_it_by_name() {
    // The batch simulation takes `ismcts` by name, also with optional capture (it never solves
    // exactly), and its results do not depend on the thread count.
    use capturefast_core::play::sim::{Control, Mode, Plan, Player, run};
    let r = rules(
        Game::Escoba,
        2,
        &[("compulsory_capture", OFF), ("renuncio", ON)],
    );
    let players = ["ismcts", "random"]
        .iter()
        .map(|n| Player::builtin(BotKind::from_name(n).unwrap()))
        .collect();
    let plan = Plan::new(&r, players, Mode::Hands, 6, 11, true).unwrap();
    let one = run(&r, &plan, 1, &Control::new(), &mut |_| {}).unwrap();
    let two = run(&r, &plan, 2, &Control::new(), &mut |_| {}).unwrap();
    assert_eq!(one.completed, 6);
    assert_eq!(one, two);
}
