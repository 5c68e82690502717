"""A bounded load test of `capturefast serve`: concurrent clients sending mixed requests.

    .venv/bin/python benches/load_server.py --clients 16 --seconds 20

Starts the server on a free loopback port as a subprocess, then `--clients` clients (asyncio,
one httpx connection each) send requests for `--seconds`, each picking the next kind in turn
from: presets, legal moves, a move (20 worlds), an analysis (10 worlds), a solve of a 2-player
deal, the report of a finished hand, and a simulation of 200 hands. It prints requests per
second, the p50 and p99 latency, the errors (any status but 200: there must be none) and the
server's resident memory (RSS) before and after; `--json` prints the same as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import capturefast as cf
import httpx


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _finished_moves(seed: int) -> list[str]:
    state = cf.State.new(cf.Rules.scopa(), seed=seed)
    moves = []
    while not state.hand_over:
        moves.append(str(state.legal_moves()[0]))
        state = state.play(moves[-1])
    return moves


def _requests() -> list[tuple[str, str, Any]]:
    report_moves = _finished_moves(3)
    return [
        ("GET", "/presets", None),
        ("POST", "/legal", {"position": {"deal": {"seed": 11}}}),
        ("POST", "/move", {"position": {"deal": {"seed": 12}}, "worlds": 20}),
        ("POST", "/analyze", {"position": {"deal": {"seed": 13}}, "worlds": 10}),
        ("POST", "/solve", {"position": {"deal": {"seed": 14}}}),
        ("POST", "/report", {"position": {"deal": {"seed": 3}, "moves": report_moves}}),
        ("POST", "/simulate", {"bots": ["greedy", "random"], "hands": 200}),
    ]


async def _client(
    base: str, kinds: list[tuple[str, str, Any]], start: int, until: float, out: dict[str, Any]
) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        i = start
        while time.perf_counter() < until:
            method, path, body = kinds[i % len(kinds)]
            i += 1
            t0 = time.perf_counter()
            try:
                r = await client.request(method, path, json=body)
                ok = r.status_code == 200
            except httpx.HTTPError:
                ok = False
            out["latencies"].append(time.perf_counter() - t0)
            if not ok:
                out["errors"] += 1


def _percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--clients", type=int, default=16)
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "capturefast", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/bots", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        rss_before = _rss_kib(proc.pid)
        kinds = _requests()
        out: dict[str, Any] = {"latencies": [], "errors": 0}
        start = time.perf_counter()
        until = start + args.seconds

        async def run() -> None:
            await asyncio.gather(
                *(_client(base, kinds, c, until, out) for c in range(args.clients))
            )

        asyncio.run(run())
        elapsed = time.perf_counter() - start
        rss_after = _rss_kib(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    lat = out["latencies"]
    result = {
        "clients": args.clients,
        "seconds": round(elapsed, 2),
        "requests": len(lat),
        "requests_per_second": round(len(lat) / elapsed, 1),
        "p50_ms": round(_percentile(lat, 0.50) * 1000, 1),
        "p99_ms": round(_percentile(lat, 0.99) * 1000, 1),
        "errors": out["errors"],
        "rss_before_mib": round(rss_before / 1024, 1),
        "rss_after_mib": round(rss_after / 1024, 1),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['clients']} clients, {result['seconds']} s: {result['requests']} requests, "
            f"{result['requests_per_second']} requests/s, p50 {result['p50_ms']} ms, "
            f"p99 {result['p99_ms']} ms, errors {result['errors']}, RSS "
            f"{result['rss_before_mib']} MiB before, {result['rss_after_mib']} MiB after"
        )
    return 1 if out["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
