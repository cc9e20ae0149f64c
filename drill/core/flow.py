"""A practice session as the app runs it: grade, record, override, undo, summarise.

No Textual here: the Practice screen renders a :class:`PracticeRun`; tests can
drive one directly.  The queue, re-drills and the review rows come from
:class:`engine.session.Session`; grading from :func:`engine.grading.grade`.

Recording rules (see the README, "Using the app"):

* A single question: one row, ``step`` None, scheduled for due/new cards.
* A chain (several steps): one row per step (``step`` 1, 2, ...; never
  scheduled), then, when its last step is answered, one row for the whole item
  (``step`` None, empty ``typed``) that carries the schedule.  The chain's
  quality is the **minimum** of its step qualities (a chain is only as sound as
  its weakest step) and its verdict is the worst step verdict.
* Every row is saved (``Profile.record``) before its feedback is shown.
* Overriding a grade re-records the answer with the chosen quality (the
  verdict stays the engine's); undo takes back the last answer's rows.
* A write that fails (``engine.storage.SaveFailed``: a full disk...) never
  leaves the session past an answer that is not stored, nor an answer stored
  twice: an answer whose rows are stored only in part (a chain's step row,
  then its whole row failed; an undo or override stopped half-way) is
  :attr:`PracticeRun.pending`, its rows taken back before anything else is
  written, and the learner gives it again (its text is kept on screen).

The session summary counts every answer (each step of a chain) by its final
quality, after any override (:func:`summary_grade`), and a topic's accuracy is
the share of its answers counted correct or close: one rule for both.
"""

from __future__ import annotations

import errno
from dataclasses import field
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from engine.grading import INVALID, Verdict, grade
from engine.grading import understood as engine_understood
from engine.records import NamedTuple, mutable
from engine.schedule import chains, fsrs_bridge
from engine.schedule.fsrs_bridge import SCHEDULERS
from engine.session import (
    DEFAULT_REVIEWS_PER_DAY,
    QUEUE_KEY,
    Card,
    Plan,
    Session,
    introduced,
    plan_for,
    review_row,
    reviewed,
)
from question_bank import drills, registry
from question_bank.steps import Step
from question_bank.template import Problem

if TYPE_CHECKING:
    from drill.core.context import AppContext
    from engine.storage import Profile

# Summary, Today and BankRow are NamedTuples (immutable, compared by value): cheaper to define than frozen
# dataclasses, and this module is imported before the first problem shows (benchmarks/bench_startup.py).
DONT_KNOW = "dont_know"
VERDICT_ORDER = (DONT_KNOW, "wrong", "close", "convention", "correct")  # worst first
DONT_KNOW_TYPED = ("?", "？")


def catalog() -> list[tuple[str, str]]:
    """The bank as ``(item, topic)`` pairs in bank order, for engine.session."""
    return registry.catalog()


def is_chain(item: str) -> bool:
    """Is the template ``item`` a chain (introduced after its topic's single questions)?"""
    return registry.chain_length(item) > 1


class Learning(NamedTuple):
    """The profile's scheduling settings: new items a day, the review cap a day, the interview date, the
    scheduler (``sm2``, the default, or ``fsrs``)."""

    new_per_day: int
    reviews_per_day: int
    interview: date | None
    scheduler: str = "sm2"


INTERVIEW_KEY = "interview"
REVIEWS_KEY = "reviews_per_day"
HARDWARE_KEY = "hardware"  # the accelerator practice draws (issue #25): an id, or None for the catalogue's mix
MODEL_KEY = "model"  # the model practice draws (issue #25): an id, or None for the catalogue's mix
SCHEDULER_KEY = "scheduler"
# Settings → conventions (issue #24): the profile's setting "conventions" holds the choosable conventions off their
# default (engine.convention_set); each is a field of the Settings screen keyed "convention-KEY".
CONVENTIONS_KEY = "conventions"
CONVENTION_FIELD = "convention-"
STEP_DRILLS_KEY = "step_drills"  # {template: "YYYY-MM-DD"}: a chain's failed step, practised alone from that day
PEEK_CAP = 3  # the highest grade of an answer given after opening its formula card


def interview_date(value: object) -> date | None:
    """The interview date kept in the settings (``YYYY-MM-DD``), None when unset or unreadable."""
    if isinstance(value, str) and len(value) == 10:
        try:
            return date.fromisoformat(value)
        except ValueError:
            return None
    return None


def learning(profile: "Profile") -> Learning:
    settings = profile.settings()
    cap = settings.get(REVIEWS_KEY)
    cap = cap if isinstance(cap, int) and not isinstance(cap, bool) and cap >= 1 else DEFAULT_REVIEWS_PER_DAY
    scheduler = settings.get(SCHEDULER_KEY)
    return Learning(settings["new_per_day"], cap, interview_date(settings.get(INTERVIEW_KEY)),
                    scheduler if scheduler in SCHEDULERS else "sm2")


