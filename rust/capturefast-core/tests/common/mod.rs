//! Helpers shared by the integration tests: rules from option pairs, cards from notation,
//! hands played by bots, duplicate deals, positions with their hidden cards moved.
// Each test crate uses some of these.
#![allow(dead_code)]

use capturefast_core::{
    Bot, Card, CardSet, Game, LazyView, Move, OptionValue, Options, Position, Rng, Rules, State,
};

/// The rules of `game` for `players` with the options `opts` set by name.
pub fn rules(game: Game, players: u8, opts: &[(&str, OptionValue)]) -> Rules {
    let mut o = Options::new(game, players);
    for (name, value) in opts {
        o.set(name, value).unwrap();
    }
    Rules::new(o).unwrap()
}

/// A word option value.
pub fn word(s: &str) -> OptionValue {
    OptionValue::Str(s.to_string())
}

pub const ON: OptionValue = OptionValue::Bool(true);
pub const OFF: OptionValue = OptionValue::Bool(false);

/// A card from its notation.
pub fn c(s: &str) -> Card {
    s.parse().unwrap()
}

/// A card set from notations.
pub fn set(cards: &[&str]) -> CardSet {
    cards.iter().map(|s| c(s)).collect()
}

/// Plays the current hand of `state` to its end, seat `s` played by `bots[s]`, checking that
/// every move is legal.
pub fn play_hand(
    rules: &Rules,
    state: &mut State,
    bots: &mut [Box<dyn Bot>],
    moves: &mut Vec<Move>,
) {
    while !state.hand_over() {
        state.legal_moves(rules, moves);
        let seat = state.to_move().expect("a seat to move");
        let mv = bots[usize::from(seat)].choose(rules, &LazyView::new(state, seat), moves);
        assert!(moves.contains(&mv), "{seat}: illegal {mv}");
        state.apply_unchecked(rules, mv);
    }
}

