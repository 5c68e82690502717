//! A [`Game`]: the rules it is played by (shared), the headers that say what it was, every
//! hand's deal and the moves played from it (who played each, the position before it, an
//! optional value and comment), and the current position. A whole match in one object, the
//! saved form of which is a game record (`docs/records.md`, [`crate::game::record`]).
//!
//! Every move goes through [`State::play`], so a game holds only legal play; a refused move
//! leaves it as it was. [`Game::view`] is what one seat saw happen: its view now and, for each
//! move of the hand, its view before the move, the mover and the move, but for a card kept
//! hidden from that seat (Chkobba's kept cut card, K-A4: `None` for every seat but the cutter).

use std::sync::Arc;

use crate::error::Error;
use crate::game::action::{Move, MoveKind};
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::game::view::View;

/// One move of a hand, with who played it and the position it was played from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The seat that played it.
    pub seat: u8,
    /// The move.
    pub mv: Move,
    /// The position just before it.
    pub before: State,
    /// What the move is worth to the mover's side, in points, where one was given (as the
    /// solver and `review` value it).
    pub value: Option<i32>,
    /// A comment, one line, where one was given.
    pub comment: Option<String>,
}

/// One hand of a game: its deal and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    /// The position at the deal (or where the game was started from).
    pub start: State,
    /// The moves played, in order.
    pub plies: Vec<Ply>,
}

/// A move as one seat saw it ([`Game::view`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seen {
    /// The seat's view just before the move.
    pub before: View,
    /// The seat that played it.
    pub seat: u8,
    /// The move, or `None` if it was kept hidden from the seat (another seat's kept cut card).
    pub mv: Option<Move>,
}

/// What one seat knows of a game: its view of the position and what it saw happen in the
/// current hand, move by move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameView {
    /// The seat's view of the current position.
    pub view: View,
    /// The moves of the current hand, in order, as the seat saw them.
    pub seen: Vec<Seen>,
}

/// The tags a record writes first, in this order (the `Rules` and `Players` headers, from the
/// rules, follow them); any others follow in the order they were set.
pub const FIRST_TAGS: [&str; 2] = ["Event", "Date"];

/// The headers a game derives from its rules and its play, never kept as tags.
pub const DERIVED_TAGS: [&str; 3] = ["Rules", "Players", "Result"];

/// A game: rules, headers, hands and the current position ([module docs](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Arc<Rules>,
    tags: Vec<(String, String)>,
    hands: Vec<Hand>,
    state: State,
}

impl Game {
    /// A game dealt from `seed` (`State::new`), its `Seed` header the seed.
    pub fn new(rules: Arc<Rules>, seed: u64) -> Game {
        let state = State::new(&rules, seed);
        let mut game = Game::start(rules, state);
        game.tags.push(("Seed".to_string(), seed.to_string()));
        game
    }

    /// A game started at `state`, a position of `rules` (a deal, or any position of a hand).
    ///
    /// # Errors
    /// [`Error::Variant`] if the state was made under rules of another player count or deal.
    pub fn from_state(rules: Arc<Rules>, state: State) -> Result<Game, Error> {
        state.check_rules(&rules)?;
        Ok(Game::start(rules, state))
    }

    fn start(rules: Arc<Rules>, state: State) -> Game {
        Game {
            rules,
            tags: Vec::new(),
            hands: vec![Hand {
                start: state,
                plies: Vec::new(),
            }],
            state,
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The current position.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The hands, in order; the last is the one being played.
    pub fn hands(&self) -> &[Hand] {
        &self.hands
    }

    /// Every move of the game, hand after hand.
    pub fn moves(&self) -> impl Iterator<Item = &Ply> {
        self.hands.iter().flat_map(|h| h.plies.iter())
    }

    /// The number of moves of the game.
    pub fn len(&self) -> usize {
        self.hands.iter().map(|h| h.plies.len()).sum()
    }

    /// Whether no move has been played.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The legal moves of the current position (none once the hand is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.state.legal_moves(&self.rules, &mut out);
        out
    }

    /// Plays `mv`, with no value or comment.
    ///
    /// # Errors
    /// [`Error::IllegalMove`] if it is not legal here; the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), Error> {
        self.play_annotated(mv, None, None)
    }

