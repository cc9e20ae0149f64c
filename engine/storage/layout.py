"""What the save files are called and what they hold: names, versions and sizes (see the package docstring).

``SEGMENT_ROWS`` and ``STATE_EVERY`` are read from this module when used, so a
test may set them here (``monkeypatch.setattr(layout, "SEGMENT_ROWS", 3)``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..review import HARDWARE_ID, OPTIONAL, REQUIRED  # noqa: F401 (HARDWARE_ID: read from here too)
from ..session import DEFAULT_NEW_PER_DAY

SCHEMA_VERSION = 1
EXPORT_FORMAT = "infra-drill-profile"
SEGMENT_ROWS = 250
STATE_EVERY = 25  # rows recorded between two rewrites of the state file
DIGEST_VERSION = 1
RECENT_QUALITIES = 5  # qualities of an item's latest answers kept in the state file (engine.mock.RECENT reads 5)
DEFAULT_SETTINGS: dict[str, Any] = {"new_per_day": DEFAULT_NEW_PER_DAY}
PROFILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
SEGMENT_FILE = re.compile(r"(\d{6})\.json")
# A review row's fields, from its type (engine.review.Review): every row has ROW_FIELDS, and an optional field
# only when it applies (hardware, conventions, model: what each means is said there).
ROW_FIELDS, OPTIONAL_ROW_FIELDS = REQUIRED, OPTIONAL


BACKUPS = 3  # generations kept beside each save file: X.bak (the previous version), X.bak2, X.bak3
SNAPSHOT_DAYS = 7  # daily snapshots of a whole profile kept (ROOT/NAME/snapshots/YYYY-MM-DD/)
# The tables each kind of save file may hold; any other top-level key is damage (a renamed "reviews" is not an
# empty log).  A new table is added here (and a new field of a row where it is checked: validation.py).
TABLES: dict[str, frozenset[str]] = {
    "state": frozenset(("meta", "states", "settings", "changed", "days", "recent")),
    "mocks": frozenset(("meta", "mocks")),
    "reviews": frozenset(("meta", "reviews")),
    "manifest": frozenset(("meta", "parts")),
}


STATS_FILE = "stats.json"  # the statistics' running totals, beside the log (engine.storage.totals): a cache


def stats_path(profile: Path) -> Path:
    """The file of the statistics' running totals of the profile folder ``profile``."""
    return profile / STATS_FILE


def backup_path(path: Path, generation: int = 1) -> Path:
    """The ``generation``-th previous version of ``path`` (1: the newest backup)."""
    return path.with_name(path.name + (".bak" if generation == 1 else f".bak{generation}"))


def backup_paths(path: Path) -> list[Path]:
    """Every backup of ``path``, newest first."""
    return [backup_path(path, g) for g in range(1, BACKUPS + 1)]


def journal_path(segment: Path) -> Path:
    """The append-only journal beside a log segment: every row written to it, one checksummed line each."""
    return segment.with_name(segment.stem + ".journal")


def digest_path(segment: Path) -> Path:
    return segment.with_name(segment.stem + ".digest")


def segment_path(profile: Path, n: int) -> Path:
    return profile / "reviews" / f"{n:06d}.json"


def file_kind(path: Path) -> str | None:
    """What a save file holds, from its name (the ``kind`` in its meta table)."""
    if SEGMENT_FILE.fullmatch(path.name):
        return "reviews"
    return {"state.json": "state", "mocks.json": "mocks", "manifest.json": "manifest",
            "manifest.newest.json": "manifest"}.get(path.name)
