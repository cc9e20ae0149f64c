"""Recording an answer from the profile: the one path every face takes (:func:`engine.session.record`).

:func:`book_of` reads what the profile says about scheduling (:func:`drill.core.settings.rules_of`: the
scheduler, interview date, daily cap, new items a day), its item states, FSRS memory and the items first met
today; :func:`record_answer` builds the row through :func:`engine.session.record`.  The app's session holds
the same book (:func:`drill.core.sessions.today_session`), so practice, the mock's save and ``drill check
--record`` schedule the same answers on the same days alike.  :func:`settle_queue`: an item answered whole
leaves the queue a mock filled and the step drills a chain's failed step filled.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING

from engine.session import QUEUE_KEY, Book, Drawn, Moves, met, record

if TYPE_CHECKING:
    from engine.review import Review
    from engine.storage import Profile


def book_of(profile: Profile, today: date) -> Book:
    """The learner's book now: states, rules, FSRS memory, the new items met ``today``, the retired scaffolds."""
    from drill.core.sessions import catalog, memory_source, retired
    from drill.core.settings import rules_of

    rules = rules_of(profile)
    return Book(profile.states(), rules, catalog(), memory_source(profile, rules.scheduler),
                len(met(profile.reviews_today(today))), retired(profile))


def record_answer(profile: Profile, drawn: Drawn, *, quality: int, verdict: str, when: datetime, today: date,
                  mode: str, moves: Moves, typed: str = "", value: float | str | None = None,
                  seconds: float | None = 0.0, step: int | None = None, pressed: bool = False,
                  hint: int | None = None) -> Review:
    """The review row of an answer given ``today`` (not stored), scheduled by the profile's book (``pressed``:
    the learner chose the grade; ``hint``: the hint taken, which caps the grade: :func:`engine.session.record`)."""
    return record(book_of(profile, today), drawn, quality=quality, verdict=verdict, when=when, today=today,
                  mode=mode, moves=moves, typed=typed, value=value, seconds=seconds, step=step,
                  pressed=pressed, hint=hint)


def settle_queue(profile: Profile, item: str) -> None:
    """``item`` was answered whole: it leaves the queue a mock filled and the step drills (a chain's failed
    step, practised alone).  ``SaveFailed`` when the settings cannot be written (the answer is stored)."""
    from drill.core.settings import STEP_DRILLS_KEY

    settings = profile.settings()
    queued = settings.get(QUEUE_KEY) or []
    if item in queued:
        profile.set_setting(QUEUE_KEY, [i for i in queued if i != item])
    drills_due = settings.get(STEP_DRILLS_KEY)
    if isinstance(drills_due, dict) and item in drills_due:
        profile.set_setting(STEP_DRILLS_KEY, {k: v for k, v in drills_due.items() if k != item})
