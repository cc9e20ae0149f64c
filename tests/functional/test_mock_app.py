"""The mock interview in the app, driven by the Textual pilot with an injected clock.

The clock only moves when a test moves it; the countdown is refreshed by
calling the run screen's ``tick()`` (what its interval timer calls), so no test
sleeps.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from drill.app import DrillApp
from drill.core.context import AppContext
from drill.screens.mock_report import MockReportScreen, SolutionScreen
from drill.screens.mock_run import GoBackScreen, MockRunScreen
from drill.screens.mock_setup import MockSetupScreen
from engine.grading import display_number
from engine.session import review_row
from tests.functional.app_support import notices, sync

pytestmark = pytest.mark.functional


def app_for(profile, clock, lang="en", **setup) -> DrillApp:
    return DrillApp(AppContext(profile, lang, clock, random.Random(3)), start="mock", **setup)


def text_of(screen, selector: str) -> str:
    """What a widget shows as plain text (a problem is a drill.widgets.Wrapped text: its plain text)."""
    from tests.functional.app_support import text_of as shown

    return shown(screen, selector)


async def start(pilot) -> MockRunScreen:
    await pilot.pause()
    assert isinstance(pilot.app.screen, MockSetupScreen)
    await pilot.press("ctrl+s")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, MockRunScreen)
    return screen


def right(screen: MockRunScreen) -> str:
    return screen.run.slot.expected.display


def wrong(screen: MockRunScreen) -> str:
    exp = screen.run.slot.expected
    if exp.kind == "choice":
        return next(c.key for c in exp.choices if c.key != exp.value)
    if exp.kind == "expression":
        return "1"
    return display_number(float(exp.value) * 10, exp.unit_kind, exp.unit)


async def submit(pilot, screen: MockRunScreen, text: str, seconds: float = 0.0) -> None:
    pilot.app.ctx.clock.advance(seconds)
    screen.answer_box.value = text
    await pilot.press("enter")
    await pilot.pause()


async def end_now(pilot) -> MockReportScreen:
    await pilot.press("escape")
    await pilot.pause()
    return await end_now_confirm(pilot)


async def settle(pilot) -> None:
    """Let a mock that is being graded and saved in a thread (it has a symbolic answer) finish."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


async def end_now_confirm(pilot) -> MockReportScreen:
    """Say yes to the end-early dialog already open."""
    await pilot.press("y")
    await settle(pilot)
    assert isinstance(pilot.app.screen, MockReportScreen)
    return pilot.app.screen


# --------------------------------------------------------------------------- #


@sync
async def test_the_setup_screen_says_mock_answers_do_not_change_the_schedule(profile, clock):
    app = app_for(profile, clock, questions=3, seed=42)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert "enters your review schedule" in text_of(screen, "#mock-note")
        assert "a miss restarts it" in text_of(screen, "#mock-note")
        preview = text_of(screen, "#mock-preview")
        assert "questions: 3" in preview and "seed 42" in preview and "same mock for everyone" in preview
        screen.query_one("#mock-questions").value = "0"
        await pilot.pause()
        assert "questions must be a whole number from 1 to 40" in text_of(screen, "#mock-preview")
        await pilot.press("ctrl+s")  # refused: the setup stays
        await pilot.pause()
        assert app.screen is screen


@sync
async def test_a_mock_answered_partly(profile, clock):
    app = app_for(profile, clock, questions=4, seed=5)
    async with app.run_test(size=(100, 30)) as pilot:
        run = (screen := await start(pilot)).run
        total = len(run.slots)
        assert text_of(screen, "#mock-position").startswith("Question 1 / 4")
        await submit(pilot, screen, right(screen), seconds=40)
        shown = " ".join(text_of(screen, w) for w in ("#mock-problem", "#mock-prompt", "#mock-status",
                                                        "#mock-reading"))
        assert not any(v in shown for v in ("Correct", "Wrong", "Close", "Worked solution"))  # no feedback
        await submit(pilot, screen, wrong(screen), seconds=25)
        clock.advance(5)
        screen.tick()
        assert "this question 00:05" in text_of(screen, "#mock-qtime")
        report = await end_now(pilot)
        rep = report.report
        assert rep.score == {"correct": 1, "convention": 0, "close": 0, "wrong": 1, "unanswered": total - 2}
        assert rep.seconds_used == 70 and not rep.timed_out
        assert [r.seconds for r in rep.results[:3]] == [40, 25, 5]
        head = text_of(report, "#report-head")
        assert f"Score {100 / total:.0f} %" in head and "time used 01:10 of" in head
        assert "Your first mock" in head
        table = report.query_one("#report-table")
        assert table.row_count == total
        assert str(table.get_row_at(0)[4]) == "Correct" and str(table.get_row_at(1)[4]) == "Wrong"

    saved = profile.mocks()
    assert len(saved) == 1
    rec = saved[0]
    assert rec["seed"] == 5 and rec["settings"]["questions"] == 4 and rec["score"] == rep.score
    assert [q["verdict"] for q in rec["questions"][:2]] == ["correct", "wrong"]
    assert rec["questions"][0]["seconds"] == 40 and rec["questions"][0]["typed"]
    rows = list(profile.reviews())
    # two answer boxes, both first answers: each template enters SM-2 (a chain by a whole-chain row, its step
    # rows unscheduled; a chain answered in part only when an answered step is a miss)
    assert [r.verdict for r in rows if r.step is not None or r.typed][:2] == ["correct", "wrong"]
    assert all(r.mode == "mock" and r.before is None for r in rows)
    assert all(r.scheduled == (r.step is None) for r in rows)
    tomorrow = (clock().date() + timedelta(days=1)).isoformat()
    missed = [r for r in rows if r.scheduled and r.verdict == "wrong"]
    assert missed and all(r.after["due"] == tomorrow and r.after["reps"] == 0 for r in missed)  # due next day


