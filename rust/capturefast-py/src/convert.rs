//! Conversions between Python values and core cards, card sets and moves.
//!
//! Everywhere a card is accepted, a `Card`, its string (`"7D"`) or its id (0-39) is accepted;
//! everywhere a move is accepted, a `Move` or its notation.

use capturefast_core::{Card, CardSet, Error as CoreError, Move};
use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFrozenSet, PyInt, PyList, PyString};

use crate::card::PyCard;
use crate::errors::PositionError;
use crate::errors::{ArgumentError, IllegalMoveError, InvalidCardError, py};
use crate::moves::PyMove;

/// Extracts one card.
pub fn card(obj: &Bound<'_, PyAny>) -> PyResult<Card> {
    if let Ok(c) = obj.cast::<PyCard>() {
        return Ok(c.get().0);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return py(s.to_str()?.parse::<Card>());
    }
    if obj.is_instance_of::<PyBool>() {
        return Err(InvalidCardError::new_err(format!(
            "a bool is not a card: {}",
            obj.repr()?
        )));
    }
    if obj.is_instance_of::<PyInt>() {
        return obj
            .extract::<i64>()
            .ok()
            .and_then(|i| u8::try_from(i).ok())
            .and_then(Card::new)
            .ok_or_else(|| InvalidCardError::new_err(format!("unknown card id: {obj}")));
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "expected a Card, a card string like \"7D\" or a card id, got: {}",
        obj.get_type().name()?
    )))
}

/// Extracts a collection of distinct cards; a string is refused (it would iterate characters).
pub fn cards(obj: &Bound<'_, PyAny>) -> PyResult<CardSet> {
    if obj.is_instance_of::<PyString>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "expected a collection of cards, got a single string; hint: use a list, e.g. [\"7D\"]",
        ));
    }
    Ok(card_list(obj)?.into_iter().collect())
}

/// Extracts an ordered list of distinct cards.
pub fn card_list(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    if obj.is_instance_of::<PyString>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "expected a sequence of cards, got a single string",
        ));
    }
    let mut seen = CardSet::EMPTY;
    let mut out = Vec::new();
    for item in obj.try_iter()? {
        let item = item?;
        let c = card(&item)?;
        if seen.contains(c) {
            // Name the card as the caller wrote it (`8D`, read as `JD`, repeats a `JD`).
            let named = match item.cast::<PyString>() {
                Ok(text) => as_written(text.to_str()?, c),
                Err(_) => c.to_string(),
            };
            return py(Err(CoreError::DuplicateCard(named)));
        }
        seen.insert(c);
        out.push(c);
    }
    Ok(out)
}

/// Whether `text` spells a figure with the numerals deck's `8`, `9` or `10` (`8D` is `JD`).
fn has_numeral(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len()).any(|i| {
        let start = i == 0 || !b[i - 1].is_ascii_digit();
        let len = if b[i..].starts_with(b"10") {
            2
        } else {
            usize::from(matches!(b[i], b'8' | b'9'))
        };
        start && len > 0 && b.get(i + len).is_some_and(|s| b"CDHScdhs".contains(s))
    })
}

/// `text` as the caller wrote it, with what the engine read it as when it spells a figure with
/// a numeral: errors name what the user wrote.
pub fn as_written(text: &str, read: impl std::fmt::Display) -> String {
    let text = text.trim();
    if has_numeral(text) {
        format!("{text} (read as {read}: the numerals 8, 9 and 10 name J, Q and K)")
    } else {
        read.to_string()
    }
}

/// Extracts a move from a `Move` or its notation.
pub fn mv(obj: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(m) = obj.cast::<PyMove>() {
        return Ok(m.get().mv);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return py(s.to_str()?.parse::<Move>());
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "expected a Move or a move string like \"7D x 3C+4S\", got: {}",
        obj.get_type().name()?
    )))
}

/// A Python list of `Card`s in id order.
pub fn card_list_py(py: Python<'_>, set: CardSet) -> PyResult<Bound<'_, PyList>> {
    PyList::new(py, set.iter().map(PyCard))
}

/// A Python list of `Card`s in the given order.
pub fn cards_in_order_py<'py>(py: Python<'py>, cards: &[Card]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, cards.iter().copied().map(PyCard))
}

/// A Python `frozenset` of `Card`s.
pub fn frozenset_py<'py>(py: Python<'py>, set: CardSet) -> PyResult<Bound<'py, PyFrozenSet>> {
    let items: Vec<Bound<'py, PyCard>> = set
        .iter()
        .map(|c| Bound::new(py, PyCard(c)))
        .collect::<PyResult<_>>()?;
    PyFrozenSet::new(py, &items)
}

