//! The exact solver against a plain minimax, determinization, analysis and the PIMC bot.
//!
//! Position counts shrink in debug builds (the plain minimax is slow unoptimised); the figures
//! quoted in the doc comments are those of `cargo test --release`.

use capturefast_core::{
    Bot, BotKind, Draw, Game, Horizon, LazyView, Move, OptionValue, Options, PimcBot, Rng, Rules,
    Solver, State, View, analyze, analyze_to, determinize, is_open, solver_shortcuts_exact,
};

mod common;
use common::{duplicate, play_logged, position};

const GAMES: [Game; 3] = [Game::Scopa, Game::Escoba, Game::Chkobba];

/// Scales a count for debug builds.
fn scaled(n: usize) -> usize {
    if cfg!(debug_assertions) {
        n.div_ceil(20)
    } else {
        n
    }
}

// ----- the reference: a plain minimax -----

/// Points of `side` minus the other side's in a finished hand.
fn final_diff(rules: &Rules, state: &State, side: usize) -> i32 {
    let p = state.hand_score(rules).expect("the hand is over").points;
    p[side] as i32 - p[1 - side] as i32
}

/// The value of playing `mv` at `state` for the side to move: the final points difference if
/// the hand ends, else the child's value, negated when the side to move changes.
fn minimax_move(rules: &Rules, state: &State, mv: Move) -> i32 {
    let side = Rules::side(state.to_move().unwrap());
    let mut child = *state;
    child.apply_unchecked(rules, mv);
    if child.hand_over() {
        return final_diff(rules, &child, side);
    }
    let v = minimax(rules, &child);
    if Rules::side(child.to_move().unwrap()) == side {
        v
    } else {
        -v
    }
}

/// The minimax value of a hand in play for its side to move: every legal move, no pruning, no
/// table.
fn minimax(rules: &Rules, state: &State) -> i32 {
    let mut moves = Vec::new();
    state.legal_moves(rules, &mut moves);
    moves
        .iter()
        .map(|&mv| minimax_move(rules, state, mv))
        .max()
        .unwrap()
}

// ----- positions -----

/// A position with `left` cards still to play, reached by random moves from a fresh deal.
fn position_with(rules: &Rules, left: u32, rng: &mut Rng) -> State {
    let mut moves = Vec::new();
    let mut state = State::new(rules, rng.next_u64());
    while state.cards_left() > left {
        state.legal_moves(rules, &mut moves);
        let mv = moves[rng.below(moves.len() as u64) as usize];
        state.apply_unchecked(rules, mv);
    }
    assert!(!state.hand_over());
    state
}

fn rules_with(game: Game, players: u8, options: &[(&str, OptionValue)]) -> Rules {
    let mut o = Options::new(game, players);
    for (name, value) in options {
        o.set(name, value).unwrap();
    }
    Rules::new(o).unwrap()
}

/// Checks `Solver::solve` and `Solver::value` against the minimax on `count` positions with
/// `left` cards to play; returns the number of positions checked.
fn check_against_minimax(
    rules: &Rules,
    left: u32,
    count: usize,
    seed: u64,
    solver: &mut Solver,
) -> usize {
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    for i in 0..count {
        let state = position_with(rules, left, &mut rng);
        state.legal_moves(rules, &mut moves);
        let want: Vec<(Move, i32)> = moves
            .iter()
            .map(|&m| (m, minimax_move(rules, &state, m)))
            .collect();
        let best = want.iter().map(|&(_, v)| v).max().unwrap();
        let got = solver.solve(rules, &state).unwrap();
        let what = || format!("{:?} {left} left, position {i}", rules.options());
        assert_eq!(got.move_values, want, "{}", what());
        assert_eq!(got.value, best, "{}", what());
        let best_moves: Vec<Move> = want.iter().filter(|w| w.1 == best).map(|w| w.0).collect();
        assert_eq!(got.best_moves(), best_moves, "{}", what());
        assert_eq!(solver.value(rules, &state).unwrap(), best, "{}", what());
    }
    count
}

#[test]
fn two_players_match_the_minimax() {
    // Per game in release: 1500 positions with 6 plays left (the last round), 1000 with 12 (the
    // last deal still in the stock), 500 with 9 (mid-round), 100 each with 1 and 2. One solver
    // with a small table serves them all, so entries are reused across solves and replaced
    // often.
    let mut solver = Solver::new(1 << 12);
    let mut total = 0;
    for (g, game) in GAMES.into_iter().enumerate() {
        let rules = Rules::profile(game, 2).unwrap();
        for (left, count) in [(6, 1500), (12, 1000), (9, 500), (1, 100), (2, 100)] {
            let seed = 1000 * g as u64 + u64::from(left);
            total += check_against_minimax(&rules, left, scaled(count), seed, &mut solver);
        }
    }
    eprintln!("2 players: {total} positions agree with the minimax");
}

