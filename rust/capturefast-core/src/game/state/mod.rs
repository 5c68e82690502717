//! The game state: a few `u64` masks and small arrays, cheap to copy, advanced by moves.
//!
//! A [`State`] does not own its [`Rules`]: every method that needs them takes `&Rules`, so a
//! search or a simulation copies 130 bytes per node and shares one rules table. The deal order of
//! the current hand lives in `deck`; `deck[deck_pos..]` is the stock (docs/conventions.md).

use crate::error::Error;
use crate::game::action::{Move, MoveKind};
use crate::game::capture::{TableIndex, keep_fewest};
use crate::game::card::{Card, NUM_CARDS, Rank, Suit};
use crate::game::cardset::CardSet;
use crate::game::rng::Rng;
use crate::game::rules::{CaptureMode, Deal, LastPlaySweep, OpeningSweeps, Rules, Word};
use crate::game::score::HandScore;

const NO_SEAT: u8 = u8::MAX;
/// `claim` when no card may be claimed.
const NO_CARD: u8 = u8::MAX;
/// The most cards `State::pick_move` takes in a hand (10 in scientifico; 4 with a kept cut card).
const MAX_HAND: usize = 16;
/// The largest match score a position may carry (far above any target; keeps sums exact).
pub const MAX_SCORE: u32 = 1_000_000;
/// The largest hand number a decoded state may carry (no match lasts near as long), so that
/// `next_hand` cannot wrap it.
pub const MAX_HANDS: u32 = 1_000_000;

/// Where a hand stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Chkobba: the cutter must keep or table the cut card (K5).
    Cut,
    /// A player must play a card.
    Play,
    /// The hand is scored; the match goes on with [`State::next_hand`].
    HandOver,
    /// The hand is scored and the match is won.
    MatchOver,
}

/// A complete game state: current hand and match score.
///
/// Two states are equal when every field a later move or deal reads is: the part of the deal
/// order already dealt, and the last mover once the hand is over, are never read again, so
/// `==` and `Hash` leave them out (a position rebuilt from its notation equals the original).
#[derive(Clone, Copy, Debug)]
pub struct State {
    hands: [CardSet; 4],
    table: CardSet,
    piles: [CardSet; 2],
    deck: [Card; NUM_CARDS],
    deck_pos: u8,
    sweeps: [u8; 2],
    /// Cirulla declaration points per side this hand (V-S12).
    declared: [u8; 2],
    scores: [u32; 2],
    num_players: u8,
    /// The deal of the rules the state was made under: with `num_players`, what
    /// [`State::check_rules`] compares (another deal or player count deals past the deck).
    deal: Deal,
    /// Renuncio (V-E7): the card just trailed that had a capture option, which the player to
    /// move may claim; `NO_CARD` otherwise.
    claim: u8,
    dealer: u8,
    to_move: u8,
    last_capturer: u8,
    cut_card: Option<Card>,
    phase: Phase,
    winner: Option<u8>,
    rng: Rng,
    hand_number: u32,
}

impl State {
    /// The fields `==` and `Hash` compare (see [`State`]).
    #[allow(clippy::type_complexity)] // One tuple, read only by the two impls below.
    fn live(
        &self,
    ) -> (
        (
            &[CardSet; 4],
            CardSet,
            &[CardSet; 2],
            &[Card],
            [u8; 2],
            [u8; 2],
        ),
        ([u32; 2], u8, Deal, u8, u8, Option<u8>),
        (u8, Option<Card>, Phase, Option<u8>, Rng, u32),
    ) {
        (
            (
                &self.hands,
                self.table,
                &self.piles,
                self.stock(),
                self.sweeps,
                self.declared,
            ),
            (
                self.scores,
                self.num_players,
                self.deal,
                self.claim,
                self.dealer,
                self.to_move(),
            ),
            (
                self.last_capturer,
                self.cut_card,
                self.phase,
                self.winner,
                self.rng,
                self.hand_number,
            ),
        )
    }
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.live() == other.live()
    }
}

