//! Rules configuration: the options of a variant, validated into a [`Rules`] with the tables the
//! hot loop reads (capture value per card, cards by capture value).
//!
//! Options use the spec's words (`rules.md` §7): an option is set by name with an [`OptionValue`],
//! so the binding crate and configuration files need no knowledge of the enum types.

use std::fmt;

use crate::error::Error;
use crate::game::card::{Card, NUM_CARDS, NUM_RANKS, Rank};
use crate::game::cardset::CardSet;
pub use crate::game::profile::Game;
use crate::game::profile::Profile;

/// Declares an option whose value is one of a few words, with the words in one place.
macro_rules! word_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $word:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vm])* $var),+
        }

        impl Word for $name {
            const ALL: &'static [$name] = &[$($name::$var),+];
            fn word(self) -> &'static str {
                match self {
                    $($name::$var => $word),+
                }
            }
        }
    };
}

/// An option value spelled as a word (`void`, `clockwise`, ...).
pub trait Word: Copy + 'static {
    /// Every value, in the order the documentation lists them.
    const ALL: &'static [Self];
    /// The value's word.
    fn word(self) -> &'static str;
}

word_enum! {
    /// How a played card captures (`capture`; S7, K9, E7, V-S11, V-S12).
    CaptureMode {
        /// An equal-value table card if there is one (S7, K9a), otherwise a set summing to the
        /// value.
        EqualThenSum = "match",
        /// The played card plus table cards totalling 15 (E7).
        Fifteen = "fifteen",
        /// Either of the above, the player's choice (Cirulla, Scopa a 15 with matching).
        MatchOrFifteen = "match_or_fifteen",
    }
}

word_enum! {
    /// Whether a sweep made by the final play of the hand scores (S-A4, K11, V-S5, V-K7).
    LastPlaySweep {
        /// The final play never scores a sweep (default).
        Void = "void",
        /// It scores like any other sweep.
        Counts = "counts",
    }
}

word_enum! {
    /// A side lacking a suit in the primiera / setenta (S-A2, V-S4).
    MissingSuit {
        /// No valid primiera; valid beats invalid, both invalid: nobody.
        Invalid = "invalid",
        /// The missing suit counts 0 and sums are compared.
        Zero = "zero",
    }
}

word_enum! {
    /// When the opening table is redealt (S5, K6, V-K4, V-S8, V-S12).
    Redeal {
        /// Never.
        Off = "off",
        /// Three or more kings.
        ThreeKings = "three_kings",
        /// Three or more cards of one rank.
        ThreeOfARank = "three_of_a_rank",
        /// Two or more aces (Cirulla).
        TwoAces = "two_aces",
        /// Any ace (scopa d'assi).
        AnyAce = "any_ace",
    }
}

word_enum! {
    /// Chkobba's face values (V-K1).
    FaceValues {
        /// Q=8, J=9, K=10.
        Tunisian = "tunisian",
        /// J=8, Q=9, K=10.
        Italian = "italian",
    }
}

word_enum! {
    /// The direction of play, dealing and the passing of the deal (V-K6).
    Direction {
        /// Seat `s + 1` follows seat `s` (the seeds' direction).
        Counterclockwise = "counterclockwise",
        /// Seat `s - 1` follows seat `s`.
        Clockwise = "clockwise",
    }
}

word_enum! {
    /// How the cards are dealt (G3, V-S9, V-S10).
    Deal {
        /// 3 each per round, 4 on the opening table, later rounds from the stock.
        Standard = "standard",
        /// Scopone: 9 each and 4 on the table, one round (4 players).
        Scopone = "scopone",
        /// Scopone scientifico: 10 each, no table, one round (4 players).
        Scientifico = "scientifico",
    }
}

word_enum! {
    /// The dealer's sweeps from the opening table (E5, V-E4, V-S12).
    OpeningSweeps {
        /// None.
        Off = "off",
        /// Total 15: 1 sweep; total 30: 2 sweeps.
        Sum = "sum",
        /// As `sum`, but 30 counts only if it splits into two groups of 15 (E-A1 variant).
        Partition = "partition",
    }
}

