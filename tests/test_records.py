"""Game records (`capturefast.records`, docs/records.md): text round trips over random play of
every preset, the records a simulation writes checked against the games its bots play, the
replay's refusals naming the line at fault, and the `replay` and `simulate --records` commands.
"""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path

import capturefast as cf
import numpy as np
import pytest
from capturefast import records as rec_mod
from capturefast._core import presets, sim_seeds
from cli_process import run as cli
from hypothesis import given, settings
from hypothesis import strategies as st

PRESETS = [p[0] for p in presets()]


def random_match(name: str, seed: int, max_hands: int = 3) -> cf.GameRecord:
    """A record of up to ``max_hands`` hands of preset ``name`` played by random moves, with
    values and comments on some of them."""
    rules = cf.variants.rules(name)
    rng = random.Random(seed)
    record = cf.GameRecord.begin(
        cf.State.new(rules, seed=seed),
        seats=[f"p{i}" for i in range(rules.players)],
        seed=seed,
        event="test",
        Round=str(seed),
    )
    for k in range(max_hands):
        if k:
            record.next_hand()
        while not record.position.hand_over:
            mv = rng.choice(record.position.legal_moves())
            roll = rng.random()
            value = rng.randint(-9, 9) if roll < 0.2 else None
            comment = f"note {rng.randint(0, 99)} = x" if roll > 0.9 else None
            record.play(mv, value=value, comment=comment)
        if record.position.match_over:
            break
    return record


@pytest.mark.parametrize("name", PRESETS)
def test_a_record_round_trips_through_its_text(name: str) -> None:
    for seed in range(3):
        record = random_match(name, seed)
        text = record.to_text()
        back = cf.GameRecord.from_text(text)
        # The text gains a Result header, from the last position.
        assert back.hands == record.hands
        assert back.headers == {**record.headers, "Result": rec_mod.result_text(record.position)}
        assert back.to_text() == text
        assert back.replay() == record.position
        positions = list(back.positions())
        moves = sum(len(h.moves) for h in record.hands)
        assert len(positions) == moves + len(record.hands)
        assert positions[-1] == record.position
        assert back.headers["Result"] == "/".join(map(str, record.position.scores))


def test_an_unfinished_game_round_trips_with_result_star() -> None:
    state = cf.State.new(cf.Rules.escoba(players=4), seed=5)
    record = cf.GameRecord.begin(state)
    for _ in range(7):
        record.play(record.position.legal_moves()[-1])
    text = record.to_text()
    assert '[Result "*"]' in text
    back = cf.GameRecord.from_text(text)
    assert back.replay() == record.position
    assert back.position.to_move is not None


def test_many_games_in_one_file_are_read_one_at_a_time(tmp_path: Path) -> None:
    games = [random_match("scopa", s, max_hands=1) for s in range(4)]
    path = tmp_path / "games.txt"
    assert cf.write_records(path, games) == 4
    games = [cf.GameRecord.from_text(g.to_text()) for g in games]  # with their Result headers
    assert list(cf.read_records(path)) == games
    # Read lazily: the games before a broken one are yielded before its error.
    with open(path, "a", encoding="utf-8") as f:
        f.write('\n[Rules "scopa"]\n\ndeal scopa players=2 nonsense\n')
    it = cf.read_records(path)
    assert [next(it) for _ in range(4)] == games
    with pytest.raises(cf.RecordError, match="deal is not a position"):
        next(it)
    one = tmp_path / "one.txt"
    games[0].save(one)
    assert cf.GameRecord.load(one) == games[0]
    four = tmp_path / "four.txt"
    cf.write_records(four, games)
    with pytest.raises(cf.RecordError, match="holds one game, got: 4"):
        cf.GameRecord.load(four)


