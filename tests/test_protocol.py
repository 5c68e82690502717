"""The engine protocol (docs/protocol.md): every command and bad input from Python, and a
client in another language (tests/protocol/client.mjs, Node) against the real engine process."""

from __future__ import annotations

import json
import math
import queue
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import capturefast as cf
import pytest
from capturefast import service
from capturefast.engine import Engine
from hypothesis import given
from hypothesis import strategies as st
from played import expert_history

CLIENT = Path(__file__).parent / "protocol" / "client.mjs"
ENGINE = [sys.executable, "-m", "capturefast", "engine"]


class Session:
    """An `Engine` whose answers are collected line by line."""

    def __init__(self) -> None:
        self.lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.engine = Engine(self.lines.put)

    def ask(self, text: str, final: str, timeout: float = 30) -> list[str]:
        """Sends `text`; the lines up to the first starting with `final` (or `error`)."""
        self.engine.handle(text)
        got = []
        while True:
            line = self.lines.get(timeout=timeout)
            got.append(line)
            word = line.split(" ")[0]
            if word in (final, "error"):
                return got

    def one(self, text: str, final: str) -> str:
        got = self.ask(text, final)
        assert len(got) == 1, got
        return got[0]


@pytest.fixture
def session() -> Session:
    s = Session()
    yield s  # type: ignore[misc]
    s.engine.quit()


def untimed(line: str) -> str:
    """An answer line without its `time N` field."""
    return re.sub(r" time \d+", "", line)


def field(line: str, name: str) -> str:
    """The word after `name` in an answer line."""
    words = line.split()
    return words[words.index(name) + 1]


def moves_of(line: str) -> list[str]:
    rest = line.removeprefix("legal").strip()
    return rest.split(", ") if rest else []


def test_identify_and_isready(session: Session) -> None:
    got = session.ask("capturefast", "capturefastok")
    assert got[0] == f"id name capturefast {cf.__version__}"
    assert "id presets " + " ".join(cf.variants.preset_names()) in got
    assert any(line.startswith("option name Horizon type combo") for line in got)
    assert got[-1] == "capturefastok"
    assert session.one("isready", "readyok") == "readyok"


def test_position_legal_and_play_follow_the_core(session: Session) -> None:
    assert session.one("rules escoba players 4", "ok") == "ok"
    state = cf.State.new(cf.Rules.escoba(players=4), seed=5)
    first = state.legal_moves()[0]
    assert session.one(f"position deal seed 5 moves {first}", "ok") == "ok"
    state = state.play(first)
    assert moves_of(session.one("legal", "legal")) == [str(m) for m in state.legal_moves()]
    second = state.legal_moves()[-1]
    assert session.one(f"play {second}", "ok") == "ok"
    state = state.play(second)
    assert moves_of(session.one("legal", "legal")) == [str(m) for m in state.legal_moves()]
    status = session.one("status", "status")
    assert f"to_move {state.to_move} " in status and f"stock {state.stock_size} " in status


def test_rules_options_reach_the_core(session: Session) -> None:
    assert session.one("rules scopa target=21 capture=fifteen", "ok") == "ok"
    session.one("position deal seed 3", "ok")
    state = cf.State.new(cf.variants.rules("scopa", target=21, capture="fifteen"), seed=3)
    assert moves_of(session.one("legal", "legal")) == [str(m) for m in state.legal_moves()]


def test_go_answers_info_then_a_legal_bestmove(session: Session) -> None:
    session.one("position deal seed 1", "ok")
    legal = moves_of(session.one("legal", "legal"))
    got = session.ask("go worlds 31 seed 4", "bestmove")
    infos = [line for line in got if line.startswith("info ")]
    # Slices of 1, 2, 4, 8 and 16 worlds: each writes one line per legal move.
    assert len(infos) == 5 * len(legal)
    assert infos[-1].startswith("info worlds 31 ")
    best = got[-1].removeprefix("bestmove ")
    assert best in legal
    # The same budget and seed give the same answer (the slices do not depend on timing).
    again = session.ask("go worlds 31 seed 4", "bestmove")
    assert [untimed(line) for line in again] == [untimed(line) for line in got]


