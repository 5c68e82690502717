"""Game records: the text of whole games, hand after hand, the PGN of capture games.

A [game record](../../docs/glossary.md#game-record) holds a game's headers (the rules, who sat
where, the seed, the result) and, for each hand, its deal as a line of the position notation
and the moves played in move notation, each with an optional value and comment. One file holds
any number of games. The format is in docs/records.md.

    >>> import capturefast as cf
    >>> state = cf.State.new(cf.Rules.scopa(), seed=3)
    >>> record = cf.GameRecord.begin(state, seats=["me", "greedy"])
    >>> while not record.position.hand_over:
    ...     _ = record.play(record.position.legal_moves()[0])
    >>> text = record.to_text()
    >>> cf.GameRecord.from_text(text).replay() == record.position
    True

`read_records` reads a file game by game (a file of a million hands is never held whole);
`cf.simulate(..., records=PATH)` writes the records of the games it plays, as they finish.
Every rule is the core's: a replay plays each move with `State.play`, which refuses an illegal
one, and reads each deal with `State.from_notation`.
"""

from __future__ import annotations

import dataclasses
import datetime
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from capturefast._core import Move, State, sim_seeds
from capturefast.errors import CaptureFastError, RecordError

if TYPE_CHECKING:
    from capturefast.sim import ProgressCallback, SimRequest

__all__ = ["GameRecord", "HandRecord", "read_records", "write_records"]

PathLike = str | os.PathLike[str]

# The headers a record writes first, in this order; any others follow in theirs.
_FIRST_TAGS = ("Event", "Date", "Rules", "Players")
_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_MOVE = re.compile(r"^(\d+):\s*(.*)$")


@dataclasses.dataclass
class HandRecord:
    """One hand of a record: its deal and the moves played from it.

    Attributes:
        start: the position at the deal.
        moves: the moves played, in order.
        values: per move, a value written beside it (points for the mover's side, as
            `cf.review` and the solver give them), or None.
        comments: per move, a comment, or None.
    """

    start: State
    moves: list[Move] = dataclasses.field(default_factory=list)
    values: list[int | None] = dataclasses.field(default_factory=list)
    comments: list[str | None] = dataclasses.field(default_factory=list)
    # Read from text: the line of the deal and of each move (for errors). The seat before
    # each move, as written (checked by the replay) or as played by `GameRecord.play`.
    _deal_line: int | None = dataclasses.field(default=None, repr=False, compare=False)
    _lines: list[int] = dataclasses.field(default_factory=list, repr=False, compare=False)
    _seats: list[int] = dataclasses.field(default_factory=list, repr=False, compare=False)


