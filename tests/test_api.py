"""Tests of the public Python API of capturefast: every entry point, attribute and type.

Expected values are worked out by hand from ``docs/rules.md`` and
``docs/conventions.md`` (the deal oracle below is a separate SplitMix64/shuffle/deal written from
the conventions page), never taken from the code under test.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import capturefast as cf
import pytest
from capturefast import Card, HandReport, Move, Rules, State, variants
from gil import longest_stall
from reference import RefRules
from variant_tables import DEFAULTS

RANKS = "A234567JQK"
SUITS = "CDHS"
ALL: list[str] = [r + s for r in RANKS for s in SUITS]  # id order (rank-major)
GAMES = ("scopa", "escoba", "chkobba")
M64 = 2**64

# Capture values by rank, from the spec (S3, E3, K3).
ITALIAN_VALUES = dict(zip(RANKS, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], strict=True))
TUNISIAN_VALUES = {**ITALIAN_VALUES, "Q": 8, "J": 9}

CATEGORIES = {
    "scopa": ["cards", "coins", "settebello", "primiera"],
    "escoba": ["cards", "coins", "velo", "setenta"],
    "chkobba": ["karta", "dinari", "7ayya", "bermila"],
}


# --------------------------------------------------------------------------- helpers


def cards(*names: str) -> list[Card]:
    """Cards from their strings."""
    return [Card(n) for n in names]


def rest_of(used: Iterable[str]) -> list[str]:
    """Every card not in ``used``, in id order."""
    u = set(used)
    return [c for c in ALL if c not in u]


def position(
    rules: Rules,
    hands: Sequence[Sequence[str]],
    table: Sequence[str],
    *,
    stock: Sequence[str] = (),
    to_move: int = 0,
    dealer: int | None = None,
    last_capturer: int | None = 0,
    pile0: Sequence[str] | None = None,
    sweeps: Sequence[int] | None = None,
    scores: Sequence[int] | None = None,
    seed: int = 0,
) -> State:
    """A from_position state; the cards not given go to the piles.

    Without ``pile0``, every remaining card goes to the last capturer's side (side 0 when
    last_capturer is None, in which case there must be no remaining card).
    """
    used = [c for h in hands for c in h] + list(table) + list(stock)
    rest = rest_of(used)
    if pile0 is None:
        side = 0 if last_capturer is None else last_capturer % 2
        piles: list[list[str]] = [[], []]
        piles[side] = rest
    else:
        piles = [list(pile0), [c for c in rest if c not in set(pile0)]]
    return State.from_position(
        rules,
        hands=[list(h) for h in hands],
        table=list(table),
        stock=list(stock),
        to_move=to_move,
        dealer=dealer,
        last_capturer=last_capturer,
        piles=piles,
        sweeps=sweeps,
        scores=scores,
        seed=seed,
    )


def strs(cs: Iterable[Card]) -> list[str]:
    return [str(c) for c in cs]


def random_walk(state: State, rng: random.Random, max_steps: int = 10_000) -> Iterator[State]:
    """Yields ``state`` and every state reached by random legal moves until the match ends."""
    yield state
    for _ in range(max_steps):
        if state.match_over:
            return
        state = (
            state.next_hand() if state.hand_over else state.play(rng.choice(state.legal_moves()))
        )
        yield state


def sample_states(per_config: int = 60) -> list[State]:
    """States of random matches in every game and player count (fixed seeds)."""
    out: list[State] = []
    rng = random.Random(1234)
    for game in GAMES:
        for n in (2, 4):
            rules = Rules(game, players=n)
            walk = list(random_walk(State.new(rules, seed=rng.randrange(M64)), rng))
            step = max(1, len(walk) // per_config)
            out.extend(walk[::step])
            out.append(walk[-1])
    return out


SAMPLES = sample_states()


def report_piles(a: Sequence[str]) -> list[list[str]]:
    """Two piles: ``a`` and the rest of the deck."""
    return [list(a), rest_of(a)]


# --------------------------------------------------------------------------- module


def test_public_names_exist() -> None:
    for name in cf.__all__:
        assert hasattr(cf, name), name
    for name in (
        "Card",
        "Move",
        "Rules",
        "State",
        "View",
        "Opening",
        "HandReport",
        "random_hands",
        "CaptureFastError",
        "InvalidCardError",
        "IllegalMoveError",
        "VariantError",
        "PositionError",
        "DecodeError",
    ):
        assert name in cf.__all__, name
    assert isinstance(cf.__version__, str)
    assert cf.__version__.count(".") >= 1


def test_hand_report_is_the_report_module_class() -> None:
    from capturefast.report import HandReport as ReportClass

    assert cf.HandReport is ReportClass


# --------------------------------------------------------------------------- Card


def test_card_from_string() -> None:
    c = Card("7D")
    assert str(c) == "7D"
    assert repr(c) == "Card('7D')"
    assert c.id == 25
    assert int(c) == 25
    assert c.rank == "7"
    assert c.suit == "D"
    assert isinstance(c.id, int)
    assert isinstance(c.rank, str)
    assert isinstance(c.suit, str)


@pytest.mark.parametrize(
    ("name", "cid"),
    [("AC", 0), ("AD", 1), ("AH", 2), ("AS", 3), ("2C", 4), ("7D", 25), ("JC", 28), ("KS", 39)],
)
def test_card_ids_are_rank_major(name: str, cid: int) -> None:
    assert Card(name).id == cid
    assert str(Card(cid)) == name


def test_every_card_id_string_rank_suit() -> None:
    for i in range(40):
        c = Card(i)
        assert c.id == i
        assert c.rank == RANKS[i // 4]
        assert c.suit == SUITS[i % 4]
        assert str(c) == RANKS[i // 4] + SUITS[i % 4]
        assert Card(str(c)) == c
        assert Card(c) == c
        assert eval(repr(c), {"Card": Card}) == c


def test_card_from_int_string_and_card_agree() -> None:
    assert Card(25) == Card("7D") == Card(Card("7D"))
    assert Card(Card(39)) == Card("KS")


def test_card_equality_and_hash() -> None:
    assert Card("7D") == Card("7D")
    assert Card("7D") != Card("7C")
    assert Card("7D") != "7D"
    assert Card("7D") != 25
    assert hash(Card("7D")) == hash(Card(25))
    s = {Card("7D"), Card(25), Card("7C")}
    assert s == {Card("7C"), Card("7D")}
    d = {Card("QH"): 1}
    assert d[Card(34)] == 1


def test_card_ordering_is_by_id() -> None:
    assert Card("AS") < Card("2C")
    assert Card("KC") > Card("7S")
    assert Card("7D") <= Card("7D")
    assert Card("7D") >= Card("7D")
    assert not Card("7D") < Card("7D")
    shuffled = [Card(i) for i in range(40)]
    random.Random(5).shuffle(shuffled)
    assert [c.id for c in sorted(shuffled)] == list(range(40))
    assert max(cards("3C", "KD", "7S")) == Card("KD")


def test_card_ordering_with_other_types_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        _ = Card("7D") < "8D"  # type: ignore[operator]


def test_card_pickle_and_copy() -> None:
    for i in range(40):
        c = Card(i)
        for proto in range(pickle.HIGHEST_PROTOCOL + 1):
            d = pickle.loads(pickle.dumps(c, protocol=proto))
            assert d == c
            assert type(d) is Card
        assert copy.copy(c) == c
        assert copy.deepcopy(c) == c


def test_card_is_immutable() -> None:
    c = Card("7D")
    with pytest.raises(AttributeError):
        c.id = 3  # type: ignore[misc]


# --------------------------------------------------------------------------- Move


def test_move_capture_notation() -> None:
    m = Move("QH x 2D+6S")
    assert m.kind == "play"
    assert m.card == Card("QH")
    assert isinstance(m.card, Card)
    assert m.captures == frozenset(cards("2D", "6S"))
    assert isinstance(m.captures, frozenset)
    assert all(isinstance(c, Card) for c in m.captures)
    assert m.is_trail is False
    assert m.sweep is False
    assert str(m) == "QH x 2D+6S"
    assert repr(m) == "Move('QH x 2D+6S')"


def test_move_trail_notation() -> None:
    m = Move("7D")
    assert m.kind == "play"
    assert m.card == Card("7D")
    assert m.captures == frozenset()
    assert m.is_trail is True
    assert m.sweep is False
    assert str(m) == "7D"


@pytest.mark.parametrize(("word", "kind"), [("keep", "keep_cut"), ("table", "table_cut")])
def test_move_cut_notation(word: str, kind: str) -> None:
    m = Move(f"{word} 7D")
    assert m.kind == kind
    assert m.card == Card("7D")
    assert m.captures == frozenset()
    assert m.is_trail is False
    assert m.sweep is False
    assert str(m) == f"{word} 7D"


def test_move_notation_is_normalised_to_id_order() -> None:
    # Captured cards are written in id order: 2D (5) before 6S (23).
    assert str(Move("QH x 6S+2D")) == "QH x 2D+6S"
    assert Move("QH x 6S 2D") == Move("QH x 2D+6S")
    assert str(Move("KS x 4S+AC+3H+2D")) == "KS x AC+2D+3H+4S"


@pytest.mark.parametrize(
    "text", ["7D x 3C+", "7D x 3C++4S", "7D x +3C", "7D x 3C+ +4S", "claim 7D x 3C+"]
)
def test_move_text_with_an_empty_card_is_refused_naming_it(text: str) -> None:
    # As `JC++QH` in a notation line: a `+` stands between two cards, none is skipped.
    with pytest.raises(cf.IllegalMoveError, match=re.escape(f": {text}") + "$"):
        Move(text)


@pytest.mark.parametrize(
    "text", ["QH x 2D+6S", "7D", "keep 7D", "table QH", "KS x AC+2D+3H+4S", "AC x AD"]
)
def test_move_str_parses_back_equal(text: str) -> None:
    m = Move(text)
    assert str(m) == text
    assert Move(str(m)) == m
    assert Move(m) == m


def test_move_play_constructor() -> None:
    assert Move.play("QH", ["6S", "2D"]) == Move("QH x 2D+6S")
    assert Move.play(Card("QH"), {Card("2D"), Card("6S")}) == Move("QH x 2D+6S")
    assert Move.play(34, [5, 23]) == Move("QH x 2D+6S")
    assert Move.play("7D") == Move("7D")
    assert Move.play("7D", []) == Move("7D")
    assert Move.play("7D", None).is_trail


def test_move_to_int_packing() -> None:
    # captured set in bits 0-39, card id in bits 40-45, kind in bits 46-47.
    assert Move("QH x 2D+6S").to_int() == (34 << 40) | (1 << 5) | (1 << 23)
    assert Move("7D").to_int() == 25 << 40
    assert Move("keep 7D").to_int() == (1 << 46) | (25 << 40)
    assert Move("table 7D").to_int() == (2 << 46) | (25 << 40)
    assert Move("AC x AD").to_int() == 1 << 1
    assert Move.from_int((34 << 40) | (1 << 5) | (1 << 23)) == Move("QH x 2D+6S")
    assert Move.from_int((2 << 46) | (25 << 40)) == Move("table 7D")


def test_move_int_round_trip_on_legal_moves() -> None:
    seen = 0
    for s in SAMPLES:
        for m in s.legal_moves():
            assert Move.from_int(m.to_int()) == m
            assert Move(str(m)) == m
            assert str(Move.from_int(m.to_int())) == str(m)
            seen += 1
    assert seen > 500


def test_move_ordering_follows_packed_value() -> None:
    ms = [
        Move("keep AC"),
        Move("table AC"),
        Move("KS"),
        Move("AC x AD"),
        Move("AC"),
        Move("7D x 3C+4S"),
    ]
    by_int = sorted(ms, key=lambda m: m.to_int())
    assert sorted(ms) == by_int
    assert Move("7D") < Move("keep AC")  # kind first
    assert Move("AC x AD") > Move("AC")  # then card, then captured set
    assert Move("KS") >= Move("KS")
    assert Move("KS") <= Move("KS")


def test_move_equality_and_hash() -> None:
    assert Move("7D") == Move("7D")
    assert Move("7D") != Move("7C")
    assert Move("7D") != "7D"
    assert Move("keep 7D") != Move("table 7D")
    assert hash(Move("QH x 6S+2D")) == hash(Move("QH x 2D+6S"))
    assert len({Move("7D"), Move("7D"), Move("keep 7D")}) == 2


def chkobba_example() -> State:
    """K-CAP-01: the table holds only 2D and 6S; QH (8) takes both and scores a chkobba."""
    return position(
        Rules.chkobba(), [["QH", "JH", "AC"], ["2C", "3C", "4C"]], ["2D", "6S"], dealer=1
    )


def test_move_hash_and_equality_ignore_the_sweep_flag() -> None:
    legal = chkobba_example().legal_moves()
    sweep = [m for m in legal if m.sweep]
    assert len(sweep) == 1
    parsed = Move("QH x 2D+6S")
    assert parsed.sweep is False
    assert sweep[0] == parsed
    assert hash(sweep[0]) == hash(parsed)
    assert parsed in set(legal)
    assert parsed in legal
    assert {m: i for i, m in enumerate(legal)}[parsed] == legal.index(sweep[0])
    # The state knows: for the parsed move, its notation, and every legal move.
    state = chkobba_example()
    assert state.is_sweep(parsed) and state.is_sweep("QH x 2D+6S")
    assert [state.is_sweep(m) for m in legal] == [m.sweep for m in legal]
    with pytest.raises(cf.IllegalMoveError, match="QH x 2D"):
        state.is_sweep("QH x 2D")


def test_move_pickle_round_trip() -> None:
    for text in ("QH x 2D+6S", "7D", "keep 7D", "table KS"):
        m = Move(text)
        for proto in range(pickle.HIGHEST_PROTOCOL + 1):
            d = pickle.loads(pickle.dumps(m, protocol=proto))
            assert d == m
            assert type(d) is Move
            assert str(d) == text


def test_move_pickle_and_copy_keep_the_sweep_flag() -> None:
    m = next(m for m in chkobba_example().legal_moves() if m.sweep)
    assert pickle.loads(pickle.dumps(m)).sweep is True
    assert copy.copy(m).sweep is True
    assert copy.deepcopy(m).sweep is True


def test_solutions_and_views_pickle() -> None:
    """A `Solution` and a `View` pickle whole (for process pools): the copy reads the same."""
    for rules in (
        Rules.scopa(),
        Rules.chkobba(),
        variants.rules("cirulla"),
        Rules.escoba(players=4),
    ):
        state = State.new(rules, 3)
        for _ in range(3):
            state = state.play(state.legal_moves()[0])
        for seat in range(rules.players):
            view = state.view(seat)
            for proto in range(pickle.HIGHEST_PROTOCOL + 1):
                back = pickle.loads(pickle.dumps(view, protocol=proto))
                assert back == view and back.to_notation() == view.to_notation()
                assert back.legal_moves() == view.legal_moves()
    state = chkobba_example()
    solution = cf.solve(state)
    back = pickle.loads(pickle.dumps(solution))
    assert (back.value, back.nodes) == (solution.value, solution.nodes)
    assert back.move_values == solution.move_values
    assert back.best_moves == solution.best_moves
    assert [m.sweep for m in back.move_values] == [m.sweep for m in solution.move_values]
    assert any(m.sweep for m in back.move_values), "the example has a sweep to keep"


def test_move_is_immutable() -> None:
    m = Move("7D")
    with pytest.raises(AttributeError):
        m.sweep = True  # type: ignore[misc]


# --------------------------------------------------------------------------- Rules

PRESET_DICTS: dict[str, dict[str, Any]] = {
    game: {"game": game, "players": 2, **DEFAULTS[game]} for game in GAMES
}


@pytest.mark.parametrize("game", GAMES)
def test_presets(game: str) -> None:
    preset = getattr(Rules, game)
    for n in (2, 4):
        r = preset(players=n)
        assert r.game == game
        assert r.players == n
        assert r.target == PRESET_DICTS[game]["target"]
        want = {**PRESET_DICTS[game], "players": n}
        assert r.to_dict() == want
        assert r.options == {k: v for k, v in want.items() if k not in ("game", "players")}
        assert r == Rules(game, players=n)
        assert r == Rules(game, n)
    assert preset() == preset(players=2)
    assert preset().players == 2


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("scopa", {"target": 16}),
        ("scopa", {"last_play_sweep": "counts"}),
        ("scopa", {"primiera_missing_suit": "zero"}),
        ("scopa", {"primiera_missing_suit": "zero", "target": 31}),
        ("escoba", {"opening_sweeps": "partition"}),
        ("escoba", {"primiera_missing_suit": "zero", "target": 15}),
        ("chkobba", {"chkobba_face_values": "italian"}),
        ("chkobba", {"cut_card": False}),
        ("chkobba", {"redeal": "three_kings"}),
        ("chkobba", {"redeal": "off", "target": 11, "last_play_sweep": "counts"}),
    ],
)
def test_keyword_overrides(game: str, options: dict[str, Any]) -> None:
    for n in (2, 4):
        r = getattr(Rules, game)(players=n, **options)
        want = {**PRESET_DICTS[game], "players": n, **options}
        assert r.to_dict() == want
        assert r.target == want["target"]
        assert r == Rules(game, players=n, **options)
        assert r != getattr(Rules, game)(players=n)
        back = Rules.from_dict(r.to_dict())
        assert back == r
        assert hash(back) == hash(r)
        assert back.to_dict() == want
        assert pickle.loads(pickle.dumps(r)) == r
        json.dumps(r.to_dict())  # JSON-ready


def test_initial_30_requires_partition_is_an_input_alias() -> None:
    """The vectors' option name still works and means ``opening_sweeps = partition``."""
    assert Rules.escoba(initial_30_requires_partition=True) == Rules.escoba(
        opening_sweeps="partition"
    )
    assert Rules.escoba(initial_30_requires_partition=False) == Rules.escoba()
    assert "initial_30_requires_partition" not in Rules.escoba().to_dict()
    # With `opening_sweeps` too, the call's keyword order would decide: refused either way.
    for options in (
        {"opening_sweeps": "off", "initial_30_requires_partition": True},
        {"initial_30_requires_partition": False, "opening_sweeps": "partition"},
    ):
        with pytest.raises(cf.VariantError, match="give `opening_sweeps` alone"):
            Rules.escoba(**options)
        with pytest.raises(ValueError, match="opening_sweeps alone"):
            RefRules("escoba", 2, **options)


