"""Tests of every variant option and preset of ``docs/variants.md`` on the reference engine.

Every expected value here is worked out by hand from ``docs/variants.md`` and
``docs/rules.md`` (the arithmetic is in the comments); none was produced by running the
reference. Each option value has at least one test that would fail if the option were ignored.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from reference import (
    DECK,
    PRESETS,
    RefRules,
    RefState,
    format_move,
    pack_move,
    parse_card,
    parse_move,
    preset_rules,
    sort_cards,
)
from variant_tables import ALL_GAMES, DEFAULTS
from variant_tables import PRESETS as DOC_PRESETS


def fs(*cards: str) -> frozenset[str]:
    """A frozenset of cards."""
    return frozenset(cards)


def rest(*groups: list[str]) -> list[str]:
    """Every card of the deck not in ``groups``, in id order."""
    used = {c for g in groups for c in g}
    return [c for c in DECK if c not in used]


def position(
    rules: RefRules,
    hands: list[list[str]],
    table: list[str],
    to_move: int = 0,
    stock: list[str] | None = None,
    piles: list[list[str]] | None = None,
    last_capturer: int | None = None,
    **extra: Any,
) -> RefState:
    """A mid-hand position; the dealer is the seat just before ``to_move`` (counterclockwise)."""
    n = rules.players
    return RefState.from_position(
        rules,
        hands=hands,
        table=table,
        stock=stock or [],
        to_move=to_move,
        dealer=(to_move + n - 1) % n,
        last_capturer=last_capturer,
        piles=piles or [[], []],
        sweeps=[0, 0],
        scores=[0, 0],
        **extra,
    )


def moves_of(state: RefState) -> list[str]:
    """The legal moves in notation, in the engine's order."""
    return [format_move(m) for m in state.legal_moves()]


def play_out(state: RefState, pick: random.Random) -> tuple[RefState, list[int], int]:
    """Play the hand to its end with random legal moves; return turns per seat and claims."""
    turns = [0] * state.players
    claims = 0
    steps = 0
    while not state.hand_over:
        moves = state.legal_moves()
        assert moves, "no legal move before the hand is over"
        move = moves[pick.randrange(len(moves))]
        if move[0] == "play":
            assert state.to_move is not None
            turns[state.to_move] += 1
        elif move[0] == "claim":
            claims += 1
        state = state.play(move)
        steps += 1
        assert steps < 300
    return state, turns, claims


# --------------------------------------------------------------------- options and checks


def test_options_list_every_applicable_option_with_defaults() -> None:
    """docs/variants.md "The options": names, games and per-game defaults."""
    for game in ALL_GAMES:
        assert RefRules(game).options == DEFAULTS[game], game


@pytest.mark.parametrize(
    ("game", "players", "options", "named"),
    [
        ("scopa", 2, {"deal": "scopone"}, "deal"),
        ("escoba", 2, {"deal": "scientifico"}, "deal"),
        ("scopa", 2, {"renuncio": True}, "renuncio"),
        ("escoba", 2, {"renuncio": True, "compulsory_capture": True}, "renuncio"),
        ("scopa", 2, {"ace_sweep": True}, "ace_sweep"),
        ("scopa", 2, {"ace_takes_ace_only": False}, "ace_takes_ace_only"),
        ("scopa", 4, {"declarations": True, "deal": "scopone"}, "declarations"),
        ("scopa", 4, {"declarations": True, "deal": "scientifico"}, "declarations"),
        ("scopa", 2, {"declaration_low": 5}, "declaration_low"),
        ("scopa", 2, {"declaration_triple": 5}, "declaration_triple"),
        ("scopa", 2, {"declaration_wild": False}, "declaration_wild"),
        ("scopa", 2, {"napola_cap": 5}, "napola_cap"),
        ("scopa", 2, {"napola": True, "napola_cap": 2}, "napola_cap"),
        ("scopa", 2, {"napola": True, "napola_cap": 1}, "napola_cap"),
        ("scopa", 2, {"napola": True, "napola_cap": 11}, "napola_cap"),
        ("scopa", 2, {"target": 10001}, "target"),
        ("scopa", 2, {"grande": 101}, "grande"),
        ("scopa", 2, {"all_coins_bonus": -1}, "all_coins_bonus"),
        ("scopa", 2, {"all_sevens_bonus": True}, "all_sevens_bonus"),
        ("scopa", 2, {"declarations": 1}, "declarations"),
        ("scopa", 2, {"direction": "left"}, "direction"),
        ("scopa", 2, {"redeal": "three_aces"}, "redeal"),
        ("scopa", 2, {"opening_sweeps": "on"}, "opening_sweeps"),
        ("scopa", 2, {"capture": "sum"}, "capture"),
        ("chkobba", 2, {"primiera_mode": "table"}, "primiera_mode"),
        ("chkobba", 2, {"primiera_figures": "flat"}, "primiera_figures"),
        ("chkobba", 2, {"deck": "numerals"}, "deck"),
        ("scopa", 2, {"bermila": "cascade"}, "bermila"),
        ("escoba", 2, {"cut_card": False}, "cut_card"),
        ("scopa", 2, {"chkobba_face_values": "italian"}, "chkobba_face_values"),
        ("scopa", 2, {"initial_30_requires_partition": True}, "initial_30_requires_partition"),
        ("escoba", 2, {"initial_30_requires_partition": "yes"}, "initial_30_requires_partition"),
    ],
)
def test_bad_options_name_the_option(
    game: str, players: int, options: dict[str, Any], named: str
) -> None:
    """Bad values, wrong games and contradictions raise ValueError naming the option."""
    with pytest.raises(ValueError, match=named):
        RefRules(game, players, **options)


