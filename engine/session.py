"""The day's practice: which items, in what order, and what each answer records.

Pure: no I/O, no clock.  The caller passes the SM-2 states, the day, and the
bank as ``(item_id, topic)`` pairs in bank order (topic by topic, easier
templates first; the engine never imports the question bank), and records the
rows :class:`Session` hands back.

* Due items come first, most overdue first, at most ``reviews_per_day`` a day
  (counting the reviews already made today).
* Then new items, at most ``new_per_day`` a day (default 5) counting those
  already introduced today, breadth-first (:func:`new_items`): the topic with
  the fewest items introduced so far next, topics in bank order on a tie, and
  within a topic the easiest first, chains last (and only once the single
  templates of their steps were passed).  With an interview date
  (:class:`Plan`) the pace that meets every template in time is advice: the
  daily number changes only when the learner accepts it.
* Same-day re-drill (SM-2 step 7): an item that scored below 4 comes back later
  in the session with a new seed until it scores at least 4.  Those repeats are
  recorded with mode ``redrill`` and do not reschedule the item.
* An answer given off the schedule (extra practice, Browse, a mock, paper)
  moves the schedule by :func:`moves_schedule`: the item's first answer
  anywhere enters SM-2 with its quality; after that an item that is due is
  reviewed as usual, and one that is not moves only on a lapse (quality < 3:
  it restarts, as SM-2 says); otherwise the answer is logged and the due date
  stays.
* When nothing is due and the day's new items are used up: the next due date,
  and the weakest items (by recent quality and lapses, whole bank) for extra
  practice.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date, datetime

from engine.records import NamedTuple

# what an answer records lives in engine.answer_row and the interview's pace in engine.schedule.pace; both are
# read from here too, as they were before the split
from .answer_row import (  # noqa: F401
    DEFAULT_NEW_PER_DAY,
    LAPSE,
    Book,
    Drawn,
    Moves,
    Rules,
    intake,
    iso_utc,
    moves_schedule,
    record,
    review_row,
    stored_text,
    stretch_load,
)
from .hints import capped
from .review import MAX_SECONDS, MODES, VERDICTS, Review  # noqa: F401 (read from here too)
from .review_mode import ReviewMode
from .schedule import fsrs_bridge
from .schedule.fsrs_bridge import Scheduler
from .schedule.interleave import interleave
from .schedule.pace import PACE_WARNING, Catalog, Plan, new_available, plan_for  # noqa: F401
from .sm2 import ItemState, overdue_days

QUEUE_KEY = "queued_items"  # the profile setting: templates the next practice session asks first (a mock's misses)
DEFAULT_REVIEWS_PER_DAY = 200  # Anki's default review cap
REDRILL_GAP = 3  # a missed item comes back after this many other cards (or at the end)
PASS_QUALITY = 4  # re-drill until an item scores at least this


class CardKind(NamedTuple):
    """Why a card is asked, and what answering it does: read from :data:`CARD_KINDS` instead of
    testing the kind's name."""

    name: str
    mode: str  # the review row's mode
    scheduled: bool = False  # part of the schedule (due, new): answering always moves the item's SM-2 state
    extra: bool = False  # asked on request: moves the schedule only by moves_schedule, and never comes back


CARD_KINDS: dict[str, CardKind] = {k.name: k for k in (
    CardKind("due", ReviewMode.PRACTICE, scheduled=True),
    CardKind("new", ReviewMode.PRACTICE, scheduled=True),
    CardKind("redrill", ReviewMode.REDRILL),  # answered below 4 earlier in the session: asked again, logged only
    CardKind("extra", ReviewMode.EXTRA, extra=True),
)}


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
        return CARD_KINDS[self.kind].mode

    @property
    def scheduled(self) -> bool:
        """Is this card part of the schedule (due or new)?  Answering it always moves the item's SM-2
        state; an extra card's answer does by :func:`moves_schedule`, a re-drill's never."""
        return CARD_KINDS[self.kind].scheduled

    @property
    def extra(self) -> bool:
        """Asked on request (extra practice, a queued item): a failed answer does not come back."""
        return CARD_KINDS[self.kind].extra


def due_items(states: Mapping[str, ItemState], today: date, catalog: Catalog) -> list[tuple[str, str, int]]:
    """``(item, topic, days overdue)`` of the catalog's items due on ``today``, most overdue first."""
    out = []
    for pos, (item, topic) in enumerate(catalog):
        days = overdue_days(states[item], today) if item in states else None
        if days is not None:
            out.append((days, pos, item, topic))
    out.sort(key=lambda t: (-t[0], t[1]))
    return [(item, topic, days) for days, _, item, topic in out]