SETTING_BOUNDS = {"new_per_day": (0, 100), REVIEWS_KEY: (1, 10_000)}


def known_hardware(hardware_id: str, saves) -> bool:
    """``hardware_id`` names a built-in accelerator or one of the user's (``<saves>/catalogue/``, loaded here)."""
    from question_bank import hardware, user_catalogue

    if any(g.key == hardware_id for g in hardware.ALL):
        return True
    user_catalogue.load(saves)
    return hardware_id in hardware.USER


def saved_conventions(profile: "Profile") -> dict[str, str]:
    """The conventions chosen in Settings, off their default (``{}``: the seeds'; an unreadable value: ``{}``)."""
    from engine import convention_set

    saved = profile.settings().get(CONVENTIONS_KEY)
    return convention_set.canonical(saved) if convention_set.problem(saved) is None else {}


def with_convention(saved: dict[str, str], key: str, value: str) -> dict[str, str]:
    """The profile's conventions with ``key`` set to ``value`` (its default drops it)."""
    from engine import convention_set

    return convention_set.canonical({**saved, key: value})


def known_model(model_id: str, saves) -> bool:
    """``model_id`` names a built-in model or one of the user's (``<saves>/catalogue/``, loaded here)."""
    from question_bank import models, user_catalogue

    if any(m.key == model_id for m in models.ALL):
        return True
    user_catalogue.load(saves)
    return model_id in models.USER


def parse_setting(key: str, text: str, today: date, saves=None) -> tuple[object, str | None]:
    """``(value, None)`` for a setting typed as ``text``, or ``(None, problem)`` with the i18n key of the
    problem: a whole number in its bounds, for the interview a date after ``today`` (empty: none), for the
    hardware an accelerator id of the catalogue (the user's in ``saves``; empty: none), for the model a model id
    of it, for the scheduler
    ``sm2`` or ``fsrs``."""
    text = text.strip()
    if key.startswith(CONVENTION_FIELD):  # one of the choosable values; empty: the default
        from engine import convention_set

        c = convention_set.BY_KEY[key.removeprefix(CONVENTION_FIELD)]
        text = text or c.default
        return (text, None) if text in c.values else (None, "settings.bad_convention")
    if key == SCHEDULER_KEY:
        return (text.lower(), None) if text.lower() in SCHEDULERS else (None, "settings.bad_scheduler")
    if key == HARDWARE_KEY:
        if not text:
            return None, None
        return (text, None) if len(text) <= 48 and known_hardware(text, saves) else (None, "settings.bad_hardware")
    if key == MODEL_KEY:
        if not text:
            return None, None
        return (text, None) if len(text) <= 48 and known_model(text, saves) else (None, "settings.bad_model")
    if key == INTERVIEW_KEY:
        if not text:
            return None, None
        day = interview_date(text)
        if day is None:
            return None, "settings.bad_date"
        return (text, None) if day > today else (None, "settings.past_date")
    lo, hi = SETTING_BOUNDS[key]
    if len(text) > 6 or not text.isascii() or not text.isdigit() or not lo <= int(text) <= hi:
        return None, "settings.bad_number"
    return int(text), None


def recent_qualities(profile: "Profile") -> dict[str, tuple[int, ...]]:
    """Each template's latest qualities (every mode), for the weakest items."""
    return {item: r.qualities for item, r in profile.recent().items()}


def plan(ctx: "AppContext") -> Plan:
    """What the interview date does to today's new items (days left, pace, warning)."""
    today, settings = ctx.today(), learning(ctx.profile)
    done = introduced(ctx.profile.reviews_today(today))
    return plan_for(ctx.profile.states(), catalog(), today, settings.new_per_day, settings.interview, len(done),
                    retired(ctx.profile))


def interview_line(plan: Plan, tr) -> str:
    """The interview date as Home, Settings and ``drill plan`` say it (``tr(key, **fmt)``: words in a language):
    in N days, tomorrow, today, or past."""
    day, n = plan.interview.isoformat(), plan.days_left
    if n < 0:
        return tr("home.interview_past", date=day)
    if n == 0:
        return tr("home.interview_today", date=day)
    return tr("home.interview_one", date=day) if n == 1 else tr("home.interview", n=n, date=day)


def pace_line(plan: Plan, tr) -> str:
    """The pace an interview date needs, every figure consistent (engine.schedule.pace), and the daily limit
    when it is below the pace: "122 new items, 7 days left, new items done by day 5: 25 a day"."""
    if plan.days_left == 1:
        line = tr("home.pace_one", left=plan.left, pace=plan.pace)
    else:
        line = tr("home.pace", left=plan.left, days=plan.days_left, by=plan.done_by, pace=plan.pace)
    if plan.behind:
        line += tr("home.pace_limit", limit=plan.new_today)
    return line


