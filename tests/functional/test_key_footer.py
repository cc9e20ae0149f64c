"""Practice's key footer (drill.widgets.footer.KeyFooter): its keys are composed once while the first problem
appears, again when the keys it shows change, not when the bindings are refreshed to the same keys."""

from __future__ import annotations

import random

import pytest

from drill.app import DrillApp
from drill.core.context import AppContext
from drill.widgets.footer import KeyFooter
from tests.functional.app_support import submit, sync

pytestmark = pytest.mark.functional


def keys(screen) -> list[str]:
    return [k.key for k in screen.query_one(KeyFooter).query("FooterKey")]


@sync
async def test_the_footer_is_composed_again_only_when_its_keys_change(profile, clock, monkeypatch):
    composed = []
    original = KeyFooter.compose

    def counting(self):
        composed.append(self._bindings_ready)
        return original(self)

    monkeypatch.setattr(KeyFooter, "compose", counting)
    app = DrillApp(AppContext(profile, "en", clock, random.Random(7)), start="practice")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert composed == [False, True]  # mounted empty (as Textual's Footer), then its keys once
        assert "ctrl+g" in keys(screen) and "a" not in keys(screen)
        screen.refresh_bindings()
        await pilot.pause()
        assert len(composed) == 2
        await submit(pilot, screen.run.current_step.expected.display)  # the feedback: other keys
        assert len(composed) == 3
        assert "a" in keys(screen) and "ctrl+g" not in keys(screen)
