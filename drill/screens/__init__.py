"""The app's screens; :class:`DrillScreen` gives each the context and its language, :class:`DrillModal`
gives a dialog its language, :func:`named_bindings` names every key in it (from drill.core.i18n's words)."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from textual import events, on
from textual.binding import ActiveBinding, Binding
from textual.screen import ModalScreen, Screen

from drill.core.i18n import key_name, t
from engine.status import Status

if TYPE_CHECKING:
    from textual import getters
    from textual.app import App
    from textual.await_complete import AwaitComplete

    from drill.core.context import AppContext

# Every screen of the app by name, imported lazily by dotted path (drill.app opens them; the palette lists them)
SCREEN_PATHS: dict[str, str] = {
    "home": "drill.screens.home:HomeScreen",
    "practice": "drill.screens.practice:PracticeScreen",
    "browse": "drill.screens.browse:BrowseScreen",
    "help": "drill.screens.help:HelpScreen",
    "summary": "drill.screens.summary:SummaryScreen",
    "stats": "drill.screens.stats:StatsScreen",
    "mock": "drill.screens.mock_setup:MockSetupScreen",
    "mock_run": "drill.screens.mock_run:MockRunScreen",
    "mock_report": "drill.screens.mock_report:MockReportScreen",
    "settings": "drill.screens.settings:SettingsScreen",
    "card": "drill.screens.card:CardScreen",  # a template's formula card (the palette opens it by template)
}


class DrillAppAPI(Protocol):
    """What the screens use of their app beyond Textual's ``App``: :class:`drill.app.DrillApp` has it (the
    checker sees it there), declared here as drill.app imports this module."""

    ctx: AppContext
    unsaved: dict[object, str]

    def open_screen(self, name: str, **kwargs: Any) -> bool: ...

    def switch_to(self, name: str, **kwargs: Any) -> AwaitComplete: ...

    def go(self, name: str, **kwargs: Any) -> None: ...


if TYPE_CHECKING:

    class AppWithDrillAPI(App[Any], DrillAppAPI):
        """The app a screen runs in, as the checker sees it: Textual's ``App`` with :class:`DrillAppAPI`."""


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


def screen_name(screen: Screen) -> str | None:
    """The name in :data:`SCREEN_PATHS` of ``screen``'s class (None: not one of the app's screens)."""
    path = f"{type(screen).__module__}:{type(screen).__qualname__}"
    return next((name for name, p in SCREEN_PATHS.items() if p == path), None)


@lru_cache(maxsize=1024)
def _described(binding: Binding, words: str) -> Binding:
    return replace(binding, description=words)


def named_bindings(screen: DrillScreen | DrillModal[Any], active: dict[str, ActiveBinding]) -> dict[str, ActiveBinding]:
    """``active`` (a screen's active bindings) with each key described by the words of its binding ``id`` in the
    UI language (from drill.core.i18n's words; the screen's own keys by :meth:`DrillScreen.key_words`).

    Bindings are made once per class, in English (:func:`drill.keybindings.bind`), and the language changes
    while screens hold state, so the words are put in where every view of the keys reads them (Textual's
    key panel, the footer :class:`drill.widgets.footer.KeyFooter`, the palette): the screen's
    ``active_bindings``.  Other bindings (Textual's own) keep their description."""
    lang = screen.app.ctx.lang
    named: dict[str, ActiveBinding] = {}
    for key, found in active.items():
        binding = found.binding
        words = screen.key_words(binding) if found.node is screen else key_name(binding.id, lang)
        if words is not None and words != binding.description:
            found = ActiveBinding(found.node, _described(binding, words), found.enabled, found.tooltip)
        named[key] = found
    return named


def scroll_bindings(action: str = "scroll_problem") -> list[Binding]:
    """PgUp/PgDn (a page) and ↑/↓ (a line) scroll a screen's problem while its answer box keeps the focus
    (a text box has these keys but does nothing with them): one entry in the footer, ``PgUp PgDn``, and one
    line in Help.  Priority keys (else the box's own bindings would hide them from the footer): a screen's
    ``check_action`` returns False for ``action`` where another view has the focus and scrolls itself."""
    from drill.keybindings import bind

    return [b for key, how in (("pagedown", "page_down"), ("pageup", "page_up"), ("down", "down"), ("up", "up"))
            for b in bind("key.scroll", f"{action}('{how}')", keys=key, show=key == "pagedown", priority=True)]