def chain_quality(qualities: list[int]) -> int:
    """A chain is scheduled as one unit: the lowest quality of its steps, except that one slip among right
    steps is a pass with quality 3 (:func:`engine.schedule.chains.chain_quality`)."""
    return chains.chain_quality(qualities)


def retired(profile: "Profile") -> frozenset[str]:
    """The "formula given" scaffolds retired: their full template passed twice (question_bank.drills)."""
    return chains.retired_scaffolds(drills.SCAFFOLDS, profile.states(), recent_qualities(profile))


def step_drills(profile: "Profile") -> dict[str, date]:
    """The single templates to practise alone (a chain's failed step), by the day they are due."""
    raw = profile.settings().get(STEP_DRILLS_KEY)
    out = {}
    if isinstance(raw, dict):
        for item, day in raw.items():
            when = interview_date(day)
            if isinstance(item, str) and when is not None:
                out[item] = when
    return out


def note_step_drills(profile: "Profile", item: str, qualities: list[int], today: date) -> list[str]:
    """After a chain answer: each failed step's single template is due alone the next day (a setting; kept
    until answered).  Returns the templates this added (not already waiting).  ``SaveFailed`` when it cannot
    be written (the answer itself is stored)."""
    new = chains.step_drills(drills.step_templates(item), qualities, today)
    current = {k: v.isoformat() for k, v in step_drills(profile).items()}
    added = [k for k in new if k not in current]
    if added:
        current.update({k: new[k].isoformat() for k in added})
        profile.set_setting(STEP_DRILLS_KEY, current)
    return added


def forget_step_drills(profile: "Profile", items: list[str]) -> None:
    """Take back the step drills an answer added (that answer undone or regraded)."""
    current = step_drills(profile)
    if any(i in current for i in items):
        profile.set_setting(STEP_DRILLS_KEY, {k: v.isoformat() for k, v in current.items() if k not in items})


def readiness_report(profile: "Profile", today: date, interview: date | None = None, digest=None, stop=None):
    """``(Readiness, Calibration)`` of the learner (engine.schedule.readiness), fitted on the log's digest
    (``digest``, else read): for the interview day when one is ahead (the days in between as the plan asks
    them: the schedule, the daily limits, the scheduler), else for today; the calibration with the same
    scheduler and interview date.  ``DamagedSave`` if the log cannot be read; ``stop()`` True abandons the fit
    (``readiness.Stopped``: the stats screen was closed)."""
    from engine.schedule import readiness

    rules = learning(profile)
    interview = rules.interview if interview is None else interview
    answers = readiness.answers_of_digest(digest if digest is not None else profile.digest())
    day = interview if interview is not None and interview > today else today
    states = profile.states()
    passed = chains.passed_once(states, recent_qualities(profile))
    cat = ready_catalog(profile)
    outlook = readiness.Outlook(states, rules.new_per_day, interview, rules.reviews_per_day, rules.scheduler,
                                memory_source(profile, rules.scheduler), is_chain,
                                lambda c: chains.chain_ready(drills.prerequisites(c), passed), retired(profile))
    return (readiness.readiness(answers, cat, day, today, outlook, stop=stop),
            readiness.calibration(answers, cat, scheduler=rules.scheduler, interview=interview, stop=stop))


def ready_catalog(profile: "Profile") -> list[tuple[str, str]]:
    """The bank readiness is over: every template but the retired scaffolds (no longer asked)."""
    gone = retired(profile)
    return [(i, topic) for i, topic in catalog() if i not in gone]


def readiness_lines(ready, calibration, tr, lang: str) -> list[str]:
    """The readiness per topic and overall, and the calibration, as ``drill plan`` and the stats screen say
    them: a topic below the minimum of answers says so, never a number."""
    from rich.cells import cell_len

    from drill.core.i18n import topic_name
    from engine.schedule.readiness import MIN_REVIEWS

    lines = [tr("ready.head", date=ready.day.isoformat())]
    names = {t: topic_name(t, lang) for t in ready.topics}
    names[None] = tr("ready.overall")
    width = max(cell_len(n) for n in names.values())
    pad = lambda t: names[t] + " " * (width - cell_len(names[t]))  # noqa: E731
    for topic, r in ready.topics.items():
        if r.probability is None:
            lines.append(f"  {pad(topic)}  {tr('ready.not_enough', n=r.reviews, need=MIN_REVIEWS)}")
        else:
            lines.append(f"  {pad(topic)}  {round(100 * r.probability):>3}%  ({tr('ready.answers', n=r.reviews)})")
    if ready.overall is None:
        lines.append(f"  {pad(None)}  {tr('ready.not_enough', n=ready.reviews, need=MIN_REVIEWS)}")
    else:
        lines.append(f"  {pad(None)}  {round(100 * ready.overall):>3}%")
    if calibration.answers:
        lines.append(tr("ready.calibration", p=round(100 * calibration.predicted), o=round(100 * calibration.observed),
                        n=calibration.answers, brier=f"{calibration.brier:.3f}"))
        bins = [tr("ready.bin", lo=10 * min(9, int(10 * p)), hi=10 * min(9, int(10 * p)) + 9, o=round(100 * o), n=n)
                for p, o, n in calibration.bins]
        lines.append(tr("ready.reliability", bins=" · ".join(bins)))
    else:
        lines.append(tr("ready.no_calibration"))
    return lines


