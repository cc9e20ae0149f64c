"""The interview plan and the readiness fit, and the lines Home, Settings, Stats and ``drill plan`` say."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from drill.core.sessions import catalog, is_chain, memory_source, recent_qualities, retired
from drill.core.settings import learning, tuning_of
from engine.schedule import chains
from engine.session import Plan, introduced, plan_for
from question_bank import drills

if TYPE_CHECKING:
    from drill.core.context import AppContext
    from engine.storage import Profile


def plan(ctx: AppContext) -> Plan:
    """What the interview date does to today's new items (days left, pace, warning)."""
    today, settings = ctx.today(), learning(ctx.profile)
    done = introduced(ctx.profile.reviews_today(today))
    return plan_for(ctx.profile.states(), catalog(), today, settings.new_per_day, settings.interview, len(done),
                    retired(ctx.profile))


def interview_line(plan: Plan, tr) -> str:
    """The interview date as Home, Settings and ``drill plan`` say it (``tr(key, **fmt)``: words in a language):
    in N days, tomorrow, today, or past."""
    assert plan.interview is not None and plan.days_left is not None, "said only with an interview date"
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


READINESS_ROWS = 20_000  # about a hundred days at 200 reviews a day; FSRS's fit reads as many (fsrs_fit)


def readiness_report(profile: Profile, today: date, interview: date | None = None, digest=None, stop=None):
    """``(Readiness, Calibration)`` of the learner (engine.schedule.readiness), fitted on the log's digest
    (``digest``, else read): for the interview day when one is ahead (the days in between as the plan asks
    them: the schedule, the daily limits, the scheduler), else for today; the calibration with the same
    scheduler and interview date.  ``DamagedSave`` if the log cannot be read; ``stop()`` True abandons the fit
    (``readiness.Stopped``: the stats screen was closed)."""
    from engine.schedule import calibration, readiness

    rules = learning(profile)
    interview = rules.interview if interview is None else interview
    # fitted on the newest READINESS_ROWS answers (whole log files): what the learner knows now, at a cost that
    # does not grow with the history (drill stats --json at 200,000 reviews, docs/performance.md)
    answers = readiness.answers_of_digest(digest if digest is not None else profile.recent_digest(READINESS_ROWS))
    day = interview if interview is not None and interview > today else today
    states = profile.states()
    passed = chains.passed_once(states, recent_qualities(profile))
    cat = ready_catalog(profile)
    outlook = readiness.Outlook(states, rules.new_per_day, interview, rules.reviews_per_day, rules.scheduler,
                                memory_source(profile, rules.scheduler), is_chain,
                                lambda c: chains.chain_ready(drills.prerequisites(c), passed), retired(profile),
                                tuning_of(profile))
    return (readiness.readiness(answers, cat, day, today, outlook, stop=stop),
            calibration.calibration(answers, cat, scheduler=rules.scheduler, interview=interview, stop=stop))


def ready_catalog(profile: Profile) -> list[tuple[str, str]]:
    """The bank readiness is over: every template but the retired scaffolds (no longer asked)."""
    gone = retired(profile)
    return [(i, topic) for i, topic in catalog() if i not in gone]


def readiness_lines(ready, calibration, tr, lang: str) -> list[str]:
    """The readiness per topic and overall, and the calibration, as ``drill plan`` and the stats screen say
    them: every figure with its credible interval, or, while some topic is below the minimum of answers, no
    figure at all (overall and topics alike: one minimum)."""
    from rich.cells import cell_len

    from drill.core.i18n import topic_name
    from engine.schedule.readiness import LEVEL, MIN_REVIEWS

    lines = [tr("ready.head", date=ready.day.isoformat())]
    names = {t: topic_name(t, lang) for t in ready.topics}
    names[None] = tr("ready.overall")
    width = max(cell_len(n) for n in names.values())
    pad = lambda t: names[t] + " " * (width - cell_len(names[t]))  # noqa: E731
    pct = lambda v: round(100 * v)  # noqa: E731
    level = pct(LEVEL)
    for topic, r in ready.topics.items():
        if r.probability is not None:
            said = tr("ready.figure", p=f"{pct(r.probability):>3}", level=level, lo=pct(r.low), hi=pct(r.high),
                      n=r.reviews)
        elif r.reviews >= MIN_REVIEWS:  # enough of its own: waits for the topics that have too few
            said = tr("ready.waiting", n=r.reviews, need=MIN_REVIEWS)
        else:
            said = tr("ready.not_enough", n=r.reviews, need=MIN_REVIEWS)
        lines.append(f"  {pad(topic)}  {said}")
    if ready.overall is None:
        short = sum(1 for r in ready.topics.values() if r.reviews < MIN_REVIEWS)
        lines.append(f"  {pad(None)}  {tr('ready.not_enough_topics', k=short, need=MIN_REVIEWS)}")
    else:
        lines.append(f"  {pad(None)}  " + tr("ready.figure_overall", p=f"{pct(ready.overall):>3}", level=level,
                                             lo=pct(ready.low), hi=pct(ready.high)))
    if calibration.answers:
        lines.append(tr("ready.calibration", p=round(100 * calibration.predicted), o=round(100 * calibration.observed),
                        n=calibration.answers, brier=f"{calibration.brier:.3f}"))
        bins = [tr("ready.bin", lo=10 * min(9, int(10 * p)), hi=10 * min(9, int(10 * p)) + 9, o=round(100 * o), n=n)
                for p, o, n in calibration.bins]
        lines.append(tr("ready.reliability", bins=" · ".join(bins)))
    else:
        lines.append(tr("ready.no_calibration"))
    return lines
