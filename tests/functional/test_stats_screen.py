"""The stats screen driven through the Textual pilot, inside the real app (DrillApp)."""

from __future__ import annotations

import asyncio
import functools
import threading
from datetime import UTC, datetime, timedelta

import pytest
from textual.app import App
from textual.widgets import DataTable, Static, TabbedContent
from textual_plotext import PlotextPlot

from benchmarks.bench_stats import synthetic_history
from drill.app import DrillApp
from drill.core import home_figures, readiness_view
from drill.core.context import AppContext
from drill.core.stats import figures
from drill.screens.home import HomeScreen
from drill.screens.stats import Heatmap, StatsScreen
from engine.schedule import readiness
from engine.session import review_row
from engine.stats import sort_topics
from engine.storage import EXPORT_FORMAT, SCHEMA_VERSION, Profile
from question_bank import registry
from question_bank.topics import TOPICS

pytestmark = pytest.mark.functional
SIZE = (110, 40)
NOW = datetime(2026, 11, 29, 15, 0, 0, tzinfo=UTC)


def sync(test):
    @functools.wraps(test)
    def run(*args, **kwargs):
        asyncio.run(test(*args, **kwargs))
    return run


@pytest.fixture
def profile(tmp_path):
    p = Profile.open(tmp_path)
    yield p
    p.close()


class StatsOnly(App):
    """The stats screen alone, on the context DrillApp would give it."""

    def __init__(self, ctx: AppContext) -> None:
        super().__init__()
        self.ctx = ctx

    def on_mount(self) -> None:
        self.push_screen(StatsScreen())


def ctx_for(profile, lang="en") -> AppContext:
    return AppContext(profile, lang=lang, clock=lambda: NOW)


def fill(profile, n_rows: int) -> None:
    """A realistic history on the real bank: scheduled practice, extra, re-drills, mock steps, chains, mocks."""
    bank = [(t.id, t.topic, t.title) for t in registry.all_templates()]
    _, rows, states, mocks = synthetic_history(n_rows, ctx_for(profile).today(), templates=bank)
    profile.import_document({"format": EXPORT_FORMAT, "schema": SCHEMA_VERSION, "settings": {},
                             "states": {k: v.to_dict() for k, v in states.items()}, "reviews": rows,
                             "mocks": mocks})


async def settle(app, pilot) -> None:
    """Let the figures' worker finish and the screen lay itself out."""
    for _ in range(3):
        await pilot.pause()
        await app.workers.wait_for_complete()
    await pilot.pause()


def text_of(widget: Static) -> str:
    return str(widget.render())


def column(table: DataTable, index: int) -> list[str]:
    return [str(table.get_row_at(r)[index]) for r in range(table.row_count)]


@sync
async def test_empty_profile_shows_a_friendly_first_run_message(profile):
    app = DrillApp(ctx_for(profile), start="stats")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        assert screen.stats is not None and screen.stats.empty
        assert "No reviews yet" in text_of(screen.query_one("#stats-empty", Static))
        assert not screen.query(TabbedContent)  # no charts of nothing
        await pilot.press("o", "r", "right_square_bracket")  # keys that need figures do nothing, and nothing breaks


@sync
async def test_home_s_opens_stats_and_escape_goes_back(profile):
    app = DrillApp(ctx_for(profile))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await settle(app, pilot)
        assert isinstance(app.screen, StatsScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, StatsScreen)


@sync
async def test_large_profile_overview_heatmap_and_forecast(profile):
    fill(profile, 10_000)
    app = DrillApp(ctx_for(profile), start="stats")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        s = screen.stats
        assert s.reviews > 1000 and s.days_studied > 20
        overview = text_of(screen.query_one("#overview-figures", Static))
        assert f"{s.reviews:,} ({s.reviews_today} today)" in overview
        assert f"{s.streak} d (longest {s.longest_streak} d)" in overview
        assert "a day counts when at least one review was done that day" in overview
        heat = str(screen.query_one(Heatmap).render())
        assert heat.count("\n") >= 8 and "█" in heat
        forecast = screen.query_one("#forecast", PlotextPlot)
        assert forecast.size.height > 5
        chart = str(forecast.render())
        assert "Due per day" in chart and "█" in chart  # a real bar chart, drawn