@sync
async def test_running_out_of_time_submits_the_answer_being_typed(profile, clock):
    app = app_for(profile, clock, questions=3, minutes=2, seed=8)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        await submit(pilot, screen, right(screen), seconds=30)
        screen.answer_box.value = typed = right(screen)  # typed, not submitted
        await pilot.pause()
        clock.advance(89)
        screen.tick()
        await pilot.pause()
        assert app.screen is screen and text_of(screen, "#mock-clock") == "00:01 left"
        clock.advance(1)
        screen.tick()
        await settle(pilot)
        assert isinstance(app.screen, MockReportScreen)
    rec = profile.mocks()[0]
    assert rec["timed_out"] is True and rec["seconds_used"] == 120
    assert rec["questions"][1]["typed"] == typed and rec["questions"][1]["verdict"] == "correct"
    assert all(q["verdict"] == "unanswered" for q in rec["questions"][2:])


@sync
async def test_ending_by_hand_submits_a_readable_answer_being_typed(profile, clock):
    app = app_for(profile, clock, questions=3, seed=8, chains=False)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        await submit(pilot, screen, right(screen), seconds=30)
        clock.advance(20)
        screen.answer_box.value = typed = right(screen)  # typed, not submitted
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        body = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert f"The answer you typed here ({typed}) will be submitted." in body
        assert "1 of 3 answers is still missing" in body
        report = await end_now_confirm(pilot)
        assert report.report.score == {"correct": 2, "convention": 0, "close": 0, "wrong": 0, "unanswered": 1}
    rec = profile.mocks()[0]
    assert rec["timed_out"] is False and rec["seconds_used"] == 50
    assert rec["questions"][1]["typed"] == typed and rec["questions"][1]["seconds"] == 20
    assert [r.verdict for r in profile.reviews()] == ["correct", "correct"]


@sync
async def test_ending_by_hand_leaves_unreadable_text_unanswered(profile, clock):
    app = app_for(profile, clock, questions=2, seed=8, chains=False)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        screen.answer_box.value = "12 parsecs"
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        body = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "will be submitted" not in body and "2 of 2 answers are still missing" in body
        await end_now_confirm(pilot)
    rec = profile.mocks()[0]
    assert all(q["verdict"] == "unanswered" for q in rec["questions"]) and not rec["timed_out"]
    assert list(profile.reviews()) == []


@sync
async def test_time_out_ends_the_mock_by_itself(profile, clock):
    app = app_for(profile, clock, questions=2, minutes=1, seed=8)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        screen.answer_box.value = "12 parsecs"  # unreadable: not submitted when the time runs out
        clock.advance(61)
        screen.tick()
        await settle(pilot)
        assert isinstance(app.screen, MockReportScreen)
        assert "(time ran out)" in text_of(app.screen, "#report-head")
    rec = profile.mocks()[0]
    assert rec["timed_out"] and all(q["verdict"] == "unanswered" for q in rec["questions"])
    assert list(profile.reviews()) == []


