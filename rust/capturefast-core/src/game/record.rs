//! Game records (`docs/records.md`): a [`Game`] saved as text and read back.
//!
//! ```text
//! file       = { game }
//! game       = { header } deal-block { deal-block }
//! header     = "[" TAG " " '"' VALUE '"' "]"
//! deal-block = "deal " POSITION-LINE { move-line }
//! move-line  = SEAT ":" " " MOVE [ " = " VALUE ] [ " ; " COMMENT ]
//! ```
//!
//! Blank lines and lines starting with `#` are skipped; a header after a move or deal line
//! starts the next game. A [`RecordReader`] takes lines one at a time and replays every move as
//! it reads it, so a game it yields is one that was played: each deal a position of the rules
//! (and after the first, the deal the previous hand's end leads to), each move legal and played
//! by the seat written, the `Rules`, `Players` and `Result` headers those of the play. The first
//! fault is an [`Error::Record`] naming the line, and the hand and move where there is one.
//!
//! [`Game::to_record`] writes the headers `Event`, `Date`, `Rules`, `Players`, the other tags in
//! their order, then `Result`; then each hand's deal and moves. A game read and written back is
//! the same text, and a game written and read back is the same game.

use std::sync::Arc;

use crate::error::Error;
use crate::game::action::Move;
use crate::game::history::{self, FIRST_TAGS, Game};
use crate::game::notation::rules_text;
use crate::game::rules::Rules;
use crate::game::state::State;

impl Game {
    /// The game as the text of a record (docs/records.md).
    pub fn to_record(&self) -> String {
        let mut out = String::new();
        let mut header = |tag: &str, value: &str| {
            out.push('[');
            out.push_str(tag);
            out.push_str(" \"");
            for c in value.chars() {
                if c == '\\' || c == '"' {
                    out.push('\\');
                }
                out.push(c);
            }
            out.push_str("\"]\n");
        };
        let tags = self.tags();
        let first = tags
            .iter()
            .take_while(|(t, _)| FIRST_TAGS.contains(&t.as_str()));
        let count = first.clone().count();
        for (t, v) in first {
            header(t, v);
        }
        header("Rules", &rules_text(self.rules()));
        header("Players", &self.rules().num_players().to_string());
        for (t, v) in &tags[count..] {
            header(t, v);
        }
        header("Result", &self.result_text());
        for hand in self.hands() {
            out.push_str("\ndeal ");
            out.push_str(&hand.start.to_notation(self.rules()));
            out.push('\n');
            for p in &hand.plies {
                push_move_line(&mut out, p.seat, p.mv, p.value, p.comment.as_deref());
            }
        }
        out
    }

    /// The one game written in `text`, replayed as it is read.
    ///
    /// # Errors
    /// [`Error::Record`] at the first fault (see [`RecordReader`]), or if the text holds more
    /// or fewer than one game.
    pub fn from_record(text: &str) -> Result<Game, Error> {
        let mut reader = RecordReader::new();
        let mut games = reader.push_text(text).map_err(without_game)?;
        games.extend(reader.finish().map_err(without_game)?);
        if games.len() != 1 {
            return Err(record_error(
                format!("the text holds one game, got: {} games", games.len()),
                None,
            ));
        }
        Ok(games.pop().expect("one game"))
    }
}

/// The line of one move: `SEAT: MOVE`, then ` = VALUE` and ` ; COMMENT` where given.
pub fn push_move_line(
    out: &mut String,
    seat: u8,
    mv: Move,
    value: Option<i32>,
    comment: Option<&str>,
) {
    use std::fmt::Write;
    let _ = write!(out, "{seat}: {mv}");
    match value {
        Some(0) => out.push_str(" = 0"),
        Some(v) => {
            let _ = write!(out, " = {v:+}");
        }
        None => {}
    }
    if let Some(c) = comment.filter(|c| !c.is_empty()) {
        out.push_str(" ; ");
        out.push_str(c);
    }
    out.push('\n');
}

fn record_error(why: String, line: Option<usize>) -> Error {
    Error::Record {
        why,
        game: None,
        line,
        hand: None,
        ply: None,
    }
}

fn without_game(e: Error) -> Error {
    match e {
        Error::Record {
            why,
            line,
            hand,
            ply,
            ..
        } => Error::Record {
            why,
            game: None,
            line,
            hand,
            ply,
        },
        e => e,
    }
}

