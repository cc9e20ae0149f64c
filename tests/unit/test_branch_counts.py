"""Kinds and languages are types and tables, not branches.

Adding an answer kind, a unit kind or a language should be one place: the kind's
class (:mod:`engine.kinds`) or the text table (:mod:`engine.messages`).  Every
``kind == "number"`` or ``lang == "zh"`` elsewhere is a place the next kind or
language would have to be taught by hand, so their number is capped here.

What counts, read from the AST of every module of ``engine``, ``question_bank``
and ``drill``:

* a *kind test*: ``==``/``!=``/``in``/``not in`` (or a ``case``) between an
  expression whose text names a kind (``kind``, ``e.kind``, ``exp.unit_kind``)
  and a string literal (or a tuple/list/set of them) that is a kind name: an
  answer kind (``number``, ``choice``, ...), a unit kind (``bytes``, ``count``,
  ...) or a review-card kind (``due``, ``extra``, ...);
* a *language test*: such a comparison (or ``case``) against the literal
  ``"en"`` or ``"zh"``, whatever the other side is.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from engine.grading import ANSWER_KINDS
from engine.session import CARD_KINDS
from engine.units import UNIT_KINDS
from tests import source

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "question_bank", "drill")
# Where kinds and languages are *supposed* to be told apart: the kind classes and the text table (with the
# language list and picker it builds on, engine/langs.py, which the CLI and the app's first frame import alone).
HOMES = {"engine/kinds.py", "engine/messages.py", "engine/langs.py"}

KIND_WORDS = set(ANSWER_KINDS) | set(UNIT_KINDS) | set(CARD_KINDS)  # every kind's name, from its registry
LANG_WORDS = {"en", "zh"}

KIND_MOST = 10
LANG_MOST = 15


def _literals(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return {e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return set()


def _names_kind(node: ast.AST) -> bool:
    return "kind" in ast.unparse(node).lower() and not _literals(node)


def _tests(nodes):
    """(line, side, literals) for every comparison and ``case`` with string literals among ``nodes`` (a tree's,
    in ``ast.walk`` order)."""
    for node in nodes:
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for (a, b), op in zip(zip(operands, operands[1:]), node.ops):
                if isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
                    yield node.lineno, a, _literals(b)
                    yield node.lineno, b, _literals(a)
        elif isinstance(node, ast.Match):
            for case in node.cases:
                for p in ast.walk(case.pattern):
                    if isinstance(p, ast.MatchValue):
                        yield p.lineno, node.subject, _literals(p.value)


@cache
def count_branches() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The kind tests and the language tests outside their homes, as ``path:line`` strings (counted once)."""
    kinds, langs = [], []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in HOMES:
                continue
            seen_kind, seen_lang = set(), set()
            for line, side, lits in _tests(source.nodes(path)):
                if lits & KIND_WORDS and _names_kind(side) and (line, id(side)) not in seen_kind:
                    seen_kind.add((line, id(side)))
                    kinds.append(f"{rel}:{line}")
                if lits & LANG_WORDS and (line, id(side)) not in seen_lang:
                    seen_lang.add((line, id(side)))
                    langs.append(f"{rel}:{line}")
    key = lambda where: (where.split(":")[0], int(where.split(":")[1]))  # noqa: E731
    return tuple(sorted(kinds, key=key)), tuple(sorted(langs, key=key))


def test_kind_tests_live_in_the_kind_classes():
    kinds, _ = count_branches()
    assert len(kinds) <= KIND_MOST, f"{len(kinds)} tests of a kind string outside engine/kinds.py: {kinds}"


def test_language_tests_live_in_the_text_table():
    _, langs = count_branches()
    assert len(langs) <= LANG_MOST, f"{len(langs)} tests of a language code outside the text table: {langs}"


def test_the_counter_sees_what_it_counts():
    """The counter finds each shape it claims to (so a cap it passes is not a blind one)."""
    src = ("if e.kind == 'number': pass\n"
           "if exp.unit_kind in ('bytes', 'bandwidth'): pass\n"
           "x = 1 if lang == 'zh' else 2\n"
           "match card.kind:\n    case 'extra': pass\n"
           "if name == 'number': pass\n")  # not a kind: a variable named otherwise
    found = [(line, bool(lits & KIND_WORDS and _names_kind(side)), bool(lits & LANG_WORDS))
             for line, side, lits in _tests(ast.walk(ast.parse(src))) if lits]
    assert (1, True, False) in found and (2, True, False) in found and (3, False, True) in found
    assert (5, True, False) in found
    assert not any(kind for line, kind, _ in found if line == 6)


if __name__ == "__main__":  # python -m tests.unit.test_branch_counts: the list, for whoever lowers the caps
    kinds, langs = count_branches()
    print(f"kind tests: {len(kinds)}", *kinds, f"\nlanguage tests: {len(langs)}", *langs, sep="\n  ")
