"""Setup of the Python benchmarks: make the pure-Python reference engine importable.

It lives in ``tests/reference``; put ``tests/`` on ``sys.path`` so
``from reference import ...`` works when only ``benches/python`` is collected.
"""

from __future__ import annotations

import pathlib
import sys

TESTS_DIR = pathlib.Path(__file__).resolve().parents[2] / "tests"
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))
