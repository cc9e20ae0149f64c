"""The figures of Home, Browse and a weighted mock (drill.core.home_figures, browse_rows, mock), from a real
profile: what they show, and that Browse and the mock read the state file's figures (Profile.recent), not the review log."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import pytest

from drill.core import browse_rows, home_figures, mock, practice_run, sessions
from drill.core.context import AppContext
from engine.grading import display_number
from engine.mock import weakness_figures
from engine.session import QUEUE_KEY, review_row
from engine.storage import Profile
from question_bank import registry

NOW = datetime(2026, 11, 29, 15, 0, tzinfo=UTC)
TEMPLATES = registry.all_templates()
SINGLE = [t for t in TEMPLATES if not t.is_chain]
CHAIN = next(t for t in TEMPLATES if t.is_chain)


@pytest.fixture
def profile(tmp_path):
    with Profile.open(tmp_path) as p:
        yield p


def ctx_for(profile: Profile) -> AppContext:
    return AppContext(profile, clock=lambda: NOW, rng=random.Random(1))


def answer(p: Profile, t, q: int, *, day: date, mode: str = "practice", step: int | None = None,
           seed: int = 1) -> dict:
    schedule = mode == "practice" and step is None
    verdict = "correct" if q >= 4 else "close" if q == 3 else "wrong" if q else "dont_know"
    when = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    return p.record(review_row(item=t.id, topic=t.topic, seed=seed, quality=q, verdict=verdict, when=when,
                               today=day, state=p.state(t.id) if schedule else None, schedule=schedule,
                               mode=mode, step=step, seconds=10))


def no_log(monkeypatch) -> None:
    """Fail the test if anything reads the review log."""
    monkeypatch.setattr(Profile, "reviews", lambda self: pytest.fail("the whole log was read"))
    monkeypatch.setattr(Profile, "_rows_of", lambda self, n: pytest.fail(f"log segment {n} was read"))
    monkeypatch.setattr(Profile, "digest", lambda self: pytest.fail("the log's digest was read"))


def history(p: Profile, n: int, rng: random.Random) -> None:
    """``n`` answers over a few days: practice, extra and mock answers, and chains step by step."""
    start = NOW.date() - timedelta(days=20)
    for k in range(n):
        day = start + timedelta(days=k * 20 // n)
        if rng.random() < 0.2:
            steps = len(CHAIN.generate(k).steps)
            for s in range(1, steps + 1):
                answer(p, CHAIN, rng.randrange(6), day=day, mode="mock", step=s, seed=k)
        else:
            answer(p, rng.choice(SINGLE[:8]), rng.randrange(6), day=day, mode=rng.choice(("practice", "extra")))


def test_home_counts_templates_queued_from_a_mock_report(profile):
    ctx = ctx_for(profile)
    profile.set_setting("new_per_day", 0)
    assert (home_figures.today_figures(ctx).session, home_figures.today_figures(ctx).queued) == (0, 0)  # the day is done
    first, second = SINGLE[0], SINGLE[1]
    profile.set_setting(QUEUE_KEY, [first.id, second.id, "gone.template"])
    f = home_figures.today_figures(ctx)
    assert (f.due, f.new, f.queued, f.session) == (0, 0, 2, 2)  # p asks them: not done
    assert f.session == len(sessions.today_session(ctx).cards)
    # a queued template that is also due counts once, as due
    answer(profile, first, 4, day=NOW.date() - timedelta(days=1))
    assert profile.state(first.id).due <= NOW.date()
    f = home_figures.today_figures(ctx)
    assert (f.due, f.queued, f.session) == (1, 1, 2)


def test_browse_shows_each_templates_last_whole_answer(profile, monkeypatch):
    t, other = SINGLE[0], SINGLE[1]
    d1, d2 = NOW.date() - timedelta(days=2), NOW.date() - timedelta(days=1)
    answer(profile, t, 5, day=d1)
    answer(profile, t, 1, day=d2, mode="extra")
    answer(profile, CHAIN, 4, day=d2, mode="mock", step=1)  # only a step of a chain: no whole answer
    no_log(monkeypatch)
    rows = {r.item: r for r in browse_rows.bank_rows(ctx_for(profile))}
    assert [r.item for r in browse_rows.bank_rows(ctx_for(profile))] == [x.id for x in TEMPLATES]
    assert (rows[t.id].last, rows[t.id].last_date, rows[t.id].state) == ("wrong", d2.isoformat(), "learning")
    assert (rows[other.id].last, rows[other.id].state) == (None, "new")
    assert (rows[CHAIN.id].last, rows[CHAIN.id].last_date) == (None, None)


def test_browse_shows_the_final_grade_of_an_overridden_answer(profile, monkeypatch):
    """Browse's Last counts as the session summary does: by the final quality, after an override."""
    t = next(x for x in SINGLE if x.answer_kind == "number")
    run = practice_run.PracticeRun(ctx_for(profile), sessions.items_session(ctx_for(profile), [t.id]))
    e = run.current_step.expected
    a = run.submit(display_number(float(e.value) * 10, e.unit_kind, e.unit))  # ten times the answer: wrong
    assert a.status == "wrong"
    for quality, shown in ((4, "correct"), (3, "close"), (0, "dont_know"), (2, "wrong")):
        run.override(quality)
        with monkeypatch.context() as m:
            no_log(m)
            row = next(r for r in browse_rows.bank_rows(ctx_for(profile)) if r.item == t.id)
        assert (row.last, practice_run.summary_grade(quality)) == (shown, shown)
    assert profile.recent()[t.id].verdict == "wrong"  # the engine's verdict is kept as it was


