"""Checks of the values save files hold, shared by a review row's and the other checks: days, UTC times,
text, whole numbers and an item's SM-2 state, each with its bounds (see :mod:`engine.storage.validation`)."""

from __future__ import annotations

import math
import re
from datetime import UTC, date, datetime, timedelta
from typing import Any, TypeGuard

from .patterns import pattern
from .records import frozen
from .sm2 import MAX_INTERVAL, ItemState

MIN_DAY, MAX_DAY = "2000-01-01", "2999-12-31"  # ISO days compare as strings
MAX_EF = 100.0  # SM-2 adds at most 0.1 per review, and intervals stop growing at MAX_INTERVAL long before
MAX_REPS = 10_000
MAX_ID = 2**53  # ids and seeds: exact in any JSON reader
MAX_TYPED = 10_000  # characters of a typed answer (drill check takes at most this many)
MAX_NAME = 200  # characters of an item or topic id
MAX_DEPTH = 16  # nesting of a setting's value or a mock result
MAX_TEXT = 100_000  # characters of any other string (a setting, a mock result)
TS = re.compile(r"(\d{4}-\d\d-\d\d)T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ")
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # C0 and C1 controls (ESC starts a terminal escape sequence)
SURROGATE = pattern("[\ud800-\udfff]")  # half of a UTF-16 pair: not text, and not writable as UTF-8


def text_ok(s: str) -> bool:
    """True when ``s`` can be written as UTF-8 (it holds no lone surrogate)."""
    return s.isascii() or SURROGATE.search(s) is None


