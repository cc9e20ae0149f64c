"""What an answer records: the review row, and the one function every face builds it with (:func:`record`).

Every face (the app's session, the mock's save, ``drill check --record``) hands :func:`record` the same facts,
so the scheduler, the final stretch's load and the cap are the same on every path
(``drill/core/recording.py`` reads the learner's :class:`Book` from the profile).  An answer given off the
schedule (extra practice, Browse, a mock, paper) moves it by :func:`moves_schedule`.  What a grade means
beyond its quality (a grade the learner pressed, a cap and why) is :mod:`engine.grades`.

Pure: no I/O, no clock.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime, timedelta
from enum import StrEnum

from engine.patterns import pattern
from engine.records import NamedTuple

from .hints import capped
from .review import MAX_SECONDS, MODES, VERDICTS, Review
from .review_mode import ReviewMode
from .schedule import fsrs_bridge, stretch
from .schedule.fsrs_bridge import Scheduler
from .schedule.pace import Catalog, new_available, plan_for
from .schedule.stretch import load_of, returns
from .sm2 import ItemState, review

DEFAULT_NEW_PER_DAY = 5
LAPSE = 3  # a quality below this is a lapse: SM-2 restarts the item


class Rules(NamedTuple):
    """What the profile says about scheduling an answer (``drill plan``; :func:`record`): the
    scheduler, the interview date, the daily review cap and the new items a day (the final stretch leaves
    room for the new items still to come), and FSRS's weights and desired retention (``drill plan --optimize``,
    ``--retention``)."""

    scheduler: str = Scheduler.SM2
    interview: date | None = None
    cap: int | None = None
    new_per_day: int = DEFAULT_NEW_PER_DAY
    tuning: fsrs_bridge.Tuning = fsrs_bridge.DEFAULT


def moves_schedule(state: ItemState | None, quality: int, today: date) -> bool:
    """Does an answer given off the schedule (extra, Browse, mock, paper) move the item's SM-2 state?

    Yes for its first answer anywhere (``state`` None: it enters SM-2 with this
    quality), when the item is due (a review at its time), and on a lapse
    (quality < 3: the item restarts); otherwise it is only logged.
    """
    return state is None or quality < LAPSE or (state.due is not None and state.due <= today)


def iso_utc(when: datetime) -> str:
    """``2026-11-29T15:42:01Z`` from an aware datetime."""
    if when.tzinfo is None:
        raise ValueError("a review timestamp must be timezone-aware")
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


_UNSTORED = pattern("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")  # C0 and C1 controls, lone surrogates (compiled when first used)


def stored_text(typed: str) -> str:
    """What a review row keeps of a typed answer: without the whitespace around it, and with any control
    character left (a terminal escape, a tab inside it; a lone surrogate) written as Python escapes it
    (``\\x1b``), so a row never drives a terminal and an export always imports (engine.storage.validation)."""
    typed = typed.strip()
    if typed.isprintable():
        return typed
    return _UNSTORED.sub(lambda m: repr(m.group())[1:-1], typed)  # (a no-break or ideographic space stays)


def review_row(*, item: str, topic: str, seed: int, quality: int, verdict: str, when: datetime, today: date,
               state: ItemState | None, schedule: bool, mode: str = ReviewMode.PRACTICE, typed: str = "",
               value: float | str | None = None, seconds: float | None = 0.0, step: int | None = None,
               interview: date | None = None, hardware: str | None = None, load: Mapping[date, int] | None = None,
               cap: int | None = None, scheduler: str = Scheduler.SM2, memory: fsrs_bridge.Memory | None = None,
               conventions: Mapping[str, str] | None = None, model: str | None = None,
               pressed: bool = False, tuning: fsrs_bridge.Tuning = fsrs_bridge.DEFAULT,
               hint: int | None = None) -> Review:
    """A review row (:class:`engine.review.Review`, not yet recorded) ready for ``Profile.record``.

    ``today`` is the learner's local date of the answer.  With ``schedule`` the
    item's state moves on (``before`` is None for a new item; the last reviews
    before ``interview`` go into the final stretch given the reviews due each
    day ``load`` and the daily ``cap``, see :mod:`engine.schedule.stretch`) by
    SM-2, or by FSRS (``scheduler`` "fsrs", from the item's FSRS ``memory``:
    :func:`engine.schedule.fsrs_bridge.review`, of the profile's ``tuning``; ``pressed``: the learner chose the grade, the only way to
    FSRS's Easy, kept in the row); without it ``before``
    ``hint``: the hint taken before answering (1 or 2, :mod:`engine.hints`), kept in the row; the quality is
    capped by it here, so no path records a hinted answer above its cap.
    and ``after`` are None and nothing changes.
    ``seconds`` None: the time was not measured (an answer checked on paper);
    the statistics leave such a row out of every time figure.  A time past
    :data:`MAX_SECONDS` (the app left open for months, a clock that jumped) is
    no measurement of an answer either: None too.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if verdict not in VERDICTS:
        raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}, not {verdict!r}")
    if hint is not None:
        quality = capped(quality, hint)
    before = after = None
    if schedule:
        if scheduler == Scheduler.FSRS:
            after = fsrs_bridge.review(state, memory, quality, today, interview, load, cap, tuning, pressed)[0].to_dict()
        else:
            after = review(state or ItemState(), quality, today, interview, load, cap).to_dict()
        before = state.to_dict() if state is not None else None
    elif not (isinstance(quality, int) and not isinstance(quality, bool) and 0 <= quality <= 5):
        raise ValueError(f"quality must be a whole number 0-5, not {quality!r}")
    return Review(
        None, iso_utc(when), today.isoformat(), item, topic, int(seed), step, stored_text(typed),
        stored_text(value) if isinstance(value, str) else value, verdict, quality,
        None if seconds is None or not 0 <= seconds <= MAX_SECONDS else round(float(seconds), 3),
        mode, bool(schedule), before, after,
        hardware or None,  # the chip the problem was drawn on (--hardware ID)
        dict(conventions) if conventions else None,  # its conventions off their default
        model or None,  # the model it was drawn of (--model ID)
        True if pressed else None,  # the learner chose the grade (absent: the grader's)
        hint)  # the hint taken before answering (absent: none)