@sync
async def test_topics_sort_and_template_history(profile):
    fill(profile, 1200)
    app = DrillApp(ctx_for(profile), start="stats")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        s = screen.stats
        await pilot.press("right_square_bracket")  # ] the next tab: Topics
        await pilot.pause()
        assert screen.query_one(TabbedContent).active == "tab-topics"
        topics = screen.query_one("#topics", DataTable)
        assert topics.row_count == len(TOPICS)
        assert column(topics, 0)[0] == "Roofline"

        await pilot.press("o", "o")  # topic -> learned -> accuracy
        await pilot.pause()
        assert screen.sort == "accuracy"
        expected = [t.topic for t in sort_topics(s.topics, "accuracy")]
        assert [str(k.value) for k in topics.rows] == expected
        assert "▲" in str(topics.columns[topics.ordered_columns[2].key].label)
        await pilot.press("r")
        await pilot.pause()
        assert [str(k.value) for k in topics.rows] == [t.topic for t in sort_topics(s.topics, "accuracy", True)]

        # highlight the memory topic: its templates and the first one's history
        topics.move_cursor(row=[str(k.value) for k in topics.rows].index("memory"))
        await pilot.pause()
        templates = screen.query_one("#templates", DataTable)
        memory_ids = [i.id for i in s.items.values() if i.topic == "memory"]
        assert [str(k.value) for k in templates.rows] == memory_ids
        assert "Training memory" in text_of(screen.query_one("#templates-title", Static))
        templates.move_cursor(row=1)
        await pilot.pause()
        item = memory_ids[1]
        history = screen.query_one("#history", DataTable)
        assert history.row_count == len(s.history(item)) > 0
        assert column(history, 0)[0] == s.history(item)[-1]["date"]  # newest first
        trend = screen.query_one("#trend", PlotextPlot)
        assert trend.display and "Accuracy trend" in str(trend.render())


@sync
async def test_clicking_a_header_sorts_and_clicking_again_reverses(profile):
    fill(profile, 600)
    app = DrillApp(ctx_for(profile), start="stats")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        await pilot.press("right_square_bracket")  # ] the next tab: Topics
        await pilot.pause()
        topics = screen.query_one("#topics", DataTable)
        key = topics.ordered_columns[3].key  # mean EF
        topics.post_message(DataTable.HeaderSelected(topics, key, 3, topics.columns[key].label))
        await pilot.pause()
        assert (screen.sort, screen.reverse) == ("ef", False)
        key = topics.ordered_columns[3].key
        topics.post_message(DataTable.HeaderSelected(topics, key, 3, topics.columns[key].label))
        await pilot.pause()
        assert (screen.sort, screen.reverse) == ("ef", True)


