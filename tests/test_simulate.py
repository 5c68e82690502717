"""Batch simulation (`cf.simulate`) and tournaments (`cf.tournament`): arrays, determinism,
duplicate deals, Python bots, errors, summaries, matches, interruption."""

from __future__ import annotations

import time
from typing import Any

import capturefast as cf
import numpy as np
import pytest
from capturefast import Rules
from gil import longest_stall
from reference import SplitMix64

GAMES = ("scopa", "escoba", "chkobba")
ARRAYS = ("points", "awards", "sweeps", "dealer")
MATCH_ARRAYS = ("match_scores", "match_winner", "match_hands")


def same_arrays(a: cf.SimulationResult, b: cf.SimulationResult) -> None:
    for name in ARRAYS + MATCH_ARRAYS:
        x, y = getattr(a, name), getattr(b, name)
        if x is None:
            assert y is None, name
        else:
            assert x.dtype == y.dtype, name
            assert np.array_equal(x, y), name


# ----- Python bots used below -----


class FirstBot:
    """Always the first legal move."""

    name = "first"

    def __init__(self) -> None:
        self.views: list[cf.View] = []

    def choose(self, state: cf.View) -> cf.Move:
        self.views.append(state)
        return state.legal_moves()[0]


class PyRandomBot:
    """The built-in `random` bot in Python: uniform over the legal moves with SplitMix64 seeded
    by the seat's bot seed (given through `reset`)."""

    def __init__(self) -> None:
        self.rng = SplitMix64(0)
        self.resets = 0

    def reset(self, seed: int) -> None:
        self.rng = SplitMix64(seed)
        self.resets += 1

    def choose(self, state: cf.View) -> cf.Move:
        moves = state.legal_moves()
        return moves[self.rng.below(len(moves))]


class RecorderBot(FirstBot):
    """Records the seat, hand, table and dealer it sees at its first decision of each hand."""

    def __init__(self) -> None:
        super().__init__()
        self.first_views: list[tuple[int, list[cf.Card], list[cf.Card], int]] = []
        self.fresh = False

    def reset(self, seed: int) -> None:
        self.fresh = True

    def choose(self, state: cf.View) -> cf.Move:
        if self.fresh:
            self.first_views.append((state.seat, state.hand, state.table, state.dealer))
            self.fresh = False
        return super().choose(state)


# ----- arrays -----


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("duplicate", [False, True])
def test_hands_mode_dtypes_and_shapes(game: str, players: int, duplicate: bool) -> None:
    rules = Rules(game, players=players)
    r = cf.simulate(rules, hands=300, bots="random_card", seed=3, duplicate=duplicate)
    n = 300 * (2 if duplicate else 1)
    assert (r.requested, r.completed, r.interrupted) == (300, 300, False)
    assert r.num_hands == n
    expected = {"points": (np.int16, (n, 2)), "awards": (np.int8, (n, 4))}
    expected |= {"sweeps": (np.int8, (n, 2)), "dealer": (np.int8, (n,))}
    for name, (dtype, shape) in expected.items():
        a = getattr(r, name)
        assert isinstance(a, np.ndarray), name
        assert a.dtype == dtype, name
        assert a.shape == shape, name
    for name in MATCH_ARRAYS:
        assert getattr(r, name) is None
    assert r.swapped.dtype == np.bool_ and r.swapped.shape == (n,)
    assert r.hand_match.dtype == np.int64 and r.hand_match.shape == (n,)
    assert set(np.unique(r.awards)) <= {-1, 0, 1}
    assert (r.awards[:, 2] >= 0).all(), "the seven of coins always goes to a side"
    assert ((r.dealer >= 0) & (r.dealer < players)).all()
    # Points are the categories won plus the sweeps.
    for side in (0, 1):
        won = (r.awards == side).sum(axis=1)
        assert np.array_equal(r.points[:, side], won + r.sweeps[:, side])
    assert r.bots == ("random_card",) * players


@pytest.mark.parametrize("players", [2, 4])
def test_matches_mode_dtypes_and_shapes(players: int) -> None:
    rules = Rules.chkobba(players=players)
    r = cf.simulate(rules, matches=40, bots=("greedy", "random"), seed=5)
    assert (r.mode, r.requested, r.completed, r.num_matches) == ("matches", 40, 40, 40)
    assert r.match_scores is not None and r.match_winner is not None
    assert r.match_hands is not None
    assert r.match_scores.dtype == np.int32 and r.match_scores.shape == (40, 2)
    assert r.match_winner.dtype == np.int8 and r.match_winner.shape == (40,)
    assert r.match_hands.dtype == np.int32 and r.match_hands.shape == (40,)
    n = int(r.match_hands.sum())
    assert r.num_hands == n
    assert r.points.shape == (n, 2) and r.awards.shape == (n, 4)
    assert r.sweeps.shape == (n, 2) and r.dealer.shape == (n,)


