"""Readiness: the probability of answering a fresh problem right on a given day, fitted on the learner's answers.

**The model** (one per topic, and one over every answer): a logistic model of whether a fresh answer passes
(quality >= 3) from three features of the template's own earlier answers (any mode), in the manner of
performance factors analysis:

* ``log(1 + passes)``: how many of them passed;
* ``log(1 + days / S)``: days since the last one in units of the template's memory stability ``S`` (0 for a
  first answer), ``S`` being FSRS's stability (default weights) after the template's history, each day's
  first answer read as Good when right and Again when wrong (:func:`memory_after`);
* ``log(1 + misses)``: how many failed.

Why the time away is divided by the stability: with ``log(1 + days)`` alone, every template forgot at one rate
(the model is additive), so a template practised often, whose memory lasts, read as fading like a new one.
On learners whose forgetting is a power law in ``days / S`` (``benchmarks/learners.py``, the form FSRS
assumes, not this model's) the readiness read 5-10 points low a week before the interview and 2-6 on the day;
with the stability in the feature it is within 4 points (docs/performance.md).

It is fitted on every answer - a same-day re-drill too, as an answer 0 days away (the memory stands, as
:class:`~engine.schedule.features.Index` reads it) - with the features as they stood just before it.  Why the
re-drills: a topic's level is its own (below), and a week before a 21-day interview it rested on each day's first
answers alone, so noisily that the bench read 3-4 topics of 12 more than 7 points off in 6 figures of 32,
where the same model fitted on their true chances is within 7 on nearly every topic
(docs/performance.md).  The fit is by Newton's method
(iteratively reweighted least squares, a few steps; no numpy: the 4 x 4 system is solved by Gaussian
elimination).  The weights keep their signs (:data:`SIGNS`: a pass never lowers a prediction, time away never
raises it; a weight that comes out the other way on a short history is held at 0; a miss may go either way:
it is practice, and a sign of a hard template).  The overall model's feature weights are pulled by a ridge
penalty (:data:`RIDGE`, worth about a hundred answers) towards :data:`LEARNER_PRIOR`, the weights that
60-day histories of the bench's simulated learner fit (six runs on other seeds than the bench's, rounded; fitted
before the re-drills were rows: refitted with them, about (0.3, 0.7, -0.2, 0.2), the readiness missed its
bench targets in 31 figures of 320 on ten seeds instead of 15, so the prior stays):
until a learner's answers show how practice and time away work for them, a typical curve is assumed - after
two days of answers no gap is longer than a day, and a week of answers overrates practice; with thousands
of answers the learner's own weights win.  A topic's feature weights (how practice and time away work) are
pulled towards the overall model's (:data:`TOPIC_PRIOR`); its level (the
intercept) is its own, so a weak topic reads weak.  (The pull was 50; at 300, with the re-drills in the fit,
the bench meets its targets in 32 figures of 32 instead of 31; on nine other seeds the two tie, 15 figures
of 288 missed by each.)  A model is kept only when it converged.

Why these features: with the practice count and a recent pass share instead (this module's first model),
the templates met most are the hard ones (misses bring reviews), so practice looked worth less than it is
and the interview day, when every template has been practised, read 2-9 points low; passes and misses
apart keep "practised a lot" and "hard" apart.  (The weights are not the simulated learner's formula: its
forgetting is stronger than the fitted -0.3, which is why the calibration below, on answers 7-13 days after
a cut, reads a few points high, most on the first weeks.)

**The prediction for a later day** ``D`` made on ``T``: the days in between are projected as the plan asks
them (:class:`Outlook`, :func:`project`): each day the items due by the scheduler (SM-2 or FSRS, with the
interview's final stretch and the daily cap) and the day's new items are answered by the fitted model
itself (right with its probability, a miss re-drilled that day), :data:`RUNS` runs averaged; each
template's chance on ``D`` is then the model on its features on ``D``.  So the practice still to come and
the days since each template's last review on ``D`` are in the figure.  (This module first fitted the
model directly on features as they stood ``D - T`` days before each answer: in the first weeks no answer is
that old, every training answer looked like a first meeting, and the readiness read 12-15 points low on
the simulated learner.)  A topic's readiness is the mean over its templates (a template never answered is
met as the plan introduces it); overall, the mean over every template.  Below :data:`MIN_REVIEWS` answers
in a topic there is no figure: "not enough answers yet".

**Logistic or FSRS retrievability.**  ``make bench`` (benchmarks/bench_learning.py) scores both, made 7 days
before the interview over the same projected days, against the simulated learner's true recall on the day:
the logistic's mean squared error is a third of FSRS retrievability's (default weights) or less, which
reads 95-97 % where the learner is at 83-85 % (its default weights are not this learner's).  So the
logistic is the readiness shown.

**Calibration** (:mod:`engine.schedule.calibration`) scores these predictions on the learner's own later answers.

Pure: the caller passes the answers, the plan and the day.  The work can be abandoned (``stop``): the stats
screen's, when the screen is closed.
"""

