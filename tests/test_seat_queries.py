"""Bots and queries from what one seat sees: `cf.Bot(name).choose(position)`, `cf.analyze`
and `cf.solve` taking a `View` or a line of the position notation, and `View.from_seat`."""

from __future__ import annotations

import random

import capturefast as cf
import pytest
from played import expert_history

BOTS = ["random", "random_card", "greedy", "expert", "pimc:worlds=10", "ismcts:iterations=100"]


def _positions() -> list[cf.State]:
    out = []
    for rules in (cf.Rules.scopa(), cf.Rules.escoba(players=4), cf.Rules.chkobba()):
        for seed in range(3):
            rng = random.Random(seed)
            state = cf.State.new(rules, seed=seed)
            while not state.hand_over:
                if rng.random() < 0.2:
                    out.append(state)
                state = state.play(rng.choice(state.legal_moves()))
    return out


POSITIONS = _positions()


@pytest.mark.parametrize("name", BOTS)
def test_a_bot_chooses_a_legal_move_from_a_view_a_state_or_a_line(name: str) -> None:
    for state in POSITIONS[::4]:
        view = state.view(state.to_move)
        bot = cf.Bot(name, seed=3)
        move = bot.choose(view)
        assert move in view.legal_moves()
        assert move.sweep == state.is_sweep(move)
        # The same decision whatever the position is given as: the bot sees only the view.
        assert bot.choose(state) == move
        assert bot.choose(view.to_notation()) == move
        assert bot.choose(state.to_notation()) == move


def test_a_bot_sees_only_the_view() -> None:
    # Two states that differ only in cards the mover cannot see get the same move.
    rules = cf.Rules.scopa()
    state = cf.State.new(rules, seed=11)
    mover = state.to_move
    other = 1 - mover
    hands = [list(h) for h in state.hands]
    stock = list(state.stock)
    hands[other][0], stock[5] = stock[5], hands[other][0]
    twin = cf.State.from_position(
        rules, hands=hands, table=state.table, stock=stock, to_move=mover, dealer=state.dealer
    )
    assert twin.view(mover) == state.view(mover)
    for name in ("expert", "pimc:worlds=20"):
        assert cf.Bot(name, seed=1).choose(twin) == cf.Bot(name, seed=1).choose(state)


def test_bad_bots_and_positions_are_refused() -> None:
    with pytest.raises(cf.VariantError, match="unknown bot"):
        cf.Bot("grandmaster")
    with pytest.raises(cf.VariantError, match="worlds must be"):
        cf.Bot("pimc:worlds=0")
    with pytest.raises(cf.ArgumentError):
        cf.Bot("greedy", seed=-1)
    state = cf.State.new(cf.Rules.scopa(), seed=1)
    not_to_move = state.view(1 - state.to_move)
    with pytest.raises(cf.IllegalMoveError, match="not to move"):
        cf.Bot("greedy").choose(not_to_move)
    with pytest.raises(cf.NotationError):
        cf.Bot("greedy").choose("scopa players=2")
    with pytest.raises(TypeError):
        cf.Bot("greedy").choose(42)  # type: ignore[arg-type]
    optional = cf.State.new(cf.Rules("escoba", compulsory_capture=False), seed=1)
    with pytest.raises(cf.VariantError, match="compulsory"):
        cf.Bot("pimc:horizon=hand").choose(optional)
    assert repr(cf.Bot("expert", seed=2)) == 'Bot("expert", seed=2)'


def test_analyze_takes_a_view_or_a_line_and_gives_what_the_state_gives() -> None:
    for state in POSITIONS[::9]:
        view = state.view(state.to_move)
        want = cf.analyze(state, worlds=8, seed=2, horizon="round")
        assert cf.analyze(view, worlds=8, seed=2, horizon="round") == want
        assert cf.analyze(view.to_notation(), worlds=8, seed=2, horizon="round") == want
        assert cf.analyze(state.to_notation(), worlds=8, seed=2, horizon="round") == want
    state = POSITIONS[0]
    with pytest.raises(cf.IllegalMoveError):
        cf.analyze(state.view(state.to_move), seat=(state.to_move + 1) % state.num_players)


