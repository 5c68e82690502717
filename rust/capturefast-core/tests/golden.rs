//! Golden values: a seed means the same deal forever, and a fixed policy the same hand.
//!
//! The expected values were computed by the independent Python reference engine
//! (`tests/reference`) from `docs/conventions.md`, not by this crate.

use capturefast_core::{Card, CardSet, Game, Move, Rules, State};

fn set(cards: &[&str]) -> CardSet {
    cards.iter().map(|s| s.parse::<Card>().unwrap()).collect()
}

fn stock_prefix(s: &State, n: usize) -> Vec<String> {
    s.stock()[..n].iter().map(ToString::to_string).collect()
}

#[test]
fn seed_7_deals() {
    let rules = Rules::profile(Game::Scopa, 2).unwrap();
    let s = State::new(&rules, 7);
    assert_eq!(s.dealer(), 0);
    assert_eq!(s.to_move(), Some(1));
    assert_eq!(s.hand(0), set(&["5D", "5H", "JS"]));
    assert_eq!(s.hand(1), set(&["3D", "4C", "6C"]));
    assert_eq!(s.table(), set(&["5S", "JH", "KH", "KS"]));
    assert_eq!(stock_prefix(&s, 6), ["3H", "QC", "QD", "2D", "AD", "7S"]);

    let rules = Rules::profile(Game::Scopa, 4).unwrap();
    let s = State::new(&rules, 7);
    assert_eq!(s.dealer(), 1);
    assert_eq!(s.hand(0), set(&["3H", "4C", "KH"]));
    assert_eq!(s.hand(1), set(&["5S", "JS", "QC"]));
    assert_eq!(s.hand(2), set(&["3D", "6C", "JH"]));
    assert_eq!(s.hand(3), set(&["5D", "5H", "KS"]));
    assert_eq!(s.table(), set(&["AD", "2D", "7S", "QD"]));
    assert_eq!(stock_prefix(&s, 6), ["4S", "JD", "2H", "AH", "KD", "QH"]);

    let rules = Rules::profile(Game::Chkobba, 2).unwrap();
    let s = State::new(&rules, 7);
    assert_eq!(s.cut_card(), Some("6C".parse().unwrap()));
    assert_eq!(stock_prefix(&s, 6), ["5D", "4C", "JS", "3D", "5H", "KH"]);
}

/// Plays the first legal move until the hand ends.
fn first_move_hand(game: Game, players: u8) -> (State, Vec<String>) {
    let rules = Rules::profile(game, players).unwrap();
    let mut s = State::new(&rules, 7);
    let mut moves: Vec<Move> = Vec::new();
    let mut played = Vec::new();
    while !s.hand_over() {
        s.legal_moves(&rules, &mut moves);
        played.push(moves[0].to_string());
        s.play(&rules, moves[0]).unwrap();
    }
    (s, played)
}

/// Game, players, points, sweeps, first four moves.
type Case = (Game, u8, [u32; 2], [u8; 2], [&'static str; 4]);

#[test]
fn seed_7_first_move_hands() {
    let cases: [Case; 6] = [
        (
            Game::Scopa,
            2,
            [4, 0],
            [0, 0],
            ["3D", "5D x 5S", "4C", "5H"],
        ),
        (
            Game::Scopa,
            4,
            [3, 1],
            [0, 0],
            ["3D x AD+2D", "5D", "3H", "5S x 5D"],
        ),
        (
            Game::Escoba,
            2,
            [1, 4],
            [1, 0],
            ["3D", "5D x KH", "4C x 3D+JH", "5H x KS"],
        ),
        (
            Game::Escoba,
            4,
            [5, 0],
            [1, 0],
            ["3D x AD+2D+QD", "5D", "3H x 5D+7S", "5S"],
        ),
        (
            Game::Chkobba,
            2,
            [0, 3],
            [0, 0],
            ["keep 6C", "5D x 5S", "3D", "6C"],
        ),
        (
            Game::Chkobba,
            4,
            [3, 2],
            [0, 1],
            ["keep 6C", "5D", "4C", "3H x AD+2D"],
        ),
    ];
    for (game, players, points, sweeps, first) in cases {
        let (s, played) = first_move_hand(game, players);
        let rules = Rules::profile(game, players).unwrap();
        let score = s.hand_score(&rules).unwrap();
        assert_eq!(score.points, points, "{game:?} {players}");
        assert_eq!(score.sweeps, sweeps, "{game:?} {players}");
        assert_eq!(played[..4], first, "{game:?} {players}");
        assert_eq!(s.scores(), points);
    }
}
