//! Scoring a hand (S11, E11, K14, §7 options) and the match end (S12, E12, K15).
//!
//! Four categories are worth one point each, and each sweep one point. A tie in a category
//! scores nothing. The fourth category is the primiera / setenta (best card per suit on the
//! 7=21 chart; figures per `primiera_figures`, decided per `primiera_mode`) or, in Chkobba, the
//! bermila (per `bermila`). Bonuses (docs/variants.md "Scoring") are reported apart, by name.

use crate::game::card::{Card, NUM_RANKS, NUM_SUITS, Rank, suit_bytes};
use crate::game::cardset::CardSet;
use crate::game::rules::{
    Bermila, MissingSuit, PrimeCategory, PrimieraFigures, PrimieraMode, Rules, Word,
};

/// Primiera / setenta points by rank index (`A 2 3 4 5 6 7 J Q K`), S-A1 / E11, flat figures.
pub const PRIMIERA_POINTS: [u16; 10] = [16, 12, 13, 14, 15, 18, 21, 10, 10, 10];
/// The same with `primiera_figures = graded` (J 8, Q 9, K 10; V-S2).
const PRIMIERA_POINTS_GRADED: [u16; 10] = [16, 12, 13, 14, 15, 18, 21, 8, 9, 10];
/// The same with `primiera_figures = zero` (V-S2).
const PRIMIERA_POINTS_ZERO: [u16; 10] = [16, 12, 13, 14, 15, 18, 21, 0, 0, 0];

/// Rank indices in decreasing primiera points: 7, 6, A, 5, 4, 3, 2, then the figures K, Q, J
/// (equal points under `flat` and `zero` go to the higher card, as the reference does; under
/// `graded` this is their order of points).
pub(crate) const PRIMIERA_ORDER: [usize; 10] = [6, 5, 0, 4, 3, 2, 1, 9, 8, 7];

/// Per suit, `weight[r]` of the rank `r` of the suit's best primiera card in `pile` (0 for a
/// suit missing from it), one byte per suit (suit `s` in bits `8s..8s + 8`; weights below 256).
/// The one walk of the primiera chart: the scoring reads the best cards' ranks from it, the
/// greedy bot their points and the solver their primiera codes.
///
/// Every rank is looked at in chart order, none skipped: a rank counts in the suits that no
/// earlier rank filled (stopping at the last suit found mispredicted). With `FIGURES_TIE` the
/// caller's weights are equal for J, Q and K, so the three are taken in one step (the solver's
/// and greedy's hot paths; the scoring must tell them apart under `primiera_figures = graded`).
#[inline]
pub(crate) fn suit_best<const FIGURES_TIE: bool>(pile: CardSet, weight: &[u32; NUM_RANKS]) -> u32 {
    let nib = |r: usize| (pile.0 >> (4 * r)) & 0xF;
    let ranks = if FIGURES_TIE {
        &PRIMIERA_ORDER[..7]
    } else {
        &PRIMIERA_ORDER[..]
    };
    let (mut found, mut out) = (0u64, 0u32);
    for &r in ranks {
        let first = nib(r) & !found;
        out |= suit_bytes(first) * weight[r];
        found |= first;
    }
    if FIGURES_TIE {
        debug_assert!(weight[7] == weight[8] && weight[8] == weight[9]);
        out |= suit_bytes((nib(7) | nib(8) | nib(9)) & !found) * weight[9];
    }
    out
}

/// Rank index + 1 by rank: [`suit_best`] with these weights gives each suit's best rank + 1.
const RANK_PLUS_ONE: [u32; NUM_RANKS] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/// K14: sevens, then sixes.
const SEVENS_THEN_SIXES: [usize; 2] = [6, 5];

/// Names of the bonuses, in the order of [`HandScore::bonuses`] (docs/variants.md "Scoring").
pub const BONUS_NAMES: [&str; 6] = [
    "re_bello",
    "napola",
    "grande",
    "all_coins",
    "all_sevens",
    "declarations",
];
/// Index of each bonus in [`BONUS_NAMES`].
pub const BONUS_RE_BELLO: usize = 0;
/// Index of `napola`.
pub const BONUS_NAPOLA: usize = 1;
/// Index of `grande`.
pub const BONUS_GRANDE: usize = 2;
/// Index of `all_coins`.
pub const BONUS_ALL_COINS: usize = 3;
/// Index of `all_sevens`.
pub const BONUS_ALL_SEVENS: usize = 4;
/// Index of `declarations`.
pub const BONUS_DECLARATIONS: usize = 5;

