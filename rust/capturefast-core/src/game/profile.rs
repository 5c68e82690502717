//! What makes each game itself: one [`Profile`] per [`Game`], with the game's rules in prose
//! beside it (`games/scopa.rs`, `games/escoba.rs`, `games/chkobba.rs`).
//!
//! The mechanics (dealing, capture, sweeps, scoring) are shared and read the [`Rules`] tables;
//! a game differs only in the facts here. [`Options::new`](crate::Options::new) starts from them,
//! [`Rules`] builds its value table and fourth category from them, the option checks ask a
//! profile which options apply, and the reports read the category and sweep names.
//!
//! [`Rules`]: crate::Rules

use crate::error::Error;
use crate::game::games;
use crate::game::rules::{CaptureMode, OpeningSweeps, PrimeCategory, Redeal};

/// The three games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    /// Scopa, GameRules.com profile (`docs/rules.md` §3).
    Scopa,
    /// Escoba (§4).
    Escoba,
    /// Chkobba, Tunisian profile (§2).
    Chkobba,
}

/// The facts of one game.
#[derive(Debug, PartialEq, Eq)]
pub struct Profile {
    /// The game's name: `scopa`, `escoba`, `chkobba`.
    pub name: &'static str,
    /// The game's byte in [`State::encode`](crate::State::encode).
    pub code: u8,
    /// Match target (S12, E12, K15).
    pub target: u32,
    /// When the opening table is redealt (S5, K6; none in Escoba).
    pub redeal: Redeal,
    /// How a played card captures (S7, E7, K9).
    pub capture: CaptureMode,
    /// The dealer's sweeps from the opening table (E5).
    pub opening_sweeps: OpeningSweeps,
    /// Capture values of J, Q, K (S3, E3, K3).
    pub face_values: [u8; 3],
    /// The fourth scoring category (S11, E11, K14).
    pub prime: PrimeCategory,
    /// The ranks (indexes into `A 2 3 4 5 6 7 J Q K`) that the sevens cascade compares, in
    /// order: the `most_sevens` primiera mode (V-S3, V-E2), and Chkobba's `cascade` bermila
    /// (V-K2).
    pub sevens_cascade: &'static [usize],
    /// Names of the four categories, in the order of
    /// [`HandScore::awards`](crate::HandScore::awards).
    pub category_names: [&'static str; 4],
    /// The game's word for a sweep, and its plural (the sweeps row of a report).
    pub sweep_name: (&'static str, &'static str),
    /// Whether the Chkobba cut card is played (K5).
    pub cut_card: bool,
    /// The options that only some games have and this one has (every other option of
    /// [`OPTION_NAMES`](crate::OPTION_NAMES) applies to all three games).
    pub own_options: &'static [&'static str],
}

impl Game {
    /// The three games, in the order of their codes.
    pub const ALL: [Game; 3] = [Game::Scopa, Game::Escoba, Game::Chkobba];

    /// The game's profile.
    pub fn profile(self) -> &'static Profile {
        match self {
            Game::Scopa => &games::scopa::PROFILE,
            Game::Escoba => &games::escoba::PROFILE,
            Game::Chkobba => &games::chkobba::PROFILE,
        }
    }

    /// The game's name: `scopa`, `escoba`, `chkobba`.
    pub fn name(self) -> &'static str {
        self.profile().name
    }

    /// Parses a game name.
    pub fn from_name(name: &str) -> Result<Game, Error> {
        Game::ALL
            .into_iter()
            .find(|g| g.name() == name)
            .ok_or_else(|| {
                Error::Variant(format!(
                    "unknown game (expected scopa, escoba or chkobba): {name}"
                ))
            })
    }

    /// The game whose [`Profile::code`] is `code`.
    pub fn from_code(code: u8) -> Option<Game> {
        Game::ALL.into_iter().find(|g| g.profile().code == code)
    }

    /// Whether option `name` (one of [`OPTION_NAMES`](crate::OPTION_NAMES)) applies to this
    /// game: every game's options, and those of its own profile.
    pub fn has_option(self, name: &str) -> bool {
        let own = |g: Game| g.profile().own_options.contains(&name);
        own(self) || !Game::ALL.into_iter().any(own)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_codes_round_trip() {
        for game in Game::ALL {
            assert_eq!(Game::from_name(game.name()).unwrap(), game);
            assert_eq!(Game::from_code(game.profile().code), Some(game));
        }
        assert!(Game::from_name("briscola").is_err());
    }

    #[test]
    fn options_apply_to_the_games_that_list_them() {
        assert!(Game::Chkobba.has_option("cut_card"));
        assert!(!Game::Scopa.has_option("cut_card"));
        assert!(Game::Escoba.has_option("initial_30_requires_partition"));
        assert!(!Game::Chkobba.has_option("primiera_mode"));
        for game in Game::ALL {
            assert!(game.has_option("target"));
        }
    }
}
