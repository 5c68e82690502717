//! A fitted evaluation of the piles: the hand-made [`category_equities`] of each category plus a
//! correction per cell of simple features, fitted from the engine's own hands (the `fit_eval`
//! program of the `capturefast-bench` crate writes the tables, `fitted_tables.rs`, and says how).
//!
//! Every feature is read from the side of the dealer, because the dealer plays last in each
//! round and so takes the last table more often than the other side; the value for the other
//! side is its negation, so the evaluation is antisymmetric exactly. The cells, per category:
//!
//! - cards: the two sides' pile sizes (41 x 41);
//! - coins: the two sides' coins (11 x 11), by round bucket;
//! - seven of coins: exact once in a pile; otherwise on the table or not, by round bucket;
//! - primiera / setenta: the hand-made equity in 21 bins over [-1, 1], by round bucket (a
//!   calibration of the normal approximation); bermila: the sides' sevens and sixes (5^4).
//!
//! A round bucket is `cards_left` (hands and stock) in whole rounds, capped at 6. A cell's
//! correction is the mean of (award - hand-made equity) over its samples, shrunk toward 0 by
//! [`SHRINK`] pseudo-samples, so a cell the data rarely reach keeps the hand-made value. Once
//! every card is in a pile the categories are scored exactly (`Rules::score`). Used only at the
//! horizon of the round search behind `pimc` (`eval=fitted`, its default; `eval=equity` uses
//! `pile_equity`); the expert keeps `pile_equity`.

use crate::eval::equity::{category_equities, pile_equity};
use crate::eval::fitted_tables;
use crate::game::card::{Card, Rank};
use crate::game::cardset::CardSet;
use crate::game::rules::{Game, PrimeCategory, Rules};
use crate::game::state::State;

/// Round buckets: `cards_left` in whole rounds, 0 to 6.
pub const BUCKETS: usize = 7;
/// Bins of the hand-made primiera equity over [-1, 1].
pub const PRIME_BINS: usize = 21;
/// Cells of the cards table: pile sizes 0 to 40 for each side.
pub const CARD_CELLS: usize = 41 * 41;
/// Cells of the coins table.
pub const COIN_CELLS: usize = 11 * 11 * BUCKETS;
/// Cells of the seven of coins table: on the table or elsewhere out of the piles.
pub const SETTEBELLO_CELLS: usize = 2 * BUCKETS;
/// Cells of the primiera / setenta table.
pub const PRIMIERA_CELLS: usize = PRIME_BINS * BUCKETS;
/// Cells of the bermila table: sevens and sixes of each side, 0 to 4.
pub const BERMILA_CELLS: usize = 5 * 5 * 5 * 5;
/// Pseudo-samples of correction 0 added to each cell when fitting.
pub const SHRINK: f64 = 50.0;

/// One game's fitted corrections, per category in [`Rules::category_names`] order.
#[derive(Clone, Copy, Debug)]
pub struct Tables {
    /// The game fitted.
    pub game: Game,
    /// Its number of players.
    pub players: u8,
    /// The fourth category fitted (the tables apply only to rules with this one).
    pub prime: PrimeCategory,
    /// Correction per cell, per category ([`CARD_CELLS`], [`COIN_CELLS`],
    /// [`SETTEBELLO_CELLS`], then [`PRIMIERA_CELLS`] or [`BERMILA_CELLS`]).
    pub corrections: [&'static [f32]; 4],
}

/// What the fitted evaluation reads of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// The piles of the two sides.
    pub piles: [CardSet; 2],
    /// The cards on the table.
    pub table: CardSet,
    /// Cards in hands and in the stock (and a cut card).
    pub cards_left: u32,
    /// The dealer's side.
    pub dealer_side: usize,
}

impl Leaf {
    /// The leaf of `state`.
    pub fn of(state: &State) -> Leaf {
        Leaf {
            piles: state.piles(),
            table: state.table(),
            cards_left: state.cards_left(),
            dealer_side: Rules::side(state.dealer()),
        }
    }
}

/// The dealer side's hand-made equity per category and its cell in each table (`None`: the
/// category is decided and takes no correction).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cells {
    /// The hand-made equity of each category, for the dealer's side.
    pub base: [f32; 4],
    /// The cell of each category's table.
    pub cell: [Option<usize>; 4],
}

