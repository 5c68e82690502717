//! The greedy bot: the best immediate gain of a move, in integer weights.

use crate::eval::choice::Best;
use crate::eval::cut::cut_decision;
use crate::eval::sweep::{count_of_value, sweep_scores, sweep_value};
use crate::game::action::Move;
use crate::game::card::{Card, NUM_CARDS, NUM_RANKS, NUM_SUITS, Rank};
use crate::game::cardset::CardSet;
use crate::game::rng::Rng;
use crate::game::rules::{CaptureMode, PrimeCategory, Rules};
use crate::game::score::{PRIMIERA_POINTS, suit_best};
use crate::game::view::LazyView;
use crate::play::bot::Bot;

/// Best immediate gain, scored from the move alone and the table it leaves.
///
/// A capture earns, in integer weights: 8 per card taken, 20 per coin, 80 for the seven of
/// coins, the primiera improvement (1.5 per point gained on the side's best card of a suit) or
/// bermila material (30 a seven, 12 a six), and 100 for a sweep that scores. Any move then loses
/// up to 100 for leaving a table that one card sweeps, 30 per unseen card of that value (the
/// next player may hold it). A trail also loses the worth of the trailed card, so low,
/// non-coin cards are trailed first. Exact ties are broken by the bot's seeded generator.
///
/// Every weight of a single card is a constant table by card id, so scoring a move costs a few
/// additions per card taken; a forced move is played without reading the view.
#[derive(Clone, Debug)]
pub struct GreedyBot {
    rng: Rng,
}

const G_CARD: i32 = 8;
const G_COIN: i32 = 20;
const G_SEVEN_OF_COINS: i32 = 80;
const G_SWEEP: i32 = 100;
const G_RISK_PER_CARD: i32 = 30;
const G_BERMILA_SEVEN: i32 = 30;
const G_BERMILA_SIX: i32 = 12;

/// Per-card weights of the greedy bot, by card id.
struct GreedyTables {
    /// What taking the card earns, primiera aside: a card, a coin, the seven of coins.
    taken: [i32; NUM_CARDS],
    /// The same plus the card's bermila material (a seven or a six).
    taken_bermila: [i32; NUM_CARDS],
    /// What trailing the card gives away: coins, the seven of coins, primiera / bermila
    /// material.
    trail_cost: [i32; NUM_CARDS],
    /// The card's primiera points ([`PRIMIERA_POINTS`] of its rank).
    primiera: [u8; NUM_CARDS],
}

const GREEDY: GreedyTables = {
    let sevens = CardSet::rank(Rank::SEVEN.index()).bits();
    let sixes = CardSet::rank(Rank::SIX.index()).bits();
    let mut t = GreedyTables {
        taken: [0; NUM_CARDS],
        taken_bermila: [0; NUM_CARDS],
        trail_cost: [0; NUM_CARDS],
        primiera: [0; NUM_CARDS],
    };
    let mut id = 0;
    while id < NUM_CARDS {
        let coin = CardSet::COINS.bits() >> id & 1 != 0;
        let seven = sevens >> id & 1 != 0;
        let six = sixes >> id & 1 != 0;
        let settebello = id == Card::SEVEN_OF_COINS.id() as usize;
        let mut taken = G_CARD;
        let mut cost = 0;
        if coin {
            taken += G_COIN;
            cost += 10;
        }
        if settebello {
            taken += G_SEVEN_OF_COINS;
            cost += 50;
        }
        t.taken[id] = taken;
        if seven {
            taken += G_BERMILA_SEVEN;
            cost += 15;
        } else if six {
            taken += G_BERMILA_SIX;
            cost += 8;
        }
        t.taken_bermila[id] = taken;
        t.trail_cost[id] = cost;
        t.primiera[id] = PRIMIERA_POINTS[id / NUM_SUITS] as u8;
        id += 1;
    }
    t
};

/// Primiera points of the best card of each suit in `set` (0 for a missing suit), one byte per
/// suit (suit `s` in bits `8s..8s + 8`).
fn suit_bests(set: CardSet) -> u32 {
    suit_best::<true>(set, &POINTS)
}

/// [`PRIMIERA_POINTS`] as the weights of [`suit_best`].
const POINTS: [u32; NUM_RANKS] = {
    let mut w = [0u32; NUM_RANKS];
    let mut r = 0;
    while r < NUM_RANKS {
        w[r] = PRIMIERA_POINTS[r] as u32;
        r += 1;
    }
    w
};

/// The sum of the four bytes of `x` (each below 64, so no byte overflows).
fn byte_sum(x: u32) -> i32 {
    (x.wrapping_mul(0x0101_0101) >> 24) as i32
}

