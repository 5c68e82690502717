//! Capture enumeration (S7, K9, E7) and the opening-table rules (S5, K6, E5).
//!
//! A capture is a set of specific table cards, so two equal cards give two options. Options come
//! back sorted by mask, each exactly once.

use crate::game::card::{Card, NUM_CARDS, Rank, Suit};
use crate::game::cardset::CardSet;
use crate::game::rules::{CaptureMode, OpeningSweeps, Rules};

/// What the opening table means (S5, K6, E5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The hand is void and the same dealer deals again.
    pub redeal: bool,
    /// Escoba: the dealer takes the table and scores this many sweeps (1 for 15, 2 for 30).
    pub dealer_sweeps: u8,
}

/// Table cards whose subsets the search settles in one step: the lowest few, whose subset
/// totals sit one byte each in `u64` words and are compared with a target all at once.
const LOW: usize = 4;
/// Words of subset totals: 8 subsets to a word.
const WORDS: usize = 1 << (LOW - 3);

/// Byte `j` of `LANES[w][i]` is 1 when subset `8w + j` of the low cards holds low card `i`.
const LANES: [[u64; LOW]; WORDS] = {
    let mut m = [[0u64; LOW]; WORDS];
    let mut w = 0;
    while w < WORDS {
        let mut i = 0;
        while i < LOW {
            let mut j = 0;
            while j < 8 {
                if (8 * w + j) >> i & 1 == 1 {
                    m[w][i] |= 1 << (8 * j);
                }
                j += 1;
            }
            i += 1;
        }
        w += 1;
    }
    m
};
/// What a missing low card counts (on a table of fewer than [`LOW`] cards): more than any
/// target (below 16), so no subset holding it matches, and small enough that no total passes a
/// byte (capture values are below 16 too).
const MISSING: u64 = 32;
const _: () = assert!(LOW as u64 * MISSING < 256 && WORDS * 8 <= 32);

/// `0x80` in each zero byte of `x`, 0 elsewhere (exact: no carry crosses a byte).
#[inline]
fn zero_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    !(((x & LOW7) + LOW7) | x) & !LOW7
}

