"""The commands and the app when a write fails (an injected OSError at the write call: no tmpfs in CI), when an
older log file is damaged, and when an import holds values that would break a figure later."""

import errno
import json
import random
from datetime import UTC, date, datetime, timedelta

import pytest
from textual.widgets import Input, Static

from drill.app import DrillApp
from drill.cli import main
from drill.core.context import AppContext
from drill.screens.practice import ASKING, FEEDBACK
from engine.session import review_row
from engine.storage import EXPORT_FORMAT, SCHEMA_VERSION, Profile, layout
from question_bank import registry
from tests.functional.app_support import notices, submit, sync, text_of
from tests.unit.test_storage_faults import refuse_writes

pytestmark = pytest.mark.functional


def single():
    return next(t for t in registry.all_templates() if not t.is_chain and t.answer_kind == "number")


def check(saves, t, seed, answer, *more):
    return main(["--saves", str(saves), "check", t.id, "--seed", str(seed), answer, "--record", *more])


# --------------------------------------------------------------------------- drill check --record


@pytest.mark.parametrize("lang, says", [("en", "Not recorded: cannot write"), ("zh", "未记录：无法写入")])
def test_check_record_on_a_full_disk_says_not_recorded_and_stores_nothing(tmp_path, monkeypatch, capsys, lang, says):
    t = single()
    right = t.generate(3).steps[0].expected.display
    Profile.open(tmp_path).close()
    refuse_writes(monkeypatch, match=lambda target: target.endswith(".json"))
    assert check(tmp_path, t, 3, right, "--lang", lang) == 1
    err = capsys.readouterr().err
    assert says in err and str(tmp_path / "default" / "reviews" / "000001.json") in err
    assert ("the disk is full" if lang == "en" else "磁盘已满") in err and "Traceback" not in err
    assert not list(tmp_path.rglob("*.tmp"))
    monkeypatch.undo()
    assert check(tmp_path, t, 3, right) == 0  # space freed: recorded, once
    with Profile.open(tmp_path) as p:
        assert len(list(p.reviews())) == 1


def test_check_record_with_an_unwritable_state_file_reports_the_stored_row_and_never_duplicates(tmp_path, monkeypatch,
                                                                                                capsys):
    t = single()
    right = t.generate(4).steps[0].expected.display
    monkeypatch.setattr(layout, "STATE_EVERY", 1)
    refuse_writes(monkeypatch, errno.EACCES, match=lambda target: target == "state.json")
    assert check(tmp_path, t, 4, right) == 0
    out = capsys.readouterr()
    assert f"Recorded as review 1 of {t.id}" in out.out
    assert "the review itself is stored in the log" in out.err and "permission denied" in out.err
    monkeypatch.undo()
    with Profile.open(tmp_path) as p:
        assert [r.id for r in p.reviews()] == [1] and p.states()[t.id].reps == 1


def test_a_chain_whose_whole_review_failed_is_finished_by_running_the_same_command_again(tmp_path, monkeypatch, capsys):
    t = registry.get("roofline.chain_interview")
    answers = [s.expected.display for s in t.generate(7).steps]
    for k in (1, 2, 3):
        assert main(["--saves", str(tmp_path), "check", t.id, "--seed", "7", "--step", str(k), answers[k - 1],
                     "--record"]) == 0
    # the last step's row is stored, then the disk is full when the whole chain's row is written
    real_record = Profile.record
    calls = []

    def record_then_fill(self, row):
        calls.append(row)
        if len(calls) == 2:
            refuse_writes(monkeypatch, match=lambda target: target.endswith(".json"))
        return real_record(self, row)

    monkeypatch.setattr(Profile, "record", record_then_fill)
    capsys.readouterr()
    argv = ["--saves", str(tmp_path), "check", t.id, "--seed", "7", "--step", "4", answers[3], "--record"]
    assert main(argv) == 1
    out = capsys.readouterr()
    assert "Recorded step 4 of 4" in out.out and "The whole-chain review was not stored" in out.err
    monkeypatch.undo()
    assert main(argv) == 0  # space freed: only the whole review is added
    out = capsys.readouterr().out
    assert "was already recorded as review" in out and "Every step recorded" in out
    with Profile.open(tmp_path) as p:
        rows = list(p.reviews())
        assert [r.step for r in rows] == [1, 2, 3, 4, None] and p.states()[t.id].reps == 1


