"""Batch calls on a Ray cluster: `simulate`, `tournament`, `solve_many` and `analyze_many` cut
into shards of items, each shard a Ray task running the core's own batch function, the results
merged in item order.

    import capturefast as cf
    import ray

    ray.init()  # a local cluster; ray.init(address=...) or RAY_ADDRESS joins a real one
    r = cf.simulate(cf.Rules.scopa(), hands=1_000_000, seed=1, executor="ray")

Needs the ``capturefast[ray]`` extra; nothing here imports Ray until a call runs on it.
How to start a cluster, choose a shard size and what limits the scaling: docs/distributed.md.

Same results:
    A shard is items ``first .. first + count`` of the run, with those items' seeds (the core's
    ``first`` offset), so the merged result is bit for bit the local call's, whatever the
    shard size, the number of workers or machines. A shard is a pure function of its
    arguments: a worker that dies mid-shard is retried by Ray (``max_retries``), and the retry
    computes the same rows; no row is lost or counted twice.

Arguments:
    Every argument is checked before any task is sent, by the local call's own checks (the
    Python ones and, through the core's dry run, the bot names, budgets and positions): a bad
    argument raises the same `capturefast` error as locally.

Progress and Ctrl-C:
    ``progress`` counts the items of the shards that finished, over the whole cluster. Ctrl-C
    (or a ``KeyboardInterrupt`` raised by the progress callback) cancels the outstanding tasks;
    `simulate` and `tournament` then return what finished, a prefix of each run, as locally.
    `solve_many` and `analyze_many`, which return a plain list, re-raise the
    ``KeyboardInterrupt`` after cancelling, as the local calls raise it.

Records:
    ``RayExecutor(shard_hook=f)`` calls ``f(shard)`` on the worker with each finished `Shard`
    (its range and its raw result): the place to write what a shard produced beside its
    result (a file per shard, named by its index, so that a retried shard overwrites its own).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from capturefast._core import State, analyze_many_raw, solve_values
from capturefast.errors import ArgumentError
from capturefast.sim import (
    Executor,
    ProgressCallback,
    SimRequest,
    SimulationResult,
    progress_callback,
)
from capturefast.tournament import TournamentPlan, TournamentResult

if TYPE_CHECKING:
    from capturefast.solve import Analysis

__all__ = [
    "RayExecutor",
    "Shard",
    "analyze_many",
    "shard_ranges",
    "simulate",
    "solve_many",
    "tournament",
]


@dataclass(frozen=True)
class Shard:
    """One shard of a batch call, as a ``shard_hook`` sees it on the worker.

    Attributes:
        kind: ``"simulate"``, ``"solve_many"`` or ``"analyze_many"`` (a tournament's shards
            are ``"simulate"`` ones with their ``pair``).
        index: the shard's place among the call's shards, from 0.
        first: its first item (deal, match or position) in the whole run.
        count: its items: ``first .. first + count``.
        pair: in a tournament, the pair of bots ``(i, j)`` whose deals these are; else None.
        result: the shard's raw result: `simulate_arrays`' columns, or the list of values or
            analyses of its positions.
    """

    kind: str
    index: int
    first: int
    count: int
    pair: tuple[int, int] | None = None
    result: Any = None


@dataclass(frozen=True)
class RayExecutor:
    """How a batch call runs on Ray; ``executor="ray"`` is ``RayExecutor()``.

    Attributes:
        shard_size: items (deals, matches or positions) per task; None: the items split into
            ``shards_per_cpu`` tasks per CPU of the cluster (docs/distributed.md says how to
            choose it).
        shards_per_cpu: with ``shard_size=None``, tasks per cluster CPU (more balance the
            load and report progress more often; each costs a task's overhead).
        threads: threads of each task, and the CPUs each task reserves (a call's own
            ``threads`` argument, when given, wins).
        max_retries: how often Ray runs a shard again after its worker died.
        address: the cluster ``ray.init(address=...)`` joins if Ray is not started yet (None:
            ``RAY_ADDRESS`` or a new local cluster, as `ray.init()` decides).
        shard_hook: called on the worker as ``shard_hook(shard)`` with each finished `Shard`
            (it must be picklable; its return value is ignored).
    """

    shard_size: int | None = None
    shards_per_cpu: int = 4
    threads: int = 1
    max_retries: int = 3
    address: str | None = None
    shard_hook: Callable[[Shard], object] | None = None

    def __post_init__(self) -> None:
        if self.shard_size is not None:
            _positive("shard_size", self.shard_size, 2**40)
        _positive("shards_per_cpu", self.shards_per_cpu, 1 << 20)
        _positive("threads", self.threads, 1024)
        if isinstance(self.max_retries, bool) or not isinstance(self.max_retries, int):
            raise TypeError(f"max_retries must be an int, got: {type(self.max_retries).__name__}")
        if not 0 <= self.max_retries <= 1000:
            raise ArgumentError(f"max_retries must be from 0 to 1000, got: {self.max_retries}")
        if self.address is not None and not isinstance(self.address, str):
            raise TypeError(f"address must be a str or None, got: {type(self.address).__name__}")
        if self.shard_hook is not None and not callable(self.shard_hook):
            raise TypeError(
                f"shard_hook must be callable or None, got: {type(self.shard_hook).__name__}"
            )


def _positive(name: str, value: object, most: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got: {type(value).__name__}")
    if not 1 <= value <= most:
        raise ArgumentError(f"{name} must be from 1 to {most}, got: {value}")


def executor_of(executor: object) -> RayExecutor:
    """The `RayExecutor` an ``executor=`` argument names."""
    if isinstance(executor, RayExecutor):
        return executor
    if isinstance(executor, str):
        if executor == "ray":
            return RayExecutor()
        raise ArgumentError(f'executor must be "ray" or a RayExecutor, got: {executor!r}')
    raise TypeError(
        f"executor must be None, a str or a RayExecutor, got: {type(executor).__name__}"
    )


def shard_ranges(total: int, size: int) -> list[tuple[int, int]]:
    """``(first, count)`` of each shard of ``total`` items cut into shards of ``size``."""
    return [(first, min(size, total - first)) for first in range(0, total, size)]


# ----- Ray -----


def _ray() -> Any:
    """The ray module, imported here only (the base install does not need it)."""
    try:
        import ray
    except ImportError as e:
        raise ArgumentError(
            "executor ray needs the ray package, installed by the extra: capturefast[ray]"
        ) from e
    return ray


def _start(ex: RayExecutor) -> Any:
    ray = _ray()
    if not ray.is_initialized():
        ray.init(address=ex.address)
    return ray


def _shard_size(ray: Any, ex: RayExecutor, total: int) -> int:
    if ex.shard_size is not None:
        return ex.shard_size
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)) // ex.threads)
    return max(1, math.ceil(total / (cpus * ex.shards_per_cpu)))


def _in_shard(
    work: Callable[..., Any],
    args: tuple[Any, ...],
    shard: Shard,
    hook: Callable[[Shard], object] | None,
) -> Any:
    """What a task runs on its worker: the shard's work, then the hook."""
    out = work(*args)
    if hook is not None:
        hook(dataclasses.replace(shard, result=out))
    return out


# `_in_shard` as a Ray remote function, made once (Ray exports it to the workers once).
_REMOTE: Any = None


@dataclass
class _Task:
    """A shard to send: the work function and its arguments, and where it lands."""

    shard: Shard
    work: Callable[..., Any]
    args: tuple[Any, ...]


def _gather(
    ray: Any,
    ex: RayExecutor,
    tasks: Sequence[_Task],
    threads: int,
    callback: ProgressCallback | None,
) -> tuple[list[Any], bool]:
    """Runs the tasks; returns their results in order (None for a shard that did not finish)
    and whether Ctrl-C stopped the gathering. A shard's error cancels the rest and is raised."""
    global _REMOTE
    if _REMOTE is None:
        _REMOTE = ray.remote(_in_shard)
    remote = _REMOTE.options(num_cpus=threads, max_retries=ex.max_retries)
    total = sum(t.shard.count for t in tasks)
    results: list[Any] = [None] * len(tasks)
    pending: dict[Any, int] = {}
    done = 0
    try:
        for i, t in enumerate(tasks):
            pending[remote.remote(t.work, t.args, t.shard, ex.shard_hook)] = i
        last = time.perf_counter()
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=len(pending), timeout=0.05)
            for ref in ready:
                i = pending.pop(ref)
                results[i] = ray.get(ref)
                done += tasks[i].shard.count
            now = time.perf_counter()
            if callback is not None and (now - last >= 0.05 or not pending):
                callback(done, total)
                last = now
    except KeyboardInterrupt:
        _cancel(ray, pending)
        return results, True
    except BaseException:
        _cancel(ray, pending)
        raise
    return results, False


