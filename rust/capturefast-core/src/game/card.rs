//! Cards: small integers in rank-major order.
//!
//! A card id is `rank * 4 + suit` with ranks `A 2 3 4 5 6 7 J Q K` (0..9) and suits `C D H S`
//! (0..3). Rank-major order keeps the four cards of a rank in one nibble of a [`CardSet`], so
//! "every card of rank r" is one constant mask. Diamonds are the coin suit of all three games.
//!
//! [`CardSet`]: crate::CardSet

use std::fmt;
use std::str::FromStr;

use crate::error::Error;

/// Number of cards in the deck.
pub const NUM_CARDS: usize = 40;
/// Number of ranks (`A 2 3 4 5 6 7 J Q K`).
pub const NUM_RANKS: usize = 10;
/// Number of suits (`C D H S`).
pub const NUM_SUITS: usize = 4;

/// Byte `s` of the result is bit `s` of `nibble` (a set of suits of one rank): one byte per
/// suit, for per-suit sums in a `u32`. The multiply's four shifted copies never overlap.
#[inline]
pub(crate) const fn suit_bytes(nibble: u64) -> u32 {
    (((nibble & 0xF) * 0x0020_4081) & 0x0101_0101) as u32
}

const RANK_CHARS: [char; NUM_RANKS] = ['A', '2', '3', '4', '5', '6', '7', 'J', 'Q', 'K'];
const SUIT_CHARS: [char; NUM_SUITS] = ['C', 'D', 'H', 'S'];

/// A suit. Diamonds are the coin suit (denari, oros, dinari).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// Clubs (bastos).
    Clubs = 0,
    /// Diamonds: the coin suit.
    Diamonds = 1,
    /// Hearts (copas).
    Hearts = 2,
    /// Spades (espadas).
    Spades = 3,
}

impl Suit {
    /// All suits in id order.
    pub const ALL: [Suit; NUM_SUITS] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit's letter: `C D H S`.
    pub fn char(self) -> char {
        SUIT_CHARS[self as usize]
    }
}

/// A rank, by its index in `A 2 3 4 5 6 7 J Q K`.
///
/// The index is not a capture value: capture values are rules data (Chkobba's Q=8, J=9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    /// The ace.
    pub const ACE: Rank = Rank(0);
    /// The six.
    pub const SIX: Rank = Rank(5);
    /// The seven.
    pub const SEVEN: Rank = Rank(6);
    /// The jack (fante, sota).
    pub const JACK: Rank = Rank(7);
    /// The queen (cavallo, caballo).
    pub const QUEEN: Rank = Rank(8);
    /// The king (re, rey).
    pub const KING: Rank = Rank(9);

    /// The rank with this index, if `index < 10`.
    pub fn new(index: u8) -> Option<Rank> {
        (usize::from(index) < NUM_RANKS).then_some(Rank(index))
    }

    /// The index in `A 2 3 4 5 6 7 J Q K`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The rank's character: `A 2 3 4 5 6 7 J Q K`.
    pub fn char(self) -> char {
        RANK_CHARS[self.index()]
    }
}

/// One of the 40 cards, as its id `rank * 4 + suit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The card with this id, if `id < 40`.
    pub fn new(id: u8) -> Option<Card> {
        (usize::from(id) < NUM_CARDS).then_some(Card(id))
    }

    /// The card with this id, which the caller knows is below 40 (a card id stored by this
    /// crate: a move's card, a set bit of a valid card set).
    #[inline]
    pub(crate) const fn from_valid_id(id: u8) -> Card {
        debug_assert!((id as usize) < NUM_CARDS);
        Card(id)
    }

    /// The card of this rank and suit.
    pub fn of(rank: Rank, suit: Suit) -> Card {
        Card(rank.0 * 4 + suit as u8)
    }

    /// The id, `0..40`.
    pub const fn id(self) -> u8 {
        self.0
    }

    /// The id as an index.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The rank.
    pub fn rank(self) -> Rank {
        Rank(self.0 >> 2)
    }

    /// The suit.
    pub fn suit(self) -> Suit {
        Suit::ALL[usize::from(self.0 & 3)]
    }

    /// Every card in id order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..NUM_CARDS as u8).map(Card)
    }

    /// The seven of coins: settebello, velo, 7ayya.
    pub const SEVEN_OF_COINS: Card = Card(6 * 4 + 1);

    /// The seven of hearts (cups): Cirulla's wild card in declarations.
    pub const SEVEN_OF_HEARTS: Card = Card(6 * 4 + 2);
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().char(), self.suit().char())
    }
}

impl FromStr for Card {
    type Err = Error;

    /// Parses `7D`, `KS`, `AC`; case-insensitive. The numerals deck's spellings `8`, `9`, `10`
    /// are read as the ranks J, Q, K (V-S14: `10D` is `KD`).
    fn from_str(s: &str) -> Result<Card, Error> {
        let bad = || {
            Error::InvalidCard(if s.is_empty() {
                "\"\"".into()
            } else {
                s.to_string()
            })
        };
        let t = s.trim();
        let Some(su) = t.chars().last() else {
            return Err(bad());
        };
        let r = &t[..t.len() - su.len_utf8()];
        let rank = match r {
            "8" => 7,
            "9" => 8,
            "10" => 9,
            _ => {
                let mut chars = r.chars();
                let (Some(r), None) = (chars.next(), chars.next()) else {
                    return Err(bad());
                };
                let r = r.to_ascii_uppercase();
                RANK_CHARS.iter().position(|&c| c == r).ok_or_else(bad)?
            }
        };
        let su = su.to_ascii_uppercase();
        let suit = SUIT_CHARS.iter().position(|&c| c == su).ok_or_else(bad)?;
        Ok(Card((rank * 4 + suit) as u8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suit_bytes_puts_each_suit_bit_in_its_byte() {
        for nibble in 0u64..16 {
            let want = (0..4).fold(0u32, |w, s| w | ((nibble >> s & 1) as u32) << (8 * s));
            assert_eq!(suit_bytes(nibble), want, "{nibble:04b}");
        }
    }

    #[test]
    fn numerals_spell_the_figures() {
        // V-S14: 8, 9, 10 are the ranks J, Q, K.
        assert_eq!("8C".parse::<Card>().unwrap().to_string(), "JC");
        assert_eq!("9h".parse::<Card>().unwrap().to_string(), "QH");
        assert_eq!("10D".parse::<Card>().unwrap().to_string(), "KD");
        assert_eq!("10D".parse::<Card>().unwrap().id(), 37);
        for bad in ["1D", "11D", "010D", "10", "8", "10X", "D"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }

    #[test]
    fn ids_are_rank_major() {
        assert_eq!("AC".parse::<Card>().unwrap().id(), 0);
        assert_eq!("AD".parse::<Card>().unwrap().id(), 1);
        assert_eq!("7D".parse::<Card>().unwrap(), Card::SEVEN_OF_COINS);
        assert_eq!("KS".parse::<Card>().unwrap().id(), 39);
        assert_eq!("qh".parse::<Card>().unwrap().to_string(), "QH");
    }

    #[test]
    fn display_round_trips_every_card() {
        for c in Card::all() {
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
            assert_eq!(Card::of(c.rank(), c.suit()), c);
        }
    }

    #[test]
    fn rejects_bad_strings() {
        for s in ["", "7", "1D", "11D", "7X", "7DD", "JOKER"] {
            assert!(
                matches!(s.parse::<Card>(), Err(Error::InvalidCard(_))),
                "{s}"
            );
        }
    }
}
