"""Property tests (Hypothesis) of the Rust engine: the invariants of rules.md §6 and the API's
contracts (immutability, errors, serialization, determinism, hidden information).

Strategies draw a game, a player count, options, a seed and a list of action indices; action
``i`` of a walk picks ``actions[i % len(actions)] % len(legal_moves)`` (the first move when the
list is empty). Expected values come from the spec's definitions, computed here from card strings,
never from the engine's own answers. Profiles (``ci``, ``thorough``) are in conftest.py.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterable
from typing import Any

import capturefast as cf
from hypothesis import given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)
from reference import RefRules, RefState
from test_differential import compare_states, play_hand, rust_snapshot
from vectors import DECK

GAMES: tuple[str, ...] = ("scopa", "escoba", "chkobba")
SEVEN_OF_COINS = "7D"
CATEGORY_POINTS = 4  # I5: cards, coins, the 7 of coins and primiera/setenta/bermila

# Option values per game that both engines accept (rules.md §7); the first is the default.
OPTION_CHOICES: dict[str, dict[str, tuple[Any, ...]]] = {
    "scopa": {
        "last_play_sweep": ("void", "counts"),
        "primiera_missing_suit": ("invalid", "zero"),
    },
    "escoba": {
        "last_play_sweep": ("void", "counts"),
        "primiera_missing_suit": ("invalid", "zero"),
        "opening_sweeps": ("sum", "partition", "off"),
    },
    "chkobba": {
        "last_play_sweep": ("void", "counts"),
        "chkobba_face_values": ("tunisian", "italian"),
        "cut_card": (True, False),
        "redeal": ("three_of_a_rank", "three_kings", "off"),
    },
}
PRIMIERA_POINTS: dict[str, int] = {  # S-A1 / E11
    "7": 21,
    "6": 18,
    "A": 16,
    "5": 15,
    "4": 14,
    "3": 13,
    "2": 12,
    "J": 10,
    "Q": 10,
    "K": 10,
}
VALUES: dict[str, dict[str, int]] = {
    "italian": {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10},
    "tunisian": {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "Q": 8, "J": 9, "K": 10},
}

seeds = st.integers(min_value=0, max_value=2**64 - 1)
action_lists = st.lists(st.integers(min_value=0, max_value=10_000), max_size=80)


def fewer(divisor: int) -> settings:
    """The loaded profile's settings with ``max_examples`` divided (for the slower tests)."""
    return settings(max_examples=max(10, settings.default.max_examples // divisor))


@st.composite
def game_configs(draw: st.DrawFn) -> tuple[str, int, dict[str, Any]]:
    """A game, a player count and a (possibly empty) set of non-default options."""
    game = draw(st.sampled_from(GAMES))
    players = draw(st.sampled_from((2, 4)))
    options: dict[str, Any] = {}
    for name, choices in OPTION_CHOICES[game].items():
        if draw(st.integers(0, 3)) == 0:  # mostly the defaults
            options[name] = draw(st.sampled_from(choices))
    return game, players, options


def make_rules(config: tuple[str, int, dict[str, Any]]) -> cf.Rules:
    """The Rust rules of a drawn configuration."""
    game, players, options = config
    return cf.Rules(game, players, **options)


def value_table(rules: cf.Rules) -> dict[str, int]:
    """Capture values by rank (K3, S3, E3, V-K1), from the spec, not from the engine."""
    if rules.game == "chkobba" and rules.options["chkobba_face_values"] == "tunisian":
        return VALUES["tunisian"]
    return VALUES["italian"]


def strs(cards: Iterable[cf.Card]) -> list[str]:
    """Card strings."""
    return [str(c) for c in cards]


def choose(moves: list[cf.Move], actions: list[int], step: int) -> cf.Move:
    """The move that action ``step`` picks."""
    if not actions:
        return moves[0]
    return moves[actions[step % len(actions)] % len(moves)]


def is_final_play(state: cf.State) -> bool:
    """K-A5: the next play is the single final play of the hand."""
    return state.phase == "play" and not state.stock and sum(len(h) for h in state.hands) == 1


def all_zones(state: cf.State) -> list[str]:
    """Every card the state holds: hands, table, stock, piles and a pending cut card."""
    cards = [c for h in state.hands for c in strs(h)]
    cards += strs(state.table) + strs(state.stock) + [c for p in state.piles for c in strs(p)]
    if state.cut_card is not None:
        cards.append(str(state.cut_card))
    return cards


def walk(
    rules: cf.Rules, seed: int, actions: list[int], steps: int, *, stop_at_hand_end: bool = True
) -> list[cf.State]:
    """The states of a random walk of at most ``steps`` moves from ``State.new(rules, seed)``."""
    state = cf.State.new(rules, seed)
    states = [state]
    for step in range(steps):
        if state.hand_over:
            if stop_at_hand_end or state.match_over:
                break
            state = state.next_hand()
        else:
            state = state.play(choose(state.legal_moves(), actions, step))
        states.append(state)
    return states


def last_play_phase(states: list[cf.State]) -> cf.State:
    """The last state of a walk in which a card is to be played (no cut decision pending).

    A walk that never left the Chkobba cut phase is continued with the ``keep`` decision.
    """
    for state in reversed(states):
        if state.phase == "play":
            return state
    state = states[-1]
    while state.phase == "cut":
        state = state.play(state.legal_moves()[0])
    return state


def position_of(state: cf.State) -> dict[str, Any]:
    """The ``from_position`` arguments of a play-phase state, taken from its attributes."""
    return {
        "hands": state.hands,
        "table": state.table,
        "stock": state.stock,
        "to_move": state.to_move,
        "dealer": state.dealer,
        "last_capturer": state.last_capturer,
        "piles": state.piles,
        "sweeps": state.sweeps,
        "scores": state.scores,
    }


# --------------------------------------------------------------------- §6 invariants in play


def check_step(rules: cf.Rules, state: cf.State, moves: list[cf.Move]) -> None:
    """Invariants of one position with its legal moves (I1, I3, sweep flags, move order)."""
    packed = [m.to_int() for m in moves]
    assert packed == sorted(set(packed)), "legal moves must be unique and in packed order"
    assert moves, "no legal move before the hand is over"
    if state.phase == "cut":
        cut = str(state.cut_card)
        assert [str(m) for m in moves] == [f"keep {cut}", f"table {cut}"]
        assert not any(m.sweep for m in moves)
        return
    table = frozenset(strs(state.table))
    hand = set(strs(state.hands[state.to_move]))
    assert {str(m.card) for m in moves} == hand, "K-A3: any card of the hand may be played"
    final = is_final_play(state)
    counts = rules.options["last_play_sweep"] == "counts"
    by_card: dict[str, list[frozenset[str]]] = {}
    for m in moves:
        captures = frozenset(strs(m.captures))
        assert m.kind == "play"
        assert captures <= table
        by_card.setdefault(str(m.card), []).append(captures)
        # Conventions / K11 / S-A4: a sweep takes the whole non-empty table, and the final play
        # of the hand scores none unless last_play_sweep = counts.
        assert m.sweep == (bool(captures) and captures == table and (counts or not final)), m
        assert m.is_trail == (not captures)
    for card, options in by_card.items():
        # A trail is the only move of its card, and only when nothing can be taken (K9c).
        if frozenset() in options:
            assert options == [frozenset()], card
        # I1: a card that can sweep has no other option.
        if table and table in options:
            assert options == [table], f"I1: {card} sweeps but has other options {options}"
    if rules.game == "scopa" and sum(1 for c in table if c[0] == "K") >= 3:
        # I3: with three kings on the table nothing can sweep.
        assert not any(table in options for options in by_card.values())


def primiera(pile: list[str], missing_suit: str) -> int | None:
    """The primiera / setenta of a pile (S11, E11), None when a suit is missing and invalid."""
    total = 0
    for suit in "CDHS":
        points = [PRIMIERA_POINTS[c[0]] for c in pile if c[1] == suit]
        if points:
            total += max(points)
        elif missing_suit == "invalid":
            return None
    return total


def check_hand_end(
    rules: cf.Rules, state: cf.State, scores_before: list[int], played_sweeps: list[int]
) -> None:
    """Invariants of a finished hand (G7, I4, I5, the scoring categories)."""
    assert state.legal_moves() == []
    assert state.to_move is None
    assert state.phase == ("match_over" if state.match_over else "hand_over")
    assert not state.table and not state.stock and not any(state.hands)
    assert state.last_capturer is not None, "I4: someone captured"
    piles = [strs(p) for p in state.piles]
    # I5: conservation.
    assert sorted(piles[0] + piles[1]) == sorted(DECK)
    coins = [sum(1 for c in p if c[1] == "D") for p in piles]
    sevens = [sum(1 for c in p if c[0] == "7") for p in piles]
    sixes = [sum(1 for c in p if c[0] == "6") for p in piles]
    assert sum(coins) == 10 and sum(sevens) == 4 and sum(sixes) == 4
    report = state.hand_report()
    assert list(report.sweeps) == list(state.sweeps) == played_sweeps
    for side in (0, 1):
        assert report.counts[side]["cards"] == len(piles[side])
        assert report.counts[side]["coins"] == coins[side]
        if rules.game == "chkobba":
            assert report.counts[side]["sevens"] == sevens[side]
            assert report.counts[side]["sixes"] == sixes[side]

    def more(a: int, b: int) -> int | None:
        return None if a == b else (0 if a > b else 1)

    cards_name, coins_name, seven_name, best_name = {
        "scopa": ("cards", "coins", "settebello", "primiera"),
        "escoba": ("cards", "coins", "velo", "setenta"),
        "chkobba": ("karta", "dinari", "7ayya", "bermila"),
    }[rules.game]
    awards = dict(report.awards)
    assert set(awards) == {cards_name, coins_name, seven_name, best_name}
    assert awards[cards_name] == more(len(piles[0]), len(piles[1]))
    assert awards[coins_name] == more(coins[0], coins[1])
    assert awards[seven_name] == (0 if SEVEN_OF_COINS in piles[0] else 1)
    if rules.game == "chkobba":
        # K14: more sevens, then more sixes.
        bermila = more(sevens[0], sevens[1])
        assert awards[best_name] == (bermila if bermila is not None else more(*sixes))
    else:
        # S11 / E11 / S-A2 / E-A5 / V-S4: best card per suit; valid beats invalid.
        prime = [primiera(p, rules.options["primiera_missing_suit"]) for p in piles]
        assert [report.counts[i]["primiera"] for i in (0, 1)] == prime
        if prime[0] is None or prime[1] is None:
            best = None if prime == [None, None] else (1 if prime[0] is None else 0)
        else:
            best = more(prime[0], prime[1])
        assert awards[best_name] == best
    # I5: 4 category points less the ties, plus one per sweep.
    ties = sum(1 for a in awards.values() if a is None)
    assert sum(report.points) == CATEGORY_POINTS - ties + sum(played_sweeps)
    for side in (0, 1):
        won = sum(1 for a in awards.values() if a == side)
        assert report.points[side] == won + played_sweeps[side]
    assert list(state.scores) == [scores_before[i] + report.points[i] for i in (0, 1)]
    assert report.scores is not None and list(report.scores) == list(state.scores)
    assert [sorted(p) for p in report.piles] == [sorted(p) for p in piles]


def check_opening(rules: cf.Rules, state: cf.State) -> list[int]:
    """The first play position of a hand; returns the sweeps the deal itself scored (E5)."""
    sweeps = list(state.sweeps)
    assert all(len(h) == 3 for h in state.hands)
    assert len(state.stock) == 40 - 4 - 3 * rules.players  # G3
    if rules.game != "escoba":
        assert sweeps == [0, 0] and len(state.table) == 4 and not any(state.piles)
        kings = sum(1 for c in strs(state.table) if c[0] == "K")
        if rules.game == "scopa" or rules.options.get("redeal") == "three_kings":
            assert kings < 3, "S5: three kings on the opening table must be redealt"
        if rules.options.get("redeal") == "three_of_a_rank":
            ranks = [c[0] for c in strs(state.table)]
            assert max(ranks.count(r) for r in ranks) < 3, "K6: three of a rank is redealt"
        return sweeps
    # E5 / E-A1 / V-E4: a table of 15 (30) goes to the dealer's side with 1 (2) escobas.
    values = value_table(rules)
    partition = rules.options["opening_sweeps"] == "partition"

    def dealer_takes(cards: list[str]) -> int:
        opening_total = sum(values[c[0]] for c in cards)
        if rules.options["opening_sweeps"] == "off":
            return 0
        if opening_total == 15:
            return 1
        splits = any(
            sum(values[c[0]] for i, c in enumerate(cards) if mask >> i & 1) == 15
            for mask in range(1, 1 << len(cards))
        )
        return 2 if opening_total == 30 and (splits or not partition) else 0

    dealer_side = state.dealer % 2
    if sum(sweeps) == 0:
        assert len(state.table) == 4 and not any(state.piles)
        assert dealer_takes(strs(state.table)) == 0, "E5: the dealer must take this table"
        assert state.last_capturer is None
    else:
        taken = strs(state.piles[dealer_side])
        assert not state.table and len(taken) == 4 and not state.piles[1 - dealer_side]
        assert sweeps[1 - dealer_side] == 0
        assert sweeps[dealer_side] == dealer_takes(taken)
        assert state.last_capturer == state.dealer, "E-A2: the dealer captured last"
    return sweeps


def check_move_effect(rules: cf.Rules, state: cf.State, move: cf.Move, nxt: cf.State) -> None:
    """What one play does (G4, G6, G7, G3 later rounds, I2), derived from the spec alone."""
    n = rules.players
    seat = state.to_move
    assert seat is not None
    side = seat % 2
    card = str(move.card)
    caps = set(strs(move.captures))
    table = set(strs(state.table))
    piles = [set(strs(p)) for p in state.piles]
    # The table after the play, before any end-of-hand sweep-up.
    table_after = table - caps if caps else table | {card}
    last_capturer = seat if caps else state.last_capturer
    if caps:  # G6: the played card and the captured cards go to the mover's side
        piles[side] |= caps | {card}
    hands = [set(strs(h)) for h in state.hands]
    hands[seat].discard(card)
    stock = strs(state.stock)
    if nxt.hand_over:
        # G7: the leftovers go to the last capturer's side; it is never a sweep.
        assert last_capturer is not None, "I4: leftovers need a last capturer"
        piles[last_capturer % 2] |= table_after
        assert list(nxt.sweeps) == [
            state.sweeps[i] + (1 if move.sweep and i == side else 0) for i in (0, 1)
        ]
        if rules.game == "escoba":
            # I2 / E-A4: the final table totals 10 mod 15, so it is never empty.
            values = value_table(rules)
            left_total = sum(values[c[0]] for c in table_after)
            assert left_total % 15 == 10 and left_total >= 10, f"I2: final table {table_after}"
        table_after = set()
        assert nxt.to_move is None
    elif not any(hands):
        # G3: a new round, 3 cards each from the front of the stock, one at a time from d+1.
        leader = (state.dealer + 1) % n
        for i in range(3 * n):
            hands[(leader + i) % n].add(stock[i])
        stock = stock[3 * n :]
        assert nxt.to_move == leader, "G5: every round is led by seat d+1"
    else:
        assert nxt.to_move == (seat + 1) % n
    assert set(strs(nxt.table)) == table_after
    assert [set(strs(h)) for h in nxt.hands] == hands
    assert strs(nxt.stock) == stock
    assert [set(strs(p)) for p in nxt.piles] == piles
    assert nxt.last_capturer == last_capturer
    if not nxt.hand_over:
        assert list(nxt.sweeps) == [
            state.sweeps[i] + (1 if move.sweep and i == side else 0) for i in (0, 1)
        ]
        assert list(nxt.scores) == list(state.scores)
    assert nxt.dealer == state.dealer


def play_checked_hand(
    rules: cf.Rules, state: cf.State, actions: list[int], offset: int = 0
) -> cf.State:
    """Play one hand from its deal with every per-step and end-of-hand check."""
    n = rules.players
    scores_before = list(state.scores)
    step = offset
    while state.phase == "cut":
        check_step(rules, state, state.legal_moves())
        state = state.play(choose(state.legal_moves(), actions, step))
        step += 1
    sweeps = check_opening(rules, state)
    leader = (state.dealer + 1) % n
    plays = [0] * n
    captured = sum(sweeps) > 0
    while not state.hand_over:
        moves = state.legal_moves()
        check_step(rules, state, moves)
        # I6 / G5: seats play in order from the leader, so every round starts with seat d+1.
        assert state.to_move == (leader + sum(plays)) % n, "I6: wrong seat to move"
        move = choose(moves, actions, step)
        final = is_final_play(state)
        before = state.to_bytes()
        nxt = state.play(move)
        assert state.to_bytes() == before, "play() changed the receiver"
        check_move_effect(rules, state, move, nxt)
        plays[state.to_move] += 1
        if move.sweep:
            sweeps[state.to_move % 2] += 1
        if not move.is_trail:
            captured = True
        assert nxt.hand_over == final, "the hand ends exactly after the final play"
        state = nxt
        step += 1
    assert captured, "I4: someone captures in every hand"
    per_player = 36 // n
    assert plays == [per_player] * n, f"I6: each player plays {per_player} cards, got {plays}"
    check_hand_end(rules, state, scores_before, sweeps)
    return state


@given(config=game_configs(), seed=seeds, actions=action_lists)
def test_hand_invariants(
    config: tuple[str, int, dict[str, Any]], seed: int, actions: list[int]
) -> None:
    """A whole random hand satisfies I1-I6, the sweep definition and the scoring categories."""
    rules = make_rules(config)
    play_checked_hand(rules, cf.State.new(rules, seed), actions)


@fewer(5)
@given(config=game_configs(), seed=seeds, actions=action_lists)
def test_match_invariants(
    config: tuple[str, int, dict[str, Any]], seed: int, actions: list[int]
) -> None:
    """Every hand of a whole match keeps the invariants; the match ends as K15/S12/E12 say."""
    game, players, options = config
    rules = cf.Rules(game, players, **{**options, "target": 7})
    state = cf.State.new(rules, seed)
    hands = 0
    while True:
        dealer = state.dealer
        state = play_checked_hand(rules, state, actions, offset=hands)
        hands += 1
        a, b = state.scores
        reached = [a >= 7, b >= 7]
        if reached == [True, False] or (all(reached) and a > b):
            assert state.match_over and state.winner == 0
        elif reached == [False, True] or (all(reached) and b > a):
            assert state.match_over and state.winner == 1
        else:  # nobody at the target, or both at it with equal totals: play on
            assert not state.match_over and state.winner is None
        if state.match_over:
            break
        assert hands < 60
        state = state.next_hand()
        assert state.dealer == (dealer + 1) % players, "K4: the deal passes to seat d+1"
        assert state.hand_number == hands


# --------------------------------------------------------------------- capture rule oracle


@st.composite
def table_and_card(draw: st.DrawFn) -> tuple[list[str], str]:
    """A random table (0-12 cards) and a card that is not on it."""
    cards = draw(st.permutations(DECK))
    size = draw(st.integers(0, 12))
    return list(cards[:size]), cards[size]


@given(config=game_configs(), case=table_and_card())
def test_capture_options_random_tables(
    config: tuple[str, int, dict[str, Any]], case: tuple[list[str], str]
) -> None:
    """``Rules.capture_options`` follows S7/K9/E7 on random tables; I1 and I3 hold there."""
    rules = make_rules(config)
    table, card = case
    values = value_table(rules)
    got = [frozenset(strs(o)) for o in rules.capture_options(table, card)]
    assert len(set(got)) == len(got), "a capture option is listed twice"
    want = {frozenset(o) for o in RefRules(*config[:2], **config[2]).capture_options(table, card)}
    assert set(got) == want
    v = values[card[0]]
    for option in got:
        total = sum(values[c[0]] for c in option)
        if rules.game == "escoba":
            assert option and total + v == 15, "E7: card and captured cards total 15"
        else:
            assert total == v, "S7/K9: the captured cards total the card's value"
            equal = [c for c in table if values[c[0]] == v]
            assert len(option) == 1 if equal else len(option) >= 2, "K9a: equal card first"
    if table and frozenset(table) in got:
        assert got == [frozenset(table)], "I1"
    if rules.game == "scopa" and sum(1 for c in table if c[0] == "K") >= 3:
        assert frozenset(table) not in got, "I3"


@given(
    kings=st.sets(st.sampled_from(["KC", "KD", "KH", "KS"]), min_size=3),
    others=st.sets(st.sampled_from([c for c in DECK if c[0] != "K"]), max_size=8),
    card=st.sampled_from(DECK),
)
def test_scopa_three_kings_never_sweep(kings: set[str], others: set[str], card: str) -> None:
    """I3: with three or more kings on a Scopa table no capture takes the whole table."""
    table = sorted(kings | others)
    if card in table:
        return
    rules = cf.Rules.scopa()
    for option in rules.capture_options(table, card):
        assert set(strs(option)) != set(table)
        assert len(option) == 1 or not any(str(c)[0] == "K" for c in option)


# --------------------------------------------------------------------- API contracts


def illegal_moves(state: cf.State) -> list[cf.Move]:
    """Moves that the spec makes illegal in ``state`` (G4, K9/S7/E7, K5)."""
    if state.hand_over:
        return [cf.Move("7D"), cf.Move("keep 7D"), cf.Move("AC x 2C")]
    moves = state.legal_moves()
    if state.phase == "cut":
        cut = str(state.cut_card)
        other = next(c for c in DECK if c != cut)
        return [cf.Move(cut), cf.Move(f"keep {other}"), cf.Move(f"table {other}")]
    mover = state.to_move
    assert mover is not None
    hand = strs(state.hands[mover])
    table = strs(state.table)
    out = [cf.Move(f"keep {hand[0]}"), cf.Move(f"table {hand[0]}")]
    out += [cf.Move(c) for c in DECK if c not in hand][:3]  # a card the mover does not hold
    for seat, other_hand in enumerate(state.hands):
        if seat != mover and other_hand:
            out.append(cf.Move(str(other_hand[0])))
    for m in moves:
        if m.is_trail:
            continue
        card = str(m.card)
        out.append(cf.Move(card))  # trailing a card that can capture (compulsory capture)
        caps = strs(m.captures)
        extra = [c for c in table if c not in caps]
        if extra:  # a legal capture plus one more table card: the total is too high
            out.append(cf.Move.play(card, [*caps, extra[0]]))
        off_table = next(c for c in DECK if c not in table and c != card)
        out.append(cf.Move.play(card, [*caps, off_table]))  # a card that is not on the table
    if not table:
        out.append(cf.Move.play(hand[0], [next(c for c in DECK if c not in hand)]))
    return out


@given(config=game_configs(), seed=seeds, actions=action_lists, k=st.integers(0, 45))
def test_illegal_moves_raise_and_change_nothing(
    config: tuple[str, int, dict[str, Any]], seed: int, actions: list[int], k: int
) -> None:
    """An illegal move raises IllegalMoveError (a ValueError) and leaves the state unchanged."""
    rules = make_rules(config)
    state = walk(rules, seed, actions, k)[-1]
    before = state.to_bytes()
    legal = {str(m) for m in state.legal_moves()}
    for move in illegal_moves(state):
        assert str(move) not in legal, f"{move} is listed as legal"
        note(f"move {move}")
        try:
            state.play(move)
        except cf.IllegalMoveError as err:
            assert isinstance(err, ValueError)
        else:
            raise AssertionError(f"illegal move {move} was accepted")
        assert state.to_bytes() == before
        try:
            state.play(str(move))
        except cf.IllegalMoveError:
            pass
        else:
            raise AssertionError(f"illegal move text {move} was accepted")
    assert state.to_bytes() == before


@fewer(2)
@given(config=game_configs(), seed=seeds, actions=action_lists)
def test_bytes_and_pickle_round_trips(
    config: tuple[str, int, dict[str, Any]], seed: int, actions: list[int]
) -> None:
    """``from_bytes(to_bytes())`` and pickle give back an equal state, at every step."""
    rules = make_rules(config)
    for state in walk(rules, seed, actions, 120, stop_at_hand_end=False):
        data = state.to_bytes()
        back = cf.State.from_bytes(rules, data)
        assert back == state
        assert back.to_bytes() == data
        assert hash(back) == hash(state)
        assert rust_snapshot(back) == rust_snapshot(state)
        assert [str(m) for m in back.legal_moves()] == [str(m) for m in state.legal_moves()]
        pickled = pickle.loads(pickle.dumps(state))
        assert pickled == state
        assert pickled.rules == rules
        assert pickled.to_bytes() == data


@fewer(2)
@given(config=game_configs(), seed=seeds, actions=action_lists)
def test_same_seed_same_trajectory(
    config: tuple[str, int, dict[str, Any]], seed: int, actions: list[int]
) -> None:
    """The same rules, seed and choices give the same states, across hands."""
    rules = make_rules(config)
    first = walk(rules, seed, actions, 100, stop_at_hand_end=False)
    second = walk(make_rules(config), seed, actions, 100, stop_at_hand_end=False)
    assert len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        assert a == b
        assert a.to_bytes() == b.to_bytes()


def view_fields(view: cf.View) -> dict[str, Any]:
    """Everything a view exposes, as plain values."""
    return {
        "seat": view.seat,
        "hand": sorted(strs(view.hand), key=DECK.index),
        "table": sorted(strs(view.table), key=DECK.index),
        "piles": [sorted(strs(p), key=DECK.index) for p in view.piles],
        "unseen": sorted(strs(view.unseen)),
        "sweeps": list(view.sweeps),
        "scores": list(view.scores),
        "hand_sizes": list(view.hand_sizes),
        "stock_size": view.stock_size,
        "dealer": view.dealer,
        "to_move": view.to_move,
        "last_capturer": view.last_capturer,
        "cut_card": None if view.cut_card is None else str(view.cut_card),
        "phase": view.phase,
        "legal_moves": [(str(m), m.sweep) for m in view.legal_moves()],
    }


@given(
    config=game_configs(),
    seed=seeds,
    actions=action_lists,
    k=st.integers(0, 45),
    observer=st.integers(0, 3),
    shuffle=st.randoms(use_true_random=False),
)
def test_view_ignores_hidden_cards(
    config: tuple[str, int, dict[str, Any]],
    seed: int,
    actions: list[int],
    k: int,
    observer: int,
    shuffle: random.Random,
) -> None:
    """A seat's view does not change when only cards hidden from it move around."""
    rules = make_rules(config)
    state = last_play_phase(walk(rules, seed, actions, k))
    n = rules.players
    seat = observer % n
    position = position_of(state)
    original = cf.State.from_position(rules, **position)
    # Deal the hidden cards (other seats' hands and the stock) again, keeping every size.
    hands = [strs(h) for h in state.hands]
    slots = [(s, len(hands[s])) for s in range(n) if s != seat]
    hidden = [c for s, _ in slots for c in hands[s]] + strs(state.stock)
    shuffle.shuffle(hidden)
    new_hands = [list(h) for h in hands]
    at = 0
    for s, size in slots:
        new_hands[s] = hidden[at : at + size]
        at += size
    swapped = cf.State.from_position(
        rules, **{**position, "hands": new_hands, "stock": hidden[at:]}
    )
    expected_unseen = sorted(c for s, _ in slots for c in hands[s]) + strs(state.stock)
    seen = view_fields(original.view(seat))
    assert seen == view_fields(swapped.view(seat))
    assert seen == view_fields(state.view(seat))
    assert original.view(seat) == swapped.view(seat)
    assert seen["hand"] == sorted(hands[seat], key=DECK.index)
    assert seen["unseen"] == sorted(expected_unseen)
    assert seen["hand_sizes"] == [len(h) for h in hands]
    assert seen["stock_size"] == len(state.stock)
    # A seat whose own hand changed does see the difference.
    for s, _ in slots:
        if sorted(new_hands[s]) != sorted(hands[s]):
            assert view_fields(original.view(s)) != view_fields(swapped.view(s))


@fewer(2)
@given(config=game_configs(), seed=seeds, actions=action_lists)
def test_view_legal_moves_equal_state_legal_moves(
    config: tuple[str, int, dict[str, Any]], seed: int, actions: list[int]
) -> None:
    """The seat to move sees exactly the state's legal moves (with sweep flags); others none."""
    rules = make_rules(config)
    for state in walk(rules, seed, actions, 60):
        want = [(str(m), m.sweep) for m in state.legal_moves()]
        for seat in range(rules.players):
            view = state.view(seat)
            got = [(str(m), m.sweep) for m in view.legal_moves()]
            assert got == (want if seat == state.to_move else [])
            shown = None
            if state.cut_card is not None and seat == state.to_move:
                shown = str(state.cut_card)  # K-A4: only the cutter sees the cut card
            assert (None if view.cut_card is None else str(view.cut_card)) == shown
            visible = set(strs(state.hands[seat])) | set(strs(state.table))
            visible |= {c for pile in state.piles for c in strs(pile)} | {shown}
            assert sorted(strs(view.unseen)) == sorted(c for c in DECK if c not in visible)


@given(
    config=game_configs(),
    seed=seeds,
    actions=action_lists,
    k=st.integers(0, 45),
    later_seed=seeds,
    pick_seed=st.integers(0, 2**32),
)
def test_from_position_matches_reference(
    config: tuple[str, int, dict[str, Any]],
    seed: int,
    actions: list[int],
    k: int,
    later_seed: int,
    pick_seed: int,
) -> None:
    """A reachable position rebuilt by ``from_position`` plays on exactly like the reference."""
    rules = make_rules(config)
    state = last_play_phase(walk(rules, seed, actions, k))
    position = position_of(state)
    rebuilt = cf.State.from_position(rules, **position, seed=later_seed)
    assert rust_snapshot(rebuilt) == rust_snapshot(state)
    assert [str(m) for m in rebuilt.legal_moves()] == [str(m) for m in state.legal_moves()]
    ref = RefState.from_position(
        RefRules(*config[:2], **config[2]),
        [strs(h) for h in state.hands],
        strs(state.table),
        strs(state.stock),
        int(state.to_move or 0),
        state.dealer,
        state.last_capturer,
        [strs(p) for p in state.piles],
        list(state.sweeps),
        list(state.scores),
        seed=later_seed,
    )
    compare_states(rebuilt, ref, "rebuilt position")
    rebuilt, ref = play_hand(rebuilt, ref, random.Random(pick_seed), "rebuilt position")
    if not ref.match_over:
        compare_states(rebuilt.next_hand(), ref.next_hand(), "next deal after from_position")


def test_count_attributes_are_lists_of_ints() -> None:
    """Per-side and per-seat counts are ``list[int]`` as the stubs and HandReport declare."""
    rules = cf.Rules.scopa()
    state = cf.State.new(rules, 1)
    view = state.view(0)
    report = rules.score([DECK[:20], DECK[20:]], [1, 0])
    for name, value in {
        "State.sweeps": state.sweeps,
        "State.scores": state.scores,
        "View.sweeps": view.sweeps,
        "View.scores": view.scores,
        "View.hand_sizes": view.hand_sizes,
        "HandReport.points": report.points,
        "HandReport.sweeps": report.sweeps,
    }.items():
        assert isinstance(value, list), f"{name} is {type(value).__name__}, not list: {value!r}"
        assert all(type(x) is int for x in value), name
    assert report.sweeps == [1, 0]
    assert cf.HandReport.from_dict(report.to_dict()) == report


# --------------------------------------------------------------------- state machine


class StateMachine(RuleBasedStateMachine):
    """Random play, illegal moves and new hands on one ``State``, with global invariants."""

    def __init__(self) -> None:
        super().__init__()
        self.rules = cf.Rules.scopa()
        self.state = cf.State.new(self.rules, 0)
        self.scores = [0, 0]
        self.hand_number = 0

    @initialize(config=game_configs(), seed=seeds)
    def start(self, config: tuple[str, int, dict[str, Any]], seed: int) -> None:
        """A new match."""
        self.rules = make_rules(config)
        self.state = cf.State.new(self.rules, seed)
        self.scores = list(self.state.scores)

    @precondition(lambda self: not self.state.hand_over)
    @rule(index=st.integers(0, 10_000))
    def play_legal_move(self, index: int) -> None:
        """Play one of the legal moves."""
        moves = self.state.legal_moves()
        assert moves
        before = self.state.to_bytes()
        nxt = self.state.play(moves[index % len(moves)])
        assert self.state.to_bytes() == before
        self.state = nxt

    @rule(index=st.integers(0, 10_000))
    def try_illegal_move(self, index: int) -> None:
        """An illegal move is refused and changes nothing."""
        moves = illegal_moves(self.state)
        move = moves[index % len(moves)]
        before = self.state.to_bytes()
        try:
            self.state.play(move)
        except cf.IllegalMoveError as err:
            assert isinstance(err, ValueError)
        else:
            raise AssertionError(f"illegal move {move} was accepted")
        assert self.state.to_bytes() == before

    @precondition(lambda self: self.state.hand_over and not self.state.match_over)
    @rule()
    def next_hand(self) -> None:
        """Deal the next hand."""
        dealer = self.state.dealer
        self.state = self.state.next_hand()
        self.hand_number += 1
        assert self.state.hand_number == self.hand_number
        assert self.state.dealer == (dealer + 1) % self.rules.players
        assert not any(self.state.piles) or self.rules.game == "escoba"

    @precondition(lambda self: self.state.match_over)
    @rule()
    def next_hand_after_match(self) -> None:
        """No hand follows a won match."""
        try:
            self.state.next_hand()
        except cf.IllegalMoveError:
            pass
        else:
            raise AssertionError("next_hand() after the match was won")

    @invariant()
    def forty_cards(self) -> None:
        """I5 at every moment: the 40 cards, each exactly once."""
        assert sorted(all_zones(self.state)) == sorted(DECK)

    @invariant()
    def scores_never_decrease(self) -> None:
        """Match scores only grow."""
        scores = list(self.state.scores)
        assert all(now >= was for now, was in zip(scores, self.scores, strict=True))
        self.scores = scores

    @invariant()
    def to_move_iff_playing(self) -> None:
        """A seat is to move exactly while the hand is being played."""
        assert (self.state.to_move is None) == self.state.hand_over
        assert bool(self.state.legal_moves()) == (not self.state.hand_over)


StateMachine.TestCase.settings = settings(StateMachine.TestCase.settings, stateful_step_count=120)
TestStateMachine = StateMachine.TestCase
