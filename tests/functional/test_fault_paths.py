"""The fault paths: every write the app and the commands make, when it fails
(an injected OSError at the write call); save files the app reads that hold the wrong kind of value; odd
command lines. No traceback, one clear message in the UI language, nothing lost, nothing stored twice."""

import random
from datetime import UTC, date, datetime

import pytest
from textual.widgets import Input

from drill.app import DrillApp
from drill.cli import main
from drill.core.context import AppContext
from drill.core.mock import SETTINGS_KEY as MOCK_KEY
from drill.core.teach import SEEN_KEY, SHOW_KEY
from engine.session import QUEUE_KEY, review_row
from engine.storage import Profile
from question_bank import registry
from tests.functional.app_support import notices, sync, text_of
from tests.unit.storage_support import edit_text, read_tables, write_tables
from tests.unit.test_storage_faults import refuse_writes

pytestmark = pytest.mark.functional
SINGLE = next(t.id for t in registry.all_templates() if not t.is_chain and t.answer_kind == "number")


def drill(*argv: str) -> int:
    """``drill ARGV`` in this process: its exit status (a command that cannot open its profile exits)."""
    try:
        return main(list(argv))
    except SystemExit as e:
        return e.code


def hand_edited(saves, **settings):
    """A profile whose state file holds ``settings`` as if edited by hand (or written by another version)."""
    with Profile.open(saves) as p:
        p.set_setting(SHOW_KEY, False)
    path = saves / "default" / "state.json"
    tables = read_tables(path)
    tables["settings"]["1"].update(settings)
    write_tables(path, tables)
    return path


# --------------------------------------------------------------------------- settings of the wrong kind


BAD = {QUEUE_KEY: 5, SEEN_KEY: 5, MOCK_KEY: {"topics": 5}, "new_per_day": "abc"}  # each crashed a screen or stopped drill


@sync
async def test_the_app_opens_every_screen_with_settings_of_the_wrong_kind_and_home_names_them(tmp_path, clock):
    path = hand_edited(tmp_path, **BAD, **{SHOW_KEY: True})  # the card is shown: cards_seen is read
    with Profile.open(tmp_path) as p:
        app = DrillApp(AppContext(p, "en", clock, random.Random(7)), start="home")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            shown = text_of(app.screen, "#home-damaged")
            for key in BAD:
                assert f"The setting {key} in {path} is not used" in shown
            assert "The default is used" in shown
            await pilot.press("ctrl+t")
            await pilot.pause()
            assert f"{path} 中的设置 {QUEUE_KEY} 未被采用" in text_of(app.screen, "#home-damaged")
            for key_, screen in (("p", "CardScreen"), ("m", "MockSetupScreen"), ("b", "BrowseScreen"),
                                 ("comma", "SettingsScreen"), ("s", "StatsScreen")):
                await pilot.press(key_)
                await pilot.pause()
                assert type(app.screen).__name__ == screen
                await pilot.press("escape")
                await pilot.pause()
                if type(app.screen).__name__ == "PracticeScreen":  # the card closed: the problem
                    await pilot.press("escape")
                    await pilot.pause()
            assert type(app.screen).__name__ == "HomeScreen"


@pytest.mark.parametrize("command", [["due"], ["due", "--json"], ["plan"], ["stats", "--json"], ["export", "-"],
                                     ["mock", "--plan"], ["due", "--new-per-day", "4"]])
