"""Chinese mode: what the engine says reaches the screen in Chinese.

Unreadable answers, verdicts, misconceptions and choices are engine text
(engine/messages.py); in ``--lang zh`` the practice and mock screens show their
Chinese twins, and no English engine sentence.
"""

from __future__ import annotations

import random
import re

import pytest
from textual.widgets import Input

from drill.app import DrillApp
from drill.core.context import AppContext
from drill.screens.mock_run import MockRunScreen
from drill.screens.mock_setup import MockSetupScreen
from drill.screens.practice import ASKING, FEEDBACK
from engine.grading import display_number
from tests.functional.app_support import submit, sync, text_of

pytestmark = pytest.mark.functional
SIZE = (100, 36)
CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_ENGINE = ("is a size in bytes", "Can't read", "Looks like you", "expected one of", "understood so far",
                  "Wrong", "Correct", "unknown unit")


def practice(profile, clock, item: str) -> DrillApp:
    return DrillApp(AppContext(profile, "zh", clock, random.Random(7)), start="practice", items=[item])


def no_english(text: str) -> bool:
    return not any(s in text for s in ENGLISH_ENGINE)


@sync
async def test_an_unreadable_answer_is_explained_in_chinese_and_not_recorded(profile, clock):
    app = practice(profile, clock, "roofline.ridge_point")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press(*"12 GB")
        await pilot.pause()
        live = text_of(screen, "#understood")
        assert live.startswith("还读不懂：") and "GB 是字节数，但题目问的是算术强度" in live and no_english(live)
        await pilot.press("enter")
        await pilot.pause()
        line = text_of(screen, "#understood")
        assert screen.state == ASKING and screen.query_one("#answer", Input).value == "12 GB"
        assert line.startswith("未评分、未记录：") and "GB 是字节数" in line and no_english(line)
        await submit(pilot, "1,12")
        assert "逗号不是千位分隔符" in text_of(screen, "#understood")
    assert list(profile.reviews()) == []


@sync
async def test_a_wrong_answer_names_the_misconception_in_chinese(profile, clock):
    app = practice(profile, clock, "roofline.ridge_point")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        exp = screen.run.current_step.expected
        miss = next(m for m in exp.misses if m.key == "inverted")
        await pilot.press(*display_number(miss.value, exp.unit_kind))
        await pilot.pause()
        assert text_of(screen, "#understood").startswith("识别为：= ")
        await pilot.press("enter")
        await pilot.pause()
        assert screen.state == FEEDBACK
        verdict = text_of(screen, "#verdict")
        assert f"看起来你{miss.label_zh}。" in verdict and miss.label not in verdict
        assert "你的答案：" in verdict and no_english(verdict)
    [row] = list(profile.reviews())
    assert row.verdict == "wrong" and row.quality == 2  # the same grade as in English


@sync
async def test_a_choice_is_offered_read_and_judged_in_chinese(profile, clock):
    app = practice(profile, clock, "roofline.classify_kernel")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        box = screen.query_one("#answer", Input)
        assert "访存受限" in box.placeholder and "算力受限" in box.placeholder
        await pilot.press(*"maybe")
        await pilot.pause()
        assert "应为以下之一：访存受限、算力受限" in text_of(screen, "#understood")
        exp = screen.run.current_step.expected
        other = next(c for c in exp.choices if c.key != exp.value)
        right = next(c for c in exp.choices if c.key == exp.value)
        box.value = other.key
        await pilot.pause()
        assert text_of(screen, "#understood") == f"识别为：= {other.label_zh}"
        await pilot.press("enter")
        await pilot.pause()
        verdict = text_of(screen, "#verdict")
        assert f"你的答案：{other.label_zh}" in verdict and f"正确答案：{right.label_zh}" in verdict
        assert other.key not in verdict and no_english(verdict)


@sync
async def test_the_mock_refuses_an_unreadable_answer_in_chinese(profile, clock):
    # pipeline questions are all numbers: a refused number names what was typed (a choice lists the choices)
    app = DrillApp(AppContext(profile, "zh", clock, random.Random(3)), start="mock", questions=2, seed=3,
                   chains=False, topics=["pipeline"])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MockSetupScreen)
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MockRunScreen)
        screen.answer_box.value = "twelve"
        await pilot.pause()
        reading = str(screen.query_one("#mock-reading").render())
        assert reading.startswith("还读不懂：") and CJK.search(reading[5:]) and no_english(reading)
        await pilot.press("enter")
        await pilot.pause()
        refused = str(screen.query_one("#mock-reading").render())
        assert refused.startswith("未提交：") and "twelve" in refused and no_english(refused)
        assert screen.run.current == 0 and screen.run.slot.status == "pending"


@sync
async def test_the_summary_says_in_chinese_how_it_counts(profile, clock):
    from drill.core.practice_run import Summary

    summary = Summary(answered=3, correct=1, close=1, wrong=0, dont_know=1, seconds=90.0,
                      by_topic={"roofline": (2, 3)}, due_tomorrow=[])
    app = DrillApp(AppContext(profile, "zh", clock, random.Random(7)), start="summary", summary=summary)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        shown = text_of(app.screen, "#summary")
        assert "按最终评分计（含手动改分）" in shown and "各主题正确率（正确或接近）" in shown
        assert "67 %" in shown and "2/3" in shown


@sync
async def test_givens_are_shown_in_chinese(profile, clock):
    app = practice(profile, clock, "roofline.elementwise_intensity")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        problem = app.screen.run.problem
        shown = text_of(app.screen, "#question")
        for label, value in problem.given_rows("zh"):
            assert label in shown and value in shown
        assert any(g.display not in shown for g in problem.givens)  # a text given has its Chinese value
