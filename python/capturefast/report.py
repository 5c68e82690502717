"""Scoring reports: what a hand scored, per side and per category, with the evidence; and what a
match came to, hand by hand.

Each report reads as plain text (`str`), as a rich table in a terminal (`rich.print(report)`), as
a dict or JSON that round-trips exactly, and as rows for a pandas DataFrame.
"""

from __future__ import annotations

import functools
import importlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self

from capturefast import _core, _text
from capturefast.errors import InvalidCardError, ReportError, VariantError

if TYPE_CHECKING:
    from rich.table import Table

    from capturefast._core import Move, Rules, State

__all__ = ["HandReport", "MatchReport", "ReportError", "play_match_report"]


# The games a report may be of. What it knows of each, the names of its categories, sweeps,
# bonuses and prime modes and the rule of its fourth category, the core says (`_core.game_facts`,
# `_core.prime_award`, `_core.prime_cascade`); this module renders and checks against it.
GAMES: Final = ("scopa", "escoba", "chkobba")


@dataclass(frozen=True)
class _Facts:
    """What the core says about one game that a report reads (`_core.game_facts`)."""

    categories: tuple[str, str, str, str]
    sweep: str  # the word for one sweep, e.g. `scopa` (K-A9 `chkobba`)
    sweeps: str  # and for several, e.g. `scope`
    prime_modes: tuple[str, ...]  # the values of the option deciding the fourth category
    default_mode: str  # its value in the game's default rules
    bonuses: tuple[str, ...]  # every bonus name, in score order


@functools.cache
def _facts(game: str) -> _Facts:
    f = _core.game_facts(game)
    cards, coins, seven, prime = f["categories"]
    return _Facts(
        categories=(cards, coins, seven, prime),
        sweep=f["sweep"],
        sweeps=f["sweeps"],
        prime_modes=tuple(f["prime_modes"]),
        default_mode=_core.Rules(game).prime_mode,
        bonuses=tuple(f["bonuses"]),
    )


# Rendering only: the words and letters a report is written in.
_RANK_PLURALS: Final = ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens")
_RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
_SUITS: Final = "CDHS"
_COINS: Final = "D"
_SEVEN_OF_COINS: Final = "7D"
_KING_OF_COINS: Final = "KD"
_SIDES: Final = "AB"

# Keys of a side's counts: ints, except `primiera` (int or None: invalid), `ranks` (10 ints, A..K),
# `primiera_cards` (the best card of each suit present, C D H S).
_INT_COUNTS: Final = frozenset({"cards", "coins", "sevens", "sixes", "coin_run"})
_COUNT_KEYS: Final = _INT_COUNTS | {"primiera", "ranks", "primiera_cards"}
_HAND_KEYS: Final = (
    "game",
    "points",
    "awards",
    "counts",
    "sweeps",
    "piles",
    "scores",
    "bonuses",
    "prime_mode",
    "leftovers",
)
_HAND_REQUIRED: Final = frozenset({"game", "points", "awards", "counts", "sweeps"})


def _side(i: int | None) -> str:
    return "nobody" if i is None else _SIDES[i]


def _pair(xs: Sequence[object]) -> str:
    return f"{xs[0]} v {xs[1]}"


def _more(a: int, b: int) -> int | None:
    """The side with more, or None for a tie."""
    return 0 if a > b else 1 if b > a else None


# A count the report leaves out (`primiera` may be None: invalid).
_UNTOLD: Final = object()


def _told_ranks(counts: Sequence[Mapping[str, Any]], piles: Sequence[Sequence[str]]) -> list[Any]:
    """Each side's cards per rank A..K as far as the report tells: its `ranks` count, else its
    pile, else the `sevens` and `sixes` counts (None where the report does not say)."""
    out: list[Any] = []
    for i, c in enumerate(counts):
        if "ranks" in c:
            out.append(list(c["ranks"]))
        elif piles:
            out.append([sum(card[:-1] == r for card in piles[i]) for r in _RANKS])
        else:
            ranks: list[int | None] = [None] * len(_RANKS)
            for key, r in (("sevens", "7"), ("sixes", "6")):
                if key in c:
                    ranks[_RANKS.index(r)] = c[key]
            out.append(ranks)
    return out


def _award_bounds(
    game: str, mode: str, ranks: Sequence[Any], primiera: Sequence[Any]
) -> set[int | None]:
    """The engine's award of the fourth category (`_core.prime_award`) in the worst and in the
    best case for side A of what the report leaves out (None ranks, `_UNTOLD` primiera).

    More of a rank, or a higher primiera (a valid one over an invalid one), never costs a side
    the category: so when the two cases agree, that is the award whatever was left out. One
    award, or two when the report does not tell."""
    out: set[int | None] = set()
    for best_for_a in (False, True):
        ranks_in: list[list[int]] = []
        primiera_in: list[int | None] = []
        for i in (0, 1):
            good = best_for_a == (i == 0)  # the case is the best one for side i
            ranks_in.append([(len(_SUITS) if good else 0) if n is None else n for n in ranks[i]])
            mine, theirs = primiera[i], primiera[1 - i]
            if mine is not _UNTOLD:
                primiera_in.append(mine)
            elif not good:
                primiera_in.append(None)
            else:  # above the other side's; any valid total is above an invalid one
                primiera_in.append(0 if theirs is _UNTOLD or theirs is None else theirs + 1)
        try:
            out.add(_core.prime_award(game, mode, ranks_in, primiera_in))
        except OverflowError:
            raise ReportError(
                f"`primiera` counts past what the engine reads: {list(primiera)}"
            ) from None
    return out