def memory_source(profile: "Profile", scheduler: str):
    """For FSRS: each item's memory, replayed from its scheduled reviews (the log's digest, read once, when
    the first item needs it); None for SM-2."""
    if scheduler != "fsrs":
        return None
    history: dict | None = None

    def memory(item: str):
        nonlocal history
        if history is None:
            history = fsrs_bridge.history_of_digest(profile.digest())
        return fsrs_bridge.replay(history.get(item, ()))

    return memory


def worst_verdict(verdicts: list[str]) -> str:
    return min(verdicts, key=VERDICT_ORDER.index)


def today_session(ctx: "AppContext") -> Session:
    """Today's queue: due items, then the day's new items (engine.session).

    Templates queued from a mock report (profile setting ``queued_items``) come
    first: in the schedule if they are due or new today, else as extra practice.
    """
    today, cat = ctx.today(), catalog()
    settings, rules = ctx.profile.settings(), learning(ctx.profile)
    rows_today = ctx.profile.reviews_today(today)
    states, recent = ctx.profile.states(), recent_qualities(ctx.profile)
    passed = chains.passed_once(states, recent)
    s = Session(states, cat, today, seed=ctx.new_seed(), new_per_day=rules.new_per_day,
                introduced_today=len(introduced(rows_today)), reviews_per_day=rules.reviews_per_day,
                reviewed_today=reviewed(rows_today), interview=rules.interview,
                recent=recent, is_chain=is_chain,
                chain_ready=lambda c: chains.chain_ready(drills.prerequisites(c), passed),
                retired=chains.retired_scaffolds(drills.SCAFFOLDS, states, recent),
                step_drills=step_drills(ctx.profile), scheduler=rules.scheduler,
                memory=memory_source(ctx.profile, rules.scheduler))
    topic = dict(cat)
    queued = [i for i in dict.fromkeys(settings.get(QUEUE_KEY) or []) if isinstance(i, str) and i in topic]
    if queued:
        planned = {c.item: c for c in s.cards}
        first = [planned.get(i) or Card(i, topic[i], ctx.new_seed(), "extra") for i in queued]
        s.cards = first + [c for c in s.cards if c.item not in queued]
        s.planned = len(s.cards)
    return s


def extra_session(ctx: "AppContext", n: int = 5) -> Session:
    """Extra practice on the weakest items of the whole bank (by recent quality and lapses): extra cards,
    which move the schedule only by :func:`engine.session.moves_schedule`."""
    rules = learning(ctx.profile)
    return Session(ctx.profile.states(), catalog(), ctx.today(), seed=ctx.new_seed(), extra=n,
                   interview=rules.interview, recent=recent_qualities(ctx.profile), scheduler=rules.scheduler,
                   memory=memory_source(ctx.profile, rules.scheduler))


def items_session(ctx: "AppContext", items: list[str]) -> Session:
    """Practice of chosen templates on demand (Browse): extra cards.  A template's first answer enters
    the schedule, later ones move it only on a lapse (:func:`engine.session.moves_schedule`); the daily
    new-item limit is untouched."""
    rules = learning(ctx.profile)
    s = Session(ctx.profile.states(), catalog(), ctx.today(), seed=ctx.new_seed(), new_per_day=0,
                interview=rules.interview, recent=recent_qualities(ctx.profile), scheduler=rules.scheduler,
                memory=memory_source(ctx.profile, rules.scheduler))
    s.cards = [Card(i, registry.get(i).topic, ctx.new_seed(), "extra") for i in items]
    s.planned = len(s.cards)
    return s


def understood(text: str, step: Step, lang: str = "en") -> tuple[bool | None, str]:
    """What the engine reads in ``text`` for ``step``, without grading, in ``lang``.

    ``(True, "= 1.12 × 10¹² B")``, ``(False, reason)``, or ``(None, "")`` for
    nothing typed yet (:func:`engine.grading.understood`; ``?`` is "I don't know").
    """
    if not text.strip():
        return None, ""
    if text.strip() in DONT_KNOW_TYPED:
        return True, "?"
    return engine_understood(text, step.expected, lang)


