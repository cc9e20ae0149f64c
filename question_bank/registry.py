"""All templates: each template module is imported when one of its templates is first needed.

``get(id)`` imports the one module that defines ``id``; :func:`all_templates` and ``REGISTRY``
import every module.  What today's session needs of the whole bank - the bank's order, each
template's topic and whether it is a chain (:func:`catalog`, :func:`chain_length`) - comes from
a small index, so ``drill practice`` imports only the modules of the problems it shows instead
of all of them, and generates no problem just to count a chain's steps
(benchmarks/bench_startup.py).

The index is a cache (``templates/__pycache__/index.json``), rebuilt by importing every module
and generating each template once.  It is used only while every ``.py`` file of
``question_bank`` and ``engine`` has the size and modification time it was built from, and is
built and written only where Python writes its bytecode (not under ``PYTHONDONTWRITEBYTECODE``
nor in a read-only install).  Without a usable index everything is read from the templates
themselves.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import sys
from pathlib import Path

from engine.records import NamedTuple

from . import templates as _templates_pkg
from .template import REGISTRY as _REGISTRY
from .template import Template
from .topics import TOPICS

_HERE = Path(__file__).resolve().parent
# The files the index is built from: a change to any of them means it must be built again.
_SOURCE_DIRS = (_HERE, _HERE / "templates", *sorted(p.parent for p in (_HERE / "templates").glob("*/__init__.py")),
                _HERE.parent / "engine", _HERE.parent / "engine" / "formulas")
INDEX_PATH = _HERE / "templates" / "__pycache__" / "index.json"
INDEX_VERSION = 1


class UnknownTemplate(KeyError):
    def __str__(self) -> str:  # KeyError quotes its message otherwise
        return self.args[0]


class Entry(NamedTuple):
    """What the index knows of a template without importing it."""

    module: str  # the module whose import registers it
    topic: str
    difficulty: int
    chain_length: int


_all_loaded = False
_index: dict[str, Entry] | None = None
_index_read = False


def load_all() -> None:
    """Import every template module, topic packages' modules included (registering every template)."""
    global _all_loaded
    if _all_loaded:
        return
    import pkgutil

    for m in pkgutil.walk_packages(_templates_pkg.__path__, f"{_templates_pkg.__name__}."):
        importlib.import_module(m.name)
    _all_loaded = True


def __getattr__(name: str):
    if name == "REGISTRY":  # every template by id: the whole bank, imported
        load_all()
        return _REGISTRY
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get(template_id: str) -> Template:
    t = _REGISTRY.get(template_id)
    if t is None:
        entry = index().get(template_id)
        if entry is not None:
            importlib.import_module(entry.module)
            t = _REGISTRY.get(template_id)
        if t is None:
            load_all()
            t = _REGISTRY.get(template_id)
    if t is None:
        raise UnknownTemplate(f"unknown template {template_id!r} (see `drill templates`)")
    return t


def _order(topic: str, difficulty: int, template_id: str) -> tuple:
    return TOPICS.index(topic), difficulty, template_id


def all_templates() -> list[Template]:
    """Every template, topic by topic (in TOPICS order), then by difficulty and id."""
    load_all()
    return sorted(_REGISTRY.values(), key=lambda t: _order(t.topic, t.difficulty, t.id))


def catalog() -> list[tuple[str, str]]:
    """The bank as ``(id, topic)`` pairs in the order of :func:`all_templates`, without importing it when the
    index is usable."""
    entries = index()
    if not entries:
        return [(t.id, t.topic) for t in all_templates()]
    ids = sorted(entries, key=lambda i: _order(entries[i].topic, entries[i].difficulty, i))
    return [(i, entries[i].topic) for i in ids]


def chain_length(template_id: str) -> int:
    """Steps of the template's problems (:attr:`Template.chain_length`)."""
    entry = index().get(template_id)
    return entry.chain_length if entry is not None else get(template_id).chain_length


# --------------------------------------------------------------------------- #
# The index (see the module docstring)


def _stamps() -> list[list]:
    """Name, size and modification time of every file the index depends on."""
    out = []
    for folder in _SOURCE_DIRS:
        with os.scandir(folder) as it:
            for e in it:
                if e.name.endswith(".py"):
                    st = e.stat()
                    out.append([f"{folder.relative_to(_HERE.parent).as_posix()}/{e.name}", st.st_size, st.st_mtime_ns])
    return sorted(out)


def build_index() -> dict[str, Entry]:
    """The index, from the templates themselves (imports every module, generates every template once)."""
    load_all()
    return {t.id: Entry(t.fn.__module__, t.topic, t.difficulty, t.chain_length) for t in _REGISTRY.values()}


def index() -> dict[str, Entry]:
    """The index: read from its cache when that is up to date, else built and cached where bytecode may be
    written; empty when it is neither (callers then read the templates)."""
    global _index, _index_read
    if _index_read:
        return _index or {}
    _index_read = True
    stamps = _stamps()  # before building: a file changed meanwhile makes the new cache stale, not wrong
    try:
        data = json.loads(INDEX_PATH.read_text(encoding="utf-8"))
        if data["version"] == INDEX_VERSION and data["stamps"] == stamps:
            _index = {i: Entry(*e) for i, e in data["templates"].items()}
            return _index
    except (OSError, ValueError, KeyError, TypeError):
        pass
    folder = INDEX_PATH.parent if INDEX_PATH.parent.exists() else INDEX_PATH.parent.parent
    if sys.dont_write_bytecode or not os.access(folder, os.W_OK):
        return {}  # it could not be kept: building it (every template generated) costs more than it saves once
    _index = build_index()
    tmp = INDEX_PATH.with_name(f"{INDEX_PATH.name}.{os.getpid()}.tmp")
    try:
        INDEX_PATH.parent.mkdir(exist_ok=True)
        tmp.write_text(json.dumps({"version": INDEX_VERSION, "stamps": stamps,
                                   "templates": {i: list(e) for i, e in _index.items()}}), encoding="utf-8")
        os.replace(tmp, INDEX_PATH)  # atomic: another process reads the old index or the new one
    except OSError:  # a read-only install: the index serves this process only
        with contextlib.suppress(OSError):
            tmp.unlink()
    return _index
