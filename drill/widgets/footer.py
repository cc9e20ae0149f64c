"""The key footer of every screen: one widget that draws the screen's keys on one line, as Textual's Footer does.

Why not Textual's ``Footer``: it is a scrolling container holding one ``FooterKey`` widget per key
(ten or more on Practice), each styled, laid out and composed again whenever the bindings change
(a focus change, a key enabled).  On the screen ``drill practice`` opens first, that was the dearest
thing after the imports: about 140 million of the 1,460 million instructions from launch to the first
key drawn (callgrind, docs/performance.md); on the other screens it was about a quarter of the CPU
the pilot tests spent (docs/performance.md).  This footer is one widget that renders the same line - the same
keys in the same order (the first key of each action), the same styles (Textual's footer component
classes and theme variables), the palette key on the right - and is drawn again only when the keys
it shows change.  A click on a key presses it, as on Textual's footer; a disabled key rings the bell.
Below 110 columns (the app's ``-wide`` breakpoint) the keys go without padding and the palette key
is not drawn (ctrl+p still opens it; Help lists it): every key of a screen then fits on the line, in
English and Chinese.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widget import Widget

from engine.records import NamedTuple


class FooterEntry(NamedTuple):
    """One key as the footer draws it."""

    key: str  # the key pressed (Textual's name: "ctrl+g", "comma")
    key_display: str  # as shown ("^g", ",")
    description: str
    enabled: bool
    palette: bool = False  # the command palette's key, drawn on the right


class KeyFooter(Widget, can_focus=False):
    """The screen's shown keys on one line (see the module docstring)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"footer-key--key", "footer-key--description", "footer-key--hover",
                         "footer-key--separator"}
    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        & > .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .footer-key--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        & > .footer-key--separator {
            color: $foreground 20%;
        }
    }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.drawn_keys: tuple[FooterEntry, ...] | None = None  # the keys of the last render
        self.key_spans: list[tuple[int, int, FooterEntry]] = []  # columns [start, end) of each key drawn
        self.hover_key: str | None = None  # the key under the mouse

    # ------------------------------------------------------------------ what it shows
    def entries(self) -> tuple[FooterEntry, ...]:
        """The keys the footer shows now: the first shown key of each action, in the screen's order,
        and the palette's key last (as Textual's ``Footer.compose``)."""
        active = self.screen.active_bindings
        app = self.app
        seen: set[str] = set()
        shown: list[FooterEntry] = []
        for _node, binding, enabled, _tooltip in active.values():
            if binding.show and binding.action not in seen:
                seen.add(binding.action)
                shown.append(FooterEntry(binding.key, app.get_key_display(binding), binding.description, enabled))
        palette = active.get(app.COMMAND_PALETTE_BINDING) if app.ENABLE_COMMAND_PALETTE else None
        if palette is not None:
            _node, binding, enabled, _tooltip = palette
            shown.append(FooterEntry(binding.key, app.get_key_display(binding), binding.description, enabled, True))
        return tuple(shown)

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen) -> None:
        """Drawn again only when the keys it would show are not those drawn."""
        if self.is_attached and screen is self.screen and self.entries() != self.drawn_keys:
            self.refresh()

    # ------------------------------------------------------------------ drawing
    def render(self) -> Text:
        entries = self.entries()
        self.drawn_keys = entries
        width = self.size.width
        # the screen's -narrow class comes after a resize is drawn: the footer's own width tells it first
        narrow = any(width < least for least, name in self.app.HORIZONTAL_BREAKPOINTS or [] if name == "-wide")
        key_style = self.get_component_rich_style("footer-key--key")
        description_style = self.get_component_rich_style("footer-key--description")
        hover_style = self.get_component_rich_style("footer-key--hover")
        left, spans = Text(no_wrap=True, overflow="crop"), []
        right = Text(no_wrap=True, overflow="crop")
        for entry in entries:
            if entry.palette and narrow:
                continue
            if narrow:  # "k desc" and a space between keys
                label = Text.assemble((entry.key_display, key_style), (" " + entry.description, description_style))
            else:  # " k desc " edge to edge
                label = Text.assemble((f" {entry.key_display} ", key_style), (entry.description + " ", description_style))
            if not entry.enabled:
                label.stylize("dim")
            if entry.key == self.hover_key and entry.enabled:
                label.stylize(hover_style)
            if entry.palette:  # as Textual draws it: a thin rule, the key unpadded
                label = Text.assemble((entry.key_display, key_style), (" " + entry.description + " ", description_style))
                right = Text.assemble(("▏", self.get_component_rich_style("footer-key--separator")), label)
                continue
            spans.append((left.cell_len, left.cell_len + label.cell_len, entry))
            left.append_text(label)
            if narrow:
                left.append(" ")
        room = max(0, width - right.cell_len)
        left.truncate(room, overflow="crop", pad=True)
        self.key_spans = [s for s in spans if s[0] < room]
        if right.cell_len:
            palette = next(e for e in entries if e.palette)
            self.key_spans.append((room + 1, room + right.cell_len, palette))
        return left + right

    # ------------------------------------------------------------------ the mouse
    def entry_at(self, x: int) -> FooterEntry | None:
        return next((e for start, end, e in self.key_spans if start <= x < end), None)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        entry = self.entry_at(event.x)
        if entry is None:
            return
        if entry.enabled:
            self.app.simulate_key(entry.key)
        else:
            self.app.bell()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        entry = self.entry_at(event.x)
        hover = entry.key if entry is not None else None
        if hover != self.hover_key:
            self.hover_key = hover
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self.hover_key is not None:
            self.hover_key = None
            self.refresh()
