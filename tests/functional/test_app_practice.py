"""Practice sessions driven through the Textual pilot: what is shown and what the save files record.

The clock is injected (it moves only when a test moves it) and problem seeds
come from a seeded RNG, so every run sees the same problems.
"""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import pytest
from textual.widgets import Input

from drill.app import DrillApp
from drill.core import sessions
from drill.core.context import AppContext
from drill.screens.home import HomeScreen
from drill.screens.practice import ASKING, EMPTY, FEEDBACK, PracticeScreen
from drill.screens.summary import SummaryScreen
from engine.grading import display_number
from engine.session import review_row
from question_bank import registry
from tests.functional.app_support import footer_drawn, notices, submit, sync, text_of

pytestmark = pytest.mark.functional
SIZE = (100, 36)


def make_app(profile, clock, lang="en", start="practice", **kwargs) -> DrillApp:
    return DrillApp(AppContext(profile, lang, clock, random.Random(7)), start=start, **kwargs)


def right(step) -> str:
    return step.expected.display


def wrong(step) -> str:
    e = step.expected
    if e.kind == "number":
        return display_number(float(e.value) * 7, e.unit_kind, e.unit)
    if e.kind == "choice":
        return next(c.key for c in e.choices if c.key != e.value)
    return "1"


def rows(profile) -> list[dict]:
    return list(profile.reviews())


@sync
async def test_a_correct_answer_is_saved_before_its_feedback_appears(profile, clock):
    app = make_app(profile, clock)
    seen_at_feedback = []
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, PracticeScreen) and screen.state == ASKING
        original = screen.show_feedback

        def spy(answer):
            seen_at_feedback.append(rows(profile))
            original(answer)

        screen.show_feedback = spy
        step, card = screen.run.current_step, screen.run.card
        clock.advance(12)
        await submit(pilot, right(step))
        assert screen.state == FEEDBACK
        assert "Correct" in text_of(screen, "#verdict")
        assert step.solution_lines("en")[0] in text_of(screen, "#solution")
    [saved] = seen_at_feedback
    assert len(saved) == 1
    row = saved[0]
    assert (row.item, row.seed, row.verdict, row.mode, row.scheduled) == \
        (card.item, card.seed, "correct", "practice", True)
    assert row.quality == 5 and row.seconds == 12.0  # within the target time
    assert row.before is None and row.after["due"] == "2026-11-30"
    assert row.ts == "2026-11-29T15:00:12Z" and row.date == clock().astimezone().date().isoformat()
    assert profile.states()[card.item].reps == 1