def _check_totals(
    game: str,
    counts: list[dict[str, Any]],
    piles: list[list[str]],
    awards: Mapping[str, int | None],
    prime_mode: str | None,
) -> None:
    """The counts agree with each other and with the piles, and the awards with the counts
    (each category by the rule that decides it)."""
    for key, most in (("cards", 40), ("coins", 10), ("sevens", 4), ("sixes", 4)):
        # A count left out is none here, so one side's count is bounded too (the engine reads it).
        told = [c.get(key, 0) for c in counts]
        if told[0] + told[1] > most:
            raise ReportError(
                f"there are {most} {key} in the deck; the counts say: {told[0]} + {told[1]}"
            )
    ranks = [c.get("ranks") for c in counts]
    for i, c in enumerate(counts):
        mine = ranks[i]
        if mine is None:
            continue
        derived = {"cards": sum(mine), "sevens": mine[6], "sixes": mine[5]}
        for key, n in derived.items():
            if key in c and c[key] != n:
                raise ReportError(
                    f"side {_SIDES[i]}'s ranks give {n} {key} but its counts say: {c[key]}"
                )
        theirs = ranks[1 - i] or [0] * len(_RANKS)
        if any(x + y > 4 for x, y in zip(mine, theirs, strict=True)):
            raise ReportError(f"a rank has 4 cards; the counts by rank say: {ranks}")
    for i, pile in enumerate(piles):
        c = counts[i]
        held = {
            "cards": len(pile),
            "coins": sum(card.endswith(_COINS) for card in pile),
            "sevens": sum(card.startswith("7") for card in pile),
            "sixes": sum(card.startswith("6") for card in pile),
        }
        for key, n in held.items():
            if key in c and c[key] != n:
                raise ReportError(
                    f"side {_SIDES[i]}'s pile holds {n} {key} but its counts say: {c[key]}"
                )
        if "ranks" in c:
            by_rank = [sum(card[:-1] == r for card in pile) for r in _RANKS]
            if c["ranks"] != by_rank:
                raise ReportError(
                    f"side {_SIDES[i]}'s pile holds {by_rank} cards by rank but its counts "
                    f"say: {c['ranks']}"
                )
    cards, coins, seven, prime = _facts(game).categories
    expected: dict[str, int | None] = {
        cards: _more(counts[0]["cards"], counts[1]["cards"]),
        coins: _more(counts[0]["coins"], counts[1]["coins"]),
    }
    if piles:
        expected[seven] = next((i for i, p in enumerate(piles) if _SEVEN_OF_COINS in p), None)
    if prime_mode is not None:
        primiera = [c.get("primiera", _UNTOLD) for c in counts]
        award = _award_bounds(game, prime_mode, _told_ranks(counts, piles), primiera)
        if len(award) == 1:
            expected[prime] = award.pop()
    for name, want in expected.items():
        if awards[name] != want:
            raise ReportError(
                f"`{name}` goes to {_side(want)} by the counts and piles; the awards say: "
                f"{_side(awards[name])}"
            )


# The values of the options that change a side's primiera total (V-S2, V-S4), which a report
# does not carry: its totals must be what one setting of them gives, the same for both sides.
_PRIMIERA_OPTIONS: Final = (
    ("primiera_figures", ("flat", "graded", "zero")),
    ("primiera_missing_suit", ("invalid", "zero")),
)
# The pile bonuses, which the piles decide (`declarations` come from the deal, not the piles).
_PILE_BONUSES: Final = ("re_bello", "napola", "grande", "all_coins", "all_sevens")
_DECK: Final = tuple(r + s for r in _RANKS for s in _SUITS)


@functools.cache
def _scorers(game: str) -> tuple[Rules, ...]:
    """Rules of `game`, one per setting of the primiera options it takes, each scoring every
    pile bonus at its least: 1 point, the napola uncapped (what the piles decide, whatever
    points the rules give)."""
    settings: list[dict[str, Any]] = [{}]
    for name, values in _PRIMIERA_OPTIONS:
        try:
            _core.Rules(game, 2, **{name: values[0]})
        except VariantError:  # an option the game does not take: it plays the default
            continue
        settings = [{**s, name: v} for s in settings for v in values]
    bonuses: dict[str, Any] = {
        "re_bello": True,
        "napola": True,
        "grande": 1,
        "all_coins_bonus": 1,
        "all_sevens_bonus": 1,
    }
    out = [_core.Rules(game, 2, **bonuses, **s) for s in settings]
    return tuple(out)


# What the core's scoring gives one side: its counts and its pile bonuses.
_Scored = tuple[dict[str, Any], dict[str, int]]


def _score_sides(
    game: str, piles: Sequence[Sequence[str]], sides: Sequence[int]
) -> list[list[_Scored]]:
    """What the core's scoring gives `sides` of `piles` (two piles holding the deck), per
    rules of `_scorers(game)`."""
    out = []
    for rules in _scorers(game):
        rep = rules.score([list(p) for p in piles])
        out.append(
            [
                (rep.counts[i], {k: v[i] for k, v in rep.bonuses.items() if k in _PILE_BONUSES})
                for i in sides
            ]
        )
    return out


def _scored(game: str, pile: Sequence[str]) -> list[_Scored]:
    """What the core's scoring gives one side holding `pile` (the other side holding the
    rest), per rules of `_scorers(game)`."""
    held = set(pile)
    rest = [card for card in _DECK if card not in held]
    return [s[0] for s in _score_sides(game, [pile, rest], [0])]


def _scored_piles(game: str, piles: Sequence[Sequence[str]]) -> list[list[_Scored]]:
    """What the core's scoring gives each side of `piles`, per rules of `_scorers(game)`: one
    score of the two piles when they hold the deck, else one per side (cards left to nobody)."""
    if len(piles[0]) + len(piles[1]) == len(_DECK):
        return _score_sides(game, piles, [0, 1])
    a, b = _scored(game, piles[0]), _scored(game, piles[1])
    return [[x, y] for x, y in zip(a, b, strict=True)]


