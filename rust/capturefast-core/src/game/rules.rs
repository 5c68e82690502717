//! Validated rules: the [`Options`] of a variant turned into the tables the hot loop reads
//! (capture value per card, cards by capture value, the seat after each seat), with the facts
//! of the game's [`Profile`].

use crate::error::Error;
use crate::game::card::{Card, NUM_CARDS, NUM_RANKS, Rank};
use crate::game::cardset::CardSet;
pub use crate::game::games::Game;
pub use crate::game::options::{OPTION_NAMES, Options};
use crate::game::profile::Profile;
pub use crate::game::words::{
    Bermila, CaptureMode, Deal, Deck, Direction, FaceValues, LastPlaySweep, MissingSuit,
    OpeningSweeps, OptionValue, PrimeCategory, PrimieraFigures, PrimieraMode, Redeal, Word,
};

/// Validated rules with the lookup tables the engine reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    options: Options,
    /// Capture value of each card id.
    values: [u8; NUM_CARDS],
    /// Cards by capture value (index 1..=10).
    by_value: [CardSet; 16],
    /// Cards of capture value at most the index.
    up_to_value: [u64; 16],
    capture_mode: CaptureMode,
    prime: PrimeCategory,
    /// `ace_takes_all` or `fewest_cards`: captures go through the general path of
    /// `for_each_capture`.
    special_captures: bool,
    /// The seat after each seat in the direction of play.
    next: [u8; 4],
}

impl AsRef<Rules> for Rules {
    fn as_ref(&self) -> &Rules {
        self
    }
}

/// Cards each player holds after a deal round.
pub const HAND_SIZE: u8 = 3;
/// Cards on the opening table.
pub const OPENING_TABLE: u8 = 4;

impl Rules {
    /// Validates `options` into rules.
    pub fn new(options: Options) -> Result<Rules, Error> {
        options.check()?;
        let faces: [u8; 3] = match options.chkobba_face_values {
            FaceValues::Tunisian => options.game.profile().face_values,
            // V-K1: the Italian order, J=8, Q=9 (the option applies to Chkobba only).
            FaceValues::Italian => [8, 9, 10],
        };
        let mut values = [0u8; 40];
        let mut by_value = [CardSet::EMPTY; 16];
        for c in Card::all() {
            let r = c.rank().index();
            let v = if r < 7 { r as u8 + 1 } else { faces[r - 7] };
            values[c.index()] = v;
            by_value[usize::from(v)].insert(c);
        }
        let mut up_to_value = [0u64; 16];
        for v in 1..16 {
            up_to_value[v] = up_to_value[v - 1] | by_value[v].0;
        }
        let special_captures = options.ace_takes_all || options.fewest_cards;
        let n = options.players;
        let mut next = [0u8; 4];
        for (seat, nx) in next.iter_mut().enumerate().take(usize::from(n)) {
            let seat = seat as u8;
            *nx = match options.direction {
                Direction::Counterclockwise => (seat + 1) % n,
                Direction::Clockwise => (seat + n - 1) % n,
            };
        }
        Ok(Rules {
            next,
            special_captures,
            capture_mode: options.capture,
            prime: options.game.profile().prime,
            options,
            values,
            by_value,
            up_to_value,
        })
    }

    /// The seed profile of `game`, with `players` players.
    pub fn profile(game: Game, players: u8) -> Result<Rules, Error> {
        Rules::new(Options::new(game, players))
    }

    /// The options these rules were built from.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The game.
    pub fn game(&self) -> Game {
        self.options.game
    }

    /// Number of players (2 or 4).
    pub fn num_players(&self) -> u8 {
        self.options.players
    }

    /// Match target.
    pub fn target(&self) -> u32 {
        self.options.target
    }

    /// The capture mode.
    pub fn capture_mode(&self) -> CaptureMode {
        self.capture_mode
    }

    /// Whether a capture option goes beyond the `capture` mode (`ace_takes_all`,
    /// `fewest_cards`); decided once when the rules are built.
    #[inline]
    pub fn special_captures(&self) -> bool {
        self.special_captures
    }

    /// Whether a card with a capture option must capture (K-A3; off: V-E6).
    #[inline]
    pub fn compulsory_capture(&self) -> bool {
        self.options.compulsory_capture
    }

    /// Whether a missed capture may be claimed by the next player (V-E7).
    #[inline]
    pub fn renuncio(&self) -> bool {
        self.options.renuncio
    }

    /// The fourth scoring category.
    pub fn prime_category(&self) -> PrimeCategory {
        self.prime
    }

    /// Capture value of `card` (1..=10).
    pub fn value(&self, card: Card) -> u8 {
        self.values[card.index()]
    }