/// The round bucket of `cards_left`: whole rounds of the deal left, at most 6.
fn bucket(rules: &Rules, cards_left: u32) -> usize {
    let round = u32::from(rules.hand_size()) * u32::from(rules.num_players());
    (cards_left.div_ceil(round.max(1)) as usize).min(BUCKETS - 1)
}

/// The cells of `leaf`, read from the dealer's side.
pub fn cells(rules: &Rules, leaf: &Leaf) -> Cells {
    let d = leaf.dealer_side;
    let (mine, theirs) = (leaf.piles[d], leaf.piles[1 - d]);
    let base = category_equities(rules, leaf.piles, d);
    let b = bucket(rules, leaf.cards_left);
    let cards = mine.len() as usize * 41 + theirs.len() as usize;
    let coins = |s: CardSet| (s & CardSet::COINS).len() as usize;
    let coin_cell = (coins(mine) * 11 + coins(theirs)) * BUCKETS + b;
    let seven = Card::SEVEN_OF_COINS;
    let settebello = (!(mine | theirs).contains(seven))
        .then(|| usize::from(!leaf.table.contains(seven)) * BUCKETS + b);
    let prime = match rules.prime_category() {
        PrimeCategory::Primiera => {
            let bin = ((base[3] + 1.0) * 10.0).round().clamp(0.0, 20.0) as usize;
            bin * BUCKETS + b
        }
        PrimeCategory::Bermila => {
            let count = |s: CardSet, r: Rank| (s & CardSet::rank(r.index())).len() as usize;
            ((count(mine, Rank::SEVEN) * 5 + count(theirs, Rank::SEVEN)) * 5
                + count(mine, Rank::SIX))
                * 5
                + count(theirs, Rank::SIX)
        }
    };
    Cells {
        base,
        cell: [Some(cards), Some(coin_cell), settebello, Some(prime)],
    }
}

/// The fitted tables for `rules`, if its game and number of players were fitted with the same
/// fourth category.
pub fn tables_for(rules: &Rules) -> Option<Tables> {
    fitted_tables::TABLES
        .iter()
        .find(|t| {
            t.0 == rules.game() && t.1 == rules.num_players() && t.2 == rules.prime_category()
        })
        .map(|&&(game, players, prime, corrections)| Tables {
            game,
            players,
            prime,
            corrections,
        })
}

/// Expected category points of side `me` minus the other side's at `leaf`: the hand-made
/// equity corrected by the fitted tables, each category kept within [-1, 1] (the hand-made
/// `pile_equity` itself for rules with no tables), exact once every card is in a pile. Sweeps
/// and declarations are not counted.
pub fn fitted_equity(rules: &Rules, leaf: &Leaf, me: usize) -> f32 {
    match tables_for(rules) {
        Some(tables) => corrected_equity(rules, &tables, leaf, me),
        None => pile_equity(rules, leaf.piles, me),
    }
}

