"""Solver queries as a user calls them from Python: `cf.solve`, `cf.analyze`, and the batch forms.

Usage: python benches/solve_queries.py [--positions N] [--games scopa,escoba,chkobba]

For each game (2 players) and each number of plies left (6, 12, 18, 24 and the whole hand), N
positions are reached by uniformly random play from seeded deals. Each position is queried
once, in turn, and every call is timed alone with `time.perf_counter_ns`, so the figures hold
every overhead a user pays: argument checks, the binding, the table. The table prints the
median and the 90th percentile over the positions, and the median node count; `nodes/s` is the
sum of nodes over the sum of times. `analyze` runs with 100 worlds at 18 plies left.

`solve_many` (`threads=2`, and `threads=1`) is timed against a loop of `cf.solve` over the same
positions with 18 plies left: nine fresh sets, the one-thread batch on a thread of its own,
so that no call finds the positions in its table; the figures are the medians of the nine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import threading
import time
from collections.abc import Callable

import capturefast as cf

PLIES = (6, 12, 18, 24, None)  # None: the whole hand, from the deal
REPS = 9  # fresh sets of positions for the solve_many comparison


def positions(rules: cf.Rules, plies: int | None, count: int, seed: int) -> list[cf.State]:
    """`count` open positions with `plies` cards left to play (None: at the deal)."""
    out = []
    rng = random.Random(seed * 1000 + (plies or 0))
    i = 0
    while len(out) < count:
        state = cf.State.new(rules, seed=seed * 100_000 + i)
        i += 1
        while plies is not None and _left(state) > plies and not state.hand_over:
            state = state.play(rng.choice(state.legal_moves()))
        if not state.hand_over and (plies is None or _left(state) == plies):
            out.append(state)
    return out


def _left(state: cf.State) -> int:
    return sum(len(h) for h in state.hands) + state.stock_size


def on_new_thread(call: Callable[[], list[int]]) -> tuple[list[int], float]:
    """`call()` run on a thread started for it, and its wall time in seconds."""
    out: dict[str, tuple[list[int], float]] = {}

    def run() -> None:
        t0 = time.perf_counter()
        result = call()
        out["r"] = (result, time.perf_counter() - t0)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    return out["r"]


def timed(
    call: Callable[[cf.State], object], states: list[cf.State]
) -> tuple[list[float], list[object]]:
    """Each call's wall time in seconds, and its result."""
    times, results = [], []
    for s in states:
        t0 = time.perf_counter_ns()
        r = call(s)
        times.append((time.perf_counter_ns() - t0) * 1e-9)
        results.append(r)
    return times, results


def pct(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    return ys[round((len(ys) - 1) * q)]


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:8.1f} us"
    return f"{seconds * 1e3:8.2f} ms"


def row(name: str, times: list[float], nodes: list[int] | None) -> None:
    line = f"  {name:<22} median {fmt(statistics.median(times))}  p90 {fmt(pct(times, 0.9))}"
    if nodes:
        rate = sum(nodes) / sum(times)
        line += f"  nodes median {int(statistics.median(nodes)):>8}  {rate / 1e6:6.2f} M nodes/s"
    print(line, flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=50)
    p.add_argument("--games", default="scopa,escoba,chkobba")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    for game in a.games.split(","):
        rules = cf.Rules(game, players=2)
        print(f"{game}, 2 players, {a.positions} positions a row")
        for plies in PLIES:
            states = positions(rules, plies, a.positions, a.seed)
            times, sols = timed(cf.solve, states)
            label = "whole hand" if plies is None else f"{plies} plies"
            row(f"solve {label}", times, [s.nodes for s in sols])  # type: ignore[attr-defined]
        states = positions(rules, 18, a.positions, a.seed)
        times, _ = timed(lambda s: cf.analyze(s, worlds=100), states)
        row("analyze 100w 18 plies", times, None)
        loop, batch, single = [], [], []
        for rep in range(REPS):
            # A fresh set each time, so that no call finds these positions in its table: the
            # one-thread batch runs on a new thread of its own (a batch's solvers are kept per
            # thread, the caller's included), the loop on this thread's `cf.solve` solver.
            fresh = positions(rules, 18, a.positions, a.seed + 1 + rep)
            t0 = time.perf_counter()
            got = cf.solve_many(fresh, threads=2)
            batch.append(time.perf_counter() - t0)
            one, seconds = on_new_thread(lambda f=fresh: cf.solve_many(f, threads=1))
            single.append(seconds)
            t0 = time.perf_counter()
            want = [cf.solve(s).value for s in fresh]
            loop.append(time.perf_counter() - t0)
            assert got == one == want, "solve_many disagrees with solve"
        lm, bm, sm = (statistics.median(x) for x in (loop, batch, single))
        n = len(states)
        print(
            f"  solve_many 18 plies: {fmt(bm / n)} a position on 2 threads, {fmt(sm / n)} on 1;"
            f" loop of solve {fmt(lm / n)}: {lm / bm:.2f}x the loop on 2 threads,"
            f" {lm / sm:.2f}x on 1",
            flush=True,
        )


if __name__ == "__main__":
    main()
