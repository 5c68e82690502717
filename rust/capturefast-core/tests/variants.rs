//! The play mechanics of every variant option of docs/variants.md, on hand-built positions and
//! seeded deals. Expected results are worked out by hand from docs/variants.md and
//! docs/conventions.md; each test fails if its option were ignored.

use capturefast_core::{Card, CardSet, Game, Move, MoveKind, Phase, Position, Rng, Rules, State};

mod common;
use common::{OFF, ON, c, rules, set, word};

/// A position with an empty stock: the given hands and table, every other card in side
/// `pile_side`'s pile, which captured last.
fn position(hands: &[&[&str]], table: &[&str], to_move: u8, dealer: u8) -> Position {
    let hands: Vec<CardSet> = hands.iter().map(|h| set(h)).collect();
    let table = set(table);
    let used = hands.iter().fold(table, |a, &h| a | h);
    Position {
        hands,
        table,
        stock: Vec::new(),
        to_move,
        dealer,
        last_capturer: Some(0),
        piles: [CardSet::FULL - used, CardSet::EMPTY],
        sweeps: [0, 0],
        scores: [0, 0],
        seed: 1,
    }
}

fn legal(rules: &Rules, s: &State) -> Vec<String> {
    let mut out = Vec::new();
    s.legal_moves(rules, &mut out);
    out.iter().map(ToString::to_string).collect()
}

fn play(rules: &Rules, s: &State, mv: &str) -> State {
    let mut t = *s;
    t.play(rules, mv.parse().unwrap()).unwrap();
    t
}

fn options(rules: &Rules, table: &[&str], card: &str) -> Vec<String> {
    let mut out = Vec::new();
    rules.capture_options(set(table), c(card), &mut out);
    out.iter().map(ToString::to_string).collect()
}

// ----- direction -----

#[test]
fn clockwise_leader_and_hand_sizes() {
    let cw = rules(Game::Scopa, 4, &[("direction", word("clockwise"))]);
    let ccw = Rules::profile(Game::Scopa, 4).unwrap();
    // Dealer 0: clockwise the leader is seat 3, then 2; seat 3 has played once, seat 2 is to
    // move. Counterclockwise the leader would be seat 1, which would have played.
    let p = position(
        &[
            &["2C", "3C", "4C"],
            &["2D", "3D", "4D"],
            &["2H", "3H", "4H"],
            &["2S", "3S"],
        ],
        &["KC", "KD", "KH"],
        2,
        0,
    );
    let s = State::from_position(&cw, &p).unwrap();
    assert!(State::from_position(&ccw, &p).is_err());
    // 2H trails; play passes to seat 1 (clockwise: seat s - 1).
    let t = play(&cw, &s, "2H");
    assert_eq!(t.to_move(), Some(1));
    // 3D cannot capture on KC KD KH 2H (no 3, no sum of 3): it trails too.
    let t = play(&cw, &t, "3D");
    assert_eq!(t.to_move(), Some(0));
}

#[test]
fn clockwise_deal_order_and_next_dealer() {
    let cw = rules(
        Game::Scopa,
        4,
        &[("direction", word("clockwise")), ("redeal", word("off"))],
    );
    for seed in 0..20 {
        // docs/conventions.md: the first dealer by lot, then the shuffle, from one stream.
        let mut rng = Rng::new(seed);
        let d = rng.below(4) as u8;
        let deck = rng.shuffled_deck();
        let mut s = State::new(&cw, seed);
        assert_eq!(s.dealer(), d);
        // Clockwise next(s) = s - 1: the leader is d - 1, dealt deck[0], deck[4], deck[8];
        // the seat after it (d - 2) deck[1], deck[5], deck[9]; and so on.
        let leader = (d + 3) % 4;
        assert_eq!(s.to_move(), Some(leader));
        for k in 0..4u8 {
            let seat = (leader + 4 - k) % 4;
            let k = usize::from(k);
            let want: CardSet = [deck[k], deck[k + 4], deck[k + 8]].into_iter().collect();
            assert_eq!(s.hand(seat), want, "seed {seed} seat {seat}");
        }
        assert_eq!(s.table(), deck[12..16].iter().copied().collect());
        assert_eq!(s.stock(), &deck[16..]);
        let mut moves = Vec::new();
        while !s.hand_over() {
            s.legal_moves(&cw, &mut moves);
            s.apply_unchecked(&cw, moves[0]);
        }
        if !s.match_over() {
            s.next_hand(&cw).unwrap();
            assert_eq!(s.dealer(), leader, "the deal passes to next(dealer)");
            assert_eq!(s.to_move(), Some((leader + 3) % 4));
        }
    }
}

