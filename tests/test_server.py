"""The JSON server (docs/server.md) over loopback: a real `capturefast serve` process on a free
port, a real HTTP client (httpx), every endpoint and every kind of bad input, and a schemathesis
run of its OpenAPI description finding no 5xx."""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import capturefast as cf
import pytest
from played import expert_history

httpx = pytest.importorskip("httpx", reason="the test extra installs httpx")
pytest.importorskip("fastapi", reason="the server extra installs fastapi")

TIME_LIMIT_MS = 3000
SERVE = [sys.executable, "-m", "capturefast", "serve"]


# Bounded: a few examples an operation, with a fixed seed, so that the run takes well under a
# minute on 2 cores.
SCHEMATHESIS = ["--max-examples", "25", "--seed", "1", "--no-color", "--request-timeout", "20"]


def test_a_port_in_use_is_a_usage_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = int(taken.getsockname()[1])
        p = subprocess.run(
            [*SERVE, "--port", str(port)], capture_output=True, text=True, timeout=60
        )
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr
    assert p.stderr.rstrip().splitlines()[-1].endswith(f": 127.0.0.1 port {port}"), p.stderr


def first_line(proc: subprocess.Popen[str], seconds: float) -> str:
    """The process's first line of output, or "" if none came within `seconds`."""
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], seconds)
    return proc.stdout.readline() if ready else ""


def answering(proc: subprocess.Popen[str]) -> str:
    """The address a `capturefast serve --port 0` process listens on, once it answers (else
    it is killed and a RuntimeError says what it wrote)."""
    try:
        said = re.match(r"capturefast serve: (http://127\.0\.0\.1:(\d+)) ", first_line(proc, 30))
        if said is None or said.group(2) == "0":
            raise RuntimeError("the server did not say where it listens")
        url = said.group(1)
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(url + "/bots", timeout=1).status_code == 200:
                    return url
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.1)
    except RuntimeError as e:
        proc.kill()
        out, err = proc.communicate()
        raise RuntimeError(f"{e}: {out}{err}") from None


