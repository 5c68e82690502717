//! The expected category points of two piles, with the cards not yet in a pile split in
//! expectation: the evaluation of the expert bot and of the round search's horizon.

use std::sync::LazyLock;

use crate::game::card::{Card, NUM_SUITS, Rank};
use crate::game::cardset::CardSet;
use crate::game::rules::{PrimeCategory, Rules};
use crate::game::score::{PRIMIERA_ORDER, PRIMIERA_POINTS};

/// Variance of the number of remaining cards a side will capture, per card, relative to a fair
/// coin per card: captures come in clumps of two or three cards. (1 or 4 play no differently.)
const CARD_SPREAD: f32 = 2.0;

/// Expected category points of side `me` minus the other side's, from the piles alone: each
/// category is the chance of winning it minus the chance of losing it, with the cards not yet in
/// a pile split evenly in expectation (exact once every card is in a pile). Sweeps and
/// declarations are not counted.
pub(crate) fn pile_equity(rules: &Rules, piles: [CardSet; 2], me: usize) -> f32 {
    let (m, o) = (piles[me], piles[1 - me]);
    if (m | o) == CardSet::FULL {
        // Every card is in a pile: the categories are decided exactly.
        let s = rules.score(piles, [0, 0], [0, 0]);
        return s
            .awards
            .iter()
            .flatten()
            .map(|&side| if usize::from(side) == me { 1.0 } else { -1.0 })
            .sum();
    }
    let counts = &*COUNT_TERMS;
    let mut e = counts.cards(m, o) + counts.coins(m, o);
    if m.contains(Card::SEVEN_OF_COINS) {
        e += 1.0;
    } else if o.contains(Card::SEVEN_OF_COINS) {
        e -= 1.0;
    }
    e + match rules.prime_category() {
        PrimeCategory::Primiera => primiera_equity(m, o),
        PrimeCategory::Bermila => counts.bermila(m, o),
    }
}

/// The four terms of `pile_equity` apart, in category order (cards, coins, seven of coins,
/// the fourth category), for side `me`, before every card is in a pile: what the fitted
/// evaluation ([`crate::eval::fitted`]) corrects, category by category. Their sum is
/// `pile_equity` up to rounding.
pub fn category_equities(rules: &Rules, piles: [CardSet; 2], me: usize) -> [f32; 4] {
    let (m, o) = (piles[me], piles[1 - me]);
    let settebello = if m.contains(Card::SEVEN_OF_COINS) {
        1.0
    } else if o.contains(Card::SEVEN_OF_COINS) {
        -1.0
    } else {
        0.0
    };
    let counts = &*COUNT_TERMS;
    [
        counts.cards(m, o),
        counts.coins(m, o),
        settebello,
        match rules.prime_category() {
            PrimeCategory::Primiera => primiera_equity(m, o),
            PrimeCategory::Bermila => counts.bermila(m, o),
        },
    ]
}

/// The cards, coins and bermila terms for each pair of counts, computed once: every leaf of a
/// search asks them.
struct CountTerms {
    /// `majority_equity` of the cards (more than 20 of 40), by our count and theirs.
    cards: [[f32; 41]; 41],
    /// `coin_equity` by our coins and theirs.
    coins: [[f32; 11]; 11],
    /// `bermila_equity` by our sevens, their sevens, our sixes and their sixes.
    bermila: [[[[f32; 5]; 5]; 5]; 5],
}

impl CountTerms {
    /// The cards term of piles `m` (ours) and `o` (disjoint).
    fn cards(&self, m: CardSet, o: CardSet) -> f32 {
        self.cards[m.len() as usize][o.len() as usize]
    }

    /// The coins term of piles `m` (ours) and `o` (disjoint).
    fn coins(&self, m: CardSet, o: CardSet) -> f32 {
        let coins = |s: CardSet| (s & CardSet::COINS).len() as usize;
        self.coins[coins(m)][coins(o)]
    }

