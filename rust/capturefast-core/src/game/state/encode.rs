//! The versioned byte encoding of a state (`encode` / `decode`), checked as every other way
//! in is.

use super::{Card, CardSet, Error, NO_SEAT, NUM_CARDS, Phase, Refusal, Rng, Rules, State};

const ENCODING_VERSION: u8 = 2;

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