/// [`fitted_equity`] with the tables of `rules` ([`tables_for`]) already found: what a search
/// calls at each leaf.
pub fn corrected_equity(rules: &Rules, tables: &Tables, leaf: &Leaf, me: usize) -> f32 {
    if (leaf.piles[0] | leaf.piles[1]) == CardSet::FULL {
        // Every card is in a pile: the categories are decided exactly.
        return pile_equity(rules, leaf.piles, me);
    }
    let c = cells(rules, leaf);
    let mut v = 0.0f32;
    for k in 0..4 {
        // A cell's correction is its samples' mean: for one position in it, the corrected
        // value may pass what a category can be worth.
        let corrected = c.base[k] + c.cell[k].map_or(0.0, |i| tables.corrections[k][i]);
        v += corrected.clamp(-1.0, 1.0);
    }
    if me == leaf.dealer_side { v } else { -v }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Antisymmetry and decided categories are exact, not approximate.
mod tests {
    use super::*;
    use crate::game::rng::Rng;

    fn all_rules() -> Vec<Rules> {
        [Game::Scopa, Game::Escoba, Game::Chkobba]
            .into_iter()
            .flat_map(|g| [2, 4].map(|p| Rules::profile(g, p).unwrap()))
            .collect()
    }

    /// The 40 cards dealt at random into the two piles, the table and the rest, `out` of them
    /// not in a pile.
    fn random_leaf(rng: &mut Rng, out: u32) -> Leaf {
        let cards = rng.shuffled_deck();
        let mut piles = [CardSet::EMPTY; 2];
        let mut table = CardSet::EMPTY;
        let split = rng.below(41 - u64::from(out)) as usize;
        for (i, &c) in cards.iter().enumerate() {
            let card = CardSet::single(c);
            if i < out as usize {
                if rng.below(2) == 0 {
                    table |= card;
                }
            } else if i < out as usize + split {
                piles[0] |= card;
            } else {
                piles[1] |= card;
            }
        }
        Leaf {
            piles,
            table,
            cards_left: out - table.len(),
            dealer_side: rng.below(2) as usize,
        }
    }

    #[test]
    fn every_fitted_game_has_tables_of_the_right_sizes() {
        for rules in all_rules().iter().filter(|r| r.num_players() == 2) {
            let t = tables_for(rules).expect("the 2-player games are fitted");
            let prime = match t.prime {
                PrimeCategory::Primiera => PRIMIERA_CELLS,
                PrimeCategory::Bermila => BERMILA_CELLS,
            };
            let sizes = [CARD_CELLS, COIN_CELLS, SETTEBELLO_CELLS, prime];
            for (table, size) in t.corrections.iter().zip(sizes) {
                assert_eq!(table.len(), size);
                // A correction never takes a category beyond what it can be worth.
                assert!(table.iter().all(|c| c.abs() <= 2.0));
            }
        }
    }

    #[test]
    fn fitted_equity_is_exact_once_every_card_is_in_a_pile() {
        let mut rng = Rng::new(11);
        for rules in all_rules() {
            for _ in 0..300 {
                let leaf = random_leaf(&mut rng, 0);
                let s = rules.score(leaf.piles, [0, 0], [0, 0]);
                for me in 0..2 {
                    // The awards alone: no sweeps, no declarations were given to the score.
                    let want = s.margin(me) as f32
                        - s.bonuses
                            .iter()
                            .map(|b| b[me] as f32 - b[1 - me] as f32)
                            .sum::<f32>();
                    assert!((fitted_equity(&rules, &leaf, me) - want).abs() < 1e-6);
                }
            }
        }
    }

    #[test]
    fn fitted_equity_is_antisymmetric_and_bounded() {
        let mut rng = Rng::new(12);
        for rules in all_rules() {
            for out in [1, 4, 10, 20, 30, 36] {
                for _ in 0..200 {
                    let leaf = random_leaf(&mut rng, out);
                    let (a, b) = (
                        fitted_equity(&rules, &leaf, 0),
                        fitted_equity(&rules, &leaf, 1),
                    );
                    assert_eq!(a, -b, "{:?} {leaf:?}", rules.game());
                    assert!(a.abs() <= 4.0 + 1e-4);
                }
            }
        }
    }

    #[test]
    fn a_decided_category_takes_no_correction() {
        // More than half the cards, six coins and the seven of coins in our pile: the hand-made
        // value of those categories is exact, and so is the fitted one.
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        let coins: CardSet = CardSet::COINS;
        let mut ours = CardSet::EMPTY;
        for c in coins.iter().take(6) {
            ours.insert(c);
        }
        ours.insert(Card::SEVEN_OF_COINS);
        for c in (CardSet::FULL - coins).iter().take(16) {
            ours.insert(c);
        }
        assert!(ours.len() >= 21);
        let leaf = Leaf {
            piles: [ours, CardSet::EMPTY],
            table: CardSet::EMPTY,
            cards_left: 40 - ours.len(),
            dealer_side: 1,
        };
        let c = cells(&rules, &leaf);
        let t = tables_for(&rules).unwrap();
        // From the dealer's side (side 1) those three categories are lost for sure.
        assert_eq!(c.base[..3], [-1.0, -1.0, -1.0]);
        assert_eq!(c.cell[2], None);
        assert_eq!(t.corrections[0][c.cell[0].unwrap()], 0.0);
        assert_eq!(t.corrections[1][c.cell[1].unwrap()], 0.0);
    }
}