def test_browse_and_mock_figures_equal_those_read_from_the_log_through_undo_and_reopening(tmp_path,
                                                                                          monkeypatch):
    rng = random.Random(3)
    with Profile.open(tmp_path) as p:
        history(p, 120, rng)
        for _ in range(7):  # undo back past several rows of the same templates
            p.undo_last()
        history(p, 10, rng)
        expected_weakness = weakness_figures(p.reviews())
        last = {}
        for r in p.reviews():
            if r.step is None:
                last[r.item] = (practice_run.summary_grade(r.quality), r.date)
        with monkeypatch.context() as m:
            no_log(m)
            assert mock.weakness(ctx_for(p)) == pytest.approx(expected_weakness) == mock.weakness_of(p)
            assert {r.item: (r.last, r.last_date) for r in browse_rows.bank_rows(ctx_for(p)) if r.last} == last
    with Profile.open(tmp_path) as p:
        no_log(monkeypatch)
        assert mock.weakness(ctx_for(p)) == pytest.approx(expected_weakness)


def test_a_session_started_before_midnight_files_each_answer_under_its_own_day(tmp_path):
    """Every row (a chain's steps too) carries the local date of the answer; its due date counts from it."""
    chain = next(t for t in registry.all_templates() if t.is_chain)
    start = datetime(2026, 11, 29, 23, 58).astimezone()  # local time, whatever the machine's zone
    now = [start]
    with Profile.open(tmp_path) as p:
        ctx = AppContext(p, "en", lambda: now[0], random.Random(3))
        run = practice_run.PracticeRun(ctx, sessions.items_session(ctx, [chain.id]))
        for k, step in enumerate(run.problem.steps):
            now[0] = start + timedelta(minutes=1 + 2 * k)  # the first step at 23:59, the rest after midnight
            a = run.submit(step.expected.display)
            if not a.last_step:
                run.advance()
        saved = list(p.reviews())
        day1, day2 = start.date().isoformat(), (start.date() + timedelta(days=1)).isoformat()
        assert [r.date for r in saved] == [day1] + [day2] * (len(saved) - 1)
        whole = saved[-1]
        assert whole.step is None and whole.after["last"] == day2
        assert whole.after["due"] == (start.date() + timedelta(days=2)).isoformat()  # not due the day it was answered