def _shown(value: object) -> str:
    if isinstance(value, list):
        return "[" + " ".join(str(x) for x in value) + "]"
    return "null (invalid)" if value is None else str(value)


def _cards_told(i: int, value: Sequence[str | None]) -> list[str]:
    """Side `i`'s `primiera_cards` in the engine's spelling (a None, a suit missing, left out)."""
    from capturefast._core import Card

    cards = [str(Card(card)) for card in value if card is not None]
    if len(set(cards)) != len(cards):
        raise ReportError(
            f"side {_SIDES[i]}'s `primiera_cards` names a card more than once: {_shown(cards)}"
        )
    return cards


def _check_evidence(
    game: str,
    counts: list[dict[str, Any]],
    piles: list[list[str]],
    bonuses: Mapping[str, Sequence[int]],
) -> None:
    """Each side's evidence is what the core's scoring gives from its pile: `primiera_cards`
    (the best card per suit), `primiera` (their total under one setting of the primiera options
    for both sides), `coin_run`, and the pile bonuses (`re_bello`, `napola`, `grande`,
    `all_coins`, `all_sevens`: points to the side the piles give them, nothing to the other).

    Without piles, each side's `primiera_cards` stand in for its pile (so they must be the best
    card of each suit they name and `primiera` their total), and a `coin_run` must be within the
    coins and give the napola."""
    from capturefast._core import Card

    settings = set(range(len(_scorers(game))))
    from_piles = _scored_piles(game, piles) if piles else []
    for i, c in enumerate(counts):
        side = _SIDES[i]
        # What the core gives from the pile, or from the evidence that stands in for it.
        if piles:
            got, what = [sides[i] for sides in from_piles], "pile gives"
        elif "primiera_cards" in c:
            got, what = _scored(game, _cards_told(i, c["primiera_cards"])), "primiera cards give"
        else:
            got, what = [], ""
        for key in ("primiera_cards", "primiera"):
            if key not in c or not got:
                continue
            told = _cards_told(i, c[key]) if key == "primiera_cards" else c[key]
            agree = {k for k in settings if got[k][0][key] == told}
            if not agree:
                gives = " or ".join(dict.fromkeys(_shown(got[k][0][key]) for k in settings))
                raise ReportError(
                    f"side {side}'s `{key}` is {_shown(told)} but its {what}: {gives}"
                )
            settings = agree
        if "primiera_cards" in c:  # kept in the engine's spelling, as the piles are
            c["primiera_cards"] = [None if x is None else str(Card(x)) for x in c["primiera_cards"]]
        if piles:
            counted, least = got[0]
            if "coin_run" in c and c["coin_run"] != counted["coin_run"]:
                raise ReportError(
                    f"side {side}'s `coin_run` is {c['coin_run']} but its pile gives: "
                    f"{counted['coin_run']}"
                )
        elif "coin_run" in c:
            run = c["coin_run"]
            if run > c["coins"]:
                raise ReportError(
                    f"side {side}'s `coin_run` is {run} but its `coins` are: {c['coins']}"
                )
            # The run's coins stand in for the pile: they give the napola.
            least = {"napola": _scored(game, _DECK[1 : 4 * run : 4])[0][1]["napola"]}
            what = "coin_run gives"
        else:
            continue
        for name, want in least.items():
            if name not in bonuses:
                continue
            told = bonuses[name][i]
            # `want` is the bonus at its least: the rules' points (1 to 100; the napola capped
            # from 3) are that much or, but for re bello, more.
            if name == "re_bello":
                ok = told == want
            elif name == "napola":
                ok = told == want or 3 <= told < want
            else:
                ok = (told == 0) == (want == 0)
            if not ok:
                gives = {
                    "re_bello": str(want),
                    "napola": str(want) if want < 4 else f"{want} (or from 3, by `napola_cap`)",
                }.get(name, "0" if want == 0 else "the rules' points (1 or more)")
                raise ReportError(f"side {side}'s `{name}` bonus is {told} but its {what}: {gives}")


# --------------------------------------------------------------------------- validation


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _ints(name: str, value: object, n: int = 2) -> list[int]:
    if not isinstance(value, list | tuple) or len(value) != n:
        raise ReportError(f"`{name}` expects a list of {n} whole numbers, got: {value!r}")
    for x in value:
        if not _is_int(x) or x < 0:
            raise ReportError(f"`{name}` expects whole numbers from 0, got: {x!r}")
    return list(value)


def _check_counts(game: str, value: object) -> list[dict[str, Any]]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ReportError(f"`counts` expects one table per side (2), got: {value!r}")
    out: list[dict[str, Any]] = []
    for c in value:
        if not isinstance(c, Mapping):
            raise ReportError(f"`counts` expects a table per side, got: {c!r}")
        for k, x in c.items():
            if k not in _COUNT_KEYS:
                known = ", ".join(sorted(_COUNT_KEYS))
                raise ReportError(f"unknown count (expected one of {known}): {k}")
            ok: bool
            if k in _INT_COUNTS:
                ok = _is_int(x) and x >= 0
            elif k == "primiera":
                ok = x is None or (_is_int(x) and x >= 0)
            elif k == "ranks":
                ok = isinstance(x, list) and len(x) == 10 and all(_is_int(y) and y >= 0 for y in x)
            elif k == "primiera_cards":
                ok = (
                    isinstance(x, list)
                    and len(x) <= 4
                    and all(y is None or isinstance(y, str) for y in x)
                )
            else:
                ok = isinstance(x, bool | int)
            if not ok:
                raise ReportError(f"count `{k}` has a value of the wrong kind: {x!r}")
        if "cards" not in c or "coins" not in c:
            raise ReportError(f"`counts` of a side needs `cards` and `coins`, got: {dict(c)!r}")
        out.append(dict(c))
    return out


