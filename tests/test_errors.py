"""Error handling of the public API: every error class, raised for the right input, with a message
that names the offending value, and a state left exactly unchanged by a rejected move.
"""

from __future__ import annotations

import pickle
import struct
from collections.abc import Callable, Sequence
from typing import Any

import capturefast as cf
import capturefast.errors as errors_module
import pytest
from capturefast import Card, Move, Rules, State

RANKS = "A234567JQK"
SUITS = "CDHS"
ALL: list[str] = [r + s for r in RANKS for s in SUITS]

ERROR_CLASSES = [
    cf.ArgumentError,
    cf.InvalidCardError,
    cf.IllegalMoveError,
    cf.VariantError,
    cf.PositionError,
    cf.DecodeError,
    cf.ReportError,
]


def rest_of(used: Sequence[str]) -> list[str]:
    u = set(used)
    return [c for c in ALL if c not in u]


def position(
    rules: Rules,
    hands: Sequence[Sequence[str]],
    table: Sequence[str],
    *,
    stock: Sequence[str] = (),
    to_move: int = 0,
    dealer: int | None = 1,
    last_capturer: int | None = 0,
    scores: Sequence[int] | None = None,
) -> State:
    """A from_position state; the cards not given go to the last capturer's side."""
    used = [c for h in hands for c in h] + list(table) + list(stock)
    piles: list[list[str]] = [[], []]
    piles[0 if last_capturer is None else last_capturer % 2] = rest_of(used)
    return State.from_position(
        rules,
        hands=[list(h) for h in hands],
        table=list(table),
        stock=list(stock),
        to_move=to_move,
        dealer=dealer,
        last_capturer=last_capturer,
        piles=piles,
        scores=scores,
    )


def scopa_position() -> State:
    """Seat 0 to play 5S or 4H onto 5C 3D 2H; seat 1 holds AC 2C."""
    return position(Rules.scopa(), [["5S", "4H"], ["AC", "2C"]], ["5C", "3D", "2H"])


def finished_hand() -> State:
    """A scopa hand that is over (not the match)."""
    s = position(Rules.scopa(), [[], ["7S"]], ["3C", "4D"], to_move=1, dealer=1)
    t = s.play("7S x 3C+4D")
    assert t.hand_over and not t.match_over
    return t


def finished_match() -> State:
    """A scopa match won by side 0 on this hand (10 + at least 1 point)."""
    s = position(Rules.scopa(), [[], ["7S"]], ["3C", "4D"], to_move=1, dealer=1, scores=[10, 0])
    t = s.play("7S x 3C+4D")
    assert t.match_over
    return t


def raises_naming(cls: type[BaseException], value: str, f: Callable[[], Any]) -> str:
    """Calls f, expecting ``cls`` with ``value`` named in the message; returns the message."""
    with pytest.raises(cls) as info:
        f()
    msg = str(info.value)
    assert value in msg, (value, msg)
    return msg


# --------------------------------------------------------------------------- hierarchy


@pytest.mark.parametrize("cls", ERROR_CLASSES)
def test_error_classes_are_capturefast_and_value_errors(cls: type[Exception]) -> None:
    assert issubclass(cls, cf.CaptureFastError)
    assert issubclass(cls, ValueError)
    assert issubclass(cls, Exception)
    assert getattr(errors_module, cls.__name__) is cls
    assert getattr(cf, cls.__name__) is cls
    for other in ERROR_CLASSES:
        if other is not cls:
            assert not issubclass(cls, other)


def test_base_class() -> None:
    assert issubclass(cf.CaptureFastError, Exception)
    assert cf.CaptureFastError is errors_module.CaptureFastError
    with pytest.raises(cf.CaptureFastError):
        Card("0D")
    with pytest.raises(ValueError):
        Card("0D")


# --------------------------------------------------------------------------- cards


@pytest.mark.parametrize("text", ["0D", "11H", "ZZ", "1C", "7X", "7DD", "JOKER", "D7", "01C"])
def test_unknown_card_strings(text: str) -> None:
    raises_naming(cf.InvalidCardError, text, lambda: Card(text))
    raises_naming(cf.InvalidCardError, text, lambda: Rules.scopa().value(text))
    raises_naming(cf.InvalidCardError, text, lambda: Rules.scopa().capture_options([text], "QH"))
    raises_naming(cf.InvalidCardError, text, lambda: Rules.scopa().capture_options([], text))
    raises_naming(cf.InvalidCardError, text, lambda: Move.play(text))
    raises_naming(cf.InvalidCardError, text, lambda: Move.play("QH", [text]))


def test_empty_card_string() -> None:
    with pytest.raises(cf.InvalidCardError, match="card"):
        Card("")


@pytest.mark.parametrize("cid", [40, 41, 63, 64, 255, 256, -1, -40])
def test_card_ids_out_of_range(cid: int) -> None:
    raises_naming(cf.InvalidCardError, str(cid), lambda: Card(cid))
    raises_naming(cf.InvalidCardError, str(cid), lambda: Rules.chkobba().value(cid))
    raises_naming(cf.InvalidCardError, str(cid), lambda: Rules.chkobba().opening([0, 1, 2, cid]))


@pytest.mark.parametrize("cid", [2**63, -(2**70)])
def test_huge_card_ids_are_value_errors_not_type_errors(cid: int) -> None:
    # An int is the right type for a card id; a huge one is a bad value, like 40.
    with pytest.raises(cf.InvalidCardError) as info:
        Card(cid)
    assert "got: int" not in str(info.value)


def test_duplicate_cards() -> None:
    r = Rules.scopa()
    raises_naming(cf.InvalidCardError, "5C", lambda: r.capture_options(["5C", "5C"], "5S"))
    raises_naming(cf.InvalidCardError, "5C", lambda: r.capture_options(["5C", 16], "5S"))
    raises_naming(cf.InvalidCardError, "5C", lambda: r.capture_options(["5C"], "5C"))
    raises_naming(cf.InvalidCardError, "KC", lambda: r.opening(["KC", "KC", "KH", "5S"]))
    raises_naming(cf.InvalidCardError, "QH", lambda: Move.play("QH", ["QH"]))
    raises_naming(cf.InvalidCardError, "2D", lambda: Move.play("QH", ["2D", Card("2D")]))
    raises_naming(cf.InvalidCardError, "3C", lambda: Move("7D x 3C+3C"))
    raises_naming(cf.InvalidCardError, "7D", lambda: Move("7D x 7D"))
    piles = [ALL[:21], ALL[20:]]  # ALL[20] = 6C in both
    raises_naming(cf.InvalidCardError, "6C", lambda: r.score(piles))


