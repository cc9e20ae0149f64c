"""Building a practice session: today's queue, extra practice, chosen templates, and the step drills."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from drill.core.leeches import suspended, weakest_step_drill
from drill.core.settings import STEP_DRILLS_KEY, interview_date, learning, rules_of, tuning_of
from engine.schedule import chains, fsrs_bridge
from engine.session import QUEUE_KEY, Card, Session, introduced, met, reviewed
from question_bank import drills, registry

if TYPE_CHECKING:
    from drill.core.context import AppContext
    from engine.storage import Profile


def catalog() -> list[tuple[str, str]]:
    """The bank as ``(item, topic)`` pairs in bank order, for engine.session."""
    return registry.catalog()


def is_chain(item: str) -> bool:
    """Is the template ``item`` a chain (introduced after its topic's single questions)?"""
    return registry.chain_length(item) > 1


def recent_qualities(profile: Profile) -> dict[str, tuple[int, ...]]:
    """Each template's latest qualities (every mode), for the weakest items."""
    return {item: r.qualities for item, r in profile.recent().items()}


def chain_quality(qualities: list[int], before: list[int] | None = None) -> int:
    """A chain is scheduled as one unit: the lowest quality of its steps, except that one slip among right
    steps is a pass with quality 3 - unless that step failed in the chain's previous answer too (``before``,
    :func:`previous_chain_steps`): then it starts over (:func:`engine.schedule.chains.chain_quality`)."""
    return chains.chain_quality(qualities, before)


def chain_one_slip(qualities: list[int], before: list[int] | None = None) -> bool:
    """Whether :func:`chain_quality` passed the chain on its one-slip rule rather than taking its lowest step."""
    return chains.one_slip(qualities) and not chains.repeated_slip(qualities, before)


def previous_chain_steps(profile: Profile, item: str) -> list[int] | None:
    """The step qualities of the chain ``item``'s last whole answer in the log (None: never answered whole)."""
    d = profile.digest()
    return chains.previous_steps(d.item, d.step, d.quality, item)


def retired(profile: Profile) -> frozenset[str]:
    """The templates no longer scheduled: the "formula given" scaffolds retired (their full template passed
    twice, question_bank.drills) and the ones the learner suspended (a leech, drill.core.leeches)."""
    return chains.retired_scaffolds(drills.SCAFFOLDS, profile.states(), recent_qualities(profile)) | suspended(profile)


def step_drills(profile: Profile) -> dict[str, date]:
    """The single templates to practise alone (a chain's failed step), by the day they are due."""
    raw = profile.settings().get(STEP_DRILLS_KEY)
    out = {}
    if isinstance(raw, dict):
        for item, day in raw.items():
            when = interview_date(day)
            if isinstance(item, str) and when is not None:
                out[item] = when
    return out


def note_step_drills(profile: Profile, item: str, qualities: list[int], today: date) -> list[str]:
    """After a chain answer: each failed step's single template is due alone the next day (a setting; kept
    until answered), and a leech's weakest step's too (:func:`drill.core.leeches.weakest_step_drill`).  Returns
    the templates this added (not already waiting).  ``SaveFailed`` when it cannot be written (the answer
    itself is stored)."""
    new = chains.step_drills(drills.step_templates(item), qualities, today)
    for template, day in weakest_step_drill(profile, item, today).items():  # a leech's weakest step, alone too
        new.setdefault(template, day)
    current = {k: v.isoformat() for k, v in step_drills(profile).items()}
    added = [k for k in new if k not in current]
    if added:
        current.update({k: new[k].isoformat() for k in added})
        profile.set_setting(STEP_DRILLS_KEY, current)
    return added


def forget_step_drills(profile: Profile, items: list[str]) -> None:
    """Take back the step drills an answer added (that answer undone or regraded)."""
    current = step_drills(profile)
    if any(i in current for i in items):
        profile.set_setting(STEP_DRILLS_KEY, {k: v.isoformat() for k, v in current.items() if k not in items})


def memory_source(profile: Profile, scheduler: str):
    """For FSRS: each item's memory, replayed from its scheduled reviews (the log's digest, read once, when
    the first item needs it) with the profile's weights and retention; None for SM-2."""
    if scheduler != fsrs_bridge.Scheduler.FSRS:
        return None
    history: dict | None = None
    tuning = tuning_of(profile)

    def memory(item: str):
        nonlocal history
        if history is None:
            history = fsrs_bridge.history_of_digest(profile.digest())
        return fsrs_bridge.replay(history.get(item, ()), tuning)

    return memory


def today_session(ctx: AppContext) -> Session:
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
                introduced_today=len(introduced(rows_today)), met_today=len(met(rows_today)), reviews_per_day=rules.reviews_per_day,
                reviewed_today=reviewed(rows_today), interview=rules.interview,
                recent=recent, is_chain=is_chain,
                chain_ready=lambda c: chains.chain_ready(drills.prerequisites(c), passed),
                retired=chains.retired_scaffolds(drills.SCAFFOLDS, states, recent) | suspended(ctx.profile),
                step_drills=step_drills(ctx.profile), scheduler=rules.scheduler,
                memory=memory_source(ctx.profile, rules.scheduler), rules=rules_of(ctx.profile))
    topic = dict(cat)
    queued = [i for i in dict.fromkeys(settings.get(QUEUE_KEY) or []) if isinstance(i, str) and i in topic]
    if queued:
        planned = {c.item: c for c in s.cards}
        first = [planned.get(i) or Card(i, topic[i], ctx.new_seed(), "extra") for i in queued]
        s.cards = first + [c for c in s.cards if c.item not in queued]
        s.planned = len(s.cards)
    return s


def extra_session(ctx: AppContext, n: int = 5) -> Session:
    """Extra practice on the weakest items of the whole bank (by recent quality and lapses): extra cards,
    which move the schedule only by :func:`engine.session.moves_schedule`."""
    rules, today = learning(ctx.profile), ctx.today()
    return Session(ctx.profile.states(), catalog(), today, seed=ctx.new_seed(), extra=n,
                   interview=rules.interview, recent=recent_qualities(ctx.profile), scheduler=rules.scheduler,
                   memory=memory_source(ctx.profile, rules.scheduler), rules=rules_of(ctx.profile),
                   met_today=len(met(ctx.profile.reviews_today(today))), retired=retired(ctx.profile))


def items_session(ctx: AppContext, items: list[str], seed: int | None = None) -> Session:
    """Practice of chosen templates on demand (Browse, ``drill practice TEMPLATE``): extra cards.  A
    template's first answer enters the schedule, later ones move it only on a lapse
    (:func:`engine.session.moves_schedule`); the daily new-item limit is untouched.  ``seed``: the first
    card's problem (a fresh seed otherwise, and for every later card and re-drill)."""
    rules, today = learning(ctx.profile), ctx.today()
    s = Session(ctx.profile.states(), catalog(), today, seed=ctx.new_seed(), new_per_day=0,
                interview=rules.interview, recent=recent_qualities(ctx.profile), scheduler=rules.scheduler,
                memory=memory_source(ctx.profile, rules.scheduler), rules=rules_of(ctx.profile),
                met_today=len(met(ctx.profile.reviews_today(today))), retired=retired(ctx.profile))
    s.cards = [Card(i, registry.get(i).topic, seed if k == 0 and seed is not None else ctx.new_seed(), "extra")
               for k, i in enumerate(items)]
    s.planned = len(s.cards)
    return s
