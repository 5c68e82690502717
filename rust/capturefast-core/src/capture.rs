//! Capture enumeration (S7, K9, E7) and the opening-table rules (S5, K6, E5).
//!
//! A capture is a set of specific table cards, so two equal cards give two options. Options come
//! back sorted by mask, each exactly once.

use crate::card::{Card, NUM_CARDS, Rank, Suit};
use crate::cardset::CardSet;
use crate::variant::{CaptureMode, OpeningSweeps, Rules};

/// What the opening table means (S5, K6, E5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The hand is void and the same dealer deals again.
    pub redeal: bool,
    /// Escoba: the dealer takes the table and scores this many sweeps (1 for 15, 2 for 30).
    pub dealer_sweeps: u8,
}

/// A table indexed for subset sums, built once and reused for every card played onto it.
///
/// `below[id]`, for each table card, has bit `s` set when some table cards of lower ids total
/// `s` (for `s` below 16, which covers every capture target). The search decides the table's
/// cards from the highest id down, so the cards left to decide are always those below the
/// current one, and it enters only branches that lead to a capture: its work is proportional to
/// what it emits. It decides each card "without" before "with", so sets come out in increasing
/// mask order.
#[derive(Clone, Copy, Debug)]
pub struct TableIndex<'r> {
    rules: &'r Rules,
    table: CardSet,
    below: [u16; NUM_CARDS],
    sums: u16,
}

impl<'r> TableIndex<'r> {
    /// Indexes `table` by the capture values of `rules`: one pass over its cards, lowest first.
    #[inline]
    pub fn new(rules: &'r Rules, table: CardSet) -> TableIndex<'r> {
        let mut ix = TableIndex {
            rules,
            table,
            below: [0; NUM_CARDS],
            sums: 1,
        };
        // The reach lives in a register: kept in `ix` it went through memory on every card.
        let mut sums = 1u16;
        for card in table {
            ix.below[card.index()] = sums;
            sums |= sums << rules.value(card);
        }
        ix.sums = sums;
        ix
    }

    /// The indexed table.
    pub fn table(&self) -> CardSet {
        self.table
    }

    /// Calls `emit` with every subset of the table whose capture values sum to `target`, each
    /// once, in increasing mask order.
    #[inline]
    pub fn for_each_sum(&self, target: u8, emit: &mut impl FnMut(CardSet)) {
        if target > 0 && target < 16 && bit(self.sums, target) {
            self.search(self.table.0, target, 0, emit);
        }
    }

    /// Every set of the cards `rest` totalling `remaining` (some set does; `remaining` is in
    /// 1..16), each joined to `acc`: first those without the highest card of `rest` that could
    /// take part, then those with it. `rest` holds the table cards below the ones decided.
    fn search(&self, rest: u64, remaining: u8, acc: u64, emit: &mut impl FnMut(CardSet)) {
        let (mut rest, mut remaining, mut acc) = (rest, remaining, acc);
        loop {
            // Cards worth more than what remains cannot take part; some card can.
            rest &= self.rules.up_to_value(remaining);
            let id = 63 - rest.leading_zeros() as usize;
            rest &= !(1 << id);
            let after = self.below[id];
            if bit(after, remaining) {
                self.search(rest, remaining, acc, emit);
            }
            let v = self.rules.values()[id];
            acc |= 1 << id;
            if v == remaining {
                emit(CardSet(acc));
                return;
            }
            remaining -= v;
            if !bit(after, remaining) {
                return;
            }
        }
    }
}

/// Bit `sum` (below 16) of a reach mask.
#[inline]
fn bit(reach: u16, sum: u8) -> bool {
    reach >> (sum & 15) & 1 == 1
}

/// V-S13 on a list being built: keeps, in order, the items of `v[start..]` that capture the
/// fewest cards (`cards` counts them).
pub(crate) fn keep_fewest<T: Copy>(v: &mut Vec<T>, start: usize, cards: impl Fn(T) -> u32) {
    if v.len() < start + 2 {
        return; // Nothing to choose between (the common case).
    }
    let Some(min) = v[start..].iter().map(|&x| cards(x)).min() else {
        return;
    };
    let mut w = start;
    for r in start..v.len() {
        if cards(v[r]) == min {
            v[w] = v[r];
            w += 1;
        }
    }
    v.truncate(w);
}

impl Rules {
    /// Every legal capture of `card` played onto `table`, sorted by mask; empty: the card trails.
    ///
    /// Captures only, under every capture option (docs/variants.md "Capturing", steps 1-3). With
    /// `compulsory_capture = false` the card may also trail when this list is not empty: the trail
    /// is a legal move (`State::legal_moves` lists it) but not a capture, so it is not listed here.
    pub fn capture_options(&self, table: CardSet, card: Card, out: &mut Vec<CardSet>) {
        out.clear();
        self.for_each_capture(&TableIndex::new(self, table), card, &mut |s| out.push(s));
        if self.capture_mode() == CaptureMode::MatchOrFifteen {
            out.sort_unstable();
        }
    }

