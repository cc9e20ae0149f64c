"""The formula card of a template, full screen: read before the first drill, one key away after.

The card's text is :func:`question_bank.cards.card_lines` (the same lines ``drill card``
prints), drawn as rich Text (never markup: formulas have brackets).  Reading a card is not a
review: nothing is recorded but the profile setting :data:`drill.core.teach.SEEN_KEY` (which templates
have had their card shown before their first problem; :func:`drill.core.teach.needs_card` says when it is).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from drill.keybindings import bind
from drill.screens import DrillScreen
from drill.widgets.footer import KeyFooter

if TYPE_CHECKING:
    from drill.widgets.formulas import Lines


def card_text(template_id: str, lang: str, conventions: Mapping[str, str] | None = None) -> tuple[str, Lines]:
    """The card's title, and its lines below the title: headings in colour; formulas broken only between terms
    and sentences between words when the screen is narrow (drill.widgets.formulas).  ``conventions``: the
    learner's, as ``drill card --convention`` takes them (the same function writes both)."""
    from drill.widgets.formulas import Lines
    from question_bank import cards, registry

    lines = cards.card_lines(registry.get(template_id), lang, conventions)
    return lines[0], Lines([(line[2:], "bold cyan") if line.startswith("# ") else (line, "")
                            for line in lines[2:]])  # the title is in the screen's head


class CardScreen(DrillScreen):
    """``CardScreen(template_id, first=True)`` before a template's first problem; ``first=False`` on request."""

    DEFAULT_CSS = """
    CardScreen #card-head { padding: 0 1; height: auto; }
    CardScreen #card-body { padding: 0 1; }
    """
    BINDINGS = [
        *bind("key.close", "close", keys="escape"),
        *bind("key.card_start", "close", keys="enter"),
        *bind("key.card", "close", show=False),  # F2 and c open the card and close it
    ]

    def __init__(self, template_id: str, first: bool = False, why: str = "card.first", **kwargs) -> None:
        super().__init__(**kwargs)
        self.template_id = template_id
        self.first = first
        self.why = why  # first: the words that say why the card comes before the drill (new, or a leech)

    def compose(self) -> ComposeResult:
        # the title and the card as the learner's conventions write them (Total training FLOPs (8ΦD), C = 8 × Φ × D)
        title, body = card_text(self.template_id, self.lang, self.ctx.conventions)
        head = Text(self.tr("card.title", title=title) + "\n", "bold underline")
        if self.first:
            head.append(self.tr(self.why) + "\n", "bold yellow")
        head.append(self.tr("card.keys_first" if self.first else "card.keys"), "dim italic")
        yield Static(head, id="card-head")
        with VerticalScroll(id="card-body"):
            yield Static(body, id="card-text")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#card-body", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(self.template_id)
