"""The `capturefast` command line: simulations, tournaments, solver queries and variants.

    capturefast simulate --game scopa --players 2 --bots greedy random --hands 100000
    capturefast simulate --bots expert greedy --matches 1000 --duplicate --json
    capturefast tournament --bots random random_card greedy --hands 5000
    capturefast solve --hand 0="7D 3C" --hand 1="KS 2D" --table "5C 4H" --to-move 0 --dealer 1 \\
        --last-capturer 1 --rest-to 1
    capturefast rules cirulla --set target=100 --format toml
    capturefast rules --list
    capturefast simulate --preset cirulla --set target=100 --bots expert greedy --matches 100

`simulate`, `tournament`, `solve` and `analyze` play a game's defaults (`--game`), a preset
(`--preset NAME`) or a variant file as `rules --format toml|json` writes it (`--rules FILE`),
with `--set NAME=VALUE` options on top.

Long runs draw a progress bar on stderr when it is a terminal (``--progress`` forces it,
``--no-progress`` hides it). Ctrl-C stops a run at once (the deals in progress are dropped):
what finished is printed, and the exit status is 130. A bad argument prints the usage and one
error line (sometimes a ``hint:`` line after it) on stderr, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any, NoReturn

import numpy as np

from capturefast._core import Card, Rules, State, __version__, bot_names
from capturefast.cli_solve import add_parsers as add_solver_parsers
from capturefast.cli_solve import run as run_solver
from capturefast.errors import CaptureFastError, did_you_mean, printable
from capturefast.records import GameRecord
from capturefast.sim import SimRequest, SimulationResult, simulate
from capturefast.solve import ReviewRow
from capturefast.tournament import tournament
from capturefast.variants import MATCH_OPTIONS, PRESETS, describe, dumps, load, preset_names
from capturefast.variants import rules as preset_rules

__all__ = ["main"]

GAMES = ("scopa", "escoba", "chkobba")
EXIT_INTERRUPTED = 130

EXIT_USAGE = 2

_MAX_SEED = 2**64 - 1
_MAX_HANDS = 10**10
_DEFAULT_HANDS = 5000

Option = tuple[str, str | int | bool]


class _UsageError(Exception):
    """A bad command line, found by a parser or by the command it runs; `main` prints it."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser
        self.message = message


