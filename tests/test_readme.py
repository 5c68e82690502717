"""The examples of README.md run and print what they show.

Each ```python block is a doctest (`>>>` lines followed by their output), run on its own in a
fresh namespace, in a temporary directory; a block without `>>>` is run as a script. Each
`capturefast ...` command of a ```sh block runs through the command line's `main`, with its
hand and match counts cut down so that the suite stays quick.
"""

from __future__ import annotations

import doctest
import io
import pathlib
import re
import shlex

import pytest
from capturefast import cli

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# The largest count a README command is run with here (hands or matches).
MAX_COUNT = 200


def blocks(language: str) -> list[tuple[int, str]]:
    """The README's fenced blocks in ``language``: (line of the block's first line, text)."""
    text = README.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, m.start(2)) + 1, m.group(2))
        for m in FENCE.finditer(text)
        if m.group(1) == language
    ]


def commands() -> list[tuple[int, list[str]]]:
    """The `capturefast` commands of the README's sh blocks: (line, arguments after the name)."""
    out = []
    for start, text in blocks("sh"):
        pending, first = "", start
        for offset, line in enumerate(text.splitlines()):
            if not pending:
                first = start + offset
            if line.endswith("\\"):
                pending += line[:-1] + " "
                continue
            words = shlex.split(pending + line, comments=True)
            pending = ""
            if words and words[0] == "capturefast":
                out.append((first, words[1:]))
    return out


def cut_counts(argv: list[str]) -> list[str]:
    """``argv`` with the values of ``--hands`` and ``--matches`` at most `MAX_COUNT`."""
    out = list(argv)
    for i, word in enumerate(out[:-1]):
        if word in ("--hands", "--matches"):
            out[i + 1] = str(min(int(out[i + 1]), MAX_COUNT))
    return out


PYTHON = blocks("python")


def test_readme_has_examples() -> None:
    assert len(PYTHON) >= 5, "README.md lost its Python examples"
    assert commands(), "README.md lost its command-line examples"


@pytest.mark.parametrize(("line", "text"), PYTHON, ids=[f"README.md:{n}" for n, _ in PYTHON])
def test_python_example(
    line: int, text: str, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # an example may write a file
    name = f"README.md:{line}"
    if ">>>" not in text:
        exec(compile(text, name, "exec"), {"__name__": "__readme__"})
        return
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {"__name__": "__readme__"}, name, str(README), line - 1)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report = io.StringIO()
    result = runner.run(test, out=report.write)
    assert result.attempted > 0
    assert result.failed == 0, report.getvalue()


COMMANDS = commands()


@pytest.mark.parametrize(("line", "argv"), COMMANDS, ids=[f"README.md:{n}" for n, _ in COMMANDS])
def test_command_example(line: int, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = cli.main(cut_counts(argv))
    except SystemExit as e:  # a usage error exits with status 2
        status = e.code
    out, err = capsys.readouterr()
    assert status == 0, f"README.md:{line}: capturefast {shlex.join(argv)}\n{err}"
    assert out.strip(), f"README.md:{line}: capturefast {shlex.join(argv)} printed nothing"