def test_duplicate_cards_in_positions() -> None:
    r = Rules.scopa()
    # In one hand.
    raises_naming(
        cf.InvalidCardError,
        "5S",
        lambda: State.from_position(r, hands=[["5S", "5S"], ["AC", "2C"]], table=["5C"]),
    )
    # In the table.
    raises_naming(
        cf.InvalidCardError,
        "3D",
        lambda: position(r, [["5S"], ["AC"]], ["3D", "3D"]),
    )
    # Across zones: a hand card also on the table.
    with pytest.raises(cf.InvalidCardError) as info:
        State.from_position(
            r,
            hands=[["5S"], ["AC"]],
            table=["5S"],
            piles=[rest_of(["5S", "AC"]), []],
            last_capturer=0,
            dealer=1,
        )
    assert "5S" in str(info.value)
    # In the stock twice.
    with pytest.raises(cf.InvalidCardError) as info:
        State.from_position(r, hands=[["5S"], ["AC"]], table=[], stock=["2C"] * 6)
    assert "2C" in str(info.value)


# --------------------------------------------------------------------------- moves


def assert_rejected(state: State, move: Any, cls: type[Exception], named: str) -> str:
    """``state.play(move)`` raises ``cls`` naming ``named``; the state is exactly unchanged."""
    before = state.to_bytes()
    moves = state.legal_moves()
    snapshot = (state.hands, state.table, state.piles, list(state.sweeps), state.scores)
    msg = raises_naming(cls, named, lambda: state.play(move))
    assert state.to_bytes() == before
    assert state.legal_moves() == moves
    assert (state.hands, state.table, state.piles, list(state.sweeps), state.scores) == snapshot
    assert State.from_bytes(state.rules, before) == state
    return msg


def test_card_not_in_the_movers_hand() -> None:
    s = scopa_position()
    assert_rejected(s, "AC", cf.IllegalMoveError, "AC")  # in seat 1's hand
    assert_rejected(s, "KS", cf.IllegalMoveError, "KS")  # in a pile
    assert_rejected(s, "5C x 3D+2H", cf.IllegalMoveError, "5C")  # on the table
    assert_rejected(s, Move("KD"), cf.IllegalMoveError, "KD")


def test_illegal_captures() -> None:
    s = scopa_position()
    # A sum when an equal card exists (S7).
    assert_rejected(s, "5S x 2H+3D", cf.IllegalMoveError, "5S x 2H+3D")
    # Trailing a card that can capture (compulsory capture).
    assert_rejected(s, "5S", cf.IllegalMoveError, "5S")
    # Taking too much, too little, or a card that is not on the table.
    assert_rejected(s, "5S x 5C+3D", cf.IllegalMoveError, "5S x 3D+5C")
    assert_rejected(s, "5S x 5D", cf.IllegalMoveError, "5S x 5D")
    assert_rejected(s, "4H x 2H", cf.IllegalMoveError, "4H x 2H")
    assert_rejected(s, Move.play("4H", ["3D"]), cf.IllegalMoveError, "4H x 3D")
    # A cut decision outside the cut phase.
    assert_rejected(s, "keep 5S", cf.IllegalMoveError, "keep 5S")
    assert_rejected(s, "table 4H", cf.IllegalMoveError, "table 4H")


def test_illegal_message_is_helpful() -> None:
    msg = assert_rejected(scopa_position(), "5S x 2H+3D", cf.IllegalMoveError, "5S x 2H+3D")
    assert "seat 0" in msg
    # A refused trail says why: the card can capture, and capturing is compulsory.
    msg = assert_rejected(scopa_position(), "5S", cf.IllegalMoveError, "5S")
    assert "5S can capture, and capturing is compulsory" in msg


def test_chkobba_cut_phase_rejects_other_moves() -> None:
    s = State.new(Rules.chkobba(), seed=4)
    assert s.phase == "cut"
    c = s.cut_card
    assert c is not None
    other = next(x for x in ALL if x != str(c))
    assert_rejected(s, str(c), cf.IllegalMoveError, str(c))  # playing the cut card
    assert_rejected(s, f"keep {other}", cf.IllegalMoveError, other)
    assert_rejected(s, f"table {other}", cf.IllegalMoveError, other)
    assert_rejected(s, other, cf.IllegalMoveError, other)


def test_move_after_the_hand_is_over() -> None:
    for t in (finished_hand(), finished_match()):
        msg = assert_rejected(t, "7S", cf.IllegalMoveError, "7S")
        assert "over" in msg
        assert t.legal_moves() == []


def test_next_hand_mid_hand() -> None:
    s = scopa_position()
    before = s.to_bytes()
    with pytest.raises(cf.IllegalMoveError, match="not over"):
        s.next_hand()
    assert s.to_bytes() == before
    c = State.new(Rules.chkobba(), seed=1)  # in the cut phase
    with pytest.raises(cf.IllegalMoveError, match="not over"):
        c.next_hand()


def test_next_hand_after_the_match_is_over() -> None:
    t = finished_match()
    before = t.to_bytes()
    with pytest.raises(cf.IllegalMoveError, match="match is over"):
        t.next_hand()
    assert t.to_bytes() == before
    assert t.hand_report().scores == t.scores  # the report is still available


def test_hand_report_mid_hand() -> None:
    for s in (scopa_position(), State.new(Rules.escoba(), seed=3), State.new(Rules.chkobba())):
        with pytest.raises(cf.IllegalMoveError, match="not over"):
            s.hand_report()


@pytest.mark.parametrize(
    "text",
    [
        "hello",
        "",
        " ",
        "7D x",
        "x 3C",
        "keep",
        "table",
        "keep 0D",
        "7D x 11C",
        "7D y 3C",
        "11D",
        "7D x 3C x 4S",
        "keep7D",
        "play 7D",
        "7D,3C",
        "7D x ZZ",
        "🂡",
        "7D x 3C 4",
    ],
)
def test_garbage_move_strings(text: str) -> None:
    with pytest.raises(cf.IllegalMoveError) as info:
        Move(text)
    assert text.strip() in str(info.value)
    s = scopa_position()
    before = s.to_bytes()
    with pytest.raises(cf.IllegalMoveError):
        s.play(text)
    assert s.to_bytes() == before