def test_analyze_matches_the_python_analysis_when_one_slice(session: Session) -> None:
    session.one("setoption name Horizon value hand", "ok")
    session.one("position deal seed 2", "ok")
    got = session.ask("analyze worlds 1 seed 7", "analysis")
    state = cf.State.new(cf.Rules.scopa(), seed=2)
    an = cf.analyze(state, worlds=1, seed=7, horizon="hand")
    values = {line.split(" move ")[1]: float(field(line, "value")) for line in got[:-1]}
    assert values == {str(m.move): pytest.approx(m.mean, abs=1e-4) for m in an.moves}
    assert got[-1].startswith("analysis seat 0 worlds 1 exact false stopped false ")


def test_analyze_weighs_its_worlds_by_the_moves_of_the_position(session: Session) -> None:
    # After `position deal ... moves`, the search is told those moves: one slice is
    # cf.analyze with the same history, and some positions differ from the uniform draw.
    session.one("setoption name Horizon value round", "ok")
    rules, differ = cf.Rules.scopa(), 0
    for seed in range(4):
        state, history = expert_history(rules, seed, plies=3)
        moves = ", ".join(str(m) for _, m in history)
        assert session.one(f"position deal seed {seed} moves {moves}", "ok") == "ok"
        got = session.ask("analyze worlds 1 seed 7", "analysis")
        values = {line.split(" move ")[1]: float(field(line, "value")) for line in got[:-1]}
        told = cf.analyze(state, worlds=1, seed=7, history=history)
        assert values == {str(m.move): pytest.approx(m.mean, abs=1e-4) for m in told.moves}
        differ += told != cf.analyze(state, worlds=1, seed=7)
    assert differ > 0


def test_solve_matches_cf_solve(session: Session) -> None:
    session.one("position deal seed 2", "ok")
    got = session.ask("solve", "solution")
    # The session's solver is fresh, as this one is: node counts depend on what it searched.
    sol = cf.Solver().solve(cf.State.new(cf.Rules.scopa(), seed=2))
    assert got[-1].startswith(f"solution value {sol.value:+d} nodes {sol.nodes} ")
    assert got[-1].endswith("best " + ", ".join(str(m) for m in sol.best_moves))
    assert {line.split(" move ")[1]: int(line.split()[2]) for line in got[:-1]} == {
        str(m): v for m, v in sol.move_values.items()
    }


def test_report_of_a_finished_hand(session: Session) -> None:
    state = cf.State.new(cf.Rules.chkobba(), seed=4)
    moves = []
    while not state.hand_over:
        move = state.legal_moves()[0]
        moves.append(str(move))
        state = state.play(move)
    session.one("rules chkobba", "ok")
    session.one("position deal seed 4 moves " + ", ".join(moves), "ok")
    assert session.one("legal", "legal") == "legal"
    line = session.one("report", "report")
    assert json.loads(line.removeprefix("report ")) == state.hand_report().to_dict()
    session.one("nexthand", "ok")
    status = session.one("status", "status")
    assert f"hand {state.next_hand().hand_number} " in status
    # The new hand's search is told only its own moves (the hand before's are refused).
    session.one("play " + str(state.next_hand().legal_moves()[0]), "ok")
    assert session.ask("go worlds 5 seed 1", "bestmove")[-1].startswith("bestmove ")


def test_a_solve_too_large_is_answered_with_an_error(session: Session) -> None:
    # Scopone's ten-card hands from the deal: past the solver's node limit, an error, and the
    # engine goes on answering.
    session.one("rules scopone_scientifico", "ok")
    session.one("position deal seed 1", "ok")
    answer = session.one("solve", "solution")
    assert answer.startswith("error ") and "too large for the exact solver" in answer
    assert session.one("legal", "legal").startswith("legal ")


