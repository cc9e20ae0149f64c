"""Home's figures: what today's session holds and how the learner is doing."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import TYPE_CHECKING

from drill.core.sessions import catalog, today_session
from engine.records import NamedTuple
from engine.session import Plan

if TYPE_CHECKING:
    from drill.core.context import AppContext
    from engine.review import Review


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


def today_figures(ctx: AppContext) -> Today:
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


def answers_count(rows: Iterable[Review]) -> int:
    """Answers, as the stats count them: a chain practised whole counts once (its whole-item row);
    steps without a whole-item row (a mock, an abandoned chain) count one by one."""
    rows = list(rows)
    whole = {(r.item, r.seed) for r in rows if r.step is None}
    return sum(1 for r in rows if r.step is None or (r.item, r.seed) not in whole)
