//! Scopa, GameRules.com profile (`docs/rules.md` §3, rules S1-S12).
//!
//! 40 cards, capture values A=1, 2-7, J=8, Q=9, K=10. Three cards each and four on the table;
//! later rounds deal three each and nothing to the table. A played card takes one equal-value
//! table card if there is one (each equal card is its own option), otherwise one set of two or
//! more table cards summing to its value; capture is compulsory for the card played, and any card
//! may be played. A capture that empties the table is a scopa, except on the final play of the
//! hand (S-A4, option `last_play_sweep`). Three or more kings on the opening table: redeal by the
//! same dealer. Leftovers go to the last capturer and are no scopa. Points: cards, coins,
//! settebello (7D), primiera, one per scopa; a tie scores nothing. Target 11; both sides over:
//! higher wins, equal plays on.
//!
//! Action layout: a move is (card, captured set); the observation is [`crate::View`].

use crate::game::profile::Profile;
use crate::game::words::{CaptureMode, OpeningSweeps, PrimeCategory, Redeal};

/// The game's facts (see [`Profile`]).
pub(crate) const PROFILE: Profile = Profile {
    name: "scopa",
    code: 0,
    target: 11,
    redeal: Redeal::ThreeKings,
    capture: CaptureMode::EqualThenSum,
    opening_sweeps: OpeningSweeps::Off,
    face_values: [8, 9, 10],
    prime: PrimeCategory::Primiera,
    sevens_cascade: &[6, 5, 0, 4, 3, 2, 1],
    category_names: ["cards", "coins", "settebello", "primiera"],
    sweep_name: ("scopa", "scope"),
    cut_card: false,
    own_options: &[
        "primiera_mode",
        "primiera_figures",
        "primiera_missing_suit",
        "deck",
    ],
};

#[cfg(test)]
mod tests {
    use crate::{Card, CardSet, Game, Move, OptionValue, Options, Position, Rules, State};

    fn set(cards: &[&str]) -> CardSet {
        cards.iter().map(|s| s.parse::<Card>().unwrap()).collect()
    }

    /// A 2-player final-play position: seat 1 holds `last`, the table `table`.
    fn final_play(rules: &Rules, table: &[&str], last: &str) -> State {
        let table = set(table);
        let hand = set(&[last]);
        let pile_a = !(table | hand);
        State::from_position(
            rules,
            &Position {
                hands: vec![CardSet::EMPTY, hand],
                table,
                stock: vec![],
                to_move: 1,
                dealer: 1,
                last_capturer: Some(0),
                piles: [pile_a, CardSet::EMPTY],
                sweeps: [0, 0],
                scores: [0, 0],
                seed: 0,
            },
        )
        .unwrap()
    }

    #[test]
    fn last_play_sweep_is_void_by_default_and_counts_as_an_option() {
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        let mv: Move = "7S x 3C+4D".parse().unwrap();
        let mut s = final_play(&rules, &["3C", "4D"], "7S");
        assert!(!s.is_sweep(&rules, mv));
        s.play(&rules, mv).unwrap();
        assert_eq!(s.sweeps(), [0, 0]);
        assert!(s.hand_over());

        let mut o = Options::new(Game::Scopa, 2);
        o.set("last_play_sweep", &OptionValue::Str("counts".into()))
            .unwrap();
        let rules = Rules::new(o).unwrap();
        let mut s = final_play(&rules, &["3C", "4D"], "7S");
        s.play(&rules, mv).unwrap();
        assert_eq!(s.sweeps(), [0, 1]);
    }

    #[test]
    fn leftovers_go_to_the_last_capturer_without_a_sweep() {
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        let mut s = final_play(&rules, &["KC", "QD"], "5H");
        s.play(&rules, "5H".parse().unwrap()).unwrap();
        assert!(s.pile(0).is_superset(set(&["KC", "QD", "5H"])));
        assert_eq!(s.sweeps(), [0, 0]);
    }
}
