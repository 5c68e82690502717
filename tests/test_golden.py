"""Golden playthroughs: one hand of every preset, step by step, pinned in `tests/golden/`.

Each file is a whole hand as the public API shows it (open_spiel's playthroughs): the state
before each move (`str(state)`), the legal moves in order with their sweep flags, the move
played, then the hand report and the next deal. The moves are picked by a fixed formula from
the step number, not by a random generator, so the files depend only on the engine.

The other tests compare the core with the reference, so a change that both engines make alike
passes them; these files show it as a diff. After a change that is meant to alter play,
output or the deal, rewrite them with `pytest tests/test_golden.py --update-golden` and review
the diff before committing. A missing file fails the test (it is never written silently).
"""

from __future__ import annotations

import pathlib

import capturefast as cf
import pytest
from capturefast import variants
from test_differential_variants import preset_cases

GOLDEN = pathlib.Path(__file__).parent / "golden"
SEED = 11


def pick(step: int, n: int) -> int:
    """The index of the move played at `step` among `n`: spread over the list, so that
    captures, trails and sweeps all occur."""
    return (step * 7 + 3) % n


def playthrough(name: str, players: int, seed: int) -> str:
    """One hand of the preset, as text."""
    rules = variants.rules(name, players=players)
    state = cf.State.new(rules, seed=seed)
    lines = [
        f"preset: {name}",
        f"players: {players}",
        f"seed: {seed}",
        f"options: {dict(sorted(rules.options.items()))}",
        "",
    ]
    step = 0
    while not state.hand_over:
        moves = state.legal_moves()
        chosen = moves[pick(step, len(moves))]
        lines.append(f"## step {step}")
        lines.append(str(state))
        lines.append("legal: " + ", ".join(str(m) + ("*" if m.sweep else "") for m in moves))
        lines.append(f"play: {chosen}")
        lines.append("")
        state = state.play(chosen)
        step += 1
        assert step < 200, "the hand does not end"
    lines.append("## end of hand")
    lines.append(str(state))
    lines.append(str(state.hand_report()))
    lines.append("")
    if not state.match_over:
        lines.append("## next deal")
        lines.append(str(state.next_hand()))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("name", "players"), preset_cases())
def test_playthrough_matches_golden(
    name: str, players: int, request: pytest.FixtureRequest
) -> None:
    path = GOLDEN / f"{name}_{players}p_seed{SEED}.txt"
    text = playthrough(name, players, SEED)
    if request.config.getoption("--update-golden"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"no golden file {path.name}; write it with --update-golden"
    want = path.read_text(encoding="utf-8")
    if text != want:
        # The first differing line, with its context, rather than a whole-file diff.
        got_lines, want_lines = text.splitlines(), want.splitlines()
        for i, (g, w) in enumerate(zip(got_lines, want_lines, strict=False)):
            if g != w:
                pytest.fail(f"{path.name} line {i + 1}:\n  golden: {w}\n  now:    {g}")
        pytest.fail(f"{path.name}: {len(got_lines)} lines now, {len(want_lines)} in the file")


def test_every_golden_file_is_tested() -> None:
    """A file left behind by a removed preset would go unnoticed: each must be a case."""
    cases = {f"{p.values[0]}_{p.values[1]}p_seed{SEED}.txt" for p in preset_cases()}
    files = {p.name for p in GOLDEN.glob("*.txt")}
    assert files == cases