class Moves(StrEnum):
    """Whether an answer moves its item's schedule."""

    ALWAYS = "always"  # asked by the schedule (a due or new card)
    OFF_SCHEDULE = "off_schedule"  # given off it (extra, Browse, a mock, paper): moves_schedule
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
    gaps = first_gaps(rules.scheduler, rules.tuning)
    while n > 0 and day < rules.interview:
        for gap in gaps:
            d = day + timedelta(days=gap)
            if d < rules.interview:
                out[d] = out.get(d, 0) + n
        left -= n
        day += timedelta(days=1)
        n = min(per_day, left)
    return out


def first_gaps(scheduler: str, tuning: fsrs_bridge.Tuning) -> tuple[int, int]:
    """The days from a new item's first answer to its first and second reviews when both pass, by the profile's
    scheduler: SM-2's 1 and 1 + 6; FSRS's own (2 and 13 on the default weights)."""
    if scheduler != Scheduler.FSRS:
        return (1, 7)
    return fsrs_gaps(tuning)


@functools.lru_cache(maxsize=8)
def fsrs_gaps(tuning: fsrs_bridge.Tuning) -> tuple[int, int]:
    day = date(2000, 1, 1)  # any day: FSRS's intervals depend on the gaps alone
    first = fsrs_bridge.step(None, 4, day, tuning)
    second = fsrs_bridge.step(first, 4, day + timedelta(days=first.interval), tuning)
    return (first.interval, first.interval + second.interval)


def stretch_load(book: Book, item: str, today: date) -> dict[date, int] | None:
    """The reviews due each day but ``item``'s, with the new items' to come, and on the days already past the
    reviews made on them, as far as the states tell (each item's last review; None without an interview)."""
    if book.rules.interview is None:
        return None
    load = load_of({i: st.due for i, st in book.states.items() if i != item})
    for i, st in book.states.items():
        if i != item and st.last is not None and st.last < today:
            load[st.last] = load.get(st.last, 0) + 1
    for d, n in intake(book, today).items():
        load[d] = load.get(d, 0) + n
    met = [st for i, st in book.states.items() if i != item and st.last is not None]
    missed = sum(1 for st in met if st.reps == 0) / len(met) if met else 0.0
    return returns(load, today, book.rules.interview, missed, stretch.FINAL_PASS.reserve)


def record(book: Book, drawn: Drawn, *, quality: int, verdict: str, when: datetime, today: date, mode: str,
           moves: Moves, typed: str = "", value: float | str | None = None, seconds: float | None = 0.0,
           step: int | None = None, pressed: bool = False, hint: int | None = None) -> Review:
    """The review row of an answer (not yet stored: ``Profile.record`` stores it).

    ``moves``: :attr:`Moves.ALWAYS` for a card the schedule asked, :attr:`Moves.OFF_SCHEDULE` for an answer
    given off it (moved by :func:`moves_schedule`), :attr:`Moves.NEVER` for a row only logged.
    A row that moves the schedule does so by the book's scheduler (FSRS from the item's memory), and, with an
    interview date, puts the item's last review in the final stretch given the load and the daily cap.
    ``pressed``: the grade was chosen by the learner (a re-grade), not given by the grader: the row keeps it, and
    under FSRS only such a 5 is Easy (:func:`engine.schedule.fsrs_bridge.rating`); SM-2 reads the quality alone.
    ``hint``: the hint taken before answering (:mod:`engine.hints`): the quality is capped by it and the row keeps it.
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
                      conventions=drawn.conventions, model=drawn.model, pressed=pressed,
                      tuning=rules.tuning, hint=hint)
