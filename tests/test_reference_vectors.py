"""Run every vector of ``tests/data/vectors.json`` (and each of its variants) on the reference.

Each vector is checked at the rules level (``RefRules``) and, where the kind allows it, through a
``RefState`` as well, so that the state machine is exercised on the same cases.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from reference import DECK, RefRules, RefState, layout_deal, sort_cards
from vectors import (
    KNOWN_KINDS,
    VECTORS_PATH,
    expand_rest,
    load_vectors,
    merge,
    players_of,
    require_vector,
    side_letter,
    vector_cases,
)

# The loader (tests/vectors.py) reads tests/data/vectors.json; these aliases keep the names below.
_merge = merge
_side_letter = side_letter
_expand_rest = expand_rest
_players_of = players_of

CASES = vector_cases()


def _spare_card(used: list[str]) -> str:
    """Return the first card (in id order) not in ``used``."""
    return next(c for c in DECK if c not in used)


def _as_sets(options: list[list[str]] | list[frozenset[str]]) -> set[frozenset[str]]:
    """Capture options as a set of sets; fails on duplicated options."""
    result = {frozenset(o) for o in options}
    assert len(result) == len(options), f"duplicated capture option in {options}"
    return result


# --------------------------------------------------------------------- kinds


def check_capture_options(rules: RefRules, inp: dict[str, Any], exp: dict[str, Any]) -> None:
    """``capture_options``: the options, the compulsion and each option's sweep flag."""
    table, played = inp["table"], inp["played"]
    options = rules.capture_options(table, played)
    expected = {(frozenset(o["cards"]), o["sweep"]) for o in exp["options"]}
    assert len(expected) == len(exp["options"])
    assert _as_sets(options) == {cards for cards, _ in expected}
    assert bool(options) == exp["must_capture"]

    # The same through a state: the mover holds the played card and a spare card (so the play is
    # not the final one of the hand), the opponent one more spare card.
    spare1 = _spare_card([*table, played])
    spare2 = _spare_card([*table, played, spare1])
    state = RefState.from_position(
        rules, [[played, spare1], [spare2]], table, [], 0, 1, None, [[], []], [0, 0], [0, 0]
    )
    moves = [m for m in state.legal_moves() if m[1] == played]
    if exp["must_capture"]:
        got = {(m[2], state.is_sweep(m)) for m in moves}
        assert got == expected
    else:
        assert moves == [("play", played, frozenset())]
        assert not state.is_sweep(moves[0])


def check_legal_moves(rules: RefRules, inp: dict[str, Any], exp: dict[str, Any]) -> None:
    """``legal_moves``: per hand card, its capture options (empty = trail)."""
    hand, table = inp["hand"], inp["table"]
    assert sorted(m["card"] for m in exp["moves"]) == sorted(hand)
    spare = _spare_card([*hand, *table])
    state = RefState.from_position(
        rules, [list(hand), [spare]], table, [], 0, 1, None, [[], []], [0, 0], [0, 0]
    )
    legal = state.legal_moves()
    for entry in exp["moves"]:
        card = entry["card"]
        expected = _as_sets(entry["options"])
        assert _as_sets(rules.capture_options(table, card)) == expected
        captures = [m[2] for m in legal if m[1] == card]
        if expected:
            assert _as_sets(captures) == expected
        else:
            assert captures == [frozenset()]  # the card trails
    assert all(m[1] in hand for m in legal)


def check_initial_table(rules: RefRules, inp: dict[str, Any], exp: dict[str, Any]) -> None:
    """``initial_table``: redeal / play / dealer escoba, at rules level and through a deal."""
    table = inp["table"]
    redeal, dealer_sweeps = rules.opening(table)
    if redeal:
        action = "redeal"
    elif dealer_sweeps:
        action = "dealer_escoba"
    else:
        action = "play"
    assert action == exp["action"]
    assert dealer_sweeps == exp["escobas"]

    # Through a deal from a prepared deck (dealer seat 1 of 2).
    others = [c for c in DECK if c not in table]
    n_hand_cards = rules.players * 3
    if rules.uses_cut_card:
        # The cut card is tabled: it is the first table card; the other three come after hands.
        deck = [table[0], *others[:n_hand_cards], *table[1:], *others[n_hand_cards:]]
        state = RefState.from_deck(rules, 1, deck, seed=7)
        state = state.play(f"table {table[0]}")
    else:
        deck = [*others[:n_hand_cards], *table, *others[n_hand_cards:]]
        state = RefState.from_deck(rules, 1, deck, seed=7)
    if action == "redeal":
        assert state.redeals == 1
        return
    snap = state.snapshot()
    assert state.redeals == 0
    assert snap["to_move"] == 0
    if action == "dealer_escoba":
        assert snap["table"] == []
        assert set(snap["piles"][1]) == set(exp["dealer_captures"]) == set(table)
        assert snap["sweeps"] == [0, exp["escobas"]]
        assert snap["last_capturer"] == 1
    else:
        assert exp["dealer_captures"] == []
        assert snap["table"] == sort_cards(table)
        assert snap["piles"] == [[], []]
        assert snap["sweeps"] == [0, 0]
        assert snap["last_capturer"] is None


