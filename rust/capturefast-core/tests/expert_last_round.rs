//! The expert bot's last round of a 2-player hand against the exact solver.
//!
//! With the stock empty nothing is hidden from the seat to move (the unseen cards are the
//! opponent's hand), so the expert searches the rest of the hand exactly and each of its
//! choices must reach the solver's value. Checked under the default games and under the rules
//! that change what a last-round move is worth or which moves there are: an ace taking the
//! whole table (`ace_takes_all`), a sweep only with `ace_sweep`, and optional capture
//! (`compulsory_capture = false`), where the best play can be to trail a card that could
//! capture.
//!
//! Hands are played to their last round by greedy or random moves, then every decision of the
//! last round is checked, the round going on by the expert's move or a random one. Hand counts
//! shrink tenfold in debug builds; the counts quoted are those of `cargo test --release`, and
//! the rarest kinds of position are only required there.

use capturefast_core::{
    Bot, ExpertBot, Game, GreedyBot, LazyView, Move, MoveKind, OptionValue, Phase, Rng, Rules,
    Solution, Solver, State,
};

mod common;
use common::{OFF, ON, rules};

/// Hands per rule set, fewer in debug builds.
fn scaled(hands: u64) -> u64 {
    if cfg!(debug_assertions) {
        hands.div_ceil(10)
    } else {
        hands
    }
}

/// A count of positions the sample must reach, scaled like the hands (rounded down, so a rare
/// kind may be missing from a debug build's sample).
fn at_least(n: usize) -> usize {
    if cfg!(debug_assertions) { n / 10 } else { n }
}

/// What the positions of one rule set held.
#[derive(Debug, Default)]
struct Tally {
    /// Last-round decisions checked.
    decisions: usize,
    /// Of those, decisions with more than one legal move.
    choices: usize,
    /// Decisions where an ace taking the whole table by `ace_takes_all` is legal.
    ace_takes_all: usize,
    /// ... and where that capture is not a best move.
    ace_takes_all_not_best: usize,
    /// Decisions where trailing a card that could capture is legal (optional capture).
    capturing_trail: usize,
    /// ... where such a trail is a best move.
    capturing_trail_best: usize,
    /// ... where every best move is a trail of a card that could capture (no capture is as
    /// good: a bot that never trails a card that can capture loses points there).
    capturing_trail_only: usize,
    /// Decisions where the expert chose such a trail.
    expert_capturing_trail: usize,
    /// Decisions where no best move under the contrasting rules (the other `ace_sweep`) is a
    /// best move under the rules checked: a bot valuing the ace's capture by the wrong rule
    /// plays a worse move there.
    misled: usize,
    /// The decisions where the expert's move falls short of the solver's value.
    failures: Vec<String>,
}

/// Whether `mv` is a trail of a card that has a capture on the table.
fn is_capturing_trail(legal: &[Move], mv: Move) -> bool {
    mv.kind() == MoveKind::Play
        && mv.captures().is_empty()
        && legal.iter().any(|m| {
            m.kind() == MoveKind::Play && m.card() == mv.card() && !m.captures().is_empty()
        })
}

/// Whether `mv` is an ace taking the whole table by `ace_takes_all`.
fn is_ace_taking_all(rules: &Rules, state: &State, mv: Move) -> bool {
    mv.kind() == MoveKind::Play
        && !mv.captures().is_empty()
        && mv.captures() == state.table()
        && rules.ace_takes_all(state.table(), mv.card())
}

fn value_of(solution: &Solution, mv: Move) -> i32 {
    solution
        .move_values
        .iter()
        .find(|&&(m, _)| m == mv)
        .map(|&(_, v)| v)
        .expect("the solution values every legal move")
}

/// The position and the solver's value of each move, for a failure message.
fn describe(state: &State, solution: &Solution) -> String {
    let moves: Vec<String> = solution
        .move_values
        .iter()
        .map(|(m, v)| format!("{m} = {v}"))
        .collect();
    format!(
        "hands {} / {}, table {}, piles {} / {}, sweeps {:?}, last capturer {:?}, to move {:?}, \
         dealer {}; moves: {}",
        state.hand(0),
        state.hand(1),
        state.table(),
        state.pile(0),
        state.pile(1),
        state.sweeps(),
        state.last_capturer(),
        state.to_move(),
        state.dealer(),
        moves.join(", "),
    )
}

