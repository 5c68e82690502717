"""capturefast: a fast, exact rules engine for Scopa, Escoba and Chkobba.

    >>> import capturefast as cf
    >>> rules = cf.Rules.scopa(players=2)
    >>> state = cf.State.new(rules, seed=7)
    >>> move = state.legal_moves()[0]
    >>> state = state.play(move)

Cards are written rank then suit (`7D`); ranks `A 2 3 4 5 6 7 J Q K`, suits `C D H S` with
diamonds the coin suit. Seats are numbered in the order of play; side = seat % 2.
"""

from __future__ import annotations

from capturefast._core import (
    Card,
    Move,
    Opening,
    Rules,
    State,
    View,
    __version__,
    random_hands,
)
from capturefast.errors import (
    CaptureFastError,
    DecodeError,
    IllegalMoveError,
    InvalidCardError,
    PositionError,
    VariantError,
)
from capturefast.report import HandReport

__all__ = [
    "CaptureFastError",
    "Card",
    "DecodeError",
    "HandReport",
    "IllegalMoveError",
    "InvalidCardError",
    "Move",
    "Opening",
    "PositionError",
    "Rules",
    "State",
    "VariantError",
    "View",
    "__version__",
    "random_hands",
]