def test_from_dict_defaults_and_partial_dicts() -> None:
    assert Rules.from_dict({"game": "escoba"}) == Rules.escoba()
    assert Rules.from_dict({"game": "chkobba", "players": 4, "cut_card": False}) == Rules.chkobba(
        players=4, cut_card=False
    )


def test_rules_equality_and_hash() -> None:
    rules = [Rules(g, players=n) for g in GAMES for n in (2, 4)]
    assert len(set(rules)) == 6
    for a in rules:
        for b in rules:
            assert (a == b) == (a.to_dict() == b.to_dict())
    assert Rules.scopa(target=11) == Rules.scopa()
    assert hash(Rules.scopa(target=11)) == hash(Rules.scopa())
    assert Rules.scopa() != "scopa"
    assert {Rules.scopa(): 1}[Rules("scopa")] == 1


def test_rules_pickle_and_copy() -> None:
    for game in GAMES:
        for n in (2, 4):
            r = Rules(game, players=n)
            assert pickle.loads(pickle.dumps(r)) == r
            assert copy.deepcopy(r) == r


@pytest.mark.parametrize("game", GAMES)
def test_categories(game: str) -> None:
    assert Rules(game).categories == CATEGORIES[game]
    assert Rules(game, players=4).categories == CATEGORIES[game]


