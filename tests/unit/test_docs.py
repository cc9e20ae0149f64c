"""The README and docs/ stay true to the tree: links and anchors resolve, named paths exist, and every
command and option the README names is one ``drill --help`` knows (the parser is built in-process)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from drill.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = [README, ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 250
# A path written in backticks under one of these folders must exist (so a moved file is caught here).
CHECKED_DIRS = ("engine", "question_bank", "drill", "tests", "benchmarks", "docs")
PATH = re.compile(r"^[\w.-]+(?:/[\w.-]+)*/?$")
FENCE = re.compile(r"^(```|~~~)")
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def _prose(text: str) -> list[str]:
    """The lines outside fenced code blocks (the callers also skip indented, 4-space, code lines)."""
    lines, fenced = [], False
    for line in text.split("\n"):
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, markup and punctuation but '-' and '_' dropped, spaces to '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.replace("`", "").strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for line in _prose(path.read_text(encoding="utf-8")):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def _links(path: Path) -> list[str]:
    found = []
    for line in _prose(path.read_text(encoding="utf-8")):
        if line.startswith("    "):
            continue
        found += LINK.findall(CODE_SPAN.sub("", line))
    return found


def _spans(path: Path) -> list[str]:
    """Text in backticks, outside code blocks (a block's lines are commands, not names of files)."""
    return [m.group(2).strip() for line in _prose(path.read_text(encoding="utf-8")) if not line.startswith("    ")
            for m in CODE_SPAN.finditer(line)]


def test_the_slug_follows_githubs_rules():
    assert slug("Save files and `drill doctor`") == "save-files-and-drill-doctor"
    assert slug("Scheduling: SM-2, FSRS, the interview date") == "scheduling-sm-2-fsrs-the-interview-date"
    assert slug("One writer per profile; readers need no lock") == "one-writer-per-profile-readers-need-no-lock"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_anchor_resolves(doc):
    broken = []
    for target in _links(doc):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        dest = (doc.parent / file).resolve() if file else doc
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading with that anchor in {dest.relative_to(ROOT)}")
    assert not broken, broken


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_named_exists(doc):
    missing = []
    for span in _spans(doc):
        if not PATH.match(span) or "/" not in span:
            continue
        if span.split("/", 1)[0] in CHECKED_DIRS and not (ROOT / span).exists():
            missing.append(span)
    assert not missing, f"{doc.name} names paths that do not exist: {missing}"


def _help(*argv: str) -> str:
    """What ``drill ARGV --help`` prints, from the parser built in-process."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        build_parser().parse_args([*argv, "--help"])
    return out.getvalue()


def _options(help_text: str) -> set[str]:
    return set(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", help_text))


def _commands() -> tuple[set[str], dict[str, set[str]]]:
    top = _help()
    names = re.findall(r"^    ([a-z]+)  ", top.split("positional arguments:", 1)[1].split("options:", 1)[0], re.M)
    assert "practice" in names and "doctor" in names, names
    return _options(top.split("options:", 1)[1]), {name: _options(_help(name)) for name in names}


def test_every_command_and_option_the_readme_names_exists():
    top, per = _commands()
    text = README.read_text(encoding="utf-8")
    unknown = []
    # A command line in the README: `drill ...` in backticks, or an indented example line.
    lines = [m.group(2) for m in CODE_SPAN.finditer(text)] + [ln.strip() for ln in text.split("\n")
                                                                 if ln.startswith("    ")]
    for line in lines:
        for m in re.finditer(r"\bdrill((?:\s+--?[\w-]+(?:\s+[^\s-][^\s]*)?)*)(?:\s+([a-z][\w-]*))?([^#]*)", line):
            before, command, after = m.group(1), m.group(2), m.group(3) or ""
            if command is not None and command not in per:
                unknown.append(f"drill {command}")
                continue
            known = top | (per[command] if command else set())
            for flag in re.findall(r"(?<![\w-])(--[a-z][\w-]*)", before + " " + after):
                if flag not in known:
                    unknown.append(f"drill {command or ''} {flag}")
    # An option named on its own (`--saves DIR`) must exist somewhere.
    every = top.union(*per.values())
    for span in (m.group(2) for m in CODE_SPAN.finditer(text)):
        for flag in re.findall(r"(?<![\w-])(--[a-z][\w-]*)", span):
            if flag not in every:
                unknown.append(flag)
    assert not unknown, unknown


def test_the_readme_is_short():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; at most {README_MAX_LINES}: move reference to docs/"


def test_the_readme_opens_with_the_two_commands():
    head = README.read_text(encoding="utf-8").split("\n")[:5]
    assert any(line.strip().startswith("make run") for line in head)
    assert any(line.strip().startswith("make test") for line in head)
