//! The position notation (`docs/notation.md`): one line of text for a whole [`State`], or for
//! the [`View`] of one seat, with its rules.
//!
//! A line is the rules (a preset name and, in brackets, the options that differ from it), then
//! `field=value` tokens separated by spaces. Cards are written in card notation and joined by
//! `+` (`-` for none); a list per seat or per side is joined by `/`, one entry per seat or side,
//! so the counts of seats and of sides are the lengths of the lists, not assumed by the format.
//! A state line gives every hand and the stock in deal order; a view line names its `seat`,
//! gives that seat's hand as cards and every other hand, and the stock, as counts.
//!
//! Formatting writes the fields in one order, each optional field only when it says something
//! (`declared`, `claimable`, `cut_card`, `seed`), so a position has one line. Parsing accepts
//! the fields in any order, refuses an unknown, repeated or missing field, and checks the
//! position as `State::decode` does; every refusal is an [`Error::Notation`] naming the field.

use crate::error::Error;
use crate::game::card::{Card, NUM_CARDS};
use crate::game::cardset::CardSet;
use crate::game::options::Options;
use crate::game::presets::{Preset, nearest};
use crate::game::rules::Rules;
use crate::game::state::{Parts, Phase, Refusal, State, phase_word};
use crate::game::view::View;
use crate::game::words::OptionValue;

/// The fields of a state line, in the order they are written.
pub const STATE_FIELDS: [&str; 16] = [
    "players",
    "dealer",
    "phase",
    "to_move",
    "hands",
    "table",
    "stock",
    "piles",
    "sweeps",
    "scores",
    "last_capturer",
    "hand_number",
    "declared",
    "claimable",
    "cut_card",
    "seed",
];

/// The fields of a view line, in the order they are written.
pub const VIEW_FIELDS: [&str; 15] = [
    "players",
    "seat",
    "dealer",
    "phase",
    "to_move",
    "hands",
    "table",
    "stock",
    "piles",
    "sweeps",
    "scores",
    "last_capturer",
    "declared",
    "claimable",
    "cut_card",
];

/// The error for `field`, and why.
fn refuse(field: &str, why: impl Into<String>) -> Error {
    Error::Notation {
        field: field.to_string(),
        why: why.into(),
    }
}

/// A core refusal as a notation error naming its field.
fn refusal(Refusal(field, e): Refusal) -> Error {
    let why = match e {
        Error::DuplicateCard(c) => format!("a card is in two places: {c}"),
        // The field is named already: not "cannot decode state", which speaks of bytes.
        Error::Decode(why) | Error::Position(why) => why,
        other => other.to_string(),
    };
    refuse(field, why)
}

// ----------------------------------------------------------------------------- writing

/// The rules as the notation writes them: the nearest preset and, in brackets, the options
/// that differ from it (`scopa`, `cirulla[target=100]`).
pub fn rules_text(rules: &Rules) -> String {
    // Finding the nearest preset builds the rules of each candidate (about 10 µs): the last
    // answer is kept per thread, since a caller writes many positions under the same rules.
    thread_local! {
        static LAST: std::cell::RefCell<Option<(Options, String)>> =
            const { std::cell::RefCell::new(None) };
    }
    LAST.with_borrow_mut(|last| {
        if let Some((options, text)) = last.as_ref()
            && options == rules.options()
        {
            return text.clone();
        }
        let (preset, diff) = nearest(rules);
        let text = if diff.is_empty() {
            preset.name.to_string()
        } else {
            let opts: Vec<String> = diff.iter().map(|(n, v)| format!("{n}={v}")).collect();
            format!("{}[{}]", preset.name, opts.join(","))
        };
        *last = Some((rules.options().clone(), text.clone()));
        text
    })
}

fn cards(set: CardSet) -> String {
    set.to_string()
}

fn in_order(list: &[Card]) -> String {
    if list.is_empty() {
        return "-".to_string();
    }
    let words: Vec<String> = list.iter().map(Card::to_string).collect();
    words.join("+")
}