// ----- deal shapes -----

#[test]
fn scopone_and_scientifico_deals() {
    for (deal, each, table) in [("scopone", 9usize, 4usize), ("scientifico", 10, 0)] {
        let r = rules(
            Game::Scopa,
            4,
            &[("deal", word(deal)), ("redeal", word("off"))],
        );
        for seed in 0..10 {
            let mut rng = Rng::new(seed);
            let d = rng.below(4) as u8;
            let deck = rng.shuffled_deck();
            let s = State::new(&r, seed);
            let leader = (d + 1) % 4;
            for k in 0..4usize {
                let seat = (leader + k as u8) % 4;
                let want: CardSet = (0..each).map(|i| deck[k + 4 * i]).collect();
                assert_eq!(s.hand(seat), want, "{deal} seed {seed}");
            }
            assert_eq!(
                s.table(),
                deck[4 * each..4 * each + table].iter().copied().collect()
            );
            assert!(s.stock().is_empty(), "one round only");
        }
    }
}

#[test]
fn scopone_positions_hold_up_to_nine_and_no_stock() {
    let scopone = rules(Game::Scopa, 4, &[("deal", word("scopone"))]);
    let standard = Rules::profile(Game::Scopa, 4).unwrap();
    let all: Vec<Card> = Card::all().collect();
    // The four aces on the table (four kings would be redealt), 9 cards each from the rest.
    let hand =
        |k: usize, n: usize| -> CardSet { all[4 + k * 9..4 + k * 9 + n].iter().copied().collect() };
    // Dealer 3, leader 0 to move: everybody holds 9, 4 cards on the table.
    let p = Position {
        hands: vec![hand(0, 9), hand(1, 9), hand(2, 9), hand(3, 9)],
        table: all[..4].iter().copied().collect(),
        stock: Vec::new(),
        to_move: 0,
        dealer: 3,
        last_capturer: None,
        piles: [CardSet::EMPTY; 2],
        sweeps: [0, 0],
        scores: [0, 0],
        seed: 0,
    };
    assert!(State::from_position(&scopone, &p).is_ok());
    assert!(
        State::from_position(&standard, &p).is_err(),
        "9 cards in a 3-card round"
    );
    // A stock after a Scopone deal is impossible.
    let mut q = p.clone();
    q.hands = vec![hand(0, 3), hand(1, 3), hand(2, 3), hand(3, 3)];
    q.table = CardSet::EMPTY;
    q.stock = CardSet::FULL
        .iter()
        .filter(|&x| !q.hands.iter().any(|h| h.contains(x)))
        .collect();
    q.stock.truncate(12); // the second round: every seat has played 3 cards
    q.piles[0] = CardSet::FULL - q.hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
    for &x in &q.stock {
        q.piles[0].remove(x);
    }
    q.last_capturer = Some(0);
    assert!(State::from_position(&standard, &q).is_ok());
    assert!(State::from_position(&scopone, &q).is_err());
}

// ----- capturing -----

#[test]
fn optional_capture_lists_the_trail() {
    let std = Rules::profile(Game::Scopa, 2).unwrap();
    let opt = rules(Game::Scopa, 2, &[("compulsory_capture", OFF)]);
    let p = position(&[&["5C", "2S"], &["3C", "4C"]], &["5D", "6H"], 0, 1);
    let s = State::from_position(&std, &p).unwrap();
    assert_eq!(legal(&std, &s), ["2S", "5C x 5D"]);
    assert!(!s.is_legal(&std, "5C".parse().unwrap()));
    let s = State::from_position(&opt, &p).unwrap();
    // Packed order: card 2S (id 7), then 5C (id 16) trailing (mask 0) before capturing.
    assert_eq!(legal(&opt, &s), ["2S", "5C", "5C x 5D"]);
    assert!(s.is_legal(&opt, "5C".parse().unwrap()));
    let t = play(&opt, &s, "5C");
    assert_eq!(t.table(), set(&["5C", "5D", "6H"]));
    // capture_options lists captures only.
    assert_eq!(options(&opt, &["5D", "6H"], "5C"), ["5D"]);
}

