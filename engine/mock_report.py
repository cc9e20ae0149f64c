"""Scoring a finished mock interview: per-question results, the report, the saved record and review rows.

:func:`build_report` computes the verdicts of a :class:`~engine.mock.MockRun` only at the end.
:func:`review_rows` logs the answers with ``mode="mock"`` through :func:`engine.session.record`, as every
answer is; a question moves its template's schedule by the rule for answers given off the schedule
(:func:`engine.session.moves_schedule`: its first answer anywhere, a due template, or a lapse), a chain as
one unit with its weakest step's quality.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

from engine.records import frozen

from .grading import CLOSE, CONVENTION, CORRECT, WRONG, Verdict, grade
from .mock import ANSWERED, VERDICTS, MockError, MockRun
from .review import Review
from .review_mode import ReviewMode
from .schedule.chains import chain_quality
from .session import Book, Drawn, Moves, Rules, record
from .sm2 import ItemState
from .status import UNANSWERED, WORST_FIRST


@frozen
class QuestionResult:
    """One answer box of a finished mock, as the report and the saved record show it."""

    question: int  # 1-based
    step: int | None  # 1-based step of a chain, None for a single question
    template_id: str
    topic: str
    seed: int
    typed: str
    expected: str
    verdict: str  # correct | close | wrong | unanswered
    seconds: float
    flagged: bool = False
    misconception: str = ""
    quality: int | None = None  # known while scoring; not kept in the saved record
    value: float | str | None = None
    answered: float | None = None  # the clock (seconds) when it was answered; not kept in the saved record

    @property
    def label(self) -> str:
        """``3``, or ``3.2`` for step 2 of a chain."""
        return f"{self.question}" + (f".{self.step}" if self.step else "")

    def to_dict(self) -> dict:
        return {"question": self.question, "item": self.template_id, "topic": self.topic, "seed": self.seed,
                "step": self.step, "typed": self.typed, "verdict": self.verdict, "seconds": self.seconds,
                "expected": self.expected, "flagged": self.flagged, "misconception": self.misconception}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], question: int) -> QuestionResult:
        return cls(int(d.get("question", question)), d.get("step"), d["item"], d.get("topic", ""),
                   int(d.get("seed", 0)), d.get("typed", ""), d.get("expected", ""), d["verdict"],
                   float(d.get("seconds", 0.0)), bool(d.get("flagged", False)), d.get("misconception", ""))


@frozen
class Comparison:
    earlier: int  # how many earlier mocks
    previous: float  # percent of the last one
    best: float
    average: float

    def delta(self, percent: float) -> float:
        return percent - self.previous


@frozen
class Report:
    results: tuple[QuestionResult, ...]
    score: dict[str, int]
    seconds_used: float
    limit_seconds: int
    timed_out: bool
    misconceptions: tuple[tuple[str, int], ...]  # (label, times seen)
    weakest_topics: tuple[tuple[str, float, int], ...]  # (topic, percent, answers), weakest first
    comparison: Comparison | None
    missed_templates: tuple[str, ...]  # not correct, in order, each once

    @property
    def total(self) -> int:
        return len(self.results)

    @property
    def percent(self) -> float:
        return score_percent(self.score)


def score_percent(score: Mapping[str, int]) -> float:
    """Correct counts one, right by another published convention one (an interviewer accepts it once it is
    stated), close one half; out of every question (unanswered included)."""
    total = sum(int(score.get(k, 0)) for k in VERDICTS)
    if not total:
        return 0.0
    return 100.0 * (score.get(CORRECT, 0) + score.get(CONVENTION, 0) + 0.5 * score.get(CLOSE, 0)) / total


_POINTS: dict[str, float] = {CORRECT: 1.0, CONVENTION: 1.0, CLOSE: 0.5, WRONG: 0.0, UNANSWERED: 0.0}


def _value(v: Verdict) -> float | str | None:
    if v.parsed is not None:
        return v.parsed.value
    return v.given or None


def results(run: MockRun) -> list[QuestionResult]:
    """Grade every answer box of a finished run (an unanswered one is ``unanswered``, never wrong)."""
    out = []
    for s in run.slots:
        step = s.step + 1 if s.steps > 1 else None
        base: dict[str, Any] = dict(question=s.question + 1, step=step, template_id=s.template_id, topic=s.topic, seed=s.seed,
                    seconds=round(s.seconds, 1), flagged=s.flagged)
        if s.status != ANSWERED:
            out.append(QuestionResult(typed="", expected=s.expected.display, verdict=UNANSWERED, **base))
            continue
        v = grade(s.typed, s.expected, seconds=s.seconds, target_seconds=s.target_seconds)
        out.append(QuestionResult(typed=s.typed, expected=v.expected, verdict=v.status, misconception=v.diagnosis,
                                  quality=v.quality, value=_value(v), answered=s.answered_at, **base))
    return out


def compare(percent: float, earlier: Sequence[Mapping[str, Any]]) -> Comparison | None:
    """How this mock's percent sits against earlier saved mocks (oldest first)."""
    scores = [score_percent(m.get("score") or {}) for m in earlier]
    if not scores:
        return None
    return Comparison(len(scores), scores[-1], max(scores), sum(scores) / len(scores))


