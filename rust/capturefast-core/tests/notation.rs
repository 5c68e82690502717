//! The position notation round-trips every state reached in random play of every preset, 2
//! and 4 players, and every seat's view of it; refused lines name their field.

use capturefast_core::{Error, PRESETS, Rng, Rules, State, View};

fn presets_rules() -> Vec<Rules> {
    let mut out = Vec::new();
    for p in &PRESETS {
        for players in [2, 4] {
            if let Ok(rules) = p.options(Some(players)).and_then(Rules::new) {
                out.push(rules);
            }
        }
    }
    out
}

#[test]
fn every_reached_state_and_view_round_trips() {
    let mut rng = Rng::new(19);
    let mut moves = Vec::new();
    let mut lines = 0;
    for rules in presets_rules() {
        for _ in 0..6 {
            let mut state = State::new(&rules, rng.next_u64());
            // Two hands each: the deal passing and the match score carrying over.
            for _ in 0..2 {
                loop {
                    let text = state.to_notation(&rules);
                    let (back_rules, back) =
                        State::from_notation(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                    assert_eq!(back_rules, rules, "{text}");
                    assert_eq!(back, state, "{text}");
                    assert_eq!(back.to_notation(&rules), text);
                    for seat in 0..rules.num_players() {
                        let view = state.view(seat);
                        let vt = view.to_notation(&rules);
                        let (_, vb) =
                            View::from_notation(&vt).unwrap_or_else(|e| panic!("{e}\n{vt}"));
                        assert_eq!(vb, view, "{vt}");
                        lines += 1;
                    }
                    lines += 1;
                    if state.hand_over() {
                        break;
                    }
                    state.legal_moves(&rules, &mut moves);
                    let mv = moves[rng.below(moves.len() as u64) as usize];
                    state.apply_unchecked(&rules, mv);
                }
                if state.match_over() {
                    break;
                }
                state.next_hand(&rules).unwrap();
            }
        }
    }
    assert!(lines > 5000, "{lines}");
}

fn field_of(text: &str) -> String {
    match State::from_notation(text) {
        Err(Error::Notation { field, .. }) => field,
        other => panic!("not refused as notation: {other:?}\n{text}"),
    }
}

#[test]
fn refused_lines_name_the_field() {
    let rules = Rules::new(PRESETS[0].options(None).unwrap()).unwrap();
    let line = State::new(&rules, 3).to_notation(&rules);
    let with = |key: &str, value: &str| -> String {
        line.split(' ')
            .map(|t| match t.split_once('=') {
                Some((k, _)) if k == key => format!("{k}={value}"),
                _ => t.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(field_of(&with("dealer", "7")), "dealer");
    assert_eq!(field_of(&with("phase", "lunch")), "phase");
    assert_eq!(field_of(&with("players", "3")), "players");
    assert_eq!(field_of(&with("scores", "1")), "scores");
    // Sweeps with no capture yet: the last capturer is the field that disagrees.
    assert_eq!(field_of(&with("sweeps", "5/0")), "last_capturer");
    assert_eq!(field_of(&with("table", "7X")), "table");
    assert_eq!(field_of(&with("to_move", "-")), "to_move");
    assert_eq!(field_of(&with("hand_number", "x")), "hand_number");
    assert_eq!(field_of(&line.replacen("scopa", "briscola", 1)), "rules");
    assert_eq!(
        field_of(&line.replacen("scopa", "scopa[target=0]", 1)),
        "rules"
    );
    assert_eq!(field_of(&format!("{line} colour=red")), "colour");
    assert_eq!(field_of(&format!("{line} dealer=0")), "dealer");
    assert_eq!(field_of(""), "rules");
    // A card taken out of the stock and put on the table twice.
    let state = State::new(&rules, 3);
    let first = state.stock()[0];
    let stock: Vec<String> = state.stock()[1..].iter().map(ToString::to_string).collect();
    assert_eq!(field_of(&with("stock", &stock.join("+"))), "stock");
    let table = format!("{}+{first}+{first}", state.table());
    assert_eq!(field_of(&with("table", &table)), "table");
}

/// The message of the refusal of `text`, which must be a notation error.
fn message_of(text: &str) -> String {
    match State::from_notation(text) {
        Err(e @ Error::Notation { .. }) => e.to_string(),
        other => panic!("not refused as notation: {other:?}\n{text}"),
    }
}

/// An option written twice in the rules token is refused naming it, as a field written twice
/// is: neither value is taken over the other.
#[test]
fn an_option_given_twice_is_refused_naming_it() {
    let rules = Rules::new(PRESETS[0].options(None).unwrap()).unwrap();
    let line = State::new(&rules, 3).to_notation(&rules);
    let twice = line.replacen("scopa", "scopa[target=3,target=4]", 1);
    assert_eq!(
        message_of(&twice),
        "notation field `rules`: the option is given twice: target"
    );
    // Once each, both are read.
    let once = line.replacen("scopa", "scopa[target=21,napola=true]", 1);
    let (read, _) = State::from_notation(&once).unwrap();
    assert_eq!(read.options().target, 21);
}

/// A value the rules or the position cannot hold names its field and the value, not the
/// bytes decoder's words.
#[test]
fn a_claimable_card_or_declaration_refused_names_its_value() {
    let rules = Rules::new(PRESETS[0].options(None).unwrap()).unwrap();
    let line = State::new(&rules, 3).to_notation(&rules);
    assert_eq!(
        message_of(&format!("{line} claimable=7D")),
        "notation field `claimable`: not a card these rules let the player claim: 7D"
    );
    assert_eq!(
        message_of(&format!("{line} declared=3/0")),
        "notation field `declared`: declaration points without declarations in these rules: 3/0"
    );
}
