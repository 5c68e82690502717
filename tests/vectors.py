"""Loader of the rule test vectors, ``tests/data/vectors.json``.

Used by ``test_reference_vectors.py`` (the reference engine) and ``test_vectors.py`` (the Rust
engine through the Python API), so that both run exactly the same cases. Each vector names the
rules it checks by their ids in ``docs/rules.md``; the file's ``schema_doc`` describes every kind.

The file lives in the repository and is the only place vectors are read from. A missing or empty
file never makes the vector tests skip: :func:`vector_cases` then yields one case that fails
with the path it looked at, and :func:`load_vectors` raises.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

VECTORS_PATH = Path(__file__).resolve().parent / "data" / "vectors.json"

KNOWN_KINDS: frozenset[str] = frozenset(
    {
        "capture_options",
        "legal_moves",
        "initial_table",
        "hand_score",
        "sequence",
        "match_end",
        "leftover_check",
        "deal",
    }
)

# The 40 cards in card-id order (docs/conventions.md: id = rank_index * 4 + suit_index).
DECK: tuple[str, ...] = tuple(r + s for r in "A234567JQK" for s in "CDHS")


class VectorsMissingError(FileNotFoundError):
    """The vectors file is missing or holds no vectors."""


def read_vectors_file(path: Path) -> dict[str, Any]:
    """Return the parsed vectors file at ``path``.

    Raises:
        VectorsMissingError: If the file is missing or holds no vectors.
    """
    if not path.is_file():
        raise VectorsMissingError(f"vectors file not found: {path}")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if not data.get("vectors"):
        raise VectorsMissingError(f"vectors file holds no vectors: {path}")
    return data


@functools.cache
def load_data() -> dict[str, Any]:
    """Return the whole parsed ``tests/data/vectors.json`` (raises if missing or empty)."""
    return read_vectors_file(VECTORS_PATH)


def load_vectors() -> list[dict[str, Any]]:
    """Return the list of vectors (raises :class:`VectorsMissingError` if there are none)."""
    vectors: list[dict[str, Any]] = load_data()["vectors"]
    return vectors


def vector_cases(
    kinds: set[str] | frozenset[str] | None = None, path: Path | None = None
) -> list[Any]:
    """Return one pytest case ``(vector, variant_index)`` per vector and per vector variant.

    ``variant_index`` is None for the vector itself. When the file is missing or empty, a single
    case ``(None, None)`` with id ``vectors-missing`` is returned, which
    :func:`require_vector` fails, so that the suite fails instead of running no case.

    Args:
        kinds: Only vectors of these kinds (all kinds if None).
        path: The vectors file (``tests/data/vectors.json`` if None).
    """
    try:
        vectors = load_vectors() if path is None else read_vectors_file(path)["vectors"]
    except VectorsMissingError:
        return [pytest.param(None, None, id="vectors-missing")]
    cases: list[Any] = []
    for vector in vectors:
        if kinds is not None and vector["kind"] not in kinds:
            continue
        cases.append(pytest.param(vector, None, id=vector["id"]))
        for index in range(len(vector.get("variants", []))):
            cases.append(pytest.param(vector, index, id=f"{vector['id']}/variant{index}"))
    return cases


def require_vector(vector: dict[str, Any] | None) -> dict[str, Any]:
    """Fail the calling test, naming the file, when the vectors could not be loaded."""
    if vector is None:
        pytest.fail(f"no vectors loaded: {VECTORS_PATH}")
    return vector


def merge(base: Any, override: Any) -> Any:
    """Deep-merge a partial ``expected`` override (of a vector variant) into ``expected``."""
    if isinstance(base, dict) and isinstance(override, dict):
        merged = dict(base)
        for key, value in override.items():
            merged[key] = merge(base[key], value) if key in base else value
        return merged
    return override


def config_and_expected(
    vector: dict[str, Any], variant: int | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return the rules options and the expected result of a vector or one of its variants."""
    expected: dict[str, Any] = vector["expected"]
    if variant is None:
        return {}, expected
    entry = vector["variants"][variant]
    return dict(entry["config"]), merge(expected, entry["expected"])


def players_of(vector: dict[str, Any]) -> int:
    """Return the player count a vector implies (4 for partnership inputs)."""
    inp = vector["input"]
    if "teams" in inp or "seats" in inp:
        return 4
    return int(inp.get("players", 2))


def side_letter(side: int | None) -> str | None:
    """Map side 0/1 to the vectors' ``A``/``B`` (None stays None)."""
    return None if side is None else "AB"[side]


def expand_rest(piles: dict[str, Any]) -> dict[str, list[str]]:
    """Replace a ``"REST"`` pile by the 40-card deck minus every other listed card."""
    rest_keys = [k for k, v in piles.items() if v == "REST"]
    assert len(rest_keys) <= 1, f"more than one REST pile in {piles}"
    listed = [c for v in piles.values() if v != "REST" for c in v]
    result = {k: list(v) for k, v in piles.items() if v != "REST"}
    for key in rest_keys:
        result[key] = [c for c in DECK if c not in listed]
    return result


def hand_score_inputs(inp: dict[str, Any]) -> tuple[list[list[str]], list[int]]:
    """Return the two side piles and sweep counts of a ``hand_score`` input.

    Partnership inputs (``seats``/``teams``) are pooled by team: team A is side 0.
    """
    if "seats" in inp:
        seat_piles = expand_rest(inp["seats"])
        teams = inp["teams"]
        piles = [[c for s in teams[t] for c in seat_piles[s]] for t in ("A", "B")]
        sweeps = [sum(int(inp["seat_sweeps"][s]) for s in teams[t]) for t in ("A", "B")]
    else:
        side_piles = expand_rest(inp["piles"])
        piles = [side_piles["A"], side_piles["B"]]
        sweeps = [int(inp["sweeps"]["A"]), int(inp["sweeps"]["B"])]
    return piles, sweeps