class GameRecord:
    """A whole game: headers, then its hands, each a deal and its moves.

    Build one from play with `begin`, `play` and `next_hand`; read one with `from_text`,
    `load` or `read_records`; check it with `replay`; write it with `to_text`, `save` or
    `write_records`.

    Attributes:
        headers: tag to value, in the order written (``Rules``, ``Players``, ``Seat0``...,
            ``Seed``, ``Result``; any other tag is kept).
        hands: the hands, in order.
    """

    def __init__(
        self, headers: Mapping[str, str] | None = None, hands: Iterable[HandRecord] = ()
    ) -> None:
        self.headers: dict[str, str] = dict(headers or {})
        self.hands: list[HandRecord] = list(hands)
        self._position: State | None = None
        # Read from text: the line of each header (for errors).
        self._header_lines: dict[str, int] = {}

    # ----- building from play -----

    @classmethod
    def begin(
        cls,
        state: State,
        *,
        seats: Sequence[str] | None = None,
        seed: int | None = None,
        event: str | None = None,
        date: str | None = None,
        **tags: str,
    ) -> GameRecord:
        """A record of a game starting at ``state`` (a deal), with its headers.

        Args:
            state: the position at the first deal (for example `State.new(rules, seed)`).
            seats: who plays each seat (a bot name, a person), one per seat.
            seed: the seed the deal came from, written as the ``Seed`` header.
            event, date: the ``Event`` and ``Date`` headers.
            tags: any other headers, by tag.

        Raises:
            RecordError: ``seats`` does not have one entry per seat, a tag is not a word, or
                a value holds a line break.
        """
        if not isinstance(state, State):
            raise TypeError(f"state must be a capturefast.State, got: {type(state).__name__}")
        headers: dict[str, str] = {}
        if event is not None:
            headers["Event"] = event
        if date is not None:
            headers["Date"] = date
        headers.update(rules_headers(state))
        if seats is not None:
            seats = list(seats)
            if len(seats) != state.num_players:
                raise RecordError(
                    f"seats needs one name per seat ({state.num_players}), got: {len(seats)}"
                )
            headers.update({f"Seat{i}": str(name) for i, name in enumerate(seats)})
        if seed is not None:
            headers["Seed"] = str(seed)
        for tag, value in tags.items():
            if not _TAG.match(f'[{tag} ""]'):
                raise RecordError(f"a header tag is a word of letters, digits and _, got: {tag!r}")
            headers[tag] = str(value)
        for tag, value in headers.items():
            _one_line(f"the {tag} header", value)
        record = cls(headers, [HandRecord(state)])
        record._position = state
        return record

    @property
    def position(self) -> State:
        """The position after the last move recorded (replaying the record if it was read)."""
        if self._position is None:
            self._position = self.replay()
        return self._position

    def play(
        self, move: Move | str, *, value: int | None = None, comment: str | None = None
    ) -> State:
        """Plays ``move`` in the current position and records it; returns the new position.

        Raises:
            IllegalMoveError: the move is not legal there (the record is left as it was).
            RecordError: the comment holds a line break.
        """
        mv = move if isinstance(move, Move) else Move(move)
        _check_comment(comment)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"value must be an int or None, got: {type(value).__name__}")
        before = self.position
        after = before.play(mv)
        hand = self.hands[-1]
        hand._seats.append(int(before.to_move))  # type: ignore[arg-type]
        hand.moves.append(mv)
        hand.values.append(value)
        hand.comments.append(comment)
        self._position = after
        return after

    def next_hand(self) -> State:
        """Deals the next hand of the match (`State.next_hand`) and starts recording it.

        Raises:
            IllegalMoveError: the hand is not over, or the match is.
        """
        state = self.position.next_hand()
        self.hands.append(HandRecord(state))
        self._position = state
        return state

    # ----- checking -----

    def replay(self) -> State:
        """Plays the record through and returns its last position.

        Checks every deal (a possible position, the rules of the headers, and after the first,
        the match carried on: the scores, dealer and hand number that the previous hand's end
        deals on), every move (legal where it is played, by the seat written), that every hand
        but the last is finished, and the ``Result`` header against the final scores.

        Raises:
            RecordError: at the first fault, naming the hand, the move and its line.
        """
        last = self.hands[0].start if self.hands else None
        for last in _walk(self):  # noqa: B007
            pass
        assert last is not None
        return last

    def positions(self) -> Iterator[State]:
        """Every position of the game in order: each deal, then the position after each move.

        Raises:
            RecordError: as `replay` does, when the walk reaches the fault.
        """
        yield from _walk(self)

    @property
    def result(self) -> list[int]:
        """The final scores per side (after a replay of the record)."""
        return list(self.position.scores)

    # ----- text -----

    def to_text(self) -> str:
        """The record as text (docs/records.md), with a ``Result`` header from its last
        position when it has none (``*`` while the game is not over).

        Raises:
            RecordError: a header value (as edited in `headers`) holds a line break.
        """
        headers = dict(self.headers)
        if "Result" not in headers and self.hands:
            headers["Result"] = result_text(self.position)
        hands = []
        for h in self.hands:
            # The seats read or recorded with the moves; a hand built field by field replays.
            seats = h._seats if len(h._seats) == len(h.moves) else _movers(h)
            lines = map(move_line, seats, map(str, h.moves), h.values, h.comments)
            hands.append((h.start.to_notation(), "".join(lines)))
        return game_text(headers, hands)

    @classmethod
    def from_text(cls, text: str) -> GameRecord:
        """The one game written in ``text``.

        Raises:
            RecordError: the text is not a record, or holds more or fewer than one game.
        """
        games = list(_parse(text.splitlines()))
        if len(games) != 1:
            raise RecordError(f"the text holds one game, got: {len(games)} games")
        return games[0]

    def save(self, path: PathLike) -> None:
        """Writes this record alone to ``path`` (`write_records` writes many)."""
        write_records(path, [self])

    @classmethod
    def load(cls, path: PathLike) -> GameRecord:
        """The one game of the file at ``path``, replayed (see `replay`).

        Raises:
            RecordError: the file is not a record of one valid game.
        """
        games = list(read_records(path))
        if len(games) != 1:
            raise RecordError(f"{path} holds one game, got: {len(games)} games")
        return games[0]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameRecord):
            return NotImplemented
        return self.headers == other.headers and self.hands == other.hands

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        moves = sum(len(h.moves) for h in self.hands)
        return (
            f"<GameRecord {self.headers.get('Rules', '?')} hands={len(self.hands)} moves={moves}>"
        )


