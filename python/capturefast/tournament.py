"""Round-robin tournaments of bots on duplicate deals.

    >>> import capturefast as cf
    >>> t = cf.tournament(cf.Rules.scopa(), ["random", "random_card", "greedy"], hands=10_000)
    >>> print(t)                  # doctest: +ELLIPSIS
    tournament: scopa, 2 players, 10,000 duplicate deals per pair, seed 0
    points per hand, row bot minus column bot (95% CI):
    ...

Every pair of bots plays the same ``hands`` deals in duplicate (each deal twice, the bots
swapping sides), so every comparison sees the same cards. For a pair (a, b) the figure is the
mean of a's points per hand minus b's, computed per deal (the mean over the deal's two games),
with a 95% confidence interval over deals. The ranking orders the bots by their mean
difference against the whole field: per deal, the mean of their differences against every
other bot, then the mean and interval over deals.

A tournament plays single hands, never matches: the options that matter only in matches
(`variants.MATCH_OPTIONS`: ``target``, ``all_coins_wins``) have no say in it, and the command
line refuses them with ``--set``.

With 4 players each bot of a pair plays in partnership with a copy of itself: seats 0 and 2
(a, a) against seats 1 and 3 (b, b), the sides swapped in the deal's second game.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from capturefast._core import Rules
from capturefast.errors import VariantError
from capturefast.sim import (
    BotLike,
    Estimate,
    Executor,
    ProgressCallback,
    SimRequest,
    SimulationResult,
    bot_label,
    progress_callback,
)
from capturefast.variants import label

__all__ = ["Standing", "TournamentPlan", "TournamentResult", "tournament"]


@dataclass(frozen=True)
class Standing:
    """One bot's place in the ranking.

    Attributes:
        rank: 1 for the best.
        name: the bot's name.
        difference: its points per hand minus its opponents', averaged over the field, with the
            95% interval over deals.
    """

    rank: int
    name: str
    difference: Estimate

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"rank": self.rank, "name": self.name, "difference": self.difference.to_dict()}


def _deal_differences(r: SimulationResult) -> npt.NDArray[np.float64]:
    """Per deal of a duplicate hands run: team A's points minus B's, mean of the two games."""
    pts = r.by_team(r.points).astype(np.float64)
    per_deal: npt.NDArray[np.float64] = (pts[:, 0] - pts[:, 1]).reshape(-1, 2).mean(axis=1)
    return per_deal


@dataclass(frozen=True, eq=False)
class TournamentResult:
    """The results of `tournament`.

    Attributes:
        rules: the rules played.
        names: the bots' names (made unique with ``#2``, ``#3`` where repeated).
        hands: deals per pair asked for (each played twice).
        seed: the seed: every pair plays the deals of this seed.
        results: the run of each pair ``(i, j)``, ``i < j``, bot ``i`` as team A.
        interrupted: whether Ctrl-C stopped the tournament (pairs not reached have no run).
        seconds: wall-clock time.
    """

    rules: Rules
    names: tuple[str, ...]
    hands: int
    seed: int
    results: dict[tuple[int, int], SimulationResult]
    interrupted: bool
    seconds: float

    def pair(self, i: int, j: int) -> Estimate:
        """Bot ``i``'s points per hand minus bot ``j``'s, over their deals."""
        if i == j:
            return Estimate(0.0, math.nan, 0)
        r = self.results.get((min(i, j), max(i, j)))
        if r is None:
            return Estimate(math.nan, math.nan, 0)
        d = _deal_differences(r)
        return Estimate.of(d if i < j else -d)

    def table(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The mean differences (row bot minus column bot) and their interval half-widths,
        float64 (k, k); the diagonal and pairs not played are NaN."""
        k = len(self.names)
        mean = np.full((k, k), np.nan)
        half = np.full((k, k), np.nan)
        for i in range(k):
            for j in range(k):
                if i != j:
                    e = self.pair(i, j)
                    mean[i, j], half[i, j] = e.mean, e.half_width
        return mean, half

    def ranking(self) -> list[Standing]:
        """The bots by mean difference against the field, best first, over the deals that
        every pair finished (empty if a pair has none)."""
        k = len(self.names)
        pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
        if any(p not in self.results for p in pairs):
            return []
        deals = min(self.results[p].completed for p in pairs)
        if deals == 0:
            return []
        field = np.zeros((k, deals))
        for i, j in pairs:
            d = _deal_differences(self.results[(i, j)])[:deals]
            field[i] += d
            field[j] -= d
        field /= k - 1
        scores = [Estimate.of(field[i]) for i in range(k)]
        order = sorted(range(k), key=lambda i: -scores[i].mean)
        return [Standing(rank, self.names[i], scores[i]) for rank, i in enumerate(order, 1)]

    def to_dict(self) -> dict[str, Any]:
        """Settings, the pairwise table and the ranking, JSON-ready."""
        k = len(self.names)
        return {
            "game": self.rules.game,
            "players": self.rules.players,
            "options": self.rules.options,
            "bots": list(self.names),
            "hands": self.hands,
            "seed": self.seed,
            "interrupted": self.interrupted,
            "seconds": self.seconds,
            "pairs": [
                {
                    "a": self.names[i],
                    "b": self.names[j],
                    "deals": self.results[(i, j)].completed,
                    "difference": self.pair(i, j).to_dict(),
                }
                for i in range(k)
                for j in range(i + 1, k)
                if (i, j) in self.results
            ],
            "ranking": [s.to_dict() for s in self.ranking()],
        }

    def to_pandas(self) -> Any:
        """A pandas DataFrame of the pairwise table (row minus column), pandas imported here."""
        import importlib

        pd = importlib.import_module("pandas")
        mean, _ = self.table()
        return pd.DataFrame(mean, index=list(self.names), columns=list(self.names))

    def __str__(self) -> str:
        k = len(self.names)
        lines = [
            f"tournament: {label(self.rules)}, {self.rules.players} players, "
            f"{self.hands:,} duplicate deals per pair, seed {self.seed}"
        ]
        if self.interrupted:
            lines.append("interrupted: the figures cover the deals that finished")
        lines.append("points per hand, row bot minus column bot (95% CI):")
        cells = [["", *self.names]]
        for i in range(k):
            row = [self.names[i]]
            for j in range(k):
                e = self.pair(i, j)
                row.append("." if i == j else "-" if e.n == 0 else e.format(sign=True))
            cells.append(row)
        width = [max(len(r[c]) for r in cells) for c in range(k + 1)]
        lines += [
            "  " + "   ".join(f"{c:<{w}}" for c, w in zip(r, width, strict=True)).rstrip()
            for r in cells
        ]
        ranking = self.ranking()
        if ranking:
            lines.append("ranking (points per hand minus the opponents', against the field):")
            w = max(len(s.name) for s in ranking)
            lines += [
                f"  {s.rank}. {s.name:<{w}}  {s.difference.format(sign=True)}" for s in ranking
            ]
        else:
            lines.append("ranking: not every pair has finished a deal")
        return "\n".join(lines)


