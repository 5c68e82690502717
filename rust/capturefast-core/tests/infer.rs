//! Inference from the others' play (`search::infer`): the true position is never ruled out, a
//! round told only in part makes no inference, Cirulla's declarations rule out the hands that
//! contradict them, a trail beside a capture the player passed up makes the card that would
//! have taken it less likely in their hand (under either model), and the search's model is a
//! distribution over the legal moves.

use capturefast_core::{
    Bot, BotKind, CardSet, ExpertModel, Game, Inference, Move, MoveKind, Phase, PlayModel,
    Position, Rng, Rules, SearchModel, State, determinize,
};

mod common;
use common::{c, move_variants, set};

/// What a check sees at a decision of a told match.
struct Decision<'a> {
    state: &'a State,
    /// The inference of the seat to move.
    infer: &'a mut Inference,
    /// Whether a move of the current round was not told (or was a renuncio claim).
    skipped: bool,
    /// The cards each seat played since the round's deal.
    played: [CardSet; 4],
}

/// One inference per seat, told every move of up to three hands of a match played by expert
/// bots (but the moves for which `skip` says so, counted from 1); `check` sees each decision.
fn play_told(
    rules: &Rules,
    seed: u64,
    skip: &mut dyn FnMut(u64) -> bool,
    check: &mut dyn FnMut(Decision<'_>),
) {
    let n = rules.num_players();
    let mut infer: Vec<Inference> = (0..n)
        .map(|_| Inference::new(Box::new(ExpertModel::new(4.0))))
        .collect();
    let mut bots: Vec<Box<dyn Bot>> = (0..n)
        .map(|s| BotKind::Expert.build(seed + u64::from(s)))
        .collect();
    let mut state = State::new(rules, seed);
    let mut moves: Vec<Move> = Vec::new();
    let (mut ply, mut skipped, mut stock) = (0u64, false, usize::MAX);
    let mut played = [CardSet::EMPTY; 4];
    for _ in 0..3 {
        while !state.hand_over() {
            let seat = state.to_move().unwrap();
            if state.stock().len() != stock || state.phase() != Phase::Play {
                skipped = false;
                stock = state.stock().len();
                played = [CardSet::EMPTY; 4];
            }
            if state.phase() == Phase::Play {
                check(Decision {
                    state: &state,
                    infer: &mut infer[usize::from(seat)],
                    skipped,
                    played,
                });
            }
            state.legal_moves(rules, &mut moves);
            let view = state.view(seat);
            let mv = bots[usize::from(seat)].choose(
                rules,
                &capturefast_core::LazyView::from(&view),
                &moves,
            );
            ply += 1;
            if skip(ply) {
                skipped = true;
            } else {
                for (s, inf) in infer.iter_mut().enumerate() {
                    inf.observe(rules, &state.view(s as u8), seat, mv);
                }
            }
            if mv.kind() == MoveKind::Claim {
                skipped = true;
            }
            if state.phase() == Phase::Play {
                played[usize::from(seat)] |= CardSet::single(mv.card());
            }
            state.apply_unchecked(rules, mv);
        }
        if state.match_over() {
            break;
        }
        state.next_hand(rules).unwrap();
    }
}

fn all_rules() -> Vec<Rules> {
    let mut all = move_variants();
    for game in [Game::Scopa, Game::Escoba, Game::Chkobba] {
        for players in [2, 4] {
            all.push(Rules::profile(game, players).unwrap());
        }
    }
    all
}

#[test]
fn the_true_position_is_never_ruled_out_and_a_whole_round_is_known() {
    let mut decisions = 0;
    for rules in all_rules() {
        for seed in 0..6 {
            play_told(&rules, seed, &mut |_| false, &mut |d| {
                let view = d.state.view(d.state.to_move().unwrap());
                // Every move was told (a renuncio claim is not modelled): the round is known.
                assert_eq!(d.infer.knows_round(&rules, &view), !d.skipped, "{view:?}");
                if !d.skipped {
                    let w = d.infer.weight(&rules, &view, d.state);
                    assert!(w > 0.0 && w <= 1.0, "the truth weighs {w}: {view:?}");
                    decisions += 1;
                }
            });
        }
    }
    assert!(decisions > 2000, "{decisions}");
}

#[test]
fn a_round_told_in_part_makes_no_inference_until_the_next_deal() {
    let rules = Rules::profile(Game::Scopa, 2).unwrap();
    let (mut unknown, mut known) = (0, 0);
    for seed in 0..20 {
        // The 5th move of every hand is not told.
        play_told(&rules, seed, &mut |ply| ply % 36 == 5, &mut |d| {
            let view = d.state.view(d.state.to_move().unwrap());
            assert_eq!(d.infer.knows_round(&rules, &view), !d.skipped);
            if d.skipped {
                unknown += 1;
            } else {
                known += 1;
            }
        });
    }
    assert!(unknown > 20 && known > 200, "{unknown} {known}");
}

#[test]
fn declarations_rule_out_the_hands_that_contradict_them() {
    let preset = capturefast_core::Preset::named("cirulla").unwrap();
    let mut rng = Rng::new(3);
    let (mut kept, mut ruled_out) = (0, 0);
    for players in [2, 4] {
        let rules = Rules::new(preset.options(Some(players)).unwrap()).unwrap();
        for seed in 0..30 {
            play_told(&rules, seed, &mut |_| false, &mut |d| {
                let seat = d.state.to_move().unwrap();
                let view = d.state.view(seat);
                // Each side's declaration points at this round's deal, from the hands dealt.
                let declared = |hand: &dyn Fn(u8) -> CardSet| {
                    let mut sides = [0u32; 2];
                    for s in 0..players {
                        let dealt = hand(s) | d.played[usize::from(s)];
                        sides[usize::from(s % 2)] += u32::from(rules.declaration(dealt));
                    }
                    sides
                };
                let truth = declared(&|s| d.state.hand(s));
                if truth == [0, 0] || !d.infer.knows_round(&rules, &view) {
                    return;
                }
                for _ in 0..30 {
                    let world = determinize(&rules, &view, &mut rng).unwrap();
                    let w = d.infer.weight(&rules, &view, &world);
                    let same = declared(&|s| world.hand(s)) == truth;
                    // The weight of a world with the same declarations may still be 0 if the
                    // model gives a move played no chance; the softened expert never does.
                    assert_eq!(w > 0.0, same, "{view:?}");
                    if same {
                        kept += 1;
                    } else {
                        ruled_out += 1;
                    }
                }
            });
        }
    }
    assert!(kept > 100 && ruled_out > 100, "{kept} {ruled_out}");
}

/// Scopa, 2 players: seat 1 trailed the 2 of cups with the 7 of swords on the table. Worlds in
/// which it still holds a 7 (it passed up the capture) weigh less than those in which it holds
/// none.
#[test]
fn a_capture_passed_up_makes_its_card_less_likely() {
    a_capture_passed_up_under(&mut || Box::new(ExpertModel::new(4.0)));
    a_capture_passed_up_under(&mut || Box::new(SearchModel::new(4.0, 3)));
}

/// The 2 trailed beside a 7 that a 7 would take, under the model `model` makes.
fn a_capture_passed_up_under(model: &mut dyn FnMut() -> Box<dyn PlayModel>) {
    let rules = Rules::profile(Game::Scopa, 2).unwrap();
    let hands = [set(&["AD", "4D", "KD"]), set(&["2C", "9C", "5H"])];
    let table = set(&["7S", "3H", "QS", "JH"]);
    let seen = hands[0] | hands[1] | table;
    let stock: Vec<_> = (0..40u8)
        .filter_map(capturefast_core::Card::new)
        .filter(|&x| !seen.contains(x))
        .collect();
    let p = Position {
        hands: hands.to_vec(),
        table,
        stock,
        to_move: 1,
        dealer: 0,
        last_capturer: None,
        piles: [CardSet::EMPTY; 2],
        sweeps: [0; 2],
        scores: [0; 2],
        seed: 1,
    };
    let mut state = State::from_position(&rules, &p).unwrap();
    let mut inf = Inference::new(model());
    let mut legal = Vec::new();
    state.legal_moves(&rules, &mut legal);
    let trail = *legal.iter().find(|m| m.card() == c("2C")).unwrap();
    inf.observe(&rules, &state.view(0), 1, trail);
    state.apply_unchecked(&rules, trail);
    let view = state.view(0);
    assert!(inf.informs(&rules, &view));
    let sevens = CardSet::rank(capturefast_core::Rank::SEVEN.index());
    let mut rng = Rng::new(5);
    let (mut with, mut without) = ((0.0, 0), (0.0, 0));
    for _ in 0..2000 {
        let world = determinize(&rules, &view, &mut rng).unwrap();
        let w = inf.weight(&rules, &view, &world);
        let slot = if (world.hand(1) & sevens).is_empty() {
            &mut without
        } else {
            &mut with
        };
        slot.0 += w;
        slot.1 += 1;
    }
    let (a, b) = (with.0 / f64::from(with.1), without.0 / f64::from(without.1));
    assert!(with.1 > 100 && without.1 > 100);
    assert!(a < 0.5 * b, "mean weight with a 7: {a}, without: {b}");
}

/// The search's model gives the legal moves of every decision of expert hands chances that sum
/// to 1 (each from the same draws: a fresh model of one seed per move), each in (0, 1]; a move
/// not among them has none; and with `beta = 0` the play is uniform.
#[test]
fn the_search_model_is_a_distribution_over_the_legal_moves() {
    for rules in [Game::Scopa, Game::Escoba, Game::Chkobba]
        .into_iter()
        .flat_map(|g| [2, 4].map(|n| Rules::profile(g, n).unwrap()))
    {
        let mut moves: Vec<Move> = Vec::new();
        let mut decisions = 0;
        for seed in 0..3u64 {
            let mut state = State::new(&rules, seed);
            let mut bot = BotKind::Expert.build(seed);
            while !state.hand_over() {
                state.legal_moves(&rules, &mut moves);
                let seat = state.to_move().unwrap();
                let view = state.view(seat);
                if state.phase() == Phase::Play && moves.len() > 1 && decisions < 40 {
                    decisions += 1;
                    let chance = |beta: f32, mv: Move| {
                        SearchModel::new(beta, seed).likelihood(&rules, &view, &moves, mv)
                    };
                    let all: Vec<f64> = moves.iter().map(|&m| chance(8.0, m)).collect();
                    let total: f64 = all.iter().sum();
                    assert!((total - 1.0).abs() < 1e-5, "{total} over {moves:?}");
                    assert!(all.iter().all(|&p| p > 0.0 && p <= 1.0), "{all:?}");
                    let uniform = 1.0 / moves.len() as f64;
                    assert!((chance(0.0, moves[0]) - uniform).abs() < 1e-6);
                    // A card the mover does not hold.
                    let other = (0..40u8)
                        .filter_map(capturefast_core::Card::new)
                        .find(|&x| !view.hand.contains(x))
                        .map(|x| Move::play(x, CardSet::EMPTY))
                        .unwrap();
                    assert!(chance(8.0, other) == 0.0, "a move not legal has a chance");
                }
                let mv = bot.choose(&rules, &capturefast_core::LazyView::from(&view), &moves);
                state.apply_unchecked(&rules, mv);
            }
        }
        assert!(decisions > 20, "{decisions} decisions");
    }
}

/// `analyze_informed` is `analyze_to` when the inference has nothing to go on (a round told in
/// part), and weighs its worlds otherwise: over a few told hands some analyses differ.
#[test]
fn an_informed_analysis_falls_back_to_uniform_worlds_and_otherwise_weighs_them() {
    let rules = Rules::profile(Game::Escoba, 2).unwrap();
    let mut solver = capturefast_core::Solver::new(1 << 14);
    let (mut same, mut differ) = (0, 0);
    for seed in 0..3 {
        play_told(&rules, seed, &mut |ply| ply % 7 == 3, &mut |d| {
            let view = d.state.view(d.state.to_move().unwrap());
            if view.stock_size == 0 {
                return;
            }
            let round = capturefast_core::Horizon::Round;
            let plain = capturefast_core::analyze_to(&rules, &view, 12, 9, round, &mut solver);
            let informs = d.infer.informs(&rules, &view);
            let told = capturefast_core::analyze_informed(
                &rules,
                &view,
                12,
                9,
                round,
                Some(&mut *d.infer),
                &mut solver,
            );
            if informs {
                differ += usize::from(told.unwrap() != plain.unwrap());
            } else {
                assert_eq!(told.unwrap(), plain.unwrap(), "{view:?}");
                same += 1;
            }
        });
    }
    assert!(same > 10 && differ > 10, "{same} {differ}");
}