/// Whether the state is a decision of the last round of a 2-player hand: stock empty, no cut
/// card pending, a card to play.
fn in_last_round(state: &State) -> bool {
    !state.hand_over()
        && state.phase() == Phase::Play
        && state.stock().is_empty()
        && state.cut_card().is_none()
}

/// Plays `hands` hands of `rules` to their last round and checks the expert's every decision
/// there against the solver; with `contrast`, also counts the decisions its best moves would
/// get wrong.
fn check(rules: &Rules, contrast: Option<&Rules>, hands: u64, seed: u64) -> Tally {
    assert_eq!(rules.num_players(), 2);
    let mut solver = Solver::new(1 << 16);
    let mut contrast_solver = Solver::new(1 << 16);
    let mut tally = Tally::default();
    let mut legal = Vec::new();
    for h in 0..hands {
        let deal = Rng::derive(seed, h);
        let mut rng = Rng::new(Rng::derive(deal, 1));
        let mut state = State::new(rules, deal);
        // Half the hands reach the last round by greedy play, half by random moves.
        let mut greedy = GreedyBot::new(Rng::derive(deal, 2));
        let by_greedy = h % 2 == 0;
        while !in_last_round(&state) {
            assert!(!state.hand_over(), "the hand ended before its last round");
            state.legal_moves(rules, &mut legal);
            let mv = if by_greedy {
                let seat = state.to_move().unwrap();
                greedy.choose(rules, &LazyView::new(&state, seat), &legal)
            } else {
                legal[rng.below(legal.len() as u64) as usize]
            };
            state.apply_unchecked(rules, mv);
        }
        let mut expert = ExpertBot::new(Rng::derive(deal, 3));
        while !state.hand_over() {
            assert!(in_last_round(&state));
            state.legal_moves(rules, &mut legal);
            let seat = state.to_move().unwrap();
            let solution = solver.solve(rules, &state).unwrap();
            let mv = expert.choose(rules, &LazyView::new(&state, seat), &legal);
            assert!(legal.contains(&mv), "illegal {mv}");
            let got = value_of(&solution, mv);

            tally.decisions += 1;
            tally.choices += usize::from(legal.len() > 1);
            if let Some(&ace) = legal.iter().find(|&&m| is_ace_taking_all(rules, &state, m)) {
                tally.ace_takes_all += 1;
                tally.ace_takes_all_not_best +=
                    usize::from(value_of(&solution, ace) < solution.value);
            }
            if legal.iter().any(|&m| is_capturing_trail(&legal, m)) {
                tally.capturing_trail += 1;
                let best = solution.best_moves();
                let trails = best
                    .iter()
                    .filter(|&&m| is_capturing_trail(&legal, m))
                    .count();
                tally.capturing_trail_best += usize::from(trails > 0);
                tally.capturing_trail_only += usize::from(trails == best.len());
            }
            if let Some(other) = contrast {
                let wrong = contrast_solver.solve(other, &state).unwrap().best_moves();
                tally.misled += usize::from(
                    wrong
                        .iter()
                        .all(|&m| value_of(&solution, m) < solution.value),
                );
            }
            tally.expert_capturing_trail += usize::from(is_capturing_trail(&legal, mv));
            if got != solution.value {
                tally.failures.push(format!(
                    "hand {h} (seed {seed}): seat {seat} chose {mv} worth {got}, best {}; {}",
                    solution.value,
                    describe(&state, &solution),
                ));
            }

            // The round goes on by the expert's move or a random one, so that later decisions
            // come from good and bad play alike.
            let next = if rng.below(2) == 0 {
                mv
            } else {
                legal[rng.below(legal.len() as u64) as usize]
            };
            state.apply_unchecked(rules, next);
        }
    }
    tally
}