word_enum! {
    /// How the primiera / setenta category is decided (V-S3, V-E1, V-E2).
    PrimieraMode {
        /// The higher primiera total.
        Table = "table",
        /// More sevens, then sixes, aces, fives, fours, threes, twos.
        MostSevens = "most_sevens",
        /// A side with 3 or more sevens wins outright; otherwise the table.
        ThreeSevens = "three_sevens",
    }
}

word_enum! {
    /// Primiera points of the figures J, Q, K (V-S2).
    PrimieraFigures {
        /// 10 each.
        Flat = "flat",
        /// J 8, Q 9, K 10.
        Graded = "graded",
        /// 0 each.
        Zero = "zero",
    }
}

word_enum! {
    /// How Chkobba's bermila is decided (K14, V-K2).
    Bermila {
        /// More sevens, then more sixes (the seed).
        SevensThenSixes = "sevens_then_sixes",
        /// More sevens, then sixes, aces, fives, fours, threes, twos.
        Cascade = "cascade",
        /// The standard primiera table.
        Primiera = "primiera",
    }
}

word_enum! {
    /// How the J, Q, K cards are written (V-S14).
    Deck {
        /// J, Q, K.
        Standard = "standard",
        /// The numerals-only deck: 8, 9, 10.
        Numerals = "numerals",
    }
}

/// The fourth category of a hand's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrimeCategory {
    /// Best card per suit on the 7=21 ... chart (Scopa primiera, Escoba setenta).
    Primiera,
    /// More sevens, then more sixes (Chkobba bermila).
    Bermila,
}

impl PrimeCategory {
    /// The option that says how the category is decided: `primiera_mode` or `bermila`.
    pub fn option(self) -> &'static str {
        match self {
            PrimeCategory::Primiera => "primiera_mode",
            PrimeCategory::Bermila => "bermila",
        }
    }

    /// The values of that option, in the order the documentation lists them.
    pub fn modes(self) -> Vec<&'static str> {
        match self {
            PrimeCategory::Primiera => PrimieraMode::ALL.iter().map(|m| m.word()).collect(),
            PrimeCategory::Bermila => Bermila::ALL.iter().map(|m| m.word()).collect(),
        }
    }
}

/// A value given to an option by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A word such as `void`.
    Str(String),
    /// A number such as a target.
    Int(i64),
    /// A switch.
    Bool(bool),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Str(s) => f.write_str(s),
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// The options of a variant, before validation (docs/variants.md). Defaults are the seed
/// profiles.
#[allow(clippy::struct_excessive_bools)] // Each switch is an option of the spec's catalogue.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// The game.
    pub game: Game,
    /// 2, or 4 in partnerships.
    pub players: u8,
    /// Match target (S12, E12, K15, V-S15, V-E5, V-K3).
    pub target: u32,
    /// Direction of play (V-K6).
    pub direction: Direction,
    /// The deal (V-S9, V-S10).
    pub deal: Deal,
    /// Opening-table redeal condition.
    pub redeal: Redeal,
    /// The dealer's sweeps from the opening table.
    pub opening_sweeps: OpeningSweeps,
    /// How a played card captures.
    pub capture: CaptureMode,
    /// Only the captures with the fewest cards are legal (V-S13).
    pub fewest_cards: bool,
    /// A card that can capture must (K-A3); off: it may also trail (V-E6).
    pub compulsory_capture: bool,
    /// A missed capture may be claimed by the next player (V-E7).
    pub renuncio: bool,
    /// An ace takes the whole table (V-S8).
    pub ace_takes_all: bool,
    /// With an ace on the table, a played ace captures as an ordinary card.
    pub ace_takes_ace_only: bool,
    /// An ace taking the whole table scores a sweep.
    pub ace_sweep: bool,
    /// Cirulla declarations at each deal (V-S12).
    pub declarations: bool,
    /// Points for a hand of three totalling less than 10.
    pub declaration_low: u8,
    /// Points for three of a kind.
    pub declaration_triple: u8,
    /// The 7 of hearts is wild in declarations.
    pub declaration_wild: bool,
    /// Last-play sweep rule.
    pub last_play_sweep: LastPlaySweep,
    /// How the primiera is decided.
    pub primiera_mode: PrimieraMode,
    /// Primiera points of the figures.
    pub primiera_figures: PrimieraFigures,
    /// Primiera / setenta with a missing suit.
    pub primiera_missing_suit: MissingSuit,
    /// How the bermila is decided.
    pub bermila: Bermila,
    /// K of coins scores 1 (V-S6).
    pub re_bello: bool,
    /// A-2-3 of coins and its run score (V-S7).
    pub napola: bool,
    /// Most points a napola scores; 0 for no cap.
    pub napola_cap: u8,
    /// Points for J-Q-K of coins (Cirulla's grande); 0 for off.
    pub grande: u8,
    /// All ten coins win the match (Napoleone).
    pub all_coins_wins: bool,
    /// Extra points for all ten coins (V-E3).
    pub all_coins_bonus: u8,
    /// Points for all four sevens (V-E3).
    pub all_sevens_bonus: u8,
    /// Chkobba face values.
    pub chkobba_face_values: FaceValues,
    /// Chkobba: the cutter keeps or tables the cut card (K5, V-K5).
    pub cut_card: bool,
    /// How J, Q, K are written (V-S14).
    pub deck: Deck,
}