@sync
async def test_a_wrong_answer_is_recorded_and_comes_back_later_in_the_session(profile, clock):
    app = make_app(profile, clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        item = screen.run.card.item
        done, total = screen.run.progress
        await submit(pilot, wrong(screen.run.current_step))
        assert screen.state == FEEDBACK
        assert "Wrong" in text_of(screen, "#verdict")
        assert "comes back later" in text_of(screen, "#verdict")
        assert screen.run.progress == (done + 1, total + 1)
        assert [c.kind for c in screen.run.session.cards].count("redrill") == 1
        assert any(c.item == item and c.kind == "redrill" for c in screen.run.session.cards)
    [row] = rows(profile)
    assert row.verdict == "wrong" and row.quality in (1, 2) and row.scheduled
    assert profile.states()[item].interval == 1 and profile.states()[item].reps == 0


@sync
async def test_an_unreadable_answer_is_neither_graded_nor_recorded_and_keeps_the_text(profile, clock):
    app = make_app(profile, clock, items=["roofline.ridge_point"])
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await submit(pilot, "12 parsecs")
        assert screen.state == ASKING
        assert screen.query_one("#answer", Input).value == "12 parsecs"
        line = text_of(screen, "#understood")
        assert line.startswith("Not graded, not recorded:") and "parsecs" in line
        assert app.focused is screen.query_one("#answer", Input)
    assert rows(profile) == []


@sync
@pytest.mark.parametrize("lang, line, you", [
    ("en", "understood: = 49.21 %  (read as a fraction, not a percentage)", "You: 49.21 %"),
    ("zh", "识别为：= 49.21 %（按小数读取，不是百分数）", "你的答案：49.21 %"),
])
async def test_the_live_line_shows_the_reading_that_is_graded(profile, clock, lang, line, you):
    """A bare fraction where % is asked: previewed as the grader reads it (49.21 %), not as 0.4921 %."""
    app = make_app(profile, clock, lang=lang, items=["pipeline.bubble_1f1b_given"], seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert screen.run.card.seed == 1
        await pilot.press(*"31/63")
        assert text_of(screen, "#understood") == line
        await pilot.press("enter")
        await pilot.pause()
        verdict = text_of(screen, "#verdict")
        assert screen.state == "feedback" and screen.run.answers[-1].status == "correct" and you in verdict
    [row] = rows(profile)
    assert row.seed == 1 and row.value == pytest.approx(31 / 63)


@sync
async def test_the_answer_box_shows_what_the_engine_understood_while_typing(profile, clock):
    app = make_app(profile, clock, items=["roofline.ridge_point"])
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press(*"2000/4")
        assert text_of(screen, "#understood") == "understood: = 500 FLOP/B"
        await pilot.press(*" GB")
        assert "can't read it yet" in text_of(screen, "#understood")
        assert "GB is a size in bytes" in text_of(screen, "#understood")
        await pilot.press("ctrl+u")
        assert "Type your answer" in text_of(screen, "#understood")
    assert rows(profile) == []


@sync
async def test_i_dont_know_shows_the_solution_and_records_quality_0(profile, clock):
    app = make_app(profile, clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        first = screen.run.current_step
        await pilot.press("ctrl+g")
        assert screen.state == FEEDBACK
        assert "Don't know" in text_of(screen, "#verdict")
        assert first.expected.display in text_of(screen, "#verdict")
        assert first.solution_lines("en")[-1] in text_of(screen, "#solution")
        await pilot.press("enter")
        await submit(pilot, "?")  # typing ? is the same
        assert screen.state == FEEDBACK
    assert [(r.verdict, r.quality, r.typed) for r in rows(profile)] == [("dont_know", 0, ""),
                                                                               ("dont_know", 0, "?")]


@sync
async def test_overriding_a_grade_re_records_the_answer_with_the_chosen_quality(profile, clock):
    app = make_app(profile, clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        item = screen.run.card.item
        cards = len(screen.run.session.cards)
        await submit(pilot, right(screen.run.current_step))
        await pilot.press("a")  # Again: quality 1
        assert "Grade 1" in text_of(screen, "#verdict")
        assert len(screen.run.session.cards) == cards  # it now comes back: a re-drill replaced the answered card
        await pilot.press("4")
        assert "Grade 4" in text_of(screen, "#verdict")
        assert len(screen.run.session.cards) == cards - 1
    [row] = rows(profile)
    assert (row.verdict, row.quality) == ("correct", 4)  # the engine's verdict, the learner's grade
    assert row.after["ef"] == 2.5 and profile.states()[item].ef == 2.5


@sync
async def test_undo_takes_back_the_last_answer_and_offers_its_text_again(profile, clock):
    app = make_app(profile, clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        item = screen.run.card.item
        typed = wrong(screen.run.current_step)
        await submit(pilot, typed)
        await pilot.press("enter")  # on to the next problem
        assert screen.run.card.item != item
        await pilot.press("ctrl+z")
        assert screen.state == ASKING and screen.run.card.item == item
        assert screen.query_one("#answer", Input).value == typed
        assert rows(profile) == [] and profile.states() == {}
        await pilot.press("ctrl+z")  # nothing left to undo in this session
        assert rows(profile) == []
        await submit(pilot, right(screen.run.current_step))
        await pilot.press("u")
        assert screen.state == ASKING and rows(profile) == []
        assert "Graded 3 at most: its solution was shown" in notices(app)
        await submit(pilot, right(screen.run.current_step))  # answered again, the solution seen: 3 at most
        assert "At most 3: answered again after an undo" in text_of(screen, "#verdict")
        assert [r.quality for r in rows(profile)] == [3]


@sync
async def test_a_whole_session_ends_with_a_summary_then_home(profile, clock):
    profile.set_setting("new_per_day", 3)
    app = make_app(profile, clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert screen.run.progress == (0, 3)
        answers = 0
        while isinstance(app.screen, PracticeScreen):
            run = screen.run
            clock.advance(30)
            # the first card once wrong, then everything right (its re-drill included)
            await submit(pilot, wrong(run.current_step) if answers == 0 else right(run.current_step))
            answers += 1
            await pilot.press("enter")
        assert isinstance(app.screen, SummaryScreen)
        summary = app.screen.summary
        assert (summary.answered, summary.correct, summary.wrong) == (answers, answers - 1, 1)
        shown = text_of(app.screen, "#summary")
        assert "Session summary" in shown and "Roofline" in shown and "Due tomorrow: 3" in shown
        await pilot.press("enter")
        assert isinstance(app.screen, HomeScreen)
    saved = rows(profile)
    modes = [r.mode for r in saved]
    assert modes.count("redrill") == 1 and modes.count("practice") == 3
    assert all(not r.scheduled for r in saved if r.mode == "redrill")
    assert summary.seconds == 30.0 * answers


@sync
async def test_escape_leaves_cleanly_and_keeps_what_was_answered(profile, clock):
    app = make_app(profile, clock, start="home")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("p")
        screen = app.screen
        assert isinstance(screen, PracticeScreen)
        await submit(pilot, right(screen.run.current_step))
        await pilot.press("enter")
        await pilot.press(*"12")  # half-typed: not recorded
        await pilot.press("escape")
        assert isinstance(app.screen, SummaryScreen) and app.screen.summary.answered == 1
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("p")
        await pilot.press("escape")  # nothing answered: straight back
        assert isinstance(app.screen, HomeScreen)
    assert len(rows(profile)) == 1


def find_chain() -> str:
    return next(t.id for t in registry.all_templates() if t.is_chain)


@sync
async def test_a_chain_walks_its_steps_and_is_graded_by_its_steps(profile, clock):
    chain = find_chain()
    app = make_app(profile, clock, items=[chain])
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        problem = screen.run.problem
        n = len(problem.steps)
        assert n > 1 and "Step 1 of" in text_of(screen, "#question")
        scenario = problem.scenario("en").split("\n")[0][:40]
        assert scenario
        for i, step in enumerate(problem.steps):
            assert screen.run.step == i
            assert text_of(screen, "#question").count(scenario) == 1  # shown once, kept above the steps
            await submit(pilot, wrong(step) if i == 1 else right(step))
            if i < n - 1:
                assert "Chain grade" not in text_of(screen, "#verdict")
                await pilot.press("enter")
                assert f"Step {i + 2} of {n}" in text_of(screen, "#question")
        # the rule said is the rule applied: one slip among right steps records 3, not the lowest step
        assert "Chain grade 3 (hard): one slip among right steps passes with 3." in text_of(screen, "#verdict")
        assert "lowest" not in text_of(screen, "#verdict")
    saved = rows(profile)
    steps = [r for r in saved if r.step is not None]
    assert [r.step for r in steps] == list(range(1, n + 1))
    [whole] = [r for r in saved if r.step is None]
    assert saved[-1] == whole  # recorded last
    # one slip (step 2) among right steps: a pass with 3, not a restart
    assert whole.quality == sessions.chain_quality([r.quality for r in steps]) == 3 and whole.verdict == "wrong"
    # practised on demand from Browse: its first answer anywhere enters the schedule, with the chain's quality
    assert whole.mode == "extra" and whole.scheduled and whole.before is None
    assert whole.typed == "" and whole.seconds == sum(r.seconds for r in steps)
    due = date.fromisoformat(whole.date) + timedelta(days=1)
    assert profile.states()[chain].due == due and whole.after["due"] == due.isoformat()
    assert all(r.date == whole.date for r in steps)


@sync
async def test_a_chain_with_two_slips_says_it_took_the_lowest_step_in_chinese(profile, clock):
    app = make_app(profile, clock, lang="zh", items=[find_chain()])
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        steps = screen.run.problem.steps
        for i, step in enumerate(steps):
            await submit(pilot, wrong(step) if i < 2 else right(step))
            if i < len(steps) - 1:
                await pilot.press("enter")
        verdict = text_of(screen, "#verdict")
        whole = next(r for r in rows(profile) if r.step is None)
        assert f"整题评分 {whole.quality}" in verdict and "取各步最低分。" in verdict and "只错一步" not in verdict


@sync
async def test_undo_on_a_chains_last_step_removes_the_step_and_the_item_row(profile, clock):
    chain = find_chain()
    app = make_app(profile, clock, items=[chain])
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        steps = screen.run.problem.steps
        for i, step in enumerate(steps):
            await submit(pilot, right(step))
            if i < len(steps) - 1:
                await pilot.press("enter")
        assert len(rows(profile)) == len(steps) + 1
        await pilot.press("u")
        assert screen.state == ASKING and screen.run.step == len(steps) - 1
        assert len(rows(profile)) == len(steps) - 1


@sync
async def test_nothing_due_says_when_and_offers_extra_practice(profile, clock):
    profile.set_setting("new_per_day", 0)
    item = registry.all_templates()[0]
    yesterday = date(2026, 11, 28)
    profile.record(review_row(item=item.id, topic=item.topic, seed=1, quality=3, verdict="close",
                              when=datetime(2026, 11, 28, 9, tzinfo=UTC), today=yesterday,
                              state=None, schedule=True))
    profile.record(review_row(item=item.id, topic=item.topic, seed=2, quality=5, verdict="correct",
                              when=datetime(2026, 11, 29, 9, tzinfo=UTC), today=date(2026, 11, 29),
                              state=profile.state(item.id), schedule=True))
    app = make_app(profile, clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert screen.state == EMPTY
        shown = text_of(screen, "#question")
        assert "Nothing is due" in shown and "in 6 days (2026-12-05)" in shown and item.title in shown
        await pilot.press("x")
        assert screen.state == ASKING and screen.run.card.kind == "extra"
        await submit(pilot, right(screen.run.current_step))
        assert "it was not due yet, so its next review stays where it was" in text_of(screen, "#verdict")
    extra = rows(profile)[-1]
    assert extra.mode == "extra" and not extra.scheduled and extra.after is None
    assert profile.states()[item.id].due == date(2026, 12, 5)


@sync
async def test_chinese_mode_renders_prompts_and_ui_and_the_toggle_switches_back(profile, clock):
    app = make_app(profile, clock, lang="zh")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        step = screen.run.current_step
        assert step.prompt("zh") in text_of(screen, "#question")
        assert "Roofline 模型" in text_of(screen, "#topbar")
        assert "输入答案" in text_of(screen, "#understood")
        await pilot.press("ctrl+g")
        assert "不会" in text_of(screen, "#verdict") and "正确答案：" in text_of(screen, "#verdict")
        await pilot.press("ctrl+t")
        assert app.ctx.lang == "en" and profile.settings()["lang"] == "en"
        assert "Don't know" in text_of(screen, "#verdict")
        assert step.prompt("en") in text_of(screen, "#question")
        footer = [b.binding.description for b in screen.active_bindings.values()]
        assert "Next" in footer and "下一题" not in footer


@sync
async def test_roofline_steps_draw_the_roofline_after_the_answer(profile, clock):
    item = next(t for t in registry.all_templates() if any(s.roofline for s in t.generate(1).steps)
                and not t.is_chain)
    app = make_app(profile, clock, items=[item.id])
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert not screen.query("RooflinePlot")  # drawing it first would give the answer away
        await submit(pilot, right(screen.run.current_step))
        [plot] = screen.query("RooflinePlot")
        drawn = str(plot.render())
        assert "◆" in drawn and "●" in drawn and "ridge point" in drawn


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
@sync
async def test_practice_lays_out_at_80x24_and_uses_a_wide_terminal(profile, clock, size):
    app = make_app(profile, clock)
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        await pilot.pause()
        footer = screen.query_one("KeyFooter")
        assert footer.region.y == size[1] - 1 and "ctrl+g" in [k.key for k in footer_drawn(footer)]
        await submit(pilot, right(screen.run.current_step))
        verdict = screen.query_one("#verdict")
        problem = screen.query_one("#problem").region
        feedback = screen.query_one("#feedback").region
        assert verdict.region.height > 0 and feedback.bottom <= size[1] - 1  # above the footer
        if size[0] >= 110:
            answer = screen.query_one("#answer").region
            assert feedback.x >= problem.right and feedback.x >= answer.right  # side by side
            assert answer.y >= problem.bottom  # the answer box stays under the question
        else:
            assert feedback.y >= problem.bottom and feedback.width >= size[0] - 2  # below


@sync
async def test_templates_queued_from_a_mock_come_first_then_leave_the_queue(profile, clock):
    templates = registry.all_templates()
    later = templates[-1]  # not due, not among today's new items
    profile.set_setting("queued_items", [later.id, "no.such.template"])
    app = make_app(profile, clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert (screen.run.card.item, screen.run.card.kind) == (later.id, "extra")
        assert screen.run.progress == (0, 6)
        for step in screen.run.problem.steps:
            await submit(pilot, right(step))
            if screen.run.step < len(screen.run.problem.steps) - 1:
                await pilot.press("enter")
    assert profile.settings()["queued_items"] == ["no.such.template"]
    # outside today's schedule, but its first answer enters SM-2
    assert rows(profile)[-1].mode == "extra" and list(profile.states()) == [later.id]


@sync
async def test_the_summary_counts_the_final_grade_after_an_override(profile, clock):
    """Counts and topic accuracy follow one rule: the final quality (an override included)."""
    profile.set_setting("new_per_day", 1)
    app = make_app(profile, clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        topic = screen.run.card.topic
        clock.advance(30)
        await submit(pilot, wrong(screen.run.current_step))
        await pilot.press("g")  # the learner overrides the engine's Wrong to Good
        auto = screen.run.answers[-1].auto_quality
        assert f"Grade 4 (good).  Set by you: the engine gave {auto}." in text_of(screen, "#verdict")
        while isinstance(app.screen, PracticeScreen):  # any further steps of a chain: right
            await pilot.press("enter")
            if isinstance(app.screen, PracticeScreen):
                await submit(pilot, right(screen.run.current_step))
        summary = app.screen.summary
        answered = summary.answered
        assert (summary.correct, summary.close, summary.wrong, summary.dont_know) == (answered, 0, 0, 0)
        assert summary.by_topic == {topic: (answered, answered)}
        shown = text_of(app.screen, "#summary")
        assert "100 %" in shown and f"{answered}/{answered}" in shown
        assert "Counted by your final grade, after any override" in shown
        assert "Accuracy by topic (correct or close)" in shown
    assert rows(profile)[0].verdict == "wrong"  # the log keeps the engine's verdict


@sync
async def test_the_summary_counts_close_and_dont_know_by_final_quality(profile, clock):
    profile.set_setting("new_per_day", 2)
    app = make_app(profile, clock)
    first = [("?", None), ("right", "h")]  # "I don't know"; right but graded Hard by the learner
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        while isinstance(app.screen, PracticeScreen):
            clock.advance(30)
            how, key = first.pop(0) if first else ("right", None)
            await submit(pilot, "?" if how == "?" else right(screen.run.current_step))
            if key:
                await pilot.press(key)
            await pilot.press("enter")
        summary = app.screen.summary
    answers = screen.run.answers
    assert summary.answered == len(answers) and summary.dont_know == 1 and summary.close == 1
    assert summary.wrong == 0 and summary.correct == len(answers) - 2
    assert [a.quality for a in answers[:2]] == [0, 3]
    passed = sum(p for p, _ in summary.by_topic.values())
    assert passed == summary.correct + summary.close  # topic accuracy: correct or close, the same counts
    assert sum(n for _, n in summary.by_topic.values()) == summary.answered


@sync
async def test_an_answer_by_another_books_convention_is_a_named_pass(profile, clock):
    """18 B per parameter (ML Engineering) for a problem counting 16: "by another convention", saved as a pass."""
    profile.set_setting("queued_items", ["memory.static"])
    app = make_app(profile, clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert screen.run.card.item == "memory.static"
        e = screen.run.current_step.expected
        eighteen = next(c for c in e.conventions if c.key == "bytes_per_param=18")
        await submit(pilot, display_number(eighteen.value, e.unit_kind, e.unit))
        assert screen.state == FEEDBACK
        shown = text_of(screen, "#verdict")
        assert "By another convention" in shown and "ML Engineering (Bekman)" in shown
        assert "this problem counts 16 B per parameter" in shown
    [row] = rows(profile)
    assert (row.verdict, row.quality) == ("convention", 3)
    assert profile.states()["memory.static"].reps == 1  # a pass for SM-2, not a lapse


def _drawn_lines(screen, selector: str) -> list[str]:
    """The lines a Static draws at its width (its content rendered as the app renders it)."""
    import io

    from rich.console import Console

    widget = screen.query_one(selector)
    console = Console(width=widget.content_size.width, file=io.StringIO(), color_system=None)
    console.print(widget.content)
    return console.file.getvalue().splitlines()


@sync
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_feedback_lines_wrap_as_the_problem_does_at_80_columns(profile, clock, lang):
    """The not-graded reason and the verdict wrap as the problem does (engine.wrap)."""
    import re

    from rich.cells import cell_len

    split = re.compile(r"\d$")
    app = make_app(profile, clock, lang=lang, items=["roofline.ridge_point"])
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        for typed in ("320 GB", "3.35 TB/s", "989 TFLOPS per GPU"):
            await pilot.press("ctrl+u")
            await submit(pilot, typed)
            assert screen.state == ASKING
            lines, width = _drawn_lines(screen, "#understood"), screen.query_one("#understood").content_size.width
            for a, b in zip(lines, lines[1:]):
                assert not (split.search(a.rstrip()) and re.match(r"\s*[A-Za-z]", b)), (a, b)
                if lang == "zh":  # Chinese breaks between characters: a line is not cut short at an ASCII space
                    assert cell_len(a) >= width - 10, (a, b)
        await pilot.press("ctrl+u")
        await pilot.press("ctrl+g", "ctrl+g")  # the last answer is still typed: asked once, then given up
        lines = _drawn_lines(screen, "#verdict")
        for a, b in zip(lines, lines[1:]):
            assert not (split.search(a.rstrip()) and re.match(r"\s*[A-Za-z]", b)), (a, b)


@sync
async def test_ctrl_g_with_an_answer_typed_asks_once_before_giving_it_up(profile, clock):
    app = make_app(profile, clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        typed = screen.run.current_step.expected.display
        screen.query_one("#answer", Input).value = typed
        await pilot.pause()
        await pilot.press("ctrl+g")  # an answer typed: asked, nothing recorded, the text kept
        assert screen.state == ASKING and rows(profile) == []
        assert "Ctrl+G again: don't know; Enter: grade what you typed" in text_of(screen, "#understood")
        assert screen.query_one("#answer", Input).value == typed
        await pilot.press("enter")  # Enter grades what was typed
        await pilot.pause()
        assert screen.state == FEEDBACK and rows(profile)[-1].verdict == "correct"
        assert rows(profile)[-1].typed == typed
        await pilot.press("enter")
        await pilot.pause()
        screen.query_one("#answer", Input).value = "7"
        await pilot.pause()
        await pilot.press("ctrl+g")
        assert screen.state == ASKING
        await pilot.press("ctrl+g")  # pressed again: don't know, what was typed kept in the row
        assert screen.state == FEEDBACK
    assert [(r.verdict, r.quality, r.typed) for r in rows(profile)][-1] == ("dont_know", 0, "7")


@sync
async def test_f3_twice_shows_both_hints_and_a_right_answer_is_recorded_capped(profile, clock):
    app = make_app(profile, clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        step = screen.run.current_step
        await pilot.press("f3", "f3")
        await pilot.pause()
        question = text_of(screen, "#question")
        assert "Hint 1:" in question and "Hint 2:" in question and "f3 again: the solution" in question
        await submit(pilot, right(step))
        assert screen.state == FEEDBACK
        assert "capped at 3: hint 2 taken" in text_of(screen, "#verdict")
    row = rows(profile)[-1]
    assert (row.quality, row.hint) == (3, 2)
