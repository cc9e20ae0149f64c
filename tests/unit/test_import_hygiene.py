"""engine/ and question_bank/ never import textual or drill; number grading never imports sympy; no import
cycle; in drill/, the app (screens, widgets) and the commands meet only in the headless core (drill/core)."""

import ast
import json
import pkgutil
import subprocess
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import NamedTuple

from tests import source

ROOT = Path(__file__).resolve().parents[2]


def _modules(package: str) -> list[str]:
    pkg_path = ROOT / package
    return [package] + [f"{package}.{m.name}" for m in pkgutil.walk_packages([str(pkg_path)])]


def _loaded_after(code: str) -> set[str]:
    script = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_engine_and_bank_never_import_ui_or_drill():
    mods = _modules("engine") + _modules("question_bank")
    loaded = _loaded_after("\n".join(f"import {m}" for m in mods))
    assert {m for m in loaded if m.split(".")[0] in ("textual", "drill", "rich")} == set()


def test_engine_never_imports_question_bank_or_drill():
    loaded = _loaded_after("\n".join(f"import {m}" for m in _modules("engine")))
    assert {m for m in loaded if m.split(".")[0] in ("question_bank", "drill", "textual")} == set()


def test_grading_a_number_does_not_import_sympy():
    loaded = _loaded_after(
        "from engine import formulas, grading\n"
        "v = formulas.get('ridge_point').evaluate(peak_flops=989e12, bandwidth=3.35e12)\n"
        "grading.grade('295', grading.Expected('number', v, 'intensity', 'FLOP/B'))\n"
        "formulas.get('ridge_point').solution(peak_flops=989e12, bandwidth=3.35e12)\n"
    )
    assert "sympy" not in loaded


# --------------------------------------------------------------------------- the import graph has no cycle

PACKAGES = ("engine", "question_bank", "drill")


