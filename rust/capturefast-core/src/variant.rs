//! Rules configuration: the options of a variant, validated into a [`Rules`] with the tables the
//! hot loop reads (capture value per card, cards by capture value).
//!
//! Options use the spec's words (`rules.md` §7): an option is set by name with an [`OptionValue`],
//! so the binding crate and configuration files need no knowledge of the enum types.

use std::fmt;

use crate::card::{Card, NUM_RANKS, Rank};
use crate::cardset::CardSet;
use crate::error::Error;

/// The three games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    /// Scopa, GameRules.com profile (spec §3).
    Scopa,
    /// Escoba (spec §4).
    Escoba,
    /// Chkobba, Tunisian profile (spec §2).
    Chkobba,
}

impl Game {
    /// The game's name: `scopa`, `escoba`, `chkobba`.
    pub fn name(self) -> &'static str {
        match self {
            Game::Scopa => "scopa",
            Game::Escoba => "escoba",
            Game::Chkobba => "chkobba",
        }
    }

    /// Parses a game name.
    pub fn from_name(name: &str) -> Result<Game, Error> {
        match name {
            "scopa" => Ok(Game::Scopa),
            "escoba" => Ok(Game::Escoba),
            "chkobba" => Ok(Game::Chkobba),
            _ => Err(Error::Variant(format!(
                "unknown game (expected scopa, escoba or chkobba): {name}"
            ))),
        }
    }
}

/// How a played card captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureMode {
    /// An equal-value table card if there is one (S7, K9a), otherwise a set summing to the value.
    EqualThenSum,
    /// The played card plus table cards totalling 15 (E7).
    Fifteen,
}

/// Whether a sweep made by the final play of the hand scores (S-A4, K11, V-S5, V-K7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LastPlaySweep {
    /// The final play never scores a sweep (default for Scopa and Chkobba).
    Void,
    /// It scores like any other sweep.
    Counts,
}

/// A side lacking a suit in the primiera / setenta (S-A2, V-S4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MissingSuit {
    /// No valid primiera; valid beats invalid, both invalid: nobody.
    Invalid,
    /// The missing suit counts 0 and sums are compared.
    Zero,
}

/// When the opening table is redealt (S5, K6, V-K4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Redeal {
    /// Never.
    Off,
    /// Three or more kings.
    ThreeKings,
    /// Three or more cards of one rank.
    ThreeOfARank,
}

/// Chkobba's face values (V-K1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaceValues {
    /// Q=8, J=9, K=10.
    Tunisian,
    /// J=8, Q=9, K=10.
    Italian,
}

/// The fourth category of a hand's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrimeCategory {
    /// Best card per suit on the 7=21 ... chart (Scopa primiera, Escoba setenta).
    Primiera,
    /// More sevens, then more sixes (Chkobba bermila).
    Bermila,
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

/// The options of a variant, before validation. Defaults are the seed profiles.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// The game.
    pub game: Game,
    /// 2, or 4 in partnerships.
    pub players: u8,
    /// Match target (S12, E12, K15).
    pub target: u32,
    /// Last-play sweep rule.
    pub last_play_sweep: LastPlaySweep,
    /// Primiera / setenta with a missing suit.
    pub primiera_missing_suit: MissingSuit,
    /// Escoba: an opening total of 30 scores only if it splits into 15 + 15 (E-A1, V-E4).
    pub initial_30_requires_partition: bool,
    /// Chkobba face values.
    pub chkobba_face_values: FaceValues,
    /// Chkobba: the cutter keeps or tables the cut card (K5, V-K5).
    pub cut_card: bool,
    /// Opening-table redeal condition.
    pub redeal: Redeal,
}

/// Names of the options, in the order [`Options::to_pairs`] lists them.
pub const OPTION_NAMES: [&str; 7] = [
    "target",
    "last_play_sweep",
    "primiera_missing_suit",
    "initial_30_requires_partition",
    "chkobba_face_values",
    "cut_card",
    "redeal",
];

