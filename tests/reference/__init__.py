"""Pure-Python reference implementation of Scopa, Escoba and Chkobba.

Written independently from ``shared/spec/rules.md`` and ``docs/conventions.md`` so that the
differential tests can compare the fast engine with it step by step. Cards are plain strings such
as ``"7D"``.
"""

from __future__ import annotations

from .cards import DECK, card_from_id, card_id, sort_cards
from .engine import (
    Move,
    RefState,
    format_move,
    layout_deal,
    pack_move,
    parse_move,
    unpack_move,
)
from .rng import SplitMix64, shuffled_deck
from .rules import RefRules

__all__ = [
    "DECK",
    "Move",
    "RefRules",
    "RefState",
    "SplitMix64",
    "card_from_id",
    "card_id",
    "format_move",
    "layout_deal",
    "pack_move",
    "parse_move",
    "shuffled_deck",
    "sort_cards",
    "unpack_move",
]
