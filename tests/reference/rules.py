"""Rules data and stateless rule functions of the reference engine.

Everything here follows ``shared/spec/rules.md``; comments cite its rule IDs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .cards import COIN_SUIT, SEVEN_OF_COINS, SUITS, card_set_mask, check_card, rank, suit

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

# Allowed values of each option, per game; the first value listed is the default.
_CHOICE_OPTIONS: dict[str, dict[str, tuple[Any, ...]]] = {
    "scopa": {
        "last_play_sweep": ("void", "counts"),  # S-A4 / V-S5
        "primiera_missing_suit": ("invalid", "zero"),  # S-A2 / V-S4
    },
    "escoba": {
        "last_play_sweep": ("void", "counts"),  # E-A4: unreachable, accepted
        "primiera_missing_suit": ("invalid", "zero"),  # E11 / E-A5
        "initial_30_requires_partition": (False, True),  # E-A1 / V-E4
    },
    "chkobba": {
        "last_play_sweep": ("void", "counts"),  # K11 / V-K7
        "chkobba_face_values": ("tunisian", "italian"),  # K3 / V-K1
        "cut_card": (True, False),  # K5 / V-K5
        "redeal": ("three_of_a_rank", "three_kings", "off"),  # K6 / V-K4
    },
}


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
    """The rules of one game profile with its options.

    Attributes:
        game: ``"scopa"``, ``"escoba"`` or ``"chkobba"``.
        players: 2 or 4.
        target: The match target score.
        options: Every option with its effective value (defaults filled in).
    """

    def __init__(self, game: str, players: int = 2, **options: Any) -> None:
        """Create the rules.

        Args:
            game: ``"scopa"``, ``"escoba"`` or ``"chkobba"``.
            players: 2, or 4 in two partnerships (G2).
            **options: Spec-named options (rules.md §7):
                ``target``, ``last_play_sweep``, ``primiera_missing_suit``,
                ``initial_30_requires_partition``, ``chkobba_face_values``, ``cut_card``,
                ``redeal``. Only the options that apply to ``game`` are accepted.

        Raises:
            ValueError: For an unknown game, a player count other than 2 or 4, an option that
                does not exist for this game, or a bad option value (the message names it).
        """
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
        if isinstance(players, bool) or players not in (2, 4):
            raise ValueError(f"players must be 2 or 4, got {players!r}")
        self.game: str = game
        self.players: int = players

        allowed = _CHOICE_OPTIONS[game]
        effective: dict[str, Any] = {name: choices[0] for name, choices in allowed.items()}
        target = DEFAULT_TARGETS[game]
        for name, value in options.items():
            if name == "target":
                if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                    raise ValueError(f"option 'target' must be a positive integer, got {value!r}")
                target = value
            elif name in allowed:
                choices = allowed[name]
                # bool options must be real bools; string options must be one of the words.
                if not any(value == c and type(value) is type(c) for c in choices):
                    raise ValueError(
                        f"bad value {value!r} for option {name!r} of {game}; "
                        f"expected one of {list(choices)}"
                    )
                effective[name] = value
            else:
                raise ValueError(f"unknown option {name!r} for {game}")
        self.target: int = target
        effective["target"] = target
        self.options: dict[str, Any] = effective

        if game == "chkobba" and effective["chkobba_face_values"] == "tunisian":
            self._values = TUNISIAN_VALUES  # K3
        else:
            self._values = ITALIAN_VALUES  # S3, E3, V-K1 italian

    def __repr__(self) -> str:
        """Return a readable description."""
        return f"RefRules({self.game!r}, players={self.players}, options={self.options!r})"

    # ----------------------------------------------------------------- option helpers

    @property
    def last_play_sweep_counts(self) -> bool:
        """Whether a sweep by the single final play of the hand scores (S-A4, K11, V-S5)."""
        return self.options["last_play_sweep"] == "counts"

    @property
    def uses_cut_card(self) -> bool:
        """Whether the Chkobba cut-card decision (K5) is part of the deal."""
        return self.game == "chkobba" and bool(self.options["cut_card"])

    # ----------------------------------------------------------------- captures

    def value(self, card: str) -> int:
        """Return the capture value of a card (K3, S3, E3).

        Args:
            card: A card such as ``"QH"``.

        Returns:
            Its capture value, 1..10.
        """
        return self._values[rank(check_card(card))]

    def capture_options(self, table: list[str], card: str) -> list[frozenset[str]]:
        """Return every legal capture of ``card`` played onto ``table``.

        Scopa/Chkobba (S7, K9): if the table holds cards of the played card's value, each one of
        them alone is an option (K9(a)); otherwise every set of two or more table cards summing to
        the value is an option (K9(b)). Escoba (E7): every non-empty set of table cards that
        makes 15 together with the played card.

        Args:
            table: The table cards.
            card: The played card (not on the table).

        Returns:
            The captured table-card sets (the played card is not included), ordered by their
            card-set mask. An empty list means the card trails (K9(c)).

        Raises:
            ValueError: For invalid or duplicated cards.
        """
        check_card(card)
        for c in table:
            check_card(c)
        if len(set(table)) != len(table) or card in table:
            raise ValueError(f"duplicated cards in table {table!r} / played {card!r}")
        if self.game == "escoba":
            # E7: played card + chosen table cards = 15; no equal-value capture, no priority.
            needed = ESCOBA_TOTAL - self.value(card)
            options = subsets_with_sum(table, self.value, needed, 1)
        else:
            value = self.value(card)
            equal = [c for c in table if self.value(c) == value]
            if equal:
                # K9(a) / S7: take exactly one equal card; sums are forbidden.
                options = [frozenset([c]) for c in equal]
            else:
                # K9(b): a set of two or more cards summing to the value.
                options = subsets_with_sum(table, self.value, value, 2)
        return sorted(options, key=card_set_mask)

    # ----------------------------------------------------------------- opening table

    def opening(self, table: list[str]) -> tuple[bool, int]:
        """Check the 4 opening table cards.

        Args:
            table: The 4 face-up cards after the deal (and the Chkobba cut decision).

        Returns:
            ``(redeal, dealer_sweeps)``: Scopa S5 (3+ kings: redeal), Chkobba K6 / K-A1 / V-K4
            (3+ of a rank, or 3+ kings, or never), Escoba E5 / E-A1 (total 15: 1 sweep, total 30:
            2 sweeps, or with ``initial_30_requires_partition`` only if the cards split into two
            groups of 15).

        Raises:
            ValueError: If ``table`` is not 4 distinct cards.
        """
        for c in table:
            check_card(c)
        if len(table) != 4 or len(set(table)) != 4:
            raise ValueError(f"the opening table must be 4 distinct cards, got {table!r}")
        if self.game == "scopa":
            kings = sum(1 for c in table if rank(c) == "K")
            return kings >= 3, 0  # S5
        if self.game == "chkobba":
            mode = self.options["redeal"]
            if mode == "off":
                return False, 0
            if mode == "three_kings":
                return sum(1 for c in table if rank(c) == "K") >= 3, 0
            most = max(sum(1 for c in table if rank(c) == rank(card)) for card in table)
            return most >= 3, 0  # K6: three or four cards of the same rank
        total = sum(self.value(c) for c in table)
        if total == ESCOBA_TOTAL:
            return False, 1  # E5
        if total == 2 * ESCOBA_TOTAL:
            if not self.options["initial_30_requires_partition"]:
                return False, 2  # E5, E-A1 (seed literal)
            # V-E4 partition: one group of 15 exists iff its complement is the other group.
            if subsets_with_sum(table, self.value, ESCOBA_TOTAL, 1):
                return False, 2
            return False, 0
        return False, 0

    # ----------------------------------------------------------------- scoring

    def primiera(self, pile: list[str]) -> int | None:
        """Return the primiera / setenta of a pile (S11, E11, S-A1, S-A2, V-S4).

        Args:
            pile: A side's captured cards.

        Returns:
            The sum of the best card per suit, or None if a suit is missing and
            ``primiera_missing_suit`` is ``"invalid"`` (a missing suit counts 0 under ``"zero"``).
        """
        total = 0
        for s in SUITS:
            in_suit = [PRIMIERA_POINTS[rank(c)] for c in pile if suit(c) == s]
            if in_suit:
                total += max(in_suit)
            elif self.options["primiera_missing_suit"] == "invalid":
                return None
        return total

    def score(self, piles: list[list[str]], sweeps: list[int]) -> dict[str, Any]:
        """Score one hand for the two sides.

        Args:
            piles: The captured cards of side 0 and side 1.
            sweeps: The sweeps of side 0 and side 1.

        Returns:
            ``{"points": [a, b], "awards": {category: 0 | 1 | None}, "counts": [dict, dict],
            "sweeps": [a, b]}``. Counts are ``cards``, ``coins`` and ``primiera`` (Scopa, Escoba)
            or ``cards``, ``coins``, ``sevens``, ``sixes`` (Chkobba). Points are the category
            awards plus the sweeps (S11, E11, K14).

        Raises:
            ValueError: If there are not two piles and two sweep counts, or cards repeat.
        """
        if len(piles) != 2 or len(sweeps) != 2:
            raise ValueError("score() needs exactly two piles and two sweep counts")
        seen: set[str] = set()
        for pile in piles:
            for c in pile:
                check_card(c)
                if c in seen:
                    raise ValueError(f"card {c} appears twice in the piles")
                seen.add(c)

        counts: list[dict[str, int | None]] = []
        for pile in piles:
            entry: dict[str, int | None] = {
                "cards": len(pile),
                "coins": sum(1 for c in pile if suit(c) == COIN_SUIT),
            }
            if self.game == "chkobba":
                entry["sevens"] = sum(1 for c in pile if rank(c) == "7")
                entry["sixes"] = sum(1 for c in pile if rank(c) == "6")
            else:
                entry["primiera"] = self.primiera(pile)
            counts.append(entry)

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
        if self.game == "chkobba":
            # K14 bermila: more sevens, then more sixes, else nobody.
            winner = _more(counts[0]["sevens"], counts[1]["sevens"])
            if winner is None:
                winner = _more(counts[0]["sixes"], counts[1]["sixes"])
            awards[names["best"]] = winner
        else:
            # S-A2 / E-A5: valid beats invalid; a tie or both invalid scores nothing.
            first, second = counts[0]["primiera"], counts[1]["primiera"]
            if first is None and second is None:
                awards[names["best"]] = None
            elif first is None:
                awards[names["best"]] = 1
            elif second is None:
                awards[names["best"]] = 0
            else:
                awards[names["best"]] = _more(first, second)

        # List the categories in the order of the spec's tables (S11, E11, K14).
        awards = {name: awards[name] for name in SPEC_ORDER[self.game]}
        points = [int(sweeps[0]), int(sweeps[1])]
        for award in awards.values():
            if award is not None:
                points[award] += 1
        return {
            "points": points,
            "awards": awards,
            "counts": counts,
            "sweeps": [int(sweeps[0]), int(sweeps[1])],
        }

    # ----------------------------------------------------------------- match end

    def match_winner(self, scores: list[int]) -> int | None:
        """Decide the match after a complete hand (G8, S12 / S-A5, E12, K15).

        Args:
            scores: The two sides' match scores after the hand.

        Returns:
            The winning side, or None when play goes on (nobody at the target, or both at the
            target with equal totals).
        """
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


def _more(a: int | None, b: int | None) -> int | None:
    """Return 0 if ``a > b``, 1 if ``b > a``, None on a tie."""
    assert a is not None
    assert b is not None
    if a > b:
        return 0
    if b > a:
        return 1
    return None
