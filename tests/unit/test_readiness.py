"""Readiness: the fitted model lands near a simulated learner's true recall a week ahead,
and the fit's properties (probabilities, monotone in passes and time away, the order of the answers).
Small and deterministic: the full simulation with every template is benchmarks/bench_learning.py."""

from __future__ import annotations

import math
import random
from datetime import UTC, date, datetime, time, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import session as se
from engine.schedule import calibration, readiness
from engine.schedule.features import Index

DAY0 = date(2027, 5, 3)
TOPICS = ("roofline", "serving")
CATALOG = [(f"{t}-{k}", t) for k in range(16) for t in TOPICS]  # breadth-first, as the bank interleaves


class Learner:
    """Known recall: ``sigmoid(0.2 - difficulty + 1.1 log(1 + practice) - 0.45 log(1 + days away))``, the
    bench's learner on a small bank."""

    def __init__(self, seed: int):
        rnd = random.Random(seed)
        self.rnd = random.Random(seed + 1)
        self.diff = {i: rnd.gauss(0, 0.6) for i, _ in CATALOG}
        self.count: dict[str, int] = {}
        self.last: dict[str, date] = {}

    def p(self, item: str, day: date) -> float:
        gap = (day - self.last[item]).days if item in self.last else 0
        z = 0.2 - self.diff[item] + 1.1 * math.log1p(self.count.get(item, 0)) - 0.45 * math.log1p(gap)
        return 1 / (1 + math.exp(-z))

    def answer(self, item: str, day: date) -> bool:
        right = self.rnd.random() < self.p(item, day)
        self.count[item] = self.count.get(item, 0) + 1
        self.last[item] = day
        return right


def live(days: int, seed: int, new_per_day: int = 3):
    """The learner does every session of the plan up to an interview ``days`` out; the readiness is asked
    a week before it.  Returns (readiness then, true recall of each template on the day, every answer)."""
    interview = DAY0 + timedelta(days=days)
    learner, states, answers, ready = Learner(seed), {}, [], None
    topic = dict(CATALOG)
    for k in range(days):
        today = DAY0 + timedelta(days=k)
        if today == interview - timedelta(days=readiness.HORIZON):
            ready = readiness.readiness(answers, CATALOG, interview, today,
                                        readiness.Outlook(states, new_per_day, interview))
        s = se.Session(states, CATALOG, today, seed=k, new_per_day=new_per_day, interview=interview)
        tries: dict[str, int] = {}
        while not s.done:
            item = s.current.item
            tries[item] = tries.get(item, 0) + 1
            right = learner.answer(item, today) or tries[item] > 3
            s.answer(4 if right else 1, "correct" if right else "wrong",
                     when=datetime.combine(today, time(9), UTC))
            answers.append(readiness.Answer(today, item, topic[item], right))
        states = s.states
    return ready, {i: learner.p(i, interview) for i, _ in CATALOG}, answers


def test_the_readiness_a_week_ahead_lands_near_the_learners_true_recall_on_the_day():
    """Asked 7 days before the interview, after 3 weeks of a 4-week plan: within 6 points of the learner's
    true mean recall on the day overall, and within 8 points in each topic (16 templates each)."""
    for seed in (1, 2):
        ready, recall, _ = live(28, seed)
        assert ready is not None and ready.overall is not None
        true = sum(recall.values()) / len(recall)
        assert abs(ready.overall - true) <= 0.06, (seed, ready.overall, true)
        for t in TOPICS:
            ids = [i for i, tt in CATALOG if tt == t]
            assert ready.topics[t].probability is not None
            assert abs(ready.topics[t].probability - sum(recall[i] for i in ids) / len(ids)) <= 0.08


def test_the_practice_still_to_come_is_in_the_interview_days_figure():
    """Half way through a two-week plan (a third of the bank not met yet), the plan's days to come lift the
    interview day's figure well above what the same answers say with no more practice."""
    ready, _, answers = live(14, 2)
    asked = ready.day - timedelta(days=readiness.HORIZON)
    idle = readiness.readiness([a for a in answers if a.day < asked], CATALOG, ready.day, asked)
    assert ready.overall > idle.overall + 0.08


def test_the_calibration_of_a_small_history_is_close_and_scored_only_a_week_ahead():
    _, _, answers = live(35, 3)
    cal = calibration.calibration(answers, CATALOG)
    assert cal.answers >= 100 and abs(cal.predicted - cal.observed) <= 0.06
    assert sum(n for _, _, n in cal.bins) == cal.answers == sum(n for _, _, n in cal.topics.values())
    assert 0 <= cal.brier <= 0.25
    assert calibration.calibration([a for a in answers if a.day < DAY0 + timedelta(days=14)], CATALOG).answers == 0


