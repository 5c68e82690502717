"""Batch calls on a real local Ray cluster (`capturefast.distributed`): bit-identical results to
the local calls for every shard size, a worker killed mid-shard, Ctrl-C, progress, the shard
hook, and bad arguments refused with the local call's error before any task is sent.

One cluster (2 CPUs, no dashboard) serves the whole module: starting Ray costs seconds.
"""

from __future__ import annotations

import _thread
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import capturefast as cf
import numpy as np
import pytest
import ray
from capturefast import distributed
from capturefast._core import analyze_many_raw
from capturefast.distributed import RayExecutor, Shard
from capturefast.sim import SimRequest

COLUMNS = (
    "points",
    "awards",
    "sweeps",
    "dealer",
    "match_scores",
    "match_winner",
    "match_hands",
)


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def same_run(a: cf.SimulationResult, b: cf.SimulationResult) -> None:
    """Every column, count and flag equal, bit for bit (dtypes included)."""
    for key in COLUMNS:
        x, y = getattr(a, key), getattr(b, key)
        if x is None or y is None:
            assert x is None and y is None, key
            continue
        assert x.dtype == y.dtype and x.shape == y.shape, key
        assert np.array_equal(x, y), key
    assert (a.completed, a.requested, a.interrupted) == (b.completed, b.requested, b.interrupted)
    assert (a.bots, a.mode, a.duplicate, a.seed) == (b.bots, b.mode, b.duplicate, b.seed)
    assert str(a.summary()) == str(b.summary())


def open_positions(n: int, plies: int = 2) -> list[cf.State]:
    rules = cf.Rules.scopa()
    out = []
    for i in range(n):
        s = cf.State.new(rules, seed=100 + i)
        for _ in range(plies):
            s = s.play(s.legal_moves()[0])
        out.append(s)
    return out


# ----- shards without Ray: the core's offsets -----


@pytest.mark.parametrize(
    ("players", "mode", "duplicate"),
    [(2, "hands", False), (2, "hands", True), (4, "matches", True), (2, "matches", False)],
)
def test_shards_joined_in_order_equal_the_whole_run_without_ray(
    players: int, mode: str, duplicate: bool
) -> None:
    rules = cf.Rules.escoba(players=players)
    n = 23 if mode == "hands" else 5
    hands, matches = (n, None) if mode == "hands" else (None, n)
    req = SimRequest.of(rules, hands, matches, ("greedy", "random"), duplicate, 9, None)
    whole = req.run()
    cuts = [(0, 1), (1, 2), (3, n - 3)]
    parts = [req.run(first, count, threads=1) for first, count in cuts]
    assert [p["completed"] for p in parts] == [c for _, c in cuts]
    for key in COLUMNS:
        if whole[key] is None:
            assert all(p[key] is None for p in parts)
        else:
            assert np.array_equal(np.concatenate([p[key] for p in parts]), whole[key]), key
    # A shard is not a fresh run: its first item is dealt from its own index.
    fresh = req.run(0, n - 3)
    assert not np.array_equal(fresh["dealer"], parts[2]["dealer"]) or not np.array_equal(
        fresh["points"], parts[2]["points"]
    )


def test_analysis_shards_equal_the_whole_batch_without_ray() -> None:
    states = open_positions(5)
    whole = analyze_many_raw(states, 3, 4, 1, 1 << 12, "round")
    joined = analyze_many_raw(states[:3], 3, 4, 1, 1 << 12, "round", first=0)
    joined += analyze_many_raw(states[3:], 3, 4, 1, 1 << 12, "round", first=3)
    assert joined == whole