/// Extracts a Python int as an `i64`; `None` if it is out of that range. A value that is not
/// an int is a `TypeError` naming `what`.
///
/// For arguments whose range check names the argument: `PyO3` alone raises `OverflowError` for
/// an int past `i64`, which is neither a `CaptureFastError` nor a `ValueError`.
pub fn whole(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Option<i64>> {
    refuse_bool(obj, what)?;
    match obj.extract::<i64>() {
        Ok(i) => Ok(Some(i)),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(None),
        Err(e) => Err(not_an_int(obj, what, e)),
    }
}

/// A bool is an int to Python, but `True` for a seed, a seat or a count is a mistake: a
/// `TypeError`, as `cf.simulate` has always raised.
fn refuse_bool(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<()> {
    if obj.is_instance_of::<PyBool>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{what} must be an int, got: bool"
        )));
    }
    Ok(())
}

/// Extracts the integer argument `what`, from `lo` to `hi`: anything outside (however large)
/// is an `ArgumentError` giving that range.
pub fn bounded<T: IntArg + Into<i128> + std::fmt::Display>(
    obj: &Bound<'_, PyAny>,
    what: &str,
    lo: T,
    hi: T,
) -> PyResult<T> {
    in_range(obj, what, (lo.into(), hi.into()), || {
        format!("from {lo} to {hi}")
    })
}

/// The extraction behind [`int_arg`] and [`bounded`]: an int in `lo..=hi` as a `T`, else an
/// `ArgumentError` saying `what` must be `range()`; a bool or a value that is not an int is a
/// `TypeError`.
fn in_range<T: IntArg>(
    obj: &Bound<'_, PyAny>,
    what: &str,
    (lo, hi): (i128, i128),
    range: impl Fn() -> String,
) -> PyResult<T> {
    refuse_bool(obj, what)?;
    let out_of_range = || ArgumentError::new_err(format!("{what} must be {}, got: {obj}", range()));
    // Through `__index__`, as PyO3's own extraction: numpy integers are accepted too.
    match obj.extract::<i128>() {
        Ok(i) if (lo..=hi).contains(&i) => T::try_from(i).map_err(|_| out_of_range()),
        Ok(_) => Err(out_of_range()),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(out_of_range()),
        Err(e) => Err(not_an_int(obj, what, e)),
    }
}

/// The name of `obj`'s type, for an error message (`?` if Python cannot give it).
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string())
}

/// `e`, raised extracting the int `what` from `obj`: a `TypeError` that names `what` (`PyO3`
/// names the argument only where it extracts it itself), or `e` as it is.
fn not_an_int(obj: &Bound<'_, PyAny>, what: &str, e: PyErr) -> PyErr {
    if !e.is_instance_of::<pyo3::exceptions::PyTypeError>(obj.py()) {
        return e;
    }
    match obj.get_type().name() {
        Ok(name) => {
            pyo3::exceptions::PyTypeError::new_err(format!("{what} must be an int, got: {name}"))
        }
        Err(e) => e,
    }
}

/// Extracts a list of Python ints as `i64`s (`None` for one out of that range).
pub fn wholes(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Option<i64>>> {
    if obj.is_instance_of::<PyString>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{what} must be a sequence of ints, got a string"
        )));
    }
    obj.try_iter()?.map(|item| whole(&item?, what)).collect()
}

/// Integer types an argument may take, with their ranges for messages.
pub trait IntArg: Sized + Copy + TryFrom<i128> {
    /// The smallest and largest values.
    const RANGE: (i128, i128);
}

macro_rules! int_arg_types {
    ($($t:ty),*) => {$(
        impl IntArg for $t {
            #[allow(clippy::cast_lossless, reason = "`i128::from` cannot be called in a const")]
            const RANGE: (i128, i128) = (<$t>::MIN as i128, <$t>::MAX as i128);
        }
    )*};
}
int_arg_types!(u32, u64, usize, i64);

/// Extracts the integer argument `what` as a `T`: an int out of `T`'s range is an
/// `ArgumentError` (a `ValueError`) naming it and the range, where `PyO3` alone raises
/// `OverflowError`. A value that is not an int stays a `TypeError`.
pub fn int_arg<T: IntArg>(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    let (lo, hi) = T::RANGE;
    in_range(obj, what, (lo, hi), || {
        format!("an integer from {lo} to {hi}")
    })
}

