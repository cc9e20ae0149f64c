"""SM-2 in the supermemo2 package's reading of Wozniak 1990."""

import copy
from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.sm2 import EF_FLOOR, MAX_INTERVAL, ItemState, next_ef, overdue_days, review

D0 = date(2026, 1, 1)


NEW = ItemState()


def run(qualities, start=NEW, gap=None):
    """Review on each due date (or ``gap`` days apart); returns the states after each review."""
    out, s, day = [], start, D0
    for q in qualities:
        s = review(s, q, day)
        out.append(s)
        day = s.due if gap is None else day + timedelta(days=gap)
    return out


# --------------------------------------------------------------------------- golden sequences


def test_all_fours_keep_easiness_and_multiply_by_it():
    states = run([4, 4, 4, 4, 4])
    assert [s.interval for s in states] == [1, 6, 15, 38, 95]  # 6*2.5=15, 15*2.5=37.5 -> 38, 38*2.5=95
    assert [s.ef for s in states] == [2.5] * 5
    assert [s.reps for s in states] == [1, 2, 3, 4, 5]


def test_all_fives_use_the_easiness_from_before_the_update():
    states = run([5, 5, 5, 5, 5])
    assert [s.ef for s in states] == [2.6, 2.7, 2.8, 2.9, 3.0]
    # third review: 6 * 2.7 (EF before it) = 16.2 -> 17; then 17 * 2.8 = 47.6 -> 48; 48 * 2.9 = 139.2 -> 140
    assert [s.interval for s in states] == [1, 6, 17, 48, 140]


def test_a_failure_resets_repetitions_and_interval_but_lowers_easiness():
    states = run([5, 5, 2, 4, 4, 4])
    assert [s.ef for s in states] == [2.6, 2.7, 2.38, 2.38, 2.38, 2.38]
    assert [s.interval for s in states] == [1, 6, 1, 1, 6, 15]  # 6 * 2.38 = 14.28 -> 15
    assert [s.reps for s in states] == [1, 2, 0, 1, 2, 3]


def test_quality_three_passes_but_costs_easiness():
    states = run([3, 3, 3])
    assert [s.ef for s in states] == [2.36, 2.22, 2.08]
    assert [s.interval for s in states] == [1, 6, 14]  # 6 * 2.22 = 13.32 -> 14


def test_easiness_is_floored_at_1_3_and_never_capped():
    assert [s.ef for s in run([0, 0, 0])] == [1.7, 1.3, 1.3]
    assert [s.ef for s in run([1, 1, 1, 1])] == [1.96, 1.42, 1.3, 1.3]
    assert run([5] * 30)[-1].ef == pytest.approx(5.5)


def test_easiness_update_table():
    assert [next_ef(2.5, q) for q in range(6)] == [1.7, 1.96, 2.18, 2.36, 2.5, 2.6]


def test_the_interval_is_exact_where_binary_floats_would_round_up():
    # 5 * 2.2 is 11.000000000000002 in binary floating point: a naive ceil gives 12
    s = review(ItemState(ef=2.2, interval=5, reps=2), 4, D0)
    assert s.interval == 11


def test_due_date_is_review_date_plus_interval_and_last_is_the_review_date():
    s = review(ItemState(ef=2.5, interval=6, reps=2, due=D0, last=D0 - timedelta(days=6)), 4, date(2026, 1, 10))
    assert (s.interval, s.due, s.last) == (15, date(2026, 1, 25), date(2026, 1, 10))


def test_late_review_still_multiplies_the_scheduled_interval():
    # reviewed 20 days late: SM-2 uses the previous interval, not the real gap
    s = review(ItemState(ef=2.5, interval=6, reps=2, due=D0), 5, D0 + timedelta(days=20))
    assert s.interval == 15 and s.due == D0 + timedelta(days=35)


def test_intervals_stop_at_a_hundred_years():
    s = run([5] * 40)[-1]
    assert s.interval == MAX_INTERVAL
    assert s.due is not None


def test_bad_quality_is_refused():
    for q in (-1, 6, 2.5, True, "4"):
        with pytest.raises(ValueError):
            review(ItemState(), q, D0)


