"""Home, Browse, Help and the command palette, driven through the Textual pilot."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime

import pytest

from drill.app import SCREEN_PATHS, DrillApp
from drill.core.context import AppContext
from drill.core.i18n import t
from drill.palette import KeyCommands
from drill.screens.browse import BrowseScreen
from drill.screens.help import HelpScreen
from drill.screens.home import HomeScreen
from drill.screens.practice import PracticeScreen
from drill.widgets.footer import KeyFooter
from engine import session as flow
from engine.session import review_row
from engine.sm2 import ItemState
from question_bank import registry
from tests.functional.app_support import footer_drawn, notices, submit, sync, text_of

pytestmark = pytest.mark.functional


def make_app(profile, clock, lang="en") -> DrillApp:
    return DrillApp(AppContext(profile, lang, clock, random.Random(5)))


def tile(screen, key: str) -> str:
    return text_of(screen, f"#tile-{key}").split("\n")[0]


@sync
async def test_home_shows_today_at_a_glance(profile, clock):
    first, second, later = registry.all_templates()[:3]
    for item, day in ((first, date(2026, 11, 27)), (second, date(2026, 11, 28))):
        profile.record(review_row(item=item.id, topic=item.topic, seed=1, quality=4, verdict="correct",
                                  when=datetime(day.year, day.month, day.day, 9, tzinfo=UTC), today=day,
                                  state=None, schedule=True))
    profile.record(review_row(item=later.id, topic=later.topic, seed=1, quality=5, verdict="correct",
                              when=datetime(2026, 11, 27, 9, tzinfo=UTC), today=date(2026, 11, 27),
                              state=ItemState(interval=6, reps=2, due=date(2026, 11, 27)), schedule=True))
    app = make_app(profile, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        home = app.screen
        assert isinstance(home, HomeScreen)
        # first was due on the 28th, second is due today; five new items a day
        assert (tile(home, "due"), tile(home, "new"), tile(home, "streak"), tile(home, "today")) == \
            ("2", "5", "2 d", "0")
        assert text_of(home, "#home-next") == ""  # no "next due in 13 days" beside "2 due now"
        options = [str(home.query_one("#ways").get_option_at_index(i).prompt) for i in range(4)]
        assert "today's session: 7 problems" in options[0]
        await pilot.press("p")
        assert isinstance(app.screen, PracticeScreen)
        assert app.screen.run.progress == (0, 7)
        assert app.screen.run.card.item == first.id  # most overdue first
        await submit(pilot, app.screen.run.current_step.expected.display)
        await pilot.press("escape", "enter")
        assert isinstance(app.screen, HomeScreen)
        assert (tile(home, "due"), tile(home, "today")) == ("1", "1")  # redrawn on return


@sync
async def test_home_counts_templates_queued_from_a_mock_in_todays_session(profile, clock):
    from engine.session import QUEUE_KEY

    profile.set_setting("new_per_day", 0)
    profile.set_setting(QUEUE_KEY, [t.id for t in registry.all_templates()[:2]])
    app = make_app(profile, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        home = app.screen
        option = str(home.query_one("#ways").get_option_at_index(0).prompt)
        assert "today's session: 2 problems (2 queued from your mock)" in option
        assert "today is done" not in option
        await pilot.press("ctrl+t")  # the UI language
        await pilot.pause()
        option = str(home.query_one("#ways").get_option_at_index(0).prompt)
        assert "今日练习：2 道题（其中 2 道来自模拟面试）" in option
        await pilot.press("p")
        assert app.screen.run.progress == (0, 2)


@sync
async def test_home_names_the_next_due_date_only_when_nothing_is_due(profile, clock):
    item = registry.all_templates()[0]
    profile.record(review_row(item=item.id, topic=item.topic, seed=1, quality=4, verdict="correct",
                              when=datetime(2026, 11, 28, 9, tzinfo=UTC), today=date(2026, 11, 28),
                              state=ItemState(interval=1, reps=1, due=date(2026, 11, 28)), schedule=True))
    app = make_app(profile, clock)
    async with app.run_test(size=(80, 24)):
        home = app.screen
        assert tile(home, "due") == "0"
        assert text_of(home, "#home-next") == "Next item due in 5 days (2026-12-04)."


@sync
async def test_home_keys_open_stats_and_mock_or_say_they_are_missing(profile, clock):
    app = make_app(profile, clock)
    async with app.run_test(size=(100, 30)) as pilot:
        for key, name in (("s", "stats"), ("m", "mock")):
            module, _, cls = SCREEN_PATHS[name].partition(":")
            try:
                expected = getattr(__import__(module, fromlist=[cls]), cls)
            except ImportError:
                expected = None
            await pilot.press(key)
            await pilot.pause()
            if expected is None:
                assert isinstance(app.screen, HomeScreen)
                assert name in notices(app)
            else:
                assert isinstance(app.screen, expected)
                app.pop_screen()
                await pilot.pause()


@sync
async def test_browse_lists_every_template_by_topic_previews_and_practises_on_demand(profile, clock):
    app = make_app(profile, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("b")
        browse = app.screen
        assert isinstance(browse, BrowseScreen)
        templates = registry.all_templates()
        topics = [r for r in browse.rows if isinstance(r, str)]
        assert len(browse.rows) == len(templates) + len(topics)
        assert [r.item for r in browse.rows if not isinstance(r, str)] == [t.id for t in templates]
        assert browse.selected.item == templates[0].id
        sample = templates[0].generate(1)
        assert sample.steps[0].prompt("en") in text_of(browse, "#sample")
        await pilot.press("d")  # draw another sample
        assert browse.seed != 1
        await pilot.press("down", "p")
        practice = app.screen
        assert isinstance(practice, PracticeScreen) and practice.run.card.item == templates[1].id
        assert practice.run.progress == (0, 1)
        await submit(pilot, practice.run.current_step.expected.display)
        await pilot.press("enter")  # feedback -> summary, which says where Enter goes
        assert "Press Enter to go back to Browse." in text_of(app.screen, "#summary")
        assert {a.binding.description for a in app.screen.active_bindings.values() if a.binding.key == "enter"} == \
            {"Browse"}
        await pilot.press("enter")
        assert app.screen is browse
        row = browse.rows[2]
        # its first answer anywhere (here from Browse) enters the schedule
        assert row.item == templates[1].id and row.state == "learning" and row.last == "correct"
        await pilot.press("home", "t")  # on a topic heading: the whole topic
        assert app.screen.run.progress[1] == sum(1 for t in templates if t.topic == topics[0])
    assert [r.mode for r in profile.reviews()] == ["extra"]
    assert list(profile.states()) == [templates[1].id]  # scheduled by its first answer ...
    assert flow.introduced(profile.reviews_today(clock().astimezone().date())) == set()  # ... not a new item of the day


@sync
async def test_help_lists_the_keys_of_every_screen_and_the_palette_offers_the_screens_own_actions(profile, clock):
    """Two independent checks in one app (each start of Home costs its figures): Help's key list, then the
    command palette's actions on Home, Browse and Practice."""
    app = make_app(profile, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        shown = text_of(app.screen, "#keys")
        for fragment in ("Practise", "Browse", "Submit the answer", "^g", "Don't know", "Again: grade 1",
                         "0-5", "Extra practice", "Practise topic", "^t", "^p",
                         "Reverse", "Next tab", "Skip", "End mock", "Practise missed"):
            assert fragment in shown, f"Help does not list {fragment!r}"
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)

        # the command palette: each screen's own actions
        names = [h.text async for h in KeyCommands(app.screen).discover()]
        assert names == ["Practise", "Mock interview", "Stats", "Browse", "Settings", "Help", "中文"]  # Quit: Textual's, once
        hits = [h async for h in KeyCommands(app.screen).search("brow")]
        assert len(hits) == 1
        await pilot.press("b")
        names = [h.text async for h in KeyCommands(app.screen).discover()]
        assert "Practise this" in names and "Practise topic" in names
        await pilot.press("escape", "p")
        names = [h.text async for h in KeyCommands(app.screen).discover()]
        assert "Don't know" in names and "Next" not in names  # only what works in this state