def test_a_fault_in_a_later_game_names_the_game_and_line(tmp_path: Path) -> None:
    games = [random_match("scopa", s, max_hands=1) for s in range(3)]
    path = tmp_path / "games.txt"
    cf.write_records(path, games)
    text = path.read_text(encoding="utf-8")
    # The second game's Result header, made wrong.
    lines = text.splitlines()
    k = [i for i, line in enumerate(lines, 1) if line.startswith('[Result "')][1]
    result = lines[k - 1].split('"')[1]
    lines[k - 1] = '[Result "99/0"]'
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    it = cf.read_records(path)
    assert next(it) == cf.GameRecord.from_text(games[0].to_text())
    with pytest.raises(cf.RecordError) as e:
        next(it)
    assert str(e.value) == (
        f"game 2, line {k}: the Result header says 99/0, the moves give {result}"
    )
    assert (e.value.game, e.value.line, e.value.hand, e.value.ply) == (1, k, None, None)
    # A move at fault in the third game: the game in the message counts from 1, the
    # attributes are indexes from 0.
    lines = text.splitlines()
    start = [i for i, line in enumerate(lines) if line.startswith("deal ")][2]
    # The third game's second move replaced by its first, whose card is played already.
    seat = lines[start + 2].split(":")[0]
    lines[start + 2] = f"{seat}: {games[2].hands[0].moves[0]}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(cf.RecordError) as e:
        list(cf.read_records(path))
    assert str(e.value).startswith(f"game 3, hand 1, move 2 (line {start + 3}): "), str(e.value)
    assert (e.value.game, e.value.line, e.value.hand, e.value.ply) == (2, start + 3, 0, 1)


def test_a_file_that_is_not_utf8_is_a_record_error_naming_the_byte(tmp_path: Path) -> None:
    good = random_match("scopa", 1, max_hands=1).to_text().encode()
    path = tmp_path / "latin1.txt"
    # A comment line in Latin-1 after the first game's headers.
    head, _, rest = good.partition(b"\n\n")
    path.write_bytes(head + b"\n# caf\xe9\n\n" + rest)
    offset = len(head) + len(b"\n# caf")
    line = head.count(b"\n") + 2
    with pytest.raises(cf.RecordError) as e:
        list(cf.read_records(path))
    assert str(e.value) == (
        f"game 1, line {line}, byte {offset}: the records file is not UTF-8 text "
        f"(invalid continuation byte): {path}"
    )
    assert isinstance(e.value, ValueError) and (e.value.line, e.value.game) == (line, 0)
    # An open text file: named with the line (its decoder's offsets are not the file's).
    with open(path, encoding="utf-8") as f, pytest.raises(cf.RecordError) as e:
        list(cf.read_records(f))
    assert "is not utf-8 text" in str(e.value) and str(e.value).endswith(f": {path}")
    # Line breaks of every kind read as text mode reads them.
    crlf = tmp_path / "crlf.txt"
    crlf.write_bytes(good.replace(b"\n", b"\r\n"))
    assert list(cf.read_records(crlf)) == [cf.GameRecord.from_text(good.decode())]


# ----- what a simulation writes -----


class FirstByHash:
    """A deterministic Python bot: the legal move picked by a hash of the position's text,
    so that a game can be played again outside the simulation and compared."""

    def choose(self, view: cf.View) -> cf.Move:
        moves = sorted(view.legal_moves())
        key = sum(map(ord, view.to_notation()))
        return moves[key % len(moves)]


@pytest.mark.parametrize(
    ("game", "players", "mode", "duplicate"),
    [
        ("scopa", 2, "hands", True),
        ("escoba", 4, "hands", False),
        ("chkobba", 2, "matches", False),
        ("scopa", 4, "matches", True),
    ],
)
def test_simulated_records_are_the_games_the_bots_played(
    tmp_path: Path, game: str, players: int, mode: str, duplicate: bool
) -> None:
    rules = getattr(cf.Rules, game)(players=players)
    n = 6 if mode == "hands" else 2
    count = {"hands": n} if mode == "hands" else {"matches": n}
    bots = [FirstByHash(), "random"]
    path = tmp_path / "sim.txt"
    r = cf.simulate(rules, bots=bots, duplicate=duplicate, seed=11, records=path, **count)  # type: ignore[arg-type]
    plain = cf.simulate(rules, bots=bots, duplicate=duplicate, seed=11, **count)  # type: ignore[arg-type]
    assert np.array_equal(r.points, plain.points) and np.array_equal(r.dealer, plain.dealer)
    games = list(cf.read_records(path))  # each replayed under the rules
    per_item = 2 if duplicate else 1
    assert len(games) == n * per_item
    row = 0
    hash_bot = FirstByHash()
    for k, record in enumerate(games):
        item, g = divmod(k, per_item)
        deal, _ = sim_seeds(11, item, players)
        assert record.hands[0].start == cf.State.new(rules, seed=deal)
        assert record.headers["Seed"] == str(deal) and record.headers["Item"] == str(item)
        labels = [record.headers[f"Seat{s}"] for s in range(players)]
        mine = [s for s in range(players) if (s ^ g) % 2 == 0]  # seats of the hash bot
        assert all(labels[s] == "FirstByHash" for s in mine)
        for hand in record.hands:
            assert int(r.dealer[row]) == hand.start.dealer
            state = hand.start
            for mv in hand.moves:
                if state.to_move in mine:
                    assert mv == hash_bot.choose(state.view(state.to_move))
                state = state.play(mv)
            assert state.hand_over
            row += 1
        final = record.position
        scores = r.points[k] if mode == "hands" else r.match_scores[k]  # type: ignore[index]
        assert list(final.scores) == [int(x) for x in scores]
        assert mode == "hands" or final.match_over
    assert row == len(r.points)


