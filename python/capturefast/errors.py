"""The exception hierarchy of capturefast.

Every error caused by bad input is a `CaptureFastError` and also a `ValueError`, and names the
offending value after a colon. An argument of the wrong Python type stays a `TypeError`; an
option value of the wrong type is a `VariantError` (options come from files and dicts too).
"""

from __future__ import annotations

__all__ = [
    "ArgumentError",
    "CaptureFastError",
    "DecodeError",
    "IllegalMoveError",
    "InvalidCardError",
    "NotationError",
    "PositionError",
    "ReportError",
    "VariantError",
]


class CaptureFastError(Exception):
    """Base class of every capturefast error."""


class ArgumentError(CaptureFastError, ValueError):
    """A number outside the range its argument takes: a negative seed or count, an int too large."""


class InvalidCardError(CaptureFastError, ValueError):
    """An unknown card string or id, or a card given twice."""


class IllegalMoveError(CaptureFastError, ValueError):
    """A move that is not legal in the state (or the hand is over), or unparsable move text."""


class VariantError(CaptureFastError, ValueError):
    """An invalid or unsupported rule option or combination."""


class PositionError(CaptureFastError, ValueError):
    """A position that cannot arise in a game under the rules."""


class DecodeError(CaptureFastError, ValueError):
    """Bytes that are not an encoded state."""


class NotationError(DecodeError):
    """A line of the position notation refused (docs/notation.md).

    Attributes:
        field: the name of the field at fault (`hands`, `stock`, `rules`, ...).
    """

    field: str


class ReportError(CaptureFastError, ValueError):
    """A score report that does not describe a possible hand or match (keys, lengths, totals)."""
