//! Observation encodings: what one seat sees, as a flat `float32` vector of named planes, and
//! the full-information encoding of a state (every hand and the stock order) for learning from
//! solver values.
//!
//! # Layout
//!
//! The vector is the concatenation of the fields below, in this order; [`ObsLayout::fields`]
//! gives each field's name, offset and length, so that a user can cut it into planes. A
//! *card plane* is 40 values, one per card id (rank-major, docs/conventions.md), 1.0 where
//! the card is in the zone. Seats and sides are **relative to the observer**: seat `k` is the
//! `k`-th seat after the observer in seat-number order (the observer is seat 0), side `k` is
//! the side of the `k`-th seat whose side is not listed yet (the observer's side is side 0).
//! `S` is the number of seats, `D` the number of sides, both read from the rules: no field
//! assumes 2 sides, nor that partners are seats of equal parity.
//!
//! | field | length | values |
//! | --- | --- | --- |
//! | `hand` | 40 | the observer's hand |
//! | `table` | 40 | the table |
//! | `piles` | 40 `D` | each side's captured cards, own side first |
//! | `unseen` | 40 | cards the observer has not seen: other hands, the stock, a cut card not shown to it |
//! | `building_card` | 40 | the card of the move being built (a played card, or the claimed card) |
//! | `building_taken` | 40 | the table cards taken so far into the move being built |
//! | `cut_card` | 40 | Chkobba's cut card, if the observer was shown it |
//! | `claimable` | 40 | the trailed card that may be claimed now (renuncio) |
//! | `hand_sizes` | `S` | cards in each seat's hand / 10 |
//! | `stock_size` | 1 | cards in the stock / 40 |
//! | `sweeps` | `D` | sweeps this hand per side / 10 |
//! | `declared` | `D` | declaration points this hand per side / 10 (Cirulla, V-S12) |
//! | `scores` | `D` | match score per side / target |
//! | `target` | 1 | the match target / 100 |
//! | `dealer` | `S` | one-hot: the dealer |
//! | `to_move` | `S` | one-hot: the seat to move (none once the hand is over) |
//! | `last_capturer` | `S` | one-hot: the seat that captured last this hand (none yet: all 0) |
//! | `phase` | 5 | one-hot: cut decision, choose a card, building a move, hand over, match over |
//!
//! The full-information encoding ([`ObsLayout::full`]) appends:
//!
//! | field | length | values |
//! | --- | --- | --- |
//! | `hands` | 40 `S` | every seat's hand, the observer's first |
//! | `stock` | 40 | the stock in deal order: the next card dealt 1.0, then falling by 1/40 a card |
//! | `pending_cut` | 40 | the cut card, shown or not |
//!
//! A seat's observation is a function of its [`View`](crate::View) and of the decision in
//! progress only: no hidden card reaches it (`tests/learn.rs` changes only hidden cards and
//! checks that every observation of the seat is equal).

use crate::game::card::NUM_CARDS;
use crate::game::cardset::CardSet;
use crate::game::rules::Rules;
use crate::game::state::{Phase, State};
use crate::learn::actions::Decision;

/// One named field of an observation vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's name (the module header's table).
    pub name: &'static str,
    /// Its first index in the vector.
    pub offset: usize,
    /// Its number of values.
    pub len: usize,
}

/// The observation layout of a game: its seats and sides, and whether it is the
/// full-information encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObsLayout {
    num_seats: usize,
    /// The side of each seat, from the rules.
    side_of: Vec<usize>,
    num_sides: usize,
    full: bool,
    fields: Vec<Field>,
    len: usize,
}

/// The number of phase values (the `phase` field).
pub const NUM_PHASES: usize = 5;

impl ObsLayout {
    /// The layout of a seat's observation under `rules`.
    pub fn seat(rules: &Rules) -> ObsLayout {
        ObsLayout::new(rules, false)
    }

    /// The layout of the full-information encoding under `rules`.
    pub fn full(rules: &Rules) -> ObsLayout {
        ObsLayout::new(rules, true)
    }

    fn new(rules: &Rules, full: bool) -> ObsLayout {
        let num_seats = usize::from(rules.num_players());
        let side_of: Vec<usize> = (0..num_seats as u8).map(Rules::side).collect();
        let num_sides = side_of.iter().max().map_or(0, |&s| s + 1);
        let (s, d) = (num_seats, num_sides);
        let mut sizes: Vec<(&'static str, usize)> = vec![
            ("hand", NUM_CARDS),
            ("table", NUM_CARDS),
            ("piles", NUM_CARDS * d),
            ("unseen", NUM_CARDS),
            ("building_card", NUM_CARDS),
            ("building_taken", NUM_CARDS),
            ("cut_card", NUM_CARDS),
            ("claimable", NUM_CARDS),
            ("hand_sizes", s),
            ("stock_size", 1),
            ("sweeps", d),
            ("declared", d),
            ("scores", d),
            ("target", 1),
            ("dealer", s),
            ("to_move", s),
            ("last_capturer", s),
            ("phase", NUM_PHASES),
        ];
        if full {
            sizes.extend([
                ("hands", NUM_CARDS * s),
                ("stock", NUM_CARDS),
                ("pending_cut", NUM_CARDS),
            ]);
        }
        let mut fields = Vec::with_capacity(sizes.len());
        let mut offset = 0;
        for (name, len) in sizes {
            fields.push(Field { name, offset, len });
            offset += len;
        }
        ObsLayout {
            num_seats,
            side_of,
            num_sides,
            full,
            fields,
            len: offset,
        }
    }

