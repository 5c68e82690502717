"""Pure-Python reference implementation of Scopa, Escoba and Chkobba.

Written independently from ``docs/rules.md`` and ``docs/conventions.md`` so that the
differential tests can compare the fast engine with it step by step. Cards are plain strings such
as ``"7D"``.
"""

from __future__ import annotations

from .cards import DECK, card_from_id, card_id, parse_card, sort_cards
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
from .rules import OPTIONS, PRESETS, RefRules, preset_rules

__all__ = [
    "DECK",
    "OPTIONS",
    "PRESETS",
    "Move",
    "RefRules",
    "RefState",
    "SplitMix64",
    "card_from_id",
    "card_id",
    "format_move",
    "layout_deal",
    "pack_move",
    "parse_card",
    "parse_move",
    "preset_rules",
    "shuffled_deck",
    "sort_cards",
    "unpack_move",
]
