"""A symbolic answer is proved off the UI thread: the app stays live while a proof runs."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from textual.widgets import Input

from drill.app import DrillApp
from drill.core.context import AppContext
from drill.screens.practice import ASKING, FEEDBACK, PracticeScreen
from engine import symbolic
from tests.functional.app_support import sync, text_of

# a zero that is of degree 130 once expanded: the answer passes the spot checks and reaches the proof
TAIL = " + ((Φ+N)^16+1)^4/((Φ+N+1)^16+1)^4 - ((Φ^2+2Φ*N+N^2)^8+1)^4/(((Φ+N+1)^2)^8+1)^4"

pytestmark = pytest.mark.functional
ITEM = "memory.zero_expression"


def make_app(profile, clock) -> DrillApp:
    return DrillApp(AppContext(profile, "en", clock, random.Random(7)), start="practice", items=[ITEM])


@pytest.fixture
def slow_checker(monkeypatch):
    """No whole-expression bound and a 30 s limit: the hostile answer keeps the worker busy."""
    monkeypatch.setattr(symbolic, "MAX_DEGREE", 10 ** 6)
    monkeypatch.setattr(symbolic, "MAX_TERMS", 10 ** 12)
    checker = symbolic.Checker(time_limit=30.0)
    monkeypatch.setattr(symbolic, "_checker", checker)
    yield checker
    checker.close()


@sync
async def test_the_screen_answers_keys_while_a_proof_runs_and_i_dont_know_drops_it(profile, clock, slow_checker):
    app = make_app(profile, clock)
    async with app.run_test(size=(100, 36)) as pilot:
        screen = app.screen
        assert isinstance(screen, PracticeScreen) and screen.state == ASKING
        screen.query_one("#answer", Input).value = screen.run.current_step.expected.display + TAIL
        await pilot.press("enter")
        await pilot.pause()
        assert "checking the expression symbolically" in text_of(screen, "#understood")
        assert screen.state == ASKING and not list(profile.reviews())  # nothing graded or recorded yet
        started = time.perf_counter()
        await pilot.press("ctrl+g")  # the UI thread is free: "I don't know" is taken at once
        await pilot.pause()
        assert screen.state == FEEDBACK and time.perf_counter() - started < 5
        rows = list(profile.reviews())
        assert [r.verdict for r in rows] == ["dont_know"]
        started = time.perf_counter()
    # leaving the app stopped the worker instead of waiting 30 s for the proof
    assert time.perf_counter() - started < 10
    assert slow_checker._proc is None
    assert len(list(profile.reviews())) == 1  # the dropped proof recorded nothing


@sync
async def test_a_symbolic_answer_is_graded_and_saved_when_its_proof_returns(profile, clock):
    app = make_app(profile, clock)
    async with app.run_test(size=(100, 36)) as pilot:
        screen = app.screen
        screen.query_one("#answer", Input).value = screen.run.current_step.expected.display
        await pilot.press("enter")
        for _ in range(200):  # the worker starts (sympy import) and proves it
            await pilot.pause(0.05)
            if screen.state == FEEDBACK:
                break
        assert screen.state == FEEDBACK
        assert [r.verdict for r in profile.reviews()] == ["correct"]


@sync
async def test_a_too_complex_answer_is_refused_and_stays_in_the_box(profile, clock):
    app = make_app(profile, clock)
    async with app.run_test(size=(100, 36)) as pilot:
        screen = app.screen
        hostile = screen.run.current_step.expected.display + TAIL
        screen.query_one("#answer", Input).value = hostile
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.state == ASKING and not list(profile.reviews())
        assert "too complex to check: of degree 130" in text_of(screen, "#understood")
        assert screen.query_one("#answer", Input).value == hostile
        assert not screen.query_one("#answer", Input).disabled
    await asyncio.sleep(0)