def check_hand_score(rules: RefRules, inp: dict[str, Any], exp: dict[str, Any]) -> None:
    """``hand_score``: counts, category awards and points."""
    if "seats" in inp:
        seat_piles = _expand_rest(inp["seats"])
        teams = inp["teams"]
        piles = [[c for s in teams[t] for c in seat_piles[s]] for t in ("A", "B")]
        sweeps = [sum(inp["seat_sweeps"][s] for s in teams[t]) for t in ("A", "B")]
    else:
        side_piles = _expand_rest(inp["piles"])
        piles = [side_piles["A"], side_piles["B"]]
        sweeps = [inp["sweeps"]["A"], inp["sweeps"]["B"]]
    report = rules.score(piles, sweeps)
    for index, letter in enumerate("AB"):
        for key, value in exp["counts"][letter].items():
            assert report["counts"][index][key] == value, (letter, key)
    assert {k: _side_letter(v) for k, v in report["awards"].items()} == exp["awards"]
    assert report["points"] == [exp["points"]["A"], exp["points"]["B"]]
    assert report["sweeps"] == sweeps


def check_sequence(rules: RefRules, inp: dict[str, Any], exp: dict[str, Any]) -> None:
    """``sequence``: replay an end-of-hand play-out through a ``RefState``."""
    teams = inp.get("teams")
    if teams is None:
        seat_of = {"A": 0, "B": 1}
    else:
        seat_of = {s: int(s) for s in inp["hands"]}
        for letter, seats in teams.items():
            for s in seats:  # conventions: side = seat % 2, side 0 is team A
                assert _side_letter(int(s) % 2) == letter
    letter_of = {seat: letter for letter, seat in seat_of.items()}
    n = rules.players
    assert len(seat_of) == n
    hands = [[] for _ in range(n)]
    for key, cards in inp["hands"].items():
        hands[seat_of[key]] = list(cards)
    order = [seat_of[s] for s in inp["order"]]
    last = inp["last_capturer"]
    state = RefState.from_position(
        rules,
        hands,
        inp["table"],
        [],
        order[0],
        order[-1],  # the seat that plays last in each round is the dealer
        None if last is None else seat_of[last],
        [[], []],
        [0, 0],
        [0, 0],
    )
    for play in inp["plays"]:
        assert not state.hand_over
        assert state.to_move == seat_of[play["seat"]]
        move = ("play", play["card"], frozenset(play["capture"] or []))
        assert move in state.legal_moves(), f"illegal play {play}"
        state = state.play(move)
    assert state.hand_over
    assert state.sweeps == [exp["sweeps"]["A"], exp["sweeps"]["B"]]
    for side, letter in enumerate("AB"):
        assert sorted(state.piles[side]) == sorted(exp["piles_added"][letter]), letter
    assert sorted(state.leftover) == sorted(exp["leftover"])
    if state.leftover:
        assert state.last_capturer is not None
        assert _side_letter(state.last_capturer % 2) == exp["leftover_to"]
    else:
        assert exp["leftover_to"] is None
    assert state.last_capturer is not None
    assert letter_of[state.last_capturer] == exp["final_last_capturer"]
    report = state.hand_report()
    assert report["sweeps"] == state.sweeps
    assert state.scores == report["points"]


def check_match_end(rules: RefRules, inp: dict[str, Any], exp: dict[str, Any]) -> None:
    """``match_end``: scores after the hand and the result."""
    rules = RefRules(rules.game, rules.players, **{**_config_of(rules), "target": inp["target"]})
    after = [inp["before"][s] + inp["hand_points"][s] for s in "AB"]
    assert after == [exp["after"]["A"], exp["after"]["B"]]
    winner = rules.match_winner(after)
    assert ("continue" if winner is None else _side_letter(winner)) == exp["result"]


