"""A practice session as the app runs it: grade, record, override, undo, summarise.

No Textual here: the Practice screen renders a :class:`PracticeRun`; tests can
drive one directly.  The queue, re-drills and the review rows come from
:class:`engine.session.Session`; grading from :func:`engine.grading.grade`.

Recording rules (docs/practice.md):

* A single question: one row, ``step`` None, scheduled for due/new cards.
* A chain (several steps): one row per step (``step`` 1, 2, ...; never
  scheduled), then, when its last step is answered, one row for the whole item
  (``step`` None, empty ``typed``) that carries the schedule.  The chain's
  quality is the **minimum** of its step qualities (a chain is only as sound as
  its weakest step), except that one slip among right steps records 3 - unless the same step failed in the
  chain's previous answer: then it starts over (:func:`engine.schedule.chains.chain_quality`) - and its
  verdict is the worst step verdict.
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
from collections.abc import Sequence
from dataclasses import field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from drill.core.recording import record_answer, settle_queue
from drill.core.sessions import (
    catalog,
    chain_one_slip,
    chain_quality,
    forget_step_drills,
    note_step_drills,
    previous_chain_steps,
)
from engine.grading import INVALID, Verdict, grade
from engine.grading import understood as engine_understood
from engine.hints import CAPS as HINT_CAPS
from engine.langs import EN
from engine.records import NamedTuple, mutable
from engine.review import Review
from engine.schedule import chains
from engine.session import Card, Drawn, Moves, Session
from engine.status import CLOSE, CORRECT, DONT_KNOW, WORST_FIRST, WRONG, Status
from question_bank import registry
from question_bank.hints import hint_levels
from question_bank.steps import Step
from question_bank.template import Problem

if TYPE_CHECKING:
    from drill.core.context import AppContext


# Summary is a NamedTuple (immutable, compared by value): cheaper to define than a frozen dataclass, and this
# module is imported before the first problem shows (benchmarks/bench_startup.py).
DONT_KNOW_TYPED = ("?", "？")
PEEK_CAP = 3  # the highest grade of an answer given after opening its formula card, or after seeing its solution


def worst_verdict(verdicts: Sequence[str]) -> str:
    return min(verdicts, key=WORST_FIRST.index)


def understood(text: str, step: Step, lang: str = EN) -> tuple[bool | None, str]:
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
    prior: list[Answer] = field(default_factory=list)  # earlier steps of the same chain
    rows: list[Review] = field(default_factory=list)  # stored rows, in the order recorded
    peeked: bool = False  # the formula card was opened while the answer box was live: graded 3 at most
    drills: list[str] = field(default_factory=list)  # step drills this chain answer added (taken back with it)
    pressed: bool = False  # the grade was chosen by the learner (a re-grade): under FSRS only such a 5 is Easy
    # answered again after an undo: its solution was on show in the feedback, so graded 3 at most
    after_solution: bool = False
    before: list[int] | None = None  # a chain's last step: the step qualities of the chain's previous answer
    hint: int | None = None  # the hint taken before answering (engine.hints): caps the grade, kept in the row

    @property
    def last_step(self) -> bool:
        return self.step == len(self.problem.steps) - 1

    @property
    def item_row(self) -> Review | None:
        """The row that carries the item's schedule, once the card is finished."""
        return next((r for r in self.rows if r.step is None), None)

    @property
    def chain_quality(self) -> int | None:
        row = self.item_row
        return row.quality if row is not None and self.problem.is_chain else None

    @property
    def chain_one_slip(self) -> bool:
        """The chain's grade came from the one-slip rule (a pass, 3), not from its lowest step."""
        return self.problem.is_chain and chain_one_slip([s.quality for s in self.prior + [self]], self.before)

    @property
    def chain_repeated_slip(self) -> bool:
        """The chain failed the same step as in its previous answer: it starts over (no one-slip pass)."""
        return self.problem.is_chain and chains.repeated_slip([s.quality for s in self.prior + [self]],
                                                              self.before)


