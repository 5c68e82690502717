//! Scoring a hand (S11, E11, K14) and the match end (S12, E12, K15).
//!
//! Four categories are worth one point each, and each sweep one point. A tie in a category
//! scores nothing. The fourth category is the primiera / setenta (best card per suit on the
//! 7=21 chart) or, in Chkobba, the bermila (more sevens, then more sixes).

use crate::card::{Card, NUM_SUITS, Rank};
use crate::cardset::CardSet;
use crate::variant::{MissingSuit, PrimeCategory, Rules};

/// Primiera / setenta points by rank index (`A 2 3 4 5 6 7 J Q K`), S-A1 / E11.
pub const PRIMIERA_POINTS: [u16; 10] = [16, 12, 13, 14, 15, 18, 21, 10, 10, 10];

/// Rank indices in decreasing primiera points: 7, 6, A, 5, 4, 3, 2, J, Q, K.
const PRIMIERA_ORDER: [usize; 10] = [6, 5, 0, 4, 3, 2, 1, 7, 8, 9];

/// What one side's pile holds, as the categories count it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SideCounts {
    /// Cards captured.
    pub cards: u8,
    /// Coins (diamonds) captured.
    pub coins: u8,
    /// Sevens captured.
    pub sevens: u8,
    /// Sixes captured.
    pub sixes: u8,
    /// Primiera / setenta total; `None` when a suit is missing and the rules make that invalid.
    pub primiera: Option<u16>,
    /// Whether the side holds the seven of coins.
    pub seven_of_coins: bool,
}

/// The score of one hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HandScore {
    /// Counts per side.
    pub counts: [SideCounts; 2],
    /// Award per category (side index, or `None` for a tie), in [`Rules::category_names`] order:
    /// cards, coins, seven of coins, primiera / setenta / bermila.
    pub awards: [Option<u8>; 4],
    /// Sweeps per side.
    pub sweeps: [u8; 2],
    /// Points per side: awards plus sweeps.
    pub points: [u32; 2],
}

