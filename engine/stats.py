"""Progress figures, computed from plain data.

Pure: no clock, no files, no question bank.  The caller passes the review rows
(oldest first) - or their :class:`Digest`, the columns of them the figures
need, which ``engine.storage.Profile.digest`` reads quickly - the item states,
the mock results, the templates as ``(id, topic, title)`` triples, the topic
order and ``today`` (the learner's local date); :func:`compute` returns a
:class:`Stats`.

Definitions (docs/practice.md, "Progress stats", repeats them):

- A *review* is one answer to an item, whatever its mode: mock answers,
  extra practice and re-drills were practice too.  A chain answered in
  practice counts once (its whole-item row; the per-step rows are detail);
  a mock asks each step of a chain as its own question, so there each step
  counts.
- A day is *studied* when at least one answer was recorded that day (a step of
  a chain finished the next day counts too: it was study).  The current
  *streak* counts studied days back from today - or from yesterday while
  nothing has been done yet today, since the day is not over.
- A review *passed* when its SM-2 quality is >= 3 (correct or close).
- *Accuracy* is the share of graded reviews that passed, every mode counted.
- *True retention* (Anki's definition) uses scheduled reviews only: for each
  item and day, the day's first scheduled review of an item that was *mature*
  before it (interval >= 21 days); the share of those that passed.  Mock,
  extra and re-drill answers never move the schedule, so they never count.
- Time figures (the total time, a topic's median time per review) leave out
  reviews whose time was not measured (``seconds`` None: an answer checked
  on paper with ``drill check --record``); such a review counts everywhere else.
- An item is *learned* when it passed its last scheduled review (SM-2 reps >=
  1) and *mature* when its interval is >= 21 days.
- The *forecast* counts items of the bank due on each of the next 30 days;
  overdue items count as due today.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from datetime import date, timedelta
from statistics import median
from typing import Any

from engine.records import frozen

from .mock_report import score_percent
from .review import Review
from .review_mode import ReviewMode
from .session import MODES, VERDICTS
from .sm2 import EF_START as START_EF
from .status import CLOSE, CONVENTION, CORRECT, UNANSWERED, WRONG, Status

PASS_QUALITY = 3
MATURE_DAYS = 21
WINDOW_DAYS = 30
FORECAST_DAYS = 30
HEATMAP_WEEKS = 26
RECENT_REVIEWS = 10  # reviews of an item that decide how weak it is now
TREND_WINDOW = 5  # reviews averaged by each point of an item's accuracy trend


# --------------------------------------------------------------------------- #
# The review log, reduced to what the figures read

DIGEST_FIELDS = ("date", "item", "topic", "seed", "step", "verdict", "quality", "seconds", "mode", "before",
                 "interval", "pressed", "hint")


def _iso_days(values: set) -> bool:
    try:
        return all(len(v) == 10 and date.fromisoformat(v) for v in values)
    except ValueError:
        return False


def _counts(values: set) -> bool:
    values.discard(None)
    return not values or min(values) >= 0


def _durations(values: set) -> bool:
    values.discard(None)  # not measured (a paper answer)
    try:
        return not values or (min(values) >= 0 and math.isfinite(math.fsum(values)))
    except OverflowError:
        return False


_NONE = type(None)
# column: (the types its values may have, a check of its set of distinct values)
_COLUMN_RULES: dict[str, tuple[set, Any]] = {
    "date": ({str}, _iso_days),
    "item": ({str}, lambda vs: "" not in vs),
    "topic": ({str}, lambda vs: "" not in vs),
    "seed": ({int}, None),  # any whole number: only its type is checked
    "step": ({int, _NONE}, lambda vs: all(v is None or v >= 1 for v in vs)),
    # a row recorded this session holds the members (a Status is its string), one read back plain strings
    "verdict": ({str, Status}, lambda vs: vs <= set(VERDICTS)),
    "quality": ({int}, lambda vs: vs <= set(range(6))),
    "seconds": ({int, float, _NONE}, _durations),
    "mode": ({str, ReviewMode}, lambda vs: vs <= set(MODES)),
    "before": ({int, _NONE}, _counts),
    "interval": ({int, _NONE}, _counts),
    "pressed": ({bool}, None),
    "hint": ({int, _NONE}, lambda vs: vs <= {None, 1, 2}),
}


class Digest:
    """Review rows reduced to the columns the figures read: ``d.item[i]`` is row ``i``'s item.

    ``date``, ``item``, ``topic``, ``seed``, ``step``, ``verdict``, ``quality``,
    ``seconds`` and ``mode`` are the rows' fields; ``before`` is the item's
    interval before the review (None without a state before it) and
    ``interval`` the interval a scheduled review gave it (None: the review did
    not move the schedule); ``pressed``: the learner chose the grade (FSRS's Easy); ``hint``: the hint taken
    (``engine.hints``, None: none).  Plain lists of JSON values, so the save files can
    keep one beside each closed log segment (``engine.storage``).
    """

    __slots__ = DIGEST_FIELDS
    # the columns, one per name of DIGEST_FIELDS (set in __init__): declared so a type checker knows them
    date: list[str]
    item: list[str]
    topic: list[str]
    seed: list[int]
    step: list[int | None]
    verdict: list[str]
    quality: list[int]
    seconds: list[float | None]
    mode: list[str]
    before: list[int | None]
    interval: list[int | None]
    pressed: list[bool]
    hint: list[int | None]

    def __init__(self, columns: Mapping[str, list] | None = None) -> None:
        for f in DIGEST_FIELDS:  # the lists are taken, not copied
            setattr(self, f, columns[f] if columns is not None else [])

    @classmethod
    def of_rows(cls, rows: Iterable[Mapping]) -> Digest:
        """The digest of review rows as the log stores them (dicts), as ``engine.storage`` keeps it."""
        # the stored dicts are read as they are: a log of 200,000 rows is digested here, a Review apiece would cost
        rows = rows if isinstance(rows, list) else list(rows)
        cols = {f: [r[f] for r in rows] for f in ("date", "item", "topic", "seed", "step", "verdict", "quality",
                                                 "seconds", "mode")}
        cols["before"] = [b.get("interval", 0) if (b := r["before"]) else None for r in rows]
        cols["interval"] = [(r["after"] or {}).get("interval", 0) if r["scheduled"] else None for r in rows]
        cols["pressed"] = [r.get("pressed") is True for r in rows]
        cols["hint"] = [r.get("hint") for r in rows]
        return cls(cols)

    @classmethod
    def of_reviews(cls, reviews: Iterable[Review]) -> Digest:
        """The digest of review rows (:class:`engine.review.Review`), as :meth:`of_rows` makes it."""
        rs = reviews if isinstance(reviews, list) else list(reviews)
        return cls({"date": [r.date for r in rs], "item": [r.item for r in rs], "topic": [r.topic for r in rs],
                    "seed": [r.seed for r in rs], "step": [r.step for r in rs], "verdict": [r.verdict for r in rs],
                    "quality": [r.quality for r in rs], "seconds": [r.seconds for r in rs],
                    "mode": [r.mode for r in rs],
                    "before": [r.before.get("interval", 0) if r.before else None for r in rs],
                    "interval": [(r.after or {}).get("interval", 0) if r.scheduled else None for r in rs],
                    "pressed": [r.pressed is True for r in rs], "hint": [r.hint for r in rs]})

    @classmethod
    def from_columns(cls, columns: Any, *, check: bool = True) -> Digest:
        """A digest from plain columns as stored; ``ValueError`` names the first problem.

        Without ``check`` only the layout is checked (the columns, of one length),
        not the values: call :meth:`problem` later, on many digests joined.
        """
        if not isinstance(columns, dict) or columns.keys() != set(DIGEST_FIELDS):
            raise ValueError("not the digest's columns")
        if not all(type(columns[f]) is list for f in DIGEST_FIELDS):
            raise ValueError("a column is not a list")
        if len({len(columns[f]) for f in DIGEST_FIELDS}) != 1:
            raise ValueError("the columns differ in length")
        d = cls(columns)
        if check and (p := d.problem()) is not None:
            raise ValueError(p)
        return d

    def problem(self) -> str | None:
        """The first column holding a value a review row cannot have (wrong type or out of range), or None.

        Most columns are checked on their distinct values, so a value equal to a
        right one (4.0 or True for 4 or 1) may pass: it changes no figure.
        """
        for f, (types, check) in _COLUMN_RULES.items():
            col = getattr(self, f)
            try:
                values = set(col) if check is not None else col
            except TypeError:  # a list or an object: unhashable
                return f"column {f!r} holds a value of the wrong type"
            if not set(map(type, values)) <= types:
                return f"column {f!r} holds a value of the wrong type"
            if check is not None and not check(values):
                return f"column {f!r} holds a value out of range"
        return None

    @classmethod
    def joined(cls, parts: Iterable[Digest]) -> Digest:
        out = cls()
        for part in parts:
            for f in DIGEST_FIELDS:
                getattr(out, f).extend(getattr(part, f))
        return out

    def columns(self) -> dict[str, list]:
        return {f: getattr(self, f) for f in DIGEST_FIELDS}

    def __len__(self) -> int:
        return len(self.date)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Digest) and self.columns() == other.columns()


@frozen
class ItemStats:
    """One template: how often and how well it was answered, and its schedule."""

    id: str
    topic: str
    title: str
    reviews: int = 0
    passed: int = 0
    reviews_30d: int = 0
    passed_30d: int = 0
    recent_accuracy: float | None = None  # over its last RECENT_REVIEWS reviews
    ef: float | None = None  # None: never scheduled
    interval: int = 0
    reps: int = 0
    due: date | None = None
    last_review: str | None = None  # ISO date

    @property
    def accuracy(self) -> float | None:
        return self.passed / self.reviews if self.reviews else None

    @property
    def accuracy_30d(self) -> float | None:
        return self.passed_30d / self.reviews_30d if self.reviews_30d else None

    @property
    def learned(self) -> bool:
        return self.reps >= 1

    @property
    def mature(self) -> bool:
        return self.interval >= MATURE_DAYS

    @property
    def struggling(self) -> bool:
        """Missed lately, or answered so that SM-2 lowered its ease below the start."""
        if self.reviews == 0:
            return False
        return (self.recent_accuracy is not None and self.recent_accuracy < 1.0) or (
            self.ef is not None and self.ef < START_EF
        )

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "topic": self.topic,
            "title": self.title,
            "reviews": self.reviews,
            "accuracy": self.accuracy,
            "accuracy_30d": self.accuracy_30d,
            "recent_accuracy": self.recent_accuracy,
            "ef": self.ef,
            "interval": self.interval,
            "due": self.due.isoformat() if self.due else None,
            "last_review": self.last_review,
        }


@frozen
class TopicStats:
    """One topic of the bank."""

    topic: str
    total: int  # templates in the bank
    learned: int
    mature: int
    reviews: int
    reviews_30d: int
    passed_30d: int
    mean_ef: float | None
    median_seconds: float | None
    weakest: tuple[str, ...]  # up to three template ids, weakest first

    @property
    def accuracy_30d(self) -> float | None:
        return self.passed_30d / self.reviews_30d if self.reviews_30d else None

    def to_dict(self) -> dict:
        return {
            "topic": self.topic,
            "learned": self.learned,
            "mature": self.mature,
            "total": self.total,
            "reviews": self.reviews,
            "reviews_30d": self.reviews_30d,
            "accuracy_30d": self.accuracy_30d,
            "mean_ef": self.mean_ef,
            "median_seconds": self.median_seconds,
            "weakest": list(self.weakest),
        }


@frozen
class MockStats:
    """One mock interview's score.

    The counts are of answers: a mock asks each step of a chain as its own
    answer, so a chain of three steps adds three.  ``questions`` counts
    questions (a chain is one).
    """

    id: Any
    ts: str
    correct: int
    close: int
    wrong: int
    unanswered: int
    seconds_used: float
    asked: int | None = None  # questions asked; None: the result does not list them (count its answers)

    @property
    def date(self) -> str:
        return self.ts[:10]

    @property
    def answers(self) -> int:
        return self.correct + self.close + self.wrong + self.unanswered

    @property
    def questions(self) -> int:
        return self.asked if self.asked is not None else self.answers

    @property
    def percent(self) -> float | None:
        """The mock's score (correct counts one, close one half, per answer), in percent; None without answers."""
        if not self.answers:
            return None
        return score_percent({CORRECT: self.correct, CLOSE: self.close, WRONG: self.wrong, UNANSWERED: self.unanswered})

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "ts": self.ts,
            "date": self.date,
            "questions": self.questions,
            "answers": self.answers,
            CORRECT: self.correct,
            CLOSE: self.close,
            WRONG: self.wrong,
            UNANSWERED: self.unanswered,
            "percent": self.percent,
            "seconds_used": self.seconds_used,
        }