    /// Calls `emit` with every legal capture of `card` onto the indexed table: the captures of
    /// [`Rules::capture_options`], in increasing mask order but under `match_or_fifteen`, which
    /// emits two such lists (the matches, then the fifteens).
    #[inline]
    pub fn for_each_capture(&self, table: &TableIndex, card: Card, emit: &mut impl FnMut(CardSet)) {
        if self.special_captures() {
            self.for_each_special_capture(table, card, emit);
        } else {
            self.for_each_mode_capture(table, card, emit);
        }
    }

    /// Step 1 of docs/variants.md "Capturing": whether `card` played onto `table` takes the
    /// whole table as an ace (`ace_takes_all`), which is then its only capture.
    #[inline]
    pub fn ace_takes_all(&self, table: CardSet, card: Card) -> bool {
        let o = self.options();
        o.ace_takes_all
            && card.rank() == Rank::ACE
            && !table.is_empty()
            // With an ace on the table and `ace_takes_ace_only`, it captures as an ordinary card.
            && (!o.ace_takes_ace_only || (table & CardSet::rank(Rank::ACE.index())).is_empty())
    }

    /// Steps 1-3 with `ace_takes_all` or `fewest_cards` on.
    fn for_each_special_capture(
        &self,
        table: &TableIndex,
        card: Card,
        emit: &mut impl FnMut(CardSet),
    ) {
        if self.ace_takes_all(table.table(), card) {
            emit(table.table());
        } else if self.options().fewest_cards {
            // V-S13: only the options with the fewest cards remain. Two passes here; the
            // move generator filters its own list in one (`keep_fewest`).
            let mut fewest = u32::MAX;
            self.for_each_mode_capture(table, card, &mut |s| fewest = fewest.min(s.len()));
            if fewest != u32::MAX {
                self.for_each_mode_capture(table, card, &mut |s| {
                    if s.len() == fewest {
                        emit(s);
                    }
                });
            }
        } else {
            self.for_each_mode_capture(table, card, emit);
        }
    }

    /// S7 / K9: the equal-value cards `equal_value` of the table one at a time if there is any
    /// (K9a: sums are then forbidden), otherwise every set of two or more cards summing to `v`.
    #[inline]
    fn for_each_match(
        table: &TableIndex,
        equal_value: CardSet,
        v: u8,
        emit: &mut impl FnMut(CardSet),
    ) {
        let equal = table.table() & equal_value;
        if equal.is_empty() {
            // K9(b): no single card has value v here, so every set has two or more cards.
            table.for_each_sum(v, emit);
        } else {
            for c in equal {
                emit(CardSet::single(c));
            }
        }
    }

    /// Step 2: the captures of the `capture` mode alone: every capture when
    /// [`Rules::special_captures`] is off (the fast path of `State::legal_moves`).
    #[inline]
    pub(crate) fn for_each_mode_capture(
        &self,
        table: &TableIndex,
        card: Card,
        emit: &mut impl FnMut(CardSet),
    ) {
        let v = self.value(card);
        match self.capture_mode() {
            CaptureMode::EqualThenSum => {
                Self::for_each_match(table, self.cards_of_value(v), v, emit);
            }
            // E7: played card plus table cards totalling 15; values are at most 10, so the set
            // is never empty.
            CaptureMode::Fifteen => table.for_each_sum(15 - v, emit),
            // Both lists; no set is in both (a sum of v and of 15 - v cannot be one set).
            CaptureMode::MatchOrFifteen => {
                Self::for_each_match(table, self.cards_of_value(v), v, emit);
                table.for_each_sum(15 - v, emit);
            }
        }
    }