def test_batches_of_a_simulation_join_to_the_same_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = cf.Rules.scopa()
    kw = {"hands": 10, "bots": ("greedy", "random"), "duplicate": True, "seed": 3}
    whole = tmp_path / "whole.txt"
    r1 = cf.simulate(rules, records=whole, **kw)  # type: ignore[arg-type]
    monkeypatch.setattr(rec_mod, "SIM_BATCH", 3)
    cut = tmp_path / "cut.txt"
    r2 = cf.simulate(rules, records=cut, **kw)  # type: ignore[arg-type]
    assert whole.read_text() == cut.read_text()
    assert np.array_equal(r1.points, r2.points) and r2.completed == 10


def test_an_interrupted_simulation_writes_the_games_that_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rec_mod, "SIM_BATCH", 4)

    def stop(done: int, _total: int) -> None:
        if done >= 8:
            raise KeyboardInterrupt

    path = tmp_path / "cut.txt"
    r = cf.simulate(
        cf.Rules.scopa(), hands=40, bots="random", progress=stop, records=path, threads=1
    )
    assert r.interrupted and 8 <= r.completed < 40
    assert len(list(cf.read_records(path))) == r.completed


def test_records_into_an_open_file_and_refusals() -> None:
    buf = io.StringIO()
    cf.simulate(cf.Rules.escoba(), hands=2, records=buf)
    assert len(list(cf.read_records(io.StringIO(buf.getvalue())))) == 2
    with pytest.raises(cf.ArgumentError, match="records"):
        cf.simulate(cf.Rules.scopa(), hands=2, records=io.StringIO(), executor="ray")
    with pytest.raises(cf.VariantError):
        cf.simulate(cf.Rules.scopa(), hands=2, bots="nobody", records=io.StringIO())


def test_simulated_records_match_the_reference_engine_playing_the_same_seeds(
    tmp_path: Path,
) -> None:
    # Random v random from the run's seeds, played by the pure-Python reference engine (its own
    # rules and deal, its own SplitMix64 for the bots): the same moves, move for move.
    from reference import RefRules, RefState, SplitMix64

    path = tmp_path / "random.txt"
    cf.simulate(cf.Rules.scopa(), hands=25, seed=77, records=path)
    for item, record in enumerate(cf.read_records(path)):
        deal, bot_seeds = sim_seeds(77, item, 2)
        state = RefState.new(RefRules("scopa", 2), deal)
        rngs = [SplitMix64(s) for s in bot_seeds]
        played = []
        while not state.hand_over:
            moves = state.legal_moves()
            mv = moves[rngs[state.to_move].below(len(moves))]
            played.append(cf.Move.play(mv[1], mv[2]))
            state = state.play(mv)
        assert record.hands[0].moves == played, item
        assert record.headers["Result"] == "/".join(map(str, state.hand_report()["points"]))


# ----- the replay's refusals -----


def good_text() -> str:
    return random_match("scopa", 1, max_hands=2).to_text()


