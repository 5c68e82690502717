"""What a variant costs: random hands per second under each preset and each mechanics option,
against the plain game with the same player count, measured in one run.

The issue's target: no variant may cost more than 25% over the plain game in the random-hands
benchmark. ``cf.random_hands(rules, N, seed)`` runs the whole loop in Rust (deal, uniform random
legal moves, scoring), so the figure is the core's. Each test times the plain game and the variant
alternately, ``ROUNDS`` times each on fresh seeds, keeps the best round of each (the least
disturbed by the shared machine), and records ``variant / plain`` per hand as
``extra_info["cost_vs_plain"]``; the benchmark itself times the variant. Print the table with

    python -m pytest benches/python/test_bench_variants.py --benchmark-enable -s

Under ``--benchmark-disable`` (the CI smoke run) every case runs once, tiny, and checks only
that the hands were played.
"""

from __future__ import annotations

import time
from typing import Any

import capturefast as cf
import pytest
from capturefast import variants

SEED = 0x7A_21A7
HANDS = 2000  # hands per timed round when benchmarking
ROUNDS = 7

# Single options that change the play loop (each on top of its game's defaults).
OPTION_CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("scopa", 2, {"capture": "match_or_fifteen"}),
    ("scopa", 2, {"fewest_cards": True}),
    ("scopa", 2, {"compulsory_capture": False}),
    ("escoba", 2, {"compulsory_capture": False, "renuncio": True}),
    ("scopa", 2, {"ace_takes_all": True}),
    ("scopa", 2, {"declarations": True}),
    ("scopa", 4, {"direction": "clockwise"}),
    ("scopa", 2, {"napola": True, "re_bello": True, "primiera_mode": "most_sevens"}),
    ("chkobba", 2, {"bermila": "cascade", "redeal": "three_kings"}),
]


def cases() -> list[Any]:
    out = []
    for name in variants.preset_names():
        r = variants.rules(name)
        out.append(pytest.param(r.game, r.players, dict(r.options), id=f"preset-{name}"))
    for game, players, options in OPTION_CASES:
        label = "-".join(f"{k}={v}" for k, v in options.items())
        out.append(pytest.param(game, players, options, id=f"{game}-{players}p-{label}"))
    return out


def per_hand(rules: cf.Rules, hands: int, seed: int) -> float:
    t0 = time.perf_counter()
    totals = cf.random_hands(rules, hands, seed)
    elapsed = time.perf_counter() - t0
    assert totals["hands"] == hands
    return elapsed / hands


@pytest.mark.parametrize(("game", "players", "options"), cases())
def test_variant_cost(
    benchmark: Any, request: Any, game: str, players: int, options: dict[str, Any]
) -> None:
    plain = cf.Rules(game, players)
    variant = cf.Rules(game, players, **options)
    enabled = not benchmark.disabled
    hands, rounds = (HANDS, ROUNDS) if enabled else (5, 1)
    best_plain = best_variant = float("inf")
    for k in range(rounds):
        best_plain = min(best_plain, per_hand(plain, hands, SEED + k))
        best_variant = min(best_variant, per_hand(variant, hands, SEED + k))
    cost = best_variant / best_plain
    benchmark.extra_info["cost_vs_plain"] = round(cost, 3)
    benchmark.extra_info["plain_hands_per_s"] = round(1 / best_plain)
    benchmark.group = f"variant cost {game} {players}p"
    seeds = iter(range(SEED + 1000, SEED + 10**6))
    benchmark(lambda: cf.random_hands(variant, hands, next(seeds)))
    if enabled:
        case = request.node.callspec.id
        print(f"\n{case}: {cost:.3f} x plain {game} {players}p ({1 / best_plain:,.0f} hands/s)")
