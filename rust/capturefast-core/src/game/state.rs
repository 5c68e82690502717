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

    // ----- moves -----

    /// The legal moves, in increasing packed order (kind, card, captured mask), into `out`,
    /// under the rules the state was made with ([`State::check_rules`]).
    pub fn legal_moves(&self, rules: &Rules, out: &mut Vec<Move>) {
        out.clear();
        match self.phase {
            Phase::Cut => {
                let c = self.cut_card.expect("the cut phase has a cut card");
                out.push(Move::cut(c, true));
                // docs/variants.md: with no opening table (scientifico) the card can only be kept.
                if rules.opening_table_size() > 0 {
                    out.push(Move::cut(c, false));
                }
            }
            // One generator, specialised per option set: the default games pay for no option.
            Phase::Play => match (rules.special_captures(), rules.compulsory_capture()) {
                (false, true) => self.plays::<false, false>(rules, out),
                (false, false) => self.plays::<false, true>(rules, out),
                (true, true) => self.plays::<true, false>(rules, out),
                (true, false) => self.plays::<true, true>(rules, out),
            },
            Phase::HandOver | Phase::MatchOver => {}
        }
    }

    /// The legal plays `seat` would have holding `hand` with `table` on the table and
    /// `claimable` the card it may claim, everything else as in this state: the engine's one
    /// generator on a position that need not be reachable. What the inference from the others'
    /// play asks of the positions they moved in (`search::infer`).
    pub fn plays_holding(
        &self,
        rules: &Rules,
        seat: u8,
        (hand, table, claimable): (CardSet, CardSet, Option<Card>),
        out: &mut Vec<Move>,
    ) {
        let mut s = *self;
        s.hands[usize::from(seat & 3)] = hand;
        s.table = table;
        s.claim = claimable.map_or(NO_CARD, Card::id);
        s.to_move = seat;
        s.phase = Phase::Play;
        s.legal_moves(rules, out);
    }

    /// The plays of `legal_moves` (docs/variants.md "Capturing"), card by card in id order, each
    /// card's moves in mask order, then renuncio claims (kind 3 sorts last). `SPECIAL`: the
    /// capture options `ace_takes_all` and `fewest_cards` are on; `OPTIONAL`: capturing is not
    /// compulsory (a card may trail beside its captures, and claims may follow).
    ///
    /// The table is indexed once; a card takes its equal-valued cards (S7 / K9a) or the sums the
    /// index reaches, which come out in mask order.
    fn plays<const SPECIAL: bool, const OPTIONAL: bool>(&self, rules: &Rules, out: &mut Vec<Move>) {
        let table = self.table;
        let index = TableIndex::new(rules, table);
        let mode = rules.capture_mode();
        // Step 1: whether an ace played now takes the whole table (it depends on the rank only).
        let ace_takes_table =
            SPECIAL && rules.ace_takes_all(table, Card::of(Rank::ACE, Suit::ALL[0]));
        let fewest = SPECIAL && rules.options().fewest_cards;
        for card in self.hands[usize::from(self.to_move)] {
            let start = out.len();
            // The trail (empty mask) sorts first.
            if OPTIONAL {
                out.push(Move::play(card, CardSet::EMPTY));
            }
            let first = out.len();
            if ace_takes_table && card.rank() == Rank::ACE {
                out.push(Move::play(card, table));
            } else {
                // `Rules::for_each_mode_capture` spelt out: through it the default Scopa hand
                // took 5% more instructions (callgrind, 2000 random hands).
                match mode {
                    CaptureMode::EqualThenSum => {
                        let v = rules.value(card);
                        let equal = table & rules.cards_of_value(v);
                        if equal.is_empty() {
                            index.for_each_sum(v, &mut |s| out.push(Move::play(card, s)));
                        } else {
                            for c in equal {
                                out.push(Move::play(card, CardSet::single(c)));
                            }
                        }
                    }
                    CaptureMode::Fifteen => {
                        let target = 15 - rules.value(card);
                        index.for_each_sum(target, &mut |s| out.push(Move::play(card, s)));
                    }
                    CaptureMode::MatchOrFifteen => {
                        rules.for_each_mode_capture(&index, card, &mut |s| {
                            out.push(Move::play(card, s));
                        });
                        // Two lists, each in mask order.
                        out[first..].sort_unstable();
                    }
                }
                // Step 3 (V-S13): only the captures of the fewest cards remain.
                if fewest {
                    keep_fewest(out, first, |m: Move| m.captures().len());
                }
            }
            if out.len() == start {
                out.push(Move::play(card, CardSet::EMPTY));
            }
        }
        // V-E7: a claim is possible only under renuncio, which needs optional capture.
        if OPTIONAL {
            if let Some(card) = self.claimable() {
                let start = out.len();
                let before = self.table - CardSet::single(card);
                rules.for_each_capture(&TableIndex::new(rules, before), card, &mut |s| {
                    out.push(Move::claim(card, s));
                });
                if mode == CaptureMode::MatchOrFifteen {
                    out[start..].sort_unstable();
                }
            }
        }
    }

    /// Random play without listing every move: calls `pick` with the number of legal moves
    /// `n` and returns the move at the index it returns (below `n`) in `legal_moves` order:
    /// the move `legal_moves` and indexing would give. `None`, without calling `pick`, under
    /// `fewest_cards`, on a table of more than 10 cards (see [`Rules::subset_counts`]) and
    /// outside the play phase.
    ///
    /// Each card's moves are counted from the table's subset counts, without a branch; only the
    /// chosen card's captures are searched.
    ///
    /// # Panics
    /// If `pick` returns an index of `n` or more.
    #[inline]
    pub fn pick_move(&self, rules: &Rules, pick: impl FnOnce(u32) -> u32) -> Option<Move> {
        // Refused here, inlined into the caller: a call to refuse cost `fewest_cards` hands
        // 10% (they list every move).
        if rules.options().fewest_cards || self.phase != Phase::Play {
            return None;
        }
        // Monomorphised: the default games' counts test no option, nor the capture mode.
        match (rules.general_captures(), rules.capture_mode()) {
            (true, _) => self.pick_in::<true, false>(rules, pick),
            (false, CaptureMode::Fifteen) => self.pick_in::<false, true>(rules, pick),
            (false, _) => self.pick_in::<false, false>(rules, pick),
        }
    }

    /// [`State::pick_move`] over `Rules::capture_count::<GENERAL, FIFTEEN>`.
    fn pick_in<const GENERAL: bool, const FIFTEEN: bool>(
        &self,
        rules: &Rules,
        pick: impl FnOnce(u32) -> u32,
    ) -> Option<Move> {
        let hand = self.hands[usize::from(self.to_move)];
        if hand.is_empty() || hand.len() as usize > MAX_HAND {
            return None;
        }
        let table = self.table;
        let sums = rules.subset_counts(table)?;
        let ace = Card::of(Rank::ACE, Suit::ALL[0]);
        let ace_takes_table = GENERAL && rules.ace_takes_all(table, ace);
        let optional = !rules.compulsory_capture();
        // Card `i` of the hand (in id order) and the index of its first move.
        let mut ids = [0u8; MAX_HAND];
        let mut starts = [0u32; MAX_HAND];
        let mut total = 0u32;
        for ((start, id), card) in starts.iter_mut().zip(&mut ids).zip(hand) {
            let captures =
                rules.capture_count::<GENERAL, FIFTEEN>(table, &sums, ace_takes_table, card);
            *start = total;
            *id = card.id();
            total += moves_of(captures, optional);
        }
        // V-E7: the claims of the card just trailed follow every play.
        let plays = total;
        let claim = match self.claimable() {
            Some(card) => {
                let before = table - CardSet::single(card);
                let sums = rules.subset_counts(before)?;
                let aces = rules.ace_takes_all(before, ace);
                total += rules.capture_count::<true, false>(before, &sums, aces, card);
                Some((card, before))
            }
            None => None,
        };
        let k = pick(total);
        assert!(k < total, "pick gave index {k} of {total} moves");
        if let Some((card, before)) = claim.filter(|_| k >= plays) {
            return Some(Move::claim(
                card,
                nth_capture(rules, before, card, k - plays),
            ));
        }
        // The card holding move k: the number of later cards starting at or before it.
        let slot = starts[1..hand.len() as usize]
            .iter()
            .map(|&s| usize::from(s <= k))
            .sum::<usize>();
        let card = Card::from_valid_id(ids[slot]);
        let mut k = k - starts[slot];
        if optional {
            if k == 0 {
                return Some(Move::play(card, CardSet::EMPTY));
            }
            k -= 1;
        }
        let equal = table & rules.cards_of_value(rules.value(card));
        let captured = if GENERAL {
            general_capture(rules, table, &sums, ace_takes_table, card, k)
        } else if rules.capture_mode() == CaptureMode::EqualThenSum && !equal.is_empty() {
            // S7 / K9a: the k-th equal card, without indexing the table.
            let mut e = equal.0;
            for _ in 0..k {
                e &= e - 1;
            }
            CardSet(e & e.wrapping_neg())
        } else if rules.capture_count::<false, FIFTEEN>(table, &sums, false, card) > 0 {
            nth_emitted(rules, table, card, k)
        } else {
            CardSet::EMPTY
        };
        Some(Move::play(card, captured))
    }

    /// `random_card`'s draw without listing every move: a card uniformly, then one of its moves
    /// uniformly, the move `RandomCardBot` would choose from the list with the same draws.
    /// `pick` is called twice: with the number of groups of moves (the cards in hand, and the
    /// claim as one more when a card may be claimed), then with the number of moves in the
    /// group drawn; it returns an index below the number it is given. `None`, without calling
    /// `pick`, where [`State::pick_move`] does not apply.
    ///
    /// # Panics
    /// If `pick` returns an index past what it was given.
    #[inline]
    pub fn pick_card_move(&self, rules: &Rules, pick: impl FnMut(u32) -> u32) -> Option<Move> {
        // Refused here, inlined into the caller, as in `pick_move`.
        if rules.options().fewest_cards || self.phase != Phase::Play {
            return None;
        }
        self.pick_card_in(rules, pick)
    }

    /// [`State::pick_card_move`] where the options allow it.
    fn pick_card_in(&self, rules: &Rules, mut pick: impl FnMut(u32) -> u32) -> Option<Move> {
        let hand = self.hands[usize::from(self.to_move)];
        if hand.is_empty() {
            return None;
        }
        let table = self.table;
        let sums = rules.subset_counts(table)?;
        let ace = Card::of(Rank::ACE, Suit::ALL[0]);
        // V-E7: the claims of the card just trailed are one group, after the cards'.
        let claim = match self.claimable() {
            Some(card) => {
                let before = table - CardSet::single(card);
                let sums = rules.subset_counts(before)?;
                let aces = rules.ace_takes_all(before, ace);
                let count = rules.capture_count::<true, false>(before, &sums, aces, card);
                (count > 0).then_some((card, before, count))
            }
            None => None,
        };
        let groups = hand.len() + u32::from(claim.is_some());
        let g = pick(groups);
        assert!(g < groups, "pick gave index {g} of {groups} cards");
        if let Some((card, before, count)) = claim.filter(|_| g == hand.len()) {
            let k = pick(count);
            assert!(k < count, "pick gave index {k} of {count} claims");
            return Some(Move::claim(card, nth_capture(rules, before, card, k)));
        }
        let card = hand
            .iter()
            .nth(g as usize)
            .expect("g is below the hand's size");
        let ace_takes_table = rules.ace_takes_all(table, ace);
        let captures = rules.capture_count::<true, false>(table, &sums, ace_takes_table, card);
        let optional = !rules.compulsory_capture();
        let moves = moves_of(captures, optional);
        let mut k = pick(moves);
        assert!(k < moves, "pick gave index {k} of {moves} moves");
        if optional {
            if k == 0 {
                return Some(Move::play(card, CardSet::EMPTY));
            }
            k -= 1;
        }
        let taken = general_capture(rules, table, &sums, ace_takes_table, card, k);
        Some(Move::play(card, taken))
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, rules: &Rules, mv: Move) -> bool {
        match (self.phase, mv.kind()) {
            (Phase::Cut, MoveKind::KeepCut) => Some(mv.card()) == self.cut_card,
            (Phase::Cut, MoveKind::TableCut) => {
                Some(mv.card()) == self.cut_card && rules.opening_table_size() > 0
            }
            (Phase::Play, MoveKind::Play) => {
                let card = mv.card();
                if !self.hands[usize::from(self.to_move)].contains(card) {
                    return false;
                }
                let caps = mv.captures();
                let mut found = false;
                let mut any = false;
                rules.for_each_capture(&TableIndex::new(rules, self.table), card, &mut |s| {
                    any = true;
                    found |= s == caps;
                });
                if caps.is_empty() {
                    !any || !rules.compulsory_capture()
                } else {
                    found
                }
            }
            (Phase::Play, MoveKind::Claim) => {
                let card = mv.card();
                if self.claimable() != Some(card) || mv.captures().is_empty() {
                    return false;
                }
                let before = self.table - CardSet::single(card);
                let mut found = false;
                rules.for_each_capture(&TableIndex::new(rules, before), card, &mut |s| {
                    found |= s == mv.captures();
                });
                found
            }
            _ => false,
        }
    }

    /// Why `mv` is not legal here, as an error naming it.
    fn illegal(&self, mv: Move) -> Error {
        let why = match self.phase {
            Phase::HandOver | Phase::MatchOver => "the hand is over".to_string(),
            Phase::Cut => format!("seat {} must keep or table the cut card", self.to_move),
            Phase::Play if mv.kind() == MoveKind::Claim => match self.claimable() {
                None => "there is no trailed card to claim now".into(),
                Some(c) if c != mv.card() => format!("only {c} may be claimed now"),
                Some(c) => format!("not a capture {c} could have made"),
            },
            Phase::Play if mv.kind() != MoveKind::Play => "there is no cut decision now".into(),
            Phase::Play if !self.hands[usize::from(self.to_move)].contains(mv.card()) => {
                format!("{} is not in the hand of seat {}", mv.card(), self.to_move)
            }
            // A trail of a card in hand is illegal only where that card must capture.
            Phase::Play if mv.captures().is_empty() => format!(
                "{} can capture, and capturing is compulsory, so seat {} may not trail it",
                mv.card(),
                self.to_move
            ),
            Phase::Play => format!("not a legal capture for seat {}", self.to_move),
        };
        Error::IllegalMove(format!("{why}: {mv}"))
    }

    /// Whether the legal move `mv` scores a sweep (S8, E8, K11; last-play rule S-A4, K11).
    /// A claim is never a sweep, nor is an ace taking the whole table by `ace_takes_all` unless
    /// `ace_sweep` (docs/variants.md).
    pub fn is_sweep(&self, rules: &Rules, mv: Move) -> bool {
        mv.kind() == MoveKind::Play
            && !mv.captures().is_empty()
            && mv.captures() == self.table
            && !(self.is_final_play() && rules.options().last_play_sweep == LastPlaySweep::Void)
            && !(rules.special_captures()
                && !rules.options().ace_sweep
                && rules.ace_takes_all(self.table, mv.card()))
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

const ENCODING_VERSION: u8 = 2;

/// The number of moves of a card with `captures` captures: under optional capture a trail
/// beside them, otherwise the captures, or the trail alone.
#[inline]
fn moves_of(captures: u32, optional: bool) -> u32 {
    if optional {
        captures + 1
    } else {
        captures.max(1)
    }
}

/// Capture `k` of `card` onto `table` in `legal_moves` order, or the empty set (a trail) if
/// it has none, under any capture option but `fewest_cards`: the whole table for an ace that
/// takes it, else [`nth_capture`]. `sums` and `ace_takes_table` are the table's.
fn general_capture(
    rules: &Rules,
    table: CardSet,
    sums: &[u8; 16],
    ace_takes_table: bool,
    card: Card,
    k: u32,
) -> CardSet {
    if rules.capture_count::<true, false>(table, sums, ace_takes_table, card) == 0 {
        CardSet::EMPTY
    } else if ace_takes_table && card.rank() == Rank::ACE {
        table
    } else {
        nth_capture(rules, table, card, k)
    }
}

/// The `k`-th capture `for_each_capture` emits for `card` onto `table` (the empty set if it
/// emits fewer): capture `k` in `legal_moves` order but under `match_or_fifteen`.
#[inline]
fn nth_emitted(rules: &Rules, table: CardSet, card: Card, k: u32) -> CardSet {
    let (mut k, mut found) = (k, CardSet::EMPTY);
    rules.for_each_capture(&TableIndex::new(rules, table), card, &mut |s| {
        if k == 0 {
            found = s;
        }
        k = k.wrapping_sub(1);
    });
    found
}

/// Capture `k` of `card` onto `table` in `legal_moves` order: the `k`-th `for_each_capture`
/// emits, the two lists of `match_or_fifteen` sorted together first (on the stack unless there
/// are more than 32).
fn nth_capture(rules: &Rules, table: CardSet, card: Card, k: u32) -> CardSet {
    if rules.capture_mode() != CaptureMode::MatchOrFifteen {
        return nth_emitted(rules, table, card, k);
    }
    let index = TableIndex::new(rules, table);
    let mut list = [CardSet::EMPTY; 32];
    let mut more = Vec::new();
    let mut n = 0;
    rules.for_each_capture(&index, card, &mut |s| {
        if n < list.len() {
            list[n] = s;
        } else {
            more.push(s);
        }
        n += 1;
    });
    if more.is_empty() {
        list[..n].sort_unstable();
        list[k as usize]
    } else {
        more.extend_from_slice(&list);
        more.sort_unstable();
        more[k as usize]
    }
}

/// Length of [`State::encode`]'s output.
pub const ENCODED_LEN: usize = 1 + 9 + 8 * 7 + NUM_CARDS + 2 + 8 + 8 + 4 + 3;

impl State {
    /// A compact, versioned byte encoding of the whole state and its game (for pickling and
    /// storage); `rules` are the rules the state is played by.
    pub fn encode(&self, rules: &Rules) -> Vec<u8> {
        let mut b = Vec::with_capacity(ENCODED_LEN);
        let phase = match self.phase {
            Phase::Cut => 0,
            Phase::Play => 1,
            Phase::HandOver => 2,
            Phase::MatchOver => 3,
        };
        b.extend_from_slice(&[
            ENCODING_VERSION,
            self.num_players,
            self.dealer,
            self.to_move,
            self.last_capturer,
            phase,
            self.cut_card.map_or(u8::MAX, Card::id),
            self.winner.unwrap_or(u8::MAX),
            self.deck_pos,
            rules.game_profile().code,
        ]);
        for m in self.hands.iter().chain([&self.table]).chain(&self.piles) {
            b.extend_from_slice(&m.0.to_le_bytes());
        }
        b.extend(self.deck.iter().map(|c| c.id()));
        b.extend_from_slice(&self.sweeps);
        for s in self.scores {
            b.extend_from_slice(&s.to_le_bytes());
        }
        b.extend_from_slice(&self.rng.state().to_le_bytes());
        b.extend_from_slice(&self.hand_number.to_le_bytes());
        b.extend_from_slice(&self.declared);
        b.push(self.claim);
        b
    }

    /// Decodes [`State::encode`]'s output for `rules`; refuses bytes that are not a consistent
    /// state.
    pub fn decode(rules: &Rules, b: &[u8]) -> Result<State, Error> {
        let err = |m: &str| Error::Decode(m.to_string());
        check_header(rules, b)?;
        let n = b[1];
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        let mut masks = [CardSet::EMPTY; 7];
        for (k, m) in masks.iter_mut().enumerate() {
            *m = CardSet(u64_at(10 + 8 * k));
            if !CardSet::FULL.is_superset(*m) {
                return Err(err("a card set holds bits above 40"));
            }
        }
        let off = 10 + 56;
        let mut deck = [Card::SEVEN_OF_COINS; NUM_CARDS];
        for (i, d) in deck.iter_mut().enumerate() {
            *d = Card::new(b[off + i]).ok_or_else(|| err("a deck entry is not a card"))?;
        }
        let phase = match b[5] {
            0 => Phase::Cut,
            1 => Phase::Play,
            2 => Phase::HandOver,
            3 => Phase::MatchOver,
            _ => return Err(err("unknown phase")),
        };
        let seat = |x: u8| x < n;
        let cut_card = if b[6] == u8::MAX {
            None
        } else {
            Some(Card::new(b[6]).ok_or_else(|| err("bad cut card"))?)
        };
        let winner = if b[7] == u8::MAX { None } else { Some(b[7]) };
        let deck_pos = b[8];
        if !seat(b[2]) || !seat(b[3]) || !(b[4] == NO_SEAT || seat(b[4])) {
            return Err(err("a seat number is out of range"));
        }
        if usize::from(deck_pos) > NUM_CARDS
            || winner.is_some_and(|w| w > 1)
            || (phase == Phase::Cut) != cut_card.is_some()
            || (phase == Phase::MatchOver) != winner.is_some()
            || masks[usize::from(n)..4].iter().any(|m| !m.is_empty())
        {
            return Err(err("inconsistent fields"));
        }
        let mut seen = CardSet::EMPTY;
        let stock = deck[usize::from(deck_pos)..]
            .iter()
            .map(|&c| CardSet::single(c));
        let cut = cut_card.map(CardSet::single);
        for zone in masks.iter().copied().chain(stock).chain(cut) {
            if !(seen & zone).is_empty() {
                return Err(err("a card is in two places"));
            }
            seen |= zone;
        }
        if seen != CardSet::FULL {
            return Err(err("the zones do not hold all 40 cards"));
        }
        let off = off + NUM_CARDS;
        let state = State {
            hands: [masks[0], masks[1], masks[2], masks[3]],
            table: masks[4],
            piles: [masks[5], masks[6]],
            deck,
            deck_pos,
            sweeps: [b[off], b[off + 1]],
            scores: [u32_at(off + 2), u32_at(off + 6)],
            num_players: n,
            deal: rules.options().deal,
            dealer: b[2],
            to_move: b[3],
            last_capturer: b[4],
            cut_card,
            phase,
            winner,
            rng: Rng::new(u64_at(off + 10)),
            hand_number: u32_at(off + 18),
            declared: [b[off + 22], b[off + 23]],
            claim: b[off + 24],
        };
        state.validate(rules).map_err(|Refusal(_, e)| match e {
            Error::Position(m) => Error::Decode(m),
            Error::DuplicateCard(c) => Error::Decode(format!("a card is in two places: {c}")),
            other => other,
        })?;
        Ok(state)
    }

    /// A state from every live field ([`Parts`]), checked as `decode` checks its bytes: the
    /// refusal names the field at fault (the position notation reports it).
    pub(crate) fn from_parts(rules: &Rules, p: &Parts) -> Result<State, Refusal> {
        let n = rules.num_players();
        let stock_len = p.stock.len();
        if stock_len > NUM_CARDS {
            return Err(Refusal(
                "stock",
                Error::Position(format!("at most {NUM_CARDS} cards, got: {stock_len}")),
            ));
        }
        let phase = p.phase;
        let in_play = matches!(phase, Phase::Cut | Phase::Play);
        if in_play != p.to_move.is_some() {
            return Err(Refusal(
                "to_move",
                Error::Position(format!(
                    "a seat is to move exactly when the hand is being played; phase: {}",
                    phase_word(phase)
                )),
            ));
        }
        if (phase == Phase::Cut) != p.cut_card.is_some() {
            return Err(Refusal(
                "cut_card",
                Error::Position(format!(
                    "a cut card is pending exactly in the cut phase; phase: {}",
                    phase_word(phase)
                )),
            ));
        }
        let mut deck = [Card::SEVEN_OF_COINS; NUM_CARDS];
        // The dealt part of the deal order is never read again (and `==` ignores it): the
        // cards out of the stock fill it in id order.
        let out = !p
            .stock
            .iter()
            .fold(CardSet::EMPTY, |a, &c| a | CardSet::single(c));
        let pos = NUM_CARDS - stock_len;
        for (slot, c) in deck[..pos].iter_mut().zip(out.iter()) {
            *slot = c;
        }
        deck[pos..].copy_from_slice(&p.stock);
        let state = State {
            hands: p.hands,
            table: p.table,
            piles: p.piles,
            deck,
            deck_pos: pos as u8,
            sweeps: p.sweeps,
            declared: p.declared,
            scores: p.scores,
            num_players: n,
            deal: rules.options().deal,
            claim: p.claimable.map_or(NO_CARD, Card::id),
            dealer: p.dealer,
            to_move: p.to_move.unwrap_or(p.dealer),
            last_capturer: p.last_capturer.unwrap_or(NO_SEAT),
            cut_card: p.cut_card,
            phase,
            winner: None,
            rng: Rng::new(p.seed),
            hand_number: p.hand_number,
        };
        let seat = |field: &'static str, s: u8| {
            if s < n {
                Ok(())
            } else {
                Err(Refusal(
                    field,
                    Error::Position(format!("a seat below {n}, got: {s}")),
                ))
            }
        };
        seat("dealer", p.dealer)?;
        seat("to_move", state.to_move)?;
        if let Some(lc) = p.last_capturer {
            seat("last_capturer", lc)?;
        }
        if state.hands[usize::from(n)..].iter().any(|h| !h.is_empty()) {
            return Err(Refusal(
                "hands",
                Error::Position(format!("{n} players hold {n} hands")),
            ));
        }
        let mut state = state;
        state.winner = state.finished_winner(rules)?;
        state.validate(rules)?;
        Ok(state)
    }

    /// The winner of a finished hand (none while it is played), from its scores and piles;
    /// refused if the phase says otherwise.
    fn finished_winner(&self, rules: &Rules) -> Result<Option<u8>, Refusal> {
        if !self.hand_over() {
            return Ok(None);
        }
        let winner = rules
            .all_coins_winner(self.piles)
            .or_else(|| rules.match_winner(self.scores));
        let want = if winner.is_some() {
            Phase::MatchOver
        } else {
            Phase::HandOver
        };
        if want != self.phase {
            return Err(Refusal(
                "phase",
                Error::Position(format!(
                    "the scores and piles make this hand {}, not: {}",
                    phase_word(want),
                    phase_word(self.phase)
                )),
            ));
        }
        Ok(winner)
    }

    /// The checks `decode` and `from_parts` share, after every field is in range.
    fn validate(&self, rules: &Rules) -> Result<(), Refusal> {
        let refuse = |field, m: String| Err(Refusal(field, Error::Decode(m)));
        let state = self;
        let [d0, d1] = state.declared;
        if state.declared != [0, 0] && !rules.options().declarations {
            return refuse(
                "declared",
                format!("declaration points without declarations in these rules: {d0}/{d1}"),
            );
        }
        check_counters(rules, state)?;
        if state.claim != NO_CARD {
            let Some(card) = Card::new(state.claim) else {
                return refuse("claimable", format!("not a card id: {}", state.claim));
            };
            let before = state.table - CardSet::single(card);
            let mut could = false;
            rules.for_each_capture(&TableIndex::new(rules, before), card, &mut |_| could = true);
            if !rules.renuncio()
                || state.phase != Phase::Play
                || !state.table.contains(card)
                || !could
            {
                return refuse(
                    "claimable",
                    format!("not a card these rules let the player claim: {card}"),
                );
            }
        }
        state.check_consistent(rules)
    }

    /// Whether a decoded state could arise in a game under `rules`: the same checks as
    /// `from_position` for a hand in play, and the shape of a cut decision or a finished hand.
    /// A refusal names the field at fault.
    fn check_consistent(&self, rules: &Rules) -> Result<(), Refusal> {
        let n = self.num_players;
        match self.phase {
            Phase::Cut => self.check_cut(rules),
            Phase::Play => {
                let p = Position {
                    hands: self.hands[..usize::from(n)].to_vec(),
                    table: self.table,
                    stock: self.stock().to_vec(),
                    to_move: self.to_move,
                    dealer: self.dealer,
                    last_capturer: self.last_capturer(),
                    piles: self.piles,
                    sweeps: self.sweeps,
                    scores: self.scores,
                    seed: 0,
                };
                check_seats_and_cards(rules, &p)?;
                check_history(rules, &p)
            }
            Phase::HandOver | Phase::MatchOver => self.check_finished(rules),
        }
    }

    /// The shape of a cut decision (`check_consistent`).
    fn check_cut(&self, rules: &Rules) -> Result<(), Refusal> {
        let hands_empty = self.hands.iter().all(|h| h.is_empty());
        let cut = "in the cut decision";
        first(&[
            (
                !rules.has_cut_card(),
                "phase",
                "these rules have no cut decision",
            ),
            (!hands_empty, "hands", &format!("every hand is empty {cut}")),
            (
                !self.table.is_empty(),
                "table",
                &format!("the table is empty {cut}"),
            ),
            (
                !(self.piles[0] | self.piles[1]).is_empty(),
                "piles",
                &format!("the piles are empty {cut}"),
            ),
            (
                self.sweeps != [0, 0],
                "sweeps",
                &format!("no sweep is made {cut}"),
            ),
            (
                self.last_capturer != NO_SEAT,
                "last_capturer",
                &format!("nobody has captured {cut}"),
            ),
            (
                self.stock().len() != NUM_CARDS - 1,
                "stock",
                &format!("the stock holds the 39 other cards {cut}"),
            ),
            (
                self.to_move != self.leader(rules),
                "to_move",
                &format!("the seat after the dealer decides {cut}"),
            ),
            (
                self.declared != [0, 0],
                "declared",
                &format!("nothing is declared {cut}"),
            ),
            (
                self.scores.iter().any(|&x| x > MAX_SCORE),
                "scores",
                &format!("scores are at most {MAX_SCORE}"),
            ),
            (
                rules.match_winner(self.scores).is_some(),
                "scores",
                "the match is already won, so no hand is being dealt",
            ),
        ])
    }

    /// The shape of a finished hand (`check_consistent`).
    fn check_finished(&self, rules: &Rules) -> Result<(), Refusal> {
        let hands_empty = self.hands.iter().all(|h| h.is_empty());
        // Leftovers went to the last capturer, or, where capturing is optional and
        // nobody captured, every card stayed on the table (`end_hand`).
        let leftovers_placed = if self.last_capturer == NO_SEAT {
            !rules.compulsory_capture() && self.table == CardSet::FULL && self.sweeps == [0, 0]
        } else {
            self.table.is_empty()
        };
        // The match score includes the hand's points.
        let points = self.hand_score(rules).map_or([0, 0], |h| h.points);
        let winner = rules
            .all_coins_winner(self.piles)
            .or_else(|| rules.match_winner(self.scores));
        let over = "once the hand is over";
        first(&[
            (
                !hands_empty,
                "hands",
                &format!("every hand is empty {over}"),
            ),
            (
                !leftovers_placed,
                "table",
                &format!("the table went to the last capturer {over}"),
            ),
            (
                !self.stock().is_empty(),
                "stock",
                &format!("the stock is empty {over}"),
            ),
            (
                (0..2).any(|i| self.scores[i] < points[i]),
                "scores",
                &format!("the match scores include the hand's points {over}"),
            ),
            (
                self.scores.iter().any(|&x| x > MAX_SCORE),
                "scores",
                &format!("scores are at most {MAX_SCORE}"),
            ),
            (
                (0..2).any(|i| u32::from(self.sweeps[i]) * 2 > self.piles[i].len()),
                "sweeps",
                "a side cannot have made more sweeps than half its pile",
            ),
            (
                self.winner != winner,
                "phase",
                "the match is over exactly when the scores or piles win it",
            ),
        ])
    }
}