def summarize(rs: Sequence[QuestionResult], seconds_used: float, limit_seconds: int, timed_out: bool,
              earlier: Sequence[Mapping[str, Any]] = ()) -> Report:
    """Score, misconceptions, weakest topics, comparison and missed templates of a mock's answers."""
    score: dict[str, int] = {k: sum(1 for r in rs if r.verdict == k) for k in VERDICTS}
    seen: dict[str, int] = {}
    for r in rs:
        if r.misconception:
            seen[r.misconception] = seen.get(r.misconception, 0) + 1
    per_topic: dict[str, list[float]] = {}
    for r in rs:
        per_topic.setdefault(r.topic, []).append(_POINTS.get(r.verdict, 0.0))
    weakest = sorted(((t, 100.0 * sum(p) / len(p), len(p)) for t, p in per_topic.items()),
                     key=lambda x: (x[1], -x[2], x[0]))
    missed = tuple(dict.fromkeys(r.template_id for r in rs if r.verdict not in (CORRECT, CONVENTION)))
    return Report(tuple(rs), score, round(seconds_used, 1), int(limit_seconds), timed_out,
                  tuple(sorted(seen.items(), key=lambda x: (-x[1], x[0]))), tuple(weakest),
                  compare(score_percent(score), earlier), missed)


def build_report(run: MockRun, earlier: Sequence[Mapping[str, Any]] = ()) -> Report:
    """Score a finished mock; ``earlier`` are the saved mock results before it (oldest first)."""
    if not run.finished:
        raise MockError("the mock is still running")
    return summarize(results(run), run.seconds_used(), run.limit, run.timed_out, earlier)


def report_from_record(record: Mapping[str, Any], earlier: Sequence[Mapping[str, Any]] = ()) -> Report:
    """The report of a saved mock (:func:`mock_record`), e.g. to show an earlier one again."""
    rs = [QuestionResult.from_dict(q, i + 1) for i, q in enumerate(record.get("questions") or ())]
    settings = record.get("settings") or {}
    return summarize(rs, float(record.get("seconds_used", 0.0)), int(settings.get("limit_seconds", 0)),
                     bool(record.get("timed_out", False)), earlier)


def mock_record(run: MockRun, report: Report, ts: str) -> dict:
    """The saved mock result (``Profile.add_mock``): settings, seed, each answer with its verdict and time."""
    return {
        "ts": ts,
        "seed": run.plan.settings.seed,
        "settings": run.plan.settings.to_dict() | {"limit_seconds": run.limit},
        "questions": [r.to_dict() for r in report.results],
        "score": dict(report.score),
        "seconds_used": report.seconds_used,
        "timed_out": report.timed_out,
    }


