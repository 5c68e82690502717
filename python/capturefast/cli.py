"""The `capturefast` command line."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence

from capturefast._core import Rules, random_hands

__all__ = ["main"]

GAMES = ("scopa", "escoba", "chkobba")


_MAX_SEED = 2**64 - 1
_MAX_HANDS = 10**10


def _int_in(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `lo` to `hi`."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got: {text}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"expected {lo} to {hi}, got: {value}")
        return value

    return parse


def _simulate(args: argparse.Namespace) -> int:
    games = GAMES if args.game == "all" else (args.game,)
    players = (2, 4) if args.players == 0 else (args.players,)
    print(f"capturefast: {args.hands} random hands per game (uniform random legal moves)")
    for game in games:
        for n in players:
            rules = Rules(game, players=n)
            t0 = time.perf_counter()
            t = random_hands(rules, args.hands, seed=args.seed)
            dt = time.perf_counter() - t0
            hands = t["hands"]
            pts = t["points"]
            print(f"\n{game}, {n} players: {hands} hands in {dt:.3f} s ({hands / dt:,.0f} hands/s)")
            print(f"  points per hand    A {pts[0] / hands:.3f}   B {pts[1] / hands:.3f}")
            sw = t["sweeps"]
            print(f"  sweeps per hand    A {sw[0] / hands:.3f}   B {sw[1] / hands:.3f}")
            for cat, (a, b) in t["awards"].items():
                tie = t["ties"][cat]
                print(
                    f"  {cat:<18} A {a / hands:6.1%}   B {b / hands:6.1%}   tie {tie / hands:6.1%}"
                )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status."""
    p = argparse.ArgumentParser(prog="capturefast", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("simulate", help="play random hands and print a summary per category")
    s.add_argument("--game", choices=(*GAMES, "all"), default="all")
    s.add_argument("--players", type=int, choices=(0, 2, 4), default=0, help="0 = both")
    s.add_argument("--hands", type=_int_in(1, _MAX_HANDS), default=5000)
    s.add_argument("--seed", type=_int_in(0, _MAX_SEED), default=0)
    args = p.parse_args(argv)
    return _simulate(args)


if __name__ == "__main__":
    sys.exit(main())
