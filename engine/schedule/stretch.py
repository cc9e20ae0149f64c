"""The final stretch before an interview: where an item's last reviews go.

A review made on day ``on`` before the interview ``I`` that the scheduler (SM-2 or FSRS) would make due on or
after ``I`` is the item's last review before the interview unless it is moved.  The rule
(:func:`place`), with ``iv`` the interval the scheduler chose (its estimate of how long the item is held):

* The item's **reach** is ``iv // 2`` days, between 1 and :data:`STRETCH_DAYS` (14): a review made that close
  to the interview leaves its recall on the day near the top (half an interval into a forgetting curve that
  is at 90 % after the whole interval).  A review already within its reach of the interview keeps the
  scheduler's due date, after the interview.
* Otherwise the next review goes into the final stretch (the :data:`STRETCH_DAYS` days before the interview,
  after the review day) by the **final pass** rule (:class:`FinalPass`, :data:`FINAL_PASS`): the least loaded
  of the last ``days`` days before the interview with room, counting the reviews already due and those the
  new items still to come will bring (the latest such day on a tie, for the best recall); when none has room,
  the latest earlier day of the stretch that has.  A day has room below the daily review cap and below the
  rule's ``level`` times the mean load of the days left in the stretch (over a week at least: a review made
  in the last days counts the days already past as empty).  So the final days share the load instead of
  piling it on the eve.  A day still to come also keeps room for the misses of the day before (the rule's
  ``reserve`` x the learner's share of items whose last review failed x that day's reviews, :func:`returns`,
  added by the caller that builds the load): a plan shorter than the stretch meets new items through most of
  it, and without that room the last reviews went to late days the misses then filled.  When no day has
  room, a review made inside the stretch keeps the scheduler's date
  (it was reviewed within two weeks of the day); one made before it goes earlier (the latest day with
  room), never later.
* A review the scheduler makes due inside the stretch, before the interview, goes to the least loaded day
  with room among its due date and its reach before it (the rule's ``spread``; the latest on a tie), or keeps
  its date; when that day is over the level it goes to the latest earlier day with room (never later; as
  Anki's load balancer).  The rule in force was chosen by simulation (``make bench``, docs/scheduling.md):
  among the rules whose reviews due a day over the last 14 days peak at most 1.5x their mean on every path
  for interviews 7 to 40 days out, the one with the best recall on the day.
* Only the due date moves: the interval kept is the scheduler's own (SM-2's ``ceil(interval x EF)``, FSRS's
  from its stability), so a review made early does not shrink the next interval (no review spiral), and
  SM-2's arithmetic is untouched.
* The interview day itself asks nothing: a review on the eve that would fall due on the day (a miss, given
  again in that session until it passes; an item met that day) is due the day after instead, and the session
  of the day forces nothing (the warm-up it names is the learner's choice).  So nothing scheduled is due on
  the interview day except what was already overdue.

Without a date, from the interview day on, and for due dates before the stretch, the scheduler's date stands.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import date, timedelta

from engine.records import NamedTuple

STRETCH_DAYS = 14  # the longest reach: the days before the interview over which last reviews are spread
REACH_SHARE = 2  # reach = interval // REACH_SHARE
MEAN_DAYS = 7  # the level of a rule is taken over the days left in the stretch, or this many at least


def reach(interval: int) -> int:
    """How many days before the interview a review of an item with next interval ``interval`` may be made
    and still leave its recall near the top on the day: ``interval // 2``, between 1 and 14."""
    return max(1, min(STRETCH_DAYS, interval // REACH_SHARE))


class FinalPass(NamedTuple):
    """Where a moved last review goes: the least loaded of the last ``days`` days before the interview, a day
    with room under ``level`` times the mean load of the days left in the stretch (None: no such limit); when
    none of those has room, the latest earlier day of the stretch with room.  ``reserve``: the room a day keeps
    for the misses of the day before (a multiple of the learner's share of items whose last review failed;
    :func:`returns`, applied by the caller that builds the load); ``spread``: a review the scheduler makes due
    inside the stretch goes to the least loaded day with room among its due date and the ``reach`` days before
    it (the latest on a tie)."""

    days: int
    level: float | None
    reserve: float = 0.0  # room kept on a day for the misses of the day before (:func:`returns`), x this
    spread: bool = False  # a review due in the stretch may go to a less loaded day up to its reach earlier


# Chosen by simulation (benchmarks/bench_learning.py, docs/scheduling.md): of the rules whose reviews due per
# day over the last 14 days peak at most 1.5x their mean on every path for interviews 7 to 40 days out, the
# one with the best recall on the interview day.
FINAL_PASS = FinalPass(STRETCH_DAYS, 1.1, 3.0, True)


def place(on: date, due: date, interview: date | None, load: Mapping[date, int] | None = None,
          cap: int | None = None, rule: FinalPass | None = None) -> date:
    """The due date of a review made on ``on`` that the scheduler makes due on ``due``, given an interview on
    ``interview`` (None: no date), the reviews already due on each day (``load``), the daily cap and the
    final pass's ``rule`` (default :data:`FINAL_PASS`).  See the module docstring."""
    if interview is None or on >= interview:
        return due
    rule = rule or FINAL_PASS
    first = max(on + timedelta(days=1), interview - timedelta(days=STRETCH_DAYS))
    if due < interview and (rule.level is None or due < first):
        return due
    if due == interview and (interview - on).days == 1:  # a miss on the eve (re-drilled that day): after the day
        return interview + timedelta(days=1)
    load = load or {}
    window = [interview - timedelta(days=k) for k in range(1, (interview - first).days + 1)]  # latest first
    if not window:  # made on the eve: nothing to choose
        return due
    # the level: the mean load of the stretch's days, those already past counted as ``load`` says (the
    # reviews made on them), over a week at least (a review made in the last days of a plan whose past
    # load is not known counts those days as empty: it waits after the interview rather than pile onto the eve)
    stretch = [interview - timedelta(days=k) for k in range(1, STRETCH_DAYS + 1)]
    span = [d for d in stretch if d > on or load.get(d, 0) > 0]
    days = max(len(span), MEAN_DAYS)
    limit = (math.inf if rule.level is None
             else max(1.0, rule.level * (sum(load.get(d, 0) for d in span) + 1) / days))
    room = lambda d: load.get(d, 0) + 1 <= limit and (cap is None or load.get(d, 0) < cap)  # noqa: E731
    if due < interview:  # due in the stretch: kept, or moved earlier (never later) off a day over the level
        if rule.spread:  # to the least loaded day with room among its due date and the reach before it
            lo = due - timedelta(days=reach((due - on).days))
            near = [d for d in window if lo <= d <= due and room(d)]
            if near:
                return min(near, key=lambda d: (load.get(d, 0), -d.toordinal()))
        return next((d for d in window if d <= due and room(d)), due)
    r = reach((due - on).days)
    if (interview - on).days <= r:
        return due
    open_ = [d for d in window[:rule.days] if room(d)]
    if open_:
        return min(open_, key=lambda d: (load.get(d, 0), -d.toordinal()))
    for d in window[rule.days:]:  # latest first: as close to the interview as the limits allow
        if room(d):
            return d
    if rule.level is not None and on >= interview - timedelta(days=STRETCH_DAYS):
        # reviewed within the stretch already and every day left is at the level: not piled on, and never
        # due on the interview day itself (which asks nothing)
        return max(due, interview + timedelta(days=1))
    full = (lambda d: load.get(d, 0) >= cap) if cap is not None else (lambda d: False)
    day = first - timedelta(days=1)
    while day > on:
        if not full(day):
            return day
        day -= timedelta(days=1)
    return min(window, key=lambda d: (load.get(d, 0), -d.toordinal()))


def returns(load: Mapping[date, int], after: date, before: date, missed: float, reserve: float) -> dict[date, int]:
    """The load with room kept for the misses to come: a review due on a day after ``after`` that fails comes
    back the next day, so each day from ``after`` + 2 to the eve of ``before`` (the interview) also counts
    ``reserve`` x ``missed`` (the share of the learner's items whose last review failed) of the reviews due the
    day before.  A plan shorter than the stretch meets new items through most of it and its load climbs to the
    end: placed without this room, last reviews went to days the next days' misses then filled (1.5-1.8x the
    mean over the last 14 days, FSRS, 8-14 days out)."""
    share = reserve * missed
    if share <= 0:
        return dict(load)
    out = dict(load)
    for d, n in load.items():
        nxt = d + timedelta(days=1)
        if d > after and nxt < before and n > 0:
            out[nxt] = out.get(nxt, 0) + round(share * n)
    return out


def load_of(dues: Mapping[str, date | None] | list[date | None]) -> dict[date, int]:
    """The reviews due on each day, from each item's due date."""
    values = dues.values() if isinstance(dues, Mapping) else dues
    out: dict[date, int] = {}
    for d in values:
        if d is not None:
            out[d] = out.get(d, 0) + 1
    return out
