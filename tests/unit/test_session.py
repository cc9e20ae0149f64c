"""engine.session: the day's queue, new-item limit, same-day re-drill, undo, extra practice."""

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import session as se
from engine.review import Review
from engine.sm2 import ItemState, review

TODAY = date(2026, 11, 29)
WHEN = datetime(2026, 11, 29, 15, 42, 1, tzinfo=UTC)
CATALOG = [("r1", "roofline"), ("r2", "roofline"), ("r3", "roofline"), ("m1", "memory"), ("m2", "memory"),
           ("m3", "memory"), ("c1", "communication"), ("c2", "communication")]


def due_on(day, ef=2.5, interval=6, reps=2):
    return ItemState(ef, interval, reps, day, day - timedelta(days=interval))


def test_due_items_come_most_overdue_first_then_in_bank_order():
    states = {"m1": due_on(TODAY), "r2": due_on(TODAY - timedelta(days=3)), "c1": due_on(TODAY - timedelta(days=3)),
              "r1": due_on(TODAY + timedelta(days=1)), "gone": due_on(TODAY - timedelta(days=9))}
    assert se.due_items(states, TODAY, CATALOG) == [("r2", "roofline", 3), ("c1", "communication", 3),
                                                    ("m1", "memory", 0)]


def test_new_items_go_breadth_first_across_topics_easier_first_chains_last():
    states = {"r1": due_on(TODAY + timedelta(days=2))}
    # memory and communication have nothing introduced yet: they come first, then the topics in turn
    assert se.new_items(states, CATALOG, 5) == [("m1", "memory"), ("c1", "communication"), ("r2", "roofline"),
                                                ("m2", "memory"), ("c2", "communication")]
    assert se.new_items(states, CATALOG, 0) == []
    # within a topic the bank's order (easier first), its chains after every other item
    chains = {"m1", "r2"}
    assert se.new_items({}, CATALOG, 8, is_chain=chains.__contains__) == [
        ("r1", "roofline"), ("m2", "memory"), ("c1", "communication"), ("r3", "roofline"), ("m3", "memory"),
        ("c2", "communication"), ("r2", "roofline"), ("m1", "memory")]


def test_the_daily_new_limit_counts_items_introduced_earlier_today():
    rows = [Review.of({"item": "r1", "scheduled": True, "before": None, "mode": "practice"}),
            Review.of({"item": "r1", "scheduled": False, "before": None, "mode": "practice"}),  # its re-drill
            Review.of({"item": "m1", "scheduled": True, "before": {"ef": 2.5}, "mode": "practice"})]  # a review
    assert se.introduced(rows) == {"r1"}
    assert se.new_available(5, 1) == 4
    assert se.new_available(5, 7) == 0
    s = se.Session({"r1": review(ItemState(), 4, TODAY)}, CATALOG, TODAY, seed=1, new_per_day=3, introduced_today=1)
    assert [c.item for c in s.cards] == ["m1", "c1"]
    # a first answer given elsewhere (Browse: mode extra) schedules the item but leaves the day's new items
    assert se.introduced([Review.of({"item": "r1", "scheduled": True, "before": None, "mode": "extra"})]) == set()


def test_session_puts_due_items_before_new_ones():
    states = {"m2": due_on(TODAY - timedelta(days=1)), "r1": due_on(TODAY)}
    s = se.Session(states, CATALOG, TODAY, seed=3, new_per_day=2)
    assert [(c.item, c.kind, c.overdue) for c in s.cards] == [("m2", "due", 1), ("r1", "due", 0),
                                                              ("c1", "new", 0), ("r2", "new", 0)]
    assert all(c.mode == "practice" and c.scheduled for c in s.cards)
    assert s.planned == 4


def test_seeds_are_reproducible_and_a_redrill_gets_a_new_seed():
    a = se.Session({}, CATALOG, TODAY, seed=42, new_per_day=3)
    b = se.Session({}, CATALOG, TODAY, seed=42, new_per_day=3)
    assert [c.seed for c in a.cards] == [c.seed for c in b.cards]
    first = a.current
    a.answer(1, "wrong", when=WHEN)
    again = next(c for c in a.cards if c.item == first.item)
    assert again.kind == "redrill" and again.seed != first.seed


