"""Browse: every template by topic with its schedule; filter, sort, preview a sample, practise any on demand.

The filter line reads words (``/`` to type them: title, id or topic, in English or Chinese, matched
by :mod:`drill.core.find` as the palette matches them); ``v`` keeps only the highlighted template's topic,
``f`` a status (:data:`drill.core.browse_rows.STATUSES`), ``o`` sorts by due date or by last result (a sorted
list has no topic headings).  A leech (failed 6 times or more, :mod:`drill.core.leeches`) is marked; ``z``
suspends the highlighted template or takes it back, ``l`` resets a leech's lapses.  The keys are
drill/keybindings.py's.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Input, Static

from drill.core import browse_rows, find
from drill.core.i18n import template_title, topic_name, when
from drill.keybindings import bind, key_display
from drill.screens import VERDICT_COLOUR, DrillScreen
from drill.widgets.footer import KeyFooter
from engine.langs import other_lang
from question_bank import registry

SORTS = ("bank", "due", "last")
PREVIEW_MIN = 28  # columns the preview keeps beside the table in a wide terminal
CELL_PAD = 2  # a DataTable cell's padding (one column each side)


class BrowseScreen(DrillScreen):
    DEFAULT_CSS = """
    BrowseScreen {
        #browse-filter { margin: 0 1; }
        #browse-criteria { height: 1; padding: 0 1; color: $text-muted; }
        #browse-columns { height: 1fr; }
        #bank { height: 1fr; }
        #preview { height: 1fr; padding: 0 1; border-top: hkey $primary 40%; }
        &.-narrow #browse-columns { layout: vertical; }
        &.-narrow #preview { height: 40%; }
        &.-wide #browse-columns { layout: horizontal; }
        &.-wide #bank { width: 2fr; }
        &.-wide #preview { width: 1fr; min-width: 28; border-top: none; border-left: vkey $primary 40%; }
    }
    """
    BINDINGS = [
        *bind("key.practise_item", "practise"),
        *bind("key.practise_topic", "practise_topic"),
        *bind("key.new_sample", "another"),
        *bind("key.card", "card", keys="c", show=False),
        *bind("key.browse_filter", "filter", show=False),
        *bind("key.browse_topic", "only_topic", show=False),
        *bind("key.browse_status", "status", show=False),
        *bind("key.browse_sort", "sort", show=False),
        *bind("key.suspend", "suspend", show=False),
        *bind("key.leech_reset", "leech_reset", show=False),
        *bind("key.help", "app.help", keys="question_mark", show=False),
        *bind("key.back", "back"),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.seed = 1
        self.rows: list[browse_rows.BankRow | str] = []  # what the table shows: templates, and topic headings (str)
        self.topic: str | None = None  # "v": only this topic
        self.status: str | None = None  # "f": one of browse_rows.STATUSES
        self.sort = "bank"  # "o": one of SORTS
        self._marks: tuple[frozenset[str], frozenset[str], dict[str, int]] | None = None  # leeches, suspended, lapses
        self._pending = False

    def compose(self) -> ComposeResult:
        yield Input(id="browse-filter", compact=True)
        yield Static(id="browse-criteria")
        with Horizontal(id="browse-columns"):
            yield DataTable(id="bank", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="preview"):
                yield Static(id="sample")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#bank", DataTable).focus()

    def on_screen_resume(self) -> None:
        self._marks = None  # back from practice: lapses may have changed
        self.fill()

    @property
    def marks(self) -> tuple[frozenset[str], frozenset[str], dict[str, int]]:
        """The leeches, the suspended templates and each template's lapses: read from the log once, not at each
        key typed in the filter."""
        if self._marks is None:
            from drill.core import leeches

            profile = self.ctx.profile
            counts = leeches.lapse_counts(profile)
            self._marks = (frozenset(leeches.leech_ids(profile, counts)), leeches.suspended(profile), dict(counts))
        return self._marks

    def on_resize(self) -> None:
        self.fill()

    def apply_lang(self) -> None:
        self.fill()

    # ------------------------------------------------------------------ what is shown
    @property
    def filter_text(self) -> str:
        return self.query_one("#browse-filter", Input).value

    def shown_rows(self) -> list[browse_rows.BankRow]:
        """The templates that pass the filter, the topic and the status, in the chosen order."""
        lang, other = self.lang, other_lang(self.lang)
        today, query = self.ctx.today(), self.filter_text
        out = []
        for r in browse_rows.bank_rows(self.ctx, *self.marks[:2]):
            if self.topic is not None and r.topic != self.topic:
                continue
            if self.status is not None and self.status not in browse_rows.statuses(r, today):
                continue
            if query.strip():
                tpl = registry.get(r.item)
                if find.match(query, (template_title(tpl, lang), r.item, topic_name(r.topic, lang),
                                      template_title(tpl, other), topic_name(r.topic, other), r.topic)) is None:
                    continue
            out.append(r)
        if self.sort == "due":  # soonest first; never scheduled last (in bank order: sorted() is stable)
            out.sort(key=lambda r: (r.due is None, r.due or today))
        elif self.sort == "last":  # the worst last result first; never answered last
            out.sort(key=lambda r: browse_rows.LAST_ORDER.get(r.last, len(browse_rows.LAST_ORDER)))
        return out

    def fill(self) -> None:
        table = self.query_one("#bank", DataTable)
        was = self.selected
        was_key = was if isinstance(was, str) else was.item if was is not None else None
        lang, today = self.lang, self.ctx.today()
        shown = self.shown_rows()
        cells: list[tuple[str, Text, Text, Text, Text]] = []  # (key, title, state, due, last) per row (the EF is in the preview)
        self.rows = []
        headings = self.sort == "bank"
        for r in shown:
            if headings and (not self.rows or self.row_topic(self.rows[-1]) != r.topic):
                self.rows.append(r.topic)  # a topic heading: practise the whole topic from here
                total = sum(1 for t in registry.all_templates() if t.topic == r.topic)
                count = sum(1 for x in shown if x.topic == r.topic)
                cells.append((f"topic:{r.topic}", Text(f"{topic_name(r.topic, lang)} "
                                                       f"({count if count == total else f'{count}/{total}'})",
                                                       "bold underline"), Text(), Text(), Text()))
            self.rows.append(r)
            tpl = registry.get(r.item)
            due_text = when(r.due, today, lang) if r.due and (r.due - today).days <= 1 else \
                (r.due.isoformat() if r.due else "")
            cells.append((r.item, Text(("  " if headings else "") + template_title(tpl, lang)),
                          Text(self.tr(f"browse.{r.state}") + (" · " + self.tr("browse.status.leech") if r.leech else "")
                               + (" · " + self.tr("browse.status.suspended") if r.suspended else ""),
                               "bold red" if r.leech else "dim" if r.suspended else "cyan" if r.state == "new" else ""),
                          Text(due_text, "bold red" if r.due and r.due <= today else ""),
                          Text(self.tr(f"verdict.{r.last}") if r.last else "", VERDICT_COLOUR.get(r.last or "", ""))))
        heads = [self.tr(k) for k in ("browse.template", "browse.state", "browse.due", "browse.last")]
        # every column but the title as wide as its widest cell; the title takes the rest, and in a wide
        # terminal the table takes what its titles need, leaving the preview at least PREVIEW_MIN columns
        widths = [max([cell_len(h)] + [c[1:][i].cell_len for c in cells]) for i, h in enumerate(heads)]
        others = sum(widths[1:]) + CELL_PAD * len(widths[1:])
        width = self.app.size.width
        wide = self.has_class("-wide")
        need = widths[0] + CELL_PAD + others + 2  # + the scrollbar
        room = width - PREVIEW_MIN - 1 if wide else width
        bank = self.query_one("#bank", DataTable)
        if wide:
            bank.styles.width = max(min(need, room), 50)
        else:
            bank.styles.width = "1fr"
        # narrow: the table is the screen's width less 2, and its scrollbar takes 2 more
        title_width = max(16, min(widths[0], (min(need, room) - 2 if wide else width - 4) - others - CELL_PAD))
        for c in cells:
            c[1].truncate(title_width, overflow="ellipsis")
        table.clear(columns=True)
        table.add_column(heads[0], key="browse.template", width=title_width)
        for key, head in zip(("browse.state", "browse.due", "browse.last"), heads[1:]):
            table.add_column(head, key=key)
        for key, *row in cells:
            table.add_row(*row, key=key)
        at = next((i for i, r in enumerate(self.rows)
                   if (r if isinstance(r, str) else r.item) == was_key), None)
        if at is None:  # the first template (not its heading)
            at = next((i for i, r in enumerate(self.rows) if not isinstance(r, str)), 0)
        if self.rows:
            table.move_cursor(row=at)
        self.draw_criteria(len(shown))
        self.preview()

    def draw_criteria(self, n: int) -> None:
        """One line: how many templates are shown, and the keys that change which and in what order."""
        lang = self.lang
        topic = topic_name(self.topic, lang) if self.topic else self.tr("browse.all")
        status = self.tr(f"browse.status.{self.status}") if self.status else self.tr("browse.all")
        line = Text(self.tr("browse.count", n=n, total=len(registry.all_templates())), "bold")
        for key, what in (("key.browse_filter", self.tr("browse.filter_key")),
                          ("key.browse_topic", self.tr("browse.topic_key", topic=topic)),
                          ("key.browse_status", self.tr("browse.status_key", status=status)),
                          ("key.browse_sort", self.tr("browse.sort_key", sort=self.tr(f"browse.sort.{self.sort}")))):
            line.append("  ")
            line.append(key_display(key), "bold")
            line.append(" " + what)
        self.query_one("#browse-criteria", Static).update(line)
        self.query_one("#browse-filter", Input).placeholder = self.tr("browse.filter_placeholder")

    @staticmethod
    def row_topic(row) -> str:
        return row if isinstance(row, str) else row.topic

    @property
    def selected(self) -> browse_rows.BankRow | str | None:
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
        sample = self.query_one("#sample", Static)
        if row is None:
            sample.update(Text(self.tr("browse.none"), "dim"))
            return
        lang = self.lang
        if isinstance(row, str):
            text = Text(topic_name(row, lang) + "\n\n", "bold")
            for r in self.rows:
                if not isinstance(r, str) and r.topic == row:
                    tpl = registry.get(r.item)
                    text.append(f"• {template_title(tpl, lang)}", "")
                    text.append(f"  {r.item}\n", "dim")
            sample.update(text)
            return
        tpl = registry.get(row.item)
        p = tpl.generate(self.seed)
        text = Text(template_title(tpl, lang), "bold")
        text.append(f"\n{row.item} · {topic_name(row.topic, lang)} · d{tpl.difficulty}\n", "dim")
        text.append(self.schedule_line(row) + "\n", "cyan")
        if row.leech:
            text.append(self.tr("browse.leech", n=self.marks[2].get(row.item, 0)) + "\n", "bold red")
        if row.suspended:
            text.append(self.tr("browse.suspended") + "\n", "dim")
        text.append(self.tr("browse.preview", seed=self.seed) + "\n\n", "dim italic")
        text.append(p.prompt(lang) + "\n\n")
        answers = " · ".join(s.expected.display_in(lang) for s in p.steps)
        text.append(self.tr("browse.answer", answer=answers), "green")
        sample.update(text)

    def schedule_line(self, row: browse_rows.BankRow) -> str:
        """The template's schedule in words: new; or its state, due date, EF, interval and last result."""
        if row.state == "new":
            return self.tr("browse.schedule_new")
        parts = [self.tr(f"browse.{row.state}"), self.tr("browse.schedule_due", when=when(row.due, self.ctx.today(),
                                                                                           self.lang))]
        if row.ef is not None:
            parts.append(f"EF {row.ef:.2f}")
        if row.interval:
            parts.append(self.tr("browse.schedule_interval", n=row.interval))
        if row.last:
            parts.append(self.tr("browse.schedule_last", verdict=self.tr(f"verdict.{row.last}"),
                                 date=row.last_date or ""))
        return " · ".join(parts)

    # ------------------------------------------------------------------ the filter line
    @on(Input.Changed, "#browse-filter")
    def _typed(self) -> None:
        if not self._pending:  # once per frame, however many keys arrived in it
            self._pending = True
            self.call_after_refresh(self._refilter)

    def _refilter(self) -> None:
        self._pending = False
        self.fill()

    @on(Input.Submitted, "#browse-filter")
    def _filter_done(self) -> None:
        self.query_one("#bank", DataTable).focus()

    def on_key(self, event) -> None:
        """In the filter box, the arrow keys move in the table (and leave the box); Escape empties the box,
        or leaves it when it is empty."""
        if self.focused is not self.query_one("#browse-filter", Input):
            return
        if event.key in ("down", "up", "pagedown", "pageup", "escape"):
            event.stop()
            event.prevent_default()
            box, table = self.query_one("#browse-filter", Input), self.query_one("#bank", DataTable)
            if event.key == "escape" and box.value:
                box.value = ""
                return
            table.focus()  # the key only takes the learner back to the table, its cursor where it was

    # ------------------------------------------------------------------ actions
    def action_filter(self) -> None:
        self.query_one("#browse-filter", Input).focus()

    def action_only_topic(self) -> None:
        row = self.selected
        self.topic = None if self.topic is not None or row is None else self.row_topic(row)
        self.fill()

    def action_status(self) -> None:
        order = (None, *browse_rows.STATUSES)
        self.status = order[(order.index(self.status) + 1) % len(order)]
        self.fill()

    def action_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.fill()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_suspend(self) -> None:
        """Suspend the highlighted template (no longer scheduled), or take it back."""
        from drill.core import leeches
        from engine.storage import SaveFailed

        row = self.selected
        if row is None or isinstance(row, str):
            return
        title = template_title(registry.get(row.item), self.lang)
        try:
            on = leeches.toggle_suspended(self.ctx.profile, row.item)
        except SaveFailed as e:
            self.notify(self.tr("save.mark_not_kept", why=e.text(self.lang)), severity="error", timeout=8,
                        markup=False)
            return
        self._marks = None
        self.notify(self.tr("browse.suspended_now" if on else "browse.resumed", title=title), timeout=3, markup=False)
        self.fill()

    def action_leech_reset(self) -> None:
        """Count the highlighted leech's lapses afresh from now."""
        from drill.core import leeches
        from engine.storage import SaveFailed

        row = self.selected
        if row is None or isinstance(row, str):
            return
        title = template_title(registry.get(row.item), self.lang)
        if not row.leech:
            self.notify(self.tr("browse.not_leech", title=title), severity="warning", timeout=3, markup=False)
            return
        try:
            leeches.reset(self.ctx.profile, row.item)
        except SaveFailed as e:
            self.notify(self.tr("save.mark_not_kept", why=e.text(self.lang)), severity="error", timeout=8,
                        markup=False)
            return
        self._marks = None
        self.notify(self.tr("browse.reset_done", title=title), timeout=3, markup=False)
        self.fill()

    def action_another(self) -> None:
        self.seed = self.ctx.new_seed()
        self.preview()

    def action_card(self) -> None:
        row = self.selected
        if row is not None and not isinstance(row, str):
            from drill.screens.card import CardScreen

            self.app.push_screen(CardScreen(row.item))

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
