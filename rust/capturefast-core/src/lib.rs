//! capturefast-core: the rules engine of the capture card games Scopa, Escoba and Chkobba, for
//! 2 players or 4 in partnerships.
//!
//! Cards are small integers ([`Card`]), card sets are `u64` masks ([`CardSet`]), a [`Move`]
//! names the played card and the exact captured set, a [`State`] is a few masks and small arrays
//! that copy cheaply, and [`Rules`] holds the variant's options and lookup tables. The rules are
//! stated in `docs/rules.md`; the engine's own conventions (card ids, RNG, deal order) in
//! `docs/conventions.md`.
//!
//! Five layers, each using only those before it: [`game`] (the rules themselves), [`eval`]
//! (what a position is worth), [`search`] (solver, round search, PIMC, ISMCTS, analysis) and
//! [`play`] (bots and batch simulation), with [`learn`] (action space, observations, vector
//! environment) on top; [`parallel`] and the [`Error`] type serve them all.
//! The most used items are re-exported here.
#![forbid(unsafe_code)]

mod error;
pub mod eval;
pub mod game;
pub mod learn;
pub mod parallel;
pub mod play;
pub mod search;

pub use error::Error;
pub use game::action::{Move, MoveKind};
pub use game::capture::{Opening, TableIndex};
pub use game::card::{Card, NUM_CARDS, NUM_RANKS, NUM_SUITS, Rank, Suit};
pub use game::cardset::{CardSet, CardSetIter};
pub use game::history::{GameView, Hand, Ply, Seen};
pub use game::notation::{STATE_FIELDS, VIEW_FIELDS, rules_text};
pub use game::perft::{perft, perft_divide};
pub use game::presets::{PRESETS, Preset, Setting};
pub use game::record::RecordReader;
pub use game::rng::Rng;
pub use game::rules::{
    Bermila, CaptureMode, Deal, Deck, Direction, FaceValues, Game, HAND_SIZE, LastPlaySweep,
    MissingSuit, OPENING_TABLE, OPTION_NAMES, OpeningSweeps, OptionValue, Options, PrimeCategory,
    PrimieraFigures, PrimieraMode, Redeal, Rules, Word,
};
pub use game::score::{BONUS_NAMES, HandScore, PRIMIERA_POINTS, SideCounts};
pub use game::state::{Phase, Position, State};
pub use game::view::{LazyView, View};
pub use game::world::{Draw, determinize, is_open};
pub use play::bots::{Bot, BotKind};
pub use play::expert::{EXPERT_MODEL_BETA, ExpertBot, ExpertModel};
pub use play::greedy::GreedyBot;
pub use search::analysis::{Horizon, analyze, analyze_informed, analyze_to};
pub use search::horizon::{Evaluation, FITTED_SWEEP_WEIGHT, default_sweep_weight, sweep_chance};
pub use search::infer::{Inference, PlayModel, SEARCH_MODEL_WORLDS, SearchModel};
pub use search::ismcts::IsmctsBot;
pub use search::pimc::PimcBot;
pub use search::solver::{Interrupt, Solution, Solver, Watch, solver_shortcuts_exact};