from __future__ import annotations

import functools
import math
import operator
import random
from collections.abc import Callable, Mapping, Sequence
from datetime import date, timedelta

from engine.records import NamedTuple
from engine.review_mode import ReviewMode

from . import fsrs_bridge
from .features import Index, memory_after, time_away
from .fsrs_bridge import Scheduler, Tuning

MIN_REVIEWS = 12  # answers every topic needs before the readiness (each topic's and overall) is a number
LEVEL = 0.9  # the credible interval shown with each figure
Z = 1.6449  # the standard normal's 95th percentile: a two-sided LEVEL interval
RIDGE = 30.0  # L2 penalty pulling the overall model's feature weights towards LEARNER_PRIOR
TOPIC_PRIOR = 300.0  # L2 penalty pulling a topic's feature weights (not its level) towards the overall model's
# the pull a topic's interval is computed with: its weights' own uncertainty (at TOPIC_PRIOR the interval would
# claim the overall model's certainty for the topic's curve and held the true figure 3 times of 12 in a bench run)
TOPIC_INTERVAL_PRIOR = 50.0
NEWTON_STEPS = 8
TOLERANCE = 1e-5  # a Newton step smaller than this in every weight: converged
HORIZON = 7  # days between a calibration prediction and the answers it is scored on
MAX_FIT = 5000  # a fit uses at most the latest answers of its topic (bounded work on a long history)
MAX_TRAIN = 20_000  # the latest answers a readiness is fitted on (features: every answer)
MAX_REDRILLS = 3  # a projected miss is re-drilled that day until it passes, at most this many times
RUNS = 4  # projections averaged for a readiness
PASS = 3

Stop = Callable[[], bool]  # asked now and then during the work: True abandons it (Stopped)


class Stopped(Exception):
    """Work abandoned because its ``stop`` said so (the stats screen that wanted it was closed)."""


def check_stop(stop: Stop | None) -> None:
    if stop is not None and stop():
        raise Stopped


class Answer(NamedTuple):
    """One answer, as readiness reads it."""

    day: date
    item: str
    topic: str
    passed: bool


def in_order(answers: Sequence[Answer]) -> Sequence[Answer]:
    """The answers by day, oldest first (a log is in the order answers were recorded: work done on paper
    and recorded later, or a clock set back, come out of order); the same list when already in order."""
    days = [a.day for a in answers]
    if all(map(operator.le, days, days[1:])):  # (in C: this runs on every fit of a long history)
        return answers
    return sorted(answers, key=lambda a: a.day)  # stable: a day's answers keep their order


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    e = math.exp(z)
    return e / (1 + e)


