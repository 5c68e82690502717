"""The exact solver against a plain full minimax over the reference engine, and the query API.

`reference.minimax` shares no code with the core: it plays every line of play with the Python
reference engine. The solver's value and every move's value must equal it.
"""

from __future__ import annotations

import functools
import json
import random
import subprocess
import sys
import threading
from typing import Any

import capturefast as cf
import pytest
from played import expert_history
from reference import RefRules, RefState, format_move, minimax

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("scopa", 2, {}),
    ("scopa", 4, {}),
    ("escoba", 2, {}),
    ("escoba", 4, {}),
    ("chkobba", 2, {}),
    ("chkobba", 4, {}),
    ("scopa", 2, {"last_play_sweep": "counts"}),
    ("chkobba", 2, {"chkobba_face_values": "italian", "last_play_sweep": "counts"}),
]


def cards_left(state: cf.State) -> int:
    return sum(len(h) for h in state.hands) + state.stock_size


def position_with(rules: cf.Rules, seed: int, left: int) -> cf.State:
    """A position from a random deal played randomly until `left` plays remain."""
    rng = random.Random(seed)
    state = cf.State.new(rules, seed=seed)
    while state.phase == "cut" or cards_left(state) > left:
        state = state.play(rng.choice(state.legal_moves()))
    return state


def to_reference(state: cf.State, game: str, players: int, options: dict[str, Any]) -> RefState:
    return RefState.from_position(
        RefRules(game, players, **options),
        hands=[[str(c) for c in h] for h in state.hands],
        table=[str(c) for c in state.table],
        stock=[str(c) for c in state.stock],
        to_move=int(state.to_move),  # type: ignore[arg-type]
        dealer=state.dealer,
        last_capturer=state.last_capturer,
        piles=[[str(c) for c in p] for p in state.piles],
        sweeps=list(state.sweeps),
        scores=list(state.scores),
    )


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS)
@pytest.mark.parametrize("left", [4, 6])
def test_solver_equals_plain_minimax(
    game: str, players: int, options: dict[str, Any], left: int
) -> None:
    rules = cf.Rules(game, players=players, **options)
    for seed in range(20):
        state = position_with(rules, seed, left)
        sol = cf.solve(state)
        ref = to_reference(state, game, players, options)
        expected = minimax.move_values(ref)
        got = {str(m): v for m, v in sol.move_values.items()}
        assert got == {format_move(m): v for m, v in expected.items()}, (seed, str(state))
        assert sol.value == max(expected.values())
        assert {str(m) for m in sol.best_moves} == {
            format_move(m) for m, v in expected.items() if v == sol.value
        }
        assert sol.nodes > 0


def test_a_kept_solver_answers_every_query_as_a_fresh_search_would() -> None:
    # One solver, its table never cleared by the caller, takes positions of every game and
    # option set in a shuffled order (so the rules change under it, and come back): each
    # answer must still be the plain minimax's.
    jobs = []
    for game, players, options in CONFIGS:
        rules = cf.Rules(game, players=players, **options)
        jobs += [(game, players, options, position_with(rules, seed, 6)) for seed in range(4)]
    random.Random(3).shuffle(jobs)
    solver = cf.Solver(tt_entries=1 << 12)
    for game, players, options, state in jobs + jobs:  # the second pass meets its own entries
        expected = minimax.move_values(to_reference(state, game, players, options))
        sol = solver.solve(state)
        assert {str(m): v for m, v in sol.move_values.items()} == {
            format_move(m): v for m, v in expected.items()
        }, str(state)
        assert solver.value(state) == sol.value == max(expected.values())
    assert 0 < solver.tt_allocated <= solver.tt_entries == 1 << 12
    assert solver.nodes > 0


def test_a_solver_grows_its_table_only_as_searches_need_it() -> None:
    solver = cf.Solver()
    assert solver.tt_entries == 1 << 20
    assert solver.tt_allocated == 0  # nothing until a search
    rules = cf.Rules.scopa()
    solver.solve(position_with(rules, 1, 6))
    small = solver.tt_allocated
    assert 0 < small < 1 << 12
    whole = cf.State.new(rules, seed=1)
    assert solver.value(whole) == cf.solve(whole).value
    assert small < solver.tt_allocated <= 1 << 20
    solver.clear()
    assert solver.value(whole) == cf.solve(whole).value
    assert cf.Solver(tt_entries=5).tt_entries == 4  # rounded down to a power of two
    assert "Solver(tt_entries=" in repr(solver)