def broken(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_an_illegal_move_is_named_with_its_hand_move_and_line() -> None:
    text = good_text()
    record = cf.GameRecord.from_text(text)
    first = record.hands[0]
    # The second move of the first hand, played by another card of the mover's hand that
    # the mover does not hold: a card held by the other seat.
    other = next(c for c in first.start.hands[1 - first.start.to_move])  # type: ignore[operator]
    lines = text.splitlines()
    k = line_of(text, f": {first.moves[0]}")
    lines[k - 1] = f"{first.start.to_move}: {other}"
    bad = "\n".join(lines)
    with pytest.raises(
        cf.RecordError, match=rf"hand 1, move 1 \(line {k}\): {other} is not legal"
    ) as e:
        cf.GameRecord.from_text(bad).replay()
    assert (e.value.line, e.value.hand, e.value.ply) == (k, 0, 0)
    assert isinstance(e.value, ValueError)


def test_each_fault_is_refused_with_a_reason() -> None:
    text = good_text()
    record = cf.GameRecord.from_text(text)
    mover = record.hands[0].start.to_move
    cases = [
        (broken(text, '[Result "', '[Result "9/9'), "Result header says 9/9"),
        (broken(text, '[Rules "scopa"]', '[Rules "escoba"]'), "Rules header says escoba"),
        (broken(text, '[Players "2"]', '[Players "4"]'), "Players header says 4"),
        (broken(text, '[Seat1 "p1"]', '[Seat1 "p1"]\n[Seat5 "x"]'), "Seat5 names a seat"),
        (broken(text, f"\n{mover}: ", f"\n{1 - mover}: "), f"seat {1 - mover} plays"),  # type: ignore[operator]
        (
            broken(text, "scores=0/0", "scores=3/0"),
            None,
        ),  # either refused by the deal or the result
    ]
    for bad, message in cases:
        with pytest.raises(cf.RecordError) as e:
            cf.GameRecord.from_text(bad).replay()
        if message is not None:
            assert message in str(e.value), (message, str(e.value))
    second = text.split("\ndeal ")[2].split(" ", 1)[1].split("\n", 1)[0]
    assert "hand_number=1" in second
    carry = "does not carry on the match: the deal has hand_number 2, the previous hand ends at 1"
    with pytest.raises(cf.RecordError, match=carry):
        cf.GameRecord.from_text(text.replace("hand_number=1", "hand_number=2")).replay()


def test_malformed_lines_are_refused_with_their_line() -> None:
    text = good_text()
    cases = [
        ('[Event "x"', "a header is"),
        ('[Event "x"]\n[Event "y"]', "given twice"),
        ('[Event "x"]\n0: 7C', "a move before the first deal"),
        ('[Event "x"]\ndeal scopa players=2 x=y', "deal is not a position"),
        (text.replace("\n0: ", "\n0: ZZ ", 1), r"line \d+: .*ZZ"),
        (text.replace("\n1: ", "\n1: 7C x 9Q ; c\n1: ", 1), r"line \d+: .*9Q"),
        (text.rstrip("\n") + "\nthis is not a line\n", "expected a header, a deal line"),
        (text.rstrip("\n") + "\n0: 7C = many\n", "a value is a whole number"),
        ('[Event "x"]\n', "at least one deal"),
    ]
    for bad, message in cases:
        with pytest.raises(cf.RecordError, match=message) as e:
            cf.GameRecord.from_text(bad).replay()
        assert e.value.line is None or e.value.line >= 1
    with pytest.raises(cf.RecordError, match="one game, got: 2"):
        cf.GameRecord.from_text(text + "\n" + text)


def test_building_refuses_bad_arguments_and_leaves_the_record_alone() -> None:
    state = cf.State.new(cf.Rules.scopa(), seed=2)
    with pytest.raises(cf.RecordError, match="one name per seat"):
        cf.GameRecord.begin(state, seats=["a"])
    with pytest.raises(cf.RecordError, match="tag"):
        cf.GameRecord.begin(state, **{"bad tag": "x"})
    # A header value with a line break would end its line early: the text would not read
    # back, or would read as other headers. Every break the reader splits at is refused.
    for broken in ["c\nd", 'a\n[Seat0 "evil"]', "a\rb", "a\x0bb", "a\u2028b", "end\n"]:
        with pytest.raises(cf.RecordError, match=r"the Seat1 header is one line") as e:
            cf.GameRecord.begin(state, seats=["x", broken])
        assert isinstance(e.value, ValueError)
        with pytest.raises(cf.RecordError, match=r"the Event header is one line"):
            cf.GameRecord.begin(state, event=broken)
        with pytest.raises(cf.RecordError, match=r"the Note header is one line"):
            cf.GameRecord.begin(state, Note=broken)
        with pytest.raises(cf.RecordError, match="a comment is one line"):
            cf.GameRecord.begin(state).play(state.legal_moves()[0], comment=broken)
    edited = cf.GameRecord.begin(state, seats=["x", "y"])
    edited.headers["Seat1"] = "c\nd"
    with pytest.raises(cf.RecordError, match=r"the Seat1 header is one line"):
        edited.to_text()
    # Quotes and backslashes are escaped, and read back as they were.
    odd = cf.GameRecord.begin(state, seats=['say "hi"', "back\\slash ; [x]"])
    assert cf.GameRecord.from_text(odd.to_text()).headers["Seat0"] == 'say "hi"'
    assert cf.GameRecord.from_text(odd.to_text()).headers["Seat1"] == "back\\slash ; [x]"
    record = cf.GameRecord.begin(state)
    legal = set(state.legal_moves())
    illegal = next(
        cf.Move.play(c)
        for c in state.hands[1 - state.to_move]
        if cf.Move.play(c) not in legal  # type: ignore[operator]
    )
    with pytest.raises(cf.IllegalMoveError):
        record.play(illegal)
    with pytest.raises(cf.RecordError, match="one line"):
        record.play(state.legal_moves()[0], comment="two\nlines")
    assert record.hands[0].moves == [] and record.position == state
    with pytest.raises(cf.IllegalMoveError):
        record.next_hand()  # the hand is not over


# ----- review and the command line -----


def test_review_takes_a_record() -> None:
    record = random_match("scopa", 4, max_hands=2)
    rows = cf.review(record)
    assert len(rows) == sum(len(h.moves) for h in record.hands)
    assert [r.hand for r in rows] == [k for k, h in enumerate(record.hands) for _ in h.moves]
    alone = cf.review(record.hands[1].start, record.hands[1].moves)
    assert [r.value for r in rows if r.hand == 1] == [r.value for r in alone]
    with pytest.raises(cf.ArgumentError):
        cf.review(record, record.hands[0].moves)


def test_simulate_records_and_replay_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "cli.txt"
    args = [
        "--game",
        "chkobba",
        "--players",
        "2",
        "--matches",
        "2",
        "--bots",
        "greedy",
        "random",
        "--records",
    ]
    out = cli("simulate", *args, str(path))
    assert out.returncode == 0, out.stderr
    games = list(cf.read_records(path))
    assert len(games) == 2 and all(g.position.match_over for g in games)
    shown = cli("replay", str(path), "--game", "2")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("game 2\n")
    assert shown.stdout.count("\nhand ") == len(games[1].hands)
    assert "chkobba hand" in shown.stdout  # each hand's score report
    # A Chkobba hand starts at the cut: its deal is shown once the cut card is kept or tabled.
    first = games[1].hands[0]
    dealt = first.start.play(first.moves[0])
    assert f", cut card {first.start.cut_card}\n" in shown.stdout
    assert f"  seat 0 holds {' '.join(map(str, dealt.hands[0]))}\n" in shown.stdout
    assert " holds -\n" not in shown.stdout and ", table -\n" not in shown.stdout
    reviewed = cli("replay", str(path), "--game", "1", "--review")
    assert reviewed.returncode == 0 and "best" in reviewed.stdout
    # Every game of `simulate --game all`, one file.
    every = tmp_path / "all.txt"
    assert cli("simulate", "--game", "all", "--hands", "2", "--records", str(every)).returncode == 0
    assert len(list(cf.read_records(every))) == 2 * 3 * 2  # 3 games x 2 player counts


def test_replay_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """`capturefast replay FILE | head -1`: the reader goes away after a line, and the command
    stops with status 0 and nothing on stderr (it is not a failure to read the file). Twenty
    matches print far more than a pipe holds, so the command is still writing when it goes."""
    path = tmp_path / "pipe.txt"
    made = cli("simulate", "--game", "scopa", "--matches", "20", "--records", str(path))
    assert made.returncode == 0, made.stderr
    child = subprocess.Popen(
        [sys.executable, "-m", "capturefast", "replay", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None and child.stderr is not None
    assert child.stdout.readline().startswith(b"game 1")
    child.stdout.close()
    status = child.wait(timeout=120)
    err = child.stderr.read().decode()
    child.stderr.close()
    assert status == 0 and err == "", err


def test_replay_refuses_bad_files_with_a_message(tmp_path: Path) -> None:
    missing = cli("replay", str(tmp_path / "none.txt"))
    assert missing.returncode == 2 and "cannot read the records file" in missing.stderr
    assert "usage:" in missing.stderr  # the argument is at fault
    bad = tmp_path / "bad.txt"
    bad.write_text(good_text().replace('[Result "', '[Result "0/99', 1))
    out = cli("replay", str(bad))
    # A fault in the file's contents: one error line, no usage (the arguments were right).
    k = line_of(good_text(), "[Result ")
    assert out.returncode == 2
    assert out.stderr.startswith(
        f"capturefast replay: error: game 1, line {k}: the Result header says 0/99"
    ), out.stderr
    assert len(out.stderr.splitlines()) == 1, out.stderr
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    out = cli("replay", str(binary))
    assert out.returncode == 2 and out.stderr == (
        "capturefast replay: error: game 1, line 1, byte 0: the records file is not UTF-8 text "
        f"(invalid start byte): {binary}\n"
    )
    out = cli("replay", str(tmp_path / "bad.txt"), "--game", "5")
    assert out.returncode == 2
    for name, text in [("empty.txt", ""), ("comments.txt", "# nothing here\n\n")]:
        (tmp_path / name).write_text(text)
        out = cli("replay", str(tmp_path / name))
        assert out.returncode == 2 and out.stdout == "", out
        assert out.stderr == (
            f"capturefast replay: error: the records file holds no game: {tmp_path / name}\n"
        )
    unwritable = cli("simulate", "--hands", "1", "--records", str(tmp_path / "no" / "dir.txt"))
    assert unwritable.returncode == 2 and "cannot write the records file" in unwritable.stderr


def test_a_hand_after_the_match_is_over_is_refused() -> None:
    buf = io.StringIO()
    cf.simulate(cf.Rules.scopa(target=5), matches=1, bots="greedy", records=buf)
    text = buf.getvalue()
    record = cf.GameRecord.from_text(text)
    assert record.position.match_over
    extra = text.rstrip("\n") + f"\n\ndeal {record.hands[-1].start.to_notation()}\n"
    with pytest.raises(cf.RecordError, match="after the match is over"):
        cf.GameRecord.from_text(extra).replay()


# ----- fuzzing the reader -----

RECORD_TEXTS = [random_match(name, 2, max_hands=2).to_text() for name in PRESETS[:4]]
LINE_PIECES = ["[", "]", '"', ":", " = ", " ; ", "deal ", "0: ", "x", "+", "7D", "\\", "-"]


@st.composite
def mutated_record(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from(RECORD_TEXTS)).splitlines()
    for _ in range(draw(st.integers(1, 4))):
        k = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.integers(0, 4))
        line = lines[k]
        at = draw(st.integers(0, len(line)))
        if kind == 0:  # drop a line
            del lines[k]
        elif kind == 1:  # repeat a line elsewhere
            lines.insert(draw(st.integers(0, len(lines))), line)
        elif kind == 2:  # cut into a line
            lines[k] = line[:at] + line[at + draw(st.integers(1, 8)) :]
        elif kind == 3:  # insert a piece
            lines[k] = line[:at] + draw(st.sampled_from(LINE_PIECES)) + line[at:]
        else:  # swap two lines
            j = draw(st.integers(0, len(lines) - 1))
            lines[k], lines[j] = lines[j], lines[k]
        if not lines:
            break
    return "\n".join(lines)


@settings(max_examples=400, deadline=None)
@given(mutated_record())
def test_mutated_records_are_refused_cleanly_or_replay(text: str) -> None:
    try:
        games = list(cf.read_records(io.StringIO(text)))
    except cf.RecordError as e:
        assert str(e) and (e.line is None or e.line >= 1)
        return
    for game in games:  # accepted: each writes back to a text that reads the same
        assert cf.GameRecord.from_text(game.to_text()).replay() == game.position


def test_a_refused_simulation_leaves_the_records_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "kept.txt"
    path.write_text("kept\n")
    out = cli(
        "simulate", "--game", "all", "--hands", "2", "--bots", "nobody", "--records", str(path)
    )
    assert out.returncode == 2 and "nobody" in out.stderr
    assert path.read_text() == "kept\n"
