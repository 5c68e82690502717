//! The one error type of the core. Every input-dependent failure is an [`Error`]; the binding
//! crate maps each variant to one Python exception class.

/// Why the core refused an input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A card string or id that names no card of the 40-card deck.
    #[error("unknown card: {0}")]
    InvalidCard(String),
    /// The same card given twice where each card may appear once.
    #[error("card given more than once: {0}")]
    DuplicateCard(String),
    /// A move that is not legal in this state (or the hand is over).
    #[error("illegal move: {0}")]
    IllegalMove(String),
    /// A move string that does not parse.
    #[error("cannot parse move: {0}")]
    BadMove(String),
    /// An invalid or unsupported rule option or combination.
    #[error("{0}")]
    Variant(String),
    /// Bytes that are not an encoded state.
    #[error("cannot decode state: {0}")]
    Decode(String),
    /// An argument outside its range or set of values (a horizon, a budget).
    #[error("{0}")]
    Argument(String),
    /// A position that cannot arise in a game under these rules.
    #[error("{0}")]
    Position(String),
    /// A search stopped by a time limit or a stop before it ended (not bad input: the same
    /// search given more time ends).
    #[error("{0}")]
    Stopped(String),
    /// A line of the position notation (`docs/notation.md`) refused: the field at fault and
    /// why.
    #[error("notation field `{field}`: {why}")]
    Notation {
        /// The field's name (`hands`, `stock`, `rules`, ...).
        field: String,
        /// Why it was refused, the offending value last.
        why: String,
    },
}