def check_leftover_check(rules: RefRules, inp: dict[str, Any], exp: dict[str, Any]) -> None:
    """``leftover_check``: the Escoba leftover sum and its consistency (E-A4)."""
    total = sum(rules.value(c) for c in inp["leftover"])
    assert total == exp["sum"]
    assert (total % 15 == 10) == exp["consistent"]


def check_deal(rules: RefRules, inp: dict[str, Any], exp: dict[str, Any]) -> None:
    """``deal``: the Chkobba cut-card deal (K-A4), by layout and through a ``RefState``."""
    players = inp["players"]
    rules = RefRules(rules.game, players, **_config_of(rules))
    given = inp["stock_top_first"]
    choice = inp["cut_choice"]
    dealer, cutter = 1, 0
    hands, table, stock = layout_deal(players, dealer, given, choice)
    assert hands[cutter] == exp["hands"]["cutter"]
    assert hands[dealer] == exp["hands"]["dealer"]
    assert table == exp["table"]
    assert len(stock) == exp["stock_left"]
    assert rules.opening(table)[0] == exp["redeal"]

    deck = [*given, *[c for c in DECK if c not in given]]
    state = RefState.from_deck(rules, dealer, deck, seed=3)
    assert state.snapshot()["cut_card"] == given[0]
    assert state.to_move == cutter
    assert [m[0] for m in state.legal_moves()] == ["keep_cut", "table_cut"]
    state = state.play(f"{choice} {given[0]}")
    if exp["redeal"]:
        assert state.redeals == 1
        assert state.dealer == dealer
        assert state.to_move == cutter
        assert state.cut_card is not None  # K-A2: a new cut decision
    else:
        snap = state.snapshot()
        assert state.redeals == 0
        assert snap["cut_card"] is None
        assert snap["hands"][cutter] == sort_cards(exp["hands"]["cutter"])
        assert snap["hands"][dealer] == sort_cards(exp["hands"]["dealer"])
        assert snap["table"] == sort_cards(exp["table"])
        assert snap["stock"] == deck[len(given) :]
        assert snap["to_move"] == cutter


CHECKERS: dict[str, Callable[[RefRules, dict[str, Any], dict[str, Any]], None]] = {
    "capture_options": check_capture_options,
    "legal_moves": check_legal_moves,
    "initial_table": check_initial_table,
    "hand_score": check_hand_score,
    "sequence": check_sequence,
    "match_end": check_match_end,
    "leftover_check": check_leftover_check,
    "deal": check_deal,
}


def _config_of(rules: RefRules) -> dict[str, Any]:
    """Return the non-target options of a rules object, to rebuild it with changes."""
    return {k: v for k, v in rules.options.items() if k != "target"}


# --------------------------------------------------------------------- tests


def test_vectors_file() -> None:
    """The vectors file exists in the repository, is non-empty and uses only known kinds."""
    assert VECTORS_PATH.is_file(), f"vectors file not found: {VECTORS_PATH}"
    data = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))
    assert data["vectors"], f"vectors file holds no vectors: {VECTORS_PATH}"
    kinds = {v["kind"] for v in data["vectors"]}
    assert kinds <= KNOWN_KINDS, f"unknown kinds {kinds - KNOWN_KINDS}"
    ids = [v["id"] for v in data["vectors"]]
    assert len(ids) == len(set(ids)), "duplicated vector ids"
    n_variants = sum(len(v.get("variants", [])) for v in data["vectors"])
    assert len(CASES) == len(ids) + n_variants
    assert load_vectors() == data["vectors"]


@pytest.mark.parametrize(("vector", "variant"), CASES)
def test_vector(vector: dict[str, Any] | None, variant: int | None) -> None:
    """One vector (``variant`` None) or one of its variants, with its config and expectation."""
    vector = require_vector(vector)
    expected = vector["expected"]
    config: dict[str, Any] = {}
    if variant is not None:
        entry = vector["variants"][variant]
        config = dict(entry["config"])
        expected = _merge(expected, entry["expected"])
    rules = RefRules(vector["game"], _players_of(vector), **config)
    CHECKERS[vector["kind"]](rules, vector["input"], expected)
