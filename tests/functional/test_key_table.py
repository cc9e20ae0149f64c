"""One key table (drill/keybindings.py) that every screen reads: a letter, a digit or a symbol means one thing on
every screen (o, r, s, n and 1-3 meant different things on Home, Stats, Browse and the mock
report), and Help and the footer show the table's keys, in both languages."""

from __future__ import annotations

import random
import re
from datetime import UTC
from pathlib import Path

import pytest
from textual.screen import Screen
from textual.widgets import TabbedContent

from drill.app import DrillApp
from drill.core.context import AppContext
from drill.core.i18n import STRINGS
from drill.keybindings import BY_KEY, KEYS, key_display, keys_of
from drill.widgets.footer import KeyFooter
from tests.functional.app_support import sync, text_of
from tests.functional.test_key_meanings import _screens

pytestmark = pytest.mark.functional

PRACTICE_DOC = Path(__file__).resolve().parents[2] / "docs" / "practice.md"  # the app screen by screen


def _own(cls) -> list:
    """The app's bindings of a screen (Textual's Tab / Shift+Tab focus keys, which every screen inherits, aside)."""
    return [b for b in cls.BINDINGS if b not in Screen.BINDINGS]


def test_the_table_has_each_key_once_and_words_for_each_meaning_in_both_languages():
    assert len(BY_KEY) == len(KEYS)
    for k in KEYS:
        for words in (k.meaning, *k.ids):
            en, zh = STRINGS[words]
            assert en and zh, words


def test_every_binding_of_every_screen_is_a_key_of_the_table():
    """No screen names a key of its own: each binding's key is one the table gives its id."""
    for cls in _screens():
        for b in _own(cls):
            for key in b.key.split(","):
                assert key in BY_KEY, f"{cls.__name__}: {key!r} is not in drill.keybindings.KEYS"
                assert b.id in BY_KEY[key].ids, f"{cls.__name__}: {key!r} carries {b.id}, not one of its meanings"


def test_the_letters_that_differed_by_screen_mean_one_thing_now():
    meanings = {}
    for cls in _screens():
        for b in _own(cls):
            for key in b.key.split(","):
                meanings.setdefault(key, set()).add(BY_KEY[key].meaning)
    assert all(len(m) == 1 for m in meanings.values()), {k: m for k, m in meanings.items() if len(m) > 1}
    said = {k: BY_KEY[k].meaning for k in ("o", "r", "s", "n", "comma", "1", "2", "3", "w", "d", "v", "f")}
    assert said == {"o": "key.sort", "r": "key.reverse", "s": "key.stats", "n": "key.mock_no", "comma": "key.settings",
                    "1": "key.quality", "2": "key.quality", "3": "key.quality", "w": "key.mock_save_again",
                    "d": "key.new_sample", "v": "key.browse_topic", "f": "key.browse_status"}
    assert set(keys_of("key.sort")) == {"o"} and set(keys_of("key.browse_sort")) == {"o"}  # Stats and Browse alike


def _app(profile, clock, lang="en", start="home"):
    return DrillApp(AppContext(profile, lang, clock, random.Random(3)), start=start)


@pytest.mark.parametrize("lang", ["en", "zh"])
@sync
async def test_home_and_help_show_the_tables_keys(profile, clock, lang):
    app = _app(profile, clock, lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = {e.key: e.description for e in app.screen.query_one(KeyFooter).entries()}
        assert footer.get("comma") == STRINGS["key.settings"][lang == "zh"]
        assert "o" not in footer
        ways = app.screen.query_one("#ways")  # Home's list of the ways in says the same keys
        said = [str(ways.get_option_at_index(i).prompt) for i in range(ways.option_count)]
        assert any(line.startswith(" , ") and STRINGS["key.settings"][lang == "zh"] in line for line in said), said
        assert not any(line.startswith(" o ") for line in said)
        await pilot.press("f1")
        await pilot.pause()
        help_text = text_of(app.screen, "#keys")
        settings, prev_tab, sort = (STRINGS[i][lang == "zh"] for i in ("key.settings", "key.tab_prev", "key.sort"))
        assert re.search(rf"^\s*,\s+{settings}\s*$", help_text, re.M), help_text
        assert re.search(rf"^\s*\[\s+{prev_tab}\s*$", help_text, re.M)
        assert re.search(rf"^\s*o\s+{sort}", help_text, re.M)
        # a letter's rows in Help are words of its one meaning (Practise / Practise this / Practise missed)
        for key, what in re.findall(r"^(\w)\s{2,}(\S.*?)\s*$", help_text, re.M):
            if key in BY_KEY:
                allowed = {STRINGS[i][lang == "zh"] for i in BY_KEY[key].ids}
                allowed |= {STRINGS[f"help.{i.removeprefix('key.')}"][lang == "zh"] for i in BY_KEY[key].ids
                            if f"help.{i.removeprefix('key.')}" in STRINGS}
                assert what in allowed, (key, what, allowed)


@sync
async def test_comma_opens_settings_and_s_stats_from_home(profile, clock):
    from drill.screens.settings import SettingsScreen
    from drill.screens.stats import StatsScreen

    app = _app(profile, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press("escape", "s")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)


@sync
async def test_the_brackets_turn_the_stats_tabs_and_the_digits_do_nothing_there(profile, clock):
    from datetime import date, datetime

    from engine.session import review_row
    from question_bank import registry

    item = registry.all_templates()[0]
    profile.record(review_row(item=item.id, topic=item.topic, seed=1, quality=4, verdict="correct",
                              when=datetime(2026, 11, 28, 9, tzinfo=UTC), today=date(2026, 11, 28),
                              state=None, schedule=True))
    app = _app(profile, clock, start="stats")
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):
            await pilot.pause()
            await app.workers.wait_for_complete()
        tabs = app.screen.query_one(TabbedContent)
        await pilot.press("2", "3")
        await pilot.pause()
        assert tabs.active == "tab-overview"  # a digit is a grade: nothing to grade here
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert tabs.active == "tab-topics"
        await pilot.press("left_square_bracket", "left_square_bracket")
        await pilot.pause()
        assert tabs.active == "tab-mocks"  # round the start


def test_the_docs_say_the_tables_keys():
    text = PRACTICE_DOC.read_text(encoding="utf-8")
    assert f"Settings (`{key_display('key.settings')}`)" in text
    assert "`s` stats, `b` browse the bank, `,` settings" in text
    for key, what in (("d", "draws another sample"), ("v", "only the highlighted template's topic"),
                      ("f", "status in turn"), ("o", "order: by topic"), ("w", "save the mock again"),
                      ("[ ]", "the previous / next tab")):
        assert re.search(rf"`{re.escape(key)}`[^\n]*{re.escape(what)}", text), (key, what)
    assert "`o` settings" not in text and "Settings (`o`" not in text