@frozen
class Stats:
    today: date
    reviews: int
    reviews_today: int
    seconds: float
    days_studied: int
    streak: int
    longest_streak: int
    retention_reviews_30d: int  # first scheduled reviews of mature items in the window
    retention_passed_30d: int
    reviews_30d: int
    passed_30d: int
    overdue: int
    forecast: tuple[int, ...]  # FORECAST_DAYS counts; [0] is due today (overdue included)
    heatmap_start: date  # a Monday, HEATMAP_WEEKS - 1 weeks before this week's
    heatmap: tuple[int, ...]  # reviews per day from heatmap_start to today
    topics: tuple[TopicStats, ...]
    items: Mapping[str, ItemStats]
    mocks: tuple[MockStats, ...]
    digest: Digest = field(repr=False, default_factory=Digest)  # the reviews counted, for history and trend
    item_rows: Mapping[str, Sequence[int]] = field(repr=False, default_factory=dict)  # item: its rows in digest
    # (Readiness, Calibration) of engine.schedule.readiness, when the caller computed them
    readiness: tuple[Any, Any] | None = field(repr=False, default=None)

    @property
    def empty(self) -> bool:
        return self.reviews == 0 and not self.mocks

    @property
    def due_today(self) -> int:
        return self.forecast[0]

    @property
    def retention_30d(self) -> float | None:
        r = self.retention_reviews_30d
        return self.retention_passed_30d / r if r else None

    @property
    def accuracy_30d(self) -> float | None:
        return self.passed_30d / self.reviews_30d if self.reviews_30d else None

    def history(self, item: str) -> list[dict]:
        """An item's reviews, oldest first: date, verdict, seconds (None: not measured), the interval it got."""
        d = self.digest
        return [{"date": d.date[i], "verdict": d.verdict[i], "quality": d.quality[i], "seconds": d.seconds[i],
                 "mode": d.mode[i], "step": d.step[i], "interval": d.interval[i]}
                for i in self.item_rows.get(item, ())]

    def trend(self, item: str) -> list[float]:
        """An item's accuracy after each review, over its last TREND_WINDOW reviews (0..1)."""
        quality = self.digest.quality
        return _trend([quality[i] >= PASS_QUALITY for i in self.item_rows.get(item, ())], TREND_WINDOW)

    def to_dict(self) -> dict:
        return {
            "today": self.today.isoformat(),
            "reviews": self.reviews,
            "reviews_today": self.reviews_today,
            "seconds": round(self.seconds, 1),
            "days_studied": self.days_studied,
            "streak": self.streak,
            "longest_streak": self.longest_streak,
            "retention_30d": self.retention_30d,
            "retention_reviews_30d": self.retention_reviews_30d,
            "accuracy_30d": self.accuracy_30d,
            "reviews_30d": self.reviews_30d,
            "due_today": self.due_today,
            "overdue": self.overdue,
            "forecast": list(self.forecast),
            "heatmap": {"start": self.heatmap_start.isoformat(), "counts": list(self.heatmap)},
            "topics": {t.topic: t.to_dict() for t in self.topics},
            "weakest": [i.to_dict() for i in weakest(self.items.values(), 10)],
            "mocks": [m.to_dict() for m in self.mocks],
            "readiness": (None if self.readiness is None
                          else {**self.readiness[0].to_dict(), "calibration": self.readiness[1].to_dict()}),
        }