# ----- files -----


def read_records(source: PathLike | IO[str], *, check: bool = True) -> Iterator[GameRecord]:
    """The games of a records file (a path or an open text file), one at a time.

    Args:
        source: the file.
        check: replay each game as it is read (`GameRecord.replay`); False reads the text
            and the positions only, for speed.

    Raises:
        RecordError: at the first malformed line, the first bytes that are not UTF-8 text
            (naming the file, the line and, for a path, the byte offset) or, with ``check``,
            the first game that does not replay; the message names the game (from 1) and the
            error's ``game`` attribute is its index (from 0).
        OSError: the file cannot be opened.
    """
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            yield from _read(_utf8_lines(f, os.fspath(source)), check)
        return
    yield from _read(_text_lines(source), check)


def _read(lines: Iterable[str], check: bool) -> Iterator[GameRecord]:
    """The games of ``lines``, each replayed if ``check``; a refusal names its game."""
    games = _parse(lines)
    index = 0
    while True:
        try:
            game = next(games, None)
            if game is None:
                return
            if check:
                game._position = game.replay()
        except RecordError as e:
            raise _in_game(e, index) from e.__cause__
        yield game
        index += 1


def _in_game(e: RecordError, index: int) -> RecordError:
    """``e`` with the game it is in (``index`` from 0) in its message and attributes."""
    message = str(e.args[0]) if e.args else ""
    return RecordError(
        f"game {index + 1}, {message}", line=e.line, hand=e.hand, ply=e.ply, game=index
    )


def _utf8_lines(f: IO[bytes], name: str) -> Iterator[str]:
    """The lines of a file read as bytes, decoded as UTF-8 (line breaks as text mode reads
    them: ``\n``, ``\r\n`` or ``\r``); bytes that are not UTF-8 are a `RecordError` naming
    the file, the line and the byte offset."""
    offset = 0
    number = 0
    for raw in f:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(
                f"line {number + 1}, byte {offset + e.start}: the records file is not UTF-8 "
                f"text ({e.reason}): {name}",
                line=number + 1,
            ) from None
        offset += len(raw)
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        parts = text.removesuffix("\n").split("\n")
        number += len(parts)
        yield from parts


def _text_lines(source: IO[str]) -> Iterator[str]:
    """The lines of an open text file; bytes its encoding cannot decode are a `RecordError`
    naming the file and the line."""
    lines = iter(source)
    number = 0
    while True:
        try:
            line = next(lines, None)
        except UnicodeDecodeError as e:
            name = getattr(source, "name", "an open file")
            raise RecordError(
                f"line {number + 1}: the records file is not {e.encoding} text ({e.reason}): "
                f"{name}",
                line=number + 1,
            ) from None
        if line is None:
            return
        number += 1
        yield line.rstrip("\n")


def write_records(path: PathLike | IO[str], records: Iterable[GameRecord]) -> int:
    """Writes ``records`` to a file (a path, created or replaced, or an open text file);
    returns the number of games written."""
    if isinstance(path, (str, os.PathLike)):
        with open(path, "w", encoding="utf-8") as f:
            return write_records(f, records)
    n = 0
    for record in records:
        if n:
            path.write("\n")
        path.write(record.to_text())
        n += 1
    return n


