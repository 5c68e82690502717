from __future__ import annotations

import os
import pathlib
import signal
import sys

import pytest
from hypothesis import settings

sys.path.insert(0, str(pathlib.Path(__file__).parent))

# A run started in the background by a non-interactive shell (`make test &`, nohup) ignores
# SIGINT, and so would every CLI, engine or Ray process a test starts, which then never sees
# the Ctrl-C that the interrupt tests send. Those tests need Python's own handler, here and in
# the processes they start (a child inherits an ignored signal, not a handler).
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Hypothesis profiles: `ci` (the default) is quick; `thorough` runs 20 times more examples.
# Choose one with HYPOTHESIS_PROFILE=thorough.
settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    print_blob=True,
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite tests/golden/*.txt from the engine (review the diff before committing)",
    )
