//! Tests of the bots: the registry, the greedy and expert heuristics and the last round.

use crate::eval::sweep::{count_of_value, sweep_value};
use crate::game::action::Move;
use crate::game::capture::TableIndex;
use crate::game::card::Card;
use crate::game::cardset::CardSet;
use crate::game::rng::Rng;
use crate::game::rules::{Game, Rules};
use crate::game::state::State;
use crate::game::view::{LazyView, View};
use crate::play::bots::{Bot, BotKind, RandomBot, RandomCardBot, SeatBot};
use crate::play::expert::ExpertBot;
use crate::play::greedy::GreedyBot;

fn set(cards: &[&str]) -> CardSet {
    cards.iter().map(|s| s.parse::<Card>().unwrap()).collect()
}

#[test]
fn names_round_trip() {
    for k in BotKind::ALL {
        assert_eq!(BotKind::from_name(k.name()).unwrap(), k);
    }
    assert!(BotKind::from_name("nobody").is_err());
}

/// Seat 0's view of a 2-player position: the opponent holds 3 cards, and every card not
/// given is unseen (their hand or the stock).
fn view(game: Game, hand: &[&str], table: &[&str], piles: [&[&str]; 2]) -> (Rules, View) {
    let rules = Rules::profile(game, 2).unwrap();
    let (hand, table) = (set(hand), set(table));
    let piles = [set(piles[0]), set(piles[1])];
    let unseen = !(hand | table | piles[0] | piles[1]);
    let view = View {
        seat: 0,
        num_players: 2,
        hand,
        table,
        piles,
        sweeps: [0, 0],
        declared: [0, 0],
        scores: [0, 0],
        hand_sizes: [hand.len() as u8, 3, 0, 0],
        stock_size: (unseen.len() - 3) as u8,
        dealer: 1,
        to_move: Some(0),
        last_capturer: (!piles[0].is_empty()).then_some(0),
        cut_card: None,
        claimable: None,
        phase: crate::game::state::Phase::Play,
        unseen,
    };
    (rules, view)
}

/// The bot's choice among the legal moves of the seat of `view`.
fn choose(bot: &mut dyn Bot, rules: &Rules, view: &View) -> String {
    let mut legal = Vec::new();
    let index = TableIndex::new(rules, view.table);
    for card in view.hand {
        let start = legal.len();
        rules.for_each_capture(&index, card, &mut |s| legal.push(Move::play(card, s)));
        if legal.len() == start {
            legal.push(Move::play(card, CardSet::EMPTY));
        }
    }
    bot.choose(rules, &LazyView::from(view), &legal).to_string()
}

const NONE: [&[&str]; 2] = [&[], &[]];

#[test]
fn cut_card_kept_if_material_else_tabled() {
    let (rules, mut v) = view(Game::Chkobba, &[], &[], NONE);
    v.phase = crate::game::state::Phase::Cut;
    for (card, keep) in [
        ("7S", true),
        ("6H", true),
        ("2D", true),
        ("KS", false),
        ("AC", false),
    ] {
        let c: Card = card.parse().unwrap();
        v.cut_card = Some(c);
        let legal = [Move::cut(c, true), Move::cut(c, false)];
        let want = if keep { legal[0] } else { legal[1] };
        for kind in [BotKind::Greedy, BotKind::Expert] {
            assert_eq!(
                kind.build(3).choose(&rules, &LazyView::from(&v), &legal),
                want,
                "{kind:?} {card}"
            );
        }
    }
}

#[test]
fn greedy_takes_the_sweep_and_the_settebello() {
    let (rules, v) = view(Game::Scopa, &["5C", "3H", "KS"], &["2D", "3S"], NONE);
    assert_eq!(choose(&mut GreedyBot::new(1), &rules, &v), "5C x 2D+3S");
    let (rules, v) = view(Game::Scopa, &["7C", "AH", "2S"], &["7D", "3S", "5C"], NONE);
    assert_eq!(choose(&mut GreedyBot::new(1), &rules, &v), "7C x 7D");
}

#[test]
fn greedy_trails_without_leaving_a_sweep() {
    // Table 6: the 3 would leave 9 and the 2 would leave 8 (four of each out); the king
    // leaves 16, which no card sweeps.
    let (rules, v) = view(Game::Scopa, &["3C", "KS", "2C"], &["6H"], NONE);
    assert_eq!(choose(&mut GreedyBot::new(1), &rules, &v), "KS");
}

fn sweep_value_of(rules: &Rules, table: CardSet) -> Option<u8> {
    sweep_value(rules, rules.total(table))
}

#[test]
fn counts_by_value() {
    for game in [Game::Scopa, Game::Escoba, Game::Chkobba] {
        let rules = Rules::profile(game, 2).unwrap();
        let mut rng = Rng::new(5);
        for _ in 0..200 {
            let set = CardSet(rng.next_u64() & CardSet::FULL.0);
            for v in 1..=10 {
                let want = (set & rules.cards_of_value(v)).len();
                assert_eq!(count_of_value(&rules, set, v), want);
            }
        }
    }
}