@sync
async def test_mocks_tab_charts_scores_and_opens_a_report(profile):
    from drill.screens.mock_report import MockReportScreen

    today = ctx_for(profile).today()
    profile.record(review_row(item="roofline.ridge_point", topic="roofline", seed=1, quality=5, verdict="correct",
                              when=NOW, today=today, state=None, schedule=True, typed="295", value=295.0,
                              seconds=20))
    for k, verdicts in enumerate((["correct", "wrong"], ["correct", "correct"])):
        qs = [{"question": i + 1, "item": "roofline.ridge_point", "topic": "roofline", "seed": 10 + i, "step": None,
               "typed": "295", "verdict": v, "seconds": 30.0, "expected": "295 FLOP/B", "flagged": False,
               "misconception": ""} for i, v in enumerate(verdicts)]
        score = {x: verdicts.count(x) for x in ("correct", "close", "wrong")} | {"unanswered": 0}
        profile.add_mock({"ts": f"2026-11-2{k}T10:00:00Z", "seed": k, "questions": qs, "score": score,
                          "settings": {"limit_seconds": 600}, "seconds_used": 60.0, "timed_out": False})
    app = DrillApp(ctx_for(profile), start="stats")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        await pilot.press("left_square_bracket")  # [ round the start: Mock interviews
        await pilot.pause()
        mocks = screen.query_one("#mocks", DataTable)
        assert column(mocks, 0) == ["2026-11-21", "2026-11-20"]  # newest first
        assert column(mocks, 1) == ["100 %", "50 %"]
        assert "Mock interview scores" in str(screen.query_one("#mock-plot", PlotextPlot).render())
        mocks.focus()
        mocks.move_cursor(row=1)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MockReportScreen)
        assert app.screen.record["ts"] == "2026-11-20T10:00:00Z"


@sync
async def test_no_mock_yet_says_so(profile):
    profile.record(review_row(item="roofline.ridge_point", topic="roofline", seed=1, quality=4, verdict="correct",
                              when=NOW, today=ctx_for(profile).today(), state=None, schedule=True, typed="295",
                              value=295.0, seconds=20))
    app = DrillApp(ctx_for(profile), start="stats")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("left_square_bracket")  # [ round the start: Mock interviews
        await pilot.pause()
        assert "No mock interview yet" in text_of(app.screen.query_one("#mocks-none", Static))


@sync
async def test_markup_in_an_item_id_is_shown_literally(profile):
    today = ctx_for(profile).today()
    item = "memory.[b]old[/b]"
    for d in range(3):
        profile.record(review_row(item=item, topic="memory", seed=d, quality=1, verdict="wrong", when=NOW,
                                  today=today - timedelta(days=d), state=None, schedule=False, mode="extra",
                                  typed="[red]x", seconds=5))
    app = DrillApp(ctx_for(profile), start="stats")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        await pilot.press("right_square_bracket")  # ] the next tab: Topics
        await pilot.pause()
        topics = screen.query_one("#topics", DataTable)
        row = [str(k.value) for k in topics.rows].index("memory")
        assert "[b]old[/b]" in column(topics, 6)[row]  # weakest, unparsed
        topics.move_cursor(row=row)
        await pilot.pause()
        templates = screen.query_one("#templates", DataTable)
        templates.move_cursor(row=[str(k.value) for k in templates.rows].index(item))
        await pilot.pause()
        assert item in text_of(screen.query_one("#history-title", Static))


@sync
async def test_language_switch_relabels_and_keeps_the_tab(profile):
    fill(profile, 1200)
    app = DrillApp(ctx_for(profile), start="stats")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("right_square_bracket")  # ] the next tab: Topics
        await pilot.pause()
        await pilot.press("ctrl+t")
        await settle(app, pilot)
        screen = app.screen
        assert app.ctx.lang == "zh"
        assert screen.query_one(TabbedContent).active == "tab-topics"
        assert "进度" in text_of(screen.query_one("#stats-title", Static))
        topics = screen.query_one("#topics", DataTable)
        assert column(topics, 0)[0] == "Roofline 模型"
        zh_titles = {t.id: t.title_zh for t in registry.all_templates()}
        item = next(iter(screen.stats.items))
        assert screen.stats.items[item].title == zh_titles[item]


@sync
async def test_a_damaged_old_log_segment_is_a_message_not_a_crash(profile, tmp_path):
    """The figures come from the running totals beside the log, so they show; the readiness, fitted on the
    whole log, names the damaged file instead of a figure."""
    fill(profile, 600)  # three segments of the log
    streak = home_figures.today_figures(ctx_for(profile)).streak
    first = tmp_path / "default" / "reviews" / "000001.json"
    first.write_text("{ not json")
    app = DrillApp(ctx_for(profile))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        home = app.screen  # Home does not read the old log: its figures are all there
        assert isinstance(home, HomeScreen)
        assert str(home.query_one("#tile-streak", Static).render()).startswith(f"{streak} d")
        await pilot.press("s")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, StatsScreen) and screen.stats is not None and screen.stats.reviews > 0
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.readiness_error is not None and "000001.json" in screen.readiness_error
        message = text_of(screen.query_one("#overview-figures", Static))
        assert "Readiness could not be computed" in message and "000001.json" in message
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is home
    assert first.read_text() == "{ not json"  # left as it was