def test_solve_takes_a_state_line() -> None:
    rules = cf.Rules.scopa()
    rng = random.Random(0)
    state = cf.State.new(rules, seed=4)
    while state.stock_size:
        state = state.play(rng.choice(state.legal_moves()))
    assert cf.solve(state.to_notation()).value == cf.solve(state).value
    with pytest.raises(cf.NotationError) as info:
        cf.solve(state.view(0).to_notation())
    assert info.value.field == "seat"


def test_a_view_from_what_the_seat_knows() -> None:
    for state in POSITIONS[::3]:
        for seat in range(state.num_players):
            v = state.view(seat)
            built = cf.View.from_seat(
                state.rules,
                seat=seat,
                hand=v.hand,
                table=v.table,
                hand_sizes=v.hand_sizes,
                stock_size=v.stock_size,
                dealer=v.dealer,
                to_move=v.to_move,
                piles=v.piles,
                sweeps=v.sweeps,
                scores=v.scores,
                last_capturer=v.last_capturer,
                declared=v.declared,
                claimable=v.claimable,
                cut_card=v.cut_card,
                phase=v.phase,
            )
            assert built == v
            world = built.determinize(seed=seat)
            assert world.view(seat) == v
    v = POSITIONS[1].view(0)
    with pytest.raises(cf.NotationError) as info:
        cf.View.from_seat(
            cf.Rules.scopa(),
            seat=0,
            hand=v.hand,
            table=v.table,
            hand_sizes=[1, 9],
            stock_size=v.stock_size,
            dealer=v.dealer,
            to_move=v.to_move,
        )
    assert info.value.field in ("hands", "stock")


def _expert_game(rules: cf.Rules, seed: int) -> list[tuple[cf.State, cf.Move]]:
    """A whole hand played by `expert`: each state with the move played in it."""
    return expert_history(rules, seed)[1]


def test_a_history_informs_pimc_infer_and_only_it() -> None:
    rules = cf.Rules.escoba()
    changed = 0
    for seed in range(4):
        played = _expert_game(rules, seed)
        for i, (state, _) in enumerate(played):
            if state.view(state.to_move).stock_size == 0:  # type: ignore[arg-type]
                continue  # nothing hidden: one world, nothing to weigh
            history = played[:i]
            plain = cf.Bot("pimc:worlds=30,infer=off", seed=5).choose(state)
            told = cf.Bot("pimc:worlds=30", seed=5).choose(state, history)
            # No history, no inference: the uniform draw of `infer=off`.
            assert cf.Bot("pimc:worlds=30", seed=5).choose(state) == plain
            # A bot that does not read the others' play ignores the history.
            assert cf.Bot("expert", seed=5).choose(state, history) == cf.Bot(
                "expert", seed=5
            ).choose(state)
            # Moves given as notation read as the moves themselves.
            texts = [(s, str(m)) for s, m in history]
            assert cf.Bot("pimc:worlds=30", seed=5).choose(state, texts) == told
            changed += told != plain
    assert changed > 0


def test_a_history_is_read_as_the_seat_sees_it() -> None:
    # The same history with the other seat's hidden cards changed gives the same move.
    rules = cf.Rules.scopa()
    played = _expert_game(rules, 2)
    state, _ = played[4]
    mover = state.to_move
    assert mover is not None
    bot = cf.Bot("pimc:worlds=40", seed=1)
    want = bot.choose(state, played[:4])
    twins = []
    for before, move in played[:4]:
        hands = [list(h) for h in before.hands]
        stock = list(before.stock)
        other = 1 - mover
        swap = next(i for i, c in enumerate(hands[other]) if c != move.card)
        hands[other][swap], stock[3] = stock[3], hands[other][swap]
        twin = cf.State.from_position(
            rules,
            hands=hands,
            table=before.table,
            stock=stock,
            to_move=before.to_move,
            dealer=before.dealer,
            last_capturer=before.last_capturer,
            piles=before.piles,
            sweeps=before.sweeps,
        )
        assert twin.view(mover) == before.view(mover)
        twins.append((twin, move))
    assert bot.choose(state, twins) == want


