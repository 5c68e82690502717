"""What the engine protocol (`capturefast engine`) and the JSON server (`capturefast serve`)
share: rules from a preset, a position from a deal and the moves since, and a move search in
bounded slices of worlds that a stop, a time or a nodes budget ends (inside a slice too: the
core reads them between worlds and inside a world's exact solve).

    >>> import capturefast as cf
    >>> from capturefast import service
    >>> rules = service.preset_rules("scopa")
    >>> state = service.deal(rules, seed=1, moves=["QD x AS+2D+6D"])
    >>> result = service.search(state, service.Budget(worlds=20, seed=0))
    >>> result.worlds, result.best in state.legal_moves()
    (20, True)

The search is `cf.analyze` run slice after slice: slice `k` draws its worlds from seed
``(seed + k * 0x9E3779B97F4A7C15) mod 2**64`` and the slices hold 1, 2, 4, ... worlds, doubling
up to 64 (the round horizon) or 16 (the hand horizon, whose worlds take longer), so that a
budget of worlds gives the same answer on any machine; the means and standard errors are
those of all the worlds searched. Every rule stays in the core: this module only
counts worlds, clocks and sums.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from capturefast._core import Move, Rules, State, View, bot_names
from capturefast.errors import ArgumentError, IllegalMoveError, VariantError
from capturefast.solve import Analysis, MoveStat, Solver, StopFlag, position_of
from capturefast.variants import rules as _preset_rules

__all__ = [
    "BUILTIN_BOTS",
    "HORIZONS",
    "MAX_SEED",
    "MAX_WORLDS",
    "Budget",
    "SearchResult",
    "Stop",
    "deal",
    "from_notation",
    "play_all",
    "preset_rules",
    "search",
    "searchable",
]

MAX_SEED = 2**64 - 1
MAX_WORLDS = 1_000_000
HORIZONS = ("round", "hand")
# Every built-in bot a seat can take by name: the fast ones, then the search bots, which also
# take a budget after a colon (`pimc:worlds=400`).
BUILTIN_BOTS = tuple(bot_names(search=True))
_GOLDEN = 0x9E3779B97F4A7C15
# The largest slice: a world of the round horizon takes microseconds, one of the hand horizon
# up to a tenth of a second (a 4-player deal), and a stop waits for the slice running.
_SLICE_MAX = {"round": 64, "hand": 16}


def preset_rules(
    preset: str, players: int | None = None, options: Mapping[str, object] | None = None
) -> Rules:
    """The rules of a preset with option overrides (`capturefast.variants.rules`).

    `players` may come in `options` too (as a variant file writes it), but not in both.

    Raises:
        VariantError: an unknown preset or option, or a bad value (the message names it).
    """
    rest = dict(options or {})
    if "players" in rest:
        if players is not None:
            raise VariantError(f"players given twice, as {players} and as an option: players")
        players = rest.pop("players")  # type: ignore[assignment]
    return _preset_rules(preset, players=players, **rest)  # type: ignore[arg-type]


def deal(rules: Rules, seed: int, moves: Sequence[Move | str] = ()) -> State:
    """The deal of `seed` under `rules` with `moves` played in order.

    Raises:
        ArgumentError: a seed outside 0..2**64-1.
        IllegalMoveError: a move that is not legal where it comes; the hint says which one.
    """
    return deal_logged(rules, seed, moves)[0]


def deal_logged(
    rules: Rules, seed: int, moves: Sequence[Move | str] = ()
) -> tuple[State, list[tuple[State, Move | str]]]:
    """[`deal`][capturefast.service.deal] with each move's state before it
    ([`play_logged`][capturefast.service.play_logged])."""
    check_int("seed", seed, 0, MAX_SEED)
    return play_logged(State.new(rules, seed=seed), moves)


def play_all(state: State, moves: Sequence[Move | str]) -> State:
    """`state` with `moves` played in order.

    Raises:
        IllegalMoveError: a move that is not legal where it comes; the hint says which one.
    """
    return play_logged(state, moves)[0]


def play_logged(
    state: State, moves: Sequence[Move | str]
) -> tuple[State, list[tuple[State, Move | str]]]:
    """`state` with `moves` played in order, and each move with the state before it: the
    history a bot that reads the others' play is told (`Bot.choose(position, history)`).

    Raises:
        IllegalMoveError: a move that is not legal where it comes; the hint says which one.
    """
    history: list[tuple[State, Move | str]] = []
    for i, move in enumerate(moves):
        try:
            after = state.play(move)
        except IllegalMoveError as e:
            raise IllegalMoveError(f"{e}\nhint: it is move {i + 1} of the moves given") from None
        history.append((state, move))
        state = after
    return state, history


def from_notation(line: str) -> State | View:
    """The position of a line of the position notation (docs/notation.md): a `View` for a view
    line (it names its `seat`), else a `State`; the reading `cf.solve` and `cf.analyze` do.

    Raises:
        NotationError: the line is refused; the message names the field.
    """
    return position_of(line)


def searchable(position: State | View) -> State:
    """The position a search of the seat to move runs on: a state itself, or for a view (its
    seat must be the one to move) a world of it, `View.determinize(0)`: a search reads only
    the mover's view of the position, which is this view, so which world it is does not
    matter.

    Raises:
        IllegalMoveError: the view's seat is not to move, or the hand is over.
    """
    if isinstance(position, State):
        return position
    if position.to_move != position.seat:
        raise IllegalMoveError(
            f"the view's seat is not to move (seat {position.to_move} is): {position.seat}"
            if position.to_move is not None
            else "the hand is over: nothing to search"
        )
    return position.determinize(0)


def check_int(name: str, value: object, lo: int, hi: int) -> int:
    """`value` if it is a whole number from `lo` to `hi`, else an `ArgumentError` naming it."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(f"{name} must be a whole number, got: {value!r}")
    if not lo <= value <= hi:
        raise ArgumentError(f"{name} must be from {lo} to {hi}, got: {value}")
    return value


