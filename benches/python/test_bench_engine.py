"""What the engine protocol's and the server's search pays for running in slices: the sliced
search (``service.search``, slices of 1, 2, 4, ... worlds doubling up to 64, so that a stop
is honoured between them) against one ``Solver.analyze`` call of as many worlds, on the same
positions.

Each round searches the next of ``POSITIONS`` seeded 2-player Scopa deals, 100 worlds, the
round horizon (the default). Both benchmarks of a group do the same number of worlds, so the
group's ratio column is the cost of slicing.

    python -m pytest benches/python/test_bench_engine.py --benchmark-enable --benchmark-only
"""

from __future__ import annotations

import itertools
from typing import Any

import capturefast as cf
import pytest
from capturefast import service

WORLDS = 100
POSITIONS = [cf.State.new(cf.Rules.scopa(), seed=k) for k in range(64)]


@pytest.mark.benchmark(group="search_100_worlds")
def test_search_in_slices(benchmark: Any) -> None:
    states = itertools.cycle(POSITIONS)
    solver = cf.Solver()
    budget = service.Budget(worlds=WORLDS)
    result = benchmark(lambda: service.search(next(states), budget, solver=solver))
    assert result.worlds == WORLDS


@pytest.mark.benchmark(group="search_100_worlds")
def test_one_analysis_call(benchmark: Any) -> None:
    states = itertools.cycle(POSITIONS)
    solver = cf.Solver()
    result = benchmark(lambda: solver.analyze(next(states), worlds=WORLDS, horizon="round"))
    assert result.worlds == WORLDS
