"""What a new user trips on at the command line and in the words: the version,
every topic in `drill templates --help`, a near template id suggested, a profile that cannot be read, where
progress is saved (one default per install, named by `drill --help`, `drill stats` and Settings), output that
is never wrapped when piped, and a re-drill's "not rescheduled" in plain words."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from drill.app import DrillApp
from drill.core.context import AppContext
from drill.screens.practice import ASKING, FEEDBACK
from drill.screens.settings import SettingsScreen
from engine.storage import Profile
from question_bank import registry
from question_bank.topics import TOPICS
from tests import cli
from tests.functional.app_support import sync, text_of

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.functional


def test_version():
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    r = cli.drill("--version")
    assert (r.returncode, r.stdout, r.stderr) == (0, f"drill {version}\n", "")


def test_templates_help_lists_every_topic_of_the_bank():
    r = cli.drill("templates", "--help")
    said = " ".join(r.stdout.split())  # argparse wraps the help
    assert r.returncode == 0 and f"only this topic: {', '.join(TOPICS)}" in said
    assert {t for _, t in registry.catalog()} == set(TOPICS)


@pytest.mark.parametrize("lang, said", [("en", "did you mean memory.static or"), ("zh", "是不是 memory.static 或")])
def test_a_mistyped_template_suggests_the_near_ones(lang, said):
    r = cli.drill("--lang", lang, "check", "memory.statik", "--seed", "1", "1 GB")
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1 and said in r.stderr


def test_check_on_a_profile_that_cannot_be_read_grades_and_warns_but_never_records(tmp_path):
    Profile.open(tmp_path).close()
    state = tmp_path / "default" / "state.json"
    state.write_bytes(b'{"meta": ')
    args = ("--saves", str(tmp_path), "check", "roofline.ridge_point", "--seed", "1", "9.564 FLOP/B")
    r = cli.drill(*args)
    assert r.returncode == 0 and r.stdout.startswith("Correct")
    assert r.stderr.count("\n") == 1 and "graded, but your profile cannot be read" in r.stderr and str(state) in r.stderr
    r = cli.drill(*args, "--record")
    assert r.returncode == 1 and "damaged" in r.stderr and state.read_bytes() == b'{"meta": '


def test_piped_output_is_never_wrapped(tmp_path):
    """Nothing the CLI prints to a pipe is broken into lines it did not have (`drill ask`'s prompt, the
    solution of `drill check`): a script reads each line whole."""
    t = max(registry.all_templates(), key=lambda t: len(t.generate(1).prompt("en")))
    problem = t.generate(1)
    r = cli.drill("ask", t.id, "--seed", "1")
    assert r.returncode == 0 and problem.prompt("en") in r.stdout
    assert max(len(line) for line in problem.prompt("en").splitlines()) > 80  # long enough to have been wrapped


def test_the_saves_folder_in_use_is_named_by_help_and_stats(tmp_path, monkeypatch):
    monkeypatch.delenv("DRILL_SAVES", raising=False)
    r = cli.drill("--help")
    said = " ".join(r.stdout.split())
    assert r.returncode == 0 and f"Progress is saved in {ROOT / 'saves'} (the saves/ folder of the checkout" in said
    r = cli.drill("--saves", str(tmp_path), "stats")
    assert r.returncode == 0 and r.stdout.endswith(f"Progress is saved in {tmp_path} (chosen with --saves).\n")
    r = cli.drill("--lang", "zh", "--help", env={"DRILL_SAVES": str(tmp_path)})
    assert f"Progress is saved in {tmp_path} (chosen with $DRILL_SAVES)." in " ".join(r.stdout.split())


@sync
@pytest.mark.parametrize("lang, said", [("en", "Progress is saved in {path}"), ("zh", "进度保存在 {path}")])
async def test_settings_name_the_saves_folder(profile, clock, lang, said):
    app = DrillApp(AppContext(profile, lang, clock, random.Random(7)), start="home")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma")
        assert isinstance(app.screen, SettingsScreen)
        assert said.format(path=profile.path.parent) in " ".join(text_of(app.screen, "#settings-saves").split())


@sync
async def test_the_stats_screen_names_the_saves_folder(profile, clock):
    from drill.screens.stats import StatsScreen

    app = DrillApp(AppContext(profile, "en", clock, random.Random(7)), start="home")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        for _ in range(50):  # the figures are computed in the background
            await pilot.pause(0.05)
            if app.screen.query("#stats-saves"):
                break
        assert isinstance(app.screen, StatsScreen)
        said = " ".join(text_of(app.screen, "#stats-saves").split())
        assert said.startswith(f"Progress is saved in {profile.path.parent}")


@sync
@pytest.mark.parametrize("lang, said", [("en", "your first answer today already set its next review"),
                                        ("zh", "下次复习时间已按你今天第一次的回答安排")])
async def test_dont_know_on_a_redrill_says_in_plain_words_why_nothing_moved(profile, clock, lang, said):
    app = DrillApp(AppContext(profile, lang, clock, random.Random(7)), start="practice")
    async with app.run_test(size=(100, 36)) as pilot:
        screen = app.screen
        for _ in range(40):  # Don't know on each card until a re-drill of one of them comes up
            assert screen.state == ASKING
            redrill = screen.run.card.kind == "redrill" and screen.run.step == 0
            await pilot.press("ctrl+g")
            await pilot.pause()
            if screen.state == FEEDBACK and redrill:
                break
            if screen.state == FEEDBACK:
                await pilot.press("enter")
                await pilot.pause()
        else:
            pytest.fail("no re-drill came up")
        verdict = " ".join(text_of(screen, "#verdict").split())
        assert said in verdict and "logged only" not in verdict and "not due and not missed" not in verdict
