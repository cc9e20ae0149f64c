"""Browse: every template by topic with its schedule; preview a sample, practise any on demand."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Footer, Static

from drill import flow
from drill.i18n import template_title, topic_name, when
from drill.screens import VERDICT_COLOUR, DrillScreen
from question_bank import registry


class BrowseScreen(DrillScreen):
    DEFAULT_CSS = """
    BrowseScreen {
        #browse-columns { height: 1fr; }
        #bank { height: 1fr; }
        #preview { height: 1fr; padding: 0 1; border-top: hkey $primary 40%; }
        &.-narrow #browse-columns { layout: vertical; }
        &.-narrow #preview { height: 40%; }
        &.-wide #browse-columns { layout: horizontal; }
        &.-wide #bank { width: 2fr; }
        &.-wide #preview { width: 1fr; border-top: none; border-left: vkey $primary 40%; }
    }
    """
    BINDINGS = [
        Binding("p", "practise", "Practise this", id="key.practise_item"),
        Binding("t", "practise_topic", "Practise topic", id="key.practise_topic"),
        Binding("n", "another", "Another sample", id="key.new_sample"),
        Binding("question_mark", "app.help", "Help", id="key.help", show=False),
        Binding("escape", "app.pop_screen", "Back", id="key.back"),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.seed = 1
        self.rows: list[flow.BankRow] = []

    def compose(self) -> ComposeResult:
        with Horizontal(id="browse-columns"):
            yield DataTable(id="bank", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="preview"):
                yield Static(id="sample")
        yield Footer()

    def on_screen_resume(self) -> None:
        self.fill()

    def on_resize(self) -> None:
        self.fill()

    def apply_lang(self) -> None:
        self.fill()

    def fill(self) -> None:
        table = self.query_one("#bank", DataTable)
        at = table.cursor_row
        table.clear(columns=True)
        # the title column takes what the schedule columns leave (about 38 cells)
        room = self.app.size.width * (2 / 3 if self.app.size.width >= 110 else 1)
        table.add_column(self.tr("browse.template"), key="browse.template", width=max(20, int(room) - 43))
        for key in ("browse.state", "browse.due", "browse.ef", "browse.last"):
            table.add_column(self.tr(key), key=key)
        today = self.ctx.today()
        self.rows = []
        for r in flow.bank_rows(self.ctx):
            if not self.rows or self.row_topic(self.rows[-1]) != r.topic:
                self.rows.append(r.topic)  # a topic heading: practise the whole topic from here
                count = sum(1 for t in registry.all_templates() if t.topic == r.topic)
                table.add_row(Text(f"{topic_name(r.topic, self.lang)} ({count})", "bold underline"),
                              "", "", "", "", key=f"topic:{r.topic}")
            self.rows.append(r)
            tpl = registry.get(r.item)
            shown = when(r.due, today, self.lang) if r.due and (r.due - today).days <= 1 else \
                (r.due.isoformat() if r.due else "")
            due = Text(shown, "bold red" if r.due and r.due <= today else "")
            last = Text(self.tr(f"verdict.{r.last}") if r.last else "", VERDICT_COLOUR.get(r.last or "", ""))
            table.add_row(Text("  " + template_title(tpl, self.lang), overflow="ellipsis"),
                          Text(self.tr(f"browse.{r.state}"), "cyan" if r.state == "new" else ""), due,
                          Text(f"{r.ef:.2f}" if r.ef is not None else ""), last, key=r.item)
        if self.rows:
            table.move_cursor(row=min(max(at, 1), len(self.rows) - 1))
        table.focus()
        self.preview()

    @staticmethod
    def row_topic(row) -> str:
        return row if isinstance(row, str) else row.topic

    @property
    def selected(self) -> "flow.BankRow | str | None":
        """The highlighted template, or a topic name on a topic heading."""
        table = self.query_one("#bank", DataTable)
        return self.rows[table.cursor_row] if self.rows and 0 <= table.cursor_row < len(self.rows) else None

    @on(DataTable.RowHighlighted, "#bank")
    def _highlighted(self) -> None:
        self.preview()

    @on(DataTable.RowSelected, "#bank")
    def _selected(self) -> None:
        self.action_practise()

    def preview(self) -> None:
        row = self.selected
        if row is None:
            return
        lang = self.lang
        if isinstance(row, str):
            text = Text(topic_name(row, lang) + "\n\n", "bold")
            for r in self.rows:
                if not isinstance(r, str) and r.topic == row:
                    tpl = registry.get(r.item)
                    text.append(f"• {template_title(tpl, lang)}", "")
                    text.append(f"  {r.item}\n", "dim")
            self.query_one("#sample", Static).update(text)
            return
        tpl = registry.get(row.item)
        p = tpl.generate(self.seed)
        text = Text(template_title(tpl, lang), "bold")
        text.append(f"   {row.item} · d{tpl.difficulty}\n", "dim")
        text.append(self.tr("browse.preview", seed=self.seed) + "\n\n", "dim italic")
        text.append(p.prompt(lang) + "\n\n")
        answers = " · ".join(s.expected.display_in(lang) for s in p.steps)
        text.append(self.tr("browse.answer", answer=answers), "green")
        self.query_one("#sample", Static).update(text)

    def action_another(self) -> None:
        self.seed = self.ctx.new_seed()
        self.preview()

    def action_practise(self) -> None:
        row = self.selected
        if isinstance(row, str):
            self.action_practise_topic()
        elif row is not None:
            self.app.open_screen("practice", items=[row.item])

    def action_practise_topic(self) -> None:
        row = self.selected
        if row is not None:
            topic = self.row_topic(row)
            self.app.open_screen("practice", items=[r.item for r in self.rows
                                                    if not isinstance(r, str) and r.topic == topic])