@pytest.mark.parametrize(
    "bits",
    [
        40 << 40,  # card id 40
        63 << 40,
        (3 << 46) | (1 << 40),  # kind 3
        1 << 48,  # bits above 47
        (1 << 46) | (1 << 40) | 1,  # a cut decision with captures
        (25 << 40) | (1 << 25),  # 7D capturing itself
        2**64 - 1,
    ],
)
def test_bad_packed_moves(bits: int) -> None:
    raises_naming(cf.IllegalMoveError, str(bits), lambda: Move.from_int(bits))


@pytest.mark.parametrize("bits", [-1, 2**64, 2**100])
def test_packed_moves_out_of_u64(bits: int) -> None:
    raises_naming(cf.ArgumentError, str(bits), lambda: Move.from_int(bits))


# --------------------------------------------------------------------------- positions


def test_position_missing_cards() -> None:
    msg = raises_naming(
        cf.PositionError,
        "KS",
        lambda: State.from_position(
            Rules.scopa(), hands=[["5S"], ["AC"]], table=["5C"], last_capturer=0
        ),
    )
    assert "missing" in msg


def test_position_wrong_hand_sizes() -> None:
    r = Rules.scopa()
    # Seat 0 (the leader) to move holds 2: seat 1 must hold 2 as well.
    raises_naming(cf.PositionError, "seat 1", lambda: position(r, [["5S", "4H"], ["AC"]], ["5C"]))
    # Seat 1 to move: seat 0 has played one card more.
    raises_naming(
        cf.PositionError,
        "seat 0",
        lambda: position(r, [["5S"], ["AC"]], ["5C"], to_move=1, dealer=1),
    )
    raises_naming(cf.PositionError, "0", lambda: position(r, [[], []], ["5C"]))
    four = [["AC", "AD", "AH", "AS"], ["2C", "2D", "2H", "2S"]]
    raises_naming(cf.PositionError, "4", lambda: position(r, four, ["5C"]))
    # Three hands for two players.
    raises_naming(cf.PositionError, "3", lambda: position(r, [["5S"], ["AC"], ["2C"]], ["5C"]))
    # The stock must be whole rounds (6 cards for 2 players).
    raises_naming(
        cf.PositionError,
        "5",
        lambda: position(r, [["5S"], ["AC"]], ["5C"], stock=["2C", "3C", "4C", "6C", "7C"]),
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("to_move", 2),
        ("to_move", -1),
        ("to_move", 7),
        ("dealer", 2),
        ("dealer", -1),
        ("last_capturer", 2),
        ("last_capturer", 4),
        ("last_capturer", -3),
    ],
)
def test_position_bad_seat_numbers(field: str, value: int) -> None:
    kwargs: dict[str, Any] = {
        "hands": [["5S"], ["AC"]],
        "table": ["5C"],
        "to_move": 0,
        "dealer": 1,
        "last_capturer": 0,
        "piles": [rest_of(["5S", "AC", "5C"]), []],
        field: value,
    }
    msg = raises_naming(
        cf.PositionError, str(value), lambda: State.from_position(Rules.scopa(), **kwargs)
    )
    assert field in msg


def test_position_bad_seat_numbers_four_players() -> None:
    r = Rules.chkobba(players=4)
    hands = [["5S"], ["AC"], ["2C"], ["3C"]]
    raises_naming(cf.PositionError, "4", lambda: position(r, hands, ["5C"], to_move=4))
    raises_naming(cf.PositionError, "5", lambda: position(r, hands, ["5C"], dealer=5))


@pytest.mark.parametrize(
    ("rules", "scores"),
    [
        (Rules.scopa(), [11, 3]),
        (Rules.scopa(), [3, 12]),
        (Rules.scopa(), [12, 11]),
        (Rules.chkobba(), [21, 0]),
        (Rules.escoba(target=15), [0, 15]),
    ],
)
def test_position_scores_past_the_target(rules: Rules, scores: list[int]) -> None:
    with pytest.raises(cf.PositionError) as info:
        position(rules, [["5S"], ["KC"]], ["KD"], scores=scores)
    msg = str(info.value)
    assert f"[{scores[0]}, {scores[1]}]" in msg
    assert "won" in msg


def test_position_equal_scores_past_the_target_play_on() -> None:
    # S-A5: both over with equal totals is a live match.
    assert position(Rules.scopa(), [["5S"], ["KC"]], ["5C"], scores=[12, 12]).scores == [12, 12]


def test_position_last_capturer_none_with_piles() -> None:
    with pytest.raises(cf.PositionError, match="last_capturer"):
        State.from_position(
            Rules.scopa(),
            hands=[["5S"], ["KC"]],
            table=["5C"],
            piles=[rest_of(["5S", "KC", "5C"]), []],
            last_capturer=None,
        )


def test_position_last_capturer_with_an_empty_pile() -> None:
    with pytest.raises(cf.PositionError, match="last_capturer"):
        State.from_position(
            Rules.scopa(),
            hands=[["5S"], ["KC"]],
            table=["5C"],
            piles=[rest_of(["5S", "KC", "5C"]), []],
            last_capturer=1,
        )


def test_position_sweeps_without_a_capture() -> None:
    used = ["5S", "KC"]
    with pytest.raises(cf.PositionError):
        State.from_position(
            Rules.scopa(),
            hands=[["5S"], ["KC"]],
            table=rest_of(used),
            sweeps=[1, 0],
            last_capturer=None,
        )


@pytest.mark.parametrize("sweeps", [[-1, 0], [0, 41], [1, 2, 3], [1]])
def test_position_bad_sweeps(sweeps: list[int]) -> None:
    r = Rules.scopa()
    with pytest.raises(cf.PositionError, match="sweeps"):
        State.from_position(
            r,
            hands=[["5S"], ["KC"]],
            table=["5C"],
            piles=[rest_of(["5S", "KC", "5C"]), []],
            last_capturer=0,
            sweeps=sweeps,
        )


@pytest.mark.parametrize("piles", [[[], [], []], [[]]])
def test_position_piles_must_be_two(piles: list[list[str]]) -> None:
    with pytest.raises(cf.PositionError, match="piles"):
        State.from_position(Rules.scopa(), hands=[["5S"], ["KC"]], table=["5C"], piles=piles)


