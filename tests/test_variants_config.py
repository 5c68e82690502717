"""Named variants (presets), variant files and `capturefast rules`: docs/variants.md.

The expected presets and option values below are copied by hand from docs/variants.md, not read
from `capturefast.variants`.
"""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path
from typing import Any

import capturefast as cf
import pytest
from capturefast import Rules, VariantError, variants
from capturefast.errors import CaptureFastError
from cli_process import run
from variant_tables import ALL_GAMES, OPTIONS, PRESETS

# --------------------------------------------------------------------------- presets


def test_preset_names_are_the_documented_table() -> None:
    assert variants.preset_names() == list(PRESETS)
    for name, (game, players, overrides) in PRESETS.items():
        p = variants.PRESETS[name]
        assert p.game == game
        expected = dict(overrides)
        if players != 2:
            expected["players"] = players
        assert dict(p.overrides) == expected
        assert p.title


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_builds_with_game_players_and_options(name: str) -> None:
    game, players, overrides = PRESETS[name]
    r = variants.rules(name)
    assert isinstance(r, Rules)
    assert (r.game, r.players) == (game, players)
    for k, v in overrides.items():
        assert r.options[k] == v, k
    # Every other option is the game's default.
    base = Rules(game, players=players).options
    for k, v in r.options.items():
        if k not in overrides:
            assert base[k] == v, k
    assert r == Rules(game, players=players, **overrides)


def test_preset_names_accept_dashes() -> None:
    assert variants.rules("Scopa-A-15") == variants.rules("scopa_a_15")


def test_keyword_overrides_win_over_the_preset() -> None:
    r = variants.rules("cirulla", target=100, grande=0)
    assert r.target == 100
    assert r.options["grande"] == 0
    assert r.options["napola"] is True
    assert r.options["capture"] == "match_or_fifteen"
    r4 = variants.rules("cirulla", players=4)
    assert r4.players == 4 and r4.target == 51
    assert variants.rules("escoba", target=31).target == 31
    assert variants.rules("chkobba", players=4).players == 4


def test_unknown_preset_names_it_and_lists_the_presets() -> None:
    with pytest.raises(VariantError) as e:
        variants.rules("briscola")
    assert isinstance(e.value, ValueError)
    msg = str(e.value)
    assert msg.endswith(": briscola")
    for name in PRESETS:
        assert name in msg


def test_a_preset_fixes_its_game() -> None:
    with pytest.raises(VariantError, match="game"):
        variants.rules("escoba", game="scopa")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game", "options", "named"),
    [
        ("scopa", {"no_such_option": 1}, "no_such_option"),
        ("scopa", {"target": 0}, "target"),
        ("scopa", {"target": 10001}, "target"),
        ("scopa", {"target": "eleven"}, "target"),
        ("scopa", {"last_play_sweep": "sometimes"}, "last_play_sweep"),
        ("scopa", {"cut_card": False}, "cut_card"),  # chkobba only
        ("escoba", {"chkobba_face_values": "italian"}, "chkobba_face_values"),
    ],
)
def test_bad_options_raise_variant_error_naming_the_option(
    game: str, options: dict[str, Any], named: str
) -> None:
    with pytest.raises(VariantError) as e:
        Rules(game, **options)
    assert isinstance(e.value, ValueError) and isinstance(e.value, CaptureFastError)
    assert named in str(e.value)
    # The same through a preset.
    with pytest.raises(VariantError) as e2:
        variants.rules(game, **options)
    assert named in str(e2.value)


@pytest.mark.parametrize(
    ("preset", "options", "named"),
    [
        # docs/variants.md, "applies to" column.
        ("scopa", {"renuncio": True}, "renuncio"),  # needs compulsory_capture = false
        ("scopa", {"ace_sweep": True}, "ace_sweep"),  # needs ace_takes_all
        ("scopa", {"ace_takes_ace_only": False}, "ace_takes_ace_only"),
        ("scopa", {"declaration_low": 5}, "declaration_low"),  # needs declarations
        ("scopa", {"napola_cap": 4}, "napola_cap"),  # needs napola
        ("scopa", {"napola": True, "napola_cap": 2}, "napola_cap"),  # 0 or 3..10
        ("scopone", {"declarations": True}, "declarations"),  # needs deal = standard
        ("scopa", {"deal": "scopone"}, "deal"),  # 2 players
        ("scopone_scientifico", {"players": 2}, "deal"),
        ("scopa", {"bermila": "cascade"}, "bermila"),  # chkobba only
        ("chkobba", {"primiera_mode": "most_sevens"}, "primiera_mode"),  # scopa, escoba only
        ("chkobba", {"deck": "numerals"}, "deck"),
        ("scopa", {"grande": 101}, "grande"),
    ],
)
def test_contradictions_are_refused_naming_the_option(
    preset: str, options: dict[str, Any], named: str
) -> None:
    players = options.pop("players", None)
    with pytest.raises(VariantError) as e:
        variants.rules(preset, players=players, **options)
    assert isinstance(e.value, ValueError)
    assert named in str(e.value)