#[test]
fn four_players_match_the_minimax() {
    let mut solver = Solver::new(1 << 14);
    let mut total = 0;
    for (g, game) in GAMES.into_iter().enumerate() {
        let rules = Rules::profile(game, 4).unwrap();
        // Per game: the last round from its start (12), its middle (9) and its last turn (6),
        // and the last play before the last deal (13).
        for (left, count) in [(6, 1000), (12, 500), (9, 500), (13, 200)] {
            let seed = 2000 * g as u64 + u64::from(left);
            total += check_against_minimax(&rules, left, scaled(count), seed, &mut solver);
        }
    }
    eprintln!("4 players: {total} positions agree with the minimax");
}

#[test]
#[ignore = "about 20 min: a plain minimax of 15 to 18 plays is slow; run with --release --ignored"]
fn deep_positions_match_the_minimax() {
    let mut solver = Solver::new(1 << 16);
    let mut total = 0;
    for (g, game) in GAMES.into_iter().enumerate() {
        let rules = Rules::profile(game, 2).unwrap();
        for (left, count) in [(18, 60), (15, 100)] {
            let seed = 5000 * g as u64 + u64::from(left);
            total += check_against_minimax(&rules, left, count, seed, &mut solver);
        }
    }
    eprintln!("deep: {total} positions agree with the minimax");
}

#[test]
fn option_variants_match_the_minimax() {
    let counts = OptionValue::Str("counts".into());
    let zero = OptionValue::Str("zero".into());
    let variants: Vec<Rules> = vec![
        rules_with(Game::Scopa, 2, &[("last_play_sweep", counts.clone())]),
        rules_with(Game::Chkobba, 2, &[("last_play_sweep", counts.clone())]),
        rules_with(Game::Escoba, 2, &[("last_play_sweep", counts.clone())]),
        rules_with(Game::Scopa, 4, &[("last_play_sweep", counts.clone())]),
        rules_with(Game::Scopa, 2, &[("primiera_missing_suit", zero.clone())]),
        rules_with(Game::Escoba, 2, &[("primiera_missing_suit", zero)]),
        rules_with(
            Game::Chkobba,
            2,
            &[
                ("chkobba_face_values", OptionValue::Str("italian".into())),
                ("cut_card", OptionValue::Bool(false)),
            ],
        ),
        rules_with(Game::Chkobba, 4, &[("last_play_sweep", counts)]),
    ];
    // One solver for all: a change of rules must clear its table.
    let mut solver = Solver::new(1 << 12);
    let mut total = 0;
    for (v, rules) in variants.iter().enumerate() {
        for (left, count) in [(6, 300), (12, 60)] {
            let seed = 3000 * v as u64 + u64::from(left);
            total += check_against_minimax(rules, left, scaled(count), seed, &mut solver);
        }
    }
    eprintln!("option variants: {total} positions agree with the minimax");
}

fn w(s: &str) -> OptionValue {
    OptionValue::Str(s.into())
}

/// Checks every rule set at a few depths with one solver (a change of rules clears its table).
fn check_variants(variants: &[Rules], depths: &[(u32, usize)], seed: u64) -> usize {
    let mut solver = Solver::new(1 << 12);
    let mut total = 0;
    for (v, rules) in variants.iter().enumerate() {
        for &(left, count) in depths {
            let seed = seed + 100 * v as u64 + u64::from(left);
            total += check_against_minimax(rules, left, scaled(count), seed, &mut solver);
        }
    }
    total
}

#[test]
fn scoring_variants_match_the_minimax() {
    // Every scoring option away from its default: the solver leaves its shortcuts for the plain
    // search valued by the real scoring, and must agree with the minimax move for move.
    let b = OptionValue::Bool;
    let i = OptionValue::Int;
    let variants: Vec<Rules> = vec![
        rules_with(Game::Scopa, 2, &[("primiera_figures", w("graded"))]),
        rules_with(Game::Scopa, 2, &[("primiera_figures", w("zero"))]),
        rules_with(Game::Escoba, 2, &[("primiera_mode", w("most_sevens"))]),
        rules_with(Game::Scopa, 2, &[("primiera_mode", w("three_sevens"))]),
        rules_with(Game::Chkobba, 2, &[("bermila", w("cascade"))]),
        rules_with(Game::Chkobba, 2, &[("bermila", w("primiera"))]),
        rules_with(Game::Scopa, 2, &[("re_bello", b(true))]),
        rules_with(Game::Scopa, 2, &[("napola", b(true))]),
        rules_with(Game::Scopa, 2, &[("napola", b(true)), ("napola_cap", i(3))]),
        rules_with(Game::Scopa, 2, &[("grande", i(5))]),
        rules_with(Game::Escoba, 2, &[("all_coins_bonus", i(2))]),
        rules_with(Game::Escoba, 2, &[("all_sevens_bonus", i(3))]),
        rules_with(
            Game::Scopa,
            4,
            &[
                ("primiera_figures", w("graded")),
                ("primiera_missing_suit", w("zero")),
                ("re_bello", b(true)),
                ("napola", b(true)),
                ("grande", i(2)),
            ],
        ),
        rules_with(Game::Scopa, 2, &[("all_coins_wins", b(true))]),
    ];
    for r in &variants[..variants.len() - 1] {
        assert!(!solver_shortcuts_exact(r), "{:?}", r.options());
    }
    // Napoleone ends the match, not the hand's points: the shortcuts stay.
    assert!(solver_shortcuts_exact(&variants[variants.len() - 1]));
    let total = check_variants(&variants, &[(6, 150), (9, 40), (2, 40)], 7000);
    eprintln!("scoring variants: {total} positions agree with the minimax");
}