/// Names of the options, in the order [`Options::to_pairs`] lists them (docs/variants.md).
pub const OPTION_NAMES: [&str; 32] = [
    "target",
    "direction",
    "deal",
    "redeal",
    "opening_sweeps",
    "capture",
    "fewest_cards",
    "compulsory_capture",
    "renuncio",
    "ace_takes_all",
    "ace_takes_ace_only",
    "ace_sweep",
    "declarations",
    "declaration_low",
    "declaration_triple",
    "declaration_wild",
    "last_play_sweep",
    "primiera_mode",
    "primiera_figures",
    "primiera_missing_suit",
    "bermila",
    "re_bello",
    "napola",
    "napola_cap",
    "grande",
    "all_coins_wins",
    "all_coins_bonus",
    "all_sevens_bonus",
    "chkobba_face_values",
    "cut_card",
    "deck",
    // Accepted on input only (see `Options::set`); never listed by `to_pairs`.
    "initial_30_requires_partition",
];

/// Parses a word option; `bad` builds the error naming the option.
fn word<T: Word>(value: &OptionValue, bad: impl Fn(&str) -> Error) -> Result<T, Error> {
    let words: Vec<&str> = T::ALL.iter().map(|w| w.word()).collect();
    match value {
        OptionValue::Str(s) => T::ALL
            .iter()
            .copied()
            .find(|w| w.word() == s)
            .ok_or_else(|| bad(&words.join(" or "))),
        _ => Err(bad(&words.join(" or "))),
    }
}

fn word_of<T: Word>(x: T) -> OptionValue {
    OptionValue::Str(x.word().to_string())
}

impl Options {
    /// The seed profile of `game` for `players` players.
    pub fn new(game: Game, players: u8) -> Options {
        let profile = game.profile();
        Options {
            game,
            players,
            target: profile.target,
            direction: Direction::Counterclockwise,
            deal: Deal::Standard,
            redeal: profile.redeal,
            opening_sweeps: profile.opening_sweeps,
            capture: profile.capture,
            fewest_cards: false,
            compulsory_capture: true,
            renuncio: false,
            ace_takes_all: false,
            ace_takes_ace_only: true,
            ace_sweep: false,
            declarations: false,
            declaration_low: 3,
            declaration_triple: 10,
            declaration_wild: true,
            last_play_sweep: LastPlaySweep::Void,
            primiera_mode: PrimieraMode::Table,
            primiera_figures: PrimieraFigures::Flat,
            primiera_missing_suit: MissingSuit::Invalid,
            bermila: Bermila::SevensThenSixes,
            re_bello: false,
            napola: false,
            napola_cap: 0,
            grande: 0,
            all_coins_wins: false,
            all_coins_bonus: 0,
            all_sevens_bonus: 0,
            chkobba_face_values: FaceValues::Tunisian,
            cut_card: profile.cut_card,
            deck: Deck::Standard,
        }
    }