def test_sub_options_with_their_parent_are_accepted() -> None:
    """The same sub-options are fine once the option they need is on."""
    RefRules("scopa", ace_takes_all=True, ace_sweep=True, ace_takes_ace_only=False)
    RefRules("scopa", ace_takes_ace_only=True)  # the default value needs nothing
    RefRules("escoba", compulsory_capture=False, renuncio=True)
    RefRules("scopa", declarations=True, declaration_low=0, declaration_wild=False)
    RefRules("scopa", napola=True, napola_cap=3)
    RefRules("scopa", napola=True, napola_cap=10)
    RefRules("scopa", 4, deal="scientifico", target=10000)


def test_initial_30_requires_partition_alias() -> None:
    """Compatibility input: true sets partition; false leaves the default sum; never listed;
    refused beside `opening_sweeps` (their order would decide)."""
    assert RefRules("escoba", initial_30_requires_partition=True).options["opening_sweeps"] == (
        "partition"
    )
    assert (
        RefRules("escoba", initial_30_requires_partition=False).options["opening_sweeps"] == "sum"
    )
    for sweeps in ("partition", "off"):
        with pytest.raises(ValueError, match="opening_sweeps alone"):
            RefRules("escoba", opening_sweeps=sweeps, initial_30_requires_partition=False)
    assert "initial_30_requires_partition" not in RefRules("escoba").options


def test_target() -> None:
    """V-S15: the target decides the match end."""
    rules = RefRules("scopa", target=16)
    assert rules.target == 16
    assert rules.match_winner([15, 3]) is None  # 15 < 16; the default target 11 would end it
    assert rules.match_winner([16, 3]) == 0
    assert RefRules("scopa", target=10000).target == 10000


# --------------------------------------------------------------------- seating and the deal


def test_direction_clockwise_four_players() -> None:
    """V-K6: leader, deal order, play order and next dealer go to (s+n-1) % n."""
    rules = RefRules("scopa", 4, direction="clockwise")
    deck = list(DECK)  # AC AD AH AS 2C 2D ... : one rank per four cards
    state = RefState.from_deck(rules, 0, deck)
    # Leader = next(0) = 3; one card at a time 3, 2, 1, 0: seat 3 gets deck[0], deck[4], deck[8].
    assert state.to_move == 3
    assert state.hands[3] == ["AC", "2C", "3C"]
    assert state.hands[2] == ["AD", "2D", "3D"]
    assert state.hands[1] == ["AH", "2H", "3H"]
    assert state.hands[0] == ["AS", "2S", "3S"]
    assert sort_cards(state.table) == ["4C", "4D", "4H", "4S"]
    state = state.play("AC")  # nothing on the table sums to 1: a trail
    assert state.to_move == 2
    # Counterclockwise the same deck gives seat 1 the first card and seat 1 leads.
    ccw = RefState.from_deck(RefRules("scopa", 4), 0, deck)
    assert ccw.to_move == 1
    assert ccw.hands[1] == ["AC", "2C", "3C"]
    # Later rounds are dealt clockwise from the leader too, and the deal passes clockwise.
    pick = random.Random(1)
    first_round_done = RefState.from_deck(rules, 0, deck)
    stock = list(first_round_done.stock)
    for _ in range(12):
        first_round_done = first_round_done.play(first_round_done.legal_moves()[0])
    assert first_round_done.hands[3] == [stock[0], stock[4], stock[8]]
    assert first_round_done.hands[2] == [stock[1], stock[5], stock[9]]
    assert first_round_done.to_move == 3
    done, _, _ = play_out(first_round_done, pick)
    assert done.next_hand().dealer == 3
    assert done.next_hand().to_move == 2


@pytest.mark.parametrize("game", ["scopa", "escoba", "chkobba"])
def test_direction_two_players_is_the_same_game(game: str) -> None:
    """With 2 players both directions are the same game."""
    for seed in range(5):
        a = RefState.new(RefRules(game), seed)
        b = RefState.new(RefRules(game, direction="clockwise"), seed)
        assert a.snapshot() == b.snapshot()


def test_deal_scopone() -> None:
    """V-S9: 9 cards each from the leader, then 4 on the table; one round; 9 turns each."""
    deck = list(DECK[4:]) + list(DECK[:4])  # the four aces come last: they form the table
    rules = RefRules("scopa", 4, deal="scopone")
    state = RefState.from_deck(rules, 0, deck)
    # Seat 1 gets deck[0], deck[4], ..., deck[32]: the clubs 2..K.
    assert state.hands[1] == [r + "C" for r in "234567JQK"]
    assert state.hands[2] == [r + "D" for r in "234567JQK"]
    assert state.hands[0] == [r + "S" for r in "234567JQK"]
    assert sort_cards(state.table) == ["AC", "AD", "AH", "AS"]
    assert state.stock == []
    assert state.to_move == 1
    done, turns, _ = play_out(state, random.Random(0))
    assert turns == [9, 9, 9, 9]
    assert sorted(done.piles[0] + done.piles[1]) == sorted(DECK)