@pytest.mark.parametrize(("sigint", "times"), [("default", 1), ("ignored", 1), ("default", 2)])
def test_ctrl_c_ends_the_server_with_status_130(sigint: str, times: int) -> None:
    """SIGINT stops the server with status 130, as it ends the other subcommands: also where
    the process started with SIGINT ignored (a job a non-interactive shell runs in the
    background: uvicorn stops on it all the same, and the status was 0), and with a second
    Ctrl-C during the shutdown (that printed a traceback)."""

    def ignore_sigint() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    proc = subprocess.Popen(
        [*SERVE, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ignore_sigint if sigint == "ignored" else None,
    )
    answering(proc)
    for _ in range(times):
        proc.send_signal(signal.SIGINT)
        time.sleep(0.05)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    assert err.strip() == "capturefast: interrupted", err


@contextmanager
def serving(time_limit_ms: int) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """A `capturefast serve` process with `--time-limit time_limit_ms` on a free port: its
    address, once it answers, and the process; stopped by its own PID on the way out, which
    must have written no traceback."""
    # Port 0: the system picks a free port, and the server prints the address it listens on.
    proc = subprocess.Popen(
        [*SERVE, "--port", "0", "--time-limit", str(time_limit_ms)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = answering(proc)
    try:
        yield url, proc
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    assert "Traceback" not in err, err


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with serving(TIME_LIMIT_MS) as (url, _):
        yield url


def post(base: str, path: str, body: Any) -> Any:
    return httpx.post(base + path, json=body, timeout=30)


DEAL = {"deal": {"seed": 1}}


def finished_hand(rules: cf.Rules, seed: int) -> tuple[cf.State, list[str]]:
    state = cf.State.new(rules, seed=seed)
    moves = []
    while not state.hand_over:
        moves.append(str(state.legal_moves()[-1]))
        state = state.play(moves[-1])
    return state, moves


def test_presets_rules_and_bots(base: str) -> None:
    presets = httpx.get(base + "/presets").json()
    assert [p["name"] for p in presets] == cf.variants.preset_names()
    assert presets[5]["rules"] == cf.variants.rules("cirulla").to_dict()
    r = post(base, "/rules", {"preset": "escoba", "players": 4, "options": {"target": 31}})
    assert r.status_code == 200
    rules = cf.variants.rules("escoba", players=4, target=31)
    assert r.json() == {"rules": rules.to_dict(), "description": cf.variants.describe(rules)}
    fast = ["random", "random_card", "greedy", "expert"]
    assert httpx.get(base + "/bots").json() == [*fast, "pimc", "ismcts"]


def test_the_documented_request_body_is_answered(base: str) -> None:
    """The example body of docs/server.md is a position the server reads."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "server.md").read_text()
    body = json.loads(doc.split("```json\n", 1)[1].split("```", 1)[0])
    r = post(base, "/legal", body)
    assert r.status_code == 200, r.text
    assert r.json()["to_move"] == 1 and r.json()["moves"]


def test_legal_from_a_deal_and_from_cards(base: str) -> None:
    state = cf.State.new(cf.Rules.chkobba(players=4), seed=3)
    first = str(state.legal_moves()[0])
    body = {
        "rules": {"preset": "chkobba", "players": 4},
        "position": {"deal": {"seed": 3}, "moves": [first]},
    }
    got = post(base, "/legal", body).json()
    after = state.play(first)
    assert got == {
        "to_move": after.to_move,
        "hand_over": False,
        "moves": [str(m) for m in after.legal_moves()],
    }
    rest = [str(cf.Card(i)) for i in range(40) if str(cf.Card(i)) not in ("7D", "KS", "3C", "4S")]
    cards = {
        "hands": [["7D"], ["KS"]],
        "table": ["3C", "4S"],
        "dealer": 1,
        "last_capturer": 1,
        "piles": [rest[:18], rest[18:]],
    }
    got = post(base, "/legal", {"position": {"cards": cards}}).json()
    assert got["moves"] == ["7D x 3C+4S"]


def test_move_and_analyze(base: str) -> None:
    body = {"position": DEAL, "worlds": 31, "seed": 2}
    got = post(base, "/move", body).json()
    legal = [str(m) for m in cf.State.new(cf.Rules.scopa(), seed=1).legal_moves()]
    assert got["move"] in legal and got["worlds"] == 31 and not got["stopped"]
    assert sorted(v["move"] for v in got["values"]) == sorted(legal)
    assert got["values"][0]["move"] == got["move"]
    an = post(base, "/analyze", body).json()
    assert an["values"] == got["values"] and "move" not in an
    # 10,000 worlds of the deal take about 90 ms here: 5 ms stops it on any machine.
    timed = post(base, "/analyze", {"position": DEAL, "worlds": 10_000, "time_ms": 5})
    assert timed.status_code == 200 and timed.json()["stopped"]
    assert timed.json()["nodes"] is None  # the round horizon counts none
    body = {"position": DEAL, "worlds": 1000, "nodes": 50_000, "horizon": "hand"}
    counted = post(base, "/analyze", body).json()
    assert counted["stopped"] and counted["nodes"] >= 50_000 and counted["worlds"] < 1000
    assert counted["horizon"] == "hand" and an["horizon"] == "round" and an["fallback"] is None


def test_a_hand_horizon_too_large_falls_back_and_says_so() -> None:
    # A Scopone scientifico deal: the exact solver gives up on it (30 million nodes, 2-3 s on
    # a quiet machine, more on a busy one: a server of its own gives it 60 s).
    body = {
        "rules": {"preset": "scopone_scientifico"},
        "position": {"deal": {"seed": 1}},
        "worlds": 2,
        "horizon": "hand",
    }
    with serving(60_000) as (url, _):
        got = post(url, "/move", body)
    assert got.status_code == 200, got.text
    answer = got.json()
    assert answer["horizon"] == "round" and answer["fallback"], answer


def test_a_search_weighs_its_worlds_by_the_moves_of_the_position(base: str) -> None:
    # A position from a deal and moves: the search is told the moves, so one world is
    # cf.analyze with that history; some positions differ from the uniform draw.
    rules, differ = cf.Rules.scopa(), 0
    for seed in range(4):
        state, history = expert_history(rules, seed, plies=3)
        position = {"deal": {"seed": seed}, "moves": [str(m) for _, m in history]}
        body = {"position": position, "worlds": 1, "seed": 7}
        told = cf.analyze(state, worlds=1, seed=7, history=history)
        for path in ("/analyze", "/move"):
            got = post(base, path, body).json()
            means = {v["move"]: v["mean"] for v in got["values"]}
            assert means == {str(m.move): pytest.approx(m.mean) for m in told.moves}
        differ += told != cf.analyze(state, worlds=1, seed=7)
    assert differ > 0


def test_solve_matches_cf_solve(base: str) -> None:
    got = post(base, "/solve", {"position": {"deal": {"seed": 2}}}).json()
    sol = cf.solve(cf.State.new(cf.Rules.scopa(), seed=2))
    # Node counts depend on what the thread's solver searched before; values do not.
    assert got["value"] == sol.value and got["nodes"] > 0
    assert got["best_moves"] == [str(m) for m in sol.best_moves]
    assert {m["move"]: m["value"] for m in got["moves"]} == {
        str(m): v for m, v in sol.move_values.items()
    }


def test_report_of_a_finished_hand(base: str) -> None:
    state, moves = finished_hand(cf.Rules.escoba(), 7)
    body = {"rules": {"preset": "escoba"}, "position": {"deal": {"seed": 7}, "moves": moves}}
    got = post(base, "/report", body).json()
    assert got == {"report": state.hand_report().to_dict(), "text": str(state.hand_report())}


def test_simulate_matches_cf_simulate(base: str) -> None:
    body = {"bots": ["greedy", "random"], "hands": 300, "seed": 5, "duplicate": True}
    got = post(base, "/simulate", body).json()
    want = cf.simulate(cf.Rules.scopa(), 300, bots=("greedy", "random"), duplicate=True, seed=5)
    mine, theirs = dict(got), want.to_dict()
    for d in (mine, theirs):
        d.pop("seconds", None)
        d.pop("threads", None)
    assert mine == json.loads(json.dumps(theirs))


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        ("/legal", {"position": {"deal": {"seed": 1}, "moves": ["9Z"]}}, 400, "9Z"),
        ("/legal", {"position": {"deal": {"seed": 1}, "moves": ["KS"]}}, 400, "KS"),
        ("/legal", {"position": {"deal": {"seed": -1}}}, 422, "deal.seed"),
        ("/legal", {"position": {"deal": {"seed": 2**64}}}, 422, "deal.seed"),
        ("/legal", {"position": {}}, 422, "exactly one"),
        ("/legal", {"position": {"deal": {"seed": 1}}, "extra": 1}, 422, "extra"),
        ("/legal", {"rules": {"preset": "nosuch"}, "position": DEAL}, 400, "nosuch"),
        ("/legal", {"rules": {"options": {"target": "x"}}, "position": DEAL}, 400, "target"),
        ("/legal", {"rules": {"players": 3}, "position": DEAL}, 422, "players"),
        ("/legal", {"rules": {"players": 2.0}, "position": DEAL}, 422, "players must be 2 or 4"),
        (
            "/legal",
            {"rules": {"players": 2, "options": {"players": 4}}, "position": DEAL},
            400,
            "twice",
        ),
        ("/legal", {"rules": {"options": {"players": "x"}}, "position": DEAL}, 400, "x"),
        ("/legal", {"rules": {"options": {"target": 10**30}}, "position": DEAL}, 400, "target"),
        ("/legal", {"position": {"cards": {"hands": [["7D"], ["7D"]]}}}, 400, "7D"),
        ("/move", {"position": DEAL, "worlds": 0}, 422, "worlds"),
        ("/move", {"position": DEAL, "worlds": 10**9}, 422, "worlds"),
        ("/move", {"position": DEAL, "time_ms": 10**9}, 422, "time_ms"),
        ("/move", {"position": DEAL, "horizon": "forever"}, 422, "horizon"),
        ("/move", {"position": DEAL, "nodes": 1000}, 400, "hand horizon"),
        ("/move", {"position": DEAL, "nodes": 0, "horizon": "hand"}, 422, "nodes"),
        ("/analyze", {"position": DEAL, "seed": "x"}, 422, "seed"),
        ("/report", {"position": DEAL}, 400, "not over"),
        ("/simulate", {"hands": 10**9}, 422, "hands"),
        ("/simulate", {"bots": ["pimc"]}, 422, "bots"),
        ("/simulate", {"bots": []}, 422, "bots"),
    ],
)
def test_bad_input_is_a_4xx_with_a_message(
    base: str, path: str, body: Any, status: int, words: str
) -> None:
    r = post(base, path, body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"], r.json()


def test_a_finished_hand_refuses_searches(base: str) -> None:
    _, moves = finished_hand(cf.Rules.scopa(), 1)
    for path in ("/move", "/analyze", "/solve"):
        r = post(base, path, {"position": {"deal": {"seed": 1}, "moves": moves}})
        assert r.status_code == 400 and "hand is over" in r.json()["error"], r.text


def test_malformed_bodies(base: str) -> None:
    for raw in (b"{", b"[1, 2]", b"null", b"\xff\xfe", b'{"position": 3}'):
        r = httpx.post(base + "/legal", content=raw, headers={"content-type": "application/json"})
        assert r.status_code == 422 and r.json()["error"], (raw, r.text)
    r = httpx.post(
        base + "/legal", content=b'{"position": ', headers={"content-type": "application/json"}
    )
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith("the body is not JSON at character 13"), r.text


@pytest.mark.parametrize(
    ("path", "raw", "where"),
    [
        ("/legal", rb'{"position": {"notation": "\ud800"}}', "position.notation"),
        ("/legal", rb'{"position": {"deal": {"seed": 1}}, "moves": ["\udfff"]}', "moves.0"),
        (
            "/legal",
            rb'{"rules": {"preset": "x\ud83d"}, "position": {"notation": "-"}}',
            "rules.preset",
        ),
        ("/legal", rb'{"rules": {"preset": "scopa", "options": {"\udc00": 1}}}', "rules.options"),
        (
            "/legal",
            rb'{"rules": {"preset": "scopa", "options": {"a": "\ud800"}}}',
            "rules.options.a",
        ),
        ("/move", rb'{"position": {"deal": {"seed": 1}}, "bot": "\ud800"}', "bot"),
        ("/analyze", rb'{"position": {"deal": {"seed": 1}}, "horizon": "\ud800"}', "horizon"),
        ("/simulate", rb'{"\ud800": 1}', "body"),
    ],
)
def test_a_lone_surrogate_anywhere_is_a_400_naming_where(
    base: str, path: str, raw: bytes, where: str
) -> None:
    # A JSON escape of half a surrogate pair parses to a str no reply can encode: refused at
    # the door, before any field is read, with the escape written in ASCII.
    r = httpx.post(base + path, content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    message = r.json()["error"]
    assert message.startswith(where + ": ") and "lone surrogate" in message, message
    # A whole pair is one character, and reads as any other text does.
    pair = httpx.post(
        base + "/legal",
        content=rb'{"rules": {"preset": "\ud83d\ude00"}, "position": {"deal": {"seed": 1}}}',
        headers={"content-type": "application/json"},
    )
    assert pair.status_code in (400, 422) and "surrogate" not in pair.text, pair.text


def test_the_frameworks_own_refusals_are_errors_like_the_others(base: str) -> None:
    # JSON too deeply nested for the parser, under the size limit: malformed JSON.
    deep = b"[" * 30000 + b"]" * 30000
    r = httpx.post(base + "/legal", content=deep, headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert r.json() == {"error": "the body could not be parsed as JSON: nested too deeply"}
    r = httpx.get(base + "/nope")
    assert r.status_code == 404 and r.json() == {"error": "no such path: /nope"}, r.text
    r = httpx.get(base + "/legal")
    assert r.status_code == 405, r.text
    assert r.json() == {"error": "/legal does not take the method: GET"}
    assert r.headers["allow"] == "POST"


def test_a_notation_line_of_4096_bytes_is_read(base: str) -> None:
    # The notation's own limit (docs/notation.md), not a smaller one of the server's: a
    # line padded with spaces to 4096 bytes reaches the engine, one byte more does not.
    line = cf.State.new(cf.Rules.scopa(), seed=1).to_notation()
    for size, status, words in [(4096, 200, None), (4097, 422, "4096")]:
        padded = line + " " * (size - len(line.encode()))
        r = post(base, "/legal", {"position": {"notation": padded}})
        assert r.status_code == status, r.text
        if words:
            assert words in r.json()["error"], r.text


def test_huge_bodies_are_refused_with_413(base: str) -> None:
    big = {"position": DEAL, "pad": "x" * 100_000}
    r = post(base, "/legal", big)
    assert r.status_code == 413 and "limit" in r.json()["error"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: the size is counted as it streams
        yield b'{"position": {"deal": {"seed": 1}}, "pad": "'
        for _ in range(100):
            yield b"x" * 1000
        yield b'"}'

    r = httpx.post(base + "/legal", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413, r.text


def test_too_long_work_is_refused_with_408(base: str) -> None:
    start = time.monotonic()
    r = post(base, "/simulate", {"bots": ["expert"], "hands": 100_000})
    assert r.status_code == 408 and "time budget" in r.json()["error"], r.text
    assert time.monotonic() - start < TIME_LIMIT_MS / 1000 + 5
    # The server is still there, and answers at once.
    assert post(base, "/legal", {"position": DEAL}).status_code == 200


def test_openapi_and_docs_pages(base: str) -> None:
    spec = httpx.get(base + "/openapi.json").json()
    assert {"/legal", "/move", "/solve", "/analyze", "/report", "/simulate", "/presets"} <= set(
        spec["paths"]
    )
    assert httpx.get(base + "/docs").status_code == 200


@pytest.mark.skipif(
    shutil.which("schemathesis") is None
    and not os.path.exists(os.path.join(os.path.dirname(sys.executable), "schemathesis")),
    reason="the test extra installs schemathesis",
)
def test_schemathesis_finds_no_server_error(base: str) -> None:
    exe = os.path.join(os.path.dirname(sys.executable), "schemathesis")
    out = subprocess.run(
        [exe, "run", base + "/openapi.json", "--checks", "not_a_server_error", *SCHEMATHESIS],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]


def test_load_script_runs_without_errors() -> None:
    """A 2-second smoke run of benches/load_server.py (its figures come from a 20 s run)."""
    script = os.path.join(os.path.dirname(__file__), "..", "benches", "load_server.py")
    out = subprocess.run(
        [sys.executable, script, "--clients", "4", "--seconds", "2", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    result = json.loads(out.stdout)
    assert result["errors"] == 0 and result["requests"] > 0


def test_a_long_search_does_not_hold_up_other_requests(base: str) -> None:
    """A 2-second search runs in the threadpool with the GIL released: short requests sent
    meanwhile are answered at once."""
    body = {"position": DEAL, "worlds": 10_000, "time_ms": 2000, "horizon": "hand"}
    long: dict[str, Any] = {}
    worker = threading.Thread(target=lambda: long.update(r=post(base, "/analyze", body)))
    worker.start()
    time.sleep(0.3)
    for _ in range(5):
        start = time.monotonic()
        assert post(base, "/legal", {"position": DEAL}).status_code == 200
        assert time.monotonic() - start < 0.5
    assert worker.is_alive(), "the search ended before the short requests were timed"
    worker.join()
    assert long["r"].status_code == 200 and long["r"].json()["stopped"]


def test_positions_in_the_notation(base: str) -> None:
    state = cf.State.new(cf.Rules.escoba(players=4), seed=9)
    state = state.play(state.legal_moves()[0])
    line = state.to_notation()
    got = post(base, "/legal", {"position": {"notation": line}}).json()
    assert got["moves"] == [str(m) for m in state.legal_moves()]
    view = state.view(state.to_move).to_notation()  # type: ignore[arg-type]
    assert post(base, "/legal", {"position": {"notation": view}}).json()["moves"] == got["moves"]
    # A view's search is the state's, and the notation's rules are the ones used.
    body = {"rules": {"preset": "chkobba"}, "worlds": 9, "seed": 4}
    by_state = post(base, "/move", {**body, "position": {"notation": line}}).json()
    by_view = post(base, "/move", {**body, "position": {"notation": view}}).json()
    for d in (by_state, by_view):
        d.pop("time_ms")
    assert by_view == by_state
    assert by_state["move"] in got["moves"]
    nxt = post(base, "/legal", {"position": {"notation": line, "moves": [got["moves"][0]]}})
    assert nxt.json()["moves"] == [str(m) for m in state.play(got["moves"][0]).legal_moves()]


@pytest.mark.parametrize(
    ("path", "position", "status", "words"),
    [
        ("/legal", {"notation": "scopa players=2 bogus"}, 400, "bogus"),
        ("/legal", {"notation": "x" * 5000}, 422, "notation"),
        ("/legal", {"notation": "scopa", "deal": {"seed": 1}}, 422, "exactly one"),
        ("/legal", {"notation": "VIEW", "moves": ["KS"]}, 400, "KS"),
        ("/solve", {"notation": "VIEW"}, 400, "view of seat"),
        ("/report", {"notation": "VIEW"}, 400, "view of seat"),
        ("/move", {"notation": "OTHER"}, 400, "not to move"),
    ],
)
def test_bad_notation_is_a_4xx(
    base: str, path: str, position: dict[str, Any], status: int, words: str
) -> None:
    state = cf.State.new(cf.Rules.scopa(), seed=1)
    lines = {"VIEW": state.view(0).to_notation(), "OTHER": state.view(1).to_notation()}
    if position.get("notation") in lines:
        position = {**position, "notation": lines[position["notation"]]}
    r = post(base, path, {"position": position})
    assert r.status_code == status, r.text
    assert words in r.json()["error"], r.json()


def test_a_budget_beside_a_named_bot_is_refused(base: str) -> None:
    for key, value in [("worlds", 5), ("time_ms", 50), ("nodes", 10), ("horizon", "round")]:
        r = post(base, "/move", {"position": DEAL, "bot": "pimc", key: value})
        assert r.status_code == 422, r.text
        assert r.json()["error"].endswith(f"not beside it: {key}"), r.text
    # The seed is the bot's, and a budget without a bot is the search's.
    assert post(base, "/move", {"position": DEAL, "bot": "pimc", "seed": 3}).status_code == 200
    assert post(base, "/move", {"position": DEAL, "worlds": 5}).status_code == 200


def test_move_of_a_named_bot(base: str) -> None:
    state = cf.State.new(cf.Rules.scopa(), seed=5)
    view = state.view(state.to_move)  # type: ignore[arg-type]
    for name in [*cf.bot_names(), "pimc:worlds=30", "ismcts:iterations=200"]:
        want = str(cf.Bot(name, seed=2).choose(view))
        for position in ({"deal": {"seed": 5}}, {"notation": view.to_notation()}):
            got = post(base, "/move", {"position": position, "bot": name, "seed": 2})
            assert got.status_code == 200, got.text
            assert got.json()["move"] == want and got.json()["bot"] == name
    for name, words in (("nosuch", "nosuch"), ("pimc:worlds=0", "worlds")):
        r = post(base, "/move", {"position": DEAL, "bot": name})
        assert r.status_code == 400 and words in r.json()["error"], r.text


def test_a_search_given_the_whole_time_limit_answers_stopped() -> None:
    """`time_ms` may be the server's time limit itself: the search stops at it and answers,
    and the server's own watchdog leaves it the time to do so."""
    limit = 400
    body = {"position": DEAL, "worlds": 10_000, "horizon": "hand", "time_ms": limit}
    with serving(limit) as (url, _):
        for path in ("/move", "/analyze"):
            r = post(url, path, body)
            assert r.status_code == 200, r.text
            assert r.json()["stopped"] and r.json()["worlds"] < 10_000, r.text
            assert r.json()["time_ms"] <= limit + 100, r.text


def test_a_request_whose_client_leaves_is_stopped() -> None:
    """A client that closes its connection stops the work it asked for: searches abandoned on
    every work thread, and behind them, do not hold up the next request, and the server stays
    up."""
    limit = 20_000
    raw = json.dumps({"position": DEAL, "worlds": 10_000, "horizon": "hand", "time_ms": limit})
    head = "POST /move HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
    request = f"{head}content-length: {len(raw)}\r\n\r\n{raw}".encode()
    with serving(limit) as (url, proc):
        host, port = url.removeprefix("http://").split(":")
        clients = [socket.create_connection((host, int(port))) for _ in range(os.cpu_count() or 1)]
        clients += [socket.create_connection((host, int(port))) for _ in range(2)]
        for client in clients:
            client.sendall(request)
        time.sleep(0.5)  # the searches run, or wait their turn
        for client in clients:
            client.close()
        start = time.monotonic()
        r = post(url, "/move", {"position": DEAL, "worlds": 10})
        took = time.monotonic() - start
        assert r.status_code == 200, r.text
        # Held up by the abandoned searches, it would wait most of their 20 s.
        assert took < limit / 4000, took
        assert proc.poll() is None
        assert httpx.get(url + "/bots").status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (
            {"rules": {"options": {"target": 11.0}}, "position": DEAL},
            422,
            "rules.options.target: an option's value is a word, a whole number, true or false, "
            "got: 11.0",
        ),
        (
            {"rules": {"players": "2"}, "position": DEAL},
            422,
            'rules.players: players must be 2 or 4, got: "2"',
        ),
        (
            {"rules": {"players": 3}, "position": DEAL},
            422,
            "rules.players: input should be 2 or 4, got: 3",
        ),
        (
            {"rules": {"players": 3}, "position": {"deal": {"seed": -1}}},
            422,
            "2 errors, the first: rules.players: input should be 2 or 4, got: 3",
        ),
        (
            {"position": {"deal": {"seed": 1}, "moves": ["KS"]}},
            400,
            "KS is not in the hand of seat 0: KS\nhint: POST /legal lists the legal moves\n"
            "hint: it is move 1 of the moves given",
        ),
        (
            {
                "rules": {
                    "options": {
                        "opening_sweeps": "partition",
                        "initial_30_requires_partition": True,
                    }
                },
                "position": DEAL,
            },
            400,
            "give `opening_sweeps` alone: `initial_30_requires_partition` is its old spelling, "
            'got both\nhint: "opening_sweeps": "partition" is '
            '"initial_30_requires_partition": true',
        ),
    ],
)
def test_errors_name_the_field_and_value_in_the_servers_words(
    base: str, body: Any, status: int, message: str
) -> None:
    r = post(base, "/legal", body)
    assert r.status_code == status, r.text
    assert r.json()["error"] == message


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (
            b'{"position": {"deal": {"seed": ' + b"1" * 5000 + b"}}}",
            "position.deal.seed: the number has more digits than the limit of 4300: 5000",
        ),
        (
            b'{"position": {"deal": {"seed": 1}, "moves": ["K\xff"]}}',
            "position.moves.0: the text is not UTF-8 at byte 47 of the body: 0xff",
        ),
        (b"\xff\xfe", "body: the text is not UTF-8 at byte 0 of the body: 0xff"),
    ],
)
def test_a_body_json_cannot_read_is_refused_naming_the_field(
    base: str, raw: bytes, message: str
) -> None:
    r = httpx.post(base + "/legal", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert r.json()["error"] == message


def test_the_rules_beside_a_notation_line_are_not_read(base: str) -> None:
    """The line holds its rules: `rules` beside it is not read, even a preset that does not
    exist, as docs/server.md says."""
    line = cf.State.new(cf.Rules.escoba(), seed=1).to_notation()
    for rules in ({"preset": "poker"}, {"preset": "scopa", "options": {"nosuch": 1}}):
        r = post(base, "/legal", {"rules": rules, "position": {"notation": line}})
        assert r.status_code == 200, r.text
        assert r.json()["moves"] == [
            str(m) for m in cf.State.new(cf.Rules.escoba(), seed=1).legal_moves()
        ]