impl Eq for State {}

impl std::hash::Hash for State {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.live().hash(h);
    }
}

/// A mid-hand position given card by card (`State::from_position`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Each seat's hand.
    pub hands: Vec<CardSet>,
    /// The table.
    pub table: CardSet,
    /// The stock in deal order.
    pub stock: Vec<Card>,
    /// The seat to play.
    pub to_move: u8,
    /// The dealer of this hand.
    pub dealer: u8,
    /// The seat that captured last this hand, if any.
    pub last_capturer: Option<u8>,
    /// Captured cards per side.
    pub piles: [CardSet; 2],
    /// Sweeps per side this hand.
    pub sweeps: [u8; 2],
    /// Match scores before this hand.
    pub scores: [u32; 2],
    /// Seed of the generator for later deals.
    pub seed: u64,
}

/// Every live field of a state, as the position notation gives them ([`State::from_parts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Parts {
    /// Each seat's hand (seats past the player count empty).
    pub hands: [CardSet; 4],
    /// The table.
    pub table: CardSet,
    /// The stock in deal order.
    pub stock: Vec<Card>,
    /// Captured cards per side.
    pub piles: [CardSet; 2],
    /// Sweeps per side this hand.
    pub sweeps: [u8; 2],
    /// Declaration points per side this hand.
    pub declared: [u8; 2],
    /// Match scores.
    pub scores: [u32; 2],
    /// The dealer.
    pub dealer: u8,
    /// The seat to move while the hand is played.
    pub to_move: Option<u8>,
    /// The seat that captured last this hand.
    pub last_capturer: Option<u8>,
    /// The pending cut card (cut phase).
    pub cut_card: Option<Card>,
    /// The card the seat to move may claim (renuncio).
    pub claimable: Option<Card>,
    /// The phase.
    pub phase: Phase,
    /// Hands dealt before this one.
    pub hand_number: u32,
    /// The generator state for later deals.
    pub seed: u64,
}

impl State {
    /// A new match: the first dealer drawn by lot and the first hand dealt, all from `seed`.
    pub fn new(rules: &Rules, seed: u64) -> State {
        let mut rng = Rng::new(seed);
        let n = rules.num_players();
        let dealer = rng.below(u64::from(n)) as u8;
        let mut s = State {
            hands: [CardSet::EMPTY; 4],
            table: CardSet::EMPTY,
            piles: [CardSet::EMPTY; 2],
            deck: [Card::SEVEN_OF_COINS; NUM_CARDS],
            deck_pos: NUM_CARDS as u8,
            sweeps: [0; 2],
            declared: [0; 2],
            scores: [0; 2],
            num_players: n,
            deal: rules.options().deal,
            claim: NO_CARD,
            dealer,
            to_move: dealer,
            last_capturer: NO_SEAT,
            cut_card: None,
            phase: Phase::Play,
            winner: None,
            rng,
            hand_number: 0,
        };
        s.start_hand(rules);
        s
    }

    /// A position given card by card; refused with a clear error if it cannot arise in a game.
    pub fn from_position(rules: &Rules, p: &Position) -> Result<State, Error> {
        check_seats_and_cards(rules, p)?;
        check_history(rules, p)?;
        let n = rules.num_players();
        let mut deck = [Card::SEVEN_OF_COINS; NUM_CARDS];
        let pos = NUM_CARDS - p.stock.len();
        deck[pos..].copy_from_slice(&p.stock);
        let mut hands = [CardSet::EMPTY; 4];
        hands[..usize::from(n)].copy_from_slice(&p.hands);
        Ok(State {
            hands,
            table: p.table,
            piles: p.piles,
            deck,
            deck_pos: pos as u8,
            sweeps: p.sweeps,
            declared: [0; 2],
            scores: p.scores,
            num_players: n,
            deal: rules.options().deal,
            claim: NO_CARD,
            dealer: p.dealer,
            to_move: p.to_move,
            last_capturer: p.last_capturer.unwrap_or(NO_SEAT),
            cut_card: None,
            phase: Phase::Play,
            winner: None,
            rng: Rng::new(p.seed),
            hand_number: 0,
        })
    }