#[test]
fn fewest_cards_keeps_the_smallest_captures() {
    let table = ["AC", "2D", "3H", "4S", "6C"];
    let std = Rules::profile(Game::Scopa, 2).unwrap();
    // 7 = 1+2+4 = 3+4 = 1+6; in mask order.
    assert_eq!(options(&std, &table, "7D"), ["AC+2D+4S", "3H+4S", "AC+6C"]);
    let fewest = rules(Game::Scopa, 2, &[("fewest_cards", ON)]);
    assert_eq!(options(&fewest, &table, "7D"), ["3H+4S", "AC+6C"]);
    // With match_or_fifteen the fewest over both lists: 7 + 2 + 6 = 15 joins, 7+1+3+4 does not.
    let both = rules(
        Game::Scopa,
        2,
        &[("fewest_cards", ON), ("capture", word("match_or_fifteen"))],
    );
    assert_eq!(options(&both, &table, "7D"), ["3H+4S", "AC+6C", "2D+6C"]);
    let p = position(&[&["7D", "KS"], &["KC", "KH"]], &table, 0, 1);
    let s = State::from_position(&fewest, &p).unwrap();
    // KS: 10 = 4+6 = 1+3+6 = 1+2+3+4; the fewest is 4S+6C alone.
    assert_eq!(
        legal(&fewest, &s),
        ["7D x 3H+4S", "7D x AC+6C", "KS x 4S+6C"]
    );
    assert!(!s.is_legal(&fewest, "7D x AC+2D+4S".parse().unwrap()));
}

#[test]
fn ace_takes_all() {
    let std = Rules::profile(Game::Scopa, 2).unwrap();
    let ace = rules(Game::Scopa, 2, &[("ace_takes_all", ON)]);
    let ace_sweep = rules(Game::Scopa, 2, &[("ace_takes_all", ON), ("ace_sweep", ON)]);
    let any_ace = rules(
        Game::Scopa,
        2,
        &[("ace_takes_all", ON), ("ace_takes_ace_only", OFF)],
    );
    assert_eq!(
        options(&std, &["2C", "5D", "KH"], "AS"),
        Vec::<String>::new()
    );
    assert_eq!(options(&ace, &["2C", "5D", "KH"], "AS"), ["2C+5D+KH"]);
    // An ace on the table: the played ace takes just an ace, unless ace_takes_ace_only is off.
    assert_eq!(options(&ace, &["AC", "5D", "KH"], "AS"), ["AC"]);
    assert_eq!(options(&any_ace, &["AC", "5D", "KH"], "AS"), ["AC+5D+KH"]);
    // Other cards capture as usual.
    assert_eq!(options(&ace, &["2C", "5D", "KH"], "5S"), ["5D"]);

    let p = position(&[&["AS", "5C"], &["3C", "4C"]], &["2C", "5D", "KH"], 0, 1);
    let s = State::from_position(&ace, &p).unwrap();
    assert_eq!(legal(&ace, &s), ["AS x 2C+5D+KH", "5C x 5D"]);
    let take: Move = "AS x 2C+5D+KH".parse().unwrap();
    assert!(!s.is_sweep(&ace, take), "an ace taking all is no sweep");
    let t = play(&ace, &s, "AS x 2C+5D+KH");
    assert_eq!((t.table(), t.sweeps()), (CardSet::EMPTY, [0, 0]));
    assert!(t.pile(0).is_superset(set(&["AS", "2C", "5D", "KH"])));
    let s = State::from_position(&ace_sweep, &p).unwrap();
    assert!(s.is_sweep(&ace_sweep, take));
    assert_eq!(play(&ace_sweep, &s, "AS x 2C+5D+KH").sweeps(), [1, 0]);
    // An ace capturing an ace as an ordinary card and clearing the table is a sweep.
    let p = position(&[&["AS", "5C"], &["3C", "4C"]], &["AC"], 0, 1);
    let s = State::from_position(&ace, &p).unwrap();
    assert!(s.is_sweep(&ace, "AS x AC".parse().unwrap()));
    // Onto an empty table an ace trails.
    let p = position(&[&["AS", "5C"], &["3C", "4C"]], &[], 0, 1);
    let s = State::from_position(&ace, &p).unwrap();
    assert_eq!(legal(&ace, &s), ["AS", "5C"]);
}

