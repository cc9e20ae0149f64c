"""Practice and the mock fit their terminal: the givens, the question and the answer box in view at 80x24
and 120x40 (read from what is drawn, not from a count of lines); in a wide terminal the worked solution
gets the room it needs; a chain's progress counts its steps."""

from __future__ import annotations

import html
import random
import re

import pytest
from rich.cells import cell_len

from drill.app import DrillApp
from drill.core.context import AppContext
from drill.screens.mock_run import MockRunScreen
from drill.screens.practice import PracticeScreen
from drill.widgets.formulas import wrap_formula
from question_bank import registry
from tests.functional.app_support import submit, sync

pytestmark = pytest.mark.functional

CHAIN = "communication.ddp_chain"  # a scenario, four givens, three lines of conventions, three steps


def drawn(app) -> list[str]:
    """The screen as drawn, line by line: the text of Textual's screenshot (``App.export_screenshot``, an SVG
    with one ``<text>`` per run of styled characters, at its column, blank runs left out)."""
    svg = app.export_screenshot()
    width, height = app.size
    line_rect = re.search(r'<clipPath id="[^"]*-line-0">\s*<rect x="0" y="[^"]*" width="([^"]*)"', svg)
    cell = float(line_rect[1]) / width  # a column's width in the SVG
    lines = [""] * height
    for x, row, text in re.findall(r'<text class="[^"]*" x="([^"]*)" y="[^"]*" textLength="[^"]*" '
                                   r'clip-path="url\(#[^"]*-line-(\d+)\)">([^<]*)</text>', svg):
        line, column = lines[int(row)], round(float(x) / cell)
        lines[int(row)] = line + " " * (column - cell_len(line)) + html.unescape(text).replace("\xa0", " ")
    return [line + " " * (width - cell_len(line)) for line in lines]


def line_of(lines: list[str], fragment: str) -> int:
    found = [i for i, line in enumerate(lines) if fragment in line]
    assert found, f"{fragment!r} is not drawn:\n" + "\n".join(lines)
    return found[0]


def assert_in_view(app, problem, step: int, box: str) -> None:
    """Every given (label and value), the question's first words and the answer box are drawn, in that order."""
    lines, lang = drawn(app), app.ctx.lang
    rows = [line_of(lines, label) for label, _ in problem.given_rows(lang)]
    for (label, value), row in zip(problem.given_rows(lang), rows):
        assert value in lines[row], (label, value)
    question = line_of(lines, problem.steps[step].prompt(lang)[:30])
    answer = app.screen.query_one(box).region
    assert max(rows) < question < answer.y
    assert answer.bottom <= app.screen.region.bottom - 1  # above the footer


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@sync
async def test_practice_keeps_givens_question_and_answer_box_in_view_and_counts_steps(profile, clock, size):
    app = DrillApp(AppContext(profile, "en", clock, random.Random(1)), start="practice", items=[CHAIN])
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PracticeScreen)
        problem = screen.run.problem
        assert_in_view(app, problem, 0, "#answer")
        assert screen.run.step_progress == (0, 3)  # a chain counts its steps
        await submit(pilot, screen.run.current_step.expected.display)
        assert screen.run.step_progress == (1, 3) and "1/3" in drawn(app)[0]
        if size[0] < 110:
            return
        # wide: the worked solution beside the problem, as wide as its lines need; none broken that fits
        feedback, question = screen.query_one("#feedback").region, screen.query_one("#problem").region
        assert feedback.width >= question.width
        lines = drawn(app)
        room = screen.query_one("#solution").content_size.width
        for line in problem.steps[0].solution_lines("en"):
            for part in wrap_formula(line, room):
                assert any(part.strip() in drawn_line for drawn_line in lines), part
            if cell_len(line) <= room:
                assert wrap_formula(line, room) == [line]
        await pilot.press("enter")  # step 2: the first step's answer above it, still all in view
        assert_in_view(app, problem, 1, "#answer")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@sync
async def test_the_mock_question_is_laid_out_as_in_practice(profile, clock, size):
    app = DrillApp(AppContext(profile, "en", clock, random.Random(3)), start="mock", questions=2, seed=3,
                   topics=["communication"])
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#mock-seed").region.bottom <= size[1] - 1  # the seed field in view
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MockRunScreen)
        await pilot.pause()
        body = screen.query_one("#mock-body")
        if body.max_scroll_y == 0:  # it fits: all of it in view
            assert_in_view(app, screen.problems[0], screen.run.slot.step, "#mock-answer")
        else:  # longer than the screen: it opens at its question, PgUp reads the givens
            assert body.scroll_y == body.max_scroll_y
        lines = drawn(app)
        # nothing between the question and the box: they are drawn together, not at opposite ends
        question = line_of(lines, screen.problems[0].steps[screen.run.slot.step].prompt("en")[:30])
        assert screen.query_one("#mock-answer").region.y - question <= 3


def test_a_formula_is_broken_only_between_terms_and_only_when_it_must():
    line = "  = 2 × 2048 × 2048 × 2048 / (4 × (2048 × 2048 + 2048 × 2048 + 2048 × 2048))"
    assert wrap_formula(line, 100) == [line]
    assert wrap_formula(line, 60) == ["  = 2 × 2048 × 2048 × 2048",
                                      "      / (4 × (2048 × 2048 + 2048 × 2048 + 2048 × 2048))"]
    for template in registry.all_templates()[::7]:
        for step in template.generate(1).steps:
            for text in step.solution_lines("en") + step.solution_lines("zh"):
                for width in (30, 50, 72):
                    parts = wrap_formula(text, width)
                    assert "".join("".join(p.split()) for p in parts) == "".join(text.split())  # nothing lost
                    assert all(cell_len(p) <= width for p in parts[:-1])  # only an unbreakable rest may not


def test_chinese_prose_breaks_between_characters_never_inside_the_formula_it_quotes():
    line = "  M_static 的来历：2Φ bf16 权重 + 2Φ bf16 梯度 + 12Φ fp32 AdamW 状态（4Φ 主权重、4Φ 动量、4Φ 方差），合计 16Φ"
    for width in (30, 40, 56):
        parts = wrap_formula(line, width)
        assert len(parts) > 1 and all(cell_len(p) <= width for p in parts)
        assert "".join(p.strip() for p in parts) == "".join(line.split(" ")).strip() or \
            "".join("".join(p.split()) for p in parts) == "".join(line.split())
        for p in parts:  # a break falls between two Chinese characters or at a space, not inside "2Φ bf16"
            assert not p.rstrip().endswith(("2Φ", "12Φ", "4Φ")), parts
            assert not p.lstrip().startswith(("，", "）", "、")), parts
    take = "  面试要点：混合精度 AdamW 每个参数要 16 字节，这还没算激活：7 × 10⁹ 个参数光训练状态就要 112 GB。"
    assert wrap_formula(take, 60) == ["  面试要点：混合精度 AdamW 每个参数要 16 字节，这还没算激",
                                      "    活：7 × 10⁹ 个参数光训练状态就要 112 GB。"]
