//! The checks of a position: `from_parts` (every live field), `validate` (what `decode` and
//! the notation read), and the checks of `from_position`; each refusal names its field.

use super::{
    CaptureMode, Card, CardSet, Error, MAX_HANDS, MAX_SCORE, NO_CARD, NO_SEAT, NUM_CARDS,
    OpeningSweeps, Parts, Phase, Position, Rng, Rules, State, TableIndex, phase_word,
};

impl State {
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
    pub(super) fn validate(&self, rules: &Rules) -> Result<(), Refusal> {
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

pub(super) fn check_seats_and_cards(rules: &Rules, p: &Position) -> Result<(), Refusal> {
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
pub(super) fn check_history(rules: &Rules, p: &Position) -> Result<(), Refusal> {
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