def test_escoba_position_piles_must_total_multiples_of_15() -> None:
    # 3H AD 4C 7D KS in play: the rest totals 195 = 13 * 15. Moving AC to side 1 breaks it.
    used = ["3H", "AD", "4C", "7D", "KS"]
    rest = rest_of(used)
    with pytest.raises(cf.PositionError, match="15"):
        State.from_position(
            Rules.escoba(),
            hands=[["3H"], ["KS"]],
            table=["AD", "4C", "7D"],
            piles=[[c for c in rest if c != "AC"], ["AC"]],
            last_capturer=0,
            dealer=1,
        )


# --------------------------------------------------------------------------- rules


def test_unknown_option_name() -> None:
    raises_naming(cf.VariantError, "foo", lambda: Rules.scopa(foo=1))
    raises_naming(cf.VariantError, "lastplaysweep", lambda: Rules("escoba", lastplaysweep="void"))
    raises_naming(
        cf.VariantError, "bogus", lambda: Rules.from_dict({"game": "chkobba", "bogus": True})
    )


MISSPELLED = [
    (lambda: Rules("scopa", taret=21), "taret", "target"),
    (lambda: Rules.escoba(lastplaysweep="void"), "lastplaysweep", "last_play_sweep"),
    (lambda: Rules.from_dict({"game": "chkobba", "cut_crd": False}), "cut_crd", "cut_card"),
    (lambda: Rules("scpoa"), "scpoa", "scopa"),
    (lambda: cf.variants.rules("cirula"), "cirula", "cirulla"),
    (lambda: cf.variants.rules("cirulla", taret=3), "taret", "target"),
    (lambda: cf.variants.loads('game = "scopa"\ntaret = 3\n', "toml"), "taret", "target"),
    (lambda: cf.Bot("expret"), "expret", "expert"),
    (lambda: cf.Bot("pimc:wrlds=50"), "wrlds", "worlds"),
    (lambda: cf.Bot("ismcts:iteratons=50"), "iteratons", "iterations"),
    (lambda: cf.simulate(Rules.scopa(), 5, bots="gredy"), "gredy", "greedy"),
    (lambda: cf.tournament(Rules.scopa(), ["greedy", "randm"], 5), "randm", "random"),
]


@pytest.mark.parametrize(("call", "bad", "close"), MISSPELLED)
def test_a_misspelled_name_gets_a_hint_naming_a_close_one(
    call: Callable[[], Any], bad: str, close: str
) -> None:
    # The command line said `did you mean`; the library's own calls said only what it expected.
    msg = raises_naming(cf.VariantError, bad, call)
    first, hint = msg.split("\n")
    assert first.startswith(("unknown ", "bot `")) and first.endswith(f"): {bad}"), msg
    assert hint == f"hint: did you mean {close}?"


def test_a_name_close_to_none_gets_no_hint_and_a_hint_is_never_doubled() -> None:
    msg = raises_naming(cf.VariantError, "zzzz", lambda: Rules("scopa", zzzz=1))
    assert "hint:" not in msg
    with pytest.raises(cf.VariantError) as info:
        Rules("scopa", taret=1)
    again = pickle.loads(pickle.dumps(info.value))
    assert str(again) == str(info.value) and str(again).count("hint:") == 1
    # A message with its own hint keeps it.
    own = "unknown option (expected one of target): taret\nhint: see docs/variants.md"
    assert str(cf.VariantError(own)) == own
    # Where the message says it: after where the name was found, a long text before it.
    long = cf.VariantError("x " * 100_000 + ": unknown option (expected one of target): taret")
    assert str(long).endswith("taret\nhint: did you mean target?")
    assert errors_module.did_you_mean("tagret", ["target", "seed"]) == (
        "\nhint: did you mean target?"
    )
    assert errors_module.did_you_mean("", ["target"]) == ""


@pytest.mark.parametrize(
    ("game", "option", "value"),
    [
        ("scopa", "last_play_sweep", "sometimes"),
        ("scopa", "primiera_missing_suit", "ignore"),
        ("chkobba", "redeal", "four_kings"),
        ("scopa", "target", 0),
        ("scopa", "target", -5),
        ("escoba", "target", 10001),
        ("escoba", "initial_30_requires_partition", "yes"),
        ("chkobba", "chkobba_face_values", "spanish"),
        ("chkobba", "cut_card", "on"),
        ("chkobba", "cut_card", 1),
        ("chkobba", "redeal", "always"),
        ("chkobba", "last_play_sweep", "Void"),
    ],
)
def test_bad_option_values(game: str, option: str, value: Any) -> None:
    with pytest.raises(cf.VariantError) as info:
        Rules(game, **{option: value})
    msg = str(info.value)
    assert option in msg
    assert str(value) in msg


@pytest.mark.parametrize(
    ("game", "option", "value"),
    [
        ("scopa", "cut_card", False),
        ("scopa", "chkobba_face_values", "italian"),
        ("scopa", "initial_30_requires_partition", True),
        ("escoba", "bermila", "cascade"),
        ("chkobba", "primiera_mode", "table"),
        ("escoba", "cut_card", True),
        ("escoba", "chkobba_face_values", "tunisian"),
        ("chkobba", "primiera_missing_suit", "zero"),
        ("chkobba", "initial_30_requires_partition", False),
    ],
)
def test_option_for_the_wrong_game(game: str, option: str, value: Any) -> None:
    with pytest.raises(cf.VariantError) as info:
        Rules(game, **{option: value})
    msg = str(info.value)
    assert option in msg
    assert game in msg


@pytest.mark.parametrize("players", [3, 0, 1, 5, 6, -1, 255, 256])
def test_bad_player_counts(players: int) -> None:
    for make in (Rules.scopa, Rules.escoba, Rules.chkobba):
        raises_naming(cf.VariantError, str(players), lambda make=make: make(players=players))
    raises_naming(
        cf.VariantError,
        str(players),
        lambda: Rules.from_dict({"game": "scopa", "players": players}),
    )


def test_unknown_game() -> None:
    raises_naming(cf.VariantError, "poker", lambda: Rules("poker"))
    raises_naming(cf.VariantError, "Scopa", lambda: Rules("Scopa"))
    raises_naming(cf.VariantError, "briscola", lambda: Rules.from_dict({"game": "briscola"}))
    with pytest.raises(cf.VariantError, match="game"):
        Rules.from_dict({"players": 2})