/// A game being read: its headers and, from its first deal on, the game replayed so far.
#[derive(Default)]
struct Pending {
    /// Every header read, with its line: the derived ones are checked, the others kept.
    headers: Vec<(String, String, usize)>,
    game: Option<Game>,
    /// The line of each hand's deal.
    deal_lines: Vec<usize>,
    in_body: bool,
}

/// Reads a records file line by line, replaying each game as it goes ([module docs](self)).
///
/// After an error the game at fault is dropped and the lines up to the next header are
/// skipped: reading goes on with the next game.
#[derive(Default)]
pub struct RecordReader {
    line: usize,
    games: usize,
    pending: Pending,
    skipping: bool,
}

impl RecordReader {
    /// A reader at the start of a file.
    pub fn new() -> RecordReader {
        RecordReader::default()
    }

    /// The lines read so far.
    pub fn lines_read(&self) -> usize {
        self.line
    }

    /// The games yielded or refused so far.
    pub fn games_read(&self) -> usize {
        self.games
    }

    /// Reads every line of `text` (split where a line break of any kind is, `\r\n` as one);
    /// returns the games finished in it. On an error the games finished before it are lost
    /// to the caller: read a file line by line with [`RecordReader::push_line`] to keep them.
    ///
    /// # Errors
    /// As [`RecordReader::push_line`].
    pub fn push_text(&mut self, text: &str) -> Result<Vec<Game>, Error> {
        let mut games = Vec::new();
        for line in split_lines(text) {
            games.extend(self.push_line(line)?);
        }
        Ok(games)
    }

