"""The app uses only Textual's public API: no ``textual._module``, no ``_name`` imported from textual, and no
``_attribute`` that Textual defines read or written from our code.

A private name can change in any release; keeping off them is what lets pyproject.toml allow every Textual 8.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable
from pathlib import Path

import textual

from tests import source

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("drill", "tests")
STDLIB = frozenset(("os", "sys"))  # os._exit, sys._getframe: Python's own, which Textual happens to call too


def _touches_textual(path: Path) -> bool:
    """The app's code, and any test that imports textual or drives the app (its objects are Textual's)."""
    if path.relative_to(ROOT).parts[0] == "drill":
        return True
    return any((isinstance(n, ast.ImportFrom) and (n.module or "").startswith(("textual", "drill.app", "drill.screens",
                                                                                "drill.widgets", "tests.functional.app")))
               or (isinstance(n, ast.Import) and any(a.name.startswith("textual") for a in n.names))
               for n in source.nodes(path))


def _private_names(nodes: Iterable[ast.AST]) -> set[str]:
    """Every ``_name`` (not a dunder) a module defines: functions, classes, ``self._x`` and plain assignments."""
    out: set[str] = set()
    for node in nodes:
        name = None
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = node.name
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            name = node.attr
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            name = node.id
        if name and name.startswith("_") and not name.startswith("__"):
            out.add(name)
    return out


@functools.cache
def _textuals() -> frozenset[str]:
    names: set[str] = set()
    for path in Path(textual.__file__).parent.rglob("*.py"):
        names |= _private_names(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
    return frozenset(names)


def _ours() -> list[Path]:
    """Our files, parsed once per process (tests/source.py: their nodes) for both scans and the other AST tests."""
    return [p for d in SCANNED for p in sorted((ROOT / d).rglob("*.py"))]


def test_no_private_textual_module_or_name_is_imported():
    found = []
    for path in _ours():
        for node in source.nodes(path):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "textual":
                if any(part.startswith("_") for part in node.module.split(".")):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: from {node.module}")
                found += [f"{path.relative_to(ROOT)}:{node.lineno}: {a.name}" for a in node.names
                          if a.name.startswith("_")]
            elif isinstance(node, ast.Import):
                found += [f"{path.relative_to(ROOT)}:{node.lineno}: import {a.name}" for a in node.names
                          if a.name.split(".")[0] == "textual" and any(p.startswith("_") for p in a.name.split("."))]
    assert not found, "\n".join(found)


def test_no_private_attribute_of_textual_is_used():
    """An ``_attribute`` Textual defines and our code does not (so it is Textual's, on a Textual object)."""
    paths = _ours()
    ours: set[str] = set()
    for path in paths:
        ours |= _private_names(source.nodes(path))
    theirs = _textuals() - ours
    found = [f"{path.relative_to(ROOT)}:{node.lineno}: .{node.attr}"
             for path in paths if _touches_textual(path) for node in source.nodes(path)
             if isinstance(node, ast.Attribute) and node.attr in theirs
             and not (isinstance(node.value, ast.Name) and node.value.id in STDLIB)]
    assert not found, "Textual's private names, which any release may change:\n" + "\n".join(found)


def test_the_scan_sees_a_private_name():
    tree = ast.parse("screen._bindings\nclass A:\n    def _mine(self):\n        self._x = 1\n")
    assert {"_mine", "_x"} <= _private_names(ast.walk(tree)) and "_bindings" in _textuals()