# --------------------------------------------------------------------------- properties of the fit

# (log(1 + passes), log(1 + days since the last answer), log(1 + misses))
features = st.tuples(st.floats(0, 5), st.floats(0, 6), st.floats(0, 5))
rows = st.lists(st.tuples(features, st.integers(0, 1)), min_size=1, max_size=60)


@given(rows)
@settings(max_examples=60, deadline=None)
def test_a_fit_keeps_its_signs_and_gives_probabilities(data):
    w = readiness.fit([x for x, _ in data], [y for _, y in data])
    if w is None:
        return
    assert w[1] >= 0 and w[2] <= 0  # a pass helps, time away hurts (a miss: practice, or a sign of a hard one)
    for x, _ in data:
        assert 0.0 <= readiness.predict(w, x) <= 1.0


@given(rows, features, st.floats(0, 2), st.floats(0, 3))
@settings(max_examples=60, deadline=None)
def test_a_prediction_rises_with_passes_and_falls_with_time_away(data, x, passes, longer):
    w = readiness.fit([x for x, _ in data], [y for _, y in data])
    if w is None:
        return
    p = readiness.predict(w, x)
    assert readiness.predict(w, (x[0] + passes, x[1], x[2])) >= p
    assert readiness.predict(w, (x[0], x[1] + longer, x[2])) <= p


def test_a_templates_figure_rises_with_a_pass_and_falls_with_time_away():
    """On a fitted history: one more right answer never lowers a template's figure; a later day never
    raises it (no practice in between)."""
    _, _, answers = live(21, 4)
    day = answers[-1].day + timedelta(days=1)
    base = readiness.readiness(answers, CATALOG, day).items
    later = readiness.readiness(answers, CATALOG, day + timedelta(days=10)).items
    for item, _ in CATALOG:
        assert later[item] <= base[item] + 1e-12
    for item, topic in CATALOG[:6]:
        more = readiness.readiness(answers + [readiness.Answer(day - timedelta(days=1), item, topic, True)],
                                   CATALOG, day).items
        assert more[item] > base[item]


def test_a_same_day_redrill_is_a_training_row_0_days_away_with_the_features_a_prediction_reads():
    """Every answer is a training row, a same-day re-drill too: 0 days away, counting the answers before it
    that day, the memory as it stood (the features a prediction reads from the same answers)."""
    d0 = DAY0
    answers = [readiness.Answer(d0, "a", "t", False), readiness.Answer(d0, "a", "t", True),
               readiness.Answer(d0 + timedelta(days=3), "a", "t", False),
               readiness.Answer(d0 + timedelta(days=3), "a", "t", True), readiness.Answer(d0, "b", "t", True)]
    answers = readiness.in_order(answers)
    rows = readiness.fresh_rows(answers)
    assert [pos for pos, *_ in rows] == list(range(len(answers)))  # no answer left out
    index = Index(answers)
    seen: dict[str, int] = {}
    for pos, _, x, y in rows:
        a = answers[pos]
        k = seen.get(a.item, 0)
        assert x == index.features(a.item, a.day.toordinal(), upto=k)
        assert y == (1 if a.passed else 0)
        seen[a.item] = k + 1
    redrill = rows[answers.index(readiness.Answer(d0 + timedelta(days=3), "a", "t", True))][2]
    assert redrill == (math.log1p(1), 0.0, math.log1p(2))  # one pass and two misses before it, 0 days away


@given(rows, st.randoms(use_true_random=False))
@settings(max_examples=40, deadline=None)
def test_a_fit_does_not_depend_on_the_order_of_its_rows(data, rnd):
    shuffled = data[:]
    rnd.shuffle(shuffled)
    assert readiness.fit(*zip(*data)) == readiness.fit(*zip(*shuffled))


