"""The seeds every template is checked at, and its problems, generated once per process (pytest-xdist worker).

A problem is deterministic from (template, seed) and immutable, so every test that walks the bank reads the same
objects (its worked solutions render once, when a test first reads them): the property, realism, teaching and
text tests, and the unchanged-values test.  ``make test`` runs ``-n 2 --dist loadgroup``: tests/conftest.py puts
every test of one template in one xdist group, so one worker makes that template's problems, once.

The seed set depends on the lane (``--lane``, tests/conftest.py):

* ``full`` (``make test``): seeds 0-40 for every template (the unchanged-values record, seeds 1-40, among them;
  0-59 cost ~20 s more CPU a run, docs/performance.md);
* ``fast`` (``make test-fast``): one seed per template, seed 1;
* ``deep`` (``make test-deep``): seeds 0-199, and the tests marked ``deep`` draw fresh random seeds
  with Hypothesis.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from question_bank import registry
from question_bank.template import Problem

LANES = {"fast": range(1, 2), "full": range(41), "deep": range(200)}
lane = "full"  # set by tests/conftest.py from --lane


def seeds() -> range:
    """The seeds every template is checked at in this lane."""
    return LANES[lane]


def examples(n: int) -> int:
    """Hypothesis examples for a property that draws ``n`` in ``make test``: at most 5 in the fast lane, 4 × ``n``
    in the deep one (where the draws are fresh random ones; tests/conftest.py)."""
    return {"fast": min(n, 5), "full": n, "deep": 4 * n}[lane]


@cache
def problem(template_id: str, seed: int) -> Problem:
    """The problem ``template_id`` gives for ``seed``, generated once per process."""
    return registry.get(template_id).generate(seed)


def each(template_id: str, seeds_: range | None = None) -> Iterator[Problem]:
    """``template_id``'s problem at every seed of the lane (or of ``seeds_``)."""
    for seed in seeds() if seeds_ is None else seeds_:
        yield problem(template_id, seed)


@cache
def template_ids() -> tuple[str, ...]:
    """Every template of the bank, sorted by id."""
    return tuple(sorted(registry.REGISTRY))