def _cancel(ray: Any, pending: dict[Any, int]) -> None:
    for ref in pending:
        ray.cancel(ref)


# ----- simulate and tournament -----


def _sim_tasks(req: SimRequest, size: int, threads: int, start: int, pair: Any) -> list[_Task]:
    return [
        _Task(
            Shard("simulate", start + k, first, n, pair),
            _run_sim_shard,
            (req, first, n, threads),
        )
        for k, (first, n) in enumerate(shard_ranges(req.count, size))
    ]


def _run_sim_shard(req: SimRequest, first: int, count: int, threads: int) -> dict[str, Any]:
    return req.run(first, count, threads=threads)


def _sim_result(
    req: SimRequest,
    tasks: Sequence[_Task],
    parts: Sequence[Any],
    threads: int,
    interrupted: bool,
    seconds: float,
) -> SimulationResult:
    raw, completed = req.merge(parts, [t.shard.count for t in tasks])
    raw["completed"] = completed
    raw["interrupted"] = interrupted or completed < req.count
    raw["threads"] = threads
    return req.result(raw, seconds)


def _prepare(ex: RayExecutor, threads: int | None) -> tuple[Any, int]:
    ray = _start(ex)
    threads = ex.threads if threads is None else threads
    # A task reserves `threads` CPUs on one node: a task no node can hold would wait forever.
    most = max(
        (int(n.get("Resources", {}).get("CPU", 0)) for n in ray.nodes() if n.get("Alive")),
        default=0,
    )
    if threads > most:
        raise ArgumentError(
            f"threads must be at most {most}, the CPUs of the largest node of the Ray cluster "
            f"(each task reserves its threads on one node), got: {threads}"
        )
    return ray, threads


