"""Every face records an answer the same way: the app's session, the mock's save and ``drill check --record``,
given the same answers on the same days, store the same rows and due dates (SM-2 and FSRS, with and without
an interview date: the final stretch's load and the daily cap on every path)."""

from __future__ import annotations

import contextlib
import io
import random
from datetime import UTC, date, datetime, time, timedelta

import pytest

from drill.cli import main
from drill.core import context
from drill.core.context import AppContext
from drill.core.paths import open_profile
from drill.core.recording import book_of, settle_queue
from drill.core.sessions import today_session
from drill.core.settings import INTERVIEW_KEY, SCHEDULER_KEY, STEP_DRILLS_KEY
from engine.grading import grade
from engine.mock_report import QuestionResult, review_rows, summarize
from engine.schedule.fsrs_bridge import Scheduler
from question_bank import registry

START = date(2026, 3, 2)
DAYS = 24  # the deep lane's plans; make test's is shorter (SHORT)
SHORT = 14  # days, the interview on the 10th: the final stretch (14 days) moves dues from the first day on
SECONDS = 20  # every answer took 20 s (check --seconds 20): graded alike on every path


def _settings(profile, scheduler: str, interview: date | None) -> None:
    profile.set_setting("new_per_day", 3)
    profile.set_setting(SCHEDULER_KEY, scheduler)
    if interview is not None:
        profile.set_setting(INTERVIEW_KEY, interview.isoformat())


def _noon(day: date) -> datetime:
    return datetime.combine(day, time(12), UTC)


def _answer(item: str, seed: int, right: bool):
    """What is typed for the problem (its answer, or another seed's answer graded wrong) and the engine's
    verdict on it."""
    step = registry.get(item).generate(seed).steps[0]
    for other in range(seed + 1, seed + 20) if not right else ():
        typed = registry.get(item).generate(other).steps[0].expected.display
        v = grade(typed, step.expected, seconds=SECONDS, target_seconds=step.target_seconds)
        if v.graded and v.quality is not None and v.quality < 3:
            return typed, v
    typed = step.expected.display
    return typed, grade(typed, step.expected, seconds=SECONDS, target_seconds=step.target_seconds)


def _app(saves, scheduler, interview, days) -> list[tuple[date, str, int, bool]]:
    """A learner practising in the app each day: every card the session asks (single templates only: a chain
    is recorded step by step on paper), right or wrong at random (seeded).  Returns what was answered."""
    p = open_profile(str(saves), None, wait=0.0)
    _settings(p, scheduler, interview)
    rng, given = random.Random(7), []
    try:
        for k in range(days):
            day = START + timedelta(days=k)
            ctx = AppContext(p, clock=lambda day=day: _noon(day), rng=random.Random(k))
            s = today_session(ctx)
            while not s.done:
                card = s.current
                assert card is not None
                if registry.chain_length(card.item) > 1:
                    s.cards = s.cards[1:]
                    continue
                right = card.kind == "redrill" or rng.random() < 0.75
                typed, v = _answer(card.item, card.seed, right)
                row = s.answer(v.quality, v.status, when=_noon(day), typed=typed, seconds=SECONDS, today=day)
                p.record(row)
                if row.mode != "redrill":  # a re-drill is logged only: the others give it no review
                    settle_queue(p, card.item)
                    given.append((day, card.item, card.seed, right))
    finally:
        p.close()
    return given


def _clock_on(day: date):
    """drill.core.context's clock at noon (UTC) of ``day``, for drill check --record."""
    return lambda: _noon(day)


def _paper(saves, scheduler, interview, given, monkeypatch) -> list[str]:
    p = open_profile(str(saves), None, wait=0.0)
    _settings(p, scheduler, interview)
    p.close()
    said = []
    for day, item, seed, right in given:
        monkeypatch.setattr(context, "utc_now", _clock_on(day))
        typed, _ = _answer(item, seed, right)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["--saves", str(saves), "check", item, "--seed", str(seed), typed, "--record",
                         "--seconds", str(SECONDS)]) == 0
        said.append(out.getvalue())
    return said


