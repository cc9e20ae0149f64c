"""Help: every key of every screen, read from the screens' own bindings (one source of truth)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from drill.core.i18n import key_name, t
from drill.keybindings import bind
from drill.screens import DrillScreen, screen_class
from drill.widgets.footer import KeyFooter

FEEDBACK_ACTIONS = ("next", "grade", "undo", "leave", "card")
# several bindings described by one line of help
HELP_TEXT = {"key.scroll": "help.scroll", "key.lang": "help.lang", "key.palette": "help.palette", "key.next": "help.next",
             "key.again": "help.again", "key.hard": "help.hard", "key.good": "help.good", "key.easy": "help.easy",
             **{f"key.q{q}": "key.quality" for q in range(6)}}


def _action_name(action: str) -> str:
    return action.split("(")[0].removeprefix("app.")


def _typing_safe(b: Binding) -> bool:
    """Keys that still work while the answer box has focus (it takes every printable key)."""
    return len(b.key) > 1 and b.key != "question_mark"


def _keys(keys: list[str]) -> str:
    keys = list(dict.fromkeys(keys))
    words = {w for k in keys for w in k.split() if w != k}
    keys = [k for k in keys if k not in words]  # "PgUp PgDn, PgUp" is "PgUp PgDn"
    if len(keys) > 2 and all(k.isdigit() for k in keys):
        return f"{min(keys)}-{max(keys)}"
    return ", ".join(keys)


class HelpScreen(DrillScreen):
    DEFAULT_CSS = """
    HelpScreen #help-body { padding: 1 2; }
    """
    BINDINGS = [
        *bind("key.close", "app.pop_screen", keys="escape"),
        *bind("key.help", "app.pop_screen", keys="question_mark", show=False),  # the key that opened it
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(self.render_keys(), id="keys")
        yield KeyFooter()

    def groups(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """(section title, [(keys, what)]) for every screen; the keys come from the BINDINGS."""
        lang = self.lang

        def rows(cls, keep=lambda b: True, enter: str | None = None) -> list[tuple[str, str]]:
            """The keys of screen ``cls`` (``keep`` chooses); ``enter``: what Enter does there besides."""
            merged: dict[str, list[str]] = {enter: [self.app.get_key_display(Binding("enter", ""))]} if enter else {}
            for b in cls.BINDINGS:
                what = key_name(HELP_TEXT.get(b.id, b.id), lang, getattr(cls, "WORDS", None))
                if what is not None and keep(b):
                    merged.setdefault(what, []).append(self.app.get_key_display(b))
            return [(_keys(keys), what) for what, keys in merged.items()]

        practice = screen_class("practice")
        everywhere = rows(type(self.app)) + [("^q", t("help.quit", lang))]
        return [
            (t("help.everywhere", lang), everywhere),
            (t("help.home", lang), rows(screen_class("home"))),
            (t("help.practice_answering", lang),
             rows(practice, lambda b: _typing_safe(b) and _action_name(b.action) not in ("next", "grade", "extra"),
                  enter=t("help.submit", lang))),
            (t("help.practice_feedback", lang), rows(practice, lambda b: _action_name(b.action) in FEEDBACK_ACTIONS)),
            (t("help.practice_empty", lang), rows(practice, lambda b: _action_name(b.action) in ("extra", "leave"))),
            (t("help.browse", lang), rows(screen_class("browse"))),
            (t("help.stats", lang), rows(screen_class("stats"))),
            (t("help.mock_setup", lang), rows(screen_class("mock"), enter=t("key.mock_start", lang))),
            (t("help.mock_run", lang), rows(screen_class("mock_run"), enter=t("help.submit", lang))),
            (t("help.mock_report", lang), rows(screen_class("mock_report"), enter=t("help.mock_solution", lang))),
        ]

    def render_keys(self) -> Table:
        out = Table.grid(padding=(0, 1))
        out.add_column()
        out.add_row(Text(self.tr("help.title"), "bold underline"))
        for title, keys in self.groups():
            table = Table(box=None, show_header=False, padding=(0, 2), pad_edge=False)
            table.add_column(style="bold cyan", min_width=12)
            table.add_column()
            for key, what in keys:
                table.add_row(Text(key), Text(what))
            out.add_row(Text(""))
            out.add_row(Text(title, "bold"))
            out.add_row(table)
        out.add_row(Text(""))
        out.add_row(Text(self.tr("help.answers"), "dim"))
        out.add_row(Text(self.tr("help.grades"), "dim"))
        out.add_row(Text(self.tr("help.card"), "dim"))
        from drill.core.teach import sources_lines

        out.add_row(Text(""))
        out.add_row(Text(self.tr("help.sources"), "bold"))
        from drill.widgets.formulas import Wrapped

        out.add_row(Wrapped(Text("\n".join(sources_lines(self.lang)))))  # a wrapped line keeps its indent
        return out
