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

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from datetime import date, timedelta
from typing import Any

from engine.records import frozen

from . import leeches
from .digest import Digest
from .hints import hint_counts
from .mock_report import score_percent
from .review import Review
from .sm2 import EF_START as START_EF
from .status import CLOSE, CONVENTION, CORRECT, UNANSWERED, WRONG

PASS_QUALITY = 3
MATURE_DAYS = 21
WINDOW_DAYS = 30
FORECAST_DAYS = 30
HEATMAP_WEEKS = 26
RECENT_REVIEWS = 10  # reviews of an item that decide how weak it is now
TREND_WINDOW = 5  # reviews averaged by each point of an item's accuracy trend


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
    lapses: Mapping[str, int] = field(repr=False, default_factory=dict)  # item: its failed reviews (engine.leeches)
    hints: Mapping[str, list[int]] = field(repr=False, default_factory=dict)  # topic: [hint 1, hint 2] (engine.hints)
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
    """Every figure of the stats screen, from the whole log.

    ``rows`` are review rows oldest first, or their :class:`Digest`; ``states``
    map item ids to ``engine.sm2.ItemState`` (``ef``, ``interval``, ``reps``,
    ``due``); ``templates`` are ``(id, topic, title)`` of the bank; ``topics``
    fixes the order (and lists topics that have no templates yet).  The profile keeps the same figures as
    running totals (``engine.stats_running``); this is what they are checked against.
    """
    d = rows if isinstance(rows, Digest) else Digest.of_reviews(rows)
    since_s = (today - timedelta(days=WINDOW_DAYS - 1)).isoformat()
    per_day: dict[str, int] = defaultdict(int)
    by_item: dict[str, list[int]] = {}  # item: the indexes of its counted reviews in d
    item_topic: dict[str, str] = {}
    seen_first: set[tuple[str, str]] = set()
    ret_n = ret_pass = 0

    covered = covered_steps(d.item, d.seed, d.step)
    for i, (day, item, topic, q, before, interval) in enumerate(
            zip(d.date, d.item, d.topic, d.quality, d.before, d.interval)):
        if i in covered:
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

    quality, seconds_of, date_of = d.quality, d.seconds, d.date
    tallies: dict[str, Tally] = {}
    for item, idx in by_item.items():
        ok = [quality[i] >= PASS_QUALITY for i in idx]
        recent30 = [o for i, o in zip(idx, ok) if date_of[i] >= since_s]
        tallies[item] = Tally(item_topic[item], len(idx), sum(ok), len(recent30), sum(recent30),
                              ok[-RECENT_REVIEWS:], date_of[idx[-1]],
                              [s for i in idx if (s := seconds_of[i]) is not None])  # None: not measured
    return assemble(tallies, per_day, set(date_of), (ret_n, ret_pass), states, mocks, templates, today, topics,
                    digest=d, item_rows=by_item, lapses=leeches.lapses(d.item, d.step, d.quality),
                    hints=hint_counts(d.topic, d.hint))


class Tally:
    """One item's counted reviews, as the figures read them: its topic (as its first review named it), reviews,
    passed, the same within the 30-day window, the passes of its latest :data:`RECENT_REVIEWS`, the date of
    its last review and its measured times (or, kept running, their median's histogram: ``Times``)."""

    __slots__ = ("topic", "reviews", "passed", "reviews_30d", "passed_30d", "recent", "last", "seconds")

    def __init__(self, topic: str, reviews: int, passed: int, reviews_30d: int, passed_30d: int,
                 recent: Sequence[bool], last: str | None, seconds: Any) -> None:
        self.topic, self.reviews, self.passed = topic, reviews, passed
        self.reviews_30d, self.passed_30d, self.recent, self.last = reviews_30d, passed_30d, recent, last
        self.seconds = seconds


def tenths(seconds: float) -> float:
    """A measured time as the median reads it: to a tenth of a second (so the running figures keep a bounded
    histogram of times, not every time ever measured)."""
    return round(seconds, 1)


def median_of_counts(counts: Mapping[float, int]) -> float | None:
    """The median (``statistics.median``'s) of a multiset given as value: count."""
    n = sum(counts.values())
    if not n:
        return None
    want = (n - 1) // 2, n // 2  # the middle positions, 0-based
    found: list[float] = []
    seen = 0
    for v in sorted(counts):
        c = counts[v]
        while len(found) < 2 and seen + c > want[len(found)]:
            found.append(v)
        seen += c
        if len(found) == 2:
            break
    return (found[0] + found[1]) / 2 if found[0] != found[1] else float(found[0])