@pytest.mark.parametrize(
    ("rules", "values"),
    [
        (Rules.scopa(), ITALIAN_VALUES),
        (Rules.escoba(), ITALIAN_VALUES),
        (Rules.chkobba(), TUNISIAN_VALUES),
        (Rules.chkobba(chkobba_face_values="italian"), ITALIAN_VALUES),
    ],
)
def test_capture_values(rules: Rules, values: dict[str, int]) -> None:
    for name in ALL:
        assert rules.value(name) == values[name[0]], name
        assert rules.value(Card(name)) == values[name[0]]
        assert rules.value(Card(name).id) == values[name[0]]


def test_face_values_named_in_the_issue() -> None:
    chk, sco = Rules.chkobba(), Rules.scopa()
    assert (chk.value("QH"), chk.value("JH"), chk.value("KH")) == (8, 9, 10)
    assert (sco.value("JH"), sco.value("QH"), sco.value("KH")) == (8, 9, 10)


def fs(*groups: str) -> set[frozenset[Card]]:
    """Capture options written as 'A+B' strings."""
    return {frozenset(Card(c) for c in g.split("+")) for g in groups}


@pytest.mark.parametrize(
    ("rules", "table", "played", "expected"),
    [
        # S7: an equal card must be taken in preference to a sum.
        (Rules.scopa(), ["5C", "3D", "2H"], "5S", fs("5C")),
        (Rules.scopa(), ["5C", "5D", "3H", "2S"], "5S", fs("5C", "5D")),
        (Rules.scopa(), ["AC", "2H", "3C", "4S"], "5D", fs("AC+4S", "2H+3C")),
        (Rules.scopa(), ["JC", "AD"], "KS", set()),  # 8 + 1 = 9, K is 10: trails
        (Rules.scopa(), ["2D", "6S"], "JH", fs("2D+6S")),  # Scopa J = 8
        (Rules.scopa(), ["2D", "6S"], "QH", set()),  # Scopa Q = 9
        (Rules.scopa(), [], "7D", set()),
        (Rules.scopa(), ["KC", "KD"], "KS", fs("KC", "KD")),
        # K9 / K-CAP-01/02: Chkobba Q = 8 takes 2 + 6, J = 9 cannot.
        (Rules.chkobba(), ["2D", "6S"], "QH", fs("2D+6S")),
        (Rules.chkobba(), ["2D", "6S"], "JH", set()),
        (Rules.chkobba(), ["JC", "AD"], "KS", fs("AD+JC")),  # 9 + 1 = 10
        (Rules.chkobba(chkobba_face_values="italian"), ["2D", "6S"], "QH", set()),
        (Rules.chkobba(chkobba_face_values="italian"), ["2D", "6S"], "JH", fs("2D+6S")),
        (Rules.chkobba(), ["QC", "4D", "4H"], "QS", fs("QC")),
        # E7: played card plus table cards totalling 15; no equal-card capture.
        (Rules.escoba(), ["AD", "4C", "7D"], "3H", fs("AD+4C+7D")),
        (Rules.escoba(), ["AD", "4C", "7D", "QS"], "3H", fs("AD+4C+7D")),
        (Rules.escoba(), ["5C", "5D"], "5S", fs("5C+5D")),
        (Rules.escoba(), ["5C"], "5S", set()),
        (Rules.escoba(), [], "KS", set()),
        (Rules.escoba(), ["KC", "5D", "4H", "AS"], "KS", fs("5D", "4H+AS")),
    ],
)
def test_capture_options(
    rules: Rules, table: list[str], played: str, expected: set[frozenset[Card]]
) -> None:
    got = rules.capture_options(table, played)
    assert isinstance(got, list)
    assert all(isinstance(o, frozenset) for o in got)
    assert all(isinstance(c, Card) for o in got for c in o)
    assert len(got) == len(set(got))
    assert set(got) == expected
    # Cards, ids and strings are accepted alike.
    assert set(rules.capture_options([Card(c) for c in table], Card(played))) == expected
    assert set(rules.capture_options([Card(c).id for c in table], Card(played).id)) == expected
    assert set(rules.capture_options(tuple(table), played)) == expected


def test_capture_options_empty_list_means_trail() -> None:
    assert Rules.scopa().capture_options(["KC", "QD"], "AH") == []


@pytest.mark.parametrize(
    ("rules", "table", "redeal", "dealer_sweeps"),
    [
        (Rules.scopa(), ["KC", "KD", "KH", "5S"], True, 0),
        (Rules.scopa(), ["KC", "KD", "KH", "KS"], True, 0),
        (Rules.scopa(), ["KC", "KD", "5H", "5S"], False, 0),
        (Rules.scopa(), ["5C", "5D", "5H", "2S"], False, 0),  # S5 is about kings only
        (Rules.chkobba(), ["5C", "5D", "5H", "2S"], True, 0),  # K6
        (Rules.chkobba(), ["KC", "KD", "KH", "2S"], True, 0),
        (Rules.chkobba(), ["KC", "KD", "3H", "3S"], False, 0),
        (Rules.chkobba(redeal="three_kings"), ["5C", "5D", "5H", "2S"], False, 0),
        (Rules.chkobba(redeal="off"), ["5C", "5D", "5H", "5S"], False, 0),
        (Rules.chkobba(redeal="three_kings"), ["KC", "KD", "KH", "5S"], True, 0),
        (Rules.escoba(), ["AC", "2D", "4H", "JS"], False, 1),  # 1 + 2 + 4 + 8 = 15
        (Rules.escoba(), ["KC", "KD", "QH", "AS"], False, 2),  # 30, unsplittable (E-A1)
        (Rules.escoba(), ["KC", "3D", "2H", "5S"], False, 0),  # 20
        (Rules.escoba(), ["5C", "5D", "5H", "5S"], False, 0),  # no redeal in Escoba
        (Rules.escoba(initial_30_requires_partition=True), ["KC", "KD", "QH", "AS"], False, 0),
        (Rules.escoba(initial_30_requires_partition=True), ["KC", "5D", "QH", "6S"], False, 2),
        (Rules.escoba(initial_30_requires_partition=True), ["AC", "2D", "4H", "JS"], False, 1),
        # A redeal takes the cards back (S5): no dealer sweep, though the table totals 15.
        (variants.rules("cirulla"), ["AC", "AD", "6H", "7S"], True, 0),
        (variants.rules("cirulla"), ["AC", "2D", "5H", "7S"], False, 1),
    ],
)
def test_opening(rules: Rules, table: list[str], redeal: bool, dealer_sweeps: int) -> None:
    o = rules.opening(table)
    assert isinstance(o, cf.Opening)
    assert o.redeal is redeal
    assert o.dealer_sweeps == dealer_sweeps
    assert isinstance(o.dealer_sweeps, int)
    o2 = rules.opening([Card(c) for c in table])
    assert (o2.redeal, o2.dealer_sweeps) == (redeal, dealer_sweeps)


