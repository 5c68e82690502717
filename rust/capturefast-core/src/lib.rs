//! capturefast-core: the rules engine of the capture card games Scopa, Escoba and Chkobba, for
//! 2 players or 4 in partnerships.
//!
//! Cards are small integers ([`Card`]), card sets are `u64` masks ([`CardSet`]), a [`Move`]
//! names the played card and the exact captured set, a [`State`] is a few masks and small arrays
//! that copy cheaply, and [`Rules`] holds the variant's options and lookup tables. The rules are
//! specified in `shared/spec/rules.md`; the engine's own conventions (card ids, RNG, deal order)
//! in `docs/conventions.md`.
#![forbid(unsafe_code)]

mod action;
pub mod bots;
mod capture;
mod card;
mod cardset;
mod error;
pub mod horizon;
pub mod ismcts;
mod observe;
mod perft;
mod rng;
mod rules;
mod score;
pub mod sim;
pub mod solve;
mod state;
mod variant;

pub use action::{Move, MoveKind};
pub use bots::{Bot, BotKind, ExpertBot, GreedyBot};
pub use capture::{Opening, TableIndex};
pub use card::{Card, NUM_CARDS, NUM_RANKS, NUM_SUITS, Rank, Suit};
pub use cardset::{CardSet, CardSetIter};
pub use error::Error;
pub use ismcts::IsmctsBot;
pub use observe::{LazyView, View};
pub use perft::{perft, perft_divide};
pub use rng::Rng;
pub use score::{BONUS_NAMES, HandScore, PRIMIERA_POINTS, SideCounts};
pub use solve::{
    Horizon, PimcBot, Solution, Solver, analyze, analyze_to, determinize, is_open,
    solver_shortcuts_exact,
};
pub use state::{Phase, Position, State};
pub use variant::{
    Bermila, CaptureMode, Deal, Deck, Direction, FaceValues, Game, HAND_SIZE, LastPlaySweep,
    MissingSuit, OPENING_TABLE, OPTION_NAMES, OpeningSweeps, OptionValue, Options, PrimeCategory,
    PrimieraFigures, PrimieraMode, Redeal, Rules, Word,
};
