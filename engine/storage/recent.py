"""Each item's latest answers, as the state file keeps them (Browse's last result, a weighted mock's weakness)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from engine.records import frozen

from .layout import RECENT_QUALITIES
from .validation import VERDICT_SET, day_ok


@frozen
class ItemRecent:
    """An item's latest answers, as the state file keeps them.

    ``qualities``: the SM-2 qualities of its last :data:`RECENT_QUALITIES`
    rows, oldest first (every mode, chain steps included); ``verdict``,
    ``date`` and ``quality``: those of its last whole-item row (``step`` None;
    the quality after any override, the verdict the engine's), None while it
    has none (only steps of a chain so far).
    """

    qualities: tuple[int, ...] = ()
    verdict: str | None = None
    date: str | None = None
    quality: int | None = None

    def after(self, quality: int, step: int | None, verdict: str, day: str) -> ItemRecent:
        """These figures once a row with these values is recorded."""
        qualities = (*self.qualities, quality)[-RECENT_QUALITIES:]
        if step is None:
            return ItemRecent(qualities, verdict, day, quality)
        return ItemRecent(qualities, self.verdict, self.date, self.quality)

    def to_dict(self) -> dict:
        return {"qualities": list(self.qualities), "verdict": self.verdict, "date": self.date, "quality": self.quality}

    @classmethod
    def from_dict(cls, d: Any) -> ItemRecent | None:
        """The figures stored as ``d``, or None when they are not well formed (a save from before the
        last whole answer's quality was kept among them too: they are rebuilt from the log)."""
        if type(d) is not dict or d.keys() != {"qualities", "verdict", "date", "quality"}:
            return None
        qs, verdict, day, quality = d["qualities"], d["verdict"], d["date"], d["quality"]
        if (type(qs) is not list or not 1 <= len(qs) <= RECENT_QUALITIES
                or not all(type(q) is int and 0 <= q <= 5 for q in qs)):
            return None
        if not (verdict is None or verdict in VERDICT_SET) or (verdict is None) != (day is None) or not day_ok(day):
            return None
        if (quality is None) != (verdict is None) or not (quality is None or type(quality) is int and 0 <= quality <= 5):
            return None
        return cls(tuple(qs), verdict, day, quality)


NO_RECENT = ItemRecent()


def recent_of(columns: Iterable[tuple[str, int, int | None, str, str]]) -> dict[str, ItemRecent]:
    """Each item's :class:`ItemRecent` from rows (oldest first) given as ``(item, quality, step, verdict, date)``."""
    qualities: dict[str, list[int]] = {}
    last: dict[str, tuple[str, str, int]] = {}
    for item, quality, step, verdict, day in columns:
        qs = qualities.get(item)
        if qs is None:
            qs = qualities[item] = []
        qs.append(quality)
        if step is None:
            last[item] = (verdict, day, quality)
    return {item: ItemRecent(tuple(qs[-RECENT_QUALITIES:]), *last.get(item, (None, None, None)))
            for item, qs in qualities.items()}


def recent_columns(rows: Iterable[Mapping]) -> Iterator[tuple]:
    return ((r["item"], r["quality"], r["step"], r["verdict"], r["date"]) for r in rows)