def _solve(a: list[list[float]], b: list[float]) -> list[float] | None:
    """``a x = b`` by Gaussian elimination with partial pivoting (None when singular)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-12:
            return None
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


LEARNER_PRIOR = (0.0, 1.0, -0.3, -0.1)  # the weights a short history is pulled towards (the intercept: free)
SIGNS = (1, -1, 0)  # the feature weights' signs: a pass helps, time away hurts; a miss either (0: free)


def fit(xs: Sequence[tuple[float, float, float]], ys: Sequence[int], steps: int = NEWTON_STEPS,
        ridge: float = RIDGE, prior: Sequence[float] | None = None,
        pull_intercept: bool = True) -> tuple[float, float, float, float] | None:
    """The weights ``(w0, w1, w2, w3)`` of ``P(pass) = sigmoid(w0 + w1 x1 + w2 x2 + w3 x3)`` by Newton's method
    with a ridge penalty: on ``w1..w3`` towards 0, or with ``prior`` on all four towards those weights (a
    topic's model pulled towards the model of every answer); None when there is nothing to fit or it did not
    converge.  A feature weight of the wrong sign (:data:`SIGNS`: a history too short to tell practice from
    forgetting) is held at 0 and the others refitted, so a prediction never falls with a pass nor rises
    with time away.  Answers with the same features are counted together, in the features' order (the work
    grows with the distinct feature values, not the answers, and the order of the answers changes nothing)."""
    return _fit(_groups(xs, ys), steps, ridge, prior, pull_intercept) if xs else None


def _groups(xs: Sequence[tuple[float, float, float]], ys: Sequence[int]) -> list[tuple[tuple, int, int]]:
    """The answers counted together by their features, in the features' order: ``((1, x1, x2, x3), answers,
    passes)``."""
    groups: dict[tuple, list[int]] = {}
    for x, y in zip(xs, ys):
        g = groups.get(x)
        if g is None:
            g = groups[x] = [0, 0]
        g[0] += 1
        g[1] += y
    return [((1.0, x[0], x[1], x[2]), n, k) for x, (n, k) in sorted(groups.items())]


def _fit(data, steps: int, ridge: float, prior: Sequence[float] | None,
         pull_intercept: bool, start: Sequence[float] | None = None) -> tuple[float, float, float, float] | None:
    """:func:`fit` on the groups of :func:`_groups`, Newton's method starting at ``start`` (default: the prior)."""
    centre = [0.0, 0.0, 0.0, 0.0] if prior is None else [float(v) for v in prior]
    for k in (1, 2, 3):
        if centre[k] * SIGNS[k - 1] < 0:  # (a sign 0: free)
            centre[k] = 0.0
    pulled = (1, 2, 3) if prior is None or not pull_intercept else (0, 1, 2, 3)
    held: set[int] = set()
    w: list[float] | None = centre if start is None else list(start)
    # each group's features and their products, once (the Hessian's ten distinct entries)
    rows = [(v[1], v[2], v[3], v[1] * v[1], v[1] * v[2], v[1] * v[3], v[2] * v[2], v[2] * v[3], v[3] * v[3], n, k)
            for v, n, k in data]
    for _ in range(4):
        w = _newton(rows, w, centre, pulled, ridge, steps, held)
        if w is None:
            return None
        wrong = {k for k in (1, 2, 3) if w[k] * SIGNS[k - 1] < 0}
        if not wrong:
            return (w[0], w[1], w[2], w[3])
        held |= wrong
    return None


def _newton(data, start, centre, pulled, ridge, steps, held) -> list[float] | None:
    """Newton's steps from ``start`` with the weights in ``held`` at 0 (None: singular or diverged); ``data``:
    each group's features, their products, answers and passes (:func:`_fit`)."""
    free = [k for k in range(4) if k not in held]
    w = [0.0 if k in held else start[k] for k in range(4)]
    exp = math.exp
    for _ in range(steps):
        w0, w1, w2, w3 = w
        g0 = g1 = g2 = g3 = 0.0
        h00 = h01 = h02 = h03 = h11 = h12 = h13 = h22 = h23 = h33 = 0.0
        for x1, x2, x3, x11, x12, x13, x22, x23, x33, n, k in data:
            z = w0 + w1 * x1 + w2 * x2 + w3 * x3
            p = 1 / (1 + exp(-z)) if z >= 0 else 1 - 1 / (1 + exp(z))
            r = n * p - k
            q = p * (1 - p)
            q = n * q if q > 1e-9 else n * 1e-9
            g0 += r
            g1 += r * x1
            g2 += r * x2
            g3 += r * x3
            h00 += q
            h01 += q * x1
            h02 += q * x2
            h03 += q * x3
            h11 += q * x11
            h12 += q * x12
            h13 += q * x13
            h22 += q * x22
            h23 += q * x23
            h33 += q * x33
        g = [g0, g1, g2, g3]
        h = [[h00, h01, h02, h03], [h01, h11, h12, h13], [h02, h12, h22, h23], [h03, h13, h23, h33]]
        for k in pulled:
            g[k] += ridge * (w[k] - centre[k])
            h[k][k] += ridge
        d = _solve([[h[i][j] for j in free] for i in free], [g[i] for i in free])
        if d is None:
            return None
        for i, di in zip(free, d):
            w[i] -= di
        if max(abs(di) for di in d) < TOLERANCE:
            break
    if not all(math.isfinite(x) and abs(x) < 1e3 for x in w):
        return None
    return w


