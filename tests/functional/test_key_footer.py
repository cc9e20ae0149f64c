"""The key footer of every screen (drill.widgets.footer.KeyFooter): one widget drawing the keys Textual's Footer
would, drawn again only when those keys change, pressing a key when it is clicked."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from drill.app import DrillApp
from drill.core.context import AppContext
from drill.widgets.footer import KeyFooter
from tests.functional.app_support import footer_drawn, submit, sync

pytestmark = pytest.mark.functional


def keys(screen) -> list[str]:
    return [e.key for e in footer_drawn(screen.query_one(KeyFooter))]


def _app(profile, clock, lang="en"):
    return DrillApp(AppContext(profile, lang, clock, random.Random(7)), start="practice")


@sync
async def test_the_footer_is_drawn_again_only_when_its_keys_change(profile, clock, monkeypatch):
    renders = []
    original = KeyFooter.render

    def counting(self):
        renders.append(1)
        return original(self)

    monkeypatch.setattr(KeyFooter, "render", counting)
    app = _app(profile, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert "ctrl+g" in keys(screen) and "a" not in keys(screen)
        drawn = len(renders)
        screen.refresh_bindings()  # the same keys
        await pilot.pause()
        assert len(renders) == drawn
        await submit(pilot, screen.run.current_step.expected.display)  # the feedback: other keys
        assert len(renders) > drawn
        assert "a" in keys(screen) and "ctrl+g" not in keys(screen)


@pytest.mark.parametrize("lang", ["en", "zh"])
@sync
async def test_it_draws_the_keys_textuals_footer_would(profile, clock, lang):
    """Every shown key of the screen, the first of each action, in order; the palette's key only when wide."""
    app = _app(profile, clock, lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen, footer = app.screen, app.screen.query_one(KeyFooter)
        wanted, actions = [], set()
        for a in screen.active_bindings.values():
            if a.binding.show and a.binding.action not in actions:
                actions.add(a.binding.action)
                wanted.append(a.binding.description)
        assert [e.description for e in footer_drawn(footer)] == wanted  # all fit in 80 columns, no palette key
        line = str(footer.render())
        assert all(e.key_display in line and e.description in line for e in footer_drawn(footer))
        await pilot.resize_terminal(120, 30)
        await pilot.pause()
        assert footer_drawn(footer)[-1].palette and footer_drawn(footer)[-1].key == "ctrl+p"
        assert [e.description for e in footer_drawn(footer)[:-1]] == wanted


@sync
async def test_a_click_on_a_key_presses_it(profile, clock):
    app = _app(profile, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen, footer = app.screen, app.screen.query_one(KeyFooter)
        start = next(s for s, _e, entry in footer.key_spans if entry.key == "ctrl+g")  # "Don't know"
        await pilot.click(KeyFooter, offset=(start + 1, 0))
        await pilot.pause()
        assert screen.state == "feedback" and screen.run.answers[-1].status == "dont_know"


def test_no_screen_draws_textuals_footer():
    """Every screen's keys go through the one footer: Textual's, a widget per key composed again at each change
    of the bindings, cost the pilot tests a quarter of their CPU (docs/performance.md)."""
    drill = Path(__file__).resolve().parents[2] / "drill"
    users = [path.name for path in drill.rglob("*.py")
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.ImportFrom) and node.module == "textual.widgets"
             and any(alias.name == "Footer" for alias in node.names)]
    assert users == []
