"""Capture enumeration: the Rust engine (``Rules.capture_options``) against the pure-Python
reference (``RefRules.capture_options``) on the same seeded tables.

Each benchmark round makes ``PAIRS`` calls (one per (table, played card) pair), so the time per
call is the round time divided by ``PAIRS``; both benchmarks of a group do the same calls, so the
group's ratio column is the speed-up. The Rust side gets ``Card`` objects and the reference card
strings, each engine's native input. The answers are checked to be identical.

    python -m pytest benches/python/test_bench_capture.py --benchmark-enable --benchmark-only
"""

from __future__ import annotations

from typing import Any

import capturefast as cf
import pytest
from reference import RefRules, SplitMix64, shuffled_deck

PAIRS = 64  # calls per round
SEED = 0xCA97_0E5
GAMES = ("scopa", "escoba")
TABLE_SIZES = (4, 8, 12)

Pair = tuple[list[str], str]

MASK64 = (1 << 64) - 1


def derive(seed: int, index: int) -> int:
    """``Rng::derive``: the seed of item ``index`` of a batch seeded with ``seed``."""
    return SplitMix64(seed ^ ((index * 0xD1B5_4A32_D192_ED03) & MASK64)).next_u64()


def make_pairs(size: int) -> list[Pair]:
    """``PAIRS`` (table, played card) pairs: ``size`` cards and one more off a shuffled deck."""
    pairs = []
    for i in range(PAIRS):
        deck = shuffled_deck(SplitMix64(derive(SEED ^ size, i)))
        pairs.append((deck[:size], deck[size]))
    return pairs


def as_strings(options: list[frozenset[Any]]) -> list[frozenset[str]]:
    return [frozenset(str(c) for c in s) for s in options]


CASES = [
    pytest.param(game, size, id=f"{game}-table{size}") for game in GAMES for size in TABLE_SIZES
]


@pytest.fixture(scope="module")
def pairs_by_size() -> dict[int, list[Pair]]:
    return {size: make_pairs(size) for size in TABLE_SIZES}


@pytest.mark.benchmark(group="capture_options")
@pytest.mark.parametrize(("game", "size"), CASES)
def test_capture_options_rust(
    benchmark: Any, pairs_by_size: dict[int, list[Pair]], game: str, size: int
) -> None:
    benchmark.group = f"capture_options {game} table={size} ({PAIRS} calls/round)"
    rules = cf.Rules(game, 2)
    inputs = [([cf.Card(c) for c in table], cf.Card(card)) for table, card in pairs_by_size[size]]
    capture_options = rules.capture_options

    def run() -> list[list[frozenset[cf.Card]]]:
        return [capture_options(table, card) for table, card in inputs]

    got = benchmark(run)
    ref = RefRules(game, 2)
    expected = [ref.capture_options(table, card) for table, card in pairs_by_size[size]]
    assert len(got) == PAIRS
    assert [as_strings(o) for o in got] == expected
    assert any(expected), "the bench tables should offer some captures"


@pytest.mark.benchmark(group="capture_options")
@pytest.mark.parametrize(("game", "size"), CASES)
def test_capture_options_reference(
    benchmark: Any, pairs_by_size: dict[int, list[Pair]], game: str, size: int
) -> None:
    benchmark.group = f"capture_options {game} table={size} ({PAIRS} calls/round)"
    ref = RefRules(game, 2)
    inputs = pairs_by_size[size]
    capture_options = ref.capture_options

    def run() -> list[list[frozenset[str]]]:
        return [capture_options(table, card) for table, card in inputs]

    got = benchmark(run)
    rules = cf.Rules(game, 2)
    assert got == [as_strings(rules.capture_options(table, card)) for table, card in inputs]