@cache
def _module_files() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def import_graph() -> dict[str, set[str]]:
    """Each project module -> the project modules it imports anywhere in its text (at the top, inside a
    function, under ``if TYPE_CHECKING``): every arrow a reader has to follow."""
    files = _module_files()
    graph: dict[str, set[str]] = {m: set() for m in files}
    for module, path in files.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in source.nodes(path):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[:len(anchor) - (node.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                # `from pkg import mod` imports the module pkg.mod; `from mod import name` the module mod
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names]
            else:
                continue
            for target in targets:
                while target and target not in files:  # `import a.b.c` of a name inside a module
                    target = target.rpartition(".")[0]
                if target and target != module:
                    graph[module].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected component with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_another_that_imports_it_back():
    graph = import_graph()
    assert {"drill.core.recording", "engine.session", "engine.storage"} <= graph["drill.core.mock"]  # function-level,
    assert "engine.storage" in graph["drill.core.context"]  # under TYPE_CHECKING and relative ones are all seen
    assert "engine.storage.layout" in graph["engine.storage.profile"]
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_cycles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_only_the_entry_point_imports_the_cli():
    """``drill.cli`` loads the commands by name (importlib), an arrow the graph above cannot see: so no
    module under it may import it back (``UsageError`` lives in ``drill.commands``)."""
    graph = import_graph()
    assert sorted(m for m, targets in graph.items() if "drill.cli" in targets) == ["drill.__main__"]


# --------------------------------------------------------------------------- the app and the commands meet only in the core

UI = ("drill.screens", "drill.widgets", "drill.app", "drill.palette", "drill.keybindings")  # the Textual app
COMMANDS = ("drill.commands", "drill.cli", "drill.__main__")  # the command line
CORE = ("drill.core",)  # headless: what both faces need
LAUNCHER = "drill.commands.app"  # the one command that starts the app, importing it inside a function
TEXTUAL = ("textual", "textual_plotext")


class Import(NamedTuple):
    target: str  # the dotted name imported (a module, or a module's attribute)
    line: int
    in_function: bool  # inside a def: run only when called


def _within(name: str, packages: Sequence[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def imports_in(code: str | ast.Module, module: str, is_package: bool = False) -> list[Import]:
    """Every import of ``code`` (the text of ``module``, or its tree), wherever it stands: at the top, inside a function,
    under ``if TYPE_CHECKING`` or ``try``; relative imports resolved against the module's package;
    ``from a import b`` counts as importing ``a.b`` (which may be a module or a name in ``a``)."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                found.extend(Import(a.name, child.lineno, in_function) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")
                    anchor = anchor[:len(anchor) - (child.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                found.extend(Import(f"{base}.{a.name}", child.lineno, in_function) for a in child.names)
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(ast.parse(code) if isinstance(code, str) else code, False)
    return found


@cache
def _drill_imports() -> dict[str, list[Import]]:
    """Each module of drill/ -> its imports (made once: the tests below only read it)."""
    out = {}
    for module, path in _module_files().items():
        if _within(module, ("drill",)):
            out[module] = imports_in(source.tree(path), module, path.name == "__init__.py")
    return out


def _breaches(modules: dict[str, list[Import]], who: Sequence[str], forbidden: Sequence[str],
              allowed=lambda module, imp: False) -> list[str]:
    return [f"{module}:{imp.line} imports {imp.target}" for module, imps in sorted(modules.items())
            if _within(module, who) for imp in imps if _within(imp.target, forbidden) and not allowed(module, imp)]


def test_every_drill_module_is_the_app_a_command_or_the_core():
    stray = [m for m in _drill_imports() if m != "drill" and not _within(m, UI + COMMANDS + CORE)]
    assert stray == [], "a module of drill/ belongs to the app (UI), the command line (COMMANDS) or drill/core"


def test_the_app_never_imports_the_commands():
    assert _breaches(_drill_imports(), UI, ("drill.commands", "drill.cli")) == []


def test_the_commands_never_import_the_app_but_to_start_it():
    def launcher(module: str, imp: Import) -> bool:
        return module == LAUNCHER and imp.in_function and not _within(imp.target, TEXTUAL)

    modules = _drill_imports()
    assert _breaches(modules, COMMANDS, UI + TEXTUAL, launcher) == []
    assert any(_within(i.target, UI) for i in modules[LAUNCHER]), "the launcher starts the app"


def test_only_the_app_imports_textual():
    modules = _drill_imports()
    outside_ui = {m: imps for m, imps in modules.items() if not _within(m, UI)}
    assert _breaches(outside_ui, ("drill",), TEXTUAL) == []
    assert _breaches(modules, CORE, UI + COMMANDS) == []  # the core: neither face
    assert any(_within(i.target, TEXTUAL) for m in modules if _within(m, UI) for i in modules[m])


def test_the_core_and_the_commands_load_no_textual():
    """The rules above read each file; this loads them all (what they import, and what that imports)."""
    modules = [m for m in _module_files() if _within(m, CORE + COMMANDS) and m != "drill.__main__"]
    loaded = _loaded_after("\n".join(f"import {m}" for m in modules))
    assert {m for m in loaded if m.split(".")[0] in TEXTUAL} == set()
    assert {m for m in loaded if _within(m, UI)} == set()


def test_the_import_reader_sees_every_kind_of_import():
    code = ("from __future__ import annotations\nimport os.path\nfrom typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n    from textual.app import App\n"
              "from . import sessions\nfrom ..screens import home\n"
              "def run():\n    from drill.app import DrillApp\n    return DrillApp\n")
    found = imports_in(code, "drill.core.mock")
    assert [(i.target, i.in_function) for i in found] == [
        ("__future__.annotations", False), ("os.path", False), ("typing.TYPE_CHECKING", False),
        ("textual.app.App", False), ("drill.core.sessions", False), ("drill.screens.home", False),
        ("drill.app.DrillApp", True)]
    assert imports_in("from . import x", "drill.core", is_package=True)[0].target == "drill.core.x"
    assert _breaches({"drill.core.mock": found}, CORE, UI + TEXTUAL) == [
        "drill.core.mock:5 imports textual.app.App", "drill.core.mock:7 imports drill.screens.home",
        "drill.core.mock:9 imports drill.app.DrillApp"]
