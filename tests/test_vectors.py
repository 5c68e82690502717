"""Every vector of ``tests/data/vectors.json`` (and each variant) against the Rust engine.

The engine is driven only through the public Python API (``capturefast``). Rules-level kinds
(``capture_options``, ``initial_table``, ``hand_score``, ``match_end``, ``leftover_check``) call
the ``Rules`` methods; the kinds that involve a position (``capture_options`` sweep flags,
``legal_moves``, ``sequence``) also build a full 40-card ``State.from_position``; the Chkobba
``deal`` vectors are checked on real deals: the vector's stock order fixes which deck position
goes to the cutter, the dealer, the table and the stock, and that mapping is applied to the decks
that ``State.new`` shuffles (the shuffle itself is fixed by docs/conventions.md).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import capturefast as cf
import pytest
from reference import SplitMix64, shuffled_deck
from vectors import (
    DECK,
    KNOWN_KINDS,
    VECTORS_PATH,
    VectorsMissingError,
    config_and_expected,
    hand_score_inputs,
    load_vectors,
    players_of,
    read_vectors_file,
    require_vector,
    side_letter,
    vector_cases,
)

CASES = vector_cases()
VALUES_15 = 15


# --------------------------------------------------------------------- helpers


def strs(cards: Iterable[cf.Card | str]) -> list[str]:
    """Card strings, in the given order."""
    return [str(c) for c in cards]


def option_sets(options: Iterable[Iterable[Any]]) -> set[frozenset[str]]:
    """Capture options as a set of frozensets of card strings; fails on a repeated option."""
    listed = [frozenset(str(c) for c in o) for o in options]
    result = set(listed)
    assert len(result) == len(listed), f"repeated capture option in {listed}"
    return result


def spares(used: Iterable[str], count: int) -> list[str]:
    """The first ``count`` cards (in id order) not in ``used``."""
    taken = set(used)
    return [c for c in DECK if c not in taken][:count]


def total(rules: cf.Rules, cards: Iterable[str]) -> int:
    """Sum of capture values."""
    return sum(rules.value(c) for c in cards)


def build_position(
    rules: cf.Rules,
    hands: list[list[str]],
    table: list[str],
    to_move: int,
    dealer: int,
    last_capturer: int | None,
    stock_cards: int = 0,
) -> tuple[cf.State, list[list[str]]]:
    """A full 40-card position: the given hands and table, the other cards in stock and piles.

    ``stock_cards`` cards (a multiple of a round) go to the stock; every other card goes to the
    pile of the last capturer's side. In Escoba every pile must total a multiple of 15 (E-A4), so
    the stock cards are chosen to make the pile total right.

    Returns:
        The state and the two side piles it was built with.
    """
    used = {c for h in hands for c in h} | set(table)
    rest = [c for c in DECK if c not in used]
    stock: list[str] = []
    if stock_cards:
        if rules.game == "escoba":
            need = total(rules, rest) % VALUES_15
            stock = list(
                next(
                    combo
                    for combo in itertools.combinations(rest, stock_cards)
                    if total(rules, combo) % VALUES_15 == need
                )
            )
        else:
            stock = rest[:stock_cards]
    filler = [c for c in rest if c not in stock]
    piles: list[list[str]] = [[], []]
    if filler:
        assert last_capturer is not None, "cards outside the vector need a last capturer's pile"
        piles[last_capturer % 2] = filler
    if rules.game == "escoba":
        assert total(rules, filler) % VALUES_15 == 0, "no Escoba filler totals a multiple of 15"
    state = cf.State.from_position(
        rules,
        hands,
        table,
        stock=stock,
        to_move=to_move,
        dealer=dealer,
        last_capturer=last_capturer,
        piles=piles,
    )
    return state, piles


def moves_of(state: cf.State, card: str) -> list[cf.Move]:
    """The legal moves of the mover that play ``card``."""
    return [m for m in state.legal_moves() if m.kind == "play" and str(m.card) == card]


def assert_sorted_moves(state: cf.State) -> None:
    """Legal moves come in strictly increasing packed order (docs/conventions.md, Moves)."""
    packed = [m.to_int() for m in state.legal_moves()]
    assert packed == sorted(set(packed)), "legal moves not in increasing packed order"


# --------------------------------------------------------------------- kinds


def check_capture_options(rules: cf.Rules, inp: dict[str, Any], exp: dict[str, Any]) -> None:
    """``capture_options``: the options, the compulsion and each option's sweep flag."""
    table, played = list(inp["table"]), inp["played"]
    expected = {frozenset(o["cards"]): bool(o["sweep"]) for o in exp["options"]}
    assert len(expected) == len(exp["options"])
    got = rules.capture_options(table, played)
    assert option_sets(got) == set(expected)
    assert bool(got) == exp["must_capture"]
    for option in expected:  # the vector's own sweep flag means "leaves the table empty"
        assert expected[option] == (option == frozenset(table))

    # Through a state: seat 0 holds the played card and a spare, so the play is not the last of
    # the hand (a stock remains) and a sweep counts.
    extra = spares([*table, played], 3)
    state, _ = build_position(
        rules, [[played, extra[0]], extra[1:]], table, 0, 1, 1, stock_cards=3 * rules.players
    )
    assert_sorted_moves(state)
    moves = moves_of(state, played)
    if exp["must_capture"]:
        assert {frozenset(strs(m.captures)): m.sweep for m in moves} == expected
        assert len(moves) == len(expected)
        assert not any(m.is_trail for m in moves)
    else:
        assert [str(m) for m in moves] == [played]
        assert moves[0].is_trail
        assert not moves[0].sweep


