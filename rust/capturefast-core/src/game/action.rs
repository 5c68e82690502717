//! Moves: the played card and the exact captured set, or a Chkobba cut decision.
//!
//! A move packs into one `u64`: captured set in bits 0-39, card id in bits 40-45, kind in bits
//! 46-47. Ordering moves by the packed value orders them by kind, then card, then captured mask,
//! which is the order legal moves are listed in.

use std::fmt;
use std::str::FromStr;

use crate::error::Error;
use crate::game::card::Card;
use crate::game::cardset::CardSet;

/// What a move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// Play a card from hand: it captures the given set, or trails when the set is empty.
    Play = 0,
    /// Chkobba: the cutter keeps the cut card in hand (K5.3).
    KeepCut = 1,
    /// Chkobba: the cutter puts the cut card face up on the table (K5.4).
    TableCut = 2,
    /// Renuncio (V-E7): the next player claims a card just trailed that could capture, with one
    /// of its captures. Not a turn: the claimant then plays a card.
    Claim = 3,
}

impl MoveKind {
    /// The name used in the Python API: `play`, `keep_cut`, `table_cut`.
    pub fn name(self) -> &'static str {
        match self {
            MoveKind::Play => "play",
            MoveKind::KeepCut => "keep_cut",
            MoveKind::TableCut => "table_cut",
            MoveKind::Claim => "claim",
        }
    }
}

/// A move, packed in one `u64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move(u64);

const CAPTURE_MASK: u64 = (1 << 40) - 1;

impl Move {
    /// Play `card`, capturing `captures` (empty: the card trails).
    pub fn play(card: Card, captures: CardSet) -> Move {
        Move(captures.0 | (u64::from(card.id()) << 40))
    }

    /// A Chkobba cut decision on `card`.
    pub fn cut(card: Card, keep: bool) -> Move {
        let kind = if keep {
            MoveKind::KeepCut
        } else {
            MoveKind::TableCut
        };
        Move((u64::from(card.id()) << 40) | ((kind as u64) << 46))
    }

    /// Renuncio: claim the trailed `card` with `captures` (not empty).
    pub fn claim(card: Card, captures: CardSet) -> Move {
        Move(captures.0 | (u64::from(card.id()) << 40) | ((MoveKind::Claim as u64) << 46))
    }

    /// The packed form.
    pub fn to_bits(self) -> u64 {
        self.0
    }

    /// Unpacks a move; `None` if the bits are not a well-formed move.
    pub fn from_bits(bits: u64) -> Option<Move> {
        let card = Card::new(((bits >> 40) & 0x3F) as u8)?;
        let kind = (bits >> 46) & 3;
        let captures = CardSet(bits & CAPTURE_MASK);
        match kind {
            0 if bits >> 48 == 0 && !captures.contains(card) => Some(Move(bits)),
            1 | 2 if bits >> 48 == 0 && captures.is_empty() => Some(Move(bits)),
            3 if bits >> 48 == 0 && !captures.is_empty() && !captures.contains(card) => {
                Some(Move(bits))
            }
            _ => None,
        }
    }

    /// The kind.
    pub fn kind(self) -> MoveKind {
        match (self.0 >> 46) & 3 {
            0 => MoveKind::Play,
            1 => MoveKind::KeepCut,
            2 => MoveKind::TableCut,
            _ => MoveKind::Claim,
        }
    }

    /// The played card (or the cut card).
    pub fn card(self) -> Card {
        // Moves are built from cards, or by `from_bits`, which checks the id.
        Card::from_valid_id(((self.0 >> 40) & 0x3F) as u8)
    }

    /// The captured cards (empty for trails and cut decisions; the claimed set for a claim).
    pub fn captures(self) -> CardSet {
        CardSet(self.0 & CAPTURE_MASK)
    }
}

impl fmt::Display for Move {
    /// `7D x 3C+4S`, `7D` (trail), `keep 7D`, `table 7D`, `claim 7D x 3C+5S`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            MoveKind::KeepCut => write!(f, "keep {}", self.card()),
            MoveKind::TableCut => write!(f, "table {}", self.card()),
            MoveKind::Play if self.captures().is_empty() => write!(f, "{}", self.card()),
            MoveKind::Play => write!(f, "{} x {}", self.card(), self.captures()),
            MoveKind::Claim => write!(f, "claim {} x {}", self.card(), self.captures()),
        }
    }
}

impl FromStr for Move {
    type Err = Error;

