//! The one error type of the core. Every input-dependent failure is an [`Error`]; the binding
//! crate maps each variant to one Python exception class.

use std::fmt::{self, Display, Write};

/// Why the core refused an input. A message names the bad value as it was given, except that
/// each control character in it is written as `\xNN`: a message is one printable line,
/// whatever the input held.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A card string or id that names no card of the 40-card deck.
    #[error("unknown card: {}", Shown(.0))]
    InvalidCard(String),
    /// The same card given twice where each card may appear once.
    #[error("card given more than once: {}", Shown(.0))]
    DuplicateCard(String),
    /// A move that is not legal in this state (or the hand is over).
    #[error("illegal move: {}", Shown(.0))]
    IllegalMove(String),
    /// A move string that does not parse.
    #[error("cannot parse move: {}", Shown(.0))]
    BadMove(String),
    /// An invalid or unsupported rule option or combination.
    #[error("{}", Shown(.0))]
    Variant(String),
    /// Bytes that are not an encoded state.
    #[error("cannot decode state: {}", Shown(.0))]
    Decode(String),
    /// An argument outside its range or set of values (a horizon, a budget).
    #[error("{}", Shown(.0))]
    Argument(String),
    /// A position that cannot arise in a game under these rules.
    #[error("{}", Shown(.0))]
    Position(String),
    /// A search stopped by a time limit, a stop or a node budget before it ended (not bad
    /// input: the same search given more time or nodes ends).
    #[error("{}", Shown(.0))]
    Stopped(String),
    /// A position the exact solver gave up on past its node limit
    /// ([`PLAIN_NODE_LIMIT`](crate::search::solver::PLAIN_NODE_LIMIT)): too large to solve
    /// under these rules; a later position of the hand solves.
    #[error("{}", Shown(.0))]
    TooLarge(String),
    /// A line of the position notation (`docs/notation.md`) refused: the field at fault and
    /// why.
    #[error("notation field `{}`: {}", Shown(.field), Shown(.why))]
    Notation {
        /// The field's name (`hands`, `stock`, `rules`, ...).
        field: String,
        /// Why it was refused, the offending value last.
        why: String,
    },
    /// A game record (`docs/records.md`) refused where it is at fault: rendered
    /// `game 2, hand 1, move 4 (line 11): why`, each part that is known.
    #[error("{}", record_text(*.game, *.line, *.hand, *.ply, .why))]
    Record {
        /// Why it was refused, the offending value last.
        why: String,
        /// The game of a file, from 0 (none when one game is read).
        game: Option<usize>,
        /// The line, from 1.
        line: Option<usize>,
        /// The hand, from 0, for a fault in a deal or a move.
        hand: Option<usize>,
        /// The move of the hand, from 0, for a fault in a move.
        ply: Option<usize>,
    },
}

/// The text of [`Error::Record`]: where, counted from 1 as a person counts, then why.
fn record_text(
    game: Option<usize>,
    line: Option<usize>,
    hand: Option<usize>,
    ply: Option<usize>,
    why: &str,
) -> String {
    let mut s = String::new();
    if let Some(g) = game {
        let _ = write!(s, "game {}, ", g + 1);
    }
    match (hand, line) {
        (Some(h), _) => {
            let _ = write!(s, "hand {}", h + 1);
            if let Some(p) = ply {
                let _ = write!(s, ", move {}", p + 1);
            }
            if let Some(l) = line {
                let _ = write!(s, " (line {l})");
            }
            s.push_str(": ");
        }
        (None, Some(l)) => {
            let _ = write!(s, "line {l}: ");
        }
        (None, None) => {}
    }
    let _ = write!(s, "{}", Shown(why));
    s
}

/// Text shown with its control characters (NUL, escape, line breaks, DEL, C1) written as `\xNN`,
/// the rest as it is, but for the line break before a `hint: ` line: a message's own hint.
struct Shown<'a>(&'a str);

/// What begins a message's hint line.
const HINT: &str = "\nhint: ";

impl Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.0.char_indices() {
            if c.is_control() && !self.0[i..].starts_with(HINT) {
                write!(f, "\\x{:02x}", u32::from(c))?;
            } else {
                f.write_char(c)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Error;

    #[test]
    fn control_characters_in_a_bad_value_are_escaped() {
        let e = Error::InvalidCard("7\0D\u{1b}[2J\n\u{9b}x".to_string());
        assert_eq!(e.to_string(), "unknown card: 7\\x00D\\x1b[2J\\x0a\\x9bx");
        let e = Error::Notation {
            field: "rules".to_string(),
            why: "unknown preset: s\tc\u{7f}".to_string(),
        };
        assert_eq!(
            e.to_string(),
            "notation field `rules`: unknown preset: s\\x09c\\x7f"
        );
        assert_eq!(Error::Argument("é ½".to_string()).to_string(), "é ½");
        // A message's own hint line stays a line.
        let e = Error::IllegalMove("x\ny: 7\n\nhint: play a legal move".to_string());
        assert_eq!(
            e.to_string(),
            "illegal move: x\\x0ay: 7\\x0a\nhint: play a legal move"
        );
    }
}