@pytest.mark.parametrize(
    ("rules", "scores", "winner"),
    [
        (Rules.scopa(), [10, 3], None),
        (Rules.scopa(), [11, 3], 0),
        (Rules.scopa(), [3, 11], 1),
        (Rules.scopa(), [12, 13], 1),  # both over: the higher wins
        (Rules.scopa(), [14, 12], 0),
        (Rules.scopa(), [12, 12], None),  # equal: play on
        (Rules.scopa(), [0, 0], None),
        (Rules.scopa(target=16), [15, 11], None),
        (Rules.scopa(target=16), [16, 11], 0),
        (Rules.chkobba(), [20, 20], None),
        (Rules.chkobba(), [22, 15], 0),  # the seed example: 17 + 5 = 22 wins
        (Rules.chkobba(), [21, 21], None),
        (Rules.escoba(), [21, 20], 0),
        (Rules.escoba(), [25, 30], 1),
    ],
)
def test_match_winner(rules: Rules, scores: list[int], winner: int | None) -> None:
    assert rules.match_winner(scores) == winner
    assert rules.match_winner(tuple(scores)) == winner


# --------------------------------------------------------------------------- scoring

CHKOBBA_SEED_A = [
    "AD", "2D", "3D", "4D", "5D", "7D", "7C", "6C", "6H", "6S", "AC",
    "2C", "3C", "4C", "5C", "QC", "JC", "KC", "AH", "2H", "3H", "4H",
]  # fmt: skip


def test_score_chkobba_seed_example() -> None:
    # K14 worked example: 22 cards, 6 diamonds, 7D, sevens 2-2, sixes 3-1, one chkobba = 5.
    rules = Rules.chkobba()
    rep = rules.score(report_piles(CHKOBBA_SEED_A), [1, 0])
    assert isinstance(rep, HandReport)
    assert rep.game == "chkobba"
    assert rep.points == [5, 0]
    assert rep.awards == {"karta": 0, "dinari": 0, "7ayya": 0, "bermila": 0}
    assert list(rep.awards) == CATEGORIES["chkobba"]
    # Best card per suit on the flat primiera chart; coin runs A-5 against none.
    assert rep.counts == [
        {"cards": 22, "coins": 6, "sevens": 2, "sixes": 3, "primiera": 21 + 21 + 18 + 18,
         "ranks": [3, 3, 3, 3, 2, 3, 2, 1, 1, 1], "primiera_cards": ["7C", "7D", "6H", "6S"],
         "coin_run": 5},
        {"cards": 18, "coins": 4, "sevens": 2, "sixes": 1, "primiera": None,  # no club
         "ranks": [1, 1, 1, 1, 2, 1, 2, 3, 3, 3], "primiera_cards": ["6D", "7H", "7S"],
         "coin_run": 0},
    ]  # fmt: skip
    assert list(rep.sweeps) == [1, 0]
    assert rep.scores is None
    assert rep.piles[0] == sorted(CHKOBBA_SEED_A, key=ALL.index)
    assert rep.piles[1] == rest_of(CHKOBBA_SEED_A)
    assert rules.match_winner([17 + 5, 15]) == 0


def test_score_escoba_seed_example() -> None:
    # E11 worked example: 22 cards, 6 coins, 7 of coins, best setenta, 2 escobas = 6.
    a = ["AD", "2D", "3D", "4D", "5D", "7D", "7C", "7H", "7S", "6C", "6H", "6S"]
    a += ["AC", "AH", "AS", "5C", "5H", "5S", "4C", "4H", "4S", "3C"]
    rep = Rules.escoba().score(report_piles(a), [2, 0])
    assert rep.points == [6, 0]
    assert rep.awards == {"cards": 0, "coins": 0, "velo": 0, "setenta": 0}
    # A: four sevens = 84. B: clubs 2C 12, diamonds 6D 18, hearts 3H 13, spades 3S 13 = 56.
    assert rep.counts == [
        {"cards": 22, "coins": 6, "sevens": 4, "sixes": 3, "primiera": 84,
         "ranks": [4, 1, 2, 4, 4, 3, 4, 0, 0, 0], "primiera_cards": ["7C", "7D", "7H", "7S"],
         "coin_run": 5},
        {"cards": 18, "coins": 4, "sevens": 0, "sixes": 1, "primiera": 56,
         "ranks": [0, 3, 2, 0, 0, 1, 0, 4, 4, 4], "primiera_cards": ["2C", "6D", "3H", "3S"],
         "coin_run": 0},
    ]  # fmt: skip


def test_score_scopa_primiera_example() -> None:
    # S11: 7H 7D 6C 5S = 75; the rest holds 7C 6D 6H 7S = 78.
    rep = Rules.scopa().score(report_piles(["7H", "7D", "6C", "5S"]), [2, 1])
    assert rep.awards == {"cards": 1, "coins": 1, "settebello": 0, "primiera": 1}
    assert rep.counts == [
        {"cards": 4, "coins": 1, "sevens": 2, "sixes": 1, "primiera": 75,
         "ranks": [0, 0, 0, 0, 1, 1, 2, 0, 0, 0], "primiera_cards": ["6C", "7D", "7H", "5S"],
         "coin_run": 0},
        {"cards": 36, "coins": 9, "sevens": 2, "sixes": 3, "primiera": 78,
         "ranks": [4, 4, 4, 4, 3, 3, 2, 4, 4, 4], "primiera_cards": ["7C", "6D", "6H", "7S"],
         "coin_run": 6},
    ]  # fmt: skip
    assert rep.points == [1 + 2, 3 + 1]
    assert list(rep.sweeps) == [2, 1]


def test_score_reports_bonuses() -> None:
    # A: A-2-3-4 of coins, J-Q-K of coins (re bello, grande), 6D missing: napola run 4.
    a = ["AD", "2D", "3D", "4D", "JD", "QD", "KD"]
    rules = Rules("scopa", re_bello=True, napola=True, grande=5)
    rep = rules.score(report_piles(a), [0, 0])
    assert rep.bonuses == {"re_bello": [1, 0], "napola": [4, 0], "grande": [5, 0]}
    assert rep.counts[0]["coin_run"] == 4
    # Categories: B has the cards (33), A the coins (7), B the settebello and the primiera (A
    # lacks clubs): A = 1 + 1 + 4 + 5 = 11, B = 3.
    assert rep.points == [11, 3]
    # Only the bonuses the rules score are reported.
    assert Rules.scopa().score(report_piles(a)).bonuses == {}


def test_score_takes_declarations() -> None:
    rules = Rules("scopa", declarations=True)
    rep = rules.score(report_piles(["7H", "7D", "6C", "5S"]), [2, 1], declarations=[3, 10])
    assert rep.bonuses == {"declarations": [3, 10]}
    # S11 example: A 2 sweeps + settebello, B 1 sweep + cards, coins, primiera.
    assert rep.points == [3 + 3, 4 + 10]
    with pytest.raises(cf.PositionError):
        Rules.scopa().score(report_piles(["7H"]), declarations=[3, 0])
    with pytest.raises(cf.PositionError):
        rules.score(report_piles(["7H"]), declarations=[3])
    with pytest.raises(cf.PositionError):
        rules.score(report_piles(["7H"]), declarations=[-1, 0])


MISSING_SPADES = ["7C", "7D", "7H", "6C", "6D", "6H", "AC", "AD", "AH", "5C", "5D", "5H"]
MISSING_SPADES += ["4C", "4D", "4H"]


@pytest.mark.parametrize("game", ["scopa", "escoba"])
def test_score_missing_suit(game: str) -> None:
    # A lacks spades. B: clubs 3C 13, diamonds 3D 13, hearts 3H 13, spades 7S 21 = 60.
    # Coins 5-5 (tie), cards 15-25 (B), seven of coins A.
    prime, seven = CATEGORIES[game][3], CATEGORIES[game][2]
    rep = Rules(game).score(report_piles(MISSING_SPADES))
    assert rep.counts[0]["primiera"] is None
    assert rep.counts[1]["primiera"] == 60
    assert rep.awards == {"cards": 1, "coins": None, seven: 0, prime: 1}
    assert rep.points == [1, 2]
    assert list(rep.sweeps) == [0, 0]
    # V-S4 "zero": the missing suit counts 0, so A has 63 > 60.
    rep = Rules(game, primiera_missing_suit="zero").score(report_piles(MISSING_SPADES))
    assert rep.counts[0]["primiera"] == 63
    assert rep.awards == {"cards": 1, "coins": None, seven: 0, prime: 0}
    assert rep.points == [2, 1]


def test_score_ties_score_nothing() -> None:
    # Clubs and diamonds against hearts and spades: cards 20-20, both primieras invalid.
    a = [r + s for r in RANKS for s in "CD"]
    rep = Rules.scopa().score(report_piles(a))
    assert rep.awards == {"cards": None, "coins": 0, "settebello": 0, "primiera": None}
    assert rep.points == [2, 0]
    assert rep.counts[0]["primiera"] is None
    assert rep.counts[1]["primiera"] is None


@pytest.mark.parametrize(
    ("a", "bermila", "points"),
    [
        (["7C", "7D", "6C", "6D"], None, [1, 2]),  # sevens 2-2, sixes 2-2: nobody
        (["7C", "7D", "6C", "6D", "6H"], 0, [2, 2]),  # sevens 2-2, sixes 3-1
        (["7C", "7D", "7H"], 0, [2, 2]),  # sevens 3-1
        (["7D"], 1, [1, 3]),  # sevens 1-3
    ],
)
def test_score_bermila(a: list[str], bermila: int | None, points: list[int]) -> None:
    rep = Rules.chkobba().score(report_piles(a))
    assert rep.awards["bermila"] == bermila
    assert rep.awards["7ayya"] == 0
    assert rep.awards["karta"] == 1
    assert rep.points == points


