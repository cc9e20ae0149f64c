"""The day's practice: which items, in what order, and what each answer records.

Pure: no I/O, no clock.  The caller passes the SM-2 states, the day, and the
bank as ``(item_id, topic)`` pairs in bank order (the engine never imports the
question bank), and records the rows :class:`Session` hands back.

* Due items come first, most overdue first.
* Then new items, at most ``new_per_day`` a day (default 5) counting those
  already introduced today, taken in bank order, so one topic is introduced
  before the next.
* Same-day re-drill (SM-2 step 7): an item that scored below 4 comes back later
  in the session with a new seed until it scores at least 4.  Those repeats are
  recorded with mode ``redrill`` and do not reschedule the item.
* When nothing is due and the day's new items are used up: the next due date,
  and the weakest items for extra practice (mode ``extra``: recorded, but they
  never change the schedule, like cramming).
"""

from __future__ import annotations

import random
from datetime import date, datetime, timezone
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

from .sm2 import ItemState, overdue_days, review

DEFAULT_NEW_PER_DAY = 5
QUEUE_KEY = "queued_items"  # the profile setting: templates the next practice session asks first (a mock's misses)
REDRILL_GAP = 3  # a missed item comes back after this many other cards (or at the end)
PASS_QUALITY = 4  # re-drill until an item scores at least this
MODES = ("practice", "mock", "extra", "redrill", "paper")
VERDICTS = ("correct", "close", "wrong", "dont_know")

Catalog = Sequence[tuple[str, str]]  # (item_id, topic) in bank order


class Card(NamedTuple):
    """One question of the session: which item, with which seed, and why it is asked (immutable; a
    NamedTuple is cheaper to define at import than a dataclass)."""

    item: str
    topic: str
    seed: int
    kind: str  # due | new | redrill | extra
    overdue: int = 0  # days past the due date (due cards)

    @property
    def mode(self) -> str:
        return {"due": "practice", "new": "practice"}.get(self.kind, self.kind)

    @property
    def scheduled(self) -> bool:
        """Does answering this card change the item's SM-2 schedule?"""
        return self.kind in ("due", "new")


def due_items(states: Mapping[str, ItemState], today: date, catalog: Catalog) -> list[tuple[str, str, int]]:
    """``(item, topic, days overdue)`` of the catalog's items due on ``today``, most overdue first."""
    out = []
    for pos, (item, topic) in enumerate(catalog):
        days = overdue_days(states[item], today) if item in states else None
        if days is not None:
            out.append((days, pos, item, topic))
    out.sort(key=lambda t: (-t[0], t[1]))
    return [(item, topic, days) for days, _, item, topic in out]


def introduced(rows: Iterable[Mapping[str, Any]]) -> set[str]:
    """Items whose first scheduled review is among ``rows`` (pass the day's review rows)."""
    return {r["item"] for r in rows if r.get("scheduled") and r.get("before") is None}


def new_items(states: Mapping[str, ItemState], catalog: Catalog, limit: int) -> list[tuple[str, str]]:
    """The next ``limit`` never-reviewed items, in bank order (topic by topic)."""
    if limit <= 0:
        return []
    out = [(item, topic) for item, topic in catalog if item not in states]
    return out[:limit]


def new_available(new_per_day: int, introduced_today: int) -> int:
    return max(0, new_per_day - introduced_today)


def next_due(states: Mapping[str, ItemState], today: date, catalog: Catalog | None = None) -> date | None:
    """The first due date after ``today`` (None when nothing is scheduled)."""
    items = states if catalog is None else {i for i, _ in catalog}
    dues = [s.due for i, s in states.items() if i in items and s.due is not None and s.due > today]
    return min(dues, default=None)


def weakest(states: Mapping[str, ItemState], catalog: Catalog, n: int = 5) -> list[tuple[str, str]]:
    """The ``n`` weakest reviewed items: lowest easiness, then fewest repetitions, shortest interval."""
    order = {item: pos for pos, (item, _) in enumerate(catalog)}
    topic = dict(catalog)
    seen = [i for i in states if i in order]
    seen.sort(key=lambda i: (states[i].ef, states[i].reps, states[i].interval, order[i]))
    return [(i, topic[i]) for i in seen[:n]]