    /// The opening-table rule for the four face-up cards of a deal.
    pub fn opening(&self, table: CardSet) -> Opening {
        let mut dealer_sweeps = 0;
        let sweeps = self.options().opening_sweeps;
        if sweeps != OpeningSweeps::Off {
            // E5: the sum of all four decides; E-A1 / V-E4 for an unsplittable 30.
            match self.total(table) {
                15 => dealer_sweeps = 1,
                30 if sweeps == OpeningSweeps::Sum || self.splits_in_two_15s(table) => {
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

    /// Cirulla declaration points for a player's 3 newly dealt cards (V-S12): the better of
    /// `declaration_triple` for three of a rank and `declaration_low` for capture values totalling
    /// less than 10; with `declaration_wild` the 7 of hearts stands for any card (it completes
    /// any pair and counts 1). 0 when `declarations` is off.
    pub fn declaration(&self, hand: CardSet) -> u8 {
        let o = self.options();
        if !o.declarations || hand.len() != 3 {
            return 0;
        }
        let wild = CardSet::single(Card::of(Rank::SEVEN, Suit::Hearts));
        let wild_in = o.declaration_wild && hand.is_superset(wild);
        let rest = if wild_in { hand - wild } else { hand };
        // All of one rank (the wild card makes any rank): the rest lies in its first card's rank.
        let triple = rest
            .first()
            .is_none_or(|c| CardSet::rank(c.rank().index()).is_superset(rest));
        let total = self.total(rest) + u32::from(wild_in);
        let mut points = 0;
        if triple {
            points = o.declaration_triple;
        }
        if total < 10 {
            points = points.max(o.declaration_low);
        }
        points
    }

    /// Whether `set` (totalling 30) splits into two groups of 15.
    fn splits_in_two_15s(&self, set: CardSet) -> bool {
        let Some(first) = set.first() else {
            return false;
        };
        // A group of 15 holding the first card; its complement then totals 15 as well.
        let rest = TableIndex::new(self, set - CardSet::single(first));
        let mut found = false;
        rest.for_each_sum(15u8.saturating_sub(self.value(first)), &mut |_| {
            found = true;
        });
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

    /// Every subset of the table, tried one by one: the plain definition of S7 / K9 / E7.
    fn brute_force(rules: &Rules, table: CardSet, card: Card) -> Vec<CardSet> {
        let cards: Vec<Card> = table.iter().collect();
        let v = u32::from(rules.value(card));
        let mut out = Vec::new();
        for bits in 1u32..(1 << cards.len()) {
            let sub: CardSet = cards
                .iter()
                .enumerate()
                .filter(|(i, _)| bits >> i & 1 == 1)
                .map(|(_, &c)| c)
                .collect();
            let sum = rules.total(sub);
            let has_equal = table.iter().any(|c| u32::from(rules.value(c)) == v);
            let matches = if has_equal {
                sub.len() == 1 && sum == v
            } else {
                sum == v
            };
            let ok = match rules.capture_mode() {
                CaptureMode::Fifteen => sum + v == 15,
                CaptureMode::EqualThenSum => matches,
                CaptureMode::MatchOrFifteen => matches || sum + v == 15,
            };
            if ok {
                out.push(sub);
            }
        }
        out.sort_unstable();
        out
    }

    #[test]
    fn enumeration_equals_brute_force_on_random_tables() {
        let mut rng = crate::Rng::new(99);
        let mut out = Vec::new();
        for game in [Game::Scopa, Game::Escoba, Game::Chkobba] {
            let rules = Rules::profile(game, 2).unwrap();
            for _ in 0..3000 {
                let deck = rng.shuffled_deck();
                let n = rng.below(13) as usize;
                let table: CardSet = deck[..n].iter().copied().collect();
                let card = deck[n];
                rules.capture_options(table, card, &mut out);
                assert_eq!(
                    out,
                    brute_force(&rules, table, card),
                    "{game:?} {table} {card}"
                );
            }
        }
    }

    /// Every capture mode on random tables of up to 17 cards, and V-S13 on top of it, equal the
    /// brute force; some tables have dozens of options, so ties among the fewest are common.
    #[test]
    fn fewest_cards_equals_brute_force_minimum() {
        let mut rng = crate::Rng::new(7);
        let mut out = Vec::new();
        let mut many = 0;
        for capture in ["match", "fifteen", "match_or_fifteen"] {
            let mut o = Options::new(Game::Scopa, 2);
            o.set("capture", &OptionValue::Str(capture.into())).unwrap();
            let all = Rules::new(o.clone()).unwrap();
            o.set("fewest_cards", &OptionValue::Bool(true)).unwrap();
            let rules = Rules::new(o).unwrap();
            for _ in 0..2000 {
                let deck = rng.shuffled_deck();
                let n = rng.below(18) as usize;
                let table: CardSet = deck[..n].iter().copied().collect();
                let card = deck[n];
                let every = brute_force(&all, table, card);
                all.capture_options(table, card, &mut out);
                assert_eq!(out, every, "{capture} {table} {card}");
                many += usize::from(every.len() > 32);
                let min = every.iter().map(|s| s.len()).min();
                let want: Vec<CardSet> =
                    every.into_iter().filter(|s| Some(s.len()) == min).collect();
                rules.capture_options(table, card, &mut out);
                assert_eq!(out, want, "{capture} {table} {card}");
            }
        }
        assert!(many > 0, "no table had more than 32 options");
    }
}
