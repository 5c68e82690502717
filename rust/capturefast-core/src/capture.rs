//! Capture enumeration (S7, K9, E7) and the opening-table rules (S5, K6, E5).
//!
//! A capture is a set of specific table cards, so two equal cards give two options. Options come
//! back sorted by mask, each exactly once.

use crate::card::Card;
use crate::cardset::CardSet;
use crate::variant::{CaptureMode, Game, Rules};

/// What the opening table means (S5, K6, E5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The hand is void and the same dealer deals again.
    pub redeal: bool,
    /// Escoba: the dealer takes the table and scores this many sweeps (1 for 15, 2 for 30).
    pub dealer_sweeps: u8,
}

/// Calls `emit` with every subset of `table` whose capture values sum to `target`.
///
/// Depth-first over the cards sorted by value, with two cuts: a card larger than what is left
/// ends the loop (the rest are larger still), and so does a suffix too small to reach it.
fn subsets_summing_to(rules: &Rules, table: CardSet, target: u8, emit: &mut impl FnMut(CardSet)) {
    let mut items: [(u8, u64); 40] = [(0, 0); 40];
    let mut n = 0;
    for c in table {
        let v = rules.value(c);
        if v <= target {
            // Insertion sort by value: tables are small.
            let mut i = n;
            while i > 0 && items[i - 1].0 > v {
                items[i] = items[i - 1];
                i -= 1;
            }
            items[i] = (v, 1u64 << c.id());
            n += 1;
        }
    }
    let mut suffix = [0u16; 41];
    for i in (0..n).rev() {
        suffix[i] = suffix[i + 1] + u16::from(items[i].0);
    }
    dfs(&items[..n], &suffix, 0, target, 0, emit);
}

fn dfs(
    items: &[(u8, u64)],
    suffix: &[u16; 41],
    start: usize,
    remaining: u8,
    acc: u64,
    emit: &mut impl FnMut(CardSet),
) {
    for i in start..items.len() {
        let (v, bit) = items[i];
        if v > remaining || suffix[i] < u16::from(remaining) {
            break;
        }
        if v == remaining {
            emit(CardSet(acc | bit));
        } else {
            dfs(items, suffix, i + 1, remaining - v, acc | bit, emit);
        }
    }
}

impl Rules {
    /// Every legal capture of `card` played onto `table`, sorted by mask; empty: the card trails.
    pub fn capture_options(&self, table: CardSet, card: Card, out: &mut Vec<CardSet>) {
        out.clear();
        self.for_each_capture(table, card, &mut |s| out.push(s));
        out.sort_unstable();
    }

    /// Calls `emit` with every legal capture of `card` onto `table`, in no particular order.
    pub fn for_each_capture(&self, table: CardSet, card: Card, emit: &mut impl FnMut(CardSet)) {
        let v = self.value(card);
        match self.capture_mode() {
            CaptureMode::EqualThenSum => {
                // S7 / K9(a): an equal-value card must be taken, alone, and sums are forbidden.
                let equal = table & self.cards_of_value(v);
                if equal.is_empty() {
                    // K9(b): a set of two or more cards; no single card has value v here.
                    subsets_summing_to(self, table, v, emit);
                } else {
                    for c in equal {
                        emit(CardSet::single(c));
                    }
                }
            }
            // E7: played card plus table cards totalling 15; values are at most 10, so the set
            // is never empty.
            CaptureMode::Fifteen => subsets_summing_to(self, table, 15 - v, emit),
        }
    }

    /// The opening-table rule for the four face-up cards of a deal.
    pub fn opening(&self, table: CardSet) -> Opening {
        let mut dealer_sweeps = 0;
        if self.game() == Game::Escoba {
            // E5: the sum of all four decides; E-A1 / V-E4 for an unsplittable 30.
            match self.total(table) {
                15 => dealer_sweeps = 1,
                30 if !self.options().initial_30_requires_partition
                    || self.splits_in_two_15s(table) =>
                {
                    dealer_sweeps = 2;
                }
                _ => {}
            }
        }
        Opening {
            redeal: self.must_redeal(table),
            dealer_sweeps,
        }
    }

