//! Move generation: the legal moves of a state, random picks among them without a list, and
//! the legality and sweep tests of one move.

use super::{
    CaptureMode, Card, CardSet, Error, LastPlaySweep, MAX_HAND, Move, MoveKind, NO_CARD, Phase,
    Rank, Rules, State, Suit, TableIndex, keep_fewest,
};

impl State {
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
    pub(super) fn illegal(&self, mv: Move) -> Error {
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
}

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
