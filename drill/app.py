"""The Textual app: Home, Practice, Browse, Help (and Stats, Mock from their own modules).

Screens are imported lazily by dotted path (:data:`SCREEN_PATHS`) so that
``drill practice`` only pays for the screens it shows.  Every screen takes
only optional keyword arguments and reads ``self.app.ctx``.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App, SystemCommand
from textual.await_complete import AwaitComplete
from textual.screen import Screen
from textual.widget import AwaitMount

from drill.core.context import AppContext
from drill.core.i18n import t
from drill.keybindings import bind
from drill.screens import SCREEN_PATHS, ScreenUnavailable, screen_class, screen_name  # noqa: F401 (re-exported)

if TYPE_CHECKING:
    from drill.screens import DrillAppAPI


# The palette's providers, imported when the palette first opens (not on the way to the first problem)
def _key_commands():
    from drill.palette import KeyCommands

    return KeyCommands


def _screen_commands():
    from drill.palette import ScreenCommands

    return ScreenCommands


def _template_commands():
    from drill.palette import TemplateCommands

    return TemplateCommands


class DrillApp(App):
    """``DrillApp(ctx, start="home")``: the ``start`` screen first (extra keyword arguments go to it).

    Leaving the first screen shows Home, never an empty screen: with another
    ``start`` screen (``drill practice``), Home is only built then.

    Quitting (Ctrl+Q, the palette) first asks each screen with a ``before_quit()``
    (a mock ends and is saved; a mock whose save failed is saved again, and asks
    before it is lost).  :attr:`unsaved` holds what a failed write left unsaved,
    by its owner: ``drill`` prints it on stderr should the app close anyway.
    """

    TITLE = "infra-drill"
    DEFAULT_MODE = "bottom-0"  # the first screen's mode (:meth:`replace_bottom`)
    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: subclasses elsewhere find it too
    COMMANDS = App.COMMANDS | {_key_commands, _screen_commands, _template_commands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    BINDINGS = [
        *bind("key.help", "help", keys="f1"),
        *bind("key.lang", "toggle_lang"),
        # Textual's own palette key, given an id so that its name follows the language
        *bind("key.palette", "command_palette", show=False, priority=True),
    ]

    def __init__(self, ctx: AppContext, start: str = "home", **start_kwargs) -> None:
        super().__init__()
        self.ctx = ctx
        self.start = start
        self.start_kwargs = start_kwargs
        self.unsaved: dict[object, str] = {}  # owner -> what is lost if the app closes now (in the UI language)
        self.bottoms = 0  # how many screens have been the bottom of the stack (each the base of its own mode)
        self.add_mode(self.DEFAULT_MODE, self.first_screen)

    def first_screen(self) -> Screen:
        """The ``start`` screen (Home when it cannot be built): the base of the app's first mode.

        Built as the app composes itself, as a bare Textual app's own screen is, and sized for the
        terminal before its first layout (a screen pushed from ``on_mount`` was composed while Textual
        still held the app's updates in its start-up batch: its first frame was drawn and thrown away)."""
        return self._build(self.start, self.start_kwargs) or screen_class("home")()

    def on_load(self) -> None:
        # before the terminal is read: no key can be queued ahead of this
        self.first_screen_ready = asyncio.Event()
        self.call_later(self._keep_typeahead)

    def on_mount(self) -> None:
        self.call_after_refresh(self._started)

    async def _keep_typeahead(self) -> None:
        """Keys typed while drill starts are kept for the first screen, not lost.

        This is the app's first message (queued by ``on_load``), so the app handles no key (each goes
        to the focused widget, or to the screen when none is) until the first screen is ready for
        typing: it set :attr:`first_screen_ready` (:class:`drill.screens.DrillScreen`, once mounted,
        its answer box focused), or its mount ended some other way."""
        mounted = asyncio.ensure_future(AwaitMount(self.screen, [self.screen]))
        ready = asyncio.ensure_future(self.first_screen_ready.wait())
        await asyncio.wait([mounted, ready], return_when=asyncio.FIRST_COMPLETED)
        for waiting in (mounted, ready):
            waiting.cancel()

    def _started(self) -> None:
        """After the first frame: garbage collection back on (``drill`` starts with it off),
        the objects of the start-up kept out of every later collection."""
        gc.freeze()
        gc.enable()

    def pop_screen(self):
        """Back to the previous screen; from the first screen (the bottom of the stack), to Home."""
        if len(self.screen_stack) <= 1:
            return self.switch_screen(screen_class("home")())
        return super().pop_screen()

    def switch_screen(self, screen: Screen | str) -> AwaitComplete:
        """Put ``screen`` in place of the current one (the bottom of the stack too: :meth:`replace_bottom`)."""
        if len(self.screen_stack) <= 1 and screen is not self.screen:
            return self.replace_bottom(screen)
        return super().switch_screen(screen)

    def replace_bottom(self, screen: Screen | str) -> AwaitComplete:
        """Put ``screen`` in place of the only screen of the stack.

        The bottom screen of a stack is the base of its mode, which Textual does not switch away from (it
        has no result callback, which ``switch_screen`` takes from the screen it replaces): ``screen``
        becomes the base of a mode of its own, and the mode it replaces is removed with its screen."""
        old = self.current_mode
        self.bottoms += 1
        mode = f"bottom-{self.bottoms}"
        self.add_mode(mode, screen if isinstance(screen, str) else lambda: screen)
        mounted = self.switch_mode(mode)
        removed = self.remove_mode(old)

        async def replaced() -> None:
            await mounted
            await removed

        return AwaitComplete(replaced()).call_next(self)

    def _build(self, name: str, kwargs: dict) -> Screen | None:
        try:
            return screen_class(name)(**kwargs)
        except ScreenUnavailable:
            self.notify(t("screen.unavailable", self.ctx.lang, name=name), severity="warning")
            return None

    def open_screen(self, name: str, **kwargs) -> bool:
        """Push the screen called ``name``, built with ``kwargs``; a missing module is a notification,
        not a crash (False)."""
        screen = self._build(name, kwargs)
        if screen is not None:
            self.push_screen(screen)
        return screen is not None

    def go(self, name: str, **kwargs) -> None:
        """Show the screen called ``name`` (the palette's way between screens): back to Home when it is
        in the stack (from the first screen, Home in its place), any other screen opened on top."""
        if name != "home":
            self.open_screen(name, **kwargs)
            return
        home = screen_class("home")
        if not any(isinstance(s, home) for s in self.screen_stack):
            self.switch_screen(home())  # started elsewhere (drill practice): Home in its place
            return
        while not isinstance(self.screen_stack[-1], home):
            self.pop_screen()

    def switch_to(self, name: str, **kwargs) -> AwaitComplete:
        """Put the screen called ``name`` in place of the current one (await it to have it mounted);
        a missing module is a notification and the current screen stays."""
        screen = self._build(name, kwargs)
        return AwaitComplete.nothing() if screen is None else self.switch_screen(screen)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's own palette commands, named in the UI language."""
        from drill.palette import localized

        return localized(super().get_system_commands(screen), self.ctx.lang)

    def action_command_palette(self) -> None:
        """Textual's palette, its search box in the UI language."""
        from textual.command import CommandPalette

        if self.use_command_palette and not CommandPalette.is_open(self):
            placeholder = t("palette.placeholder", self.ctx.lang)
            self.push_screen(CommandPalette(id="--command-palette", placeholder=placeholder))

    async def action_quit(self) -> None:
        """Quit, unless a screen holding work not saved yet says to wait (it asks, or quits by itself once saved)."""
        for screen in reversed(self.screen_stack):
            before_quit = getattr(screen, "before_quit", None)
            if before_quit is not None and not before_quit():
                return
        self.exit()

    def action_help(self) -> None:
        if not isinstance(self.screen, screen_class("help")):
            self.open_screen("help")

    def action_toggle_lang(self) -> None:
        from engine.langs import other_lang
        from engine.storage import SaveFailed

        try:
            self.ctx.set_lang(other_lang(self.ctx.lang))
        except SaveFailed as e:  # switched all the same (AppContext.set_lang), only not remembered
            self.notify(t("save.lang_not_kept", self.ctx.lang, why=e.text(self.ctx.lang)), severity="error",
                        timeout=8, markup=False)
        for screen in self.screen_stack:  # the keys name themselves in the language (drill.screens.named_bindings)
            apply = getattr(screen, "apply_lang", None)
            if apply is not None:
                apply()
        self.refresh_bindings()


if TYPE_CHECKING:  # the app the screens are typed for (drill.screens.DrillAppAPI) is this one
    _has_screens_api: type[DrillAppAPI] = DrillApp