def predict(w: Sequence[float], x: Sequence[float]) -> float:
    return _sigmoid(w[0] + w[1] * x[0] + w[2] * x[1] + w[3] * x[2])


def _covariance(data, w: Sequence[float], ridge: float) -> list[list[float]] | None:
    """The weights' covariance by the Laplace approximation: the inverse of the penalised log loss's Hessian
    at the fitted ``w`` (the ridge on the three feature weights, the intercept free), from the groups the
    weights were fitted on (:func:`_groups`: the Hessian does not depend on the outcomes).  None when the
    Hessian is singular."""
    w0, w1, w2, w3 = w
    h00 = h01 = h02 = h03 = h11 = h12 = h13 = h22 = h23 = h33 = 0.0
    for (_, x1, x2, x3), n, _k in data:  # (the ten distinct entries of the symmetric Hessian, one pass)
        p = _sigmoid(w0 + w1 * x1 + w2 * x2 + w3 * x3)
        q = n * max(p * (1 - p), 1e-9)
        h00 += q
        h01 += q * x1
        h02 += q * x2
        h03 += q * x3
        h11 += q * x1 * x1
        h12 += q * x1 * x2
        h13 += q * x1 * x3
        h22 += q * x2 * x2
        h23 += q * x2 * x3
        h33 += q * x3 * x3
    h = [[h00, h01, h02, h03], [h01, h11 + ridge, h12, h13], [h02, h12, h22 + ridge, h23],
         [h03, h13, h23, h33 + ridge]]
    cols = []
    for c in range(4):
        col = _solve(h, [1.0 if r == c else 0.0 for r in range(4)])
        if col is None:
            return None
        cols.append(col)
    return [[cols[j][i] for j in range(4)] for i in range(4)]


def interval(p: float, x: Sequence[float], cov: Sequence[Sequence[float]] | None) -> tuple[float, float]:
    """The :data:`LEVEL` credible interval of a template's chance ``p`` whose features on the day are ``x``:
    the logit moved by Z standard deviations of ``(1, x) . w`` under the weights' covariance."""
    if cov is None:
        return (p, p)
    v = (1.0, x[0], x[1], x[2])
    sd = math.sqrt(max(0.0, sum(v[i] * cov[i][j] * v[j] for i in range(4) for j in range(4))))
    p = min(1 - 1e-9, max(1e-9, p))
    z = math.log(p / (1 - p))
    return (_sigmoid(z - Z * sd), _sigmoid(z + Z * sd))


class TopicReadiness(NamedTuple):
    reviews: int  # answers of the topic in the history
    probability: float | None  # None: some topic has fewer than MIN_REVIEWS answers ("not enough answers yet")
    low: float | None = None  # the LEVEL credible interval of the probability (None with it)
    high: float | None = None


class Readiness(NamedTuple):
    day: date  # the day predicted (the interview day, or today without one)
    topics: dict[str, TopicReadiness]  # in catalogue order
    overall: float | None  # None: some topic has fewer than MIN_REVIEWS answers (the topics' figures are None too)
    reviews: int
    items: dict[str, float] = {}  # each template's predicted chance (empty without a model)
    low: float | None = None  # the overall figure's LEVEL credible interval
    high: float | None = None

    def to_dict(self) -> dict:
        r = lambda v: None if v is None else round(v, 4)  # noqa: E731
        return {"day": self.day.isoformat(), "min_reviews": MIN_REVIEWS, "interval_level": LEVEL,
                "reviews": self.reviews, "overall": r(self.overall), "low": r(self.low), "high": r(self.high),
                "topics": {t: {"reviews": v.reviews, "probability": r(v.probability), "low": r(v.low),
                               "high": r(v.high)}
                           for t, v in self.topics.items()}}