def test_score_accepts_cards_and_default_sweeps() -> None:
    a = [Card(c) for c in CHKOBBA_SEED_A]
    b = [Card(c).id for c in rest_of(CHKOBBA_SEED_A)]
    rep = Rules.chkobba().score([a, b])
    assert rep.points == [4, 0]
    assert list(rep.sweeps) == [0, 0]


def test_hand_report_str_is_a_readable_table() -> None:
    for game in GAMES:
        rules = Rules(game)
        rep = rules.score(report_piles(CHKOBBA_SEED_A), [1, 0])
        text = str(rep)
        for name in CATEGORIES[game]:
            assert name in text
        assert game in text
        assert "points" in text
        assert {"scopa": "scope", "escoba": "escobas", "chkobba": "chkobbas"}[game] in text
        assert "22 v 18" in text  # cards evidence
        assert f"{rep.points[0]} v {rep.points[1]}" in text
        assert len(text.splitlines()) >= 6


def test_hand_report_to_dict_from_dict_round_trip() -> None:
    rep = Rules.chkobba().score(report_piles(CHKOBBA_SEED_A), [1, 0])
    d = rep.to_dict()
    json.dumps(d)
    assert d["points"] == [5, 0]
    assert d["sweeps"] == [1, 0]
    assert HandReport.from_dict(d).to_dict() == d
    assert HandReport.from_dict(d) == rep


def test_hand_report_sweeps_is_a_list_of_int() -> None:
    rep = Rules.scopa().score(report_piles(["7H", "7D", "6C", "5S"]), [2, 1])
    assert isinstance(rep.sweeps, list)
    assert rep.sweeps == [2, 1]


# --------------------------------------------------------------------------- deal oracle


class SplitMix64:
    """docs/conventions.md's generator, written for these tests."""

    def __init__(self, seed: int) -> None:
        self.x = seed % M64

    def next_u64(self) -> int:
        self.x = (self.x + 0x9E3779B97F4A7C15) % M64
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return (self.next_u64() * n) >> 64

    def deck(self) -> list[str]:
        d = list(ALL)
        for i in range(39, 0, -1):
            j = self.below(i + 1)
            d[i], d[j] = d[j], d[i]
        return d


def oracle_deal(rules: Rules, seed: int, cut: str | None) -> dict[str, Any]:
    """The first deal of State.new(rules, seed), per the conventions page.

    ``cut`` is the Chkobba cutter's choice ("keep" / "table"), applied to every cut.
    """
    rng = SplitMix64(seed)
    return oracle_hand(rules, rng, rng.below(rules.players), cut)


def oracle_hand(rules: Rules, rng: SplitMix64, dealer: int, cut: str | None) -> dict[str, Any]:
    """A hand dealt by ``dealer`` from the generator ``rng``, redeals included."""
    n = rules.players
    leader = (dealer + 1) % n
    game = rules.game
    while True:
        deck = rng.deck()
        hands: list[list[str]] = [[] for _ in range(n)]
        table: list[str] = []
        if cut is not None:
            c = deck.pop(0)
            if cut == "keep":
                hands[leader].append(c)
            else:
                table.append(c)
        seat = leader
        while any(len(h) < 3 for h in hands):
            if len(hands[seat]) < 3:
                hands[seat].append(deck.pop(0))
            seat = (seat + 1) % n
        while len(table) < 4:
            table.append(deck.pop(0))
        ranks = [c[0] for c in table]
        if game == "scopa" and ranks.count("K") >= 3:
            continue
        if game == "chkobba" and max(ranks.count(r) for r in RANKS) >= 3:
            continue
        piles: list[list[str]] = [[], []]
        sweeps = [0, 0]
        last = None
        if game == "escoba":
            total = sum(ITALIAN_VALUES[r] for r in ranks)
            if total in (15, 30):
                piles[dealer % 2] = table
                sweeps[dealer % 2] = total // 15
                table = []
                last = dealer
        return {
            "dealer": dealer,
            "to_move": leader,
            "hands": [sorted(h, key=ALL.index) for h in hands],
            "table": sorted(table, key=ALL.index),
            "stock": deck,
            "piles": [sorted(p, key=ALL.index) for p in piles],
            "sweeps": sweeps,
            "last_capturer": last,
        }


def observed(s: State) -> dict[str, Any]:
    return {
        "dealer": s.dealer,
        "to_move": s.to_move,
        "hands": [strs(h) for h in s.hands],
        "table": strs(s.table),
        "stock": strs(s.stock),
        "piles": [strs(p) for p in s.piles],
        "sweeps": list(s.sweeps),
        "last_capturer": s.last_capturer,
    }


@pytest.mark.parametrize("game", ["scopa", "escoba"])
@pytest.mark.parametrize("n", [2, 4])
def test_new_deals_by_the_conventions(game: str, n: int) -> None:
    rules = Rules(game, players=n)
    for seed in [*range(40), 2**63, M64 - 1]:
        assert observed(State.new(rules, seed=seed)) == oracle_deal(rules, seed, None), seed


@pytest.mark.parametrize("n", [2, 4])
def test_new_chkobba_deals_by_the_conventions(n: int) -> None:
    rules = Rules.chkobba(players=n)
    for seed in range(40):
        s = State.new(rules, seed=seed)
        for choice in ("keep", "table"):
            t = s
            while t.phase == "cut":  # a redeal asks again (K-A2)
                t = t.play(f"{choice} {t.cut_card}")
            assert observed(t) == oracle_deal(rules, seed, choice), (seed, choice)
    rules = Rules.chkobba(players=n, cut_card=False)
    for seed in range(20):
        assert observed(State.new(rules, seed=seed)) == oracle_deal(rules, seed, None)


@pytest.mark.parametrize("game", GAMES)
def test_from_position_seed_drives_later_deals(game: str) -> None:
    # conventions: from_position(..., seed=s) sets rng = SplitMix64(s) for later deals; the next
    # hand is dealt by (dealer + 1) % n.
    rules = Rules(game, cut_card=False) if game == "chkobba" else Rules(game)
    for seed in (0, 5, 2**64 - 1):
        # Escoba piles total multiples of 15, so the cards in play total 10 (mod 15) there.
        hand, table, move = (
            ("3H", ["AD", "4C", "7D", "KS"], "3H x AD+4C+7D")
            if game == "escoba"
            else ("7S", ["3C", "4D"], "7S x 3C+4D")
        )
        s = position(rules, [[], [hand]], table, to_move=1, dealer=1, seed=seed)
        t = s.play(move)
        assert t.hand_over
        nxt = t.next_hand()
        assert observed(nxt) == oracle_hand(rules, SplitMix64(seed), 0, None)


# --------------------------------------------------------------------------- State.new


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", [2, 4])
def test_new_is_deterministic(game: str, n: int) -> None:
    rules = Rules(game, players=n)
    a, b = State.new(rules, seed=7), State.new(rules, seed=7)
    assert a == b
    assert a.to_bytes() == b.to_bytes()
    assert hash(a) == hash(b)
    # The whole match is determined by the seed and the moves.
    wa = list(random_walk(a, random.Random(3)))
    wb = list(random_walk(b, random.Random(3)))
    assert [s.to_bytes() for s in wa] == [s.to_bytes() for s in wb]
    assert len({State.new(rules, seed=s).to_bytes() for s in range(12)}) == 12
    assert State.new(rules) == State.new(rules, seed=0)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", [2, 4])
def test_fresh_state_attributes(game: str, n: int) -> None:
    rules = Rules(game, players=n)
    for seed in range(10):
        s = State.new(rules, seed=seed)
        assert s.rules == rules
        assert s.num_players == n
        assert isinstance(s.dealer, int)
        assert 0 <= s.dealer < n
        assert s.to_move == (s.dealer + 1) % n
        assert s.scores == [0, 0]
        assert list(s.sweeps) in ([0, 0], [1, 0], [0, 1], [2, 0], [0, 2])
        assert s.match_over is False
        assert s.hand_over is False
        assert s.winner is None
        assert s.hand_number == 0
        assert isinstance(s.hands, list)
        assert len(s.hands) == n
        assert all(isinstance(h, list) for h in s.hands)
        assert all(isinstance(c, Card) for h in s.hands for c in h)
        assert all(isinstance(c, Card) for c in s.table)
        assert all(isinstance(c, Card) for c in s.stock)
        assert s.stock_size == len(s.stock)
        assert isinstance(s.piles, list)
        assert len(s.piles) == 2
        if game == "chkobba":
            assert s.phase == "cut"
            assert isinstance(s.cut_card, Card)
            assert s.hands == [[] for _ in range(n)]
            assert s.table == []
            assert s.stock_size == 39
            assert s.piles == [[], []]
            assert s.last_capturer is None
            zones = [s.cut_card, *s.stock]
        else:
            assert s.phase == "play"
            assert s.cut_card is None
            assert [len(h) for h in s.hands] == [3] * n
            assert s.stock_size == 40 - 3 * n - 4
            if s.last_capturer is None:
                assert len(s.table) == 4
                assert s.piles == [[], []]
                assert list(s.sweeps) == [0, 0]
            else:  # Escoba dealer's escoba (E5)
                assert game == "escoba"
                assert s.last_capturer == s.dealer
                assert s.table == []
            zones = [c for h in s.hands for c in h] + s.table + s.stock + s.piles[0] + s.piles[1]
        assert sorted(zones) == [Card(i) for i in range(40)]
        for h in [*s.hands, s.table, *s.piles]:
            assert h == sorted(h)


