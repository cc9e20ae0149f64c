"""Mock-interview speed: what the setup screen and the end of a mock cost.

* weakness figures from a 100,000-review history (read once when the setup opens),
* planning a 40-question mock from the real bank (redone on every keystroke of the setup),
* generating its problems and starting the clock,
* scoring it and building the report (when the time runs out).
"""

from __future__ import annotations

import random
import time

from drill.core.mock import begin_run, candidates, make_plan
from engine.mock import MockSettings, weakness_of_answers
from engine.mock_report import build_report


def _best(fn, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    rng = random.Random(0)
    ids = [c.template_id for c in candidates()]
    answers = [(rng.choice(ids), rng.randint(0, 5)) for _ in range(100_000)]  # as drill.core.mock.weakness_of reads
    t = _best(lambda: weakness_of_answers(answers), 3)
    print(f"   weakness figures, 100,000 reviews: {t * 1000:.0f} ms")
    weakness = weakness_of_answers(answers)

    settings = MockSettings(questions=40, seed=1)
    candidates()  # the bank's chain lengths are computed once per process
    t = _best(lambda: make_plan(settings, weakness=weakness))
    print(f"   plan a 40-question mock: {t * 1000:.1f} ms")
    t = _best(lambda: make_plan(MockSettings(minutes=30, seed=2), weakness=weakness))
    print(f"   plan a 30-minute mock: {t * 1000:.1f} ms")

    plan = make_plan(settings, weakness=weakness)
    t = _best(lambda: begin_run(plan, 0.0), 3)
    print(f"   generate its problems and start: {t * 1000:.0f} ms")

    def score() -> None:
        run, problems = begin_run(plan, 0.0)
        for i, slot in enumerate(run.slots):
            if run.finished:
                break
            run.answer(slot.expected.display, 10.0 * (i + 1))
        run.finish(10_000.0)
        build_report(run)

    t = _best(score, 3)
    print(f"   answer every box and build the report: {t * 1000:.0f} ms")