@dataclass(frozen=True)
class TournamentPlan:
    """A `tournament` call with its arguments checked: the pairs and the run of each.

    Attributes:
        rules: the rules played.
        names: the bots' unique names.
        hands: deals per pair.
        seed: the seed of every pair's deals.
        pairs: the pairs ``(i, j)``, ``i < j``, in the order they are played.
        requests: the checked `simulate` call of each pair (duplicate, bot ``i`` as team A).
    """

    rules: Rules
    names: tuple[str, ...]
    hands: int
    seed: int
    pairs: tuple[tuple[int, int], ...]
    requests: tuple[SimRequest, ...]

    @classmethod
    def of(
        cls,
        rules: Rules,
        bots: Sequence[BotLike],
        hands: int,
        seed: int,
        threads: int | None,
    ) -> TournamentPlan:
        """Checks the arguments of `tournament` (see it for the errors raised)."""
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a capturefast.Rules, got: {type(rules).__name__}")
        if isinstance(bots, str):
            raise TypeError(f"bots must be a list of bots, got a string: {bots!r}")
        seats = list(bots)
        if len(seats) < 2:
            raise VariantError(f"a tournament needs at least 2 bots, got: {len(seats)}")
        names: list[str] = []
        for b in seats:
            base = bot_label(b)
            name, n = base, 1
            while name in names:
                n += 1
                name = f"{base}#{n}"
            names.append(name)
        pairs = tuple((i, j) for i in range(len(seats)) for j in range(i + 1, len(seats)))
        requests = tuple(
            SimRequest.of(rules, hands, None, (seats[i], seats[j]), True, seed, threads)
            for i, j in pairs
        )
        return cls(rules, tuple(names), hands, seed, pairs, requests)

    @property
    def total(self) -> int:
        """Deals over the whole tournament."""
        return len(self.pairs) * self.hands

    def result(
        self,
        results: dict[tuple[int, int], SimulationResult],
        interrupted: bool,
        seconds: float,
    ) -> TournamentResult:
        """The `TournamentResult` of the pairs' runs."""
        return TournamentResult(
            rules=self.rules,
            names=self.names,
            hands=self.hands,
            seed=self.seed,
            results=results,
            interrupted=interrupted,
            seconds=seconds,
        )


def tournament(
    rules: Rules,
    bots: Sequence[BotLike],
    hands: int,
    *,
    seed: int = 0,
    threads: int | None = None,
    progress: bool | ProgressCallback = False,
    executor: Executor | None = None,
) -> TournamentResult:
    """A round robin: every pair of ``bots`` plays ``hands`` duplicate deals (the same deals for
    every pair), with `simulate` (``duplicate=True``).

    Args:
        rules: the game, players and variant.
        bots: two or more bots: built-in names or Python bots (see `simulate`).
        hands: deals per pair; each is played twice, the bots swapping sides.
        seed: the seed of the deals, shared by every pair.
        threads: worker threads; None uses every core (with an executor: see `simulate`).
        progress: True draws a progress bar on stderr; a callable gets ``(done, total)`` deals
            over the whole tournament.
        executor: None runs here; ``"ray"`` or a `capturefast.distributed.RayExecutor` runs
            every pair's deals in shards on a Ray cluster, all pairs at once, with the same
            results (docs/distributed.md).

    Returns:
        A `TournamentResult`. After Ctrl-C, the pairs that finished and the one interrupted
        (with an executor: every pair with the deals it finished, a prefix of its run).

    Raises:
        VariantError: fewer than two bots, or an argument `simulate` refuses.
    """
    plan = TournamentPlan.of(rules, bots, hands, seed, threads)
    if executor is not None:
        from capturefast import distributed

        return distributed.tournament_plan(plan, executor, progress)
    bar, callback = progress_callback(progress, "deals")
    results: dict[tuple[int, int], SimulationResult] = {}
    interrupted = False
    t0 = time.perf_counter()
    try:
        for k, (pair, req) in enumerate(zip(plan.pairs, plan.requests, strict=True)):
            offset = k * hands

            def report(done: int, _total: int, offset: int = offset) -> None:
                if callback is not None:
                    callback(offset + done, plan.total)

            t1 = time.perf_counter()
            raw = req.run(progress=report if callback is not None else None)
            r = req.result(raw, time.perf_counter() - t1)
            results[pair] = r
            if r.interrupted:
                interrupted = True
                break
    finally:
        if bar is not None:
            bar.close()
    return plan.result(results, interrupted, time.perf_counter() - t0)