/// `from_py_with` extractors of the integer arguments of the API, one per argument name (the
/// name goes into the message; `PyO3` names the argument only in a `TypeError`).
pub mod arg {
    use super::int_arg;
    use pyo3::prelude::*;

    macro_rules! args {
        ($($name:ident: $t:ty = $f:ident),* $(,)?) => {$(
            #[doc = concat!("The `", stringify!($name), "` argument.")]
            pub fn $name(obj: &Bound<'_, PyAny>) -> PyResult<$t> {
                $f(obj, stringify!($name))
            }
        )*};
    }

    /// The `players` argument of the rules: an int too large for `i64` is refused as any
    /// other bad count (a `VariantError`).
    pub fn players(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
        super::whole(obj, "players")?.ok_or_else(|| super::bad_players(obj))
    }

    /// The solver's `tt_entries`: up to `MAX_TT_ENTRIES` (16 bytes each, 4 GiB). More could
    /// not be allocated (the process aborts), or overflowed the allocation (a panic).
    pub fn tt_entries(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
        let n: u32 = super::bounded(obj, "tt_entries", 0, MAX_TT_ENTRIES)?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    /// `perft`'s depth: up to `MAX_PERFT_DEPTH`. The count grows about tenfold a ply on hands
    /// of ten cards, and a detached count cannot be interrupted, so a deeper one could run for
    /// hours.
    pub fn depth(obj: &Bound<'_, PyAny>) -> PyResult<u32> {
        super::bounded(obj, "depth", 0, MAX_PERFT_DEPTH)
    }

    /// A search's `worlds`: 1 to `MAX_WORLDS`, as a `pimc` bot's budget.
    pub fn worlds(obj: &Bound<'_, PyAny>) -> PyResult<u32> {
        super::bounded(obj, "worlds", 1, capturefast_core::play::sim::MAX_WORLDS)
    }

    /// A query's limit `what`, from 1 to `hi`, or `None` for no limit.
    fn limit(obj: &Bound<'_, PyAny>, what: &str, hi: u64) -> PyResult<Option<u64>> {
        if obj.is_none() {
            return Ok(None);
        }
        super::bounded(obj, what, 1, hi).map(Some)
    }

    /// A query's `time_ms`: 1 to 10^9 milliseconds, or `None` for no time limit.
    pub fn time_ms(obj: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
        limit(obj, "time_ms", 1_000_000_000)
    }

    /// A query's `nodes`: 1 to 10^15 solver nodes, or `None` for no node budget.
    pub fn nodes(obj: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
        limit(obj, "nodes", 1_000_000_000_000_000)
    }

    /// `threads`: 1 to `MAX_THREADS`, or `None` for one per core.
    pub fn threads(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        if obj.is_none() {
            return Ok(None);
        }
        let n: u32 = super::bounded(obj, "threads", 1, MAX_THREADS)?;
        Ok(usize::try_from(n).ok())
    }

    /// An action id of the learning interfaces: 0 to `NUM_ACTIONS - 1`.
    pub fn action(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
        let last = (capturefast_core::learn::actions::NUM_ACTIONS - 1) as u32;
        let a: u32 = super::bounded(obj, "action", 0, last)?;
        Ok(a as usize)
    }

    /// A vector env's `num_envs`: 1 to `capturefast_core::learn::env::MAX_ENVS`.
    pub fn num_envs(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
        let max = capturefast_core::learn::env::MAX_ENVS as u32;
        let n: u32 = super::bounded(obj, "num_envs", 1, max)?;
        Ok(n as usize)
    }

    /// A vector env's `max_steps` (0: no limit).
    pub fn max_steps(obj: &Bound<'_, PyAny>) -> PyResult<u32> {
        int_arg(obj, "max_steps")
    }

    /// A vector env's `threads`: 0 (one per core) to `MAX_THREADS`.
    pub fn env_threads(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
        let n: u32 = super::bounded(obj, "threads", 0, MAX_THREADS)?;
        Ok(n as usize)
    }

    /// A bot's `name` (`expert`, `pimc:worlds=400`): a str, else a `TypeError` naming it.
    pub fn name(obj: &Bound<'_, PyAny>) -> PyResult<String> {
        match obj.cast::<pyo3::types::PyString>() {
            Ok(text) => Ok(text.to_str()?.to_string()),
            Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "name must be a str (a bot's name, e.g. 'expert'), got: {}",
                obj.get_type().name()?
            ))),
        }
    }

    /// The most threads a call may ask for.
    pub const MAX_THREADS: u32 = 1024;

    /// The deepest `perft` a Python call may ask for.
    pub const MAX_PERFT_DEPTH: u32 = 8;

    /// The largest transposition table a Python call may ask for.
    pub const MAX_TT_ENTRIES: u32 = 1 << 28;

    /// A seat argument (`to_move`, `seat`): an int too large for `i64` is refused as any other
    /// seat out of range (a `PositionError`).
    pub fn seat(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
        super::whole(obj, "seat")?.ok_or_else(|| {
            crate::errors::PositionError::new_err(format!("not a seat number, got: {obj}"))
        })
    }

    args!(
        seed: u64 = int_arg,
        hands: u64 = int_arg,
        items: u64 = int_arg,
        game: u64 = int_arg,
        first: u64 = int_arg,
        bits: u64 = int_arg,
    );
}