def test_deal_scientifico() -> None:
    """V-S10: 10 cards each, no table, one round; no redeal or opening sweep can fire."""
    rules = RefRules("scopa", 4, deal="scientifico", redeal="any_ace", opening_sweeps="sum")
    state = RefState.from_deck(rules, 3, list(DECK))
    assert state.redeals == 0
    assert state.table == []
    assert state.stock == []
    assert state.to_move == 0
    assert state.hands[0] == [r + "C" for r in "A234567JQK"]
    assert state.hands[3] == [r + "S" for r in "A234567JQK"]
    done, turns, _ = play_out(state, random.Random(3))
    assert turns == [10, 10, 10, 10]
    assert sorted(done.piles[0] + done.piles[1]) == sorted(DECK)


def test_chkobba_scientifico_cut_card_can_only_be_kept() -> None:
    """choice: with no opening table, the Chkobba cut card can only be kept."""
    rules = RefRules("chkobba", 4, deal="scientifico")
    state = RefState.from_deck(rules, 0, list(DECK))
    assert moves_of(state) == ["keep AC"]
    kept = state.play("keep AC")
    assert kept.hands[1][0] == "AC"
    assert [len(h) for h in kept.hands] == [10, 10, 10, 10]


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        (["AC", "AD", "5H", "6S"], {"two_aces": True, "any_ace": True, "three_kings": False}),
        (["AC", "5D", "5H", "5S"], {"two_aces": False, "any_ace": True, "three_of_a_rank": True}),
        (["KC", "KD", "KH", "2S"], {"three_kings": True, "off": False, "any_ace": False}),
        (["2C", "5D", "5H", "6S"], {"any_ace": False, "three_of_a_rank": False}),
    ],
)
def test_redeal_conditions(table: list[str], expected: dict[str, bool]) -> None:
    """S5, K6, V-S8 (any ace), V-S12 (two aces), off."""
    for mode, redeal in expected.items():
        assert RefRules("scopa", redeal=mode).opening(table) == (redeal, 0), mode


def test_redeal_any_ace_through_a_deal() -> None:
    """An ace on the opening table makes the same dealer reshuffle."""
    table = ["AC", "5D", "6H", "2S"]
    others = rest(table)
    deck = [*others[:6], *table, *others[6:]]
    state = RefState.from_deck(RefRules("scopa", redeal="any_ace"), 1, deck, seed=9)
    assert state.redeals >= 1
    assert not any(c[0] == "A" for c in state.table)
    assert state.dealer == 1
    plain = RefState.from_deck(RefRules("scopa"), 1, deck, seed=9)
    assert plain.redeals == 0
    assert sort_cards(plain.table) == sort_cards(table)


def test_opening_sweeps() -> None:
    """E5 / V-E4 / V-S12 in every game: off, sum, partition."""
    fifteen = ["4C", "5D", "3H", "3S"]  # 4 + 5 + 3 + 3 = 15
    unsplit = ["KC", "KD", "QH", "AS"]  # 10 + 10 + 9 + 1 = 30, no subset makes 15
    assert RefRules("scopa").opening(fifteen) == (False, 0)  # scopa default off
    assert RefRules("scopa", opening_sweeps="sum").opening(fifteen) == (False, 1)
    assert RefRules("scopa", opening_sweeps="sum").opening(unsplit) == (False, 2)
    assert RefRules("scopa", opening_sweeps="partition").opening(unsplit) == (False, 0)
    assert RefRules("escoba", opening_sweeps="off").opening(fifteen) == (False, 0)
    # Chkobba values: Q = 8 (tunisian): 8 + 4 + 2 + 1 = 15; italian Q = 9 gives 16.
    chk_table = ["QC", "4D", "2H", "AS"]
    assert RefRules("chkobba", opening_sweeps="sum").opening(chk_table) == (False, 1)
    italian = RefRules("chkobba", opening_sweeps="sum", chkobba_face_values="italian")
    assert italian.opening(chk_table) == (False, 0)
    # Through a deal: the dealer's side takes the table and is the last capturer.
    others = rest(fifteen)
    deck = [*others[:6], *fifteen, *others[6:]]
    state = RefState.from_deck(RefRules("scopa", opening_sweeps="sum"), 0, deck)
    assert state.table == []
    assert state.sweeps == [1, 0]
    assert sort_cards(state.piles[0]) == sort_cards(fifteen)
    assert state.last_capturer == 0


# --------------------------------------------------------------------- capturing


def test_capture_modes() -> None:
    """S7 match, E7 fifteen, V-S12 match_or_fifteen (union), in any game."""
    table = ["5C", "3D", "7H"]
    assert RefRules("scopa").capture_options(table, "7S") == [fs("7H")]
    # 7 + 5 + 3 = 15; 7 + 7 = 14.
    assert RefRules("scopa", capture="fifteen").capture_options(table, "7S") == [fs("5C", "3D")]
    both = RefRules("scopa", capture="match_or_fifteen").capture_options(table, "7S")
    assert both == [fs("5C", "3D"), fs("7H")]  # masks: 3D(9)+5C(16) < 7H(26)
    assert RefRules("escoba", capture="match").capture_options(table, "7S") == [fs("7H")]
    # Chkobba with fifteen keeps its values: 7 + Q(8) = 15.
    assert RefRules("chkobba", capture="fifteen").capture_options(["QC"], "7S") == [fs("QC")]


