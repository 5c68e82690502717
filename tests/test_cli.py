"""The command line: ``python -m capturefast simulate ...``."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from capturefast.cli import main

CATEGORIES = {
    "scopa": ["cards", "coins", "settebello", "primiera"],
    "escoba": ["cards", "coins", "velo", "setenta"],
    "chkobba": ["karta", "dinari", "7ayya", "bermila"],
}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "capturefast", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def stable_lines(out: str) -> list[str]:
    """The output without the timing figures."""
    return [re.sub(r" in [\d.]+ s \(.*\)$", "", line) for line in out.splitlines()]


def test_simulate_scopa_two_players() -> None:
    p = run("simulate", "--hands", "200", "--game", "scopa", "--players", "2")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "200 random hands" in out
    assert "scopa, 2 players: 200 hands" in out
    for name in CATEGORIES["scopa"]:
        assert re.search(rf"^\s+{name}\s+A\s+[\d.]+%\s+B\s+[\d.]+%\s+tie\s+[\d.]+%$", out, re.M)
    assert "points per hand" in out
    assert "sweeps per hand" in out
    assert "escoba" not in out and "chkobba" not in out
    assert "4 players" not in out
    assert "Traceback" not in p.stderr


def test_simulate_percentages_add_up() -> None:
    p = run("simulate", "--hands", "200", "--game", "chkobba", "--players", "4", "--seed", "3")
    assert p.returncode == 0, p.stderr
    rows = re.findall(
        r"^\s+(\w+)\s+A\s+([\d.]+)%\s+B\s+([\d.]+)%\s+tie\s+([\d.]+)%$", p.stdout, re.M
    )
    assert [r[0] for r in rows] == CATEGORIES["chkobba"]
    for _, a, b, tie in rows:
        assert abs(float(a) + float(b) + float(tie) - 100.0) < 0.2
    # Someone always holds the seven of coins.
    assert float(rows[2][3]) == 0.0


def test_simulate_every_game_and_player_count() -> None:
    p = run("simulate", "--hands", "20")
    assert p.returncode == 0, p.stderr
    for game, names in CATEGORIES.items():
        for n in (2, 4):
            assert f"{game}, {n} players: 20 hands" in p.stdout
        for name in names:
            assert name in p.stdout


def test_simulate_is_deterministic_for_a_seed() -> None:
    a = run("simulate", "--hands", "100", "--game", "escoba", "--seed", "9")
    b = run("simulate", "--hands", "100", "--game", "escoba", "--seed", "9")
    c = run("simulate", "--hands", "100", "--game", "escoba", "--seed", "10")
    assert a.returncode == b.returncode == c.returncode == 0
    assert stable_lines(a.stdout) == stable_lines(b.stdout)
    assert stable_lines(a.stdout) != stable_lines(c.stdout)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["simulate", "--hands", "0"], ["--hands", "0"]),
        (["simulate", "--hands", "-5"], ["--hands", "-5"]),
        (["simulate", "--hands", "many"], ["--hands", "many"]),
        (["simulate", "--seed", "-1", "--hands", "5"], ["--seed", "-1"]),
        (["simulate", "--game", "poker"], ["--game", "poker"]),
        (["simulate", "--players", "3"], ["--players", "3"]),
        (["simulate", "--bogus"], ["--bogus"]),
        ([], ["command"]),
        (["play"], ["play"]),
    ],
)
def test_bad_arguments_exit_non_zero_with_a_message(args: list[str], words: list[str]) -> None:
    p = run(*args)
    assert p.returncode != 0
    assert "Traceback" not in p.stderr
    assert "usage:" in p.stderr
    for w in words:
        assert w in p.stderr
    assert "hands in" not in p.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--hands", "5", "--seed", str(2**64)],
        ["simulate", "--hands", str(2**64), "--game", "scopa", "--players", "2"],
    ],
    ids=["seed-2**64", "hands-2**64"],
)
def test_out_of_range_numbers_give_a_usage_error(args: list[str]) -> None:
    p = run(*args)
    assert p.returncode != 0
    assert "Traceback" not in p.stderr
    assert "usage:" in p.stderr


def test_main_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--hands", "30", "--game", "chkobba", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "chkobba, 2 players: 30 hands" in out
    for name in CATEGORIES["chkobba"]:
        assert name in out
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--hands", "0"])
    assert info.value.code != 0
    assert "--hands" in capsys.readouterr().err


def test_help() -> None:
    p = run("--help")
    assert p.returncode == 0
    assert "simulate" in p.stdout
    p = run("simulate", "--help")
    assert p.returncode == 0
    for opt in ("--game", "--players", "--hands", "--seed"):
        assert opt in p.stdout
