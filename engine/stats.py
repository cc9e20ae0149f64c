"""Progress figures, computed from plain data.

Pure: no clock, no files, no question bank.  The caller passes the review rows
(oldest first), the item states, the mock results, the templates as
``(id, topic, title)`` triples, the topic order and ``today`` (the learner's
local date); :func:`compute` returns a :class:`Stats`.

Definitions (the README's "Progress stats" repeats them):

- A *review* is one answer to an item, whatever its mode: mock answers,
  extra practice and re-drills were practice too.  A chain answered in
  practice counts once (its whole-item row; the per-step rows are detail);
  a mock asks each step of a chain as its own question, so there each step
  counts.
- A day is *studied* when at least one review was done that day.  The current
  *streak* counts studied days back from today - or from yesterday while
  nothing has been done yet today, since the day is not over.
- A review *passed* when its SM-2 quality is >= 3 (correct or close).
- *Accuracy* is the share of graded reviews that passed, every mode counted.
- *True retention* (Anki's definition) uses scheduled reviews only: for each
  item and day, the day's first scheduled review of an item that was *mature*
  before it (interval >= 21 days); the share of those that passed.  Mock,
  extra and re-drill answers never move the schedule, so they never count.
- An item is *learned* when it passed its last scheduled review (SM-2 reps >=
  1) and *mature* when its interval is >= 21 days.
- The *forecast* counts items of the bank due on each of the next 30 days;
  overdue items count as due today.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from statistics import median
from typing import Any, Iterable, Mapping, Sequence

from .mock import score_percent
from .sm2 import EF_START as START_EF

PASS_QUALITY = 3
MATURE_DAYS = 21
WINDOW_DAYS = 30
FORECAST_DAYS = 30
HEATMAP_WEEKS = 26
RECENT_REVIEWS = 10  # reviews of an item that decide how weak it is now
TREND_WINDOW = 5  # reviews averaged by each point of an item's accuracy trend


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class MockStats:
    """One mock interview's score."""

    id: Any
    ts: str
    correct: int
    close: int
    wrong: int
    unanswered: int
    seconds_used: float

    @property
    def date(self) -> str:
        return self.ts[:10]

    @property
    def questions(self) -> int:
        return self.correct + self.close + self.wrong + self.unanswered

    @property
    def percent(self) -> float | None:
        """The mock's score (correct counts one, close one half), in percent; None without questions."""
        if not self.questions:
            return None
        return score_percent({"correct": self.correct, "close": self.close, "wrong": self.wrong,
                              "unanswered": self.unanswered})

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "ts": self.ts,
            "date": self.date,
            "questions": self.questions,
            "correct": self.correct,
            "close": self.close,
            "wrong": self.wrong,
            "unanswered": self.unanswered,
            "percent": self.percent,
            "seconds_used": self.seconds_used,
        }


@dataclass(frozen=True)
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
    rows_by_item: Mapping[str, Sequence[Mapping]] = field(repr=False, default_factory=dict)

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
        """An item's reviews, oldest first: date, verdict, seconds, the interval it got."""
        out = []
        for r in self.rows_by_item.get(item, ()):
            after = r.get("after") if r.get("scheduled") else None
            out.append({
                "date": r.get("date"),
                "verdict": r.get("verdict"),
                "quality": r.get("quality"),
                "seconds": r.get("seconds"),
                "mode": r.get("mode"),
                "step": r.get("step"),
                "interval": after.get("interval") if after else None,
            })
        return out

    def trend(self, item: str) -> list[float]:
        """An item's accuracy after each review, over its last TREND_WINDOW reviews (0..1)."""
        return accuracy_trend(self.rows_by_item.get(item, ()))

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


