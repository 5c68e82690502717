//! The three games: [`Game`], and one file per game with its rules in prose and its
//! [`Profile`].

pub(crate) mod chkobba;
pub(crate) mod escoba;
pub(crate) mod scopa;

use crate::error::Error;
use crate::game::profile::Profile;

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

impl Game {
    /// The three games, in the order of their codes.
    pub const ALL: [Game; 3] = [Game::Scopa, Game::Escoba, Game::Chkobba];

    /// The game's profile.
    pub fn profile(self) -> &'static Profile {
        match self {
            Game::Scopa => &scopa::PROFILE,
            Game::Escoba => &escoba::PROFILE,
            Game::Chkobba => &chkobba::PROFILE,
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
