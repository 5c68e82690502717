"""Garbage in, no panic out: every entry point fed thousands of bad inputs must either succeed or
raise an ordinary exception (CaptureFastError, ValueError or TypeError), never a
Rust panic (``pyo3_runtime.PanicException``, a BaseException) and never a crash.

Hypothesis runs derandomized (fixed examples, no database) and plain loops use fixed seeds, so
the file is deterministic; it runs in well under a minute.
"""

from __future__ import annotations

import random
import string
import struct
from collections.abc import Callable, Sequence
from typing import Any

import capturefast as cf
import pytest
from capturefast import Card, Move, Rules, State
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

RANKS = "A234567JQK"
SUITS = "CDHS"
ALL: list[str] = [r + s for r in RANKS for s in SUITS]
GAMES = ("scopa", "escoba", "chkobba")
OPTION_NAMES = [
    "target",
    "last_play_sweep",
    "primiera_missing_suit",
    "initial_30_requires_partition",
    "chkobba_face_values",
    "cut_card",
    "redeal",
]
OPTION_WORDS = [
    "void",
    "counts",
    "invalid",
    "zero",
    "tunisian",
    "italian",
    "three_of_a_rank",
    "three_kings",
    "off",
]
ALLOWED = (cf.CaptureFastError, ValueError, TypeError)
RULES = [Rules(g, players=n) for g in GAMES for n in (2, 4)]
RULES += [
    Rules.scopa(last_play_sweep="counts", primiera_missing_suit="zero"),
    Rules.escoba(initial_30_requires_partition=True, primiera_missing_suit="zero"),
    Rules.chkobba(cut_card=False, chkobba_face_values="italian", redeal="three_kings"),
]


def fuzz(examples: int) -> settings:
    """Deterministic hypothesis settings (no database, derandomized) with ``examples`` runs."""
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


class Panicked(AssertionError):
    """A Rust panic reached Python."""