    /// Plays `mv` and keeps `value` and `comment` with it.
    ///
    /// # Errors
    /// [`Error::IllegalMove`] if it is not legal here, [`Error::Argument`] if the comment is not
    /// one line; the game is unchanged either way.
    pub fn play_annotated(
        &mut self,
        mv: Move,
        value: Option<i32>,
        comment: Option<String>,
    ) -> Result<(), Error> {
        if let Some(c) = &comment {
            one_line("a comment", c)?;
        }
        let before = self.state;
        let seat = before.to_move().ok_or_else(|| {
            Error::IllegalMove(format!("the hand is over, no move is legal: {mv}"))
        })?;
        let mut after = before;
        after.play(&self.rules, mv)?;
        self.state = after;
        let hand = self.hands.last_mut().expect("a game has a hand");
        hand.plies.push(Ply {
            seat,
            mv,
            before,
            value,
            comment: comment.filter(|c| !c.is_empty()),
        });
        Ok(())
    }

    /// Undoes the last step: the last move of the current hand (returned), or, at the deal of
    /// a later hand, that deal (the game is back at the end of the hand before; `None`). At
    /// the first deal with no move played, nothing changes (`None`).
    pub fn undo(&mut self) -> Option<Move> {
        let hand = self.hands.last_mut().expect("a game has a hand");
        if let Some(ply) = hand.plies.pop() {
            self.state = ply.before;
            return Some(ply.mv);
        }
        if self.hands.len() > 1 {
            self.hands.pop();
            self.state = self.end_of_last_hand();
        }
        None
    }

    /// The position at the end of the last hand's moves.
    fn end_of_last_hand(&self) -> State {
        let hand = self.hands.last().expect("a game has a hand");
        hand.plies.last().map_or(hand.start, |p| {
            let mut s = p.before;
            s.apply_unchecked(&self.rules, p.mv);
            s
        })
    }

    /// Deals the next hand of the match (`State::next_hand`).
    ///
    /// # Errors
    /// [`Error::IllegalMove`] if the hand is not over or the match is; the game is unchanged.
    pub fn next_hand(&mut self) -> Result<(), Error> {
        let mut s = self.state;
        s.next_hand(&self.rules)?;
        self.push_hand(s);
        Ok(())
    }

    /// Starts a hand at `start` without checking it follows (the reader checks first).
    pub(crate) fn push_hand(&mut self, start: State) {
        self.hands.push(Hand {
            start,
            plies: Vec::new(),
        });
        self.state = start;
    }

    /// What `seat` saw of the current hand ([`GameView`]).
    ///
    /// # Errors
    /// [`Error::Argument`] if the game has no such seat.
    pub fn view(&self, seat: u8) -> Result<GameView, Error> {
        let n = self.rules.num_players();
        if seat >= n {
            return Err(Error::Argument(format!(
                "a seat is below the number of players ({n}), got: {seat}"
            )));
        }
        let hand = self.hands.last().expect("a game has a hand");
        let seen = hand
            .plies
            .iter()
            .map(|p| Seen {
                before: p.before.view(seat),
                seat: p.seat,
                mv: (p.seat == seat || p.mv.kind() != MoveKind::KeepCut).then_some(p.mv),
            })
            .collect();
        Ok(GameView {
            view: self.state.view(seat),
            seen,
        })
    }

    /// The headers kept with the game, in the order a record writes them (`Event`, `Date`,
    /// then the others in the order they were set); `Rules`, `Players` and `Result` are not
    /// among them: they are the rules' and the play's.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of header `tag`, if set (`Rules`, `Players` and `Result` included).
    pub fn tag(&self, tag: &str) -> Option<String> {
        match tag {
            "Rules" => Some(crate::game::notation::rules_text(&self.rules)),
            "Players" => Some(self.rules.num_players().to_string()),
            "Result" => Some(self.result_text()),
            _ => self
                .tags
                .iter()
                .find(|(t, _)| t == tag)
                .map(|(_, v)| v.clone()),
        }
    }

