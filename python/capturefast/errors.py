"""The exception hierarchy of capturefast.

Every error caused by bad input is a `CaptureFastError` and also a `ValueError`, and names the
offending value after a colon, each control character in it written as `\\xNN` (`printable`),
so that an error is one printable line (a hint may follow on a second). An argument of the
wrong Python type stays a `TypeError`; an option value of the wrong type is a `VariantError`
(options come from files and dicts too).
"""

from __future__ import annotations

import unicodedata

__all__ = [
    "ArgumentError",
    "CaptureFastError",
    "DecodeError",
    "IllegalMoveError",
    "InvalidCardError",
    "NotationError",
    "PositionError",
    "RecordError",
    "ReportError",
    "StoppedError",
    "VariantError",
]


def printable(text: str) -> str:
    """`text` with each control character (NUL, escape, DEL, C1, line breaks) written as
    `\\xNN`, as the core writes them in its messages, but for the line break before a
    ``hint: `` line (a message's own hint)."""
    return _HINT.join(
        "".join(f"\\x{ord(c):02x}" if unicodedata.category(c) == "Cc" else c for c in part)
        for part in text.split(_HINT)
    )


_HINT = "\nhint: "


class CaptureFastError(Exception):
    """Base class of every capturefast error. Its message is one printable line (and a hint
    line): control characters in the value it names are written as `\\xNN` (`printable`)."""

    def __str__(self) -> str:
        return printable(super().__str__())


class StoppedError(CaptureFastError):
    """A search stopped by its time limit, a stop (`capturefast.StopFlag`) or a node budget
    before it ended.

    Not bad input, so not a `ValueError`: the same search given more time or nodes ends.
    """


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


class RecordError(DecodeError):
    """A game record refused (docs/records.md): a malformed line, a file that is not UTF-8
    text, or a game that does not replay (an illegal move, a deal that does not carry on the
    match, a wrong result).

    The message counts games, hands and moves from 1, as a person does ("game 2, hand 1,
    move 4 (line 11)"); the attributes `game`, `hand` and `ply` are indexes from 0, as Python
    counts (``record.hands[e.hand].moves[e.ply]``), so that message is ``game=1, hand=0,
    ply=3, line=11``. `line` counts from 1, as the message and an editor do.

    Attributes:
        line: the line of the text at fault, from 1, if the record was read from text.
        game: the index from 0 of the game at fault in the file, if it was read by
            `read_records` (the message's "game 2" is ``game=1``).
        hand: the index from 0 of the hand at fault in its game, if one is (the message's
            "hand 1" is ``hand=0``).
        ply: the index from 0 of the move at fault in that hand, if one is (the message's
            "move 4" is ``ply=3``).
    """

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        hand: int | None = None,
        ply: int | None = None,
        game: int | None = None,
    ) -> None:
        super().__init__(message)
        self.line = line
        self.hand = hand
        self.ply = ply
        self.game = game


class ReportError(CaptureFastError, ValueError):
    """A score report that does not describe a possible hand or match (keys, lengths, totals)."""