# --------------------------------------------------------------------------- due, import, export


def test_due_with_a_daily_limit_that_cannot_be_saved_changes_nothing(tmp_path, monkeypatch, capsys):
    Profile.open(tmp_path).close()
    refuse_writes(monkeypatch, errno.EROFS, match=lambda target: target == "state.json")
    assert main(["--saves", str(tmp_path), "due", "--new-per-day", "9"]) == 1
    err = capsys.readouterr().err
    assert "The daily limit was not changed: cannot write" in err and "read-only" in err
    monkeypatch.undo()
    with Profile.open(tmp_path) as p:
        assert p.settings()["new_per_day"] == 5


def test_import_replace_on_a_full_disk_imports_nothing(tmp_path, monkeypatch, capsys):
    t = single()
    with Profile.open(tmp_path / "a") as p:
        p.record(review_row(item=t.id, topic=t.topic, seed=1, quality=4, verdict="correct",
                            when=datetime.now(UTC), today=date.today(), state=None, schedule=True))
    assert main(["--saves", str(tmp_path / "a"), "export", str(tmp_path / "doc.json")]) == 0
    with Profile.open(tmp_path / "b") as p:
        p.record(review_row(item="keep", topic="t", seed=1, quality=4, verdict="correct",
                            when=datetime.now(UTC), today=date.today(), state=None, schedule=True))
    refuse_writes(monkeypatch, match=lambda target: target == "state.json")
    capsys.readouterr()
    assert main(["--saves", str(tmp_path / "b"), "import", "--replace", str(tmp_path / "doc.json")]) == 1
    err = capsys.readouterr().err
    assert "Nothing was imported: cannot write" in err and "the disk is full" in err
    monkeypatch.undo()
    with Profile.open(tmp_path / "b") as p:
        assert [r.item for r in p.reviews()] == ["keep"]
    # (the day's snapshot, a spare copy taken when the profile was opened, is all that was added)
    assert sorted(x.name for x in (tmp_path / "b").iterdir()) == ["default", "default.lock", "default.snapshots"]


def test_an_export_that_cannot_be_written_leaves_nothing_beside_it(tmp_path, monkeypatch, capsys):
    Profile.open(tmp_path).close()
    (tmp_path / "out").mkdir()
    refuse_writes(monkeypatch, match=lambda target: target == "doc.json")
    assert main(["--saves", str(tmp_path), "export", str(tmp_path / "out" / "doc.json")]) == 1
    assert "Not exported: cannot write" in capsys.readouterr().err
    assert list((tmp_path / "out").iterdir()) == []


# --------------------------------------------------------------------------- a damaged older log file


def damaged_older_segment(saves, today):
    """A profile whose reviews of ``today`` span two log files, the older one then damaged."""
    t = single()
    layout_rows = layout.SEGMENT_ROWS
    layout.SEGMENT_ROWS = 3
    try:
        with Profile.open(saves) as p:
            for k in range(5):
                when = datetime(today.year, today.month, today.day, 9, k, tzinfo=UTC)
                p.record(review_row(item=t.id, topic=t.topic, seed=k, quality=4, verdict="correct", when=when,
                                    today=today, state=None, schedule=False, mode="extra"))
    finally:
        layout.SEGMENT_ROWS = layout_rows
    seg = saves / "default" / "reviews" / "000001.json"
    seg.write_bytes(seg.read_bytes()[:40])
    return seg


def test_due_opens_with_a_damaged_older_log_file_and_names_it(tmp_path, capsys):
    seg = damaged_older_segment(tmp_path, date.today())
    assert main(["--saves", str(tmp_path), "due"]) == 0
    captured = capsys.readouterr()
    assert "Due today" in captured.out
    assert f"Damaged save file, left out: {seg}" in captured.err and "drill doctor --repair" in captured.err