def summary_grade(quality: int) -> Status:
    """How the session summary counts an answer: by its final quality, after any override.

    The inverse of :func:`engine.grading.quality_for`, so an answer left as graded counts
    as its verdict: 4-5 correct, 3 close, 1-2 wrong, 0 don't know.
    """
    return CORRECT if quality >= 4 else CLOSE if quality == 3 else WRONG if quality >= 1 else DONT_KNOW


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

    def __init__(self, ctx: AppContext, session: Session) -> None:
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
        self.hint = 0  # the hints of the current step taken so far (engine.hints: 0 none, 1, 2)
        # the steps (card, step) whose answer was undone after its feedback showed the solution: answered again,
        # they are graded 3 at most (an undo is no way to a clean 5 on a problem whose solution was read)
        self.solution_seen: set[tuple[Card, int]] = set()
        self.load()

    # ---------------------------------------------------------------- position
    def load(self) -> None:
        """Show the session's current card from its first step."""
        self.card = self.session.current
        self.problem = (registry.get(self.card.item).generate(self.card.seed, hardware=self.ctx.hardware,
                                                              model=self.ctx.model, conventions=self.ctx.conventions)
                        if self.card else None)
        self.step, self.prior, self.started, self.peeked, self.hint = 0, [], self.ctx.now(), False, 0

    def peek(self) -> None:
        """The formula card was opened while the current step's answer box is live: its grade is capped at
        :data:`PEEK_CAP` (the card shown before a template's first problem is not a peek: not called)."""
        if not self.done:
            self.peeked = True

    def take_hint(self) -> int | None:
        """The next hint of the current step (1, then 2: its words are :func:`question_bank.hints.hint_text`), or
        None when the ladder's next step is the solution (the step has no further hint): the grade of the answer
        is capped by the highest hint taken (:data:`engine.hints.CAPS`)."""
        if self.done or self.hint >= hint_levels(self.current_step):
            return None
        self.hint += 1
        return self.hint

    @property
    def done(self) -> bool:
        return self.card is None

    @property
    def current_step(self) -> Step:
        assert self.problem is not None, "read only while a card is on show (not done)"
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

    def elapsed(self) -> float:
        return max(0.0, (self.ctx.now() - self.started).total_seconds())

    def advance(self) -> bool:
        """After feedback: the next step of the chain, or the next card. False when the session is over."""
        last = self.answers[-1]
        if last.item_row is None:
            self.step, self.prior, self.started = last.step + 1, last.prior + [last], self.ctx.now()
            self.peeked, self.hint = False, 0
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
        """Record "I don't know" (quality 0); ``typed``: what was in the box (the screen asks before it gives up
        a typed answer), kept in the row."""
        return self._answer(typed, DONT_KNOW, 0, self.elapsed(), None, None)

    @property
    def after_solution(self) -> bool:
        """The current step is answered again after an undo, its solution seen: graded 3 at most."""
        return self.card is not None and (self.card, self.step) in self.solution_seen

    def _answer(self, typed, status, quality, seconds, verdict, value) -> Answer:
        self._settle()
        seen = self.after_solution
        hint = self.hint or None
        capped = min(quality, PEEK_CAP) if self.peeked or seen else quality
        capped = min(capped, HINT_CAPS[hint]) if hint else capped
        assert self.card is not None and self.problem is not None, "an answer is to a card on show (not done)"
        a = Answer(self.card, self.problem, self.step, typed, status, quality, capped, seconds, self.ctx.now(),
                   verdict, value, list(self.prior), peeked=self.peeked, after_solution=seen, hint=hint)
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
            drawn = Drawn(card.item, card.topic, card.seed, a.problem.hardware, a.problem.model,
                          a.problem.chosen_conventions)
            row = record_answer(self.ctx.profile, drawn, quality=a.quality, verdict=a.status, when=a.when,
                                today=today, mode=card.mode, moves=Moves.NEVER, typed=a.typed, value=a.value,
                                seconds=a.seconds, step=a.step + 1, pressed=a.pressed, hint=a.hint)
            a.rows.append(self.ctx.profile.record(row))
        if not chain or a.last_step:
            steps = a.prior + [a]
            if chain:
                a.before = previous_chain_steps(self.ctx.profile, card.item)
                row = self.session.answer(chain_quality([s.quality for s in steps], a.before),
                                          worst_verdict([s.status for s in steps]), when=a.when, typed="",
                                          value=None, seconds=sum(s.seconds for s in steps), today=today,
                                          hardware=a.problem.hardware, model=a.problem.model,
                                          conventions=a.problem.chosen_conventions, pressed=a.pressed)
            else:
                row = self.session.answer(a.quality, a.status, when=a.when, typed=a.typed, value=a.value,
                                          seconds=a.seconds, today=today, hardware=a.problem.hardware,
                                          model=a.problem.model, conventions=a.problem.chosen_conventions,
                                          pressed=a.pressed, hint=a.hint)
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
        settle_queue(self.ctx.profile, item)

    def _take_back(self, a: Answer, keep: int = 0) -> None:
        """Take back the rows of ``a`` stored after its first ``keep`` (the newest rows of the log), newest first;
        the session steps back when its whole row goes.  ``SaveFailed`` when one cannot be: ``a.rows`` holds
        those still stored."""
        while len(a.rows) > keep:
            stored = a.rows[-1]
            last = self.ctx.profile.last_review()
            if last is None or last.id != stored.id:  # not the newest row now (see Profile._remove_last_row)
                from engine.storage import SaveFailed

                raise SaveFailed(self.ctx.profile.path / "reviews", OSError(errno.EAGAIN, "its row is in an older "
                                 "log file, which cannot be changed now (damaged, or its folder cannot be written)"))
            removed = self.ctx.profile.undo_last()
            if removed is None or removed.id != stored.id:
                raise RuntimeError(f"undo removed {removed!r}, expected the row {stored.id}")
            a.rows.pop()
            if stored.step is None:
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
        self.hint = a.hint or 0  # the hints taken stay taken: answered again, it is capped as before
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
        if self.answers and (self.answers[-1].peeked or self.answers[-1].after_solution):  # stays at 3 at most
            quality = min(quality, PEEK_CAP)
        if self.answers and self.answers[-1].hint:  # a hinted answer stays within its hint's cap
            quality = min(quality, HINT_CAPS[self.answers[-1].hint])
        self._settle()
        a = self.answers[-1]
        old_quality, old_pressed, old_rows, mark = a.quality, a.pressed, list(a.rows), self.session.checkpoint()
        profile = self.ctx.profile
        try:
            with profile.rewriting():
                self._take_back(a)
                self._forget_drills(a)  # the regraded answer notes its own (a settings write: harmless if kept)
                a.quality, a.pressed = quality, True
                self._store(a)
        except OSError as e:
            a.quality, a.pressed = old_quality, old_pressed
            if profile.rewrite_split:  # written in parts: what is stored of it is pending
                self._put_back(a, e)
                self.fell_back = a
            else:  # nothing was written: the answer and the session as they were
                a.rows = old_rows
                self.session.restore(mark)
            raise
        return a

    def undo(self) -> Answer | None:
        """Take back the last answer and go back to its step; returns it (for its typed text).  Its feedback
        showed the solution, so the step answered again is graded 3 at most (:attr:`solution_seen`).

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
            self.solution_seen.add((a.card, a.step))
            return a
        self.answers.pop()
        self._back_to(a)
        self.solution_seen.add((a.card, a.step))
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
        count = {k: 0 for k in WORST_FIRST}
        topics: dict[str, list[int]] = {}
        for a in self.answers:
            grade = summary_grade(a.quality)
            count[grade] += 1
            passed_answered = topics.setdefault(a.card.topic, [0, 0])
            passed_answered[0] += grade in (CORRECT, CLOSE)
            passed_answered[1] += 1
        tomorrow = self.ctx.today() + timedelta(days=1)
        bank = {i for i, _ in catalog()}
        due = sorted(i for i, s in self.ctx.profile.states().items() if i in bank and s.due and s.due <= tomorrow)
        return Summary(len(self.answers), count[CORRECT], count[CLOSE], count[WRONG], count[DONT_KNOW],
                       sum(a.seconds for a in self.answers), {k: (v[0], v[1]) for k, v in topics.items()}, due)
