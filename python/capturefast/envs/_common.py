"""What the adapters share: the seats of a learner against bots."""

from __future__ import annotations

from collections.abc import Sequence

from capturefast._core import Rules
from capturefast.errors import ArgumentError


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
    others = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
    if len(others) != n - 1:
        raise ArgumentError(
            f"opponents expects one bot name or {n - 1} (one per other seat), got: {len(others)}"
        )
    seats: list[str | None] = list(others)
    seats.insert(seat, None)
    return seats