#[test]
fn mechanics_variants_match_the_minimax() {
    // Options of the play mechanics (some may not be implemented yet by the state: the solver
    // follows the state's own moves, so solver == minimax holds either way).
    let b = OptionValue::Bool;
    let variants: Vec<Rules> = vec![
        rules_with(Game::Escoba, 2, &[("compulsory_capture", b(false))]),
        rules_with(
            Game::Escoba,
            2,
            &[("compulsory_capture", b(false)), ("renuncio", b(true))],
        ),
        rules_with(Game::Scopa, 2, &[("ace_takes_all", b(true))]),
        rules_with(
            Game::Scopa,
            2,
            &[
                ("ace_takes_all", b(true)),
                ("ace_takes_ace_only", b(false)),
                ("ace_sweep", b(true)),
            ],
        ),
        rules_with(Game::Scopa, 2, &[("fewest_cards", b(true))]),
        rules_with(Game::Scopa, 2, &[("capture", w("match_or_fifteen"))]),
        rules_with(Game::Scopa, 2, &[("declarations", b(true))]),
        rules_with(Game::Scopa, 4, &[("direction", w("clockwise"))]),
        rules_with(Game::Chkobba, 4, &[("direction", w("clockwise"))]),
        rules_with(Game::Scopa, 4, &[("deal", w("scopone"))]),
        rules_with(Game::Scopa, 4, &[("deal", w("scientifico"))]),
        rules_with(Game::Chkobba, 2, &[("opening_sweeps", w("sum"))]),
        rules_with(
            Game::Scopa,
            2,
            &[
                ("capture", w("match_or_fifteen")),
                ("ace_takes_all", b(true)),
                ("ace_sweep", b(true)),
                ("redeal", w("two_aces")),
                ("opening_sweeps", w("sum")),
                ("declarations", b(true)),
                ("napola", b(true)),
                ("grande", i64_opt(5)),
                ("all_coins_wins", b(true)),
                ("target", i64_opt(51)),
            ],
        ),
    ];
    let total = check_variants(&variants, &[(6, 150), (9, 40), (2, 40)], 8000);
    eprintln!("mechanics variants: {total} positions agree with the minimax");
}

fn i64_opt(x: i64) -> OptionValue {
    OptionValue::Int(x)
}

#[test]
fn the_shortcuts_are_kept_for_the_default_games() {
    for game in GAMES {
        for players in [2, 4] {
            assert!(solver_shortcuts_exact(
                &Rules::profile(game, players).unwrap()
            ));
        }
    }
    let counts = [("last_play_sweep", w("counts"))];
    assert!(solver_shortcuts_exact(&rules_with(Game::Scopa, 2, &counts)));
    let zero = [("primiera_missing_suit", w("zero"))];
    assert!(solver_shortcuts_exact(&rules_with(Game::Escoba, 2, &zero)));
}

#[test]
fn solving_a_finished_hand_is_an_error() {
    let rules = Rules::profile(Game::Scopa, 2).unwrap();
    let mut state = position_with(&rules, 1, &mut Rng::new(5));
    let mut moves = Vec::new();
    state.legal_moves(&rules, &mut moves);
    state.apply_unchecked(&rules, moves[0]);
    let mut solver = Solver::new(16);
    assert!(matches!(
        solver.solve(&rules, &state),
        Err(capturefast_core::Error::IllegalMove(_))
    ));
    assert!(solver.value(&rules, &state).is_err());
}

#[test]
fn whole_hands_and_the_cut_are_consistent() {
    // From the deal (36 plays) the minimax is out of reach: check instead that each move's value
    // is the value of the position it leads to, the cut decision included, and that `value`
    // agrees with `solve`.
    let mut solver = Solver::new(1 << 20);
    for game in GAMES {
        for players in [2u8, 4] {
            let rules = Rules::profile(game, players).unwrap();
            for seed in 0..scaled(4) as u64 {
                let state = State::new(&rules, seed);
                let sol = solver.solve(&rules, &state).unwrap();
                assert_eq!(solver.value(&rules, &state).unwrap(), sol.value);
                let side = Rules::side(state.to_move().unwrap());
                for &(mv, v) in &sol.move_values {
                    let mut child = state;
                    child.apply_unchecked(&rules, mv);
                    let c = solver.value(&rules, &child).unwrap();
                    let same = Rules::side(child.to_move().unwrap()) == side;
                    assert_eq!(v, if same { c } else { -c }, "{game:?} {players}p {mv}");
                }
            }
        }
    }
}

// ----- determinization -----

