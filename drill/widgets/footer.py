"""The key footer, composed again only when the keys it shows change."""

from __future__ import annotations

from textual.widgets import Footer


class KeyFooter(Footer):
    """Textual's Footer, whose keys are composed again only when the keys it shows change.

    Textual's Footer composes every key again, restyling each, whenever the screen's bindings are
    refreshed: three times while the first problem appears (the focus, the footer's mount, a refresh
    after the focus), each time with the same keys.  This one skips a refresh that leaves what it
    draws - the shown bindings, in order, enabled or not, and the palette's key - as it was.
    """

    _drawn: tuple | None = None  # what the keys were composed from, or are due to be

    def _shown(self) -> tuple:
        active = self.screen.active_bindings
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        return tuple(a[1:] for a in active.values() if a.binding.show) + (palette and palette[1:],)

    def compose(self):
        if self._bindings_ready:  # before the first refresh of the bindings Textual's Footer draws nothing
            self._drawn = self._shown()
        yield from super().compose()

    def bindings_changed(self, screen) -> None:
        """Textual's ``Footer.bindings_changed`` (8.2), but no recompose when the keys would come out the same
        as those drawn or already due to be drawn."""
        self._bindings_ready = True
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        shown = self._shown()
        if shown != self._drawn:
            self._drawn = shown
            self.call_after_refresh(self.recompose)