def test_home_streak_agrees_with_the_stats_and_reads_no_old_segment(profile, monkeypatch):
    fill(profile, 2_000)
    ctx = ctx_for(profile)
    s = figures(profile, ctx.today())
    assert s.streak > 1
    newest = Profile._rows_of  # today's rows are all in the newest segment, kept in memory
    monkeypatch.setattr(Profile, "_rows_of", lambda self, n: newest(self, n) if n == self._seg_n
                        else pytest.fail(f"Home read log segment {n}"))
    f = home_figures.today_figures(ctx)
    assert f.streak == s.streak and f.reviews_today == s.reviews_today


class HeldFit:
    """The readiness fit (``readiness_view.readiness_report``) held until the test releases it: the fit takes
    as long as the test wants, so what the screen shows meanwhile is checked without timing anything.
    ``stopped`` is set when the fit was asked to stop (the screen closed) and gave up."""

    def __init__(self, monkeypatch) -> None:
        self.started, self.release, self.stopped = threading.Event(), threading.Event(), threading.Event()
        self.real = readiness_view.readiness_report
        monkeypatch.setattr(readiness_view, "readiness_report", self)

    def __call__(self, *args, stop=None):
        self.started.set()
        while not self.release.wait(0.01):
            if stop is not None and stop():
                self.stopped.set()
                raise readiness.Stopped
        return self.real(*args, stop=stop)


async def figures_shown(app, pilot) -> StatsScreen:
    """Wait for the figures' worker only (not the readiness'), and for the screen to lay them out."""
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, StatsScreen)
    for worker in [w for w in app.workers if w.group == "stats"]:
        await worker.wait()
    await pilot.pause()
    await pilot.pause()
    return screen


@sync
async def test_the_figures_show_before_the_readiness_is_fitted_and_it_fills_in_when_done(profile, monkeypatch):
    fill(profile, 1200)
    fit = HeldFit(monkeypatch)
    app = DrillApp(ctx_for(profile), start="stats")
    async with app.run_test(size=SIZE) as pilot:
        screen = await figures_shown(app, pilot)
        assert await asyncio.to_thread(fit.started.wait, 60)  # the fit is under way, in a worker thread
        overview = text_of(screen.query_one("#overview-figures", Static))
        assert f"{screen.stats.reviews:,} ({screen.stats.reviews_today} today)" in overview  # painted already
        assert "Readiness: fitting it on your answers…" in overview and screen.stats.readiness is None
        await pilot.press("right_square_bracket")  # the screen answers keys meanwhile: ] the next tab
        assert screen.query_one(TabbedContent).active == "tab-topics"
        await pilot.press("left_square_bracket")
        fit.release.set()
        await settle(app, pilot)
        overview = text_of(screen.query_one("#overview-figures", Static))
        assert "Readiness on 2026-11-29" in overview and "fitting it" not in overview
        assert screen.stats.readiness is not None and not fit.stopped.is_set()


@sync
async def test_leaving_the_stats_screen_stops_its_readiness_fit(profile, monkeypatch):
    fill(profile, 1200)
    fit = HeldFit(monkeypatch)
    app = DrillApp(ctx_for(profile))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await figures_shown(app, pilot)
        assert await asyncio.to_thread(fit.started.wait, 60)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, StatsScreen)
        assert await asyncio.to_thread(fit.stopped.wait, 60)  # the worker was cancelled, the fit gave up