def test_fewest_cards() -> None:
    """V-S13: only the options with the fewest cards remain."""
    table = ["AC", "2D", "3H", "4S", "6C"]
    # Sums to 7: {A,6}, {3,4}, {A,2,4}.
    assert len(RefRules("scopa").capture_options(table, "7D")) == 3
    fewest = RefRules("scopa", fewest_cards=True).capture_options(table, "7D")
    assert set(fewest) == {fs("AC", "6C"), fs("3H", "4S")}
    # Escoba 5 needs 10: {4,6}, {A,3,6}, {A,2,3,4}.
    assert len(RefRules("escoba").capture_options(table, "5D")) == 3
    assert RefRules("escoba", fewest_cards=True).capture_options(table, "5D") == [fs("4S", "6C")]


def test_compulsory_capture_off_adds_a_trail() -> None:
    """K-A3 / V-E6: without compulsory capture a card that could capture may also trail."""
    hands: list[list[str]] = [["7D", "KS"], ["2C"]]
    on = position(RefRules("scopa"), hands, ["7C", "2H"])
    assert moves_of(on) == ["7D x 7C", "KS"]
    off = position(RefRules("scopa", compulsory_capture=False), hands, ["7C", "2H"])
    assert moves_of(off) == ["7D", "7D x 7C", "KS"]


def renuncio_rules(game: str = "scopa") -> RefRules:
    """Rules with renuncio on."""
    return RefRules(game, compulsory_capture=False, renuncio=True)


def test_renuncio_claim() -> None:
    """V-E7: the next player may claim a trailed card that could capture; not a sweep or turn."""
    state = position(renuncio_rules(), [["7D", "KC"], ["5S", "2C"]], ["7C"])
    state = state.play("7D")  # 7D could take 7C
    assert state.to_move == 1
    assert state.claimable == "7D"
    assert state.snapshot()["claimable"] == "7D"
    # Moves of seat 1: 2C and 5S trail (nothing on 7C + 7D makes 2 or 5), then the claim last.
    assert moves_of(state) == ["2C", "5S", "claim 7D x 7C"]
    claimed = state.play("claim 7D x 7C")
    assert claimed.table == []
    assert claimed.sweeps == [0, 0]  # a claim is never a sweep
    assert sort_cards(claimed.piles[1]) == ["7C", "7D"]
    assert claimed.last_capturer == 1
    assert claimed.to_move == 1  # not a turn: the claimant now plays
    assert claimed.claimable is None
    assert moves_of(claimed) == ["2C", "5S"]
    # Playing instead lets the chance lapse.
    lapsed = state.play("2C")
    assert lapsed.to_move == 0
    assert lapsed.claimable is None
    assert all(m[0] != "claim" for m in lapsed.legal_moves())


def test_renuncio_only_for_a_card_that_could_capture() -> None:
    """A trail of a card with no capture option cannot be claimed."""
    state = position(renuncio_rules(), [["KC", "7D"], ["5S", "2C"]], ["7C"]).play("KC")
    assert state.claimable is None
    assert moves_of(state) == ["2C", "5S"]


def test_renuncio_claim_options_use_the_table_before_the_trail() -> None:
    """Escoba: claim options are the trailed card's 15s on the table without it."""
    # 5D onto [4C, 6H, KS]: 5 + 4 + 6 = 15, 5 + K(10) = 15: two options.
    state = position(renuncio_rules("escoba"), [["5D", "AC"], ["2S", "3S"]], ["4C", "6H", "KS"])
    state = state.play("5D")
    claims = [m for m in moves_of(state) if m.startswith("claim")]
    assert claims == ["claim 5D x 4C+6H", "claim 5D x KS"]  # mask 4C(12)+6H(22) < KS(39)
    assert pack_move("claim 5D x KS") == (3 << 46) | (17 << 40) | (1 << 39)


def test_no_claim_after_the_final_play() -> None:
    """The hand ends on the final play: there is no next player to claim."""
    state = position(
        renuncio_rules(), [["7D"], []], ["7C"], piles=[rest(["7D", "7C"]), []], last_capturer=1
    )
    state = state.play("7D")
    assert state.hand_over
    assert state.legal_moves() == []
    assert state.snapshot()["claimable"] is None
    assert sort_cards(state.piles[1]) == ["7C", "7D"]  # G7: leftovers to the last capturer


def test_leftovers_without_any_capture() -> None:
    """choice: with optional capture nobody may capture; the leftovers then stay unscored."""
    rules = RefRules("scopa", compulsory_capture=False)
    state = position(rules, [["7D"], []], ["7C"], piles=[rest(["7D", "7C"]), []]).play("7D")
    assert state.hand_over
    assert sort_cards(state.table) == ["7C", "7D"]
    assert sorted(state.leftover) == ["7C", "7D"]
    with pytest.raises(RuntimeError):
        position(RefRules("scopa"), [["KD"], []], ["7C"], piles=[rest(["KD", "7C"]), []]).play("KD")


def test_claim_move_notation() -> None:
    """Claim notation and packing (kind 3 in bits 46-47)."""
    move = parse_move("claim 7D x 3C+5S")
    assert move == ("claim", "7D", fs("3C", "5S"))
    assert pack_move(move) == (3 << 46) | (25 << 40) | (1 << 8) | (1 << 19)
    for bad in ["claim 7D", "claim 7D x", "claim x 3C"]:
        with pytest.raises(ValueError):
            parse_move(bad)