def test_the_base_install_does_not_import_ray() -> None:
    code = (
        "import sys, capturefast as cf, capturefast.distributed\n"
        "cf.simulate(cf.Rules.scopa(), hands=10)\n"
        "cf.tournament(cf.Rules.scopa(), ['random', 'greedy'], hands=5)\n"
        "assert 'ray' not in sys.modules, 'ray imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_executor_arguments_are_checked() -> None:
    rules = cf.Rules.scopa()
    with pytest.raises(cf.ArgumentError, match="executor must be"):
        cf.simulate(rules, hands=10, executor="spark")
    with pytest.raises(TypeError, match="executor must be"):
        cf.solve_many(open_positions(1), executor=3)  # type: ignore[arg-type]
    with pytest.raises(cf.ArgumentError, match="shard_size must be from 1 to"):
        RayExecutor(shard_size=0)
    with pytest.raises(cf.ArgumentError, match="max_retries must be from 0 to 1000"):
        RayExecutor(max_retries=-1)
    with pytest.raises(TypeError, match="threads must be an int"):
        RayExecutor(threads=1.5)  # type: ignore[arg-type]
    assert distributed.shard_ranges(10, 4) == [(0, 4), (4, 4), (8, 2)]


# ----- equality with the local calls -----


@pytest.mark.parametrize(
    ("mode", "duplicate", "seed", "shard_size"),
    [
        ("hands", False, 0, 1000),
        ("hands", False, 7, 333),
        ("hands", True, 12345, None),
        ("matches", True, 2**64 - 1, 3),
        ("matches", False, 5, 1),
    ],
)
def test_simulate_equals_the_local_call(
    cluster: None, mode: str, duplicate: bool, seed: int, shard_size: int | None
) -> None:
    rules = cf.Rules.scopa(players=4) if mode == "matches" else cf.Rules.chkobba()
    count = {"hands": 2000} if mode == "hands" else {"matches": 11}
    kw: dict[str, Any] = dict(count, bots=("expert", "greedy"), duplicate=duplicate, seed=seed)
    local = cf.simulate(rules, **kw)
    remote = cf.simulate(rules, executor=RayExecutor(shard_size=shard_size), **kw)
    same_run(local, remote)
    assert remote.threads == 1


def test_the_module_functions_and_the_string_executor(cluster: None) -> None:
    rules = cf.Rules.scopa()
    local = cf.simulate(rules, hands=500, bots="greedy", seed=3)
    same_run(local, distributed.simulate(rules, hands=500, bots="greedy", seed=3))
    same_run(local, cf.simulate(rules, hands=500, bots="greedy", seed=3, executor="ray"))


@pytest.mark.parametrize(("seed", "shard_size"), [(0, 100), (99, 7)])
def test_tournament_equals_the_local_call(cluster: None, seed: int, shard_size: int) -> None:
    rules = cf.Rules.scopa()
    bots = ["random", "greedy", "expert"]
    local = cf.tournament(rules, bots, hands=300, seed=seed)
    remote = cf.tournament(
        rules, bots, hands=300, seed=seed, executor=RayExecutor(shard_size=shard_size)
    )
    assert local.results.keys() == remote.results.keys()
    for pair in local.results:
        same_run(local.results[pair], remote.results[pair])
    assert remote.interrupted is False
    assert [s.to_dict() for s in remote.ranking()] == [s.to_dict() for s in local.ranking()]
    assert np.array_equal(local.table()[0], remote.table()[0], equal_nan=True)


@pytest.mark.parametrize("shard_size", [1, 2, 5, None])
def test_solve_many_equals_the_local_call(cluster: None, shard_size: int | None) -> None:
    states = open_positions(5, plies=20)
    local = cf.solve_many(states)
    assert cf.solve_many(states, executor=RayExecutor(shard_size=shard_size)) == local
    assert distributed.solve_many(states) == local
    assert cf.solve_many([], executor="ray") == []


@pytest.mark.parametrize(("seed", "shard_size"), [(0, 1), (31, 2), (7, None)])
def test_analyze_many_equals_the_local_call(
    cluster: None, seed: int, shard_size: int | None
) -> None:
    states = open_positions(5)
    kw: dict[str, Any] = {"worlds": 4, "seed": seed, "horizon": "round"}
    local = cf.analyze_many(states, **kw)
    remote = cf.analyze_many(states, executor=RayExecutor(shard_size=shard_size), **kw)
    assert remote == local
    assert distributed.analyze_many(states, **kw) == local


# ----- bad arguments: the local error, before any task -----


def _bad_calls() -> list[tuple[str, Callable[[Any], object]]]:
    scopa = cf.Rules.scopa()
    optional = cf.Rules.scopa(compulsory_capture=False)
    over = cf.State.new(scopa, seed=1)
    while not over.hand_over:
        over = over.play(over.legal_moves()[0])
    states = open_positions(2)
    return [
        ("unknown bot", lambda ex: cf.simulate(scopa, hands=10, bots="nobot", executor=ex)),
        ("bad budget", lambda ex: cf.simulate(scopa, hands=10, bots="pimc:worlds=0", executor=ex)),
        (
            "hand horizon, optional capture",
            lambda ex: cf.simulate(optional, hands=5, bots="pimc:horizon=hand", executor=ex),
        ),
        ("no hands", lambda ex: cf.simulate(scopa, hands=0, executor=ex)),
        ("negative seed", lambda ex: cf.simulate(scopa, hands=3, seed=-1, executor=ex)),
        ("threads", lambda ex: cf.simulate(scopa, hands=3, threads=0, executor=ex)),
        ("one bot", lambda ex: cf.tournament(scopa, ["random"], hands=3, executor=ex)),
        (
            "tournament bot",
            lambda ex: cf.tournament(scopa, ["random", "nobot"], hands=3, executor=ex),
        ),
        ("hand over", lambda ex: cf.solve_many([*states, over], executor=ex)),
        ("tt_entries", lambda ex: cf.solve_many(states, tt_entries=2**40, executor=ex)),
        ("analyze over", lambda ex: cf.analyze_many([over], executor=ex)),
        ("worlds", lambda ex: cf.analyze_many(states, worlds=0, executor=ex)),
        (
            "horizon",
            lambda ex: cf.analyze_many(states, horizon="forever", executor=ex),  # type: ignore[arg-type]
        ),
    ]


@pytest.mark.parametrize(("name", "call"), _bad_calls(), ids=[n for n, _ in _bad_calls()])
def test_a_bad_argument_raises_the_local_error_before_any_task(
    cluster: None, monkeypatch: pytest.MonkeyPatch, name: str, call: Callable[[Any], object]
) -> None:
    with pytest.raises(Exception) as local:
        call(None)
    assert isinstance(local.value, (cf.CaptureFastError, TypeError)), local.value

    def no_task(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a task was sent")

    monkeypatch.setattr(distributed, "_gather", no_task)
    with pytest.raises(type(local.value)) as remote:
        call(RayExecutor(shard_size=1))
    assert str(remote.value) == str(local.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda: cf.simulate(
            cf.Rules.scopa(), hands=10, bots=("greedy", "random"), threads=3, executor="ray"
        ),
        lambda: cf.simulate(cf.Rules.scopa(), hands=10, executor=RayExecutor(threads=64)),
    ],
)
def test_threads_past_the_largest_node_are_refused_not_left_waiting(
    cluster: None, call: Callable[[], object]
) -> None:
    # Every node of the test cluster has 2 CPUs: a task reserving 3 could never be scheduled.
    with pytest.raises(cf.ArgumentError, match=r"threads must be at most 2.*got: (3|64)"):
        call()


# ----- progress, Ctrl-C, hooks, a killed worker -----


def test_progress_covers_the_whole_cluster_run(cluster: None) -> None:
    calls: list[tuple[int, int]] = []
    r = cf.simulate(
        cf.Rules.scopa(),
        hands=3000,
        seed=1,
        progress=lambda d, t: calls.append((d, t)),
        executor=RayExecutor(shard_size=500),
    )
    assert r.completed == 3000
    assert calls[-1] == (3000, 3000)
    done = [d for d, _ in calls]
    assert done == sorted(done) and all(d % 500 == 0 for d in done)


def test_keyboard_interrupt_cancels_and_returns_a_prefix(cluster: None) -> None:
    rules = cf.Rules.scopa()
    kw: dict[str, Any] = {"hands": 80, "bots": "ismcts:iterations=200", "seed": 4}

    def interrupt(done: int, total: int) -> None:
        # Half the work reported: the first shard is done too unless a worker stalled for many
        # shards' time (on a loaded machine the first report can be a later shard's, and the
        # prefix before it is then empty).
        if done >= total // 2:
            raise KeyboardInterrupt

    r = cf.simulate(rules, progress=interrupt, executor=RayExecutor(shard_size=4), **kw)
    assert r.interrupted
    assert 0 < r.completed < 80 and r.completed % 4 == 0
    assert "interrupted:" in str(r)
    whole = cf.simulate(rules, **kw)
    assert np.array_equal(r.points, whole.points[: r.completed])
    assert np.array_equal(r.awards, whole.awards[: r.completed])
    # The tournament keeps, per pair, the prefix that finished.
    t = cf.tournament(
        rules,
        ["random", "ismcts:iterations=200"],
        hands=40,
        progress=interrupt,
        executor=RayExecutor(shard_size=4),
    )
    assert t.interrupted
    assert all(res.completed < 40 for res in t.results.values())
    # A solver batch cannot return part of a list: Ctrl-C cancels the rest and re-raises.
    # The interrupt is sent only while the batch runs, once a shard has started, so that it
    # can never land in pytest's own code after the call.
    states = open_positions(2000, plies=0)  # a few ms each: seconds of work on 2 workers
    running = threading.Lock()
    state = {"running": True}

    def interrupt_once_a_shard_runs() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with running:
                if not state["running"]:
                    return
                if _shard_workers():
                    _thread.interrupt_main()
                    return
            time.sleep(0.02)

    sender = threading.Thread(target=interrupt_once_a_shard_runs)
    with pytest.raises(KeyboardInterrupt):
        try:
            sender.start()
            cf.solve_many(states, executor=RayExecutor(shard_size=1))
        finally:
            with running:
                state["running"] = False
    sender.join()


def _write_shard(directory: str) -> Callable[[Shard], None]:
    def hook(shard: Shard) -> None:
        rows = len(shard.result["points"])
        Path(directory, f"shard{shard.index}.txt").write_text(
            f"{shard.kind} {shard.first} {shard.count} {rows} {shard.pair}"
        )

    return hook


def test_the_shard_hook_runs_on_the_worker_per_shard(cluster: None, tmp_path: Path) -> None:
    ex = RayExecutor(shard_size=40, shard_hook=_write_shard(str(tmp_path)))
    cf.simulate(cf.Rules.scopa(), hands=100, duplicate=True, executor=ex)
    written = sorted(p.read_text() for p in tmp_path.iterdir())
    assert written == ["simulate 0 40 80 None", "simulate 40 40 80 None", "simulate 80 20 40 None"]
    for p in tmp_path.iterdir():
        p.unlink()
    cf.tournament(cf.Rules.scopa(), ["random", "greedy", "expert"], hands=30, executor=ex)
    pairs = sorted(p.read_text().split(" ", 4)[4] for p in tmp_path.iterdir())
    assert pairs == ["(0, 1)", "(0, 2)", "(1, 2)"]


def _shard_workers() -> list[int]:
    """The PIDs of the Ray workers running a shard (Ray titles them ``ray::<task name>``)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path("/proc", entry, "cmdline").read_bytes()
        except OSError:
            continue
        if cmdline.startswith(b"ray::_in_shard"):
            pids.append(int(entry))
    return pids


def _note_worker(directory: str) -> Callable[[Shard], None]:
    def hook(shard: Shard) -> None:
        Path(directory, f"{shard.index}-{os.getpid()}").touch()

    return hook


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="finds workers in /proc")
def test_a_worker_killed_mid_shard_is_retried_and_nothing_changes(
    cluster: None, tmp_path: Path
) -> None:
    rules = cf.Rules.scopa()
    kw: dict[str, Any] = {"hands": 24, "bots": ("ismcts:iterations=2000", "greedy"), "seed": 8}
    ex = RayExecutor(shard_size=12, max_retries=2, shard_hook=_note_worker(str(tmp_path)))
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["result"] = cf.simulate(rules, executor=ex, **kw)
        except BaseException as e:  # reported by the test below
            out["error"] = e

    runner = threading.Thread(target=run)
    runner.start()
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and runner.is_alive() and time.monotonic() < deadline:
        pids = _shard_workers()
        if pids:
            time.sleep(0.2)  # inside the shard: about a second of search
            if pids[0] in _shard_workers():  # still running its shard
                os.kill(pids[0], signal.SIGKILL)
                killed = pids[0]
        time.sleep(0.02)
    runner.join(timeout=120)
    assert killed is not None, "no shard worker was seen running"
    assert "error" not in out, out.get("error")
    same_run(cf.simulate(rules, **kw), out["result"])
    # Both shards finished, neither on the killed worker: its shard was run again elsewhere.
    finished = [name.split("-") for name in os.listdir(tmp_path)]
    assert sorted(index for index, _ in finished) == ["0", "1"]
    assert str(killed) not in {pid for _, pid in finished}


class FirstMove:
    """A Python bot: the first legal move, or the last after ``reset`` with an odd seed."""

    name = "first"

    def __init__(self) -> None:
        self.last = False

    def reset(self, seed: int) -> None:
        self.last = seed % 2 == 1

    def choose(self, view: cf.View) -> cf.Move:
        moves = view.legal_moves()
        return moves[-1] if self.last else moves[0]


def test_a_python_bot_is_shipped_to_the_workers(cluster: None) -> None:
    # The workers cannot import this test module: the bot's class travels by value.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        kw: dict[str, Any] = {"hands": 60, "bots": (FirstMove(), "greedy"), "seed": 2}
        local = cf.simulate(cf.Rules.scopa(), **kw)
        remote = cf.simulate(cf.Rules.scopa(), executor=RayExecutor(shard_size=7), **kw)
    finally:
        ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    same_run(local, remote)
    assert remote.bots == ("first", "greedy")
