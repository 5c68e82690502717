"""`capturefast engine`: the engine protocol over stdin and stdout (docs/protocol.md).

One command a line in, answers one line each out. A search (`go`, `analyze`, `solve`) runs on a
worker thread with the GIL released inside the core, so that the reader takes `stop`,
`isready` and `quit` while it runs. This module parses and prints; every rule and every search
is the core's (`capturefast.service`, `capturefast.solve`).
"""

from __future__ import annotations

import json
import queue
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import IO

from capturefast._core import Bot, Move, Rules, State, View, __version__
from capturefast.errors import (
    ArgumentError,
    CaptureFastError,
    IllegalMoveError,
    did_you_mean,
    printable,
)
from capturefast.service import (
    BUILTIN_BOTS,
    HORIZONS,
    MAX_SEED,
    MAX_WORLDS,
    Budget,
    SearchResult,
    check_int,
    deal_logged,
    from_notation,
    play_logged,
    preset_rules,
    search,
    searchable,
)
from capturefast.solve import Solver, StopFlag
from capturefast.variants import preset_names

__all__ = ["Engine", "main"]

# The moves a search or a bot is told at most: a round has at most 40 (4 hands of 10).
MAX_HISTORY = 40

# The longest command line read, in bytes without its line break: the JSON server's body
# limit, far above the longest command (`position notation` with a notation line of at most
# 4096 bytes and a hand's moves). A longer line is answered with an error and skipped.
MAX_LINE = 64 * 1024
# The start of an over-long line its error shows.
_SHOWN = 32


