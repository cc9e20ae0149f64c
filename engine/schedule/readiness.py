"""Readiness: the probability of answering a fresh problem right on a given day, fitted on the learner's answers.

For each topic, a logistic model of whether an answer passes (quality >= 3) from three features of the
template's own earlier answers (any mode):

* ``log(1 + n)``: how many times it was answered before;
* ``log(1 + days)``: days since its last answer (0 for a first answer);
* its recent pass share: ``(passes + 1/2) / (answers + 1)`` over its last :data:`RECENT` answers.

The weights are fitted on the topic's answers by Newton's method (iteratively reweighted least squares, a few
steps) with a small ridge penalty on the three feature weights (not the intercept), so a topic where every
answer passed still gets finite weights.  No numpy: the 4 x 4 system is solved by Gaussian elimination.

The model is fitted for the horizon it predicts over: to predict day ``D`` from what is known today ``T``,
each training answer (given on day ``d``) gets its features as they stood ``D - T`` days before it (from the
answers before day ``d - (D - T)``), the days since the last answer counted to ``d``.  So the practice a
learner usually does in between is in the fitted weights, and a prediction for the interview day is not a
prediction for today.  The readiness of a topic on ``D`` is the model's mean prediction over the topic's
templates with their features today, counted to ``D`` (a template never answered has n = 0: a first
meeting); overall, the same with one model fitted on every answer, over every template.  Below
:data:`MIN_REVIEWS` answers in a topic there is no figure: "not enough answers yet".  A fitted model is kept
only when it converged.

**Calibration** is scored on answers the model could not have seen: at each weekly cut ``W`` the models are
fitted on the answers before ``W`` (for a horizon of :data:`HORIZON` + 3 days, the middle of the scored
week) and predict the answers given from ``W + 7`` days to ``W + 14`` days, with the features as they stood
at ``W``.  So every prediction is made at least :data:`HORIZON` days before the answer it is scored on.

Pure: the caller passes the answers and the day.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from datetime import date, timedelta
from typing import Iterable, Mapping, NamedTuple, Sequence

MIN_REVIEWS = 30  # answers a topic needs before its readiness is a number
RECENT = 5  # answers in the recent pass share
RIDGE = 1.0  # L2 penalty on the feature weights
NEWTON_STEPS = 8
HORIZON = 7  # days between a calibration prediction and the answers it is scored on
MAX_FIT = 5000  # a fit uses at most the latest answers of its topic (bounded work on a long history)
MAX_TRAIN = 20_000  # the latest answers a readiness is fitted on
MAX_CUTS = 8  # calibration looks at the last eight weekly cuts
MAX_CALIBRATION_TRAIN = 5000  # the latest answers before a cut its models are fitted on
PASS = 3


class Answer(NamedTuple):
    """One answer, as readiness reads it."""

    day: date
    item: str
    topic: str
    passed: bool


def answers_of(rows: Iterable[Mapping]) -> list[Answer]:
    """The answers readiness counts among review rows (oldest first): every whole answer (``step`` None) and
    each step asked in a mock (a mock asks a chain's steps as questions of their own); passed = quality >= 3."""
    return [Answer(date.fromisoformat(r["date"]), r["item"], r["topic"], r["quality"] >= PASS) for r in rows
            if r.get("step") is None or r.get("mode") == "mock"]


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


def fit(xs: Sequence[tuple[float, float, float]], ys: Sequence[int], steps: int = NEWTON_STEPS,
        ridge: float = RIDGE) -> tuple[float, float, float, float] | None:
    """The weights ``(w0, w1, w2, w3)`` of ``P(pass) = sigmoid(w0 + w1 x1 + w2 x2 + w3 x3)`` by Newton's method
    with a ridge penalty on ``w1..w3``; None when there is nothing to fit or it did not converge.  Answers with
    the same features are counted together (the work grows with the distinct feature values, not the answers)."""
    if not xs:
        return None
    groups: dict[tuple, list[int]] = {}
    for x, y in zip(xs, ys):
        g = groups.get(x)
        if g is None:
            g = groups[x] = [0, 0]
        g[0] += 1
        g[1] += y
    data = [((1.0, x[0], x[1], x[2]), n, k) for x, (n, k) in groups.items()]
    w = [0.0, 0.0, 0.0, 0.0]
    for _ in range(steps):
        g = [0.0, ridge * w[1], ridge * w[2], ridge * w[3]]
        h = [[0.0] * 4 for _ in range(4)]
        for k in (1, 2, 3):
            h[k][k] = ridge
        for v, n, k in data:
            p = _sigmoid(w[0] + w[1] * v[1] + w[2] * v[2] + w[3] * v[3])
            r, s = n * p - k, n * max(p * (1 - p), 1e-9)
            for i in range(4):
                g[i] += r * v[i]
                hi = h[i]
                si = s * v[i]
                for j in range(i, 4):
                    hi[j] += si * v[j]
        for i in range(4):
            for j in range(i):
                h[i][j] = h[j][i]
        d = _solve(h, g)
        if d is None:
            return None
        w = [wi - di for wi, di in zip(w, d)]
        if max(abs(di) for di in d) < 1e-6:
            break
    if not all(math.isfinite(x) and abs(x) < 1e3 for x in w):
        return None
    return (w[0], w[1], w[2], w[3])


def predict(w: Sequence[float], x: Sequence[float]) -> float:
    return _sigmoid(w[0] + w[1] * x[0] + w[2] * x[1] + w[3] * x[2])


class TopicReadiness(NamedTuple):
    reviews: int  # answers of the topic in the history
    probability: float | None  # None: fewer than MIN_REVIEWS answers ("not enough answers yet")


class Readiness(NamedTuple):
    day: date  # the day predicted (the interview day, or today without one)
    topics: dict[str, TopicReadiness]  # in catalogue order
    overall: float | None  # None: fewer than MIN_REVIEWS answers in all
    reviews: int

    def to_dict(self) -> dict:
        return {"day": self.day.isoformat(), "min_reviews": MIN_REVIEWS, "reviews": self.reviews,
                "overall": None if self.overall is None else round(self.overall, 4),
                "topics": {t: {"reviews": r.reviews,
                               "probability": None if r.probability is None else round(r.probability, 4)}
                           for t, r in self.topics.items()}}


class _Index:
    """Each item's answers (days and outcomes, oldest first), for features as of any day."""

    def __init__(self, answers: Sequence[Answer]) -> None:
        self.days: dict[str, list[int]] = {}
        self.passed: dict[str, list[int]] = {}
        for a in answers:
            self.days.setdefault(a.item, []).append(a.day.toordinal())
            self.passed.setdefault(a.item, []).append(1 if a.passed else 0)

    def features(self, item: str, asof: int, day: int, upto: int | None = None) -> tuple[float, float, float]:
        """The features of ``item`` for an answer on ``day`` from its answers before day ``asof`` (ordinals)
        - or its first ``upto`` answers when given."""
        days = self.days.get(item, ())
        n = bisect_left(days, asof) if upto is None else upto
        if n == 0:
            return (0.0, 0.0, 0.5)
        recent = self.passed[item][max(0, n - RECENT):n]
        return (math.log1p(n), math.log1p(max(0, day - days[n - 1])), (sum(recent) + 0.5) / (len(recent) + 1))


def _training(answers: Sequence[Answer], index: _Index, lag: int,
              last: int | None = None) -> dict[str | None, list[tuple[tuple, int]]]:
    """Each answer (the ``last`` latest, default :data:`MAX_TRAIN`) as ``(features as of lag days before it,
    passed)``, by topic (and all of them under None)."""
    out: dict[str | None, list[tuple[tuple, int]]] = {None: []}
    seen: dict[str, int] = {}
    start = max(0, len(answers) - (MAX_TRAIN if last is None else last))
    for pos, a in enumerate(answers):
        k = seen.get(a.item, 0)
        seen[a.item] = k + 1
        if pos < start:
            continue
        d = a.day.toordinal()
        x = index.features(a.item, d - lag, d, upto=k if lag == 0 else None)
        row = (x, 1 if a.passed else 0)
        out.setdefault(a.topic, []).append(row)
        out[None].append(row)
    return out


def _fit_rows(rows: list[tuple[tuple, int]]):
    rows = rows[-MAX_FIT:]
    return fit([x for x, _ in rows], [y for _, y in rows])


MAX_LAG = 120  # the longest horizon a model is fitted for (days)


def readiness(answers: Sequence[Answer], catalog: Sequence[tuple[str, str]], day: date,
              today: date | None = None) -> Readiness:
    """Per topic (catalogue order) and overall, the predicted probability of passing a fresh problem of the
    topic on ``day`` from what is known on ``today`` (default: ``day``); see the module docstring."""
    today = today or day
    lag = max(0, min(MAX_LAG, (day - today).days))
    index = _Index(answers)
    rows = _training(answers, index, lag)
    templates: dict[str, list[str]] = {}
    for item, topic in catalog:
        templates.setdefault(topic, []).append(item)
    d = day.toordinal()

    def mean_prediction(w, ids: Iterable[str]) -> float | None:
        ps = [predict(w, index.features(i, d, d, upto=len(index.days.get(i, ())))) for i in ids]
        return sum(ps) / len(ps) if ps else None

    topics: dict[str, TopicReadiness] = {}
    for topic, ids in templates.items():
        mine = rows.get(topic, [])
        p = None
        if len(mine) >= MIN_REVIEWS and (w := _fit_rows(mine)) is not None:
            p = mean_prediction(w, ids)
        topics[topic] = TopicReadiness(len(mine), p)
    overall = None
    if len(rows[None]) >= MIN_REVIEWS and (w := _fit_rows(rows[None])) is not None:
        overall = mean_prediction(w, [i for i, _ in catalog])
    return Readiness(day, topics, overall, len(rows[None]))


class Calibration(NamedTuple):
    """Predictions made at least HORIZON days before the answers they are scored on."""

    answers: int  # answers scored
    predicted: float | None  # mean predicted pass probability
    observed: float | None  # share that passed
    brier: float | None  # mean squared error of the predictions
    bins: list[tuple[float, float, int]]  # (mean predicted, share passed, answers) by predicted tenth, non-empty

    def to_dict(self) -> dict:
        r = lambda v: None if v is None else round(v, 4)  # noqa: E731
        return {"horizon_days": HORIZON, "answers": self.answers, "predicted": r(self.predicted),
                "observed": r(self.observed), "brier": r(self.brier),
                "bins": [{"predicted": round(p, 4), "observed": round(o, 4), "answers": n} for p, o, n in self.bins]}


def calibration(answers: Sequence[Answer], horizon: int = HORIZON, max_cuts: int = MAX_CUTS) -> Calibration:
    """The per-topic models' calibration on the learner's own answers (see the module docstring)."""
    if not answers:
        return Calibration(0, None, None, None, [])
    first, last = answers[0].day, answers[-1].day
    cuts = []
    cut = first + timedelta(days=horizon)
    while cut + timedelta(days=horizon) <= last:
        cuts.append(cut)
        cut += timedelta(days=7)
    cuts = cuts[-max_cuts:]
    pairs: list[tuple[float, int]] = []
    if not cuts:
        return Calibration(0, None, None, None, [])
    index = _Index(answers)
    lag = horizon + 3
    # every answer's features as of ``lag`` days before it: from answers before any cut it comes after
    k = bisect_left([a.day for a in answers], cuts[0])
    start = max(0, k - MAX_CALIBRATION_TRAIN)
    rows: list = [None] * start  # only the answers some cut is fitted on
    for a in answers[start:]:
        d = a.day.toordinal()
        rows.append((a.topic, index.features(a.item, d - lag, d), 1 if a.passed else 0))
    k = 0
    for cut in cuts:
        while k < len(answers) and answers[k].day < cut:
            k += 1
        by_topic: dict[str, list[tuple[tuple, int]]] = {}
        for topic, x, y in rows[max(0, k - MAX_CALIBRATION_TRAIN):k]:
            by_topic.setdefault(topic, []).append((x, y))
        models = {t: _fit_rows(r) for t, r in by_topic.items() if len(r) >= MIN_REVIEWS}
        lo, hi = cut + timedelta(days=horizon), cut + timedelta(days=horizon + 7)
        c = cut.toordinal()
        for a in answers[k:]:
            if a.day >= hi:
                break
            w = models.get(a.topic)
            if a.day < lo or w is None:
                continue
            pairs.append((predict(w, index.features(a.item, c, a.day.toordinal())), 1 if a.passed else 0))
    if not pairs:
        return Calibration(0, None, None, None, [])
    n = len(pairs)
    bins: dict[int, list[tuple[float, int]]] = {}
    for p, y in pairs:
        bins.setdefault(min(9, int(p * 10)), []).append((p, y))
    return Calibration(n, sum(p for p, _ in pairs) / n, sum(y for _, y in pairs) / n,
                       sum((p - y) ** 2 for p, y in pairs) / n,
                       [(sum(p for p, _ in b) / len(b), sum(y for _, y in b) / len(b), len(b))
                        for _, b in sorted(bins.items())])


def answers_of_digest(d) -> list[Answer]:
    """:func:`answers_of` from an ``engine.stats.Digest`` (the columns of the log, read quickly)."""
    days: dict[str, date] = {}
    out = []
    for day, item, topic, step, quality, mode in zip(d.date, d.item, d.topic, d.step, d.quality, d.mode):
        if step is None or mode == "mock":
            when = days.get(day)
            if when is None:
                when = days[day] = date.fromisoformat(day)
            out.append(Answer(when, item, topic, quality >= PASS))
    return out