# --------------------------------------------------------------------------- #


def streaks(days: Iterable[date], today: date) -> tuple[int, int]:
    """(current, longest) runs of consecutive studied days.

    The current run ends today, or yesterday when today has no review yet.
    """
    studied = set(days)
    if not studied:
        return 0, 0
    longest = 0
    for d in studied:
        if d - timedelta(days=1) in studied:
            continue  # not the start of a run
        n = 1
        while d + timedelta(days=n) in studied:
            n += 1
        longest = max(longest, n)
    end = today if today in studied else today - timedelta(days=1)
    current = 0
    while end - timedelta(days=current) in studied:
        current += 1
    return current, longest


def _trend(passes: list[bool], window: int) -> list[float]:
    """After each review, the share of the last ``window`` reviews that passed."""
    out, total = [], 0
    for i, p in enumerate(passes):
        total += p
        if i >= window:
            total -= passes[i - window]
        out.append(total / min(i + 1, window))
    return out


def weakest(items: Iterable[ItemStats], n: int = 3) -> list[ItemStats]:
    """The ``n`` struggling items, lowest recent accuracy first, then lowest ease."""
    bad = [i for i in items if i.struggling]
    bad.sort(key=lambda i: (i.recent_accuracy if i.recent_accuracy is not None else 1.0,
                            i.ef if i.ef is not None else START_EF, i.id))
    return bad[:n]


