//! What makes each game itself: one [`Profile`] per [`Game`](crate::Game), with the game's rules
//! in prose beside it (`games/scopa.rs`, `games/escoba.rs`, `games/chkobba.rs`).
//!
//! The mechanics (dealing, capture, sweeps, scoring) are shared and read the [`Rules`] tables;
//! a game differs only in the facts here. [`Options::new`](crate::Options::new) starts from them,
//! [`Rules`] builds its value table and fourth category from them, the option checks ask a
//! profile which options apply, and the reports read the category and sweep names.
//!
//! [`Rules`]: crate::Rules

use crate::game::words::{CaptureMode, OpeningSweeps, PrimeCategory, Redeal};

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
