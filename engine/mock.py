"""Mock interviews: plan a timed set of questions, run the clock, score the result.

Pure domain code: no clock reads, no I/O, and no knowledge of the question
bank.  The caller passes

* the candidate templates as ``(template_id, topic, chain_length)`` tuples
  (optionally a fourth element, the template's target seconds),
* how weak the learner is on each template (:func:`weakness_figures` computes
  it from review rows), and
* the time: every method of :class:`MockRun` that depends on it takes ``now``,
  a number of seconds from an injected clock (tests drive it by hand).

A mock of *N* questions asks each step of a chain as its own slot; verdicts are
computed only at the end (:func:`build_report`).  :func:`review_rows` logs the
answers with ``mode="mock"``; a question moves its template's SM-2 schedule by
the rule for answers given off the schedule
(:func:`engine.session.moves_schedule`: its first answer anywhere, a due
template, or a lapse), a chain as one unit with its weakest step's quality.
"""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timezone
from typing import Any, Callable, Iterable, Mapping, Sequence

from engine.records import frozen, mutable

from .grading import CLOSE, CONVENTION, CORRECT, WRONG, Expected, Verdict, grade, understood
from .schedule.chains import chain_quality
from .session import moves_schedule, review_row
from .sm2 import ItemState

DEFAULT_MINUTES = 30
MAX_MINUTES = 180
MAX_QUESTIONS = 40
MAX_SEED = 2 ** 63 - 1  # as drill ask / check take it
STEP_SECONDS = 90  # target time of one step when the caller gives none
ALLOWANCE = 2.0  # a mock allows twice a question's target time
WARNING_FRACTION = 0.10  # the countdown warns in the last 10 % of the time
UNSEEN_WEAKNESS = 0.5  # a template never answered counts as half-weak
RECENT = 5  # weakness looks at the last five answers of a template
UNANSWERED = "unanswered"
VERDICTS = (CORRECT, CONVENTION, CLOSE, WRONG, UNANSWERED)

PENDING, ANSWERED, SKIPPED = "pending", "answered", "skipped"


class MockError(ValueError):
    """Bad mock settings, or an action the running mock does not allow."""


# --------------------------------------------------------------------------- #
# Settings and planning


@frozen
class MockSettings:
    """What the learner chose.  With neither ``minutes`` nor ``questions`` the mock lasts 30 minutes."""

    minutes: int | None = None
    questions: int | None = None
    topics: tuple[str, ...] = ()  # empty: every topic
    chains: bool = True
    seed: int = 0
    weighted: bool = True  # towards the learner's weaker templates; off for a shared seed (same mock for all)

    def __post_init__(self) -> None:
        for name, value, top in (("minutes", self.minutes, MAX_MINUTES), ("questions", self.questions, MAX_QUESTIONS)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top):
                raise MockError(f"{name} must be a whole number from 1 to {top} (got {value!r})")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed <= MAX_SEED:
            shown = repr(self.seed) if len(repr(self.seed)) <= 30 else repr(self.seed)[:20] + "…"
            raise MockError(f"the seed must be a whole number from 0 to {MAX_SEED} (got {shown})")
        object.__setattr__(self, "topics", tuple(dict.fromkeys(self.topics)))

    @property
    def by_questions(self) -> bool:
        return self.questions is not None

    def to_dict(self) -> dict:
        return {"minutes": self.minutes, "questions": self.questions, "topics": list(self.topics),
                "chains": self.chains, "seed": self.seed, "weighted": self.weighted}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "MockSettings":
        return cls(d.get("minutes"), d.get("questions"), tuple(d.get("topics") or ()), bool(d.get("chains", True)),
                   int(d.get("seed", 0)), bool(d.get("weighted", True)))


@frozen
class Candidate:
    """A template the mock may ask."""

    template_id: str
    topic: str
    chain_length: int = 1
    target_seconds: float | None = None

    @property
    def allowance(self) -> float:
        """Seconds a mock budgets for it: twice its target time."""
        target = self.target_seconds if self.target_seconds else STEP_SECONDS * self.chain_length
        return ALLOWANCE * target

    @classmethod
    def of(cls, c: "Candidate | Sequence") -> "Candidate":
        return c if isinstance(c, Candidate) else cls(*c)