def test_rules_input_checks() -> None:
    r = Rules.scopa()
    with pytest.raises(cf.PositionError, match="3"):
        r.opening(["KC", "KD", "KH"])
    with pytest.raises(cf.PositionError, match="5"):
        r.opening(["KC", "KD", "KH", "KS", "AC"])
    with pytest.raises(cf.PositionError, match="missing"):
        r.score([["7D"], ["7C"]])
    with pytest.raises(cf.PositionError, match="3"):
        r.score([ALL[:10], ALL[10:20], ALL[20:]])
    with pytest.raises(cf.PositionError, match="41"):
        r.score([ALL[:20], ALL[20:]], [0, 41])
    with pytest.raises(cf.PositionError, match="-1"):
        r.match_winner([-1, 3])
    with pytest.raises(cf.PositionError, match="scores"):
        r.match_winner([1, 2, 3])


# --------------------------------------------------------------------------- bytes

# The encoding (rust/capturefast-core/src/game/state/encode.rs, State::encode): 10 header bytes
# [version, players, dealer, to_move, last_capturer, phase, cut_card, winner, deck_pos, game]
# (game: 0 scopa, 1 escoba, 2 chkobba), then
# 7 little-endian u64 card masks (hands 0-3, table, pile 0, pile 1), the 40-card deck, 2 sweep
# bytes, 2 u32 scores, the u64 generator state, the u32 hand number, 2 declaration-point bytes
# and the claimable card (255: none): 131 bytes (encoding version 2).
FULL = (1 << 40) - 1


def encode(
    *,
    players: int = 2,
    dealer: int = 1,
    to_move: int = 0,
    last_capturer: int = 0,
    phase: int = 1,
    cut_card: int = 255,
    winner: int = 255,
    deck_pos: int = 40,
    hands: Sequence[int] = (0, 0),
    table: int = 0,
    piles: Sequence[int] = (FULL, 0),
    sweeps: Sequence[int] = (0, 0),
    scores: Sequence[int] = (0, 0),
    game: int = 0,
) -> bytes:
    b = bytes([2, players, dealer, to_move, last_capturer, phase, cut_card, winner, deck_pos, game])
    masks = [*hands, *([0] * (4 - len(hands))), table, *piles]
    b += b"".join(struct.pack("<Q", m) for m in masks)
    b += bytes(range(40)) + bytes(sweeps) + struct.pack("<II", *scores)
    b += struct.pack("<Q", 0) + struct.pack("<I", 0) + bytes([0, 0, 255])
    assert len(b) == 131
    return b


def bit(*names: str) -> int:
    return sum(1 << ALL.index(n) for n in names)


def test_encode_helper_matches_the_engine() -> None:
    # A hand-built state (seat 0: AC; seat 1: KC; table 5C; all else in pile 0) decodes, and
    # re-encodes to the same bytes.
    b = encode(
        hands=(bit("AC"), bit("KC")),
        table=bit("5C"),
        piles=(FULL & ~bit("AC", "KC", "5C"), 0),
    )
    s = State.from_bytes(Rules.scopa(), b)
    assert s.hands == [[Card("AC")], [Card("KC")]]
    assert s.table == [Card("5C")]
    assert s.to_move == 0
    assert s.to_bytes() == b
    # The same layout in the Chkobba cut phase (cut card AC, the stock is the other 39 cards).
    cut = encode(last_capturer=255, phase=0, cut_card=0, deck_pos=1, piles=(0, 0), game=2)
    c = State.from_bytes(Rules.chkobba(), cut)
    assert c.phase == "cut"
    assert c.cut_card == Card("AC")
    assert c.stock_size == 39
    assert c.to_bytes() == cut


@pytest.mark.parametrize(
    "data",
    [b"", b"\x00", b"abc", bytes(130), bytes(132), bytes(131), b"\xff" * 131, bytes(128)],
)
def test_from_bytes_garbage(data: bytes) -> None:
    with pytest.raises(cf.DecodeError):
        State.from_bytes(Rules.scopa(), data)


def test_from_bytes_length_is_named() -> None:
    raises_naming(cf.DecodeError, "3", lambda: State.from_bytes(Rules.scopa(), b"abc"))


def test_from_bytes_corruptions() -> None:
    good = State.new(Rules.scopa(), seed=1).to_bytes()
    r = Rules.scopa()

    def corrupt(i: int, v: int) -> bytes:
        b = bytearray(good)
        b[i] = v
        return bytes(b)

    with pytest.raises(cf.DecodeError, match="version"):
        State.from_bytes(r, corrupt(0, 99))
    with pytest.raises(cf.DecodeError, match="players"):
        State.from_bytes(r, corrupt(1, 4))
    with pytest.raises(cf.DecodeError):
        State.from_bytes(r, corrupt(2, 7))  # dealer seat
    with pytest.raises(cf.DecodeError):
        State.from_bytes(r, corrupt(5, 9))  # phase
    with pytest.raises(cf.DecodeError):
        State.from_bytes(r, corrupt(17, 0xFF))  # hand 0 mask above bit 40
    with pytest.raises(cf.DecodeError):
        State.from_bytes(r, corrupt(66, 40))  # a deck entry that is not a card
    # A card in two places, and a card in none.
    with pytest.raises(cf.DecodeError):
        State.from_bytes(r, encode(hands=(bit("AC"), bit("KC")), table=bit("AC")))
    with pytest.raises(cf.DecodeError):
        State.from_bytes(r, encode(hands=(bit("AC"), bit("KC")), piles=(0, 0)))
    # Bytes of a 2-player state under 4-player rules.
    raises_naming(cf.DecodeError, "4", lambda: State.from_bytes(Rules.scopa(players=4), good))


REST_AC = FULL & ~bit("AC")
REST_AC_KC = FULL & ~bit("AC", "KC")