def test_a_solver_shared_by_threads_answers_each_correctly() -> None:
    import threading

    rules = cf.Rules.escoba()
    states = [position_with(rules, s, 12) for s in range(16)]
    want = [cf.Solver().value(s) for s in states]
    solver = cf.Solver(tt_entries=1 << 14)
    got: dict[int, int] = {}

    def work(offset: int) -> None:
        for i in range(offset, len(states), 4):
            got[i] = solver.solve(states[i]).value

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [got[i] for i in range(len(states))] == want


def test_a_solver_analyzes_as_analyze_does() -> None:
    rules = cf.Rules.scopa()
    solver = cf.Solver()
    for seed in range(3):
        state = position_with(rules, seed, 15)
        for horizon in ("hand", "round"):
            mine = solver.analyze(state, worlds=8, seed=seed, horizon=horizon)
            assert mine == cf.analyze(state, worlds=8, seed=seed, horizon=horizon)


def test_solver_bad_input() -> None:
    with pytest.raises(cf.ArgumentError, match="tt_entries"):
        cf.Solver(tt_entries=-1)
    with pytest.raises(cf.ArgumentError, match="tt_entries"):
        cf.Solver(tt_entries=1 << 40)
    solver = cf.Solver()
    state = cf.State.new(cf.Rules.scopa(), seed=2)
    done = state
    while not done.hand_over:
        done = done.play(done.legal_moves()[0])
    with pytest.raises(cf.IllegalMoveError, match="hand is over"):
        solver.solve(done)
    with pytest.raises(cf.IllegalMoveError, match="hand is over"):
        solver.value(done)
    with pytest.raises(cf.ArgumentError, match="worlds"):
        solver.analyze(state, worlds=0)
    with pytest.raises(cf.ArgumentError, match="horizon"):
        solver.analyze(state, horizon="forever")  # type: ignore[arg-type]
    with pytest.raises(cf.NotationError, match="not"):
        solver.solve("not a state")  # a string is read as a state line
    with pytest.raises(TypeError, match=r"state must be a State or a state line.*got: int"):
        solver.solve(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"state must be .*got: NoneType"):
        solver.value(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"state must be .*got: NoneType"):
        cf.solve(None)  # type: ignore[arg-type]
    for bad in (0, -1, 10**9 + 1):
        with pytest.raises(cf.ArgumentError, match=f"time_ms must be from 1 to .*got: {bad}"):
            solver.analyze(state, time_ms=bad)
    with pytest.raises(TypeError, match="time_ms must be an int, got: float"):
        cf.solve(state, time_ms=1.5)  # type: ignore[arg-type]
    for bad in (0, -1, 10**15 + 1):
        with pytest.raises(cf.ArgumentError, match=f"nodes must be from 1 to .*got: {bad}"):
            solver.analyze(state, nodes=bad)
        with pytest.raises(cf.ArgumentError, match=f"nodes must be from 1 to .*got: {bad}"):
            cf.solve(state, nodes=bad)
    with pytest.raises(TypeError, match="nodes must be an int, got: str"):
        solver.value(state, nodes="9")  # type: ignore[arg-type]
    for analyze in (solver.analyze, cf.analyze):
        with pytest.raises(cf.ArgumentError, match=r"nodes budget needs horizon=\"hand\""):
            analyze(state, nodes=1000)
        with pytest.raises(TypeError, match=r"horizon must be a str .*got: int"):
            analyze(state, horizon=3)  # type: ignore[arg-type]
    with pytest.raises(
        TypeError,
        match=r"stop must be a capturefast\.StopFlag or None, got: Event",
    ):
        solver.solve(state, stop=threading.Event())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"stop must be .*got: bool"):
        cf.analyze(state, stop=True)  # type: ignore[arg-type]
    assert solver.solve(state).value == cf.solve(state).value  # still usable after the errors


def test_solving_a_last_play_nobody_has_captured_before() -> None:
    # V-E6: with optional capture nobody may have captured all hand. Trailing the last card
    # then leaves the 40 cards to nobody: 0 v 0, a value of 0 for the trail (it used to panic).
    rules = cf.Rules.escoba(compulsory_capture=False)
    table = [str(cf.Card(i)) for i in range(40) if str(cf.Card(i)) not in ("KS", "KH")]
    state = cf.State.from_position(rules, [["KS"], ["KH"]], table, to_move=0, dealer=1)
    state = state.play("KS")
    sol = cf.solve(state)
    assert sol.move_values[cf.Move("KH")] == 0
    assert sol.value == max(sol.move_values.values()) > 0  # some capture scores