/// Positions for the determinization tests: every game, 2 and 4 players, from the cut decision
/// (Chkobba) or the first play to the last, seen by every seat.
fn views_to_test(count: usize, seed: u64) -> Vec<(Rules, State, View)> {
    let mut out = Vec::new();
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    for game in GAMES {
        for players in [2u8, 4] {
            let rules = Rules::profile(game, players).unwrap();
            for i in 0..count {
                let mut state = State::new(&rules, rng.next_u64());
                // The first of each: the deal itself (in Chkobba, the cut decision).
                let plays = if i == 0 { 0 } else { rng.below(37) };
                for _ in 0..plays {
                    state.legal_moves(&rules, &mut moves);
                    state.apply_unchecked(&rules, moves[rng.below(moves.len() as u64) as usize]);
                }
                if state.hand_over() {
                    continue;
                }
                for seat in 0..players {
                    out.push((rules.clone(), state, state.view(seat)));
                }
            }
        }
    }
    out
}

/// `state` with the cards hidden from `seat` dealt again at random among the hidden places.
fn rehide(rules: &Rules, state: &State, seat: u8, rng: &mut Rng) -> State {
    let mut p = position(state);
    let mut hidden: Vec<_> = state.view(seat).unseen.iter().collect();
    for i in (1..hidden.len()).rev() {
        hidden.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut rest = hidden.as_slice();
    for s in 0..p.hands.len() {
        if s != usize::from(seat) {
            let (take, more) = rest.split_at(p.hands[s].len() as usize);
            p.hands[s] = take.iter().copied().collect();
            rest = more;
        }
    }
    p.stock = rest.to_vec();
    State::from_position(rules, &p).unwrap()
}

#[test]
fn determinize_sees_only_the_view_and_reproduces_it() {
    let mut rng = Rng::new(71);
    let mut checked = 0;
    let mut cut = 0;
    for (rules, state, view) in views_to_test(scaled(60), 70) {
        for k in 0..3u64 {
            let world = determinize(&rules, &view, &mut Rng::new(k)).unwrap();
            assert_eq!(world.view(view.seat), view, "{:?}", rules.options());
            assert!(!world.hand_over());
            // Same view from another hidden deal: the same world for the same seed.
            if state.cut_card().is_none() {
                let other = rehide(&rules, &state, view.seat, &mut rng);
                assert_eq!(other.view(view.seat), view);
                assert_eq!(
                    determinize(&rules, &other.view(view.seat), &mut Rng::new(k)).unwrap(),
                    world
                );
            } else {
                cut += 1;
            }
            checked += 1;
        }
    }
    assert!(cut > 0, "some views are of the Chkobba cut");
    eprintln!("determinize: {checked} views reproduced ({cut} at the cut)");
}

#[test]
fn determinize_spreads_every_hidden_card_everywhere() {
    // A 4-player Scopa position in the second round, seen by seat 0: each hidden card must
    // land in each other hand, the stock and the stock's first place with the chance of that
    // place's share of the hidden cards.
    let rules = Rules::profile(Game::Scopa, 4).unwrap();
    let state = position_with(&rules, 22, &mut Rng::new(9));
    let view = state.view(0);
    let draws = scaled(6000);
    let places = 5; // hands of seats 1, 2, 3, the stock, the stock's first card
    let mut counts = vec![[0u32; 5]; 40];
    let mut rng = Rng::new(10);
    for _ in 0..draws {
        let w = determinize(&rules, &view, &mut rng).unwrap();
        for c in view.unseen {
            let i = c.index();
            for s in 1..4u8 {
                counts[i][usize::from(s - 1)] += u32::from(w.hand(s).contains(c));
            }
            counts[i][3] += u32::from(w.stock().contains(&c));
            counts[i][4] += u32::from(w.stock()[0] == c);
        }
    }
    let hidden = f64::from(view.unseen.len());
    let share = |p: usize| -> f64 {
        match p {
            0..3 => f64::from(view.hand_sizes[p + 1]) / hidden,
            3 => f64::from(view.stock_size) / hidden,
            _ => 1.0 / hidden,
        }
    };
    for c in view.unseen {
        for (p, &got) in counts[c.index()].iter().enumerate().take(places) {
            let q = share(p);
            assert!(q > 0.0);
            let mean = draws as f64 * q;
            let sd = (draws as f64 * q * (1.0 - q)).sqrt();
            assert!(got > 0, "{c} never lands in place {p}");
            assert!(
                (f64::from(got) - mean).abs() < 5.0 * sd,
                "{c} place {p}: {got} against {mean:.0} ± {sd:.0}"
            );
        }
    }
}

#[test]
fn determinize_refuses_a_finished_hand() {
    let rules = Rules::profile(Game::Escoba, 2).unwrap();
    let mut state = position_with(&rules, 1, &mut Rng::new(3));
    let mut moves = Vec::new();
    state.legal_moves(&rules, &mut moves);
    state.apply_unchecked(&rules, moves[0]);
    assert!(determinize(&rules, &state.view(0), &mut Rng::new(1)).is_err());
}

// ----- a kept solver -----

/// A solver kept across positions of every game, its capacity shrunk and grown between them,
/// answers each as a new solver does, and allocates only what its searches need.
#[test]
fn a_kept_solver_answers_as_a_new_one_and_grows_as_needed() {
    let mut kept = Solver::new(1 << 16);
    assert_eq!((kept.tt_entries(), kept.tt_allocated()), (1 << 16, 0));
    let mut rng = Rng::new(21);
    for i in 0..scaled(300) {
        let game = GAMES[i % 3];
        let players = if i / 3 % 2 == 0 { 2 } else { 4 };
        let rules = Rules::profile(game, players).unwrap();
        let left = 2 + (i % 14) as u32;
        let state = position_with(&rules, left, &mut rng);
        if i % 50 == 49 {
            kept.set_tt_entries(if i % 100 == 49 { 1 << 8 } else { 1 << 16 });
        }
        let want = Solver::new(1 << 16).solve(&rules, &state).unwrap();
        let got = kept.solve(&rules, &state).unwrap();
        assert_eq!(got.value, want.value, "{game:?} {left} left");
        assert_eq!(got.move_values, want.move_values, "{game:?} {left} left");
        assert_eq!(kept.value(&rules, &state).unwrap(), want.value);
        assert!(kept.tt_allocated() <= kept.tt_entries());
    }
    // Whole hands: searches that outgrow their first part of the table and double it
    // mid-search, against a table too small to grow; the values do not depend on the table.
    for game in GAMES {
        let rules = Rules::profile(game, 2).unwrap();
        for seed in 0..scaled(10) as u64 {
            let state = State::new(&rules, 500 + seed);
            let mut big = Solver::new(1 << 20);
            let v = big.solve(&rules, &state).unwrap();
            assert!(
                big.tt_allocated() > 1 << 10,
                "{game:?}: {}",
                big.tt_allocated()
            );
            let w = Solver::new(1 << 6).solve(&rules, &state).unwrap();
            assert_eq!(v.move_values, w.move_values, "{game:?} deal {seed}");
        }
    }
    let mut fresh = Solver::new(1 << 20);
    let small = position_with(&Rules::profile(Game::Scopa, 2).unwrap(), 4, &mut rng);
    fresh
        .value(&Rules::profile(Game::Scopa, 2).unwrap(), &small)
        .unwrap();
    assert!(fresh.tt_allocated() <= 1 << 10, "{}", fresh.tt_allocated());
}

// ----- analysis -----

// Means of integer values over a few worlds are exact in f64: equality is what is meant.
#[allow(clippy::float_cmp)]
#[test]
fn analyze_an_open_view_is_the_exact_solve() {
    let mut solver = Solver::new(1 << 14);
    let mut other = Solver::new(1 << 14);
    let mut rng = Rng::new(12);
    let mut checked = 0;
    for game in GAMES {
        let rules = Rules::profile(game, 2).unwrap();
        for i in 0..scaled(200) {
            let left = 1 + (i % 6) as u32;
            let state = position_with(&rules, left, &mut rng);
            let seat = state.to_move().unwrap();
            let view = state.view(seat);
            assert!(is_open(&view));
            let exact = other.solve(&rules, &state).unwrap();
            let got = analyze(&rules, &view, 30, i as u64, &mut solver).unwrap();
            assert_eq!(got.len(), exact.move_values.len());
            for (&(m, mean, se), &(em, ev)) in got.iter().zip(&exact.move_values) {
                assert_eq!(m, em);
                assert_eq!(se, 0.0);
                assert_eq!(mean, f64::from(ev));
            }
            // The round is the rest of the hand: the round horizon is exact too.
            let round = analyze_to(&rules, &view, 30, i as u64, Horizon::Round, &mut solver);
            assert_eq!(round.unwrap(), got);
            checked += 1;
        }
    }
    eprintln!("analyze: {checked} open views equal their solve");
}

#[allow(clippy::float_cmp)]
#[test]
fn analyze_a_hidden_view_averages_worlds() {
    let rules = Rules::profile(Game::Scopa, 2).unwrap();
    let mut solver = Solver::new(1 << 16);
    let state = position_with(&rules, 12, &mut Rng::new(4));
    let seat = state.to_move().unwrap();
    let view = state.view(seat);
    assert!(!is_open(&view));
    let mut legal = Vec::new();
    state.legal_moves(&rules, &mut legal);
    let got = analyze(&rules, &view, 40, 7, &mut solver).unwrap();
    assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), legal);
    assert!(got.iter().all(|&(_, m, se)| m.is_finite() && se >= 0.0));
    assert!(got.iter().any(|&(_, _, se)| se > 0.0), "worlds differ");
    // The same seed, the same answer; the worlds are those `determinize` draws.
    assert_eq!(analyze(&rules, &view, 40, 7, &mut solver).unwrap(), got);
    let mut rng = Rng::new(7);
    let mut sums = vec![0i64; legal.len()];
    for _ in 0..40 {
        let world = determinize(&rules, &view, &mut rng).unwrap();
        for (s, (_, v)) in sums
            .iter_mut()
            .zip(solver.solve(&rules, &world).unwrap().move_values)
        {
            *s += i64::from(v);
        }
    }
    for (g, s) in got.iter().zip(&sums) {
        assert_eq!(g.1, *s as f64 / 40.0);
    }
    // Errors: no world, or a seat that is not to move.
    assert!(analyze(&rules, &view, 0, 7, &mut solver).is_err());
    assert!(analyze(&rules, &state.view(1 - seat), 10, 7, &mut solver).is_err());
}