def check_legal_moves(rules: cf.Rules, inp: dict[str, Any], exp: dict[str, Any]) -> None:
    """``legal_moves``: per hand card, its capture options (empty = the card trails)."""
    hand, table = list(inp["hand"]), list(inp["table"])
    assert sorted(m["card"] for m in exp["moves"]) == sorted(hand)
    other = spares([*hand, *table], len(hand))
    state, _ = build_position(rules, [hand, other], table, 0, 1, 1, stock_cards=3 * rules.players)
    assert_sorted_moves(state)
    legal = state.legal_moves()
    assert {str(m.card) for m in legal} == set(hand), "K-A3: every hand card may be played"
    for entry in exp["moves"]:
        card = entry["card"]
        expected = option_sets(entry["options"])
        assert option_sets(rules.capture_options(table, card)) == expected, card
        moves = moves_of(state, card)
        if expected:
            assert option_sets(m.captures for m in moves) == expected, card
        else:
            assert [str(m) for m in moves] == [card], f"{card} must trail"


def check_initial_table(rules: cf.Rules, inp: dict[str, Any], exp: dict[str, Any]) -> None:
    """``initial_table``: redeal / play / dealer escoba, from ``Rules.opening``."""
    table = list(inp["table"])
    opening = rules.opening(table)
    if opening.redeal:
        action = "redeal"
    elif opening.dealer_sweeps:
        action = "dealer_escoba"
    else:
        action = "play"
    assert action == exp["action"]
    assert opening.dealer_sweeps == exp["escobas"]
    if action == "dealer_escoba":
        assert set(exp["dealer_captures"]) == set(table)
    else:
        assert exp["dealer_captures"] == []


def check_hand_score(rules: cf.Rules, inp: dict[str, Any], exp: dict[str, Any]) -> None:
    """``hand_score``: counts, category awards and points (partnerships pooled by team)."""
    piles, sweeps = hand_score_inputs(inp)
    report = rules.score(piles, sweeps)
    for index, letter in enumerate("AB"):
        for key, value in exp["counts"][letter].items():
            assert report.counts[index][key] == value, (letter, key)
    assert {k: side_letter(v) for k, v in report.awards.items()} == exp["awards"]
    assert list(report.points) == [exp["points"]["A"], exp["points"]["B"]]
    assert list(report.sweeps) == sweeps


