"""The formula catalogue loads a topic module when one of its formulas is first asked for,
through a cached index, and lists the catalogue in the same order whatever was loaded first."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys

import engine.formulas as formulas
from engine.formulas import registry

ROOT = registry.FOLDER.parents[1]


def fresh(code: str) -> dict:
    """Run ``code`` (which prints one JSON value) in a new interpreter, bytecode and caches allowed."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_one_formula_imports_only_its_topic_module_and_the_order_does_not_depend_on_it():
    late = next(f.name for f in reversed(formulas.CATALOGUE) if registry.index()[f.name] == "serving")
    # an interpreter that finds the cached index stale builds it by importing every topic: one writes it first
    # (this one may not: PYTHONDONTWRITEBYTECODE), then another looks
    fresh("from engine.formulas import registry; registry.index(); print(1)")
    seen = fresh(
        "import json, sys\n"
        "from engine.formulas import registry; registry.index()\n"  # read from the cache just written
        "import engine.formulas as f\n"
        "before = sorted(m for m in sys.modules if m.startswith('engine.formulas.'))\n"
        f"f.get({late!r})\n"
        "after = sorted(m for m in sys.modules if m.startswith('engine.formulas.'))\n"
        "print(json.dumps({'before': before, 'after': after, 'order': [x.name for x in f.CATALOGUE]}))")
    topics = {f"engine.formulas.{t}" for t in registry.TOPICS}
    assert topics & set(seen["before"]) <= {"engine.formulas.roofline"}  # (the package re-exports its helpers)
    assert set(seen["after"]) - set(seen["before"]) == {"engine.formulas.serving"}
    assert seen["order"] == [f.name for f in formulas.CATALOGUE]


def test_the_index_names_every_formula_and_is_rebuilt_when_a_topic_changes(tmp_path, monkeypatch):
    assert set(registry.index()) == set(formulas.FORMULAS)
    assert {registry.index()[f.name] for f in formulas.CATALOGUE} == set(registry.TOPICS)
    index = tmp_path / "__pycache__" / "formula-index.marshal"
    monkeypatch.setattr(registry, "INDEX", index)
    monkeypatch.setattr(registry, "_index", None)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    built = registry.index()
    assert marshal.loads(index.read_bytes())["index"] == built
    # a stale cache (a topic module edited since) is not believed: the index is built again
    stale = marshal.loads(index.read_bytes())
    stale["stamps"][2][2] += 1
    stale["index"] = {"ridge_point": "memory"}
    index.write_bytes(marshal.dumps(stale))
    monkeypatch.setattr(registry, "_index", None)
    assert registry.index() == built
    # a damaged one neither
    index.write_bytes(b"\x00garbage")
    monkeypatch.setattr(registry, "_index", None)
    assert registry.index() == built


def test_an_unknown_name_still_suggests_the_nearest():
    import pytest

    with pytest.raises(formulas.FormulaError, match="ridge_point"):
        formulas.get("ridge_pont")
