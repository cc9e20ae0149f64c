"""The readiness's calibration: its predictions scored on the learner's own answers, made at least
:data:`~engine.schedule.readiness.HORIZON` days before them (``engine.schedule.readiness`` is the model).

**Calibration** is scored on answers the model could not have seen: at each weekly cut ``W`` the models are
fitted on the answers before ``W``, the plan is projected from ``W`` (the schedule those answers made, the
interview date as set now, new items at the pace of the week before ``W``) and each template's chance on
each day from ``W + 7`` to ``W + 13`` is scored against its first answer that day.  So every prediction is
made at least :data:`HORIZON` days before the answer it is scored on.

The work is the same at each cut and made once: the training rows, the answers per topic and the
history index are built over every answer and cut at each cut (each row's features come from the answers
before it, so this is what fitting afresh on the answers before the cut gives), and Newton's method starts
at the weights of the cut before (nearly the same rows: fewer steps to the same weights).
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence
from datetime import date, timedelta

from engine.records import NamedTuple

from .features import Index
from .fsrs_bridge import Scheduler
from .readiness import (
    HORIZON,
    Answer,
    Models,
    Outlook,
    Stop,
    check_stop,
    fresh_rows,
    in_order,
    models_of_rows,
    predict,
    project,
    rows_by_topic,
)

MAX_CUTS = 8  # calibration looks at the last eight weekly cuts
MAX_CALIBRATION_TRAIN = 2000  # the latest answers before a cut its models are fitted on (features: every answer)
CALIBRATION_RUNS = 2  # projections averaged at each calibration cut


class Calibration(NamedTuple):
    """Predictions made at least HORIZON days before the answers they are scored on."""

    answers: int  # answers scored
    predicted: float | None  # mean predicted pass probability
    observed: float | None  # share that passed
    brier: float | None  # mean squared error of the predictions
    bins: list[tuple[float, float, int]]  # (mean predicted, share passed, answers) by predicted tenth, non-empty
    topics: dict[str, tuple[float, float, int]] = {}  # topic -> (mean predicted, share passed, answers)

    def to_dict(self) -> dict:
        r = lambda v: None if v is None else round(v, 4)  # noqa: E731
        return {"horizon_days": HORIZON, "answers": self.answers, "predicted": r(self.predicted),
                "observed": r(self.observed), "brier": r(self.brier),
                "bins": [{"predicted": round(p, 4), "observed": round(o, 4), "answers": n} for p, o, n in self.bins],
                "topics": {t: {"predicted": round(p, 4), "observed": round(o, 4), "answers": n}
                           for t, (p, o, n) in self.topics.items()}}


class _Replay:
    """Each item's scheduler state (and FSRS memory) as its answers made it, answer by answer: the first of
    each day, right as quality 4, wrong as 1, with the final stretch before ``interview``."""

    def __init__(self, scheduler: str, interview: date | None = None) -> None:
        from ..sm2 import ItemState, review
        from . import fsrs_bridge

        self._new, self._review, self._fsrs = ItemState, review, fsrs_bridge  # imported once, not once an answer
        self.scheduler, self.interview = scheduler, interview
        self.states: dict = {}
        self.memories: dict = {}
        self.last: dict[str, date] = {}
        self.load: dict[date, int] = {}  # the reviews due each day, for the final stretch's spreading

    def feed(self, a: Answer) -> None:
        if self.last.get(a.item) == a.day:
            return
        self.last[a.item] = a.day
        q = 4 if a.passed else 1
        before = self.states.get(a.item)
        if before is not None and before.due is not None:
            self.load[before.due] -= 1
        if self.scheduler == Scheduler.FSRS:
            self.states[a.item], self.memories[a.item] = self._fsrs.review(
                before, self.memories.get(a.item), q, a.day, self.interview, self.load)
        else:
            self.states[a.item] = self._review(before or self._new(), q, a.day, self.interview, self.load)
        due = self.states[a.item].due
        self.load[due] = self.load.get(due, 0) + 1


def calibration(answers: Sequence[Answer], catalog: Sequence[tuple[str, str]] | None = None,
                horizon: int = HORIZON, max_cuts: int = MAX_CUTS, scheduler: str = Scheduler.SM2,
                interview: date | None = None, stop: Stop | None = None) -> Calibration:
    """The readiness's calibration on the learner's own answers: at each weekly cut ``W`` (the last
    ``max_cuts``) the models are fitted on the answers before ``W``, the plan is projected from ``W`` (the
    schedule the answers before it made, the interview date ``interview`` as set now; new items at the pace of
    the week before it) and each template's
    chance on each day from ``W + horizon`` to ``W + horizon + 6`` is scored against its first answer of that
    day, if any.  So every prediction is made at least ``horizon`` days before the answer it is scored on.
    ``stop()`` True abandons the work (:class:`Stopped`)."""
    answers = in_order(answers)
    if not answers:
        return Calibration(0, None, None, None, [])
    if catalog is None:
        catalog = list({a.item: a.topic for a in answers}.items())
    first, last = answers[0].day, answers[-1].day
    cuts = []
    cut = first + timedelta(days=horizon)
    while cut + timedelta(days=horizon) <= last:
        cuts.append(cut)
        cut += timedelta(days=7)
    cuts = cuts[-max_cuts:]
    if not cuts:
        return Calibration(0, None, None, None, [])
    triples: list[tuple[str, float, int]] = []
    days = [a.day for a in answers]
    first_met: dict[str, date] = {}
    for a in answers:
        first_met.setdefault(a.item, a.day)
    replay, fed = _Replay(scheduler, interview), 0
    # the training rows, the answers per topic and the index are made once and cut at each cut (the same as
    # made afresh from the answers before it: each row's features come from the answers before it)
    fresh = fresh_rows(answers)
    positions = [f[0] for f in fresh]
    reviews: dict[str | None, int] = {None: 0}
    whole = Index(answers)
    topic = dict(catalog) | {a.item: a.topic for a in answers}
    near: Models | None = None  # the models of the cut before: Newton's method starts at their weights
    for cut in cuts:
        k = bisect_left(days, cut)
        while fed < k:
            a = answers[fed]
            replay.feed(a)
            reviews[a.topic] = reviews.get(a.topic, 0) + 1
            fed += 1
        reviews[None] = k
        train = fresh[bisect_left(positions, k - MAX_CALIBRATION_TRAIN):bisect_left(positions, k)]
        check_stop(stop)
        models = near = models_of_rows(rows_by_topic(train), dict(reviews), stop, near)
        if models.overall is None:
            continue
        week = cut - timedelta(days=7)
        pace_ = round(sum(1 for d in first_met.values() if week <= d < cut) / 7)  # new items a day, lately
        states, memories = dict(replay.states), dict(replay.memories)
        lo, hi = cut + timedelta(days=horizon), cut + timedelta(days=horizon + 7)
        outlook = Outlook(states, pace_, interview, scheduler=scheduler, memory=memories.get)
        index = whole.before(cut.toordinal())
        seen: set[tuple[str, date]] = set()
        actual: dict[tuple[str, int], int] = {}
        for a in answers[bisect_left(days, lo):bisect_left(days, hi)]:
            if (a.item, a.day) not in seen:
                seen.add((a.item, a.day))
                actual[(a.item, a.day.toordinal())] = 1 if a.passed else 0
        sums: dict[tuple[str, int], float] = {}
        for r in range(CALIBRATION_RUNS):
            after = project(models, index, catalog, outlook, cut, hi, random.Random(r), stop)
            for (i, d) in actual:
                sums[(i, d)] = sums.get((i, d), 0.0) + predict(models.weights(topic[i]), after.features(i, d))
        for key, y in sorted(actual.items()):  # in one order, whatever the log's: the same sums
            triples.append((topic[key[0]], sums[key] / CALIBRATION_RUNS, y))
    if not triples:
        return Calibration(0, None, None, None, [])
    n = len(triples)
    bins: dict[int, list[tuple[float, int]]] = {}
    by_topic: dict[str, list[tuple[float, int]]] = {}
    for t, p, y in triples:
        bins.setdefault(min(9, int(p * 10)), []).append((p, y))
        by_topic.setdefault(t, []).append((p, y))
    summary = lambda b: (sum(p for p, _ in b) / len(b), sum(y for _, y in b) / len(b), len(b))  # noqa: E731
    return Calibration(n, sum(p for _, p, _ in triples) / n, sum(y for _, _, y in triples) / n,
                       sum((p - y) ** 2 for _, p, y in triples) / n,
                       [summary(b) for _, b in sorted(bins.items())],
                       {t: summary(b) for t, b in by_topic.items()})
