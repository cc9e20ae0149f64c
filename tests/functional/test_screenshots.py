"""The README's screenshot is today's Home: the text in docs/home.svg is what Home draws at 80x24
on a new profile.  When Home changes, ``make screenshots`` draws it again."""

from __future__ import annotations

import pytest

from tests.tools.screenshots import HOME_SVG, ROOT, home_svg, svg_lines

pytestmark = pytest.mark.functional


def test_the_readme_screenshot_is_todays_home():
    assert HOME_SVG.exists(), "docs/home.svg is missing: run make screenshots"
    shown = svg_lines(HOME_SVG.read_text(encoding="utf-8"))
    assert any("Practise" in line for line in shown)
    assert shown == svg_lines(home_svg()), "docs/home.svg is not today's Home: run make screenshots"
    assert "docs/home.svg" in (ROOT / "README.md").read_text(encoding="utf-8")[:3000]  # near the top
