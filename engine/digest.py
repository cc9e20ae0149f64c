"""The review log reduced to the columns the statistics read (:class:`Digest`), as the save files keep it
beside each closed log segment (``engine.storage``) and ``engine.stats`` computes from it."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from .review import Review
from .review_mode import ReviewMode
from .session import MODES, VERDICTS
from .status import Status

DIGEST_FIELDS = ("date", "item", "topic", "seed", "step", "verdict", "quality", "seconds", "mode", "before",
                 "interval", "pressed", "hint")


def _iso_days(values: set) -> bool:
    try:
        return all(len(v) == 10 and date.fromisoformat(v) for v in values)
    except ValueError:
        return False


def _counts(values: set) -> bool:
    values.discard(None)
    return not values or min(values) >= 0


def _durations(values: set) -> bool:
    values.discard(None)  # not measured (a paper answer)
    try:
        return not values or (min(values) >= 0 and math.isfinite(math.fsum(values)))
    except OverflowError:
        return False


_NONE = type(None)
# column: (the types its values may have, a check of its set of distinct values)
_COLUMN_RULES: dict[str, tuple[set, Any]] = {
    "date": ({str}, _iso_days),
    "item": ({str}, lambda vs: "" not in vs),
    "topic": ({str}, lambda vs: "" not in vs),
    "seed": ({int}, None),  # any whole number: only its type is checked
    "step": ({int, _NONE}, lambda vs: all(v is None or v >= 1 for v in vs)),
    # a row recorded this session holds the members (a Status is its string), one read back plain strings
    "verdict": ({str, Status}, lambda vs: vs <= set(VERDICTS)),
    "quality": ({int}, lambda vs: vs <= set(range(6))),
    "seconds": ({int, float, _NONE}, _durations),
    "mode": ({str, ReviewMode}, lambda vs: vs <= set(MODES)),
    "before": ({int, _NONE}, _counts),
    "interval": ({int, _NONE}, _counts),
    "pressed": ({bool}, None),
    "hint": ({int, _NONE}, lambda vs: vs <= {None, 1, 2}),
}


class Digest:
    """Review rows reduced to the columns the figures read: ``d.item[i]`` is row ``i``'s item.

    ``date``, ``item``, ``topic``, ``seed``, ``step``, ``verdict``, ``quality``,
    ``seconds`` and ``mode`` are the rows' fields; ``before`` is the item's
    interval before the review (None without a state before it) and
    ``interval`` the interval a scheduled review gave it (None: the review did
    not move the schedule); ``pressed``: the learner chose the grade (FSRS's Easy); ``hint``: the hint taken
    (``engine.hints``, None: none).  Plain lists of JSON values, so the save files can
    keep one beside each closed log segment (``engine.storage``).
    """

    __slots__ = DIGEST_FIELDS
    # the columns, one per name of DIGEST_FIELDS (set in __init__): declared so a type checker knows them
    date: list[str]
    item: list[str]
    topic: list[str]
    seed: list[int]
    step: list[int | None]
    verdict: list[str]
    quality: list[int]
    seconds: list[float | None]
    mode: list[str]
    before: list[int | None]
    interval: list[int | None]
    pressed: list[bool]
    hint: list[int | None]

    def __init__(self, columns: Mapping[str, list] | None = None) -> None:
        for f in DIGEST_FIELDS:  # the lists are taken, not copied
            setattr(self, f, columns[f] if columns is not None else [])

    @classmethod
    def of_rows(cls, rows: Iterable[Mapping]) -> Digest:
        """The digest of review rows as the log stores them (dicts), as ``engine.storage`` keeps it."""
        # the stored dicts are read as they are: a log of 200,000 rows is digested here, a Review apiece would cost
        rows = rows if isinstance(rows, list) else list(rows)
        cols = {f: [r[f] for r in rows] for f in ("date", "item", "topic", "seed", "step", "verdict", "quality",
                                                 "seconds", "mode")}
        cols["before"] = [b.get("interval", 0) if (b := r["before"]) else None for r in rows]
        cols["interval"] = [(r["after"] or {}).get("interval", 0) if r["scheduled"] else None for r in rows]
        cols["pressed"] = [r.get("pressed") is True for r in rows]
        cols["hint"] = [r.get("hint") for r in rows]
        return cls(cols)

    @classmethod
    def of_reviews(cls, reviews: Iterable[Review]) -> Digest:
        """The digest of review rows (:class:`engine.review.Review`), as :meth:`of_rows` makes it."""
        rs = reviews if isinstance(reviews, list) else list(reviews)
        return cls({"date": [r.date for r in rs], "item": [r.item for r in rs], "topic": [r.topic for r in rs],
                    "seed": [r.seed for r in rs], "step": [r.step for r in rs], "verdict": [r.verdict for r in rs],
                    "quality": [r.quality for r in rs], "seconds": [r.seconds for r in rs],
                    "mode": [r.mode for r in rs],
                    "before": [r.before.get("interval", 0) if r.before else None for r in rs],
                    "interval": [(r.after or {}).get("interval", 0) if r.scheduled else None for r in rs],
                    "pressed": [r.pressed is True for r in rs], "hint": [r.hint for r in rs]})

    @classmethod
    def from_columns(cls, columns: Any, *, check: bool = True) -> Digest:
        """A digest from plain columns as stored; ``ValueError`` names the first problem.

        Without ``check`` only the layout is checked (the columns, of one length),
        not the values: call :meth:`problem` later, on many digests joined.
        """
        if not isinstance(columns, dict) or columns.keys() != set(DIGEST_FIELDS):
            raise ValueError("not the digest's columns")
        if not all(type(columns[f]) is list for f in DIGEST_FIELDS):
            raise ValueError("a column is not a list")
        if len({len(columns[f]) for f in DIGEST_FIELDS}) != 1:
            raise ValueError("the columns differ in length")
        d = cls(columns)
        if check and (p := d.problem()) is not None:
            raise ValueError(p)
        return d

    def problem(self) -> str | None:
        """The first column holding a value a review row cannot have (wrong type or out of range), or None.

        Most columns are checked on their distinct values, so a value equal to a
        right one (4.0 or True for 4 or 1) may pass: it changes no figure.
        """
        for f, (types, check) in _COLUMN_RULES.items():
            col = getattr(self, f)
            try:
                values = set(col) if check is not None else col
            except TypeError:  # a list or an object: unhashable
                return f"column {f!r} holds a value of the wrong type"
            if not set(map(type, values)) <= types:
                return f"column {f!r} holds a value of the wrong type"
            if check is not None and not check(values):
                return f"column {f!r} holds a value out of range"
        return None

    @classmethod
    def joined(cls, parts: Iterable[Digest]) -> Digest:
        out = cls()
        for part in parts:
            for f in DIGEST_FIELDS:
                getattr(out, f).extend(getattr(part, f))
        return out

    def columns(self) -> dict[str, list]:
        return {f: getattr(self, f) for f in DIGEST_FIELDS}

    def __len__(self) -> int:
        return len(self.date)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Digest) and self.columns() == other.columns()