def test_a_missed_item_comes_back_later_until_it_scores_four():
    s = se.Session({}, CATALOG, TODAY, seed=5, new_per_day=5, redrill_gap=3)
    assert [c.item for c in s.cards] == ["r1", "m1", "c1", "r2", "m2"]
    row = s.answer(2, "wrong", when=WHEN, typed="12 GB", value=12e9, seconds=30)
    assert (row.mode, row.scheduled, row.before, row.after["interval"]) == ("practice", True, None, 1)
    assert [c.item for c in s.cards] == ["m1", "c1", "r2", "r1", "m2"]  # three cards later
    state_after_first = s.states["r1"]
    for q in (4, 4, 4):
        s.answer(q, "correct", when=WHEN)
    assert s.current.item == "r1" and s.current.kind == "redrill"
    row = s.answer(3, "close", when=WHEN)  # below 4: again
    assert (row.mode, row.scheduled, row.before, row.after) == ("redrill", False, None, None)
    assert s.states["r1"] == state_after_first  # re-drills never reschedule
    assert [c.item for c in s.cards] == ["m2", "r1"]  # fewer than three left: at the end
    s.answer(5, "correct", when=WHEN)
    row = s.answer(4, "correct", when=WHEN)
    assert row.mode == "redrill" and s.done and s.current is None
    with pytest.raises(IndexError):
        s.answer(4, "correct", when=WHEN)


def test_undo_restores_the_queue_and_the_state():
    states = {"r1": due_on(TODAY)}
    s = se.Session(states, CATALOG, TODAY, seed=9, new_per_day=1)
    cards = list(s.cards)
    s.answer(1, "wrong", when=WHEN)
    assert s.states["r1"].reps == 0 and s.answered == 1
    card = s.undo()
    assert card == cards[0] and s.cards == cards and s.states == states and s.answered == 0
    # the same answer again gives the same re-drill seed (the RNG was restored too)
    s.answer(1, "wrong", when=WHEN)
    seed1 = [c.seed for c in s.cards]
    s.undo()
    s.answer(1, "wrong", when=WHEN)
    assert [c.seed for c in s.cards] == seed1
    with pytest.raises(IndexError):
        s.undo(), s.undo()


def test_the_session_never_changes_the_callers_states():
    states = {"r1": due_on(TODAY)}
    copy = dict(states)
    s = se.Session(states, CATALOG, TODAY, seed=1)
    s.answer(5, "correct", when=WHEN)
    assert states == copy


def test_extra_practice_takes_the_weakest_items_and_moves_the_schedule_only_on_a_lapse():
    states = {"r1": ItemState(2.5, 6, 2, TODAY + timedelta(days=3)), "m1": ItemState(1.3, 1, 0, TODAY + timedelta(days=1)),
              "c1": ItemState(1.96, 1, 1, TODAY + timedelta(days=1)), "r2": ItemState(1.96, 6, 2, TODAY + timedelta(days=5))}
    assert se.weakest(states, CATALOG, 3) == [("m1", "memory"), ("c1", "communication"), ("r2", "roofline")]
    s = se.Session(states, CATALOG, TODAY, seed=2, extra=2)
    assert [(c.item, c.kind, c.mode, c.scheduled) for c in s.cards] == [("m1", "extra", "extra", False),
                                                                        ("c1", "extra", "extra", False)]
    row = s.answer(4, "correct", when=WHEN)  # not due, passed: logged, the due date stays
    assert (row.mode, row.scheduled, row.after) == ("extra", False, None)
    assert s.states == states and [c.item for c in s.cards] == ["c1"]  # no re-drill of extra cards
    assert s.next_due() == TODAY + timedelta(days=1)
    row = s.answer(1, "wrong", when=WHEN)  # a lapse: the item restarts
    assert (row.mode, row.scheduled, row.before) == ("extra", True, states["c1"].to_dict())
    assert (s.states["c1"].reps, s.states["c1"].due) == (0, TODAY + timedelta(days=1))


def test_weakest_looks_at_the_whole_bank_by_recent_quality_and_lapses():
    states = {"r1": ItemState(1.3, 1, 0, TODAY + timedelta(days=1))}
    recent = {"r1": [5, 5, 4], "m2": [1, 4], "c2": [2, 2], "m1": [4, 4]}  # m2, c2, m1: answered in mocks only
    assert se.weakest(states, CATALOG, 4, recent) == [("c2", "communication"), ("m2", "memory"),
                                                      ("m1", "memory"), ("r1", "roofline")]
    # the same mean: more lapses first
    assert se.weakest(states, CATALOG, 2, {"m2": [3, 3], "c2": [1, 5]}) == [("c2", "communication"), ("m2", "memory")]