    /// Sets option `name`; the error names the option and the value.
    pub fn set(&mut self, name: &str, value: &OptionValue) -> Result<(), Error> {
        if !OPTION_NAMES.contains(&name) {
            return Err(Error::Variant(format!(
                "unknown option (expected one of {}): {name}",
                OPTION_NAMES[..OPTION_NAMES.len() - 1].join(", ")
            )));
        }
        if !self.game.has_option(name) {
            let games = Game::ALL.into_iter().filter(|g| g.has_option(name));
            let names: Vec<&str> = games.map(Game::name).collect();
            return Err(Error::Variant(format!(
                "option `{name}` applies only to {}, not to: {}",
                names.join(" and "),
                self.game.name()
            )));
        }
        let bad = |expected: &str| {
            Error::Variant(format!("option `{name}` expects {expected}, got: {value}"))
        };
        // A string where a number or a bool is due is shown quoted: "11" is not 11.
        let bad_type = |expected: &str| match value {
            OptionValue::Str(s) => Error::Variant(format!(
                "option `{name}` expects {expected}, got a string: {s:?}"
            )),
            _ => bad(expected),
        };
        let boolean = || match value {
            OptionValue::Bool(b) => Ok(*b),
            _ => Err(bad_type("true or false")),
        };
        let int = |lo: i64, hi: i64| match value {
            OptionValue::Int(i) if (lo..=hi).contains(i) => Ok(*i),
            _ => Err(bad_type(&format!("a whole number from {lo} to {hi}"))),
        };
        let small = |hi: i64| int(0, hi).map(|i| i as u8);
        match name {
            "target" => self.target = int(1, 10_000)? as u32,
            "direction" => self.direction = word(value, bad)?,
            "deal" => self.deal = word(value, bad)?,
            "redeal" => self.redeal = word(value, bad)?,
            "opening_sweeps" => self.opening_sweeps = word(value, bad)?,
            "capture" => self.capture = word(value, bad)?,
            "fewest_cards" => self.fewest_cards = boolean()?,
            "compulsory_capture" => self.compulsory_capture = boolean()?,
            "renuncio" => self.renuncio = boolean()?,
            "ace_takes_all" => self.ace_takes_all = boolean()?,
            "ace_takes_ace_only" => self.ace_takes_ace_only = boolean()?,
            "ace_sweep" => self.ace_sweep = boolean()?,
            "declarations" => self.declarations = boolean()?,
            "declaration_low" => self.declaration_low = small(40)?,
            "declaration_triple" => self.declaration_triple = small(40)?,
            "declaration_wild" => self.declaration_wild = boolean()?,
            "last_play_sweep" => self.last_play_sweep = word(value, bad)?,
            "primiera_mode" => self.primiera_mode = word(value, bad)?,
            "primiera_figures" => self.primiera_figures = word(value, bad)?,
            "primiera_missing_suit" => self.primiera_missing_suit = word(value, bad)?,
            "bermila" => self.bermila = word(value, bad)?,
            "re_bello" => self.re_bello = boolean()?,
            "napola" => self.napola = boolean()?,
            "napola_cap" => {
                let cap = small(10)?;
                if cap == 1 || cap == 2 {
                    return Err(bad("0 (no cap) or a whole number from 3 to 10"));
                }
                self.napola_cap = cap;
            }
            "grande" => self.grande = small(100)?,
            "all_coins_wins" => self.all_coins_wins = boolean()?,
            "all_coins_bonus" => self.all_coins_bonus = small(100)?,
            "all_sevens_bonus" => self.all_sevens_bonus = small(100)?,
            "chkobba_face_values" => self.chkobba_face_values = word(value, bad)?,
            "cut_card" => self.cut_card = boolean()?,
            "deck" => self.deck = word(value, bad)?,
            "initial_30_requires_partition" => {
                if boolean()? {
                    self.opening_sweeps = OpeningSweeps::Partition;
                } else if self.opening_sweeps == OpeningSweeps::Partition {
                    self.opening_sweeps = OpeningSweeps::Sum;
                }
            }
            _ => unreachable!("every name of OPTION_NAMES has an arm"),
        }
        Ok(())
    }