@frozen
class Planned:
    """One question of a mock: a template with the seed that makes it concrete."""

    template_id: str
    topic: str
    seed: int
    steps: int

    def to_dict(self) -> dict:
        return {"template": self.template_id, "topic": self.topic, "seed": self.seed, "steps": self.steps}


@frozen
class MockPlan:
    settings: MockSettings
    questions: tuple[Planned, ...]
    limit_seconds: int

    def to_dict(self) -> dict:
        return {"seed": self.settings.seed, "settings": self.settings.to_dict(),
                "minutes": self.limit_seconds / 60, "limit_seconds": self.limit_seconds,
                "questions": [dict(index=i + 1, **q.to_dict()) for i, q in enumerate(self.questions)]}


def weakness_figures(reviews: Iterable[Mapping[str, Any]], recent: int = RECENT) -> dict[str, float]:
    """Template id -> weakness in [0, 1] from review rows: 1 - mean quality / 5 of its last answers.

    Every mode counts (a mock answer is evidence too); rows without a quality are ignored.
    """
    last: dict[str, list[int]] = {}
    for row in reviews:
        q = row.get("quality")
        if q is None or not row.get("item"):
            continue
        last.setdefault(row["item"], []).append(int(q))
    return {item: 1 - sum(qs[-recent:]) / (5 * len(qs[-recent:])) for item, qs in last.items()}


def _weight(c: Candidate, weakness: Mapping[str, float]) -> float:
    w = min(1.0, max(0.0, float(weakness.get(c.template_id, UNSEEN_WEAKNESS))))
    return 1.0 + 3.0 * w  # the weakest template is four times as likely as a mastered one


def _draw(rng: random.Random, pool: list[Candidate], weakness: Mapping[str, float]) -> Candidate:
    return rng.choices(pool, weights=[_weight(c, weakness) for c in pool])[0]