class _Parser(argparse.ArgumentParser):
    """An `ArgumentParser` whose errors reach `main`'s one handler instead of exiting here, so
    that a parse error and a bad value found while running read the same (subcommands' parsers
    are of this class too: `add_subparsers` makes them of the parent's class)."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(self, message)


def _explain(parser: argparse.ArgumentParser, message: str, argv: Sequence[str]) -> str:
    """`message` with the bad value named and a `hint:` line, where argparse leaves them out
    (the library's errors refusing an unknown name carry their own, `errors.did_you_mean`)."""
    m = re.fullmatch(r"argument (\S+): expected one argument", message)
    if m:
        # argparse reads `--hand -1=7D` or `--sweeps -1,0` as a flag with its value missing.
        flags = m[1].split("/")
        for flag, value in itertools.pairwise(argv):
            if flag in flags and re.match(r"-\d", value):
                return (
                    f"argument {m[1]}: expected a value, got one that reads as a flag: {value}\n"
                    f"hint: join a value that starts with `-` to its flag: {flag}={value}"
                )
        return message
    # argparse's own wording puts the choices, or quotes, after the bad value.
    m = re.fullmatch(r"argument (\S+): invalid choice: (.*) \(choose from (.*)\)", message)
    if m:
        value, choices = m[2].strip("'"), [c.strip("'") for c in m[3].split(", ")]
        hint = did_you_mean(value, choices)
        return f"argument {m[1]}: expected one of {', '.join(choices)}, got: {value}{hint}"
    m = re.fullmatch(r"argument (\S+): invalid int value: '(.*)'", message)
    if m:
        return f"argument {m[1]}: expected a whole number, got: {m[2]}"
    m = re.fullmatch(r"unrecognized arguments: (.*)", message)
    if m:
        flag = next((w.partition("=")[0] for w in m[1].split() if w.startswith("--")), "")
        known = [o for o in parser._option_string_actions if o.startswith("--")]
        return message + did_you_mean(flag, known)
    # An option for 4 players only (the Scopone deals) with `--players` not given.
    if re.search(r"\bneeds 4 players\b", message) and "--players" not in argv:
        return f"{message}\nhint: give --players 4"
    return message


def _fail(parser: argparse.ArgumentParser, message: str, argv: Sequence[str]) -> NoReturn:
    """Prints the usage, one `error:` line and any `hint:` line, and exits with status 2 (the
    message's control characters written as `\\xNN`, `printable`)."""
    parser.print_usage(sys.stderr)
    text = printable(_explain(parser, message, argv))
    parser.exit(EXIT_USAGE, f"{parser.prog}: error: {text}\n")


def _file_error(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    """Prints one `error:` line (and any `hint:` line) for a fault in the contents of a file
    the command read, without the usage (the arguments were right), and exits with status 2."""
    parser.exit(EXIT_USAGE, f"{parser.prog}: error: {printable(message)}\n")


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


def _option_type(*, preset: bool) -> Callable[[str], Option]:
    """An argparse type: ``NAME=VALUE``, the value read as a bool, an int, or a string
    (`preset`: for `rules`, where the preset's name chooses the game)."""

    def parse(text: str) -> Option:
        return _option(text, preset=preset)

    return parse


def _option(text: str, *, preset: bool = False) -> Option:
    name, eq, raw = text.partition("=")
    if not eq or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got: {text}")
    if preset and name.strip() == "game":
        raise argparse.ArgumentTypeError(
            f"the preset's name chooses the game (see `capturefast rules --list`), got: {text}"
        )
    if name.strip() in ("game", "players"):
        raise argparse.ArgumentTypeError(
            f"the game and the player count have their own flags (--{name.strip()}), got: {text}"
        )
    value: str | int | bool
    if raw.lower() in ("true", "false"):
        value = raw.lower() == "true"
    else:
        try:
            value = int(raw)
        except ValueError:
            value = raw
    return name.strip().replace("-", "_"), value


def _preset_name(text: str) -> str:
    """An argparse type: a preset name (`preset_names()`; `-` may stand for `_`, any case)."""
    name = text.strip().lower().replace("-", "_")
    names = preset_names()
    if name not in names:
        hint = did_you_mean(name, names)
        raise argparse.ArgumentTypeError(f"expected one of {', '.join(names)}, got: {text}{hint}")
    return name


def _options(p: argparse.ArgumentParser, given: list[Option]) -> dict[str, str | int | bool]:
    """The `--set` options as a dict; an option given twice is a usage error naming it, as a
    notation line and a variant file refuse it (which value wins would be the order's)."""
    options: dict[str, str | int | bool] = {}
    for name, value in given:
        if name in options:
            p.error(f"argument --set: the option is given twice: {name}")
        options[name] = value
    return options


def _single_hands(
    p: argparse.ArgumentParser, args: argparse.Namespace, plays: str, hint: str
) -> None:
    """Refuses a `--set` option that matters only in matches (`MATCH_OPTIONS`) for a run of
    single hands, which would play the same without it: a usage error naming the option, not
    a run that ignores it unseen (a preset's or a variant file's own target is no error: they
    are whole variants, and their hands are played)."""
    for name, _ in args.option:
        if name in MATCH_OPTIONS:
            p.error(
                f"argument --set: the option matters only in matches, and {plays}: {name}\n"
                f"hint: {hint}"
            )


def _rule_sets(p: argparse.ArgumentParser, args: argparse.Namespace) -> list[Rules]:
    """The rules of each run from `--game`, `--players`, `--preset`, `--rules` and `--set`:
    the one place the command line builds `Rules`. Several only for `simulate`'s `--game all`
    and `--players 0`; `--set` applies on top of the game, the preset or the file.

    Raises:
        _UsageError: an unreadable variant file or one that holds no variant, or a player
            count the file does not play.
        CaptureFastError: an option or player count the game or preset refuses.
    """
    options = _options(p, args.option)
    default_game, default_players = args.rules_defaults
    if args.rules is not None:
        try:
            base = load(args.rules)
        except OSError as e:
            p.error(f"argument --rules: cannot read the variant file ({e.strerror}): {args.rules}")
        except CaptureFastError as e:
            p.error(f"argument --rules: {args.rules}: {e}")
        if args.players is not None and args.players != base.players:
            p.error(
                f"argument --players: the variant file {args.rules} is for {base.players} "
                f"players, got: {args.players}"
            )
        if not options:
            return [base]
        return [Rules(base.game, players=base.players, **{**base.options, **options})]
    if args.preset is not None:
        own = int(PRESETS[args.preset].overrides.get("players", 2))
        counts = [own] if args.players is None else [2, 4] if args.players == 0 else [args.players]
        for n in counts:
            try:
                preset_rules(args.preset, players=n)
            except CaptureFastError:  # scopone and its scientifico deal need 4 players
                p.error(
                    f"argument --players: the preset {args.preset} is for {own} players, got: "
                    f"{args.players}"
                )
        return [preset_rules(args.preset, players=n, **options) for n in counts]
    game = default_game if args.game is None else args.game
    players = default_players if args.players is None else args.players
    games = GAMES if game == "all" else (game,)
    counts = [2, 4] if players == 0 else [players]
    return [Rules(g, players=n, **options) for g, n in itertools.product(games, counts)]


def _rules(p: argparse.ArgumentParser, args: argparse.Namespace) -> Rules:
    """The one rule set of a subcommand that runs under one (its `--game` takes no `all`)."""
    [rules] = _rule_sets(p, args)
    return rules


def _threads(n: int) -> int | None:
    return None if n == 0 else n


def _progress(args: argparse.Namespace) -> bool:
    return args.progress if args.progress is not None else sys.stderr.isatty()


def _write_csv(out: IO[str], results: list[SimulationResult], level: str) -> None:
    """One table: a row per hand (or match) of every run, with its game and player count."""
    header_done = False
    for r in results:
        cols = r.columns(level)
        if not header_done:
            out.write(",".join(["game", "players", *cols]) + "\n")
            header_done = True
        if not len(next(iter(cols.values()))):
            continue
        table = np.column_stack([c.astype(np.int64) for c in cols.values()])
        fmt = f"{r.rules.game},{r.rules.players}," + ",".join(["%d"] * table.shape[1])
        np.savetxt(out, table, fmt=fmt)


def _simulate(p: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    # Every run's rules and arguments are checked before the first run starts and before the
    # records file is created or replaced (an option only some of the games take fails up front).
    runs = _rule_sets(p, args)
    if args.csv and len({r.game for r in runs}) > 1:
        p.error("--csv writes one table, and the games' categories differ: choose one --game")
    matches = args.matches is not None
    if not matches:
        _single_hands(p, args, "simulate plays single hands without --matches", "give --matches N")
    count = args.matches if matches else (args.hands or _DEFAULT_HANDS)
    text = not (args.json or args.csv)
    bots = args.bots[0] if len(args.bots) == 1 else args.bots
    records: IO[str] | None = None
    for rules in runs:
        req = SimRequest.of(
            rules,
            None if matches else count,
            count if matches else None,
            bots,
            args.duplicate,
            args.seed,
            _threads(args.threads),
        )
        req.run(dry_run=True)
    if args.records is not None:
        try:
            records = open(args.records, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as e:
            p.error(f"cannot write the records file: {args.records}: {e.strerror}")
    results: list[SimulationResult] = []
    try:
        for rules in runs:
            if records is not None and results:
                records.write("\n")  # a blank line before the next run's first game
            r = simulate(
                rules,
                None if matches else count,
                matches=count if matches else None,
                bots=bots,
                duplicate=args.duplicate,
                seed=args.seed,
                threads=_threads(args.threads),
                progress=_progress(args),
                records=records,
            )
            results.append(r)
            if text:
                rate = r.num_hands / r.seconds if r.seconds > 0 else float("inf")
                print(
                    f"\n{rules.game}, {rules.players} players: {r.num_hands} hands in "
                    f"{r.seconds:.3f} s "
                    f"({rate:,.0f} hands/s, {r.threads} thread{'' if r.threads == 1 else 's'})"
                )
                print(r)
            if r.interrupted:
                break
    finally:
        if records is not None:
            records.close()
    if args.json:
        json.dump([r.to_dict() for r in results], sys.stdout, indent=2)
        print()
    elif args.csv:
        _write_csv(sys.stdout, results, "matches" if matches else "hands")
    if results and results[-1].interrupted:
        print("capturefast: interrupted; printed what finished", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def _replay(p: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from capturefast.records import read_records
    from capturefast.solve import review

    shown = games = 0
    try:
        for record in read_records(args.file):
            games += 1
            if args.game is not None and games != args.game:
                continue
            if shown:
                print()
            print(f"game {games}")
            _print_record(record, review(record) if args.review else None)
            shown += 1
    except BrokenPipeError:
        raise  # the reader of the output went away (`| head`): `main` ends quietly
    except OSError as e:
        p.error(f"cannot read the records file: {args.file}: {e.strerror}")
    except CaptureFastError as e:
        # The file's contents, not the command line: the usage would not help.
        _file_error(p, str(e))
    if not games:
        _file_error(p, f"the records file holds no game: {args.file}")
    if args.game is not None and not shown:
        p.error(f"--game {args.game}: the file holds {games} games")
    return 0


def _print_record(record: GameRecord, rows: list[ReviewRow] | None) -> None:
    """A game: its headers, then each hand's deal, moves (with the solver's verdict under
    --review) and score report."""
    for tag, value in record.headers.items():
        print(f"  {tag}: {value}")
    for k, hand in enumerate(record.hands):
        start = hand.start
        if start.phase == "cut":
            # Chkobba: the deal is completed once the cutter has kept or tabled the cut card.
            print(f"\nhand {k + 1}: dealer {start.dealer}, cut card {start.cut_card}")
        else:
            print(f"\nhand {k + 1}: dealer {start.dealer}, table {_cards(start.table)}")
            _print_hands(start)
        state = start
        mine = [r for r in rows if r.hand == k] if rows is not None else []
        for ply, mv in enumerate(hand.moves):
            seat = state.to_move
            sweep = " (sweep)" if state.is_sweep(mv) else ""
            line = f"  {ply + 1:>3}. seat {seat}: {mv}{sweep}"
            if mine:
                r = mine[ply]
                verdict = "best" if r.loss == 0 else f"loses {r.loss}, best {r.best_moves[0]}"
                line += f"  [{r.value:+d}, {verdict}]"
            if hand.comments[ply]:
                line += f"  ; {hand.comments[ply]}"
            print(line)
            cut = state.phase == "cut"
            state = state.play(mv)
            if cut and state.phase != "cut":
                print(f"       table {_cards(state.table)}")
                _print_hands(state)
        if state.hand_over:
            print()
            print(state.hand_report())
        else:
            print(f"  (the hand is not over: seat {state.to_move} to move)")


def _print_hands(state: State) -> None:
    for holder, cards in enumerate(state.hands):
        print(f"  seat {holder} holds {_cards(cards)}")


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards)) if cards else "-"


def _tournament(p: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    rules = _rules(p, args)
    _single_hands(
        p,
        args,
        "a tournament plays single hands",
        "`capturefast simulate --matches N` plays whole matches",
    )
    t = tournament(
        rules,
        args.bots,
        args.hands,
        seed=args.seed,
        threads=_threads(args.threads),
        progress=_progress(args),
    )
    if args.json:
        json.dump(t.to_dict(), sys.stdout, indent=2)
        print()
    elif args.csv:
        # The csv module quotes what needs it: a bot's budget may hold a comma.
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(["a", "b", "deals", "mean", "ci_low", "ci_high"])
        for pair in t.to_dict()["pairs"]:
            d: dict[str, Any] = pair["difference"]
            lo, hi = ("" if v is None else repr(v) for v in d["ci"])
            writer.writerow([pair["a"], pair["b"], pair["deals"], repr(d["mean"]), lo, hi])
    else:
        print(t)
        print(f"({t.seconds:.2f} s)")
    if t.interrupted:
        print("capturefast: interrupted; printed what finished", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def _rules_command(p: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """`capturefast rules`: what a preset plays by, or its variant file; `--list` the presets."""
    if args.list:
        if args.name is not None:
            p.error(f"argument --list: it lists every preset and takes no name, got: {args.name}")
        for flag, given in (("--set", args.set), ("--players", args.players)):
            if given:
                p.error(f"argument --list: it lists the presets as they are, without {flag}")
        if args.format == "toml":
            p.error("argument --format: the list is text or json, got: toml")
        if args.format == "json":
            listed = [{"name": name, "title": preset.title} for name, preset in PRESETS.items()]
            print(json.dumps(listed, indent=2))
            return 0
        width = max(len(name) for name in PRESETS)
        for name, preset in PRESETS.items():
            print(f"{name:<{width}}  {preset.title}")
        return 0
    if args.name is None:
        p.error("give a preset name (see `capturefast rules --list`)")
    overrides = _options(p, args.set)
    r = preset_rules(args.name, players=args.players, **overrides)
    if args.format == "text":
        changes = "".join(f", {k}={json.dumps(v)}" for k, v in overrides.items())
        players = "" if args.players is None else f", players={args.players}"
        print(f"preset {args.name}{players}{changes}\n")
        print(describe(r))
    else:
        sys.stdout.write(dumps(r, args.format))
    return 0


def _game_options(s: argparse.ArgumentParser, *, game_all: bool = False) -> None:
    """Game, preset or variant file, players and variant options (`game_all`: also "all"
    games and both counts); `_rule_sets` reads them. `--game`, `--preset` and `--rules` exclude
    each other, so `--game` has no default here: `rules_defaults` holds the game's and the
    player count's when neither `--preset` nor `--rules` is given."""
    which = s.add_mutually_exclusive_group()
    if game_all:
        which.add_argument("--game", choices=(*GAMES, "all"), help="default: all, one run each")
        s.add_argument(
            "--players",
            type=int,
            choices=(0, 2, 4),
            help="0: one run with 2 and one with 4 (the default without --preset or --rules, "
            "which play their own count)",
        )
        s.set_defaults(rules_defaults=("all", 0))
    else:
        which.add_argument("--game", choices=GAMES, help="default: scopa")
        s.add_argument(
            "--players", type=int, choices=(2, 4), help="default: 2, or the preset's or file's"
        )
        s.set_defaults(rules_defaults=("scopa", 2))
    which.add_argument(
        "--preset",
        type=_preset_name,
        metavar="NAME",
        help="play a preset instead of a game's defaults (see `capturefast rules --list`)",
    )
    which.add_argument(
        "--rules",
        metavar="FILE",
        help="play the variant of a .toml or .json file, as `capturefast rules NAME --format "
        "toml` writes it",
    )
    s.add_argument(
        "--set",
        "-o",
        "--option",
        dest="option",
        type=_option_type(preset=False),
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a variant option in the spec's words, e.g. --set target=21 (repeatable)",
    )


def _common(s: argparse.ArgumentParser, *, game_all: bool) -> None:
    """Options shared by the simulation subcommands."""
    names = ", ".join(bot_names())
    _game_options(s, game_all=game_all)
    s.add_argument("--seed", type=_int_in(0, _MAX_SEED), default=0, help="default: 0")
    s.add_argument(
        "--threads", type=_int_in(0, 1024), default=0, help="worker threads; 0 = every core"
    )
    out = s.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the results as JSON")
    out.add_argument("--csv", action="store_true", help="print the results as CSV")
    s.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar on stderr (default: when stderr is a terminal)",
    )
    s.epilog = (
        f"bots: {names}; also pimc and ismcts (milliseconds a move), optionally with a "
        "budget: pimc:worlds=400, pimc:worlds=50,horizon=hand, pimc:eval=equity, pimc:infer=off, "
        "pimc:infer=search, pimc:beta=4, pimc:endgame=round, pimc:sweep=1, "
        "pimc:draw=independent, ismcts:iterations=1000,ms=50"
    )


def _solver(p: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    # `move` reads its rules from the notation line; `solve` and `analyze` may too.
    if args.command == "move":
        return run_solver(None, args)
    return run_solver(_rules(p, args), args)


def _engine(p: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from capturefast.engine import main as engine_main

    return engine_main()


def _serve(p: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from capturefast.server import main as serve_main

    try:
        return serve_main(args.host, args.port, args.time_limit)
    except OSError as e:
        p.error(f"cannot listen there ({e.strerror or e}): {args.host} port {args.port}")


Command = Callable[[argparse.ArgumentParser, argparse.Namespace], int]


def _parser() -> tuple[argparse.ArgumentParser, dict[str, tuple[argparse.ArgumentParser, Command]]]:
    """The command line's parser, and each subcommand's parser and function by name."""
    p = _Parser(
        prog="capturefast",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"capturefast {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser(
        "simulate",
        help="play hands or matches with bots and print a summary per category",
        description="Play hands (or matches) with bots; print means with 95% confidence "
        "intervals. --json prints the summaries, --csv one row per hand (or match).",
    )
    _common(s, game_all=True)
    s.add_argument(
        "--bots",
        nargs="+",
        default=["random"],
        metavar="BOT",
        help="one bot for every seat, one per side, or one per seat (default: random)",
    )
    count = s.add_mutually_exclusive_group()
    count.add_argument(
        "--hands", type=_int_in(1, _MAX_HANDS), help=f"deals to play (default {_DEFAULT_HANDS})"
    )
    count.add_argument("--matches", type=_int_in(1, _MAX_HANDS), help="matches to play instead")
    s.add_argument(
        "--duplicate",
        action="store_true",
        help="play every deal twice, the bots swapping sides",
    )
    s.add_argument(
        "--records",
        metavar="PATH",
        help="write the game record of every game played to PATH (docs/records.md)",
    )
    t = sub.add_parser(
        "tournament",
        help="round robin of bots on duplicate deals, with a ranking",
        description="Every pair of bots plays the same duplicate deals; prints the table of "
        "point differences per hand with 95% confidence intervals and a ranking.",
    )
    _common(t, game_all=False)
    t.add_argument("--bots", nargs="+", required=True, metavar="BOT", help="two or more bots")
    t.add_argument(
        "--hands", type=_int_in(1, _MAX_HANDS), default=2000, help="deals per pair (default 2000)"
    )
    solver_parsers = add_solver_parsers(sub, _game_options, _int_in)
    v = sub.add_parser(
        "rules",
        help="what a preset variant plays by, in plain words, or as a TOML/JSON variant file",
        description="Describe a preset (scopa, scopone, cirulla, ...) with any overrides, or "
        "print it as a variant file (--format toml or json) for `capturefast.variants.load`.",
    )
    v.add_argument("name", nargs="?", metavar="NAME", help="a preset name (see --list)")
    v.add_argument("--list", action="store_true", help="list the presets")
    v.add_argument(
        "--players", type=int, choices=(2, 4), default=None, help="default: the preset's"
    )
    v.add_argument(
        "--set",
        "-o",
        "--option",
        dest="set",
        type=_option_type(preset=True),
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override an option, e.g. --set target=21 (repeatable)",
    )
    v.add_argument(
        "--format",
        choices=("text", "json", "toml"),
        default="text",
        help="plain words (the default), or a variant file",
    )
    r = sub.add_parser(
        "replay",
        help="check a game records file move by move and print its hands with their reports",
        description="Replay every game of a records file (docs/records.md) under its rules; "
        "print each hand's deal, moves and score report. An illegal move, a deal that does "
        "not carry on the match or a wrong result is reported with its line.",
    )
    r.add_argument("file", metavar="FILE", help="a game records file")
    r.add_argument("--game", type=_int_in(1, 1 << 62), metavar="N", help="only the N-th game")
    r.add_argument(
        "--review",
        action="store_true",
        help="value every move with the exact solver, all cards known (as cf.review)",
    )
    e = sub.add_parser(
        "engine",
        help="the engine protocol on stdin and stdout, for bots in other programs",
        description="Read engine commands on stdin, one a line, and answer on stdout "
        "(docs/protocol.md): set rules and a position, ask for a move, the legal moves, "
        "a solve or an analysis; `stop` ends a search; `quit` ends the engine.",
    )
    w = sub.add_parser(
        "serve",
        help="the JSON server over HTTP (needs the `capturefast[server]` extra)",
        description="Serve legal moves, bot moves, solves, analyses, score reports, bounded "
        "simulations and the presets as JSON over HTTP (docs/server.md); the OpenAPI "
        "description is at /openapi.json, its pages at /docs.",
    )
    w.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1")
    w.add_argument("--port", type=_int_in(0, 65535), default=8000, help="default: 8000")
    w.add_argument(
        "--time-limit",
        type=_int_in(1, 600_000),
        default=10_000,
        metavar="MS",
        help="the most milliseconds a request may ask for (default 10000)",
    )
    return p, {
        "simulate": (s, _simulate),
        "tournament": (t, _tournament),
        **{name: (parser, _solver) for name, parser in solver_parsers.items()},
        "rules": (v, _rules_command),
        "replay": (r, _replay),
        "engine": (e, _engine),
        "serve": (w, _serve),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status.

    Every bad input ends here, in one handler: a parse error, a bad value a command finds
    (`p.error`), and a `CaptureFastError` from the library print the subcommand's usage and one
    `error:` line naming the bad value (a `hint:` line may follow), then exit with status 2.
    """
    words = list(sys.argv[1:] if argv is None else argv)
    p, commands = _parser()
    parser = p
    try:
        # Unknown words are reported by the subcommand's parser, with its usage, not the top's.
        args, extra = p.parse_known_args(words)
        parser, command = commands[args.command]
        if extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        return command(parser, args)
    except _UsageError as e:
        _fail(e.parser, e.message, words)
    except CaptureFastError as e:
        _fail(parser, str(e), words)
    except KeyboardInterrupt:
        print("\ncapturefast: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader (e.g. `| head`) has gone: stop quietly, as Unix tools do.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - the interpreter closes it at exit
        return 0


if __name__ == "__main__":
    sys.exit(main())