    /// Parses the notation of [`Move`]'s `Display`; captured cards in any order, `+` or spaces.
    fn from_str(s: &str) -> Result<Move, Error> {
        let bad = || Error::BadMove(s.to_string());
        let t = s.trim();
        let lower = t.to_ascii_lowercase();
        for (word, keep) in [("keep", true), ("table", false)] {
            if let Some(rest) = lower.strip_prefix(word)
                && rest.starts_with(char::is_whitespace)
            {
                let card: Card = rest.trim().parse().map_err(|_| bad())?;
                return Ok(Move::cut(card, keep));
            }
        }
        if let Some(rest) = lower.strip_prefix("claim")
            && rest.starts_with(char::is_whitespace)
        {
            let m: Move = t[5..].parse().map_err(|_| bad())?;
            if m.kind() != MoveKind::Play || m.captures().is_empty() {
                return Err(bad());
            }
            return Ok(Move::claim(m.card(), m.captures()));
        }
        let (card_s, caps_s) = match t.split_once(['x', 'X']) {
            // A card is 2 characters, or 3 for the numerals deck's `10D`.
            Some((a, b)) if !a.trim().is_empty() && a.trim().len() <= 3 => (a, Some(b)),
            _ => (t, None),
        };
        let card: Card = card_s.trim().parse().map_err(|_| bad())?;
        let mut captures = CardSet::EMPTY;
        if let Some(caps) = caps_s {
            // Between two `+` (or before the first, after the last) stands at least one card,
            // as in the position notation: `3C+` and `3C++4S` are refused, not read as `3C`
            // and `3C+4S`.
            if caps.trim().is_empty() {
                return Err(bad());
            }
            for group in caps.split('+') {
                if group.trim().is_empty() {
                    return Err(Error::BadMove(format!(
                        "a `+` with no card on one side: {s}"
                    )));
                }
                for part in group.split_whitespace() {
                    let c: Card = part.parse().map_err(|_| bad())?;
                    if captures.contains(c) || c == card {
                        return Err(Error::DuplicateCard(c.to_string()));
                    }
                    captures.insert(c);
                }
            }
        }
        Ok(Move::play(card, captures))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn packs_and_unpacks() {
        let caps: CardSet = [c("3C"), c("4S")].into_iter().collect();
        let m = Move::play(c("7D"), caps);
        assert_eq!(m.card(), c("7D"));
        assert_eq!(m.captures(), caps);
        assert_eq!(m.kind(), MoveKind::Play);
        assert_eq!(Move::from_bits(m.to_bits()), Some(m));
        let k = Move::cut(c("7D"), true);
        assert_eq!(k.kind(), MoveKind::KeepCut);
        assert_eq!(Move::from_bits(k.to_bits()), Some(k));
        assert_eq!(Move::from_bits(u64::MAX), None);
        assert_eq!(Move::from_bits(40 << 40), None);
        let cl = Move::claim(c("7D"), caps);
        assert_eq!(cl.kind(), MoveKind::Claim);
        assert_eq!(cl.to_bits() >> 46, 3);
        assert_eq!((cl.card(), cl.captures()), (c("7D"), caps));
        assert_eq!(Move::from_bits(cl.to_bits()), Some(cl));
        // A claim takes something; it sorts after every play and cut decision.
        assert_eq!(
            Move::from_bits(Move::claim(c("7D"), CardSet::EMPTY).to_bits()),
            None
        );
        assert!(cl > Move::cut(c("KS"), false));
    }

    #[test]
    fn notation_round_trips() {
        for s in [
            "7D x 3C+4S",
            "7D",
            "keep 7D",
            "table QH",
            "KS x AC+2D+3H+4S",
            "claim 7D x 3C+4S",
            "claim AC x 2D+KS",
        ] {
            assert_eq!(s.parse::<Move>().unwrap().to_string(), s);
        }
        assert_eq!(
            "7d x 4s 3c".parse::<Move>().unwrap().to_string(),
            "7D x 3C+4S"
        );
        assert_eq!(
            "7D x 3C + 4S".parse::<Move>().unwrap().to_string(),
            "7D x 3C+4S"
        );
        // The numerals deck's spellings (V-S14).
        assert_eq!(
            "10D x 8C+2S".parse::<Move>().unwrap().to_string(),
            "KD x 2S+JC"
        );
        assert_eq!(
            "Claim 9H x 4C+5S".parse::<Move>().unwrap().to_string(),
            "claim QH x 4C+5S"
        );
    }

    #[test]
    fn rejects_bad_notation() {
        for s in [
            "",
            "7D x",
            "7D x 1C",
            "keep",
            "x 3C",
            "7D x 3C+3C",
            "7D x 7D",
            "claim 7D",
            "claim",
            "claim keep 7D",
        ] {
            assert!(s.parse::<Move>().is_err(), "{s}");
        }
    }

    /// A `+` stands between two cards: an empty card is refused with the text, never skipped.
    #[test]
    fn rejects_an_empty_card_between_plus_signs() {
        for s in [
            "7D x 3C+",
            "7D x 3C++4S",
            "7D x +3C",
            "7D x 3C+ +4S",
            "claim 7D x 3C+",
        ] {
            let err = s.parse::<Move>().unwrap_err();
            assert!(matches!(err, Error::BadMove(_)), "{s}: {err:?}");
            assert!(err.to_string().ends_with(&format!(": {s}")), "{err}");
        }
    }
}