/// Coin cards by rank index.
const fn coin(rank: usize) -> u64 {
    1 << (rank * 4 + 1)
}
const KING_OF_COINS: u64 = coin(9);
const NAPOLA_BASE: u64 = coin(0) | coin(1) | coin(2);
const GRANDE_CARDS: u64 = coin(7) | coin(8) | coin(9);

/// What one side's pile holds, as the categories and bonuses count it.
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
    /// Cards captured per rank, `A 2 3 4 5 6 7 J Q K`.
    pub ranks: [u8; NUM_RANKS],
    /// Primiera / setenta total; `None` when a suit is missing and the rules make that invalid.
    /// In Chkobba it is the standard table (flat figures, a missing suit invalid), which the
    /// bermila reads only when `bermila = primiera`.
    pub primiera: Option<u16>,
    /// The best primiera card of each suit (`C D H S`), `None` for a suit the side lacks.
    pub primiera_cards: [Option<Card>; NUM_SUITS],
    /// Length of the run of coins from the ace in rank order `A 2 3 4 5 6 7 J Q K`.
    pub coin_run: u8,
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
    /// Points per bonus (in [`BONUS_NAMES`] order) per side; 0 for the bonuses these rules do
    /// not score ([`Rules::bonus_enabled`]).
    pub bonuses: [[u32; 2]; 6],
    /// Points per side: sweeps plus awards plus every bonus.
    pub points: [u32; 2],
}

impl HandScore {
    /// The hand's value for side `side`: its points minus the other side's. What every search
    /// maximises and every bot's result is measured in.
    pub fn margin(&self, side: usize) -> i32 {
        self.points[side] as i32 - self.points[1 - side] as i32
    }
}