class _Trailer:
    """Plays a card that captures nothing whenever one does: under optional capture, two of
    them never score, and a match between them never reaches its target."""

    def choose(self, view: cf.View) -> cf.Move:
        moves = view.legal_moves()
        return next((m for m in moves if not m.captures), moves[0])


def test_a_match_that_never_ends_is_cut_at_10000_hands() -> None:
    rules = Rules("scopa", compulsory_capture=False)
    r = cf.simulate(rules, matches=1, bots=(_Trailer(), _Trailer()), duplicate=True)
    assert r.match_winner is not None and r.match_hands is not None
    assert r.match_winner.tolist() == [-1, -1] and r.match_hands.tolist() == [10_000, 10_000]
    wins = r.summary().wins
    assert wins is not None and wins[0].mean == wins[1].mean == 0.0, "neither team won"


def test_matches_end_with_a_winner_at_the_target() -> None:
    for rules in (Rules.scopa(), Rules.escoba(players=4), Rules.scopa(target=21)):
        r = cf.simulate(rules, matches=60, bots=("random", "greedy"), seed=8, duplicate=True)
        assert r.match_scores is not None and r.match_winner is not None
        assert r.match_hands is not None
        assert r.num_matches == 120
        for m in range(r.num_matches):
            w = int(r.match_winner[m])
            assert w in (0, 1)
            score = r.match_scores[m]
            assert score[w] >= rules.target
            assert score[w] > score[1 - w]
            assert rules.match_winner([int(score[0]), int(score[1])]) == w
        # Each match's hand rows add up to its final score, and its dealer passes on.
        starts = np.concatenate([[0], np.cumsum(r.match_hands)[:-1]])
        for m, (s, h) in enumerate(zip(starts, r.match_hands, strict=True)):
            assert np.array_equal(r.points[s : s + h].sum(axis=0), r.match_scores[m])
            dealers = r.dealer[s : s + h].astype(int)
            assert np.array_equal(np.diff(dealers) % rules.players, np.ones(h - 1))
        # Both matches of a duplicate pair are match m of the run, as `deal_seed(m)` deals it.
        assert np.array_equal(r.hand_match, np.repeat(np.arange(120) // 2, r.match_hands))


@pytest.mark.parametrize("game", ["scopa", "escoba", "chkobba"])
def test_the_options_of_matches_alone_change_no_hand(game: str) -> None:
    # What lets the command line refuse them where single hands are played.
    hands = cf.simulate(Rules(game), 400, bots=("expert", "random"), seed=3)
    changed = {"target": 1, "all_coins_wins": True}
    assert set(changed) == set(cf.variants.MATCH_OPTIONS)
    for name, value in changed.items():
        other = cf.simulate(Rules(game, **{name: value}), 400, bots=("expert", "random"), seed=3)
        for column in ("points", "awards", "sweeps", "dealer"):
            assert np.array_equal(getattr(hands, column), getattr(other, column)), name


def test_first_hand_is_the_deal_of_its_seed() -> None:
    rules = Rules.escoba(players=4)
    r = cf.simulate(rules, hands=50, seed=12)
    for i in range(50):
        assert cf.State.new(rules, r.deal_seed(i)).dealer == r.dealer[i]
    m = cf.simulate(rules, matches=5, seed=12)
    assert m.match_hands is not None
    starts = np.concatenate([[0], np.cumsum(m.match_hands)[:-1]])
    for i in range(5):
        assert cf.State.new(rules, m.deal_seed(i)).dealer == m.dealer[starts[i]]


# ----- determinism -----


@pytest.mark.parametrize(
    ("rules", "kwargs"),
    [
        (Rules.scopa(), {"hands": 5000, "bots": ("random", "random")}),
        (Rules.chkobba(players=4), {"hands": 2000, "bots": ("greedy", "random_card")}),
        (Rules.escoba(), {"hands": 1500, "bots": ("greedy", "random"), "duplicate": True}),
        (Rules.scopa(players=4), {"matches": 300, "bots": "random_card", "duplicate": True}),
    ],
    ids=["scopa", "chkobba4", "escoba-dup", "scopa4-matches"],
)
def test_same_seed_same_arrays_whatever_the_threads(rules: Rules, kwargs: Any) -> None:
    one = cf.simulate(rules, seed=77, threads=1, **kwargs)
    two = cf.simulate(rules, seed=77, threads=2, **kwargs)
    three = cf.simulate(rules, seed=77, threads=3, **kwargs)
    assert (one.threads, two.threads) == (1, 2)
    same_arrays(one, two)
    same_arrays(one, three)
    same_arrays(one, cf.simulate(rules, seed=77, **kwargs))


def test_different_seeds_differ() -> None:
    rules = Rules.scopa()
    a = cf.simulate(rules, hands=500, seed=1)
    b = cf.simulate(rules, hands=500, seed=2)
    assert not np.array_equal(a.points, b.points)
    assert not np.array_equal(a.awards, b.awards)


def test_a_longer_run_starts_with_a_shorter_one() -> None:
    rules = Rules.scopa()
    short = cf.simulate(rules, hands=100, seed=4)
    long = cf.simulate(rules, hands=1000, seed=4)
    assert np.array_equal(long.points[:100], short.points)
    assert np.array_equal(long.awards[:100], short.awards)


# ----- duplicate -----


@pytest.mark.parametrize("game", GAMES)
def test_duplicate_random_bots_replay_the_deal_exactly(game: str) -> None:
    # Each seat keeps its bot seed in both games, so two random bots play the same game twice.
    r = cf.simulate(Rules(game), hands=400, bots=("random", "random"), duplicate=True, seed=9)
    for name in ARRAYS:
        a = getattr(r, name)
        assert np.array_equal(a[0::2], a[1::2]), name
    assert np.array_equal(r.swapped, np.arange(800) % 2 == 1)
    s = r.summary()
    assert s.difference.mean == 0.0


@pytest.mark.parametrize("players", [2, 4])
def test_duplicate_swaps_the_bots_on_the_same_deal(players: int) -> None:
    rules = Rules.scopa(players=players)
    a, b = RecorderBot(), RecorderBot()
    r = cf.simulate(rules, hands=20, bots=(a, b), duplicate=True, seed=21)
    assert r.num_hands == 40
    # Game 2d: a sits on side 0; game 2d + 1: b does. Each records the first hand it sees as
    # each of its seats; the seat-0 hand of both games of a deal is the same deal's.
    per_game = players // 2  # seats per bot
    a_views = [a.first_views[k : k + per_game] for k in range(0, len(a.first_views), per_game)]
    b_views = [b.first_views[k : k + per_game] for k in range(0, len(b.first_views), per_game)]
    assert len(a_views) == len(b_views) == 40
    for d in range(20):
        first, second = a_views[2 * d], b_views[2 * d + 1]
        assert sorted(first, key=lambda v: v[0]) == sorted(second, key=lambda v: v[0])
        assert {v[0] % 2 for v in first} == {0}
        assert {v[0] % 2 for v in b_views[2 * d]} == {1}
        # The same deal as `State.new` with the deal's seed, dealt to the same dealer.
        state = cf.State.new(rules, r.deal_seed(d))
        for seat, hand, table, dealer in first:
            assert dealer == state.dealer == r.dealer[2 * d] == r.dealer[2 * d + 1]
            if seat == state.to_move:
                assert hand == state.hands[seat]
                assert table == state.table


def test_duplicate_difference_is_paired_by_deal() -> None:
    rules = Rules.scopa()
    dup = cf.simulate(rules, hands=3000, bots=("greedy", "random"), duplicate=True, seed=2)
    s = dup.summary()
    pts = dup.by_team(dup.points).astype(float)
    per_deal = (pts[:, 0] - pts[:, 1]).reshape(-1, 2).mean(axis=1)
    assert s.difference.n == 3000
    assert s.difference.mean == pytest.approx(per_deal.mean())
    z = 1.959964
    assert s.difference.half_width == pytest.approx(z * per_deal.std(ddof=1) / np.sqrt(3000))
    assert s.difference.mean > 1.0, "greedy beats random"
    # Team A (greedy) sits on side 1 in the odd games.
    assert np.array_equal(pts[1::2, 0], dup.points[1::2, 1])


# ----- Python bots -----


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_python_random_bot_matches_the_builtin(game: str, players: int) -> None:
    # One object per seat: an object in two seats would share its generator.
    rules = Rules(game, players=players)
    py_bots = [PyRandomBot() for _ in range(players // 2)]
    seats = [py_bots[s // 2] if s % 2 == 0 else "random_card" for s in range(players)]
    rust = cf.simulate(rules, hands=60, bots=("random", "random_card"), seed=31, duplicate=True)
    mixed = cf.simulate(rules, hands=60, bots=seats, seed=31, duplicate=True)
    assert mixed.threads == 1
    assert mixed.bots[0] == "PyRandomBot"
    same_arrays(rust, mixed)
    assert all(b.resets == 120 for b in py_bots)


def test_python_bot_in_matches_mode_matches_the_builtin() -> None:
    rules = Rules.scopa()
    rust = cf.simulate(rules, matches=15, bots=("greedy", "random"), seed=6)
    mixed = cf.simulate(rules, matches=15, bots=("greedy", PyRandomBot()), seed=6)
    same_arrays(rust, mixed)


def test_python_first_move_bot_against_a_python_replay() -> None:
    rules = Rules.chkobba()
    bot = FirstBot()
    r = cf.simulate(rules, hands=25, bots=bot, seed=13)
    assert r.bots == ("first", "first")
    for i in range(25):
        state = cf.State.new(rules, r.deal_seed(i))
        while not state.hand_over:
            state = state.play(state.legal_moves()[0])
        rep = state.hand_report()
        assert list(r.points[i]) == rep.points
        assert list(r.sweeps[i]) == rep.sweeps
        assert list(r.awards[i]) == [-1 if a is None else a for a in rep.awards.values()]
    # The bot saw views of its own seat, with that seat to move.
    assert all(isinstance(v, cf.View) and v.to_move == v.seat for v in bot.views)


def test_python_bot_may_return_move_notation() -> None:
    class Notation:
        def choose(self, state: cf.View) -> str:
            return str(state.legal_moves()[-1])

    r = cf.simulate(Rules.scopa(), hands=10, bots=(Notation(), "random"))
    assert r.completed == 10


def test_python_bot_illegal_move_raises() -> None:
    class Cheater:
        def choose(self, state: cf.View) -> cf.Move:
            hand = state.hand
            return cf.Move.play(hand[0], state.table) if state.table else cf.Move("7D x 7C")

    with pytest.raises(cf.IllegalMoveError, match=r"seat 0 \(Cheater\).*not legal: ") as info:
        cf.simulate(Rules.scopa(), hands=5, bots=(Cheater(), "random"))
    assert isinstance(info.value, ValueError)
    assert "hint: choose one of `view.legal_moves()`" in str(info.value)


def test_python_bot_unparsable_and_wrongly_typed_moves() -> None:
    class Garbage:
        def __init__(self, value: Any) -> None:
            self.value = value

        def choose(self, state: cf.View) -> Any:
            return self.value

    with pytest.raises(cf.IllegalMoveError):
        cf.simulate(Rules.scopa(), hands=3, bots=(Garbage("not a move"), "random"))
    with pytest.raises(TypeError):
        cf.simulate(Rules.scopa(), hands=3, bots=(Garbage(7), "random"))


def test_python_bot_exception_propagates() -> None:
    class Boom(Exception):
        pass

    class Crasher:
        def __init__(self) -> None:
            self.calls = 0

        def choose(self, state: cf.View) -> cf.Move:
            self.calls += 1
            if self.calls == 30:
                raise Boom("bot failed")
            return state.legal_moves()[0]

    bot = Crasher()
    with pytest.raises(Boom, match="bot failed"):
        cf.simulate(Rules.scopa(), hands=100, bots=("random", bot))
    assert bot.calls == 30, "the bot is not called again after it failed"


def test_a_python_bot_cannot_undo_its_seed_into_the_deal() -> None:
    """A bot's seed must not lead back to the deal seed, which would give every hidden card
    through `State.new`. Each step of SplitMix64 inverts; a bot seed made by one `derive` of
    the deal did (an audit's spy bot read the whole deal in 500 of 500 hands)."""
    mask = 2**64 - 1

    def unshift(z: int, s: int) -> int:
        x = z
        for _ in range(64 // s + 1):
            x = z ^ (x >> s)
        return x & mask

    def unmix(z: int) -> int:
        z = unshift(z, 31)
        z = (z * pow(0x94D049BB133111EB, -1, 2**64)) & mask
        z = unshift(z, 27)
        z = (z * pow(0xBF58476D1CE4E5B9, -1, 2**64)) & mask
        return unshift(z, 30)

    rules = Rules.scopa()
    res = cf.simulate(rules, 200, seed=7)
    for d in range(200):
        deal = res.deal_seed(d)
        for seat, bot_seed in enumerate(res.bot_seeds(d)):
            # Undo one derive of `deal ^ salt` (the old formula) and the salt.
            state = (unmix(bot_seed) - 0x9E3779B97F4A7C15) & mask
            guess = state ^ 0xB075EED5B075EED5 ^ ((seat * 0xD1B54A32D192ED03) & mask)
            assert guess != deal, (d, seat)
    # The bot seeds still differ by seat and by deal.
    seeds = {s for d in range(200) for s in res.bot_seeds(d)}
    assert len(seeds) == 400


def test_simulate_refuses_a_thread_count_past_1024_and_rules_of_another_type() -> None:
    for threads in (1025, 2**62, 2**63):  # 2**62 overflowed the chunk size: a panic
        with pytest.raises(cf.ArgumentError, match="threads must be from 1 to 1024"):
            cf.simulate(Rules.scopa(), 10, threads=threads)
    with pytest.raises(TypeError, match=r"rules must be a capturefast\.Rules"):
        cf.simulate("scopa", 10)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"rules must be a capturefast\.Rules"):
        cf.tournament("scopa", ["random", "greedy"], 10)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a list of bots"):
        cf.tournament(Rules.scopa(), "random", 10)  # type: ignore[arg-type]


def test_python_bot_keyboard_interrupt_returns_what_finished() -> None:
    class Interrupter(FirstBot):
        def choose(self, state: cf.View) -> cf.Move:
            if len(self.views) == 18 * 7 + 5:  # during the 8th hand
                raise KeyboardInterrupt
            return super().choose(state)

    rules = Rules.scopa()
    r = cf.simulate(rules, hands=50, bots=(Interrupter(), "random"), seed=3)
    full = cf.simulate(rules, hands=50, bots=(FirstBot(), "random"), seed=3)
    assert r.interrupted and (r.completed, r.requested) == (7, 50)
    assert r.num_hands == 7
    assert np.array_equal(r.points, full.points[:7])
    assert "interrupted: 7 of 50 finished" in str(r)


def test_object_without_choose_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="`choose\\(view\\)` method, got: int"):
        cf.simulate(Rules.scopa(), hands=3, bots=(3, "random"))  # type: ignore[arg-type]


# ----- arguments -----


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hands": 10, "bots": ("random", "nope")}, "unknown bot .*: nope"),
        ({"hands": 10, "bots": ("random", "random", "random")}, "2 players need 2 bots, got: 3"),
        ({"hands": 10, "bots": ["random"]}, "2 players need 2 bots, got: 1"),
        ({"hands": 0}, "hands must be from 1 to .*, got: 0"),
        ({"hands": -5}, "hands must be from 1 to .*, got: -5"),
        ({"matches": 0}, "matches must be from 1 to .*, got: 0"),
        ({"hands": 10, "matches": 10}, "either hands or matches"),
        ({}, "either hands or matches"),
        ({"hands": 10, "threads": 0}, "threads must be from 1 to 1024.*got: 0"),
        ({"hands": 10, "seed": -1}, "seed must be from 0 to 2\\*\\*64 - 1, got: -1"),
        ({"hands": 10, "seed": 2**64}, "seed must be from 0"),
    ],
)
def test_bad_arguments_are_capturefast_value_errors(kwargs: Any, message: str) -> None:
    # A number out of its range is an ArgumentError; a bad bot or mode, a VariantError.
    with pytest.raises((cf.VariantError, cf.ArgumentError), match=message) as info:
        cf.simulate(Rules.scopa(), **kwargs)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, cf.CaptureFastError)
    numeric = " must be from " in message
    assert isinstance(info.value, cf.ArgumentError) == numeric, message


def test_four_players_take_one_bot_per_seat_or_per_side() -> None:
    rules = Rules.scopa(players=4)
    by_side = cf.simulate(rules, hands=200, bots=("greedy", "random"), seed=1)
    by_seat = cf.simulate(rules, hands=200, bots=("greedy", "random") * 2, seed=1)
    assert by_side.bots == ("greedy", "random", "greedy", "random")
    assert by_side.teams == ("greedy", "random")
    same_arrays(by_side, by_seat)
    mixed = cf.simulate(rules, hands=10, bots=("greedy", "random", "expert", "random"))
    assert mixed.teams == ("greedy+expert", "random")
    with pytest.raises(cf.VariantError, match=r"4 players need 4 bots .* got: 3"):
        cf.simulate(rules, hands=10, bots=("random",) * 3)


def test_wrong_types_are_type_errors() -> None:
    with pytest.raises(TypeError):
        cf.simulate(Rules.scopa(), hands=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cf.simulate(Rules.scopa(), hands=True)
    with pytest.raises(TypeError):
        cf.simulate(Rules.scopa(), hands=10, seed="1")  # type: ignore[arg-type]


def test_bot_names_lists_the_builtin_bots() -> None:
    names = cf.bot_names()
    assert names[:2] == ["random", "random_card"]
    for name in names:
        assert cf.simulate(Rules.scopa(), hands=2, bots=name).completed == 2
    assert cf.bot_names(search=True) == [*names, "pimc", "ismcts"]


# ----- summary and export -----


@pytest.mark.parametrize("duplicate", [False, True])
def test_summary_means_are_the_array_means(duplicate: bool) -> None:
    rules = Rules.escoba()
    r = cf.simulate(rules, hands=2000, bots=("greedy", "random"), seed=4, duplicate=duplicate)
    s = r.summary()
    pts = r.by_team(r.points)
    sw = r.by_team(r.sweeps)
    assert s.teams == ("greedy", "random")
    assert s.hands == r.num_hands
    for team in (0, 1):
        assert s.points[team].mean == pytest.approx(pts[:, team].mean())
        assert s.sweeps[team].mean == pytest.approx(sw[:, team].mean())
    assert s.difference.mean == pytest.approx((pts[:, 0] - pts[:, 1].astype(float)).mean())
    team_awards = np.where(r.awards < 0, -1, r.awards ^ r.swapped[:, None])
    for i, name in enumerate(rules.categories):
        a, b, tie = s.categories[name]
        assert a.mean == pytest.approx((team_awards[:, i] == 0).mean())
        assert b.mean == pytest.approx((team_awards[:, i] == 1).mean())
        assert tie.mean == pytest.approx((r.awards[:, i] == -1).mean())
        assert a.mean + b.mean + tie.mean == pytest.approx(1.0)
    if not duplicate:
        assert s.points[0].mean == pytest.approx(r.points[:, 0].mean())
        x = r.points[:, 0].astype(float)
        assert s.points[0].half_width == pytest.approx(1.959964 * x.std(ddof=1) / np.sqrt(len(x)))
    for e in s.points:
        assert e.low < e.mean < e.high


def test_a_rate_has_wilsons_interval() -> None:
    # Textbook values: 0 of 10 gives 0 to 27.75%, 5 of 10 gives 23.66% to 76.34%.
    none = cf.Estimate.rate(np.zeros(10, dtype=np.bool_))
    assert none.to_dict()["ci"] == [0.0, pytest.approx(0.277533, abs=1e-6)]
    half = cf.Estimate.rate(np.array([1] * 5 + [0] * 5))
    assert half.to_dict()["ci"] == pytest.approx([0.236593, 0.763407], abs=1e-6)
    every = cf.Estimate.rate(np.ones(3))
    assert (every.low, every.high) == (pytest.approx(0.438503, abs=1e-6), 1.0)
    assert every.format(percent=True) == "100.0% (43.9-100.0)"
    assert str(cf.Estimate.rate(np.ones(1))) == "1.000 (0.207-1.000)", "one outcome is enough"
    # Means of two outcomes (duplicate deals) with no spread: as many trials as outcomes.
    split = cf.Estimate.rate(np.full(5, 0.5), outcomes=2)
    assert split.bounds == pytest.approx(cf.Estimate.rate(np.array([1, 0] * 5)).bounds)


@pytest.mark.parametrize("duplicate", [False, True])
def test_a_rate_of_many_hands_has_the_interval_of_the_normal_approximation(
    duplicate: bool,
) -> None:
    # What the summary printed before (mean ± 1.96 sd / sqrt(n), over deals in duplicate
    # mode), to a tenth of a percentage point: only small samples read differently.
    r = cf.simulate(Rules.scopa(), 10_000, bots=("expert", "greedy"), duplicate=duplicate)
    team_awards = np.where(r.awards < 0, -1, r.awards ^ r.swapped[:, None])
    summary = r.summary()
    for i, name in enumerate(r.rules.categories):
        x = (team_awards[:, i] == 0).astype(np.float64)
        if duplicate:
            x = x.reshape(-1, 2).mean(axis=1)
        normal = cf.Estimate.of(x)
        wilson = summary.categories[name][0]
        assert wilson.bounds is not None
        assert wilson.low == pytest.approx(normal.low, abs=1e-3), name
        assert wilson.high == pytest.approx(normal.high, abs=1e-3), name


def test_summary_of_matches() -> None:
    r = cf.simulate(Rules.scopa(), matches=400, bots=("greedy", "random"), seed=10)
    s = r.summary()
    assert r.match_winner is not None and r.match_hands is not None
    assert s.matches == 400
    assert s.wins is not None and s.hands_per_match is not None
    assert s.wins[0].mean == pytest.approx((r.match_winner == 0).mean())
    assert s.wins[0].mean + s.wins[1].mean == pytest.approx(1.0)
    assert s.hands_per_match.mean == pytest.approx(r.match_hands.mean())
    assert s.wins[0].mean > 0.7, "greedy wins most matches against random"
    d = s.to_dict()
    assert d["matches"] == 400 and len(d["wins"]) == 2
    assert "matches won" in str(r)


def test_summary_to_dict_and_text() -> None:
    r = cf.simulate(Rules.chkobba(), hands=500, bots=("random", "greedy"), seed=2)
    d = r.to_dict()
    assert d["game"] == "chkobba" and d["bots"] == ["random", "greedy"]
    assert d["requested"] == d["completed"] == 500 and d["interrupted"] is False
    s = d["summary"]
    assert set(s["categories"]) == set(Rules.chkobba().categories)
    lo, hi = s["points"][0]["ci"]
    assert lo < s["points"][0]["mean"] < hi
    text = str(r)
    assert text.startswith("chkobba, 2 players, 500 deals, seed 2: A = random, B = greedy")
    for line in ("points per hand", "sweeps per hand", "karta", "bermila", "A - B"):
        assert line in text
    one = cf.simulate(Rules.scopa(), hands=1).summary()
    assert one.points[0].to_dict()["ci"] == [None, None], "no interval from one sample"


def test_to_pandas() -> None:
    pytest.importorskip("pandas")
    rules = Rules.scopa()
    r = cf.simulate(rules, hands=300, bots=("greedy", "random"), duplicate=True, seed=1)
    df = r.to_pandas()
    assert len(df) == 600
    assert list(df.columns) == [
        "deal",
        "swapped",
        "dealer",
        "points_0",
        "points_1",
        "sweeps_0",
        "sweeps_1",
        *rules.categories,
    ]
    assert df["points_0"].dtype == np.int16
    assert df["deal"].tolist()[:4] == [0, 0, 1, 1]
    assert (df.groupby("swapped")["points_0"].mean().diff().abs() > 0.5).any()
    m = cf.simulate(rules, matches=20, seed=1)
    mdf = m.to_pandas("matches")
    assert list(mdf.columns) == ["match", "swapped", "score_0", "score_1", "winner", "hands"]
    assert len(mdf) == 20 and mdf["hands"].sum() == len(m.to_pandas())
    # In duplicate mode both tables number a match and its replay alike, and join on it.
    d = cf.simulate(rules, matches=20, bots=("greedy", "random"), duplicate=True, seed=1)
    per_match, per_hand = d.to_pandas("matches"), d.to_pandas()
    assert per_match["match"].tolist() == [k // 2 for k in range(40)]
    assert per_match["swapped"].tolist() == [k % 2 == 1 for k in range(40)]
    summed = per_hand.groupby(["match", "swapped"])[["points_0", "points_1"]].sum()
    assert summed.to_numpy().tolist() == per_match[["score_0", "score_1"]].to_numpy().tolist()
    with pytest.raises(cf.VariantError):
        r.to_pandas("matches")
    with pytest.raises(cf.VariantError):
        r.columns("deals")


# ----- progress, interruption, GIL -----


def test_progress_callback() -> None:
    calls: list[tuple[int, int]] = []
    r = cf.simulate(Rules.scopa(), hands=3000, progress=lambda d, t: calls.append((d, t)))
    assert r.completed == 3000
    assert calls[-1] == (3000, 3000)
    assert all(t == 3000 and 0 <= d <= 3000 for d, t in calls)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_progress_bar_writes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    cf.simulate(Rules.scopa(), hands=100, progress=True)
    err = capsys.readouterr().err
    assert "100/100 deals" in err and "100%" in err
    assert err.endswith("\n")


def test_progress_callback_error_propagates() -> None:
    def fail(done: int, total: int) -> None:
        raise RuntimeError("progress failed")

    with pytest.raises(RuntimeError, match="progress failed"):
        cf.simulate(Rules.scopa(), hands=100, progress=fail)


@pytest.mark.parametrize("threads", [1, 2])
def test_keyboard_interrupt_returns_a_prefix(threads: int) -> None:
    rules = Rules.scopa()
    n = 2_000_000

    def interrupt(done: int, total: int) -> None:
        if done > 0:
            raise KeyboardInterrupt

    r = cf.simulate(rules, hands=n, seed=5, threads=threads, progress=interrupt)
    assert r.interrupted
    assert 0 < r.completed < n
    assert r.num_hands == r.completed
    full = cf.simulate(rules, hands=r.completed, seed=5)
    same_arrays(r, full)


def test_simulate_releases_the_gil() -> None:
    rules = Rules.scopa()
    n = 20_000
    t0 = time.perf_counter()
    cf.simulate(rules, hands=n, threads=1)
    n = max(n, int(n * 0.6 / (time.perf_counter() - t0)))
    t0 = time.perf_counter()
    cf.simulate(rules, hands=n, threads=1)
    duration = time.perf_counter() - t0
    gap, ticks = longest_stall(cf.simulate, rules, n, threads=1)
    assert gap < duration / 2, (gap, duration)
    assert ticks > 100


# ----- tournament -----


def test_tournament_table_and_ranking() -> None:
    rules = Rules.scopa()
    t = cf.tournament(rules, ["random", "greedy", "random_card"], hands=400, seed=3)
    assert t.names == ("random", "greedy", "random_card")
    assert set(t.results) == {(0, 1), (0, 2), (1, 2)}
    for r in t.results.values():
        assert r.duplicate and r.completed == 400 and r.num_hands == 800
    mean, half = t.table()
    assert mean.shape == half.shape == (3, 3)
    assert np.isnan(np.diag(mean)).all()
    assert np.allclose(mean, -mean.T, equal_nan=True)
    assert (half[~np.eye(3, dtype=bool)] > 0).all()
    # The pair figure is the duplicate run's paired difference.
    assert mean[1, 0] == pytest.approx(t.results[(0, 1)].summary().difference.mean * -1)
    ranking = t.ranking()
    assert [s.rank for s in ranking] == [1, 2, 3]
    assert ranking[0].name == "greedy"
    assert ranking[0].difference.mean == pytest.approx((mean[1, 0] + mean[1, 2]) / 2)
    assert sum(s.difference.mean for s in ranking) == pytest.approx(0.0, abs=1e-9)
    text = str(t)
    assert "ranking" in text and "1. greedy" in text
    d = t.to_dict()
    assert [p["a"] for p in d["pairs"]] == ["random", "random", "greedy"]
    assert d["ranking"][0]["name"] == "greedy"
    pytest.importorskip("pandas")
    df = t.to_pandas()
    assert list(df.index) == list(t.names) and df.loc["greedy", "random"] > 1.0


def test_tournament_pairs_play_the_same_deals() -> None:
    rules = Rules.escoba(players=4)
    t = cf.tournament(rules, ["random", "random_card", "greedy"], hands=50, seed=8)
    dealers = [r.dealer for r in t.results.values()]
    assert all(np.array_equal(d, dealers[0]) for d in dealers)
    assert t.results[(0, 1)].bots == ("random", "random_card", "random", "random_card")


def test_tournament_names_and_errors() -> None:
    t = cf.tournament(Rules.scopa(), ["random", "random", FirstBot()], hands=20)
    assert t.names == ("random", "random#2", "first")
    with pytest.raises(cf.VariantError, match="at least 2 bots, got: 1"):
        cf.tournament(Rules.scopa(), ["random"], hands=10)
    with pytest.raises(cf.VariantError, match="unknown bot"):
        cf.tournament(Rules.scopa(), ["random", "bogus"], hands=10)


def test_tournament_interrupted() -> None:
    calls = 0

    def interrupt(done: int, total: int) -> None:
        nonlocal calls
        calls += 1
        if done >= 30:
            raise KeyboardInterrupt

    t = cf.tournament(
        Rules.scopa(), ["random", "greedy", "random_card"], hands=20, progress=interrupt
    )
    assert t.interrupted
    assert len(t.results) < 3
    assert t.ranking() == []
    assert "not every pair" in str(t)


VARIANT_RULES = [
    *(cf.variants.rules(name) for name in cf.variants.preset_names()),
    Rules.escoba(compulsory_capture=False, renuncio=True),
    Rules.scopa(players=4, compulsory_capture=False, renuncio=True, direction="clockwise"),
    Rules.chkobba(fewest_cards=True, ace_takes_all=True),
]


@pytest.mark.parametrize("rules", VARIANT_RULES, ids=repr)
def test_every_builtin_bot_plays_every_variant(rules: Rules) -> None:
    """Claims, optional trails, aces taking all, 9-10 card hands: every bot plays whole matches
    (a bot that chose an illegal move, or mis-evaluated one, would stop the run with an error)."""
    for bot in cf.bot_names():
        res = cf.simulate(rules, matches=4, bots=(bot, "random"), seed=3)
        assert res.match_winner is not None and res.match_scores is not None
        assert set(np.unique(res.match_winner)) <= {0, 1}
        assert (res.match_scores.max(axis=1) >= rules.target).all() or rules.options.get(
            "all_coins_wins"
        )


@pytest.mark.parametrize("rules", VARIANT_RULES, ids=repr)
def test_pimc_plays_every_variant(rules: Rules) -> None:
    """The search bot (not in `bot_names()`: it takes milliseconds a move) plays a hand of each."""
    res = cf.simulate(rules, 2, bots=("pimc", "expert"), seed=5)
    assert res.points.shape == (2, 2)
    assert (res.points.sum(axis=1) > 0).all() or rules.options.get("all_coins_wins")


def test_pimc_plays_optional_capture_and_claims() -> None:
    """It searches each world to the end of the round only, so a variant where every card may
    also trail (and trails may be claimed) plays as fast as the default game."""
    rules = Rules.escoba(compulsory_capture=False, renuncio=True)
    res = cf.simulate(rules, 2, bots=("pimc", "random"), seed=4)
    assert res.points.shape == (2, 2)
    assert (res.points.sum(axis=1) > 0).all()
    # Solving each world to the end of the hand explodes there: refused, not a hang.
    with pytest.raises(cf.VariantError, match="compulsory"):
        cf.simulate(rules, 1, bots=("pimc:horizon=hand", "random"))


def test_search_bots_take_a_budget_in_their_name() -> None:
    """``pimc:worlds=N,horizon=round|hand,eval=equity|fitted,ms=T`` and
    ``ismcts:iterations=N,ms=T``: the spec
    is the player's name, and a bad budget is a clear error naming it."""
    rules = Rules.scopa()
    a = cf.simulate(rules, 2, bots=("pimc:worlds=3", "ismcts:iterations=30"), seed=2)
    b = cf.simulate(rules, 2, bots=("pimc:worlds=3", "ismcts:iterations=30"), seed=2)
    assert (a.points == b.points).all()
    t = cf.tournament(rules, ["pimc:worlds=2,horizon=hand", "random"], hands=2, seed=1)
    assert "pimc:worlds=2,horizon=hand" in str(t)
    fitted = cf.simulate(rules, 2, bots=("pimc:worlds=3,eval=fitted", "random"), seed=2)
    assert fitted.points.shape == (2, 2)
    for spec, why in [
        ("pimc:worlds=0", "worlds must be a whole number from 1 to 10000, got: 0"),
        # Bounded, so that a decision ends in reasonable time.
        ("pimc:worlds=10001", "worlds must be a whole number from 1 to 10000, got: 10001"),
        ("ismcts:iterations=1000001", "iterations must be a whole number from 1 to 1000000"),
        ("pimc:ms=60001", "ms must be a whole number from 1 to 60000"),
        ("greedy:worlds=3", "only pimc and ismcts take a budget"),
        ("ismcts:depth=3", r"unknown ismcts budget \(expected one of iterations, ms\): depth$"),
        ("pimc:eval=learned", "eval is equity or fitted, got: learned"),
        ("ismcts:eval=fitted", r"unknown ismcts budget \(.*\): eval$"),
    ]:
        with pytest.raises(cf.VariantError, match=why):
            cf.simulate(rules, 1, bots=(spec, "random"))


def test_a_printed_summary_is_its_table() -> None:
    res = cf.simulate(Rules.scopa(), 50, bots=("greedy", "random"), seed=1)
    summary = res.summary()
    assert str(summary) == summary.table()
    assert "points per hand" in str(summary) and "Estimate(" not in str(summary)
