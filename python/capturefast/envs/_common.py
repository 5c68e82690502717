"""What the adapters share: the seats of a learner against bots, and a random legal action per
game from a batch of masks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from capturefast import variants
from capturefast._core import Rules
from capturefast.errors import ArgumentError


def rules_arg(rules: Rules | str | None) -> Rules:
    """An adapter's `rules`: a `Rules`, a preset's name (`capturefast.variants.preset_names()`),
    or None for 2-player Scopa.

    Raises:
        TypeError: anything else.
        VariantError: an unknown preset name.
    """
    if rules is None:
        return Rules.scopa()
    if isinstance(rules, str):
        return variants.rules(rules)
    if not isinstance(rules, Rules):
        raise TypeError(
            f"rules must be a capturefast.Rules or a preset name, got: {type(rules).__name__}"
        )
    return rules


def seat_players(rules: Rules, seat: int, opponents: str | Sequence[str]) -> list[str | None]:
    """The `seats` of a `VecEnv` with the learner in `seat` and bots elsewhere.

    Args:
        rules: the game.
        seat: the learner's seat, 0 to `rules.players - 1`.
        opponents: one bot name for every other seat, or one name per other seat in seat
            order.

    Returns:
        One entry per seat: `None` for the learner, a bot name otherwise.
    """
    n = rules.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ArgumentError(f"seat expects 0 to {n - 1}: {seat!r}")
    if isinstance(opponents, str):
        others = [opponents] * (n - 1)
    elif isinstance(opponents, Sequence) and all(isinstance(o, str) for o in opponents):
        others = list(opponents)
    else:
        raise TypeError(
            "opponents must be a bot name or a list of them (one per other seat), got: "
            f"{opponents!r:.60}"
        )
    if len(others) != n - 1:
        raise ArgumentError(
            f"opponents expects one bot name or {n - 1} (one per other seat), got: {len(others)}"
        )
    seats: list[str | None] = list(others)
    seats.insert(seat, None)
    return seats


def random_actions(mask: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """A uniformly random legal action per game: for a `VecEnv`'s `mask` `(N, A)`, the int64
    action ids `(N,)` to pass to `step`.

    One pass over the mask finds its True entries; each row's are a run of them, and the draw
    picks one in each run. About 70 µs for 1024 games of 84 actions, a fifth of a row-by-row
    choice and a small part of a step (docs/performance.md, "Learning interfaces").

    Args:
        mask: a bool array of shape `(N, A)` (or integers, nonzero for legal, as PettingZoo's
            int8 masks), every row with at least one legal action.
        rng: where the draws come from.

    Raises:
        ArgumentError: the mask is not a 2-D bool or integer array, or a row has no legal
            action.
    """
    if not isinstance(mask, np.ndarray) or mask.ndim != 2 or mask.dtype.kind not in "biu":
        what = f"{mask.dtype} array of shape {mask.shape}" if isinstance(mask, np.ndarray) else mask
        raise ArgumentError(f"random_actions expects a 2-D bool or 0/1 mask, got: {what!r}")
    if mask.dtype != np.bool_:  # PettingZoo's int8 masks
        mask = mask != 0
    n, width = mask.shape
    row_starts = np.arange(0, n * width, width)
    flat = np.flatnonzero(mask)
    starts = np.searchsorted(flat, row_starts)
    counts = np.diff(starts, append=len(flat))
    if n and not counts.all():
        empty = int(np.argmin(counts))
        raise ArgumentError(f"random_actions needs a legal action per row; row {empty} has none")
    pick = starts + (rng.random(n) * counts).astype(np.intp)
    actions: np.ndarray[Any, Any] = (flat[pick] - row_starts).astype(np.int64)
    return actions
