"""A long problem opens at its question, its first line a PgUp or more away, and scrolls from the keyboard while
the answer box keeps the focus:
practice and the mock, English and Chinese, 80x24; after the formula card of a new template;
after a resize."""

from __future__ import annotations

import random

import pytest

from drill.app import DrillApp
from drill.core.context import AppContext
from drill.screens.mock_run import MockRunScreen
from tests.functional.app_support import sync
from tests.functional.test_layout import drawn

pytestmark = pytest.mark.functional

LONG = "moe.chain_moe_vs_dense"  # a scenario, nine givens and eight lines of conventions at 80 columns


def first_line(problem, lang: str) -> str:
    return (problem.scenario(lang) or problem.given_rows(lang)[0][0])[:20]


def shown(app, fragment: str) -> bool:
    return any(fragment in line for line in drawn(app))


async def scrolls_from_the_keyboard(pilot, view: str, box: str, problem, question: str, lang: str) -> None:
    app = pilot.app
    screen = app.screen
    assert shown(app, question[:12]), "\n".join(drawn(app))
    assert not shown(app, first_line(problem, lang))  # long: the givens are above, PgUp reads them
    assert screen.focused is screen.query_one(box)
    for _ in range(4):
        await pilot.press("pageup")
    await pilot.pause()
    assert shown(app, first_line(problem, lang)) and not shown(app, question[:12])
    assert screen.focused is screen.query_one(box)  # still typing
    for _ in range(4):
        await pilot.press("pagedown")
    await pilot.pause()
    assert shown(app, question[:12])
    await pilot.press("1")
    assert screen.query_one(box).value == "1"
    await pilot.press("up")
    assert screen.query_one(view).scroll_y < screen.query_one(view).max_scroll_y
    await pilot.resize_terminal(70, 22)
    await pilot.pause()
    for _ in range(6):
        await pilot.press("pageup")
    await pilot.pause()
    assert shown(app, first_line(problem, lang))  # a resize keeps the first line reachable


@pytest.mark.parametrize("lang", ["en", "zh"])
@sync
async def test_practice_opens_a_long_problem_at_its_question_and_pages_with_the_keys(profile, clock, lang):
    app = DrillApp(AppContext(profile, lang, clock, random.Random(1)), start="practice", items=[LONG])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        problem = screen.run.problem
        footer = " ".join(drawn(app)[-1:])
        assert "PgUp PgDn" in footer
        await scrolls_from_the_keyboard(pilot, "#problem", "#answer", problem,
                                        problem.steps[0].prompt(lang), lang)


@sync
async def test_after_the_first_formula_card_the_problem_opens_at_its_question(profile, clock):
    profile.set_setting("card_before_new", True)
    app = DrillApp(AppContext(profile, "en", clock, random.Random(1)), start="practice", items=[LONG])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == "CardScreen"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert shown(app, screen.run.problem.steps[0].prompt("en")[:30]), "\n".join(drawn(app))
        view = screen.query_one("#problem")
        assert view.scroll_y == view.max_scroll_y > 0  # nothing hidden below the question
        view.scroll_home(animate=False, immediate=True)
        await pilot.pause()
        assert shown(app, first_line(screen.run.problem, "en"))  # the givens above it


@pytest.mark.parametrize("lang", ["en", "zh"])
@sync
async def test_the_mock_opens_a_long_problem_at_its_question_and_pages_with_the_keys(profile, clock, lang):
    app = DrillApp(AppContext(profile, lang, clock, random.Random(3)), start="mock", questions=1, seed=3,
                   topics=["moe"])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MockRunScreen)
        problem = screen.problems[0]
        if screen.query_one("#mock-body").max_scroll_y == 0:
            pytest.skip("this seed's problem fits")  # the seed is fixed: this does not happen
        await scrolls_from_the_keyboard(pilot, "#mock-body", "#mock-answer", problem,
                                        problem.steps[screen.run.slot.step].prompt(lang), lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
@sync
async def test_the_problem_is_broken_where_a_person_would_break_it(profile, clock, lang):
    """In the app, at 80 columns no number is split from its unit, no "int4 =" | "0.5 B"."""
    from tests.unit.test_wrap import split_from_unit

    app = DrillApp(AppContext(profile, lang, clock, random.Random(1)), start="practice", items=[LONG])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        seen: list[str] = []
        for _ in range(5):
            seen += [line[1:78].rstrip() for line in drawn(app)[1:16]]
            await pilot.press("pageup")
            await pilot.pause()
        assert any("int4 = 0.5 B" in line for line in seen), "\n".join(seen)
        assert not split_from_unit(seen)
        assert not any(line.rstrip().endswith(" =") for line in seen)