def plan_mock(settings: MockSettings, candidates: Iterable[Candidate | Sequence],
              weakness: Mapping[str, float] | None = None) -> MockPlan:
    """The questions a mock asks: deterministic from the settings (seed included), candidates and weakness.

    Topics are visited in turn (weaker topics earlier, so they are the ones kept
    when the mock is too short for all of them); within a topic a template is
    drawn with weight ``1 + 3 × weakness`` and not repeated until the topic runs
    out.  By minutes: each question takes at most half the time (when any is
    that short, so a short mock is several short questions), each turn draws
    among the templates that fit the time left, a topic with nothing that fits
    is passed over (a template already asked comes again only when no unasked
    one fits anywhere), and the plan ends when nothing fits; MockError when not
    even one question fits.  Chains are left out when disabled; when enabled and
    one is allowed, a mock of two or more questions asks at least one.  By
    questions, the time is the total allowance (rounded up to a minute) unless
    minutes are also given.  With ``settings.weighted`` off (a shared seed) the
    weakness figures are ignored, so everyone with the seed sits the same mock.
    """
    weakness = dict(weakness or {}) if settings.weighted else {}
    pool = sorted({c.template_id: c for c in map(Candidate.of, candidates)}.values(), key=lambda c: c.template_id)
    if not settings.chains:
        pool = [c for c in pool if c.chain_length <= 1]
    known = {c.topic for c in pool}
    unknown = [t for t in settings.topics if t not in known]
    if unknown:
        what = "templates" if settings.chains else "single-step templates"
        raise MockError(f"no {what} in topic {', '.join(unknown)}")
    if settings.topics:
        pool = [c for c in pool if c.topic in settings.topics]
    if not pool:
        raise MockError("no templates to ask")

    limit = settings.minutes * 60 if settings.minutes else None
    if limit is None and not settings.by_questions:
        limit = DEFAULT_MINUTES * 60
    timed = not settings.by_questions
    if timed:
        shortest = min(c.allowance for c in pool)
        # at most half the time each, so a mock is several questions (unless none is that short)
        pool = [c for c in pool if c.allowance <= limit / 2] or [c for c in pool if c.allowance <= limit]
        if not pool:
            where = f" in {', '.join(settings.topics)}" if settings.topics else ""
            raise MockError(f"no question{where} fits in {_minutes(limit)}: the shortest needs "
                            f"{_minutes(shortest)} (twice its target time)")

    rng = random.Random(f"mock:{settings.seed}")
    by_topic: dict[str, list[Candidate]] = {}
    for c in pool:
        by_topic.setdefault(c.topic, []).append(c)
    # topic order: weighted draw without replacement, weaker topics tending to come first
    topics, order = sorted(by_topic), []
    while topics:
        t = rng.choices(topics, weights=[sum(_weight(c, weakness) for c in by_topic[t]) / len(by_topic[t])
                                         for t in topics])[0]
        order.append(t)
        topics.remove(t)

    left = {t: list(cs) for t, cs in by_topic.items()}  # not yet asked, per topic
    picks: list[Candidate] = []
    turn = 0  # index in ``order`` of the topic whose turn it is

    def room() -> float:
        return limit - sum(c.allowance for c in picks) if timed else math.inf

    def next_turn() -> tuple[int, list[Candidate]] | None:
        """The next topic (from ``turn`` on) with a template that fits, and those templates: one not yet
        asked if any topic has one, else one asked already (the topic starts a new round)."""
        for fresh in (True, False):
            for k in range(len(order)):
                t = order[(turn + k) % len(order)]
                if not left[t]:
                    left[t] = list(by_topic[t])
                fitting = [c for c in (left[t] if fresh else by_topic[t]) if c.allowance <= room()]
                if fitting:
                    if not fresh:
                        left[t] = list(by_topic[t])
                    return k, fitting
        return None

    def give_back(c: Candidate) -> None:
        if c not in left[c.topic]:
            left[c.topic].append(c)

    def fill() -> None:
        """Add questions, topic by topic, while one fits."""
        nonlocal turn
        while len(picks) < (settings.questions or MAX_QUESTIONS) and (found := next_turn()):
            k, fitting = found
            c = _draw(rng, fitting, weakness)
            left[c.topic].remove(c)
            picks.append(c)
            turn = (turn + k + 1) % len(order)

    fill()
    chains = [c for c in pool if c.chain_length > 1]
    if chains and len(picks) >= 2 and not any(c.chain_length > 1 for c in picks):
        chain_topics = {c.topic for c in chains}
        i = next((i for i, c in enumerate(picks) if c.topic in chain_topics), len(picks) - 1)
        local = [c for c in chains if c.topic == picks[i].topic] or chains
        chain = _draw(rng, local, weakness)
        give_back(picks[i])
        picks[i] = chain
        if chain in left[chain.topic]:
            left[chain.topic].remove(chain)
        while room() < 0:  # a chain is longer: drop the last other questions, then fill what time is left
            j = len(picks) - 1 if i != len(picks) - 1 else len(picks) - 2
            give_back(picks.pop(j))
            i -= j < i
        fill()

    used: dict[str, set[int]] = {}
    questions = []
    for c in picks:
        seed = rng.randrange(1, 100_000)
        while seed in used.setdefault(c.template_id, set()):
            seed = rng.randrange(1, 100_000)
        used[c.template_id].add(seed)
        questions.append(Planned(c.template_id, c.topic, seed, c.chain_length))
    if limit is None:
        limit = max(60, math.ceil(sum(c.allowance for c in picks) / 60) * 60)
    return MockPlan(settings, tuple(questions), int(limit))


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:g} min"


# --------------------------------------------------------------------------- #
# The running mock


def reading(text: str, exp: Expected, lang: str = "en") -> tuple[bool, str]:
    """How ``text`` reads as an answer to ``exp``, with no verdict: ``(True, "= 1.4 × 10¹¹ B")`` or
    ``(False, reason)``, in ``lang`` (:func:`engine.grading.understood`)."""
    return understood(text, exp, lang)


def unreadable_reason(text: str, exp: Expected) -> str | None:
    """Why ``text`` cannot be read as an answer to ``exp`` (None when it can)."""
    ok, message = reading(text, exp)
    return None if ok else message