@mutable
class Answer:
    """One answered step, as recorded and as shown in the feedback."""

    card: Card
    problem: Problem
    step: int  # 0-based index in problem.steps
    typed: str
    status: str  # correct | close | wrong | dont_know
    auto_quality: int  # what the engine gave
    quality: int  # after any override
    seconds: float
    when: datetime
    verdict: Verdict | None  # None for "I don't know"
    value: float | str | None
    prior: list["Answer"] = field(default_factory=list)  # earlier steps of the same chain
    rows: list[dict] = field(default_factory=list)  # stored rows, in the order recorded
    peeked: bool = False  # the formula card was opened while the answer box was live: graded 3 at most
    drills: list[str] = field(default_factory=list)  # step drills this chain answer added (taken back with it)

    @property
    def last_step(self) -> bool:
        return self.step == len(self.problem.steps) - 1

    @property
    def item_row(self) -> dict | None:
        """The row that carries the item's schedule, once the card is finished."""
        return next((r for r in self.rows if r.get("step") is None), None)

    @property
    def chain_quality(self) -> int | None:
        row = self.item_row
        return row["quality"] if row is not None and self.problem.is_chain else None


def summary_grade(quality: int) -> str:
    """How the session summary counts an answer: by its final quality, after any override.

    The inverse of :func:`engine.grading.quality_for`, so an answer left as graded counts
    as its verdict: 4-5 correct, 3 close, 1-2 wrong, 0 don't know.
    """
    return "correct" if quality >= 4 else "close" if quality == 3 else "wrong" if quality >= 1 else DONT_KNOW


class Summary(NamedTuple):
    """Answers counted by final quality (:func:`summary_grade`); a topic's accuracy is the share of
    its answers counted correct or close (quality >= 3)."""

    answered: int
    correct: int
    close: int
    wrong: int
    dont_know: int
    seconds: float
    by_topic: dict[str, tuple[int, int]]  # topic -> (correct or close, answered)
    due_tomorrow: list[str]  # item ids due on or before tomorrow


