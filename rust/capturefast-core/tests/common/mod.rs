//! Helpers shared by the integration tests: rules from option pairs, cards from notation.
// Each test crate uses some of these.
#![allow(dead_code)]

use capturefast_core::{Card, CardSet, Game, OptionValue, Options, Rules};

/// The rules of `game` for `players` with the options `opts` set by name.
pub fn rules(game: Game, players: u8, opts: &[(&str, OptionValue)]) -> Rules {
    let mut o = Options::new(game, players);
    for (name, value) in opts {
        o.set(name, value).unwrap();
    }
    Rules::new(o).unwrap()
}

/// A word option value.
pub fn word(s: &str) -> OptionValue {
    OptionValue::Str(s.to_string())
}

pub const ON: OptionValue = OptionValue::Bool(true);
pub const OFF: OptionValue = OptionValue::Bool(false);

/// A card from its notation.
pub fn c(s: &str) -> Card {
    s.parse().unwrap()
}

/// A card set from notations.
pub fn set(cards: &[&str]) -> CardSet {
    cards.iter().map(|s| c(s)).collect()
}
