"""Batch simulation: many hands or whole matches played by bots, results as numpy arrays.

    >>> import capturefast as cf
    >>> rules = cf.Rules.scopa(players=2)
    >>> result = cf.simulate(rules, hands=100_000, bots=("greedy", "random"), seed=1)
    >>> result.points.mean(axis=0)           # int16 (hands, 2): points per side
    array([3.02738, 1.34569])
    >>> print(result)                        # doctest: +ELLIPSIS
    scopa, 2 players, 100,000 deals, seed 1: A = greedy, B = random
                        A greedy            B random            A - B
      points per hand   3.027 ± 0.010       1.346 ± 0.008       +1.682 ± 0.017
    ...
    >>> df = result.to_pandas()              # one row per hand (needs pandas)

The loop runs in Rust with the GIL released, on every core (`threads=None`). Hand ``i`` draws
every random number (its deal, each bot's seed) from ``(seed, i)``, so a seed gives the same
arrays, bit for bit, whatever the number of threads.

Bots:
    A seat holds a built-in bot, by name (`cf.bot_names()`: ``random``, ``random_card``,
    ``greedy``, ``expert``; also the search bots ``pimc`` and ``ismcts``, which take
    milliseconds a move, optionally with a budget: ``pimc:worlds=400``,
    ``pimc:worlds=50,horizon=hand`` (solve each world to the end of the hand instead of the
    round), ``pimc:eval=equity`` (value the round's end by the hand-made equity instead of the
    tables fitted from the engine's own hands), ``pimc:infer=off`` (draw worlds uniformly instead of
    weighing them by the others' moves this round), ``pimc:draw=independent`` (draw each world
    apart from the others instead of spreading the unseen cards evenly over them),
    ``pimc:infer=search`` (weigh them by the
    round search's own values of those moves instead of the softened ``expert``'s: several times
    slower), ``pimc:endgame=round`` (search the
    second-to-last round of a 2-player hand to the round's end instead of solving it to the
    hand's end), ``pimc:sweep=1`` (weigh the next leader's chance to sweep, at the round's end,
    by 1 instead of 0.5: the default with the fitted tables and 2 players),
    ``ismcts:iterations=1000``, and ``ms=T``
    for either, a time limit per decision that makes the run depend on the machine), or any
    Python object with a ``choose(view)`` method. That method is passed the seat's `View`
    (what the seat may see, with ``legal_moves()``), never the full state, and returns one of
    ``view.legal_moves()`` (a `Move` or its notation). It may also define ``reset(seed)``,
    called before its first decision of each hand (of each match in matches mode) with a seed
    derived from the run's seed. A run with a Python bot in any seat runs on one thread, calling
    into Python at every decision of that seat: slower, but it works. An exception raised by the
    bot stops the run and is raised by `simulate`; a move that is not legal raises
    `IllegalMoveError` naming it.

Duplicate play:
    With ``duplicate=True`` every deal is played twice: first with the bots as given, then on
    the identical deal (same deck order, same dealer) with the bots of the two sides swapped.
    Each seat keeps its bot seed in both games. The per-deal difference between the two teams
    then cancels the luck of the cards, which narrows the confidence interval of a bot
    comparison.

Stopping:
    Ctrl-C stops a run at once, a search bot's decision in progress included (the deals in
    progress are dropped), and `simulate` returns what finished: ``completed`` is below
    ``requested``, ``interrupted`` is True, and the arrays hold the completed deals (a prefix
    of the run, the same rows an uninterrupted run starts with).
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, Protocol, TypeAlias

import numpy as np
import numpy.typing as npt

from capturefast._core import Move, Rules, View, sim_seeds, simulate_arrays
from capturefast.errors import ArgumentError, VariantError
from capturefast.variants import label

if TYPE_CHECKING:
    from capturefast.distributed import RayExecutor

__all__ = [
    "BotLike",
    "Estimate",
    "Executor",
    "ProgressBar",
    "PythonBot",
    "SimRequest",
    "SimulationResult",
    "Summary",
    "bot_label",
    "progress_callback",
    "simulate",
]

_MAX_SEED = 2**64 - 1
_MAX_ITEMS = 2**40
# Worker threads a run may ask for (as the command line's --threads).
MAX_THREADS = 1024
_Z95 = 1.959963984540054  # two-sided 95% quantile of the normal distribution


class PythonBot(Protocol):
    """A bot written in Python: ``choose`` gets the seat's `View` and returns a legal move."""

    def choose(self, state: View, /) -> Move | str:
        """One of ``state.legal_moves()``, as a `Move` or its notation."""
        ...