class Stop(Protocol):
    """What a search asks between slices: a `threading.Event` is one. A `capturefast.StopFlag`
    is one too, and the core also reads it inside a slice, so that it stops the world being
    searched."""

    def is_set(self) -> bool: ...


@dataclass(frozen=True)
class Budget:
    """How long a move search may run: it ends at the first limit reached.

    Attributes:
        worlds: worlds to search (None: no limit but `time_ms`, `nodes`, a stop, or
            `MAX_WORLDS`).
        time_ms: milliseconds of search (None: no time limit); the core checks it between
            worlds and inside a world's exact solve (the ``"hand"`` horizon), so a search
            overruns it by one world of the round search at most.
        nodes: solver nodes to search (None: no limit); the core stops a world's exact solve
            where the budget ends (a few hundred nodes past it at most, while it unwinds) and
            leaves that world out. Only the ``"hand"`` horizon counts nodes (the round search
            reports none).
        horizon: ``"round"`` (search each world to the end of the round, as the pimc bot does)
            or ``"hand"`` (solve each world exactly to the end of the hand).
        seed: the seed of the worlds' draws.
    """

    worlds: int | None = 100
    time_ms: int | None = None
    horizon: str = "round"
    seed: int = 0
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.worlds is not None:
            check_int("worlds", self.worlds, 1, MAX_WORLDS)
        if self.time_ms is not None:
            check_int("time", self.time_ms, 1, 10**9)
        if self.horizon not in HORIZONS:
            raise ArgumentError(f"horizon must be round or hand, got: {self.horizon}")
        check_int("seed", self.seed, 0, MAX_SEED)
        if self.nodes is not None:
            check_int("nodes", self.nodes, 1, 10**15)
            if self.horizon != "hand":
                raise ArgumentError(
                    "a nodes budget needs the hand horizon (the round search counts no nodes), "
                    f"got horizon: {self.horizon}"
                )


@dataclass
class SearchResult:
    """The state of a move search after its last slice.

    Attributes:
        seat: the seat searched for (the seat to move).
        moves: each legal move's mean value and standard error over the worlds searched, best
            first (ties in legal-move order).
        worlds: worlds searched (1 when `exact`).
        exact: the position hides nothing relevant, so one world was the truth.
        time_ms: milliseconds spent.
        stopped: a stop, the time or the nodes budget ended the search before its worlds.
        nodes: solver nodes searched (the ``"hand"`` horizon; None for ``"round"``, whose
            search counts none).
        horizon: the horizon of the values: the budget's, or ``"round"`` when a stop, the time
            or the nodes budget cut the first world's exact solve short and the round search
            valued it, or the exact solver refused the first world as too large and the round
            search valued every world.
        too_large: the exact solver refused a world as too large (past its node limit): the
            first (every world is then valued by the round search), or a later one, left out,
            which ends the search with the worlds before it.
        fallback: why the values are not all the budget's horizon's, or a world was left out
            before the budget ran out, in a sentence (None when neither): what the engine's
            ``info string`` line says.
    """

    seat: int
    moves: list[MoveStat] = field(default_factory=list)
    worlds: int = 0
    exact: bool = False
    time_ms: int = 0
    stopped: bool = False
    nodes: int | None = None
    horizon: str = "round"
    too_large: bool = False
    fallback: str | None = None

    @property
    def best(self) -> Move:
        """The move with the highest mean value."""
        return self.moves[0].move


def _fallback(an: Analysis, horizon: str, left_out: bool) -> str | None:
    """Why a slice's values are not all of the exact solves asked (None: they are, or the
    slice is left out because a stop came, as any search is stopped)."""
    if an.horizon != horizon and not left_out:
        if an.too_large:
            return (
                "the first world is too large for the exact solver (past its node limit): the "
                "round search values it and every world after it"
            )
        return (
            "a stop, the time or the nodes budget cut the first world's exact solve short: the "
            "round search valued it"
        )
    if an.too_large:
        return (
            "a world too large for the exact solver (past its node limit) was left out: the "
            "search ends with the worlds solved before it"
        )
    return None