@sync
async def test_home_opens_with_a_damaged_older_log_file_and_names_it(tmp_path, clock):
    today = clock().date()
    seg = damaged_older_segment(tmp_path, today)
    with Profile.open(tmp_path) as p:
        p.set_setting("card_before_new", False)  # a new template's card first: test_card_screen.py
        app = DrillApp(AppContext(p, "en", clock, random.Random(7)), start="home")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            shown = text_of(app.screen, "#home-damaged")
            assert f"Damaged save file, left out: {seg}" in shown and "drill doctor --repair" in shown
            assert app.screen.query_one("#home-damaged").display
            await pilot.press("ctrl+t")
            await pilot.pause()
            assert "存档文件已损坏" in text_of(app.screen, "#home-damaged")


# --------------------------------------------------------------------------- Enter in the app


@sync
async def test_enter_on_a_full_disk_keeps_the_answer_and_records_it_once_space_is_freed(tmp_path, clock):
    monkeypatch = pytest.MonkeyPatch()
    try:
        with Profile.open(tmp_path) as p:
            p.set_setting("card_before_new", False)  # a new template's card first: test_card_screen.py
            app = DrillApp(AppContext(p, "en", clock, random.Random(7)), start="practice")
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause()
                screen = app.screen
                step = screen.run.current_step
                answer = step.expected.display
                refuse_writes(monkeypatch, match=lambda target: target.endswith(".json"))
                await submit(pilot, answer)
                assert screen.state == ASKING
                assert screen.query_one("#answer", Input).value == answer
                shown = text_of(screen, "#understood")
                assert "Not saved: cannot write" in shown and "the disk is full" in shown
                assert "Your answer is kept" in shown
                assert list(p.reviews()) == [] and screen.run.answers == []
                monkeypatch.undo()
                await pilot.press("enter")
                await pilot.pause()
                assert screen.state == FEEDBACK
                assert len(list(p.reviews())) == len(screen.run.answers[-1].rows) >= 1
    finally:
        monkeypatch.undo()


# --------------------------------------------------------------------------- imports that would break a figure


def doc_with(today, **changes):
    t = single()
    row = {"id": 1, "ts": f"{today.isoformat()}T09:00:00Z", "date": today.isoformat(), "item": t.id,
           "topic": t.topic, "seed": 1, "step": None, "typed": "295", "value": 295.0, "verdict": "correct",
           "quality": 5, "seconds": 20.0, "mode": "practice", "scheduled": True, "before": None,
           "after": {"ef": 2.6, "interval": 1, "reps": 1, "due": (today + timedelta(days=1)).isoformat(),
                     "last": today.isoformat()}}
    doc = {"format": EXPORT_FORMAT, "schema": SCHEMA_VERSION, "profile": "x", "settings": {},
           "states": {t.id: dict(row["after"])}, "reviews": [row], "mocks": []}
    for path, value in changes.items():
        where, key = doc, path.split(".")
        for k in key[:-1]:
            where = where[int(k)] if k.isdigit() else where[k]
        where[int(key[-1]) if key[-1].isdigit() else key[-1]] = value
    return doc


def nested(depth):
    v = 1
    for _ in range(depth):
        v = [v]
    return v


TODAY = date.today()