    /// The same position with other hands, stock (of the same sizes, the same cards in all)
    /// and generator: another world of the same view ([`Draws`](crate::game::world::Draws)).
    pub(crate) fn deal_hidden(&mut self, hands: [CardSet; 4], stock: &[Card], seed: u64) {
        debug_assert_eq!(stock.len(), self.stock().len());
        self.hands = hands;
        let pos = usize::from(self.deck_pos);
        self.deck[pos..].copy_from_slice(stock);
        self.rng = Rng::new(seed);
    }

    // ----- accessors -----

    /// Number of players.
    pub fn num_players(&self) -> u8 {
        self.num_players
    }
    /// The hand of `seat` (below 4; a seat past the player count holds nothing).
    ///
    /// # Panics
    /// If `seat` is 4 or more.
    pub fn hand(&self, seat: u8) -> CardSet {
        self.hands[usize::from(seat)]
    }
    /// The table.
    pub fn table(&self) -> CardSet {
        self.table
    }
    /// The stock in deal order.
    pub fn stock(&self) -> &[Card] {
        &self.deck[usize::from(self.deck_pos)..]
    }
    /// Captured cards of `side` (0 or 1) this hand.
    ///
    /// # Panics
    /// If `side` is 2 or more.
    pub fn pile(&self, side: usize) -> CardSet {
        self.piles[side]
    }
    /// Both piles.
    pub fn piles(&self) -> [CardSet; 2] {
        self.piles
    }
    /// Sweeps per side this hand.
    pub fn sweeps(&self) -> [u8; 2] {
        self.sweeps
    }
    /// Cirulla declaration points per side this hand (V-S12; zero unless `declarations`).
    pub fn declared(&self) -> [u8; 2] {
        self.declared
    }
    /// Renuncio (V-E7): the card just trailed that the player to move may claim.
    pub fn claimable(&self) -> Option<Card> {
        Card::new(self.claim)
    }
    /// Match scores (after this hand once it is over).
    pub fn scores(&self) -> [u32; 2] {
        self.scores
    }
    /// The dealer of this hand.
    pub fn dealer(&self) -> u8 {
        self.dealer
    }
    /// The seat to move, or `None` once the hand is over.
    pub fn to_move(&self) -> Option<u8> {
        matches!(self.phase, Phase::Cut | Phase::Play).then_some(self.to_move)
    }
    /// The seat that captured last this hand.
    pub fn last_capturer(&self) -> Option<u8> {
        (self.last_capturer != NO_SEAT).then_some(self.last_capturer)
    }
    /// The pending Chkobba cut card, seen only by the cutter.
    pub fn cut_card(&self) -> Option<Card> {
        self.cut_card
    }
    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// Whether the hand is over (scored).
    pub fn hand_over(&self) -> bool {
        matches!(self.phase, Phase::HandOver | Phase::MatchOver)
    }
    /// Whether the match is over.
    pub fn match_over(&self) -> bool {
        self.phase == Phase::MatchOver
    }
    /// The side that won the match.
    pub fn winner(&self) -> Option<u8> {
        self.winner
    }
    /// Hands dealt in this match before the current one (redeals not counted).
    pub fn hand_number(&self) -> u32 {
        self.hand_number
    }
    /// The generator state for later deals.
    pub fn rng(&self) -> Rng {
        self.rng
    }
    /// Cards still to be played this hand: all hands plus the stock (and a pending cut card).
    pub fn cards_left(&self) -> u32 {
        let in_hands: u32 = self.hands.iter().map(|h| h.len()).sum();
        in_hands + self.stock().len() as u32 + u32::from(self.cut_card.is_some())
    }