/// Mean and 95% half-width of `a`'s side's points minus `b`'s per hand, over `deals` duplicate
/// deals (2 or 4 players): each deal is played twice with the sides swapped and the same bot
/// seeds, which cancels most of the luck of the cards. `a` and `b` build a bot from a seed.
pub fn duplicate(
    rules: &Rules,
    a: &dyn Fn(u64) -> Box<dyn Bot>,
    b: &dyn Fn(u64) -> Box<dyn Bot>,
    deals: u64,
    seed: u64,
) -> (f64, f64) {
    let mut moves = Vec::new();
    let players = rules.num_players();
    let (mut sum, mut sum2) = (0.0, 0.0);
    for d in 0..deals {
        let deal = Rng::derive(seed, d);
        let mut diff = 0.0;
        for a_side in 0..2usize {
            // Player `k` of a side gets the same seed whichever side `a` sits on.
            let mut bots: Vec<Box<dyn Bot>> = (0..players)
                .map(|seat| {
                    let k = u64::from(seat / 2);
                    if usize::from(seat % 2) == a_side {
                        a(Rng::derive(deal, 1 + k))
                    } else {
                        b(Rng::derive(deal, 3 + k))
                    }
                })
                .collect();
            let mut state = State::new(rules, deal);
            play_hand(rules, &mut state, &mut bots, &mut moves);
            let p = state.hand_score(rules).unwrap().points;
            diff += f64::from(p[a_side]) - f64::from(p[1 - a_side]);
        }
        let x = diff / 2.0;
        sum += x;
        sum2 += x * x;
    }
    let n = deals as f64;
    let mean = sum / n;
    let var = (sum2 / n - mean * mean) * n / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// The position of `state` (in its play phase), card by card.
pub fn position(state: &State) -> Position {
    Position {
        hands: (0..state.num_players()).map(|s| state.hand(s)).collect(),
        table: state.table(),
        stock: state.stock().to_vec(),
        to_move: state.to_move().unwrap(),
        dealer: state.dealer(),
        last_capturer: state.last_capturer(),
        piles: state.piles(),
        sweeps: state.sweeps(),
        scores: state.scores(),
        seed: 0,
    }
}

/// Moves one card the seat to move cannot see to another hidden place: between another hand
/// and the stock, or between two other hands. `None` when nothing is hidden from it but one
/// hand (a 2-player last round).
pub fn shuffle_hidden(p: &Position, rng: &mut Rng) -> Option<Position> {
    let me = usize::from(p.to_move);
    let others: Vec<usize> = (0..p.hands.len())
        .filter(|&s| s != me && !p.hands[s].is_empty())
        .collect();
    let mut q = p.clone();
    if others.is_empty() {
        // Only the stock is hidden: its order is.
        let n = p.stock.len();
        if n < 2 {
            return None;
        }
        let i = rng.below(n as u64 - 1) as usize;
        q.stock.swap(i, n - 1);
        return Some(q);
    }
    let a = others[rng.below(others.len() as u64) as usize];
    let ca: Vec<_> = p.hands[a].iter().collect();
    let card_a = ca[rng.below(ca.len() as u64) as usize];
    if !p.stock.is_empty() {
        let i = rng.below(p.stock.len() as u64) as usize;
        q.hands[a].remove(card_a);
        q.hands[a].insert(p.stock[i]);
        q.stock[i] = card_a;
        return Some(q);
    }
    let b = *others.iter().find(|&&b| b != a)?;
    let cb: Vec<_> = p.hands[b].iter().collect();
    let card_b = cb[rng.below(cb.len() as u64) as usize];
    q.hands[a].remove(card_a);
    q.hands[a].insert(card_b);
    q.hands[b].remove(card_b);
    q.hands[b].insert(card_a);
    Some(q)
}

/// Rule sets whose move lists differ from the default games' (docs/variants.md): renuncio
/// claims with optional trails (2 and 4 players), optional capture alone, fewest cards with an
/// ace taking all, Cirulla's captures and declarations, and the Scopone deals (one clockwise).
pub fn move_variants() -> Vec<Rules> {
    vec![
        rules(
            Game::Escoba,
            2,
            &[("compulsory_capture", OFF), ("renuncio", ON)],
        ),
        rules(
            Game::Scopa,
            4,
            &[("compulsory_capture", OFF), ("renuncio", ON)],
        ),
        rules(Game::Scopa, 2, &[("compulsory_capture", OFF)]),
        rules(
            Game::Chkobba,
            2,
            &[("fewest_cards", ON), ("ace_takes_all", ON)],
        ),
        rules(
            Game::Scopa,
            2,
            &[
                ("capture", word("match_or_fifteen")),
                ("ace_takes_all", ON),
                ("ace_sweep", ON),
                ("declarations", ON),
                ("target", OptionValue::Int(51)),
            ],
        ),
        rules(Game::Scopa, 4, &[("deal", word("scopone"))]),
        rules(
            Game::Scopa,
            4,
            &[
                ("deal", word("scientifico")),
                ("direction", word("clockwise")),
            ],
        ),
    ]
}

/// Plays the current hand of `state` to its end, seat `s` played by `bots[s]`, checking that
/// every move is in the legal list; returns the moves.
pub fn play_logged<B: Bot + ?Sized>(
    rules: &Rules,
    state: &mut State,
    bots: &mut [Box<B>],
) -> Vec<Move> {
    let mut moves = Vec::new();
    let mut log = Vec::new();
    while !state.hand_over() {
        state.legal_moves(rules, &mut moves);
        let seat = state.to_move().unwrap();
        let mv = bots[usize::from(seat)].choose(rules, &LazyView::new(state, seat), &moves);
        assert!(moves.contains(&mv), "seat {seat}: illegal {mv}");
        log.push(mv);
        state.apply_unchecked(rules, mv);
    }
    log
}