/// The top bits of the 8 bytes of `z` (each `0x80` or 0) as 8 bits, byte `j` to bit `j`.
#[inline]
fn byte_flags(z: u64) -> u32 {
    ((z >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// A table indexed for subset sums, built once and reused for every card played onto it.
///
/// `below[id]`, for each table card above the lowest four, has bit `s` set when some table
/// cards of lower ids total `s` (for `s` below 16, which covers every capture target). The search
/// decides those cards from the highest id down, so the cards left to decide are always those
/// below the current one, and it enters only branches that lead to a capture: its work is
/// proportional to what it emits. It decides each card "without" before "with", so sets come out
/// in increasing mask order.
///
/// The lowest four cards (`LOW`) are not searched card by card: `low_sums` holds the total of
/// each of their 16 subsets, and once only they are left the search compares all 16 totals with
/// what remains at once, without a branch. A table of up to four cards, most tables in play,
/// takes no search at all. This costs more instructions than searching those cards (about +9% a
/// random hand) but fewer mispredicted branches: random hands ran 5-12% (Scopa) and 22%
/// (Escoba) faster (old and new builds alternated).
#[derive(Clone, Copy, Debug)]
pub struct TableIndex<'r> {
    rules: &'r Rules,
    table: CardSet,
    below: [u16; NUM_CARDS],
    sums: u16,
    /// The lowest [`LOW`] cards of the table (all of them on a smaller table).
    low: u64,
    /// Byte `j` of word `w`: the capture value total of subset `8w + j` of the low cards (bit
    /// `i` of the subset: the `i`-th lowest; [`MISSING`] for a card the table lacks).
    low_sums: [u64; WORDS],
}

impl<'r> TableIndex<'r> {
    /// Indexes `table` by the capture values of `rules`: one pass over its cards, lowest first.
    #[allow(
        clippy::inline_always,
        reason = "left to itself the compiler outlined it and returned the index by memcpy: +7% \
                  instructions a random hand (callgrind)"
    )]
    #[inline(always)]
    pub fn new(rules: &'r Rules, table: CardSet) -> TableIndex<'r> {
        let mut below = [0; NUM_CARDS];
        // The reach and the totals live in registers until the end.
        let mut sums = 1u16;
        // Start with every low card missing; each card present replaces MISSING by its value.
        // The sums wrap, but each byte of the result is in 0..256, so the words are exact.
        let mut words = [0u64; WORDS];
        for (word, lanes) in words.iter_mut().zip(&LANES) {
            *word = MISSING * lanes.iter().sum::<u64>();
        }
        let mut rest = table.0;
        for i in 0..LOW {
            if rest == 0 {
                break;
            }
            let v = rules.values()[rest.trailing_zeros() as usize];
            sums |= sums << v;
            let delta = u64::from(v).wrapping_sub(MISSING);
            for (word, lanes) in words.iter_mut().zip(&LANES) {
                *word = word.wrapping_add(delta.wrapping_mul(lanes[i]));
            }
            rest &= rest - 1;
        }
        let low = table.0 & !rest;
        for card in CardSet(rest) {
            below[card.index()] = sums;
            sums |= sums << rules.value(card);
        }
        TableIndex {
            rules,
            table,
            below,
            sums,
            low,
            low_sums: words,
        }
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
            if rest & !self.low == 0 {
                self.low_sets(remaining, acc, emit);
                return;
            }
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

    /// The search's last step, once only low cards are left: every subset of them totalling
    /// `target`, joined to `acc`. Subset `j` holds the `i`-th lowest card when bit `i` of `j` is
    /// set, so increasing `j` is increasing mask order.
    #[inline]
    fn low_sets(&self, target: u8, acc: u64, emit: &mut impl FnMut(CardSet)) {
        let t = u64::from(target) * 0x0101_0101_0101_0101;
        let mut found = 0u32;
        for (w, &word) in self.low_sums.iter().enumerate() {
            found |= byte_flags(zero_bytes(word ^ t)) << (8 * w);
        }
        while found != 0 {
            let j = found.trailing_zeros();
            let (mut set, mut rest) = (acc, self.low);
            for i in 0..LOW {
                let card = rest & rest.wrapping_neg();
                set |= card & 0u64.wrapping_sub(u64::from(j >> i & 1));
                rest ^= card;
            }
            emit(CardSet(set));
            found &= found - 1;
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

    /// Item `s`: how many subsets of `table` total `s` in capture values, without listing
    /// them. `None` on a table of more than 10 cards.
    ///
    /// The counts are the bytes of a `u128`; each card adds them shifted by its value. They are
    /// exact: subsets of one total, values being positive, include none of each other, so on
    /// `n` cards there are at most C(n, n/2) of them (Sperner), 252 for 10 cards; totals of 16
    /// and more fall off the top.
    #[inline]
    pub fn subset_counts(&self, table: CardSet) -> Option<[u8; 16]> {
        if table.len() > 10 {
            return None;
        }
        let mut sums = 1u128;
        for card in table {
            sums += sums << (8 * u32::from(self.value(card)));
        }
        // As bytes, a card's count is one load (a shift of the `u128` took eight instructions).
        Some(sums.to_le_bytes())
    }

    /// The number of legal captures of `card` onto `table` (the length of
    /// [`Rules::capture_options`]) from the table's [`Rules::subset_counts`], without a branch.
    /// Not under `fewest_cards`. `GENERAL`: `ace_takes_all` or `match_or_fifteen` may be on
    /// ([`Rules::general_captures`]), and `ace_takes_table` says whether an ace takes this
    /// table; without it the default games' loop tests neither. `FIFTEEN` (without `GENERAL`):
    /// the capture mode is `fifteen`, decided once for the loop.
    #[inline]
    pub(crate) fn capture_count<const GENERAL: bool, const FIFTEEN: bool>(
        &self,
        table: CardSet,
        sums: &[u8; 16],
        ace_takes_table: bool,
        card: Card,
    ) -> u32 {
        debug_assert!(!self.options().fewest_cards);
        debug_assert!(GENERAL || !self.general_captures());
        debug_assert!(GENERAL || FIFTEEN == (self.capture_mode() == CaptureMode::Fifteen));
        let v = self.value(card);
        let lane = |s: u8| u32::from(sums[usize::from(s & 15)]);
        if !GENERAL && FIFTEEN {
            // E7: the table cards totalling 15 with the played card.
            return lane(15 - v);
        }
        // S7 / K9: the equal cards one by one if any, else the sums (of two or more cards),
        // selected without a branch: which way it goes is random in random play.
        let equal = (table & self.cards_of_value(v)).len();
        let matches = equal | (lane(v) & 0u32.wrapping_sub(u32::from(equal == 0)));
        if !GENERAL {
            return matches;
        }
        let count = match self.capture_mode() {
            CaptureMode::EqualThenSum => matches,
            CaptureMode::Fifteen => lane(15 - v),
            CaptureMode::MatchOrFifteen => matches + lane(15 - v),
        };
        // Step 1: an ace taking the table has that one capture.
        let ace = ace_takes_table & (card.rank() == Rank::ACE);
        count ^ ((count ^ 1) & 0u32.wrapping_sub(u32::from(ace)))
    }

    /// Whether `ace_takes_all` or `match_or_fifteen` is on: the options under which
    /// `capture_count` must be `GENERAL`.
    #[inline]
    pub(crate) fn general_captures(&self) -> bool {
        self.options().ace_takes_all || self.capture_mode() == CaptureMode::MatchOrFifteen
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

    /// Whether `card` played onto `table` has a capture ([`Rules::capture_options`] is not
    /// empty), from the totals the table reaches, without indexing or searching it. A single
    /// equal card is a subset of its value, so S7's two cases are one test.
    pub fn can_capture(&self, table: CardSet, card: Card) -> bool {
        if self.special_captures() && self.ace_takes_all(table, card) {
            return true;
        }
        let mut reach = 1u16;
        for c in table {
            reach |= reach << self.value(c);
        }
        let v = self.value(card);
        match self.capture_mode() {
            CaptureMode::EqualThenSum => bit(reach, v),
            CaptureMode::Fifteen => bit(reach, 15 - v),
            CaptureMode::MatchOrFifteen => bit(reach, v) || bit(reach, 15 - v),
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
    #[allow(
        clippy::inline_always,
        reason = "outlined, it cost `capture_options` a call and 25 instructions a query (a \
                  quarter of an empty table's query); random play does not change"
    )]
    #[inline(always)]
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

    /// The opening-table rule for the four face-up cards of a deal. A redeal takes the cards
    /// back (S5), so a table that must be redealt scores no dealer sweep, whatever it totals.
    pub fn opening(&self, table: CardSet) -> Opening {
        let mut dealer_sweeps = 0;
        let sweeps = self.options().opening_sweeps;
        let redeal = self.must_redeal(table);
        if sweeps != OpeningSweeps::Off && !redeal {
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
            redeal,
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
    use crate::game::rules::{Game, OptionValue, Options};

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
        // A table that is redealt scores no dealer sweep: Cirulla's two aces totalling 15.
        let mut o = Options::new(Game::Scopa, 2);
        o.set("redeal", &OptionValue::Str("two_aces".into()))
            .unwrap();
        o.set("opening_sweeps", &OptionValue::Str("sum".into()))
            .unwrap();
        let cirulla = Rules::new(o).unwrap();
        let two_aces = cirulla.opening(set(&["AC", "AD", "6H", "7S"]));
        assert_eq!((two_aces.redeal, two_aces.dealer_sweeps), (true, 0));
        assert_eq!(
            cirulla
                .opening(set(&["AC", "2D", "5H", "7S"]))
                .dealer_sweeps,
            1
        );
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
                assert_eq!(rules.can_capture(table, card), !out.is_empty());
                // `capture_count` counts them without the list (tables of up to 10 cards).
                if let Some(sums) = rules.subset_counts(table) {
                    let count = if rules.capture_mode() == CaptureMode::Fifteen {
                        rules.capture_count::<false, true>(table, &sums, false, card)
                    } else {
                        rules.capture_count::<false, false>(table, &sums, false, card)
                    };
                    assert_eq!(count as usize, out.len(), "{game:?} {table} {card}");
                }
            }
        }
    }

    /// The byte compare of the low cards' totals, against a plain loop, on words dense in
    /// zero bytes and in bytes with the top bit set.
    #[test]
    fn zero_byte_flags_equal_a_byte_loop() {
        let mut rng = crate::Rng::new(3);
        for _ in 0..20_000 {
            let mut x = 0u64;
            for j in 0..8 {
                let byte = match rng.below(4) {
                    0 => 0,
                    1 => 0x80,
                    2 => 1 + rng.below(255),
                    _ => rng.below(16),
                };
                x |= byte << (8 * j);
            }
            let want = (0..8)
                .filter(|j| (x >> (8 * j)) as u8 == 0)
                .fold(0u32, |m, j| m | 1 << j);
            assert_eq!(byte_flags(zero_bytes(x)), want, "{x:#018x}");
        }
    }

    /// `for_each_sum` for every target on random tables of 0-14 cards: exactly the subsets
    /// with that total, each once, in increasing mask order. Tables of up to four cards take the
    /// byte compare alone; larger ones, the search and then the compare.
    #[test]
    fn subset_sums_equal_brute_force_for_every_target() {
        let mut rng = crate::Rng::new(11);
        for game in [Game::Scopa, Game::Chkobba] {
            let rules = Rules::profile(game, 2).unwrap();
            for _ in 0..1000 {
                let deck = rng.shuffled_deck();
                let n = rng.below(15) as usize;
                let table: CardSet = deck[..n].iter().copied().collect();
                let cards: Vec<Card> = table.iter().collect();
                // Every non-empty subset by its total; subsets come in increasing mask order
                // because `cards` is in id order and `bits` counts up.
                let mut want: Vec<Vec<CardSet>> = vec![Vec::new(); 17];
                for bits in 1u32..1 << n {
                    let s: CardSet = (0..n)
                        .filter(|i| bits >> i & 1 == 1)
                        .map(|i| cards[i])
                        .collect();
                    let total = rules.total(s) as usize;
                    if total < 16 {
                        want[total].push(s);
                    }
                }
                let index = TableIndex::new(&rules, table);
                let counts = rules.subset_counts(table);
                assert_eq!(counts.is_some(), n <= 10, "{table}");
                for target in 0..=16u8 {
                    let mut got = Vec::new();
                    index.for_each_sum(target, &mut |s| got.push(s));
                    assert_eq!(got, want[usize::from(target)], "{game:?} {table} {target}");
                    if let (Some(c), 1..16) = (counts, target) {
                        let count = c[usize::from(target)];
                        assert_eq!(usize::from(count), got.len(), "{table} {target}");
                    }
                }
            }
        }
    }

    /// `subset_counts` stays exact where counts are largest: the ten lowest cards (four aces,
    /// four 2s, two 3s) have 252 subsets of one total at most (Sperner), under a byte.
    #[test]
    fn subset_counts_are_exact_on_the_most_crowded_table() {
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        let table = set(&["AC", "AD", "AH", "AS", "2C", "2D", "2H", "2S", "3C", "3D"]);
        let counts = rules.subset_counts(table).unwrap();
        let cards: Vec<Card> = table.iter().collect();
        for target in 1..16u8 {
            let want = (1u32..1 << 10)
                .filter(|bits| {
                    let s: CardSet = (0..10)
                        .filter(|i| bits >> i & 1 == 1)
                        .map(|i| cards[i])
                        .collect();
                    rules.total(s) == u32::from(target)
                })
                .count();
            assert_eq!(usize::from(counts[usize::from(target)]), want, "{target}");
        }
        assert!(rules.subset_counts(table | set(&["3H"])).is_none());
    }

    /// Every capture mode on random tables of up to 17 cards, and V-S13 on top of it, equal the
    /// brute force; some tables have dozens of options, so ties among the fewest are common.
    /// `can_capture` and `capture_count` agree with the lists, with and without an ace taking
    /// the table.
    #[test]
    fn capture_modes_and_fewest_cards_equal_brute_force() {
        let mut rng = crate::Rng::new(7);
        let mut out = Vec::new();
        let mut many = 0;
        let an_ace = Card::of(Rank::ACE, Suit::Clubs);
        for capture in ["match", "fifteen", "match_or_fifteen"] {
            let mut o = Options::new(Game::Scopa, 2);
            o.set("capture", &OptionValue::Str(capture.into())).unwrap();
            let all = Rules::new(o.clone()).unwrap();
            let mut with_ace = o.clone();
            with_ace
                .set("ace_takes_all", &OptionValue::Bool(true))
                .unwrap();
            let ace = Rules::new(with_ace).unwrap();
            o.set("fewest_cards", &OptionValue::Bool(true)).unwrap();
            let rules = Rules::new(o.clone()).unwrap();
            o.set("ace_takes_all", &OptionValue::Bool(true)).unwrap();
            let fewest_ace = Rules::new(o).unwrap();
            for _ in 0..2000 {
                let deck = rng.shuffled_deck();
                let n = rng.below(18) as usize;
                let table: CardSet = deck[..n].iter().copied().collect();
                let card = deck[n];
                let every = brute_force(&all, table, card);
                all.capture_options(table, card, &mut out);
                assert_eq!(out, every, "{capture} {table} {card}");
                many += usize::from(every.len() > 32);
                // Every mode, with and without an ace taking the table: `can_capture`, and
                // `capture_count` where the table has counts.
                for r in [&all, &ace, &fewest_ace] {
                    r.capture_options(table, card, &mut out);
                    assert_eq!(r.can_capture(table, card), !out.is_empty());
                    if let (Some(sums), false) = (r.subset_counts(table), r.options().fewest_cards)
                    {
                        let aces = r.ace_takes_all(table, an_ace);
                        let count = r.capture_count::<true, false>(table, &sums, aces, card);
                        assert_eq!(count as usize, out.len(), "{capture} {table} {card}");
                    }
                }
                let min = every.iter().map(|s| s.len()).min();
                let want: Vec<CardSet> =
                    every.into_iter().filter(|s| Some(s.len()) == min).collect();
                rules.capture_options(table, card, &mut out);
                assert_eq!(out, want, "{capture} {table} {card}");
                assert_eq!(rules.can_capture(table, card), !out.is_empty());
            }
        }
        assert!(many > 0, "no table had more than 32 options");
    }
}
