//! The [`Bot`] trait: a player that chooses a move from what its seat can see.

use crate::game::action::Move;
use crate::game::rules::Rules;
use crate::game::view::LazyView;

/// A player.
pub trait Bot: Send {
    /// Chooses one of `legal` (never empty) for the seat of `view`. A bot that needs what the
    /// seat sees calls [`LazyView::get`]; one that chooses from `legal` alone never builds it.
    ///
    /// `legal` must be the legal moves of the view's position under `rules`, the rules its
    /// state was made with (as a simulation passes them). The built-in bots may panic on a view
    /// and a move list that contradict each other.
    fn choose(&mut self, rules: &Rules, view: &LazyView<'_>, legal: &[Move]) -> Move;
}