#[test]
fn renuncio_claims() {
    let r = rules(
        Game::Scopa,
        2,
        &[("compulsory_capture", OFF), ("renuncio", ON)],
    );
    let no_claims = rules(Game::Scopa, 2, &[("compulsory_capture", OFF)]);
    let p = position(
        &[&["5C", "2S", "KS"], &["3C", "4C", "JD"]],
        &["5D", "6H"],
        0,
        1,
    );
    let s = State::from_position(&r, &p).unwrap();
    assert!(
        s.clone()
            .play(&r, "claim 5C x 5D".parse().unwrap())
            .is_err()
    );
    // Seat 0 trails 5C, which could have taken 5D: seat 1 may claim it.
    let t = play(&r, &s, "5C");
    assert_eq!(t.claimable(), Some(c("5C")));
    assert_eq!(t.to_move(), Some(1));
    let moves = legal(&r, &t);
    assert_eq!(moves.last().map(String::as_str), Some("claim 5C x 5D"));
    assert_eq!(moves.iter().filter(|m| m.starts_with("claim")).count(), 1);
    assert!(!t.is_legal(&r, "claim 5C x 6H".parse().unwrap()));
    assert_eq!(State::decode(&r, &t.encode(&r)).unwrap(), t);
    // Without renuncio there is nothing to claim.
    let plain = play(
        &no_claims,
        &State::from_position(&no_claims, &p).unwrap(),
        "5C",
    );
    assert_eq!(plain.claimable(), None);
    assert!(
        legal(&no_claims, &plain)
            .iter()
            .all(|m| !m.starts_with("claim"))
    );
    // The claim: both cards to side 1, which captured last; not a turn, not a sweep.
    let claimed = play(&r, &t, "claim 5C x 5D");
    assert_eq!(claimed.table(), set(&["6H"]));
    assert!(claimed.pile(1).is_superset(set(&["5C", "5D"])));
    assert_eq!(claimed.last_capturer(), Some(1));
    assert_eq!(claimed.to_move(), Some(1));
    assert_eq!(claimed.hand(1), set(&["3C", "4C", "JD"]));
    assert_eq!(claimed.sweeps(), [0, 0]);
    assert!(legal(&r, &claimed).iter().all(|m| !m.starts_with("claim")));
    // Playing instead lets the chance lapse.
    let lapsed = play(&r, &t, "3C");
    assert_eq!(lapsed.claimable(), None);
    assert!(legal(&r, &lapsed).iter().all(|m| !m.starts_with("claim")));
    // A trail that could not capture gives nothing to claim.
    assert_eq!(play(&r, &s, "2S").claimable(), None);
    // A claim that clears the table is not a sweep.
    let p = position(&[&["5C", "2S"], &["3C", "4C"]], &["5D"], 0, 1);
    let s = State::from_position(&r, &p).unwrap();
    let t = play(&r, &s, "5C");
    let claim: Move = "claim 5C x 5D".parse().unwrap();
    assert_eq!(claim.kind(), MoveKind::Claim);
    assert!(!t.is_sweep(&r, claim));
    let claimed = play(&r, &t, "claim 5C x 5D");
    assert_eq!(
        (claimed.table(), claimed.sweeps()),
        (CardSet::EMPTY, [0, 0])
    );
}

// ----- declarations -----

#[test]
fn declaration_points() {
    let r = rules(Game::Scopa, 2, &[("declarations", ON)]);
    let tame = rules(
        Game::Scopa,
        2,
        &[("declarations", ON), ("declaration_wild", OFF)],
    );
    let d = |r: &Rules, h: &[&str]| r.declaration(set(h));
    assert_eq!(d(&r, &["AC", "2C", "3C"]), 3, "1+2+3 < 10");
    assert_eq!(d(&r, &["AC", "2C", "7C"]), 0, "1+2+7 = 10");
    assert_eq!(d(&r, &["5C", "5D", "5H"]), 10, "three of a kind");
    assert_eq!(d(&r, &["AC", "AD", "AH"]), 10, "the better of 10 and 3");
    assert_eq!(
        d(&r, &["7H", "KC", "KD"]),
        10,
        "the wild 7H makes a pair three"
    );
    assert_eq!(d(&r, &["7H", "AC", "5D"]), 3, "the wild 7H counts 1: 1+1+5");
    assert_eq!(d(&tame, &["7H", "AC", "5D"]), 0, "7+1+5");
    assert_eq!(d(&tame, &["7H", "KC", "KD"]), 0);
    assert_eq!(d(&r, &["KC", "KD", "5H"]), 0);
    assert_eq!(
        Rules::profile(Game::Scopa, 2)
            .unwrap()
            .declaration(set(&["AC", "2C", "3C"])),
        0
    );
}