def test_escoba_dealer_escoba_from_new() -> None:
    # Find deals where the opening table totalled 15 or 30 (E5) and check them by hand.
    rules = Rules.escoba()
    found = 0
    for seed in range(400):
        s = State.new(rules, seed=seed)
        if s.last_capturer is None:
            assert sum(ITALIAN_VALUES[str(c)[0]] for c in s.table) not in (15, 30)
            continue
        found += 1
        side = s.dealer % 2
        taken = s.piles[side]
        assert len(taken) == 4
        total = sum(ITALIAN_VALUES[str(c)[0]] for c in taken)
        assert total in (15, 30)
        assert list(s.sweeps)[side] == total // 15
        assert list(s.sweeps)[1 - side] == 0
        assert s.piles[1 - side] == []
        assert s.table == []
        assert s.last_capturer == s.dealer
        # E-A3: the first player must trail onto the empty table.
        assert all(m.is_trail for m in s.legal_moves())
    assert found >= 5


# --------------------------------------------------------------------------- playing


def test_legal_moves_are_sorted_by_to_int_and_unique() -> None:
    for s in SAMPLES:
        ms = s.legal_moves()
        assert isinstance(ms, list)
        assert all(isinstance(m, Move) for m in ms)
        ints = [m.to_int() for m in ms]
        assert ints == sorted(ints)
        assert len(set(ints)) == len(ints)
        if s.hand_over:
            assert ms == []
        else:
            assert ms


def test_legal_moves_obey_the_capture_rules() -> None:
    # Every legal play uses a card of the mover's hand, and its captured set is one of
    # rules.capture_options (or a trail when there is none); every hand card is playable.
    for s in SAMPLES:
        if s.phase != "play":
            continue
        hand = s.hands[s.to_move]  # type: ignore[index]
        ms = s.legal_moves()
        assert {m.card for m in ms} == set(hand)
        for card in hand:
            opts = s.rules.capture_options(s.table, card)
            got = {m.captures for m in ms if m.card == card}
            assert got == (set(opts) if opts else {frozenset()})
        final = s.stock_size == 0 and sum(len(h) for h in s.hands) == 1
        void = s.rules.options["last_play_sweep"] == "void"
        for m in ms:
            clears = bool(m.captures) and m.captures == frozenset(s.table)
            assert m.sweep == (clears and not (final and void))


def test_play_returns_a_new_state_and_leaves_the_receiver_unchanged() -> None:
    for s in SAMPLES[::3]:
        if s.hand_over:
            continue
        before = s.to_bytes()
        snapshot = (s.hands, s.table, s.stock, s.piles, list(s.sweeps), s.scores, s.to_move)
        for m in s.legal_moves():
            t = s.play(m)
            assert isinstance(t, State)
            assert t is not s
            assert t != s
        assert s.to_bytes() == before
        assert (s.hands, s.table, s.stock, s.piles, list(s.sweeps), s.scores, s.to_move) == (
            snapshot
        )


def test_play_accepts_moves_strings_and_unpacked_ints() -> None:
    s = chkobba_example()
    a = s.play(Move("QH x 2D+6S"))
    assert s.play("QH x 2D+6S") == a
    assert s.play("QH x 6S 2D") == a
    assert s.play(Move.from_int(Move("QH x 2D+6S").to_int())) == a
    assert s.play(Move.play("QH", ["2D", "6S"])) == a
    assert s.play(next(m for m in s.legal_moves() if m.sweep)) == a


def test_chkobba_worked_example_from_position() -> None:
    s = chkobba_example()
    assert s.phase == "play"
    assert s.to_move == 0
    assert s.dealer == 1
    ms = s.legal_moves()
    # AC (1) and JH (9) cannot capture from 2 + 6; QH (8) must take both.
    assert ms == [Move("AC"), Move("JH"), Move("QH x 2D+6S")]
    assert [m.sweep for m in ms] == [False, False, True]
    t = s.play("QH x 2D+6S")
    assert list(t.sweeps) == [1, 0]
    assert t.table == []
    assert t.last_capturer == 0
    assert t.to_move == 1
    assert t.hands == [cards("AC", "JH"), cards("2C", "3C", "4C")]
    assert set(cards("QH", "2D", "6S")) <= set(t.piles[0])
    assert len(t.piles[0]) == len(s.piles[0]) + 3
    assert t.piles[1] == s.piles[1]
    # JH (9) could not make that capture.
    with pytest.raises(cf.IllegalMoveError):
        s.play("JH x 2D+6S")


def escoba_position(extra_table: list[str], other: str) -> State:
    """3H to play onto AD 4C 7D (+ extra); the opponent holds ``other``; the hand ends after."""
    return position(Rules.escoba(), [["3H"], [other]], ["AD", "4C", "7D", *extra_table], dealer=1)


def test_escoba_worked_example_from_position() -> None:
    # E-CAP-01: 3 + 1 + 4 + 7 = 15 takes all four: one escoba. (KS keeps the final table at 10.)
    s = escoba_position([], "KS")
    assert s.legal_moves() == [Move("3H x AD+4C+7D")]
    assert s.legal_moves()[0].sweep is True
    t = s.play("3H x AD+4C+7D")
    assert list(t.sweeps) == [1, 0]
    assert t.table == []
    # E-CAP-02: with QS also on the table it stays, and there is no escoba.
    s = escoba_position(["QS"], "AC")
    assert s.legal_moves() == [Move("3H x AD+4C+7D")]
    assert s.legal_moves()[0].sweep is False
    t = s.play("3H x AD+4C+7D")
    assert list(t.sweeps) == [0, 0]
    assert t.table == [Card("QS")]


def final_sweep_position(rules: Rules) -> State:
    """The very last card of the hand (seat 1, the dealer) clears the table (S-SEQ-01)."""
    return position(rules, [[], ["7S"]], ["3C", "4D"], to_move=1, dealer=1, last_capturer=0)


@pytest.mark.parametrize("game", ["scopa", "chkobba"])
def test_final_play_sweep_is_void_by_default(game: str) -> None:
    s = final_sweep_position(Rules(game))
    (m,) = s.legal_moves()
    assert m == Move("7S x 3C+4D")
    assert m.sweep is False
    t = s.play(m)
    assert t.hand_over
    assert list(t.sweeps) == [0, 0]
    assert t.last_capturer == 1
    assert set(cards("7S", "3C", "4D")) <= set(t.piles[1])


@pytest.mark.parametrize("game", ["scopa", "chkobba"])
def test_final_play_sweep_counts_with_the_option(game: str) -> None:
    s = final_sweep_position(Rules(game, last_play_sweep="counts"))
    (m,) = s.legal_moves()
    assert m.sweep is True
    t = s.play(m)
    assert list(t.sweeps) == [0, 1]
    assert t.hand_report().sweeps[1] == 1


def test_earlier_sweep_in_the_last_round_counts() -> None:
    # K-SEQ-02: seat 0 sweeps with its last card, seat 1 (dealer) still has the final play.
    s = position(Rules.chkobba(), [["7S"], ["KD"]], ["3C", "4D"], to_move=0, dealer=1)
    (m,) = [m for m in s.legal_moves() if m.card == Card("7S")]
    assert m.sweep is True
    t = s.play(m)
    assert list(t.sweeps) == [1, 0]
    u = t.play("KD")
    assert u.hand_over
    assert list(u.sweeps) == [1, 0]


def test_equal_card_beats_sum_and_capture_is_compulsory() -> None:
    s = position(Rules.scopa(), [["5S", "4H"], ["AC", "2C"]], ["5C", "3D", "2H"])
    assert s.legal_moves() == [Move("4H"), Move("5S x 5C")]
    for bad in ("5S x 2H+3D", "5S"):  # a sum when an equal card exists; trailing a capturer
        with pytest.raises(cf.IllegalMoveError):
            s.play(bad)
    # K-A3 / S-A7: the player may play a card that captures nothing.
    assert s.play("4H").table == cards("2H", "3D", "4H", "5C")


def test_leftovers_go_to_the_last_capturer_and_are_no_sweep() -> None:
    # G7: the final card trails; the table goes to side 0 (last capturer), not a sweep.
    s = position(Rules.scopa(), [[], ["2C"]], ["KC"], to_move=1, dealer=1, last_capturer=0)
    assert s.legal_moves() == [Move("2C")]
    t = s.play("2C")
    assert t.hand_over
    assert t.table == []
    assert set(cards("KC", "2C")) <= set(t.piles[0])
    assert len(t.piles[0]) + len(t.piles[1]) == 40
    assert list(t.sweeps) == [0, 0]
    assert t.to_move is None