def _words_value(text: str) -> str | int | bool:
    """An option value as the command line reads it: true/false, a whole number, or a word."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return text


def _int(name: str, text: str, lo: int, hi: int) -> int:
    """A number written in ASCII digits, with a minus sign if negative (not `int()`'s other
    spellings: `1_000`, `+5`, other scripts' digits)."""
    if not re.fullmatch(r"-?[0-9]+", text):
        raise ArgumentError(f"{name} must be a whole number, got: {text}")
    return check_int(name, int(text), lo, hi)


def _move_list(text: str) -> list[str]:
    """Moves separated by commas (a move's own notation holds spaces: `7D x 3C+4S`)."""
    moves = [m.strip() for m in text.split(",")]
    if moves == [""]:
        return []
    if "" in moves:
        raise IllegalMoveError(f"an empty move in the list (two commas in a row?): {text}")
    return moves


def _nodes(result: SearchResult) -> str:
    """` nodes N` where the search counts nodes (the hand horizon), else nothing."""
    return "" if result.nodes is None else f" nodes {result.nodes}"


def _moves_text(moves: list[Move]) -> str:
    return ", ".join(str(m) for m in moves)


# The core's messages name Python calls in places: the protocol's own words instead.
_PROTOCOL_WORDS = (
    ("hint: see `state.legal_moves()`", "hint: `legal` lists the legal moves"),
    ("hint: choose one of `view.legal_moves()`", "hint: `legal` lists the legal moves"),
    ("the hand is not over yet: next_hand", "the hand is not over yet: nexthand"),
    ("illegal move: the hand is over: nothing to solve", "the hand is over: nothing to solve"),
)


def protocol_words(message: str) -> str:
    """`message` with the Python names it gives in the protocol's words."""
    for python, protocol in _PROTOCOL_WORDS:
        message = message.replace(python, protocol)
    return message


# The commands that take nothing after their word: anything more is refused, not ignored.
_NO_ARGUMENTS = frozenset(
    {"capturefast", "isready", "legal", "status", "nexthand", "solve", "report"}
)


class _TooLong:
    """A line longer than `MAX_LINE`, skipped: its error, answered in the line's turn."""

    def __init__(self, message: str) -> None:
        self.message = message


class Engine:
    """One engine session: the rules, the position, the options, and at most one search.

    Args:
        write: called with each answer line (no newline); from the reader's thread and from
            the search's, never at once.
    """

    OPTIONS = (
        f"option name Worlds type spin default 100 min 1 max {MAX_WORLDS}",
        "option name Horizon type combo default round " + " ".join(f"var {h}" for h in HORIZONS),
        f"option name Seed type spin default 0 min 0 max {MAX_SEED}",
    )

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write = write
        self._lock = threading.Lock()
        self.rules: Rules = preset_rules("scopa")
        self.position: State | View | None = None
        # The moves played to reach the position, each with the state before it (none for a
        # view): what `go`, `analyze` and `go bot` are told of the others' play.
        self.history: list[tuple[State, Move | str]] = []
        self.worlds = 100
        self.horizon = "round"
        self.seed = 0
        self._seq = 0  # the number of commands queued
        self._running = 0  # the number of the command running
        self._stop_seq = 0  # commands up to this number are stopped
        self._searching = False
        self._infinite = False  # the search running has no budget but `stop`
        self._ended = False  # the input has ended
        # Set while the command running must stop (`_sync_stop`): the core reads it inside a
        # search. The lock keeps it in step with the numbers above across the two threads.
        self._stop = StopFlag()
        self._stop_lock = threading.Lock()
        self._queue: queue.SimpleQueue[tuple[int, str | _TooLong]] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        self._solver = Solver()  # kept between searches: its table grows once
        self._fallback_told = False  # the search running has said why it fell back
        self._commands: dict[str, Callable[[str], None]] = {
            "capturefast": self._hello,
            "isready": self._isready,
            "setoption": self._setoption,
            "rules": self._rules,
            "position": self._position,
            "play": self._play,
            "nexthand": self._nexthand,
            "legal": self._legal,
            "notation": self._notation,
            "status": self._status,
            "go": self._go,
            "analyze": self._analyze,
            "solve": self._solve,
            "report": self._report,
        }

    # ------------------------------------------------------------------ plumbing

    def send(self, line: str) -> None:
        """Writes one answer line: control characters are written as `\\xNN` (`printable`),
        and the line break before a hint becomes `; `."""
        with self._lock:
            self._write(printable(line).replace("\n", "; "))

    def error(self, message: str) -> None:
        self.send(f"error {message}")

    def handle(self, line: str) -> bool:
        """Reads one command line; returns False after `quit`.

        `stop` acts at once (and `quit` stops the searches before it), and `isready` is
        answered at once during a search; every other command is queued and run in order on
        the worker thread. Never raises for bad input: it answers `error ...`."""
        words = line.split(maxsplit=1)
        if not words:
            return True
        word = words[0]
        if word in ("stop", "quit"):
            # No answer of its own: the searches queued before it answer with their last line.
            with self._stop_lock:
                self._stop_seq = self._seq
                self._sync_stop()
            if word == "stop":
                return True
        if word == "isready" and self._searching:
            self.send("readyok")
            return True
        self._enqueue(" ".join(words))
        if word == "quit":
            assert self._worker is not None
            self._worker.join()
            return False
        return True

    def _sync_stop(self) -> None:
        """Sets the stop flag if the command running must stop (a `stop` or `quit` came after
        it, or input ended during an `infinite` search), else clears it; called with
        `_stop_lock` held whenever one of those changes."""
        if self._stop_seq >= self._running or (self._ended and self._infinite):
            self._stop.set()
        else:
            self._stop.clear()

    def run(self, line: str) -> None:
        """Runs one command line now, answering `error ...` for bad input."""
        word, rest = ([*line.split(maxsplit=1), "", ""])[:2]
        command = self._commands.get(word)
        if command is None:
            hint = did_you_mean(word, [*self._commands, "stop", "quit"])
            self.error(f"unknown command: {word}{hint}")
            return
        rest = rest.strip()  # a word's spaces and tabs are one separator
        if rest and word in _NO_ARGUMENTS:
            self.error(f"`{word}` takes no arguments, got: {rest}")
            return
        try:
            command(rest)
        except CaptureFastError as e:
            self.error(protocol_words(str(e)))
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:  # a bug, or a core panic: it must not end the worker
            self.error(f"internal error, please report it: {type(e).__name__}: {e}")
        finally:
            self._searching = False

    def too_long(self, start: str, size: int) -> None:
        """Answers, in its turn, a line longer than `MAX_LINE` that was skipped: `size` is its
        length and `start` its first characters, which the error shows (never the whole)."""
        self._enqueue(
            _TooLong(
                f"a line is at most {MAX_LINE} bytes, got one of {size} starting: "
                f"{start[:_SHOWN]}..."
            )
        )

    def _enqueue(self, item: str | _TooLong) -> None:
        if self._worker is None:
            self._worker = threading.Thread(target=self._run, name="capturefast-engine")
            self._worker.daemon = True
            self._worker.start()
        self._seq += 1
        self._queue.put((self._seq, item))

    def _run(self) -> None:
        while True:
            seq, line = self._queue.get()
            with self._stop_lock:
                self._running = seq
                self._infinite = False  # until the command is a search that says so
                self._sync_stop()
            if isinstance(line, _TooLong):
                self.error(line.message)
                continue
            if line.split(maxsplit=1)[0] == "quit":
                return
            self.run(line)

    def finish(self) -> None:
        """At the end of input: answers every command queued, as if `quit` followed them,
        except that an `infinite` search, which nothing could stop any more, is stopped."""
        with self._stop_lock:
            self._ended = True
            self._sync_stop()
        if self._worker is not None:
            self._enqueue("quit")
            self._worker.join()

    def quit(self) -> None:
        """`quit`: stops every search, answers what is queued, waits for the last answer."""
        self.handle("quit")

    def _position_now(self) -> State | View:
        if self.position is None:
            raise ArgumentError(
                "no position: send `position deal seed N` or `position notation LINE` first\n"
                "hint: `position deal seed 1 moves 7D x 3C+4S, KS` also plays moves"
            )
        return self.position

    def _state_now(self, command: str) -> State:
        """The position, which `command` needs whole: a view is refused."""
        position = self._position_now()
        if isinstance(position, View):
            raise ArgumentError(
                f"`{command}` needs the whole position (a deal or a state line), "
                f"not the view of seat {position.seat}: {command}\n"
                "hint: send the position after each move with `position notation LINE`"
            )
        return position

    # ------------------------------------------------------------------ commands

    def _hello(self, rest: str) -> None:
        self.send(f"id name capturefast {__version__}")
        self.send("id author the capturefast developers")
        self.send("id presets " + " ".join(preset_names()))
        self.send("id bots " + " ".join(BUILTIN_BOTS))
        for line in self.OPTIONS:
            self.send(line)
        self.send("capturefastok")

    def _isready(self, rest: str) -> None:
        self.send("readyok")

    def _setoption(self, rest: str) -> None:
        words = rest.split()
        if len(words) != 4 or words[0] != "name" or words[2] != "value":
            raise ArgumentError(f"expected `setoption name NAME value VALUE`, got: {rest}")
        name, value = words[1], words[3]
        key = name.lower()
        if key == "worlds":
            self.worlds = _int("Worlds", value, 1, MAX_WORLDS)
        elif key == "seed":
            self.seed = _int("Seed", value, 0, MAX_SEED)
        elif key == "horizon":
            if value not in HORIZONS:
                raise ArgumentError(f"Horizon is round or hand, got: {value}")
            self.horizon = value
        else:
            raise ArgumentError(f"unknown option (expected Worlds, Horizon or Seed): {name}")
        self.send("ok")

    def _rules(self, rest: str) -> None:
        words = rest.split()
        if not words:
            raise ArgumentError("expected `rules PRESET [players N] [NAME=VALUE ...]`, got nothing")
        preset, players, options = words[0], None, {}
        i = 1
        while i < len(words):
            if words[i] == "players":
                if i + 1 == len(words):
                    raise ArgumentError("`players` needs a count: players")
                if players is not None:
                    raise ArgumentError(f"players given twice: players {words[i + 1]}")
                players = _int("players", words[i + 1], 2, 4)
                i += 2
                continue
            name, eq, value = words[i].partition("=")
            if not eq or not name:
                raise ArgumentError(f"expected NAME=VALUE, got: {words[i]}")
            if name in options:
                raise ArgumentError(f"{name} given twice: {words[i]}")
            options[name] = _words_value(value)
            i += 1
        self.rules = preset_rules(preset, players, options)
        self.position, self.history = None, []
        self.send("ok")

    def _position(self, rest: str) -> None:
        kind, _, spec = rest.partition(" ")
        if kind == "notation":
            line, _, moves = spec.partition(" moves ")
            position = from_notation(line.strip())
            if isinstance(position, View):
                if moves.strip():
                    raise ArgumentError(f"a view cannot play moves: {moves.strip()}")
                self.position, self.history = position, []
            else:
                self.position, self.history = play_logged(position, _move_list(moves))
            self.rules = position.rules
            self.send("ok")
            return
        if kind != "deal":
            raise ArgumentError(
                "expected `position deal seed N [moves M, ...]` or `position notation LINE "
                f"[moves M, ...]`, got: {kind}"
            )
        head, _, moves = spec.partition("moves")
        words = head.split()
        if len(words) != 2 or words[0] != "seed":
            raise ArgumentError(f"expected `seed N` after `position deal`, got: {head.strip()}")
        seed = _int("seed", words[1], 0, MAX_SEED)
        self.position, self.history = deal_logged(self.rules, seed, _move_list(moves))
        self.send("ok")

    def _play(self, rest: str) -> None:
        state = self._state_now("play")
        self.position = state.play(rest)
        self.history = [*self.history[-MAX_HISTORY + 1 :], (state, rest)]
        self.send("ok")

    def _nexthand(self, rest: str) -> None:
        # The moves told to a bot are the current hand's: a new deal starts a new history.
        self.position, self.history = self._state_now("nexthand").next_hand(), []
        self.send("ok")

    def _notation(self, rest: str) -> None:
        position = self._position_now()
        if rest == "view":
            if position.to_move is None:
                raise IllegalMoveError("the hand is over: no seat to move, no view")
            if isinstance(position, View):
                # A view set is the view of the seat to move only if it is that seat's.
                if position.seat != position.to_move:
                    raise ArgumentError(
                        f"`notation view` needs the view of the seat to move ({position.to_move}) "
                        f"or the whole position, not the view of seat {position.seat}: "
                        "notation view"
                    )
                view = position
            else:
                view = position.view(position.to_move)
            self.send(f"notation {view.to_notation()}")
        elif rest:
            raise ArgumentError(f"expected `notation` or `notation view`, got: {rest}")
        else:
            self.send(f"notation {position.to_notation()}")

    def _legal(self, rest: str) -> None:
        position = self._position_now()
        if isinstance(position, View) and position.to_move not in (None, position.seat):
            # The mover's hand is hidden from this seat: no list, and not the empty one, which
            # says the hand is over.
            raise IllegalMoveError(
                f"the view's seat is not to move (seat {position.to_move} is): {position.seat}\n"
                f"hint: seat {position.to_move}'s moves depend on its hand, which this view "
                f"hides: send seat {position.to_move}'s view, or the whole position"
            )
        self.send(f"legal {_moves_text(position.legal_moves())}".rstrip())

    def _status(self, rest: str) -> None:
        s = self._position_now()
        to_move = "none" if s.to_move is None else s.to_move
        scores = " ".join(str(x) for x in s.scores)
        over = s.phase in ("hand_over", "match_over")
        # A view has no hand number (a seat cannot see how many hands were dealt before).
        number = "-" if isinstance(s, View) else s.hand_number
        self.send(
            f"status to_move {to_move} dealer {s.dealer} phase {s.phase} hand {number} "
            f"stock {s.stock_size} hand_over {str(over).lower()} "
            f"match_over {str(s.phase == 'match_over').lower()} scores {scores}"
        )

    def _budget(self, rest: str) -> Budget:
        words = rest.split()
        worlds: int | None = self.worlds
        time_ms: int | None = None
        nodes: int | None = None
        horizon, seed = self.horizon, self.seed
        i = 0
        seen: set[str] = set()
        while i < len(words):
            key = words[i]
            if key in seen:
                raise ArgumentError(f"a budget is given once: {key}")
            seen.add(key)
            if key == "infinite":
                worlds = None
                i += 1
                continue
            if key not in ("worlds", "time", "nodes", "horizon", "seed"):
                raise ArgumentError(
                    "unknown budget (expected one of worlds, time, nodes, horizon, seed, "
                    f"infinite): {key}"
                )
            if i + 1 == len(words):
                raise ArgumentError(f"`{key}` needs a value: {key}")
            value = words[i + 1]
            if key == "worlds":
                worlds = _int("worlds", value, 1, MAX_WORLDS)
            elif key in ("time", "nodes"):
                if key == "time":
                    time_ms = _int("time", value, 1, 10**9)
                else:
                    nodes = _int("nodes", value, 1, 10**15)
                if "worlds" not in words:
                    worlds = None
            elif key == "horizon":
                horizon = value
            else:
                seed = _int("seed", value, 0, MAX_SEED)
            i += 2
        return Budget(worlds=worlds, time_ms=time_ms, horizon=horizon, seed=seed, nodes=nodes)

    def _info(self, result: SearchResult) -> None:
        if result.fallback is not None and not self._fallback_told:
            # Once a search: why its values are the round search's, or a world was left out.
            self._fallback_told = True
            self.send(f"info string {result.fallback}")
        for stat in result.moves:
            self.send(
                f"info worlds {result.worlds}{_nodes(result)} time {result.time_ms} "
                f"value {stat.mean:+.4f} stderr {stat.stderr:.4f} move {stat.move}"
            )

    def _search(self, rest: str, *, live: bool) -> SearchResult:
        """The search `go` and `analyze` run (`live`: `info` lines after every slice);
        `service.search` refuses a finished hand."""
        budget = self._budget(rest)
        state = searchable(self._position_now())
        with self._stop_lock:
            self._infinite = (
                budget.worlds is None and budget.time_ms is None and budget.nodes is None
            )
            self._sync_stop()
        self._searching = True
        self._fallback_told = False
        info = self._info if live else None
        told = self.history[-MAX_HISTORY:]
        return search(
            state, budget, stop=self._stop, on_slice=info, solver=self._solver, history=told
        )

    def _go(self, rest: str) -> None:
        words = rest.split()
        if "bot" in words:
            self._go_bot(words)
            return
        self.send(f"bestmove {self._search(rest, live=True).best}")

    def _go_bot(self, words: list[str]) -> None:
        """`go bot NAME [seed N]`: one decision of a built-in bot, in the mover's view."""
        i = words.index("bot")
        if i + 1 == len(words):
            raise ArgumentError("`bot` needs a bot name, e.g. `go bot expert`: bot")
        name, rest = words[i + 1], words[:i] + words[i + 2 :]
        seed = self.seed
        if rest[:1] == ["seed"] and len(rest) == 2:
            seed = _int("seed", rest[1], 0, MAX_SEED)
        elif rest:
            raise ArgumentError(
                f"`go bot NAME` takes only `seed N` beside it (the bot's budget goes in its "
                f"name, e.g. pimc:worlds=400), got: {' '.join(rest)}"
            )
        bot = Bot(name, seed=seed)
        position = self._position_now()
        if position.to_move is None:
            raise IllegalMoveError("the hand is over: nothing to choose")
        self._searching = True
        start = time.perf_counter()
        move = bot.choose(position, self.history[-MAX_HISTORY:], stop=self._stop)
        ms = round((time.perf_counter() - start) * 1000)
        self.send(f"info bot {bot.name} time {ms}")
        self.send(f"bestmove {move}")

    def _analyze(self, rest: str) -> None:
        result = self._search(rest, live=False)
        self._info(result)
        self.send(
            f"analysis seat {result.seat} worlds {result.worlds} "
            f"exact {str(result.exact).lower()} stopped {str(result.stopped).lower()} "
            f"time {result.time_ms}{_nodes(result)} best {result.best}"
        )

    def _solve(self, rest: str) -> None:
        state = self._state_now("solve")
        self._searching = True
        start = time.perf_counter()
        sol = self._solver.solve(state, stop=self._stop)
        ms = round((time.perf_counter() - start) * 1000)
        for move, value in sorted(sol.move_values.items(), key=lambda kv: -kv[1]):
            self.send(f"info value {value:+d} move {move}")
        self.send(
            f"solution value {sol.value:+d} nodes {sol.nodes} time {ms} "
            f"best {_moves_text(sol.best_moves)}"
        )

    def _report(self, rest: str) -> None:
        state = self._state_now("report")
        if not state.hand_over:
            raise IllegalMoveError("the hand is not over: no score report yet")
        report = state.hand_report().to_dict()
        self.send("report " + json.dumps(report, separators=(",", ":")))


def read_lines(inp: IO[bytes] | IO[str], limit: int = MAX_LINE) -> Iterator[str | tuple[str, int]]:
    """The lines of `inp` without their line break, each at most `limit` bytes (characters
    for a text stream); in place of a longer one, its start and its length, read to its end
    but never held whole. Bytes are read as UTF-8, a byte that is not UTF-8 as U+FFFD."""
    while True:
        chunk = inp.readline(limit + 1)
        if not chunk:
            return
        text = chunk.decode("utf-8", errors="replace") if isinstance(chunk, bytes) else chunk
        if len(chunk) <= limit or _ends_line(chunk):
            yield text.removesuffix("\n")
            continue
        size = len(chunk)
        while True:
            more = inp.readline(limit + 1)
            size += len(more)
            if not more or _ends_line(more):
                break
        if more:
            size -= 1  # the line break
        yield text, size


def _ends_line(chunk: bytes | str) -> bool:
    return chunk[-1:] in (b"\n", "\n")


def main(stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Reads commands from `stdin` until `quit` or the end of input; returns the exit status."""
    inp: IO[bytes] | IO[str]
    if stdin is None:
        # The protocol is UTF-8 whatever the locale: stdin is read as bytes (so that a line's
        # length is counted in bytes), a byte that is not UTF-8 reads as U+FFFD and makes the
        # word it is in a bad one, answered `error`, never a traceback.
        inp = sys.stdin.buffer
        sys.stdout.reconfigure(encoding="utf-8", errors="replace")  # type: ignore[union-attr]
    else:
        inp = stdin
    out = sys.stdout if stdout is None else stdout
    gone = threading.Event()

    def write(line: str) -> None:
        if gone.is_set():
            return
        try:
            out.write(line + "\n")
            out.flush()
        except (BrokenPipeError, ValueError):
            gone.set()  # the reader has gone: answer nothing more, read to the end

    engine = Engine(write)
    for line in read_lines(inp):
        if isinstance(line, tuple):
            engine.too_long(*line)
        elif not engine.handle(line):
            return 0
    engine.finish()
    return 0