#[test]
fn declarations_at_a_later_deal_and_in_the_score() {
    let on = rules(
        Game::Scopa,
        2,
        &[("declarations", ON), ("redeal", word("off"))],
    );
    let off = rules(Game::Scopa, 2, &[("redeal", word("off"))]);
    // Seat 0 leads (dealer 1); both trail (KC, QD), then the stock deals seat 0 AC 2C 3C (total 6: 3
    // points) and seat 1 5C 5D 5H (three of a kind: 10).
    let stock: Vec<Card> = ["AC", "5C", "2C", "5D", "3C", "5H"]
        .iter()
        .map(|s| c(s))
        .collect();
    let hands = [set(&["KC"]), set(&["QD"])];
    let table = set(&["JC"]);
    let used = stock
        .iter()
        .fold(hands[0] | hands[1] | table, |a, &x| a | CardSet::single(x));
    let p = Position {
        hands: hands.to_vec(),
        table,
        stock,
        to_move: 0,
        dealer: 1,
        last_capturer: Some(0),
        piles: [CardSet::FULL - used, CardSet::EMPTY],
        sweeps: [0, 0],
        scores: [0, 0],
        seed: 3,
    };
    let mut results = Vec::new();
    for r in [&on, &off] {
        let s = State::from_position(r, &p).unwrap();
        // KC (10) and QD (9) find neither an equal card nor a sum on JC (8) KC.
        let mut t = play(r, &play(r, &s, "KC"), "QD");
        assert_eq!(t.hand(0), set(&["AC", "2C", "3C"]));
        let declared = t.declared();
        assert_eq!(State::decode(r, &t.encode(r)).unwrap(), t);
        let mut moves = Vec::new();
        while !t.hand_over() {
            t.legal_moves(r, &mut moves);
            t.apply_unchecked(r, moves[0]);
        }
        results.push((declared, t.hand_score(r).unwrap().points));
    }
    assert_eq!(results[0].0, [3, 10]);
    assert_eq!(results[1].0, [0, 0]);
    // The same play: the declarations are added to the hand's points.
    assert_eq!(results[0].1[0], results[1].1[0] + 3);
    assert_eq!(results[0].1[1], results[1].1[1] + 10);
}

#[test]
fn declarations_at_the_first_deal() {
    // An independent reading of V-S12 on each seeded deal's hands.
    let r = rules(Game::Scopa, 4, &[("declarations", ON)]);
    let mut seen = 0;
    for seed in 0..300 {
        let s = State::new(&r, seed);
        let mut want = [0u8; 2];
        for seat in 0..4u8 {
            let h: Vec<Card> = s.hand(seat).iter().collect();
            let wild = h.iter().filter(|x| x.to_string() == "7H").count();
            let rest: Vec<&Card> = h.iter().filter(|x| x.to_string() != "7H").collect();
            let triple = rest.windows(2).all(|w| w[0].rank() == w[1].rank());
            let value = |x: &Card| u32::from(r.value(*x));
            let total: u32 = rest.iter().map(|x| value(x)).sum::<u32>() + wild as u32;
            let pts = if triple {
                10
            } else if total < 10 {
                3
            } else {
                0
            };
            want[usize::from(seat % 2)] += pts;
        }
        assert_eq!(s.declared(), want, "seed {seed}");
        seen += usize::from(want != [0, 0]);
    }
    assert!(seen > 10, "some deals declare");
}

// ----- all coins -----

#[test]
fn all_coins_win_the_match() {
    let win = rules(Game::Scopa, 2, &[("all_coins_wins", ON)]);
    // V-S7: the napola includes Napoleone (a long target, so its 10 points do not end the match).
    let target = capturefast_core::OptionValue::Int(31);
    let napola = rules(Game::Scopa, 2, &[("napola", ON), ("target", target)]);
    let std = Rules::profile(Game::Scopa, 2).unwrap();
    let coins = CardSet::COINS;
    let hands = [set(&["2C"]), set(&["3S"])];
    let table = set(&["KS"]);
    let p = Position {
        hands: hands.to_vec(),
        table,
        stock: Vec::new(),
        to_move: 0,
        dealer: 1,
        last_capturer: Some(1),
        piles: [coins, CardSet::FULL - coins - hands[0] - hands[1] - table],
        sweeps: [0, 0],
        scores: [0, 0],
        seed: 0,
    };
    for (r, winner) in [(&win, Some(0)), (&napola, Some(0)), (&std, None)] {
        let s = State::from_position(r, &p).unwrap();
        // Both trail; the leftovers go to side 1, which has all but the coins.
        let t = play(r, &play(r, &s, "2C"), "3S");
        assert!(t.hand_over());
        assert_eq!(t.winner(), winner);
        assert_eq!(t.phase() == Phase::MatchOver, winner.is_some());
        assert!(t.scores()[0] < r.target() && t.scores()[1] < r.target());
        assert_eq!(State::decode(r, &t.encode(r)).unwrap(), t);
    }
}

