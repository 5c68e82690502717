//! One profile per game: its rules in prose, and the facts `Options` and `Rules` read.

mod chkobba;
mod escoba;
mod scopa;
