//! The options of a variant (`docs/variants.md`), set and read by name with the spec's words, and
//! checked for contradictions before [`Rules::new`](crate::Rules::new) builds on them.
//!
//! Options are set by name with an [`OptionValue`], so the binding crate and configuration
//! files need no knowledge of the enum types.

use crate::error::Error;
use crate::game::games::Game;
use crate::game::words::{
    Bermila, CaptureMode, Deal, Deck, Direction, FaceValues, LastPlaySweep, MissingSuit,
    OpeningSweeps, OptionValue, PrimieraFigures, PrimieraMode, Redeal, Word,
};

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
                "option `{name}` expects {expected}, got a string: \"{s}\""
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
    pub(crate) fn check(&self) -> Result<(), Error> {
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
