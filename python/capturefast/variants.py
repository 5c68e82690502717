"""Named variants (presets), variant files, and plain-English descriptions of a variant.

    >>> from capturefast import variants
    >>> rules = variants.rules("cirulla", target=100)
    >>> path = variants.save(rules, "cirulla.toml")
    >>> variants.load("cirulla.toml") == rules
    True
    >>> print(variants.describe(rules))  # doctest: +ELLIPSIS
    Scopa for 2 players.
    ...

A preset is a game plus a few option overrides (docs/variants.md, "Presets"); keyword arguments
override the preset. The rules are validated by the core when they are built: an invalid or
contradictory option raises `VariantError` naming the option.

A variant file is a flat table of options: TOML (`key = value`) or JSON (one object). It holds
`game`, `players` and the options, exactly `Rules.to_dict()`; a hand-written file may instead name
a `preset` and override some of its options.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, TypeAlias

from capturefast import _text
from capturefast._core import Rules, presets
from capturefast.errors import VariantError

__all__ = [
    "MATCH_OPTIONS",
    "PRESETS",
    "Preset",
    "describe",
    "dumps",
    "from_dict",
    "label",
    "load",
    "loads",
    "preset_names",
    "rules",
    "save",
    "to_dict",
]

OptionValue: TypeAlias = str | int | bool

FORMATS: Final = ("toml", "json")

MATCH_OPTIONS: Final = ("target", "all_coins_wins")
"""The options that matter only when hands make up a match: where it ends (`target`) and what
ends it early (`all_coins_wins`). A run of single hands deals, plays and scores the same
whatever they say, so the command line refuses them there (`simulate` without `--matches`,
`tournament`)."""


@dataclass(frozen=True)
class Preset:
    """A named variant: a game and the overrides of its defaults (players included).

    Attributes:
        game: `scopa`, `escoba` or `chkobba`.
        overrides: option name -> value on top of the game's defaults; `players` too.
        title: a one-line name of the variant for listings.
    """

    game: str
    overrides: Mapping[str, OptionValue] = field(default_factory=dict)
    title: str = ""


def _presets() -> Mapping[str, Preset]:
    # The core holds the one table (docs/variants.md, "Presets"): the position notation names
    # rules by preset, so the core must know them. A preset's players count is an override
    # here when it is not 2.
    table = {}
    for name, game, players, title, overrides in presets():
        options: dict[str, OptionValue] = dict(overrides)
        if players != 2:
            options = {"players": players, **options}
        table[name] = Preset(game, MappingProxyType(options), title)
    return MappingProxyType(table)


PRESETS: Final[Mapping[str, Preset]] = _presets()


def preset_names() -> list[str]:
    """The preset names, in the order of docs/variants.md."""
    return list(PRESETS)


def _preset_named(name: str) -> Preset:
    key = name.strip().lower().replace("-", "_") if isinstance(name, str) else name
    if not isinstance(key, str) or key not in PRESETS:
        raise VariantError(f"unknown preset (expected one of {', '.join(PRESETS)}): {name}")
    return PRESETS[key]


def _players(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise VariantError(f"`players` expects 2 or 4, got: {value!r}")
    return value


def rules(name: str, *, players: int | None = None, **overrides: OptionValue) -> Rules:
    """The rules of preset `name`, with keyword overrides of its options.

    Args:
        name: a preset name (`preset_names()`); `-` may stand for `_`.
        players: 2, or 4 in partnerships; default: the preset's (2 unless it says 4).
        **overrides: options in the words of docs/variants.md, e.g. `target=21`.

    Raises:
        VariantError: an unknown preset, or an invalid or contradictory option (the message
            names the option).
    """
    preset = _preset_named(name)
    if "game" in overrides:
        raise VariantError(
            f"preset `{name}` fixes the game to {preset.game}; "
            f"use `Rules(game, ...)` for another game: game"
        )
    options = dict(preset.overrides)
    default_players = options.pop("players", 2)
    n = _players(default_players if players is None else players)
    options.update(overrides)
    return Rules(preset.game, players=n, **options)


def label(rules: Rules) -> str:
    """The game, and the rules when they are not its defaults, as a headline names them:
    `scopa`, `scopa (cirulla)`, `scopa (cirulla, target=100)`, `chkobba (bermila=cascade)`.

    In brackets: the nearest preset (unless it is the game's own) and the options that differ
    from it, the core's choice, as the position notation writes the rules
    (`Rules.to_notation()`: `cirulla[target=100]`).
    """
    preset, _, options = rules.to_notation().partition("[")
    parts = [] if preset == rules.game else [preset]
    if options:
        parts += options.removesuffix("]").split(",")
    return f"{rules.game} ({', '.join(parts)})" if parts else rules.game


# --------------------------------------------------------------------------- dicts and files


def to_dict(rules: Rules) -> dict[str, Any]:
    """The canonical dict of `rules`: `game`, `players` and every option (`Rules.to_dict()`)."""
    return rules.to_dict()


def from_dict(d: Mapping[str, Any]) -> Rules:
    """Rules from a dict: `to_dict()`'s output, or `preset` plus overrides. An option's name
    may be written with dashes (`cut-card`), as the command line takes it.

    Raises:
        VariantError: a missing game, an unknown preset, an invalid option, or one given twice
            (as `cut-card` and `cut_card`).
    """
    if not isinstance(d, Mapping):
        raise VariantError(f"a variant is a table of options, got: {type(d).__name__}")
    given = d
    d = {}
    for key, value in given.items():
        if not isinstance(key, str):
            raise VariantError(f"option names are strings, got: {key!r}")
        if isinstance(value, float) or not isinstance(value, str | int):
            raise VariantError(
                f"option `{key}` expects a string, a whole number or true/false, got: {value!r}"
            )
        # `cut-card` is `cut_card`, as the command line reads it.
        name = key.replace("-", "_")
        if name in d:
            raise VariantError(f"the option is given twice: {name}")
        d[name] = value
    preset_name = d.pop("preset", None)
    if preset_name is not None:
        game = d.pop("game", None)
        players = d.pop("players", None)
        r = rules(str(preset_name), players=None if players is None else _players(players), **d)
        if game is not None and game != r.game:
            raise VariantError(f"preset `{preset_name}` plays {r.game}, not: {game}")
        return r
    if "game" not in d:
        raise VariantError("a variant needs `game` or `preset`; missing: game")
    if not isinstance(d["game"], str):
        raise VariantError(f"`game` expects scopa, escoba or chkobba, got: {d['game']!r}")
    if "players" in d:
        _players(d["players"])
    return Rules.from_dict(d)


def _toml_string(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _toml_value(key: str, value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_string(value)
    raise VariantError(f"option `{key}` cannot be written to a variant file: {value!r}")


def _toml_key(key: str) -> str:
    bare = key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key)
    return key if bare else _toml_string(key)


def _format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise VariantError(f"unknown variant file format (expected toml or json): {fmt}")
    return fmt


def dumps(rules: Rules, format: str = "toml") -> str:
    """The variant as the text of a TOML or JSON file (`format`: `toml` or `json`)."""
    d = to_dict(rules)
    if _format(format) == "json":
        return json.dumps(d, indent=2) + "\n"
    return "".join(f"{_toml_key(k)} = {_toml_value(k, v)}\n" for k, v in d.items())


def loads(text: str, format: str = "toml") -> Rules:
    """Rules from the text of a TOML or JSON variant file.

    Raises:
        TypeError: `text` is not a str.
        VariantError: text that does not parse (a key given twice included), is not a flat
            table, or holds an invalid option.
    """
    return from_dict(_text.read(text, _format(format), "variant", VariantError))


def _format_of(path: Path) -> str:
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise VariantError(f"a variant file ends in .toml or .json, got: {path.name}")
    return suffix


def save(rules: Rules, path: str | Path) -> Path:
    """Writes the variant to `path`, TOML or JSON by its extension; returns the path."""
    p = Path(path)
    text = dumps(rules, _format_of(p))
    p.write_text(text, encoding="utf-8")
    return p


def load(path: str | Path) -> Rules:
    """Rules from a `.toml` or `.json` variant file (see `loads`), UTF-8 (with or without a
    byte-order mark, as some editors write it).

    Raises:
        VariantError: the file is not UTF-8 text, or not a variant (see `loads`).
    """
    p = Path(path)
    fmt = _format_of(p)
    try:
        text = p.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise VariantError(
            f"a variant file is UTF-8 text ({e.reason} at byte {e.start}): {p}"
        ) from None
    return loads(text, fmt)


# --------------------------------------------------------------------------- description

# One sentence per option value (an int option has one template under "*", with `{v}` its value;
# other `{name}`s are the game's words). A value whose sentence is "" says nothing worth saying.
_SENTENCES: Final[Mapping[tuple[str, object], str]] = MappingProxyType(
    {
        # players and seating
        ("players", 2): "Two players play against each other.",
        ("players", 4): "Four players play in two partnerships: partners sit opposite each "
        "other (seats 0 and 2 against 1 and 3) and share one pile and one score.",
        ("direction", "counterclockwise"): "Play and the deal go round the table "
        "counterclockwise, and the deal passes to the right after each hand.",
        ("direction", "clockwise"): "Play and the deal go round the table clockwise, and the "
        "deal passes to the left after each hand.",
        ("deck", "standard"): "The 40-card deck has ranks A 2-7 J Q K in four suits; cards "
        "capture by their values: A 1, 2-7 their number, J 8, Q 9, K 10.",
        ("deck", "numerals"): "The deck is a 52-card deck without its face cards: 8, 9 and 10 "
        "take the places of J, Q and K; cards capture by their number (A 1).",
        # the deal
        ("deal", "standard"): "Each player is dealt 3 cards and 4 go face up on the table; "
        "when every hand is empty, 3 more cards each come from the stock.",
        ("deal", "scopone"): "Each player is dealt 9 cards and the last 4 go face up on the "
        "table; there is no stock.",
        ("deal", "scientifico"): "Each player is dealt 10 cards and the table starts empty, so "
        "no opening-table rule applies.",
        ("cut_card", True): "The player after the dealer cuts and looks at one card, then keeps "
        "it as one of their {hand_size} cards{or_table}.",
        ("cut_card", False): "There is no cut card.",
        ("redeal", "off"): "The opening table never forces a redeal.",
        ("redeal", "three_kings"): "If the opening table shows 3 or more kings, the cards are "
        "shuffled and dealt again.",
        ("redeal", "three_of_a_rank"): "If the opening table shows 3 or more cards of one rank, "
        "the cards are shuffled and dealt again.",
        ("redeal", "two_aces"): "If the opening table shows 2 or more aces, the cards are "
        "shuffled and dealt again.",
        ("redeal", "any_ace"): "If the opening table shows an ace, the cards are shuffled and "
        "dealt again.",
        ("declarations", True): "Whenever players receive 3 new cards, a hand of three of a "
        "kind or of capture values totalling less than 10 scores at once for its side.",
        ("declarations", False): "",
        ("declaration_low", "*"): "A hand totalling less than 10 scores {v}.",
        ("declaration_triple", "*"): "Three of a kind scores {v}.",
        ("declaration_wild", True): "The 7 of hearts is wild in a declaration: it makes three "
        "of a kind with any pair and counts 1 toward the total.",
        ("declaration_wild", False): "No card is wild in a declaration.",
        # capturing
        ("chkobba_face_values", "tunisian"): "Cards capture by their values: A 1, 2-7 their "
        "number, and the Tunisian Q 8, J 9, K 10.",
        ("chkobba_face_values", "italian"): "Cards capture by their values: A 1, 2-7 their "
        "number, and the Italian J 8, Q 9, K 10.",
        ("capture", "match"): "A played card captures a table card of the same value; if there "
        "is none, a set of table cards whose values add up to its value.",
        ("capture", "fifteen"): "A played card captures any set of table cards that, with it, "
        "adds up to 15.",
        ("capture", "match_or_fifteen"): "A played card captures a card of the same value (if "
        "there is none, a set adding up to its value) or a set that with it adds up to 15; the "
        "player chooses.",
        ("ace_takes_all", True): "An ace played onto a non-empty table takes every card on it.",
        ("ace_takes_all", False): "",
        ("ace_takes_ace_only", True): "When an ace is already on the table, a played ace "
        "captures as an ordinary card instead.",
        ("ace_takes_ace_only", False): "It takes the whole table even when an ace is on it.",
        ("fewest_cards", True): "Among the possible captures, only those taking the fewest "
        "cards are allowed.",
        ("fewest_cards", False): "",
        ("compulsory_capture", True): "Capturing is compulsory: a card that can capture must.",
        ("compulsory_capture", False): "Capturing is optional: any card may be put on the table.",
        ("renuncio", True): "A card trailed when it could have captured may be claimed by the "
        "next player, who then takes that capture (renuncio).",
        ("renuncio", False): "",
        # sweeps
        ("opening_sweeps", "off"): "",
        ("opening_sweeps", "sum"): "If the opening table totals 15, the dealer takes it as one "
        "{sweep}; if 30, as two.",
        ("opening_sweeps", "partition"): "If the opening table totals 15, the dealer takes it "
        "as one {sweep}; if 30 and it splits into two groups of 15, as two.",
        ("ace_sweep", True): "An ace taking the whole table counts as {a_sweep}.",
        ("ace_sweep", False): "An ace taking the whole table is not {a_sweep}.",
        ("last_play_sweep", "void"): "Clearing the table scores {a_sweep}, except on the last "
        "play of the hand; the last player to capture takes the cards left on the table.",
        ("last_play_sweep", "counts"): "Clearing the table scores {a_sweep}, even on the last "
        "play of the hand; the last player to capture takes the cards left on the table.",
        # scoring
        ("primiera_mode", "table"): "The higher {prime} wins it.",
        ("primiera_mode", "most_sevens"): "The {prime} goes to the side with more sevens; if "
        "tied, more sixes, then {sevens_tiebreak}.",
        ("primiera_mode", "three_sevens"): "A side with 3 or 4 sevens wins the {prime} "
        "outright; otherwise the higher {prime} wins.",
        ("primiera_figures", "flat"): "In the {prime}, 7 is worth 21, 6 18, A 16, 5 15, 4 14, "
        "3 13, 2 12 and each figure 10; a side scores its best card in each suit.",
        ("primiera_figures", "graded"): "In the {prime}, 7 is worth 21, 6 18, A 16, 5 15, 4 14, "
        "3 13, 2 12, K 10, Q 9, J 8; a side scores its best card in each suit.",
        ("primiera_figures", "zero"): "In the {prime}, 7 is worth 21, 6 18, A 16, 5 15, 4 14, "
        "3 13, 2 12 and figures nothing; a side scores its best card in each suit.",
        ("primiera_missing_suit", "invalid"): "A side missing a suit has no {prime}.",
        ("primiera_missing_suit", "zero"): "A missing suit counts 0 in the {prime}.",
        ("bermila", "sevens_then_sixes"): "The bermila goes to the side with more sevens; if "
        "tied, more sixes.",
        ("bermila", "cascade"): "The bermila goes to the side with more sevens; if tied, more "
        "sixes, then aces, fives, fours, threes, twos.",
        ("bermila", "primiera"): "The bermila goes to the higher primiera (7 21, 6 18, A 16, "
        "5 15, 4 14, 3 13, 2 12, figures 10; a side missing a suit has none).",
        # bonuses
        ("re_bello", True): "The king of coins (re bello) scores 1 for its holder.",
        ("re_bello", False): "",
        ("napola", True): "A side holding the A, 2 and 3 of coins (napola) scores the length of "
        "its run of coins from the ace; a side that captures all ten coins (Napoleone) wins the "
        "match at the end of that hand, whatever the scores.",
        ("napola", False): "",
        ("napola_cap", "*"): "The napola scores at most {v}.",
        ("grande", "*"): "A side holding J, Q and K of coins (grande) scores {v}.",
        ("all_coins_bonus", "*"): "A side holding all ten coins scores {v} more.",
        ("all_sevens_bonus", "*"): "A side holding all four sevens scores {v}.",
        # match
        ("target", "*"): "The match is played to {v} points, checked after each complete "
        "hand; if both sides reach it, the higher total wins, and equal totals play "
        "another hand.",
        ("all_coins_wins", True): "A side that captures all ten coins wins the match at the end "
        "of that hand, whatever the scores.",
        ("all_coins_wins", False): "",
    }
)

# Int options that mean "off" at 0 (no sentence then).
_OFF_AT_ZERO: Final = frozenset({"napola_cap", "grande", "all_coins_bonus", "all_sevens_bonus"})

# Options about the primiera's values, which `most_sevens` does not read.
_PRIMIERA_VALUES: Final = frozenset({"primiera_figures", "primiera_missing_suit"})

# An option said only when another option has a value.
_ONLY_IF: Final[Mapping[str, tuple[str, OptionValue]]] = MappingProxyType(
    {
        "ace_takes_ace_only": ("ace_takes_all", True),
        "ace_sweep": ("ace_takes_all", True),
        "declaration_low": ("declarations", True),
        "declaration_triple": ("declarations", True),
        "declaration_wild": ("declarations", True),
        "napola_cap": ("napola", True),
    }
)

_SECTIONS: Final = (
    ("Players", ("players", "direction", "deck")),
    (
        "Deal",
        (
            "deal",
            "cut_card",
            "redeal",
            "declarations",
            "declaration_triple",
            "declaration_low",
            "declaration_wild",
        ),
    ),
    (
        "Capturing",
        (
            "chkobba_face_values",
            "capture",
            "ace_takes_all",
            "ace_takes_ace_only",
            "fewest_cards",
            "compulsory_capture",
            "renuncio",
        ),
    ),
    ("Sweeps", ("opening_sweeps", "ace_sweep", "last_play_sweep")),
    ("Scoring", ("primiera_mode", "primiera_figures", "primiera_missing_suit", "bermila")),
    (
        "Bonuses",
        ("re_bello", "napola", "napola_cap", "grande", "all_coins_bonus", "all_sevens_bonus"),
    ),
    ("Match", ("target", "all_coins_wins")),
)

# What each of the four categories (in `rules.categories` order, named as the game names them)
# is won by; the fourth by what decides it (`rules.prime_mode`).
_CATEGORY_WORDS: Final = (
    "{name} (more cards captured)",
    "{name} (more coins captured)",
    "{name} (the 7 of coins)",
)
_PRIME_WORDS: Final = {
    "table": "{name} (the best card of each suit)",
    "three_sevens": "{name} (the best card of each suit)",
    "primiera": "{name} (the best card of each suit)",
    "most_sevens": "{name} (the most sevens)",
    "cascade": "{name} (the most sevens)",
    "sevens_then_sixes": "{name} (the sevens and sixes)",
}


def _full_options(rules: Rules) -> dict[str, Any]:
    """Every option of `rules` (the core reports them all) and the player count."""
    return {**rules.options, "players": rules.players}


def _sentence(name: str, value: object, words: Mapping[str, str]) -> str:
    template = _SENTENCES.get((name, "*"))
    if template is not None and isinstance(value, int) and not isinstance(value, bool):
        if name in _OFF_AT_ZERO and value == 0:
            return ""
        text: str | None = template
    else:
        text = _SENTENCES.get((name, value))
    if text is None:
        shown = value if isinstance(value, str) else json.dumps(value)
        return f"Option `{name}` is {shown}."
    return text.format(v=value, **words)


def describe(rules: Rules) -> str:
    """What the variant plays by, in plain words: one sentence per option, in sections.

    The sentences come from one table in this module, keyed by option and value.
    """
    o = _full_options(rules)
    game = rules.game
    cats = rules.categories
    sweep, sweeps = rules.sweep_names
    words = {
        "sweep": sweep,
        "a_sweep": ("an " if sweep[0] in "aeiou" else "a ") + sweep,
        "prime": cats[3] if len(cats) > 3 else "",
        # The cut card joins a hand of the deal, or the opening table where there is one.
        "hand_size": {"scopone": "9", "scientifico": "10"}.get(str(o.get("deal")), "3"),
        "or_table": ""
        if o.get("deal") == "scientifico"
        else " or puts it face up as one of the 4 table cards",
        # V-E2 lists Escoba's tie-break to the fives; Scopa's runs on (V-S3).
        "sevens_tiebreak": "aces, then fives; tied that far, nobody"
        if game == "escoba"
        else "aces, fives, fours, threes, twos",
    }
    used: set[str] = {"players"}
    lines = [f"{game.capitalize()} for {rules.players} players."]
    for title, names in _SECTIONS:
        sentences: list[str] = []
        if title == "Scoring":
            templates = [*_CATEGORY_WORDS, _PRIME_WORDS.get(rules.prime_mode, "{name}")]
            parts = [t.format(name=c) for t, c in zip(templates, cats, strict=True)]
            sentences.append(
                "Each hand scores 1 point for each of "
                + ", ".join(parts[:-1])
                + f" and {parts[-1]}, won outright (a tie scores nothing), "
                + f"and 1 point per {words['sweep']} ({sweeps})."
            )
        for name in names:
            if name not in o:
                continue
            used.add(name)
            cond = _ONLY_IF.get(name)
            if cond is not None and o.get(cond[0]) != cond[1]:
                continue
            if name in ("redeal", "opening_sweeps") and o.get("deal") == "scientifico":
                continue
            # The sevens cascade reads no primiera values (docs/variants.md).
            if name in _PRIMIERA_VALUES and o.get("primiera_mode") == "most_sevens":
                continue
            s = _sentence(name, o[name], words)
            if s:
                sentences.append(s)
        if title == "Bonuses" and not sentences:
            sentences.append("There are no bonuses.")
        if sentences:
            lines.append("")
            lines.append(f"{title}:")
            lines.extend(f"  {s}" for s in sentences)
    rest = [k for k in o if k not in used]
    if rest:
        lines.append("")
        lines.append("Other options:")
        lines.extend(f"  {_sentence(k, o[k], words)}" for k in rest)
    return "\n".join(lines)