def test_a_bad_history_is_refused() -> None:
    played = _expert_game(cf.Rules.scopa(), 3)
    state, _ = played[3]
    bot = cf.Bot("pimc:worlds=10")
    before, move = played[1]
    with pytest.raises(cf.IllegalMoveError, match=r"history\[0\]: .* is not a legal move"):
        bot.choose(state, [(before, played[2][1])])
    with pytest.raises(cf.IllegalMoveError, match="other rules"):
        other = cf.State.new(cf.Rules.escoba(), seed=3)
        bot.choose(state, [(other, other.legal_moves()[0])])
    with pytest.raises(cf.CaptureFastError, match="not a move") as bad:
        bot.choose(state, [(before, "not a move")])
    assert isinstance(bad.value, ValueError)
    assert bot.choose(state, [(before, move)]) in state.legal_moves()
    # A history of the wrong shape names the argument (a string would iterate characters).
    for call in (bot.choose, lambda s, h: cf.analyze(s, worlds=3, history=h)):
        with pytest.raises(cf.ArgumentError, match=r"history is a list of .* got a string"):
            call(state, "AC")
        with pytest.raises(TypeError, match=r"history is a list of .*got: int"):
            call(state, 5)
        with pytest.raises(TypeError, match=r"history\[1\] is a \(State, move\) pair, got: 3"):
            call(state, [(before, move), 3])
    with pytest.raises(TypeError, match=r"name must be a str.*got: int"):
        cf.Bot(3)  # type: ignore[arg-type]
    # Moves that cannot have led to the position: of another deal, out of order, of the hand
    # before, or a move told from the position itself (it was not played before it). Refused,
    # where they would otherwise inform nothing.
    elsewhere = _expert_game(cf.Rules.scopa(), 4)[:3]
    out_of_order = [played[2], played[0], played[1]]
    finished = played[-1][0].play(played[-1][1])
    assert finished.hand_over
    fresh = finished.next_hand()
    for position, history, where in [
        (state, elsewhere, "the position"),
        (state, out_of_order, "the next move's"),
        (fresh, played[-3:], "the position"),
        (state, [(state, state.legal_moves()[0])], "the position"),
    ]:
        with pytest.raises(cf.PositionError, match=rf"cannot come before {where}") as e:
            bot.choose(position, history)
        assert isinstance(e.value, ValueError)
        with pytest.raises(cf.PositionError, match="another deal or hand"):
            cf.analyze(position, worlds=3, history=history)
    with pytest.raises(cf.PositionError, match="not the state its move was played from"):
        cf.analyze(state, worlds=3, history=[(state, state.legal_moves()[0])])


def test_an_analysis_told_the_history_weighs_its_worlds() -> None:
    rules = cf.Rules.escoba()
    changed = 0
    solver = cf.Solver()
    for seed in range(3):
        played = _expert_game(rules, seed)
        for i, (state, _) in enumerate(played):
            if state.view(state.to_move).stock_size == 0:  # type: ignore[arg-type]
                continue
            history = played[:i]
            plain = cf.analyze(state, worlds=30, seed=5)
            # No moves told, or none: the uniform draw.
            assert cf.analyze(state, worlds=30, seed=5, history=[]) == plain
            told = cf.analyze(state, worlds=30, seed=5, history=history)
            assert [s.move for s in told.moves] == [s.move for s in plain.moves]
            # A kept solver weighs the same worlds.
            assert solver.analyze(state, worlds=30, seed=5, history=history) == told
            changed += told != plain
    assert changed > 0


def test_an_analysis_refuses_a_bad_history() -> None:
    played = _expert_game(cf.Rules.scopa(), 3)
    state, _ = played[3]
    with pytest.raises(cf.IllegalMoveError, match=r"history\[0\]: .* is not a legal move"):
        cf.analyze(state, history=[(played[1][0], played[2][1])])
    with pytest.raises(cf.ArgumentError, match="string") as bad:
        cf.analyze(state, history="7D")  # type: ignore[arg-type]
    assert isinstance(bad.value, ValueError)
