"""Rules data and stateless rule functions of the reference engine.

Everything here follows ``docs/rules.md``; comments cite its rule IDs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .cards import (
    COIN_SUIT,
    RANKS,
    SEVEN_OF_COINS,
    SUITS,
    card_id,
    card_set_mask,
    check_card,
    rank,
    suit,
)

GAMES: tuple[str, ...] = ("scopa", "escoba", "chkobba")

# S3 / E3 (and V-K1 "italian"): A=1, 2-7 face value, J=8, Q=9, K=10.
ITALIAN_VALUES: dict[str, int] = {
    "A": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "J": 8,
    "Q": 9,
    "K": 10,
}
# K3: the Tunisian inversion, Q=8, J=9, K=10.
TUNISIAN_VALUES: dict[str, int] = {
    "A": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "Q": 8,
    "J": 9,
    "K": 10,
}
# S11 / E11 (S-A1): primiera / setenta points of the best card per suit.
PRIMIERA_POINTS: dict[str, int] = {
    "7": 21,
    "6": 18,
    "A": 16,
    "5": 15,
    "4": 14,
    "3": 13,
    "2": 12,
    "J": 10,
    "Q": 10,
    "K": 10,
}
# E7: the Escoba capture total.
ESCOBA_TOTAL = 15

# Category names per game, keyed by their role: most cards, most coins, the 7 of coins, and the
# fourth category (primiera / setenta / bermila).
CATEGORIES: dict[str, dict[str, str]] = {
    "scopa": {"cards": "cards", "coins": "coins", "seven": "settebello", "best": "primiera"},  # S11
    "escoba": {"cards": "cards", "coins": "coins", "seven": "velo", "best": "setenta"},  # E11
    "chkobba": {"cards": "karta", "coins": "dinari", "seven": "7ayya", "best": "bermila"},  # K14
}

# Category names in the order of the spec tables (S11, E11, K14).
SPEC_ORDER: dict[str, tuple[str, ...]] = {
    "scopa": ("cards", "coins", "settebello", "primiera"),
    "escoba": ("cards", "coins", "velo", "setenta"),
    "chkobba": ("karta", "dinari", "bermila", "7ayya"),
}

DEFAULT_TARGETS: dict[str, int] = {"scopa": 11, "escoba": 21, "chkobba": 21}  # S12, E12, K15

# Primiera points of the figures J, Q, K per ``primiera_figures`` (docs/variants.md, V-S2).
FIGURE_POINTS: dict[str, dict[str, int]] = {
    "flat": {"J": 10, "Q": 10, "K": 10},
    "graded": {"J": 8, "Q": 9, "K": 10},
    "zero": {"J": 0, "Q": 0, "K": 0},
}
# The ``most_sevens`` / ``cascade`` order: every rank of the chart except the figures.
CASCADE_RANKS: tuple[str, ...] = ("7", "6", "A", "5", "4", "3", "2")
# Escoba's Fournier-style sevens (V-E2): "ties broken by sixes, then aces, then fives".
FOURNIER_RANKS: tuple[str, ...] = ("7", "6", "A", "5")
# Rank order of the napola run (A 2 3 4 5 6 7 J Q K).
RUN_RANKS: tuple[str, ...] = RANKS

ALL_GAMES = frozenset(GAMES)


class _Option:
    """One option of docs/variants.md: its allowed values, default per game, games."""

    def __init__(
        self,
        kind: str,
        choices: tuple[Any, ...] = (),
        default: Any = None,
        per_game: dict[str, Any] | None = None,
        games: frozenset[str] = ALL_GAMES,
        low: int = 0,
        high: int = 100,
    ) -> None:
        self.kind = kind  # "choice", "bool" or "int"
        self.choices = choices
        self.default = default
        self.per_game = per_game or {}
        self.games = games
        self.low = low
        self.high = high

    def default_for(self, game: str) -> Any:
        """The default value in ``game``."""
        return self.per_game.get(game, self.default)

    def valid(self, value: Any) -> bool:
        """Whether ``value`` is an allowed value (bools must be real bools, ints real ints)."""
        if self.kind == "bool":
            return isinstance(value, bool)
        if self.kind == "int":
            return (
                isinstance(value, int)
                and not isinstance(value, bool)
                and self.low <= value <= self.high
            )
        return isinstance(value, str) and value in self.choices

    def describe(self) -> str:
        """The allowed values, for error messages."""
        if self.kind == "bool":
            return "a bool"
        if self.kind == "int":
            return f"an integer {self.low}..{self.high}"
        return f"one of {list(self.choices)}"


_SCOPA_ESCOBA = frozenset({"scopa", "escoba"})
_CHKOBBA = frozenset({"chkobba"})

# Every option of docs/variants.md "The options", in the order of its table.
OPTIONS: dict[str, _Option] = {
    "target": _Option("int", per_game=DEFAULT_TARGETS, low=1, high=10000),
    "direction": _Option("choice", ("counterclockwise", "clockwise"), "counterclockwise"),
    "deal": _Option("choice", ("standard", "scopone", "scientifico"), "standard"),
    "redeal": _Option(
        "choice",
        ("off", "three_kings", "three_of_a_rank", "two_aces", "any_ace"),
        per_game={"scopa": "three_kings", "escoba": "off", "chkobba": "three_of_a_rank"},
    ),
    "opening_sweeps": _Option(
        "choice", ("off", "sum", "partition"), "off", per_game={"escoba": "sum"}
    ),
    "capture": _Option(
        "choice", ("match", "fifteen", "match_or_fifteen"), "match", per_game={"escoba": "fifteen"}
    ),
    "fewest_cards": _Option("bool", default=False),
    "compulsory_capture": _Option("bool", default=True),
    "renuncio": _Option("bool", default=False),
    "ace_takes_all": _Option("bool", default=False),
    "ace_takes_ace_only": _Option("bool", default=True),
    "ace_sweep": _Option("bool", default=False),
    "declarations": _Option("bool", default=False),
    "declaration_low": _Option("int", default=3, high=40),
    "declaration_triple": _Option("int", default=10, high=40),
    "declaration_wild": _Option("bool", default=True),
    "last_play_sweep": _Option("choice", ("void", "counts"), "void"),
    "primiera_mode": _Option(
        "choice", ("table", "most_sevens", "three_sevens"), "table", games=_SCOPA_ESCOBA
    ),
    "primiera_figures": _Option("choice", ("flat", "graded", "zero"), "flat", games=_SCOPA_ESCOBA),
    "primiera_missing_suit": _Option("choice", ("invalid", "zero"), "invalid", games=_SCOPA_ESCOBA),
    "bermila": _Option(
        "choice", ("sevens_then_sixes", "cascade", "primiera"), "sevens_then_sixes", games=_CHKOBBA
    ),
    "re_bello": _Option("bool", default=False),
    "napola": _Option("bool", default=False),
    "napola_cap": _Option("int", default=0, high=10),  # 0 or 3..10, checked below
    "grande": _Option("int", default=0),
    "all_coins_wins": _Option("bool", default=False),
    "all_coins_bonus": _Option("int", default=0),
    "all_sevens_bonus": _Option("int", default=0),
    "chkobba_face_values": _Option("choice", ("tunisian", "italian"), "tunisian", games=_CHKOBBA),
    "cut_card": _Option("bool", default=True, games=_CHKOBBA),
    "deck": _Option("choice", ("standard", "numerals"), "standard", games=_SCOPA_ESCOBA),
}

# Options whose non-default value needs another option (docs/variants.md "applies to" column):
# option -> (required option, required value).
_NEEDS: dict[str, tuple[str, Any]] = {
    "renuncio": ("compulsory_capture", False),
    "ace_takes_ace_only": ("ace_takes_all", True),
    "ace_sweep": ("ace_takes_all", True),
    "declarations": ("deal", "standard"),
    "declaration_low": ("declarations", True),
    "declaration_triple": ("declarations", True),
    "declaration_wild": ("declarations", True),
    "napola_cap": ("napola", True),
}

# Presets of docs/variants.md "Presets": name -> (game, overrides). ``players`` is an override.
PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "scopa": ("scopa", {}),
    "scopone": ("scopa", {"players": 4, "deal": "scopone"}),
    "scopone_scientifico": ("scopa", {"players": 4, "deal": "scientifico"}),
    "scopa_a_15": ("scopa", {"capture": "fifteen"}),
    "scopa_d_assi": ("scopa", {"ace_takes_all": True}),
    "cirulla": (
        "scopa",
        {
            "capture": "match_or_fifteen",
            "ace_takes_all": True,
            "ace_sweep": True,
            "redeal": "two_aces",
            "opening_sweeps": "sum",
            "declarations": True,
            "napola": True,
            "grande": 5,
            "all_coins_wins": True,
            "target": 51,
        },
    ),
    "escoba": ("escoba", {}),
    "chkobba": ("chkobba", {}),
}


def preset_rules(name: str, **overrides: Any) -> RefRules:
    """Build the rules of a preset, with keyword overrides on top.

    Args:
        name: A key of :data:`PRESETS`.
        **overrides: Options (and ``players``) replacing the preset's.

    Returns:
        The rules.

    Raises:
        ValueError: For an unknown preset or a bad option.
    """
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; expected one of {', '.join(PRESETS)}")
    game, base = PRESETS[name]
    merged = {**base, **overrides}
    players = merged.pop("players", 2)
    return RefRules(game, players, **merged)


def subsets_with_sum(
    cards: Sequence[str], value_of: Callable[[str], int], total: int, min_size: int
) -> list[frozenset[str]]:
    """Return every subset of ``cards`` whose values add up to ``total``.

    Each distinct set of cards is listed once (two equal-valued cards give two different sets).

    Args:
        cards: The candidate cards (distinct).
        value_of: Gives the capture value of a card.
        total: The required sum.
        min_size: The smallest subset size to report.

    Returns:
        The matching subsets, in no particular order.
    """
    found: list[frozenset[str]] = []

    def walk(index: int, chosen: list[str], remaining: int) -> None:
        if remaining == 0:
            if len(chosen) >= min_size:
                found.append(frozenset(chosen))
            return  # all values are positive: adding cards cannot keep the sum at 0
        for nxt in range(index, len(cards)):
            card = cards[nxt]
            value = value_of(card)
            if value <= remaining:
                chosen.append(card)
                walk(nxt + 1, chosen, remaining - value)
                chosen.pop()

    walk(0, [], total)
    return found


class RefRules:
    """The rules of one game profile with its options (docs/variants.md).

    Attributes:
        game: ``"scopa"``, ``"escoba"`` or ``"chkobba"``.
        players: 2 or 4.
        target: The match target score.
        options: Every option that applies to the game, with its effective value.
    """

    def __init__(self, game: str, players: int = 2, **options: Any) -> None:
        """Create the rules.

        Args:
            game: ``"scopa"``, ``"escoba"`` or ``"chkobba"``.
            players: 2, or 4 in two partnerships (G2).
            **options: The options of docs/variants.md, by name, plus the compatibility input
                ``initial_30_requires_partition`` (Escoba, bool).

        Raises:
            ValueError: For an unknown game, a player count other than 2 or 4, an option that
                does not exist or does not apply to this game, a bad value, or a contradiction
                between options (the message names the option).
        """
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
        if isinstance(players, bool) or players not in (2, 4):
            raise ValueError(f"players must be 2 or 4, got {players!r}")
        self.game: str = game
        self.players: int = players

        given = dict(options)
        partition_alias = given.pop("initial_30_requires_partition", None)
        effective: dict[str, Any] = {
            name: opt.default_for(game) for name, opt in OPTIONS.items() if game in opt.games
        }
        for name, value in given.items():
            if name not in OPTIONS:
                raise ValueError(f"unknown option {name!r}")
            opt = OPTIONS[name]
            if game not in opt.games:
                raise ValueError(f"option {name!r} does not apply to {game}")
            if not opt.valid(value):
                raise ValueError(
                    f"bad value {value!r} for option {name!r} of {game}; expected {opt.describe()}"
                )
            effective[name] = value
        if partition_alias is not None:
            # docs/variants.md: true sets partition, false leaves sum; refused beside
            # `opening_sweeps`.
            if "opening_sweeps" in given:
                raise ValueError("give opening_sweeps alone, not with its alias")
            if game != "escoba":
                raise ValueError(f"option 'initial_30_requires_partition' does not apply to {game}")
            if not isinstance(partition_alias, bool):
                raise ValueError(
                    f"bad value {partition_alias!r} for option 'initial_30_requires_partition'"
                    "; expected a bool"
                )
            if partition_alias:
                effective["opening_sweeps"] = "partition"
            elif effective["opening_sweeps"] == "partition":
                effective["opening_sweeps"] = "sum"

        # Contradictions.
        if effective["deal"] != "standard" and players != 4:
            raise ValueError(f"option 'deal' = {effective['deal']!r} needs 4 players")
        cap = effective["napola_cap"]
        if cap != 0 and cap < 3:
            raise ValueError(f"option 'napola_cap' must be 0 or 3..10, got {cap!r}")
        for name, (needed, needed_value) in _NEEDS.items():
            active = effective[name] != OPTIONS[name].default_for(game)
            if active and effective[needed] != needed_value:
                raise ValueError(
                    f"option {name!r} = {effective[name]!r} needs {needed!r} = {needed_value!r}"
                )

        self.target: int = effective["target"]
        self.options: dict[str, Any] = effective

        if game == "chkobba" and effective["chkobba_face_values"] == "tunisian":
            self._values = TUNISIAN_VALUES  # K3
        else:
            self._values = ITALIAN_VALUES  # S3, E3, V-K1 italian, V-S14 numerals

    def __repr__(self) -> str:
        """Return a readable description."""
        return f"RefRules({self.game!r}, players={self.players}, options={self.options!r})"

    # ----------------------------------------------------------------- option helpers

    def opt(self, name: str) -> Any:
        """The effective value of an option (None if it does not apply to the game)."""
        return self.options.get(name)

    @property
    def last_play_sweep_counts(self) -> bool:
        """Whether a sweep by the single final play of the hand scores (S-A4, K11, V-S5)."""
        return bool(self.options["last_play_sweep"] == "counts")

    @property
    def uses_cut_card(self) -> bool:
        """Whether the Chkobba cut-card decision (K5) is part of the deal."""
        return self.game == "chkobba" and bool(self.options["cut_card"])

    @property
    def clockwise(self) -> bool:
        """Whether play, dealing and the deal pass clockwise (V-K6)."""
        return bool(self.options["direction"] == "clockwise")

    def next_seat(self, seat: int) -> int:
        """``next(s)``: ``(s+1) % n`` counterclockwise, ``(s+n-1) % n`` clockwise."""
        n = self.players
        return (seat + n - 1) % n if self.clockwise else (seat + 1) % n

    @property
    def hand_size(self) -> int:
        """Cards per hand in one round: 3 (standard), 9 (scopone), 10 (scientifico)."""
        return {"standard": 3, "scopone": 9, "scientifico": 10}[self.options["deal"]]

    @property
    def table_size(self) -> int:
        """Opening table cards: 4, or 0 for ``scientifico``."""
        return 0 if self.options["deal"] == "scientifico" else 4

    # ----------------------------------------------------------------- captures

    def value(self, card: str) -> int:
        """Return the capture value of a card (K3, S3, E3).

        Args:
            card: A card such as ``"QH"``.

        Returns:
            Its capture value, 1..10.
        """
        return self._values[rank(check_card(card))]

    def ace_takes_all(self, table: list[str], card: str) -> bool:
        """Whether ``card`` played onto ``table`` is an ace-takes-all capture (variants step 1).

        True when ``ace_takes_all`` is on, the card is an ace, the table is not empty, and not
        (``ace_takes_ace_only`` and an ace is on the table).
        """
        if not self.options["ace_takes_all"] or rank(card) != "A" or not table:
            return False
        return not (self.options["ace_takes_ace_only"] and any(rank(c) == "A" for c in table))

    def capture_options(self, table: list[str], card: str) -> list[frozenset[str]]:
        """Return every capture option of ``card`` played onto ``table`` (variants steps 1-3).

        Ace takes all (whole table); else ``match`` (S7, K9: the equal-value cards one at a
        time, otherwise every set of two or more cards summing to the value), ``fifteen`` (E7:
        every set of table cards making 15 with the played card) or both; then, with
        ``fewest_cards``, only the options with the fewest cards.

        Args:
            table: The table cards.
            card: The played card (not on the table).

        Returns:
            The captured table-card sets (the played card is not included), ordered by their
            card-set mask. An empty list means the card can only trail.

        Raises:
            ValueError: For invalid or duplicated cards.
        """
        check_card(card)
        for c in table:
            check_card(c)
        if len(set(table)) != len(table) or card in table:
            raise ValueError(f"duplicated cards in table {table!r} / played {card!r}")
        if self.ace_takes_all(table, card):
            return [frozenset(table)]  # step 1: the only option is the whole table
        mode = self.options["capture"]
        value = self.value(card)
        options: list[frozenset[str]] = []
        if mode in ("match", "match_or_fifteen"):
            equal = [c for c in table if self.value(c) == value]
            if equal:
                # K9(a) / S7: take exactly one equal card; sums are forbidden.
                options.extend(frozenset([c]) for c in equal)
            else:
                # K9(b): a set of two or more cards summing to the value.
                options.extend(subsets_with_sum(table, self.value, value, 2))
        if mode in ("fifteen", "match_or_fifteen"):
            # E7: played card + chosen table cards = 15; no priority.
            options.extend(subsets_with_sum(table, self.value, ESCOBA_TOTAL - value, 1))
        if self.options["fewest_cards"] and options:
            fewest = min(len(o) for o in options)
            options = [o for o in options if len(o) == fewest]
        return sorted(options, key=card_set_mask)

    # ----------------------------------------------------------------- opening table

    def opening(self, table: list[str]) -> tuple[bool, int]:
        """Check the opening table cards (``redeal``, then ``opening_sweeps``).

        Args:
            table: The 4 face-up cards after the deal (and the Chkobba cut decision); an empty
                table (``scientifico``) never triggers anything.

        Returns:
            ``(redeal, dealer_sweeps)``: redeal on 3+ kings (S5), 3+ of a rank (K6), 2+ aces or
            any ace (V-S8, V-S12); otherwise sweeps for a total of 15 (1) or 30 (2), the 30
            needing a split into 15 + 15 with ``partition`` (E5, E-A1, V-E4).

        Raises:
            ValueError: If ``table`` is not 0 or 4 distinct cards.
        """
        for c in table:
            check_card(c)
        if len(table) not in (0, 4) or len(set(table)) != len(table):
            raise ValueError(f"the opening table must be 4 distinct cards, got {table!r}")
        if not table:
            return False, 0
        counts = [sum(1 for c in table if rank(c) == r) for r in RANKS]
        mode = self.options["redeal"]
        redeal = (
            (mode == "three_kings" and counts[RANKS.index("K")] >= 3)
            or (mode == "three_of_a_rank" and max(counts) >= 3)
            or (mode == "two_aces" and counts[0] >= 2)
            or (mode == "any_ace" and counts[0] >= 1)
        )
        if redeal:
            return True, 0
        sweeps_mode = self.options["opening_sweeps"]
        if sweeps_mode == "off":
            return False, 0
        total = sum(self.value(c) for c in table)
        if total == ESCOBA_TOTAL:
            return False, 1  # E5
        if total == 2 * ESCOBA_TOTAL:
            if sweeps_mode == "sum":
                return False, 2  # E5, E-A1 (seed literal)
            # V-E4 partition: one group of 15 exists iff its complement is the other group.
            if subsets_with_sum(table, self.value, ESCOBA_TOTAL, 1):
                return False, 2
        return False, 0

    # ----------------------------------------------------------------- declarations

    def declaration(self, cards: list[str]) -> int:
        """Points a player scores for 3 newly dealt cards (Cirulla declarations, V-S12).

        ``declaration_triple`` for three of one rank, else ``declaration_low`` if the capture
        values total less than 10; with ``declaration_wild`` the 7 of hearts makes three of a
        kind with any pair and counts 1 toward the total. The better of the two, never both.

        Args:
            cards: The 3 cards a player just received.

        Returns:
            The points (0 when declarations are off or nothing qualifies).
        """
        if not self.options["declarations"] or len(cards) != 3:
            return 0
        wild = self.options["declaration_wild"] and "7H" in cards
        ranks = [rank(c) for c in cards]
        triple = len(set(ranks)) == 1
        if wild:
            others = [rank(c) for c in cards if c != "7H"]
            triple = triple or others[0] == others[1]
        total = sum(1 if (wild and c == "7H") else self.value(c) for c in cards)
        best = 0
        if triple:
            best = max(best, self.options["declaration_triple"])
        if total < 10:
            best = max(best, self.options["declaration_low"])
        return int(best)

    # ----------------------------------------------------------------- scoring

    def _primiera_points(self, card: str, figures: str) -> int:
        """Primiera points of a card with the given figure values (V-S1, V-S2)."""
        r = rank(card)
        if r in ("J", "Q", "K"):
            return FIGURE_POINTS[figures][r]
        return PRIMIERA_POINTS[r]

    def _primiera_settings(self) -> tuple[str, str]:
        """(figures, missing suit) in force; Chkobba's primiera bermila uses flat / invalid."""
        if self.game == "chkobba":
            return "flat", "invalid"
        return self.options["primiera_figures"], self.options["primiera_missing_suit"]

    def primiera_cards(self, pile: list[str]) -> list[str]:
        """Return the best card of each suit present in ``pile``, suit order C D H S.

        Equal points within a suit (figures) are broken toward the higher card id (K over Q
        over J): **choice** of the reference; the total does not depend on it.
        """
        figures, _missing = self._primiera_settings()
        best: list[str] = []
        for s in SUITS:
            in_suit = [c for c in pile if suit(c) == s]
            if in_suit:
                best.append(
                    max(in_suit, key=lambda c: (self._primiera_points(c, figures), card_id(c)))
                )
        return best

    def primiera(self, pile: list[str]) -> int | None:
        """Return the primiera / setenta of a pile (S11, E11, S-A1, S-A2, V-S2, V-S4).

        Args:
            pile: A side's captured cards.

        Returns:
            The sum of the best card per suit, or None if a suit is missing and
            ``primiera_missing_suit`` is ``"invalid"`` (a missing suit counts 0 under ``"zero"``).
        """
        figures, missing = self._primiera_settings()
        best = self.primiera_cards(pile)
        if len(best) < len(SUITS) and missing == "invalid":
            return None
        return sum(self._primiera_points(c, figures) for c in best)

    @staticmethod
    def coin_run(pile: list[str]) -> int:
        """Length of the run of consecutive coins from the ace, in rank order A 2 3 .. J Q K."""
        run = 0
        for r in RUN_RANKS:
            if r + COIN_SUIT not in pile:
                break
            run += 1
        return run

    def _best_award(self, counts: list[dict[str, Any]]) -> int | None:
        """The fourth category: primiera / setenta (V-S3) or bermila (K14, V-K2)."""
        if self.game == "chkobba":
            mode = self.options["bermila"]
            if mode == "sevens_then_sixes":
                return _cascade(counts, ("7", "6"))  # K14
            if mode == "cascade":
                return _cascade(counts, CASCADE_RANKS)
            return _primiera_award(counts)
        mode = self.options["primiera_mode"]
        if mode == "most_sevens" and self.game == "escoba":
            return _cascade(counts, FOURNIER_RANKS)  # V-E2 lists 7, 6, A, 5 and no more
        if mode == "most_sevens":
            return _cascade(counts, CASCADE_RANKS)
        if mode == "three_sevens":
            for side in (0, 1):
                if counts[side]["sevens"] >= 3:
                    return side  # a side holding 3 or 4 sevens wins outright
        return _primiera_award(counts)

    def bonus_names(self) -> list[str]:
        """The bonuses these rules score, in the order of docs/variants.md "Scoring"."""
        names: list[str] = []
        if self.options["re_bello"]:
            names.append("re_bello")
        if self.options["napola"]:
            names.append("napola")
        if self.options["grande"] > 0:
            names.append("grande")
        if self.options["all_coins_bonus"] > 0:
            names.append("all_coins")
        if self.options["all_sevens_bonus"] > 0:
            names.append("all_sevens")
        if self.options["declarations"]:
            names.append("declarations")
        return names

    def _bonus(self, name: str, pile: list[str], count: dict[str, Any], declared: int) -> int:
        """Points of one bonus for one side."""
        coins = {c for c in pile if suit(c) == COIN_SUIT}
        if name == "re_bello":
            return 1 if "KD" in coins else 0
        if name == "napola":
            if not {"AD", "2D", "3D"} <= coins:
                return 0
            run = int(count["coin_run"])
            cap = int(self.options["napola_cap"])
            return min(run, cap) if cap else run
        if name == "grande":
            return int(self.options["grande"]) if {"JD", "QD", "KD"} <= coins else 0
        if name == "all_coins":
            return int(self.options["all_coins_bonus"]) if len(coins) == 10 else 0
        if name == "all_sevens":
            return int(self.options["all_sevens_bonus"]) if count["sevens"] == 4 else 0
        assert name == "declarations"
        return declared

    def score(
        self, piles: list[list[str]], sweeps: list[int], declarations: list[int] | None = None
    ) -> dict[str, Any]:
        """Score one hand for the two sides.

        Args:
            piles: The captured cards of side 0 and side 1.
            sweeps: The sweeps of side 0 and side 1.
            declarations: The declaration points of side 0 and side 1 (default none).

        Returns:
            ``{"points": [a, b], "awards": {category: 0 | 1 | None}, "counts": [dict, dict],
            "sweeps": [a, b], "bonuses": {name: [a, b]}, "all_coins": side | None}``. Counts
            are ``cards``, ``coins``, ``sevens``, ``sixes``, ``ranks`` (10 counts A..K),
            ``primiera`` (points or None), ``primiera_cards`` (C D H S) and ``coin_run``.
            Points are sweeps + the category awards + every bonus. ``all_coins`` is the side
            holding all ten coins (for ``all_coins_wins``).

        Raises:
            ValueError: If there are not two piles and two sweep counts, or cards repeat.
        """
        if len(piles) != 2 or len(sweeps) != 2:
            raise ValueError("score() needs exactly two piles and two sweep counts")
        declared = [0, 0] if declarations is None else [int(d) for d in declarations]
        seen: set[str] = set()
        for pile in piles:
            for c in pile:
                check_card(c)
                if c in seen:
                    raise ValueError(f"card {c} appears twice in the piles")
                seen.add(c)

        counts: list[dict[str, Any]] = []
        for pile in piles:
            ranks = [sum(1 for c in pile if rank(c) == r) for r in RANKS]
            counts.append(
                {
                    "cards": len(pile),
                    "coins": sum(1 for c in pile if suit(c) == COIN_SUIT),
                    "sevens": ranks[RANKS.index("7")],
                    "sixes": ranks[RANKS.index("6")],
                    "ranks": ranks,
                    "primiera": self.primiera(pile),
                    "primiera_cards": self.primiera_cards(pile),
                    "coin_run": self.coin_run(pile),
                }
            )

        names = CATEGORIES[self.game]
        awards: dict[str, int | None] = {}
        # Most cards / most coins; a tie scores nothing (S11, E11, K14, K-A8).
        awards[names["cards"]] = _more(counts[0]["cards"], counts[1]["cards"])
        awards[names["coins"]] = _more(counts[0]["coins"], counts[1]["coins"])
        # The 7 of coins goes to its holder (nobody if neither pile holds it).
        holder: int | None = None
        for side in (0, 1):
            if SEVEN_OF_COINS in piles[side]:
                holder = side
        awards[names["seven"]] = holder
        awards[names["best"]] = self._best_award(counts)

        # List the categories in the order of the spec's tables (S11, E11, K14).
        awards = {name: awards[name] for name in SPEC_ORDER[self.game]}
        bonuses = {
            name: [self._bonus(name, piles[s], counts[s], declared[s]) for s in (0, 1)]
            for name in self.bonus_names()
        }
        points = [int(sweeps[0]), int(sweeps[1])]
        for award in awards.values():
            if award is not None:
                points[award] += 1
        for per_side in bonuses.values():
            points[0] += per_side[0]
            points[1] += per_side[1]
        all_coins: int | None = None
        for side in (0, 1):
            if counts[side]["coins"] == 10:
                all_coins = side
        return {
            "points": points,
            "awards": awards,
            "counts": counts,
            "sweeps": [int(sweeps[0]), int(sweeps[1])],
            "bonuses": bonuses,
            "all_coins": all_coins,
        }

    # ----------------------------------------------------------------- match end

    def match_winner(self, scores: list[int], all_coins: int | None = None) -> int | None:
        """Decide the match after a complete hand (G8, S12 / S-A5, E12, K15, V-S7).

        Args:
            scores: The two sides' match scores after the hand.
            all_coins: The side that captured all ten coins this hand, if any; with
                ``all_coins_wins`` or ``napola`` it wins whatever the scores.

        Returns:
            The winning side, or None when play goes on (nobody at the target, or both at the
            target with equal totals).
        """
        # V-S7: the napola includes Napoleone (all ten coins win the match).
        if all_coins is not None and (self.options["all_coins_wins"] or self.options["napola"]):
            return all_coins
        a, b = scores
        a_reached = a >= self.target
        b_reached = b >= self.target
        if a_reached and b_reached:
            return _more(a, b)
        if a_reached:
            return 0
        if b_reached:
            return 1
        return None


def _primiera_award(counts: list[dict[str, Any]]) -> int | None:
    """S-A2 / E-A5: the higher primiera; valid beats invalid; a tie or both invalid: nobody."""
    first, second = counts[0]["primiera"], counts[1]["primiera"]
    if first is None and second is None:
        return None
    if first is None:
        return 1
    if second is None:
        return 0
    return _more(first, second)


def _cascade(counts: list[dict[str, Any]], order: tuple[str, ...]) -> int | None:
    """More cards of the first rank of ``order`` wins; if tied the next rank; all tied: nobody."""
    for r in order:
        index = RANKS.index(r)
        winner = _more(counts[0]["ranks"][index], counts[1]["ranks"][index])
        if winner is not None:
            return winner
    return None


def _more(a: int | None, b: int | None) -> int | None:
    """Return 0 if ``a > b``, 1 if ``b > a``, None on a tie."""
    assert a is not None
    assert b is not None
    if a > b:
        return 0
    if b > a:
        return 1
    return None
