"""Finding things: the command palette from any screen, Browse's filter, status and sort."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.command import CommandInput, CommandList, CommandPalette

from drill.app import DrillApp
from drill.core import browse_rows, find
from drill.core.context import AppContext
from drill.screens.browse import PREVIEW_MIN, BrowseScreen
from drill.screens.home import HomeScreen
from drill.screens.practice import PracticeScreen
from engine.session import review_row
from engine.sm2 import ItemState
from question_bank import registry
from tests.functional.app_support import sync

pytestmark = pytest.mark.functional


def make_app(profile, clock, lang="en") -> DrillApp:
    return DrillApp(AppContext(profile, lang, clock, random.Random(5)))


def test_words_are_found_in_any_order_whatever_the_punctuation():
    assert find.match("kv cache", ["KV-cache size of a batch"]) is not None
    assert find.match("cache kv", ["inference.kv_cache_size"]) is not None
    assert find.match("kv cache", ["Ring AllReduce time"]) is None
    assert find.match("显存", ["训练显存"]) is not None
    found = find.match("kv cache", ["KV-cache size"])
    assert found.spans == [(0, 2), (3, 8)]  # where the words are in what is shown
    # a word at the start of a word, and in the shown title, scores higher
    assert find.match("cache", ["KV-cache size"]).score > find.match("ache", ["KV-cache size"]).score
    assert find.match("kv", ["KV cache", "x"]).score > find.match("kv", ["x", "KV cache"]).score


@given(st.text(max_size=120))
def test_any_query_is_bounded_and_never_fails(query):
    assert len("".join(find.words(query))) <= find.MAX_QUERY
    found = find.match(query, ["KV-cache size of a batch", "inference.kv_cache_size"])
    assert found is None or found.score >= 0


async def palette_pick(pilot, query: str, first: str) -> list[str]:
    """Open the palette, type ``query``, wait until the first hit starts with ``first``; returns the hits
    (the first is highlighted)."""
    app = pilot.app
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(app.screen, CommandPalette)
    app.screen.query_one(CommandInput).value = query  # as typed, searched once
    commands = app.screen.query_one(CommandList)
    shown: list[str] = []
    for _ in range(100):  # the palette gathers its hits in workers
        await pilot.pause()
        shown = [str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)]
        if shown and shown[0].startswith(first):
            break
    return shown


@sync
async def test_the_palette_finds_a_template_from_browse_and_from_practice_and_opens_it(profile, clock):
    kv = [t for t in registry.all_templates() if "kv" in t.id and not t.is_chain]
    app = make_app(profile, clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("b")
        browse = app.screen
        assert isinstance(browse, BrowseScreen)
        shown = await palette_pick(pilot, "kv cache", "Practise: KV")
        titles = {t.title for t in kv}
        assert shown and any(title in shown[0] for title in titles), shown[:3]
        first = next(t for t in kv if t.title in shown[0].split("\n")[0])
        await pilot.press("enter")
        await pilot.pause()
        practice = app.screen
        assert isinstance(practice, PracticeScreen) and practice.run.card.item == first.id
        # from Practice: another template by its id, and back to this session after it
        other = registry.all_templates()[0]
        shown = await palette_pick(pilot, other.id, "Practise: " + other.title)
        assert shown[0].startswith("Practise: " + other.title)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PracticeScreen) and app.screen.run.card.item == other.id
        await pilot.press("escape")  # nothing answered: straight back
        assert app.screen is practice
        # every screen by name, whichever screen is on show; the way back Home
        shown = await palette_pick(pilot, "home", "Home")
        assert shown[0].startswith("Home")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert not any(isinstance(s, (PracticeScreen, BrowseScreen)) for s in app.screen_stack)


@sync
async def test_the_palette_opens_a_templates_formula_card(profile, clock):
    from drill.screens.card import CardScreen

    app = make_app(profile, clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("b")
        browse = app.screen
        shown = await palette_pick(pilot, "kv cache", "Practise: KV")
        cards = [i for i, s in enumerate(shown) if s.startswith("Card: KV")]
        assert cards, shown[:6]
        title = shown[cards[0]].split("\n")[0].removeprefix("Card: ")
        app.screen.query_one(CommandList).highlighted = cards[0]
        await pilot.press("enter")
        await pilot.pause()
        card = app.screen
        assert isinstance(card, CardScreen) and registry.get(card.template_id).title == title
        await pilot.press("escape")  # closing it returns where the palette was opened
        await pilot.pause()
        assert app.screen is browse


@sync
async def test_the_palette_speaks_the_ui_language_and_offers_quit_once(profile, clock):
    app = make_app(profile, clock, lang="zh")
    async with app.run_test(size=(100, 30)) as pilot:
        shown = await palette_pick(pilot, "显存", "练习：")  # a Chinese word of a title
        assert shown and shown[0].startswith("练习：")
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        commands = app.screen.query_one(CommandList)
        for _ in range(50):
            await pilot.pause()
            if commands.option_count >= 10:
                break
        titles = [str(commands.get_option_at_index(i).prompt).split("\n")[0] for i in range(commands.option_count)]
        assert titles.count("退出") == 1, titles
        assert "统计" in titles and "题库" in titles


def reviewed(profile, item, *, quality: int, state: ItemState | None) -> None:
    """A scheduled review on 2026-11-28 (the day before the clock's) from ``state`` (None: a new item)."""
    t = registry.get(item)
    profile.record(review_row(item=item, topic=t.topic, seed=1, quality=quality,
                              verdict="correct" if quality >= 4 else "wrong",
                              when=datetime(2026, 11, 28, 9, tzinfo=UTC), today=date(2026, 11, 28),
                              state=state, schedule=True))


def items(browse) -> list[str]:
    return [r.item for r in browse.rows if not isinstance(r, str)]


@sync
async def test_browse_filters_by_words_topic_and_status_and_sorts(profile, clock):
    templates = registry.all_templates()
    due, mastered, lapsed = templates[3].id, templates[20].id, templates[30].id
    reviewed(profile, due, quality=4, state=None)  # due the next day: today
    reviewed(profile, mastered, quality=5, state=ItemState(interval=30, reps=4, due=date(2026, 11, 28)))
    reviewed(profile, lapsed, quality=1, state=ItemState(interval=10, reps=3, due=date(2026, 11, 28)))
    app = make_app(profile, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("b")
        browse = app.screen
        assert len(items(browse)) == len(templates)
        # words, in English or Chinese, of a title, an id or a topic
        await pilot.press("slash", "k")
        assert browse.focused is browse.query_one("#browse-filter")
        browse.focused.insert_text_at_cursor("v cache")
        await pilot.pause()
        await pilot.pause()
        kv = items(browse)
        assert kv and len(kv) < len(templates)
        assert all(find.match("kv cache", (t.title, t.id, t.title_zh)) for t in map(registry.get, kv))
        await pilot.press("escape")  # empties the box
        await pilot.pause()
        await pilot.press("escape")  # leaves it
        await pilot.pause()
        assert len(items(browse)) == len(templates) and isinstance(app.screen, BrowseScreen)
        # status: new, due, lapsed, mastered in turn
        seen = {}
        for _ in browse_rows.STATUSES:
            await pilot.press("f")
            seen[browse.status] = items(browse)
        assert seen["due"] == [due, lapsed]  # a lapse comes back the next day
        assert seen["lapsed"] == [lapsed] and seen["mastered"] == [mastered]
        assert len(seen["new"]) == len(templates) - 3
        await pilot.press("f")  # all again
        # sorted by due date: the scheduled ones first, soonest first, and no topic headings
        await pilot.press("o")
        assert browse.sort == "due" and items(browse)[:3] == [due, lapsed, mastered]
        assert not any(isinstance(r, str) for r in browse.rows)
        await pilot.press("o")  # by last result: the worst first
        assert browse.sort == "last" and items(browse)[0] == lapsed
        await pilot.press("o", "v")  # the highlighted template's topic only
        topic = registry.get(browse.selected.item).topic
        assert {registry.get(i).topic for i in items(browse)} == {topic}
        # the titles are not cut while the preview keeps its room
        table = browse.query_one("#bank")
        cut = [i for i in range(table.row_count) if str(table.get_cell_at((i, 0))).endswith("…")]
        assert not cut or browse.query_one("#preview").region.width <= PREVIEW_MIN + 1  # + its border