def test_ace_takes_all() -> None:
    """V-S8: an ace takes the whole table, not a sweep; sub-options."""
    hands: list[list[str]] = [["AS", "2S"], ["2C"]]
    table = ["5C", "3D", "7H"]
    plain = position(RefRules("scopa"), hands, table)
    assert moves_of(plain) == ["AS", "2S"]  # nothing sums to 1: the ace trails
    assi = position(RefRules("scopa", ace_takes_all=True), hands, table)
    assert moves_of(assi) == ["AS x 3D+5C+7H", "2S"]
    assert not assi.is_sweep("AS x 3D+5C+7H")
    taken = assi.play("AS x 3D+5C+7H")
    assert taken.sweeps == [0, 0]
    assert taken.table == []
    swept = position(RefRules("scopa", ace_takes_all=True, ace_sweep=True), hands, table)
    assert swept.is_sweep("AS x 3D+5C+7H")
    assert swept.play("AS x 3D+5C+7H").sweeps == [1, 0]
    # An empty table: the ace trails.
    empty = position(RefRules("scopa", ace_takes_all=True), hands, [])
    assert moves_of(empty) == ["AS", "2S"]
    # With an ace on the table the ace takes just that ace (default ace_takes_ace_only).
    with_ace = position(RefRules("scopa", ace_takes_all=True), hands, ["AC", "5D"])
    assert moves_of(with_ace) == ["AS x AC", "2S"]
    whole = RefRules("scopa", ace_takes_all=True, ace_takes_ace_only=False)
    assert moves_of(position(whole, hands, ["AC", "5D"])) == ["AS x AC+5D", "2S"]
    # An ace capturing as an ordinary card and clearing the table is an ordinary sweep.
    alone = position(RefRules("scopa", ace_takes_all=True), hands, ["AC"])
    assert alone.is_sweep("AS x AC")
    # Compulsory capture off: the ace may also trail.
    free = RefRules("scopa", ace_takes_all=True, compulsory_capture=False)
    assert moves_of(position(free, hands, table)) == ["AS", "AS x 3D+5C+7H", "2S"]


def test_last_play_sweep() -> None:
    """S-A4 / V-S5: the final play's sweep is void unless counted."""
    piles = [rest(["7D", "7C"]), []]
    for mode, sweeps in (("void", [0, 0]), ("counts", [1, 0])):
        rules = RefRules("scopa", last_play_sweep=mode)
        state = position(rules, [["7D"], []], ["7C"], piles=piles, last_capturer=1)
        state = state.play("7D x 7C")
        assert state.sweeps == sweeps


# --------------------------------------------------------------------- declarations


@pytest.mark.parametrize(
    ("cards", "options", "points"),
    [
        (["AC", "2D", "3H"], {}, 3),  # 1 + 2 + 3 = 6 < 10
        (["4C", "3D", "2H"], {}, 3),  # 9 < 10
        (["4C", "3D", "3H"], {}, 0),  # 10 is not < 10
        (["5C", "5D", "5H"], {}, 10),  # three of a kind
        (["AC", "AD", "AH"], {}, 10),  # both qualify: the better (10) only
        (["AC", "AD", "AH"], {"declaration_low": 20}, 20),  # the better is now the low one
        (["7H", "5C", "5D"], {}, 10),  # the wild 7H makes three fives
        (["7H", "5C", "5D"], {"declaration_wild": False}, 0),  # 7 + 5 + 5 = 17
        (["7H", "AC", "2D"], {}, 3),  # 7H counts 1: 1 + 1 + 2 = 4
        (["7H", "AC", "2D"], {"declaration_wild": False}, 0),  # 7 + 1 + 2 = 10
        (["KC", "QD", "JH"], {}, 0),
        (["5C", "5D", "5H"], {"declaration_triple": 7}, 7),
        (["AC", "2D", "3H"], {"declaration_low": 0}, 0),
    ],
)
def test_declaration_points(cards: list[str], options: dict[str, Any], points: int) -> None:
    """V-S12 declarations: triple, low total, wild 7 of hearts, the better of the two."""
    assert RefRules("scopa", declarations=True, **options).declaration(cards) == points
    assert RefRules("scopa").declaration(cards) == 0


def test_declarations_through_the_deal_and_report() -> None:
    """Declarations at every deal to the hands, per side, reported as the ``declarations`` bonus."""
    rules = RefRules("scopa", declarations=True)
    seat1 = ["5C", "5D", "5H"]  # triple: 10
    seat0 = ["KC", "QD", "JH"]  # 30: nothing
    table = ["2C", "4D", "6H", "7S"]
    others = rest(seat0, seat1, table)
    deck = [seat1[0], seat0[0], seat1[1], seat0[1], seat1[2], seat0[2], *table, *others]
    state = RefState.from_deck(rules, 0, deck)
    assert state.hands == [seat0, seat1]
    assert state.snapshot()["declarations"] == [0, 10]
    assert state.scores == [0, 0]  # points are added with the hand
    # The next round: seat 1 gets stock[0], stock[2], stock[4].
    stock = state.stock
    after = state
    for _ in range(6):
        after = after.play(after.legal_moves()[0])
    expected = [0, 10]
    expected[1] += rules.declaration([stock[0], stock[2], stock[4]])
    expected[0] += rules.declaration([stock[1], stock[3], stock[5]])
    assert after.declarations == expected
    done, _, _ = play_out(after, random.Random(4))
    report = done.hand_report()
    assert report["bonuses"]["declarations"] == done.declarations
    assert done.declarations[1] >= 10
    # Default rules do not report a declarations bonus and keep the snapshot shape.
    assert "declarations" not in RefState.new(RefRules("scopa"), 0).snapshot()