def test_stop_ends_an_infinite_search(session: Session) -> None:
    session.one("position deal seed 1", "ok")
    session.engine.handle("go infinite")
    assert session.lines.get(timeout=10).startswith("info ")
    start = time.perf_counter()
    session.engine.handle("stop")
    line = ""
    while not line.startswith("bestmove"):
        line = session.lines.get(timeout=10)
    assert time.perf_counter() - start < 5
    assert line.removeprefix("bestmove ") in moves_of(session.one("legal", "legal"))


def test_a_stop_reaches_into_a_worlds_exact_solve_and_no_further(session: Session) -> None:
    # A 4-player deal of Scopone: its hand-horizon world and its solve are beyond the solver,
    # so only a stop inside them can end them before the node limit's error.
    session.one("rules scopone_scientifico", "ok")
    session.one("position deal seed 1", "ok")
    legal = moves_of(session.one("legal", "legal"))
    for command, final in (("solve", "solution"), ("analyze horizon hand worlds 10", "analysis")):
        session.engine.handle(command)
        time.sleep(0.1)
        session.engine.handle("stop")
        line = ""
        while not line.startswith((final, "error")):
            line = session.lines.get(timeout=10)
        if command == "solve":
            assert line.startswith("error ") and "stopped" in line, line
        else:
            assert " worlds 1 " in line and " stopped true " in line, line
            assert field(line, "best") in legal
    # A bot's decision: 10,000 worlds of a 4-player deal solved to the hand's end would take
    # minutes.
    session.one("rules scopa players 4", "ok")
    session.one("position deal seed 1", "ok")
    legal = moves_of(session.one("legal", "legal"))
    session.engine.handle("go bot pimc:worlds=10000,horizon=hand")
    time.sleep(0.1)
    session.engine.handle("stop")
    got = [session.lines.get(timeout=10), session.lines.get(timeout=10)]
    assert got[0].startswith("info bot pimc:worlds=10000,horizon=hand time "), got
    assert got[1].removeprefix("bestmove ") in legal, got
    # A stop with nothing running, or after the search it stopped, stops nothing later.
    session.one("rules scopa", "ok")
    session.one("position deal seed 1", "ok")
    session.engine.handle("stop")
    assert session.ask("solve", "solution")[-1].startswith("solution value ")
    got = session.ask("analyze horizon hand worlds 3", "analysis")[-1]
    assert " worlds 3 " in got and " stopped false " in got, got


def test_a_stop_flag_given_to_the_search_stops_inside_a_slice() -> None:
    state = cf.State.new(cf.variants.rules("scopone_scientifico"), seed=1)
    flag = cf.StopFlag()
    flag.set()
    result = service.search(state, service.Budget(worlds=10, horizon="hand"), stop=flag)
    assert (result.worlds, result.stopped, result.horizon) == (1, True, "round")
    one = cf.analyze(state, worlds=1, seed=0, horizon="round")
    assert {s.move for s in result.moves} == {s.move for s in one.moves}
    assert result.best == one.best_move
    # A time budget too: the core stops the first world at it (without, the node limit's
    # error would end the search after seconds).
    result = service.search(state, service.Budget(worlds=10, horizon="hand", time_ms=100))
    assert (result.worlds, result.stopped, result.horizon) == (1, True, "round")


def test_nodes_budget_ends_a_hand_horizon_search(session: Session) -> None:
    session.one("position deal seed 1", "ok")
    got = session.ask("analyze nodes 50000 horizon hand worlds 1000", "analysis")
    nodes = int(field(got[-1], "nodes"))
    # The world whose solve passes the budget stops there (a few hundred nodes of unwinding).
    assert 50000 <= nodes <= 50500 and " stopped true " in got[-1]
    assert int(field(got[-1], "worlds")) < 1000
    answer = session.one("go nodes 50000", "bestmove")
    assert answer.startswith("error a nodes budget needs the hand horizon"), answer