    /// The bermila term of piles `m` (ours) and `o` (disjoint).
    fn bermila(&self, m: CardSet, o: CardSet) -> f32 {
        let count = |s: CardSet, rank: Rank| (s & CardSet::rank(rank.index())).len() as usize;
        self.bermila[count(m, Rank::SEVEN)][count(o, Rank::SEVEN)][count(m, Rank::SIX)]
            [count(o, Rank::SIX)]
    }
}

static COUNT_TERMS: LazyLock<CountTerms> = LazyLock::new(|| {
    let mut t = CountTerms {
        cards: [[0.0; 41]; 41],
        coins: [[0.0; 11]; 11],
        bermila: [[[[0.0; 5]; 5]; 5]; 5],
    };
    for ours in 0..=40u32 {
        for theirs in 0..=40 - ours {
            t.cards[ours as usize][theirs as usize] =
                majority_equity(ours, theirs, 20, CARD_SPREAD);
        }
    }
    for ours in 0..=10u32 {
        for theirs in 0..=10 - ours {
            t.coins[ours as usize][theirs as usize] = coin_equity(ours, theirs);
        }
    }
    for (ours7, by_theirs7) in (0u32..).zip(&mut t.bermila) {
        for (theirs7, by_ours6) in (0u32..).zip(by_theirs7) {
            for (ours6, by_theirs6) in (0u32..).zip(by_ours6) {
                for (theirs6, term) in (0u32..).zip(by_theirs6) {
                    if ours7 + theirs7 <= 4 && ours6 + theirs6 <= 4 {
                        *term = bermila_counts(ours7, theirs7, ours6, theirs6);
                    }
                }
            }
        }
    }
    t
});