def test_solve_many_matches_solve() -> None:
    rules = cf.Rules.escoba()
    states = [position_with(rules, s, 9) for s in range(12)]
    assert cf.solve_many(states, threads=2) == [cf.solve(s).value for s in states]
    assert cf.solve_many(states, threads=1) == cf.solve_many(states, threads=2)


def test_batch_errors_name_the_item() -> None:
    """In a batch of positions, the one refused is named by its index."""
    states = [position_with(cf.Rules.scopa(), s, 8) for s in range(4)]
    over = states[1]
    while not over.hand_over:
        over = over.play(over.legal_moves()[0])
    batch = [*states[:2], over, states[3]]
    with pytest.raises(cf.IllegalMoveError, match=r"^states\[2\]: .*hand is over"):
        cf.solve_many(batch)
    with pytest.raises(cf.IllegalMoveError, match=r"^states\[2\]: .*hand is over"):
        cf.analyze_many(batch, worlds=2)
    with pytest.raises(TypeError, match=r"states\[1\] must be a capturefast\.State, got: str"):
        cf.solve_many([states[0], "scopa ..."])  # type: ignore[list-item]


def test_last_round_with_two_players_is_analyzed_exactly() -> None:
    rules = cf.Rules.scopa()
    for seed in range(10):
        state = position_with(rules, seed, 5)
        assert state.stock_size == 0
        an = cf.analyze(state, worlds=50, seed=seed)
        assert an.exact and an.worlds == 1
        sol = cf.solve(state)
        assert {str(m.move): m.mean for m in an.moves} == {
            str(m): float(v) for m, v in sol.move_values.items()
        }
        assert all(m.stderr == 0 for m in an.moves)
        assert cf.analyze(state, worlds=50, seed=seed, horizon="round") == an


def test_analyze_to_the_round_end() -> None:
    """The search the pimc bot makes: per world, to the end of the round (not exact then), the
    same moves, seeded, reading only the view; a bad horizon is refused by name."""
    state = position_with(cf.Rules.escoba(), 6, 20)
    a = cf.analyze(state, worlds=12, seed=2, horizon="round")
    assert not a.exact and a.worlds == 12
    assert [m.move for m in a.moves] == state.legal_moves()
    assert a == cf.analyze(hidden_swap(state), worlds=12, seed=2, horizon="round")
    assert a != cf.analyze(state, worlds=12, seed=2, horizon="hand")
    assert cf.analyze_many([state], worlds=12, seed=0, horizon="round")[0].moves[0].move == (
        a.moves[0].move
    )
    with pytest.raises(cf.ArgumentError, match='got: "deal"'):
        cf.analyze(state, horizon="deal")  # type: ignore[arg-type]


def hidden_swap(state: cf.State) -> cf.State:
    """The same position but for one card swapped between the opponent's hand and the stock."""
    hands = [[str(c) for c in h] for h in state.hands]
    stock = [str(c) for c in state.stock]
    opp = (int(state.to_move) + 1) % state.num_players  # type: ignore[arg-type]
    hands[opp][0], stock[0] = stock[0], hands[opp][0]
    return cf.State.from_position(
        state.rules,
        hands=hands,
        table=state.table,
        stock=stock,
        to_move=int(state.to_move),  # type: ignore[arg-type]
        dealer=state.dealer,
        last_capturer=state.last_capturer,
        piles=state.piles,
        sweeps=state.sweeps,
        scores=state.scores,
    )


def test_analyze_reads_only_the_view() -> None:
    rules = cf.Rules.chkobba()
    for seed in range(4):
        state = position_with(rules, seed, 20)
        other = hidden_swap(state)
        assert other != state
        a = cf.analyze(state, worlds=8, seed=seed)
        b = cf.analyze(other, worlds=8, seed=seed)
        assert not a.exact
        assert a == b
        assert [m.move for m in a.moves] == state.legal_moves()
        assert a.best_move in state.legal_moves()


def test_analyze_is_seeded() -> None:
    state = position_with(cf.Rules.scopa(), 3, 16)
    assert cf.analyze(state, worlds=6, seed=1) == cf.analyze(state, worlds=6, seed=1)
    many = cf.analyze_many([state, state], worlds=6, seed=1, threads=2)
    assert len(many) == 2 and all(a.moves[0].move == state.legal_moves()[0] for a in many)


