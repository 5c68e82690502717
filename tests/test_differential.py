"""Differential test: the Rust engine (``capturefast``) against the pure-Python reference.

Both engines implement docs/conventions.md, so the same seed must give the same deal, the same
legal moves in the same order (with the same sweep flags), and, after the same move, the same
state. Random hands and whole matches are played through both in lockstep, and every step is
compared: the legal-move list (notation strings and sweep flags), then the full state snapshot
(seats, hands, table, stock order, piles, sweeps, scores, hand and match end, cut card). At the
end of a hand the score reports are compared too.

Moves are picked with a seeded ``random.Random``, so every failure names a reproducible seed.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from typing import Any

import capturefast as cf
import pytest
from reference import RefRules, RefState, format_move

GAMES: tuple[str, ...] = ("scopa", "escoba", "chkobba")
PLAYER_COUNTS: tuple[int, ...] = (2, 4)

DEFAULT_HANDS = 2000  # random hands per (game, players) with the default options
OPTION_HANDS = 200  # random hands per (game, players, option combination)
DEFAULT_MATCHES = 8  # complete matches per (game, players) with the default options
OPTION_MATCHES = 2  # complete matches per (game, players, option combination)
MIDHAND_POSITIONS = 250  # mid-hand from_position starts per (game, players)
DEAL_SEEDS = 3000  # deals compared (without play) per (game, players)
SPECIAL_DEALS = 12  # redealt / dealer-escoba deals played per (game, players)

# Non-default option combinations (rules.md §7), per game.
OPTION_COMBOS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("scopa", {"last_play_sweep": "counts"}),  # V-S5
    ("scopa", {"primiera_missing_suit": "zero"}),  # V-S4
    ("scopa", {"target": 5}),  # V-S15 (short target: more match ends)
    ("escoba", {"last_play_sweep": "counts"}),  # E-A4: unreachable, still accepted
    ("escoba", {"initial_30_requires_partition": True}),  # V-E4
    ("escoba", {"primiera_missing_suit": "zero"}),
    ("chkobba", {"last_play_sweep": "counts"}),  # V-K7
    ("chkobba", {"chkobba_face_values": "italian"}),  # V-K1
    ("chkobba", {"cut_card": False}),  # V-K5
    ("chkobba", {"redeal": "three_kings"}),  # V-K4
    ("chkobba", {"redeal": "off"}),  # V-K4
    ("chkobba", {"cut_card": False, "redeal": "off", "chkobba_face_values": "italian"}),
)

DEFAULT_CASES = [
    pytest.param(game, players, id=f"{game}-{players}p")
    for game in GAMES
    for players in PLAYER_COUNTS
]
OPTION_CASES = [
    pytest.param(
        game,
        players,
        options,
        id=f"{game}-{players}p-" + "-".join(f"{k}={v}" for k, v in options.items()),
    )
    for game, options in OPTION_COMBOS
    for players in PLAYER_COUNTS
]


# --------------------------------------------------------------------- comparison


def rust_snapshot(state: cf.State) -> dict[str, Any]:
    """The Rust state in the shape of ``RefState.snapshot()`` (cards as strings, by id)."""
    cut = state.cut_card
    options = state.rules.options
    snap: dict[str, Any] = {
        "to_move": state.to_move,
        "dealer": state.dealer,
        "last_capturer": state.last_capturer,
        "hands": [[str(c) for c in sorted(h, key=int)] for h in state.hands],
        "table": [str(c) for c in sorted(state.table, key=int)],
        "stock": [str(c) for c in state.stock],
        "piles": [[str(c) for c in sorted(p, key=int)] for p in state.piles],
        "sweeps": list(state.sweeps),
        "scores": list(state.scores),
        "hand_over": state.hand_over,
        "match_over": state.match_over,
        "winner": state.winner,
        "cut_card": None if cut is None else str(cut),
    }
    # Present only under the options that use them, as in ``RefState.snapshot()``.
    if options.get("declarations"):
        snap["declarations"] = list(state.declared)
    if options.get("renuncio"):
        claim = state.claimable
        snap["claimable"] = None if claim is None else str(claim)
    return snap


def compare_states(rs: cf.State, ref: RefState, where: str) -> None:
    """Assert that the two states are identical."""
    got = rust_snapshot(rs)
    want = ref.snapshot()
    if got != want:
        diff = {k: (got[k], want[k]) for k in want if got.get(k) != want[k]}
        pytest.fail(f"{where}: states differ (rust, reference): {diff}")


def compare_moves(rs: cf.State, ref: RefState, where: str) -> tuple[list[cf.Move], list[Any]]:
    """Assert the same legal moves, in the same order, with the same sweep flags."""
    rust_moves = rs.legal_moves()
    ref_moves = ref.legal_moves()
    got = [str(m) for m in rust_moves]
    want = [format_move(m) for m in ref_moves]
    if got != want:
        pytest.fail(f"{where}: legal moves differ:\n rust      {got}\n reference {want}")
    # RefState.is_sweep re-derives the legal moves on every call; _sweep_of is the same check
    # on a move already known to be legal, which keeps this loop fast.
    got_sweeps = [m.sweep for m in rust_moves]
    want_sweeps = [ref._sweep_of(m) for m in ref_moves]
    if got_sweeps != want_sweeps:
        pytest.fail(
            f"{where}: sweep flags differ for {got}:\n rust      {got_sweeps}\n"
            f" reference {want_sweeps}"
        )
    return rust_moves, ref_moves


def compare_reports(rs: cf.State, ref: RefState, where: str) -> None:
    """Assert the same hand report (points, awards, counts, sweeps) after a hand."""
    got = rs.hand_report()
    want = ref.hand_report()
    pairs = {
        "points": (list(got.points), want["points"]),
        "awards": (dict(got.awards), want["awards"]),
        "counts": ([dict(c) for c in got.counts], want["counts"]),
        "sweeps": (list(got.sweeps), want["sweeps"]),
        "scores": (None if got.scores is None else list(got.scores), ref.scores),
        "bonuses": (dict(got.bonuses), want["bonuses"]),
    }
    diff = {k: v for k, v in pairs.items() if v[0] != v[1]}
    if diff:
        pytest.fail(f"{where}: hand reports differ (rust, reference): {diff}")


def play_hand(
    rs: cf.State,
    ref: RefState,
    pick: random.Random,
    where: str,
    choose: Callable[[list[cf.Move]], int] | None = None,
) -> tuple[cf.State, RefState]:
    """Play the current hand to its end in lockstep, comparing every step: random moves, or
    the index ``choose`` gives among the legal moves."""
    step = 0
    history: list[str] = []
    while not ref.hand_over:
        here = f"{where} step {step} after {history[-3:]}"
        rust_moves, ref_moves = compare_moves(rs, ref, here)
        assert rust_moves, f"{here}: no legal move before the hand is over"
        index = pick.randrange(len(rust_moves)) if choose is None else choose(rust_moves)
        history.append(str(rust_moves[index]))
        rs = rs.play(rust_moves[index])
        ref = ref.play(ref_moves[index])
        compare_states(rs, ref, f"{where} step {step} after {history[-3:]}")
        step += 1
        assert step < 200, f"{where}: the hand does not end"
    assert rs.legal_moves() == [], f"{where}: legal moves after the hand is over"
    compare_reports(rs, ref, where)
    return rs, ref


def new_pair(game: str, players: int, options: dict[str, Any], seed: int) -> tuple[Any, ...]:
    """A new match in both engines from the same seed, compared."""
    rules = cf.Rules(game, players, **options)
    ref_rules = RefRules(game, players, **options)
    rs = cf.State.new(rules, seed)
    ref = RefState.new(ref_rules, seed)
    compare_states(rs, ref, f"{game} {players}p {options} seed {seed}: deal")
    return rs, ref


def run_hands(game: str, players: int, options: dict[str, Any], seeds: range) -> int:
    """Play one random hand per seed through both engines; return the sweeps seen."""
    sweeps = 0
    for seed in seeds:
        rs, ref = new_pair(game, players, options, seed)
        pick = random.Random(seed * 7919 + players)
        rs, _ = play_hand(rs, ref, pick, f"{game} {players}p {options} seed {seed}")
        sweeps += sum(rs.sweeps)
    return sweeps


def run_match(game: str, players: int, options: dict[str, Any], seed: int) -> int:
    """Play a whole match through both engines; return the number of hands."""
    rs, ref = new_pair(game, players, options, seed)
    pick = random.Random(seed)
    hands = 0
    while True:
        where = f"{game} {players}p {options} match seed {seed} hand {hands}"
        assert rs.hand_number == hands
        rs, ref = play_hand(rs, ref, pick, where)
        hands += 1
        if ref.match_over:
            break
        assert hands < 100, f"{where}: the match does not end"
        rs = rs.next_hand()
        ref = ref.next_hand()
        compare_states(rs, ref, f"{where}: next deal")
    assert rs.winner in (0, 1)
    with pytest.raises(cf.IllegalMoveError):
        rs.next_hand()
    return hands


# --------------------------------------------------------------------- tests


@pytest.mark.parametrize(("game", "players"), DEFAULT_CASES)
def test_random_hands_default_options(game: str, players: int) -> None:
    """2000 random hands per game and player count, identical step by step."""
    sweeps = run_hands(game, players, {}, range(DEFAULT_HANDS))
    assert sweeps > 0, "no sweep in thousands of hands: the sweep paths were not compared"


@pytest.mark.parametrize(("game", "players", "options"), OPTION_CASES)
def test_random_hands_with_options(game: str, players: int, options: dict[str, Any]) -> None:
    """Random hands under each non-default option combination, identical step by step."""
    run_hands(game, players, options, range(10_000, 10_000 + OPTION_HANDS))


def first_trail(moves: list[cf.Move]) -> int:
    """The first trail among ``moves`` (the first move in a Chkobba cut decision)."""
    trails = [i for i, m in enumerate(moves) if m.is_trail]
    return trails[0] if trails else 0


@pytest.mark.parametrize(("game", "players"), DEFAULT_CASES)
def test_a_hand_without_a_capture(game: str, players: int) -> None:
    """V-E6: without compulsory capture, every seat may trail every card. The hand then ends
    with all 40 cards on the table, which go to nobody; both engines agree step by step, on
    the report and on the next deal (the core used to panic here)."""
    options = {"compulsory_capture": False}
    played = 0
    for seed in range(8):
        rs, ref = new_pair(game, players, options, seed)
        if rs.last_capturer is not None:
            continue  # an Escoba dealer's opening sweep: somebody has captured
        where = f"{game} {players}p all trails seed {seed}"
        rs, ref = play_hand(rs, ref, random.Random(seed), where, choose=first_trail)
        assert rs.last_capturer is None
        assert len(rs.table) == 40
        assert list(rs.hand_report().points) == [0, 0]
        assert pickle.loads(pickle.dumps(rs)) == rs
        compare_states(rs.next_hand(), ref.next_hand(), f"{where}: next deal")
        played += 1
    assert played >= 4, played


@pytest.mark.parametrize(("game", "players"), DEFAULT_CASES)
def test_complete_matches_default_options(game: str, players: int) -> None:
    """Whole matches (dealer rotation, match scores, target, winner) are identical."""
    total_hands = sum(
        run_match(game, players, {}, 20_000 + seed) for seed in range(DEFAULT_MATCHES)
    )
    assert total_hands > DEFAULT_MATCHES, "every match ended after one hand"


@pytest.mark.parametrize(("game", "players", "options"), OPTION_CASES)
def test_complete_matches_with_options(game: str, players: int, options: dict[str, Any]) -> None:
    """Whole matches under each option combination are identical."""
    for seed in range(OPTION_MATCHES):
        run_match(game, players, options, 30_000 + seed)


@pytest.mark.parametrize(("game", "players"), DEFAULT_CASES)
def test_deals_of_many_seeds(game: str, players: int) -> None:
    """The deal of ``State.new`` equals the reference's for thousands of seeds.

    In Chkobba both cut decisions are taken from every deal.
    """
    rules = cf.Rules(game, players)
    ref_rules = RefRules(game, players)
    for seed in range(50_000, 50_000 + DEAL_SEEDS):
        rs = cf.State.new(rules, seed)
        ref = RefState.new(ref_rules, seed)
        where = f"{game} {players}p seed {seed}"
        compare_states(rs, ref, f"{where}: deal")
        if ref.cut_card is not None:
            for index, choice in enumerate(("keep", "table")):
                rust_moves, ref_moves = compare_moves(rs, ref, where)
                compare_states(
                    rs.play(rust_moves[index]), ref.play(ref_moves[index]), f"{where} {choice}"
                )


@pytest.mark.parametrize(("game", "players"), DEFAULT_CASES)
def test_redeals_and_dealer_escobas(game: str, players: int) -> None:
    """Deals that trigger the opening rule (S5 / K6 redeal, E5 dealer escoba) are identical.

    Such deals are rare, so seeds are first scanned with the reference alone, then each one found
    is played through both engines.
    """
    ref_rules = RefRules(game, players)
    found: list[int] = []
    for seed in range(60_000, 60_000 + 40_000):
        ref = RefState.new(ref_rules, seed)
        if ref.cut_card is not None:  # Chkobba: the redeal comes after the cut decision
            ref = ref.play(ref.legal_moves()[1])  # table the cut card: it counts for K6
        if ref.redeals or sum(ref.sweeps):
            found.append(seed)
            if len(found) == SPECIAL_DEALS:
                break
    assert len(found) == SPECIAL_DEALS, f"only {len(found)} special deals found"
    for seed in found:
        rs, ref = new_pair(game, players, {}, seed)
        play_hand(rs, ref, random.Random(seed), f"{game} {players}p special deal seed {seed}")


@pytest.mark.parametrize(("game", "players"), DEFAULT_CASES)
def test_midhand_positions_from_position(game: str, players: int) -> None:
    """Random mid-hand positions, rebuilt in both engines with ``from_position``, stay equal.

    The position comes from k random moves in the reference; it is rebuilt (with random match
    scores below the target) by ``State.from_position`` and ``RefState.from_position``, the
    rest of the hand is played in lockstep, and then the next hand, dealt from the same
    ``from_position`` seed, is compared too.
    """
    rules = cf.Rules(game, players)
    ref_rules = RefRules(game, players)
    built = 0
    for seed in range(40_000, 40_000 + MIDHAND_POSITIONS):
        pick = random.Random(seed)
        ref = RefState.new(ref_rules, seed)
        for _ in range(pick.randrange(0, 40)):
            if ref.hand_over:
                break
            moves = ref.legal_moves()
            ref = ref.play(moves[pick.randrange(len(moves))])
        if ref.hand_over or ref.cut_card is not None:
            continue
        snap = ref.snapshot()
        scores = [pick.randrange(rules.target), pick.randrange(rules.target)]
        later_seed = pick.getrandbits(64)
        position: dict[str, Any] = {
            "hands": snap["hands"],
            "table": snap["table"],
            "stock": snap["stock"],
            "to_move": snap["to_move"],
            "dealer": snap["dealer"],
            "last_capturer": snap["last_capturer"],
            "piles": snap["piles"],
            "sweeps": snap["sweeps"],
            "scores": scores,
            "seed": later_seed,
        }
        rs = cf.State.from_position(rules, **position)
        ref = RefState.from_position(ref_rules, **position)
        where = f"{game} {players}p from_position of seed {seed}"
        compare_states(rs, ref, where)
        assert rs.phase == "play"
        rs, ref = play_hand(rs, ref, pick, where)
        built += 1
        if not ref.match_over:
            rs = rs.next_hand()
            ref = ref.next_hand()
            compare_states(rs, ref, f"{where}: next deal")
    assert built > MIDHAND_POSITIONS // 2, f"only {built} mid-hand positions were built"
