"""Steps per second of the learning interfaces (2-player Scopa, the learner in seat 0 against
the `random` bot), group ``env``:

* ``vec_env[<t>]``: ``VecEnv.step`` on ``N`` = 1024 games on ``t`` threads, a uniformly random
  legal action per game chosen in numpy from the mask each step
  (``capturefast.envs.random_actions``): the figure users get from Python.
  ``extra_info["steps"]`` is the learner steps a round.
* ``vec_env_choice_only``: the numpy choice alone, to separate its cost from the env's.
* ``core_random``: ``cf.random_hands``, the core's own random play (no Python per move), on
  the same machine and run, in moves: a 2-player Scopa hand is 36 moves, so it gives the
  ratio of the env's steps (each a learner's move and the bot's reply, or a step of a
  capture being built) to the core's moves.
* ``gym_step``: one ``CaptureEnv.step`` from Python (the random bot's reply included),
  ``STEPS`` steps a round with the action taken from ``info["action_mask"]``.

    python -m pytest benches/python/test_bench_env.py --benchmark-enable --benchmark-only
"""

from __future__ import annotations

from typing import Any

import capturefast as cf
import numpy as np
import pytest
from capturefast.envs import VecEnv, random_actions

N = 1024
ROUNDS_STEPS = 20  # VecEnv steps a round
STEPS = 2000  # CaptureEnv steps a round
HANDS = 2000  # core random hands a round
SEED = 0x5E_ED


@pytest.mark.benchmark(group="env")
@pytest.mark.parametrize("threads", [1, 2])
def test_vec_env(benchmark: Any, threads: int) -> None:
    env = VecEnv(cf.Rules.scopa(), N, seed=SEED, threads=threads)
    rng = np.random.default_rng(SEED)
    out = env.reset(seed=SEED)

    def run() -> None:
        nonlocal out
        for _ in range(ROUNDS_STEPS):
            out = env.step(random_actions(out[1], rng))

    benchmark.extra_info["steps"] = N * ROUNDS_STEPS
    benchmark(run)
    assert out[1].any(1).all()


@pytest.mark.benchmark(group="env")
def test_vec_env_choice_only(benchmark: Any) -> None:
    env = VecEnv(cf.Rules.scopa(), N, seed=SEED)
    mask = env.reset(seed=SEED)[1].copy()
    rng = np.random.default_rng(SEED)

    def run() -> None:
        for _ in range(ROUNDS_STEPS):
            actions = random_actions(mask, rng)
        assert mask[np.arange(N), actions].all()

    benchmark.extra_info["steps"] = N * ROUNDS_STEPS
    benchmark(run)


@pytest.mark.benchmark(group="env")
def test_core_random(benchmark: Any) -> None:
    seeds = iter(range(SEED, SEED + 1_000_000))
    rules = cf.Rules.scopa()
    benchmark.extra_info["moves"] = HANDS * 36
    result = benchmark(lambda: cf.random_hands(rules, HANDS, next(seeds)))
    assert result["hands"] == HANDS


@pytest.mark.benchmark(group="env")
def test_gym_step(benchmark: Any) -> None:
    gym_env = pytest.importorskip("capturefast.envs.gym")
    env = gym_env.CaptureEnv(cf.Rules.scopa(), opponents="random")
    _, info = env.reset(seed=SEED)

    def run() -> None:
        nonlocal info
        for i in range(STEPS):
            legal = np.flatnonzero(info["action_mask"])
            _, _, terminated, truncated, info = env.step(int(legal[i % len(legal)]))
            if terminated or truncated:
                _, info = env.reset()

    benchmark.extra_info["steps"] = STEPS
    benchmark(run)
