//! Random-simulation invariants (`open_spiel`'s `RandomSimTest` list and spec §6) over many
//! seeded games of every game and player count.

use capturefast_core::{CardSet, Game, Move, MoveKind, OptionValue, Phase, Rng, Rules, State};

mod common;

const GAMES: [Game; 3] = [Game::Scopa, Game::Escoba, Game::Chkobba];

fn all_cards(s: &State) -> CardSet {
    let mut all = s.table() | s.pile(0) | s.pile(1);
    for seat in 0..s.num_players() {
        assert!((all & s.hand(seat)).is_empty(), "a card in two places");
        all |= s.hand(seat);
    }
    for &c in s.stock() {
        assert!(!all.contains(c), "a card in two places");
        all.insert(c);
    }
    if let Some(c) = s.cut_card() {
        all.insert(c);
    }
    all
}

/// Plays the legal `mv` on a copy of `s` and returns it, checking that `play` leaves the original
/// unchanged and that `apply_scored` does what `play` does and returns the score of the hand it
/// ends, exactly when it ends one.
fn play_checked(rules: &Rules, s: &State, mv: Move) -> State {
    let before = *s;
    let mut t = *s;
    t.play(rules, mv).unwrap();
    assert_eq!(*s, before, "play on a copy leaves the original unchanged");
    let mut u = *s;
    let scored = u.apply_scored(rules, mv);
    assert_eq!(u, t);
    assert_eq!(scored, t.hand_score(rules));
    t
}

/// Checks that `State::pick_move` names the move `moves` (the legal moves of `s`) lists at
/// each index, and `State::pick_card_move` the move at each index of each card's group, and
/// that both apply wherever they must (`pickable` rules, a table of up to 10 cards, the play
/// phase); returns the number of moves checked.
fn check_pick_move(rules: &Rules, s: &State, moves: &[Move], pickable: bool) -> u64 {
    let mut checked = 0;
    // A draw names the listed move, or is refused only where it may be.
    let mut check = |picked: Option<Move>, want: Move, what: &str| match picked {
        Some(p) => {
            assert_eq!(p, want, "{what} of {moves:?}");
            checked += 1;
        }
        None => assert!(
            !pickable || s.table().len() > 10 || s.phase() != Phase::Play,
            "{what} refused in {s:?}"
        ),
    };
    for (k, &mv) in moves.iter().enumerate() {
        let picked = s.pick_move(rules, |n| {
            assert_eq!(n as usize, moves.len(), "the number of legal moves");
            k as u32
        });
        check(picked, mv, &format!("pick_move, move {k}"));
    }
    // `pick_card_move`: group g (a card's moves, or the claims), then move j of it.
    let groups: Vec<&[Move]> = moves
        .chunk_by(|a, b| a.card() == b.card() && a.kind() == b.kind())
        .collect();
    for (g, group) in groups.iter().enumerate() {
        for (j, &mv) in group.iter().enumerate() {
            let mut calls = 0;
            let picked = s.pick_card_move(rules, |n| {
                calls += 1;
                if calls == 1 {
                    assert_eq!(n as usize, groups.len(), "the number of groups");
                    g as u32
                } else {
                    assert_eq!(n as usize, group.len(), "the moves of group {g}");
                    j as u32
                }
            });
            check(picked, mv, &format!("pick_card_move, group {g} move {j}"));
        }
    }
    checked
}

/// Plays whole matches with random moves and checks every invariant at every step.
fn run(game: Game, players: u8, seeds: u64) {
    run_rules(&Rules::profile(game, players).unwrap(), seeds);
}

