from __future__ import annotations

import os
import pathlib
import sys

import pytest
from hypothesis import settings

sys.path.insert(0, str(pathlib.Path(__file__).parent))

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
