"""Every closed set of words is a StrEnum defined once, and the code names its members, not their strings."""

import ast
import enum
import json
from pathlib import Path

import pytest

from tests import source

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "question_bank", "drill")

# (module, class): each closed set of words and where it is defined
ENUMS = [
    ("engine.status", "Status"),
    ("engine.schedule.fsrs_bridge", "Scheduler"),
    ("engine.langs", "Lang"),
    ("engine.review_mode", "ReviewMode"),
    ("engine.verdicts", "KindName"),
    ("engine.storage.doctor", "FindingKind"),
    ("question_bank.catalogue", "FieldKind"),
]

# the word -> the one module allowed to spell it as a string
OWNER = {
    **dict.fromkeys(("correct", "close", "wrong", "invalid", "convention", "dont_know", "unanswered"), "engine/status.py"),
    **dict.fromkeys(("sm2", "fsrs"), "engine/schedule/fsrs_bridge.py"),
    **dict.fromkeys(("en", "zh"), "engine/langs.py"),
}

# (file, word): the same spelling meaning something else, each with why it stays a string
ALLOWED = {
    # the English words of the statuses in the text table; the keys ("verdict.correct") are other strings
    ("drill/core/stats.py", "correct"): "shown text",
    ("drill/core/stats.py", "close"): "shown text",
    ("drill/core/stats.py", "wrong"): "shown text",
    # Textual action names (action_close, action_dont_know), bound to keys: a screen's verb, not a verdict
    ("drill/screens/card.py", "close"): "Textual action",
    ("drill/screens/mock_report.py", "close"): "Textual action",
    ("drill/screens/mock_run.py", "close"): "Textual action",
    ("drill/screens/practice.py", "dont_know"): "Textual action",
    # the --convention option's argparse dest, and a convention-group input's field name
    ("drill/commands/bank.py", "convention"): "argparse dest and JSON field",
    ("drill/commands/app.py", "convention"): "argparse dest",
    ("engine/formulas/inputs.py", "convention"): "input field",
    # the close band of an expected answer (Expected.close), a field of `drill ask --json`
    ("question_bank/steps.py", "close"): "JSON field",
}


@pytest.mark.parametrize("module, name", ENUMS)
def test_each_closed_set_is_a_str_enum(module, name):
    cls = getattr(__import__(module, fromlist=[name]), name)
    assert isinstance(cls, enum.EnumType) and issubclass(cls, enum.StrEnum), f"{module}.{name}"


def test_members_serialise_as_their_strings():
    from engine.langs import Lang
    from engine.review_mode import ReviewMode
    from engine.schedule.fsrs_bridge import Scheduler
    from engine.status import Status

    for cls in (Status, Scheduler, Lang, ReviewMode):
        for member in cls:
            assert json.dumps(member) == json.dumps(member.value) and f"{member}" == str(member) == member.value


def test_a_digest_of_rows_holding_members_is_well_formed():
    """Rows recorded this session hold members; a digest of them must not read as damaged (and be rebuilt)."""
    from engine.digest import Digest
    from engine.review_mode import ReviewMode
    from engine.status import Status

    row = {"date": "2026-01-02", "item": "memory.static", "topic": "memory", "seed": 1, "step": None,
           "verdict": Status.CORRECT, "quality": 4, "seconds": 12.0, "mode": ReviewMode.PRACTICE, "before": None,
           "after": {"interval": 1}, "scheduled": True}
    assert Digest.of_rows([row, {**row, "verdict": "wrong", "mode": "extra"}]).problem() is None


def _docstrings(path: Path) -> set[int]:
    out = set()
    for node in source.nodes(path):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _spelled() -> list[tuple[str, int, str]]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            skip = _docstrings(path)
            for node in source.nodes(path):  # parsed once per process, shared with the other AST tests
                if (isinstance(node, ast.Constant) and type(node.value) is str and node.value in OWNER
                        and id(node) not in skip and OWNER[node.value] != rel and (rel, node.value) not in ALLOWED):
                    found.append((rel, node.lineno, node.value))
    return found


def test_closed_set_words_are_spelled_only_where_their_enum_is_defined():
    found = _spelled()
    assert not found, "name the enum member instead:\n" + "\n".join(f"{f}:{n}: {w!r}" for f, n, w in found)


def test_every_allowance_is_still_needed():
    """An allow-list entry whose word is gone would let a later literal in unnoticed."""
    used = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            for node in source.nodes(path):
                if isinstance(node, ast.Constant) and (rel, node.value) in ALLOWED:
                    used.add((rel, node.value))
    assert set(ALLOWED) - used == set()
