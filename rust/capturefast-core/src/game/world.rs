//! Worlds consistent with what a seat sees: the complete positions a view may stand for, drawn
//! uniformly ([`determinize`]), and whether a view hides nothing that matters ([`is_open`]).

use crate::error::Error;
use crate::game::action::Move;
use crate::game::card::{Card, NUM_CARDS};
use crate::game::cardset::CardSet;
use crate::game::rng::Rng;
use crate::game::rules::Rules;
use crate::game::state::{Phase, Position, State};
use crate::game::view::View;

/// Whether the view hides nothing that matters: 2 players and an empty stock, so the unseen
/// cards are exactly the opponent's hand and one world is the truth.
pub fn is_open(view: &View) -> bool {
    view.num_players == 2 && view.stock_size == 0 && view.phase == Phase::Play
}

/// A complete position drawn uniformly among those consistent with what `view` shows: the other
/// hands (of the sizes shown) and the stock, in a uniformly random order, dealt from the unseen
/// cards; a cut card the seat was not shown is one of them too. Reads nothing but the view.
pub fn determinize(rules: &Rules, view: &View, rng: &mut Rng) -> Result<State, Error> {
    if view.num_players != rules.num_players() {
        return Err(Error::Position(format!(
            "the view is for {} players, the rules for {}",
            view.num_players,
            rules.num_players()
        )));
    }
    let Some(to_move) = view.to_move else {
        return Err(Error::IllegalMove(
            "the hand is over: nothing is hidden".to_string(),
        ));
    };
    let mut pool: Vec<Card> = view.unseen.iter().collect();
    rng.shuffle(&mut pool);
    let seed = rng.next_u64();
    if view.phase == Phase::Cut {
        return cut_world(rules, view, to_move, &pool, seed);
    }
    let n = usize::from(view.num_players);
    let hidden: usize = (0..n)
        .filter(|&s| s != usize::from(view.seat))
        .map(|s| usize::from(view.hand_sizes[s]))
        .sum();
    if hidden + usize::from(view.stock_size) != pool.len() {
        return Err(Error::Position(format!(
            "the view hides {} cards, but its other hands and stock hold {}",
            pool.len(),
            hidden + usize::from(view.stock_size)
        )));
    }
    let mut rest = pool.as_slice();
    let mut hands = vec![CardSet::EMPTY; n];
    for (s, hand) in hands.iter_mut().enumerate() {
        if s == usize::from(view.seat) {
            *hand = view.hand;
        } else {
            let (take, more) = rest.split_at(usize::from(view.hand_sizes[s]));
            *hand = take.iter().copied().collect();
            rest = more;
        }
    }
    let p = Position {
        hands,
        table: view.table,
        stock: rest.to_vec(),
        to_move,
        dealer: view.dealer,
        last_capturer: view.last_capturer,
        piles: view.piles,
        sweeps: view.sweeps,
        scores: view.scores,
        seed,
    };
    let state = State::from_position(rules, &p)?;
    if view.declared == [0, 0] && view.claimable.is_none() {
        return Ok(state);
    }
    // A `Position` holds neither the hand's declaration points nor a renuncio claim: they are
    // the last three bytes of the state's encoding (declared per side, the claimable card).
    let mut b = state.encode(rules);
    let n = b.len();
    b[n - 3..n - 1].copy_from_slice(&view.declared);
    b[n - 1] = view.claimable.map_or(u8::MAX, Card::id);
    State::decode(rules, &b)
}

/// How the worlds of one decision or analysis are drawn from a view (`pimc`'s by default
/// balanced, [`PimcBot::with_draw`](crate::PimcBot::with_draw); every other search's independent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Draw {
    /// Each world apart from the others, as [`determinize`] draws one.
    #[default]
    Independent,
    /// The other seats' hands dealt in turn from one shuffle of the unseen cards, as many
    /// worlds' hands as it holds (a pass), then from a new shuffle; each world's stock is the
    /// rest of the unseen cards, shuffled apart. Each world is still one that [`determinize`]
    /// draws with the same chance, but over a pass every unseen card is in some other hand once
    /// at most, so the cards spread over the worlds evenly instead of by chance: a mean over
    /// the worlds is then about as close to the mean over all of them as one over three or
    /// four times as many independent worlds (`docs/performance.md`). A view that worlds are
    /// built from by [`determinize`] every time (a cut decision, declarations, a renuncio
    /// claim) is drawn independently.
    Balanced,
}

