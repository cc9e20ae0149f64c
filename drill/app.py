"""The Textual app: Home, Practice, Browse, Help (and Stats, Mock from their own modules).

Screens are imported lazily by dotted path (:data:`SCREEN_PATHS`) so that
``drill practice`` only pays for the screens it shows.  Every screen takes
only optional keyword arguments and reads ``self.app.ctx``.
"""

from __future__ import annotations

import gc
import importlib
from pathlib import Path

from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from drill.context import AppContext
from drill.i18n import localize_bindings, t

SCREEN_PATHS: dict[str, str] = {
    "home": "drill.screens.home:HomeScreen",
    "practice": "drill.screens.practice:PracticeScreen",
    "browse": "drill.screens.browse:BrowseScreen",
    "help": "drill.screens.help:HelpScreen",
    "summary": "drill.screens.summary:SummaryScreen",
    "stats": "drill.screens.stats:StatsScreen",
    "mock": "drill.screens.mock:MockSetupScreen",
}


class ScreenUnavailable(Exception):
    """A screen whose module cannot be imported (yet)."""


def screen_class(name: str) -> type[Screen]:
    try:
        path = SCREEN_PATHS[name]
    except KeyError:
        raise ScreenUnavailable(f"unknown screen {name!r}") from None
    module, _, attr = path.partition(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        raise ScreenUnavailable(f"{path}: {e}") from e


def _key_commands():
    """The palette's provider, imported when the palette first opens (not on the way to the first problem)."""
    from drill.palette import KeyCommands

    return KeyCommands


class DrillApp(App):
    """``DrillApp(ctx, start="home")``: Home is at the bottom of the stack.

    With another ``start`` screen (``drill practice``), Home is only built
    when that screen is left: leaving the last screen shows Home, never an
    empty screen.  Extra keyword arguments go to the start screen.
    """

    TITLE = "infra-drill"
    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: subclasses elsewhere find it too
    COMMANDS = App.COMMANDS | {_key_commands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    BINDINGS = [
        Binding("f1", "help", "Help", id="key.help"),
        Binding("ctrl+t", "toggle_lang", "中文", id="key.lang"),
    ]

    def __init__(self, ctx: AppContext, start: str = "home", **start_kwargs) -> None:
        super().__init__()
        self.ctx = ctx
        self.start = start
        self.start_kwargs = start_kwargs
        localize_bindings(self, ctx.lang)

    def on_mount(self) -> None:
        self.call_after_refresh(self._started)

    def _started(self) -> None:
        """After the first frame: garbage collection back on (``drill`` starts with it off),
        the objects of the start-up kept out of every later collection."""
        gc.freeze()
        gc.enable()

    def get_default_screen(self) -> Screen:
        """The start screen is the bottom of the stack itself: no blank screen under it (a faster start)."""
        try:
            screen = screen_class(self.start)(**self.start_kwargs)
        except ScreenUnavailable:
            self.call_later(self.notify, t("screen.unavailable", self.ctx.lang, name=self.start), severity="warning")
            screen = screen_class("home")()
        # as push_screen does: switching away from this screen pops a result callback
        screen._push_result_callback(self, None)
        return screen

    def pop_screen(self):
        """Back to the previous screen; from the first screen of a direct start, to Home."""
        if len(self.screen_stack) == 1:
            return self.switch_screen(screen_class("home")())
        return super().pop_screen()

    def open_screen(self, name: str, **kwargs) -> bool:
        """Push the screen called ``name``; a missing module is a notification, not a crash."""
        try:
            cls = screen_class(name)
        except ScreenUnavailable:
            self.notify(t("screen.unavailable", self.ctx.lang, name=name), severity="warning")
            return False
        self.push_screen(cls(**kwargs))
        return True

    def action_help(self) -> None:
        if not isinstance(self.screen, screen_class("help")):
            self.open_screen("help")

    def action_toggle_lang(self) -> None:
        self.ctx.set_lang("en" if self.ctx.lang == "zh" else "zh")
        localize_bindings(self, self.ctx.lang)
        for screen in self.screen_stack:
            localize_bindings(screen, self.ctx.lang)
            for node in screen.walk_children():
                localize_bindings(node, self.ctx.lang)
            apply = getattr(screen, "apply_lang", None)
            if apply is not None:
                apply()
        self.refresh_bindings()
