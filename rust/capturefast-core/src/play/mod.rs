//! Players and games played: the `Bot` trait, the heuristic bots, the registry of built-in
//! bots, batch simulation, and one decision of a bot asked from outside (`query`).
//!
//! The top layer: it may use `game`, `eval` and `search`; nothing below uses it.

pub mod bot;
pub mod bots;
pub mod expert;
pub mod greedy;
pub mod query;
pub mod sim;
#[cfg(test)]
mod tests;