# ----- the text form (shared by GameRecord and the simulation's writer) -----


def game_text(headers: Mapping[str, str], hands: Iterable[tuple[str, str]]) -> str:
    """One game's text from its headers and, per hand, its deal line and the text of its
    moves (`move_line` after `move_line`)."""
    out = []
    for tag in (
        *[t for t in _FIRST_TAGS if t in headers],
        *[t for t in headers if t not in _FIRST_TAGS],
    ):
        _one_line(f"the {tag} header", headers[tag])
        quoted = headers[tag].replace("\\", "\\\\").replace('"', '\\"')
        out.append(f'[{tag} "{quoted}"]\n')
    for deal, moves in hands:
        out.append(f"\ndeal {deal}\n")
        out.append(moves)
    return "".join(out)


def move_line(seat: int, text: str, value: int | None = None, comment: str | None = None) -> str:
    """The line of one move: ``SEAT: MOVE``, then `` = VALUE`` and `` ; COMMENT`` if given."""
    line = f"{seat}: {text}"
    if value is not None:
        line += f" = {value:+d}" if value else " = 0"
    if comment:
        line += f" ; {comment}"
    return line + "\n"


def rules_headers(state: State) -> dict[str, str]:
    """The ``Rules`` and ``Players`` headers of a game of ``state``."""
    return {"Rules": state.rules.to_notation(), "Players": str(state.num_players)}


def result_text(state: State) -> str:
    """The ``Result`` header of a game that ended in ``state``: the scores per side joined
    by ``/``, or ``*`` if its last hand is not over."""
    return "/".join(map(str, state.scores)) if state.hand_over else "*"


def _one_line(what: str, text: str) -> None:
    """Refuses ``text`` if it holds a line break of any kind (every one that `str.splitlines`
    splits at, as the reader does): written as it is, it would end its line early."""
    if text and text.splitlines() != [text]:
        raise RecordError(f"{what} is one line, got: {text!r}")


def _check_comment(comment: str | None) -> None:
    if comment is not None:
        _one_line("a comment", comment)


def _movers(hand: HandRecord) -> Iterator[int]:
    state = hand.start
    for mv in hand.moves:
        yield int(state.to_move)  # type: ignore[arg-type]
        state = state.play(mv)


def _parse(lines: Iterable[str]) -> Iterator[GameRecord]:
    headers: dict[str, str] = {}
    header_lines: dict[str, int] = {}
    hands: list[HandRecord] = []
    in_body = False
    known: dict[str, Move] = {}  # moves by their text: a file repeats them
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if in_body:
                yield _finish(headers, header_lines, hands, number)
                headers, header_lines, hands, in_body = {}, {}, [], False
            m = _TAG.match(line)
            if m is None:
                raise RecordError(
                    f'line {number}: a header is [Tag "value"], got: {line!r}', line=number
                )
            tag = m.group(1)
            if tag in headers:
                raise RecordError(f"line {number}: the header {tag} is given twice", line=number)
            headers[tag] = re.sub(r"\\(.)", r"\1", m.group(2))
            header_lines[tag] = number
            continue
        in_body = True
        if line.startswith("deal "):
            try:
                start = State.from_notation(line[5:])
            except CaptureFastError as e:
                raise RecordError(
                    f"line {number}: the deal is not a position: {e}", line=number
                ) from e
            hands.append(HandRecord(start, _deal_line=number))
            continue
        m = _MOVE.match(line)
        if m is None:
            raise RecordError(
                f"line {number}: expected a header, a deal line or 'SEAT: MOVE', got: {line!r}",
                line=number,
            )
        if not hands:
            raise RecordError(f"line {number}: a move before the first deal", line=number)
        text, _, comment = m.group(2).partition(";")
        text, eq, value_text = text.partition("=")
        value: int | None = None
        if eq:
            try:
                value = int(value_text.strip())
            except ValueError:
                raise RecordError(
                    f"line {number}: a value is a whole number, got: {value_text.strip()!r}",
                    line=number,
                ) from None
        text = text.strip()
        mv = known.get(text)
        if mv is None:
            try:
                mv = known[text] = Move(text)
            except CaptureFastError as e:
                raise RecordError(f"line {number}: {e}", line=number) from e
        hand = hands[-1]
        hand.moves.append(mv)
        hand.values.append(value)
        hand.comments.append(comment.strip() or None)
        hand._lines.append(number)
        hand._seats.append(int(m.group(1)))
    if headers or hands:
        yield _finish(headers, header_lines, hands, None)


