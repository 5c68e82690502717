"""The command line: ``python -m capturefast simulate ...`` and ``... tournament ...``."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import capturefast as cf
import pytest
from capturefast.cli import main
from cli_process import run

CATEGORIES = {
    "scopa": ["cards", "coins", "settebello", "primiera"],
    "escoba": ["cards", "coins", "velo", "setenta"],
    "chkobba": ["karta", "dinari", "7ayya", "bermila"],
}


# A rate with its 95% interval, as the summary prints it: `45.8% (42.7-48.9)`.
PCT = r"[\d.]+% \([\d.]+-[\d.]+\)"


def stable_lines(out: str) -> list[str]:
    """The output without the timing figures."""
    return [re.sub(r" in [\d.]+ s \(.*\)$", "", line) for line in out.splitlines()]


def test_simulate_scopa_two_players() -> None:
    p = run("simulate", "--hands", "200", "--game", "scopa", "--players", "2")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "scopa, 2 players: 200 hands" in out
    assert "scopa, 2 players, 200 deals, seed 0: A = random, B = random" in out
    for name in CATEGORIES["scopa"]:
        assert re.search(rf"^\s+{name}\s+{PCT}\s+{PCT}\s+tie [\d.]+%$", out, re.M)
    assert "points per hand" in out
    assert "sweeps per hand" in out
    assert "escoba" not in out and "chkobba" not in out
    assert "4 players" not in out
    assert "Traceback" not in p.stderr


def test_simulate_percentages_add_up() -> None:
    p = run("simulate", "--hands", "200", "--game", "chkobba", "--players", "4", "--seed", "3")
    assert p.returncode == 0, p.stderr
    rows = re.findall(r"^\s+(\w+)\s+([\d.]+)% \S+\s+([\d.]+)% \S+\s+tie ([\d.]+)%$", p.stdout, re.M)
    assert [r[0] for r in rows] == CATEGORIES["chkobba"]
    for _, a, b, tie in rows:
        assert abs(float(a) + float(b) + float(tie) - 100.0) < 0.2
    # Someone always holds the seven of coins.
    assert float(rows[2][3]) == 0.0


def test_a_tiny_sample_shows_rates_with_intervals_of_some_width() -> None:
    # 3 random hands: every category won by one side in each, or a side always winning, gave
    # `100.0% ± 0.0` (and `66.7% ± 65.3`, past 100%); a rate's interval is now Wilson's.
    p = run("simulate", "--hands", "3", "--game", "scopa", "--players", "2")
    assert p.returncode == 0, p.stderr
    rows = re.findall(rf"^\s+(\w+)\s+({PCT})\s+({PCT})\s+tie", p.stdout, re.M)
    assert [r[0] for r in rows] == CATEGORIES["scopa"], p.stdout
    for _, *cells in rows:
        for cell in cells:
            m = re.fullmatch(r"([\d.]+)% \(([\d.]+)-([\d.]+)\)", cell)
            assert m, cell
            rate, low, high = map(float, m.groups())
            assert 0.0 <= low <= rate <= high <= 100.0 and high - low > 40.0, cell
    assert "% ± 0.0" not in p.stdout
    data = json.loads(run("simulate", "--hands", "3", "--game", "scopa", "--json").stdout)
    for sides in data[0]["summary"]["categories"].values():
        for e in sides.values():
            low, high = e["ci"]
            assert 0.0 <= low <= e["mean"] <= high <= 1.0 and high - low > 0.4, e


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
        # The game and the player count have their own flags (this was a traceback).
        (["simulate", "--hands", "5", "-o", "players=4"], ["--players", "players=4"]),
        (["tournament", "--bots", "random", "greedy", "-o", "game=escoba"], ["--game"]),
        (["rules", "scopa", "--set", "players=4"], ["--players"]),
        # A 4-player deal with --players left at both counts: the hint says which to give.
        (["simulate", "--game", "scopa", "--hands", "5", "--set", "deal=scopone"], ["--players 4"]),
        # An option given twice: which value wins would be the order's.
        (["simulate", "--hands", "5", "--set", "target=5", "-o", "target=7"], ["twice", "target"]),
        (["rules", "scopa", "--set", "target=5", "--set", "target=7"], ["twice", "target"]),
        (["simulate", "--hands", "5", "--bots", "pimc:worlds=10001"], ["worlds", "10000"]),
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
    assert "tournament" in p.stdout
    p = run("simulate", "--help")
    assert p.returncode == 0
    for opt in ("--game", "--players", "--hands", "--seed", "--bots", "--matches", "--duplicate"):
        assert opt in p.stdout
    for opt in ("--threads", "--json", "--csv", "--option", "--progress", "expert"):
        assert opt in p.stdout
    p = run("tournament", "--help")
    assert p.returncode == 0
    assert "--bots" in p.stdout and "--hands" in p.stdout


# ----- simulate: bots, modes, output formats -----


def test_simulate_json() -> None:
    p = run(
        "simulate", "--game", "scopa", "--players", "2", "--bots", "random", "random",
        "--hands", "1000", "--json",
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    runs = json.loads(p.stdout)
    assert isinstance(runs, list) and len(runs) == 1
    r = runs[0]
    assert (r["game"], r["players"], r["bots"]) == ("scopa", 2, ["random", "random"])
    assert r["requested"] == r["completed"] == 1000 and r["interrupted"] is False
    s = r["summary"]
    assert s["hands"] == 1000
    assert list(s["categories"]) == CATEGORIES["scopa"]
    lo, hi = s["points"][0]["ci"]
    assert lo < s["points"][0]["mean"] < hi
    assert set(s["difference"]) == {"mean", "ci", "n"}


def test_simulate_json_every_game_is_a_list() -> None:
    p = run("simulate", "--hands", "50", "--json", "--bots", "greedy", "random")
    assert p.returncode == 0, p.stderr
    runs = json.loads(p.stdout)
    assert [(r["game"], r["players"]) for r in runs] == [(g, n) for g in CATEGORIES for n in (2, 4)]
    assert runs[1]["bots"] == ["greedy", "random", "greedy", "random"]


def test_simulate_csv() -> None:
    p = run(
        "simulate", "--game", "escoba", "--players", "0", "--hands", "300", "--csv",
        "--duplicate", "--bots", "greedy", "random_card",
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    assert list(rows[0]) == [
        "game", "players", "deal", "swapped", "dealer", "points_0", "points_1",
        "sweeps_0", "sweeps_1", *CATEGORIES["escoba"],
    ]  # fmt: skip
    assert len(rows) == 2 * 2 * 300
    assert {r["players"] for r in rows} == {"2", "4"}
    first = [r for r in rows if r["players"] == "2"]
    assert [r["deal"] for r in first[:4]] == ["0", "0", "1", "1"]
    assert [r["swapped"] for r in first[:2]] == ["0", "1"]
    for r in rows:
        assert r["game"] == "escoba"
        won = [int(r[c]) for c in CATEGORIES["escoba"]]
        for side in (0, 1):
            assert int(r[f"points_{side}"]) == won.count(side) + int(r[f"sweeps_{side}"])


def test_simulate_csv_matches() -> None:
    p = run("simulate", "--game", "scopa", "--players", "2", "--matches", "25", "--csv")
    assert p.returncode == 0, p.stderr
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    assert len(rows) == 25
    assert list(rows[0]) == [
        "game", "players", "match", "swapped", "score_0", "score_1", "winner", "hands",
    ]  # fmt: skip
    for r in rows:
        w = int(r["winner"])
        assert int(r[f"score_{w}"]) >= 11


@pytest.mark.parametrize("mode", ["--hands", "--matches"])
def test_simulate_csv_numbers_duplicate_games_as_the_records_do(tmp_path: Path, mode: str) -> None:
    # Both games of a duplicate deal or match share its number, as the records' `Item`; with
    # --matches the column counted the matches played (0, 1, 2, 3, ...), so that a match and
    # its swapped replay had different numbers, unlike a deal and its replay.
    path = tmp_path / "games.txt"
    p = run(
        "simulate", "--game", "scopa", "--players", "2", mode, "3", "--duplicate", "--csv",
        "--bots", "greedy", "random", "--records", str(path),
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    key = "deal" if mode == "--hands" else "match"
    assert [r[key] for r in rows] == ["0", "0", "1", "1", "2", "2"]
    assert [r["swapped"] for r in rows] == ["0", "1"] * 3
    records = list(cf.read_records(path))
    assert len(records) == len(rows)
    for r, record in zip(rows, records, strict=True):
        assert record.headers["Item"] == r[key]
        assert record.headers["Duplicate"] == ("swapped" if r["swapped"] == "1" else "first")
        score = "score" if mode == "--matches" else "points"
        assert record.headers["Result"] == f"{r[f'{score}_0']}/{r[f'{score}_1']}"


def test_simulate_csv_needs_one_game() -> None:
    p = run("simulate", "--hands", "5", "--csv")
    assert p.returncode == 2
    assert "--csv" in p.stderr and "--game" in p.stderr
    assert "Traceback" not in p.stderr


def test_simulate_matches_text() -> None:
    p = run(
        "simulate", "--game", "chkobba", "--players", "4", "--matches", "30",
        "--bots", "greedy", "random",
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert "30 matches" in p.stdout
    assert "matches won" in p.stdout and "hands per match" in p.stdout
    assert "A = greedy, B = random" in p.stdout


def test_simulate_threads_do_not_change_the_results() -> None:
    args = ("simulate", "--game", "scopa", "--players", "2", "--hands", "3000", "--seed", "4")
    one = run(*args, "--threads", "1", "--json")
    two = run(*args, "--threads", "2", "--json")
    assert one.returncode == two.returncode == 0
    a, b = json.loads(one.stdout)[0], json.loads(two.stdout)[0]
    assert (a["threads"], b["threads"]) == (1, 2)
    assert a["summary"] == b["summary"]


def test_simulate_variant_options() -> None:
    p = run(
        "simulate", "--game", "scopa", "--players", "2", "--matches", "20",
        "-o", "target=21", "--option", "last_play_sweep=counts", "--json",
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)[0]
    assert r["options"]["target"] == 21
    assert r["options"]["last_play_sweep"] == "counts"
    bad = run("simulate", "--game", "scopa", "-o", "target=many", "--hands", "5")
    assert bad.returncode == 2 and "target" in bad.stderr and "Traceback" not in bad.stderr
    bad = run("simulate", "--game", "scopa", "-o", "nonsense", "--hands", "5")
    assert bad.returncode == 2 and "NAME=VALUE" in bad.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--bots", "nobot"], ["unknown bot", "nobot"]),
        (["--bots", "random", "random", "random"], ["2 bots", "got: 3"]),
        (["--hands", "5", "--matches", "5"], ["--matches", "--hands"]),
        (["--threads", "-1"], ["--threads", "-1"]),
        (["--json", "--csv"], ["--csv", "--json"]),
    ],
)
def test_simulate_bad_bot_arguments(args: list[str], words: list[str]) -> None:
    p = run("simulate", "--game", "scopa", "--players", "2", *args)
    assert p.returncode == 2
    assert "usage:" in p.stderr and "Traceback" not in p.stderr
    for w in words:
        assert w in p.stderr


def test_simulate_progress_bar() -> None:
    p = run("simulate", "--game", "scopa", "--players", "2", "--hands", "500", "--progress")
    assert p.returncode == 0, p.stderr
    assert "500/500 deals" in p.stderr
    quiet = run("simulate", "--game", "scopa", "--players", "2", "--hands", "500")
    assert quiet.stderr == ""


def test_simulate_ctrl_c_prints_what_finished() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "capturefast", "simulate", "--game", "scopa", "--players", "2",
         "--hands", "1000000000", "--bots", "greedy", "random", "--progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert proc.stderr is not None
    seen = ""
    deadline = time.monotonic() + 60
    while "deals (" not in seen and time.monotonic() < deadline:
        seen += proc.stderr.read(1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    m = re.search(r"interrupted: ([\d,]+) of 1,000,000,000 finished", out)
    assert m, out
    assert "points per hand" in out
    assert "A = greedy, B = random" in out
    assert "Traceback" not in err
    assert "interrupted" in err


@pytest.mark.parametrize("threads", ["1", "2"])
def test_ctrl_c_stops_a_search_bot_in_its_decision(threads: str) -> None:
    # The largest pimc budget with the hand horizon takes a minute a move; Ctrl-C used to wait
    # for the hand to end, then for the move. It now ends the decision in progress, on one
    # thread as on two (the run's one thread is then not the caller's).
    proc = subprocess.Popen(
        [sys.executable, "-m", "capturefast", "simulate", "--game", "scopa", "--hands", "1000",
         "--threads", threads, "--bots", "pimc:worlds=10000,horizon=hand", "greedy"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    time.sleep(2)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    # The caller looks for it every 50 ms, a decision between worlds or every 1024 nodes.
    assert time.monotonic() - sent < 2, "the run went on after Ctrl-C"
    assert "interrupted" in err and "Traceback" not in err
    assert "of 1,000 finished" in out


# ----- tournament -----


def test_tournament_prints_a_ranking() -> None:
    p = run("tournament", "--bots", "random", "random_card", "--hands", "500")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "tournament: scopa, 2 players, 500 duplicate deals per pair" in out
    assert "ranking" in out
    ranks = re.findall(r"^\s+(\d)\. (\w+)\s+([+-][\d.]+) ± [\d.]+$", out, re.M)
    assert [r[0] for r in ranks] == ["1", "2"]
    assert {r[1] for r in ranks} == {"random", "random_card"}
    assert float(ranks[0][2]) == -float(ranks[1][2])


def test_tournament_json_and_csv() -> None:
    args = ("tournament", "--game", "escoba", "--players", "4", "--hands", "100")
    p = run(*args, "--bots", "greedy", "random", "random_card", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["bots"] == ["greedy", "random", "random_card"]
    assert len(d["pairs"]) == 3
    assert d["ranking"][0]["name"] == "greedy"
    p = run(*args, "--bots", "greedy", "random", "--csv")
    assert p.returncode == 0, p.stderr
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    assert len(rows) == 1
    assert (rows[0]["a"], rows[0]["b"], rows[0]["deals"]) == ("greedy", "random", "100")
    assert float(rows[0]["ci_low"]) < float(rows[0]["mean"]) < float(rows[0]["ci_high"])
    # A bot's budget may hold a comma: the CSV quotes it, so the columns stay in place.
    p = run(
        "tournament", "--hands", "4", "--bots", "pimc:worlds=2,horizon=round", "random", "--csv"
    )
    assert p.returncode == 0, p.stderr
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    assert rows[0]["a"] == "pimc:worlds=2,horizon=round" and rows[0]["deals"] == "4"
    # `--set` works as in `capturefast rules`.
    p = run("tournament", "--hands", "4", "--bots", "random", "greedy", "--set", "capture=fifteen")
    assert p.returncode == 0, p.stderr


TOURNAMENT_HANDS = "a tournament plays single hands"
SIMULATE_HANDS = "simulate plays single hands without --matches"


@pytest.mark.parametrize(
    ("args", "value", "hint"),
    [
        (["tournament", "--bots", "random", "greedy", "--set", "target=21"],
         f"{TOURNAMENT_HANDS}: target", "simulate --matches N"),
        (["tournament", "--bots", "random", "greedy", "-o", "all-coins-wins=true"],
         f"{TOURNAMENT_HANDS}: all_coins_wins", "simulate --matches N"),
        (["simulate", "--game", "scopa", "--set", "target=21"],
         f"{SIMULATE_HANDS}: target", "give --matches N"),
        (["simulate", "--hands", "5", "--set", "all_coins_wins=true"],
         f"{SIMULATE_HANDS}: all_coins_wins", "give --matches N"),
    ],
)  # fmt: skip
def test_an_option_of_matches_alone_is_refused_where_single_hands_are_played(
    args: list[str], value: str, hint: str
) -> None:
    # A tournament, and simulate without --matches, play single hands: a target or the
    # all-coins win changes nothing there, and was ignored unseen.
    assert_usage_error(run(*args), f"the option matters only in matches, and {value}", hint)


def test_a_presets_own_target_plays_in_a_tournament() -> None:
    # The preset is a whole variant: its hands are played, its target has no say in them.
    p = run("tournament", "--preset", "cirulla", "--bots", "random", "greedy", "--hands", "2")
    assert p.returncode == 0, p.stderr


def test_tournament_bad_arguments() -> None:
    p = run("tournament", "--bots", "random")
    assert p.returncode == 2 and "at least 2 bots" in p.stderr
    p = run("tournament", "--bots", "random", "nope")
    assert p.returncode == 2 and "nope" in p.stderr
    p = run("tournament", "--hands", "10")
    assert p.returncode == 2 and "--bots" in p.stderr
    for proc in (p,):
        assert "Traceback" not in proc.stderr


# ----- presets and variant files -----


def _runs(p: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    """A `simulate --json` output without its timing, which varies from run to run."""
    assert p.returncode == 0, p.stderr
    runs = json.loads(p.stdout)
    for r in runs:
        del r["seconds"]
    return runs


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_a_variant_file_of_rules_plays_as_its_preset(tmp_path: Path, fmt: str) -> None:
    written = run("rules", "cirulla", "--set", "target=100", "--format", fmt)
    assert written.returncode == 0, written.stderr
    house = tmp_path / f"house.{fmt}"
    house.write_text(written.stdout, encoding="utf-8")
    args = ("--matches", "5", "--bots", "greedy", "random", "--threads", "1", "--json")
    from_file = _runs(run("simulate", "--rules", str(house), *args))
    from_preset = _runs(run("simulate", "--preset", "cirulla", "--set", "target=100", *args))
    assert from_file == from_preset
    [r] = from_file
    assert (r["game"], r["players"]) == ("scopa", 2)
    assert r["options"] == {**cf.variants.rules("cirulla").options, "target": 100}
    # `--set` applies on top of the file, as on top of the preset.
    over = _runs(run("simulate", "--rules", str(house), "--set", "target=21", *args))
    assert over[0]["options"]["target"] == 21
    assert over[0]["options"]["capture"] == "match_or_fifteen"


def test_a_preset_plays_its_own_player_count_unless_told() -> None:
    def runs(*args: str) -> list[tuple[object, object]]:
        out = _runs(run("simulate", "--hands", "5", "--json", *args))
        return [(r["game"], r["players"]) for r in out]

    assert runs("--preset", "scopone") == [("scopa", 4)]
    assert runs("--preset", "scopa") == [("scopa", 2)]
    assert runs("--preset", "scopa", "--players", "4") == [("scopa", 4)]
    assert runs("--preset", "Scopa-D-Assi", "--players", "0") == [("scopa", 2), ("scopa", 4)]
    p = run("tournament", "--preset", "scopone", "--bots", "random", "greedy", "--hands", "5")
    assert p.returncode == 0, p.stderr
    assert "tournament: scopa (scopone), 4 players, 5 duplicate deals per pair" in p.stdout
    p = run("solve", "--preset", "scopa_a_15", *OPEN, "--json")
    assert p.returncode == 0, p.stderr


def test_the_headline_names_rules_that_are_not_the_games_defaults() -> None:
    def headline(*args: str) -> str:
        p = run("simulate", "--hands", "20", *args)
        assert p.returncode == 0, p.stderr
        return p.stdout.splitlines()[2]

    assert headline("--game", "chkobba", "--players", "2").startswith("chkobba, 2 players, 20")
    assert headline("--game", "chkobba", "--players", "2", "-o", "bermila=cascade").startswith(
        "chkobba (bermila=cascade), 2 players, 20 deals"
    )
    assert headline("--preset", "cirulla").startswith("scopa (cirulla), 2 players, 20 deals")
    assert headline("--preset", "cirulla", "--set", "grande=3").startswith(
        "scopa (cirulla, grande=3), 2 players, 20 deals"
    )
    # Rules equal to a preset are named by it however they were given.
    assert headline("--game", "scopa", "--players", "2", "-o", "capture=fifteen").startswith(
        "scopa (scopa_a_15), 2 players"
    )
    p = run(
        "tournament", "--game", "chkobba", "-o", "bermila=cascade", "-o", "cut_card=false",
        "--bots", "random", "greedy", "--hands", "5",
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("tournament: chkobba (bermila=cascade, cut_card=false), 2 players")


def test_bad_variant_files_are_usage_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "scopa"\ntarget = 0\n', encoding="utf-8")
    assert_usage_error(run("simulate", "--rules", str(bad), "--hands", "5"), "got: 0", None)
    broken = tmp_path / "broken.toml"
    broken.write_text("game = \n", encoding="utf-8")
    p = run("tournament", "--rules", str(broken), "--bots", "random", "greedy")
    assert_usage_error(p, ")", None)
    assert f"argument --rules: {broken}: cannot read the variant as TOML" in p.stderr
    typo = tmp_path / "typo.json"
    typo.write_text('{"game": "scopa", "targte": 21}', encoding="utf-8")
    p = run("simulate", "--rules", str(typo), "--hands", "5")
    assert_usage_error(p, ": targte", "did you mean target?")
    four = tmp_path / "four.toml"
    four.write_text(run("rules", "scopone", "--format", "toml").stdout, encoding="utf-8")
    p = run("simulate", "--rules", str(four), "--players", "2", "--hands", "5")
    assert_usage_error(p, "got: 2", None)
    assert f"the variant file {four} is for 4 players" in p.stderr
    p = run("solve", "--rules", str(tmp_path), *OPEN)
    assert_usage_error(p, f"got: {tmp_path.name}", None)
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    assert_usage_error(run("solve", "--rules", str(folder), *OPEN), f": {folder}", None)


def _help_examples() -> list[str]:
    """The example commands of the command line's help (the docstrings `--help` prints), each
    joined across its backslash-continued lines."""
    import capturefast.cli
    import capturefast.cli_solve

    examples = []
    for module in (capturefast.cli, capturefast.cli_solve):
        text = (module.__doc__ or "").replace("\\\n", " ")
        examples += [
            line.strip() for line in text.splitlines() if line.strip().startswith("capturefast ")
        ]
    return examples


def test_help_examples_cover_every_command() -> None:
    commands = {e.split()[1] for e in _help_examples()}
    assert commands == {"simulate", "tournament", "solve", "analyze", "rules"}


@pytest.mark.parametrize("example", _help_examples())
def test_help_examples_run(example: str) -> None:
    """Every example of the help runs as written (smaller counts, the same arguments)."""
    argv = shlex.split(example)[1:]
    for i, word in enumerate(argv[:-1]):
        if word in ("--hands", "--matches"):
            argv[i + 1] = str(min(int(argv[i + 1]), 200))
    done = subprocess.run(
        [sys.executable, "-m", "capturefast", *argv], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()


# ----- every bad input: exit 2, the usage, one error line naming the value, no traceback -----

# A two-player open position that `solve` accepts, to spoil one argument at a time.
OPEN = ["--hand", "0=7D", "--hand", "1=3C", "--to-move", "0", "--rest-to", "1"]
OPEN += ["--last-capturer", "1"]
# What seat 0 sees in the last play of a hand (every other card in side 1's pile), for `analyze`.
SEEN = ["--hand", "0=7D", "--to-move", "0", "--last-capturer", "1", "--pile"]
SEEN += ["1=" + "+".join(c for c in map(str, map(cf.Card, range(40))) if c not in ("7D", "3C"))]


def assert_usage_error(p: subprocess.CompletedProcess[str], value: str, hint: str | None) -> None:
    """Exit 2; stderr is the usage, then one `error:` line ending with the bad value, then at
    most a `hint:` line; nothing on stdout."""
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr, p.stderr
    assert p.stdout == ""
    lines = p.stderr.rstrip("\n").splitlines()
    assert all(line.isprintable() for line in lines), p.stderr
    errors = [i for i, line in enumerate(lines) if ": error: " in line]
    assert len(errors) == 1, p.stderr
    at = errors[0]
    assert lines[0].startswith("usage: capturefast")
    assert all(line.startswith(("usage:", " ")) for line in lines[:at]), p.stderr
    assert re.match(r"capturefast( \w+)?: error: [a-z]", lines[at]), lines[at]
    assert lines[at].endswith(value), lines[at]
    assert not lines[at].endswith("."), lines[at]
    rest = lines[at + 1 :]
    if hint is None:
        assert rest == [], p.stderr
    else:
        assert len(rest) == 1 and rest[0].startswith("hint: ") and hint in rest[0], p.stderr


BAD_INPUTS = [
    # solve and analyze: the seat, the cards, the numbers (these were tracebacks or
    # `int()`'s own words, or were silently ignored: a second --hand 0, --hand 5, --pile 2)
    (["solve", "--hand", "7D 3C KS", "--to-move", "0"], "got: 7D 3C KS", '0="7D 3C KS"'),
    (["analyze", "--hand", "7D 3C KS", "--to-move", "0"], "got: 7D 3C KS", '0="7D 3C KS"'),
    (["solve", *OPEN, "--set", "targte=21"], ": targte", "did you mean target?"),
    (["analyze", *SEEN, "--set", "targte=21"], ": targte", "did you mean target?"),
    (["solve", *OPEN, "--set", "target=0"], "got: 0", None),
    (["solve", "--hand", "x=7D", "--to-move", "0"], "got: x=7D", None),
    (["solve", "--hand", "0=7D", "--hand", "0=3C", "--to-move", "0"], "seat: 0", "--hand 0="),
    (["solve", "--hand", "5=7D", "--to-move", "0"], "got: 5", None),
    (["solve", "--hand", "-1=7D", "--to-move", "0"], ": -1=7D", "--hand=-1=7D"),
    (["solve", "--hand", "0=7D ZZ", "--to-move", "0"], "unknown card: ZZ", "a rank"),
    (["solve", "--hand", "0=7D 7D", "--to-move", "0"], "more than once: 7D", None),
    (["solve", *OPEN, "--table", "7d"], "more than once: 7D", None),
    (["solve", *OPEN, "--stock", "AC AD"], "got: 2", None),
    (["solve", "--hand", "0=7D 6D 5D 4D", "--hand", "1=3C", *OPEN[4:]], "got: 4", None),
    (["solve", *OPEN, "--pile", "2=KS"], "got: 2", None),
    (["solve", *OPEN, "--pile", "KS"], "got: KS", '0="KS"'),
    (["solve", *OPEN[:-2]], "last_capturer is None", None),
    (["solve", *OPEN, "--to-move", "3"], "got: 3", None),
    (["solve", *OPEN, "--to-move", "x"], "got: x", None),
    (["solve", *OPEN, "--to-move", "99999999999999999999"], "got: 99999999999999999999", None),
    (["solve", *OPEN, "--dealer", "3"], "got: 3", None),
    (["solve", *OPEN, "--rest-to", "2"], "got: 2", None),
    (["solve", *OPEN, "--sweeps", "x,y"], "got: x,y", None),
    (["solve", *OPEN, "--sweeps", "1"], "got: 1", None),
    (["solve", *OPEN, "--sweeps", "-1,0"], ": -1,0", "--sweeps=-1,0"),
    (["solve", *OPEN, "--scores", "30,40"], "scores: [30, 40]", None),
    (["solve", *OPEN, "--game", "poker"], "got: poker", None),
    (["solve", *OPEN, "--players", "4"], "got: 0", None),
    # `0=7D` is read as the optional position line, so only the misspelt flag is left over.
    (["solve", *OPEN, "--hnad", "0=7D"], "--hnad", "did you mean --hand?"),
    (["solve", *OPEN, "--bogus"], "unrecognized arguments: --bogus", None),
    (["solve", "--hand", "0=7D"], "required: --to-move", None),
    (["analyze", "--hand", "0=7D 3C KS", "--to-move", "1"], "seat to move: 1", '--hand 1="'),
    (["analyze", "--hand", "0=7D 3C KS", "--to-move", "0"], "not named: 37", "--pile"),
    (["analyze", *SEEN, "--stock-size", "-3"], "got: -3", None),
    (["analyze", *SEEN, "--stock-size", "100"], "got: 100", None),
    (["analyze", *SEEN, "--worlds", "0"], "got: 0", None),
    (["analyze", *SEEN, "--worlds", "x"], "got: x", None),
    (["analyze", *SEEN, "--seed", "-1"], "got: -1", None),
    (["analyze", *SEEN, "--horizon", "year"], "got: year", None),
    # simulate
    (["simulate", "--hnads", "5"], "--hnads 5", "did you mean --hands?"),
    (["simulate", "--hands", "-5"], "got: -5", None),
    (["simulate", "--hands", "1e3"], "got: 1e3", None),
    (["simulate", "--matches", str(10**11)], f"got: {10**11}", None),
    (["simulate", "--seed", str(2**64)], f"got: {2**64}", None),
    (["simulate", "--threads", "2000"], "got: 2000", None),
    (["simulate", "--players", "3"], "got: 3", None),
    (["simulate", "--game", "escopa"], "got: escopa", "did you mean scopa?"),
    (["simulate", "--hands", "5", "--bots", "grredy"], ": grredy", "did you mean greedy?"),
    (["simulate", "--hands", "5", "--bots", "pimc:wrlds=5"], ": wrlds", "did you mean worlds?"),
    (["tournament", "--bots", "greedy", "ismcts:iteratons=9"], ": iteratons", "iterations?"),
    (["simulate", "--hands", "5", "--bots", "pimc:worlds=x"], "got: x", None),
    (["simulate", "--hands", "5", "--set", "targte=21"], ": targte", "did you mean target?"),
    (["simulate", "--hands", "5", "--set", "deck=xx"], "got: xx", None),
    (["simulate", "--hands", "5", "--game", "escoba", "--set", "bermila=true"], ": escoba", None),
    # every game's options are checked before the first run prints (here scopa, then chkobba)
    (["simulate", "--hands", "5", "--set", "bermila=cascade"], ": scopa", None),
    # tournament
    (["tournament", "--bots", "random", "nope"], ": nope", None),
    (["tournament", "--bots", "random", "greedy", "--set", "targte=21"], ": targte", "target"),
    (["tournament", "--bots", "random", "greedy", "--hands", "0"], "got: 0", None),
    (["tournament", "--bots", "random", "greedy", "--game", "all"], "got: all", None),
    (["tournament", "--bots", "random", "greedy", "--players", "0"], "got: 0", None),
    (["tournament", "--bots", "random", "greedy", "--treads", "1"], "--treads 1", "--threads"),
    # --preset and --rules, for every subcommand that takes --game
    (["simulate", "--preset", "cirula"], "got: cirula", "did you mean cirulla?"),
    (["tournament", "--bots", "random", "greedy", "--preset", "xx"], "got: xx", None),
    (["solve", *OPEN, "--preset", "scopon"], "got: scopon", "did you mean scopone?"),
    (["analyze", *SEEN, "--preset", "cirula"], "got: cirula", "did you mean cirulla?"),
    (["simulate", "--preset", "cirulla", "--game", "scopa"], "with argument --preset", None),
    (
        ["tournament", "--bots", "random", "greedy", "--rules", "a.toml", "--game", "escoba"],
        "with argument --rules",
        None,
    ),
    (["simulate", "--preset", "scopa", "--rules", "a.toml"], "with argument --preset", None),
    (["simulate", "--preset", "scopone", "--players", "2"], "4 players, got: 2", None),
    (["simulate", "--preset", "cirulla", "--set", "targte=1"], ": targte", "did you mean target?"),
    (["simulate", "--rules", "/nonexistent/house.toml"], ": /nonexistent/house.toml", None),
    (["simulate", "--rules", "house.txt"], "got: house.txt", None),
    # rules
    (["rules", "nonsense"], ": nonsense", None),
    (["rules", "cirula"], ": cirula", "did you mean cirulla?"),
    (["rules", "scopa", "--set", "game=escoba"], "got: game=escoba", None),
    (["rules", "scopa", "--set", "deal=bogus"], "got: bogus", None),
    (["rules", "scopa", "--set", "target=x"], 'got a string: "x"', None),
    (["rules", "scopa", "--players", "x"], "got: x", None),
    (["rules", "scopa", "extra"], "unrecognized arguments: extra", None),
    (["rules", "--list", "scopa"], "got: scopa", None),
    # the command itself
    (["play"], "got: play", "did you mean replay?"),
    (["fly"], "got: fly", None),
    (["simulat"], "got: simulat", "did you mean simulate?"),
    # Control characters in a bad value are written as \xNN.
    (["solve", "--hand", "7D\x01 3C"], "got: 7D\\x01 3C", '0="7D\\x01 3C"'),
    (["simulate", "--hands", "5\nx"], "got: 5\\x0ax", None),
    (["rules", "sco\npa"], "sco\\x0apa", None),
    (["solve", *OPEN, "--table", "7\x1bD"], "unknown card: 7\\x1bD", "a card is a rank"),
    (["--bogus"], "required: command", None),
]


def _case_id(args: list[str]) -> str:
    return " ".join(args).replace(" ".join(OPEN), "OPEN").replace(" ".join(SEEN), "SEEN")


@pytest.mark.parametrize(
    ("args", "value", "hint"), BAD_INPUTS, ids=[_case_id(a) for a, _, _ in BAD_INPUTS]
)
def test_every_bad_input_is_one_error_line(args: list[str], value: str, hint: str | None) -> None:
    assert_usage_error(run(*args), value, hint)


def test_installed_command_reports_a_missing_seat_in_one_line() -> None:
    """The console script, as a new user runs it (`capturefast solve --hand "7D 3C KS"`)."""
    exe = shutil.which("capturefast", path=os.path.dirname(sys.executable))
    if exe is None:
        pytest.skip("no `capturefast` script beside this interpreter")
    p = subprocess.run(
        [exe, "solve", "--hand", "7D 3C KS", "--to-move", "0"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert_usage_error(p, "got: 7D 3C KS", '0="7D 3C KS"')


def test_spellings_of_one_card_are_one_card() -> None:
    # `7d` and `10D` name 7D and KD; `--rest-to` used to compare the spellings and place KD
    # twice.
    p = run("solve", *OPEN, "--table", "10D", "--json")
    assert p.returncode == 0, p.stderr
    assert {m["move"] for m in json.loads(p.stdout)["moves"]} == {"7D"}


def test_in_process_errors_exit_2() -> None:
    with pytest.raises(SystemExit) as info:
        main(["solve", "--hand", "7D 3C KS", "--to-move", "0"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["solve", *OPEN, "--set", "targte=21"])
    assert info.value.code == 2


def test_version() -> None:
    p = run("--version")
    assert p.returncode == 0
    assert p.stdout.strip() == f"capturefast {cf.__version__}"
