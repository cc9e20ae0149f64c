"""The README's screenshot: Home at 80x24 on a fresh profile, as an SVG (Textual's ``export_screenshot``).

    python -m tests.tools.screenshots          # (make screenshots) writes docs/home.svg

The profile is new and lives in a temporary folder, the clock and the random draws are fixed, so the picture
changes only when Home does; tests/functional/test_screenshots.py checks that the text in docs/home.svg is what
Home draws today (run ``make screenshots`` when it fails).
"""

from __future__ import annotations

import asyncio
import html
import random
import re
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOME_SVG = ROOT / "docs" / "home.svg"
SIZE = (80, 24)
WHEN = datetime(2026, 11, 29, 15, 0, 0, tzinfo=UTC)
SAVES = "<saves>"  # what the temporary folder's path is written as, should a screen show it


def home_svg() -> str:
    """Home at 80x24 on a new profile, in English, as an SVG."""
    from drill.app import DrillApp
    from drill.core.context import AppContext
    from engine.storage import Profile

    async def shoot(folder: Path) -> str:
        profile = Profile.open(folder)
        try:
            app = DrillApp(AppContext(profile, "en", lambda: WHEN, random.Random(1)), start="home")
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause()
                await pilot.pause()
                return app.export_screenshot(title="infra-drill")
        finally:
            profile.close()

    with tempfile.TemporaryDirectory() as tmp:
        svg = asyncio.run(shoot(Path(tmp)))
        return svg.replace(str(Path(tmp)), SAVES)


def svg_lines(svg: str) -> list[str]:
    """The text an SVG screenshot shows, line by line (its <text> elements grouped by their y)."""
    rows: dict[float, list[str]] = {}
    for m in re.finditer(r"<text\b[^>]*\by=\"([\d.]+)\"[^>]*>(.*?)</text>", svg, re.S):
        rows.setdefault(float(m.group(1)), []).append(html.unescape(m.group(2)).replace("\xa0", " "))
    return [("".join(parts)).rstrip() for _, parts in sorted(rows.items())]


def main() -> int:
    HOME_SVG.parent.mkdir(parents=True, exist_ok=True)
    HOME_SVG.write_text(home_svg(), encoding="utf-8")
    print(f"wrote {HOME_SVG.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