def test_state_round_trips_through_a_dict():
    s = ItemState(2.36, 6, 2, date(2026, 1, 7), D0)
    assert s.to_dict() == {"ef": 2.36, "interval": 6, "reps": 2, "due": "2026-01-07", "last": "2026-01-01"}
    assert ItemState.from_dict(s.to_dict()) == s
    assert ItemState.from_dict(ItemState().to_dict()) == ItemState()


@pytest.mark.parametrize("bad, word", [
    ({"ef": 1.2}, "ef"), ({"ef": "2.5"}, "ef"), ({"ef": float("nan")}, "ef"), ({"interval": -1}, "interval"),
    ({"reps": 1.5}, "reps"), ({"due": "2026-13-01"}, "due"), ({"last": "20260101"}, "last"),
    ({"colour": 1}, "colour"), ([], "object"),
])
def test_from_dict_names_the_bad_field(bad, word):
    with pytest.raises(ValueError, match=word):
        ItemState.from_dict(bad)


def test_overdue_days():
    s = ItemState(due=D0)
    assert overdue_days(s, D0) == 0
    assert overdue_days(s, D0 + timedelta(days=3)) == 3
    assert overdue_days(s, D0 - timedelta(days=1)) is None
    assert overdue_days(ItemState(), D0) is None


# --------------------------------------------------------------------------- properties

qualities = st.lists(st.integers(0, 5), min_size=1, max_size=40)
gaps = st.integers(0, 400)


@given(qualities, gaps)
def test_easiness_never_falls_below_the_floor(qs, gap):
    assert all(s.ef >= EF_FLOOR for s in run(qs, gap=gap))


@given(qualities, st.integers(4, 5), gaps)
def test_a_good_answer_never_shortens_the_interval(qs, q, gap):
    s = run(qs, gap=gap)[-1]
    assert review(s, q, D0 + timedelta(days=gap)).interval >= s.interval


@given(qualities, st.integers(0, 2), gaps)
def test_a_failed_answer_always_resets(qs, q, gap):
    day = D0 + timedelta(days=gap)
    s = review(run(qs, gap=gap)[-1], q, day)
    assert (s.reps, s.interval, s.due, s.last) == (0, 1, day + timedelta(days=1), day)


@given(qualities, st.integers(0, 5), gaps)
def test_review_never_mutates_its_input(qs, q, gap):
    s = run(qs, gap=gap)[-1]
    snapshot = copy.deepcopy(s.__dict__)
    new = review(s, q, D0 + timedelta(days=gap))
    assert s.__dict__ == snapshot
    assert new is not s


@given(qualities)
def test_easiness_follows_the_formula_and_stays_on_a_two_hundredths_grid(qs):
    ef = 2.5
    for q, s in zip(qs, run(qs)):
        ef = max(1.3, ef + 0.1 - (5 - q) * (0.08 + (5 - q) * 0.02))
        assert s.ef == pytest.approx(ef)
        assert round(s.ef * 100) == pytest.approx(s.ef * 100, abs=1e-9)


@pytest.mark.parametrize("state, field", [
    ({"ef": 2.5, "interval": 0, "reps": 2, "due": "2026-01-02", "last": "2026-01-02"}, "interval"),
    ({"ef": 1.2, "interval": 6, "reps": 2, "due": "2026-01-08", "last": "2026-01-02"}, "ef"),
    ({"ef": 2.5, "interval": 6, "reps": 2, "due": "2026-01-01", "last": "2026-01-02"}, "due"),
])
def test_states_sm2_cannot_produce_are_rejected_naming_the_field(state, field):
    from engine.sm2 import state_problem
    from engine.storage import document_problem

    with pytest.raises(ValueError, match=field):
        ItemState.from_dict(state)
    assert field in state_problem(state)
    doc = {"format": "infra-drill-profile", "schema": 1, "profile": "p", "settings": {}, "reviews": [], "mocks": [],
           "states": {"roofline.ridge_point": state}}
    problem = document_problem(doc)
    assert problem.startswith("states['roofline.ridge_point']: ") and field in problem
    assert state_problem({"ef": 2.5, "interval": 1, "reps": 0, "due": "2026-01-03", "last": "2026-01-02"}) is None