/// The `pimc` bot plays a move of best mean in `analyze_to` with the round horizon (the hand
/// horizon where it solves the endgame), over the same worlds (the bot draws its worlds' seed
/// first from its generator, and draws them independently, as `analyze_to` does).
#[test]
fn pimc_plays_the_best_move_of_its_analysis() {
    let mut solver = Solver::new(1 << 10);
    let mut rng = Rng::new(21);
    for game in GAMES {
        let rules = Rules::profile(game, 2).unwrap();
        for i in 0..scaled(20) as u64 {
            let state = position_with(&rules, 12 + (i % 20) as u32, &mut rng);
            let seat = state.to_move().unwrap();
            let view = state.view(seat);
            let mut legal = Vec::new();
            state.legal_moves(&rules, &mut legal);
            if legal.len() < 2 {
                continue;
            }
            let worlds_seed = Rng::new(i).next_u64();
            let horizon = if capturefast_core::search::pimc::solves_endgame(&rules, &view) {
                Horizon::Hand
            } else {
                Horizon::Round
            };
            let rows = analyze_to(&rules, &view, 10, worlds_seed, horizon, &mut solver);
            let rows = rows.unwrap();
            let best = rows.iter().map(|r| r.1).fold(f64::MIN, f64::max);
            let mv = PimcBot::new(10, i).with_draw(Draw::Independent).choose(
                &rules,
                &LazyView::from(&view),
                &legal,
            );
            let chosen = rows.iter().find(|r| r.0 == mv).unwrap();
            assert!(
                chosen.1 >= best - 1e-9,
                "{game:?}: {mv} {} < {best}",
                chosen.1
            );
        }
    }
}

