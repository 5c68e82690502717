//! What a sweep is worth and which card makes one: shared by the bots and the round search.

use crate::game::cardset::CardSet;
use crate::game::rules::{CaptureMode, LastPlaySweep, Rules};

/// Whether a sweep made when `left` cards remain to be played (this play included) scores:
/// under `last_play_sweep = void` the final play of the hand never does (S-A4, K11).
pub(crate) fn sweep_scores(rules: &Rules, left: u32) -> bool {
    !(left == 1 && rules.options().last_play_sweep == LastPlaySweep::Void)
}

/// The capture value of a single card that would sweep a non-empty table totalling `total`, if
/// one exists: Scopa/Chkobba a card equal to the table's only card or to its total (the total
/// of two or more cards exceeds any one of them, so no equal card takes priority); Escoba the
/// value making 15 with the table.
pub(crate) fn sweep_value(rules: &Rules, total: u32) -> Option<u8> {
    match rules.capture_mode() {
        CaptureMode::EqualThenSum => (total <= 10).then_some(total as u8),
        CaptureMode::Fifteen => (5..15).contains(&total).then(|| 15 - total as u8),
        // Either way sweeps; the heuristic weighs the matching one when it exists.
        CaptureMode::MatchOrFifteen => (total <= 10)
            .then_some(total as u8)
            .or_else(|| (5..15).contains(&total).then(|| 15 - total as u8)),
    }
}

/// How many cards of one capture value `set` holds, at most four: the value's cards are one
/// rank, a nibble of the mask, so a table lookup counts them.
pub(crate) fn count_of_value(rules: &Rules, set: CardSet, v: u8) -> u32 {
    let rank = rules.cards_of_value(v);
    let shift = rank.0.trailing_zeros() & 63;
    u32::from(NIBBLE_LEN[((set.0 & rank.0) >> shift) as usize & 0xF])
}

/// Popcount of a 4-bit rank nibble: the cards of one rank in a set.
pub(crate) const NIBBLE_LEN: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];
