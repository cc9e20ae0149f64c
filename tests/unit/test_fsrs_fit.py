"""FSRS fitted to the learner: weights fitted on a synthetic learner's log predict it better than the defaults,
the same log gives the same weights and due dates, the library's minimum, the desired retention's bounds, and
the scheduler using the profile's weights and retention."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest

from drill.core import fsrs_tuning, sessions, settings
from engine.schedule import fsrs_bridge, fsrs_fit
from engine.schedule.fsrs_bridge import Scheduler, Tuning
from engine.session import review_row
from engine.storage import Profile
from tests.fsrs_learner import history

DAY = date(2026, 3, 10)


@pytest.fixture(scope="module")
def log():
    return history(1)


@pytest.fixture(scope="module")
def fitted(log):
    return fsrs_fit.fit(log, DAY, fsrs_bridge.rating)


def due_dates(log, tuning: Tuning) -> dict[str, date]:
    out = {}
    for item, reviews in log.items():
        memory = fsrs_bridge.replay(reviews, tuning)
        assert memory is not None
        out[item] = memory.last + timedelta(days=memory.interval)
    return out


def test_fitted_weights_predict_the_synthetic_learner_better_than_the_defaults(log, fitted):
    assert isinstance(fitted, fsrs_fit.Fit) and fitted.kept
    assert fitted.reviews == len(fsrs_fit.examples(log, fsrs_bridge.rating)) >= fsrs_fit.MIN_REVIEWS
    assert fitted.loss_after < fitted.loss_before
    assert fitted.loss_before == pytest.approx(fsrs_fit.log_loss(fsrs_fit.default_weights(),
                                                                 fsrs_fit.examples(log, fsrs_bridge.rating)))
    assert len(fitted.weights) == fsrs_fit.WEIGHTS and fitted.weights != fsrs_fit.default_weights()


@pytest.mark.deep
@pytest.mark.parametrize("seed", range(2, 8))
@pytest.mark.parametrize("growth", [2.0, 4.0, 6.0])
def test_the_fit_beats_the_defaults_on_other_learners(seed, growth):
    fit = fsrs_fit.fit(history(seed, items=80, days=90, growth=growth), DAY, fsrs_bridge.rating)
    assert isinstance(fit, fsrs_fit.Fit) and fit.loss_after < fit.loss_before


def test_the_same_log_gives_the_same_weights_and_due_dates(log, fitted):
    again = fsrs_fit.fit(history(1), DAY, fsrs_bridge.rating)
    assert again == fitted
    tuned = Tuning(fitted.weights)
    assert due_dates(log, tuned) == due_dates(history(1), Tuning(again.weights))
    assert due_dates(log, tuned) != due_dates(log, fsrs_bridge.DEFAULT)  # the fitted weights move due dates


def test_weights_that_do_not_beat_the_ones_in_use_are_not_adopted(log, fitted):
    # fitting the same log again, with its fit in use: the same weights again, no lower loss, not adopted
    refit = fsrs_fit.fit(log, DAY, fsrs_bridge.rating, current=fitted.weights)
    assert isinstance(refit, fsrs_fit.Fit) and not refit.kept and refit.weights == fitted.weights
    assert refit.loss_before == refit.loss_after == fitted.loss_after
    assert "no better than the weights in use" in fsrs_tuning.result_line(refit, "en")


def test_below_the_library_minimum_the_fit_says_how_many_more_are_needed():
    few = fsrs_fit.fit(history(1, items=5, days=20), DAY, fsrs_bridge.rating)
    assert isinstance(few, fsrs_fit.TooFew)
    assert 0 < few.have < fsrs_fit.MIN_REVIEWS and few.more == fsrs_fit.MIN_REVIEWS - few.have
    line = fsrs_tuning.result_line(few, "en")
    assert f"{few.have} of the {fsrs_fit.MIN_REVIEWS}" in line and f"{few.more} more" in line
    assert f"还差 {few.more} 次" in fsrs_tuning.result_line(few, "zh")


def test_the_examples_are_bounded_and_the_newest_kept(log):
    every = fsrs_fit.examples(log, fsrs_bridge.rating)
    newest = fsrs_fit.examples(log, fsrs_bridge.rating, limit=50)
    assert len(newest) == 50
    assert [len(i.reviews) for i in newest] == [len(i.reviews) for i in every[-50:]]


@pytest.mark.parametrize("text, ok", [("0.80", True), ("0.97", True), ("0.9", True), ("0.79", False),
                                      ("0.975", False), ("1", False), ("90%", False), ("nan", False), ("", False)])
def test_the_desired_retention_is_refused_outside_its_bounds(text, ok):
    value, problem = settings.parse_setting(settings.RETENTION_KEY, text, DAY)
    assert (problem is None) == ok and (problem == "settings.bad_retention") == (not ok)
    assert (fsrs_fit.retention_problem(value) is None) == ok
    if not ok:
        with pytest.raises(ValueError, match="0.80 to 0.97"):
            fsrs_fit.workload(None, 0.5 if value is None else value)


def test_a_higher_retention_costs_more_reviews_and_shorter_intervals():
    low, high = fsrs_fit.workload(None, 0.80), fsrs_fit.workload(None, 0.97)
    assert 0 < low < high and fsrs_fit.workload(None, 0.80) == low  # seeded: the same figure each time
    first = [(DAY, 4), (DAY + timedelta(days=3), 4)]
    loose, tight = fsrs_bridge.replay(first, Tuning(None, 0.80)), fsrs_bridge.replay(first, Tuning(None, 0.97))
    assert loose is not None and tight is not None and tight.interval < loose.interval


def test_a_stored_fit_is_checked_and_read_back(fitted):
    stored = fitted.to_setting()
    assert fsrs_fit.setting_problem("fsrs_weights", stored) is None
    back = fsrs_fit.from_setting(stored)
    assert back is not None and back.day == DAY and back.reviews == fitted.reviews
    assert back.weights == fitted.weights  # what is read back is what was fitted: the same due dates
    too_high = [*stored["weights"][:-1], 0.800001]  # the last weight's bound is 0.8: the scheduler refuses more
    for bad in ({**stored, "weights": stored["weights"][:5]}, {**stored, "weights": too_high},
                {**stored, "date": "soon"}, {**stored, "reviews": -1},
                {**stored, "loss_after": "low"}, {"weights": stored["weights"]}, [1, 2]):
        assert fsrs_fit.setting_problem("fsrs_weights", bad) is not None
        assert fsrs_fit.from_setting(bad) is None


def test_the_profile_schedules_by_its_fitted_weights_and_retention(tmp_path, fitted, log):
    p = Profile.open(tmp_path)
    try:
        with pytest.raises(ValueError):
            p.set_setting(settings.RETENTION_KEY, 0.99)
        assert settings.rules_of(p).tuning == fsrs_bridge.DEFAULT  # nothing fitted: the defaults
        p.set_settings({settings.SCHEDULER_KEY: Scheduler.FSRS, settings.FSRS_WEIGHTS_KEY: fitted.to_setting(),
                        settings.RETENTION_KEY: 0.85})
        tuning = settings.rules_of(p).tuning
        assert tuning == Tuning(fitted.weights, 0.85)
        item, reviews = next(iter(log.items()))
        memory = fsrs_bridge.replay(reviews[:-1], tuning)
        day, quality = reviews[-1]
        row = review_row(item=item, topic="roofline", seed=1, quality=quality, verdict="correct", today=day,
                         when=datetime.combine(day, time(12), UTC), state=None, schedule=True,
                         scheduler=Scheduler.FSRS, memory=memory, tuning=tuning)
        state, _ = fsrs_bridge.review(None, memory, quality, day, tuning=tuning)
        assert row.after is not None and row.after["due"] == state.due.isoformat()
        assert sessions.memory_source(p, Scheduler.FSRS) is not None
    finally:
        p.close()