    /// Capture values by card id.
    #[inline]
    pub(crate) fn values(&self) -> &[u8; NUM_CARDS] {
        &self.values
    }

    /// The mask of the cards of capture value at most `v` (below 16).
    #[inline]
    pub(crate) fn up_to_value(&self, v: u8) -> u64 {
        self.up_to_value[usize::from(v & 15)]
    }

    /// Cards whose capture value is `v` (empty outside 1..=10).
    pub fn cards_of_value(&self, v: u8) -> CardSet {
        self.by_value
            .get(usize::from(v))
            .copied()
            .unwrap_or(CardSet::EMPTY)
    }

    /// Sum of capture values of `set`.
    pub fn total(&self, set: CardSet) -> u32 {
        set.iter().map(|c| u32::from(self.value(c))).sum()
    }

    /// Whether the Chkobba cut-card decision is played.
    pub fn has_cut_card(&self) -> bool {
        self.game_profile().cut_card && self.options.cut_card
    }

    /// Cards each player holds after a deal (3, or 9 / 10 for the Scopone deals).
    pub fn hand_size(&self) -> u8 {
        match self.options.deal {
            Deal::Standard => HAND_SIZE,
            Deal::Scopone => 9,
            Deal::Scientifico => 10,
        }
    }

    /// Cards on the opening table (4, or 0 for Scopone scientifico).
    pub fn opening_table_size(&self) -> u8 {
        match self.options.deal {
            Deal::Standard | Deal::Scopone => OPENING_TABLE,
            Deal::Scientifico => 0,
        }
    }

    /// The most points one side can score in a hand under these rules: a bound on a hand's
    /// margin ([`crate::HandScore::margin`]) either way, for the learning interfaces' value
    /// ranges. Each sweep is a capture by one of the side's plays, and the dealer's side may
    /// also sweep the opening table at most twice; each category is one point; each seat
    /// declares at most once a deal; and the pile bonuses count at their largest.
    pub fn max_hand_points(&self) -> u32 {
        let o = &self.options;
        let players = u32::from(self.num_players());
        let per_seat = (NUM_CARDS as u32 - u32::from(self.opening_table_size())) / players;
        let seats_per_side = players / 2;
        let plays = per_seat * seats_per_side;
        let opening_sweeps = if o.opening_sweeps == OpeningSweeps::Off {
            0
        } else {
            2
        };
        let deals = per_seat.div_ceil(u32::from(self.hand_size()));
        let declarations = if o.declarations {
            seats_per_side * deals * u32::from(o.declaration_triple.max(o.declaration_low))
        } else {
            0
        };
        let napola = match (o.napola, o.napola_cap) {
            (false, _) => 0,
            (true, 0) => 10,
            (true, cap) => u32::from(cap).min(10),
        };
        let bonuses = u32::from(o.re_bello)
            + napola
            + u32::from(o.grande)
            + u32::from(o.all_coins_bonus)
            + u32::from(o.all_sevens_bonus);
        plays + opening_sweeps + 4 + declarations + bonuses
    }

    /// The seat that follows `seat` in the direction of play (V-K6).
    #[inline]
    pub fn next_seat(&self, seat: u8) -> u8 {
        self.next[usize::from(seat & 3)]
    }

    /// The side of `seat`: partners are the seats of equal parity.
    pub fn side(seat: u8) -> usize {
        usize::from(seat & 1)
    }

    /// The facts of the game these rules play.
    pub fn game_profile(&self) -> &'static Profile {
        self.options.game.profile()
    }

    /// The game's word for a sweep and its plural (`scopa` / `scope`, ...).
    pub fn sweep_name(&self) -> (&'static str, &'static str) {
        self.game_profile().sweep_name
    }

    /// Names of the four categories, in the order of [`crate::HandScore::awards`].
    pub fn category_names(&self) -> [&'static str; 4] {
        self.game_profile().category_names
    }

    /// Whether the opening `table` must be redealt under these rules (S5, K6).
    pub fn must_redeal(&self, table: CardSet) -> bool {
        match self.options.redeal {
            Redeal::Off => false,
            Redeal::ThreeKings => (table & CardSet::rank(Rank::KING.index())).len() >= 3,
            Redeal::ThreeOfARank => (0..NUM_RANKS).any(|r| (table & CardSet::rank(r)).len() >= 3),
            Redeal::TwoAces => (table & CardSet::rank(Rank::ACE.index())).len() >= 2,
            Redeal::AnyAce => !(table & CardSet::rank(Rank::ACE.index())).is_empty(),
        }
    }
}
