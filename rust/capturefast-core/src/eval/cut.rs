//! What a Chkobba cut card is worth keeping (K5), shared by the heuristic bots.

use crate::game::action::{Move, MoveKind};
use crate::game::card::Rank;
use crate::game::cardset::CardSet;

/// The Chkobba cut decision (K5), if `legal` is one: keep a card worth having in hand (a seven,
/// a six or a coin: bermila and dinari material, which the cutter then controls), table the rest.
/// The cutter leads, so a tabled card is first exposed to the cutter's own hand, and a four-card
/// opening table is rarely swept.
pub(crate) fn cut_decision(legal: &[Move]) -> Option<Move> {
    let first = *legal.first()?;
    if first.kind() == MoveKind::Play {
        return None;
    }
    let card = first.card();
    let keep =
        CardSet::COINS.contains(card) || card.rank() == Rank::SEVEN || card.rank() == Rank::SIX;
    let want = if keep {
        MoveKind::KeepCut
    } else {
        MoveKind::TableCut
    };
    Some(
        legal
            .iter()
            .copied()
            .find(|m| m.kind() == want)
            .unwrap_or(first),
    )
}