#[test]
fn escoba_sweep_value() {
    let rules = Rules::profile(Game::Escoba, 2).unwrap();
    assert_eq!(sweep_value_of(&rules, set(&["2C", "3D"])), Some(10));
    assert_eq!(sweep_value_of(&rules, set(&["KC", "4D"])), Some(1));
    assert_eq!(sweep_value_of(&rules, set(&["KC", "5D"])), None);
    assert_eq!(sweep_value_of(&rules, set(&["AC", "2D"])), None);
    let rules = Rules::profile(Game::Chkobba, 2).unwrap();
    assert_eq!(sweep_value_of(&rules, set(&["QC"])), Some(8));
    assert_eq!(sweep_value_of(&rules, set(&["AC", "2D", "3H"])), Some(6));
}

#[test]
fn expert_stops_chasing_a_decided_category() {
    // We hold 6 coins: the coin 2D is worth no more than any card. Greedy takes it (a
    // coin); the expert takes three cards with the 7 instead.
    let ours: &[&str] = &["AD", "3D", "4D", "5D", "6D", "7D", "7C", "7H", "6S"];
    let table = &["2D", "3C", "4H", "KC", "KH"];
    let (rules, v) = view(Game::Scopa, &["2C", "7S", "KS"], table, [ours, &[]]);
    assert_eq!(choose(&mut GreedyBot::new(1), &rules, &v), "2C x 2D");
    assert_eq!(choose(&mut ExpertBot::new(1), &rules, &v), "7S x 3C+4H");
}

#[test]
fn expert_counts_the_cards_that_could_sweep() {
    // Every card trails onto the 2. The 3 leaves 5 (three fives out) and the 4 leaves 6
    // (four sixes out); the 5 leaves 7, and every seven is already in a pile.
    let (rules, v) = view(
        Game::Scopa,
        &["5C", "4S", "3S"],
        &["2H"],
        [&["7C", "7D", "AC", "AD"], &["7H", "7S", "AH", "AS"]],
    );
    assert_eq!(choose(&mut ExpertBot::new(1), &rules, &v), "5C");
}

#[test]
fn a_seat_bot_plays_as_the_bot_of_its_kind() {
    let mut moves = Vec::new();
    for game in [Game::Scopa, Game::Escoba, Game::Chkobba] {
        let rules = Rules::profile(game, 2).unwrap();
        for kind in BotKind::FAST {
            for seed in 0..10 {
                let mut seat = SeatBot::of(kind, seed);
                assert!(!seat.is_boxed(), "{} is held by value", kind.name());
                let mut direct: Box<dyn Bot> = match kind {
                    BotKind::Random => Box::new(RandomBot::new(seed)),
                    BotKind::RandomCard => Box::new(RandomCardBot::new(seed)),
                    BotKind::Greedy => Box::new(GreedyBot::new(seed)),
                    BotKind::Expert => Box::new(ExpertBot::new(seed)),
                    _ => unreachable!("BotKind::FAST are the fast bots"),
                };
                let mut s = State::new(&rules, seed);
                while let Some(to_move) = s.to_move() {
                    s.legal_moves(&rules, &mut moves);
                    let view = LazyView::new(&s, to_move);
                    let mv = seat.choose(&rules, &view, &moves);
                    assert_eq!(mv, direct.choose(&rules, &view, &moves), "{}", kind.name());
                    s.apply_unchecked(&rules, mv);
                }
            }
        }
    }
    assert!(SeatBot::of(BotKind::Pimc, 1).is_boxed());
    assert!(SeatBot::of(BotKind::Ismcts, 1).is_boxed());
}

/// The exact value of a 2-player last-round position by brute force over `State`.
fn brute(rules: &Rules, s: &State, me: usize) -> i32 {
    if let Some(margin) = s.hand_margin(rules, me) {
        return margin;
    }
    let mut moves = Vec::new();
    s.legal_moves(rules, &mut moves);
    let vals = moves.iter().map(|&m| {
        let mut c = *s;
        c.apply_unchecked(rules, m);
        brute(rules, &c, me)
    });
    if usize::from(s.to_move().unwrap()) == me {
        vals.max().unwrap()
    } else {
        vals.min().unwrap()
    }
}

#[test]
fn expert_plays_the_last_round_exactly() {
    let mut moves = Vec::new();
    for game in [Game::Scopa, Game::Escoba, Game::Chkobba] {
        let rules = Rules::profile(game, 2).unwrap();
        for seed in 0..150 {
            let mut s = State::new(&rules, seed);
            let mut rng = Rng::new(seed);
            let mut greedy = GreedyBot::new(seed);
            // Play to the last round with greedy moves (random cut choices included).
            while !s.hand_over() && (!s.stock().is_empty() || s.cut_card().is_some()) {
                s.legal_moves(&rules, &mut moves);
                let v = s.view(s.to_move().unwrap());
                let mv = if rng.below(2) == 0 {
                    greedy.choose(&rules, &LazyView::from(&v), &moves)
                } else {
                    moves[rng.below(moves.len() as u64) as usize]
                };
                s.apply_unchecked(&rules, mv);
            }
            let seat = s.to_move().unwrap();
            let me = usize::from(seat);
            let v = s.view(seat);
            s.legal_moves(&rules, &mut moves);
            let best = brute(&rules, &s, me);
            let mv = ExpertBot::new(seed).choose(&rules, &LazyView::from(&v), &moves);
            let mut c = s;
            c.apply_unchecked(&rules, mv);
            assert_eq!(brute(&rules, &c, me), best, "{game:?} seed {seed}: {mv}");
        }
    }
}
