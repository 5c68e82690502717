"""Perft: the number of move paths from a position, Rust core against the reference.

``State.perft(depth)`` counts the sequences of ``depth`` legal moves (a sequence that ends the
hand earlier counts once). Equal counts at every depth up to ``d`` mean the two move generators
agree on the number of legal moves at every node within ``d`` plies, across every branch: the
lockstep tests of ``test_differential`` follow one random branch at a time. The reference's
count is written here, over its own ``legal_moves`` and ``play``.

Positions: the deal of each preset and game, and positions a few random moves into the hand
(bigger tables, fewer cards in hand), to the depth at which the count passes ``LEAVES``.
"""

from __future__ import annotations

import random

import capturefast as cf
import pytest
from capturefast import variants
from reference import RefRules, RefState, format_move
from test_differential import compare_states
from test_differential_variants import preset_cases

# Each position is counted to the first depth whose count passes this (or the hand's end).
LEAVES = 1500
MAX_DEPTH = 8
SEEDS = range(3)
# Plies played at random before counting: the deal, early, mid-hand and late.
PLIES = (0, 3, 9, 20)


def ref_perft(state: RefState, depth: int) -> int:
    """The reference's count: every path walked, legal moves listed by the reference."""
    if depth == 0 or state.hand_over:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(ref_perft(state.play(m), depth - 1) for m in moves)


def first_difference(rs: cf.State, ref: RefState, depth: int) -> str:
    """The first move (in legal-move order) whose subtree the two engines count differently."""
    ref_moves = ref.legal_moves()
    rust = rs.perft_divide(depth)
    names = [str(m) for m, _ in rust]
    if names != [format_move(m) for m in ref_moves]:
        return f"legal moves differ: {names} v {[format_move(m) for m in ref_moves]}"
    for (mv, count), ref_move in zip(rust, ref_moves, strict=True):
        ref_count = ref_perft(ref.play(ref_move), depth - 1)
        if count != ref_count:
            return f"after {mv}: {count} v {ref_count}"
    return "no move differs"


def positions(name: str, players: int) -> list[tuple[str, cf.State, RefState]]:
    """The positions counted for a preset: each seed's deal, then ``PLIES`` random moves in."""
    rules = variants.rules(name, players=players)
    ref_rules = RefRules(rules.game, players, **dict(rules.options))
    out = []
    for seed in SEEDS:
        pick = random.Random(seed)
        rs, ref = cf.State.new(rules, seed), RefState.new(ref_rules, seed)
        played = 0
        for plies in PLIES:
            while played < plies and not rs.hand_over:
                moves = rs.legal_moves()
                k = pick.randrange(len(moves))
                rs, ref = rs.play(moves[k]), ref.play(ref.legal_moves()[k])
                played += 1
            if rs.hand_over:
                break
            where = f"{name} {players}p seed {seed} after {played} plies"
            compare_states(rs, ref, where)
            out.append((where, rs, ref))
    return out


@pytest.mark.parametrize(("name", "players"), preset_cases())
def test_perft_equals_the_reference(name: str, players: int) -> None:
    """Every preset: the counts agree at every depth up to the first past ``LEAVES``."""
    deepest = 0
    for where, rs, ref in positions(name, players):
        for depth in range(1, MAX_DEPTH + 1):
            count = rs.perft(depth)
            ref_count = ref_perft(ref, depth)
            if count != ref_count:
                diff = first_difference(rs, ref, depth)
                pytest.fail(f"{where}: perft({depth}) {count} v {ref_count}; {diff}")
            deepest = max(deepest, depth)
            if count > LEAVES:
                break
    assert deepest >= 3, "no position was counted past depth 2"


def test_perft_counts_and_divide() -> None:
    """Depth 0 is one path, depth 1 the legal moves; divide lists each move's count."""
    rules = cf.Rules.escoba(players=2)
    state = cf.State.new(rules, seed=4)
    assert state.perft(0) == 1
    assert state.perft(1) == len(state.legal_moves())
    divide = state.perft_divide(3)
    assert [m for m, _ in divide] == state.legal_moves()
    assert sum(n for _, n in divide) == state.perft(3)
    for mv, n in divide:
        assert state.play(mv).perft(2) == n
    assert state.perft_divide(0) == []
    while not state.hand_over:
        state = state.play(state.legal_moves()[0])
    assert state.perft(5) == 1
    assert state.perft_divide(5) == []


@pytest.mark.parametrize("depth", [-1, 9, 2**64, 2**200])
def test_perft_depth_out_of_range(depth: int) -> None:
    state = cf.State.new(cf.Rules.scopa(players=2), seed=0)
    with pytest.raises(cf.ArgumentError, match=f"depth must be .*: {depth}"):
        state.perft(depth)
    with pytest.raises(cf.ArgumentError, match="depth"):
        state.perft_divide(depth)
    with pytest.raises(TypeError):
        state.perft("3")  # type: ignore[arg-type]