def is_int(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


STATE_KEYS = frozenset(("ef", "interval", "reps", "due", "last"))


def day_ok(v: Any) -> bool:
    """None, or a real day YYYY-MM-DD between MIN_DAY and MAX_DAY."""
    if v is None:
        return True
    if type(v) is not str or len(v) != 10 or not MIN_DAY <= v <= MAX_DAY:
        return False
    try:
        date.fromisoformat(v)
        return True
    except ValueError:
        return False


def ts_ok(v: Any) -> bool:
    """A real UTC time like 2026-11-29T15:42:01Z on a day between MIN_DAY and MAX_DAY."""
    return type(v) is str and (m := TS.fullmatch(v)) is not None and day_ok(m.group(1))


def state_ok(d: Any) -> bool:
    """A quick yes for a well-formed state dict (:func:`state_problem` explains a no)."""
    if type(d) is not dict or not d.keys() <= STATE_KEYS:
        return False
    ef, iv, reps = d.get("ef", 2.5), d.get("interval", 0), d.get("reps", 0)
    due, last = d.get("due"), d.get("last")
    # a state SM-2 can produce: an interval of at least 1 once reviewed, due not before the last review
    return (type(ef) in (float, int) and 1.3 <= ef <= MAX_EF and type(iv) is int and 0 <= iv <= MAX_INTERVAL
            and type(reps) is int and 0 <= reps <= MAX_REPS and (reps == 0 or iv >= 1) and day_ok(due)
            and day_ok(last) and (due is None or last is None or due >= last))


def state_problem(d: Any) -> str | None:
    """The first problem of an item state, or None (what may be dated when: :func:`state_future`)."""
    try:
        st = ItemState.from_dict(d)
    except ValueError as e:
        return str(e)
    if st.ef > MAX_EF:
        return f"ef must be at most {MAX_EF:g}, not {d['ef']!r}"
    if st.interval > MAX_INTERVAL:
        return f"interval must be at most {MAX_INTERVAL} days, not {st.interval!r}"
    if st.reps > MAX_REPS:
        return f"reps must be at most {MAX_REPS}, not {st.reps!r}"
    for key in ("due", "last"):
        if not day_ok(d.get(key)):
            return f"{key} must be a day between {MIN_DAY} and {MAX_DAY}, not {d.get(key)!r}"
    return None


# What an import calls "in the future".  Save files date an answer by its UTC instant (a row's ``ts``, a mock's)
# and by the learner's local day (a row's ``date``, a state's ``last`` and ``due``), and the file may come
# from any time zone: an answer given at 00:30 on the 8th at UTC+14 is 10:30 UTC on the 7th, when a machine at
# UTC-11 is still on the 6th, and its export imports there the same instant.  The importer's own local day
# says nothing of that, so the importer's instant is compared with instants: a day is read as its earliest
# instant anywhere on earth (its midnight at UTC+14, the first zone to start a day), so a day is in the future
# only while it has not begun anywhere yet.  On top, SKEW: a clock a day or so wrong on either machine still
# imports; a file dated beyond that is named, and its rest imported only when asked (``--skip-future``).
EARLIEST_ZONE = timedelta(hours=14)  # UTC+14 (Kiribati's Line Islands)
SKEW = timedelta(days=2)


@frozen
class Horizon:
    """The latest an import admits, at the importer's instant ``now`` plus :data:`SKEW`, as the strings save
    files date things by (UTC times and ISO days compare as strings, so 200,000 rows cost nothing to check)."""

    ts: str  # the latest UTC time, 2026-12-09T13:40:00Z
    day: str  # the latest local day: the last to have begun somewhere on earth by then
    due: str  # the latest due day: MAX_INTERVAL days after that (a state due later was never scheduled by SM-2)

    @classmethod
    def after(cls, now: datetime) -> Horizon:
        """``now`` must be aware (a UTC instant, ``datetime.now(UTC)``)."""
        limit = now.astimezone(UTC) + SKEW
        # a day d has begun somewhere by ``limit`` when its midnight at UTC+14 (d 00:00 UTC - 14 h) <= limit,
        # that is when d <= the UTC day of limit + 14 h
        day = (limit + EARLIEST_ZONE).date()
        return cls(limit.strftime("%Y-%m-%dT%H:%M:%SZ"), day.isoformat(),
                   (day + timedelta(days=MAX_INTERVAL)).isoformat())


def state_future(d: Any, horizon: Horizon) -> bool:
    """True when a valid state (:func:`state_problem`) is dated beyond ``horizon``: its last review, or a due
    day further than any SM-2 interval from it."""
    last, due = d.get("last"), d.get("due")
    return (last is not None and last > horizon.day) or (due is not None and due > horizon.due)


def number_problem(key: str, v: Any, low: int, high: int, *, whole: bool = False) -> str | None:
    """``quality must be a whole number 0-5, not 9``; a bound of MAX_ID reads as none (``>= 1``)."""
    if isinstance(v, bool) or not (isinstance(v, int) if whole else isinstance(v, (int, float))) \
            or (isinstance(v, float) and not math.isfinite(v)) or not low <= v <= high:
        kind = "whole number" if whole else "number"
        span = (f" of size at most {MAX_ID}" if low <= -MAX_ID else f" >= {low}" if high >= MAX_ID
                else f" {low}-{high}")
        return f"{key} must be a {kind}{span}, not {v!r:.80}"
    return None


class InvalidDocument(ValueError):
    """An import document (or a row) that fails validation: names the first problem."""


def listed(names: list, more: str, shown: int = 10) -> str:
    """``1, 2, 3`` or ``'a', 'b'`` (names quoted), at most ``shown`` of them, then ``more`` with ``{n}`` the rest."""
    out = ", ".join(repr(x) if isinstance(x, str) else str(x) for x in names[:shown])
    return out + (" " + more.format(n=len(names) - shown) if len(names) > shown else "")


class FutureDated(InvalidDocument):
    """An import document valid but for what it dates beyond the importer's :class:`Horizon`: the review ids,
    the items' names and the mock ids, in file order (the CLI words them in either language)."""

    def __init__(self, now: datetime, reviews: list[int], states: list[str], mocks: list[int]):
        self.now, self.reviews, self.states, self.mocks = now.astimezone(UTC), reviews, states, mocks
        parts = [f"{what} {listed(names, 'and {n} more')}"
                 for what, names in (("review ids", reviews), ("states", states), ("mock ids", mocks)) if names]
        super().__init__(f"dated more than {SKEW.days} days after now ({self.now:%Y-%m-%dT%H:%M:%SZ}): "
                         + "; ".join(parts))