def _history(seed: int, n: int):
    rnd = random.Random(seed)
    out = []
    for k in range(n):
        item, t = rnd.choice(CATALOG)
        out.append(readiness.Answer(DAY0 + timedelta(days=k // 6), item, t, rnd.random() < 0.7))
    return out


@given(st.integers(0, 10_000), st.integers(0, 150), st.randoms(use_true_random=False))
@settings(max_examples=25, deadline=None)
def test_readiness_is_a_probability_or_nothing_and_does_not_depend_on_the_order_of_the_log(seed, n, rnd):
    answers = _history(seed, n)
    day = DAY0 + timedelta(days=n // 6 + 3)
    r = readiness.readiness(answers, CATALOG, day)
    for t, tr in r.topics.items():
        count = sum(1 for a in answers if a.topic == t)
        assert tr.reviews == count
        assert tr.probability is None or 0.0 <= tr.low <= tr.probability <= tr.high <= 1.0
    # one minimum: every figure (overall and each topic) or none, never a number beside "not enough"
    enough = all(r.topics[t].reviews >= readiness.MIN_REVIEWS for t in TOPICS)
    assert (r.overall is not None) == enough
    assert all((tr.probability is not None) == enough for tr in r.topics.values())
    assert r.overall is None or 0.0 <= r.low <= r.overall <= r.high <= 1.0
    # the log in another order (work recorded later, days mixed), a template's answers of a day kept in
    # their order: the same figures
    queues: dict = {}
    for a in answers:
        queues.setdefault((a.item, a.day), []).append(a)
    left, mixed = list(queues.values()), []
    while left:
        q = rnd.choice(left)
        mixed.append(q.pop(0))
        if not q:
            left.remove(q)
    assert readiness.readiness(mixed, CATALOG, day) == r
    assert calibration.calibration(mixed, CATALOG) == calibration.calibration(answers, CATALOG)


def test_drill_plan_and_stats_show_the_learners_own_calibration_in_both_languages(tmp_path):
    """Five weeks of answers (the small learner's, on real templates): `drill plan` says the calibration with
    its Brier score and the share right by predicted chance, in English and Chinese; `drill stats --json`
    keeps readiness's keys and adds the calibration's reliability table and topics (docs/scheduling.md)."""
    import json

    from engine.storage import Profile
    from question_bank import registry
    from tests.cli import drill

    real = {t: [x.id for x in registry.all_templates() if x.topic == t and not x.is_chain] for t in TOPICS}
    name = {f"{t}-{k}": real[t][k] for t in TOPICS for k in range(16)}
    _, _, answers = live(35, 3)
    shift = date(2026, 11, 28) - answers[-1].day
    with Profile.open(tmp_path) as prof:
        for k, a in enumerate(answers):
            day = a.day + shift
            prof.record(se.review_row(item=name[a.item], topic=a.topic, seed=k, quality=4 if a.passed else 1,
                                      verdict="correct" if a.passed else "wrong", today=day, state=None,
                                      when=datetime.combine(day, time(12), UTC), schedule=False))
    out = json.loads(drill("--saves", str(tmp_path), "stats", "--json").stdout)["readiness"]
    assert set(out) == {"day", "min_reviews", "interval_level", "reviews", "overall", "low", "high", "topics",
                        "calibration"}
    # two topics answered of the bank's twelve: one minimum, so no figure anywhere (overall included)
    assert out["overall"] is None and all(t["probability"] is None for t in out["topics"].values())
    assert {t for t, v in out["topics"].items() if v["reviews"] >= out["min_reviews"]} == set(TOPICS)
    cal = out["calibration"]
    assert set(cal) == {"horizon_days", "answers", "predicted", "observed", "brier", "bins", "topics"}
    assert cal["answers"] >= 100 and set(cal["topics"]) == set(TOPICS)
    assert sum(b["answers"] for b in cal["bins"]) == cal["answers"]
    en = drill("--saves", str(tmp_path), "plan").stdout
    assert "Calibration (predicted 7+ days before)" in en and "Brier score" in en
    assert "right, by predicted chance:" in en
    assert "not enough answers yet (10 topics below 12)" in en and "shown once every topic has 12" in en
    zh = drill("--saves", str(tmp_path), "--lang", "zh", "plan").stdout
    assert "校准（提前 7 天以上预测）" in zh and "Brier 分数" in zh and "按预测概率分组的实际答对率" in zh
    assert "作答还不够（10 个主题不足 12 次）" in zh and "每个主题都满 12 次后显示" in zh


def test_every_figure_is_said_with_its_interval_in_both_languages():
    """With enough answers in every topic, `drill plan` and Stats say each topic's own figure and the overall
    one with their credible interval (readiness_view.readiness_lines), in English and Chinese."""
    from drill.core import i18n
    from drill.core.readiness_view import readiness_lines
    from engine.langs import EN, ZH

    _, _, answers = live(21, 5)
    r = readiness.readiness(answers, CATALOG, answers[-1].day)
    assert r.overall is not None and r.low < r.overall < r.high
    cal = calibration.Calibration(0, None, None, None, [])
    for lang, figure in ((EN, "% interval "), (ZH, "% 区间 ")):
        lines = readiness_lines(r, cal, lambda key, lang=lang, **fmt: i18n.t(key, lang, **fmt), lang)
        said = [ln for ln in lines if figure in ln]
        assert len(said) == len(TOPICS) + 1, lines  # every topic and overall
        low, high = round(100 * r.low), round(100 * r.high)
        assert f"{low}-{high} %" in said[-1]  # a space before %, as before any unit
