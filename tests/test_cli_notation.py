"""The command line with the position notation: `solve` and `analyze` take a line, `move`
prints a built-in bot's move, `analyze --json` names the best move."""

from __future__ import annotations

import json
import random

import capturefast as cf
import pytest
from capturefast import cli


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(argv))
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


STATE = cf.State.new(cf.Rules.scopa(), seed=2)
VIEW = STATE.view(STATE.to_move)


def test_move_prints_the_bot_s_move(capsys: pytest.CaptureFixture[str]) -> None:
    for line in (VIEW.to_notation(), STATE.to_notation()):
        for bot in ("greedy", "expert", "pimc:worlds=10"):
            code, out, _ = _run(capsys, "move", line, "--bot", bot, "--seed", "4")
            assert code == 0
            assert out.strip() == str(cf.Bot(bot, seed=4).choose(VIEW))
    code, out, _ = _run(capsys, "move", VIEW.to_notation(), "--json")
    got = json.loads(out)
    assert got == {
        "move": str(cf.Bot("expert").choose(VIEW)),
        "sweep": cf.Bot("expert").choose(VIEW).sweep,
        "seat": VIEW.seat,
        "bot": "expert",
    }


def test_analyze_and_solve_take_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "analyze", VIEW.to_notation(), "--worlds", "10", "--json")
    assert code == 0
    got = json.loads(out)
    want = cf.analyze(VIEW, worlds=10)
    assert got["best_move"] == str(want.best_move)
    assert [m["move"] for m in got["moves"]] == [str(m.move) for m in want.moves]
    rng = random.Random(1)
    state = STATE
    while state.stock_size:
        state = state.play(rng.choice(state.legal_moves()))
    code, out, _ = _run(capsys, "solve", state.to_notation(), "--json")
    assert code == 0
    assert json.loads(out)["value"] == cf.solve(state).value


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["move", "scopa players=2"], "notation field `hands`: missing: hands"),
        (["move", VIEW.to_notation(), "--bot", "grandmaster"], "unknown bot"),
        (["move", STATE.view(1 - STATE.to_move).to_notation()], "not to move"),
        (["solve", VIEW.to_notation()], "notation field `seat`"),
        (["solve", STATE.to_notation(), "--table", "7D"], "already places every card"),
        (["analyze", "--worlds", "3"], "the seat to move is required: --to-move"),
    ],
)
def test_bad_lines_are_usage_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    code, _, err = _run(capsys, *argv)
    assert code == 2
    assert says in err
    assert "Traceback" not in err
