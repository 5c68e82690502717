//! One profile per game: its rules in prose, and the facts `Options` and `Rules` read.

pub(crate) mod chkobba;
pub(crate) mod escoba;
pub(crate) mod scopa;