BotLike: TypeAlias = "str | PythonBot"
"""A built-in bot name or a Python bot."""

ProgressCallback: TypeAlias = Callable[[int, int], object]

Executor: TypeAlias = "str | RayExecutor"
"""Where a batch call runs: ``"ray"``, or a `capturefast.distributed.RayExecutor`."""


def bot_label(bot: BotLike) -> str:
    """The display name of a bot: its name, or a Python bot's ``name`` attribute or class name."""
    if isinstance(bot, str):
        return bot
    name = getattr(bot, "name", None)
    return name if isinstance(name, str) else type(bot).__name__


def _seat_bots(bots: Sequence[BotLike] | BotLike, players: int) -> list[BotLike]:
    """One bot per seat from one bot for every seat, one per side, or one per seat."""
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        return [bots] * players
    seats = list(bots)
    if len(seats) == players:
        return seats
    if len(seats) == 2:
        return [seats[s % 2] for s in range(players)]
    per_side = " (one per seat) or 2 (one per side)" if players == 4 else ""
    raise VariantError(f"{players} players need {players} bots{per_side}, got: {len(seats)}")


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got: {type(value).__name__}")
    if not 1 <= value <= _MAX_ITEMS:
        raise ArgumentError(f"{name} must be from 1 to {_MAX_ITEMS}, got: {value}")
    return value


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% confidence interval: the normal approximation (`of`), or for a
    rate Wilson's score interval (`rate`), which is not centred on the mean.

    Attributes:
        mean: the sample mean.
        half_width: half the width of the 95% interval: ``1.96 * sd / sqrt(n)`` for `of`;
            NaN with fewer than two samples (a rate's interval needs one).
        n: the number of independent samples (deals in duplicate mode).
        bounds: the interval's ends where it is not ``mean ± half_width`` (a rate's), else
            None.
    """

    mean: float
    half_width: float
    n: int
    bounds: tuple[float, float] | None = None

    @classmethod
    def of(cls, x: npt.NDArray[Any]) -> Estimate:
        """The estimate of the mean of the samples ``x``."""
        n = len(x)
        if n == 0:
            return cls(math.nan, math.nan, 0)
        values = x.astype(np.float64)
        mean = float(values.mean())
        half = _Z95 * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
        return cls(mean, half, n)

    @classmethod
    def rate(cls, x: npt.NDArray[Any], outcomes: int = 1) -> Estimate:
        """The estimate of a rate from samples ``x``: each one outcome, 0 or 1, or the mean of
        ``outcomes`` of them (the two games of a duplicate deal).

        The interval is Wilson's score interval: it stays within 0 and 1, and keeps a width
        when every outcome is the same, where the normal approximation's shrinks to nothing
        (``100.0% ± 0.0`` from 3 hands). Over means of several outcomes its sample size is
        the effective one, ``p (1 - p)`` over the variance of the mean read from the samples
        (Kish's), so that a duplicate run keeps the precision its pairing gives; where the
        samples have no spread to read it from, the number of outcomes.
        """
        n = len(x)
        if n == 0:
            return cls(math.nan, math.nan, 0)
        values = x.astype(np.float64)
        p = float(values.mean())
        size = float(n * outcomes)
        if outcomes > 1 and n > 1 and 0.0 < p < 1.0:
            variance = float(values.var(ddof=1)) / n
            if variance > 0.0:
                size = p * (1.0 - p) / variance
        low, high = _wilson(p, size)
        return cls(p, (high - low) / 2, n, (low, high))

    @property
    def low(self) -> float:
        """The lower end of the interval."""
        return self.mean - self.half_width if self.bounds is None else self.bounds[0]

    @property
    def high(self) -> float:
        """The upper end of the interval."""
        return self.mean + self.half_width if self.bounds is None else self.bounds[1]

    def to_dict(self) -> dict[str, Any]:
        """``{"mean", "ci": [low, high], "n"}`` (JSON-ready: NaN becomes None)."""

        def num(v: float) -> float | None:
            return None if math.isnan(v) else v

        return {"mean": num(self.mean), "ci": [num(self.low), num(self.high)], "n": self.n}

    def format(self, digits: int = 3, *, percent: bool = False, sign: bool = False) -> str:
        """``mean ± half_width``, or ``mean (low-high)`` where the interval is not centred on
        the mean (a rate's); optionally as percentages or with a sign."""
        scale, unit = (100.0, "%") if percent else (1.0, "")
        d = 1 if percent else digits
        plus = "+" if sign else ""
        mean = f"{self.mean * scale:{plus}.{d}f}{unit}"
        if math.isnan(self.half_width):
            return mean
        if self.bounds is not None:
            return f"{mean} ({self.low * scale:.{d}f}-{self.high * scale:.{d}f})"
        return f"{mean} ± {self.half_width * scale:.{d}f}"

    def __str__(self) -> str:
        return self.format()


def _wilson(p: float, n: float) -> tuple[float, float]:
    """Wilson's 95% score interval of a proportion ``p`` observed over ``n`` trials."""
    z2 = _Z95 * _Z95
    scale = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / scale
    half = _Z95 * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / scale
    # At p = 0 (or 1) the lower (upper) end is 0 (1) exactly; rounding would leave 5e-17.
    low = 0.0 if p <= 0.0 else max(0.0, centre - half)
    high = 1.0 if p >= 1.0 else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class Summary:
    """Means and 95% confidence intervals of a simulation, per team.

    Team A is the bots on side 0 (seats 0 and 2) in the first game of each deal, team B the
    others; without duplicate play team = side. In duplicate mode the intervals of per-hand
    figures are computed over deals (the mean of the two games of a deal), which is what
    makes the difference between the teams precise. The rates (categories, matches won) have
    Wilson's score interval (`Estimate.rate`), printed as a range: ``100.0% (43.9-100.0)``
    from 3 hands, where the normal approximation's ``± 0.0`` claimed a certainty it has not.

    Attributes:
        teams: the teams' names.
        hands: hands played.
        points: points per hand, team A then B.
        difference: points per hand of A minus B.
        sweeps: sweeps per hand, A then B.
        categories: per category (``rules.categories`` order), the rate at which A wins it, B
            wins it, and nobody does (a tie).
        matches: matches played (0 in hands mode).
        wins: matches mode: the rate at which A, then B, wins a match.
        hands_per_match: matches mode: hands per match.
    """

    teams: tuple[str, str]
    hands: int
    points: tuple[Estimate, Estimate]
    difference: Estimate
    sweeps: tuple[Estimate, Estimate]
    categories: dict[str, tuple[Estimate, Estimate, Estimate]]
    matches: int = 0
    wins: tuple[Estimate, Estimate] | None = None
    hands_per_match: Estimate | None = None

    def to_dict(self) -> dict[str, Any]:
        """A plain, JSON-ready dict of every figure."""
        d: dict[str, Any] = {
            "teams": list(self.teams),
            "hands": self.hands,
            "points": [e.to_dict() for e in self.points],
            "difference": self.difference.to_dict(),
            "sweeps": [e.to_dict() for e in self.sweeps],
            "categories": {
                name: {"A": a.to_dict(), "B": b.to_dict(), "tie": t.to_dict()}
                for name, (a, b, t) in self.categories.items()
            },
        }
        if self.wins is not None and self.hands_per_match is not None:
            d["matches"] = self.matches
            d["wins"] = [e.to_dict() for e in self.wins]
            d["hands_per_match"] = self.hands_per_match.to_dict()
        return d

    def __str__(self) -> str:
        """`table`: ``print(result.summary())`` shows the figures, not the dataclass fields."""
        return self.table()

    def table(self) -> str:
        """The figures as an aligned text table."""
        a, b = self.teams
        rows: list[tuple[str, str, str, str]] = [("", f"A {a}", f"B {b}", "A - B")]
        pa, pb = self.points
        sa, sb = self.sweeps
        rows.append(("points per hand", str(pa), str(pb), self.difference.format(sign=True)))
        rows.append(("sweeps per hand", str(sa), str(sb), ""))
        for name, (wa, wb, tie) in self.categories.items():
            rows.append(
                (name, wa.format(percent=True), wb.format(percent=True), f"tie {tie.mean:.1%}")
            )
        if self.wins is not None and self.hands_per_match is not None:
            wins = tuple(e.format(percent=True) for e in self.wins)
            rows.append(("matches won", wins[0], wins[1], ""))
            rows.append(("hands per match", self.hands_per_match.format(2), "", ""))
        width = [max(len(r[i]) for r in rows) for i in range(4)]
        return "\n".join(
            "  " + "   ".join(f"{c:<{w}}" for c, w in zip(r, width, strict=True)).rstrip()
            for r in rows
        )


class ProgressBar:
    """A one-line progress bar on a text stream (stderr by default), usable as ``progress=``."""

    def __init__(self, unit: str = "hands", stream: IO[str] | None = None, width: int = 28):
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.start = time.perf_counter()
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        """Redraws the bar: ``done`` of ``total`` finished."""
        frac = done / total if total else 1.0
        full = int(frac * self.width)
        elapsed = time.perf_counter() - self.start
        eta = f", {elapsed * (1 - frac) / frac:.0f} s left" if 0 < frac < 1 else ""
        bar = "#" * full + "." * (self.width - full)
        self.stream.write(
            f"\r[{bar}] {frac:4.0%} {done:,}/{total:,} {self.unit} ({elapsed:.1f} s{eta})  "
        )
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """Ends the bar's line."""
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


def progress_callback(
    progress: bool | ProgressCallback, unit: str
) -> tuple[ProgressBar | None, ProgressCallback | None]:
    """The bar to close (if ``progress`` is True) and the callback to pass for ``progress``."""
    if isinstance(progress, bool):
        bar = ProgressBar(unit) if progress else None
        return bar, bar
    if not callable(progress):
        raise TypeError(f"progress must be a bool or a callable, got: {type(progress).__name__}")
    return None, progress


Int16Array: TypeAlias = npt.NDArray[np.int16]
Int8Array: TypeAlias = npt.NDArray[np.int8]
Int32Array: TypeAlias = npt.NDArray[np.int32]


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """The results of `simulate`: numpy arrays, one row per hand (and per match).

    Rows are in deal order: in hands mode row ``d`` is deal ``d`` (rows ``2d`` and ``2d + 1``
    in duplicate mode, the second with the bots swapped); in matches mode the rows of each
    match's hands follow each other, matches in order (``match_hands`` gives their counts), and
    in duplicate mode match ``m`` is played as matches ``2m`` and ``2m + 1`` of the per-match
    arrays, the second with the bots swapped.

    Attributes:
        rules: the rules played.
        bots: the name of the bot in each seat, as seated in the first game of each deal.
        mode: ``"hands"`` or ``"matches"``.
        duplicate: whether each deal was played twice with the sides' bots swapped.
        seed: the run's seed.
        requested: deals (hands mode) or matches asked for.
        completed: deals or matches finished: ``requested``, unless the run was interrupted.
        interrupted: whether Ctrl-C stopped the run early.
        threads: threads used.
        seconds: wall-clock time of the run.
        points: int16, shape (hands, 2): points per side: categories, sweeps and bonuses
            (declarations, napola, re bello, grande and the like, where the rules have them).
        awards: int8, shape (hands, 4): for each category in ``rules.categories`` order, the
            side that won it, or -1 for a tie.
        sweeps: int8, shape (hands, 2): sweeps per side.
        dealer: int8, shape (hands,): the dealer's seat.
        match_scores: matches mode: int32, shape (matches, 2): final scores per side.
        match_winner: matches mode: int8, shape (matches,): the side that won, or -1 for a
            match that reached 10,000 hands without a winner and was cut there (bots that
            never score).
        match_hands: matches mode: int32, shape (matches,): hands the match lasted.
    """

    rules: Rules
    bots: tuple[str, ...]
    mode: str
    duplicate: bool
    seed: int
    requested: int
    completed: int
    interrupted: bool
    threads: int
    seconds: float
    points: Int16Array
    awards: Int8Array
    sweeps: Int8Array
    dealer: Int8Array
    match_scores: Int32Array | None = None
    match_winner: Int8Array | None = None
    match_hands: Int32Array | None = None

    # ----- shape -----

    @property
    def games_per_deal(self) -> int:
        """2 in duplicate mode, else 1."""
        return 2 if self.duplicate else 1

    @property
    def num_hands(self) -> int:
        """Hands played (rows of the per-hand arrays)."""
        return len(self.points)

    @property
    def num_matches(self) -> int:
        """Matches played (0 in hands mode)."""
        return 0 if self.match_hands is None else len(self.match_hands)

    @property
    def teams(self) -> tuple[str, str]:
        """The names of team A (side 0 in the first game of a deal) and team B."""
        n = len(self.bots)

        def team(side: int) -> str:
            names = [self.bots[s] for s in range(side, n, 2)]
            return names[0] if len(set(names)) == 1 else "+".join(names)

        return team(0), team(1)

    @property
    def hand_match(self) -> npt.NDArray[np.int64]:
        """The deal (hands mode) or match (matches mode) of each hand row, int64 (hands,),
        numbered as the run deals them: the number `deal_seed` takes and a record's ``Item``
        header. Both games of a duplicate deal or match share it (`swapped` tells them apart)."""
        if self.match_hands is None:
            return np.arange(self.num_hands, dtype=np.int64) // self.games_per_deal
        item = np.arange(self.num_matches, dtype=np.int64) // self.games_per_deal
        return np.repeat(item, self.match_hands)

    @property
    def swapped(self) -> npt.NDArray[np.bool_]:
        """bool (hands,): whether the hand was played with the bots swapped (team A on side 1)."""
        if not self.duplicate:
            return np.zeros(self.num_hands, dtype=np.bool_)
        odd: npt.NDArray[np.bool_]
        if self.match_hands is None:
            odd = np.arange(self.num_hands) % 2 == 1
            return odd
        odd = np.arange(self.num_matches) % 2 == 1
        return np.repeat(odd, self.match_hands)

    def by_team(self, per_side: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """A (hands, 2) per-side array with its columns put in team order (A, B)."""
        if not self.duplicate:
            return per_side
        flip = self.swapped[:, None]
        return np.where(flip, per_side[:, ::-1], per_side)

    def deal_seed(self, deal: int) -> int:
        """The seed with which ``cf.State.new(rules, seed)`` deals deal (or match) ``deal``.

        A match deals its later hands from the same state's generator (``state.next_hand()``).
        """
        return sim_seeds(self.seed, deal, self.rules.players)[0]

    def bot_seeds(self, deal: int) -> list[int]:
        """The seed of each seat's bot for deal (or match) ``deal``, the same in both games."""
        return sim_seeds(self.seed, deal, self.rules.players)[1]

    # ----- statistics -----

    def summary(self) -> Summary:
        """Means and 95% confidence intervals per team; see `Summary`."""
        paired = self.duplicate and self.mode == "hands"

        def est(x: npt.NDArray[Any]) -> Estimate:
            if paired and len(x):
                x = x.astype(np.float64).reshape(-1, 2).mean(axis=1)
            return Estimate.of(x)

        def rate(x: npt.NDArray[Any], pairs: bool = paired) -> Estimate:
            if pairs and len(x):
                return Estimate.rate(x.astype(np.float64).reshape(-1, 2).mean(axis=1), 2)
            return Estimate.rate(x)

        pts = self.by_team(self.points)
        sw = self.by_team(self.sweeps)
        swapped = self.swapped[:, None]
        awards = np.where(self.awards < 0, -1, self.awards ^ swapped.astype(np.int8))
        categories = {
            name: (
                rate(awards[:, i] == 0),
                rate(awards[:, i] == 1),
                rate(awards[:, i] < 0),
            )
            for i, name in enumerate(self.rules.categories)
        }
        wins = hands_per_match = None
        if self.match_winner is not None and self.match_hands is not None:
            flip = np.arange(self.num_matches) % 2 == 1 if self.duplicate else False
            # -1: a match cut at 10,000 hands, won by neither team.
            finished = self.match_winner >= 0
            team_a_won = finished & ((self.match_winner == 0) != flip)
            team_b_won = finished & ~team_a_won

            def per_deal(x: npt.NDArray[Any]) -> Estimate:
                if self.duplicate and len(x):
                    x = x.astype(np.float64).reshape(-1, 2).mean(axis=1)
                return Estimate.of(x)

            wins = (rate(team_a_won, self.duplicate), rate(team_b_won, self.duplicate))
            hands_per_match = per_deal(self.match_hands)
        return Summary(
            teams=self.teams,
            hands=self.num_hands,
            points=(est(pts[:, 0]), est(pts[:, 1])),
            difference=est(pts[:, 0].astype(np.int32) - pts[:, 1]),
            sweeps=(est(sw[:, 0]), est(sw[:, 1])),
            categories=categories,
            matches=self.num_matches,
            wins=wins,
            hands_per_match=hands_per_match,
        )

    # ----- export -----

    def columns(self, level: str = "hands") -> dict[str, npt.NDArray[Any]]:
        """Named 1-D columns, one row per hand (``level="hands"``) or per match ("matches").

        Hands: ``deal`` (or ``match``), ``swapped``, ``dealer``, ``points_0``, ``points_1``,
        ``sweeps_0``, ``sweeps_1``, then one column per category (the side that won it, -1 for a
        tie). Matches: ``match``, ``swapped``, ``score_0``, ``score_1``, ``winner``, ``hands``.

        ``deal`` and ``match`` number the deals or matches as the run deals them (`hand_match`:
        `deal_seed`'s number, a record's ``Item``). In duplicate mode each is played twice, so
        two rows (two hands, or two matches) share the number: ``swapped`` is 0 in the first,
        1 in the second, where the bots of the two sides are swapped.
        """
        if level == "hands":
            key = "deal" if self.mode == "hands" else "match"
            cols: dict[str, npt.NDArray[Any]] = {
                key: self.hand_match,
                "swapped": self.swapped,
                "dealer": self.dealer,
                "points_0": self.points[:, 0],
                "points_1": self.points[:, 1],
                "sweeps_0": self.sweeps[:, 0],
                "sweeps_1": self.sweeps[:, 1],
            }
            for i, name in enumerate(self.rules.categories):
                cols[name] = self.awards[:, i]
            return cols
        if level == "matches":
            if self.match_scores is None or self.match_winner is None or self.match_hands is None:
                raise VariantError("per-match columns need a matches-mode run: level: matches")
            m = self.num_matches
            return {
                "match": np.arange(m, dtype=np.int64) // self.games_per_deal,
                "swapped": (np.arange(m) % 2 == 1) & self.duplicate,
                "score_0": self.match_scores[:, 0],
                "score_1": self.match_scores[:, 1],
                "winner": self.match_winner,
                "hands": self.match_hands,
            }
        raise VariantError(f"level must be hands or matches, got: {level}")

    def to_pandas(self, level: str = "hands") -> Any:
        """A pandas DataFrame of `columns(level)` (pandas is imported only here)."""
        import importlib

        pd = importlib.import_module("pandas")
        return pd.DataFrame(self.columns(level))

    def to_dict(self) -> dict[str, Any]:
        """The run's settings and `summary()` as a JSON-ready dict (not the per-hand arrays)."""
        return {
            "game": self.rules.game,
            "players": self.rules.players,
            "options": self.rules.options,
            "bots": list(self.bots),
            "mode": self.mode,
            "duplicate": self.duplicate,
            "seed": self.seed,
            "requested": self.requested,
            "completed": self.completed,
            "interrupted": self.interrupted,
            "threads": self.threads,
            "seconds": self.seconds,
            "summary": self.summary().to_dict(),
        }

    def headline(self) -> str:
        """One line: the game (and the rules when they are not its defaults, `variants.label`),
        the count, the bots."""
        a, b = self.teams
        unit = "deals" if self.mode == "hands" else "matches"
        count = f"{self.completed:,} {unit}"
        if self.duplicate:
            count += f" x 2 (duplicate: {self.num_hands:,} hands)"
        elif self.mode == "matches":
            count += f" ({self.num_hands:,} hands)"
        return (
            f"{label(self.rules)}, {self.rules.players} players, {count}, "
            f"seed {self.seed}: A = {a}, B = {b}"
        )

    def __str__(self) -> str:
        lines = [self.headline()]
        if self.interrupted:
            lines.append(f"interrupted: {self.completed:,} of {self.requested:,} finished")
        lines.append(self.summary().table() if self.num_hands else "  no hand finished")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"<SimulationResult {self.rules.game} {self.rules.players}p {self.mode} "
            f"bots={list(self.bots)} completed={self.completed}/{self.requested}>"
        )


# The dtypes and row widths of the simulation columns (`simulate_arrays`), for a run of which
# no part finished.
_EMPTY_COLUMNS: dict[str, tuple[type[np.generic], tuple[int, ...]]] = {
    "points": (np.int16, (0, 2)),
    "awards": (np.int8, (0, 4)),
    "sweeps": (np.int8, (0, 2)),
    "dealer": (np.int8, (0,)),
    "match_scores": (np.int32, (0, 2)),
    "match_winner": (np.int8, (0,)),
    "match_hands": (np.int32, (0,)),
}
_MATCH_COLUMNS = ("match_scores", "match_winner", "match_hands")


@dataclass(frozen=True)
class SimRequest:
    """A `simulate` call with its arguments checked: what a run, or each shard of one, plays.

    Attributes:
        rules: the rules played.
        seats: one bot per seat.
        mode: ``"hands"`` or ``"matches"``.
        count: deals or matches asked for.
        duplicate: whether each deal is played twice with the sides' bots swapped.
        seed: the run's seed.
        threads: worker threads (None: every core).
    """

    rules: Rules
    seats: tuple[BotLike, ...]
    mode: str
    count: int
    duplicate: bool
    seed: int
    threads: int | None

    @classmethod
    def of(
        cls,
        rules: Rules,
        hands: int | None,
        matches: int | None,
        bots: Sequence[BotLike] | BotLike,
        duplicate: bool,
        seed: int,
        threads: int | None,
    ) -> SimRequest:
        """Checks the arguments of `simulate` (see it for the errors raised)."""
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a capturefast.Rules, got: {type(rules).__name__}")
        if (hands is None) == (matches is None):
            raise VariantError("give either hands or matches, not both or neither")
        count = _count("hands", hands) if hands is not None else _count("matches", matches)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an int, got: {type(seed).__name__}")
        if not 0 <= seed <= _MAX_SEED:
            raise ArgumentError(f"seed must be from 0 to 2**64 - 1, got: {seed}")
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)):
            raise TypeError(f"threads must be an int or None, got: {type(threads).__name__}")
        if threads is not None and not 1 <= threads <= MAX_THREADS:
            raise ArgumentError(
                f"threads must be from 1 to {MAX_THREADS}, or None for every core, got: {threads}"
            )
        seats = tuple(_seat_bots(bots, rules.players))
        mode = "hands" if hands is not None else "matches"
        return cls(rules, seats, mode, count, duplicate, seed, threads)

    @property
    def unit(self) -> str:
        """What an item is, for a progress bar: ``"deals"`` or ``"matches"``."""
        return "deals" if self.mode == "hands" else "matches"

    def run(
        self,
        first: int = 0,
        count: int | None = None,
        *,
        threads: int | None = None,
        progress: ProgressCallback | None = None,
        dry_run: bool = False,
        trace: bool = False,
    ) -> dict[str, Any]:
        """The raw columns of items ``first .. first + count`` of the run (all of it by default),
        as `simulate_arrays` returns them; ``dry_run`` checks what only the core checks (bot
        names and budgets, bots the variant refuses) and plays nothing; ``trace`` adds every
        hand's deal and moves."""
        return simulate_arrays(
            self.rules,
            list(self.seats),
            self.count if count is None else count,
            matches=self.mode == "matches",
            duplicate=self.duplicate,
            seed=self.seed,
            threads=self.threads if threads is None else threads,
            progress=progress,
            first=first,
            dry_run=dry_run,
            trace=trace,
        )

    def merge(
        self, parts: Sequence[dict[str, Any] | None], counts: Sequence[int]
    ) -> tuple[dict[str, Any], int]:
        """The columns of consecutive parts of the run (``counts[i]`` items asked of part
        ``i``; None for a part that did not run) joined in item order, up to the first part
        missing or cut short, and the items they hold."""
        kept: list[dict[str, Any]] = []
        completed = 0
        for raw, n in zip(parts, counts, strict=True):
            if raw is None:
                break
            kept.append(raw)
            completed += raw["completed"]
            if raw["completed"] < n:
                break
        out: dict[str, Any] = {}
        for key, (dtype, shape) in _EMPTY_COLUMNS.items():
            if key in _MATCH_COLUMNS and self.mode == "hands":
                out[key] = None
            elif kept:
                out[key] = np.concatenate([raw[key] for raw in kept])
            else:
                out[key] = np.zeros(shape, dtype=dtype)
        return out, completed

    def result(self, raw: dict[str, Any], seconds: float) -> SimulationResult:
        """The `SimulationResult` of the whole run's raw columns."""
        return SimulationResult(
            rules=self.rules,
            bots=tuple(bot_label(b) for b in self.seats),
            mode=self.mode,
            duplicate=self.duplicate,
            seed=self.seed,
            requested=self.count,
            completed=raw["completed"],
            interrupted=raw["interrupted"],
            threads=raw["threads"],
            seconds=seconds,
            points=raw["points"],
            awards=raw["awards"],
            sweeps=raw["sweeps"],
            dealer=raw["dealer"],
            match_scores=raw["match_scores"],
            match_winner=raw["match_winner"],
            match_hands=raw["match_hands"],
        )