@pytest.mark.parametrize("changes, problem", [
    ({"reviews.0.date": "9999-12-31"}, "reviews[0]: date must be a day YYYY-MM-DD between 2000-01-01 and 2999-12-31"),
    ({"reviews.0.seconds": 1e308}, "reviews[0]: seconds must be a number 0-10000000"),
    ({"schema": True}, "schema must be the whole number 1, not True"),
    ({"schema": 1.0}, "schema must be the whole number 1, not 1.0"),
    ({"reviews.0.ts": "2026-99-99T99:99:99Z"}, "reviews[0]: ts must be a UTC time"),
    ({"reviews.0.date": (TODAY + timedelta(days=5)).isoformat()}, "dated more than 2 days after now"),
    ({"reviews.0.after.ef": 1e308}, "reviews[0]: after: ef must be at most 100"),
    ({"states": {"x": {"ef": 1e308}}}, "states['x']: ef must be at most 100"),
    ({"states": {"x": {"interval": 10**18}}}, "states['x']: interval must be at most 36500 days"),
    ({"reviews.0.typed": "9" * 10_000_001}, "reviews[0]: typed must be at most 10000 characters"),
    ({"reviews.0.typed": "12 \x1b[31mGB"}, "reviews[0]: typed holds a control character"),
    ({"settings": {"deep": nested(100_000)}}, "settings.deep: setting 'deep' is nested more than 16 deep"),
])
def test_an_import_that_would_break_a_figure_is_refused_whole_with_the_field_named(tmp_path, capsys, changes,
                                                                                     problem):
    doc = doc_with(TODAY, **changes)
    with Profile.open(tmp_path) as p:
        with pytest.raises(ValueError, match=problem.replace("[", r"\[").replace("]", r"\]")):
            p.import_document(doc, now=datetime.now(UTC))
        assert p.is_empty()


def test_a_file_nested_too_deep_for_the_json_reader_is_refused_not_a_crash(tmp_path, capsys):
    source = tmp_path / "deep.json"
    source.write_text('{"format": "infra-drill-profile", "settings": {"deep": ' + "[" * 100_000 + "]" * 100_000 + "}}")
    assert main(["--saves", str(tmp_path), "import", str(source)]) == 1
    assert "nothing was imported" in capsys.readouterr().err


