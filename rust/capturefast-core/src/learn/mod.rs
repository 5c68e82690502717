//! Learning interfaces: a fixed action space, observation encodings and a vector environment.
//!
//! - [`actions`]: action ids that always mean the same card or decision; a move is built in
//!   one to a few actions under an exact legal-action mask.
//! - [`obs`]: a seat's observation as named `float32` planes, and the full-information
//!   encoding of a state.
//! - [`env`](mod@env): `N` games stepped in one call on a thread pool, the other seats played by
//!   built-in bots, with auto-reset and per-game seeds.
//!
//! The top layer: it uses `game` (moves, views, scoring) and `play` (the bots that hold the
//! other seats); nothing below uses it.

pub mod actions;
pub mod env;
pub mod obs;
