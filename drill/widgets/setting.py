"""One setting: its label, a text box and a line under it; an edit is kept when the box is left.

Every setting of the Settings screen is a :class:`SettingField` (a new setting - a convention, the catalogue's
hardware, a scheduler option - is one more field, nothing else)::

    SettingField("new_per_day", label="settings.new_per_day", value="5",
                 read=lambda text: settings.parse_setting("new_per_day", text, today),
                 save=lambda value: profile.set_setting("new_per_day", value),
                 hint=lambda: tr("settings.new_per_day_hint"), why=lambda problem: tr(problem))

* ``read(text) -> (value, problem)``: the value typed, or ``problem`` (not None) that ``why(problem)`` words;
* ``save(value)``: stores it; it may raise :class:`engine.storage.SaveFailed` (the text then stays in the box
  and the next Enter or leaving the box saves it again);
* ``hint()``: the line under the box, in the screen's language (called again when the language changes:
  :meth:`SettingField.draw`).

An edit is saved when Enter is pressed, when the box loses the focus (Tab, Shift+Tab, a click elsewhere), and
when the screen calls :meth:`SettingField.commit` before it closes (Esc).  A value that cannot be read is never
saved: the line under the box says why in red, and the focus stays in the box (Tab does not leave it; the
screen may let a second Esc leave, dropping the edit).  A value equal to the one stored is not written again.
After a save the field posts :class:`SettingField.Saved` (the screen redraws what depends on it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Static

from engine.storage import SaveFailed

OK, REFUSED, NOT_SAVED = "ok", "refused", "not_saved"


class SettingField(Widget):
    """A setting's label, its box (``#input-KEY``) and the line under it (``#hint-KEY``)."""

    DEFAULT_CSS = """
    SettingField { height: auto; }
    SettingField .setting-label { margin: 1 0 0 0; }
    SettingField .setting-input { width: 30; }
    SettingField .setting-hint { color: $text-muted; }
    """

    class Saved(Message):
        """A new value of ``key`` was stored."""

        def __init__(self, field: SettingField, value: Any) -> None:
            super().__init__()
            self.field = field
            self.key = field.key
            self.value = value

    def __init__(self, key: str, *, label: Callable[[], str], value: str, read: Callable[[str], tuple[Any, Any]],
                 save: Callable[[Any], None], hint: Callable[[], str], why: Callable[[Any], str],
                 saved_words: Callable[[], str], kept_words: Callable[[SaveFailed], str],
                 max_length: int = 10) -> None:
        super().__init__(id=f"setting-{key}")
        self.key = key
        self._label, self._read, self._save, self._hint, self._why = label, read, save, hint, why
        self._saved_words, self._kept_words = saved_words, kept_words
        self.stored = value  # the text of the value in the profile
        self.refused: str | None = None  # the text whose reason is on show (not saved)
        self._max_length = max_length

    def compose(self) -> ComposeResult:
        yield Static(Text(self._label(), "bold"), id=f"label-{self.key}", classes="setting-label")
        yield Input(self.stored, id=f"input-{self.key}", classes="setting-input", max_length=self._max_length)
        yield Static(Text(self._hint()), id=f"hint-{self.key}", classes="setting-hint")

    @property
    def box(self) -> Input:
        return self.query_one(Input)

    @property
    def edited(self) -> bool:
        return self.box.value.strip() != self.stored.strip()

    def draw(self) -> None:
        """The label and the line under the box again, in the screen's (new) language."""
        self.query_one(f"#label-{self.key}", Static).update(Text(self._label(), "bold"))
        if self.refused is None:
            self.say(Text(self._hint()))

    def say(self, text: Text) -> None:
        self.query_one(f"#hint-{self.key}", Static).update(text)

    def commit(self) -> str:
        """Save the box's text if it was edited: :data:`OK` (saved, or nothing to save), :data:`REFUSED` (it
        cannot be read: the reason is shown) or :data:`NOT_SAVED` (the write failed: the reason is shown)."""
        text = self.box.value
        if not self.edited:
            if self.refused is not None:
                self.refused = None
                self.say(Text(self._hint()))
            return OK
        value, problem = self._read(text)
        if problem is not None:
            self.refused = text
            self.say(Text(self._why(problem), "bold red"))
            return REFUSED
        try:
            self._save(value)
        except SaveFailed as e:  # nothing changed: the text stays in the box, Enter or leaving saves it again
            self.refused = None
            self.say(Text(self._kept_words(e), "bold red"))
            return NOT_SAVED
        self.stored, self.refused = text, None
        self.say(Text.assemble((self._saved_words() + " ", "green"), self._hint()))
        self.post_message(self.Saved(self, value))
        return OK

    @on(Input.Submitted)
    def _entered(self, event: Input.Submitted) -> None:
        event.stop()
        if self.commit() == OK:
            self.screen.focus_next()

    @on(Input.Blurred)
    def _left(self, event: Input.Blurred) -> None:
        event.stop()
        if not self.screen.is_current or not self.is_attached:
            return  # the screen is closing (it committed first) or another one is on top
        if self.commit() == REFUSED:
            self.call_after_refresh(self.box.focus)  # a value that cannot be read stays in its field