fn majority(a: u16, b: u16) -> Option<u8> {
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

/// More cards of the first rank of `order` wins; tied: the next rank; all tied: nobody.
fn cascade(a: &[u8; NUM_RANKS], b: &[u8; NUM_RANKS], order: &[usize]) -> Option<u8> {
    order
        .iter()
        .find_map(|&r| majority(u16::from(a[r]), u16::from(b[r])))
}

/// S-A2 / E-A5: the higher primiera; valid beats invalid; a tie or both invalid: nobody.
fn primiera_award(a: Option<u16>, b: Option<u16>) -> Option<u8> {
    match (a, b) {
        (Some(x), Some(y)) => majority(x, y),
        (Some(_), None) => Some(0),
        (None, Some(_)) => Some(1),
        (None, None) => None,
    }
}

impl Rules {
    /// Primiera points per rank under `primiera_figures` (Chkobba: flat).
    pub fn primiera_points(&self) -> &'static [u16; NUM_RANKS] {
        match self.options().primiera_figures {
            PrimieraFigures::Flat => &PRIMIERA_POINTS,
            PrimieraFigures::Graded => &PRIMIERA_POINTS_GRADED,
            PrimieraFigures::Zero => &PRIMIERA_POINTS_ZERO,
        }
    }

    /// The best primiera card of each suit of `pile` (`C D H S`), and the primiera: those
    /// cards' points summed, a missing suit per `primiera_missing_suit`.
    pub fn primiera_detail(&self, pile: CardSet) -> ([Option<Card>; NUM_SUITS], Option<u16>) {
        let points = self.primiera_points();
        // Byte `suit` of `ranks`: the best card's rank + 1, 0 for none.
        let ranks = suit_best::<false>(pile, &RANK_PLUS_ONE);
        let (mut total, mut suits) = (0u16, 0);
        for suit in 0..NUM_SUITS {
            if let Some(rank) = ((ranks >> (8 * suit)) & 0xFF).checked_sub(1) {
                total += points[rank as usize];
                suits += 1;
            }
        }
        let best = std::array::from_fn(|suit| {
            let rank = ((ranks >> (8 * suit)) & 0xFF).checked_sub(1)?;
            Card::new((rank * 4 + suit as u32) as u8)
        });
        let valid = suits == NUM_SUITS || self.options().primiera_missing_suit == MissingSuit::Zero;
        (best, valid.then_some(total))
    }

    /// The primiera of `pile`: the best card of each suit summed; a missing suit per the rules.
    pub fn primiera(&self, pile: CardSet) -> Option<u16> {
        self.primiera_detail(pile).1
    }

    /// Counts of one side's pile.
    pub fn side_counts(&self, pile: CardSet) -> SideCounts {
        let mut ranks = [0u8; NUM_RANKS];
        for (r, n) in ranks.iter_mut().enumerate() {
            *n = (pile & CardSet::rank(r)).len() as u8;
        }
        let (primiera_cards, primiera) = self.primiera_detail(pile);
        // Coins in run order A 2 3 4 5 6 7 J Q K are the rank order: bit 4r + 1. The run is the
        // number of trailing coins present.
        let coins = pile.0 & CardSet::COINS.0;
        let mut run = 0;
        while run < NUM_RANKS && coins & coin(run) != 0 {
            run += 1;
        }
        SideCounts {
            cards: pile.len() as u8,
            coins: coins.count_ones() as u8,
            sevens: ranks[Rank::SEVEN.index()],
            sixes: ranks[Rank::SIX.index()],
            ranks,
            primiera,
            primiera_cards,
            coin_run: run as u8,
            seven_of_coins: pile.contains(Card::SEVEN_OF_COINS),
        }
    }

    /// Whether these rules score the bonus with index `i` of [`BONUS_NAMES`].
    pub fn bonus_enabled(&self, i: usize) -> bool {
        let o = self.options();
        match i {
            BONUS_RE_BELLO => o.re_bello,
            BONUS_NAPOLA => o.napola,
            BONUS_GRANDE => o.grande > 0,
            BONUS_ALL_COINS => o.all_coins_bonus > 0,
            BONUS_ALL_SEVENS => o.all_sevens_bonus > 0,
            BONUS_DECLARATIONS => o.declarations,
            _ => false,
        }
    }

    /// Whether these rules score any bonus but declarations.
    pub fn has_pile_bonuses(&self) -> bool {
        let o = self.options();
        o.re_bello || o.napola || o.grande > 0 || o.all_coins_bonus > 0 || o.all_sevens_bonus > 0
    }

    /// The ranks (indexes into `A 2 3 4 5 6 7 J Q K`) whose counts decide the fourth category,
    /// compared in order, when these rules decide it by a sevens cascade (`primiera_mode =
    /// most_sevens`, any `bermila` but `primiera`); `None` when it is decided by primiera totals.
    pub fn prime_cascade(&self) -> Option<&'static [usize]> {
        let o = self.options();
        match self.prime_category() {
            PrimeCategory::Primiera => (o.primiera_mode == PrimieraMode::MostSevens)
                .then(|| self.game_profile().sevens_cascade),
            PrimeCategory::Bermila => match o.bermila {
                Bermila::SevensThenSixes => Some(&SEVENS_THEN_SIXES),
                Bermila::Cascade => Some(self.game_profile().sevens_cascade),
                Bermila::Primiera => None,
            },
        }
    }

    /// The word of the option value that decides the fourth category under these rules: the
    /// `primiera_mode` (Scopa, Escoba) or the `bermila` (Chkobba).
    pub fn prime_mode(&self) -> &'static str {
        let o = self.options();
        match self.prime_category() {
            PrimeCategory::Primiera => o.primiera_mode.word(),
            PrimeCategory::Bermila => o.bermila.word(),
        }
    }

    /// The fourth category's award from each side's count per rank and primiera total
    /// ([`SideCounts::ranks`], [`SideCounts::primiera`]): side 0, side 1, or `None` for nobody.
    pub fn prime_award(
        &self,
        ranks: [[u8; NUM_RANKS]; 2],
        primiera: [Option<u16>; 2],
    ) -> Option<u8> {
        if let Some(order) = self.prime_cascade() {
            return cascade(&ranks[0], &ranks[1], order);
        }
        let sevens = Rank::SEVEN.index();
        if self.prime_category() == PrimeCategory::Primiera
            && self.options().primiera_mode == PrimieraMode::ThreeSevens
        {
            // A side holding 3 or 4 sevens wins outright (at most one side can).
            if let Some(side) = (0..2u8).find(|&s| ranks[usize::from(s)][sevens] >= 3) {
                return Some(side);
            }
        }
        primiera_award(primiera[0], primiera[1])
    }

    /// Pile bonuses of one side (every bonus but declarations).
    fn pile_bonuses(&self, pile: CardSet, c: &SideCounts, out: &mut [[u32; 2]; 6], side: usize) {
        let o = self.options();
        let p = pile.0;
        if o.re_bello && p & KING_OF_COINS != 0 {
            out[BONUS_RE_BELLO][side] = 1;
        }
        if o.napola && p & NAPOLA_BASE == NAPOLA_BASE {
            let run = u32::from(c.coin_run);
            out[BONUS_NAPOLA][side] = match o.napola_cap {
                0 => run,
                cap => run.min(u32::from(cap)),
            };
        }
        if p & GRANDE_CARDS == GRANDE_CARDS {
            out[BONUS_GRANDE][side] = u32::from(o.grande);
        }
        if c.coins == 10 {
            out[BONUS_ALL_COINS][side] = u32::from(o.all_coins_bonus);
        }
        if c.sevens == 4 {
            out[BONUS_ALL_SEVENS][side] = u32::from(o.all_sevens_bonus);
        }
    }

    /// Scores a hand from the two sides' piles, sweeps and declaration points (Cirulla). The
    /// piles should be disjoint; the binding layers check that before calling.
    pub fn score(&self, piles: [CardSet; 2], sweeps: [u8; 2], declared: [u8; 2]) -> HandScore {
        let counts = [self.side_counts(piles[0]), self.side_counts(piles[1])];
        let [a, b] = &counts;
        let seven = if a.seven_of_coins {
            Some(0)
        } else if b.seven_of_coins {
            Some(1)
        } else {
            None
        };
        let awards = [
            majority(u16::from(a.cards), u16::from(b.cards)),
            majority(u16::from(a.coins), u16::from(b.coins)),
            seven,
            self.prime_award([a.ranks, b.ranks], [a.primiera, b.primiera]),
        ];
        let mut bonuses = [[0u32; 2]; 6];
        if self.has_pile_bonuses() {
            self.pile_bonuses(piles[0], a, &mut bonuses, 0);
            self.pile_bonuses(piles[1], b, &mut bonuses, 1);
        }
        bonuses[BONUS_DECLARATIONS] = [u32::from(declared[0]), u32::from(declared[1])];
        let mut points = [u32::from(sweeps[0]), u32::from(sweeps[1])];
        for side in awards.into_iter().flatten() {
            points[usize::from(side)] += 1;
        }
        for bonus in &bonuses {
            points[0] += bonus[0];
            points[1] += bonus[1];
        }
        HandScore {
            counts,
            awards,
            sweeps,
            bonuses,
            points,
        }
    }

    /// The side that wins the match outright at the end of a hand with these piles, whatever the
    /// scores: the side holding all ten coins (Napoleone) when `napola` is on (V-S7 counts it
    /// part of the napola) or `all_coins_wins` (the same win without napola's points).
    pub fn all_coins_winner(&self, piles: [CardSet; 2]) -> Option<u8> {
        if !self.all_coins_win() {
            return None;
        }
        (0..2u8).find(|&s| piles[usize::from(s)].is_superset(CardSet::COINS))
    }

    /// Whether all ten coins in one hand win the match (Napoleone): under `napola` (V-S7 counts
    /// it part of the napola) or `all_coins_wins`.
    pub fn all_coins_win(&self) -> bool {
        let o = self.options();
        o.napola || o.all_coins_wins
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
    use crate::game::rules::{Game, OptionValue, Options};

    fn set(cards: &[&str]) -> CardSet {
        cards.iter().map(|s| s.parse::<Card>().unwrap()).collect()
    }

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    /// Rules of `game` (2 players) with the options given as (name, value) pairs.
    fn rules(game: Game, opts: &[(&str, OptionValue)]) -> Rules {
        let mut o = Options::new(game, 2);
        for (name, value) in opts {
            o.set(name, value).unwrap();
        }
        Rules::new(o).unwrap()
    }

    fn word(s: &str) -> OptionValue {
        OptionValue::Str(s.into())
    }

    fn scopa(opts: &[(&str, OptionValue)]) -> Rules {
        rules(Game::Scopa, opts)
    }

    /// The award of the fourth category with these two piles.
    fn prime(r: &Rules, a: &[&str], b: &[&str]) -> Option<u8> {
        r.score([set(a), set(b)], [0, 0], [0, 0]).awards[3]
    }

    #[test]
    fn seed_primiera_example_is_75() {
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        assert_eq!(rules.primiera(set(&["7H", "7D", "6C", "5S"])), Some(75));
        assert_eq!(rules.primiera(set(&["7H", "7D", "6C"])), None);
    }

    #[test]
    fn missing_suit_zero_variant() {
        let rules = scopa(&[("primiera_missing_suit", word("zero"))]);
        assert_eq!(rules.primiera(set(&["7H", "7D", "6C"])), Some(60));
    }

    #[test]
    fn missing_suit_decides_the_award() {
        // A: 7C 7D 7H, no spade. B: AS 16 + 2C 2D 2H 36 = 52.
        let (a, b) = (["7C", "7D", "7H"], ["AS", "2C", "2D", "2H"]);
        let invalid = scopa(&[("primiera_missing_suit", word("invalid"))]);
        assert_eq!(invalid.primiera(set(&a)), None);
        assert_eq!(prime(&invalid, &a, &b), Some(1));
        // zero: A = 63 > 52.
        let zero = scopa(&[("primiera_missing_suit", word("zero"))]);
        assert_eq!(zero.primiera(set(&a)), Some(63));
        assert_eq!(prime(&zero, &a, &b), Some(0));
        // Escoba's setenta reads the same option.
        let e = rules(Game::Escoba, &[("primiera_missing_suit", word("zero"))]);
        assert_eq!(prime(&e, &a, &b), Some(0));
    }

    #[test]
    fn primiera_figures_values() {
        // 7C 21, QD, JH, 2S 12.
        let pile = set(&["7C", "QD", "JH", "2S"]);
        let flat = scopa(&[("primiera_figures", word("flat"))]);
        let graded = scopa(&[("primiera_figures", word("graded"))]);
        let zero = scopa(&[("primiera_figures", word("zero"))]);
        assert_eq!(flat.primiera(pile), Some(21 + 10 + 10 + 12));
        assert_eq!(graded.primiera(pile), Some(21 + 9 + 8 + 12));
        assert_eq!(zero.primiera(pile), Some(21 + 12));
        // K is 10 in every table but zero.
        let kings = set(&["KC", "KD", "KH", "KS"]);
        assert_eq!(graded.primiera(kings), Some(40));
        assert_eq!(zero.primiera(kings), Some(0));
        // A figure is still a suit's best card when it is the only one: the primiera is valid.
        assert_eq!(zero.primiera(set(&["JC", "2D", "2H", "2S"])), Some(36));
        assert_eq!(graded.primiera(set(&["JC", "2D", "2H", "2S"])), Some(44));
    }

    #[test]
    fn primiera_figures_decide_the_award() {
        let flat = scopa(&[]);
        let graded = scopa(&[("primiera_figures", word("graded"))]);
        let zero = scopa(&[("primiera_figures", word("zero"))]);
        // A: 7C 21 + QD + JH + KS 10; B: 2C 2D 2H 12 + 4S 14 = 50.
        // flat 51 > 50; graded 21 + 9 + 8 + 10 = 48 < 50; zero 21 < 50.
        let (a, b) = (["7C", "QD", "JH", "KS"], ["2C", "2D", "2H", "4S"]);
        assert_eq!(prime(&flat, &a, &b), Some(0));
        assert_eq!(prime(&graded, &a, &b), Some(1));
        assert_eq!(prime(&zero, &a, &b), Some(1));
        // A: KC KD KH 10 each + 7S 21 = 51 (graded too: K is 10); zero 21. B: four twos 48.
        let (a, b) = (["KC", "KD", "KH", "7S"], ["2C", "2D", "2H", "2S"]);
        assert_eq!(prime(&flat, &a, &b), Some(0));
        assert_eq!(prime(&graded, &a, &b), Some(0));
        assert_eq!(prime(&zero, &a, &b), Some(1));
    }

    #[test]
    fn primiera_cards_are_the_best_per_suit() {
        let flat = scopa(&[]);
        let graded = scopa(&[("primiera_figures", word("graded"))]);
        let zero = scopa(&[("primiera_figures", word("zero"))]);
        let pile = set(&["JC", "QC", "5C", "AD", "7D", "JH", "QS", "KS"]);
        // Clubs 5C beats the figures; diamonds 7D; hearts JH alone; spades K over Q.
        let want = [
            Some(card("5C")),
            Some(card("7D")),
            Some(card("JH")),
            Some(card("KS")),
        ];
        assert_eq!(flat.side_counts(pile).primiera_cards, want);
        assert_eq!(graded.side_counts(pile).primiera_cards, want);
        assert_eq!(zero.side_counts(pile).primiera_cards, want);
        // Under graded, Q 9 beats J 8.
        let c = graded.side_counts(set(&["JS", "QS", "2D"]));
        assert_eq!(
            c.primiera_cards,
            [None, Some(card("2D")), None, Some(card("QS"))]
        );
        assert_eq!(c.primiera, None);
    }

    #[test]
    fn primiera_mode_table_most_sevens_three_sevens() {
        let table = scopa(&[("primiera_mode", word("table"))]);
        let most = scopa(&[("primiera_mode", word("most_sevens"))]);
        let three = scopa(&[("primiera_mode", word("three_sevens"))]);
        // A: three sevens + JS = 73; B: 6C 6D 6H 18 + 7S 21 = 75, one seven.
        let (a, b) = (["7C", "7D", "7H", "JS"], ["6C", "6D", "6H", "7S"]);
        assert_eq!(prime(&table, &a, &b), Some(1));
        assert_eq!(prime(&most, &a, &b), Some(0));
        assert_eq!(prime(&three, &a, &b), Some(0));
        // A: two sevens + JH JS = 62; B as above (75). Nobody has three sevens: the table.
        let (a, b) = (["7C", "7D", "JH", "JS"], ["6C", "6D", "6H", "7S"]);
        assert_eq!(prime(&table, &a, &b), Some(1));
        assert_eq!(prime(&most, &a, &b), Some(0));
        assert_eq!(prime(&three, &a, &b), Some(1));
        // Side 1 holding three sevens wins under three_sevens against a better table.
        let (a, b) = (["6C", "6D", "6H", "7S"], ["7C", "7D", "7H", "JS"]);
        assert_eq!(prime(&three, &a, &b), Some(1));
        assert_eq!(prime(&table, &a, &b), Some(0));
    }

    #[test]
    fn most_sevens_cascades_past_the_sixes() {
        let table = scopa(&[]);
        let most = scopa(&[("primiera_mode", word("most_sevens"))]);
        // Sevens 1-1, sixes 1-1, aces 2-0: A. Both primieras invalid: the table gives nobody.
        let (a, b) = (["7C", "6C", "AC", "AD"], ["7D", "6D", "5C", "5D", "5H"]);
        assert_eq!(prime(&most, &a, &b), Some(0));
        assert_eq!(prime(&table, &a, &b), None);
        // 7 6 A 5 4 3 tied, twos 1-0: A.
        assert_eq!(prime(&most, &["2C", "3C"], &["3D"]), Some(0));
        // Figures are not in the cascade: all tied, nobody.
        assert_eq!(prime(&most, &["KC", "QC"], &["2D"]), Some(1));
        assert_eq!(prime(&most, &["KC", "QC"], &["JD"]), None);
        // Escoba's Fournier sevens.
        let e = rules(Game::Escoba, &[("primiera_mode", word("most_sevens"))]);
        assert_eq!(prime(&e, &a, &b), Some(0));
        // They stop after the fives (V-E2): 7 6 A 5 tied and fours 1-0 is nobody's in Escoba,
        // A's in Scopa.
        let (fours, five) = (["4C", "5C"], ["5D"]);
        assert_eq!(prime(&e, &fours, &five), None);
        assert_eq!(prime(&most, &fours, &five), Some(0));
        // Fives 2-1 still decide.
        assert_eq!(prime(&e, &["5C", "5H"], &["5D"]), Some(0));
    }

    #[test]
    fn bermila_modes() {
        let ch = |m: &str| rules(Game::Chkobba, &[("bermila", word(m))]);
        let (sts, cascade, primiera) = (ch("sevens_then_sixes"), ch("cascade"), ch("primiera"));
        // Sevens 1-1, sixes 1-1, aces 2-0. A lacks H and S, B lacks S: both primieras invalid.
        let (a, b) = (["7C", "6C", "AC", "AD"], ["7D", "6D"]);
        assert_eq!(prime(&sts, &a, &b), None);
        assert_eq!(prime(&cascade, &a, &b), Some(0));
        assert_eq!(prime(&primiera, &a, &b), None);
        // A: one seven, primiera 21 + 12 + 12 + 12 = 57; B: four sixes, 72.
        let (a, b) = (["7C", "2D", "2H", "2S"], ["6C", "6D", "6H", "6S"]);
        assert_eq!(prime(&sts, &a, &b), Some(0));
        assert_eq!(prime(&cascade, &a, &b), Some(0));
        assert_eq!(prime(&primiera, &a, &b), Some(1));
        // The primiera bermila: a missing suit is invalid, valid beats invalid.
        let (a, b) = (["7C", "7D", "7H"], ["2C", "2D", "2H", "2S"]);
        assert_eq!(prime(&primiera, &a, &b), Some(1));
        assert_eq!(prime(&sts, &a, &b), Some(0));
    }

    #[test]
    fn counts_ranks_coin_run() {
        let r = scopa(&[]);
        let c = r.side_counts(set(&["AD", "2D", "3D", "4D", "6D", "7D", "AC", "KS", "KH"]));
        assert_eq!(c.ranks, [2, 1, 1, 1, 0, 1, 1, 0, 0, 2]);
        assert_eq!(c.coin_run, 4);
        assert_eq!((c.cards, c.coins, c.sevens, c.sixes), (9, 6, 1, 1));
        assert!(c.seven_of_coins);
        assert_eq!(r.side_counts(set(&["2D", "3D"])).coin_run, 0);
        assert_eq!(r.side_counts(CardSet::COINS).coin_run, 10);
        // Run order A 2 3 4 5 6 7 J Q K: the jack follows the seven.
        let run = set(&["AD", "2D", "3D", "4D", "5D", "6D", "7D", "JD", "KD"]);
        assert_eq!(r.side_counts(run).coin_run, 8);
    }

    #[test]
    fn default_rules_score_no_bonus() {
        let r = scopa(&[]);
        for (i, name) in BONUS_NAMES.iter().enumerate() {
            assert!(!r.bonus_enabled(i), "{name}");
        }
        // A holds every coin and every seven (13 cards): coins, settebello, primiera (84 valid
        // against B, which has no diamond: invalid); B has the cards (27).
        let a = CardSet::COINS | CardSet::rank(6);
        let s = r.score([a, !a], [0, 0], [0, 0]);
        assert_eq!(s.bonuses, [[0; 2]; 6]);
        assert_eq!(s.points, [3, 1]);
        assert_eq!(s.awards, [Some(1), Some(0), Some(0), Some(0)]);
    }

    #[test]
    fn re_bello() {
        let on = scopa(&[("re_bello", OptionValue::Bool(true))]);
        assert!(on.bonus_enabled(BONUS_RE_BELLO));
        // A: KD alone: cards, coins; no settebello; primieras both invalid. 2 + 1.
        let s = on.score([set(&["KD"]), CardSet::EMPTY], [0, 0], [0, 0]);
        assert_eq!(s.bonuses[BONUS_RE_BELLO], [1, 0]);
        assert_eq!(s.points, [3, 0]);
        let s = on.score([set(&["KC"]), set(&["KD"])], [0, 0], [0, 0]);
        assert_eq!(s.bonuses[BONUS_RE_BELLO], [0, 1]);
        assert_eq!(s.points, [0, 2]);
        let off = scopa(&[]);
        let s = off.score([set(&["KD"]), CardSet::EMPTY], [0, 0], [0, 0]);
        assert_eq!(s.points, [2, 0]);
    }

    #[test]
    fn napola_and_its_cap() {
        let on = scopa(&[("napola", OptionValue::Bool(true))]);
        assert!(on.bonus_enabled(BONUS_NAPOLA));
        // A-2-3-4 and 6-7: run 4. Cards, coins, settebello: 3; primieras invalid.
        let a = set(&["AD", "2D", "3D", "4D", "6D", "7D"]);
        let s = on.score([a, CardSet::EMPTY], [0, 0], [0, 0]);
        assert_eq!(s.bonuses[BONUS_NAPOLA], [4, 0]);
        assert_eq!(s.points, [7, 0]);
        // A-2 without the 3: nothing (the run is 2).
        let s = on.score([set(&["AD", "2D", "4D"]), CardSet::EMPTY], [0, 0], [0, 0]);
        assert_eq!(s.bonuses[BONUS_NAPOLA], [0, 0]);
        // Side 1, exactly A-2-3: 3.
        let s = on.score([set(&["KC"]), set(&["AD", "2D", "3D"])], [0, 0], [0, 0]);
        assert_eq!(s.bonuses[BONUS_NAPOLA], [0, 3]);
        // All ten: 10; capped at 5: 5.
        let s = on.score([CardSet::COINS, !CardSet::COINS], [0, 0], [0, 0]);
        assert_eq!(s.bonuses[BONUS_NAPOLA], [10, 0]);
        let capped = scopa(&[
            ("napola", OptionValue::Bool(true)),
            ("napola_cap", OptionValue::Int(5)),
        ]);
        let s = capped.score([CardSet::COINS, !CardSet::COINS], [0, 0], [0, 0]);
        assert_eq!(s.bonuses[BONUS_NAPOLA], [5, 0]);
        // Below the cap the run counts in full.
        let s = capped.score([a, CardSet::EMPTY], [0, 0], [0, 0]);
        assert_eq!(s.bonuses[BONUS_NAPOLA], [4, 0]);
        assert!(!scopa(&[]).bonus_enabled(BONUS_NAPOLA));
    }

    #[test]
    fn grande() {
        let on = scopa(&[("grande", OptionValue::Int(5))]);
        assert!(on.bonus_enabled(BONUS_GRANDE));
        // Cards and coins: 2, + 5.
        let s = on.score([set(&["JD", "QD", "KD"]), CardSet::EMPTY], [0, 0], [0, 0]);
        assert_eq!(s.bonuses[BONUS_GRANDE], [5, 0]);
        assert_eq!(s.points, [7, 0]);
        let s = on.score([set(&["JD", "QD", "KC"]), set(&["KD"])], [0, 0], [0, 0]);
        assert_eq!(s.bonuses[BONUS_GRANDE], [0, 0]);
        assert!(!scopa(&[("grande", OptionValue::Int(0))]).bonus_enabled(BONUS_GRANDE));
    }

    #[test]
    fn all_coins_bonus() {
        let on = rules(Game::Escoba, &[("all_coins_bonus", OptionValue::Int(2))]);
        assert!(on.bonus_enabled(BONUS_ALL_COINS));
        // Ten coins alone: cards, coins, velo (3), setenta invalid both... B holds no card.
        let s = on.score([CardSet::COINS, CardSet::EMPTY], [0, 0], [0, 0]);
        assert_eq!(s.bonuses[BONUS_ALL_COINS], [2, 0]);
        assert_eq!(s.points, [5, 0]);
        // Nine coins: nothing.
        let nine = CardSet::COINS - set(&["KD"]);
        let s = on.score([nine, set(&["KD"])], [0, 0], [0, 0]);
        assert_eq!(s.bonuses[BONUS_ALL_COINS], [0, 0]);
    }

    #[test]
    fn all_sevens_bonus() {
        let on = rules(Game::Escoba, &[("all_sevens_bonus", OptionValue::Int(3))]);
        assert!(on.bonus_enabled(BONUS_ALL_SEVENS));
        // Four sevens: cards, coins (1-0), velo, setenta 84 valid: 4, + 3.
        let sevens = set(&["7C", "7D", "7H", "7S"]);
        let s = on.score([sevens, CardSet::EMPTY], [0, 0], [0, 0]);
        assert_eq!(s.bonuses[BONUS_ALL_SEVENS], [3, 0]);
        assert_eq!(s.points, [7, 0]);
        let s = on.score([set(&["7C", "7D", "7H"]), set(&["7S"])], [0, 0], [0, 0]);
        assert_eq!(s.bonuses[BONUS_ALL_SEVENS], [0, 0]);
    }

    #[test]
    fn declarations_are_a_bonus() {
        let on = scopa(&[("declarations", OptionValue::Bool(true))]);
        assert!(on.bonus_enabled(BONUS_DECLARATIONS));
        let s = on.score([CardSet::EMPTY, CardSet::EMPTY], [1, 0], [3, 10]);
        assert_eq!(s.bonuses[BONUS_DECLARATIONS], [3, 10]);
        assert_eq!(s.points, [4, 10]);
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
