"""How soon a query ends once a time limit passes or a `StopFlag` is set.

Usage: python benches/stop_latency.py [--deals N]

- `cf.solve` of Scopone deals (ten-card hands, beyond exact search, so only the limit ends it)
  with `time_ms` 5, 20 and 50;
- `cf.analyze` of 4-player Scopa deals, 1000 worlds each solved to the hand's end (some
  milliseconds a world), with the same limits;
- `cf.solve` of Scopone deals stopped by a `StopFlag` set from another thread after 20 ms.

Prints the median and the largest overrun past the limit (or past the flag's setting) over N
deals, in milliseconds.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import threading
import time
from collections.abc import Callable

import capturefast as cf

LIMITS_MS = (5, 20, 50)


def overruns(deals: int, run: Callable[[int], float]) -> str:
    """`run(seed)` returns the overrun of one deal, in ms: its median and largest."""
    got = [run(seed) for seed in range(1, deals + 1)]
    return f"median {statistics.median(got):.3f} ms, largest {max(got):.3f} ms"


def solve_for(rules: cf.Rules, limit: int) -> Callable[[int], float]:
    def run(seed: int) -> float:
        state = cf.State.new(rules, seed=seed)
        start = time.perf_counter()
        with contextlib.suppress(cf.StoppedError):
            cf.solve(state, time_ms=limit)
        return (time.perf_counter() - start) * 1000 - limit

    return run


def analyze_for(rules: cf.Rules, limit: int) -> Callable[[int], float]:
    def run(seed: int) -> float:
        state = cf.State.new(rules, seed=seed)
        start = time.perf_counter()
        cf.analyze(state, worlds=1000, horizon="hand", time_ms=limit)
        return (time.perf_counter() - start) * 1000 - limit

    return run


def stopped_by_flag(rules: cf.Rules) -> Callable[[int], float]:
    def run(seed: int) -> float:
        state = cf.State.new(rules, seed=seed)
        flag = cf.StopFlag()
        set_at = [0.0]

        def fire() -> None:
            time.sleep(0.02)
            set_at[0] = time.perf_counter()
            flag.set()

        setter = threading.Thread(target=fire)
        setter.start()
        with contextlib.suppress(cf.StoppedError):
            cf.solve(state, stop=flag)
        done = time.perf_counter()
        setter.join()
        return (done - set_at[0]) * 1000

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    deals = parser.parse_args().deals
    scopone = cf.variants.rules("scopone_scientifico")
    scopa4 = cf.Rules.scopa(players=4)
    for limit in LIMITS_MS:
        print(f"solve, Scopone deal, time_ms={limit}: {overruns(deals, solve_for(scopone, limit))}")
    for limit in LIMITS_MS:
        line = overruns(deals, analyze_for(scopa4, limit))
        print(f"analyze, 4-player Scopa deal, hand horizon, time_ms={limit}: {line}")
    line = overruns(deals, stopped_by_flag(scopone))
    print(f"solve, Scopone deal, StopFlag set after 20 ms: {line}")


if __name__ == "__main__":
    main()