@pytest.mark.parametrize(
    ("rules", "data"),
    [
        # Piles hold 39 cards but nobody has captured (from_position refuses the same).
        (Rules.scopa(), encode(last_capturer=255, hands=(bit("AC"), 0), piles=(REST_AC, 0))),
        # The cut phase with no stock left to complete the deal.
        (
            Rules.chkobba(),
            encode(last_capturer=255, phase=0, cut_card=0, table=REST_AC, piles=(0, 0), game=2),
        ),
        # Sweep counts beyond what from_position allows (0-40).
        (
            Rules.scopa(),
            encode(hands=(bit("AC"), bit("KC")), piles=(REST_AC_KC, 0), sweeps=(255, 0)),
        ),
        # A Scopa state in the Chkobba cut phase.
        (
            Rules.scopa(),
            encode(last_capturer=255, phase=0, cut_card=0, deck_pos=1, piles=(0, 0)),
        ),
        # Match over, won by side 1, at 0 - 0.
        (Rules.scopa(), encode(phase=3, winner=1, piles=(FULL, 0), scores=(0, 0))),
        # Hand over (match not over) at 30 - 0 with a target of 11.
        (Rules.scopa(), encode(phase=2, piles=(FULL, 0), scores=(30, 0))),
        # A stock of one card (deck[39] = KS): not whole rounds of 3 per player.
        (
            Rules.scopa(),
            encode(hands=(bit("AC"), 0), deck_pos=39, piles=(FULL & ~bit("AC", "KS"), 0)),
        ),
    ],
    ids=[
        "no-capturer",
        "cut-without-stock",
        "sweeps-255",
        "scopa-cut",
        "winner",
        "scores",
        "short-stock",
    ],
)
def test_from_bytes_rejects_inconsistent_states(rules: Rules, data: bytes) -> None:
    with pytest.raises(cf.DecodeError):
        State.from_bytes(rules, data)


# --------------------------------------------------------------------------- wrong types


WRONG_TYPES: list[tuple[str, Callable[[], Any]]] = [
    ("State.new seed str", lambda: State.new(Rules.scopa(), seed="x")),  # type: ignore[arg-type]
    ("State.new seed float", lambda: State.new(Rules.scopa(), seed=1.5)),  # type: ignore[arg-type]
    ("State.new rules str", lambda: State.new("scopa")),  # type: ignore[arg-type]
    ("State.new rules None", lambda: State.new(None)),  # type: ignore[arg-type]
    ("Card None", lambda: Card(None)),  # type: ignore[arg-type]
    ("Card float", lambda: Card(1.5)),  # type: ignore[arg-type]
    ("Card list", lambda: Card(["7D"])),  # type: ignore[arg-type]
    ("Card bytes", lambda: Card(b"7D")),  # type: ignore[arg-type]
    ("Move int", lambda: Move(5)),  # type: ignore[arg-type]
    ("Move None", lambda: Move(None)),  # type: ignore[arg-type]
    ("Move Card", lambda: Move(Card("7D"))),  # type: ignore[arg-type]
    ("Move.from_int str", lambda: Move.from_int("5")),  # type: ignore[arg-type]
    ("Move.from_int float", lambda: Move.from_int(1.0)),  # type: ignore[arg-type]
    ("Move.play captures str", lambda: Move.play("QH", "2D")),
    ("Move.play captures int", lambda: Move.play("QH", 5)),  # type: ignore[arg-type]
    ("play int", lambda: State.new(Rules.scopa()).play(5)),  # type: ignore[arg-type]
    ("play None", lambda: State.new(Rules.scopa()).play(None)),  # type: ignore[arg-type]
    ("play Card", lambda: State.new(Rules.scopa()).play(Card("7D"))),  # type: ignore[arg-type]
    ("capture_options table str", lambda: Rules.scopa().capture_options("2D6S", "QH")),
    ("capture_options table int", lambda: Rules.scopa().capture_options(5, "QH")),  # type: ignore[arg-type]
    ("capture_options card None", lambda: Rules.scopa().capture_options([], None)),  # type: ignore[arg-type]
    ("value None", lambda: Rules.scopa().value(None)),  # type: ignore[arg-type]
    ("opening str", lambda: Rules.scopa().opening("KCKDKHKS")),
    ("score str", lambda: Rules.scopa().score("ab")),
    ("score None", lambda: Rules.scopa().score(None)),  # type: ignore[arg-type]
    ("match_winner None", lambda: Rules.scopa().match_winner(None)),  # type: ignore[arg-type]
    ("match_winner str", lambda: Rules.scopa().match_winner("ab")),
    ("view str", lambda: State.new(Rules.scopa()).view("0")),  # type: ignore[arg-type]
    ("view None", lambda: State.new(Rules.scopa()).view(None)),  # type: ignore[arg-type]
    ("from_bytes str", lambda: State.from_bytes(Rules.scopa(), "abc")),  # type: ignore[arg-type]
    ("from_bytes None", lambda: State.from_bytes(Rules.scopa(), None)),  # type: ignore[arg-type]
    ("from_bytes rules", lambda: State.from_bytes(None, b"")),  # type: ignore[arg-type]
    ("players str", lambda: Rules.scopa(players="2")),  # type: ignore[arg-type]
    ("Rules game int", lambda: Rules(2)),  # type: ignore[arg-type]
    ("from_dict list", lambda: Rules.from_dict([])),  # type: ignore[arg-type]
    ("random_hands rules str", lambda: cf.random_hands("scopa", 5)),  # type: ignore[arg-type]
    ("random_hands hands str", lambda: cf.random_hands(Rules.scopa(), "5")),  # type: ignore[arg-type]
    ("from_position hands int", lambda: State.from_position(Rules.scopa(), 5, [])),  # type: ignore[arg-type]
    ("from_position hand str", lambda: State.from_position(Rules.scopa(), ["5S", "KC"], [])),
    ("from_position table str", lambda: State.from_position(Rules.scopa(), [[], []], "5C")),
    (
        "from_position to_move str",
        lambda: State.from_position(Rules.scopa(), [[], []], [], to_move="0"),  # type: ignore[arg-type]
    ),
    (
        "from_position dealer str",
        lambda: State.from_position(Rules.scopa(), [[], []], [], dealer="1"),  # type: ignore[arg-type]
    ),
    (
        "from_position scores str",
        lambda: State.from_position(Rules.scopa(), [[], []], [], scores="00"),
    ),
    (
        "from_position seed str",
        lambda: State.from_position(Rules.scopa(), [[], []], [], seed="1"),  # type: ignore[arg-type]
    ),
]


@pytest.mark.parametrize(("name", "call"), WRONG_TYPES, ids=[n for n, _ in WRONG_TYPES])
def test_wrong_python_types_raise_type_error(name: str, call: Callable[[], Any]) -> None:
    with pytest.raises(TypeError):
        call()


def _open_state() -> State:
    return State.new(Rules.scopa(), seed=1)


def _last_play() -> State:
    # One card each and one on the table: the solver's smallest position.
    rest = [c for c in ALL if c not in ("AC", "2C", "3C")]
    return State.from_position(
        Rules.scopa(), [["AC"], ["2C"]], ["3C"], piles=[rest, []], last_capturer=0
    )


