"""The exception hierarchy of capturefast.

Every error caused by bad input is a `CaptureFastError` and also a `ValueError`, and names the
offending value after a colon, each control character in it written as `\\xNN` (`printable`),
so that an error is one printable line (a hint may follow on a second). An argument of the
wrong Python type stays a `TypeError`; an option value of the wrong type is a `VariantError`
(options come from files and dicts too).

A name that is not one of those expected (an option, a preset, a game, a bot, a search bot's
budget) is refused as ``unknown option (expected one of target, ...): taret``; such an error
gets a ``hint: did you mean target?`` line when one name is close enough (`did_you_mean`, the
one helper of the library, the command line and the engine protocol alike).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable

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
    "close_match",
    "did_you_mean",
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


def close_match(word: str, choices: Iterable[str]) -> str | None:
    """The choice `word` is most likely a typo of, if one is close enough (leading dashes
    aside, so that `--hnads` finds `--hands`)."""
    names = {c.lstrip("-"): c for c in choices}
    close = difflib.get_close_matches(word.lstrip("-"), names, n=1, cutoff=0.75)
    return names[close[0]] if close and word else None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A ``hint: did you mean X?`` line (with the line break before it) for the choice `word`
    is most likely a typo of, or "" when none is close enough."""
    close = close_match(word, choices)
    return f"{_HINT}did you mean {close}?" if close else ""


# What comes before the list in "unknown option (expected one of target, ...): taret" (and in
# "unknown game (expected scopa, escoba or chkobba): scpoa"): a few words after "unknown".
_UNKNOWN = re.compile(r"\bunknown [\w ]{1,40} \Z")


def _with_hint(message: str) -> str:
    """`message`, and if it refuses an unknown name, `did_you_mean`'s hint for it. The name
    is the last word, after the list of those expected; a message with a hint keeps its own.
    Linear in the message's length (it may quote a long value)."""
    if _HINT in message:
        return message
    head, colon, word = message.rpartition("): ")
    if not colon or not word or any(c.isspace() for c in word):
        return message
    opening = head.rfind(" (expected ")
    if opening < 0 or not _UNKNOWN.search(head[max(0, opening - 48) : opening + 1]):
        return message
    listed = head[opening + len(" (expected ") :].removeprefix("one of ")
    return message + did_you_mean(word, re.split(r", | or ", listed))


class CaptureFastError(Exception):
    """Base class of every capturefast error. Its message is one printable line (and a hint
    line): control characters in the value it names are written as `\\xNN` (`printable`). A
    message refusing an unknown name gets a hint naming a close one (`did_you_mean`), whether
    the core or Python raised it."""

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], str):
            args = (_with_hint(args[0]),)
        super().__init__(*args)

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