def _finish(
    headers: dict[str, str],
    header_lines: dict[str, int],
    hands: list[HandRecord],
    line: int | None,
) -> GameRecord:
    if not hands:
        where = f"line {line}: " if line is not None else ""
        raise RecordError(f"{where}a game has at least one deal line, got none", line=line)
    record = GameRecord(headers, hands)
    record._header_lines = header_lines
    return record


def _header_fault(record: GameRecord, tag: str, message: str) -> RecordError:
    """The error of header ``tag``, naming its line if the record was read from text."""
    line = record._header_lines.get(tag)
    where = "" if line is None else f"line {line}: "
    return RecordError(f"{where}{message}", line=line)


def _fault(record: GameRecord, k: int, ply: int | None, message: str) -> RecordError:
    hand = record.hands[k]
    if ply is None:
        line = hand._deal_line
        where = f"hand {k + 1}"
    else:
        line = hand._lines[ply] if ply < len(hand._lines) else None
        where = f"hand {k + 1}, move {ply + 1}"
    if line is not None:
        where += f" (line {line})"
    return RecordError(f"{where}: {message}", line=line, hand=k, ply=ply)


def _walk(record: GameRecord) -> Iterator[State]:
    headers = record.headers
    if not record.hands:
        raise RecordError("a game has at least one hand, got none")
    previous: State | None = None
    for k, hand in enumerate(record.hands):
        state = hand.start
        if k == 0:
            _check_headers(record, state)
        else:
            assert previous is not None
            if not previous.hand_over:
                raise _fault(record, k - 1, None, "a hand that is not over is followed by another")
            if previous.match_over:
                raise _fault(record, k, None, "a hand dealt after the match is over")
            expected = previous.next_hand()
            for name in ("scores", "dealer", "hand_number", "rules"):
                if getattr(state, name) != getattr(expected, name):
                    raise _fault(
                        record,
                        k,
                        None,
                        f"the deal does not carry on the match: the deal has {name} "
                        f"{_show(getattr(state, name))}, the previous hand ends at "
                        f"{_show(getattr(expected, name))}",
                    )
        yield state
        written = hand._seats
        for ply, mv in enumerate(hand.moves):
            if state.hand_over:
                raise _fault(record, k, ply, f"{mv} is played after the hand is over")
            if ply < len(written) and written[ply] != state.to_move:
                raise _fault(
                    record,
                    k,
                    ply,
                    f"seat {written[ply]} plays {mv}, but seat {state.to_move} is to move",
                )
            try:
                state = state.play(mv)
            except CaptureFastError as e:
                reason = str(e).splitlines()[0]  # without the hint to call legal_moves
                raise _fault(record, k, ply, f"{mv} is not legal: {reason}") from e
            yield state
        previous = state
    assert previous is not None
    result = headers.get("Result")
    if result is not None and result != result_text(previous):
        raise _header_fault(
            record,
            "Result",
            f"the Result header says {result}, the moves give {result_text(previous)}",
        )


def _check_headers(record: GameRecord, state: State) -> None:
    headers = record.headers
    want = rules_headers(state)
    for tag, value in want.items():
        if tag in headers and headers[tag] != value:
            raise _fault(record, 0, None, f"the {tag} header says {headers[tag]}, the deal {value}")
    for tag in headers:
        if tag.startswith("Seat") and tag[4:].isdigit() and int(tag[4:]) >= state.num_players:
            raise _header_fault(
                record,
                tag,
                f"the header {tag} names a seat the game does not have ({state.num_players} seats)",
            )


def _show(value: object) -> str:
    if isinstance(value, list):
        return "/".join(map(str, value))
    if hasattr(value, "to_notation"):
        return str(value.to_notation())
    return str(value)


# ----- the records of a simulation -----