TOPIC_SORTS = ("topic", "learned", "accuracy", "ef", "time", "reviews")


def sort_topics(topics: Sequence[TopicStats], by: str = "topic", reverse: bool = False) -> list[TopicStats]:
    """Topics ordered by a column; topics without a figure go last either way."""
    if by not in TOPIC_SORTS:
        raise ValueError(f"unknown sort {by!r}: choose one of {', '.join(TOPIC_SORTS)}")
    if by == "topic":
        return list(reversed(topics)) if reverse else list(topics)
    value = {
        "learned": lambda t: t.learned / t.total if t.total else None,
        "accuracy": lambda t: t.accuracy_30d,
        "ef": lambda t: t.mean_ef,
        "time": lambda t: t.median_seconds,
        "reviews": lambda t: t.reviews,
    }[by]
    known = [t for t in topics if value(t) is not None]
    unknown = [t for t in topics if value(t) is None]
    return sorted(known, key=value, reverse=reverse) + unknown


def compute(
    rows: Iterable[Review] | Digest,
    states: Mapping[str, Any],
    mocks: Iterable[Mapping],
    templates: Iterable[tuple[str, str, str]],
    today: date,
    topics: Sequence[str] = (),
) -> Stats:
    """Every figure of the stats screen.

    ``rows`` are review rows oldest first, or their :class:`Digest`; ``states``
    map item ids to ``engine.sm2.ItemState`` (``ef``, ``interval``, ``reps``,
    ``due``); ``templates`` are ``(id, topic, title)`` of the bank; ``topics``
    fixes the order (and lists topics that have no templates yet).
    """
    d = rows if isinstance(rows, Digest) else Digest.of_reviews(rows)
    today_s = today.isoformat()
    since_s = (today - timedelta(days=WINDOW_DAYS - 1)).isoformat()
    heat_start = today - timedelta(days=today.weekday(), weeks=HEATMAP_WEEKS - 1)
    heat_start_s = heat_start.isoformat()

    bank = {tid: (topic, title) for tid, topic, title in templates}
    per_day: dict[str, int] = defaultdict(int)
    by_item: dict[str, list[int]] = {}  # item: the indexes of its counted reviews in d
    item_topic: dict[str, str] = {}
    seen_first: set[tuple[str, str]] = set()
    ret_n = ret_pass = 0

    covered = _covered_steps(d)
    for i, (day, item, topic, seed, step, q, before, interval) in enumerate(
            zip(d.date, d.item, d.topic, d.seed, d.step, d.quality, d.before, d.interval)):
        if step is not None and (seeds := covered.get(item)) is not None and seed in seeds:
            continue  # a chain step whose whole-item row follows: the chain counts once
        per_day[day] += 1
        idx = by_item.get(item)
        if idx is None:
            idx = by_item[item] = []
            item_topic[item] = topic
        idx.append(i)
        if interval is not None and day >= since_s:  # a scheduled review in the window
            key = (item, day)
            if key not in seen_first:
                seen_first.add(key)
                if before is not None and before >= MATURE_DAYS:
                    ret_n += 1
                    ret_pass += q >= PASS_QUALITY

    # per item
    items: dict[str, ItemStats] = {}
    topic_seconds: dict[str, list[float]] = defaultdict(list)
    quality, seconds_of, date_of = d.quality, d.seconds, d.date
    seconds = 0.0
    for item in [*bank, *(i for i in by_item if i not in bank)]:
        topic, title = bank.get(item, (item_topic.get(item, ""), item))
        idx = by_item.get(item, [])
        ok = [quality[i] >= PASS_QUALITY for i in idx]
        recent30 = [o for i, o in zip(idx, ok) if date_of[i] >= since_s]
        secs = [s for i in idx if (s := seconds_of[i]) is not None]  # None: not measured
        topic_seconds[topic].extend(secs)
        seconds += sum(secs)
        recent = ok[-RECENT_REVIEWS:]
        st = states.get(item)
        ef, interval, reps, due = (st.ef, st.interval, st.reps, st.due) if st is not None else (None, 0, 0, None)
        items[item] = ItemStats(item, topic, title, len(idx), sum(ok), len(recent30), sum(recent30),
                                sum(recent) / len(recent) if recent else None, ef, interval, reps,
                                due, date_of[idx[-1]] if idx else None)
    total = sum(per_day.values())

    # forecast: items of the bank only (the session never asks for an unknown one)
    forecast = [0] * FORECAST_DAYS
    overdue = 0
    for item in bank:
        st = states.get(item)
        if st is None or st.due is None:
            continue
        days_left = (st.due - today).days
        if days_left < 0:
            overdue += 1
        if days_left < FORECAST_DAYS:
            forecast[max(days_left, 0)] += 1

    # per topic
    order = list(dict.fromkeys([*topics, *(t for t, _ in bank.values()), *(i.topic for i in items.values())]))
    by_topic: dict[str, list[ItemStats]] = defaultdict(list)
    for it in items.values():
        by_topic[it.topic].append(it)
    topic_stats = []
    for topic in order:
        its = by_topic.get(topic, [])
        in_bank = [i for i in its if i.id in bank]
        efs = [i.ef for i in its if i.ef is not None]
        secs = topic_seconds.get(topic, [])
        topic_stats.append(TopicStats(
            topic=topic,
            total=len(in_bank),
            learned=sum(i.learned for i in in_bank),
            mature=sum(i.mature for i in in_bank),
            reviews=sum(i.reviews for i in its),
            reviews_30d=sum(i.reviews_30d for i in its),
            passed_30d=sum(i.passed_30d for i in its),
            mean_ef=sum(efs) / len(efs) if efs else None,
            median_seconds=median(secs) if secs else None,
            weakest=tuple(i.id for i in weakest(its)),
        ))

    # days studied: any answer recorded that day, a chain step included
    studied = {date.fromisoformat(day) for day in set(date_of)}
    current, longest = streaks(studied, today)
    n_heat = (today - heat_start).days + 1
    heatmap = [0] * n_heat
    for day, n in per_day.items():
        if heat_start_s <= day <= today_s:
            heatmap[(date.fromisoformat(day) - heat_start).days] = n

    return Stats(
        today=today,
        reviews=total,
        reviews_today=per_day.get(today_s, 0),
        seconds=float(seconds),
        days_studied=len(studied),
        streak=current,
        longest_streak=longest,
        retention_reviews_30d=ret_n,
        retention_passed_30d=ret_pass,
        reviews_30d=sum(i.reviews_30d for i in items.values()),
        passed_30d=sum(i.passed_30d for i in items.values()),
        overdue=overdue,
        forecast=tuple(forecast),
        heatmap_start=heat_start,
        heatmap=tuple(heatmap),
        topics=tuple(topic_stats),
        items=items,
        mocks=tuple(_mock(m) for m in mocks),
        digest=d,
        item_rows=by_item,
    )


