//! Card sets as 40-bit masks: bit `id` is set iff the card is in the set.

use std::fmt;

use crate::game::card::{Card, NUM_CARDS};

/// A set of cards as a bit mask (bit `i` set iff card `i` is in the set).
///
/// Only bits 0-39 are cards. The field is public so that masks build cheaply; a set with a bit
/// above 39 is not a set of cards, and the engine's functions may panic on one. Constructors
/// that take user data (`State::from_position`, `State::decode`) refuse such bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 40 cards.
    pub const FULL: CardSet = CardSet((1u64 << NUM_CARDS) - 1);
    /// The ten coins (diamonds).
    pub const COINS: CardSet = CardSet(0x22_2222_2222);

    /// The four cards of rank index `rank`.
    pub const fn rank(rank: usize) -> CardSet {
        CardSet(0xF << (rank * 4))
    }

    /// The ten cards of suit index `suit`.
    pub const fn suit(suit: usize) -> CardSet {
        CardSet(0x11_1111_1111 << suit)
    }

    /// The set holding just `card`.
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.id())
    }

    /// The raw mask.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Number of cards.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True when no card is in the set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when `card` is in the set.
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.id()) != 0
    }

    /// True when every card of `other` is in `self`.
    pub const fn is_superset(self, other: CardSet) -> bool {
        self.0 & other.0 == other.0
    }

    /// Adds `card`.
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.id();
    }

    /// Removes `card`.
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.id());
    }

    /// The lowest card, if any.
    pub fn first(self) -> Option<Card> {
        (self.0 != 0)
            .then(|| Card::new(self.0.trailing_zeros() as u8).expect("mask holds ids < 40"))
    }

    /// The cards in id order.
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }
}

impl std::ops::BitOr for CardSet {
    type Output = CardSet;
    fn bitor(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for CardSet {
    fn bitor_assign(&mut self, rhs: CardSet) {
        self.0 |= rhs.0;
    }
}

impl std::ops::BitAnd for CardSet {
    type Output = CardSet;
    fn bitand(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & rhs.0)
    }
}

impl std::ops::Sub for CardSet {
    type Output = CardSet;
    fn sub(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & !rhs.0)
    }
}

impl std::ops::SubAssign for CardSet {
    fn sub_assign(&mut self, rhs: CardSet) {
        self.0 &= !rhs.0;
    }
}

impl std::ops::Not for CardSet {
    type Output = CardSet;
    fn not(self) -> CardSet {
        CardSet(!self.0 & CardSet::FULL.0)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

/// Iterator over a [`CardSet`] in id order.
#[derive(Clone, Debug)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let id = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Card::new(id)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl fmt::Display for CardSet {
    /// Cards in id order joined by `+`, e.g. `3C+4S`; the empty set prints as `-`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::card::{Rank, Suit};

    #[test]
    fn masks_match_their_cards() {
        for c in Card::all() {
            assert!(CardSet::rank(c.rank().index()).contains(c));
            assert!(CardSet::suit(c.suit() as usize).contains(c));
            assert_eq!(CardSet::COINS.contains(c), c.suit() == Suit::Diamonds);
        }
        assert_eq!(CardSet::COINS.len(), 10);
        assert_eq!(CardSet::FULL.len(), 40);
        assert_eq!(CardSet::rank(Rank::KING.index()).len(), 4);
    }

    #[test]
    fn iterates_in_id_order() {
        let s: CardSet = ["KS", "AC", "7D"]
            .iter()
            .map(|x| x.parse::<Card>().unwrap())
            .collect();
        let v: Vec<String> = s.iter().map(|c| c.to_string()).collect();
        assert_eq!(v, ["AC", "7D", "KS"]);
        assert_eq!(s.to_string(), "AC+7D+KS");
        assert_eq!((!s).len(), 37);
    }
}