    /// Reads the next line; returns the game it ends, if it starts the next one.
    ///
    /// # Errors
    /// [`Error::Record`] at the first fault of the game being read (its `game` the game's index
    /// from 0, its `line` from 1, and for a fault in play its `hand` and `ply` from 0).
    pub fn push_line(&mut self, raw: &str) -> Result<Option<Game>, Error> {
        self.line += 1;
        let number = self.line;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(None);
        }
        if self.skipping {
            if !line.starts_with('[') {
                return Ok(None);
            }
            self.skipping = false;
        }
        if line.starts_with('[') && self.pending.in_body {
            // The header ends the game before it, and starts the next whatever that one was.
            let pending = std::mem::take(&mut self.pending);
            let done = finish_game(pending, Some(number)).map_err(|e| self.in_game(e));
            if done.is_ok() {
                self.games += 1;
            }
            let header = self.read(line, number);
            return match (done, header) {
                (Ok(game), Ok(_)) => Ok(Some(game)),
                (Err(e), header) => {
                    if header.is_err() {
                        self.pending = Pending::default();
                        self.skipping = true;
                    }
                    Err(e)
                }
                (Ok(_), Err(e)) => Err(self.fail(e)),
            };
        }
        let result = self.read(line, number);
        result.map_err(|e| self.fail(e))
    }

    /// Ends the file; returns its last game, if any.
    ///
    /// # Errors
    /// [`Error::Record`] if that game is at fault.
    pub fn finish(&mut self) -> Result<Option<Game>, Error> {
        if self.skipping {
            self.skipping = false;
            self.pending = Pending::default();
            return Ok(None);
        }
        let pending = std::mem::take(&mut self.pending);
        if pending.headers.is_empty() && pending.game.is_none() {
            return Ok(None);
        }
        let game = finish_game(pending, None).map_err(|e| self.fail(e))?;
        self.games += 1;
        Ok(Some(game))
    }

    /// `e` with the game it is in; the reader skips to the next game.
    fn fail(&mut self, e: Error) -> Error {
        self.pending = Pending::default();
        self.skipping = true;
        self.in_game(e)
    }

    /// `e` with the game it is in, counted as read.
    fn in_game(&mut self, e: Error) -> Error {
        let index = self.games;
        self.games += 1;
        match e {
            Error::Record {
                why,
                line,
                hand,
                ply,
                ..
            } => Error::Record {
                why,
                game: Some(index),
                line,
                hand,
                ply,
            },
            e => e,
        }
    }

    fn read(&mut self, line: &str, number: usize) -> Result<Option<Game>, Error> {
        let at = |why: String| record_error(why, Some(number));
        if line.starts_with('[') {
            let (tag, value) = parse_header(line)
                .ok_or_else(|| at(format!("a header is [Tag \"value\"], got: {line}")))?;
            if self.pending.headers.iter().any(|(t, _, _)| *t == tag) {
                return Err(at(format!("the header {tag} is given twice")));
            }
            self.pending.headers.push((tag, value, number));
            return Ok(None);
        }
        self.pending.in_body = true;
        if let Some(rest) = line.strip_prefix("deal ") {
            let (rules, start) = State::from_notation(rest)
                .map_err(|e| at(format!("the deal is not a position: {e}")))?;
            self.deal(rules, start, number)?;
            return Ok(None);
        }
        let (seat, rest) = split_move_line(line).ok_or_else(|| {
            at(format!(
                "expected a header, a deal line or 'SEAT: MOVE', got: {line}"
            ))
        })?;
        let Some(game) = self.pending.game.as_mut() else {
            return Err(at("a move before the first deal".to_string()));
        };
        let (text, comment) = rest.split_once(';').unwrap_or((rest, ""));
        let (text, value) = match text.split_once('=') {
            Some((text, v)) => {
                let v = v.trim();
                let value = v
                    .parse::<i32>()
                    .map_err(|_| at(format!("a value is a whole number, got: {v}")))?;
                (text, Some(value))
            }
            None => (text, None),
        };
        let text = text.trim();
        let mv: Move = text.parse().map_err(|e: Error| at(e.to_string()))?;
        let comment = comment.trim();
        let hand = game.hands().len() - 1;
        let ply = game.hands()[hand].plies.len();
        let fault = |why: String| Error::Record {
            why,
            game: None,
            line: Some(number),
            hand: Some(hand),
            ply: Some(ply),
        };
        let state = *game.state();
        match state.to_move() {
            _ if state.hand_over() => {
                return Err(fault(format!("{mv} is played after the hand is over")));
            }
            Some(m) if seat != Some(m) => {
                let written = seat.map_or_else(|| rest_seat(line), |s| s.to_string());
                return Err(fault(format!(
                    "seat {written} plays {mv}, but seat {m} is to move"
                )));
            }
            _ => {}
        }
        let comment = (!comment.is_empty()).then(|| comment.to_string());
        game.play_annotated(mv, value, comment).map_err(|e| {
            let reason = e.to_string();
            let reason = reason.lines().next().unwrap_or_default().to_string();
            fault(format!("{mv} is not legal: {reason}"))
        })?;
        Ok(None)
    }

    /// Reads a deal line: the first deal starts the game (its headers checked), a later one
    /// must be the deal the previous hand's end leads to.
    fn deal(&mut self, rules: Rules, start: State, number: usize) -> Result<(), Error> {
        let pending = &mut self.pending;
        let hand_fault = |k: usize, line: usize, why: String| Error::Record {
            why,
            game: None,
            line: Some(line),
            hand: Some(k),
            ply: None,
        };
        let Some(game) = pending.game.as_mut() else {
            let rules = Arc::new(rules);
            let mut game = Game::from_state(rules.clone(), start)
                .map_err(|e| hand_fault(0, number, e.to_string()))?;
            let players = rules.num_players().to_string();
            let text = rules_text(&rules);
            for (tag, value, line) in &pending.headers {
                let want = match tag.as_str() {
                    "Rules" => &text,
                    "Players" => &players,
                    "Result" => continue,
                    _ => {
                        history::check_seat_tag(tag, rules.num_players())
                            .map_err(|why| record_error(why, Some(*line)))?;
                        game.insert_tag(tag.clone(), value.clone());
                        continue;
                    }
                };
                if value != want {
                    return Err(hand_fault(
                        0,
                        number,
                        format!("the {tag} header says {value}, the deal {want}"),
                    ));
                }
            }
            pending.game = Some(game);
            pending.deal_lines.push(number);
            return Ok(());
        };
        let k = game.hands().len();
        let previous = *game.state();
        if !previous.hand_over() {
            let line = pending.deal_lines[k - 1];
            return Err(hand_fault(
                k - 1,
                line,
                "a hand that is not over is followed by another".to_string(),
            ));
        }
        if previous.match_over() {
            return Err(hand_fault(
                k,
                number,
                "a hand dealt after the match is over".to_string(),
            ));
        }
        let mut expected = previous;
        expected
            .next_hand(game.rules())
            .map_err(|e| hand_fault(k, number, e.to_string()))?;
        let scores = |s: &State| {
            let [a, b] = s.scores();
            format!("{a}/{b}")
        };
        let checks = [
            ("scores", scores(&start), scores(&expected)),
            (
                "dealer",
                start.dealer().to_string(),
                expected.dealer().to_string(),
            ),
            (
                "hand_number",
                start.hand_number().to_string(),
                expected.hand_number().to_string(),
            ),
            ("rules", rules_text(&rules), rules_text(game.rules())),
        ];
        for (name, has, want) in checks {
            if has != want || (name == "rules" && rules != **game.rules()) {
                return Err(hand_fault(
                    k,
                    number,
                    format!(
                        "the deal does not carry on the match: the deal has {name} {has}, \
                         the previous hand ends at {want}"
                    ),
                ));
            }
        }
        game.push_hand(start);
        pending.deal_lines.push(number);
        Ok(())
    }
}