class _Sums:
    """Each move's sum and sum of squares of values over the worlds of all slices so far."""

    def __init__(self) -> None:
        self.n = 0
        self.moves: list[Move] = []
        self.sum: list[float] = []
        self.sum2: list[float] = []

    def add(self, n: int, stats: Sequence[MoveStat]) -> None:
        if not self.moves:
            self.moves = [s.move for s in stats]
            self.sum = [0.0] * len(stats)
            self.sum2 = [0.0] * len(stats)
        for i, s in enumerate(stats):
            total = s.mean * n
            # The analysis's stderr is sqrt(var / n) with var = (sum2 - sum * mean) / (n - 1).
            var = s.stderr * s.stderr * n
            self.sum[i] += total
            self.sum2[i] += var * (n - 1) + total * s.mean
        self.n += n

    def stats(self) -> list[MoveStat]:
        out = []
        for move, total, total2 in zip(self.moves, self.sum, self.sum2, strict=True):
            mean = total / self.n
            se = 0.0
            if self.n > 1:
                var = max(0.0, (total2 - total * mean) / (self.n - 1))
                se = math.sqrt(var / self.n)
            out.append(MoveStat(move, mean, se))
        order = sorted(range(len(out)), key=lambda i: -out[i].mean)
        return [out[i] for i in order]


def search(
    state: State,
    budget: Budget,
    *,
    stop: Stop | None = None,
    on_slice: Callable[[SearchResult], None] | None = None,
    solver: Solver | None = None,
    history: Sequence[tuple[State, Move | str]] | None = None,
) -> SearchResult:
    """The seat to move's moves valued over worlds drawn from its view, slice after slice,
    until `budget` runs out or `stop` is set; `on_slice` sees the result after each slice.
    `solver` (default: a new one) searches the worlds of the `hand` horizon; its table is kept.
    `history` (the moves that led to `state`, as `play_logged` gives them): each slice's worlds
    are weighed by the others' play, as `cf.analyze(..., history=)` weighs them.

    At least one world is always valued, so a result always has a best move. A
    `capturefast.StopFlag` as `stop`, and the time budget, also stop a world's exact solve:
    the world is left out, or if it is the first, the round search values it. A first world
    too large for the exact solver is valued by the round search, and so is every world after
    it; a later one is left out and ends the search (`SearchResult.fallback` says which).

    Raises:
        IllegalMoveError: the hand is over.
    """
    if state.to_move is None:
        raise IllegalMoveError("the hand is over: nothing to search")
    seat = int(state.to_move)
    solver = Solver() if solver is None else solver
    nodes_before = solver.nodes
    start = time.perf_counter()
    deadline = None if budget.time_ms is None else start + budget.time_ms / 1000
    target = MAX_WORLDS if budget.worlds is None else budget.worlds
    sums = _Sums()
    result = SearchResult(seat=seat, horizon=budget.horizon)
    flag = stop if isinstance(stop, StopFlag) else None
    # The horizon the slices search to: the budget's, until the solver refuses the first world.
    horizon = budget.horizon
    k = 0
    while True:
        size = min(1 << min(k, 6), _SLICE_MAX[horizon], target - sums.n)
        if deadline is not None and sums.n:
            # Fit the slice in the time left at the rate of the slices so far.
            per_world = (time.perf_counter() - start) / sums.n
            left = deadline - time.perf_counter()
            size = max(1, min(size, int(left / per_world) if per_world > 0 else size))
        slice_seed = (budget.seed + k * _GOLDEN) % (MAX_SEED + 1)
        time_left = None
        if deadline is not None:
            time_left = max(1, math.ceil((deadline - time.perf_counter()) * 1000))
        nodes_left = None
        if budget.nodes is not None and horizon == "hand":
            nodes_left = max(1, budget.nodes - (solver.nodes - nodes_before))
        an = solver.analyze(
            state,
            worlds=size,
            seed=slice_seed,
            horizon=horizon,  # type: ignore[arg-type]
            history=history,
            time_ms=time_left,
            stop=flag,
            nodes=nodes_left,
        )
        # A later slice whose first world was cut short is left out: the round search's
        # values are not this horizon's.
        left_out = sums.n > 0 and an.horizon != horizon
        if not left_out:
            sums.add(an.worlds, an.moves)
            result.horizon = an.horizon
            result.moves = sums.stats()
            result.worlds = sums.n
            result.exact = an.exact
        result.too_large |= an.too_large
        if result.fallback is None:
            result.fallback = _fallback(an, horizon, left_out)
        k += 1
        result.time_ms = round((time.perf_counter() - start) * 1000)
        if budget.horizon == "hand":
            result.nodes = solver.nodes - nodes_before
        if an.exact or sums.n >= target:
            break
        if an.too_large and not left_out and an.horizon != horizon:
            # The first world was too large: every later one is searched to the round's end.
            horizon = "round"
        elif an.too_large:
            break
        halted = (
            an.stopped
            or (stop is not None and stop.is_set())
            or (deadline is not None and time.perf_counter() >= deadline)
            or (budget.nodes is not None and (result.nodes or 0) >= budget.nodes)
        )
        if halted:
            result.stopped = True
            break
        if on_slice is not None:
            on_slice(result)
    if on_slice is not None:
        on_slice(result)
    return result
