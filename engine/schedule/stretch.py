"""The final stretch before an interview: where an item's last reviews go.

A review made on day ``on`` before the interview ``I`` that the scheduler (SM-2 or FSRS) would make due on or
after ``I`` is the item's last review before the interview unless it is moved.  The rule
(:func:`place`), with ``iv`` the interval the scheduler chose (its estimate of how long the item is held):

* The item's **reach** is ``iv // 2`` days, between 1 and :data:`STRETCH_DAYS` (14): a review made that close
  to the interview leaves its recall on the day near the top (half an interval into a forgetting curve that
  is at 90 % after the whole interval).  A review already within its reach of the interview keeps the
  scheduler's due date, after the interview.
* Otherwise the next review goes into the final stretch (the :data:`STRETCH_DAYS` days before the interview,
  after the review day): on its least loaded day, counting the reviews already due and those the new items
  still to come will bring (the latest such day on a tie, for the best recall).  So the final days share
  the load instead of piling it on the eve.  A day at the daily review cap is passed over; when every day
  of the stretch is full the review goes earlier (the latest day before it with room), never later.
* Only the due date moves: the interval kept is the scheduler's own (SM-2's ``ceil(interval x EF)``, FSRS's
  from its stability), so a review made early does not shrink the next interval (no review spiral), and
  SM-2's arithmetic is untouched.
* The interview day itself asks nothing: a review on the eve that would fall due on the day (a miss, given
  again in that session until it passes; an item met that day) is due the day after instead, and the session
  of the day forces nothing (the warm-up it names is the learner's choice).  So nothing scheduled is due on
  the interview day except what was already overdue.

Without a date, from the interview day on, and for due dates before the interview, the scheduler's date stands.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta

STRETCH_DAYS = 14  # the longest reach: the days before the interview over which last reviews are spread
REACH_SHARE = 2  # reach = interval // REACH_SHARE


def reach(interval: int) -> int:
    """How many days before the interview a review of an item with next interval ``interval`` may be made
    and still leave its recall near the top on the day: ``interval // 2``, between 1 and 14."""
    return max(1, min(STRETCH_DAYS, interval // REACH_SHARE))


def place(on: date, due: date, interview: date | None, load: Mapping[date, int] | None = None,
          cap: int | None = None) -> date:
    """The due date of a review made on ``on`` that the scheduler makes due on ``due``, given an interview on
    ``interview`` (None: no date), the reviews already due on each day (``load``) and the daily cap.
    See the module docstring."""
    if interview is None or on >= interview or due < interview:
        return due
    if due == interview and (interview - on).days == 1:  # a miss on the eve (re-drilled that day): after the day
        return interview + timedelta(days=1)
    r = reach((due - on).days)
    if (interview - on).days <= r:
        return due
    load = load or {}
    full = (lambda d: load.get(d, 0) >= cap) if cap is not None else (lambda d: False)
    first = max(on + timedelta(days=1), interview - timedelta(days=STRETCH_DAYS))
    window = [interview - timedelta(days=k) for k in range(1, (interview - first).days + 1)]  # latest first
    open_ = [d for d in window if not full(d)]
    if open_:
        return min(open_, key=lambda d: (load.get(d, 0), -d.toordinal()))
    day = first - timedelta(days=1)
    while day > on:
        if not full(day):
            return day
        day -= timedelta(days=1)
    return min(window, key=lambda d: (load.get(d, 0), -d.toordinal()))


def load_of(dues: Mapping[str, date | None] | list[date | None]) -> dict[date, int]:
    """The reviews due on each day, from each item's due date."""
    values = dues.values() if isinstance(dues, Mapping) else dues
    out: dict[date, int] = {}
    for d in values:
        if d is not None:
            out[d] = out.get(d, 0) + 1
    return out
