"""The learning loop as the app runs it: peeks cap the grade, a chain's failed step is practised
alone the next day, scaffolds retire, chains wait for their steps, FSRS beside SM-2, the interview day."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, time, timedelta

import pytest

from drill.core import practice_run, readiness_view, sessions, settings
from drill.core.context import AppContext
from engine.schedule import chains
from engine.session import review_row
from engine.storage import Profile
from question_bank import drills, registry

NOW = datetime(2026, 11, 29, 15, 0, tzinfo=UTC)
TODAY = NOW.astimezone().date()
SINGLE = "memory.static"
CHAIN = "memory.zero_planning"


@pytest.fixture
def profile(tmp_path):
    p = Profile.open(tmp_path)
    yield p
    p.close()


def ctx_at(profile, when=NOW):
    return AppContext(profile, clock=lambda: when, rng=random.Random(1))


def run_of(profile, items, when=NOW):
    ctx = ctx_at(profile, when)
    return practice_run.PracticeRun(ctx, sessions.items_session(ctx, items))


def right(run) -> str:
    return run.current_step.expected.display


def record(profile, item, quality, day, when=None):
    t = registry.get(item)
    when = when or datetime.combine(day, time(12), UTC)
    return profile.record(review_row(item=item, topic=t.topic, seed=1, quality=quality, verdict="correct",
                                     when=when, today=day, state=profile.state(item), schedule=True))


def test_opening_the_card_while_answering_caps_the_grade_at_three_overrides_included(profile):
    run = run_of(profile, [SINGLE, SINGLE])
    run.peek()
    a = run.submit(right(run))
    assert a.auto_quality >= 4 and a.quality == 3 and a.item_row.quality == 3 and a.peeked
    assert run.override(5).quality == 3  # an override cannot lift it
    run.advance()
    b = run.submit(right(run))  # the next problem: no peek
    assert b.quality == b.auto_quality >= 4 and not b.peeked


def test_a_chain_with_one_failed_step_passes_and_that_step_is_practised_alone_the_next_day(profile):
    run = run_of(profile, [CHAIN])
    steps = drills.step_templates(CHAIN)
    failing = next(k for k, s in enumerate(steps) if s is not None)
    while True:
        a = run.submit("?" if run.step == failing else right(run))
        if a.item_row is not None:
            break
        run.advance()
    assert a.item_row.quality == 3 and profile.states()[CHAIN].reps == 1  # a pass, not a restart
    due = sessions.step_drills(profile)
    assert due == {steps[failing]: TODAY + timedelta(days=1)}
    tomorrow = ctx_at(profile, NOW + timedelta(days=1))
    cards = sessions.today_session(tomorrow).cards
    assert steps[failing] in [c.item for c in cards if c.kind == "extra"]
    assert steps[failing] not in [c.item for c in sessions.today_session(ctx_at(profile)).cards if c.kind == "extra"]
    # answered: no longer asked
    run = practice_run.PracticeRun(tomorrow, sessions.today_session(tomorrow))
    while run.card is not None and run.card.item != steps[failing]:
        run.session.cards.pop(0)
        run.load()
    run.submit(right(run))
    assert steps[failing] not in sessions.step_drills(profile)


def test_a_chain_waits_for_its_steps_and_a_scaffold_retires_after_its_full_template_is_passed_twice(profile):
    ctx = ctx_at(profile)
    profile.set_setting("new_per_day", 100)
    new = [c.item for c in sessions.today_session(ctx).cards if c.kind == "new"]
    # no step passed yet: no chain whose steps have single templates is met (one with none has nothing to wait for)
    assert not any(registry.get(i).is_chain and drills.prerequisites(i) for i in new)
    assert "memory.static_given" in new
    day = TODAY - timedelta(days=10)
    record(profile, "memory.static", 4, day)
    record(profile, "memory.static", 4, day + timedelta(days=1))
    assert "memory.static_given" in sessions.retired(profile)
    plan = readiness_view.plan(ctx)
    assert plan.left == len(registry.all_templates()) - 1 - len(sessions.retired(profile))
    assert "memory.static_given" not in [c.item for c in sessions.today_session(ctx).cards]
    for s in drills.prerequisites(CHAIN):
        record(profile, s, 4, day)
    passed = chains.passed_once(profile.states(), sessions.recent_qualities(profile))
    assert chains.chain_ready(drills.prerequisites(CHAIN), passed)
    # the bank (161 templates) outgrows a day's 100 new items: once the single templates are all seen, the
    # ready chain is among the new ones
    for t in registry.all_templates():
        if not t.is_chain and t.id not in profile.states():
            record(profile, t.id, 4, day)
    assert CHAIN in [c.item for c in sessions.today_session(ctx).cards if c.kind == "new"]


def test_switching_to_fsrs_schedules_from_the_replayed_history_and_back(profile):
    record(profile, SINGLE, 4, TODAY - timedelta(days=10))
    record(profile, SINGLE, 5, TODAY - timedelta(days=9))  # due 3 days ago: today's answer is its review
    profile.set_setting(settings.SCHEDULER_KEY, "fsrs")
    assert settings.learning(profile).scheduler == "fsrs"
    run = run_of(profile, [SINGLE])
    fsrs_row = run.submit(right(run)).item_row
    run.undo()
    profile.set_setting(settings.SCHEDULER_KEY, "sm2")
    run = run_of(profile, [SINGLE])
    sm2_row = run.submit(right(run)).item_row
    assert fsrs_row.before == sm2_row.before  # the same state before: only the scheduler differs
    assert fsrs_row.after["due"] != sm2_row.after["due"]
    assert fsrs_row.after["ef"] == sm2_row.after["ef"]  # SM-2's easiness kept beside FSRS
    assert settings.parse_setting(settings.SCHEDULER_KEY, " FSRS ", TODAY) == ("fsrs", None)
    assert settings.parse_setting(settings.SCHEDULER_KEY, "anki", TODAY) == (None, "settings.bad_scheduler")


def test_the_interview_day_asks_nothing_and_names_a_warm_up(profile):
    record(profile, SINGLE, 4, TODAY - timedelta(days=1))
    record(profile, "memory.param_count", 1, TODAY - timedelta(days=1))
    profile.set_setting(settings.INTERVIEW_KEY, TODAY.isoformat())
    s = sessions.today_session(ctx_at(profile))
    assert s.cards == [] and s.interview_day
    assert "memory.param_count" in [i for i, _ in s.warmup]


def test_check_record_seconds_grades_and_records_the_time_as_the_app_does(tmp_path):
    from tests.cli import drill

    t = registry.get(SINGLE)
    p = t.generate(3)
    right_answer = p.steps[0].expected.display
    slow = str(p.steps[0].target_seconds * 3)
    r = drill("--saves", str(tmp_path), "check", t.id, "--seed", "3", right_answer, "--record", "--seconds", slow,
              "--json")
    assert r.returncode == 0, r.stderr
    fast = drill("--saves", str(tmp_path / "b"), "check", t.id, "--seed", "3", right_answer, "--seconds", "5",
                 "--json")
    assert json.loads(r.stdout)["quality"] < json.loads(fast.stdout)["quality"]  # slow and right: graded lower
    with Profile.open(tmp_path) as prof:
        row = list(prof.reviews())[-1]
    assert row.seconds == float(slow) and row.quality == json.loads(r.stdout)["quality"]
    bad = drill("--saves", str(tmp_path), "check", t.id, "--seed", "3", right_answer, "--seconds", "-4")
    assert bad.returncode == 2 and "--seconds" in bad.stderr


def test_drill_plan_shows_a_fitted_readiness_only_with_enough_answers_in_every_topic(tmp_path):
    from tests.cli import drill

    with Profile.open(tmp_path) as prof:
        items = [t.id for t in registry.all_templates() if t.topic == "roofline" and not t.is_chain]
        day = TODAY - timedelta(days=40)
        for k in range(40):
            item = items[k % len(items)]
            t = registry.get(item)
            prof.record(review_row(item=item, topic=t.topic, seed=k, quality=4 if k % 4 else 2, verdict="correct",
                                   when=datetime.combine(day + timedelta(days=k), time(12), UTC),
                                   today=day + timedelta(days=k), state=None, schedule=False, mode="extra"))
    r = drill("--saves", str(tmp_path), "plan", "--json")
    out = json.loads(r.stdout)["readiness"]
    assert out["topics"]["roofline"]["reviews"] == 40 and out["topics"]["roofline"]["probability"] is None
    assert out["topics"]["memory"] == {"reviews": 0, "probability": None, "low": None, "high": None}
    assert out["overall"] is None and out["calibration"]["horizon_days"] == 7
    text = drill("--saves", str(tmp_path), "plan").stdout
    assert "Roofline" in text and "Training memory" in text and "not enough answers yet (0 of 12)" in text
    assert "40 answers; shown once every topic has 12" in text


def test_drill_stats_json_holds_the_readiness_and_its_calibration(tmp_path):
    from tests.cli import drill

    r = drill("--saves", str(tmp_path), "stats", "--json")
    out = json.loads(r.stdout)["readiness"]
    assert out["overall"] is None and out["min_reviews"] == 12 and out["calibration"]["answers"] == 0
    assert set(out["topics"]) == {t.topic for t in registry.all_templates()}


def test_a_retired_scaffold_leaves_the_readiness(profile):
    record(profile, "memory.static", 4, TODAY - timedelta(days=3))
    record(profile, "memory.static", 4, TODAY - timedelta(days=2))
    ids = [i for i, _ in readiness_view.ready_catalog(profile)]
    assert "memory.static_given" not in ids and "memory.static" in ids
    ready, _ = readiness_view.readiness_report(profile, TODAY)
    assert ready.topics["memory"].reviews == 2


def test_undoing_or_regrading_a_chain_answer_takes_back_the_step_drill_it_added(profile):
    steps = drills.step_templates(CHAIN)
    run = run_of(profile, [CHAIN])
    k = next(k for k, s in enumerate(steps) if s is not None)
    while True:
        a = run.submit("?" if run.step == k else right(run))
        if a.item_row is not None:
            break
        run.advance()
    assert steps[k] in sessions.step_drills(profile) and a.drills == [steps[k]]
    run.undo()
    assert sessions.step_drills(profile) == {}


def test_under_fsrs_a_quick_right_answer_waits_two_days_and_a_pressed_easy_eight(profile):
    profile.set_setting(settings.SCHEDULER_KEY, "fsrs")
    run = run_of(profile, [SINGLE])
    a = run.submit(right(run))
    row = a.item_row
    assert a.quality == 5 and not a.pressed  # graded automatically: FSRS's Good, not Easy
    assert (datetime.fromisoformat(row.after["due"]).date() - TODAY).days == 2
    assert row.pressed is None
    b = run.override(5)  # the learner presses e: the only way to Easy
    assert b.pressed and b.item_row.quality == 5
    assert (datetime.fromisoformat(b.item_row.after["due"]).date() - TODAY).days == 8
    stored = profile.last_review()
    assert stored.pressed is True and stored.to_dict()["pressed"] is True  # the row keeps what was pressed
    memory = sessions.memory_source(profile, "fsrs")(stored.item)  # replayed from the log, as a later day does
    assert memory is not None and memory.interval == 8


def test_an_answer_undone_after_its_solution_was_shown_is_asked_again_and_graded_three_at_most(profile):
    run = run_of(profile, [SINGLE, SINGLE])
    a = run.submit("?")  # the feedback shows the solution
    assert a.quality == 0 and not a.after_solution
    assert run.undo() is a and run.after_solution and profile.last_review() is None
    b = run.submit(right(run))  # the right answer, read off the solution
    assert b.auto_quality >= 4 and b.quality == 3 and b.after_solution and profile.last_review().quality == 3
    assert run.override(5).quality == 3  # an override cannot lift it either
    run.advance()
    c = run.submit(right(run))  # the next problem, never undone: graded as it is
    assert c.quality == c.auto_quality >= 4 and not c.after_solution


def test_a_chain_failing_the_same_step_twice_running_starts_over_and_drills_that_step_alone(profile):
    steps = drills.step_templates(CHAIN)
    failing = next(k for k, s in enumerate(steps) if s is not None)

    def answer(run):
        while True:
            a = run.submit("?" if run.step == failing else right(run))
            if a.item_row is not None:
                return a
            run.advance()

    first = answer(run_of(profile, [CHAIN]))
    assert first.item_row.quality == 3 and first.chain_one_slip  # one slip: a pass
    second = answer(run_of(profile, [CHAIN], NOW + timedelta(days=3)))
    assert second.chain_repeated_slip and not second.chain_one_slip
    assert second.item_row.quality == 0  # the failed step's quality: a lapse
    state = profile.states()[CHAIN]
    assert state.reps == 0 and state.interval == 1  # started over
    assert steps[failing] in sessions.step_drills(profile)  # that step drilled alone