@pytest.mark.parametrize("state, quality, moves", [
    (None, 5, True),  # the first answer anywhere enters SM-2
    (ItemState(2.5, 6, 2, TODAY + timedelta(days=3), TODAY - timedelta(days=3)), 5, False),  # not due, passed
    (ItemState(2.5, 6, 2, TODAY + timedelta(days=3), TODAY - timedelta(days=3)), 2, True),  # a lapse
    (ItemState(2.5, 6, 2, TODAY, TODAY - timedelta(days=6)), 4, True),  # due: a review at its time
])
def test_off_schedule_answers_move_the_schedule_by_one_rule(state, quality, moves):
    assert se.moves_schedule(state, quality, TODAY) is moves


def test_an_answer_after_midnight_is_filed_under_the_new_day():
    s = se.Session({}, CATALOG, TODAY, seed=1, new_per_day=2)
    after_midnight = TODAY + timedelta(days=1)
    row = s.answer(4, "correct", when=WHEN + timedelta(hours=9), today=after_midnight)
    assert row.date == after_midnight.isoformat()
    assert row.after["last"] == after_midnight.isoformat()
    assert row.after["due"] == (after_midnight + timedelta(days=1)).isoformat()  # not due on the day answered


def test_the_review_cap_holds_due_items_back_most_overdue_first():
    states = {i: due_on(TODAY - timedelta(days=k)) for k, i in enumerate(["r1", "m1", "c1"])}
    s = se.Session(states, CATALOG, TODAY, seed=1, new_per_day=0, reviews_per_day=3, reviewed_today=1)
    assert [c.item for c in s.cards] == ["c1", "m1"] and s.held_back == 1


def test_next_due_is_the_first_date_after_today():
    states = {"r1": due_on(TODAY + timedelta(days=4)), "r2": due_on(TODAY + timedelta(days=2)),
              "m1": due_on(TODAY), "gone": due_on(TODAY + timedelta(days=1))}
    assert se.next_due(states, TODAY, CATALOG) == TODAY + timedelta(days=2)
    assert se.next_due(states, TODAY) == TODAY + timedelta(days=1)
    assert se.next_due({}, TODAY, CATALOG) is None


def test_review_row_has_every_field_of_the_contract():
    row = se.review_row(item="r1", topic="roofline", seed=7, quality=5, verdict="correct", when=WHEN, today=TODAY,
                        state=None, schedule=True, typed="295", value=295.2, seconds=12.34567, step=None)
    assert row.to_dict() == {"ts": "2026-11-29T15:42:01Z", "date": "2026-11-29", "item": "r1", "topic": "roofline", "seed": 7,
                   "step": None, "typed": "295", "value": 295.2, "verdict": "correct", "quality": 5,
                   "seconds": 12.346, "mode": "practice", "scheduled": True, "before": None,
                   "after": {"ef": 2.6, "interval": 1, "reps": 1, "due": "2026-11-30", "last": "2026-11-29"}}


def test_review_row_without_a_measured_time():
    row = se.review_row(item="r1", topic="roofline", seed=7, quality=5, verdict="correct", when=WHEN, today=TODAY,
                        state=None, schedule=True, mode="paper", seconds=None)
    assert row.seconds is None and row.mode == "paper"


def test_review_row_refuses_bad_values():
    kw = dict(item="r1", topic="roofline", seed=1, quality=4, verdict="correct", when=WHEN, today=TODAY, state=None,
              schedule=False)
    with pytest.raises(ValueError, match="mode"):
        se.review_row(**{**kw, "mode": "cram"})
    with pytest.raises(ValueError, match="verdict"):
        se.review_row(**{**kw, "verdict": "invalid"})
    with pytest.raises(ValueError, match="quality"):
        se.review_row(**{**kw, "quality": 6})
    with pytest.raises(ValueError, match="timezone"):
        se.review_row(**{**kw, "when": datetime(2026, 1, 1)})


@given(st.lists(st.integers(0, 5), min_size=1, max_size=30), st.integers(0, 2**31))
def test_every_planned_card_is_answered_and_finishes_at_four_or_more(qs, seed):
    """Answering a session to the end: each item's last answer is >= 4, only its first one schedules."""
    s = se.Session({}, CATALOG, TODAY, seed=seed, new_per_day=3)
    last: dict[str, int] = {}
    scheduled: dict[str, int] = {}
    i = 0
    while not s.done:
        q = qs[i] if i < len(qs) else 5
        row = s.answer(q, "correct" if q >= 4 else "wrong", when=WHEN)
        last[row.item] = q
        scheduled[row.item] = scheduled.get(row.item, 0) + row.scheduled
        i += 1
    assert set(last) == {"r1", "m1", "c1"}
    assert all(q >= 4 for q in last.values())
    assert all(n == 1 for n in scheduled.values())