def _check_piles(value: object, leftovers: object) -> tuple[list[list[str]], list[str]]:
    """The piles (none, or one per side) and the leftovers (cards the hand left to nobody), as
    card strings in the engine's spelling: every card once, all 40 between them when piles are
    given."""
    from capturefast._core import Card

    if not isinstance(value, list | tuple) or len(value) not in (0, 2):
        raise ReportError(f"`piles` expects one list of cards per side (2), got: {value!r}")
    if not isinstance(leftovers, list | tuple):
        raise ReportError(f"`leftovers` expects a list of cards, got: {leftovers!r}")
    seen: set[str] = set()
    lists: list[list[str]] = []
    for pile in [*value, leftovers]:
        if not isinstance(pile, list | tuple):
            raise ReportError(f"a pile is a list of cards, got: {pile!r}")
        cards: list[str] = []
        for card in pile:
            if not isinstance(card, str):
                raise InvalidCardError(f"a card in a report is a string such as 7D, got: {card!r}")
            # The engine's spelling ("10D" is KD, "7d" is 7D): the counts and the evidence
            # read the cards by it.
            key = str(Card(card))
            if key in seen:
                raise InvalidCardError(f"card given more than once: {card}")
            seen.add(key)
            cards.append(key)
        lists.append(cards)
    piles, rest = lists[:-1], lists[-1]
    if piles and len(seen) != 40:
        missing = [r + s for r in _RANKS for s in _SUITS if r + s not in seen]
        raise ReportError(
            "the piles (and the leftovers) must hold all 40 cards between them; missing: "
            + "+".join(missing)
        )
    return piles, rest