class PracticeRun:
    """One sitting: a :class:`Session` plus the problem on screen and the answers given."""

    def __init__(self, ctx: "AppContext", session: Session) -> None:
        self.ctx = ctx
        self.session = session
        self.answers: list[Answer] = []
        # an answer not stored whole whose stored rows could not be taken back yet (see the module docstring):
        # they are taken back before the next write; pending_why says why they are still there
        self.pending: Answer | None = None
        self.pending_why: OSError | None = None
        self.fell_back: Answer | None = None  # the answer the last failed override put back to be given again
        self.problem: Problem | None = None
        self.card: Card | None = None
        self.step = 0
        self.prior: list[Answer] = []
        self.started = ctx.now()
        self.peeked = False  # the current step's formula card was opened while its answer box was live
        self.load()

    # ---------------------------------------------------------------- position
    def load(self) -> None:
        """Show the session's current card from its first step."""
        self.card = self.session.current
        self.problem = (registry.get(self.card.item).generate(self.card.seed, hardware=self.ctx.hardware,
                                                              model=self.ctx.model, conventions=self.ctx.conventions)
                        if self.card else None)
        self.step, self.prior, self.started, self.peeked = 0, [], self.ctx.now(), False

    def peek(self) -> None:
        """The formula card was opened while the current step's answer box is live: its grade is capped at
        :data:`PEEK_CAP` (the card shown before a template's first problem is not a peek: not called)."""
        if not self.done:
            self.peeked = True

    @property
    def done(self) -> bool:
        return self.card is None

    @property
    def current_step(self) -> Step:
        return self.problem.steps[self.step]

    @property
    def progress(self) -> tuple[int, int]:
        """Cards finished and cards in the session (re-drills add to the total)."""
        return self.session.answered, self.session.answered + len(self.session.cards)

    @property
    def step_progress(self) -> tuple[int, int]:
        """Steps answered and steps in the session: a chain counts each of its steps (re-drills add theirs)."""
        done = len(self.answers)
        current = self.session.current
        on_current = sum(1 for a in self.answers if a.card is current and a.item_row is None) if current else 0
        left = sum(registry.chain_length(c.item) for c in self.session.cards) - on_current
        return done, done + left

    @property
    def finished_card(self) -> bool:
        """The last answer finished its card (the session moved on)."""
        return bool(self.answers) and self.answers[-1].item_row is not None

    def elapsed(self) -> float:
        return max(0.0, (self.ctx.now() - self.started).total_seconds())

    def advance(self) -> bool:
        """After feedback: the next step of the chain, or the next card. False when the session is over."""
        last = self.answers[-1]
        if last.item_row is None:
            self.step, self.prior, self.started = last.step + 1, last.prior + [last], self.ctx.now()
            self.peeked = False
        else:
            self.load()
        return not self.done

    # ---------------------------------------------------------------- answering
    def judge(self, text: str) -> tuple[Verdict, float]:
        """The verdict on ``text`` for the current step and the seconds it took, recording nothing.

        Reads only, so it may run off the UI thread: a symbolic answer's proof can take seconds
        (:mod:`engine.symbolic`); :meth:`submit` then records the result.
        """
        seconds = self.elapsed()
        step = self.current_step
        return grade(text, step.expected, seconds=seconds, target_seconds=step.target_seconds), seconds

    def submit(self, text: str, judged: tuple[Verdict, float] | None = None) -> Answer | Verdict:
        """Grade (unless ``judged`` by :meth:`judge`) and record ``text``.

        An unreadable answer returns the invalid Verdict (nothing recorded).
        """
        if text.strip() in DONT_KNOW_TYPED:
            return self.dont_know(text.strip())
        v, seconds = judged or self.judge(text)
        step = self.current_step
        if v.status == INVALID:
            return v
        value = step.expected.answer_kind.recorded(v)  # a number in base units, else what was typed, as read
        return self._answer(text, v.status, v.quality, seconds, v, value)

    def dont_know(self, typed: str = "") -> Answer:
        return self._answer(typed, DONT_KNOW, 0, self.elapsed(), None, None)

    def _answer(self, typed, status, quality, seconds, verdict, value) -> Answer:
        self._settle()
        capped = min(quality, PEEK_CAP) if self.peeked else quality
        a = Answer(self.card, self.problem, self.step, typed, status, quality, capped, seconds, self.ctx.now(),
                   verdict, value, list(self.prior), peeked=self.peeked)
        self._record(a)
        self.answers.append(a)
        return a

    def _record(self, a: Answer) -> None:
        """Save the rows of answer ``a`` (durable before this returns); a queued item leaves the queue.

        A write that fails (``engine.storage.SaveFailed``: a full disk...) leaves the session where it was,
        so the same answer can be given again, and takes back what this answer had stored (a chain's step
        row) - or, when that cannot be written either, keeps it as :attr:`pending`.  The error goes to the
        caller (the screen says why and keeps the typed answer)."""
        before, self._moved = len(a.rows), False
        try:
            self._store(a)
        except OSError as e:
            if self._moved:  # the session went on to its next card: this answer's whole row is not stored
                self.session.undo()
            try:
                self._take_back(a, keep=before)
            except OSError:
                self.pending, self.pending_why = a, e
            raise

    def _store(self, a: Answer) -> None:
        # every row of this answer (a chain's steps and its whole-item row) carries the local date of the answer
        card, today, chain = a.card, self.ctx.local_date(a.when), a.problem.is_chain
        if chain:
            row = review_row(item=card.item, topic=card.topic, seed=card.seed, quality=a.quality, verdict=a.status,
                             when=a.when, today=today, state=None, schedule=False, mode=card.mode, typed=a.typed,
                             value=a.value, seconds=a.seconds, step=a.step + 1, hardware=a.problem.hardware,
                             model=a.problem.model,
                             conventions=a.problem.chosen_conventions)
            a.rows.append(self.ctx.profile.record(row))
        if not chain or a.last_step:
            steps = a.prior + [a]
            if chain:
                row = self.session.answer(chain_quality([s.quality for s in steps]),
                                          worst_verdict([s.status for s in steps]), when=a.when, typed="",
                                          value=None, seconds=sum(s.seconds for s in steps), today=today,
                                          hardware=a.problem.hardware, model=a.problem.model,
                                          conventions=a.problem.chosen_conventions)
            else:
                row = self.session.answer(a.quality, a.status, when=a.when, typed=a.typed, value=a.value,
                                          seconds=a.seconds, today=today, hardware=a.problem.hardware,
                                          model=a.problem.model, conventions=a.problem.chosen_conventions)
            self._moved = True  # the session is on its next card: taken back if this row is not stored
            a.rows.append(self.ctx.profile.record(row))
            self._moved = False
            try:
                self._unqueue(card.item)
                if chain:
                    a.drills = note_step_drills(self.ctx.profile, card.item, [s.quality for s in steps], today)
            except OSError:  # the answer is stored; the item stays queued (asked first next time too)
                pass

    def _unqueue(self, item: str) -> None:
        settings = self.ctx.profile.settings()
        queued = settings.get(QUEUE_KEY) or []
        if item in queued:
            self.ctx.profile.set_setting(QUEUE_KEY, [i for i in queued if i != item])
        drills_due = settings.get(STEP_DRILLS_KEY)
        if isinstance(drills_due, dict) and item in drills_due:
            self.ctx.profile.set_setting(STEP_DRILLS_KEY, {k: v for k, v in drills_due.items() if k != item})

    def _take_back(self, a: Answer, keep: int = 0) -> None:
        """Take back the rows of ``a`` stored after its first ``keep`` (the newest rows of the log), newest first;
        the session steps back when its whole row goes.  ``SaveFailed`` when one cannot be: ``a.rows`` holds
        those still stored."""
        while len(a.rows) > keep:
            stored = a.rows[-1]
            last = self.ctx.profile.last_review()
            if last is None or last["id"] != stored["id"]:  # not the newest row now (see Profile._remove_last_row)
                from engine.storage import SaveFailed

                raise SaveFailed(self.ctx.profile.path / "reviews", OSError(errno.EAGAIN, "its row is in an older "
                                 "log file, which cannot be changed now (damaged, or its folder cannot be written)"))
            removed = self.ctx.profile.undo_last()
            if removed is None or removed.get("id") != stored.get("id"):
                raise RuntimeError(f"undo removed {removed!r}, expected the row {stored.get('id')}")
            a.rows.pop()
            if stored.get("step") is None:
                self.session.undo()

    def _settle(self) -> None:
        """Take back the rows :attr:`pending` left in the log, before anything else is written (``SaveFailed``:
        still there, nothing else changed)."""
        if self.pending is not None:
            self._take_back(self.pending)
            self.pending = self.pending_why = None

    def _back_to(self, a: Answer) -> None:
        """The session's position back on the step ``a`` answered, its clock where it was."""
        self.card, self.problem, self.step, self.prior = a.card, a.problem, a.step, list(a.prior)
        self.started = self.ctx.now() - timedelta(seconds=a.seconds)

    def _put_back(self, a: Answer, why: OSError) -> None:
        """``a`` (the last answer) is no longer stored whole: it leaves the answers, the session goes back to
        its step to have it given again, and what of it is still stored is :attr:`pending`."""
        self.answers.remove(a)
        self._back_to(a)
        if a.rows:
            self.pending, self.pending_why = a, why

    def override(self, quality: int) -> Answer:
        """Re-record the last answer with ``quality`` (0-5): its rows are rewritten in one write of the log
        (``Profile.rewriting``), so a crash or a full disk leaves the old grade or the new one, never neither.

        ``SaveFailed`` when the disk refuses: nothing changed (the answer stays as it was).  In the rare
        re-grade written in parts (its rows in two log files) a failure half-way puts the answer back to be
        given again (:attr:`fell_back`), as an undo stopped half-way does."""
        if not 0 <= quality <= 5:
            raise ValueError(f"quality must be 0-5, not {quality}")
        self.fell_back = None
        if self.answers and self.answers[-1].peeked:  # an answer given after a peek stays at 3 at most
            quality = min(quality, PEEK_CAP)
        self._settle()
        a = self.answers[-1]
        old_quality, old_rows, mark = a.quality, list(a.rows), self.session.checkpoint()
        profile = self.ctx.profile
        try:
            with profile.rewriting():
                self._take_back(a)
                self._forget_drills(a)  # the regraded answer notes its own (a settings write: harmless if kept)
                a.quality = quality
                self._store(a)
        except OSError as e:
            a.quality = old_quality
            if profile.rewrite_split:  # written in parts: what is stored of it is pending
                self._put_back(a, e)
                self.fell_back = a
            else:  # nothing was written: the answer and the session as they were
                a.rows = old_rows
                self.session.restore(mark)
            raise
        return a

    def undo(self) -> Answer | None:
        """Take back the last answer and go back to its step; returns it (for its typed text).

        ``SaveFailed`` when the disk refuses before anything is taken back (nothing changed); an answer taken
        back in part (its whole row gone, a chain's step row not) is undone all the same, the rest
        :attr:`pending` (removed before the next write)."""
        self._settle()
        if not self.answers:
            return None
        a = self.answers[-1]
        rows = len(a.rows)
        try:
            self._take_back(a)
        except OSError as e:
            if len(a.rows) == rows:
                raise
            self._put_back(a, e)
            return a
        self.answers.pop()
        self._back_to(a)
        self._forget_drills(a)
        return a

    def _forget_drills(self, a: Answer) -> None:
        """The step drills ``a`` added go with it (undone or regraded); a failed write leaves them (harmless:
        the step is asked alone once more)."""
        if a.drills:
            try:
                forget_step_drills(self.ctx.profile, a.drills)
            except OSError:
                pass
            a.drills = []

    # ---------------------------------------------------------------- the end
    def summary(self) -> Summary:
        count = {k: 0 for k in VERDICT_ORDER}
        topics: dict[str, list[int]] = {}
        for a in self.answers:
            grade = summary_grade(a.quality)
            count[grade] += 1
            passed_answered = topics.setdefault(a.card.topic, [0, 0])
            passed_answered[0] += grade in ("correct", "close")
            passed_answered[1] += 1
        tomorrow = self.ctx.today() + timedelta(days=1)
        bank = {i for i, _ in catalog()}
        due = sorted(i for i, s in self.ctx.profile.states().items() if i in bank and s.due and s.due <= tomorrow)
        return Summary(len(self.answers), count["correct"], count["close"], count["wrong"], count[DONT_KNOW],
                       sum(a.seconds for a in self.answers), {k: (v[0], v[1]) for k, v in topics.items()}, due)