def test_later_round_is_dealt_from_the_stock_front() -> None:
    # G3 / conventions: 3 each from the stock, one at a time from seat (d+1) % n; no table.
    stock = ["AS", "2S", "3S", "4S", "5S", "6S"]
    s = position(Rules.scopa(), [["JC"], ["QD"]], ["KC"], stock=stock, dealer=1)
    assert s.stock_size == 6
    assert strs(s.stock) == stock
    t = s.play("JC").play("QD")  # 8 and 9 trail next to the 10
    assert t.to_move == 0
    assert t.hands == [cards("AS", "3S", "5S"), cards("2S", "4S", "6S")]
    assert t.table == cards("JC", "QD", "KC")
    assert t.stock_size == 0


def test_four_player_partnerships_pool_piles() -> None:
    # Seat 2 captures for side 0, seat 3 for side 1.
    hands = [["2C"], ["AD"], ["5C"], ["5D"]]
    s = position(Rules.scopa(players=4), hands, ["5H", "5S", "KC"], to_move=0, dealer=3)
    t = s.play("2C").play("AD")  # both trail
    pile0, pile1 = len(t.piles[0]), len(t.piles[1])
    (m,) = [m for m in t.legal_moves() if m.captures == frozenset({Card("5H")})]
    u = t.play(m)
    assert u.to_move == 3
    assert len(u.piles[0]) == pile0 + 2
    assert u.last_capturer == 2
    v = u.play("5D x 5S")
    assert v.hand_over
    # 5D and 5S, then the leftovers 2C AD KC go to side 1, the last capturer's (G7).
    assert len(v.piles[1]) == pile1 + 5
    assert len(v.piles[0]) == pile0 + 2
    assert v.last_capturer == 3


def play_hand(state: State, rng: random.Random) -> tuple[State, list[int]]:
    """Plays the current hand to its end; returns the final state and the seats that played."""
    movers: list[int] = []
    while not state.hand_over:
        assert state.to_move is not None
        if state.phase == "play":
            movers.append(state.to_move)
        state = state.play(rng.choice(state.legal_moves()))
    return state, movers


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", [2, 4])
def test_full_hand(game: str, n: int) -> None:
    rules = Rules(game, players=n)
    rng = random.Random(99)
    for seed in range(8):
        s = State.new(rules, seed=seed)
        dealer = s.dealer
        end, movers = play_hand(s, rng)
        # I6: 36 plays in all, each seat 36 / n, every round led by seat (d + 1) % n.
        assert len(movers) == 36
        assert [movers.count(i) for i in range(n)] == [36 // n] * n
        leader = (dealer + 1) % n
        assert movers == [(leader + i) % n for i in range(36)]
        assert end.hand_over
        assert end.phase in ("hand_over", "match_over")
        assert end.to_move is None
        assert end.legal_moves() == []
        assert end.hands == [[] for _ in range(n)]
        assert end.table == []
        assert end.stock_size == 0
        assert end.stock == []
        assert sorted(end.piles[0] + end.piles[1]) == [Card(i) for i in range(40)]
        assert end.dealer == dealer
        rep = end.hand_report()
        assert isinstance(rep, HandReport)
        assert rep.game == game
        assert list(rep.awards) == CATEGORIES[game]
        assert rep.scores == end.scores
        assert rep.points == end.scores  # first hand: the match score is the hand's points
        assert list(rep.sweeps) == list(end.sweeps)
        assert rep.piles == [strs(p) for p in end.piles]
        assert rep.counts[0]["cards"] + rep.counts[1]["cards"] == 40
        assert rep.counts[0]["coins"] + rep.counts[1]["coins"] == 10
        won = sum(1 for a in rep.awards.values() if a is not None)
        assert sum(rep.points) == won + sum(rep.sweeps)
        # The report is the same as scoring the piles directly.
        again = rules.score(end.piles, list(end.sweeps))
        assert (again.points, again.awards, again.counts) == (rep.points, rep.awards, rep.counts)
        assert end.winner == rules.match_winner(end.scores)
        assert end.match_over == (end.winner is not None)


def test_hand_report_of_a_played_hand_by_hand() -> None:
    # Side 0 holds 7H 7D 6C 5S; side 1 everything else after 7S x 3C+4D (final, no scopa).
    a = ["7H", "7D", "6C", "5S"]
    s = position(
        Rules.scopa(), [[], ["7S"]], ["3C", "4D"], to_move=1, dealer=1, last_capturer=0, pile0=a
    )
    t = s.play("7S x 3C+4D")
    rep = t.hand_report()
    assert rep.points == [1, 3]  # settebello v cards, coins, primiera (75 v 78)
    assert rep.scores == [1, 3]
    assert t.scores == [1, 3]
    assert t.phase == "hand_over"
    assert t.winner is None
    n = t.next_hand()
    assert n.dealer == 0
    assert n.scores == [1, 3]
    assert n.hand_number == 1
    assert list(n.sweeps) == [0, 0]
    assert n.piles == [[], []]
    assert n.phase == "play"
    assert n.to_move == 1
    assert [len(h) for h in n.hands] == [3, 3]


@pytest.mark.parametrize(
    ("before", "after", "winner"),
    [
        ([9, 8], [10, 11], 1),  # B reaches 11
        ([10, 10], [11, 13], 1),  # both over: the higher wins
        ([10, 8], [11, 11], None),  # both 11: another hand
        ([3, 3], [4, 6], None),
    ],
)
def test_match_end_after_a_played_hand(
    before: list[int], after: list[int], winner: int | None
) -> None:
    a = ["7H", "7D", "6C", "5S"]
    s = position(
        Rules.scopa(),
        [[], ["7S"]],
        ["3C", "4D"],
        to_move=1,
        dealer=1,
        last_capturer=0,
        pile0=a,
        scores=before,
    )
    t = s.play("7S x 3C+4D")
    assert t.scores == after
    assert t.winner == winner
    assert t.match_over == (winner is not None)
    assert t.hand_over
    assert t.phase == ("match_over" if winner is not None else "hand_over")
    if winner is None:
        assert t.next_hand().scores == after
    else:
        with pytest.raises(cf.IllegalMoveError):
            t.next_hand()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", [2, 4])
def test_play_matches_to_the_end(game: str, n: int) -> None:
    rules = Rules(game, players=n)
    rng = random.Random(2024)
    for seed in range(3):
        s = State.new(rules, seed=seed)
        hands = 0
        while True:
            s, _ = play_hand(s, rng)
            hands += 1
            rep = s.hand_report()
            assert rep.scores == s.scores
            if s.match_over:
                break
            assert s.winner is None
            before = s.scores
            dealer = s.dealer
            s = s.next_hand()
            assert s.dealer == (dealer + 1) % n
            assert s.scores == before
            assert s.hand_number == hands
            assert s.piles == [[], []] or game == "escoba"
            assert hands < 200
        w = s.winner
        assert w in (0, 1)
        assert s.scores[w] >= rules.target
        assert s.scores[w] > s.scores[1 - w]
        assert rules.match_winner(s.scores) == w
        assert s.phase == "match_over"
        assert s.hand_over
        assert s.to_move is None
        assert s.legal_moves() == []


@pytest.mark.parametrize("n", [2, 4])
def test_chkobba_cut_decision(n: int) -> None:
    rules = Rules.chkobba(players=n)
    for seed in range(20):
        s = State.new(rules, seed=seed)
        cutter = (s.dealer + 1) % n
        c = s.cut_card
        assert isinstance(c, Card)
        assert s.phase == "cut"
        assert s.to_move == cutter
        ms = s.legal_moves()
        assert ms == [Move(f"keep {c}"), Move(f"table {c}")]
        assert [m.kind for m in ms] == ["keep_cut", "table_cut"]
        assert all(m.card == c and m.captures == frozenset() for m in ms)
        assert all(not m.is_trail and not m.sweep for m in ms)
        assert c not in s.stock
        k = s.play(ms[0])
        if k.phase == "play":  # no redeal
            assert k.cut_card is None
            assert c in k.hands[cutter]
            assert [len(h) for h in k.hands] == [3] * n
            assert len(k.table) == 4
            assert k.stock_size == 40 - 3 * n - 4
            assert k.to_move == cutter
            assert k.dealer == s.dealer
        t = s.play(ms[1])
        if t.phase == "play":
            assert c in t.table
            assert all(c not in h for h in t.hands)
            assert [len(h) for h in t.hands] == [3] * n
            assert len(t.table) == 4
            assert t.to_move == cutter


def test_chkobba_without_cut_card_deals_directly() -> None:
    s = State.new(Rules.chkobba(cut_card=False), seed=3)
    assert s.phase == "play"
    assert s.cut_card is None
    assert [len(h) for h in s.hands] == [3, 3]
    assert all(m.kind == "play" for m in s.legal_moves())


# --------------------------------------------------------------------------- views


def test_view_shows_exactly_what_the_seat_may_see() -> None:
    checked = 0
    for s in SAMPLES:
        n = s.num_players
        for seat in range(n):
            v = s.view(seat)
            assert isinstance(v, cf.View)
            assert v.seat == seat
            assert v.hand == s.hands[seat]
            assert v.table == s.table
            assert v.piles == s.piles
            assert list(v.sweeps) == list(s.sweeps)
            assert v.scores == s.scores
            assert list(v.hand_sizes) == [len(h) for h in s.hands]
            assert v.stock_size == s.stock_size
            assert v.dealer == s.dealer
            assert v.to_move == s.to_move
            assert v.last_capturer == s.last_capturer
            assert v.phase == s.phase
            hidden = [c for i, h in enumerate(s.hands) if i != seat for c in h] + s.stock
            if s.cut_card is not None and s.to_move != seat:
                hidden.append(s.cut_card)
            assert v.unseen == sorted(hidden)
            if s.cut_card is not None and s.to_move == seat:
                assert v.cut_card == s.cut_card
            else:
                assert v.cut_card is None
            # Nothing hidden is exposed.
            assert not hasattr(v, "hands")
            assert not hasattr(v, "stock")
            seen = set(v.hand) | set(v.table) | set(v.piles[0]) | set(v.piles[1])
            assert not seen & set(hidden)
            if s.to_move == seat:
                vm, sm = v.legal_moves(), s.legal_moves()
                assert vm == sm
                assert [m.sweep for m in vm] == [m.sweep for m in sm]
                checked += 1
            else:
                assert v.legal_moves() == []
            assert v == s.view(seat)
            assert hash(v) == hash(s.view(seat))
    assert checked > 100


def test_view_legal_moves_on_final_sweep() -> None:
    s = final_sweep_position(Rules.scopa())
    assert [m.sweep for m in s.view(1).legal_moves()] == [False]
    s = final_sweep_position(Rules.scopa(last_play_sweep="counts"))
    assert [m.sweep for m in s.view(1).legal_moves()] == [True]


def test_state_and_view_counts_are_lists_of_int() -> None:
    s = chkobba_example().play("QH x 2D+6S")
    assert isinstance(s.sweeps, list)
    assert s.sweeps == [1, 0]
    v = s.view(1)
    assert isinstance(v.sweeps, list)
    assert v.sweeps == [1, 0]
    assert isinstance(v.hand_sizes, list)
    assert v.hand_sizes == [2, 3]
    assert isinstance(s.scores, list)
    assert isinstance(v.scores, list)


# --------------------------------------------------------------------------- strings everywhere


def test_strings_ints_and_cards_are_accepted_everywhere() -> None:
    rules = Rules.chkobba()
    by_str = chkobba_example()
    used = ["QH", "JH", "AC", "2C", "3C", "4C", "2D", "6S"]
    as_cards = State.from_position(
        rules,
        hands=[cards("QH", "JH", "AC"), [Card(c).id for c in ("2C", "3C", "4C")]],
        table=(Card("2D"), "6S"),
        stock=[],
        to_move=0,
        dealer=1,
        last_capturer=0,
        piles=[[Card(c) for c in rest_of(used)], []],
    )
    assert as_cards == by_str
    assert rules.value("QH") == rules.value(Card("QH")) == rules.value(34) == 8
    assert by_str.play("QH x 2D+6S") == by_str.play(Move("QH x 2D+6S"))
    assert rules.opening(["5C", "5D", "5H", "2S"]).redeal
    assert rules.opening([Card("5C"), 17, "5H", Card("2S")]).redeal


# --------------------------------------------------------------------------- persistence


def test_state_pickle_and_bytes_round_trip() -> None:
    for s in SAMPLES:
        b = s.to_bytes()
        assert isinstance(b, bytes)
        back = State.from_bytes(s.rules, b)
        assert back == s
        assert back.to_bytes() == b
        assert hash(back) == hash(s)
        p = pickle.loads(pickle.dumps(s))
        assert p == s
        assert p.rules == s.rules
        assert p.legal_moves() == s.legal_moves()
        assert copy.deepcopy(s) == s
    # The rest of the match is the same from a restored state.
    s = SAMPLES[5]
    r = pickle.loads(pickle.dumps(s))
    wa = [x.to_bytes() for x in random_walk(s, random.Random(8))]
    wb = [x.to_bytes() for x in random_walk(r, random.Random(8))]
    assert wa == wb


def test_state_equality() -> None:
    a = State.new(Rules.scopa(), seed=1)
    assert a == State.new(Rules.scopa(), seed=1)
    assert a != State.new(Rules.scopa(), seed=2)
    assert a != "state"
    # Same cards, other rules: not equal.
    assert State.new(Rules.scopa(target=16), seed=1) != a


def test_state_repr_and_str() -> None:
    s = chkobba_example()
    text = str(s)
    assert "chkobba" in text
    assert "2D" in text and "6S" in text
    r = repr(s)
    assert "chkobba" in r
    assert "to_move=0" in r
    assert "Some(" not in r  # no Rust Option formatting leaks into Python


# --------------------------------------------------------------------------- random_hands / threads


def test_random_hands_totals() -> None:
    for game in GAMES:
        rules = Rules(game)
        t = cf.random_hands(rules, 300, seed=5)
        assert t == cf.random_hands(rules, 300, seed=5)
        assert t != cf.random_hands(rules, 300, seed=6)
        assert t["hands"] == 300
        assert list(t["awards"]) == CATEGORIES[game]
        assert list(t["ties"]) == CATEGORIES[game]
        for cat in CATEGORIES[game]:
            a, b = t["awards"][cat]
            assert a + b + t["ties"][cat] == 300
        assert t["ties"][CATEGORIES[game][2]] == 0  # someone always holds 7D
        awarded = sum(a + b for a, b in t["awards"].values())
        assert sum(t["points"]) == awarded + sum(t["sweeps"])
    assert cf.random_hands(Rules.scopa(), 0)["hands"] == 0


def _calibrated_hands(rules: Rules, seconds: float) -> int:
    t0 = time.perf_counter()
    cf.random_hands(rules, 5000, seed=1)
    dt = max(time.perf_counter() - t0, 1e-4)
    return max(5000, int(5000 * seconds / dt))


def test_random_hands_in_threads_equal_sequential() -> None:
    rules = Rules.chkobba(players=4)
    n = _calibrated_hands(rules, 0.3)
    expected = [cf.random_hands(rules, n, seed=s) for s in (11, 12)]
    results: dict[int, dict[str, Any]] = {}

    def work(i: int, seed: int) -> None:
        results[i] = cf.random_hands(rules, n, seed=seed)

    threads = [threading.Thread(target=work, args=(i, s)) for i, s in enumerate((11, 12))]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=120)
        assert not th.is_alive()
    assert results == {0: expected[0], 1: expected[1]}


