"""The final pass keeps its hard limit on every path: reviews due a day over the last 14 days before the
interview peak at most 1.5x their mean, for a simulated learner answering in the app's session and on paper
(``drill due`` then ``drill check --record``: engine.session.record off the schedule), for interviews 7 to 40
days out, and nothing is due on the interview day.  Short runs here; the comparison of rules over schedulers,
distances and learners is ``make bench`` (benchmarks/bench_learning.py), the whole grid in the deep lane."""

from __future__ import annotations

import pytest

from benchmarks import bench_learning
from engine.schedule import stretch
from engine.schedule.fsrs_bridge import Scheduler
from question_bank import registry

LIMIT = bench_learning.FINAL_LIMIT


@pytest.mark.parametrize("paper", [False, True], ids=["app", "paper"])
def test_the_last_fourteen_days_peak_at_most_one_and_a_half_times_their_mean(paper):
    m = bench_learning.simulate(21, Scheduler.SM2, paper=paper, predict=False)
    assert m["final14_ratio"] <= LIMIT, m["final14"]
    assert m["forced_on_day"] == 0 and m["due_on_day"] == 0


@pytest.mark.parametrize(("days", "paper"), [(11, False), (8, True)], ids=["app-11", "paper-8"])
def test_a_plan_shorter_than_the_stretch_keeps_the_limit_too(days, paper):
    """A plan shorter than the 14 days of the stretch has opening days with nothing yet to review, left out of
    the mean, and the load climbs as new items are met: before the final pass kept room for the misses to come
    and spread reviews due inside the stretch, these two runs read 1.78x and 1.72x."""
    m = bench_learning.simulate(days, Scheduler.FSRS, paper=paper, predict=False)
    assert m["final14_ratio"] <= LIMIT, m["final14"]
    assert m["forced_on_day"] == 0 and m["due_on_day"] == 0


@pytest.mark.deep
@pytest.mark.parametrize("scheduler", list(Scheduler))
@pytest.mark.parametrize("days", bench_learning.LIMIT_DISTANCES)
@pytest.mark.parametrize("paper", [False, True], ids=["app", "paper"])
def test_the_limit_holds_for_every_scheduler_distance_path_and_learner(scheduler, days, paper):
    """The benchmark's grid: interviews 7 to 40 days out, each learner of bench_learning.limit_learners."""
    catalog = [(t.id, t.topic) for t in registry.all_templates()]
    for learner in bench_learning.limit_learners(catalog):
        m = bench_learning.simulate(days, scheduler, learner=learner, paper=paper, predict=False)
        assert m["final14_ratio"] <= LIMIT, (learner.name, m["final14"])
        assert m["due_on_day"] == 0, learner.name


def test_the_rule_in_force_is_one_the_benchmark_compares():
    assert stretch.FINAL_PASS in bench_learning.CANDIDATES and stretch.FINAL_PASS.level is not None