/// Worlds drawn from one view one after another, as [`Draw`] says: independent, the same
/// worlds, from the same generator, as calls of [`determinize`], whose checks of the view run
/// once. A play position whose view shows no declarations and no claimable card (what the
/// position notation's `Position` holds) is checked and built by the first draw; each later
/// draw only deals the hidden cards anew into a copy of it. Any other view is drawn by
/// [`determinize`] every time.
pub(crate) struct Draws<'v> {
    view: &'v View,
    draw: Draw,
    /// The first world, when later ones may be dealt into it.
    template: Option<State>,
    pool: Vec<Card>,
    /// Under [`Draw::Balanced`]: the pass's shuffle of the unseen cards, and where the next
    /// world's other hands start in it.
    pass: Vec<Card>,
    next: usize,
}

impl<'v> Draws<'v> {
    pub(crate) fn new(view: &'v View, draw: Draw) -> Draws<'v> {
        Draws {
            view,
            draw,
            template: None,
            pool: Vec::new(),
            pass: Vec::new(),
            next: 0,
        }
    }

    /// The next world: `determinize(rules, view, rng)`, or under [`Draw::Balanced`] the next of
    /// the pass.
    pub(crate) fn draw(&mut self, rules: &Rules, rng: &mut Rng) -> Result<State, Error> {
        let view = self.view;
        let Some(template) = &self.template else {
            let world = determinize(rules, view, rng)?;
            if view.phase == Phase::Play && view.declared == [0, 0] && view.claimable.is_none() {
                self.template = Some(world);
                if self.draw == Draw::Balanced {
                    // The first world of the pass too: this one only checked the view.
                    return Ok(self.balanced(world, rng));
                }
            }
            return Ok(world);
        };
        if self.draw == Draw::Balanced {
            return Ok(self.balanced(*template, rng));
        }
        // `determinize`'s draw: the unseen cards shuffled, then the generator's seed.
        self.pool.clear();
        self.pool.extend(view.unseen.iter());
        rng.shuffle(&mut self.pool);
        let seed = rng.next_u64();
        let mut hands = [CardSet::EMPTY; 4];
        let mut rest = self.pool.as_slice();
        for (s, hand) in hands
            .iter_mut()
            .enumerate()
            .take(usize::from(view.num_players))
        {
            if s == usize::from(view.seat) {
                *hand = view.hand;
            } else {
                let (take, more) = rest.split_at(usize::from(view.hand_sizes[s]));
                *hand = take.iter().copied().collect();
                rest = more;
            }
        }
        let mut world = *template;
        world.deal_hidden(hands, rest, seed);
        Ok(world)
    }

    /// A world of [`Draw::Balanced`] dealt into `template`: the other hands from the pass (a
    /// new one if this one has too few cards left), the stock the other unseen cards shuffled.
    fn balanced(&mut self, template: State, rng: &mut Rng) -> State {
        let view = self.view;
        let others = |s: usize| s != usize::from(view.seat) && s < usize::from(view.num_players);
        let hidden: usize = (0..4)
            .filter(|&s| others(s))
            .map(|s| usize::from(view.hand_sizes[s]))
            .sum();
        if self.pass.is_empty() || self.next + hidden > self.pass.len() {
            self.pass.clear();
            self.pass.extend(view.unseen.iter());
            rng.shuffle(&mut self.pass);
            self.next = 0;
        }
        let mut hands = [CardSet::EMPTY; 4];
        hands[usize::from(view.seat)] = view.hand;
        let mut taken = CardSet::EMPTY;
        for (s, hand) in hands.iter_mut().enumerate().filter(|&(s, _)| others(s)) {
            let size = usize::from(view.hand_sizes[s]);
            *hand = self.pass[self.next..self.next + size]
                .iter()
                .copied()
                .collect();
            taken |= *hand;
            self.next += size;
        }
        self.pool.clear();
        self.pool.extend((view.unseen - taken).iter());
        rng.shuffle(&mut self.pool);
        let mut world = template;
        world.deal_hidden(hands, &self.pool, rng.next_u64());
        world
    }
}

/// A Chkobba cut decision (K5): the cut card (shown to the cutter, else drawn from `pool`) and
/// the stock in `pool`'s order. `Position` describes play positions only, so the state is built
/// through its versioned byte encoding (`State::encode`'s layout), which `decode` validates.
fn cut_world(
    rules: &Rules,
    view: &View,
    to_move: u8,
    pool: &[Card],
    seed: u64,
) -> Result<State, Error> {
    let (cut, stock) = match view.cut_card {
        Some(c) => (c, pool),
        None => match pool.split_first() {
            Some((&c, rest)) => (c, rest),
            None => return Err(Error::Position("no card left for the cut".to_string())),
        },
    };
    if stock.len() != NUM_CARDS - 1 || !rules.game_profile().cut_card {
        return Err(Error::Position(
            "a cut decision needs a Chkobba view with 39 cards in the stock".to_string(),
        ));
    }
    let mut b = Vec::with_capacity(crate::game::state::ENCODED_LEN);
    // The encoding's version, as the state writes it.
    let version = State::new(rules, seed).encode(rules)[0];
    // Header: version, players, dealer, to move, last capturer (none), phase (cut), cut card,
    // winner (none), deck position, game (chkobba).
    b.extend_from_slice(&[
        version,
        view.num_players,
        view.dealer,
        to_move,
        u8::MAX,
        0,
        cut.id(),
        u8::MAX,
        1,
        2,
    ]);
    // Four hands, the table and two piles: all empty.
    b.extend_from_slice(&[0u8; 56]);
    b.push(cut.id());
    b.extend(stock.iter().map(|c| c.id()));
    b.extend_from_slice(&view.sweeps);
    for s in view.scores {
        b.extend_from_slice(&s.to_le_bytes());
    }
    b.extend_from_slice(&seed.to_le_bytes());
    b.extend_from_slice(&0u32.to_le_bytes());
    // Version 2: declaration points per side (none before the deal), no renuncio claim.
    b.extend_from_slice(&[0, 0, u8::MAX]);
    let state = State::decode(rules, &b)?;
    debug_assert_eq!(state.cut_card(), Some(cut));
    debug_assert_eq!(state.stock(), stock);
    Ok(state)
}

impl View {
    /// The legal moves of the viewing seat if it is to move (else none), in the order of
    /// [`State::legal_moves`], each with whether it scores a sweep ([`State::is_sweep`]).
    ///
    /// The moves depend only on what the mover sees (its hand, the table, a cut card it was
    /// shown, a claimable card), so every world consistent with the view has the same ones: the
    /// engine's one generator lists them in such a world.
    pub fn legal_moves(&self, rules: &Rules) -> Result<Vec<(Move, bool)>, Error> {
        if self.to_move != Some(self.seat) {
            return Ok(Vec::new());
        }
        let world = determinize(rules, self, &mut Rng::new(0))?;
        let mut moves = Vec::new();
        world.legal_moves(rules, &mut moves);
        Ok(moves
            .into_iter()
            .map(|mv| (mv, world.is_sweep(rules, mv)))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::{Game, OptionValue, Options};

    fn variants() -> Vec<Rules> {
        let mut all: Vec<Rules> = [Game::Scopa, Game::Escoba, Game::Chkobba]
            .into_iter()
            .flat_map(|g| [2, 4].map(|p| Rules::profile(g, p).unwrap()))
            .collect();
        let mut declared = Options::new(Game::Scopa, 2);
        declared
            .set("declarations", &OptionValue::Bool(true))
            .unwrap();
        all.push(Rules::new(declared).unwrap());
        let mut claims = Options::new(Game::Escoba, 2);
        claims
            .set("compulsory_capture", &OptionValue::Bool(false))
            .unwrap();
        claims.set("renuncio", &OptionValue::Bool(true)).unwrap();
        all.push(Rules::new(claims).unwrap());
        all
    }

    /// Calls `f` with the view of each seat at every position of `hands` random hands of each
    /// of [`variants`] (cut decisions, declarations and claims among them), and a seed for it,
    /// all drawn from `seed`.
    fn each_view(seed: u64, hands: usize, mut f: impl FnMut(&Rules, &View, u64)) {
        let mut rng = Rng::new(seed);
        let mut moves = Vec::new();
        for rules in variants() {
            for _ in 0..hands {
                let mut state = State::new(&rules, rng.next_u64());
                while state.to_move().is_some() {
                    for seat in 0..rules.num_players() {
                        let view = state.view(seat);
                        f(&rules, &view, rng.next_u64());
                    }
                    state.legal_moves(&rules, &mut moves);
                    state.apply_unchecked(&rules, moves[rng.below(moves.len() as u64) as usize]);
                }
            }
        }
    }

    #[test]
    fn draws_are_the_worlds_determinize_draws() {
        // Every position of random hands (cut decisions, declarations and claims among them),
        // from the view of each seat that has a world: the same worlds in the same order,
        // field for field and byte for byte.
        let mut dealt_into = 0;
        each_view(17, 20, |rules, view, seed| {
            let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
            let mut draws = Draws::new(view, Draw::Independent);
            for _ in 0..4 {
                let want = determinize(rules, view, &mut a).unwrap();
                let got = draws.draw(rules, &mut b).unwrap();
                assert_eq!(got, want);
                assert_eq!(got.encode(rules), want.encode(rules));
            }
            dealt_into += usize::from(draws.template.is_some());
            assert_eq!(a.next_u64(), b.next_u64());
        });
        assert!(dealt_into > 1000, "only {dealt_into} views were dealt into");
    }

    #[test]
    fn balanced_draws_are_worlds_of_the_view_that_spread_the_unseen_cards() {
        // Every position of random hands, from the view of each seat that has a world: each
        // world shows the seat its view; the other hands of a pass's worlds never share a card
        // (a pass: as many worlds as the unseen cards hold other hands' worth); a view that
        // `Draws` cannot deal into is drawn as `determinize` draws.
        let mut passes = 0;
        each_view(19, 10, |rules, view, seed| {
            let seat = view.seat;
            let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
            let mut draws = Draws::new(view, Draw::Balanced);
            let hidden: usize = (0..usize::from(view.num_players))
                .filter(|&s| s != usize::from(seat))
                .map(|s| usize::from(view.hand_sizes[s]))
                .sum();
            let per_pass = match hidden {
                0 => 1,
                h => view.unseen.len() as usize / h,
            };
            let mut dealt = CardSet::EMPTY;
            for w in 0..2 * per_pass {
                let got = draws.draw(rules, &mut b).unwrap();
                if draws.template.is_none() {
                    assert_eq!(got, determinize(rules, view, &mut a).unwrap());
                    continue;
                }
                assert_eq!(got.view(seat), *view);
                if w % per_pass == 0 {
                    dealt = CardSet::EMPTY;
                    passes += 1;
                }
                for s in (0..rules.num_players()).filter(|&s| s != seat) {
                    assert!((got.hand(s) & dealt).is_empty());
                    dealt |= got.hand(s);
                }
            }
        });
        assert!(passes > 1000, "only {passes} passes");
    }

    #[test]
    fn a_balanced_world_is_drawn_with_determinizes_chances() {
        // Each pair of unseen cards is in the opponent's three-card hand as often as a uniform
        // draw puts it there (3 * 2 / (n * (n - 1)) of the worlds), within six standard
        // deviations; and each card of the stock's first place as often (1 / n).
        let rules = Rules::profile(Game::Chkobba, 2).unwrap();
        // The first position of the third round, from the leader's view.
        let mut moves = Vec::new();
        let mut state = State::new(&rules, 5);
        while !(state.phase() == Phase::Play && state.hand(0).len() + state.hand(1).len() == 6)
            || state.stock().len() > 24
        {
            state.legal_moves(&rules, &mut moves);
            state.apply_unchecked(&rules, moves[0]);
        }
        let seat = state.to_move().unwrap();
        let view = state.view(seat);
        let other = 1 - seat;
        assert_eq!(view.hand_sizes[usize::from(other)], 3);
        let unseen: Vec<Card> = view.unseen.iter().collect();
        let n = unseen.len();
        let worlds = 60_000;
        let mut pairs = vec![0u32; NUM_CARDS * NUM_CARDS];
        let mut first = [0u32; NUM_CARDS];
        let mut draws = Draws::new(&view, Draw::Balanced);
        let mut rng = Rng::new(23);
        for _ in 0..worlds {
            let world = draws.draw(&rules, &mut rng).unwrap();
            let hand: Vec<Card> = world.hand(other).iter().collect();
            for (i, a) in hand.iter().enumerate() {
                for b in &hand[i + 1..] {
                    pairs[usize::from(a.id()) * NUM_CARDS + usize::from(b.id())] += 1;
                }
            }
            first[usize::from(world.stock()[0].id())] += 1;
        }
        let within = |count: u32, p: f64| {
            let (mean, sd) = (worlds as f64 * p, (worlds as f64 * p * (1.0 - p)).sqrt());
            (f64::from(count) - mean).abs() < 6.0 * sd
        };
        let pair = 6.0 / (n * (n - 1)) as f64;
        for (i, a) in unseen.iter().enumerate() {
            for b in &unseen[i + 1..] {
                let (lo, hi) = (a.id().min(b.id()), a.id().max(b.id()));
                let count = pairs[usize::from(lo) * NUM_CARDS + usize::from(hi)];
                assert!(within(count, pair), "{a:?} {b:?}: {count}");
            }
            assert!(within(first[usize::from(a.id())], 1.0 / n as f64));
        }
    }
}
