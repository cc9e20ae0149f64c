"""The command palette: the keys of the current screen offered by name (:class:`KeyCommands`), and
Textual's own commands (Theme, Quit, Keys, Screenshot…) in the UI language (:func:`localized`)."""

from __future__ import annotations

from functools import partial

from typing import Iterable

from textual.app import SystemCommand
from textual.command import DiscoveryHit, Hit, Hits, Provider

from drill.i18n import t

# Textual's system commands (textual 8.2.8 App.get_system_commands), known by their help text,
# which tells Keys' show and hide apart: the ids of their title and help in drill.i18n.STRINGS
SYSTEM_COMMANDS: dict[str, tuple[str, str]] = {
    "Change the current theme": ("system.theme", "system.theme_help"),
    "Quit the application as soon as possible": ("system.quit", "system.quit_help"),
    "Show help for the focused widget and a summary of available keys": ("system.keys", "system.keys_show"),
    "Hide the keys and widget help panel": ("system.keys", "system.keys_hide"),
    "Maximize the focused widget": ("system.maximize", "system.maximize_help"),
    "Minimize the widget and restore to normal size": ("system.minimize", "system.minimize_help"),
    "Save an SVG 'screenshot' of the current screen": ("system.screenshot", "system.screenshot_help"),
}


def localized(commands: Iterable[SystemCommand], lang: str) -> Iterable[SystemCommand]:
    """Textual's commands with their title and help in ``lang``; one this table does not know stays as it is."""
    for c in commands:
        ids = SYSTEM_COMMANDS.get(c.help)
        yield c if ids is None else c._replace(title=t(ids[0], lang), help=t(ids[1], lang))


class KeyCommands(Provider):
    """The command palette offers exactly the app's keys on the current screen, by their names."""

    def _commands(self):
        found: dict[str, tuple[list[str], object]] = {}
        for active in self.screen.active_bindings.values():
            b = active.binding
            if not active.enabled or not b.id or b.action == "command_palette":  # the app's keys have an id
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
