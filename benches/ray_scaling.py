"""Hands per second through Ray against the local ``cf.simulate``, in one run.

Usage: python benches/ray_scaling.py [--cpus N] [--hands H] [--bots B] [--repeat R] [--smoke]

Starts a local Ray cluster of ``--cpus`` CPUs (2 by default, this machine's cores) and
measures, on the same ``--hands`` hands of ``--bots`` (random v random by default):

* ``local``: ``cf.simulate(..., threads=cpus)``, the same CPUs without Ray;
* ``ray`` at each shard size: ``cf.simulate(..., executor=RayExecutor(shard_size=s))``, the
  merged result checked equal to the local one, and its speed as a fraction of the local one;
* the overhead per shard: the wall time of a batch of one-hand shards times the CPUs, per
  shard (what a shard costs the cluster beyond its hands), and the round trip of one shard;
* the driver's merge: joining the columns of 1,000 shards, per million hand rows.

Each Ray figure is paired with a local run just before it (the median ratio over
``--repeat`` pairs), so a drift of the shared machine weighs both alike. From the overhead
per shard ``o`` and the time per hand on one CPU ``h``, a shard of ``s`` hands runs at
``s * h / (s * h + o)`` of the local speed: 90% from ``s = 9 * o / h``, printed beside the
measured sweep. docs/distributed.md reads these figures; docs/performance.md says how.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any

import capturefast as cf
import numpy as np
from capturefast.distributed import RayExecutor
from capturefast.sim import SimRequest

SHARD_SIZES = (1_000, 3_000, 10_000, 30_000, 100_000, 300_000)


def timed(f: Any) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = f()
    return time.perf_counter() - t0, out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cpus", type=int, default=2)
    p.add_argument("--hands", type=int, default=2_000_000)
    p.add_argument("--bots", default="random")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--smoke", action="store_true", help="tiny counts: checks the script runs")
    a = p.parse_args(argv)
    sizes = SHARD_SIZES
    hands, repeat, tiny = a.hands, a.repeat, 400
    if a.smoke:
        hands, repeat, tiny, sizes = 2_000, 1, 20, (500, 2_000)
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=a.cpus, include_dashboard=False, log_to_driver=False)
    try:
        report(a.cpus, hands, a.bots, repeat, tiny, sizes)
    finally:
        if started:
            ray.shutdown()
    return 0


def report(
    cpus: int, hands: int, bots: str, repeat: int, tiny: int, sizes: tuple[int, ...]
) -> None:
    rules = cf.Rules.scopa()
    kw: dict[str, Any] = {"hands": hands, "bots": bots, "seed": 1}

    def local() -> cf.SimulationResult:
        return cf.simulate(rules, threads=cpus, **kw)

    def on_ray(size: int) -> cf.SimulationResult:
        return cf.simulate(rules, executor=RayExecutor(shard_size=size), **kw)

    on_ray(sizes[-1])  # warm the workers (first import of capturefast in each)
    t_one, _ = timed(lambda: cf.simulate(rules, threads=1, **kw))
    per_hand = t_one / hands
    print(f"scopa, {bots}, {hands:,} hands, {cpus} CPUs (Ray {ray_version()})")
    print(f"  one thread: {hands / t_one:,.0f} hands/s ({per_hand * 1e6:.2f} us a hand)")

    # Overhead per shard: one-hand shards, so the hands are negligible.
    t_tiny, _ = timed(
        lambda: cf.simulate(rules, hands=tiny, bots=bots, executor=RayExecutor(shard_size=1))
    )
    overhead = t_tiny * cpus / tiny
    trips = [
        timed(lambda: cf.simulate(rules, hands=1, bots=bots, executor="ray"))[0] for _ in range(5)
    ]
    print(
        f"  overhead per shard: {overhead * 1e3:.2f} ms of a CPU "
        f"({tiny:,} one-hand shards in {t_tiny:.2f} s); "
        f"round trip of one shard: {statistics.median(trips) * 1e3:.1f} ms"
    )
    model = 9 * overhead / per_hand
    print(f"  model: 90% of local speed from about {model:,.0f} hands a shard")

    rows = []
    for size in sizes:
        ratios, speeds, local_speeds = [], [], []
        for _ in range(repeat):
            t_local, ref = timed(local)
            t_ray, got = timed(lambda size=size: on_ray(size))
            for key in ("points", "awards", "sweeps", "dealer"):
                if not np.array_equal(getattr(ref, key), getattr(got, key)):
                    sys.exit(f"the Ray run differs from the local one in {key}: shard {size}")
            ratios.append(t_local / t_ray)
            speeds.append(hands / t_ray)
            local_speeds.append(hands / t_local)
        rows.append((size, statistics.median(local_speeds), statistics.median(speeds), ratios))
    print(f"  {'shard':>8}  {'shards':>6}  {'local hands/s':>14}  {'ray hands/s':>12}  ray/local")
    for size, ls, rs, ratios in rows:
        spread = f"[{min(ratios):.2f}, {max(ratios):.2f}]"
        print(
            f"  {size:>8,}  {-(-hands // size):>6,}  {ls:>14,.0f}  {rs:>12,.0f}  "
            f"{statistics.median(ratios):.2f} {spread}"
        )
    first = next((s for s, _, _, r in rows if statistics.median(r) >= 0.9), None)
    print(f"  measured: 90% of local speed from shard size {first if first else '> sweep'}")

    # The driver's merge: 1,000 shards' columns joined, per million rows.
    req = SimRequest.of(rules, 1_000, None, bots, False, 1, 1)
    part = req.run()
    t_merge, _ = timed(lambda: req.merge([part] * 1_000, [1_000] * 1_000))
    print(f"  driver merge: {t_merge:.3f} s per million hand rows (1,000 shards)")
    row_bytes = sum(part[k].nbytes for k in ("points", "awards", "sweeps", "dealer")) / 1_000
    print(f"  result size: {row_bytes:.0f} bytes a hand row")


def ray_version() -> str:
    import ray

    return str(ray.__version__)


if __name__ == "__main__":
    raise SystemExit(main())