def test_review_of_a_played_hand() -> None:
    rules = cf.Rules.scopa()
    start = position_with(rules, 5, 12)
    rng = random.Random(5)
    state, moves = start, []
    while not state.hand_over:
        mv = rng.choice(state.legal_moves())
        moves.append(mv)
        state = state.play(mv)
    rows = cf.review(start, moves)
    assert [r.move for r in rows] == moves
    for r in rows:
        assert r.value <= r.best_value and r.loss >= 0
        assert (r.loss == 0) == (r.move in r.best_moves)
    # Best play from the start reaches the solver's value at the end of the hand.
    assert rows[0].best_value == cf.solve(start).value
    # A string of moves would be read character by character: refused, with a hint.
    with pytest.raises(cf.ArgumentError, match=r"got a string.*hint: use a list"):
        cf.review(start, str(moves[0]))
    with pytest.raises(TypeError, match="review takes a State or a GameRecord, got: NoneType"):
        cf.review(None, moves)  # type: ignore[arg-type]


def test_solver_errors() -> None:
    state = position_with(cf.Rules.scopa(), 1, 6)
    while not state.hand_over:
        state = state.play(state.legal_moves()[0])
    with pytest.raises(cf.IllegalMoveError):
        cf.solve(state)
    live = position_with(cf.Rules.scopa(), 1, 8)
    not_to_move = 1 - int(live.to_move)  # type: ignore[arg-type]
    with pytest.raises(cf.IllegalMoveError, match="seat"):
        cf.analyze(live, seat=not_to_move)
    with pytest.raises(cf.ArgumentError, match="worlds"):
        cf.analyze(live, worlds=0)
    # A table past 4 GiB: refused (2**40 aborted the process, 2**60 panicked).
    for tt in (2**28 + 1, 2**40, 2**60):
        with pytest.raises(cf.ArgumentError, match="tt_entries must be from 0 to 268435456"):
            cf.solve(live, tt_entries=tt)
        with pytest.raises(cf.ArgumentError, match="tt_entries"):
            cf.analyze(live, tt_entries=tt)
    with pytest.raises(TypeError, match=r"state must be"):
        cf.analyze(None)  # type: ignore[arg-type]
    # A generator of states is read once.
    assert len(cf.analyze_many(s for s in [live, live])) == 2
    # Bounded as the pimc bot's budget, so that a call ends in reasonable time.
    for many in (0, -1, 10_001, 2**32 - 1, 2**64):
        with pytest.raises(cf.ArgumentError, match=f"worlds must be from 1 to 10000, got: {many}"):
            cf.analyze(live, worlds=many)
        with pytest.raises(cf.ArgumentError, match="worlds must be from 1 to 10000"):
            cf.analyze_many([live], worlds=many)
    # As `simulate`'s: one thread per core by default, else 1 to 1024.
    for threads in (0, 1025):
        with pytest.raises(
            cf.ArgumentError, match=f"threads must be from 1 to 1024, got: {threads}"
        ):
            cf.solve_many([live], threads=threads)
        with pytest.raises(cf.ArgumentError, match="threads must be from 1 to 1024"):
            cf.analyze_many([live], threads=threads)
    # A bool is not a count or a seat.
    for call in (lambda: cf.analyze(live, seat=True), lambda: live.view(True)):
        with pytest.raises(TypeError, match="must be an int, got: bool"):
            call()


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "capturefast", *args], capture_output=True, text=True, timeout=120
    )


