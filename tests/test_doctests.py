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
    "capturefast.records",
]

# Pages of docs/ whose `>>>` examples run as they are shown.
PAGES = ["records.md"]


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


@pytest.mark.parametrize("page", PAGES)
def test_page_examples(page: str) -> None:
    path = pathlib.Path(__file__).resolve().parent.parent / "docs" / page
    result = doctest.testfile(
        str(path),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        verbose=False,
    )
    assert result.attempted > 0, f"{page} has no examples"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {page}"
