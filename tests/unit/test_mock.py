"""engine.mock: planning from a seed, the injected-clock state machine, scoring and the report."""

from collections import Counter
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.choices import Choice
from engine.grading import Expected, Miss
from engine.mock import (
    ANSWERED,
    PENDING,
    SKIPPED,
    Candidate,
    MockError,
    MockPlan,
    MockRun,
    MockSettings,
    Planned,
    plan_mock,
    reading,
    unreadable_reason,
    weakness_figures,
)
from engine.mock_report import (
    build_report,
    compare,
    mock_record,
    queue_missed,
    report_from_record,
    review_rows,
    score_percent,
)
from engine.review import Review
from engine.session import Book, Rules
from engine.sm2 import ItemState
from engine.storage import row_problem
from tests.problems import examples

TOPICS = ("roofline", "memory", "communication", "inference")
CANDIDATES = [(f"{t}.t{i}", t, 3 if i == 2 else 1, 60 * (1 + (i == 2))) for t in TOPICS for i in range(3)]

GB = Expected("number", 140e9, "bytes", "GB", misses=(Miss("fp32", "used 4 bytes per parameter", 280e9),))
BOUND = Expected("choice", "memory", choices=(Choice("memory", ("mem", "memory bound")), Choice("compute")))


# --------------------------------------------------------------------------- #
# Settings


@pytest.mark.parametrize("kwargs, message", [
    ({"minutes": 0}, "minutes must be a whole number from 1 to 180"),
    ({"minutes": 500}, "minutes must be"),
    ({"questions": 0}, "questions must be a whole number from 1 to 40"),
    ({"questions": 2.5}, "questions must be"),
    ({"seed": -1}, "the seed must be a whole number"),
])
def test_bad_settings_are_refused_with_a_clear_message(kwargs, message):
    with pytest.raises(MockError, match=message):
        MockSettings(**kwargs)


def test_settings_round_trip():
    s = MockSettings(minutes=20, topics=("memory", "roofline", "memory"), chains=False, seed=7)
    assert s.topics == ("memory", "roofline")
    assert MockSettings.from_dict(s.to_dict()) == s


# --------------------------------------------------------------------------- #
# Planning


@settings(max_examples=examples(30))
@given(seed=st.integers(0, 10**6), n=st.integers(1, 20))
def test_the_same_seed_plans_the_same_mock(seed, n):
    s = MockSettings(questions=n, seed=seed)
    a = plan_mock(s, CANDIDATES)
    assert a == plan_mock(s, list(reversed(CANDIDATES)))  # candidate order does not matter
    assert len(a.questions) == n


def test_different_seeds_plan_different_mocks():
    plans = {plan_mock(MockSettings(questions=6, seed=s), CANDIDATES).questions for s in range(10)}
    assert len(plans) == 10


