"""`capturefast solve` and `capturefast analyze`: solver queries on a position in card notation.

    capturefast solve --game scopa --hand 0="7D 3C" --hand 1="KS 2D" --table "5C 4H" \\
        --to-move 0 --dealer 1 --last-capturer 1 --rest-to 1
    capturefast analyze --game scopa --hand 0="7D 3C KS" --table "5C 4H AD" --to-move 0 \\
        --dealer 1 --stock-size 24 --pile 0="7C 2C 5S" --pile 1="KD KH 6S 6C" \\
        --last-capturer 1 --worlds 200

A position may instead be given as one line of the position notation (docs/notation.md),
rules included, in place of every option above: a state line for `solve`, a state or view line
for `analyze`; `capturefast move LINE --bot expert` prints the move a built-in bot plays there.

`solve` needs every card placed: the hands, the table, the stock in deal order (`--stock`), the
piles (`--pile SIDE=CARDS`); `--rest-to SIDE` puts every card not named into that side's pile.
`analyze` takes what the seat to move sees (its hand, the table, the piles, the stock size);
every card not named is hidden, dealt to the other hands and the stock in each world. Both need
`--last-capturer` once a pile holds cards.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from capturefast._core import Bot, Card, Rules, State, View
from capturefast.errors import ArgumentError, CaptureFastError, PositionError
from capturefast.solve import analyze, solve

ALL_CARDS = [str(Card(i)) for i in range(40)]

_CARD_HINT = (
    "hint: a card is a rank (A, 2-7, J, Q, K; 8, 9 and 10 also read as J, Q and K) and a suit "
    "(C, D, H, S), e.g. 7D"
)


def _cards(text: str) -> list[str]:
    """The cards of `text` (separated by spaces, commas or `+`) in their usual spelling, so that
    `7d` and `7D` are one card; an unknown card is a usage error."""
    out = []
    for word in text.replace(",", " ").replace("+", " ").split():
        try:
            out.append(str(Card(word)))
        except CaptureFastError as e:
            raise argparse.ArgumentTypeError(f"{e}\n{_CARD_HINT}") from None
    return out


def _keyed(what: str) -> Any:
    """An argparse type: ``N=CARDS`` (`what` is SEAT or SIDE), read as (N, cards)."""

    def parse(text: str) -> tuple[int, list[str]]:
        key, eq, cards = text.partition("=")
        if not eq:
            raise argparse.ArgumentTypeError(
                f"expected {what}=CARDS, got: {text}\n"
                f'hint: name the {what.lower()} first, e.g. 0="{text.strip()}"'
            )
        try:
            n = int(key)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected {what}=CARDS with {what} a number, got: {text}"
            ) from None
        return n, _cards(cards)

    return parse


def _by_key(
    items: list[tuple[int, list[str]]], flag: str, what: str, count: int
) -> dict[int, list[str]]:
    """The cards of each seat (or side) from the repeated `flag`, each key from 0 to count-1
    and given once (a second `--hand 0=...` used to replace the first without a word)."""
    out: dict[int, list[str]] = {}
    for key, cards in items:
        if not 0 <= key < count:
            raise ArgumentError(
                f"argument {flag}: expected a {what} from 0 to {count - 1}, got: {key}"
            )
        if key in out:
            raise ArgumentError(
                f"argument {flag}: given twice for {what}: {key}\n"
                f'hint: name all cards of a {what} in one {flag}, e.g. {flag} {key}="7D 3C"'
            )
        out[key] = cards
    return out


def _pair(text: str) -> list[int]:
    """An argparse type: two whole numbers, one per side, as ``A,B``."""
    try:
        pair = [int(x) for x in text.replace(",", " ").split()]
    except ValueError:
        pair = []
    if len(pair) != 2:
        raise argparse.ArgumentTypeError(f"expected two whole numbers A,B, got: {text}")
    return pair


def _seat(value: int, n: int, flag: str) -> int:
    if not 0 <= value < n:
        raise ArgumentError(f"argument {flag}: expected a seat from 0 to {n - 1}, got: {value}")
    return value


def add_parsers(
    sub: Any, common: Any, int_in: Callable[[int, int], Callable[[str], int]]
) -> dict[str, argparse.ArgumentParser]:
    """Adds the subcommands `solve`, `analyze` and `move` (their parsers by name);
    `common(parser)` adds game, players and options, and `int_in(lo, hi)` is the command line's
    argparse type of a bounded whole number."""
    parsers = []
    for name, text in (
        ("solve", "exact value of every move of an open position (all cards known)"),
        ("analyze", "value the moves of the seat to move over worlds drawn from what it sees"),
    ):
        p = sub.add_parser(
            name,
            help=text,
            description=__doc__,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        common(p)
        p.add_argument(
            "position",
            nargs="?",
            default=None,
            metavar="NOTATION",
            help="the position as one line of the position notation, rules included, instead "
            "of the options below",
        )
        p.add_argument(
            "--hand",
            type=_keyed("SEAT"),
            action="append",
            default=[],
            metavar="SEAT=CARDS",
            help="a seat's hand, e.g. 0=\"7D 3C\" (repeatable; analyze: the seat to move's only)",
        )
        p.add_argument(
            "--table", type=_cards, default=[], metavar="CARDS", help="the cards on the table"
        )
        p.add_argument(
            "--pile",
            type=_keyed("SIDE"),
            action="append",
            default=[],
            metavar="SIDE=CARDS",
            help="the cards a side has captured (repeatable)",
        )
        p.add_argument(
            "--to-move",
            type=int_in(0, 3),
            default=None,
            metavar="SEAT",
            help="the seat to move (needed unless a NOTATION is given)",
        )
        p.add_argument(
            "--dealer",
            type=int_in(0, 3),
            default=None,
            metavar="SEAT",
            help="default: the seat before the one to move in the order of play, which then "
            "leads the round",
        )
        p.add_argument(
            "--last-capturer",
            type=int_in(0, 3),
            default=None,
            metavar="SEAT",
            help="the seat that captured last (needed once a pile holds cards)",
        )
        p.add_argument(
            "--sweeps", type=_pair, default=None, metavar="A,B", help="each side's sweeps so far"
        )
        p.add_argument(
            "--scores", type=_pair, default=None, metavar="A,B", help="the match score, by side"
        )
        p.add_argument("--json", action="store_true", help="print the result as JSON")
        parsers.append(p)
    solve_p, analyze_p = parsers
    solve_p.add_argument(
        "--stock", type=_cards, default=[], metavar="CARDS", help="the stock in deal order"
    )
    solve_p.add_argument(
        "--rest-to",
        type=int,
        choices=(0, 1),
        default=None,
        metavar="SIDE",
        help="put every card not named into this side's pile",
    )
    analyze_p.add_argument(
        "--stock-size",
        type=int_in(0, 40),
        default=0,
        metavar="N",
        help="the cards left in the stock (default: 0)",
    )
    analyze_p.add_argument(
        "--worlds", type=int, default=100, help="worlds drawn, 1 to 10000 (default: 100)"
    )
    analyze_p.add_argument(
        "--seed", type=int_in(0, 2**64 - 1), default=0, help="the worlds' seed (default: 0)"
    )
    analyze_p.add_argument(
        "--horizon",
        choices=("hand", "round"),
        default="round",
        help="search each world to the end of the round as the pimc bot does (the default), "
        "or solve it to the end of the hand as if its stock order were known",
    )
    move_p = sub.add_parser(
        "move",
        help="the move a built-in bot plays in a position given in the notation",
        description="Print the move a built-in bot plays in a position: a view line (what the "
        "seat to move sees) or a state line (the bot reads only its seat's view) of the "
        "position notation, docs/notation.md.",
    )
    move_p.add_argument("position", metavar="NOTATION", help="a view line or a state line")
    move_p.add_argument(
        "--bot",
        default="expert",
        help="a built-in bot with an optional budget, as simulate names it: random, "
        "random_card, greedy, expert, pimc, ismcts, pimc:worlds=400, ... (default: expert)",
    )
    move_p.add_argument("--seed", type=int_in(0, 2**64 - 1), default=0, help="default: 0")
    move_p.add_argument("--json", action="store_true", help="print the result as JSON")
    return {"solve": solve_p, "analyze": analyze_p, "move": move_p}


_LAYOUT_FLAGS = (
    ("hand", "--hand"),
    ("table", "--table"),
    ("pile", "--pile"),
    ("to_move", "--to-move"),
    ("dealer", "--dealer"),
    ("last_capturer", "--last-capturer"),
    ("sweeps", "--sweeps"),
    ("scores", "--scores"),
    ("stock", "--stock"),
    ("rest_to", "--rest-to"),
    ("stock_size", "--stock-size"),
)


def _from_notation(args: argparse.Namespace) -> State | View:
    """The position of a NOTATION argument: a state line, or for `analyze` a view line too. It
    carries its rules and every card, so no layout option may be given beside it."""
    for dest, flag in _LAYOUT_FLAGS:
        value = getattr(args, dest, None)
        if value not in (None, [], 0):
            raise ArgumentError(
                f"argument {flag}: a NOTATION line already places every card: {flag}"
            )
    if args.command == "analyze" and any(t.startswith("seat=") for t in args.position.split()):
        return View.from_notation(args.position)
    return State.from_notation(args.position)


def _state(rules: Rules, args: argparse.Namespace, hidden: bool) -> State:
    n = rules.players
    if args.to_move is None:
        raise ArgumentError(
            "argument --to-move: without a NOTATION line, the seat to move is required: --to-move"
        )
    hands = _by_key(args.hand, "--hand", "seat", n)
    piles = _by_key(args.pile, "--pile", "side", 2)
    table = args.table
    _seat(args.to_move, n, "--to-move")
    if args.dealer is None:  # the seat before the mover in the order of play: it leads
        dealer = next(s for s in range(n) if rules.next_seat(s) == args.to_move)
    else:
        dealer = _seat(args.dealer, n, "--dealer")
    pile_lists = [piles.get(0, []), piles.get(1, [])]
    named = set(table) | {c for h in hands.values() for c in h} | {c for p in pile_lists for c in p}
    if hidden:
        # What the seat to move cannot see goes to the other hands and the stock, in id order:
        # `analyze` reads only the seat's view, so where these cards sit does not matter.
        mover = args.to_move
        size = len(hands.get(mover, []))
        if not size:
            raise ArgumentError(
                f"argument --hand: no cards for the seat to move: {mover}\n"
                f'hint: give the hand it holds, e.g. --hand {mover}="7D 3C KS"'
            )
        others = sorted(seat for seat in hands if seat != mover)
        if others:
            raise ArgumentError(
                f"argument --hand: analyze takes what the seat to move ({mover}) sees, so only "
                f"its hand, not the hand of seat: {others[0]}\n"
                "hint: every card not named is hidden and dealt to the other hands in each world"
            )
        # In the order of play from the leader, the seats before the mover have played.
        order = [rules.next_seat(dealer)]
        while len(order) < n:
            order.append(rules.next_seat(order[-1]))
        before = order.index(mover)
        wants = [0] * n
        for i, seat in enumerate(order):
            if seat != mover:
                wants[seat] = size - 1 if i < before else size
        rest = [c for c in ALL_CARDS if c not in named]
        if len(rest) != sum(wants) + args.stock_size:
            raise PositionError(
                f"the other hands and a stock of {args.stock_size} hold "
                f"{sum(wants) + args.stock_size} cards, not as many as the cards not named: "
                f"{len(rest)}\nhint: name every captured card with --pile SIDE=CARDS, and the "
                "stock's size with --stock-size"
            )
        hand_lists = []
        for seat in range(n):
            if seat == mover:
                hand_lists.append(hands.get(mover, []))
                continue
            hand_lists.append(rest[: wants[seat]])
            rest = rest[wants[seat] :]
        stock = rest
    else:
        hand_lists = [hands.get(s, []) for s in range(n)]
        stock = args.stock
        if args.rest_to is not None:
            used = named | set(stock)
            pile_lists[args.rest_to] = pile_lists[args.rest_to] + [
                c for c in ALL_CARDS if c not in used
            ]
    return State.from_position(
        rules,
        hands=hand_lists,
        table=table,
        stock=stock,
        to_move=args.to_move,
        dealer=dealer,
        last_capturer=args.last_capturer,
        piles=pile_lists,
        sweeps=args.sweeps,
        scores=args.scores,
    )


def run(rules: Rules | None, args: argparse.Namespace) -> int:
    """Runs `solve` or `analyze` (prints each move with its value), or `move` (`rules` None:
    the line carries them).

    Raises:
        CaptureFastError: bad input (`capturefast.cli.main` prints it as a usage error).
    """
    if args.command == "move" or rules is None:
        return _move(args)
    given = None if args.position is None else _from_notation(args)
    if args.command == "solve":
        state = _state(rules, args, hidden=False) if given is None else given
        if isinstance(state, View):  # pragma: no cover - `_from_notation` reads a state line
            raise ArgumentError("solve needs a state line")
        sol = solve(state)
        rows = sorted(sol.move_values.items(), key=lambda kv: -kv[1])
        if args.json:
            out: dict[str, Any] = {
                "value": sol.value,
                "nodes": sol.nodes,
                "moves": [{"move": str(m), "value": v} for m, v in rows],
                "best_moves": [str(m) for m in sol.best_moves],
            }
            print(json.dumps(out, indent=2))
            return 0
        print(f"value {sol.value:+d} for seat {state.to_move}'s side ({sol.nodes:,} nodes)")
        width = max(len(str(m)) for m, _ in rows)
        for m, v in rows:
            print(f"  {m!s:<{width}}  {v:+d}" + ("  best" if v == sol.value else ""))
        return 0
    position = _state(rules, args, hidden=True) if given is None else given
    an = analyze(position, worlds=args.worlds, seed=args.seed, horizon=args.horizon)
    if args.json:
        print(
            json.dumps(
                {
                    "seat": an.seat,
                    "worlds": an.worlds,
                    "exact": an.exact,
                    "best_move": str(an.best_move),
                    "moves": [
                        {"move": str(m.move), "mean": m.mean, "stderr": m.stderr} for m in an.moves
                    ],
                },
                indent=2,
            )
        )
        return 0
    print(an)
    return 0


def _move(args: argparse.Namespace) -> int:
    """`capturefast move`: the move of a built-in bot in a notation line."""
    bot = Bot(args.bot, seed=args.seed)
    text = args.position
    position: State | View
    if any(t.startswith("seat=") for t in text.split()):
        position = View.from_notation(text)
        seat = position.seat
    else:
        position = State.from_notation(text)
        seat = -1 if position.to_move is None else int(position.to_move)
    move = bot.choose(position)
    if args.json:
        out = {"move": str(move), "sweep": move.sweep, "seat": seat, "bot": bot.name}
        print(json.dumps(out))
    else:
        print(move)
    return 0
