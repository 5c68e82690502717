//! What one seat can see: its hand, the table, the piles (every captured card was shown face up
//! when it was taken), sweeps, scores, the hand sizes and stock size, and a cut card it was shown.
//! Nothing else: the other hands and the stock order are hidden, and only their union,
//! [`View::unseen`], is known.
//!
//! A [`LazyView`] is how a bot is handed its view: it builds the [`View`] on first use, so a bot
//! that never reads it (the uniform baselines) costs the simulation no view at all. It exposes
//! nothing but that view.

use crate::game::card::Card;
use crate::game::cardset::CardSet;
use crate::game::state::{Phase, State};

/// One seat's view of a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct View {
    /// The observing seat.
    pub seat: u8,
    /// Number of players.
    pub num_players: u8,
    /// The seat's own hand.
    pub hand: CardSet,
    /// The table.
    pub table: CardSet,
    /// Captured cards per side.
    pub piles: [CardSet; 2],
    /// Sweeps per side this hand.
    pub sweeps: [u8; 2],
    /// Cirulla declaration points per side this hand (declarations are public).
    pub declared: [u8; 2],
    /// Match scores.
    pub scores: [u32; 2],
    /// Cards in each seat's hand.
    pub hand_sizes: [u8; 4],
    /// Cards left in the stock.
    pub stock_size: u8,
    /// The dealer.
    pub dealer: u8,
    /// The seat to move, if the hand is being played.
    pub to_move: Option<u8>,
    /// The seat that captured last.
    pub last_capturer: Option<u8>,
    /// The pending cut card, shown only to the cutter.
    pub cut_card: Option<Card>,
    /// Renuncio: the card just trailed that the seat to move may claim (it is on the table).
    pub claimable: Option<Card>,
    /// The phase.
    pub phase: Phase,
    /// Cards this seat cannot see: the other hands, the stock and a cut card it was not shown.
    pub unseen: CardSet,
}

impl View {
    /// Cards still to be played this hand: every hand plus the stock.
    pub fn cards_left(&self) -> u32 {
        let hands = &self.hand_sizes[..usize::from(self.num_players)];
        hands.iter().map(|&h| u32::from(h)).sum::<u32>() + u32::from(self.stock_size)
    }

    /// Whether `self` can be an earlier view, by the same seat, of the hand `later` shows (or
    /// that view itself): same seat, players, dealer and match score; every card it saw still
    /// seen, every captured card still in its side's pile, no count (sweeps, declarations)
    /// lower and no card more left to play. A view of another deal, hand or seat almost
    /// always fails; what is checked of the moves a bot is told before it decides.
    pub fn may_precede(&self, later: &View) -> bool {
        let same = (self.seat, self.num_players, self.dealer, self.scores)
            == (later.seat, later.num_players, later.dealer, later.scores);
        let piles = (0..2).all(|s| {
            later.piles[s].is_superset(self.piles[s])
                && later.sweeps[s] >= self.sweeps[s]
                && later.declared[s] >= self.declared[s]
        });
        same && piles
            && self.unseen.is_superset(later.unseen)
            && self.stock_size >= later.stock_size
            && self.cards_left() >= later.cards_left()
    }
}

impl State {
    /// The view of `seat` (which must be below the number of players).
    pub fn view(&self, seat: u8) -> View {
        let n = self.num_players();
        let hand = self.hand(seat);
        let cut_card = self.shown_cut_card(seat);
        // Seats beyond the players hold no cards: zero without counting them.
        let hand_sizes = std::array::from_fn(|s| {
            let s = s as u8;
            if s < n { self.hand(s).len() as u8 } else { 0 }
        });
        View {
            seat,
            num_players: n,
            hand,
            table: self.table(),
            piles: self.piles(),
            sweeps: self.sweeps(),
            declared: self.declared(),
            scores: self.scores(),
            hand_sizes,
            stock_size: self.stock().len() as u8,
            dealer: self.dealer(),
            to_move: self.to_move(),
            last_capturer: self.last_capturer(),
            cut_card,
            claimable: self.claimable(),
            phase: self.phase(),
            unseen: self.unseen_by(seat),
        }
    }

    /// The pending cut card if `seat` was shown it (the cutter, who is to move).
    fn shown_cut_card(&self, seat: u8) -> Option<Card> {
        self.cut_card().filter(|_| self.to_move() == Some(seat))
    }