def check_sequence(rules: cf.Rules, inp: dict[str, Any], exp: dict[str, Any]) -> None:
    """``sequence``: replay an end-of-hand play-out on a full 40-card position."""
    teams = inp.get("teams")
    if teams is None:
        seat_of = {"A": 0, "B": 1}
    else:
        seat_of = {s: int(s) for s in inp["hands"]}
        for letter, seats in teams.items():
            for s in seats:  # conventions: side = seat % 2, side 0 is team A
                assert side_letter(int(s) % 2) == letter
    key_of = {seat: key for key, seat in seat_of.items()}
    n = rules.players
    assert len(seat_of) == n
    hands: list[list[str]] = [[] for _ in range(n)]
    for key, cards in inp["hands"].items():
        hands[seat_of[key]] = list(cards)
    order = [seat_of[s] for s in inp["order"]]
    last = inp["last_capturer"]
    state, filler = build_position(
        rules,
        hands,
        list(inp["table"]),
        order[0],
        order[-1],  # the seat that plays last in each round is the dealer
        None if last is None else seat_of[last],
    )
    table_before: list[str] = []
    move: cf.Move | None = None
    for play in inp["plays"]:
        assert not state.hand_over
        assert state.to_move == seat_of[play["seat"]]
        move = cf.Move.play(play["card"], play["capture"] or [])
        assert str(move) in {str(m) for m in state.legal_moves()}, f"illegal play {play}"
        table_before = strs(state.table)
        state = state.play(move)
    assert move is not None
    assert state.hand_over
    # The table after the final play, before the leftovers are taken (G7).
    if move.is_trail:
        leftover = [*table_before, str(move.card)]
    else:
        leftover = [c for c in table_before if c not in strs(move.captures)]
    assert sorted(leftover) == sorted(exp["leftover"])
    assert list(state.sweeps) == [exp["sweeps"]["A"], exp["sweeps"]["B"]]
    for side, letter in enumerate("AB"):
        added = [c for c in strs(state.piles[side]) if c not in filler[side]]
        assert sorted(added) == sorted(exp["piles_added"][letter]), letter
    assert state.last_capturer is not None
    assert key_of[state.last_capturer] == exp["final_last_capturer"]
    if leftover:
        assert side_letter(state.last_capturer % 2) == exp["leftover_to"]
    else:
        assert exp["leftover_to"] is None
    report = state.hand_report()
    assert list(report.sweeps) == list(state.sweeps)
    assert list(state.scores) == list(report.points)


def check_match_end(rules: cf.Rules, inp: dict[str, Any], exp: dict[str, Any]) -> None:
    """``match_end``: scores after the hand and the result."""
    options = {k: v for k, v in rules.options.items() if k != "target"}
    rules = cf.Rules(rules.game, rules.players, target=inp["target"], **options)
    assert rules.target == inp["target"]
    after = [inp["before"][s] + inp["hand_points"][s] for s in "AB"]
    assert after == [exp["after"]["A"], exp["after"]["B"]]
    winner = rules.match_winner(after)
    assert ("continue" if winner is None else side_letter(winner)) == exp["result"]


def check_leftover_check(rules: cf.Rules, inp: dict[str, Any], exp: dict[str, Any]) -> None:
    """``leftover_check``: the Escoba leftover sum and its consistency (E-A4)."""
    leftover_sum = total(rules, inp["leftover"])
    assert leftover_sum == exp["sum"]
    assert (leftover_sum % VALUES_15 == 10) == exp["consistent"]


def _three_of_a_rank(table: Iterable[str]) -> bool:
    """K6: three or four table cards of one rank."""
    return max(Counter(c[0] for c in table).values()) >= 3


