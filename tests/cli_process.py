"""The `capturefast` command run as a user runs it: a child process, its output as text."""

from __future__ import annotations

import subprocess
import sys


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m capturefast ARGS``, its exit status, stdout and stderr (never raising on a
    non-zero status; two minutes at most)."""
    return subprocess.run(
        [sys.executable, "-m", "capturefast", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
