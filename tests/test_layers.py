"""The core's layers depend one way, and its modules form no cycle.

Read from the source: every `crate::...` path in a file of `rust/capturefast-core/src` (in `use`
items and inline paths alike, comments aside) names the module it depends on. `game` may use
nothing above it, `eval` only `game`, `search` `game` and `eval`, `play` all three, and `learn`
all four; the crate-root utilities (`error`, `parallel`) use no layer. Between modules, the
graph has no cycle. Unit tests (`#[cfg(test)]` blocks and `tests.rs` files) are left out: they
may reach across layers to check them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "rust" / "capturefast-core" / "src"

# What each layer (or crate-root module) may use, besides itself.
ALLOWED = {
    "error": set(),
    "parallel": set(),
    "game": {"error"},
    "eval": {"game", "error"},
    "search": {"game", "eval", "error", "parallel"},
    "play": {"game", "eval", "search", "error", "parallel"},
    "learn": {"game", "eval", "search", "play", "error", "parallel"},
}


def _module(path: Path) -> str:
    """`game::state` for src/game/state.rs, `game` for src/game/mod.rs."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "mod":
        parts.pop()
    return "::".join(parts)


def _code(path: Path) -> str:
    """The file without comments and without its `#[cfg(test)]` module."""
    text = path.read_text()
    test_module = re.search(r"#\[cfg\(test\)\]\s*(?:#\[[^\n]*\]\s*)*mod tests", text)
    if test_module:
        text = text[: test_module.start()]
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())


def _uses(code: str) -> set[str]:
    """Every module path named after `crate::`, expanding `crate::{a::x, b}` groups one level."""
    found: set[str] = set()
    for m in re.finditer(r"crate::(\{[^}]*\}|[a-z_][a-z_0-9]*(?:::[a-z_][a-z_0-9]*)*)", code):
        body = m.group(1)
        items = body.strip("{}").split(",") if body.startswith("{") else [body]
        for item in items:
            segs = [s for s in item.strip().split("::") if s and s[0].islower()]
            if segs:
                found.add("::".join(segs))
    return found


FILES = sorted(p for p in SRC.rglob("*.rs") if p.name not in ("lib.rs", "tests.rs"))


def _target(path: str, modules: set[str]) -> str | None:
    """The longest known module that `path` starts with."""
    parts = path.split("::")
    for n in range(len(parts), 0, -1):
        cand = "::".join(parts[:n])
        if cand in modules:
            return cand
    return None


def test_the_files_are_found() -> None:
    assert len(FILES) > 20, FILES
    layers = {_module(p).split("::")[0] for p in FILES}
    assert layers == set(ALLOWED), layers


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SRC)))
def test_a_module_names_the_module_it_uses(path: Path) -> None:
    # `crate::Rng` goes through the root's re-exports and would hide which layer it uses.
    hidden = re.findall(r"crate::[A-Z]\w*", _code(path))
    assert not hidden, f"{path.relative_to(SRC)} uses {hidden}: name the module"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SRC)))
def test_a_module_uses_only_the_layers_below_it(path: Path) -> None:
    layer = _module(path).split("::")[0]
    used = {u.split("::")[0] for u in _uses(_code(path))}
    wrong = used - ALLOWED[layer] - {layer}
    assert not wrong, f"{path.relative_to(SRC)} ({layer}) uses {sorted(wrong)}"


def test_no_module_cycle() -> None:
    modules = {_module(p) for p in FILES}
    graph: dict[str, set[str]] = {}
    for p in FILES:
        me = _module(p)
        deps = {_target(u, modules) for u in _uses(_code(p))}
        # A module's own children and parents (`mod` declarations) are not dependencies.
        graph[me] = {
            d
            for d in deps
            if d is not None
            and d != me
            and not d.startswith(me + "::")
            and not me.startswith(d + "::")
        }
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                cycle = [*stack[stack.index(d) :], d]
                raise AssertionError("module cycle: " + " -> ".join(cycle))
            if d not in state:
                visit(d)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_the_check_sees_an_upward_use() -> None:
    # The parser finds grouped and nested paths, so a violation cannot slip through unseen.
    code = "use crate::{play::bots::Bot, game::card::Card};\nlet x = crate::search::solver::f();"
    assert _uses(code) == {"play::bots", "game::card", "search::solver::f"}