def review_rows(report: Report, *, when: datetime, local_date: Callable[[datetime], date],
                book: Book | None = None, stored: int = 0,
                previous: Callable[[str], list[int] | None] | None = None) -> list[Review]:
    """Review-log rows (:func:`engine.session.review_row`) for the answered questions of a mock, in the
    order the answers were given.

    Mode ``mock``.  ``book``: the learner's states and rules
    (:class:`engine.session.Book`; None: the schedule is left alone, every row unscheduled), each row
    recorded by :func:`engine.session.record` as every answer is (scheduler, final stretch, daily cap).  A single question's row moves its
    template's state when :func:`engine.session.moves_schedule` says so (its
    first answer anywhere, a due template, or a lapse: quality < 3).  A chain's
    steps are logged unscheduled, then, when every step was answered or an
    answered one is a lapse, one whole-chain row (``step`` None, ``typed``
    empty) with the lowest step quality (every step answered: one slip among
    right steps passes with 3, :func:`engine.schedule.chains.chain_quality`, unless ``previous`` - a chain's
    step qualities in its last answer before the mock - says that step failed then too) and
    the worst verdict, which moves the schedule by the same rule.  Unanswered boxes are not reviews.

    Each row carries the time of its answer (:attr:`QuestionResult.answered`;
    a whole-chain row, its last step's) and is filed under the learner's day
    then, ``local_date(time)`` (``AppContext.local_date``), as practice files an
    answer: a mock that runs past midnight files each answer under its own
    day.  ``when``: the time of an answer that has none (a report rebuilt from
    a saved record).

    ``stored``: how many of these rows the profile already holds (a save
    that failed part-way, run again): only the rows after them are returned,
    and the book's states (the profile's, which already count those rows) move only
    by the rows returned.  The order of the rows depends on the report alone,
    so the same ``stored`` always means the same rows.
    """
    states = dict(book.states) if book is not None else None
    by_question: dict[int, list[QuestionResult]] = {}
    for r in report.results:
        by_question.setdefault(r.question, []).append(r)

    def moment(*rs: QuestionResult) -> datetime:
        times = [r.answered for r in rs if r.answered is not None]
        return datetime.fromtimestamp(max(times), UTC) if times else when

    # (time of the answer, the result it is about, whether it is a whole review, the row's own fields)
    planned: list[tuple[datetime, QuestionResult, bool, dict[str, Any]]] = []
    for boxes in by_question.values():
        answered = [r for r in boxes if r.verdict != UNANSWERED]
        if not answered:
            continue
        first = boxes[0]
        if first.step is None:
            planned.append((moment(first), first, True, dict(quality=first.quality, verdict=first.verdict,
                                                             seconds=first.seconds, step=None, typed=first.typed,
                                                             value=first.value)))
            continue
        for r in answered:
            planned.append((moment(r), r, False, dict(quality=r.quality, verdict=r.verdict, seconds=r.seconds,
                                                      step=r.step, typed=r.typed, value=r.value)))
        lowest = min(_scored(r) for r in answered)
        if len(answered) == len(boxes) or lowest < 3:
            worst = min((r.verdict for r in answered), key=WORST_FIRST.index)
            # every step answered: one slip among right steps passes with 3 (engine.schedule.chains)
            before = previous(first.template_id) if previous is not None else None
            whole = chain_quality([_scored(r) for r in answered], before) if len(answered) == len(boxes) else lowest
            planned.append((moment(*answered), first, True, dict(quality=whole, verdict=worst,
                                                                 seconds=sum(r.seconds for r in answered),
                                                                 step=None, typed="", value=None)))
    planned.sort(key=lambda p: p[0])  # stable: answers given at the same moment keep the question order

    rows: list[Review] = []
    for at, r, whole, fields in planned[stored:]:
        today = local_date(at)
        drawn = Drawn(r.template_id, r.topic, r.seed)
        if states is None or book is None:  # (both or neither) the schedule left alone
            row = record(Book({}, Rules()), drawn, when=at, today=today, mode=ReviewMode.MOCK, moves=Moves.NEVER,
                         **fields)
        else:
            row = record(book._replace(states=states), drawn, when=at, today=today, mode=ReviewMode.MOCK,
                         moves=Moves.OFF_SCHEDULE if whole else Moves.NEVER, **fields)
            if row.scheduled:
                assert row.after is not None  # a scheduled row holds the state it leaves
                states[r.template_id] = ItemState.from_dict(row.after)
        rows.append(row)
    return rows


def _scored(r: QuestionResult) -> int:
    """An answered box's quality: known while scoring (the report :func:`review_rows` logs is made by
    :func:`results`, not read back from a saved record, which does not keep it)."""
    assert r.quality is not None
    return r.quality




def queue_missed(queued: Sequence[str], report: Report) -> list[str]:
    """The practice queue with this mock's missed templates added (each once, existing order kept)."""
    return list(dict.fromkeys([*queued, *report.missed_templates]))
