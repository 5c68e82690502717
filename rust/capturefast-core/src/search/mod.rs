//! Searches: the exact solver, the round search of one sampled world, PIMC, ISMCTS and the
//! analysis of a seat's moves over sampled worlds.
//!
//! Depends on `game` and `eval`, never on `play`: the bots that wrap these searches are built
//! in `play`.

pub mod analysis;
pub mod batch;
pub mod horizon;
pub mod infer;
pub mod ismcts;
pub mod pimc;
pub mod solver;
