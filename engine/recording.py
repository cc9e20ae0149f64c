"""The one way an answer becomes a review row: practice, a re-grade, a mock, paper, a chain's step.

Every face (the app's session, the mock's save, ``drill check --record``) hands :func:`record` the same
facts: the problem drawn (:class:`Drawn`), the answer, the day, why it was asked (``mode`` and ``moves``),
and the learner's :class:`Book` (the item states, their FSRS memory, today's new items, and the profile's
:class:`Rules`: scheduler, interview date, daily cap).  So the scheduler, the final stretch's load and the
cap are the same on every path: the same answers on the same days give the same rows and due dates,
whichever face recorded them.  Pure: the caller passes the states and the clock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date, datetime, timedelta
from enum import StrEnum

from engine.records import NamedTuple

from .review import Review
from .schedule import fsrs_bridge
from .schedule.fsrs_bridge import Scheduler
from .schedule.stretch import load_of
from .session import Catalog, Rules, moves_schedule, new_available, plan_for, review_row
from .sm2 import ItemState


class Moves(StrEnum):
    """Whether an answer moves its item's schedule."""

    ALWAYS = "always"  # asked by the schedule (a due or new card)
    OFF_SCHEDULE = "off_schedule"  # given off it (extra, Browse, a mock, paper): engine.session.moves_schedule
    NEVER = "never"  # logged only (a re-drill, a chain's step row)


class Book(NamedTuple):
    """The learner's side of a record: the item states, each item's FSRS memory (None: SM-2, or never
    reviewed), the items first met today on any path (engine.session.met), the retired scaffolds, the bank and the :class:`Rules`."""

    states: Mapping[str, ItemState]
    rules: Rules
    catalog: Catalog = ()
    memory: Callable[[str], fsrs_bridge.Memory | None] | None = None
    met_today: int = 0
    retired: frozenset[str] = frozenset()


class Drawn(NamedTuple):
    """The problem answered: its template, topic and seed, the chip, model and conventions it was drawn on."""

    item: str
    topic: str
    seed: int
    hardware: str | None = None
    model: str | None = None
    conventions: Mapping[str, str] | None = None


def intake(book: Book, today: date) -> dict[date, int]:
    """The reviews the new items still to come (today's allowance left, then the daily limit) will add
    before the interview - their first two reviews, a day and a week after they are met - so that the
    final stretch leaves room for them."""
    rules = book.rules
    out: dict[date, int] = {}
    if rules.interview is None:
        return out
    plan = plan_for(book.states, book.catalog, today, rules.new_per_day, rules.interview, book.met_today,
                    book.retired)
    if not plan.active:
        return out
    left, per_day = plan.left, plan.new_today
    day, n = today, min(new_available(per_day, book.met_today), left)
    while n > 0 and day < rules.interview:
        for gap in (1, 7):
            d = day + timedelta(days=gap)
            if d < rules.interview:
                out[d] = out.get(d, 0) + n
        left -= n
        day += timedelta(days=1)
        n = min(per_day, left)
    return out


def stretch_load(book: Book, item: str, today: date) -> dict[date, int] | None:
    """The reviews due each day but ``item``'s, with the new items' to come (None without an interview)."""
    if book.rules.interview is None:
        return None
    load = load_of({i: st.due for i, st in book.states.items() if i != item})
    for d, n in intake(book, today).items():
        load[d] = load.get(d, 0) + n
    return load


def record(book: Book, drawn: Drawn, *, quality: int, verdict: str, when: datetime, today: date, mode: str,
           moves: Moves, typed: str = "", value: float | str | None = None, seconds: float | None = 0.0,
           step: int | None = None) -> Review:
    """The review row of an answer (not yet stored: ``Profile.record`` stores it).

    ``moves``: :attr:`Moves.ALWAYS` for a card the schedule asked, :attr:`Moves.OFF_SCHEDULE` for an answer
    given off it (moved by :func:`engine.session.moves_schedule`), :attr:`Moves.NEVER` for a row only logged.
    A row that moves the schedule does so by the book's scheduler (FSRS from the item's memory), and, with an
    interview date, puts the item's last review in the final stretch given the load and the daily cap.
    """
    state = book.states.get(drawn.item)
    schedule = moves == Moves.ALWAYS or (moves == Moves.OFF_SCHEDULE and moves_schedule(state, quality, today))
    rules = book.rules
    fsrs = schedule and rules.scheduler == Scheduler.FSRS
    memory = book.memory(drawn.item) if fsrs and book.memory is not None else None
    return review_row(item=drawn.item, topic=drawn.topic, seed=drawn.seed, quality=quality, verdict=verdict,
                      when=when, today=today, state=state if schedule else None, schedule=schedule, mode=mode,
                      typed=typed, value=value, seconds=seconds, step=step,
                      interview=rules.interview if schedule else None, hardware=drawn.hardware,
                      load=stretch_load(book, drawn.item, today) if schedule else None,
                      cap=rules.cap if schedule else None, scheduler=rules.scheduler, memory=memory,
                      conventions=drawn.conventions, model=drawn.model)
