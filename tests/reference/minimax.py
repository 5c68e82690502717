"""Plain full minimax over the reference engine: the yardstick of the exact solver.

No pruning, no transposition table, no ordering: every line of play of an open position (every
card known, the stock order included) is played to the end of the hand with the reference
engine, and each side picks what is best for it. The value of a position is the side to move's
points minus the other side's at the end of the hand (the hand report's points, which count
every category and sweep of the hand so far). Only small positions are practical.
"""

from __future__ import annotations

from .engine import Move, RefState


def _side_to_move(state: RefState) -> int:
    seat = state.snapshot()["to_move"]
    assert seat is not None
    return int(seat) % 2


def _final_difference(state: RefState, side: int) -> int:
    points = state.hand_report()["points"]
    return int(points[side]) - int(points[1 - side])


def value(state: RefState) -> int:
    """The minimax value of the hand for the side to move.

    Raises:
        ValueError: If the hand is over.
    """
    if state.hand_over:
        raise ValueError("the hand is over: no side is to move")
    side = _side_to_move(state)
    return max(_value_for(state.play(m), side) for m in state.legal_moves())


def _value_for(state: RefState, side: int) -> int:
    """The minimax value of `state` for `side` (which may or may not be the side to move)."""
    if state.hand_over:
        return _final_difference(state, side)
    children = [_value_for(state.play(m), side) for m in state.legal_moves()]
    return max(children) if _side_to_move(state) == side else min(children)


def move_values(state: RefState) -> dict[Move, int]:
    """The value, for the side to move, of each legal move."""
    side = _side_to_move(state)
    return {m: _value_for(state.play(m), side) for m in state.legal_moves()}