@sync
async def test_the_countdown_turns_to_the_warning_colour_in_the_last_tenth(profile, clock):
    app = app_for(profile, clock, questions=2, minutes=10, seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        clock_widget = screen.query_one("#mock-clock")
        assert text_of(screen, "#mock-clock") == "10:00 left" and not clock_widget.has_class("-warning")
        clock.advance(539)
        screen.tick()
        assert text_of(screen, "#mock-clock") == "01:01 left" and not clock_widget.has_class("-warning")
        clock.advance(1)
        screen.tick()
        assert text_of(screen, "#mock-clock") == "01:00 left" and clock_widget.has_class("-warning")


@sync
async def test_skip_flag_and_go_back(profile, clock):
    app = app_for(profile, clock, questions=3, seed=11, chains=False)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        run = screen.run
        screen.answer_box.value = "12"
        await pilot.press("ctrl+n")  # skip, keeping the draft
        await pilot.pause()
        assert run.current == 1 and "skipped 1" in text_of(screen, "#mock-status")
        await pilot.press("ctrl+f")
        await pilot.pause()
        assert "flagged for review" in text_of(screen, "#mock-status")
        await pilot.press("f3")  # no hint in a mock: said, nothing else changes
        await pilot.pause()
        assert "No hints in a mock" in notices(app) and run.current == 1
        await submit(pilot, screen, right(screen), seconds=10)
        assert run.current == 2
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, GoBackScreen)
        labels = [str(o.prompt) for o in app.screen.query_one("#goto-list").options]
        assert len(labels) == 2 and "skipped" in labels[0] and "flagged" in labels[1]
        await pilot.press("enter")  # the first: question 1
        await pilot.pause()
        assert app.screen is screen and run.current == 0 and screen.answer_box.value == "12"
        await submit(pilot, screen, right(screen), seconds=10)
        assert run.current == 2  # the unseen question before the flagged one
        await submit(pilot, screen, wrong(screen), seconds=10)
        assert run.current == 1 and not run.finished  # all answered, one flagged: review it
        assert "your answer so far" in text_of(screen, "#mock-prompt")
        await submit(pilot, screen, right(screen), seconds=5)
        await settle(pilot)
        assert isinstance(app.screen, MockReportScreen)
    rec = profile.mocks()[0]
    assert [q["verdict"] for q in rec["questions"]] == ["correct", "correct", "wrong"]
    assert [q["flagged"] for q in rec["questions"]] == [False, False, False]  # settled by answering again


@sync
async def test_an_unreadable_answer_is_caught_before_it_is_submitted(profile, clock):
    app = app_for(profile, clock, questions=2, seed=3, chains=False)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        await pilot.press("[", "/", "]")  # markup-like text is shown as typed, never parsed as markup
        await pilot.pause()
        assert "can't read it yet" in text_of(screen, "#mock-reading")
        await pilot.press("enter")
        await pilot.pause()
        assert "Not submitted" in text_of(screen, "#mock-reading")
        assert screen.run.current == 0 and screen.run.slot.status == "pending"
        screen.answer_box.value = right(screen)
        await pilot.pause()
        assert "understood" in text_of(screen, "#mock-reading")


def _seed_opening_with_a_chain(questions: int, start: int = 21) -> int:
    """The first seed from ``start`` whose mock opens with a chain (which seed does depends on the bank)."""
    from drill.core.mock import make_plan, make_settings
    from question_bank import registry

    for seed in range(start, start + 500):
        plan = make_plan(make_settings(questions=questions, seed=seed))
        if registry.get(plan.questions[0].template_id).is_chain:
            return seed
    raise AssertionError("no mock of the first 500 seeds opens with a chain")


@sync
async def test_a_mock_moves_the_schedule_only_by_first_answers_and_lapses(profile, clock):
    app = app_for(profile, clock, questions=3, seed=_seed_opening_with_a_chain(3))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        item = screen.run.slot.template_id
        profile.record(review_row(item=item, topic=screen.run.slot.topic, seed=1, quality=4, verdict="correct",
                                  when=clock(), today=clock().date(), state=None, schedule=True))
        before = profile.states()
        await submit(pilot, screen, wrong(screen), seconds=20)
        await submit(pilot, screen, right(screen), seconds=20)
        await end_now(pilot)
    mock_rows = [r for r in profile.reviews() if r.mode == "mock"]
    steps = [r for r in mock_rows if r.item == item and r.step is not None]
    [whole] = [r for r in mock_rows if r.item == item and r.step is None]
    assert steps and not any(r.scheduled for r in steps)
    # reviewed earlier today and not due: only the lapse in the mock moves it, and it restarts (SM-2)
    assert whole.scheduled and whole.before == before[item].to_dict() and whole.quality < 3
    after = profile.states()[item]
    assert (after.reps, after.due) == (0, clock().date() + timedelta(days=1))