def simulate(
    rules: Rules,
    hands: int | None = None,
    *,
    matches: int | None = None,
    bots: Sequence[BotLike] | BotLike = "random",
    duplicate: bool = False,
    seed: int = 0,
    threads: int | None = None,
    progress: bool | ProgressCallback = False,
    executor: Executor | None = None,
    records: str | os.PathLike[str] | IO[str] | None = None,
) -> SimulationResult:
    """Plays ``hands`` independent hands, or ``matches`` whole matches, with bots in the seats.

    Args:
        rules: the game, players and variant.
        hands: the number of deals to play (each one hand, or two in duplicate mode).
        matches: instead of ``hands``: the number of matches, each played to the target.
        bots: a bot for every seat; one per side (seats ``s`` and ``s + 2`` share); or one per
            seat. A bot is a built-in name (`bot_names()`) or an object with a
            ``choose(view) -> move`` method (see the module docs).
        duplicate: play every deal twice, the second time with the sides' bots swapped.
        seed: every random number of the run derives from it (``0 <= seed < 2**64``).
        threads: worker threads; None uses every core. Python bots force one thread. With an
            executor: the threads of each shard (None: the executor's).
        progress: True draws a progress bar on stderr; a callable is called as
            ``progress(done, total)`` about every 50 ms (deals or matches).
        executor: None runs here; ``"ray"`` or a `capturefast.distributed.RayExecutor` runs the
            deals in shards on a Ray cluster (docs/distributed.md), with the same results.
        records: a path (created or replaced) or an open text file to which the game record
            of every game played is written (docs/records.md): one per hand, or per match.
            They are written batch by batch as the run goes, so a run of any length holds
            only a batch of them. The results are the same as without.

    Returns:
        A `SimulationResult`. After Ctrl-C, the result of the deals that finished.

    Raises:
        VariantError: (a ValueError) an unknown bot name, a wrong number of bots, or both or
            neither of ``hands`` and ``matches``.
        ArgumentError: (a ValueError) a count, a seed or a thread count out of range.
        TypeError: an argument of the wrong type.
        IllegalMoveError: a Python bot chose a move that is not legal.
    """
    req = SimRequest.of(rules, hands, matches, bots, duplicate, seed, threads)
    if executor is not None:
        if records is not None:
            raise ArgumentError(
                "records= is written by a run on this machine; on a cluster, write each "
                "shard's games with RayExecutor(shard_hook=...), got: records with an executor"
            )
        from capturefast import distributed

        return distributed.simulate_request(req, executor, progress)
    bar, callback = progress_callback(progress, req.unit)
    t0 = time.perf_counter()
    try:
        if records is not None:
            from capturefast.records import simulate_records

            req.run(dry_run=True)  # a bad bot is refused before the file is created
            raw = simulate_records(req, records, callback)
        else:
            raw = req.run(progress=callback)
    finally:
        if bar is not None:
            bar.close()
    return req.result(raw, time.perf_counter() - t0)