/// [`run`] under any rules (the variant presets below).
fn run_rules(rules: &Rules, seeds: u64) {
    let rules = rules.clone();
    let game = rules.game();
    let players = rules.num_players();
    let o = rules.options().clone();
    // The ace-takes-all capture breaks I1 (the whole table is then an ace's only option but
    // not a sweep; a sweep is still its card's only option) and, with optional captures, a
    // trail is listed beside the captures.
    let plain_captures = !o.ace_takes_all && !o.fewest_cards && o.compulsory_capture;
    // Where `State::pick_move` must apply (on tables of up to 10 cards).
    let pickable = !o.fewest_cards;
    let mut picked_moves = 0u64;
    let mut moves: Vec<Move> = Vec::new();
    let mut caps = Vec::new();
    for seed in 0..seeds {
        let mut s = State::new(&rules, seed);
        let mut rng = Rng::new(seed + 1000);
        let mut plays = [0u32; 4];
        let mut steps = 0;
        loop {
            assert_eq!(all_cards(&s), CardSet::FULL, "I5: 40 cards conserved");
            // Serialization round trip and clone equality.
            assert_eq!(State::decode(&rules, &s.encode(&rules)).unwrap(), s);
            if s.hand_over() {
                let score = s.hand_score(&rules).unwrap();
                // I5: 4 category points minus ties, plus sweeps and bonuses.
                let ties = score.awards.iter().filter(|a| a.is_none()).count() as u32;
                let sweeps = u32::from(score.sweeps[0]) + u32::from(score.sweeps[1]);
                let bonuses: u32 = score.bonuses.iter().map(|b| b[0] + b[1]).sum();
                assert_eq!(
                    score.points[0] + score.points[1],
                    4 - ties + sweeps + bonuses
                );
                if !o.declarations {
                    assert_eq!(s.declared(), [0, 0]);
                }
                assert_eq!(score.counts[0].cards + score.counts[1].cards, 40);
                assert_eq!(score.counts[0].coins + score.counts[1].coins, 10);
                // I6: 18 cards each with 2 players, 9 with 4 (standard deal); 9 or 10 each with
                // the Scopone deals: every card but the opening table, shared equally.
                let per = (40 - u32::from(rules.opening_table_size())) / u32::from(players);
                assert!(
                    plays[..usize::from(players)].iter().all(|&p| p == per),
                    "{plays:?}"
                );
                s.legal_moves(&rules, &mut moves);
                assert!(moves.is_empty());
                if s.match_over() {
                    assert!(
                        rules.match_winner(s.scores()).is_some()
                            || rules.all_coins_winner(s.piles()).is_some()
                    );
                    break;
                }
                s.next_hand(&rules).unwrap();
                plays = [0; 4];
                continue;
            }
            s.legal_moves(&rules, &mut moves);
            assert!(!moves.is_empty(), "legal moves until the hand is over");
            assert!(moves.windows(2).all(|w| w[0] < w[1]), "sorted and unique");
            picked_moves += check_pick_move(&rules, &s, &moves, pickable);
            let seat = s.to_move().unwrap();
            let claimable = s.claimable();
            for &mv in &moves {
                assert!(s.is_legal(&rules, mv));
                if mv.kind() == MoveKind::Claim {
                    assert_eq!(
                        Some(mv.card()),
                        claimable,
                        "only the trailed card is claimed"
                    );
                    assert!(!s.is_sweep(&rules, mv), "a claim is never a sweep");
                }
                if plain_captures && mv.kind() == MoveKind::Play && s.is_sweep(&rules, mv) {
                    // I1: a sweep option is its card's only option.
                    rules.capture_options(s.table(), mv.card(), &mut caps);
                    assert_eq!(caps, [mv.captures()]);
                }
            }
            if game == Game::Scopa && !o.ace_takes_all {
                // I3: three kings on the table make sweeps impossible.
                let kings = s.table() & CardSet::rank(9);
                if kings.len() >= 3 {
                    assert!(moves.iter().all(|&m| !s.is_sweep(&rules, m)));
                }
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            let t = play_checked(&rules, &s, mv);
            if mv.kind() == MoveKind::Claim {
                // Not a turn: the claimant plays next, the claim has gone, no sweep.
                assert_eq!((t.to_move(), t.claimable()), (Some(seat), None));
                assert_eq!((t.last_capturer(), t.sweeps()), (Some(seat), s.sweeps()));
            }
            if mv.kind() == MoveKind::Play {
                plays[usize::from(seat)] += 1;
                // Mid-round: play passes to the next seat in the direction of play.
                if t.stock().len() == s.stock().len() && (0..players).any(|p| !t.hand(p).is_empty())
                {
                    assert_eq!(t.to_move(), Some(rules.next_seat(seat)), "direction");
                }
                let hands_left: u32 = (0..players).map(|p| t.hand(p).len()).sum();
                assert!(
                    hands_left > 0 || !t.stock().is_empty() || t.hand_over(),
                    "the hand must end when the cards run out"
                );
            }
            s = t;
            steps += 1;
            assert!(steps < 40 * 200, "a match cannot last this long");
        }
    }
    assert!(!pickable || picked_moves > 0, "pick_move was never checked");
}

#[test]
fn scopa_2() {
    run(Game::Scopa, 2, 300);
}
#[test]
fn scopa_4() {
    run(Game::Scopa, 4, 200);
}
#[test]
fn escoba_2() {
    run(Game::Escoba, 2, 300);
}
#[test]
fn escoba_4() {
    run(Game::Escoba, 4, 200);
}
#[test]
fn chkobba_2() {
    run(Game::Chkobba, 2, 300);
}
#[test]
fn chkobba_4() {
    run(Game::Chkobba, 4, 200);
}

#[test]
fn same_seed_same_trajectory() {
    for game in GAMES {
        let rules = Rules::profile(game, 2).unwrap();
        let play = |seed: u64| {
            let mut s = State::new(&rules, seed);
            let mut rng = Rng::new(seed);
            let mut moves = Vec::new();
            let mut trace = Vec::new();
            while !s.hand_over() {
                s.legal_moves(&rules, &mut moves);
                let mv = moves[rng.below(moves.len() as u64) as usize];
                trace.push(mv);
                s.apply_unchecked(&rules, mv);
            }
            (trace, s)
        };
        assert_eq!(play(11), play(11));
        assert_ne!(play(11).0, play(12).0);
    }
}

#[test]
fn leader_of_every_round_is_after_the_dealer() {
    for game in GAMES {
        for players in [2, 4] {
            let rules = Rules::profile(game, players).unwrap();
            let mut moves = Vec::new();
            for seed in 0..50 {
                let mut s = State::new(&rules, seed);
                let mut rng = Rng::new(seed);
                while !s.hand_over() {
                    let full = (0..players).all(|p| s.hand(p).len() == 3);
                    if full {
                        assert_eq!(s.to_move(), Some(rules.next_seat(s.dealer())), "I6");
                    }
                    s.legal_moves(&rules, &mut moves);
                    let mv = moves[rng.below(moves.len() as u64) as usize];
                    s.apply_unchecked(&rules, mv);
                }
            }
        }
    }
}

#[test]
fn escoba_dealer_sweeps_happen_and_count() {
    // E5: over many deals, some opening tables total 15 or 30; the dealer's side then holds the
    // four cards and their sweeps, and the dealer is the last capturer.
    let rules = Rules::profile(Game::Escoba, 2).unwrap();
    let mut seen = [0; 3];
    for seed in 0..3000 {
        let s = State::new(&rules, seed);
        let side = usize::from(s.dealer() & 1);
        let sw = s.sweeps()[side];
        seen[usize::from(sw)] += 1;
        if sw > 0 {
            assert!(s.table().is_empty());
            assert_eq!(s.pile(side).len(), 4);
            assert_eq!(rules.total(s.pile(side)), 15 * u32::from(sw));
            assert_eq!(s.last_capturer(), Some(s.dealer()));
        } else {
            assert_eq!(s.table().len(), 4);
            let t = rules.total(s.table());
            assert!(t != 15 && t != 30);
        }
    }
    assert!(seen[1] > 0 && seen[2] > 0, "{seen:?}");
}

#[test]
fn scopa_never_opens_with_three_kings() {
    let rules = Rules::profile(Game::Scopa, 2).unwrap();
    for seed in 0..3000 {
        let s = State::new(&rules, seed);
        assert!((s.table() & CardSet::rank(9)).len() < 3);
    }
}

// ----- variant presets and option combinations (docs/variants.md) -----

use common::{OFF, ON, rules as variant, word};

#[test]
fn preset_scopone() {
    run_rules(&variant(Game::Scopa, 4, &[("deal", word("scopone"))]), 150);
}

#[test]
fn preset_scopone_scientifico() {
    run_rules(
        &variant(Game::Scopa, 4, &[("deal", word("scientifico"))]),
        150,
    );
}

#[test]
fn preset_scopa_a_15() {
    run_rules(
        &variant(Game::Scopa, 2, &[("capture", word("fifteen"))]),
        150,
    );
}

#[test]
fn preset_scopa_d_assi() {
    for players in [2, 4] {
        run_rules(
            &variant(Game::Scopa, players, &[("ace_takes_all", ON)]),
            100,
        );
    }
}

#[test]
fn preset_cirulla() {
    let opts = [
        ("capture", word("match_or_fifteen")),
        ("ace_takes_all", ON),
        ("ace_sweep", ON),
        ("redeal", word("two_aces")),
        ("opening_sweeps", word("sum")),
        ("declarations", ON),
        ("napola", ON),
        ("grande", OptionValue::Int(5)),
        ("all_coins_wins", ON),
        ("target", OptionValue::Int(51)),
    ];
    for players in [2, 4] {
        run_rules(&variant(Game::Scopa, players, &opts), 60);
    }
}

#[test]
fn clockwise_every_game() {
    for game in GAMES {
        for players in [2, 4] {
            run_rules(
                &variant(game, players, &[("direction", word("clockwise"))]),
                40,
            );
        }
    }
    let scopone = [("deal", word("scopone")), ("direction", word("clockwise"))];
    run_rules(&variant(Game::Chkobba, 4, &scopone), 40);
}

#[test]
fn optional_capture_and_renuncio() {
    for game in GAMES {
        for players in [2, 4] {
            let opts = [("compulsory_capture", OFF), ("renuncio", ON)];
            run_rules(&variant(game, players, &opts), 40);
            run_rules(&variant(game, players, &opts[..1]), 20);
        }
    }
}

#[test]
fn fewest_cards_and_combinations() {
    for game in GAMES {
        let opts = [
            ("fewest_cards", ON),
            ("capture", word("match_or_fifteen")),
            ("ace_takes_all", ON),
            ("ace_takes_ace_only", OFF),
            ("compulsory_capture", OFF),
            ("renuncio", ON),
            ("direction", word("clockwise")),
        ];
        run_rules(&variant(game, 4, &opts), 30);
        run_rules(&variant(game, 2, &opts[..1]), 30);
        let mut scientifico = vec![("deal", word("scientifico")), opts[0].clone()];
        if game == Game::Chkobba {
            scientifico.push(("cut_card", OFF));
        }
        run_rules(&variant(game, 4, &scientifico), 20);
    }
}

/// V-E6: without compulsory capture a whole hand may pass without a capture. Every seat
/// trailing every card ends the hand with all 40 cards on the table, which go to nobody
/// (docs/variants.md, "Edge cases settled"): nothing scores, the finished state round-trips
/// through its encoding, and the next hand deals. It used to panic (I4).
#[test]
fn a_hand_without_a_capture_ends_with_the_cards_on_the_table() {
    let mut played = 0;
    for game in GAMES {
        for players in [2, 4] {
            let rules = variant(game, players, &[("compulsory_capture", OFF)]);
            // Seeds whose deal gives no opening sweep (Escoba's dealer would have captured).
            for seed in 0..10 {
                let mut s = State::new(&rules, seed);
                if s.last_capturer().is_some() {
                    continue;
                }
                let mut moves = Vec::new();
                while !s.hand_over() {
                    s.legal_moves(&rules, &mut moves);
                    // The cut decision, then a trail every turn (always legal here).
                    let mv = if s.phase() == Phase::Cut {
                        moves[0]
                    } else {
                        *moves
                            .iter()
                            .find(|m| m.kind() == MoveKind::Play && m.captures().is_empty())
                            .expect("a trail is legal without compulsory capture")
                    };
                    s = play_checked(&rules, &s, mv);
                }
                assert_eq!(s.last_capturer(), None);
                assert_eq!(s.table(), CardSet::FULL, "the leftovers stay on the table");
                assert_eq!(all_cards(&s), CardSet::FULL);
                let score = s.hand_score(&rules).unwrap();
                assert_eq!(score.points, [0, 0], "{game:?} {players}");
                assert_eq!(State::decode(&rules, &s.encode(&rules)).unwrap(), s);
                s.next_hand(&rules).unwrap();
                assert!(matches!(s.phase(), Phase::Play | Phase::Cut));
                played += 1;
            }
        }
    }
    assert!(played > 30, "{played} hands");
}

/// An index past the legal moves is the caller's bug: `pick_move` refuses it rather than
/// returning a move that is not legal.
#[test]
#[should_panic(expected = "pick gave index")]
fn pick_move_refuses_an_index_past_the_moves() {
    let rules = Rules::profile(Game::Scopa, 2).unwrap();
    let state = State::new(&rules, 1);
    state.pick_move(&rules, |n| n);
}
