"""The project's own source files, read and parsed once per process (pytest-xdist worker).

The AST tests (import rules and cycles in tests/unit/test_import_hygiene.py, the kind and language branch counts in
tests/unit/test_branch_counts.py, the inputs declared once in tests/unit/test_formulas_inputs.py) each read every
module of engine/, question_bank/ and drill/; parsing them (~300 files) took about a second a test. A module's tree
and the list of its nodes are kept here, keyed by path, and never modified by a reader.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path


@cache
def text(path: Path) -> str:
    """The text of ``path`` (UTF-8)."""
    return path.read_text(encoding="utf-8")


@cache
def tree(path: Path) -> ast.Module:
    """``path`` parsed (shared: read it, do not change it)."""
    return ast.parse(text(path), str(path))


@cache
def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of ``path``'s tree, in ``ast.walk`` order."""
    return tuple(ast.walk(tree(path)))
