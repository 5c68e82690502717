"""Hands per second of ``cf.simulate`` (2-player Scopa), in two groups:

* ``threads``: random v random on 1 and 2 threads, and greedy v greedy on every core
  (``HANDS`` hands a round). The 1-thread figure against criterion's
  ``simulate/run/random-random/1t`` (the same loop without Python) is the cost of the Python
  boundary; the 2-thread figure against the 1-thread one is the parallel speedup.
* ``engines``: the same ``SMALL`` random v random hands played by ``cf.simulate`` (built-in
  bots), by ``cf.simulate`` with a Python bot in each seat (``choose(view)`` called per move),
  and by the pure-Python reference engine with the same seeds. All three play identical hands,
  so their points must agree exactly (asserted), and the ratio column compares the same work.

Each round takes the next seed, so the measurement averages over many deals. Hands/s =
hands / round time; ``extra_info["hands"]`` holds the hands per round.

    python -m pytest benches/python/test_bench_simulate.py --benchmark-enable --benchmark-only
"""

from __future__ import annotations

import itertools
from typing import Any

import capturefast as cf
import numpy as np
import pytest
from capturefast._core import sim_seeds
from reference import RefRules, RefState, SplitMix64

HANDS = 20_000  # per round of the `threads` group
SMALL = 40  # per round of the `engines` group; small so smoke runs stay fast
SEED = 0x51_3D_0A_7E


class PyRandomBot:
    """The built-in ``random`` bot in Python (uniform over the legal moves, SplitMix64)."""

    def __init__(self) -> None:
        self.rng = SplitMix64(0)

    def reset(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, state: cf.View) -> cf.Move:
        moves = state.legal_moves()
        return moves[self.rng.below(len(moves))]


def reference_points(hands: int, seed: int) -> np.ndarray[Any, Any]:
    """Points per side of ``hands`` random v random hands played by the reference engine with
    the seeds `cf.simulate` uses."""
    rules = RefRules("scopa", 2)
    out = np.zeros((hands, 2), dtype=np.int16)
    for i in range(hands):
        deal, bot_seeds = sim_seeds(seed, i, 2)
        state = RefState.new(rules, deal)
        rngs = [SplitMix64(s) for s in bot_seeds]
        while not state.hand_over:
            moves = state.legal_moves()
            state = state.play(moves[rngs[state.to_move].below(len(moves))])
        out[i] = state.hand_report()["points"]
    return out


def rotating(play: Any) -> Any:
    seeds = itertools.count(SEED)

    def run() -> tuple[int, Any]:
        seed = next(seeds)
        return seed, play(seed)

    return run


@pytest.mark.parametrize(
    ("bots", "threads"),
    [("random", 1), ("random", 2), ("greedy", None)],
    ids=["random-1t", "random-2t", "greedy-all"],
)
def test_simulate_threads(benchmark: Any, bots: str, threads: int | None) -> None:
    benchmark.group = f"simulate scopa 2p ({HANDS} hands/round)"
    benchmark.extra_info["hands"] = HANDS
    rules = cf.Rules.scopa()
    _, r = benchmark(
        rotating(lambda seed: cf.simulate(rules, HANDS, bots=bots, seed=seed, threads=threads))
    )
    assert r.completed == HANDS
    assert r.points.shape == (HANDS, 2)
    if threads is not None:
        assert r.threads == threads


def test_engines_builtin(benchmark: Any) -> None:
    benchmark.group = f"simulate random v random ({SMALL} hands/round)"
    rules = cf.Rules.scopa()
    seed, r = benchmark(rotating(lambda seed: cf.simulate(rules, SMALL, seed=seed, threads=1)))
    assert np.array_equal(r.points, reference_points(SMALL, seed))


def test_engines_python_bots(benchmark: Any) -> None:
    benchmark.group = f"simulate random v random ({SMALL} hands/round)"
    rules = cf.Rules.scopa()
    seed, r = benchmark(
        rotating(
            lambda seed: cf.simulate(rules, SMALL, bots=(PyRandomBot(), PyRandomBot()), seed=seed)
        )
    )
    assert np.array_equal(r.points, cf.simulate(rules, SMALL, seed=seed).points)


def test_engines_reference(benchmark: Any) -> None:
    benchmark.group = f"simulate random v random ({SMALL} hands/round)"
    rules = cf.Rules.scopa()
    seed, points = benchmark(rotating(lambda seed: reference_points(SMALL, seed)))
    assert np.array_equal(points, cf.simulate(rules, SMALL, seed=seed).points)