    // ----- dealing -----

    /// The leader of every round: the seat after the dealer (V-K6 direction).
    fn leader(&self, rules: &Rules) -> u8 {
        rules.next_seat(self.dealer)
    }

    /// Shuffles and deals a hand for the current dealer (docs/conventions.md), redealing as the
    /// opening rule says; stops at the cut decision in Chkobba.
    fn start_hand(&mut self, rules: &Rules) {
        loop {
            self.deck = self.rng.shuffled_deck();
            self.deck_pos = 0;
            self.hands = [CardSet::EMPTY; 4];
            self.table = CardSet::EMPTY;
            self.piles = [CardSet::EMPTY; 2];
            self.sweeps = [0; 2];
            self.declared = [0; 2];
            self.claim = NO_CARD;
            self.last_capturer = NO_SEAT;
            self.to_move = self.leader(rules);
            if rules.has_cut_card() {
                // K5: the top card is the cut card; the cutter decides before the deal goes on.
                self.cut_card = Some(self.deck[0]);
                self.deck_pos = 1;
                self.phase = Phase::Cut;
                return;
            }
            self.phase = Phase::Play;
            if self.finish_deal(rules) {
                return;
            }
        }
    }

    /// Deals hands then the table from the deck; applies the opening rule. Returns false when
    /// the hand must be redealt.
    fn finish_deal(&mut self, rules: &Rules) -> bool {
        let n = self.num_players;
        let leader = self.leader(rules);
        if self.hands.iter().all(|h| h.is_empty()) {
            // Nothing kept from a cut (K5): every seat takes a full hand in turn.
            self.deal_hands(rules);
        } else {
            // One card at a time from the leader, passing over a hand already full.
            let mut seat = leader;
            let full = u32::from(rules.hand_size());
            while (0..n).any(|s| self.hands[usize::from(s)].len() < full) {
                if self.hands[usize::from(seat)].len() < full {
                    let c = self.deck[usize::from(self.deck_pos)];
                    self.deck_pos += 1;
                    self.hands[usize::from(seat)].insert(c);
                }
                seat = rules.next_seat(seat);
            }
        }
        while self.table.len() < u32::from(rules.opening_table_size()) {
            let c = self.deck[usize::from(self.deck_pos)];
            self.deck_pos += 1;
            self.table.insert(c);
        }
        let opening = rules.opening(self.table);
        if opening.redeal {
            return false;
        }
        if opening.dealer_sweeps > 0 {
            // E5 / E-A2: the dealer takes the table, scores the escobas, and captured last.
            let side = Rules::side(self.dealer);
            self.piles[side] |= self.table;
            self.table = CardSet::EMPTY;
            self.sweeps[side] += opening.dealer_sweeps;
            self.last_capturer = self.dealer;
        }
        self.declare(rules);
        self.to_move = leader;
        self.phase = Phase::Play;
        true
    }

    /// Deals a later round: 3 each, one at a time from the leader, nothing to the table (G3).
    fn deal_round(&mut self, rules: &Rules) {
        self.deal_hands(rules);
        self.declare(rules);
        self.to_move = self.leader(rules);
    }

    /// G3: a hand's size to every seat, one card at a time in turn from the leader. Seat `j`
    /// in turn takes every `n`-th card of the deal from its `j`-th, gathered in one pass.
    #[inline]
    fn deal_hands(&mut self, rules: &Rules) {
        let n = usize::from(self.num_players);
        let cards = n * usize::from(rules.hand_size());
        let pos = usize::from(self.deck_pos);
        let deal = &self.deck[pos..pos + cards];
        let mut seat = self.leader(rules);
        for j in 0..n {
            let (mut hand, mut i) = (CardSet::EMPTY, j);
            while i < cards {
                hand.insert(deal[i]);
                i += n;
            }
            self.hands[usize::from(seat)] |= hand;
            seat = rules.next_seat(seat);
        }
        // At most 40 cards.
        self.deck_pos += cards as u8;
    }

