"""Settings keep an edit when the field is left: Tab and Esc save it as Enter does, once read;
a value that cannot be read says why and keeps the focus (a second Esc leaves without it).  Every setting is
one widget, drill.widgets.setting.SettingField."""

from __future__ import annotations

import random

import pytest
from textual.widgets import Input

from drill.app import DrillApp
from drill.core.context import AppContext
from drill.screens.home import HomeScreen
from drill.screens.settings import FIELDS, SettingsScreen
from drill.widgets.setting import SettingField
from tests.functional.app_support import sync, text_of

pytestmark = pytest.mark.functional


async def open_settings(pilot) -> SettingsScreen:
    await pilot.pause()
    await pilot.press("comma")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, SettingsScreen)
    return screen


async def retype(pilot, text: str) -> None:
    await pilot.press("ctrl+u", *list(text))


def test_every_setting_is_one_field_widget():
    assert {key for key, _ in FIELDS} >= {"new_per_day", "reviews_per_day", "interview", "hardware"}


@pytest.mark.parametrize("lang", ["en", "zh"])
@sync
async def test_tab_and_esc_keep_an_edit(profile, clock, lang):
    app = DrillApp(AppContext(profile, lang, clock, random.Random(7)), start="home")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_settings(pilot)
        assert len(screen.query(SettingField)) == len(FIELDS)
        assert app.focused is screen.query_one("#input-new_per_day", Input)
        await retype(pilot, "8")
        await pilot.press("tab")
        await pilot.pause()
        assert profile.settings()["new_per_day"] == 8  # saved on leaving the field
        assert app.focused is screen.query_one("#input-reviews_per_day", Input)
        await retype(pilot, "120")
        await pilot.press("escape")  # saved on leaving the screen
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert profile.settings()["reviews_per_day"] == 120


@pytest.mark.parametrize("lang, why", [("en", "a whole number 0-100"), ("zh", "请输入 0-100 之间的整数")])
@sync
async def test_a_value_that_cannot_be_read_says_why_and_stays_in_its_field(profile, clock, lang, why):
    app = DrillApp(AppContext(profile, lang, clock, random.Random(7)), start="home")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_settings(pilot)
        box = screen.query_one("#input-new_per_day", Input)
        await retype(pilot, "lots")
        await pilot.press("tab")
        await pilot.pause()
        await pilot.pause()
        assert app.focused is box and box.value == "lots"  # Tab does not leave it
        assert why in text_of(screen, "#hint-new_per_day")
        assert profile.settings()["new_per_day"] == 5
        await pilot.press("escape")  # the screen stays once, and says a second Esc leaves without it
        await pilot.pause()
        assert app.screen is screen and app.focused is box
        assert ("Esc again" if lang == "en" else "再按 Esc") in text_of(screen, "#hint-new_per_day")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen) and profile.settings()["new_per_day"] == 5
        await pilot.press("comma")  # and the field shows what is stored
        await pilot.pause()
        assert app.screen.query_one("#input-new_per_day", Input).value == "5"


@sync
async def test_a_fixed_value_is_saved_on_tab(profile, clock):
    app = DrillApp(AppContext(profile, "en", clock, random.Random(7)), start="home")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_settings(pilot)
        await retype(pilot, "500")
        await pilot.press("tab")
        await pilot.pause()
        await retype(pilot, "50")
        await pilot.press("tab")
        await pilot.pause()
        assert profile.settings()["new_per_day"] == 50
        assert "Saved." in text_of(screen, "#hint-new_per_day")
        assert app.focused is screen.query_one("#input-reviews_per_day", Input)
