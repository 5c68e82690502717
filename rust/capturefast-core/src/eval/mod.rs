//! What a position is worth: the expected category points of the piles and the value of a
//! sweep, shared by the heuristic bots (`play`) and the searches (`search`).
//!
//! Depends on `game` only.

pub mod choice;
pub mod cut;
pub mod equity;
pub mod fitted;
mod fitted_tables;
pub mod sweep;