// ----- the PIMC bot -----

#[test]
fn pimc_plays_legal_moves_and_repeats_under_its_seed() {
    for game in GAMES {
        for players in [2u8, 4] {
            let rules = Rules::profile(game, players).unwrap();
            for seed in 0..scaled(2) as u64 {
                let build = || -> Vec<Box<dyn Bot>> {
                    (0..players)
                        .map(|s| -> Box<dyn Bot> {
                            if s % 2 == 0 {
                                Box::new(PimcBot::new(4, seed + u64::from(s)))
                            } else {
                                BotKind::Greedy.build(seed)
                            }
                        })
                        .collect()
                };
                // Whole hands from the deal (the cut included) when optimised; the last 12
                // plays in debug builds, where early decisions take seconds.
                let mut a = if cfg!(debug_assertions) {
                    position_with(&rules, 12, &mut Rng::new(seed))
                } else {
                    State::new(&rules, seed)
                };
                let mut b = a;
                let first = play_logged(&rules, &mut a, &mut build());
                let second = play_logged(&rules, &mut b, &mut build());
                assert_eq!(first, second, "{game:?} {players}p seed {seed}");
            }
        }
    }
    // The built-in kind, on the last rounds of a Chkobba hand.
    assert_eq!(BotKind::from_name("pimc").unwrap(), BotKind::Pimc);
    let rules = Rules::profile(Game::Chkobba, 2).unwrap();
    let mut state = position_with(&rules, 12, &mut Rng::new(1));
    let mut bots = vec![BotKind::Pimc.build(1), BotKind::Pimc.build(2)];
    play_logged(&rules, &mut state, &mut bots);
}

#[test]
fn pimc_beats_greedy_on_duplicate_deals() {
    if cfg!(debug_assertions) {
        // A statistical test: it needs its 150 deals, which take about 40 s optimised.
        eprintln!("pimc_beats_greedy_on_duplicate_deals: skipped in debug builds (use --release)");
        return;
    }
    let rules = Rules::profile(Game::Scopa, 2).unwrap();
    let deals = 150;
    let t0 = std::time::Instant::now();
    let (mean, ci) = duplicate(
        &rules,
        &|s| Box::new(PimcBot::new(20, s)),
        &|s| BotKind::Greedy.build(s),
        deals,
        2024,
    );
    eprintln!(
        "scopa pimc(20) vs greedy: {mean:+.3} ± {ci:.3} points per hand ({deals} duplicate deals, \
         {:.1} s)",
        t0.elapsed().as_secs_f64()
    );
    assert!(mean - ci > 0.0, "pimc vs greedy {mean:.3} ± {ci:.3}");
}

/// The comma-separated values of the environment variable `name`, else `default`.
fn env_list<T: Clone>(name: &str, default: &[T], parse: impl Fn(&str) -> T) -> Vec<T> {
    std::env::var(name).map_or_else(
        |_| default.to_vec(),
        |v| v.split(',').map(|x| parse(x.trim())).collect(),
    )
}