    /// Sets header `tag` to `value` (in place if it is set, else in its order).
    ///
    /// # Errors
    /// [`Error::Argument`] if the tag is not a word of letters, digits and `_` starting with a
    /// letter, is one the game derives (`Rules`, `Players`, `Result`), names a seat the game
    /// does not have (`Seat4` of 4 players), or the value is not one line.
    pub fn set_tag(&mut self, tag: &str, value: &str) -> Result<(), Error> {
        check_tag(tag)?;
        if DERIVED_TAGS.contains(&tag) {
            return Err(Error::Argument(format!(
                "the {tag} header is the game's own (its rules and its play), not set: {tag}"
            )));
        }
        check_seat_tag(tag, self.rules.num_players()).map_err(Error::Argument)?;
        one_line(&format!("the {tag} header"), value)?;
        self.insert_tag(tag.to_string(), value.to_string());
        Ok(())
    }

    /// Removes header `tag`; returns its value if it was set.
    pub fn remove_tag(&mut self, tag: &str) -> Option<String> {
        let i = self.tags.iter().position(|(t, _)| t == tag)?;
        Some(self.tags.remove(i).1)
    }

    /// Inserts a checked tag in its canonical place.
    pub(crate) fn insert_tag(&mut self, tag: String, value: String) {
        if let Some(slot) = self.tags.iter_mut().find(|(t, _)| *t == tag) {
            slot.1 = value;
            return;
        }
        let rank = |t: &str| {
            FIRST_TAGS
                .iter()
                .position(|f| *f == t)
                .unwrap_or(FIRST_TAGS.len())
        };
        let mine = rank(&tag);
        let at = self
            .tags
            .iter()
            .position(|(t, _)| rank(t) > mine)
            .unwrap_or(self.tags.len());
        self.tags.insert(at, (tag, value));
    }

    /// The `Result` header: the scores per side joined by `/` once the last hand is over, `*`
    /// while it is not.
    pub fn result_text(&self) -> String {
        if self.state.hand_over() {
            let [a, b] = self.state.scores();
            format!("{a}/{b}")
        } else {
            "*".to_string()
        }
    }
}

/// Refuses a tag that is not a word of letters, digits and `_` starting with a letter.
pub(crate) fn check_tag(tag: &str) -> Result<(), Error> {
    let mut chars = tag.chars();
    let ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(Error::Argument(format!(
            "a header tag is a word of letters, digits and _, got: {tag}"
        )))
    }
}

/// Refuses a `SeatN` tag naming a seat past the players (the why, for the caller's error).
pub(crate) fn check_seat_tag(tag: &str, players: u8) -> Result<(), String> {
    let Some(n) = tag.strip_prefix("Seat") else {
        return Ok(());
    };
    if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
        let past = n.parse::<u64>().map_or(true, |s| s >= u64::from(players));
        if past {
            return Err(format!(
                "the header {tag} names a seat the game does not have ({players} seats)"
            ));
        }
    }
    Ok(())
}

/// Refuses `text` if it holds a line break of any kind a reader splits lines at.
pub(crate) fn one_line(what: &str, text: &str) -> Result<(), Error> {
    if text.contains(is_line_break) {
        return Err(Error::Argument(format!("{what} is one line, got: {text}")));
    }
    Ok(())
}

