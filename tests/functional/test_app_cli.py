"""Launching the app: a busy or damaged profile stops `drill` / `drill practice` before any screen,
with the reason, and touches nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.storage import Profile
from tests import cli

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.functional


def drill(*args: str, terminal: bool = True) -> subprocess.CompletedProcess:
    """``python -m drill ARGS`` in a pseudo-terminal (read back as ``stdout``); without ``terminal``, ``drill ARGS``
    in this process with standard input and output that are not a terminal (tests/cli.py), as from cron or a
    pipe: what it refuses then is the command's logic, the same in a process."""
    env = {k: v for k, v in os.environ.items() if k not in ("DRILL_SAVES", "DRILL_LOCK_WAIT")}
    if not terminal:
        return cli.drill(*args, env=env, cwd=ROOT)
    return cli.in_terminal([sys.executable, "-m", "drill", *args], cwd=ROOT, env=env, timeout=60)


@pytest.mark.parametrize("args", [(), ("practice",), ("mock", "--questions", "2")])
def test_a_profile_open_elsewhere_stops_the_app_with_the_holder(tmp_path, args):
    with Profile.open(tmp_path):
        r = drill("--saves", str(tmp_path), *args)
    assert r.returncode == 1
    assert r.stderr.startswith("drill: ") and str(os.getpid()) in r.stderr
    assert "\x1b[" not in r.stdout + r.stderr  # no screen was drawn


def test_a_damaged_save_stops_the_app_and_is_left_as_it_is(tmp_path):
    with Profile.open(tmp_path) as p:
        p.set_setting("lang", "zh")
    state = tmp_path / "default" / "state.json"
    state.write_bytes(b'{"meta": {"1"')
    before = {f: f.read_bytes() for f in tmp_path.rglob("*") if f.is_file() and f.suffix != ".lock"}
    r = drill("--saves", str(tmp_path), "practice")
    assert r.returncode == 1 and "damaged" in r.stderr and str(state) in r.stderr
    assert {f: f.read_bytes() for f in tmp_path.rglob("*") if f.is_file() and f.suffix != ".lock"} == before


@pytest.mark.parametrize("args", [(), ("practice",), ("mock", "--questions", "2"), ("--lang", "zh", "practice")])
def test_the_app_without_a_terminal_refuses_in_one_line_and_draws_nothing(tmp_path, args):
    """Piped, from cron or CI (stdin /dev/null, stdout a pipe): status 2 and one line, nothing drawn or saved."""
    r = drill("--saves", str(tmp_path), *args, terminal=False)
    said = "应用需要在终端中运行" if "zh" in args else "the app needs a terminal"
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1 and said in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_practice_is_a_subcommand_with_help():
    r = drill("practice", "--help")
    assert r.returncode == 0 and "today's practice session" in r.stdout


def test_the_first_problem_and_a_graded_number_never_import_sympy(tmp_path):
    script = f"""
import asyncio, sys
from engine.storage import Profile
from tests import cli
from drill.app import DrillApp
from drill.core.context import AppContext

async def main():
    with Profile.open({str(tmp_path)!r}) as profile:
        profile.set_setting("card_before_new", False)  # straight to the problem (the card is tested elsewhere)
        app = DrillApp(AppContext(profile, "en"), start="practice", items=["roofline.ridge_point"])
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            screen.query_one("#answer").value = screen.run.current_step.expected.display
            await pilot.press("enter")
            assert screen.state == "feedback", screen.state
    print("sympy" in sys.modules)

asyncio.run(main())
"""
    r = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "False"


def test_garbage_collection_is_back_on_once_the_first_screen_is_drawn(tmp_path):
    script = f"""
import asyncio, gc
from engine.storage import Profile
from tests import cli
from drill.app import DrillApp
from drill.core.context import AppContext

async def main():
    gc.disable()  # as `drill` starts
    with Profile.open({str(tmp_path)!r}) as profile:
        app = DrillApp(AppContext(profile, "en"), start="practice")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            print(gc.isenabled())

asyncio.run(main())
"""
    r = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "True"


@pytest.mark.parametrize("args, said", [
    (("practice", "memory.statik"), "did you mean memory.static or"),
    (("practice", "static_given"), "did you mean memory.static_given?"),  # a short id: the same as `drill ask`
    (("practice", "memory.static_given", "--seed", "x"), "--seed must be a whole number"),
    (("practice", "--seed", "3"), "--seed needs a TEMPLATE"),
    (("--lang", "zh", "practice", "memory.statik"), "没有名为"),
])
def test_practice_template_refuses_a_typo_before_anything_opens(tmp_path, args, said):
    r = drill("--saves", str(tmp_path), *args, terminal=False)  # said before the terminal is asked for
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and said in r.stderr
    assert list(tmp_path.iterdir()) == []
    if args[-1] == "memory.statik":  # word for word what `drill ask` says
        assert r.stderr == drill(*args[:-2], "ask", "memory.statik", terminal=False).stderr


@pytest.mark.parametrize("seed", [25, None])
def test_practice_template_opens_the_app_on_a_problem_of_it_and_records_the_answer(tmp_path, monkeypatch, terminal,
                                                                                    seed):
    import asyncio

    from drill.app import DrillApp
    from drill.cli import main
    from drill.screens.practice import PracticeScreen

    with Profile.open(tmp_path) as p:
        p.set_setting("card_before_new", False)  # straight to the problem (the card is tested elsewhere)
    shown = {}

    def run(app):
        async def answer():
            async with app.run_test(size=(100, 36)) as pilot:
                await pilot.pause()
                screen = app.screen
                assert isinstance(screen, PracticeScreen)
                shown["seed"], shown["item"] = screen.run.card.seed, screen.run.card.item
                screen.query_one("#answer").value = screen.run.current_step.expected.display
                await pilot.press("enter")
                await pilot.pause()
                assert screen.state == "feedback"
        asyncio.run(answer())

    monkeypatch.setattr(DrillApp, "run", run)
    assert main(["--saves", str(tmp_path), "practice", "memory.static_given",
                 *(("--seed", str(seed)) if seed is not None else ())]) == 0
    assert shown["item"] == "memory.static_given" and (seed is None or shown["seed"] == seed)
    with Profile.open(tmp_path) as p:
        [row] = list(p.reviews())
        assert (row.item, row.seed, row.verdict, row.mode) == (
            "memory.static_given", shown["seed"], "correct", "extra")
        assert p.states()["memory.static_given"].due is not None  # its first answer enters the schedule