class Models(NamedTuple):
    """The fitted weights: over every answer, and per topic (topics with MIN_REVIEWS answers), with their
    covariances (:func:`covariance`; None: the overall model)."""

    overall: tuple[float, float, float, float] | None
    topics: dict[str, tuple[float, float, float, float]]
    reviews: dict[str | None, int]  # answers per topic (None: all)
    covariances: dict[str | None, list[list[float]]] = {}

    def weights(self, topic: str):
        return self.topics.get(topic) or self.overall

    def covariance(self, topic: str) -> list[list[float]] | None:
        return self.covariances.get(topic if topic in self.topics else None)


def _rows(answers: Sequence[Answer], train: int = MAX_TRAIN) -> dict[str | None, list[tuple[tuple, int]]]:
    """The training rows: every answer (a same-day re-drill too), with its features from every earlier answer,
    for the latest ``train`` answers, by topic and all under None."""
    return rows_by_topic(fresh_rows(answers, max(0, len(answers) - train)))


def fresh_rows(answers: Sequence[Answer], start: int = 0) -> list[tuple[int, str, tuple, int]]:
    """Each answer from position ``start`` on (a same-day re-drill too: 0 days away), as ``(position, topic,
    features, passed)``, its features from every earlier answer."""
    out: list[tuple[int, str, tuple, int]] = []
    counts: dict[str, list] = {}  # item -> [passes, misses, last day, memory]
    for pos, a in enumerate(answers):
        d = a.day.toordinal()
        c = counts.get(a.item)
        if c is None:
            c = counts[a.item] = [0, 0, d, None]
        if pos >= start:
            x = ((math.log1p(c[0]), time_away(d - c[2], c[3]), math.log1p(c[1])) if c[0] + c[1]
                 else (0.0, 0.0, 0.0))
            out.append((pos, a.topic, x, 1 if a.passed else 0))
        if c[3] is None or c[2] != d:  # a re-drill the same day leaves the memory as it was (as Index.add)
            c[3] = memory_after(c[3], d - c[2], a.passed)
        c[0 if a.passed else 1] += 1
        c[2] = d
    return out


def rows_by_topic(fresh: Sequence[tuple[int, str, tuple, int]]) -> dict[str | None, list[tuple[tuple, int]]]:
    out: dict[str | None, list[tuple[tuple, int]]] = {None: []}
    for _, topic, x, y in fresh:
        row = (x, y)
        out.setdefault(topic, []).append(row)
        out[None].append(row)
    return out


def fit_models(answers: Sequence[Answer], train: int = MAX_TRAIN, stop: Stop | None = None) -> Models:
    """The overall model (its feature weights pulled towards :data:`LEARNER_PRIOR`) and each topic's (all four
    pulled towards the overall model), fitted on the latest ``train`` answers (features from every answer)."""
    answers = in_order(answers)
    rows = _rows(answers, train)
    reviews: dict[str | None, int] = {None: len(answers)}
    for a in answers:
        reviews[a.topic] = reviews.get(a.topic, 0) + 1
    return models_of_rows(rows, reviews, stop)


def models_of_rows(rows: dict[str | None, list[tuple[tuple, int]]], reviews: dict[str | None, int],
                   stop: Stop | None, near: Models | None = None) -> Models:
    """:func:`fit_models` on the training rows (:func:`_rows`) and the answers per topic; Newton's method
    starts at the weights of ``near`` when given (models of nearly the same rows: fewer steps to the same
    weights, within :data:`TOLERANCE`)."""
    data = _groups(*_xy(rows[None])) if reviews[None] >= MIN_REVIEWS and rows[None] else None
    overall = _fit(data, NEWTON_STEPS, RIDGE, LEARNER_PRIOR, False, near and near.overall) if data else None
    topics = {}
    covariances: dict[str | None, list[list[float]]] = {}
    if overall is not None:
        cov = _covariance(data, overall, RIDGE)
        if cov is not None:
            covariances[None] = cov
        for topic, r in rows.items():
            if topic is not None and reviews.get(topic, 0) >= MIN_REVIEWS and r:
                check_stop(stop)
                # the level (intercept) is the topic's own: only how practice and time away work is pulled
                tdata = _groups(*_xy(r))
                w = _fit(tdata, NEWTON_STEPS, TOPIC_PRIOR, overall, False, near and near.topics.get(topic))
                if w is not None:
                    topics[topic] = w
                    cov = _covariance(tdata, w, TOPIC_INTERVAL_PRIOR)
                    if cov is not None:
                        covariances[topic] = cov
    return Models(overall, topics, reviews, covariances)