/// A game's end: it has a deal, and its `Result` header (if any) is its play's.
fn finish_game(pending: Pending, line: Option<usize>) -> Result<Game, Error> {
    let Some(game) = pending.game else {
        return Err(record_error(
            "a game has at least one deal line, got none".to_string(),
            line,
        ));
    };
    if let Some((_, value, at)) = pending.headers.iter().find(|(t, _, _)| t == "Result") {
        let got = game.result_text();
        if *value != got {
            return Err(record_error(
                format!("the Result header says {value}, the moves give {got}"),
                Some(*at),
            ));
        }
    }
    Ok(game)
}

/// A header line's tag and value (unescaped), or `None` if it is not `[Tag "value"]`.
fn parse_header(line: &str) -> Option<(String, String)> {
    let body = line.strip_prefix('[')?.strip_suffix(']')?;
    let end = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(body.len());
    let tag = &body[..end];
    history::check_tag(tag).ok()?;
    let rest = &body[end..];
    let quoted = rest.trim_start();
    if quoted.len() == rest.len() {
        return None;
    }
    let inner = quoted.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((tag.to_string(), value))
}

/// A move line's seat (`None` if it is past any seat) and the rest, or `None` if the line is
/// not `SEAT: ...`.
fn split_move_line(line: &str) -> Option<(Option<u8>, &str)> {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let rest = line[digits..].strip_prefix(':')?;
    Some((line[..digits].parse().ok(), rest.trim_start()))
}

/// The seat as written at the start of a move line.
fn rest_seat(line: &str) -> String {
    line.chars().take_while(char::is_ascii_digit).collect()
}