    /// The value of option `name`, or `None` for an unknown name or the input-only alias.
    pub fn get(&self, name: &str) -> Option<OptionValue> {
        let b = OptionValue::Bool;
        let i = |x: u8| OptionValue::Int(i64::from(x));
        Some(match name {
            "target" => OptionValue::Int(i64::from(self.target)),
            "direction" => word_of(self.direction),
            "deal" => word_of(self.deal),
            "redeal" => word_of(self.redeal),
            "opening_sweeps" => word_of(self.opening_sweeps),
            "capture" => word_of(self.capture),
            "fewest_cards" => b(self.fewest_cards),
            "compulsory_capture" => b(self.compulsory_capture),
            "renuncio" => b(self.renuncio),
            "ace_takes_all" => b(self.ace_takes_all),
            "ace_takes_ace_only" => b(self.ace_takes_ace_only),
            "ace_sweep" => b(self.ace_sweep),
            "declarations" => b(self.declarations),
            "declaration_low" => i(self.declaration_low),
            "declaration_triple" => i(self.declaration_triple),
            "declaration_wild" => b(self.declaration_wild),
            "last_play_sweep" => word_of(self.last_play_sweep),
            "primiera_mode" => word_of(self.primiera_mode),
            "primiera_figures" => word_of(self.primiera_figures),
            "primiera_missing_suit" => word_of(self.primiera_missing_suit),
            "bermila" => word_of(self.bermila),
            "re_bello" => b(self.re_bello),
            "napola" => b(self.napola),
            "napola_cap" => i(self.napola_cap),
            "grande" => i(self.grande),
            "all_coins_wins" => b(self.all_coins_wins),
            "all_coins_bonus" => i(self.all_coins_bonus),
            "all_sevens_bonus" => i(self.all_sevens_bonus),
            "chkobba_face_values" => word_of(self.chkobba_face_values),
            "cut_card" => b(self.cut_card),
            "deck" => word_of(self.deck),
            _ => return None,
        })
    }

    /// Every option that applies to the game with its value, in [`OPTION_NAMES`] order. Setting
    /// these pairs on `Options::new(game, players)` gives back `self`.
    pub fn to_pairs(&self) -> Vec<(&'static str, OptionValue)> {
        OPTION_NAMES
            .iter()
            .filter(|n| self.game.has_option(n))
            .filter_map(|&n| self.get(n).map(|v| (n, v)))
            .collect()
    }

    /// Refuses contradictory combinations, naming the option and why.
    fn check(&self) -> Result<(), Error> {
        let fail = |m: String| Err(Error::Variant(m));
        if self.players != 2 && self.players != 4 {
            return fail(format!(
                "players must be 2, or 4 in partnerships, got: {}",
                self.players
            ));
        }
        // The fields are public: each value that differs from the game's default goes through
        // `set` again, which holds the ranges and the games an option applies to.
        let defaults = Options::new(self.game, self.players);
        let mut again = defaults.clone();
        for name in OPTION_NAMES {
            if let Some(value) = self.get(name)
                && defaults.get(name) != Some(value.clone())
            {
                again.set(name, &value)?;
            }
        }
        if self.deal != Deal::Standard && self.players != 4 {
            let (each, table) = if self.deal == Deal::Scopone {
                (9, 4)
            } else {
                (10, 0)
            };
            return fail(format!(
                "option `deal` = {} needs 4 players: with {} it deals {} x {each} + {table} = {} \
                 cards, not 40",
                self.deal.word(),
                self.players,
                self.players,
                u32::from(self.players) * each + table
            ));
        }
        if self.renuncio && self.compulsory_capture {
            return fail(
                "option `renuncio` needs `compulsory_capture` = false: a capture cannot be \
                 missed when it is compulsory"
                    .into(),
            );
        }
        if self.declarations && self.deal != Deal::Standard {
            return fail(format!(
                "option `declarations` needs `deal` = standard: declarations are made on hands \
                 of 3 cards, got deal: {}",
                self.deal.word()
            ));
        }
        let default = Options::new(self.game, self.players);
        let needs = |sub: &str, parent: &str, on: bool| -> Result<(), Error> {
            if !on && self.get(sub) != default.get(sub) {
                return Err(Error::Variant(format!(
                    "option `{sub}` = {} needs `{parent}` = true",
                    self.get(sub).expect("a known option")
                )));
            }
            Ok(())
        };
        needs("ace_takes_ace_only", "ace_takes_all", self.ace_takes_all)?;
        needs("ace_sweep", "ace_takes_all", self.ace_takes_all)?;
        needs("declaration_low", "declarations", self.declarations)?;
        needs("declaration_triple", "declarations", self.declarations)?;
        needs("declaration_wild", "declarations", self.declarations)?;
        needs("napola_cap", "napola", self.napola)?;
        Ok(())
    }
}

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