/// Checks `hands` hands of `rules` and asserts the expert was always optimal; returns the tally.
fn check_optimal(
    name: &str,
    rules: &Rules,
    contrast: Option<&Rules>,
    hands: u64,
    seed: u64,
) -> Tally {
    let tally = check(rules, contrast, hands, seed);
    eprintln!(
        "{name}: {} last-round decisions ({} with a choice); an ace taking all legal {} (not \
         best {}), the other ace_sweep misleads {}; a trail of a capturing card legal {}, best \
         {}, the only best {}, chosen {}; non-optimal {}",
        tally.decisions,
        tally.choices,
        tally.ace_takes_all,
        tally.ace_takes_all_not_best,
        tally.misled,
        tally.capturing_trail,
        tally.capturing_trail_best,
        tally.capturing_trail_only,
        tally.expert_capturing_trail,
        tally.failures.len(),
    );
    assert!(
        tally.failures.is_empty(),
        "{name}: the expert's last-round move is not optimal in {} of {} decisions, first:\n{}",
        tally.failures.len(),
        tally.decisions,
        tally.failures[..tally.failures.len().min(5)].join("\n"),
    );
    assert!(tally.choices >= at_least(300), "{name}: {tally:?}");
    tally
}

#[test]
fn default_games() {
    for (g, game) in [Game::Scopa, Game::Escoba, Game::Chkobba]
        .into_iter()
        .enumerate()
    {
        let rules = Rules::profile(game, 2).unwrap();
        let tally = check_optimal(
            &format!("{game:?}"),
            &rules,
            None,
            scaled(300),
            10 + g as u64,
        );
        assert_eq!(tally.ace_takes_all, 0);
        assert_eq!(tally.capturing_trail, 0, "capture is compulsory");
    }
}

/// Scopa with an ace taking the whole table, its capture a sweep or not.
fn ace_rules(ace_sweep: bool) -> Rules {
    rules(
        Game::Scopa,
        2,
        &[
            ("ace_takes_all", ON),
            ("ace_sweep", OptionValue::Bool(ace_sweep)),
        ],
    )
}

#[test]
fn ace_takes_all_without_ace_sweep() {
    // The ace's capture of the table is not a sweep: it is worth its cards only. The contrast
    // counts it as a sweep, as the expert's own last-round search once did.
    let rules = ace_rules(false);
    let name = "Scopa ace_takes_all";
    let tally = check_optimal(name, &rules, Some(&ace_rules(true)), scaled(6000), 20);
    assert!(tally.ace_takes_all >= at_least(300), "{tally:?}");
    assert!(tally.ace_takes_all_not_best >= at_least(100), "{tally:?}");
    // Positions where valuing the ace's capture as a sweep picks a worse move.
    assert!(tally.misled >= at_least(3), "{tally:?}");
}

#[test]
fn ace_takes_all_with_ace_sweep() {
    // The control: here the ace's capture of the table is a sweep.
    let rules = ace_rules(true);
    let name = "Scopa ace_takes_all ace_sweep";
    let tally = check_optimal(name, &rules, Some(&ace_rules(false)), scaled(6000), 30);
    assert!(tally.ace_takes_all >= at_least(300), "{tally:?}");
    assert!(tally.misled >= at_least(3), "{tally:?}");
}

#[test]
fn optional_capture() {
    for (g, game) in [Game::Scopa, Game::Escoba].into_iter().enumerate() {
        let rules = rules(game, 2, &[("compulsory_capture", OFF)]);
        let name = format!("{game:?} compulsory_capture off");
        let tally = check_optimal(&name, &rules, None, scaled(1000), 40 + g as u64);
        assert!(tally.capturing_trail >= at_least(1000), "{name}: {tally:?}");
        // Positions where only a trail of a card that could capture reaches the value.
        assert!(
            tally.capturing_trail_only >= at_least(10),
            "{name}: {tally:?}"
        );
        assert!(
            tally.expert_capturing_trail >= at_least(100),
            "{name}: {tally:?}"
        );
    }
}

#[test]
fn optional_capture_with_ace_takes_all() {
    // Both at once: the ace may take the table (not a sweep) or trail.
    let with = |ace_sweep| {
        rules(
            Game::Scopa,
            2,
            &[
                ("compulsory_capture", OFF),
                ("ace_takes_all", ON),
                ("ace_sweep", OptionValue::Bool(ace_sweep)),
            ],
        )
    };
    let name = "Scopa compulsory_capture off ace_takes_all";
    let tally = check_optimal(name, &with(false), Some(&with(true)), scaled(1000), 50);
    assert!(tally.ace_takes_all >= at_least(300), "{tally:?}");
    assert!(tally.capturing_trail_only >= at_least(10), "{tally:?}");
}