    /// Whether `set` (totalling 30) splits into two groups of 15.
    fn splits_in_two_15s(&self, set: CardSet) -> bool {
        let Some(first) = set.first() else {
            return false;
        };
        // A group of 15 holding the first card; its complement then totals 15 as well.
        let rest = set - CardSet::single(first);
        let mut found = false;
        subsets_summing_to(
            self,
            rest,
            15u8.saturating_sub(self.value(first)),
            &mut |_| {
                found = true;
            },
        );
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Game, OptionValue, Options};

    fn set(cards: &[&str]) -> CardSet {
        cards.iter().map(|s| s.parse::<Card>().unwrap()).collect()
    }

    fn options(game: Game, table: &[&str], card: &str) -> Vec<String> {
        let rules = Rules::profile(game, 2).unwrap();
        let mut out = Vec::new();
        rules.capture_options(set(table), card.parse().unwrap(), &mut out);
        out.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn equal_card_beats_sums() {
        assert_eq!(options(Game::Scopa, &["5C", "3D", "2H"], "5S"), ["5C"]);
        assert_eq!(
            options(Game::Scopa, &["5C", "5D", "3H", "2S"], "5S"),
            ["5C", "5D"]
        );
    }

    #[test]
    fn equal_cards_are_distinct_options() {
        let got = options(
            Game::Scopa,
            &["AC", "AD", "2H", "2S", "3C", "KD", "KH", "QS"],
            "5D",
        );
        assert_eq!(got, ["AC+2H+2S", "AD+2H+2S", "AC+AD+3C", "2H+3C", "2S+3C"]);
    }

    #[test]
    fn face_values_follow_the_game() {
        assert_eq!(
            options(Game::Scopa, &["JC", "AD"], "KS"),
            Vec::<String>::new()
        );
        assert_eq!(options(Game::Chkobba, &["JC", "AD"], "KS"), ["AD+JC"]);
        assert_eq!(options(Game::Chkobba, &["2D", "6S"], "QH"), ["2D+6S"]);
        let mut o = Options::new(Game::Chkobba, 2);
        o.set("chkobba_face_values", &OptionValue::Str("italian".into()))
            .unwrap();
        let rules = Rules::new(o).unwrap();
        let mut out = Vec::new();
        rules.capture_options(set(&["2D", "6S"]), "QH".parse().unwrap(), &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn escoba_makes_fifteen_with_the_played_card() {
        assert_eq!(
            options(Game::Escoba, &["AD", "4C", "7D"], "3H"),
            ["AD+4C+7D"]
        );
        assert_eq!(
            options(Game::Escoba, &["AD", "4C", "7D", "QS"], "3H"),
            ["AD+4C+7D"]
        );
        assert_eq!(options(Game::Escoba, &["5C", "5D"], "5S"), ["5C+5D"]);
        assert_eq!(options(Game::Escoba, &[], "KS"), Vec::<String>::new());
    }

    #[test]
    fn escoba_opening_table() {
        let rules = Rules::profile(Game::Escoba, 2).unwrap();
        assert_eq!(
            rules.opening(set(&["AC", "2D", "4H", "JS"])).dealer_sweeps,
            1
        );
        assert_eq!(
            rules.opening(set(&["KC", "KD", "QH", "AS"])).dealer_sweeps,
            2
        );
        assert_eq!(
            rules.opening(set(&["KC", "3D", "2H", "5S"])).dealer_sweeps,
            0
        );
        let mut o = Options::new(Game::Escoba, 2);
        o.set("initial_30_requires_partition", &OptionValue::Bool(true))
            .unwrap();
        let rules = Rules::new(o).unwrap();
        assert_eq!(
            rules.opening(set(&["KC", "KD", "QH", "AS"])).dealer_sweeps,
            0
        );
        assert_eq!(
            rules.opening(set(&["KC", "5D", "QH", "6S"])).dealer_sweeps,
            2
        );
    }

    #[test]
    fn redeal_conditions() {
        let scopa = Rules::profile(Game::Scopa, 2).unwrap();
        assert!(scopa.opening(set(&["KC", "KD", "KH", "5S"])).redeal);
        assert!(!scopa.opening(set(&["KC", "KD", "5H", "5S"])).redeal);
        assert!(!scopa.opening(set(&["5C", "5D", "5H", "2S"])).redeal);
        let chk = Rules::profile(Game::Chkobba, 2).unwrap();
        assert!(chk.opening(set(&["5C", "5D", "5H", "2S"])).redeal);
        assert!(!chk.opening(set(&["KC", "KD", "3H", "3S"])).redeal);
    }
}
