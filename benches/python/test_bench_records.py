"""The cost of writing game records: ``cf.simulate`` of the same ``HANDS`` random v random
hands (2-player Scopa) with and without ``records=``, in one group so the ratio compares the
same work; and reading them back, with and without the replay.

    python -m pytest benches/python/test_bench_records.py --benchmark-enable --benchmark-only
"""

from __future__ import annotations

import io
from typing import Any

import capturefast as cf

HANDS = 5_000


def test_simulate_plain(benchmark: Any) -> None:
    benchmark.group = f"records: simulate ({HANDS} hands/round)"
    r = benchmark(lambda: cf.simulate(cf.Rules.scopa(), HANDS, seed=1))
    assert r.completed == HANDS


def test_simulate_with_records(benchmark: Any) -> None:
    benchmark.group = f"records: simulate ({HANDS} hands/round)"

    def run() -> tuple[cf.SimulationResult, str]:
        out = io.StringIO()
        return cf.simulate(cf.Rules.scopa(), HANDS, seed=1, records=out), out.getvalue()

    r, text = benchmark(run)
    assert r.completed == HANDS
    benchmark.extra_info["bytes_per_hand"] = len(text) / HANDS


def _text() -> str:
    out = io.StringIO()
    cf.simulate(cf.Rules.scopa(), 500, seed=2, records=out)
    return out.getvalue()


def test_read_records(benchmark: Any) -> None:
    benchmark.group = "records: read 500 hands"
    text = _text()
    games = benchmark(lambda: list(cf.read_records(io.StringIO(text), check=False)))
    assert len(games) == 500


def test_read_and_replay_records(benchmark: Any) -> None:
    benchmark.group = "records: read 500 hands"
    text = _text()
    games = benchmark(lambda: list(cf.read_records(io.StringIO(text))))
    assert len(games) == 500