def simulate_request(
    req: SimRequest, executor: object, progress: bool | ProgressCallback
) -> SimulationResult:
    """`capturefast.simulate` of a checked request, on Ray."""
    ex = executor_of(executor)
    req.run(dry_run=True)
    bar, callback = progress_callback(progress, req.unit)
    t0 = time.perf_counter()
    try:
        ray, threads = _prepare(ex, req.threads)
        tasks = _sim_tasks(req, _shard_size(ray, ex, req.count), threads, 0, None)
        parts, interrupted = _gather(ray, ex, tasks, threads, callback)
    finally:
        if bar is not None:
            bar.close()
    return _sim_result(req, tasks, parts, threads, interrupted, time.perf_counter() - t0)


def tournament_plan(
    plan: TournamentPlan, executor: object, progress: bool | ProgressCallback
) -> TournamentResult:
    """`capturefast.tournament` of a checked plan, on Ray: every pair's shards at once."""
    ex = executor_of(executor)
    for req in plan.requests:
        req.run(dry_run=True)
    bar, callback = progress_callback(progress, "deals")
    t0 = time.perf_counter()
    try:
        ray, threads = _prepare(ex, plan.requests[0].threads)
        size = _shard_size(ray, ex, plan.total)
        per_pair: list[list[_Task]] = []
        for pair, req in zip(plan.pairs, plan.requests, strict=True):
            start = sum(len(t) for t in per_pair)
            per_pair.append(_sim_tasks(req, size, threads, start, pair))
        tasks = [t for ts in per_pair for t in ts]
        parts, interrupted = _gather(ray, ex, tasks, threads, callback)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - t0
    results: dict[tuple[int, int], SimulationResult] = {}
    k = 0
    for pair, req, ts in zip(plan.pairs, plan.requests, per_pair, strict=True):
        mine = parts[k : k + len(ts)]
        k += len(ts)
        r = _sim_result(req, ts, mine, threads, interrupted, seconds)
        if r.completed or not interrupted:
            results[pair] = r
    stopped = interrupted or any(r.interrupted for r in results.values())
    return plan.result(results, stopped, seconds)