def _xy(rows: Sequence[tuple[tuple, int]]) -> tuple[list[tuple[float, float, float]], list[int]]:
    rows = rows[-MAX_FIT:]
    return [x for x, _ in rows], [y for _, y in rows]


class Outlook(NamedTuple):
    """What the learner is expected to do from today on: the plan readiness projects (the schedule as it
    stands and the daily limits).  ``states``: each item's scheduler state; ``memory``: an item's FSRS memory
    (``scheduler`` "fsrs"); ``is_chain``/``chain_ready``/``retired`` as :func:`engine.session.new_items`."""

    states: Mapping
    new_per_day: int
    interview: date | None = None
    reviews_per_day: int | None = None
    scheduler: str = Scheduler.SM2
    memory: Callable | None = None
    is_chain: Callable | None = None
    chain_ready: Callable | None = None
    retired: frozenset = frozenset()
    tuning: Tuning | None = None  # FSRS's weights and retention (None: the defaults)


def project(models: Models, index: Index, catalog: Sequence[tuple[str, str]], outlook: Outlook, start: date,
            end: date, rng: random.Random, stop: Stop | None = None) -> Index:
    """One run of the days ``start`` .. ``end - 1`` as the plan asks them, answered by the fitted model: each
    day the items due (SM-2's or FSRS's due dates, the interview's final stretch, the daily review cap) and
    the day's new items (:func:`engine.session.new_items`), each answered right with the model's probability,
    a miss re-drilled that day until it passes (at most :data:`MAX_REDRILLS` times).  Returns the history
    with the projected answers added (``index`` is not changed)."""
    from .. import session as se
    from ..sm2 import ItemState, review
    from . import stretch
    from .stretch import load_of, returns

    index = index.copy()
    states = dict(outlook.states)
    topic = dict(catalog)
    fsrs = outlook.scheduler == Scheduler.FSRS
    memories: dict = {}
    load = load_of({i: st.due for i, st in states.items()}) if outlook.interview is not None else None

    def room(day: date, missed: float) -> dict[date, int] | None:  # the load with room for misses to come
        if load is None or outlook.interview is None:
            return load
        return returns(load, day, outlook.interview, missed, stretch.FINAL_PASS.reserve)

    def answer(item: str, d: int) -> bool:
        right = rng.random() < predict(models.weights(topic[item]), index.features(item, d))
        index.add(item, d, right)
        return right

    day = start
    while day < end:
        check_stop(stop)
        d = day.toordinal()
        if outlook.interview is not None and day >= outlook.interview:
            break  # the interview day asks nothing
        due = [i for i, _, _ in se.due_items(states, day, catalog) if i not in outlook.retired]
        if outlook.reviews_per_day is not None:
            due = due[:outlook.reviews_per_day]
        fresh = [i for i, _ in se.new_items(states, catalog, outlook.new_per_day, outlook.is_chain,
                                             outlook.chain_ready, outlook.retired)]
        met = [st for st in states.values() if st.last is not None]
        missed = sum(1 for st in met if st.reps == 0) / len(met) if met else 0.0  # as the record path counts it
        for item in due + fresh:
            first = right = answer(item, d)
            for _ in range(MAX_REDRILLS):
                if right:
                    break
                right = answer(item, d)
            quality = 4 if first else 1  # the schedule moves on the day's first answer
            state = states.get(item)
            if load is not None and state is not None and state.due is not None:
                load[state.due] = load.get(state.due, 1) - 1
            if fsrs:
                memory = memories[item] if item in memories else (outlook.memory(item) if outlook.memory else None)
                state, memories[item] = fsrs_bridge.review(state, memory, quality, day, outlook.interview,
                                                           room(day, missed), outlook.reviews_per_day,
                                                           outlook.tuning or fsrs_bridge.DEFAULT)
            else:
                state = review(state or ItemState(), quality, day, outlook.interview, room(day, missed),
                               outlook.reviews_per_day)
            states[item] = state
            if load is not None:
                assert state.due is not None  # a review always sets the next due date
                load[state.due] = load.get(state.due, 0) + 1
        day += timedelta(days=1)
    return index