_BITS = (1 << 48) - 1  # the bits of `Move.to_int`

# Items per batch of a simulation that writes records: the records of one batch are held
# while they are written, the columns of every batch until the run ends.
SIM_BATCH = 2048


def simulate_records(
    req: SimRequest,
    out: PathLike | IO[str],
    callback: ProgressCallback | None,
) -> dict[str, Any]:
    """Runs ``req`` batch after batch, writing each batch's games to ``out`` (a path, created
    or replaced, or an open text file) before the next batch is played; returns the run's
    columns as `SimRequest.run` does. After Ctrl-C, the games of the items that finished are
    written and the columns are theirs."""
    if isinstance(out, (str, os.PathLike)):
        with open(out, "w", encoding="utf-8") as f:
            return simulate_records(req, f, callback)
    writer = _SimWriter(req)
    parts: list[dict[str, Any]] = []
    counts: list[int] = []
    interrupted = False
    threads = 1
    try:
        for first in range(0, req.count, SIM_BATCH):
            n = min(SIM_BATCH, req.count - first)

            def report(done: int, _total: int, first: int = first) -> object:
                return callback(first + done, req.count) if callback else None

            raw = req.run(first, n, progress=report if callback else None, trace=True)
            threads = raw["threads"]
            out.write(writer.batch(first, raw))
            parts.append(raw)
            counts.append(n)
            if raw["interrupted"] or raw["completed"] < n:
                interrupted = True
                break
    except KeyboardInterrupt:
        # Between batches or while one was written: a batch is written in one call, so the
        # file holds whole games; the batch whose write was cut short is not counted.
        interrupted = True
    raw, completed = req.merge(parts, counts)
    raw["completed"] = completed
    raw["interrupted"] = interrupted
    raw["threads"] = threads
    return raw


class _SimWriter:
    """The text of a simulation's games, batch by batch, from the core's trace."""

    def __init__(self, req: SimRequest) -> None:
        from capturefast.sim import bot_label

        self.req = req
        self.labels = [bot_label(b) for b in req.seats]
        self.date = datetime.date.today().isoformat()
        self.rules = {"Rules": req.rules.to_notation(), "Players": str(req.rules.players)}
        self.lines: dict[int, str] = {}  # a move's line by `Move.to_int` and seat
        self.games = 2 if req.duplicate else 1
        self.written = 0

    def _line(self, key: int) -> str:
        # `key` is the move's `to_int` (48 bits) and the seat above them.
        line = self.lines.get(key)
        if line is None:
            line = self.lines[key] = move_line(key >> 48, str(Move.from_int(key & _BITS)))
        return line

    def batch(self, first: int, raw: dict[str, Any]) -> str:
        req = self.req
        starts: list[str] = raw["trace_starts"]
        keys = (raw["trace_moves"] | (raw["trace_seats"].astype(np.uint64) << 48)).tolist()
        line = self._line
        ends = raw["trace_ends"].tolist()
        players = req.rules.players
        out = []
        row = 0
        game = 0
        for item in range(raw["completed"]):
            deal_seed = sim_seeds(req.seed, first + item, players)[0]
            for g in range(self.games):
                if req.mode == "hands":
                    rows = 1
                    result = raw["points"][game]
                else:
                    rows = int(raw["match_hands"][game])
                    result = raw["match_scores"][game]
                headers = {
                    "Event": "capturefast simulate",
                    "Date": self.date,
                    **self.rules,
                }
                for seat in range(players):
                    headers[f"Seat{seat}"] = self.labels[seat ^ 1 if g == 1 else seat]
                headers["Seed"] = str(deal_seed)
                headers["Item"] = str(first + item)
                if self.games == 2:
                    headers["Duplicate"] = "swapped" if g == 1 else "first"
                headers["Result"] = "/".join(str(int(x)) for x in result)
                hands = []
                for r in range(row, row + rows):
                    lo = ends[r - 1] if r else 0
                    hands.append((starts[r], "".join([line(k) for k in keys[lo : ends[r]]])))
                if self.written:
                    out.append("\n")
                out.append(game_text(headers, hands))
                self.written += 1
                row += rows
                game += 1
        return "".join(out)
