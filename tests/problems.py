"""Problems shared by the tests of one process (a pytest-xdist worker): each (template, seed) is generated once.

A problem is deterministic from (template, seed) and immutable, so every test that walks the bank reads the same
objects: the unchanged-values test (tests/unit/test_unchanged_values.py) and the property tests.
"""

from __future__ import annotations

from functools import cache

from question_bank import registry
from question_bank.base import Problem


@cache
def problem(template_id: str, seed: int) -> Problem:
    """The problem ``template_id`` gives for ``seed``, generated once per process."""
    return registry.get(template_id).generate(seed)


@cache
def template_ids() -> tuple[str, ...]:
    """Every template of the bank, sorted by id."""
    return tuple(sorted(registry.REGISTRY))