    /// The cards `seat` cannot see: the other hands, the stock, a cut card it was not shown.
    fn unseen_by(&self, seat: u8) -> CardSet {
        let seen = self.hand(seat) | self.table() | self.pile(0) | self.pile(1);
        !self
            .shown_cut_card(seat)
            .map_or(seen, |c| seen | CardSet::single(c))
    }
}

/// One seat's [`View`], built from the state only if asked for (or given ready-made).
///
/// It holds the state privately and hands out nothing but the seat's view: what a bot may see is
/// the same whether or not it reads it.
#[derive(Clone, Copy, Debug)]
pub struct LazyView<'a>(Source<'a>);

#[derive(Clone, Copy, Debug)]
enum Source<'a> {
    State(&'a State, u8),
    View(&'a View),
}

impl<'a> LazyView<'a> {
    /// The view of `seat` (which must be below the number of players) of `state`, not built yet.
    pub fn new(state: &'a State, seat: u8) -> LazyView<'a> {
        LazyView(Source::State(state, seat))
    }

    /// The seat's view. Each call builds it from the state (no cache, which would cost a copy
    /// of the view on every decision): a bot reads it once.
    pub fn get(&self) -> View {
        match self.0 {
            Source::View(view) => *view,
            Source::State(state, seat) => state.view(seat),
        }
    }

    /// The observing seat (known without building the view).
    pub fn seat(&self) -> u8 {
        match self.0 {
            Source::View(view) => view.seat,
            Source::State(_, seat) => seat,
        }
    }

    // A few fields of the view read without building it, for bots that read only those.

    /// The table ([`View::table`]).
    pub fn table(&self) -> CardSet {
        match self.0 {
            Source::View(view) => view.table,
            Source::State(state, _) => state.table(),
        }
    }

    /// Captured cards per side ([`View::piles`]).
    pub fn piles(&self) -> [CardSet; 2] {
        match self.0 {
            Source::View(view) => view.piles,
            Source::State(state, _) => state.piles(),
        }
    }

    /// The cards the seat cannot see ([`View::unseen`]).
    pub fn unseen(&self) -> CardSet {
        match self.0 {
            Source::View(view) => view.unseen,
            Source::State(state, seat) => state.unseen_by(seat),
        }
    }

    /// Cards still to be played this hand: every hand plus the stock (the sum of
    /// [`View::hand_sizes`] and [`View::stock_size`]).
    pub fn cards_left(&self) -> u32 {
        match self.0 {
            Source::View(view) => view.cards_left(),
            // The state's count includes a pending cut card, which the view's does not.
            Source::State(state, _) => state.cards_left() - u32::from(state.cut_card().is_some()),
        }
    }
}

impl<'a> From<&'a View> for LazyView<'a> {
    /// A view already built.
    fn from(view: &'a View) -> LazyView<'a> {
        LazyView(Source::View(view))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::Rng;
    use crate::game::rules::{Game, Rules};

    #[test]
    fn lazy_fields_are_the_view_s() {
        // Every seat at every step of random hands, the Chkobba cut phase included.
        let mut rng = Rng::new(8);
        let mut moves = Vec::new();
        for game in [Game::Scopa, Game::Escoba, Game::Chkobba] {
            for players in [2, 4] {
                let rules = Rules::profile(game, players).unwrap();
                for _ in 0..20 {
                    let mut state = State::new(&rules, rng.next_u64());
                    while !state.hand_over() {
                        for seat in 0..players {
                            let view = state.view(seat);
                            for lazy in [LazyView::new(&state, seat), LazyView::from(&view)] {
                                assert_eq!(lazy.get(), view);
                                assert_eq!(lazy.seat(), seat);
                                assert_eq!(lazy.table(), view.table);
                                assert_eq!(lazy.piles(), view.piles);
                                assert_eq!(lazy.unseen(), view.unseen);
                                let hands: u32 =
                                    view.hand_sizes.iter().map(|&h| u32::from(h)).sum();
                                assert_eq!(lazy.cards_left(), hands + u32::from(view.stock_size));
                            }
                        }
                        state.legal_moves(&rules, &mut moves);
                        state
                            .apply_unchecked(&rules, moves[rng.below(moves.len() as u64) as usize]);
                    }
                }
            }
        }
    }
}
