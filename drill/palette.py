"""The command palette (Ctrl+P), the same on every screen:

* :class:`KeyCommands`: the keys of the current screen, offered by name;
* :class:`ScreenCommands`: every screen of the app (Home, Practice, Browse, Mock, Stats, Help, and
  any other screen in :data:`PALETTE_SCREENS` that this build has);
* :class:`TemplateCommands`: every template by its title (in the UI language, or the other one), its
  id or its topic: practise it, or show its card when the app has a card screen;
* Textual's own commands (Theme, Quit, Keys, Screenshot…) in the UI language (:func:`localized`).

Quit is offered once: by Textual's own command (Home's ``q`` key is not offered again).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from drill.core import find
from drill.core.i18n import t, template_title, topic_name
from engine.langs import other_lang

if TYPE_CHECKING:
    from drill.screens import AppWithDrillAPI

# Textual's system commands (App.get_system_commands), known by their help text,
# which tells Keys' show and hide apart: the ids of their title and help in drill.core.i18n.STRINGS
SYSTEM_COMMANDS: dict[str, tuple[str, str]] = {
    "Change the current theme": ("system.theme", "system.theme_help"),
    "Quit the application as soon as possible": ("system.quit", "system.quit_help"),
    "Show help for the focused widget and a summary of available keys": ("system.keys", "system.keys_show"),
    "Hide the keys and widget help panel": ("system.keys", "system.keys_hide"),
    "Maximize the focused widget": ("system.maximize", "system.maximize_help"),
    "Minimize the widget and restore to normal size": ("system.minimize", "system.minimize_help"),
    "Save an SVG 'screenshot' of the current screen": ("system.screenshot", "system.screenshot_help"),
}
# actions a key may have that Textual's own commands already offer (offered once, by Textual's)
SYSTEM_ACTIONS = frozenset({"app.quit", "quit", "command_palette"})

# the screens the palette opens, in this order, with their name and what they are (drill.core.i18n ids);
# a screen whose name is not in drill.screens.SCREEN_PATHS (not in this build) is left out
PALETTE_SCREENS: tuple[tuple[str, str, str], ...] = (
    ("home", "key.home", "palette.screen.home"),
    ("practice", "key.practice", "home.way.practice_short"),
    ("browse", "key.browse", "home.way.browse"),
    ("mock", "key.mock", "home.way.mock"),
    ("stats", "key.stats", "home.way.stats"),
    ("settings", "palette.screen.settings", "palette.screen.settings_help"),
    ("help", "key.help", "palette.screen.help"),
)
MAX_TEMPLATE_HITS = 40  # per query: the best ones (the palette shows about ten at a time)


def localized(commands: Iterable[SystemCommand], lang: str) -> Iterable[SystemCommand]:
    """Textual's commands with their title and help in ``lang``; one this table does not know stays as it is."""
    for c in commands:
        ids = SYSTEM_COMMANDS.get(c.help)
        yield c if ids is None else SystemCommand(t(ids[0], lang), t(ids[1], lang), c.callback, c.discover)


class DrillProvider(Provider):
    """A provider of this palette: it is only offered by :class:`drill.app.DrillApp`."""

    if TYPE_CHECKING:  # Textual types it App[object]

        @property
        def app(self) -> AppWithDrillAPI: ...


class KeyCommands(DrillProvider):
    """The app's keys on the current screen, by their names (only those that work in its present state)."""

    def _commands(self) -> Iterator[tuple[str, str, Callable[[], object]]]:
        found: dict[str, tuple[list[str], Callable[[], object]]] = {}
        for active in self.screen.active_bindings.values():
            b = active.binding
            if not active.enabled or not b.id or b.action in SYSTEM_ACTIONS:  # the app's keys have an id
                continue
            keys, _ = found.setdefault(b.description, ([], partial(self.app.run_action, b.action, active.node)))
            keys.append(self.app.get_key_display(b))
        for name, (keys, callback) in found.items():
            yield name, ", ".join(dict.fromkeys(keys)), callback

    def names(self) -> set[str]:
        return {name for name, _, _ in self._commands()}

    async def discover(self) -> Hits:
        for name, keys, callback in self._commands():
            yield DiscoveryHit(name, callback, help=t("palette.key", self.app.ctx.lang, key=keys))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, keys, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=t("palette.key", self.app.ctx.lang, key=keys))


class ScreenCommands(DrillProvider):
    """Every screen, opened by name; not the one on show, nor one the screen's own keys already offer."""

    def _commands(self) -> Iterator[tuple[str, str, Callable[[], object]]]:
        from drill.screens import SCREEN_PATHS, screen_name

        lang, here = self.app.ctx.lang, screen_name(self.screen)
        offered = KeyCommands(self.screen).names()
        for name, title, what in PALETTE_SCREENS:
            if name not in SCREEN_PATHS or name == here:
                continue
            label = t(title, lang)
            if label in offered:
                continue
            yield label, t(what, lang), partial(self.app.go, name)

    async def discover(self) -> Hits:
        for label, what, callback in self._commands():
            yield DiscoveryHit(label, callback, help=what)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for label, what, callback in self._commands():
            score = max(matcher.match(label), matcher.match(what) / 2)
            if score > 0:
                yield Hit(score, matcher.highlight(label), callback, text=label, help=what)


TemplateHit = tuple[float, Content, str, str, Callable[[], object]]


def template_commands(app: AppWithDrillAPI, query: str) -> list[TemplateHit]:
    """(score, what is shown, its text, help, callback) for the templates ``query`` finds: practise each,
    and show its card when this build has a card screen; the best :data:`MAX_TEMPLATE_HITS`."""
    from drill.screens import SCREEN_PATHS
    from question_bank import registry

    lang = app.ctx.lang
    other = other_lang(lang)
    found = []
    for tpl in registry.all_templates():
        title = template_title(tpl, lang)
        hit = find.match(query, (title, tpl.id, topic_name(tpl.topic, lang), template_title(tpl, other),
                                 topic_name(tpl.topic, other), tpl.topic))
        if hit is not None:
            found.append((hit, tpl, title))
    found.sort(key=lambda f: -f[0].score)
    out: list[TemplateHit] = []
    for hit, tpl, title in found[:MAX_TEMPLATE_HITS]:
        shown = Content(title)
        for start, end in hit.spans:
            if end <= len(title):
                shown = shown.stylize("reverse", start, end)
        about = f"{tpl.id} · {topic_name(tpl.topic, lang)}"
        for verb, name, kwargs in (("palette.practise", "practice", {"items": [tpl.id]}),
                                   ("palette.card", "card", {"template_id": tpl.id})):
            if name not in SCREEN_PATHS:
                continue
            prefix = t(verb, lang)
            out.append((hit.score, Content(prefix) + shown, prefix + title, about,
                        partial(app.open_screen, name, **kwargs)))
    return out


class TemplateCommands(DrillProvider):
    """Every template, found by words of its title, id or topic (only when something is typed)."""

    async def search(self, query: str) -> Hits:
        for score, shown, text, about, callback in template_commands(self.app, query):
            yield Hit(score, shown, callback, text=text, help=about)
