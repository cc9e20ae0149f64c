"""Helpers of the app's pilot tests: an injected clock, a profile in a temp folder, reading widgets."""

from __future__ import annotations

import asyncio
import functools
import io
from datetime import UTC, datetime, timedelta

import pytest
from rich.console import Console
from rich.text import Text
from textual.app import App
from textual.widgets import Input, Static

from engine.storage import Profile


def sync(test):
    @functools.wraps(test)
    def run(*args, **kwargs):
        asyncio.run(test(*args, **kwargs))
    return run


class Clock:
    def __init__(self) -> None:
        self.t = datetime(2026, 11, 29, 15, 0, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += timedelta(seconds=seconds)


@pytest.fixture
def profile(tmp_path):
    p = Profile.open(tmp_path)
    p.set_setting("card_before_new", False)  # a new template's card first: tested on its own (test_card_screen.py)
    yield p
    p.close()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture(autouse=True)
def kept_notices():
    """Every notification a DrillApp shows is kept for :func:`notices` (Textual keeps its own privately).

    Its own MonkeyPatch: a test's ``monkeypatch.undo()`` (a full disk freed) leaves this in place."""
    from drill.app import DrillApp

    def notify(app, message, *args, **kwargs):
        app.__dict__.setdefault("notices", []).append(str(message))
        return App.notify(app, message, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DrillApp, "notify", notify)
        yield


def footer_drawn(footer) -> list:
    """The keys of a KeyFooter's last render that are on its line whole, left to right (the palette's last)."""
    return [e for _start, end, e in footer.key_spans if end <= footer.size.width]


def notices(app) -> str:
    """The messages of every notification ``app`` showed, one after another."""
    return " ".join(app.__dict__.get("notices", []))


def text_of(screen, selector: str) -> str:
    """The text a Static shows (rich tables rendered as plain text)."""
    widget = screen.query_one(selector)
    if not isinstance(widget, Static):
        return str(widget.render())
    content = widget.content
    if isinstance(content, (str, Text)) or type(content).__name__ == "Wrapped":
        return str(content)
    console = Console(width=200, file=io.StringIO(), color_system=None)
    console.print(content)
    return console.file.getvalue()


async def submit(pilot, text: str) -> None:
    screen = pilot.app.screen
    screen.query_one("#answer", Input).value = text
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


