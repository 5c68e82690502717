"""Old build against new, in one run: criterion bench binaries timed in ABBA order.

Usage: python benches/abba.py OLD_BIN NEW_BIN FILTER [--pairs N] [--time S]
       python benches/abba.py OLD_BIN NEW_BIN --timing-table [--pairs N]

With --timing-table the binaries are the `solve` bench, run with SOLVE_BENCH_TIMING_ONLY=1: the
figures compared are the medians of its timing table (one cold query per position).

OLD_BIN and NEW_BIN are the same criterion bench (e.g. target/release/deps/simulate-<hash>)
built from two commits. Each pair runs A B B A (old, new, new, old), so a drift of the machine
over the run weighs both builds alike; the figure per benchmark is the median over pairs of
new time / old time (below 1: the new build is faster), with the range of the pairs. Shared,
noisy machines move single runs by 5-10%: read a ratio within that band as "no change".
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys

UNITS = {"ps": 1e-12, "ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
TIME = re.compile(r"time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]")


ROW = re.compile(r"^(.*?)\s+n=\d+\s+median\s+([\d.]+) (\S+)")


def run_table(binary: str) -> dict[str, float]:
    """Each row's median time in seconds, from the solve bench's timing table."""
    env = {**os.environ, "SOLVE_BENCH_TIMING_ONLY": "1"}
    done = subprocess.run([binary], capture_output=True, text=True, check=True, env=env)
    out = done.stdout + done.stderr
    rows = {
        m.group(1).strip(): float(m.group(2)) * UNITS[m.group(3)]
        for m in map(ROW.match, out.splitlines())
        if m
    }
    if not rows:
        sys.exit(f"no timing table in the output of {binary}")
    return rows


def run(binary: str, flt: str | None, seconds: float) -> dict[str, float]:
    """Each benchmark's estimated time in seconds, from one run of `binary`."""
    if flt is None:
        return run_table(binary)
    out = subprocess.run(
        [
            binary,
            "--bench",
            flt,
            "--warm-up-time",
            "1",
            "--measurement-time",
            str(seconds),
            "--noplot",
            "--discard-baseline",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    times: dict[str, float] = {}
    name = None
    for line in out.splitlines():
        m = TIME.search(line)
        if m:
            before = line[: m.start()].strip()
            if before:
                name = before
            assert name is not None, line
            times[name] = float(m.group(1)) * UNITS[m.group(2)]
            name = None
        elif line.strip() and not line.startswith(" "):
            name = line.strip()
    if not times:
        sys.exit(f"no benchmark matched {flt!r} in {binary}")
    return times


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("filter", nargs="?")
    p.add_argument("--timing-table", action="store_true")
    p.add_argument("--pairs", type=int, default=3)
    p.add_argument("--time", type=float, default=2.0, help="measurement seconds per run")
    a = p.parse_args()
    if (a.filter is None) != a.timing_table:
        p.error("give a FILTER or --timing-table")
    ratios: dict[str, list[float]] = {}
    for _ in range(a.pairs):
        old1 = run(a.old, a.filter, a.time)
        new1 = run(a.new, a.filter, a.time)
        new2 = run(a.new, a.filter, a.time)
        old2 = run(a.old, a.filter, a.time)
        for k in old1:
            if k in new1:
                ratios.setdefault(k, []).append((new1[k] + new2[k]) / (old1[k] + old2[k]))
    width = max(len(k) for k in ratios)
    print(f"{'benchmark':<{width}}  new/old (median of {a.pairs} ABBA pairs)  range")
    for k, r in ratios.items():
        print(f"{k:<{width}}  {statistics.median(r):.3f}  {min(r):.3f}-{max(r):.3f}")


if __name__ == "__main__":
    main()