# --------------------------------------------------------------------------- round trips


def round_trips(r: Rules, tmp_path: Path) -> None:
    d = variants.to_dict(r)
    assert d == r.to_dict()
    assert "preset" not in d
    json.dumps(d)
    assert variants.from_dict(d) == r
    assert variants.from_dict(d).to_dict() == d
    for fmt in ("toml", "json"):
        text = variants.dumps(r, fmt)
        back = variants.loads(text, fmt)
        assert back == r
        assert back.to_dict() == d
        assert variants.dumps(back, fmt) == text
    # The TOML is a flat table that tomllib reads back as the same dict.
    assert tomllib.loads(variants.dumps(r, "toml")) == d
    assert json.loads(variants.dumps(r, "json")) == d
    for ext in ("toml", "json"):
        path = tmp_path / f"variant.{ext}"
        saved = variants.save(r, path)
        assert Path(saved) == path
        assert variants.load(path) == r
        assert variants.load(str(path)).to_dict() == d


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_round_trips(name: str, tmp_path: Path) -> None:
    round_trips(variants.rules(name), tmp_path)


@pytest.mark.parametrize("game", ALL_GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_random_option_combinations_round_trip(game: str, players: int, tmp_path: Path) -> None:
    rng = random.Random(f"{game}-{players}")
    applicable = {k: vals for k, (vals, games) in OPTIONS.items() if game in games}
    built = 0
    for _ in range(150):
        chosen = {k: rng.choice(vals) for k, vals in applicable.items() if rng.random() < 0.4}
        try:
            r = Rules(game, players=players, **chosen)
        except VariantError as e:
            if "unknown option" in str(e):
                continue  # the core does not know every option yet
            # A refused combination names one of the chosen options (or the players).
            assert any(k in str(e) for k in [*chosen, "players"]), str(e)
            continue
        for k, v in chosen.items():
            assert r.options[k] == v
        round_trips(r, tmp_path)
        built += 1
    assert built >= 10


def test_a_file_may_name_a_preset_and_override_it(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "cirulla"\ntarget = 100\nnapola = false\n')
    r = variants.load(path)
    assert r == variants.rules("cirulla", target=100, napola=False)
    assert variants.loads('{"preset": "cirulla", "players": 4}', "json") == variants.rules(
        "cirulla", players=4
    )
    assert variants.from_dict({"preset": "escoba", "game": "escoba"}) == Rules.escoba()
    with pytest.raises(VariantError, match="chkobba"):
        variants.from_dict({"preset": "escoba", "game": "chkobba"})
    with pytest.raises(VariantError, match="nope"):
        variants.from_dict({"preset": "nope"})


@pytest.mark.parametrize(
    ("text", "fmt", "named"),
    [
        ("game = 'scopa'\n[extra]\nx = 1\n", "toml", "extra"),
        ("game = 'scopa'\ntarget = 11.5\n", "toml", "target"),
        ("game = 'scopa'\ntarget = [11]\n", "toml", "target"),
        ("players = 2\n", "toml", "game"),
        ("game = 'scopa'\nplayers = '2'\n", "toml", "players"),
        ("game = 'scopa'\nplayers = 3\n", "toml", "3"),
        ("game = 'scopa'\ntarget = 0\n", "toml", "target"),
        ("game = 'poker'\n", "toml", "poker"),
        ("game = \n", "toml", "TOML"),
        ('{"game": "scopa", "target": null}', "json", "target"),
        ("[1, 2]", "json", "list"),
        ("{", "json", "JSON"),
        ("game = 'scopa'\n", "yaml", "yaml"),
        # A key given twice would be settled by its order: refused in JSON as TOML refuses it.
        ('{"game": "escoba", "target": 31, "target": 41}', "json", "given twice: 'target'"),
        ("game = 'escoba'\ntarget = 31\ntarget = 41\n", "toml", "TOML"),
        # What Python cannot read is said in the engine's words, as a VariantError.
        ('{"game": "scopa", "target": 1' + "0" * 5000 + "}", "json", "5001 digits, more than 4300"),
        ("target = 1" + "0" * 5000 + "\n", "toml", "more digits than 4300"),
        ("[" * 100_000 + "]" * 100_000, "json", "nested too deep"),
        ("a = " + "[" * 100_000 + "]" * 100_000, "toml", "nested too deep"),
    ],
)
def test_bad_variant_files_are_refused(text: str, fmt: str, named: str) -> None:
    with pytest.raises(VariantError) as e:
        variants.loads(text, fmt)
    assert isinstance(e.value, ValueError)
    assert named in str(e.value)


def test_option_names_may_be_written_with_dashes_as_on_the_command_line() -> None:
    assert variants.loads("game = 'chkobba'\ncut-card = false\n").options["cut_card"] is False
    with pytest.raises(VariantError, match="given twice: cut_card"):
        variants.loads("game = 'chkobba'\ncut-card = false\ncut_card = true\n")


def test_a_variant_is_read_from_text_only() -> None:
    with pytest.raises(TypeError, match="the variant must be given as a str, got: int"):
        variants.loads(5)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("d", "named"),
    [
        ({"game": None}, "game is a string (scopa, escoba or chkobba), got: NoneType"),
        ({"game": "scopa", "players": "2"}, "players must be 2, or 4 in partnerships, got: '2'"),
        ({"game": "scopa", "players": None}, "got: None"),
    ],
)
def test_rules_from_dict_refuses_values_of_the_wrong_type(d: dict[str, object], named: str) -> None:
    # Data, not arguments: a VariantError, as errors.py says of an option value in a dict.
    with pytest.raises(VariantError) as e:
        Rules.from_dict(d)
    assert named in str(e.value)


def test_file_format_comes_from_the_extension(tmp_path: Path) -> None:
    r = Rules.escoba(target=31)
    with pytest.raises(VariantError, match=r"variant\.yaml"):
        variants.save(r, tmp_path / "variant.yaml")
    (tmp_path / "variant.txt").write_text('game = "scopa"\n')
    with pytest.raises(VariantError, match=r"variant\.txt"):
        variants.load(tmp_path / "variant.txt")
    variants.save(r, tmp_path / "v.TOML")
    assert variants.load(tmp_path / "v.TOML") == r


def test_toml_is_a_flat_table_of_options() -> None:
    text = variants.dumps(Rules.chkobba(target=31, cut_card=False))
    lines = text.splitlines()
    assert lines[:3] == ['game = "chkobba"', "players = 2", "target = 31"]
    assert "cut_card = false" in lines
    assert all(" = " in line for line in lines)


# --------------------------------------------------------------------------- describe


@pytest.mark.parametrize("name", list(PRESETS))
def test_describe_names_the_categories_and_the_target(name: str) -> None:
    r = variants.rules(name)
    text = variants.describe(r)
    for cat in r.categories:
        assert cat in text
    assert f"{r.target} points" in text
    assert text.splitlines()[0] == f"{r.game.capitalize()} for {r.players} players."
    for section in ("Players:", "Deal:", "Capturing:", "Sweeps:", "Scoring:", "Match:"):
        assert section in text
    # No unknown options left over.
    assert "Option `" not in text


@pytest.mark.parametrize(
    ("preset", "overrides", "phrase"),
    [
        ("scopa", {}, "If the opening table shows 3 or more kings"),
        ("scopa", {}, "There are no bonuses."),
        ("scopa", {"players": 4}, "two partnerships"),
        ("scopone", {}, "9 cards"),
        ("scopone_scientifico", {}, "10 cards"),
        ("scopa_a_15", {}, "adds up to 15"),
        ("scopa_d_assi", {}, "An ace played onto a non-empty table takes every card on it."),
        ("cirulla", {}, "2 or more aces"),
        ("cirulla", {}, "(napola)"),
        ("cirulla", {}, "(grande) scores 5."),
        ("cirulla", {}, "all ten coins wins the match"),
        ("cirulla", {}, "Three of a kind scores 10."),
        ("cirulla", {"target": 100}, "played to 100 points"),
        ("escoba", {}, "totals 15, the dealer takes it as one escoba"),
        ("escoba", {}, "scores an escoba"),
        ("chkobba", {}, "Q 8, J 9, K 10"),
        ("chkobba", {}, "more sevens; if tied, more sixes"),
        ("chkobba", {"cut_card": False}, "There is no cut card."),
        ("scopa", {"last_play_sweep": "counts"}, "even on the last play"),
        # The equal card first, also beside the fifteens (docs/variants.md "Capturing").
        ("cirulla", {}, "(if there is none, a set adding up to its value)"),
        # The cut card joins a hand of the deal, and the table only where there is one.
        ("chkobba", {"deal": "scopone", "players": 4}, "one of their 9 cards or puts it"),
        ("chkobba", {"deal": "scientifico", "players": 4}, "one of their 10 cards."),
        ("escoba", {"primiera_mode": "most_sevens"}, "setenta (the most sevens)"),
    ],
)
def test_describe_says_what_each_option_does(
    preset: str, overrides: dict[str, Any], phrase: str
) -> None:
    players = overrides.pop("players", None)
    assert phrase in variants.describe(variants.rules(preset, players=players, **overrides))


def test_describe_hides_options_that_do_not_apply() -> None:
    text = variants.describe(Rules.scopa())
    assert "declaration" not in text.lower()
    assert "ace taking the whole table" not in text
    assert "bermila" not in text
    assert "primiera" not in variants.describe(Rules.chkobba())
    # The sevens cascade reads no primiera values: neither their table nor a missing suit.
    text = variants.describe(Rules.scopa(primiera_mode="most_sevens"))
    assert "7 is worth 21" not in text and "missing a suit" not in text
    assert "7 is worth 21" in variants.describe(Rules.scopa(primiera_mode="three_sevens"))


def test_variant_files_are_utf8_with_or_without_a_bom(tmp_path: Path) -> None:
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + variants.dumps(Rules.escoba(target=30)).encode())
    assert variants.load(bom) == Rules.escoba(target=30)
    latin1 = tmp_path / "latin1.toml"
    latin1.write_bytes('game = "scopa"\n# caf\xe9\n'.encode("latin-1"))
    with pytest.raises(cf.VariantError, match="UTF-8") as e:
        variants.load(latin1)
    assert "latin1.toml" in str(e.value)