@mutable
class Slot:
    """One answer box of a mock: a single question, or one step of a chain."""

    question: int  # 0-based index of the planned question
    step: int  # 0-based step
    steps: int
    template_id: str
    topic: str
    seed: int
    expected: Expected
    target_seconds: float
    status: str = PENDING
    typed: str = ""  # the submitted answer
    draft: str = ""  # text left in the box when moving away
    flagged: bool = False
    seconds: float = 0.0
    answered_at: float | None = None  # the clock when its answer was submitted (the latest one, if answered again)

    @property
    def label(self) -> str:
        return f"{self.question + 1}" + (f".{self.step + 1}" if self.steps > 1 else "")


@mutable
class MockRun:
    """The clock and the answers of a mock in progress.

    Moving on: after an answer or a skip, the next pending slot (in order,
    wrapping round), else the next skipped one, else a flagged one.  The mock
    ends by itself when every slot is answered and none is flagged, when the
    time is up (:meth:`tick`/:meth:`expire`), or on :meth:`finish`.
    """

    plan: MockPlan
    slots: list[Slot]
    started: float
    current: int = 0
    entered: float = 0.0
    finished: bool = False
    ended: float | None = None
    timed_out: bool = False

    @classmethod
    def begin(cls, plan: MockPlan, steps: Sequence[Sequence[tuple[Expected, float]]], now: float) -> "MockRun":
        """Start the clock.  ``steps[i]`` lists ``(expected, target_seconds)`` for each step of question ``i``."""
        if len(steps) != len(plan.questions):
            raise MockError(f"{len(steps)} problems for {len(plan.questions)} planned questions")
        slots = [Slot(i, j, len(st), q.template_id, q.topic, q.seed, exp, float(target))
                 for i, (q, st) in enumerate(zip(plan.questions, steps)) for j, (exp, target) in enumerate(st)]
        if not slots:
            raise MockError("a mock needs at least one question")
        return cls(plan, slots, float(now), 0, float(now))

    # --- the clock -------------------------------------------------------- #

    @property
    def limit(self) -> int:
        return self.plan.limit_seconds

    @property
    def deadline(self) -> float:
        return self.started + self.limit

    def remaining(self, now: float) -> float:
        end = self.ended if self.finished else now
        return max(0.0, self.deadline - end)

    def warning(self, now: float) -> bool:
        """True in the last 10 % of the time."""
        return self.remaining(now) <= WARNING_FRACTION * self.limit

    def seconds_used(self, now: float = 0.0) -> float:
        """Seconds from the start to the end (or to ``now`` while running), at most the limit."""
        end = self.ended if self.finished else min(float(now), self.deadline)
        return max(0.0, end - self.started)

    def question_seconds(self, now: float) -> float:
        """Time spent on the current slot, this visit and earlier ones."""
        slot = self.slots[self.current]
        if self.finished:
            return slot.seconds
        return slot.seconds + max(0.0, min(now, self.deadline) - self.entered)

    # --- where we are ----------------------------------------------------- #

    @property
    def slot(self) -> Slot:
        return self.slots[self.current]

    @property
    def total_questions(self) -> int:
        return len(self.plan.questions)

    def counts(self) -> dict[str, int]:
        return {s: sum(1 for x in self.slots if x.status == s) for s in (PENDING, ANSWERED, SKIPPED)} | {
            "flagged": sum(1 for x in self.slots if x.flagged)}

    def revisitable(self) -> list[int]:
        """Slots one may go back to: skipped or flagged (the current one excluded)."""
        return [i for i, s in enumerate(self.slots) if i != self.current and (s.status == SKIPPED or s.flagged)]

    # --- actions ---------------------------------------------------------- #

    def _check_open(self, now: float, draft: str) -> bool:
        """False (and the mock ended) when the time is up."""
        if self.finished:
            raise MockError("the mock is over")
        if now >= self.deadline:
            self.expire(now, draft)
            return False
        return True

    def _leave(self, now: float, draft: str = "") -> None:
        slot = self.slots[self.current]
        slot.seconds += max(0.0, min(now, self.deadline) - self.entered)
        slot.draft = draft
        self.entered = min(now, self.deadline)

    def _go(self, i: int, now: float, draft: str = "") -> None:
        self._leave(now, draft)
        self.current = i

    def _next(self) -> int | None:
        n = len(self.slots)
        after = [(self.current + k) % n for k in range(1, n + 1)]  # the current slot last
        for want in (lambda s: s.status == PENDING, lambda s: s.status == SKIPPED, lambda s: s.flagged):
            for i in after:
                if want(self.slots[i]):
                    return i
        return None

    def answer(self, text: str, now: float) -> None:
        """Submit ``text`` for the current slot (it must be readable) and move on."""
        if not self._check_open(now, text):
            return
        slot = self.slots[self.current]
        reason = unreadable_reason(text, slot.expected)
        if reason is not None:
            raise MockError(reason)
        revisit = slot.status == ANSWERED
        slot.status, slot.typed, slot.answered_at = ANSWERED, text.strip(), float(now)
        if revisit:
            slot.flagged = False  # answering a flagged question again settles it
        self._leave(now)
        nxt = self._next()
        if nxt is None:
            self.finish(now)
        else:
            self.current = nxt

    def skip(self, now: float, draft: str = "") -> None:
        """Leave the current slot for later (an answered one keeps its answer)."""
        if not self._check_open(now, draft):
            return
        slot = self.slots[self.current]
        if slot.status == PENDING:
            slot.status = SKIPPED
        nxt = self._next()
        self._go(self.current if nxt is None else nxt, now, draft)

    def toggle_flag(self, now: float, draft: str = "") -> bool:
        """Flag (or unflag) the current slot for review; returns the new flag."""
        if not self._check_open(now, draft):
            return False
        self.slot.flagged = not self.slot.flagged
        return self.slot.flagged

    def goto(self, index: int, now: float, draft: str = "") -> None:
        """Go back to a skipped or flagged slot; an unanswered current slot counts as skipped."""
        if not self._check_open(now, draft):
            return
        if index == self.current:
            return
        if not 0 <= index < len(self.slots):
            raise MockError(f"no question {index + 1}")
        if index not in self.revisitable():
            s = self.slots[index]
            raise MockError(f"question {s.label} is " + ("answered and not flagged" if s.status == ANSWERED
                                                         else "not skipped or flagged"))
        if self.slot.status == PENDING:
            self.slot.status = SKIPPED
        self._go(index, now, draft)

    def finish(self, now: float, draft: str = "") -> None:
        """End the mock now (the current draft is not submitted: only a time-out submits it)."""
        if self.finished:
            return
        self._leave(now, draft)
        self.finished = True
        self.ended = min(float(now), self.deadline)

    def expire(self, now: float, draft: str = "") -> bool:
        """The time is up: submit ``draft`` for the current slot if it is readable, then end.

        Returns True when the draft was submitted.
        """
        if self.finished:
            return False
        slot = self.slots[self.current]
        submitted = bool(draft.strip()) and unreadable_reason(draft, slot.expected) is None
        if submitted:  # given when the time ran out
            slot.status, slot.typed, slot.answered_at = ANSWERED, draft.strip(), min(float(now), self.deadline)
        self.timed_out = True
        self.finish(now, "" if submitted else draft)
        return submitted

    def tick(self, now: float, draft: str = "") -> bool:
        """Call on every clock tick; ends the mock when the time is up.  True when it just ended."""
        if self.finished or now < self.deadline:
            return False
        self.expire(now, draft)
        return True


