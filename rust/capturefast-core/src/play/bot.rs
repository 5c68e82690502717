//! The [`Bot`] trait: a player that chooses a move from what its seat can see.

use crate::game::action::Move;
use crate::game::rules::Rules;
use crate::game::view::{LazyView, View};
use crate::search::solver::Interrupt;

/// A player.
pub trait Bot: Send {
    /// Chooses one of `legal` (never empty) for the seat of `view`. A bot that needs what the
    /// seat sees calls [`LazyView::get`]; one that chooses from `legal` alone never builds it.
    ///
    /// `legal` must be the legal moves of the view's position under `rules`, the rules its
    /// state was made with (as a simulation passes them). The built-in bots may panic on a view
    /// and a move list that contradict each other.
    fn choose(&mut self, rules: &Rules, view: &LazyView<'_>, legal: &[Move]) -> Move;

    /// Whether the bot wants to be told of the moves played ([`Bot::observe`]). The built-in
    /// drivers (simulations, tournaments, the vector env) tell a bot only if it asks: the
    /// default is no.
    fn observes(&self) -> bool {
        false
    }

    /// Told of each move played at the table while the bot sits at it, by any seat (its own
    /// too), just before the move is applied: `before` is the bot's own seat's view then, `seat`
    /// the mover. A bot that reasons about the others' play keeps what it needs; the default
    /// forgets it.
    fn observe(&mut self, _rules: &Rules, _before: &View, _seat: u8, _mv: Move) {}

    /// Ends the bot's decisions early once `interrupt` is due: one of its flags set (from any
    /// thread) or its deadline passed (an instant: it bounds the decisions made before it). A
    /// search bot then plays the best move of what it has searched, at least one world or
    /// iteration; its node budget is not read. The default ignores it: the other bots decide
    /// in microseconds.
    fn set_interrupt(&mut self, _interrupt: Interrupt) {}

    /// Whether the bot's last decision was ended early, by its interrupt or its own time
    /// limit, before its whole budget was searched (its move might differ from the one it
    /// plays given the time). The default: never.
    fn stopped(&self) -> bool {
        false
    }
}