impl Options {
    /// The seed profile of `game` for `players` players.
    pub fn new(game: Game, players: u8) -> Options {
        Options {
            game,
            players,
            target: match game {
                Game::Scopa => 11,
                Game::Escoba | Game::Chkobba => 21,
            },
            last_play_sweep: LastPlaySweep::Void,
            primiera_missing_suit: MissingSuit::Invalid,
            initial_30_requires_partition: false,
            chkobba_face_values: FaceValues::Tunisian,
            cut_card: game == Game::Chkobba,
            redeal: match game {
                Game::Scopa => Redeal::ThreeKings,
                Game::Escoba => Redeal::Off,
                Game::Chkobba => Redeal::ThreeOfARank,
            },
        }
    }

    /// Sets option `name`; the error names the option and the value.
    pub fn set(&mut self, name: &str, value: &OptionValue) -> Result<(), Error> {
        let bad = |expected: &str| {
            Error::Variant(format!("option `{name}` expects {expected}, got: {value}"))
        };
        let word = |choices: &[&str]| -> Result<usize, Error> {
            let expected = choices.join(" or ");
            match value {
                OptionValue::Str(s) => choices
                    .iter()
                    .position(|c| c == s)
                    .ok_or_else(|| bad(&expected)),
                _ => Err(bad(&expected)),
            }
        };
        let game_only = |game: Game| -> Result<(), Error> {
            if self.game == game {
                Ok(())
            } else {
                Err(Error::Variant(format!(
                    "option `{name}` applies only to {}, not to: {}",
                    game.name(),
                    self.game.name()
                )))
            }
        };
        match name {
            "target" => match value {
                OptionValue::Int(t) if (1..=10_000).contains(t) => self.target = *t as u32,
                _ => return Err(bad("a whole number from 1 to 10000")),
            },
            "last_play_sweep" => {
                self.last_play_sweep =
                    [LastPlaySweep::Void, LastPlaySweep::Counts][word(&["void", "counts"])?];
            }
            "primiera_missing_suit" => {
                if self.game == Game::Chkobba {
                    return Err(Error::Variant(format!(
                        "option `{name}` applies only to scopa and escoba, not to: chkobba"
                    )));
                }
                self.primiera_missing_suit =
                    [MissingSuit::Invalid, MissingSuit::Zero][word(&["invalid", "zero"])?];
            }
            "initial_30_requires_partition" => {
                game_only(Game::Escoba)?;
                match value {
                    OptionValue::Bool(b) => self.initial_30_requires_partition = *b,
                    _ => return Err(bad("true or false")),
                }
            }
            "chkobba_face_values" => {
                game_only(Game::Chkobba)?;
                self.chkobba_face_values =
                    [FaceValues::Tunisian, FaceValues::Italian][word(&["tunisian", "italian"])?];
            }
            "cut_card" => {
                game_only(Game::Chkobba)?;
                match value {
                    OptionValue::Bool(b) => self.cut_card = *b,
                    _ => return Err(bad("true or false")),
                }
            }
            "redeal" => {
                game_only(Game::Chkobba)?;
                self.redeal = [Redeal::ThreeOfARank, Redeal::ThreeKings, Redeal::Off]
                    [word(&["three_of_a_rank", "three_kings", "off"])?];
            }
            _ => {
                return Err(Error::Variant(format!(
                    "unknown option (expected one of {}): {name}",
                    OPTION_NAMES.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// Every option with its value, in [`OPTION_NAMES`] order, skipping those that do not apply
    /// to the game. Setting these pairs on `Options::new(game, players)` gives back `self`.
    pub fn to_pairs(&self) -> Vec<(&'static str, OptionValue)> {
        let s = |x: &str| OptionValue::Str(x.to_string());
        let mut v = vec![
            ("target", OptionValue::Int(i64::from(self.target))),
            (
                "last_play_sweep",
                s(match self.last_play_sweep {
                    LastPlaySweep::Void => "void",
                    LastPlaySweep::Counts => "counts",
                }),
            ),
        ];
        if self.game != Game::Chkobba {
            v.push((
                "primiera_missing_suit",
                s(match self.primiera_missing_suit {
                    MissingSuit::Invalid => "invalid",
                    MissingSuit::Zero => "zero",
                }),
            ));
        }
        if self.game == Game::Escoba {
            v.push((
                "initial_30_requires_partition",
                OptionValue::Bool(self.initial_30_requires_partition),
            ));
        }
        if self.game == Game::Chkobba {
            v.push((
                "chkobba_face_values",
                s(match self.chkobba_face_values {
                    FaceValues::Tunisian => "tunisian",
                    FaceValues::Italian => "italian",
                }),
            ));
            v.push(("cut_card", OptionValue::Bool(self.cut_card)));
        }
        if self.game == Game::Chkobba {
            v.push((
                "redeal",
                s(match self.redeal {
                    Redeal::Off => "off",
                    Redeal::ThreeKings => "three_kings",
                    Redeal::ThreeOfARank => "three_of_a_rank",
                }),
            ));
        }
        v
    }
}

/// Validated rules with the lookup tables the engine reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    options: Options,
    /// Capture value of each card id.
    values: [u8; 40],
    /// Cards by capture value (index 1..=10).
    by_value: [CardSet; 16],
    /// Capture value of each rank.
    rank_values: [u8; 10],
    capture_mode: CaptureMode,
    prime: PrimeCategory,
}

/// Cards each player holds after a deal round.
pub const HAND_SIZE: u8 = 3;
/// Cards on the opening table.
pub const OPENING_TABLE: u8 = 4;

impl Rules {
    /// Validates `options` into rules.
    pub fn new(options: Options) -> Result<Rules, Error> {
        if options.players != 2 && options.players != 4 {
            return Err(Error::Variant(format!(
                "players must be 2, or 4 in partnerships, got: {}",
                options.players
            )));
        }
        let faces: [u8; 3] = match (options.game, options.chkobba_face_values) {
            (Game::Chkobba, FaceValues::Tunisian) => [9, 8, 10],
            _ => [8, 9, 10],
        };
        let mut values = [0u8; 40];
        let mut by_value = [CardSet::EMPTY; 16];
        for c in Card::all() {
            let r = c.rank().index();
            let v = if r < 7 { r as u8 + 1 } else { faces[r - 7] };
            values[c.index()] = v;
            by_value[usize::from(v)].insert(c);
        }
        let mut rank_values = [0u8; 10];
        for (r, rv) in rank_values.iter_mut().enumerate() {
            *rv = values[r * 4];
        }
        Ok(Rules {
            rank_values,
            capture_mode: match options.game {
                Game::Escoba => CaptureMode::Fifteen,
                Game::Scopa | Game::Chkobba => CaptureMode::EqualThenSum,
            },
            prime: match options.game {
                Game::Chkobba => PrimeCategory::Bermila,
                Game::Scopa | Game::Escoba => PrimeCategory::Primiera,
            },
            options,
            values,
            by_value,
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

    /// The fourth scoring category.
    pub fn prime_category(&self) -> PrimeCategory {
        self.prime
    }

    /// Capture value of `card` (1..=10).
    pub fn value(&self, card: Card) -> u8 {
        self.values[card.index()]
    }

    /// Capture value of the rank with index `rank`.
    #[inline]
    pub fn rank_value(&self, rank: u8) -> u8 {
        self.rank_values[usize::from(rank)]
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
        self.options.game == Game::Chkobba && self.options.cut_card
    }

    /// The side of `seat`: partners are the seats of equal parity.
    pub fn side(seat: u8) -> usize {
        usize::from(seat & 1)
    }

    /// Names of the four categories, in the order of [`crate::HandScore::awards`].
    pub fn category_names(&self) -> [&'static str; 4] {
        match self.options.game {
            Game::Scopa => ["cards", "coins", "settebello", "primiera"],
            Game::Escoba => ["cards", "coins", "velo", "setenta"],
            Game::Chkobba => ["karta", "dinari", "7ayya", "bermila"],
        }
    }

    /// Whether the opening `table` must be redealt under these rules (S5, K6).
    pub fn must_redeal(&self, table: CardSet) -> bool {
        match self.options.redeal {
            Redeal::Off => false,
            Redeal::ThreeKings => (table & CardSet::rank(Rank::KING.index())).len() >= 3,
            Redeal::ThreeOfARank => (0..NUM_RANKS).any(|r| (table & CardSet::rank(r)).len() >= 3),
        }
    }
}
