"""Mock interviews: plan a timed set of questions and run the clock (:mod:`engine.mock_report` scores it).

Pure domain code: no clock reads, no I/O, and no knowledge of the question
bank.  The caller passes

* the candidate templates as ``(template_id, topic, chain_length)`` tuples
  (optionally a fourth element, the template's target seconds),
* how weak the learner is on each template (:func:`weakness_figures` computes
  it from review rows), and
* the time: every method of :class:`MockRun` that depends on it takes ``now``,
  a number of seconds from an injected clock (tests drive it by hand).

A mock of *N* questions asks each step of a chain as its own slot; verdicts are
computed only at the end (:func:`engine.mock_report.build_report`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.langs import EN
from engine.records import frozen, mutable

from .grading import Expected, understood
from .status import MOCK_VERDICTS

if TYPE_CHECKING:
    from .review import Review

DEFAULT_MINUTES = 30
MAX_MINUTES = 180
MAX_QUESTIONS = 40
MAX_SEED = 2 ** 63 - 1  # as drill ask / check take it
STEP_SECONDS = 90  # target time of one step when the caller gives none
ALLOWANCE = 2.0  # a mock allows twice a question's target time
WARNING_FRACTION = 0.10  # the countdown warns in the last 10 % of the time
UNSEEN_WEAKNESS = 0.5  # a template never answered counts as half-weak
RECENT = 5  # weakness looks at the last five answers of a template
VERDICTS = MOCK_VERDICTS  # a question's verdict in the report

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
    # the world its problems are drawn in (Settings, or the command line's flags): an accelerator id, a model id
    # and the conventions off their default as (key, value) pairs; None / () for the catalogue's mix and defaults
    hardware: str | None = None
    model: str | None = None
    conventions: tuple[tuple[str, str], ...] = ()

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
        world = {**({"hardware": self.hardware} if self.hardware else {}), **({"model": self.model} if self.model else {}),
                 **({"conventions": dict(self.conventions)} if self.conventions else {})}
        return {"minutes": self.minutes, "questions": self.questions, "topics": list(self.topics),
                "chains": self.chains, "seed": self.seed, "weighted": self.weighted, **world}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> MockSettings:
        conventions = d.get("conventions")
        return cls(d.get("minutes"), d.get("questions"), tuple(d.get("topics") or ()), bool(d.get("chains", True)),
                   int(d.get("seed", 0)), bool(d.get("weighted", True)), d.get("hardware"), d.get("model"),
                   tuple(conventions.items()) if isinstance(conventions, Mapping) else ())


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
    def of(cls, c: Candidate | Sequence) -> Candidate:
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


def weakness_figures(reviews: Iterable[Review], recent: int = RECENT) -> dict[str, float]:
    """Template id -> weakness in [0, 1] from review rows: 1 - mean quality / 5 of its last answers.

    Every mode counts (a mock answer is evidence too).
    """
    return weakness_of_answers(((r.item, r.quality) for r in reviews), recent)


def weakness_of_answers(answers: Iterable[tuple[str, int | None]], recent: int = RECENT) -> dict[str, float]:
    """:func:`weakness_figures` of ``(template id, quality)`` pairs, oldest first; a pair without a quality
    or an id is ignored."""
    last: dict[str, list[int]] = {}
    for item, q in answers:
        if q is None or not item:
            continue
        last.setdefault(item, []).append(int(q))
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
        assert limit is not None  # set above whenever the mock is timed
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
        return limit - sum(c.allowance for c in picks) if timed and limit is not None else math.inf

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


def reading(text: str, exp: Expected, lang: str = EN) -> tuple[bool, str]:
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
    def begin(cls, plan: MockPlan, steps: Sequence[Sequence[tuple[Expected, float]]], now: float) -> MockRun:
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
        end = self.ended if self.finished and self.ended is not None else now
        return max(0.0, self.deadline - end)

    def warning(self, now: float) -> bool:
        """True in the last 10 % of the time."""
        return self.remaining(now) <= WARNING_FRACTION * self.limit

    def seconds_used(self, now: float = 0.0) -> float:
        """Seconds from the start to the end (or to ``now`` while running), at most the limit."""
        end = self.ended if self.finished and self.ended is not None else min(float(now), self.deadline)
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