def call(f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``f(*args, **kwargs)``, or None if it raised an allowed exception; fails on a panic."""
    try:
        return f(*args, **kwargs)
    except BaseException as e:
        if type(e).__name__ == "PanicException":
            raise Panicked(f"Rust panic from {getattr(f, '__name__', f)}{args!r}: {e}") from None
        if isinstance(e, (KeyboardInterrupt, SystemExit, MemoryError)):
            raise
        if not isinstance(e, ALLOWED):
            raise AssertionError(f"unexpected {type(e).__name__} from {f!r}{args!r}: {e}") from e
        return None


def exercise(state: State, rng: random.Random, max_steps: int = 120) -> None:
    """Plays a state onward with random legal moves (and a bad move now and then), reading every
    attribute, view and report on the way; every call must not panic."""
    for _ in range(max_steps):
        for attr in (
            "to_move", "dealer", "last_capturer", "hands", "table", "stock", "stock_size",
            "piles", "sweeps", "scores", "phase", "cut_card", "hand_over", "match_over",
            "winner", "hand_number", "num_players", "rules",
        ):  # fmt: skip
            call(getattr, state, attr)
        call(repr, state)
        call(str, state)
        call(hash, state)
        for seat in (*range(state.num_players), state.num_players, -1):
            v = call(state.view, seat)
            if v is not None:
                call(v.legal_moves)
                call(lambda v=v: (v.unseen, v.hand_sizes, v.sweeps, v.cut_card, repr(v)))
        b = call(state.to_bytes)
        if b is not None:
            call(State.from_bytes, state.rules, b)
        call(state.play, Move.from_int(rng.randrange(40) << 40))
        if state.hand_over:
            call(state.hand_report)
            if state.match_over:
                call(state.next_hand)
                return
            nxt = call(state.next_hand)
            if nxt is None:
                return
            state = nxt
            continue
        moves = call(state.legal_moves)
        if not moves:
            call(state.hand_report)
            call(state.next_hand)
            return
        nxt = call(state.play, rng.choice(moves))
        if nxt is None:
            return
        state = nxt


def sample_states() -> list[State]:
    """States from random matches of every configuration."""
    rng = random.Random(77)
    out: list[State] = []
    for rules in RULES:
        s = State.new(rules, seed=rng.randrange(2**64))
        for step in range(400):
            if s.match_over:
                break
            if step % 13 == 0:
                out.append(s)
            s = s.next_hand() if s.hand_over else s.play(rng.choice(s.legal_moves()))
        out.append(s)
    return out


SAMPLES = sample_states()

# --------------------------------------------------------------------------- strategies

valid_card = st.sampled_from(ALL)
card_text = st.one_of(
    valid_card,
    st.text(max_size=5),
    st.text(alphabet="A234567890JQKXCDHS xs+", max_size=4),
    valid_card.map(str.lower),
    valid_card.map(lambda c: f" {c}\t"),
)
card_like = st.one_of(
    card_text,
    st.integers(min_value=-5, max_value=70),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.builds(Card, st.integers(min_value=0, max_value=39)),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.binary(max_size=3),
)
card_list = st.one_of(
    st.lists(card_like, max_size=12),
    st.lists(valid_card, max_size=40),
    st.lists(st.integers(min_value=0, max_value=39), max_size=40),
    card_text,
    st.integers(),
    st.none(),
)


@st.composite
def move_text(draw: st.DrawFn) -> str:
    kind = draw(st.integers(min_value=0, max_value=4))
    card = draw(card_text)
    if kind == 0:
        return card
    if kind == 1:
        sep = draw(st.sampled_from(["+", " ", "++", ",", " + "]))
        caps = draw(st.lists(card_text, max_size=5))
        x = draw(st.sampled_from([" x ", "x", " X ", " x", "  x  "]))
        return card + x + sep.join(caps)
    if kind == 2:
        word = draw(st.sampled_from(["keep", "table", "KEEP", "Table", "keep\t", "tablex"]))
        return f"{word} {card}"
    if kind == 3:
        return draw(st.text(max_size=20))
    return draw(st.text(alphabet="AJQK234567CDHSx+ keptabl", max_size=16))


move_int = st.one_of(
    st.integers(min_value=0, max_value=2**64 - 1),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.builds(
        lambda kind, card, caps: (kind << 46) | (card << 40) | caps,
        st.integers(min_value=0, max_value=3),
        st.integers(min_value=0, max_value=63),
        st.integers(min_value=0, max_value=2**40 - 1),
    ),
)

# --------------------------------------------------------------------------- cards and moves


@fuzz(1500)
@given(card_like)
def test_cards_never_panic(x: Any) -> None:
    c = call(Card, x)
    if c is not None:
        assert Card(str(c)) == c
        assert Card(c.id) == c
    for rules in RULES[:3]:
        call(rules.value, x)
    call(Move.play, x)
    call(Move.play, "QH", [x])
    call(Move.play, x, ["2D", x])


@fuzz(1500)
@given(move_text())
def test_move_strings_never_panic(text: str) -> None:
    m = call(Move, text)
    if m is not None:
        assert Move(str(m)) == m
        assert Move.from_int(m.to_int()) == m
    for s in SAMPLES[::25]:
        call(s.play, text)


@fuzz(1500)
@given(move_int)
def test_packed_moves_never_panic(bits: int) -> None:
    m = call(Move.from_int, bits)
    if m is not None:
        assert m.to_int() == bits
        assert Move(str(m)) == m
        call(lambda: (m.kind, m.card, m.captures, m.is_trail, m.sweep, hash(m), repr(m)))
        for s in SAMPLES[::20]:
            call(s.play, m)


# --------------------------------------------------------------------------- rules


@fuzz(600)
@given(card_list, card_like, st.sampled_from(RULES))
def test_capture_options_and_opening_never_panic(table: Any, card: Any, rules: Rules) -> None:
    opts = call(rules.capture_options, table, card)
    if opts is not None:
        assert all(isinstance(o, frozenset) for o in opts)
    call(rules.opening, table)
    call(Move.play, card, table)


@fuzz(600)
@given(
    st.one_of(
        st.lists(card_list, max_size=3),
        st.permutations(ALL).flatmap(
            lambda p: st.integers(min_value=0, max_value=40).map(lambda k: [p[:k], p[k:]])
        ),
        st.none(),
        st.text(max_size=3),
    ),
    st.one_of(
        st.none(),
        st.lists(st.integers(min_value=-3, max_value=300), max_size=3),
        st.lists(st.integers(), max_size=3),
        st.text(max_size=3),
    ),
    st.sampled_from(RULES),
)
def test_score_never_panics(piles: Any, sweeps: Any, rules: Rules) -> None:
    rep = call(rules.score, piles, sweeps)
    if rep is not None:
        assert sum(len(p) for p in rep.piles) == 40
        call(str, rep)
        call(rep.to_dict)


@fuzz(400)
@given(
    st.one_of(
        st.lists(st.integers(), max_size=3),
        st.lists(st.integers(min_value=-2, max_value=2**33), max_size=3),
        st.text(max_size=3),
        st.none(),
        st.lists(st.floats(), max_size=2),
    ),
    st.sampled_from(RULES),
)
def test_match_winner_never_panics(scores: Any, rules: Rules) -> None:
    w = call(rules.match_winner, scores)
    assert w in (None, 0, 1)


option_value = st.one_of(
    st.sampled_from(OPTION_WORDS),
    st.integers(min_value=-3, max_value=10_005),
    st.integers(),
    st.booleans(),
    st.text(max_size=8),
    st.none(),
    st.floats(),
    st.lists(st.integers(), max_size=2),
)


@fuzz(400)
@given(
    st.one_of(st.sampled_from(GAMES), st.text(max_size=8)),
    st.one_of(st.sampled_from([2, 4]), st.integers(), st.text(max_size=2), st.none()),
    st.dictionaries(
        st.one_of(st.sampled_from(OPTION_NAMES), st.text(max_size=8)), option_value, max_size=4
    ),
    st.integers(min_value=0, max_value=2**64 - 1),
)
def test_rules_options_never_panic(game: Any, players: Any, options: Any, seed: int) -> None:
    r = call(Rules, game, players, **options)
    call(Rules.from_dict, {"game": game, "players": players, **options})
    call(Rules.from_dict, options)
    if r is None:
        return
    assert Rules.from_dict(r.to_dict()) == r
    s = call(State.new, r, seed)
    if s is not None:
        exercise(s, random.Random(seed), max_steps=40)


def test_random_hands_never_panics() -> None:
    rng = random.Random(5)
    for rules in RULES:
        for _ in range(5):
            t = call(cf.random_hands, rules, rng.randrange(0, 40), rng.randrange(2**64))
            assert t is not None
    for bad in (-1, 2**64, "3", None, 1.5):
        call(cf.random_hands, RULES[0], bad)
        call(cf.random_hands, RULES[0], 1, bad)


# --------------------------------------------------------------------------- positions


@fuzz(600)
@given(
    st.sampled_from(RULES),
    st.one_of(st.lists(card_list, max_size=5), card_list),
    card_list,
    st.one_of(card_list, st.none()),
    st.one_of(st.integers(min_value=-2, max_value=5), st.integers(), st.text(max_size=1)),
    st.one_of(st.none(), st.integers(min_value=-2, max_value=5), st.integers()),
    st.one_of(st.none(), st.integers(min_value=-2, max_value=5), st.integers()),
    st.one_of(st.none(), st.lists(card_list, max_size=3)),
    st.one_of(st.none(), st.lists(st.integers(min_value=-2, max_value=300), max_size=3)),
    st.one_of(st.none(), st.lists(st.integers(min_value=-2, max_value=2**33), max_size=3)),
)
def test_garbage_positions_never_panic(
    rules: Rules,
    hands: Any,
    table: Any,
    stock: Any,
    to_move: Any,
    dealer: Any,
    last_capturer: Any,
    piles: Any,
    sweeps: Any,
    scores: Any,
) -> None:
    s = call(
        State.from_position,
        rules,
        hands,
        table,
        stock=stock,
        to_move=to_move,
        dealer=dealer,
        last_capturer=last_capturer,
        piles=piles,
        sweeps=sweeps,
        scores=scores,
    )
    if s is not None:
        exercise(s, random.Random(0))


@st.composite
def shaped_position(draw: st.DrawFn) -> dict[str, Any]:
    """A position with plausible shapes (every card once, hand sizes by seat order), which the
    engine may still refuse (e.g. Escoba piles, scores past the target)."""
    rules = draw(st.sampled_from(RULES))
    n = rules.players
    deck = draw(st.permutations(ALL))
    dealer = draw(st.integers(min_value=0, max_value=n - 1))
    to_move = draw(st.integers(min_value=0, max_value=n - 1))
    held = draw(st.integers(min_value=1, max_value=3))
    leader = (dealer + 1) % n
    before = (to_move - leader) % n
    sizes = [0] * n
    for off in range(n):
        sizes[(leader + off) % n] = held - 1 if off < before else held
    rounds = draw(st.integers(min_value=0, max_value=(40 - sum(sizes)) // (3 * n)))
    pos = 0
    hands = []
    for k in sizes:
        hands.append(list(deck[pos : pos + k]))
        pos += k
    stock = list(deck[pos : pos + 3 * n * rounds])
    pos += len(stock)
    left = 40 - pos
    t = draw(st.integers(min_value=0, max_value=left))
    table = list(deck[pos : pos + t])
    pos += t
    split = draw(st.integers(min_value=pos, max_value=40))
    piles = [list(deck[pos:split]), list(deck[split:])]
    captured = [bool(piles[0]), bool(piles[1])]
    if any(captured):
        choices = [s for s in range(n) if captured[s % 2]]
        last = draw(st.sampled_from(choices))
    else:
        last = draw(st.one_of(st.none(), st.integers(min_value=0, max_value=n - 1)))
    sweeps = draw(st.lists(st.integers(min_value=0, max_value=6), min_size=2, max_size=2))
    scores = draw(
        st.one_of(
            st.lists(st.integers(min_value=0, max_value=rules.target + 2), min_size=2, max_size=2),
            st.just([rules.target + 5, rules.target + 5]),
        )
    )
    return {
        "rules": rules,
        "hands": hands,
        "table": table,
        "stock": stock,
        "to_move": to_move,
        "dealer": dealer,
        "last_capturer": last,
        "piles": piles,
        "sweeps": sweeps if any(captured) else [0, 0],
        "scores": scores,
        "seed": draw(st.integers(min_value=0, max_value=2**64 - 1)),
    }


@fuzz(800)
@given(shaped_position(), st.integers(min_value=0, max_value=2**32))
def test_shaped_positions_never_panic(p: dict[str, Any], seed: int) -> None:
    s = call(State.from_position, **p)
    if s is not None:
        assert s.to_move == p["to_move"]
        exercise(s, random.Random(seed), max_steps=200)


# --------------------------------------------------------------------------- bytes

ENCODINGS = [s.to_bytes() for s in SAMPLES]


@fuzz(800)
@given(
    st.one_of(st.binary(max_size=300), st.binary(min_size=128, max_size=128)),
    st.sampled_from(RULES),
)
def test_random_bytes_never_panic(data: bytes, rules: Rules) -> None:
    s = call(State.from_bytes, rules, data)
    if s is not None:
        exercise(s, random.Random(1), max_steps=60)


@fuzz(1200)
@given(
    st.integers(min_value=0, max_value=len(ENCODINGS) - 1),
    st.lists(
        st.tuples(
            # Header fields and sweeps/scores more often than the card masks.
            st.one_of(
                st.integers(min_value=0, max_value=9),
                st.integers(min_value=106, max_value=113),
                st.integers(min_value=0, max_value=127),
            ),
            st.integers(min_value=0, max_value=255),
        ),
        min_size=1,
        max_size=4,
    ),
    st.integers(min_value=0, max_value=2**32),
)
def test_mutated_bytes_never_panic(which: int, edits: list[tuple[int, int]], seed: int) -> None:
    data = bytearray(ENCODINGS[which])
    for i, v in edits:
        data[i] = v
    rules = SAMPLES[which].rules
    s = call(State.from_bytes, rules, bytes(data))
    if s is not None:
        exercise(s, random.Random(seed), max_steps=200)
    for other in RULES[:6]:
        call(State.from_bytes, other, bytes(data))


# --------------------------------------------------------------------------- plain loops


def random_card_like(rng: random.Random) -> Any:
    k = rng.randrange(8)
    if k == 0:
        return rng.choice(ALL)
    if k == 1:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(4)))
    if k == 2:
        return rng.randrange(-100, 100)
    if k == 3:
        return rng.randrange(-(2**80), 2**80)
    if k == 4:
        return Card(rng.randrange(40))
    if k == 5:
        return rng.choice([None, 1.5, b"7D", [], "7", "10D", "\ud800"])
    if k == 6:
        return rng.choice(ALL).lower()
    return rng.choice(RANKS) + rng.choice("CDHSXZ")


def test_random_loop_cards_and_moves() -> None:
    rng = random.Random(20240601)
    for _ in range(4000):
        x = random_card_like(rng)
        call(Card, x)
        call(RULES[rng.randrange(len(RULES))].value, x)
        table = [random_card_like(rng) for _ in range(rng.randrange(6))]
        call(RULES[rng.randrange(len(RULES))].capture_options, table, x)
        call(Move.play, x, table)
        bits = rng.choice(
            [rng.randrange(2**64), rng.randrange(-(2**65), 2**65), rng.randrange(2**48)]
        )
        call(Move.from_int, bits)
        text = rng.choice(["", "keep ", "table ", "x "]) + " x ".join(
            str(random_card_like(rng)) for _ in range(rng.randrange(3))
        )
        call(Move, text)
        s = SAMPLES[rng.randrange(len(SAMPLES))]
        call(s.play, text)
        call(s.view, rng.randrange(-3, 6))


def random_position(rng: random.Random) -> dict[str, Any]:
    """from_position arguments: well shaped (hand sizes by seat order, every card once) half the
    time, otherwise with random hand sizes, duplicates, gaps and bad seats."""
    rules = RULES[rng.randrange(len(RULES))]
    n = rules.players
    deck = list(ALL)
    rng.shuffle(deck)
    dealer = rng.randrange(n)
    to_move = rng.randrange(n)
    held = rng.randint(1, 3)
    leader = (dealer + 1) % n
    before = (to_move - leader) % n
    sizes = [0] * n
    for off in range(n):
        sizes[(leader + off) % n] = held - 1 if off < before else held
    shaped = rng.random() < 0.5
    if not shaped:
        sizes = [rng.randrange(5) for _ in range(n + rng.choice([0, 0, 1, -1]))]
        if rng.random() < 0.3:
            deck = [rng.choice(ALL) for _ in range(rng.randrange(45))]
    hands = []
    pos = 0
    for k in sizes:
        hands.append(deck[pos : pos + k])
        pos += k
    rounds = rng.randrange(max(1, (len(deck) - pos) // (3 * n) + 1))
    stock = deck[pos : pos + 3 * n * rounds] if shaped else deck[pos : pos + rng.randrange(8)]
    pos += len(stock)
    t = rng.randrange(max(1, len(deck) - pos + 1))
    table = deck[pos : pos + t]
    pos += t
    split = rng.randint(pos, max(pos, len(deck)))
    piles = [deck[pos:split], deck[split:]]
    captured = [s for s in range(n) if piles[s % 2]]
    last = rng.choice(captured) if captured and shaped else rng.choice([None, *range(-1, n + 1)])
    return {
        "rules": rules,
        "hands": hands,
        "table": table,
        "stock": stock,
        "to_move": to_move if shaped else rng.randrange(-1, n + 1),
        "dealer": dealer if shaped else rng.choice([None, rng.randrange(-1, n + 1)]),
        "last_capturer": last,
        "piles": piles,
        # At most one sweep per two captured cards, as in play.
        "sweeps": [rng.randrange(0, min(4, len(p) // 2 + 1)) for p in piles]
        if captured
        else [0, 0],
        "scores": [rng.randrange(0, rules.target + 3), rng.randrange(0, rules.target + 3)],
        "seed": rng.randrange(2**64),
    }


def test_random_loop_positions() -> None:
    rng = random.Random(99)
    accepted = 0
    for _ in range(2500):
        s = call(State.from_position, **random_position(rng))
        if s is not None:
            accepted += 1
            exercise(s, rng, max_steps=60)
    # The shaped half is mostly valid (Escoba piles and past-target scores aside).
    assert accepted > 300


def test_random_loop_bytes() -> None:
    rng = random.Random(4242)
    for _ in range(4000):
        base = bytearray(rng.choice(ENCODINGS))
        for _ in range(rng.randrange(1, 6)):
            base[rng.randrange(128)] = rng.randrange(256)
        if rng.random() < 0.1:
            base = base[: rng.randrange(140)]
        rules = RULES[rng.randrange(len(RULES))]
        s = call(State.from_bytes, rules, bytes(base))
        if s is not None:
            exercise(s, rng, max_steps=60)


# --------------------------------------------------------------------------- found by hand

FULL = (1 << 40) - 1


def encode(
    *,
    to_move: int = 0,
    last_capturer: int = 0,
    phase: int = 1,
    cut_card: int = 255,
    deck_pos: int = 40,
    hands: Sequence[int] = (0, 0),
    table: int = 0,
    piles: Sequence[int] = (FULL, 0),
    sweeps: Sequence[int] = (0, 0),
) -> bytes:
    """A 2-player state in the layout of State::encode (see tests/test_errors.py), dealer 1."""
    b = bytes([1, 2, 1, to_move, last_capturer, phase, cut_card, 255, deck_pos, 0])
    masks = [*hands, 0, 0, table, *piles]
    b += b"".join(struct.pack("<Q", m) for m in masks)
    b += bytes(range(40)) + bytes(sweeps) + struct.pack("<II", 0, 0)
    return b + struct.pack("<Q", 0) + struct.pack("<I", 0)


def bit(*names: str) -> int:
    return sum(1 << ALL.index(n) for n in names)


CRAFTED = [
    # Seat 0 holds AC, the other 39 cards are in a pile, nobody captured: the last play ends
    # the hand with no last capturer.
    (Rules.scopa(), encode(last_capturer=255, hands=(bit("AC"), 0), piles=(FULL & ~1, 0)), "AC"),
    # Chkobba cut phase with no stock left to complete the deal.
    (
        Rules.chkobba(),
        encode(last_capturer=255, phase=0, cut_card=0, table=FULL & ~1, piles=(0, 0)),
        "keep AC",
    ),
    # A one-card stock: the next round cannot be dealt.
    (
        Rules.scopa(),
        encode(hands=(bit("AC"), 0), deck_pos=39, piles=(FULL & ~bit("AC", "KS"), 0)),
        "AC",
    ),
]


@pytest.mark.parametrize(
    ("rules", "data", "move"), CRAFTED, ids=["no-capturer", "cut-no-stock", "short-stock"]
)
def test_crafted_bytes_do_not_panic(rules: Rules, data: bytes, move: str) -> None:
    s = call(State.from_bytes, rules, data)
    if s is not None:
        call(s.play, move)
        for m in s.legal_moves():
            call(s.play, m)


def test_huge_scores_do_not_wrap() -> None:
    # Equal scores past the target are a live match (S-A5); a played hand must never lower
    # them (u32 arithmetic must not wrap) - or the position must be refused.
    top = 2**32 - 1
    used = ["7S", "3C", "4D"]
    s = call(
        State.from_position,
        Rules.scopa(),
        hands=[[], ["7S"]],
        table=["3C", "4D"],
        to_move=1,
        dealer=1,
        last_capturer=0,
        piles=[[c for c in ALL if c not in used], []],
        scores=[top, top],
    )
    if s is None:
        return
    t = call(s.play, "7S x 3C+4D")
    assert t is not None
    assert t.scores[0] >= top
    assert t.scores[1] >= top