@pytest.mark.parametrize("lang, said", [("en", "is not used: "), ("zh", "未被采用：")])
def test_every_command_names_a_setting_of_the_wrong_kind_in_one_line_and_goes_on(tmp_path, capsys, command, lang,
                                                                                  said):
    path = hand_edited(tmp_path, **{QUEUE_KEY: 5, "lang": lang})
    assert main(["--saves", str(tmp_path), *command]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "drill: " in err and said in err and str(path) in err and "Traceback" not in err


# --------------------------------------------------------------------------- commands: writes that fail


@pytest.mark.parametrize("lang, said, cause", [("en", "Nothing was changed: cannot write", "the disk is full"),
                                               ("zh", "未做任何修改：无法写入", "磁盘已满")])
def test_plan_on_a_full_disk_changes_nothing_and_says_so_in_one_line(tmp_path, monkeypatch, capsys, lang, said, cause):
    with Profile.open(tmp_path) as p:
        p.set_setting("new_per_day", 3)
    refuse_writes(monkeypatch, match=lambda target: target == "state.json")
    argv = ["--saves", str(tmp_path), "plan", "--interview", "2099-01-01", "--new-per-day", "7",
            "--reviews-per-day", "50", "--lang", lang]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and cause in err and str(tmp_path / "default" / "state.json") in err
    monkeypatch.undo()
    with Profile.open(tmp_path) as p:
        assert p.settings() == {"new_per_day": 3}  # all or nothing
    assert main(argv) == 0  # space freed: the same command saves all three
    with Profile.open(tmp_path) as p:
        assert p.settings() == {"new_per_day": 7, "reviews_per_day": 50, "interview": "2099-01-01"}


# --------------------------------------------------------------------------- commands: odd arguments


@pytest.mark.parametrize("target, said", [("", "FILE must not be empty"), (".", "is a folder"),
                                          ("{tmp}", "is a folder"), ("{tmp}/out/", "is a folder"),
                                          ("{tmp}/fifo", "is not a regular file")])
def test_export_to_an_empty_name_or_a_folder_is_one_line_not_a_traceback(tmp_path, capsys, target, said):
    import os

    (tmp_path / "out").mkdir()
    os.mkfifo(tmp_path / "fifo")
    Profile.open(tmp_path / "s").close()
    assert main(["--saves", str(tmp_path / "s"), "export", target.format(tmp=tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err
    assert list((tmp_path / "out").iterdir()) == [] and not list(tmp_path.glob(".*.tmp"))
    assert (tmp_path / "fifo").is_fifo()  # never replaced by the export (a device neither: /dev/full as root)


@pytest.mark.parametrize("saves, said", [
    ("{file}", "the saves folder {file} is a file, not a folder"),
    ("{file}/deeper/still", "the saves folder {file}/deeper/still cannot be made: {file} is a file, not a folder"),
    ("", "--saves must name a folder"),
])
@pytest.mark.parametrize("command", [["due"], ["due", "--new-per-day", "3"], ["stats", "--json"], ["export", "-"],
                                     ["plan", "--new-per-day", "3"], ["check", SINGLE, "--seed", "1", "300",
                                                                      "--record"], ["mock", "--plan"]])
def test_a_saves_folder_that_is_a_file_is_named_as_such_in_one_line(tmp_path, capsys, saves, said, command):
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    code = drill("--saves", saves.format(file=afile), *command)
    err = capsys.readouterr().err
    assert code in (1, 2) and err.count("\n") == 1 and said.format(file=afile) in err, err
    assert "damaged" not in err and "File exists" not in err and "Not a directory" not in err
    assert afile.read_text() == "not a folder"


def test_the_saves_folder_problem_is_said_in_chinese_too(tmp_path, capsys):
    (tmp_path / "afile").write_text("x")
    assert drill("--saves", str(tmp_path / "afile"), "due", "--lang", "zh") == 1
    assert f"存档文件夹 {tmp_path / 'afile'} 是一个文件，不是文件夹" in capsys.readouterr().err


@pytest.mark.parametrize("lang, said", [("en", "cannot write {path}: permission denied"),
                                        ("zh", "无法写入 {path}：没有写入权限")])
def test_a_default_saves_folder_that_cannot_be_made_is_one_line_with_path_and_cause(tmp_path, monkeypatch, capsys,
                                                                                     lang, said):
    """No HOME: the user data folder comes from $XDG_DATA_HOME; one that cannot be made says where and why."""
    import pathlib

    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.delenv("DRILL_SAVES", raising=False)
    monkeypatch.setattr("drill.core.paths.checkout_saves", lambda: None)  # an installed drill
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert drill("due", "--new-per-day", "5") == 0 and (tmp_path / "data" / "infra-drill" / "default").is_dir()
    real = pathlib.Path.mkdir
    target = tmp_path / "data2" / "infra-drill"

    def refused(self, *a, **k):
        if self == target:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self, *a, **k)

    monkeypatch.setattr(pathlib.Path, "mkdir", refused)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data2"))
    capsys.readouterr()
    assert drill("due", "--new-per-day", "3", "--lang", lang) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said.format(path=target) in err


# --------------------------------------------------------------------------- the practice screen: undo, grades, don't know


def practice_app(profile, clock, item=SINGLE):
    profile.set_setting(SHOW_KEY, False)
    return DrillApp(AppContext(profile, "en", clock, random.Random(7)), start="practice", items=[item])


async def answered(pilot):
    """The practice screen after a right answer to its problem (its feedback on show)."""
    from tests.functional.app_support import submit

    screen = pilot.app.screen
    await pilot.pause()
    await submit(pilot, screen.run.current_step.expected.display)
    assert screen.state == "feedback"
    return screen


@sync
async def test_ctrl_z_on_a_full_disk_keeps_the_answer_and_enter_goes_on(tmp_path, clock, monkeypatch, lang="zh",
                                                                       said="未撤销：无法写入"):
    with Profile.open(tmp_path) as p:
        app = practice_app(p, clock)
        app.ctx.lang = lang
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await answered(pilot)
            rows = list(p.reviews())
            refuse_writes(monkeypatch)
            await pilot.press("ctrl+z")
            await pilot.pause()
            assert said in notices(app) and screen.state == "feedback" and list(p.reviews()) == rows
            await pilot.press("enter")  # the session goes on (to its summary): no crash
            await pilot.pause()
            assert type(app.screen).__name__ == "SummaryScreen"
    assert len(rows) == 1


@sync
async def test_a_grade_key_on_a_full_disk_keeps_the_grade_and_says_so(tmp_path, clock, monkeypatch):
    with Profile.open(tmp_path) as p:
        app = practice_app(p, clock)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await answered(pilot)
            rows = list(p.reviews())
            refuse_writes(monkeypatch)
            await pilot.press("a")
            await pilot.pause()
            assert "The grade was not changed: cannot write" in notices(app) and screen.state == "feedback"
            assert list(p.reviews()) == rows and screen.run.answers[-1].quality == rows[0].quality


@sync
async def test_a_grade_key_on_a_full_disk_keeps_the_answer_and_its_grade(tmp_path, clock, monkeypatch):
    """A re-grade is one write of the log: refused, nothing changed; once space is freed it is stored."""
    from tests.unit.test_practice_faults import fill_after

    with Profile.open(tmp_path) as p:
        app = practice_app(p, clock)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await answered(pilot)
            stored = list(p.reviews())
            fill_after(monkeypatch, 0)
            await pilot.press("a")
            await pilot.pause()
            assert screen.state == "feedback" and list(p.reviews()) == stored
            assert screen.run.answers[-1].quality == stored[0].quality
            monkeypatch.undo()
            await pilot.press("a")
            await pilot.pause()
            assert screen.state == "feedback" and [r.id for r in p.reviews()] == [stored[0].id]
            assert list(p.reviews())[0].quality == screen.run.answers[-1].quality


@sync
async def test_dont_know_on_a_full_disk_while_a_proof_runs_leaves_the_box_live(tmp_path, clock, monkeypatch):
    import threading

    from drill.core import practice_run

    gate = threading.Event()
    real = practice_run.PracticeRun.judge

    def slow_judge(self, text):
        gate.wait(10)
        return real(self, text)

    monkeypatch.setattr(practice_run.PracticeRun, "judge", slow_judge)
    with Profile.open(tmp_path) as p:
        app = practice_app(p, clock, item="memory.zero_expression")
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            await pilot.pause()
            box = screen.query_one("#answer", Input)
            box.value = "2*Phi"
            await pilot.press("enter")
            await pilot.pause()
            assert box.disabled  # checking
            refuse_writes(monkeypatch)
            await pilot.press("ctrl+g")
            await pilot.pause()
            gate.set()
            assert screen.state == "asking" and not box.disabled and box.value == "2*Phi"
            assert "press Ctrl+G again" in notices(app) and list(p.reviews()) == []
            monkeypatch.setattr(practice_run.PracticeRun, "judge", real)
            from engine.storage import durable

            monkeypatch.setattr(durable, "open", open, raising=False)  # space freed
            await pilot.press("ctrl+g")
            await pilot.pause()
            assert screen.state == "feedback" and [r.verdict for r in p.reviews()] == ["dont_know"]


# --------------------------------------------------------------------------- save files this user may not read


@pytest.mark.parametrize("lang, said", [("en", "Save file left out, it cannot be read: {seg} (permission denied). "
                                               "To fix it: chmod u+rw {seg}"),
                                        ("zh", "存档文件无法读取，已跳过：{seg}（permission denied）。修复方法：chmod u+rw {seg}")])
def test_an_older_log_file_that_may_not_be_read_is_named_with_the_permission_to_give(tmp_path, monkeypatch, capsys,
                                                                                    lang, said):
    from datetime import date

    from tests.functional.test_save_faults import damaged_older_segment
    from tests.unit.test_storage_edges import refuse_reads

    seg = damaged_older_segment(tmp_path, date.today())
    seg.write_bytes(seg.with_name(seg.name + ".bak").read_bytes())  # whole again, but not ours to read
    refuse_reads(monkeypatch, seg.name)
    assert drill("--saves", str(tmp_path), "due", "--lang", lang) == 0
    err = capsys.readouterr().err
    assert said.format(seg=seg) in err and "mv " not in err


def test_a_state_file_that_may_not_be_read_stops_the_command_in_one_line_with_the_fix(tmp_path, monkeypatch, capsys):
    from tests.unit.test_storage_edges import refuse_reads

    Profile.open(tmp_path).close()
    with Profile.open(tmp_path) as p:
        p.set_setting("new_per_day", 3)
    refuse_reads(monkeypatch, "state.json")
    state = tmp_path / "default" / "state.json"
    for command in (["due"], ["due", "--new-per-day", "4"], ["stats", "--json"], ["export", "-"]):
        assert drill("--saves", str(tmp_path), *command) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"save file {state} cannot be read: permission denied" in err
        assert f"chmod u+rw {state}" in err and "damaged" not in err


# --------------------------------------------------------------------------- queueing a mock's misses


@sync
async def test_queueing_a_mocks_misses_on_a_full_disk_queues_nothing_and_says_so(tmp_path, clock, monkeypatch,
                                                                                lang="zh", said="无法写入"):
    from tests.functional.test_mock_app import app_for, end_now, right, start, submit

    with Profile.open(tmp_path) as p:
        p.set_setting(SHOW_KEY, False)
        app = app_for(p, clock, lang=lang, questions=2, seed=4, chains=False)
        async with app.run_test(size=(100, 30)) as pilot:
            screen = await start(pilot)
            await submit(pilot, screen, right(screen), seconds=20)
            report = await end_now(pilot)
            refuse_writes(monkeypatch, match=lambda target: target == "state.json")
            await pilot.press("p")
            await pilot.pause()
            assert said in notices(app) and QUEUE_KEY not in p.settings()
            monkeypatch.undo()
            await pilot.press("p")  # space freed: queued once
            await pilot.pause()
            assert p.settings()[QUEUE_KEY] == list(report.report.missed_templates)


def test_a_queued_template_answered_while_the_state_file_cannot_be_written_is_stored_and_stays_queued(tmp_path,
                                                                                                   monkeypatch):
    from drill.core import practice_run, sessions

    with Profile.open(tmp_path) as p:
        p.set_setting(QUEUE_KEY, [SINGLE])
        ctx = AppContext(p, clock=lambda: datetime(2026, 11, 29, 15, tzinfo=UTC), rng=random.Random(1))
        run = practice_run.PracticeRun(ctx, sessions.today_session(ctx))
        assert run.card.item == SINGLE
        refuse_writes(monkeypatch, match=lambda target: target == "state.json")
        a = run.submit(run.current_step.expected.display)
        assert isinstance(a, practice_run.Answer) and [r.item for r in p.reviews()] == [SINGLE]
        assert p.settings()[QUEUE_KEY] == [SINGLE]  # asked first next time too: nothing lost, nothing wrong


# --------------------------------------------------------------------------- drill import of what is not a file


@pytest.mark.parametrize("source, what", [("/dev/zero", ("a device", "设备")), ("{fifo}", ("a named pipe", "命名管道")),
                                          ("{tmp}", ("a folder", "文件夹"))])
@pytest.mark.parametrize("lang, said", [("en", "is not a regular file"), ("zh", "不是普通文件")])
def test_import_of_a_device_a_pipe_or_a_folder_is_refused_at_once(tmp_path, capsys, source, what, lang, said):
    """/dev/zero was read for ever (memory growing), a named pipe blocked: neither is an export."""
    import os

    os.mkfifo(tmp_path / "fifo")
    name = source.format(fifo=tmp_path / "fifo", tmp=tmp_path)
    assert drill("--saves", str(tmp_path / "s"), "import", name, "--lang", lang) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and name in err and what[lang == "zh"] in err
    assert not (tmp_path / "s").exists()  # refused before the profile was opened


# --------------------------------------------------------------------------- an export always imports


def test_an_answer_recorded_with_control_characters_is_stored_printable_and_its_export_imports(tmp_path, capsys):
    """A newline after the answer (as a shell may pass it), a tab or another control character around it: graded
    (the reader skips them), so recorded; an import refused the export that held them (a control character)."""
    t = registry.get(SINGLE)
    right = t.generate(3).steps[0].expected.display
    typed = f"\x1f\t{right}\x85\n"
    assert drill("--saves", str(tmp_path / "a"), "check", SINGLE, "--seed", "3", typed, "--record") == 0
    with Profile.open(tmp_path / "a") as p:
        [r] = list(p.reviews())
    assert r.typed == right and r.verdict == "correct"
    assert drill("--saves", str(tmp_path / "a"), "export", str(tmp_path / "doc.json")) == 0
    assert drill("--saves", str(tmp_path / "b"), "import", str(tmp_path / "doc.json")) == 0
    with Profile.open(tmp_path / "b") as p:
        assert [x._replace(origin=None) for x in p.reviews()] == [r]  # (its origin: the other replica)


def test_an_older_saves_answer_with_a_control_character_is_exported_as_this_drill_stores_it(tmp_path):
    with Profile.open(tmp_path / "a") as p:
        p.record(review_row(item=SINGLE, topic="roofline", seed=1, quality=4, verdict="correct",
                            when=datetime(2026, 11, 29, 12, tzinfo=UTC), today=date(2026, 11, 29),
                            state=None, schedule=True, typed="12 GB"))
    seg = tmp_path / "a" / "default" / "reviews" / "000001.json"
    edit_text(seg, '"typed":"12 GB"', '"typed":"12 GB\\u001b[0m"', sealed=False)  # as an older drill kept it
    (seg.parent.parent / "manifest.json").unlink()  # (an older drill kept no manifest)
    assert drill("--saves", str(tmp_path / "a"), "export", str(tmp_path / "doc.json")) == 0
    assert read_tables(tmp_path / "doc.json")["reviews"][0]["typed"] == "12 GB\\x1b[0m"
    assert drill("--saves", str(tmp_path / "b"), "import", str(tmp_path / "doc.json")) == 0


def test_a_chain_step_given_again_with_a_trailing_newline_is_not_recorded_twice(tmp_path, monkeypatch, capsys):
    """The whole review failed after every step was stored: the same command (here with a newline after the
    answer, as a shell may pass it) adds only the whole review."""
    from engine.storage import Profile as P

    t = registry.get("roofline.chain_interview")
    answers = [s.expected.display for s in t.generate(7).steps]
    base = ["--saves", str(tmp_path), "check", t.id, "--seed", "7", "--record"]
    for k in (1, 2, 3):
        assert drill(*base, "--step", str(k), answers[k - 1]) == 0
    real, calls = P.record, []

    def fill_on_the_whole_row(self, row):
        calls.append(row)
        if row.step is None:
            refuse_writes(monkeypatch, match=lambda target: target.endswith(".json"))
        return real(self, row)

    monkeypatch.setattr(P, "record", fill_on_the_whole_row)
    assert drill(*base, "--step", "4", answers[3] + "\n") == 1
    monkeypatch.undo()
    capsys.readouterr()
    assert drill(*base, "--step", "4", answers[3] + "\n") == 0
    assert "was already recorded" in capsys.readouterr().out
    with Profile.open(tmp_path) as p:
        assert [r.step for r in p.reviews()] == [1, 2, 3, 4, None]


# --------------------------------------------------------------------------- the app cannot open its profile


@pytest.mark.parametrize("case, said", [
    ("damaged", "state.json is damaged: not valid JSON"),
    ("unreadable", "state.json cannot be read: permission denied"),
    ("mocks", "mocks.json is damaged"),
    ("saves_file", "is a file, not a folder"),
    ("profile_name", "profile name '../x' must be"),
    ("nested", "state.json is damaged: it is nested too deeply"),
])
@pytest.mark.parametrize("command", [[], ["practice"], ["stats"], ["mock"]])
def test_the_app_with_a_profile_it_cannot_open_says_why_in_one_line_and_never_starts(tmp_path, monkeypatch, capsys,
                                                                                    terminal, case, said, command):
    from tests.unit.test_storage_edges import refuse_reads

    saves, profile = tmp_path / "s", []
    with Profile.open(saves) as p:
        p.add_mock({"ts": "2026-11-29T12:00:00Z", "questions": [{"item": "i1"}], "score": {"correct": 0}})
        p.set_setting("new_per_day", 3)
    state = saves / "default" / "state.json"
    if case == "damaged":
        state.write_bytes(b'{"meta": ')
    elif case == "unreadable":
        refuse_reads(monkeypatch, "state.json")
    elif case == "mocks":
        (saves / "default" / "mocks.json").write_bytes(b"[1, 2]")
    elif case == "saves_file":
        saves = tmp_path / "afile"
        saves.write_text("x")
    elif case == "profile_name":
        profile = ["--profile", "../x"]
    elif case == "nested":
        state.write_bytes(b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    assert drill("--saves", str(saves), *profile, *command) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and "Traceback" not in err


@pytest.mark.parametrize("lang, said", [("en", "your answers are stored in the log"), ("zh", "你的答案都已存入记录")])
def test_drill_says_on_leaving_that_the_summary_file_is_behind_its_log(tmp_path, monkeypatch, capsys, terminal, lang,
                                                                        said):
    """The state file could not be written (the rows are durable in the log): not a failure, and said once."""
    from drill.app import DrillApp
    from engine.storage import layout

    def run(self):  # the app, answering once while the state file cannot be written
        refuse_writes(monkeypatch, match=lambda target: target == "state.json")
        monkeypatch.setattr(layout, "STATE_EVERY", 1)
        p = self.ctx.profile
        p.record(review_row(item=SINGLE, topic="roofline", seed=1, quality=4, verdict="correct",
                            when=datetime(2026, 11, 29, 12, tzinfo=UTC), today=date(2026, 11, 29),
                            state=None, schedule=True))

    monkeypatch.setattr(DrillApp, "run", run)
    assert drill("--saves", str(tmp_path), "--lang", lang) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and str(tmp_path / "default" / "state.json") in err
    monkeypatch.undo()
    with Profile.open(tmp_path) as p:
        assert len(list(p.reviews())) == 1 and p.states()[SINGLE].reps == 1


# --------------------------------------------------------------------------- every key on a full disk


SCREENS_ON_A_FULL_DISK = {  # the keys that reach the screen; then the disk is full for every key of it
    "card before a first problem": ["p"],  # (Home, Settings: each of their writes has its own test)
    "practice, after an answer": ["p", "enter", "ctrl+g"],
    "mock report": ["m", "ctrl+s", "escape", "y"],
}


@pytest.mark.parametrize("path", SCREENS_ON_A_FULL_DISK)
@sync
async def test_every_key_of_a_screen_on_a_full_disk_is_answered_without_a_traceback(tmp_path, clock, monkeypatch, path):
    with Profile.open(tmp_path) as p:
        app = DrillApp(AppContext(p, "en", clock, random.Random(7)), start="home")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            for key in SCREENS_ON_A_FULL_DISK[path]:
                await pilot.press(key)
                await pilot.pause()
            screen = app.screen
            refuse_writes(monkeypatch)
            keys = [k.strip() for b in [*screen.BINDINGS, *app.BINDINGS] for k in b.key.split(",")]
            for key in dict.fromkeys(k for k in keys if k not in ("q", "ctrl+q", "ctrl+c")):
                await pilot.press(key)
                await pilot.pause()
                if app.screen is not screen and screen in app.screen_stack:  # a dialog or screen on top: back
                    await pilot.press("escape")
                    await pilot.pause()
        # leaving the app (run_test) raised nothing: every key was answered
    assert not list(tmp_path.rglob("*.tmp"))


@sync
async def test_ctrl_z_stopped_half_way_on_a_chains_last_step_says_a_row_is_left_and_the_answer_comes_back_once(
        tmp_path, clock, monkeypatch):
    from tests.functional.app_support import submit
    from tests.unit.test_practice_faults import fill_after

    item = "roofline.chain_interview"
    with Profile.open(tmp_path) as p:
        app = practice_app(p, clock, item=item)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            for k in range(len(screen.run.problem.steps)):
                await submit(pilot, screen.run.current_step.expected.display)
                if k < len(screen.run.problem.steps) - 1:
                    await pilot.press("enter")
                    await pilot.pause()
            typed = screen.run.answers[-1].typed
            fill_after(monkeypatch, 2)  # the whole row is taken back (state, then log); its step row is not
            await pilot.press("ctrl+z")
            await pilot.pause()
            assert screen.state == "asking" and screen.query_one("#answer", Input).value == typed
            assert "Undone, but one of its rows is still in the log: cannot write" in notices(app)
            monkeypatch.undo()
            await pilot.press("enter")  # given again: the step row left behind goes first
            await pilot.pause()
            assert screen.state == "feedback"
        rows = list(p.reviews())
        assert [r.step for r in rows] == [1, 2, 3, 4, None] and p.states()[item].reps == 1


# --------------------------------------------------------------------------- the clock


def test_an_answer_given_months_after_its_problem_was_shown_is_stored_unmeasured(tmp_path):
    """The app left open on a suspended laptop, or a clock that jumped: the row was refused (seconds past the
    bound) and the app crashed; such a time is no measurement of an answer."""
    from datetime import timedelta

    from drill.core import practice_run, sessions

    now = [datetime(2026, 11, 29, 15, tzinfo=UTC)]
    with Profile.open(tmp_path) as p:
        ctx = AppContext(p, clock=lambda: now[0], rng=random.Random(1))
        run = practice_run.PracticeRun(ctx, sessions.items_session(ctx, [SINGLE]))
        now[0] += timedelta(days=200)
        a = run.submit(run.current_step.expected.display)
        assert isinstance(a, practice_run.Answer) and a.item_row.seconds is None and a.item_row.verdict == "correct"


@pytest.mark.parametrize("year", [1970, 3001])
@pytest.mark.parametrize("lang, said", [("en", "the computer's clock says {year}-"), ("zh", "电脑时钟显示 {year}-")])
def test_a_clock_outside_the_years_a_save_can_hold_stops_every_writer_in_one_line(tmp_path, monkeypatch, capsys,
                                                                                 terminal, year, lang, said):
    from drill.core import paths

    Profile.open(tmp_path).close()
    monkeypatch.setattr(paths, "local_now", lambda: datetime(year, 1, 1, 12, tzinfo=UTC))
    for command in ([], ["check", SINGLE, "--seed", "1", "300", "--record"], ["due", "--new-per-day", "3"]):
        assert drill("--saves", str(tmp_path), "--lang", lang, *command) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said.format(year=year) in err
    assert drill("--saves", str(tmp_path), "stats", "--json") == 0  # a reader dates nothing
    with Profile.open(tmp_path) as p:
        assert list(p.reviews()) == [] and p.settings()["new_per_day"] == 5


@pytest.mark.parametrize("case, en, zh", [
    ("damaged", "state.json is damaged: not valid JSON", "state.json 已损坏：不是有效的 JSON"),
    ("newer", "was written by a newer version of infra-drill", "由更新版本的 infra-drill 写入"),
    ("locked", "profile 'default' is in use by process", "档案“default”正被进程"),
    ("lock_folder", "default.lock of profile 'default' is a folder, not a file", "的锁文件"),
    ("name", "profile name '../x' must be 1-64 letters", "档案名 '../x' 必须由"),
])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_profile_that_cannot_be_opened_is_said_in_the_commands_language(tmp_path, monkeypatch, capsys, case, en, zh,
                                                                         lang):
    monkeypatch.setenv("DRILL_LOCK_WAIT", "0")
    with Profile.open(tmp_path) as p:
        p.set_setting("new_per_day", 3)
    state, extra, held = tmp_path / "default" / "state.json", [], None
    if case == "damaged":
        state.write_bytes(b"{")
    elif case == "newer":
        edit_text(state, '"schema":1', '"schema":99')
    elif case == "locked":
        held = Profile.open(tmp_path)
    elif case == "lock_folder":
        (tmp_path / "default.lock").unlink()
        (tmp_path / "default.lock").mkdir()
    else:
        extra = ["--profile", "../x"]
    try:
        assert drill("--saves", str(tmp_path), *extra, "due", "--new-per-day", "4", "--lang", lang) == 1
    finally:
        if held is not None:
            held.close()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and (en if lang == "en" else zh) in err
