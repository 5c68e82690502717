"""The repository's Markdown stands on its own.

Every relative link of README.md, ARCHITECTURE.md, CHANGELOG.md and docs/*.md names a file of
the repository, and every ``#anchor`` into a Markdown file names a heading or an explicit anchor
(``<a id="...">``) of it; no page points beside the checkout (``../shared``, ``shared/spec``).
Every rule id that the code, tests, data or docs cite is an anchor of docs/rules.md, which
states that rule.

Heading anchors are computed as GitHub does: the heading's text, lower-cased, without
punctuation, spaces turned into hyphens, ``-1``, ``-2``... appended to repeats.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
RULES = REPO / "docs" / "rules.md"
GLOSSARY = REPO / "docs" / "glossary.md"
VECTORS = REPO / "tests" / "data" / "vectors.json"

# Text that would point outside the repository, to the spec that used to sit beside it.
FORBIDDEN = ("shared/spec", "../shared")

# Rule ids as the code and tests cite them: G1, S7, K-A3, V-E7, I4...
RULE_ID = re.compile(r"\b(?:V-[SEK][1-9][0-9]*|[SEK]-A[1-9][0-9]*|[GSEK][1-9][0-9]*|I[1-6])\b")
# Vector ids as docs/rules.md cites them: K-CAP-01, E-INI-03...
VECTOR_ID = re.compile(r"\b[SEK]-[A-Z]{3}-[0-9]{2}\b")

# Where rule ids are looked for: every text file of these kinds outside these directories.
SOURCE_SUFFIXES = frozenset({".md", ".py", ".pyi", ".rs", ".toml", ".json", ".txt"})
SKIPPED_DIRS = frozenset({".git", ".venv", "target", "__pycache__", "node_modules", "dist"})

FENCE = re.compile(r"^ {0,3}(```+|~~~+)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
INLINE_LINK = re.compile(
    r"!?\[(?:[^\[\]\\]|\\.|\[[^\[\]]*\])*\]"  # [text], one level of nested brackets
    r"\(\s*(?:<([^>]*)>|([^\s()]*(?:\([^\s()]*\)[^\s()]*)*))"  # (target) or (<target>)
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)"  # optional title
)
REFERENCE_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?")
HTML_LINK = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']+)["']""")
EXPLICIT_ANCHOR = re.compile(r"""<[a-zA-Z][^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']""")
ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def markdown_files() -> list[Path]:
    """The Markdown pages of the repository: the top-level ones and everything under docs/."""
    return sorted({*REPO.glob("*.md"), *(REPO / "docs").glob("**/*.md")})


def rel(path: Path) -> str:
    """A path relative to the repository, for messages."""
    return path.relative_to(REPO).as_posix()


def prose_lines(text: str) -> list[str]:
    """The lines of a page with fenced code blocks blanked (line numbers are kept)."""
    lines = text.splitlines()
    fence: str | None = None
    out: list[str] = []
    for line in lines:
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)[0] * 3
            out.append("")
        elif fence is not None:
            if line.strip().startswith(fence):
                fence = None
            out.append("")
        else:
            out.append(line)
    return out


def without_code_spans(line: str) -> str:
    """A line with its inline code spans blanked, so that code is never read as a link."""
    return CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)


def link_targets(path: Path) -> Iterator[tuple[int, str]]:
    """Yield ``(line number, target)`` for every link and image of a Markdown page.

    Inline links are looked for in the whole text, so that one whose text wraps onto the next
    line is found too; code blocks and code spans are blanked first.
    """
    lines = [without_code_spans(line) for line in prose_lines(path.read_text(encoding="utf-8"))]
    text = "\n".join(lines)
    for match in INLINE_LINK.finditer(text):
        number = text.count("\n", 0, match.start()) + 1
        yield number, match.group(1) if match.group(1) is not None else match.group(2)
    for number, line in enumerate(lines, start=1):
        definition = REFERENCE_DEF.match(line)
        if definition:
            yield number, definition.group(1)
        for match in HTML_LINK.finditer(line):
            yield number, match.group(1)


def heading_text(raw: str) -> str:
    """The text a heading shows: links by their text, code and emphasis without their marks."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", raw)
    text = re.sub(r"<[^>]+>", "", text)
    return text.replace("`", "").replace("*", "").strip()


def slug(text: str) -> str:
    """GitHub's anchor for a heading's text (before repeats are numbered)."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


@functools.cache
def anchors(path: Path) -> tuple[str, ...]:
    """Every anchor of a Markdown page: heading slugs, then explicit ``id``/``name`` attributes."""
    found: list[str] = []
    seen: Counter[str] = Counter()
    lines = prose_lines(path.read_text(encoding="utf-8"))
    for index, line in enumerate(lines):
        raw: str | None = None
        atx = ATX_HEADING.match(line)
        if atx:
            raw = atx.group(2) or ""
        elif (
            index + 1 < len(lines)
            and line.strip()
            and not line.lstrip().startswith(("-", "*", "+", "|", ">"))
            and SETEXT_UNDERLINE.match(lines[index + 1])
            and (index == 0 or not lines[index - 1].strip())
        ):
            raw = line
        if raw is not None:
            base = slug(heading_text(raw))
            found.append(base if seen[base] == 0 else f"{base}-{seen[base]}")
            seen[base] += 1
    # A tag may wrap onto the next line, so explicit anchors are looked for in the whole text.
    found.extend(EXPLICIT_ANCHOR.findall("\n".join(without_code_spans(x) for x in lines)))
    return tuple(found)


