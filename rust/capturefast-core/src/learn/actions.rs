//! The fixed action space of the learning interfaces: an action id always means the same
//! thing, and a move is one action or a few.
//!
//! # Layout (`NUM_ACTIONS` = 84)
//!
//! | ids | action | legal when |
//! | --- | --- | --- |
//! | `0..40` | play card `id` from hand | no move is being built and the card has a legal play |
//! | `40..80` | take table card `id - 40` into the capture being built | see below |
//! | `80` | finish: play the card with the cards taken so far (none: a trail) | see below |
//! | `81` | keep the cut card (Chkobba, K5.3) | cut phase |
//! | `82` | table the cut card (K5.4) | cut phase, where a cut card may go to the table |
//! | `83` | claim the trailed card (renuncio, V-E7), then take its capture | a claim is legal |
//!
//! Card ids are the core's ([`Card::id`], rank-major, docs/conventions.md).
//!
//! # Why several actions a move
//!
//! A capture is a set of table cards, and a crowded table has hundreds of them: one id per
//! move cannot be fixed (it would have to name a subset of 40 cards), and an index into the
//! list of legal moves means something else in every state. So a move is built in steps: the
//! played card (or the claim), then the captured cards one at a time **in increasing id
//! order**, until only one legal move agrees with the steps so far; that move is then played.
//! `finish` is needed only where the cards taken so far are themselves a legal capture (or,
//! with nothing taken, a legal trail) and a larger legal capture also starts with them.
//!
//! The mask is exact: `take c` is allowed only if some legal move of the chosen card takes
//! exactly the cards taken so far below `c`, and `c`; `finish` only if the cards taken so far
//! are a legal move. Taking in increasing order makes the map from action sequences to moves
//! a bijection: a move is reached by its card, then its captured cards in id order up to the
//! first point where it is the only candidate (and `finish` if it never becomes the only one
//! before its last card), and by no other sequence (`tests/learn.rs` checks this over random
//! and crowded states of every game).

use crate::error::Error;
use crate::game::action::{Move, MoveKind};
use crate::game::card::{Card, NUM_CARDS};
use crate::game::cardset::CardSet;
use crate::game::rules::Rules;
use crate::game::state::State;

/// The number of action ids.
pub const NUM_ACTIONS: usize = 84;
/// `PLAY + id`: play card `id` from hand (start a move).
pub const PLAY: usize = 0;
/// `TAKE + id`: take table card `id` into the capture being built.
pub const TAKE: usize = NUM_CARDS;
/// Play the card being built with the cards taken so far.
pub const FINISH: usize = 2 * NUM_CARDS;
/// Keep the cut card.
pub const KEEP_CUT: usize = FINISH + 1;
/// Table the cut card.
pub const TABLE_CUT: usize = FINISH + 2;
/// Claim the trailed card (renuncio), then build its capture.
pub const CLAIM: usize = FINISH + 3;

/// The name of action `id`: `play 7D`, `take 3C`, `finish`, `keep`, `table`, `claim`; an
/// error for an id past the space.
pub fn action_name(id: usize) -> Result<String, Error> {
    Ok(match id {
        i if i < TAKE => format!("play {}", Card::from_valid_id(i as u8)),
        i if i < FINISH => format!("take {}", Card::from_valid_id((i - TAKE) as u8)),
        FINISH => "finish".to_string(),
        KEEP_CUT => "keep".to_string(),
        TABLE_CUT => "table".to_string(),
        CLAIM => "claim".to_string(),
        _ => {
            return Err(Error::IllegalMove(format!(
                "action ids are 0 to {}: {id}",
                NUM_ACTIONS - 1
            )));
        }
    })
}

/// A decision in progress: the legal moves of one state and the steps taken towards one of
/// them. Reused across states (its vectors keep their capacity).
#[derive(Clone, Debug, Default)]
pub struct Decision {
    /// The legal moves of the state.
    legal: Vec<Move>,
    /// The legal moves that agree with the steps so far; empty before the first step.
    candidates: Vec<Move>,
    /// The move being built: its kind (play or claim) and card.
    started: Option<(MoveKind, Card)>,
    /// The table cards taken so far.
    taken: CardSet,
    /// Every card id at or below the last taken one (empty before the first take).
    below: CardSet,
}

impl Decision {
    /// An empty decision; call [`Decision::reset`] before use.
    pub fn new() -> Decision {
        Decision::default()
    }

    /// Starts the decision of `state` (under the rules it was made with): no step taken.
    pub fn reset(&mut self, rules: &Rules, state: &State) {
        state.legal_moves(rules, &mut self.legal);
        self.clear();
    }

    fn clear(&mut self) {
        self.candidates.clear();
        self.started = None;
        self.taken = CardSet::EMPTY;
        self.below = CardSet::EMPTY;
    }

    /// The legal moves of the state.
    pub fn legal_moves(&self) -> &[Move] {
        &self.legal
    }

    /// The move being built (its kind and card) and the cards taken so far; `None` before
    /// the first step.
    pub fn building(&self) -> Option<(MoveKind, Card, CardSet)> {
        self.started.map(|(k, c)| (k, c, self.taken))
    }

