"""Smoke run of ``benches/ray_scaling.py`` (hands per second through Ray against the local
``cf.simulate``): tiny counts, so that the script keeps working; its figures come from a run
with the default counts (docs/distributed.md, docs/performance.md).

    python benches/ray_scaling.py
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "ray_scaling.py"


def test_ray_scaling_smoke() -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--smoke"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    assert "overhead per shard" in out
    assert "ray/local" in out
    assert "driver merge" in out
