//! The named variants of `docs/variants.md` ("Presets"): a game, a default player count and the
//! options that differ from the game's defaults. They are data, not rules: each is an
//! [`Options`] built through [`Options::set`], so every check of the options applies.
//!
//! The presets live here, in the core, because the position notation (`game/notation.rs`)
//! writes a rule set as a preset name plus the options that differ from it; the Python package
//! reads this table (`_core.presets`) rather than keeping a copy.

use crate::error::Error;
use crate::game::games::Game;
use crate::game::options::{OPTION_NAMES, Options};
use crate::game::rules::Rules;
use crate::game::words::OptionValue;

/// An option value as a preset's table spells it (a `const`-friendly [`OptionValue`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// A word such as `fifteen`.
    Word(&'static str),
    /// A whole number.
    Int(i64),
    /// A switch.
    Bool(bool),
}

impl Setting {
    /// The value as the options take it.
    pub fn value(self) -> OptionValue {
        match self {
            Setting::Word(w) => OptionValue::Str(w.to_string()),
            Setting::Int(i) => OptionValue::Int(i),
            Setting::Bool(b) => OptionValue::Bool(b),
        }
    }
}

/// A named variant: a game, its default player count and the options that differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// The name (`cirulla`).
    pub name: &'static str,
    /// The game it plays.
    pub game: Game,
    /// The player count when none is asked for.
    pub players: u8,
    /// A one-line name for listings.
    pub title: &'static str,
    /// The options that differ from the game's defaults, in the table's order.
    pub overrides: &'static [(&'static str, Setting)],
}

/// Every preset, in the order of docs/variants.md.
pub const PRESETS: [Preset; 8] = [
    Preset {
        name: "scopa",
        game: Game::Scopa,
        players: 2,
        title: "Scopa, 2 or 4 players, to 11",
        overrides: &[],
    },
    Preset {
        name: "scopone",
        game: Game::Scopa,
        players: 4,
        title: "Scopone: 4 players, 9 cards each",
        overrides: &[("deal", Setting::Word("scopone"))],
    },
    Preset {
        name: "scopone_scientifico",
        game: Game::Scopa,
        players: 4,
        title: "Scopone scientifico: 4 players, all 40 cards dealt",
        overrides: &[("deal", Setting::Word("scientifico"))],
    },
    Preset {
        name: "scopa_a_15",
        game: Game::Scopa,
        players: 2,
        title: "Scopa a 15: captures total 15",
        overrides: &[("capture", Setting::Word("fifteen"))],
    },
    Preset {
        name: "scopa_d_assi",
        game: Game::Scopa,
        players: 2,
        title: "Scopa d'assi: an ace takes all",
        overrides: &[("ace_takes_all", Setting::Bool(true))],
    },
    Preset {
        name: "cirulla",
        game: Game::Scopa,
        players: 2,
        title: "Cirulla: match or 15, ace takes all, declarations, to 51",
        overrides: &[
            ("capture", Setting::Word("match_or_fifteen")),
            ("ace_takes_all", Setting::Bool(true)),
            ("ace_sweep", Setting::Bool(true)),
            ("redeal", Setting::Word("two_aces")),
            ("opening_sweeps", Setting::Word("sum")),
            ("declarations", Setting::Bool(true)),
            ("napola", Setting::Bool(true)),
            ("grande", Setting::Int(5)),
            ("all_coins_wins", Setting::Bool(true)),
            ("target", Setting::Int(51)),
        ],
    },
    Preset {
        name: "escoba",
        game: Game::Escoba,
        players: 2,
        title: "Escoba: captures total 15, to 21",
        overrides: &[],
    },
    Preset {
        name: "chkobba",
        game: Game::Chkobba,
        players: 2,
        title: "Chkobba: Tunisian rules, to 21",
        overrides: &[],
    },
];

impl Preset {
    /// The preset called `name` (`-` may stand for `_`, any case).
    ///
    /// # Errors
    /// [`Error::Variant`] naming the unknown preset and listing the known ones.
    pub fn named(name: &str) -> Result<&'static Preset, Error> {
        let key = name.trim().to_ascii_lowercase().replace('-', "_");
        PRESETS.iter().find(|p| p.name == key).ok_or_else(|| {
            let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
            Error::Variant(format!(
                "unknown preset (expected one of {}): {name}",
                names.join(", ")
            ))
        })
    }

    /// The preset's options for `players` players (its own count if `None`), not yet checked.
    ///
    /// # Errors
    /// An override refused by [`Options::set`] (none of the table's are).
    pub fn options(&self, players: Option<u8>) -> Result<Options, Error> {
        let mut o = Options::new(self.game, players.unwrap_or(self.players));
        for (name, setting) in self.overrides {
            o.set(name, &setting.value())?;
        }
        Ok(o)
    }
}

/// The options of `options` that differ from `base`'s, in [`OPTION_NAMES`] order, as name and
/// value; setting them on `base` gives `options` back (both are of one game).
pub fn differences(base: &Options, options: &Options) -> Vec<(&'static str, OptionValue)> {
    OPTION_NAMES
        .iter()
        .filter(|n| options.game.has_option(n))
        .filter_map(|&n| {
            let value = options.get(n)?;
            (base.get(n).as_ref() != Some(&value)).then_some((n, value))
        })
        .collect()
}

/// The preset nearest to `rules` and the options that differ from it: among the presets of the
/// game valid for its player count, the one with the fewest differences (the first in table
/// order on a tie). The canonical way to name a rule set in the notation.
pub fn nearest(rules: &Rules) -> (&'static Preset, Vec<(&'static str, OptionValue)>) {
    let options = rules.options();
    PRESETS
        .iter()
        .filter(|p| p.game == options.game)
        .filter_map(|p| {
            let base = p.options(Some(options.players)).ok()?;
            Rules::new(base.clone()).ok()?;
            Some((p, differences(&base, options)))
        })
        .min_by_key(|(_, d)| d.len())
        .expect("each game's own preset is valid for 2 and 4 players")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_for_its_players_and_nearest_to_itself() {
        for p in &PRESETS {
            let rules = Rules::new(p.options(None).unwrap()).unwrap();
            let (near, diff) = nearest(&rules);
            assert_eq!((near.name, diff), (p.name, vec![]));
        }
    }

    #[test]
    fn differences_set_on_the_base_give_the_options_back() {
        let mut o = Options::new(Game::Scopa, 2);
        o.set("target", &OptionValue::Int(21)).unwrap();
        o.set("capture", &OptionValue::Str("fifteen".into()))
            .unwrap();
        let rules = Rules::new(o.clone()).unwrap();
        let (near, diff) = nearest(&rules);
        assert_eq!(near.name, "scopa_a_15");
        let mut again = near.options(Some(2)).unwrap();
        for (n, v) in &diff {
            again.set(n, v).unwrap();
        }
        assert_eq!(again, o);
    }

    #[test]
    fn unknown_preset_is_named() {
        let e = Preset::named("briscola").unwrap_err();
        assert!(e.to_string().ends_with(": briscola"), "{e}");
        assert_eq!(Preset::named("Scopa-D-Assi").unwrap().name, "scopa_d_assi");
    }
}
