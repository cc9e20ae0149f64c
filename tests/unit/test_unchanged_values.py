"""Expected values of the templates issue #14 (realism) does not change stay what they were on main.

``tests/fixtures/expected_values_main.json`` was recorded from main before that work: every template's
expected value(s) for seeds 0-4.  A template whose scenario the issue redraws is listed in
:data:`CHANGED` with the reason; every other recorded template must give the same values.  A template
added later is not in the fixture and is not compared.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from question_bank import registry

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "expected_values_main.json"
RECORDED = json.loads(FIXTURE.read_text(encoding="utf-8"))

# Templates issue #14 changes on purpose, and why (their values for some seeds differ from main).
CHANGED: dict[str, str] = {}


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=0.0)
    return a == b


@pytest.mark.parametrize("tid", sorted(set(RECORDED["templates"]) - set(CHANGED)))
def test_unchanged_templates_give_the_recorded_values(tid):
    if tid not in registry.REGISTRY:
        pytest.skip(f"{tid} is no longer in the bank")
    t = registry.get(tid)
    for seed, expected in zip(RECORDED["seeds"], RECORDED["templates"][tid]):
        got = [s.expected.value for s in t.generate(seed).steps]
        assert len(got) == len(expected) and all(_same(g, e) for g, e in zip(got, expected)), (
            f"{tid} seed {seed}: expected values {got} differ from main's {expected}; if the change is intended, "
            "list the template in CHANGED with the reason")


def test_changed_templates_are_recorded_ones():
    assert set(CHANGED) <= set(RECORDED["templates"])