def assemble(tallies: Mapping[str, Tally], per_day: Mapping[str, int], studied_days: Iterable[str],
             retention: tuple[int, int], states: Mapping[str, Any], mocks: Iterable[Mapping],
             templates: Iterable[tuple[str, str, str]], today: date, topics: Sequence[str] = (), *,
             digest: Digest | None = None, item_rows: Mapping[str, Sequence[int]] | None = None,
             topic_times: Mapping[str, Mapping[float, int]] | None = None,
             lapses: Mapping[str, int] | None = None, hints: Mapping[str, list[int]] | None = None) -> Stats:
    """The figures from each item's :class:`Tally`, the counted reviews per day, the days with any answer and
    the window's (first mature reviews, passed): what :func:`compute` finds in the log and
    ``engine.stats_running`` keeps.  ``topic_times``: each topic's times (tenths: count), when the tallies
    hold no lists of times."""
    today_s = today.isoformat()
    heat_start = today - timedelta(days=today.weekday(), weeks=HEATMAP_WEEKS - 1)
    heat_start_s = heat_start.isoformat()
    bank = {tid: (topic, title) for tid, topic, title in templates}
    items: dict[str, ItemStats] = {}
    times: dict[str, dict[float, int]] = defaultdict(lambda: defaultdict(int))
    seconds = 0.0
    for item in [*bank, *(i for i in tallies if i not in bank)]:
        t = tallies.get(item)
        topic, title = bank.get(item, (t.topic if t is not None else "", item))
        st = states.get(item)
        ef, interval, reps, due = (st.ef, st.interval, st.reps, st.due) if st is not None else (None, 0, 0, None)
        if t is None:
            items[item] = ItemStats(item, topic, title, 0, 0, 0, 0, None, ef, interval, reps, due, None)
            continue
        if topic_times is None:
            for s in t.seconds:
                times[topic][tenths(s)] += 1
            seconds += sum(t.seconds)
        else:
            seconds += t.seconds
        recent = t.recent
        items[item] = ItemStats(item, topic, title, t.reviews, t.passed, t.reviews_30d, t.passed_30d,
                                sum(recent) / len(recent) if recent else None, ef, interval, reps, due, t.last)
    if topic_times is not None:
        times.clear()
        for topic, counts in topic_times.items():
            times[topic].update(counts)

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
        topic_stats.append(TopicStats(
            topic=topic,
            total=len(in_bank),
            learned=sum(i.learned for i in in_bank),
            mature=sum(i.mature for i in in_bank),
            reviews=sum(i.reviews for i in its),
            reviews_30d=sum(i.reviews_30d for i in its),
            passed_30d=sum(i.passed_30d for i in its),
            mean_ef=sum(efs) / len(efs) if efs else None,
            median_seconds=median_of_counts(times.get(topic, {})),
            weakest=tuple(i.id for i in weakest(its)),
        ))

    # days studied: any answer recorded that day, a chain step included
    studied = {date.fromisoformat(day) for day in studied_days}
    current, longest = streaks(studied, today)
    n_heat = (today - heat_start).days + 1
    heatmap = [0] * n_heat
    for day, n in per_day.items():
        if heat_start_s <= day <= today_s and n:
            heatmap[(date.fromisoformat(day) - heat_start).days] = n

    return Stats(
        today=today,
        reviews=sum(per_day.values()),
        reviews_today=per_day.get(today_s, 0),
        seconds=float(seconds),
        days_studied=len(studied),
        streak=current,
        longest_streak=longest,
        retention_reviews_30d=retention[0],
        retention_passed_30d=retention[1],
        reviews_30d=sum(i.reviews_30d for i in items.values()),
        passed_30d=sum(i.passed_30d for i in items.values()),
        overdue=overdue,
        forecast=tuple(forecast),
        heatmap_start=heat_start,
        heatmap=tuple(heatmap),
        topics=tuple(topic_stats),
        items=items,
        mocks=tuple(_mock(m) for m in mocks),
        digest=digest if digest is not None else Digest(),
        item_rows=item_rows if item_rows is not None else {},
        lapses=lapses if lapses is not None else {},
        hints=hints if hints is not None else {},
    )


def covered_steps(items: Iterable[str], seeds: Iterable[int], steps: Iterable[int | None]) -> set[int]:
    """The rows (their indexes) that are steps of a chain recorded step by step *and* as a whole.

    Practice records each step of a chain (unscheduled, ``step`` 1, 2, ...)
    and then one whole-item row (``step`` None, the chain's grade and total
    time) with the same seed: that row is the review, and it covers the item's
    steps of that seed recorded since the item's previous row of another run.
    A mock records only the steps (it asks each as its own question), and an
    abandoned chain leaves steps without a whole row: those steps count on
    their own.  (Only the steps just before their whole row, so running totals
    can hold them back until the item's next row decides: ``engine.stats_running``.)
    """
    pending: dict[str, tuple[int, list[int]]] = {}  # item: (seed, its step rows) since its last other row
    covered: set[int] = set()
    for i, (item, seed, step) in enumerate(zip(items, seeds, steps)):
        run = pending.get(item)
        if step is not None:
            if run is not None and run[0] == seed:
                run[1].append(i)
            else:
                pending[item] = (seed, [i])
            continue
        if run is not None:
            del pending[item]
            if run[0] == seed:
                covered.update(run[1])
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
