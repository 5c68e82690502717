//! The games themselves: cards, card sets, moves, the rules and their options, one profile per
//! game, capture enumeration, scoring, the state and its transitions, what a seat sees, the
//! random generator, perft, the presets and the position notation.
//!
//! This layer depends on nothing above it (`eval`, `search`, `play`): every rule of
//! `docs/rules.md` is decided here and only here.

pub mod action;
pub mod capture;
pub mod card;
pub mod cardset;
pub mod games;
pub mod history;
pub mod notation;
pub mod options;
pub mod perft;
pub mod presets;
pub mod profile;
pub mod record;
pub mod rng;
pub mod rules;
pub mod score;
pub mod state;
pub mod view;
pub mod words;
pub mod world;
