"""The `>>>` examples of the package's docstrings run and print what they show."""

from __future__ import annotations

import doctest
import importlib
import pathlib

import pytest

MODULES = [
    "capturefast",
    "capturefast.sim",
    "capturefast.solve",
    "capturefast.tournament",
    "capturefast.variants",
    "capturefast.service",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(
    name: str, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("pandas")  # `to_pandas()` in the simulation example
    monkeypatch.chdir(tmp_path)  # the variants example writes a file
    module = importlib.import_module(name)
    result = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
