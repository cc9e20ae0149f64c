"""At 80x24 a problem opens at its question: every template at seeds 1-3, both languages, each chain step
in practice and in the mock; after an answer ↑ ↓ still scroll the problem.

One app per language and seed (a problem is drawn by starting the practice screen's run again on one
template): every template, about 10 s a seed and language, six tests the workers share."""

from __future__ import annotations

import random
import re

import pytest

from drill.app import DrillApp
from drill.core.context import AppContext
from drill.screens.mock_run import MockRunScreen
from question_bank import registry
from tests.functional.app_support import sync
from tests.functional.test_layout import drawn

pytestmark = pytest.mark.functional

# make test opens every template at seed 1, in English or Chinese by turns; make test-deep in both, at seeds 2 and 3
# too (about 10 s of wall time a seed and language)
SEEDS = (1, pytest.param(2, marks=pytest.mark.deep), pytest.param(3, marks=pytest.mark.deep))
LONG = "moe.chain_moe_vs_dense"  # a scenario, nine givens and eight lines of conventions at 80 columns


SCROLLBAR = "▁▂▃▄▅▆▇█▉▊▋▌▍▎▏ "


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def question_on_screen(app, question: str) -> bool:
    """The whole question, as drawn (the scrollbar's glyphs in the last two columns left out), wherever the
    lines were broken."""
    return squeezed(question) in squeezed("".join(line[:78] + line[78:].strip(SCROLLBAR) for line in drawn(app)))


async def settles_on(pilot, question: str) -> bool:
    """The question on screen once the problem is laid out: the scroll to it follows the first refresh at
    the screen's width (a frame later on a loaded machine)."""
    for delay in (None, None, 0.1, 0.3):
        await pilot.pause(delay)
        if question_on_screen(pilot.app, question):
            return True
    return False


def _templates(lang: str) -> list:
    """Every template (make test-deep), or every other one, English and Chinese taking turns (make test: each
    template in one language, half the time of both; the layout is the same code in both)."""
    from tests import problems

    every = registry.all_templates()
    return every if problems.lane == "deep" else every[(lang == "zh")::2]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("lang", ["en", "zh"])
@sync
async def test_every_template_opens_with_its_question_on_screen(profile, clock, lang, seed):
    app = DrillApp(AppContext(profile, lang, clock, random.Random(1)), start="practice", items=[LONG])
    hidden: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        for tpl in _templates(lang):
            screen.items, screen.seed = [tpl.id], seed
            screen.start_run("items")
            if not await settles_on(pilot, screen.run.problem.steps[0].prompt(lang)):
                hidden.append(tpl.id)
    assert not hidden, hidden


@pytest.mark.parametrize("lang", ["en", "zh"])
@sync
async def test_each_step_of_a_chain_opens_at_its_question_and_the_problem_scrolls_after_an_answer(
        profile, clock, lang):
    app = DrillApp(AppContext(profile, lang, clock, random.Random(1)), start="practice", items=[LONG])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        problem = screen.run.problem
        first = (problem.scenario(lang) or problem.given_rows(lang)[0][0])[:20]
        assert not any(first in line for line in drawn(app))  # long: the givens are above the question
        for step in problem.steps:
            assert await settles_on(pilot, step.prompt(lang)), "\n".join(drawn(app))
            await pilot.press("ctrl+g")  # I don't know: the feedback
            await pilot.pause()
            view = screen.query_one("#problem")
            before = view.scroll_y
            await pilot.press("up")
            await pilot.pause()
            assert view.scroll_y < before  # the problem pane, not only the feedback, answers a key
            feedback = screen.query_one("#feedback")
            feedback.scroll_home(animate=False, immediate=True)
            await pilot.press("pagedown")
            await pilot.pause()
            assert feedback.scroll_y > 0 or feedback.max_scroll_y == 0  # PgDn still reads the feedback on
            await pilot.press("enter")
            await pilot.pause()


@pytest.mark.parametrize("lang", ["en", "zh"])
@sync
async def test_each_step_of_a_mock_opens_at_its_question(profile, clock, lang):
    app = DrillApp(AppContext(profile, lang, clock, random.Random(3)), start="mock", questions=2, seed=3,
                   topics=["moe"])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MockRunScreen)
        for _ in screen.run.slots:
            slot = screen.run.slot
            problem = screen.problems[slot.question]
            assert await settles_on(pilot, problem.steps[slot.step].prompt(lang)), "\n".join(drawn(app))
            await pilot.press("ctrl+n")  # skip: the next step or question
            await pilot.pause()
            if screen.run.slot is slot or not isinstance(app.screen, MockRunScreen):
                break
