"""The stats screen: what you know, what is slipping, what is coming due.

Three tabs: Overview (figures, a 26-week heatmap, the 30-day forecast as a bar
chart), Topics (a sortable table; highlight a topic to list its templates,
highlight a template for its review history and accuracy trend) and Mock
interviews (scores over time; Enter opens a mock's report).  Every figure
comes from ``engine.stats.compute`` through ``drill.core.stats.figures``;
this module only lays them out.  textual-plotext is imported here, so only
when the screen opens.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import cast

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Static, TabbedContent, TabPane
from textual.worker import Worker, WorkerState, get_current_worker
from textual_plotext import PlotextPlot

from drill.core.i18n import topic_name
from drill.core.paths import saves_note
from drill.core.stats import (
    SHADES,
    SORT_COLUMNS,
    SORT_LABEL_KEYS,
    STRINGS,
    days,
    duration,
    figures,
    fitted_readiness,
    num,
    overview_lines,
    pct,
    shade,
    topic_headers,
    topic_row,
    tr,
)
from drill.keybindings import bind
from drill.screens import DrillScreen
from drill.widgets.footer import KeyFooter
from engine.langs import EN, pick
from engine.records import replace
from engine.schedule.readiness import Stopped
from engine.stats import TREND_WINDOW, Stats, sort_topics

NARROW_TITLE = 32
HEAT_COLOURS = ("grey35", "#0e6b38", "#1f9d4c", "#3fc25f", "#7ee787")


class Heatmap(Widget):
    """Reviews per day as shaded cells: a column per week (Monday on top), a row per weekday."""

    DEFAULT_CSS = """
    Heatmap { height: 10; width: 100%; }
    """

    def __init__(self, stats: Stats, lang: str = EN, **kwargs) -> None:
        super().__init__(**kwargs)
        self.stats, self.lang = stats, lang

    def render(self) -> Text:
        s = self.stats
        counts, start = s.heatmap, s.heatmap_start
        weeks = (len(counts) + 6) // 7
        peak = max(counts, default=0)
        names = pick(self.lang, "MTWTFSS", "一二三四五六日")
        label_w = 3
        months = [" "] * (label_w + 2 * weeks + 4)
        for w in range(weeks):
            week = [start + timedelta(weeks=w, days=d) for d in range(7)]
            first = week[0] if w == 0 else next((d for d in week if d.day == 1), None)
            if first is None:
                continue
            label = pick(self.lang, first.strftime("%b"), f"{first.month}月")
            col = label_w + 2 * w
            if all(c == " " for c in months[max(0, col - 1):col + cell_len(label)]):
                months[col:col + cell_len(label)] = [label] + [""] * (cell_len(label) - 1)
        text = Text("".join(months).rstrip() + "\n")
        for wd in range(7):
            text.append(names[wd] + " " * (label_w - cell_len(names[wd])), style="dim")
            for w in range(weeks):
                i = 7 * w + wd
                if i >= len(counts):
                    text.append("  ")
                    continue
                level = shade(counts[i], peak)
                cell = "· " if level == 0 else SHADES[level] * 2
                text.append(cell, style=HEAT_COLOURS[level])
            text.append("\n")
        text.append(f"{tr('heatmap_less', self.lang)}  ", style="dim")
        for level in range(5):
            text.append("· " if level == 0 else SHADES[level] * 2, style=HEAT_COLOURS[level])
        text.append(f"  {tr('heatmap_more', self.lang)}", style="dim")
        text.append(pick(self.lang, f"   max {peak}/d", f"   最多 {peak}/天"), style="dim")
        return text


def _cell(value: str, right: bool = False) -> Text:
    """A table cell as plain text: titles and ids never go through markup."""
    return Text(value, justify="right" if right else "left", overflow="ellipsis")


class StatsScreen(DrillScreen):
    """Progress figures of the open profile (``self.app.ctx``)."""

    WORDS = STRINGS  # the stats' own words (drill.core.stats), key names included

    DEFAULT_CSS = """
    StatsScreen #stats-title { padding: 0 1; text-style: bold; }
    StatsScreen TabbedContent, StatsScreen ContentSwitcher, StatsScreen TabPane { height: 1fr; }
    StatsScreen TabPane { padding: 0; }
    StatsScreen #stats-empty, StatsScreen #stats-loading, StatsScreen #stats-error { padding: 1 2; }
    StatsScreen #stats-error { color: $error; }
    StatsScreen .stats-note { color: $text-muted; padding: 0 1; }
    StatsScreen .stats-heading { padding: 1 1 0 1; text-style: bold; }
    StatsScreen #overview-figures { padding: 0 1; height: auto; }
    StatsScreen Heatmap { padding: 0 1; }
    StatsScreen PlotextPlot { height: 14; }
    StatsScreen #topics { height: auto; max-height: 10; }
    StatsScreen #templates { height: auto; max-height: 14; }
    StatsScreen #history { height: auto; max-height: 12; }
    StatsScreen #trend { height: 12; }
    StatsScreen #mocks { height: auto; max-height: 16; }
    """

    BINDINGS = [
        *bind("key.back", "app.pop_screen"),
        *bind("key.tab_prev", "turn_tab(-1)"),
        *bind("key.tab_next", "turn_tab(1)"),
        *bind("key.sort", "sort_next"),
        *bind("key.reverse", "sort_reverse"),
    ]
    TABS = ("tab-overview", "tab-topics", "tab-mocks")

    def __init__(self, *, tab: str | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self._tab = tab
        self.stats: Stats | None = None
        self.error: str | None = None
        self.sort, self.reverse = "topic", False
        self._topic: str | None = None
        self._item: str | None = None
        self._readiness_worker: Worker | None = None  # fitting the readiness of the figures on show
        self._fitted: tuple | None = None  # (reviews counted, today, (Readiness, Calibration)): fitted once
        self.readiness_error: str | None = None

    # -- figures ----------------------------------------------------------- #

    def _start_loading(self) -> None:
        """Compute the figures in a thread: a long history must not freeze the app.  The readiness is
        fitted afterwards, in a worker of its own (:meth:`_start_readiness`): the figures show meanwhile."""
        ctx = self.app.ctx
        self.error = None
        self.workers.cancel_group(self, "readiness")
        self._readiness_worker = None
        self.run_worker(partial(figures, ctx.profile, ctx.today(), ctx.lang, readiness=False), name="stats-figures",
                        group="stats", thread=True, exclusive=True, exit_on_error=False)

    def _start_readiness(self) -> None:
        """Fit the readiness and its calibration on the whole log, off the UI thread (seconds on a long
        history).  Leaving the screen cancels the worker, and the fit stops at its next step."""
        ctx = self.app.ctx
        self.readiness_error = None

        def fit():
            worker = get_current_worker()
            return fitted_readiness(ctx.profile, None, ctx.today(), stop=lambda: worker.is_cancelled)

        self._readiness_worker = self.run_worker(fit, name="stats-readiness", group="readiness", thread=True,
                                                 exclusive=True, exit_on_error=False)

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "readiness":
            if event.worker is not self._readiness_worker or self.stats is None:
                return  # for figures no longer on show (the language was switched meanwhile)
            if event.state == WorkerState.SUCCESS:
                self.stats = replace(self.stats, readiness=event.worker.result)
                self._fitted = (self.stats.reviews, self.stats.today, event.worker.result)
            elif event.state == WorkerState.ERROR and not isinstance(event.worker.error, Stopped):
                error = event.worker.error
                said = getattr(error, "text", None)
                self.readiness_error = said(self.lang) if callable(said) else str(error)
            else:
                return
            for figures_text in self.query("#overview-figures").results(Static):
                figures_text.update(self._overview_text(self.stats))
            return
        if event.worker.group != "stats":
            return
        if event.state == WorkerState.SUCCESS:
            s = event.worker.result
            assert s is not None, "figures() returns its Stats"
            self.stats = s
            kept = self._fitted
            if kept is not None and kept[:2] == (s.reviews, s.today):  # the same history (a language switch)
                self.stats = replace(s, readiness=kept[2])
            await self.recompose()
            if not s.empty and self.stats.readiness is None:
                self._start_readiness()
        elif event.state == WorkerState.ERROR:  # a damaged save file: say which, change nothing
            error = event.worker.error
            said = getattr(error, "text", None)
            self.error = said(self.lang) if callable(said) else str(error)
            await self.recompose()

    def apply_lang(self) -> None:
        """Titles come from the bank in the new language: compute again and lay out again."""
        tabs = self.query(TabbedContent)
        if tabs:
            self._tab = tabs.first().active or self._tab
        self.stats = None
        self.refresh(recompose=True)
        self._start_loading()

    # -- layout ------------------------------------------------------------ #

    def compose(self) -> ComposeResult:
        s, lang = self.stats, self.lang
        yield Static(Text(tr("title", lang, date=self.app.ctx.today().isoformat())), id="stats-title")
        if s is None:
            if self.error:
                yield Static(Text(tr("read_error", lang, error=self.error)), id="stats-error")
            else:
                yield Static(Text(tr("loading", lang)), id="stats-loading")
            yield KeyFooter()
            return
        if s.empty:
            yield Static(Text(tr("empty", lang)), id="stats-empty")
            yield self._saves_line()
            yield KeyFooter()
            return
        with TabbedContent(initial=self._tab or "tab-overview"):
            with TabPane(tr("tab.overview", lang), id="tab-overview"), VerticalScroll():
                yield Static(self._overview_text(s), id="overview-figures")
                yield Static(Text(tr("heatmap", lang)), classes="stats-heading")
                yield Heatmap(s, lang)
                yield PlotextPlot(id="forecast")
                yield self._saves_line()
            with TabPane(tr("tab.topics", lang), id="tab-topics"):
                yield Static(id="sort-note", classes="stats-note")  # above the scroll: always in view
                with VerticalScroll():
                    yield DataTable(id="topics", cursor_type="row", zebra_stripes=True)
                    yield Static(id="templates-title", classes="stats-heading")
                    yield DataTable(id="templates", cursor_type="row", zebra_stripes=True)
                    yield Static(id="history-title", classes="stats-heading")
                    yield DataTable(id="history", cursor_type="row")
                    yield PlotextPlot(id="trend")
            with TabPane(tr("tab.mocks", lang), id="tab-mocks"), Vertical():
                if s.mocks:
                    yield PlotextPlot(id="mock-plot")
                    yield Static(Text(tr("mock_open", lang)), classes="stats-note")
                    yield DataTable(id="mocks", cursor_type="row", zebra_stripes=True)
                else:
                    yield Static(Text(tr("mocks_none", lang)), id="mocks-none", classes="stats-heading")
        yield KeyFooter()

    def _saves_line(self) -> Static:
        """Where this progress is saved (the folder of the open profile), as ``drill stats`` ends with it."""
        path = getattr(self.ctx.profile, "path", None)
        return Static(Text(saves_note(None, self.lang, folder=path.parent if path is not None else None), "dim"),
                      id="stats-saves", classes="stats-note")

    def on_mount(self) -> None:
        self._start_loading()

    async def recompose(self) -> None:
        await super().recompose()
        self._fill()

    @property
    def shown_stats(self) -> Stats:
        """The figures on show: the tabs, tables and plots that read them are laid out only once they are in."""
        assert self.stats is not None, "laid out only once the figures are computed"
        return self.stats

    def _fill(self) -> None:
        s = self.stats
        if s is None or s.empty:
            return
        self._draw_forecast()
        self._fill_topics()
        if s.mocks:
            self._fill_mocks()

    def _overview_text(self, s: Stats) -> Text:
        lang = self.lang
        from drill.core.leeches import leech_ids_of_counts

        pairs = overview_lines(s, lang, leech_ids_of_counts(self.app.ctx.profile, s.lapses))  # the leeches marked
        width = max(cell_len(label) for label, _ in pairs) + 2
        text = Text()
        for label, value in pairs:
            text.append(label + " " * (width - cell_len(label)), style="bold")
            text.append(value + "\n")
        text.append(tr("streak_note", lang), style="dim italic")
        if s.readiness is not None:  # fitted on the learner's answers: per topic, or "not enough answers yet"
            from drill.core import readiness_view
            from drill.core.i18n import t

            lines = readiness_view.readiness_lines(*s.readiness, lambda key, **fmt: t(key, lang, **fmt), lang)
            text.append("\n\n" + lines[0] + "\n", style="bold")
            text.append("\n".join(lines[1:]))
        elif self.readiness_error is not None:
            text.append("\n\n" + tr("ready_error", lang, error=self.readiness_error), style="bold")
        else:  # being fitted (_start_readiness): filled in when it is done
            text.append("\n\n" + tr("ready_computing", lang), style="bold")
        return text

    # -- overview ------------------------------------------------------------ #

    def _draw_forecast(self) -> None:
        s, lang = self.shown_stats, self.lang
        plt = self.query_one("#forecast", PlotextPlot).plt
        plt.clear_figure()
        days: list[float] = list(range(len(s.forecast)))
        plt.bar(days, list(s.forecast), marker="sd", width=0.6)
        ticks = days[::7]
        plt.xticks(ticks, [(s.today + timedelta(days=d)).strftime("%m-%d") for d in ticks])
        plt.title(tr("forecast", lang))
        top = max(s.forecast)
        plt.ylim(0, max(top, 1) * 1.15)
        plt.yticks(_int_ticks(top))

    # -- topics -------------------------------------------------------------- #

    def _fill_topics(self) -> None:
        s, lang = self.shown_stats, self.lang
        table = self.query_one("#topics", DataTable)
        keep = self._topic
        table.clear(columns=True)
        for i, h in enumerate(topic_headers(lang)):
            table.add_column(_cell(h + (" ▼" if self.reverse else " ▲") * (SORT_COLUMNS[i:i + 1] == (self.sort,))),
                             key=f"col-{i}")
        for t in sort_topics(s.topics, self.sort, self.reverse):
            cells = topic_row(t, lang)
            table.add_row(*[_cell(c, right=0 < i < 6) for i, c in enumerate(cells)], key=t.topic)
        label = tr(SORT_LABEL_KEYS[self.sort], lang)
        self.query_one("#sort-note", Static).update(
            Text(tr("sorted_by", lang, col=label, dir=tr("descending", lang) if self.reverse else "")))
        topics = [t.topic for t in s.topics]
        if keep is not None and keep in topics:
            table.move_cursor(row=table.get_row_index(keep))
        self._show_topic(keep if keep in topics else (s.topics[0].topic if s.topics else None))

    def _show_topic(self, topic: str | None) -> None:
        s, lang = self.stats, self.lang
        if topic is None:
            return
        assert s is not None, "a topic or template is picked only in tables laid out from the figures"
        self._topic = topic
        self.query_one("#templates-title", Static).update(Text(tr("templates_of", lang, topic=topic_name(topic, lang))))
        table = self.query_one("#templates", DataTable)
        table.clear(columns=True)
        items = [i for i in s.items.values() if i.topic == topic]
        # on a narrow terminal long titles are cut so that the figures stay in view
        narrow = self.app.size.width < 110 and any(cell_len(i.title) > NARROW_TITLE for i in items)
        for key in ("template", "topic_reviews", "acc30", "recent", "mean_ef", "interval", "due_on"):
            table.add_column(_cell(tr(key, lang) if key != "mean_ef" else "EF"), key=key,
                             width=NARROW_TITLE if key == "template" and narrow else None)
        for i in items:
            table.add_row(
                _cell(i.title),
                _cell(f"{i.reviews:,}", True),
                _cell(pct(i.accuracy_30d, lang), True),
                _cell(pct(i.recent_accuracy, lang), True),
                _cell(num(i.ef, lang=lang), True),
                _cell(days(i.interval, lang) if i.ef is not None else tr("none", lang), True),
                _cell(i.due.isoformat() if i.due else tr("none", lang), True),
                key=i.id,
            )
        self._show_item(items[0].id if items else None)

    def _show_item(self, item: str | None) -> None:
        s, lang = self.stats, self.lang
        self._item = item
        title = self.query_one("#history-title", Static)
        table = self.query_one("#history", DataTable)
        plot = self.query_one("#trend", PlotextPlot)
        table.clear(columns=True)
        plt = plot.plt
        plt.clear_figure()
        if item is None:
            title.update(Text(tr("pick_template", lang)))
            plot.display = False
            return
        assert s is not None, "a topic or template is picked only in tables laid out from the figures"
        info = s.items[item]
        title.update(Text(tr("history_of", lang, title=f"{info.title} ({info.id})")))
        history = s.history(item)
        if not history:
            table.add_column(_cell(tr("no_history", lang)))
            plot.display = False
            return
        for key in ("date", "verdict", "seconds", "interval", "mode"):
            table.add_column(_cell(tr(key, lang)), key=key)
        for h in reversed(history):  # newest first
            step = f" · {h['step']}" if h.get("step") else ""
            table.add_row(
                _cell(str(h["date"])),
                _cell(tr(f"verdict.{h['verdict']}", lang) if f"verdict.{h['verdict']}" in STRINGS
                      else str(h["verdict"])),
                _cell(duration(h["seconds"], lang, compact=True), True),
                _cell(days(h["interval"], lang) if h["interval"] is not None else tr("none", lang), True),
                _cell((tr(f"mode.{h['mode']}", lang) if f"mode.{h['mode']}" in STRINGS else str(h["mode"])) + step),
            )
        trend = s.trend(item)
        plot.display = True
        xs = list(range(1, len(trend) + 1))
        plt.plot(xs, [100 * v for v in trend], marker="braille")
        plt.scatter(xs, [100 * v for v in trend], marker="dot")
        plt.ylim(0, 105)
        plt.yticks([0, 25, 50, 75, 100])
        stride = max(1, len(xs) // 6)
        ticks = xs[::stride]
        # whole review numbers, which also index the history: plotext's stub asks list[float], ints plot the same
        plt.xticks(cast("list[float]", ticks), [str(history[x - 1]["date"])[5:] for x in ticks])
        plt.title(tr("trend", lang, n=TREND_WINDOW))
        plot.refresh()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        key = event.row_key.value if event.row_key is not None else None
        if event.data_table.id == "topics" and key != self._topic:
            self._show_topic(key)
        elif event.data_table.id == "templates" and key != self._item:
            self._show_item(key)

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        if event.data_table.id != "topics" or event.column_index >= len(SORT_COLUMNS):
            return
        col = SORT_COLUMNS[event.column_index]
        self.reverse = not self.reverse if col == self.sort else False
        self.sort = col
        self._fill_topics()

    def action_turn_tab(self, step: int) -> None:
        """``[`` and ``]``: the previous or next tab, round the ends."""
        tabs = self.query(TabbedContent)
        if tabs:
            active = tabs.first().active
            i = self.TABS.index(active) if active in self.TABS else 0
            self.action_show_tab(self.TABS[(i + step) % len(self.TABS)])

    def action_show_tab(self, tab: str) -> None:
        tabs = self.query(TabbedContent)
        if tabs:
            # a table still focused in the pane being left would take its pane back (TabbedContent
            # activates the pane of a focused descendant): let go of the focus first
            self.set_focus(None)
            tabs.first().active = tab

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        """Arrow keys work in the tab just shown: focus its main table."""
        table = {"tab-topics": "#topics", "tab-mocks": "#mocks"}.get(event.pane.id or "")
        found = self.query(table) if table else event.pane.query("VerticalScroll")  # the overview scrolls
        if found:
            found.first().focus()

    def action_sort_next(self) -> None:
        if self.stats is None or self.stats.empty:
            return
        self.sort = SORT_COLUMNS[(SORT_COLUMNS.index(self.sort) + 1) % len(SORT_COLUMNS)]
        self._fill_topics()

    def action_sort_reverse(self) -> None:
        if self.stats is None or self.stats.empty:
            return
        self.reverse = not self.reverse
        self._fill_topics()

    # -- mocks --------------------------------------------------------------- #

    def _fill_mocks(self) -> None:
        s, lang = self.shown_stats, self.lang
        plt = self.query_one("#mock-plot", PlotextPlot).plt
        plt.clear_figure()
        scored = [(i + 1, m) for i, m in enumerate(s.mocks) if m.percent is not None]
        if scored:
            xs: list[float] = [i for i, _ in scored]
            ys = [m.percent for _, m in scored]
            plt.plot(xs, ys, marker="braille")
            plt.scatter(xs, ys, marker="dot")
            step = max(1, len(xs) // 6)
            plt.xticks(xs[::step], [m.date[5:] for _, m in scored][::step])
        plt.ylim(0, 105)
        plt.yticks([0, 25, 50, 75, 100])
        plt.title(tr("mock_scores", lang))
        table = self.query_one("#mocks", DataTable)
        table.clear(columns=True)
        for key in ("date", "mock_score", "mock_questions", "mock_counts", "mock_time"):
            table.add_column(_cell(tr(key, lang)), key=key)
        for m in reversed(s.mocks):  # newest first
            table.add_row(
                _cell(m.date),
                _cell(num(m.percent, "{:.0f} %", lang), True),
                _cell(str(m.questions), True),
                _cell(f"{m.correct} / {m.close} / {m.wrong} / {m.unanswered}", True),
                _cell(duration(m.seconds_used, lang), True),
                key=str(m.id),
            )

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id != "mocks" or event.row_key is None:
            return
        mock_id = event.row_key.value
        record = next((m for m in self.app.ctx.profile.mocks() if str(m.get("id")) == mock_id), None)
        if record is not None:
            self.app.open_screen("mock_report", record=record)


def _int_ticks(top: int) -> list[float]:
    """A few whole-number ticks from 0 to ``top``."""
    if top <= 0:
        return [0, 1]
    step = max(1, -(-top // 4))
    return list(range(0, top + step, step))
