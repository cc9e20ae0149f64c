"""FSRS beside SM-2: the ``fsrs`` package (FSRS-6) with its default weights, in whole days.

SM-2 stays the default.  A profile switched to FSRS (``drill plan --scheduler fsrs``) schedules each item by
FSRS's memory model: its **stability** S (days until recall falls to 90 %) and **difficulty** D, updated
by every scheduled review.  Choices, as Anki does with FSRS but for an interview drill:

* the default weights (:data:`fsrs.scheduler.DEFAULT_PARAMETERS`) and desired retention 0.9, or the
  profile's own (:class:`Tuning`): weights fitted to the learner's log (``drill plan --optimize``,
  :mod:`engine.schedule.fsrs_fit`; the ``fsrs`` package's own optimizer needs torch: not used) and a retention
  from 0.80 to 0.97 (``drill plan --retention``);
* **day granularity**: no minute learning or relearning steps (a miss is due again the next day at the
  earliest, as in SM-2); every review happens at noon UTC of its day, so intervals are whole days;
* **no fuzz**, so the same history always gives the same due date (tests are deterministic);
* grades: SM-2 quality 0-2 is *Again*, 3 *Hard*, 4 and 5 *Good*; *Easy* only when the learner presses it
  (the app's ``e`` re-grade, ``pressed``).  A quick right answer is quality 5 for SM-2, but speed is not
  FSRS's Easy: passed as Easy it would put a first review 8 days out instead of 2.

**Migration** replays history, both ways: an item's FSRS memory is its scheduled reviews
``(day, quality, pressed)`` (:class:`Scheduled`; ``pressed`` as the row keeps it, so a pressed Easy replays as Easy)
replayed through FSRS (:func:`replay`); its SM-2 state is what the same reviews make through SM-2 (the tests
replay them to check).  So switching never loses what the learner did, and switching back gives exactly the
SM-2 state the same answers would have made.  SM-2's easiness and repetitions are also kept on every FSRS
review (the state file's ``ef`` and ``reps``), so Browse and the statistics read the same fields.

Pure: the caller passes the days.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime, time, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING

from engine.records import NamedTuple, replace

from ..sm2 import MAX_INTERVAL, ItemState, next_ef
from .stretch import place

if TYPE_CHECKING:
    pass


class Scheduler(StrEnum):
    """The algorithm that spaces a profile's reviews: its ``scheduler`` setting, as saved and as typed."""

    SM2 = "sm2"
    FSRS = "fsrs"


SCHEDULERS = tuple(Scheduler)  # in the order `drill plan` and the validator name them
_CARD_ID = 1  # the package's Card() without an id sleeps 1 ms to make one: every card here gets this one


class Memory(NamedTuple):
    """An item's FSRS memory after its last scheduled review."""

    stability: float  # days until predicted recall falls to 90 %
    difficulty: float  # 1 (easy) .. 10 (hard)
    last: date  # the day of the last review
    interval: int  # the interval FSRS chose then (days)


class Tuning(NamedTuple):
    """The profile's FSRS parameters: its fitted weights (None: the defaults) and its desired retention."""

    weights: tuple[float, ...] | None = None
    retention: float = 0.9


DEFAULT = Tuning()


@functools.lru_cache(maxsize=4)
def scheduler(tuning: Tuning = DEFAULT):
    """The FSRS scheduler of ``tuning`` (weights, retention), whole days, no fuzz."""
    from fsrs import Scheduler

    extra = {} if tuning.weights is None else {"parameters": tuple(tuning.weights)}
    return Scheduler(**extra, desired_retention=tuning.retention, learning_steps=(), relearning_steps=(),
                     enable_fuzzing=False, maximum_interval=MAX_INTERVAL)


def rating(quality: int, pressed: bool = False):
    """The FSRS rating of an SM-2 quality: 0-2 Again, 3 Hard, 4 Good, 5 Good - or Easy when ``pressed``
    (the learner chose the grade; an automatic grade is never Easy)."""
    from fsrs import Rating

    if isinstance(quality, bool) or not isinstance(quality, int) or not 0 <= quality <= 5:
        raise ValueError(f"quality must be a whole number 0-5, not {quality!r}")
    if quality == 5 and pressed:
        return Rating.Easy
    return Rating.Again if quality < 3 else Rating.Hard if quality == 3 else Rating.Good


