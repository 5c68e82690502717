//! Escoba (`docs/rules.md` §4, rules E1-E13).
//!
//! 40 Spanish cards (A, 2-7, sota J=8, caballo Q=9, rey K=10). Three each and four on the table.
//! A played card captures a set of table cards that, with it, totals exactly 15; one set only,
//! compulsory for the card played, and any card may be played. A capture that clears the table
//! is an escoba. If the four opening cards total 15 (30), the dealer takes them and scores 1 (2)
//! escobas and is the last capturer (E5, E-A1 option `initial_30_requires_partition`); there is
//! no redeal. The final table always totals 10 mod 15 (E-A4), so a last-play escoba cannot
//! happen. Points: cards, coins (oros), velo (7D), setenta, one per escoba. Target 21.
//!
//! Action layout: a move is (card, captured set); the observation is [`crate::View`].

use crate::game::profile::Profile;
use crate::game::words::{CaptureMode, OpeningSweeps, PrimeCategory, Redeal};

/// The game's facts (see [`Profile`]).
pub(crate) const PROFILE: Profile = Profile {
    name: "escoba",
    code: 1,
    target: 21,
    redeal: Redeal::Off,
    capture: CaptureMode::Fifteen,
    opening_sweeps: OpeningSweeps::Sum,
    face_values: [8, 9, 10],
    prime: PrimeCategory::Primiera,
    // V-E2: sevens, then sixes, aces and fives, and no further.
    sevens_cascade: &[6, 5, 0, 4],
    category_names: ["cards", "coins", "velo", "setenta"],
    sweep_name: ("escoba", "escobas"),
    cut_card: false,
    own_options: &[
        "primiera_mode",
        "primiera_figures",
        "primiera_missing_suit",
        "deck",
        "initial_30_requires_partition",
    ],
};

#[cfg(test)]
mod tests {
    use crate::{CardSet, Game, Rules, State};

    #[test]
    fn final_table_is_ten_mod_fifteen_in_random_hands() {
        let rules = Rules::profile(Game::Escoba, 2).unwrap();
        let mut moves = Vec::new();
        for seed in 0..200 {
            let mut s = State::new(&rules, seed);
            let mut pick = seed;
            while !s.hand_over() {
                s.legal_moves(&rules, &mut moves);
                pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let mv = moves[(pick >> 33) as usize % moves.len()];
                // The table before the final play plus what it captures: E-A4.
                if s.cards_left() == 1 {
                    let left = s.table() - mv.captures();
                    let left = if mv.captures().is_empty() {
                        left | CardSet::single(mv.card())
                    } else {
                        left
                    };
                    assert_eq!(rules.total(left) % 15, 10, "seed {seed}");
                    assert!(!left.is_empty());
                }
                s.apply_unchecked(&rules, mv);
            }
        }
    }
}