class Today(NamedTuple):
    """Home's figures: what today's session holds and how the learner is doing.

    ``due + new + queued`` is what ``p`` asks: ``queued`` counts the templates
    queued from a mock report that are neither due nor new today (a queued
    template that is due or new counts there, once).
    """

    due: int
    new: int
    streak: int
    reviews_today: int
    next_due: date | None
    weakest: int  # items available for extra practice
    bank: int
    topics: int
    queued: int = 0  # queued from a mock report, asked first, outside the schedule
    plan: Plan | None = None  # what the interview date does today (None: no session built)
    readiness: dict[str, tuple[int, int]] = {}  # topic -> (ready, templates), shown with an interview date
    held_back: int = 0  # due items left for another day by the daily review cap

    @property
    def session(self) -> int:
        """Problems in today's session (0: it is done)."""
        return self.due + self.new + self.queued


def today_figures(ctx: "AppContext") -> Today:
    """Home's figures; the streak comes from the profile's day index, so the log is not read."""
    from engine.session import readiness
    from engine.stats import streaks

    today = ctx.today()
    session = today_session(ctx)
    kinds = [c.kind for c in session.cards]
    cat = catalog()
    ready = {}
    if session.plan.interview is not None:
        last = {item: r.quality for item, r in ctx.profile.recent().items()}
        ready = readiness(session.states, last, cat, today)
    return Today(kinds.count("due"), kinds.count("new"), streaks(ctx.profile.study_days(), today)[0],
                 answers_count(ctx.profile.reviews_today(today)), session.next_due(), len(session.weakest()),
                 len(cat), len({topic for _, topic in cat}), queued=kinds.count("extra"), plan=session.plan,
                 readiness=ready, held_back=session.held_back)