/// The first failed condition of `checks`, naming its field.
fn first(checks: &[(bool, &'static str, &str)]) -> Result<(), Refusal> {
    match checks.iter().find(|c| c.0) {
        Some(&(_, field, why)) => Err(Refusal(field, Error::Position(why.to_string()))),
        None => Ok(()),
    }
}

/// A refused position and the field at fault (`hands`, `stock`, ...: the names of the
/// notation's fields and of `State.from_position`'s arguments). `from_position` and `decode`
/// drop the field; the notation reports it.
#[derive(Debug)]
pub(crate) struct Refusal(pub(crate) &'static str, pub(crate) Error);

impl From<Refusal> for Error {
    fn from(Refusal(_, e): Refusal) -> Error {
        e
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

/// `from_position` checks: seat numbers, every card once, then [`check_hand_sizes`].
fn check_seats_and_cards(rules: &Rules, p: &Position) -> Result<(), Refusal> {
    let n = rules.num_players();
    let pos_err = |field, m: String| Err(Refusal(field, Error::Position(m)));
    if p.hands.len() != usize::from(n) {
        return pos_err(
            "hands",
            format!("{n} players need {n} hands, got: {}", p.hands.len()),
        );
    }
    if p.dealer >= n {
        return pos_err(
            "dealer",
            format!("dealer must be a seat below {n}, got: {}", p.dealer),
        );
    }
    if p.to_move >= n {
        return pos_err(
            "to_move",
            format!("to_move must be a seat below {n}, got: {}", p.to_move),
        );
    }
    if let Some(lc) = p.last_capturer
        && lc >= n
    {
        return pos_err(
            "last_capturer",
            format!("last_capturer must be a seat below {n}, got: {lc}"),
        );
    }
    // Every card exactly once across the zones, and nothing but cards.
    for zone in p.hands.iter().chain([&p.table, &p.piles[0], &p.piles[1]]) {
        if !CardSet::FULL.is_superset(*zone) {
            return pos_err(
                "hands",
                format!(
                    "a card set holds bits above the 40 cards: {:#x}",
                    zone.0 & !CardSet::FULL.0
                ),
            );
        }
    }
    let mut seen = CardSet::EMPTY;
    let zones = p
        .hands
        .iter()
        .copied()
        .chain([p.table, p.piles[0], p.piles[1]]);
    let stock = p.stock.iter().map(|&c| CardSet::single(c));
    for zone in zones.chain(stock) {
        let dup = seen & zone;
        if let Some(c) = dup.first() {
            return Err(Refusal("cards", Error::DuplicateCard(c.to_string())));
        }
        seen |= zone;
    }
    if seen != CardSet::FULL {
        return pos_err(
            "hands",
            format!(
                "the zones must hold all 40 cards once; missing: {}",
                CardSet::FULL - seen
            ),
        );
    }
    check_hand_sizes(rules, p)
}

/// `from_position` checks: hand sizes and stock size.
fn check_hand_sizes(rules: &Rules, p: &Position) -> Result<(), Refusal> {
    let n = rules.num_players();
    let pos_err = |field, m: String| Err(Refusal(field, Error::Position(m)));
    // Hand sizes: in a round the seats play in order from the leader (going `next`, V-K6), so
    // those before `to_move` hold one card fewer than the rest.
    let leader = rules.next_seat(p.dealer);
    let hand_size = rules.hand_size();
    let held = p.hands[usize::from(p.to_move)].len();
    if held == 0 || held > u32::from(hand_size) {
        return pos_err(
            "hands",
            format!("the player to move must hold 1 to {hand_size} cards, got: {held}"),
        );
    }
    let mut seat = leader;
    let mut before = true;
    for _ in 0..n {
        before &= seat != p.to_move;
        let want = if before { held - 1 } else { held };
        let got = p.hands[usize::from(seat)].len();
        if got != want {
            return pos_err(
                "hands",
                format!(
                    "seat {seat} should hold {want} cards when seat {} is to move, got: {got}",
                    p.to_move
                ),
            );
        }
        seat = rules.next_seat(seat);
    }
    // The stock: whole rounds of the standard deal; nothing after a Scopone deal (one round).
    let dealt = usize::from(n) * usize::from(hand_size) + usize::from(rules.opening_table_size());
    let round = usize::from(n) * usize::from(hand_size);
    if p.stock.len() % round != 0 || p.stock.len() + dealt > NUM_CARDS {
        return pos_err(
            "stock",
            format!(
                "the stock must hold a multiple of {round} cards, at most {}, got: {}",
                NUM_CARDS - dealt,
                p.stock.len()
            ),
        );
    }
    Ok(())
}

/// `from_position` checks: what the piles, sweeps and scores say about the hand so far.
fn check_history(rules: &Rules, p: &Position) -> Result<(), Refusal> {
    let pos_err = |field, m: String| Err(Refusal(field, Error::Position(m)));
    let captured = !(p.piles[0] | p.piles[1]).is_empty() || p.sweeps != [0, 0];
    match p.last_capturer {
        None if captured => {
            return pos_err(
                "last_capturer",
                "piles or sweeps are not empty, so someone has captured: last_capturer is \
                     None"
                    .to_string(),
            );
        }
        // I4 needs no check here: with every card in a zone and no capture yet, the table holds
        // the other 40 - r cards, so at least (40 - r) / 4 distinct values, and each trail adds a
        // value the table lacked; r + distinct > 10, so a capture is forced before the end.
        Some(lc) if p.piles[Rules::side(lc)].is_empty() => {
            return pos_err(
                "last_capturer",
                format!("last_capturer's side has an empty pile: {lc}"),
            );
        }
        _ => {}
    }
    if rules.capture_mode() == CaptureMode::Fifteen && !rules.options().ace_takes_all {
        // E-A4: every capture totals 15 with the played card (an ace taking all need not).
        for (side, pile) in p.piles.iter().enumerate() {
            let t = rules.total(*pile);
            if t % 15 != 0 {
                return pos_err(
                    "piles",
                    format!(
                        "in escoba every capture totals a multiple of 15, so a pile does too; \
                         side {side} pile totals: {t}"
                    ),
                );
            }
        }
    }
    check_plays(rules, p)?;
    if p.scores.iter().any(|&s| s > MAX_SCORE) {
        return pos_err(
            "scores",
            format!(
                "scores must be at most {MAX_SCORE}, got: {} {}",
                p.scores[0], p.scores[1]
            ),
        );
    }
    for side in 0..2 {
        // Each sweep takes the played card and at least one more (the dealer's escobas: 4
        // cards for 2), so a pile holds at least two cards per sweep.
        if u32::from(p.sweeps[side]) * 2 > p.piles[side].len() {
            return pos_err(
                "sweeps",
                format!(
                    "side {side} cannot have made more sweeps than half its pile, got: {}",
                    p.sweeps[side]
                ),
            );
        }
    }
    if let Some(w) = rules.match_winner(p.scores) {
        return pos_err(
            "scores",
            format!(
                "the match is already won by side {w}, so no hand is being played; scores: [{}, {}]",
                p.scores[0], p.scores[1]
            ),
        );
    }
    Ok(())
}

/// `from_position` checks of what the cards played so far allow. The stock and the hand sizes
/// (checked before) say how many cards each seat has played this hand; each capture takes one
/// of them, and before any play the table is the opening table, which the deal would have
/// redealt or given to the dealer (S5, K6, E5) where the rules say so.
fn check_plays(rules: &Rules, p: &Position) -> Result<(), Refusal> {
    let pos_err = |field, m: String| Err(Refusal(field, Error::Position(m)));
    let hand_size = u32::from(rules.hand_size());
    let round = u32::from(rules.num_players()) * hand_size;
    let dealt_rounds =
        (NUM_CARDS as u32 - u32::from(rules.opening_table_size()) - p.stock.len() as u32) / round;
    let mut plays = [0u32; 2];
    for (seat, hand) in p.hands.iter().enumerate() {
        plays[seat % 2] += dealt_rounds * hand_size - hand.len();
    }
    let dealer_side = Rules::side(p.dealer);
    let opening_size = u32::from(rules.opening_table_size());
    // Under renuncio (V-E7) a claim captures without playing a card: captures are not bounded
    // by plays.
    let sides = if rules.renuncio() { 0 } else { 2 };
    for (side, &played) in plays.iter().enumerate().take(sides) {
        let (pile, sweeps) = (p.piles[side], u32::from(p.sweeps[side]));
        if played == 0 {
            // Nothing captured, but the opening table the dealer took with its sweeps (E5).
            let opening = rules.opening(pile);
            let took_opening = side == dealer_side
                && pile.len() == opening_size
                && opening.dealer_sweeps > 0
                && sweeps == u32::from(opening.dealer_sweeps);
            if (!pile.is_empty() || sweeps > 0) && !took_opening {
                return pos_err(
                    "piles",
                    format!(
                        "side {side} has played no card this hand, so it holds no capture (only an \
                     opening table the dealer took); pile {pile}, sweeps {sweeps}"
                    ),
                );
            }
        } else {
            // A sweep is a capture, and each capture plays one of the side's cards; the
            // dealer's side may also have taken the opening table, with at most 2 sweeps.
            let opening = if side == dealer_side
                && rules.options().opening_sweeps != OpeningSweeps::Off
                && pile.len() >= opening_size
            {
                2
            } else {
                0
            };
            if sweeps > played + opening {
                return pos_err(
                    "sweeps",
                    format!(
                        "side {side} has played {played} card(s) this hand, so it cannot have made \
                     more sweeps, got: {sweeps}"
                    ),
                );
            }
        }
    }
    if plays == [0, 0] && dealt_rounds == 1 {
        let opening = rules.opening(p.table);
        if opening.redeal {
            return pos_err(
                "table",
                format!(
                    "no card has been played, so this is the opening table, which the rules redeal: \
                 {}",
                    p.table
                ),
            );
        }
        if opening.dealer_sweeps > 0 {
            return pos_err(
                "table",
                format!(
                    "no card has been played, so this is the opening table, which the dealer takes: \
                 {}",
                    p.table
                ),
            );
        }
    }
    Ok(())
}

/// `decode` checks of the counters: declaration points (each seat declares once a round, at
/// most the larger of the two declarations' points) and the hand number.
fn check_counters(rules: &Rules, state: &State) -> Result<(), Refusal> {
    let o = rules.options();
    let n = state.num_players;
    let round = usize::from(n) * usize::from(rules.hand_size());
    let rounds = (NUM_CARDS - state.stock().len()).div_ceil(round);
    let most = rounds
        * usize::from(n / 2).max(1)
        * usize::from(o.declaration_triple.max(o.declaration_low));
    if state.declared.iter().any(|&d| usize::from(d) > most) {
        let [d0, d1] = state.declared;
        return Err(Refusal(
            "declared",
            Error::Decode(format!(
                "more declaration points than the rounds dealt allow (at most {most} a side): \
                 {d0}/{d1}"
            )),
        ));
    }
    if state.hand_number > MAX_HANDS {
        return Err(Refusal(
            "hand_number",
            Error::Decode(format!(
                "hand_number must be at most {MAX_HANDS}, got: {}",
                state.hand_number
            )),
        ));
    }
    Ok(())
}

/// `decode` checks: length, version, game and number of players.
fn check_header(rules: &Rules, b: &[u8]) -> Result<(), Error> {
    if b.len() != ENCODED_LEN {
        return Err(Error::Decode(format!(
            "expected {ENCODED_LEN} bytes, got: {}",
            b.len()
        )));
    }
    if b[0] != ENCODING_VERSION {
        return Err(Error::Decode(format!("unknown encoding version: {}", b[0])));
    }
    if b[9] != rules.game_profile().code {
        return Err(Error::Decode(format!(
            "the state is not for {}; game byte: {}",
            rules.game().name(),
            b[9]
        )));
    }
    if b[1] != rules.num_players() {
        return Err(Error::Decode(format!(
            "the state is for {} players, the rules for {}",
            b[1],
            rules.num_players()
        )));
    }
    Ok(())
}