def introduced(rows: Iterable[Review]) -> set[str]:
    """Items introduced by today's session among ``rows`` (pass the day's review rows): their first
    scheduled review, in mode ``practice``.  A first answer given elsewhere (Browse, a mock, paper) also
    schedules the item, but does not use up the day's new items."""
    return {r.item for r in rows if r.scheduled and r.before is None and r.mode == ReviewMode.PRACTICE}


def met(rows: Iterable[Review]) -> set[str]:
    """Items first met among ``rows`` (the day's rows) on any path (practice, Browse, a mock, paper): their
    first scheduled review.  The final stretch counts them against the day's new items (record)."""
    return {r.item for r in rows if r.scheduled and r.before is None}


def reviewed(rows: Iterable[Review]) -> int:
    """Reviews of items already scheduled among ``rows`` (the day's rows), for the daily review cap:
    the whole-item rows of today's session that moved an existing state."""
    return sum(1 for r in rows if r.scheduled and r.before is not None and r.mode == ReviewMode.PRACTICE)


def new_items(states: Mapping[str, ItemState], catalog: Catalog, limit: int,
              is_chain: Callable[[str], bool] | None = None, ready: Callable[[str], bool] | None = None,
              retired: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """The next ``limit`` never-reviewed items, breadth-first across topics.

    Each pick takes the topic with the fewest items introduced so far (those
    in ``states`` and those already picked), the earlier topic in ``catalog``
    on a tie; within the topic its first item in ``catalog`` order (easier
    first) that is not a chain, and its chains after every other item.
    ``is_chain`` is asked only about the items it looks at.  A chain that is
    not ``ready`` (the single templates of its steps not all passed yet,
    :func:`engine.schedule.chains.chain_ready`) waits; a ``retired`` scaffold
    is never met.
    """
    if limit <= 0:
        return []
    topics: dict[str, list[str]] = {}  # never-reviewed items of each topic, in catalog order
    count: dict[str, int] = {}
    for item, topic in catalog:
        topics.setdefault(topic, [])
        count.setdefault(topic, 0)
        if item in states:
            count[topic] += 1
        elif item not in retired:
            topics[topic].append(item)
    rank = {t: k for k, t in enumerate(topics)}
    chain = is_chain or (lambda _item: False)
    if ready is not None:
        for items in topics.values():
            items[:] = [i for i in items if not chain(i) or ready(i)]
    out: list[tuple[str, str]] = []
    while len(out) < limit:
        open_ = [t for t, items in topics.items() if items]
        if not open_:
            break
        topic = min(open_, key=lambda t: (count[t], rank[t]))
        items = topics[topic]
        pick = next((i for i in items if not chain(i)), items[0])
        items.remove(pick)
        count[topic] += 1
        out.append((pick, topic))
    return out


def next_due(states: Mapping[str, ItemState], today: date, catalog: Catalog | None = None) -> date | None:
    """The first due date after ``today`` (None when nothing is scheduled)."""
    items = states if catalog is None else {i for i, _ in catalog}
    dues = [s.due for i, s in states.items() if i in items and s.due is not None and s.due > today]
    return min(dues, default=None)


def weakest(states: Mapping[str, ItemState], catalog: Catalog, n: int = 5,
            recent: Mapping[str, Sequence[int]] | None = None) -> list[tuple[str, str]]:
    """The ``n`` weakest items of the whole bank that have been answered anywhere.

    ``recent``: each item's latest qualities (oldest first; every mode, chain
    steps included).  Weakest first: the lowest mean of those qualities, then
    the most lapses among them (quality < 3), then the lowest easiness, fewest
    repetitions, shortest interval (an item without answers kept in ``recent``
    is ranked by its state alone, after those with the same figures).
    """
    order = {item: pos for pos, (item, _) in enumerate(catalog)}
    topic = dict(catalog)
    recent = recent or {}
    seen = [i for i in order if i in states or recent.get(i)]

    def key(i: str):
        qs = recent.get(i) or ()
        mean = sum(qs) / len(qs) if qs else 5.0
        s = states.get(i)
        return (mean, -sum(1 for q in qs if q < LAPSE), s.ef if s else 2.5, s.reps if s else 0,
                s.interval if s else 0, order[i])

    seen.sort(key=key)
    return [(i, topic[i]) for i in seen[:n]]


def readiness(states: Mapping[str, ItemState], last_quality: Mapping[str, int | None], catalog: Catalog,
              today: date) -> dict[str, tuple[int, int]]:
    """Per topic (in catalog order): ``(ready, templates)``, ready = introduced, its last whole answer
    correct (quality >= 4) and not overdue (due today or later)."""
    out: dict[str, list[int]] = {}
    for item, topic in catalog:
        counts = out.setdefault(topic, [0, 0])
        counts[1] += 1
        s, q = states.get(item), last_quality.get(item)
        if s is not None and q is not None and q >= 4 and (s.due is None or s.due >= today):
            counts[0] += 1
    return {t: (r, n) for t, (r, n) in out.items()}


class Session:
    """A practice session: a queue of cards, the answers given, re-drills and undo.

    ``introduced_today`` is how many new items were already introduced today
    (``len(introduced(profile.reviews_today(today)))``) and ``reviewed_today``
    how many reviews were made (:func:`reviewed`); ``seed`` makes the problem
    seeds reproducible.  ``interview``: the learner's interview date, if set
    (new items paced by :func:`plan_for`; the last reviews before it spread over
    the final stretch, :mod:`engine.schedule.stretch`; on the day itself nothing
    is asked unless chosen: :attr:`warmup`).  ``recent``: each item's latest
    qualities, for :func:`weakest`.  ``is_chain`` tells which items are chains
    (introduced last in their topic, and only once ``chain_ready`` says the single
    templates of their steps were passed).  ``retired``: scaffolds no longer
    scheduled.  ``step_drills``: single templates to practise alone from a day on
    (a chain's failed step), asked after the due items.  ``scheduler``: "sm2" or
    "fsrs" (``memory`` gives an item's FSRS memory, replayed from its history).
    ``extra`` builds an extra-practice session of the weakest items instead.
    The due items are interleaved by topic (:mod:`engine.schedule.interleave`).
    """

    def __init__(self, states: Mapping[str, ItemState], catalog: Catalog, today: date, *, seed: int,
                 new_per_day: int = DEFAULT_NEW_PER_DAY, introduced_today: int = 0, extra: int = 0,
                 redrill_gap: int = REDRILL_GAP, reviews_per_day: int | None = None, reviewed_today: int = 0,
                 interview: date | None = None, recent: Mapping[str, Sequence[int]] | None = None,
                 is_chain: Callable[[str], bool] | None = None, chain_ready: Callable[[str], bool] | None = None,
                 retired: frozenset[str] = frozenset(), step_drills: Mapping[str, date] | None = None,
                 scheduler: str = Scheduler.SM2,
                 memory: Callable[[str], fsrs_bridge.Memory | None] | None = None, rules: Rules | None = None,
                 met_today: int | None = None):
        if scheduler not in fsrs_bridge.SCHEDULERS:
            raise ValueError(f"scheduler must be one of {', '.join(fsrs_bridge.SCHEDULERS)}, not {scheduler!r}")
        self.today = today
        self.catalog = list(catalog)
        self.states: dict[str, ItemState] = dict(states)
        self.redrill_gap = redrill_gap
        self.interview = interview
        self.recent = recent or {}
        self.reviews_per_day = reviews_per_day
        self.scheduler = scheduler
        self.retired = retired
        self._memory_of = memory or (lambda _item: None)
        self._memories: dict[str, fsrs_bridge.Memory | None] = {}
        self._rng = random.Random(seed)
        self._last_seed: dict[str, int] = {}
        self._history: list[tuple] = []
        self.plan = plan_for(self.states, self.catalog, today, new_per_day, interview, introduced_today, retired)
        self.held_back = 0  # due items left for another day by the review cap
        self.interview_day = interview is not None and today == interview
        self.warmup: list[tuple[str, str]] = []  # the interview day's suggested warm-up (nothing is forced)
        if extra:
            self.cards = [self._card(i, t, "extra") for i, t in self.weakest(extra)]
        elif self.interview_day:
            self.warmup = self._warmup()
            self.cards = []
        else:
            due_now = [d for d in due_items(self.states, today, self.catalog) if d[0] not in retired]
            if reviews_per_day is not None:
                room = max(0, reviews_per_day - reviewed_today)
                self.held_back = max(0, len(due_now) - room)
                due_now = due_now[:room]  # the most overdue kept
            due_now = interleave(due_now, topic=lambda d: d[1], overdue=lambda d: d[2])
            due = [self._card(i, t, "due", days) for i, t, days in due_now]
            planned = {i for i, _, _ in due_now}
            topic = dict(self.catalog)
            drills = [self._card(i, topic[i], "extra") for i, day in (step_drills or {}).items()
                      if day <= today and i in topic and i not in planned and i not in retired]
            fresh = new_items(self.states, self.catalog, new_available(self.plan.new_today, introduced_today),
                              is_chain, chain_ready, retired)
            self.cards = due + drills + [self._card(i, t, "new") for i, t in fresh]
        self.planned = len(self.cards)
        # how an answer is recorded: the profile's rules (record), the session's own by default
        self.rules = rules or Rules(scheduler, interview, reviews_per_day, new_per_day)
        # items first met today on any path (met()), this session's counted as they come
        self.met_today = introduced_today if met_today is None else met_today

    def _warmup(self, n: int = 5) -> list[tuple[str, str]]:
        """The interview day's warm-up: what is due today, then the weakest, ``n`` at most."""
        due = [(i, t) for i, t, _ in due_items(self.states, self.today, self.catalog)]
        rest = [w for w in self.weakest(n) if w not in due]
        return (due + rest)[:n]

    def memory(self, item: str) -> fsrs_bridge.Memory | None:
        """The item's FSRS memory (replayed from its history once, then kept up to date by this session)."""
        if item not in self._memories:
            self._memories[item] = self._memory_of(item)
        return self._memories[item]

    def _card(self, item: str, topic: str, kind: str, overdue: int = 0) -> Card:
        seed = self._rng.randrange(2**31)
        while seed == self._last_seed.get(item):
            seed = self._rng.randrange(2**31)
        self._last_seed[item] = seed
        return Card(item, topic, seed, kind, overdue)

    @property
    def current(self) -> Card | None:
        return self.cards[0] if self.cards else None

    def cards_of(self, kind: str) -> list[Card]:
        """The cards still to answer that are asked for ``kind`` (a name of :data:`CARD_KINDS`), in order."""
        return [c for c in self.cards if c.kind == kind]

    @property
    def done(self) -> bool:
        return not self.cards

    @property
    def answered(self) -> int:
        return len(self._history)

    def answer(self, quality: int, verdict: str, *, when: datetime, typed: str = "",
               value: float | str | None = None, seconds: float = 0.0, step: int | None = None,
               today: date | None = None, hardware: str | None = None,
               conventions: Mapping[str, str] | None = None, model: str | None = None,
               pressed: bool = False, hint: int | None = None) -> Review:
        """Answer the current card: returns the review row to record, moves to the next card.

        ``today``: the learner's local date of the answer (default: the
        session's day); a session that runs past midnight files the answer under
        the new day and schedules from it.  A due or new card moves the item's
        SM-2 state on, an extra card by :func:`moves_schedule`, a re-drill never;
        any due, new or re-drill card answered below 4 comes back
        ``redrill_gap`` cards later.  ``pressed``: the learner chose the grade; ``hint``: the hint taken, which
        caps the quality (:func:`record`).
        """
        card = self.current
        quality = capped(quality, hint)  # the capped grade moves the FSRS memory and decides a re-drill too
        if card is None:
            raise IndexError("the session has no card left to answer")
        day = today or self.today
        book = Book(self.states, self.rules, self.catalog, self.memory, self.met_today, self.retired)
        moves = Moves.ALWAYS if card.scheduled else Moves.OFF_SCHEDULE if card.extra else Moves.NEVER
        row = record(book, Drawn(card.item, card.topic, card.seed, hardware, model, conventions), quality=quality,
                     verdict=verdict, when=when, today=day, mode=card.mode, moves=moves, typed=typed, value=value,
                     seconds=seconds, step=step, pressed=pressed, hint=hint)
        schedule, fsrs = row.scheduled, row.scheduled and self.rules.scheduler == Scheduler.FSRS
        memory = self.memory(card.item) if fsrs else None
        self._history.append((list(self.cards), dict(self.states), self._rng.getstate(), dict(self._last_seed), card,
                              dict(self._memories), self.met_today))
        if row.scheduled and row.before is None:  # as met() counts
            self.met_today += 1
        rest = self.cards[1:]
        if schedule:
            assert row.after is not None  # a scheduled row holds the state it leaves
            self.states[card.item] = ItemState.from_dict(row.after)
            if fsrs:
                self._memories[card.item] = fsrs_bridge.step(memory, quality, day, self.rules.tuning, pressed)
        if quality < PASS_QUALITY and not card.extra:
            again = self._card(card.item, card.topic, "redrill")
            rest.insert(min(self.redrill_gap, len(rest)), again)
        self.cards = rest
        return row

    def checkpoint(self) -> tuple:
        """Where the session is now, for :meth:`restore` (a re-grade that could not be saved goes back to it):
        every attribute but the random generator, copied deeply (an undo hands the states of a history entry
        back to the session, which the next answer changes in place; a field added later is kept too)."""
        import copy

        return copy.deepcopy({k: v for k, v in vars(self).items() if k != "_rng"}), self._rng.getstate()

    def restore(self, mark: tuple) -> None:
        import copy

        fields, rng_state = mark
        for k, v in copy.deepcopy(fields).items():
            setattr(self, k, v)
        self._rng.setstate(rng_state)

    def undo(self) -> Card:
        """Take back the last answer (the caller also calls ``Profile.undo_last()``); returns its card."""
        if not self._history:
            raise IndexError("nothing to undo in this session")
        (self.cards, self.states, rng_state, self._last_seed, card, self._memories,
         self.met_today) = self._history.pop()
        self._rng.setstate(rng_state)
        return card

    def next_due(self) -> date | None:
        return next_due(self.states, self.today, self.catalog)

    def weakest(self, n: int = 5) -> list[tuple[str, str]]:
        return weakest(self.states, self.catalog, n, self.recent)
