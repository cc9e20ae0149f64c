"""FSRS fitted to the learner: the log loss before and after on fixed synthetic learners, and what a fit costs.

* three learners whose forgetting is not FSRS's shape (exponential, tests/fsrs_learner.py): fast (a success
  multiplies the stability by 6), average (4) and weak (2), 150 items over 120 days each; the fitted weights'
  log loss must be below the defaults' on every one (an assertion: a failure fails ``make bench``);
* the time of a fit of the largest log fed to the optimizer (:data:`engine.schedule.fsrs_fit.MAX_REVIEWS`
  examples) and of a retention's simulated workload.
"""

from __future__ import annotations

import time
from datetime import date

from engine.schedule import fsrs_bridge, fsrs_fit
from tests.fsrs_learner import history

LEARNERS = {"fast": 6.0, "average": 4.0, "weak": 2.0}
DAY = date(2026, 6, 1)


def main() -> None:
    for name, growth in LEARNERS.items():
        log = history(11, items=150, days=120, growth=growth)
        fit = fsrs_fit.fit(log, DAY, fsrs_bridge.rating)
        assert isinstance(fit, fsrs_fit.Fit), fit
        print(f"   {name:8} learner, {fit.reviews:5} reviews: log loss {fit.loss_before:.4f} -> {fit.loss_after:.4f}")
        assert fit.loss_after < fit.loss_before, f"the fit does not beat the defaults on the {name} learner"
    log = history(12, items=3000, days=700)
    n = len(fsrs_fit.examples(log, fsrs_bridge.rating, limit=10**9))
    start = time.perf_counter()
    fit = fsrs_fit.fit(log, DAY, fsrs_bridge.rating)
    print(f"   fit of {min(n, fsrs_fit.MAX_REVIEWS)} examples (of {n}): {time.perf_counter() - start:.2f} s")
    start = time.perf_counter()
    for r in (0.80, 0.90, 0.97):
        fsrs_fit.workload(None, r, 200, 5)
    print(f"   workload of a retention (a simulated year): {(time.perf_counter() - start) / 3 * 1000:.0f} ms")