    /// Cirulla declarations (V-S12) on the cards just dealt to the hands, which hold nothing
    /// else at a deal.
    fn declare(&mut self, rules: &Rules) {
        if rules.options().declarations {
            for seat in 0..self.num_players {
                let points = rules.declaration(self.hands[usize::from(seat)]);
                let side = Rules::side(seat);
                // Saturates only far beyond any hand of the spec's values (at most 6 rounds).
                self.declared[side] = self.declared[side].saturating_add(points);
            }
        }
    }

    /// Whether the next play is the last of the hand.
    fn is_final_play(&self) -> bool {
        self.phase == Phase::Play && self.deck_pos as usize == NUM_CARDS && self.cards_left() == 1
    }

    /// Plays `mv` if it is legal; otherwise returns the error and leaves the state unchanged.
    pub fn play(&mut self, rules: &Rules, mv: Move) -> Result<(), Error> {
        self.check_rules(rules)?;
        if !self.is_legal(rules, mv) {
            return Err(self.illegal(mv));
        }
        self.apply_unchecked(rules, mv);
        Ok(())
    }

    /// Whether `rules` can play this state: the state was made under rules of the same player
    /// count and deal (`State::new`, `from_position` and `decode` record them). Every method
    /// taking `&Rules` expects the rules the state was made with; the checked ones (`play`,
    /// `next_hand`, `perft`) call this, the others leave it to the caller: under another player
    /// count or deal the turn and the deal would step past the seats and the deck.
    ///
    /// # Errors
    /// [`Error::Variant`] naming both.
    pub fn check_rules(&self, rules: &Rules) -> Result<(), Error> {
        let deal = rules.options().deal;
        if self.num_players != rules.num_players() || self.deal != deal {
            return Err(Error::Variant(format!(
                "the state is for {} players and the {} deal, the rules for {} and {}",
                self.num_players,
                self.deal.word(),
                rules.num_players(),
                deal.word()
            )));
        }
        Ok(())
    }

    /// Plays a move known to be legal (from [`State::legal_moves`]) under the rules the state
    /// was made with; for search and simulation.
    #[inline]
    pub fn apply_unchecked(&mut self, rules: &Rules, mv: Move) {
        self.apply_scored(rules, mv);
    }

    /// [`State::apply_unchecked`], returning the hand's score when the move ends the hand (what
    /// [`State::hand_score`] would then compute again).
    pub fn apply_scored(&mut self, rules: &Rules, mv: Move) -> Option<HandScore> {
        match mv.kind() {
            MoveKind::KeepCut | MoveKind::TableCut => {
                let c = mv.card();
                self.cut_card = None;
                if mv.kind() == MoveKind::KeepCut {
                    self.hands[usize::from(self.to_move)].insert(c);
                } else {
                    self.table.insert(c);
                }
                // K-A2: a redeal is a new shuffle by the same dealer, with a new cut.
                if !self.finish_deal(rules) {
                    self.start_hand(rules);
                }
                None
            }
            MoveKind::Claim => {
                // V-E7: the card and the set go to the claimant's side; not a turn, not a sweep.
                let seat = self.to_move;
                let taken = mv.captures() | CardSet::single(mv.card());
                self.table -= taken;
                self.piles[Rules::side(seat)] |= taken;
                self.last_capturer = seat;
                self.claim = NO_CARD;
                None
            }
            MoveKind::Play => {
                let sweep = self.is_sweep(rules, mv);
                let seat = self.to_move;
                let card = mv.card();
                self.claim = NO_CARD;
                let caps = mv.captures();
                if caps.is_empty() {
                    if rules.renuncio() && !self.is_final_play() {
                        // V-E7: a trail that could have captured may be claimed by the next
                        // player (not after the final play: there is no next player).
                        if rules.can_capture(self.table, card) {
                            self.claim = card.id();
                        }
                    }
                    self.hands[usize::from(seat)].remove(card);
                    self.table.insert(card);
                } else {
                    self.hands[usize::from(seat)].remove(card);
                    let side = Rules::side(seat);
                    self.table -= caps;
                    self.piles[side] |= caps | CardSet::single(card);
                    self.last_capturer = seat;
                    if sweep {
                        self.sweeps[side] += 1;
                    }
                }
                self.advance(rules)
            }
        }
    }