def _noon(day: date) -> datetime:
    return datetime.combine(day, time(12), UTC)


def step(memory: Memory | None, quality: int, on: date, tuning: Tuning = DEFAULT, pressed: bool = False) -> Memory:
    """The memory after a review of ``quality`` on ``on`` (``memory`` None: the item's first review), by the
    FSRS of ``tuning`` (``pressed``: the learner chose the grade, :func:`rating`)."""
    from fsrs import Card, State

    if memory is not None and on < memory.last:
        raise ValueError(f"a review on {on} is before the last one ({memory.last})")
    if memory is None:
        card = Card(card_id=_CARD_ID)
    else:
        card = Card(card_id=_CARD_ID, state=State.Review, stability=memory.stability,
                    difficulty=memory.difficulty, due=_noon(memory.last + timedelta(days=memory.interval)),
                    last_review=_noon(memory.last))
    card, _ = scheduler(tuning).review_card(card, rating(quality, pressed), _noon(on))
    interval = max(1, min(MAX_INTERVAL, (card.due.date() - on).days))
    return Memory(float(card.stability), float(card.difficulty), on, interval)


class Scheduled(NamedTuple):
    """One scheduled review of an item, as FSRS replays it: its day, its quality, and whether the learner chose
    the grade (the row's ``pressed``: only then is a 5 *Easy*)."""

    day: date
    quality: int
    pressed: bool = False


def replay(history: Iterable[tuple], tuning: Tuning = DEFAULT) -> Memory | None:
    """An item's FSRS memory from its scheduled reviews (:class:`Scheduled`, or ``(day, quality)`` pairs: nothing
    pressed), oldest first, by the FSRS of ``tuning`` (None: no review)."""
    memory = None
    for day, quality, *pressed in history:
        memory = step(memory, quality, day, tuning, bool(pressed and pressed[0]))
    return memory


def retrievability(memory: Memory | None, day: date, tuning: Tuning = DEFAULT) -> float:
    """FSRS's predicted recall of the item on ``day`` (0 for an item never reviewed)."""
    if memory is None:
        return 0.0
    s = scheduler(tuning)
    elapsed = max(0, (day - memory.last).days)
    return (1 + s._FACTOR * elapsed / memory.stability) ** s._DECAY


def review(state: ItemState | None, memory: Memory | None, quality: int, on: date, interview: date | None = None,
           load: Mapping[date, int] | None = None, cap: int | None = None,
           tuning: Tuning = DEFAULT, pressed: bool = False) -> tuple[ItemState, Memory]:
    """The state after a review under FSRS (of ``tuning``): the due date FSRS gives (placed in the final stretch
    before an interview, :func:`engine.schedule.stretch.place`), with SM-2's easiness and repetitions kept
    beside it (``pressed``: the learner chose the grade, :func:`rating`)."""
    state = state or ItemState()
    memory = step(memory, quality, on, tuning, pressed)
    due = place(on, on + timedelta(days=memory.interval), interview, load, cap)
    reps = 0 if quality < 3 else state.reps + 1
    after = replace(state, ef=next_ef(state.ef, quality), interval=memory.interval, reps=reps, due=due, last=on)
    return after, memory


def history_of_digest(d) -> dict[str, list[Scheduled]]:
    """Each item's scheduled reviews (:class:`Scheduled`), oldest day first, from an ``engine.digest.Digest``: the rows
    that moved the schedule (``interval`` not None) and carry it (``step`` None)."""
    out: dict[str, list[Scheduled]] = {}
    for day, item, step, quality, interval, pressed in zip(d.date, d.item, d.step, d.quality, d.interval,
                                                           d.pressed):
        if interval is not None and step is None:
            out.setdefault(item, []).append(Scheduled(date.fromisoformat(day), quality, pressed))
    for history in out.values():  # a merged log (drill sync) holds another replica's rows after this one's
        history.sort(key=lambda s: s[0])  # (stable: a day's reviews stay in log order)
    return out