    /// The actions taken so far towards the move being built (empty before the first step):
    /// its first action, then its taken cards in id order. Replaying them with
    /// [`Decision::step`] on a fresh decision of the same state rebuilds this one.
    pub fn steps(&self) -> Vec<usize> {
        let Some((kind, card)) = self.started else {
            return Vec::new();
        };
        let first = if kind == MoveKind::Claim {
            CLAIM
        } else {
            PLAY + card.index()
        };
        std::iter::once(first)
            .chain(self.taken.into_iter().map(|c| TAKE + c.index()))
            .collect()
    }

    /// The action a legal move starts with.
    fn first_action(m: Move) -> usize {
        match m.kind() {
            MoveKind::Play => PLAY + m.card().index(),
            MoveKind::KeepCut => KEEP_CUT,
            MoveKind::TableCut => TABLE_CUT,
            MoveKind::Claim => CLAIM,
        }
    }

    /// The next action of candidate `m`: its next captured card above the last taken, or
    /// `finish` if it takes no more.
    fn next_action(&self, m: Move) -> usize {
        (m.captures() - self.below)
            .first()
            .map_or(FINISH, |c| TAKE + c.index())
    }

    /// Calls `f` with each legal action (repeats possible, in no particular order).
    #[inline]
    fn for_each_legal(&self, mut f: impl FnMut(usize)) {
        if self.started.is_none() {
            for &m in &self.legal {
                f(Decision::first_action(m));
            }
        } else {
            for &m in &self.candidates {
                f(self.next_action(m));
            }
        }
    }

    /// Writes the legal-action mask into `out` (`NUM_ACTIONS` long).
    pub fn write_mask(&self, out: &mut [bool]) {
        out.fill(false);
        self.for_each_legal(|a| out[a] = true);
    }

    /// Whether `action` is legal now.
    pub fn is_legal(&self, action: usize) -> bool {
        let mut found = false;
        self.for_each_legal(|a| found |= a == action);
        found
    }

    /// The legal actions, sorted.
    pub fn legal_actions(&self) -> Vec<usize> {
        let mut mask = [false; NUM_ACTIONS];
        self.write_mask(&mut mask);
        (0..NUM_ACTIONS).filter(|&a| mask[a]).collect()
    }

    /// Takes `action`: returns the move once the steps determine it (the decision is then
    /// spent: [`Decision::reset`] it on the next state), `None` while it is still being built.
    /// An illegal action is an error naming it and changes nothing.
    pub fn step(&mut self, action: usize) -> Result<Option<Move>, Error> {
        if !self.is_legal(action) {
            let name = action_name(action)?;
            return Err(Error::IllegalMove(format!(
                "not a legal action now: {action} ({name})"
            )));
        }
        if self.started.is_none() {
            let mut first = self
                .legal
                .iter()
                .filter(|&&m| Decision::first_action(m) == action);
            let m = *first.next().expect("a legal action starts a legal move");
            if matches!(m.kind(), MoveKind::KeepCut | MoveKind::TableCut) {
                return Ok(Some(self.finish(m)));
            }
            self.started = Some((m.kind(), m.card()));
            self.candidates.clear();
            self.candidates.push(m);
            self.candidates.extend(first.copied());
        } else if action == FINISH {
            let taken = self.taken;
            let m = *self
                .candidates
                .iter()
                .find(|m| m.captures() == taken)
                .expect("finish is legal only where the taken cards are a move");
            return Ok(Some(self.finish(m)));
        } else {
            let card = Card::from_valid_id((action - TAKE) as u8);
            self.taken.insert(card);
            // Every id up to and including the card's.
            self.below = CardSet((1u64 << (card.index() + 1)) - 1);
            let (taken, below) = (self.taken, self.below);
            self.candidates.retain(|m| m.captures() & below == taken);
        }
        if let [m] = self.candidates[..] {
            return Ok(Some(self.finish(m)));
        }
        Ok(None)
    }

    fn finish(&mut self, m: Move) -> Move {
        self.clear();
        self.legal.clear();
        m
    }
}

/// The actions that reach `m` from the start of the decision of its state, as
/// [`Decision::step`] would take them: what a bot's move is in the action space.
/// `legal` are the state's legal moves, which must hold `m`.
pub fn actions_of(legal: &[Move], m: Move) -> Vec<usize> {
    let mut out = vec![Decision::first_action(m)];
    if matches!(m.kind(), MoveKind::KeepCut | MoveKind::TableCut) {
        return out;
    }
    let mut candidates: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&x| x.kind() == m.kind() && x.card() == m.card())
        .collect();
    let mut taken = CardSet::EMPTY;
    for card in m.captures() {
        if candidates.len() == 1 {
            return out;
        }
        taken.insert(card);
        let below = CardSet((1u64 << (card.index() + 1)) - 1);
        candidates.retain(|x| x.captures() & below == taken);
        out.push(TAKE + card.index());
    }
    if candidates.len() > 1 {
        out.push(FINISH);
    }
    out
}