def link_problems(path: Path) -> list[str]:
    """What is wrong with the links of one page (empty when every link resolves)."""
    problems: list[str] = []
    for number, target in link_targets(path):
        where = f"{rel(path)}:{number}: {target}"
        if not target or SCHEME.match(target):
            continue  # an absolute URL (https:, mailto:) is not a file of the repository
        file_part, _, anchor = target.partition("#")
        if file_part.startswith("/"):
            problems.append(f"absolute path, not relative to the page: {where}")
            continue
        resolved = (path.parent / file_part).resolve() if file_part else path
        if not resolved.is_relative_to(REPO):
            problems.append(f"link leaves the repository: {where}")
            continue
        if not resolved.exists():
            problems.append(f"link to a missing file: {where}")
            continue
        if anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            problems.append(f"no such anchor in {rel(resolved)}: {where}")
    return problems


def source_files() -> Iterator[Path]:
    """Every text file of the repository where a rule id may be cited (build output skipped)."""
    for root, dirs, files in os.walk(REPO):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(files):
            path = Path(root) / name
            if path.suffix in SOURCE_SUFFIXES:
                yield path


PAGES = markdown_files()
PAGE_IDS = [rel(p) for p in PAGES]


# --------------------------------------------------------------------- the pages


def test_the_pages_are_there() -> None:
    """The rules and the glossary are pages of the repository, found by the other tests."""
    assert RULES in PAGES, f"missing page: {rel(RULES)}"
    assert GLOSSARY in PAGES, f"missing page: {rel(GLOSSARY)}"
    assert REPO / "README.md" in PAGES


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_relative_links_resolve(page: Path) -> None:
    """Every relative link names a file of the repository, and every anchor exists there."""
    problems = link_problems(page)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_nothing_points_beside_the_checkout(page: Path) -> None:
    """No page mentions the spec folder that used to sit beside the repository."""
    lines = page.read_text(encoding="utf-8").splitlines()
    hits = [
        f"{rel(page)}:{number}: {line.strip()}"
        for number, line in enumerate(lines, start=1)
        if any(word in line for word in FORBIDDEN)
    ]
    assert not hits, "\n".join(hits)


@pytest.mark.parametrize("page", [RULES, GLOSSARY], ids=[rel(RULES), rel(GLOSSARY)])
def test_anchors_are_unique(page: Path) -> None:
    """An anchor of the rules or the glossary names one place only."""
    repeated = sorted(a for a, n in Counter(anchors(page)).items() if n > 1)
    assert not repeated, f"anchors repeated in {rel(page)}: {', '.join(repeated)}"


# --------------------------------------------------------------------- rule ids


def test_every_cited_rule_id_is_stated_in_the_rules() -> None:
    """Each rule id found in the code, tests, data and docs is an anchor of docs/rules.md."""
    stated = set(anchors(RULES))
    missing: dict[str, list[str]] = {}
    for path in source_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for rule_id in sorted(set(RULE_ID.findall(text)) - stated):
            missing.setdefault(rule_id, []).append(rel(path))
    assert not missing, "rule ids not stated in docs/rules.md:\n" + "\n".join(
        f"{rule_id}: {', '.join(paths)}" for rule_id, paths in sorted(missing.items())
    )


def test_the_rules_state_each_id_once() -> None:
    """Every rule id of docs/rules.md is an explicit anchor that is written out beside it."""
    text = RULES.read_text(encoding="utf-8")
    ids = re.findall(r'<a id="([^"]+)"></a>\*\*([^ *]+) ', text)
    assert ids, "no rule anchors found in docs/rules.md"
    for anchor, label in ids:
        assert anchor == label, f"anchor and label differ in docs/rules.md: {anchor} {label}"
    counts = Counter(anchor for anchor, _ in ids)
    assert all(n == 1 for n in counts.values()), f"rule stated twice: {counts.most_common(1)}"


def test_vectors_cite_stated_rules_and_the_rules_cite_real_vectors() -> None:
    """Vector rule ids are anchors of docs/rules.md; vector ids named there are in the data."""
    data = json.loads(VECTORS.read_text(encoding="utf-8"))
    stated = set(anchors(RULES))
    unknown = sorted({r for v in data["vectors"] for r in v["rules"]} - stated)
    assert not unknown, f"vectors cite rules docs/rules.md does not state: {', '.join(unknown)}"
    vector_ids = {v["id"] for v in data["vectors"]}
    named = set(VECTOR_ID.findall(RULES.read_text(encoding="utf-8")))
    assert named, "docs/rules.md names no vector"
    absent = sorted(named - vector_ids)
    assert not absent, f"docs/rules.md names vectors not in {rel(VECTORS)}: {', '.join(absent)}"