/// Standard normal distribution function (Abramowitz–Stegun 7.1.26 erf, error below 1.5e-7).
fn phi(x: f32) -> f32 {
    let z = x.abs() * std::f32::consts::FRAC_1_SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_6
            + t * (-0.284_496_74 + t * (1.421_413_7 + t * (-1.453_152_1 + t * 1.061_405_4))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

/// P(we end with more than `half`) - P(they do), of `2 * half` cards in all, with `ours` and
/// `theirs` taken so far and the rest split as a normal around half each, `spread` times a fair
/// coin's variance.
fn majority_equity(ours: u32, theirs: u32, half: u32, spread: f32) -> f32 {
    if ours > half {
        return 1.0;
    }
    if theirs > half {
        return -1.0;
    }
    let out = 2 * half - ours - theirs;
    if out == 0 {
        return 0.0;
    }
    let mean = out as f32 / 2.0;
    let sd = (spread * out as f32 / 4.0).sqrt();
    // We win taking at least half + 1 - ours of the rest, they when we take at most
    // half - 1 - ours.
    let need = half as f32 - ours as f32 - mean;
    let win = 1.0 - phi((need + 0.5) / sd);
    let lose = phi((need - 0.5) / sd);
    win - lose
}

/// Binomial coefficients up to 10: the coins, sevens and sixes still out.
const BINOMIAL: [[u16; 11]; 11] = {
    let mut t = [[0u16; 11]; 11];
    let mut n = 0;
    while n <= 10 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
};

/// Equity of a majority of `total` cards (more than half wins, a tie nobody) with each card
/// still out going to either side with even chance.
fn even_split_equity(ours: u32, theirs: u32, total: u32) -> f32 {
    split_equity(ours, theirs, total, 0.0)
}

/// Equity of a majority of `total` cards, the cards out split evenly at random, scoring
/// `on_tie` when the counts end equal.
fn split_equity(ours: u32, theirs: u32, total: u32, on_tie: f32) -> f32 {
    debug_assert!(ours + theirs <= total, "a card counted in both piles");
    let out = total.saturating_sub(ours + theirs);
    let mut equity = 0.0;
    for k in 0..=out {
        let chance = f32::from(BINOMIAL[out as usize][k as usize]) / (1u32 << out) as f32;
        equity += chance
            * match (ours + k).cmp(&(theirs + out - k)) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Less => -1.0,
                std::cmp::Ordering::Equal => on_tie,
            };
    }
    equity
}

fn coin_equity(ours: u32, theirs: u32) -> f32 {
    even_split_equity(ours, theirs, 10)
}

/// Bermila (K14): more sevens; sevens tied, more sixes.
#[cfg(test)]
fn bermila_equity(ours: CardSet, theirs: CardSet) -> f32 {
    let sevens = CardSet::rank(Rank::SEVEN.index());
    let sixes = CardSet::rank(Rank::SIX.index());
    bermila_counts(
        (ours & sevens).len(),
        (theirs & sevens).len(),
        (ours & sixes).len(),
        (theirs & sixes).len(),
    )
}

/// The bermila term from the sevens and sixes each side holds.
fn bermila_counts(ours7: u32, theirs7: u32, ours6: u32, theirs6: u32) -> f32 {
    let on_tie = even_split_equity(ours6, theirs6, 4);
    split_equity(ours7, theirs7, 4, on_tie)
}

/// Primiera / setenta: per suit, the difference of the two sides' best cards when each card
/// still out goes to either side with even chance (only the best card out that each side gets
/// matters); the suits' differences are summed as a normal. A missing suit counts 0, which
/// loses the suit by at least 10: close to the invalid primiera of S-A2.
fn primiera_equity(ours: CardSet, theirs: CardSet) -> f32 {
    let terms = &*SUIT_TERMS;
    let mut mean = 0.0f32;
    let mut var = 0.0f32;
    for suit in 0..NUM_SUITS {
        let split = usize::from(TERNARY[suit_ranks(ours, suit)])
            + 2 * usize::from(TERNARY[suit_ranks(theirs, suit)]);
        let (m, v) = terms[split];
        mean += m;
        var += v;
    }
    margin_equity(mean, var)
}

/// P(a margin of `mean` and variance `var`, as a normal, ends above 0.5) - P(it ends below
/// -0.5): the primiera's equity from its summed suit moments (a sure margin when `var` is 0).
fn margin_equity(mean: f32, var: f32) -> f32 {
    if var < 1e-6 {
        return if mean > 0.25 {
            1.0
        } else if mean < -0.25 {
            -1.0
        } else {
            0.0
        };
    }
    let sd = var.sqrt();
    (1.0 - phi((0.5 - mean) / sd)) - phi((-0.5 - mean) / sd)
}

/// The ranks of `set`'s cards of suit index `suit`, as ten bits by rank index: a card's id is
/// its rank times four plus its suit, so the suit's cards are every fourth bit, gathered here.
fn suit_ranks(set: CardSet, suit: usize) -> usize {
    let x = (set.bits() >> suit) & 0x11_1111_1111;
    let x = (x | x >> 3) & 0x03_0303_0303;
    let x = (x | x >> 6) & 0x0003_000F_000F;
    let x = (x | x >> 12) & 0x0003_0000_00FF;
    ((x | x >> 24) & 0x3FF) as usize
}

/// Each ten-bit mask read as a base-3 number with digits 0 and 1: the index of a suit's split
/// between our pile (`TERNARY[ours]`) and theirs (`2 * TERNARY[theirs]`), disjoint masks
/// giving every index below 3^10 once.
const TERNARY: [u16; 1 << 10] = {
    let mut t = [0u16; 1 << 10];
    let mut mask = 1;
    while mask < t.len() {
        // The lowest bit is digit 0; the rest is the mask shifted, one digit up.
        t[mask] = (mask & 1) as u16 + 3 * t[mask >> 1];
        mask += 1;
    }
    t
};

/// What one suit adds to the primiera mean and variance, for each split of its ten cards
/// between the two piles and out ([`TERNARY`]): computed once, so `primiera_equity` is four
/// lookups.
static SUIT_TERMS: LazyLock<Vec<(f32, f32)>> = LazyLock::new(|| {
    let mut terms = vec![(0.0, 0.0); 59_049];
    for (ours, &our_digits) in TERNARY.iter().enumerate() {
        for (theirs, &their_digits) in TERNARY.iter().enumerate() {
            if theirs & ours == 0 {
                let split = usize::from(our_digits) + 2 * usize::from(their_digits);
                terms[split] = suit_terms(ours, theirs);
            }
        }
    }
    terms
});

/// One suit's (mean, variance) of our best primiera card's points minus theirs, `ours` and
/// `theirs` the ranks (bits by rank index) of the suit in each pile.
fn suit_terms(ours: usize, theirs: usize) -> (f32, f32) {
    // Primiera points of the suit's cards still out, best first, and each side's best.
    let mut out = [0f32; 10];
    let mut n_out = 0;
    let (mut our_best, mut their_best) = (0f32, 0f32);
    for &rank in &PRIMIERA_ORDER {
        let points = f32::from(PRIMIERA_POINTS[rank]);
        if ours >> rank & 1 == 1 {
            our_best = our_best.max(points);
        } else if theirs >> rank & 1 == 1 {
            their_best = their_best.max(points);
        } else {
            out[n_out] = points;
            n_out += 1;
        }
    }
    if n_out == 0 {
        return (our_best - their_best, 0.0);
    }
    // The best card out goes to us (half the time) or to them; the other side's best is
    // then raised by the first later card that goes its way, each with half the chance of
    // the one before.
    let rest = &out[1..n_out];
    let (mean_us, sq_us) = suit_branch(our_best.max(out[0]), their_best, rest);
    let (mean_them, sq_them) = suit_branch(their_best.max(out[0]), our_best, rest);
    let suit_mean = 0.5 * (mean_us - mean_them);
    (
        suit_mean,
        (0.5 * (sq_us + sq_them) - suit_mean * suit_mean).max(0.0),
    )
}

/// Mean and second moment of `x - y_final`, where the other side's best is `y` raised by the
/// first card of `rest` that goes its way (each next card half as likely to be that one).
fn suit_branch(x: f32, y: f32, rest: &[f32]) -> (f32, f32) {
    let mut p = 0.5f32;
    let mut e1 = 0.0;
    let mut e2 = 0.0;
    for &c in rest {
        let d = x - y.max(c);
        e1 += p * d;
        e2 += p * d * d;
        p *= 0.5;
    }
    // None of the rest goes their way: probability 2p.
    let d = x - y;
    e1 += 2.0 * p * d;
    e2 += 2.0 * p * d * d;
    (e1, e2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_distribution_function() {
        assert!((phi(0.0) - 0.5).abs() < 1e-6);
        assert!((phi(1.96) - 0.975).abs() < 1e-3);
        assert!((phi(-1.0) - 0.158_655).abs() < 1e-4);
    }

    #[test]
    fn category_equities_are_exact_when_decided() {
        assert!((majority_equity(21, 3, 20, 2.0) - 1.0).abs() < 1e-6);
        assert!((majority_equity(20, 20, 20, 2.0)).abs() < 1e-6);
        assert!((coin_equity(6, 0) - 1.0).abs() < 1e-6);
        assert!(coin_equity(5, 5).abs() < 1e-6);
        // Four coins out: we need 1 of 4 for 6, they all 4 for 6; 5-5 otherwise a tie.
        assert!((coin_equity(5, 1) - (15.0 / 16.0 - 0.0)).abs() < 1e-6);
        assert!(even_split_equity(2, 2, 4).abs() < 1e-6);
        let all = CardSet::FULL;
        let sevens = CardSet::rank(Rank::SEVEN.index());
        assert!((primiera_equity(sevens, CardSet::EMPTY) - 1.0).abs() < 0.05);
        assert!((bermila_equity(sevens, all - sevens) - 1.0).abs() < 1e-6);
        assert!(primiera_equity(CardSet::EMPTY, CardSet::EMPTY).abs() < 1e-6);
    }

    /// The primiera equity computed card by card, suit by suit, with no table: what the
    /// lookups of `primiera_equity` must give bit for bit (the normal tail is the same code).
    fn primiera_by_cards(ours: CardSet, theirs: CardSet) -> f32 {
        let (mut mean, mut var) = (0.0f32, 0.0f32);
        for suit in crate::game::card::Suit::ALL {
            let mut out = Vec::new();
            let (mut our_best, mut their_best) = (0f32, 0f32);
            for &rank in &PRIMIERA_ORDER {
                let card = Card::of(Rank::new(rank as u8).unwrap(), suit);
                let points = f32::from(PRIMIERA_POINTS[rank]);
                if ours.contains(card) {
                    our_best = our_best.max(points);
                } else if theirs.contains(card) {
                    their_best = their_best.max(points);
                } else {
                    out.push(points);
                }
            }
            let Some(&best_out) = out.first() else {
                mean += our_best - their_best;
                continue;
            };
            let (mean_us, sq_us) = suit_branch(our_best.max(best_out), their_best, &out[1..]);
            let (mean_them, sq_them) = suit_branch(their_best.max(best_out), our_best, &out[1..]);
            let suit_mean = 0.5 * (mean_us - mean_them);
            mean += suit_mean;
            var += (0.5 * (sq_us + sq_them) - suit_mean * suit_mean).max(0.0);
        }
        margin_equity(mean, var)
    }

    #[test]
    fn a_suits_ranks_are_gathered_by_rank_index() {
        for suit in crate::game::card::Suit::ALL {
            for rank in 0..10u8 {
                let card = Card::of(Rank::new(rank).unwrap(), suit);
                let all_but = CardSet::FULL - CardSet::single(card);
                assert_eq!(suit_ranks(CardSet::single(card), suit as usize), 1 << rank);
                assert_eq!(suit_ranks(all_but, suit as usize), 0x3FF ^ (1 << rank));
            }
        }
    }

    #[test]
    fn primiera_lookups_match_the_card_by_card_sum() {
        let mut rng = crate::game::rng::Rng::new(11);
        for i in 0..20_000u32 {
            // Piles of every size, each card ours, theirs or out.
            let (mut ours, mut theirs) = (CardSet::EMPTY, CardSet::EMPTY);
            let keep = 1 + u64::from(i % 5);
            for card in CardSet::FULL {
                match rng.below(keep + 2) {
                    0 => ours |= CardSet::single(card),
                    1 => theirs |= CardSet::single(card),
                    _ => {}
                }
            }
            let (fast, slow) = (
                primiera_equity(ours, theirs),
                primiera_by_cards(ours, theirs),
            );
            assert_eq!(fast.to_bits(), slow.to_bits(), "{ours:?} {theirs:?}");
        }
    }

    #[test]
    fn bermila_lookups_match_the_count_by_count_term() {
        // Every split of the eight sevens and sixes between our pile, theirs and out (3^8),
        // with the other cards anywhere: the lookup must be the term computed from the counts.
        let sevens = CardSet::rank(Rank::SEVEN.index());
        let sixes = CardSet::rank(Rank::SIX.index());
        let cards: Vec<Card> = (sevens | sixes).iter().collect();
        let counts = &*COUNT_TERMS;
        let mut rng = crate::game::rng::Rng::new(13);
        for split in 0..3u32.pow(8) {
            let (mut ours, mut theirs) = (CardSet::EMPTY, CardSet::EMPTY);
            let mut digits = split;
            for &card in &cards {
                match digits % 3 {
                    0 => ours |= CardSet::single(card),
                    1 => theirs |= CardSet::single(card),
                    _ => {}
                }
                digits /= 3;
            }
            for card in CardSet::FULL - sevens - sixes {
                match rng.below(3) {
                    0 => ours |= CardSet::single(card),
                    1 => theirs |= CardSet::single(card),
                    _ => {}
                }
            }
            let (fast, slow) = (counts.bermila(ours, theirs), bermila_equity(ours, theirs));
            assert_eq!(fast.to_bits(), slow.to_bits(), "{ours:?} {theirs:?}");
        }
    }
}
