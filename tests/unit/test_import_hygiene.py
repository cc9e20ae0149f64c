"""engine/ and question_bank/ never import textual or drill; number grading never imports sympy."""

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

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
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
    assert {"drill.flow", "engine.session", "engine.storage"} <= graph["drill.commands.mock"]  # function-level,
    assert "engine.storage" in graph["drill.context"]  # under TYPE_CHECKING and relative ones are all seen
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
