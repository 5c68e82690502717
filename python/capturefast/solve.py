"""Solver queries: exact values of open positions, analysis of a seat's moves over worlds drawn
from what it sees, and move-by-move review of a played hand.

    >>> import capturefast as cf
    >>> state = cf.State.new(cf.Rules.scopa(), seed=1)
    >>> sol = cf.solve(state)            # every card and the stock order known
    >>> sol.value, sol.best_moves        # points difference at the end of the hand, best play
    (-2, [Move('JC x 2D+6D')])
    >>> print(cf.analyze(state, seat=state.to_move, worlds=100, seed=0))  # doctest: +ELLIPSIS
    seat 0, 100 worlds, mean ± 95% interval (1.96 stderr)
    ...

The value of a position is the side to move's points minus the other side's at the end of the
hand, counting what is already won in it, with best play by both sides (partners are one side).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from capturefast._core import (
    Move,
    Solution,
    State,
    StopFlag,
    View,
    analyze_many_raw,
    analyze_raw,
    solve_values,
)
from capturefast._core import Solver as _CoreSolver
from capturefast._core import solve as _solve
from capturefast.errors import ArgumentError, IllegalMoveError
from capturefast.sim import Executor

if TYPE_CHECKING:
    from capturefast.records import GameRecord

__all__ = [
    "Analysis",
    "MoveStat",
    "ReviewRow",
    "Solution",
    "Solver",
    "StopFlag",
    "analyze",
    "analyze_many",
    "review",
    "solve",
    "solve_many",
]


def position_of(position: State | View | str) -> State | View:
    """A `State` or `View` as given, or read from a line of the position notation (a view line
    names its `seat`)."""
    if isinstance(position, State | View):
        return position
    if isinstance(position, str):
        if any(token.startswith("seat=") for token in position.split()):
            return View.from_notation(position)
        return State.from_notation(position)
    raise TypeError(
        "state must be a capturefast.State, a View or a line of the position notation, got: "
        f"{type(position).__name__}"
    )


def solve(
    state: State | str,
    *,
    tt_entries: int = 1 << 20,
    time_ms: int | None = None,
    stop: StopFlag | None = None,
    nodes: int | None = None,
) -> Solution:
    """The exact value of an open position and of each legal move.

    Each thread keeps one solver for `solve` and `analyze`, so that a query pays only for its
    search: the table is allocated once, to the size the searches need, and reused (its entries
    stay exact between queries). Keep a `Solver` of your own to choose its size or clear it.
    Ctrl-C stops a long query (`KeyboardInterrupt`), as it stops `analyze`, a `Solver`'s
    queries, the batch forms and `Bot.choose`.

    Args:
        state: a position with every card known, the stock order included (any `State`, or
            a state line of the position notation, docs/notation.md).
        tt_entries: the most transposition-table entries the thread's solver may use, 16 bytes
            each (memory is bounded by this), at most 2**28 (4 GiB).
        time_ms: stop after this many milliseconds (1 to 10**9; None: no limit).
        stop: a `StopFlag` another thread may set to stop the solve.
        nodes: stop after searching this many nodes (1 to 10**15; None: no limit but the
            solver's own, 30 million, past which a position is too large).

    Returns:
        A `Solution` with `.value`, `.move_values` (dict Move -> int), `.best_moves`, `.nodes`.

    Raises:
        IllegalMoveError: if the hand is over.
        NotationError: a line that is not a state line (a view hides cards: use `analyze`).
        StoppedError: `time_ms` passed, `stop` was set or `nodes` nodes were searched before
            the solve ended (the solver looks at the time and the flag every thousand nodes or
            so). The table keeps only what was proven.
    """
    return _solve(_open_state(state), tt_entries, time_ms=time_ms, stop=stop, nodes=nodes)


def _open_state(state: State | str) -> State:
    """The position a solve reads: a `State`, or a state line read as `State.from_notation`
    does; any other type is a `TypeError` naming the argument."""
    if isinstance(state, str):
        return State.from_notation(state)
    if not isinstance(state, State):
        raise TypeError(
            f"state must be a State or a state line of the position notation, got: "
            f"{type(state).__name__}"
        )
    return state


def solve_many(
    states: Iterable[State],
    *,
    threads: int | None = None,
    tt_entries: int = 1 << 20,
    executor: Executor | None = None,
) -> list[int]:
    """The exact values of many open positions, in order, on `threads` threads (None: all cores).

    Each worker thread keeps one solver (its table up to `tt_entries` entries) for all the
    positions it takes. Ctrl-C stops the batch (`KeyboardInterrupt`: the worker threads stop
    within a millisecond or so, and nothing is returned). With ``executor="ray"`` (or a
    `capturefast.distributed.RayExecutor`) the positions are solved in shards on a Ray
    cluster, ``threads`` then being each shard's; the same values.
    """
    states = list(states)
    if executor is not None:
        from capturefast import distributed

        return distributed.solve_values_sharded(states, threads, tt_entries, executor)
    return solve_values(states, threads, tt_entries)


class Solver:
    """An exact solver that a caller keeps: its transposition table is set up once and reused.

        >>> import capturefast as cf
        >>> solver = cf.Solver()
        >>> state = cf.State.new(cf.Rules.scopa(), seed=1)
        >>> solver.solve(state).value == cf.solve(state).value
        True

    The table grows to what the searches need, up to `tt_entries` entries of 16 bytes (rounded
    down to a power of two, at least 4: 0 gives the smallest table), and is never cleared entry
    by entry: entries stay exact from one query to the next (a position's key holds everything
    its value depends on, the stock order included), and `clear()` empties it in constant time.
    Values never depend on what the solver searched before; node counts do (and so whether a
    search stays within its limit of 30 million nodes). One solver answers one query at a
    time: a query from another thread
    waits, with the GIL released, for the one running.
    """

    __slots__ = ("_core",)

    def __init__(self, tt_entries: int = 1 << 20) -> None:
        self._core = _CoreSolver(tt_entries)

    def solve(
        self,
        state: State | str,
        *,
        time_ms: int | None = None,
        stop: StopFlag | None = None,
        nodes: int | None = None,
    ) -> Solution:
        """`cf.solve(state)` with this solver's table (a `State` or a state line).

        Args:
            time_ms: stop after this many milliseconds (1 to 10**9; None: no limit).
            stop: a `StopFlag` another thread may set to stop the solve.
            nodes: stop after searching this many nodes (1 to 10**15; None: no limit).

        Raises:
            StoppedError: `time_ms` passed, `stop` was set or `nodes` nodes were searched
                before the solve ended (the solver looks at the time and the flag every
                thousand nodes or so). The table keeps only what was proven, so the solver
                stays exact.
        """
        return self._core.solve(_open_state(state), time_ms=time_ms, stop=stop, nodes=nodes)

    def value(
        self,
        state: State | str,
        *,
        time_ms: int | None = None,
        stop: StopFlag | None = None,
        nodes: int | None = None,
    ) -> int:
        """The exact value of an open position for the side to move: `solve(state).value`,
        found by narrow-window searches of the root alone, without every move's value.
        `time_ms`, `stop` and `nodes` as for `solve`."""
        return self._core.value(_open_state(state), time_ms=time_ms, stop=stop, nodes=nodes)

    def analyze(
        self,
        state: State | View | str,
        seat: int | None = None,
        *,
        worlds: int = 100,
        seed: int = 0,
        horizon: Literal["hand", "round"] = "round",
        history: Sequence[tuple[State, Move | str]] | None = None,
        time_ms: int | None = None,
        stop: StopFlag | None = None,
        nodes: int | None = None,
    ) -> Analysis:
        """`cf.analyze(state, seat, ...)` with this solver's table; `nodes` counts this
        solver's nodes from the call."""
        position, seat = _seat_to_move(state, seat)
        _check_horizon(horizon)
        raw = self._core.analyze_raw(
            position, seat, worlds, seed, horizon, history, time_ms, stop, nodes
        )
        return _analysis(seat, raw)

    def clear(self) -> None:
        """Empties the table, in constant time (its memory is kept)."""
        self._core.clear()

    @property
    def tt_entries(self) -> int:
        """The most entries the table may grow to."""
        return self._core.tt_entries

    @property
    def tt_allocated(self) -> int:
        """Entries allocated so far: the largest part of the table a query has needed."""
        return self._core.tt_allocated

    @property
    def nodes(self) -> int:
        """Search nodes visited by this solver's queries, in all."""
        return self._core.nodes

    def __repr__(self) -> str:
        return f"Solver(tt_entries={self.tt_entries}, allocated={self.tt_allocated})"


@dataclass(frozen=True)
class MoveStat:
    """One legal move's mean value over the worlds, and the standard error of that mean."""

    move: Move
    mean: float
    stderr: float


@dataclass(frozen=True)
class Analysis:
    """A seat's legal moves with their values averaged over determinized worlds.

    Attributes:
        seat: the seat whose view was used (the seat to move).
        worlds: worlds the means are over (1 when `exact`; fewer than asked when `stopped`).
        exact: nothing relevant was hidden (e.g. the last round with 2 players), so the values
            are the exact solution.
        moves: one `MoveStat` per legal move, in `legal_moves()` order.
        stopped: a time limit, a stop or a node budget ended the analysis before its worlds.
        horizon: the horizon of the values: the one asked, or ``"round"`` when a time limit, a
            stop or a node budget cut the first world's exact solve short and the round search
            valued it, or when the exact solver refused the first world as too large
            (`too_large`) and the round search valued every world.
        too_large: the exact solver refused a world as too large (past its node limit, 30
            million nodes): the first (the round search then values every world, and
            `horizon` is ``"round"``), or a later one, left out, which ends the analysis with
            the worlds solved before it.
    """

    seat: int
    worlds: int
    exact: bool
    moves: list[MoveStat]
    stopped: bool = False
    horizon: Literal["hand", "round"] = "round"
    too_large: bool = False

    @property
    def best_move(self) -> Move:
        """The move with the highest mean value (the first one on a tie)."""
        return max(self.moves, key=lambda m: m.mean).move

    def __str__(self) -> str:
        notes = ["stopped early"] if self.stopped else []
        if self.too_large:
            notes.append("a world too large for the exact solver")
        stopped = f" ({', '.join(notes)}, {self.horizon} horizon)" if notes else ""
        head = f"seat {self.seat}, " + (
            "exact"
            if self.exact
            else f"{self.worlds} worlds{stopped}, mean ± 95% interval (1.96 stderr)"
        )
        width = max((len(str(m.move)) for m in self.moves), default=4)
        rows = [head]
        for m in sorted(self.moves, key=lambda m: -m.mean):
            err = "" if self.exact else f" ± {1.96 * m.stderr:.2f}"
            rows.append(f"  {m.move!s:<{width}}  {m.mean:+.2f}{err}")
        return "\n".join(rows)


def _analysis(
    seat: int,
    raw: tuple[
        list[Move], list[float], list[float], bool, int, bool, Literal["hand", "round"], bool
    ],
) -> Analysis:
    moves, means, errs, exact, worlds, stopped, horizon, too_large = raw
    stats = [MoveStat(m, v, e) for m, v, e in zip(moves, means, errs, strict=True)]
    return Analysis(seat, worlds, exact, stats, stopped, horizon, too_large)


def analyze(
    state: State | View | str,
    seat: int | None = None,
    *,
    worlds: int = 100,
    seed: int = 0,
    tt_entries: int = 1 << 20,
    horizon: Literal["hand", "round"] = "round",
    history: Sequence[tuple[State, Move | str]] | None = None,
    time_ms: int | None = None,
    stop: StopFlag | None = None,
    nodes: int | None = None,
) -> Analysis:
    """The seat to move's legal moves valued over `worlds` positions consistent with its view.

    Each world deals the cards `seat` cannot see uniformly to the other hands and the stock;
    only `state.view(seat)` is used. With `history`, the worlds are weighed by what the others
    played, as the `pimc` bot weighs them (docs/glossary.md#inference).

    Args:
        state: the position: a `State` (its hidden cards are not read), the `View` of the seat
            to move, or a line of the position notation (state or view, docs/notation.md).
        seat: the seat to move (the default); another seat is refused.
        worlds: worlds to draw, from 1 to 10,000.
        seed: the seed of the draws; the same seed gives the same analysis.
        tt_entries: transposition-table entries.
        horizon: ``"round"`` (the default): each world searched to the end of the current
            round, the piles then valued by their expected category points (the hand-made
            equity, as ``pimc:eval=equity,endgame=round`` plays); ``"hand"``: each world
            solved exactly to the end of the hand, its stock order taken as known, which nobody
            knows: it plays worse and costs about thirteen times as much (docs/performance.md).
            Both are exact in the 2-player last round. A world too large for the exact solver
            (past 30 million nodes: a Scopone deal) is valued by the round search, and so is
            every world after it (`Analysis.too_large`, `Analysis.horizon`).
        history: the moves that led to the position, each as the `State` before it and the
            move (as `capturefast.service.play_logged` returns them): the worlds are then
            drawn three times over and resampled by how likely the other seats' moves of the
            current round are under the softened `expert`, and by Cirulla's declarations. A
            round not told whole is sampled uniformly. `None` (the default) or `[]`: uniform
            worlds.
        time_ms: end the analysis after this many milliseconds (1 to 10**9; None: no limit),
            with the worlds searched by then (`Analysis.stopped`). At least one world is
            valued: a world's exact solve (``"hand"``) is stopped at the limit and left out,
            and if it is the first, the round search values it (`Analysis.horizon`). Under
            `history` the weighing of the draws takes at most half the time.
        stop: a `StopFlag` another thread may set to end the analysis as `time_ms` does.
        nodes: end the analysis once its exact solves (``"hand"``) have searched this many
            nodes in all (1 to 10**15; None: no limit), as `time_ms` ends it. The round search
            counts no nodes, so a budget with ``horizon="round"`` is an `ArgumentError`.

    Raises:
        IllegalMoveError: a move of `history` that is not legal in its state, or a state of
            other rules.
        PositionError: `history` cannot have led to the position: a state of another deal or
            hand, the moves out of order, or a move told from the position itself (each pair is
            the state a move was played from and the move).
    """
    state, seat = _seat_to_move(state, seat)
    _check_horizon(horizon)
    raw = analyze_raw(state, seat, worlds, seed, tt_entries, horizon, history, time_ms, stop, nodes)
    return _analysis(seat, raw)


def _check_horizon(horizon: object) -> None:
    """A `horizon` that is not a str is a `TypeError` naming it (the core reads the name)."""
    if not isinstance(horizon, str):
        raise TypeError(f"horizon must be a str ('hand' or 'round'), got: {type(horizon).__name__}")


def _seat_to_move(given: State | View | str, seat: int | None) -> tuple[State, int]:
    """The position to analyze (a view's world) and `seat`, or the seat to move if None; a
    finished hand is refused."""
    position = position_of(given)
    if isinstance(position, View):
        if position.to_move is None:
            raise_hand_over()
        if seat is not None and seat != position.seat:
            raise IllegalMoveError(
                f"a view is analyzed for its own seat ({position.seat}), got seat: {seat}"
            )
        seat = position.seat
        # A world of the view: the analysis reads only that world's view of `seat`, which is
        # this view, so which world it is does not matter.
        position = position.determinize(0)
    state = position
    if seat is None:
        if state.to_move is None:
            raise_hand_over()
        seat = int(state.to_move)  # type: ignore[arg-type]
    return state, seat


def raise_hand_over() -> None:
    """Raises the error of a query on a finished hand."""
    raise IllegalMoveError("the hand is over: nothing to analyze")


def analyze_many(
    states: Iterable[State],
    *,
    worlds: int = 100,
    seed: int = 0,
    threads: int | None = None,
    tt_entries: int = 1 << 20,
    horizon: Literal["hand", "round"] = "round",
    executor: Executor | None = None,
) -> list[Analysis]:
    """`analyze` for many positions (each for its seat to move) on `threads` threads.

    Position `i` draws its worlds from `Rng::derive(seed, i)` (docs/conventions.md), so that
    the batch does not depend on `threads`: `analyze_many([s], seed=k)[0]` is not
    `analyze(s, seed=k)`, though each is deterministic. Ctrl-C stops the batch
    (`KeyboardInterrupt`, as `solve_many`). With ``executor="ray"`` (or a
    `capturefast.distributed.RayExecutor`) the positions are analysed in shards on a Ray
    cluster, each drawing from its position's index in the whole batch: the same analyses.
    """
    states = list(states)  # an iterator is read once, here
    _check_horizon(horizon)
    if executor is not None:
        from capturefast import distributed

        raws = distributed.analyze_raw_sharded(
            states, worlds, seed, threads, tt_entries, horizon, executor
        )
    else:
        raws = analyze_many_raw(states, worlds, seed, threads, tt_entries, horizon)
    out = []
    for s, raw in zip(states, raws, strict=True):
        out.append(_analysis(int(s.to_move or 0), raw))
    return out


@dataclass(frozen=True)
class ReviewRow:
    """One move of a reviewed hand.

    Attributes:
        ply: 0-based index of the move in the hand.
        seat: the seat that played it.
        move: the move played.
        value: its value for the mover's side (exact, all cards known).
        best_value: the value of the best move there.
        best_moves: the moves reaching `best_value`.
        loss: `best_value - value` (0 for a best move).
        hand: 0-based index of the hand in the game (0 for a hand reviewed alone).
    """

    ply: int
    seat: int
    move: Move
    value: int
    best_value: int
    best_moves: list[Move]
    hand: int = 0

    @property
    def loss(self) -> int:
        return self.best_value - self.value


def review(
    game: State | GameRecord,
    moves: Iterable[Move | str] | None = None,
    *,
    tt_entries: int = 1 << 20,
) -> list[ReviewRow]:
    """Values each move of a played hand, or of every hand of a game record, against the
    best alternative, all cards known.

    Args:
        game: the position the moves start from (e.g. a fresh deal from `State.new`), or a
            `GameRecord`, whose hands are reviewed one after another (rows carry ``hand``).
        moves: the moves played from ``game``, in order (Moves or their notation); not given
            with a record.

    Raises:
        IllegalMoveError: if a move is not legal where it is played.
        RecordError: a record that does not replay (`GameRecord.replay`).
    """
    from capturefast.records import GameRecord

    if not isinstance(game, State | GameRecord):
        raise TypeError(f"review takes a State or a GameRecord, got: {type(game).__name__}")
    if isinstance(moves, str | bytes):
        raise ArgumentError(
            f"moves is a list of moves, got a string: {moves[:60]!r}; "
            'hint: use a list, e.g. ["7D x 3C+4S", "KH"]'
        )
    if isinstance(game, GameRecord):
        if moves is not None:
            raise ArgumentError("a game record holds its moves: give no moves with it")
        game.replay()
        return [
            dataclasses.replace(row, hand=k)
            for k, hand in enumerate(game.hands)
            for row in review(hand.start, hand.moves, tt_entries=tt_entries)
        ]
    if moves is None:
        raise ArgumentError("review needs the moves played from the position, got: none")
    return _review_hand(game, moves, tt_entries)


def _review_hand(state: State, moves: Iterable[Move | str], tt_entries: int) -> list[ReviewRow]:
    rows = []
    for ply, mv in enumerate(moves):
        if state.hand_over:
            raise_hand_over()
        sol = solve(state, tt_entries=tt_entries)
        played = Move(mv) if isinstance(mv, str) else mv
        nxt = state.play(played)  # checks legality
        value = sol.move_values[played]
        rows.append(
            ReviewRow(
                ply=ply,
                seat=int(state.to_move),  # type: ignore[arg-type]
                move=played,
                value=value,
                best_value=sol.value,
                best_moves=sol.best_moves,
            )
        )
        state = nxt
    return rows
