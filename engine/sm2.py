"""SM-2 spaced repetition, as a pure function.

The schedulable unit is a template (a skill) or a chain; each review draws a
fresh seed, so what is remembered is the method, not one set of numbers.

:func:`review` is the reading of Wozniak's 1990 description used by the
``supermemo2`` package:

* EF (easiness) starts at 2.5.  After every review, failures included,
  ``EF += 0.1 - (5 - q) * (0.08 + (5 - q) * 0.02)``, then floored at 1.3
  (there is no upper cap).
* q < 3: repetitions = 0 and interval = 1 day.  Otherwise the interval is 1
  after the first success (repetitions == 0), 6 after the second, then
  ``ceil(interval * EF)`` with the EF from *before* this review's update;
  then repetitions += 1.
* Due date = review date + interval.

The one addition: intervals stop growing at :data:`MAX_INTERVAL` (100 years),
so that a long run of perfect answers cannot push the due date past the
calendar (``date.max``).

An interview date (``review(..., interview=day)``) changes only the due date
of a review made *before* that day, and only when SM-2's due date would be on
or after it: :func:`engine.schedule.stretch.place` puts the item's next review
on a day of the final stretch as close to the interview as its interval needs,
spread by the load of those days (``load``) and under the daily cap (``cap``),
or leaves SM-2's date when this review is already close enough.  Only the
due date moves: EF, repetitions and the interval are SM-2's own, so the next
SM-2 step grows from SM-2's interval.  Without a date, or on and
after the day itself, this is plain SM-2.

EF is updated in decimal arithmetic (``Decimal(repr(ef))``): every step is a
multiple of 0.02, so EF stays exactly 2.36, 2.04, ... and ``ceil(6 * 2.5)``
is 15, never 16 through a binary rounding error.

Why not the ``supermemo2`` package (3.0.1) itself: its EF is a float, so after
qualities 5, 0, 5, 5, 3 its EF is 2.0000000000000004 and the fifth interval,
``ceil(6 × EF)``, is 13 days instead of 12.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from engine.records import frozen, replace

from .schedule.stretch import place

EF_START = 2.5
EF_FLOOR = 1.3
MAX_INTERVAL = 36_500  # days
_FLOOR = Decimal("1.3")


@frozen
class ItemState:
    """The schedule of one item: easiness, interval (days), repetitions, due date, last review."""

    ef: float = EF_START
    interval: int = 0
    reps: int = 0
    due: date | None = None
    last: date | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ef": self.ef,
            "interval": self.interval,
            "reps": self.reps,
            "due": self.due.isoformat() if self.due else None,
            "last": self.last.isoformat() if self.last else None,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ItemState:
        """Read a state written by :meth:`to_dict`; ``ValueError`` names the first bad field."""
        if not isinstance(d, Mapping):
            raise ValueError(f"an item state must be an object, not {type(d).__name__}")
        unknown = set(d) - {"ef", "interval", "reps", "due", "last"}
        if unknown:
            raise ValueError(f"unknown field {sorted(unknown)[0]!r} in an item state")
        ef = d.get("ef", EF_START)
        if isinstance(ef, bool) or not isinstance(ef, (int, float)) or not math.isfinite(ef) or ef < EF_FLOOR:
            raise ValueError(f"ef must be a number >= {EF_FLOOR}, not {ef!r}")
        ints = {}
        for key in ("interval", "reps"):
            v = d.get(key, 0)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"{key} must be a whole number >= 0, not {v!r}")
            ints[key] = v
        dates: dict[str, date | None] = {}
        for key in ("due", "last"):
            v = d.get(key)
            if v is None:
                dates[key] = None
                continue
            try:
                dates[key] = date.fromisoformat(v) if isinstance(v, str) and len(v) == 10 else None
            except ValueError:
                dates[key] = None
            if dates[key] is None:
                raise ValueError(f"{key} must be a date YYYY-MM-DD or null, not {v!r}")
        if ints["reps"] >= 1 and ints["interval"] < 1:
            raise ValueError(f"interval must be at least 1 day once reps >= 1 (SM-2 never schedules less), "
                             f"not {ints['interval']!r}")
        if dates["due"] is not None and dates["last"] is not None and dates["due"] < dates["last"]:
            raise ValueError(f"due {dates['due'].isoformat()} is before the last review {dates['last'].isoformat()}")
        return cls(float(ef), ints["interval"], ints["reps"], dates["due"], dates["last"])


def state_problem(d: Mapping[str, Any]) -> str | None:
    """Why ``d`` is not a state SM-2 can produce (the field named), or None."""
    try:
        ItemState.from_dict(d)
    except ValueError as e:
        return str(e)
    return None


def next_ef(ef: float, quality: int) -> float:
    """The easiness after a review of quality ``quality``: the SM-2 update, floored at 1.3."""
    miss = 5 - quality
    new = Decimal(repr(float(ef))) + Decimal("0.1") - miss * (Decimal("0.08") + miss * Decimal("0.02"))
    return float(max(new, _FLOOR))


def interview_cap(on: date, due: date, interview: date | None, load: Mapping[date, int] | None = None,
                  cap: int | None = None) -> date:
    """The due date of a review made on ``on`` that SM-2 would make due on ``due``, given an interview on
    ``interview`` (None: no date), the reviews due each day (``load``) and the daily cap
    (:func:`engine.schedule.stretch.place`); unchanged without a date or from that day on."""
    return place(on, due, interview, load, cap)


def review(state: ItemState, quality: int, on: date, interview: date | None = None,
           load: Mapping[date, int] | None = None, cap: int | None = None) -> ItemState:
    """The state after reviewing an item in ``state`` with ``quality`` (0-5) on day ``on``.

    ``interview``: the day of the learner's interview, if set: the last reviews
    before it go into the final stretch (:func:`interview_cap`, given the reviews
    due each day ``load`` and the daily ``cap``).  Pure: ``state`` is frozen and
    returned unchanged; a new state is returned.
    """
    if isinstance(quality, bool) or not isinstance(quality, int) or not 0 <= quality <= 5:
        raise ValueError(f"quality must be a whole number 0-5, not {quality!r}")
    if not isinstance(on, date):
        raise TypeError(f"on must be a date, not {type(on).__name__}")
    if quality < 3:
        reps, interval = 0, 1
    else:
        if state.reps == 0:
            interval = 1
        elif state.reps == 1:
            interval = 6
        else:
            interval = min(MAX_INTERVAL, math.ceil(state.interval * Decimal(repr(float(state.ef)))))
        reps = state.reps + 1
    due = interview_cap(on, on + timedelta(days=interval), interview, load, cap)
    return replace(state, ef=next_ef(state.ef, quality), interval=interval, reps=reps, due=due, last=on)


def overdue_days(state: ItemState, today: date) -> int | None:
    """Days past the due date (0 = due today); None when not due yet or never scheduled."""
    if state.due is None or state.due > today:
        return None
    return (today - state.due).days