def test_every_figure_is_finite_for_the_extremes_an_import_admits(tmp_path, capsys):
    t = single()
    oldest = "2000-01-01"
    rows = []
    for k in range(3):
        day = TODAY.isoformat() if k else oldest
        rows.append({"id": k + 1, "ts": f"{day}T09:00:00Z", "date": day, "item": t.id, "topic": t.topic,
                     "seed": -2**53 if k else 2**53, "step": None, "typed": "x" * 10_000, "value": 1.7e308,
                     "verdict": "correct", "quality": 5, "seconds": 10_000_000, "mode": "practice",
                     "scheduled": True, "before": None,
                     "after": {"ef": 100.0, "interval": 36_500, "reps": 10_000,
                               "due": (TODAY + timedelta(days=36_500)).isoformat(), "last": TODAY.isoformat()}})
    doc = doc_with(TODAY, reviews=rows, states={t.id: dict(rows[-1]["after"])})
    with Profile.open(tmp_path) as p:
        p.import_document(doc, now=datetime.now(UTC))
    assert main(["--saves", str(tmp_path), "stats", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["reviews"] == 3
    assert main(["--saves", str(tmp_path), "stats"]) == 0
    assert main(["--saves", str(tmp_path), "due"]) == 0


# --------------------------------------------------------------------------- ending a mock in the app


def mock_app(profile, clock, **setup):
    from tests.functional.test_mock_app import app_for

    return app_for(profile, clock, **({"questions": 3, "seed": 12, "chains": False} | setup))


async def answer_two_and_end(pilot, clock):
    """Start the mock, answer its first two questions (10 s and 20 s in), leave the third, end it."""
    from tests.functional.test_mock_app import end_now, right, start
    from tests.functional.test_mock_app import submit as answer

    screen = await start(pilot)
    await answer(pilot, screen, right(screen), seconds=10)
    await answer(pilot, screen, right(screen), seconds=10)
    return await end_now(pilot)


def mock_rows(p):
    return [r for r in p.reviews() if r.mode == "mock"]


# each cause in both languages is tests/unit/test_storage_faults.py's; a mock's whole session in make test for two of
# them (one a language), the other two in the deep lane
@pytest.mark.parametrize("err, lang, cause", [
    (errno.ENOSPC, "en", "the disk is full"),
    (errno.EACCES, "zh", "没有写入权限"),
    pytest.param(errno.EROFS, "en", "the file system is read-only", marks=pytest.mark.deep),
    pytest.param(errno.EIO, "zh", "输入/输出错误", marks=pytest.mark.deep),
])
@sync
async def test_a_mock_ended_on_a_full_disk_keeps_its_report_and_is_saved_once_with_r(profile, clock, monkeypatch, err,
                                                                                     lang, cause):
    from drill.screens.mock_report import MockReportScreen

    app = mock_app(profile, clock, lang=lang)
    async with app.run_test(size=(100, 30)) as pilot:
        refuse_writes(monkeypatch, err, match=lambda target: target.endswith(".json"))
        start = clock().timestamp()
        report = await answer_two_and_end(pilot, clock)  # no traceback: the report opens all the same
        shown = text_of(report, "#report-unsaved")
        assert report.query_one("#report-unsaved").display
        said = ("Not saved: cannot write" if lang == "en" else "未保存：无法写入")
        assert said in shown and str(tmp_mocks(profile)) in shown and cause in shown
        assert ("press w" if lang == "en" else "按 w") in shown
        assert report.report.score["correct"] == 2  # the results stay on screen
        assert report.query_one("#report-table").row_count == 3
        assert profile.mocks() == [] and mock_rows(profile) == [] and not list(profile.path.rglob("*.tmp"))
        assert app.unsaved  # should the app close now, drill says the mock is lost
        await pilot.press("w")  # still full: said again, nothing stored
        await pilot.pause()
        assert profile.mocks() == [] and isinstance(app.screen, MockReportScreen)
        monkeypatch.undo()  # space freed
        await pilot.press("w")
        await pilot.pause()
        assert not report.query_one("#report-unsaved").display and not app.unsaved
        assert ("Saved: the mock's result" if lang == "en" else "已保存") in notices(app)
        await pilot.press("w")  # nothing left to save: stores nothing more
        await pilot.pause()
    [rec] = profile.mocks()
    assert rec["score"]["correct"] == 2 and rec["ts"] == iso(start + 20)  # when the mock ended
    rows = mock_rows(profile)
    assert len(rows) == 2 and len({r.item for r in rows}) == 2  # one per answered question
    assert [r.ts for r in rows] == [iso(start + 10), iso(start + 20)]  # when each answer was given


def tmp_mocks(p):
    return p.path / "mocks.json"


def iso(seconds):
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.mark.parametrize("fail_at", [1, 2])  # the disk fills after the record, before the first row or between rows
@sync
async def test_a_mock_saved_in_part_is_finished_by_r_without_storing_anything_twice(profile, clock, monkeypatch,
                                                                                    fail_at):
    real_record = Profile.record
    calls = []

    def record_then_fill(self, row):
        calls.append(row)
        if len(calls) == fail_at:
            refuse_writes(monkeypatch, match=lambda target: target.endswith(".json"))
        return real_record(self, row)

    app = mock_app(profile, clock)
    async with app.run_test(size=(100, 30)) as pilot:
        monkeypatch.setattr(Profile, "record", record_then_fill)
        report = await answer_two_and_end(pilot, clock)
        shown = text_of(report, "#report-unsaved")
        assert f"Partly saved: cannot write {profile.path / 'reviews' / '000001.json'}" in shown
        assert f"the mock's result and {fail_at - 1} of its 2 review rows" in shown and "nothing is stored twice" in shown
        assert len(profile.mocks()) == 1 and len(mock_rows(profile)) == fail_at - 1  # durable, and said so
        monkeypatch.undo()
        await pilot.press("w")
        await pilot.pause()
        assert not report.query_one("#report-unsaved").display
    assert len(profile.mocks()) == 1
    rows = mock_rows(profile)
    assert len(rows) == 2 and len({r.item for r in rows}) == 2
    assert all(profile.states()[r.item].reps == 1 for r in rows)  # each first answer counted once


@sync
async def test_quitting_with_a_mock_that_cannot_be_saved_asks_first(profile, clock, monkeypatch):
    from drill.screens.mock_report import MockReportScreen
    from drill.screens.mock_run import ConfirmEndScreen, MockRunScreen
    from tests.functional.test_mock_app import right, start

    app = mock_app(profile, clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        refuse_writes(monkeypatch, match=lambda target: target.endswith(".json"))
        screen = await start(pilot)  # its setup cannot be remembered: said at once, and the mock runs
        assert "This setup is not remembered" in notices(app)
        assert isinstance(screen, MockRunScreen)
        clock.advance(5)
        screen.answer_box.value = right(screen)
        await pilot.press("ctrl+q")  # quitting mid-mock ends and saves it: it cannot be saved, so the app stays
        await pilot.pause()
        report = app.screen
        assert isinstance(report, MockReportScreen) and app.is_running
        assert "Not saved: cannot write" in text_of(report, "#report-unsaved")
        await pilot.press("ctrl+t")  # the language cannot be remembered either: switched all the same
        await pilot.pause()
        assert "未保存：无法写入" in text_of(report, "#report-unsaved")
        assert "语言已切换，但未能记住" in notices(app)
        await pilot.press("ctrl+t")
        await pilot.pause()
        await pilot.press("escape")  # leaving the report: asks too
        await pilot.pause()
        assert isinstance(app.screen, ConfirmEndScreen)
        assert "Leave without saving the mock?" in str(app.screen.query_one(Static).render())
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmEndScreen) and app.is_running
        body = " ".join(str(w.render()) for w in app.screen.query(Static))
        assert "Quit without saving the mock?" in body and "the disk is full" in body
        await pilot.press("n")  # stays: free some space and quit again
        await pilot.pause()
        assert app.screen is report
        monkeypatch.undo()
        await pilot.press("ctrl+q")  # saved now, then quits
        await pilot.pause()
    assert app.return_code in (0, None) and not app.unsaved
    [rec] = profile.mocks()
    assert rec["score"]["correct"] == 1 and len(mock_rows(profile)) == 1


@sync
async def test_saying_yes_loses_the_mock_knowingly(profile, clock, monkeypatch):
    from tests.functional.test_mock_app import right, start
    from tests.functional.test_mock_app import submit as answer

    app = mock_app(profile, clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        await answer(pilot, screen, right(screen), seconds=10)
        refuse_writes(monkeypatch, match=lambda target: target.endswith(".json"))
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    assert not app.is_running and not app.unsaved and profile.mocks() == []


@sync
async def test_a_mock_left_by_the_palette_on_a_full_disk_opens_its_report_with_the_reason(profile, clock, monkeypatch):
    from drill.screens.mock_report import MockReportScreen
    from tests.functional.test_mock_app import right, start
    from tests.functional.test_mock_app import submit as answer

    app = mock_app(profile, clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        await answer(pilot, screen, right(screen), seconds=10)
        refuse_writes(monkeypatch, match=lambda target: target.endswith(".json"))
        app.go("home")  # the run screen leaves: the mock ends there and cannot be saved
        await pilot.pause()
        await pilot.pause()
        report = app.screen
        assert isinstance(report, MockReportScreen)
        assert "Not saved: cannot write" in text_of(report, "#report-unsaved")
        assert list(app.unsaved.values()) == [report.saving.lost(report.save_error.text())]
        monkeypatch.undo()
        await pilot.press("escape")  # leaving saves it first
        await pilot.pause()
        assert not isinstance(app.screen, MockReportScreen)
    assert len(profile.mocks()) == 1 and len(mock_rows(profile)) == 1


def _memory_mock_seed(kind: str) -> int:
    """The first seed whose one-question memory mock asks a ``kind`` question (the bank's templates change)."""
    from drill.core.mock import candidates
    from engine.mock import MockSettings, plan_mock
    from question_bank import registry

    for seed in range(200):
        plan = plan_mock(MockSettings(questions=1, topics=("memory",), chains=False, seed=seed, weighted=False),
                         candidates())
        if registry.get(plan.questions[0].template_id).answer_kind == kind:
            return seed
    raise AssertionError(f"no one-question memory mock asks a {kind} question")


@sync
async def test_a_mock_with_a_symbolic_answer_saved_in_a_thread_on_a_full_disk_says_so_too(profile, clock, monkeypatch):
    from tests.functional.test_mock_app import end_now, start

    app = mock_app(profile, clock, questions=1, seed=_memory_mock_seed("expression"), topics=["memory"])
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        assert screen.run.slot.expected.kind == "expression"  # graded and saved in a thread
        refuse_writes(monkeypatch, errno.EIO, match=lambda target: target.endswith(".json"))
        screen.answer_box.value = "1"
        report = await end_now(pilot)
        assert report.report.results[0].verdict == "wrong"  # submitted: so graded in the thread
        assert "input/output error" in text_of(report, "#report-unsaved")
        monkeypatch.undo()
        await pilot.press("w")
        await pilot.pause()
    assert len(profile.mocks()) == 1 and len(mock_rows(profile)) == 1


def test_drill_mock_says_on_stderr_what_the_app_closed_without_saving(tmp_path, monkeypatch, capsys, terminal):
    """``drill mock`` saves only through the app (``--plan`` writes nothing): should the app close with a mock
    that could not be saved (the run screen unmounted as it closed), drill says so and exits with status 1."""
    lost = "The mock interview was not saved and is lost: cannot write x: the disk is full."

    def run(app):
        app.unsaved[object()] = lost

    monkeypatch.setattr(DrillApp, "run", run)
    assert main(["--saves", str(tmp_path), "mock", "--questions", "2", "--seed", "1"]) == 1
    assert capsys.readouterr().err == f"drill: {lost}\n"


# --------------------------------------------------------------------------- Settings and the formula card


@sync
@pytest.mark.parametrize("lang, says", [("en", "Not saved: cannot write"), ("zh", "未保存：无法写入")])
async def test_a_setting_on_a_full_disk_keeps_the_typed_value_and_saves_it_once_space_is_freed(profile, clock, lang,
                                                                                              says):
    from drill.screens.settings import SettingsScreen

    monkeypatch = pytest.MonkeyPatch()
    try:
        app = DrillApp(AppContext(profile, lang, clock, random.Random(7)))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("comma")
            screen = app.screen
            assert isinstance(screen, SettingsScreen)
            box = screen.query_one("#input-new_per_day", Input)
            box.focus()
            box.value = "9"
            refuse_writes(monkeypatch, match=lambda target: target.endswith(".json"))
            await pilot.press("enter")
            await pilot.pause()
            shown = text_of(screen, "#hint-new_per_day")
            assert says in shown and str(profile.path) in shown and "Traceback" not in shown
            assert box.value == "9" and profile.settings()["new_per_day"] == 5
            monkeypatch.undo()  # space freed: Enter again saves it
            box.focus()
            await pilot.press("enter")
            await pilot.pause()
            assert profile.settings()["new_per_day"] == 9
    finally:
        monkeypatch.undo()


@sync
async def test_a_card_read_on_a_full_disk_says_it_is_not_remembered_and_the_drill_goes_on(profile, clock):
    from drill.core.teach import SEEN_KEY, SHOW_KEY
    from drill.screens.card import CardScreen

    monkeypatch = pytest.MonkeyPatch()
    try:
        profile.set_setting(SHOW_KEY, True)
        item = "memory.static_given"
        app = DrillApp(AppContext(profile, "en", clock, random.Random(7)), start="practice", items=[item])
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, CardScreen)
            refuse_writes(monkeypatch, match=lambda target: target.endswith(".json"))
            await pilot.press("enter")
            await pilot.pause()
            practice = app.screen
            assert practice.state == ASKING
            assert "not remembered as read" in notices(app)
            assert SEEN_KEY not in profile.settings() or item not in profile.settings()[SEEN_KEY]
            monkeypatch.undo()
            await submit(pilot, practice.run.current_step.expected.display)
            assert practice.state == FEEDBACK and len(list(profile.reviews())) >= 1
    finally:
        monkeypatch.undo()
