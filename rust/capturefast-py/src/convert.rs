//! Conversions between Python values and core cards, card sets and moves.
//!
//! Everywhere a card is accepted, a `Card`, its string (`"7D"`) or its id (0-39) is accepted;
//! everywhere a move is accepted, a `Move` or its notation.

use capturefast_core::{Card, CardSet, Error as CoreError, Move};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFrozenSet, PyInt, PyList, PyString};

use crate::errors::{IllegalMoveError, InvalidCardError, py};
use crate::game::{PyCard, PyMove};

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
    let mut set = CardSet::EMPTY;
    for item in obj.try_iter()? {
        let c = card(&item?)?;
        if set.contains(c) {
            return py(Err(CoreError::DuplicateCard(c.to_string())));
        }
        set.insert(c);
    }
    Ok(set)
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
        let c = card(&item?)?;
        if seen.contains(c) {
            return py(Err(CoreError::DuplicateCard(c.to_string())));
        }
        seen.insert(c);
        out.push(c);
    }
    Ok(out)
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

/// Extracts a seat number below `n`.
pub fn seat(obj: &Bound<'_, PyAny>, n: u8, what: &str) -> PyResult<u8> {
    seat_num(obj.extract()?, n, what)
}

/// Checks a seat number below `n`.
pub fn seat_num(i: i64, n: u8, what: &str) -> PyResult<u8> {
    u8::try_from(i).ok().filter(|&s| s < n).ok_or_else(|| {
        crate::errors::PositionError::new_err(format!(
            "{what} must be a seat from 0 to {}, got: {i}",
            n - 1
        ))
    })
}

/// An error for a move given where none is legal.
pub fn illegal(msg: String) -> PyErr {
    IllegalMoveError::new_err(msg)
}