/// The error for a player count other than 2 or 4 (`shown` as given).
pub fn bad_players(shown: impl std::fmt::Display) -> PyErr {
    crate::errors::VariantError::new_err(format!(
        "players must be 2, or 4 in partnerships, got: {shown}"
    ))
}

/// Extracts a seat number below `n`.
pub fn seat(obj: &Bound<'_, PyAny>, n: u8, what: &str) -> PyResult<u8> {
    match whole(obj, what)? {
        Some(i) => seat_num(i, n, what),
        None => Err(crate::errors::PositionError::new_err(format!(
            "{what} must be from 0 to {} ({n} players), got: {obj}",
            n - 1
        ))),
    }
}

/// Checks a seat number below `n`.
pub fn seat_num(i: i64, n: u8, what: &str) -> PyResult<u8> {
    u8::try_from(i).ok().filter(|&s| s < n).ok_or_else(|| {
        crate::errors::PositionError::new_err(format!(
            "{what} must be from 0 to {} ({n} players), got: {i}",
            n - 1
        ))
    })
}

/// An error for a move given where none is legal.
pub fn illegal(msg: String) -> PyErr {
    IllegalMoveError::new_err(msg)
}

pub fn py_dup<T>(card: Card) -> PyResult<T> {
    py(Err(capturefast_core::Error::DuplicateCard(
        card.to_string(),
    )))
}

/// Two disjoint piles that together hold all 40 cards.
pub fn two_piles(obj: &Bound<'_, PyAny>) -> PyResult<[CardSet; 2]> {
    let items: Vec<Bound<'_, PyAny>> = obj.try_iter()?.collect::<PyResult<_>>()?;
    if items.len() != 2 {
        return Err(PositionError::new_err(format!(
            "piles must be one per side (2), got: {}",
            items.len()
        )));
    }
    let a = cards(&items[0])?;
    let b = cards(&items[1])?;
    if let Some(c) = (a & b).first() {
        return py_dup(c);
    }
    if (a | b) != CardSet::FULL {
        return Err(PositionError::new_err(format!(
            "the piles must hold all 40 cards between them; missing: {}",
            CardSet::FULL - (a | b)
        )));
    }
    Ok([a, b])
}

/// Two ints from 0 to `hi`, one per side, from a Python sequence; refused (naming `what`) as
/// a `PositionError` otherwise, ints too large for `i64` too.
fn two_in(obj: &Bound<'_, PyAny>, hi: i64, what: &str) -> PyResult<[i64; 2]> {
    match wholes(obj, what)?.as_slice() {
        [Some(a), Some(b)] if (0..=hi).contains(a) && (0..=hi).contains(b) => Ok([*a, *b]),
        _ => Err(PositionError::new_err(format!(
            "{what} must be two numbers from 0 to {hi}, one per side, got: {}",
            obj.repr()?
        ))),
    }
}

/// Two small non-negative counts (sweeps per side).
pub fn two_counts(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<[u8; 2]> {
    Ok(two_in(obj, 40, what)?.map(|x| x as u8))
}

/// Declaration points per side: two numbers from 0 to 255.
pub fn two_declarations(obj: &Bound<'_, PyAny>) -> PyResult<[u8; 2]> {
    Ok(two_in(obj, 255, "declarations")?.map(|x| x as u8))
}

/// Two match scores.
pub fn two_scores(obj: &Bound<'_, PyAny>) -> PyResult<[u32; 2]> {
    Ok(two_in(obj, i64::from(u32::MAX), "scores")?.map(|x| x as u32))
}

/// Small counts as a list of Python ints (a `Vec<u8>` would become `bytes`).
pub fn ints(v: impl AsRef<[u8]>) -> Vec<u32> {
    v.as_ref().iter().map(|&x| u32::from(x)).collect()
}