@sync
async def test_the_report_opens_solutions_queues_missed_templates_and_compares(profile, clock):
    app = app_for(profile, clock, questions=2, seed=4, chains=False)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        await submit(pilot, screen, right(screen), seconds=20)
        report = await end_now(pilot)
        await pilot.press("enter")  # the first row's worked solution
        await pilot.pause()
        assert isinstance(app.screen, SolutionScreen)
        shown = text_of(app.screen, "#solution-text")
        assert "Worked solution" in shown and "Correct" in shown
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        missed = list(report.report.missed_templates)
        assert profile.settings()["queued_items"] == missed and len(missed) == 1
        await pilot.press("escape")  # back to Home
        await pilot.pause()
        assert app.screen.__class__.__name__ == "HomeScreen"
        await pilot.press("m")  # a second mock from Home
        await pilot.pause()
        app.screen.query_one("#mock-seed").value = "4"
        app.screen.query_one("#mock-questions").value = "2"
        await pilot.pause()
        second = await start(pilot)
        await submit(pilot, second, right(second), seconds=10)
        await submit(pilot, second, right(second), seconds=10)
        await pilot.pause()
        head = text_of(app.screen, "#report-head")
        assert "Score 100 %" in head and "Earlier mocks: 1 · last 50 % (+50 points)" in head
    assert len(profile.mocks()) == 2


@sync
async def test_chinese_mode(profile, clock):
    app = app_for(profile, clock, lang="zh", questions=2, seed=6)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "答错会让它重新开始" in text_of(app.screen, "#mock-note")
        screen = await start(pilot)
        assert text_of(screen, "#mock-position").startswith("第 1 / 2 题")
        assert "剩余" in text_of(screen, "#mock-clock")
        label, value = screen.problems[0].given_rows("zh")[0]
        shown = text_of(screen, "#mock-problem").splitlines()
        row = next(line for line in shown if line.lstrip("▎ ").startswith(label))  # the row, not the scenario
        assert row.split(label)[1].strip() == value  # the givens table in Chinese, as practice draws it
        report = await end_now(pilot)
        assert "模拟面试报告" in text_of(report, "#report-head")


@sync
async def test_time_runs_out_while_a_dialog_is_open(profile, clock):
    app = app_for(profile, clock, questions=3, minutes=1, seed=2, chains=False)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        await pilot.press("ctrl+n")
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, GoBackScreen)
        clock.advance(60)
        screen.tick()
        await settle(pilot)
        assert isinstance(app.screen, MockReportScreen)
        assert not any(isinstance(s, (GoBackScreen, MockRunScreen)) for s in app.screen_stack)  # dialog closed
    assert len(profile.mocks()) == 1 and profile.mocks()[0]["timed_out"]


@sync
async def test_switching_language_mid_mock_keeps_the_answer_being_typed(profile, clock):
    app = app_for(profile, clock, questions=2, seed=9)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert "主题" in text_of(app.screen, "#lbl-topics")
        assert "训练显存" in str(app.screen.query_one("#mock-topics").get_option_at_index(1).prompt)
        screen = await start(pilot)
        screen.answer_box.value = "12"
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert text_of(screen, "#mock-position").startswith("Question 1 / 2")
        assert screen.answer_box.value == "12"


@sync
async def test_quitting_the_app_mid_mock_still_saves_it(profile, clock):
    app = app_for(profile, clock, questions=2, seed=12, chains=False)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        await submit(pilot, screen, right(screen), seconds=15)
        clock.advance(5)
        screen.answer_box.value = right(screen)  # typed, not submitted: quitting submits it, like Esc
        await pilot.press("ctrl+q")
        await pilot.pause()
    rec = profile.mocks()[0]
    assert rec["score"] == {"correct": 2, "convention": 0, "close": 0, "wrong": 0, "unanswered": 0} and rec["seconds_used"] == 20


@sync
async def test_the_report_shows_a_choice_answer_in_the_ui_language(profile, clock):
    from question_bank import registry

    exp = registry.get("roofline.classify_kernel").generate(4).steps[0].expected
    label = next(c.label_zh for c in exp.choices if c.key == exp.value)
    q = {"question": 1, "item": "roofline.classify_kernel", "topic": "roofline", "seed": 4, "step": None,
         "typed": "", "verdict": "unanswered", "seconds": 0.0, "expected": exp.value, "flagged": False}
    profile.add_mock({"ts": "2026-11-29T15:00:00Z", "seed": 1, "settings": {"limit_seconds": 600},
                      "questions": [q], "score": {"correct": 0, "close": 0, "wrong": 0, "unanswered": 1},
                      "seconds_used": 30.0, "timed_out": False})
    app = DrillApp(AppContext(profile, "zh", clock, random.Random(3)), start="mock_report")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#report-table")
        assert str(table.get_row_at(0)[3]) == label
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert str(table.get_row_at(0)[3]) == exp.value