def iso_utc(when: datetime) -> str:
    """``2026-11-29T15:42:01Z`` from an aware datetime."""
    if when.tzinfo is None:
        raise ValueError("a review timestamp must be timezone-aware")
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def review_row(*, item: str, topic: str, seed: int, quality: int, verdict: str, when: datetime, today: date,
               state: ItemState | None, schedule: bool, mode: str = "practice", typed: str = "",
               value: float | str | None = None, seconds: float | None = 0.0, step: int | None = None) -> dict:
    """A review row (see engine.storage) ready for ``Profile.record``.

    With ``schedule`` the item's SM-2 state moves on (``before`` is None for a
    new item); without it ``before`` and ``after`` are None and nothing changes.
    ``seconds`` None: the time was not measured (an answer checked on paper);
    the statistics leave such a row out of every time figure.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if verdict not in VERDICTS:
        raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}, not {verdict!r}")
    before = after = None
    if schedule:
        after = review(state or ItemState(), quality, today).to_dict()
        before = state.to_dict() if state is not None else None
    elif not (isinstance(quality, int) and not isinstance(quality, bool) and 0 <= quality <= 5):
        raise ValueError(f"quality must be a whole number 0-5, not {quality!r}")
    return {
        "ts": iso_utc(when), "date": today.isoformat(), "item": item, "topic": topic, "seed": int(seed),
        "step": step, "typed": typed, "value": value, "verdict": verdict, "quality": quality,
        "seconds": None if seconds is None else round(float(seconds), 3), "mode": mode, "scheduled": bool(schedule),
        "before": before, "after": after,
    }


class Session:
    """A practice session: a queue of cards, the answers given, re-drills and undo.

    ``introduced_today`` is how many new items were already introduced today
    (``len(introduced(profile.reviews_today(today)))``); ``seed`` makes the
    problem seeds reproducible.  ``extra`` builds an extra-practice session of
    the weakest items instead (nothing is rescheduled).
    """

    def __init__(self, states: Mapping[str, ItemState], catalog: Catalog, today: date, *, seed: int,
                 new_per_day: int = DEFAULT_NEW_PER_DAY, introduced_today: int = 0, extra: int = 0,
                 redrill_gap: int = REDRILL_GAP):
        self.today = today
        self.catalog = list(catalog)
        self.states: dict[str, ItemState] = dict(states)
        self.redrill_gap = redrill_gap
        self._rng = random.Random(seed)
        self._last_seed: dict[str, int] = {}
        self._history: list[tuple[list[Card], dict[str, ItemState], tuple, dict[str, int], Card]] = []
        if extra:
            self.cards = [self._card(i, t, "extra") for i, t in weakest(self.states, self.catalog, extra)]
        else:
            due = [self._card(i, t, "due", days) for i, t, days in due_items(self.states, today, self.catalog)]
            fresh = new_items(self.states, self.catalog, new_available(new_per_day, introduced_today))
            self.cards = due + [self._card(i, t, "new") for i, t in fresh]
        self.planned = len(self.cards)

    def _card(self, item: str, topic: str, kind: str, overdue: int = 0) -> Card:
        seed = self._rng.randrange(2**31)
        while seed == self._last_seed.get(item):
            seed = self._rng.randrange(2**31)
        self._last_seed[item] = seed
        return Card(item, topic, seed, kind, overdue)

    @property
    def current(self) -> Card | None:
        return self.cards[0] if self.cards else None

    @property
    def done(self) -> bool:
        return not self.cards

    @property
    def answered(self) -> int:
        return len(self._history)

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    def answer(self, quality: int, verdict: str, *, when: datetime, typed: str = "",
               value: float | str | None = None, seconds: float = 0.0, step: int | None = None) -> dict:
        """Answer the current card: returns the review row to record, moves to the next card.

        A scheduled card (due/new) moves the item's SM-2 state on; any due, new or
        re-drill card answered below 4 comes back ``redrill_gap`` cards later.
        """
        card = self.current
        if card is None:
            raise IndexError("the session has no card left to answer")
        row = review_row(item=card.item, topic=card.topic, seed=card.seed, quality=quality, verdict=verdict,
                         when=when, today=self.today, state=self.states.get(card.item), schedule=card.scheduled,
                         mode=card.mode, typed=typed, value=value, seconds=seconds, step=step)
        self._history.append((list(self.cards), dict(self.states), self._rng.getstate(), dict(self._last_seed), card))
        rest = self.cards[1:]
        if card.scheduled:
            self.states[card.item] = ItemState.from_dict(row["after"])
        if quality < PASS_QUALITY and card.kind != "extra":
            again = self._card(card.item, card.topic, "redrill")
            rest.insert(min(self.redrill_gap, len(rest)), again)
        self.cards = rest
        return row

    def undo(self) -> Card:
        """Take back the last answer (the caller also calls ``Profile.undo_last()``); returns its card."""
        if not self._history:
            raise IndexError("nothing to undo in this session")
        self.cards, self.states, rng_state, self._last_seed, card = self._history.pop()
        self._rng.setstate(rng_state)
        return card

    def next_due(self) -> date | None:
        return next_due(self.states, self.today, self.catalog)

    def weakest(self, n: int = 5) -> list[tuple[str, str]]:
        return weakest(self.states, self.catalog, n)
