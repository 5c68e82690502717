"""Cards of the 40-card deck, as plain strings such as ``"7D"``.

Follows ``docs/conventions.md`` ("Cards"): ranks ``A 2 3 4 5 6 7 J Q K`` (rank index 0..9), suits
``C D H S`` (suit index 0..3), card id = ``rank_index * 4 + suit_index``.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
COIN_SUIT = "D"  # rules.md §0.3: diamonds are denari / oros / dinari.
SEVEN_OF_COINS = "7D"  # settebello / velo / 7ayya.

# G1: the 40 cards, listed in card-id order.
DECK: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)


def card_id(card: str) -> int:
    """Return the conventional id of a card.

    Args:
        card: A card such as ``"7D"``.

    Returns:
        ``rank_index * 4 + suit_index`` (``"AC"`` is 0, ``"7D"`` is 25, ``"KS"`` is 39).

    Raises:
        ValueError: If ``card`` is not one of the 40 cards.
    """
    check_card(card)
    return RANKS.index(card[0]) * 4 + SUITS.index(card[1])


def card_from_id(ident: int) -> str:
    """Return the card with the given id.

    Args:
        ident: A card id in ``0..39``.

    Returns:
        The card string.

    Raises:
        ValueError: If ``ident`` is out of range.
    """
    if not 0 <= ident < 40:
        raise ValueError(f"card id out of range: {ident}")
    return DECK[ident]


# V-S14 (docs/variants.md "Naming"): the numerals deck writes J, Q, K as 8, 9, 10.
NUMERAL_RANKS: dict[str, str] = {"8": "J", "9": "Q", "10": "K"}


def parse_card(text: str, numerals: bool = True) -> str:
    """Read a card, accepting ``8``/``9``/``10`` for the ranks J/Q/K when ``numerals`` is true.

    Args:
        text: A card such as ``"7D"``, ``"JD"`` or (numerals) ``"8D"`` / ``"10D"``.
        numerals: Whether the numeral spellings are accepted (never in Chkobba notation).

    Returns:
        The canonical card string (``"10D"`` gives ``"KD"``).

    Raises:
        ValueError: If it is not a card.
    """
    if numerals and isinstance(text, str) and len(text) >= 2 and text[:-1] in NUMERAL_RANKS:
        return NUMERAL_RANKS[text[:-1]] + check_card("A" + text[-1])[1]
    return check_card(text)


def check_card(card: object) -> str:
    """Check that ``card`` is one of the 40 cards.

    Args:
        card: The value to check.

    Returns:
        The card, unchanged.

    Raises:
        ValueError: If it is not a valid card string.
    """
    if not isinstance(card, str) or len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
        raise ValueError(f"not a card: {card!r}")
    return card


def rank(card: str) -> str:
    """Return the rank letter of a card (``"7"`` for ``"7D"``)."""
    return card[0]


def suit(card: str) -> str:
    """Return the suit letter of a card (``"D"`` for ``"7D"``)."""
    return card[1]


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Return the cards sorted by card id.

    Args:
        cards: Any iterable of cards.

    Returns:
        A new list in increasing card-id order.
    """
    return sorted(cards, key=card_id)


def card_set_mask(cards: Iterable[str]) -> int:
    """Return the 40-bit mask of a card set (bit ``id`` set iff the card is in it).

    Only used to order moves exactly as ``docs/conventions.md`` ("Moves") prescribes.

    Args:
        cards: The cards of the set.

    Returns:
        The mask as a Python integer.
    """
    mask = 0
    for card in cards:
        mask += 1 << card_id(card)
    return mask