def test_time_budget_ends_the_search(session: Session) -> None:
    session.one("setoption name Horizon value hand", "ok")
    session.one("position deal seed 1", "ok")
    start = time.perf_counter()
    got = session.ask("analyze time 200", "analysis")
    assert time.perf_counter() - start < 5
    assert " stopped true " in got[-1]


@pytest.mark.parametrize(
    ("line", "token"),
    [
        ("frobnicate", "frobnicate"),
        ("lgeal", "did you mean legal"),
        ("legal", "no position"),
        ("setoption name Worlds value 0", "0"),
        ("setoption name Depth value 3", "Depth"),
        ("setoption Worlds 3", "Worlds 3"),
        ("rules", "nothing"),
        ("rules nosuch", "nosuch"),
        ("rules scopa players 3", "3"),
        ("rules scopa players", "players"),
        ("rules scopa target=zero", "zero"),
        ("rules scopa target", "target"),
        ("rules scopa players 2 players=4", "twice"),
        ("rules scopa players 2 players 4", "players given twice: players 4"),
        ("rules scopa target=21 target=11", "target given twice: target=11"),
        ("rules scopa game=escoba", "game"),
        ("position fen abc", "fen"),
        ("position deal seed -1", "-1"),
        ("position deal seed x", "x"),
        ("position deal seed 1 moves 7D x 3C+4S", "7D x 3C+4S"),
        ("position deal seed 1 moves JC x 2D+6D,, KS", ",,"),
        # Control characters in the bad value are written as \xNN, from the core's messages
        # (the preset, the notation) and the protocol's own (the command) alike.
        ("rules sco\x1b[2Jpa", "sco\\x1b[2Jpa"),
        ("position notation a\x00b", "a\\x00b"),
        ("position de\x00al", "got: de\\x00al"),
        ("frob\x07nicate", "frob\\x07nicate"),
        # Numbers are ASCII digits: not int()'s other spellings.
        ("position deal seed 1_000", "1_000"),
        ("position deal seed +5", "+5"),
        ("position deal seed \uff15", "\uff15"),
    ],
)
def test_bad_input_gets_one_error_line(session: Session, line: str, token: str) -> None:
    answer = session.one(line, "ok")
    assert answer.startswith("error ") and token in answer, answer
    assert answer.isprintable() and "Traceback" not in answer
    assert session.one("isready", "readyok") == "readyok"


@pytest.mark.parametrize(
    ("line", "token"),
    [
        ("play 9Z", "9Z"),
        ("play KS", "KS"),
        ("go worlds many", "many"),
        ("go worlds 0", "0"),
        ("go depth 3", "depth"),
        ("go wrolds 3", "wrolds; hint: did you mean worlds?"),
        ("go bot pimc:wrlds=5", "wrlds; hint: did you mean worlds?"),
        ("go worlds", "worlds"),
        ("go horizon forever", "forever"),
        ("go time -5", "-5"),
        ("solve now", "`solve` takes no arguments, got: now"),
        ("report", "not over"),
        # Nothing given is ignored: words after a command that takes none, a budget twice.
        ("legal now", "`legal` takes no arguments, got: now"),
        ("status please", "`status` takes no arguments, got: please"),
        ("isready x", "`isready` takes no arguments, got: x"),
        ("capturefast 2", "`capturefast` takes no arguments, got: 2"),
        ("report x", "`report` takes no arguments, got: x"),
        ("nexthand x", "`nexthand` takes no arguments, got: x"),
        ("go worlds 5 worlds 6", "a budget is given once: worlds"),
        ("analyze seed 1 time 5 seed 2", "a budget is given once: seed"),
        ("go infinite infinite", "a budget is given once: infinite"),
    ],
)
def test_bad_input_on_a_position_leaves_it(session: Session, line: str, token: str) -> None:
    session.one("position deal seed 1", "ok")
    before = session.one("legal", "legal")
    answer = session.one(line, "ok")
    assert answer.startswith("error ") and token in answer, answer
    assert session.one("legal", "legal") == before


