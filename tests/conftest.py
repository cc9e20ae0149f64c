"""The suite's lanes and Hypothesis profiles.

* ``--lane full`` (default; ``make test``): every test but those marked ``deep``; every template at seeds 0-40;
  Hypothesis draws the same examples every run (``derandomize``: a failure is reproduced by running it again).
* ``--lane fast`` (``make test-fast``: tests/unit only): every template at one seed (tests/problems.py), at most
  5 Hypothesis examples a property (:func:`tests.problems.examples`), the same every run; the tests marked
  ``sweep`` (a fault at every write point, a proof killed at its time limit) are left to ``make test``.
* ``--lane deep`` (``make test-deep``): the tests marked ``deep``, the template sweeps (every test parametrized
  by a template id) at seeds 0-199 and every Hypothesis property with fresh random examples, 4 × as many.

Every test parametrized by a template id (``tid``) joins that template's xdist group, so under
``--dist loadgroup`` one worker makes each template's problems once (tests/problems.py shares them).
"""

import gc

import pytest
from hypothesis import HealthCheck, settings

from tests import problems
from tests.unit.storage_support import small_segments  # noqa: F401 (a fixture: review logs cut into 3-row segments)

# The lane's profile; a property's own @settings(max_examples=problems.examples(n)) sets its count.
_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fast", max_examples=5, derandomize=True, database=None, **_COMMON)
settings.register_profile("full", max_examples=60, derandomize=True, database=None, **_COMMON)
settings.register_profile("deep", max_examples=240, **_COMMON)
settings.load_profile("full")

LANES = tuple(problems.LANES)
GC_THRESHOLDS = (100_000, 50, 100)  # Python's: (700, 10, 10)


def pytest_addoption(parser):
    parser.addoption("--lane", choices=LANES, default="full",
                     help="full: the whole suite, every template at 41 seeds (make test); fast: one seed per template "
                          "(make test-fast); deep: only the tests marked deep, fresh random seeds (make test-deep)")


def pytest_configure(config):  # before the test modules are imported: their @settings read the lane
    problems.lane = config.getoption("--lane")
    settings.load_profile(problems.lane)
    config.addinivalue_line("markers", "sweep: a long sweep (every write point, a subprocess past its time limit): "
                                       "in make test, left out of make test-fast")
    config.addinivalue_line("markers", "deep: the slow lane: fresh random seeds (Hypothesis) and long sweeps; run by "
                                       "make test-deep (--lane deep), left out otherwise")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config, items):
    deep, fast = problems.lane == "deep", problems.lane == "fast"
    keep, drop = [], []
    for item in items:
        tid = item.callspec.params.get("tid") if hasattr(item, "callspec") else None
        if isinstance(tid, str):
            item.add_marker(pytest.mark.xdist_group(tid))
        marked = item.get_closest_marker("deep") is not None
        wanted = (marked or tid is not None) if deep else not marked
        if fast and item.get_closest_marker("sweep") is not None:
            wanted = False
        (keep if wanted else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_collection_finish(session):
    """What collection made (the modules, the bank, the catalogues, ~7,000 test items) lives as long as the process:
    kept out of every later garbage collection (``gc.freeze``, as ``drill`` does after its first frame), and the
    collector runs less often (GC_THRESHOLDS), so it does not rescan the shared problems (tests/problems.py) and
    test items dozens of times (that took ~10 % of a worker's CPU; docs/performance.md). Only when the collector
    runs changes: the tests make the same objects and check the same things."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


@pytest.fixture
def terminal(monkeypatch):
    """Standard input and output count as a terminal, so ``drill``, ``drill practice``, ``drill mock`` and
    ``drill stats`` open the app in this process (a test then replaces ``DrillApp.run``, or the profile stops
    it first); without a terminal they refuse (drill.commands.app.in_terminal)."""
    monkeypatch.setattr("drill.commands.app.in_terminal", lambda: True)