def simulate(*args: Any, executor: Executor = "ray", **kwargs: Any) -> SimulationResult:
    """`capturefast.simulate` on Ray: the same arguments, the same result."""
    from capturefast.sim import simulate as local

    return local(*args, executor=executor, **kwargs)


def tournament(*args: Any, executor: Executor = "ray", **kwargs: Any) -> TournamentResult:
    """`capturefast.tournament` on Ray: the same arguments, the same result."""
    from capturefast.tournament import tournament as local

    return local(*args, executor=executor, **kwargs)


# ----- solver batches -----


def _position_batch(
    kind: str,
    states: list[State],
    executor: object,
    threads: int | None,
    work: Callable[..., list[Any]],
    args: Callable[[list[State], int, int], tuple[Any, ...]],
) -> list[Any]:
    """Positions cut into shards; ``args(states, first, threads)`` are the work's arguments."""
    ex = executor_of(executor)
    if not states:
        return []
    ray, shard_threads = _prepare(ex, threads)
    size = _shard_size(ray, ex, len(states))
    tasks = [
        _Task(
            Shard(kind, k, first, n),
            work,
            args(states[first : first + n], first, shard_threads),
        )
        for k, (first, n) in enumerate(shard_ranges(len(states), size))
    ]
    parts, interrupted = _gather(ray, ex, tasks, shard_threads, None)
    if interrupted:
        raise KeyboardInterrupt
    return [x for part in parts for x in part]


def solve_values_sharded(
    states: list[State], threads: int | None, tt_entries: int, executor: object
) -> list[int]:
    """`capturefast.solve_many`'s values, on Ray."""
    solve_values(states, threads, tt_entries, dry_run=True)
    return _position_batch(
        "solve_many",
        states,
        executor,
        threads,
        solve_values,
        lambda part, _first, t: (part, t, tt_entries),
    )


def analyze_raw_sharded(
    states: list[State],
    worlds: int,
    seed: int,
    threads: int | None,
    tt_entries: int,
    horizon: str,
    executor: object,
) -> list[tuple[Any, ...]]:
    """`capturefast.analyze_many`'s raw analyses, on Ray: shard ``k`` at its offset."""
    analyze_many_raw(states, worlds, seed, threads, tt_entries, horizon, dry_run=True)
    return _position_batch(
        "analyze_many",
        states,
        executor,
        threads,
        _analyze_shard,
        lambda part, first, t: (part, worlds, seed, t, tt_entries, horizon, first),
    )


def _analyze_shard(
    states: list[State],
    worlds: int,
    seed: int,
    threads: int,
    tt_entries: int,
    horizon: str,
    first: int,
) -> list[tuple[Any, ...]]:
    return analyze_many_raw(states, worlds, seed, threads, tt_entries, horizon, first=first)


def solve_many(states: Any, *, executor: Executor = "ray", **kwargs: Any) -> list[int]:
    """`capturefast.solve_many` on Ray: the same arguments, the same result."""
    from capturefast.solve import solve_many as local

    return local(states, executor=executor, **kwargs)


def analyze_many(states: Any, *, executor: Executor = "ray", **kwargs: Any) -> list[Analysis]:
    """`capturefast.analyze_many` on Ray: the same arguments, the same result."""
    from capturefast.solve import analyze_many as local

    return local(states, executor=executor, **kwargs)