/// The built-in `pimc` bot against `greedy` and `expert` in each game, 2 players:
/// `PIMC_DEALS` duplicate deals each (default 300), and the time per PIMC move.
#[test]
#[ignore = "a few minutes: cargo test --release --test solve pimc_strength_report -- --ignored --nocapture"]
fn pimc_strength_report() {
    let deals = env_list("PIMC_DEALS", &[300], |d| d.parse().unwrap())[0];
    let games = env_list("PIMC_GAMES", &GAMES, |g| Game::from_name(g).unwrap());
    let others = env_list("PIMC_AGAINST", &[BotKind::Greedy, BotKind::Expert], |b| {
        BotKind::from_name(b).unwrap()
    });
    for &game in &games {
        let rules = Rules::profile(game, 2).unwrap();
        for &other in &others {
            let t0 = std::time::Instant::now();
            let (mean, ci) = duplicate(
                &rules,
                &|s| BotKind::Pimc.build(s),
                &|s| other.build(s),
                deals,
                5,
            );
            eprintln!(
                "{:8} pimc vs {:6}: {mean:+.3} ± {ci:.3} points per hand ({deals} deals, {:.0} s)",
                game.name(),
                other.name(),
                t0.elapsed().as_secs_f64()
            );
        }
    }
}

/// How the uniform PIMC's margin over `expert` and its time per move change with the number of
/// worlds (`pimc:infer=off,eval=equity,endgame=round`, the player of docs/performance.md's
/// worlds table): 2-player Scopa, `PIMC_CURVE_DEALS` duplicate deals (default 200).
#[test]
#[ignore = "several minutes: cargo test --release --test solve pimc_worlds_curve -- --ignored --nocapture"]
fn pimc_worlds_curve() {
    let deals = env_list("PIMC_CURVE_DEALS", &[200], |d| d.parse().unwrap())[0];
    let worlds_list = env_list("PIMC_CURVE_WORLDS", &[5, 20, 100, 400], |w| {
        w.parse().unwrap()
    });
    let games = env_list("PIMC_GAMES", &[Game::Scopa], |g| {
        Game::from_name(g).unwrap()
    });
    for (game, worlds) in games
        .into_iter()
        .flat_map(|g| worlds_list.iter().map(move |&w| (g, w)))
    {
        let rules = Rules::profile(game, 2).unwrap();
        let t0 = std::time::Instant::now();
        let (mean, ci) = duplicate(
            &rules,
            &|s| Box::new(PimcBot::new(worlds, s).with_endgame(false)),
            &|s| BotKind::Expert.build(s),
            deals,
            11,
        );
        // Each deal is played twice; the PIMC seat makes 18 decisions a hand.
        let per_move = t0.elapsed().as_secs_f64() * 1e3 / (deals as f64 * 2.0 * 18.0);
        eprintln!(
            "{:8} pimc({worlds}) vs expert: {mean:+.3} ± {ci:.3} points per hand ({deals} deals, \
             {per_move:.2} ms per pimc move)",
            game.name()
        );
    }
}

/// Without the shortcuts, a search that passes the node limit gives up with an error instead of
/// running for hours (here a small limit and a whole Escoba hand with optional capture, about
/// ten million nodes), and the solver stays usable for later (small) positions.
#[test]
fn plain_search_gives_up_on_huge_positions() {
    let mut o = Options::new(Game::Escoba, 2);
    o.set("compulsory_capture", &OptionValue::Bool(false))
        .unwrap();
    o.set("renuncio", &OptionValue::Bool(true)).unwrap();
    let rules = Rules::new(o).unwrap();
    let mut solver = Solver::new(1 << 16);
    solver.set_plain_node_limit(100_000);
    let state = State::new(&rules, 5);
    let err = solver.solve(&rules, &state).unwrap_err();
    assert!(err.to_string().contains("too large"), "{err}");
    assert!(solver.nodes() > 100_000);
    // Play to the last round, capturing when possible (the last move in packed order), so the
    // table stays small: that position solves.
    let mut s = state;
    let mut moves = Vec::new();
    while !s.stock().is_empty() || s.cards_left() > 4 {
        s.legal_moves(&rules, &mut moves);
        s.apply_unchecked(&rules, *moves.last().unwrap());
    }
    if !s.hand_over() {
        let r = solver.solve(&rules, &s);
        assert!(r.is_ok(), "{r:?}");
    }
}