def forecast(answers: Sequence[Answer], catalog: Sequence[tuple[str, str]], day: date, today: date,
             outlook: Outlook | None = None, models: Models | None = None, runs: int = RUNS,
             seed: int = 0, stop: Stop | None = None) -> dict[str, float]:
    """Each template's predicted chance of a right answer to a fresh problem on ``day``, known on ``today``:
    the fitted model on its features on ``day``, after the days in between as ``outlook`` plans them
    (:func:`project`, averaged over ``runs``; without an outlook, or for today, no practice in between).
    Empty when there is no model (fewer than MIN_REVIEWS answers)."""
    return _forecast(answers, catalog, day, today, outlook, models, runs, seed, stop)[0]


def _forecast(answers, catalog, day, today, outlook, models, runs=RUNS, seed=0, stop=None):
    """:func:`forecast`, and each template's features on ``day`` (averaged over the runs)."""
    answers = in_order(answers)
    models = models or fit_models(answers, stop=stop)
    if models.overall is None:
        return {}, {}
    index = Index(answers)
    d = day.toordinal()
    topic = dict(catalog)
    if outlook is None or day <= today:
        xs = {i: index.features(i, d) for i, _ in catalog}
        return {i: predict(models.weights(topic[i]), xs[i]) for i, _ in catalog}, xs
    if outlook.memory is not None:  # an item's FSRS memory is replayed once, not once a run
        outlook = outlook._replace(memory=functools.lru_cache(maxsize=None)(outlook.memory))
    out = dict.fromkeys(topic, 0.0)
    feats = {i: [0.0, 0.0, 0.0] for i in topic}
    for r in range(runs):
        after = project(models, index, catalog, outlook, today, day, random.Random(seed * 7919 + r), stop)
        for i in out:
            x = after.features(i, d)
            out[i] += predict(models.weights(topic[i]), x) / runs
            for k in range(3):
                feats[i][k] += x[k] / runs
    return out, {i: (x[0], x[1], x[2]) for i, x in feats.items()}


def readiness(answers: Sequence[Answer], catalog: Sequence[tuple[str, str]], day: date,
              today: date | None = None, outlook: Outlook | None = None, stop: Stop | None = None) -> Readiness:
    """Per topic (catalogue order) and overall, the predicted probability of passing a fresh problem of the
    topic on ``day`` from what is known on ``today`` (default: ``day``), the plan in between as ``outlook``
    says; see the module docstring.  ``stop()`` True abandons the work (:class:`Stopped`)."""
    today = today or day
    answers = in_order(answers)
    models = fit_models(answers, stop=stop)
    items, xs = _forecast(answers, catalog, day, today, outlook, models, stop=stop)
    templates: dict[str, list[str]] = {}
    for item, topic in catalog:
        templates.setdefault(topic, []).append(item)
    count = lambda t: models.reviews.get(t, 0)  # noqa: E731
    if not items or any(count(t) < MIN_REVIEWS for t in templates):  # one minimum: every figure, or none
        return Readiness(day, {t: TopicReadiness(count(t), None) for t in templates}, None, models.reviews[None],
                         items)
    bounds = {i: interval(items[i], xs[i], models.covariance(t)) for i, t in catalog}
    mean = lambda ids, k: sum(bounds[i][k] for i in ids) / len(ids)  # noqa: E731
    topics = {t: TopicReadiness(count(t), sum(items[i] for i in ids) / len(ids), mean(ids, 0), mean(ids, 1))
              for t, ids in templates.items()}
    every = [i for i, _ in catalog]
    return Readiness(day, topics, sum(items.values()) / len(items), models.reviews[None], items,
                     mean(every, 0), mean(every, 1))


def answers_of_digest(d) -> list[Answer]:
    """The answers readiness counts in an ``engine.digest.Digest`` (the columns of the log, read quickly), oldest
    first: every whole answer (``step`` None) and each step asked in a mock (a mock asks a chain's steps as
    questions of their own); passed = quality >= 3."""
    days: dict[str, date] = {}
    out = []
    for day, item, topic, step, quality, mode in zip(d.date, d.item, d.topic, d.step, d.quality, d.mode):
        if step is None or mode == ReviewMode.MOCK:
            when = days.get(day)
            if when is None:
                when = days[day] = date.fromisoformat(day)
            out.append(Answer(when, item, topic, quality >= PASS))
    return out