def scroll_view(view, how: str) -> None:
    """Scroll a VerticalScroll by ``how`` (``page_down``, ``page_up``, ``down``, ``up``), at once."""
    if how in ("page_down", "page_up", "down", "up"):
        getattr(view, f"scroll_{how}")(animate=False)


def question_in_view(view) -> None:
    """Keep ``view`` (a problem: givens, then its question last) at its end, so the question's last line is
    on screen and the givens are above it, a PgUp away.  Anchored (Textual's ``anchor``): it stays at the end
    through every layout of the new text (a first frame, a formula card closed, a resize) until the learner
    scrolls it; a scroll back to the end anchors it again."""
    view.anchor()  # scrolls to the end now and takes back an anchor the learner released on the last problem


# one colour per verdict on every screen (engine verdicts, "I don't know", a mock's unanswered question)
VERDICT_COLOUR: dict[str, str] = {Status.CORRECT: "green", Status.CONVENTION: "cyan", Status.CLOSE: "yellow",
                                  Status.WRONG: "red", Status.DONT_KNOW: "magenta", Status.UNANSWERED: "dim"}


class DrillScreen(Screen):
    """A screen that reads ``self.app.ctx`` and redraws its words when the language changes."""

    WORDS: Mapping[str, tuple[str, str]] | None = None  # the screen's own words (key names), beside i18n's

    if TYPE_CHECKING:  # every screen of drill runs in DrillApp (Textual types it App[Any])
        app = getters.app(AppWithDrillAPI)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        # the width class (-narrow / -wide) from the start: the first resize then restyles nothing
        width = self.app.size.width
        for least, name in sorted(self.app.HORIZONTAL_BREAKPOINTS or [], reverse=True):
            if width >= least:
                self.add_class(name)
                break

    @on(events.Mount)
    async def release_typeahead(self) -> None:
        # A Mount handler of its own name, not on_mount, so that a screen's own (synchronous) on_mount
        # overrides nothing; Textual calls both, the subclass's first.
        # After the screen's own on_mount, its answer box focused:
        # the keys typed while drill started (DrillApp holds them until now) reach that box before the
        # first frame is laid out, if the app and the box get their turns first (three turns of the event
        # loop: the app forwards the keys, the box takes them); otherwise they show a frame later.
        ready = getattr(self.app, "first_screen_ready", None)
        if ready is not None and not ready.is_set():
            ready.set()
            for _ in range(3):
                await asyncio.sleep(0)

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """Textual's, each key named in the UI language (:func:`named_bindings`)."""
        return named_bindings(self, super().active_bindings)

    def key_words(self, binding: Binding) -> str | None:
        """The words of one of this screen's own keys in the UI language: from drill.core.i18n, else
        from :attr:`WORDS` (None: the binding keeps its description)."""
        return key_name(binding.id, self.lang, self.WORDS)

    @property
    def ctx(self) -> AppContext:
        return self.app.ctx

    @property
    def lang(self) -> str:
        return self.app.ctx.lang

    def tr(self, key: str, **fmt) -> str:
        return t(key, self.lang, **fmt)

    def apply_lang(self) -> None:
        """Called after the language changed: by default, compose the screen again."""
        self.refresh(recompose=True)

    async def recompose(self) -> None:
        await super().recompose()
        self.refresh_bindings()  # the recomposed widgets' bindings (a focused box's) are the footer's keys


R = TypeVar("R")


class DrillModal(ModalScreen[R]):
    """A dialog: its keys named in the app's language."""

    if TYPE_CHECKING:  # every dialog of drill runs in DrillApp (Textual types it App[Any])
        app = getters.app(AppWithDrillAPI)

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """Textual's, each key named in the UI language (:func:`named_bindings`)."""
        return named_bindings(self, super().active_bindings)

    def key_words(self, binding: Binding) -> str | None:
        return key_name(binding.id, self.lang)

    @property
    def lang(self) -> str:
        return self.app.ctx.lang