@sync
async def test_home_in_chinese(profile, clock):
    app = make_app(profile, clock, lang="zh")
    async with app.run_test(size=(80, 24)) as pilot:
        home = app.screen
        assert "今天" in text_of(home, "#home-title") and "到期" in text_of(home, "#tile-due")
        footer = [b.binding.description for b in home.active_bindings.values()]
        assert "练习" in footer and "English" in footer
        await pilot.press("ctrl+t")
        assert "Today" in text_of(home, "#home-title")


@pytest.mark.parametrize("start", ["practice", "browse", "help", "stats", "mock"])
@sync
async def test_a_direct_start_opens_that_screen_and_leaving_it_shows_home(profile, clock, start):
    app = DrillApp(AppContext(profile, "en", clock, random.Random(5)), start=start)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        from drill.app import screen_class

        assert isinstance(app.screen, screen_class(start))
        assert app.screen_stack == [app.screen]  # the first screen is the bottom of the stack
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert app.screen_stack == [app.screen]  # in its place, not on top of it


@sync
async def test_an_unknown_start_screen_says_so_and_opens_home(profile, clock):
    app = DrillApp(AppContext(profile, "en", clock, random.Random(5)), start="cooking")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert "cooking" in notices(app)


def keys_not_drawn(screen, width: int) -> set[str]:
    """Names of the screen's shown keys that its footer does not draw inside ``width`` columns."""
    shown = {a.binding.description for a in screen.active_bindings.values()
             if a.binding.show and a.binding.action != "command_palette"}
    drawn = {e.description for footer in screen.query(KeyFooter) for e in footer_drawn(footer)
             if footer.region.right <= width}
    return shown - drawn