# Every integer argument of the API, given ints outside its range: a capturefast error that is
# a ValueError and names the value (PyO3 alone raises OverflowError for ints past the Rust
# type, which is neither).
INT_ARGUMENTS: list[tuple[str, Callable[[int], Any]]] = [
    ("State.new seed", lambda v: State.new(Rules.scopa(), seed=v)),
    ("from_position seed", lambda v: State.from_position(Rules.scopa(), [[], []], [], seed=v)),
    (
        "from_position to_move",
        lambda v: State.from_position(Rules.scopa(), [[], []], [], to_move=v),
    ),
    ("from_position dealer", lambda v: State.from_position(Rules.scopa(), [[], []], [], dealer=v)),
    (
        "from_position sweeps",
        lambda v: State.from_position(Rules.scopa(), [[], []], [], sweeps=[v, 0]),
    ),
    (
        "from_position scores",
        lambda v: State.from_position(Rules.scopa(), [[], []], [], scores=[0, v]),
    ),
    ("random_hands hands", lambda v: cf.random_hands(Rules.scopa(), v, 1)),
    ("random_hands seed", lambda v: cf.random_hands(Rules.scopa(), 1, v)),
    ("simulate hands", lambda v: cf.simulate(Rules.scopa(), v)),
    ("simulate seed", lambda v: cf.simulate(Rules.scopa(), 2, seed=v)),
    ("simulate threads", lambda v: cf.simulate(Rules.scopa(), 2, threads=v)),
    ("tournament hands", lambda v: cf.tournament(Rules.scopa(), ["random", "greedy"], v)),
    ("tournament seed", lambda v: cf.tournament(Rules.scopa(), ["random", "greedy"], 2, seed=v)),
    ("solve tt_entries", lambda v: cf.solve(_last_play(), tt_entries=v)),
    ("analyze worlds", lambda v: cf.analyze(_open_state(), worlds=v)),
    ("analyze seed", lambda v: cf.analyze(_open_state(), seed=v)),
    ("analyze seat", lambda v: cf.analyze(_open_state(), seat=v)),
    ("analyze_many threads", lambda v: cf.analyze_many([_open_state()], threads=v)),
    ("view seat", lambda v: _open_state().view(v)),
    ("perft depth", lambda v: _open_state().perft(v)),
    ("perft_divide depth", lambda v: _open_state().perft_divide(v)),
    ("Move.from_int", lambda v: Move.from_int(v)),
    ("Card id", lambda v: Card(v)),
    ("Rules players", lambda v: Rules.scopa(players=v)),
    ("Rules target", lambda v: Rules.scopa(target=v)),
    ("match_winner", lambda v: Rules.scopa().match_winner([v, 0])),
]


@pytest.mark.parametrize("value", [-1, 2**64, 2**200])
@pytest.mark.parametrize(("name", "call"), INT_ARGUMENTS, ids=[n for n, _ in INT_ARGUMENTS])
def test_ints_out_of_range_are_capturefast_value_errors(
    name: str, call: Callable[[int], Any], value: int
) -> None:
    with pytest.raises(cf.CaptureFastError) as info:
        call(value)
    assert isinstance(info.value, ValueError), name
    assert str(value) in str(info.value), (name, str(info.value))


def test_numpy_ints_are_accepted_as_ints() -> None:
    np = pytest.importorskip("numpy")
    rules = Rules.scopa(target=np.int64(21))
    assert rules.options["target"] == 21
    assert State.new(rules, seed=np.uint64(5)) == State.new(rules, seed=5)
    with pytest.raises(cf.ArgumentError, match="seed must be an integer from 0 to"):
        State.new(rules, seed=np.int64(-5))


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("11", 'got a string: "11"'),
        (11.5, "got float: 11.5"),
        (None, "got NoneType: None"),
    ],
)
def test_option_values_of_the_wrong_kind_say_what_they_are(value: Any, message: str) -> None:
    raises_naming(cf.VariantError, message, lambda: Rules.scopa(target=value))


def test_from_bytes_refuses_another_games_state() -> None:
    # Bytes of a Scopa state carry the game; Escoba rules do not read them.
    data = State.new(Rules.scopa(), seed=3).to_bytes()
    with pytest.raises(cf.DecodeError, match="not for escoba"):
        State.from_bytes(Rules.escoba(), data)


# --------------------------------------------------------------------- positions no game reaches


def _cards(text: str) -> list[Card]:
    return [Card(x) for x in text.split()]


_FULL_HANDS = [_cards("AC AD AH"), _cards("AS 2C 2D")]  # nobody has played yet
_ONE_PLAYED = [_cards("AC AD"), _cards("AS 2C 2D")]  # seat 0 has played one card


def _rest(*taken: Sequence[Card]) -> list[Card]:
    used = {c for zone in taken for c in zone}
    return [Card(i) for i in range(40) if Card(i) not in used]


def _unplayed(rules: Rules, table: list[Card], **kw: Any) -> State:
    """A first-round position in which no card has been played."""
    stock = _rest(*_FULL_HANDS, table, *kw.get("piles", []))
    return State.from_position(rules, _FULL_HANDS, table, stock=stock, dealer=1, **kw)


_FREE = _rest(*_ONE_PLAYED)
IMPOSSIBLE_POSITIONS: list[tuple[str, Callable[[], State], str]] = [
    (
        "a pile before any card is played",
        lambda: _unplayed(Rules.scopa(), [], piles=[_rest(*_FULL_HANDS)[:4], []], last_capturer=0),
        "side 0 has played no card",
    ),
    (
        "three kings on the opening table (S5)",
        lambda: _unplayed(Rules.scopa(), _cards("KC KD KH 3S")),
        "which the rules redeal: 3S\\+KC\\+KD\\+KH",
    ),
    (
        "three of a rank on the opening table (K6)",
        lambda: _unplayed(Rules.chkobba(), _cards("5C 5D 5H 6C")),
        "which the rules redeal",
    ),
    (
        "an opening table of 15 left to the players (E5)",
        lambda: _unplayed(Rules.escoba(), _cards("2H 3D 4D 6H")),
        "which the dealer takes: 2H\\+3D\\+4D\\+6H",
    ),
    (
        "a pile of the side that has not played",
        lambda: State.from_position(
            Rules.scopa(),
            _ONE_PLAYED,
            _FREE[:3],
            stock=_FREE[5:],
            to_move=1,
            dealer=1,
            last_capturer=1,
            piles=[[], _FREE[3:5]],
        ),
        "side 1 has played no card",
    ),
    (
        "two sweeps from one card played",
        lambda: State.from_position(
            Rules.scopa(),
            _ONE_PLAYED,
            [],
            stock=_FREE[5:],
            to_move=1,
            dealer=1,
            last_capturer=0,
            piles=[_FREE[:5], []],
            sweeps=[2, 0],
        ),
        "cannot have made more sweeps, got: 2",
    ),
]