@settings(max_examples=examples(30))
@given(seed=st.integers(0, 10**6), n=st.integers(1, 24))
def test_questions_spread_evenly_across_the_topics(seed, n):
    plan = plan_mock(MockSettings(questions=n, seed=seed), CANDIDATES)
    per_topic = Counter(q.topic for q in plan.questions)
    counts = [per_topic[t] for t in TOPICS]
    assert max(counts) - min(counts) <= 1  # shorter than one round: every question from another topic
    # within a topic, no template repeats before the topic's templates run out
    for t, k in per_topic.items():
        ids = Counter(q.template_id for q in plan.questions if q.topic == t)
        assert max(ids.values()) <= -(-k // 3)


def test_chosen_topics_only():
    plan = plan_mock(MockSettings(questions=8, topics=("memory", "inference"), seed=3), CANDIDATES)
    assert {q.topic for q in plan.questions} == {"memory", "inference"}
    assert Counter(q.topic for q in plan.questions) == {"memory": 4, "inference": 4}


def test_an_unknown_topic_is_refused():
    with pytest.raises(MockError, match="no templates in topic pipeline"):
        plan_mock(MockSettings(topics=("pipeline",)), CANDIDATES)


def test_chains_are_left_out_when_disabled_and_included_when_enabled():
    off = [plan_mock(MockSettings(questions=6, chains=False, seed=s), CANDIDATES) for s in range(20)]
    assert all(q.steps == 1 for p in off for q in p.questions)
    on = [plan_mock(MockSettings(questions=2, seed=s), CANDIDATES) for s in range(20)]
    assert all(any(q.steps == 3 for q in p.questions) for p in on)


def test_weaker_templates_are_asked_more_often():
    weak = {"memory.t0": 1.0, "memory.t1": 0.0, "memory.t2": 0.0}
    counts = Counter(q.template_id for s in range(300)
                     for q in plan_mock(MockSettings(questions=1, topics=("memory",), seed=s), CANDIDATES,
                                        weak).questions)
    assert counts["memory.t0"] > 2 * counts["memory.t1"]
    assert counts["memory.t1"] > 0  # mastered templates still come up


def test_weaker_topics_come_first_when_the_mock_is_short():
    weak = {c[0]: 1.0 for c in CANDIDATES if c[1] == "inference"} | {c[0]: 0.0 for c in CANDIDATES
                                                                       if c[1] != "inference"}
    firsts = Counter(plan_mock(MockSettings(questions=1, seed=s), CANDIDATES, weak).questions[0].topic
                     for s in range(200))
    assert firsts["inference"] > max(firsts[t] for t in TOPICS if t != "inference")


def test_a_mock_by_minutes_fills_the_time_with_allowances():
    plan = plan_mock(MockSettings(minutes=30, chains=False, seed=1), CANDIDATES)
    assert plan.limit_seconds == 1800
    assert len(plan.questions) == 15  # single-step templates: 60 s target, 120 s allowed each
    assert plan_mock(MockSettings(seed=1, chains=False), CANDIDATES).limit_seconds == 1800  # default 30 min
    assert len(plan_mock(MockSettings(minutes=2, seed=1), CANDIDATES).questions) == 1  # one fits exactly


def test_a_mock_too_short_for_any_question_says_so():
    with pytest.raises(MockError, match=r"no question fits in 1 min: the shortest needs 2 min \(twice its target"):
        plan_mock(MockSettings(minutes=1, seed=1), CANDIDATES)
    with pytest.raises(MockError, match="no question in memory fits in 1 min"):
        plan_mock(MockSettings(minutes=1, topics=("memory",), seed=1), CANDIDATES)


# Short and long questions in every topic: 60, 120, 300 and 480 s allowed, and a 3-step chain of 600 s.
MIXED = [(f"{t}.{s}", t, 1, s // 2) for t in TOPICS for s in (60, 120, 300, 480)] + \
    [(f"{t}.chain", t, 3, 300) for t in TOPICS]
MIXED_ALLOWANCE = {c[0]: Candidate.of(c).allowance for c in MIXED}


@settings(max_examples=examples(40))
@given(seed=st.integers(0, 10**6), minutes=st.integers(1, 60), chains=st.booleans())
def test_a_mock_by_minutes_never_plans_more_than_its_time(seed, minutes, chains):
    plan = plan_mock(MockSettings(minutes=minutes, seed=seed, chains=chains), MIXED)
    used = sum(MIXED_ALLOWANCE[q.template_id] for q in plan.questions)
    assert plan.limit_seconds == minutes * 60 and plan.questions
    assert used <= minutes * 60  # never even the first question over the limit
    if minutes >= 2:  # two of the shortest (60 s) fit: each question at most half the time
        assert all(MIXED_ALLOWANCE[q.template_id] <= minutes * 30 for q in plan.questions)
    # full: nothing left out would still fit in the time left
    assert minutes * 60 - used < 60 or len(plan.questions) == 40
    if chains and minutes >= 20:  # a chain fits in half the time
        assert any(q.steps > 1 for q in plan.questions)


@pytest.mark.parametrize("seed", range(1, 21))
def test_a_short_mock_is_several_short_questions_across_topics(seed):
    plan = plan_mock(MockSettings(minutes=5, seed=seed), MIXED)
    assert len(plan.questions) >= 3 and len({q.topic for q in plan.questions}) >= 3
    assert all(q.steps == 1 and MIXED_ALLOWANCE[q.template_id] <= 150 for q in plan.questions)
    assert sum(MIXED_ALLOWANCE[q.template_id] for q in plan.questions) <= 300


@pytest.mark.parametrize("seed", range(1, 21))
def test_a_half_hour_mock_is_a_spread_with_a_chain(seed):
    plan = plan_mock(MockSettings(minutes=30, seed=seed), MIXED)
    assert sum(1 for q in plan.questions if q.steps > 1) >= 1
    assert len({q.topic for q in plan.questions}) == len(TOPICS) and len(plan.questions) >= 5
    assert sum(MIXED_ALLOWANCE[q.template_id] for q in plan.questions) <= 1800
    off = plan_mock(MockSettings(minutes=30, seed=seed, chains=False), MIXED)
    assert all(q.steps == 1 for q in off.questions)


def test_a_mock_by_questions_gets_the_time_it_needs():
    plan = plan_mock(MockSettings(questions=4, chains=False, seed=2), CANDIDATES)
    assert plan.limit_seconds == 4 * 120
    assert plan_mock(MockSettings(questions=4, minutes=5, seed=2), CANDIDATES).limit_seconds == 300


def test_repeated_templates_get_different_seeds():
    plan = plan_mock(MockSettings(questions=9, topics=("memory",), seed=5), CANDIDATES)
    pairs = [(q.template_id, q.seed) for q in plan.questions]
    assert len(set(pairs)) == 9


def test_a_question_is_allowed_twice_its_target_time():
    assert Candidate.of(("m.a", "memory", 1, 60)).allowance == 120
    assert Candidate.of(("m.b", "memory", 3)).allowance == 2 * 90 * 3  # no target given: 90 s a step


def test_plan_as_json_lists_template_seed_and_steps():
    d = plan_mock(MockSettings(questions=3, seed=4), CANDIDATES).to_dict()
    assert d["seed"] == 4 and [q["index"] for q in d["questions"]] == [1, 2, 3]
    assert set(d["questions"][0]) == {"index", "template", "topic", "seed", "steps"}


def test_weakness_figures_from_review_rows():
    rows = [{"item": "a", "quality": 5}, {"item": "a", "quality": 5}, {"item": "b", "quality": 1},
            {"item": "b", "quality": None}, {"item": "c", "quality": 0}] + [{"item": "d", "quality": 0}] * 3 \
        + [{"item": "d", "quality": 5}] * 5
    w = weakness_figures(map(Review.of, rows))
    assert w == {"a": 0.0, "b": 0.8, "c": 1.0, "d": 0.0}  # only the last five answers count


# --------------------------------------------------------------------------- #
# The clock and the state machine


def make_run(expected=(GB, BOUND, GB), limit=600, chain=None, now=1000.0) -> MockRun:
    qs = tuple(Planned(f"t{i}", "memory" if i % 2 == 0 else "roofline", 10 + i, 1) for i in range(len(expected)))
    steps = [[(e, 60)] for e in expected]
    if chain:
        qs += (Planned("chain", "inference", 99, len(chain)),)
        steps.append([(e, 60) for e in chain])
    return MockRun.begin(MockPlan(MockSettings(questions=len(qs)), qs, limit), steps, now=now)


def test_the_countdown_and_its_warning():
    run = make_run()
    assert run.remaining(1000) == 600 and not run.warning(1000)
    assert run.remaining(1539) == 61 and not run.warning(1539)
    assert run.warning(1540) and run.remaining(2000) == 0


def test_answering_moves_on_and_times_each_question():
    run = make_run()
    run.answer("140 GB", 1030)
    assert run.current == 1 and run.slots[0].status == ANSWERED and run.slots[0].seconds == 30
    assert run.question_seconds(1040) == 10
    run.answer("mem", 1050)
    run.answer("280", 1100)
    assert run.finished and not run.timed_out and run.seconds_used() == 100


def test_an_unreadable_answer_is_caught_and_changes_nothing():
    run = make_run()
    with pytest.raises(MockError, match="a size in bytes"):
        run.answer("140 GB/s", 1010)
    assert run.current == 0 and run.slots[0].status == PENDING
    run.answer("140", 1010)
    with pytest.raises(MockError, match="expected one of: memory, compute"):
        run.answer("sideways", 1020)
    assert run.current == 1 and run.slots[1].status == PENDING
    assert unreadable_reason("", GB) == "the answer is empty"
    assert unreadable_reason("1.4e11 B", GB) is None


def test_skip_flag_and_go_back():
    run = make_run()
    run.skip(1010, draft="14")
    assert run.slots[0].status == SKIPPED and run.slots[0].draft == "14" and run.current == 1
    assert run.toggle_flag(1015) is True
    run.answer("compute", 1020)  # answered and flagged: still open for review
    assert run.current == 2 and run.revisitable() == [0, 1]
    run.goto(0, 1025, draft="1")
    assert run.slots[0].draft == "14" and run.slots[2].draft == "1"
    run.answer("140", 1030)
    assert run.current == 2  # the pending question comes before the flagged one
    run.answer("140 GB", 1040)
    assert run.current == 1 and not run.finished  # every answer in, but one is flagged
    run.answer("memory", 1050)  # answering a flagged question again settles it
    assert run.finished and run.slots[1].typed == "memory" and not run.slots[1].flagged
    assert [s.seconds for s in run.slots] == [15, 20, 15]


def test_an_answered_question_cannot_be_reopened_unless_flagged():
    run = make_run()
    run.answer("140", 1010)
    with pytest.raises(MockError, match="question 1 is answered and not flagged"):
        run.goto(0, 1020)
    with pytest.raises(MockError, match="question 3 is not skipped or flagged"):
        run.goto(2, 1020)  # no jumping ahead: questions come in order


def test_going_back_from_an_unanswered_question_skips_it():
    run = make_run()
    run.skip(1010)
    run.goto(0, 1020, draft="1")
    assert run.slots[1].status == SKIPPED and run.slots[1].draft == "1" and run.revisitable() == [1]


def test_skipping_the_only_unanswered_question_stays_on_it():
    run = make_run(expected=(GB,))
    run.skip(1010)
    assert run.current == 0 and run.slots[0].status == SKIPPED and not run.finished


def test_running_out_of_time_submits_a_readable_draft():
    run = make_run()
    run.answer("140", 1100)
    assert not run.tick(1599, draft="mem")
    assert run.tick(1600, draft="mem")
    assert run.finished and run.timed_out and run.slots[1].typed == "mem"
    assert run.slots[2].status == PENDING and run.seconds_used() == 600


def test_running_out_of_time_drops_an_unreadable_draft():
    run = make_run()
    assert run.expire(1700, draft="140 GB/") is False
    assert run.slots[0].status == PENDING and run.seconds_used() == 600 and run.slots[0].seconds == 600


def test_an_action_after_the_deadline_ends_the_mock():
    run = make_run()
    run.answer("140", 1700)  # pressed Enter after the time ran out: readable, so submitted
    assert run.finished and run.timed_out and run.slots[0].typed == "140"
    with pytest.raises(MockError, match="the mock is over"):
        run.skip(1701)


def test_chain_steps_are_slots_of_one_question():
    run = make_run(expected=(GB,), chain=(GB, BOUND))
    assert [s.label for s in run.slots] == ["1", "2.1", "2.2"] and run.total_questions == 2


# --------------------------------------------------------------------------- #
# Scoring and the report


def finished_run() -> MockRun:
    run = make_run(expected=(GB, BOUND, GB, GB), chain=(GB, BOUND))
    run.answer("140 GB", 1020)  # correct
    run.answer("compute", 1040)  # wrong
    run.answer("280 GB", 1100)  # wrong, the fp32 misconception
    run.answer("160", 1130)  # close (12.5 % off)
    run.skip(1140)
    run.answer("memory", 1150)  # chain step 2: correct
    run.finish(1200)
    return run


def test_the_report_numbers():
    rep = build_report(finished_run())
    assert rep.score == {"correct": 2, "convention": 0, "close": 1, "wrong": 2, "unanswered": 1}
    assert rep.total == 6 and rep.percent == pytest.approx(100 * 2.5 / 6)
    assert rep.seconds_used == 200 and not rep.timed_out
    assert [r.verdict for r in rep.results] == ["correct", "wrong", "wrong", "close", "unanswered", "correct"]
    # the skipped step was on screen again from 1150 until the mock was ended at 1200
    assert [r.seconds for r in rep.results] == [20, 20, 60, 30, 60, 10]
    assert [(r.label, r.step) for r in rep.results][-2:] == [("5.1", 1), ("5.2", 2)]
    assert rep.misconceptions == (("used 4 bytes per parameter", 1),)
    assert rep.weakest_topics == (("roofline", 25.0, 2), ("inference", 50.0, 2), ("memory", 50.0, 2))
    assert rep.missed_templates == ("t1", "t2", "t3", "chain")
    assert rep.results[1].expected == "memory" and rep.results[0].expected == "140 GB"


def test_the_report_needs_a_finished_mock():
    with pytest.raises(MockError, match="still running"):
        build_report(make_run())


def test_comparison_with_earlier_mocks():
    earlier = [{"score": {"correct": 1, "close": 0, "wrong": 1, "unanswered": 0}},
               {"score": {"correct": 3, "close": 1, "wrong": 0, "unanswered": 0}}]
    c = compare(60.0, earlier)
    assert (c.earlier, c.previous, c.best, c.average) == (2, 87.5, 87.5, 68.75)
    assert c.delta(60.0) == -27.5
    assert compare(50.0, []) is None
    assert score_percent({}) == 0.0


def test_the_saved_record_and_the_review_rows():
    run = finished_run()
    rep = build_report(run)
    rec = mock_record(run, rep, ts="2026-11-29T15:42:01Z")
    assert rec["seed"] == 0 and rec["score"] == rep.score and rec["seconds_used"] == 200
    assert rec["settings"]["questions"] == 5 and rec["settings"]["limit_seconds"] == 600
    q = rec["questions"][2]
    assert (q["item"], q["seed"], q["step"], q["typed"], q["verdict"], q["seconds"], q["expected"], q["flagged"]) \
        == ("t2", 12, None, "280 GB", "wrong", 60, "140 GB", False)
    when = datetime(2026, 11, 29, 15, 42, 1, tzinfo=UTC)
    rows = review_rows(rep, when=when, local_date=utc_day)
    assert len(rows) == 5  # the unanswered step is not a review
    assert all(r.mode == "mock" and r.scheduled is False and r.before is None and r.after is None
               for r in rows)
    # each row at the time of its answer (the run's clock: seconds since the epoch), not when it was saved
    assert [r.ts for r in rows] == [at(1020), at(1040), at(1100), at(1130), at(1150)]
    assert rows[0].date == "1970-01-01"
    assert rows[0].value == 140e9 and rows[1].value == "compute"
    assert [r.quality for r in rows] == [5, 1, 2, 3, 5]
    assert rows[-1].step == 2 and rows[-1].item == "chain"


def utc_day(when: datetime) -> date:
    return when.astimezone(UTC).date()


def at(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


DAY = 86_400.0
MIDNIGHT = 20_000 * DAY  # 2024-10-04T00:00:00Z on the run's clock


def test_each_review_row_carries_the_time_and_the_local_day_of_its_answer():
    """A mock across midnight: the answers before it are filed under the first day, the rest under the next,
    in the order they were given (a skipped question answered last comes last); a whole-chain row at its
    last step's time.  ``local_date`` is the learner's day rule (here UTC+8)."""
    start = MIDNIGHT - 8 * 3600 - 300  # 23:55 in UTC+8
    run = make_run(expected=(GB, BOUND), chain=(GB, BOUND), now=start)
    run.skip(start + 30)  # question 1 left for later
    run.answer("mem", start + 100)  # question 2 at 23:56:40
    run.answer("140 GB", start + 400)  # chain step 1 at 00:01:40, the next day
    run.answer("memory", start + 500)  # chain step 2
    run.answer("140", start + 560)  # question 1, last
    assert run.finished
    east = timezone(timedelta(hours=8))
    rows = review_rows(build_report(run), when=datetime(2000, 1, 1, tzinfo=UTC),
                       local_date=lambda when: when.astimezone(east).date(), book=Book({}, Rules()))
    assert [(r.item, r.step) for r in rows] == [("t1", None), ("chain", 1), ("chain", 2), ("chain", None),
                                                      ("t0", None)]
    assert [r.ts for r in rows] == [at(start + 100), at(start + 400), at(start + 500), at(start + 500),
                                       at(start + 560)]
    assert all(row_problem(r.to_dict(), stored=False) is None for r in rows)  # the storage accepts them
    first_day = datetime.fromtimestamp(start, east).date()
    assert [r.date for r in rows] == [first_day.isoformat()] + [(first_day + timedelta(days=1)).isoformat()] * 4
    # a first answer enters the schedule on the day it was given
    assert rows[0].after["last"] == first_day.isoformat() and rows[-1].after["last"] == rows[-1].date


def test_an_answer_given_when_the_time_ran_out_is_dated_at_the_deadline():
    run = make_run(now=1000)
    run.answer("140", 1100)
    run.tick(1700, draft="mem")  # the tick came late: the answer was in the box when the time ran out
    rows = review_rows(build_report(run), when=datetime(2000, 1, 1, tzinfo=UTC), local_date=utc_day)
    assert [r.ts for r in rows] == [at(1100), at(1600)]


def test_review_rows_after_the_ones_already_stored_move_the_schedule_from_the_profiles_states():
    """A save that failed part-way, run again: the rows already stored are left out, and the states (the
    profile's, which count them) move only by the rest: the same rows as in one go."""
    run = make_run(expected=(GB, BOUND, GB), now=1000)
    for k, answer in enumerate(("140 GB", "compute", "280 GB")):
        run.answer(answer, 1010 + 10 * k)
    rep = build_report(run)
    kw = dict(when=datetime(2000, 1, 1, tzinfo=UTC), local_date=utc_day)
    whole = review_rows(rep, book=Book({}, Rules()), **kw)
    assert [r.item for r in whole] == ["t0", "t1", "t2"] and all(r.scheduled for r in whole)
    for stored in range(len(whole) + 1):
        states = {r.item: ItemState.from_dict(r.after) for r in whole[:stored]}
        assert review_rows(rep, book=Book(states, Rules()), stored=stored, **kw) == whole[stored:]


def test_queue_missed_keeps_order_and_adds_each_once():
    rep = build_report(finished_run())
    assert queue_missed(["t9", "t2"], rep) == ["t9", "t2", "t1", "t3", "chain"]


def test_a_shared_seed_ignores_the_learners_weakness():
    weak = {"memory.t0": 1.0, "memory.t1": 0.0, "memory.t2": 0.0}
    shared = MockSettings(questions=6, seed=11, weighted=False)
    assert plan_mock(shared, CANDIDATES, weak) == plan_mock(shared, CANDIDATES, {})
    assert MockSettings.from_dict(shared.to_dict()) == shared


def test_reading_an_answer_without_a_verdict():
    assert reading("140", GB) == (True, "= 140 GB  (read in GB, the unit the question asks for)")
    assert reading("0.14 TB", GB) == (True, "= 140 GB")
    assert reading("mem", BOUND) == (True, "= memory")
    ok, why = reading("12 parsecs", GB)
    assert not ok and "parsecs" in why


def test_the_report_can_be_rebuilt_from_the_saved_record():
    run = finished_run()
    rep = build_report(run)
    rec = mock_record(run, rep, ts="2026-11-29T15:42:01Z")
    again = report_from_record(rec, earlier=[rec])
    assert again.score == rep.score and again.misconceptions == rep.misconceptions
    assert again.weakest_topics == rep.weakest_topics and again.missed_templates == rep.missed_templates
    assert [r.label for r in again.results] == [r.label for r in rep.results]
    assert again.limit_seconds == 600 and again.comparison.previous == pytest.approx(rep.percent)


def test_a_chain_in_a_mock_failing_the_step_it_failed_last_time_starts_over():
    run = make_run(expected=(), chain=(GB, BOUND), now=0)
    run.answer("280 GB", 10)  # step 1 wrong
    run.answer("memory", 20)  # step 2 right: one slip
    rep, kw = build_report(run), dict(when=datetime(2000, 1, 1, tzinfo=UTC), local_date=utc_day)
    assert review_rows(rep, **kw)[-1].quality == 3  # a pass, as before
    assert review_rows(rep, previous=lambda item: [5, 1], **kw)[-1].quality == 3  # last time step 2 failed
    again = review_rows(rep, previous=lambda item: [0, 5], **kw)[-1]  # last time step 1 failed too
    assert again.step is None and again.quality < 3
