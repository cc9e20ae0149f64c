"""The Textual app: Home, Practice, Browse, Help (and Stats, Mock from their own modules).

Screens are imported lazily by dotted path (:data:`SCREEN_PATHS`) so that
``drill practice`` only pays for the screens it shows.  Every screen takes
only optional keyword arguments and reads ``self.app.ctx``.
"""

from __future__ import annotations

import importlib
from functools import partial

from textual.app import App
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.screen import Screen

from drill.context import AppContext
from drill.i18n import STRINGS, localize_bindings, t

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


class KeyCommands(Provider):
    """The command palette offers exactly the app's keys on the current screen, by their names."""

    def _commands(self):
        found: dict[str, tuple[list[str], object]] = {}
        for active in self.screen.active_bindings.values():
            b = active.binding
            if not active.enabled or b.id not in STRINGS:
                continue
            keys, _ = found.setdefault(b.description, ([], partial(active.node.run_action, b.action)))
            keys.append(self.app.get_key_display(b))
        for name, (keys, callback) in found.items():
            yield name, ", ".join(dict.fromkeys(keys)), callback

    async def discover(self) -> Hits:
        for name, keys, callback in self._commands():
            yield DiscoveryHit(name, callback, help=t("palette.key", self.app.ctx.lang, key=keys))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, keys, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=t("palette.key", self.app.ctx.lang, key=keys))


class DrillApp(App):
    """``DrillApp(ctx, start="home")``: Home is always at the bottom of the stack."""

    TITLE = "infra-drill"
    CSS_PATH = "app.tcss"
    COMMANDS = App.COMMANDS | {KeyCommands}
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
        self.push_screen(screen_class("home")())
        if self.start != "home":
            self.open_screen(self.start, **self.start_kwargs)

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
