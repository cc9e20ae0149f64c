"""The source tree's shape: files small enough to read, named for what they hold, private names kept private.

A module over 700 lines holds more than one subject; a file named for a part, a round or a fix says when it was
written rather than what it holds; a leading underscore promises that only its own module relies on a name, so
another module reaching for it (imported, or read as ``module._name``) ties the two together without saying so.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests import source

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "question_bank", "drill")
MAX_LINES = 700

# A name that says when or in which batch of work a file was written, not what it holds.
DATED_NAME = re.compile(r"parts?\d|(^|_)rounds?(\d|_|$)|(^|_)fix(es|ed)?(_|$)|20\d\d|_new(_|$)|_v\d|standards"
                        r"|_old(_|$)")


def _files(*tops: str) -> list[Path]:
    return sorted(p for top in tops for p in (ROOT / top).rglob("*.py") if "__pycache__" not in p.parts)


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(dotted: str) -> bool:
    """Whether ``dotted`` names one of the project's modules or packages."""
    if dotted.split(".")[0] not in PACKAGES:
        return False
    base = ROOT.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _absolute(module: str | None, level: int, here: Path) -> str:
    """The absolute dotted name of ``from <level dots><module> import ...`` written in ``here``."""
    if not level:
        return module or ""
    package = _module_name(here).split(".")
    if here.name != "__init__.py":
        package.pop()
    package = package[: len(package) - (level - 1)]
    return ".".join(package + ([module] if module else []))


def _private_uses(path: Path) -> list[str]:
    """Every place ``path`` imports another project module's ``_name`` or reads ``module._name``."""
    own = _module_name(path)
    found: list[str] = []
    bound: dict[str, str] = {}  # a local name -> the project module it is bound to
    for node in source.nodes(path):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_module(alias.name):
                    if alias.asname:
                        bound[alias.asname] = alias.name
                    else:
                        head = alias.name.split(".")[0]
                        bound[head] = head
        elif isinstance(node, ast.ImportFrom):
            origin = _absolute(node.module, node.level, path)
            if not _is_module(origin):
                continue
            for alias in node.names:
                if _is_private(alias.name) and origin != own:
                    found.append(f"{_rel(path)}:{node.lineno} imports {alias.name} from {origin}")
                if _is_module(f"{origin}.{alias.name}"):
                    bound[alias.asname or alias.name] = f"{origin}.{alias.name}"
    for node in source.nodes(path):
        if not (isinstance(node, ast.Attribute) and _is_private(node.attr)):
            continue
        chain: list[str] = []
        value: ast.AST = node.value
        while isinstance(value, ast.Attribute):
            chain.append(value.attr)
            value = value.value
        if not isinstance(value, ast.Name) or value.id not in bound:
            continue
        dotted = ".".join([bound[value.id], *reversed(chain)])
        if _is_module(dotted) and dotted != own:
            found.append(f"{_rel(path)}:{node.lineno} reads {dotted}.{node.attr}")
    return found


def test_no_source_file_is_over_700_lines():
    long = [f"{_rel(p)}: {n} lines" for p in _files(*PACKAGES) if (n := len(source.text(p).splitlines())) > MAX_LINES]
    assert long == [], f"split these by subject (at most {MAX_LINES} lines each):\n" + "\n".join(long)


def test_no_file_is_named_for_a_part_round_fix_or_year():
    dated = [_rel(p) for p in _files(*PACKAGES, "tests", "benchmarks") if DATED_NAME.search(p.stem)]
    assert dated == [], "name these for what they hold:\n" + "\n".join(dated)


def test_no_module_uses_another_modules_private_name():
    uses = [use for p in _files(*PACKAGES) for use in _private_uses(p)]
    assert uses == [], "make these public or move them where they are used:\n" + "\n".join(uses)
