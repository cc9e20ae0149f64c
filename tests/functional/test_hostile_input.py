"""Hostile input: very long pastes, control characters, markup-like text, lone surrogates and
huge expressions in every text box of the app; odd arguments to every command. No traceback, no hang, the
app stays live, nothing unreadable is stored."""

from __future__ import annotations

import random

import pytest
from textual import events
from textual.widgets import Input

from drill.app import DrillApp
from drill.cli import main
from drill.core.context import AppContext
from drill.core.teach import SHOW_KEY
from engine.storage import Profile
from question_bank import registry
from tests.functional.app_support import sync

pytestmark = pytest.mark.functional

PASTES = [
    "9" * 50_000,  # a very long paste
    "(" * 5000 + "1" + ")" * 5000,  # a huge expression
    "9**9**9**9**9",
    "1\x1b[31m\x00\x07\r2",  # a terminal escape and other control characters
    "[bold]x[/] [link=https://example.com]y[/link] [/]",  # markup-like text
    "12\ud800 GB",  # a lone surrogate (Windows consoles deliver UTF-16)
    "１２０ ＧＢ" * 1000,  # wide characters
]


async def paste(pilot, box: Input, text: str) -> None:
    box.focus()
    await pilot.pause()
    box.post_message(events.Paste(text))
    await pilot.pause()


@pytest.mark.parametrize("where", ["answer", "settings", "browse", "palette", "mock"])
@sync
async def test_every_text_box_takes_any_paste_and_the_app_stays_live(tmp_path, clock, where):
    with Profile.open(tmp_path) as p:
        p.set_setting(SHOW_KEY, False)
        app = DrillApp(AppContext(p, "en", clock, random.Random(7)), start="home")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press({"answer": "p", "settings": "comma", "browse": "b", "palette": "ctrl+p", "mock": "m"}[where])
            await pilot.pause()
            if where == "mock":  # the run's answer box
                await pilot.press("ctrl+s")
                await pilot.pause()
            screen = app.screen
            selector = {"answer": "#answer", "settings": "#input-new_per_day", "browse": "#browse-filter",
                        "mock": "#mock-answer"}.get(where)
            for text in PASTES:
                box = screen.query_one(selector, Input) if selector else screen.query_one(Input)
                box.value = ""
                await paste(pilot, box, text)
                if where in ("answer", "settings", "mock"):
                    await pilot.press("enter")
                    await pilot.pause()
                assert app.screen is screen  # still there, still answering keys
            for _ in range(3):  # Browse: Escape empties its box, then leaves it, then the screen
                await pilot.press("escape")
                await pilot.pause()
                if app.screen is not screen:
                    break
            assert app.screen is not screen
        assert list(p.reviews()) == []  # nothing unreadable was graded or stored
        assert all(not q.get("typed") for m in p.mocks() for q in m["questions"])  # (a mock ended by Escape)
        assert p.settings()["new_per_day"] == 5


SINGLE = next(t.id for t in registry.all_templates() if not t.is_chain and t.answer_kind == "number")
CHAIN = next(t.id for t in registry.all_templates() if t.is_chain)
ODD = ["", "-1", "99999999999999999999999999", "１２", "é", "\x1b[31m", "nan", "1e400", "0"]


def commands(odd: str, saves: str) -> list[list[str]]:
    return [["ask", odd], ["ask", SINGLE, "--seed", odd], ["check", SINGLE, "--seed", odd, "1"],
            ["check", SINGLE, "--seed", "1", odd], ["check", CHAIN, "--seed", "1", "--step", odd, "1"],
            ["card", odd], ["templates", "--topic", odd], ["calc", odd], ["calc", "ridge_point", odd],
            ["mock", "--plan", "--seed", odd], ["mock", "--plan", "--minutes", odd],
            ["mock", "--plan", "--questions", odd], ["mock", "--plan", "--topics", odd],
            ["--saves", saves, "due", "--new-per-day", odd], ["--saves", saves, "plan", "--new-per-day", odd],
            ["--saves", saves, "plan", "--reviews-per-day", odd], ["--saves", saves, "plan", "--interview", odd],
            ["--saves", saves, "--profile", odd, "due"], ["--saves", saves, "import", odd],
            ["--saves", saves, "export", odd], ["--saves", saves, "catalogue", "show", odd],
            ["--saves", saves, "catalogue", "check", odd]]


@pytest.mark.parametrize("odd", ODD)
def test_every_command_with_an_odd_argument_ends_in_a_few_lines_never_a_traceback(tmp_path, capsys, monkeypatch, odd):
    monkeypatch.chdir(tmp_path)  # an export to an odd name lands here
    for argv in commands(odd, str(tmp_path / "saves")):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse, or a profile that cannot be opened
            code = e.code
        err = capsys.readouterr().err
        assert code in (0, 1, 2), (argv, code)
        assert "Traceback" not in err and (code == 0 or err.strip()), (argv, err)
        assert len(err.strip().splitlines()) <= (4 if err.startswith("usage:") else 1), (argv, err)
