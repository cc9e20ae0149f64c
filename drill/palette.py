"""The command palette's provider: the keys of the current screen, offered by name."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from drill.i18n import t


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
