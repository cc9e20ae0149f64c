"""Browse's rows: every template with its schedule and last result, and the status filter."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from drill.core.practice_run import summary_grade
from engine.records import NamedTuple
from engine.status import CLOSE, CORRECT, DONT_KNOW, WRONG
from question_bank import registry

if TYPE_CHECKING:
    from drill.core.context import AppContext


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
    leech: bool = False  # failed 6 times or more since any reset (engine.leeches)
    suspended: bool = False  # taken out of the schedule by the learner (drill.core.leeches)


# Browse's status filter: what each status means is :func:`statuses`
STATUSES = ("new", "due", "lapsed", "mastered", "leech", "suspended")
# Browse's "last result" order: the worst first, never answered last
LAST_ORDER: dict[str | None, int] = {DONT_KNOW: 0, WRONG: 1, CLOSE: 2, CORRECT: 3, None: 4}


def statuses(row: BankRow, today: date) -> frozenset[str]:
    """Which of :data:`STATUSES` a template has: *new* never scheduled; *due* on or before ``today``;
    *lapsed* scheduled, but its last scheduled review failed (SM-2 reps back to 0: not *learned* as the
    stats count it); *mastered* mature as the stats count it (interval >= engine.stats.MATURE_DAYS); *leech*
    failed 6 times or more (engine.leeches); *suspended* taken out of the schedule by the learner."""
    from engine.stats import MATURE_DAYS

    out = {"leech"} if row.leech else set()
    if row.suspended:
        out.add("suspended")
    if row.state == "new":
        return frozenset({"new"} | out)
    if row.due is not None and row.due <= today:
        out.add("due")
    if row.reps == 0:
        out.add("lapsed")
    if row.interval is not None and row.interval >= MATURE_DAYS:
        out.add("mastered")
    return frozenset(out)


def bank_rows(ctx: AppContext, leeches: frozenset[str] = frozenset(),
              suspended: frozenset[str] = frozenset()) -> list[BankRow]:
    """Every template in bank order with its state: new (never scheduled), learning (fewer than
    two passed reviews in a row), review; the last whole answer by its final quality, after any override
    (as the session summary counts it); whether it is one of the ``leeches`` or ``suspended``.  Reads the
    state file's figures (``Profile.recent``), not the log (the caller reads the leeches once, from it)."""
    states, recent = ctx.profile.states(), ctx.profile.recent()
    out = []
    for t in registry.all_templates():
        s, r = states.get(t.id), recent.get(t.id)
        state = "new" if s is None else "learning" if s.reps < 2 else "review"
        out.append(BankRow(t.id, t.topic, state, s.due if s else None, s.ef if s else None,
                           summary_grade(r.quality) if r and r.quality is not None else None,
                           r.date if r else None, s.reps if s else None, s.interval if s else None,
                           t.id in leeches, t.id in suspended))
    return out