def _mock(saves, scheduler, interview, given) -> None:
    """Each answer a one-question mock, saved as MockSave.write saves its rows."""
    p = open_profile(str(saves), None, wait=0.0)
    _settings(p, scheduler, interview)
    try:
        for day, item, seed, right in given:
            typed, v = _answer(item, seed, right)
            at = _noon(day)
            r = QuestionResult(1, None, item, registry.get(item).topic, seed, typed, v.expected, v.status, SECONDS,
                               quality=v.quality, value=v.parsed.value if v.parsed is not None else None,
                               answered=at.timestamp())
            for row in review_rows(summarize([r], SECONDS, 600, False), when=at,
                                   local_date=lambda when: when.date(), book=book_of(p, day)):
                p.record(row)
    finally:
        p.close()


def _rows(saves):
    p = open_profile(str(saves), None, wait=0.0, read_only=True)
    try:
        keep = ("date", "item", "seed", "typed", "verdict", "quality", "scheduled", "before", "after")
        return [{k: getattr(r, k) for k in keep} for r in p.reviews() if r.mode != "redrill"], p.states()
    finally:
        p.close()


# make test: FSRS with an interview (the final stretch moves dues; the paper path once ignored FSRS) over SHORT days;
# the deep lane: all four over DAYS (each ~250 recorded answers through three paths: 15-35 s of one worker; every
# paper answer opens the profile again, so the cost grows faster than the days)
@pytest.mark.parametrize("scheduler, interview, days", [
    pytest.param(Scheduler.FSRS, START + timedelta(days=SHORT - 4), SHORT, id="fsrs-interview-short"),
    *(pytest.param(scheduler, interview, DAYS, marks=pytest.mark.deep, id=f"{scheduler}-{name}")
      for scheduler in (Scheduler.SM2, Scheduler.FSRS)
      for name, interview in (("interview", START + timedelta(days=DAYS - 4)), ("none", None))),
])
def test_the_app_the_mock_and_paper_store_the_same_rows_and_due_dates(tmp_path, monkeypatch, scheduler, interview,
                                                                      days):
    given = _app(tmp_path / "app", scheduler, interview, days)
    assert len(given) > 30 and any(not right for *_, right in given)
    said = _paper(tmp_path / "paper", scheduler, interview, given, monkeypatch)
    _mock(tmp_path / "mock", scheduler, interview, given)
    app_rows, app_states = _rows(tmp_path / "app")
    assert any(r["scheduled"] for r in app_rows)
    for face in ("paper", "mock"):
        rows, states = _rows(tmp_path / face)
        assert rows == app_rows, face
        assert states == app_states, face
    # the confirmation names the due date stored (the final stretch's, not the scheduler's interval)
    paper_rows, _ = _rows(tmp_path / "paper")
    for text, row in zip(said, paper_rows, strict=True):
        if row["after"] is not None:
            days = (date.fromisoformat(row["after"]["due"]) - date.fromisoformat(row["date"])).days
            assert f"next due {row['after']['due']} (in {days} d)" in text


def test_a_chains_failed_step_answered_on_paper_leaves_the_step_drills(tmp_path, monkeypatch):
    chain = next(t for t in registry.all_templates() if registry.chain_length(t.id) > 1)
    single = next(t for t in registry.all_templates() if registry.chain_length(t.id) == 1)
    p = open_profile(str(tmp_path), None, wait=0.0)
    p.set_setting(STEP_DRILLS_KEY, {single.id: START.isoformat(), chain.id: START.isoformat()})
    p.close()
    _paper(tmp_path, Scheduler.SM2, None, [(START, single.id, 3, True)], monkeypatch)
    p = open_profile(str(tmp_path), None, wait=0.0, read_only=True)
    try:
        assert p.settings()[STEP_DRILLS_KEY] == {chain.id: START.isoformat()}
    finally:
        p.close()
