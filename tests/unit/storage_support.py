"""What the storage tests share: a review row, small segments, days of rows, a built profile."""

import json
from collections import Counter
from datetime import date, datetime, timedelta, timezone

import pytest

from engine.session import review_row
from engine import storage
from engine.storage import layout

DAY = date(2026, 11, 29)


def row(p, item="r1", q=4, day=DAY, schedule=True, mode="practice", **kw):
    when = datetime(day.year, day.month, day.day, 12, tzinfo=timezone.utc)
    return review_row(item=item, topic="roofline", seed=3, quality=q, verdict="correct" if q >= 4 else "wrong",
                      when=when, today=day, state=p.state(item) if schedule else None, schedule=schedule,
                      mode=mode, **kw)


@pytest.fixture
def small_segments(monkeypatch):
    monkeypatch.setattr(layout, "SEGMENT_ROWS", 3)


def files(path):
    return {str(f.relative_to(path)): f.read_bytes() for f in sorted(path.rglob("*")) if f.is_file()}


def build(p):
    p.set_setting("new_per_day", 3)
    for i in range(7):
        p.record(row(p, item=f"i{i % 3}", q=i % 6, day=DAY + timedelta(days=i), typed="新 12 GB", value=1.5))
    p.record(row(p, item="i0", q=2, schedule=False, mode="redrill", step=2))
    p.add_mock({"ts": "2026-11-29T12:00:00Z", "questions": [{"item": "i1"}], "score": {"correct": 0}})


def state_tables(tmp_path) -> dict:
    return json.loads((tmp_path / "default" / "state.json").read_text())


def record_days(p, days: dict[int, int]) -> list[dict]:
    """Rows on DAY + k for each k: n items."""
    return [p.record(row(p, item=f"i{k}{i}", day=DAY + timedelta(days=k))) for k, n in days.items()
            for i in range(n)]


def days_of(rows) -> dict:
    return dict(Counter(date.fromisoformat(r["date"]) for r in rows))


def recent_of(rows) -> dict:
    """Each item's latest answers, by their definition: read straight from the rows."""
    out = {}
    for item in dict.fromkeys(r["item"] for r in rows):
        mine = [r for r in rows if r["item"] == item]
        whole = [r for r in mine if r["step"] is None]
        out[item] = storage.ItemRecent(tuple(r["quality"] for r in mine[-storage.RECENT_QUALITIES:]),
                                       whole[-1]["verdict"] if whole else None, whole[-1]["date"] if whole else None,
                                       whole[-1]["quality"] if whole else None)
    return out