def _covered_steps(d: Digest) -> dict[str, set]:
    """Chains recorded step by step *and* as a whole: item -> the seeds of those runs.

    Practice records each step of a chain (unscheduled, ``step`` 1, 2, ...)
    and then one whole-item row (``step`` None, the chain's grade and total
    time) with the same seed: that row is the review.  A mock records only
    the steps (it asks each as its own question), and an abandoned chain
    leaves steps without a whole row: those steps count on their own.
    """
    steps: dict[str, set] = {}  # item: seeds of its step rows so far
    covered: dict[str, set] = {}
    for item, seed, step in zip(d.item, d.seed, d.step):  # the steps come before their whole-item row
        seeds = steps.get(item)
        if step is not None:
            if seeds is None:
                seeds = steps[item] = set()
            seeds.add(seed)
        elif seeds is not None and seed in seeds:
            covered.setdefault(item, set()).add(seed)
    return covered


def _mock(m: Mapping) -> MockStats:
    score = m.get("score") or {}
    # an answer right by another published convention scores as a correct one (engine.mock_report.score_percent)
    correct = int(score.get(CORRECT, 0)) + int(score.get(CONVENTION, 0))
    return MockStats(m.get("id"), str(m.get("ts") or ""), correct, int(score.get(CLOSE, 0)),
                     int(score.get(WRONG, 0)), int(score.get(UNANSWERED, 0)), float(m.get("seconds_used") or 0),
                     mock_questions(m.get("questions")))


def mock_questions(answers: Any) -> int | None:
    """How many questions a saved mock asked, from its list of answers (one per step of a chain).

    Each answer names its ``question`` (1-based); a result without those numbers
    counts the answers that start a question (``step`` null or 1).  None when
    the result lists no answers.
    """
    if not isinstance(answers, list) or not answers or not all(isinstance(a, Mapping) for a in answers):
        return None
    numbers = [a.get("question") for a in answers]
    if all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        return len(set(numbers))
    return sum(1 for a in answers if a.get("step") in (None, 1))
