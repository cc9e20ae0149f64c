"""A key means one thing on every screen: Ctrl+G is "I don't know" while answering in
practice, so the mock's "go back to a question" is Ctrl+R; Help, generated from the bindings, then shows one
meaning per key.  Checked for every key held with Ctrl and every function key, the keys that work while an
answer box has the focus, on every screen and dialog of the app."""

from __future__ import annotations

import importlib
import inspect
from collections import defaultdict

import pytest
from textual.screen import Screen

from drill.app import DrillApp
from drill.screens import SCREEN_PATHS

pytestmark = pytest.mark.functional

# several ids, one meaning: the formula card opens and closes with the same key
SAME = {"key.close": "key.card", "key.mock_hint": "key.hint"}  # one meaning, the words of its place


def _screens() -> set[type]:
    found: set[type] = {DrillApp}
    for module in {path.partition(":")[0] for path in SCREEN_PATHS.values()}:
        m = importlib.import_module(module)
        found |= {c for _, c in inspect.getmembers(m, inspect.isclass) if issubclass(c, Screen) and c.__module__ == module}
    return found


def meanings() -> dict[str, dict[str, list[str]]]:
    """key -> {meaning (the binding's id): [screens where it means that]}."""
    out: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for cls in _screens():
        for b in cls.BINDINGS:
            for key in b.key.split(","):
                out[key.strip()][b.id].append(cls.__name__)
    return out


def test_every_ctrl_and_function_key_means_one_thing_on_every_screen():
    keys = {k: m for k, m in meanings().items() if k.startswith("ctrl+") or (k[:1] == "f" and k[1:].isdigit())}
    assert {"ctrl+g", "ctrl+r", "ctrl+n", "ctrl+f", "ctrl+z", "ctrl+t", "f1", "f2"} <= set(keys)
    mixed = {k: dict(m) for k, m in keys.items() if len({SAME.get(i, i) for i in m}) > 1}
    assert mixed == {}


def test_ctrl_g_is_i_dont_know_and_the_mock_goes_back_with_ctrl_r():
    m = meanings()
    assert set(m["ctrl+g"]) == {"key.dont_know"}
    assert dict(m["ctrl+r"]) == {"key.mock_goto": ["MockRunScreen"]}