def test_a_finished_hand_refuses_searches(session: Session) -> None:
    state = cf.State.new(cf.Rules.scopa(), seed=1)
    moves = []
    while not state.hand_over:
        moves.append(str(state.legal_moves()[0]))
        state = state.play(moves[-1])
    session.one("position deal seed 1 moves " + ", ".join(moves), "ok")
    for line in ("go", "analyze", "solve", "play KS"):
        answer = session.one(line, "ok")
        assert answer.startswith("error "), line
        # The protocol's words, not the Python API's.
        assert "()" not in answer and "illegal move: the hand is over: nothing" not in answer
    session.one("position deal seed 1", "ok")
    answer = session.one("nexthand", "ok")
    assert answer.startswith("error ") and "nexthand" in answer and "next_hand" not in answer
    answer = session.one("position deal seed 1 moves KS", "ok")
    assert answer.startswith("error ") and "`legal` lists the legal moves" in answer, answer


def test_engine_process_reads_until_end_of_input() -> None:
    """Commands piped in are all answered in full: the end of input stops no search that has
    a budget."""
    text = "capturefast\nposition deal seed 1\ngo worlds 20\nlegal\n"
    out = subprocess.run(ENGINE, input=text, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[-3].startswith("info worlds 20 "), lines[-4:]
    assert lines[-2].startswith("bestmove ") and lines[-1].startswith("legal ")
    assert lines[-2].removeprefix("bestmove ") in moves_of(lines[-1])
    assert out.stderr == ""


def engine_process(text: str | bytes, timeout: float = 120) -> list[str]:
    """The answer lines of an engine process given `text` on its standard input (exit 0, no
    stderr)."""
    data = text.encode() if isinstance(text, str) else text
    out = subprocess.run(ENGINE, input=data, capture_output=True, timeout=timeout)
    assert out.returncode == 0 and out.stderr == b"", out.stderr.decode()
    return out.stdout.decode().splitlines()


def test_go_answers_a_bestmove_when_a_world_is_too_large_for_the_solver() -> None:
    """A Scopone deal is beyond the exact solver (it refuses past its node limit, about 3 s):
    `go horizon hand` still answers a legal `bestmove`, the round search valuing the worlds,
    and an `info string` line says so; `analyze` too."""
    lines = engine_process(
        "rules scopone_scientifico\nposition deal seed 1\nlegal\ngo horizon hand worlds 2\n"
        "analyze horizon hand worlds 2\n"
    )
    assert lines[:2] == ["ok", "ok"]
    legal = moves_of(lines[2])
    go = lines[3 : lines.index(next(x for x in lines if x.startswith("bestmove "))) + 1]
    assert go[0] == (
        "info string the first world is too large for the exact solver (past its node limit): "
        "the round search values it and every world after it"
    ), go[:2]
    assert all(x.startswith("info worlds ") for x in go[1:-1])
    assert go[-2].startswith("info worlds 2 ")
    assert go[-1].removeprefix("bestmove ") in legal
    analysis = lines[len(go) + 3 :]
    assert analysis[0].startswith("info string the first world is too large"), analysis[:2]
    assert analysis[-1].startswith("analysis seat ") and " worlds 2 " in analysis[-1]


def test_legal_on_the_view_of_a_seat_not_to_move_is_an_error_not_an_empty_list() -> None:
    """A bare `legal` means the hand is over: a view whose seat is not to move gets an error
    naming the seat to move instead (its moves depend on a hand the view hides)."""
    state = cf.State.new(cf.Rules.scopa(), seed=1)
    assert state.to_move == 0
    other, mover = state.view(1).to_notation(), state.view(0).to_notation()
    finished = state
    while not finished.hand_over:
        finished = finished.play(finished.legal_moves()[0])
    lines = engine_process(
        f"position notation {other}\nlegal\nposition notation {mover}\nlegal\n"
        f"position notation {finished.view(1).to_notation()}\nlegal\n"
    )
    assert lines[1] == (
        "error the view's seat is not to move (seat 0 is): 1; hint: seat 0's moves depend on "
        "its hand, which this view hides: send seat 0's view, or the whole position"
    )
    assert moves_of(lines[3]) == [str(m) for m in state.legal_moves()]
    assert lines[4:] == ["ok", "legal"]  # the hand is over


def test_an_over_long_line_gets_a_short_error_and_reading_goes_on() -> None:
    """A line past the limit (64 KiB) is answered in its turn with an error that shows only
    its start, never held whole, and the next lines are read; a line at the limit is read."""
    limit = 64 * 1024
    at_limit = "legal" + " " * (limit - len("legal"))
    text = (
        "position deal seed 1\nplay " + "A" * 5_000_000 + "\nlegal\n" + at_limit + "\n"
        "play " + "\u00e9" * limit + "\nstatus\n"
    )
    lines = engine_process(text)
    assert len(lines) == 6, [x[:80] for x in lines]
    assert lines[1] == (
        f"error a line is at most {limit} bytes, got one of 5000005 starting: "
        "play AAAAAAAAAAAAAAAAAAAAAAAAAAA..."
    )
    assert lines[2].startswith("legal ") and lines[3] == lines[2]
    # Counted in bytes: `é` is two.
    assert lines[4].startswith(f"error a line is at most {limit} bytes, got one of {5 + 2 * limit}")
    assert len(lines[4]) < 200
    assert lines[5].startswith("status ")


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed: no Node client")
def test_node_client_plays_hands_against_the_engine() -> None:
    node = shutil.which("node")
    assert node is not None
    out = subprocess.run([node, str(CLIENT), *ENGINE], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 failed" in out.stdout.splitlines()[-1], out.stdout


def test_the_bot_of_docs_protocol_md_plays_a_hand() -> None:
    """The page's whole-bot example, run as written but for how it starts the engine."""
    page = (Path(__file__).parent.parent / "docs" / "protocol.md").read_text()
    code = re.search(r"```python\n(.*?)```", page, re.S)
    assert code is not None
    source = code[1].replace('["capturefast", "engine"]', repr(ENGINE))
    assert repr(ENGINE) in source
    out = subprocess.run(
        [sys.executable, "-c", source], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith('report {"game":"scopa"'), out.stdout


@pytest.mark.parametrize("ending", ["quit\n", ""], ids=["quit", "end of input"])
def test_quit_and_end_of_input_stop_an_infinite_search(ending: str) -> None:
    text = "position deal seed 1\ngo infinite\n" + ending
    out = subprocess.run(ENGINE, input=text, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    last = out.stdout.splitlines()[-1]
    assert last.startswith("bestmove "), out.stdout[-500:]


def test_slices_pool_to_the_statistics_of_their_worlds() -> None:
    """Two one-world slices: the pooled mean and standard error are those of the two values,
    computed here from two independent one-world analyses with the slices' seeds."""
    state = cf.State.new(cf.Rules.escoba(), seed=8)
    result = service.search(state, service.Budget(worlds=2, seed=5, horizon="round"))
    seeds = [5, (5 + 0x9E3779B97F4A7C15) % 2**64]
    per_world = [
        {s.move: s.mean for s in cf.analyze(state, worlds=1, seed=k, horizon="round").moves}
        for k in seeds
    ]
    assert result.worlds == 2 and not result.stopped
    for stat in result.moves:
        values = [w[stat.move] for w in per_world]
        assert stat.mean == pytest.approx(statistics.fmean(values))
        assert stat.stderr == pytest.approx(statistics.stdev(values) / math.sqrt(2), abs=1e-9)
    assert [s.mean for s in result.moves] == sorted((s.mean for s in result.moves), reverse=True)


WORDS = [
    "capturefast",
    "isready",
    "setoption",
    "name",
    "value",
    "Worlds",
    "Seed",
    "Horizon",
    "rules",
    "scopa",
    "escoba",
    "chkobba",
    "cirulla",
    "players",
    "2",
    "4",
    "target=21",
    "position",
    "deal",
    "seed",
    "moves",
    "play",
    "legal",
    "status",
    "go",
    "worlds",
    "time",
    "horizon",
    "round",
    "hand",
    "analyze",
    "solve",
    "report",
    "nexthand",
    "7D",
    "x",
    "3C+4S",
    "KS",
    ",",
    "keep",
    "claim",
    "-1",
    "0",
    "1",
    "99999999999999999999999",
    "nan",
    "\u00e9",
]


@given(
    st.lists(
        st.lists(st.sampled_from(WORDS) | st.text(max_size=6), max_size=8).map(" ".join),
        min_size=1,
        max_size=8,
    )
)
def test_any_command_lines_get_answers_never_exceptions(lines: list[str]) -> None:
    """Random command lines, run in order: each is answered by lines that start with an
    answer word, and none raises (budgets are capped so that a search stays short)."""
    answers: list[str] = []
    engine = Engine(answers.append)
    words = ("id", "option", "capturefastok", "readyok", "ok", "legal", "status", "info")
    finals = ("bestmove", "analysis", "solution", "report", "error")
    for line in lines:
        line = re.sub(r"\bworlds \S+|\binfinite\b|\btime \S+", "worlds 2", line)
        engine.run(line.strip())
    assert all(a.split(" ")[0] in words + finals for a in answers), answers
    assert not any("Traceback" in a or "\n" in a for a in answers)


def test_bytes_that_are_not_utf8_and_tabs() -> None:
    """A byte that is not UTF-8 makes its word a bad one (an `error` line, no traceback);
    tabs separate words as spaces do."""
    text = b"posit\xffion deal seed 1\nposition\tdeal  seed 1\nplay \xfe\xfe\nlegal\n"
    out = subprocess.run(ENGINE, input=text, capture_output=True, timeout=60)
    assert out.returncode == 0 and out.stderr == b"", out.stderr
    lines = out.stdout.decode("utf-8").splitlines()
    assert lines[0].startswith("error unknown command: posit\ufffdion"), lines
    assert lines[1] == "ok"
    assert lines[2].startswith("error ") and lines[3].startswith("legal JC x 2D+6D"), lines


def test_a_reader_that_goes_away_ends_the_engine_quietly() -> None:
    proc = subprocess.Popen(
        ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdout.close()
    proc.stdin.write(b"position deal seed 1\nlegal\ngo worlds 50\nlegal\n")
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0
    assert proc.stderr is not None and b"Traceback" not in proc.stderr.read()


def test_the_world_a_view_is_searched_in_has_that_view_and_the_same_analysis() -> None:
    """What the engine's searches of a view rely on: the position they run on
    (`service.searchable`) has the view as its view of the seat, on positions of random play of
    every preset, and its analysis is the analysis of the real position."""
    rng = random.Random(3)
    for name in cf.variants.preset_names():
        state = cf.State.new(cf.variants.rules(name), seed=rng.randrange(1000))
        ply = 0
        while not state.hand_over:
            view = state.view(state.to_move)  # type: ignore[arg-type]
            world = service.searchable(view)
            assert world.view(view.seat) == view
            if ply % 7 == 0:
                a = cf.analyze(state, worlds=2, seed=ply)
                assert cf.analyze(world, worlds=2, seed=ply) == a
            state = state.play(rng.choice(state.legal_moves()))
            ply += 1


def test_position_notation_state_and_view(session: Session) -> None:
    state = cf.State.new(cf.Rules.chkobba(players=4), seed=6)
    for _ in range(5):
        state = state.play(state.legal_moves()[-1])
    assert session.one(f"position notation {state.to_notation()}", "ok") == "ok"
    assert session.one("notation", "notation") == f"notation {state.to_notation()}"
    assert moves_of(session.one("legal", "legal")) == [str(m) for m in state.legal_moves()]
    view = state.view(state.to_move)  # type: ignore[arg-type]
    assert session.one("notation view", "notation") == f"notation {view.to_notation()}"
    by_state = session.ask("go worlds 7 seed 3", "bestmove")
    # The view's search is the state's: one budget and seed, one answer.
    assert session.one(f"position notation {view.to_notation()}", "ok") == "ok"
    assert moves_of(session.one("legal", "legal")) == [str(m) for m in view.legal_moves()]
    assert " hand - " in session.one("status", "status")
    # The view of the seat to move is its own view.
    assert session.one("notation view", "notation") == f"notation {view.to_notation()}"
    by_view = session.ask("go worlds 7 seed 3", "bestmove")
    assert [untimed(line) for line in by_view] == [untimed(line) for line in by_state]
    # The notation carries its rules: a deal after it is of those rules.
    session.one("position deal seed 2", "ok")
    assert moves_of(session.one("legal", "legal")) == [
        str(m) for m in cf.State.new(cf.Rules.chkobba(players=4), seed=2).legal_moves()
    ]


def test_position_notation_then_moves(session: Session) -> None:
    state = cf.State.new(cf.Rules.scopa(), seed=4)
    first = state.legal_moves()[0]
    session.one(f"position notation {state.to_notation()} moves {first}", "ok")
    assert session.one("notation", "notation") == f"notation {state.play(first).to_notation()}"


@pytest.mark.parametrize(
    ("line", "token"),
    [
        ("position notation scopa players=2 bogus", "bogus"),
        ("position notation nosuch players=2", "nosuch"),
        ("position notation", "missing"),
        ("position notation VIEW moves KS", "KS"),
        ("play KS", "view of seat"),
        ("solve", "view of seat"),
        ("report", "view of seat"),
        ("nexthand", "view of seat"),
        ("notation view", "view of seat"),
        ("notation now", "now"),
        ("go", "not to move"),
    ],
)
def test_bad_input_on_a_view(session: Session, line: str, token: str) -> None:
    state = cf.State.new(cf.Rules.scopa(), seed=1)
    view = state.view(1).to_notation()  # seat 1 is not to move
    session.one(f"position notation {view}", "ok")
    answer = session.one(line.replace("VIEW", view), "ok")
    assert answer.startswith("error ") and token in answer, answer
    assert session.one("notation", "notation") == f"notation {view}"


def test_go_bot_answers_the_bots_own_move(session: Session) -> None:
    state = cf.State.new(cf.Rules.escoba(players=4), seed=3)
    session.one("rules escoba players 4", "ok")
    session.one("position deal seed 3", "ok")
    for name in [*cf.bot_names(), "pimc:worlds=30", "ismcts:iterations=200"]:
        got = session.ask(f"go bot {name} seed 7", "bestmove")
        assert got[0].startswith(f"info bot {name} time "), got
        want = cf.Bot(name, seed=7).choose(state.view(state.to_move))  # type: ignore[arg-type]
        assert got[-1] == f"bestmove {want}"
    session.one(f"position notation {state.view(state.to_move).to_notation()}", "ok")  # type: ignore[arg-type]
    assert session.ask("go bot expert", "bestmove")[-1].startswith("bestmove ")
    for line, token in (
        ("go bot nosuch", "nosuch"),
        ("go bot", "bot"),
        ("go bot expert worlds 3", "worlds 3"),
        ("go bot pimc:worlds=0", "worlds"),
    ):
        answer = session.one(line, "bestmove")
        assert answer.startswith("error ") and token in answer, answer