fn per<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    let words: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    words.join("/")
}

fn seat_or_none(seat: Option<u8>) -> String {
    seat.map_or("-".to_string(), |s| s.to_string())
}

/// The fields both lines share after the hands, in order (`table` to `last_capturer`).
fn common_tail(
    out: &mut Vec<(&'static str, String)>,
    table: CardSet,
    stock: String,
    piles: [CardSet; 2],
    counts: ([u8; 2], [u32; 2]),
    last: Option<u8>,
) {
    let (sweeps, scores) = counts;
    out.push(("table", cards(table)));
    out.push(("stock", stock));
    out.push(("piles", per(piles.iter().map(|&p| cards(p)))));
    out.push(("sweeps", per(sweeps)));
    out.push(("scores", per(scores)));
    out.push(("last_capturer", seat_or_none(last)));
}

fn optional_tail(
    out: &mut Vec<(&'static str, String)>,
    declared: [u8; 2],
    claimable: Option<Card>,
    cut: Option<Card>,
) {
    if declared != [0, 0] {
        out.push(("declared", per(declared)));
    }
    if let Some(c) = claimable {
        out.push(("claimable", c.to_string()));
    }
    if let Some(c) = cut {
        out.push(("cut_card", c.to_string()));
    }
}

fn line(rules: &Rules, fields: &[(&'static str, String)]) -> String {
    let mut s = rules_text(rules);
    for (k, v) in fields {
        s.push(' ');
        s.push_str(k);
        s.push('=');
        s.push_str(v);
    }
    s
}

impl State {
    /// The state as one line of the position notation (`docs/notation.md`), under `rules`,
    /// the rules it is played by.
    pub fn to_notation(&self, rules: &Rules) -> String {
        let n = self.num_players();
        let mut f = vec![
            ("players", n.to_string()),
            ("dealer", self.dealer().to_string()),
            ("phase", phase_word(self.phase()).to_string()),
            ("to_move", seat_or_none(self.to_move())),
            ("hands", per((0..n).map(|s| cards(self.hand(s))))),
        ];
        common_tail(
            &mut f,
            self.table(),
            in_order(self.stock()),
            self.piles(),
            (self.sweeps(), self.scores()),
            self.last_capturer(),
        );
        f.push(("hand_number", self.hand_number().to_string()));
        optional_tail(&mut f, self.declared(), self.claimable(), self.cut_card());
        if self.rng().state() != 0 {
            f.push(("seed", self.rng().state().to_string()));
        }
        line(rules, &f)
    }

    /// A state from one line of the position notation, with its rules.
    ///
    /// # Errors
    /// [`Error::Notation`] naming the field at fault and why: a malformed value, an unknown,
    /// repeated or missing field, or a position these rules cannot reach.
    pub fn from_notation(text: &str) -> Result<(Rules, State), Error> {
        if mentions(text, "seat") {
            return Err(refuse(
                "seat",
                "a state line has no seat; a line with a seat is a view, read by \
                 `View.from_notation` (Python) or `View::from_notation` (Rust)",
            ));
        }
        let line = Line::parse(text, &STATE_FIELDS)?;
        let rules = line.rules()?;
        let n = rules.num_players();
        let hands = line.per_seat("hands", n, |v| parse_cards("hands", v))?;
        let mut hand_masks = [CardSet::EMPTY; 4];
        hand_masks[..usize::from(n)].copy_from_slice(&hands);
        let stock = line.get("stock").and_then(|v| parse_list("stock", v))?;
        let common = line.common(&rules)?;
        let parts = Parts {
            hands: hand_masks,
            table: common.table,
            stock,
            piles: common.piles,
            sweeps: common.sweeps,
            declared: common.declared,
            scores: common.scores,
            dealer: common.dealer,
            to_move: common.to_move,
            last_capturer: common.last_capturer,
            cut_card: common.cut_card,
            claimable: common.claimable,
            phase: common.phase,
            hand_number: line
                .get("hand_number")
                .and_then(|v| number("hand_number", v))?,
            seed: line.optional("seed").map_or(Ok(0), |v| number("seed", v))?,
        };
        check_once(&parts, None)?;
        let state = State::from_parts(&rules, &parts).map_err(refusal)?;
        Ok((rules, state))
    }
}

impl View {
    /// The view as one line of the position notation (`docs/notation.md`), under `rules`.
    pub fn to_notation(&self, rules: &Rules) -> String {
        let n = self.num_players;
        let hands = (0..n).map(|s| {
            if s == self.seat {
                cards(self.hand)
            } else {
                self.hand_sizes[usize::from(s)].to_string()
            }
        });
        let mut f = vec![
            ("players", n.to_string()),
            ("seat", self.seat.to_string()),
            ("dealer", self.dealer.to_string()),
            ("phase", phase_word(self.phase).to_string()),
            ("to_move", seat_or_none(self.to_move)),
            ("hands", per(hands)),
        ];
        common_tail(
            &mut f,
            self.table,
            self.stock_size.to_string(),
            self.piles,
            (self.sweeps, self.scores),
            self.last_capturer,
        );
        optional_tail(&mut f, self.declared, self.claimable, self.cut_card);
        line(rules, &f)
    }

    /// A view from one line of the view notation, with its rules; refused unless some state
    /// under these rules shows exactly this to the seat.
    ///
    /// # Errors
    /// [`Error::Notation`] naming the field at fault and why.
    pub fn from_notation(text: &str) -> Result<(Rules, View), Error> {
        if !mentions(text, "seat") && mentions(text, "hand_number") {
            return Err(refuse(
                "seat",
                "missing: a view line names its seat (this looks like a state line, read it \
                 with `State::from_notation`)",
            ));
        }
        let line = Line::parse(text, &VIEW_FIELDS)?;
        let rules = line.rules()?;
        let n = rules.num_players();
        let seat = line.get("seat").and_then(|v| seat("seat", v, n))?;
        let mut own = CardSet::EMPTY;
        let mut sizes = [0u8; 4];
        let entries = line.per_seat("hands", n, |v| Ok(v.to_string()))?;
        for (s, entry) in entries.iter().enumerate() {
            if s == usize::from(seat) {
                if entry.bytes().all(|b| b.is_ascii_digit()) && entry != "-" {
                    return Err(refuse(
                        "hands",
                        format!("seat {seat}'s own hand is written as cards, got: {entry}"),
                    ));
                }
                own = parse_cards("hands", entry)?;
                sizes[s] = own.len() as u8;
            } else {
                sizes[s] = number("hands", entry).map_err(|_| {
                    refuse(
                        "hands",
                        format!(
                            "seat {s}'s hand is hidden from seat {seat}: a count, got: {entry}"
                        ),
                    )
                })?;
            }
        }
        let stock_size: u8 = line.get("stock").and_then(|v| number("stock", v))?;
        let c = line.common(&rules)?;
        if c.cut_card.is_some() && c.to_move != Some(seat) {
            return Err(refuse(
                "cut_card",
                format!(
                    "only the cutter sees the cut card, and seat {seat} is not to cut: {}",
                    c.cut_card.map_or(String::new(), |c| c.to_string())
                ),
            ));
        }
        let cutter_sees = c.phase == Phase::Cut && c.to_move == Some(seat);
        if cutter_sees && c.cut_card.is_none() {
            return Err(refuse(
                "cut_card",
                format!("missing: seat {seat} is the cutter, who sees the cut card"),
            ));
        }
        let world = world_of(&rules, seat, own, sizes, stock_size, &c)?;
        let view = world.view(seat);
        debug_assert_eq!(view.hand_sizes, sizes);
        Ok((rules, view))
    }
}

/// A world a view line may stand for: the unseen cards dealt in id order to a hidden cut card,
/// the hidden hands in seat order, then the stock. The state checks it, so a view is accepted
/// exactly when some position shows it.
fn world_of(
    rules: &Rules,
    seat: u8,
    own: CardSet,
    sizes: [u8; 4],
    stock_size: u8,
    c: &Common,
) -> Result<State, Error> {
    let n = rules.num_players();
    let cutter_sees = c.phase == Phase::Cut && c.to_move == Some(seat);
    let seen = own | c.table | c.piles[0] | c.piles[1];
    let shown_cut = c.cut_card.map_or(CardSet::EMPTY, CardSet::single);
    let mut probe = Parts {
        hands: [CardSet::EMPTY; 4],
        table: c.table,
        stock: Vec::new(),
        piles: c.piles,
        sweeps: c.sweeps,
        declared: c.declared,
        scores: c.scores,
        dealer: c.dealer,
        to_move: c.to_move,
        last_capturer: c.last_capturer,
        cut_card: c.cut_card,
        claimable: c.claimable,
        phase: c.phase,
        hand_number: 0,
        seed: 0,
    };
    probe.hands[usize::from(seat)] = own;
    check_once(&probe, Some(seat))?;
    let mut unseen = (!(seen | shown_cut)).iter();
    let hidden_cut = usize::from(c.phase == Phase::Cut && !cutter_sees);
    let hidden: usize = (0..usize::from(n))
        .filter(|&s| s != usize::from(seat))
        .map(|s| usize::from(sizes[s]))
        .sum::<usize>()
        + usize::from(stock_size)
        + hidden_cut;
    if hidden != unseen.len() {
        return Err(refuse(
            "stock",
            format!(
                "seat {seat} has not seen {} cards, so the other hands, the stock and a \
                 hidden cut card hold that many, got: {hidden}",
                unseen.len()
            ),
        ));
    }
    if hidden_cut == 1 {
        probe.cut_card = unseen.next();
    }
    for s in 0..n {
        if s != seat {
            probe.hands[usize::from(s)] = unseen
                .by_ref()
                .take(usize::from(sizes[usize::from(s)]))
                .collect();
        }
    }
    probe.stock = unseen.collect();
    // A refusal of the hidden hands or the stock is one of their counts.
    State::from_parts(rules, &probe).map_err(refusal)
}

// ----------------------------------------------------------------------------- reading

/// A line split into its rules token and its fields.
struct Line<'a> {
    rules: &'a str,
    fields: Vec<(&'a str, &'a str)>,
}

/// The fields every line has, read and range-checked.
struct Common {
    dealer: u8,
    phase: Phase,
    to_move: Option<u8>,
    table: CardSet,
    piles: [CardSet; 2],
    sweeps: [u8; 2],
    scores: [u32; 2],
    last_capturer: Option<u8>,
    declared: [u8; 2],
    claimable: Option<Card>,
    cut_card: Option<Card>,
}

/// The longest line read: far above any position's (about 300 bytes), so that a runaway
/// input is refused before it is split.
const MAX_LINE: usize = 4096;

impl<'a> Line<'a> {
    fn parse(text: &'a str, known: &[&str]) -> Result<Line<'a>, Error> {
        if text.len() > MAX_LINE {
            return Err(refuse(
                "rules",
                format!("a line is at most {MAX_LINE} bytes, got: {}", text.len()),
            ));
        }
        let mut tokens = text.split_ascii_whitespace();
        let Some(rules) = tokens.next() else {
            return Err(refuse("rules", "missing: the line is empty"));
        };
        if rules.contains('=') && !rules.contains('[') {
            return Err(refuse(
                "rules",
                format!("missing: a line starts with a preset name, got: {rules}"),
            ));
        }
        let mut fields: Vec<(&str, &str)> = Vec::new();
        for token in tokens {
            let Some((key, value)) = token.split_once('=').filter(|(k, _)| !k.is_empty()) else {
                return Err(refuse(
                    token,
                    format!("a field is written `name=value`, got: {token}"),
                ));
            };
            if !known.contains(&key) {
                return Err(refuse(
                    key,
                    format!(
                        "unknown field (expected one of {}): {key}",
                        known.join(", ")
                    ),
                ));
            }
            if fields.iter().any(|(k, _)| *k == key) {
                return Err(refuse(key, format!("the field is given twice: {key}")));
            }
            fields.push((key, value));
        }
        Ok(Line { rules, fields })
    }

    fn optional(&self, key: &str) -> Option<&'a str> {
        self.fields.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    fn get(&self, key: &str) -> Result<&'a str, Error> {
        self.optional(key)
            .ok_or_else(|| refuse(key, format!("missing: {key}")))
    }

    /// The rules: the preset, its options for `players`, the bracketed differences.
    fn rules(&self) -> Result<Rules, Error> {
        let bad = |e: Error| refuse("rules", e.to_string());
        let (name, opts) = match self.rules.split_once('[') {
            None => (self.rules, None),
            Some((name, rest)) => match rest.strip_suffix(']') {
                Some(inner) => (name, Some(inner)),
                None => {
                    return Err(refuse(
                        "rules",
                        format!("options close with `]`: {}", self.rules),
                    ));
                }
            },
        };
        // The preset first: a line that does not start with one is not a position line at all.
        let preset = Preset::named(name).map_err(bad)?;
        let players: u8 = self.get("players").and_then(|v| number("players", v))?;
        let mut options = preset.options(Some(players)).map_err(bad)?;
        let mut seen: Vec<&str> = Vec::new();
        for pair in opts.into_iter().flat_map(|o| o.split(',')) {
            let Some((key, value)) = pair.split_once('=') else {
                return Err(refuse(
                    "rules",
                    format!("an option is written `name=value`, got: {pair}"),
                ));
            };
            // Each option once, as each field: a second value is refused, not taken over the
            // first.
            if seen.contains(&key) {
                return Err(refuse("rules", format!("the option is given twice: {key}")));
            }
            seen.push(key);
            let value = match value {
                "true" => OptionValue::Bool(true),
                "false" => OptionValue::Bool(false),
                v if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
                    OptionValue::Int(v.parse().map_err(|_| {
                        refuse("rules", format!("option `{key}` is too large: {v}"))
                    })?)
                }
                v => OptionValue::Str(v.to_string()),
            };
            options.set(key, &value).map_err(bad)?;
        }
        if players != 2 && players != 4 {
            return Err(refuse(
                "players",
                format!("2, or 4 in partnerships, got: {players}"),
            ));
        }
        Rules::new(options).map_err(bad)
    }

    /// A list with one entry per seat (`/`-separated).
    fn per_seat<T>(
        &self,
        key: &str,
        n: u8,
        each: impl Fn(&str) -> Result<T, Error>,
    ) -> Result<Vec<T>, Error> {
        let value = self.get(key)?;
        let entries: Vec<&str> = value.split('/').collect();
        if entries.len() != usize::from(n) {
            return Err(refuse(
                key,
                format!("one entry per seat ({n}), got: {}", entries.len()),
            ));
        }
        entries.into_iter().map(each).collect()
    }

    /// A list with one entry per side (`/`-separated).
    fn per_side<T: Copy + Default>(
        &self,
        key: &str,
        each: impl Fn(&str) -> Result<T, Error>,
    ) -> Result<[T; 2], Error> {
        let value = self.get(key)?;
        let entries: Vec<&str> = value.split('/').collect();
        if entries.len() != 2 {
            return Err(refuse(
                key,
                format!("one entry per side (2), got: {}", entries.len()),
            ));
        }
        Ok([each(entries[0])?, each(entries[1])?])
    }

    fn common(&self, rules: &Rules) -> Result<Common, Error> {
        let n = rules.num_players();
        let phase = match self.get("phase")? {
            "cut" => Phase::Cut,
            "play" => Phase::Play,
            "hand_over" => Phase::HandOver,
            "match_over" => Phase::MatchOver,
            other => {
                return Err(refuse(
                    "phase",
                    format!("expected cut, play, hand_over or match_over, got: {other}"),
                ));
            }
        };
        let optional_seat = |key: &str| -> Result<Option<u8>, Error> {
            match self.get(key)? {
                "-" => Ok(None),
                v => seat(key, v, n).map(Some),
            }
        };
        let optional_card = |key: &str| -> Result<Option<Card>, Error> {
            self.optional(key).map(|v| card(key, v)).transpose()
        };
        Ok(Common {
            dealer: seat("dealer", self.get("dealer")?, n)?,
            phase,
            to_move: optional_seat("to_move")?,
            table: parse_cards("table", self.get("table")?)?,
            piles: self.per_side("piles", |v| parse_cards("piles", v))?,
            sweeps: self.per_side("sweeps", |v| number("sweeps", v))?,
            scores: self.per_side("scores", |v| number("scores", v))?,
            last_capturer: optional_seat("last_capturer")?,
            declared: match self.optional("declared") {
                None => [0, 0],
                Some(_) => self.per_side("declared", |v| number("declared", v))?,
            },
            claimable: optional_card("claimable")?,
            cut_card: optional_card("cut_card")?,
        })
    }
}

/// Whether `text` has a field `key`, read before the line is checked against a kind's fields
/// (to say that a view line was given for a state, or the other way).
fn mentions(text: &str, key: &str) -> bool {
    text.split_ascii_whitespace()
        .filter_map(|t| t.split_once('='))
        .any(|(k, _)| k == key)
}

fn number<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, Error> {
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return Err(refuse(key, format!("expected a whole number, got: {v}")));
    }
    v.parse()
        .map_err(|_| refuse(key, format!("the number is too large: {v}")))
}

fn seat(key: &str, v: &str, n: u8) -> Result<u8, Error> {
    let s: u8 = number(key, v).map_err(|_| refuse(key, format!("a seat below {n}, got: {v}")))?;
    if s >= n {
        return Err(refuse(key, format!("a seat below {n}, got: {v}")));
    }
    Ok(s)
}

fn card(key: &str, v: &str) -> Result<Card, Error> {
    v.parse()
        .map_err(|_| refuse(key, format!("unknown card: {v}")))
}

/// Cards joined by `+` in the order written (`-`: none); each card once.
fn parse_list(key: &str, v: &str) -> Result<Vec<Card>, Error> {
    if v == "-" {
        return Ok(Vec::new());
    }
    let mut seen = CardSet::EMPTY;
    let mut out = Vec::new();
    for word in v.split('+') {
        let c = card(key, word)?;
        if seen.contains(c) {
            return Err(refuse(key, format!("a card is written twice: {c}")));
        }
        seen.insert(c);
        out.push(c);
        if out.len() > NUM_CARDS {
            break;
        }
    }
    Ok(out)
}

fn parse_cards(key: &str, v: &str) -> Result<CardSet, Error> {
    Ok(parse_list(key, v)?.into_iter().collect())
}

/// Each card in one field at most, naming the second field a card appears in; for a state
/// (`seat` None) every card placed somewhere.
fn check_once(p: &Parts, seat: Option<u8>) -> Result<(), Error> {
    let mut seen = CardSet::EMPTY;
    let mut place = |field: &str, set: CardSet| -> Result<(), Error> {
        if let Some(c) = (seen & set).first() {
            return Err(refuse(field, format!("a card is in two places: {c}")));
        }
        seen |= set;
        Ok(())
    };
    for &h in &p.hands {
        place("hands", h)?;
    }
    place("table", p.table)?;
    place("piles", p.piles[0])?;
    place("piles", p.piles[1])?;
    place("stock", p.stock.iter().copied().collect())?;
    place(
        "cut_card",
        p.cut_card.map_or(CardSet::EMPTY, CardSet::single),
    )?;
    if seat.is_none() && seen != CardSet::FULL {
        return Err(refuse(
            "stock",
            format!(
                "every card is in a hand, on the table, in a pile, the stock or the cut; \
                 missing: {}",
                CardSet::FULL - seen
            ),
        ));
    }
    Ok(())
}
