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


def _seen_options(view: cf.View) -> list[str]:
    """What `view`'s seat sees, as `capturefast analyze` options."""
    argv = ["--players", str(view.num_players), "--to-move", str(view.seat)]
    argv += ["--dealer", str(view.dealer), "--stock-size", str(view.stock_size)]
    argv += [f"--hand={view.seat}=" + " ".join(map(str, view.hand))]
    if view.table:
        argv += ["--table", " ".join(map(str, view.table))]
    for side, pile in enumerate(view.piles):
        if pile:
            argv += [f"--pile={side}=" + " ".join(map(str, pile))]
    if view.last_capturer is not None:
        argv += ["--last-capturer", str(view.last_capturer)]
    argv += ["--sweeps={},{}".format(*view.sweeps)]
    return argv


@pytest.mark.parametrize("direction", ["counterclockwise", "clockwise"])
def test_analyze_options_place_the_hidden_hands_in_the_order_of_play(
    capsys: pytest.CaptureFixture[str], direction: str
) -> None:
    """The hidden hands' sizes follow the direction of play: a 4-player position given by
    options, at every turn of a round, is analyzed as its view is by `cf.analyze`."""
    rules = cf.variants.rules("scopa", players=4, direction=direction)
    state = cf.State.new(rules, seed=5)
    rng = random.Random(3)
    for _ in range(8):  # the four turns of two rounds: 0 to 3 seats have played before
        view = state.view(state.to_move)
        argv = ["analyze", "--set", f"direction={direction}", *_seen_options(view)]
        code, out, err = _run(capsys, *argv, "--worlds", "12", "--seed", "7", "--json")
        assert code == 0, err
        want = cf.analyze(view, worlds=12, seed=7)
        got = json.loads(out)
        assert got["best_move"] == str(want.best_move)
        assert [(m["move"], m["mean"]) for m in got["moves"]] == [
            (str(m.move), m.mean) for m in want.moves
        ]
        state = state.play(rng.choice(state.legal_moves()))


def test_analyze_refuses_a_hidden_hand(capsys: pytest.CaptureFixture[str]) -> None:
    """`analyze` takes what the seat to move sees: another seat's hand is refused, not dropped."""
    view = STATE.view(STATE.to_move)
    other = 1 - view.seat
    argv = ["analyze", *_seen_options(view), f"--hand={other}=" + str(STATE.hands[other][0])]
    code, _, err = _run(capsys, *argv)
    assert code == 2
    assert f"not the hand of seat: {other}" in err