impl GreedyBot {
    /// A greedy bot drawing from `seed` (for tie-breaks).
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot {
            rng: Rng::new(seed),
        }
    }
}

impl Bot for GreedyBot {
    fn choose(&mut self, rules: &Rules, view: &LazyView<'_>, legal: &[Move]) -> Move {
        if let Some(m) = cut_decision(legal) {
            return m;
        }
        if let [only] = legal {
            // Scoring one move would draw nothing: it is the choice.
            return *only;
        }
        // The few fields it reads, without building the whole view.
        let left = view.cards_left();
        let my_sweep = sweep_scores(rules, left);
        // After this play `left - 1` cards remain; the next player is always an opponent.
        let risk_on = left > 1 && sweep_scores(rules, left - 1);
        let primiera = rules.prime_category() == PrimeCategory::Primiera;
        let taken_weight = if primiera {
            &GREEDY.taken
        } else {
            &GREEDY.taken_bermila
        };
        let values = rules.values();
        let table = view.table();
        let unseen = view.unseen();
        let table_total = rules.total(table);
        // The penalty for leaving a non-empty table totalling `total`.
        let risk = |total: u32| -> i32 {
            if !risk_on {
                return 0;
            }
            sweep_value(rules, total).map_or(0, |v| {
                let out = count_of_value(rules, unseen, v) as i32;
                (G_RISK_PER_CARD * out).min(G_SWEEP)
            })
        };
        // The side's best primiera card per suit (a byte each), read only if some move captures.
        let mut pile_bests: Option<u32> = None;
        let mut best = Best::new(i32::MIN, legal[0]);
        for &mv in legal {
            let card = mv.card();
            let caps = mv.captures();
            let score = if caps.is_empty() {
                let rest_total = table_total + u32::from(values[card.index()]);
                -GREEDY.trail_cost[card.index()] - risk(rest_total)
            } else {
                let taken = caps | CardSet::single(card);
                let mut s = 0;
                if primiera {
                    let have = *pile_bests
                        .get_or_insert_with(|| suit_bests(view.piles()[Rules::side(view.seat())]));
                    // The pile's best per suit raised by the few cards taken: the primiera
                    // points gained are the rise of the sum.
                    let mut bests = have.to_le_bytes();
                    for c in taken {
                        s += taken_weight[c.index()];
                        let b = &mut bests[c.index() % NUM_SUITS];
                        *b = (*b).max(GREEDY.primiera[c.index()]);
                    }
                    let up = byte_sum(u32::from_le_bytes(bests)) - byte_sum(have);
                    s += up * 3 / 2;
                } else {
                    for c in taken {
                        s += taken_weight[c.index()];
                    }
                }
                if caps != table {
                    // A capture takes exactly the played card's value (S7, K9), or 15 with it
                    // (E7).
                    let v = u32::from(values[card.index()]);
                    let caps_total = match rules.capture_mode() {
                        CaptureMode::EqualThenSum => v,
                        CaptureMode::Fifteen => 15 - v,
                        CaptureMode::MatchOrFifteen => rules.total(caps),
                    };
                    s -= risk(table_total - caps_total);
                } else if my_sweep {
                    s += G_SWEEP;
                }
                s
            };
            best.offer(&mut self.rng, score, mv);
        }
        best.choice
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_tables_match_the_card_weights() {
        let mut rng = Rng::new(9);
        for _ in 0..500 {
            let set = CardSet(rng.next_u64() & CardSet::FULL.0);
            let bests = suit_bests(set).to_le_bytes();
            for (suit, &b) in bests.iter().enumerate() {
                let want = (set & CardSet::suit(suit))
                    .into_iter()
                    .map(|c| PRIMIERA_POINTS[c.rank().index()])
                    .max()
                    .unwrap_or(0);
                assert_eq!(u16::from(b), want, "{set:?} suit {suit}");
            }
        }
        for c in Card::all() {
            let coin = i32::from(CardSet::COINS.contains(c));
            let settebello = i32::from(c == Card::SEVEN_OF_COINS);
            let (seven, six) = (c.rank() == Rank::SEVEN, c.rank() == Rank::SIX);
            let taken = G_CARD + G_COIN * coin + G_SEVEN_OF_COINS * settebello;
            let material = if seven {
                G_BERMILA_SEVEN
            } else if six {
                G_BERMILA_SIX
            } else {
                0
            };
            let cost =
                10 * coin + 50 * settebello + [0, 8, 15][usize::from(six) + 2 * usize::from(seven)];
            assert_eq!(GREEDY.taken[c.index()], taken, "{c}");
            assert_eq!(GREEDY.taken_bermila[c.index()], taken + material, "{c}");
            assert_eq!(GREEDY.trail_cost[c.index()], cost, "{c}");
        }
    }
}