    /// The next seat to play, a new round, or the end of the hand and its score.
    fn advance(&mut self, rules: &Rules) -> Option<HandScore> {
        // Seats beyond the players hold no cards.
        let held = self.hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
        if !held.is_empty() {
            self.to_move = rules.next_seat(self.to_move);
        } else if usize::from(self.deck_pos) < NUM_CARDS {
            self.deal_round(rules);
        } else {
            return Some(self.end_hand(rules));
        }
        None
    }

    /// G7: leftovers to the last capturer (never a sweep), score, match end.
    ///
    /// Without compulsory capture (V-E6) a whole hand can pass without a capture: the
    /// leftovers then go to nobody and stay on the table, and the hand is scored on the piles
    /// as they are (docs/variants.md, "Edge cases settled"). With compulsory capture someone
    /// always captures (I4).
    fn end_hand(&mut self, rules: &Rules) -> HandScore {
        if self.last_capturer == NO_SEAT {
            assert!(
                !rules.compulsory_capture(),
                "I4: someone always captures in a hand"
            );
        } else {
            let side = Rules::side(self.last_capturer);
            self.piles[side] |= self.table;
            self.table = CardSet::EMPTY;
        }
        self.claim = NO_CARD;
        let score = rules.score(self.piles, self.sweeps, self.declared);
        self.scores[0] = self.scores[0].saturating_add(score.points[0]);
        self.scores[1] = self.scores[1].saturating_add(score.points[1]);
        // Napoleone (V-S7): all ten coins win the match whatever the scores.
        self.winner = rules
            .all_coins_winner(self.piles)
            .or_else(|| rules.match_winner(self.scores));
        self.phase = if self.winner.is_some() {
            Phase::MatchOver
        } else {
            Phase::HandOver
        };
        score
    }

    /// The score of the finished hand, or `None` while it is being played.
    pub fn hand_score(&self, rules: &Rules) -> Option<HandScore> {
        self.hand_over()
            .then(|| rules.score(self.piles, self.sweeps, self.declared))
    }

    /// The finished hand's value for side `side` ([`HandScore::margin`]), or `None` while it is
    /// being played.
    pub fn hand_margin(&self, rules: &Rules, side: usize) -> Option<i32> {
        self.hand_score(rules).map(|s| s.margin(side))
    }

    /// Deals the next hand (the deal passes to the next seat); an error unless the hand is over
    /// and the match is not.
    pub fn next_hand(&mut self, rules: &Rules) -> Result<(), Error> {
        self.check_rules(rules)?;
        match self.phase {
            Phase::HandOver => {
                self.dealer = rules.next_seat(self.dealer);
                self.hand_number += 1;
                self.start_hand(rules);
                Ok(())
            }
            Phase::MatchOver => Err(Error::IllegalMove(format!(
                "the match is over, won by side: {}",
                self.winner.unwrap_or(0)
            ))),
            Phase::Cut | Phase::Play => Err(Error::IllegalMove(
                "the hand is not over yet: next_hand".to_string(),
            )),
        }
    }
}

/// The word of a phase (`cut`, `play`, `hand_over`, `match_over`).
pub fn phase_word(phase: Phase) -> &'static str {
    match phase {
        Phase::Cut => "cut",
        Phase::Play => "play",
        Phase::HandOver => "hand_over",
        Phase::MatchOver => "match_over",
    }
}

mod encode;
mod moves;
mod validate;
use validate::{check_history, check_seats_and_cards};

pub use encode::ENCODED_LEN;
pub(crate) use validate::Refusal;
