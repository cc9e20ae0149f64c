"""The formula card in the app: before a new template's first problem, one key away in practice and Browse."""

from __future__ import annotations

import random

import pytest
from textual.widgets import Input

from drill.app import DrillApp
from drill.core.context import AppContext
from drill.core.teach import SEEN_KEY, SHOW_KEY
from drill.screens.browse import BrowseScreen
from drill.screens.card import CardScreen
from drill.screens.practice import ASKING, FEEDBACK, PracticeScreen
from tests.functional.app_support import submit, sync, text_of

pytestmark = pytest.mark.functional
ITEM = "memory.static_given"


def make_app(profile, clock, lang="en", start="practice", **kwargs) -> DrillApp:
    return DrillApp(AppContext(profile, lang, clock, random.Random(7)), start=start, **kwargs)


@sync
async def test_a_new_template_shows_its_card_first_and_reading_it_is_not_a_review(profile, clock):
    profile.set_setting(SHOW_KEY, True)
    app = make_app(profile, clock, items=[ITEM])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        card = app.screen
        assert isinstance(card, CardScreen) and card.first
        shown = text_of(card, "#card-text")
        assert "M_static = 16 × Φ" in shown and "Where each factor comes from" in shown and "Typical mistakes" in shown
        assert "not a review" in text_of(card, "#card-head")
        clock.advance(600)  # ten minutes reading the card
        await pilot.press("enter")
        await pilot.pause()
        practice = app.screen
        assert isinstance(practice, PracticeScreen) and practice.state == ASKING
        assert practice.run.elapsed() == 0  # the answer's clock starts after the card
        assert profile.settings()[SEEN_KEY] == [ITEM] and not list(profile.reviews())
        await submit(pilot, practice.run.current_step.expected.display)
        assert practice.state == FEEDBACK
        await pilot.press("c")  # the card, one key away after the answer
        await pilot.pause()
        assert isinstance(app.screen, CardScreen) and not app.screen.first
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is practice and practice.state == FEEDBACK


@sync
async def test_a_seen_card_is_not_shown_again_but_f2_opens_it_while_answering(profile, clock):
    profile.set_setting(SHOW_KEY, True)
    profile.set_setting(SEEN_KEY, [ITEM])
    app = make_app(profile, clock, lang="zh", items=[ITEM])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        practice = app.screen
        assert isinstance(practice, PracticeScreen)
        practice.query_one("#answer", Input).value = "12"
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, CardScreen)
        assert "每一项从哪来" in text_of(app.screen, "#card-text")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is practice and practice.query_one("#answer", Input).value == "12"


@sync
async def test_browse_opens_the_card_of_the_selected_template(profile, clock):
    app = make_app(profile, clock, start="home")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("b")
        browse = app.screen
        assert isinstance(browse, BrowseScreen)
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, CardScreen) and app.screen.template_id == browse.selected.item