# --------------------------------------------------------------------- scoring


def test_primiera_figures() -> None:
    """V-S2: flat 10/10/10, graded 8/9/10, zero; a figure is best only alone in its suit."""
    pile = ["JC", "2C", "QD", "KH", "JS"]
    # C: max(10, 12) = 12 in every mode; D, H, S: Q, K, J.
    assert RefRules("scopa").primiera(pile) == 12 + 10 + 10 + 10
    assert RefRules("scopa", primiera_figures="graded").primiera(pile) == 12 + 9 + 10 + 8
    assert RefRules("scopa", primiera_figures="zero").primiera(pile) == 12
    assert RefRules("scopa").primiera_cards(pile) == ["2C", "QD", "KH", "JS"]
    # Awards: A = KC 7D 2H 2S: flat/graded 10+21+12+12 = 55, zero 45.
    # B = JC 7H 2D 3S: flat 10+12+21+13 = 56, graded 8+12+21+13 = 54.
    a, b = ["KC", "7D", "2H", "2S"], ["JC", "7H", "2D", "3S"]
    assert RefRules("scopa").score([a, b], [0, 0])["awards"]["primiera"] == 1
    graded = RefRules("escoba", primiera_figures="graded").score([a, b], [0, 0])
    assert graded["awards"]["setenta"] == 0
    # C = QC QD 7H 7S: flat 62, zero 42 < 45.
    c = ["QC", "QD", "7H", "7S"]
    assert RefRules("scopa").score([a, c], [0, 0])["awards"]["primiera"] == 1
    zero = RefRules("scopa", primiera_figures="zero").score([a, c], [0, 0])
    assert zero["awards"]["primiera"] == 0


def test_primiera_missing_suit() -> None:
    """S-A2 / V-S4: a missing suit is invalid, or counts 0."""
    a, b = ["7C", "7D", "7H"], ["2C", "2D", "2H", "2S"]
    invalid = RefRules("scopa").score([a, b], [0, 0])
    assert invalid["counts"][0]["primiera"] is None
    assert invalid["counts"][0]["primiera_cards"] == ["7C", "7D", "7H"]
    assert invalid["awards"]["primiera"] == 1
    zero = RefRules("scopa", primiera_missing_suit="zero").score([a, b], [0, 0])
    assert zero["counts"][0]["primiera"] == 63  # 21 * 3 + 0 against 12 * 4 = 48
    assert zero["awards"]["primiera"] == 0


def test_primiera_modes() -> None:
    """V-S3 / V-E2: table, most_sevens (cascade 7 6 A 5 4 3 2), three_sevens."""
    # A: three sevens but no spade; B: the rest (every suit, one seven).
    a = ["7C", "7D", "7H", "2C"]
    b = rest(a)
    assert RefRules("scopa").score([a, b], [0, 0])["awards"]["primiera"] == 1  # A invalid
    most = RefRules("scopa", primiera_mode="most_sevens").score([a, b], [0, 0])
    assert most["awards"]["primiera"] == 0  # 3 sevens against 1
    three = RefRules("escoba", primiera_mode="three_sevens").score([a, b], [0, 0])
    assert three["awards"]["setenta"] == 0
    # Every rank A..7 split 2-2 (A holds clubs and diamonds): the cascade ties throughout.
    c = [r + s for r in "A234567" for s in "CD"]
    d = rest(c)
    assert (
        RefRules("scopa", primiera_mode="most_sevens").score([c, d], [0, 0])["awards"]["primiera"]
        is None
    )
    assert RefRules("scopa").score([c, d], [0, 0])["awards"]["primiera"] == 1  # C invalid
    # Sevens 2-2, sixes 3-1: the sixes decide; three_sevens falls back to the table.
    e = ["7C", "7D", "6C", "6D", "6H"]
    f = ["7H", "7S", "6S", "KC", "KD", "QH", "AS"]
    assert (
        RefRules("scopa", primiera_mode="most_sevens").score([e, f], [0, 0])["awards"]["primiera"]
        == 0
    )
    # Escoba's Fournier sevens stop after the fives (V-E2); Scopa's cascade runs on to the fours.
    g = ["7C", "7D", "6C", "6D", "AC", "AD", "5C", "5D", "4C", "4D", "4H"]
    h = rest(g)  # sevens, sixes, aces, fives 2-2; fours 3-1
    assert (
        RefRules("scopa", primiera_mode="most_sevens").score([g, h], [0, 0])["awards"]["primiera"]
        == 0
    )
    assert (
        RefRules("escoba", primiera_mode="most_sevens").score([g, h], [0, 0])["awards"]["setenta"]
        is None
    )
    # Table: E has no spade (invalid), F = 10 + 10 + 21 + 21 = 62 valid.
    assert (
        RefRules("scopa", primiera_mode="three_sevens").score([e, f], [0, 0])["awards"]["primiera"]
        == 1
    )


