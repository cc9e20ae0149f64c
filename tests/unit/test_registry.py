"""question_bank.registry: the index says what importing every template says; a template module is imported
when first needed; the index's cache is read only while it matches the sources."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from question_bank import registry

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """The registry's index forgotten, its cache in a temp folder, bytecode (and so the cache) written."""
    monkeypatch.setattr(registry, "INDEX_PATH", tmp_path / "__pycache__" / "index.json")
    monkeypatch.setattr(registry, "_index", None)
    monkeypatch.setattr(registry, "_index_read", False)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return registry.INDEX_PATH


def forget(monkeypatch):
    monkeypatch.setattr(registry, "_index", None)
    monkeypatch.setattr(registry, "_index_read", False)


def test_the_index_says_what_the_templates_say(fresh):
    index = registry.index()
    templates = registry.all_templates()
    assert registry.catalog() == [(t.id, t.topic) for t in templates]
    assert set(index) == {t.id for t in templates}
    for t in templates:
        assert index[t.id] == (t.fn.__module__, t.topic, t.difficulty, t.chain_length), t.id
        assert registry.chain_length(t.id) == t.chain_length


def test_the_cache_is_written_then_read_while_the_sources_are_unchanged(fresh, monkeypatch):
    built = registry.index()
    assert json.loads(fresh.read_text())["templates"] == {i: list(e) for i, e in built.items()}
    forget(monkeypatch)
    monkeypatch.setattr(registry, "build_index", lambda: pytest.fail("the cache was not used"))
    assert registry.index() == built


def test_a_cache_of_other_sources_is_not_used(fresh, monkeypatch):
    built = registry.index()
    data = json.loads(fresh.read_text())
    data["stamps"][0][2] += 1  # a source file modified since
    data["templates"] = {}
    fresh.write_text(json.dumps(data))
    forget(monkeypatch)
    assert registry.index() == built  # built again (and written again)
    assert json.loads(fresh.read_text())["templates"] == {i: list(e) for i, e in built.items()}
    # where bytecode is not written, a stale cache leaves the index empty: everything comes from the templates
    fresh.write_text(json.dumps(data))
    forget(monkeypatch)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert registry.index() == {}
    assert registry.catalog() == [(t.id, t.topic) for t in registry.all_templates()]
    assert registry.chain_length("roofline.chain_batching") == registry.get("roofline.chain_batching").chain_length


def test_unknown_templates_are_refused(fresh):
    with pytest.raises(registry.UnknownTemplate, match="unknown template 'roofline.nope'"):
        registry.get("roofline.nope")


def test_a_template_imports_only_its_own_module(fresh):
    # shared helper modules hold no template: the templates registered are those of the one module imported
    registry.index()  # the cache, in the temp folder
    code = ("import json, sys\nfrom pathlib import Path\nfrom question_bank import registry\n"
            f"registry.INDEX_PATH = Path({str(fresh)!r})\n"
            "first = registry.catalog()[0][0]\n"
            "chains = {i: registry.chain_length(i) for i, _ in registry.catalog()}\n"
            "t = registry.get(first)\n"
            "from question_bank.template import REGISTRY\n"
            "print(json.dumps([t.id, sorted({u.fn.__module__ for u in REGISTRY.values()})]))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    first, loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert first == registry.all_templates()[0].id
    assert loaded == [registry.get(first).fn.__module__]


def test_where_the_cache_cannot_be_kept_no_index_is_built(fresh, monkeypatch):
    monkeypatch.setattr(registry.os, "access", lambda path, mode: False)  # a read-only install
    monkeypatch.setattr(registry, "build_index", lambda: pytest.fail("built an index it cannot keep"))
    assert registry.index() == {} and not fresh.exists()
    assert registry.catalog() == [(t.id, t.topic) for t in registry.all_templates()]