def check_deal(rules: cf.Rules, inp: dict[str, Any], exp: dict[str, Any]) -> None:
    """``deal`` (K5, K-A4): the vector's layout applied to real shuffled decks.

    The vector says where each of the first cards of the deck goes; the same positions must go
    to the same places in every deal of ``State.new`` (whose shuffle is fixed by the
    conventions). Seeds are scanned until both a plain deal and, when the vector redeals, a
    redeal have been seen.
    """
    players = inp["players"]
    options = {k: v for k, v in rules.options.items()}
    rules = cf.Rules(rules.game, players, **options)
    given: list[str] = inp["stock_top_first"]
    choice: str = inp["cut_choice"]
    zone_of = {card: "cutter" for card in exp["hands"]["cutter"]}
    zone_of.update({card: "dealer" for card in exp["hands"]["dealer"]})
    zone_of.update({card: "table" for card in exp["table"]})
    assert len(zone_of) == len(exp["hands"]["cutter"]) + len(exp["hands"]["dealer"]) + 4
    assert set(zone_of) <= set(given)
    assert len(given) - len(zone_of) == exp["stock_left"]
    zones = [zone_of.get(card, "stock") for card in given]
    assert rules.opening(exp["table"]).redeal == exp["redeal"]
    assert _three_of_a_rank(exp["table"]) == exp["redeal"]

    plain = redealt = 0
    for seed in range(5000):
        rng = SplitMix64(seed)
        dealer = rng.below(players)
        cutter = (dealer + 1) % players
        deck = shuffled_deck(rng)
        state = cf.State.new(rules, seed)
        assert state.dealer == dealer
        assert state.phase == "cut"
        assert state.to_move == cutter
        assert str(state.cut_card) == deck[0]
        assert strs(state.stock) == deck[1:]
        assert [str(m) for m in state.legal_moves()] == [f"keep {deck[0]}", f"table {deck[0]}"]
        after = state.play(f"{choice} {deck[0]}")
        placed = {z: {deck[i] for i, zz in enumerate(zones) if zz == z} for z in set(zones)}
        if _three_of_a_rank(placed["table"]):
            # K6 / K-A2: the same dealer reshuffles (the stream goes on) and cuts again.
            redealt += 1
            again = shuffled_deck(rng)
            assert after.phase == "cut"
            assert after.dealer == dealer
            assert after.to_move == cutter
            assert str(after.cut_card) == again[0]
        else:
            plain += 1
            assert after.phase == "play"
            assert after.cut_card is None
            assert set(strs(after.hands[cutter])) == placed["cutter"]
            assert set(strs(after.hands[dealer])) == placed["dealer"]
            assert set(strs(after.table)) == placed["table"]
            assert strs(after.stock) == [deck[i] for i, z in enumerate(zones) if z == "stock"] + [
                *deck[len(given) :]
            ]
            assert after.to_move == cutter
        if plain >= 200 and (redealt >= 1 or not exp["redeal"]):
            break
    assert plain >= 200
    if exp["redeal"]:
        assert redealt >= 1, "no redeal seen in the scanned seeds"


CHECKERS: dict[str, Callable[[cf.Rules, dict[str, Any], dict[str, Any]], None]] = {
    "capture_options": check_capture_options,
    "legal_moves": check_legal_moves,
    "initial_table": check_initial_table,
    "hand_score": check_hand_score,
    "sequence": check_sequence,
    "match_end": check_match_end,
    "leftover_check": check_leftover_check,
    "deal": check_deal,
}


# --------------------------------------------------------------------- tests


def test_every_kind_has_a_checker() -> None:
    """No vector is left unchecked: every kind in the file (and in the schema) is handled."""
    vectors = load_vectors()
    assert {v["kind"] for v in vectors} <= set(CHECKERS)
    assert set(CHECKERS) == KNOWN_KINDS
    n_variants = sum(len(v.get("variants", [])) for v in vectors)
    assert len(CASES) == len(vectors) + n_variants


def test_vectors_are_read_from_the_repository() -> None:
    """The vectors come from ``tests/data`` inside the repository, nowhere else."""
    repo = Path(__file__).resolve().parents[1]
    assert repo / "tests" / "data" / "vectors.json" == VECTORS_PATH
    assert VECTORS_PATH.is_file(), f"vectors file not found: {VECTORS_PATH}"


def test_missing_vectors_file_fails(tmp_path: Path) -> None:
    """A missing or empty vectors file gives a failing case, never zero cases or a skip."""
    missing = tmp_path / "vectors.json"
    with pytest.raises(VectorsMissingError, match="vectors file not found"):
        read_vectors_file(missing)
    (case,) = vector_cases(path=missing)
    assert case.id == "vectors-missing"
    with pytest.raises(pytest.fail.Exception, match="no vectors loaded"):
        require_vector(case.values[0])
    missing.write_text('{"vectors": []}', encoding="utf-8")
    with pytest.raises(VectorsMissingError, match="holds no vectors"):
        read_vectors_file(missing)
    assert [c.id for c in vector_cases(path=missing)] == ["vectors-missing"]


@pytest.mark.parametrize(("vector", "variant"), CASES)
def test_vector_on_rust_engine(vector: dict[str, Any] | None, variant: int | None) -> None:
    """One vector (``variant`` None) or one of its variants, with its config and expectation."""
    vector = require_vector(vector)
    config, expected = config_and_expected(vector, variant)
    rules = cf.Rules(vector["game"], players_of(vector), **config)
    for key, value in config.items():
        assert rules == cf.Rules(vector["game"], players_of(vector), **{key: value})
        if key == "initial_30_requires_partition":  # an input alias (docs/variants.md)
            key, value = "opening_sweeps", "partition" if value else "sum"
        assert rules.options[key] == value, f"option {key} not applied"
    CHECKERS[vector["kind"]](rules, vector["input"], expected)