def test_bermila_modes() -> None:
    """K14 and V-K2: sevens_then_sixes, cascade, primiera."""
    a = ["7C", "7D", "6C", "6D", "AC", "AD", "AH"]
    b = ["7H", "7S", "6H", "6S", "AS"]
    assert RefRules("chkobba").score([a, b], [0, 0])["awards"]["bermila"] is None  # 2-2, 2-2
    cascade = RefRules("chkobba", bermila="cascade").score([a, b], [0, 0])
    assert cascade["awards"]["bermila"] == 0  # aces 3-1
    # A has no spade and B no club: both primieras invalid.
    assert (
        RefRules("chkobba", bermila="primiera").score([a, b], [0, 0])["awards"]["bermila"] is None
    )
    c = ["7C", "7D", "6C", "6D", "KH", "KS"]  # 21 + 21 + 10 + 10 = 62
    d = ["7H", "7S", "6H", "6S"]  # no club or diamond: invalid
    assert RefRules("chkobba").score([c, d], [0, 0])["awards"]["bermila"] is None
    assert RefRules("chkobba", bermila="cascade").score([c, d], [0, 0])["awards"]["bermila"] is None
    assert RefRules("chkobba", bermila="primiera").score([c, d], [0, 0])["awards"]["bermila"] == 0


def test_report_counts() -> None:
    """ranks, primiera_cards, coin_run and sevens / sixes per side."""
    a = ["AD", "2D", "3D", "4D", "6D", "7D", "7C", "KC", "AS"]
    b = rest(a)
    report = RefRules("scopa").score([a, b], [0, 0])
    ca, cb = report["counts"]
    assert ca["ranks"] == [2, 1, 1, 1, 0, 1, 2, 0, 0, 1]
    assert cb["ranks"] == [2, 3, 3, 3, 4, 3, 2, 4, 4, 3]
    assert (ca["sevens"], ca["sixes"], cb["sevens"], cb["sixes"]) == (2, 1, 2, 3)
    assert ca["coin_run"] == 4  # A 2 3 4, then 5D is missing
    assert cb["coin_run"] == 0
    assert ca["primiera"] is None  # no heart
    assert ca["primiera_cards"] == ["7C", "7D", "AS"]  # suits present, C D S
    assert cb["primiera_cards"] == ["6C", "5D", "7H", "7S"]
    assert cb["primiera"] == 18 + 15 + 21 + 21
    assert report["bonuses"] == {}


def test_bonuses() -> None:
    """re_bello, napola (+cap), grande, all_coins, all_sevens: points per side, in the points."""
    coins = [r + "D" for r in "A234567JQK"]
    a = [*coins, "7C", "7H", "7S"]  # all coins, all sevens
    b = rest(a)
    rules = RefRules(
        "scopa",
        re_bello=True,
        napola=True,
        grande=5,
        all_coins_bonus=2,
        all_sevens_bonus=3,
    )
    report = rules.score([a, b], [0, 0])
    assert report["bonuses"] == {
        "re_bello": [1, 0],
        "napola": [10, 0],
        "grande": [5, 0],
        "all_coins": [2, 0],
        "all_sevens": [3, 0],
    }
    # A: coins, settebello, primiera (A lacks... nothing: 7C 7D 7H 7S = 84); B: cards (27-13).
    assert report["awards"] == {"cards": 1, "coins": 0, "settebello": 0, "primiera": 0}
    assert report["points"] == [3 + 1 + 10 + 5 + 2 + 3, 1]
    capped = RefRules("scopa", napola=True, napola_cap=5).score([a, b], [0, 0])
    assert capped["bonuses"] == {"napola": [5, 0]}
    # Napola needs A 2 3; a run A 2 3 4 6 7 scores 4; B with 5D and no 3D scores 0.
    c = ["AD", "2D", "3D", "4D", "6D", "7D"]
    d = ["5D", "JD", "QD", "KD"]
    napola = RefRules("escoba", napola=True, grande=4, re_bello=True).score([c, d], [0, 0])
    assert napola["bonuses"] == {"re_bello": [0, 1], "napola": [4, 0], "grande": [0, 4]}
    assert napola["counts"][1]["coin_run"] == 0
    # Two of A 2 3: no napola even with a run of 2.
    e = ["AD", "2D", "4D"]
    no_three = RefRules("chkobba", napola=True).score([e, ["3D"]], [0, 0])
    assert no_three["bonuses"] == {"napola": [0, 0]}
    assert no_three["counts"][0]["coin_run"] == 2


def test_all_coins_wins() -> None:
    """V-S7: all ten coins win the match at the end of the hand; the points are still added."""
    coins = [r + "D" for r in "A234567JQK"]
    piles = [[c for c in coins if c != "7D"], rest(coins, ["7C"])]
    # The napola includes Napoleone (V-S7); it scores its run too (A..K of coins: 10), so
    # its match is to 31.
    cases: list[tuple[dict[str, object], int | None, list[int]]] = [
        ({"all_coins_wins": True}, 0, [2, 1]),
        ({"all_coins_wins": False}, None, [2, 1]),
        ({"napola": True, "target": 31}, 0, [12, 1]),
    ]
    for options, winner, scores in cases:
        rules = RefRules("scopa", **options)
        state = position(rules, [["7D"], []], ["7C"], piles=piles)
        state = state.play("7D x 7C")
        assert state.hand_over
        # Side 0: coins + settebello; side 1: cards (29-11); primiera: both lack a suit.
        assert state.scores == scores
        assert state.winner == winner
        assert state.match_over == (winner is not None)
        assert state.hand_report()["all_coins"] == 0