@pytest.mark.parametrize("lang", ["en", "zh"])
@sync
async def test_every_footer_key_fits_in_80_columns(profile, clock, lang):
    app = make_app(profile, clock, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        seen = []

        async def check(*keys: str) -> None:
            await pilot.press(*keys)
            for _ in range(10):  # frames, not time: until the footer has drawn the screen's keys
                await pilot.pause()
                await app.workers.wait_for_complete()
                if not keys_not_drawn(app.screen, 80):
                    break
            seen.append(type(app.screen).__name__)
            assert keys_not_drawn(app.screen, 80) == set(), (lang, seen[-1])

        await check()  # Home
        await check("p")  # Practice, answering
        await submit(pilot, app.screen.run.current_step.expected.display_in(lang))
        await check()  # Practice, feedback: the grade keys too
        await check("escape")  # Summary
        await check("enter", "b")  # Browse
        await check("escape", "s")  # Stats (its footer is composed again once the figures are in)
        await check("escape", "m")  # Mock setup
        await check("ctrl+s")  # Mock run
        await check("escape", "y")  # Mock report
        assert seen == ["HomeScreen", "PracticeScreen", "PracticeScreen", "SummaryScreen", "BrowseScreen",
                        "StatsScreen", "MockSetupScreen", "MockRunScreen", "MockReportScreen"]


@sync
async def test_the_palette_key_is_named_in_the_ui_language_and_opens_the_palette(profile, clock):
    from textual.command import CommandPalette

    app = make_app(profile, clock, lang="zh")
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        palette_key = footer_drawn(app.screen.query_one(KeyFooter))[-1]  # drawn on the right at 120 columns
        assert palette_key.palette and palette_key.description == "命令面板"
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)


@sync
async def test_textuals_own_palette_commands_follow_the_ui_language(profile, clock):
    from textual.command import CommandInput, CommandList

    from drill.palette import SYSTEM_COMMANDS

    app = make_app(profile, clock, lang="zh")
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        textual_own = list(super(DrillApp, app).get_system_commands(app.screen))
        assert all(c.help in SYSTEM_COMMANDS for c in textual_own)  # every one of this Textual is known
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert app.screen.query_one(CommandInput).placeholder == t("palette.placeholder", "zh")
        commands = app.screen.query_one(CommandList)

        def shown() -> list[str]:
            return [str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)]

        for _ in range(50):  # the palette gathers its commands in workers
            if len(shown()) >= len(textual_own) + 7:  # and the seven keys of Home
                break
            await pilot.pause()
        shown = shown()
        for title in ("截图", "按键", "退出", "配色"):
            assert any(line.startswith(title + "\n") for line in shown), title
        assert not any(c.title in line for c in textual_own for line in shown)  # no English title left
        await pilot.press("escape")
        await pilot.press("ctrl+t")
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Theme" in titles and "Screenshot" in titles


@sync
async def test_stats_tabs_switch_by_number_from_any_tab(profile, clock):
    from textual.widgets import TabbedContent

    item = registry.all_templates()[0]
    profile.record(review_row(item=item.id, topic=item.topic, seed=1, quality=4, verdict="correct",
                              when=datetime(2026, 11, 28, 9, tzinfo=UTC), today=date(2026, 11, 28),
                              state=None, schedule=True))
    app = DrillApp(AppContext(profile, "en", clock, random.Random(5)), start="stats")
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):
            await pilot.pause()
            await app.workers.wait_for_complete()
        seen = []
        # ] and [ turn the tabs, round the ends; from the topics tab too, where its table has the focus
        for key in ("right_square_bracket", "right_square_bracket", "left_square_bracket", "left_square_bracket",
                    "right_square_bracket"):
            await pilot.press(key)
            await pilot.pause()
            seen.append(app.screen.query_one(TabbedContent).active)
        assert seen == ["tab-topics", "tab-mocks", "tab-topics", "tab-overview", "tab-topics"]
        assert app.focused is app.screen.query_one("#topics")