fn majority(a: u16, b: u16) -> Option<u8> {
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

impl Rules {
    /// The primiera of `pile`: the best card of each suit summed; a missing suit per the rules.
    pub fn primiera(&self, pile: CardSet) -> Option<u16> {
        let mut total = 0;
        for suit in 0..NUM_SUITS {
            // The best card of a suit is its first rank present in chart order.
            let cards = (pile.0 >> suit) & 0x11_1111_1111;
            let best = PRIMIERA_ORDER.iter().find(|&&r| cards >> (4 * r) & 1 != 0);
            match (best, self.options().primiera_missing_suit) {
                (Some(&r), _) => total += PRIMIERA_POINTS[r],
                (None, MissingSuit::Zero) => {}
                (None, MissingSuit::Invalid) => return None,
            }
        }
        Some(total)
    }

    /// Counts of one side's pile.
    pub fn side_counts(&self, pile: CardSet) -> SideCounts {
        SideCounts {
            cards: pile.len() as u8,
            coins: (pile & CardSet::COINS).len() as u8,
            sevens: (pile & CardSet::rank(Rank::SEVEN.index())).len() as u8,
            sixes: (pile & CardSet::rank(Rank::SIX.index())).len() as u8,
            primiera: match self.prime_category() {
                PrimeCategory::Primiera => self.primiera(pile),
                PrimeCategory::Bermila => None,
            },
            seven_of_coins: pile.contains(Card::SEVEN_OF_COINS),
        }
    }

    /// Scores a hand from the two sides' piles, sweeps and declaration points (Cirulla). The
    /// piles should be disjoint; the binding layers check that before calling.
    pub fn score(&self, piles: [CardSet; 2], sweeps: [u8; 2], declared: [u8; 2]) -> HandScore {
        let counts = [self.side_counts(piles[0]), self.side_counts(piles[1])];
        let [a, b] = counts;
        let seven = if a.seven_of_coins {
            Some(0)
        } else if b.seven_of_coins {
            Some(1)
        } else {
            None
        };
        let prime = match self.prime_category() {
            // S-A2 / E-A5: valid beats invalid; a tie or both invalid scores nothing.
            PrimeCategory::Primiera => match (a.primiera, b.primiera) {
                (Some(x), Some(y)) => majority(x, y),
                (Some(_), None) => Some(0),
                (None, Some(_)) => Some(1),
                (None, None) => None,
            },
            // K14: more sevens; sevens tied: more sixes; both tied: nobody.
            PrimeCategory::Bermila => majority(u16::from(a.sevens), u16::from(b.sevens))
                .or_else(|| majority(u16::from(a.sixes), u16::from(b.sixes))),
        };
        let awards = [
            majority(u16::from(a.cards), u16::from(b.cards)),
            majority(u16::from(a.coins), u16::from(b.coins)),
            seven,
            prime,
        ];
        let mut points = [
            u32::from(sweeps[0]) + u32::from(declared[0]),
            u32::from(sweeps[1]) + u32::from(declared[1]),
        ];
        for side in awards.into_iter().flatten() {
            points[usize::from(side)] += 1;
        }
        HandScore {
            counts,
            awards,
            sweeps,
            points,
        }
    }

    /// The side that wins the match outright at the end of a hand with these piles, whatever the
    /// scores: the side holding all ten coins when `all_coins_wins` is on (Napoleone, V-S7).
    pub fn all_coins_winner(&self, piles: [CardSet; 2]) -> Option<u8> {
        if !self.options().all_coins_wins {
            return None;
        }
        (0..2u8).find(|&s| piles[usize::from(s)].is_superset(CardSet::COINS))
    }

    /// The side that has won the match with these scores, or `None` to play on (K15, S-A5, E12).
    pub fn match_winner(&self, scores: [u32; 2]) -> Option<u8> {
        let t = self.target();
        match (scores[0] >= t, scores[1] >= t) {
            (true, false) => Some(0),
            (false, true) => Some(1),
            (true, true) => majority_u32(scores[0], scores[1]),
            (false, false) => None,
        }
    }
}

fn majority_u32(a: u32, b: u32) -> Option<u8> {
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Game, OptionValue, Options};

    fn set(cards: &[&str]) -> CardSet {
        cards.iter().map(|s| s.parse::<Card>().unwrap()).collect()
    }

    #[test]
    fn seed_primiera_example_is_75() {
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        assert_eq!(rules.primiera(set(&["7H", "7D", "6C", "5S"])), Some(75));
        assert_eq!(rules.primiera(set(&["7H", "7D", "6C"])), None);
    }

    #[test]
    fn missing_suit_zero_variant() {
        let mut o = Options::new(Game::Scopa, 2);
        o.set("primiera_missing_suit", &OptionValue::Str("zero".into()))
            .unwrap();
        let rules = Rules::new(o).unwrap();
        assert_eq!(rules.primiera(set(&["7H", "7D", "6C"])), Some(60));
    }

    #[test]
    fn chkobba_seed_example_scores_five() {
        let rules = Rules::profile(Game::Chkobba, 2).unwrap();
        let a = set(&[
            "AD", "2D", "3D", "4D", "5D", "7D", "7C", "6C", "6H", "6S", "AC", "2C", "3C", "4C",
            "5C", "QC", "JC", "KC", "AH", "2H", "3H", "4H",
        ]);
        let s = rules.score([a, !a], [1, 0], [0, 0]);
        assert_eq!(s.points, [5, 0]);
        assert_eq!(s.awards, [Some(0); 4]);
    }

    #[test]
    fn bermila_ties_through_sixes() {
        let rules = Rules::profile(Game::Chkobba, 2).unwrap();
        let a = set(&["7C", "7D", "6C", "6D"]);
        let s = rules.score([a, !a], [0, 0], [0, 0]);
        assert_eq!(s.awards[3], None);
        let a = set(&["7C", "7D", "6C", "6D", "6H"]);
        assert_eq!(rules.score([a, !a], [0, 0], [0, 0]).awards[3], Some(0));
    }

    #[test]
    fn match_end_rules() {
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        assert_eq!(rules.match_winner([10, 3]), None);
        assert_eq!(rules.match_winner([11, 3]), Some(0));
        assert_eq!(rules.match_winner([12, 13]), Some(1));
        assert_eq!(rules.match_winner([12, 12]), None);
    }
}