def test_random_hands_releases_the_gil() -> None:
    rules = Rules.scopa()
    n = _calibrated_hands(rules, 0.6)
    t0 = time.perf_counter()
    cf.random_hands(rules, n, seed=2)
    duration = time.perf_counter() - t0
    gap, ticks = longest_stall(cf.random_hands, rules, n, seed=2)
    # With the GIL held for the whole call, this thread would stall for about `duration`.
    assert gap < duration / 2, (gap, duration)
    assert ticks > 100


def test_view_legal_moves_on_a_cut_without_opening_table() -> None:
    """Chkobba dealt as scientifico: the cutter may only keep the cut card (docs/variants.md),
    in the view as in the state, so a bot choosing from its view plays a legal move."""
    rules = cf.Rules.chkobba(players=4, deal="scientifico")
    for seed in range(5):
        state = cf.State.new(rules, seed)
        assert state.phase == "cut"
        view = state.view(state.to_move)
        assert view.legal_moves() == state.legal_moves()
        assert [m.is_trail for m in view.legal_moves()] == [False]
        assert str(view.legal_moves()[0]).startswith("keep ")
    result = cf.simulate(rules, 20, bots=(_LastViewMove(), "random"), seed=1)
    assert len(result.points) == 20


class _LastViewMove:
    """A Python bot playing the last move its view lists."""

    def choose(self, view: cf.View) -> cf.Move:
        return view.legal_moves()[-1]


def test_views_under_other_rules_differ() -> None:
    """The rules decide a view's legal moves and sweep flags, so they are part of its identity."""
    void = final_sweep_position(Rules.scopa()).view(1)
    counts = final_sweep_position(Rules.scopa(last_play_sweep="counts")).view(1)
    assert [m.sweep for m in void.legal_moves()] != [m.sweep for m in counts.legal_moves()]
    assert void != counts
    assert len({void, counts}) == 2
    assert void == final_sweep_position(Rules.scopa()).view(1)


def test_next_seat_follows_the_direction_of_play() -> None:
    assert [cf.Rules.scopa().next_seat(s) for s in range(2)] == [1, 0]
    assert [cf.Rules.escoba(4).next_seat(s) for s in range(4)] == [1, 2, 3, 0]
    clockwise = cf.variants.rules("scopa", players=4, direction="clockwise")
    assert [clockwise.next_seat(s) for s in range(4)] == [3, 0, 1, 2]
    with pytest.raises(cf.PositionError, match="got: 2"):
        cf.Rules.chkobba().next_seat(2)
