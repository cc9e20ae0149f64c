"""The final pass keeps its hard limit on every path: reviews due a day over the last 14 days before the
interview peak at most 1.5x their mean, for a simulated learner answering in the app's session and on paper
(``drill due`` then ``drill check --record``: engine.session.record off the schedule), and nothing is due on
the interview day.  One short run here; the comparison of rules over schedulers, distances and learners is
``make bench`` (benchmarks/bench_learning.py), the longer runs in the deep lane."""

from __future__ import annotations

import pytest

from benchmarks import bench_learning, learners
from engine.schedule import stretch
from engine.schedule.fsrs_bridge import Scheduler
from question_bank import registry

LIMIT = bench_learning.FINAL_LIMIT


@pytest.mark.parametrize("paper", [False, True], ids=["app", "paper"])
def test_the_last_fourteen_days_peak_at_most_one_and_a_half_times_their_mean(paper):
    m = bench_learning.simulate(21, Scheduler.SM2, paper=paper, predict=False)
    assert m["final14_ratio"] <= LIMIT, m["final14"]
    assert m["forced_on_day"] == 0 and m["due_on_day"] == 0


@pytest.mark.deep
@pytest.mark.parametrize("scheduler", list(Scheduler))
@pytest.mark.parametrize("days", bench_learning.LIMIT_DISTANCES)
@pytest.mark.parametrize("paper", [False, True], ids=["app", "paper"])
def test_the_limit_holds_for_every_scheduler_distance_path_and_learner(scheduler, days, paper):
    """The benchmark's grid (an interview nearer than three weeks is ramp-limited: new items are still met
    through most of the stretch, so the load climbs from its first day whatever the rule; docs/scheduling.md)."""
    catalog = [(t.id, t.topic) for t in registry.all_templates()]
    for learner in (learners.ModelForm(catalog, 11), learners.PowerLaw(catalog, 111, "average", 0.3, 2.2, 0.5)):
        m = bench_learning.simulate(days, scheduler, learner=learner, paper=paper, predict=False)
        assert m["final14_ratio"] <= LIMIT, (learner.name, m["final14"])
        assert m["due_on_day"] == 0, learner.name


def test_the_rule_in_force_is_one_the_benchmark_compares():
    assert stretch.FINAL_PASS in bench_learning.CANDIDATES and stretch.FINAL_PASS.level is not None
