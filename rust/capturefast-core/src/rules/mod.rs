//! The three games' profiles. The mechanics are shared ([`crate::capture`], [`crate::state`],
//! [`crate::score`]) and read the [`crate::Rules`] tables; each file here states one game's rules
//! and tests them on the spec's worked examples.

mod chkobba;
mod escoba;
mod scopa;