def test_cli_solve_prints_every_move_with_its_value() -> None:
    # Chkobba, last round: seat 1 leads with QH (8) and 3C onto 2D + 6S (the seed's example
    # sweep); seat 0, the dealer, holds KC and 5H; every other card is in side 0's pile.
    args = ["solve", "--game", "chkobba", "--hand", "0=KC 5H", "--hand", "1=QH 3C"]
    args += ["--table", "2D 6S", "--to-move", "1", "--dealer", "0", "--last-capturer", "0"]
    out = run_cli(*args, "--rest-to", "0", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    values = {m["move"]: m["value"] for m in data["moves"]}
    assert set(values) == {"QH x 2D+6S", "3C"}
    assert data["value"] == max(values.values())
    assert set(data["best_moves"]) == {m for m, v in values.items() if v == data["value"]}
    # The same position through the API gives the same numbers.
    state = cf.State.from_position(
        cf.Rules.chkobba(),
        hands=[["KC", "5H"], ["QH", "3C"]],
        table=["2D", "6S"],
        to_move=1,
        dealer=0,
        last_capturer=0,
        piles=[
            [
                c
                for c in map(str, map(cf.Card, range(40)))
                if c not in {"KC", "5H", "QH", "3C", "2D", "6S"}
            ],
            [],
        ],
    )
    assert {str(m): v for m, v in cf.solve(state).move_values.items()} == values
    text = run_cli(*args, "--rest-to", "0")
    assert text.returncode == 0 and "QH x 2D+6S" in text.stdout and "3C" in text.stdout


def test_cli_analyze_and_bad_positions() -> None:
    state = position_with(cf.Rules.scopa(), 2, 12)
    seat = int(state.to_move)  # type: ignore[arg-type]
    args = [
        "analyze",
        "--game",
        "scopa",
        "--hand",
        f"{seat}=" + " ".join(map(str, state.hands[seat])),
        "--table",
        " ".join(map(str, state.table)),
        "--to-move",
        str(seat),
        "--dealer",
        str(state.dealer),
        "--stock-size",
        str(state.stock_size),
        "--pile",
        "0=" + " ".join(map(str, state.piles[0])),
        "--pile",
        "1=" + " ".join(map(str, state.piles[1])),
        "--worlds",
        "5",
    ]
    if state.last_capturer is not None:
        args += ["--last-capturer", str(state.last_capturer)]
    out = run_cli(*args)
    assert out.returncode == 0, out.stderr
    assert "5 worlds" in out.stdout
    rounds = run_cli(*args, "--horizon", "round", "--json")
    assert rounds.returncode == 0, rounds.stderr
    assert json.loads(rounds.stdout)["worlds"] == 5
    bad = run_cli("solve", "--hand", "0=7D", "--hand", "1=7D", "--to-move", "0")
    assert bad.returncode == 2 and "7D" in bad.stderr


def test_a_solver_takes_a_state_line_as_cf_solve_does() -> None:
    state = position_with(cf.Rules.scopa(), 5, 8)
    solver = cf.Solver(tt_entries=0)  # the smallest table: rounded up to 4 entries
    assert solver.tt_entries == 4
    line = state.to_notation()
    expected = cf.solve(state)
    got = solver.solve(line)
    assert (got.value, got.move_values) == (expected.value, expected.move_values)
    assert solver.value(line) == expected.value


def test_a_search_too_large_ends_with_a_variant_error_or_falls_back() -> None:
    # Ten-card hands from the deal are far beyond exact search: every way to ask ends within
    # the node limit (about 2.5 s each), never runs for hours. A solve is refused; an analysis
    # (and pimc) values the worlds by the round search instead, and says so.
    state = cf.State.new(cf.variants.rules("scopone_scientifico"), seed=1)
    with pytest.raises(cf.VariantError, match="too large"):
        cf.solve(state)
    got = cf.analyze(state, worlds=2, horizon="hand", seed=3)
    assert (got.horizon, got.too_large, got.stopped, got.worlds) == ("round", True, False, 2)
    assert got.moves == cf.analyze(state, worlds=2, horizon="round", seed=3).moves
    assert "2 worlds (a world too large for the exact solver, round horizon)" in str(got)
    assert cf.Bot("pimc:horizon=hand,worlds=1").choose(state) in state.legal_moves()


def test_a_stop_ends_an_analysis_with_the_worlds_it_finished() -> None:
    # A 4-player deal solved to the hand's end takes some milliseconds a world: a stop set
    # from another thread ends a 1000-world analysis, keeping the worlds searched by then,
    # which are the first drawn (the same means as an analysis of that many), or if it came
    # during the first world's solve, that world valued by the round search.
    state = cf.State.new(cf.Rules.scopa(players=4), seed=3)
    flag = cf.StopFlag()
    timer = threading.Timer(0.05, flag.set)
    timer.start()
    got = cf.analyze(state, worlds=1000, seed=2, horizon="hand", stop=flag)
    timer.join()
    assert flag.is_set() and got.stopped and 1 <= got.worlds < 1000
    same = cf.analyze(state, worlds=got.worlds, seed=2, horizon=got.horizon)
    assert [m.move for m in got.moves] == [m.move for m in same.moves]
    assert [m.mean for m in got.moves] == pytest.approx([m.mean for m in same.moves])
    assert not same.stopped and same.worlds == got.worlds

    # Set before the query: one world, valued by the round search.
    got = cf.Solver().analyze(state, worlds=50, seed=2, horizon="hand", stop=flag)
    assert (got.worlds, got.stopped, got.horizon) == (1, True, "round")
    assert "1 worlds (stopped early, round horizon)" in str(got)
    assert got.moves == cf.analyze(state, worlds=1, seed=2, horizon="round").moves
    flag.clear()
    assert not flag.is_set() and repr(flag) == "StopFlag(set=False)"
    got = cf.analyze(state, worlds=2, seed=2, horizon="hand", stop=flag)
    assert (got.worlds, got.stopped, got.horizon) == (2, False, "hand")


def test_a_stop_flag_ends_a_search_bots_decision() -> None:
    # Set before the call: `pimc` values its first world only, `ismcts` runs the iterations
    # between two looks at the flag (16), so each plays what the same bot with that budget
    # plays. Set from another thread: a decision that would take minutes (10,000 worlds of a
    # 4-player deal solved to the hand's end) ends with a legal move.
    state = cf.State.new(cf.Rules.scopa(), seed=5)
    flag = cf.StopFlag()
    flag.set()
    for seed in range(6):
        stopped = cf.Bot("pimc:worlds=10000", seed=seed).choose(state, stop=flag)
        assert stopped == cf.Bot("pimc:worlds=1", seed=seed).choose(state)
        stopped = cf.Bot("ismcts:iterations=1000000", seed=seed).choose(state, stop=flag)
        assert stopped == cf.Bot("ismcts:iterations=16", seed=seed).choose(state)
    assert cf.Bot("expert").choose(state, stop=flag) == cf.Bot("expert").choose(state)
    flag.clear()
    timer = threading.Timer(0.05, flag.set)
    timer.start()
    four = cf.State.new(cf.Rules.scopa(players=4), seed=1)
    bot = cf.Bot("pimc:worlds=10000,horizon=hand")
    assert bot.choose(four, stop=flag) in four.legal_moves()
    timer.join()
    # Set past the first 100 ms, when a decision on the main thread has moved to the helper
    # thread that Ctrl-C can stop: the same.
    flag.clear()
    timer = threading.Timer(0.3, flag.set)
    timer.start()
    assert bot.choose(four, stop=flag) in four.legal_moves()
    timer.join()
    with pytest.raises(TypeError, match="stop must be"):
        cf.Bot("pimc").choose(state, stop="now")  # type: ignore[arg-type]


def test_a_nodes_budget_stops_the_solves_where_it_ends() -> None:
    # A Scopone deal's solve is beyond exact search: each query stops where its budget ends,
    # a few hundred nodes past it at most (unwinding), and a StoppedError says so.
    state = cf.State.new(cf.variants.rules("scopone_scientifico"), seed=1)
    solver = cf.Solver()
    for budget in (1, 20_000):
        for query in (solver.solve, solver.value):
            before = solver.nodes
            with pytest.raises(cf.StoppedError, match="node budget"):
                query(state, nodes=budget)
            assert budget <= solver.nodes - before <= budget + 500
        with pytest.raises(cf.StoppedError):
            cf.solve(state, nodes=budget)
    # An analysis counts its worlds' solves together: the world that passes the budget is left
    # out, the worlds before it kept, whatever the solver counted before the call.
    deal = cf.State.new(cf.Rules.scopa(players=4), seed=11)
    full = solver.analyze(deal, worlds=3, seed=5, horizon="hand")
    before = solver.nodes
    two = solver.analyze(deal, worlds=2, seed=5, horizon="hand")
    first_two = solver.nodes - before
    solver.analyze(deal, worlds=3, seed=5, horizon="hand")
    third = solver.nodes - before - 2 * first_two  # the 3-world run repeats the first two
    assert full.worlds == 3 and third > 0
    before = solver.nodes
    cut = solver.analyze(deal, worlds=3, seed=5, horizon="hand", nodes=first_two + third // 2)
    assert solver.nodes - before <= first_two + third // 2 + 500
    assert (cut.worlds, cut.stopped, cut.horizon) == (2, True, "hand")
    assert str(cut).startswith(f"seat {cut.seat}, 2 worlds (stopped early, hand horizon), mean")
    assert cut.moves == two.moves
    whole = solver.analyze(deal, worlds=3, seed=5, horizon="hand", nodes=10**15)
    assert (whole.worlds, whole.stopped) == (3, False) and whole.moves == full.moves
    # In the 2-player last round the round search that values a cut world is exact too:
    # nothing is left out, and the analysis says exact, not stopped.
    last = cf.State.new(cf.Rules.scopa(), seed=1)
    while last.stock_size > 0:
        last = last.play(last.legal_moves()[0])
    cut = solver.analyze(last, horizon="hand", nodes=1)
    assert (cut.exact, cut.stopped, cut.horizon) == (True, False, "round")
    assert cut.moves == solver.analyze(last, horizon="hand").moves


def test_a_time_limit_ends_what_the_node_limit_would_only_after_seconds() -> None:
    # Scopone's ten-card hands are beyond exact search (test above): under a time limit the
    # solve stops with a StoppedError (not bad input, so no ValueError), the analysis values
    # its one world by the round search, and the bot plays the round search's move.
    state = cf.State.new(cf.variants.rules("scopone_scientifico"), seed=1)
    solver = cf.Solver()
    for query in (
        lambda: cf.solve(state, time_ms=50),
        lambda: solver.solve(state, time_ms=50),
        lambda: solver.value(state, time_ms=50),
    ):
        with pytest.raises(cf.StoppedError, match="stopped") as caught:
            query()
        assert not isinstance(caught.value, ValueError)
    got = cf.analyze(state, worlds=5, seed=1, horizon="hand", time_ms=50)
    assert (got.worlds, got.stopped, got.horizon) == (1, True, "round")
    assert got.moves == cf.analyze(state, worlds=1, seed=1, horizon="round").moves
    timed = cf.Bot("pimc:horizon=hand,worlds=5,ms=50", seed=4).choose(state)
    assert timed == cf.Bot("pimc:worlds=1", seed=4).choose(state)
    # The solver stopped mid-search still answers exactly.
    later = state
    while cards_left(later) > 16:
        later = later.play(later.legal_moves()[0])
    assert solver.solve(later).move_values == cf.Solver().solve(later).move_values


_INTERRUPTED = """
import os, signal, sys, threading, time
import capturefast as cf
scopone = cf.State.new(cf.variants.rules("scopone_scientifico"), 1)
threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
start = time.perf_counter()
try:
    {call}
    print("finished")
except KeyboardInterrupt:
    seconds = time.perf_counter() - start
    # No thread goes on searching: the process is idle, and answers the next query.
    cpu = time.process_time()
    time.sleep(0.3)
    idle = time.process_time() - cpu
    print("interrupted", seconds, idle, cf.solve(cf.State.new(cf.Rules.scopa(), 1)).value)
"""


@pytest.mark.parametrize(
    "call",
    [
        # 30 million nodes before the solver gives up: seconds.
        "cf.solve(scopone)",
        "cf.Solver().solve(scopone)",
        # Thousands of exact solves: tens of seconds.
        'cf.analyze(cf.State.new(cf.Rules.scopa(), 5), worlds=10000, horizon="hand")',
        # The batch forms, on their worker threads: as long, each.
        "cf.solve_many([scopone] * 4, threads=2)",
        'cf.analyze_many([cf.State.new(cf.Rules.scopa(), 5)] * 3, worlds=10000, horizon="hand")',
        # A bot's decision: tens of seconds, and 8 s.
        'cf.Bot("pimc:worlds=10000,horizon=hand").choose(cf.State.new(cf.Rules.scopa(), 5))',
        'cf.Bot("ismcts:iterations=1000000").choose(scopone)',
    ],
)
def test_ctrl_c_stops_a_long_query(call: str) -> None:
    """Ctrl-C (SIGINT) during a long solve or analysis, one by itself or a batch, or during a
    bot's decision, raises KeyboardInterrupt at once, as it does in Python code, instead of
    after the query ends; no worker thread goes on, and the process answers the next query."""
    script = _INTERRUPTED.format(call=call)
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    words = out.stdout.split()
    assert words[:1] == ["interrupted"], out.stdout + out.stderr
    # Signals are looked for every 20 to 50 ms; the query alone runs for seconds.
    assert float(words[1]) < 3.0, words
    # Searching on would spend about 0.3 s of CPU per thread in the 0.3 s slept.
    assert float(words[2]) < 0.1, words
    assert words[3] == str(cf.solve(cf.State.new(cf.Rules.scopa(), 1)).value)


def test_long_queries_on_the_main_thread_give_the_same_results() -> None:
    """A long query on the main thread, which looks for Ctrl-C as it searches, gives the
    results of the same query on another thread, and its own limits still hold."""
    state = cf.State.new(cf.Rules.scopa(), 5)
    main = cf.analyze(state, worlds=200, horizon="hand")
    box: dict[str, Any] = {}
    worker = threading.Thread(
        target=lambda: box.update(r=cf.analyze(state, worlds=200, horizon="hand"))
    )
    worker.start()
    worker.join()
    assert main == box["r"] and not main.stopped
    big = cf.State.new(cf.variants.rules("scopone_scientifico"), 1)
    flag = cf.StopFlag()
    threading.Timer(0.3, flag.set).start()
    with pytest.raises(cf.StoppedError):
        cf.solve(big, stop=flag)
    with pytest.raises(cf.StoppedError):
        cf.solve(big, nodes=3_000_000)
    cut = cf.analyze(state, worlds=10000, horizon="hand", time_ms=300)
    assert cut.stopped and 0 < cut.worlds < 10000


def _off_main(call: Any) -> Any:
    """`call()` on a thread of its own, where it runs once (no Ctrl-C to wait for)."""
    box: dict[str, Any] = {}
    worker = threading.Thread(target=lambda: box.update(r=call()))
    worker.start()
    worker.join()
    return box["r"]


def test_long_batches_and_decisions_on_the_main_thread_give_the_same_results() -> None:
    """Batches past their first 100 ms on the main thread go on on a helper thread that
    Ctrl-C can stop, keeping the items that ended and running the others; bots' decisions
    look for Ctrl-C as they search. Both give the results they have elsewhere, a decision
    also when its weighing of the worlds takes most of its time."""
    rules = cf.Rules.scopa()
    deals = [cf.State.new(rules, i) for i in range(120)]  # about 0.15 s in all
    assert cf.solve_many(deals) == _off_main(lambda: cf.solve_many(deals))
    states = deals[:4]  # about 0.1 s each
    kw: dict[str, Any] = {"worlds": 40, "horizon": "hand", "seed": 3}
    here = cf.analyze_many(states, **kw)
    assert here == _off_main(lambda: cf.analyze_many(states, **kw))
    assert all(a.worlds == 40 and not a.stopped for a in here)
    # Decisions told a round of moves: one whose weighing of the worlds by the round search
    # takes most of its 0.2 s, and one of exact solves.
    for spec, (game, seed, plies) in [
        ("pimc:worlds=1000,infer=search", (cf.Rules.escoba(players=4), 1, 3)),
        ("pimc:worlds=150,horizon=hand", (rules, 3, 1)),
    ]:
        state, history = expert_history(game, seed, plies)
        decide = functools.partial(cf.Bot(spec, seed=2).choose, state, history)
        assert decide() == _off_main(decide)


def test_a_node_budget_on_the_main_thread_is_the_budget_elsewhere() -> None:
    """The same node budget gives the same answer on the main thread as on another."""
    state = cf.State.new(cf.variants.rules("escoba", players=4), 5)
    # This solve needs about 2.3 million nodes (over 100 ms): within a budget of 2.4 million.
    budget = {"nodes": 2_400_000}
    box: dict[str, Any] = {}
    worker = threading.Thread(target=lambda: box.update(v=cf.Solver().solve(state, **budget)))
    worker.start()
    worker.join()
    assert cf.Solver().solve(state, **budget).value == box["v"].value
    how: dict[str, Any] = {"worlds": 6, "horizon": "hand", "seed": 3, "nodes": 6_000_000}
    worker = threading.Thread(target=lambda: box.update(a=cf.Solver().analyze(state, **how)))
    worker.start()
    worker.join()
    assert cf.Solver().analyze(state, **how) == box["a"]


def test_a_long_query_on_the_main_thread_runs_once() -> None:
    """A long query on the main thread runs where it was called, looking for Ctrl-C as it
    searches: it visits the nodes it visits on another thread, not a first part of them and
    then all of them again elsewhere."""
    state = cf.State.new(cf.variants.rules("escoba", players=4), 5)  # 2.3 million nodes
    here, there = cf.Solver(), cf.Solver()
    mine, theirs = here.solve(state), _off_main(lambda: there.solve(state))
    assert mine.move_values == theirs.move_values
    assert mine.nodes == theirs.nodes == here.nodes == there.nodes > 1_000_000
    deal = cf.State.new(cf.Rules.scopa(), 5)
    here, there = cf.Solver(), cf.Solver()
    how: dict[str, Any] = {"worlds": 60, "horizon": "hand", "seed": 3}  # about 0.15 s
    assert here.analyze(deal, **how) == _off_main(lambda: there.analyze(deal, **how))
    assert here.nodes == there.nodes


def test_a_signal_handler_may_query_during_a_long_query() -> None:
    """Signal handlers run while a long query on the main thread searches (so that Ctrl-C
    stops it): one that asks the busy Solver is refused with a RuntimeError instead of waiting for
    itself, and `cf.solve` in a handler uses a solver of its own; the long query goes on."""
    import signal

    solver = cf.Solver()
    seen: list[object] = []

    def handler(signum: int, frame: object) -> None:
        try:
            seen.append(solver.nodes)
        except RuntimeError as e:
            seen.append(str(e))
        seen.append(cf.solve(cf.State.new(cf.Rules.scopa(), 1)).value)

    previous = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        state = cf.State.new(cf.Rules.scopa(), 5)
        # About 0.8 s: the signal comes while it runs.
        long = solver.analyze(state, worlds=300, horizon="hand")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert long.worlds == 300 and not long.stopped
    assert long == cf.analyze(state, worlds=300, horizon="hand")
    assert len(seen) == 2, seen
    assert "answering a query on this thread already" in str(seen[0])
    assert seen[1] == cf.solve(cf.State.new(cf.Rules.scopa(), 1)).value
