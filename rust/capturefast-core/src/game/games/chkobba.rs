//! Chkobba, Tunisian profile (`docs/rules.md` §2, rules K1-K15).
//!
//! 40 cards with capture values A=1, 2-7, Q=8, J=9, K=10 (option `chkobba_face_values`). The
//! cutter (seat d+1) sees the top card after the shuffle and keeps it as one of their three cards
//! or puts it face up as one of the four table cards (K5): the two moves `keep_cut` and
//! `table_cut`. Three or more cards of one rank on the opening table (a tabled cut card counts):
//! the same dealer redeals, with a new cut (K6, K-A1, K-A2). Capture as in Scopa (K9). A capture
//! that empties the table is a chkobba, except on the final play of the hand (K11). Points:
//! karta (more than 20 cards), dinari (more than 5 diamonds), 7ayya (7D), bermila (more sevens,
//! then more sixes), one per chkobba; ties score nothing. Target 21.
//!
//! Action layout: a move is (card, captured set), or a cut decision; the observation is
//! [`crate::View`].

use crate::game::profile::Profile;
use crate::game::words::{CaptureMode, OpeningSweeps, PrimeCategory, Redeal};

/// The game's facts (see [`Profile`]).
pub(crate) const PROFILE: Profile = Profile {
    name: "chkobba",
    code: 2,
    target: 21,
    redeal: Redeal::ThreeOfARank,
    capture: CaptureMode::EqualThenSum,
    opening_sweeps: OpeningSweeps::Off,
    // Q=8, J=9, K=10 (`chkobba_face_values = italian` gives J=8, Q=9).
    face_values: [9, 8, 10],
    prime: PrimeCategory::Bermila,
    sevens_cascade: &[6, 5, 0, 4, 3, 2, 1],
    category_names: ["karta", "dinari", "7ayya", "bermila"],
    sweep_name: ("chkobba", "chkobbas"),
    cut_card: true,
    own_options: &["bermila", "chkobba_face_values", "cut_card"],
};

#[cfg(test)]
mod tests {
    use crate::{Game, MoveKind, Phase, Rules, State};

    #[test]
    fn the_cutter_decides_first() {
        let rules = Rules::profile(Game::Chkobba, 2).unwrap();
        let mut moves = Vec::new();
        for seed in 0..50 {
            let s = State::new(&rules, seed);
            assert_eq!(s.phase(), Phase::Cut);
            assert_eq!(s.to_move(), Some((s.dealer() + 1) % 2));
            s.legal_moves(&rules, &mut moves);
            assert_eq!(moves.len(), 2);
            assert_eq!(moves[0].kind(), MoveKind::KeepCut);
            let cut = s.cut_card().unwrap();
            let mut keep = s;
            keep.play(&rules, moves[0]).unwrap();
            let mut table = s;
            table.play(&rules, moves[1]).unwrap();
            if keep.hand_number() == 0 && keep.phase() == Phase::Play && keep.stock().len() == 30 {
                // No redeal happened: the card is where the cutter put it.
                assert!(keep.hand(1 - s.dealer()).contains(cut));
            }
            if table.phase() == Phase::Play && table.stock().len() == 30 {
                assert!(table.table().contains(cut));
            }
        }
    }
}