def answers_count(rows) -> int:
    """Answers, as the stats count them: a chain practised whole counts once (its whole-item row);
    steps without a whole-item row (a mock, an abandoned chain) count one by one."""
    rows = list(rows)
    whole = {(r["item"], r["seed"]) for r in rows if r.get("step") is None}
    return sum(1 for r in rows if r.get("step") is None or (r["item"], r["seed"]) not in whole)


class BankRow(NamedTuple):
    """One template in Browse: its schedule and its last result."""

    item: str
    topic: str
    state: str  # new | learning | review
    due: date | None
    ef: float | None
    last: str | None  # the last whole answer's final grade, counted as the summary counts it (summary_grade)
    last_date: str | None
    reps: int | None = None  # SM-2 passes in a row (None: never scheduled)
    interval: int | None = None  # days (None: never scheduled)


# Browse's status filter: what each status means is :func:`statuses`
STATUSES = ("new", "due", "lapsed", "mastered")
# Browse's "last result" order: the worst first, never answered last
LAST_ORDER = {DONT_KNOW: 0, "wrong": 1, "close": 2, "correct": 3, None: 4}


def statuses(row: BankRow, today: date) -> frozenset[str]:
    """Which of :data:`STATUSES` a template has: *new* never scheduled; *due* on or before ``today``;
    *lapsed* scheduled, but its last scheduled review failed (SM-2 reps back to 0: not *learned* as the
    stats count it); *mastered* mature as the stats count it (interval >= engine.stats.MATURE_DAYS)."""
    from engine.stats import MATURE_DAYS

    if row.state == "new":
        return frozenset({"new"})
    out = set()
    if row.due is not None and row.due <= today:
        out.add("due")
    if row.reps == 0:
        out.add("lapsed")
    if row.interval is not None and row.interval >= MATURE_DAYS:
        out.add("mastered")
    return frozenset(out)


def bank_rows(ctx: "AppContext") -> list[BankRow]:
    """Every template in bank order with its state: new (never scheduled), learning (fewer than
    two passed reviews in a row), review; the last whole answer by its final quality, after any override
    (as the session summary counts it).  Reads the state file's figures (``Profile.recent``), not the log."""
    states, recent = ctx.profile.states(), ctx.profile.recent()
    out = []
    for t in registry.all_templates():
        s, r = states.get(t.id), recent.get(t.id)
        state = "new" if s is None else "learning" if s.reps < 2 else "review"
        out.append(BankRow(t.id, t.topic, state, s.due if s else None, s.ef if s else None,
                           summary_grade(r.quality) if r and r.quality is not None else None,
                           r.date if r else None, s.reps if s else None, s.interval if s else None))
    return out


def weakness(ctx: "AppContext") -> dict[str, float]:
    """Template id -> weakness in [0, 1] for a weighted mock (:func:`engine.mock.weakness_figures`),
    from the qualities of each template's latest answers kept in the state file: the log is not read."""
    return weakness_of(ctx.profile)


def weakness_of(profile: "Profile") -> dict[str, float]:
    """:func:`weakness` of an open profile (for a command that has no app context)."""
    from engine.mock import weakness_figures

    return weakness_figures({"item": item, "quality": q} for item, r in profile.recent().items() for q in r.qualities)