def _validate_hand(d: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(d, Mapping):
        raise ReportError(f"a hand report is a table, got: {type(d).__name__}")
    for k in d:
        if k not in _HAND_KEYS:
            raise ReportError(
                f"unknown hand report key (expected one of {', '.join(_HAND_KEYS)}): {k}"
            )
    for k in _HAND_KEYS:
        if k in _HAND_REQUIRED and k not in d:
            raise ReportError(f"a hand report needs `{k}`; missing: {k}")
    game = d["game"]
    if game not in GAMES:
        raise ReportError(f"unknown game (expected one of {', '.join(GAMES)}): {game}")
    facts = _facts(game)
    cats = facts.categories
    points = _ints("points", d["points"])
    sweeps = _ints("sweeps", d["sweeps"])
    awards = d["awards"]
    if not isinstance(awards, Mapping):
        raise ReportError(f"`awards` expects a table of category -> side, got: {awards!r}")
    for name, side in awards.items():
        if name not in cats:
            raise ReportError(
                f"unknown {game} category (expected one of {', '.join(cats)}): {name}"
            )
        if side not in (0, 1, None) or isinstance(side, bool):
            raise ReportError(f"award of `{name}` expects 0, 1 or null, got: {side!r}")
    for name in cats:
        if name not in awards:
            raise ReportError(f"a {game} hand report needs every category; missing: {name}")
    counts = _check_counts(game, d["counts"])
    piles, leftovers = _check_piles(d.get("piles", []), d.get("leftovers", []))
    prime_mode = d.get("prime_mode")
    if prime_mode is not None and prime_mode not in facts.prime_modes:
        raise ReportError(
            f"`prime_mode` of {game} expects one of {', '.join(facts.prime_modes)} or null, "
            f"got: {prime_mode!r}"
        )
    scores = d.get("scores")
    if scores is not None:
        scores = _ints("scores", scores)
    bonuses = d.get("bonuses", {})
    if not isinstance(bonuses, Mapping):
        raise ReportError(
            f"`bonuses` expects a table of bonus -> points per side, got: {bonuses!r}"
        )
    for name, pts in bonuses.items():
        if name not in facts.bonuses:
            raise ReportError(f"unknown bonus (expected one of {', '.join(facts.bonuses)}): {name}")
        _ints(f"bonuses.{name}", pts)
    # The evidence must be what the piles give, and the totals agree with each other.
    _check_evidence(game, counts, piles, bonuses)
    _check_totals(game, counts, piles, awards, prime_mode)
    for i in (0, 1):
        expected = (
            sweeps[i]
            + sum(1 for s in awards.values() if s == i)
            + sum(p[i] for p in bonuses.values())
        )
        if points[i] != expected:
            raise ReportError(
                f"side {_SIDES[i]}'s points do not add up (sweeps + categories + bonuses = "
                f"{expected}): {points[i]}"
            )
    return {
        "game": game,
        "points": points,
        "awards": dict(awards),
        "counts": counts,
        "sweeps": sweeps,
        "piles": piles,
        "scores": scores,
        "bonuses": {k: list(v) for k, v in bonuses.items()},
        "prime_mode": prime_mode,
        "leftovers": leftovers,
    }


# --------------------------------------------------------------------------- hand report


class _JsonReport(ABC):
    """`to_json` / `from_json` of a report, built on its `to_dict` / `from_dict`."""

    _what: ClassVar[str]

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """A plain, JSON-ready dict of the report."""

    @classmethod
    @abstractmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        """The report of `to_dict()`'s output, validated."""

    def to_json(self, **kwargs: Any) -> str:
        """`to_dict()` as JSON text (keyword arguments go to `json.dumps`)."""
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_json(cls, text: str) -> Self:
        """The report of `to_json()`'s output, checked as in `from_dict`."""
        return cls.from_dict(_text.read(text, "json", cls._what, ReportError))


@dataclass(frozen=True)
class HandReport(_JsonReport):
    """The score of one hand.

    Attributes:
        game: `scopa`, `escoba` or `chkobba`.
        points: points per side (categories, sweeps and bonuses).
        awards: category name -> side index that won it, or None for a tie. The names follow the
            game (`settebello`/`velo`/`7ayya`, `primiera`/`setenta`/`bermila`, ...).
        counts: per side, what the categories count: `cards`, `coins`, `sevens`, `sixes`,
            `ranks` (per rank A..K), `primiera` (None: invalid, a suit is missing),
            `primiera_cards` (the best card of each suit present), `coin_run` (docs/variants.md).
        sweeps: sweeps per side.
        piles: per side, the captured cards (card strings).
        scores: the match score after the hand, when the report comes from a played hand.
        bonuses: bonus name (`re_bello`, `napola`, `grande`, `all_coins`, `all_sevens`,
            `declarations`) -> points per side; only the bonuses the rules score.
        prime_mode: what decided the fourth category: the rules' `primiera_mode` (`table`,
            `most_sevens`, `three_sevens`) or, in Chkobba, `bermila` (`sevens_then_sixes`,
            `cascade`, `primiera`); None if not known. The evidence follows it.
        leftovers: the cards the hand left to nobody: with optional capture, where nobody
            captured, all of them stay on the table (docs/variants.md); usually empty.
    """

    _what: ClassVar[str] = "hand report"

    game: str
    points: list[int]
    awards: dict[str, int | None]
    counts: list[dict[str, Any]]
    sweeps: list[int]
    piles: list[list[str]] = field(default_factory=list)
    scores: list[int] | None = None
    bonuses: dict[str, list[int]] = field(default_factory=dict)
    prime_mode: str | None = None
    leftovers: list[str] = field(default_factory=list)

    # ------------------------------------------------------------------ data

    def to_dict(self) -> dict[str, Any]:
        """A plain dict (JSON-ready) of every field."""
        return {
            "game": self.game,
            "points": list(self.points),
            "awards": dict(self.awards),
            "counts": [
                {k: list(v) if isinstance(v, list | tuple) else v for k, v in c.items()}
                for c in self.counts
            ],
            "sweeps": list(self.sweeps),
            "piles": [list(p) for p in self.piles],
            "scores": None if self.scores is None else list(self.scores),
            "bonuses": {k: list(v) for k, v in self.bonuses.items()},
            "prime_mode": self.prime_mode,
            "leftovers": list(self.leftovers),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        """The report of `to_dict()`'s output, checked.

        What is checked, each value against the core's own scoring (`Rules.score`,
        `_core.prime_award`), not a second scorer:

        - the shape: known keys, categories and bonuses, lists of the right length, counts of
          the right kind, every card real and given once, the piles and leftovers holding all
          40 cards between them;
        - with piles, each side's counts against its pile: `cards`, `coins`, `sevens`,
          `sixes`, `ranks`, `coin_run`, `primiera_cards` (the best card of each suit) and
          `primiera` (their total). A report does not carry `primiera_figures` nor
          `primiera_missing_suit`, so the totals must be what one setting of them gives, the
          same for both sides;
        - with piles, the pile bonuses: `re_bello` 1 to the side holding KD; `napola` the
          holder's run of coins from the ace (or less, from 3: `napola_cap`); `grande`,
          `all_coins`, `all_sevens` some points to the side holding J-Q-K of coins, all ten
          coins, all four sevens; 0 to the other side and to a side not holding them.
          `declarations` come from the deal, which a report does not carry;
        - without piles, what the counts themselves give: a side's `primiera_cards` must be
          the best card of each suit among them and `primiera` their total (as above), its
          `coin_run` no more than its `coins` and its `napola` what that run gives; the
          `ranks` against `cards`, `sevens`, `sixes`; no more cards, coins, sevens, sixes or
          cards of a rank than the deck has;
        - the awards: `cards` and `coins` by the counts, the seven of coins by the piles, the
          fourth category by `prime_mode` from the ranks and primiera totals (when what the
          report leaves out could not change it);
        - the points: sweeps plus categories plus bonuses, per side.

        Raises:
            ReportError: (a ValueError) any of the above that fails; a value that disagrees
                with the piles names the side, the field, the value given and the value the
                piles give.
            InvalidCardError: a card that does not exist, or a card given twice.
        """
        return cls(**_validate_hand(d))

    # ------------------------------------------------------------------ evidence

    def _holder(self, card: str, count_key: str | None = None) -> int | None:
        """The side holding `card`: from the piles, or the counts."""
        for i, p in enumerate(self.piles):
            if card in p:
                return i
        if count_key is not None:
            for i, c in enumerate(self.counts):
                if c.get(count_key):
                    return i
        return None

    def _primiera(self, i: int) -> str:
        """`75 (6C 7D 7H 5S)`, or `invalid (6D 7H 7S, no C)`: the core's best card per suit."""
        c = self.counts[i]
        value = c.get("primiera")
        shown = [card for card in c.get("primiera_cards") or [] if card is not None]
        held_suits = {card[-1] for card in shown}
        missing = [s for s in _SUITS if s not in held_suits] if "primiera_cards" in c else []
        text = "invalid" if value is None else str(value)
        detail = " ".join(shown)
        if missing:
            detail = (detail + ", " if detail else "") + "no " + " ".join(missing)
        return f"{text} ({detail})" if detail else text

    def _seven_evidence(self, award: int | None) -> str:
        holder = self._holder(_SEVEN_OF_COINS)
        if holder is None and not self.piles:
            holder = award
        return f"{_SEVEN_OF_COINS} held by {_side(holder)}"

    def evidence(self, category: str) -> str:
        """What decided `category`, in words: a category of the game, its sweeps (`scope`,
        `escobas`, `chkobbas`, the singular, or `sweeps`) or a bonus of the report.

        Raises:
            ReportError: a name that is none of these.
        """
        a, b = self.counts
        facts = _facts(self.game)
        cards, coins, seven, prime = facts.categories
        if category == cards:
            return f"{a['cards']} v {b['cards']}"
        if category == coins:
            return f"{a['coins']} v {b['coins']}"
        if category == seven:
            return self._seven_evidence(self.awards.get(category))
        if category == prime:
            return self._prime_evidence()
        # The word for one sweep (K-A9 `chkobba`) is taken too.
        if category in (facts.sweeps, facts.sweep, "sweeps"):
            return _pair(self.sweeps)
        if category in self.bonuses:
            return self._bonus_evidence(category)
        names = [*facts.categories, facts.sweeps, *self.bonuses]
        raise ReportError(
            f"not a category of this {self.game} report (expected one of {', '.join(names)}): "
            f"{category}"
        )

    def _prime_evidence(self) -> str:
        """The fourth category's evidence, by the rule that decided it (`_core.prime_cascade`):
        the ranks a cascade compared (up to the first that differs), the sevens where they
        decided without the primiera (three sevens), or the primiera values. Without a
        `prime_mode`, the game's default rules."""
        mode = self.prime_mode or _facts(self.game).default_mode
        ranks = _told_ranks(self.counts, self.piles)
        cascade = _core.prime_cascade(self.game, mode)
        parts = []
        for r in cascade or []:
            x, y = ranks[0][r], ranks[1][r]
            if x is None or y is None:
                break
            parts.append(f"{_RANK_PLURALS[r]} {x} v {y}")
            if x != y:
                break
        if parts:
            return ", ".join(parts)
        seven = _RANKS.index("7")
        x, y = ranks[0][seven], ranks[1][seven]
        if (
            cascade is None
            and x is not None
            and y is not None
            and len(_award_bounds(self.game, mode, ranks, [_UNTOLD, _UNTOLD])) == 1
        ):
            return f"sevens {x} v {y}"
        return f"{self._primiera(0)} v {self._primiera(1)}"

    def _bonus_evidence(self, name: str) -> str:
        pts = self.bonuses.get(name, [0, 0])
        scorer = 0 if pts[0] > pts[1] else 1 if pts[1] > pts[0] else None
        if name == "re_bello":
            holder = self._holder(_KING_OF_COINS)
            return f"{_KING_OF_COINS} held by {_side(holder if self.piles else scorer)}"
        if name == "napola":
            runs = [self._run(i) for i in (0, 1)]
            for i, n in enumerate(runs):
                if n >= 3:
                    return f"{'-'.join(_RANKS[:n])} of coins held by {_SIDES[i]}"
            return "nobody holds A-2-3 of coins"
        if name == "grande":
            holder = None
            if self.piles:
                for i, p in enumerate(self.piles):
                    if all(r + _COINS in p for r in "JQK"):
                        holder = i
            else:
                holder = scorer
            return f"J-Q-K of coins held by {_side(holder)}"
        if name == "all_coins":
            holder = next((i for i, c in enumerate(self.counts) if c["coins"] == 10), None)
            return f"all ten coins held by {_side(holder)}"
        if name == "all_sevens":
            holder = None
            for i in (0, 1):
                if self.piles:
                    if all("7" + s in self.piles[i] for s in _SUITS):
                        holder = i
                elif self.counts[i].get("sevens") == 4 or (
                    "ranks" in self.counts[i] and self.counts[i]["ranks"][6] == 4
                ):
                    holder = i
            return f"all four sevens held by {_side(holder)}"
        if name == "declarations":
            return f"declared {_pair(pts)}"
        return _pair(pts)

    def _leftover_words(self) -> str:
        n = len(self.leftovers)
        return f"{n} card{'s' if n != 1 else ''} to nobody (nobody captured)"

    def _run(self, i: int) -> int:
        return int(self.counts[i].get("coin_run", 0))

    @property
    def sweep_name(self) -> str:
        """What the game calls its sweeps: `scope`, `escobas` or `chkobbas`."""
        return _facts(self.game).sweeps if self.game in GAMES else "sweeps"

    # ------------------------------------------------------------------ tables

    def rows(self) -> list[dict[str, Any]]:
        """One row per category, then the sweeps and each bonus, for `pandas.DataFrame`.

        Each row: `category`, `evidence`, `points_a`, `points_b`, `won_by` (`"A"`, `"B"` or
        None). The points of the rows add up to `points`.
        """
        out: list[dict[str, Any]] = []
        for cat, side in self.awards.items():
            out.append(
                {
                    "category": cat,
                    "evidence": self.evidence(cat),
                    "points_a": int(side == 0),
                    "points_b": int(side == 1),
                    "won_by": None if side is None else _SIDES[side],
                }
            )
        extra = [(self.sweep_name, list(self.sweeps))]
        extra += [(name, list(p)) for name, p in self.bonuses.items()]
        for name, (pa, pb) in extra:
            out.append(
                {
                    "category": name,
                    "evidence": self.evidence(name),
                    "points_a": pa,
                    "points_b": pb,
                    "won_by": "A" if pa > pb else "B" if pb > pa else None,
                }
            )
        return out

    def to_pandas(self) -> Any:
        """`rows()` as a pandas DataFrame (pandas is imported only here)."""
        pd = importlib.import_module("pandas")
        return pd.DataFrame(self.rows(), columns=_HAND_COLUMNS)

    def __str__(self) -> str:
        table = [("category", "evidence", "A", "B")]
        for row in self.rows():
            table.append(
                (row["category"], row["evidence"], str(row["points_a"]), str(row["points_b"]))
            )
        table.append(("points", _pair(self.points), str(self.points[0]), str(self.points[1])))
        if self.leftovers:
            table.append(("leftovers", self._leftover_words(), "", ""))
        if self.scores is not None:
            table.append(("match score", _pair(self.scores), "", ""))
        w = [max(len(r[i]) for r in table) for i in range(4)]
        lines = [f"{self.game} hand: side A v side B"]
        for r in table:
            lines.append(
                f"  {r[0]:<{w[0]}}  {r[1]:<{w[1]}}  {r[2]:>{w[2]}}  {r[3]:>{w[3]}}".rstrip()
            )
        return "\n".join(lines)

    def __rich__(self) -> Table:
        """A rich table: `rich.print(report)`."""
        from rich.table import Table

        t = Table(title=f"{self.game} hand", title_justify="left")
        t.add_column("category")
        t.add_column("evidence")
        t.add_column("A", justify="right")
        t.add_column("B", justify="right")
        t.add_column("won by", justify="center")
        for r in self.rows():
            t.add_row(
                r["category"],
                r["evidence"],
                str(r["points_a"]),
                str(r["points_b"]),
                r["won_by"] or "-",
            )
        t.add_section()
        t.add_row("points", "", str(self.points[0]), str(self.points[1]), "", style="bold")
        if self.leftovers:
            t.add_row("leftovers", self._leftover_words(), "", "", "")
        if self.scores is not None:
            t.add_row("match score", "", str(self.scores[0]), str(self.scores[1]), "")
        return t


_HAND_COLUMNS: Final = ["category", "evidence", "points_a", "points_b", "won_by"]
_MATCH_COLUMNS: Final = [
    "hand",
    "points_a",
    "points_b",
    "score_a",
    "score_b",
    "sweeps_a",
    "sweeps_b",
]


# --------------------------------------------------------------------------- match report


def _rules_of(rules: Rules | Mapping[str, Any]) -> Rules:
    from capturefast._core import Rules

    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, Mapping):
        from capturefast.variants import from_dict

        return from_dict(rules)
    raise TypeError(f"expected Rules or a dict of rules, got: {type(rules).__name__}")


class MatchReport(_JsonReport):
    """A match hand by hand: the running score, who won and why.

    Attributes:
        rules: the rules of the match.
        hands: the hand reports, in order.
        scores: the match score after each hand.
        winner: the side that won (0 or 1), or None while the match goes on.
        why: why the match ended (or why it goes on), in words.
    """

    _what: ClassVar[str] = "match report"

    rules: Rules
    hands: list[HandReport]
    scores: list[list[int]]
    winner: int | None
    why: str

    def __init__(self, rules: Rules | Mapping[str, Any], hands: Iterable[HandReport]) -> None:
        """The report of `hands` played under `rules` (a `Rules` or its dict).

        Raises:
            ReportError: a hand of another game, a hand whose match score disagrees with the
                points before it, or a hand after the match was over.
        """
        self.rules = _rules_of(rules)
        self.hands = list(hands)
        self.scores = []
        self.winner = None
        self._compute()

    @classmethod
    def from_hands(
        cls, rules: Rules | Mapping[str, Any], hands: Iterable[HandReport]
    ) -> MatchReport:
        """Same as `MatchReport(rules, hands)`."""
        return cls(rules, hands)

    def _compute(self) -> None:
        r = self.rules
        target = r.target
        # Napoleone (V-S7): whether all ten coins win the match is the core's to say.
        all_coins = r.all_coins_win
        score = [0, 0]
        over = False
        why = "no hand has been played yet: the match goes on"
        for n, h in enumerate(self.hands, start=1):
            if not isinstance(h, HandReport):
                raise TypeError(f"expected HandReport, got: {type(h).__name__}")
            if over:
                raise ReportError(f"the match was over after hand {n - 1}; one hand too many: {n}")
            if h.game != r.game:
                raise ReportError(f"a {r.game} match cannot hold a hand of: {h.game}")
            score = [score[0] + h.points[0], score[1] + h.points[1]]
            if h.scores is not None and list(h.scores) != score:
                raise ReportError(
                    f"hand {n} says the match score is {_pair(h.scores)}, but the points of "
                    f"the hands add up to: {_pair(score)}"
                )
            self.scores.append(list(score))
            coins = [i for i in (0, 1) if h.counts[i].get("coins") == 10]
            if all_coins and coins:
                self.winner, over = coins[0], True
                why = (
                    f"side {_SIDES[coins[0]]} captured all ten coins in hand {n}, which wins "
                    f"the match ({_pair(score)})"
                )
                continue
            w = r.match_winner(score)
            reached = [s >= target for s in score]
            if w is not None:
                self.winner, over = w, True
                if reached[1 - w]:
                    why = (
                        f"both sides reached {target} after hand {n}; side {_SIDES[w]} won "
                        f"with the higher total ({_pair(score)})"
                    )
                else:
                    why = f"side {_SIDES[w]} reached {target} alone after hand {n} ({_pair(score)})"
            elif all(reached):
                why = (
                    f"both sides reached {target} with equal totals after hand {n} "
                    f"({_pair(score)}): another hand is played"
                )
            else:
                why = f"no side has reached {target} yet ({_pair(score)}): the match goes on"
        self.why = why

    @property
    def over(self) -> bool:
        """Whether the match has a winner."""
        return self.winner is not None

    @property
    def final_score(self) -> list[int]:
        """The match score after the last hand ([0, 0] before any)."""
        return list(self.scores[-1]) if self.scores else [0, 0]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MatchReport):
            return NotImplemented
        return self.rules == other.rules and self.hands == other.hands

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"MatchReport({self.rules.game}, hands={len(self.hands)}, "
            f"score={_pair(self.final_score)}, winner={_side(self.winner)})"
        )

    def to_dict(self) -> dict[str, Any]:
        """A plain dict (JSON-ready): the rules, every hand, the running scores, winner, why."""
        return {
            "rules": self.rules.to_dict(),
            "hands": [h.to_dict() for h in self.hands],
            "scores": [list(s) for s in self.scores],
            "winner": self.winner,
            "why": self.why,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        """The report of `to_dict()`'s output; the scores, winner and why are checked.

        Raises:
            ReportError: an unknown key, a bad hand, or derived fields that disagree.
        """
        if not isinstance(d, Mapping):
            raise ReportError(f"a match report is a table, got: {type(d).__name__}")
        keys = ("rules", "hands", "scores", "winner", "why")
        for k in d:
            if k not in keys:
                raise ReportError(
                    f"unknown match report key (expected one of {', '.join(keys)}): {k}"
                )
        for k in ("rules", "hands"):
            if k not in d:
                raise ReportError(f"a match report needs `{k}`; missing: {k}")
        if not isinstance(d["hands"], list | tuple):
            raise ReportError(f"`hands` expects a list of hand reports, got: {d['hands']!r}")
        if not isinstance(d["rules"], Mapping):
            raise ReportError(f"`rules` expects a table of rules, got: {d['rules']!r}")
        m = cls(d["rules"], [HandReport.from_dict(h) for h in d["hands"]])
        for k in ("scores", "winner", "why"):
            if k in d and d[k] != m.to_dict()[k]:
                raise ReportError(f"`{k}` disagrees with the hands, which give: {m.to_dict()[k]!r}")
        return m

    def rows(self) -> list[dict[str, int]]:
        """One row per hand, for `pandas.DataFrame`: `hand` (from 1), `points_a`, `points_b`,
        `score_a`, `score_b` (after the hand), `sweeps_a`, `sweeps_b`."""
        return [
            {
                "hand": n,
                "points_a": h.points[0],
                "points_b": h.points[1],
                "score_a": s[0],
                "score_b": s[1],
                "sweeps_a": h.sweeps[0],
                "sweeps_b": h.sweeps[1],
            }
            for n, (h, s) in enumerate(zip(self.hands, self.scores, strict=True), start=1)
        ]

    def to_pandas(self) -> Any:
        """`rows()` as a pandas DataFrame (pandas is imported only here)."""
        pd = importlib.import_module("pandas")
        return pd.DataFrame(self.rows(), columns=_MATCH_COLUMNS)

    def _headline(self) -> str:
        r = self.rules
        return f"{r.game} match, {r.players} players, to {r.target}"

    def _result(self) -> str:
        return ("no winner yet: " if self.winner is None else "") + self.why

    def __str__(self) -> str:
        sweeps = self.rules.sweep_names[1]
        head = ("hand", "points", "score", sweeps)
        table = [head]
        for row in self.rows():
            table.append(
                (
                    str(row["hand"]),
                    f"{row['points_a']} v {row['points_b']}",
                    f"{row['score_a']} v {row['score_b']}",
                    f"{row['sweeps_a']} v {row['sweeps_b']}",
                )
            )
        w = [max(len(r[i]) for r in table) for i in range(4)]
        lines = [self._headline() + ": side A v side B"]
        for r in table:
            lines.append(f"  {r[0]:>{w[0]}}  {r[1]:<{w[1]}}  {r[2]:<{w[2]}}  {r[3]}".rstrip())
        lines.append(self._result())
        return "\n".join(lines)

    def __rich__(self) -> Table:
        """A rich table: `rich.print(report)`."""
        from rich.table import Table

        sweeps = self.rules.sweep_names[1]
        t = Table(title=self._headline(), title_justify="left", caption=self._result())
        t.add_column("hand", justify="right")
        for name in ("points A", "points B", "score A", "score B", f"{sweeps} A", f"{sweeps} B"):
            t.add_column(name, justify="right")
        for row in self.rows():
            t.add_row(*(str(v) for v in row.values()))
        return t


def play_match_report(
    rules: Rules,
    seed: int = 0,
    bot: str | Callable[[State, list[Move]], Move] = "random",
    *,
    max_hands: int = 10_000,
) -> MatchReport:
    """Plays one match from deal `seed` and reports it.

    Args:
        rules: the rules of the match.
        seed: the deal seed (`State.new`); the random bot draws from `random.Random(seed)`.
        bot: `"random"` (a uniformly random legal move for every seat), or a function
            `choose(state, legal_moves) -> move` that plays every seat.
        max_hands: a guard against a match that never ends: after that many hands the
            report is returned as it stands, unfinished (`winner` None).

    Raises:
        VariantError: (a ValueError) an unknown bot name.
    """
    from capturefast._core import State

    if callable(bot):
        choose = bot
    elif bot == "random":
        rng = random.Random(seed)

        def choose(state: State, moves: list[Move]) -> Move:
            return rng.choice(moves)
    else:
        raise VariantError(f"unknown bot (expected random, or a function): {bot}")
    state = State.new(rules, seed)
    hands: list[HandReport] = []
    for _ in range(max_hands):
        while not state.hand_over:
            state = state.play(choose(state, state.legal_moves()))
        hands.append(state.hand_report())
        if state.match_over:
            break
        state = state.next_hand()
    return MatchReport(rules, hands)
