"""Complete random hands per second, three ways, on the same hands:

* ``rust``: ``capturefast.random_hands(rules, N, seed)``, the whole loop in Rust;
* ``python_step_loop``: ``State.new`` / ``State.legal_moves`` / ``State.play`` driven from Python;
* ``reference``: the pure-Python reference engine (``RefState``).

All three play hand ``i`` exactly as ``sim::random_hands`` does: the deal from seed
``derive(seed, i)`` and each move drawn uniformly from the legal list with SplitMix64 seeded
``derive(seed, i) ^ 0x5EED``. So they play identical hands, their totals must agree exactly
(asserted), and the group's ratio column compares the same work. Each round plays ``HANDS``
hands; hands/s = ``HANDS`` / round time, and the step loop records its moves in ``extra_info``.

Every round takes the next seed (``SEED``, ``SEED + 1``, ...): replaying one batch of 20 hands
lets the CPU's branch predictor learn it and made ``random_hands`` measure ~30% faster than on
fresh hands. The benchmarks return the last round's seed with its totals, and the totals are
checked against another engine playing that seed.

    python -m pytest benches/python/test_bench_hands.py --benchmark-enable --benchmark-only
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import capturefast as cf
import pytest
from reference import RefRules, RefState, SplitMix64

HANDS = 20  # per round; small so `--benchmark-disable` smoke runs stay fast
SEED = 0x4A4D_5EED
GAMES = ("scopa", "escoba", "chkobba")

# `sim::random_hands` draws the moves of hand `i` from `Rng::new(derive(seed, i) ^ MOVE_SALT)`.
MOVE_SALT = 0x5EED

Totals = dict[str, Any]

MASK64 = (1 << 64) - 1


def derive(seed: int, index: int) -> int:
    """``Rng::derive``: the seed of item ``index`` of a batch seeded with ``seed``."""
    return SplitMix64(seed ^ ((index * 0xD1B5_4A32_D192_ED03) & MASK64)).next_u64()


def empty_totals(categories: list[str]) -> Totals:
    return {
        "hands": 0,
        "points": [0, 0],
        "awards": {c: [0, 0] for c in categories},
        "ties": dict.fromkeys(categories, 0),
        "sweeps": [0, 0],
    }


def add_hand(
    t: Totals, points: list[int], awards: dict[str, int | None], sweeps: list[int]
) -> None:
    t["hands"] += 1
    for side in (0, 1):
        t["points"][side] += points[side]
        t["sweeps"][side] += sweeps[side]
    for cat, side in awards.items():
        if side is None:
            t["ties"][cat] += 1
        else:
            t["awards"][cat][side] += 1


def move_picker(seed: int) -> Any:
    """``Rng::below`` of SplitMix64 seeded ``seed``, inlined for the Python step loop."""
    state = seed & MASK64

    def below(n: int) -> int:
        nonlocal state
        state = (state + 0x9E37_79B9_7F4A_7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58_476D_1CE4_E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB) & MASK64
        return ((z ^ (z >> 31)) * n) >> 64

    return below


def rust_hands(rules: cf.Rules, hands: int, seed: int) -> Totals:
    return cf.random_hands(rules, hands, seed)


def step_loop_hands(rules: cf.Rules, hands: int, seed: int) -> tuple[Totals, int]:
    totals = empty_totals(rules.categories)
    steps = 0
    for i in range(hands):
        s = derive(seed, i)
        state = cf.State.new(rules, s)
        below = move_picker(s ^ MOVE_SALT)
        while not state.hand_over:
            moves = state.legal_moves()
            state = state.play(moves[below(len(moves))])
            steps += 1
        r = state.hand_report()
        add_hand(totals, r.points, r.awards, r.sweeps)
    return totals, steps


def reference_hands(rules: RefRules, categories: list[str], hands: int, seed: int) -> Totals:
    totals = empty_totals(categories)
    for i in range(hands):
        s = derive(seed, i)
        state = RefState.new(rules, s)
        rng = SplitMix64(s ^ MOVE_SALT)
        while not state.hand_over:
            moves = state.legal_moves()
            state = state.play(moves[rng.below(len(moves))])
        r = state.hand_report()
        add_hand(totals, r["points"], r["awards"], r["sweeps"])
    return totals


def group(game: str) -> str:
    return f"random_hands {game} 2p ({HANDS} hands/round)"


def rotating_seeds(play: Callable[[int], Any]) -> Callable[[], tuple[int, Any]]:
    """A benchmark body calling ``play(seed)`` with a new seed each round, returning both."""
    seeds = itertools.count(SEED)

    def run() -> tuple[int, Any]:
        seed = next(seeds)
        return seed, play(seed)

    return run


@pytest.mark.benchmark(group="random_hands")
@pytest.mark.parametrize("game", GAMES)
def test_random_hands_rust(benchmark: Any, game: str) -> None:
    benchmark.group = group(game)
    rules = cf.Rules(game, 2)
    seed, got = benchmark(rotating_seeds(lambda seed: rust_hands(rules, HANDS, seed)))
    assert got["hands"] == HANDS
    assert got["ties"][rules.categories[2]] == 0, "the seven of coins always goes to a side"
    assert sum(got["points"]) >= HANDS, "every hand awards the seven of coins"
    assert got == reference_hands(RefRules(game, 2), rules.categories, HANDS, seed)


@pytest.mark.benchmark(group="random_hands")
@pytest.mark.parametrize("game", GAMES)
def test_random_hands_python_step_loop(benchmark: Any, game: str) -> None:
    benchmark.group = group(game)
    rules = cf.Rules(game, 2)
    seed, (got, steps) = benchmark(rotating_seeds(lambda seed: step_loop_hands(rules, HANDS, seed)))
    benchmark.extra_info["hands"] = HANDS
    benchmark.extra_info["steps"] = steps
    # 36 plays a hand (40 cards, 4 dealt to the table); Chkobba adds the cut decisions.
    if game == "chkobba":
        assert steps >= 37 * HANDS
    else:
        assert steps == 36 * HANDS
    assert got == cf.random_hands(rules, HANDS, seed)


@pytest.mark.benchmark(group="random_hands")
@pytest.mark.parametrize("game", GAMES)
def test_random_hands_reference(benchmark: Any, game: str) -> None:
    benchmark.group = group(game)
    rules = cf.Rules(game, 2)
    ref = RefRules(game, 2)
    seed, got = benchmark(
        rotating_seeds(lambda seed: reference_hands(ref, rules.categories, HANDS, seed))
    )
    assert got["hands"] == HANDS
    assert got == cf.random_hands(rules, HANDS, seed)