// ----- numerals -----

#[test]
fn numerals_name_the_figures() {
    let r = rules(Game::Scopa, 2, &[("deck", word("numerals"))]);
    let p = position(&[&["KC", "5C"], &["3C", "4C"]], &["JD", "2S"], 0, 1);
    let s = State::from_position(&r, &p).unwrap();
    // 10C takes 8D + 2S (K = 10 = J + 2).
    let t = play(&r, &s, "10C x 8D+2S");
    assert!(t.pile(0).is_superset(set(&["KC", "JD", "2S"])));
    assert_eq!("9H".parse::<Card>().unwrap(), c("QH"));
}

/// docs/variants.md edge case: Chkobba's cut card with the scientifico deal (no opening table)
/// can only be kept; the cutter then holds 10 cards like everyone else.
#[test]
fn chkobba_scientifico_cut_card_is_kept_only() {
    let r = rules(Game::Chkobba, 4, &[("deal", word("scientifico"))]);
    let s = State::new(&r, 11);
    assert_eq!(s.phase(), Phase::Cut);
    let cut = s.cut_card().unwrap();
    assert_eq!(legal(&r, &s), [format!("keep {cut}")]);
    let mut t = s;
    assert!(t.play(&r, format!("table {cut}").parse().unwrap()).is_err());
    assert_eq!(t, s, "a refused move changes nothing");
    let t = play(&r, &s, &format!("keep {cut}"));
    let cutter = t.to_move().unwrap();
    assert!(t.hand(cutter).contains(cut));
    assert!(t.table().is_empty());
    for seat in 0..4 {
        assert_eq!(t.hand(seat).len(), 10);
    }
}

#[test]
fn max_hand_points_bounds_every_hand() {
    // Worked out by hand: a side's plays (each may sweep), 2 opening sweeps where the opening
    // table scores, 4 categories, a declaration per seat and deal, the bonuses at their largest.
    let bound = |name: &str, players: u8| {
        let preset = capturefast_core::game::presets::Preset::named(name).unwrap();
        Rules::new(preset.options(Some(players)).unwrap())
            .unwrap()
            .max_hand_points()
    };
    assert_eq!(bound("scopa", 2), 18 + 4);
    assert_eq!(bound("scopa", 4), 2 * 9 + 4);
    assert_eq!(bound("scopone_scientifico", 4), 2 * 10 + 4);
    assert_eq!(bound("escoba", 2), 18 + 2 + 4);
    assert_eq!(bound("chkobba", 4), 2 * 9 + 4);
    // Cirulla: 6 deals of 3 cards with 2 players (3 with 4), 10 points for a triple; napola
    // up to 10 coins in a run, grande 5.
    assert_eq!(bound("cirulla", 2), 18 + 2 + 4 + 6 * 10 + 10 + 5);
    assert_eq!(bound("cirulla", 4), 2 * 9 + 2 + 4 + 2 * 3 * 10 + 10 + 5);

    // Hands played to sweep whenever a move sweeps: no side ever scores past the bound.
    let mut moves = Vec::new();
    let mut most = 0;
    for preset in &capturefast_core::PRESETS {
        for players in [2, 4] {
            let Ok(rules) = preset.options(Some(players)).and_then(Rules::new) else {
                continue; // a preset for 4 players only
            };
            let bound = rules.max_hand_points();
            for seed in 0..40 {
                let mut state = State::new(&rules, seed);
                let mut rng = Rng::new(seed);
                while !state.hand_over() {
                    state.legal_moves(&rules, &mut moves);
                    let sweeps: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|&m| state.is_sweep(&rules, m))
                        .collect();
                    let pool = if sweeps.is_empty() { &moves } else { &sweeps };
                    let mv = pool[rng.below(pool.len() as u64) as usize];
                    state.apply_unchecked(&rules, mv);
                }
                let score = state.hand_score(&rules).unwrap();
                for side in 0..2 {
                    assert!(score.points[side] <= bound, "{}: {score:?}", preset.name);
                    most = most.max(score.points[side]);
                }
            }
        }
    }
    assert!(most > 10, "the sweeping play scores something: {most}");
}