    /// The vector's length.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the vector is empty (never: every layout has its card planes).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The fields in order.
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// The number of seats.
    pub fn num_seats(&self) -> usize {
        self.num_seats
    }

    /// The number of sides.
    pub fn num_sides(&self) -> usize {
        self.num_sides
    }

    /// The side of each seat.
    pub fn sides(&self) -> &[usize] {
        &self.side_of
    }

    /// Whether this is the full-information encoding.
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// The sides in the observer's relative order: its own, then each new side met going
    /// through the seats after it.
    fn side_order(&self, seat: usize) -> ([usize; 8], usize) {
        let mut order = [0usize; 8];
        let mut n = 0;
        for k in 0..self.num_seats {
            let side = self.side_of[(seat + k) % self.num_seats];
            if !order[..n].contains(&side) {
                order[n] = side;
                n += 1;
            }
        }
        (order, n)
    }

    /// Writes the observation of `seat` of `state` into `out` (this layout's length), with
    /// `decision` the decision in progress when `seat` is to move (its building fields are
    /// read only then). The full-information fields, if any, are written too.
    pub fn write(
        &self,
        rules: &Rules,
        state: &State,
        seat: u8,
        decision: Option<&Decision>,
        out: &mut [f32],
    ) {
        assert_eq!(
            out.len(),
            self.len,
            "observation buffer of the wrong length"
        );
        let view = state.view(seat);
        let me = usize::from(seat);
        let n = self.num_seats;
        let rel = |s: u8| (usize::from(s) + n - me) % n;
        let (sides, num_sides) = self.side_order(me);
        let f = &self.fields;
        let mut i = 0;
        let mut next = || {
            let field = f[i];
            i += 1;
            field.offset
        };
        // The card planes come first and are written whole (every value, 0.0 or 1.0); the
        // fields after them are zeroed here and then set.
        plane(out, next(), view.hand);
        plane(out, next(), view.table);
        let at = next();
        for (k, &side) in sides[..num_sides].iter().enumerate() {
            plane(out, at + NUM_CARDS * k, view.piles[side]);
        }
        plane(out, next(), view.unseen);
        let building = decision
            .filter(|_| view.to_move == Some(seat))
            .and_then(Decision::building);
        let (card, taken) = building.map_or((CardSet::EMPTY, CardSet::EMPTY), |(_, c, t)| {
            (CardSet::single(c), t)
        });
        plane(out, next(), card);
        plane(out, next(), taken);
        let single = |c: Option<crate::game::card::Card>| c.map_or(CardSet::EMPTY, CardSet::single);
        plane(out, next(), single(view.cut_card));
        plane(out, next(), single(view.claimable));
        let at = next();
        out[at..].fill(0.0);
        for s in 0..n {
            out[at + rel(s as u8)] = f32::from(view.hand_sizes[s]) / 10.0;
        }
        out[next()] = f32::from(view.stock_size) / NUM_CARDS as f32;
        let (sweeps_at, declared_at, scores_at) = (next(), next(), next());
        let target = rules.target().max(1) as f32;
        for (k, &side) in sides[..num_sides].iter().enumerate() {
            out[sweeps_at + k] = f32::from(view.sweeps[side]) / 10.0;
            out[declared_at + k] = f32::from(view.declared[side]) / 10.0;
            out[scores_at + k] = view.scores[side] as f32 / target;
        }
        out[next()] = rules.target() as f32 / 100.0;
        out[next() + rel(view.dealer)] = 1.0;
        let at = next();
        if let Some(s) = view.to_move {
            out[at + rel(s)] = 1.0;
        }
        let at = next();
        if let Some(s) = view.last_capturer {
            out[at + rel(s)] = 1.0;
        }
        let phase = match view.phase {
            Phase::Cut => 0,
            Phase::Play if building.is_some() => 2,
            Phase::Play => 1,
            Phase::HandOver => 3,
            Phase::MatchOver => 4,
        };
        out[next() + phase] = 1.0;
        if self.full {
            let at = next();
            for s in 0..n {
                plane(out, at + NUM_CARDS * rel(s as u8), state.hand(s as u8));
            }
            let at = next();
            for (k, c) in state.stock().iter().enumerate() {
                out[at + c.index()] = 1.0 - k as f32 / NUM_CARDS as f32;
            }
            if let Some(c) = state.cut_card() {
                out[next() + c.index()] = 1.0;
            }
        }
    }
}

/// The four values of each 4-bit group of a card set, low bit first.
const NIBBLES: [[f32; 4]; 16] = {
    let mut t = [[0.0; 4]; 16];
    let mut n = 0;
    while n < 16 {
        let mut b = 0;
        while b < 4 {
            if n >> b & 1 == 1 {
                t[n][b] = 1.0;
            }
            b += 1;
        }
        n += 1;
    }
    t
};

/// Writes the card plane at `at`: 1.0 for each card of `set`, 0.0 for the others. Every value
/// is written, four at a time from a table, so that the plane needs no zeroing first.
#[inline]
fn plane(out: &mut [f32], at: usize, set: CardSet) {
    let bits = set.bits();
    for (k, four) in out[at..at + NUM_CARDS].chunks_exact_mut(4).enumerate() {
        four.copy_from_slice(&NIBBLES[(bits >> (4 * k)) as usize & 15]);
    }
}
