"""The pace an interview date needs: new items left, days left, the day new items are done, and a day's share.

Days are counted with today as day 1 and the interview day not counted: an interview tomorrow leaves 1 day.
New items are planned to be met by about two thirds of the days left (:data:`FINISH_SHARE`, rounded up), so
the last third of the time goes to reviewing what was met (a new item needs a few reviews before it is held).
The figures always add up: ``per_day`` is the fewest a day that meets ``left`` items within the planned days,
and ``done_by`` is the day they are met at that rate (``ceil(left / per_day)``, never after the planned day):
"122 new items, 7 days left, new items done by day 5: 25 a day" (25 × 5 >= 122 > 25 × 4).

The pace is advice: the daily limit of new items changes only when the learner accepts it (:class:`Plan`,
:func:`plan_for`: what the interview date means for today's new items).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import date

from engine.records import NamedTuple
from engine.sm2 import ItemState

Catalog = Sequence[tuple[str, str]]  # (item_id, topic) in bank order

FINISH_SHARE = 2 / 3  # new items are met within this share of the days left (rounded up)
PACE_WARNING = 20  # new items a day beyond which a pace is more than a person can do well


class Pace(NamedTuple):
    """``left`` new items over ``days_left`` days (today = day 1): ``per_day`` a day, all met by day ``done_by``
    (0 when nothing is left)."""

    left: int
    days_left: int
    done_by: int
    per_day: int

    @property
    def too_many(self) -> bool:
        return self.per_day > PACE_WARNING

    def fits(self, new_per_day: int) -> bool:
        """Does a daily limit of ``new_per_day`` meet every item left within the planned days?"""
        return self.left == 0 or new_per_day >= self.per_day


def planned_days(days_left: int) -> int:
    """The days in which new items are met: two thirds of ``days_left`` rounded up, at least 1."""
    if days_left < 1:
        raise ValueError(f"days_left must be at least 1, not {days_left}")
    return max(1, math.ceil(days_left * FINISH_SHARE - 1e-9))


def pace(left: int, days_left: int) -> Pace:
    """The pace for ``left`` new items (>= 0) and ``days_left`` days (>= 1, today included)."""
    if left < 0:
        raise ValueError(f"left must be at least 0, not {left}")
    days = planned_days(days_left)
    if left == 0:
        return Pace(0, days_left, 0, 0)
    per_day = math.ceil(left / days)
    return Pace(left, days_left, math.ceil(left / per_day), per_day)


class Plan(NamedTuple):
    """What an interview date means for today's new items (:func:`plan_for`).

    ``pace``: new templates a day that meets every one left by about two thirds of the days left
    (:func:`pace`; None without an interview date or once it is today or past),
    ``done_by`` the day (today = 1) they are all met at that pace; ``new_today``: today's limit, the daily
    setting: the pace is advice, and the limit changes only when the learner accepts it.
    ``too_many``: the pace exceeds :data:`PACE_WARNING`.
    """

    interview: date | None
    days_left: int | None  # days before the interview, today included (0: it is today; negative: passed)
    left: int  # templates never introduced (retired scaffolds not counted)
    pace: int | None
    new_today: int
    done_by: int | None = None

    @property
    def active(self) -> bool:
        """The interview date shapes the schedule (it is after today)."""
        return self.days_left is not None and self.days_left > 0

    @property
    def too_many(self) -> bool:
        return self.pace is not None and self.pace > PACE_WARNING

    @property
    def behind(self) -> bool:
        """The daily limit is below the pace (the learner may accept the pace)."""
        return self.pace is not None and self.new_today < self.pace


def plan_for(states: Mapping[str, ItemState], catalog: Catalog, today: date, new_per_day: int,
             interview: date | None, introduced_today: int = 0, retired: frozenset[str] = frozenset()) -> Plan:
    """Today's new-item limit (``new_per_day``) and, with an interview ahead, the pace that meets every
    template left (at the start of today) by about two thirds of the days left."""
    bank = {i for i, _ in catalog}
    left = sum(1 for i in bank if i not in states and i not in retired)
    if interview is None:
        return Plan(None, None, left, None, new_per_day)
    days = (interview - today).days
    if days <= 0:
        return Plan(interview, days, left, None, new_per_day)
    p = pace(left + introduced_today, days)
    return Plan(interview, days, left, p.per_day, new_per_day, p.done_by)


def new_available(new_per_day: int, introduced_today: int) -> int:
    return max(0, new_per_day - introduced_today)
