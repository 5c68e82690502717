"""Whether a call releases the GIL, seen from the calling thread."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any


def longest_stall(target: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[float, int]:
    """Runs `target(*args, **kwargs)` in a thread while this one reads the clock in a loop;
    returns the longest gap between two reads (seconds) and how many reads it made.

    A call that holds the GIL stalls this thread for about its whole duration (e.g.
    `sum(range(10**7))` shows a gap of about its own time); one that releases it, for a
    switch interval at most. The clock starts before the thread, so a stall at its start
    counts.
    """
    th = threading.Thread(target=target, args=args, kwargs=kwargs)
    last = time.perf_counter()
    gap = 0.0
    ticks = 0
    th.start()
    while th.is_alive():
        now = time.perf_counter()
        gap = max(gap, now - last)
        last = now
        ticks += 1
    gap = max(gap, time.perf_counter() - last)
    th.join()
    return gap, ticks