def test_chkobba_face_values() -> None:
    """K3 / V-K1: Q = 8 takes 2 + 6 (tunisian); Q = 9 cannot (italian)."""
    hands: list[list[str]] = [["QH", "KS"], ["3C"]]
    tunisian = position(RefRules("chkobba"), hands, ["2D", "6S"])
    assert moves_of(tunisian) == ["QH x 2D+6S", "KS"]
    italian = position(RefRules("chkobba", chkobba_face_values="italian"), hands, ["2D", "6S"])
    assert moves_of(italian) == ["QH", "KS"]


def test_cut_card_option() -> None:
    """K5 / V-K5: the cut decision exists only with the cut card on."""
    assert moves_of(RefState.from_deck(RefRules("chkobba"), 0, list(DECK))) == [
        "keep AC",
        "table AC",
    ]
    no_cut = RefState.from_deck(RefRules("chkobba", cut_card=False, redeal="off"), 0, list(DECK))
    assert no_cut.cut_card is None
    assert no_cut.hands[1] == ["AC", "AH", "2C"]  # deck[0], deck[2], deck[4]


def test_numerals_deck_parsing() -> None:
    """V-S14: 8, 9, 10 are read as J, Q, K (not in Chkobba notation)."""
    assert parse_card("8C") == "JC"
    assert parse_card("9H") == "QH"
    assert parse_card("10D") == "KD"
    assert parse_move("10D x 8C+AS") == ("play", "KD", fs("JC", "AS"))
    rules = RefRules("scopa", deck="numerals")
    assert rules.options["deck"] == "numerals"
    assert rules.value("KD") == 10
    state = position(rules, [["KD", "2S"], ["3C"]], ["KC", "5H"])
    assert state.play("10D x 10C").piles[0] == ["KD", "KC"]
    chk = position(RefRules("chkobba"), [["KD", "2S"], ["3C"]], ["KC", "5H"])
    with pytest.raises(ValueError):
        chk.play("10D x 10C")
    assert chk.play("KD x KC").piles[0] == ["KD", "KC"]


# --------------------------------------------------------------------- presets


def test_preset_table() -> None:
    """docs/variants.md "Presets", and keyword overrides on top."""
    assert {
        name: (game, {**({"players": players} if players != 2 else {}), **overrides})
        for name, (game, players, overrides) in DOC_PRESETS.items()
    } == PRESETS
    assert preset_rules("cirulla", target=100).target == 100
    assert preset_rules("scopone").players == 4
    assert preset_rules("cirulla").options["declarations"] is True
    with pytest.raises(ValueError, match="preset"):
        preset_rules("briscola")


EXPECTED_BONUSES = {"cirulla": ["napola", "grande", "declarations"]}


@pytest.mark.parametrize("name", list(DOC_PRESETS))
def test_presets_play_random_matches(name: str) -> None:
    """Every preset plays whole random matches; per-hand invariants hold."""
    rules = preset_rules(name)
    players = rules.players
    per_player = {"standard": 18 if players == 2 else 9, "scopone": 9, "scientifico": 10}[
        rules.options["deal"]
    ]
    for seed in range(3):
        pick = random.Random(seed)
        state = RefState.new(rules, seed)
        hands = 0
        while True:
            before = list(state.scores)
            state, turns, _ = play_out(state, pick)
            hands += 1
            assert turns == [per_player] * players
            assert sorted(state.piles[0] + state.piles[1]) == sorted(DECK)
            report = state.hand_report()
            assert list(report["bonuses"]) == EXPECTED_BONUSES.get(name, [])
            awards = [sum(1 for a in report["awards"].values() if a == s) for s in (0, 1)]
            bonus = [sum(v[s] for v in report["bonuses"].values()) for s in (0, 1)]
            for side in (0, 1):
                assert report["points"][side] == (state.sweeps[side] + awards[side] + bonus[side])
                assert state.scores[side] == before[side] + report["points"][side]
            counts = report["counts"]
            assert [a + b for a, b in zip(counts[0]["ranks"], counts[1]["ranks"], strict=True)] == [
                4
            ] * 10
            if state.match_over:
                break
            assert hands < 200
            state = state.next_hand()


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("escoba", 2, {"compulsory_capture": False, "renuncio": True}),
        ("scopa", 4, {"compulsory_capture": False, "renuncio": True, "direction": "clockwise"}),
        ("chkobba", 4, {"deal": "scopone", "direction": "clockwise", "fewest_cards": True}),
        ("chkobba", 4, {"deal": "scientifico", "bermila": "cascade"}),
        ("escoba", 4, {"capture": "match_or_fifteen", "ace_takes_all": True}),
        ("scopa", 2, {"redeal": "any_ace", "opening_sweeps": "partition", "re_bello": True}),
    ],
)
def test_option_mixes_play_random_hands(game: str, players: int, options: dict[str, Any]) -> None:
    """Mixed options play random hands conserving the 40 cards (claims included)."""
    rules = RefRules(game, players, **options)
    claims = 0
    for seed in range(20):
        state, _, made = play_out(RefState.new(rules, seed), random.Random(seed))
        claims += made
        # Without compulsory capture a hand with no capture leaves its table unowned.
        assert sorted(state.piles[0] + state.piles[1] + state.table) == sorted(DECK)
    if options.get("renuncio"):
        assert claims > 0