/// Every character Python's `str.splitlines` splits at, so that a value written on one line is
/// read back as one by either reader.
pub(crate) fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r'
            | '\u{0b}'
            | '\u{0c}'
            | '\u{1c}'
            | '\u{1d}'
            | '\u{1e}'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::presets::PRESETS;
    use crate::game::rng::Rng;

    fn preset_rules() -> Vec<Arc<Rules>> {
        PRESETS
            .iter()
            .map(|p| Arc::new(Rules::new(p.options(None).unwrap()).unwrap()))
            .collect()
    }

    /// Plays random moves (hands after hands) and returns the game.
    fn random_game(rules: &Arc<Rules>, seed: u64, steps: usize) -> Game {
        let mut g = Game::new(rules.clone(), seed);
        let mut rng = Rng::new(seed ^ 0x5eed);
        for _ in 0..steps {
            let legal = g.legal_moves();
            if legal.is_empty() {
                if g.next_hand().is_err() {
                    break;
                }
                continue;
            }
            let i = rng.below(legal.len() as u64) as usize;
            g.play(legal[i]).unwrap();
        }
        g
    }

    #[test]
    fn undone_and_replayed_equals_the_game() {
        for rules in preset_rules() {
            for seed in 0..4 {
                let g = random_game(&rules, seed, 120);
                let mut h = g.clone();
                let mut undone = Vec::new();
                loop {
                    let hands = h.hands().len();
                    match h.undo() {
                        Some(mv) => undone.push(Some(mv)),
                        None if hands > 1 => undone.push(None),
                        None => break,
                    }
                }
                assert_eq!(h, Game::new(rules.clone(), seed));
                assert!(h.is_empty());
                for step in undone.into_iter().rev() {
                    match step {
                        Some(mv) => h.play(mv).unwrap(),
                        None => h.next_hand().unwrap(),
                    }
                }
                assert_eq!(h, g);
            }
        }
    }

    #[test]
    fn a_refused_move_leaves_the_game_as_it_was() {
        let rules = preset_rules().remove(0);
        let mut g = random_game(&rules, 3, 5);
        let before = g.clone();
        let mut legal = Vec::new();
        g.state().legal_moves(&rules, &mut legal);
        let bad = "KS x AC".parse::<Move>().unwrap();
        if !legal.contains(&bad) {
            assert!(matches!(g.play(bad), Err(Error::IllegalMove(_))));
            assert_eq!(g, before);
        }
        assert!(
            g.play_annotated(legal[0], None, Some("a\nb".into()))
                .is_err()
        );
        assert_eq!(g, before);
        assert!(g.next_hand().is_err());
        assert_eq!(g, before);
    }

    #[test]
    fn a_view_hides_only_another_seats_kept_cut_card() {
        for rules in preset_rules() {
            for seed in 0..6 {
                let g = random_game(&rules, seed, 30);
                let n = rules.num_players();
                for seat in 0..n {
                    let v = g.view(seat).unwrap();
                    assert_eq!(v.view, g.state().view(seat));
                    let plies = &g.hands().last().unwrap().plies;
                    assert_eq!(v.seen.len(), plies.len());
                    for (s, p) in v.seen.iter().zip(plies) {
                        assert_eq!(s.before, p.before.view(seat));
                        let hidden = p.mv.kind() == MoveKind::KeepCut && p.seat != seat;
                        assert_eq!(s.mv, (!hidden).then_some(p.mv));
                    }
                }
                assert!(g.view(n).is_err());
            }
        }
    }

    #[test]
    fn tags_keep_their_order_and_refuse_what_is_not_a_tag() {
        let rules = preset_rules().remove(0);
        let mut g = Game::new(rules, 1);
        g.set_tag("Seat0", "me").unwrap();
        g.set_tag("Date", "2020-01-01").unwrap();
        g.set_tag("Event", "x").unwrap();
        g.set_tag("Seed", "2").unwrap();
        let order: Vec<&str> = g.tags().iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(order, ["Event", "Date", "Seed", "Seat0"]);
        assert_eq!(g.tag("Seed").as_deref(), Some("2"));
        assert_eq!(g.tag("Players").as_deref(), Some("2"));
        assert_eq!(g.tag("Result").as_deref(), Some("*"));
        for (tag, value) in [
            ("Rules", "x"),
            ("Result", "1/2"),
            ("9x", "x"),
            ("a b", "x"),
            ("Seat2", "x"),
            ("Note", "a\u{2028}b"),
        ] {
            let before = g.clone();
            assert!(g.set_tag(tag, value).is_err(), "{tag}");
            assert_eq!(g, before);
        }
        assert_eq!(g.remove_tag("Seed").as_deref(), Some("2"));
        assert_eq!(g.tag("Seed"), None);
    }
}