@pytest.mark.parametrize(
    ("what", "build", "message"), IMPOSSIBLE_POSITIONS, ids=[w for w, _, _ in IMPOSSIBLE_POSITIONS]
)
def test_positions_the_cards_played_rule_out(
    what: str, build: Callable[[], State], message: str
) -> None:
    with pytest.raises(cf.PositionError, match=message):
        build()


def test_the_dealers_opening_take_is_a_position() -> None:
    """E5: the dealer's side holds the opening 15 with its sweep before anyone plays."""
    table = _cards("2H 3D 4D 6H")
    state = _unplayed(Rules.escoba(), [], piles=[[], table], sweeps=[0, 1], last_capturer=1)
    assert state.sweeps == [0, 1]
    with pytest.raises(cf.PositionError, match="side 1 has played no card"):
        _unplayed(Rules.escoba(), [], piles=[[], table], sweeps=[0, 2], last_capturer=1)


# Byte offsets in `State.to_bytes()` (docs/conventions.md): after the 10-byte header, seven
# card sets, the deck, then sweeps (2 bytes), scores (2 x u32), seed (u64), hand number (u32),
# declared (2 bytes).
_AFTER_DECK = 10 + 56 + 40
_SCORES = _AFTER_DECK + 2
_HAND_NUMBER = _AFTER_DECK + 18
_DECLARED = _AFTER_DECK + 22


def _patched(state: State, offset: int, data: bytes) -> bytes:
    raw = bytearray(state.to_bytes())
    raw[offset : offset + len(data)] = data
    return bytes(raw)


def _finished(rules: Rules, seed: int) -> State:
    state = State.new(rules, seed)
    while not state.hand_over:
        state = state.play(state.legal_moves()[0])
    return state


@pytest.mark.parametrize(
    ("what", "make"),
    [
        # A cut decision in a match already won, or with scores past the limit.
        (
            "cut, match won",
            lambda: (State.new(Rules.chkobba(), 7), _SCORES, struct.pack("<II", 25, 3)),
        ),
        (
            "cut, scores past the limit",
            lambda: (State.new(Rules.chkobba(), 7), _SCORES, struct.pack("<II", 2**32 - 1, 0)),
        ),
        ("cut, declared", lambda: (State.new(Rules.chkobba(), 7), _DECLARED, bytes([0, 3]))),
        # Declarations of more points than one per seat and round.
        (
            "declared 255",
            lambda: (State.new(Rules.scopa(declarations=True), 3), _DECLARED, bytes([255, 0])),
        ),
        # A finished hand whose match score is below its points.
        ("scores below the hand's", lambda: (_finished(Rules.scopa(), 1), _SCORES, bytes(8))),
        ("hand number", lambda: (State.new(Rules.scopa(), 1), _HAND_NUMBER, b"\xff\xff\xff\xff")),
    ],
)
def test_decode_refuses_fields_no_game_reaches(
    what: str, make: Callable[[], tuple[State, int, bytes]]
) -> None:
    state, offset, data = make()
    raw = _patched(state, offset, data)
    assert raw != state.to_bytes(), what
    with pytest.raises(cf.DecodeError):
        State.from_bytes(state.rules, raw)


def test_an_error_names_a_numeral_card_as_written() -> None:
    # `8D` is the numerals deck's spelling of `JD`: errors say what was written and how it was
    # read, not only `JD`.
    rules = cf.Rules.scopa()
    with pytest.raises(cf.InvalidCardError, match=r"more than once: 8D \(read as JD"):
        rules.capture_options(["JD", "8D"], "KS")
    state = cf.State.new(rules, seed=3)
    assert cf.Card("JD") not in state.hands[state.to_move]
    with pytest.raises(cf.IllegalMoveError, match=r": 8d x 3C \(read as JD x 3C: the numerals"):
        state.play("8d x 3C")
    with pytest.raises(cf.IllegalMoveError) as plain:
        state.play("JD")
    assert "read as" not in str(plain.value)


def test_a_horizon_is_an_argument_not_a_variant() -> None:
    state = cf.State.new(cf.Rules.scopa(), seed=1)
    with pytest.raises(cf.ArgumentError, match='horizon is "hand" or "round", got: "turn"'):
        cf.analyze(state, state.to_move, horizon="turn")


def test_control_characters_in_a_bad_value_are_escaped() -> None:
    # A message stays one printable line: the core writes each control character as \xNN.
    with pytest.raises(cf.InvalidCardError) as info:
        Card("7\x00D")
    assert str(info.value) == "unknown card: 7\\x00D"
    with pytest.raises(cf.NotationError) as notation:
        State.from_notation("sco\x1bpa\x00")
    assert str(notation.value).isprintable(), str(notation.value)
    assert "sco\\x1bpa\\x00" in str(notation.value)
    # Messages the Python layer builds are shown the same way; a hint keeps its own line.
    for bad in (
        lambda: cf.variants.rules("sco\x1bpa\nx"),
        lambda: cf.variants.from_dict({"preset": "scopa", "game": "es\x1bcoba"}),
        lambda: cf.Rules("scopa", target="x\x1by"),
        lambda: cf.analyze(State.new(Rules.scopa(), seed=1), horizon="ha\x00nd"),
    ):
        with pytest.raises(cf.CaptureFastError) as caught:
            bad()
        assert str(caught.value).isprintable(), str(caught.value)
        assert "\\x1b" in str(caught.value) or "\\x00" in str(caught.value)
    assert "sco\\x1bpa\\x0ax" in str(cf.VariantError("unknown preset: sco\x1bpa\nx"))
    assert errors_module.printable("a\tb\nc\x7f\x9bé\nhint: x\x00") == (
        "a\\x09b\\x0ac\\x7f\\x9bé\nhint: x\\x00"
    )