# --------------------------------------------------------------------------- #
# Scoring and the report


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
    def from_dict(cls, d: Mapping[str, Any], question: int) -> "QuestionResult":
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
    stated: issue #24), close one half; out of every question (unanswered included)."""
    total = sum(int(score.get(k, 0)) for k in VERDICTS)
    if not total:
        return 0.0
    return 100.0 * (score.get(CORRECT, 0) + score.get(CONVENTION, 0) + 0.5 * score.get(CLOSE, 0)) / total


_POINTS = {CORRECT: 1.0, CONVENTION: 1.0, CLOSE: 0.5, WRONG: 0.0, UNANSWERED: 0.0}


def _value(v: Verdict) -> float | str | None:
    if v.parsed is not None:
        return v.parsed.value
    return v.given or None


def results(run: MockRun) -> list[QuestionResult]:
    """Grade every answer box of a finished run (an unanswered one is ``unanswered``, never wrong)."""
    out = []
    for s in run.slots:
        step = s.step + 1 if s.steps > 1 else None
        base = dict(question=s.question + 1, step=step, template_id=s.template_id, topic=s.topic, seed=s.seed,
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
    score = {k: sum(1 for r in rs if r.verdict == k) for k in VERDICTS}
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
                states: Mapping[str, ItemState] | None = None, interview: date | None = None,
                stored: int = 0) -> list[dict]:
    """Review-log rows (:func:`engine.session.review_row`) for the answered questions of a mock, in the
    order the answers were given.

    Mode ``mock``.  ``states``: the learner's SM-2 states (None: the schedule
    is left alone, every row unscheduled).  A single question's row moves its
    template's state when :func:`engine.session.moves_schedule` says so (its
    first answer anywhere, a due template, or a lapse: quality < 3).  A chain's
    steps are logged unscheduled, then, when every step was answered or an
    answered one is a lapse, one whole-chain row (``step`` None, ``typed``
    empty) with the lowest step quality (every step answered: one slip among
    right steps passes with 3, :func:`engine.schedule.chains.chain_quality`) and
    the worst verdict, which moves the schedule by the same rule.  Unanswered boxes are not reviews.

    Each row carries the time of its answer (:attr:`QuestionResult.answered`;
    a whole-chain row, its last step's) and is filed under the learner's day
    then, ``local_date(time)`` (``AppContext.local_date``), as practice files an
    answer: a mock that runs past midnight files each answer under its own
    day.  ``when``: the time of an answer that has none (a report rebuilt from
    a saved record).

    ``stored``: how many of these rows the profile already holds (a save
    that failed part-way, run again): only the rows after them are returned,
    and ``states`` (the profile's, which already count those rows) moves only
    by the rows returned.  The order of the rows depends on the report alone,
    so the same ``stored`` always means the same rows.
    """
    states = dict(states) if states is not None else None
    by_question: dict[int, list[QuestionResult]] = {}
    for r in report.results:
        by_question.setdefault(r.question, []).append(r)

    def moment(*rs: QuestionResult) -> datetime:
        times = [r.answered for r in rs if r.answered is not None]
        return datetime.fromtimestamp(max(times), timezone.utc) if times else when

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
        lowest = min(r.quality for r in answered)
        if len(answered) == len(boxes) or lowest < 3:
            worst = min((r.verdict for r in answered), key=_WORST.index)
            # every step answered: one slip among right steps passes with 3 (engine.schedule.chains)
            whole = chain_quality([r.quality for r in answered]) if len(answered) == len(boxes) else lowest
            planned.append((moment(*answered), first, True, dict(quality=whole, verdict=worst,
                                                                 seconds=sum(r.seconds for r in answered),
                                                                 step=None, typed="", value=None)))
    planned.sort(key=lambda p: p[0])  # stable: answers given at the same moment keep the question order

    rows: list[dict] = []
    for at, r, whole, fields in planned[stored:]:
        today = local_date(at)
        state = states.get(r.template_id) if whole and states is not None else None
        schedule = whole and states is not None and moves_schedule(state, fields["quality"], today)
        row = review_row(item=r.template_id, topic=r.topic, seed=r.seed, when=at, today=today,
                         state=state if schedule else None, schedule=schedule, mode="mock",
                         interview=interview if schedule else None, **fields)
        if schedule:
            states[r.template_id] = ItemState.from_dict(row["after"])
        rows.append(row)
    return rows


_WORST = ("dont_know", WRONG, CLOSE, CONVENTION, CORRECT)  # verdicts, worst first


def queue_missed(queued: Sequence[str], report: Report) -> list[str]:
    """The practice queue with this mock's missed templates added (each once, existing order kept)."""
    return list(dict.fromkeys([*queued, *report.missed_templates]))