/// With the shortcuts too, a search past the node limit gives up with an error: a Scopone deal
/// (four hands of nine cards) is far beyond exact search. The table keeps only what was proven
/// before the limit, so later solves by the same solver agree with a fresh one.
#[test]
fn a_search_with_the_shortcuts_gives_up_past_the_node_limit() {
    let mut o = Options::new(Game::Scopa, 4);
    o.set("deal", &OptionValue::Str("scopone".into())).unwrap();
    let rules = Rules::new(o).unwrap();
    assert!(solver_shortcuts_exact(&rules));
    let mut solver = Solver::new(1 << 16);
    solver.set_plain_node_limit(200_000);
    let state = State::new(&rules, 1);
    let err = solver.solve(&rules, &state).unwrap_err();
    assert!(err.to_string().contains("too large"), "{err}");
    let err = solver.value(&rules, &state).unwrap_err();
    assert!(err.to_string().contains("too large"), "{err}");
    // A later position, solved under a limit it passes, then again without it: the table
    // kept from the search that gave up holds nothing false.
    let mut s = state;
    let mut moves = Vec::new();
    while s.cards_left() > 20 {
        s.legal_moves(&rules, &mut moves);
        s.apply_unchecked(&rules, moves[0]);
    }
    let fresh = Solver::new(1 << 16).solve(&rules, &s).unwrap();
    assert!(fresh.nodes > 3_000, "{}", fresh.nodes);
    for limit in [fresh.nodes / 3, fresh.nodes / 2] {
        solver.set_plain_node_limit(limit);
        assert!(solver.solve(&rules, &s).is_err());
        solver.set_plain_node_limit(u64::MAX);
        let kept = solver.solve(&rules, &s).unwrap();
        assert_eq!(kept.move_values, fresh.move_values, "limit {limit}");
    }
}

/// An interrupt stops a solve that would run far longer (a Scopone deal, beyond exact search),
/// with the shortcuts and without them (plain search), by its deadline or by its flag set from
/// another thread, and fails with `Error::Stopped`; the table keeps only what was proven, so the
/// same solver later agrees with a fresh one. Without an interrupt nothing changes.
#[test]
fn an_interrupt_stops_a_solve_and_leaves_the_table_exact() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    use capturefast_core::{Error, Interrupt};

    for plain in [false, true] {
        let mut o = Options::new(Game::Scopa, 4);
        o.set("deal", &OptionValue::Str("scopone".into())).unwrap();
        if plain {
            o.set("fewest_cards", &OptionValue::Bool(true)).unwrap();
        }
        let rules = Rules::new(o).unwrap();
        assert_eq!(solver_shortcuts_exact(&rules), !plain);
        let state = State::new(&rules, 1);
        let mut solver = Solver::new(1 << 16);

        let start = Instant::now();
        solver.set_interrupt(Interrupt {
            deadline: Some(start + Duration::from_millis(30)),
            ..Interrupt::default()
        });
        let err = solver.solve(&rules, &state).unwrap_err();
        assert!(matches!(err, Error::Stopped(_)), "{err}");
        // Generous for a loaded machine: the limit alone would take seconds.
        assert!(
            start.elapsed() < Duration::from_millis(1500),
            "{:?}",
            start.elapsed()
        );

        // The caller's flag, or the host's beside it (`cancel`), whichever the test sets.
        let flag = Arc::new(AtomicBool::new(false));
        let interrupt = if plain {
            Interrupt {
                flag: Some(flag.clone()),
                ..Interrupt::default()
            }
        } else {
            Interrupt {
                flag: Some(Arc::new(AtomicBool::new(false))),
                cancel: Some(flag.clone()),
                ..Interrupt::default()
            }
        };
        solver.set_interrupt(interrupt);
        let setter = {
            let flag = flag.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(20));
                flag.store(true, Ordering::Relaxed);
            })
        };
        let err = solver.value(&rules, &state).unwrap_err();
        assert!(matches!(err, Error::Stopped(_)), "{err}");
        setter.join().unwrap();
        // Still set: the next solve stops at its first node.
        let before = solver.nodes();
        assert!(solver.solve(&rules, &state).is_err());
        assert!(solver.nodes() - before < 100, "{}", solver.nodes() - before);

        // A later position solves, and agrees with a fresh solver.
        flag.store(false, Ordering::Relaxed);
        let mut s = state;
        let mut moves = Vec::new();
        while s.cards_left() > if plain { 14 } else { 20 } {
            s.legal_moves(&rules, &mut moves);
            s.apply_unchecked(&rules, moves[0]);
        }
        let kept = solver.solve(&rules, &s).unwrap();
        solver.set_interrupt(Interrupt::default());
        let fresh = Solver::new(1 << 16).solve(&rules, &s).unwrap();
        assert_eq!(kept.move_values, fresh.move_values, "plain {plain}");

        // A node budget stops the deal's solve after that many nodes and those of unwinding (a
        // sibling tried on the way back counts one node before it returns).
        for budget in [1, 5_000, 40_000] {
            let before = solver.nodes();
            let err = solver
                .until(
                    Interrupt::default().with_nodes(&solver, Some(budget)),
                    |s| s.solve(&rules, &state),
                )
                .unwrap_err();
            assert!(matches!(err, Error::Stopped(_)), "{err}");
            let searched = solver.nodes() - before;
            assert!(
                (budget..=budget + 500).contains(&searched),
                "budget {budget}, searched {searched}"
            );
        }
        // Enough nodes: the later position solves as before.
        let enough = solver
            .until(
                Interrupt::default().with_nodes(&solver, Some(u64::MAX)),
                |x| x.solve(&rules, &s),
            )
            .unwrap();
        assert_eq!(enough.move_values, fresh.move_values, "plain {plain}");
    }
}