def accuracy_trend(rows: Iterable[Mapping], window: int = TREND_WINDOW) -> list[float]:
    """After each review, the share of the last ``window`` reviews that passed."""
    passes: list[bool] = [r.get("quality", 0) >= PASS_QUALITY for r in rows]
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
    rows: Iterable[Mapping],
    states: Mapping[str, Any],
    mocks: Iterable[Mapping],
    templates: Iterable[tuple[str, str, str]],
    today: date,
    topics: Sequence[str] = (),
) -> Stats:
    """Every figure of the stats screen.

    ``rows`` are review rows oldest first; ``states`` map item ids to
    ``engine.sm2.ItemState`` (``ef``, ``interval``, ``reps``, ``due``); ``templates``
    are ``(id, topic, title)`` of the bank; ``topics`` fixes the order (and
    lists topics that have no templates yet).
    """
    today_s = today.isoformat()
    since_s = (today - timedelta(days=WINDOW_DAYS - 1)).isoformat()
    heat_start = today - timedelta(days=today.weekday(), weeks=HEATMAP_WEEKS - 1)
    heat_start_s = heat_start.isoformat()

    bank = {tid: (topic, title) for tid, topic, title in templates}
    per_day: dict[str, int] = defaultdict(int)
    by_item: dict[str, list[Mapping]] = {}
    item_topic: dict[str, str] = {}
    seen_first: set[tuple[str, str]] = set()
    seconds = 0.0
    ret_n = ret_pass = 0

    rows = rows if isinstance(rows, list) else list(rows)
    covered = _covered_steps(rows)
    for r in rows:
        if covered and r["step"] is not None and (r["item"], r["seed"]) in covered:
            continue  # a chain step whose whole-item row follows: the chain counts once
        day = r["date"]
        per_day[day] += 1
        item = r["item"]
        rs = by_item.get(item)
        if rs is None:
            rs = by_item[item] = []
            item_topic[item] = r["topic"]
        rs.append(r)
        if r["scheduled"] and day >= since_s:
            key = (item, day)
            if key not in seen_first:
                seen_first.add(key)
                before = r["before"]
                if before and before["interval"] >= MATURE_DAYS:
                    ret_n += 1
                    ret_pass += r["quality"] >= PASS_QUALITY

    # per item
    items: dict[str, ItemStats] = {}
    topic_seconds: dict[str, list[float]] = defaultdict(list)
    for item in [*bank, *(i for i in by_item if i not in bank)]:
        topic, title = bank.get(item, (item_topic.get(item, ""), item))
        rs = by_item.get(item, ())
        ok = [r["quality"] >= PASS_QUALITY for r in rs]
        recent30 = [o for r, o in zip(rs, ok) if r["date"] >= since_s]
        secs = [r["seconds"] for r in rs]
        topic_seconds[topic].extend(secs)
        seconds += sum(secs)
        recent = ok[-RECENT_REVIEWS:]
        st = states.get(item)
        ef, interval, reps, due = (st.ef, st.interval, st.reps, st.due) if st is not None else (None, 0, 0, None)
        items[item] = ItemStats(item, topic, title, len(rs), sum(ok), len(recent30), sum(recent30),
                                sum(recent) / len(recent) if recent else None, ef, interval, reps,
                                due, rs[-1]["date"] if rs else None)
    total = sum(per_day.values())

    # forecast: items of the bank only (the session never asks for an unknown one)
    forecast = [0] * FORECAST_DAYS
    overdue = 0
    for item in bank:
        st = states.get(item)
        if st is None or st.due is None:
            continue
        d = (st.due - today).days
        if d < 0:
            overdue += 1
        if d < FORECAST_DAYS:
            forecast[max(d, 0)] += 1

    # per topic
    order = list(dict.fromkeys([*topics, *(t for t, _ in bank.values()), *(i.topic for i in items.values())]))
    by_topic: dict[str, list[ItemStats]] = defaultdict(list)
    for i in items.values():
        by_topic[i.topic].append(i)
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

    days = sorted(date.fromisoformat(d) for d in per_day)
    current, longest = streaks(days, today)
    n_heat = (today - heat_start).days + 1
    heatmap = [0] * n_heat
    for d, n in per_day.items():
        if heat_start_s <= d <= today_s:
            heatmap[(date.fromisoformat(d) - heat_start).days] = n

    return Stats(
        today=today,
        reviews=total,
        reviews_today=per_day.get(today_s, 0),
        seconds=float(seconds),
        days_studied=len(days),
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
        rows_by_item=by_item,
    )


def _covered_steps(rows: list[Mapping]) -> set[tuple[str, Any]]:
    """(item, seed) of chains recorded step by step *and* as a whole.

    Practice records each step of a chain (unscheduled, ``step`` 1, 2, ...)
    and then one whole-item row (``step`` None, the chain's grade and total
    time) with the same seed: that row is the review.  A mock records only
    the steps (it asks each as its own question), and an abandoned chain
    leaves steps without a whole row: those steps count on their own.
    """
    steps: set[tuple[str, Any]] = set()
    chains: set[str] = set()
    covered: set[tuple[str, Any]] = set()
    for r in rows:  # the steps come before their whole-item row
        if r["step"] is not None:
            steps.add((r["item"], r["seed"]))
            chains.add(r["item"])
        elif r["item"] in chains and (key := (r["item"], r["seed"])) in steps:
            covered.add(key)
    return covered


def _mock(m: Mapping) -> MockStats:
    score = m.get("score") or {}
    return MockStats(m.get("id"), str(m.get("ts") or ""), int(score.get("correct", 0)), int(score.get("close", 0)),
                     int(score.get("wrong", 0)), int(score.get("unanswered", 0)), float(m.get("seconds_used") or 0))