/// The lines of `text` as Python's `str.splitlines` splits them.
pub fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let Some(i) = rest.find(history::is_line_break) else {
            let line = rest;
            rest = "";
            return Some(line);
        };
        let line = &rest[..i];
        let skip = if rest[i..].starts_with("\r\n") {
            2
        } else {
            rest[i..].chars().next().map_or(1, char::len_utf8)
        };
        rest = &rest[i + skip..];
        Some(line)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::presets::PRESETS;
    use crate::game::rng::Rng;

    fn random_match(rules: &Arc<Rules>, seed: u64, hands: usize) -> Game {
        let mut g = Game::new(rules.clone(), seed);
        g.set_tag("Event", "test").unwrap();
        g.set_tag("Seat0", "me \"quoted\" \\ back").unwrap();
        let mut rng = Rng::new(seed);
        let mut dealt = 1;
        loop {
            let legal = g.legal_moves();
            if legal.is_empty() {
                if dealt == hands || g.next_hand().is_err() {
                    break;
                }
                dealt += 1;
                continue;
            }
            let mv = legal[rng.below(legal.len() as u64) as usize];
            let value = (rng.below(3) == 0).then(|| rng.below(7) as i32 - 3);
            let comment = (rng.below(4) == 0).then(|| "a; comment = x".to_string());
            g.play_annotated(mv, value, comment).unwrap();
        }
        g
    }

    fn rules_of_presets() -> Vec<Arc<Rules>> {
        PRESETS
            .iter()
            .map(|p| Arc::new(Rules::new(p.options(None).unwrap()).unwrap()))
            .collect()
    }

    #[test]
    fn a_game_written_reads_back_as_itself() {
        for rules in rules_of_presets() {
            for seed in 0..3 {
                let g = random_match(&rules, seed, 3);
                let text = g.to_record();
                let back = Game::from_record(&text).unwrap();
                assert_eq!(back, g);
                assert_eq!(back.to_record(), text);
            }
        }
    }

    #[test]
    fn the_headers_come_in_their_order() {
        let rules = rules_of_presets().remove(0);
        let mut g = Game::new(rules, 3);
        g.set_tag("Seat0", "me").unwrap();
        g.set_tag("Seat1", "greedy").unwrap();
        g.remove_tag("Seed");
        g.set_tag("Seed", "3").unwrap();
        g.set_tag("Date", "2020-01-02").unwrap();
        let text = g.to_record();
        let heads: Vec<&str> = text.lines().take_while(|l| l.starts_with('[')).collect();
        assert_eq!(
            heads,
            [
                "[Date \"2020-01-02\"]",
                "[Rules \"scopa\"]",
                "[Players \"2\"]",
                "[Seat0 \"me\"]",
                "[Seat1 \"greedy\"]",
                "[Seed \"3\"]",
                "[Result \"*\"]"
            ]
        );
    }

    fn edited(text: &str, k: usize, f: impl Fn(&str) -> String) -> String {
        text.lines()
            .enumerate()
            .map(|(i, l)| if i == k { f(l) } else { l.to_string() })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn a_move_by_the_wrong_seat_is_refused_with_its_line() {
        let rules = rules_of_presets().remove(0);
        let g = random_match(&rules, 5, 1);
        let text = g.to_record();
        let (k, line) = text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.starts_with("0: ") || l.starts_with("1: "))
            .nth(3)
            .unwrap();
        let swapped = if line.starts_with('0') { "1" } else { "0" };
        let bad = edited(&text, k, |l| format!("{swapped}{}", &l[1..]));
        let e = Game::from_record(&bad).unwrap_err();
        let Error::Record {
            line, hand, ply, ..
        } = &e
        else {
            panic!("{e:?}")
        };
        assert_eq!((*line, *hand, *ply), (Some(k + 1), Some(0), Some(3)));
        let shown = e.to_string();
        assert!(
            shown.starts_with(&format!(
                "hand 1, move 4 (line {}): seat {swapped} plays",
                k + 1
            )),
            "{shown}"
        );
    }

    #[test]
    fn faults_are_refused_where_they_are() {
        let rules = rules_of_presets().remove(0);
        let g = random_match(&rules, 2, 2);
        let text = g.to_record();
        let lines: Vec<&str> = text.lines().collect();
        let result = lines.iter().position(|l| l.starts_with("[Result")).unwrap();
        let cases = [
            (
                edited(&text, result, |_| "[Result \"0/0\"]".into()),
                "Result header says 0/0",
            ),
            (
                edited(&text, 1, |_| "[Rules \"escoba\"]".into()),
                "the Rules header says escoba",
            ),
            (edited(&text, 0, |_| "[Seat7 \"x\"]".into()), "Seat7"),
            (edited(&text, 0, |_| "[Bad tag]".into()), "a header is"),
            (format!("{text}\nzzz"), "expected a header"),
            (format!("{text}0: 7D = x\n"), "a value is a whole number"),
            (format!("{text}0: 7D\n"), "after the hand is over"),
        ];
        for (bad, want) in cases {
            let e = Game::from_record(&bad).expect_err(want);
            assert!(e.to_string().contains(want), "{e} / {want}");
        }
        // A hand that is not over followed by another deal.
        let deal2 = lines.iter().rposition(|l| l.starts_with("deal ")).unwrap();
        let cut: Vec<&str> = lines
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != deal2 - 2)
            .map(|(_, l)| *l)
            .collect();
        let e = Game::from_record(&cut.join("\n")).unwrap_err();
        assert!(e.to_string().contains("not over is followed"), "{e}");
    }

    #[test]
    fn a_reader_names_the_game_and_goes_on_with_the_next() {
        let rules = rules_of_presets().remove(0);
        let a = random_match(&rules, 1, 1);
        let b = random_match(&rules, 2, 1);
        let bad = a.to_record().replace("[Result", "[Result \"9/9\"]\n[Note");
        let text = format!("{}\n{bad}\n{}", a.to_record(), b.to_record());
        let mut r = RecordReader::new();
        let mut got = Vec::new();
        let mut errors = Vec::new();
        for line in split_lines(&text) {
            match r.push_line(line) {
                Ok(g) => got.extend(g),
                Err(e) => errors.push(e),
            }
        }
        got.extend(r.finish().unwrap());
        assert_eq!(got, [a, b]);
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].to_string().starts_with("game 2, line "),
            "{}",
            errors[0]
        );
    }

    #[test]
    fn lines_split_as_python_splits_them() {
        let parts: Vec<&str> = split_lines("a\r\nb\rc\u{2028}d\n\ne").collect();
        assert_eq!(parts, ["a", "b", "c", "d", "", "e"]);
        assert_eq!(split_lines("a\n").collect::<Vec<_>>(), ["a"]);
    }
}