# --------------------------------------------------------------------------- CLI


def test_cli_rules_list() -> None:
    p = run("rules", "--list")
    assert p.returncode == 0, p.stderr
    names = [line.split()[0] for line in p.stdout.splitlines()]
    assert names == list(PRESETS)
    listed = run("rules", "--list", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    # The same presets and titles as the text list.
    titles = [line.split(None, 1)[1] for line in p.stdout.splitlines()]
    assert json.loads(listed.stdout) == [
        {"name": n, "title": t} for n, t in zip(PRESETS, titles, strict=True)
    ]
    # What the list would ignore is refused, naming it.
    for extra, named in ((["--set", "target=3"], "--set"), (["--format", "toml"], "toml")):
        refused = run("rules", "--list", *extra)
        assert refused.returncode == 2 and named in refused.stderr, refused.stderr


def test_cli_rules_text() -> None:
    p = run("rules", "escoba")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("preset escoba\n")
    assert "Escoba for 2 players." in p.stdout
    for cat in ("cards", "coins", "velo", "setenta"):
        assert cat in p.stdout
    assert "21 points" in p.stdout


def test_cli_rules_json_and_toml_are_variant_files() -> None:
    expected = variants.rules("cirulla", target=100, players=4, re_bello=True)
    args = ("rules", "cirulla", "--players", "4", "--set", "target=100", "--set", "re_bello=true")
    pj = run(*args, "--format", "json")
    assert pj.returncode == 0, pj.stderr
    assert json.loads(pj.stdout) == expected.to_dict()
    assert variants.loads(pj.stdout, "json") == expected
    pt = run(*args, "--format", "toml")
    assert pt.returncode == 0, pt.stderr
    assert tomllib.loads(pt.stdout) == expected.to_dict()
    text = run(*args)
    assert text.returncode == 0, text.stderr
    assert "preset cirulla, players=4, target=100, re_bello=true" in text.stdout
    assert "played to 100 points" in text.stdout


def test_cli_rules_set_parses_int_bool_and_str() -> None:
    p = run("rules", "chkobba", "--set", "target=31", "-o", "cut_card=false", "--format", "json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["target"] == 31 and d["cut_card"] is False
    assert d["chkobba_face_values"] == "tunisian"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("rules", "briscola"), ["briscola", "scopone"]),
        (("rules", "scopa", "--set", "target=0"), ["target"]),
        (("rules", "scopa", "--set", "cut_card=true"), ["cut_card"]),
        (("rules", "scopa", "--set", "oops"), ["NAME=VALUE"]),
        (("rules",), ["--list"]),
        (("rules", "scopa", "--format", "yaml"), ["yaml"]),
        (("rules", "scopa", "--players", "3"), ["3"]),
    ],
)
def test_cli_rules_errors_exit_2_with_a_message(args: tuple[str, ...], words: list[str]) -> None:
    p = run(*args)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    assert "usage:" in p.stderr
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("capturefast rules: error:")
    for w in words:
        assert w in last


def test_public_names() -> None:
    assert cf.variants is variants
    for name in ("variants", "MatchReport", "ReportError", "play_match_report"):
        assert name in cf.__all__
